//! One test per known bug class of the book's collision code (shared/BOOK.md,
//! "What is wrong in the book's collision code").
//!
//! Each test builds the input that breaks the book's version, shows that a
//! transliteration of the book's routine (module [`book`], `f32` like the
//! original) gets it wrong where it can run at all, and asserts that collide
//! gets it right.

use collide::math::{Quat, Vec2, Vec3};
use collide::query::sweep::time_of_impact_spheres;
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, ConvexPolygon, Error, Filter, Plane, QueryFilter, Segment, Shape, Sphere,
    Transform, World,
};

mod common;
use common::random::{seeded, Draw, TestRng};
use rand::{Rng, RngExt};

/// The book's routines, transliterated to Rust with the same `f32`
/// arithmetic, comparisons and absolute epsilon (`Math::NearZero`, 0.001).
mod book {
    use collide::math::{Vec2, Vec3};

    pub fn near_zero(x: f32) -> bool {
        x.abs() <= 0.001
    }

    /// `SweptSphere`: the range check compares against 0 instead of 1.
    pub fn swept_sphere(p0: Vec3, p1: Vec3, rp: f32, q0: Vec3, q1: Vec3, rq: f32) -> Option<f32> {
        let x = p0 - q0;
        let y = p1 - p0 - (q1 - q0);
        let a = y.dot(y);
        let b = 2.0 * x.dot(y);
        let sum_radii = rp + rq;
        let c = x.dot(x) - sum_radii * sum_radii;
        let disc = b * b - 4.0 * a * c;
        if disc < 0.0 {
            return None;
        }
        let t = (-b - disc.sqrt()) / (2.0 * a);
        // (sic) the book's range check, against 0 where 1 is meant.
        #[allow(clippy::double_comparisons, clippy::manual_range_contains)]
        let accepted = t >= 0.0 && t <= 0.0;
        accepted.then_some(t)
    }

    /// `AABB::MinDistSq`: the z term reuses `dy`.
    pub fn aabb_min_dist_sq(min: Vec3, max: Vec3, p: Vec3) -> f32 {
        let dx = (min.x - p.x).max(0.0).max(p.x - max.x);
        let dy = (min.y - p.y).max(0.0).max(p.y - max.y);
        let _dz = (min.z - p.z).max(0.0);
        let dz = dy.max(p.z - max.z);
        dx * dx + dy * dy + dz * dz
    }

    /// `Intersect(Sphere, AABB)` on top of the faulty distance.
    pub fn sphere_aabb(center: Vec3, radius: f32, min: Vec3, max: Vec3) -> bool {
        aabb_min_dist_sq(min, max, center) <= radius * radius
    }

    /// `AABB::Contains`: "not outside", so NaN is inside.
    pub fn aabb_contains(min: Vec3, max: Vec3, p: Vec3) -> bool {
        let outside = p.x < min.x || p.y < min.y || p.z < min.z || p.x > max.x || p.y > max.y || p.z > max.z;
        !outside
    }

    /// `Intersect(AABB, AABB)`: "no separating axis", so NaN overlaps.
    pub fn aabb_aabb(a_min: Vec3, a_max: Vec3, b_min: Vec3, b_max: Vec3) -> bool {
        let no = a_max.x < b_min.x
            || a_max.y < b_min.y
            || a_max.z < b_min.z
            || b_max.x < a_min.x
            || b_max.y < a_min.y
            || b_max.z < a_min.z;
        !no
    }

    fn test_side_plane(start: f32, end: f32, neg_d: f32, normal: Vec3, out: &mut Vec<(f32, Vec3)>) {
        let denom = end - start;
        if near_zero(denom) {
            return;
        }
        let t = (-start + neg_d) / denom;
        if (0.0..=1.0).contains(&t) {
            out.push((t, normal));
        }
    }

    /// `Intersect(LineSegment, AABB)`: the six face planes, sorted, each
    /// point re-tested with the exact containment check.
    pub fn segment_aabb(start: Vec3, end: Vec3, min: Vec3, max: Vec3) -> Option<(f32, Vec3)> {
        let mut t_values = Vec::new();
        test_side_plane(start.x, end.x, min.x, Vec3::NEG_X, &mut t_values);
        test_side_plane(start.x, end.x, max.x, Vec3::X, &mut t_values);
        test_side_plane(start.y, end.y, min.y, Vec3::NEG_Y, &mut t_values);
        test_side_plane(start.y, end.y, max.y, Vec3::Y, &mut t_values);
        test_side_plane(start.z, end.z, min.z, Vec3::NEG_Z, &mut t_values);
        test_side_plane(start.z, end.z, max.z, Vec3::Z, &mut t_values);
        t_values.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
        t_values
            .into_iter()
            .find(|&(t, _)| aabb_contains(min, max, start + (end - start) * t))
    }

