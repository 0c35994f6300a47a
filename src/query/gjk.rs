//! GJK: distance, closest points and overlap between any two convex shapes,
//! and ray casts against them, through their support mappings.
//!
//! Gilbert, Johnson and Keerthi, "A Fast Procedure for Computing the
//! Distance Between Complex Objects in Three-Dimensional Space" (1988), in
//! the form of van den Bergen, *Collision Detection in Interactive 3D
//! Environments* (2004), ch. 4, with the simplex sub-algorithm of Ericson,
//! *Real-Time Collision Detection*, ch. 9 (closest point of a point,
//! segment, triangle or tetrahedron to the origin by Voronoi regions, with
//! barycentric coordinates).
//!
//! Every query runs on the shapes' cores (see [`Support`]) in a frame centred
//! on `b.center()`, with a fixed-size simplex: no allocation. Tolerances are
//! relative to the shapes' size `s = a.bounding_radius() + b.bounding_radius()`:
//!
//! - two shapes closer than [`TOUCH_TOLERANCE`]` · s` are *touching*: they
//!   intersect, their distance is 0 and they have no separating normal;
//! - a distance is returned once its lower and upper bounds agree to within
//!   [`DISTANCE_TOLERANCE`] relative (plus the touching tolerance absolute).
//!
//! The public queries ([`intersects`], [`distance`],
//! [`contact`](crate::query::contact()), [`shape_cast`](crate::query::shape_cast()),
//! [`Segment::cast_convex`]) first bring a problem whose size (the distance
//! between the centres, the bounding radii, the motion) lies outside
//! `[2⁻¹⁶, 2³²]` to unit size, by a power of two, exactly: in `f32` the
//! simplex's triple products overflow beyond sizes of about `2⁴²` and
//! underflow below `2⁻⁴²`, and the answers at `2⁶⁴` or `2⁻³⁰` were wrong
//! before. They answer as at unit scale from `2⁻¹²⁰` to `2¹²⁰`; a distance
//! beyond `f32::MAX` (two shapes at opposite ends of the range) is `∞`.

use crate::math::{length_without_overflow, midpoint, unit_by_length, unit_without_overflow, DVec3, Vec3};
use crate::query::rescale::UnitFrame;
use crate::query::sphere_search::minimize_on_sphere;
use crate::query::CastHit;
use crate::shape::{Segment, Support, Triangle};

/// Relative size below which two shapes count as touching (see the module
/// docs): `1e-6` of their combined bounding radii, about 16 `f32` ulps.
pub const TOUCH_TOLERANCE: f32 = 1.0e-6;

/// Relative gap between GJK's lower and upper distance bounds at which it
/// stops (van den Bergen's `ε_rel`).
pub const DISTANCE_TOLERANCE: f32 = 1.0e-6;

/// Iteration cap of the GJK loops. Polytopes converge in a few iterations;
/// curved shapes (cylinders, cones) stop on the relative tolerance long
/// before it. Reaching it returns the best answer so far.
pub const MAX_ITERATIONS: usize = 64;

/// The answer of [`distance`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distance {
    /// The Euclidean distance between the two solids, `>= 0`; `0` when they
    /// touch or overlap.
    pub distance: f32,
    /// The point of `a` closest to `b`. When they touch or overlap, a point
    /// common to both (then `point_a == point_b`).
    pub point_a: Vec3,
    /// The point of `b` closest to `a` (equal to `point_a` when they touch
    /// or overlap).
    pub point_b: Vec3,
    /// The unit direction from `point_a` to `point_b` when the shapes are
    /// apart; `None` when they touch or overlap (there is no separating
    /// direction to speak of; [`contact`](crate::query::contact()) gives the
    /// penetration normal).
    pub normal: Option<Vec3>,
    /// Which part of each shape decided the answer, `[a, b]`: the index
    /// of a [`Compound`](crate::shape::Compound)'s child, of a mesh's or
    /// height field's triangle; 0 for any other shape. A child of a
    /// compound against a surface names the compound's child.
    pub sub_shapes: [u32; 2],
}

impl Distance {
    /// The same distance seen from `b`: points swapped, normal negated.
    ///
    /// ```
    /// use collide::{Aabb, Sphere, query::distance, math::Vec3};
    /// let (ball, cube) = (Sphere::new(Vec3::new(3.0, 0.5, 0.5), 1.0), Aabb::new(Vec3::ZERO, Vec3::ONE));
    /// assert_eq!(distance(&ball, &cube).flipped(), distance(&cube, &ball));
    /// ```
    #[inline]
    #[must_use]
    pub fn flipped(self) -> Distance {
        Distance {
            sub_shapes: [self.sub_shapes[1], self.sub_shapes[0]],
            distance: self.distance,
            point_a: self.point_b,
            point_b: self.point_a,
            normal: self.normal.map(|n| -n),
        }
    }
}

/// A vertex of the simplex: `w = a − b`, with the support points of each
/// shape that made it (all relative to `b.center()`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Vertex {
    pub w: Vec3,
    pub a: Vec3,
    pub b: Vec3,
}

