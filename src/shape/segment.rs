//! Line segment `P(t) = start + t·(end − start)`, `t ∈ [0, 1]`.
//!
//! The distances are computed in `f64` (`DSegment`) and rounded once to
//! `f32` at the end: every finite `f32` converts exactly, squares of any
//! finite `f32` difference stay below 1.2e77 and the fourth powers of the
//! segment–segment determinant below 1.4e154 (no overflow), and squares of
//! `f32` subnormals do not underflow, so the pair tests built on them
//! (`src/query/intersect.rs`) compare exact-to-rounding squared distances
//! for every finite input.

use crate::math::{DVec3, Vec3};

/// A closed line segment from `start` to `end`; layout-compatible with the
/// book's `LineSegment { Vector3 mStart, mEnd; }` through `ffi::PhysSegment`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Segment {
    /// The point at `t = 0`.
    pub start: Vec3,
    /// The point at `t = 1`.
    pub end: Vec3,
}

/// The closest pair of points between two segments, as returned by
/// [`Segment::closest_points`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SegmentClosestPoints {
    /// Parameter of the closest point on the first segment, in `[0, 1]`.
    pub s: f32,
    /// Parameter of the closest point on the second segment, in `[0, 1]`.
    pub t: f32,
    /// The closest point on the first segment.
    pub point_a: Vec3,
    /// The closest point on the second segment.
    pub point_b: Vec3,
    /// `|point_a − point_b|²`.
    pub distance_squared: f32,
}

impl Segment {
    /// A segment from `start` to `end`.
    ///
    /// ```
    /// use collide::{Segment, math::Vec3};
    /// let s = Segment::new(Vec3::ZERO, Vec3::X);
    /// assert_eq!(s.point_at(0.5), Vec3::new(0.5, 0.0, 0.0));
    /// ```
    #[inline]
    #[must_use]
    pub const fn new(start: Vec3, end: Vec3) -> Self {
        Self { start, end }
    }

    /// `end − start`.
    #[inline]
    #[must_use]
    pub fn direction(&self) -> Vec3 {
        self.end - self.start
    }

    /// `|end − start|²`.
    #[inline]
    #[must_use]
    pub fn length_squared(&self) -> f32 {
        self.direction().length_squared()
    }

    /// `(end − start) / 2` without overflow: per component, that value
    /// wherever `end − start` is finite (so bit for bit), else
    /// `end/2 − start/2` (halving is exact there), as
    /// [`Aabb::half_extents`](crate::Aabb::half_extents) does. The ends
    /// `±2e38` have a difference of `∞` but a half-difference of `2e38`.
    #[inline]
    pub(crate) fn half_direction(&self) -> Vec3 {
        let d = self.direction();
        Vec3::select(d.is_finite_mask(), d * 0.5, self.end * 0.5 - self.start * 0.5)
    }

    /// `start + t·(end − start)`, without overflow for `t ∈ [0, 1]`: per
    /// component, that `f32` value wherever it is finite (so bit for bit),
    /// else (the `f32` difference or sum overflowed) the same formula in
    /// `f64` rounded once, between the ends and so finite: the middle of
    /// `−2e38 → 2e38` is 0, not `−2e38 + ∞·0.5 = ∞`.
    #[inline]
    #[must_use]
    pub fn point_at(&self, t: f32) -> Vec3 {
        let p = self.start + self.direction() * t;
        if p.is_finite() {
            return p;
        }
        Vec3::select(p.is_finite_mask(), p, self.to_f64().point_at(f64::from(t)).as_vec3())
    }

