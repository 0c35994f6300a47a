//! The squared-distance tests and the round casts at every scale of `f32`.
//!
//! `Shape::intersects` for spheres and capsules (with each other, boxes,
//! oriented boxes and triangles) and the sphere and capsule segment casts
//! compute in `f64` (findings F1, F2, F10 of RELIABILITY.md): no square of
//! a finite `f32` overflows or underflows there. Each test below builds a
//! configuration whose answer is known in closed form (distances from
//! Pythagorean triples, so touching is exact), scales it by powers of two
//! from 2⁻¹⁴⁰ (subnormal coordinates, ≈ 7e-43) through 2¹⁰⁰ (≈ 1.3e30) to
//! 2¹²⁰ (≈ 1.3e36), and checks that touching shapes touch and shapes one
//! ulp apart do not. The property tests check what the exact arithmetic
//! implies at random: every answer is the same at every power-of-two scale
//! (scaling by 2ᵉ is exact in binary floating point while nothing
//! overflows or underflows), and every one of these pair tests is symmetric
//! in its arguments, bit for bit.
//!
//! GJK, EPA and the GJK ray cast (for every pair without a closed form)
//! compute in `f32`, at unit scale: a problem beyond the sizes they run at
//! in place is moved and scaled by a power of two first. The tests at the
//! end check that they answer as at unit scale from 2⁻¹²⁰ to 2¹²⁰, and
//! across the whole `f32` range.

use collide::math::{Quat, Vec3};
use collide::query::{contact, distance, intersects, shape_cast, time_of_impact, RigidMotion, ToiOptions};
use collide::shape::Pose;
use collide::shape::{Cylinder, Triangle};
use collide::{Aabb, Capsule, CastHit, Obb, Segment, Shape, Sphere};
use proptest::prelude::*;

/// The scales of the closed-form tests: `2ᵉ` from subnormal to ≈ 1.3e36
/// (the configurations reach 16 times the scale, below `f32::MAX`).
const EXPONENTS: [i32; 9] = [-140, -126, -100, -50, 0, 50, 64, 100, 120];

/// `2ᵉ` as an `f32` (exact for `-149 <= e <= 127`; `f32::powi` would
/// form `1/2¹⁴⁰` through an overflow).
fn scale(e: i32) -> f32 {
    2f64.powi(e) as f32
}

/// The largest `f32` below a positive `x`: one ulp less.
fn below(x: f32) -> f32 {
    assert!(x > 0.0);
    f32::from_bits(x.to_bits() - 1)
}

/// The smallest `f32` above a positive `x`: one ulp more.
fn above(x: f32) -> f32 {
    assert!(x > 0.0);
    f32::from_bits(x.to_bits() + 1)
}

/// Asserts that `a` and `b` intersect, both ways round.
#[track_caller]
fn touch(a: &Shape, b: Shape, what: &str) {
    assert!(
        a.intersects(&b) && b.intersects(a),
        "{what}: {a:?} and {b:?} must touch"
    );
}

/// Asserts that `a` and `b` do not intersect, both ways round.
#[track_caller]
fn apart(a: &Shape, b: Shape, what: &str) {
    assert!(
        !a.intersects(&b) && !b.intersects(a),
        "{what}: {a:?} and {b:?} must be apart"
    );
}

/// The rotation by 120° about (1, 1, 1), `(x, y, z) ↦ (z, x, y)`: its
/// quaternion `(½, ½, ½, ½)` and its action on dyadic points are exact.
fn cycle() -> Quat {
    Quat::from_xyzw(0.5, 0.5, 0.5, 0.5)
}

#[test]
fn sphere_sphere_touching_at_5_scale_touches_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let a = Shape::Sphere(Sphere::new(Vec3::ZERO, 2.0 * k));
        let centre = Vec3::new(3.0 * k, 4.0 * k, 0.0);
        touch(&a, Shape::Sphere(Sphere::new(centre, 3.0 * k)), &format!("2^{e}"));
        apart(
            &a,
            Shape::Sphere(Sphere::new(centre, below(3.0 * k))),
            &format!("2^{e}"),
        );
        touch(
            &a,
            Shape::Sphere(Sphere::new(centre, 4.0 * k)),
            &format!("2^{e}, overlapping"),
        );
    }
}

