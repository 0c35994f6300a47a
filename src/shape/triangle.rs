//! Triangle: the solid (flat) triangle with corners `a`, `b`, `c`.

use crate::error::{Error, Result};
use crate::math::{exponent_of_largest, power_of_two, unit_without_overflow, DVec3, Vec3};
use crate::shape::segment::DSegment;

/// A solid triangle `{ a + s·(b − a) + t·(c − a) : s, t >= 0, s + t <= 1 }`.
///
/// Flat (zero thickness), two-sided. Corners may coincide or be collinear:
/// every query then treats it as the segment or point it has become.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Triangle {
    /// First corner.
    pub a: Vec3,
    /// Second corner.
    pub b: Vec3,
    /// Third corner.
    pub c: Vec3,
}

/// The point of a triangle closest to a query point, with its barycentric
/// coordinates: `point = u·a + v·b + w·c`, `u + v + w = 1`, all `>= 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleClosestPoint {
    /// The closest point.
    pub point: Vec3,
    /// Barycentric weights of `a`, `b`, `c`; a weight is exactly `0` when the
    /// point lies on the opposite edge or beyond (a vertex or edge region).
    pub weights: [f32; 3],
}

impl Triangle {
    /// The triangle `a`, `b`, `c` (not validated; see [`Triangle::validate`]).
    #[inline]
    #[must_use]
    pub const fn new(a: Vec3, b: Vec3, c: Vec3) -> Self {
        Self { a, b, c }
    }

    /// Checks that all corners are finite and at most `f32::MAX` apart on
    /// each axis (degenerate triangles are allowed). The second is what its
    /// support mapping needs: a corner's offset from the centroid,
    /// `(2a − b − c)/3`, is then at most two thirds of `f32::MAX` on every
    /// axis, where corners at `±f32::MAX` would put one at `4/3·f32::MAX`,
    /// which overflows.
    pub fn validate(&self) -> Result<()> {
        if !(self.a.is_finite() && self.b.is_finite() && self.c.is_finite()) {
            return Err(Error::NonFinite("triangle corner"));
        }
        let edges = [self.b - self.a, self.c - self.a, self.c - self.b];
        if !edges.iter().all(|edge| edge.is_finite()) {
            return Err(Error::NonFinite("triangle corners more than f32::MAX apart"));
        }
        Ok(())
    }

    /// The corners as an array.
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> [Vec3; 3] {
        [self.a, self.b, self.c]
    }

    /// `(a + b + c) / 3`.
    #[inline]
    #[must_use]
    pub fn centroid(&self) -> Vec3 {
        // In `f64`: the sum of three corners near `f32::MAX` overflows `f32`.
        ((self.a.as_dvec3() + self.b.as_dvec3() + self.c.as_dvec3()) / 3.0).as_vec3()
    }

    /// `(b − a) × (c − a)`: twice the area times the unit normal, the normal
    /// facing the side from which `a, b, c` run counter-clockwise. Zero for a
    /// degenerate triangle. Its components are products of edges: they
    /// overflow for edges beyond about 1.8e19 and underflow below about
    /// 1e-19 ([`Triangle::normal`] and [`Triangle::area`] do neither).
    #[inline]
    #[must_use]
    pub fn scaled_normal(&self) -> Vec3 {
        (self.b - self.a).cross(self.c - self.a)
    }

    /// The edges `b − a` and `c − a` times `2⁻ᵉ`, and `e`: the power of two
    /// that brings their largest component into `[1, 2]`
    /// ([`scaled_to_unit`]; the normal is homogeneous in the edges, so
    /// this changes it by an exact power of two only). The differences are taken in `f64` and
    /// rounded once, so each edge is the `f32` difference scaled exactly
    /// (where that difference is a normal `f32`), and finite for corners
    /// anywhere in the `f32` range. `None` when both edges are zero (all
    /// corners at one point) or not finite.
    fn unit_edges(&self) -> Option<(Vec3, Vec3, i32)> {
        let a = self.a.as_dvec3();
        let (e1, e2) = (self.b.as_dvec3() - a, self.c.as_dvec3() - a);
        let exponent = exponent_of_largest(e1.abs().max(e2.abs()).max_element())?;
        Some((scaled_to_unit(e1, exponent), scaled_to_unit(e2, exponent), exponent))
    }

