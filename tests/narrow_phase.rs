//! Analytic tests of the narrow phase: the support mappings, the convex
//! hull, GJK (distance, overlap, ray cast), EPA, SAT, the closed-form
//! contacts, and the continuous queries (closed forms, linear shape casts,
//! rotating time of impact); then degenerate inputs (zero sizes, coincident
//! points, parallel edges, coordinates around 1e5), which must give finite,
//! documented answers and never NaN or a panic.

use collide::math::{Quat, Vec3};
use collide::query::gjk::Distance;
use collide::query::{
    contact, distance, intersects, shape_cast, time_of_impact, Contact, RigidMotion, TimeOfImpact, ToiOptions,
    ToiStatus,
};
use collide::shape::{Cone, ConvexHull, Cylinder, Pose, Shape, Support, Transformed, Triangle};
use collide::{Aabb, Capsule, Error, Obb, Plane, Segment, Sphere};
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, SQRT_2};

mod common;
use common::random::{seeded, Draw};
use rand::Rng;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn seg(a: Vec3, b: Vec3) -> Segment {
    Segment::new(a, b)
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

#[track_caller]
fn assert_close(a: f32, b: f32, tol: f32) {
    assert!(close(a, b, tol), "{a} != {b} (tolerance {tol})");
}

#[track_caller]
fn assert_vec_close(a: Vec3, b: Vec3, tol: f32) {
    assert!((a - b).length() <= tol, "{a} != {b} (tolerance {tol})");
}

fn cube_points(min: Vec3, max: Vec3) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            v(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            )
        })
        .collect()
}

fn cube_hull(min: Vec3, max: Vec3) -> ConvexHull {
    ConvexHull::from_points(&cube_points(min, max)).unwrap()
}

