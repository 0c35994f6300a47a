//! Certificates for every point, distance and depth collide reports: each is
//! checked against an `f64` oracle written independently of the library
//! (`tests/common/oracle.rs`) on random cases drawn from the distributions
//! that break `f32` geometry: centres up to 1e5 from the origin, sizes
//! 1e-3..1e1, aspect ratios 1e-3..1e3, pair size ratios up to 1e4, random
//! rotations, near-parallel faces and axes along box and triangle edges,
//! grazing casts, touching and barely overlapping pairs.
//!
//! What is certified, per query kind:
//!
//! - segment casts: the hit point `start + t·d` lies on the shape hit
//!   (`|sd| <= tol`), or, at `t = 0`, the start lies in it; no sampled
//!   point of the segment before the hit lies inside a solid; a miss has no
//!   sampled point inside.
//! - contact: `point_a` on `a` and inside `b`, `point_b` on `b` and inside
//!   `a`, the normal unit, `depth` equal to the overlap of the two shapes'
//!   projection intervals along the normal and no larger than the overlap
//!   along any sampled direction; a `None` has no sampled point of either
//!   shape inside the other.
//! - distance and closest points: witnesses on their shapes, `distance ≈
//!   |p_a − p_b|` and equal to the gap of the projection intervals along the
//!   normal (a lower bound of the true distance), and no more than the
//!   distance from any sampled point of one shape to the other; a zero
//!   distance has its common point in both shapes.
//! - shape casts: the point lies on the target and on the moved shape at
//!   `t`, the shapes' intervals along the normal just touch at `t`, and
//!   the motion approaches along the normal (so they were apart before).
//!
//! The number of cases per query kind is `COLLIDE_CERT_CASES` (2,000 by
//! default). A failure prints the exact input of the first cases that fail
//! (`f32` `Debug` output is the shortest string that reads back to the same
//! bits) and the count per class.

// `!(x <= tol)` is deliberate throughout: it is true when `x` is NaN, so a
// NaN answer fails its certificate instead of passing it.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use collide::math::{DVec3, Quat, Vec3};
use collide::query::shape_cast;
use collide::{
    Aabb, Capsule, ColliderDesc, Cone, ConvexHull, Cylinder, HeightField, Obb, QueryFilter, Segment, Shape, Sphere,
    Triangle, TriangleMesh, World,
};
use common::oracle::{d3, rotation_axes, Oracle};
use common::random::{seeded, Draw, TestRng};

// ---------------------------------------------------------------------------
// The tolerance.

/// `f32`'s machine epsilon, `2^-23`.
const EPS: f64 = f32::EPSILON as f64;

/// Multiple of `ε·|offset|` in [`tol`]. A correct `f32` implementation
/// working relative to the shapes' centres still returns its points as
/// `f32` world coordinates: rounding the result costs `ε/2` of each
/// coordinate, and adding a centre-relative point back to a centre one more
/// rounding of the same size; two coordinates' errors combine to at most
/// `2ε·|offset|` in length. Twice that leaves room for one more rounded
/// operation at the scale of the offset.
const K_OFFSET: f64 = 4.0;

/// Multiple of `ε·size` in [`tol`]. The rounded operations on centre-
/// relative quantities (rotating a box's axes, a square root, a
/// normalisation, a solver's few products) each cost a few `ε` of the
/// size; collide's iterative solvers stop at a relative gap of `1e-6`
/// (GJK, `≈ 8.4ε`) and shape casts at about `1e-5` of the shapes' size
/// (their documented tolerance, `≈ 84ε`). 128 covers that largest
/// documented tolerance with half again to spare: an error beyond it is
/// `1.5e-5` of the size, a real defect.
const K_SIZE: f64 = 128.0;

/// The tolerance of every certificate here:
/// `tol = K_OFFSET·ε·offset + K_SIZE·ε·size`, where `offset` is the largest
/// distance from the origin of the shapes' centres (and of the reported
/// points), and `size` the sum of the shapes' sizes (largest distance from
/// centre to surface) plus the length of any motion or cast segment, or
/// the distance found.
fn tol(offset: f64, size: f64) -> f64 {
    K_OFFSET * EPS * offset + K_SIZE * EPS * size
}

/// How far a reported unit normal's length may be from 1: a few roundings
/// of a normalisation.
const UNIT_TOLERANCE: f64 = 16.0 * EPS;

/// Cases per query kind.
fn case_count() -> usize {
    std::env::var("COLLIDE_CERT_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000)
}

// ---------------------------------------------------------------------------
// Failure reports.

/// The failures of one query kind: counts per class and the first input
/// that failed in each class.
struct Report {
    kind: &'static str,
    cases: usize,
    failures: BTreeMap<String, usize>,
    examples: BTreeMap<String, String>,
}

/// How many failing inputs a report prints (the first of each class, for
/// this many classes).
const EXAMPLES: usize = 64;

impl Report {
    fn new(kind: &'static str) -> Self {
        Report {
            kind,
            cases: 0,
            failures: BTreeMap::new(),
            examples: BTreeMap::new(),
        }
    }

    /// Records one case: `errors` empty when every certificate held.
    fn case(&mut self, class: &str, input: impl FnOnce() -> String, errors: Vec<String>) {
        self.cases += 1;
        if errors.is_empty() {
            return;
        }
        *self.failures.entry(class.to_string()).or_default() += 1;
        if self.examples.len() < EXAMPLES && !self.examples.contains_key(class) {
            let example = format!("[{class}] {}\n    input: {}", errors.join("; "), input());
            self.examples.insert(class.to_string(), example);
        }
    }

    /// Prints the failures and fails the test on any.
    fn finish(self) {
        let total: usize = self.failures.values().sum();
        let mut out = format!("{}: {} cases, {} certified wrong\n", self.kind, self.cases, total);
        for (class, n) in &self.failures {
            let _ = writeln!(out, "  {class}: {n}");
        }
        for e in self.examples.values() {
            let _ = writeln!(out, "  {e}");
        }
        eprintln!("{out}");
        assert!(self.cases > 0, "{}: no cases ran", self.kind);
        assert!(total == 0, "certified-wrong answers: {out}");
    }
}

/// The exact description of a shape: `Debug` for plain shapes, the
/// constructor's input for a hull (its vertices, which rebuild it) and a
/// mesh.
fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Hull(h) => format!("Hull(ConvexHull::from_points(&{:?}))", h.vertices()),
        Shape::Mesh(m) => format!("Mesh(TriangleMesh::new({:?}, {:?}))", m.vertices(), m.indices()),
        s => format!("{s:?}"),
    }
}

/// A short name of a shape's kind, for classes.
fn kind_name(shape: &Shape) -> &'static str {
    match shape {
        Shape::Aabb(_) => "aabb",
        Shape::Sphere(_) => "sphere",
        Shape::Capsule(_) => "capsule",
        Shape::Obb(_) => "obb",
        Shape::Triangle(_) => "triangle",
        Shape::Cylinder(_) => "cylinder",
        Shape::Cone(_) => "cone",
        Shape::Hull(_) => "hull",
        Shape::Mesh(_) => "mesh",
        Shape::HeightField(_) => "heightfield",
        _ => "other",
    }
}