    /// Whether both end points are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.start.is_finite() && self.end.is_finite()
    }

    /// Whether the segment can be cast: its end points and its direction
    /// `end − start` (which overflows for ends near `±f32::MAX`) are
    /// finite.
    #[inline]
    pub(crate) fn is_castable(&self) -> bool {
        self.is_finite() && self.direction().is_finite()
    }

    /// The parameter `t ∈ [0, 1]` of the point of the segment closest to `p`:
    /// `clamp((p − start)·d / (d·d), 0, 1)` with `d = end − start`
    /// (Ericson, *Real-Time Collision Detection*, §5.1.2).
    ///
    /// A zero-length segment returns 0 instead of the book's `0/0`.
    ///
    /// ```
    /// use collide::{Segment, math::Vec3};
    /// let s = Segment::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0));
    /// assert_eq!(s.closest_t(Vec3::new(0.5, 3.0, 0.0)), 0.25);
    /// assert_eq!(Segment::new(Vec3::ONE, Vec3::ONE).closest_t(Vec3::ZERO), 0.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn closest_t(&self, p: Vec3) -> f32 {
        self.to_f64().closest_t(p.as_dvec3()) as f32
    }

    /// The point of the segment closest to `p`: [`Segment::point_at`] of
    /// [`Segment::closest_t`], so finite for every finite segment and point.
    #[inline]
    #[must_use]
    pub fn closest_point(&self, p: Vec3) -> Vec3 {
        self.point_at(self.closest_t(p))
    }

    /// `min over t of |P(t) − p|²`; finite for a zero-length segment.
    ///
    /// ```
    /// use collide::{Segment, math::Vec3};
    /// let s = Segment::new(Vec3::ZERO, Vec3::X);
    /// assert_eq!(s.distance_squared_to_point(Vec3::new(3.0, 0.0, 0.0)), 4.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn distance_squared_to_point(&self, p: Vec3) -> f32 {
        self.to_f64().distance_squared_to_point(p.as_dvec3()) as f32
    }

    /// The closest points between `self` (parameter `s`) and `other`
    /// (parameter `t`), computed in `f64` and rounded to `f32` once.
    ///
    /// Ericson, *Real-Time Collision Detection*, §5.1.9, with the degeneracy
    /// tests made relative to the segments' lengths: either or both segments
    /// may have zero length, and parallel segments return one of their
    /// closest pairs. The determinant `a·e − b²` and the numerator of `s` are
    /// formed from cross products (Lagrange's identity) rather than as
    /// differences of dot products, which cancel for nearly parallel
    /// segments.
    ///
    /// ```
    /// use collide::{Segment, math::Vec3};
    /// let a = Segment::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
    /// let b = Segment::new(Vec3::new(0.0, -1.0, 2.0), Vec3::new(0.0, 1.0, 2.0));
    /// let c = a.closest_points(&b);
    /// assert_eq!((c.s, c.t, c.distance_squared), (0.5, 0.5, 4.0));
    /// ```
    #[must_use]
    pub fn closest_points(&self, other: &Segment) -> SegmentClosestPoints {
        let c = self.to_f64().closest_points(&other.to_f64());
        SegmentClosestPoints {
            s: c.s as f32,
            t: c.t as f32,
            point_a: c.point_a.as_vec3(),
            point_b: c.point_b.as_vec3(),
            distance_squared: c.distance_squared as f32,
        }
    }

    /// The same segment in `f64` (exact: every `f32` converts exactly).
    #[inline]
    pub(crate) fn to_f64(self) -> DSegment {
        DSegment::new(self.start.as_dvec3(), self.end.as_dvec3())
    }
}

/// A segment in `f64`: the arithmetic of the `f32` [`Segment`]'s distances
/// and of the squared-distance pair tests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DSegment {
    /// The point at `t = 0`.
    pub start: DVec3,
    /// The point at `t = 1`.
    pub end: DVec3,
}

/// The closest pair of points between two [`DSegment`]s, in `f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DClosestPoints {
    /// Parameter of the closest point on the first segment, in `[0, 1]`.
    pub s: f64,
    /// Parameter of the closest point on the second segment, in `[0, 1]`.
    pub t: f64,
    /// The closest point on the first segment.
    pub point_a: DVec3,
    /// The closest point on the second segment.
    pub point_b: DVec3,
    /// `|point_a − point_b|²`.
    pub distance_squared: f64,
}

