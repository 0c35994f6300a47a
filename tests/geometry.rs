//! Unit tests with analytic answers for every public function of
//! `collide::shape` and `collide::query`: constructors and validation,
//! containment, distances, intersection tests, segment casts, push-out and
//! time of impact, including the degenerate and boundary cases (zero
//! lengths, touching, one ulp outside, NaN).

use collide::math::{Mat3, Quat, Vec2, Vec3};
use collide::query::sweep::time_of_impact_spheres;
use collide::{Aabb, Capsule, CastHit, ConvexPolygon, Error, Obb, Plane, Segment, Shape, Sphere};
use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_2, FRAC_PI_4, SQRT_2};

mod common;
use common::random::{seeded, Draw, TestRng};
use rand::{Rng, RngExt};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn seg(a: Vec3, b: Vec3) -> Segment {
    Segment::new(a, b)
}

fn unit_box() -> Aabb {
    Aabb::new(Vec3::ZERO, Vec3::ONE)
}

/// The next representable `f32` above `x` (for finite `x`).
fn next_up(x: f32) -> f32 {
    if x == 0.0 {
        f32::from_bits(1)
    } else if x > 0.0 {
        f32::from_bits(x.to_bits() + 1)
    } else {
        f32::from_bits(x.to_bits() - 1)
    }
}

/// The next representable `f32` below `x` (for finite `x`).
fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

#[track_caller]
fn assert_near(actual: f32, expected: f32, tolerance: f32) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not within {tolerance} of {expected}"
    );
}

#[track_caller]
fn assert_vec_near(actual: Vec3, expected: Vec3, tolerance: f32) {
    assert!(
        (actual - expected).abs().max_element() <= tolerance,
        "{actual:?} is not within {tolerance} of {expected:?}"
    );
}

#[track_caller]
fn assert_hit(hit: Option<CastHit>, t: f32, normal: Vec3) {
    let hit = hit.unwrap_or_else(|| panic!("expected a hit at t = {t}"));
    assert_near(hit.t, t, 1e-6);
    assert_vec_near(hit.normal, normal, 1e-6);
}

/// The smallest value of a convex function on `[lo, hi]`, by ternary search in `f64`.
fn ternary_min(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (lo, hi);
    for _ in 0..80 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.5 * (lo + hi)).min(f(lo)).min(f(hi))
}

fn to_f64(p: Vec3) -> [f64; 3] {
    [f64::from(p.x), f64::from(p.y), f64::from(p.z)]
}

/// Squared distance from a point to a box, in `f64`.
fn box_point_distance_squared_f64(aabb: &Aabb, p: [f64; 3]) -> f64 {
    let (min, max) = (to_f64(aabb.min), to_f64(aabb.max));
    (0..3)
        .map(|i| {
            let excess = (min[i] - p[i]).max(p[i] - max[i]).max(0.0);
            excess * excess
        })
        .sum()
}

/// Point of a segment at `t`, in `f64`.
fn segment_point_f64(segment: &Segment, t: f64) -> [f64; 3] {
    let (a, b) = (to_f64(segment.start), to_f64(segment.end));
    [
        a[0] + t * (b[0] - a[0]),
        a[1] + t * (b[1] - a[1]),
        a[2] + t * (b[2] - a[2]),
    ]
}

fn distance_squared_f64(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum()
}

/// Squared distance from a point to a segment, in `f64`.
fn point_segment_distance_squared_f64(p: [f64; 3], segment: &Segment) -> f64 {
    let (a, b) = (to_f64(segment.start), to_f64(segment.end));
    let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let dd: f64 = d.iter().map(|x| x * x).sum();
    let t = if dd == 0.0 {
        0.0
    } else {
        ((0..3).map(|i| (p[i] - a[i]) * d[i]).sum::<f64>() / dd).clamp(0.0, 1.0)
    };
    distance_squared_f64(p, segment_point_f64(segment, t))
}

// ---------------------------------------------------------------------------
// Segment
// ---------------------------------------------------------------------------

/// `point_at` gives the end points exactly at 0 and 1 and interpolates (and extrapolates) linearly.
#[test]
fn segment_point_at() {
    let s = seg(v(1.0, 2.0, 3.0), v(5.0, -2.0, 3.0));
    assert_eq!(s.point_at(0.0), s.start);
    assert_eq!(s.point_at(1.0), s.end);
    assert_eq!(s.point_at(0.5), v(3.0, 0.0, 3.0));
    assert_eq!(s.point_at(0.25), v(2.0, 1.0, 3.0));
    assert_eq!(s.point_at(2.0), v(9.0, -6.0, 3.0));
    assert_eq!(s.direction(), v(4.0, -4.0, 0.0));
    assert_eq!(s.length_squared(), 32.0);
}

/// `is_finite` is false for NaN or infinite end points.
#[test]
fn segment_is_finite() {
    assert!(seg(Vec3::ZERO, Vec3::ONE).is_finite());
    assert!(!seg(v(f32::NAN, 0.0, 0.0), Vec3::ONE).is_finite());
    assert!(!seg(Vec3::ZERO, v(0.0, 0.0, f32::INFINITY)).is_finite());
}

/// `closest_t` projects onto the segment and clamps to `[0, 1]`; a zero-length segment gives 0.
#[test]
fn segment_closest_t() {
    let s = seg(v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0));
    assert_eq!(s.closest_t(v(1.0, 7.0, -3.0)), 0.25);
    assert_eq!(s.closest_t(v(-5.0, 1.0, 0.0)), 0.0);
    assert_eq!(s.closest_t(v(9.0, 1.0, 0.0)), 1.0);
    assert_eq!(s.closest_t(v(4.0, 0.0, 0.0)), 1.0);
    assert_eq!(s.closest_point(v(3.0, 2.0, 2.0)), v(3.0, 0.0, 0.0));
    let point = seg(v(1.0, 1.0, 1.0), v(1.0, 1.0, 1.0));
    assert_eq!(point.closest_t(v(5.0, 5.0, 5.0)), 0.0);
    assert_eq!(point.closest_point(v(5.0, 5.0, 5.0)), v(1.0, 1.0, 1.0));
    assert!(s.closest_t(v(f32::NAN, 0.0, 0.0)).is_nan());
}

/// `distance_squared_to_point` on the interior, beyond either end, and for a zero-length segment.
#[test]
fn segment_distance_squared_to_point() {
    let s = seg(v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
    assert_eq!(s.distance_squared_to_point(v(1.0, 3.0, 4.0)), 25.0);
    assert_eq!(s.distance_squared_to_point(v(-3.0, 4.0, 0.0)), 25.0);
    assert_eq!(s.distance_squared_to_point(v(5.0, 0.0, 4.0)), 25.0);
    assert_eq!(s.distance_squared_to_point(v(1.5, 0.0, 0.0)), 0.0);
    let point = seg(v(1.0, 2.0, 3.0), v(1.0, 2.0, 3.0));
    assert_eq!(point.distance_squared_to_point(v(1.0, 2.0, 3.0)), 0.0);
    assert_eq!(point.distance_squared_to_point(v(4.0, 6.0, 3.0)), 25.0);
    assert!(s.distance_squared_to_point(v(0.0, f32::NAN, 0.0)).is_nan());
}

/// Checks the invariants every `closest_points` answer must satisfy.
#[track_caller]
fn check_closest_points(a: &Segment, b: &Segment, expected_distance_squared: f32) -> collide::SegmentClosestPoints {
    let c = a.closest_points(b);
    assert!((0.0..=1.0).contains(&c.s) && (0.0..=1.0).contains(&c.t), "{c:?}");
    assert_vec_near(c.point_a, a.point_at(c.s), 1e-6);
    assert_vec_near(c.point_b, b.point_at(c.t), 1e-6);
    assert_near(c.distance_squared, (c.point_a - c.point_b).length_squared(), 1e-6);
    assert_near(c.distance_squared, expected_distance_squared, 1e-5);
    // The distance does not depend on the order of the segments.
    assert_near(b.closest_points(a).distance_squared, expected_distance_squared, 1e-5);
    c
}

/// Skew segments whose closest points are interior to both.
#[test]
fn segment_closest_points_skew() {
    let a = seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(0.0, -1.0, 2.0), v(0.0, 1.0, 2.0));
    let c = check_closest_points(&a, &b, 4.0);
    assert_eq!((c.s, c.t), (0.5, 0.5));
    assert_eq!((c.point_a, c.point_b), (Vec3::ZERO, v(0.0, 0.0, 2.0)));
}

/// Crossing segments are at distance 0.
#[test]
fn segment_closest_points_crossing() {
    let a = seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(0.0, -3.0, 0.0), v(0.0, 1.0, 0.0));
    let c = check_closest_points(&a, &b, 0.0);
    assert_eq!((c.s, c.t), (0.5, 0.75));
}

/// Skew segments whose closest points are end points of both (clamping on both sides).
#[test]
fn segment_closest_points_end_to_end() {
    let a = seg(v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(2.0, 0.0, 1.0), v(2.0, 0.0, 3.0));
    let c = check_closest_points(&a, &b, 2.0);
    assert_eq!((c.s, c.t), (1.0, 0.0));
}