#[test]
fn sphere_box_touching_at_a_corner_touches_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let b = Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::splat(k)));
        // The box's closest point to the centre is its edge point (k, k, k/2).
        let centre = Vec3::new(4.0 * k, 5.0 * k, 0.5 * k);
        touch(&b, Shape::Sphere(Sphere::new(centre, 5.0 * k)), &format!("2^{e}"));
        apart(
            &b,
            Shape::Sphere(Sphere::new(centre, below(5.0 * k))),
            &format!("2^{e}"),
        );
        let corner = Vec3::new(4.0 * k, 5.0 * k, k);
        touch(
            &b,
            Shape::Sphere(Sphere::new(corner, 5.0 * k)),
            &format!("2^{e}, corner"),
        );
    }
}

/// Two skew axes: `x` from −8k to 8k, and the line through (0, 3k, 4k) along
/// (0, 4, −3), whose common perpendicular is (0, 3, 4)/5: 5k apart, closest
/// at the middle of both.
fn skew_axes(k: f32) -> (Segment, Segment) {
    let a = Segment::new(Vec3::new(-8.0 * k, 0.0, 0.0), Vec3::new(8.0 * k, 0.0, 0.0));
    let b = Segment::new(Vec3::new(0.0, -5.0 * k, 10.0 * k), Vec3::new(0.0, 11.0 * k, -2.0 * k));
    (a, b)
}

#[test]
fn capsule_capsule_on_skew_axes_touches_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let (axis_a, axis_b) = skew_axes(k);
        let a = Shape::Capsule(Capsule::new(axis_a, 2.0 * k));
        touch(&a, Shape::Capsule(Capsule::new(axis_b, 3.0 * k)), &format!("2^{e}"));
        apart(
            &a,
            Shape::Capsule(Capsule::new(axis_b, below(3.0 * k))),
            &format!("2^{e}"),
        );
        // The public f32 closest points: the middles, 25k² (rounded once to
        // f32, so 0 or ∞ at the ends of the range).
        let c = axis_a.closest_points(&axis_b);
        assert_eq!((c.s, c.t), (0.5, 0.5), "2^{e}");
        assert_eq!((c.point_a, c.point_b), (Vec3::ZERO, Vec3::new(0.0, 3.0 * k, 4.0 * k)));
        assert_eq!(c.distance_squared, (25.0 * f64::from(k).powi(2)) as f32, "2^{e}");
    }
}

#[test]
fn radius_0_capsules_crossing_at_a_point_touch_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let a = Shape::Capsule(Capsule::new(
            Segment::new(Vec3::new(-3.0 * k, -k, 2.0 * k), Vec3::new(5.0 * k, 3.0 * k, -2.0 * k)),
            0.0,
        ));
        // Through (k, k, 0), the middle of `a`, in another direction.
        let b = Shape::Capsule(Capsule::new(
            Segment::new(Vec3::new(k, -7.0 * k, 4.0 * k), Vec3::new(k, 9.0 * k, -4.0 * k)),
            0.0,
        ));
        touch(&a, b, &format!("2^{e}"));
        // One end an ulp further along x: the axes miss by a tenth of an
        // ulp of k (|(ulp/2, 0, 0)·n̂| for the normal n ∥ (32, 64, 128)).
        let shifted = Shape::Capsule(Capsule::new(
            Segment::new(Vec3::new(k, -7.0 * k, 4.0 * k), Vec3::new(above(k), 9.0 * k, -4.0 * k)),
            0.0,
        ));
        apart(&a, shifted, &format!("2^{e}, an ulp off"));
    }
}

#[test]
fn capsule_sphere_touching_at_the_side_and_the_cap_touches_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let capsule = Shape::Capsule(Capsule::new(
            Segment::new(Vec3::new(-8.0 * k, 0.0, 0.0), Vec3::new(8.0 * k, 0.0, 0.0)),
            2.0 * k,
        ));
        let side = Vec3::new(k, 3.0 * k, 4.0 * k);
        touch(
            &capsule,
            Shape::Sphere(Sphere::new(side, 3.0 * k)),
            &format!("2^{e}, side"),
        );
        apart(
            &capsule,
            Shape::Sphere(Sphere::new(side, below(3.0 * k))),
            &format!("2^{e}, side"),
        );
        let cap = Vec3::new(11.0 * k, 4.0 * k, 0.0);
        touch(
            &capsule,
            Shape::Sphere(Sphere::new(cap, 3.0 * k)),
            &format!("2^{e}, cap"),
        );
        apart(
            &capsule,
            Shape::Sphere(Sphere::new(cap, below(3.0 * k))),
            &format!("2^{e}, cap"),
        );
    }
}

