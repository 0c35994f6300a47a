//! Distance queries with analytic answers: the closest points of two
//! segments (skew, crossing, parallel, collinear, degenerate, NaN, and
//! against an `f64` reference at random), GJK distances between every kind
//! of shape, zero distance for touching and overlapping shapes, and the
//! book's distance bugs (`tests/common/book.rs`).

mod common;

use collide::math::{Quat, Vec3};
use collide::query::{distance, intersects};
use collide::shape::{Cone, Cylinder, Triangle};
use collide::{Aabb, Capsule, ColliderDesc, Obb, Segment, Shape, Sphere, World};
use common::book;
use common::float::*;
use common::geometry::*;
use common::random::{seeded, Draw};
use std::f32::consts::{FRAC_PI_4, SQRT_2};

// ---------------------------------------------------------------------------
// Closest points of two segments
// ---------------------------------------------------------------------------

/// Checks the invariants every `closest_points` answer must satisfy.
#[track_caller]
fn check_closest_points(a: &Segment, b: &Segment, expected_distance_squared: f32) -> collide::SegmentClosestPoints {
    let c = a.closest_points(b);
    assert!((0.0..=1.0).contains(&c.s) && (0.0..=1.0).contains(&c.t), "{c:?}");
    assert_vec_near(c.point_a, a.point_at(c.s), 1e-6);
    assert_vec_near(c.point_b, b.point_at(c.t), 1e-6);
    assert_near(c.distance_squared, (c.point_a - c.point_b).length_squared(), 1e-6);
    assert_near(c.distance_squared, expected_distance_squared, 1e-5);
    // The distance does not depend on the order of the segments.
    assert_near(b.closest_points(a).distance_squared, expected_distance_squared, 1e-5);
    c
}

/// Skew segments whose closest points are interior to both.
#[test]
fn segment_closest_points_skew() {
    let a = seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(0.0, -1.0, 2.0), v(0.0, 1.0, 2.0));
    let c = check_closest_points(&a, &b, 4.0);
    assert_eq!((c.s, c.t), (0.5, 0.5));
    assert_eq!((c.point_a, c.point_b), (Vec3::ZERO, v(0.0, 0.0, 2.0)));
}

/// Crossing segments are at distance 0.
#[test]
fn segment_closest_points_crossing() {
    let a = seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(0.0, -3.0, 0.0), v(0.0, 1.0, 0.0));
    let c = check_closest_points(&a, &b, 0.0);
    assert_eq!((c.s, c.t), (0.5, 0.75));
}

/// Skew segments whose closest points are end points of both (clamping on both sides).
#[test]
fn segment_closest_points_end_to_end() {
    let a = seg(v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(2.0, 0.0, 1.0), v(2.0, 0.0, 3.0));
    let c = check_closest_points(&a, &b, 2.0);
    assert_eq!((c.s, c.t), (1.0, 0.0));
}

/// Parallel segments that do not overlap along their direction: end point to end point.
#[test]
fn segment_closest_points_parallel_disjoint() {
    let a = seg(v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(2.0, 1.0, 0.0), v(3.0, 1.0, 0.0));
    let c = check_closest_points(&a, &b, 2.0);
    assert_eq!((c.s, c.t), (1.0, 0.0));
    // Antiparallel.
    let b_reversed = seg(b.end, b.start);
    let c = check_closest_points(&a, &b_reversed, 2.0);
    assert_eq!((c.s, c.t), (1.0, 1.0));
}