/// Parallel segments that do not overlap along their direction: end point to end point.
#[test]
fn segment_closest_points_parallel_disjoint() {
    let a = seg(v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(2.0, 1.0, 0.0), v(3.0, 1.0, 0.0));
    let c = check_closest_points(&a, &b, 2.0);
    assert_eq!((c.s, c.t), (1.0, 0.0));
    // Antiparallel.
    let b_reversed = seg(b.end, b.start);
    let c = check_closest_points(&a, &b_reversed, 2.0);
    assert_eq!((c.s, c.t), (1.0, 1.0));
}

/// Parallel segments overlapping along their direction: the offset between their lines, with a valid pair of points.
#[test]
fn segment_closest_points_parallel_overlapping() {
    let a = seg(v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
    let b = seg(v(1.0, 1.0, 0.0), v(3.0, 1.0, 0.0));
    let c = check_closest_points(&a, &b, 1.0);
    assert_eq!(c.point_a.x, c.point_b.x);
    assert!((1.0..=2.0).contains(&c.point_a.x));
}

/// Collinear overlapping segments are at distance 0, at a point common to both.
#[test]
fn segment_closest_points_collinear_overlapping() {
    let a = seg(v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0));
    let b = seg(v(1.0, 0.0, 0.0), v(3.0, 0.0, 0.0));
    let c = check_closest_points(&a, &b, 0.0);
    assert_eq!(c.point_a, c.point_b);
    // One inside the other, reversed.
    let inner = seg(v(1.5, 0.0, 0.0), v(0.5, 0.0, 0.0));
    let c = check_closest_points(&a, &inner, 0.0);
    assert_eq!(c.point_a, c.point_b);
}

/// A zero-length first segment: the point-to-segment distance.
#[test]
fn segment_closest_points_first_degenerate() {
    let point = seg(v(0.5, 1.0, 0.0), v(0.5, 1.0, 0.0));
    let b = seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let c = check_closest_points(&point, &b, 1.0);
    assert_eq!((c.s, c.t), (0.0, 0.75));
}

/// A zero-length second segment: the point-to-segment distance (the book ignores the first segment's extent).
#[test]
fn segment_closest_points_second_degenerate() {
    let a = seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let point = seg(v(0.5, 2.0, 0.0), v(0.5, 2.0, 0.0));
    let c = check_closest_points(&a, &point, 4.0);
    assert_eq!((c.s, c.t), (0.75, 0.0));
    // Beyond the end: clamped.
    let far = seg(v(3.0, 0.0, 0.0), v(3.0, 0.0, 0.0));
    let c = check_closest_points(&a, &far, 4.0);
    assert_eq!((c.s, c.t), (1.0, 0.0));
}

/// Two zero-length segments: the distance between the points.
#[test]
fn segment_closest_points_both_degenerate() {
    let a = seg(v(1.0, 2.0, 3.0), v(1.0, 2.0, 3.0));
    let b = seg(v(4.0, 6.0, 3.0), v(4.0, 6.0, 3.0));
    let c = check_closest_points(&a, &b, 25.0);
    assert_eq!((c.s, c.t), (0.0, 0.0));
}

/// NaN input gives a NaN distance (so capsule tests built on it are false).
#[test]
fn segment_closest_points_nan() {
    let a = seg(v(f32::NAN, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let b = seg(v(0.0, 1.0, 0.0), v(1.0, 1.0, 0.0));
    assert!(a.closest_points(&b).distance_squared.is_nan());
    assert!(b.closest_points(&a).distance_squared.is_nan());
}

/// Random segment pairs (including nearly parallel and tiny ones) against an `f64` ternary search.
#[test]
fn segment_closest_points_random_vs_reference() {
    let mut rng = seeded(0x5EED_0001);
    for i in 0..3000 {
        let a = seg(rng.vec(-10.0, 10.0), rng.vec(-10.0, 10.0));
        let b = match i % 4 {
            0 => seg(rng.vec(-10.0, 10.0), rng.vec(-10.0, 10.0)),
            // Nearly parallel to `a`, shifted.
            1 => {
                let offset = rng.vec(-3.0, 3.0);
                let tilt = rng.vec(-1e-4, 1e-4);
                seg(a.start + offset, a.end + offset + tilt)
            }
            // Tiny.
            2 => {
                let p = rng.vec(-10.0, 10.0);
                seg(p, p + rng.vec(-1e-3, 1e-3))
            }
            // Exactly parallel.
            _ => {
                let offset = rng.vec(-3.0, 3.0);
                seg(a.start * 0.5 + offset, a.end * 0.5 + offset)
            }
        };
        let reference = ternary_min(0.0, 1.0, |s| {
            point_segment_distance_squared_f64(segment_point_f64(&a, s), &b)
        });
        let ours = a.closest_points(&b);
        // Within 1e-5 (at coordinates up to 10), plus length·sin(angle) for
        // segments within 1e-5 of parallel, which take s = 0 by design.
        let slack = 1e-5 * f64::from(1.0 + a.direction().length() + b.direction().length());
        assert!(
            (f64::from(ours.distance_squared).sqrt() - reference.sqrt()).abs() <= slack,
            "case {i}: {a:?} {b:?}: {} vs {}",
            ours.distance_squared,
            reference
        );
    }
}

// ---------------------------------------------------------------------------
// Plane
// ---------------------------------------------------------------------------

/// `from_normal_and_point` normalises the normal and sets `d = −n·p`.
#[test]
fn plane_from_normal_and_point() {
    let p = Plane::from_normal_and_point(v(0.0, 2.0, 0.0), v(0.0, 3.0, 0.0)).unwrap();
    assert_eq!(p.normal, Vec3::Y);
    assert_eq!(p.d, -3.0);
    let oblique = Plane::from_normal_and_point(v(3.0, 0.0, 4.0), v(1.0, 1.0, 1.0)).unwrap();
    assert_vec_near(oblique.normal, v(0.6, 0.0, 0.8), 1e-7);
    assert_near(oblique.d, -1.4, 1e-6);
    assert!(matches!(
        Plane::from_normal_and_point(Vec3::ZERO, Vec3::ONE),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        Plane::from_normal_and_point(v(f32::NAN, 1.0, 0.0), Vec3::ONE),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        Plane::from_normal_and_point(Vec3::Y, v(0.0, f32::INFINITY, 0.0)),
        Err(Error::NonFinite(_))
    ));
}

/// `signed_distance` is `n·p + d`: positive on the normal's side, negative behind, zero on the plane.
#[test]
fn plane_signed_distance_sign_convention() {
    let p = Plane::from_normal_and_point(Vec3::Y, v(0.0, 3.0, 0.0)).unwrap();
    assert_eq!(p.signed_distance(v(5.0, 4.0, 1.0)), 1.0);
    assert_eq!(p.signed_distance(v(-2.0, 1.0, 9.0)), -2.0);
    assert_eq!(p.signed_distance(v(7.0, 3.0, -2.0)), 0.0);
    // The point the plane was built from is on it.
    let q = Plane::from_normal_and_point(v(1.0, 1.0, 1.0), v(2.0, -1.0, 4.0)).unwrap();
    assert_near(q.signed_distance(v(2.0, -1.0, 4.0)), 0.0, 1e-6);
    assert_near(q.signed_distance(v(2.0, -1.0, 4.0) + q.normal * 2.5), 2.5, 1e-6);
}

/// `from_points`: counter-clockwise points face the viewer; the points lie on the plane.
#[test]
fn plane_from_points() {
    let ccw = Plane::from_points(v(0.0, 0.0, 5.0), v(1.0, 0.0, 5.0), v(0.0, 1.0, 5.0)).unwrap();
    assert_eq!(ccw.normal, Vec3::Z);
    assert_eq!(ccw.d, -5.0);
    assert_eq!(ccw.signed_distance(v(3.0, 3.0, 7.0)), 2.0);
    let cw = Plane::from_points(v(0.0, 0.0, 5.0), v(0.0, 1.0, 5.0), v(1.0, 0.0, 5.0)).unwrap();
    assert_eq!(cw.normal, Vec3::NEG_Z);
    assert_eq!(cw.signed_distance(v(3.0, 3.0, 7.0)), -2.0);
    let (a, b, c) = (v(1.0, 2.0, 3.0), v(-4.0, 0.5, 2.0), v(0.0, 7.0, -1.0));
    let p = Plane::from_points(a, b, c).unwrap();
    assert_near(p.normal.length(), 1.0, 1e-6);
    for point in [a, b, c] {
        assert_near(p.signed_distance(point), 0.0, 1e-5);
    }
    // Small and large, well-shaped triangles are fine at any scale.
    assert!(Plane::from_points(Vec3::ZERO, v(1e-3, 0.0, 0.0), v(0.0, 1e-3, 0.0)).is_ok());
    assert!(Plane::from_points(Vec3::ZERO, v(1e4, 0.0, 0.0), v(0.0, 1e4, 0.0)).is_ok());
}

/// Collinear or coincident points are an error, never a NaN normal.
#[test]
fn plane_from_points_degenerate() {
    let collinear = Plane::from_points(v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0), v(2.0, 2.0, 2.0));
    assert!(matches!(collinear, Err(Error::InvalidArgument(_))));
    let coincident = Plane::from_points(Vec3::ONE, Vec3::ONE, Vec3::ONE);
    assert!(matches!(coincident, Err(Error::InvalidArgument(_))));
    let two_equal = Plane::from_points(Vec3::ZERO, Vec3::ZERO, Vec3::X);
    assert!(matches!(two_equal, Err(Error::InvalidArgument(_))));
    // Collinear up to rounding at a large scale (the sine of the angle is 5e-8).
    let nearly = Plane::from_points(v(0.0, 0.0, 0.0), v(1e4, 0.0, 0.0), v(2e4, 1e-3, 0.0));
    assert!(matches!(nearly, Err(Error::InvalidArgument(_))));
    let nan = Plane::from_points(Vec3::ZERO, Vec3::X, v(0.0, f32::NAN, 0.0));
    assert!(matches!(nan, Err(Error::NonFinite(_))));
}

/// `project_point` moves the point along the normal onto the plane.
#[test]
fn plane_project_point() {
    let p = Plane::from_normal_and_point(Vec3::Z, v(0.0, 0.0, 2.0)).unwrap();
    assert_eq!(p.project_point(v(1.0, 2.0, 7.0)), v(1.0, 2.0, 2.0));
    assert_eq!(p.project_point(v(1.0, 2.0, -7.0)), v(1.0, 2.0, 2.0));
    let oblique = Plane::from_normal_and_point(v(1.0, -2.0, 2.0), v(1.0, 1.0, 1.0)).unwrap();
    let q = v(4.0, -3.0, 8.0);
    let projected = oblique.project_point(q);
    assert_near(oblique.signed_distance(projected), 0.0, 1e-5);
    assert_near((q - projected).cross(oblique.normal).length(), 0.0, 1e-5);
}

// ---------------------------------------------------------------------------
// Sphere, capsule, box, oriented box: validation and containment
// ---------------------------------------------------------------------------

/// Sphere validation: zero radius allowed, negative radius and non-finite numbers refused.
#[test]
fn sphere_validate() {
    assert_eq!(Sphere::new(Vec3::ZERO, 0.0).validate(), Ok(()));
    assert_eq!(Sphere::new(Vec3::ONE, 2.0).validate(), Ok(()));
    assert_eq!(Sphere::new(Vec3::ZERO, -1.0).validate(), Err(Error::NegativeRadius));
    assert!(matches!(
        Sphere::new(v(0.0, f32::NAN, 0.0), 1.0).validate(),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        Sphere::new(Vec3::ZERO, f32::NAN).validate(),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        Sphere::new(Vec3::ZERO, f32::INFINITY).validate(),
        Err(Error::NonFinite(_))
    ));
}

/// Sphere containment: centre and boundary inside, one ulp beyond and NaN outside.
#[test]
fn sphere_contains_point() {
    let s = Sphere::new(v(1.0, 1.0, 1.0), 2.0);
    assert!(s.contains_point(v(1.0, 1.0, 1.0)));
    assert!(s.contains_point(v(3.0, 1.0, 1.0)));
    assert!(s.contains_point(v(1.0, -1.0, 1.0)));
    assert!(!s.contains_point(v(next_up(3.0), 1.0, 1.0)));
    assert!(!s.contains_point(v(f32::NAN, 1.0, 1.0)));
    let point = Sphere::new(Vec3::ZERO, 0.0);
    assert!(point.contains_point(Vec3::ZERO));
    assert!(!point.contains_point(v(1e-6, 0.0, 0.0)));
}

/// Capsule validation mirrors the sphere's.
#[test]
fn capsule_validate() {
    let axis = seg(Vec3::ZERO, Vec3::Y);
    assert_eq!(Capsule::new(axis, 0.0).validate(), Ok(()));
    assert_eq!(Capsule::new(seg(Vec3::ONE, Vec3::ONE), 1.0).validate(), Ok(()));
    assert_eq!(Capsule::new(axis, -0.5).validate(), Err(Error::NegativeRadius));
    assert!(matches!(
        Capsule::new(seg(Vec3::ZERO, v(0.0, f32::NAN, 0.0)), 1.0).validate(),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        Capsule::new(axis, f32::INFINITY).validate(),
        Err(Error::NonFinite(_))
    ));
}

/// Capsule containment: axis, cylinder surface, cap surface, beyond the caps, zero-length axis, NaN.
#[test]
fn capsule_contains_point() {
    let c = Capsule::new(seg(v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0)), 0.5);
    assert!(c.contains_point(Vec3::ZERO));
    assert!(c.contains_point(v(0.0, 1.0, 0.0)));
    assert!(c.contains_point(v(0.5, 0.3, 0.0)));
    assert!(c.contains_point(v(0.0, 0.7, -0.5)));
    assert!(c.contains_point(v(0.0, 1.5, 0.0)));
    assert!(c.contains_point(v(0.0, -1.5, 0.0)));
    assert!(!c.contains_point(v(0.0, next_up(1.5), 0.0)));
    assert!(!c.contains_point(v(next_up(0.5), 0.0, 0.0)));
    assert!(!c.contains_point(v(0.4, 1.4, 0.0)));
    assert!(!c.contains_point(v(f32::NAN, 0.0, 0.0)));
    // A zero-length axis is a sphere, not an empty set.
    let ball = Capsule::new(seg(Vec3::ONE, Vec3::ONE), 1.0);
    assert!(ball.contains_point(Vec3::ONE));
    assert!(ball.contains_point(v(1.0, 1.5, 1.0)));
    assert!(ball.contains_point(v(2.0, 1.0, 1.0)));
    assert!(!ball.contains_point(v(2.0, 1.5, 1.0)));
}

