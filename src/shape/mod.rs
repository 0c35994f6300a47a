//! The primitives, one file each: plain `Copy` data (but the polygon's
//! vertex list), validated at the API boundary.

mod any;
pub(crate) mod capsule;
pub(crate) mod compound;
pub(crate) mod cone;
pub(crate) mod cylinder;
pub(crate) mod heightfield;
pub(crate) mod hull;
pub(crate) mod mesh;
pub(crate) mod obb;
pub(crate) mod plane;
pub(crate) mod polygon;
pub(crate) mod segment;
pub(crate) mod sphere;
pub(crate) mod support;
pub(crate) mod support_face;
pub(crate) mod surface;
pub(crate) mod triangle;

pub use crate::math::Aabb;
pub use any::Shape;
pub use capsule::Capsule;
pub use compound::Compound;
pub use cone::Cone;
pub use cylinder::Cylinder;
pub use heightfield::HeightField;
pub use hull::ConvexHull;
pub use mesh::TriangleMesh;
pub use obb::Obb;
pub use plane::Plane;
pub use polygon::ConvexPolygon;
pub use segment::{Segment, SegmentClosestPoints};
pub use sphere::Sphere;
pub use support::{Pose, Support, Transformed};
pub use triangle::{Triangle, TriangleClosestPoint};
