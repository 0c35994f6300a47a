//! Property tests of the `World`: random worlds of boxes (zero-size and
//! exactly touching ones included), spheres and capsules with random
//! transforms, filters and user data, built by random sequences of add /
//! remove / set_* (valid, stale and invalid), are held to brute-force
//! references computed here from the world shapes:
//!
//! - `segment_cast` equals the closest `Shape::cast_segment` over
//!   `world.iter()` that the query filter accepts;
//! - every pair finder equals the set of pairs whose filters interact and
//!   whose world shapes intersect, each once, `a < b`, sorted;
//! - a stale key or an invalid input gives the right error and leaves the
//!   world exactly as it was.
//!
//! Coordinates are multiples of 0.5 and rotations are often the identity or
//! quarter turns, so faces, edges and corners touch exactly and segments
//! graze them often.

use collide::math::{Quat, Vec3};
use collide::{
    Aabb, Capsule, Collider, ColliderDesc, ColliderKey, Error, Filter, Pair, QueryFilter, Segment, Shape, Sphere,
    Transform, World,
};
use proptest::prelude::*;
use std::f32::consts::{FRAC_PI_2, PI};

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

/// A multiple of 0.5 in `[-4, 4]`.
fn coord() -> impl Strategy<Value = f32> {
    (-8i32..=8).prop_map(|i| i as f32 * 0.5)
}

fn point() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A multiple of 0.5 in `[0, max_halves / 2]`.
fn length(max_halves: i32) -> impl Strategy<Value = f32> {
    (0..=max_halves).prop_map(|i| i as f32 * 0.5)
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        3 => (point(), length(6), length(6), length(6))
            .prop_map(|(min, x, y, z)| Shape::Aabb(Aabb::new(min, min + Vec3::new(x, y, z)))),
        2 => (point(), length(4)).prop_map(|(center, radius)| Shape::Sphere(Sphere::new(center, radius))),
        2 => (point(), point(), length(3)).prop_map(|(a, offset, radius)| {
            Shape::Capsule(Capsule::new(Segment::new(a, a + offset * 0.5), radius))
        }),
    ]
}

fn rotation() -> impl Strategy<Value = Quat> {
    prop_oneof![
        4 => Just(Quat::IDENTITY),
        2 => (0usize..3, 1i32..4).prop_map(|(axis, quarters)| {
            let angle = quarters as f32 * FRAC_PI_2;
            [Quat::from_rotation_x(angle), Quat::from_rotation_y(angle), Quat::from_rotation_z(angle)][axis]
        }),
        2 => (point(), -PI..PI).prop_map(|(axis, angle)| {
            Quat::from_axis_angle(axis.try_normalize().unwrap_or(Vec3::Y), angle)
        }),
        // A game's quaternion after a few products, unit only to 1e-4: the
        // world keeps it normalised.
        1 => (point(), -PI..PI).prop_map(|(axis, angle)| {
            Quat::from_axis_angle(axis.try_normalize().unwrap_or(Vec3::Y), angle) * 1.0001
        }),
    ]
}

fn scale() -> impl Strategy<Value = Vec3> {
    let factor = prop_oneof![Just(1.0f32), Just(0.5), Just(2.0), Just(-1.0), Just(0.0)];
    prop_oneof![
        4 => Just(Vec3::ONE),
        2 => factor.clone().prop_map(Vec3::splat),
        1 => (factor.clone(), factor.clone(), factor).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
    ]
}

fn transform() -> impl Strategy<Value = Transform> {
    (point(), rotation(), scale()).prop_map(|(translation, rotation, scale)| Transform {
        translation,
        rotation,
        scale,
    })
}

/// Category and mask from a few bits, so some pairs do not interact.
fn filter() -> impl Strategy<Value = Filter> {
    let category = prop_oneof![4 => Just(1u64), 1 => Just(2), 1 => Just(4), 1 => Just(3)];
    let mask = prop_oneof![4 => Just(u64::MAX), 1 => Just(1), 1 => Just(2), 1 => Just(5), 1 => Just(6), 1 => Just(0)];
    (category, mask).prop_map(|(category, mask)| Filter { category, mask })
}

