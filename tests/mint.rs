//! With the `mint` feature, collide's vectors and quaternions convert to
//! and from mint's, the interchange types of engines on other math
//! libraries (or another glam version). `cargo test --features mint --test
//! mint` runs these; CI does.
#![cfg(feature = "mint")]

use collide::math::{Quat, Vec3};
use collide::{ColliderDesc, QueryFilter, Segment, Shape, Sphere, Transform, World};

/// A position and a rotation from an engine's mint types place a collider,
/// and a hit comes back as mint types.
#[test]
fn mint_values_place_colliders_and_read_hits() {
    let position = mint::Point3 { x: 0.0, y: 2.0, z: 0.0 };
    let rotation = mint::Quaternion {
        v: mint::Vector3 { x: 0.0, y: 0.0, z: 0.0 },
        s: 1.0,
    };
    let transform = Transform::new(Vec3::from(position), Quat::from(rotation), 1.0);
    let mut world = World::new();
    let ball = world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5))).with_transform(transform))
        .unwrap();
    let down = Segment::new(Vec3::new(0.0, 10.0, 0.0), Vec3::new(0.0, -10.0, 0.0));
    let hit = world.segment_cast(&down, &QueryFilter::ALL).unwrap().unwrap();
    assert_eq!(hit.collider, ball);
    let normal: mint::Vector3<f32> = hit.normal.into();
    assert_eq!((normal.x, normal.y, normal.z), (0.0, 1.0, 0.0));
    let point: mint::Point3<f32> = hit.point.into();
    assert_eq!((point.x, point.y, point.z), (0.0, 2.5, 0.0));
}
