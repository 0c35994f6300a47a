//! Math types and the tolerances every query shares.
//!
//! collide does its vector math with [glam]; this module re-exports the types
//! it uses so callers need no direct dependency, and adds the few helpers
//! glam lacks.

pub(crate) mod aabb;
mod transform;

pub use aabb::Aabb;
pub use glam::{DVec3, Mat3, Quat, UVec4, Vec2, Vec3, Vec3A, Vec4};
pub use transform::Transform;

/// Relative tolerance used to decide that a length, area or determinant is
/// zero compared with the size of its inputs (about 120 ulps of `f32`).
///
/// Degeneracy tests compare `x² <= DEGENERATE_EPSILON² · scale²` instead of an
/// absolute epsilon, so a test behaves the same at every scale (the book's
/// absolute `0.001` drops thin motions: see BOOK.md).
pub const DEGENERATE_EPSILON: f32 = 1.0e-5;

/// How far from unit length a rotation quaternion may be before it is
/// rejected instead of renormalised: `| |q|² − 1 | <= UNIT_QUAT_TOLERANCE`.
pub const UNIT_QUAT_TOLERANCE: f32 = 1.0e-3;

/// Whether every component of `v` is finite (neither NaN nor ±∞).
///
/// ```
/// use collide::math::{is_finite3, Vec3};
/// assert!(is_finite3(Vec3::ONE));
/// assert!(!is_finite3(Vec3::new(0.0, f32::NAN, 0.0)));
/// ```
#[inline]
#[must_use]
pub fn is_finite3(v: Vec3) -> bool {
    v.is_finite()
}

/// Whether every value is finite: four at a time in one SIMD comparison,
/// without a branch per value (a check on every added or moved collider).
#[inline]
pub(crate) fn all_finite(values: &[f32]) -> bool {
    values.chunks(4).fold(true, |all, chunk| {
        let mut lanes = [0.0; 4];
        lanes[..chunk.len()].copy_from_slice(chunk);
        all & Vec4::from_array(lanes).is_finite()
    })
}

/// The lengths whose square is a normal `f32` (with room for a sum of
/// three): there `v.length()` and `v / |v|` are exact to rounding.
const PLAIN_LENGTHS: core::ops::RangeInclusive<f32> = 1.0e-18..=1.0e18;

/// `|v|` without overflow or underflow: where its square leaves the
/// normal `f32` range (below about 1e-18 or above 1e18), `v` is scaled to
/// a largest component of 1 first. A gap of 1e-40 squares to 0 in `f32`
/// (a centre outside a box would read as inside, with a negative depth),
/// one of 1e-22 to a subnormal (a "unit" vector divided by it has length
/// 0.77), one of 1e20 to `∞`. Within the range it is `v.length()`.
#[inline]
pub(crate) fn length_without_overflow(v: Vec3) -> f32 {
    let plain = v.length();
    if PLAIN_LENGTHS.contains(&plain) {
        return plain;
    }
    let largest = v.abs().max_element();
    if largest > 0.0 && largest.is_finite() {
        (v / largest).length() * largest
    } else {
        plain
    }
}

/// `v` normalised, or `None` for a zero or non-finite `v`: where `|v|` is
/// in [`PLAIN_LENGTHS`], `v.try_normalize()` (the same bits); outside,
/// after scaling `v` to a largest component of 1. A vector of 1e-22 (two
/// centres an ulp apart) has subnormal squares, and `try_normalize` alone
/// would give a "unit" vector of length 1.003; one of 1.7e38 has an
/// infinite square, which `try_normalize` takes for no direction at all.
#[inline]
pub(crate) fn unit_without_overflow(v: Vec3) -> Option<Vec3> {
    let length = v.length();
    if PLAIN_LENGTHS.contains(&length) {
        // `try_normalize`'s own product, without a second square root.
        return Some(v * length.recip());
    }
    let largest = v.abs().max_element();
    if largest > 0.0 {
        (v / largest).try_normalize()
    } else {
        None
    }
}

/// `v / length`, `length` being [`length_without_overflow`]`(v)`: that
/// division where the square of `|v|` is a normal `f32`, else `v`
/// normalised by [`unit_without_overflow`] (a subnormal length has too few
/// digits to divide by: a "unit" vector of length 1.03).
#[inline]
pub(crate) fn unit_by_length(v: Vec3, length: f32) -> Vec3 {
    if PLAIN_LENGTHS.contains(&length) {
        v / length
    } else {
        unit_without_overflow(v).unwrap_or(v / length)
    }
}

