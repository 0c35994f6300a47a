//! The hard cases of the narrow phase, each with its exact input: contact
//! points of boxes, shape-cast points, thin shapes far from the origin,
//! touching thin shapes, cylinders along a box's or triangle's edge, and a
//! zero-length segment inside a box. Every point is checked against its
//! shape by a distance computed here in `f64`.
//!
//! Then the degenerate inputs (zero sizes, coincident points, parallel
//! edges, coordinates around 1e5, NaN and infinities), which must give
//! finite, documented answers and never NaN or a panic.

mod common;

use collide::math::{DVec3, Quat, Vec3};
use collide::query::{contact, distance, intersects, shape_cast, time_of_impact, RigidMotion, ToiOptions};
use collide::shape::{Cone, ConvexHull, Cylinder, Pose, Support, Triangle};
use collide::{query, Aabb, Capsule, ColliderDesc, Error, Obb, QueryFilter, Segment, Shape, Sphere, World};
use common::float::*;
use common::geometry::*;
use common::oracle::Oracle;
use common::random::{seeded, Draw, TestRng};
use std::f32::consts::{FRAC_PI_4, SQRT_2};

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

/// A thin cone whose apex lies on a box's face touches it, in either order
/// (GJK's search direction off a long edge of `A − B` keeps the small
/// components that pick the next support point).
#[test]
fn a_thin_cone_touching_a_box_face_with_its_apex_is_at_distance_zero() {
    let slab = Aabb::new(
        v(-0.17871045, -0.4425324, -7.2483845),
        v(-0.002311378, 0.5075045, 7.4123397),
    );
    let cone = Cone::new(
        v(-0.090510905, -0.44469947, 0.081977665),
        v(-0.09051092, -0.4425324, 0.08197767),
        0.0010835375,
    );
    assert_eq!(query::distance(&slab, &cone).distance, 0.0);
    assert_eq!(query::distance(&cone, &slab).distance, 0.0);
    assert!(query::contact(&slab, &cone).is_some());
}

/// Thin shapes that share a point or overlap by a hair: an oriented box
/// 3.4e-3 long with a corner on a long thin triangle, and a sphere of
/// radius 1.8e-3 sunk 2.2e-5 into a cylinder. The distance is 0 and the
/// depth the overlap, within `1e-6` of the small shape's size.
#[test]
fn touching_and_barely_overlapping_thin_shapes() {
    let mut rng = seeded(21_004);
    for _ in 0..2_000 {
        let rotation = rng.rotation();
        let half = Vec3::new(1.7e-3, 2e-4, 1e-4);
        let center = rng.vec(-10.0, 10.0);
        let obb = Obb::new(center, rotation, half);
        let corner = center + rotation * half;
        let along = rng.rotation() * Vec3::X;
        let across = along.any_orthonormal_vector() * 1e-3;
        let triangle = Triangle::new(corner, corner + along * 20.0, corner + along * 10.0 + across);
        let d = query::distance(&obb, &triangle);
        assert!(d.distance <= 1e-6 * 3.4e-3 + 1e-6, "{obb:?} {triangle:?}: {d:?}");

        let cylinder = Cylinder::new(Segment::new(center, center + along), 0.5);
        let depth = 2.2e-5f32;
        let out = along.any_orthonormal_vector();
        let sphere = Sphere::new(center + along * 0.5 + out * (0.5 + 1.8e-3 - depth), 1.8e-3);
        let c = query::contact(&sphere, &cylinder).unwrap_or_else(|| panic!("{sphere:?} {cylinder:?}"));
        assert!((c.depth - depth).abs() <= 2e-6, "{sphere:?} {cylinder:?}: {c:?}");
    }
}
/// A disc (cylinder of radius 1, 2e-4 thick) and a flat cone of the same
/// size, each as a collider at `translation`.
fn thin_round_shapes() -> [(&'static str, Shape); 2] {
    let (low, high) = (v(0.0, -1e-4, 0.0), v(0.0, 1e-4, 0.0));
    [
        ("disc", Shape::Cylinder(Cylinder::new(Segment::new(low, high), 1.0))),
        ("flat cone", Shape::Cone(collide::shape::Cone::new(low, high, 1.0))),
    ]
}

#[test]
fn a_thin_cylinder_or_cone_far_from_the_origin_is_refused_rather_than_made_a_ball() {
    for (what, shape) in thin_round_shapes() {
        // At the origin the shape keeps its geometry: the segment half a
        // unit above it misses.
        let mut world = World::new();
        let key = world.add(ColliderDesc::new(shape.clone())).unwrap();
        let above = Segment::new(v(-2.0, 0.5, 0.0), v(2.0, 0.5, 0.0));
        assert_eq!(
            world.segment_cast(&above, &QueryFilter::ALL).unwrap(),
            None,
            "{what} at 0"
        );
        // Tilted there too (the rotation's rounding is far below the rim's
        // tolerance).
        let mut rng = seeded(0x7417);
        for _ in 0..200 {
            let turned = collide::Transform::new(Vec3::ZERO, rng.rotation(), 1.0);
            world.set_transform(key, turned).unwrap();
        }

        // At y = 1e4 both ends round to one `f32`: the placement would make
        // the disc a ball of radius 1, which the segment 0.5 above hits.
        // It is refused, or, if ever accepted, must keep its geometry.
        let far = collide::Transform::from_translation(v(0.0, 1e4, 0.0));
        let high = Segment::new(v(-2.0, 10000.5, 0.0), v(2.0, 10000.5, 0.0));
        let mut world = World::new();
        match world.add(ColliderDesc::new(shape.clone()).with_transform(far)) {
            Err(collide::Error::InvalidArgument(_)) => assert!(world.is_empty()),
            Err(e) => panic!("{what}: refused with {e:?}"),
            Ok(_) => assert_eq!(world.segment_cast(&high, &QueryFilter::ALL).unwrap(), None, "{what}"),
        }

        // Every update refuses it alike and leaves the collider as it was.
        let mut world = World::new();
        let key = world.add(ColliderDesc::new(shape.clone())).unwrap();
        let held = |world: &World| {
            let c = world.get(key).unwrap();
            (c.desc(), c.world_shape().into_owned(), *c.aabb())
        };
        let before = held(&world);
        assert!(
            matches!(world.set_transform(key, far), Err(collide::Error::InvalidArgument(_))),
            "{what}"
        );
        assert!(
            matches!(
                world.set_transforms(&[(key, far)]),
                Err(collide::Error::InvalidArgument(_))
            ),
            "{what}"
        );
        assert_eq!(held(&world), before, "{what}");
        let sphere = world
            .add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))).with_transform(far))
            .unwrap();
        assert!(
            matches!(
                world.set_shape(sphere, shape.clone()),
                Err(collide::Error::InvalidArgument(_))
            ),
            "{what}"
        );
        assert!(
            matches!(*world.get(sphere).unwrap().shape(), Shape::Sphere(_)),
            "{what}"
        );
        // Along an axis the direction is exact even where the length rounds
        // (2e-3 thick at 1e4: the ends stay apart), so that is accepted.
        let thicker = match &shape {
            Shape::Cylinder(c) => Shape::Cylinder(Cylinder::new(
                Segment::new(c.segment.start * 10.0, c.segment.end * 10.0),
                c.radius,
            )),
            Shape::Cone(c) => Shape::Cone(collide::shape::Cone::new(c.base_center * 10.0, c.apex * 10.0, c.radius)),
            _ => unreachable!(),
        };
        world.set_shape(sphere, thicker).unwrap();
        assert_eq!(
            world.segment_cast(&high, &QueryFilter::ALL).unwrap(),
            None,
            "{what} 2e-3 thick"
        );
    }
}

