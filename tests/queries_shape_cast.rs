//! Continuous queries with analytic answers: the time of impact of moving
//! spheres (the book's SweptSphere bugs, `tests/common/book.rs`), moving
//! spheres and capsules against lines, planes, boxes and capsules in closed
//! form, linear shape casts between every kind of shape, and the rotating
//! time of impact.

mod common;

use collide::math::{Quat, Vec3};
use collide::query::{
    distance, intersects, shape_cast, time_of_impact, RigidMotion, TimeOfImpact, ToiOptions, ToiStatus,
};
use collide::shape::{Cone, Cylinder, Pose, Transformed};
use collide::{Aabb, Capsule, Obb, Plane, Sphere};
use common::book;
use common::float::*;
use common::geometry::*;
use common::random::{seeded, Draw};
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, SQRT_2};

// ---------------------------------------------------------------------------
// Time of impact
// ---------------------------------------------------------------------------

/// When two spheres moving by `a_motion` and `b_motion` over the step
/// first touch ([`Sphere::cast_sphere`]).
fn time_of_impact_spheres(a: &Sphere, a_motion: Vec3, b: &Sphere, b_motion: Vec3) -> Option<f32> {
    a.cast_sphere(a_motion, b, b_motion).map(|toi| toi.t)
}

/// Spheres approaching head-on first touch half-way through the step.
#[test]
fn time_of_impact_first_contact() {
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(v(10.0, 0.0, 0.0), 1.0);
    assert_eq!(
        time_of_impact_spheres(&a, v(8.0, 0.0, 0.0), &b, v(-8.0, 0.0, 0.0)),
        Some(0.5)
    );
    assert_eq!(
        time_of_impact_spheres(&b, v(-8.0, 0.0, 0.0), &a, v(8.0, 0.0, 0.0)),
        Some(0.5)
    );
    // Same direction, the faster catching up.
    let t = time_of_impact_spheres(&a, v(12.0, 0.0, 0.0), &b, v(4.0, 0.0, 0.0)).unwrap();
    assert_near(t, 1.0, 1e-6);
    // Oblique: b on a line offset by 1 touches when the centres are 2 apart.
    let t = time_of_impact_spheres(&a, Vec3::ZERO, &Sphere::new(v(10.0, 1.0, 0.0), 1.0), v(-20.0, 0.0, 0.0)).unwrap();
    assert_near(t, (10.0 - 3f32.sqrt()) / 20.0, 1e-6);
}

/// Contact at exactly the end of the step (t = 1) counts.
#[test]
fn time_of_impact_at_one() {
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(v(10.0, 0.0, 0.0), 1.0);
    assert_eq!(time_of_impact_spheres(&a, v(8.0, 0.0, 0.0), &b, Vec3::ZERO), Some(1.0));
    assert_eq!(time_of_impact_spheres(&a, v(7.5, 0.0, 0.0), &b, Vec3::ZERO), None);
}

/// Spheres that already overlap or touch have t = 0, whatever their motion.
#[test]
fn time_of_impact_already_overlapping() {
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(v(1.5, 0.0, 0.0), 1.0);
    assert_eq!(time_of_impact_spheres(&a, Vec3::ZERO, &b, Vec3::ZERO), Some(0.0));
    assert_eq!(
        time_of_impact_spheres(&a, v(-5.0, 0.0, 0.0), &b, v(5.0, 0.0, 0.0)),
        Some(0.0)
    );
    let touching = Sphere::new(v(2.0, 0.0, 0.0), 1.0);
    assert_eq!(
        time_of_impact_spheres(&a, v(0.0, 3.0, 0.0), &touching, v(0.0, 3.0, 0.0)),
        Some(0.0)
    );
}

/// Equal velocities (no relative motion) and separating or passing motions never touch.
#[test]
fn time_of_impact_none() {
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(v(10.0, 0.0, 0.0), 1.0);
    assert_eq!(time_of_impact_spheres(&a, v(3.0, 1.0, 0.0), &b, v(3.0, 1.0, 0.0)), None);
    assert_eq!(time_of_impact_spheres(&a, Vec3::ZERO, &b, Vec3::ZERO), None);
    assert_eq!(
        time_of_impact_spheres(&a, v(-5.0, 0.0, 0.0), &b, v(5.0, 0.0, 0.0)),
        None
    );
    assert_eq!(time_of_impact_spheres(&a, v(20.0, 6.0, 0.0), &b, Vec3::ZERO), None);
    assert_eq!(time_of_impact_spheres(&a, v(f32::NAN, 0.0, 0.0), &b, Vec3::ZERO), None);
}