// ---------------------------------------------------------------------------
// Random cases.

/// The shape kinds generated.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Sphere,
    Capsule,
    Aabb,
    Obb,
    Triangle,
    Cylinder,
    Cone,
    Hull,
    Mesh,
    HeightField,
}

const CONVEX: [Kind; 8] = [
    Kind::Sphere,
    Kind::Capsule,
    Kind::Aabb,
    Kind::Obb,
    Kind::Triangle,
    Kind::Cylinder,
    Kind::Cone,
    Kind::Hull,
];

const ALL: [Kind; 9] = [
    Kind::Sphere,
    Kind::Capsule,
    Kind::Aabb,
    Kind::Obb,
    Kind::Triangle,
    Kind::Cylinder,
    Kind::Cone,
    Kind::Hull,
    Kind::Mesh,
];

/// The height field, certified on random streams of its own.
const TERRAIN: [Kind; 1] = [Kind::HeightField];

/// The `f64` draws the generators use.
trait Draw64: Draw {
    /// Uniform in `[0, 1)`.
    fn unit_interval(&mut self) -> f64 {
        f64::from(self.range(0.0, 1.0))
    }

    /// Log-uniform in `[lo, hi]`.
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit_interval()).exp()
    }

    /// A uniformly distributed unit vector (rejection from the cube).
    fn direction(&mut self) -> DVec3 {
        loop {
            let v = d3(self.vec(-1.0, 1.0));
            let l = v.length();
            if (0.1..=1.0).contains(&l) {
                return v / l;
            }
        }
    }

    /// A centre: a quarter near the origin (in the unit cube), the rest at
    /// a log-uniform distance in `[1e-2, 1e5]` in a random direction.
    fn centre(&mut self) -> DVec3 {
        if self.one_in(4) {
            d3(self.vec(-1.0, 1.0))
        } else {
            self.direction() * self.log_uniform(1e-2, 1e5)
        }
    }

    /// A size: log-uniform in `[1e-3, 1e1]`.
    fn size(&mut self) -> f64 {
        self.log_uniform(1e-3, 1e1)
    }

    /// An aspect ratio: log-uniform in `[1e-3, 1e3]`, a quarter of them 1.
    fn aspect(&mut self) -> f64 {
        if self.one_in(4) {
            1.0
        } else {
            self.log_uniform(1e-3, 1e3)
        }
    }
}

impl<R: Draw + ?Sized> Draw64 for R {}

/// A shape before rounding to `f32`: a kind, a centre, an orientation, and
/// the dimensions along its local axes (the largest is the size).
#[derive(Debug, Clone)]
struct Spec {
    kind: Kind,
    centre: DVec3,
    rotation: Quat,
    dims: DVec3,
    /// Local points (in units of `dims`) of a hull or triangle; heights of
    /// a mesh's or height field's 3×3 grid.
    points: Vec<DVec3>,
}

/// The nine grid heights' count of a mesh (a 3×3 grid, 8 triangles).
const GRID: usize = 3;

impl Spec {
    fn random(rng: &mut TestRng, kind: Kind) -> Spec {
        let size = rng.size();
        let (a1, a2) = (rng.aspect(), rng.aspect());
        let largest = 1.0f64.max(a1).max(a2);
        let dims = DVec3::new(1.0, a1, a2) * (size / largest);
        let rotation = if matches!(kind, Kind::Aabb | Kind::HeightField) {
            Quat::IDENTITY
        } else {
            rng.rotation()
        };
        let points = match kind {
            Kind::Triangle => vec![
                DVec3::new(-1.0, 0.0, 0.0),
                DVec3::new(1.0, 0.0, 0.0),
                DVec3::new(rng.range(-1.5, 1.5).into(), 1.0, 0.0),
            ],
            Kind::Hull => {
                if rng.one_in(2) {
                    (0..8)
                        .map(|i| {
                            DVec3::new(
                                if i & 1 == 0 { -1.0 } else { 1.0 },
                                if i & 2 == 0 { -1.0 } else { 1.0 },
                                if i & 4 == 0 { -1.0 } else { 1.0 },
                            )
                        })
                        .collect()
                } else {
                    let n = 6 + rng.below(7) as usize;
                    (0..n).map(|_| rng.direction()).collect()
                }
            }
            Kind::Mesh | Kind::HeightField => (0..GRID * GRID)
                .map(|_| DVec3::new(0.0, 0.0, rng.range(-1.0, 1.0).into()))
                .collect(),
            _ => Vec::new(),
        };
        Spec {
            kind,
            centre: rng.centre(),
            rotation,
            dims,
            points,
        }
    }

    /// The world point of the local point `p` (in units of `dims`).
    fn world(&self, p: DVec3) -> Vec3 {
        let axes = rotation_axes(self.rotation);
        let q = p * self.dims;
        (self.centre + axes[0] * q.x + axes[1] * q.y + axes[2] * q.z).as_vec3()
    }

    /// The shape in `f32`. Round shapes have their axis along local x, of
    /// half length `dims.x`, and radius `dims.y`.
    fn build(&self) -> Shape {
        let c = self.centre.as_vec3();
        let (hx, r) = (self.dims.x as f32, self.dims.y as f32);
        let axis = |s: f64| self.world(DVec3::new(s, 0.0, 0.0));
        match self.kind {
            Kind::Sphere => Shape::Sphere(Sphere::new(c, hx)),
            Kind::Capsule => Shape::Capsule(Capsule::new(Segment::new(axis(-1.0), axis(1.0)), r)),
            Kind::Aabb => {
                let (lo, hi) = (self.centre - self.dims, self.centre + self.dims);
                Shape::Aabb(Aabb::new(lo.as_vec3(), hi.as_vec3()))
            }
            Kind::Obb => Shape::Obb(Obb::new(c, self.rotation, self.dims.as_vec3())),
            Kind::Triangle => {
                let v: Vec<Vec3> = self.points.iter().map(|p| self.world(*p)).collect();
                Shape::Triangle(Triangle::new(v[0], v[1], v[2]))
            }
            Kind::Cylinder => Shape::Cylinder(Cylinder::new(Segment::new(axis(-1.0), axis(1.0)), r)),
            Kind::Cone => Shape::Cone(Cone::new(axis(-1.0), axis(1.0), r)),
            Kind::Hull => {
                let v: Vec<Vec3> = self.points.iter().map(|p| self.world(*p)).collect();
                match ConvexHull::from_points(&v) {
                    Ok(h) => Shape::Hull(Arc::new(h)),
                    // A hull too flat for the constructor: its box instead.
                    Err(_) => Shape::Obb(Obb::new(c, self.rotation, self.dims.as_vec3())),
                }
            }
            Kind::Mesh => {
                let mut vertices = Vec::new();
                for j in 0..GRID {
                    for i in 0..GRID {
                        let x = i as f64 - 1.0;
                        let y = j as f64 - 1.0;
                        vertices.push(self.world(DVec3::new(x, y, self.points[j * GRID + i].z)));
                    }
                }
                let mut indices = Vec::new();
                for j in 0..GRID as u32 - 1 {
                    for i in 0..GRID as u32 - 1 {
                        let k = j * GRID as u32 + i;
                        let g = GRID as u32;
                        indices.push([k, k + 1, k + g + 1]);
                        indices.push([k, k + g + 1, k + g]);
                    }
                }
                Shape::Mesh(Arc::new(
                    TriangleMesh::new(vertices, indices).expect("a grid mesh is valid"),
                ))
            }
            Kind::HeightField => {
                // The grid in the xz plane, heights along y (never rotated).
                let heights = self.points.iter().map(|p| p.z as f32).collect();
                let field = HeightField::new(GRID, GRID, heights, self.dims.as_vec3()).expect("a valid field");
                let origin = self.centre - DVec3::new(self.dims.x, 0.0, self.dims.z);
                Shape::HeightField(field).translated(origin.as_vec3())
            }
        }
    }
}

