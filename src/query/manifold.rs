//! Contact manifolds: up to four contact points of two shapes, with one
//! normal, a depth per point and a feature id per point, for a solver to
//! keep its impulses across frames (warm starting).
//!
//! The contact (`Shape::contact`: SAT, EPA or closed form) gives the
//! normal; each shape's supporting feature along it (`support_face`: a
//! face, an edge or a point) is taken; the incident feature is clipped
//! against the side planes of the reference feature (Sutherland–Hodgman;
//! the reference is the feature whose plane is closer to the normal, as in
//! Box2D's and Jolt's face clipping) and every clipped point below the
//! reference plane is a contact; more than four are cut to the deepest,
//! the farthest from it and the two spanning the largest area (Box2D v3).
//! A mesh or height field contributes the manifolds of the triangles the
//! shape touches that lie in the deepest one's plane. Where a feature is a
//! single point, the manifold is the contact's one point; so it is where two
//! polyhedra (hulls, a hull and a box) overlap least across two crossing
//! edges, at the edges' closest points (`polyhedra.rs`).

use arrayvec::ArrayVec;

use core::ops::ControlFlow;

use crate::math::Vec3;
use crate::query::compound;
use crate::query::contact::{contact, Contact};
use crate::query::polyhedra::{sat_contact, SatContact};
use crate::shape::support_face::{support_face, SupportFace, MAX_FACE};
use crate::shape::Shape;

/// The most points a manifold keeps.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// How close to the deepest triangle's normal (the length of the unit
/// normals' difference, about the angle in radians) another triangle's
/// manifold normal must be for its points to join the manifold of a mesh
/// or height field: coplanar tiles, up to rounding. Each joined point moves
/// along the common normal by at most its depth times this angle.
const SAME_NORMAL: f32 = 1.0e-5;

/// The least `|cos|` of the angle between a reference face's normal and
/// the contact normal for the face to be clipped against: a face seen
/// nearly edge-on leaves the manifold to the contact's single point.
const EDGE_ON_COSINE: f32 = 0.05;

/// One point of a [`ContactManifold`].
///
/// ```
/// use collide::{Aabb, Shape, math::Vec3};
/// let floor = Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)));
/// let crate_ = Shape::Aabb(Aabb::new(Vec3::new(0.0, -0.1, 0.0), Vec3::new(1.0, 0.9, 1.0)));
/// let m = floor.contact_manifold(&crate_).unwrap();
/// for p in m.points() {
///     assert!((p.depth - 0.1).abs() < 1e-6 && p.point_a.y == 0.0);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ManifoldPoint {
    /// The point on `a`'s surface.
    pub point_a: Vec3,
    /// The point on `b`'s surface: `point_a − depth·normal`.
    pub point_b: Vec3,
    /// How far the shapes overlap at this point along the normal, `>= 0`.
    pub depth: f32,
    /// Which features of the two shapes made the point (the reference and
    /// incident features and the corner or clipped edge): the same from one
    /// frame to the next while the shapes keep touching by the same
    /// features, so a solver can match this frame's points with the last.
    pub id: u32,
}

/// Up to four contact points of two shapes with their common normal.
///
/// ```
/// use collide::{Aabb, Shape, math::Vec3};
/// // A unit crate resting 0.1 deep in a floor: its four bottom corners.
/// let floor = Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)));
/// let crate_ = Shape::Aabb(Aabb::new(Vec3::new(0.0, -0.1, 0.0), Vec3::new(1.0, 0.9, 1.0)));
/// let m = floor.contact_manifold(&crate_).unwrap();
/// assert_eq!((m.normal, m.points().len()), (Vec3::Y, 4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContactManifold {
    /// Unit direction from `a` to `b`, shared by every point.
    pub normal: Vec3,
    /// Which part of each shape decided the answer, `[a, b]`: the index
    /// of a [`Compound`](crate::shape::Compound)'s child, of a mesh's or
    /// height field's triangle; 0 for any other shape. A child of a
    /// compound against a surface names the compound's child.
    pub sub_shapes: [u32; 2],
    points: [ManifoldPoint; MAX_MANIFOLD_POINTS],
    count: u8,
}

