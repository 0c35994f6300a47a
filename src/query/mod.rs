//! The questions, one file each, each over all the shape pairs it serves.
//!
//! Most answers are methods on the shapes (`segment.cast_aabb(&b)`,
//! `sphere.intersects_aabb(&b)`), implemented in the file of their question.

pub mod cast;
pub mod contact;
pub mod contains;
pub mod distance;
pub mod epa;
pub mod gjk;
pub mod intersect;
mod mesh;
pub mod penetration;
mod ray;
pub(crate) mod rescale;
pub mod sat;
pub mod shape_cast;
pub(crate) mod sphere_search;
pub mod sweep;

pub use cast::CastHit;
pub use contact::{contact, Contact};
pub use gjk::{distance, intersects, Distance};
pub use ray::Ray;
pub use shape_cast::{shape_cast, time_of_impact, RigidMotion, RigidTimeOfImpact, TimeOfImpact, ToiOptions, ToiStatus};
