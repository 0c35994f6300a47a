//! Contact: how deep two overlapping convex shapes interpenetrate, along
//! which direction, and where.
//!
//! [`contact`] works for every pair of [`Support`] shapes (GJK, then EPA
//! when the cores overlap); the closed forms below serve the pairs that have
//! one (sphere–sphere, sphere–capsule, capsule–capsule, sphere–box), the
//! separating-axis test the box pairs (`sat.rs`) and the hull–hull and
//! hull–box pairs (`polyhedra.rs`). [`Shape::contact`](crate::Shape::contact)
//! picks the best one for the kinds at hand.

use crate::math::{
    cross_without_overflow, length_without_overflow, tolerance_of_sum, unit_without_overflow, DVec3, Vec3,
};
use crate::query::compound;
use crate::query::epa::epa;
use crate::query::gjk::{self, gjk, MinkowskiDifference, TOUCH_TOLERANCE};
use crate::query::polyhedra::{sat_contact, SatContact};
use crate::query::rescale::UnitFrame;
use crate::shape::{Aabb, Capsule, Obb, Sphere, Support, Triangle};

/// The penetration of two overlapping (or touching) shapes `a` and `b`.
///
/// `normal` is the minimum translation direction, pointing from `a` to `b`:
/// moving `b` by `depth·normal` (or `a` by `−depth·normal`) makes them
/// touch. `point_a` is the point of `a` deepest inside `b`, `point_b` the
/// point of `b` deepest inside `a`, both on their own shape's surface, with
/// `point_a − point_b = depth·normal` (up to the solver's tolerance).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Penetration depth, `>= 0` (0 when touching).
    pub depth: f32,
    /// Unit direction from `a` to `b`.
    pub normal: Vec3,
    /// The deepest point of `a` (on its surface, inside `b`).
    pub point_a: Vec3,
    /// The deepest point of `b` (on its surface, inside `a`).
    pub point_b: Vec3,
    /// Which part of each shape decided the answer, `[a, b]`: the index
    /// of a [`Compound`](crate::shape::Compound)'s child, of a mesh's or
    /// height field's triangle; 0 for any other shape. A child of a
    /// compound against a surface names the compound's child.
    pub sub_shapes: [u32; 2],
}

impl Contact {
    /// The same contact seen from `b`: normal negated, points swapped.
    ///
    /// ```
    /// use collide::{Sphere, math::Vec3};
    /// let a = Sphere::new(Vec3::ZERO, 1.0);
    /// let b = Sphere::new(Vec3::X, 1.0);
    /// assert_eq!(a.contact_sphere(&b).unwrap().flipped(), b.contact_sphere(&a).unwrap());
    /// ```
    #[inline]
    #[must_use]
    pub fn flipped(self) -> Contact {
        Contact {
            depth: self.depth,
            normal: -self.normal,
            point_a: self.point_b,
            point_b: self.point_a,
            sub_shapes: [self.sub_shapes[1], self.sub_shapes[0]],
        }
    }

    /// Two balls, centres `ca`, `cb`, radii `ra`, `rb`: the contact along
    /// `cb − ca` when `|cb − ca| <= ra + rb`. Centres closer than
    /// `coincident` (for computed centres: two points of touching axes)
    /// take the `fallback` normal.
    ///
    /// In `f64`, from centres given there (a closest point of an axis is
    /// computed in `f64` and not rounded first: the direction between a
    /// ball's centre and an axis 1e-4 away, at coordinates of 20 whose
    /// `f32` spacing is 2e-6, would turn by 2 %): the sum of two `f32`
    /// radii and the difference of two centres are finite, the squared
    /// distance neither overflows nor underflows, and `depth` is rounded to
    /// `f32` once.
    #[inline]
    fn between_balls(ca: DVec3, ra: f32, cb: DVec3, rb: f32, fallback: Vec3, coincident: f64) -> Option<Contact> {
        let d = cb - ca;
        let distance = d.length();
        let depth = f64::from(ra) + f64::from(rb) - distance;
        if !(depth >= 0.0) {
            return None;
        }
        let normal = if distance > coincident {
            d / distance
        } else {
            fallback.as_dvec3()
        };
        Some(Contact {
            sub_shapes: [0; 2],
            depth: depth as f32,
            normal: normal.as_vec3(),
            point_a: (ca + normal * f64::from(ra)).as_vec3(),
            point_b: (cb - normal * f64::from(rb)).as_vec3(),
        })
    }
}