impl ContactManifold {
    /// The points, one to four.
    #[inline]
    #[must_use]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..usize::from(self.count)]
    }

    /// The deepest point's depth.
    ///
    /// ```
    /// use collide::{Shape, Sphere, math::Vec3};
    /// let a = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
    /// let b = Shape::Sphere(Sphere::new(Vec3::new(1.5, 0.0, 0.0), 1.0));
    /// assert_eq!(a.contact_manifold(&b).unwrap().depth(), 0.5);
    /// ```
    #[must_use]
    pub fn depth(&self) -> f32 {
        self.points().iter().map(|p| p.depth).fold(0.0, f32::max)
    }

    /// The same manifold seen from `b`: normal negated, points swapped.
    #[must_use]
    pub fn flipped(mut self) -> ContactManifold {
        self.normal = -self.normal;
        self.sub_shapes.swap(0, 1);
        for p in &mut self.points {
            core::mem::swap(&mut p.point_a, &mut p.point_b);
        }
        self
    }

    /// The manifold of a single contact point.
    pub(crate) fn single(c: &Contact, id: u32) -> ContactManifold {
        let mut m = ContactManifold {
            normal: c.normal,
            ..ContactManifold::default()
        };
        m.points[0] = ManifoldPoint {
            point_a: c.point_a,
            point_b: c.point_b,
            depth: c.depth,
            id,
        };
        m.count = 1;
        m
    }

    fn from_points(normal: Vec3, points: &[ManifoldPoint]) -> ContactManifold {
        let mut m = ContactManifold {
            normal,
            ..ContactManifold::default()
        };
        let kept = reduce(points, normal);
        m.count = kept.len() as u8;
        m.points[..kept.len()].copy_from_slice(&kept);
        m
    }
}

impl Shape {
    /// The contact manifold of two shapes: up to four points sharing the
    /// contact's normal (from `self` to `other`), each with its depth and a
    /// feature id; `None` when the shapes are apart. Boxes, hulls,
    /// triangles, capsules' and cylinders' sides and flat caps give the
    /// polygon of their overlap (a box resting on a box: its four corners);
    /// spheres and other curved contacts one point. A mesh or height field
    /// gives the points of the triangles touching the other shape that lie
    /// in the deepest one's plane; two surfaces never touch.
    ///
    /// ```
    /// use collide::{Capsule, Obb, Segment, Shape, math::{Quat, Vec3}};
    /// // A capsule lying on a box: two points, one at each end.
    /// let table = Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::new(3.0, 0.5, 3.0)));
    /// let log = Shape::Capsule(Capsule::new(Segment::new(Vec3::new(-1.0, 0.9, 0.0), Vec3::new(1.0, 0.9, 0.0)), 0.5));
    /// let m = table.contact_manifold(&log).unwrap();
    /// assert_eq!(m.points().len(), 2);
    /// assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-5));
    /// ```
    #[must_use]
    pub fn contact_manifold(&self, other: &Shape) -> Option<ContactManifold> {
        if self.compound().is_some() || other.compound().is_some() {
            let mut deepest: Option<ContactManifold> = None;
            self.for_each_contact_manifold(other, &mut |m| {
                if deepest.is_none_or(|d| m.depth() > d.depth()) {
                    deepest = Some(m);
                }
            });
            return deepest;
        }
        match (self.surface().is_some(), other.surface().is_some()) {
            (true, true) => None,
            (true, false) => surface_manifold(self, other),
            (false, true) => surface_manifold(other, self).map(ContactManifold::flipped),
            (false, false) => {
                let c = match sat_contact(self, other) {
                    Some(SatContact::Apart) => return None,
                    Some(SatContact::Overlapping(_, m)) => return Some(m),
                    Some(SatContact::Undecided) => contact(self, other)?,
                    None => self.contact(other)?,
                };
                Some(convex_manifold(self, other, &c))
            }
        }
    }
}

