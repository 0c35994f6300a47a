//! Cylinder: a disc of `radius` swept along a segment (flat caps).

use crate::error::{Error, Result};
use crate::shape::Segment;

/// A solid circular cylinder around the axis `segment`, with flat caps
/// through its ends perpendicular to it: the points whose projection on the
/// axis line falls between the ends and whose distance to that line is at
/// most `radius`.
///
/// Defined, like [`Capsule`](crate::Capsule), by its axis in world space, so
/// it needs no rotation. A zero-length axis would be a disc with no defined
/// orientation; every query then treats it as the ball of `radius` around
/// `segment.start` (its support mapping and [`Cylinder::contains_point`]
/// agree on that).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cylinder {
    /// The axis: the centres of the two caps.
    pub segment: Segment,
    /// Radius, `>= 0`.
    pub radius: f32,
}

impl Cylinder {
    /// A cylinder around `segment` (not validated; see [`Cylinder::validate`]).
    ///
    /// ```
    /// use collide::{Segment, shape::Cylinder, math::Vec3};
    /// let c = Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), 0.5);
    /// assert_eq!(c.half_height(), 0.5);
    /// ```
    #[inline]
    pub const fn new(segment: Segment, radius: f32) -> Self {
        Self { segment, radius }
    }

    /// Checks that the axis and radius are finite and the radius is not negative.
    pub fn validate(&self) -> Result<()> {
        if !self.segment.is_finite() || !self.radius.is_finite() {
            return Err(Error::NonFinite("cylinder axis or radius"));
        }
        if self.radius < 0.0 {
            return Err(Error::NegativeRadius);
        }
        Ok(())
    }

    /// Half the axis length, `|end − start| / 2`.
    #[inline]
    pub fn half_height(&self) -> f32 {
        0.5 * self.segment.direction().length()
    }

    /// Whether `p` is inside or on the cylinder: its axial parameter
    /// `t = (p − start)·d / d·d` is in `[0, 1]` and its distance to the axis
    /// line is at most `radius`. A zero-length axis is the ball of `radius`
    /// (see the type docs).
    ///
    /// ```
    /// use collide::{Segment, shape::Cylinder, math::Vec3};
    /// let c = Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), 0.5);
    /// assert!(c.contains_point(Vec3::new(0.5, 1.0, 0.0)));
    /// assert!(!c.contains_point(Vec3::new(0.0, 1.01, 0.0)));
    /// ```
    pub fn contains_point(&self, p: crate::math::Vec3) -> bool {
        let d = self.segment.direction();
        let dd = d.length_squared();
        let m = p - self.segment.start;
        if dd == 0.0 {
            return m.length_squared() <= self.radius * self.radius;
        }
        let md = m.dot(d);
        if !(0.0 <= md && md <= dd) {
            return false;
        }
        (m - d * (md / dd)).length_squared() <= self.radius * self.radius
    }
}
