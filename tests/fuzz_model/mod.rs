//! The step functions of the fuzz targets, shared by `fuzz/fuzz_targets/*`
//! (included with `#[path]`) and `tests/fuzz_replay.rs`, which replays the
//! committed seed corpora in `fuzz/seeds/` through them.
//!
//! - [`run_world`] decodes raw bytes into a sequence of `World` calls (add,
//!   extend, remove, every setter, optimize, clone, every query) with any
//!   float (NaN, ±∞, huge, denormal, negative sizes), any rotation, any
//!   filter, and stale, forged and foreign keys, and after every step holds
//!   the world to a [`Model`] kept beside it: a plain list of the colliders'
//!   validated descriptions and world shapes, with brute-force casts
//!   (`Shape::cast_segment`), brute-force pairs (`Shape::intersects` +
//!   `Filter::interacts_with`), the narrow phase's queries by brute force
//!   with the same per-pair functions (`Shape::cast_shape`,
//!   `Shape::distance`, `Shape::contact`, the slide loop), and the expected
//!   error of every invalid input (constructors of hulls and meshes included).
//! - [`c_abi::run_c_abi`] drives the `phys_*` functions the same way.
//!
//! Every check is an `assert!`: a failing check, or any panic of collide,
//! aborts the fuzz target (a finding) and fails the replay test.
//! Nothing here reads the clock or the environment: a byte string always
//! runs the same steps.
#![allow(dead_code)]

pub mod c_abi;

use collide::ffi::PhysCollider;
use collide::math::{Quat, Vec3};
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, Compound, Cone, ConvexHull, Cylinder, Distance, Error, Filter,
    HeightField, Hit, MoveAndSlide, Obb, Pair, QueryFilter, Segment, Shape, Sphere, Transform, Triangle, TriangleMesh,
    World, MOVE_AND_SLIDE_SKIN,
};
use std::sync::Arc;

/// At most this many steps per input, so an input runs in bounded time.
pub const MAX_STEPS: usize = 256;

/// The range in which every exact test is exact. The closed forms (boxes:
/// exact comparisons; spheres and capsules: squared distances in `f64`,
/// where no square of a finite `f32` overflows or underflows, findings F1,
/// F2 and F10 of RELIABILITY.md, fixed) are exact to rounding over the
/// whole finite range; the tests of the other kinds (oriented boxes,
/// GJK) compute in `f32` and are checked within `±EXACT_RANGE`, where
/// their fourth powers stay finite.
///
/// The pair and region oracles are `filters interact ∧ bounds overlap ∧
/// Shape::intersects`: the bounds test is part of the definition (every
/// finder, `broad::naive` included, runs it first) because the `f32`
/// bounds round (a sphere's `center ± r` can fall an ulp short of the exact
/// surface); [`check_bounds_gap`] checks that this is all it drops.
pub const EXACT_RANGE: f32 = 1.0e9;

/// Whether the segment touches the closed box (see [`entry_t`]).
pub fn touches(segment: &Segment, aabb: &Aabb) -> bool {
    entry_t(segment, aabb).is_some()
}

/// Whether an exact hit at `t` comes before the segment even enters the
/// shape's bounds at `entry` (by more than rounding): impossible but for
/// the exact test's rounding (a start an ulp outside a sphere read as
/// inside, t = 0), and then the tree, which prunes by the box's entry `t`,
/// may skip it for a later box (ties included: finding F5).
pub fn hits_early(t: f32, entry: f64) -> bool {
    f64::from(t) < entry - 4.0 * f64::from(f32::EPSILON) * entry.abs()
}

/// Where the segment enters the closed box, by slab clipping in `f64`
/// (whose rounding is 2⁻²⁹ of `f32`'s), or `None` when it misses: the
/// reference for the tree's `f32` slab test, which is conservative by
/// `SLAB_SLACK` and so must pass every box this passes.
pub fn entry_t(segment: &Segment, aabb: &Aabb) -> Option<f64> {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for axis in 0..3 {
        let s = f64::from(segment.start[axis]);
        let d = f64::from(segment.end[axis]) - s;
        let (min, max) = (f64::from(aabb.min[axis]), f64::from(aabb.max[axis]));
        if d == 0.0 {
            if s < min || s > max {
                return None;
            }
        } else {
            let (t0, t1) = ((min - s) / d, (max - s) / d);
            lo = lo.max(t0.min(t1));
            hi = hi.min(t0.max(t1));
        }
    }
    (lo <= hi).then_some(lo)
}

/// The motion below which the tree's slab test takes a segment as not
/// moving along an axis (`SlabRay::parallel` in `src/bvh/cast.rs`).
pub const SLAB_PARALLEL: f32 = 1e-30;

/// Whether the segment moves along some axis by less than
/// [`SLAB_PARALLEL`] (but not 0) and starts outside `bounds` on it: the
/// tree's slab test then decides by the start alone and misses a segment
/// that creeps onto the box (finding F7 of RELIABILITY.md).
pub fn creeps_onto(segment: &Segment, bounds: &Aabb) -> bool {
    let d = segment.direction();
    (0..3).any(|axis| {
        d[axis] != 0.0
            && d[axis].abs() < SLAB_PARALLEL
            && !(bounds.min[axis] <= segment.start[axis] && segment.start[axis] <= bounds.max[axis])
    })
}

/// The bounds of a segment.
pub fn segment_bounds(segment: &Segment) -> Aabb {
    Aabb::new(segment.start.min(segment.end), segment.start.max(segment.end))
}

/// How far apart two boxes are: the largest gap between them on any axis
/// (0 when they overlap).
pub fn gap(a: &Aabb, b: &Aabb) -> f32 {
    (a.min - b.max).max(b.min - a.max).max_element().max(0.0)
}

/// Asserts that the bounds test drops an exact overlap only by the
/// rounding of the bounds: a gap of a few ulps of the coordinates (and a
/// few of the smallest subnormal, the ulp of coordinates near 0). For two
/// closed forms at every scale (their exact tests have no overflow or
/// underflow left: F1, F2), for other kinds within [`EXACT_RANGE`].
#[track_caller]
fn check_bounds_gap(a: &Shape, b: &Shape) {
    if !((closed_form(a) && closed_form(b)) || (shape_in_range(a) && shape_in_range(b))) {
        return;
    }
    let (ba, bb) = (a.bounding_aabb(), b.bounding_aabb());
    let scale = [ba.min, ba.max, bb.min, bb.max]
        .iter()
        .map(|v| v.abs().max_element())
        .fold(0.0f32, f32::max);
    let slack = 8.0 * f32::EPSILON * scale + 4.0 * f32::from_bits(1);
    assert!(
        gap(&ba, &bb) <= slack,
        "{a:?} and {b:?} intersect exactly but their bounds are {} apart",
        gap(&ba, &bb)
    );
}

/// Whether every coordinate of `v` is within [`EXACT_RANGE`].
pub fn in_range(v: Vec3) -> bool {
    v.abs().max_element() <= EXACT_RANGE
}

/// Whether a shape's bounds are within [`EXACT_RANGE`].
pub fn shape_in_range(shape: &Shape) -> bool {
    let b = shape.bounding_aabb();
    in_range(b.min) && in_range(b.max)
}

/// Floats a fuzzer would take long to find by flipping bits.
pub const SPECIAL_FLOATS: [f32; 24] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    0.0,
    -0.0,
    f32::MIN_POSITIVE,
    1.0e-40, // denormal
    -1.0e-40,
    f32::MAX,
    f32::MIN,
    1.0e30,
    -1.0e30,
    1.0e19,
    -1.0e19,
    1.0e5,
    -1.0e5,
    1.0e-4,
    -1.0e-4,
    f32::EPSILON,
    1.0 + f32::EPSILON,
    1.0 - f32::EPSILON / 2.0,
    3.0e38,
    -3.0e38,
    16_777_216.0, // 2^24: the spacing of f32 becomes 2
];

