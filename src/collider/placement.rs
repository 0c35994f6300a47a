//! What a collider's shape and transform make of it.

use crate::error::{Error, Result};
use crate::math::{Aabb, Transform};
use crate::shape::Shape;

use super::world_shape::WorldShape;

/// What a collider's shape and transform make of it, validated: a batch
/// update derives one per collider first, and applies them all once every
/// one is valid.
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    pub(super) transform: Transform,
    pub(super) world_shape: WorldShape,
    pub(super) aabb: Aabb,
}

impl Placement {
    /// Validates `transform` (renormalising the rotation) and derives the
    /// world shape of `shape` under it and its bounds. `shape` must be valid
    /// ([`Shape::validate`]): a collider's stored shape always is, and a new
    /// one is validated before it is placed.
    #[inline]
    pub(crate) fn of(shape: &Shape, transform: &Transform, should_rotate: bool) -> Result<Self> {
        let transform = transform.validated()?;
        let kept = shape.is_kept_by(&transform);
        let transformed = if kept {
            None
        } else {
            Some(shape.transformed(&transform, should_rotate)?)
        };
        let world = transformed.as_ref().unwrap_or(shape);
        let aabb = world.bounding_aabb();
        // The world shape itself, not only its bounds: `Vec3::min`/`max`
        // skip a NaN, so a NaN end point (a finite scale times a finite point
        // overflowing, then rotated: ∞·0) would leave finite bounds. A shape
        // the transform keeps as it is was valid already.
        if !aabb.min.is_finite() || !aabb.max.is_finite() || (!kept && world.validate().is_err()) {
            return Err(Error::NonFinite("collider bounds after transform"));
        }
        let world_shape = match transformed {
            _ if matches!(world, Shape::Aabb(_)) => WorldShape::Box,
            None => WorldShape::Kept,
            Some(shape) => WorldShape::Own(shape),
        };
        Ok(Self {
            transform,
            world_shape,
            aabb,
        })
    }
}
