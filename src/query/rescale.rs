//! Bringing a GJK problem to unit scale before solving it.
//!
//! GJK, EPA and the GJK ray cast form squares and triple products of
//! coordinates relative to `b.center()`, and compare them with tolerances
//! relative to the shapes' size. In `f32` a triple product overflows beyond
//! sizes of about `2⁴²` and drops below the smallest normal number under
//! about `2⁻⁴²`; before that, the fixed floors of the simplex tests
//! already misjudge touching. So a problem whose size (the distance between
//! the centres, the bounding radii, the motion) lies outside
//! [`SAFE_SIZES`] is solved in a frame centred on `b.center()` and scaled
//! by the power of two that brings its size into `[1, 2)`, and the answer
//! is mapped back. Scaling by a power of two is exact in binary floating
//! point (short of underflow, which only drops detail far below the
//! precision of the problem's own size), so the answer is the one the
//! algorithms give at unit scale; times and normals do not scale at all.
//! A problem within the safe sizes, any game's, runs unchanged. The closed
//! forms of capsule and sphere casts go through the same frame: their sums
//! of radii and motions overflow near `f32::MAX` as GJK's products do
//! sooner.

use crate::math::{exponent_of_largest, power_of_two, DVec3, Vec3};
use crate::shape::{Capsule, Segment, Support};

/// The sizes at which GJK, EPA and the GJK ray cast run in place:
/// `[2⁻¹⁶, 2³²]`, well inside the range where they give the same answer
/// as at unit scale.
pub(crate) const SAFE_SIZES: std::ops::RangeInclusive<f32> = (1.0 / 65_536.0)..=4_294_967_296.0;

/// The affine map `x ↦ (x − origin)·scale` of a rescaled problem, `scale`
/// a power of two.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct UnitFrame {
    origin: DVec3,
    scale: f64,
}

impl UnitFrame {
    /// The frame that brings the problem of `a` and `b`, with a relative
    /// motion `motion` (in `f64`: the difference of two `f32` motions may
    /// exceed `f32::MAX`; zero for a static question), to unit scale; `None`
    /// when its size is already within [`SAFE_SIZES`], zero, or not finite.
    pub fn for_pair<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B, motion: DVec3) -> Option<Self> {
        let (center_a, center_b) = (a.center(), b.center());
        let radii = a.bounding_radius().max(b.bounding_radius());
        // In `f32` first (the common case: a size within the safe range);
        // an overflowing offset is not finite and fails the test.
        let quick = (center_a - center_b).abs().max_element().max(radii);
        let motion_size = motion.abs().max_element();
        let (low, high) = (f64::from(*SAFE_SIZES.start()), f64::from(*SAFE_SIZES.end()));
        if SAFE_SIZES.contains(&quick) && motion_size <= high {
            return None;
        }
        let origin = center_b.as_dvec3();
        let offset = center_a.as_dvec3() - origin;
        let size = offset.abs().max_element().max(motion_size).max(f64::from(radii));
        // Zero (two points at one place), or not finite (a NaN or infinite
        // input, which no frame makes better): in place.
        if size == 0.0 || (low..=high).contains(&size) || !size.is_finite() {
            return None;
        }
        // `size = 1.m · 2ᵉ` (a normal `f64`: the sum of `f32` magnitudes
        // is at least the smallest subnormal `f32`); scale by `2⁻ᵉ`.
        let exponent = exponent_of_largest(size)?;
        Some(Self {
            origin,
            scale: power_of_two(-exponent),
        })
    }

    /// `shape` seen in this frame.
    pub fn place<'s, S: Support + ?Sized>(&self, shape: &'s S) -> InUnitFrame<'s, S> {
        let center = ((shape.center().as_dvec3() - self.origin) * self.scale).as_vec3();
        InUnitFrame {
            shape,
            center,
            scale: self.scale,
        }
    }

    /// A displacement (a motion) in this frame.
    pub fn vector_to(&self, v: Vec3) -> Vec3 {
        (v.as_dvec3() * self.scale).as_vec3()
    }

    /// A point in this frame.
    pub fn point_to(&self, p: Vec3) -> Vec3 {
        ((p.as_dvec3() - self.origin) * self.scale).as_vec3()
    }

    /// A length (a radius) in this frame.
    pub fn length_to(&self, length: f32) -> f32 {
        (f64::from(length) * self.scale) as f32
    }

    /// A capsule in this frame, for the closed forms that take one.
    pub fn capsule(&self, capsule: &Capsule) -> Capsule {
        Capsule::new(
            Segment::new(self.point_to(capsule.segment.start), self.point_to(capsule.segment.end)),
            self.length_to(capsule.radius),
        )
    }

    /// A point of this frame back in world space.
    pub fn point_from(&self, p: Vec3) -> Vec3 {
        (p.as_dvec3() / self.scale + self.origin).as_vec3()
    }

    /// A length of this frame (a distance, a depth) back in world units;
    /// `f32::INFINITY` beyond `f32::MAX` (two shapes at opposite ends of
    /// the `f32` range).
    pub fn length_from(&self, length: f32) -> f32 {
        (f64::from(length) / self.scale) as f32
    }
}