/// A unit vector perpendicular to both directions, or to the first one when
/// they are parallel, or `X` when both are zero: the normal of two touching
/// axes. Each candidate is normalised by [`unit_without_overflow`]: an
/// axis 1e-22 long has subnormal squares, of which `try_normalize` alone
/// makes a "unit" vector of length 0.997. The cross product is
/// [`cross_without_overflow`]'s.
fn perpendicular(u: Vec3, v: Vec3) -> Vec3 {
    unit_without_overflow(cross_without_overflow(u, v))
        .or_else(|| unit_without_overflow(u).map(|u| u.any_orthonormal_vector()))
        .or_else(|| unit_without_overflow(v).map(|v| v.any_orthonormal_vector()))
        .unwrap_or(Vec3::X)
}

/// The penetration of two convex solids, or `None` when they are apart
/// (touching counts as overlapping, with depth 0).
///
/// GJK on the cores first (see [`Support`]). Cores apart but within the sum
/// of the margins (a sphere or capsule against anything): closed form along
/// the closest core points, `depth = r_a + r_b − |p_b − p_a|`. Cores
/// overlapping: EPA on the cores for their depth `δ`, then
/// `depth = δ + r_a + r_b` along the EPA normal. When the cores' difference
/// is flat around the origin (two coplanar triangles, crossing segments),
/// `δ = 0` along its normal (or along the centre line, when that is
/// ambiguous).
///
/// ```
/// use collide::{Aabb, query::contact, shape::Cylinder, Segment, math::Vec3};
/// let floor = Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0));
/// let can = Cylinder::new(Segment::new(Vec3::new(0.0, -0.25, 0.0), Vec3::new(0.0, 1.75, 0.0)), 0.5);
/// let c = contact(&floor, &can).unwrap();
/// assert!((c.depth - 0.25).abs() < 1e-5);
/// assert!((c.normal - Vec3::Y).length() < 1e-5);
/// ```
pub fn contact<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B) -> Option<Contact> {
    let Some(frame) = UnitFrame::for_pair(a, b, DVec3::ZERO) else {
        return contact_in_place(a, b);
    };
    let c = contact_in_place(&frame.place(a), &frame.place(b))?;
    Some(Contact {
        sub_shapes: [0; 2],
        depth: frame.length_from(c.depth),
        normal: c.normal,
        point_a: frame.point_from(c.point_a),
        point_b: frame.point_from(c.point_b),
    })
}

/// [`contact`] in the frame of the shapes as given.
fn contact_in_place<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B) -> Option<Contact> {
    let pair = MinkowskiDifference::new(a, b);
    let (ra, rb) = (a.margin(), b.margin());
    let margin = ra + rb;
    let out = gjk(&pair, None);
    let origin = b.center();
    if !out.overlapping {
        let touch = TOUCH_TOLERANCE * pair.scale();
        if !(length_without_overflow(out.v) <= margin + touch) {
            return None;
        }
        let (normal, core_distance, point_a, point_b) = gjk::settle_separation(&pair, &out, touch);
        if !(core_distance <= margin + touch) {
            return None;
        }
        return Some(Contact {
            sub_shapes: [0; 2],
            depth: (margin - core_distance).max(0.0),
            normal,
            point_a: origin + point_a + normal * ra,
            point_b: origin + point_b - normal * rb,
        });
    }
    let e = epa(&pair, &out.simplex, -pair.offset);
    Some(Contact {
        sub_shapes: [0; 2],
        depth: e.depth + margin,
        normal: e.normal,
        point_a: origin + e.point_a + e.normal * ra,
        point_b: origin + e.point_b - e.normal * rb,
    })
}