/// The support mapping of `A − B` relative to `b.center()`.
pub(crate) struct MinkowskiDifference<'a, A: ?Sized, B: ?Sized> {
    pub a: &'a A,
    pub b: &'a B,
    /// `a.center() − b.center()`.
    pub offset: Vec3,
}

impl<'a, A: Support + ?Sized, B: Support + ?Sized> MinkowskiDifference<'a, A, B> {
    #[inline]
    pub fn new(a: &'a A, b: &'a B) -> Self {
        Self {
            a,
            b,
            offset: a.center() - b.center(),
        }
    }

    /// The vertex of the cores' difference farthest along `d`:
    /// `s_A(d) − s_B(−d)`.
    #[inline]
    pub fn support(&self, d: Vec3) -> Vertex {
        let a = self.offset + self.a.core_support(d);
        let b = self.b.core_support(-d);
        Vertex { w: a - b, a, b }
    }

    /// The combined size `s` of the module docs (never below the smallest
    /// positive normal `f32`, so tolerances derived from it are usable).
    #[inline]
    pub fn scale(&self) -> f32 {
        (self.a.bounding_radius() + self.b.bounding_radius()).max(f32::MIN_POSITIVE)
    }

    /// `margin(a) + margin(b)`.
    #[inline]
    pub fn margin(&self) -> f32 {
        self.a.margin() + self.b.margin()
    }
}

/// Up to four vertices and the barycentric weights of the point of their
/// hull closest to the origin (fixed size, `Copy`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Simplex {
    pub v: [Vertex; 4],
    pub weights: [f64; 4],
    pub len: usize,
}

impl Simplex {
    pub fn single(vertex: Vertex) -> Self {
        let mut s = Self::default();
        s.v[0] = vertex;
        s.weights[0] = 1.0;
        s.len = 1;
        s
    }

    #[inline]
    pub fn vertices(&self) -> &[Vertex] {
        &self.v[..self.len]
    }

    #[inline]
    fn push(&mut self, vertex: Vertex) {
        self.v[self.len] = vertex;
        self.len += 1;
    }

    /// Whether `w` is already a vertex (GJK's cycling test).
    #[inline]
    fn contains(&self, w: Vec3) -> bool {
        self.vertices().iter().any(|x| x.w == w)
    }

    /// `Σ λ_i w_i`, `Σ λ_i a_i`, `Σ λ_i b_i`, summed in `f64` and rounded
    /// once.
    #[inline]
    pub fn combination(&self) -> (Vec3, Vec3, Vec3) {
        let (w, a, b) = self.combination_f64();
        (w.as_vec3(), a.as_vec3(), b.as_vec3())
    }

    /// [`Simplex::combination`] in `f64`.
    #[inline]
    fn combination_f64(&self) -> (DVec3, DVec3, DVec3) {
        let mut w = DVec3::ZERO;
        let mut a = DVec3::ZERO;
        let mut b = DVec3::ZERO;
        for (vertex, &weight) in self.vertices().iter().zip(&self.weights) {
            w += vertex.w.as_dvec3() * weight;
            a += vertex.a.as_dvec3() * weight;
            b += vertex.b.as_dvec3() * weight;
        }
        (w, a, b)
    }

    /// `p − c` where `c` is the point of the simplex closest to `p`, after
    /// [`Simplex::reduce_towards`]`(p)`, formed in `f64` from the `f32`
    /// vertices (their differences are exact there).
    ///
    /// On a triangle's interior it is the offset along the face normal,
    /// `n·(n·(p − w₀))/|n|²`, formed directly: its direction is the cross
    /// product's, exact to rounding however close `p` is, where
    /// `p − Σ λ_i w_i` would leave it to the cancellation between `p` and
    /// the combination. On a segment it is `(p − w_i) − λ_j (w_j − w_i)`
    /// from the vertex `w_i` of larger weight. The small components of the
    /// offset decide the next support point: next to a long edge of `A − B`
    /// (a box's face 15 long, 1e-3 from `p`) they are far below the `f32`
    /// rounding of the long coordinates, and an offset rounded in `f32`
    /// loses them, turning the search direction and stalling GJK on a
    /// support point it already has.
    #[inline]
    pub fn offset_from(&self, p: Vec3) -> Vec3 {
        self.offset_from_f64(p.as_dvec3()).as_vec3()
    }

    /// [`Simplex::offset_from`] in `f64`.
    #[inline]
    fn offset_from_f64(&self, p: DVec3) -> DVec3 {
        if self.len == 2 {
            let (near, far, far_weight) = if self.weights[0] >= self.weights[1] {
                (self.v[0].w, self.v[1].w, self.weights[1])
            } else {
                (self.v[1].w, self.v[0].w, self.weights[0])
            };
            let (near, far) = (near.as_dvec3(), far.as_dvec3());
            return (p - near) - (far - near) * far_weight;
        }
        if self.len == 3 {
            let [w0, w1, w2] = [self.v[0].w, self.v[1].w, self.v[2].w].map(|w| w.as_dvec3());
            let n = (w1 - w0).cross(w2 - w0);
            let nn = n.length_squared();
            if nn > 0.0 {
                return n * (n.dot(p - w0) / nn);
            }
        }
        p - self.combination_f64().0
    }