    /// `LineSegment::MinDistSq(point)`: `0/0` for a zero-length segment.
    pub fn segment_point_min_dist_sq(start: Vec3, end: Vec3, p: Vec3) -> f32 {
        let ab = end - start;
        let ba = -ab;
        let ac = p - start;
        let bc = p - end;
        if ab.dot(ac) < 0.0 {
            ac.length_squared()
        } else if ba.dot(bc) < 0.0 {
            bc.length_squared()
        } else {
            let scalar = ac.dot(ab) / ab.dot(ab);
            (ac - ab * scalar).length_squared()
        }
    }

    /// `Capsule::Contains` on top of it.
    pub fn capsule_contains(start: Vec3, end: Vec3, radius: f32, p: Vec3) -> bool {
        segment_point_min_dist_sq(start, end, p) <= radius * radius
    }

    /// `LineSegment::MinDistSq(s1, s2)` (Sunday's algorithm with `NearZero`).
    pub fn segment_segment_min_dist_sq(s1: (Vec3, Vec3), s2: (Vec3, Vec3)) -> f32 {
        let u = s1.1 - s1.0;
        let v = s2.1 - s2.0;
        let w = s1.0 - s2.0;
        let (a, b, c, d, e) = (u.dot(u), u.dot(v), v.dot(v), u.dot(w), v.dot(w));
        let big_d = a * c - b * b;
        let (mut s_n, mut s_d, mut t_n, t_d) = if near_zero(big_d) {
            (0.0, 1.0, e, c)
        } else {
            let (s_n, t_n) = (b * e - c * d, a * e - b * d);
            if s_n < 0.0 {
                (0.0, big_d, e, c)
            } else if s_n > big_d {
                (big_d, big_d, e + b, c)
            } else {
                (s_n, big_d, t_n, big_d)
            }
        };
        if t_n < 0.0 {
            t_n = 0.0;
            if -d < 0.0 {
                s_n = 0.0;
            } else if -d > a {
                s_n = s_d;
            } else {
                s_n = -d;
                s_d = a;
            }
        } else if t_n > t_d {
            t_n = t_d;
            if (-d + b) < 0.0 {
                s_n = 0.0;
            } else if (-d + b) > a {
                s_n = s_d;
            } else {
                s_n = -d + b;
                s_d = a;
            }
        }
        let sc = if near_zero(s_n) { 0.0 } else { s_n / s_d };
        let tc = if near_zero(t_n) { 0.0 } else { t_n / t_d };
        (w + u * sc - v * tc).length_squared()
    }

    /// The book's `Plane`: built with `n·P + d = 0`.
    pub struct Plane {
        pub normal: Vec3,
        pub d: f32,
    }

    impl Plane {
        pub fn from_points(a: Vec3, b: Vec3, c: Vec3) -> Plane {
            let n = (b - a).cross(c - a);
            let normal = n / n.length();
            Plane {
                normal,
                d: -a.dot(normal),
            }
        }

        /// `SignedDist`: `n·P − d`, the opposite sign of the constructor's.
        pub fn signed_dist(&self, p: Vec3) -> f32 {
            p.dot(self.normal) - self.d
        }
    }

    /// `Intersect(LineSegment, Plane)`: `(hit, t)`, where `t` stays unset
    /// (`None`) when the book returns true without writing it.
    pub fn segment_plane(start: Vec3, end: Vec3, plane: &Plane) -> (bool, Option<f32>) {
        let denom = (end - start).dot(plane.normal);
        if near_zero(denom) {
            (near_zero(start.dot(plane.normal) - plane.d), None)
        } else {
            let numer = -start.dot(plane.normal) - plane.d;
            let t = numer / denom;
            ((0.0..=1.0).contains(&t), Some(t))
        }
    }

    /// `Intersect(LineSegment, Sphere)`.
    pub fn segment_sphere(start: Vec3, end: Vec3, center: Vec3, radius: f32) -> Option<f32> {
        let x = start - center;
        let y = end - start;
        let a = y.dot(y);
        let b = 2.0 * x.dot(y);
        let c = x.dot(x) - radius * radius;
        let disc = b * b - 4.0 * a * c;
        if disc < 0.0 {
            return None;
        }
        let disc = disc.sqrt();
        let t_min = (-b - disc) / (2.0 * a);
        let t_max = (-b + disc) / (2.0 * a);
        if (0.0..=1.0).contains(&t_min) {
            Some(t_min)
        } else if (0.0..=1.0).contains(&t_max) {
            Some(t_max)
        } else {
            None
        }
    }

