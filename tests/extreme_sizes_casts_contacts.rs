//! Closed-form casts and contacts at extreme sizes: the sphere, capsule and
//! box closed forms behind `Shape::cast_shape` and `Shape::contact` (so
//! `World::shape_cast` and `World::contact`) answer a configuration scaled
//! by `k` as they answer it at unit scale, from `k = 1e-30` to sizes near
//! `f32::MAX`.
//!
//! Each of them once squared a length in `f32` (a square overflows beyond
//! about 1.8e19 and underflows below about 1e-19; the fourth powers of a
//! capsule–capsule cast already near 1e10), or summed two radii that
//! overflow near `f32::MAX`; an infinite square compared with an infinite
//! `r²` read as touching, a zero normal skipped a face, an infinite
//! tolerance always took the fallback normal. Each test checks the answer
//! at every scale against the unit-scale one: times and normals to `1e-5`,
//! depths and points to `1e-5` of the scale.

use collide::math::{Quat, Vec3};
use collide::{Aabb, Capsule, Contact, Obb, Segment, Shape, Sphere, TimeOfImpact};
use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_4, SQRT_2};

/// Scales from below the square root of the least normal `f32` to above
/// the square root of the largest, where every configuration below (at
/// most 5 units across) stays finite.
const SCALES: [f32; 9] = [1e-30, 1e-20, 1e-12, 1.0, 1e5, 1e10, 1e19, 1e20, 1e30];

/// Scales up to the top of the `f32` range, for the configurations whose
/// sum of two radii (or of two lengths) passes `f32::MAX` at `k = 1e38`
/// while every coordinate stays below 3.4 units.
const TOP_SCALES: [f32; 5] = [1.0, 1e10, 1e20, 1e30, 1e38];

/// Asserts `|got − want| <= 1e-5·size` componentwise.
#[track_caller]
fn near(got: Vec3, want: Vec3, size: f32, what: &str) {
    assert!(
        (got - want).abs().max_element() <= 1e-5 * size,
        "{what}: {got:?}, want {want:?}"
    );
}

/// Asserts that `got`, the answer at scale `k`, is the unit-scale `want`
/// scaled: the same time and normal, the point `k` times as far.
#[track_caller]
fn same_toi(got: Option<TimeOfImpact>, want: &TimeOfImpact, k: f32, what: &str) {
    let got = got.unwrap_or_else(|| panic!("{what}: a hit, want {want:?}"));
    assert!((got.t - want.t).abs() <= 1e-5, "{what}: t {}, want {}", got.t, want.t);
    near(got.normal, want.normal, 1.0, &format!("{what}: normal"));
    near(
        got.point / k,
        want.point,
        1.0 + want.point.abs().max_element(),
        &format!("{what}: point"),
    );
}

/// Asserts that `got`, the contact at scale `k`, is the unit-scale `want`
/// scaled: the same normal, the depth and points `k` times as large.
#[track_caller]
fn same_contact(got: Option<Contact>, want: &Contact, k: f32, what: &str) {
    let got = got.unwrap_or_else(|| panic!("{what}: a contact, want {want:?}"));
    assert!(
        (got.depth / k - want.depth).abs() <= 1e-5 * want.depth.max(1.0),
        "{what}: depth {} at scale {k}, want {} at unit scale",
        got.depth,
        want.depth
    );
    near(got.normal, want.normal, 1.0, &format!("{what}: normal"));
    for (point, unit) in [(got.point_a, want.point_a), (got.point_b, want.point_b)] {
        near(
            point / k,
            unit,
            1.0 + unit.abs().max_element(),
            &format!("{what}: point"),
        );
    }
}

/// The capsule across the x axis and the one across z above it, 3 units up
/// (the example of `Capsule::cast_capsule`), at scale `k`.
fn crossed_capsules(k: f32) -> (Capsule, Capsule) {
    (
        Capsule::new(Segment::new(Vec3::new(-k, 0.0, 0.0), Vec3::new(k, 0.0, 0.0)), 0.5 * k),
        Capsule::new(
            Segment::new(Vec3::new(0.0, 3.0 * k, -k), Vec3::new(0.0, 3.0 * k, k)),
            0.5 * k,
        ),
    )
}