    /// Keeps the vertices whose weight is positive.
    fn keep_positive(&mut self) {
        let mut kept = 0;
        for i in 0..self.len {
            if self.weights[i] > 0.0 {
                self.v[kept] = self.v[i];
                self.weights[kept] = self.weights[i];
                kept += 1;
            }
        }
        if kept == 0 {
            // Only through NaN: keep the newest vertex.
            self.v[0] = self.v[self.len - 1];
            self.weights[0] = 1.0;
            kept = 1;
        }
        self.len = kept;
    }

    /// Reduces the simplex to the smallest face holding the point of its
    /// hull closest to `p`, sets the weights of that point, and returns
    /// whether `p` is inside the tetrahedron (then all four stay).
    ///
    /// Ericson §5.1.2 (segment), §5.1.5 (triangle), §5.1.6 (tetrahedron:
    /// the faces whose plane separates `p` from the opposite vertex are the
    /// only candidates).
    pub fn reduce_towards(&mut self, p: Vec3) -> bool {
        match self.len {
            1 => {
                self.weights[0] = 1.0;
                false
            }
            2 => {
                // Both weights from the `f64` parameter: `1 − t` in `f32`
                // would lose the small weight's digits when `t` is near 1.
                let (a, b) = (self.v[0].w, self.v[1].w);
                let t = Segment::new(a, b).to_f64().closest_t(p.as_dvec3());
                self.weights[0] = 1.0 - t;
                self.weights[1] = t;
                self.keep_positive();
                false
            }
            3 => {
                let c = Triangle::new(self.v[0].w, self.v[1].w, self.v[2].w).closest_point_f64(p.as_dvec3());
                self.weights[..3].copy_from_slice(&c.weights);
                self.keep_positive();
                false
            }
            _ => self.reduce_tetrahedron(p),
        }
    }

    /// The tetrahedron case of [`Simplex::reduce_towards`]. The orientation
    /// tests (which faces separate `p` from the opposite corner, whether the
    /// tetrahedron has volume) are triple products in `f64`, where the
    /// products of the `f32` coordinates' differences are exact and the
    /// sums round at `2⁻⁵³`: a long, thin tetrahedron of `A − B` around a
    /// touching contact (a cylinder's side along a box's edge: edges of
    /// about 2, height 1e-5) has a volume far below the rounding of its
    /// `f32` triple product, whose sign would be noise.
    fn reduce_tetrahedron(&mut self, p: Vec3) -> bool {
        let w = [self.v[0].w, self.v[1].w, self.v[2].w, self.v[3].w];
        let wd = w.map(|x| x.as_dvec3());
        let pd = p.as_dvec3();
        // Faces as (corners, opposite corner).
        const FACES: [([usize; 3], usize); 4] = [([0, 1, 2], 3), ([0, 2, 3], 1), ([0, 3, 1], 2), ([1, 3, 2], 0)];
        let volume = (wd[1] - wd[0]).dot((wd[2] - wd[0]).cross(wd[3] - wd[0]));
        type Best = Option<(f64, [usize; 3], [f64; 3])>;
        let consider = |best: &mut Best, corners: [usize; 3]| {
            let [i, j, k] = corners;
            let c = Triangle::new(w[i], w[j], w[k]).closest_point_f64(pd);
            let d = (c.point - pd).length_squared();
            if best.is_none_or(|(bd, _, _)| d < bd) {
                *best = Some((d, corners, c.weights));
            }
        };
        let mut best: Best = None;
        for (corners, opposite) in FACES {
            let [i, j, k] = corners;
            let n = (wd[j] - wd[i]).cross(wd[k] - wd[i]);
            if n.dot(pd - wd[i]) * n.dot(wd[opposite] - wd[i]) < 0.0 {
                consider(&mut best, corners);
            }
        }
        // Inside by the signs, but a flat tetrahedron encloses nothing:
        // then the nearest face is the answer.
        let size = (wd[1] - wd[0]).length() * (wd[2] - wd[0]).length() * (wd[3] - wd[0]).length();
        if best.is_none() && !(volume.abs() > 8.0 * f64::EPSILON * size) {
            for (corners, _) in FACES {
                consider(&mut best, corners);
            }
        }
        match best {
            Some((_, corners, weights)) => {
                let old = self.v;
                for (slot, (&corner, &weight)) in corners.iter().zip(&weights).enumerate() {
                    self.v[slot] = old[corner];
                    self.weights[slot] = weight;
                }
                self.len = 3;
                self.keep_positive();
                false
            }
            None => {
                // Inside: barycentric coordinates by signed volumes,
                // λ_i = volume with p in place of w_i / volume.
                let inv = 1.0 / volume;
                let (e1, e2, e3, q) = (wd[1] - wd[0], wd[2] - wd[0], wd[3] - wd[0], pd - wd[0]);
                let l1 = q.dot(e2.cross(e3)) * inv;
                let l2 = e1.dot(q.cross(e3)) * inv;
                let l3 = e1.dot(e2.cross(q)) * inv;
                let l64 = [1.0 - l1 - l2 - l3, l1, l2, l3].map(|x| x.clamp(0.0, 1.0));
                let sum: f64 = l64.iter().sum();
                self.weights = if sum > 0.0 { l64.map(|x| x / sum) } else { [0.25; 4] };
                true
            }
        }
    }
}

