//! Continuous collision: when moving shapes first touch.
//!
//! - Closed forms for a moving sphere against a fixed infinite line, plane,
//!   box and capsule, and for sphere–sphere, sphere–capsule and
//!   capsule–capsule pairs that both move.
//! - [`shape_cast`]: any two convex shapes moving linearly, by GJK ray
//!   casting on their Minkowski difference.
//! - [`time_of_impact`]: two shapes that translate *and rotate*, by
//!   conservative advancement.
//!
//! Motions are displacements over the step: a shape with motion `m` is at
//! `x + t·m` at time `t ∈ [0, 1]`. Shapes that already touch or overlap at
//! `t = 0` report `t = 0`.

use crate::math::{
    cross_without_overflow, length_without_overflow, midpoint, tolerance_of_sum, unit_without_overflow, Quat, Vec3,
};
use crate::query::contact::contact;
use crate::query::gjk::{self, ray_cast, MinkowskiDifference, TOUCH_TOLERANCE};
use crate::query::rescale::UnitFrame;
use crate::query::CastHit;
use crate::shape::{Aabb, Capsule, Plane, Pose, Segment, Sphere, Support, Transformed};

/// Where and when two moving shapes first touch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeOfImpact {
    /// Time of first contact, in `[0, 1]` (fraction of the motions).
    pub t: f32,
    /// The contact point at time `t`, in world space.
    pub point: Vec3,
    /// Unit contact normal at time `t`, pointing from the first shape to
    /// the second (for a shape against a fixed line or plane: from the
    /// shape towards it).
    pub normal: Vec3,
    /// How the search ended: a first touch at `t > 0`, shapes already
    /// touching at `t = 0`, or (for [`time_of_impact`] only) a time before
    /// contact at the iteration cap.
    pub status: ToiStatus,
    /// Which part of each shape decided the answer, `[moving, target]`: the index
    /// of a [`Compound`](crate::shape::Compound)'s child, of a mesh's or
    /// height field's triangle; 0 for any other shape. A child of a
    /// compound against a surface names the compound's child.
    pub sub_shapes: [u32; 2],
}

impl TimeOfImpact {
    /// A linear cast's answer: [`ToiStatus::Penetrating`] at `t = 0`
    /// (the shapes already touch), else [`ToiStatus::Converged`].
    #[inline]
    fn at(t: f32, point: Vec3, normal: Vec3) -> Self {
        let status = if t == 0.0 {
            ToiStatus::Penetrating
        } else {
            ToiStatus::Converged
        };
        Self {
            sub_shapes: [0; 2],
            t,
            point,
            normal,
            status,
        }
    }
}

/// How a cast or [`time_of_impact`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToiStatus {
    /// The shapes came within the tolerance at `t`: converged.
    Converged,
    /// The shapes already touched or overlapped at `t = 0`.
    Penetrating,
    /// [`time_of_impact`]'s iteration cap was reached first: `t` is a time
    /// before which the shapes certainly do not touch (safe to advance to),
    /// not a contact.
    IterationLimit,
}

/// `v` normalised, or the first of the fallbacks that is not zero, or `X`.
fn unit_or(v: Vec3, fallbacks: &[Vec3]) -> Vec3 {
    unit_without_overflow(v)
        .or_else(|| fallbacks.iter().find_map(|&f| unit_without_overflow(f)))
        .unwrap_or(Vec3::X)
}

/// A closed-form cast solved in the [`UnitFrame`] of its problem, the
/// point mapped back (times and normals do not scale).
fn from_frame(frame: &UnitFrame, toi: Option<TimeOfImpact>) -> Option<TimeOfImpact> {
    toi.map(|toi| TimeOfImpact {
        point: frame.point_from(toi.point),
        ..toi
    })
}