fn desc() -> impl Strategy<Value = ColliderDesc> {
    (shape(), transform(), any::<bool>(), any::<u64>(), filter()).prop_map(
        |(shape, transform, should_rotate, user_data, filter)| {
            ColliderDesc::new(shape)
                .with_transform(transform)
                .with_should_rotate(should_rotate)
                .with_user_data(user_data)
                .with_filter(filter)
        },
    )
}

/// An input the world must refuse, and the error it must give.
#[derive(Debug, Clone, Copy)]
enum Invalid {
    NanTranslation,
    InfiniteScale,
    NanRotation,
    NonUnitRotation(Quat),
    InvertedBox(usize),
    NegativeSphereRadius,
    NegativeCapsuleRadius,
    NanShape,
    /// A finite scale that makes the world bounds overflow (add only).
    OverflowingBounds,
}

impl Invalid {
    /// Whether `error` is the one this input must give.
    fn expects(&self, error: Error) -> bool {
        match self {
            Invalid::NanTranslation
            | Invalid::InfiniteScale
            | Invalid::NanRotation
            | Invalid::NanShape
            | Invalid::OverflowingBounds => matches!(error, Error::NonFinite(_)),
            Invalid::NonUnitRotation(_) => matches!(error, Error::InvalidArgument(_)),
            Invalid::InvertedBox(axis) => error == Error::InvertedBox(["x", "y", "z"][*axis]),
            Invalid::NegativeSphereRadius | Invalid::NegativeCapsuleRadius => error == Error::NegativeRadius,
        }
    }

    /// Whether this is a bad transform (else a bad shape).
    fn is_transform(&self) -> bool {
        matches!(
            self,
            Invalid::NanTranslation
                | Invalid::InfiniteScale
                | Invalid::NanRotation
                | Invalid::NonUnitRotation(_)
                | Invalid::OverflowingBounds
        )
    }

    /// `base` with this fault applied (to its transform or its shape).
    fn apply(&self, base: &ColliderDesc) -> ColliderDesc {
        let mut desc = base.clone();
        let t = &mut desc.transform;
        match *self {
            Invalid::NanTranslation => t.translation.y = f32::NAN,
            Invalid::InfiniteScale => t.scale.z = f32::INFINITY,
            Invalid::NanRotation => t.rotation = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0),
            Invalid::NonUnitRotation(q) => t.rotation = q,
            Invalid::OverflowingBounds => {
                desc.shape = Shape::Aabb(Aabb::new(Vec3::splat(-4.0), Vec3::splat(4.0)));
                t.scale = Vec3::splat(1e38);
            }
            Invalid::InvertedBox(axis) => {
                let mut max = Vec3::ONE;
                max[axis] = -1.0;
                desc.shape = Shape::Aabb(Aabb::new(Vec3::ZERO, max));
            }
            Invalid::NegativeSphereRadius => desc.shape = Shape::Sphere(Sphere::new(Vec3::ONE, -0.5)),
            Invalid::NegativeCapsuleRadius => {
                desc.shape = Shape::Capsule(Capsule::new(Segment::new(Vec3::ZERO, Vec3::X), -1.0))
            }
            Invalid::NanShape => desc.shape = Shape::Sphere(Sphere::new(Vec3::new(0.0, 0.0, f32::NAN), 1.0)),
        }
        desc
    }
}

