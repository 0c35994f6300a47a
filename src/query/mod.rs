//! The questions, one file each, each over all the shape pairs it serves,
//! and the algorithms they share (GJK, EPA, SAT, the unit-scale frame, the
//! sphere search), each in its own file.
//!
//! Most answers are methods on the shapes (`segment.cast_aabb(&b)`,
//! `sphere.intersects_aabb(&b)`), implemented in the file of their question;
//! the free functions and result types are re-exported here. The names
//! read one way: `a.cast_b(…)` moves `a` until it meets `b` — a segment
//! its point from `start` to `end` ([`CastHit`]), a shape by a `motion`
//! ([`TimeOfImpact`]) — and `a.contact(&b)`, `a.distance(&b)`,
//! `a.intersects(&b)` answer for `a` against `b`. Contacts, distances and
//! shape casts give their normal from `a` to `b`; a segment cast gives the
//! surface normal of `b` facing the segment's start, as the world's
//! [`Hit`](crate::Hit) does for every cast.

mod cast;
mod compound;
mod contact;
mod contains;
mod distance;
mod epa;
mod gjk;
mod intersect;
mod manifold;
mod penetration;
mod polyhedra;
mod ray;
mod rescale;
mod sat;
mod shape_cast;
mod sphere_search;
mod surface;
pub(crate) mod watertight;

pub use cast::CastHit;
pub use contact::{contact, Contact};
pub use gjk::{distance, intersects, Distance, TOUCH_TOLERANCE};
pub use manifold::{ContactManifold, ManifoldPoint, MAX_MANIFOLD_POINTS};
pub use ray::Ray;
pub use shape_cast::{shape_cast, time_of_impact, RigidMotion, TimeOfImpact, ToiOptions, ToiStatus};
