//! Oriented bounding box: a box with its own rotation.

use crate::error::{Error, Result};
use crate::math::{DVec3, Mat3, Quat, Vec3, UNIT_QUAT_TOLERANCE};
use crate::shape::Aabb;

/// A solid box `center + R·x`, `|x_i| <= half_extents_i`; layout matches the
/// book's `OBB { Vector3 mCenter; Quaternion mRotation; Vector3 mExtents; }`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb {
    /// Centre.
    pub center: Vec3,
    /// Rotation from the box's frame to the world, a unit quaternion.
    pub rotation: Quat,
    /// Half-extents along the box's own axes, `>= 0`.
    pub half_extents: Vec3,
}

impl Obb {
    /// An oriented box (not validated; see [`Obb::validate`]).
    #[inline]
    #[must_use]
    pub const fn new(center: Vec3, rotation: Quat, half_extents: Vec3) -> Self {
        Self {
            center,
            rotation,
            half_extents,
        }
    }

    /// Checks finiteness, non-negative half-extents and a unit rotation.
    pub fn validate(&self) -> Result<()> {
        if !self.center.is_finite() || !self.half_extents.is_finite() || !self.rotation.is_finite() {
            return Err(Error::NonFinite("oriented box"));
        }
        for (axis, name) in crate::math::aabb::AXIS_NAMES.iter().enumerate() {
            if self.half_extents[axis] < 0.0 {
                return Err(Error::InvertedBox(name));
            }
        }
        if (self.rotation.length_squared() - 1.0).abs() > UNIT_QUAT_TOLERANCE {
            return Err(Error::InvalidArgument("rotation is not a unit quaternion"));
        }
        Ok(())
    }

    /// The box's axes as the columns of a rotation matrix.
    #[inline]
    #[must_use]
    pub fn axes(&self) -> Mat3 {
        Mat3::from_quat(self.rotation)
    }

    /// `p` in the box's frame: `R⁻¹·(p − center)`.
    #[inline]
    #[must_use]
    pub fn to_local(&self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.center)
    }

    /// [`Obb::to_local`] in `f64`, for the squared-distance tests: the
    /// difference `p − center` cannot overflow and the rotation adds a few
    /// `f64` ulps.
    #[inline]
    pub(crate) fn to_local_f64(self, p: DVec3) -> DVec3 {
        self.rotation.as_dquat().inverse() * (p - self.center.as_dvec3())
    }

    /// The tightest axis-aligned box holding the oriented box:
    /// `center ± |R|·half_extents`.
    #[must_use]
    pub fn bounding_aabb(&self) -> Aabb {
        let r = self.axes();
        let abs = Mat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
        Aabb::from_center_half_extents(self.center, abs * self.half_extents)
    }
}
