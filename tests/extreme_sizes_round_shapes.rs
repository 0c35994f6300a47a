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
/// [`World::overlap`] finds it), their contacts ([`World::contact`]), and
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
            .overlap(&Shape::Sphere(probe), &QueryFilter::ALL, |hit, _| found |= hit == key)
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
/// (`Shape::intersects`, `query::intersects`, [`World::overlap`],
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
        assert_eq!(unit.found, unit.overlaps, "{kind}: World::overlap finds what overlaps");
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
                "{kind} {shape:?} at scale {k:e}: World::overlap"
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