/// Parallel segments overlapping along their direction: the offset between their lines, with a valid pair of points.
#[test]
fn segment_closest_points_parallel_overlapping() {
    let a = seg(v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
    let b = seg(v(1.0, 1.0, 0.0), v(3.0, 1.0, 0.0));
    let c = check_closest_points(&a, &b, 1.0);
    assert_eq!(c.point_a.x, c.point_b.x);
    assert!((1.0..=2.0).contains(&c.point_a.x));
}

/// Collinear overlapping segments are at distance 0, at a point common to both.
#[test]
fn segment_closest_points_collinear_overlapping() {
    let a = seg(v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
    let b = seg(v(1.0, 0.0, 0.0), v(3.0, 0.0, 0.0));
    let c = check_closest_points(&a, &b, 0.0);
    assert_eq!(c.point_a, c.point_b);
    // One inside the other, reversed.
    let inner = seg(v(1.5, 0.0, 0.0), v(0.5, 0.0, 0.0));
    let c = check_closest_points(&a, &inner, 0.0);
    assert_eq!(c.point_a, c.point_b);
}

/// A zero-length first segment: the point-to-segment distance.
#[test]
fn segment_closest_points_first_degenerate() {
    let point = seg(v(0.5, 1.0, 0.0), v(0.5, 1.0, 0.0));
    let b = seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let c = check_closest_points(&point, &b, 1.0);
    assert_eq!((c.s, c.t), (0.0, 0.75));
}

/// A zero-length second segment: the point-to-segment distance (the book ignores the first segment's extent).
#[test]
fn segment_closest_points_second_degenerate() {
    let a = seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let point = seg(v(0.5, 2.0, 0.0), v(0.5, 2.0, 0.0));
    let c = check_closest_points(&a, &point, 4.0);
    assert_eq!((c.s, c.t), (0.75, 0.0));
    // Beyond the end: clamped.
    let far = seg(v(3.0, 0.0, 0.0), v(3.0, 0.0, 0.0));
    let c = check_closest_points(&a, &far, 4.0);
    assert_eq!((c.s, c.t), (1.0, 0.0));
}

/// Two zero-length segments: the distance between the points.
#[test]
fn segment_closest_points_both_degenerate() {
    let a = seg(v(1.0, 2.0, 3.0), v(1.0, 2.0, 3.0));
    let b = seg(v(4.0, 6.0, 3.0), v(4.0, 6.0, 3.0));
    let c = check_closest_points(&a, &b, 25.0);
    assert_eq!((c.s, c.t), (0.0, 0.0));
}

/// NaN input gives a NaN distance (so capsule tests built on it are false).
#[test]
fn segment_closest_points_nan() {
    let a = seg(v(f32::NAN, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(0.0, 1.0, 0.0), v(1.0, 1.0, 0.0));
    assert!(a.closest_points(&b).distance_squared.is_nan());
    assert!(b.closest_points(&a).distance_squared.is_nan());
}

/// Random segment pairs (including nearly parallel and tiny ones) against an `f64` ternary search.
#[test]
fn segment_closest_points_random_vs_reference() {
    let mut rng = seeded(0x5EED_0001);
    for i in 0..3000 {
        let a = seg(rng.vec(-10.0, 10.0), rng.vec(-10.0, 10.0));
        let b = match i % 4 {
            0 => seg(rng.vec(-10.0, 10.0), rng.vec(-10.0, 10.0)),
            // Nearly parallel to `a`, shifted.
            1 => {
                let offset = rng.vec(-3.0, 3.0);
                let tilt = rng.vec(-1e-4, 1e-4);
                seg(a.start + offset, a.end + offset + tilt)
            }
            // Tiny.
            2 => {
                let p = rng.vec(-10.0, 10.0);
                seg(p, p + rng.vec(-1e-3, 1e-3))
            }
            // Exactly parallel.
            _ => {
                let offset = rng.vec(-3.0, 3.0);
                seg(a.start * 0.5 + offset, a.end * 0.5 + offset)
            }
        };
        let reference = ternary_min(0.0, 1.0, |s| {
            point_segment_distance_squared_f64(segment_point_f64(&a, s), &b)
        });
        let ours = a.closest_points(&b);
        // Within 1e-5 (at coordinates up to 10), plus length·sin(angle) for
        // segments within 1e-5 of parallel, which take s = 0 by design.
        let slack = 1e-5 * f64::from(1.0 + a.direction().length() + b.direction().length());
        assert!(
            (f64::from(ours.distance_squared).sqrt() - reference.sqrt()).abs() <= slack,
            "case {i}: {a:?} {b:?}: {} vs {}",
            ours.distance_squared,
            reference
        );
    }
}

// ---------------------------------------------------------------------------
// GJK: distance and overlap
// ---------------------------------------------------------------------------

#[test]
fn distance_between_spheres_boxes_and_points() {
    let d = distance(&Sphere::new(Vec3::ZERO, 1.0), &Sphere::new(v(5.0, 0.0, 0.0), 2.0));
    assert_eq!(d.distance, 2.0);
    assert_eq!(
        (d.point_a, d.point_b, d.normal),
        (Vec3::X, v(3.0, 0.0, 0.0), Some(Vec3::X))
    );

    // Box to box, face to face and corner to corner.
    let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let d = distance(&a, &Aabb::new(v(3.0, 0.2, 0.2), v(4.0, 0.8, 0.8)));
    assert_close(d.distance, 2.0, 1e-6);
    assert_eq!(d.normal, Some(Vec3::X));
    let d = distance(&a, &Aabb::new(Vec3::splat(2.0), Vec3::splat(3.0)));
    assert_close(d.distance, 3.0f32.sqrt(), 1e-6);
    assert_vec_close(d.point_a, Vec3::ONE, 1e-6);
    assert_vec_close(d.point_b, Vec3::splat(2.0), 1e-6);

    // A point above a triangle's face, and beyond an edge.
    let tri = Triangle::new(Vec3::ZERO, v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0));
    let d = distance(&tri, &v(0.5, 0.5, 3.0));
    assert_close(d.distance, 3.0, 1e-6);
    assert_vec_close(d.point_a, v(0.5, 0.5, 0.0), 1e-6);
    let d = distance(&tri, &v(2.0, 2.0, 0.0));
    assert_close(d.distance, SQRT_2, 1e-6);
    assert_vec_close(d.point_a, v(1.0, 1.0, 0.0), 1e-6);

    // Oriented boxes: a box turned 45° about z, corner towards a wall.
    let turned = Obb::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    let wall = Aabb::new(v(2.0, -5.0, -5.0), v(3.0, 5.0, 5.0));
    assert_close(distance(&turned, &wall).distance, 2.0 - SQRT_2, 1e-6);
}

#[test]
fn distance_for_curved_shapes() {
    let cylinder = Cylinder::new(seg(Vec3::ZERO, v(0.0, 2.0, 0.0)), 1.0);
    // Side, cap, and rim.
    assert_close(
        distance(&cylinder, &Sphere::new(v(3.0, 1.0, 0.0), 0.5)).distance,
        1.5,
        1e-5,
    );
    assert_close(
        distance(&cylinder, &Sphere::new(v(0.0, 4.0, 0.0), 0.5)).distance,
        1.5,
        1e-5,
    );
    let rim = distance(&cylinder, &v(2.0, 3.0, 0.0));
    assert_close(rim.distance, SQRT_2, 1e-5);
    assert_vec_close(rim.point_a, v(1.0, 2.0, 0.0), 1e-4);

    let cone = Cone::new(Vec3::ZERO, v(0.0, 1.0, 0.0), 1.0);
    // Perpendicular to the slanted side, from a point out along its normal.
    let n = v(1.0, 1.0, 0.0).normalize();
    let on_side = v(0.5, 0.5, 0.0);
    let d = distance(&cone, &(on_side + n * 2.0));
    assert_close(d.distance, 2.0, 1e-5);
    assert_vec_close(d.point_a, on_side, 1e-4);
    assert_close(distance(&cone, &v(0.0, 3.0, 0.0)).distance, 2.0, 1e-5);

    let capsule = Capsule::new(seg(v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0)), 0.5);
    let d = distance(&capsule, &Capsule::new(seg(v(2.0, 0.0, -1.0), v(2.0, 0.0, 1.0)), 0.25));
    assert_close(d.distance, 1.25, 1e-6);
    assert_vec_close(d.point_a, v(0.5, 0.0, 0.0), 1e-6);
    assert_vec_close(d.point_b, v(1.75, 0.0, 0.0), 1e-6);
}

#[test]
fn touching_and_overlapping_have_distance_zero_and_no_normal() {
    let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let touching = Aabb::new(v(1.0, 0.0, 0.0), v(2.0, 1.0, 1.0));
    let d = distance(&a, &touching);
    assert_eq!((d.distance, d.normal), (0.0, None));
    assert_eq!(d.point_a, d.point_b);
    assert!(intersects(&a, &touching));

    // Overlapping: the common point is in both.
    let ball = Sphere::new(v(1.2, 0.5, 0.5), 0.5);
    let d = distance(&a, &ball);
    assert_eq!((d.distance, d.normal), (0.0, None));
    assert!(a.contains_point(d.point_a) && ball.contains_point(d.point_a), "{d:?}");
    let hull = cube_hull(v(0.5, 0.5, 0.5), v(3.0, 3.0, 3.0));
    let d = distance(&a, &hull);
    assert_eq!((d.distance, d.normal), (0.0, None));
    assert!(a.contains_point(d.point_a + (d.point_a - Vec3::splat(0.75)) * -1e-5));

    // Two spheres exactly touching.
    let d = distance(&Sphere::new(Vec3::ZERO, 1.0), &Sphere::new(v(2.0, 0.0, 0.0), 1.0));
    assert_eq!((d.distance, d.normal, d.point_a), (0.0, None, Vec3::X));
}

// ---------------------------------------------------------------------------
// The book's distance bugs (`tests/common/book.rs`)
// ---------------------------------------------------------------------------

/// AABB–point distance: the book uses the y distance where z is meant, so a point straight below the box is at distance 0.
#[test]
fn aabb_point_distance_uses_y_for_z() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    for (p, expected) in [
        (v(0.5, 0.5, -5.0), 25.0),
        (v(0.5, 3.0, 0.5), 4.0),
        (v(0.5, 5.0, 2.0), 17.0),
    ] {
        assert_ne!(book::aabb_min_dist_sq(b.min, b.max, p), expected);
        assert_eq!(b.distance_squared_to_point(p), expected);
    }
}