impl Sphere {
    /// Sphere–sphere in closed form: `depth = r_a + r_b − |c_b − c_a|`
    /// along `c_b − c_a` (`X` for concentric spheres).
    ///
    /// ```
    /// use collide::{Sphere, math::Vec3};
    /// let c = Sphere::new(Vec3::ZERO, 1.0).contact_sphere(&Sphere::new(Vec3::new(1.5, 0.0, 0.0), 1.0)).unwrap();
    /// assert_eq!((c.depth, c.normal, c.point_a, c.point_b), (0.5, Vec3::X, Vec3::X, Vec3::new(0.5, 0.0, 0.0)));
    /// ```
    #[inline]
    #[must_use]
    pub fn contact_sphere(&self, other: &Sphere) -> Option<Contact> {
        Contact::between_balls(
            self.center.as_dvec3(),
            self.radius,
            other.center.as_dvec3(),
            other.radius,
            Vec3::X,
            0.0,
        )
    }

    /// Sphere–triangle in closed form: the sphere against the triangle's
    /// point closest to the centre (Ericson §5.1.5, in `f64`), `depth = r −
    /// |q − c|` along `q − c`. A centre on the triangle (within `1e-6` of
    /// its size) takes the normal `−n` of the triangle's face (the
    /// triangle a flat two-sided solid, the normal `n` by its winding), or
    /// a normal perpendicular to a degenerate triangle's longest edge.
    ///
    /// ```
    /// use collide::{Sphere, Triangle, math::Vec3};
    /// let floor = Triangle::new(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 5.0));
    /// let c = Sphere::new(Vec3::new(0.0, 0.25, 0.0), 0.5).contact_triangle(&floor).unwrap();
    /// assert_eq!((c.depth, c.normal, c.point_b), (0.25, Vec3::NEG_Y, Vec3::ZERO));
    /// ```
    #[inline]
    #[must_use]
    pub fn contact_triangle(&self, triangle: &Triangle) -> Option<Contact> {
        let c = self.center.as_dvec3();
        let q = triangle.closest_point_f64(c).point;
        let fallback = triangle.normal().map_or_else(
            || {
                let edges = [
                    triangle.b - triangle.a,
                    triangle.c - triangle.b,
                    triangle.a - triangle.c,
                ];
                let longest = edges
                    .into_iter()
                    .max_by(|u, v| u.length_squared().total_cmp(&v.length_squared()))
                    .unwrap_or(Vec3::ZERO);
                perpendicular(longest, Vec3::ZERO)
            },
            |n| -n,
        );
        let size = length_without_overflow(triangle.b - triangle.a)
            .max(length_without_overflow(triangle.c - triangle.a))
            .max(length_without_overflow(triangle.c - triangle.b));
        let coincident = f64::from(2.0 * TOUCH_TOLERANCE * size);
        Contact::between_balls(c, self.radius, q, 0.0, fallback, coincident)
    }