#[test]
fn ordinary_shapes_are_placed_anywhere_up_to_1e5_turned_any_way() {
    let axis = Segment::new(v(0.0, -0.5, 0.0), v(0.0, 0.5, 0.0));
    let hull =
        ConvexHull::from_points(&[v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 0.05, 0.0), v(0.0, 0.0, 1.0)]).unwrap();
    let shapes = [
        Shape::Cylinder(Cylinder::new(axis, 0.5)),
        Shape::Cone(collide::shape::Cone::new(axis.start, axis.end, 0.5)),
        Shape::Capsule(Capsule::new(axis, 0.5)),
        // A zero-length capsule is the sphere it approximates.
        Shape::Capsule(Capsule::new(Segment::new(v(0.0, -1e-4, 0.0), v(0.0, 1e-4, 0.0)), 1.0)),
        Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, v(1.0, 1e-4, 1.0))),
        Shape::Hull(std::sync::Arc::new(hull)),
    ];
    let mut rng = seeded(0x1e5);
    let mut world = World::new();
    for shape in shapes {
        for _ in 0..300 {
            let transform = collide::Transform::new(rng.vec(-1e5, 1e5), rng.rotation(), 1.0);
            let key = world
                .add(ColliderDesc::new(shape.clone()).with_transform(transform))
                .unwrap_or_else(|e| panic!("{shape:?} at {transform:?}: {e}"));
            // An oriented box keeps its exact centre and half-extents.
            if let (Shape::Obb(o), Shape::Obb(w)) = (&shape, &*world.get(key).unwrap().world_shape()) {
                assert_eq!((w.center, w.half_extents), (transform.translation, o.half_extents));
            }
        }
    }
}

