//! The world's queries and pair finders held to brute force and to
//! analytic answers:
//!
//! - [`random_worlds`]: property tests of random worlds of boxes, spheres
//!   and capsules built by random sequences of valid, stale and invalid
//!   calls;
//! - [`every_shape`]: the narrow-phase world queries (`shape_cast`,
//!   `closest`, `distance`, `contact`, `move_and_slide`) with colliders of
//!   every shape;
//! - [`edges`]: numerical robustness at the edges (RELIABILITY.md,
//!   "Tolerances"): far from the origin, tiny and huge boxes, zero-length
//!   and grazing segments, coincident faces.

mod common;

mod random_worlds {
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
        Aabb, Capsule, ColliderDesc, ColliderKey, Error, Filter, Pair, QueryFilter, Segment, Shape, Sphere, Transform,
        World,
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
        let mask =
            prop_oneof![4 => Just(u64::MAX), 1 => Just(1), 1 => Just(2), 1 => Just(5), 1 => Just(6), 1 => Just(0)];
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

    /// Each collider's key, description, world shape and box.
    fn snapshot(world: &World) -> Vec<(ColliderKey, (ColliderDesc, Shape, Aabb))> {
        world
            .iter()
            .map(|(key, c)| (key, (c.desc(), c.world_shape().into_owned(), *c.aabb())))
            .collect()
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
                    prop_assert_eq!(&*collider.shape(), &desc.shape);
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
                        let expected = self.world.get(key).unwrap().desc();
                        let removed = self.world.remove(key).map_err(|e| TestCaseError::fail(e.to_string()))?;
                        prop_assert!(!self.world.contains(key) && self.world.get(key).is_none());
                        prop_assert_eq!(removed, expected);
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
                        prop_assert_eq!(&*self.world.get(key).unwrap().shape(), shape);
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
                        let bad = fault.apply(&self.world.get(key).unwrap().desc());
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
        let all: Vec<_> = world.iter().collect();
        let mut pairs = Vec::new();
        for (i, &(ka, a)) in all.iter().enumerate() {
            for &(kb, b) in &all[i + 1..] {
                if a.filter().interacts_with(b.filter()) && a.world_shape().intersects(&b.world_shape()) {
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
    fn check_cast(
        world: &World,
        segment: &Segment,
        filter: &QueryFilter,
    ) -> Result<Option<ColliderKey>, TestCaseError> {
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
                    prop_assert_eq!(a, b);
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
                    let bad = fault.apply(&world.get(key).unwrap().desc());
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
                prop_assert_eq!(Ok(c.world_shape().into_owned()), c.shape().transformed(&c.transform(), c.should_rotate()));
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
}

mod every_shape {
    //! The narrow-phase world queries held to brute force and to analytic
    //! answers: colliders of every shape (oriented boxes, triangles, cylinders,
    //! cones, hulls besides the book's three) through the tree's segment cast
    //! and pair finder, `shape_cast`, `closest`, `distance`, `contact` and
    //! `move_and_slide`, and their input validation.

    use collide::math::{Quat, Vec3};
    use collide::{
        Aabb, Capsule, ColliderDesc, ColliderKey, Cone, ConvexHull, Cylinder, Error, Obb, QueryFilter, Segment, Shape,
        Sphere, Transform, Triangle, World,
    };
    use proptest::prelude::*;
    use std::sync::Arc;

    // ---------------------------------------------------------------------------
    // Strategies: every kind of shape, random placements
    // ---------------------------------------------------------------------------

    /// A multiple of 0.5 in `[-4, 4]`: faces and edges touch exactly often.
    fn coord() -> impl Strategy<Value = f32> {
        (-8i32..=8).prop_map(|i| i as f32 * 0.5)
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn radius() -> impl Strategy<Value = f32> {
        (1i32..=4).prop_map(|i| i as f32 * 0.25)
    }

    fn rotation() -> impl Strategy<Value = Quat> {
        prop_oneof![
            Just(Quat::IDENTITY),
            (point(), -3.0f32..3.0).prop_map(|(axis, angle)| Quat::from_axis_angle(axis.normalize_or(Vec3::X), angle)),
        ]
    }

    /// A shape of any kind, in object space near the origin.
    fn shape() -> impl Strategy<Value = Shape> {
        let half = (1i32..=4, 1i32..=4, 1i32..=4).prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32) * 0.25);
        prop_oneof![
            (point(), point()).prop_map(|(a, b)| Shape::Aabb(Aabb::new(a.min(b), a.max(b)))),
            (point(), radius()).prop_map(|(c, r)| Shape::Sphere(Sphere::new(c, r))),
            (point(), point(), radius()).prop_map(|(a, b, r)| Shape::Capsule(Capsule::new(Segment::new(a, b), r))),
            (point(), rotation(), half).prop_map(|(c, q, h)| Shape::Obb(Obb::new(c, q, h))),
            (point(), point(), point()).prop_map(|(a, b, c)| Shape::Triangle(Triangle::new(a, b, c))),
            (point(), point(), radius()).prop_map(|(a, b, r)| Shape::Cylinder(Cylinder::new(Segment::new(a, b), r))),
            (point(), point(), radius()).prop_map(|(a, b, r)| Shape::Cone(Cone::new(a, b, r))),
            proptest::collection::vec(point(), 4..10).prop_filter_map("a hull with volume", |points| {
                ConvexHull::from_points(&points).ok().map(|h| Shape::Hull(Arc::new(h)))
            }),
        ]
    }

    /// A placement: a translation, a rotation and a positive uniform or
    /// non-uniform scale.
    fn transform() -> impl Strategy<Value = Transform> {
        let scale = prop_oneof![
            Just(Vec3::ONE),
            (1i32..=4).prop_map(|s| Vec3::splat(s as f32 * 0.5)),
            (1i32..=4, 1i32..=4, 1i32..=4).prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32) * 0.5),
        ];
        (point(), rotation(), scale).prop_map(|(translation, rotation, scale)| Transform {
            translation,
            rotation,
            scale,
        })
    }

    fn world_of(descs: &[(Shape, Transform)]) -> (World, Vec<ColliderKey>) {
        let mut world = World::new();
        let keys = descs
            .iter()
            .enumerate()
            .map(|(i, (shape, t))| {
                world
                    .add(
                        ColliderDesc::new(shape.clone())
                            .with_transform(*t)
                            .with_user_data(i as u64),
                    )
                    .expect("valid collider")
            })
            .collect();
        (world, keys)
    }

    fn sorted_pairs(mut pairs: Vec<(ColliderKey, ColliderKey)>) -> Vec<(ColliderKey, ColliderKey)> {
        pairs.sort();
        pairs
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// The tree's segment cast equals the O(n) loop, and the tree's pair
        /// finder equals the O(n²) one, for colliders of every shape.
        #[test]
        fn tree_queries_match_brute_force_for_every_shape(
            descs in proptest::collection::vec((shape(), transform()), 1..12),
            a in point(), b in point(),
        ) {
            let (mut world, _) = world_of(&descs);
            let segment = Segment::new(a, b);
            let tree = world.segment_cast(&segment, &QueryFilter::ALL).unwrap();
            let brute = world.segment_cast_brute_force(&segment, &QueryFilter::ALL).unwrap();
            prop_assert_eq!(tree.map(|h| h.t), brute.map(|h| h.t));
            let mut pairwise = Vec::new();
            world.test_pairwise(|p| pairwise.push((p.a, p.b)));
            let found: Vec<_> = world.pairs().iter().map(|p| (p.a, p.b)).collect();
            prop_assert_eq!(sorted_pairs(found), sorted_pairs(pairwise));
        }

        /// `shape_cast` of a sphere equals the earliest closed-form cast over
        /// every collider; `closest` equals the least GJK distance over every
        /// collider within reach; `overlap` equals the exact test over every
        /// collider.
        #[test]
        fn world_queries_match_loops_over_every_collider(
            descs in proptest::collection::vec((shape(), transform()), 1..12),
            center in point(), r in radius(), motion in point(), max_distance in 0.0f32..6.0,
        ) {
            let (world, _) = world_of(&descs);
            let ball = Shape::Sphere(Sphere::new(center, r));

            let hit = world.cast_shape(&ball, motion, &QueryFilter::ALL).unwrap();
            let brute = world
                .iter()
                .filter_map(|(k, c)| ball.cast_shape(motion, &c.world_shape()).map(|toi| (toi.t, k)))
                .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            prop_assert_eq!(hit.map(|h| (h.t, h.collider)), brute);

            let near = world.project_point(center, max_distance, &QueryFilter::ALL).unwrap();
            let point = Shape::Sphere(Sphere::new(center, 0.0));
            let brute = world
                .iter()
                .map(|(k, c)| (point.distance(&c.world_shape()).distance, k))
                .filter(|(d, _)| *d <= max_distance)
                .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            prop_assert_eq!(near.map(|(k, d)| (d.distance, k)), brute);

            let mut found = Vec::new();
            world.intersections_with_shape(&ball, &QueryFilter::ALL, |k, _| found.push(k)).unwrap();
            found.sort();
            let brute: Vec<_> = world.iter().filter(|(_, c)| ball.intersects(&c.world_shape())).map(|(k, _)| k).collect();
            prop_assert_eq!(found, brute);
        }

        /// A move-and-slide never ends inside a collider, and never moves
        /// farther than asked.
        #[test]
        fn move_and_slide_never_ends_inside(
            descs in proptest::collection::vec((shape(), transform()), 1..10),
            start in point(), motion in point(),
        ) {
            let (world, _) = world_of(&descs);
            let character = Shape::Capsule(Capsule::new(Segment::new(start, start + Vec3::Y * 0.5), 0.25));
            let mut starts_inside = false;
            world.intersections_with_shape(&character, &QueryFilter::ALL, |_, _| starts_inside = true).unwrap();
            prop_assume!(!starts_inside);
            let moved = world.move_and_slide(&character, motion, &QueryFilter::ALL, 4).unwrap();
            prop_assert!(moved.position_delta.length() <= motion.length() + 1e-4);
            let end = character.translated(moved.position_delta);
            for (_, c) in world.iter() {
                let d = end.distance(&c.world_shape());
                prop_assert!(d.distance > 0.0 || !end.intersects(&c.world_shape()), "ended inside: {d:?}");
            }
        }
    }

    // ---------------------------------------------------------------------------
    // Analytic cases
    // ---------------------------------------------------------------------------

    /// A motion whose end would just touch a ball (a capsule 1.75 from the
    /// ball's centre at the end, radii 0.25 + 1.5) stops the skin short of
    /// it: the cast reaches the skin beyond the motion's end.
    #[test]
    fn a_move_ending_in_contact_stops_the_skin_short() {
        let mut world = World::new();
        let ball = world
            .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
                Vec3::new(2.0, 0.0, -4.25),
                1.5,
            ))))
            .unwrap();
        let start = Vec3::new(3.5, 1.5, 0.0);
        let character = Shape::Capsule(Capsule::new(Segment::new(start, start + Vec3::Y * 0.5), 0.25));
        let motion = Vec3::new(0.0, -2.5, -3.5);
        let moved = world.move_and_slide(&character, motion, &QueryFilter::ALL, 4).unwrap();
        assert_eq!(moved.hits.first().map(|h| h.collider), Some(ball));
        let end = character.translated(moved.position_delta);
        let gap = end.distance(&world.get(ball).unwrap().world_shape()).distance;
        assert!(gap >= 0.9 * collide::MOVE_AND_SLIDE_SKIN, "ended {gap} from the ball");
    }

    fn wall(world: &mut World, min: Vec3, max: Vec3) -> ColliderKey {
        world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(min, max)))).unwrap()
    }

    #[test]
    fn shape_cast_finds_the_nearest_wall_with_its_normal() {
        let mut world = World::new();
        let far = wall(&mut world, Vec3::new(8.0, -1.0, -1.0), Vec3::new(9.0, 1.0, 1.0));
        let near = wall(&mut world, Vec3::new(4.0, -1.0, -1.0), Vec3::new(5.0, 1.0, 1.0));
        let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
        let hit = world
            .cast_shape(&ball, Vec3::new(10.0, 0.0, 0.0), &QueryFilter::ALL)
            .unwrap()
            .unwrap();
        assert_eq!((hit.collider, hit.t, hit.normal), (near, 0.3, Vec3::NEG_X));
        assert!((hit.point - Vec3::new(4.0, 0.0, 0.0)).length() < 1e-5);
        let hit = world
            .cast_shape(&ball, Vec3::new(10.0, 0.0, 0.0), &QueryFilter::excluding(near))
            .unwrap()
            .unwrap();
        assert_eq!((hit.collider, hit.t), (far, 0.7));
        // A capsule and an oriented box (GJK) agree with the closed form to 1e-5.
        let pill = Shape::Capsule(Capsule::new(Segment::new(Vec3::NEG_Y, Vec3::Y), 1.0));
        let t = world
            .cast_shape(&pill, Vec3::new(10.0, 0.0, 0.0), &QueryFilter::ALL)
            .unwrap()
            .unwrap()
            .t;
        assert!((t - 0.3).abs() < 1e-5, "{t}");
        let crate_ = Shape::Obb(Obb::new(Vec3::ZERO, Quat::from_rotation_y(0.3), Vec3::splat(0.5)));
        let t = world
            .cast_shape(&crate_, Vec3::new(10.0, 0.0, 0.0), &QueryFilter::ALL)
            .unwrap()
            .unwrap()
            .t;
        let reach = 0.5 * (0.3f32.cos() + 0.3f32.sin());
        assert!((t - (4.0 - reach) / 10.0).abs() < 1e-5, "{t}");
        // Moving away: no hit.
        assert!(world
            .cast_shape(&ball, Vec3::new(-10.0, 0.0, 0.0), &QueryFilter::ALL)
            .unwrap()
            .is_none());
    }

    #[test]
    fn distance_and_contact_between_colliders_of_new_shapes() {
        let mut world = World::new();
        let cylinder = world
            .add(ColliderDesc::new(Shape::Cylinder(Cylinder::new(
                Segment::new(Vec3::ZERO, Vec3::Y * 2.0),
                1.0,
            ))))
            .unwrap();
        let cone = world
            .add(
                ColliderDesc::new(Shape::Cone(Cone::new(Vec3::ZERO, Vec3::Y, 1.0)))
                    .with_transform(Transform::from_translation(Vec3::new(4.0, 0.0, 0.0))),
            )
            .unwrap();
        let d = world.distance(cylinder, cone).unwrap();
        assert!((d.distance - 2.0).abs() < 1e-4, "{d:?}");
        assert!(world.contact(cylinder, cone).unwrap().is_none());
        let tri = world
            .add(ColliderDesc::new(Shape::Triangle(Triangle::new(
                Vec3::new(0.5, 1.0, -3.0),
                Vec3::new(0.5, 1.0, 3.0),
                Vec3::new(3.0, 1.0, 0.0),
            ))))
            .unwrap();
        let c = world
            .contact(cylinder, tri)
            .unwrap()
            .expect("the triangle cuts the cylinder");
        assert!((c.depth - 0.5).abs() < 1e-4, "{c:?}");
        assert!((c.normal - Vec3::X).length() < 1e-3, "{c:?}");
        // Stale keys.
        world.remove(cone).unwrap();
        assert_eq!(world.distance(cylinder, cone), Err(Error::StaleHandle));
        assert_eq!(world.contact(cone, cylinder), Err(Error::StaleHandle));
    }

    #[test]
    fn closest_aims_at_the_nearest_enemy() {
        let mut world = World::new();
        let enemy = |x: f32, z: f32| {
            ColliderDesc::new(Shape::Capsule(Capsule::new(
                Segment::new(Vec3::ZERO, Vec3::Y * 2.0),
                0.5,
            )))
            .with_transform(Transform::from_translation(Vec3::new(x, 0.0, z)))
        };
        let _far = world.add(enemy(10.0, 0.0)).unwrap();
        let near = world.add(enemy(-3.0, 4.0)).unwrap();
        let (key, d) = world
            .project_point(Vec3::new(0.0, 1.0, 0.0), 20.0, &QueryFilter::ALL)
            .unwrap()
            .unwrap();
        assert_eq!(key, near);
        assert!((d.distance - 4.5).abs() < 1e-5);
        assert!((d.point_b - Vec3::new(-2.7, 1.0, 3.6)).length() < 1e-5);
        assert!(world.project_point(Vec3::Y, 4.0, &QueryFilter::ALL).unwrap().is_none());
        assert!(world
            .project_point(Vec3::Y, 20.0, &QueryFilter::excluding(near))
            .unwrap()
            .is_some());
        // A shape as the query.
        let ball = Shape::Sphere(Sphere::new(Vec3::Y, 1.0));
        let (key, d) = world.closest(&ball, 20.0, &QueryFilter::ALL).unwrap().unwrap();
        assert!((key, (d.distance - 3.5).abs() < 1e-5) == (near, true));
    }

    #[test]
    fn move_and_slide_keeps_the_tangential_motion_and_stops_in_a_corner() {
        let mut world = World::new();
        let east = wall(&mut world, Vec3::new(2.0, -5.0, -5.0), Vec3::new(3.0, 5.0, 5.0));
        let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
        let moved = world
            .move_and_slide(&ball, Vec3::new(3.0, 0.0, 1.0), &QueryFilter::ALL, 4)
            .unwrap();
        assert!(
            (moved.position_delta.x - (1.0 - collide::MOVE_AND_SLIDE_SKIN)).abs() < 1e-4,
            "{moved:?}"
        );
        assert!((moved.position_delta.z - 1.0).abs() < 1e-4, "{moved:?}");
        assert_eq!(moved.hits.iter().map(|h| h.collider).collect::<Vec<_>>(), [east]);
        // Walking along the wall while touching it is not blocked.
        let touching = ball.translated(Vec3::X);
        let moved = world
            .move_and_slide(&touching, Vec3::new(0.0, 0.0, 2.0), &QueryFilter::ALL, 4)
            .unwrap();
        assert_eq!(moved.position_delta, Vec3::new(0.0, 0.0, 2.0));
        // A corner: walls east and north; walking north-east stops there.
        let north = wall(&mut world, Vec3::new(-5.0, -5.0, 2.0), Vec3::new(5.0, 5.0, 3.0));
        let moved = world
            .move_and_slide(&ball, Vec3::new(3.0, 0.0, 3.0), &QueryFilter::ALL, 8)
            .unwrap();
        let p = moved.position_delta;
        assert!(
            p.x <= 1.0 && p.z <= 1.0 && p.x > 0.99 && p.z > 0.99 && p.y.abs() < 1e-5,
            "{moved:?}"
        );
        assert!(moved.hits.iter().any(|h| h.collider == north));
        // Nothing in the way: the whole motion.
        let moved = world
            .move_and_slide(&ball, Vec3::new(-3.0, 0.0, 0.0), &QueryFilter::ALL, 4)
            .unwrap();
        assert_eq!((moved.position_delta, moved.hits.len()), (Vec3::new(-3.0, 0.0, 0.0), 0));
    }

    /// A capsule starting 0.1 inside a wall (the book's `FixCollisions`
    /// case) is pushed out along the wall's normal first, by the overlap
    /// and the skin, reported as a hit at `t = 0`, and then walks along it.
    #[test]
    fn move_and_slide_pushes_a_shape_out_of_what_it_starts_in() {
        let mut world = World::new();
        let east = wall(&mut world, Vec3::new(2.0, -5.0, -5.0), Vec3::new(3.0, 5.0, 5.0));
        let start = Vec3::new(1.85, 0.0, 0.0);
        let character = Shape::Capsule(Capsule::new(Segment::new(start, start + Vec3::Y), 0.25));
        let moved = world
            .move_and_slide(&character, Vec3::new(0.5, 0.0, 1.0), &QueryFilter::ALL, 4)
            .unwrap();
        let push = 0.1 + collide::MOVE_AND_SLIDE_SKIN;
        assert!((moved.position_delta.x + push).abs() < 1e-5, "{moved:?}");
        assert!((moved.position_delta.z - 1.0).abs() < 1e-5, "{moved:?}");
        let first = moved.hits[0];
        assert_eq!((first.collider, first.t, first.normal), (east, 0.0, Vec3::NEG_X));
        assert!((first.point.x - 2.0).abs() < 1e-5, "{first:?}");
        let end = character.translated(moved.position_delta);
        assert!(!end.intersects(&world.get(east).unwrap().world_shape()), "{moved:?}");
        // A ball sunk half into the floor rises onto it and walks on at its
        // full speed along it.
        let floor = wall(&mut world, Vec3::new(-10.0, -1.0, -10.0), Vec3::new(1.5, 0.0, 10.0));
        let ball = Shape::Sphere(Sphere::new(Vec3::new(-3.0, 0.5, 0.0), 1.0));
        let moved = world
            .move_and_slide(&ball, Vec3::new(2.0, -0.5, 0.0), &QueryFilter::ALL, 4)
            .unwrap();
        assert!(
            (moved.position_delta.y - (0.5 + collide::MOVE_AND_SLIDE_SKIN)).abs() < 1e-5,
            "{moved:?}"
        );
        assert!((moved.position_delta.x - 2.0).abs() < 1e-5, "{moved:?}");
        assert_eq!(moved.hits[0].collider, floor);
        // Sunk into both, in their corner: out of both.
        let cornered = Shape::Sphere(Sphere::new(Vec3::new(1.2, 0.8, 0.0), 1.0));
        let moved = world
            .move_and_slide(&cornered, Vec3::ZERO, &QueryFilter::ALL, 4)
            .unwrap();
        let end = cornered.translated(moved.position_delta);
        for key in [east, floor] {
            assert!(!end.intersects(&world.get(key).unwrap().world_shape()), "{moved:?}");
        }
    }

    #[test]
    fn colliders_of_new_shapes_are_placed_exactly() {
        let mut world = World::new();
        let cube: Vec<Vec3> = (0..8)
            .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) - Vec3::splat(0.5))
            .collect();
        let hull = Shape::Hull(Arc::new(ConvexHull::from_points(&cube).unwrap()));
        let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        let place = Transform {
            translation: Vec3::new(10.0, 0.0, 0.0),
            rotation: turn,
            scale: Vec3::new(2.0, 1.0, 1.0),
        };
        let key = world
            .add(ColliderDesc::new(hull.clone()).with_transform(place))
            .unwrap();
        let Shape::Hull(placed) = world.get(key).unwrap().world_shape().into_owned() else {
            panic!("a hull")
        };
        let tip = place.apply(Vec3::new(0.5, 0.5, 0.5));
        assert!(placed.contains_point(tip + (Vec3::new(10.0, 0.0, 0.0) - tip) * 1e-3));
        assert!(!placed.contains_point(tip + (tip - Vec3::new(10.0, 0.0, 0.0)) * 1e-3));
        // The same box as an oriented box agrees with the hull on a cast.
        let obb = world
            .add(
                ColliderDesc::new(Shape::Obb(Obb::new(
                    Vec3::ZERO,
                    Quat::IDENTITY,
                    Vec3::new(1.0, 0.5, 0.5),
                )))
                .with_transform(Transform {
                    translation: Vec3::new(10.0, 5.0, 0.0),
                    rotation: turn,
                    scale: Vec3::ONE,
                }),
            )
            .unwrap();
        assert!(!world.get(obb).unwrap().is_box());
        let across = |y: f32| Segment::new(Vec3::new(0.0, y, 0.0), Vec3::new(20.0, y, 0.0));
        let t_hull = world.segment_cast(&across(0.0), &QueryFilter::ALL).unwrap().unwrap().t;
        let t_obb = world.segment_cast(&across(5.0), &QueryFilter::ALL).unwrap().unwrap().t;
        assert!((t_hull - t_obb).abs() < 1e-6, "{t_hull} {t_obb}");
        // A flat scale cannot place a hull; the world is unchanged.
        let flat = Transform {
            scale: Vec3::new(1.0, 0.0, 1.0),
            ..Transform::IDENTITY
        };
        let before = world.len();
        assert!(matches!(
            world.add(ColliderDesc::new(hull).with_transform(flat)),
            Err(Error::InvalidArgument(_))
        ));
        assert_eq!(world.len(), before);
    }

    #[test]
    fn bad_input_is_refused_and_changes_nothing() {
        let mut world = World::new();
        wall(&mut world, Vec3::ZERO, Vec3::ONE);
        let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
        let nan = Vec3::new(f32::NAN, 0.0, 0.0);
        let inf = Vec3::new(0.0, f32::INFINITY, 0.0);
        for motion in [nan, inf] {
            assert!(matches!(
                world.cast_shape(&ball, motion, &QueryFilter::ALL),
                Err(Error::NonFinite(_))
            ));
            assert!(matches!(
                world.move_and_slide(&ball, motion, &QueryFilter::ALL, 4),
                Err(Error::NonFinite(_))
            ));
        }
        let negative = Shape::Sphere(Sphere::new(Vec3::ZERO, -1.0));
        assert_eq!(
            world.cast_shape(&negative, Vec3::X, &QueryFilter::ALL),
            Err(Error::NegativeRadius)
        );
        assert_eq!(
            world.closest(&negative, 1.0, &QueryFilter::ALL),
            Err(Error::NegativeRadius)
        );
        assert_eq!(
            world.move_and_slide(&negative, Vec3::X, &QueryFilter::ALL, 1),
            Err(Error::NegativeRadius)
        );
        assert!(matches!(
            world.project_point(nan, 1.0, &QueryFilter::ALL),
            Err(Error::NonFinite(_))
        ));
        assert!(matches!(
            world.project_point(Vec3::ZERO, f32::NAN, &QueryFilter::ALL),
            Err(Error::NonFinite(_))
        ));
        assert!(matches!(
            world.project_point(Vec3::ZERO, -1.0, &QueryFilter::ALL),
            Err(Error::InvalidArgument(_))
        ));
        let bad_obb = Shape::Obb(Obb::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0), Vec3::ONE));
        assert!(matches!(
            world.cast_shape(&bad_obb, Vec3::X, &QueryFilter::ALL),
            Err(Error::InvalidArgument(_))
        ));
        assert_eq!(world.len(), 1);
        world.validate().unwrap();
    }
}

