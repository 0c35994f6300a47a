//! The stable C ABI: `phys_*` functions over an opaque `PhysWorld`, with
//! plain-data structs layout-compatible with the book's `Vector3`,
//! `Quaternion`, `AABB` and `LineSegment`.
//!
//! Every function is a thin shell in the style of rustls-ffi: check the
//! pointers, run the body inside a panic boundary, call the safe [`World`](crate::World)
//! API, and translate its error into a [`PhysStatus`]. Outputs go through
//! out-pointers and are written only when the status is `PHYS_OK`.

pub mod draw;
pub mod error;
pub mod geom;
pub mod manifold;
pub mod narrow;
pub mod query;
pub mod shape;
pub mod snapshot;
pub mod types;
pub mod world;

pub use draw::*;
pub use error::PhysStatus;
pub use geom::*;
pub use manifold::*;
pub use narrow::*;
pub use query::*;
pub use shape::*;
pub use snapshot::*;
pub use types::*;
pub use world::*;