/// `Capsule::cast_capsule` answers as at unit scale at every scale: the
/// capsule rising by 4 meets the crossing one through the face of the
/// axes' parallelogram at `t = 0.5` (the edges of that parallelogram only
/// graze at `t = 0.75`), and one moving away never does. The face's normal
/// was `n0/|n0|` with `|n0|²` a fourth power of the size, infinite from
/// about 1e10 (a zero normal: the face was skipped, `t = 0.75`) and zero
/// below about 1e-10 (the same); beyond 1.8e19 the start test compared an
/// infinite squared distance with an infinite `r²` and reported `t = 0`.
#[test]
fn capsule_cast_capsule_meets_the_face_at_every_scale() {
    let (a, b) = crossed_capsules(1.0);
    let unit = a.cast_capsule(Vec3::new(0.0, 4.0, 0.0), &b, Vec3::ZERO).unwrap();
    assert_eq!(
        (unit.t, unit.normal, unit.point),
        (0.5, Vec3::Y, Vec3::new(0.0, 2.5, 0.0))
    );
    for k in SCALES {
        let what = format!("scale {k}");
        let (a, b) = crossed_capsules(k);
        same_toi(
            a.cast_capsule(Vec3::new(0.0, 4.0 * k, 0.0), &b, Vec3::ZERO),
            &unit,
            k,
            &what,
        );
        same_toi(
            Shape::Capsule(a).cast_shape(Vec3::new(0.0, 4.0 * k, 0.0), &Shape::Capsule(b)),
            &unit,
            k,
            &format!("{what}, Shape::cast_shape"),
        );
        assert_eq!(
            a.cast_capsule(Vec3::new(0.0, -4.0 * k, 0.0), &b, Vec3::ZERO),
            None,
            "{what}: moving away"
        );
    }
}

/// Two capsules of radius 2 whose axes are 6 apart, closing at 4 per step,
/// meet at `t = 0.5` at every scale up to 1e38, where the sum of the radii
/// (4e38) and the relative motion (4e38) pass `f32::MAX`: the problem is
/// solved at half scale there. The old sum was `∞`, so every pair read as
/// touching at `t = 0`, apart or not.
#[test]
fn capsule_cast_capsule_near_f32_max() {
    let capsules = |k: f32| {
        (
            Capsule::new(
                Segment::new(Vec3::new(-k, -3.0 * k, 0.0), Vec3::new(k, -3.0 * k, 0.0)),
                2.0 * k,
            ),
            Capsule::new(
                Segment::new(Vec3::new(0.0, 3.0 * k, -k), Vec3::new(0.0, 3.0 * k, k)),
                2.0 * k,
            ),
        )
    };
    let (a, b) = capsules(1.0);
    let unit = a
        .cast_capsule(Vec3::new(0.0, 2.0, 0.0), &b, Vec3::new(0.0, -2.0, 0.0))
        .unwrap();
    assert_eq!(
        (unit.t, unit.normal, unit.point),
        (0.5, Vec3::Y, Vec3::new(0.0, 0.0, 0.0))
    );
    for k in TOP_SCALES {
        let what = format!("scale {k}");
        let (a, b) = capsules(k);
        same_toi(
            a.cast_capsule(Vec3::new(0.0, 2.0 * k, 0.0), &b, Vec3::new(0.0, -2.0 * k, 0.0)),
            &unit,
            k,
            &what,
        );
        assert_eq!(
            a.cast_capsule(Vec3::new(0.0, -0.3 * k, 0.0), &b, Vec3::new(0.0, 0.3 * k, 0.0)),
            None,
            "{what}: moving apart"
        );
    }
}

/// Two spheres of radius 2 with centres 6 apart, one moving 2.5 towards the
/// other, meet at `t = 0.8` at every scale up to 1e38 (radii summing to
/// 4e38), through `Sphere::cast_sphere` and `Sphere::cast_capsule`; moving
/// apart, never. The grown radius `r_a + r_b` was `∞` there: a hit at
/// `t = 0` for every pair.
#[test]
fn sphere_casts_near_f32_max() {
    let spheres = |k: f32| {
        (
            Sphere::new(Vec3::new(-3.0 * k, 0.0, 0.0), 2.0 * k),
            Sphere::new(Vec3::new(3.0 * k, 0.0, 0.0), 2.0 * k),
        )
    };
    let (a, b) = spheres(1.0);
    let unit = a.cast_sphere(Vec3::new(2.5, 0.0, 0.0), &b, Vec3::ZERO).unwrap();
    assert!((unit.t - 0.8).abs() < 1e-6 && unit.normal == Vec3::X, "{unit:?}");
    for k in TOP_SCALES {
        let what = format!("scale {k}");
        let (a, b) = spheres(k);
        let pole = Capsule::new(Segment::new(b.center - Vec3::Y * k, b.center + Vec3::Y * k), b.radius);
        same_toi(
            a.cast_sphere(Vec3::new(2.5 * k, 0.0, 0.0), &b, Vec3::ZERO),
            &unit,
            k,
            &what,
        );
        same_toi(
            Shape::Sphere(a).cast_shape(Vec3::new(2.5 * k, 0.0, 0.0), &Shape::Capsule(pole)),
            &unit,
            k,
            &format!("{what}, against a capsule"),
        );
        assert_eq!(
            a.cast_sphere(Vec3::new(-0.3 * k, 0.0, 0.0), &b, Vec3::ZERO),
            None,
            "{what}: moving apart"
        );
        assert_eq!(
            a.cast_capsule(Vec3::new(-0.3 * k, 0.0, 0.0), &pole, Vec3::ZERO),
            None,
            "{what}: moving apart from the capsule"
        );
    }
}