impl Shape {
    /// Every contact manifold of two shapes into `out` (cleared first): one
    /// per pair of touching parts, each naming its parts in
    /// [`ContactManifold::sub_shapes`] — a compound gives one per child
    /// touching the other shape (a table's four legs on a floor: four
    /// manifolds), every other pair of shapes at most the one of
    /// [`Shape::contact_manifold`], which for a compound is the deepest of
    /// these.
    ///
    /// ```
    /// use collide::{Aabb, Compound, Obb, Shape, Transform, math::{Quat, Vec3}};
    /// let leg = Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::new(0.1, 0.5, 0.1)));
    /// let at = |x: f32, z: f32| Transform::from_translation(Vec3::new(x, 0.45, z));
    /// let table = Shape::from(Compound::new([
    ///     (leg.clone(), at(-1.0, -1.0)), (leg.clone(), at(1.0, -1.0)),
    ///     (leg.clone(), at(-1.0, 1.0)), (leg, at(1.0, 1.0)),
    /// ])?);
    /// let floor = Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)));
    /// let mut manifolds = Vec::new();
    /// floor.contact_manifolds(&table, &mut manifolds);
    /// assert_eq!(manifolds.len(), 4);
    /// assert!(manifolds.iter().enumerate().all(|(i, m)| m.sub_shapes == [0, i as u32] && m.points().len() == 4));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn contact_manifolds(&self, other: &Shape, out: &mut Vec<ContactManifold>) {
        out.clear();
        self.for_each_contact_manifold(other, &mut |m| out.push(m));
    }

    /// Calls `f` with each manifold [`Shape::contact_manifolds`] gives.
    pub(crate) fn for_each_contact_manifold(&self, other: &Shape, f: &mut dyn FnMut(ContactManifold)) {
        if let Some(a) = self.compound() {
            compound::for_each_manifold(a, other, f);
        } else if let Some(b) = other.compound() {
            compound::for_each_manifold(b, self, &mut |m| f(m.flipped()));
        } else if let Some(m) = self.contact_manifold(other) {
            f(m);
        }
    }
}

/// The manifold of two convex shapes in contact `c`: their features along
/// its normal clipped ([`clipped_manifold`]), or its single point where
/// they do not clip.
fn convex_manifold(a: &Shape, b: &Shape, c: &Contact) -> ContactManifold {
    clipped_manifold(a, b, c.normal).unwrap_or_else(|id| ContactManifold::single(c, id))
}

/// The manifold of two convex shapes touching along the unit `n` (from `a`
/// to `b`): each shape's supporting feature along it, the incident one
/// clipped against the reference one. `Err` with the single point's
/// feature id where a feature is a point or the clipping leaves nothing.
pub(crate) fn clipped_manifold(a: &Shape, b: &Shape, n: Vec3) -> Result<ContactManifold, u32> {
    let (Some(fa), Some(fb)) = (support_face(a, n), support_face(b, -n)) else {
        return Err(0);
    };
    let single_id = 0x8000_0000 | (fa.feature & 0x7fff) << 15 | (fb.feature & 0x7fff);
    if fa.corners.len() < 2 || fb.corners.len() < 2 {
        return Err(single_id);
    }
    // The reference feature: a polygon over a segment, then the one whose
    // plane is closer to the normal.
    let alignment = |f: &SupportFace, d: Vec3| f.normal.map_or(-1.0, |m| m.dot(d).abs());
    let a_refers = alignment(&fa, n) >= alignment(&fb, -n);
    let (reference, incident, d) = if a_refers { (&fa, &fb, n) } else { (&fb, &fa, -n) };
    let mut points = ArrayVec::new();
    clip(reference, incident, d, a_refers, &mut points);
    if points.is_empty() {
        return Err(single_id);
    }
    Ok(ContactManifold::from_points(n, &points))
}

/// A point of the incident feature while it is clipped, with its id: the
/// corner (`corner`) or the edge from corner `corner` cut by the
/// reference's side `side`.
#[derive(Debug, Clone, Copy)]
struct Clipped {
    p: Vec3,
    id: u32,
}