/// A cursor over the fuzzer's bytes; past the end every read gives zeros,
/// so every byte string is a valid input.
#[derive(Clone)]
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }

    /// A float: mostly a multiple of 0.25 in `[-20, 20)` (so shapes touch
    /// and segments graze exactly), else a special value or any bit pattern.
    pub fn f32(&mut self) -> f32 {
        match self.u8() {
            tag @ 0..=159 => (i32::from(tag) - 80) as f32 * 0.25,
            tag @ 160..=215 => SPECIAL_FLOATS[usize::from(tag - 160) % SPECIAL_FLOATS.len()],
            _ => f32::from_bits(self.u32()),
        }
    }

    /// A non-negative size: mostly a small multiple of 0.25, else any float.
    pub fn size(&mut self) -> f32 {
        match self.u8() {
            tag @ 0..=191 => f32::from(tag % 32) * 0.25,
            _ => self.f32(),
        }
    }

    pub fn vec3(&mut self) -> Vec3 {
        Vec3::new(self.f32(), self.f32(), self.f32())
    }

    pub fn size3(&mut self) -> Vec3 {
        Vec3::new(self.size(), self.size(), self.size())
    }

    /// A rotation: the identity, a quarter turn, an axis-angle rotation, a
    /// slightly non-unit one (inside or outside the tolerance), or any four
    /// floats (rarely unit).
    pub fn quat(&mut self) -> Quat {
        match self.u8() % 8 {
            0 | 1 => Quat::IDENTITY,
            2 => {
                let angle = f32::from(self.u8() % 4) * core::f32::consts::FRAC_PI_2;
                [
                    Quat::from_rotation_x(angle),
                    Quat::from_rotation_y(angle),
                    Quat::from_rotation_z(angle),
                ][usize::from(self.u8() % 3)]
            }
            3 | 4 => {
                let axis = self.vec3().try_normalize().unwrap_or(Vec3::Y);
                Quat::from_axis_angle(axis, self.f32())
            }
            5 => {
                // |q|² = k² with k in 1 ± 2⁻⁸ .. 1 ± 2⁻¹⁴: near the 1e-3 tolerance.
                let k = 1.0 + (f32::from(self.u8()) - 128.0) * 2.0f32.powi(-14);
                Quat::from_xyzw(0.0, 0.0, 0.0, k)
            }
            _ => Quat::from_xyzw(self.f32(), self.f32(), self.f32(), self.f32()),
        }
    }

    pub fn transform(&mut self) -> Transform {
        let translation = if self.bool() { self.vec3() } else { Vec3::ZERO };
        let rotation = self.quat();
        let scale = match self.u8() % 4 {
            0 | 1 => Vec3::ONE,
            2 => Vec3::splat(self.f32()),
            _ => self.vec3(),
        };
        Transform {
            translation,
            rotation,
            scale,
        }
    }

    pub fn segment(&mut self) -> Segment {
        let start = self.vec3();
        match self.u8() % 4 {
            0 => Segment::new(start, start),
            1 => {
                let mut end = start;
                end[usize::from(self.u8() % 3)] += self.f32();
                Segment::new(start, end)
            }
            2 => Segment::new(start, start + self.vec3()),
            _ => Segment::new(start, self.vec3()),
        }
    }

    /// A shape of any kind (see [`Input::shape_spec`]); a hull or mesh its
    /// constructor refuses (the refusal checked) becomes a point at the origin.
    pub fn shape(&mut self) -> Shape {
        self.shape_spec()
            .build()
            .unwrap_or(Shape::Sphere(Sphere::new(Vec3::ZERO, 0.0)))
    }

    /// The raw inputs of a shape of any kind. A first byte below 168 makes
    /// the three shapes of the broad phase as before (a box `min + size`, a
    /// sphere, a capsule, or raw numbers: inverted boxes, negative radii,
    /// NaN); from 168 on, the narrow phase's: an oriented box (any rotation,
    /// negative or NaN half-extents), a triangle (sometimes degenerate), a
    /// cylinder, a cone (sometimes flat), the points of a convex hull, or the
    /// vertices and triangles of a mesh.
    pub fn shape_spec(&mut self) -> ShapeSpec {
        let tag = self.u8();
        if tag < 168 {
            return ShapeSpec::Plain(self.broad_shape(tag % 6));
        }
        ShapeSpec::Plain(match (tag - 168) % 9 {
            0 => {
                let half_extents = if self.bool() { self.size3() } else { self.vec3() };
                Shape::Obb(Obb::new(self.vec3(), self.quat(), half_extents))
            }
            1 => {
                let a = self.vec3();
                let (b, c) = match self.u8() % 4 {
                    0 => (a, a),
                    1 => {
                        let b = self.vec3();
                        (b, a + (b - a) * self.f32())
                    }
                    _ => (self.vec3(), self.vec3()),
                };
                Shape::Triangle(Triangle::new(a, b, c))
            }
            2 => {
                let radius = if self.bool() { self.size() } else { self.f32() };
                Shape::Cylinder(Cylinder::new(self.segment(), radius))
            }
            3 => {
                let base = self.vec3();
                let apex = if self.u8() % 4 == 0 { base } else { self.vec3() };
                let radius = if self.bool() { self.size() } else { self.f32() };
                Shape::Cone(Cone::new(base, apex, radius))
            }
            4 => return ShapeSpec::Hull(self.hull_points()),
            5 => return self.compound(),
            6 => return self.mesh(),
            7 => return self.heightfield(),
            _ => Shape::Obb(Obb::new(self.vec3(), Quat::IDENTITY, self.size3())),
        })
    }

    /// A shape of the broad phase: a box, a sphere or a capsule.
    fn broad_shape(&mut self, kind: u8) -> Shape {
        match kind {
            0 | 1 => {
                let min = self.vec3();
                Shape::Aabb(Aabb::new(min, min + self.size3()))
            }
            2 => Shape::Aabb(Aabb::new(self.vec3(), self.vec3())),
            3 => Shape::Sphere(Sphere::new(self.vec3(), self.size())),
            4 => Shape::Capsule(Capsule::new(self.segment(), self.size())),
            _ => {
                if self.bool() {
                    Shape::Sphere(Sphere::new(self.vec3(), self.f32()))
                } else {
                    Shape::Capsule(Capsule::new(self.segment(), self.f32()))
                }
            }
        }
    }

    /// The points of a convex hull, of a family whose fate the
    /// documentation of `ConvexHull::from_points` decides ([`HullPoints`]).
    fn hull_points(&mut self) -> HullPoints {
        let n = usize::from(self.u8() % 12);
        match self.u8() % 6 {
            0 => HullPoints::Any((0..n).map(|_| self.vec3()).collect()),
            1 | 2 => {
                // A box's corners, with duplicates, an interior point and
                // one on a face, in any order.
                let (min, size) = (self.vec3(), self.size3());
                let mut points: Vec<Vec3> = (0..8)
                    .map(|i| min + size * Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
                    .collect();
                points.push(min + size * 0.5);
                points.push(min + size * Vec3::new(0.5, 0.5, 1.0));
                for _ in 0..n % 4 {
                    let i = usize::from(self.u8()) % points.len();
                    points.push(points[i]);
                }
                let rotate = usize::from(self.u8()) % points.len();
                points.rotate_left(rotate);
                if self.u8() % 8 == 0 {
                    // A non-finite one among them.
                    let i = usize::from(self.u8()) % points.len();
                    points[i].y = SPECIAL_FLOATS[usize::from(self.u8() % 3)];
                }
                HullPoints::Box { points, min, size }
            }
            3 => {
                let z = self.f32();
                HullPoints::Coplanar((0..n).map(|_| Vec3::new(self.f32(), self.f32(), z)).collect())
            }
            4 => {
                let p = self.vec3();
                HullPoints::Coincident(vec![p; n])
            }
            _ => HullPoints::Any((0..n % 4).map(|_| self.vec3()).collect()),
        }
    }

    /// The vertices and triangles of a mesh: 0–6 vertices (any floats),
    /// 0–4 triangles whose indices are mostly in range, sometimes one past
    /// the end, sometimes any `u32`.
    /// A compound: 0–3 children of the plain kinds (any numbers), each
    /// with any pose.
    fn compound(&mut self) -> ShapeSpec {
        let children = (0..self.u8() % 4)
            .map(|_| {
                let child = match self.shape_spec() {
                    ShapeSpec::Plain(shape) => shape,
                    _ => Shape::Sphere(Sphere::new(self.vec3(), self.size())),
                };
                (child, self.transform())
            })
            .collect();
        ShapeSpec::Compound(children)
    }

    /// A height field: up to 6 × 6 samples (fewer than 2 a side refused),
    /// heights of any float, a scale of sizes or any floats, holes or none.
    fn heightfield(&mut self) -> ShapeSpec {
        let (columns, rows) = (usize::from(self.u8() % 7), usize::from(self.u8() % 7));
        let heights = (0..columns * rows).map(|_| self.f32()).collect();
        let scale = if self.bool() { self.size3() } else { self.vec3() };
        let cells = columns.saturating_sub(1) * rows.saturating_sub(1);
        let holes = self.bool().then(|| (0..cells).map(|_| self.u8() % 3 == 0).collect());
        ShapeSpec::HeightField(HeightFieldSpec {
            columns,
            rows,
            heights,
            scale,
            holes,
        })
    }

    fn mesh(&mut self) -> ShapeSpec {
        let vertices: Vec<Vec3> = (0..self.u8() % 7).map(|_| self.vec3()).collect();
        let n = vertices.len() as u32;
        let triangles = (0..self.u8() % 5)
            .map(|_| {
                [0; 3].map(|_: u32| match self.u8() {
                    0..=239 => u32::from(self.u8()) % (n + 1),
                    _ => self.u32(),
                })
            })
            .collect();
        ShapeSpec::Mesh(vertices, triangles)
    }

    /// A search radius: mostly a size, sometimes any float (negative, NaN, ∞).
    pub fn max_distance(&mut self) -> f32 {
        if self.u8() % 4 == 0 {
            self.f32()
        } else {
            self.size() * 4.0
        }
    }

    pub fn bits(&mut self) -> u64 {
        match self.u8() % 8 {
            0..=2 => u64::MAX,
            3 => 1,
            4 => 2,
            5 => 6,
            6 => 0,
            _ => self.u64(),
        }
    }

    pub fn filter(&mut self) -> Filter {
        if self.bool() {
            Filter::DEFAULT
        } else {
            Filter {
                category: self.bits(),
                mask: self.bits(),
            }
        }
    }

    pub fn desc(&mut self) -> ColliderDesc {
        ColliderDesc {
            shape: self.shape(),
            transform: if self.bool() {
                Transform::IDENTITY
            } else {
                self.transform()
            },
            should_rotate: self.bool(),
            user_data: u64::from(self.u8()),
            filter: self.filter(),
        }
    }
}

// ---------------------------------------------------------------------------
// Expected errors, written out from the documentation (not by calling the
// validation code under test).

/// The variant of an error, ignoring the message of `NonFinite` and
/// `InvalidArgument` (which names the field) but not the axis of
/// `InvertedBox`.
pub fn same_error(a: Error, b: Error) -> bool {
    match (a, b) {
        (Error::NonFinite(_), Error::NonFinite(_)) => true,
        (Error::InvalidArgument(_), Error::InvalidArgument(_)) => true,
        _ => a == b,
    }
}

/// Whether a shape is a triangle surface: a mesh or a height field.
fn is_surface(shape: &Shape) -> bool {
    matches!(shape, Shape::Mesh(_) | Shape::HeightField(_))
}

fn finite(v: Vec3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}

/// What the shape's validation must say: non-finite numbers, then an
/// inverted axis (x, y, z in order), then a negative radius.
pub fn expected_shape_error(shape: &Shape) -> Option<Error> {
    match shape {
        Shape::Aabb(b) => {
            if !finite(b.min) || !finite(b.max) {
                return Some(Error::NonFinite(""));
            }
            ["x", "y", "z"]
                .iter()
                .enumerate()
                .find(|&(axis, _)| b.min[axis] > b.max[axis])
                .map(|(_, name)| Error::InvertedBox(name))
        }
        Shape::Sphere(s) => {
            if !finite(s.center) || !s.radius.is_finite() {
                Some(Error::NonFinite(""))
            } else {
                (s.radius < 0.0).then_some(Error::NegativeRadius)
            }
        }
        Shape::Capsule(c) => {
            if !finite(c.segment.start) || !finite(c.segment.end) || !c.radius.is_finite() {
                Some(Error::NonFinite(""))
            } else {
                (c.radius < 0.0).then_some(Error::NegativeRadius)
            }
        }
        Shape::Obb(o) => {
            let q = o.rotation;
            if !finite(o.center) || !finite(o.half_extents) || ![q.x, q.y, q.z, q.w].iter().all(|v| v.is_finite()) {
                return Some(Error::NonFinite(""));
            }
            if let Some(axis) = (0..3).find(|&axis| o.half_extents[axis] < 0.0) {
                return Some(Error::InvertedBox(["x", "y", "z"][axis]));
            }
            ((q.length_squared() - 1.0).abs() > collide::math::UNIT_QUAT_TOLERANCE)
                .then_some(Error::InvalidArgument(""))
        }
        // Degenerate triangles are allowed; corners more than `f32::MAX`
        // apart on an axis are not (F30).
        Shape::Triangle(t) => (!finite(t.a) || !finite(t.b) || !finite(t.c) || !edges_finite(t.a, t.b, t.c))
            .then_some(Error::NonFinite("")),
        Shape::Cylinder(c) => {
            if !finite(c.segment.start) || !finite(c.segment.end) || !c.radius.is_finite() {
                Some(Error::NonFinite(""))
            } else {
                (c.radius < 0.0).then_some(Error::NegativeRadius)
            }
        }
        Shape::Cone(c) => {
            if !finite(c.base_center) || !finite(c.apex) || !c.radius.is_finite() {
                Some(Error::NonFinite(""))
            } else {
                (c.radius < 0.0).then_some(Error::NegativeRadius)
            }
        }
        // Checked when built; its centre and bounding radius must be finite.
        Shape::Hull(h) => (!h.center().is_finite() || !h.bounding_radius().is_finite()).then_some(Error::NonFinite("")),
        Shape::Mesh(m) => {
            let b = m.bounding_aabb();
            (!finite(b.min) || !finite(b.max)).then_some(Error::NonFinite(""))
        }
        // Checked when built and placed.
        _ => None,
    }
}

