//! The questions, one file each, each over all the shape pairs it serves.
//!
//! Most answers are methods on the shapes (`segment.cast_aabb(&b)`,
//! `sphere.intersects_aabb(&b)`), implemented in the file of their question.

pub mod cast;
pub mod contains;
pub mod distance;
pub mod intersect;
pub mod penetration;
pub mod sweep;

pub use cast::CastHit;