// ---------------------------------------------------------------------------
// Continuous collision: closed forms
// ---------------------------------------------------------------------------

#[test]
fn moving_sphere_against_a_line() {
    let ball = Sphere::new(v(0.0, 5.0, 0.0), 1.0);
    // Straight at it.
    let hit = ball.cast_line(v(0.0, -8.0, 0.0), Vec3::ZERO, Vec3::X).unwrap();
    assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec3::ZERO, Vec3::NEG_Y));
    // Diagonal: only the perpendicular part matters; the contact point moves along the line.
    let hit = ball.cast_line(v(4.0, -8.0, 0.0), Vec3::ZERO, Vec3::X).unwrap();
    assert_eq!((hit.t, hit.point), (0.5, v(2.0, 0.0, 0.0)));
    // Line through (0, 0, 0) along z, ball passing at distance 0.5 of it.
    let hit = Sphere::new(v(-3.0, 0.5, 0.0), 1.0)
        .cast_line(v(6.0, 0.0, 0.0), Vec3::ZERO, Vec3::Z)
        .unwrap();
    let expected_x = -(1.0f32 - 0.25).sqrt();
    assert_close(hit.t, (expected_x + 3.0) / 6.0, 1e-6);
    assert_vec_close(hit.point, Vec3::ZERO, 1e-6);
    // Already penetrating.
    let hit = Sphere::new(v(0.0, 0.5, 0.0), 1.0)
        .cast_line(v(0.0, 8.0, 0.0), Vec3::ZERO, Vec3::X)
        .unwrap();
    assert_eq!((hit.t, hit.point, hit.normal), (0.0, Vec3::ZERO, Vec3::NEG_Y));
    // Centre on the line: a normal perpendicular to it.
    let hit = Sphere::new(v(3.0, 0.0, 0.0), 1.0)
        .cast_line(Vec3::ZERO, Vec3::ZERO, Vec3::X)
        .unwrap();
    assert_eq!(hit.t, 0.0);
    assert_close(hit.normal.dot(Vec3::X), 0.0, 1e-6);
    // At rest and apart; moving parallel; moving away; too short.
    assert!(ball.cast_line(Vec3::ZERO, Vec3::ZERO, Vec3::X).is_none());
    assert!(ball.cast_line(v(100.0, 0.0, 0.0), Vec3::ZERO, Vec3::X).is_none());
    assert!(ball.cast_line(v(0.0, 8.0, 0.0), Vec3::ZERO, Vec3::X).is_none());
    assert!(ball.cast_line(v(0.0, -3.0, 0.0), Vec3::ZERO, Vec3::X).is_none());
    // A zero direction makes the line a point.
    let hit = ball.cast_line(v(0.0, -8.0, 0.0), Vec3::ZERO, Vec3::ZERO).unwrap();
    assert_eq!((hit.t, hit.point), (0.5, Vec3::ZERO));
}