/// Whether a shape is a triangle surface (a mesh or a height field).
fn is_surface(shape: &Shape) -> bool {
    matches!(shape, Shape::Mesh(_) | Shape::HeightField(_))
}

/// A random kind of `kinds`.
fn pick(rng: &mut TestRng, kinds: &[Kind]) -> Kind {
    kinds[rng.below(kinds.len() as u64) as usize]
}

/// A rotation by a small angle (0, or log-uniform in `[1e-7, 1e-3]`
/// radians) about a random axis.
fn small_rotation(rng: &mut TestRng) -> Quat {
    if rng.one_in(3) {
        return Quat::IDENTITY;
    }
    let angle = rng.log_uniform(1e-7, 1e-3) as f32;
    Quat::from_axis_angle(rng.direction().as_vec3(), angle)
}

/// A pair of specs: independent, or `b` aligned with `a` (its axes turned
/// from `a`'s by a quarter turn about a random axis and a small rotation:
/// parallel and near-parallel faces, and round shapes' axes along a box's
/// or triangle's edges). `b`'s centre is `a`'s for now.
fn pair_specs(rng: &mut TestRng, ka: Kind, kb: Kind) -> (Spec, Spec) {
    let a = Spec::random(rng, ka);
    let mut b = Spec::random(rng, kb);
    b.centre = a.centre;
    if rng.one_in(2) && !matches!(kb, Kind::Aabb | Kind::HeightField) {
        let quarter = match rng.below(4) {
            0 => Quat::IDENTITY,
            1 => Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            2 => Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            _ => Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        };
        b.rotation = (a.rotation * quarter * small_rotation(rng)).normalize();
    }
    if rng.one_in(4) {
        // The size ratio at its extreme: one shape 1e4 times the other.
        let (big, small) = if rng.one_in(2) { (1e1, 1e-3) } else { (1e-3, 1e1) };
        let scale_a = big / a.dims.max_element();
        let scale_b = small / b.dims.max_element();
        let mut a = a;
        a.dims *= scale_a;
        b.dims *= scale_b;
        return (a, b);
    }
    (a, b)
}

/// The direction along which a pair is placed: random, or (for aligned
/// pairs) one of `a`'s axes or the diagonal of two of them (across an
/// edge).
fn placement_direction(rng: &mut TestRng, a: &Spec) -> DVec3 {
    let axes = rotation_axes(a.rotation);
    let s = |rng: &mut TestRng| if rng.one_in(2) { 1.0 } else { -1.0 };
    match rng.below(3) {
        0 => rng.direction(),
        1 => axes[rng.below(3) as usize] * s(rng),
        _ => {
            let i = rng.below(3) as usize;
            (axes[i] * s(rng) + axes[(i + 1) % 3] * s(rng)).normalize()
        }
    }
}

/// Moves `b` along the unit `u` so that the gap between the two shapes'
/// projection intervals on `u` is `gap` (negative: an overlap), and
/// returns both shapes built.
fn place(a: &Spec, b: &mut Spec, u: DVec3, gap: f64) -> (Shape, Shape) {
    let sa = a.build();
    let oa = Oracle::of(&sa);
    let ob = Oracle::of(&b.build());
    let now = ob.interval(u).0 - oa.interval(u).1;
    b.centre += u * (gap - now);
    (sa, b.build())
}

/// A gap for a placed pair: touching, barely overlapping or apart (by
/// `1e-5` of the smaller size), overlapping by up to the smaller size, or
/// apart by up to ten times the larger.
fn random_gap(rng: &mut TestRng, a: &Spec, b: &Spec, overlapping: bool) -> f64 {
    let small = a.dims.max_element().min(b.dims.max_element());
    let large = a.dims.max_element().max(b.dims.max_element());
    let sign = if overlapping { -1.0 } else { 1.0 };
    match rng.below(4) {
        0 => 0.0,
        1 => sign * 1e-5 * small,
        2 => sign * small * rng.log_uniform(1e-4, 1.0),
        _ => sign * large * rng.log_uniform(1e-4, 10.0),
    }
}

// ---------------------------------------------------------------------------
// The certificates.

/// Directions sampled for overlap and distance bounds: the three axes,
/// `extra` (centre to centre, normals), and random ones.
fn sample_directions(rng: &mut TestRng, extra: &[DVec3], random: usize) -> Vec<DVec3> {
    let mut dirs = vec![DVec3::X, DVec3::Y, DVec3::Z, -DVec3::X, -DVec3::Y, -DVec3::Z];
    for e in extra {
        if e.length_squared() > 0.0 {
            let e = e.normalize();
            dirs.push(e);
            for _ in 0..8 {
                dirs.push((e + rng.direction() * 0.05).normalize());
            }
        }
    }
    dirs.extend((0..random).map(|_| rng.direction()));
    dirs
}

/// Barycentric weights for face samples.
fn sample_weights(rng: &mut TestRng, n: usize) -> Vec<[f64; 3]> {
    (0..n)
        .map(|_| {
            let (u, v) = (rng.unit_interval(), rng.unit_interval());
            let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
            [1.0 - u - v, u, v]
        })
        .collect()
}

/// Checks that `p` lies on `shape`'s surface: `|sd(p)| <= tol`.
fn on_surface(errors: &mut Vec<String>, what: &str, shape: &Oracle, p: Vec3, tol: f64) {
    let sd = shape.signed_distance(d3(p));
    if !(sd.abs() <= tol) {
        errors.push(format!("{what} {p:?} is {sd:e} from its shape's surface (tol {tol:e})"));
    }
}

/// Checks that `p` lies in `shape` (a solid) or on it (a surface):
/// `sd(p) <= tol`.
fn in_shape(errors: &mut Vec<String>, what: &str, shape: &Oracle, p: Vec3, tol: f64) {
    let sd = shape.signed_distance(d3(p));
    if !(sd <= tol) {
        errors.push(format!("{what} {p:?} is {sd:e} outside the shape (tol {tol:e})"));
    }
}