    /// `ConvexPolygon::Contains`: the angles subtended by the edges, summed
    /// with `acos`, compared with 2π. (Undefined behaviour for an empty
    /// polygon: `size() − 1` wraps; not callable here.)
    pub fn polygon_contains(vertices: &[Vec2], p: Vec2) -> bool {
        let normalize = |v: Vec2| v / v.length();
        let mut sum = 0.0f32;
        for i in 0..vertices.len() - 1 {
            let a = normalize(vertices[i] - p);
            let b = normalize(vertices[i + 1] - p);
            sum += a.dot(b).acos();
        }
        let a = normalize(vertices[vertices.len() - 1] - p);
        let b = normalize(vertices[0] - p);
        sum += a.dot(b).acos();
        near_zero(sum - std::f32::consts::TAU)
    }
}

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// The slab test in `f64` on the `f32` inputs: `(t_near, t_far, entry axis,
/// margin between the latest and second-latest entry)`, or `None` for a miss.
fn slab_f64(segment: &Segment, aabb: &Aabb) -> Option<(f64, f64, usize, f64)> {
    let mut nears = [f64::NEG_INFINITY; 3];
    let mut t_far = 1.0f64;
    for (axis, near) in nears.iter_mut().enumerate() {
        let p = f64::from(segment.start[axis]);
        let d = f64::from(segment.end[axis]) - p;
        let (lo, hi) = (f64::from(aabb.min[axis]), f64::from(aabb.max[axis]));
        if d == 0.0 {
            if p < lo || p > hi {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo - p) / d, (hi - p) / d);
        *near = a.min(b);
        t_far = t_far.min(a.max(b));
    }
    let axis = (0..3).max_by(|&i, &j| nears[i].total_cmp(&nears[j])).unwrap();
    let t_near = nears[axis];
    let second = (0..3)
        .filter(|&i| i != axis)
        .map(|i| nears[i])
        .fold(f64::NEG_INFINITY, f64::max);
    (t_near.max(0.0) <= t_far).then_some((t_near, t_far, axis, t_near - second))
}

// ---------------------------------------------------------------------------
// Swept sphere
// ---------------------------------------------------------------------------

/// Swept sphere: the book accepts only t = 0 (range check against 0); collide reports contact anywhere in [0, 1].
#[test]
fn swept_sphere_accepts_only_t_zero() {
    let (a, b) = (Sphere::new(Vec3::ZERO, 1.0), Sphere::new(v(10.0, 0.0, 0.0), 1.0));
    let (a_motion, b_motion) = (v(8.0, 0.0, 0.0), v(-8.0, 0.0, 0.0));
    let book = book::swept_sphere(a.center, a.center + a_motion, 1.0, b.center, b.center + b_motion, 1.0);
    assert_eq!(book, None, "the book misses the contact at t = 0.5");
    assert_eq!(time_of_impact_spheres(&a, a_motion, &b, b_motion), Some(0.5));
    assert_eq!(time_of_impact_spheres(&a, v(8.0, 0.0, 0.0), &b, Vec3::ZERO), Some(1.0));
}

/// Swept sphere with equal velocities: the book divides 0 by 0 and misses even overlapping spheres; collide gives 0 or None.
#[test]
fn swept_sphere_equal_velocity_divides_by_zero() {
    let motion = v(3.0, -1.0, 2.0);
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let overlapping = Sphere::new(v(1.5, 0.0, 0.0), 1.0);
    let book = book::swept_sphere(
        a.center,
        a.center + motion,
        1.0,
        overlapping.center,
        overlapping.center + motion,
        1.0,
    );
    assert_eq!(book, None, "0/0 makes the book miss spheres that overlap all along");
    assert_eq!(time_of_impact_spheres(&a, motion, &overlapping, motion), Some(0.0));
    let apart = Sphere::new(v(5.0, 0.0, 0.0), 1.0);
    assert_eq!(time_of_impact_spheres(&a, motion, &apart, motion), None);
}

// ---------------------------------------------------------------------------
// AABB–point distance and sphere–AABB
// ---------------------------------------------------------------------------

/// AABB–point distance: the book uses the y distance where z is meant, so a point straight below the box is at distance 0.
#[test]
fn aabb_point_distance_uses_y_for_z() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    for (p, expected) in [
        (v(0.5, 0.5, -5.0), 25.0),
        (v(0.5, 3.0, 0.5), 4.0),
        (v(0.5, 5.0, 2.0), 17.0),
    ] {
        assert_ne!(book::aabb_min_dist_sq(b.min, b.max, p), expected);
        assert_eq!(b.distance_squared_to_point(p), expected);
    }
}

/// Sphere–AABB on top of it: the book reports a sphere far below the box as overlapping.
#[test]
fn sphere_aabb_uses_y_for_z() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let far_below = Sphere::new(v(0.5, 0.5, -5.0), 1.0);
    assert!(book::sphere_aabb(far_below.center, far_below.radius, b.min, b.max));
    assert!(!far_below.intersects_aabb(&b));
    assert!(!Shape::Sphere(far_below).intersects(&Shape::Aabb(b)));
    // And the world agrees: no pair.
    let mut world = World::new();
    world.add(ColliderDesc::new(Shape::Aabb(b))).unwrap();
    world.add(ColliderDesc::new(Shape::Sphere(far_below))).unwrap();
    let mut pairs = 0;
    world.test_pairwise(|_| pairs += 1);
    world.test_sweep_and_prune(|_| pairs += 1);
    assert_eq!(pairs, 0);
}

// ---------------------------------------------------------------------------
// Segment–AABB
// ---------------------------------------------------------------------------