/// The contact points of `incident` clipped to the side planes of
/// `reference` (planes through its edges containing `d`, the direction from
/// the reference shape to the incident one), kept where they lie behind
/// the reference's plane, into `points` (empty when the features do not
/// clip: then the manifold is the contact's single point).
/// `reference_is_a`: whether the reference belongs to `a` (so `point_a` is
/// on it).
fn clip(
    reference: &SupportFace,
    incident: &SupportFace,
    d: Vec3,
    reference_is_a: bool,
    points: &mut ArrayVec<ManifoldPoint, MAX_FACE>,
) {
    let r = &reference.corners;
    let centre = r.iter().copied().sum::<Vec3>() / r.len() as f32;
    // The side planes, normals pointing inwards (towards the centre).
    let mut sides: ArrayVec<(Vec3, Vec3), MAX_FACE> = ArrayVec::new();
    if r.len() == 2 {
        // A segment: the two planes through its ends across it.
        if let Some(e) = (r[1] - r[0] - d * d.dot(r[1] - r[0])).try_normalize() {
            sides.push((e, r[0]));
            sides.push((-e, r[1]));
        }
    } else {
        // A face seen nearly edge-on along `d` bounds no prism along it.
        if reference.normal.is_none_or(|m| m.dot(d).abs() < EDGE_ON_COSINE) {
            return;
        }
        for (i, &p) in r.iter().enumerate() {
            let q = r[(i + 1) % r.len()];
            let Some(mut m) = (q - p).cross(d).try_normalize() else {
                return;
            };
            if m.dot(centre - p) < 0.0 {
                m = -m;
            }
            sides.push((m, p));
        }
    }
    // Two buffers, clipped from one into the other in turn.
    let mut buffers: [ArrayVec<Clipped, { 2 * MAX_FACE }>; 2] = [ArrayVec::new(), ArrayVec::new()];
    buffers[0].extend(
        incident
            .corners
            .iter()
            .enumerate()
            .map(|(k, &p)| Clipped { p, id: k as u32 }),
    );
    let closed = buffers[0].len() > 2;
    let mut current = 0;
    for (j, &(m, on)) in sides.iter().enumerate() {
        let [first, second] = &mut buffers;
        let (from, to) = if current == 0 { (first, second) } else { (second, first) };
        clip_to_plane(from, m, on, j as u32, closed, to);
        current = 1 - current;
        if buffers[current].is_empty() {
            break;
        }
    }
    let polygon = &buffers[current];
    // A point within rounding of the reference touches (its depth 0).
    let scale = r
        .iter()
        .chain(&incident.corners)
        .map(|p| p.abs().max_element())
        .fold(1.0, f32::max);
    let touching = 4.0 * f32::EPSILON * scale;
    let features =
        (reference.feature & 0xff) << 23 | (incident.feature & 0xff) << 15 | u32::from(!reference_is_a) << 31;
    let plane = reference.normal.map(|m| if m.dot(d) < 0.0 { -m } else { m });
    for c in polygon.iter().copied() {
        // The point of the reference `d` leads to from `c`, and how far:
        // along `d` to the reference's plane; for a segment, its closest
        // point, which must lie along `d` (parallel segments) or the
        // manifold is the contact's single point.
        let (on_reference, depth) = match plane {
            Some(m) => {
                let depth = m.dot(r[0] - c.p) / m.dot(d);
                (c.p + d * depth, depth)
            }
            None => {
                let q = crate::shape::Segment::new(r[0], r[1]).closest_point(c.p);
                let depth = d.dot(q - c.p);
                if (q - c.p - d * depth).length() > touching {
                    points.clear();
                    return;
                }
                (q, depth)
            }
        };
        if !(depth >= -touching) {
            continue;
        }
        let (point_a, point_b) = if reference_is_a {
            (on_reference, c.p)
        } else {
            (c.p, on_reference)
        };
        if points.len() < MAX_FACE {
            points.push(ManifoldPoint {
                point_a,
                point_b,
                depth: depth.max(0.0),
                id: features | (c.id & 0x7fff),
            });
        }
    }
}

/// Sutherland–Hodgman: the part of `polygon` (closed, or a segment) on the
/// side of the plane through `on` that `m` points to, into `out` (cleared
/// first). A cut edge's point gets the id `0x4000 | corner << 7 | side`.
fn clip_to_plane(
    polygon: &[Clipped],
    m: Vec3,
    on: Vec3,
    side: u32,
    closed: bool,
    out: &mut ArrayVec<Clipped, { 2 * MAX_FACE }>,
) {
    out.clear();
    let distance = |c: &Clipped| m.dot(c.p - on);
    let edges = if closed {
        polygon.len()
    } else {
        polygon.len().saturating_sub(1)
    };
    if !closed && polygon.len() == 1 {
        if distance(&polygon[0]) >= 0.0 {
            out.push(polygon[0]);
        }
        return;
    }
    for i in 0..edges {
        let (p, q) = (polygon[i], polygon[(i + 1) % polygon.len()]);
        let (dp, dq) = (distance(&p), distance(&q));
        if dp >= 0.0 {
            push(out, p);
        }
        if (dp >= 0.0) != (dq >= 0.0) {
            let t = dp / (dp - dq);
            push(
                out,
                Clipped {
                    p: p.p + (q.p - p.p) * t,
                    id: 0x4000 | (p.id & 0x7f) << 7 | (side & 0x7f),
                },
            );
        }
        if !closed && i + 1 == edges && dq >= 0.0 {
            push(out, q);
        }
    }
}