    /// The unit normal, `None` for a degenerate (collinear) triangle: the
    /// cross product of the edges taken at unit scale (both edges times the
    /// power of two that brings their largest component into `[1, 2]`,
    /// which leaves the direction exact) and normalised by
    /// `math::unit_without_overflow`. The same bits as normalising
    /// [`Triangle::scaled_normal`] wherever that product and its square are
    /// normal `f32` numbers; the square, a fourth power of the size,
    /// overflows beyond about 4e9 and underflows below about 1e-10, where
    /// plain normalisation finds no normal.
    #[inline]
    #[must_use]
    pub fn normal(&self) -> Option<Vec3> {
        let (e1, e2, _) = self.unit_edges()?;
        unit_without_overflow(e1.cross(e2))
    }

    /// Area `|(b − a) × (c − a)| / 2` (`area_normal`, in `f64`), rounded
    /// once. `∞` for an area beyond `f32::MAX`; not finite for a non-finite
    /// corner.
    #[inline]
    #[must_use]
    pub fn area(&self) -> f32 {
        (0.5 * area_normal(self.a, self.b, self.c).length()) as f32
    }

    /// The point of the triangle closest to `p`, with its barycentric
    /// coordinates (Ericson, *Real-Time Collision Detection*, §5.1.5: the
    /// Voronoi regions of the three vertices, then the three edges, then the
    /// face), computed in `f64` and rounded to `f32` once.
    ///
    /// A degenerate triangle (collinear or coincident corners, where the
    /// face region's denominator vanishes) returns the closest point of its
    /// three edges instead of Ericson's `0/0`.
    ///
    /// ```
    /// use collide::{shape::Triangle, math::Vec3};
    /// let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
    /// let c = t.closest_point(Vec3::new(0.25, 0.25, 3.0));
    /// assert_eq!(c.point, Vec3::new(0.25, 0.25, 0.0));
    /// assert_eq!(c.weights, [0.5, 0.25, 0.25]);
    /// assert_eq!(t.closest_point(Vec3::new(-1.0, -1.0, 0.0)).weights, [1.0, 0.0, 0.0]);
    /// ```
    #[must_use]
    pub fn closest_point(&self, p: Vec3) -> TriangleClosestPoint {
        let c = self.closest_point_f64(p.as_dvec3());
        TriangleClosestPoint {
            point: c.point.as_vec3(),
            weights: c.weights.map(|w| w as f32),
        }
    }

    /// [`Triangle::closest_point`] in `f64`: the dot products of edges
    /// (`d1 … d6`) and their products (`va, vb, vc`, fourth powers of the
    /// coordinates) neither overflow nor underflow for any finite corner,
    /// so the sphere–triangle test built on it is exact to rounding.
    pub(crate) fn closest_point_f64(&self, p: DVec3) -> DTriangleClosestPoint {
        let (a, b, c) = (self.a.as_dvec3(), self.b.as_dvec3(), self.c.as_dvec3());
        let vertex = |point: DVec3, weights: [f64; 3]| DTriangleClosestPoint { point, weights };
        let ab = b - a;
        let ac = c - a;
        let ap = p - a;
        let d1 = ab.dot(ap);
        let d2 = ac.dot(ap);
        if d1 <= 0.0 && d2 <= 0.0 {
            return vertex(a, [1.0, 0.0, 0.0]);
        }
        let bp = p - b;
        let d3 = ab.dot(bp);
        let d4 = ac.dot(bp);
        if d3 >= 0.0 && d4 <= d3 {
            return vertex(b, [0.0, 1.0, 0.0]);
        }
        let vc = d1 * d4 - d3 * d2;
        if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 > 0.0 {
            let v = d1 / (d1 - d3);
            return vertex(a + ab * v, [1.0 - v, v, 0.0]);
        }
        let cp = p - c;
        let d5 = ab.dot(cp);
        let d6 = ac.dot(cp);
        if d6 >= 0.0 && d5 <= d6 {
            return vertex(c, [0.0, 0.0, 1.0]);
        }
        let vb = d5 * d2 - d1 * d6;
        if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 > 0.0 {
            let w = d2 / (d2 - d6);
            return vertex(a + ac * w, [1.0 - w, 0.0, w]);
        }
        let va = d3 * d6 - d5 * d4;
        if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 && (d4 - d3) + (d5 - d6) > 0.0 {
            let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            return vertex(b + (c - b) * w, [0.0, 1.0 - w, w]);
        }
        let sum = va + vb + vc;
        if sum > 0.0 {
            // Face region. The weights are the signed areas of the
            // sub-triangles at `p` over the whole, `n·((b − p) × (c − p))/|n|²`
            // and so on (Ericson §3.4): their rounding error is ε/sin θ for a
            // triangle with smallest angle θ, where the dot-product forms
            // `va, vb, vc` above cancel to ε/sin²θ — enough to misplace
            // GJK's witness points on the slivers curved shapes produce.
            let n = ab.cross(ac);
            let nn = n.length_squared();
            if nn > 0.0 {
                let u = (n.dot((b - p).cross(c - p)) / nn).clamp(0.0, 1.0);
                // `max`/`min`, not `clamp`: `1 − u` is NaN for NaN input,
                // and `clamp` panics on a NaN bound.
                let v = (n.dot((c - p).cross(a - p)) / nn).max(0.0).min(1.0 - u);
                let w = 1.0 - u - v;
                return vertex(a * u + b * v + c * w, [u, v, w]);
            }
        }
        // Degenerate (or NaN): the best of the three edges.
        self.closest_point_on_edges(p)
    }

