//! Overlap and contact queries with analytic answers: the intersection
//! tests of every pair of shapes (overlapping, touching exactly, one ulp
//! apart, NaN) and their symmetry, the closed-form contacts, SAT and EPA,
//! push-out (the book's FixCollisions), and the book's overlap bugs
//! (`tests/common/book.rs`).

mod common;

use collide::math::{Quat, Vec3};
use collide::query::{contact, distance, intersects, Contact};
use collide::shape::{Cone, Cylinder, Pose, Support, Transformed, Triangle};
use collide::{Aabb, Capsule, ColliderDesc, Error, Obb, Plane, Shape, Sphere, World};
use common::book;
use common::float::*;
use common::geometry::*;
use common::oracle::{assert_witnesses, Oracle};
use common::random::{seeded, Draw, TestRng};
use rand::Rng;
use std::f32::consts::{FRAC_PI_4, SQRT_2};

// ---------------------------------------------------------------------------
// Intersection tests
// ---------------------------------------------------------------------------

/// Sphere–sphere: overlapping, touching exactly, one ulp apart, NaN.
#[test]
fn intersects_sphere_sphere() {
    let a = Sphere::new(Vec3::ZERO, 1.0);
    assert!(a.intersects_sphere(&Sphere::new(v(1.5, 0.0, 0.0), 1.0)));
    assert!(a.intersects_sphere(&Sphere::new(v(0.0, 2.0, 0.0), 1.0)));
    assert!(!a.intersects_sphere(&Sphere::new(v(0.0, next_up(2.0), 0.0), 1.0)));
    assert!(a.intersects_sphere(&Sphere::new(v(0.0, 0.0, 3.0), 2.0)));
    assert!(a.intersects_sphere(&Sphere::new(Vec3::ZERO, 0.0)));
    assert!(!a.intersects_sphere(&Sphere::new(v(f32::NAN, 0.0, 0.0), 1.0)));
    assert!(!a.intersects_sphere(&Sphere::new(Vec3::ZERO, f32::NAN)));
}

/// Box–box: overlapping, touching on a face, an edge and a corner, separated by a ulp, zero-size, NaN.
#[test]
fn intersects_aabb_aabb() {
    let a = unit_box();
    let shifted = |d: Vec3| Aabb::new(a.min + d, a.max + d);
    assert!(a.intersects_aabb(&shifted(v(0.5, 0.5, 0.5))));
    assert!(a.intersects_aabb(&shifted(v(1.0, 0.0, 0.0))));
    assert!(a.intersects_aabb(&shifted(v(1.0, 1.0, 0.0))));
    assert!(a.intersects_aabb(&shifted(v(-1.0, -1.0, -1.0))));
    assert!(!a.intersects_aabb(&Aabb::new(v(next_up(1.0), 0.0, 0.0), v(2.0, 1.0, 1.0))));
    assert!(!a.intersects_aabb(&shifted(v(0.0, 0.0, 2.0))));
    let point = Aabb::new(Vec3::splat(0.5), Vec3::splat(0.5));
    assert!(a.intersects_aabb(&point) && point.intersects_aabb(&a));
    assert!(point.intersects_aabb(&point));
    let nan = Aabb::new(v(f32::NAN, 0.0, 0.0), v(f32::NAN, 1.0, 1.0));
    assert!(!a.intersects_aabb(&nan) && !nan.intersects_aabb(&a));
}

/// Sphere–box: near a face, an edge and a corner (3-4-5 distances), touching, inside, NaN.
#[test]
fn intersects_sphere_aabb() {
    let b = unit_box();
    assert!(Sphere::new(v(0.5, 0.5, 0.5), 0.1).intersects_aabb(&b));
    assert!(Sphere::new(v(3.0, 0.5, 0.5), 2.0).intersects_aabb(&b));
    assert!(!Sphere::new(v(3.0, 0.5, 0.5), 1.9).intersects_aabb(&b));
    assert!(Sphere::new(v(0.5, 0.5, 4.0), 3.0).intersects_aabb(&b));
    assert!(!Sphere::new(v(0.5, 0.5, 4.0), 2.9).intersects_aabb(&b));
    // Edge: (4, 5) from the edge x = 1, y = 1 is at distance 5.
    assert!(Sphere::new(v(4.0, 5.0, 0.5), 5.0).intersects_aabb(&b));
    assert!(!Sphere::new(v(4.0, 5.0, 0.5), 4.99).intersects_aabb(&b));
    // Corner: (−3, −4, −12) from the corner at the origin, at distance sqrt(9 + 16 + 144) = 13.
    assert!(Sphere::new(v(-3.0, -4.0, -12.0), 13.0).intersects_aabb(&b));
    assert!(!Sphere::new(v(-3.0, -4.0, -12.0), 12.99).intersects_aabb(&b));
    assert!(Sphere::new(v(1.0, 1.0, 1.0), 0.0).intersects_aabb(&b));
    assert!(!Sphere::new(v(f32::NAN, 0.5, 0.5), 1.0).intersects_aabb(&b));
    assert!(!Sphere::new(v(0.5, 0.5, 0.5), f32::NAN).intersects_aabb(&b));
}

