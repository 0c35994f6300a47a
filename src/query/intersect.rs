//! Overlap tests between solid shapes. Touching counts as overlapping, and
//! any NaN makes a test false.
//!
//! The squared-distance tests (spheres, capsules, and their pairs with
//! boxes, oriented boxes and triangles) compute in `f64`: every finite `f32`
//! converts exactly, a squared distance stays below 1.2e77 and the fourth
//! powers of the segment–segment and triangle terms below 1.4e154, and the
//! square of an `f32` subnormal is a normal `f64`. So no finite input
//! overflows (`∞ <= ∞` would read as an overlap) or underflows (a gap of
//! 1e-40 squaring to 0 would read as touching): the comparison is decided
//! by the exact distances to within `f64` rounding, far below the
//! resolution of the `f32` inputs.

use crate::query::gjk;
use crate::shape::segment::DSegment;
use crate::shape::Shape;
use crate::shape::{Aabb, Capsule, Obb, Sphere, Triangle};

impl Aabb {
    /// Closed intervals overlap on every axis:
    /// `a.min <= b.max && b.min <= a.max` (Ericson §4.2.1). Unlike the book's
    /// "no separating axis" form, a NaN coordinate gives `false`.
    ///
    /// ```
    /// use collide::{Aabb, math::Vec3};
    /// let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
    /// assert!(a.intersects_aabb(&Aabb::new(Vec3::ONE, Vec3::splat(2.0))));
    /// ```
    #[inline]
    #[must_use]
    pub fn intersects_aabb(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }
}

impl Sphere {
    /// `|c_a − c_b|² <= (r_a + r_b)²`, in `f64`.
    #[inline]
    #[must_use]
    pub fn intersects_sphere(&self, other: &Sphere) -> bool {
        let r = f64::from(self.radius) + f64::from(other.radius);
        (self.center.as_dvec3() - other.center.as_dvec3()).length_squared() <= r * r
    }

    /// The squared distance from the centre to the box is at most `r²`, in
    /// `f64`.
    #[inline]
    #[must_use]
    pub fn intersects_aabb(&self, aabb: &Aabb) -> bool {
        let r = f64::from(self.radius);
        aabb.distance_squared_to_point_f64(self.center.as_dvec3()) <= r * r
    }
}

impl Capsule {
    /// The squared distance between the axes is at most `(r_a + r_b)²`, in
    /// `f64`.
    ///
    /// Symmetric by construction: the segment–segment closest points are
    /// computed with the two axes in a canonical order (the bitwise
    /// lexicographic order of their six coordinates), so
    /// `a.intersects_capsule(b) == b.intersects_capsule(a)` for every input,
    /// rounding included.
    ///
    /// ```
    /// use collide::{Capsule, Segment, math::Vec3};
    /// let a = Capsule::new(Segment::new(Vec3::ZERO, Vec3::X), 0.5);
    /// let b = Capsule::new(Segment::new(Vec3::Y, Vec3::new(1.0, 1.0, 0.0)), 0.5);
    /// assert!(a.intersects_capsule(&b));
    /// ```
    #[inline]
    #[must_use]
    pub fn intersects_capsule(&self, other: &Capsule) -> bool {
        let key = |c: &Capsule| {
            let (s, e) = (c.segment.start, c.segment.end);
            [s.x, s.y, s.z, e.x, e.y, e.z].map(f32::to_bits)
        };
        let (first, second) = if key(self) <= key(other) {
            (self, other)
        } else {
            (other, self)
        };
        let r = f64::from(self.radius) + f64::from(other.radius);
        let closest = first.segment.to_f64().closest_points(&second.segment.to_f64());
        closest.distance_squared <= r * r
    }

    /// The squared distance from the sphere's centre to the axis is at most
    /// `(r_capsule + r_sphere)²`, in `f64`.
    #[inline]
    #[must_use]
    pub fn intersects_sphere(&self, sphere: &Sphere) -> bool {
        let r = f64::from(self.radius) + f64::from(sphere.radius);
        self.segment
            .to_f64()
            .distance_squared_to_point(sphere.center.as_dvec3())
            <= r * r
    }

    /// The squared distance from the axis to the box is at most `r²`, in
    /// `f64`.
    #[inline]
    #[must_use]
    pub fn intersects_aabb(&self, aabb: &Aabb) -> bool {
        let r = f64::from(self.radius);
        aabb.distance_squared_to_segment_f64(&self.segment.to_f64()) <= r * r
    }
}