fn invalid() -> impl Strategy<Value = Invalid> {
    prop_oneof![
        Just(Invalid::NanTranslation),
        Just(Invalid::InfiniteScale),
        Just(Invalid::NanRotation),
        prop_oneof![
            Just(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
            Just(Quat::from_xyzw(0.0, 0.0, 0.0, 2.0)),
            Just(Quat::from_xyzw(0.5, 0.0, 0.0, 0.5)),
            Just(Quat::from_xyzw(0.0, 0.0, 0.0, 1.01)),
        ]
        .prop_map(Invalid::NonUnitRotation),
        (0usize..3).prop_map(Invalid::InvertedBox),
        Just(Invalid::NegativeSphereRadius),
        Just(Invalid::NegativeCapsuleRadius),
        Just(Invalid::NanShape),
        Just(Invalid::OverflowingBounds),
    ]
}

/// One step of a world's history. Indices pick a live (or removed) key modulo the count.
#[derive(Debug, Clone)]
enum Op {
    Add(ColliderDesc),
    AddInvalid(ColliderDesc, Invalid),
    Remove(usize),
    SetTransform(usize, Transform),
    SetShape(usize, Shape),
    SetFilter(usize, Filter),
    SetUserData(usize, u64),
    SetShouldRotate(usize, bool),
    SetInvalid(usize, Invalid),
    UseStale(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => desc().prop_map(Op::Add),
        1 => (desc(), invalid()).prop_map(|(d, i)| Op::AddInvalid(d, i)),
        2 => any::<usize>().prop_map(Op::Remove),
        2 => (any::<usize>(), transform()).prop_map(|(i, t)| Op::SetTransform(i, t)),
        1 => (any::<usize>(), shape()).prop_map(|(i, s)| Op::SetShape(i, s)),
        1 => (any::<usize>(), filter()).prop_map(|(i, f)| Op::SetFilter(i, f)),
        1 => (any::<usize>(), any::<u64>()).prop_map(|(i, u)| Op::SetUserData(i, u)),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(i, b)| Op::SetShouldRotate(i, b)),
        1 => (any::<usize>(), invalid()).prop_map(|(i, f)| Op::SetInvalid(i, f)),
        1 => any::<usize>().prop_map(Op::UseStale),
    ]
}

/// A query: a segment between grid points (often axis-aligned, grazing faces), and filter bits.
fn query() -> impl Strategy<Value = (Segment, QueryFilter, usize)> {
    let bits = prop_oneof![3 => Just(u64::MAX), 1 => Just(1u64), 1 => Just(2), 1 => Just(6)];
    let segment = prop_oneof![
        (point(), point()).prop_map(|(a, b)| Segment::new(a * 1.5, b * 1.5)),
        point().prop_map(|a| Segment::new(a, a)),
        (point(), 0usize..3, coord()).prop_map(|(a, axis, d)| {
            let mut b = a;
            b[axis] += d * 3.0;
            Segment::new(a, b)
        }),
    ];
    (segment, bits.clone(), bits, any::<usize>())
        .prop_map(|(segment, category, mask, exclude)| (segment, QueryFilter::with_bits(category, mask), exclude))
}

// ---------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------

/// A world and what the test knows about it.
struct Harness {
    world: World,
    live: Vec<ColliderKey>,
    removed: Vec<ColliderKey>,
}

fn snapshot(world: &World) -> Vec<(ColliderKey, Collider)> {
    world.iter().map(|(key, collider)| (key, collider.clone())).collect()
}

impl Harness {
    fn new() -> Self {
        Self {
            world: World::new(),
            live: Vec::new(),
            removed: Vec::new(),
        }
    }

    fn pick(&self, index: usize) -> Option<ColliderKey> {
        (!self.live.is_empty()).then(|| self.live[index % self.live.len()])
    }