#[test]
fn capsule_box_touching_along_an_edge_touches_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let b = Shape::Aabb(Aabb::new(Vec3::splat(-k), Vec3::splat(k)));
        // An axis in the plane 3x + 4y = 32k, slanted through z: every
        // point of it is (32k − 7k)/5 = 5k from the half-space 3x + 4y <= 7k
        // holding the box, and its points with |z| <= k are 5k from the
        // box's edge x = y = k.
        let axis = Segment::new(
            Vec3::new(-4.0 * k, 11.0 * k, -6.0 * k),
            Vec3::new(12.0 * k, -k, 6.0 * k),
        );
        touch(&b, Shape::Capsule(Capsule::new(axis, 5.0 * k)), &format!("2^{e}"));
        apart(
            &b,
            Shape::Capsule(Capsule::new(axis, below(5.0 * k))),
            &format!("2^{e}"),
        );
    }
}

#[test]
fn oriented_box_sphere_and_capsule_touch_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let obb = Obb::new(Vec3::new(k, -2.0 * k, 3.0 * k), cycle(), Vec3::new(k, 2.0 * k, 3.0 * k));
        let world = |local: Vec3| obb.center + obb.rotation * local;
        let o = Shape::Obb(obb);
        // In the box's frame: 5k from the edge x = k, y = 2k.
        let centre = world(Vec3::new(4.0 * k, 6.0 * k, 0.0));
        touch(
            &o,
            Shape::Sphere(Sphere::new(centre, 5.0 * k)),
            &format!("2^{e}, sphere"),
        );
        apart(
            &o,
            Shape::Sphere(Sphere::new(centre, below(5.0 * k))),
            &format!("2^{e}, sphere"),
        );
        let axis = Segment::new(
            world(Vec3::new(4.0 * k, 6.0 * k, -8.0 * k)),
            world(Vec3::new(4.0 * k, 6.0 * k, 8.0 * k)),
        );
        touch(
            &o,
            Shape::Capsule(Capsule::new(axis, 5.0 * k)),
            &format!("2^{e}, capsule"),
        );
        apart(
            &o,
            Shape::Capsule(Capsule::new(axis, below(5.0 * k))),
            &format!("2^{e}, capsule"),
        );
    }
}

#[test]
fn triangle_sphere_touching_a_face_an_edge_and_a_corner_touches_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let t = Shape::Triangle(Triangle::new(
            Vec3::ZERO,
            Vec3::new(8.0 * k, 0.0, 0.0),
            Vec3::new(0.0, 8.0 * k, 0.0),
        ));
        for (centre, region) in [
            (Vec3::new(k, 2.0 * k, 5.0 * k), "face"),
            (Vec3::new(4.0 * k, -3.0 * k, 4.0 * k), "edge"),
            (Vec3::new(-3.0 * k, -4.0 * k, 0.0), "corner"),
        ] {
            touch(
                &t,
                Shape::Sphere(Sphere::new(centre, 5.0 * k)),
                &format!("2^{e}, {region}"),
            );
            apart(
                &t,
                Shape::Sphere(Sphere::new(centre, below(5.0 * k))),
                &format!("2^{e}, {region}"),
            );
        }
    }
}

/// Asserts a hit at `t` with the normal `normal` (to `f32` rounding).
#[track_caller]
fn hit_at(hit: Option<CastHit>, t: f32, normal: Vec3, what: &str) {
    let hit = hit.unwrap_or_else(|| panic!("{what}: a hit"));
    assert_eq!(hit.t, t, "{what}");
    assert!(
        (hit.normal - normal).abs().max_element() <= 1e-6,
        "{what}: normal {:?}",
        hit.normal
    );
}

#[test]
fn sphere_casts_enter_graze_and_miss_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let sphere = Sphere::new(Vec3::ZERO, 5.0 * k);
        // |m + t·d|² = 25k² with m = (−10k, 3k, 0), d = (20k, 0, 0): t = 3/10.
        let through = Segment::new(Vec3::new(-10.0 * k, 3.0 * k, 0.0), Vec3::new(10.0 * k, 3.0 * k, 0.0));
        hit_at(
            through.cast_sphere(&sphere),
            0.3,
            Vec3::new(-0.8, 0.6, 0.0),
            &format!("2^{e}"),
        );
        let grazing = Segment::new(Vec3::new(-10.0 * k, 5.0 * k, 0.0), Vec3::new(10.0 * k, 5.0 * k, 0.0));
        hit_at(grazing.cast_sphere(&sphere), 0.5, Vec3::Y, &format!("2^{e}, grazing"));
        let missing = Segment::new(
            Vec3::new(-10.0 * k, above(5.0 * k), 0.0),
            Vec3::new(10.0 * k, above(5.0 * k), 0.0),
        );
        assert_eq!(missing.cast_sphere(&sphere), None, "2^{e}: an ulp beyond");
        let on_surface = Segment::new(Vec3::new(3.0 * k, 4.0 * k, 0.0), Vec3::new(10.0 * k, 4.0 * k, 0.0));
        hit_at(
            on_surface.cast_sphere(&sphere),
            0.0,
            Vec3::NEG_X,
            &format!("2^{e}, starts on it"),
        );
    }
}

