//! Queries at extreme sizes and scales: every answer at sizes from the
//! subnormal `f32`s to near `f32::MAX` is the unit-scale answer, scaled.
//!
//! - [`casts_contacts`]: the closed-form casts and contacts of spheres,
//!   capsules and boxes, from `k = 1e-30` to near `f32::MAX`;
//! - [`round_shapes`]: containment, heights, segment points and supports of
//!   round and axial shapes, from 1e-25 to ends at ±2e38;
//! - [`triangles`]: the segment–triangle cast, a triangle's normal and area,
//!   a mesh's distance and support mapping, from 1e-30 to 1e30 and beyond;
//! - [`powers_of_two`]: the squared-distance tests and round casts at every
//!   power-of-two scale of `f32`, in closed form and as property tests
//!   (seeded by `queries_extremes.proptest-regressions`);
//! - [`planes_and_polygons`]: the book's planes and convex polygons built
//!   from points, and convex hulls, from 1e-30 to 1e38.

mod casts_contacts {
    //! Closed-form casts and contacts at extreme sizes: the sphere, capsule and
    //! box closed forms behind `Shape::cast_shape` and `Shape::contact` (so
    //! `World::cast_shape` and `World::contact`) answer a configuration scaled
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

    /// `Sphere::cast_aabb` where the centre plus the motion is beyond `f32`:
    /// a ball at `2k` moving `2k` towards a box at `[2.9k, 3.1k]` touches it
    /// at `t = 0.425` at every scale; at 1e38 the end of its path, `4e38`,
    /// was `∞` in `f32`, and the cast missed.
    #[test]
    fn sphere_cast_aabb_near_f32_max() {
        let scene = |k: f32| {
            (
                Aabb::new(Vec3::new(2.9, -0.1, -0.1) * k, Vec3::new(3.1, 0.1, 0.1) * k),
                Sphere::new(Vec3::new(2.0, 0.05, 0.0) * k, 0.05 * k),
            )
        };
        let (b, s) = scene(1.0);
        let unit = s.cast_aabb(Vec3::new(2.0, 0.0, 0.0), &b).unwrap();
        assert!((unit.t - 0.425).abs() < 1e-6 && unit.normal == Vec3::X, "{unit:?}");
        for k in TOP_SCALES {
            let (b, s) = scene(k);
            let what = format!("scale {k:e}");
            same_toi(s.cast_aabb(Vec3::new(2.0 * k, 0.0, 0.0), &b), &unit, k, &what);
            same_toi(
                Shape::Sphere(s).cast_shape(Vec3::new(2.0 * k, 0.0, 0.0), &Shape::Aabb(b)),
                &unit,
                k,
                &format!("{what}, Shape::cast_shape"),
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
}

mod round_shapes {
    //! Round and axial shapes at extreme sizes: point containment, heights,
    //! segment points and the support mappings of spheres, segments, capsules,
    //! cylinders and cones, from 1e-25 to ends at ±2e38.
    //!
    //! Each test builds one configuration at unit scale, scales it by `k` for
    //! every `k` of [`SCALES`] (coordinates scaled in `f64` and rounded once),
    //! and checks that the answers are the unit-scale ones: verdicts exactly,
    //! points and lengths to within `1e-5·k`. In `f32`, squares of lengths
    //! beyond about 1.8e19 are `∞` and those below about 1e-19 subnormal or 0
    //! (`∞ <= ∞` and `0 <= 0` put far points inside, `∞/∞` is NaN), and the
    //! difference of two ends at `∓2e38` is `∞` (a segment's middle at
    //! `−2e38 + ∞·0.5`). The unit configuration spans `±2` on `y`, so at
    //! `k = 1e38` its axis ends are `∓2e38`: representable, with a difference
    //! that is not. Where an answer reaches [`World`], it is checked there too.

    use collide::math::{DVec3, Vec3};
    use collide::query::intersects;
    use collide::shape::Support;
    use collide::{Capsule, ColliderDesc, Cone, Cylinder, QueryFilter, Segment, Shape, Sphere, World};

    /// The scales of every test: unit, tiny (squares underflow), middling,
    /// large (squares overflow), and the two largest whose configurations
    /// (up to 3.4 units) stay below `f32::MAX`; at `1e38` the axis ends'
    /// difference overflows too.
    const SCALES: [f32; 6] = [1.0, 1e-25, 1e10, 1e20, 1e37, 1e38];

    /// The tolerance on points and lengths, relative to the scale.
    const RELATIVE: f64 = 1e-5;

    /// The unit configuration's axis start: the cylinder's and capsule's first
    /// end, the cone's base centre.
    const START: DVec3 = DVec3::new(-0.5, -2.0, 0.25);

    /// The unit configuration's axis end: the cone's apex.
    const END: DVec3 = DVec3::new(0.5, 2.0, -0.25);

    /// The unit configuration's point `p` at scale `k`, rounded once.
    fn at(p: DVec3, k: f32) -> Vec3 {
        (p * f64::from(k)).as_vec3()
    }

    /// The unit axis direction `(END − START)/|END − START|`.
    fn axis() -> DVec3 {
        (END - START).normalize()
    }

    /// The unit configuration's middle of the axis.
    fn middle() -> DVec3 {
        (START + END) * 0.5
    }

    /// A unit vector perpendicular to the axis: `(4, −1, 0)/√17`.
    fn across() -> DVec3 {
        DVec3::new(4.0, -1.0, 0.0).normalize()
    }

    /// A second unit vector perpendicular to the axis and to [`across`].
    fn across_too() -> DVec3 {
        axis().cross(across())
    }

    /// The point at axial parameter `t` of the unit axis (0 at [`START`], 1
    /// at [`END`]) and distances `rho` along [`across`] and `rho_too` along
    /// [`across_too`].
    fn axial(t: f64, rho: f64, rho_too: f64) -> DVec3 {
        START + (END - START) * t + across() * rho + across_too() * rho_too
    }

    /// The unit configuration's axis at scale `k`.
    fn segment(k: f32) -> Segment {
        Segment::new(at(START, k), at(END, k))
    }

    /// Asserts `|actual − unit·k| <= RELATIVE·k`, in `f64` (the difference of
    /// two points near `f32::MAX` overflows in `f32`).
    #[track_caller]
    fn assert_scaled(actual: Vec3, unit: Vec3, k: f32, what: &str) {
        let expected = unit.as_dvec3() * f64::from(k);
        let error = (actual.as_dvec3() - expected).length();
        assert!(
            error <= RELATIVE * f64::from(k),
            "{what} at scale {k:e}: {actual:?}, expected {expected:?} (the unit answer {unit:?} scaled), off by {error:e}"
        );
    }

    /// Asserts `|actual − unit·k| <= RELATIVE·k` for a length.
    #[track_caller]
    fn assert_scaled_length(actual: f32, unit: f32, k: f32, what: &str) {
        let expected = f64::from(unit) * f64::from(k);
        let error = (f64::from(actual) - expected).abs();
        assert!(
            error <= RELATIVE * f64::from(k),
            "{what} at scale {k:e}: {actual:e}, expected {expected:e} (the unit answer {unit} scaled)"
        );
    }

    /// The sphere's and the capsule's `contains_point` give the unit-scale
    /// verdict at every scale, and those verdicts are the right ones: points a
    /// tenth of the radius inside or outside the surface, around the centre,
    /// across the middle of the axis and beyond the caps. In `f32` both squares
    /// of a sphere of 1e20 were `∞` (a point ten radii away inside) and those
    /// of a sphere of 1e-25 were 0 (likewise); the capsule's distance, computed
    /// in `f64`, was rounded to `f32` and compared with an `f32` square.
    #[test]
    fn sphere_and_capsule_contain_points_at_every_scale() {
        let center = DVec3::new(0.5, -0.25, 1.0);
        let sphere_points = [
            (DVec3::new(1.35, 0.0, 0.0), true),
            (DVec3::new(1.65, 0.0, 0.0), false),
            (DVec3::new(0.0, 1.0, 1.0), true),
            (DVec3::new(1.0, 1.0, 0.65), false),
            (DVec3::new(-1.0, -1.0, -0.4), true),
            (DVec3::new(2.4, 0.0, 0.0), false),
            (DVec3::ZERO, true),
        ];
        let (a, e) = (axis(), across());
        let capsule_points = [
            (middle() + e * 0.45, true),
            (middle() + e * 0.55, false),
            (END + a * 0.45, true),
            (END + a * 0.55, false),
            (START - a * 0.45, true),
            (START - a * 0.55, false),
            (END + a * 0.3 + e * 0.3, true),
            (END + a * 0.4 + e * 0.4, false),
            (START + e * 1.2, false),
        ];
        for k in SCALES {
            let sphere = Sphere::new(at(center, k), 1.5 * k);
            for (offset, inside) in sphere_points {
                let p = at(center + offset, k);
                assert_eq!(
                    sphere.contains_point(p),
                    inside,
                    "sphere {sphere:?} at scale {k:e}: {p:?} must be {}",
                    if inside { "inside" } else { "outside" }
                );
            }
            let capsule = Capsule::new(segment(k), 0.5 * k);
            for (point, inside) in capsule_points {
                let p = at(point, k);
                assert_eq!(
                    capsule.contains_point(p),
                    inside,
                    "capsule {capsule:?} at scale {k:e}: {p:?} must be {}",
                    if inside { "inside" } else { "outside" }
                );
            }
        }
        assert!(!Sphere::new(Vec3::ZERO, 1e20).contains_point(Vec3::new(1e21, 0.0, 0.0)));
        assert!(!Sphere::new(Vec3::ZERO, 1e-25).contains_point(Vec3::new(1e-24, 0.0, 0.0)));
    }

    /// The cylinder's and the cone's `contains_point` give the unit-scale
    /// verdict at every scale, and those verdicts are the right ones: points
    /// by axial parameter `t` and distance from the axis, a tenth of the
    /// radius (or a fiftieth of the axis) inside or outside the side, the caps
    /// and the base. In `f32` the axis of a cylinder 2e19 long squared to `∞`
    /// (`∞/∞` = NaN: points inside read as outside) and one of 1e-25 to 0
    /// (the ball test, with every square 0: points outside read as inside);
    /// the cone's height was `∞` from 1.8e19 (a radius test of `∞ <= ∞`).
    #[test]
    fn cylinder_and_cone_contain_points_at_every_scale() {
        // (t, ρ, ρ') and the verdicts for the cylinder of radius 0.5 and the
        // cone of base radius 0.75 (radius 0.75·(1 − t) at t).
        let points = [
            ((0.5, 0.3, 0.0), true, true),
            ((0.5, 0.45, 0.0), true, false),
            ((0.5, 0.0, 0.55), false, false),
            ((0.5, 0.3, 0.3), true, false),
            ((0.9, 0.05, 0.0), true, true),
            ((0.9, 0.1, 0.0), true, false),
            ((0.98, 0.0, 0.45), true, false),
            ((1.02, 0.0, 0.0), false, false),
            ((-0.02, 0.1, 0.0), false, false),
            ((0.02, 0.7, 0.0), false, true),
            ((0.02, 0.0, -0.66), false, true),
            ((0.3, 0.0, -0.45), true, true),
        ];
        for k in SCALES {
            let cylinder = Cylinder::new(segment(k), 0.5 * k);
            let cone = Cone::new(at(START, k), at(END, k), 0.75 * k);
            for ((t, rho, rho_too), in_cylinder, in_cone) in points {
                let p = at(axial(t, rho, rho_too), k);
                assert_eq!(
                    cylinder.contains_point(p),
                    in_cylinder,
                    "cylinder {cylinder:?} at scale {k:e}: {p:?} (t = {t}, ρ = ({rho}, {rho_too})) must be {}",
                    if in_cylinder { "inside" } else { "outside" }
                );
                assert_eq!(
                    cone.contains_point(p),
                    in_cone,
                    "cone {cone:?} at scale {k:e}: {p:?} (t = {t}, ρ = ({rho}, {rho_too})) must be {}",
                    if in_cone { "inside" } else { "outside" }
                );
            }
        }
        let cylinder = Cylinder::new(Segment::new(Vec3::ZERO, Vec3::new(0.0, 2e19, 0.0)), 1e19);
        assert!(cylinder.contains_point(Vec3::new(0.5e19, 1e19, 0.0)));
        let cone = Cone::new(Vec3::ZERO, Vec3::new(0.0, 2e20, 0.0), 1e20);
        assert!(!cone.contains_point(Vec3::new(6e19, 1e20, 0.0)));
    }

    /// `Cylinder::half_height` and `Cone::height` scale with the shape: in
    /// `f32` the squared length was `∞` from about 1.8e19 (a height of `∞`)
    /// and 0 below about 1e-23. The half-height of an axis whose ends'
    /// difference overflows (`∓2e38`) is finite; the height of such a cone
    /// exceeds `f32::MAX` and is `∞`.
    #[test]
    fn cylinder_half_height_and_cone_height_at_every_scale() {
        let length = (END - START).length() as f32;
        for k in SCALES {
            let cylinder = Cylinder::new(segment(k), 0.5 * k);
            assert_scaled_length(cylinder.half_height(), 0.5 * length, k, "cylinder half-height");
            let cone = Cone::new(at(START, k), at(END, k), 0.75 * k);
            if f64::from(length) * f64::from(k) <= f64::from(f32::MAX) {
                assert_scaled_length(cone.height(), length, k, "cone height");
            } else {
                assert_eq!(cone.height(), f32::INFINITY, "a cone {cone:?} taller than f32::MAX");
            }
        }
        let ends = Segment::new(Vec3::new(0.0, -2e38, 0.0), Vec3::new(0.0, 2e38, 0.0));
        assert_eq!(Cylinder::new(ends, 1.0).half_height(), 2e38);
        let cone = Cone::new(Vec3::new(0.0, -1e20, 0.0), Vec3::new(0.0, 1e20, 0.0), 1.0);
        assert_eq!(cone.height(), 2e20);
    }

    /// The unit configuration's round and axial shapes at scale `k`: a sphere
    /// of radius 1.5 off the axis, and around the axis a segment, a capsule and
    /// a cylinder of radius 0.5 and a cone of base radius 0.75.
    fn shapes(k: f32) -> [(&'static str, Box<dyn Support>); 5] {
        [
            (
                "sphere",
                Box::new(Sphere::new(at(DVec3::new(0.5, -0.25, 1.0), k), 1.5 * k)),
            ),
            ("segment", Box::new(segment(k))),
            ("capsule", Box::new(Capsule::new(segment(k), 0.5 * k))),
            ("cylinder", Box::new(Cylinder::new(segment(k), 0.5 * k))),
            ("cone", Box::new(Cone::new(at(START, k), at(END, k), 0.75 * k))),
        ]
    }

    /// The points of a segment and the supports and bounding radii of the
    /// segment, capsule, cylinder and cone around it are the unit-scale ones
    /// scaled, including at `k = 1e38`, whose axis ends at `∓2e38` have a
    /// difference of `∞` in `f32`. There `start + t·(end − start)` was
    /// `(0, ∞, 0)`-like for every `t > 0`, the half-axis `(end − start)·0.5`
    /// was `∞` (a support point at `−∞`), and the bounding radius saturated at
    /// `f32::MAX`.
    #[test]
    fn segment_points_and_axial_supports_across_far_apart_ends() {
        let unit_segment = segment(1.0);
        let directions = [
            Vec3::new(1.0, 0.35, 0.2),
            Vec3::new(-1.0, 0.95, 0.0),
            Vec3::new(0.3, -0.4, 0.5),
            Vec3::new(-0.2, -1.0, 0.1),
            Vec3::X,
            Vec3::NEG_Z,
        ];
        let queries = [
            axial(0.5, 0.3, 0.0),
            axial(-0.5, 0.0, 1.0),
            axial(1.2, -1.0, 0.5),
            axial(0.25, 2.0, -0.5),
        ];
        let unit_shapes = shapes(1.0);
        for k in SCALES {
            let seg = segment(k);
            for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
                assert_scaled(seg.point_at(t), unit_segment.point_at(t), k, &format!("point_at({t})"));
            }
            for q in queries {
                let unit = unit_segment.closest_point(at(q, 1.0));
                assert_scaled(seg.closest_point(at(q, k)), unit, k, &format!("closest_point({q:?}·k)"));
            }
            for ((kind, shape), (_, unit)) in shapes(k).iter().zip(&unit_shapes) {
                for d in directions {
                    assert_scaled(shape.support(d), unit.support(d), k, &format!("{kind} support {d}"));
                }
                let what = format!("{kind} bounding radius");
                assert_scaled_length(shape.bounding_radius(), unit.bounding_radius(), k, &what);
            }
        }
        let ends = Segment::new(Vec3::new(0.0, -2e38, 0.0), Vec3::new(0.0, 2e38, 0.0));
        assert_eq!(ends.closest_point(Vec3::new(1e37, 0.0, 0.0)), Vec3::ZERO);
        assert_eq!(Cylinder::new(ends, 1e37).support(Vec3::X), Vec3::new(1e37, 2e38, 0.0));
    }

    /// A sphere overlapping the middle of a capsule whose axis ends are far
    /// apart has the unit-scale contact depth and normal at every scale, in
    /// closed form and through [`World::contact`], and agrees with
    /// `Shape::intersects`. At `∓2e38` the axis point closest to the centre was
    /// `(…, ∞, …)`, so the contact was `None` while `intersects` (in `f64`)
    /// said the two overlap; then the axis' infinite length made every centre
    /// "on the axis", and the normal an arbitrary perpendicular.
    #[test]
    fn sphere_capsule_contact_across_far_apart_ends() {
        let unit_depth = 0.25;
        let unit_normal = Sphere::new(at(middle() + across() * 0.75, 1.0), 0.5)
            .contact_capsule(&Capsule::new(segment(1.0), 0.5))
            .expect("overlapping at unit scale")
            .normal;
        let same_normal = |normal: Vec3, what: &str| {
            assert!(
                (normal - unit_normal).abs().max_element() <= 1e-5,
                "{what}: {normal}, at unit scale {unit_normal}"
            );
        };
        for k in SCALES {
            let capsule = Capsule::new(segment(k), 0.5 * k);
            let sphere = Sphere::new(at(middle() + across() * 0.75, k), 0.5 * k);
            let shapes = (Shape::Sphere(sphere), Shape::Capsule(capsule));
            assert!(shapes.0.intersects(&shapes.1), "{sphere:?} and {capsule:?} overlap");
            let contact = sphere
                .contact_capsule(&capsule)
                .unwrap_or_else(|| panic!("{sphere:?} and {capsule:?} overlap by {unit_depth}·{k:e}: no contact"));
            assert_scaled_length(contact.depth, unit_depth, k, "sphere–capsule depth");
            same_normal(contact.normal, &format!("sphere–capsule normal at {k:e}"));
            let mut world = World::new();
            let a = world.add(ColliderDesc::new(shapes.0)).expect("a valid sphere");
            let b = world.add(ColliderDesc::new(shapes.1)).expect("a valid capsule");
            let contact = world
                .contact(a, b)
                .expect("live keys")
                .unwrap_or_else(|| panic!("World::contact: {sphere:?} and {capsule:?} overlap: no contact"));
            assert_scaled_length(contact.depth, unit_depth, k, "World::contact sphere–capsule depth");
            same_normal(
                contact.normal,
                &format!("World::contact sphere–capsule normal at {k:e}"),
            );
        }
    }

    /// What the world says about the cylinder or cone `shape` and two probe
    /// spheres: whether each overlaps it (`Shape::intersects`, and whether
    /// [`World::intersections_with_shape`] finds it), their contacts ([`World::contact`]), and
    /// the hit of a segment crossing its middle ([`World::segment_cast`]).
    struct WorldAnswers {
        overlaps: [bool; 2],
        found: [bool; 2],
        contacts: [Option<collide::Contact>; 2],
        hit: Option<collide::Hit>,
    }

    /// [`WorldAnswers`] for `shape` at scale `k`: the near probe sphere
    /// `(middle + 0.75·across, 0.4)` overlaps both the cylinder of radius 0.5
    /// and the cone of base radius 0.75; the far one `(middle + 1.2·across,
    /// 0.3)` overlaps neither; the segment runs from `middle + 1.5·across` to
    /// `middle − 1.5·across`.
    fn world_answers(shape: &Shape, k: f32) -> WorldAnswers {
        let mut world = World::new();
        let key = world.add(ColliderDesc::new(shape.clone())).expect("a valid shape");
        let probes = [
            Sphere::new(at(middle() + across() * 0.75, k), 0.4 * k),
            Sphere::new(at(middle() + across() * 1.2, k), 0.3 * k),
        ];
        let probe_keys = probes.map(|probe| {
            world
                .add(ColliderDesc::new(Shape::Sphere(probe)))
                .expect("a valid sphere")
        });
        let overlaps = probes.map(|probe| shape.intersects(&Shape::Sphere(probe)) && intersects(&probe, shape));
        let found = probes.map(|probe| {
            let mut found = false;
            world
                .intersections_with_shape(&Shape::Sphere(probe), &QueryFilter::ALL, |hit, _| found |= hit == key)
                .expect("a valid query sphere");
            found
        });
        let contacts = probe_keys.map(|probe| world.contact(probe, key).expect("live keys"));
        let ray = Segment::new(at(middle() + across() * 1.5, k), at(middle() - across() * 1.5, k));
        world.remove(probe_keys[0]).expect("a live key");
        world.remove(probe_keys[1]).expect("a live key");
        let hit = world.segment_cast(&ray, &QueryFilter::ALL).expect("a finite segment");
        WorldAnswers {
            overlaps,
            found,
            contacts,
            hit,
        }
    }

    /// Cylinders and cones around the unit configuration's axis give the
    /// unit-scale answers at every scale through GJK, EPA and the GJK ray cast
    /// (`Shape::intersects`, `query::intersects`, [`World::intersections_with_shape`],
    /// [`World::contact`], [`World::segment_cast`]): verdicts exactly, depths,
    /// points and hit points to within `1e-5·k`, normals and `t` to within
    /// `1e-5`. At `k = 1e38` (ends at `∓2e38`) the half-axis `(end −
    /// start)·0.5` was `∞`, every support point off to `±∞`, and the probe
    /// that overlaps by `0.03·k` was reported apart.
    #[test]
    fn cylinder_and_cone_queries_across_far_apart_ends() {
        let shape_at = |kind: &str, k: f32| match kind {
            "cylinder" => Shape::Cylinder(Cylinder::new(segment(k), 0.5 * k)),
            _ => Shape::Cone(Cone::new(at(START, k), at(END, k), 0.75 * k)),
        };
        for kind in ["cylinder", "cone"] {
            let unit = world_answers(&shape_at(kind, 1.0), 1.0);
            assert_eq!(
                unit.overlaps,
                [true, false],
                "{kind}: the near probe overlaps, the far one does not"
            );
            assert_eq!(
                unit.found, unit.overlaps,
                "{kind}: World::intersections_with_shape finds what overlaps"
            );
            let unit_hit = unit.hit.unwrap_or_else(|| panic!("{kind}: the segment crosses it"));
            for k in SCALES {
                let shape = shape_at(kind, k);
                let scaled = world_answers(&shape, k);
                assert_eq!(
                    scaled.overlaps, unit.overlaps,
                    "{kind} {shape:?} at scale {k:e}: intersects"
                );
                assert_eq!(
                    scaled.found, unit.found,
                    "{kind} {shape:?} at scale {k:e}: World::intersections_with_shape"
                );
                for (probe, (ours, theirs)) in scaled.contacts.iter().zip(&unit.contacts).enumerate() {
                    let what = format!("{kind} at scale {k:e}, World::contact with probe {probe}");
                    match (ours, theirs) {
                        (None, None) => {}
                        (Some(c), Some(u)) => {
                            assert_scaled_length(c.depth, u.depth, k, &format!("{what}: depth"));
                            assert_scaled(c.normal, u.normal, 1.0, &format!("{what}: normal"));
                            assert_scaled(c.point_a, u.point_a, k, &format!("{what}: point_a"));
                            assert_scaled(c.point_b, u.point_b, k, &format!("{what}: point_b"));
                        }
                        _ => panic!("{what}: {ours:?}, at unit scale {theirs:?}"),
                    }
                }
                let hit = scaled
                    .hit
                    .unwrap_or_else(|| panic!("{kind} {shape:?} at scale {k:e}: the segment crosses it, no hit"));
                let what = format!("{kind} at scale {k:e}, World::segment_cast");
                assert_scaled_length(hit.t, unit_hit.t, 1.0, &format!("{what}: t"));
                assert_scaled(hit.point, unit_hit.point, k, &format!("{what}: point"));
                assert_scaled(hit.normal, unit_hit.normal, 1.0, &format!("{what}: normal"));
            }
        }
    }

    /// `Support::support` (with its margin along `d/|d|`) and the cylinder's
    /// and cone's `core_support` (with the radius along the part of `d` across
    /// the axis) do not depend on the length of `d`: for directions scaled by
    /// 1e-25, 2⁻¹³⁰ (subnormal), 1e20, 1e30 and 1e38, on shapes at every
    /// scale, the support point is the unit-scale one scaled. In `f32`,
    /// `normalize_or_zero` of a direction of 1e20 is zero (`|d|² = ∞`: a
    /// sphere's support was its centre), the cross products `u × (d × u)` of
    /// one of 1e-25 square to 0 (a cylinder's support lost its radius), and
    /// the products `d·half` of a long direction and a long axis are `±∞`
    /// (`∞ − ∞` = NaN: the wrong end of the axis).
    #[test]
    fn supports_along_long_and_short_directions() {
        // Dyadic components of a few bits, so that even the subnormal
        // multiples (2⁻¹³⁰ ≈ 7e-40) are exact.
        let directions = [
            Vec3::new(1.0, 0.375, 0.25),
            Vec3::new(-1.0, 0.9375, 0.0),
            Vec3::new(0.3125, -0.375, 0.5),
            Vec3::new(-0.25, -1.0, 0.125),
            Vec3::X,
        ];
        let lengths = [1.0, 1e-25, 2f64.powi(-130) as f32, 1e20, 1e30, 1e38];
        let unit_shapes = shapes(1.0);
        for k in SCALES {
            for ((kind, shape), (_, unit)) in shapes(k).iter().zip(&unit_shapes) {
                for d in directions {
                    for length in lengths {
                        let what = format!("{kind} support along {d}·{length:e}");
                        assert_scaled(shape.support(d * length), unit.support(d), k, &what);
                        let core = shape.center() + shape.core_support(d * length);
                        let unit_core = unit.center() + unit.core_support(d);
                        assert_scaled(core, unit_core, k, &format!("{kind} core support along {d}·{length:e}"));
                    }
                }
            }
        }
        assert_eq!(Sphere::new(Vec3::ZERO, 1.0).support(Vec3::new(1e20, 0.0, 0.0)), Vec3::X);
        let cylinder = Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), 0.5);
        assert_eq!(
            cylinder.core_support(Vec3::new(1e20, 0.0, 0.0)),
            Vec3::new(0.5, 0.5, 0.0)
        );
    }

    /// A direction within 1e-20 to 1e-22 radians of a cylinder's or cone's
    /// axis puts the support point on the rim, exactly a radius out: the part
    /// of `d = (tilt, ±1, 0)` across the axis `Y` is `(tilt, 0, 0)`, exact,
    /// but its `f32` square is a subnormal with few digits (from 17 bits down
    /// to 3), and the "unit" vector divided by its root was off by up to a
    /// few percent: the support point off the rim, outside the shape when too
    /// long.
    #[test]
    fn supports_along_directions_nearly_along_the_axis() {
        let cylinder = Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), 0.5);
        let cone = Cone::new(Vec3::ZERO, Vec3::Y, 0.5);
        for tilt in [1e-20, 1e-21, 1e-22] {
            let up = Vec3::new(tilt, 1.0, 0.0);
            let down = Vec3::new(tilt, -1.0, 0.0);
            assert_eq!(cylinder.support(up), Vec3::new(0.5, 1.0, 0.0), "cylinder along {up}");
            assert_eq!(
                cylinder.support(down),
                Vec3::new(0.5, 0.0, 0.0),
                "cylinder along {down}"
            );
            assert_eq!(cone.support(down), Vec3::new(0.5, 0.0, 0.0), "cone along {down}");
        }
    }
    /// Asserts that `bounds` hold the shape's support points along the axes
    /// and diagonals (within `f32` rounding of their size).
    fn assert_holds_supports(shape: &Shape, bounds: &collide::Aabb, what: &str) {
        for i in 0..27 {
            let d = Vec3::new((i % 3) as f32 - 1.0, ((i / 3) % 3) as f32 - 1.0, (i / 9) as f32 - 1.0);
            if d == Vec3::ZERO {
                continue;
            }
            let p = shape.support(d).as_dvec3();
            let slack = 1e-6 * f64::from((bounds.max - bounds.min).abs().max_element());
            assert!(
                (0..3).all(|k| f64::from(bounds.min[k]) - slack <= p[k] && p[k] <= f64::from(bounds.max[k]) + slack),
                "{what}: the support along {d} at {p} outside {bounds:?}"
            );
        }
    }

    /// A cylinder and a cone with an axis of one subnormal step: the support
    /// mappings find no direction in the half-axis (zero in `f32`) and take
    /// the shape as round, and the bounds are a ball's to match.
    #[test]
    fn disc_bounds_of_a_subnormal_axis_are_a_balls() {
        let axis = Vec3::new(f32::from_bits(1), 0.0, 0.0);
        for shape in [
            Shape::Cylinder(Cylinder::new(Segment::new(Vec3::ZERO, axis), 0.5)),
            Shape::Cone(Cone::new(Vec3::ZERO, axis, 0.5)),
        ] {
            let bounds = shape.bounding_aabb();
            assert_holds_supports(&shape, &bounds, "a subnormal axis");
            assert!(bounds.max.x >= 0.5 && bounds.min.x <= -0.5, "{bounds:?}");
        }
    }

    /// A cylinder's and a cone's bounds hold their rims, and no more, for
    /// axes from 1e-30 to 1e30 long, tilted: the extents `r·√(1 − u_i²)`,
    /// checked in `f64` against the exact unit axis to the rounding of `f32`.
    /// With the axis normalised in `f32`, one whose square is subnormal
    /// (about 1e-22 long) had an inexact direction, and one whose square
    /// vanishes or overflows (1e-30, beyond 1.8e19) a ball's bounds.
    #[test]
    fn disc_bounds_hold_the_rim_for_any_axis_length() {
        let directions = [
            Vec3::new(0.3, 0.9, -0.2),
            Vec3::new(-0.7, 0.1, 0.6),
            Vec3::new(1e-3, 1.0, 2e-3),
        ];
        for length in [1e-30f32, 1e-22, 1e-19, 1.0, 1e19, 1e20, 1e30] {
            for dir in directions {
                let axis = (dir.as_dvec3().normalize() * f64::from(length)).as_vec3();
                let radius = 0.75;
                let cylinder = Shape::Cylinder(Cylinder::new(Segment::new(Vec3::ZERO, axis), radius));
                let cone = Shape::Cone(Cone::new(Vec3::ZERO, axis, radius));
                let u = axis.as_dvec3().normalize();
                for (name, shape) in [("cylinder", cylinder), ("cone", cone)] {
                    let bounds = shape.bounding_aabb();
                    assert_holds_supports(&shape, &bounds, name);
                    for i in 0..3 {
                        let reach = (1.0 - u[i] * u[i]).max(0.0).sqrt() * f64::from(radius);
                        // The rim of the disc at the origin, on both sides.
                        assert!(
                            f64::from(bounds.max[i]) >= reach * (1.0 - 1e-7)
                                && f64::from(bounds.min[i]) <= -reach * (1.0 - 1e-7),
                            "{name}, axis {axis} ({length:e}), axis {i}: bounds {bounds:?}, rim at ±{reach}"
                        );
                        // And not a ball's where the disc is narrower.
                        assert!(
                            f64::from(bounds.max[i]) <= f64::from(axis[i].max(0.0)) + reach * (1.0 + 1e-6) + 1e-30,
                            "{name}, axis {axis} ({length:e}), axis {i}: bounds {bounds:?} beyond the rim ±{reach}"
                        );
                    }
                }
            }
        }
    }
}

