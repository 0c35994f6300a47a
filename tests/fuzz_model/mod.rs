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
//!   `Filter::interacts_with`) and the expected error of every invalid input.
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
    Aabb, Capsule, Collider, ColliderDesc, ColliderKey, Error, Filter, Hit, Pair, QueryFilter, Segment, Shape, Sphere,
    Transform, World,
};

/// At most this many steps per input, so an input runs in bounded time.
pub const MAX_STEPS: usize = 256;

/// The range in which the exact tests are exact. The pair and region
/// oracles are `filters interact ∧ bounds overlap ∧ Shape::intersects`: the
/// bounds test is part of the definition (every finder, `broad::naive`
/// included, runs it first) because the squared-distance tests are not exact
/// at the ends of the float range: a gap below √(f32::MIN_POSITIVE) ≈ 1e-19
/// squares to 0 and reads as touching (finding F2 of RELIABILITY.md), and
/// beyond √(f32::MAX) ≈ 1.8e19 a squared distance overflows and `∞ <= ∞`
/// reads as an overlap (F1). Within `±EXACT_RANGE` (where even the fourth
/// powers of the capsule tests stay finite) the model also checks that the
/// bounds test never drops a pair the exact test finds by more than rounding.
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
/// moving along an axis (`SlabRay::parallel` in `src/broad/bvh.rs`).
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