/// Checks that `n` is a unit vector.
fn unit(errors: &mut Vec<String>, what: &str, n: Vec3) {
    let l = d3(n).length();
    if !((l - 1.0).abs() <= UNIT_TOLERANCE) {
        errors.push(format!("{what} {n:?} has length {l}"));
    }
}

/// The largest depth of a point of `a`'s samples (and of its centre, when
/// the centre is a point of `a`: not for a mesh, whose centre is the mean
/// of its vertices) inside the solid `b` (`−min sd_b`), or 0 when `b` is a
/// surface.
fn deepest_inside(a: &Oracle, samples_a: &[DVec3], b: &Oracle) -> f64 {
    if !b.is_solid() {
        return 0.0;
    }
    let mut points = samples_a.to_vec();
    if !matches!(a, Oracle::Mesh { .. }) {
        points.push(a.centre());
    }
    points.iter().map(|p| -b.signed_distance(*p)).fold(0.0, f64::max)
}

/// The largest coordinate-free offset of the shapes and points: `max |x|`.
fn offset_of(shapes: &[&Oracle], points: &[Vec3]) -> f64 {
    let s = shapes.iter().map(|o| o.centre().length()).fold(0.0, f64::max);
    points.iter().map(|p| d3(*p).length()).fold(s, f64::max)
}

/// Certificates of a contact answer between `a` and `b`.
fn check_contact(rng: &mut TestRng, a: &Shape, b: &Shape, c: Option<collide::Contact>) -> Vec<String> {
    let (oa, ob) = (Oracle::of(a), Oracle::of(b));
    let mut errors = Vec::new();
    let points: Vec<Vec3> = c.map(|c| vec![c.point_a, c.point_b]).unwrap_or_default();
    let t = tol(offset_of(&[&oa, &ob], &points), oa.size() + ob.size());
    let centre_line = ob.centre() - oa.centre();
    match c {
        Some(c) => {
            unit(&mut errors, "normal", c.normal);
            if !(f64::from(c.depth) >= -t) {
                errors.push(format!("depth {} is negative", c.depth));
            }
            on_surface(&mut errors, "point_a", &oa, c.point_a, t);
            on_surface(&mut errors, "point_b", &ob, c.point_b, t);
            let n = d3(c.normal).normalize_or_zero();
            let depth = f64::from(c.depth);
            let apart = d3(c.point_a) - d3(c.point_b) - n * depth;
            if !(apart.length() <= t) {
                errors.push(format!("point_a − point_b is {apart:?} off depth·normal (tol {t:e})"));
            }
            let convex = !is_surface(a) && !is_surface(b);
            if convex && n != DVec3::ZERO {
                // The deepest points are the shapes' extreme points along the normal.
                let (hi_a, lo_b) = (oa.interval(n).1, ob.interval(n).0);
                let (along_a, along_b) = (d3(c.point_a).dot(n), d3(c.point_b).dot(n));
                if !((along_a - hi_a).abs() <= t) {
                    errors.push(format!(
                        "point_a is {:e} from a's extreme along the normal (tol {t:e})",
                        along_a - hi_a
                    ));
                }
                if !((along_b - lo_b).abs() <= t) {
                    errors.push(format!(
                        "point_b is {:e} from b's extreme against the normal (tol {t:e})",
                        along_b - lo_b
                    ));
                }
                let overlap = |d: DVec3| oa.interval(d).1 - ob.interval(d).0;
                let along = overlap(n);
                if !((depth - along).abs() <= t) {
                    errors.push(format!(
                        "depth {depth:e} but the overlap along the normal is {along:e} (tol {t:e})"
                    ));
                }
                let dirs = sample_directions(rng, &[centre_line, n], 16);
                let least = dirs
                    .iter()
                    .map(|d| (overlap(*d), *d))
                    .fold((f64::INFINITY, DVec3::ZERO), |m, x| if x.0 < m.0 { x } else { m });
                if !(depth <= least.0 + t) {
                    errors.push(format!(
                        "depth {depth:e} exceeds the overlap {:e} along {:?} (tol {t:e})",
                        least.0, least.1
                    ));
                }
            }
        }
        None => {
            let dirs = sample_directions(rng, &[centre_line, -centre_line], 32);
            let w = sample_weights(rng, 16);
            let (sa, sb) = (oa.samples(&dirs, &w), ob.samples(&dirs, &w));
            let deep = deepest_inside(&oa, &sa, &ob).max(deepest_inside(&ob, &sb, &oa));
            if deep > t {
                errors.push(format!(
                    "no contact, but a point of one shape lies {deep:e} inside the other (tol {t:e})"
                ));
            }
        }
    }
    errors
}

/// Certificates of a distance answer between `a` and `b`.
fn check_distance(rng: &mut TestRng, a: &Shape, b: &Shape, d: &collide::Distance) -> Vec<String> {
    let (oa, ob) = (Oracle::of(a), Oracle::of(b));
    let mut errors = Vec::new();
    let distance = f64::from(d.distance);
    // The distance is a size of the problem, as a cast's motion is: GJK's
    // bounds meet to `1e-6` of it.
    let size = oa.size() + ob.size() + distance.max(0.0);
    let t = tol(offset_of(&[&oa, &ob], &[d.point_a, d.point_b]), size);
    if !(distance >= 0.0) {
        errors.push(format!("distance {distance} is negative"));
    }
    if d.distance > 0.0 {
        on_surface(&mut errors, "point_a", &oa, d.point_a, t);
        on_surface(&mut errors, "point_b", &ob, d.point_b, t);
        let between = (d3(d.point_b) - d3(d.point_a)).length();
        if !((distance - between).abs() <= t) {
            errors.push(format!(
                "distance {distance:e} but |point_b − point_a| = {between:e} (tol {t:e})"
            ));
        }
        let convex = !is_surface(a) && !is_surface(b);
        match d.normal {
            Some(n) => {
                unit(&mut errors, "normal", n);
                let n = d3(n).normalize_or_zero();
                if convex {
                    let gap = ob.interval(n).0 - oa.interval(n).1;
                    if !((distance - gap).abs() <= t) {
                        errors.push(format!(
                            "distance {distance:e} but the gap along the normal is {gap:e} (tol {t:e})"
                        ));
                    }
                }
            }
            None => errors.push("a positive distance without a normal".to_string()),
        }
    } else {
        in_shape(&mut errors, "common point (in a)", &oa, d.point_a, t);
        in_shape(&mut errors, "common point (in b)", &ob, d.point_b, t);
    }
    // Upper bounds: the distance from sampled points of each shape to the other.
    let dirs = sample_directions(rng, &[ob.centre() - oa.centre(), d3(d.point_b) - d3(d.point_a)], 32);
    let w = sample_weights(rng, 16);
    let bound_ab = oa
        .samples(&dirs, &w)
        .iter()
        .map(|p| ob.signed_distance(*p).max(0.0))
        .fold(f64::INFINITY, f64::min);
    let back: Vec<DVec3> = dirs.iter().map(|d| -*d).collect();
    let bound_ba = ob
        .samples(&back, &w)
        .iter()
        .map(|p| oa.signed_distance(*p).max(0.0))
        .fold(f64::INFINITY, f64::min);
    let bound = bound_ab.min(bound_ba);
    if !(distance <= bound + t) {
        errors.push(format!(
            "distance {distance:e} exceeds {bound:e}, the distance of a sampled point (tol {t:e})"
        ));
    }
    errors
}