/// Capsule–capsule: parallel, crossing, touching, apart, zero-length axes, NaN.
#[test]
fn intersects_capsule_capsule() {
    let a = Capsule::new(seg(Vec3::ZERO, Vec3::X), 0.5);
    assert!(a.intersects_capsule(&Capsule::new(seg(Vec3::Y, v(1.0, 1.0, 0.0)), 0.5)));
    assert!(!a.intersects_capsule(&Capsule::new(seg(v(0.0, 1.0, 0.0), v(1.0, 1.0, 0.0)), 0.49)));
    assert!(a.intersects_capsule(&Capsule::new(seg(v(0.5, -1.0, 0.0), v(0.5, 1.0, 0.0)), 0.0)));
    assert!(a.intersects_capsule(&Capsule::new(seg(v(0.5, -1.0, 2.0), v(0.5, 1.0, 2.0)), 1.5)));
    assert!(!a.intersects_capsule(&Capsule::new(seg(v(0.5, -1.0, 2.0), v(0.5, 1.0, 2.0)), 1.4)));
    // End to end along the axis.
    assert!(a.intersects_capsule(&Capsule::new(seg(v(2.0, 0.0, 0.0), v(3.0, 0.0, 0.0)), 0.5)));
    assert!(!a.intersects_capsule(&Capsule::new(seg(v(2.0, 0.0, 0.0), v(3.0, 0.0, 0.0)), 0.49)));
    // Zero-length axes are spheres.
    let ball = Capsule::new(seg(v(0.5, 1.0, 0.0), v(0.5, 1.0, 0.0)), 0.5);
    assert!(a.intersects_capsule(&ball) && ball.intersects_capsule(&a));
    let point = Capsule::new(seg(v(0.5, 1.5, 0.0), v(0.5, 1.5, 0.0)), 0.0);
    assert!(!a.intersects_capsule(&point));
    assert!(ball.intersects_capsule(&point));
    let nan = Capsule::new(seg(v(f32::NAN, 0.0, 0.0), Vec3::X), 0.5);
    assert!(!a.intersects_capsule(&nan) && !nan.intersects_capsule(&a));
}

/// Capsule–sphere: beside the cylinder, beyond a cap, touching, zero-length axis, NaN.
#[test]
fn intersects_capsule_sphere() {
    let c = Capsule::new(seg(v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0)), 0.5);
    assert!(c.intersects_sphere(&Sphere::new(v(1.5, 0.0, 0.0), 1.0)));
    assert!(!c.intersects_sphere(&Sphere::new(v(1.5, 0.0, 0.0), 0.99)));
    assert!(c.intersects_sphere(&Sphere::new(v(0.0, 4.0, 0.0), 2.5)));
    assert!(!c.intersects_sphere(&Sphere::new(v(0.0, 4.0, 0.0), 2.49)));
    assert!(c.intersects_sphere(&Sphere::new(v(3.0, 5.0, 0.0), 4.5)));
    let ball = Capsule::new(seg(Vec3::ZERO, Vec3::ZERO), 1.0);
    assert!(ball.intersects_sphere(&Sphere::new(v(2.0, 0.0, 0.0), 1.0)));
    assert!(!ball.intersects_sphere(&Sphere::new(v(2.0, 0.1, 0.0), 1.0)));
    assert!(!c.intersects_sphere(&Sphere::new(v(f32::NAN, 0.0, 0.0), 1.0)));
}

/// Capsule–box: beside, crossing with radius 0, touching a face and an edge, zero-length axis, NaN.
#[test]
fn intersects_capsule_aabb() {
    let b = unit_box();
    assert!(Capsule::new(seg(v(-1.0, 0.5, 0.5), v(2.0, 0.5, 0.5)), 0.0).intersects_aabb(&b));
    assert!(Capsule::new(seg(v(-1.0, 3.0, 0.5), v(2.0, 3.0, 0.5)), 2.0).intersects_aabb(&b));
    assert!(!Capsule::new(seg(v(-1.0, 3.0, 0.5), v(2.0, 3.0, 0.5)), 1.99).intersects_aabb(&b));
    // Along the edge direction z at (4, 5): distance 5 to the edge x = 1, y = 1.
    assert!(Capsule::new(seg(v(4.0, 5.0, -3.0), v(4.0, 5.0, 3.0)), 5.0).intersects_aabb(&b));
    assert!(!Capsule::new(seg(v(4.0, 5.0, -3.0), v(4.0, 5.0, 3.0)), 4.99).intersects_aabb(&b));
    // Fully inside, and a zero-length axis.
    assert!(Capsule::new(seg(v(0.2, 0.2, 0.2), v(0.8, 0.7, 0.6)), 0.0).intersects_aabb(&b));
    assert!(Capsule::new(seg(v(0.5, 0.5, 3.0), v(0.5, 0.5, 3.0)), 2.0).intersects_aabb(&b));
    assert!(!Capsule::new(seg(v(0.5, 0.5, 3.0), v(0.5, 0.5, 3.0)), 1.99).intersects_aabb(&b));
    assert!(!Capsule::new(seg(v(f32::NAN, 0.5, 0.5), v(0.5, 0.5, 0.5)), 1.0).intersects_aabb(&b));
    assert!(!Capsule::new(seg(v(0.5, 0.5, 0.5), v(0.5, f32::NAN, 0.5)), 1.0).intersects_aabb(&b));
}

