//! Segment casts: where a segment `P(t) = start + t·d`, `t ∈ [0, 1]`, first
//! meets a shape.
//!
//! Every solid shape uses solid semantics: a segment that starts inside hits
//! at `t = 0`, with the normal `−d/|d|` (pointing back along the segment, so
//! reflecting about it sends a ball back where it came from). A zero-length
//! segment (a point) inside takes the outward normal of the surface nearest
//! it, the way out of the solid: every reported normal is unit. Otherwise
//! the normal is the outward surface normal at the entry point. Any NaN
//! input is a miss.

use crate::math::{entry_face_normal, DVec3, Vec3};
use crate::shape::segment::DSegment;
use crate::shape::{Aabb, Capsule, ConvexHull, Obb, Plane, Segment, Sphere, Triangle};

use super::watertight::WatertightSegment;

/// Where a segment first meets a shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CastHit {
    /// Parameter of the first contact along the segment, in `[0, 1]`.
    pub t: f32,
    /// Unit outward normal of the surface at the hit (see the module docs
    /// for a start inside).
    pub normal: Vec3,
    /// Which part of the shape was hit: the index of a
    /// [`Compound`](crate::shape::Compound)'s child, of a mesh's or height
    /// field's triangle; 0 for any other shape.
    pub sub_shape: u32,
}

impl CastHit {
    /// A hit at `t` (rounded to `f32`) on a round surface whose centre (or
    /// axis) is `offset` away from the hit point: the normal is
    /// `offset/|offset|`, or `−direction/|direction|` when the offset is 0
    /// (a radius-0 sphere or capsule).
    #[inline]
    fn entered(t: f64, offset: DVec3, direction: DVec3) -> Self {
        Self {
            sub_shape: 0,
            t: t as f32,
            normal: offset.normalize_or(-direction.normalize_or_zero()).as_vec3(),
        }
    }

    /// A hit at `t = 0` for a segment that starts inside a solid: the
    /// normal `−direction/|direction|`, normalised in `f64` (where the
    /// squared length of an `f32` direction neither overflows nor
    /// underflows); for a zero-length segment, `way_out()`: the outward
    /// normal of the surface nearest the point.
    #[inline]
    pub(crate) fn started_inside(direction: DVec3, way_out: impl FnOnce() -> Vec3) -> Self {
        Self {
            sub_shape: 0,
            t: 0.0,
            normal: match (-direction).try_normalize() {
                Some(back) => back.as_vec3(),
                None => way_out(),
            },
        }
    }
}

/// The outward normal of the face of a box nearest a point inside it, the
/// box given relative to the point (`lo <= 0 <= hi`): the face at the least
/// of the six distances `−lo_i`, `hi_i` (the first on a tie).
fn nearest_face_normal(lo: DVec3, hi: DVec3) -> Vec3 {
    let mut best = (f64::INFINITY, Vec3::X);
    for axis in 0..3 {
        let mut unit = Vec3::ZERO;
        unit[axis] = 1.0;
        for (distance, normal) in [(-lo[axis], -unit), (hi[axis], unit)] {
            if distance < best.0 {
                best = (distance, normal);
            }
        }
    }
    best.1
}