/// What the GJK distance loop found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GjkOutput {
    /// The final simplex and weights.
    pub simplex: Simplex,
    /// `point_a − point_b`: the point of the cores' difference closest to
    /// the origin (zero when overlapping).
    pub v: Vec3,
    /// Closest point of `a`'s core, relative to `b.center()`.
    pub point_a: Vec3,
    /// Closest point of `b`'s core, relative to `b.center()`.
    pub point_b: Vec3,
    /// Whether the cores overlap or touch (within the touching tolerance).
    pub overlapping: bool,
    /// Whether the early exit proved the cores farther apart than the
    /// threshold given (`v` is then only an upper bound's direction).
    pub separated_early: bool,
}

/// The GJK distance loop on the cores of `pair` (van den Bergen, Algorithm
/// 4.5): `v` is the current closest point of the simplex; each round adds
/// the support point `w = s_{A−B}(−v)` and stops when `|v|² − v·w`, the gap
/// between the upper bound `|v|` and the lower bound `v·w/|v|` (times
/// `|v|`), is within tolerance, when `w` is already a vertex, when `|v|`
/// stops decreasing (rounding), or when the origin is enclosed.
///
/// With `early_exit = Some(m)` it also stops as soon as a support plane
/// proves the core distance larger than `m` (`v·w > 0`, `(v·w)² > m²|v|²`),
/// which is all an overlap test needs.
pub(crate) fn gjk<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    early_exit: Option<f32>,
) -> GjkOutput {
    let start_direction = if pair.offset == Vec3::ZERO {
        Vec3::X
    } else {
        -pair.offset
    };
    gjk_from(pair, early_exit, start_direction)
}

/// [`gjk`] starting from the support of `A − B` along `start_direction`.
pub(crate) fn gjk_from<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    early_exit: Option<f32>,
    start_direction: Vec3,
) -> GjkOutput {
    let scale = pair.scale();
    let touch = TOUCH_TOLERANCE * scale;
    let touch_f64 = f64::from(touch);
    let mut simplex = Simplex::single(pair.support(start_direction));
    // `v` in `f64`: the progress that turns it towards a wide face's normal
    // (a box's face 1 wide, 0.07 away, the closest point 2e-5 off the face's
    // diagonal: `|v|` shrinks by 4e-8 relative) is below `f32` rounding.
    let mut v = simplex.v[0].w.as_dvec3();
    let mut overlapping = false;
    let mut separated_early = false;
    for _ in 0..MAX_ITERATIONS {
        let vv = v.length_squared();
        if !(vv > touch_f64 * touch_f64) {
            overlapping = true;
            break;
        }
        let w = pair.support((-v).as_vec3());
        let vw = v.dot(w.w.as_dvec3());
        if let Some(m) = early_exit {
            let bound = f64::from(m) + touch_f64;
            if vw > 0.0 && vw * vw > vv * bound * bound {
                separated_early = true;
                break;
            }
        }
        if vv - vw <= f64::from(DISTANCE_TOLERANCE) * vv + touch_f64 * vv.sqrt() || simplex.contains(w.w) {
            break;
        }
        let saved = simplex;
        simplex.push(w);
        if simplex.reduce_towards(Vec3::ZERO) {
            overlapping = true;
            v = DVec3::ZERO;
            break;
        }
        let next = -simplex.offset_from_f64(DVec3::ZERO);
        if !(next.length_squared() < vv) {
            // No progress: rounding. The previous simplex is the answer.
            simplex = saved;
            break;
        }
        v = next;
    }
    // `v` is the closest point of the final simplex (every round that keeps
    // a simplex sets `v` from it).
    let v = v.as_vec3();
    if !overlapping {
        overlapping = !(v.length_squared() > touch * touch);
    }
    let (_, point_a, point_b) = simplex.combination();
    GjkOutput {
        simplex,
        v,
        point_a,
        point_b,
        overlapping,
        separated_early,
    }
}

/// Whether two convex solids intersect; touching (closer than
/// [`TOUCH_TOLERANCE`] of their size) counts.
///
/// GJK on the cores with an early exit as soon as a support plane
/// separates the cores by more than the sum of the margins.
///
/// ```
/// use collide::{Aabb, Sphere, query::intersects, shape::Cylinder, Segment, math::Vec3};
/// let cylinder = Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), 1.0);
/// assert!(intersects(&cylinder, &Sphere::new(Vec3::new(1.5, 0.5, 0.0), 0.5)));
/// assert!(!intersects(&cylinder, &Aabb::new(Vec3::new(0.8, 0.0, 0.8), Vec3::ONE)));
/// ```
pub fn intersects<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B) -> bool {
    match UnitFrame::for_pair(a, b, DVec3::ZERO) {
        Some(frame) => intersects_in_place(&frame.place(a), &frame.place(b)),
        None => intersects_in_place(a, b),
    }
}

