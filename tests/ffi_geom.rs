//! The book's free geometry from C (`phys_geom_*`), each held to an
//! analytic answer or to brute force: planes through points and signed
//! distances, convex polygons (edges and vertices included, either
//! winding), closest points of segments against a dense sampling, point–box
//! and point–segment distances, swept spheres (the book's `SweptSphere`
//! cases), any two shapes' overlap and a segment against a shape; bad input
//! is a status.

mod common;

use std::ptr::null;

use collide::ffi::PhysStatus::*;
use collide::ffi::*;
use collide::math::Vec3;
use common::ffi::*;

fn plane_through(a: PhysVec3, b: PhysVec3, c: PhysVec3) -> (PhysStatus, PhysPlane) {
    let mut out = PhysPlane::default();
    // SAFETY: valid pointers.
    let status = unsafe { phys_geom_plane_from_points(&a, &b, &c, &mut out) };
    (status, out)
}

fn signed_distance(plane: &PhysPlane, p: PhysVec3) -> f32 {
    let mut out = f32::NAN;
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_geom_plane_signed_distance(plane, &p, &mut out) }, PHYS_OK);
    out
}

#[test]
fn planes_through_points_measure_signed_distances() {
    // The book's floor: y = 2, normal up for counter-clockwise points seen
    // from above.
    let (status, floor) = plane_through(v(0.0, 2.0, 0.0), v(0.0, 2.0, 1.0), v(1.0, 2.0, 0.0));
    assert_eq!(status, PHYS_OK);
    assert_eq!((Vec3::from(floor.normal), floor.d), (Vec3::Y, -2.0));
    assert_eq!(signed_distance(&floor, v(5.0, 7.0, -3.0)), 5.0);
    assert_eq!(signed_distance(&floor, v(5.0, -1.0, -3.0)), -3.0);
    // A tilted plane: the distance of the origin is |d|.
    let (_, tilted) = plane_through(v(3.0, 0.0, 0.0), v(0.0, 3.0, 0.0), v(0.0, 0.0, 3.0));
    assert!((signed_distance(&tilted, v(0.0, 0.0, 0.0)) + 3.0 / 3f32.sqrt()).abs() < 1e-6);
    // Collinear points make no plane; NaN is refused.
    assert_eq!(
        plane_through(v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0), v(2.0, 2.0, 2.0)).0,
        PHYS_ERROR_INVALID_ARGUMENT
    );
    assert_eq!(
        plane_through(v(f32::NAN, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)).0,
        PHYS_ERROR_NON_FINITE
    );
}

fn contains(polygon: &[PhysVec2], x: f32, y: f32) -> (PhysStatus, bool) {
    let mut byte = SENTINEL_BOOL_BYTE;
    // SAFETY: an array of `polygon.len()` points.
    let status =
        unsafe { phys_geom_polygon_contains(polygon.as_ptr(), polygon.len(), &PhysVec2 { x, y }, bool_out(&mut byte)) };
    (status, byte == 1)
}

#[test]
fn polygons_contain_their_edges_and_vertices_in_either_winding() {
    let p = |x: f32, y: f32| PhysVec2 { x, y };
    let square = [p(0.0, 0.0), p(2.0, 0.0), p(2.0, 2.0), p(0.0, 2.0)];
    let mut reversed = square;
    reversed.reverse();
    for polygon in [square, reversed] {
        // A grid against the square's exact test.
        for i in -2..=10 {
            for j in -2..=10 {
                let (x, y) = (i as f32 * 0.25, j as f32 * 0.25);
                let inside = (0.0..=2.0).contains(&x) && (0.0..=2.0).contains(&y);
                assert_eq!(contains(&polygon, x, y), (PHYS_OK, inside), "({x}, {y})");
            }
        }
    }
    assert_eq!(contains(&square[..2], 0.0, 0.0).0, PHYS_ERROR_INVALID_ARGUMENT);
    let bent = [p(0.0, 0.0), p(2.0, 0.0), p(1.0, 0.5), p(2.0, 2.0), p(0.0, 2.0)];
    assert_eq!(contains(&bent, 0.5, 0.5).0, PHYS_ERROR_INVALID_ARGUMENT);
}

fn closest(a: PhysSegment, b: PhysSegment) -> PhysSegmentClosest {
    let mut out = PhysSegmentClosest::default();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_geom_segment_closest_points(&a, &b, &mut out) }, PHYS_OK);
    out
}

#[test]
fn segment_closest_points_match_a_dense_sampling() {
    let mut rng = common::random::seeded(0x9e0);
    use common::random::Draw;
    for _ in 0..200 {
        let mut point = || v(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        let (a, b) = (segment(point(), point()), segment(point(), point()));
        let c = closest(a, b);
        let at = |s: &PhysSegment, t: f32| Vec3::from(s.start).lerp(Vec3::from(s.end), t);
        let mut best = f32::INFINITY;
        for i in 0..=200 {
            for j in 0..=200 {
                best = best.min(at(&a, i as f32 / 200.0).distance_squared(at(&b, j as f32 / 200.0)));
            }
        }
        assert!(c.distance_squared <= best + 1e-5, "{c:?} vs sampled {best}");
        assert!(
            c.distance_squared >= best - 0.05 * best.sqrt() - 1e-4,
            "{c:?} vs sampled {best}"
        );
        assert!((Vec3::from(c.point_a) - at(&a, c.s)).length() < 1e-5);
        assert!((Vec3::from(c.point_b) - at(&b, c.t)).length() < 1e-5);
    }
    // Parallel segments apart by 1.
    let c = closest(
        segment(v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0)),
        segment(v(1.0, 1.0, 0.0), v(3.0, 1.0, 0.0)),
    );
    assert_eq!(c.distance_squared, 1.0);
}