/// What a query taking a convex shape (overlap, shape cast, closest, move
/// and slide) must say of it: a mesh is refused (`InvalidArgument`), then
/// the shape's own validation.
pub fn expected_query_shape_error(shape: &Shape) -> Option<Error> {
    if is_surface(shape) {
        return Some(Error::InvalidArgument(""));
    }
    expected_shape_error(shape)
}

/// What a motion must not be ([`World::cast_shape`],
/// [`World::move_and_slide`]): non-finite, or carrying the shape's bounds
/// beyond `f32`.
pub fn expected_motion_error(shape: &Shape, motion: Vec3) -> Option<Error> {
    let b = shape.bounding_aabb();
    (!finite(motion) || !finite(b.min + motion) || !finite(b.max + motion)).then_some(Error::NonFinite(""))
}

/// `|v|` without overflow or underflow: `v.length()` where it is between
/// 1e-18 and 1e18, else measured on `v` scaled to a largest component of 1
/// (the library's rule, which the model's move-and-slide must follow to
/// the bit).
fn length_without_overflow(v: Vec3) -> f32 {
    let plain = v.length();
    if (1.0e-18..=1.0e18).contains(&plain) {
        return plain;
    }
    let largest = v.abs().max_element();
    if largest > 0.0 && largest.is_finite() {
        (v / largest).length() * largest
    } else {
        plain
    }
}

/// What `World::closest` must say of a search radius (after the shape):
/// non-finite, negative, or growing the shape's bounds beyond `f32`.
pub fn expected_max_distance_error(shape: &Shape, max_distance: f32) -> Option<Error> {
    if !max_distance.is_finite() {
        return Some(Error::NonFinite(""));
    }
    if max_distance < 0.0 {
        return Some(Error::InvalidArgument(""));
    }
    let reach = shape.bounding_aabb().expanded(max_distance);
    (!finite(reach.min) || !finite(reach.max)).then_some(Error::NonFinite(""))
}

/// The points of a convex hull, by family: what `ConvexHull::from_points`
/// must do with each follows from its documentation (a non-finite point:
/// `NonFinite`; fewer than four points, coincident, collinear or coplanar
/// ones: `InvalidArgument`).
#[derive(Debug, Clone)]
pub enum HullPoints {
    /// Any points: a hull, or `InvalidArgument`.
    Any(Vec<Vec3>),
    /// A box's corners `min + size ∘ {0, 1}³` among duplicates, an interior
    /// point and one on a face: for a solid box (see [`solid_box`]), a hull
    /// of exactly the eight corners.
    Box { points: Vec<Vec3>, min: Vec3, size: Vec3 },
    /// Points of one plane `z = c`: `InvalidArgument`.
    Coplanar(Vec<Vec3>),
    /// One point repeated: `InvalidArgument`.
    Coincident(Vec<Vec3>),
}

impl HullPoints {
    /// The points, as passed to the constructor.
    pub fn points(&self) -> &[Vec3] {
        match self {
            HullPoints::Any(p) | HullPoints::Coplanar(p) | HullPoints::Coincident(p) => p,
            HullPoints::Box { points, .. } => points,
        }
    }
}

/// Whether a box of `size` at `min` is solid at the hull's tolerance with
/// room to spare: every side at least 0.25, at most 1e3, within ±1e4.
pub fn solid_box(min: Vec3, size: Vec3) -> bool {
    size.min_element() >= 0.25 && size.max_element() <= 1.0e3 && min.abs().max_element() <= 1.0e4
}

/// The raw inputs of a shape: a plain shape, or what a convex hull or a
/// triangle mesh is built from.
#[derive(Debug, Clone)]
pub enum ShapeSpec {
    /// A shape needing no constructor.
    Plain(Shape),
    /// `ConvexHull::from_points`.
    Hull(HullPoints),
    /// `TriangleMesh::new(vertices, triangles)`.
    Mesh(Vec<Vec3>, Vec<[u32; 3]>),
    /// `HeightField::new`, then `with_holes` when there are holes.
    HeightField(HeightFieldSpec),
    /// `Compound::new(children)`.
    Compound(Vec<(Shape, Transform)>),
}

/// What `Compound::new` must say: no child refused; else the first child's
/// error as a collider of its shape (a box as the oriented box it is kept
/// as) placed by its pose would give (shape, pose, then placement).
pub fn expected_compound_error(children: &[(Shape, Transform)]) -> Option<Error> {
    if children.is_empty() {
        return Some(Error::InvalidArgument(""));
    }
    children.iter().find_map(|(shape, pose)| {
        if let Some(e) = expected_shape_error(shape) {
            return Some(e);
        }
        let shape = match shape {
            Shape::Aabb(b) => Shape::Obb(Obb::from(*b)),
            other => other.clone(),
        };
        let desc = ColliderDesc::new(shape).with_transform(*pose).with_should_rotate(true);
        expected_collider(&desc).err()
    })
}

/// The input of a height field: `columns × rows` heights, a scale, one
/// hole flag per cell or none.
#[derive(Debug, Clone)]
pub struct HeightFieldSpec {
    pub columns: usize,
    pub rows: usize,
    pub heights: Vec<f32>,
    pub scale: Vec3,
    pub holes: Option<Vec<bool>>,
}

/// What `HeightField::new` and `with_holes` must say, in their documented
/// order: fewer than 2 samples a side, then a height that is not finite,
/// then a scale not finite, then one not positive, then an extent that
/// overflows; then holes everywhere.
pub fn expected_heightfield_error(spec: &HeightFieldSpec) -> Option<Error> {
    if spec.columns < 2 || spec.rows < 2 {
        return Some(Error::InvalidArgument(""));
    }
    if spec.heights.iter().any(|h| !h.is_finite()) || !finite(spec.scale) {
        return Some(Error::NonFinite(""));
    }
    if !spec.scale.cmpgt(Vec3::ZERO).all() {
        return Some(Error::InvalidArgument(""));
    }
    let (lo, hi) = spec
        .heights
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    let min = Vec3::new(0.0, lo * spec.scale.y, 0.0);
    let max = Vec3::new(
        (spec.columns - 1) as f32 * spec.scale.x,
        hi * spec.scale.y,
        (spec.rows - 1) as f32 * spec.scale.z,
    );
    if !(finite(min) && finite(max) && finite(max - min)) {
        return Some(Error::NonFinite(""));
    }
    spec.holes
        .as_ref()
        .is_some_and(|h| h.iter().all(|&hole| hole))
        .then_some(Error::InvalidArgument(""))
}

impl ShapeSpec {
    /// The shape, or the constructor's refusal, checked against the
    /// constructor's documentation.
    pub fn build(&self) -> Result<Shape, Error> {
        match self {
            ShapeSpec::Plain(shape) => Ok(shape.clone()),
            ShapeSpec::Hull(spec) => {
                let result = ConvexHull::from_points(spec.points());
                check_hull(spec, &result);
                result.map(|hull| Shape::Hull(Arc::new(hull)))
            }
            ShapeSpec::Compound(children) => {
                let result = Compound::new(children.iter().cloned());
                match expected_compound_error(children) {
                    Some(e) => assert_error(
                        result.as_ref().map(|_| ()).map_err(|e| *e),
                        e,
                        &format!("Compound::new {children:?}"),
                    ),
                    None => {
                        let compound = result
                            .as_ref()
                            .unwrap_or_else(|e| panic!("Compound::new refused {children:?}: {e}"));
                        assert_eq!(compound.children().len(), children.len());
                    }
                }
                result.map(Shape::from)
            }
            ShapeSpec::HeightField(spec) => {
                let result =
                    HeightField::new(spec.columns, spec.rows, spec.heights.clone(), spec.scale).and_then(|field| {
                        match &spec.holes {
                            Some(holes) => field.with_holes(holes),
                            None => Ok(field),
                        }
                    });
                match expected_heightfield_error(spec) {
                    Some(e) => assert_error(result.as_ref().map(|_| ()).map_err(|e| *e), e, "HeightField::new"),
                    None => {
                        let field = result
                            .as_ref()
                            .unwrap_or_else(|e| panic!("HeightField::new refused: {e}"));
                        assert_eq!(
                            (field.columns(), field.rows(), field.heights()),
                            (spec.columns, spec.rows, &spec.heights[..])
                        );
                    }
                }
                result.map(Shape::HeightField)
            }
            ShapeSpec::Mesh(vertices, triangles) => {
                let result = TriangleMesh::new(vertices.clone(), triangles.clone());
                match expected_mesh_error(vertices, triangles) {
                    Some(e) => assert_error(result.as_ref().map(|_| ()).map_err(|e| *e), e, "TriangleMesh::new"),
                    None => {
                        let mesh = result
                            .as_ref()
                            .unwrap_or_else(|e| panic!("TriangleMesh::new refused: {e}"));
                        assert_eq!((mesh.vertices(), mesh.indices()), (&vertices[..], &triangles[..]));
                    }
                }
                result.map(|mesh| Shape::Mesh(Arc::new(mesh)))
            }
        }
    }
}