/// Box validation: zero size allowed; inverted axes named; non-finite corners refused.
#[test]
fn aabb_validate() {
    assert_eq!(Aabb::new(Vec3::ONE, Vec3::ONE).validate(), Ok(()));
    assert_eq!(Aabb::new(v(0.0, 0.0, 0.0), v(1.0, 0.0, 2.0)).validate(), Ok(()));
    assert_eq!(
        Aabb::new(v(1.0, 0.0, 0.0), v(0.0, 1.0, 1.0)).validate(),
        Err(Error::InvertedBox("x"))
    );
    assert_eq!(
        Aabb::new(v(0.0, 1.0, 0.0), v(1.0, 0.0, 1.0)).validate(),
        Err(Error::InvertedBox("y"))
    );
    assert_eq!(
        Aabb::new(v(0.0, 0.0, 1.0), v(1.0, 1.0, 0.0)).validate(),
        Err(Error::InvertedBox("z"))
    );
    assert!(matches!(
        Aabb::new(v(f32::NAN, 0.0, 0.0), Vec3::ONE).validate(),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        Aabb::new(Vec3::ZERO, v(1.0, f32::INFINITY, 1.0)).validate(),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        Aabb::new(v(0.0, 0.0, f32::NEG_INFINITY), Vec3::ONE).validate(),
        Err(Error::NonFinite(_))
    ));
}

/// Box containment: corners, edges and faces inside; one ulp beyond each face outside; NaN outside.
#[test]
fn aabb_contains_point() {
    let b = Aabb::new(v(-1.0, 2.0, 0.5), v(3.0, 4.0, 0.75));
    for corner in b.corners() {
        assert!(b.contains_point(corner), "{corner:?}");
    }
    assert!(b.contains_point(b.center()));
    assert!(b.contains_point(v(-1.0, 3.0, 0.6)));
    let c = b.center();
    for axis in 0..3 {
        let mut above = c;
        above[axis] = next_up(b.max[axis]);
        let mut below = c;
        below[axis] = next_down(b.min[axis]);
        assert!(!b.contains_point(above), "{above:?}");
        assert!(!b.contains_point(below), "{below:?}");
        let mut nan = c;
        nan[axis] = f32::NAN;
        assert!(!b.contains_point(nan));
    }
    let flat = Aabb::new(v(0.0, 0.0, 0.0), v(1.0, 0.0, 1.0));
    assert!(flat.contains_point(v(0.5, 0.0, 0.5)));
    assert!(!flat.contains_point(v(0.5, next_up(0.0), 0.5)));
}

/// Box helpers: centre, half-extents, corners, surface area, expansion, union, growth.
#[test]
fn aabb_helpers() {
    let b = Aabb::new(v(-1.0, 2.0, 0.0), v(3.0, 4.0, 1.0));
    assert_eq!(b.center(), v(1.0, 3.0, 0.5));
    assert_eq!(b.half_extents(), v(2.0, 1.0, 0.5));
    assert_eq!(Aabb::from_center_half_extents(b.center(), b.half_extents()), b);
    assert_eq!(b.surface_area(), 2.0 * (4.0 * 2.0 + 2.0 * 1.0 + 1.0 * 4.0));
    assert_eq!(b.expanded(0.5), Aabb::new(v(-1.5, 1.5, -0.5), v(3.5, 4.5, 1.5)));
    let corners = b.corners();
    assert_eq!(corners[0], b.min);
    assert_eq!(corners[7], b.max);
    assert_eq!(corners[1], v(3.0, 2.0, 0.0));
    assert_eq!(corners[2], v(-1.0, 4.0, 0.0));
    assert_eq!(corners[4], v(-1.0, 2.0, 1.0));
    assert_eq!(Aabb::from_points(&corners), Some(b));
    assert_eq!(b.closest_point(v(10.0, 3.0, -5.0)), v(3.0, 3.0, 0.0));
    assert_eq!(b.closest_point(v(0.0, 3.0, 0.5)), v(0.0, 3.0, 0.5));
}