/// Segment–AABB rounding: hits through a face interior whose face-plane point rounds a ulp outside are missed or put on the far face by the book; collide has zero misses and the right face.
#[test]
fn segment_aabb_exact_retest_misses_rounded_hits() {
    let mut rng = seeded(0xB00C_0001);
    let cases = 20_000;
    let mut book_wrong = 0;
    for i in 0..cases {
        let min = rng.vec(-50.0, 50.0);
        let b = Aabb::new(min, min + rng.vec(0.1, 20.0));
        let axis = i % 3;
        let side = if rng.random::<f32>() < 0.5 { 0 } else { 1 };
        // A point inside the face, away from its edges.
        let mut aim = b.min + (b.max - b.min) * v(rng.range(0.05, 0.95), rng.range(0.05, 0.95), rng.range(0.05, 0.95));
        aim[axis] = if side == 0 { b.min[axis] } else { b.max[axis] };
        // A start outside on that face's side, and an end beyond the face.
        let mut start = aim + rng.vec(-10.0, 10.0);
        let away = rng.range(0.5, 30.0);
        start[axis] = if side == 0 {
            b.min[axis] - away
        } else {
            b.max[axis] + away
        };
        let end = aim + (aim - start) * rng.range(0.05, 2.0);
        let segment = Segment::new(start, end);
        let mut normal = Vec3::ZERO;
        normal[axis] = if side == 0 { -1.0 } else { 1.0 };

        let Some((t_near, _, entry_axis, margin)) = slab_f64(&segment, &b) else {
            // The f32 end points moved the line off the box: nothing to compare.
            continue;
        };
        let hit = segment
            .cast_aabb(&b)
            .unwrap_or_else(|| panic!("case {i}: collide missed {segment:?} {b:?}"));
        assert!(
            (f64::from(hit.t) - t_near).abs() <= 1e-5,
            "case {i}: t {} vs {t_near}",
            hit.t
        );
        if margin > 1e-5 {
            assert_eq!(entry_axis, axis);
            assert_eq!(hit.normal, normal, "case {i}");
        }
        match book::segment_aabb(start, end, b.min, b.max) {
            Some((_, book_normal)) if book_normal == normal => {}
            _ => book_wrong += 1,
        }
    }
    // The book gets several percent of these plain hits wrong (3.3% with this seed).
    assert!(book_wrong * 100 > cases, "book wrong in only {book_wrong} of {cases}");
}

/// `x` exactly as an integer multiple of 2^-44. Every `f32` with
/// `2^-20 <= |x| < 2^7` (and 0) is one, and the products the exact slab test
/// forms stay below 2^110, well inside `i128`.
fn fixed_point(x: f32) -> i128 {
    let scaled = f64::from(x) * 2f64.powi(44);
    assert!(
        scaled.fract() == 0.0 && x.abs() < 128.0,
        "{x} has no exact fixed-point form"
    );
    scaled as i128
}

/// The slab test done exactly on the `f32` inputs, in integer arithmetic:
/// `None` for a miss, else the entry parameter `max(t_near, 0)` as a
/// fraction `(numerator, denominator > 0)`.
fn slab_exact(segment: &Segment, aabb: &Aabb) -> Option<(i128, i128)> {
    // a ≤ b for fractions with positive denominators.
    let le = |a: (i128, i128), b: (i128, i128)| a.0 * b.1 <= b.0 * a.1;
    let (mut lo, mut hi) = ((0i128, 1i128), (1i128, 1i128));
    for axis in 0..3 {
        let p = fixed_point(segment.start[axis]);
        let d = fixed_point(segment.end[axis]) - p;
        let (min, max) = (fixed_point(aabb.min[axis]), fixed_point(aabb.max[axis]));
        if d == 0 {
            if p < min || p > max {
                return None;
            }
            continue;
        }
        let (near, far) = if d > 0 {
            ((min - p, d), (max - p, d))
        } else {
            ((p - max, -d), (p - min, -d))
        };
        if le(lo, near) {
            lo = near;
        }
        if le(far, hi) {
            hi = far;
        }
    }
    le(lo, hi).then_some(lo)
}

/// An arbitrary `f32` in `[lo, hi)`, flushed to 0 below 2^-20 so it has an exact fixed-point form.
fn any_f32(rng: &mut TestRng, lo: f32, hi: f32) -> f32 {
    let x = rng.range(lo, hi);
    if x.abs() < 1.0 / (1 << 20) as f32 {
        0.0
    } else {
        x
    }
}

