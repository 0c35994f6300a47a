//! Move and slide: the character controller's step over the world's
//! shape casts (the "collide and slide" loop of Fauerby, "Improved
//! Collision detection and Response", 2003, with Quake's clipping against
//! the creases of two planes).

use crate::collider::QueryFilter;
use crate::error::Result;
use crate::math::{length_without_overflow, Aabb, Vec3};
use crate::shape::Shape;
use crate::world::{check_motion, check_query_shape, Hit, World};

/// How far [`World::move_and_slide`] stops short of a surface, measured
/// along its normal (world units): the gap keeps the next cast from
/// starting in contact through rounding.
pub const MOVE_AND_SLIDE_SKIN: f32 = 1.0e-3;

/// How many times [`World::move_and_slide`] pushes a shape that starts
/// inside geometry out of its deepest overlap before it moves.
const DEPENETRATION_ROUNDS: usize = 4;

/// What [`World::move_and_slide`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveAndSlide {
    /// How far the shape moved: add it to the character's position.
    pub position_delta: Vec3,
    /// Every surface met, in order (one per blocked step).
    pub hits: Vec<Hit>,
}

/// `v` without its part along each of `normals` it points into
/// (`v·n < 0`): projected on the plane of one surface, on the crease of two
/// (`(n₁ × n₂)(v·(n₁ × n₂))`), and zero in a corner of three or more, or
/// where two planes are parallel and `v` points into both.
///
/// The clip is linear in `v`, so a `v` beyond `1e18` (whose dot products
/// and length could overflow) or below `1e-18` (whose length could
/// underflow) is clipped scaled by a power of two (exactly) and scaled back.
///
/// The slide step of [`World::move_and_slide`](crate::World::move_and_slide),
/// public for controllers of one's own.
///
/// ```
/// use collide::{clip_motion, math::Vec3};
/// // Into a floor: the motion slides along it.
/// assert_eq!(clip_motion(Vec3::new(1.0, -1.0, 0.0), &[Vec3::Y]), Vec3::X);
/// // Into a floor and a wall: along their crease.
/// assert_eq!(clip_motion(Vec3::new(1.0, -1.0, 1.0), &[Vec3::Y, Vec3::NEG_X]), Vec3::Z);
/// ```
#[must_use]
pub fn clip_motion(v: Vec3, normals: &[Vec3]) -> Vec3 {
    const SCALE: f32 = 18_446_744_073_709_551_616.0; // 2⁶⁴
    let big = v.abs().max_element();
    if big > 1.0e18 {
        clip_unscaled(v / SCALE, normals) * SCALE
    } else if big < 1.0e-18 && big > 0.0 {
        clip_unscaled(v * SCALE, normals) / SCALE
    } else {
        clip_unscaled(v, normals)
    }
}

/// [`clip_motion`] for a `v` whose products neither overflow nor underflow.
fn clip_unscaled(v: Vec3, normals: &[Vec3]) -> Vec3 {
    let Some((&last, earlier)) = normals.split_last() else {
        return v;
    };
    let into = |v: Vec3, n: Vec3| v.dot(n) < 0.0;
    let mut slid = if into(v, last) { v - last * v.dot(last) } else { v };
    for &n in earlier {
        if into(slid, n) {
            slid = match last.cross(n).try_normalize() {
                Some(crease) => crease * v.dot(crease),
                None => Vec3::ZERO,
            };
        }
    }
    // Still into some plane: a corner.
    if normals.iter().any(|&n| slid.dot(n) < -1.0e-6 * slid.length()) {
        return Vec3::ZERO;
    }
    slid
}

/// Whether the shape of bounds `bounds`, moved by `delta` so far, can move
/// on by `remaining` within `f32`: a slide (or a clip) can turn a motion
/// near `f32::MAX` into one that carries the shape beyond it, and the move
/// then ends.
fn stays_finite(bounds: &Aabb, delta: Vec3, remaining: Vec3) -> bool {
    (bounds.min + remaining).is_finite() && (bounds.max + remaining).is_finite() && (delta + remaining).is_finite()
}