fn push(out: &mut ArrayVec<Clipped, { 2 * MAX_FACE }>, c: Clipped) {
    if !out.is_full() {
        out.push(c);
    }
}

/// At most four of `points`: all of them if four or fewer; else the
/// deepest, the farthest from it, the one making the largest triangle with
/// those two, and the one making the largest on the other side (the area
/// measured in the plane perpendicular to `normal`).
fn reduce(points: &[ManifoldPoint], normal: Vec3) -> ArrayVec<ManifoldPoint, MAX_MANIFOLD_POINTS> {
    if points.len() <= MAX_MANIFOLD_POINTS {
        return points.iter().copied().collect();
    }
    let at = |i: usize| points[i].point_b;
    let deepest = (0..points.len())
        .max_by(|&i, &j| points[i].depth.total_cmp(&points[j].depth).then(j.cmp(&i)))
        .unwrap_or(0);
    let farthest = (0..points.len())
        .max_by(|&i, &j| {
            let d = |k: usize| (at(k) - at(deepest)).reject_from_normalized(normal).length_squared();
            d(i).total_cmp(&d(j)).then(j.cmp(&i))
        })
        .unwrap_or(0);
    let area = |k: usize| (at(farthest) - at(deepest)).cross(at(k) - at(deepest)).dot(normal);
    let third = (0..points.len())
        .max_by(|&i, &j| area(i).total_cmp(&area(j)).then(j.cmp(&i)))
        .unwrap_or(0);
    let fourth = (0..points.len())
        .min_by(|&i, &j| area(i).total_cmp(&area(j)).then(i.cmp(&j)))
        .unwrap_or(0);
    let mut chosen: ArrayVec<usize, MAX_MANIFOLD_POINTS> = ArrayVec::new();
    for i in [deepest, farthest, third, fourth] {
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    chosen.iter().map(|&i| points[i]).collect()
}

/// The manifold of a mesh or height field `surface` and a convex `shape`:
/// the manifold of each triangle the shape touches, the normal `N` of the
/// deepest triangle contact (the surface's contact), and the points of every triangle manifold whose normal is
/// within `SAME_NORMAL` of it (the tiles of a floor), each moved
/// along `N` onto its triangle's plane so that `point_a − point_b =
/// depth·N` holds for all; ids are mixed with the triangle's index.
fn surface_manifold(surface: &Shape, shape: &Shape) -> Option<ContactManifold> {
    let s = surface.surface()?;
    let mut manifolds: Vec<(usize, f32, crate::shape::Triangle, ContactManifold)> = Vec::new();
    s.for_each_triangle_in(&shape.bounding_aabb(), |i, triangle| {
        let t = Shape::Triangle(triangle);
        if let Some(c) = t.contact(shape) {
            manifolds.push((i, c.depth, triangle, convex_manifold(&t, shape, &c)));
        }
        ControlFlow::Continue(())
    });
    // The deepest contact, ties to the smaller index: the surface's contact.
    let (deepest_index, _, _, deepest) = manifolds
        .iter()
        .max_by(|x, y| x.1.total_cmp(&y.1).then(y.0.cmp(&x.0)))?;
    let normal = deepest.normal;
    let mut points: Vec<ManifoldPoint> = Vec::new();
    for (i, _, triangle, m) in &manifolds {
        if (m.normal - normal).length() > SAME_NORMAL {
            continue;
        }
        let mix = (*i as u32).wrapping_mul(0x9e37_79b9);
        let plane = triangle.normal();
        for p in m.points() {
            let moved = match plane {
                Some(t) if m.normal != normal => {
                    let depth = t.dot(triangle.a - p.point_b) / t.dot(normal);
                    (depth >= 0.0).then(|| ManifoldPoint {
                        point_a: p.point_b + normal * depth,
                        depth,
                        ..*p
                    })
                }
                _ => Some(*p),
            };
            points.extend(moved.map(|p| ManifoldPoint { id: p.id ^ mix, ..p }));
        }
    }
    Some(ContactManifold {
        sub_shapes: [*deepest_index as u32, 0],
        ..ContactManifold::from_points(normal, &points)
    })
}
