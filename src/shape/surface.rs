//! [`TriangleSurface`]: what the surface queries need of a triangle mesh or
//! a height field — its triangles by index, which of their edges are
//! active, and three walks over an acceleration structure (a box, a segment
//! front to back, nearest first). The queries themselves
//! (`query::surface`) are written once over it.

use crate::math::{Aabb, Vec3};
use crate::shape::Triangle;
use crate::visit::VisitResult;

/// A static surface of triangles, each named by an index: a
/// [`TriangleMesh`](crate::shape::TriangleMesh) or a
/// [`HeightField`](crate::shape::HeightField).
pub(crate) trait TriangleSurface {
    /// Triangle `i`, for an index a walk handed out.
    fn triangle(&self, i: usize) -> Triangle;

    /// Whether edge `k` of triangle `i` (corner `k` to corner `k + 1`) is
    /// active: on the outline or a crease, not between two triangles
    /// within 5° of one plane.
    fn is_edge_active(&self, i: usize, k: usize) -> bool;

    /// Calls `f(i, triangle)` for every triangle whose bounds overlap `aabb`
    /// (closed), until `f` answers `Break`.
    fn for_each_triangle_in<R: VisitResult>(&self, aabb: &Aabb, f: impl FnMut(usize, Triangle) -> R);

    /// Calls `hit(i, triangle)` for every triangle the segment from `start`
    /// to `end` may cross before the closest hit so far, nearer regions
    /// first; `hit` answers the `t` of its hit, which shortens the rest of
    /// the walk.
    fn for_each_triangle_along(&self, start: Vec3, end: Vec3, hit: impl FnMut(usize, Triangle) -> Option<f32>);

    /// Calls `f(i, triangle)` for the triangles in increasing order of a
    /// lower bound on their distance to `bounds` (the distance between
    /// boxes), stopping once the bound exceeds what `f` answers: the least
    /// distance found so far (`f32::INFINITY` for none).
    fn for_each_triangle_near(&self, bounds: &Aabb, f: impl FnMut(usize, Triangle) -> f32);
}

/// The distance between two boxes: the length of the per-axis gap, by
/// `math::length_without_overflow` (its square overflows for gaps beyond
/// about 1.8e19, and a bound of `∞` on every box would stop a nearest-first
/// walk after the first triangle).
pub(crate) fn box_gap(a: &Aabb, b: &Aabb) -> f32 {
    let d = (a.min - b.max).max(b.min - a.max).max(Vec3::ZERO);
    crate::math::length_without_overflow(d)
}

/// The point `p − center` of `points` with the largest `d·(p − center)`
/// (ties to the first met): the centre-relative support mapping of the
/// points' convex hull, what a generic convex routine sees of a surface.
/// Every point lies in the surface's bounds and `center` is their middle,
/// so each difference is a finite `f32`. `None` for no point.
pub(crate) fn farthest_from(center: Vec3, d: Vec3, points: impl Iterator<Item = Vec3>) -> Option<Vec3> {
    points
        .map(|p| p - center)
        .fold(None, |best: Option<(Vec3, f32)>, offset| {
            let dot = offset.dot(d);
            match best {
                Some((_, b)) if dot <= b => best,
                _ => Some((offset, dot)),
            }
        })
        .map(|(offset, _)| offset)
}

/// The cosine of the largest angle between the planes of two triangles
/// sharing an edge for that edge to be internal (inactive): 5°, Jolt's
/// default. A shape sliding across such an edge is meant to see one
/// smooth surface.
const INTERNAL_EDGE_COS: f64 = 0.996_194_698_091_745_5;

/// Whether the edge two triangles share is internal: their unit normals,
/// in `f64`, agree to within 5° (either winding: surfaces are two-sided).
/// An edge of a degenerate triangle is never internal.
pub(crate) fn is_internal_edge(a: &Triangle, b: &Triangle) -> bool {
    let normal = |t: &Triangle| {
        let [a, b, c] = [t.a, t.b, t.c].map(Vec3::as_dvec3);
        (b - a).cross(c - a).try_normalize()
    };
    match (normal(a), normal(b)) {
        (Some(n), Some(m)) => n.dot(m).abs() >= INTERNAL_EDGE_COS,
        _ => false,
    }
}

/// A triangle's bounds.
#[inline]
pub(crate) fn triangle_bounds(t: &Triangle) -> Aabb {
    Aabb::new(t.a.min(t.b).min(t.c), t.a.max(t.b).max(t.c))
}