mod triangles {
    //! Triangles and triangle meshes at extreme sizes: the segment–triangle
    //! cast, a triangle's normal and area, a mesh's distance and the support
    //! mapping a generic convex query sees for a mesh.
    //!
    //! Each test takes a configuration whose answer is known at unit scale,
    //! scales it by `k` from 1e-30 to 1e30 (where its coordinates stay normal
    //! `f32` numbers), and checks that the answer is the unit-scale one scaled:
    //! the same `t` and normals to 1e-5, distances and depths to 1e-5 of `k`;
    //! some go on to the ends of the `f32` range. The plain `f32` formulas
    //! squared a cross product of edges (a fourth power of the size, which
    //! overflows beyond about 4e9 and underflows below about 1e-10) or a gap
    //! (which overflows beyond about 1.8e19); the mesh's support mapping was
    //! wrong at every scale (absolute where the trait wants centre-relative).

    use collide::math::Vec3;
    use collide::query::{contact, distance, intersects, shape_cast};
    use collide::shape::{Support, Triangle, TriangleMesh};
    use collide::{CastHit, ColliderDesc, QueryFilter, Segment, Shape, Sphere, World};
    use std::sync::Arc;

    /// The sizes the configurations are scaled by: their coordinates (at most
    /// a few times `k`) are normal `f32` numbers at every one.
    const SCALES: [f32; 9] = [1.0, 1e-30, 1e-20, 1e-12, 1e-5, 1e5, 1e10, 1e20, 1e30];