#[test]
fn point_distances_to_boxes_and_segments_are_the_analytic_ones() {
    let unit = aabb(v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0));
    for (p, want) in [
        (v(0.5, 0.5, 3.0), 4.0),
        (v(2.0, 2.0, 0.5), 2.0),
        (v(0.5, 0.5, 0.5), 0.0),
        (v(-1.0, -1.0, -1.0), 3.0),
    ] {
        let mut out = f32::NAN;
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { phys_geom_box_point_distance_squared(&unit, &p, &mut out) },
            PHYS_OK
        );
        assert_eq!(out, want, "{p:?}");
    }
    let s = segment(v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0));
    for (p, want) in [
        (v(2.0, 3.0, 0.0), 9.0),
        (v(-1.0, 0.0, 1.0), 2.0),
        (v(6.0, 0.0, 0.0), 4.0),
    ] {
        let mut out = f32::NAN;
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { phys_geom_segment_point_distance_squared(&s, &p, &mut out) },
            PHYS_OK
        );
        assert_eq!(out, want, "{p:?}");
    }
    let mut out = f32::NAN;
    let inverted = aabb(v(1.0, 0.0, 0.0), v(0.0, 1.0, 1.0));
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { phys_geom_box_point_distance_squared(&inverted, &v(0.0, 0.0, 0.0), &mut out) },
        PHYS_ERROR_INVERTED_BOX
    );
    assert!(out.is_nan(), "nothing written");
}

fn swept(a: PhysSphere, ma: PhysVec3, b: PhysSphere, mb: PhysVec3) -> (PhysStatus, Option<f32>) {
    let (mut byte, mut t) = (SENTINEL_BOOL_BYTE, f32::NAN);
    // SAFETY: valid pointers.
    let status = unsafe { phys_geom_swept_spheres(&a, &ma, &b, &mb, bool_out(&mut byte), &mut t) };
    (status, (byte == 1).then_some(t))
}

#[test]
fn swept_spheres_meet_when_the_book_says_and_its_bugs_are_gone() {
    let ball = |x: f32, r: f32| PhysSphere {
        center: v(x, 0.0, 0.0),
        radius: r,
    };
    // Head on: centres 10 apart close at 16 per step until 2 apart.
    assert_eq!(
        swept(ball(0.0, 1.0), v(8.0, 0.0, 0.0), ball(10.0, 1.0), v(-8.0, 0.0, 0.0)),
        (PHYS_OK, Some(0.5))
    );
    // Already touching: t = 0 (the book reports no hit).
    assert_eq!(
        swept(ball(0.0, 1.0), v(1.0, 0.0, 0.0), ball(1.5, 1.0), v(0.0, 0.0, 0.0)),
        (PHYS_OK, Some(0.0))
    );
    // Moving apart, or parallel at a distance: no hit.
    assert_eq!(
        swept(ball(0.0, 1.0), v(-1.0, 0.0, 0.0), ball(5.0, 1.0), v(0.0, 0.0, 0.0)),
        (PHYS_OK, None)
    );
    assert_eq!(
        swept(ball(0.0, 1.0), v(4.0, 0.0, 0.0), ball(0.0, 1.0), v(4.0, 0.0, 0.0)).0,
        PHYS_OK
    );
    // Bad radii and motions.
    assert_eq!(
        swept(ball(0.0, -1.0), v(1.0, 0.0, 0.0), ball(5.0, 1.0), v(0.0, 0.0, 0.0)).0,
        PHYS_ERROR_NEGATIVE_RADIUS
    );
    assert_eq!(
        swept(ball(0.0, 1.0), v(f32::NAN, 0.0, 0.0), ball(5.0, 1.0), v(0.0, 0.0, 0.0)).0,
        PHYS_ERROR_NON_FINITE
    );
}

fn shape(kind: u32, data: PhysShapeData) -> PhysShape {
    PhysShape { kind, data }
}

#[test]
fn any_two_shapes_intersect_and_segments_hit_shapes_as_the_rust_api_says() {
    let ball = |x: f32| {
        shape(
            PHYS_SHAPE_SPHERE,
            PhysShapeData {
                sphere: PhysSphere {
                    center: v(x, 0.0, 0.0),
                    radius: 1.0,
                },
            },
        )
    };
    let crate_ = shape(
        PHYS_SHAPE_BOX,
        PhysShapeData {
            aabb: aabb(v(1.5, -1.0, -1.0), v(3.5, 1.0, 1.0)),
        },
    );
    for (x, want) in [(0.0, false), (0.5, true), (0.6, true), (5.0, false)] {
        let mut byte = SENTINEL_BOOL_BYTE;
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { phys_geom_intersects(&ball(x), &crate_, bool_out(&mut byte)) },
            PHYS_OK
        );
        assert_eq!(byte == 1, want, "ball at {x}");
    }
    let (mut byte, mut t, mut normal) = (SENTINEL_BOOL_BYTE, f32::NAN, v(0.0, 0.0, 0.0));
    let s = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            phys_geom_segment_cast(&s, &crate_, bool_out(&mut byte), &mut t, &mut normal),
            PHYS_OK
        );
    }
    assert_eq!((byte, t, Vec3::from(normal)), (1, 0.65, Vec3::NEG_X));
    let miss = segment(v(-5.0, 3.0, 0.0), v(5.0, 3.0, 0.0));
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            phys_geom_segment_cast(&miss, &crate_, bool_out(&mut byte), &mut t, &mut normal),
            PHYS_OK
        );
        assert_eq!(byte, 0);
        assert_eq!(
            phys_geom_intersects(null(), &crate_, bool_out(&mut byte)),
            PHYS_ERROR_NULL_POINTER
        );
    }
}