/// `Shape::intersects` dispatches every pair of kinds, in both orders, to the same answer.
#[test]
fn shape_intersects_dispatch_symmetric() {
    let shapes = [
        Shape::Aabb(unit_box()),
        Shape::Aabb(Aabb::new(v(3.0, 0.0, 0.0), v(4.0, 1.0, 1.0))),
        Shape::Sphere(Sphere::new(v(1.5, 0.5, 0.5), 0.5)),
        Shape::Sphere(Sphere::new(v(0.5, 0.5, 5.0), 1.0)),
        Shape::Capsule(Capsule::new(seg(v(2.0, 0.5, 0.5), v(3.5, 0.5, 0.5)), 0.25)),
        Shape::Capsule(Capsule::new(seg(v(0.0, 0.5, 3.0), v(0.0, 0.5, 4.0)), 0.5)),
    ];
    let expected = [
        [true, false, true, false, false, false],
        [false, true, false, false, true, false],
        [true, false, true, false, true, false],
        [false, false, false, true, false, true],
        [false, true, true, false, true, false],
        [false, false, false, true, false, true],
    ];
    for (i, a) in shapes.iter().enumerate() {
        for (j, b) in shapes.iter().enumerate() {
            assert_eq!(a.intersects(b), expected[i][j], "shapes {i} and {j}");
        }
    }
}

// ---------------------------------------------------------------------------
// Push-out (the book's FixCollisions)
// ---------------------------------------------------------------------------

/// `push_out` takes the smallest of the six axis moves and actually separates the boxes (to touching).
#[test]
fn push_out_smallest_move() {
    let player = Aabb::new(v(0.0, 0.0, 0.0), v(1.0, 2.0, 1.0));
    let wall = Aabb::new(v(0.75, -5.0, -5.0), v(1.75, 5.0, 5.0));
    let push = player.push_out(&wall).unwrap();
    assert_eq!(push, v(-0.25, 0.0, 0.0));
    let moved = Aabb::new(player.min + push, player.max + push);
    assert_eq!(moved.max.x, wall.min.x);
    // Floor below: pushed up.
    let floor = Aabb::new(v(-10.0, -1.0, -10.0), v(10.0, 0.5, 10.0));
    assert_eq!(player.push_out(&floor), Some(v(0.0, 0.5, 0.0)));
    // Ceiling above along z.
    let slab = Aabb::new(v(-10.0, -10.0, 0.875), v(10.0, 10.0, 3.0));
    assert_eq!(player.push_out(&slab), Some(v(0.0, 0.0, -0.125)));
}

/// `push_out` tie rules as in the book: within an axis the negative move wins a tie, across axes x then y then z.
#[test]
fn push_out_tie_rules() {
    // Centred inside a wider box on x: |to_positive| == |to_negative| on x, the negative one wins.
    let player = Aabb::new(v(-1.0, -1.0, -1.0), v(1.0, 1.0, 1.0));
    let wall = Aabb::new(v(-2.0, -10.0, -10.0), v(2.0, 10.0, 10.0));
    assert_eq!(player.push_out(&wall), Some(v(-3.0, 0.0, 0.0)));
    // Equal overlaps on every axis: x wins.
    let corner = Aabb::new(v(0.5, 0.5, 0.5), v(3.0, 3.0, 3.0));
    assert_eq!(player.push_out(&corner), Some(v(-0.5, 0.0, 0.0)));
    // Equal on y and z, larger on x: y wins.
    let yz = Aabb::new(v(-0.5, 0.5, 0.5), v(3.0, 3.0, 3.0));
    assert_eq!(player.push_out(&yz), Some(v(0.0, -0.5, 0.0)));
    // Touching boxes get a zero push; apart and NaN give None.
    let touching = Aabb::new(v(1.0, -1.0, -1.0), v(2.0, 1.0, 1.0));
    let push = player.push_out(&touching).unwrap();
    assert_eq!(push.length(), 0.0);
    assert_eq!(player.push_out(&Aabb::new(v(5.0, 5.0, 5.0), v(6.0, 6.0, 6.0))), None);
    assert_eq!(player.push_out(&Aabb::new(v(f32::NAN, -1.0, -1.0), Vec3::ONE)), None);
}