impl Sphere {
    /// A sphere moving by `motion` against a fixed infinite line through
    /// `point` with direction `direction` (a zero direction makes the line a
    /// point).
    ///
    /// Only the parts perpendicular to the line matter: with
    /// `u = direction/|direction|`, `m⊥ = (c − point) − (…·u)u` and `v⊥` the
    /// same for the motion, the centre's distance to the line is
    /// `|m⊥ + t·v⊥|`, and the first `t` with `|m⊥ + t·v⊥| = r` is a segment
    /// cast against a sphere of radius `r` ([`Segment::cast_sphere`]).
    /// Returns the time, the contact point (the foot of the perpendicular
    /// from the centre `c + t·motion` to the line) and the normal from the
    /// sphere to the line. Already touching: `t = 0`. A sphere at rest, or
    /// moving parallel to the line, hits only if it already touches.
    ///
    /// ```
    /// use collide::{Sphere, math::Vec3};
    /// let ball = Sphere::new(Vec3::new(0.0, 5.0, 0.0), 1.0);
    /// let hit = ball.cast_line(Vec3::new(0.0, -8.0, 0.0), Vec3::ZERO, Vec3::X).unwrap();
    /// assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec3::ZERO, Vec3::NEG_Y));
    /// assert!(ball.cast_line(Vec3::ZERO, Vec3::ZERO, Vec3::X).is_none()); // at rest, apart
    /// ```
    #[must_use]
    pub fn cast_line(&self, motion: Vec3, point: Vec3, direction: Vec3) -> Option<TimeOfImpact> {
        // `normalize_or_zero` read a direction longer than about 1.8e19 or
        // shorter than 1e-19 (an over- or underflowing square) as none.
        let u = unit_without_overflow(direction).unwrap_or(Vec3::ZERO);
        let perpendicular = |v: Vec3| v - u * v.dot(u);
        let m = perpendicular(self.center - point);
        let v = perpendicular(motion);
        let hit = Segment::new(m, m + v).cast_sphere(&Sphere::new(Vec3::ZERO, self.radius))?;
        let center = self.center + motion * hit.t;
        let foot = point + u * (center - point).dot(u);
        let normal = unit_or(foot - center, &[v, u.any_orthonormal_vector()]);
        Some(TimeOfImpact::at(hit.t, foot, normal))
    }

    /// A sphere moving by `motion` against a fixed plane (a two-sided
    /// surface): with `s = n·c + d`, the centre reaches distance `r` at
    /// `t = (|s| − r)/(−sign(s)·n·motion)` (Ericson §5.5.3). The point is
    /// where the sphere touches the plane, the normal points from the sphere
    /// to the plane. Already touching (`|s| <= r`): `t = 0`. Moving away or
    /// parallel: `None`.
    ///
    /// ```
    /// use collide::{Plane, Sphere, math::Vec3};
    /// let ground = Plane::from_normal_and_point(Vec3::Y, Vec3::ZERO).unwrap();
    /// let hit = Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0).cast_plane(Vec3::new(4.0, -4.0, 0.0), &ground).unwrap();
    /// assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec3::new(2.0, 0.0, 0.0), Vec3::NEG_Y));
    /// ```
    #[must_use]
    pub fn cast_plane(&self, motion: Vec3, plane: &Plane) -> Option<TimeOfImpact> {
        let s = plane.signed_distance(self.center);
        let side = if s >= 0.0 { 1.0 } else { -1.0 };
        let normal = plane.normal * -side;
        if s.abs() <= self.radius {
            return Some(TimeOfImpact::at(0.0, plane.project_point(self.center), normal));
        }
        let approach = -side * plane.normal.dot(motion);
        if !(approach > 0.0) {
            return None;
        }
        let t = (s.abs() - self.radius) / approach;
        if !(t <= 1.0) {
            return None;
        }
        let center = self.center + motion * t;
        Some(TimeOfImpact::at(t, center + normal * self.radius, normal))
    }

    /// A sphere moving by `motion` against a fixed box (Ericson §5.5.7): the
    /// centre's path is cast against the box grown by `r`; where that first
    /// hit lies outside the box on two axes (an edge region) the answer is
    /// the cast against the edge's capsule of radius `r`, and on three axes
    /// (a vertex region) the first of the casts against the three edge
    /// capsules meeting at the vertex. The normal points from the sphere to
    /// the box. Already touching: `t = 0`.
    ///
    /// ```
    /// use collide::{Aabb, Sphere, math::Vec3};
    /// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    /// // Heading for the edge x = y = 1 diagonally: first touch at distance 1 from it.
    /// let s = Sphere::new(Vec3::new(3.0, 3.0, 0.5), 1.0);
    /// let hit = s.cast_aabb(Vec3::new(-4.0, -4.0, 0.0), &b).unwrap();
    /// let expected = (2.0 - std::f32::consts::FRAC_1_SQRT_2) / 4.0;
    /// assert!((hit.t - expected).abs() < 1e-6);
    /// assert!((hit.point - Vec3::new(1.0, 1.0, 0.5)).length() < 1e-5);
    /// ```
    pub fn cast_aabb(&self, motion: Vec3, aabb: &Aabb) -> Option<TimeOfImpact> {
        // Sizes or motions near `f32::MAX` (the centre plus the motion
        // overflows) or far below 1: at unit scale, as `cast_capsule`.
        let Some(frame) = UnitFrame::for_pair(self, aabb, motion.as_dvec3()) else {
            return self.cast_aabb_in_place(motion, aabb);
        };
        let sphere = Sphere::new(frame.point_to(self.center), frame.length_to(self.radius));
        let boxed = Aabb::new(frame.point_to(aabb.min), frame.point_to(aabb.max));
        from_frame(&frame, sphere.cast_aabb_in_place(frame.vector_to(motion), &boxed))
    }