#[test]
fn capsule_casts_enter_the_side_and_the_cap_at_every_scale() {
    for e in EXPONENTS {
        let k = scale(e);
        let capsule = Capsule::new(
            Segment::new(Vec3::new(0.0, -8.0 * k, 0.0), Vec3::new(0.0, 8.0 * k, 0.0)),
            5.0 * k,
        );
        let side = Segment::new(Vec3::new(-10.0 * k, k, 3.0 * k), Vec3::new(10.0 * k, k, 3.0 * k));
        hit_at(
            side.cast_capsule(&capsule),
            0.3,
            Vec3::new(-0.8, 0.0, 0.6),
            &format!("2^{e}, side"),
        );
        let cap = Segment::new(Vec3::new(3.0 * k, 20.0 * k, 0.0), Vec3::new(3.0 * k, -20.0 * k, 0.0));
        hit_at(
            cap.cast_capsule(&capsule),
            0.2,
            Vec3::new(0.6, 0.8, 0.0),
            &format!("2^{e}, cap"),
        );
        let missing = Segment::new(
            Vec3::new(-10.0 * k, k, above(5.0 * k)),
            Vec3::new(10.0 * k, k, above(5.0 * k)),
        );
        assert_eq!(missing.cast_capsule(&capsule), None, "2^{e}: an ulp beyond");
    }
}

// ---------------------------------------------------------------------------
// GJK, EPA and the GJK ray cast at every scale.

/// The scales of the GJK tests: `2ᵉ` beyond the sizes GJK runs at in place
/// (`2⁻¹⁶` to `2³²`), both ways.
const GJK_EXPONENTS: [i32; 8] = [-120, -100, -64, -40, 40, 64, 100, 120];

/// Asserts `|got − want| <= 1e-5·size`.
#[track_caller]
fn near(got: Vec3, want: Vec3, size: f32, what: &str) {
    assert!(
        (got - want).abs().max_element() <= 1e-5 * size,
        "{what}: {got:?}, at unit scale {want:?}"
    );
}

/// An oriented box (turned 0.3 rad about z; reaching 1.55 along x), a box
/// beyond it, one crossing it, and a cylinder, at the scale `k`.
fn gjk_scene(k: f32) -> (Obb, Aabb, Aabb, Cylinder) {
    (
        Obb::new(Vec3::ZERO, Quat::from_rotation_z(0.3), Vec3::new(1.0, 2.0, 3.0) * k),
        Aabb::new(Vec3::new(5.0, -1.0, -1.0) * k, Vec3::new(6.0, 1.0, 1.0) * k),
        Aabb::new(Vec3::new(1.0, -1.0, -1.0) * k, Vec3::new(6.0, 1.0, 1.0) * k),
        Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y * k), k),
    )
}