/// Random overlapping boxes: `push_out` agrees with a transliteration of the book's FixCollisions and separates them.
#[test]
fn push_out_matches_book_fix_collisions() {
    let mut rng = seeded(0x5EED_0006);
    let grid = |rng: &mut TestRng| (rng.next_u64() % 17) as f32 * 0.5 - 4.0;
    for _ in 0..5000 {
        let a_min = v(grid(&mut rng), grid(&mut rng), grid(&mut rng));
        let a = Aabb::new(
            a_min,
            a_min + v(grid(&mut rng) + 4.0, grid(&mut rng) + 4.0, grid(&mut rng) + 4.0),
        );
        let b_min = v(grid(&mut rng), grid(&mut rng), grid(&mut rng));
        let b = Aabb::new(
            b_min,
            b_min + v(grid(&mut rng) + 4.0, grid(&mut rng) + 4.0, grid(&mut rng) + 4.0),
        );
        let push = a.push_out(&b);
        assert_eq!(push.is_some(), a.intersects_aabb(&b));
        let Some(push) = push else { continue };
        // The book: dx1 = wall.max − player.min, dx2 = wall.min − player.max,
        // dx = |dx1| < |dx2| ? dx1 : dx2; move on x if |dx| <= |dy| and |dx| <= |dz|,
        // else on y if |dy| <= |dx| and |dy| <= |dz|, else on z.
        let d: Vec<f32> = (0..3)
            .map(|i| {
                let (d1, d2) = (b.max[i] - a.min[i], b.min[i] - a.max[i]);
                if d1.abs() < d2.abs() {
                    d1
                } else {
                    d2
                }
            })
            .collect();
        let book = if d[0].abs() <= d[1].abs() && d[0].abs() <= d[2].abs() {
            v(d[0], 0.0, 0.0)
        } else if d[1].abs() <= d[0].abs() && d[1].abs() <= d[2].abs() {
            v(0.0, d[1], 0.0)
        } else {
            v(0.0, 0.0, d[2])
        };
        assert_eq!(push, book, "{a:?} {b:?}");
        // After the move the boxes at most touch.
        let moved = Aabb::new(a.min + push, a.max + push);
        let overlap = (moved.max.min(b.max) - moved.min.max(b.min)).min_element();
        assert!(overlap <= 0.0, "{a:?} {b:?} still overlap by {overlap}");
    }
}

/// Moving `b` by a little more than `depth·normal` separates the shapes, and
/// by a little less does not: the contact is a minimum translation.
#[track_caller]
fn assert_separates<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B, c: &Contact) {
    let slack = 1e-3 * (a.bounding_radius() + b.bounding_radius());
    let moved = Transformed::new(b, Pose::from_translation(c.normal * (c.depth + slack)));
    assert!(!intersects(a, &moved), "moving by the contact does not separate: {c:?}");
    if c.depth > 2.0 * slack {
        let short = Transformed::new(b, Pose::from_translation(c.normal * (c.depth - slack)));
        assert!(intersects(a, &short), "the contact is longer than needed: {c:?}");
    }
}

#[test]
fn intersects_matches_distance_on_random_pairs() {
    let mut rng = seeded(21);
    let shapes = all_shapes();
    for _ in 0..400 {
        let i = (rng.next_u64() % shapes.len() as u64) as usize;
        let j = (rng.next_u64() % shapes.len() as u64) as usize;
        let b = Transformed::new(&shapes[j], Pose::new(rng.rotation(), rng.vec(-1.5, 1.5)));
        let a = &shapes[i];
        let d = distance(a, &b);
        assert_finite_distance(&d);
        let hit = intersects(a, &b);
        if d.distance > 1e-4 {
            assert!(!hit, "{a:?} {b:?} {d:?}");
        } else if d.distance == 0.0 {
            assert!(hit, "{a:?} {b:?} {d:?}");
        }
        // The closest points are on the shapes: their separation is the distance.
        if let Some(n) = d.normal {
            assert_close((d.point_b - d.point_a).length(), d.distance, 1e-4);
            assert!((d.point_b - d.point_a).dot(n) >= 0.0);
        }
    }
}

// ---------------------------------------------------------------------------
// Contact: closed forms, SAT, EPA
// ---------------------------------------------------------------------------

#[test]
fn closed_form_contacts() {
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let c = a.contact_sphere(&Sphere::new(v(0.0, 1.5, 0.0), 1.0)).unwrap();
    assert_eq!(
        (c.depth, c.normal, c.point_a, c.point_b),
        (0.5, Vec3::Y, Vec3::Y, v(0.0, 0.5, 0.0))
    );
    assert!(a.contact_sphere(&Sphere::new(v(0.0, 2.5, 0.0), 1.0)).is_none());
    // Concentric: the documented fallback normal, full depth.
    let c = a.contact_sphere(&Sphere::new(Vec3::ZERO, 0.5)).unwrap();
    assert_eq!((c.depth, c.normal), (1.5, Vec3::X));

    let capsule = Capsule::new(seg(v(0.0, -2.0, 0.0), v(0.0, 2.0, 0.0)), 0.5);
    let c = Sphere::new(v(1.0, 1.0, 0.0), 1.0).contact_capsule(&capsule).unwrap();
    assert_eq!((c.depth, c.normal), (0.5, Vec3::NEG_X));
    assert_eq!(
        capsule
            .contact_sphere(&Sphere::new(v(1.0, 1.0, 0.0), 1.0))
            .unwrap()
            .normal,
        Vec3::X
    );
    // Centre on the axis: a normal perpendicular to it.
    let c = Sphere::new(Vec3::ZERO, 0.1).contact_capsule(&capsule).unwrap();
    assert_close(c.depth, 0.6, 1e-6);
    assert_close(c.normal.dot(Vec3::Y), 0.0, 1e-6);

    // Capsules with crossing axes: normal perpendicular to both, towards b.
    let a = Capsule::new(seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0)), 0.5);
    let b = Capsule::new(seg(v(0.0, 0.1, -1.0), v(0.0, -0.1, 1.0)), 0.5);
    let c = a.contact_capsule(&b).unwrap();
    assert_close(c.depth, 1.0, 1e-6);
    assert_close(c.normal.dot(Vec3::X), 0.0, 1e-6);
    // Parallel capsules side by side.
    let b = Capsule::new(seg(v(-1.0, 0.8, 0.0), v(1.0, 0.8, 0.0)), 0.5);
    let c = a.contact_capsule(&b).unwrap();
    assert_close(c.depth, 0.2, 1e-6);
    assert_eq!(c.normal, Vec3::Y);

    // Sphere against boxes, outside, inside, and rotated.
    let b = Aabb::new(Vec3::splat(-1.0), Vec3::ONE);
    let c = Sphere::new(v(1.5, 0.0, 0.0), 1.0).contact_aabb(&b).unwrap();
    assert_eq!(
        (c.depth, c.normal, c.point_a, c.point_b),
        (0.5, Vec3::NEG_X, v(0.5, 0.0, 0.0), v(1.0, 0.0, 0.0))
    );
    let c = Sphere::new(v(0.0, 0.0, -0.9), 0.2).contact_aabb(&b).unwrap();
    assert_close(c.depth, 0.3, 1e-6);
    assert_eq!(c.normal, Vec3::Z);
    assert_vec_close(c.point_b, v(0.0, 0.0, -1.0), 1e-6);
    let obb = Obb::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    let c = Sphere::new(v(2.0, 0.0, 0.0), 1.0).contact_obb(&obb).unwrap();
    assert_close(c.depth, SQRT_2 - 1.0, 1e-6);
    assert_vec_close(c.normal, Vec3::NEG_X, 1e-6);
    assert_vec_close(c.point_b, v(SQRT_2, 0.0, 0.0), 1e-6);
}