impl Segment {
    /// Where the segment crosses the plane (a surface, not a half-space):
    /// `t = −(n·start + d) / (n·dir)`, kept when in `[0, 1]`.
    ///
    /// The normal is the plane's, flipped to face the segment's start. A
    /// segment parallel to the plane hits only when it lies in it (`t = 0`);
    /// the book returns `true` there without setting `t`.
    ///
    /// ```
    /// use collide::{Plane, Segment, math::Vec3};
    /// let ground = Plane::from_normal_and_point(Vec3::Y, Vec3::ZERO).unwrap();
    /// let hit = Segment::new(Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, -2.0, 0.0)).cast_plane(&ground).unwrap();
    /// assert_eq!((hit.t, hit.normal), (0.5, Vec3::Y));
    /// ```
    #[must_use]
    pub fn cast_plane(&self, plane: &Plane) -> Option<CastHit> {
        let start_distance = plane.signed_distance(self.start);
        let approach = plane.normal.dot(self.direction());
        let facing = if start_distance < 0.0 {
            -plane.normal
        } else {
            plane.normal
        };
        if approach == 0.0 {
            return (start_distance == 0.0).then_some(CastHit {
                t: 0.0,
                normal: facing,
                sub_shape: 0,
            });
        }
        let t = -start_distance / approach;
        (0.0..=1.0).contains(&t).then_some(CastHit {
            t,
            normal: facing,
            sub_shape: 0,
        })
    }

    /// First contact with a solid sphere.
    ///
    /// Solves `|m + t·d|² = r²` with `m = start − center` for its smaller
    /// root, in the cancellation-free form of Haines et al., "Precision
    /// Improvements for Ray/Sphere Intersection" (*Ray Tracing Gems*, ch. 7):
    /// `h = r² − |m − (m·d/d·d)·d|²`, `t = c / (−b + √(d·d·h))` with
    /// `b = m·d`, `c = m·m − r²`, computed in `f64` (no square or fourth
    /// power overflows or underflows for a finite input). A zero-length
    /// segment is a point test (the book divides by zero), and a segment
    /// inside the sphere hits at 0 (the book misses it).
    ///
    /// ```
    /// use collide::{Segment, Sphere, math::Vec3};
    /// let s = Sphere::new(Vec3::new(5.0, 0.0, 0.0), 1.0);
    /// let hit = Segment::new(Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0)).cast_sphere(&s).unwrap();
    /// assert_eq!((hit.t, hit.normal), (0.4, Vec3::NEG_X));
    /// ```
    #[must_use]
    pub fn cast_sphere(&self, sphere: &Sphere) -> Option<CastHit> {
        let segment = self.to_f64();
        let (m, d) = (segment.start - sphere.center.as_dvec3(), segment.direction());
        let r = f64::from(sphere.radius);
        if m.length_squared() <= r * r {
            return Some(CastHit::started_inside(d, || m.normalize_or(DVec3::X).as_vec3()));
        }
        let t = entry_t(m, d, r * r)?;
        Some(CastHit::entered(t, m + d * t, d))
    }