/// Segment–AABB grazing hits (through edges and corners, along face planes, ending on the surface, just missing) against an exact rational slab reference on the same `f32` inputs: zero misses, and any hit the reference rejects lies at rounding distance from the box.
#[test]
fn segment_aabb_grazing_vs_exact_reference() {
    let mut rng = seeded(0xB00C_0002);
    let half_grid = |rng: &mut TestRng| (rng.next_u64() % 9) as f32 * 0.5 - 2.0;
    let (mut hits, mut exact_misses, mut phantoms) = (0, 0, 0);
    for i in 0..60_000 {
        let (min, size) = if i % 2 == 0 {
            // Boxes on a coarse grid, some of zero size on an axis.
            let min = v(half_grid(&mut rng), half_grid(&mut rng), half_grid(&mut rng));
            (
                min,
                v(half_grid(&mut rng), half_grid(&mut rng), half_grid(&mut rng)) + 2.0,
            )
        } else {
            let min = v(
                any_f32(&mut rng, -9.0, 9.0),
                any_f32(&mut rng, -9.0, 9.0),
                any_f32(&mut rng, -9.0, 9.0),
            );
            (
                min,
                v(
                    any_f32(&mut rng, 0.0, 5.0),
                    any_f32(&mut rng, 0.0, 5.0),
                    any_f32(&mut rng, 0.0, 5.0),
                ),
            )
        };
        let b = Aabb::new(min, (min + size).max(min));
        // Aim at a corner, an edge or a face point, sometimes nudged a few ulps off.
        let mut aim = v(
            any_f32(&mut rng, b.min.x, b.max.x).clamp(b.min.x, b.max.x),
            any_f32(&mut rng, b.min.y, b.max.y).clamp(b.min.y, b.max.y),
            any_f32(&mut rng, b.min.z, b.max.z).clamp(b.min.z, b.max.z),
        );
        for axis in 0..3 {
            match rng.next_u64() % 3 {
                0 => aim[axis] = b.min[axis],
                1 => aim[axis] = b.max[axis],
                _ => {}
            }
            if i % 3 == 0 && aim[axis] != 0.0 {
                let nudge = (rng.next_u64() % 5) as i32 - 2;
                aim[axis] = f32::from_bits((aim[axis].to_bits() as i32 + nudge) as u32);
            }
        }
        let mut offset = v(
            any_f32(&mut rng, -11.0, 11.0),
            any_f32(&mut rng, -11.0, 11.0),
            any_f32(&mut rng, -11.0, 11.0),
        );
        if i % 4 == 0 {
            // Along a face plane or an edge line: a direction component exactly 0.
            offset[rng.next_u64() as usize % 3] = 0.0;
        }
        let start = (aim - offset).map(|x| if x.abs() < 1.0 / (1 << 20) as f32 { 0.0 } else { x });
        let end = (aim + offset * [0.0, 0.25, 0.5, 1.0, 1.5][i % 5]).map(|x| {
            if x.abs() < 1.0 / (1 << 20) as f32 {
                0.0
            } else {
                x
            }
        });
        let segment = Segment::new(start, end);
        let ours = segment.cast_aabb(&b);
        match slab_exact(&segment, &b) {
            Some((num, den)) => {
                let hit = ours.unwrap_or_else(|| panic!("case {i}: missed {segment:?} {b:?}"));
                let t = num as f64 / den as f64;
                assert!((f64::from(hit.t) - t).abs() <= 1e-6, "case {i}: t {} vs {t}", hit.t);
                hits += 1;
            }
            None => {
                exact_misses += 1;
                if let Some(hit) = ours {
                    let p = segment.point_at(hit.t);
                    assert!(
                        b.distance_squared_to_point(p) <= 1e-10,
                        "case {i}: phantom hit {segment:?} {b:?}"
                    );
                    phantoms += 1;
                }
            }
        }
    }
    // With this seed: 50,424 exact hits (the f32 slab without the widening
    // missed 1,136 of them), 9,576 exact misses of which 7,207 are reported
    // as hits at rounding distance (the aims nudged by a couple of ulps).
    assert!(phantoms < exact_misses);
    assert!(
        hits > 20_000 && exact_misses > 5_000,
        "the generator is off: {hits} hits, {exact_misses} misses"
    );
}

/// Segment–AABB thin motions: the book's absolute 0.001 epsilon on each axis' extent drops a motion of 6e-4 across a face; collide hits it.
#[test]
fn segment_aabb_thin_motion() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let step = Segment::new(v(-3e-4, 0.5, 0.5), v(3e-4, 0.5, 0.5));
    assert_eq!(book::segment_aabb(step.start, step.end, b.min, b.max), None);
    let hit = step.cast_aabb(&b).unwrap();
    assert_eq!((hit.t, hit.normal), (0.5, Vec3::NEG_X));
    // A long motion with a tiny x extent: the book reports the far face.
    let skim = Segment::new(v(-2e-4, 0.5, -1.0), v(3e-4, 0.5, 2.0));
    let (_, book_normal) = book::segment_aabb(skim.start, skim.end, b.min, b.max).unwrap();
    assert_eq!(book_normal, Vec3::Z);
    let hit = skim.cast_aabb(&b).unwrap();
    assert!((hit.t - 0.4).abs() < 1e-6);
    assert_eq!(hit.normal, Vec3::NEG_X);
    // The world query too.
    let mut world = World::new();
    let key = world.add(ColliderDesc::new(Shape::Aabb(b))).unwrap();
    let hit = world.segment_cast(&step, &QueryFilter::ALL).unwrap().unwrap();
    assert_eq!((hit.collider, hit.t, hit.point), (key, 0.5, v(0.0, 0.5, 0.5)));
}