/// `Sphere::cast_aabb` answers as at unit scale at every scale: a sphere of
/// radius 1 three units from a box of half-size 1 hits its face at
/// `t = 0.25` moving 4 towards it, never moving away, and hits an edge as
/// in the method's example. The start test compared `|c − box|²` with `r²`
/// in `f32`: `∞ <= ∞` beyond 1.8e19 and `0 <= 0` below 1e-23, a hit at
/// `t = 0` either way.
#[test]
fn sphere_cast_aabb_at_every_scale() {
    let face = |k: f32| {
        (
            Aabb::new(Vec3::splat(-k), Vec3::splat(k)),
            Sphere::new(Vec3::new(3.0 * k, 0.0, 0.0), k),
        )
    };
    let edge = |k: f32| {
        (
            Aabb::new(Vec3::ZERO, Vec3::splat(k)),
            Sphere::new(Vec3::new(3.0, 3.0, 0.5) * k, k),
        )
    };
    let (b, s) = face(1.0);
    let head_on = s.cast_aabb(Vec3::new(-4.0, 0.0, 0.0), &b).unwrap();
    assert_eq!((head_on.t, head_on.normal), (0.25, Vec3::NEG_X));
    let (b, s) = edge(1.0);
    let diagonal = s.cast_aabb(Vec3::new(-4.0, -4.0, 0.0), &b).unwrap();
    assert!((diagonal.t - (2.0 - FRAC_1_SQRT_2) / 4.0).abs() < 1e-6, "{diagonal:?}");
    for k in SCALES {
        let what = format!("scale {k}");
        let (b, s) = face(k);
        same_toi(s.cast_aabb(Vec3::new(-4.0 * k, 0.0, 0.0), &b), &head_on, k, &what);
        same_toi(
            Shape::Sphere(s).cast_shape(Vec3::new(-4.0 * k, 0.0, 0.0), &Shape::Aabb(b)),
            &head_on,
            k,
            &format!("{what}, Shape::cast_shape"),
        );
        assert_eq!(
            s.cast_aabb(Vec3::new(4.0 * k, 0.0, 0.0), &b),
            None,
            "{what}: moving away"
        );
        let (b, s) = edge(k);
        same_toi(
            s.cast_aabb(Vec3::new(-4.0, -4.0, 0.0) * k, &b),
            &diagonal,
            k,
            &format!("{what}, edge"),
        );
    }
}

/// `Sphere::cast_line` does not depend on the length of the line's
/// direction: a ball 5 above a line along x, falling 8, touches it at
/// `t = 0.5` whatever the direction's length, at every scale. The unit
/// direction was `normalize_or_zero`, zero for a length whose square
/// overflows (beyond 1.8e19) or underflows (below 1e-19): the line became a
/// point and the ball passed it.
#[test]
fn sphere_cast_line_with_any_direction_length() {
    let ball = |k: f32| Sphere::new(Vec3::new(10.0 * k, 5.0 * k, 0.0), k);
    let unit = ball(1.0)
        .cast_line(Vec3::new(0.0, -8.0, 0.0), Vec3::ZERO, Vec3::X)
        .unwrap();
    assert_eq!(
        (unit.t, unit.normal, unit.point),
        (0.5, Vec3::NEG_Y, Vec3::new(10.0, 0.0, 0.0))
    );
    for k in SCALES {
        for length in [1e-30, 1e-20, 1.0, 1e20, 1e30, 3e38] {
            let what = format!("scale {k}, direction {length}");
            let hit = ball(k).cast_line(Vec3::new(0.0, -8.0 * k, 0.0), Vec3::ZERO, Vec3::new(length, 0.0, 0.0));
            same_toi(hit, &unit, k, &what);
        }
    }
}