    /// Applies one step, checking its immediate effect.
    fn apply(&mut self, op: &Op) -> Result<(), TestCaseError> {
        match op {
            Op::Add(desc) => {
                let key = self
                    .world
                    .add(desc.clone())
                    .map_err(|e| TestCaseError::fail(format!("add refused: {e}")))?;
                prop_assert!(!self.live.contains(&key) && !self.removed.contains(&key), "key reused");
                let collider = self.world.get(key).unwrap();
                prop_assert_eq!(collider.user_data(), desc.user_data);
                prop_assert_eq!(*collider.filter(), desc.filter);
                prop_assert_eq!(collider.shape(), &desc.shape);
                prop_assert_eq!(collider.should_rotate(), desc.should_rotate);
                self.live.push(key);
            }
            Op::AddInvalid(base, fault) => {
                let before = snapshot(&self.world);
                let result = self.world.add(fault.apply(base));
                prop_assert!(
                    matches!(result, Err(e) if fault.expects(e)),
                    "{:?} gave {:?}",
                    fault,
                    result
                );
                prop_assert_eq!(snapshot(&self.world), before);
            }
            Op::Remove(index) => {
                if let Some(key) = self.pick(*index) {
                    let collider = self.world.remove(key).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    prop_assert!(!self.world.contains(key) && self.world.get(key).is_none());
                    prop_assert_eq!(collider.desc().user_data, collider.user_data());
                    self.live.retain(|&k| k != key);
                    self.removed.push(key);
                }
            }
            Op::SetTransform(index, transform) => {
                if let Some(key) = self.pick(*index) {
                    prop_assert_eq!(self.world.set_transform(key, *transform), Ok(()));
                    let c = self.world.get(key).unwrap();
                    prop_assert_eq!(c.transform().translation, transform.translation);
                    prop_assert_eq!(c.transform().scale, transform.scale);
                }
            }
            Op::SetShape(index, shape) => {
                if let Some(key) = self.pick(*index) {
                    prop_assert_eq!(self.world.set_shape(key, shape.clone()), Ok(()));
                    prop_assert_eq!(self.world.get(key).unwrap().shape(), shape);
                }
            }
            Op::SetFilter(index, filter) => {
                if let Some(key) = self.pick(*index) {
                    prop_assert_eq!(self.world.set_filter(key, *filter), Ok(()));
                    prop_assert_eq!(*self.world.get(key).unwrap().filter(), *filter);
                }
            }
            Op::SetUserData(index, user_data) => {
                if let Some(key) = self.pick(*index) {
                    prop_assert_eq!(self.world.set_user_data(key, *user_data), Ok(()));
                    prop_assert_eq!(self.world.get(key).unwrap().user_data(), *user_data);
                }
            }
            Op::SetShouldRotate(index, should_rotate) => {
                if let Some(key) = self.pick(*index) {
                    prop_assert_eq!(self.world.set_should_rotate(key, *should_rotate), Ok(()));
                    prop_assert_eq!(self.world.get(key).unwrap().should_rotate(), *should_rotate);
                }
            }
            Op::SetInvalid(index, fault) => {
                if let Some(key) = self.pick(*index) {
                    if matches!(fault, Invalid::OverflowingBounds) {
                        return Ok(());
                    }
                    let before = snapshot(&self.world);
                    let bad = fault.apply(self.world.get(key).unwrap().desc());
                    let result = if fault.is_transform() {
                        self.world.set_transform(key, bad.transform)
                    } else {
                        self.world.set_shape(key, bad.shape)
                    };
                    prop_assert!(
                        matches!(result, Err(e) if fault.expects(e)),
                        "{:?} gave {:?}",
                        fault,
                        result
                    );
                    prop_assert_eq!(snapshot(&self.world), before);
                }
            }
            Op::UseStale(index) => {
                if !self.removed.is_empty() {
                    let key = self.removed[index % self.removed.len()];
                    let before = snapshot(&self.world);
                    let stale = Err(Error::StaleHandle);
                    prop_assert!(!self.world.contains(key) && self.world.get(key).is_none());
                    prop_assert_eq!(self.world.set_transform(key, Transform::IDENTITY), stale);
                    prop_assert_eq!(
                        self.world.set_shape(key, Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))),
                        stale
                    );
                    prop_assert_eq!(self.world.set_filter(key, Filter::DEFAULT), stale);
                    prop_assert_eq!(self.world.set_user_data(key, 7), stale);
                    prop_assert_eq!(self.world.set_should_rotate(key, false), stale);
                    prop_assert_eq!(self.world.remove(key).map(|_| ()), stale);
                    prop_assert_eq!(snapshot(&self.world), before);
                }
            }
        }
        // The world holds exactly the live keys.
        prop_assert_eq!(self.world.len(), self.live.len());
        let mut keys: Vec<ColliderKey> = self.world.iter().map(|(k, _)| k).collect();
        let mut live = self.live.clone();
        keys.sort_unstable();
        live.sort_unstable();
        prop_assert_eq!(keys, live);
        Ok(())
    }

    fn build(ops: &[Op]) -> Result<Self, TestCaseError> {
        let mut harness = Self::new();
        for op in ops {
            harness.apply(op)?;
        }
        Ok(harness)
    }
}