#[test]
fn sat_box_contacts_face_and_edge() {
    let a = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
    // Face: b's corner pokes into a's top face.
    let b = Obb::new(v(0.0, 2.3, 0.0), Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    let c = a.contact_obb(&b).unwrap();
    assert_close(c.depth, 1.0 + SQRT_2 - 2.3, 1e-6);
    assert_eq!(c.normal, Vec3::Y);
    // b's lowest edge runs along z, all of it deepest: the contact is its
    // middle, and that point's projection on a's top face.
    assert_vec_close(c.point_b, v(0.0, 2.3 - SQRT_2, 0.0), 1e-5);
    assert_vec_close(c.point_a, v(0.0, 1.0, 0.0), 1e-5);

    // Edge–edge: a turned about y (ridge along y on top), b turned about x
    // (ridge along x underneath): the least overlap is along z.
    let a = Obb::new(Vec3::ZERO, Quat::from_rotation_y(FRAC_PI_4), Vec3::ONE);
    let b = Obb::new(v(0.0, 0.0, 2.7), Quat::from_rotation_x(FRAC_PI_4), Vec3::ONE);
    let c = a.contact_obb(&b).unwrap();
    assert_close(c.depth, 2.0 * SQRT_2 - 2.7, 1e-5);
    assert_vec_close(c.normal, Vec3::Z, 1e-6);
    assert_vec_close(c.point_a, v(0.0, 0.0, SQRT_2), 1e-5);
    assert_vec_close(c.point_b, v(0.0, 0.0, 2.7 - SQRT_2), 1e-5);
    // EPA agrees.
    let e = contact(&a, &b).unwrap();
    assert_close(e.depth, c.depth, 1e-5);
    assert_vec_close(e.normal, c.normal, 1e-4);

    // Apart, and touching.
    assert!(a
        .contact_obb(&Obb::new(v(0.0, 0.0, 2.9), Quat::from_rotation_x(FRAC_PI_4), Vec3::ONE))
        .is_none());
    let aabb = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let c = aabb
        .contact_aabb(&Aabb::new(v(1.0, 0.0, 0.0), v(2.0, 1.0, 1.0)))
        .unwrap();
    assert_eq!((c.depth, c.normal), (0.0, Vec3::X));
    assert!(aabb
        .contact_aabb(&Aabb::new(v(1.01, 0.0, 0.0), v(2.0, 1.0, 1.0)))
        .is_none());
    // Aligned boxes: parallel edges everywhere, the face axis of least overlap.
    let c = aabb
        .contact_aabb(&Aabb::new(v(0.2, 0.9, 0.1), v(0.8, 2.0, 0.7)))
        .unwrap();
    assert_close(c.depth, 0.1, 1e-6);
    assert_eq!(c.normal, Vec3::Y);
    assert!(a.intersects_obb(&b));
}

#[test]
fn sat_agrees_with_epa_on_random_boxes() {
    let mut rng = seeded(5);
    let mut compared = 0;
    for _ in 0..300 {
        let a = Obb::new(
            rng.vec(-0.5, 0.5),
            rng.rotation(),
            v(rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0)),
        );
        let b = Obb::new(
            rng.vec(-1.5, 1.5),
            rng.rotation(),
            v(rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0)),
        );
        let sat = a.contact_obb(&b);
        let epa = contact(&a, &b);
        match (sat, epa) {
            (Some(s), Some(e)) => {
                compared += 1;
                assert_finite_contact(&s);
                assert_finite_contact(&e);
                assert_close(s.depth, e.depth, 1e-4);
                if s.depth > 1e-3 {
                    assert!(s.normal.dot(e.normal) > 0.999, "{s:?} {e:?}");
                }
                assert_vec_close(s.point_a - s.point_b, s.normal * s.depth, 1e-4);
            }
            (None, None) => {}
            (s, e) => {
                let depth = s.or(e).unwrap().depth;
                assert!(depth < 1e-5, "{a:?} {b:?}: {s:?} vs {e:?}");
            }
        }
    }
    assert!(compared > 50);
}