#[test]
fn gjk_queries_answer_as_at_unit_scale_at_every_scale() {
    let (obb, beyond, crossing, cylinder) = gjk_scene(1.0);
    let apart = distance(&obb, &beyond);
    let overlap = contact(&obb, &crossing).expect("the crossing box overlaps");
    let swept = shape_cast(&obb, Vec3::new(10.0, 0.0, 0.0), &beyond, Vec3::ZERO).expect("the swept box hits");
    let ray = Segment::new(Vec3::new(-3.0, 0.5, 0.0), Vec3::new(3.0, 0.5, 0.0));
    let shot = ray.cast_convex(&cylinder).expect("the segment hits the cylinder");
    assert!((shot.t - 1.0 / 3.0).abs() < 1e-6, "{shot:?}");
    for e in GJK_EXPONENTS {
        let k = scale(e);
        let what = format!("2^{e}");
        let (obb, beyond, crossing, cylinder) = gjk_scene(k);
        assert!(!intersects(&obb, &beyond) && intersects(&obb, &crossing), "{what}");
        let d = distance(&obb, &beyond);
        assert!((d.distance / k - apart.distance).abs() <= 1e-5, "{what}: {d:?}");
        near(d.point_a / k, apart.point_a, 6.0, &what);
        near(d.point_b / k, apart.point_b, 6.0, &what);
        near(d.normal.unwrap(), apart.normal.unwrap(), 1.0, &what);
        let c = contact(&obb, &crossing).unwrap_or_else(|| panic!("{what}: a contact"));
        assert!((c.depth / k - overlap.depth).abs() <= 1e-5, "{what}: {c:?}");
        near(c.normal, overlap.normal, 1.0, &what);
        near(c.point_a / k, overlap.point_a, 6.0, &what);
        let hit = shape_cast(&obb, Vec3::new(10.0, 0.0, 0.0) * k, &beyond, Vec3::ZERO)
            .unwrap_or_else(|| panic!("{what}: a swept hit"));
        assert!((hit.t - swept.t).abs() <= 1e-5, "{what}: {hit:?}");
        near(hit.normal, swept.normal, 1.0, &what);
        near(hit.point / k, swept.point, 6.0, &what);
        let at_k = Segment::new(ray.start * k, ray.end * k).cast_convex(&cylinder);
        let at_k = at_k.unwrap_or_else(|| panic!("{what}: the segment hits"));
        assert!((at_k.t - shot.t).abs() <= 1e-5, "{what}: {at_k:?}");
        near(at_k.normal, shot.normal, 1.0, &what);
    }
}

/// Conservative advancement ([`time_of_impact`]) steps by GJK distances,
/// so it inherits their scale: a plank turning a quarter turn while it
/// slides into a post meets it at the same `t`, with the same normal, from
/// 2⁻¹²⁰ to 2¹²⁰.
#[test]
fn time_of_impact_answers_as_at_unit_scale_at_every_scale() {
    let at = |k: f32| {
        let plank = Aabb::new(Vec3::new(-2.0, -0.1, -0.1) * k, Vec3::new(2.0, 0.1, 0.1) * k);
        let post = Aabb::new(Vec3::new(-0.1, -0.1, -1.0) * k, Vec3::new(0.1, 0.1, 1.0) * k);
        let turn = Vec3::new(0.0, 0.0, std::f32::consts::FRAC_PI_2);
        let spin = RigidMotion::new(Pose::IDENTITY, Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0) * k, turn);
        let still = RigidMotion::stationary(Pose::from_translation(Vec3::new(0.0, 1.5, 0.0) * k));
        time_of_impact(&plank, &spin, &post, &still, &ToiOptions::default()).expect("the plank meets the post")
    };
    let unit = at(1.0);
    assert!(unit.t > 0.5 && unit.t < 1.0, "{unit:?}");
    for e in GJK_EXPONENTS {
        let k = scale(e);
        let hit = at(k);
        assert_eq!(hit.status, unit.status, "2^{e}");
        assert!((hit.t - unit.t).abs() <= 1e-5, "2^{e}: {hit:?}");
        near(hit.normal, unit.normal, 1.0, &format!("2^{e}"));
        near(hit.point / k, unit.point, 4.0, &format!("2^{e}"));
    }
}

