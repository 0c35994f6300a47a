//! Rays: an origin, a direction and a maximum distance, the form parry and
//! rapier users cast in. A ray cast is the segment cast from the origin to
//! `origin + max_distance·direction`, its `t` scaled back to the ray's.

use crate::math::Vec3;
use crate::query::CastHit;
use crate::shape::{Segment, Shape};

/// A half-line from `origin` along `direction` (any non-zero length: a
/// hit's `t` is in units of it, at `origin + t·direction`).
///
/// ```
/// use collide::{query::Ray, math::Vec3};
/// let ray = Ray::new(Vec3::ZERO, Vec3::X);
/// assert_eq!(ray.point_at(2.5), Vec3::new(2.5, 0.0, 0.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// Where the ray starts.
    pub origin: Vec3,
    /// Where it goes; its length is the unit of `t`.
    pub direction: Vec3,
}

impl Ray {
    /// The ray from `origin` along `direction`.
    #[must_use]
    #[inline]
    pub const fn new(origin: Vec3, direction: Vec3) -> Self {
        Self { origin, direction }
    }

    /// `origin + t·direction`.
    #[must_use]
    #[inline]
    pub fn point_at(&self, t: f32) -> Vec3 {
        self.origin + self.direction * t
    }

    /// The segment the ray sweeps up to `max_t` (`t ∈ [0, max_t]`), or
    /// `None` when it is not finite (a NaN or infinite origin, direction or
    /// `max_t`, a negative `max_t`, or an end beyond the `f32` range).
    #[must_use]
    pub fn segment(&self, max_t: f32) -> Option<Segment> {
        if !(max_t >= 0.0 && max_t.is_finite()) {
            return None;
        }
        let segment = Segment::new(self.origin, self.point_at(max_t));
        segment.is_castable().then_some(segment)
    }
}

impl Shape {
    /// The first contact of the ray with the shape within `t ∈ [0, max_t]`
    /// (parry's `cast_ray_and_get_normal`): [`Shape::cast_segment`] on
    /// [`Ray::segment`], with the hit's `t` in units of the ray's direction.
    /// `None` for a miss and for a ray or `max_t` that is not finite.
    ///
    /// ```
    /// use collide::{query::Ray, Shape, Sphere, math::Vec3};
    /// let ball = Shape::Sphere(Sphere::new(Vec3::new(10.0, 0.0, 0.0), 1.0));
    /// let hit = ball.cast_ray(&Ray::new(Vec3::ZERO, Vec3::X), 100.0).unwrap();
    /// assert_eq!((hit.t, hit.normal), (9.0, Vec3::NEG_X));
    /// assert!(ball.cast_ray(&Ray::new(Vec3::ZERO, Vec3::X), 5.0).is_none());
    /// ```
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<CastHit> {
        let hit = self.cast_segment(&ray.segment(max_t)?)?;
        Some(CastHit {
            t: hit.t * max_t,
            ..hit
        })
    }
}