    /// Sphere–capsule in closed form: the sphere against the ball of the
    /// capsule's radius around the axis point closest to the centre. A
    /// centre on the axis (within `1e-6` of its length) takes a normal
    /// perpendicular to the axis.
    ///
    /// ```
    /// use collide::{Capsule, Segment, Sphere, math::Vec3};
    /// let capsule = Capsule::new(Segment::new(Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0)), 1.0);
    /// let c = Sphere::new(Vec3::new(-1.5, 2.0, 0.0), 1.0).contact_capsule(&capsule).unwrap();
    /// assert_eq!((c.depth, c.normal), (0.5, Vec3::X));
    /// ```
    #[inline]
    #[must_use]
    pub fn contact_capsule(&self, capsule: &Capsule) -> Option<Contact> {
        let axis = capsule.segment.to_f64();
        let c = self.center.as_dvec3();
        let q = axis.point_at(axis.closest_t(c));
        // Half the axis, whose length, unlike the axis' own, stays finite
        // (ends at ±2e38, axes longer than about 1.8e19 measured in `f32`):
        // with an infinite threshold every centre was "on the axis".
        let half_axis = capsule.segment.half_direction();
        let fallback = perpendicular(half_axis, Vec3::ZERO);
        let noise = f64::from(2.0 * TOUCH_TOLERANCE * length_without_overflow(half_axis));
        Contact::between_balls(c, self.radius, q, capsule.radius, fallback, noise)
    }

    /// Sphere–box in closed form, in the box's frame (Ericson §5.2.5, plus
    /// the inside case): with `q` the box point closest to the centre `c`,
    /// a centre outside gives `depth = r − |q − c|` along `q − c`; a centre
    /// inside is pushed out through the nearest face `k`:
    /// `depth = r + (e_k − |c_k|)` along `−sign(c_k)·axis_k` (ties go to the
    /// lowest axis, `c_k = 0` to the positive face).
    ///
    /// ```
    /// use collide::{Aabb, Sphere, math::Vec3};
    /// let b = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
    /// let c = Sphere::new(Vec3::new(0.0, 0.75, 0.0), 0.5).contact_aabb(&b).unwrap();
    /// assert_eq!((c.depth, c.normal, c.point_b), (0.75, Vec3::NEG_Y, Vec3::new(0.0, 1.0, 0.0)));
    /// ```
    #[inline]
    #[must_use]
    pub fn contact_aabb(&self, aabb: &Aabb) -> Option<Contact> {
        let center = Aabb::center(aabb);
        let local = self.center - center;
        let local_contact = sphere_box_local(local, self.radius, aabb.half_extents())?;
        Some(Contact {
            point_a: local_contact.point_a + center,
            point_b: local_contact.point_b + center,
            ..local_contact
        })
    }

    /// Sphere–oriented box in closed form: [`Sphere::contact_aabb`] in the
    /// box's frame, rotated back.
    #[inline]
    #[must_use]
    pub fn contact_obb(&self, obb: &Obb) -> Option<Contact> {
        let local = obb.to_local(self.center);
        let c = sphere_box_local(local, self.radius, obb.half_extents)?;
        Some(Contact {
            sub_shapes: [0; 2],
            depth: c.depth,
            normal: obb.rotation * c.normal,
            point_a: obb.rotation * c.point_a + obb.center,
            point_b: obb.rotation * c.point_b + obb.center,
        })
    }
}

/// Sphere (centre `c` in the box frame) against the box `[−e, e]`.
fn sphere_box_local(c: Vec3, radius: f32, e: Vec3) -> Option<Contact> {
    if !(c.is_finite() && radius.is_finite() && e.is_finite()) {
        return None;
    }
    let q = c.max(-e).min(e);
    let d = q - c;
    let distance = length_without_overflow(d);
    if d != Vec3::ZERO {
        let depth = radius - distance;
        if !(depth >= 0.0) {
            return None;
        }
        let normal = d / distance;
        return Some(Contact {
            sub_shapes: [0; 2],
            depth,
            normal,
            point_a: c + normal * radius,
            point_b: q,
        });
    }
    // Inside (or on the surface): the nearest face.
    let room = e - c.abs();
    let mut k = 0;
    for axis in 1..3 {
        if room[axis] < room[k] {
            k = axis;
        }
    }
    let mut normal = Vec3::ZERO;
    normal[k] = if c[k] >= 0.0 { -1.0 } else { 1.0 };
    let mut point_b = c;
    point_b[k] = -normal[k] * e[k];
    Some(Contact {
        sub_shapes: [0; 2],
        depth: radius + room[k],
        normal,
        point_a: c + normal * radius,
        point_b,
    })
}