    /// Asserts `|got − want| <= 1e-5·size`, component by component.
    #[track_caller]
    fn near(got: Vec3, want: Vec3, size: f32, what: &str) {
        assert!(
            (got - want).abs().max_element() <= 1e-5 * size,
            "{what}: {got:?}, expected {want:?}"
        );
    }

    /// Asserts `|got − want| <= 1e-5·size`.
    #[track_caller]
    fn close(got: f32, want: f32, size: f32, what: &str) {
        assert!((got - want).abs() <= 1e-5 * size, "{what}: {got}, expected {want}");
    }

    /// Asserts a hit with the unit-scale hit's `t` and normal (to 1e-5).
    #[track_caller]
    fn same_hit(got: Option<CastHit>, want: CastHit, what: &str) {
        let got = got.unwrap_or_else(|| panic!("{what}: a hit, like {want:?} at unit scale"));
        close(got.t, want.t, 1.0, &format!("{what}: t"));
        near(got.normal, want.normal, 1.0, &format!("{what}: normal"));
    }

    /// A tilted triangle (unit normal `(−1, 0, 4)/√17`), its corners scaled by `k`.
    fn tilted(k: f32) -> Triangle {
        Triangle::new(
            Vec3::new(-1.0, -1.0, -0.25) * k,
            Vec3::new(1.0, -1.0, 0.25) * k,
            Vec3::new(0.0, 1.0, 0.0) * k,
        )
    }

