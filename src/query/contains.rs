//! Point containment for every solid shape. Boundaries count as inside.

use crate::math::{Vec2, Vec3, Vec3A};
use crate::shape::polygon::cross2;
use crate::shape::{Aabb, Capsule, ConvexPolygon, Obb, Sphere};

impl Sphere {
    /// `|p − center|² <= radius²`, in `f64` (as
    /// [`Sphere::intersects_sphere`]): every `f32` converts exactly and no
    /// square of a finite `f32` overflows or underflows there. In `f32`
    /// both squares are `∞` beyond about 1.8e19 and `0` below about 1e-23,
    /// and `∞ <= ∞`, `0 <= 0` put far points inside.
    ///
    /// ```
    /// use collide::{Sphere, math::Vec3};
    /// assert!(Sphere::new(Vec3::ZERO, 1.0).contains_point(Vec3::X));
    /// assert!(!Sphere::new(Vec3::ZERO, 1e20).contains_point(Vec3::new(1e21, 0.0, 0.0)));
    /// ```
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        let r = f64::from(self.radius);
        (p.as_dvec3() - self.center.as_dvec3()).length_squared() <= r * r
    }
}

impl Aabb {
    /// `min <= p <= max` on every axis (false for a NaN coordinate).
    ///
    /// ```
    /// use collide::{Aabb, math::Vec3};
    /// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    /// assert!(b.contains_point(Vec3::ONE));
    /// assert!(!b.contains_point(Vec3::new(0.5, f32::NAN, 0.5)));
    /// ```
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.min.cmple(p).all() && p.cmple(self.max).all()
    }

    /// `min <= other.min` and `other.max <= max` on every axis: `other`
    /// lies in the box, faces included (false for a NaN coordinate).
    ///
    /// ```
    /// use collide::{Aabb, math::Vec3};
    /// let b = Aabb::new(Vec3::ZERO, Vec3::splat(2.0));
    /// assert!(b.contains_aabb(&Aabb::new(Vec3::ONE, Vec3::splat(2.0))));
    /// assert!(!b.contains_aabb(&Aabb::new(Vec3::ONE, Vec3::splat(3.0))));
    /// ```
    #[inline]
    #[must_use]
    pub fn contains_aabb(&self, other: &Aabb) -> bool {
        // One mask of the six comparisons, with no branch between them: a
        // moved leaf's test against its node's box, whose answer varies,
        // costs one branch.
        let (min, max) = (Vec3A::from(self.min), Vec3A::from(self.max));
        (min.cmple(other.min.into()) & Vec3A::from(other.max).cmple(max)).all()
    }
}

impl Obb {
    /// `|R⁻¹(p − center)|_i <= half_extents_i` on every axis of the box.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.to_local(p).abs().cmple(self.half_extents).all()
    }
}

impl Capsule {
    /// The squared distance from `p` to the axis is at most `radius²`, in
    /// `f64` (as [`Capsule::intersects_sphere`]; rounded to `f32`, both
    /// squares are `∞` beyond about 1.8e19 and `0` below about 1e-23); a
    /// zero-length axis makes this the sphere test.
    ///
    /// ```
    /// use collide::{Capsule, Segment, math::Vec3};
    /// let point_like = Capsule::new(Segment::new(Vec3::ZERO, Vec3::ZERO), 1.0);
    /// assert!(point_like.contains_point(Vec3::new(0.5, 0.0, 0.0)));
    /// ```
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        let r = f64::from(self.radius);
        self.segment.to_f64().distance_squared_to_point(p.as_dvec3()) <= r * r
    }
}

impl ConvexPolygon {
    /// The point is on the inner side of (or on) every edge:
    /// `orientation · (v_{i+1} − v_i) × (p − v_i) >= 0` for all `i`.
    ///
    /// Exact for points on edges and vertices, unlike the book's summed
    /// `acos` (NaN on a vertex, wrong near edges and for large polygons).
    ///
    /// ```
    /// use collide::{ConvexPolygon, math::Vec2};
    /// let tri = ConvexPolygon::new(vec![Vec2::ZERO, Vec2::new(0.0, 1.0), Vec2::new(1.0, 0.0)]).unwrap();
    /// assert!(tri.contains_point(Vec2::new(0.0, 1.0)));
    /// assert!(!tri.contains_point(Vec2::new(0.6, 0.6)));
    /// ```
    #[must_use]
    pub fn contains_point(&self, p: Vec2) -> bool {
        let v = self.vertices();
        let o = f64::from(self.orientation());
        (0..v.len()).all(|i| o * cross2(v[i], v[(i + 1) % v.len()], p) >= 0.0)
    }
}