impl Capsule {
    /// Capsule–capsule in closed form: the balls around the closest points
    /// of the two axes ([`Segment::closest_points`](crate::Segment::closest_points)).
    /// Axes that touch (closer than `1e-6` of their lengths: the rounding of
    /// the closest points) take a normal perpendicular to both (to the first
    /// when they are parallel), oriented from `a`'s centre towards `b`'s:
    /// the normal of the flat Minkowski difference of the axes, along which
    /// the depth is `r_a + r_b`.
    ///
    /// ```
    /// use collide::{Capsule, Segment, math::Vec3};
    /// let a = Capsule::new(Segment::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)), 0.5);
    /// let b = Capsule::new(Segment::new(Vec3::new(0.0, 0.75, -1.0), Vec3::new(0.0, 0.75, 1.0)), 0.5);
    /// let c = a.contact_capsule(&b).unwrap();
    /// assert_eq!((c.depth, c.normal), (0.25, Vec3::Y));
    /// ```
    #[must_use]
    pub fn contact_capsule(&self, other: &Capsule) -> Option<Contact> {
        let (axis_a, axis_b) = (self.segment.to_f64(), other.segment.to_f64());
        let closest = axis_a.closest_points(&axis_b);
        // The half axes, as in `Sphere::contact_capsule`.
        let (half_a, half_b) = (self.segment.half_direction(), other.segment.half_direction());
        // Axes that touch: the normal is perpendicular to both, formed in
        // `f64` from the exact differences of their ends. Nearly parallel
        // axes' cross product is small, and formed in `f32` from rounded
        // half axes it tilts by the rounding over its length (1e-4 rad for
        // axes 1e-3 rad apart), which the longer axis' projection turns
        // into depth.
        let exact = (axis_a.end - axis_a.start).cross(axis_b.end - axis_b.start);
        let mut fallback = exact
            .try_normalize()
            .and_then(|n| unit_without_overflow(n.as_vec3()))
            .unwrap_or_else(|| perpendicular(half_a, half_b));
        if fallback.dot(Support::center(other) - Support::center(self)) < 0.0 {
            fallback = -fallback;
        }
        let noise = f64::from(tolerance_of_sum(
            2.0 * TOUCH_TOLERANCE,
            length_without_overflow(half_a),
            length_without_overflow(half_b),
        ));
        Contact::between_balls(
            closest.point_a,
            self.radius,
            closest.point_b,
            other.radius,
            fallback,
            noise,
        )
    }

    /// Capsule–sphere: [`Sphere::contact_capsule`] flipped.
    #[inline]
    pub fn contact_sphere(&self, sphere: &Sphere) -> Option<Contact> {
        sphere.contact_capsule(self).map(Contact::flipped)
    }
}