    /// [`Sphere::cast_aabb`] in the frame of the shapes as given.
    fn cast_aabb_in_place(&self, motion: Vec3, aabb: &Aabb) -> Option<TimeOfImpact> {
        let r = self.radius;
        let path = Segment::new(self.center, self.center + motion);
        // The centre and its closest box point in `f64`: they are `r` apart,
        // which may be below the coordinates' `f32` spacing (a ball 3e-4
        // wide at 2e4); where they meet even there, the normal is that of
        // the face the grown box was entered through (`entry`).
        let to_result = |t: f32, entry: Vec3| {
            let center = self.center.as_dvec3() + motion.as_dvec3() * f64::from(t);
            let point = center.clamp(aabb.min.as_dvec3(), aabb.max.as_dvec3());
            TimeOfImpact::at(
                t,
                point.as_vec3(),
                unit_or((point - center).as_vec3(), &[entry, motion, Vec3::X]),
            )
        };
        // In `f64` ([`Sphere::intersects_aabb`]): in `f32`, `|c − box|² <= r²`
        // read `∞ <= ∞` beyond about 1.8e19 and `0 <= 0` below 1e-23.
        if self.intersects_aabb(aabb) {
            // Inside: the normal points to the box's centre when the sphere's
            // centre is in the box itself.
            let center = self.center;
            let point = aabb.closest_point(center);
            let normal = unit_or(point - center, &[Aabb::center(aabb) - center, motion]);
            return Some(TimeOfImpact::at(0.0, point, normal));
        }
        let grown = aabb.expanded(r);
        let hit = path.cast_aabb(&grown)?;
        let p = path.point_at(hit.t);
        let below = p.cmplt(aabb.min).bitmask();
        let above = p.cmpgt(aabb.max).bitmask();
        let outside = below | above;
        let corner = |bits: u32| {
            Vec3::new(
                if bits & 1 != 0 { aabb.max.x } else { aabb.min.x },
                if bits & 2 != 0 { aabb.max.y } else { aabb.min.y },
                if bits & 4 != 0 { aabb.max.z } else { aabb.min.z },
            )
        };
        let t = match outside.count_ones() {
            0 | 1 => Some(hit.t),
            2 => {
                // The edge along the one axis not in `outside`.
                let free = 7 & !outside;
                let fixed = above;
                let edge = Segment::new(corner(fixed), corner(fixed | free));
                path.cast_capsule(&Capsule::new(edge, r)).map(|h| h.t)
            }
            _ => {
                let vertex = corner(above);
                [1u32, 2, 4]
                    .into_iter()
                    .filter_map(|bit| {
                        let edge = Segment::new(vertex, corner(above ^ bit));
                        path.cast_capsule(&Capsule::new(edge, r))
                    })
                    .map(|h: CastHit| h.t)
                    .min_by(f32::total_cmp)
            }
        }?;
        Some(to_result(t, -hit.normal))
    }

    /// A sphere moving by `motion` against a capsule moving by
    /// `capsule_motion`: in the capsule's frame the centre's path is cast
    /// against the capsule grown by `r` ([`Segment::cast_capsule`]). The
    /// normal points from the sphere to the capsule.
    ///
    /// ```
    /// use collide::{Capsule, Segment, Sphere, math::Vec3};
    /// let pole = Capsule::new(Segment::new(Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0)), 0.5);
    /// let hit = Sphere::new(Vec3::new(-4.0, 2.0, 0.0), 0.5).cast_capsule(Vec3::new(6.0, 0.0, 0.0), &pole, Vec3::ZERO).unwrap();
    /// assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec3::new(-0.5, 2.0, 0.0), Vec3::X));
    /// ```
    #[must_use]
    pub fn cast_capsule(&self, motion: Vec3, capsule: &Capsule, capsule_motion: Vec3) -> Option<TimeOfImpact> {
        // Radii or motions near `f32::MAX` (an infinite grown radius would
        // read as touching at `t = 0`) or far below 1: at unit scale.
        let relative = motion.as_dvec3() - capsule_motion.as_dvec3();
        let Some(frame) = UnitFrame::for_pair(self, capsule, relative) else {
            return self.cast_capsule_in_place(motion, capsule, capsule_motion);
        };
        let sphere = Sphere::new(frame.point_to(self.center), frame.length_to(self.radius));
        let toi = sphere.cast_capsule_in_place(
            frame.vector_to(motion),
            &frame.capsule(capsule),
            frame.vector_to(capsule_motion),
        );
        from_frame(&frame, toi)
    }

