//! Cylinder: a disc of `radius` swept along a segment (flat caps).

use crate::error::{Error, Result};
use crate::math::{length_without_overflow, Vec3};
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
    #[must_use]
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

    /// Half the axis length, `|end − start| / 2`, without overflow or
    /// underflow: `0.5·|end − start|` where its square is a normal `f32`,
    /// else computed on the axis scaled to a largest
    /// component of 1 (the square is `∞` from lengths of about 1.8e19, and
    /// subnormal, then 0, below about 1e-19); the length of the half-axis
    /// where the whole length exceeds `f32::MAX` (ends at `±2e38`).
    #[inline]
    #[must_use]
    pub fn half_height(&self) -> f32 {
        let height = length_without_overflow(self.segment.direction());
        if height.is_finite() {
            0.5 * height
        } else {
            length_without_overflow(self.segment.half_direction())
        }
    }

    /// Whether `p` is inside or on the cylinder: with `d = end − start` and
    /// `m = p − start`, its axial parameter `t = m·d / d·d` is in `[0, 1]`
    /// and its squared distance to the axis line `|m − t·d|²` is at most
    /// `radius²`. A zero-length axis is the ball of `radius` (see the type
    /// docs).
    ///
    /// In `f64`, like the overlap tests of the shapes: every
    /// `f32` converts exactly and no square of a finite `f32` overflows or
    /// underflows there. In `f32` `d·d` is `∞` for an axis of 2e19 (`∞/∞` is
    /// NaN, and a point inside read as outside) and 0 for one of 1e-25 (the
    /// ball test, with squares of 0: a point outside read as inside).
    ///
    /// ```
    /// use collide::{Segment, shape::Cylinder, math::Vec3};
    /// let c = Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), 0.5);
    /// assert!(c.contains_point(Vec3::new(0.5, 1.0, 0.0)));
    /// assert!(!c.contains_point(Vec3::new(0.0, 1.01, 0.0)));
    /// ```
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        let axis = self.segment.to_f64();
        let d = axis.direction();
        let dd = d.length_squared();
        let m = p.as_dvec3() - axis.start;
        let r = f64::from(self.radius);
        if dd == 0.0 {
            return m.length_squared() <= r * r;
        }
        let md = m.dot(d);
        if !(0.0 <= md && md <= dd) {
            return false;
        }
        (m - d * (md / dd)).length_squared() <= r * r
    }
}
