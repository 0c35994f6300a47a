//! The primitives, one file each: plain `Copy` data (but the polygon's
//! vertex list), validated at the API boundary.

pub mod aabb;
pub mod capsule;
pub mod obb;
pub mod plane;
pub mod polygon;
pub mod segment;
pub mod sphere;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub use obb::Obb;
pub use plane::Plane;
pub use polygon::ConvexPolygon;
pub use segment::{Segment, SegmentClosestPoints};
pub use sphere::Sphere;
