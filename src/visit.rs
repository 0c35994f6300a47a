//! What a visitor callback answers: every callback of the API (pairs,
//! region queries, a mesh's triangles) may return `()` to go on, or a
//! [`ControlFlow`] to stop the walk early.

use core::ops::ControlFlow;

/// A visitor callback's answer: `()` (go on) or [`ControlFlow<()>`]
/// (`Break(())` ends the walk).
///
/// ```
/// use std::ops::ControlFlow;
/// use collide::{Aabb, ColliderDesc, QueryFilter, Shape, Sphere, World, math::Vec3};
/// let mut world = World::new();
/// for x in 0..10 {
///     world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::new(x as f32, 0.0, 0.0), 0.4))))?;
/// }
/// let area = Shape::Aabb(Aabb::new(Vec3::splat(-20.0), Vec3::splat(20.0)));
/// // Every collider in the area...
/// let mut all = 0;
/// world.intersections_with_shape(&area, &QueryFilter::ALL, |_, _| all += 1)?;
/// // ...or only whether there is one.
/// let mut any = 0;
/// world.intersections_with_shape(&area, &QueryFilter::ALL, |_, _| {
///     any += 1;
///     ControlFlow::Break(())
/// })?;
/// assert_eq!((all, any), (10, 1));
/// # Ok::<(), collide::Error>(())
/// ```
pub trait VisitResult {
    /// The answer as a [`ControlFlow`].
    fn control_flow(self) -> ControlFlow<()>;
}

impl VisitResult for () {
    #[inline(always)]
    fn control_flow(self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl VisitResult for ControlFlow<()> {
    #[inline(always)]
    fn control_flow(self) -> ControlFlow<()> {
        self
    }
}