/// Zero-length segment to point: the book computes 0/0, so a capsule with a zero-length axis contains nothing; collide's contains its ball.
#[test]
fn zero_length_segment_point_distance_is_nan() {
    let p = v(1.0, 2.0, 3.0);
    assert!(book::segment_point_min_dist_sq(p, p, v(1.5, 2.0, 3.0)).is_nan());
    assert!(!book::capsule_contains(p, p, 1.0, p));
    let point_segment = Segment::new(p, p);
    assert_eq!(point_segment.distance_squared_to_point(v(1.5, 2.0, 3.0)), 0.25);
    let capsule = Capsule::new(point_segment, 1.0);
    for q in [p, v(1.5, 2.0, 3.0), v(1.0, 1.0, 3.0), v(1.3, 2.4, 3.5)] {
        assert!(capsule.contains_point(q), "{q:?}");
    }
    assert!(!capsule.contains_point(v(2.1, 2.0, 3.0)));
    // And such a capsule collides in the world.
    let mut world = World::new();
    world.add(ColliderDesc::new(Shape::Capsule(capsule))).unwrap();
    world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(v(2.5, 2.0, 3.0), 0.5))))
        .unwrap();
    let mut pairs = 0;
    world.test_pairwise(|_| pairs += 1);
    assert_eq!(pairs, 1);
}