/// Two cubes turned 45° about z and about x, one above the other, meet
/// edge on edge: `Obb::contact_obb` picks that edge–edge axis (depth 0.1,
/// normal `+Y`) at every scale. The edge bias was `1e-5·(|e_a| + |e_b|)`
/// with `f32` lengths of the half-extents, infinite beyond 1.8e19 (and
/// their sum at 1e38), so no edge axis could win and a face axis (depth
/// 0.778) was reported.
#[test]
fn box_contact_chooses_the_edge_axis_at_every_scale() {
    let boxes = |k: f32| {
        let d = SQRT_2 * 2.0 - 0.1;
        (
            Obb::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4), Vec3::splat(k)),
            Obb::new(
                Vec3::new(0.0, d * k, 0.0),
                Quat::from_rotation_x(FRAC_PI_4),
                Vec3::splat(k),
            ),
        )
    };
    let (a, b) = boxes(1.0);
    let unit = a.contact_obb(&b).unwrap();
    assert!((unit.depth - 0.1).abs() < 1e-5, "{unit:?}");
    near(unit.normal, Vec3::Y, 1e-1, "unit scale");
    for k in SCALES.into_iter().chain([1e38]) {
        let what = format!("scale {k}");
        let (a, b) = boxes(k);
        same_contact(a.contact_obb(&b), &unit, k, &what);
        same_contact(
            Shape::Obb(a).contact(&Shape::Obb(b)),
            &unit,
            k,
            &format!("{what}, Shape::contact"),
        );
    }
}

/// Two boxes of half-size 1.8 with centres 2 apart along x overlap by 1.6
/// along `+X`, as boxes and as oriented boxes (one of them turned about
/// x, which leaves its x extent alone), at every scale up to 1e38, where the
/// two half-widths sum to 3.6e38: the overlap was `∞ − 2e38 = ∞`.
#[test]
fn box_contact_depth_near_f32_max() {
    let boxes = |k: f32| {
        (
            Aabb::new(Vec3::new(-2.8, -1.8, -1.8) * k, Vec3::new(0.8, 1.8, 1.8) * k),
            Aabb::new(Vec3::new(-0.8, -1.8, -1.8) * k, Vec3::new(2.8, 1.8, 1.8) * k),
        )
    };
    let turned = |b: Aabb| Obb::new(b.center(), Quat::from_rotation_x(0.3), b.half_extents());
    let (a, b) = boxes(1.0);
    let unit = a.contact_aabb(&b).unwrap();
    assert!((unit.depth - 1.6).abs() < 1e-6 && unit.normal == Vec3::X, "{unit:?}");
    let unit_turned = Obb::from(a).contact_obb(&turned(b)).unwrap();
    assert!((unit_turned.depth - 1.6).abs() < 1e-6, "{unit_turned:?}");
    for k in TOP_SCALES {
        let what = format!("scale {k}");
        let (a, b) = boxes(k);
        same_contact(a.contact_aabb(&b), &unit, k, &what);
        same_contact(
            Shape::Aabb(a).contact(&Shape::Aabb(b)),
            &unit,
            k,
            &format!("{what}, Shape::contact"),
        );
        same_contact(
            Obb::from(a).contact_obb(&turned(b)),
            &unit_turned,
            k,
            &format!("{what}, turned"),
        );
    }
}

/// The capsule along x and a parallel one 1 up and 1 across (both of
/// radius 1), and a ball 1.5 above the first's axis, at scale `k`.
fn parallel_capsules(k: f32) -> (Capsule, Capsule, Sphere) {
    (
        Capsule::new(Segment::new(Vec3::new(-k, 0.0, 0.0), Vec3::new(k, 0.0, 0.0)), k),
        Capsule::new(Segment::new(Vec3::new(-k, k, k), Vec3::new(k, k, k)), k),
        Sphere::new(Vec3::new(0.0, 1.5 * k, 0.0), k),
    )
}