/// The closest hit by brute force: `(t, keys tied at that t)`.
fn brute_force_cast(world: &World, segment: &Segment, filter: &QueryFilter) -> Option<(f32, Vec<ColliderKey>)> {
    let mut best: Option<(f32, Vec<ColliderKey>)> = None;
    for (key, collider) in world.iter() {
        if !filter.accepts(key, collider.filter()) {
            continue;
        }
        if let Some(hit) = collider.world_shape().cast_segment(segment) {
            match &mut best {
                Some((t, keys)) if hit.t == *t => keys.push(key),
                Some((t, _)) if hit.t > *t => {}
                _ => best = Some((hit.t, vec![key])),
            }
        }
    }
    best
}

/// Every overlapping, interacting pair by brute force, `a < b`, sorted.
fn brute_force_pairs(world: &World) -> Vec<Pair> {
    let all: Vec<(ColliderKey, &Collider)> = world.iter().collect();
    let mut pairs = Vec::new();
    for (i, &(ka, a)) in all.iter().enumerate() {
        for &(kb, b) in &all[i + 1..] {
            if a.filter().interacts_with(b.filter()) && a.world_shape().intersects(b.world_shape()) {
                let ((ka, a), (kb, b)) = if ka < kb {
                    ((ka, a), (kb, b))
                } else {
                    ((kb, b), (ka, a))
                };
                pairs.push(Pair {
                    a: ka,
                    b: kb,
                    user_a: a.user_data(),
                    user_b: b.user_data(),
                });
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Checks `world.segment_cast` against the brute force for one query.
fn check_cast(world: &World, segment: &Segment, filter: &QueryFilter) -> Result<Option<ColliderKey>, TestCaseError> {
    let hit = world
        .segment_cast(segment, filter)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    match (hit, brute_force_cast(world, segment, filter)) {
        (None, None) => Ok(None),
        (Some(hit), Some((t, keys))) => {
            prop_assert_eq!(hit.t, t, "t differs for {:?}", segment);
            prop_assert!(
                keys.contains(&hit.collider),
                "{:?} is not among {:?}",
                hit.collider,
                keys
            );
            prop_assert_eq!(hit.collider, *keys.iter().min().unwrap(), "ties go to the smaller key");
            let collider = world.get(hit.collider).unwrap();
            let cast = collider.world_shape().cast_segment(segment).unwrap();
            prop_assert_eq!(hit.normal, cast.normal);
            prop_assert_eq!(hit.point, segment.point_at(t));
            prop_assert_eq!(hit.user_data, collider.user_data());
            Ok(Some(hit.collider))
        }
        (hit, brute) => Err(TestCaseError::fail(format!(
            "segment_cast {hit:?} but brute force {brute:?} for {segment:?}"
        ))),
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        // Failures are reported with their minimal input; nothing is written to the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// `segment_cast` equals the brute-force closest hit (collider up to ties, t, point, normal, user data), with and without exclusions and filter bits.
    #[test]
    fn segment_cast_matches_brute_force(
        ops in prop::collection::vec(op(), 1..40),
        queries in prop::collection::vec(query(), 1..16),
    ) {
        let harness = Harness::build(&ops)?;
        let world = &harness.world;
        for (segment, filter, exclude) in &queries {
            let winner = check_cast(world, segment, &QueryFilter::ALL)?;
            check_cast(world, segment, filter)?;
            // Excluding the winner exposes the next collider along the segment.
            if let Some(winner) = winner {
                let next = check_cast(world, segment, &QueryFilter::excluding(winner))?;
                prop_assert_ne!(next, Some(winner));
            }
            if let Some(key) = harness.pick(*exclude) {
                let excluding = QueryFilter { exclude: Some(key), ..*filter };
                prop_assert_ne!(check_cast(world, segment, &excluding)?, Some(key));
            }
        }
    }

    /// `test_pairwise`, `test_sweep_and_prune`, `pairs_sweep_and_prune` and `pairs` all equal the brute-force pair set: interacting filters, intersecting world shapes, each pair once, a < b, sorted.
    #[test]
    fn pair_finders_match_brute_force(ops in prop::collection::vec(op(), 1..48)) {
        let mut harness = Harness::build(&ops)?;
        let world = &mut harness.world;
        let expected = brute_force_pairs(world);
        let mut pairwise = Vec::new();
        world.test_pairwise(|pair| pairwise.push(pair));
        prop_assert_eq!(&pairwise, &expected, "test_pairwise");
        let mut sap = Vec::new();
        world.test_sweep_and_prune(|pair| sap.push(pair));
        prop_assert_eq!(&sap, &expected, "test_sweep_and_prune");
        prop_assert_eq!(world.pairs_sweep_and_prune(), expected.as_slice(), "pairs_sweep_and_prune");
        prop_assert_eq!(world.pairs(), expected.as_slice(), "pairs");
        // Asking again gives the same answer.
        let mut again = Vec::new();
        world.test_sweep_and_prune(|pair| again.push(pair));
        prop_assert_eq!(&again, &expected);
    }

    /// Stale keys (removed colliders) are refused with `StaleHandle` by every mutator and leave the world unchanged; removal does not disturb the other colliders.
    #[test]
    fn stale_keys_are_refused(ops in prop::collection::vec(op(), 1..40), victim in any::<usize>()) {
        let mut harness = Harness::build(&ops)?;
        if let Some(key) = harness.pick(victim) {
            let mut before = snapshot(&harness.world);
            harness.apply(&Op::Remove(victim))?;
            before.retain(|(k, _)| *k != key);
            let after = snapshot(&harness.world);
            prop_assert_eq!(after.len(), before.len());
            for ((ka, a), (kb, b)) in after.iter().zip(&before) {
                prop_assert_eq!(ka, kb);
                prop_assert_eq!(a.desc(), b.desc());
                prop_assert_eq!(a.world_shape(), b.world_shape());
            }
            let stale_index = harness.removed.len() - 1;
            harness.apply(&Op::UseStale(stale_index))?;
            // A new collider never gets the stale key back.
            let fresh = harness.world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)))).unwrap();
            prop_assert_ne!(fresh, key);
            prop_assert!(!harness.world.contains(key));
        }
    }

    /// Invalid input (NaN, infinity, inverted box, negative radius, non-unit quaternion, overflowing bounds) gives the right error from `add`, `set_transform` and `set_shape`, and leaves the world unchanged.
    #[test]
    fn invalid_input_is_refused(
        ops in prop::collection::vec(op(), 1..24),
        base in desc(),
        fault in invalid(),
        index in any::<usize>(),
    ) {
        let mut harness = Harness::build(&ops)?;
        harness.apply(&Op::AddInvalid(base, fault))?;
        harness.apply(&Op::SetInvalid(index, fault))?;
        // The world still answers queries as before: pairs equal the brute force.
        let expected = brute_force_pairs(&harness.world);
        prop_assert_eq!(harness.world.pairs_sweep_and_prune(), expected.as_slice());
    }

    /// `set_transforms` and `set_shapes` equal one `set_transform` /
    /// `set_shape` call per entry, in order (a key given twice ends with its
    /// last entry); with one bad entry anywhere (an invalid transform or
    /// shape, or a removed key) they give that entry's error and change
    /// nothing.
    #[test]
    fn batch_updates_equal_one_update_per_entry(
        ops in prop::collection::vec(op(), 1..32),
        entries in prop::collection::vec((any::<usize>(), transform(), shape()), 0..24),
        fault in proptest::option::of((any::<usize>(), invalid())),
        stale_at in proptest::option::of(any::<usize>()),
    ) {
        let harness = Harness::build(&ops)?;
        if harness.live.is_empty() {
            return Ok(());
        }
        let mut transforms: Vec<(ColliderKey, Transform)> = Vec::new();
        let mut shapes: Vec<(ColliderKey, Shape)> = Vec::new();
        for (index, transform, shape) in &entries {
            let key = harness.pick(*index).unwrap();
            transforms.push((key, *transform));
            shapes.push((key, shape.clone()));
        }

        // Valid batches: the same world as one call per entry.
        let mut single = harness.world.clone();
        let mut batch = harness.world.clone();
        for (key, transform) in &transforms {
            single.set_transform(*key, *transform).unwrap();
        }
        batch.set_transforms(&transforms).unwrap();
        prop_assert_eq!(snapshot(&batch), snapshot(&single));
        for (key, shape) in &shapes {
            single.set_shape(*key, shape.clone()).unwrap();
        }
        batch.set_shapes(&shapes).unwrap();
        prop_assert_eq!(snapshot(&batch), snapshot(&single));
        prop_assert_eq!(batch.validate(), Ok(()));
        let expected = brute_force_pairs(&batch);
        prop_assert_eq!(batch.pairs(), expected.as_slice());

        // A bad entry: its error, and the world untouched.
        let mut world = harness.world.clone();
        let before = snapshot(&world);
        if let Some((index, fault)) = fault {
            if !matches!(fault, Invalid::OverflowingBounds) {
                let key = harness.pick(index).unwrap();
                let bad = fault.apply(world.get(key).unwrap().desc());
                let at = index % (entries.len() + 1);
                let result = if fault.is_transform() {
                    let mut bad_transforms = transforms.clone();
                    bad_transforms.insert(at, (key, bad.transform));
                    world.set_transforms(&bad_transforms)
                } else {
                    let mut bad_shapes = shapes.clone();
                    bad_shapes.insert(at, (key, bad.shape));
                    world.set_shapes(&bad_shapes)
                };
                prop_assert!(matches!(result, Err(e) if fault.expects(e)), "{:?} gave {:?}", fault, result);
                prop_assert_eq!(snapshot(&world), before.clone());
            }
        }
        if let Some(at) = stale_at {
            let victim = harness.pick(at).unwrap();
            world.remove(victim).unwrap();
            let before = snapshot(&world);
            let mut stale_transforms: Vec<_> = transforms.iter().filter(|(k, _)| *k != victim).copied().collect();
            stale_transforms.insert(at % (stale_transforms.len() + 1), (victim, Transform::IDENTITY));
            prop_assert_eq!(world.set_transforms(&stale_transforms), Err(Error::StaleHandle));
            let mut stale_shapes: Vec<_> = shapes.iter().filter(|(k, _)| *k != victim).cloned().collect();
            stale_shapes.insert(at % (stale_shapes.len() + 1), (victim, Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))));
            prop_assert_eq!(world.set_shapes(&stale_shapes), Err(Error::StaleHandle));
            prop_assert_eq!(snapshot(&world), before);
            prop_assert_eq!(world.validate(), Ok(()));
        }
    }

    /// Validating a validated transform changes nothing (every setter
    /// revalidates the stored transform: a rotation renormalised again
    /// could move by an ulp at each update), and the rotation kept is unit
    /// to rounding.
    #[test]
    fn transform_validation_is_idempotent(
        x in -1.0f32..1.0, y in -1.0f32..1.0, z in -1.0f32..1.0, w in -1.0f32..1.0,
        off in -9.0e-4f32..9.0e-4,
    ) {
        let q = Quat::from_xyzw(x, y, z, w);
        prop_assume!(q.length_squared() > 1.0e-3);
        // Scaled to |q|² = 1 + off, within the accepted tolerance.
        let q = q * ((1.0 + off).sqrt() / q.length());
        let once = Transform { rotation: q, ..Transform::IDENTITY }.validated().unwrap();
        prop_assert_eq!(once.validated().unwrap(), once);
        prop_assert!((once.rotation.length_squared() - 1.0).abs() <= 8.0 * f32::EPSILON);
    }

    /// Each collider's world shape is its shape placed by its transform, and its world box bounds that shape.
    #[test]
    fn world_shapes_follow_transforms(ops in prop::collection::vec(op(), 1..32)) {
        let harness = Harness::build(&ops)?;
        for (_, c) in harness.world.iter() {
            prop_assert_eq!(Ok(c.world_shape().clone()), c.shape().transformed(c.transform(), c.should_rotate()));
            let bounds = c.world_shape().bounding_aabb();
            prop_assert_eq!(c.aabb().union(&bounds), *c.aabb(), "world box does not hold the shape");
        }
    }
}

