//! The description a collider is added from.

use crate::math::Transform;
use crate::shape::Shape;

use super::Filter;

/// Everything needed to add a collider.
#[derive(Debug, Clone, PartialEq)]
pub struct ColliderDesc {
    /// Shape in object space.
    pub shape: Shape,
    /// Placement in the world.
    pub transform: Transform,
    /// For boxes: apply the rotation (the world box is then the bounds of the
    /// rotated box), as the book's `BoxComponent::mShouldRotate`. Ignored by
    /// every other shape, which always rotates.
    pub should_rotate: bool,
    /// The game's word for this collider (an entity id or actor pointer).
    pub user_data: u64,
    /// Category and mask.
    pub filter: Filter,
}

impl ColliderDesc {
    /// A collider of `shape` at the identity transform, rotating, with user
    /// data 0 and the default filter.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, Transform, math::Vec3};
    /// let desc = ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)))
    ///     .with_transform(Transform::from_translation(Vec3::X))
    ///     .with_user_data(42);
    /// assert_eq!(desc.user_data, 42);
    /// ```
    #[must_use]
    pub fn new(shape: Shape) -> Self {
        Self {
            shape,
            transform: Transform::IDENTITY,
            should_rotate: true,
            user_data: 0,
            filter: Filter::DEFAULT,
        }
    }

    /// With this transform.
    #[must_use]
    pub fn with_transform(mut self, transform: Transform) -> Self {
        self.transform = transform;
        self
    }

    /// With this user-data word.
    #[must_use]
    pub fn with_user_data(mut self, user_data: u64) -> Self {
        self.user_data = user_data;
        self
    }

    /// With this filter.
    #[must_use]
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    /// With the book's `mShouldRotate` switch for boxes.
    #[must_use]
    pub fn with_should_rotate(mut self, should_rotate: bool) -> Self {
        self.should_rotate = should_rotate;
        self
    }
}