/// [`intersects`] in the frame of the shapes as given.
fn intersects_in_place<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B) -> bool {
    let pair = MinkowskiDifference::new(a, b);
    let margin = pair.margin();
    let out = gjk(&pair, Some(margin));
    if out.separated_early {
        return false;
    }
    out.overlapping || out.v.length() <= margin + TOUCH_TOLERANCE * pair.scale()
}

/// The distance between two convex solids, with closest points.
///
/// GJK on the cores gives the closest core points `p_a`, `p_b` as the
/// barycentric combination of the final simplex's support points (Ericson
/// §9.5; van den Bergen §4.3); the margins are then taken off in closed form
/// along `n = (p_b − p_a)/|p_b − p_a|`: `distance = |p_b − p_a| − r_a − r_b`,
/// `point_a = p_a + r_a·n`, `point_b = p_b − r_b·n`.
///
/// Touching or overlapping shapes (distance within [`TOUCH_TOLERANCE`] of
/// their size, or less): `distance = 0`, `normal = None`, and
/// `point_a = point_b` = a point common to both.
///
/// ```
/// use collide::{Aabb, Sphere, query::distance, math::Vec3};
/// let d = distance(&Sphere::new(Vec3::new(3.0, 0.5, 0.5), 1.0), &Aabb::new(Vec3::ZERO, Vec3::ONE));
/// assert!((d.distance - 1.0).abs() < 1e-6);
/// assert!((d.point_b - Vec3::new(1.0, 0.5, 0.5)).length() < 1e-6);
/// assert_eq!(d.normal, Some(Vec3::NEG_X));
/// ```
pub fn distance<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B) -> Distance {
    let Some(frame) = UnitFrame::for_pair(a, b, DVec3::ZERO) else {
        return distance_in_place(a, b);
    };
    let d = distance_in_place(&frame.place(a), &frame.place(b));
    Distance {
        sub_shapes: [0; 2],
        distance: frame.length_from(d.distance),
        point_a: frame.point_from(d.point_a),
        point_b: frame.point_from(d.point_b),
        normal: d.normal,
    }
}

/// [`distance`] in the frame of the shapes as given.
fn distance_in_place<A: Support + ?Sized, B: Support + ?Sized>(a: &A, b: &B) -> Distance {
    let pair = MinkowskiDifference::new(a, b);
    let out = gjk(&pair, None);
    let origin = b.center();
    let (ra, rb) = (a.margin(), b.margin());
    let margin = ra + rb;
    let touch = TOUCH_TOLERANCE * pair.scale();
    let core_distance = if out.overlapping {
        0.0
    } else {
        length_without_overflow(out.v)
    };
    let settled = (core_distance > margin + touch).then(|| settle_separation(&pair, &out, touch));
    if let Some((n, distance, point_a, point_b)) = settled.filter(|s| s.1 > margin + touch) {
        // The margins grow the core witnesses along the direction they are
        // apart, which the normal, another separating direction, may not be.
        let along = unit_without_overflow(point_b - point_a).unwrap_or(n);
        return Distance {
            sub_shapes: [0; 2],
            distance: distance - margin,
            point_a: origin + point_a + along * ra,
            point_b: origin + point_b - along * rb,
            normal: Some(n),
        };
    }
    // Touching or overlapping: a common point on the segment between the
    // core points, `r_a/(r_a + r_b)` of the way (within both balls).
    let common = if core_distance > 0.0 && margin > 0.0 {
        out.point_a + (out.point_b - out.point_a) * (ra / margin)
    } else {
        midpoint(out.point_a, out.point_b)
    };
    Distance {
        sub_shapes: [0; 2],
        distance: 0.0,
        point_a: origin + common,
        point_b: origin + common,
        normal: None,
    }
}

/// The direction, distance and closest points of cores GJK found apart
/// (`out`), settled by [`ascend_separation`] where GJK stopped with its
/// bounds farther apart than its tolerance: `(normal from a to b, core
/// distance, point_a, point_b)`, the points relative to `b.center()`.
pub(crate) fn settle_separation<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    out: &GjkOutput,
    touch: f32,
) -> (Vec3, f32, Vec3, Vec3) {
    let core_distance = length_without_overflow(out.v);
    let n = -unit_by_length(out.v, core_distance);
    let lower = -n.dot(pair.support(n).w);
    let settled = |distance: f32, lower: f32| distance - lower <= DISTANCE_TOLERANCE * distance + touch;
    if settled(core_distance, lower) {
        return (n, core_distance, out.point_a, out.point_b);
    }
    // GJK started from the centres' direction can stop with its bounds
    // apart, its simplex mixing vertices of a small shape next to a large
    // one (each step's gain below the `f32` rounding of `|v|`). Started
    // again along its own answer, its first supports take the small
    // shape's vertex along that direction; its answer is kept when its
    // bounds meet.
    let again = gjk_from(pair, None, out.v);
    if !again.overlapping {
        let distance = length_without_overflow(again.v);
        let n = -unit_by_length(again.v, distance);
        let lower = -n.dot(pair.support(n).w);
        if settled(distance, lower) {
            return (n, distance, again.point_a, again.point_b);
        }
    }
    ascend_separation(pair, n, lower, touch, (out.point_a, out.point_b))
}