/// The largest signed distance of `p` from the planes of `hull`, in `f64`,
/// with each plane's offset taken from the vertices (the exact supporting
/// plane of that normal), so stored offsets' rounding plays no part.
fn exact_plane_depth(hull: &ConvexHull, p: Vec3) -> f64 {
    let p = p.as_dvec3();
    hull.planes()
        .iter()
        .map(|plane| {
            let n = plane.normal.as_dvec3();
            let reach = hull
                .vertices()
                .iter()
                .map(|v| n.dot(v.as_dvec3()))
                .fold(f64::MIN, f64::max);
            n.dot(p) - reach
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn a_segment_through_a_thin_hull_far_from_the_origin_hits_it() {
    // A box 2e-3 thick at 9e3 (f32 ulp 1e-3 there): the segment's middle
    // is 1.1e-3 inside the exact hull of the corners. Plane distances in
    // f32 carried errors of that size and the cast missed.
    let corners = [
        v(8028.112, -4552.164, -3281.7612),
        v(8028.5605, -4550.406, -3282.6023),
        v(8027.328, -4552.7915, -3283.4912),
        v(8027.777, -4551.033, -3284.332),
        v(8028.11, -4552.163, -3281.7607),
        v(8028.5586, -4550.405, -3282.6016),
        v(8027.326, -4552.7905, -3283.4905),
        v(8027.775, -4551.032, -3284.3315),
    ];
    let hull = ConvexHull::from_points(&corners).unwrap();
    let segment = Segment::new(v(8027.531, -4551.287, -3282.9724), v(8028.356, -4551.909, -3283.1204));
    let middle = segment.start + (segment.end - segment.start) * 0.5;
    assert!(exact_plane_depth(&hull, middle) < -1e-3);
    assert!(hull.contains_point(middle));
    let hit = segment.cast_hull(&hull).expect("the segment passes through the hull");
    assert!(hit.t <= 0.5, "{hit:?}");
    let point = segment.start + (segment.end - segment.start) * hit.t;
    assert!(
        exact_plane_depth(&hull, point).abs() <= 4.0 * f64::from(f32::EPSILON) * 9.4e3,
        "{hit:?}"
    );
    // Through a world, as it is and moved there from the origin alike.
    let mut world = World::new();
    world
        .add(ColliderDesc::new(Shape::Hull(std::sync::Arc::new(hull.clone()))))
        .unwrap();
    assert!(world.segment_cast(&segment, &QueryFilter::ALL).unwrap().is_some());
    let c = hull.center();
    let at_origin = ConvexHull::from_points(&corners.map(|p| p - c)).unwrap();
    let mut world = World::new();
    world
        .add(
            ColliderDesc::new(Shape::Hull(std::sync::Arc::new(at_origin)))
                .with_transform(collide::Transform::from_translation(c)),
        )
        .unwrap();
    assert!(world.segment_cast(&segment, &QueryFilter::ALL).unwrap().is_some());

    // A flat box of near-duplicate corner pairs at 9e3 that a segment
    // passes 2.3e-3 from: every sample of it is outside a supporting plane
    // of the exact hull, so the cast rightly misses.
    let flat = ConvexHull::from_points(&[
        v(-975.00024, 2558.5999, 8883.587),
        v(-975.096, 2558.4678, 8883.471),
        v(-975.00037, 2558.5996, 8883.587),
        v(-974.9482, 2558.3357, 8883.499),
        v(-974.94806, 2558.3357, 8883.499),
        v(-974.8524, 2558.4678, 8883.615),
        v(-975.0959, 2558.4678, 8883.471),
        v(-974.85254, 2558.4678, 8883.615),
    ])
    .unwrap();
    let past = Segment::new(v(-974.65796, 2558.7827, 8883.328), v(-974.9396, 2558.3267, 8883.743));
    for i in 0..=32 {
        let p = past.start + (past.end - past.start) * (i as f32 / 32.0);
        assert!(exact_plane_depth(&flat, p) > 1e-3, "{i}");
    }
    assert_eq!(past.cast_hull(&flat), None);
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
            .cast_shape(&Shape::Sphere(ball), v(0.0, -10.0, 0.0), &QueryFilter::ALL)
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

/// A thin disc 3.38 above a box 6.6 wide: the distance's normal is the
/// face's, so the gap of the two shapes' projections along it is the
/// distance (a normal tilted by 1.4e-5 rad, which a progress test in `f32`
/// kept, lowers that gap by 9e-5 across the box's width).
#[test]
fn the_distance_normal_to_a_wide_face_is_the_face_normal() {
    let slab = Aabb::new(
        v(-2.3452652, -0.68084824, -2.3727632),
        v(4.252673, -0.6276406, 4.2251754),
    );
    let disc = Cylinder::new(
        Segment::new(v(0.9536978, 2.757434, 0.92620045), v(0.9537102, 2.757429, 0.92621154)),
        0.0042139934,
    );
    let d = query::distance(&slab, &disc);
    let n = d.normal.unwrap();
    assert!((n - Vec3::Y).length() < 1e-6, "{d:?}");
    assert!((d.distance - (d.point_b.y - slab.max.y)).abs() < 1e-6, "{d:?}");
}

/// A ball next to a capsule's axis, 1e-4 from it or on it, at coordinates
/// whose `f32` spacing is comparable: the contact normal is perpendicular
/// to the axis and the depth `r_a + r_b − distance`.
#[test]
fn a_ball_at_a_capsule_axis_is_pushed_out_across_the_axis() {
    // On the axis, at coordinates of about 0.8.
    let sphere = Sphere::new(v(-0.8091289, 0.61034656, 0.24985301), 0.0038534482);
    let capsule = Capsule::new(
        Segment::new(
            v(-0.81345177, 0.61102206, 0.24504976),
            v(-0.8086877, 0.6102776, 0.25034326),
        ),
        0.00010489239,
    );
    let axis = (capsule.segment.end - capsule.segment.start).normalize();
    let c = sphere.contact_capsule(&capsule).unwrap();
    assert!(c.normal.dot(axis).abs() < 1e-3, "{c:?}");
    // 1e-4 from the axis at coordinates of about 20.
    let capsule = Capsule::new(
        Segment::new(v(-10.20946, 22.299192, -7.117094), v(-10.205166, 22.29573, -7.1164546)),
        0.00013273185,
    );
    let sphere = Sphere::new(v(-10.207252, 22.297527, -7.1168313), 8.824593e-6);
    let c = capsule.contact_sphere(&sphere).unwrap();
    let (a, b) = (capsule.segment.start.as_dvec3(), capsule.segment.end.as_dvec3());
    let p = sphere.center.as_dvec3();
    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
    let off_axis = p - (a + (b - a) * t);
    let want = f64::from(capsule.radius) + f64::from(sphere.radius) - off_axis.length();
    assert!((f64::from(c.depth) - want).abs() < 1e-7, "{c:?}, want depth {want}");
    assert!((c.normal.as_dvec3() - off_axis.normalize()).length() < 1e-4, "{c:?}");
}

/// The distance from a point inside a cone to its surface, in `f64`, by the
/// axial–radial reduction: the least of the distances to the base plane and
/// to the slanted side's line in the half-plane `(axial, radial)`.
fn depth_inside_cone(cone: &Cone, p: Vec3) -> f64 {
    let (base, apex, p) = (cone.base_center.as_dvec3(), cone.apex.as_dvec3(), p.as_dvec3());
    let height = (apex - base).length();
    let u = (apex - base) / height;
    let (y, rho) = ((p - base).dot(u), (p - base).cross(u).length());
    let r = f64::from(cone.radius);
    // The side from (r, 0) to (0, height): unit outward normal (height, r)/|…|.
    let side = (height * (rho - r) + r * y) / (height * height + r * r).sqrt();
    (-side).min(y)
}

/// A ball sunk into a cone's side: the depth is the ball's radius plus its
/// centre's depth under the side, and the points satisfy
/// `point_a − point_b = depth·normal`. EPA's polytope inside the curved
/// difference stops 1e-3 short; the support values settle it.
#[test]
fn a_ball_sunk_into_a_cone_gets_the_depth_of_its_centre_under_the_side() {
    let ball = Sphere::new(v(-4.2929783, -2.3468099, -3.0793347), 0.1591037);
    let cone = Cone::new(
        v(-6.06395, 1.6587243, -1.1796227),
        v(-3.662348, -3.7731519, -3.7558086),
        3.2368853,
    );
    let c = query::contact(&ball, &cone).unwrap();
    let want = f64::from(ball.radius) + depth_inside_cone(&cone, ball.center);
    assert!((f64::from(c.depth) - want).abs() < 1e-4, "{c:?}, want depth {want}");
    assert!((c.point_a - c.point_b - c.depth * c.normal).length() < 1e-4, "{c:?}");
}

/// A tiny box 4.2 from the rim of a disc 20 wide: the distance equals the
/// separation of the two shapes' projections on the reported normal (GJK's
/// bounds stalled 3.6e-4 apart next to the disc's ruled side).
#[test]
fn the_distance_from_a_wide_disc_is_the_separation_along_its_normal() {
    let disc = Cylinder::new(
        Segment::new(
            v(0.23116685, 0.10458976, -0.79953796),
            v(-0.24965653, -0.108483344, 0.8077029),
        ),
        10.0,
    );
    let speck = Obb::new(
        v(-7.717459, 1.7936283, 3.2678993),
        Quat::from_xyzw(0.8782897, -0.21083924, -0.06804211, 0.42370293),
        v(1.809423e-5, 0.001, 0.000835371),
    );
    let d = query::distance(&disc, &speck);
    let n = d.normal.unwrap().as_dvec3();
    // The disc's farthest point along n: an end of the axis plus the radius
    // across it; the box's nearest: its centre less its projected radius.
    let (a, b) = (disc.segment.start.as_dvec3(), disc.segment.end.as_dvec3());
    let u = (b - a).normalize();
    let across = u.cross(n).cross(u).normalize();
    let disc_top = a.dot(n).max(b.dot(n)) + f64::from(disc.radius) * across.dot(n);
    let axes = [DVec3::X, DVec3::Y, DVec3::Z].map(|e| speck.rotation.as_dquat() * e);
    let reach: f64 = (0..3)
        .map(|i| f64::from(speck.half_extents[i]) * axes[i].dot(n).abs())
        .sum();
    let gap = speck.center.as_dvec3().dot(n) - reach - disc_top;
    assert!(
        (f64::from(d.distance) - gap).abs() < 2e-5,
        "{d:?}: the gap along its normal is {gap}"
    );
    assert!(
        (f64::from(d.distance) - (d.point_b - d.point_a).as_dvec3().length()).abs() < 2e-5,
        "{d:?}"
    );
}

/// Contacts of curved shapes whose EPA face did not hold the origin's
/// projection (a thin cone through a small cylinder, a small cylinder
/// touching a large one): the points still satisfy
/// `point_a − point_b = depth·normal`.
#[test]
fn curved_contacts_have_points_a_depth_apart_along_the_normal() {
    let cone = Cone::new(
        v(-7.0291667, 1.4680352, -19.037697),
        v(-15.114293, 18.461164, -12.26538),
        0.04463333,
    );
    let pin = Cylinder::new(
        Segment::new(v(-11.087256, 9.961808, -15.663131), v(-11.08717, 9.9626255, -15.664954)),
        0.001,
    );
    let small = Cylinder::new(
        Segment::new(
            v(0.036405753, -0.010991046, -0.009131311),
            v(0.03503347, -0.013473888, -0.010269985),
        ),
        0.0015284184,
    );
    let large = Cylinder::new(
        Segment::new(
            v(-1.0563489, 5.377286, -0.008630282),
            v(-4.5468683, -0.9380119, -2.904932),
        ),
        3.8876495,
    );
    for c in [
        query::contact(&cone, &pin).unwrap(),
        query::contact(&small, &large).unwrap(),
    ] {
        let off = (c.point_a - c.point_b - c.depth * c.normal).length();
        assert!(off < 1e-4 * (1.0 + c.depth), "{c:?}: off by {off}");
    }
}

/// A segment through a sliver triangle (0.13 long, its corners `b` and `c`
/// 0.014 apart): the hit point lies in the triangle's plane (the `f32`
/// cross products of the sliver's edges put it 1.8e-5 off).
#[test]
fn a_segment_through_a_sliver_triangle_hits_it_in_its_plane() {
    let sliver = Triangle::new(
        v(-0.05410053, -0.06066508, 0.015822005),
        v(0.061800923, 0.07188343, 0.020693459),
        v(0.07120782, 0.082362525, 0.021152925),
    );
    let segment = Segment::new(
        v(0.13191499, 0.06822176, 0.37485936),
        v(-0.044752907, -0.04621483, 0.00030811044),
    );
    let hit = segment.cast_triangle(&sliver).unwrap();
    let (a, b, c) = (sliver.a.as_dvec3(), sliver.b.as_dvec3(), sliver.c.as_dvec3());
    let n = (b - a).cross(c - a).normalize();
    let (s, e) = (segment.start.as_dvec3(), segment.end.as_dvec3());
    let point = s + (e - s) * f64::from(hit.t);
    assert!(
        n.dot(point - a).abs() < 1e-6,
        "{hit:?}: {} off the plane",
        n.dot(point - a)
    );
}

/// The projections of two capsules on a unit `n`: `[min − r, max + r]` of
/// their axes' ends, in `f64`.
fn capsule_interval(c: &Capsule, offset: DVec3, n: DVec3) -> (f64, f64) {
    let (a, b) = (
        (c.segment.start.as_dvec3() + offset).dot(n),
        (c.segment.end.as_dvec3() + offset).dot(n),
    );
    let r = f64::from(c.radius);
    (a.min(b) - r, a.max(b) + r)
}

/// Two capsules 3e-4 thick cast into each other at coordinates of 580
/// (spacing 6e-5): at the time of impact they touch along the normal
/// (positions taken absolutely there tilted it, a 5.8e-4 overlap).
#[test]
fn capsules_cast_far_from_the_origin_touch_along_the_normal() {
    let a = Capsule::new(
        Segment::new(v(579.69806, 214.76854, 844.4135), v(579.687, 214.76442, 844.4069)),
        1.51688255e-5,
    );
    let b = Capsule::new(
        Segment::new(v(579.69464, 214.76686, 844.41113), v(579.6909, 214.76549, 844.40894)),
        0.00029950944,
    );
    let motion = v(0.00016628199, -0.00015848581, -7.258047e-5);
    let hit = Shape::Capsule(a).cast_shape(motion, &Shape::Capsule(b)).unwrap();
    let n = hit.normal.as_dvec3();
    let moved = capsule_interval(&a, motion.as_dvec3() * f64::from(hit.t), n);
    let fixed = capsule_interval(&b, DVec3::ZERO, n);
    let gap = fixed.0 - moved.1;
    assert!(gap.abs() < 1e-4, "{hit:?}: the gap along the normal is {gap}");
}

/// A point 6e-7 from a cylinder's side: the closest point is that far from
/// it (the witness of a separation ascent too close to resolve was a
/// support point, 1.3e-5 away).
#[test]
fn the_closest_point_of_a_cylinder_to_a_point_next_to_it_is_next_to_it() {
    let mut world = World::new();
    let cylinder = Cylinder::new(
        Segment::new(
            v(0.60368973, 0.2898871, -0.7787202),
            v(0.5846314, 0.3421093, -0.8114423),
        ),
        0.10858374,
    );
    world.add(ColliderDesc::new(Shape::Cylinder(cylinder))).unwrap();
    let q = v(0.580424, 0.2833993, -0.90268916);
    let (_, d) = world.project_point(q, 1.0, &QueryFilter::ALL).unwrap().unwrap();
    assert!((d.point_b.distance(q) - d.distance).abs() < 1e-6, "{d:?}");
}

/// The projections of a convex hull's vertices on `n`, in `f64`.
fn hull_interval(hull: &ConvexHull, n: DVec3) -> (f64, f64) {
    hull.vertices()
        .iter()
        .map(|p| p.as_dvec3().dot(n))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

/// A small hull deep in a cylinder 20 wide: the depth is the overlap of the
/// two shapes' projections on the normal (EPA's converged face was 2e-3 off
/// the least overlap: a face of the polytope, not the boundary's).
#[test]
fn a_hull_deep_in_a_wide_cylinder_gets_the_overlap_along_its_normal() {
    let hull = ConvexHull::from_points(&[
        v(0.025632378, -0.21835294, 0.011329634),
        v(0.025661873, -0.21839291, 0.011411628),
        v(0.026472796, -0.21984696, 0.010299285),
        v(0.024794962, -0.2209228, 0.010490707),
        v(0.026502293, -0.21988691, 0.010381279),
        v(0.023925047, -0.21938883, 0.011439063),
        v(0.023954544, -0.2194288, 0.011521056),
        v(0.024765465, -0.22088285, 0.0104087135),
    ])
    .unwrap();
    let drum = Cylinder::new(
        Segment::new(v(12.488558, 14.323309, -2.855809), v(-4.584473, 3.963877, -1.7632115)),
        10.0,
    );
    let c = query::contact(&hull, &drum).unwrap();
    let n = c.normal.as_dvec3();
    let (a, b) = (drum.segment.start.as_dvec3(), drum.segment.end.as_dvec3());
    let u = (b - a).normalize();
    let across = u.cross(-n).cross(u).normalize();
    let drum_low = -((a.dot(-n)).max(b.dot(-n)) + f64::from(drum.radius) * across.dot(-n));
    let overlap = hull_interval(&hull, n).1 - drum_low;
    assert!(
        (f64::from(c.depth) - overlap).abs() < 2e-4,
        "{c:?}: the overlap along its normal is {overlap}"
    );
}

/// A capsule deep in a cylinder: the depth is the least overlap, 0.7902
/// (parry3d's answer, and the overlap along its normal), not the local
/// minimum 0.8020 a descent from EPA's closest face alone settles in.
#[test]
fn a_capsule_deep_in_a_cylinder_gets_the_least_overlap() {
    let capsule = Capsule::new(
        Segment::new(
            v(0.0035649836, 0.45310348, -0.5366999),
            v(0.119770974, -0.21057636, 1.2009623),
        ),
        0.61818963,
    );
    let cylinder = Cylinder::new(
        Segment::new(
            v(-0.11881658, -1.1495565, 1.5994544),
            v(-0.0894813, -0.3897605, 1.9696445),
        ),
        0.9710274,
    );
    let c = query::contact(&capsule, &cylinder).unwrap();
    assert!(c.depth < 0.7905, "{c:?}");
}

/// A flat triangle lying in a box's face at 1e4: the distance is never
/// negative, and a pin 2.45 from a cylinder 20 wide has witnesses that far
/// apart (the ascent's witnesses were taken from cores brought only to a
/// tenth of the distance, whose closest points turned).
#[test]
fn distances_are_never_negative_and_match_their_witnesses() {
    let slab = Aabb::new(v(67.54995, -12195.133, 8387.732), v(71.10272, -12191.58, 8391.285));
    let sliver = Triangle::new(
        v(67.54954, -12193.356, 8387.732),
        v(67.5501, -12193.356, 8387.732),
        v(67.54972, -12193.326, 8387.732),
    );
    let d = query::distance(&slab, &sliver);
    assert!(d.distance >= 0.0, "{d:?}");
    let pin = Cylinder::new(
        Segment::new(
            v(-0.04398717, 0.02621204, 0.041656114),
            v(-0.04399212, 0.026213123, 0.041656196),
        ),
        0.001,
    );
    let drum = Cylinder::new(
        Segment::new(
            v(-1.6259136, -3.3409047, -7.3237724),
            v(-2.048077, -11.992774, -6.1861696),
        ),
        10.0,
    );
    let d = query::distance(&pin, &drum);
    assert!((d.point_b.distance(d.point_a) - d.distance).abs() < 1e-4, "{d:?}");
}

/// Segments into a thin hull (a box 0.4 x 0.004 x 0.3) at coordinates of
/// 5e3, whose `f32` spacing is 5e-4: every hit lies on the hull to 1e-5
/// (its planes' offsets from the world's origin, rounded there, put hits
/// up to 1.7e-4 off).
#[test]
fn segments_into_a_thin_hull_far_from_the_origin_hit_its_surface() {
    let mut rng = seeded(21_013);
    let center = v(5000.0, -3000.0, 2000.0);
    let rotation = rng.rotation();
    let half = v(0.2, 0.002, 0.15);
    let points: Vec<Vec3> = (0..8)
        .map(|i| {
            let s = |bit: u32| if i & bit != 0 { 1.0 } else { -1.0 };
            center + rotation * (half * v(s(1), s(2), s(4)))
        })
        .collect();
    let hull = ConvexHull::from_points(&points).unwrap();
    let oracle = common::oracle::Oracle::of_hull(&hull);
    let mut worst = 0.0f64;
    for _ in 0..500 {
        let from = center + rng.rotation() * v(1.0, 0.0, 0.0);
        let to = center + rng.vec(-0.1, 0.1);
        let segment = Segment::new(from, from + (to - from) * 2.0);
        let Some(hit) = segment.cast_hull(&hull) else { continue };
        let (s, e) = (segment.start.as_dvec3(), segment.end.as_dvec3());
        worst = worst.max(oracle.signed_distance(s + (e - s) * f64::from(hit.t)).abs());
    }
    assert!(worst < 1e-5, "a hit {worst} from the hull");
}

/// A box whose top face is folded by 1e-5 (one top corner raised): the
/// two halves of the top stay two planes (merged within a tolerance of
/// 1e-5 of the size, they made one supporting plane that added a sliver
/// above the lower half), so a point just above the lower half is outside.
#[test]
fn a_folded_face_keeps_both_planes() {
    let mut points: Vec<Vec3> = (0..8)
        .map(|i| v((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
        .collect();
    points[7].y += 1e-5; // the corner (1, 1, 1)
    let hull = ConvexHull::from_points(&points).unwrap();
    assert_eq!(hull.planes().len(), 7);
    // Above the corner (0, 1, 0), on the lower half's side of the fold.
    assert!(!hull.contains_point(v(0.01, 1.0 + 4e-6, 0.01)));
    assert!(hull.contains_point(v(0.01, 1.0 - 4e-6, 0.01)));
}

/// A small hull cast onto a capsule: the reported point lies on the hull
/// at the time of impact and on the capsule (the capsule's margin was grown
/// along the cast's normal where the core witnesses are apart along the
/// closest points' direction, and the point, their midpoint, left the hull
/// by 1.4e-4).
#[test]
fn a_hull_cast_onto_a_capsule_reports_a_point_on_both() {
    let points = [
        v(0.04826632, -0.17641115, 0.7132698),
        v(0.037104942, -0.19004117, 0.7106621),
        v(0.029065473, -0.20085299, 0.71169025),
        v(0.028354788, -0.20215954, 0.71242803),
        v(0.027176764, -0.2073752, 0.7202066),
        v(0.028207563, -0.20251404, 0.7130675),
        v(0.04829883, -0.17777891, 0.7163823),
    ];
    let hull = ConvexHull::from_points(&points).unwrap();
    let capsule = Capsule::new(
        Segment::new(
            v(1.1822946, 0.013694103, 0.37621322),
            v(0.21874276, -1.3758562, 0.6095987),
        ),
        0.85348564,
    );
    let motion = v(5.6955916e-5, -4.585929e-5, -2.7690621e-5);
    let hit = query::shape_cast(&hull, motion, &capsule, Vec3::ZERO).unwrap();
    let moved = ConvexHull::from_points(&points.map(|p| p + motion * hit.t)).unwrap();
    let off_hull = common::oracle::Oracle::of_hull(&moved).signed_distance(hit.point.as_dvec3());
    let (a, b) = (capsule.segment.start.as_dvec3(), capsule.segment.end.as_dvec3());
    let p = hit.point.as_dvec3();
    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
    let off_capsule = (p - (a + (b - a) * t)).length() - f64::from(capsule.radius);
    assert!(
        off_hull.abs() < 2e-5 && off_capsule.abs() < 2e-5,
        "{hit:?}: {off_hull} from the hull, {off_capsule} from the capsule"
    );
}

/// A short capsule 3.5e-4 from a ball of radius 1: the witnesses are the
/// distance apart (the radii were grown along the settled normal, not the
/// direction the cores' witnesses are apart, and they came 5.5e-4 apart).
#[test]
fn round_shapes_apart_have_witnesses_the_distance_apart() {
    let mut world = World::new();
    let capsule = Capsule::new(
        Segment::new(
            v(0.48499393, -2.1740336, -0.71698904),
            v(0.48652846, -2.1734037, -0.71810645),
        ),
        4.3898133e-5,
    );
    let ball = Sphere::new(v(1.0260502, -2.0074234, 0.118133895), 1.0085275);
    let a = world.add(ColliderDesc::new(Shape::Capsule(capsule))).unwrap();
    let b = world.add(ColliderDesc::new(Shape::Sphere(ball))).unwrap();
    let d = world.distance(a, b).unwrap();
    assert!((d.point_b.distance(d.point_a) - d.distance).abs() < 2e-5, "{d:?}");
}

/// Two boxes that the separating-axis test takes for touching but that meet
/// only within rounding at a face's rim: the contact's points are on their
/// boxes and together (the deepest corner's fallback reported the far
/// corner of a box 20 wide).
#[test]
fn boxes_touching_at_a_rim_report_points_on_both() {
    let small = Aabb::new(
        v(0.04622488, 0.88522035, 0.3624902),
        v(0.048224878, 0.8872203, 0.36254165),
    );
    let large = Aabb::new(
        v(-19.953775, 0.88722056, -9.637484),
        v(0.046224654, 20.88722, 10.362516),
    );
    let c = small.contact_aabb(&large).unwrap();
    assert!(
        distance_to_aabb(&small, c.point_a) < 1e-6 && distance_to_aabb(&large, c.point_b) < 1e-6,
        "{c:?}"
    );
    assert!((c.point_a - c.point_b - c.depth * c.normal).length() < 1e-5, "{c:?}");
}

/// The gap between `a` and `b` along `n` (from `a` to `b`), by the oracle:
/// `0` for shapes that touch with normal `n`.
fn gap_along(a: &Shape, b: &Shape, n: Vec3) -> f64 {
    let n = n.as_dvec3().normalize();
    Oracle::of(b).interval(n).0 - Oracle::of(a).interval(n).1
}

#[test]
fn a_sphere_cast_onto_the_middle_of_a_wide_face_takes_the_face_normal() {
    // The closest point of the box to the centre is 2e-5 off the face's
    // diagonal: GJK's progress across it is below the `f32` rounding of
    // `|v|`, and a direction rounded there tilts by 1e-4 rad, 7e-5 of gap
    // across the face.
    let ball = Shape::Sphere(Sphere::new(v(-0.3332528, 0.11819814, 0.53852093), 0.07141077));
    let motion = v(-0.0040157354, 0.03617961, -0.024742547);
    let obb = Obb::new(
        v(-0.3704336, 0.55251545, 0.87369937),
        Quat::from_xyzw(0.36944783, 0.2423414, 0.42626792, -0.7893508),
        v(0.47845522, 0.6628404, 0.47845522),
    );
    let target = Shape::Obb(obb);
    let hit = ball.cast_shape(motion, &target).unwrap();
    let moved = Shape::Sphere(Sphere::new(
        v(-0.3332528, 0.11819814, 0.53852093) + motion * hit.t,
        0.07141077,
    ));
    let gap = gap_along(&moved, &target, hit.normal);
    assert!(gap.abs() < 2e-6, "gap {gap:e} along {hit:?}");
    let face = obb.rotation * Vec3::Z;
    assert!(
        hit.normal.dot(face) > 1.0 - 1e-9,
        "{hit:?} against the face normal {face:?}"
    );
}

#[test]
fn a_disc_barely_in_a_long_box_gets_the_overlap_along_the_face_normal() {
    // The least overlap lies in a valley of the support values 1e-4 rad
    // wide (the box is 20 long across it), which a search along two
    // tangent axes does not follow; the witnesses' direction does.
    let long_box = Shape::Obb(Obb::new(
        v(-1.8224516, -2.2351804, 1.1615009),
        Quat::from_xyzw(-0.4399982, 0.36382848, 0.78873986, 0.22785947),
        v(0.675955, 0.6759546, 9.999999),
    ));
    let disc = Shape::Cylinder(Cylinder::new(
        seg(
            v(-1.3624341, -1.8077332, 0.9087317),
            v(-1.3624043, -1.8078077, 0.9087353),
        ),
        0.001,
    ));
    let c = long_box.contact(&disc).unwrap();
    let overlap = -gap_along(&long_box, &disc, c.normal);
    assert!(
        (f64::from(c.depth) - overlap).abs() < 1e-5,
        "depth {c:?}, overlap {overlap:e}"
    );
    assert!(c.depth < 1e-5, "{c:?}");
}

#[test]
fn a_segment_grazing_the_rim_of_a_thin_hull_agrees_with_its_vertices() {
    // Faces meeting at 0.03 rad: a plane leaning out by the builder's
    // tolerance moves their edge 7e-5 out.
    let hull = ConvexHull::from_points(&[
        v(-6.9184074, 55.904373, 8.581486),
        v(-6.907549, 55.88572, 8.455494),
        v(-6.9074736, 55.886242, 8.458777),
        v(-6.8823953, 55.84479, 8.178076),
        v(-6.8913565, 55.85914, 8.275463),
        v(-6.894032, 55.86454, 8.311587),
        v(-6.88412, 55.84736, 8.195602),
        v(-6.8823214, 55.84497, 8.179148),
    ])
    .unwrap();
    let s = seg(v(-6.9187446, 55.91581, 8.19139), v(-6.739283, 55.564667, 8.125319));
    let oracle = Oracle::of_hull(&hull);
    match s.cast_hull(&hull) {
        None => {
            // No point of the segment is in the hull, by the oracle.
            let deepest = (0..=1000)
                .map(|i| oracle.signed_distance(s.point_at(i as f32 / 1000.0).as_dvec3()))
                .fold(f64::INFINITY, f64::min);
            assert!(deepest > -1e-6, "a miss through a point {deepest:e} inside");
        }
        Some(hit) => {
            let p = s.point_at(hit.t).as_dvec3();
            assert!(oracle.signed_distance(p).abs() < 4e-5, "{hit:?}");
        }
    }
    assert_eq!(s.cast_hull(&hull), s.cast_convex(&hull));
}

#[test]
fn a_tiny_ball_cast_onto_a_box_far_from_the_origin_takes_the_face_normal() {
    // At 2e4 the ball (radius 2.6e-4) is smaller than the spacing of `f32`
    // coordinates (2e-3): its centre and the box point round together.
    let ball = Sphere::new(v(-19935.46, -4975.1475, -3696.7832), 0.0002579735);
    let b = Aabb::new(
        v(-19935.512, -4975.269, -3696.797),
        v(-19935.484, -4975.0117, -3696.7695),
    );
    let hit = ball.cast_aabb(v(-0.06218719, 0.18736516, -0.018613733), &b).unwrap();
    assert!((hit.normal - Vec3::NEG_X).length() < 1e-6, "{hit:?}");
}

#[test]
fn a_small_ball_cast_onto_a_thin_capsule_touches_along_the_normal() {
    // The centre ends 6.6e-5 from the axis, coordinates near 1: the offset
    // between them in `f32` turns the normal by 1e-3 rad.
    let capsule = Capsule::new(
        seg(
            v(0.85459983, 0.43546125, 0.32697982),
            v(0.8711365, 0.424109, 0.31520653),
        ),
        5.003598e-5,
    );
    let ball = Sphere::new(v(0.86282337, 0.42974174, 0.3210721), 1.5741021e-5);
    let motion = v(3.2001295e-5, 6.17928e-6, -8.619254e-6);
    let hit = ball.cast_capsule(motion, &capsule, Vec3::ZERO).unwrap();
    let moved = Shape::Sphere(Sphere::new(ball.center + motion * hit.t, ball.radius));
    let gap = gap_along(&moved, &Shape::Capsule(capsule), hit.normal);
    assert!(gap.abs() < 1e-7, "gap {gap:e} along {hit:?}");
}

#[test]
fn a_card_on_the_edge_of_a_big_box_has_points_a_depth_apart() {
    // The edge axis wins, but the card's edges are 1e-5 long and do not
    // cross the big box's: the points come from the boxes moved apart.
    let big = Obb::new(
        v(-0.16403952, 0.0045088525, 0.018510232),
        Quat::from_xyzw(0.3528171, 0.44036096, -0.7845332, -0.25711876),
        Vec3::splat(10.0),
    );
    let card = Obb::new(
        v(5.0972033, -11.936791, -5.434001),
        Quat::from_xyzw(-0.9650676, 0.008143723, -0.09845941, 0.24266009),
        v(0.00056587666, 5.632947e-6, 0.001),
    );
    let c = big.contact_obb(&card).unwrap();
    let off = (c.point_a - c.point_b).as_dvec3() - c.normal.as_dvec3() * f64::from(c.depth);
    assert!(off.length() < 2e-4, "{c:?}: off by {off:?}");
    assert!(
        distance_to_obb(&big, c.point_a) < 1e-5 && distance_to_obb(&card, c.point_b) < 1e-5,
        "{c:?}"
    );
}

// ---------------------------------------------------------------------------
// Degenerate inputs: finite, documented answers
// ---------------------------------------------------------------------------

/// Zero-size and flat shapes of every kind.
fn degenerate_shapes(at: Vec3) -> Vec<Shape> {
    vec![
        Shape::Sphere(Sphere::new(at, 0.0)),
        Shape::Aabb(Aabb::new(at, at)),
        Shape::Aabb(Aabb::new(at, at + v(1.0, 0.0, 0.0))),
        Shape::Aabb(Aabb::new(at, at + v(1.0, 1.0, 0.0))),
        Shape::Obb(Obb::new(at, Quat::from_rotation_x(0.3), Vec3::ZERO)),
        Shape::Capsule(Capsule::new(seg(at, at), 0.5)),
        Shape::Capsule(Capsule::new(seg(at, at + Vec3::X), 0.0)),
        Shape::Capsule(Capsule::new(seg(at, at), 0.0)),
        Shape::Triangle(Triangle::new(at, at, at)),
        Shape::Triangle(Triangle::new(at, at + Vec3::X, at + v(2.0, 0.0, 0.0))),
        Shape::Cylinder(Cylinder::new(seg(at, at), 0.5)),
        Shape::Cylinder(Cylinder::new(seg(at, at + Vec3::Y), 0.0)),
        Shape::Cone(Cone::new(at, at, 0.5)),
        Shape::Cone(Cone::new(at, at + Vec3::Y, 0.0)),
    ]
}

fn check_every_query(a: &Shape, b: &Shape) {
    let d = distance(a, b);
    assert_finite_distance(&d);
    let _ = intersects(a, b);
    if let Some(c) = contact(a, b) {
        assert_finite_contact(&c);
    }
    if let Some(c) = a.contact(b) {
        assert_finite_contact(&c);
    }
    for motion in [Vec3::ZERO, v(0.5, -0.3, 0.2), v(-30.0, 1.0, 0.0)] {
        if let Some(hit) = shape_cast(a, motion, b, Vec3::ZERO) {
            assert!(hit.t.is_finite() && (0.0..=1.0).contains(&hit.t), "{a:?} {b:?} {hit:?}");
            assert!(hit.point.is_finite() && hit.normal.is_finite(), "{a:?} {b:?} {hit:?}");
        }
    }
    let spin = RigidMotion::new(Pose::IDENTITY, Vec3::ZERO, v(0.3, 0.1, 0.0), v(0.0, 0.0, 1.0));
    let still = RigidMotion::stationary(Pose::IDENTITY);
    if let Some(hit) = time_of_impact(a, &spin, b, &still, &ToiOptions::default()) {
        assert!(
            hit.t.is_finite() && hit.point.is_finite() && hit.normal.is_finite(),
            "{hit:?}"
        );
    }
    let s = seg(a.center() - v(3.0, 2.0, 1.0), b.center() + v(1.0, 0.5, 0.2));
    if let Some(hit) = s.cast_convex(b) {
        assert!(hit.t.is_finite() && hit.normal.is_finite(), "{b:?} {hit:?}");
    }
}

#[test]
fn zero_size_and_flat_shapes_give_finite_answers() {
    let degenerate = degenerate_shapes(v(0.1, 0.2, 0.3));
    let regular = all_shapes();
    for a in &degenerate {
        for b in degenerate.iter().chain(&regular) {
            check_every_query(a, b);
            check_every_query(b, a);
        }
    }
    // Two zero-size spheres at the same point: touching, distance 0.
    let p = Sphere::new(Vec3::ONE, 0.0);
    let d = distance(&p, &p);
    assert_eq!((d.distance, d.normal, d.point_a), (0.0, None, Vec3::ONE));
    assert!(intersects(&p, &p));
    let c = p.contact_sphere(&p).unwrap();
    assert_eq!((c.depth, c.normal), (0.0, Vec3::X));
    // A zero-size box touching a face.
    let c = contact(&Aabb::new(Vec3::ONE, Vec3::ONE), &Aabb::new(Vec3::ZERO, Vec3::ONE)).unwrap();
    assert_close(c.depth, 0.0, 1e-6);
}

#[test]
fn coincident_shapes_give_their_width() {
    // Identical boxes: the least width, 2·min half-extent, along that axis.
    let a = Obb::new(v(1.0, 2.0, 3.0), Quat::from_rotation_y(0.7), v(1.0, 0.25, 2.0));
    let c = a.contact_obb(&a).unwrap();
    assert_close(c.depth, 0.5, 1e-6);
    assert_close(c.normal.y.abs(), 1.0, 1e-6);
    let c = contact(&a, &a).unwrap();
    assert_close(c.depth, 0.5, 1e-5);
    // Identical spheres and capsules.
    let s = Sphere::new(Vec3::ONE, 2.0);
    assert_eq!(s.contact_sphere(&s).unwrap().depth, 4.0);
    let capsule = Capsule::new(seg(Vec3::ZERO, Vec3::Y), 0.5);
    let c = capsule.contact_capsule(&capsule).unwrap();
    assert_eq!(c.depth, 1.0);
    assert_close(c.normal.dot(Vec3::Y), 0.0, 1e-6);
    let c = contact(&capsule, &capsule).unwrap();
    assert_close(c.depth, 1.0, 1e-5);
    // Identical hulls and triangles (a flat triangle has no depth of its own).
    let hull = cube_hull(Vec3::ZERO, v(1.0, 2.0, 3.0));
    assert_close(contact(&hull, &hull).unwrap().depth, 1.0, 1e-5);
    let tri = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
    let c = contact(&tri, &tri).unwrap();
    assert_eq!(c.depth, 0.0);
    assert_vec_close(c.normal.abs(), Vec3::Z, 1e-6);
}

#[test]
fn parallel_edges_and_faces() {
    // Boxes with parallel edges (same rotation) and a tiny relative turn.
    let r = Quat::from_rotation_y(0.3);
    let a = Obb::new(Vec3::ZERO, r, Vec3::ONE);
    let b = Obb::new(r * v(1.9, 0.5, 0.0), r, Vec3::ONE);
    let c = a.contact_obb(&b).unwrap();
    assert_close(c.depth, 0.1, 1e-5);
    assert_vec_close(c.normal, r * Vec3::X, 1e-5);
    let b = Obb::new(r * v(1.9, 0.5, 0.0), r * Quat::from_rotation_x(1e-7), Vec3::ONE);
    let c = a.contact_obb(&b).unwrap();
    assert_close(c.depth, 0.1, 1e-5);
    assert!(c.normal.is_finite());
    // Parallel segments and capsules, overlapping along their length.
    let s = seg(Vec3::ZERO, v(2.0, 0.0, 0.0));
    let t = seg(v(1.0, 0.5, 0.0), v(3.0, 0.5, 0.0));
    let d = distance(&s, &t);
    assert_close(d.distance, 0.5, 1e-6);
    assert_vec_close(d.normal.unwrap(), Vec3::Y, 1e-6);
    let c = Capsule::new(s, 0.3).contact_capsule(&Capsule::new(t, 0.3)).unwrap();
    assert_close(c.depth, 0.1, 1e-6);
    assert_eq!(c.normal, Vec3::Y);
    // Coplanar overlapping triangles: depth 0 along their normal.
    let t1 = Triangle::new(Vec3::ZERO, v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0));
    let t2 = Triangle::new(v(0.5, 0.5, 0.0), v(2.5, 0.5, 0.0), v(0.5, 2.5, 0.0));
    let c = contact(&t1, &t2).unwrap();
    assert_eq!(c.depth, 0.0);
    assert_vec_close(c.normal.abs(), Vec3::Z, 1e-6);
    // A segment cast along a box face.
    let along = seg(v(-1.0, 1.0, 0.5), v(2.0, 1.0, 0.5));
    let hit = along.cast_convex(&Aabb::new(Vec3::ZERO, Vec3::ONE));
    assert!(hit.is_none_or(|h| h.t.is_finite()));
}

#[test]
fn coordinates_around_1e5() {
    let o = Vec3::splat(1.0e5);
    let a = Aabb::new(o, o + Vec3::ONE);
    let b = Obb::new(o + v(2.5, 0.5, 0.5), Quat::from_rotation_z(FRAC_PI_4), Vec3::splat(0.5));
    // Distance: 2.5 − 0.5·√2 − 1 from the box's face to the turned box's edge.
    let d = distance(&a, &b);
    assert_close(d.distance, 1.5 - 0.5 * SQRT_2, 2e-2);
    assert!(d.normal.is_some());
    let s = Sphere::new(o + v(1.4, 0.5, 0.5), 0.5);
    let c = contact(&a, &s).unwrap();
    assert_close(c.depth, 0.1, 2e-2);
    assert_vec_close(c.normal, Vec3::X, 1e-2);
    let c = s.contact_aabb(&a).unwrap();
    assert_close(c.depth, 0.1, 2e-2);
    let cone = Cone::new(o + v(0.5, 3.0, 0.5), o + v(0.5, 2.0, 0.5), 0.5);
    let hit = shape_cast(&cone, v(0.0, -2.0, 0.0), &a, Vec3::ZERO).unwrap();
    assert_close(hit.t, 0.5, 1e-2);
    let hull = cube_hull(o + v(0.0, 0.0, 3.0), o + v(1.0, 1.0, 4.0));
    let hit = shape_cast(&hull, v(0.0, 0.0, -4.0), &a, Vec3::ZERO).unwrap();
    assert_close(hit.t, 0.5, 1e-2);
    for x in degenerate_shapes(o).iter().chain(&[Shape::Aabb(a), Shape::Obb(b)]) {
        for y in degenerate_shapes(o + v(0.3, 0.0, 0.0)) {
            check_every_query(x, &y);
        }
    }
    // Far apart at large coordinates: still finite.
    let far = Sphere::new(-o, 1.0);
    assert_close(
        distance(&a, &far).distance,
        (o * 2.0).length() - 1.0 - 0.5f32.sqrt() * 0.0 - 1.0,
        100.0,
    );
}

/// Non-finite and huge inputs to the free queries. The free queries take
/// unvalidated shapes (the `World` refuses these): a NaN or infinite shape
/// gets an answer, whatever it is, never a panic. Segment casts, and the
/// sphere casts that are segment casts against grown shapes, miss on NaN
/// input (`src/query/cast.rs`: any NaN input is a miss), and so does a
/// segment to infinity; SAT finds no contact for a NaN rotation (any NaN
/// makes a test false, `src/query/intersect.rs`). Huge but finite shapes,
/// whose products overflow to infinity inside the queries, get answers
/// without NaN: a verdict that agrees with the contact, a distance that is
/// not negative, contacts and casts with a depth, time and normal (up to
/// 1e30; at `f32::MAX` the distance may be `∞`, and GJK on cones reaching
/// `f32::MAX` gives NaN witness points, so only the numbers that stay
/// defined there are checked).
#[test]
fn non_finite_and_huge_inputs_give_misses_or_answers_without_nan() {
    let nan = Sphere::new(v(f32::NAN, 0.0, 0.0), 1.0);
    let inf = Aabb::new(Vec3::splat(f32::NEG_INFINITY), Vec3::ZERO);
    let box_ = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let free_queries = || {
        let _ = distance(&nan, &box_);
        let _ = intersects(&nan, &box_);
        let _ = contact(&nan, &box_);
        let _ = contact(&inf, &box_);
        let _ = shape_cast(&nan, Vec3::ONE, &box_, Vec3::ZERO);
        let _ = shape_cast(&box_, v(f32::NAN, 0.0, 0.0), &box_, Vec3::ZERO);
        let _ = time_of_impact(
            &box_,
            &RigidMotion::new(Pose::IDENTITY, Vec3::ZERO, Vec3::ONE, v(f32::NAN, 0.0, 0.0)),
            &box_,
            &RigidMotion::stationary(Pose::IDENTITY),
            &ToiOptions::default(),
        );
    };
    assert!(
        std::panic::catch_unwind(free_queries).is_ok(),
        "a free query panicked on NaN input"
    );
    assert_eq!(seg(Vec3::ZERO, v(f32::INFINITY, 0.0, 0.0)).cast_convex(&box_), None);
    assert_eq!(nan.cast_aabb(Vec3::ONE, &box_), None);
    assert_eq!(nan.cast_line(Vec3::ONE, Vec3::ZERO, Vec3::X), None);
    assert_eq!(
        Obb::new(Vec3::ZERO, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0), Vec3::ONE).contact_obb(&Obb::from(box_)),
        None
    );
    // Huge but finite: products overflow to infinity inside the queries.
    for big in [1e19f32, 1e30, f32::MAX] {
        let huge = [
            Shape::Sphere(Sphere::new(Vec3::splat(big), big)),
            Shape::Aabb(Aabb::new(Vec3::splat(-big), Vec3::splat(big))),
            Shape::Triangle(Triangle::new(Vec3::ZERO, Vec3::splat(big), v(big, -big, 0.0))),
            Shape::Cone(Cone::new(Vec3::ZERO, Vec3::splat(big), big)),
            Shape::Capsule(Capsule::new(seg(Vec3::splat(-big), Vec3::splat(big)), 1.0)),
        ];
        for a in &huge {
            for b in huge.iter().chain(&all_shapes()) {
                let what = format!("{a:?} and {b:?}");
                let (d, overlap, c, closed) = (distance(a, b), intersects(a, b), contact(a, b), a.contact(b));
                assert_eq!(overlap, c.is_some(), "{what}: the verdict and the contact disagree");
                assert!(d.distance >= 0.0, "{what}: distance {d:?}");
                for c in [c, closed].into_iter().flatten() {
                    assert!(c.depth >= 0.0 && !c.normal.is_nan(), "{what}: contact {c:?}");
                }
                let cast = shape_cast(a, Vec3::ONE, b, Vec3::splat(-big));
                if let Some(hit) = cast {
                    assert!((0.0..=1.0).contains(&hit.t), "{what}: cast {hit:?}");
                }
                if big < f32::MAX {
                    assert!(
                        d.distance.is_finite() && d.point_a.is_finite() && d.point_b.is_finite(),
                        "{what}: {d:?}"
                    );
                    assert!(cast.is_none_or(|hit| hit.normal.is_finite()), "{what}: cast {cast:?}");
                }
            }
        }
        // Four points spanning ±big: a hull or a documented error, never NaN.
        match ConvexHull::from_points(&[Vec3::ZERO, Vec3::splat(big), v(big, -big, 0.0), v(-big, 0.0, big)]) {
            Ok(hull) => assert!(hull.vertices().iter().all(|p| p.is_finite())),
            Err(e) => assert!(matches!(e, Error::InvalidArgument(_) | Error::NonFinite(_)), "{e:?}"),
        }
    }
}

/// Capsules whose axes touch at a shallow angle (the axes 3e-2 rad apart,
/// one five times the other's length): the contact normal, perpendicular
/// to both axes, is formed from their exact directions, so the depth is
/// the overlap of the capsules' projections on it. Formed from rounded
/// half axes in `f32` it tilted by 3e-2 rad, and the long axis' projection
/// made the overlap 3e-5 deeper than the depth reported.
#[test]
fn capsules_whose_axes_touch_at_a_shallow_angle_have_their_depth_along_the_normal() {
    let a = Capsule::new(
        Segment::new(
            Vec3::new(-0.038867496, 0.063738875, 0.024470715),
            Vec3::new(-0.033487283, 0.09429719, 0.014851381),
        ),
        0.00033585756,
    );
    let b = Capsule::new(
        Segment::new(
            Vec3::new(-0.034078836, 0.090937465, 0.015908973),
            Vec3::new(0.0023501397, 0.29784504, -0.04922265),
        ),
        0.00089525327,
    );
    let c = a.contact_capsule(&b).expect("the capsules overlap");
    let n = c.normal.as_dvec3();
    let interval = |s: &Segment, r: f32| {
        let (p, q) = (s.start.as_dvec3().dot(n), s.end.as_dvec3().dot(n));
        (p.min(q) - f64::from(r), p.max(q) + f64::from(r))
    };
    let ((_, a_max), (b_min, _)) = (interval(&a.segment, a.radius), interval(&b.segment, b.radius));
    let overlap = a_max - b_min;
    assert!(
        (overlap - f64::from(c.depth)).abs() <= 2e-6,
        "depth {} but the overlap along the normal is {overlap}",
        c.depth
    );
}

/// A capsule 2e-4 thick starting a hair inside one 1.8 thick, moving
/// deeper: the closed-form cast reports the overlap at `t = 0`. The start
/// lay in the slab over the axes' parallelogram while the capsules' overlap
/// test, on the rescaled axes, rounded to apart, and the slab's faces were
/// entered before the start: no time was reported at all.
#[test]
fn a_capsule_starting_inside_another_by_rounding_hits_at_the_start() {
    let a = Capsule::new(
        Segment::new(
            Vec3::new(-0.05004521, -0.19044545, 0.04251463),
            Vec3::new(-0.024617868, -0.14617151, -0.0669288),
        ),
        0.00022387342,
    );
    let b = Capsule::new(
        Segment::new(
            Vec3::new(0.034328595, 2.1606934, 0.94660974),
            Vec3::new(2.4248176, -0.4348351, 0.4520121),
        ),
        1.7815607,
    );
    let motion = Vec3::new(0.0002437396, 0.00040452156, 0.0002453864);
    let hit = a
        .cast_capsule(motion, &b, Vec3::ZERO)
        .expect("the capsules touch from the start");
    assert_eq!(hit.t, 0.0);
    // Half-way the capsules overlap by 1.8e-4: no later time would do.
    let moved = Shape::Capsule(a).translated(motion * 0.5);
    assert!(moved.contact(&Shape::Capsule(b)).is_some_and(|c| c.depth > 1e-4));
}
