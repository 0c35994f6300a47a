//! Swept shapes and time of impact (continuous collision detection).

use crate::math::Vec3;
use crate::shape::{Segment, Sphere};

/// The time `t ∈ [0, 1]` at which two spheres moving linearly by `a_motion`
/// and `b_motion` over the step first touch, or `None` if they do not.
///
/// In the frame of `b` the centre of `a` moves along the segment
/// `c_a − c_b → c_a − c_b + (a_motion − b_motion)` against a sphere of radius
/// `r_a + r_b` at the origin (Ericson §4.5.3.1), so this is a
/// [`Segment::cast_sphere`]. Spheres that already overlap touch at `t = 0`;
/// equal velocities (no relative motion) give `None` when apart. The book's
/// version accepts only `t = 0` and divides by zero for equal velocities.
///
/// ```
/// use collide::{Sphere, math::Vec3, query::sweep::time_of_impact_spheres};
/// let a = Sphere::new(Vec3::ZERO, 1.0);
/// let b = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 1.0);
/// let t = time_of_impact_spheres(&a, Vec3::new(8.0, 0.0, 0.0), &b, Vec3::new(-8.0, 0.0, 0.0));
/// assert_eq!(t, Some(0.5));
/// ```
#[must_use]
pub fn time_of_impact_spheres(a: &Sphere, a_motion: Vec3, b: &Sphere, b_motion: Vec3) -> Option<f32> {
    let start = a.center - b.center;
    let relative = Segment::new(start, start + (a_motion - b_motion));
    relative
        .cast_sphere(&Sphere::new(Vec3::ZERO, a.radius + b.radius))
        .map(|hit| hit.t)
}