mod edges {
    //! Numerical robustness at the edges (RELIABILITY.md, "Tolerances"): worlds
    //! up to 1e5 from the origin, boxes from 1e-4 to 1e5 wide, zero-length
    //! segments, segments grazing edges and lying in faces, coincident faces and
    //! boxes touching exactly. On every one the tree (`World::segment_cast`,
    //! `segment_cast_all`, `segment_cast_any`, `segment_cast_batch`, `pairs`,
    //! `pairs_sweep_and_prune`) must give the brute force's answer
    //! (`segment_cast_brute_force`, `test_pairwise`), `t` for `t`, and where the
    //! geometry has an exact answer in `f32` the answer must be it.

    use crate::common::float::next_up;
    use crate::common::random::{seeded, Draw};
    use collide::math::{Quat, Vec3};
    use collide::{
        Aabb, Capsule, ColliderDesc, ColliderKey, Pair, QueryFilter, Segment, Shape, Sphere, Transform, World,
    };

    /// The world offsets every scene is tried at: up to 1e5 from the origin on
    /// every axis (there `f32` has 7.8e-3 between neighbours).
    const OFFSETS: [Vec3; 5] = [
        Vec3::ZERO,
        Vec3::new(1.0e3, -1.0e3, 1.0e3),
        Vec3::new(1.0e4, 1.0e4, -1.0e4),
        Vec3::new(1.0e5, 1.0e5, 1.0e5),
        Vec3::new(-1.0e5, 0.0, -1.0e5),
    ];