#[test]
fn moving_sphere_against_plane_box_and_capsule() {
    let ground = Plane::from_normal_and_point(Vec3::Y, Vec3::ZERO).unwrap();
    let ball = Sphere::new(v(0.0, 3.0, 0.0), 1.0);
    let hit = ball.cast_plane(v(0.0, -4.0, 0.0), &ground).unwrap();
    assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec3::ZERO, Vec3::NEG_Y));
    // From below the plane: normal +Y.
    let hit = Sphere::new(v(0.0, -3.0, 0.0), 1.0)
        .cast_plane(v(0.0, 4.0, 0.0), &ground)
        .unwrap();
    assert_eq!((hit.t, hit.normal), (0.5, Vec3::Y));
    assert_eq!(
        Sphere::new(v(0.0, 0.5, 0.0), 1.0)
            .cast_plane(Vec3::ZERO, &ground)
            .unwrap()
            .t,
        0.0
    );
    assert!(ball.cast_plane(v(5.0, 0.0, 0.0), &ground).is_none());
    assert!(ball.cast_plane(v(0.0, 1.0, 0.0), &ground).is_none());

    // Box: face, edge, vertex regions, each against the generic shape cast.
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let hit = Sphere::new(v(-3.0, 0.5, 0.5), 1.0)
        .cast_aabb(v(4.0, 0.0, 0.0), &b)
        .unwrap();
    assert_close(hit.t, 0.5, 1e-6);
    assert_vec_close(hit.point, v(0.0, 0.5, 0.5), 1e-6);
    assert_vec_close(hit.normal, Vec3::X, 1e-6);
    let s = Sphere::new(v(3.0, 3.0, 3.0), 1.0);
    let hit = s.cast_aabb(v(-4.0, -4.0, -4.0), &b).unwrap();
    let expected = (2.0 * 3.0f32.sqrt() - 1.0) / (4.0 * 3.0f32.sqrt());
    assert_close(hit.t, expected, 1e-6);
    assert_vec_close(hit.point, Vec3::ONE, 1e-5);
    assert!(Sphere::new(v(0.5, 0.5, 1.5), 1.0).cast_aabb(Vec3::ZERO, &b).unwrap().t == 0.0);
    assert!(Sphere::new(v(3.0, 3.0, 3.0), 1.0)
        .cast_aabb(v(4.0, 0.0, 0.0), &b)
        .is_none());
    let mut rng = seeded(23);
    for _ in 0..500 {
        let s = Sphere::new(rng.vec(-3.0, 3.0), rng.range(0.05, 1.0));
        let motion = rng.vec(-5.0, 5.0);
        let closed = s.cast_aabb(motion, &b);
        let generic = shape_cast(&s, motion, &b, Vec3::ZERO);
        compare_casts(closed, generic, motion.length(), "sphere–box");
    }

    // Capsule, fixed and moving.
    let pole = Capsule::new(seg(Vec3::ZERO, v(0.0, 4.0, 0.0)), 0.5);
    let hit = Sphere::new(v(-4.0, 2.0, 0.0), 0.5)
        .cast_capsule(v(6.0, 0.0, 0.0), &pole, Vec3::ZERO)
        .unwrap();
    assert_eq!((hit.t, hit.point, hit.normal), (0.5, v(-0.5, 2.0, 0.0), Vec3::X));
    let hit = Sphere::new(v(-4.0, 2.0, 0.0), 0.5)
        .cast_capsule(v(3.0, 0.0, 0.0), &pole, v(-3.0, 0.0, 0.0))
        .unwrap();
    assert_eq!(hit.t, 0.5);
    assert_vec_close(hit.point, v(-2.0, 2.0, 0.0), 1e-6);
    for _ in 0..300 {
        let s = Sphere::new(rng.vec(-3.0, 3.0), rng.range(0.05, 1.0));
        let c = Capsule::new(seg(rng.vec(-1.0, 1.0), rng.vec(-1.0, 1.0)), rng.range(0.0, 0.5));
        let (ms, mc) = (rng.vec(-4.0, 4.0), rng.vec(-2.0, 2.0));
        compare_casts(
            s.cast_capsule(ms, &c, mc),
            shape_cast(&s, ms, &c, mc),
            (ms - mc).length(),
            "sphere–capsule",
        );
        let other = Sphere::new(rng.vec(-2.0, 2.0), rng.range(0.05, 1.0));
        compare_casts(
            s.cast_sphere(ms, &other, mc),
            shape_cast(&s, ms, &other, mc),
            (ms - mc).length(),
            "sphere–sphere",
        );
    }
}

/// A closed form and the GJK cast agree: the same verdict (except grazing,
/// where the contact is within 1e-4 of the path's end or the shapes' surface)
/// and the same time.
#[track_caller]
fn compare_casts(closed: Option<TimeOfImpact>, generic: Option<TimeOfImpact>, path: f32, what: &str) {
    match (closed, generic) {
        (Some(c), Some(g)) => {
            assert!((c.t - g.t).abs() * path < 2e-4, "{what}: {c:?} vs {g:?}");
            assert!(c.point.is_finite() && c.normal.is_finite());
            if c.t > 0.0 && g.t > 0.0 {
                assert!(c.normal.dot(g.normal) > 0.99, "{what}: {c:?} vs {g:?}");
                assert_vec_close(c.point, g.point, 1e-3);
            }
        }
        (None, None) => {}
        (c, g) => {
            let t = c.or(g).unwrap().t;
            assert!((1.0 - t) * path < 2e-4, "{what}: {c:?} vs {g:?}");
        }
    }
}