    /// The closest point of the three edges, for degenerate triangles.
    fn closest_point_on_edges(&self, p: DVec3) -> DTriangleClosestPoint {
        let (a, b, c) = (self.a.as_dvec3(), self.b.as_dvec3(), self.c.as_dvec3());
        let edges = [(a, b, [0usize, 1]), (b, c, [1, 2]), (c, a, [2, 0])];
        let mut best = DTriangleClosestPoint {
            point: a,
            weights: [1.0, 0.0, 0.0],
        };
        let mut best_distance = f64::INFINITY;
        for (start, end, [i, j]) in edges {
            let segment = DSegment::new(start, end);
            let t = segment.closest_t(p);
            let q = segment.point_at(t);
            let distance = (q - p).length_squared();
            if distance < best_distance {
                best_distance = distance;
                let mut weights = [0.0; 3];
                weights[i] = 1.0 - t;
                weights[j] += t;
                best = DTriangleClosestPoint { point: q, weights };
            }
        }
        best
    }
}

/// [`TriangleClosestPoint`] in `f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DTriangleClosestPoint {
    /// The closest point.
    pub point: DVec3,
    /// Barycentric weights of `a`, `b`, `c` (see [`TriangleClosestPoint`]).
    pub weights: [f64; 3],
}

/// `(b − a) × (c − a)` in `f64`, twice the area of the triangle `abc`
/// along its normal: the differences of the `f32` corners are exact there
/// (or nearly, for corners far apart), the products round at most once and
/// do not cancel to a few digits as they do in `f32` for a sliver, and
/// their squares neither overflow nor vanish at any `f32` size.
pub(crate) fn area_normal(a: Vec3, b: Vec3, c: Vec3) -> DVec3 {
    let (a, b, c) = (a.as_dvec3(), b.as_dvec3(), c.as_dvec3());
    (b - a).cross(c - a)
}

/// `v·2⁻ᵉ` rounded to `f32` once. With `e` the exponent of `v`'s largest
/// component ([`exponent_of_largest`]) the result's largest component lies
/// in `[1, 2]` (the rounding may reach 2); the cast scales `start − a` by
/// the edges' `e`. Scaling by a power of two is exact, and an `f32`
/// difference taken in `f64` then rounded to `f32` is the `f32` difference
/// (53 >= 2·24 + 2 bits: double rounding is innocuous, Figueroa 1995), so
/// a difference `v` comes out as the plain `f32` difference times `2⁻ᵉ`
/// wherever both are normal `f32` numbers.
fn scaled_to_unit(v: DVec3, exponent: i32) -> Vec3 {
    (v * power_of_two(-exponent)).as_vec3()
}