/// `from_points`: `None` when empty, a zero-size box for one point, the bounds otherwise.
#[test]
fn aabb_from_points() {
    assert_eq!(Aabb::from_points(&[]), None);
    assert_eq!(
        Aabb::from_points(&[v(1.0, 2.0, 3.0)]),
        Some(Aabb::new(v(1.0, 2.0, 3.0), v(1.0, 2.0, 3.0)))
    );
    let b = Aabb::from_points(&[v(1.0, -2.0, 0.0), v(-1.0, 3.0, 0.5), v(0.0, 0.0, -4.0)]).unwrap();
    assert_eq!(b, Aabb::new(v(-1.0, -2.0, -4.0), v(1.0, 3.0, 0.5)));
}

/// `grow` extends the box to hold a point and leaves it unchanged for a point inside.
#[test]
fn aabb_grow() {
    let mut b = unit_box();
    b.grow(v(0.5, 0.5, 0.5));
    assert_eq!(b, unit_box());
    b.grow(v(2.0, -1.0, 0.5));
    assert_eq!(b, Aabb::new(v(0.0, -1.0, 0.0), v(2.0, 1.0, 1.0)));
}

/// `union` is the smallest box holding both, in either order.
#[test]
fn aabb_union() {
    let a = Aabb::new(v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0));
    let b = Aabb::new(v(-2.0, 0.5, 3.0), v(0.5, 0.75, 4.0));
    let u = Aabb::new(v(-2.0, 0.0, 0.0), v(1.0, 1.0, 4.0));
    assert_eq!(a.union(&b), u);
    assert_eq!(b.union(&a), u);
    assert_eq!(a.union(&a), a);
}

/// `transformed` scales first, mirroring (min and max swap) on a negative scale.
#[test]
fn aabb_transformed_scale() {
    let b = Aabb::new(v(1.0, 2.0, 3.0), v(4.0, 5.0, 6.0));
    let scaled = b.transformed(v(2.0, -1.0, 0.5), Quat::IDENTITY, false, Vec3::ZERO);
    assert_eq!(scaled, Aabb::new(v(2.0, -5.0, 1.5), v(8.0, -2.0, 3.0)));
    let mirrored = b.transformed(Vec3::splat(-1.0), Quat::IDENTITY, true, Vec3::ZERO);
    assert_eq!(mirrored, Aabb::new(v(-4.0, -5.0, -6.0), v(-1.0, -2.0, -3.0)));
    let flattened = b.transformed(v(1.0, 0.0, 1.0), Quat::IDENTITY, false, v(0.0, 7.0, 0.0));
    assert_eq!(flattened, Aabb::new(v(1.0, 7.0, 3.0), v(4.0, 7.0, 6.0)));
    assert_eq!(flattened.validate(), Ok(()));
}

/// Without rotation, or with the identity rotation, translation is exact (no rounding beyond the addition).
#[test]
fn aabb_transformed_translation_exact() {
    let b = Aabb::new(v(0.1, 0.2, -0.3), v(0.7, 1.1, 1.3));
    let t = v(1000.1, -7.3, 0.05);
    let expected = Aabb::new(b.min + t, b.max + t);
    assert_eq!(b.transformed(Vec3::ONE, Quat::IDENTITY, true, t), expected);
    assert_eq!(b.transformed(Vec3::ONE, Quat::IDENTITY, false, t), expected);
    // should_rotate off ignores the rotation entirely.
    let turn = Quat::from_rotation_y(0.7);
    assert_eq!(b.transformed(Vec3::ONE, turn, false, t), expected);
}

/// A quarter turn about z maps the box's bounds as expected.
#[test]
fn aabb_transformed_quarter_turn() {
    let b = Aabb::new(v(0.0, 0.0, 0.0), v(2.0, 1.0, 1.0));
    let r = b.transformed(Vec3::ONE, Quat::from_rotation_z(FRAC_PI_2), true, v(10.0, 0.0, 0.0));
    assert_vec_near(r.min, v(9.0, 0.0, 0.0), 1e-6);
    assert_vec_near(r.max, v(10.0, 2.0, 1.0), 1e-6);
    let diamond = unit_box().transformed(Vec3::ONE, Quat::from_rotation_z(FRAC_PI_4), true, Vec3::ZERO);
    assert_vec_near(diamond.min, v(-FRAC_1_SQRT_2, 0.0, 0.0), 1e-6);
    assert_vec_near(diamond.max, v(FRAC_1_SQRT_2, SQRT_2, 1.0), 1e-6);
}

/// Rotation with `should_rotate` equals the bounds of the eight scaled corners rotated by brute force (the book's `AABB::Rotate`).
#[test]
fn aabb_transformed_rotation_vs_corners() {
    let mut rng = seeded(0x5EED_0002);
    for _ in 0..2000 {
        let min = rng.vec(-5.0, 5.0);
        let b = Aabb::new(min, min + rng.vec(0.0, 4.0));
        let scale = match rng.next_u64() % 3 {
            0 => Vec3::splat(rng.range(-3.0, 3.0)),
            1 => rng.vec(-3.0, 3.0),
            _ => Vec3::ONE,
        };
        let rotation = rng.rotation();
        let translation = rng.vec(-50.0, 50.0);
        let rotated = b.transformed(scale, rotation, true, translation);
        let corners: Vec<Vec3> = b
            .corners()
            .iter()
            .map(|&c| rotation * (c * scale) + translation)
            .collect();
        let brute = Aabb::from_points(&corners).unwrap();
        assert_vec_near(rotated.min, brute.min, 1e-4);
        assert_vec_near(rotated.max, brute.max, 1e-4);
        assert_eq!(rotated.validate(), Ok(()));
        // Off: only scale and translation.
        let plain = b.transformed(scale, rotation, false, translation);
        let scaled: Vec<Vec3> = b.corners().iter().map(|&c| c * scale + translation).collect();
        let brute = Aabb::from_points(&scaled).unwrap();
        assert_vec_near(plain.min, brute.min, 1e-5);
        assert_vec_near(plain.max, brute.max, 1e-5);
        // `rotated` alone is the same bounds about the origin.
        let about_origin = b.rotated(Mat3::from_quat(rotation));
        let corners: Vec<Vec3> = b.corners().iter().map(|&c| rotation * c).collect();
        let brute = Aabb::from_points(&corners).unwrap();
        assert_vec_near(about_origin.min, brute.min, 1e-4);
        assert_vec_near(about_origin.max, brute.max, 1e-4);
    }
}

/// Distance from a box to a point along each axis (z included), to a corner region, and zero inside or on the boundary.
#[test]
fn aabb_distance_squared_to_point() {
    let b = unit_box();
    assert_eq!(b.distance_squared_to_point(v(0.5, 0.5, 0.5)), 0.0);
    assert_eq!(b.distance_squared_to_point(v(1.0, 0.0, 0.5)), 0.0);
    assert_eq!(b.distance_squared_to_point(v(3.0, 0.5, 0.5)), 4.0);
    assert_eq!(b.distance_squared_to_point(v(-2.0, 0.5, 0.5)), 4.0);
    assert_eq!(b.distance_squared_to_point(v(0.5, 3.0, 0.5)), 4.0);
    assert_eq!(b.distance_squared_to_point(v(0.5, -2.0, 0.5)), 4.0);
    assert_eq!(b.distance_squared_to_point(v(0.5, 0.5, 3.0)), 4.0);
    assert_eq!(b.distance_squared_to_point(v(0.5, 0.5, -2.0)), 4.0);
    assert_eq!(b.distance_squared_to_point(v(2.0, 3.0, -1.0)), 1.0 + 4.0 + 1.0);
    assert_eq!(b.distance_squared_to_point(v(0.5, -1.0, 4.0)), 1.0 + 9.0);
    assert!(b.distance_squared_to_point(v(0.5, f32::NAN, 0.5)).is_nan());
    assert!(Aabb::new(v(f32::NAN, 0.0, 0.0), Vec3::ONE)
        .distance_squared_to_point(Vec3::splat(0.5))
        .is_nan());
}