/// The largest step, in radians, of [`ascend_separation`].
const ASCENT_FIRST_STEP: f32 = 0.05;
/// The most support queries [`ascend_separation`] makes.
const ASCENT_MAX_QUERIES: usize = 512;

/// The distance of two separated cores as the largest separation of their
/// projections over unit directions, `d = max_{|n|=1} −n·s_{A−B}(n)` (each
/// value a lower bound of the distance, equal to it along the closest
/// points' direction), found from GJK's direction `start` (whose separation
/// is `lower`) by a pattern search on the sphere; then the witnesses, from
/// GJK on the cores brought to within a thousandth of that distance along
/// the found normal (or GJK's own, `gjk_points`, for cores closer than a few
/// touching tolerances). Returns `(normal, distance, point_a, point_b)` with
/// the points relative to `b.center()`.
///
/// GJK's upper bound converges linearly where `A − B` is curved and its
/// support points jump (a cylinder's side is ruled, its support an end of
/// the ruling): next to a disc 20 wide it stalls with the two bounds 1e-4
/// apart once each step's gain is below the `f32` rounding of the support
/// points. The separation along a direction needs only one support query,
/// and its maximum is reached to the precision of the support mapping.
fn ascend_separation<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    start: Vec3,
    lower: f32,
    touch: f32,
    gjk_points: (Vec3, Vec3),
) -> (Vec3, f32, Vec3, Vec3) {
    // The separation is maximised as its negative is minimised.
    let (normal, least, ()) = minimize_on_sphere(start, ASCENT_FIRST_STEP, ASCENT_MAX_QUERIES, |n| {
        (n.dot(pair.support(n).w), ())
    });
    let best = (-least).max(lower);
    // `a` moved towards `b` to within `gap` of it (a thousandth of the
    // distance, or a few touching tolerances): GJK's tolerance is then
    // relative to that gap, and its points, moved back, are the closest
    // points with their difference `best·n` to within the gap's share.
    let shift = best - (1.0e-3 * best).max(8.0 * touch);
    let near = MinkowskiDifference {
        a: pair.a,
        b: pair.b,
        offset: pair.offset + normal * shift,
    };
    let out = gjk(&near, None);
    let gap = length_without_overflow(out.v);
    if out.overlapping || !(gap > touch) {
        // Within the touching tolerance once moved: too close for GJK to
        // tell the points apart, and GJK's own points are as good.
        return (normal, best, gjk_points.0, gjk_points.1);
    }
    (normal, best, out.point_a - normal * shift, out.point_b)
}

/// What [`ray_cast`] found: the parameter of the hit, the outward normal of
/// the target there, and the witness points on each shape's core at the hit
/// (relative to `b.center()` at `λ = 0`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RayCastOutput {
    pub lambda: f32,
    pub normal: Vec3,
    /// The direction from `point_a` to `point_b`'s cores, along which the
    /// margins grow the witnesses onto the shapes' surfaces (the normal
    /// itself may be another separating direction).
    pub witness_normal: Vec3,
    pub point_a: Vec3,
    pub point_b: Vec3,
    /// Whether the source was already inside (`λ = 0`, normal unknown).
    pub started_inside: bool,
}

/// Fresh starts a stalled [`ray_cast`] may make before it stops.
const MAX_RESTARTS: usize = 2;

