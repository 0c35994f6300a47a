//! Floating-point helpers of the tests: the neighbouring `f32`s, tolerant
//! comparisons that name what they compare, a ternary search, and the
//! `f64` reference distances of points, segments and boxes.

use collide::math::Vec3;
use collide::{Aabb, Segment};

/// The next representable `f32` above `x` (for finite `x`).
pub fn next_up(x: f32) -> f32 {
    if x == 0.0 {
        f32::from_bits(1)
    } else if x > 0.0 {
        f32::from_bits(x.to_bits() + 1)
    } else {
        f32::from_bits(x.to_bits() - 1)
    }
}

/// The next representable `f32` below `x` (for finite `x`).
pub fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

#[track_caller]
pub fn assert_near(actual: f32, expected: f32, tolerance: f32) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not within {tolerance} of {expected}"
    );
}

#[track_caller]
pub fn assert_vec_near(actual: Vec3, expected: Vec3, tolerance: f32) {
    assert!(
        (actual - expected).abs().max_element() <= tolerance,
        "{actual:?} is not within {tolerance} of {expected:?}"
    );
}

/// The smallest value of a convex function on `[lo, hi]`, by ternary search in `f64`.
pub fn ternary_min(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
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

pub fn to_f64(p: Vec3) -> [f64; 3] {
    [f64::from(p.x), f64::from(p.y), f64::from(p.z)]
}

/// Squared distance from a point to a box, in `f64`.
pub fn box_point_distance_squared_f64(aabb: &Aabb, p: [f64; 3]) -> f64 {
    let (min, max) = (to_f64(aabb.min), to_f64(aabb.max));
    (0..3)
        .map(|i| {
            let excess = (min[i] - p[i]).max(p[i] - max[i]).max(0.0);
            excess * excess
        })
        .sum()
}

/// Point of a segment at `t`, in `f64`.
pub fn segment_point_f64(segment: &Segment, t: f64) -> [f64; 3] {
    let (a, b) = (to_f64(segment.start), to_f64(segment.end));
    [
        a[0] + t * (b[0] - a[0]),
        a[1] + t * (b[1] - a[1]),
        a[2] + t * (b[2] - a[2]),
    ]
}

pub fn distance_squared_f64(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum()
}

/// Squared distance from a point to a segment, in `f64`.
pub fn point_segment_distance_squared_f64(p: [f64; 3], segment: &Segment) -> f64 {
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

pub fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

#[track_caller]
pub fn assert_close(a: f32, b: f32, tol: f32) {
    assert!(close(a, b, tol), "{a} != {b} (tolerance {tol})");
}

#[track_caller]
pub fn assert_vec_close(a: Vec3, b: Vec3, tol: f32) {
    assert!((a - b).length() <= tol, "{a} != {b} (tolerance {tol})");
}