/// Segment–AABB from inside: the book reports the exit face at t > 0; collide hits at t = 0 with the normal −d/|d|.
#[test]
fn segment_aabb_start_inside_reports_exit_face() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let out = Segment::new(v(0.5, 0.5, 0.5), v(2.5, 0.5, 0.5));
    let (book_t, book_normal) = book::segment_aabb(out.start, out.end, b.min, b.max).unwrap();
    assert_eq!((book_t, book_normal), (0.25, Vec3::X));
    let hit = out.cast_aabb(&b).unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, Vec3::NEG_X));
    // A ball reflecting about the book's normal keeps going out; about collide's it turns back.
    let d = out.direction().normalize();
    let reflected = d - 2.0 * d.dot(hit.normal) * hit.normal;
    assert_eq!(reflected, Vec3::NEG_X);
}

/// Segment–AABB with NaN: the book's containment check counts a NaN point as inside, so a segment with a NaN coordinate hits; collide misses and the world refuses it.
#[test]
fn segment_aabb_nan_counts_as_hit() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let nan = Segment::new(v(-1.0, f32::NAN, 0.5), v(2.0, 0.5, 0.5));
    assert!(book::segment_aabb(nan.start, nan.end, b.min, b.max).is_some());
    assert_eq!(nan.cast_aabb(&b), None);
    assert_eq!(Shape::Aabb(b).cast_segment(&nan), None);
    let mut world = World::new();
    world.add(ColliderDesc::new(Shape::Aabb(b))).unwrap();
    assert!(matches!(
        world.segment_cast(&nan, &QueryFilter::ALL),
        Err(Error::NonFinite(_))
    ));
    let inf = Segment::new(v(-1.0, 0.5, 0.5), v(f32::INFINITY, 0.5, 0.5));
    assert!(matches!(
        world.segment_cast(&inf, &QueryFilter::ALL),
        Err(Error::NonFinite(_))
    ));
}

// ---------------------------------------------------------------------------
// Segment distances
// ---------------------------------------------------------------------------

/// Zero-length segment to point: the book computes 0/0, so a capsule with a zero-length axis contains nothing; collide's contains its ball.
#[test]
fn zero_length_segment_point_distance_is_nan() {
    let p = v(1.0, 2.0, 3.0);
    assert!(book::segment_point_min_dist_sq(p, p, v(1.5, 2.0, 3.0)).is_nan());
    assert!(!book::capsule_contains(p, p, 1.0, p));
    let point_segment = Segment::new(p, p);
    assert_eq!(point_segment.distance_squared_to_point(v(1.5, 2.0, 3.0)), 0.25);
    let capsule = Capsule::new(point_segment, 1.0);
    for q in [p, v(1.5, 2.0, 3.0), v(1.0, 1.0, 3.0), v(1.3, 2.4, 3.5)] {
        assert!(capsule.contains_point(q), "{q:?}");
    }
    assert!(!capsule.contains_point(v(2.1, 2.0, 3.0)));
    // And such a capsule collides in the world.
    let mut world = World::new();
    world.add(ColliderDesc::new(Shape::Capsule(capsule))).unwrap();
    world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(v(2.5, 2.0, 3.0), 0.5))))
        .unwrap();
    let mut pairs = 0;
    world.test_pairwise(|_| pairs += 1);
    assert_eq!(pairs, 1);
}