/// Analytic segment-to-box distances: through, beside, beyond a corner, zero-length, on the surface.
#[test]
fn aabb_distance_squared_to_segment_analytic() {
    let b = unit_box();
    let cases = [
        (seg(v(-1.0, 3.0, 0.5), v(2.0, 3.0, 0.5)), 4.0),
        (seg(v(-1.0, 0.5, 0.5), v(2.0, 0.5, 0.5)), 0.0),
        (seg(v(0.5, 0.5, 0.5), v(0.5, 0.5, 0.5)), 0.0),
        (seg(v(3.0, 0.5, 0.5), v(3.0, 0.5, 0.5)), 4.0),
        (seg(v(0.5, 0.5, 3.0), v(0.5, 0.5, 5.0)), 4.0),
        (seg(v(2.0, 2.0, 3.0), v(2.0, 2.0, 7.0)), 1.0 + 1.0 + 4.0),
        (seg(v(-1.0, 2.0, 0.5), v(2.0, -1.0, 0.5)), 0.0),
        (seg(v(-1.0, 2.0, 0.5), v(1.0, 4.0, 0.5)), 2.0),
        (seg(v(-1.0, 2.0, 0.5), v(2.0, 2.0, 0.5)), 1.0),
        (seg(v(-2.0, 1.0, 0.5), v(3.0, 1.0, 0.5)), 0.0),
        (seg(v(3.0, 0.5, 0.5), v(5.0, 0.5, 0.5)), 4.0),
    ];
    for (s, expected) in cases {
        assert_near(b.distance_squared_to_segment(&s), expected, 1e-6);
        let reversed = seg(s.end, s.start);
        assert_near(b.distance_squared_to_segment(&reversed), expected, 1e-6);
    }
    assert!(b
        .distance_squared_to_segment(&seg(v(0.5, 0.5, 0.5), v(f32::NAN, 0.0, 0.0)))
        .is_nan());
    assert!(b
        .distance_squared_to_segment(&seg(v(f32::NAN, 0.5, 0.5), v(0.5, 0.0, 0.0)))
        .is_nan());
}

/// A segment through a box's interior is at distance exactly 0, however its end points round.
#[test]
fn aabb_distance_squared_to_segment_through_interior_is_zero() {
    let mut rng = seeded(0x5EED_0003);
    for _ in 0..5000 {
        let min = rng.vec(-5.0, 5.0);
        let b = Aabb::new(min, min + rng.vec(0.01, 3.0));
        let inner = b.min + (b.max - b.min) * v(rng.range(0.01, 0.99), rng.range(0.01, 0.99), rng.range(0.01, 0.99));
        let direction = rng.vec(-10.0, 10.0);
        let s = seg(
            inner - direction * rng.random::<f32>(),
            inner + direction * rng.random::<f32>(),
        );
        assert_eq!(b.distance_squared_to_segment(&s), 0.0, "{b:?} {s:?}");
    }
}

/// Random segments and boxes: the exact piecewise answer lies between an `f64` ternary search and a dense sampling.
#[test]
fn aabb_distance_squared_to_segment_vs_reference() {
    let mut rng = seeded(0x5EED_0004);
    for i in 0..3000 {
        let min = rng.vec(-3.0, 3.0);
        let size = if i % 5 == 0 {
            v(rng.range(0.0, 2.0), 0.0, rng.range(0.0, 2.0))
        } else {
            rng.vec(0.0, 2.0)
        };
        let b = Aabb::new(min, min + size);
        let s = if i % 7 == 0 {
            // Parallel to an axis.
            let start = rng.vec(-6.0, 6.0);
            let mut end = start;
            end[(i / 7) % 3] += rng.range(-5.0, 5.0);
            seg(start, end)
        } else {
            seg(rng.vec(-6.0, 6.0), rng.vec(-6.0, 6.0))
        };
        let ours = f64::from(b.distance_squared_to_segment(&s));
        let reference = ternary_min(0.0, 1.0, |t| {
            box_point_distance_squared_f64(&b, segment_point_f64(&s, t))
        });
        let sampled = (0..=1000)
            .map(|k| box_point_distance_squared_f64(&b, segment_point_f64(&s, f64::from(k) / 1000.0)))
            .fold(f64::INFINITY, f64::min);
        assert!(
            reference <= sampled + 1e-9,
            "reference search failed: {reference} > {sampled}"
        );
        assert!(
            (ours.sqrt() - reference.sqrt()).abs() <= 1e-5,
            "case {i}: {b:?} {s:?}: ours {ours}, reference {reference}"
        );
        // `ours` is an f32: its rounding is relative (an ulp of 92 is 8e-6).
        assert!(
            ours <= sampled + 1e-5 * sampled.max(1.0),
            "case {i}: ours {ours} above sampled {sampled}"
        );
    }
}

/// Oriented box validation: negative half-extents, non-unit rotations and non-finite numbers refused.
#[test]
fn obb_validate() {
    let ok = Obb::new(Vec3::ZERO, Quat::from_rotation_x(0.3), v(1.0, 0.0, 2.0));
    assert_eq!(ok.validate(), Ok(()));
    let nearly_unit = Obb::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 1.0002), Vec3::ONE);
    assert_eq!(nearly_unit.validate(), Ok(()));
    assert_eq!(
        Obb::new(Vec3::ZERO, Quat::IDENTITY, v(1.0, -1.0, 1.0)).validate(),
        Err(Error::InvertedBox("y"))
    );
    assert!(matches!(
        Obb::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 1.1), Vec3::ONE).validate(),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        Obb::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ONE).validate(),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        Obb::new(v(f32::NAN, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE).validate(),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        Obb::new(Vec3::ZERO, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0), Vec3::ONE).validate(),
        Err(Error::NonFinite(_))
    ));
}

/// Oriented box frame helpers: axes, `to_local` and the bounding box.
#[test]
fn obb_frame_and_bounds() {
    let o = Obb::new(v(5.0, 0.0, 0.0), Quat::from_rotation_z(FRAC_PI_2), v(2.0, 1.0, 0.5));
    let axes = o.axes();
    assert_vec_near(axes.x_axis, Vec3::Y, 1e-6);
    assert_vec_near(axes.y_axis, Vec3::NEG_X, 1e-6);
    assert_vec_near(axes.z_axis, Vec3::Z, 1e-6);
    assert_vec_near(o.to_local(v(5.0, 2.0, 0.0)), v(2.0, 0.0, 0.0), 1e-6);
    let bounds = o.bounding_aabb();
    assert_vec_near(bounds.min, v(4.0, -2.0, -0.5), 1e-6);
    assert_vec_near(bounds.max, v(6.0, 2.0, 0.5), 1e-6);
    let diamond = Obb::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE).bounding_aabb();
    assert_vec_near(diamond.max, v(SQRT_2, SQRT_2, 1.0), 1e-6);
    let straight = Obb::new(v(1.0, 2.0, 3.0), Quat::IDENTITY, v(0.5, 0.25, 1.0)).bounding_aabb();
    assert_eq!(straight, Aabb::new(v(0.5, 1.75, 2.0), v(1.5, 2.25, 4.0)));
}

/// Oriented box containment: boundary inside (exact for the identity rotation), rotated corners, NaN outside.
#[test]
fn obb_contains_point() {
    let straight = Obb::new(v(1.0, 2.0, 3.0), Quat::IDENTITY, v(0.5, 0.25, 1.0));
    assert!(straight.contains_point(v(1.5, 2.25, 4.0)));
    assert!(straight.contains_point(v(0.5, 2.0, 3.0)));
    assert!(!straight.contains_point(v(next_up(1.5), 2.0, 3.0)));
    let diamond = Obb::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    assert!(diamond.contains_point(v(SQRT_2 - 1e-4, 0.0, 0.0)));
    assert!(!diamond.contains_point(v(SQRT_2 + 1e-4, 0.0, 0.0)));
    assert!(!diamond.contains_point(v(1.0, 1.0, 0.0)));
    assert!(diamond.contains_point(v(0.7, 0.7, 0.99)));
    assert!(!diamond.contains_point(v(0.0, f32::NAN, 0.0)));
}

// ---------------------------------------------------------------------------
// Convex polygon
// ---------------------------------------------------------------------------

fn square_ccw() -> Vec<Vec2> {
    vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
    ]
}

/// Valid polygons in either orientation, with collinear vertices, keep their vertices and report their orientation.
#[test]
fn polygon_new_valid() {
    let ccw = ConvexPolygon::new(square_ccw()).unwrap();
    assert_eq!(ccw.orientation(), 1.0);
    assert_eq!(ccw.vertices(), square_ccw().as_slice());
    let mut cw_vertices = square_ccw();
    cw_vertices.reverse();
    let cw = ConvexPolygon::new(cw_vertices.clone()).unwrap();
    assert_eq!(cw.orientation(), -1.0);
    assert_eq!(cw.vertices(), cw_vertices.as_slice());
    let with_collinear = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(0.5, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
    ];
    assert!(ConvexPolygon::new(with_collinear).is_ok());
    let triangle = vec![Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(1.0, 0.0)];
    assert_eq!(ConvexPolygon::new(triangle).unwrap().orientation(), -1.0);
}

