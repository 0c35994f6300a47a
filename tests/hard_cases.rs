//! The hard cases of the narrow phase, each with its exact input: contact
//! points of boxes, shape-cast points, thin shapes far from the origin,
//! touching thin shapes, cylinders along a box's or triangle's edge, and a
//! zero-length segment inside a box. Every point is checked against its
//! shape by a distance computed here in `f64`.

use collide::math::{DVec3, Quat, Vec3};
use collide::shape::{ConvexHull, Cylinder, Triangle};
use collide::{query, Aabb, Capsule, ColliderDesc, Obb, QueryFilter, Segment, Shape, Sphere, World};

mod random;
use random::{seeded, Draw, TestRng};

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// The distance from `p` to the solid oriented box, in `f64`.
fn distance_to_obb(obb: &Obb, p: Vec3) -> f64 {
    let q = obb.rotation.as_dquat();
    let local = q.inverse() * (p.as_dvec3() - obb.center.as_dvec3());
    let h = obb.half_extents.as_dvec3();
    (local.abs() - h).max(DVec3::ZERO).length()
}

fn distance_to_aabb(aabb: &Aabb, p: Vec3) -> f64 {
    let p = p.as_dvec3();
    (aabb.min.as_dvec3() - p)
        .max(p - aabb.max.as_dvec3())
        .max(DVec3::ZERO)
        .length()
}

#[test]
fn a_face_contact_of_boxes_takes_its_points_from_the_overlap_of_the_faces() {
    let a = Aabb::new(Vec3::splat(-1.0), Vec3::ONE);
    let slab = Aabb::new(v(-10.0, 0.9, -10.0), v(10.0, 2.0, 10.0));
    for (first, second) in [(a, slab), (slab, a)] {
        let c = first.contact_aabb(&second).unwrap();
        assert!((c.depth - 0.1).abs() < 1e-6, "{c:?}");
        assert!(distance_to_aabb(&first, c.point_a) < 1e-6, "{c:?}");
        assert!(distance_to_aabb(&second, c.point_b) < 1e-6, "{c:?}");
        assert!((c.point_a - c.point_b - c.depth * c.normal).length() < 1e-6, "{c:?}");
    }
    let (oa, ob) = (Obb::from(a), Obb::from(slab));
    let c = oa.contact_obb(&ob).unwrap();
    assert!(
        distance_to_obb(&oa, c.point_a) < 1e-6 && distance_to_obb(&ob, c.point_b) < 1e-6,
        "{c:?}"
    );
}

#[test]
fn box_contact_points_lie_on_their_boxes() {
    let mut rng = seeded(21_001);
    let mut checked = 0;
    for _ in 0..20_000 {
        let offset = if rng.one_in(2) { rng.vec(-1e5, 1e5) } else { Vec3::ZERO };
        let random_box = |rng: &mut TestRng| {
            let half = Vec3::new(
                10f32.powf(rng.range(-2.0, 1.0)),
                10f32.powf(rng.range(-2.0, 1.0)),
                10f32.powf(rng.range(-2.0, 1.0)),
            );
            let rotation = if rng.one_in(3) { Quat::IDENTITY } else { rng.rotation() };
            Obb::new(offset + rng.vec(-3.0, 3.0), rotation, half)
        };
        let (a, b) = (random_box(&mut rng), random_box(&mut rng));
        let Some(c) = a.contact_obb(&b) else { continue };
        checked += 1;
        let size = f64::from(a.half_extents.length() + b.half_extents.length());
        let tol = 1e-5 * size + 4.0 * f64::from(f32::EPSILON) * f64::from(offset.abs().max_element());
        assert!(distance_to_obb(&a, c.point_a) <= tol, "{a:?} {b:?} {c:?}");
        assert!(distance_to_obb(&b, c.point_b) <= tol, "{a:?} {b:?} {c:?}");
        assert!((c.normal.length() - 1.0).abs() < 1e-5);
    }
    assert!(checked > 2_000, "only {checked} overlapping pairs");
}

/// A cylinder (radius 0.5, height 1.85) whose side runs along an edge of a
/// box, or of a triangle, and overlaps it by `δ <= 1e-4`: every query
/// reports the overlap. The tetrahedra of `A − B` around such a contact are
/// long and thin, and only a volume test that resolves their sign keeps GJK
/// going until it encloses the origin.
#[test]
fn a_cylinder_overlapping_an_edge_along_its_side_is_never_reported_apart() {
    let radius = 0.5f32;
    let cube = Aabb::new(Vec3::splat(-1.0), Vec3::ONE);
    let triangle = Triangle::new(v(1.0, 1.0, -1.5), v(1.0, 1.0, 1.5), v(-1.0, -0.5, 0.0));
    let mut rng = seeded(21_005);
    for i in 0..3_000 {
        let delta = 1e-6 + 1e-4 * rng.range(0.0, 1.0);
        // Outward directions from the edge x = y = 1 that keep the cylinder
        // off the box's faces (and on the triangle's outer side).
        let angle = rng.range(0.2, 1.4);
        let axis = v(1.0, 1.0, 0.0) + v(angle.cos(), angle.sin(), 0.0) * (radius - delta);
        let z = rng.range(-0.3, 0.3);
        let cylinder = Cylinder::new(
            Segment::new(axis + v(0.0, 0.0, z - 0.925), axis + v(0.0, 0.0, z + 0.925)),
            radius,
        );
        let mut world = World::new();
        let target = if i % 2 == 0 {
            Shape::Aabb(cube)
        } else {
            Shape::Triangle(triangle)
        };
        let a = world.add(ColliderDesc::new(target.clone())).unwrap();
        let b = world.add(ColliderDesc::new(Shape::Cylinder(cylinder))).unwrap();
        let what = format!("{target:?} {cylinder:?}");
        assert_eq!(world.distance(a, b).unwrap().distance, 0.0, "{what}");
        assert!(world.contact(a, b).unwrap().is_some(), "{what}");
        assert!(query::intersects(&cube, &cylinder) || i % 2 == 1, "{what}");
    }
}