/// Conservative advancement far from the origin: a sphere or a box sliding
/// by `0.4·k` onto one `0.2·k` away meets it half way, at `x = 2.9·k`,
/// from `k = 1e10` to `1e38` (its centre then at `3.2e38`). The motion turns
/// about the origin or about the shape's centre, by nothing or a little.
/// Before, a centre of rotation more than about 1.8e19 from the shape's
/// centre overflowed the square in the bound of its points' speed, `ρ`;
/// times a motion that does not turn, that was `0·∞ = NaN`, and the shapes
/// were reported apart for good (RELIABILITY.md's F29). Shapes already
/// overlapping near `f32::MAX` meet at `t = 0` at a finite point (the
/// middle of their closest points, whose sum overflowed), and two whose
/// radii sum past `f32::MAX` part without a touch (the tolerance, a
/// fraction of that sum, was infinite: F31).
#[test]
fn time_of_impact_far_from_the_origin_meets_half_way() {
    let still = RigidMotion::stationary(Pose::IDENTITY);
    for k in [1.0e10f32, 1.0e18, 1.0e19, 1.0e20, 1.0e30, 1.0e37, 1.0e38] {
        let sphere = |x: f32| Sphere::new(Vec3::new(x * k, 0.0, 0.0), 0.1 * k);
        let cube = |x: f32| Aabb::new(Vec3::new(x - 0.1, -0.1, -0.1) * k, Vec3::new(x + 0.1, 0.1, 0.1) * k);
        let slide = Vec3::new(-0.4 * k, 0.0, 0.0);
        for (about, turn) in [
            (Vec3::ZERO, 0.0),
            (Vec3::new(3.2 * k, 0.0, 0.0), 0.0),
            (Vec3::new(3.2 * k, 0.0, 0.0), 0.1),
        ] {
            let motion = RigidMotion::new(Pose::IDENTITY, about, slide, Vec3::new(turn, 0.0, 0.0));
            let what = format!("k = {k:e}, about {about}, turning {turn}");
            let hits = [
                time_of_impact(&sphere(3.2), &motion, &sphere(2.8), &still, &ToiOptions::default()),
                time_of_impact(&cube(3.2), &motion, &cube(2.8), &still, &ToiOptions::default()),
            ];
            for hit in hits {
                let hit = hit.unwrap_or_else(|| panic!("{what}: the shapes meet"));
                assert_eq!(hit.status, collide::query::ToiStatus::Converged, "{what}: {hit:?}");
                assert!((hit.t - 0.5).abs() < 1e-4, "{what}: {hit:?}");
                assert!(
                    hit.point.is_finite() && (hit.point.x / k - 2.9).abs() < 1e-4,
                    "{what}: {hit:?}"
                );
                // Within 1e-3: at the tolerance's distance, two faces' normal
                // from their closest points tilts by about 1e-4 at every scale.
                near(hit.normal, Vec3::NEG_X, 100.0, &what);
            }
        }
    }
    // Radii summing past `f32::MAX`, moving apart: no contact, where an
    // infinite tolerance took every distance for a touch at `t = 0`.
    let apart = RigidMotion::new(Pose::IDENTITY, Vec3::ZERO, Vec3::new(1.0e37, 0.0, 0.0), Vec3::ZERO);
    let left = Sphere::new(Vec3::new(-3.0e38, 0.0, 0.0), 2.0e38);
    let right = Sphere::new(Vec3::new(3.0e38, 0.0, 0.0), 2.0e38);
    assert_eq!(
        time_of_impact(&right, &apart, &left, &still, &ToiOptions::default()),
        None
    );
    let (a, b) = (
        Sphere::new(Vec3::new(3.0e38, 0.0, 0.0), 1.0e37),
        Sphere::new(Vec3::new(2.85e38, 0.0, 0.0), 1.0e37),
    );
    let hit = time_of_impact(&a, &still, &b, &still, &ToiOptions::default()).expect("overlapping");
    assert_eq!(
        (hit.t, hit.status),
        (0.0, collide::query::ToiStatus::Penetrating),
        "{hit:?}"
    );
    assert!(
        hit.point.is_finite() && (2.85e38..=3.0e38).contains(&hit.point.x),
        "{hit:?}"
    );
}

#[test]
fn gjk_queries_across_the_whole_f32_range_stay_finite() {
    // A thin box cast by a motion of length beyond `f32::MAX` past a box at
    // the bottom of the range (a fuzzer's find: the hit came back at t = 0
    // with a NaN normal, from the box's centre overflowing). The gap it
    // passes by, 9 units in 3.4e38, is beyond `f32` precision: a hit or a
    // miss are both fair, a NaN is not.
    let thin = Obb::new(
        Vec3::new(0.0001, 0.0001, -8.75),
        Quat::IDENTITY,
        Vec3::new(0.0001, 6.25, 0.0001),
    );
    let bottom = Aabb::new(Vec3::new(15.25, -f32::MAX, -19.5), Vec3::new(15.75, -f32::MAX, -18.25));
    if let Some(hit) = shape_cast(&thin, Vec3::new(15.25, -f32::MAX, -19.5), &bottom, Vec3::ZERO) {
        assert!((0.0..=1.0).contains(&hit.t) && hit.point.is_finite(), "{hit:?}");
        assert!((hit.normal.length() - 1.0).abs() < 1e-6, "{hit:?}");
    }
    let d = distance(&thin, &bottom);
    assert!((d.distance / f32::MAX - 1.0).abs() < 1e-6, "{d:?}");
    near(d.normal.unwrap(), Vec3::NEG_Y, 1.0, "the normal");
    assert!(d.point_a.is_finite() && d.point_b.is_finite(), "{d:?}");
    // Two boxes at opposite ends of the range: a distance beyond f32::MAX.
    let top = Aabb::new(Vec3::new(0.0, f32::MAX, 0.0), Vec3::new(1.0, f32::MAX, 1.0));
    let d = distance(&top, &bottom);
    assert_eq!(d.distance, f32::INFINITY);
    near(d.normal.unwrap(), Vec3::NEG_Y, 1.0, "the normal across the range");
    assert!(!intersects(&top, &bottom) && contact(&top, &bottom).is_none());
}