    /// The segments cast at [`tilted`] (scaled by `k`): down through the
    /// face, up through it from below, one ending short of it, and one passing
    /// beside it.
    fn tilted_segments(k: f32) -> [Segment; 4] {
        [
            Segment::new(Vec3::new(0.25, 0.125, 3.0) * k, Vec3::new(-0.25, 0.0, -1.0) * k),
            Segment::new(Vec3::new(0.0, -0.5, -2.0) * k, Vec3::new(0.125, 0.0, 2.0) * k),
            Segment::new(Vec3::new(0.0, 0.0, 3.0) * k, Vec3::new(0.0, 0.0, 1.0) * k),
            Segment::new(Vec3::new(1.5, 0.0, 2.0) * k, Vec3::new(1.5, 0.0, -2.0) * k),
        ]
    }

    /// `Segment::cast_triangle` (Möller–Trumbore) formed `|d|·|e1 × e2|` from
    /// the square of a cross product of edges, a fourth power of the size: it
    /// overflowed to `∞` beyond about 4e9, where the relative test `|det| >
    /// ε·∞` missed every triangle, and underflowed below about 1e-10, where
    /// the normal (the same cross product normalised) came out zero; `det`, a
    /// cube, overflowed from about 7e12. Straight down through the triangle
    /// from `(0, 0, 2k)` to `(0, 0, −2k)` must hit half way with normal `+Z`
    /// at every scale, and a tilted triangle must give its unit-scale answers;
    /// so must a unit segment through a triangle of size `k` (the two are
    /// scaled apart), and triangles, segments and offsets spanning
    /// `±f32::MAX`, whose differences overflow `f32`.
    #[test]
    fn segment_cast_triangle_answers_as_at_unit_scale_at_every_scale() {
        let unit: Vec<Option<CastHit>> = tilted_segments(1.0)
            .iter()
            .map(|s| s.cast_triangle(&tilted(1.0)))
            .collect();
        assert!(
            unit[0].is_some() && unit[1].is_some() && unit[2].is_none() && unit[3].is_none(),
            "{unit:?}"
        );
        for k in SCALES {
            let flat = Triangle::new(
                Vec3::new(-1.0, -1.0, 0.0) * k,
                Vec3::new(1.0, -1.0, 0.0) * k,
                Vec3::new(0.0, 1.0, 0.0) * k,
            );
            let down = Segment::new(Vec3::new(0.0, 0.0, 2.0) * k, Vec3::new(0.0, 0.0, -2.0) * k);
            same_hit(
                down.cast_triangle(&flat),
                CastHit {
                    sub_shape: 0,
                    t: 0.5,
                    normal: Vec3::Z,
                },
                &format!("k = {k:e}, straight down"),
            );
            for (i, (segment, want)) in tilted_segments(k).iter().zip(&unit).enumerate() {
                let got = segment.cast_triangle(&tilted(k));
                let what = format!("k = {k:e}, tilted, segment {i}");
                match want {
                    Some(want) => same_hit(got, *want, &what),
                    None => assert_eq!(got, None, "{what}"),
                }
            }
            // A segment of unit length down through a triangle `k` times as
            // large or small, with a corner at the origin: `t = 1/4` at every
            // `k` (the edges and the segment are scaled apart, by different
            // powers of two).
            let corner = Triangle::new(Vec3::ZERO, Vec3::X * k, Vec3::Y * k);
            let unit_segment = Segment::new(Vec3::new(0.25 * k, 0.25 * k, 1.0), Vec3::new(0.25 * k, 0.25 * k, -3.0));
            same_hit(
                unit_segment.cast_triangle(&corner),
                CastHit {
                    sub_shape: 0,
                    t: 0.25,
                    normal: Vec3::Z,
                },
                &format!("k = {k:e}, a unit segment"),
            );
        }
        // Across the whole `f32` range: edges, directions and offsets beyond
        // `f32::MAX` overflow `f32`, but not the scaled ones. Through the plane
        // `y = 0` a quarter or half of the way along.
        let top = f32::MAX;
        let widest = Triangle::new(
            Vec3::new(-top, 0.0, -top),
            Vec3::new(top, 0.0, -top),
            Vec3::new(0.0, 0.0, top),
        );
        same_hit(
            Segment::new(Vec3::new(0.5, 1e38, 0.5), Vec3::new(0.5, -3e38, 0.5)).cast_triangle(&widest),
            CastHit {
                sub_shape: 0,
                t: 0.25,
                normal: Vec3::Y,
            },
            "a triangle spanning ±f32::MAX",
        );
        same_hit(
            Segment::new(Vec3::new(0.5, -top, 0.5), Vec3::new(0.5, top, 0.5)).cast_triangle(&widest),
            CastHit {
                sub_shape: 0,
                t: 0.5,
                normal: Vec3::NEG_Y,
            },
            "a segment spanning ±f32::MAX",
        );
        // `start − a` is `1.5·f32::MAX` along x.
        same_hit(
            Segment::new(
                Vec3::new(0.5 * top, 1e38, -0.9 * top),
                Vec3::new(0.5 * top, -3e38, -0.9 * top),
            )
            .cast_triangle(&widest),
            CastHit {
                sub_shape: 0,
                t: 0.25,
                normal: Vec3::Y,
            },
            "a segment 1.5·f32::MAX from the first corner",
        );
    }