    /// [`Sphere::cast_capsule`] in the frame of the shapes as given.
    fn cast_capsule_in_place(&self, motion: Vec3, capsule: &Capsule, capsule_motion: Vec3) -> Option<TimeOfImpact> {
        let relative = motion - capsule_motion;
        let path = Segment::new(self.center, self.center + relative);
        let grown = Capsule::new(capsule.segment, capsule.radius + self.radius);
        let hit = path.cast_capsule(&grown)?;
        let center = self.center + motion * hit.t;
        // In `f64`: the centre is `r_a + r_b` from the axis, which may be
        // far below the coordinates' size, and the normal is their offset.
        let t = f64::from(hit.t);
        let axis = capsule.segment.to_f64();
        let (center_f64, carried) = (
            self.center.as_dvec3() + motion.as_dvec3() * t,
            capsule_motion.as_dvec3() * t,
        );
        let on_axis = axis.point_at(axis.closest_t(center_f64 - carried)) + carried;
        let normal = unit_or((on_axis - center_f64).as_vec3(), &[-hit.normal, relative]);
        Some(TimeOfImpact::at(hit.t, center + normal * self.radius, normal))
    }

    /// Two spheres moving by `motion` and `other_motion`: the relative path
    /// of the centre against a sphere of radius `r_a + r_b` (Ericson
    /// §4.5.3.1). The normal points from `self` to `other`.
    ///
    /// ```
    /// use collide::{Sphere, math::Vec3};
    /// let a = Sphere::new(Vec3::ZERO, 1.0);
    /// let b = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 1.0);
    /// let hit = a.cast_sphere(Vec3::new(8.0, 0.0, 0.0), &b, Vec3::new(-8.0, 0.0, 0.0)).unwrap();
    /// assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec3::new(5.0, 0.0, 0.0), Vec3::X));
    /// ```
    #[must_use]
    pub fn cast_sphere(&self, motion: Vec3, other: &Sphere, other_motion: Vec3) -> Option<TimeOfImpact> {
        self.cast_capsule(
            motion,
            &Capsule::new(Segment::new(other.center, other.center), other.radius),
            other_motion,
        )
    }
}

impl Capsule {
    /// Two capsules moving by `motion` and `other_motion`, in closed form.
    ///
    /// The capsules touch when the relative displacement `−t·(m_a − m_b)`
    /// enters `P ⊕ ball(r_a + r_b)`, where `P = axis_a − axis_b` is the
    /// parallelogram with corners `a_i − b_j`. That rounded parallelogram is
    /// the union of the capsules around its four edges and the slab of
    /// half-thickness `r_a + r_b` over its face, so the first contact is the
    /// least of four segment–capsule casts and two segment–rectangle hits
    /// (parallel axes make `P` a segment, covered by the edge capsules). The
    /// point and normal come from the axes' closest points at that time.
    ///
    /// ```
    /// use collide::{Capsule, Segment, math::Vec3};
    /// let a = Capsule::new(Segment::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)), 0.5);
    /// let b = Capsule::new(Segment::new(Vec3::new(0.0, 3.0, -1.0), Vec3::new(0.0, 3.0, 1.0)), 0.5);
    /// let hit = a.cast_capsule(Vec3::new(0.0, 4.0, 0.0), &b, Vec3::ZERO).unwrap();
    /// assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec3::new(0.0, 2.5, 0.0), Vec3::Y));
    /// ```
    pub fn cast_capsule(&self, motion: Vec3, other: &Capsule, other_motion: Vec3) -> Option<TimeOfImpact> {
        // Radii, axes or motions near `f32::MAX` (an infinite sum of the
        // radii would read as touching at `t = 0`) or far below 1: at unit
        // scale.
        let relative = motion.as_dvec3() - other_motion.as_dvec3();
        let Some(frame) = UnitFrame::for_pair(self, other, relative) else {
            return self.cast_capsule_in_place(motion, other, other_motion);
        };
        let toi = frame.capsule(self).cast_capsule_in_place(
            frame.vector_to(motion),
            &frame.capsule(other),
            frame.vector_to(other_motion),
        );
        from_frame(&frame, toi)
    }