// ---------------------------------------------------------------------------
// At random.

/// A coordinate: a multiple of ¼ in [−8, 8] (so shapes touch and cross
/// exactly, and every scaling by 2ᵉ, e >= −147, is exact).
fn coordinate() -> impl Strategy<Value = f32> {
    (-32i32..=32).prop_map(|n| n as f32 / 4.0)
}

fn point() -> impl Strategy<Value = Vec3> {
    (coordinate(), coordinate(), coordinate()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn radius() -> impl Strategy<Value = f32> {
    (0i32..=16).prop_map(|n| n as f32 / 4.0)
}

/// A rotation whose action on dyadic points is exact: the identity, a
/// half turn about an axis, or the 120° turn about (1, 1, 1) and its
/// inverse.
fn exact_rotation() -> impl Strategy<Value = Quat> {
    prop_oneof![
        Just(Quat::IDENTITY),
        Just(Quat::from_xyzw(1.0, 0.0, 0.0, 0.0)),
        Just(Quat::from_xyzw(0.0, 0.0, 1.0, 0.0)),
        Just(cycle()),
        Just(cycle().inverse()),
    ]
}

/// A sphere or a capsule (often of radius 0).
fn round_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (point(), radius()).prop_map(|(c, r)| Shape::Sphere(Sphere::new(c, r))),
        (point(), point(), radius()).prop_map(|(a, b, r)| Shape::Capsule(Capsule::new(Segment::new(a, b), r))),
        (point(), point()).prop_map(|(a, b)| Shape::Capsule(Capsule::new(Segment::new(a, b), 0.0))),
    ]
}

/// A shape whose test with a sphere or a capsule is a squared distance in
/// `f64`: a box, a sphere, a capsule or an oriented box.
fn partner_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (point(), point()).prop_map(|(a, b)| Shape::Aabb(Aabb::new(a.min(b), a.max(b)))),
        round_shape(),
        (point(), exact_rotation(), point()).prop_map(|(c, q, h)| Shape::Obb(Obb::new(c, q, h.abs()))),
    ]
}

/// Two shapes whose test is a squared distance in `f64`, in either order:
/// a sphere or a capsule with a [`partner_shape`], a sphere and a triangle,
/// or two radius-0 capsules whose axes cross at a point (the tangency of
/// F10: the second's axis through the point at `i/4` of the first's, along
/// any direction).
fn pair() -> impl Strategy<Value = (Shape, Shape)> {
    let sphere = (point(), radius()).prop_map(|(c, r)| Shape::Sphere(Sphere::new(c, r)));
    let triangle = (point(), point(), point()).prop_map(|(a, b, c)| Shape::Triangle(Triangle::new(a, b, c)));
    let crossing = (point(), point(), 0..=4i32, point(), 0..=4i32).prop_map(|(p, q, i, w, j)| {
        let x = p + (q - p) * (i as f32 / 4.0);
        let a = Capsule::new(Segment::new(p, q), 0.0);
        let b = Capsule::new(
            Segment::new(x - w * (j as f32 / 4.0), x + w * (1.0 - j as f32 / 4.0)),
            0.0,
        );
        (Shape::Capsule(a), Shape::Capsule(b))
    });
    let in_any_order = |(a, b, swap): (Shape, Shape, bool)| if swap { (b, a) } else { (a, b) };
    prop_oneof![
        (round_shape(), partner_shape(), any::<bool>()).prop_map(in_any_order),
        (sphere, triangle, any::<bool>()).prop_map(in_any_order),
        crossing,
    ]
}

/// Every coordinate and size of `shape` times `k` (a power of two).
fn scaled(shape: &Shape, k: f32) -> Shape {
    match shape {
        Shape::Aabb(b) => Shape::Aabb(Aabb::new(b.min * k, b.max * k)),
        Shape::Sphere(s) => Shape::Sphere(Sphere::new(s.center * k, s.radius * k)),
        Shape::Capsule(c) => Shape::Capsule(Capsule::new(
            Segment::new(c.segment.start * k, c.segment.end * k),
            c.radius * k,
        )),
        Shape::Obb(o) => Shape::Obb(Obb::new(o.center * k, o.rotation, o.half_extents * k)),
        Shape::Triangle(t) => Shape::Triangle(Triangle::new(t.a * k, t.b * k, t.c * k)),
        _ => unreachable!("the strategy makes boxes, spheres, capsules, oriented boxes and triangles"),
    }
}

