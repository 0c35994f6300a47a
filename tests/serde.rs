//! With the `serde` feature, a `World` serialises as its snapshot's bytes
//! in any serde format and deserialises back to the same world (the same
//! keys and state hash); bytes that are not a snapshot are the format's
//! error. `cargo test --features serde --test serde` runs these; CI does.
#![cfg(feature = "serde")]

use collide::math::Vec3;
use collide::{Aabb, ColliderDesc, QueryFilter, Segment, Shape, Sphere, World};

#[test]
fn a_world_goes_through_json_and_back() {
    let mut world = World::new();
    let wall = world
        .add(
            ColliderDesc::new(Shape::Aabb(Aabb::new(
                Vec3::new(4.0, -1.0, -1.0),
                Vec3::new(5.0, 1.0, 1.0),
            )))
            .with_user_data(7),
        )
        .unwrap();
    let gone = world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::Y * 3.0, 1.0))))
        .unwrap();
    world.remove(gone).unwrap();
    let json = serde_json::to_string(&world).unwrap();
    let back: World = serde_json::from_str(&json).unwrap();
    assert_eq!(back.state_hash(), world.state_hash());
    assert_eq!(back.get(wall).unwrap().user_data(), 7);
    assert!(!back.contains(gone));
    let shot = Segment::new(Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0));
    assert_eq!(
        back.segment_cast(&shot, &QueryFilter::ALL).unwrap(),
        world.segment_cast(&shot, &QueryFilter::ALL).unwrap()
    );
    // Not a snapshot: the format's error, no panic.
    assert!(serde_json::from_str::<World>("[1, 2, 3]").is_err());
    assert!(serde_json::from_str::<World>("\"text\"").is_err());
}
