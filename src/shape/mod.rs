//! The primitives, one file each: plain `Copy` data (but the polygon's
//! vertex list), validated at the API boundary.

mod any;
pub mod capsule;
pub mod cone;
pub mod cylinder;
pub mod hull;
pub mod mesh;
pub mod obb;
pub mod plane;
pub mod polygon;
pub mod segment;
pub mod sphere;
pub mod support;
pub mod triangle;

pub use crate::math::Aabb;
pub use any::Shape;
pub use capsule::Capsule;
pub use cone::Cone;
pub use cylinder::Cylinder;
pub use hull::ConvexHull;
pub use mesh::TriangleMesh;
pub use obb::Obb;
pub use plane::Plane;
pub use polygon::ConvexPolygon;
pub use segment::{Segment, SegmentClosestPoints};
pub use sphere::Sphere;
pub use support::{Pose, Support, Transformed};
pub use triangle::{Triangle, TriangleClosestPoint};