/// Segment–segment with a degenerate second segment: the book ignores the first segment's extent; collide measures point to segment.
#[test]
fn segment_segment_degenerate_second() {
    let a = Segment::new(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let point = Segment::new(v(0.0, 1.0, 0.0), v(0.0, 1.0, 0.0));
    assert_eq!(
        book::segment_segment_min_dist_sq((a.start, a.end), (point.start, point.end)),
        2.0
    );
    let c = a.closest_points(&point);
    assert_eq!((c.distance_squared, c.s, c.t), (1.0, 0.5, 0.0));
    // Capsules built on these: collide sees the touch, the book's distance does not.
    let capsule = Capsule::new(a, 0.5);
    assert!(capsule.intersects_capsule(&Capsule::new(point, 0.5)));
}

/// Segment–segment with absolute epsilons: short perpendicular segments (a·c − b² < 0.001) are taken as parallel by the book; collide stays exact.
#[test]
fn segment_segment_absolute_epsilon() {
    let a = Segment::new(v(-0.05, 0.0, 0.0), v(0.05, 0.0, 0.0));
    let b = Segment::new(v(0.0, -0.05, 1.0), v(0.0, 0.05, 1.0));
    let book = book::segment_segment_min_dist_sq((a.start, a.end), (b.start, b.end));
    assert!((book - 1.0025).abs() < 1e-5, "book: {book}");
    let c = a.closest_points(&b);
    assert!((c.distance_squared - 1.0).abs() < 1e-6);
    assert!((c.s - 0.5).abs() < 1e-6 && (c.t - 0.5).abs() < 1e-6);
}

// ---------------------------------------------------------------------------
// Planes
// ---------------------------------------------------------------------------

/// Plane sign convention: the book builds `n·P + d = 0` but measures `n·P − d`, so points on the plane are not at 0; collide's signed distance is 0 on the plane and positive in front.
#[test]
fn plane_signed_distance_sign_convention() {
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

/// Segment–plane parallel case: the book tests the other sign (missing a segment in the plane, accepting one at the mirrored offset) and returns true without setting t; collide hits in the plane at t = 0 only.
#[test]
fn segment_plane_parallel_sets_t() {
    let (a, b, c) = (v(0.0, 3.0, 0.0), v(0.0, 3.0, 1.0), v(1.0, 3.0, 0.0));
    let book_plane = book::Plane::from_points(a, b, c);
    let plane = Plane::from_points(a, b, c).unwrap();
    let in_plane = Segment::new(v(-1.0, 3.0, 0.0), v(1.0, 3.0, 0.0));
    let mirrored = Segment::new(v(-1.0, -3.0, 0.0), v(1.0, -3.0, 0.0));
    assert_eq!(
        book::segment_plane(in_plane.start, in_plane.end, &book_plane),
        (false, None)
    );
    assert_eq!(
        book::segment_plane(mirrored.start, mirrored.end, &book_plane),
        (true, None)
    );
    let hit = in_plane.cast_plane(&plane).unwrap();
    assert_eq!(hit.t, 0.0);
    assert_eq!(mirrored.cast_plane(&plane), None);
    // Non-parallel: t is set, and consistent with the signed distance.
    let down = Segment::new(v(0.0, 5.0, 0.0), v(0.0, 1.0, 0.0));
    assert_eq!(down.cast_plane(&plane).unwrap().t, 0.5);
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
// Segment–sphere
// ---------------------------------------------------------------------------

/// Segment–sphere with a zero-length segment: the book divides by zero and misses; collide treats it as a point test.
#[test]
fn segment_sphere_zero_length() {
    let s = Sphere::new(Vec3::ZERO, 1.0);
    let p = v(0.25, 0.5, 0.0);
    assert_eq!(book::segment_sphere(p, p, s.center, s.radius), None);
    let hit = Segment::new(p, p).cast_sphere(&s).unwrap();
    assert_eq!(hit.t, 0.0);
    assert!(
        (hit.normal - p.normalize()).length() < 1e-6,
        "the way out, from the centre through the point"
    );
    let outside = v(2.0, 0.0, 0.0);
    assert_eq!(Segment::new(outside, outside).cast_sphere(&s), None);
}

/// Segment–sphere fully inside: both roots lie outside [0, 1], so the book misses; collide hits at t = 0.
#[test]
fn segment_sphere_fully_inside() {
    let s = Sphere::new(Vec3::ZERO, 2.0);
    let inside = Segment::new(v(-0.5, 0.0, 0.0), v(0.5, 0.0, 0.0));
    assert_eq!(book::segment_sphere(inside.start, inside.end, s.center, s.radius), None);
    let hit = inside.cast_sphere(&s).unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, Vec3::NEG_X));
    let mut world = World::new();
    let key = world.add(ColliderDesc::new(Shape::Sphere(s))).unwrap();
    assert_eq!(
        world
            .segment_cast(&inside, &QueryFilter::ALL)
            .unwrap()
            .map(|h| h.collider),
        Some(key)
    );
}

// ---------------------------------------------------------------------------
// Convex polygon containment
// ---------------------------------------------------------------------------

fn unit_square() -> Vec<Vec2> {
    vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 0.0),
    ]
}

