//! The shapes themselves, with analytic answers: constructors and their
//! validation (segments, planes, spheres, capsules, boxes, oriented boxes,
//! convex polygons, convex hulls, triangles), containment of points, the
//! boxes of transformed shapes, the distances of a box to a point and a
//! segment, and the support mappings; including the degenerate and boundary
//! cases (zero lengths, touching, one ulp outside, NaN), and the book's
//! bugs in them (its plane sign convention, collinear points, polygon
//! containment; `tests/common/book.rs`).

mod common;

use collide::math::{Mat3, Quat, Vec2, Vec3};
use collide::query::distance;
use collide::shape::{Cone, ConvexHull, Cylinder, Pose, Support, Transformed, Triangle};
use collide::{Aabb, Capsule, ConvexPolygon, Error, Obb, Plane, Sphere};
use common::book;
use common::float::*;
use common::geometry::*;
use common::random::{seeded, Draw};
use rand::{Rng, RngExt};
use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_2, FRAC_PI_4, SQRT_2};

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

/// Box in box: `contains_aabb` is the six comparisons `min <= other.min`
/// and `other.max <= max`, axis by axis: equal faces inside, one ulp beyond
/// any face outside, NaN outside; and, on random boxes that share faces,
/// sit one ulp apart or hold NaN, ±0 and infinities, the same as that
/// definition evaluated one coordinate at a time.
#[test]
fn aabb_contains_aabb() {
    let b = Aabb::new(v(-1.0, 2.0, 0.5), v(3.0, 4.0, 0.75));
    assert!(b.contains_aabb(&b));
    for axis in 0..3 {
        let mut wider = b;
        wider.max[axis] = next_up(b.max[axis]);
        assert!(!b.contains_aabb(&wider), "max on axis {axis}");
        wider = b;
        wider.min[axis] = next_down(b.min[axis]);
        assert!(!b.contains_aabb(&wider), "min on axis {axis}");
        let mut nan = b;
        nan.min[axis] = f32::NAN;
        assert!(!b.contains_aabb(&nan), "NaN on axis {axis}");
        assert!(!nan.contains_aabb(&b), "NaN box on axis {axis}");
    }
    let by_axis =
        |outer: &Aabb, inner: &Aabb| (0..3).all(|i| outer.min[i] <= inner.min[i] && inner.max[i] <= outer.max[i]);
    let mut rng = seeded(0xc0_47a1);
    let coordinate = |rng: &mut common::random::TestRng| match rng.random_range(0..8) {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => f32::NEG_INFINITY,
        3 => -0.0,
        4 => 0.0,
        _ => rng.random_range(-4i32..4) as f32,
    };
    for _ in 0..20_000 {
        let outer = Aabb::new(
            Vec3::from_array(std::array::from_fn(|_| coordinate(&mut rng))),
            Vec3::from_array(std::array::from_fn(|_| coordinate(&mut rng))),
        );
        let mut inner = Aabb::new(
            Vec3::from_array(std::array::from_fn(|_| coordinate(&mut rng))),
            Vec3::from_array(std::array::from_fn(|_| coordinate(&mut rng))),
        );
        if rng.random_range(0..4) == 0 {
            let axis = rng.random_range(0..3);
            inner.max[axis] = next_up(inner.max[axis]);
        }
        assert_eq!(
            outer.contains_aabb(&inner),
            by_axis(&outer, &inner),
            "{outer:?} {inner:?}"
        );
    }
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

/// Empty, too small, degenerate, non-convex, self-intersecting and non-finite polygons are refused (the book's containment test has undefined behaviour on an empty polygon).
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

// ---------------------------------------------------------------------------
// The book's plane bugs (`tests/common/book.rs`)
// ---------------------------------------------------------------------------

/// Plane sign convention: the book builds `n·P + d = 0` but measures `n·P − d`, so points on the plane are not at 0; collide's signed distance is 0 on the plane and positive in front.
#[test]
fn plane_from_points_measures_zero_on_the_plane() {
    let (a, b, c) = (v(0.0, 3.0, 0.0), v(0.0, 3.0, 1.0), v(1.0, 3.0, 0.0));
    let book_plane = book::Plane::from_points(a, b, c);
    assert_eq!(book_plane.signed_dist(a), 6.0);
    let plane = Plane::from_points(a, b, c).unwrap();
    assert_eq!(plane.normal, Vec3::Y);
    for p in [a, b, c] {
        assert_eq!(plane.signed_distance(p), 0.0);
    }
    assert_eq!(plane.signed_distance(v(7.0, 5.0, -1.0)), 2.0);
    assert_eq!(plane.signed_distance(v(7.0, 1.0, -1.0)), -2.0);
}

/// Three collinear points: the book's plane gets a NaN normal; collide refuses them.
#[test]
fn three_collinear_points() {
    let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 2.0, 3.0), v(2.0, 4.0, 6.0));
    assert!(book::Plane::from_points(a, b, c).normal.is_nan());
    assert!(matches!(Plane::from_points(a, b, c), Err(Error::InvalidArgument(_))));
    assert!(matches!(Plane::from_points(a, a, a), Err(Error::InvalidArgument(_))));
}

// ---------------------------------------------------------------------------
// The book's polygon containment bugs
// ---------------------------------------------------------------------------

fn unit_square() -> Vec<Vec2> {
    vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 0.0),
    ]
}

/// Polygon containment on a vertex: the book normalises a zero vector and gets NaN (outside); collide counts it inside.
#[test]
fn polygon_point_on_vertex() {
    let square = unit_square();
    let polygon = ConvexPolygon::new(square.clone()).unwrap();
    for &vertex in &square {
        assert!(!book::polygon_contains(&square, vertex));
        assert!(polygon.contains_point(vertex));
    }
}

/// Polygon containment slightly outside: the summed angles are within the book's 0.001 of 2π; collide says outside.
#[test]
fn polygon_point_slightly_outside() {
    let square = unit_square();
    let polygon = ConvexPolygon::new(square.clone()).unwrap();
    let just_outside = Vec2::new(0.5, -1e-4);
    assert!(book::polygon_contains(&square, just_outside));
    assert!(!polygon.contains_point(just_outside));
    assert!(polygon.contains_point(Vec2::new(0.5, 1e-4)));
}

/// Polygon containment for a large polygon: the book's `f32` acos sum drifts from 2π and rejects the centre; collide contains it.
#[test]
fn polygon_large_centre() {
    let centre = Vec2::new(100.0, -50.0);
    let vertices: Vec<Vec2> = (0..5000)
        .map(|i| {
            let angle = -(i as f32) * std::f32::consts::TAU / 5000.0;
            centre + 1e4 * Vec2::new(angle.cos(), angle.sin())
        })
        .collect();
    assert!(!book::polygon_contains(&vertices, centre));
    let polygon = ConvexPolygon::new(vertices).unwrap();
    assert_eq!(polygon.orientation(), -1.0);
    assert!(polygon.contains_point(centre));
    assert!(polygon.contains_point(centre + Vec2::new(9990.0, 0.0)));
    assert!(!polygon.contains_point(centre + Vec2::new(10_001.0, 0.0)));
}