#[track_caller]
fn assert_finite_contact(c: &Contact) {
    assert!(
        c.depth.is_finite() && c.depth >= 0.0 && c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite(),
        "{c:?}"
    );
    assert_close(c.normal.length(), 1.0, 1e-4);
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

#[track_caller]
fn assert_finite_distance(d: &Distance) {
    assert!(d.distance.is_finite() && d.distance >= 0.0, "{d:?}");
    assert!(d.point_a.is_finite() && d.point_b.is_finite(), "{d:?}");
    if let Some(n) = d.normal {
        assert!(n.is_finite() && close(n.length(), 1.0, 1e-4), "{d:?}");
    }
}

// ---------------------------------------------------------------------------
// Support mappings
// ---------------------------------------------------------------------------

#[test]
fn support_points_of_every_shape() {
    let sphere = Sphere::new(v(1.0, 2.0, 3.0), 2.0);
    assert_eq!(sphere.support(Vec3::X), v(3.0, 2.0, 3.0));
    assert_eq!(sphere.margin(), 2.0);

    let aabb = Aabb::new(v(-1.0, -2.0, -3.0), v(1.0, 2.0, 3.0));
    assert_eq!(aabb.support(v(1.0, -1.0, 1.0)), v(1.0, -2.0, 3.0));

    let obb = Obb::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    assert_vec_close(obb.support(Vec3::X), v(SQRT_2, 0.0, 1.0), 1e-6);

    let capsule = Capsule::new(seg(Vec3::ZERO, v(0.0, 2.0, 0.0)), 0.5);
    assert_eq!(capsule.support(Vec3::Y), v(0.0, 2.5, 0.0));
    // Perpendicular to the axis: either end (the end point), plus the radius.
    assert_eq!(capsule.support(-Vec3::X), v(-0.5, 2.0, 0.0));

    let s = seg(v(1.0, 0.0, 0.0), v(3.0, 0.0, 0.0));
    assert_eq!(s.support(Vec3::NEG_X), v(1.0, 0.0, 0.0));

    let tri = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
    assert_eq!(tri.support(v(1.0, 0.1, 0.0)), Vec3::X);
    assert_eq!(tri.support(v(-1.0, -1.0, 0.0)), Vec3::ZERO);

    let cylinder = Cylinder::new(seg(Vec3::ZERO, v(0.0, 2.0, 0.0)), 1.0);
    assert_vec_close(cylinder.support(v(1.0, 1.0, 0.0)), v(1.0, 2.0, 0.0), 1e-6);
    assert_vec_close(cylinder.support(v(0.0, -1.0, -1.0)), v(0.0, 0.0, -1.0), 1e-6);

    let cone = Cone::new(Vec3::ZERO, v(0.0, 2.0, 0.0), 1.0);
    assert_vec_close(cone.support(Vec3::Y), v(0.0, 2.0, 0.0), 1e-6);
    assert_vec_close(cone.support(v(1.0, -0.1, 0.0)), v(1.0, 0.0, 0.0), 1e-6);
    assert_vec_close(cone.support(Vec3::NEG_Y), v(0.0, 0.0, 0.0), 1e-6);

    let hull = cube_hull(Vec3::ZERO, Vec3::ONE);
    assert_eq!(hull.support(v(1.0, 1.0, -1.0)), v(1.0, 1.0, 0.0));

    let placed = Transformed::new(&aabb, Pose::new(Quat::from_rotation_z(FRAC_PI_2), v(10.0, 0.0, 0.0)));
    assert_vec_close(placed.support(Vec3::X), v(12.0, 1.0, 3.0), 1e-5);
    assert_vec_close(placed.center(), v(10.0, 0.0, 0.0), 1e-6);

    // The zero direction gives a point of the shape, never NaN.
    let shapes = all_shapes();
    for shape in &shapes {
        assert!(shape.support(Vec3::ZERO).is_finite(), "{shape:?}");
    }
}

fn all_shapes() -> Vec<Shape> {
    vec![
        Shape::Sphere(Sphere::new(v(0.1, 0.2, 0.3), 0.7)),
        Shape::Aabb(Aabb::new(v(-0.5, -0.4, -0.3), v(0.6, 0.5, 0.4))),
        Shape::Obb(Obb::new(v(0.1, 0.0, 0.0), Quat::from_rotation_y(0.4), v(0.5, 0.3, 0.6))),
        Shape::Capsule(Capsule::new(seg(v(-0.5, 0.0, 0.0), v(0.5, 0.2, 0.0)), 0.3)),
        Shape::Capsule(Capsule::new(seg(v(-0.5, -0.5, 0.0), v(0.5, 0.5, 0.1)), 0.0)),
        Shape::Triangle(Triangle::new(v(-0.5, -0.5, 0.0), v(0.6, -0.4, 0.1), v(0.0, 0.7, -0.1))),
        Shape::Cylinder(Cylinder::new(seg(v(0.0, -0.5, 0.0), v(0.1, 0.5, 0.0)), 0.4)),
        Shape::Cone(Cone::new(v(0.0, -0.5, 0.0), v(0.0, 0.6, 0.1), 0.5)),
        Shape::Hull(std::sync::Arc::new(
            ConvexHull::from_points(&[
                v(0.0, 0.0, 0.0),
                v(1.0, 0.0, 0.0),
                v(0.0, 1.0, 0.0),
                v(0.0, 0.0, 1.0),
                v(0.4, 0.4, 0.4),
            ])
            .unwrap(),
        )),
    ]
}

// ---------------------------------------------------------------------------
// Convex hull
// ---------------------------------------------------------------------------

#[test]
fn hull_of_a_cube_with_duplicate_interior_and_coplanar_points() {
    let mut points = cube_points(Vec3::ZERO, Vec3::ONE);
    points.extend(cube_points(Vec3::ZERO, Vec3::ONE)); // every corner twice
    points.push(Vec3::splat(0.5)); // interior
    points.push(v(0.5, 0.5, 1.0)); // face centre
    points.push(v(0.5, 0.0, 0.0)); // edge midpoint (collinear with two corners)
    points.push(v(0.25, 0.75, 0.0)); // on a face
    let hull = ConvexHull::from_points(&points).unwrap();
    assert_eq!(hull.vertices().len(), 8);
    assert_eq!(hull.triangles().len(), 12);
    assert_eq!(hull.planes().len(), 6);
    assert_eq!(hull.edges().len(), 12);
    assert_vec_close(hull.center(), Vec3::splat(0.5), 1e-6);
    for p in &points {
        assert!(hull.contains_point(*p), "{p}");
    }
    assert!(!hull.contains_point(v(0.5, 0.5, 1.001)));
}

#[test]
fn hull_of_a_grid_keeps_only_the_corners() {
    let mut points = Vec::new();
    for i in 0..5 {
        for j in 0..5 {
            for k in 0..5 {
                points.push(v(i as f32, j as f32, k as f32) * 0.25);
            }
        }
    }
    let hull = ConvexHull::from_points(&points).unwrap();
    assert_eq!(
        (hull.vertices().len(), hull.planes().len(), hull.edges().len()),
        (8, 6, 12)
    );
}

#[test]
fn hull_of_random_points_contains_them_and_is_closed() {
    let mut rng = seeded(7);
    for round in 0..50 {
        let n = 4 + round * 3;
        let points: Vec<Vec3> = (0..n).map(|_| rng.vec(-2.0, 2.0)).collect();
        let hull = ConvexHull::from_points(&points).unwrap();
        // Euler: V − E + F = 2 with E = 3F/2 for a triangulated sphere.
        let (vertices, faces) = (hull.vertices().len() as i64, hull.triangles().len() as i64);
        assert_eq!(vertices - 3 * faces / 2 + faces, 2, "round {round}");
        for p in &points {
            for plane in hull.planes() {
                assert!(plane.signed_distance(*p) <= 1e-4, "round {round}: {p} outside");
            }
        }
        for vertex in hull.vertices() {
            assert!(points.contains(vertex));
        }
        // The triangles face outwards.
        for tri in hull.triangles() {
            let [a, b, c] = tri.map(|i| hull.vertices()[i as usize]);
            let n = (b - a).cross(c - a);
            assert!(n.dot(a - hull.center()) > 0.0);
        }
    }
}

#[test]
fn hull_on_a_sphere_keeps_every_point() {
    // Points on a sphere are all extreme.
    let mut rng = seeded(11);
    let points: Vec<Vec3> = (0..200)
        .map(|_| rng.vec(-1.0, 1.0).normalize_or(Vec3::X) * 3.0)
        .collect();
    let hull = ConvexHull::from_points(&points).unwrap();
    assert!(hull.vertices().len() > 150, "{}", hull.vertices().len());
    assert!(hull.planes().len() == hull.triangles().len());
}

#[test]
fn hull_errors_are_clear() {
    let flat = Error::InvalidArgument("a convex hull needs four points that are not coplanar");
    assert_eq!(ConvexHull::from_points(&[]), Err(flat));
    assert_eq!(ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y]), Err(flat));
    assert_eq!(
        ConvexHull::from_points(&[Vec3::ONE; 6]),
        Err(Error::InvalidArgument("hull points all coincide"))
    );
    let line: Vec<Vec3> = (0..6).map(|i| Vec3::splat(i as f32)).collect();
    assert_eq!(
        ConvexHull::from_points(&line),
        Err(Error::InvalidArgument("hull points are collinear"))
    );
    let plane: Vec<Vec3> = (0..9).map(|i| v((i % 3) as f32, (i / 3) as f32, 0.0)).collect();
    assert_eq!(
        ConvexHull::from_points(&plane),
        Err(Error::InvalidArgument("hull points are coplanar"))
    );
    // Nearly coplanar: within 1e-5 of the extent counts as coplanar.
    let mut almost = plane.clone();
    almost.push(v(1.0, 1.0, 1e-7));
    assert!(ConvexHull::from_points(&almost).is_err());
    assert_eq!(
        ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, v(0.0, 0.0, f32::NAN)]),
        Err(Error::NonFinite("hull point"))
    );
}