    /// First contact with a solid box, by the slab method (Kay and Kajiya;
    /// Ericson §5.3.3): the segment is inside the box for
    /// `t ∈ [max_i t_near_i, min_i t_far_i] ∩ [0, 1]`.
    ///
    /// No epsilon: an axis the segment is parallel to (`d_i = 0`) is a
    /// containment test of `start_i`, every other axis a pair of divisions,
    /// so thin motions are kept (the book's absolute `0.001` and exact
    /// re-test drop them). The slab parameters are computed in `f64` from the
    /// `f32` inputs: the differences `bound − start` and `end − start` are
    /// then exact whenever the two coordinates' exponents differ by at most
    /// 29 (their exact difference fits the 53 bits of an `f64`: 1e-3 next
    /// to 1e5 does; 1e-10 next to 1e30 rounds, at 2⁻⁵³ of the larger, far
    /// below its `f32` ulp). Then each parameter is the exact quotient
    /// rounded once, and two parameters that are equal in exact arithmetic
    /// (a segment grazing an edge or a corner, or ending on a face) compare
    /// equal: touching is not lost to rounding, and a miss by any margin an
    /// `f32` input can express stays a miss. The normal is that of the face
    /// entered through, the axis of the latest `t_near`.
    ///
    /// ```
    /// use collide::{Aabb, Segment, math::Vec3};
    /// let b = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
    /// let hit = Segment::new(Vec3::new(-3.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)).cast_aabb(&b).unwrap();
    /// assert_eq!((hit.t, hit.normal), (0.5, Vec3::NEG_X));
    /// ```
    #[must_use]
    pub fn cast_aabb(&self, aabb: &Aabb) -> Option<CastHit> {
        let segment = self.to_f64();
        let (p, d) = (segment.start, segment.direction());
        // The box relative to the start: a difference of two `f32`s, whose
        // sign in `f64` is that of the exact difference.
        let (lo, hi) = (aabb.min.as_dvec3() - p, aabb.max.as_dvec3() - p);
        // One axis's `[near, far]`: all or nothing where the segment does
        // not move, `None` for a miss or a NaN bound.
        let slab = |axis: usize| -> Option<(f64, f64)> {
            if d[axis] == 0.0 {
                let inside = lo[axis] <= 0.0 && 0.0 <= hi[axis];
                return inside.then_some((f64::NEG_INFINITY, f64::INFINITY));
            }
            let (t0, t1) = (lo[axis] / d[axis], hi[axis] / d[axis]);
            match t0.partial_cmp(&t1)? {
                core::cmp::Ordering::Greater => Some((t1, t0)),
                _ => Some((t0, t1)),
            }
        };
        let (x, y, z) = (slab(0)?, slab(1)?, slab(2)?);
        // The entry is through the axis of the latest `near` (the first
        // such axis on a tie).
        let (mut t_near, mut entry_axis) = (x.0, 0);
        if y.0 > t_near {
            (t_near, entry_axis) = (y.0, 1);
        }
        if z.0 > t_near {
            (t_near, entry_axis) = (z.0, 2);
        }
        let t_far = x.1.min(y.1).min(z.1).min(1.0);
        let t = t_near.max(0.0);
        if !(t <= t_far) {
            return None;
        }
        if t_near < 0.0 {
            return Some(CastHit::started_inside(d, || nearest_face_normal(lo, hi)));
        }
        Some(CastHit {
            sub_shape: 0,
            // A start on an entry face, approaching, enters at `0/(−d)`:
            // −0.0, which `+ 0.0` makes 0.0 (every ordering of hits then
            // takes it alike).
            t: (t + 0.0) as f32,
            normal: entry_face_normal(entry_axis, self.direction()),
        })
    }

    /// First contact with a solid oriented box: the segment is taken into
    /// the box's frame, cast against the axis-aligned box there, and the
    /// normal rotated back.
    #[must_use]
    pub fn cast_obb(&self, obb: &Obb) -> Option<CastHit> {
        let local = Segment::new(obb.to_local(self.start), obb.to_local(self.end));
        let local_box = Aabb::new(-obb.half_extents, obb.half_extents);
        local.cast_aabb(&local_box).map(|hit| CastHit {
            sub_shape: 0,
            t: hit.t,
            normal: obb.rotation * hit.normal,
        })
    }

    /// First contact with a solid capsule.
    ///
    /// The capsule is the union of two end spheres and the finite cylinder
    /// between them, so the first contact is the least of: the two sphere
    /// casts, and the entry into the infinite cylinder around the axis when
    /// that entry point lies between the caps (Ericson §5.3.7 without the
    /// end-plane cases, which the spheres cover), all in `f64` as
    /// [`Segment::cast_sphere`]. A zero-length axis is a sphere.
    ///
    /// ```
    /// use collide::{Capsule, Segment, math::Vec3};
    /// let c = Capsule::new(Segment::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)), 0.5);
    /// let hit = Segment::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0)).cast_capsule(&c).unwrap();
    /// assert_eq!((hit.t, hit.normal), (0.375, Vec3::NEG_X));
    /// ```
    #[must_use]
    pub fn cast_capsule(&self, capsule: &Capsule) -> Option<CastHit> {
        let axis = capsule.segment.to_f64();
        let r = f64::from(capsule.radius);
        let start = self.start.as_dvec3();
        if axis.distance_squared_to_point(start) <= r * r {
            return Some(CastHit::started_inside(self.to_f64().direction(), || {
                let off_axis = start - axis.point_at(axis.closest_t(start));
                let across = (axis.end - axis.start).any_orthonormal_vector();
                off_axis.normalize_or(across).as_vec3()
            }));
        }
        let cap_a = self.cast_sphere(&Sphere::new(capsule.segment.start, capsule.radius));
        let cap_b = self.cast_sphere(&Sphere::new(capsule.segment.end, capsule.radius));
        let side = self.cast_cylinder_side(&axis, r);
        // The side first: a cap's sphere lies inside the capsule, so it is
        // never entered before the side where the side is hit; next to the
        // rim the two `t` can round to the same `f32`, and `min_by` keeps
        // the first, the side, whose normal is the capsule's there (the
        // cap's differs in the first order of the tiny gap).
        [side, cap_a, cap_b]
            .into_iter()
            .flatten()
            .min_by(|x, y| x.t.total_cmp(&y.t))
    }