/// Two directions are parallel when `|d1 × d2|² <= PARALLEL_SINE² · |d1|²·|d2|²`
/// (the sine of their angle below a few `f64` ulps); then `s = 0` and the
/// clamps pick one of the closest pairs. For directions that are
/// differences of `f32` coordinates of similar magnitude, the products in
/// `d1 × d2` are exact in `f64` (24-bit significands), so each component
/// carries one rounding: exactly parallel directions give exactly 0, and
/// nearly parallel ones an accurate normal, whereas `f32` (relative
/// threshold `DEGENERATE_EPSILON`) had to treat a sine below 1e-5 as
/// parallel, off by up to 1e-5 of the segments' length.
const PARALLEL_SINE: f64 = 4.0 * f64::EPSILON;

impl DSegment {
    /// A segment from `start` to `end`.
    #[inline]
    pub(crate) const fn new(start: DVec3, end: DVec3) -> Self {
        Self { start, end }
    }

    /// `end − start`.
    #[inline]
    pub(crate) fn direction(&self) -> DVec3 {
        self.end - self.start
    }

    /// `start + t·(end − start)`.
    #[inline]
    pub(crate) fn point_at(&self, t: f64) -> DVec3 {
        self.start + self.direction() * t
    }

    /// `clamp((p − start)·d / (d·d), 0, 1)` with `d = end − start` (Ericson
    /// §5.1.2); 0 for a zero-length segment.
    #[inline]
    pub(crate) fn closest_t(&self, p: DVec3) -> f64 {
        let d = self.direction();
        let dd = d.length_squared();
        if dd == 0.0 {
            return 0.0;
        }
        ((p - self.start).dot(d) / dd).clamp(0.0, 1.0)
    }

    /// `min over t of |P(t) − p|²`.
    #[inline]
    pub(crate) fn distance_squared_to_point(&self, p: DVec3) -> f64 {
        (self.point_at(self.closest_t(p)) - p).length_squared()
    }

    /// The closest points between `self` (parameter `s`) and `other`
    /// (parameter `t`): Ericson §5.1.9 with `a·e − b² = |d1 × d2|²` and
    /// `b·f − c·e = (d1 × d2)·(d2 × r)` (Lagrange's identity), parallel by
    /// [`PARALLEL_SINE`], either segment possibly of zero length.
    pub(crate) fn closest_points(&self, other: &DSegment) -> DClosestPoints {
        let d1 = self.direction();
        let d2 = other.direction();
        let r = self.start - other.start;
        let a = d1.length_squared();
        let e = d2.length_squared();
        let f = d2.dot(r);
        let (s, t) = if a == 0.0 && e == 0.0 {
            (0.0, 0.0)
        } else if a == 0.0 {
            (0.0, (f / e).clamp(0.0, 1.0))
        } else {
            let c = d1.dot(r);
            if e == 0.0 {
                ((-c / a).clamp(0.0, 1.0), 0.0)
            } else {
                let b = d1.dot(d2);
                let normal = d1.cross(d2);
                let denom = normal.length_squared();
                // Parallel: any s works; pick s = 0 and let the clamps
                // below fix t and s.
                let parallel = denom <= PARALLEL_SINE * PARALLEL_SINE * a * e;
                let mut s = if parallel {
                    0.0
                } else {
                    (normal.dot(d2.cross(r)) / denom).clamp(0.0, 1.0)
                };
                let mut t = (b * s + f) / e;
                if t < 0.0 {
                    t = 0.0;
                    s = (-c / a).clamp(0.0, 1.0);
                } else if t > 1.0 {
                    t = 1.0;
                    s = ((b - c) / a).clamp(0.0, 1.0);
                }
                (s, t)
            }
        };
        let point_a = self.point_at(s);
        let point_b = other.point_at(t);
        DClosestPoints {
            s,
            t,
            point_a,
            point_b,
            distance_squared: (point_a - point_b).length_squared(),
        }
    }
}