impl Obb {
    /// The squared distance from the box to a point is at most `r²`, in the
    /// box's frame (Ericson §5.1.4 with the box rotated away), in `f64`.
    #[inline]
    #[must_use]
    pub fn intersects_sphere(&self, sphere: &Sphere) -> bool {
        let local = self.to_local_f64(sphere.center.as_dvec3());
        let half = self.half_extents.as_dvec3();
        let r = f64::from(sphere.radius);
        (local.clamp(-half, half) - local).length_squared() <= r * r
    }

    /// The squared distance from the capsule's axis to the box is at most
    /// `r²`, in the box's frame, in `f64`.
    #[inline]
    #[must_use]
    pub fn intersects_capsule(&self, capsule: &Capsule) -> bool {
        let axis = DSegment::new(
            self.to_local_f64(capsule.segment.start.as_dvec3()),
            self.to_local_f64(capsule.segment.end.as_dvec3()),
        );
        let local_box = Aabb::new(-self.half_extents, self.half_extents);
        let r = f64::from(capsule.radius);
        local_box.distance_squared_to_segment_f64(&axis) <= r * r
    }
}

impl Triangle {
    /// The squared distance from the centre to the triangle's closest point
    /// ([`Triangle::closest_point`]) is at most `r²`, in `f64`.
    #[inline]
    #[must_use]
    pub fn intersects_sphere(&self, sphere: &Sphere) -> bool {
        let center = sphere.center.as_dvec3();
        let r = f64::from(sphere.radius);
        (self.closest_point_f64(center).point - center).length_squared() <= r * r
    }
}

impl Shape {
    /// Whether the two solid shapes overlap (touching counts), exactly,
    /// for every pair of kinds: closed forms for the pairs of boxes (slabs,
    /// SAT), spheres, capsules and sphere–triangle; GJK on the support
    /// mappings ([`gjk::intersects`]) for every other pair (triangles,
    /// cylinders, cones, hulls), which counts shapes closer than
    /// [`TOUCH_TOLERANCE`](crate::query::gjk::TOUCH_TOLERANCE) of their size
    /// as touching.
    ///
    /// ```
    /// use collide::{Aabb, Shape, Sphere, math::Vec3};
    /// let b = Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE));
    /// let s = Shape::Sphere(Sphere::new(Vec3::new(2.0, 0.5, 0.5), 1.0));
    /// assert!(b.intersects(&s) && s.intersects(&b));
    /// ```
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        match (self, other) {
            (Shape::Aabb(a), Shape::Aabb(b)) => a.intersects_aabb(b),
            (Shape::Sphere(a), Shape::Sphere(b)) => a.intersects_sphere(b),
            (Shape::Capsule(a), Shape::Capsule(b)) => a.intersects_capsule(b),
            (Shape::Sphere(s), Shape::Aabb(b)) | (Shape::Aabb(b), Shape::Sphere(s)) => s.intersects_aabb(b),
            (Shape::Capsule(c), Shape::Aabb(b)) | (Shape::Aabb(b), Shape::Capsule(c)) => c.intersects_aabb(b),
            (Shape::Capsule(c), Shape::Sphere(s)) | (Shape::Sphere(s), Shape::Capsule(c)) => c.intersects_sphere(s),
            (Shape::Obb(a), Shape::Obb(b)) => a.intersects_obb(b),
            (Shape::Obb(o), Shape::Aabb(b)) | (Shape::Aabb(b), Shape::Obb(o)) => o.intersects_obb(&Obb::from(*b)),
            (Shape::Obb(o), Shape::Sphere(s)) | (Shape::Sphere(s), Shape::Obb(o)) => o.intersects_sphere(s),
            (Shape::Obb(o), Shape::Capsule(c)) | (Shape::Capsule(c), Shape::Obb(o)) => o.intersects_capsule(c),
            (Shape::Triangle(t), Shape::Sphere(s)) | (Shape::Sphere(s), Shape::Triangle(t)) => t.intersects_sphere(s),
            (Shape::Compound(c), _) => super::compound::intersects(c, other),
            (_, Shape::Compound(c)) => super::compound::intersects(c, self),
            _ => match (self.surface(), other.surface()) {
                (Some(s), _) => s.intersects(other),
                (None, Some(s)) => s.intersects(self),
                (None, None) => gjk::intersects(self, other),
            },
        }
    }
}