/// `(a + b) / 2` without overflow: that value wherever the sum is finite
/// (so bit for bit, subnormals included), else the halves summed (halving
/// is exact there), so two points near `f32::MAX` have a finite middle
/// where `a + b` is `∞`.
#[inline]
pub(crate) fn midpoint(a: Vec3, b: Vec3) -> Vec3 {
    let sum = a + b;
    if sum.is_finite() {
        sum * 0.5
    } else {
        a * 0.5 + b * 0.5
    }
}

/// `tolerance·(a + b)` for two lengths: that product where the sum is
/// finite (so the same bits), else `tolerance·a + tolerance·b`. The sum of
/// two lengths near `f32::MAX` is `∞`, and so was every tolerance (a
/// "coincident" threshold, an edge bias) taken from it.
#[inline]
pub(crate) fn tolerance_of_sum(tolerance: f32, a: f32, b: f32) -> f32 {
    let sum = a + b;
    if sum.is_finite() {
        tolerance * sum
    } else {
        tolerance * a + tolerance * b
    }
}

/// The least product of the largest components of `u` and `v` at which
/// [`cross_without_overflow`] keeps the `f32` cross product: below it the
/// terms `u_i·v_j` lose more than an ulp of the largest to the subnormal
/// range (2⁻¹²⁶/2⁻²³ = 2⁻¹⁰³).
const LEAST_CROSS_SCALE: f32 = f32::MIN_POSITIVE / f32::EPSILON;

/// A vector along `u × v`: the `f32` cross product itself where it is
/// finite and the product of the largest components of `u` and `v` is at
/// least [`LEAST_CROSS_SCALE`] (the same bits as `u.cross(v)`), else the
/// cross product in `f64` normalised (zero for parallel `u`, `v`). In
/// `f64` the products of two `f32` components are exact: no overflow (the
/// `f32` cross of two axes longer than about 1.8e19 is `∞`) and no
/// underflow (that of two axes shorter than 1e-23 is 0).
pub(crate) fn cross_without_overflow(u: Vec3, v: Vec3) -> Vec3 {
    let w = u.cross(v);
    if w.is_finite() && u.abs().max_element() * v.abs().max_element() >= LEAST_CROSS_SCALE {
        w
    } else {
        u.as_dvec3().cross(v.as_dvec3()).normalize_or_zero().as_vec3()
    }
}

/// The exponent `e` of a positive, finite `largest`: `2ᵉ <= largest < 2ᵉ⁺¹`
/// (read from the bits, so `largest` must be a normal `f64`: every value
/// given here, a difference or a sum of `f32` magnitudes, is). `None` for
/// zero, NaN or an infinity.
pub(crate) fn exponent_of_largest(largest: f64) -> Option<i32> {
    (largest > 0.0 && largest.is_finite()).then(|| ((largest.to_bits() >> 52) & 0x7ff) as i32 - 1023)
}

/// `2ⁿ`, exactly, for `−1022 <= n <= 1023` (built from its bits).
pub(crate) fn power_of_two(n: i32) -> f64 {
    f64::from_bits(((1023 + n) as u64) << 52)
}

/// The unit axis `±e_axis` pointing against `direction` along `axis`:
/// the outward normal of the box face that a segment with this direction
/// enters through on that axis (`-sign(d_axis) · e_axis`).
#[inline]
pub(crate) fn entry_face_normal(axis: usize, direction: Vec3) -> Vec3 {
    let mut normal = Vec3::ZERO;
    normal[axis] = if direction[axis] > 0.0 { -1.0 } else { 1.0 };
    normal
}

/// `x`'s bits mapped so that unsigned order is `f32::total_cmp`'s order
/// (negative values' bits reversed, the sign bit of the others set).
#[inline]
pub(crate) fn total_order_bits(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }
}

#[cfg(test)]
mod tests {
    use super::{midpoint, Vec3};

    /// The middle is `(a + b) / 2` to the bit where the sum is finite,
    /// subnormals included (halving them first would round them), and
    /// finite where the sum overflows.
    #[test]
    fn midpoint_is_the_half_sum_or_finite_beyond_it() {
        let tiny = Vec3::splat(f32::from_bits(1));
        assert_eq!(midpoint(tiny, tiny), (tiny + tiny) * 0.5);
        assert_ne!(midpoint(tiny, tiny), tiny * 0.5 + tiny * 0.5);
        let (a, b) = (Vec3::new(1.5, -2.0, 1e30), Vec3::new(-7.25, 3.0, 3e30));
        assert_eq!(midpoint(a, b), (a + b) * 0.5);
        let top = Vec3::new(0.0, f32::MAX, -f32::MAX);
        assert_eq!(midpoint(top, top), top);
        assert_eq!(midpoint(top, Vec3::ZERO), top * 0.5);
    }
}