    fn aabb(min: Vec3, max: Vec3) -> ColliderDesc {
        ColliderDesc::new(Shape::Aabb(Aabb::new(min, max)))
    }

    /// Every cast of the world against the brute force, for one segment: the
    /// closest hit (`t`, collider, point, normal), any hit, every hit, the batch.
    #[track_caller]
    fn check_cast(world: &World, segment: &Segment) -> Option<collide::Hit> {
        let filter = QueryFilter::ALL;
        let tree = world.segment_cast(segment, &filter).unwrap();
        let brute = world.segment_cast_brute_force(segment, &filter).unwrap();
        assert_eq!(tree, brute, "segment_cast vs brute force for {segment:?}");
        assert_eq!(
            world.segment_cast_any(segment, &filter).unwrap().is_some(),
            brute.is_some(),
            "segment_cast_any for {segment:?}"
        );
        let mut all = Vec::new();
        world.segment_cast_all(segment, &filter, &mut all).unwrap();
        let mut expected: Vec<(u32, ColliderKey)> = world
            .iter()
            .filter_map(|(k, c)| c.world_shape().cast_segment(segment).map(|h| (h.t.to_bits(), k)))
            .collect();
        expected.sort();
        let got: Vec<(u32, ColliderKey)> = all.iter().map(|h| (h.t.to_bits(), h.collider)).collect();
        assert_eq!(got, expected, "segment_cast_all for {segment:?}");
        let mut batch = [None];
        world.segment_cast_batch(&[*segment], &filter, &mut batch).unwrap();
        assert_eq!(batch[0], brute, "segment_cast_batch for {segment:?}");
        brute
    }