    /// [`Capsule::cast_capsule`] in the frame of the shapes as given.
    fn cast_capsule_in_place(&self, motion: Vec3, other: &Capsule, other_motion: Vec3) -> Option<TimeOfImpact> {
        let radius = self.radius + other.radius;
        let (a0, a1) = (self.segment.start, self.segment.end);
        let (b0, b1) = (other.segment.start, other.segment.end);
        let ray = Segment::new(Vec3::ZERO, other_motion - motion);
        let corners = [a0 - b0, a1 - b0, a1 - b1, a0 - b1];
        let (e1, e2) = (a1 - a0, b0 - b1);
        // In `f64` ([`Capsule::intersects_capsule`]): in `f32` the squared
        // distance and `r²` are both `∞` beyond about 1.8e19 (and both 0
        // below 1e-23), which read as touching.
        let t = if self.intersects_capsule(other) {
            0.0
        } else {
            let mut first: Option<f32> = None;
            let mut keep = |t: f32| {
                if first.is_none_or(|f| t < f) {
                    first = Some(t);
                }
            };
            for k in 0..4 {
                let edge = Capsule::new(Segment::new(corners[k], corners[(k + 1) % 4]), radius);
                if let Some(hit) = ray.cast_capsule(&edge) {
                    keep(hit.t);
                }
            }
            for t in face_entries(corners[0], e1, e2, ray.direction(), radius)
                .into_iter()
                .flatten()
            {
                keep(t);
            }
            first?
        };
        // The axes at `t` relative to `b0` (`corners` are the exact `f32`
        // differences): at coordinates of 580, whose spacing is 6e-5,
        // absolute positions would move capsules 3e-4 thick by a fifth of
        // their size.
        let a_at = Segment::new(corners[0] + motion * t, corners[1] + motion * t);
        let b_at = Segment::new(other_motion * t, (b1 - b0) + other_motion * t);
        let closest = a_at.closest_points(&b_at);
        let centre_line = Support::center(&b_at) - Support::center(&a_at);
        // Closest points within the rounding of the axes' coordinates are
        // one point (crossing axes), whose difference has no direction.
        let reach = [a_at.start, a_at.end, b_at.start, b_at.end]
            .iter()
            .map(|p| p.abs().max_element())
            .fold(0.0f32, f32::max);
        let between = closest.point_b - closest.point_a;
        let between = if length_without_overflow(between) > 4.0 * f32::EPSILON * reach {
            between
        } else {
            Vec3::ZERO
        };
        let normal = unit_or(
            between,
            &[e_cross(&a_at, &b_at, centre_line), centre_line, other_motion - motion],
        );
        Some(TimeOfImpact::at(
            t,
            b0 + (closest.point_a + normal * self.radius),
            normal,
        ))
    }
}

/// The times `t ∈ [0, 1]` at which the ray `t·r` from the origin meets
/// the two faces of the slab of half-thickness `radius` over the
/// parallelogram `c + s·e1 + u·e2`, `s, u ∈ [0, 1]` (`None` for a face it
/// misses); `t = 0` when the origin lies in that slab already.
///
/// With `n0 = e1 × e2` and `n = n0/|n0|`, the faces are the planes
/// `n·x = n·c ± radius`, met at `t = (n·c ± radius)/(n·r)`; the point is
/// over the parallelogram when the coordinates `s = (y × e2)·n0/|n0|²` and
/// `u = (e1 × y)·n0/|n0|²` of `y = t·r ∓ radius·n − c` are in `[0, 1]`.
/// `|n0|²` is a fourth power of the problem's size: its `f32` overflows
/// from about 1e10 and underflows below about 1e-10 (a zero or subnormal
/// `|n0|²` made the face look degenerate, an infinite one a zero normal).
/// Where it is not a normal `f32`, the problem is first divided by its
/// largest coordinate (which leaves every `t`, `s` and `u` alone); axes
/// that are parallel at that scale have no face (the edges cover it).
fn face_entries(c: Vec3, e1: Vec3, e2: Vec3, r: Vec3, radius: f32) -> [Option<f32>; 2] {
    if e1.cross(e2).length_squared().is_normal() {
        return face_entries_in_place(c, e1, e2, r, radius);
    }
    let largest = [c, e1, e2, r]
        .into_iter()
        .fold(radius, |m, v| m.max(v.abs().max_element()));
    if !(largest > 0.0 && largest.is_finite()) {
        return [None; 2];
    }
    let unit = |v: Vec3| v / largest;
    face_entries_in_place(unit(c), unit(e1), unit(e2), unit(r), radius / largest)
}

/// [`face_entries`] at the scale given: none where `|e1 × e2|²` is not a
/// normal `f32`.
fn face_entries_in_place(c: Vec3, e1: Vec3, e2: Vec3, r: Vec3, radius: f32) -> [Option<f32>; 2] {
    let n0 = e1.cross(e2);
    let nn = n0.length_squared();
    if !nn.is_normal() {
        return [None; 2];
    }
    let n = n0 / nn.sqrt();
    // A start already in the slab over the parallelogram is inside: `t = 0`
    // (the test of the capsules' overlap at the start may round the other
    // way, and the faces' entries are then behind the ray).
    let height = -n.dot(c);
    if height.abs() <= radius {
        let y = -c - n * height;
        let s = y.cross(e2).dot(n0) / nn;
        let u = e1.cross(y).dot(n0) / nn;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&u) {
            return [Some(0.0), None];
        }
    }
    let approach = n.dot(r);
    if approach == 0.0 {
        return [None; 2];
    }
    [1.0f32, -1.0].map(|side| {
        // The face plane n·x = n·c + side·radius.
        let t = (n.dot(c) + side * radius) / approach;
        if !(0.0..=1.0).contains(&t) {
            return None;
        }
        let y = r * t - n * (side * radius) - c;
        let s = y.cross(e2).dot(n0) / nn;
        let u = e1.cross(y).dot(n0) / nn;
        ((0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&u)).then_some(t)
    })
}