#[test]
fn moving_capsules_closed_form() {
    let a = Capsule::new(seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0)), 0.5);
    let b = Capsule::new(seg(v(0.0, 3.0, -1.0), v(0.0, 3.0, 1.0)), 0.5);
    let hit = a.cast_capsule(v(0.0, 4.0, 0.0), &b, Vec3::ZERO).unwrap();
    assert_eq!((hit.t, hit.point, hit.normal), (0.5, v(0.0, 2.5, 0.0), Vec3::Y));
    // Parallel capsules closing sideways, and end to end.
    let c = Capsule::new(seg(v(-1.0, 3.0, 0.0), v(1.0, 3.0, 0.0)), 0.5);
    assert_eq!(a.cast_capsule(v(0.0, 2.0, 0.0), &c, v(0.0, -2.0, 0.0)).unwrap().t, 0.5);
    let d = Capsule::new(seg(v(4.0, 0.0, 0.0), v(6.0, 0.0, 0.0)), 0.5);
    let hit = a.cast_capsule(v(4.0, 0.0, 0.0), &d, Vec3::ZERO).unwrap();
    assert_eq!((hit.t, hit.normal), (0.5, Vec3::X));
    // Overlapping at the start; missing.
    assert_eq!(a.cast_capsule(Vec3::ZERO, &a, Vec3::X).unwrap().t, 0.0);
    assert!(a.cast_capsule(v(0.0, 0.0, 4.0), &b, Vec3::ZERO).is_none());
    let mut rng = seeded(31);
    for _ in 0..600 {
        let a = Capsule::new(seg(rng.vec(-1.0, 1.0), rng.vec(-1.0, 1.0)), rng.range(0.0, 0.5));
        let b = Capsule::new(
            seg(rng.vec(-1.0, 1.0) + rng.vec(-3.0, 3.0), rng.vec(-1.0, 1.0)),
            rng.range(0.0, 0.5),
        );
        let (ma, mb) = (rng.vec(-4.0, 4.0), rng.vec(-2.0, 2.0));
        compare_casts(
            a.cast_capsule(ma, &b, mb),
            shape_cast(&a, ma, &b, mb),
            (ma - mb).length(),
            "capsule–capsule",
        );
    }
}

// ---------------------------------------------------------------------------
// Continuous collision: linear shape casts and rotating time of impact
// ---------------------------------------------------------------------------