#[test]
fn epa_contacts_of_simple_configurations() {
    // A cylinder standing 0.25 deep in a floor.
    let floor = Aabb::new(v(-5.0, -1.0, -5.0), v(5.0, 0.0, 5.0));
    let can = Cylinder::new(seg(v(0.0, -0.25, 0.0), v(0.0, 1.75, 0.0)), 0.5);
    let c = contact(&floor, &can).unwrap();
    assert_close(c.depth, 0.25, 1e-5);
    assert_vec_close(c.normal, Vec3::Y, 1e-5);
    assert_finite_contact(&c);

    // A cone's apex pushed into a box from below.
    let cone = Cone::new(v(0.0, -2.0, 0.0), v(0.0, 0.1, 0.0), 1.0);
    let lid = Aabb::new(v(-3.0, 0.0, -3.0), v(3.0, 1.0, 3.0));
    let c = contact(&cone, &lid).unwrap();
    assert_close(c.depth, 0.1, 1e-5);
    assert_vec_close(c.normal, Vec3::Y, 1e-4);
    assert_vec_close(c.point_a, v(0.0, 0.1, 0.0), 1e-4);

    // Hull against hull: two unit cubes overlapping by 0.3 along x.
    let a = cube_hull(Vec3::ZERO, Vec3::ONE);
    let b = cube_hull(v(0.7, 0.1, 0.2), v(1.7, 1.1, 1.2));
    let c = contact(&a, &b).unwrap();
    assert_close(c.depth, 0.3, 1e-5);
    assert_vec_close(c.normal, Vec3::X, 1e-5);
    assert_vec_close(c.point_a - c.point_b, c.normal * c.depth, 1e-5);

    // Rounded against sharp: margins are added to the core penetration.
    let capsule = Capsule::new(seg(v(-1.0, 0.2, 0.5), v(1.0, 0.2, 0.5)), 0.5);
    let c = contact(&capsule, &Aabb::new(v(-2.0, -2.0, -2.0), v(2.0, 0.0, 2.0))).unwrap();
    assert_close(c.depth, 0.3, 1e-5);
    assert_vec_close(c.normal, Vec3::NEG_Y, 1e-5);
    let c = contact(&Sphere::new(v(0.2, 0.3, 0.4), 0.1), &a).unwrap(); // core inside
    assert_close(c.depth, 0.3, 1e-5);
    assert_vec_close(c.normal, Vec3::X, 1e-5);

    // Apart: none.
    assert!(contact(&a, &cube_hull(v(1.1, 0.0, 0.0), v(2.0, 1.0, 1.0))).is_none());
}

#[test]
fn convex_shape_dispatch_matches_generic_queries() {
    let shapes = all_shapes();
    let mut rng = seeded(9);
    for _ in 0..300 {
        let i = (rng.next_u64() % shapes.len() as u64) as usize;
        let j = (rng.next_u64() % shapes.len() as u64) as usize;
        let a = &shapes[i];
        let b = match &shapes[j] {
            Shape::Sphere(s) => Shape::Sphere(Sphere::new(s.center + rng.vec(-1.0, 1.0), s.radius)),
            Shape::Aabb(b) => {
                let d = rng.vec(-1.0, 1.0);
                Shape::Aabb(Aabb::new(b.min + d, b.max + d))
            }
            Shape::Obb(b) => Shape::Obb(Obb::new(b.center + rng.vec(-1.0, 1.0), rng.rotation(), b.half_extents)),
            Shape::Capsule(c) => {
                let d = rng.vec(-1.0, 1.0);
                Shape::Capsule(Capsule::new(seg(c.segment.start + d, c.segment.end), c.radius))
            }
            Shape::Triangle(t) => {
                let d = rng.vec(-1.0, 1.0);
                Shape::Triangle(Triangle::new(t.a + d, t.b + d, t.c))
            }
            Shape::Cylinder(c) => {
                let d = rng.vec(-1.0, 1.0);
                Shape::Cylinder(Cylinder::new(seg(c.segment.start + d, c.segment.end), c.radius))
            }
            Shape::Cone(c) => {
                let d = rng.vec(-1.0, 1.0);
                Shape::Cone(Cone::new(c.base_center + d, c.apex, c.radius))
            }
            hull => hull.clone(),
        };
        let fast = a.contact(&b);
        let generic = contact(a, &b);
        match (fast, generic) {
            (Some(f), Some(g)) => {
                assert_finite_contact(&f);
                assert_close(f.depth, g.depth, 2e-4);
                // Normals may differ where the minimum translation is not
                // unique (crossing capsule axes: either side of their plane).
                assert_separates(a, &b, &f);
                assert_separates(a, &b, &g);
            }
            (None, None) => {}
            (f, g) => assert!(f.or(g).unwrap().depth < 1e-5, "{a:?} {b:?} {f:?} {g:?}"),
        }
        assert_eq!(a.intersects(&b), intersects(a, &b));
    }
}