/// A shape GJK serves: a box, an oriented box, a triangle, a sphere or a
/// capsule, with dyadic coordinates.
fn gjk_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        partner_shape(),
        (point(), point(), point()).prop_map(|(a, b, c)| Shape::Triangle(Triangle::new(a, b, c))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Above the sizes GJK runs at in place, every generic query is
    /// solved at one unit scale whatever the scale of its input: the
    /// answers at `2^ea` and `2^eb` (from 2⁴⁰ to 2¹²⁰) are the same, bit
    /// for bit, once scaled. Each shape's own support mapping still runs at
    /// the input's scale, and there its products `d·v` stay normal numbers
    /// (a direction component is at least 2⁻¹⁴⁹, a coordinate at least
    /// 2³⁸), so it picks the same vertex at every such scale. Below the
    /// sizes GJK runs at in place this does not hold: at 2⁻¹²⁰ those
    /// products underflow and a near-tie between two vertices can fall the
    /// other way, which moves a contact point by an ulp (a proptest run
    /// found one, between 2⁻⁴¹ and 2⁻¹²⁰); the small scales are checked
    /// against unit scale, to rounding, by
    /// `gjk_queries_answer_as_at_unit_scale_at_every_scale`.
    #[test]
    fn gjk_queries_do_not_depend_on_the_scale_above_the_safe_sizes(
        a in gjk_shape(),
        b in gjk_shape(),
        motion in point(),
        ea in 40i32..=120,
        eb in 40i32..=120,
    ) {
        let at = |e: i32| {
            let k = scale(e);
            let (a, b) = (scaled(&a, k), scaled(&b, k));
            let d = distance(&a, &b);
            let c = contact(&a, &b);
            let hit = shape_cast(&a, motion * k, &b, Vec3::ZERO);
            (
                intersects(&a, &b),
                (d.distance / k, d.point_a / k, d.point_b / k, d.normal),
                c.map(|c| (c.depth / k, c.normal, c.point_a / k, c.point_b / k)),
                hit.map(|h| (h.t, h.normal, h.point / k)),
            )
        };
        prop_assert_eq!(at(ea), at(eb), "{:?} and {:?}, moving by {:?}", a, b, motion);
    }

    /// `a.intersects(b) == b.intersects(a)` for every pair with a sphere or
    /// a capsule, at any scale, and with one shape at another scale than
    /// the other (F10 was an axis 1e19 long next to ones of size 10).
    #[test]
    fn round_pair_tests_are_symmetric_at_every_scale(
        (a, b) in pair(),
        ea in -140i32..=120,
        eb in -140i32..=120,
        same_scale in any::<bool>(),
    ) {
        let a = scaled(&a, scale(ea));
        let b = scaled(&b, scale(if same_scale { ea } else { eb }));
        prop_assert_eq!(a.intersects(&b), b.intersects(&a), "{:?} and {:?}", a, b);
    }

    /// The answer of every round pair test is the same at every
    /// power-of-two scale from 2⁻¹⁴⁰ to 2¹²⁰: the `f64` arithmetic is
    /// exact under such scaling (no intermediate overflows or becomes
    /// subnormal), where `f32` squares overflowed beyond 1.8e19 (F1) and
    /// underflowed below 1e-19 (F2).
    #[test]
    fn round_pair_tests_do_not_depend_on_the_scale(
        (a, b) in pair(),
        e in -140i32..=120,
    ) {
        let at_one = a.intersects(&b);
        let k = scale(e);
        prop_assert_eq!(scaled(&a, k).intersects(&scaled(&b, k)), at_one, "{:?} and {:?} at 2^{}", a, b, e);
    }

    /// The sphere and capsule casts give the same `t` and normal at every
    /// power-of-two scale (the parameter and the unit normal do not scale).
    #[test]
    fn round_casts_do_not_depend_on_the_scale(
        target in prop_oneof![
            (point(), radius()).prop_map(|(c, r)| Shape::Sphere(Sphere::new(c, r))),
            (point(), point(), radius()).prop_map(|(a, b, r)| Shape::Capsule(Capsule::new(Segment::new(a, b), r))),
        ],
        start in point(),
        end in point(),
        e in -140i32..=120,
    ) {
        let segment = Segment::new(start, end);
        let at_one = target.cast_segment(&segment);
        let k = scale(e);
        let far = scaled(&target, k).cast_segment(&Segment::new(start * k, end * k));
        prop_assert_eq!(far, at_one, "{:?} cast against {:?} at 2^{}", segment, target, e);
    }
}