impl World {
    /// Moves `shape` (the character, in world space) by `motion` through
    /// the colliders `filter` accepts, sliding along what it meets: cast
    /// ([`World::cast_shape`]), stop [`MOVE_AND_SLIDE_SKIN`] short of the
    /// contact (measured along its normal), take the rest of the motion
    /// without its part into the surface (and into the surfaces met before:
    /// along their crease, or not at all in a corner), and repeat, at most
    /// `max_iterations` casts. Contacts the motion leaves or runs along
    /// (`motion·normal >= 0`, a character standing on the floor and walking)
    /// do not block. A slide that would carry the shape beyond `f32` (only
    /// for motions near `f32::MAX`) ends the move. The world is not
    /// changed: apply `position_delta` to the character yourself.
    ///
    /// A shape that starts inside geometry is first pushed out (the book's
    /// `FixCollisions`): out of the collider it overlaps deepest, by the
    /// depth and the skin along the contact normal, up to four times; each
    /// push is a hit at `t = 0` in `hits`, and the motion is then clipped
    /// against those surfaces (a character sunk into the floor rises onto
    /// it and walks on). With `max_iterations = 0` nothing moves.
    ///
    /// Errors: the shape's validation errors, [`Error::NonFinite`](crate::Error::NonFinite) for a
    /// NaN or infinite motion, [`Error::InvalidArgument`](crate::Error::InvalidArgument) for a mesh as the
    /// character's shape (mesh colliders are walked on like any other).
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, QueryFilter, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// // A wall at x >= 2; the ball walks diagonally into it and slides along.
    /// world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(2.0, -5.0, -5.0), Vec3::new(3.0, 5.0, 5.0)))))?;
    /// let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
    /// let moved = world.move_and_slide(&ball, Vec3::new(2.0, 0.0, 2.0), &QueryFilter::ALL, 4)?;
    /// assert!((moved.position_delta.x - 0.999).abs() < 1e-4); // stopped at the wall, minus the skin
    /// assert!((moved.position_delta.z - 2.0).abs() < 1e-4); // kept all its sideways motion
    /// assert_eq!(moved.hits.len(), 1);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn move_and_slide(
        &self,
        shape: &Shape,
        motion: Vec3,
        filter: &QueryFilter,
        max_iterations: usize,
    ) -> Result<MoveAndSlide> {
        check_query_shape(shape)?;
        // The bounds of the shape where it stands now.
        let mut bounds = shape.bounding_aabb();
        check_motion(&bounds, motion)?;
        let mut result = MoveAndSlide::default();
        let mut normals: Vec<Vec3> = Vec::new();
        let mut remaining = motion;
        let mut current = shape.clone();
        // A start inside geometry (the book's `FixCollisions`): out of the
        // deepest overlap by its depth and the skin, along its normal, a
        // few times; each push is a hit at `t = 0` whose surface then
        // clips the motion like any other.
        // No iteration allowed: no move at all, not even out.
        let rounds = if max_iterations == 0 { 0 } else { DEPENETRATION_ROUNDS };
        for _ in 0..rounds {
            let Some((hit, depth)) = self.deepest_overlap(&current, filter) else {
                break;
            };
            let pushed = result.position_delta + hit.normal * (depth + MOVE_AND_SLIDE_SKIN);
            let moved = shape.translated(pushed);
            if !(pushed.is_finite() && check_motion(&moved.bounding_aabb(), remaining).is_ok()) {
                break;
            }
            result.position_delta = pushed;
            current = moved;
            bounds = current.bounding_aabb();
            result.hits.push(hit);
            normals.push(hit.normal);
        }
        remaining = clip_motion(remaining, &normals);
        if !stays_finite(&bounds, result.position_delta, remaining) {
            return Ok(result);
        }
        for _ in 0..max_iterations {
            if remaining == Vec3::ZERO {
                break;
            }
            let blocks = |hit: &Hit| hit.normal.dot(remaining) < 0.0;
            // The cast reaches the skin beyond the motion's end, so that a
            // surface the end would touch (or come within the skin of) is
            // met: `reach` stretches the motion by the skin's length.
            let stretched = 1.0 + MOVE_AND_SLIDE_SKIN / length_without_overflow(remaining);
            let reach = if check_motion(&bounds, remaining * stretched).is_ok() {
                stretched
            } else {
                1.0
            };
            let Some(hit) = self.first_hit(&current, remaining * reach, filter, blocks) else {
                result.position_delta += remaining;
                break;
            };
            // The fraction of `remaining` to travel: to the contact, less
            // the skin measured along the normal (`into` is the motion's
            // speed into the surface, > 0 as the hit blocks). Fractions, not
            // lengths: a motion's length overflows beyond 1.8e19 and
            // underflows below 1e-19, a fraction does neither.
            let into = -remaining.dot(hit.normal);
            let to_skin = hit.t * reach - MOVE_AND_SLIDE_SKIN / into;
            if to_skin >= 1.0 {
                // Met only at more than the skin beyond the end.
                result.position_delta += remaining;
                break;
            }
            let fraction = to_skin.clamp(0.0, 1.0);
            result.position_delta += remaining * fraction;
            current = shape.translated(result.position_delta);
            result.hits.push(hit);
            normals.push(hit.normal);
            remaining = clip_motion(remaining * (1.0 - fraction), &normals);
            bounds = current.bounding_aabb();
            if !stays_finite(&bounds, result.position_delta, remaining) {
                break;
            }
        }
        Ok(result)
    }
}