/// Empty, too small, degenerate, non-convex, self-intersecting and non-finite polygons are refused.
#[test]
fn polygon_new_invalid() {
    let invalid = |vertices: Vec<Vec2>| matches!(ConvexPolygon::new(vertices), Err(Error::InvalidArgument(_)));
    assert!(invalid(vec![]));
    assert!(invalid(vec![Vec2::ONE]));
    assert!(invalid(vec![Vec2::ZERO, Vec2::ONE]));
    assert!(invalid(vec![Vec2::ONE, Vec2::ONE, Vec2::ONE]));
    assert!(invalid(vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(2.0, 2.0)
    ]));
    assert!(invalid(vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(0.0, 0.0)
    ]));
    // A dart (one reflex vertex).
    assert!(invalid(vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 1.0),
        Vec2::new(0.0, 2.0),
        Vec2::new(0.5, 1.0)
    ]));
    // A pentagram: every turn has the same sign, but the outline winds twice.
    let pentagram: Vec<Vec2> = (0..5)
        .map(|i| {
            let angle = (i * 2) as f32 * std::f32::consts::TAU / 5.0;
            Vec2::new(angle.cos(), angle.sin())
        })
        .collect();
    assert!(invalid(pentagram));
    // A square traversed twice.
    let mut twice = square_ccw();
    twice.extend(square_ccw());
    assert!(invalid(twice));
    // A bow tie.
    assert!(invalid(vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.0, 1.0)
    ]));
    let mut nan = square_ccw();
    nan[2].y = f32::NAN;
    assert!(matches!(ConvexPolygon::new(nan), Err(Error::NonFinite(_))));
    let mut inf = square_ccw();
    inf[0].x = f32::INFINITY;
    assert!(matches!(ConvexPolygon::new(inf), Err(Error::NonFinite(_))));
}

/// Containment in both orientations: interior, vertices and edges inside; one ulp outside is outside; NaN outside.
#[test]
fn polygon_contains_point() {
    let ccw = ConvexPolygon::new(square_ccw()).unwrap();
    let mut reversed = square_ccw();
    reversed.reverse();
    let cw = ConvexPolygon::new(reversed).unwrap();
    for polygon in [&ccw, &cw] {
        assert!(polygon.contains_point(Vec2::new(0.5, 0.5)));
        for &vertex in polygon.vertices() {
            assert!(polygon.contains_point(vertex), "vertex {vertex:?}");
        }
        assert!(polygon.contains_point(Vec2::new(0.5, 0.0)));
        assert!(polygon.contains_point(Vec2::new(1.0, 0.25)));
        assert!(!polygon.contains_point(Vec2::new(next_up(1.0), 0.5)));
        assert!(!polygon.contains_point(Vec2::new(0.5, next_down(0.0))));
        assert!(polygon.contains_point(Vec2::new(next_down(1.0), 0.5)));
        assert!(!polygon.contains_point(Vec2::new(next_up(1.0), next_up(1.0))));
        assert!(!polygon.contains_point(Vec2::new(f32::NAN, 0.5)));
        assert!(!polygon.contains_point(Vec2::new(2.0, 0.5)));
    }
    // A diagonal edge: its exactly representable midpoint is inside, one ulp beyond is not.
    let triangle = ConvexPolygon::new(vec![Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(0.0, 4.0)]).unwrap();
    assert!(triangle.contains_point(Vec2::new(2.0, 2.0)));
    assert!(triangle.contains_point(Vec2::new(1.0, 3.0)));
    assert!(!triangle.contains_point(Vec2::new(next_up(2.0), 2.0)));
    assert!(!triangle.contains_point(Vec2::new(2.5, 2.5)));
}

/// A large regular polygon (1000 vertices, radius 1e4) contains its centre and points near its vertices.
#[test]
fn polygon_contains_point_large() {
    let centre = Vec2::new(3000.0, -2000.0);
    let vertices: Vec<Vec2> = (0..1000)
        .map(|i| {
            let angle = i as f32 * std::f32::consts::TAU / 1000.0;
            centre + 1e4 * Vec2::new(angle.cos(), angle.sin())
        })
        .collect();
    let polygon = ConvexPolygon::new(vertices.clone()).unwrap();
    assert!(polygon.contains_point(centre));
    assert!(polygon.contains_point(vertices[0]));
    assert!(polygon.contains_point(centre + (vertices[17] - centre) * 0.999));
    assert!(!polygon.contains_point(centre + (vertices[17] - centre) * 1.001));
    assert!(!polygon.contains_point(centre + Vec2::new(2e4, 0.0)));
}

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
// Segment casts
// ---------------------------------------------------------------------------

/// `cast_plane`: t, the normal facing the start from either side, end exactly on the plane.
#[test]
fn cast_plane_hits() {
    let ground = Plane::from_normal_and_point(Vec3::Y, Vec3::ZERO).unwrap();
    assert_hit(
        seg(v(0.0, 2.0, 0.0), v(0.0, -2.0, 0.0)).cast_plane(&ground),
        0.5,
        Vec3::Y,
    );
    assert_hit(
        seg(v(0.0, -1.0, 0.0), v(0.0, 3.0, 0.0)).cast_plane(&ground),
        0.25,
        Vec3::NEG_Y,
    );
    assert_hit(
        seg(v(1.0, 4.0, 0.0), v(5.0, 0.0, 2.0)).cast_plane(&ground),
        1.0,
        Vec3::Y,
    );
    assert_hit(
        seg(v(1.0, 0.0, 0.0), v(5.0, 3.0, 2.0)).cast_plane(&ground),
        0.0,
        Vec3::Y,
    );
    let offset = Plane::from_normal_and_point(Vec3::NEG_X, v(3.0, 0.0, 0.0)).unwrap();
    assert_hit(seg(Vec3::ZERO, v(4.0, 0.0, 0.0)).cast_plane(&offset), 0.75, Vec3::NEG_X);
}

/// `cast_plane` misses: short, pointing away, parallel off the plane, NaN; parallel in the plane hits at t = 0.
#[test]
fn cast_plane_misses_and_parallel() {
    let ground = Plane::from_normal_and_point(Vec3::Y, Vec3::ZERO).unwrap();
    assert!(seg(v(0.0, 3.0, 0.0), v(0.0, 1.0, 0.0)).cast_plane(&ground).is_none());
    assert!(seg(v(0.0, 3.0, 0.0), v(0.0, 5.0, 0.0)).cast_plane(&ground).is_none());
    assert!(seg(v(0.0, 1.0, 0.0), v(5.0, 1.0, 0.0)).cast_plane(&ground).is_none());
    assert_hit(
        seg(v(0.0, 0.0, 0.0), v(5.0, 0.0, 3.0)).cast_plane(&ground),
        0.0,
        Vec3::Y,
    );
    assert_hit(seg(Vec3::ZERO, Vec3::ZERO).cast_plane(&ground), 0.0, Vec3::Y);
    assert!(seg(Vec3::Y, Vec3::Y).cast_plane(&ground).is_none());
    assert!(seg(v(0.0, f32::NAN, 0.0), v(0.0, -1.0, 0.0))
        .cast_plane(&ground)
        .is_none());
    assert!(seg(v(0.0, 1.0, 0.0), v(f32::NAN, -1.0, 0.0))
        .cast_plane(&ground)
        .is_none());
}

/// `cast_sphere`: head-on and oblique hits with the outward normal, end exactly on the surface, tangent grazing.
#[test]
fn cast_sphere_hits() {
    let s = Sphere::new(v(5.0, 0.0, 0.0), 1.0);
    assert_hit(seg(Vec3::ZERO, v(10.0, 0.0, 0.0)).cast_sphere(&s), 0.4, Vec3::NEG_X);
    assert_hit(seg(v(5.0, 10.0, 0.0), v(5.0, 0.0, 0.0)).cast_sphere(&s), 0.9, Vec3::Y);
    let unit = Sphere::new(Vec3::ZERO, 1.0);
    assert_hit(seg(v(3.0, 0.0, 0.0), v(1.0, 0.0, 0.0)).cast_sphere(&unit), 1.0, Vec3::X);
    assert_hit(
        seg(v(-2.0, 1.0, 0.0), v(2.0, 1.0, 0.0)).cast_sphere(&unit),
        0.5,
        Vec3::Y,
    );
    // Oblique: enters at (−0.6, 0.8, 0) on a line y = 0.8.
    assert_hit(
        seg(v(-2.6, 0.8, 0.0), v(1.4, 0.8, 0.0)).cast_sphere(&unit),
        0.5,
        v(-0.6, 0.8, 0.0),
    );
    // A point-sized sphere on the segment.
    assert_hit(
        seg(Vec3::ZERO, v(4.0, 0.0, 0.0)).cast_sphere(&Sphere::new(v(1.0, 0.0, 0.0), 0.0)),
        0.25,
        Vec3::NEG_X,
    );
}