/// Polygon containment, empty polygon: undefined behaviour in the book; collide refuses it at construction.
#[test]
fn polygon_empty() {
    assert!(matches!(ConvexPolygon::new(Vec::new()), Err(Error::InvalidArgument(_))));
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

// ---------------------------------------------------------------------------
// AABB–AABB
// ---------------------------------------------------------------------------

/// AABB–AABB with NaN extents: the book's "no separating axis" form says they overlap; collide says no, and the world refuses NaN boxes.
#[test]
fn aabb_aabb_nan_overlaps() {
    let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let nan = Aabb::new(v(f32::NAN, 50.0, 50.0), v(f32::NAN, 60.0, 60.0));
    let nan_far = Aabb::new(v(f32::NAN, f32::NAN, f32::NAN), v(f32::NAN, f32::NAN, f32::NAN));
    assert!(book::aabb_aabb(a.min, a.max, nan_far.min, nan_far.max));
    assert!(!a.intersects_aabb(&nan_far) && !nan_far.intersects_aabb(&a));
    assert!(!a.intersects_aabb(&nan) && !nan.intersects_aabb(&a));
    assert!(!a.intersects_aabb(&Aabb::new(v(0.5, 0.5, f32::NAN), Vec3::ONE)));
    let mut world = World::new();
    assert!(matches!(
        world.add(ColliderDesc::new(Shape::Aabb(nan_far))),
        Err(Error::NonFinite(_))
    ));
    assert!(world.is_empty());
}

// ---------------------------------------------------------------------------
// Sweep and prune
// ---------------------------------------------------------------------------

/// A row of unit boxes with many equal `min.x` (ties for the sweep), added in the given order.
fn tied_world(order: &[usize]) -> (World, Vec<ColliderKey>) {
    let mut world = World::new();
    let mut keys = vec![ColliderKey::default(); order.len()];
    for &i in order {
        let x = (i / 4) as f32;
        let y = (i % 4) as f32 * 0.75;
        let shape = Shape::Aabb(Aabb::new(v(x, y, 0.0), v(x + 1.0, y + 1.0, 1.0)));
        let filter = if i % 7 == 3 {
            Filter { category: 2, mask: 2 }
        } else {
            Filter::DEFAULT
        };
        keys[i] = world
            .add(ColliderDesc::new(shape).with_user_data(i as u64).with_filter(filter))
            .unwrap();
    }
    (world, keys)
}

/// Pairs as `(a, b, user_a, user_b)`.
type PairList = Vec<(ColliderKey, ColliderKey, u64, u64)>;

/// The pairs of `test_pairwise` and of `test_sweep_and_prune`, in the order delivered.
fn collect_pairs(world: &mut World) -> (PairList, PairList) {
    let mut pairwise = Vec::new();
    world.test_pairwise(|p| pairwise.push((p.a, p.b, p.user_a, p.user_b)));
    let mut sap = Vec::new();
    world.test_sweep_and_prune(|p| sap.push((p.a, p.b, p.user_a, p.user_b)));
    (pairwise, sap)
}

/// Sweep and prune is deterministic: same pairs in the same order as `test_pairwise`, sorted by key, repeatable, independent of insertion order, and it does not disturb other queries' tie order.
#[test]
fn sweep_and_prune_deterministic() {
    let n = 40;
    let forward: Vec<usize> = (0..n).collect();
    let reversed: Vec<usize> = (0..n).rev().collect();
    let interleaved: Vec<usize> = (0..n).map(|i| (i * 17) % n).collect();
    let mut reference: Option<Vec<(u64, u64)>> = None;
    for order in [&forward, &reversed, &interleaved] {
        let (mut world, _keys) = tied_world(order);
        let (pairwise, sap) = collect_pairs(&mut world);
        assert!(!pairwise.is_empty());
        assert_eq!(sap, pairwise, "sweep and prune differs from pairwise");
        assert!(
            pairwise.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)),
            "not sorted by key"
        );
        assert!(pairwise.iter().all(|p| p.0 < p.1));
        let slice: Vec<_> = world
            .pairs_sweep_and_prune()
            .iter()
            .map(|p| (p.a, p.b, p.user_a, p.user_b))
            .collect();
        assert_eq!(slice, pairwise);
        let (_, again) = collect_pairs(&mut world);
        assert_eq!(again, sap, "a second sweep gives another order");
        // The same set of pairs by user data, whatever the insertion order.
        let mut by_user: Vec<(u64, u64)> = pairwise.iter().map(|p| (p.2.min(p.3), p.2.max(p.3))).collect();
        by_user.sort_unstable();
        match &reference {
            None => reference = Some(by_user),
            Some(r) => assert_eq!(&by_user, r, "pair set depends on insertion order"),
        }
    }
    // Other queries keep their tie order after a sweep: a cast hitting two coincident boxes picks the smaller key.
    let mut world = World::new();
    let twin = Shape::Aabb(Aabb::new(v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0)));
    let first = world.add(ColliderDesc::new(twin.clone()).with_user_data(1)).unwrap();
    let second = world.add(ColliderDesc::new(twin).with_user_data(2)).unwrap();
    let cast = Segment::new(v(-1.0, 0.5, 0.5), v(2.0, 0.5, 0.5));
    let expected = first.min(second);
    assert_eq!(
        world.segment_cast(&cast, &QueryFilter::ALL).unwrap().unwrap().collider,
        expected
    );
    world.test_sweep_and_prune(|_| {});
    assert_eq!(
        world.segment_cast(&cast, &QueryFilter::ALL).unwrap().unwrap().collider,
        expected
    );
}

/// Sweep and prune with the sweep axis full of ties in a rotated, scaled scene still equals the pairwise reference.
#[test]
fn sweep_and_prune_ties_with_transforms() {
    let mut world = World::new();
    for i in 0..30u64 {
        let shape = match i % 3 {
            0 => Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)),
            1 => Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5)),
            _ => Shape::Capsule(Capsule::new(Segment::new(Vec3::ZERO, Vec3::Y), 0.25)),
        };
        let transform = Transform {
            translation: v(0.0, (i / 3) as f32 * 0.5, (i % 3) as f32),
            rotation: Quat::from_rotation_y(0.3 * i as f32),
            scale: Vec3::splat(1.0 + (i % 2) as f32),
        };
        world
            .add(ColliderDesc::new(shape).with_transform(transform).with_user_data(i))
            .unwrap();
    }
    let (pairwise, sap) = collect_pairs(&mut world);
    assert!(!pairwise.is_empty());
    assert_eq!(sap, pairwise);
}