    /// Entry into the infinite cylinder of radius `r` around `axis`, kept
    /// when the entry point projects between the axis' ends: [`entry_t`]
    /// on the components of `start − axis.start` and of the direction
    /// perpendicular to the axis, in `f64`.
    fn cast_cylinder_side(&self, axis: &DSegment, r: f64) -> Option<CastHit> {
        let axis_direction = axis.direction();
        let axis_length_squared = axis_direction.length_squared();
        if axis_length_squared == 0.0 {
            return None;
        }
        let along = |v: DVec3| v.dot(axis_direction) / axis_length_squared;
        let perpendicular = |v: DVec3| v - axis_direction * along(v);
        let segment = self.to_f64();
        let (offset, d) = (segment.start - axis.start, segment.direction());
        let (m, d_perpendicular) = (perpendicular(offset), perpendicular(d));
        let t = entry_t(m, d_perpendicular, r * r)?;
        let s = along(offset + d * t);
        (0.0..=1.0)
            .contains(&s)
            .then(|| CastHit::entered(t, m + d_perpendicular * t, d))
    }
}

/// The first `t ∈ [0, 1]` with `|m + t·d|² = r2` for a start outside
/// (`|m|² > r2`) moving inwards; `None` otherwise (and for NaN).
///
/// The smaller root in the cancellation-free form of Haines et al.,
/// "Precision Improvements for Ray/Sphere Intersection" (*Ray Tracing
/// Gems*, ch. 7): `h = r² − |m − (m·d/d·d)·d|²`, `t = c / (−b + √(d·d·h))`
/// with `b = m·d`, `c = m·m − r²`. In `f64` from `f32` inputs, `d·d·h` (a
/// fourth power of the coordinates) stays below 1.4e154 and a square of a
/// subnormal stays normal, so no finite input overflows or underflows.
fn entry_t(m: DVec3, d: DVec3, r2: f64) -> Option<f64> {
    let a = d.length_squared();
    let b = m.dot(d);
    let c = m.length_squared() - r2;
    // Inside, or not moving towards the centre (or NaN): no entry.
    if !(c > 0.0 && b < 0.0 && a > 0.0) {
        return None;
    }
    let h = r2 - (m - d * (b / a)).length_squared();
    if !(h >= 0.0) {
        return None;
    }
    let t = c / (-b + (a * h).sqrt());
    (t <= 1.0).then_some(t)
}