/// `cast_sphere` from inside (or on the surface) hits at t = 0 with the normal `−d/|d|`; a zero-length segment is a point test.
#[test]
fn cast_sphere_start_inside_and_zero_length() {
    let s = Sphere::new(Vec3::ZERO, 2.0);
    assert_hit(
        seg(v(0.5, 0.0, 0.0), v(0.5, 0.0, 3.0)).cast_sphere(&s),
        0.0,
        Vec3::NEG_Z,
    );
    assert_hit(
        seg(v(-0.5, 0.0, 0.0), v(0.5, 0.0, 0.0)).cast_sphere(&s),
        0.0,
        Vec3::NEG_X,
    );
    assert_hit(
        seg(v(2.0, 0.0, 0.0), v(5.0, 0.0, 0.0)).cast_sphere(&s),
        0.0,
        Vec3::NEG_X,
    );
    assert_hit(
        seg(v(0.0, 0.0, 3.0), v(0.0, 0.0, -3.0)).cast_sphere(&s),
        1.0 / 6.0,
        Vec3::Z,
    );
    let inside_point = seg(v(1.0, 1.0, 0.0), v(1.0, 1.0, 0.0)).cast_sphere(&s).unwrap();
    // A point inside: the normal of the way out, from the centre through it.
    assert_eq!(inside_point.t, 0.0);
    assert!((inside_point.normal - (v(1.0, 1.0, 0.0) - s.center).normalize()).length() < 1e-6);
    assert!(seg(v(3.0, 0.0, 0.0), v(3.0, 0.0, 0.0)).cast_sphere(&s).is_none());
}

/// `cast_sphere` misses: too short, pointing away, passing by, NaN anywhere.
#[test]
fn cast_sphere_misses() {
    let s = Sphere::new(Vec3::ZERO, 1.0);
    assert!(seg(v(5.0, 0.0, 0.0), v(1.001, 0.0, 0.0)).cast_sphere(&s).is_none());
    assert!(seg(v(5.0, 0.0, 0.0), v(9.0, 0.0, 0.0)).cast_sphere(&s).is_none());
    assert!(seg(v(-2.0, next_up(1.0), 0.0), v(2.0, next_up(1.0), 0.0))
        .cast_sphere(&s)
        .is_none());
    assert!(seg(v(-5.0, 3.0, 0.0), v(5.0, 3.0, 0.0)).cast_sphere(&s).is_none());
    assert!(seg(v(f32::NAN, 0.0, 0.0), v(-5.0, 0.0, 0.0)).cast_sphere(&s).is_none());
    assert!(seg(v(5.0, 0.0, 0.0), v(-5.0, f32::NAN, 0.0)).cast_sphere(&s).is_none());
    assert!(seg(v(5.0, 0.0, 0.0), v(-5.0, 0.0, 0.0))
        .cast_sphere(&Sphere::new(Vec3::ZERO, f32::NAN))
        .is_none());
}

/// `cast_aabb` through each of the six faces reports that face's outward normal.
#[test]
fn cast_aabb_every_face() {
    let b = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let mut start = Vec3::ZERO;
            start[axis] = 3.0 * sign;
            let mut normal = Vec3::ZERO;
            normal[axis] = sign;
            assert_hit(seg(start, -start).cast_aabb(&b), 1.0 / 3.0, normal);
        }
    }
    // Oblique entry through the top face.
    assert_hit(seg(v(0.0, 3.0, 0.0), v(0.5, -1.0, 0.25)).cast_aabb(&b), 0.5, Vec3::Y);
}

/// `cast_aabb` from inside (or on the boundary moving out) hits at t = 0 with the normal `−d/|d|`, not the exit face.
#[test]
fn cast_aabb_start_inside() {
    let b = unit_box();
    assert_hit(seg(v(0.5, 0.5, 0.5), v(3.0, 0.5, 0.5)).cast_aabb(&b), 0.0, Vec3::NEG_X);
    assert_hit(seg(v(0.5, 0.5, 0.5), v(0.5, 0.5, -9.0)).cast_aabb(&b), 0.0, Vec3::Z);
    assert_hit(
        seg(v(0.25, 0.5, 0.5), v(0.75, 0.5, 0.5)).cast_aabb(&b),
        0.0,
        Vec3::NEG_X,
    );
    let diagonal = seg(v(0.5, 0.5, 0.5), v(2.5, 2.5, 0.5)).cast_aabb(&b).unwrap();
    assert_eq!(diagonal.t, 0.0);
    assert_vec_near(diagonal.normal, v(-FRAC_1_SQRT_2, -FRAC_1_SQRT_2, 0.0), 1e-6);
    assert_hit(seg(v(1.0, 0.5, 0.5), v(3.0, 0.5, 0.5)).cast_aabb(&b), 0.0, Vec3::NEG_X);
    // A point inside: the nearest face's normal, the first axis's lower
    // face on a tie (the centre is equally near all six).
    let point = seg(v(0.5, 0.5, 0.5), v(0.5, 0.5, 0.5)).cast_aabb(&b).unwrap();
    assert_eq!((point.t, point.normal), (0.0, Vec3::NEG_X));
    let near_top = seg(v(0.5, 0.9, 0.4), v(0.5, 0.9, 0.4)).cast_aabb(&b).unwrap();
    assert_eq!((near_top.t, near_top.normal), (0.0, Vec3::Y));
    assert!(seg(v(2.0, 0.5, 0.5), v(2.0, 0.5, 0.5)).cast_aabb(&b).is_none());
}

/// `cast_aabb` grazing: along a face plane, through an edge, through a corner, into a zero-size box, thin motions.
#[test]
fn cast_aabb_grazing_and_thin() {
    let b = unit_box();
    // Lying in the face plane y = 1.
    assert_hit(
        seg(v(-1.0, 1.0, 0.5), v(2.0, 1.0, 0.5)).cast_aabb(&b),
        1.0 / 3.0,
        Vec3::NEG_X,
    );
    // Parallel, one ulp above the face.
    assert!(seg(v(-1.0, next_up(1.0), 0.5), v(2.0, next_up(1.0), 0.5))
        .cast_aabb(&b)
        .is_none());
    // Touching only the edge x = 0, y = 1.
    assert_hit(seg(v(-1.0, 0.0, 0.5), v(1.0, 2.0, 0.5)).cast_aabb(&b), 0.5, Vec3::NEG_X);
    // Touching only the corner (1, 1, 1).
    assert_hit(seg(v(2.0, 0.0, 2.0), v(0.0, 2.0, 0.0)).cast_aabb(&b), 0.5, Vec3::X);
    // A zero-size box on the segment.
    let point_box = Aabb::new(Vec3::ONE, Vec3::ONE);
    assert_hit(
        seg(Vec3::ZERO, Vec3::splat(2.0)).cast_aabb(&point_box),
        0.5,
        Vec3::NEG_X,
    );
    // A motion of 6e-4 on x only, crossing the face x = 0 (the book's 0.001 epsilon drops it).
    assert_hit(
        seg(v(-3e-4, 0.5, 0.5), v(3e-4, 0.5, 0.5)).cast_aabb(&b),
        0.5,
        Vec3::NEG_X,
    );
    // A tiny extent on x with a long motion on z.
    let hit = seg(v(-2e-4, 0.5, -1.0), v(3e-4, 0.5, 2.0)).cast_aabb(&b).unwrap();
    assert_near(hit.t, 0.4, 1e-6);
    assert_eq!(hit.normal, Vec3::NEG_X);
}

/// `cast_aabb`: ending exactly on the surface hits at t = 1; stopping short, passing by and NaN miss.
#[test]
fn cast_aabb_end_on_surface_and_misses() {
    let b = unit_box();
    assert_hit(seg(v(-1.0, 0.5, 0.5), v(0.0, 0.5, 0.5)).cast_aabb(&b), 1.0, Vec3::NEG_X);
    assert!(seg(v(-1.0, 0.5, 0.5), v(-1e-6, 0.5, 0.5)).cast_aabb(&b).is_none());
    assert!(seg(v(-1.0, 2.0, 0.5), v(2.0, 2.0, 0.5)).cast_aabb(&b).is_none());
    assert!(seg(v(2.0, 0.5, 0.5), v(3.0, 0.5, 0.5)).cast_aabb(&b).is_none());
    assert!(seg(v(-1.0, f32::NAN, 0.5), v(2.0, 0.5, 0.5)).cast_aabb(&b).is_none());
    assert!(seg(v(-1.0, 0.5, 0.5), v(2.0, 0.5, f32::NAN)).cast_aabb(&b).is_none());
    assert!(seg(v(0.5, 0.5, 0.5), v(0.5, 0.5, f32::NAN)).cast_aabb(&b).is_none());
    let nan_box = Aabb::new(v(f32::NAN, 0.0, 0.0), Vec3::ONE);
    assert!(seg(v(-1.0, 0.5, 0.5), v(2.0, 0.5, 0.5)).cast_aabb(&nan_box).is_none());
}

/// `cast_obb`: t and the rotated normal for a box turned 30°, start inside, and a miss past the corner.
#[test]
fn cast_obb() {
    let o = Obb::new(v(5.0, 0.0, 0.0), Quat::from_rotation_z(30f32.to_radians()), Vec3::ONE);
    let hit = seg(Vec3::ZERO, v(10.0, 0.0, 0.0)).cast_obb(&o).unwrap();
    let cos30 = 30f32.to_radians().cos();
    assert_near(hit.t, (5.0 - 1.0 / cos30) / 10.0, 1e-6);
    assert_vec_near(hit.normal, v(-cos30, -0.5, 0.0), 1e-6);
    let inside = seg(v(5.0, 0.0, 0.0), v(5.0, 0.0, 9.0)).cast_obb(&o).unwrap();
    assert_eq!(inside.t, 0.0);
    assert_vec_near(inside.normal, Vec3::NEG_Z, 1e-6);
    let diamond = Obb::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4), Vec3::ONE);
    assert!(seg(v(-3.0, 1.5, 0.0), v(3.0, 1.5, 0.0)).cast_obb(&diamond).is_none());
    assert!(seg(v(-3.0, 1.3, 0.0), v(3.0, 1.3, 0.0)).cast_obb(&diamond).is_some());
    assert!(seg(v(-3.0, f32::NAN, 0.0), v(3.0, 0.0, 0.0))
        .cast_obb(&diamond)
        .is_none());
}

