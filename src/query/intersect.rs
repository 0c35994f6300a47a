//! Overlap tests between solid shapes. Touching counts as overlapping, and
//! any NaN makes a test false.

use crate::collider::Shape;
use crate::query::gjk;
use crate::shape::{Aabb, Capsule, Obb, Segment, Sphere, Triangle};

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
    pub fn intersects_aabb(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }
}

impl Sphere {
    /// `|c_a − c_b|² <= (r_a + r_b)²`.
    #[inline]
    pub fn intersects_sphere(&self, other: &Sphere) -> bool {
        let r = self.radius + other.radius;
        (self.center - other.center).length_squared() <= r * r
    }

    /// The squared distance from the centre to the box is at most `r²`.
    #[inline]
    pub fn intersects_aabb(&self, aabb: &Aabb) -> bool {
        aabb.distance_squared_to_point(self.center) <= self.radius * self.radius
    }
}

impl Capsule {
    /// The squared distance between the axes is at most `(r_a + r_b)²`.
    ///
    /// ```
    /// use collide::{Capsule, Segment, math::Vec3};
    /// let a = Capsule::new(Segment::new(Vec3::ZERO, Vec3::X), 0.5);
    /// let b = Capsule::new(Segment::new(Vec3::Y, Vec3::new(1.0, 1.0, 0.0)), 0.5);
    /// assert!(a.intersects_capsule(&b));
    /// ```
    #[inline]
    pub fn intersects_capsule(&self, other: &Capsule) -> bool {
        let r = self.radius + other.radius;
        self.segment.closest_points(&other.segment).distance_squared <= r * r
    }

    /// The squared distance from the sphere's centre to the axis is at most
    /// `(r_capsule + r_sphere)²`.
    #[inline]
    pub fn intersects_sphere(&self, sphere: &Sphere) -> bool {
        let r = self.radius + sphere.radius;
        self.segment.distance_squared_to_point(sphere.center) <= r * r
    }

    /// The squared distance from the axis to the box is at most `r²`.
    #[inline]
    pub fn intersects_aabb(&self, aabb: &Aabb) -> bool {
        aabb.distance_squared_to_segment(&self.segment) <= self.radius * self.radius
    }
}

impl Obb {
    /// The squared distance from the box to a point is at most `r²`, in the
    /// box's frame (Ericson §5.1.4 with the box rotated away).
    #[inline]
    pub fn intersects_sphere(&self, sphere: &Sphere) -> bool {
        let local = self.to_local(sphere.center);
        let q = local.clamp(-self.half_extents, self.half_extents);
        (q - local).length_squared() <= sphere.radius * sphere.radius
    }

    /// The squared distance from the capsule's axis to the box is at most
    /// `r²`, in the box's frame.
    #[inline]
    pub fn intersects_capsule(&self, capsule: &Capsule) -> bool {
        let axis = Segment::new(self.to_local(capsule.segment.start), self.to_local(capsule.segment.end));
        let local_box = Aabb::new(-self.half_extents, self.half_extents);
        local_box.distance_squared_to_segment(&axis) <= capsule.radius * capsule.radius
    }
}

impl Triangle {
    /// The squared distance from the centre to the triangle's closest point
    /// ([`Triangle::closest_point`]) is at most `r²`.
    #[inline]
    pub fn intersects_sphere(&self, sphere: &Sphere) -> bool {
        (self.closest_point(sphere.center).point - sphere.center).length_squared() <= sphere.radius * sphere.radius
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
            (Shape::Mesh(m), other) | (other, Shape::Mesh(m)) => m.intersects(other),
            _ => gjk::intersects(self, other),
        }
    }
}