#[test]
fn linear_shape_casts() {
    // A box dropped on a box: face contact at t = 0.5.
    let a = Aabb::new(v(0.0, 3.0, 0.0), v(1.0, 4.0, 1.0));
    let floor = Aabb::new(v(-5.0, -1.0, -5.0), v(5.0, 0.0, 5.0));
    let hit = shape_cast(&a, v(0.0, -6.0, 0.0), &floor, Vec3::ZERO).unwrap();
    assert_close(hit.t, 0.5, 1e-5);
    assert_vec_close(hit.normal, Vec3::NEG_Y, 1e-5);
    assert_close(hit.point.y, 0.0, 1e-5);
    // Both moving: the same relative motion, the same time.
    let hit = shape_cast(&a, v(0.0, -3.0, 0.0), &floor, v(0.0, 3.0, 0.0)).unwrap();
    assert_close(hit.t, 0.5, 1e-5);
    assert_close(hit.point.y, 1.5, 1e-5);
    // A cone's apex first; a turned box's edge first.
    let cone = Cone::new(v(0.0, 6.0, 0.0), v(0.0, 5.0, 0.0), 1.0);
    let hit = shape_cast(&cone, v(0.0, -10.0, 0.0), &floor, Vec3::ZERO).unwrap();
    assert_close(hit.t, 0.5, 1e-5);
    assert_vec_close(hit.point, Vec3::ZERO, 1e-4);
    let edge_down = Obb::new(v(0.0, 5.0, 0.0), Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    let hit = shape_cast(&edge_down, v(0.0, -10.0, 0.0), &floor, Vec3::ZERO).unwrap();
    assert_close(hit.t, (5.0 - SQRT_2) / 10.0, 1e-5);
    // Already overlapping: t = 0 with the contact's normal.
    let hit = shape_cast(&floor, Vec3::ZERO, &Sphere::new(v(0.0, 0.25, 0.0), 0.5), Vec3::Y).unwrap();
    assert_eq!(hit.t, 0.0);
    assert_vec_close(hit.normal, Vec3::Y, 1e-5);
    // Missing, moving apart, at rest.
    assert!(shape_cast(&a, v(10.0, 0.0, 0.0), &floor, Vec3::ZERO).is_none());
    assert!(shape_cast(&a, v(0.0, 1.0, 0.0), &floor, Vec3::ZERO).is_none());
    assert!(shape_cast(&a, Vec3::ZERO, &floor, Vec3::ZERO).is_none());
    // Hull against cylinder, checked at the time found: touching, and apart just before.
    let hull = cube_hull(v(-0.5, 4.0, -0.5), v(0.5, 5.0, 0.5));
    let cylinder = Cylinder::new(seg(v(-2.0, 0.0, 0.0), v(2.0, 0.0, 0.3)), 1.0);
    let motion = v(0.3, -6.0, 0.2);
    let hit = shape_cast(&hull, motion, &cylinder, Vec3::ZERO).unwrap();
    let at = |t: f32| Transformed::new(&hull, Pose::from_translation(motion * t));
    assert!(distance(&at(hit.t), &cylinder).distance < 1e-4);
    assert!(!intersects(&at(hit.t - 1e-3), &cylinder));
}

#[test]
fn rotating_time_of_impact() {
    let options = ToiOptions::default();
    // Pure translation: the same answer as the linear cast.
    let a = Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5));
    let b = Sphere::new(Vec3::ZERO, 0.5);
    let ma = RigidMotion::new(
        Pose::from_translation(v(-3.0, 0.0, 0.0)),
        Vec3::ZERO,
        v(4.0, 0.0, 0.0),
        Vec3::ZERO,
    );
    let mb = RigidMotion::stationary(Pose::IDENTITY);
    let hit = time_of_impact(&a, &ma, &b, &mb, &options).unwrap();
    assert_eq!(hit.status, ToiStatus::Converged);
    assert_close(hit.t, 0.5, 1e-3);
    assert_vec_close(hit.normal, Vec3::X, 1e-3);

    // A spinning plank hits a post.
    let plank = Aabb::new(v(-2.0, -0.1, -0.1), v(2.0, 0.1, 0.1));
    let post = Aabb::new(v(-0.1, -0.1, -1.0), v(0.1, 0.1, 1.0));
    let spin = RigidMotion::new(Pose::IDENTITY, Vec3::ZERO, Vec3::ZERO, v(0.0, 0.0, FRAC_PI_2));
    let still = RigidMotion::stationary(Pose::from_translation(v(0.0, 1.5, 0.0)));
    let hit = time_of_impact(&plank, &spin, &post, &still, &options).unwrap();
    assert_eq!(hit.status, ToiStatus::Converged);
    // The plank's upper face reaches the post's corner (0.1, 1.4):
    // the angle where that corner is 0.1 from the plank's axis.
    let corner = v(0.1, 1.4, 0.0);
    let angle = corner.y.atan2(corner.x) - (0.1 / corner.length()).asin();
    assert_close(hit.t, angle / FRAC_PI_2, 2e-3);
    let at_hit = Transformed::new(&plank, spin.pose_at(hit.t));
    let d = distance(&at_hit, &Transformed::new(&post, still.start)).distance;
    assert!((0.0..=3e-4).contains(&d), "{d}");
    // Turning the other way by 45°, the plank stays clear of the post (its
    // half at x < 0 rises only to 45° from the x axis, far from x = 0).
    let away = RigidMotion::new(Pose::IDENTITY, Vec3::ZERO, Vec3::ZERO, v(0.0, 0.0, -FRAC_PI_4));
    assert!(time_of_impact(&plank, &away, &post, &still, &options).is_none());
    // Penetrating at the start.
    let overlapping = RigidMotion::stationary(Pose::from_translation(v(1.0, 0.0, 0.0)));
    let hit = time_of_impact(&plank, &spin, &post, &overlapping, &options).unwrap();
    assert_eq!((hit.status, hit.t), (ToiStatus::Penetrating, 0.0));
    // The iteration cap: one step cannot converge, and says so, with a safe t.
    let capped = ToiOptions {
        max_iterations: 1,
        ..options
    };
    let hit = time_of_impact(&plank, &spin, &post, &still, &capped).unwrap();
    assert_eq!(hit.status, ToiStatus::IterationLimit);
    let at_cap = Transformed::new(&plank, spin.pose_at(hit.t));
    assert!(!intersects(&at_cap, &Transformed::new(&post, still.start)));
    // A rotation about an off-centre point, against a hull.
    let hull = cube_hull(v(2.5, -0.5, -0.5), v(3.5, 0.5, 0.5));
    let swing = RigidMotion::new(Pose::IDENTITY, v(-2.0, 0.0, 0.0), Vec3::ZERO, v(0.0, 0.0, -FRAC_PI_2));
    let bar = Aabb::new(v(-2.0, -0.1, -0.1), v(2.0, 0.1, 0.1));
    let hit = time_of_impact(&bar, &swing, &hull, &mb, &options);
    // Swinging from +x down about (−2, 0, 0): the bar's tip is at x = 2 < 2.5,
    // it never reaches the hull.
    assert!(hit.is_none(), "{hit:?}");
    let long_bar = Aabb::new(v(-2.0, -0.1, -0.1), v(3.0, 0.1, 0.1));
    let hit = time_of_impact(&long_bar, &swing, &hull, &mb, &options).unwrap();
    assert_eq!((hit.status, hit.t), (ToiStatus::Penetrating, 0.0));
}