/// `cast_capsule`: side, cap along the axis, oblique cap (as the cap sphere), tangent, end on the surface.
#[test]
fn cast_capsule_hits() {
    let c = Capsule::new(seg(v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0)), 0.5);
    assert_hit(
        seg(v(-2.0, 0.0, 0.0), v(2.0, 0.0, 0.0)).cast_capsule(&c),
        0.375,
        Vec3::NEG_X,
    );
    assert_hit(seg(v(0.0, 5.0, 0.0), v(0.0, -5.0, 0.0)).cast_capsule(&c), 0.35, Vec3::Y);
    assert_hit(
        seg(v(0.0, -5.0, 0.0), v(0.0, 5.0, 0.0)).cast_capsule(&c),
        0.35,
        Vec3::NEG_Y,
    );
    let oblique = seg(v(3.0, 4.0, 1.0), v(-1.0, 0.5, -0.5));
    let cap = Sphere::new(c.segment.end, c.radius);
    let expected = oblique.cast_sphere(&cap).unwrap();
    let hit = oblique.cast_capsule(&c).unwrap();
    assert_near(hit.t, expected.t, 1e-6);
    assert_vec_near(hit.normal, expected.normal, 1e-6);
    assert_hit(seg(v(-2.0, 0.0, 0.5), v(2.0, 0.0, 0.5)).cast_capsule(&c), 0.5, Vec3::Z);
    assert_hit(
        seg(v(-2.0, 0.3, 0.0), v(-0.5, 0.3, 0.0)).cast_capsule(&c),
        1.0,
        Vec3::NEG_X,
    );
    // Radius zero: only the axis itself.
    let line = Capsule::new(c.segment, 0.0);
    assert_hit(
        seg(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0)).cast_capsule(&line),
        0.5,
        Vec3::NEG_X,
    );
}

/// `cast_capsule` from inside hits at t = 0 with `−d/|d|`; zero-length segments and zero-length axes; misses and NaN.
#[test]
fn cast_capsule_inside_degenerate_and_misses() {
    let c = Capsule::new(seg(v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0)), 0.5);
    assert_hit(
        seg(v(0.1, 0.9, 0.0), v(0.1, 9.0, 0.0)).cast_capsule(&c),
        0.0,
        Vec3::NEG_Y,
    );
    assert_hit(
        seg(v(0.0, 1.4, 0.0), v(3.0, 1.4, 0.0)).cast_capsule(&c),
        0.0,
        Vec3::NEG_X,
    );
    // A point inside: away from the axis.
    let point = seg(v(0.2, 0.0, 0.0), v(0.2, 0.0, 0.0)).cast_capsule(&c).unwrap();
    assert_eq!((point.t, point.normal), (0.0, Vec3::X));
    assert!(seg(v(2.0, 0.0, 0.0), v(2.0, 0.0, 0.0)).cast_capsule(&c).is_none());
    // A zero-length axis is a sphere.
    let ball = Capsule::new(seg(v(5.0, 0.0, 0.0), v(5.0, 0.0, 0.0)), 1.0);
    assert_hit(seg(Vec3::ZERO, v(10.0, 0.0, 0.0)).cast_capsule(&ball), 0.4, Vec3::NEG_X);
    // Misses: beside, beyond the caps, short, tangent one ulp away, NaN.
    assert!(seg(v(-2.0, 0.0, 1.0), v(2.0, 0.0, 1.0)).cast_capsule(&c).is_none());
    assert!(seg(v(-2.0, 2.0, 0.0), v(2.0, 2.0, 0.0)).cast_capsule(&c).is_none());
    assert!(seg(v(-2.0, 0.0, 0.0), v(-0.6, 0.0, 0.0)).cast_capsule(&c).is_none());
    assert!(seg(v(-2.0, 0.0, next_up(0.5)), v(2.0, 0.0, next_up(0.5)))
        .cast_capsule(&c)
        .is_none());
    assert!(seg(v(-2.0, f32::NAN, 0.0), v(2.0, 0.0, 0.0)).cast_capsule(&c).is_none());
    let nan_capsule = Capsule::new(seg(v(0.0, f32::NAN, 0.0), Vec3::Y), 0.5);
    assert!(seg(v(-2.0, 0.0, 0.0), v(2.0, 0.0, 0.0))
        .cast_capsule(&nan_capsule)
        .is_none());
}

/// Signed distance from `p` to the surface of a solid shape (negative inside), in `f64`.
fn signed_distance(shape: &Shape, p: Vec3) -> f64 {
    let q = to_f64(p);
    match shape {
        Shape::Aabb(b) => {
            let outside = box_point_distance_squared_f64(b, q);
            if outside > 0.0 {
                outside.sqrt()
            } else {
                let (min, max) = (to_f64(b.min), to_f64(b.max));
                -(0..3)
                    .map(|i| (q[i] - min[i]).min(max[i] - q[i]))
                    .fold(f64::INFINITY, f64::min)
            }
        }
        Shape::Sphere(sp) => distance_squared_f64(q, to_f64(sp.center)).sqrt() - f64::from(sp.radius),
        Shape::Capsule(c) => point_segment_distance_squared_f64(q, &c.segment).sqrt() - f64::from(c.radius),
        other => unreachable!("the book's shapes only, not {other:?}"),
    }
}

/// Random casts against every kind: a hit after the start lies on the surface with an outward unit normal facing the segment, a hit at 0 starts inside, and a miss never enters the shape.
#[test]
fn casts_consistent_with_signed_distance() {
    let mut rng = seeded(0x5EED_0005);
    for i in 0..3000 {
        let shape = match i % 3 {
            0 => {
                let min = rng.vec(-2.0, 2.0);
                Shape::Aabb(Aabb::new(min, min + rng.vec(0.0, 2.0)))
            }
            1 => Shape::Sphere(Sphere::new(rng.vec(-2.0, 2.0), rng.range(0.0, 2.0))),
            _ => Shape::Capsule(Capsule::new(
                seg(rng.vec(-2.0, 2.0), rng.vec(-2.0, 2.0)),
                rng.range(0.0, 1.5),
            )),
        };
        let s = seg(rng.vec(-6.0, 6.0), rng.vec(-6.0, 6.0));
        let tolerance = 1e-4;
        match shape.cast_segment(&s) {
            Some(hit) if hit.t == 0.0 => {
                assert!(
                    signed_distance(&shape, s.start) <= tolerance,
                    "case {i}: {s:?} {shape:?}"
                );
            }
            Some(hit) => {
                assert!(hit.t > 0.0 && hit.t <= 1.0);
                assert!(signed_distance(&shape, s.start) > 0.0, "case {i}: {s:?} {shape:?}");
                let p = s.point_at(hit.t);
                assert!(
                    signed_distance(&shape, p).abs() <= tolerance,
                    "case {i}: {p:?} not on {shape:?}"
                );
                assert_near(hit.normal.length(), 1.0, 1e-5);
                assert!(
                    hit.normal.dot(s.direction()) <= 0.0,
                    "case {i}: normal {:?}",
                    hit.normal
                );
                // Stepping out along the normal leaves the shape.
                assert!(signed_distance(&shape, p + hit.normal * 0.01) > 0.005, "case {i}");
            }
            None => {
                for k in 0..=400 {
                    let p = s.point_at(k as f32 / 400.0);
                    assert!(
                        signed_distance(&shape, p) > -tolerance,
                        "case {i}: {s:?} misses {shape:?} but passes through {p:?}"
                    );
                }
            }
        }
    }
}

/// `Shape::cast_segment` dispatches to the cast of each kind.
#[test]
fn shape_cast_segment_dispatch() {
    let s = seg(v(-5.0, 0.5, 0.5), v(5.0, 0.5, 0.5));
    let b = unit_box();
    assert_eq!(Shape::Aabb(b).cast_segment(&s), s.cast_aabb(&b));
    let sp = Sphere::new(v(0.0, 0.5, 0.5), 1.0);
    assert_eq!(Shape::Sphere(sp).cast_segment(&s), s.cast_sphere(&sp));
    let c = Capsule::new(seg(v(0.0, 0.0, 0.5), v(0.0, 2.0, 0.5)), 0.5);
    assert_eq!(Shape::Capsule(c).cast_segment(&s), s.cast_capsule(&c));
    assert_hit(Shape::Capsule(c).cast_segment(&s), 0.45, Vec3::NEG_X);
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

// ---------------------------------------------------------------------------
// Time of impact
// ---------------------------------------------------------------------------

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