    /// Every pair finder against `test_pairwise`; returns the pairs.
    #[track_caller]
    fn check_pairs(world: &mut World) -> Vec<Pair> {
        let mut pairwise = Vec::new();
        world.test_pairwise(|p| pairwise.push(p));
        assert_eq!(world.pairs_sweep_and_prune(), pairwise.as_slice(), "sweep and prune");
        assert_eq!(world.pairs(), pairwise.as_slice(), "tree pairs");
        assert_eq!(world.validate(), Ok(()));
        pairwise
    }

    /// A 4 × 4 × 4 grid of unit cubes, each touching its neighbours exactly on
    /// faces, edges and corners, at `offset`.
    fn touching_grid(offset: Vec3, size: f32) -> World {
        let mut world = World::new();
        let descs = (0..64).map(|i| {
            let cell = Vec3::new((i % 4) as f32, (i / 4 % 4) as f32, (i / 16) as f32);
            aabb(offset + cell * size, offset + (cell + 1.0) * size)
        });
        world.extend(descs).unwrap();
        world
    }

    /// Pairs of an n × n × n grid of touching cubes: every two cells whose
    /// indices differ by at most 1 on each axis (26-neighbourhood), once.
    fn grid_pairs(n: i64) -> usize {
        let mut count = 0;
        for a in 0..n * n * n {
            for b in a + 1..n * n * n {
                let (ax, ay, az) = (a % n, a / n % n, a / (n * n));
                let (bx, by, bz) = (b % n, b / n % n, b / (n * n));
                if (ax - bx).abs() <= 1 && (ay - by).abs() <= 1 && (az - bz).abs() <= 1 {
                    count += 1;
                }
            }
        }
        count
    }