#[test]
fn obb_against_a_plane() {
    let ground = Plane::from_normal_and_point(Vec3::Y, Vec3::ZERO).unwrap();
    let level = Obb::new(v(0.0, 0.5, 0.0), Quat::IDENTITY, Vec3::ONE);
    assert!(level.intersects_plane(&ground));
    assert_eq!(level.push_out_plane(&ground), Some(0.5));
    // Centre behind: pushed further behind.
    let below = Obb::new(v(0.0, -0.25, 0.0), Quat::IDENTITY, Vec3::ONE);
    assert_eq!(below.push_out_plane(&ground), Some(-0.75));
    // Turned 45°: the projected radius is √2.
    let turned = Obb::new(v(3.0, 1.0, 0.0), Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    assert_close(turned.projected_radius(Vec3::Y), SQRT_2, 1e-6);
    assert_close(turned.push_out_plane(&ground).unwrap(), SQRT_2 - 1.0, 1e-6);
    let apart = Obb::new(v(0.0, 1.5, 0.0), Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    assert!(!apart.intersects_plane(&ground)); // lowest corner at 1.5 − √2
    let apart = Obb::new(v(0.0, 1.5, 0.0), Quat::IDENTITY, Vec3::ONE);
    assert!(!apart.intersects_plane(&ground));
    assert_eq!(apart.push_out_plane(&ground), None);
    // Touching exactly: zero push.
    let touching = Obb::new(v(0.0, 1.0, 0.0), Quat::IDENTITY, Vec3::ONE);
    assert_eq!(touching.push_out_plane(&ground), Some(0.0));
    // A tilted plane, and the same answers for an Aabb.
    let tilted = Plane::from_normal_and_point(v(1.0, 1.0, 0.0), Vec3::ZERO).unwrap();
    let cube = Aabb::new(Vec3::splat(-1.0), Vec3::ONE);
    assert_close(cube.push_out_plane(&tilted).unwrap(), SQRT_2, 1e-6);
    assert!(cube.intersects_plane(&tilted));
    // Push-out then test: touching, not crossing.
    let pushed = Obb::new(level.center + ground.normal * 0.5, level.rotation, level.half_extents);
    assert_close(pushed.push_out_plane(&ground).unwrap(), 0.0, 1e-6);
}

/// Sphere–AABB on top of it: the book reports a sphere far below the box as overlapping.
#[test]
fn sphere_aabb_uses_y_for_z() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let far_below = Sphere::new(v(0.5, 0.5, -5.0), 1.0);
    assert!(book::sphere_aabb(far_below.center, far_below.radius, b.min, b.max));
    assert!(!far_below.intersects_aabb(&b));
    assert!(!Shape::Sphere(far_below).intersects(&Shape::Aabb(b)));
    // And the world agrees: no pair.
    let mut world = World::new();
    world.add(ColliderDesc::new(Shape::Aabb(b))).unwrap();
    world.add(ColliderDesc::new(Shape::Sphere(far_below))).unwrap();
    let mut pairs = 0;
    world.test_pairwise(|_| pairs += 1);
    world.test_sweep_and_prune(|_| pairs += 1);
    assert_eq!(pairs, 0);
}

// ---------------------------------------------------------------------------
// The book's box overlap bug (`tests/common/book.rs`)
// ---------------------------------------------------------------------------

/// AABB–AABB with NaN extents: the book's "no separating axis" form says they overlap; collide says no, and the world refuses NaN boxes.
#[test]
fn aabb_aabb_nan_overlaps() {
    let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let nan = Aabb::new(v(f32::NAN, 50.0, 50.0), v(f32::NAN, 60.0, 60.0));
    let nan_far = Aabb::new(v(f32::NAN, f32::NAN, f32::NAN), v(f32::NAN, f32::NAN, f32::NAN));
    assert!(book::aabb_aabb(a.min, a.max, nan_far.min, nan_far.max));
    assert!(!a.intersects_aabb(&nan_far) && !nan_far.intersects_aabb(&a));
    assert!(!a.intersects_aabb(&nan) && !nan.intersects_aabb(&a));
    assert!(!a.intersects_aabb(&Aabb::new(v(0.5, 0.5, f32::NAN), Vec3::ONE)));
    let mut world = World::new();
    assert!(matches!(
        world.add(ColliderDesc::new(Shape::Aabb(nan_far))),
        Err(Error::NonFinite(_))
    ));
    assert!(world.is_empty());
}

/// The sphere–triangle closed form against an `f64` brute force: the
/// triangle's closest point to the centre by a refined grid search
/// ([`closest_point_of_triangle_by_search`]), the depth
/// `r − |q − c|`, the normal along `q − c`, on random pairs including
/// centres near edges and corners, and the same answer through `Shape`.
#[test]
fn sphere_triangle_contact_matches_the_closest_point_of_the_triangle() {
    let mut rng = seeded(77);
    let mut touching = 0;
    for _ in 0..3000 {
        let tri = Triangle::new(rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0));
        let sphere = Sphere::new(rng.vec(-2.5, 2.5), rng.range(0.05, 1.5));
        let got = sphere.contact_triangle(&tri);
        let through_shape = Shape::Sphere(sphere).contact(&Shape::Triangle(tri));
        assert_eq!(got, through_shape, "Shape::contact dispatches to the closed form");
        let centre = sphere.center.as_dvec3();
        let closest = closest_point_of_triangle_by_search(&tri, centre);
        let bd = (closest - centre).length();
        let depth = f64::from(sphere.radius) - bd;
        match got {
            Some(contact) => {
                assert!(depth >= -1e-5, "a contact, but the sphere is {} away", -depth);
                assert!(
                    (f64::from(contact.depth) - depth).abs() <= 1e-5,
                    "depth {} vs {depth}",
                    contact.depth
                );
                assert!((contact.normal.length() - 1.0).abs() <= 1e-6);
                if bd > 1e-3 {
                    let want = (closest - centre) / bd;
                    assert!(
                        (contact.normal.as_dvec3() - want).length() <= 1e-3,
                        "normal {:?} vs {want:?}",
                        contact.normal
                    );
                }
                touching += 1;
            }
            None => assert!(
                depth <= 1e-5,
                "no contact, but the sphere reaches {depth} into the triangle"
            ),
        }
    }
    assert!(touching > 300, "only {touching} contacts: the draw tests little");
}