/// Boxes that touch exactly on a face, an edge and a corner, after quarter turns and mirroring, are pairs; one ulp apart they are not.
#[test]
fn touching_boxes_after_transforms_are_pairs() {
    let mut world = World::new();
    let unit = Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE));
    let place = |translation: Vec3, rotation: Quat, scale: Vec3| Transform {
        translation,
        rotation,
        scale,
    };
    let a = world.add(ColliderDesc::new(unit.clone())).unwrap();
    // Mirrored on x and moved back: occupies [-1, 0] on x, touching a's face x = 0.
    let b = world
        .add(ColliderDesc::new(unit.clone()).with_transform(place(
            Vec3::ZERO,
            Quat::IDENTITY,
            Vec3::new(-1.0, 1.0, 1.0),
        )))
        .unwrap();
    // Edge: [1, 2] × [1, 2] × [0, 1].
    let c = world
        .add(ColliderDesc::new(unit.clone()).with_transform(Transform::from_translation(Vec3::new(1.0, 1.0, 0.0))))
        .unwrap();
    // One ulp beyond the corner (1, 1, 1): no pair with a, none with c.
    let gap = 1.0 + f32::EPSILON;
    let d = world
        .add(ColliderDesc::new(unit.clone()).with_transform(Transform::from_translation(Vec3::new(gap, -1.0, gap))))
        .unwrap();
    // A quarter turn about z that is not applied (should_rotate off): [0, 1] × [-1, 0] × [0, 1],
    // touching a on the face y = 0 and b on the edge x = y = 0.
    let e = world
        .add(
            ColliderDesc::new(unit.clone())
                .with_should_rotate(false)
                .with_transform(place(
                    Vec3::new(0.0, -1.0, 0.0),
                    Quat::from_rotation_z(FRAC_PI_2),
                    Vec3::ONE,
                )),
        )
        .unwrap();
    let expected = brute_force_pairs(&world);
    let keys: Vec<(ColliderKey, ColliderKey)> = expected.iter().map(|p| (p.a, p.b)).collect();
    let has = |x: ColliderKey, y: ColliderKey| keys.contains(&(x.min(y), x.max(y)));
    assert!(has(a, b) && has(a, c) && has(a, e) && has(b, e));
    assert!(!has(a, d) && !has(c, d) && !has(b, c) && !has(d, e) && !has(c, e));
    let mut sap = Vec::new();
    world.test_sweep_and_prune(|p| sap.push(p));
    assert_eq!(sap, expected);
    let mut pairwise = Vec::new();
    world.test_pairwise(|p| pairwise.push(p));
    assert_eq!(pairwise, expected);
}