// ---------------------------------------------------------------------------
// The book's swept sphere (`tests/common/book.rs`)
// ---------------------------------------------------------------------------

/// Swept sphere: the book accepts only t = 0 (range check against 0); collide reports contact anywhere in [0, 1].
#[test]
fn swept_sphere_accepts_only_t_zero() {
    let (a, b) = (Sphere::new(Vec3::ZERO, 1.0), Sphere::new(v(10.0, 0.0, 0.0), 1.0));
    let (a_motion, b_motion) = (v(8.0, 0.0, 0.0), v(-8.0, 0.0, 0.0));
    let book = book::swept_sphere(a.center, a.center + a_motion, 1.0, b.center, b.center + b_motion, 1.0);
    assert_eq!(book, None, "the book misses the contact at t = 0.5");
    assert_eq!(time_of_impact_spheres(&a, a_motion, &b, b_motion), Some(0.5));
    assert_eq!(time_of_impact_spheres(&a, v(8.0, 0.0, 0.0), &b, Vec3::ZERO), Some(1.0));
}

/// Swept sphere with equal velocities: the book divides 0 by 0 and misses even overlapping spheres; collide gives 0 or None.
#[test]
fn swept_sphere_equal_velocity_divides_by_zero() {
    let motion = v(3.0, -1.0, 2.0);
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let overlapping = Sphere::new(v(1.5, 0.0, 0.0), 1.0);
    let book = book::swept_sphere(
        a.center,
        a.center + motion,
        1.0,
        overlapping.center,
        overlapping.center + motion,
        1.0,
    );
    assert_eq!(book, None, "0/0 makes the book miss spheres that overlap all along");
    assert_eq!(time_of_impact_spheres(&a, motion, &overlapping, motion), Some(0.0));
    let apart = Sphere::new(v(5.0, 0.0, 0.0), 1.0);
    assert_eq!(time_of_impact_spheres(&a, motion, &apart, motion), None);
}

#[test]
fn a_linear_cast_says_whether_it_started_in_contact() {
    let floor = collide::Shape::Aabb(Aabb::new(v(-5.0, -1.0, -5.0), v(5.0, 0.0, 5.0)));
    let shapes = [
        collide::Shape::Sphere(Sphere::new(v(0.0, 2.0, 0.0), 0.5)),
        collide::Shape::Capsule(Capsule::new(seg(v(0.0, 2.0, 0.0), v(0.0, 3.0, 0.0)), 0.5)),
        collide::Shape::Cylinder(Cylinder::new(seg(v(0.0, 2.0, 0.0), v(0.0, 3.0, 0.0)), 0.5)),
        collide::Shape::Cone(Cone::new(v(0.0, 2.0, 0.0), v(0.0, 3.0, 0.0), 0.5)),
    ];
    for shape in &shapes {
        let falling = shape.cast_shape(v(0.0, -4.0, 0.0), &floor).unwrap();
        assert_eq!(falling.status, ToiStatus::Converged, "{shape:?}: {falling:?}");
        assert!(falling.t > 0.0, "{falling:?}");
        let start = collide::Shape::Aabb(Aabb::new(v(-5.0, -1.0, -5.0), v(5.0, 2.2, 5.0)));
        let inside = shape.cast_shape(v(0.0, -4.0, 0.0), &start).unwrap();
        assert_eq!(
            (inside.status, inside.t),
            (ToiStatus::Penetrating, 0.0),
            "{shape:?}: {inside:?}"
        );
    }
}
