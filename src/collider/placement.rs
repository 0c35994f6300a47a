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
    /// The collider's bounds under this placement.
    #[inline]
    pub(crate) fn aabb(&self) -> Aabb {
        self.aabb
    }

    /// Whether the bounds are the collider's exact shape (a box kept in its
    /// leaf, [`WorldShape::Box`]).
    #[inline]
    pub(crate) fn is_box(&self) -> bool {
        matches!(self.world_shape, WorldShape::Box)
    }

    /// Validates `transform` (renormalising the rotation) and derives the
    /// world shape of `shape` under it and its bounds. `shape` must be valid
    /// ([`Shape::validate`]): a collider's stored shape always is, and a new
    /// one is validated before it is placed.
    ///
    /// Inlined into every caller, so that a placement is built where it is
    /// used: returned through memory, its fields are stored at one width and
    /// loaded at another, and each load waits for the stores to retire.
    #[inline(always)]
    pub(crate) fn of(shape: &Shape, transform: &Transform, should_rotate: bool) -> Result<Self> {
        let transform = transform.validated()?;
        let kept = shape.is_kept_by(&transform);
        // A box's world shape is its bounds, as `Shape::transformed` places
        // them (`Aabb::transformed`: ordered, so valid once finite). Its
        // own return, so that the bounds go from registers to the
        // placement, not through a join with the other kinds' in memory.
        if let Shape::Aabb(b) = shape {
            let aabb = if kept {
                *b
            } else {
                b.transformed(
                    transform.scale,
                    transform.rotation,
                    should_rotate,
                    transform.translation,
                )
            };
            return Self::with_finite_bounds(transform, WorldShape::Box, aabb);
        }
        if kept {
            return Self::with_finite_bounds(transform, WorldShape::Kept, shape.bounding_aabb());
        }
        let world = shape.transformed(&transform, should_rotate)?;
        // The world shape itself, not only its bounds: `Vec3::min`/`max`
        // skip a NaN, so a NaN end point (a finite scale times a finite
        // point overflowing, then rotated: ∞·0) would leave finite bounds.
        if world.validate().is_err() {
            return Err(Error::NonFinite("collider bounds after transform"));
        }
        // Every kind but a box keeps its kind when transformed.
        let aabb = world.bounding_aabb();
        Self::with_finite_bounds(transform, WorldShape::Own(world), aabb)
    }

    /// The placement, if its bounds are finite.
    #[inline(always)]
    fn with_finite_bounds(transform: Transform, world_shape: WorldShape, aabb: Aabb) -> Result<Self> {
        if !aabb.is_finite() {
            return Err(Error::NonFinite("collider bounds after transform"));
        }
        Ok(Self {
            transform,
            world_shape,
            aabb,
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Placement, WorldShape};
    use crate::math::{Aabb, Quat, Transform, Vec3};
    use crate::shape::Shape;

    /// A value from 1e-30 to 1e30 in size, either sign, or zero of either
    /// sign: the range of game worlds and beyond.
    fn coordinate() -> impl Strategy<Value = f32> {
        prop_oneof![
            (-30i32..30, 1.0f32..10.0, any::<bool>()).prop_map(|(e, m, negative)| {
                let v = m * 10f32.powi(e);
                if negative {
                    -v
                } else {
                    v
                }
            }),
            Just(0.0),
            Just(-0.0),
        ]
    }

    fn vec3() -> impl Strategy<Value = Vec3> {
        (coordinate(), coordinate(), coordinate()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn transform() -> impl Strategy<Value = Transform> {
        let rotation = prop_oneof![
            Just(Quat::IDENTITY),
            (-3.2f32..3.2, -3.2f32..3.2, -3.2f32..3.2).prop_map(|(x, y, z)| Quat::from_euler(
                glam::EulerRot::XYZ,
                x,
                y,
                z
            )),
        ];
        let scale = prop_oneof![Just(Vec3::ONE), vec3()];
        let translation = prop_oneof![Just(Vec3::ZERO), vec3()];
        (translation, rotation, scale).prop_map(|(translation, rotation, scale)| Transform {
            translation,
            rotation,
            scale,
        })
    }

    proptest! {
        /// A box's placement is the box `Shape::transformed` makes of it,
        /// bit for bit (signs of zero included), or the same refusal.
        #[test]
        fn a_box_is_placed_as_shape_transformed_places_it(
            a in vec3(),
            b in vec3(),
            transform in transform(),
            should_rotate in any::<bool>(),
        ) {
            let shape = Shape::Aabb(Aabb::new(a.min(b), a.max(b)));
            let placed = Placement::of(&shape, &transform, should_rotate);
            let general = transform.validated().and_then(|t| shape.transformed(&t, should_rotate));
            let general = general.ok().filter(|world| world.validate().is_ok()).map(|world| world.bounding_aabb());
            let general = general.filter(|aabb| aabb.min.is_finite() && aabb.max.is_finite());
            match (placed, general) {
                (Ok(placement), Some(aabb)) => {
                    prop_assert!(matches!(placement.world_shape, WorldShape::Box));
                    let bits = |v: Vec3| v.to_array().map(f32::to_bits);
                    prop_assert_eq!(bits(placement.aabb.min), bits(aabb.min));
                    prop_assert_eq!(bits(placement.aabb.max), bits(aabb.max));
                }
                (Err(_), None) => {}
                (placed, general) => prop_assert!(false, "placed {:?}, general {:?}", placed.map(|p| p.aabb), general),
            }
        }
    }
}