/// A zero-length segment (a point) inside a solid hits at `t = 0` with the
/// outward normal of the surface nearest it, a unit normal like every other.
#[test]
fn a_point_inside_a_solid_takes_the_normal_of_its_way_out() {
    let p = v(0.25, 0.9, -0.1);
    let point = Segment::new(p, p);
    let cube = Aabb::new(Vec3::splat(-1.0), Vec3::ONE);
    let turned = Obb::new(Vec3::ZERO, Quat::from_rotation_y(0.3), Vec3::ONE);
    let hull = ConvexHull::from_points(
        &[-1.0f32, 1.0]
            .iter()
            .flat_map(|&x| [-1.0f32, 1.0].iter().flat_map(move |&y| [v(x, y, -1.0), v(x, y, 1.0)]))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let cylinder = Cylinder::new(Segment::new(v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0)), 1.0);
    let capsule = Capsule::new(Segment::new(v(0.0, -0.5, 0.0), v(0.0, 0.5, 0.0)), 1.0);
    let sphere = Sphere::new(Vec3::ZERO, 2.0);
    let cases: [(&str, Option<collide::query::CastHit>, Vec3); 6] = [
        ("aabb", point.cast_aabb(&cube), Vec3::Y),
        ("obb", point.cast_obb(&turned), Vec3::Y),
        ("hull", point.cast_hull(&hull), Vec3::Y),
        ("cylinder", point.cast_convex(&cylinder), Vec3::Y),
        ("capsule", point.cast_capsule(&capsule), v(0.25, 0.4, -0.1).normalize()),
        ("sphere", point.cast_sphere(&sphere), p.normalize()),
    ];
    for (what, hit, normal) in cases {
        let hit = hit.unwrap_or_else(|| panic!("{what}: a point inside misses"));
        assert_eq!(hit.t, 0.0, "{what}");
        assert!(
            (hit.normal - normal).length() < 1e-4,
            "{what}: {:?}, want {normal}",
            hit.normal
        );
    }
    // Through the world: a box collider, the point at its top.
    let mut world = World::new();
    world.add(ColliderDesc::new(Shape::Aabb(cube))).unwrap();
    let hit = world.segment_cast(&point, &QueryFilter::ALL).unwrap().unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, Vec3::Y));
    // A segment with length keeps `−d/|d|`.
    let moving = Segment::new(p, p + Vec3::X);
    assert_eq!(moving.cast_aabb(&cube).unwrap().normal, Vec3::NEG_X);
}

/// A sphere cast straight down onto a box 1000 wide lands at the exact
/// travel `y − r − 0.5`: the GJK ray cast's time is settled by the
/// distance of the shapes at that time, to a tolerance of the gap, not of
/// the box's width (it stopped 26 mm short, parry#429's class).
#[test]
fn a_sphere_cast_onto_a_wide_box_lands_at_the_exact_travel() {
    let extents = v(500.0, 0.5, 500.0);
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            let s = |bit: i32| if i & bit != 0 { 1.0 } else { -1.0 };
            extents * v(s(1), s(2), s(4))
        })
        .collect();
    let targets = [
        Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, extents)),
        Shape::Hull(ConvexHull::from_points(&corners).unwrap().into()),
    ];
    let ball = Sphere::new(v(-339.28574, 1.470725, -339.28574), 0.5166);
    let expected = (1.470725f64 - 0.5166f64) - 0.5;
    for target in targets {
        let mut world = World::new();
        world.add(ColliderDesc::new(target.clone())).unwrap();
        let hit = world
            .shape_cast(&Shape::Sphere(ball), v(0.0, -10.0, 0.0), &QueryFilter::ALL)
            .unwrap()
            .expect("the ball lands on the box");
        let travelled = f64::from(hit.t) * 10.0;
        assert!(
            (travelled - expected).abs() < 1e-4,
            "{target:?}: travelled {travelled}, expected {expected}"
        );
        assert!((hit.point.y - 0.5).abs() < 1e-4, "{hit:?}");
    }
}

/// Shapes overlapping at the start report `t = 0` with a point on the
/// target's surface (inside the moving shape), not the midpoint of the
/// contact points, which lies in neither surface.
#[test]
fn a_shape_cast_starting_in_overlap_reports_a_point_on_the_target() {
    let target = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::splat(0.5));
    let moving = Obb::new(v(0.1, 0.9, -0.2), Quat::IDENTITY, Vec3::splat(0.5));
    let hits = [
        Shape::Obb(moving).cast_shape(v(0.0, -1.0, 0.0), &Shape::Obb(target)),
        query::shape_cast(&moving, v(0.0, -1.0, 0.0), &target, Vec3::ZERO),
    ];
    for hit in hits {
        let hit = hit.expect("overlapping at the start");
        assert_eq!(hit.t, 0.0, "{hit:?}");
        // On the target's boundary: its largest face distance is zero.
        let local = hit.point.as_dvec3() - target.center.as_dvec3();
        let outside = (local.abs() - target.half_extents.as_dvec3()).max_element();
        assert!(outside.abs() < 1e-6, "{hit:?} is {outside} from the target's surface");
        assert!(
            distance_to_obb(&moving, hit.point) < 1e-6,
            "{hit:?} not in the moving box"
        );
    }
}