/// A normal for crossing axes: perpendicular to both, facing `towards`
/// ([`cross_without_overflow`]: the `f32` cross product of two axes
/// overflows beyond about 1.8e19 and vanishes below 1e-23).
fn e_cross(a: &Segment, b: &Segment, towards: Vec3) -> Vec3 {
    let n = cross_without_overflow(a.direction(), b.direction());
    if n.dot(towards) < 0.0 {
        -n
    } else {
        n
    }
}

/// The first time two convex shapes moving linearly by `motion_a` and
/// `motion_b` touch, or `None` if they stay apart over `t ∈ [0, 1]`.
///
/// A GJK ray cast (van den Bergen 2004) on the cores' Minkowski difference
/// grown by the margins: in the frame of `b`, `a` moves by
/// `motion_a − motion_b`, and they touch when `t·(motion_b − motion_a)`
/// enters `A − B`. Every step moves `t` only forward, to a time before
/// contact; the hit is then settled on the shapes placed at `t` (their
/// GJK closest points), so the time is exact to a gap of `1e-6` of the
/// shapes' size and the point lies on both shapes at `t` (the midpoint of
/// their closest points). The normal points from `a` to `b`. Shapes that
/// already touch or overlap return `t = 0` with the normal of their
/// [`contact`] and its point on `b` (inside `a`).
///
/// ```
/// use collide::{Aabb, query::shape_cast, shape::Cone, math::Vec3};
/// let cone = Cone::new(Vec3::new(0.0, 5.0, 0.0), Vec3::new(0.0, 6.0, 0.0), 1.0);
/// let floor = Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0));
/// let hit = shape_cast(&cone, Vec3::new(0.0, -10.0, 0.0), &floor, Vec3::ZERO).unwrap();
/// assert!((hit.t - 0.5).abs() < 1e-5);
/// assert!((hit.normal - Vec3::NEG_Y).length() < 1e-5);
/// ```
pub fn shape_cast<A: Support + ?Sized, B: Support + ?Sized>(
    a: &A,
    motion_a: Vec3,
    b: &B,
    motion_b: Vec3,
) -> Option<TimeOfImpact> {
    let Some(frame) = UnitFrame::for_pair(a, b, motion_b.as_dvec3() - motion_a.as_dvec3()) else {
        return shape_cast_in_place(a, motion_a, b, motion_b);
    };
    let (motion_a, motion_b) = (frame.vector_to(motion_a), frame.vector_to(motion_b));
    let toi = shape_cast_in_place(&frame.place(a), motion_a, &frame.place(b), motion_b)?;
    Some(TimeOfImpact {
        point: frame.point_from(toi.point),
        ..toi
    })
}

/// [`shape_cast`] in the frame of the shapes as given.
fn shape_cast_in_place<A: Support + ?Sized, B: Support + ?Sized>(
    a: &A,
    motion_a: Vec3,
    b: &B,
    motion_b: Vec3,
) -> Option<TimeOfImpact> {
    let pair = MinkowskiDifference::new(a, b);
    let r = motion_b - motion_a;
    let hit = ray_cast(&pair, r, 1.0)?;
    if hit.started_inside {
        // Touching within the cast's tolerance but perhaps not overlapping:
        // fall back on the direction between the centres.
        let normal_guess = unit_or(-pair.offset, &[r, Vec3::X]);
        // The point is the contact's point on the target (inside `a`), or
        // the common point of two touching shapes.
        return Some(match contact(a, b) {
            Some(c) => TimeOfImpact::at(0.0, c.point_b, c.normal),
            None => {
                let d = gjk::distance(a, b);
                TimeOfImpact::at(0.0, d.point_b, d.normal.unwrap_or(normal_guess))
            }
        });
    }
    let t = hit.lambda.clamp(0.0, 1.0);
    let origin = b.center();
    let normal = hit.normal;
    let along = hit.witness_normal;
    let point_a = origin + hit.point_a + motion_a * t + along * a.margin();
    let point_b = origin + hit.point_b + motion_b * t - along * b.margin();
    Some(TimeOfImpact::at(t, midpoint(point_a, point_b), normal))
}