impl crate::shape::Shape {
    /// The segment cast against this shape, whatever its kind: the closed
    /// forms (slabs for boxes, in the box's frame for an oriented one;
    /// quadratics for spheres and capsules; the watertight test for a
    /// triangle;
    /// plane clipping for a hull; a watertight test per triangle under a
    /// mesh's tree, [`TriangleMesh::cast_segment`](crate::shape::TriangleMesh::cast_segment))
    /// and GJK ray casting ([`Segment::cast_convex`]) for cylinders and cones;
    /// a compound's earliest child.
    #[inline]
    #[must_use]
    pub fn cast_segment(&self, segment: &Segment) -> Option<CastHit> {
        use crate::shape::Shape;
        match self {
            Shape::Aabb(aabb) => segment.cast_aabb(aabb),
            Shape::Sphere(sphere) => segment.cast_sphere(sphere),
            Shape::Capsule(capsule) => segment.cast_capsule(capsule),
            Shape::Obb(obb) => segment.cast_obb(obb),
            Shape::Triangle(triangle) => segment.cast_triangle(triangle),
            Shape::Cylinder(cylinder) => segment.cast_convex(cylinder),
            Shape::Cone(cone) => segment.cast_convex(cone),
            Shape::Hull(hull) => segment.cast_hull(hull),
            Shape::Mesh(mesh) => mesh.cast_segment(segment),
            Shape::HeightField(field) => field.cast_segment(segment),
            Shape::Compound(compound) => super::compound::cast_segment(compound, segment),
        }
    }
}

/// The chord length, relative to a hull's bounding radius, below which
/// [`Segment::cast_hull`] confirms a hit against the hull's vertices.
const GRAZING_CHORD: f64 = 1.0e-2;

impl Segment {
    /// First contact with a solid convex hull, by clipping the segment
    /// against the face planes (Ericson, *Real-Time Collision Detection*,
    /// §5.3.8; Haines, "Fast Ray–Convex Polyhedron Intersection", *Graphics
    /// Gems II*): each plane with `n·d < 0` raises the entry parameter to
    /// `−dist/(n·d)`, each with `n·d > 0` lowers the exit parameter; a plane
    /// the segment runs parallel to is a containment test of the start.
    /// The plane distances and parameters are computed in `f64` from the
    /// `f32` inputs (every product of two `f32` is exact there): in `f32` a
    /// signed distance `n·p + d` at coordinates of 9e3 carries errors of a
    /// few `f32` ulps of 9e3 (1e-3 each), larger than a thin hull, which a
    /// segment through it would miss. The answer is that of the stored
    /// planes, up to one rounding of `t`.
    /// The normal is the plane entered through last; a start inside hits
    /// at `t = 0` with the normal `−d/|d|`, a point inside with the normal
    /// of the face nearest it (the convention of [`Segment::cast_aabb`]).
    ///
    /// The planes hold every vertex on or behind them, but where two faces
    /// meet at a small angle (the rim of a thin hull) a plane that leans out
    /// by the hull builder's tolerance `δ` moves their edge out by `δ/angle`:
    /// a chord through the planes' polytope shorter than `1e-2` of the
    /// hull's bounding radius (a segment grazing such a rim) is answered
    /// against the vertices themselves by the GJK ray cast
    /// ([`Segment::cast_convex`]).
    ///
    /// ```
    /// use collide::{Segment, shape::ConvexHull, math::Vec3};
    /// let cube: Vec<Vec3> = (0..8)
    ///     .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
    ///     .collect();
    /// let hull = ConvexHull::from_points(&cube).unwrap();
    /// let hit = Segment::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(1.0, 0.5, 0.5)).cast_hull(&hull).unwrap();
    /// assert_eq!(hit.t, 0.5);
    /// assert!((hit.normal - Vec3::NEG_X).length() < 1e-6);
    /// ```
    #[must_use]
    pub fn cast_hull(&self, hull: &ConvexHull) -> Option<CastHit> {
        let start = self.start.as_dvec3();
        let d = self.end.as_dvec3() - start;
        let distance = |i: usize| hull.plane_distance(i, start);
        let mut t_enter = 0.0f64;
        let mut t_exit = 1.0f64;
        let mut entry_normal = None;
        for (i, plane) in hull.planes().iter().enumerate() {
            let distance = distance(i);
            let approach = plane.normal.as_dvec3().dot(d);
            if approach == 0.0 {
                if !(distance <= 0.0) {
                    return None;
                }
                continue;
            }
            let t = -distance / approach;
            if approach < 0.0 {
                // Entering; a plane the start is behind constrains nothing
                // (its `t` is negative).
                if distance >= 0.0 && (t > t_enter || entry_normal.is_none()) {
                    t_enter = t;
                    entry_normal = Some(plane.normal);
                }
            } else if !(t >= t_exit) {
                t_exit = t;
            }
            if !(t_enter <= t_exit) {
                return None;
            }
        }
        match entry_normal {
            // A chord through a rim of the planes' polytope: see the docs.
            Some(_) if (t_exit - t_enter) * d.length() <= GRAZING_CHORD * f64::from(hull.bounding_radius()) => {
                self.cast_convex(hull)
            }
            // `+ 0.0` turns a `−0.0` (a start on an entry plane: `−(−0)/a`)
            // into `0.0`, which every ordering of hits takes alike.
            Some(normal) => Some(CastHit {
                sub_shape: 0,
                t: t_enter as f32 + 0.0,
                normal,
            }),
            None => Some(CastHit::started_inside(d, || {
                // A point inside: the face it is nearest (the plane of
                // greatest signed distance, all being negative).
                (0..hull.planes().len())
                    .max_by(|&i, &j| distance(i).total_cmp(&distance(j)))
                    .map_or(Vec3::X, |i| hull.planes()[i].normal)
            })),
        }
    }
}

