//! The watertight segment–triangle test (Woop, Benthin and Wald,
//! "Watertight Ray/Triangle Intersection", JCGT 2(1), 2013) with the
//! segment's frame computed once: a walk over a mesh or a height field tests
//! many triangles against one segment.

use crate::math::{DVec3, Vec3};
use crate::shape::{Segment, Triangle};

use super::cast::CastHit;

/// A segment prepared for [`WatertightSegment::cast`]: its start, its
/// direction `D = end − start` in `f64`, the dominant axis `z` of `D` and
/// the shear that takes `D` onto that axis.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WatertightSegment {
    start: DVec3,
    delta: DVec3,
    /// The dominant axis of `D` (the first of equal magnitudes).
    kz: usize,
    /// `D[kx]/D[kz]` and `D[ky]/D[kz]`, with `kx = kz + 1`, `ky = kz + 2`
    /// (mod 3).
    shear: (f64, f64),
}

impl WatertightSegment {
    /// The prepared segment; `None` for a zero-length one or one whose
    /// direction is infinite along its dominant axis, which misses every
    /// triangle (any other NaN or infinite end gives NaN or infinite
    /// projections or `t`, which miss too).
    #[inline]
    pub(crate) fn new(segment: &Segment) -> Option<WatertightSegment> {
        let start = segment.start.as_dvec3();
        let delta = segment.end.as_dvec3() - start;
        let kz = delta.abs().max_position();
        let (kx, ky) = ((kz + 1) % 3, (kz + 2) % 3);
        if !(delta[kz] != 0.0 && delta[kz].is_finite()) {
            return None;
        }
        Some(WatertightSegment {
            start,
            delta,
            kz,
            shear: (delta[kx] / delta[kz], delta[ky] / delta[kz]),
        })
    }

    /// First contact with the solid (two-sided) triangle: see
    /// [`Segment::cast_triangle`], which this is with the segment's frame
    /// computed in advance (the answers agree bit for bit).
    #[inline]
    pub(crate) fn cast(&self, triangle: &Triangle) -> Option<CastHit> {
        match self.kz {
            0 => self.cast_along::<0>(triangle),
            1 => self.cast_along::<1>(triangle),
            _ => self.cast_along::<2>(triangle),
        }
    }

    /// [`WatertightSegment::cast`] with the dominant axis `KZ` known.
    #[inline]
    fn cast_along<const KZ: usize>(&self, tri: &Triangle) -> Option<CastHit> {
        let (kx, ky) = ((KZ + 1) % 3, (KZ + 2) % 3);
        let (p, d) = (self.start, self.delta);
        let (sx, sy) = self.shear;
        // Each corner in the segment's frame, rounded to f32 once: the
        // triangles around a shared corner see the very same 2D point.
        let project = |v: Vec3| {
            let a = (v.as_dvec3() - p).to_array();
            ((a[kx] - sx * a[KZ]) as f32 as f64, (a[ky] - sy * a[KZ]) as f32 as f64)
        };
        let (a2, b2, c2) = (project(tri.a), project(tri.b), project(tri.c));
        // Products of f32 values are exact in f64, the difference rounded
        // once: the signs are exact.
        let edge = |p: (f64, f64), q: (f64, f64)| p.0 * q.1 - p.1 * q.0;
        let (w_c, w_a, w_b) = (edge(a2, b2), edge(b2, c2), edge(c2, a2));
        let negative = w_a < 0.0 || w_b < 0.0 || w_c < 0.0;
        let positive = w_a > 0.0 || w_b > 0.0 || w_c > 0.0;
        if negative == positive {
            // Mixed signs (a miss), all zero (in the plane, or degenerate),
            // or NaN.
            return None;
        }
        let (a, b, c) = (tri.a.as_dvec3(), tri.b.as_dvec3(), tri.c.as_dvec3());
        let n = (b - a).cross(c - a);
        let approach = n.dot(d);
        if !(approach != 0.0) {
            return None;
        }
        let t = n.dot(a - p) / approach;
        if !(0.0..=1.0).contains(&t) {
            return None;
        }
        let n = n.normalize().as_vec3();
        let normal = if approach > 0.0 { -n } else { n };
        if !normal.is_finite() {
            return None;
        }
        Some(CastHit {
            t: t as f32,
            normal,
            sub_shape: 0,
        })
    }
}
