//! Sphere: the points within `radius` of `center`.

use crate::error::{Error, Result};
use crate::math::Vec3;

/// A solid sphere; layout matches the book's `Sphere { Vector3 mCenter; float mRadius; }`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sphere {
    /// Centre.
    pub center: Vec3,
    /// Radius, `>= 0`.
    pub radius: f32,
}

impl Sphere {
    /// A sphere of `radius` around `center` (not validated; see [`Sphere::validate`]).
    #[inline]
    #[must_use]
    pub const fn new(center: Vec3, radius: f32) -> Self {
        Self { center, radius }
    }

    /// Checks that the centre and radius are finite and the radius is not negative.
    ///
    /// ```
    /// use collide::{Sphere, Error, math::Vec3};
    /// assert!(Sphere::new(Vec3::ZERO, 0.0).validate().is_ok());
    /// assert_eq!(Sphere::new(Vec3::ZERO, -1.0).validate(), Err(Error::NegativeRadius));
    /// ```
    pub fn validate(&self) -> Result<()> {
        if !self.center.is_finite() || !self.radius.is_finite() {
            return Err(Error::NonFinite("sphere centre or radius"));
        }
        if self.radius < 0.0 {
            return Err(Error::NegativeRadius);
        }
        Ok(())
    }
}