/// The capsule contacts take the normal along the axes' closest points at
/// every scale up to 1e38: `(0, √½, √½)` between the parallel capsules and
/// `−Y` from the ball to the capsule below it. The "coincident" tolerance
/// was `1e-6·|axis|` with an `f32` length, infinite beyond 1.8e19, so the
/// arbitrary fallback normal (`+Y`) was always taken; for two axes it
/// summed two lengths, which overflows at 1e38.
#[test]
fn capsule_contact_normals_at_every_scale() {
    let (a, b, ball) = parallel_capsules(1.0);
    let between = a.contact_capsule(&b).unwrap();
    near(
        between.normal,
        Vec3::new(0.0, FRAC_1_SQRT_2, FRAC_1_SQRT_2),
        0.1,
        "unit scale",
    );
    let from_ball = ball.contact_capsule(&a).unwrap();
    assert_eq!((from_ball.depth, from_ball.normal), (0.5, Vec3::NEG_Y));
    for k in SCALES.into_iter().chain([1e38]) {
        let what = format!("scale {k}");
        let (a, b, ball) = parallel_capsules(k);
        same_contact(a.contact_capsule(&b), &between, k, &what);
        same_contact(
            Shape::Capsule(a).contact(&Shape::Capsule(b)),
            &between,
            k,
            &format!("{what}, Shape::contact"),
        );
        same_contact(ball.contact_capsule(&a), &from_ball, k, &format!("{what}, ball"));
        same_contact(
            Shape::Capsule(a).contact(&Shape::Sphere(ball)),
            &from_ball.flipped(),
            k,
            &format!("{what}, capsule and ball"),
        );
    }
}

/// Capsules whose axes cross (along x, and along z through `(0.5, 0, 0)`)
/// take the normal `x × z = −Y` of their flat Minkowski difference, in a
/// contact and in a cast that starts overlapping, at every scale. That
/// cross product of the axes' directions overflowed beyond 1.8e19 and
/// vanished below 1e-23 in `f32`, and an arbitrary perpendicular (the
/// contact) or the line between the centres (the cast) was taken instead.
#[test]
fn crossing_capsules_take_the_normal_of_both_axes_at_every_scale() {
    let capsules = |k: f32| {
        (
            Capsule::new(Segment::new(Vec3::new(-k, 0.0, 0.0), Vec3::new(k, 0.0, 0.0)), 0.5 * k),
            Capsule::new(
                Segment::new(Vec3::new(0.5 * k, 0.0, -k), Vec3::new(0.5 * k, 0.0, k)),
                0.5 * k,
            ),
        )
    };
    let (a, b) = capsules(1.0);
    let unit = a.contact_capsule(&b).unwrap();
    assert_eq!((unit.depth, unit.normal), (1.0, Vec3::NEG_Y));
    let unit_cast = a.cast_capsule(Vec3::X, &b, Vec3::ZERO).unwrap();
    assert_eq!((unit_cast.t, unit_cast.normal), (0.0, Vec3::NEG_Y));
    for k in SCALES.into_iter().chain([1e-38, 1e38]) {
        let what = format!("scale {k}");
        let (a, b) = capsules(k);
        same_contact(a.contact_capsule(&b), &unit, k, &what);
        same_toi(
            a.cast_capsule(Vec3::X * k, &b, Vec3::ZERO),
            &unit_cast,
            k,
            &format!("{what}, cast"),
        );
    }
}

/// Sphere–sphere contacts near `f32::MAX`: radii of 2.1 with centres 2
/// apart overlap by 2.2, and radii of 1.9 with centres 3.6 apart by 0.2,
/// at every scale up to 1e38, where `r_a + r_b` (4.2e38, 3.8e38) and, for
/// the second pair, the centres' difference (3.6e38) pass `f32::MAX`. The
/// depth was `r_a + r_b − |d|` in `f32`: `∞` for the first pair, `NaN` (no
/// contact) for the second.
#[test]
fn sphere_contacts_near_f32_max() {
    let pairs = |k: f32| {
        [
            (
                Sphere::new(Vec3::new(-2.0 * k, 0.0, 0.0), 2.1 * k),
                Sphere::new(Vec3::ZERO, 2.1 * k),
            ),
            (
                Sphere::new(Vec3::new(-1.8 * k, 0.0, 0.0), 1.9 * k),
                Sphere::new(Vec3::new(1.8 * k, 0.0, 0.0), 1.9 * k),
            ),
        ]
    };
    let unit = pairs(1.0).map(|(a, b)| a.contact_sphere(&b).unwrap());
    assert!(
        (unit[0].depth - 2.2).abs() < 1e-6 && unit[0].normal == Vec3::X,
        "{:?}",
        unit[0]
    );
    assert!(
        (unit[1].depth - 0.2).abs() < 1e-6 && unit[1].normal == Vec3::X,
        "{:?}",
        unit[1]
    );
    for k in TOP_SCALES {
        for (i, (a, b)) in pairs(k).into_iter().enumerate() {
            let what = format!("scale {k}, pair {i}");
            same_contact(a.contact_sphere(&b), &unit[i], k, &what);
            same_contact(
                Shape::Sphere(a).contact(&Shape::Sphere(b)),
                &unit[i],
                k,
                &format!("{what}, Shape::contact"),
            );
        }
    }
}