// ---------------------------------------------------------------------------
// Polyhedra: the separating-axis test against GJK and EPA
// ---------------------------------------------------------------------------

/// A random polyhedron of size about `size` at `at`: a hull of 4 to 40
/// points, thin one time in four, or an oriented or axis-aligned box.
fn random_polyhedron(rng: &mut TestRng, at: Vec3, size: f32) -> Shape {
    match rng.below(4) {
        0 => Shape::Obb(Obb::new(at, rng.rotation(), rng.vec(0.05 * size, size))),
        1 => {
            let half = rng.vec(0.05 * size, size);
            Shape::Aabb(Aabb::new(at - half, at + half))
        }
        _ => {
            let squash = if rng.below(4) == 0 {
                Vec3::new(1.0, 0.02, 1.0)
            } else {
                Vec3::ONE
            };
            let turn = rng.rotation();
            let count = 4 + rng.below(37) as usize;
            let points: Vec<Vec3> = (0..count)
                .map(|_| at + turn * (rng.vec(-size, size) * squash))
                .collect();
            match collide::shape::ConvexHull::from_points(&points) {
                Ok(hull) => Shape::Hull(std::sync::Arc::new(hull)),
                Err(_) => Shape::Obb(Obb::new(at, turn, Vec3::splat(size))),
            }
        }
    }
}

/// Hull–hull and hull–box contacts (the separating-axis test over face
/// normals and the edge pairs whose arcs cross on the Gauss map) agree with
/// GJK and EPA on the same support mappings: the same pairs touch, the
/// depth is the least over directions (never deeper than EPA's but for the
/// faces' preference over edges within 1e-5 of the size, and within EPA's
/// tolerance of it), and the points are certified on the shapes and
/// `depth·normal` apart; tolerances relative to the size, and to the
/// rounding of coordinates 1e5 away.
#[test]
fn polyhedra_contacts_agree_with_gjk_and_epa() {
    let mut rng = seeded(2718);
    let (mut overlapping, mut apart) = (0, 0);
    for n in 0..6000 {
        let offset = if n % 4 == 0 { rng.vec(-1e5, 1e5) } else { Vec3::ZERO };
        let a = random_polyhedron(&mut rng, offset, 1.0);
        let (near, size) = (offset + rng.vec(-1.5, 1.5), rng.range(0.2, 1.0));
        let mut b = random_polyhedron(&mut rng, near, size);
        if !matches!((&a, &b), (Shape::Hull(_), _) | (_, Shape::Hull(_))) {
            b = random_polyhedron(&mut rng, near, 1.0);
            if !matches!((&a, &b), (Shape::Hull(_), _) | (_, Shape::Hull(_))) {
                continue;
            }
        }
        // Relative to the shapes' size, and the rounding of coordinates at
        // the offset; faces win over edges within 1e-5 of the size, so the
        // depth may exceed EPA's by that.
        let size = f64::from(a.bounding_radius() + b.bounding_radius());
        let tol = 2e-5 * size + 4.0 * f64::from(f32::EPSILON) * f64::from(offset.abs().max_element());
        let ours = a.contact(&b);
        let theirs = contact(&a, &b);
        match (ours, theirs) {
            (None, None) => apart += 1,
            (Some(c), Some(e)) => {
                overlapping += 1;
                let what = || format!("{a:?} / {b:?}: {c:?} against {e:?}");
                assert!(
                    f64::from(c.depth) <= f64::from(e.depth) + tol,
                    "deeper than EPA: {}",
                    what()
                );
                assert!(
                    f64::from(e.depth - c.depth) <= 1e-3 * size + tol,
                    "far shallower than EPA: {}",
                    what()
                );
                let (oa, ob) = (Oracle::of(&a), Oracle::of(&b));
                assert_witnesses((&oa, &ob), (c.point_a, c.point_b), c.normal, c.depth, tol, &what);
                assert!((c.normal.length() - 1.0).abs() < 1e-5, "normal not unit: {}", what());
            }
            (c, e) => {
                // Only a touch decides differently, within the tolerance.
                let depth = c.or(e).map_or(0.0, |c| c.depth);
                assert!(f64::from(depth) <= tol, "{a:?} / {b:?}: {c:?} against {e:?}");
            }
        }
    }
    assert!(
        overlapping > 1500 && apart > 500,
        "{overlapping} overlapping, {apart} apart"
    );
}
