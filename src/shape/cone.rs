//! Cone: a disc of `radius` around `base_center`, joined to `apex`.

use crate::error::{Error, Result};
use crate::math::Vec3;

/// A solid right circular cone: the convex hull of the apex and the disc of
/// `radius` centred on `base_center`, perpendicular to the axis
/// `apex − base_center`.
///
/// Defined by two world-space points, so it needs no rotation. With
/// `apex == base_center` it is a disc with no orientation; its support
/// mapping then treats it as a ball of `radius` (see
/// [`Support`](crate::shape::Support)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cone {
    /// Centre of the base disc.
    pub base_center: Vec3,
    /// The tip.
    pub apex: Vec3,
    /// Radius of the base, `>= 0`.
    pub radius: f32,
}

impl Cone {
    /// A cone (not validated; see [`Cone::validate`]).
    ///
    /// ```
    /// use collide::{shape::Cone, math::Vec3};
    /// let c = Cone::new(Vec3::ZERO, Vec3::Y, 1.0);
    /// assert_eq!(c.height(), 1.0);
    /// ```
    #[inline]
    pub const fn new(base_center: Vec3, apex: Vec3, radius: f32) -> Self {
        Self {
            base_center,
            apex,
            radius,
        }
    }

    /// Checks that the points and radius are finite and the radius is not negative.
    pub fn validate(&self) -> Result<()> {
        if !self.base_center.is_finite() || !self.apex.is_finite() || !self.radius.is_finite() {
            return Err(Error::NonFinite("cone points or radius"));
        }
        if self.radius < 0.0 {
            return Err(Error::NegativeRadius);
        }
        Ok(())
    }

    /// `|apex − base_center|`.
    #[inline]
    pub fn height(&self) -> f32 {
        (self.apex - self.base_center).length()
    }

    /// Whether `p` is inside or on the cone: with `h = |apex − base|`,
    /// `u = (apex − base)/h` and `s = (p − base)·u`, the point is inside when
    /// `0 <= s <= h` and its distance to the axis is at most
    /// `radius·(1 − s/h)`. A zero-height cone is the ball of `radius`
    /// around its base centre (see the type docs).
    ///
    /// ```
    /// use collide::{shape::Cone, math::Vec3};
    /// let c = Cone::new(Vec3::ZERO, Vec3::Y, 1.0);
    /// assert!(c.contains_point(Vec3::new(0.5, 0.5, 0.0)));
    /// assert!(!c.contains_point(Vec3::new(0.6, 0.5, 0.0)));
    /// ```
    pub fn contains_point(&self, p: Vec3) -> bool {
        let axis = self.apex - self.base_center;
        let m = p - self.base_center;
        let h = axis.length();
        if h == 0.0 {
            return m.length_squared() <= self.radius * self.radius;
        }
        let u = axis / h;
        let s = m.dot(u);
        if !(0.0 <= s && s <= h) {
            return false;
        }
        let r = self.radius * (1.0 - s / h);
        (m - u * s).length_squared() <= r * r
    }
}