    /// The cast scales its inputs by powers of two, which is exact: at the
    /// scale `2ᵉ`, from 2⁻¹²⁰ to 2¹²⁰ (every coordinate of the tilted
    /// configuration a normal `f32`), the answers and the triangle's normal are
    /// the unit-scale ones bit for bit, as the plain formula gave them only
    /// where none of its powers of the size overflowed or underflowed.
    #[test]
    fn segment_cast_triangle_is_exact_at_power_of_two_scales() {
        let unit: Vec<Option<CastHit>> = tilted_segments(1.0)
            .iter()
            .map(|s| s.cast_triangle(&tilted(1.0)))
            .collect();
        let unit_normal = tilted(1.0).normal();
        for e in [-120, -90, -60, -30, 0, 30, 60, 90, 120] {
            let k = 2f32.powi(e);
            for (i, (segment, want)) in tilted_segments(k).iter().zip(&unit).enumerate() {
                assert_eq!(segment.cast_triangle(&tilted(k)), *want, "2^{e}, segment {i}");
            }
            assert_eq!(tilted(k).normal(), unit_normal, "2^{e}: the normal");
        }
    }

    /// A sliver `1e-22` wide at unit scale: its edges are fine, but the
    /// square of their cross product `(0, 0, 1e-22)` is a subnormal `1e-44`
    /// (seven steps of the smallest subnormal), whose square root is 1% short.
    /// Normalised through it, the cast's and [`Triangle::normal`]'s normals had
    /// length 1.01, and [`Triangle::area`] was 1% short. A segment straight
    /// down must hit with the unit normal `+Z`, and so must one at a slope of
    /// `1e-5` to the plane that crosses it at the same point: the watertight
    /// cast decides by the signs of the edge functions, with no threshold on
    /// the angle.
    #[test]
    fn segment_cast_triangle_on_a_sliver_measures_its_cross_product_exactly() {
        let w = 1e-22;
        let sliver = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::new(1.0, w, 0.0));
        assert_eq!(sliver.normal(), Some(Vec3::Z), "the sliver's normal");
        let area = sliver.area();
        assert!((area / (0.5 * w) - 1.0).abs() <= 1e-6, "the sliver's area {area:e}");
        let down = Segment::new(Vec3::new(0.75, 0.5 * w, 1.0), Vec3::new(0.75, 0.5 * w, -1.0));
        let hit = down.cast_triangle(&sliver).expect("straight down through the sliver");
        assert_eq!((hit.t, hit.normal), (0.5, Vec3::Z), "straight down");
        let slope = 0.995e-5;
        let grazing = Segment::new(
            Vec3::new(0.25, 0.5 * w, 0.5 * slope),
            Vec3::new(1.25, 0.5 * w, -0.5 * slope),
        );
        let hit = grazing
            .cast_triangle(&sliver)
            .expect("a grazing segment through the sliver");
        assert_eq!((hit.t, hit.normal), (0.5, Vec3::Z), "grazing");
    }

    /// The same cast through [`World::segment_cast`], which sends a
    /// [`Shape::Triangle`] collider to `Segment::cast_triangle`: a world
    /// holding one triangle must report the unit-scale hit at every scale.
    #[test]
    fn world_segment_cast_on_a_triangle_collider_answers_as_at_unit_scale() {
        let segments = tilted_segments(1.0);
        let want = segments[0].cast_triangle(&tilted(1.0)).expect("a hit at unit scale");
        for k in SCALES {
            let mut world = World::new();
            let key = world.add(ColliderDesc::new(Shape::Triangle(tilted(k)))).unwrap();
            let segment = tilted_segments(k)[0];
            let hit = world
                .segment_cast(&segment, &QueryFilter::ALL)
                .unwrap()
                .unwrap_or_else(|| panic!("k = {k:e}: the world's triangle is hit"));
            assert_eq!(hit.collider, key, "k = {k:e}");
            same_hit(
                Some(CastHit {
                    sub_shape: 0,
                    t: hit.t,
                    normal: hit.normal,
                }),
                want,
                &format!("k = {k:e}"),
            );
        }
    }

    /// `Triangle::normal` normalised the cross product of the edges through its
    /// square, a fourth power of the size: `None` (a "degenerate" triangle)
    /// beyond about 1e10 and below about 1e-10; and `Triangle::area` took the
    /// length of that square, `∞` beyond about 4e9. The area `2k²` of the
    /// triangle with corners `(−k, −k)`, `(k, −k)`, `(0, k)` must be found to
    /// 1e-5 wherever it is a normal `f32` (from k = 1e-18 to k = 1.3e19, where
    /// the cross product's components themselves exceed `f32::MAX`), and `∞`
    /// beyond; triangles spanning `±f32::MAX`, whose edges overflow `f32`,
    /// have their normals.
    #[test]
    fn triangle_normal_and_area_answer_at_every_scale() {
        for k in SCALES.into_iter().chain([1e-18, 1e19, 1.3e19]) {
            let flat = Triangle::new(
                Vec3::new(-1.0, -1.0, 0.0) * k,
                Vec3::new(1.0, -1.0, 0.0) * k,
                Vec3::new(0.0, 1.0, 0.0) * k,
            );
            let what = format!("k = {k:e}");
            let normal = flat.normal().unwrap_or_else(|| panic!("{what}: a normal"));
            near(normal, Vec3::Z, 1.0, &what);
            let tilted_normal = tilted(k).normal().unwrap_or_else(|| panic!("{what}: a tilted normal"));
            near(tilted_normal, Vec3::new(-1.0, 0.0, 4.0) / 17f32.sqrt(), 1.0, &what);
            let area = f64::from(k) * f64::from(k) * 2.0;
            if (f64::from(f32::MIN_POSITIVE)..=f64::from(f32::MAX)).contains(&area) {
                let got = f64::from(flat.area());
                assert!(
                    (got / area - 1.0).abs() <= 1e-5,
                    "{what}: area {got:e}, expected {area:e}"
                );
            } else if area > f64::from(f32::MAX) {
                assert_eq!(flat.area(), f32::INFINITY, "{what}: an area beyond f32::MAX");
            }
        }
        // Edges of `2·f32::MAX`, beyond `f32`: taken in `f64` and scaled.
        let top = f32::MAX;
        let widest = Triangle::new(
            Vec3::new(-top, 0.0, -top),
            Vec3::new(top, 0.0, -top),
            Vec3::new(0.0, 0.0, top),
        );
        assert_eq!(widest.normal(), Some(Vec3::NEG_Y), "a triangle spanning ±f32::MAX");
        assert_eq!(
            widest.area(),
            f32::INFINITY,
            "the area of a triangle spanning ±f32::MAX"
        );
        let strip = Triangle::new(
            Vec3::new(-top, 0.0, 0.0),
            Vec3::new(top, 0.0, 0.0),
            Vec3::new(top, 0.0, 1.0),
        );
        assert_eq!(strip.normal(), Some(Vec3::NEG_Y), "a strip 2·f32::MAX long");
        assert_eq!(strip.area(), f32::MAX, "the area of a strip 2·f32::MAX long and 1 wide");
    }

    /// Two triangles of side ~2k, one in the plane `y = 3k` and one in
    /// `y = −2k` (both over the origin), as a mesh.
    fn two_floors(k: f32) -> TriangleMesh {
        TriangleMesh::new(
            vec![
                Vec3::new(-k, 3.0 * k, -k),
                Vec3::new(k, 3.0 * k, -k),
                Vec3::new(0.0, 3.0 * k, k),
                Vec3::new(-k, -2.0 * k, -k),
                Vec3::new(k, -2.0 * k, -k),
                Vec3::new(0.0, -2.0 * k, k),
            ],
            vec![[0, 1, 2], [3, 4, 5]],
        )
        .unwrap()
    }

    /// `TriangleMesh::distance` visits the triangles in order of a lower bound,
    /// the length of the gap between boxes, and stops at the first bound beyond
    /// the best distance. That length was `d.length()`, whose square overflows
    /// for gaps beyond about 1.8e19: every bound was `∞`, and the loop stopped
    /// after the first triangle (by index), at `y = 3k`, 2.5k away. A sphere of
    /// radius `k/2` at the origin is `1.5k` from the triangle at `y = −2k`, the
    /// nearest point `(0, −2k, 0)`, at every scale: by [`Shape::distance`],
    /// [`World::distance`] and [`World::closest`] with the mesh as a collider.
    #[test]
    fn mesh_distance_finds_the_nearest_triangle_at_every_scale() {
        for k in SCALES {
            let what = format!("k = {k:e}");
            let mesh = Shape::Mesh(Arc::new(two_floors(k)));
            let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5 * k));
            let d = mesh.distance(&ball);
            close(d.distance, 1.5 * k, k, &format!("{what}: Shape::distance"));
            near(
                d.point_a,
                Vec3::new(0.0, -2.0, 0.0) * k,
                k,
                &format!("{what}: on the mesh"),
            );
            near(
                d.point_b,
                Vec3::new(0.0, -0.5, 0.0) * k,
                k,
                &format!("{what}: on the ball"),
            );

            let mut world = World::new();
            let floors = world.add(ColliderDesc::new(mesh)).unwrap();
            let ball_key = world.add(ColliderDesc::new(ball.clone())).unwrap();
            let d = world.distance(floors, ball_key).unwrap();
            close(d.distance, 1.5 * k, k, &format!("{what}: World::distance"));
            near(
                d.point_a,
                Vec3::new(0.0, -2.0, 0.0) * k,
                k,
                &format!("{what}: World::distance"),
            );
            let (key, d) = world
                .closest(&ball, 10.0 * k, &QueryFilter::excluding(ball_key))
                .unwrap()
                .unwrap_or_else(|| panic!("{what}: the mesh is within reach"));
            assert_eq!(key, floors, "{what}");
            close(d.distance, 1.5 * k, k, &format!("{what}: World::closest"));
            near(
                d.point_b,
                Vec3::new(0.0, -2.0, 0.0) * k,
                k,
                &format!("{what}: World::closest"),
            );
        }
    }

    /// The one-triangle mesh with these corners, and the triangle.
    fn mesh_of(corners: [Vec3; 3]) -> (TriangleMesh, Triangle) {
        (
            TriangleMesh::new(corners.to_vec(), vec![[0, 1, 2]]).unwrap(),
            Triangle::new(corners[0], corners[1], corners[2]),
        )
    }

    /// One triangle off the origin, `(10, 0, 0)`, `(11, 0, 0)`, `(10, 1, 0)`
    /// scaled by `k`, as a mesh.
    fn off_origin(k: f32) -> (TriangleMesh, Triangle) {
        mesh_of([
            Vec3::new(10.0, 0.0, 0.0) * k,
            Vec3::new(11.0, 0.0, 0.0) * k,
            Vec3::new(10.0, 1.0, 0.0) * k,
        ])
    }

    /// The trait asks `Support::core_support` for the support point relative
    /// to `Support::center`; the mesh returned the absolute vertex, so every
    /// generic query handed a mesh saw it moved by its centre (`support(X)` of
    /// a triangle at `x ∈ [10, 11]` was 21.5). A one-triangle mesh must give
    /// the triangle's answers to [`intersects`], [`distance`], [`contact`] and
    /// [`shape_cast`], and its support points, at unit scale.
    #[test]
    fn generic_queries_see_a_one_triangle_mesh_as_its_triangle() {
        let (mesh, triangle) = off_origin(1.0);
        assert_eq!(mesh.support(Vec3::X), Vec3::new(11.0, 0.0, 0.0));
        assert_eq!(mesh.support(Vec3::Y), Vec3::new(10.0, 1.0, 0.0));
        assert_eq!(mesh.support(Vec3::NEG_X), triangle.support(Vec3::NEG_X));
        let touching = Sphere::new(Vec3::new(10.5, 0.2, 0.0), 0.1);
        assert!(intersects(&triangle, &touching));
        assert!(
            intersects(&mesh, &touching),
            "the mesh overlaps the sphere its triangle overlaps"
        );
        let apart = Sphere::new(Vec3::new(10.25, 0.25, 2.0), 0.5);
        let (want, got) = (distance(&triangle, &apart), distance(&mesh, &apart));
        close(got.distance, want.distance, 1.0, "distance");
        near(got.point_a, want.point_a, 1.0, "distance: on the mesh");
        let (want, got) = (contact(&triangle, &touching), contact(&mesh, &touching));
        let (want, got) = (want.expect("the triangle's contact"), got.expect("the mesh's contact"));
        close(got.depth, want.depth, 1.0, "contact depth");
        near(got.normal, want.normal, 1.0, "contact normal");
        let motion = Vec3::new(0.0, 0.0, -4.0);
        let want = shape_cast(&apart, motion, &triangle, Vec3::ZERO).expect("the sphere falls on the triangle");
        let got = shape_cast(&apart, motion, &mesh, Vec3::ZERO).expect("the sphere falls on the mesh");
        close(got.t, want.t, 1.0, "shape_cast t");
        near(got.normal, want.normal, 1.0, "shape_cast normal");
    }

    /// `Support::bounding_radius` of a mesh was `|half extents|`, whose square
    /// overflows beyond about 1.8e19: an infinite radius, which the generic
    /// queries take as the size of the problem (so they no longer bring it to
    /// unit scale, and their tolerances become `∞`: at k = 1e20 the sphere
    /// 1.5k away was at distance 0). The one-triangle mesh
    /// must have a finite radius and answer as its triangle at every scale; a
    /// mesh spanning `±f32::MAX` on every axis (half extents of length
    /// `√3·f32::MAX`) has the radius `f32::MAX`, as the other shapes saturate,
    /// and finite support points.
    #[test]
    fn generic_queries_on_a_mesh_answer_as_its_triangle_at_every_scale() {
        for k in SCALES {
            let what = format!("k = {k:e}");
            let (mesh, triangle) = off_origin(k);
            let radius = mesh.bounding_radius();
            assert!(radius.is_finite() && radius >= 0.5 * k, "{what}: radius {radius}");
            let apart = Sphere::new(Vec3::new(10.25, 0.25, 2.0) * k, 0.5 * k);
            let (want, got) = (distance(&triangle, &apart), distance(&mesh, &apart));
            close(got.distance, want.distance, k, &format!("{what}: distance"));
            close(got.distance, 1.5 * k, k, &format!("{what}: distance"));
            let touching = Sphere::new(Vec3::new(10.5, 0.2, 0.0) * k, 0.1 * k);
            assert!(intersects(&mesh, &touching), "{what}: overlap");
            let c = contact(&mesh, &touching).unwrap_or_else(|| panic!("{what}: a contact"));
            close(c.depth, 0.1 * k, k, &format!("{what}: depth"));
            let motion = Vec3::new(0.0, 0.0, -4.0) * k;
            let hit = shape_cast(&apart, motion, &mesh, Vec3::ZERO).unwrap_or_else(|| panic!("{what}: a swept hit"));
            close(hit.t, 1.5 / 4.0, 1.0, &format!("{what}: shape_cast t"));
            near(hit.normal, Vec3::NEG_Z, 1.0, &format!("{what}: shape_cast normal"));
        }
        // Two triangles in opposite corners of the range (each one's corners
        // within `f32::MAX` of each other): bounds `±f32::MAX` on every axis.
        let top = f32::MAX;
        let widest = TriangleMesh::new(
            vec![
                Vec3::splat(-top),
                Vec3::new(0.0, -top, -top),
                Vec3::new(-top, 0.0, -top),
                Vec3::splat(top),
                Vec3::new(0.0, top, top),
                Vec3::new(top, 0.0, top),
            ],
            vec![[0, 1, 2], [3, 4, 5]],
        )
        .unwrap();
        assert_eq!(
            widest.bounding_radius(),
            f32::MAX,
            "the radius of a mesh spanning ±f32::MAX"
        );
        for d in [Vec3::ONE, Vec3::NEG_ONE, Vec3::new(1.0, -1.0, 0.0)] {
            let s = widest.core_support(d);
            assert!(s.is_finite(), "support along {d:?}: {s:?}");
        }
    }
}