/// GJK ray cast (van den Bergen, "Ray Casting against General Convex
/// Objects with Application to Continuous Collision Detection", 2004):
/// the first `λ ∈ [0, max_lambda]` at which the point `x = λ·r` lies in
/// `C = (A_core − B_core) ⊕ ball(m)`, `m` the sum of the margins.
///
/// Each round finds the support point `p = s_C(v)` of the core for the
/// current closest direction `v` (from the core to `x`); when the plane
/// through `p` offset by `m` separates `x` (`v̂·(x − p) > m`), `x` jumps
/// forward to that plane (`λ ← λ − (v̂·(x − p) − m)/(v̂·r)`), or the ray
/// misses if it does not approach it (`v·r >= 0`). The simplex holds the
/// support points `p_i`; the closest point of `conv{x − p_i}` to the origin
/// gives the next `v`. It stops when `|v| <= m + ε`. `λ` only grows, so
/// stopping early (the iteration cap) still returns a conservative `λ`.
pub(crate) fn ray_cast<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    r: Vec3,
    max_lambda: f32,
) -> Option<RayCastOutput> {
    let m = pair.margin();
    let scale = pair.scale() + m;
    let epsilon = TOUCH_TOLERANCE * scale;
    let mut lambda = 0.0f32;
    let mut x = Vec3::ZERO;
    let mut normal = Vec3::ZERO;
    let mut hit_plane = false;
    // The simplex stores the support points `p_i` of C in `w`; `x − p_i`
    // is formed each round, since `x` moves.
    let first = pair.support(if pair.offset == Vec3::ZERO {
        Vec3::X
    } else {
        pair.offset
    });
    let mut points = Simplex::single(first);
    let mut v = x - first.w;
    let mut stalled = 0;
    let mut restarts = 0;
    for _ in 0..4 * MAX_ITERATIONS {
        let v_length = length_without_overflow(v);
        if !(v_length > m + epsilon) {
            break;
        }
        let v_hat = unit_by_length(v, v_length);
        let p = pair.support(v_hat);
        let separation = v_hat.dot(x - p.w);
        if separation > m {
            let approach = v_hat.dot(r);
            if !(approach < 0.0) {
                return None;
            }
            lambda -= (separation - m) / approach;
            if !(lambda <= max_lambda) {
                return None;
            }
            x = r * lambda;
            normal = v_hat;
            hit_plane = true;
        }
        let known = points.vertices().iter().any(|q| q.w == p.w);
        if !known {
            if points.len == 4 {
                // Cannot happen with a correct reduction; restart from p.
                points = Simplex::single(p);
            } else {
                points.push(p);
            }
        }
        // Closest point of conv{x − p_i} to the origin, i.e. of conv{p_i} to x.
        let before = points;
        if points.reduce_towards(x) {
            // x inside the core hull of the simplex: within the target.
            v = Vec3::ZERO;
            break;
        }
        let next = points.offset_from(x);
        // Stalled: no jump, and either the support point is already a vertex
        // or `|v|` has not shrunk for a few rounds (curved shapes converge
        // slowly but surely; rounding alone stalls for good).
        if separation <= m && !(next.length_squared() < v.length_squared() * (1.0 - 4.0 * f32::EPSILON)) {
            stalled += 1;
            if known || stalled >= 4 {
                // A simplex can stall short of the target where the support
                // mapping jumps (a cone's rim and apex give back a vertex it
                // already has, 1e-4 of the size away): start once or twice
                // more from the new support point alone before taking the
                // stall as rounding.
                if restarts < MAX_RESTARTS {
                    restarts += 1;
                    points = Simplex::single(p);
                    v = points.offset_from(x);
                    stalled = 0;
                    continue;
                }
                points = before;
                break;
            }
        } else {
            stalled = 0;
        }
        v = next;
    }
    let (_, point_a, point_b) = points.combination();
    // With a margin, `x` ends at distance ≈ m from the core along `v`: that
    // is the exact normal of the rounded surface; without one `v` vanishes
    // and the last separating plane's normal stands.
    if m > 0.0 && hit_plane {
        let v_length = length_without_overflow(v);
        if v_length > 0.0 {
            normal = unit_by_length(v, v_length);
        }
    }
    let found = RayCastOutput {
        lambda,
        normal: if hit_plane { normal } else { Vec3::ZERO },
        witness_normal: if hit_plane { normal } else { Vec3::ZERO },
        point_a,
        point_b,
        started_inside: !hit_plane,
    };
    if hit_plane {
        return settle_hit(pair, r, max_lambda, found, epsilon);
    }
    Some(found)
}

/// Most distance queries [`settle_hit`] makes.
const MAX_SETTLE_STEPS: usize = 48;