impl crate::shape::Shape {
    /// When this shape, moving by `motion`, first touches the fixed shape
    /// `target`: the closed forms where there are some (a sphere against a
    /// box, sphere or capsule, [`Sphere::cast_aabb`] and friends; a capsule
    /// against a capsule) and the GJK ray cast ([`shape_cast`]) for every
    /// other pair. The normal points from `self` to `target`; shapes that
    /// already touch report `t = 0`. A mesh on either side is cast against
    /// triangle by triangle under its tree, the earliest wins
    /// ([`TriangleMesh::cast_shape_against`](crate::shape::TriangleMesh::cast_shape_against));
    /// two meshes never hit. A compound on either side answers with its
    /// earliest child.
    ///
    /// ```
    /// use collide::{Aabb, Shape, Sphere, math::Vec3};
    /// let ball = Shape::Sphere(Sphere::new(Vec3::new(0.0, 5.0, 0.0), 1.0));
    /// let floor = Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)));
    /// let hit = ball.cast_shape(Vec3::new(0.0, -8.0, 0.0), &floor).unwrap();
    /// assert_eq!((hit.t, hit.normal), (0.5, Vec3::NEG_Y));
    /// ```
    #[must_use]
    pub fn cast_shape(&self, motion: Vec3, target: &Self) -> Option<TimeOfImpact> {
        use crate::shape::Shape as S;
        match (self, target) {
            (S::Sphere(a), S::Aabb(b)) => a.cast_aabb(motion, b),
            (S::Sphere(a), S::Sphere(b)) => a.cast_sphere(motion, b, Vec3::ZERO),
            (S::Sphere(a), S::Capsule(b)) => a.cast_capsule(motion, b, Vec3::ZERO),
            (S::Capsule(a), S::Capsule(b)) => a.cast_capsule(motion, b, Vec3::ZERO),
            (S::Compound(a), _) => super::compound::cast_moving(a, motion, target),
            (_, S::Compound(b)) => super::compound::cast_against(b, self, motion),
            _ => match (self.surface(), target.surface()) {
                (Some(_), Some(_)) => None,
                (None, Some(b)) => b.cast_shape_against(self, motion),
                (Some(a), None) => {
                    // The surface moving by `motion` against a fixed shape is
                    // the shape moving by `−motion` against a fixed surface,
                    // seen from the surface: the point moves back by
                    // `t·motion`, the normal turns round.
                    let toi = a.cast_shape_against(target, -motion)?;
                    Some(TimeOfImpact {
                        sub_shapes: [toi.sub_shapes[1], toi.sub_shapes[0]],
                        ..TimeOfImpact::at(toi.t, toi.point + motion * toi.t, -toi.normal)
                    })
                }
                (None, None) => shape_cast(self, motion, target, Vec3::ZERO),
            },
        }
    }
}

/// A rigid motion over a step: the shape (given in its own frame) starts at
/// `start`, its point `local_center` (in the shape's frame) moves by
/// `linear` over the step, and the shape turns about that point by the
/// rotation vector `angular · t` (axis × angle in radians per step).
///
/// `pose(t) : x ↦ c + t·linear + R(t·angular)·R₀·(x − local_center)`, with
/// `c = start.apply(local_center)` — the same parametrisation as parry's
/// `NonlinearRigidMotion` over `t ∈ [0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidMotion {
    /// Pose at `t = 0`.
    pub start: Pose,
    /// The centre of rotation, in the shape's own frame.
    pub local_center: Vec3,
    /// Displacement of the centre of rotation over the step.
    pub linear: Vec3,
    /// Rotation over the step as a rotation vector (radians, right-handed).
    pub angular: Vec3,
}

impl RigidMotion {
    /// A motion (see the type docs).
    #[inline]
    #[must_use]
    pub const fn new(start: Pose, local_center: Vec3, linear: Vec3, angular: Vec3) -> Self {
        Self {
            start,
            local_center,
            linear,
            angular,
        }
    }

    /// A shape that stays at `pose`.
    #[inline]
    #[must_use]
    pub const fn stationary(pose: Pose) -> Self {
        Self::new(pose, Vec3::ZERO, Vec3::ZERO, Vec3::ZERO)
    }

    /// The pose at time `t`.
    ///
    /// ```
    /// use collide::{query::RigidMotion, shape::Pose, math::Vec3};
    /// let spin = RigidMotion::new(Pose::IDENTITY, Vec3::X, Vec3::ZERO, Vec3::new(0.0, 0.0, std::f32::consts::PI));
    /// // Half a turn about the point x = 1 takes the origin to (2, 0, 0).
    /// assert!((spin.pose_at(1.0).apply(Vec3::ZERO) - Vec3::new(2.0, 0.0, 0.0)).length() < 1e-6);
    /// ```
    #[must_use]
    pub fn pose_at(&self, t: f32) -> Pose {
        let rotation = Quat::from_scaled_axis(self.angular * t) * self.start.rotation;
        let center = self.start.apply(self.local_center) + self.linear * t;
        Pose::new(rotation, center - rotation * self.local_center)
    }
}

/// Settings of [`time_of_impact`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiOptions {
    /// Most advancement steps before giving up with
    /// [`ToiStatus::IterationLimit`].
    pub max_iterations: usize,
    /// The distance at which the shapes count as touching, relative to the
    /// sum of their bounding radii (the "linear slop").
    pub tolerance: f32,
}

impl Default for ToiOptions {
    /// 256 steps, a tolerance of `1e-4` of the shapes' size. Most contacts
    /// converge in a few dozen steps; the cap is met by near misses that
    /// graze past each other while turning (conservative advancement
    /// crawls there), in about 1 pair in 2,500 of the random tests.
    fn default() -> Self {
        Self {
            max_iterations: 256,
            tolerance: 1.0e-4,
        }
    }
}

