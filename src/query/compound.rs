//! The queries of a [`Compound`], child by child: each question is asked of
//! the children whose bounds it reaches and answered by the one that
//! decides it — the earliest hit, the deepest contact, the nearest point,
//! ties to the smaller index — whose index becomes the compound's side of
//! the answer's sub-shape ids. A child is convex, so the other side may be
//! anything, another compound or a surface included: its own sub-shape id
//! comes back from the child's query.

use crate::math::Vec3;
use crate::query::{CastHit, Contact, ContactManifold, Distance, TimeOfImpact};
use crate::shape::surface::box_gap;
use crate::shape::{Compound, Segment, Shape};

impl Shape {
    /// The shape as a compound, `None` for any other kind.
    #[inline]
    pub(crate) fn compound(&self) -> Option<&Compound> {
        match self {
            Shape::Compound(c) => Some(c),
            _ => None,
        }
    }
}

/// The earliest child the segment hits (ties to the smaller index).
pub(crate) fn cast_segment(c: &Compound, segment: &Segment) -> Option<CastHit> {
    let mut best: Option<CastHit> = None;
    for (i, child, bounds) in c.children_with_bounds() {
        let reaches = segment
            .cast_aabb(bounds)
            .is_some_and(|entry| best.is_none_or(|b| entry.t <= b.t));
        if !reaches {
            continue;
        }
        if let Some(hit) = child.cast_segment(segment) {
            if best.is_none_or(|b| hit.t < b.t) {
                best = Some(CastHit { sub_shape: i, ..hit });
            }
        }
    }
    best
}

/// Whether any child overlaps `other` (touching counts).
pub(crate) fn intersects(c: &Compound, other: &Shape) -> bool {
    c.children_in(&other.bounding_aabb())
        .any(|(_, child)| child.intersects(other))
}

/// The deepest contact of a child with `other`, the normal from the
/// compound to `other`.
pub(crate) fn contact(c: &Compound, other: &Shape) -> Option<Contact> {
    let mut best: Option<Contact> = None;
    for (i, child) in c.children_in(&other.bounding_aabb()) {
        if let Some(contact) = child.contact(other) {
            if best.is_none_or(|b| contact.depth > b.depth) {
                best = Some(Contact {
                    sub_shapes: [i, contact.sub_shapes[1]],
                    ..contact
                });
            }
        }
    }
    best
}

/// The least distance from a child to `other`; a child whose bounds are
/// farther than the best so far is skipped.
pub(crate) fn distance(c: &Compound, other: &Shape) -> Distance {
    let reach = other.bounding_aabb();
    let mut best: Option<Distance> = None;
    for (i, child, bounds) in c.children_with_bounds() {
        if best.is_some_and(|b| box_gap(bounds, &reach) > b.distance) {
            continue;
        }
        let d = child.distance(other);
        if best.is_none_or(|b| d.distance < b.distance) {
            best = Some(Distance {
                sub_shapes: [i, d.sub_shapes[1]],
                ..d
            });
        }
    }
    best.expect("a compound has at least one child")
}

/// When the compound, moving by `motion`, first touches `target`: the
/// earliest child.
pub(crate) fn cast_moving(c: &Compound, motion: Vec3, target: &Shape) -> Option<TimeOfImpact> {
    let reach = target.bounding_aabb();
    let mut best: Option<TimeOfImpact> = None;
    for (i, child, bounds) in c.children_with_bounds() {
        if !bounds.swept(motion).intersects_aabb(&reach) {
            continue;
        }
        if let Some(toi) = child.cast_shape(motion, target) {
            if best.is_none_or(|b| toi.t < b.t) {
                best = Some(TimeOfImpact {
                    sub_shapes: [i, toi.sub_shapes[1]],
                    ..toi
                });
            }
        }
    }
    best
}

/// When `shape`, moving by `motion`, first touches the fixed compound: the
/// earliest child.
pub(crate) fn cast_against(c: &Compound, shape: &Shape, motion: Vec3) -> Option<TimeOfImpact> {
    let swept = shape.bounding_aabb().swept(motion);
    let mut best: Option<TimeOfImpact> = None;
    for (i, child) in c.children_in(&swept) {
        if let Some(toi) = shape.cast_shape(motion, child) {
            if best.is_none_or(|b| toi.t < b.t) {
                best = Some(TimeOfImpact {
                    sub_shapes: [toi.sub_shapes[0], i],
                    ..toi
                });
            }
        }
    }
    best
}

/// Calls `f` with the manifold of each child of the compound `c` touching
/// `other` (and, where `other` is a compound too, of each pair of children),
/// by child index, the compound first.
pub(crate) fn for_each_manifold(c: &Compound, other: &Shape, f: &mut dyn FnMut(ContactManifold)) {
    for (i, child) in c.children_in(&other.bounding_aabb()) {
        child.for_each_contact_manifold(other, &mut |mut m| {
            m.sub_shapes[0] = i;
            f(m);
        });
    }
}