impl crate::shape::Shape {
    /// The contact between two collider shapes of any kinds, by the best
    /// method for the pair: closed forms for the sphere, capsule,
    /// sphere–box and sphere–triangle pairs, SAT for box pairs and for a
    /// hull against a hull or a box (GJK/EPA where they touch within the
    /// tolerance, a hull has more than 64 vertices, the size is beyond
    /// 1e±18, or the contact points fall short of the depth), GJK/EPA
    /// ([`contact`]) for every other pair, without copying a hull.
    /// A mesh answers with its deepest triangle
    /// ([`TriangleMesh::contact`](crate::shape::TriangleMesh::contact));
    /// two meshes never touch. A compound answers with its deepest child.
    /// `None` when they are apart; the normal points from `self` to `other`.
    ///
    /// ```
    /// use collide::{Aabb, Shape, Sphere, math::Vec3};
    /// let floor = Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)));
    /// let ball = Shape::Sphere(Sphere::new(Vec3::new(0.0, 0.25, 0.0), 0.5));
    /// let c = floor.contact(&ball).unwrap();
    /// assert_eq!((c.depth, c.normal), (0.25, Vec3::Y));
    /// ```
    pub fn contact(&self, other: &Self) -> Option<Contact> {
        use crate::shape::Shape as S;
        match (self, other) {
            (S::Sphere(a), S::Sphere(b)) => a.contact_sphere(b),
            (S::Sphere(a), S::Capsule(b)) => a.contact_capsule(b),
            (S::Capsule(a), S::Sphere(b)) => a.contact_sphere(b),
            (S::Capsule(a), S::Capsule(b)) => a.contact_capsule(b),
            (S::Sphere(a), S::Aabb(b)) => a.contact_aabb(b),
            (S::Aabb(a), S::Sphere(b)) => b.contact_aabb(a).map(Contact::flipped),
            (S::Sphere(a), S::Obb(b)) => a.contact_obb(b),
            (S::Obb(a), S::Sphere(b)) => b.contact_obb(a).map(Contact::flipped),
            (S::Sphere(a), S::Triangle(b)) => a.contact_triangle(b),
            (S::Triangle(a), S::Sphere(b)) => b.contact_triangle(a).map(Contact::flipped),
            (S::Aabb(a), S::Aabb(b)) => a.contact_aabb(b),
            (S::Obb(a), S::Obb(b)) => a.contact_obb(b),
            (S::Aabb(a), S::Obb(b)) => Obb::from(*a).contact_obb(b),
            (S::Obb(a), S::Aabb(b)) => a.contact_obb(&Obb::from(*b)),
            (S::Compound(a), _) => compound::contact(a, other),
            (_, S::Compound(b)) => compound::contact(b, self).map(Contact::flipped),
            (S::Hull(_), S::Hull(_) | S::Obb(_) | S::Aabb(_)) | (S::Obb(_) | S::Aabb(_), S::Hull(_)) => {
                match sat_contact(self, other) {
                    Some(SatContact::Apart) => None,
                    Some(SatContact::Overlapping(c, _)) => Some(c),
                    Some(SatContact::Undecided) | None => contact(self, other),
                }
            }
            _ => match (self.surface(), other.surface()) {
                (Some(a), _) => a.contact(other),
                (None, Some(b)) => b.contact(self).map(Contact::flipped),
                (None, None) => contact(self, other),
            },
        }
    }

    /// The distance between two collider shapes of any kinds, with closest
    /// points ([`gjk::distance`] on their support mappings; sphere–triangle
    /// in closed form, [`Sphere::distance_triangle`]).
    ///
    /// ```
    /// use collide::{Shape, Sphere, math::Vec3};
    /// let a = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
    /// let b = Shape::Sphere(Sphere::new(Vec3::new(4.0, 0.0, 0.0), 1.0));
    /// assert!((a.distance(&b).distance - 2.0).abs() < 1e-6);
    /// ```
    ///
    /// A mesh ([`TriangleMesh::distance`](crate::shape::TriangleMesh::distance))
    /// is measured triangle by triangle, a compound child by child; the
    /// nearest one wins.
    #[inline]
    #[must_use]
    pub fn distance(&self, other: &Self) -> gjk::Distance {
        use crate::shape::Shape as S;
        if let Some(a) = self.compound() {
            return compound::distance(a, other);
        }
        if let Some(b) = other.compound() {
            return compound::distance(b, self).flipped();
        }
        if let Some(a) = self.surface() {
            return a.distance(other);
        }
        if let Some(b) = other.surface() {
            return b.distance(self).flipped();
        }
        match (self, other) {
            (S::Sphere(a), S::Triangle(b)) => a.distance_triangle(b),
            (S::Triangle(a), S::Sphere(b)) => b.distance_triangle(a).flipped(),
            _ => gjk::distance(self, other),
        }
    }
}
