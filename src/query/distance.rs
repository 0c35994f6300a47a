//! Squared distances and closest points between shapes.
//!
//! Segment–point and segment–segment live on [`Segment`] itself; this file
//! holds the box distances the pair tests need and the sphere–triangle
//! distance. Like the segment's, they
//! are computed in `f64` (no overflow or underflow of a square for any
//! finite `f32` input) and rounded to `f32` once.

use crate::math::{DVec3, Vec3};
use crate::query::Distance;
use crate::shape::segment::DSegment;
use crate::shape::{Aabb, Segment, Sphere, Triangle};

impl Aabb {
    /// The point of the box closest to `p`: `p` clamped to `[min, max]`.
    #[inline]
    #[must_use]
    pub fn closest_point(&self, p: Vec3) -> Vec3 {
        p.clamp(self.min, self.max)
    }

    /// `Σ_i max(min_i − p_i, 0, p_i − max_i)²` over all three axes
    /// (Ericson §5.1.3.1). The book uses the y distance where z is meant.
    ///
    /// NaN when `p` or the box has a NaN coordinate, so that every test
    /// built on it (sphere–box) is false for NaN input.
    ///
    /// ```
    /// use collide::{Aabb, math::Vec3};
    /// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    /// assert_eq!(b.distance_squared_to_point(Vec3::new(0.5, 0.5, 3.0)), 4.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn distance_squared_to_point(&self, p: Vec3) -> f32 {
        self.distance_squared_to_point_f64(p.as_dvec3()) as f32
    }

    /// [`Aabb::distance_squared_to_point`] in `f64`.
    #[inline]
    pub(crate) fn distance_squared_to_point_f64(&self, p: DVec3) -> f64 {
        let (min, max) = (self.min.as_dvec3(), self.max.as_dvec3());
        // `max` drops a NaN operand in favour of the 0, which would put a
        // NaN point at distance 0 from every box: propagate it instead.
        if p.is_nan() || min.is_nan() || max.is_nan() {
            return f64::NAN;
        }
        let below = (min - p).max(DVec3::ZERO);
        let above = (p - max).max(DVec3::ZERO);
        (below + above).length_squared()
    }

    /// `min over t ∈ [0, 1] of |P(t) − box|²`, exactly.
    ///
    /// The squared distance along the segment is convex and piecewise
    /// quadratic in `t`, with breaks where `P(t)` crosses a face plane of the
    /// box (at most six). On each piece the set of axes on which `P(t)` is
    /// outside is fixed, so the minimiser is
    /// `t* = −Σ (p_i − b_i)·d_i / Σ d_i²` over those axes, clamped to the
    /// piece; the answer is the least of those minima. A piece with no such
    /// axis (inside the box, or outside only on axes the segment runs
    /// parallel to) has a constant distance, taken at its midpoint, so a
    /// segment through the box gives exactly 0. NaN for NaN input.
    ///
    /// ```
    /// use collide::{Aabb, Segment, math::Vec3};
    /// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    /// let s = Segment::new(Vec3::new(-1.0, 3.0, 0.5), Vec3::new(2.0, 3.0, 0.5));
    /// assert_eq!(b.distance_squared_to_segment(&s), 4.0);
    /// ```
    #[must_use]
    pub fn distance_squared_to_segment(&self, segment: &Segment) -> f32 {
        self.distance_squared_to_segment_f64(&segment.to_f64()) as f32
    }

    /// [`Aabb::distance_squared_to_segment`] in `f64`, for a segment given
    /// in `f64` (an oriented box's test takes the segment into its frame).
    pub(crate) fn distance_squared_to_segment_f64(&self, segment: &DSegment) -> f64 {
        if segment.start.is_nan() || segment.end.is_nan() {
            return f64::NAN;
        }
        let (min, max) = (self.min.as_dvec3(), self.max.as_dvec3());
        let p = segment.start;
        let d = segment.direction();
        let mut breaks = [0.0f64; 8];
        breaks[1] = 1.0;
        let mut count = 2;
        for axis in 0..3 {
            if d[axis] != 0.0 {
                for bound in [min[axis], max[axis]] {
                    let t = (bound - p[axis]) / d[axis];
                    if t > 0.0 && t < 1.0 {
                        breaks[count] = t;
                        count += 1;
                    }
                }
            }
        }
        let breaks = &mut breaks[..count];
        breaks.sort_unstable_by(f64::total_cmp);
        let mut best = self.distance_squared_to_point_f64(p);
        for piece in breaks.windows(2) {
            let (t0, t1) = (piece[0], piece[1]);
            let mid = segment.point_at(0.5 * (t0 + t1));
            let mut numerator = 0.0;
            let mut denominator = 0.0;
            for axis in 0..3 {
                let bound = if mid[axis] < min[axis] {
                    min[axis]
                } else if mid[axis] > max[axis] {
                    max[axis]
                } else {
                    continue;
                };
                numerator -= (p[axis] - bound) * d[axis];
                denominator += d[axis] * d[axis];
            }
            // With no outside axis moving, the distance is constant on the
            // piece: take it at the midpoint just classified (its end points
            // may round to a ulp outside a box the piece is inside of).
            let t = if denominator > 0.0 {
                (numerator / denominator).clamp(t0, t1)
            } else {
                0.5 * (t0 + t1)
            };
            best = best
                .min(self.distance_squared_to_point_f64(segment.point_at(t)))
                .min(self.distance_squared_to_point_f64(segment.point_at(t1)));
        }
        best
    }
}

impl Sphere {
    /// The distance from the sphere to a (flat, solid) triangle in closed
    /// form: with `q` the triangle's point closest to the centre `c` (in
    /// `f64`), `|q − c| − r` along `q − c`, `point_a` on the sphere and
    /// `point_b = q`; 0 with the common point `q` and no normal when they
    /// touch or overlap.
    ///
    /// ```
    /// use collide::{Sphere, Triangle, math::Vec3};
    /// let floor = Triangle::new(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 5.0));
    /// let d = Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0).distance_triangle(&floor);
    /// assert_eq!((d.distance, d.point_a, d.point_b, d.normal), (2.0, Vec3::new(0.0, 2.0, 0.0), Vec3::ZERO, Some(Vec3::NEG_Y)));
    /// ```
    #[must_use]
    pub fn distance_triangle(&self, triangle: &Triangle) -> Distance {
        let c = self.center.as_dvec3();
        let q = triangle.closest_point_f64(c).point;
        let between = (q - c).length();
        let gap = between - f64::from(self.radius);
        let normal = (q - c) / between;
        if !(gap > 0.0) || !normal.is_finite() {
            return Distance {
                sub_shapes: [0; 2],
                distance: 0.0,
                point_a: q.as_vec3(),
                point_b: q.as_vec3(),
                normal: None,
            };
        }
        Distance {
            sub_shapes: [0; 2],
            distance: gap as f32,
            point_a: (c + normal * f64::from(self.radius)).as_vec3(),
            point_b: q.as_vec3(),
            normal: Some(normal.as_vec3()),
        }
    }
}