    /// Cubes touching exactly on faces, edges and corners are pairs at every
    /// offset up to 1e5 and every cube size from 1/1024 to 1024 (powers of two,
    /// so the corners are exact there): the 26-neighbourhood count, by every
    /// finder.
    #[test]
    fn exactly_touching_boxes_are_pairs_far_from_the_origin() {
        for offset in OFFSETS {
            for size in [1.0 / 1024.0, 0.5, 1.0, 64.0, 1024.0] {
                // Exactly representable: corners are offset + k·size.
                let ulp = offset.abs().max_element().max(1.0) * f32::EPSILON;
                if size < 2.0 * ulp {
                    continue;
                }
                let mut world = touching_grid(offset, size);
                let pairs = check_pairs(&mut world);
                assert_eq!(pairs.len(), grid_pairs(4), "offset {offset}, size {size}");
            }
        }
    }

    /// Coincident faces (two boxes sharing the same face plane and overlapping
    /// in it, or identical boxes) are pairs; a box one ulp away is not.
    #[test]
    fn coincident_faces_touch_and_one_ulp_apart_does_not() {
        for offset in OFFSETS {
            let mut world = World::new();
            let base = offset;
            let a = world.add(aabb(base, base + Vec3::splat(4.0))).unwrap();
            // Same face x = base.x + 4, larger in y and z.
            let b = world
                .add(aabb(base + Vec3::new(4.0, -2.0, -2.0), base + Vec3::new(8.0, 6.0, 6.0)))
                .unwrap();
            // Identical to a.
            let c = world.add(aabb(base, base + Vec3::splat(4.0))).unwrap();
            // One ulp beyond b's far face.
            let far = base.x + 8.0;
            let gap = next_up(far);
            assert!(gap > far);
            let d = world
                .add(aabb(
                    Vec3::new(gap, base.y, base.z),
                    Vec3::new(gap + 4.0, base.y + 4.0, base.z + 4.0),
                ))
                .unwrap();
            let pairs: Vec<(ColliderKey, ColliderKey)> = check_pairs(&mut world).iter().map(|p| (p.a, p.b)).collect();
            assert_eq!(pairs, [(a, b), (a, c), (b, c)], "offset {offset}");
            assert!(!pairs.iter().any(|&(x, y)| x == d || y == d));
        }
    }