/// Segment–segment with a degenerate second segment: the book ignores the first segment's extent; collide measures point to segment.
#[test]
fn segment_segment_degenerate_second() {
    let a = Segment::new(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let point = Segment::new(v(0.0, 1.0, 0.0), v(0.0, 1.0, 0.0));
    assert_eq!(
        book::segment_segment_min_dist_sq((a.start, a.end), (point.start, point.end)),
        2.0
    );
    let c = a.closest_points(&point);
    assert_eq!((c.distance_squared, c.s, c.t), (1.0, 0.5, 0.0));
    // Capsules built on these: collide sees the touch, the book's distance does not.
    let capsule = Capsule::new(a, 0.5);
    assert!(capsule.intersects_capsule(&Capsule::new(point, 0.5)));
}

/// Segment–segment with absolute epsilons: short perpendicular segments (a·c − b² < 0.001) are taken as parallel by the book; collide stays exact.
#[test]
fn segment_segment_absolute_epsilon() {
    let a = Segment::new(v(-0.05, 0.0, 0.0), v(0.05, 0.0, 0.0));
    let b = Segment::new(v(0.0, -0.05, 1.0), v(0.0, 0.05, 1.0));
    let book = book::segment_segment_min_dist_sq((a.start, a.end), (b.start, b.end));
    assert!((book - 1.0025).abs() < 1e-5, "book: {book}");
    let c = a.closest_points(&b);
    assert!((c.distance_squared - 1.0).abs() < 1e-6);
    assert!((c.s - 0.5).abs() < 1e-6 && (c.t - 0.5).abs() < 1e-6);
}

/// The sphere–triangle distance in closed form against an `f64` brute
/// force (the triangle's closest point by a refined grid search): the
/// distance `|q − c| − r`, `point_b` the triangle's closest point,
/// `point_a` on the sphere towards it, 0 with no normal when they touch;
/// the same answer through `Shape`, flipped for the triangle first.
#[test]
fn sphere_triangle_distance_matches_the_closest_point_of_the_triangle() {
    let mut rng = seeded(78);
    let mut apart = 0;
    for _ in 0..3000 {
        let tri = Triangle::new(rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0));
        let sphere = Sphere::new(rng.vec(-3.0, 3.0), rng.range(0.05, 1.0));
        let got = sphere.distance_triangle(&tri);
        assert_eq!(got, Shape::Sphere(sphere).distance(&Shape::Triangle(tri)));
        let flipped = Shape::Triangle(tri).distance(&Shape::Sphere(sphere));
        assert_eq!(
            (flipped.distance, flipped.point_a, flipped.point_b),
            (got.distance, got.point_b, got.point_a)
        );
        let centre = sphere.center.as_dvec3();
        let q = closest_point_of_triangle_by_search(&tri, centre);
        let want = ((q - centre).length() - f64::from(sphere.radius)).max(0.0);
        assert!(
            (f64::from(got.distance) - want).abs() <= 1e-5,
            "distance {} vs {want}",
            got.distance
        );
        assert!(
            (got.point_b.as_dvec3() - q).length() <= 1e-4,
            "point_b {:?} vs {q:?}",
            got.point_b
        );
        match got.normal {
            Some(n) => {
                apart += 1;
                assert!(want > 0.0);
                assert!((got.point_a.as_dvec3() - centre).length() - f64::from(sphere.radius) <= 1e-6);
                assert!((n.as_dvec3() - (q - centre).normalize()).length() <= 1e-4);
            }
            None => assert!(want <= 1e-5, "no normal, but {want} apart"),
        }
    }
    assert!(apart > 1000, "only {apart} apart: the draw tests little");
}