/// The ray cast's hit (a time `λ` before contact up to rounding, with the
/// normal `n` of its last separating plane) settled on the shapes
/// themselves: the time exact to `ε` of gap, the normal a separating
/// direction at that time, the witness points on both shapes.
///
/// The gap along a unit `n` at `λ` is `g(n) = n·(λr − s_C(n)) − m`, the
/// distance between the shapes' projections on `n`: a lower bound of their
/// distance, equal to it for the direction of their closest points. Each
/// round takes the GJK distance between the cores of `A − λr`, pushed back
/// along `−n` by `push = 4ε`, and `B` (pushed, they are farther apart than
/// GJK's touching tolerance, so its closest points and direction are those
/// of a well-posed distance problem, where a touching pair's final simplex
/// may be degenerate and its weights anything), and keeps whichever of the
/// current normal and the closest points' direction `n'` has the larger
/// gap (the current one unless `n'`'s is larger by more than `ε`):
///
/// - the gap `g = max(g(n), |v| − m − push)` (GJK's distance `|v|` is
///   exact to its tolerance where the projections of wide shapes on a
///   direction tilted by rounding fall short) above `ε`:
///   `λ ← λ + g/(−n'·r)`, where the ray meets the plane through the
///   closest points (conservative advancement: nothing of the shapes
///   crosses that plane first); a miss when `λ > max_lambda`; the answer
///   so far when the motion does not close the gap along `n'` (sliding, or
///   a direction tilted by rounding);
/// - `|g| <= ε`: the contact, with the witnesses of the pushed shapes (the
///   one on `A` moved back by `push·n'`);
/// - the pushed cores still overlap (rounding overshot): bisection between
///   the last time found apart and `λ`.
///
/// Returns the points in the ray cast's convention (relative to
/// `b.center()`, `A` at `λ = 0`). Started inside when the shapes overlap
/// within `ε/|r|` of `λ = 0`.
fn settle_hit<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    r: Vec3,
    max_lambda: f32,
    found: RayCastOutput,
    epsilon: f32,
) -> Option<RayCastOutput> {
    let m = pair.margin();
    let r_length = length_without_overflow(r);
    // Not below the rounding of the point `λr` itself (two points, whose
    // size and touching tolerance vanish, cast from far away).
    let epsilon = epsilon.max(8.0 * f32::EPSILON * r_length * found.lambda);
    let push = 4.0 * epsilon;
    let gap_along = |n: Vec3, x: Vec3| n.dot(x - pair.support(n).w) - m;
    let mut lambda = found.lambda;
    let mut normal = found.normal;
    // The last time at which the shapes were found apart.
    let mut lo = 0.0f32;
    let mut best = found;
    for _ in 0..MAX_SETTLE_STEPS {
        let x = r * lambda;
        let pushed = MinkowskiDifference {
            a: pair.a,
            b: pair.b,
            offset: pair.offset - x - normal * push,
        };
        let out = gjk(&pushed, None);
        let distance = length_without_overflow(out.v);
        // By the length of `v`, not GJK's flag: its squared lengths
        // underflow for gaps below 1e-19 (far below a tiny `ε`).
        if !(distance > epsilon) {
            // Overlapping at `λ` by more than `push`: back to between the
            // last time apart and `λ`.
            if !((lambda - lo) * r_length > epsilon) {
                if lo == 0.0 {
                    return Some(RayCastOutput {
                        lambda: 0.0,
                        normal: Vec3::ZERO,
                        witness_normal: Vec3::ZERO,
                        point_a: Vec3::ZERO,
                        point_b: Vec3::ZERO,
                        started_inside: true,
                    });
                }
                break;
            }
            lambda = lo + 0.5 * (lambda - lo);
            continue;
        }
        let closest = -unit_by_length(out.v, distance);
        let (g_closest, g_normal) = (gap_along(closest, x), gap_along(normal, x));
        // The closest points' direction replaces the current normal only
        // when it proves a larger gap by more than `ε`: within `ε` both are
        // separating directions, and the current one (the ray cast's
        // support plane at first) is the better surface normal.
        let (n, gap) = if g_closest > g_normal + epsilon {
            (closest, g_closest)
        } else {
            (normal, g_normal)
        };
        normal = n;
        best = RayCastOutput {
            lambda,
            normal: n,
            witness_normal: closest,
            point_a: out.point_a + x + closest * push,
            point_b: out.point_b,
            started_inside: false,
        };
        // The distance of the closest points: where the support points lie
        // far out across the closest direction (a wide box), rounding tilts
        // that direction and the projected gaps fall short of it.
        let gap = gap.max(distance - m - push);
        if !(gap > epsilon) {
            break;
        }
        let closing = -closest.dot(r);
        if !(closing > 0.0) {
            // Sliding along the closest direction, or rounding's tilt of
            // it: the ray cast's own plane stands.
            break;
        }
        lo = lambda;
        lambda += gap / closing;
        if !(lambda <= max_lambda) {
            return None;
        }
    }
    Some(best)
}

impl Segment {
    /// First contact with any convex solid, by GJK ray casting (van den
    /// Bergen 2004; see the module docs): exact up to a relative tolerance
    /// of about `1e-5` of the shape's size, for every [`Support`] shape —
    /// the cast used for hulls, cylinders and cones.
    ///
    /// The normal is the outward normal of the shape at the hit; a segment
    /// that starts inside hits at `t = 0` with the normal `−d/|d|`, a point
    /// inside with the normal of the way out (the contact normal of the
    /// shape and the point), as [`Segment::cast_aabb`] does.
    ///
    /// ```
    /// use collide::{Segment, shape::Cylinder, math::Vec3};
    /// let cylinder = Cylinder::new(Segment::new(Vec3::ZERO, Vec3::Y), 1.0);
    /// let hit = Segment::new(Vec3::new(-3.0, 0.5, 0.0), Vec3::new(3.0, 0.5, 0.0)).cast_convex(&cylinder).unwrap();
    /// assert!((hit.t - 1.0 / 3.0).abs() < 1e-5);
    /// assert!((hit.normal - Vec3::NEG_X).length() < 1e-4);
    /// ```
    pub fn cast_convex<S: Support + ?Sized>(&self, shape: &S) -> Option<CastHit> {
        if !self.is_finite() {
            return None;
        }
        let d = self.direction();
        // The point `start + λ·d` is in the shape when `λ·d` is in
        // `shape − start`: a ray from the origin along `d`.
        let hit = match UnitFrame::for_pair(shape, &self.start, d.as_dvec3()) {
            Some(frame) => {
                let (shape, start) = (frame.place(shape), frame.place(&self.start));
                ray_cast(&MinkowskiDifference::new(&shape, &start), frame.vector_to(d), 1.0)?
            }
            None => ray_cast(&MinkowskiDifference::new(shape, &self.start), d, 1.0)?,
        };
        if hit.started_inside {
            return Some(CastHit::started_inside(d.as_dvec3(), || {
                crate::query::contact::contact(shape, &self.start).map_or(Vec3::X, |c| c.normal)
            }));
        }
        Some(CastHit {
            sub_shape: 0,
            t: hit.lambda.clamp(0.0, 1.0),
            normal: hit.normal,
        })
    }
}
