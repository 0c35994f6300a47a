//! A pattern search over unit directions: the least value of a function of
//! a direction near a starting one, for the support-value refinements of
//! GJK's distance and EPA's depth.

use crate::math::Vec3;

/// The step, in radians, at which [`minimize_on_sphere`] stops.
pub(crate) const LAST_STEP: f32 = 1.0e-7;

/// The least `value(n)` over unit `n` reached from `start` by a pattern
/// search on the sphere (Hooke and Jeeves, 1961, on the tangent plane):
/// steps of `first_step` radians along the two tangent axes of the current
/// direction are kept when they lower the value, halved when none does,
/// down to [`LAST_STEP`], with at most `max_queries` calls of `value`.
/// Returns the direction, its value and what `value` returned with it.
pub(crate) fn minimize_on_sphere<T>(
    start: Vec3,
    first_step: f32,
    max_queries: usize,
    mut value: impl FnMut(Vec3) -> (f32, T),
) -> (Vec3, f32, T) {
    let mut normal = start;
    let (mut best, mut extra) = value(normal);
    let mut step = first_step;
    let mut queries = 1;
    while step > LAST_STEP && queries < max_queries {
        let u = normal.any_orthonormal_vector();
        let v = normal.cross(u);
        let mut moved = false;
        for d in [u, -u, v, -v] {
            let Some(candidate) = (normal + d * step).try_normalize() else {
                continue;
            };
            let (candidate_value, candidate_extra) = value(candidate);
            queries += 1;
            if candidate_value < best {
                (normal, best, extra) = (candidate, candidate_value, candidate_extra);
                moved = true;
                break;
            }
        }
        if !moved {
            step *= 0.5;
        }
    }
    (normal, best, extra)
}