/// A segment lying in the plane of a box's top face (start on `max.y`, no y motion) hits the box in the world as it does by `cast_aabb`: a cast skimming a floor or a wall top.
#[test]
fn segment_along_a_box_top_face_hits() {
    let floor = Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0));
    let mut world = World::new();
    let key = world.add(ColliderDesc::new(Shape::Aabb(floor))).unwrap();
    for (start, end) in [
        // Along the top face y = 0, entering through the side x = -5.
        (Vec3::new(-8.0, 0.0, 1.0), Vec3::new(8.0, 0.0, 1.0)),
        // Along the top edge (y = 0, z = 5).
        (Vec3::new(-8.0, 0.0, 5.0), Vec3::new(8.0, 0.0, 5.0)),
        // Starting on the top face.
        (Vec3::new(0.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0)),
        // Zero-length, on the top face.
        (Vec3::new(1.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0)),
        // Along the bottom face y = -1 (for symmetry).
        (Vec3::new(-8.0, -1.0, 1.0), Vec3::new(8.0, -1.0, 1.0)),
    ] {
        let segment = Segment::new(start, end);
        let expected = segment.cast_aabb(&floor).expect("the exact test hits");
        let hit = world.segment_cast(&segment, &QueryFilter::ALL).unwrap();
        assert_eq!(
            hit.map(|h| (h.collider, h.t)),
            Some((key, expected.t)),
            "world.segment_cast misses {segment:?}"
        );
    }
}