mod powers_of_two {
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
    use collide::shape::{Cylinder, Pose, Triangle};
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

    /// A hull against a hull and against a box through [`Shape::contact`]
    /// (the separating-axis test up to sizes of 1e±18, GJK and EPA at unit
    /// scale beyond): the same depth, normal and points, scaled, at every
    /// scale a hull can be built at (its points' squared lengths stay
    /// within `f32`), 2⁻⁶² to 2⁶².
    #[test]
    fn hull_contacts_answer_as_at_unit_scale_at_every_scale() {
        let scene = |k: f32| {
            let points = |at: Vec3| -> Vec<Vec3> {
                [
                    (1.0, 0.2, 0.1),
                    (-0.8, 0.9, 0.3),
                    (0.1, -1.0, 0.7),
                    (0.3, 0.4, -1.1),
                    (-0.5, -0.6, -0.4),
                    (0.9, 0.8, 0.6),
                ]
                .map(|(x, y, z)| (at + Vec3::new(x, y, z)) * k)
                .to_vec()
            };
            let hull = |at: Vec3| {
                Shape::Hull(std::sync::Arc::new(
                    collide::shape::ConvexHull::from_points(&points(at)).unwrap(),
                ))
            };
            let tilted = Shape::Obb(Obb::new(
                Vec3::new(1.2, 0.3, 0.0) * k,
                Quat::from_rotation_z(0.4),
                Vec3::splat(0.7 * k),
            ));
            (hull(Vec3::ZERO), hull(Vec3::new(1.1, 0.5, 0.2)), tilted)
        };
        let (a, b, obb) = scene(1.0);
        let want = [
            a.contact(&b).expect("the hulls overlap"),
            a.contact(&obb).expect("the box overlaps"),
        ];
        for e in [-62, -60, -40, -20, 20, 40, 60, 62] {
            let k = scale(e);
            let what = format!("2^{e}");
            let (a, b, obb) = scene(k);
            let got = [a.contact(&b), a.contact(&obb)];
            for (got, want) in got.iter().zip(&want) {
                let c = got.unwrap_or_else(|| panic!("{what}: a contact"));
                assert!(
                    (c.depth / k - want.depth).abs() <= 1e-5,
                    "{what}: {c:?} against {want:?}"
                );
                near(c.normal, want.normal, 1.0, &what);
                near(c.point_a / k, want.point_a, 6.0, &what);
                near(c.point_b / k, want.point_b, 6.0, &what);
            }
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
}

mod planes_and_polygons {
    //! The book's `Plane` and `ConvexPolygon` built at extreme sizes: a plane
    //! from three points or from a normal and a point, a convex polygon and
    //! its point test, each at `k` from 1e-30 to 1e38, give the unit-scale
    //! answer (normals to 1e-6, offsets to 1e-6 of `k`, verdicts exactly).
    //! In `f32` the plane from points compared a squared cross product (a
    //! fourth power of the size: infinite beyond about 4e9, below the normal
    //! range under about 1e-10) and refused every plane from 1e10 and at
    //! 1e-30; a normal longer than about 1.8e19 had an infinite squared
    //! length, one shorter than about 1e-23 a zero one (and below 1e-19 an
    //! inexact one); the polygon's
    //! squared extent and cross products overflowed from about 1.8e19 and
    //! vanished at 1e-30. Each test fails with those `f32` forms.

    use collide::math::{Mat3, Quat, Vec2, Vec3};
    use collide::shape::ConvexHull;
    use collide::{Aabb, ColliderDesc, ConvexPolygon, Error, Obb, Plane, Shape, Transform, World};
    use std::sync::Arc;

    /// The sizes, the unit one first.
    const SCALES: [f32; 9] = [1.0, 1e-30, 1e-20, 1e-10, 1e10, 1e19, 1e20, 1e30, 1e38];

    /// Three points spanning a plane, every coordinate within ±1 (so the
    /// offset stays below `f32::MAX` at 1e38).
    const A: Vec3 = Vec3::new(0.5, 1.0, -0.5);
    const B: Vec3 = Vec3::new(1.0, -0.5, 0.5);
    const C: Vec3 = Vec3::new(-0.5, 0.5, 1.0);

    /// The points of the hulls below, within ±1.2: eight spread around the
    /// origin (the hull's vertices) and one inside.
    const HULL_POINTS: [Vec3; 9] = [
        Vec3::new(1.0, 0.2, 0.1),
        Vec3::new(-0.9, 0.1, 0.3),
        Vec3::new(0.1, 1.1, -0.2),
        Vec3::new(0.2, -1.0, 0.1),
        Vec3::new(0.0, 0.1, 1.2),
        Vec3::new(0.1, 0.0, -0.9),
        Vec3::new(0.5, 0.5, 0.5),
        Vec3::new(-0.5, -0.4, -0.5),
        Vec3::new(0.1, 0.1, 0.1),
    ];

    fn assert_same_plane(plane: &Plane, unit: &Plane, k: f32, what: &str) {
        assert!(
            (plane.normal - unit.normal).abs().max_element() <= 1e-6,
            "{what} at {k:e}: {plane:?} against {unit:?}"
        );
        let d = f64::from(plane.d) / f64::from(k);
        assert!(
            (d - f64::from(unit.d)).abs() <= 1e-6,
            "{what} at {k:e}: d/k = {d}, unit {}",
            unit.d
        );
    }

    #[test]
    fn planes_from_points_are_the_unit_plane_scaled() {
        let unit = Plane::from_points(A, B, C).unwrap();
        for k in SCALES {
            let plane = Plane::from_points(A * k, B * k, C * k).unwrap_or_else(|e| panic!("{k:e}: {e}"));
            assert_same_plane(&plane, &unit, k, "from_points");
            assert!(
                (plane.normal.length() - 1.0).abs() <= 1e-6,
                "{k:e}: |n| = {}",
                plane.normal.length()
            );
            // Collinear points stay refused at every scale.
            let mid = (A + B) * 0.5;
            assert!(
                matches!(
                    Plane::from_points(A * k, B * k, mid * k),
                    Err(Error::InvalidArgument(_))
                ),
                "{k:e}: collinear points"
            );
        }
    }

    #[test]
    fn planes_from_a_normal_of_any_length_are_the_unit_plane() {
        let normal = Vec3::new(1.0, -2.0, 2.0);
        let unit = Plane::from_normal_and_point(normal, A).unwrap();
        for k in SCALES {
            let plane = Plane::from_normal_and_point(normal * k, A).unwrap_or_else(|e| panic!("{k:e}: {e}"));
            assert_same_plane(&plane, &unit, 1.0, "from_normal_and_point");
        }
        assert!(matches!(
            Plane::from_normal_and_point(Vec3::ZERO, A),
            Err(Error::InvalidArgument(_))
        ));
        // An offset beyond `f32`: a point near `f32::MAX` on the normal's diagonal.
        let far = Vec3::splat(f32::MAX);
        assert!(matches!(
            Plane::from_normal_and_point(Vec3::ONE, far),
            Err(Error::NonFinite(_))
        ));
    }

    /// A convex hull of the same points scaled by `k` from 1e-30 to 1e38 is
    /// the unit hull scaled: the same vertices (the points given), triangles
    /// and edges, the same plane normals, offsets, centre and radius times
    /// `k`. Built in `f32` at the points' own scale, its squared lengths and
    /// tolerances overflowed or vanished: refused as coincident below about
    /// 1e-22 and from about 1e20.
    #[test]
    fn convex_hulls_are_the_unit_hull_scaled() {
        let unit = ConvexHull::from_points(&HULL_POINTS).unwrap();
        for k in SCALES {
            let scaled: Vec<Vec3> = HULL_POINTS.iter().map(|p| *p * k).collect();
            let hull = ConvexHull::from_points(&scaled).unwrap_or_else(|e| panic!("{k:e}: {e}"));
            let unit_vertices: Vec<Vec3> = unit.vertices().iter().map(|v| *v * k).collect();
            assert_eq!(hull.vertices(), &unit_vertices[..], "{k:e}: vertices");
            assert_eq!(
                (hull.triangles(), hull.edges()),
                (unit.triangles(), unit.edges()),
                "{k:e}"
            );
            assert_eq!(hull.planes().len(), unit.planes().len(), "{k:e}: planes");
            for (plane, unit_plane) in hull.planes().iter().zip(unit.planes()) {
                assert_same_plane(plane, unit_plane, k, "hull plane");
            }
            let relative = |a: f32, b: f32| (f64::from(a) / f64::from(k) - f64::from(b)).abs() <= 1e-6;
            assert!(
                relative(hull.bounding_radius(), unit.bounding_radius()),
                "{k:e}: radius"
            );
            for axis in 0..3 {
                assert!(relative(hull.center()[axis], unit.center()[axis]), "{k:e}: centre");
            }
        }
        // Beyond `f32`: a cube of corners ±3e38 has a radius of 5.2e38.
        let corner = |bit: i32| if bit == 0 { -3e38 } else { 3e38 };
        let cube: Vec<Vec3> = (0..8)
            .map(|i| Vec3::new(corner(i & 1), corner(i & 2), corner(i & 4)))
            .collect();
        assert!(
            matches!(ConvexHull::from_points(&cube), Err(Error::InvalidArgument(_))),
            "a cube of ±3e38"
        );
        // Points one subnormal step apart: no centre strictly inside.
        let step = f32::from_bits(1);
        let tiny = [
            Vec3::ZERO,
            Vec3::new(step, 0.0, 0.0),
            Vec3::new(0.0, step, 0.0),
            Vec3::new(0.0, 0.0, step),
        ];
        assert!(
            matches!(ConvexHull::from_points(&tiny), Err(Error::InvalidArgument(_))),
            "subnormal steps"
        );
    }

    /// The unit hull placed by a uniform scale `k` from 1e-30 to 1e38 (and
    /// through a world collider's transform) is the hull of the scaled
    /// points: the same normals, offsets and radius times `k`. In `f32` the
    /// placement's determinant overflowed beyond about 7e12 and vanished
    /// below 1e-13, and the placement was refused.
    #[test]
    fn convex_hulls_placed_at_any_scale_are_the_hull_scaled() {
        let unit = ConvexHull::from_points(&HULL_POINTS).unwrap();
        for k in SCALES {
            let placed = unit
                .mapped(Mat3::from_diagonal(Vec3::splat(k)), Vec3::ZERO)
                .unwrap_or_else(|| panic!("{k:e}: refused"));
            let scaled: Vec<Vec3> = unit.vertices().iter().map(|v| *v * k).collect();
            assert_eq!(placed.vertices(), &scaled[..], "{k:e}: vertices");
            for (plane, unit_plane) in placed.planes().iter().zip(unit.planes()) {
                assert_same_plane(plane, unit_plane, k, "placed hull plane");
            }
            let radius = f64::from(placed.bounding_radius()) / f64::from(k);
            assert!(
                (radius - f64::from(unit.bounding_radius())).abs() <= 1e-6,
                "{k:e}: radius {radius}"
            );
            let mut world = World::new();
            let desc = ColliderDesc::new(Shape::Hull(Arc::new(unit.clone()))).with_transform(Transform {
                scale: Vec3::splat(k),
                ..Transform::IDENTITY
            });
            world.add(desc).unwrap_or_else(|e| panic!("{k:e}: {e}"));
        }
    }

    /// A box near `f32::MAX` against a plane it crosses: the centre's signed
    /// distance `n·c + d` has partial sums beyond `f32` (`0.6·3e38` twice)
    /// though the distance itself is small, and in `f32` it read `∞`: the
    /// box missed the plane. The answers are the ones at unit scale, scaled.
    #[test]
    fn boxes_meet_planes_near_f32_max() {
        let normal = Vec3::new(0.6, 0.6, -0.53).normalize();
        let unit_center = Vec3::splat(3.0);
        let unit_box = Obb::new(unit_center, Quat::IDENTITY, Vec3::splat(0.1));
        let unit_plane = Plane::from_normal_and_point(normal, unit_center - normal * 0.05).unwrap();
        let unit_push = unit_box
            .push_out_plane(&unit_plane)
            .expect("the unit box crosses the plane");
        for k in [1.0f32, 1e30, 1e38] {
            let center = unit_center * k;
            let obb = Obb::new(center, Quat::IDENTITY, Vec3::splat(0.1 * k));
            let plane = Plane::from_normal_and_point(normal, center - normal * (0.05 * k)).unwrap();
            assert!(obb.intersects_plane(&plane), "{k:e}: crosses");
            let push = obb.push_out_plane(&plane).expect("crosses");
            assert!(
                (f64::from(push) / f64::from(k) - f64::from(unit_push)).abs() <= 1e-5,
                "{k:e}: push {push:e}"
            );
            let radius = f64::from(obb.projected_radius(normal)) / f64::from(k);
            assert!(
                (radius - f64::from(unit_box.projected_radius(normal))).abs() <= 1e-6,
                "{k:e}: radius"
            );
            let aabb = Aabb::new(center - Vec3::splat(0.1 * k), center + Vec3::splat(0.1 * k));
            assert!(aabb.intersects_plane(&plane), "{k:e}: the box as an Aabb");
            let far = Plane::from_normal_and_point(normal, center - normal * (0.5 * k)).unwrap();
            assert!(
                !obb.intersects_plane(&far) && obb.push_out_plane(&far).is_none(),
                "{k:e}: apart"
            );
        }
    }

    #[test]
    fn convex_polygons_answer_as_at_unit_scale() {
        let outline = [
            Vec2::new(-1.0, -0.5),
            Vec2::new(0.5, -1.0),
            Vec2::new(1.0, 0.5),
            Vec2::new(-0.5, 1.0),
        ];
        let inside = [Vec2::new(0.0, 0.0), Vec2::new(0.9, 0.4), Vec2::new(-0.5, 1.0)];
        let outside = [Vec2::new(1.0, 1.0), Vec2::new(-1.0, 0.5), Vec2::new(0.0, -1.0)];
        for k in SCALES {
            let polygon =
                ConvexPolygon::new(outline.iter().map(|v| *v * k).collect()).unwrap_or_else(|e| panic!("{k:e}: {e}"));
            assert_eq!(polygon.orientation(), 1.0, "{k:e}");
            for p in inside {
                assert!(polygon.contains_point(p * k), "{k:e}: {p} inside");
            }
            for p in outside {
                assert!(!polygon.contains_point(p * k), "{k:e}: {p} outside");
            }
            // A dent stays refused at every scale.
            let dented: Vec<Vec2> = [outline[0], outline[1], Vec2::new(-0.2, 0.0), outline[3]]
                .iter()
                .map(|v| *v * k)
                .collect();
            assert!(ConvexPolygon::new(dented).is_err(), "{k:e}: dented");
        }
    }
}