#[test]
fn hull_far_from_the_origin() {
    let offset = Vec3::splat(1.0e5);
    let hull = cube_hull(offset, offset + Vec3::ONE);
    assert_eq!(hull.planes().len(), 6);
    assert!(hull.contains_point(offset + Vec3::splat(0.5)));
    let d = distance(&hull, &Sphere::new(offset + v(3.0, 0.5, 0.5), 1.0));
    assert_close(d.distance, 1.0, 1e-3);
}

#[test]
fn hull_segment_cast_agrees_with_gjk_cast() {
    let mut rng = seeded(3);
    let points: Vec<Vec3> = (0..30).map(|_| rng.vec(-1.0, 1.0)).collect();
    let hull = ConvexHull::from_points(&points).unwrap();
    let mut hits = 0;
    for _ in 0..500 {
        let s = seg(rng.vec(-3.0, 3.0), rng.vec(-3.0, 3.0));
        let planes = s.cast_hull(&hull);
        let gjk = s.cast_convex(&hull);
        match (planes, gjk) {
            (Some(a), Some(b)) => {
                hits += 1;
                let length = s.direction().length();
                assert!((a.t - b.t).abs() * length < 1e-4, "{a:?} {b:?}");
                if a.t > 0.0 {
                    assert!(a.normal.dot(b.normal) > 0.99, "{a:?} {b:?}");
                }
            }
            (None, None) => {}
            (a, b) => {
                // Only grazing segments may disagree.
                let t = a.or(b).unwrap().t;
                let p = s.point_at(t);
                let d = distance(&hull, &p).distance;
                assert!(d < 1e-4, "{s:?}: {a:?} vs {b:?}");
            }
        }
    }
    assert!(hits > 50, "{hits}");
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

// ---------------------------------------------------------------------------
// Segment casts: triangle (closed form), GJK ray cast
// ---------------------------------------------------------------------------

#[test]
fn segment_casts_against_triangles() {
    let tri = Triangle::new(v(-1.0, -1.0, 0.0), v(1.0, -1.0, 0.0), v(0.0, 1.0, 0.0));
    let down = seg(v(0.0, 0.0, 2.0), v(0.0, 0.0, -2.0));
    let hit = down.cast_triangle(&tri).unwrap();
    assert_eq!((hit.t, hit.normal), (0.5, Vec3::Z));
    // From below: the normal faces the segment's start.
    let up = seg(v(0.0, 0.0, -2.0), v(0.0, 0.0, 2.0));
    assert_eq!(up.cast_triangle(&tri).unwrap().normal, Vec3::NEG_Z);
    // Outside the triangle, too short, in its plane, degenerate: misses.
    assert!(seg(v(2.0, 0.0, 2.0), v(2.0, 0.0, -2.0)).cast_triangle(&tri).is_none());
    assert!(seg(v(0.0, 0.0, 2.0), v(0.0, 0.0, 0.5)).cast_triangle(&tri).is_none());
    assert!(seg(v(-2.0, 0.0, 0.0), v(2.0, 0.0, 0.0)).cast_triangle(&tri).is_none());
    let flat = Triangle::new(Vec3::ZERO, Vec3::X, v(2.0, 0.0, 0.0));
    assert!(down.cast_triangle(&flat).is_none());
    assert!(seg(Vec3::ZERO, Vec3::ZERO).cast_triangle(&tri).is_none());
    // Through a vertex and along an edge's line: hits count (closed triangle).
    assert!(seg(v(0.0, 1.0, 1.0), v(0.0, 1.0, -1.0)).cast_triangle(&tri).is_some());
    // The GJK cast of the same flat triangle agrees where the closed form hits.
    let g = down.cast_convex(&tri).unwrap();
    assert_close(g.t, 0.5, 1e-5);
    assert_vec_close(g.normal, Vec3::Z, 1e-4);
}

#[test]
fn gjk_segment_casts_against_curved_shapes() {
    let cylinder = Cylinder::new(seg(Vec3::ZERO, v(0.0, 2.0, 0.0)), 1.0);
    // Side, cap, and from inside.
    let hit = seg(v(-3.0, 1.0, 0.0), v(3.0, 1.0, 0.0)).cast_convex(&cylinder).unwrap();
    assert_close(hit.t, 2.0 / 6.0, 1e-5);
    assert_vec_close(hit.normal, Vec3::NEG_X, 1e-4);
    let hit = seg(v(0.5, 5.0, 0.0), v(0.5, -5.0, 0.0)).cast_convex(&cylinder).unwrap();
    assert_close(hit.t, 0.3, 1e-5);
    assert_vec_close(hit.normal, Vec3::Y, 1e-4);
    let hit = seg(v(0.0, 1.0, 0.0), v(5.0, 1.0, 0.0)).cast_convex(&cylinder).unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, Vec3::NEG_X));
    assert!(seg(v(-3.0, 2.5, 0.0), v(3.0, 2.5, 0.0))
        .cast_convex(&cylinder)
        .is_none());

    let cone = Cone::new(Vec3::ZERO, v(0.0, 1.0, 0.0), 1.0);
    let hit = seg(v(0.0, 3.0, 0.0), v(0.0, -1.0, 0.0)).cast_convex(&cone).unwrap();
    assert_close(hit.t, 0.5, 1e-5); // the apex
    let hit = seg(v(-2.0, 0.5, 0.0), v(2.0, 0.5, 0.0)).cast_convex(&cone).unwrap();
    assert_close(hit.t, 0.375, 1e-5);
    assert_vec_close(hit.normal, v(-1.0, 1.0, 0.0).normalize(), 1e-4);

    // Rounded shapes through their margins: the same answers as the closed forms.
    let mut rng = seeded(17);
    let capsule = Capsule::new(seg(v(0.0, -1.0, 0.0), v(0.3, 1.0, 0.2)), 0.6);
    let sphere = Sphere::new(v(0.2, 0.1, -0.3), 0.8);
    for _ in 0..300 {
        let s = seg(rng.vec(-3.0, 3.0), rng.vec(-3.0, 3.0));
        for (exact, gjk) in [
            (s.cast_capsule(&capsule), s.cast_convex(&capsule)),
            (s.cast_sphere(&sphere), s.cast_convex(&sphere)),
        ] {
            match (exact, gjk) {
                (Some(e), Some(g)) => {
                    assert!((e.t - g.t).abs() * s.direction().length() < 1e-4, "{s:?} {e:?} {g:?}");
                    if e.t > 0.0 {
                        assert!(e.normal.dot(g.normal) > 0.999, "{s:?} {e:?} {g:?}");
                    }
                }
                (None, None) => {}
                (e, g) => panic!("{s:?}: {e:?} vs {g:?}"),
            }
        }
    }
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

#[test]
fn non_finite_inputs_do_not_panic() {
    let nan = Sphere::new(v(f32::NAN, 0.0, 0.0), 1.0);
    let inf = Aabb::new(Vec3::splat(f32::NEG_INFINITY), Vec3::ZERO);
    let box_ = Aabb::new(Vec3::ZERO, Vec3::ONE);
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
    let _ = seg(Vec3::ZERO, v(f32::INFINITY, 0.0, 0.0)).cast_convex(&box_);
    let _ = nan.cast_aabb(Vec3::ONE, &box_);
    let _ = nan.cast_line(Vec3::ONE, Vec3::ZERO, Vec3::X);
    let _ = Obb::new(Vec3::ZERO, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0), Vec3::ONE).contact_obb(&Obb::from(box_));
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
                let _ = (distance(a, b), intersects(a, b), contact(a, b), a.contact(b));
                let _ = shape_cast(a, Vec3::ONE, b, Vec3::splat(-big));
            }
        }
        let _ = ConvexHull::from_points(&[Vec3::ZERO, Vec3::splat(big), v(big, -big, 0.0), v(-big, 0.0, big)]);
    }
}
