//! The O(n) cast and O(n²) pair loops: the reference every faster broad
//! phase is tested against (the book's `SegmentCast` and `TestPairwise`).

use slotmap::SlotMap;

use crate::broad::Pair;
use crate::collider::{Collider, ColliderKey, QueryFilter};
use crate::shape::Segment;
use crate::world::Hit;

/// The closest hit of `segment` over all colliders the filter accepts; ties
/// in `t` go to the smaller key.
pub fn segment_cast(
    colliders: &SlotMap<ColliderKey, Collider>,
    segment: &Segment,
    filter: &QueryFilter,
) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    for (key, collider) in colliders {
        if !filter.accepts(key, collider.filter()) {
            continue;
        }
        if let Some(cast) = collider.world_shape().cast_segment(segment) {
            if best.is_none_or(|b| cast.t < b.t) {
                best = Some(Hit::new(key, collider, segment, cast));
            }
        }
    }
    best
}

/// Every overlapping pair whose filters interact, in `(a, b)` key order:
/// the bounds are compared first, then the exact shapes.
pub fn for_each_pair(colliders: &SlotMap<ColliderKey, Collider>, mut f: impl FnMut(Pair)) {
    let all: Vec<(ColliderKey, &Collider)> = colliders.iter().collect();
    for (i, &(key_a, a)) in all.iter().enumerate() {
        for &(key_b, b) in &all[i + 1..] {
            if overlaps(a, b) {
                f(Pair {
                    a: key_a,
                    b: key_b,
                    user_a: a.user_data(),
                    user_b: b.user_data(),
                });
            }
        }
    }
}

/// The narrow test behind every pair finder: filters interact, bounds
/// overlap, shapes overlap.
#[inline]
pub(crate) fn overlaps(a: &Collider, b: &Collider) -> bool {
    a.filter().interacts_with(b.filter())
        && a.aabb().intersects_aabb(b.aabb())
        && a.world_shape().intersects(b.world_shape())
}