/// Certificates of a segment cast's answer against `target` (`None`: a
/// miss).
fn check_segment_cast(segment: &Segment, target: &Shape, t_hit: Option<f32>) -> Vec<String> {
    let o = Oracle::of(target);
    let (s, e) = (d3(segment.start), d3(segment.end));
    let dir = e - s;
    let at = |t: f64| s + dir * t;
    let mut errors = Vec::new();
    let t = tol(offset_of(&[&o], &[segment.start, segment.end]), o.size() + dir.length());
    let solid = o.is_solid();
    let inside_before = |limit: f64| -> Option<(f64, f64)> {
        // Samples of [0, limit] and the point nearest the shape's centre.
        let mut ts: Vec<f64> = (0..=32).map(|i| limit * i as f64 / 32.0).collect();
        let ll = dir.length_squared();
        if ll > 0.0 {
            ts.push(((o.centre() - s).dot(dir) / ll).clamp(0.0, limit));
        }
        ts.into_iter()
            .map(|u| (u, o.signed_distance(at(u))))
            .find(|(_, sd)| *sd < -t)
    };
    match t_hit {
        Some(th) => {
            let th = f64::from(th);
            if !(0.0..=1.0).contains(&th) {
                errors.push(format!("t = {th} outside [0, 1]"));
                return errors;
            }
            let p = at(th);
            let sd = o.signed_distance(p);
            if th > 0.0 || !solid {
                if !(sd.abs() <= t) {
                    errors.push(format!("hit point at t = {th} is {sd:e} from the surface (tol {t:e})"));
                }
            } else if !(sd <= t) {
                errors.push(format!("a hit at t = 0 but the start is {sd:e} outside (tol {t:e})"));
            }
            if solid && th > 0.0 {
                if let Some((u, sd)) = inside_before(th) {
                    errors.push(format!("hit at t = {th}, but the point at t = {u} is {sd:e} inside"));
                }
            }
        }
        None => {
            if solid {
                if let Some((u, sd)) = inside_before(1.0) {
                    errors.push(format!("a miss, but the point at t = {u} is {sd:e} inside"));
                }
            }
        }
    }
    errors
}

/// Certificates of a shape cast: `a` moving by `motion` against the fixed
/// `b`; `hit = (t, point, normal from a to b)`.
fn check_shape_cast(
    rng: &mut TestRng,
    a: &Shape,
    motion: Vec3,
    b: &Shape,
    hit: Option<(f32, Vec3, Vec3)>,
) -> Vec<String> {
    let (oa, ob) = (Oracle::of(a), Oracle::of(b));
    let m = d3(motion);
    let mut errors = Vec::new();
    let points: Vec<Vec3> = hit.map(|h| vec![h.1]).unwrap_or_default();
    let t = tol(offset_of(&[&oa, &ob], &points), oa.size() + ob.size() + m.length());
    match hit {
        Some((th, p, n)) => {
            unit(&mut errors, "normal", n);
            let th = f64::from(th);
            if !(0.0..=1.0).contains(&th) {
                errors.push(format!("t = {th} outside [0, 1]"));
                return errors;
            }
            let moved = oa.translated(m * th);
            if th > 0.0 {
                on_surface(&mut errors, "point (on the moved shape)", &moved, p, t);
                on_surface(&mut errors, "point (on the target)", &ob, p, t);
                let convex = !is_surface(a) && !is_surface(b);
                let n = d3(n).normalize_or_zero();
                if convex && n != DVec3::ZERO {
                    let gap = ob.interval(n).0 - moved.interval(n).1;
                    if !(gap.abs() <= t) {
                        errors.push(format!(
                            "at t = {th} the gap along the normal is {gap:e}, not touching (tol {t:e})"
                        ));
                    }
                    if !(m.dot(n) >= -t) {
                        errors.push(format!("the motion leaves along the normal ({:e})", m.dot(n)));
                    }
                }
            } else {
                // A start in contact: the point is the contact's midpoint,
                // which need not lie in either shape, so the certificate is
                // that no sampled direction separates the shapes.
                let line = ob.centre() - oa.centre();
                let dirs = sample_directions(rng, &[line, d3(n)], 32);
                let (gap, along) = dirs
                    .iter()
                    .map(|d| (ob.interval(*d).0 - oa.interval(*d).1, *d))
                    .fold((f64::NEG_INFINITY, DVec3::ZERO), |m, x| if x.0 > m.0 { x } else { m });
                if gap > t {
                    errors.push(format!(
                        "a hit at t = 0, but the shapes are {gap:e} apart along {along:?} (tol {t:e})"
                    ));
                }
            }
        }
        None => {
            for i in 0..=8 {
                let s = f64::from(i) / 8.0;
                let moved = oa.translated(m * s);
                let line = ob.centre() - moved.centre();
                let dirs = sample_directions(rng, &[line, -line], 16);
                let w = sample_weights(rng, 8);
                let (sa, sb) = (moved.samples(&dirs, &w), ob.samples(&dirs, &w));
                let deep = deepest_inside(&moved, &sa, &ob).max(deepest_inside(&ob, &sb, &moved));
                if deep > t {
                    errors.push(format!(
                        "a miss, but at t = {s} the shapes overlap by {deep:e} (tol {t:e})"
                    ));
                    break;
                }
            }
        }
    }
    errors
}

// ---------------------------------------------------------------------------
// Case drivers.

/// A pair for contact: placed along a direction to overlap (mostly) or
/// touch.
fn contact_pair(rng: &mut TestRng, kinds_a: &[Kind], kinds_b: &[Kind]) -> (Shape, Shape) {
    let (ka, kb) = (pick(rng, kinds_a), pick(rng, kinds_b));
    let (a, mut b) = pair_specs(rng, ka, kb);
    let u = placement_direction(rng, &a);
    let gap = random_gap(rng, &a, &b, true);
    place(&a, &mut b, u, gap)
}

/// A pair for distance: apart (mostly), touching or barely overlapping.
fn distance_pair(rng: &mut TestRng, kinds_a: &[Kind], kinds_b: &[Kind]) -> (Shape, Shape) {
    let (ka, kb) = (pick(rng, kinds_a), pick(rng, kinds_b));
    let (a, mut b) = pair_specs(rng, ka, kb);
    let u = placement_direction(rng, &a);
    let overlapping = rng.one_in(5);
    let gap = random_gap(rng, &a, &b, overlapping);
    place(&a, &mut b, u, gap)
}