    /// Spheres and capsules touching boxes and each other exactly (centres and
    /// radii exact in f32) are pairs at every offset; the tree agrees.
    #[test]
    fn round_shapes_touching_exactly_are_pairs() {
        for offset in OFFSETS {
            let mut world = World::new();
            let cube = world.add(aabb(offset, offset + Vec3::splat(2.0))).unwrap();
            // Sphere resting on the top face.
            let ball = world
                .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
                    offset + Vec3::new(1.0, 3.0, 1.0),
                    1.0,
                ))))
                .unwrap();
            // Sphere touching the ball on top.
            let top = world
                .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
                    offset + Vec3::new(1.0, 5.0, 1.0),
                    1.0,
                ))))
                .unwrap();
            // Capsule lying against the face x = 0 of the cube.
            let pill = world
                .add(ColliderDesc::new(Shape::Capsule(Capsule::new(
                    Segment::new(offset + Vec3::new(-0.5, 0.0, 0.0), offset + Vec3::new(-0.5, 2.0, 2.0)),
                    0.5,
                ))))
                .unwrap();
            let pairs: Vec<(ColliderKey, ColliderKey)> = check_pairs(&mut world).iter().map(|p| (p.a, p.b)).collect();
            for pair in [(cube, ball), (ball, top), (cube, pill)] {
                assert!(
                    pairs.contains(&pair),
                    "offset {offset}: {pair:?} missing from {pairs:?}"
                );
            }
        }
    }

    /// Zero-length segments at the corners, on the edges and faces, inside and
    /// just outside (one ulp) of each box, at every offset: the tree equals the
    /// brute force, and a point on the boundary hits at t = 0.
    #[test]
    fn zero_length_segments_on_corners_edges_and_faces() {
        for offset in OFFSETS {
            let mut world = touching_grid(offset, 1.0);
            world
                .add(aabb(offset + Vec3::splat(10.0), offset + Vec3::splat(10.0)))
                .unwrap(); // a point box
            check_pairs(&mut world);
            for i in 0..=8 {
                for j in 0..=8 {
                    for k in 0..=8 {
                        let p = offset + Vec3::new(i as f32, j as f32, k as f32) * 0.5;
                        let hit = check_cast(&world, &Segment::new(p, p));
                        // Every point of [0, 4]³ is in some cube (boundaries included).
                        let hit = hit.expect("inside the grid");
                        assert_eq!((hit.t, hit.point), (0.0, p));
                    }
                }
            }
            let corner = offset + Vec3::splat(10.0);
            assert!(
                check_cast(&world, &Segment::new(corner, corner)).is_some(),
                "the point box"
            );
            let beside = Vec3::new(next_up(corner.x), corner.y, corner.z);
            assert!(
                check_cast(&world, &Segment::new(beside, beside)).is_none(),
                "one ulp beside the point box"
            );
        }
    }

    /// Segments lying in face planes, running along edges, passing exactly
    /// through corners and edges, and grazing the grid's outer faces: the tree
    /// equals the brute force, and a segment entering a face has the exact `t`.
    #[test]
    fn segments_grazing_edges_and_lying_in_faces() {
        for offset in OFFSETS {
            let world = touching_grid(offset, 1.0);
            let at = |x: f32, y: f32, z: f32| offset + Vec3::new(x, y, z);
            for a in 0..=8 {
                let u = a as f32 * 0.5;
                for b in 0..=8 {
                    let v = b as f32 * 0.5;
                    // Along each axis, at every half-grid line: in faces, along edges.
                    for s in [
                        Segment::new(at(-2.0, u, v), at(6.0, u, v)),
                        Segment::new(at(u, -2.0, v), at(u, 6.0, v)),
                        Segment::new(at(u, v, -2.0), at(u, v, 6.0)),
                        Segment::new(at(6.0, u, v), at(-2.0, u, v)),
                        // Diagonals through corners and edges.
                        Segment::new(at(-1.0, -1.0 + u, v), at(5.0, 5.0 + u, v)),
                        Segment::new(at(u, -1.0, -1.0 + v), at(u, 5.0, 5.0 + v)),
                    ] {
                        if let Some(hit) = check_cast(&world, &s) {
                            assert!((0.0..=1.0).contains(&hit.t));
                        }
                    }
                }
            }
            // Outside, one ulp beyond the top face: misses.
            let top = offset.y + 4.0;
            let above = next_up(top);
            let skim = Segment::new(
                Vec3::new(offset.x - 2.0, above, offset.z + 1.0),
                Vec3::new(offset.x + 6.0, above, offset.z + 1.0),
            );
            assert!(
                check_cast(&world, &skim).is_none(),
                "offset {offset}: one ulp above the top face"
            );
            // In the top face: hits at the entry through the side face x = offset.x.
            let in_face = Segment::new(
                Vec3::new(offset.x - 2.0, top, offset.z + 1.0),
                Vec3::new(offset.x + 6.0, top, offset.z + 1.0),
            );
            let hit = check_cast(&world, &in_face).expect("a segment in the top face hits");
            assert_eq!(hit.t, 0.25, "offset {offset}");
        }
    }

    /// The closest hit of axis-aligned segments through a box is exact: `t` is
    /// `(face − start) / (end − start)` rounded once (checked in `f64`), at
    /// every offset and for boxes from 1e-4 to 1e5 wide.
    #[test]
    fn axis_aligned_hits_have_the_exact_t() {
        let mut rng = seeded(7);
        for offset in OFFSETS {
            for width in [1.0e-4, 1.0e-2, 1.0, 1.0e3, 1.0e5] {
                let mut world = World::new();
                let min = offset;
                let max = offset + Vec3::splat(width);
                world.add(aabb(min, max)).unwrap();
                if max.x <= min.x {
                    continue; // the width is below the ulp at this offset
                }
                for _ in 0..50 {
                    let axis = rng.below(3) as usize;
                    let from = min[axis] - width * rng.range(0.1, 10.0);
                    let to = max[axis] + width * rng.range(0.1, 10.0);
                    let mut start = (min + max) * 0.5;
                    start[axis] = from;
                    let mut end = start;
                    end[axis] = to;
                    let s = Segment::new(start, end);
                    let hit = check_cast(&world, &s).expect("through the box");
                    let exact = (f64::from(min[axis]) - f64::from(from)) / (f64::from(to) - f64::from(from));
                    let ulps = (hit.t - exact as f32).abs() / f32::EPSILON;
                    // The subtraction `face − start` in f32 rounds once more.
                    assert!(ulps <= 2.0, "offset {offset} width {width}: t {} vs {exact}", hit.t);
                    let mut normal = Vec3::ZERO;
                    normal[axis] = -1.0;
                    assert_eq!(hit.normal, normal);
                }
            }
        }
    }

    /// Random worlds of boxes from 1e-4 to 1e5 wide, spheres and capsules,
    /// some rotated, around each offset, and random segments (long, short,
    /// zero-length): every cast and pair finder equals the brute force.
    #[test]
    fn tiny_and_huge_shapes_far_from_the_origin_match_brute_force() {
        let mut rng = seeded(42);
        for offset in OFFSETS {
            let mut world = World::new();
            for _ in 0..200 {
                let center = offset + Vec3::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
                let width = [1.0e-4, 1.0e-3, 0.5, 3.0, 1.0e5][rng.below(5) as usize];
                let shape = match rng.below(4) {
                    0 | 1 => Shape::Aabb(Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(width * 0.5))),
                    2 => Shape::Sphere(Sphere::new(Vec3::ZERO, width * 0.5)),
                    _ => Shape::Capsule(Capsule::new(
                        Segment::new(Vec3::ZERO, Vec3::new(width, 0.0, 0.0)),
                        width * 0.25,
                    )),
                };
                let rotation = if rng.below(2) == 0 {
                    Quat::IDENTITY
                } else {
                    Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), rng.range(-3.0, 3.0))
                };
                world
                    .add(ColliderDesc::new(shape).with_transform(Transform::new(center, rotation, 1.0)))
                    .unwrap();
            }
            check_pairs(&mut world);
            for i in 0..400 {
                let start = offset + Vec3::new(rng.range(-80.0, 80.0), rng.range(-80.0, 80.0), rng.range(-80.0, 80.0));
                let length = [0.0, 1.0e-3, 1.0, 100.0, 1.0e5][i % 5];
                let direction = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                check_cast(&world, &Segment::new(start, start + direction * length));
            }
            // Move a tenth, then again: the incremental finder still agrees.
            let keys: Vec<ColliderKey> = world.iter().map(|(k, _)| k).collect();
            for frame in 0..3 {
                for &key in keys.iter().skip(frame).step_by(10) {
                    let mut t = world.get(key).unwrap().transform();
                    t.translation += Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                    world.set_transform(key, t).unwrap();
                }
                check_pairs(&mut world);
            }
        }
    }

    /// Regression of finding F3: a collider whose bounds reach past ±1.7e38
    /// (where the centre `(min + max) / 2` overflows) stays in the tree after
    /// an update that re-fattens its leaf: casts and pairs still find it.
    #[test]
    fn a_collider_near_f32_max_stays_found_after_an_update() {
        let mut world = World::new();
        let p = Vec3::new(1e19, -2.75, f32::MAX);
        let a = world
            .add(ColliderDesc::new(Shape::Sphere(Sphere::new(p, 0.0))))
            .unwrap();
        let b = world
            .add(ColliderDesc::new(Shape::Sphere(Sphere::new(p, 0.0))))
            .unwrap();
        // A new category re-fattens the leaf: its motion is ∞ − ∞ = NaN.
        world
            .set_filter(
                a,
                collide::Filter {
                    category: 2,
                    mask: u64::MAX,
                },
            )
            .unwrap();
        // Moving by less than an ulp of f32::MAX (2e31) leaves it in place.
        world
            .set_transform(b, Transform::from_translation(Vec3::new(0.0, 0.0, -1e30)))
            .unwrap();
        assert_eq!(world.validate(), Ok(()));
        let s = Segment::new(p, p);
        assert_eq!(
            world.segment_cast(&s, &QueryFilter::ALL).unwrap().map(|h| h.collider),
            Some(a)
        );
        let pairs = check_pairs(&mut world);
        assert_eq!(pairs.len(), 1);
    }

    /// Regression of finding F4: finite inputs whose world shape has a NaN (a
    /// scaled point overflowing to ∞, then rotated: ∞·0) are refused, not
    /// stored with finite bounds and never found.
    #[test]
    fn a_world_shape_with_a_nan_is_refused() {
        let mut world = World::new();
        let capsule = Shape::Capsule(Capsule::new(Segment::new(Vec3::splat(1e30), Vec3::ZERO), 1.0));
        let t = Transform {
            translation: Vec3::ZERO,
            rotation: Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 1.0),
            scale: Vec3::splat(1e10),
        };
        let world_shape = capsule.transformed(&t.validated().unwrap(), true).unwrap();
        let Shape::Capsule(c) = world_shape else { unreachable!() };
        assert!(!c.segment.start.is_finite(), "the scaled point overflows: {c:?}");
        let result = world.add(ColliderDesc::new(capsule.clone()).with_transform(t));
        assert!(matches!(result, Err(collide::Error::NonFinite(_))), "{result:?}");
        assert!(world.is_empty());
    }

    /// Regression of finding F11: a leaf inserted one by one next to another
    /// leaf makes a new pair node; when both leaves are in category 0 the
    /// refit stopped at the pair (its box and category looked unchanged) and
    /// the ancestors' boxes did not grow to hold the new leaf (`validate`
    /// failed). The world of the fuzzer's input, step by step.
    #[test]
    fn inserting_category_0_leaves_keeps_the_tree_valid() {
        let with = |shape: Shape, user: u64, category: u64, mask: u64, rotate: bool| {
            ColliderDesc::new(shape)
                .with_user_data(user)
                .with_filter(collide::Filter { category, mask })
                .with_should_rotate(rotate)
        };
        let sphere = |c: [f32; 3], r: f32| Shape::Sphere(Sphere::new(Vec3::from(c), r));
        let cube = |min: [f32; 3], max: [f32; 3]| Shape::Aabb(Aabb::new(Vec3::from(min), Vec3::from(max)));
        let all = u64::MAX;
        let mut world = World::new();
        world
            .add(with(sphere([-2.75, -2.75, -8.75], 1.25), 69, all, all, true))
            .unwrap();
        world.add(with(cube([-20.0; 3], [-18.75; 3]), 2, 6, 6, false)).unwrap();
        world.add(with(sphere([-2.75; 3], 1.25), 46, 0, 0, false)).unwrap();
        let capsule = Shape::Capsule(Capsule::new(
            Segment::new(Vec3::splat(-8.5), Vec3::new(-17.0, -4.5, -13.25)),
            1.25,
        ));
        world.extend([with(capsule, 69, 1, all, true)]).unwrap();
        world
            .extend([
                with(sphere([-2.75, -2.75, -4.75], 1.25), 69, 1, all, true),
                with(sphere([-2.75; 3], 1.25), 41, 1, all, true),
                with(cube([0.0, -8.75, -8.75], [0.25, -8.0, -8.0]), 190, all, all, true),
            ])
            .unwrap();
        assert_eq!(world.validate(), Ok(()));
        world
            .extend([
                with(cube([-2.75, -4.75, -4.75], [4.5, -3.5, -3.5]), 69, 1, all, true),
                with(sphere([-2.75; 3], 3.25), 255, 0, 6, true),
                with(sphere([0.0, 0.0, -17.75], 1e-40), 61, 1, all, true),
                with(cube([-2.75, -20.0, -20.0], [-2.75, -20.0, -20.0]), 0, all, all, false),
                with(cube([-20.0; 3], [-20.0; 3]), 0, all, all, false),
                with(cube([-20.0; 3], [-20.0; 3]), 0, all, all, false),
            ])
            .unwrap();
        assert_eq!(world.validate(), Ok(()));
        check_pairs(&mut world);
    }
}

