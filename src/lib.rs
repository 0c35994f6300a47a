//! # collide
//!
//! Collision detection for game engines: a [`World`] of colliders with the
//! queries a game asks every frame, usable from Rust and, through a stable
//! C ABI (`include/collide.h`), from C and C++.
//!
//! ```
//! use collide::{Aabb, ColliderDesc, QueryFilter, Segment, Shape, Sphere, Transform, World};
//! use collide::math::Vec3;
//!
//! let mut world = World::new();
//! // A 10 × 1 × 10 floor, and a ball resting on it.
//! let floor = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)))))?;
//! let ball = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5)))
//!     .with_transform(Transform::from_translation(Vec3::new(0.0, 0.5, 0.0)))
//!     .with_user_data(1))?;
//!
//! // A bullet fired straight down from above hits the ball first...
//! let down = Segment::new(Vec3::new(0.0, 10.0, 0.0), Vec3::new(0.0, -10.0, 0.0));
//! let hit = world.segment_cast(&down, &QueryFilter::ALL)?.unwrap();
//! assert_eq!((hit.collider, hit.normal), (ball, Vec3::Y));
//! // ...and the floor when the ball is excluded.
//! let hit = world.segment_cast(&down, &QueryFilter::excluding(ball))?.unwrap();
//! assert_eq!(hit.collider, floor);
//!
//! // The ball touches the floor: one pair, found both ways.
//! let mut pairs = Vec::new();
//! world.test_sweep_and_prune(|pair| pairs.push((pair.a, pair.b)));
//! assert_eq!(pairs, [(floor, ball)]);
//! # Ok::<(), collide::Error>(())
//! ```

// `!(a <= b)` is deliberate throughout: it is true when either side is NaN,
// which is how every query turns NaN input into a miss instead of a hit.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
#![warn(missing_docs)]

mod broad;
mod bvh;
mod character;
mod collider;
mod debug_draw;
mod error;
#[doc(hidden)]
pub mod ffi;
pub mod math;
mod prefetch;
pub mod query;
pub mod shape;
mod threads;
mod visit;
mod world;

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use broad::events::PairEvents;
pub use broad::Pair;
pub use character::{clip_motion, MoveAndSlide, MOVE_AND_SLIDE_SKIN};
pub use collider::{ColliderDesc, ColliderKey, ColliderRef, Filter, QueryFilter};
pub use debug_draw::{debug_draw_hit, debug_draw_shape, Color, DebugDraw, DebugDrawOptions};
pub use error::{Error, Result};
/// The math library of collide's API, re-exported: `collide::glam::Vec3`
/// is `collide::math::Vec3`.
pub use glam;
pub use math::{Aabb, Transform};
pub use query::{CastHit, Contact, ContactManifold, Distance, ManifoldPoint, TimeOfImpact};
pub use shape::{
    Capsule, Compound, Cone, ConvexHull, ConvexPolygon, Cylinder, HeightField, Obb, Plane, Segment,
    SegmentClosestPoints, Shape, Sphere, Triangle, TriangleMesh,
};
pub use visit::VisitResult;
pub use world::{Hit, Threads, World, MAX_COLLIDERS, MAX_SNAPSHOT_REUSES};