/// A segment against `target`: through a random point of it, or grazing
/// its silhouette (through a support point, perpendicular to the support
/// direction, displaced outward or inward by `1e-6..1e-2` of its size), or
/// starting inside.
fn random_segment(rng: &mut TestRng, target: &Oracle) -> Segment {
    let size = target.size();
    let v = rng.direction();
    let aim = match rng.below(3) {
        0 => {
            let w: Vec<DVec3> = (0..3).map(|_| target.support_point(rng.direction())).collect();
            let b = sample_weights(rng, 1)[0];
            w[0] * b[0] + w[1] * b[1] + w[2] * b[2]
        }
        _ => {
            let r = rng.direction();
            let w = (r - v * r.dot(v)).normalize_or_zero();
            let nudge = if rng.one_in(2) { 1.0 } else { -1.0 } * size * rng.log_uniform(1e-6, 1e-2);
            target.support_point(w) + w * nudge
        }
    };
    let before = size * rng.log_uniform(1e-2, 1e1);
    let after = size * rng.log_uniform(1e-2, 1e1);
    let start = if rng.one_in(8) { aim } else { aim - v * before };
    Segment::new(start.as_vec3(), (aim + v * after).as_vec3())
}

/// A shape cast: `a` moves towards `b` across a gap, along the placement
/// direction with a sideways part (up to twice as large: grazing passes).
fn cast_case(rng: &mut TestRng, kinds_a: &[Kind], kinds_b: &[Kind]) -> (Shape, Vec3, Shape) {
    let (ka, kb) = (pick(rng, kinds_a), pick(rng, kinds_b));
    let (a, mut b) = pair_specs(rng, ka, kb);
    let u = placement_direction(rng, &a);
    let overlapping = rng.one_in(8);
    let gap = random_gap(rng, &a, &b, overlapping);
    let (sa, sb) = place(&a, &mut b, u, gap);
    let reach = gap.max(0.0) + a.dims.max_element().min(b.dims.max_element()) * rng.log_uniform(1e-3, 1.0);
    let r = rng.direction();
    let side = (r - u * r.dot(u)).normalize_or_zero();
    let sideways = reach * rng.range(0.0, 2.0) as f64;
    let motion = u * reach * f64::from(rng.range(0.5, 2.0)) + side * sideways;
    (sa, motion.as_vec3(), sb)
}

/// A world holding `shapes` (identity transforms: their world shapes are
/// the shapes themselves).
fn world_of(shapes: &[Shape]) -> (World, Vec<collide::ColliderKey>) {
    let mut world = World::new();
    let keys = shapes
        .iter()
        .map(|s| world.add(ColliderDesc::new(s.clone())).expect("a valid shape"))
        .collect();
    (world, keys)
}

/// The world shape of a collider.
fn shape_of(world: &World, key: collide::ColliderKey) -> Shape {
    world.get(key).expect("a live collider").world_shape().into_owned()
}

// ---------------------------------------------------------------------------
// Tests of the oracle itself, on analytic cases.

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn oracle_signed_distances_of_analytic_cases() {
    let v = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
    let sphere = Oracle::of(&Shape::Sphere(Sphere::new(Vec3::new(1.0, 0.0, 0.0), 2.0)));
    assert!(close(sphere.signed_distance(v(4.0, 0.0, 0.0)), 1.0));
    assert!(close(sphere.signed_distance(v(1.0, 0.0, 0.0)), -2.0));

    let capsule = Oracle::of(&Shape::Capsule(Capsule::new(
        Segment::new(Vec3::ZERO, Vec3::Y * 2.0),
        0.5,
    )));
    assert!(close(capsule.signed_distance(v(1.0, 1.0, 0.0)), 0.5));
    assert!(close(capsule.signed_distance(v(0.0, 3.0, 0.0)), 0.5));
    assert!(close(capsule.signed_distance(v(0.0, 1.0, 0.0)), -0.5));

    let aabb = Oracle::of(&Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::new(2.0, 4.0, 6.0))));
    assert!(close(aabb.signed_distance(v(1.0, 2.0, 3.0)), -1.0));
    assert!(close(aabb.signed_distance(v(3.0, 5.0, 3.0)), 2.0f64.sqrt()));
    assert!(close(aabb.signed_distance(v(1.0, 2.0, 7.5)), 1.5));

    // An oriented box turned a quarter about z: its x half extent lies along y.
    let obb = Oracle::of(&Shape::Obb(Obb::new(
        Vec3::ZERO,
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        Vec3::new(3.0, 1.0, 1.0),
    )));
    assert!((obb.signed_distance(v(0.0, 4.0, 0.0)) - 1.0).abs() < 1e-6);
    assert!((obb.signed_distance(v(2.0, 0.0, 0.0)) - 1.0).abs() < 1e-6);

    let triangle = Oracle::of(&Shape::Triangle(Triangle::new(
        Vec3::ZERO,
        Vec3::X * 2.0,
        Vec3::Y * 2.0,
    )));
    assert!(close(triangle.signed_distance(v(0.5, 0.5, -3.0)), 3.0));
    assert!(close(triangle.signed_distance(v(-1.0, 0.0, 0.0)), 1.0));
    assert!(close(triangle.signed_distance(v(2.0, 2.0, 0.0)), 2.0f64.sqrt()));

    let cylinder = Oracle::of(&Shape::Cylinder(Cylinder::new(
        Segment::new(Vec3::ZERO, Vec3::Z * 4.0),
        1.0,
    )));
    assert!(close(cylinder.signed_distance(v(3.0, 0.0, 2.0)), 2.0));
    assert!(close(cylinder.signed_distance(v(0.0, 0.0, 6.0)), 2.0));
    assert!(close(cylinder.signed_distance(v(0.0, 0.0, 1.5)), -1.0));
    // Beyond the rim: 3 out radially and 3 past the cap.
    assert!(close(cylinder.signed_distance(v(0.0, 4.0, 7.0)), 18.0f64.sqrt()));

    // A cone of base radius 1 and height 1: the slant is x + z = 1 in a
    // radial plane, at distance (x + z − 1)/√2.
    let cone = Oracle::of(&Shape::Cone(Cone::new(Vec3::ZERO, Vec3::Z, 1.0)));
    assert!(close(cone.signed_distance(v(1.0, 0.0, 1.0)), 0.5f64.sqrt()));
    assert!(close(cone.signed_distance(v(0.0, 0.0, -2.0)), 2.0));
    assert!(close(cone.signed_distance(v(0.0, 0.0, 2.0)), 1.0));
    assert!(close(cone.signed_distance(v(0.0, 0.0, 0.25)), -0.25));
    assert!(close(cone.signed_distance(v(0.0, 2.0, 0.0)), 1.0));
    assert!(close(cone.signed_distance(v(0.0, 0.1, 0.5)), -(0.4 / 2.0f64.sqrt())));

    let corners: Vec<Vec3> = (0..8)
        .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) * 2.0)
        .collect();
    let hull = Oracle::of(&Shape::Hull(Arc::new(ConvexHull::from_points(&corners).unwrap())));
    assert!(close(hull.signed_distance(v(1.0, 1.0, 1.0)), -1.0));
    assert!(close(hull.signed_distance(v(1.0, 1.0, 3.5)), 1.5));
    assert!(close(hull.signed_distance(v(3.0, 3.0, 1.0)), 2.0f64.sqrt()));
    assert!(close(hull.signed_distance(v(0.5, 1.0, 1.0)), -0.5));

    let mesh = Oracle::of(&Shape::Mesh(Arc::new(
        TriangleMesh::new(
            vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
            vec![[0, 1, 2], [0, 2, 3]],
        )
        .unwrap(),
    )));
    assert!(close(mesh.signed_distance(v(0.25, 0.75, 2.0)), 2.0));
    assert!(close(mesh.signed_distance(v(2.0, 0.5, 0.0)), 1.0));
}