/// A shape seen in a [`UnitFrame`]: its centre moved and every length
/// scaled (in `f64`: the scale of a problem of subnormal size is beyond
/// `f32::MAX`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct InUnitFrame<'s, S: ?Sized> {
    shape: &'s S,
    center: Vec3,
    scale: f64,
}

impl<S: Support + ?Sized> Support for InUnitFrame<'_, S> {
    #[inline]
    fn center(&self) -> Vec3 {
        self.center
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        (self.shape.core_support(direction).as_dvec3() * self.scale).as_vec3()
    }
    #[inline]
    fn margin(&self) -> f32 {
        (f64::from(self.shape.margin()) * self.scale) as f32
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        (f64::from(self.shape.bounding_radius()) * self.scale) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Sphere;

    #[test]
    fn problems_of_safe_size_stay_in_place() {
        let a = Sphere::new(Vec3::new(1.0e5, 0.0, 0.0), 0.01);
        let b = Sphere::new(Vec3::new(1.0e5, 3.0, 0.0), 0.5);
        assert_eq!(UnitFrame::for_pair(&a, &b, DVec3::new(0.0, 100.0, 0.0)), None);
        let point = Sphere::new(Vec3::ONE, 0.0);
        assert_eq!(UnitFrame::for_pair(&point, &point, DVec3::ZERO), None);
    }

    #[test]
    fn a_large_problem_is_centred_on_b_and_scaled_into_one_to_two() {
        let a = Sphere::new(Vec3::new(0.0, 3.0e20, 0.0), 1.0);
        let b = Sphere::new(Vec3::new(0.0, -3.0e20, 0.0), 2.0e20);
        let frame = UnitFrame::for_pair(&a, &b, DVec3::ZERO).unwrap();
        let (pa, pb) = (frame.place(&a), frame.place(&b));
        assert_eq!(pb.center(), Vec3::ZERO);
        assert!((1.0..2.0).contains(&pa.center().y), "{:?}", pa.center());
        assert_eq!(pb.margin(), pa.center().y / 3.0);
        assert_eq!(frame.point_from(pa.center()), a.center);
        assert_eq!(frame.length_from(pb.margin()), 2.0e20);
    }

    #[test]
    fn a_motion_across_the_f32_range_is_scaled_without_overflow() {
        let a = Sphere::new(Vec3::new(0.0, f32::MAX, 0.0), 1.0);
        let b = Sphere::new(Vec3::new(0.0, -f32::MAX, 0.0), 1.0);
        let frame = UnitFrame::for_pair(&a, &b, DVec3::new(0.0, -2.0 * f64::from(f32::MAX), 0.0)).unwrap();
        assert_eq!(frame.place(&a).center(), Vec3::new(0.0, f32::MAX / 2f32.powi(127), 0.0));
        assert!(frame.vector_to(Vec3::new(0.0, -f32::MAX, 0.0)).is_finite());
        assert_eq!(frame.length_from(frame.place(&a).center().y), f32::INFINITY);
    }

    #[test]
    fn a_nan_or_infinite_problem_stays_in_place() {
        let a = Sphere::new(Vec3::new(f32::NAN, 0.0, 0.0), 1.0);
        let b = Sphere::new(Vec3::ZERO, f32::INFINITY);
        let finite = Sphere::new(Vec3::ZERO, 1.0);
        assert_eq!(UnitFrame::for_pair(&a, &finite, DVec3::ZERO), None);
        assert_eq!(UnitFrame::for_pair(&finite, &b, DVec3::ZERO), None);
        assert_eq!(UnitFrame::for_pair(&finite, &finite, DVec3::splat(f64::NAN)), None);
    }

    #[test]
    fn a_tiny_problem_is_scaled_up() {
        let a = Sphere::new(Vec3::new(3.0e-30, 0.0, 0.0), 1.0e-30);
        let b = Sphere::new(Vec3::ZERO, 1.0e-30);
        let frame = UnitFrame::for_pair(&a, &b, DVec3::ZERO).unwrap();
        let pa = frame.place(&a);
        assert!((1.0..2.0).contains(&pa.center().x));
        assert_eq!(frame.point_from(pa.center()), a.center);
    }
}
