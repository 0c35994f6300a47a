//! Rays with a maximum `t` (`World::cast_ray`, `Shape::cast_ray`): the same
//! hits as the segment from the origin to `origin + max_t·direction`, with
//! `t` in units of the direction, and bad rays refused.

mod common;

use collide::math::Vec3;
use collide::query::Ray;
use collide::{Aabb, Capsule, ColliderDesc, Error, QueryFilter, Segment, Shape, Sphere, World};
use common::random::{seeded, Draw};

/// A world of boxes, balls and capsules scattered over ±50, offset by
/// `offset`.
fn scattered_world(offset: Vec3) -> World {
    let mut rng = seeded(41);
    let mut world = World::new();
    for i in 0..300 {
        let c = offset + rng.vec(-50.0, 50.0);
        let r = rng.range(0.2, 3.0);
        let shape = match i % 3 {
            0 => Shape::Aabb(Aabb::new(c - Vec3::splat(r), c + rng.vec(0.1, 3.0))),
            1 => Shape::Sphere(Sphere::new(c, r)),
            _ => Shape::Capsule(Capsule::new(Segment::new(c, c + rng.vec(-3.0, 3.0)), r * 0.5)),
        };
        world.add(ColliderDesc::new(shape).with_user_data(i)).unwrap();
    }
    world
}

/// Every ray's hit is the brute-force segment cast's, `t` scaled by
/// `max_t`, at game-world offsets up to 1e5 and with directions of any
/// length.
#[test]
fn a_ray_hits_what_its_segment_hits_with_t_in_units_of_its_direction() {
    for offset in [Vec3::ZERO, Vec3::new(1e5, -3e4, 7e4)] {
        let world = scattered_world(offset);
        let mut rng = seeded(7);
        let mut hits = 0;
        for _ in 0..2000 {
            let origin = offset + rng.vec(-60.0, 60.0);
            let direction = rng.vec(-1.0, 1.0) * rng.range(0.01, 10.0);
            let max_t = rng.range(0.0, 200.0) / direction.length().max(1e-3);
            let ray = Ray::new(origin, direction);
            let got = world.cast_ray(&ray, max_t, &QueryFilter::ALL).unwrap();
            let segment = Segment::new(origin, ray.point_at(max_t));
            let want = world.segment_cast_brute_force(&segment, &QueryFilter::ALL).unwrap();
            assert_eq!(
                got.map(|h| h.collider),
                want.map(|h| h.collider),
                "{ray:?} up to {max_t}"
            );
            if let (Some(got), Some(want)) = (got, want) {
                hits += 1;
                assert_eq!(got.t, want.t * max_t, "{ray:?}");
                assert_eq!((got.point, got.normal), (want.point, want.normal), "{ray:?}");
                assert!(got.t >= 0.0 && got.t <= max_t);
            }
        }
        assert!(hits > 100, "only {hits} hits: the scene is too sparse to test anything");
    }
}

/// `Shape::cast_ray` with a unit direction gives the distance, and `max_t`
/// cuts the ray off.
#[test]
fn a_shape_ray_cast_reports_the_distance_for_a_unit_direction() {
    let ball = Shape::Sphere(Sphere::new(Vec3::new(0.0, 0.0, -20.0), 2.0));
    let ray = Ray::new(Vec3::ZERO, Vec3::NEG_Z);
    let hit = ball.cast_ray(&ray, 1000.0).expect("the ball is ahead");
    assert_eq!((hit.t, hit.normal), (18.0, Vec3::Z));
    assert_eq!(ball.cast_ray(&ray, 17.9), None, "the ball is beyond max_t");
    assert_eq!(
        ball.cast_ray(&Ray::new(Vec3::ZERO, Vec3::Z), 1000.0),
        None,
        "behind the ray"
    );
}

/// A negative or NaN `max_t` is an invalid argument, a NaN or infinite
/// origin or direction (or an end beyond the `f32` range) non-finite; the
/// world is untouched and `Shape::cast_ray` answers `None`.
#[test]
fn bad_rays_are_refused() {
    let world = scattered_world(Vec3::ZERO);
    let good = Ray::new(Vec3::ZERO, Vec3::X);
    for max_t in [-1.0, f32::NAN] {
        assert!(matches!(
            world.cast_ray(&good, max_t, &QueryFilter::ALL),
            Err(Error::InvalidArgument(_))
        ));
    }
    for (ray, max_t) in [
        (Ray::new(Vec3::splat(f32::NAN), Vec3::X), 1.0),
        (Ray::new(Vec3::ZERO, Vec3::new(f32::INFINITY, 0.0, 0.0)), 1.0),
        (good, f32::INFINITY),
        (Ray::new(Vec3::ZERO, Vec3::splat(f32::MAX)), 2.0),
    ] {
        assert!(
            matches!(world.cast_ray(&ray, max_t, &QueryFilter::ALL), Err(Error::NonFinite(_))),
            "{ray:?} up to {max_t}"
        );
        assert_eq!(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)).cast_ray(&ray, max_t), None);
    }
    assert_eq!(world.len(), 300);
}