#[test]
fn oracle_supports_and_intervals_of_analytic_cases() {
    let d = DVec3::new(1.0, 0.0, 0.0);
    let cylinder = Oracle::of(&Shape::Cylinder(Cylinder::new(
        Segment::new(Vec3::ZERO, Vec3::Z * 4.0),
        1.0,
    )));
    assert_eq!(cylinder.interval(d), (-1.0, 1.0));
    assert_eq!(cylinder.interval(DVec3::Z), (0.0, 4.0));
    let diagonal = DVec3::new(1.0, 0.0, 1.0).normalize();
    let (lo, hi) = cylinder.interval(diagonal);
    assert!(close(lo, -(0.5f64.sqrt())) && close(hi, 5.0 * 0.5f64.sqrt()));

    let cone = Oracle::of(&Shape::Cone(Cone::new(Vec3::ZERO, Vec3::Z * 2.0, 1.0)));
    assert_eq!(cone.interval(DVec3::Z), (0.0, 2.0));
    assert_eq!(cone.interval(d), (-1.0, 1.0));

    let obb = Oracle::of(&Shape::Obb(Obb::new(
        Vec3::new(5.0, 0.0, 0.0),
        Quat::IDENTITY,
        Vec3::new(1.0, 2.0, 3.0),
    )));
    assert_eq!(obb.interval(d), (4.0, 6.0));
    let (lo, hi) = obb.interval(DVec3::new(0.0, 1.0, 1.0).normalize());
    assert!(close(hi, 5.0 / 2.0f64.sqrt()) && close(lo, -5.0 / 2.0f64.sqrt()));

    let capsule = Oracle::of(&Shape::Capsule(Capsule::new(Segment::new(Vec3::ZERO, Vec3::X), 0.5)));
    assert_eq!(capsule.interval(d), (-0.5, 1.5));

    // Every support point lies on the surface, and every sample in the shape.
    let mut rng = seeded(7);
    for kind in ALL {
        for _ in 0..50 {
            let shape = Spec::random(&mut rng, kind).build();
            let o = Oracle::of(&shape);
            let dirs: Vec<DVec3> = (0..16).map(|_| rng.direction()).collect();
            let w = sample_weights(&mut rng, 8);
            let t = 1e-9 * (o.centre().length() + o.size());
            for p in o.samples(&dirs, &w) {
                assert!(
                    o.signed_distance(p) <= t,
                    "{kind:?}: a sample lies outside: {}",
                    describe(&shape)
                );
            }
            for d in &dirs {
                let sd = o.signed_distance(o.support_point(*d));
                assert!(
                    sd.abs() <= t,
                    "{kind:?}: support point {sd:e} off the surface: {}",
                    describe(&shape)
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// One test per query kind.

#[test]
fn segment_cast_hit_points_lie_on_the_shape() {
    let mut report = Report::new("segment_cast (per shape)");
    let mut rng = seeded(0x5e9_ca57);
    for _ in 0..case_count() {
        let kind = pick(&mut rng, &ALL);
        let target = Spec::random(&mut rng, kind).build();
        let segment = random_segment(&mut rng, &Oracle::of(&target));
        let hit = target.cast_segment(&segment);
        let mut errors = check_segment_cast(&segment, &target, hit.map(|h| h.t));
        // A zero-length segment's normal is zero (documented).
        if let Some(h) = hit.filter(|_| segment.start != segment.end) {
            unit(&mut errors, "normal", h.normal);
        }
        report.case(
            &format!("segment–{}", kind_name(&target)),
            || format!("{}.cast_segment(&{segment:?}) = {hit:?}", describe(&target)),
            errors,
        );
    }
    report.finish();
}

#[test]
fn world_segment_cast_hit_points_lie_on_the_collider_hit() {
    let mut report = Report::new("World::segment_cast");
    let mut rng = seeded(0x0003_041d_ca57);
    for _ in 0..case_count() {
        let kind = pick(&mut rng, &ALL);
        let target = Spec::random(&mut rng, kind).build();
        let segment = random_segment(&mut rng, &Oracle::of(&target));
        let (world, _) = world_of(std::slice::from_ref(&target));
        let hit = world.segment_cast(&segment, &QueryFilter::ALL).expect("valid input");
        let mut errors = check_segment_cast(
            &segment,
            &shape_of(&world, world.iter().next().unwrap().0),
            hit.map(|h| h.t),
        );
        if let Some(h) = hit {
            if segment.start != segment.end {
                unit(&mut errors, "normal", h.normal);
            }
            let p = d3(h.point);
            let expected = d3(segment.start) + (d3(segment.end) - d3(segment.start)) * f64::from(h.t);
            let t = tol(p.length(), (d3(segment.end) - d3(segment.start)).length());
            if !((p - expected).length() <= t) {
                errors.push(format!("hit.point {:?} is not segment.point_at(t)", h.point));
            }
        }
        report.case(
            &format!("world segment–{}", kind_name(&target)),
            || format!("world [{}].segment_cast(&{segment:?}) = {hit:?}", describe(&target)),
            errors,
        );
    }
    report.finish();
}

#[test]
fn contact_points_lie_on_their_shapes_and_depths_match_the_overlap() {
    let mut report = Report::new("contact (Shape::contact)");
    let mut rng = seeded(0xc0_47ac7);
    for _ in 0..case_count() {
        let (a, b) = contact_pair(&mut rng, &ALL, &CONVEX);
        let (a, b) = if rng.one_in(2) || is_surface(&a) {
            (b, a)
        } else {
            (a, b)
        };
        let c = a.contact(&b);
        let errors = check_contact(&mut rng, &a, &b, c);
        report.case(
            &format!("{}–{}", kind_name(&a), kind_name(&b)),
            || format!("{}.contact(&{}) = {c:?}", describe(&a), describe(&b)),
            errors,
        );
    }
    report.finish();
}

#[test]
fn world_contact_points_lie_on_their_colliders() {
    let mut report = Report::new("World::contact");
    let mut rng = seeded(0x0003_041d_c047);
    for _ in 0..case_count() {
        let (a, b) = contact_pair(&mut rng, &ALL, &CONVEX);
        let (world, keys) = world_of(&[a.clone(), b.clone()]);
        let c = world.contact(keys[0], keys[1]).expect("live keys");
        let errors = check_contact(&mut rng, &shape_of(&world, keys[0]), &shape_of(&world, keys[1]), c);
        report.case(
            &format!("world {}–{}", kind_name(&a), kind_name(&b)),
            || format!("world [{}, {}].contact(0, 1) = {c:?}", describe(&a), describe(&b)),
            errors,
        );
    }
    report.finish();
}

#[test]
fn distance_witnesses_lie_on_their_shapes_and_bound_the_distance() {
    let mut report = Report::new("distance (Shape::distance, World::distance)");
    let mut rng = seeded(0xd157);
    for i in 0..case_count() {
        let (a, b) = distance_pair(&mut rng, &ALL, &CONVEX);
        let (a, b) = if rng.one_in(2) || is_surface(&a) {
            (b, a)
        } else {
            (a, b)
        };
        let through_world = i % 2 == 1;
        let d = if through_world {
            let (world, keys) = world_of(&[a.clone(), b.clone()]);
            world.distance(keys[0], keys[1]).expect("live keys")
        } else {
            a.distance(&b)
        };
        let errors = check_distance(&mut rng, &a, &b, &d);
        let via = if through_world { "world " } else { "" };
        report.case(
            &format!("{via}{}–{}", kind_name(&a), kind_name(&b)),
            || format!("{via}{}.distance(&{}) = {d:?}", describe(&a), describe(&b)),
            errors,
        );
    }
    report.finish();
}

#[test]
fn world_closest_point_is_the_nearest_point_of_the_nearest_collider() {
    let mut report = Report::new("World::project_point");
    let mut rng = seeded(0xc105e57);
    for _ in 0..case_count() {
        let kind = pick(&mut rng, &ALL);
        let target = Spec::random(&mut rng, kind).build();
        let o = Oracle::of(&target);
        // A point near the surface: a support point pushed out or in.
        let n = rng.direction();
        let push = if rng.one_in(4) { -1.0 } else { 1.0 } * o.size() * rng.log_uniform(1e-6, 10.0);
        let q = (o.support_point(n) + n * push).as_vec3();
        let (world, _) = world_of(std::slice::from_ref(&target));
        let found = world
            .project_point(q, f32::MAX / 4.0, &QueryFilter::ALL)
            .expect("valid input");
        let mut errors = Vec::new();
        let sd = o.signed_distance(d3(q));
        match found {
            Some((_, d)) => {
                let t = tol(offset_of(&[&o], &[q, d.point_b]), o.size());
                let expected = sd.max(0.0);
                if !((f64::from(d.distance) - expected).abs() <= t) {
                    errors.push(format!(
                        "distance {} but the point is {expected:e} away (tol {t:e})",
                        d.distance
                    ));
                }
                if d.distance > 0.0 {
                    on_surface(&mut errors, "point_b", &o, d.point_b, t);
                    let between = (d3(d.point_b) - d3(q)).length();
                    if !((f64::from(d.distance) - between).abs() <= t) {
                        errors.push(format!("distance {} but |point_b − q| = {between:e}", d.distance));
                    }
                } else {
                    in_shape(&mut errors, "point_b", &o, d.point_b, t);
                }
            }
            None => errors.push("nothing found within an unbounded distance".to_string()),
        }
        report.case(
            &format!("point–{}", kind_name(&target)),
            || format!("world [{}].closest_point({q:?}) = {found:?}", describe(&target)),
            errors,
        );
    }
    report.finish();
}

#[test]
fn shape_cast_points_lie_on_both_shapes_at_the_time_of_impact() {
    let mut report = Report::new("shape_cast (Shape::cast_shape, query::shape_cast)");
    let mut rng = seeded(0x5a9e_ca57);
    for i in 0..case_count() {
        let (a, motion, b) = cast_case(&mut rng, &CONVEX, &ALL);
        let generic = i % 2 == 1 && !is_surface(&b);
        let toi = if generic {
            shape_cast(&a, motion, &b, Vec3::ZERO)
        } else {
            a.cast_shape(motion, &b)
        };
        let errors = check_shape_cast(&mut rng, &a, motion, &b, toi.map(|h| (h.t, h.point, h.normal)));
        let via = if generic { "query::shape_cast " } else { "" };
        report.case(
            &format!("{via}{}→{}", kind_name(&a), kind_name(&b)),
            || {
                format!(
                    "{via}{}.cast_shape({motion:?}, &{}) = {toi:?}",
                    describe(&a),
                    describe(&b)
                )
            },
            errors,
        );
    }
    report.finish();
}

#[test]
fn height_field_answers_are_certified() {
    let mut report = Report::new("height field (contact, distance, shape cast, segment cast)");
    let mut rng = seeded(0x07e4_4a1f_1e1d);
    for _ in 0..case_count() / 4 {
        let (field, b) = contact_pair(&mut rng, &TERRAIN, &CONVEX);
        let c = field.contact(&b);
        let errors = check_contact(&mut rng, &field, &b, c);
        report.case(
            &format!("heightfield–{}", kind_name(&b)),
            || format!("{}.contact(&{}) = {c:?}", describe(&field), describe(&b)),
            errors,
        );

        let (field, b) = distance_pair(&mut rng, &TERRAIN, &CONVEX);
        let d = b.distance(&field);
        let errors = check_distance(&mut rng, &b, &field, &d);
        report.case(
            &format!("{}–heightfield distance", kind_name(&b)),
            || format!("{}.distance(&{}) = {d:?}", describe(&b), describe(&field)),
            errors,
        );

        let (a, motion, field) = cast_case(&mut rng, &CONVEX, &TERRAIN);
        let toi = a.cast_shape(motion, &field);
        let errors = check_shape_cast(&mut rng, &a, motion, &field, toi.map(|h| (h.t, h.point, h.normal)));
        report.case(
            &format!("{}→heightfield", kind_name(&a)),
            || {
                format!(
                    "{}.cast_shape({motion:?}, &{}) = {toi:?}",
                    describe(&a),
                    describe(&field)
                )
            },
            errors,
        );

        let field = Spec::random(&mut rng, Kind::HeightField).build();
        let segment = random_segment(&mut rng, &Oracle::of(&field));
        let hit = field.cast_segment(&segment);
        let errors = check_segment_cast(&segment, &field, hit.map(|h| h.t));
        report.case(
            "segment–heightfield",
            || format!("{}.cast_segment(&{segment:?}) = {hit:?}", describe(&field)),
            errors,
        );
    }
    report.finish();
}

#[test]
fn world_shape_cast_points_lie_on_both_shapes_at_the_time_of_impact() {
    let mut report = Report::new("World::cast_shape");
    let mut rng = seeded(0x0003_041d_5a9e);
    for _ in 0..case_count() {
        let (a, motion, b) = cast_case(&mut rng, &CONVEX, &ALL);
        let (world, keys) = world_of(std::slice::from_ref(&b));
        let hit = world.cast_shape(&a, motion, &QueryFilter::ALL).expect("valid input");
        let target = shape_of(&world, keys[0]);
        // The world's normal is the collider's, pointing back at the moving shape.
        let errors = check_shape_cast(&mut rng, &a, motion, &target, hit.map(|h| (h.t, h.point, -h.normal)));
        report.case(
            &format!("world {}→{}", kind_name(&a), kind_name(&b)),
            || {
                format!(
                    "world [{}].cast_shape(&{}, {motion:?}) = {hit:?}",
                    describe(&b),
                    describe(&a)
                )
            },
            errors,
        );
    }
    report.finish();
}