/// Asserts that the bounds test drops an exact overlap only by rounding:
/// within [`EXACT_RANGE`], a gap of a few ulps of the coordinates.
#[track_caller]
fn check_bounds_gap(a: &Shape, b: &Shape) {
    if !(shape_in_range(a) && shape_in_range(b)) {
        return;
    }
    let (ba, bb) = (a.bounding_aabb(), b.bounding_aabb());
    let scale = [ba.min, ba.max, bb.min, bb.max]
        .iter()
        .map(|v| v.abs().max_element())
        .fold(1.0e-30_f32, f32::max);
    // Below ~1e-18 a gap's square is subnormal or 0 (F2): absolute slack.
    assert!(
        gap(&ba, &bb) <= 8.0 * f32::EPSILON * scale + 1.0e-18,
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

    /// A shape, usually valid (a box `min + size`), sometimes raw numbers
    /// (inverted boxes, negative radii, NaN).
    pub fn shape(&mut self) -> Shape {
        match self.u8() % 6 {
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
        // The fuzzers make only the three shapes above.
        other => other.validate().err(),
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
        .min_by(|a, b| a.cast.t.total_cmp(&b.cast.t).then(a.key.cmp(&b.key)))
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
    let transform = Transform {
        rotation: desc.transform.rotation.normalize(),
        ..desc.transform
    };
    let desc = ColliderDesc {
        transform,
        ..desc.clone()
    };
    let world_shape = desc.shape.transformed(&desc.transform, desc.should_rotate)?;
    let bounds = world_shape.bounding_aabb();
    let numbers_finite = match &world_shape {
        Shape::Aabb(b) => finite(b.min) && finite(b.max),
        Shape::Sphere(s) => finite(s.center) && s.radius.is_finite(),
        Shape::Capsule(c) => finite(c.segment.start) && finite(c.segment.end) && c.radius.is_finite(),
        // The fuzzers make only the three shapes above.
        other => other.validate().is_ok(),
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
                    check_bounds_gap(&Shape::Capsule(Capsule::new(*segment, 0.0)), &e.world_shape);
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
    /// [`EXACT_RANGE`] for why the bounds must overlap too).
    pub fn pairs(&self) -> Vec<Pair> {
        self.pairs_and_asymmetric().0
    }

    /// [`Model::pairs`], and the pairs whose exact test depends on the
    /// order of its arguments (`a.intersects(b) != b.intersects(a)`: the
    /// segment-segment closest points of capsules touching at a point, or
    /// beyond [`EXACT_RANGE`]: finding F10). `test_pairwise` tests in key order as the model does;
    /// the tree and the sweep may test the other way round, so for them
    /// such a pair may be present or not.
    pub fn pairs_and_asymmetric(&self) -> (Vec<Pair>, Vec<(ColliderKey, ColliderKey)>) {
        let mut pairs = Vec::new();
        let mut asymmetric = Vec::new();
        for (i, a) in self.entries.iter().enumerate() {
            for b in &self.entries[i + 1..] {
                let bounds = a
                    .world_shape
                    .bounding_aabb()
                    .intersects_aabb(&b.world_shape.bounding_aabb());
                let exact = a.world_shape.intersects(&b.world_shape);
                if exact && !bounds {
                    check_bounds_gap(&a.world_shape, &b.world_shape);
                }
                let interact = a.desc.filter.interacts_with(&b.desc.filter) && bounds;
                // Within the exact range this happens only at tangency
                // (radius-0 capsules touching at a point: the answer is
                // the rounding's); beyond it, anywhere (F10).
                if interact && exact != b.world_shape.intersects(&a.world_shape) {
                    asymmetric.push((a.key, b.key));
                }
                if interact && exact {
                    pairs.push(Pair {
                        a: a.key,
                        b: b.key,
                        user_a: a.desc.user_data,
                        user_b: b.desc.user_data,
                    });
                }
            }
        }
        (pairs, asymmetric)
    }

    /// Asserts a finder's pairs: sorted, each once, the model's but for
    /// order-dependent ones (which may be present or not).
    #[track_caller]
    pub fn check_pairs(&self, got: &[Pair], what: &str) {
        let (expected, asymmetric) = self.pairs_and_asymmetric();
        if asymmetric.is_empty() {
            return assert_eq!(got, expected.as_slice(), "{what}");
        }
        assert!(
            got.windows(2).all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b)),
            "{what}: sorted, once"
        );
        let loose = |p: &Pair| asymmetric.contains(&(p.a, p.b));
        let sure: Vec<&Pair> = expected.iter().filter(|p| !loose(p)).collect();
        let found: Vec<&Pair> = got.iter().filter(|p| !loose(p)).collect();
        assert_eq!(found, sure, "{what} (but for {asymmetric:?})");
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
                    check_bounds_gap(shape, &e.world_shape);
                }
                filter.accepts(e.key, &e.desc.filter) && overlap && exact
            })
            .map(|e| e.key)
            .collect()
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

/// Asserts the world holds exactly the model's colliders and its tree is valid.
#[track_caller]
pub fn check_world(world: &World, model: &Model) {
    assert_eq!(world.len(), model.entries.len(), "collider count");
    assert_eq!(world.is_empty(), model.entries.is_empty());
    let held: Vec<(ColliderKey, Collider)> = world.iter().map(|(k, c)| (k, c.clone())).collect();
    for ((key, c), e) in held.iter().zip(&model.entries) {
        assert_eq!(*key, e.key, "keys in order");
        assert_eq!(*c.desc(), e.desc, "description of {key:?}");
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

    /// Runs one step decoded from `input`, checking it against the model.
    pub fn step(&mut self, input: &mut Input) {
        match input.u8() % 22 {
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
                        assert_eq!(*removed.desc(), entry.desc, "remove returns the collider");
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
                if !self.model.pairs_and_asymmetric().1.is_empty() {
                    // Order-dependent pairs: the events follow the tree's
                    // answer, checked as `pairs` is; resynchronise.
                    self.world.pair_events();
                    let current = self.world.pairs().to_vec();
                    self.model.check_pairs(&current, "pair_events");
                    self.model.previous_pairs = current;
                    return check_world(&self.world, &self.model);
                }
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
                assert_eq!(self.world.get(key).map(|c| c.desc()), expected.map(|e| &e.desc), "get");
                let _ = self.world.memory_bytes();
            }
        }
        check_world(&self.world, &self.model);
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
        let mut sorted = hits.clone();
        sorted.sort_by(|a, b| a.cast.t.total_cmp(&b.cast.t).then(a.key.cmp(&b.key)));
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
            .overlap(shape, filter, |key, c| got.push((key, c.user_data())));
        if let Some(e) = expected_shape_error(shape) {
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
}