/// What `TriangleMesh::new` must say: a non-finite vertex, then no
/// triangle, then an index out of range, then a triangle whose corners lie
/// more than `f32::MAX` apart on an axis (F30).
pub fn expected_mesh_error(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Option<Error> {
    if vertices.iter().any(|v| !finite(*v)) {
        return Some(Error::NonFinite(""));
    }
    if triangles.is_empty() || triangles.iter().flatten().any(|&i| i as usize >= vertices.len()) {
        return Some(Error::InvalidArgument(""));
    }
    let corner = |i: u32| vertices[i as usize];
    triangles
        .iter()
        .any(|&[a, b, c]| !edges_finite(corner(a), corner(b), corner(c)))
        .then_some(Error::NonFinite(""))
}

/// Whether a triangle's three edges, the differences of its corners in
/// `f32`, are finite: its corners lie at most `f32::MAX` apart on each axis.
pub fn edges_finite(a: Vec3, b: Vec3, c: Vec3) -> bool {
    finite(b - a) && finite(c - a) && finite(c - b)
}

/// Asserts `ConvexHull::from_points` answered as documented for the family
/// of points, and that a hull it built holds its points: its vertices are
/// input points, and no input point lies outside a face by more than the
/// documented tolerance `ε = DEGENERATE_EPSILON · extent` (checked with
/// twice that, plus rounding, within ±1e6).
#[track_caller]
pub fn check_hull(spec: &HullPoints, result: &Result<ConvexHull, Error>) {
    let points = spec.points();
    let outcome = result.as_ref().map(|_| ()).map_err(|e| *e);
    if points.iter().any(|p| !finite(*p)) {
        return assert_error(
            outcome,
            Error::NonFinite(""),
            "ConvexHull::from_points with a non-finite point",
        );
    }
    // The centre of the points' bounds does not overflow.
    let moderate = points.iter().all(|p| p.abs().max_element() <= 1.0e30);
    let flat = Error::InvalidArgument("");
    match spec {
        _ if points.len() < 4 => assert_error(outcome, flat, "ConvexHull::from_points, fewer than 4 points"),
        HullPoints::Coincident(_) if moderate => assert_error(outcome, flat, "ConvexHull::from_points, coincident"),
        HullPoints::Coplanar(_) if moderate => assert_error(outcome, flat, "ConvexHull::from_points, coplanar"),
        HullPoints::Box { min, size, .. } if solid_box(*min, *size) => {
            let hull = result
                .as_ref()
                .unwrap_or_else(|e| panic!("ConvexHull::from_points refused a box {min:?} + {size:?}: {e}"));
            // Every corner, and besides only points on the box's surface (a
            // point on a face taken into the first tetrahedron stays: F13).
            let corner =
                |i: i32| *min + *size * Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32);
            for c in (0..8).map(corner) {
                assert!(
                    hull.vertices().contains(&c),
                    "the hull of a box misses its corner {c:?}: {hull:?}"
                );
            }
            let max = *min + *size;
            for v in hull.vertices() {
                let on_surface = (0..3).any(|axis| v[axis] == min[axis] || v[axis] == max[axis]);
                assert!(on_surface, "the hull of a box has the interior vertex {v:?}");
            }
        }
        _ => {
            if let Err(e) = outcome {
                assert!(matches!(e, Error::InvalidArgument(_)), "ConvexHull::from_points: {e:?}");
            }
        }
    }
    let Ok(hull) = result else { return };
    assert!(
        hull.vertices().len() >= 4 && !hull.planes().is_empty(),
        "a hull with volume"
    );
    for v in hull.vertices() {
        assert!(
            points.contains(v),
            "hull vertex {v:?} is not an input point of {points:?}"
        );
    }
    if points.iter().all(|p| p.abs().max_element() <= 1.0e6) {
        let (lo, hi) = points
            .iter()
            .fold((points[0], points[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let centre = (lo + hi) * 0.5;
        let extent = points.iter().map(|p| (*p - centre).length()).fold(0.0f32, f32::max);
        let scale = lo.abs().max(hi.abs()).max_element();
        let slack = 2.0 * collide::math::DEGENERATE_EPSILON * extent + 64.0 * f32::EPSILON * scale;
        for p in points {
            for plane in hull.planes() {
                assert!(
                    plane.signed_distance(*p) <= slack,
                    "input point {p:?} is {} outside a face {plane:?} of the hull",
                    plane.signed_distance(*p)
                );
            }
        }
    }
}

/// What the transform's validation must say: a non-finite number, or a
/// rotation with `| |q|² − 1 | > 1e-3`.
pub fn expected_transform_error(t: &Transform) -> Option<Error> {
    let q = t.rotation;
    if !finite(t.translation) || !finite(t.scale) || ![q.x, q.y, q.z, q.w].iter().all(|v| v.is_finite()) {
        return Some(Error::NonFinite(""));
    }
    let n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    ((n2 - 1.0).abs() > collide::math::UNIT_QUAT_TOLERANCE).then_some(Error::InvalidArgument(""))
}

/// A hit of the model's brute force.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelHit {
    pub key: ColliderKey,
    pub cast: collide::CastHit,
    /// The exact cast hits but the segment's bounds miss the collider's.
    pub ambiguous: bool,
}

/// The closest of `hits` by `(t, key)`, among those `keep` keeps.
pub fn closest(hits: &[ModelHit], keep: impl Fn(&ModelHit) -> bool) -> Option<ModelHit> {
    hits.iter()
        .filter(|h| keep(h))
        .min_by(|a, b| {
            // As `segment_cast` compares (`<`): −0.0 and 0.0 tie.
            let t = a.cast.t.partial_cmp(&b.cast.t).unwrap_or(core::cmp::Ordering::Equal);
            t.then(a.key.cmp(&b.key))
        })
        .copied()
}

/// A collider as the model holds it: its description (rotation
/// renormalised) and world shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: ColliderKey,
    pub desc: ColliderDesc,
    pub world_shape: Shape,
}

/// The validated description and world shape of `desc`, or the error the
/// world must give: the shape's, then the transform's, then a non-finite
/// world shape or bounds (a finite scale or translation that overflows).
pub fn expected_collider(desc: &ColliderDesc) -> Result<(ColliderDesc, Shape), Error> {
    if let Some(e) = expected_shape_error(&desc.shape) {
        return Err(e);
    }
    if let Some(e) = expected_transform_error(&desc.transform) {
        return Err(e);
    }
    // Renormalised unless already unit to rounding (`Transform::validated`).
    let q = desc.transform.rotation;
    let transform = Transform {
        rotation: if (q.length_squared() - 1.0).abs() <= 8.0 * f32::EPSILON {
            q
        } else {
            q.normalize()
        },
        ..desc.transform
    };
    let desc = ColliderDesc {
        transform,
        ..desc.clone()
    };
    // A hull is mapped by an invertible linear map: a zero scale is refused
    // (the identity shares the hull).
    if matches!(desc.shape, Shape::Hull(_))
        && desc.transform != Transform::IDENTITY
        && desc.transform.scale.cmpeq(Vec3::ZERO).any()
    {
        return Err(Error::InvalidArgument(""));
    }
    // A height field is moved and scaled (positive scales), never rotated.
    if matches!(desc.shape, Shape::HeightField(_))
        && desc.transform != Transform::IDENTITY
        && (desc.transform.rotation.xyz() != Vec3::ZERO || !desc.transform.scale.cmpgt(Vec3::ZERO).all())
    {
        return Err(Error::InvalidArgument(""));
    }
    let world_shape = match desc.shape.transformed(&desc.transform, desc.should_rotate) {
        Ok(shape) => shape,
        Err(e) => {
            // Documented: a mapped hull, mesh or height field that
            // overflows, and a cylinder or cone whose axis would lose its
            // direction to rounding (`Shape::transformed`'s rule).
            // A compound places each child by these rules (a hull child
            // refuses a zero scale).
            let overflow = matches!(e, Error::NonFinite(_))
                && matches!(
                    desc.shape,
                    Shape::Hull(_) | Shape::Mesh(_) | Shape::HeightField(_) | Shape::Compound(_)
                );
            let axis = matches!(e, Error::InvalidArgument(_))
                && matches!(desc.shape, Shape::Cylinder(_) | Shape::Cone(_) | Shape::Compound(_));
            assert!(overflow || axis, "Shape::transformed refused {desc:?}: {e}");
            return Err(e);
        }
    };
    let bounds = world_shape.bounding_aabb();
    let numbers_finite = match &world_shape {
        Shape::Aabb(b) => finite(b.min) && finite(b.max),
        Shape::Sphere(s) => finite(s.center) && s.radius.is_finite(),
        Shape::Capsule(c) => finite(c.segment.start) && finite(c.segment.end) && c.radius.is_finite(),
        Shape::Obb(o) => finite(o.center) && finite(o.half_extents) && o.rotation.is_finite(),
        Shape::Triangle(t) => finite(t.a) && finite(t.b) && finite(t.c) && edges_finite(t.a, t.b, t.c),
        Shape::Cylinder(c) => finite(c.segment.start) && finite(c.segment.end) && c.radius.is_finite(),
        Shape::Cone(c) => finite(c.base_center) && finite(c.apex) && c.radius.is_finite(),
        Shape::Hull(h) => h.center().is_finite() && h.bounding_radius().is_finite(),
        // Their bounds are their vertices' (samples').
        _ => true,
    };
    if !finite(bounds.min) || !finite(bounds.max) || !numbers_finite {
        return Err(Error::NonFinite(""));
    }
    Ok((desc, world_shape))
}

/// What a segment query must refuse: a non-finite end point, or a
/// direction `end − start` that overflows.
pub fn expected_segment_error(s: &Segment) -> Option<Error> {
    (!finite(s.start) || !finite(s.end) || !finite(s.end - s.start)).then_some(Error::NonFinite(""))
}

/// Asserts `result` is the expected error.
#[track_caller]
pub fn assert_error<T: core::fmt::Debug>(result: Result<T, Error>, expected: Error, what: &str) {
    match result {
        Err(e) if same_error(e, expected) => {}
        other => panic!("{what}: expected {expected:?}, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// The model.

/// The world as a plain list: brute force over it is the reference.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// Sorted by key (slot order), as `World::iter` yields them.
    pub entries: Vec<Entry>,
    pub max_colliders: usize,
    /// The pairs of the last `pair_events` call.
    pub previous_pairs: Vec<Pair>,
    pub began: Vec<Pair>,
    pub ended: Vec<Pair>,
}

impl Model {
    pub fn get(&self, key: ColliderKey) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    fn get_mut(&mut self, key: ColliderKey) -> Option<&mut Entry> {
        self.entries.iter_mut().find(|e| e.key == key)
    }

    fn insert(&mut self, entry: Entry) {
        assert!(self.get(entry.key).is_none(), "key {:?} handed out twice", entry.key);
        let at = self.entries.partition_point(|e| e.key < entry.key);
        self.entries.insert(at, entry);
    }

    fn user_data(&self, key: ColliderKey) -> u64 {
        self.get(key).expect("a live key").desc.user_data
    }

    /// Every exact hit (`Shape::cast_segment`) of a collider the filter
    /// accepts, in key order, each marked ambiguous when the segment does
    /// not touch the collider's bounds (decided in `f64`): a segment cannot
    /// touch a shape without, so such a hit is the exact test's rounding (a
    /// start within an ulp outside a sphere read as inside, a gap that
    /// squares to 0 (F2), a cast so large its point lands elsewhere (F6)),
    /// and the tree, whose box test runs first, may report it or not (F5).
    pub fn all_hits(&self, segment: &Segment, filter: &QueryFilter) -> Vec<ModelHit> {
        let reach = segment_bounds(segment);
        self.entries
            .iter()
            .filter(|e| filter.accepts(e.key, &e.desc.filter))
            .filter_map(|e| {
                let cast = e.world_shape.cast_segment(segment)?;
                let bounds = e.world_shape.bounding_aabb();
                let ambiguous =
                    entry_t(segment, &bounds).is_none_or(|t| hits_early(cast.t, t)) || creeps_onto(segment, &bounds);
                if !reach.intersects_aabb(&bounds) {
                    check_segment_gap(segment, &e.world_shape);
                }
                Some(ModelHit {
                    key: e.key,
                    cast,
                    ambiguous,
                })
            })
            .collect()
    }

    /// Every overlapping, interacting pair, `a < b`, sorted (see
    /// [`EXACT_RANGE`] for why the bounds must overlap too). Every finder
    /// tests a pair in key order, as this does, so every finder must give
    /// exactly these pairs; and where both shapes are closed forms the
    /// exact test is symmetric, rounding included (it was not for capsules:
    /// finding F10).
    pub fn pairs(&self) -> Vec<Pair> {
        let mut pairs = Vec::new();
        for (i, a) in self.entries.iter().enumerate() {
            for b in &self.entries[i + 1..] {
                let bounds = a
                    .world_shape
                    .bounding_aabb()
                    .intersects_aabb(&b.world_shape.bounding_aabb());
                let exact = a.world_shape.intersects(&b.world_shape);
                if exact && !bounds {
                    check_exact_gap(&a.world_shape, &b.world_shape);
                }
                if closed_form(&a.world_shape) && closed_form(&b.world_shape) {
                    assert_eq!(
                        exact,
                        b.world_shape.intersects(&a.world_shape),
                        "{:?} and {:?}: the exact test depends on the order",
                        a.world_shape,
                        b.world_shape
                    );
                }
                if a.desc.filter.interacts_with(&b.desc.filter) && bounds && exact {
                    pairs.push(Pair {
                        a: a.key,
                        b: b.key,
                        user_a: a.desc.user_data,
                        user_b: b.desc.user_data,
                    });
                }
            }
        }
        pairs
    }

    /// Asserts a finder's pairs: exactly the model's (sorted, each once).
    #[track_caller]
    pub fn check_pairs(&self, got: &[Pair], what: &str) {
        assert_eq!(got, self.pairs().as_slice(), "{what}");
    }

    /// The colliders a region query must find, in key order (see
    /// [`EXACT_RANGE`] for why the bounds must overlap too).
    pub fn overlap(&self, shape: &Shape, filter: &QueryFilter) -> Vec<ColliderKey> {
        let bounds = shape.bounding_aabb();
        self.entries
            .iter()
            .filter(|e| {
                let exact = shape.intersects(&e.world_shape);
                let overlap = bounds.intersects_aabb(&e.world_shape.bounding_aabb());
                if exact && !overlap {
                    check_exact_gap(shape, &e.world_shape);
                }
                filter.accepts(e.key, &e.desc.filter) && overlap && exact
            })
            .map(|e| e.key)
            .collect()
    }

    /// The first hit of `shape` moved by `motion` (`World::cast_shape`):
    /// every collider the filter accepts whose bounds meet the swept bounds
    /// (the shape's bounds at the start and at the end and between; an
    /// exact hit outside them is the exact test's tolerance, see
    /// [`check_exact_gap`]), cast by `Shape::cast_shape`; the earliest `t`
    /// among the hits `keep` keeps, ties to the smaller key.
    pub fn first_hit(
        &self,
        shape: &Shape,
        motion: Vec3,
        filter: &QueryFilter,
        keep: impl Fn(&Hit) -> bool,
    ) -> Option<Hit> {
        let b = shape.bounding_aabb();
        let swept = b.union(&Aabb::new(b.min + motion, b.max + motion));
        let mut best: Option<Hit> = None;
        for e in self.entries.iter().filter(|e| filter.accepts(e.key, &e.desc.filter)) {
            let Some(toi) = shape.cast_shape(motion, &e.world_shape) else {
                continue;
            };
            if !swept.intersects_aabb(&e.world_shape.bounding_aabb()) {
                check_cast_gap(&swept, &e.world_shape);
                continue;
            }
            let hit = Hit {
                sub_shape: toi.sub_shapes[1],
                collider: e.key,
                user_data: e.desc.user_data,
                t: toi.t,
                point: toi.point,
                normal: -toi.normal,
            };
            // Key order: a tie keeps the smaller key.
            if keep(&hit) && best.is_none_or(|b| hit.t < b.t) {
                best = Some(hit);
            }
        }
        best
    }

    /// The collider nearest to `shape` within `max_distance`
    /// (`World::closest`): every collider the filter accepts whose bounds
    /// meet the shape's bounds grown by `max_distance`, measured by
    /// `Shape::distance`; the smallest distance, ties to the smaller key.
    pub fn closest(&self, shape: &Shape, max_distance: f32, filter: &QueryFilter) -> Option<(ColliderKey, Distance)> {
        let reach = shape.bounding_aabb().expanded(max_distance);
        let mut best: Option<(ColliderKey, Distance)> = None;
        for e in self.entries.iter().filter(|e| filter.accepts(e.key, &e.desc.filter)) {
            if !reach.intersects_aabb(&e.world_shape.bounding_aabb()) {
                continue;
            }
            let d = shape.distance(&e.world_shape);
            if d.distance <= max_distance && best.is_none_or(|(_, b)| d.distance < b.distance) {
                best = Some((e.key, d));
            }
        }
        best
    }

    /// The collider the filter accepts whose bounds meet the shape's and
    /// that `shape` overlaps deepest (by a positive depth; ties to the
    /// smaller key), as a push out of it at `t = 0`, and the depth.
    fn deepest_overlap(&self, shape: &Shape, filter: &QueryFilter) -> Option<(Hit, f32)> {
        let mut best: Option<(Hit, f32)> = None;
        let bounds = shape.bounding_aabb();
        for e in self
            .entries
            .iter()
            .filter(|e| filter.accepts(e.key, &e.desc.filter) && bounds.intersects_aabb(&e.world_shape.bounding_aabb()))
        {
            let Some(c) = shape.contact(&e.world_shape) else {
                continue;
            };
            if c.depth > 0.0
                && best.is_none_or(|(b, depth)| c.depth > depth || (c.depth == depth && e.key < b.collider))
            {
                let hit = Hit {
                    sub_shape: c.sub_shapes[1],
                    collider: e.key,
                    user_data: e.desc.user_data,
                    t: 0.0,
                    point: c.point_b,
                    normal: -c.normal,
                };
                best = Some((hit, c.depth));
            }
        }
        best
    }

    /// `World::move_and_slide` over the brute force, step by step as its
    /// documentation describes: push out of the deepest overlap by its
    /// depth and the skin, up to four times; then cast (only hits the
    /// motion runs into, `normal·motion < 0`, block), travel the fraction of
    /// the motion that stops `MOVE_AND_SLIDE_SKIN` short along the normal,
    /// clip the rest against every normal met, repeat.
    pub fn move_and_slide(
        &self,
        shape: &Shape,
        motion: Vec3,
        filter: &QueryFilter,
        max_iterations: usize,
    ) -> MoveAndSlide {
        let mut result = MoveAndSlide::default();
        let mut normals: Vec<Vec3> = Vec::new();
        let mut remaining = motion;
        let mut current = shape.clone();
        for _ in 0..if max_iterations == 0 { 0 } else { 4 } {
            let Some((hit, depth)) = self.deepest_overlap(&current, filter) else {
                break;
            };
            let pushed = result.position_delta + hit.normal * (depth + MOVE_AND_SLIDE_SKIN);
            let moved = shape.translated(pushed);
            if !(finite(pushed) && expected_motion_error(&moved, remaining).is_none()) {
                break;
            }
            result.position_delta = pushed;
            current = moved;
            result.hits.push(hit);
            normals.push(hit.normal);
        }
        remaining = collide::clip_motion(remaining, &normals);
        let bounds = current.bounding_aabb();
        if !(finite(bounds.min + remaining)
            && finite(bounds.max + remaining)
            && finite(result.position_delta + remaining))
        {
            return result;
        }
        for _ in 0..max_iterations {
            if remaining == Vec3::ZERO {
                break;
            }
            // The cast reaches the skin beyond the motion's end.
            let stretched = 1.0 + MOVE_AND_SLIDE_SKIN / length_without_overflow(remaining);
            let reach = if expected_motion_error(&current, remaining * stretched).is_none() {
                stretched
            } else {
                1.0
            };
            let blocks = |h: &Hit| h.normal.dot(remaining) < 0.0;
            let Some(hit) = self.first_hit(&current, remaining * reach, filter, blocks) else {
                result.position_delta += remaining;
                break;
            };
            let into = -remaining.dot(hit.normal);
            let to_skin = hit.t * reach - MOVE_AND_SLIDE_SKIN / into;
            if to_skin >= 1.0 {
                result.position_delta += remaining;
                break;
            }
            let fraction = to_skin.clamp(0.0, 1.0);
            result.position_delta += remaining * fraction;
            current = shape.translated(result.position_delta);
            result.hits.push(hit);
            normals.push(hit.normal);
            remaining = collide::clip_motion(remaining * (1.0 - fraction), &normals);
            let bounds = current.bounding_aabb();
            if !(finite(bounds.min + remaining)
                && finite(bounds.max + remaining)
                && finite(result.position_delta + remaining))
            {
                break;
            }
        }
        result
    }

    /// The events a `pair_events` call must report, and the new previous set.
    pub fn pair_events(&mut self) {
        let current = self.pairs();
        let keys = |p: &Pair| (p.a, p.b);
        self.began = current
            .iter()
            .filter(|c| !self.previous_pairs.iter().any(|p| keys(p) == keys(c)))
            .copied()
            .collect();
        self.ended = self
            .previous_pairs
            .iter()
            .filter(|p| !current.iter().any(|c| keys(p) == keys(c)))
            .copied()
            .collect();
        self.previous_pairs = current;
    }
}

/// Whether a shape's exact tests are closed forms without tolerance (box,
/// sphere, capsule); the others go through GJK, whose shapes closer than
/// `TOUCH_TOLERANCE · s` touch (`s` their bounding radii summed).
fn closed_form(shape: &Shape) -> bool {
    matches!(shape, Shape::Aabb(_) | Shape::Sphere(_) | Shape::Capsule(_))
}

/// Asserts that two shapes the exact test finds touching, though their
/// bounds are apart, are apart by no more than the exact test's tolerance:
/// rounding for the closed forms ([`check_bounds_gap`]), GJK's touching
/// tolerance (`TOUCH_TOLERANCE` of their sizes, taken as their bounds'
/// diagonals, twice over) otherwise; within [`EXACT_RANGE`].
#[track_caller]
pub fn check_exact_gap(a: &Shape, b: &Shape) {
    if closed_form(a) && closed_form(b) {
        return check_bounds_gap(a, b);
    }
    if !(shape_in_range(a) && shape_in_range(b)) {
        return;
    }
    let (ba, bb) = (a.bounding_aabb(), b.bounding_aabb());
    let size = (ba.max - ba.min).length() + (bb.max - bb.min).length();
    let scale = [ba.min, ba.max, bb.min, bb.max]
        .iter()
        .map(|v| v.abs().max_element())
        .fold(0.0f32, f32::max);
    let slack = 2.0 * collide::query::TOUCH_TOLERANCE * size + 8.0 * f32::EPSILON * scale + 1.0e-18;
    assert!(
        gap(&ba, &bb) <= slack,
        "{a:?} and {b:?} touch by the exact test but their bounds are {} apart (slack {slack})",
        gap(&ba, &bb)
    );
}

/// Asserts that a segment cast's hit on a collider whose bounds the
/// segment's bounds miss is a near miss: rounding for the closed forms
/// ([`check_bounds_gap`]); for the GJK ray cast (cylinders, cones, and what
/// else `Shape::cast_segment` hands to `Segment::cast_convex`), its
/// documented tolerance, "about `1e-5` of the shape's size", taken as
/// twice that of the bounds' diagonal; within [`EXACT_RANGE`].
#[track_caller]
fn check_segment_gap(segment: &Segment, target: &Shape) {
    let probe = Shape::Capsule(Capsule::new(*segment, 0.0));
    if !matches!(target, Shape::Cylinder(_) | Shape::Cone(_)) {
        return check_bounds_gap(&probe, target);
    }
    let b = target.bounding_aabb();
    let reach = segment_bounds(segment);
    if !(in_range(reach.min) && in_range(reach.max) && shape_in_range(target)) {
        return;
    }
    let scale = [reach.min, reach.max, b.min, b.max]
        .iter()
        .map(|v| v.abs().max_element())
        .fold(0.0f32, f32::max);
    let slack = 2.0e-5 * (b.max - b.min).length() + 8.0 * f32::EPSILON * scale + 1.0e-18;
    assert!(
        gap(&reach, &b) <= slack,
        "{segment:?} hits {target:?} by GJK ray casting, {} beyond its bounds (slack {slack})",
        gap(&reach, &b)
    );
}

/// Asserts that a shape cast's hit on a collider its swept bounds miss is
/// near miss: the quadratics of the closed forms lose half their digits at
/// a graze (`b² − a·c`), and GJK touches within its tolerance, so this
/// only catches a hit grossly elsewhere: a gap above `1e-3` of the sizes
/// (within [`EXACT_RANGE`]).
#[track_caller]
fn check_cast_gap(swept: &Aabb, target: &Shape) {
    let b = target.bounding_aabb();
    if !(in_range(swept.min) && in_range(swept.max) && shape_in_range(target)) {
        return;
    }
    let size = (swept.max - swept.min).length() + (b.max - b.min).length();
    let scale = [swept.min, swept.max, b.min, b.max]
        .iter()
        .map(|v| v.abs().max_element())
        .fold(0.0f32, f32::max);
    let slack = 1.0e-3 * size + 8.0 * f32::EPSILON * scale + 1.0e-18;
    assert!(
        gap(swept, &b) <= slack,
        "a shape cast swept over {swept:?} hits {target:?}, {} away",
        gap(swept, &b)
    );
}

/// Asserts what `World::cast_shape` documents of a hit: `t` in `[0, 1]`
/// and, within [`EXACT_RANGE`], a finite point and a unit normal.
#[track_caller]
fn check_shape_hit(shape: &Shape, hit: &Hit, what: &str) {
    assert!((0.0..=1.0).contains(&hit.t), "{what}: t of {hit:?} beyond [0, 1]");
    if shape_in_range(shape) && in_range(hit.point) {
        assert!(
            (hit.normal.length() - 1.0).abs() <= 1.0e-3,
            "{what}: the normal of {hit:?} is not unit"
        );
    }
}

/// Cross-checks a GJK distance within a tolerance, for shapes within ±1e4:
/// non-negative, as far as its closest points are apart, and the same both
/// ways round. GJK stops when its bounds agree to `DISTANCE_TOLERANCE`
/// relative, and shapes closer than `TOUCH_TOLERANCE · s` touch (module
/// docs of `query::gjk`): the slack is ten times that, plus rounding.
#[track_caller]
fn check_distance(a: &Shape, b: &Shape, d: &Distance) {
    assert!(d.distance >= 0.0, "a negative distance {d:?}");
    let (ba, bb) = (a.bounding_aabb(), b.bounding_aabb());
    let moderate = |v: Vec3| v.abs().max_element() <= 1.0e4;
    if !(moderate(ba.min) && moderate(ba.max) && moderate(bb.min) && moderate(bb.max)) {
        return;
    }
    let size = (ba.max - ba.min).length() + (bb.max - bb.min).length();
    let scale = [ba.min, ba.max, bb.min, bb.max]
        .iter()
        .map(|v| v.abs().max_element())
        .fold(0.0f32, f32::max);
    let slack = 1.0e-5 * (size + d.distance) + 64.0 * f32::EPSILON * scale;
    // In `f64`: the points of two shapes 1e-38 apart have a gap whose
    // square underflows in `f32`.
    let apart = (d.point_b.as_dvec3() - d.point_a.as_dvec3()).length() as f32;
    assert!(
        (apart - d.distance).abs() <= slack,
        "distance {d:?}: its points are {apart} apart (slack {slack}) for {a:?} and {b:?}"
    );
    let back = b.distance(a);
    assert!(
        (back.distance - d.distance).abs() <= slack,
        "distance {} one way, {} the other (slack {slack}) for {a:?} and {b:?}",
        d.distance,
        back.distance
    );
}

/// Whether two values are the same to the bit (their `Debug` forms, which
/// tell every `f32` apart but NaNs).
pub fn same<T: core::fmt::Debug>(a: &T, b: &T) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// Asserts the world holds exactly the model's colliders and its tree is valid.
#[track_caller]
pub fn check_world(world: &World, model: &Model) {
    assert_eq!(world.len(), model.entries.len(), "collider count");
    assert_eq!(world.is_empty(), model.entries.is_empty());
    let held: Vec<_> = world.iter().collect();
    for ((key, c), e) in held.iter().zip(&model.entries) {
        assert_eq!(*key, e.key, "keys in order");
        assert_eq!(c.key(), e.key, "the view's key");
        assert_eq!(c.desc(), e.desc, "description of {key:?}");
        assert_eq!(*c.world_shape(), e.world_shape, "world shape of {key:?}");
        assert_eq!(*c.aabb(), e.world_shape.bounding_aabb(), "world box of {key:?}");
        assert_eq!(c.is_box(), matches!(e.world_shape, Shape::Aabb(_)));
        assert!(world.contains(*key));
    }
    if let Err(e) = world.validate() {
        panic!("World::validate: {e}");
    }
}

/// Asserts a hit is the model's hit `expected` (collider, t, normal, point,
/// user data), or that both are misses.
#[track_caller]
fn check_hit(model: &Model, segment: &Segment, got: Option<Hit>, expected: Option<ModelHit>, what: &str) {
    match (got, expected) {
        (None, None) => {}
        (Some(hit), Some(e)) => {
            assert_eq!(hit.collider, e.key, "{what}: collider for {segment:?}");
            assert_eq!(hit.t.to_bits(), e.cast.t.to_bits(), "{what}: t for {segment:?}");
            assert_eq!(hit.normal, e.cast.normal, "{what}: normal for {segment:?}");
            assert_eq!(hit.point, segment.point_at(e.cast.t), "{what}: point for {segment:?}");
            assert_eq!(hit.user_data, model.user_data(e.key), "{what}: user data");
        }
        (got, expected) => panic!("{what}: got {got:?}, the model says {expected:?} for {segment:?}"),
    }
}

/// Asserts a tree cast's closest hit: the closest unambiguous hit, or an
/// ambiguous one no farther.
#[track_caller]
fn check_tree_hit(model: &Model, segment: &Segment, got: Option<Hit>, hits: &[ModelHit], what: &str) {
    let sure = closest(hits, |h| !h.ambiguous);
    match got {
        Some(hit) if hits.iter().any(|h| h.ambiguous && h.key == hit.collider) => {
            let h = hits.iter().find(|h| h.key == hit.collider).copied();
            check_hit(model, segment, Some(hit), h, what);
            assert!(
                sure.is_none_or(|s| hit.t <= s.cast.t),
                "{what}: {hit:?} is beyond {sure:?}"
            );
        }
        got => check_hit(model, segment, got, sure, what),
    }
}

/// One state of the world target: the world, its model, a second world
/// whose keys are foreign, and every key seen.
pub struct WorldRun {
    pub world: World,
    pub model: Model,
    pub other: World,
    /// Keys handed out by `world` (live or removed), `other`'s keys, forged
    /// keys and the null key.
    pub keys: Vec<ColliderKey>,
    /// Every key `world` handed out: it must never hand one out twice.
    pub issued: Vec<ColliderKey>,
}

impl WorldRun {
    pub fn new(max_colliders: usize) -> Self {
        let world = World::with_max_colliders(max_colliders);
        let model = Model {
            max_colliders: world.max_colliders(),
            ..Model::default()
        };
        Self {
            world,
            model,
            other: World::new(),
            keys: vec![ColliderKey::default()],
            issued: Vec::new(),
        }
    }

    /// A key: one seen before, or forged from any bits.
    fn key(&mut self, input: &mut Input) -> ColliderKey {
        let pick = input.u8();
        if pick < 240 {
            self.keys[usize::from(pick) % self.keys.len()]
        } else {
            PhysCollider { bits: input.u64() }.decode(0).unwrap_or_default()
        }
    }

    fn query_filter(&mut self, input: &mut Input) -> QueryFilter {
        match input.u8() % 4 {
            0 | 1 => QueryFilter::ALL,
            2 => QueryFilter::excluding(self.key(input)),
            _ => QueryFilter {
                category: input.bits(),
                mask: input.bits(),
                exclude: if input.bool() { Some(self.key(input)) } else { None },
            },
        }
    }

    fn add(&mut self, desc: ColliderDesc) {
        let result = self.world.add(desc.clone());
        if self.model.entries.len() >= self.model.max_colliders {
            return assert_error(result, Error::CapacityExceeded, "add to a full world");
        }
        match expected_collider(&desc) {
            Err(e) => assert_error(result, e, "add"),
            Ok((desc, world_shape)) => {
                let key = result.unwrap_or_else(|e| panic!("add refused {desc:?}: {e}"));
                self.issue(key);
                self.model.insert(Entry { key, desc, world_shape });
            }
        }
    }

    /// Records a key `world` handed out, checking it is new.
    fn issue(&mut self, key: ColliderKey) {
        assert!(!self.issued.contains(&key), "{key:?} handed out twice");
        self.issued.push(key);
        self.keys.push(key);
    }

    fn extend(&mut self, descs: Vec<ColliderDesc>) {
        let result = self.world.extend(descs.iter().cloned());
        let expected: Result<Vec<(ColliderDesc, Shape)>, Error> = descs.iter().map(expected_collider).collect();
        match expected {
            Err(e) => assert_error(result, e, "extend"),
            Ok(_) if descs.len() > self.model.max_colliders - self.model.entries.len() => {
                assert_error(result, Error::CapacityExceeded, "extend past the limit")
            }
            Ok(colliders) => {
                let keys = result.unwrap_or_else(|e| panic!("extend refused: {e}"));
                assert_eq!(keys.len(), colliders.len(), "one key per description");
                for (key, (desc, world_shape)) in keys.into_iter().zip(colliders) {
                    self.issue(key);
                    self.model.insert(Entry { key, desc, world_shape });
                }
            }
        }
    }

    /// A setter: `change` applied to the stored description, validated.
    fn update(&mut self, key: ColliderKey, result: Result<(), Error>, change: impl FnOnce(&mut ColliderDesc)) {
        let Some(entry) = self.model.get(key) else {
            return assert_error(result, Error::StaleHandle, "setter with a stale key");
        };
        let mut desc = entry.desc.clone();
        change(&mut desc);
        match expected_collider(&desc) {
            Err(e) => assert_error(result, e, "setter"),
            Ok((desc, world_shape)) => {
                assert_eq!(result, Ok(()), "setter refused {desc:?}");
                let entry = self.model.get_mut(key).expect("live");
                entry.desc = desc;
                entry.world_shape = world_shape;
            }
        }
    }

    /// `set_transforms` or `set_shapes` with up to five entries (any keys,
    /// repeated, stale or foreign ones included): the model applies one
    /// update per entry in order on a copy; at the first entry a single
    /// setter would refuse, the batch must give that error and change
    /// nothing, else the copy becomes the model.
    fn update_batch(&mut self, input: &mut Input) {
        let n = usize::from(input.u8() % 6);
        let set_shapes = input.bool();
        let mut transforms = Vec::new();
        let mut shapes = Vec::new();
        for _ in 0..n {
            let key = self.key(input);
            if set_shapes {
                shapes.push((key, input.shape()));
            } else {
                transforms.push((key, input.transform()));
            }
        }
        let result = if set_shapes {
            self.world.set_shapes(&shapes)
        } else {
            self.world.set_transforms(&transforms)
        };
        let mut expected = self.model.clone();
        for i in 0..n {
            let key = if set_shapes { shapes[i].0 } else { transforms[i].0 };
            let Some(entry) = expected.get(key) else {
                return assert_error(result, Error::StaleHandle, "batch update with a stale key");
            };
            let mut desc = entry.desc.clone();
            if set_shapes {
                desc.shape = shapes[i].1.clone();
            } else {
                desc.transform = transforms[i].1;
            }
            match expected_collider(&desc) {
                Err(e) => return assert_error(result, e, "batch update"),
                Ok((desc, world_shape)) => {
                    let entry = expected.get_mut(key).expect("live");
                    entry.desc = desc;
                    entry.world_shape = world_shape;
                }
            }
        }
        assert_eq!(result, Ok(()), "batch update refused");
        self.model = expected;
    }

    /// Runs one step decoded from `input`, checking it against the model.
    pub fn step(&mut self, input: &mut Input) {
        let op = input.u8();
        if op >= 248 {
            self.update_batch(input);
            return check_world(&self.world, &self.model);
        }
        if op >= 176 {
            self.narrow_query((op - 176) % 8, input);
            return check_world(&self.world, &self.model);
        }
        match op % 22 {
            0..=2 => {
                let desc = input.desc();
                self.add(desc);
            }
            3 => {
                let n = usize::from(input.u8() % 9);
                let descs = (0..n).map(|_| input.desc()).collect();
                self.extend(descs);
            }
            4 => {
                let key = self.key(input);
                let result = self.world.remove(key);
                match self.model.get(key).cloned() {
                    None => assert_error(result, Error::StaleHandle, "remove a stale key"),
                    Some(entry) => {
                        let removed = result.unwrap_or_else(|e| panic!("remove refused a live key: {e}"));
                        assert_eq!(removed, entry.desc, "remove returns the description");
                        self.model.entries.retain(|e| e.key != key);
                        assert!(!self.world.contains(key) && self.world.get(key).is_none());
                    }
                }
            }
            5 | 6 => {
                let key = self.key(input);
                let transform = input.transform();
                let result = self.world.set_transform(key, transform);
                self.update(key, result, |d| d.transform = transform);
            }
            7 => {
                let key = self.key(input);
                let shape = input.shape();
                let result = self.world.set_shape(key, shape.clone());
                self.update(key, result, |d| d.shape = shape);
            }
            8 => {
                let key = self.key(input);
                let user_data = input.u64();
                let result = self.world.set_user_data(key, user_data);
                self.update(key, result, |d| d.user_data = user_data);
            }
            9 => {
                let key = self.key(input);
                let filter = input.filter();
                let result = self.world.set_filter(key, filter);
                self.update(key, result, |d| d.filter = filter);
            }
            10 => {
                let key = self.key(input);
                let should_rotate = input.bool();
                let result = self.world.set_should_rotate(key, should_rotate);
                self.update(key, result, |d| d.should_rotate = should_rotate);
            }
            11 => {
                if input.bool() {
                    self.world.optimize();
                } else {
                    self.world = self.world.clone();
                }
            }
            12 | 13 => {
                let segment = input.segment();
                let filter = self.query_filter(input);
                self.cast(&segment, &filter);
            }
            14 => {
                let n = usize::from(input.u8() % 6);
                let segments: Vec<Segment> = (0..n).map(|_| input.segment()).collect();
                let slots = if input.u8() % 8 == 0 { n + 1 } else { n };
                let filter = self.query_filter(input);
                self.cast_batch(&segments, slots, &filter);
            }
            15 => {
                let shape = input.shape();
                let filter = self.query_filter(input);
                self.overlap(&shape, &filter);
            }
            16 => {
                let mut got = Vec::new();
                self.world.test_pairwise(|p| got.push(p));
                // The same tests in the same order: exactly the model's.
                assert_eq!(got, self.model.pairs(), "test_pairwise");
            }
            17 => {
                let mut got = Vec::new();
                self.world.test_sweep_and_prune(|p| got.push(p));
                self.model.check_pairs(&got, "test_sweep_and_prune");
                self.model
                    .check_pairs(self.world.pairs_sweep_and_prune(), "pairs_sweep_and_prune");
            }
            18 => {
                self.model.check_pairs(self.world.pairs(), "pairs");
            }
            19 => {
                self.model.pair_events();
                let events = self.world.pair_events();
                assert_eq!(events.began, self.model.began.as_slice(), "pair_events began");
                assert_eq!(events.ended, self.model.ended.as_slice(), "pair_events ended");
                let last = self.world.last_pair_events();
                assert_eq!(last.began, self.model.began.as_slice(), "last_pair_events began");
                assert_eq!(last.ended, self.model.ended.as_slice(), "last_pair_events ended");
            }
            20 => {
                // A collider of the other world: its key is foreign here.
                if let Ok(key) = self.other.add(input.desc()) {
                    self.keys.push(key);
                }
            }
            _ => {
                // Reads with any key.
                let key = self.key(input);
                let expected = self.model.get(key);
                assert_eq!(self.world.contains(key), expected.is_some(), "contains");
                assert_eq!(
                    self.world.get(key).map(|c| c.desc()),
                    expected.map(|e| e.desc.clone()),
                    "get"
                );
                let _ = self.world.memory_bytes();
            }
        }
        check_world(&self.world, &self.model);
    }

    /// One of the narrow phase's queries: shape cast, closest, closest
    /// point, distance, contact, move and slide.
    fn narrow_query(&mut self, which: u8, input: &mut Input) {
        match which {
            0 | 1 => {
                let shape = input.shape();
                let motion = input.vec3();
                let filter = self.query_filter(input);
                self.shape_cast(&shape, motion, &filter);
            }
            2 => {
                let shape = input.shape();
                let max_distance = input.max_distance();
                let filter = self.query_filter(input);
                self.closest(&shape, max_distance, &filter, None);
            }
            3 => {
                let point = input.vec3();
                let max_distance = input.max_distance();
                let filter = self.query_filter(input);
                self.closest(
                    &Shape::Sphere(Sphere::new(point, 0.0)),
                    max_distance,
                    &filter,
                    Some(point),
                );
            }
            4 | 5 => {
                let (a, b) = (self.key(input), self.key(input));
                if which == 4 {
                    self.distance(a, b);
                } else {
                    self.contact(a, b);
                }
            }
            6 => {
                let shape = input.shape();
                let motion = input.vec3();
                let filter = self.query_filter(input);
                let max_iterations = usize::from(input.u8() % 8);
                self.move_and_slide(&shape, motion, &filter, max_iterations);
            }
            _ => {
                // Two live colliders, when there are any: distance and contact.
                let n = self.model.entries.len().max(1);
                let pick = |i: u8| {
                    self.model
                        .entries
                        .get(usize::from(i) % n)
                        .map_or(ColliderKey::default(), |e| e.key)
                };
                let (a, b) = (pick(input.u8()), pick(input.u8()));
                self.distance(a, b);
                self.contact(a, b);
            }
        }
    }

    fn shape_cast(&mut self, shape: &Shape, motion: Vec3, filter: &QueryFilter) {
        let result = self.world.cast_shape(shape, motion, filter);
        if let Some(e) = expected_query_shape_error(shape).or_else(|| expected_motion_error(shape, motion)) {
            return assert_error(result, e, "shape_cast");
        }
        let got = result.unwrap_or_else(|e| panic!("shape_cast refused {shape:?} by {motion:?}: {e}"));
        let expected = self.model.first_hit(shape, motion, filter, |_| true);
        assert!(
            same(&got, &expected),
            "shape_cast of {shape:?} by {motion:?}: {got:?}, the model says {expected:?}"
        );
        if let Some(hit) = got {
            check_shape_hit(shape, &hit, &format!("shape_cast of {shape:?} by {motion:?}"));
        }
    }

    fn closest(&mut self, shape: &Shape, max_distance: f32, filter: &QueryFilter, point: Option<Vec3>) {
        let result = match point {
            Some(p) => self.world.project_point(p, max_distance, filter),
            None => self.world.closest(shape, max_distance, filter),
        };
        let what = if point.is_some() { "closest_point" } else { "closest" };
        if let Some(e) = expected_query_shape_error(shape).or_else(|| expected_max_distance_error(shape, max_distance))
        {
            return assert_error(result, e, what);
        }
        let got = result.unwrap_or_else(|e| panic!("{what} refused {shape:?} within {max_distance}: {e}"));
        let expected = self.model.closest(shape, max_distance, filter);
        assert!(
            same(&got, &expected),
            "{what} of {shape:?} within {max_distance}: {got:?}, the model says {expected:?}"
        );
        if let Some((_, d)) = got {
            assert!(
                (0.0..=max_distance).contains(&d.distance),
                "{what}: distance {} beyond [0, {max_distance}]",
                d.distance
            );
        }
    }

    fn distance(&mut self, a: ColliderKey, b: ColliderKey) {
        let result = self.world.distance(a, b);
        let (Some(ea), Some(eb)) = (self.model.get(a), self.model.get(b)) else {
            return assert_error(result, Error::StaleHandle, "distance with a stale key");
        };
        if is_surface(&ea.world_shape) && is_surface(&eb.world_shape) {
            return assert_error(result, Error::InvalidArgument(""), "distance between two surfaces");
        }
        let got = result.unwrap_or_else(|e| panic!("distance refused live keys: {e}"));
        let expected = ea.world_shape.distance(&eb.world_shape);
        assert!(same(&got, &expected), "distance: {got:?}, the model says {expected:?}");
        check_distance(&ea.world_shape, &eb.world_shape, &got);
    }

    fn contact(&mut self, a: ColliderKey, b: ColliderKey) {
        let result = self.world.contact(a, b);
        let (Some(ea), Some(eb)) = (self.model.get(a), self.model.get(b)) else {
            return assert_error(result, Error::StaleHandle, "contact with a stale key");
        };
        let got = result.unwrap_or_else(|e| panic!("contact refused live keys: {e}"));
        let expected = ea.world_shape.contact(&eb.world_shape);
        assert!(same(&got, &expected), "contact: {got:?}, the model says {expected:?}");
        if is_surface(&ea.world_shape) && is_surface(&eb.world_shape) {
            assert!(got.is_none(), "two surfaces never touch");
        }
        if let Some(c) = got {
            if shape_in_range(&ea.world_shape) && shape_in_range(&eb.world_shape) {
                assert!(c.depth >= 0.0 && c.depth.is_finite(), "contact depth {c:?}");
                assert!(
                    (c.normal.length() - 1.0).abs() <= 1.0e-3,
                    "contact normal not unit: {c:?}"
                );
            }
        }
    }

    fn move_and_slide(&mut self, shape: &Shape, motion: Vec3, filter: &QueryFilter, max_iterations: usize) {
        let result = self.world.move_and_slide(shape, motion, filter, max_iterations);
        if let Some(e) = expected_query_shape_error(shape).or_else(|| expected_motion_error(shape, motion)) {
            return assert_error(result, e, "move_and_slide");
        }
        let got = result.unwrap_or_else(|e| panic!("move_and_slide refused {shape:?} by {motion:?}: {e}"));
        let expected = self.model.move_and_slide(shape, motion, filter, max_iterations);
        assert!(
            same(&got, &expected),
            "move_and_slide of {shape:?} by {motion:?}: {got:?}, the model says {expected:?}"
        );
        assert!(
            got.hits.len() <= max_iterations + 4,
            "one hit per push and per cast at most"
        );
        assert!(
            finite(got.position_delta),
            "move_and_slide of {shape:?} by {motion:?} moved by {:?}",
            got.position_delta
        );
        for hit in &got.hits {
            check_shape_hit(shape, hit, &format!("move_and_slide of {shape:?} by {motion:?}"));
        }
    }

    fn cast(&mut self, segment: &Segment, filter: &QueryFilter) {
        let tree = self.world.segment_cast(segment, filter);
        let brute = self.world.segment_cast_brute_force(segment, filter);
        let any = self.world.segment_cast_any(segment, filter);
        let mut all = vec![];
        let all_result = self.world.segment_cast_all(segment, filter, &mut all);
        if let Some(e) = expected_segment_error(segment) {
            assert_error(tree, e, "segment_cast");
            assert_error(brute, e, "segment_cast_brute_force");
            assert_error(any, e, "segment_cast_any");
            assert_error(all_result, e, "segment_cast_all");
            return;
        }
        let hits = self.model.all_hits(segment, filter);
        let closest_hit = tree.unwrap_or_else(|e| panic!("segment_cast refused {segment:?}: {e}"));
        check_tree_hit(&self.model, segment, closest_hit, &hits, "segment_cast");
        // The brute force has no box test: the closest of every exact hit.
        let brute = brute.unwrap_or_else(|e| panic!("segment_cast_brute_force refused {segment:?}: {e}"));
        check_hit(
            &self.model,
            segment,
            brute,
            closest(&hits, |_| true),
            "segment_cast_brute_force",
        );

        let any = any.unwrap_or_else(|e| panic!("segment_cast_any refused {segment:?}: {e}"));
        match any {
            None => assert!(
                hits.iter().all(|h| h.ambiguous),
                "segment_cast_any missed {hits:?} for {segment:?}"
            ),
            Some(hit) => {
                let found = hits.iter().find(|h| h.key == hit.collider).copied();
                check_hit(&self.model, segment, Some(hit), found, "segment_cast_any");
            }
        }
        assert_eq!(all_result, Ok(()), "segment_cast_all refused {segment:?}");
        // Sorted as `segment_cast` compares: −0.0 ties with 0.0 (F18).
        let mut sorted = hits.clone();
        sorted.sort_by(|a, b| {
            a.cast
                .t
                .partial_cmp(&b.cast.t)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(a.key.cmp(&b.key))
        });
        let mut got = all.iter().peekable();
        for h in &sorted {
            if got.peek().is_some_and(|g| g.collider == h.key) {
                check_hit(&self.model, segment, got.next().copied(), Some(*h), "segment_cast_all");
            } else {
                assert!(h.ambiguous, "segment_cast_all: {all:?} misses {h:?} for {segment:?}");
            }
        }
        assert!(
            got.next().is_none(),
            "segment_cast_all: {all:?} but the model says {sorted:?} for {segment:?}"
        );
    }

    fn cast_batch(&mut self, segments: &[Segment], slots: usize, filter: &QueryFilter) {
        let sentinel = Some(Hit {
            sub_shape: 0,
            collider: ColliderKey::default(),
            user_data: 0xdead,
            t: -1.0,
            point: Vec3::NAN,
            normal: Vec3::ZERO,
        });
        let mut hits = vec![sentinel; slots];
        let result = self.world.segment_cast_batch(segments, filter, &mut hits);
        let untouched = hits.iter().all(|h| format!("{h:?}") == format!("{sentinel:?}"));
        if slots != segments.len() {
            assert_error(result, Error::InvalidArgument(""), "segment_cast_batch with short hits");
            return assert!(untouched, "segment_cast_batch wrote on error");
        }
        if let Some(e) = segments.iter().find_map(expected_segment_error) {
            assert_error(result, e, "segment_cast_batch");
            return assert!(untouched, "segment_cast_batch wrote on error");
        }
        assert_eq!(result, Ok(()), "segment_cast_batch refused {segments:?}");
        for (segment, hit) in segments.iter().zip(hits) {
            let all = self.model.all_hits(segment, filter);
            check_tree_hit(&self.model, segment, hit, &all, "segment_cast_batch");
        }
    }

    fn overlap(&mut self, shape: &Shape, filter: &QueryFilter) {
        let mut got = Vec::new();
        let result = self
            .world
            .intersections_with_shape(shape, filter, |key, c| got.push((key, c.user_data())));
        if let Some(e) = expected_query_shape_error(shape) {
            assert_error(result, e, "overlap");
            return assert!(got.is_empty(), "overlap reported colliders on error");
        }
        assert_eq!(result, Ok(()), "overlap refused {shape:?}");
        got.sort();
        let expected: Vec<(ColliderKey, u64)> = self
            .model
            .overlap(shape, filter)
            .into_iter()
            .map(|k| (k, self.model.user_data(k)))
            .collect();
        assert_eq!(got, expected, "overlap of {shape:?}");
    }
}

/// The world target: the first byte picks the collider limit (a small one
/// sometimes, to reach `CapacityExceeded`), then steps until the bytes or
/// [`MAX_STEPS`] run out.
pub fn run_world(data: &[u8]) {
    let mut input = Input::new(data);
    let limit = match input.u8() {
        b @ 0..=31 => usize::from(b % 8),
        _ => usize::MAX,
    };
    let mut run = WorldRun::new(limit);
    let mut steps = 0;
    while !input.is_empty() && steps < MAX_STEPS {
        run.step(&mut input);
        steps += 1;
    }
    // Every pair finder agrees at the end, whatever the last step was.
    run.model.check_pairs(run.world.pairs(), "pairs at the end");
    run.model
        .check_pairs(run.world.pairs_sweep_and_prune(), "sweep and prune at the end");
    check_snapshot(&run.world, &run.model, data.len());
}

/// The world's snapshot loads as the same world (the model's colliders
/// under the same keys, the same state hash, the same next key), and
/// damaged copies of it (bits flipped where `seed` says, the end cut off)
/// load as an error or as a valid world, never a panic.
pub fn check_snapshot(world: &World, model: &Model, seed: usize) {
    let mut bytes = Vec::new();
    world.save(&mut bytes);
    let loaded = World::load(&bytes).unwrap_or_else(|e| panic!("a world's own snapshot refused: {e}"));
    check_world(&loaded, model);
    assert_eq!(loaded.state_hash(), world.state_hash(), "the state hash after a load");
    let (mut a, mut b) = (loaded.clone(), world.clone());
    let probe = ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)));
    assert_eq!(
        a.add(probe.clone()).ok(),
        b.add(probe).ok(),
        "the next key after a load"
    );
    // One of the low four bits of a byte flipped: a slot's version grows by
    // at most 2^19 (a short replay) or by 2^24 and more (over the cap,
    // refused at once); tests/snapshot.rs flips any bit.
    for i in 0..4 {
        let mut bad = bytes.clone();
        let at = (seed.wrapping_mul(31) + i * 7919) % bad.len();
        bad[at] ^= 1 << i;
        if let Ok(w) = World::load(&bad) {
            w.validate()
                .unwrap_or_else(|e| panic!("a damaged snapshot loaded broken: {e}"));
        }
        let cut = bytes.len() - 1 - (seed + i) % bytes.len();
        assert!(World::load(&bytes[..cut]).is_err(), "a snapshot cut at {cut}");
    }
}