/// `|ω|·ρ`: how fast a point at most `reach` from the centre of rotation
/// moves as its shape turns by the rotation vector `angular` over the step;
/// 0 for a motion that does not turn, however far its centre of rotation
/// lies (a reach that overflows would make `0·∞ = NaN`).
#[inline]
fn turning_speed(angular: Vec3, reach: f32) -> f32 {
    if angular == Vec3::ZERO {
        0.0
    } else {
        length_without_overflow(angular) * reach
    }
}

/// The first time two shapes that translate and rotate come within the
/// tolerance of each other, or `None` if they provably stay apart over
/// `t ∈ [0, 1]`.
///
/// Conservative advancement (Mirtich, *Impulse-based Dynamic Simulation of
/// Rigid Body Systems*, 1996, §2.3.2; Catto, "Continuous Collision", GDC
/// 2013): at time `t` take the distance `d` and normal `n` of the placed
/// shapes ([`gjk::distance`]); no point of the shapes closes the gap faster
/// than `μ = (v_a − v_b)·n + |ω_a|·ρ_a + |ω_b|·ρ_b`, where `ρ` bounds the
/// distance from each centre of rotation to its shape; so they cannot touch
/// before `t + (d − slop/2)/μ`, and `t` advances there. It stops when
/// `d <= slop` (converged), when `μ <= 0` or `t > 1` (no contact), or at the
/// iteration cap (`t` then a safe lower bound). The shapes are given in
/// their own frames and placed by the motions.
///
/// ```
/// use collide::{Aabb, query::{time_of_impact, RigidMotion, ToiOptions, ToiStatus}, shape::Pose, math::Vec3};
/// let plank = Aabb::new(Vec3::new(-2.0, -0.1, -0.1), Vec3::new(2.0, 0.1, 0.1));
/// let post = Aabb::new(Vec3::new(-0.1, -0.1, -1.0), Vec3::new(0.1, 0.1, 1.0));
/// // The plank turns a quarter turn about its centre; the post stands at x = 0, y = 1.5.
/// let spin = RigidMotion::new(Pose::IDENTITY, Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 0.0, std::f32::consts::FRAC_PI_2));
/// let still = RigidMotion::stationary(Pose::from_translation(Vec3::new(0.0, 1.5, 0.0)));
/// let hit = time_of_impact(&plank, &spin, &post, &still, &ToiOptions::default()).unwrap();
/// assert_eq!(hit.status, ToiStatus::Converged);
/// assert!(hit.t > 0.5 && hit.t < 1.0);
/// ```
pub fn time_of_impact<A: Support + ?Sized, B: Support + ?Sized>(
    a: &A,
    motion_a: &RigidMotion,
    b: &B,
    motion_b: &RigidMotion,
    options: &ToiOptions,
) -> Option<TimeOfImpact> {
    // Each tolerance of the sum of the radii, without the sum itself: two
    // radii near `f32::MAX` sum to `∞`, and every distance was within an
    // infinite slop.
    let (ra, rb) = (a.bounding_radius(), b.bounding_radius());
    let slop = tolerance_of_sum(options.tolerance, ra, rb).max(tolerance_of_sum(TOUCH_TOLERANCE, ra, rb));
    let reach_a = length_without_overflow(a.center() - motion_a.local_center) + a.bounding_radius();
    let reach_b = length_without_overflow(b.center() - motion_b.local_center) + b.bounding_radius();
    let spin = turning_speed(motion_a.angular, reach_a) + turning_speed(motion_b.angular, reach_b);
    let relative = motion_a.linear - motion_b.linear;
    let mut t = 0.0f32;
    let mut last_normal = unit_or(
        motion_b.start.apply(b.center()) - motion_a.start.apply(a.center()),
        &[-relative],
    );
    let mut last_point = Vec3::ZERO;
    for iteration in 0..options.max_iterations {
        let placed_a = Transformed::new(a, motion_a.pose_at(t));
        let placed_b = Transformed::new(b, motion_b.pose_at(t));
        let d = gjk::distance(&placed_a, &placed_b);
        last_point = midpoint(d.point_a, d.point_b);
        if let Some(n) = d.normal {
            last_normal = n;
        }
        if !(d.distance > slop) {
            let status = if iteration == 0 {
                ToiStatus::Penetrating
            } else {
                ToiStatus::Converged
            };
            return Some(TimeOfImpact {
                sub_shapes: [0; 2],
                t,
                point: last_point,
                normal: last_normal,
                status,
            });
        }
        let closing = relative.dot(last_normal) + spin;
        if !(closing > 0.0) {
            return None;
        }
        t += (d.distance - 0.5 * slop) / closing;
        if !(t <= 1.0) {
            return None;
        }
    }
    Some(TimeOfImpact {
        sub_shapes: [0; 2],
        t,
        point: last_point,
        normal: last_normal,
        status: ToiStatus::IterationLimit,
    })
}