/// Changing a collider's user data or filter keeps its placement: the world
/// shape of a rotated, scaled mesh and of a hull stay exactly what they
/// were (the same shared data, not a new placement of the same shape).
#[test]
fn user_data_and_filter_changes_keep_the_placement() {
    use collide::math::{Quat, Vec3};
    use collide::{ColliderDesc, ConvexHull, Filter, Shape, Transform, TriangleMesh, World};
    use std::sync::Arc;
    let mesh = TriangleMesh::new(
        vec![Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::new(1.0, 0.5, 1.0)],
        vec![[0, 1, 2], [1, 3, 2]],
    )
    .expect("a valid mesh");
    let hull = ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).expect("a valid hull");
    let placed = Transform::new(Vec3::new(3.0, -2.0, 7.0), Quat::from_rotation_y(0.7), 2.5);
    let mut world = World::new();
    for shape in [Shape::Mesh(Arc::new(mesh)), Shape::Hull(Arc::new(hull))] {
        let key = world
            .add(ColliderDesc::new(shape).with_transform(placed))
            .expect("a valid collider");
        let before = world.get(key).expect("live").world_shape().into_owned();
        world.set_user_data(key, 42).expect("live");
        world.set_filter(key, Filter { category: 2, mask: 3 }).expect("live");
        let after = world.get(key).expect("live");
        assert_eq!((after.user_data(), after.filter().category), (42, 2));
        assert_eq!(*after.world_shape(), before);
        match (&*after.world_shape(), &before) {
            (Shape::Mesh(a), Shape::Mesh(b)) => assert!(Arc::ptr_eq(a, b), "the same placed mesh"),
            (Shape::Hull(a), Shape::Hull(b)) => assert!(Arc::ptr_eq(a, b), "the same placed hull"),
            other => panic!("{other:?}"),
        }
    }
}

