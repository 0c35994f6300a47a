//! Penetration and push-out: how to move one shape so it stops overlapping another.

use crate::math::Vec3;
use crate::shape::Aabb;

impl Aabb {
    /// The shortest axis-aligned translation that moves `self` out of
    /// `other`, or `None` when they do not overlap (touching boxes overlap
    /// and get a zero push).
    ///
    /// This is the book's `FPSActor::FixCollisions`: on each axis the two
    /// candidate moves are `other.max − self.min` (push to the positive side)
    /// and `other.min − self.max` (push to the negative side); the move with
    /// the smallest magnitude over the six wins, ties going to x, then y.
    ///
    /// ```
    /// use collide::{Aabb, math::Vec3};
    /// let player = Aabb::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 2.0, 1.0));
    /// let wall = Aabb::new(Vec3::new(0.8, -5.0, -5.0), Vec3::new(1.8, 5.0, 5.0));
    /// let push = player.push_out(&wall).unwrap();
    /// assert!((push - Vec3::new(-0.2, 0.0, 0.0)).length() < 1e-6);
    /// ```
    #[must_use]
    pub fn push_out(&self, other: &Aabb) -> Option<Vec3> {
        if !self.intersects_aabb(other) {
            return None;
        }
        let mut best = Vec3::ZERO;
        let mut best_magnitude = f32::INFINITY;
        for axis in 0..3 {
            let to_positive = other.max[axis] - self.min[axis];
            let to_negative = other.min[axis] - self.max[axis];
            let shift = if to_positive.abs() < to_negative.abs() {
                to_positive
            } else {
                to_negative
            };
            if shift.abs() < best_magnitude {
                best_magnitude = shift.abs();
                best = Vec3::ZERO;
                best[axis] = shift;
            }
        }
        Some(best)
    }
}
