//! Cone: a disc of `radius` around `base_center`, joined to `apex`.

use crate::error::{Error, Result};
use crate::math::{length_without_overflow, Vec3};
use crate::shape::Segment;

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
    #[must_use]
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

    /// `|apex − base_center|`, without overflow or underflow: the old
    /// `|apex − base_center|` bit for bit where its square is a normal
    /// `f32`, else the length of the axis scaled to a largest component of
    /// 1, scaled back (the square is `∞` from heights of about 1.8e19, and
    /// subnormal, then 0, below about 1e-19). `∞` only for a height beyond
    /// `f32::MAX` (which every cone whose `apex − base_center` overflows
    /// has).
    #[inline]
    #[must_use]
    pub fn height(&self) -> f32 {
        length_without_overflow(self.apex - self.base_center)
    }

    /// `(apex − base_center) / 2` without overflow (see
    /// [`Segment::half_direction`]): the support mapping's half-axis.
    #[inline]
    pub(crate) fn half_axis(&self) -> Vec3 {
        Segment::new(self.base_center, self.apex).half_direction()
    }

    /// Whether `p` is inside or on the cone: with `a = apex − base` and
    /// `m = p − base`, its axial parameter `t = m·a / a·a` is in `[0, 1]`
    /// and its squared distance to the axis line `|m − t·a|²` is at most
    /// `(radius·(1 − t))²`. A zero-height cone is the ball of `radius`
    /// around its base centre (see the type docs).
    ///
    /// In `f64`, like the overlap tests of the shapes: every
    /// `f32` converts exactly and no square of a finite `f32` overflows or
    /// underflows there. In `f32` the height of a cone 2e20 tall is `∞`, so
    /// `u = axis/∞` is 0 and the test became `|p − base|² <= radius²`, both
    /// `∞` (a point outside read as inside); that of one 1e-25 tall is 0,
    /// and the ball test with squares of 0 took in points outside too.
    ///
    /// ```
    /// use collide::{shape::Cone, math::Vec3};
    /// let c = Cone::new(Vec3::ZERO, Vec3::Y, 1.0);
    /// assert!(c.contains_point(Vec3::new(0.5, 0.5, 0.0)));
    /// assert!(!c.contains_point(Vec3::new(0.6, 0.5, 0.0)));
    /// ```
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        let base = self.base_center.as_dvec3();
        let axis = self.apex.as_dvec3() - base;
        let aa = axis.length_squared();
        let m = p.as_dvec3() - base;
        let r = f64::from(self.radius);
        if aa == 0.0 {
            return m.length_squared() <= r * r;
        }
        let ma = m.dot(axis);
        if !(0.0 <= ma && ma <= aa) {
            return false;
        }
        let t = ma / aa;
        let r_at = r * (1.0 - t);
        (m - axis * t).length_squared() <= r_at * r_at
    }
}