/// On a world larger than the caches, where a batch update asks for each
/// update's record, leaf and tree nodes ahead of time, `set_transforms`
/// still equals one `set_transform` per entry: a batch of every fifth
/// collider with keys given twice, then one shorter than the requests run
/// ahead. The tree stays valid and the pairs are the same.
#[test]
fn a_batch_on_a_world_beyond_the_caches_equals_one_update_per_entry() {
    use collide::math::Vec3;
    use collide::{Aabb, ColliderDesc, ColliderKey, Shape, Transform, World};

    let mut world = World::new();
    let unit = |i: usize| {
        let min = Vec3::new((i % 40) as f32, (i / 40 % 40) as f32, (i / 1600) as f32) * 1.5;
        ColliderDesc::new(Shape::Aabb(Aabb::new(min, min + Vec3::ONE))).with_user_data(i as u64)
    };
    let keys = world.extend((0..50_000).map(unit)).expect("valid boxes");
    assert!(
        world.memory_bytes() > 8 << 20,
        "a world beyond the caches: {} bytes",
        world.memory_bytes()
    );
    let _ = world.pairs();
    let mut single = world.clone();

    let moves = |step: usize, count: usize, d: f32| -> Vec<(ColliderKey, Transform)> {
        (0..count)
            .map(|i| {
                // Keys repeat once `count · step` passes half of them.
                let k = (i * step) % (keys.len() / 2);
                (
                    keys[k],
                    Transform::from_translation(Vec3::new(d, -d, 0.5 * d) * (i % 5) as f32),
                )
            })
            .collect()
    };
    for batch in [moves(5, 12_000, 0.3), moves(3, 5, 0.7)] {
        for (key, transform) in &batch {
            single.set_transform(*key, *transform).expect("a live collider");
        }
        world.set_transforms(&batch).expect("live colliders");
        assert_eq!(world.state_hash(), single.state_hash());
        assert_eq!(world.pairs(), single.pairs());
    }
    assert_eq!(world.validate(), Ok(()));
}