impl Segment {
    /// First contact with a solid (two-sided) triangle; the normal is the
    /// triangle's, facing the segment's start.
    ///
    /// A watertight test: Woop, Benthin and Wald, "Watertight Ray/Triangle
    /// Intersection" (JCGT 2(1), 2013). The corners are taken into the
    /// segment's frame (the start at the origin, the dominant axis `z` of
    /// `D = end − start` sheared onto the line) and rounded to `f32` once
    /// per corner, so the triangles around an edge or a corner see the very
    /// same 2D points; the edge functions `U = p.x·q.y − p.y·q.x` of those
    /// points are then evaluated in `f64`, where the two products are exact
    /// and the difference is rounded once, so their signs are exact. The
    /// line crosses the triangle when the three signs agree (zeros allowed,
    /// not all zero): a segment through an edge or a corner shared by
    /// triangles of a mesh hits at least one of them. `t` is the plane
    /// crossing `n·(a − start) / n·D` in `f64`, kept in `[0, 1]`.
    ///
    /// A segment lying in the triangle's plane, a degenerate triangle
    /// (`n = 0`, exact in `f64`) and a zero-length segment miss: a flat
    /// triangle has no interior to be inside of, and its edges are
    /// measure-zero for a cast (use [`Segment::cast_convex`] on a thin shape
    /// for grazing queries).
    ///
    /// ```
    /// use collide::{Segment, shape::Triangle, math::Vec3};
    /// let tri = Triangle::new(Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
    /// let hit = Segment::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(0.0, 0.0, -2.0)).cast_triangle(&tri).unwrap();
    /// assert_eq!((hit.t, hit.normal), (0.5, Vec3::Z));
    /// // 2¹⁰⁰ ≈ 1.3e30 times as large: the same answer, bit for bit.
    /// let k = 2f32.powi(100);
    /// let big = Triangle::new(tri.a * k, tri.b * k, tri.c * k);
    /// let down = Segment::new(Vec3::new(0.0, 0.0, 2.0 * k), Vec3::new(0.0, 0.0, -2.0 * k));
    /// let hit = down.cast_triangle(&big).unwrap();
    /// assert_eq!((hit.t, hit.normal), (0.5, Vec3::Z));
    /// ```
    #[must_use]
    pub fn cast_triangle(&self, triangle: &Triangle) -> Option<CastHit> {
        WatertightSegment::new(self)?.cast(triangle)
    }
}
