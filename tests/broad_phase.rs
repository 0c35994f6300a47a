//! The broad phase against brute force: after random sequences of add,
//! remove and update (large jumps, zero-size and touching boxes, spheres and
//! capsules, filters), the tree stays valid, tree casts equal the O(n) loop
//! and every pair finder equals the O(n²) loop.

use collide::math::{Quat, Vec3};
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, Filter, Hit, Pair, QueryFilter, Segment, Shape, Sphere, Transform, World,
};
use proptest::prelude::*;
use rand::RngExt;

mod common;
use common::random::seeded;

/// A coordinate on a coarse grid, so boxes often touch exactly.
fn grid() -> impl Strategy<Value = f32> {
    (-40i32..40).prop_map(|v| v as f32 * 0.5)
}

fn point() -> impl Strategy<Value = Vec3> {
    (grid(), grid(), grid()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// Boxes (zero-size ones included), spheres and capsules.
fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        4 => (point(), (0u8..6, 0u8..6, 0u8..6)).prop_map(|(min, (x, y, z))| {
            Shape::Aabb(Aabb::new(min, min + Vec3::new(x as f32, y as f32, z as f32) * 0.5))
        }),
        1 => (point(), 0u8..6).prop_map(|(c, r)| Shape::Sphere(Sphere::new(c, r as f32 * 0.5))),
        1 => (point(), point(), 0u8..4).prop_map(|(a, b, r)| Shape::Capsule(Capsule::new(Segment::new(a, b), r as f32 * 0.5))),
    ]
}

fn transform() -> impl Strategy<Value = Transform> {
    prop_oneof![
        3 => point().prop_map(Transform::from_translation),
        1 => (point(), -3.0f32..3.0, prop_oneof![Just(1.0f32), Just(0.5), Just(2.0)])
            .prop_map(|(t, angle, scale)| Transform::new(t, Quat::from_rotation_y(angle), scale)),
    ]
}

fn filter() -> impl Strategy<Value = Filter> {
    prop_oneof![
        3 => Just(Filter::DEFAULT),
        1 => (1u64..4, 1u64..8).prop_map(|(category, mask)| Filter { category, mask }),
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Add(Shape, Transform, Filter, bool),
    Remove(usize),
    Move(usize, Transform),
    Nudge(usize, Vec3),
    Reshape(usize, Shape),
    Refilter(usize, Filter),
    /// Adds a copy of a live collider: equal boxes make ties in `t`.
    Duplicate(usize),
    Optimize,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (shape(), transform(), filter(), any::<bool>()).prop_map(|(s, t, f, r)| Op::Add(s, t, f, r)),
        2 => any::<usize>().prop_map(Op::Remove),
        2 => (any::<usize>(), transform()).prop_map(|(i, t)| Op::Move(i, t)),
        3 => (any::<usize>(), (-4i8..4, -4i8..4, -4i8..4))
            .prop_map(|(i, (x, y, z))| Op::Nudge(i, Vec3::new(x as f32, y as f32, z as f32) * 0.25)),
        1 => (any::<usize>(), shape()).prop_map(|(i, s)| Op::Reshape(i, s)),
        1 => (any::<usize>(), filter()).prop_map(|(i, f)| Op::Refilter(i, f)),
        2 => any::<usize>().prop_map(Op::Duplicate),
        1 => Just(Op::Optimize),
    ]
}

/// Applies one operation to the world, keeping `keys` in step.
fn apply(world: &mut World, keys: &mut Vec<ColliderKey>, op: &Op) {
    let pick = |i: usize, keys: &Vec<ColliderKey>| (!keys.is_empty()).then(|| keys[i % keys.len()]);
    match op {
        Op::Add(shape, transform, filter, rotate) => {
            let desc = ColliderDesc::new(shape.clone())
                .with_transform(*transform)
                .with_filter(*filter)
                .with_should_rotate(*rotate)
                .with_user_data(keys.len() as u64);
            keys.push(world.add(desc).expect("valid collider"));
        }
        Op::Remove(i) => {
            if let Some(key) = pick(*i, keys) {
                world.remove(key).expect("live key");
                keys.retain(|&k| k != key);
            }
        }
        Op::Move(i, transform) => {
            if let Some(key) = pick(*i, keys) {
                world.set_transform(key, *transform).expect("valid transform");
            }
        }
        Op::Nudge(i, delta) => {
            if let Some(key) = pick(*i, keys) {
                let mut t = *world.get(key).expect("live key").transform();
                t.translation += *delta;
                world.set_transform(key, t).expect("valid transform");
            }
        }
        Op::Reshape(i, shape) => {
            if let Some(key) = pick(*i, keys) {
                world.set_shape(key, shape.clone()).expect("valid shape");
            }
        }
        Op::Refilter(i, filter) => {
            if let Some(key) = pick(*i, keys) {
                world.set_filter(key, *filter).expect("valid filter");
            }
        }
        Op::Duplicate(i) => {
            if let Some(key) = pick(*i, keys) {
                let desc = world.get(key).expect("live key").desc().clone();
                keys.push(world.add(desc).expect("valid collider"));
            }
        }
        Op::Optimize => world.optimize(),
    }
}

fn pairwise(world: &World) -> Vec<Pair> {
    let mut pairs = Vec::new();
    world.test_pairwise(|p| pairs.push(p));
    pairs
}

/// Every hit of the segment, by brute force, sorted by `t` then key.
fn all_hits(world: &World, segment: &Segment, filter: &QueryFilter) -> Vec<Hit> {
    let mut hits: Vec<Hit> = world
        .iter()
        .filter(|(k, c)| filter.accepts(*k, c.filter()))
        .filter_map(|(k, c)| {
            c.world_shape().cast_segment(segment).map(|cast| Hit {
                collider: k,
                user_data: c.user_data(),
                t: cast.t,
                point: segment.point_at(cast.t),
                normal: cast.normal,
            })
        })
        .collect();
    hits.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.collider.cmp(&b.collider)));
    hits
}

/// Whether the pair of keys is in the set (user data aside).
fn contains_pair(set: &[Pair], pair: &Pair) -> bool {
    set.iter().any(|p| (p.a, p.b) == (pair.a, pair.b))
}

fn segment() -> impl Strategy<Value = Segment> {
    prop_oneof![
        3 => (point(), point()).prop_map(|(a, b)| Segment::new(a, b)),
        1 => point().prop_map(|a| Segment::new(a, a)),
        1 => (point(), 0usize..3, -20i8..20).prop_map(|(a, axis, len)| {
            let mut b = a;
            b[axis] += len as f32 * 0.5;
            Segment::new(a, b)
        }),
    ]
}

/// A query's category and mask, and maybe an excluded collider (by index).
fn query_filter() -> impl Strategy<Value = (u64, u64, Option<usize>)> {
    (
        prop_oneof![Just(u64::MAX), 1u64..4],
        prop_oneof![Just(u64::MAX), 1u64..8],
        proptest::option::of(any::<usize>()),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// After every operation: the tree is valid; closest, any, all and
    /// batch casts, region queries, every pair finder and the pair events
    /// equal brute force.
    #[test]
    fn tree_equals_brute_force(
        ops in proptest::collection::vec(op(), 1..60),
        segments in proptest::collection::vec(segment(), 8),
        filters in proptest::collection::vec(query_filter(), 8),
        regions in proptest::collection::vec(shape(), 3),
    ) {
        let mut world = World::new();
        let mut keys = Vec::new();
        let mut previous: Vec<Pair> = Vec::new();
        for op in &ops {
            apply(&mut world, &mut keys, op);
            prop_assert_eq!(world.validate(), Ok(()));
            let mut query_filters = Vec::new();
            for (segment, &(category, mask, exclude)) in segments.iter().zip(&filters) {
                let mut filter = QueryFilter::with_bits(category, mask);
                filter.exclude = exclude.and_then(|i| (!keys.is_empty()).then(|| keys[i % keys.len()]));
                query_filters.push(filter);
                let closest = world.segment_cast(segment, &filter).unwrap();
                prop_assert_eq!(closest, world.segment_cast_brute_force(segment, &filter).unwrap(), "cast {:?}", segment);

                let all = all_hits(&world, segment, &filter);
                let mut fast_all = Vec::new();
                world.segment_cast_all(segment, &filter, &mut fast_all).unwrap();
                prop_assert_eq!(&fast_all, &all);
                prop_assert_eq!(fast_all.first().copied(), closest);

                let any = world.segment_cast_any(segment, &filter).unwrap();
                prop_assert_eq!(any.is_some(), closest.is_some());
                if let Some(any) = any {
                    prop_assert!(all.contains(&any), "any-hit {:?} is not a hit", any);
                }
            }
            let mut batch = vec![None; segments.len()];
            world.segment_cast_batch(&segments, &QueryFilter::ALL, &mut batch).unwrap();
            for (segment, hit) in segments.iter().zip(&batch) {
                prop_assert_eq!(*hit, world.segment_cast_brute_force(segment, &QueryFilter::ALL).unwrap());
            }
            for (region, filter) in regions.iter().zip(&query_filters) {
                let mut found = Vec::new();
                world.overlap(region, filter, |key, _| found.push(key)).unwrap();
                found.sort();
                let expected: Vec<ColliderKey> = world
                    .iter()
                    .filter(|(k, c)| filter.accepts(*k, c.filter()) && region.intersects(c.world_shape()))
                    .map(|(k, _)| k)
                    .collect();
                prop_assert_eq!(found, expected);
            }
            let reference = pairwise(&world);
            prop_assert_eq!(world.pairs(), reference.as_slice());
            prop_assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());
            let events = world.pair_events();
            let began: Vec<Pair> = reference.iter().filter(|p| !contains_pair(&previous, p)).copied().collect();
            let ended: Vec<Pair> = previous.iter().filter(|p| !contains_pair(&reference, p)).copied().collect();
            prop_assert_eq!(events.began, began.as_slice());
            prop_assert_eq!(events.ended, ended.as_slice());
            previous = reference;
        }
    }
}

/// A world built from many boxes, then moved frame by frame (enough to
/// trigger the tree's own rebuilds), keeps matching brute force.
#[test]
fn many_frames_of_motion_match_brute_force() {
    let mut world = World::new();
    let mut rng = seeded(0x9E37_79B9_7F4A_7C15);
    let mut random = move || rng.random::<f32>();
    let mut boxes = Vec::new();
    for _ in 0..400 {
        let min = Vec3::new(random(), random(), random()) * 60.0;
        let size = Vec3::new(random(), random(), random()) * 4.0;
        boxes.push(Aabb::new(min, min + size));
    }
    let keys: Vec<ColliderKey> = boxes
        .iter()
        .map(|b| world.add(ColliderDesc::new(Shape::Aabb(*b))).unwrap())
        .collect();
    for frame in 0..60 {
        for _ in 0..40 {
            let i = (random() * keys.len() as f32) as usize % keys.len();
            let delta = (Vec3::new(random(), random(), random()) - 0.5) * if frame % 7 == 0 { 40.0 } else { 1.0 };
            boxes[i] = Aabb::new(boxes[i].min + delta, boxes[i].max + delta);
            world.set_shape(keys[i], Shape::Aabb(boxes[i])).unwrap();
        }
        assert_eq!(world.validate(), Ok(()));
        let reference = pairwise(&world);
        assert_eq!(world.pairs(), reference.as_slice(), "frame {frame}");
        // A batch large enough to be spread over threads.
        let segments: Vec<Segment> = (0..600)
            .map(|_| {
                let a = Vec3::new(random(), random(), random()) * 64.0;
                let b = Vec3::new(random(), random(), random()) * 64.0;
                Segment::new(a, b)
            })
            .collect();
        let mut batch = vec![None; segments.len()];
        world
            .segment_cast_batch(&segments, &QueryFilter::ALL, &mut batch)
            .unwrap();
        for (s, hit) in segments.iter().zip(&batch) {
            assert_eq!(*hit, world.segment_cast_brute_force(s, &QueryFilter::ALL).unwrap());
        }
    }
}

/// `World::pairs` finds the pairs of changed colliders by one tree query
/// each when few changed, by walking the tree against itself when many did:
/// both equal brute force, with colliders removed and their tree leaves
/// reused by new ones between calls (a removed leaf once stayed flagged as
/// changed, so the collider reusing it was never queried).
#[test]
fn pairs_by_query_and_by_walk_match_brute_force_with_reused_leaves() {
    let mut world = World::new();
    let mut rng = seeded(0x2545_F491_4F6C_DD1D);
    let mut random = move || rng.random::<f32>();
    let random_box = |random: &mut dyn FnMut() -> f32| {
        let min = Vec3::new(random(), random(), random()) * 30.0;
        Aabb::new(min, min + Vec3::new(random(), random(), random()) * 4.0)
    };
    let mut keys: Vec<ColliderKey> = (0..300)
        .map(|_| {
            world
                .add(ColliderDesc::new(Shape::Aabb(random_box(&mut random))))
                .unwrap()
        })
        .collect();
    for frame in 0..40 {
        // Every fourth frame changes more than a third of the colliders.
        let changes = if frame % 4 == 3 { 150 } else { 1 + frame % 9 };
        for _ in 0..changes {
            let i = (random() * keys.len() as f32) as usize % keys.len();
            if random() < 0.5 {
                world.remove(keys[i]).unwrap();
                let reference = pairwise(&world);
                assert_eq!(world.pairs(), reference.as_slice(), "frame {frame}, after a removal");
                keys[i] = world
                    .add(ColliderDesc::new(Shape::Aabb(random_box(&mut random))))
                    .unwrap();
            } else {
                world.set_shape(keys[i], Shape::Aabb(random_box(&mut random))).unwrap();
            }
        }
        let reference = pairwise(&world);
        assert_eq!(world.pairs(), reference.as_slice(), "frame {frame}");
    }
}

/// A point sphere at `(f32::MAX, f32::MAX, f32::MAX)`: its tree box, grown
/// by the rounding margin, reaches +∞ on every axis, where the empty slots'
/// boxes (+∞, +∞) lie.
fn point_sphere_at_f32_max() -> ColliderDesc {
    ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::splat(f32::MAX), 0.0)))
}

/// A world holding one unit box at the origin, beside which the tests
/// below add colliders at the far end of the `f32` range.
fn world_with_unit_box() -> World {
    let mut world = World::new();
    world
        .add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE))))
        .unwrap();
    world
}

/// A collider whose tree box the rounding margin grows to +∞ on every axis
/// (a point sphere at f32::MAX) overlaps the empty slots' boxes (+∞, +∞):
/// the tree walk against itself skips them (it indexed node `u32::MAX`
/// and panicked), and the pairs equal brute force.
#[test]
fn a_collider_at_f32_max_pairs_without_reaching_empty_slots() {
    let mut world = world_with_unit_box();
    world.add(point_sphere_at_f32_max()).unwrap();
    let reference = pairwise(&world);
    assert!(reference.is_empty());
    assert_eq!(world.pairs(), reference.as_slice());
    assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());
    let far = world.add(point_sphere_at_f32_max()).unwrap();
    let reference = pairwise(&world);
    assert_eq!(reference.len(), 1, "the two point spheres at f32::MAX touch");
    assert_eq!(reference[0].b, far);
    assert_eq!(world.pairs(), reference.as_slice());
}

/// The tree cast finds no hit in an empty slot: with colliders whose tree
/// boxes reach +∞ (point spheres at f32::MAX) beside the empty slots'
/// (+∞, +∞) boxes, casts along every axis-parallel and diagonal direction,
/// from near the origin and from near f32::MAX, equal brute force (an empty
/// slot taken for a hit would index leaf `0x7FFF_FFFF` and panic).
#[test]
fn casts_near_f32_max_never_reach_empty_slots() {
    let mut world = world_with_unit_box();
    for _ in 0..2 {
        world.add(point_sphere_at_f32_max()).unwrap();
    }
    let mut checked = 0;
    for start in [Vec3::splat(0.5), Vec3::splat(-2.0), Vec3::splat(f32::MAX * 0.5)] {
        for dx in [-1.0f32, 0.0, 1.0] {
            for dy in [-1.0f32, 0.0, 1.0] {
                for dz in [-1.0f32, 0.0, 1.0] {
                    let end = start + Vec3::new(dx, dy, dz) * 1e38;
                    let s = Segment::new(start, end);
                    let slow = world.segment_cast_brute_force(&s, &QueryFilter::ALL).unwrap();
                    assert_eq!(world.segment_cast(&s, &QueryFilter::ALL).unwrap(), slow, "{s:?}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 81);
}

/// Equal boxes hit at the same `t`: the cast reports the smaller key, as the
/// brute-force loop does, whatever the insertion order.
#[test]
fn ties_go_to_the_smaller_key() {
    let mut world = World::new();
    let unit = ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)));
    let keys: Vec<ColliderKey> = (0..8).map(|_| world.add(unit.clone()).unwrap()).collect();
    world.remove(keys[0]).unwrap();
    let again = world.add(unit).unwrap();
    let smallest = world.iter().map(|(k, _)| k).min().unwrap();
    let s = Segment::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(2.0, 0.5, 0.5));
    for filter in [QueryFilter::ALL, QueryFilter::excluding(again)] {
        let hit = world.segment_cast(&s, &filter).unwrap().unwrap();
        assert_eq!(Some(hit), world.segment_cast_brute_force(&s, &filter).unwrap());
        if filter.exclude != Some(smallest) {
            assert_eq!(hit.collider, smallest);
        }
    }
}

/// Axis-parallel segments that run exactly along a box's faces and edges
/// (the start coordinate on the box's bounds on the axes it does not move
/// along) hit as the exact test says, through the tree too: a regression
/// for a slab test that treated a start on the face as outside.
#[test]
fn segments_along_faces_and_edges_match_brute_force() {
    let mut world = World::new();
    let boxes = [
        Aabb::new(Vec3::new(-15.5, 10.0, 4.0), Vec3::new(-15.5, 12.5, 4.5)),
        Aabb::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 1.0)),
        Aabb::new(Vec3::new(3.0, -1.0, 2.0), Vec3::new(5.0, 2.0, 2.0)),
    ];
    for b in boxes {
        world.add(ColliderDesc::new(Shape::Aabb(b))).unwrap();
    }
    // Many more boxes far away, so the tree has inner nodes.
    for i in 0..200 {
        let min = Vec3::new(100.0 + (i % 10) as f32 * 3.0, (i / 10) as f32 * 3.0, 50.0);
        world
            .add(ColliderDesc::new(Shape::Aabb(Aabb::new(min, min + Vec3::ONE))))
            .unwrap();
    }
    world.optimize();
    let mut checked = 0;
    for b in boxes {
        for axis in 0..3 {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            for cu in [b.min[u], b.max[u]] {
                for cv in [b.min[v], b.max[v]] {
                    let mut start = Vec3::ZERO;
                    start[axis] = b.min[axis] - 2.5;
                    start[u] = cu;
                    start[v] = cv;
                    let mut end = start;
                    end[axis] = b.max[axis] + 3.0;
                    for s in [Segment::new(start, end), Segment::new(end, start)] {
                        let slow = world.segment_cast_brute_force(&s, &QueryFilter::ALL).unwrap();
                        assert!(slow.is_some(), "{s:?} runs along a box");
                        assert_eq!(world.segment_cast(&s, &QueryFilter::ALL).unwrap(), slow, "{s:?}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 3 * 4 * 2);
}

/// `extend` adds a batch all or nothing: an invalid description or a batch
/// over the limit leaves the world as it was; a valid batch (small, into a
/// populated world, or large, by one build) answers like brute force.
#[test]
fn extend_is_all_or_nothing_and_matches_brute_force() {
    let desc = |i: u32| {
        let min = Vec3::new(
            (i % 17) as f32 * 1.5,
            (i / 17 % 13) as f32 * 1.5,
            (i / 221) as f32 * 1.5,
        );
        ColliderDesc::new(Shape::Aabb(Aabb::new(min, min + Vec3::splat(2.0)))).with_user_data(u64::from(i))
    };
    let mut world = World::with_max_colliders(1000);
    let first = world.extend((0..10).map(desc)).unwrap();
    assert_eq!(first.len(), 10);

    let before = pairwise(&world);
    let mut bad: Vec<ColliderDesc> = (10..20).map(desc).collect();
    bad[5].shape = Shape::Sphere(Sphere::new(Vec3::ZERO, -1.0));
    assert_eq!(world.extend(bad), Err(collide::Error::NegativeRadius));
    assert_eq!(world.len(), 10);
    assert_eq!(world.extend((0..991).map(desc)), Err(collide::Error::CapacityExceeded));
    // An invalid description past the room is still reported as itself,
    // as if every description were checked before any was placed.
    let mut past_room: Vec<ColliderDesc> = (0..995).map(desc).collect();
    past_room[993].shape = Shape::Sphere(Sphere::new(Vec3::ZERO, -1.0));
    assert_eq!(world.extend(past_room), Err(collide::Error::NegativeRadius));
    assert_eq!((world.len(), pairwise(&world)), (10, before));
    assert_eq!(world.validate(), Ok(()));
    assert!(first.iter().all(|&key| world.contains(key)));

    world.extend((10..20).map(desc)).unwrap();
    world.extend((20..600).map(desc)).unwrap();
    assert_eq!(world.validate(), Ok(()));
    assert_eq!(world.len(), 600);
    let reference = pairwise(&world);
    assert_eq!(world.pairs(), reference.as_slice());
    for i in 0..200 {
        let a = Vec3::new((i % 7) as f32 * 4.0 - 2.0, (i % 11) as f32 * 2.0, (i % 5) as f32 * 3.0);
        let s = Segment::new(a, a + Vec3::new(20.0, 3.0 - (i % 3) as f32, 7.0));
        assert_eq!(
            world.segment_cast(&s, &QueryFilter::ALL).unwrap(),
            world.segment_cast_brute_force(&s, &QueryFilter::ALL).unwrap()
        );
    }
}

/// A batch into an emptied world numbers the tree's leaves anew, in tree
/// order: every key must still reach its own leaf. After pairs were cached
/// and every collider removed, a level load's pairs, casts and moves (each
/// found through the key's leaf) answer like brute force.
#[test]
fn a_level_load_into_an_emptied_world_keeps_every_key_on_its_leaf() {
    let desc = |i: u32| {
        let min = Vec3::new(
            (i * 7 % 23) as f32 * 1.5,
            (i * 5 % 19) as f32 * 1.5,
            (i % 3) as f32 * 1.5,
        );
        ColliderDesc::new(Shape::Aabb(Aabb::new(min, min + Vec3::splat(2.0)))).with_user_data(u64::from(i) << 8)
    };
    let mut world = World::new();
    let old = world.extend((0..150).map(desc)).unwrap();
    assert!(!world.pairs().is_empty());
    for key in old {
        world.remove(key).unwrap();
    }
    let keys = world.extend((1000..1400).map(desc)).unwrap();
    assert_eq!(world.validate(), Ok(()));
    let reference = pairwise(&world);
    assert_eq!(world.pairs(), reference.as_slice());
    // Move every other collider far up, one by one: each move must change
    // the collider's own leaf.
    for (n, &key) in keys.iter().enumerate().step_by(2) {
        world
            .set_transform(
                key,
                Transform::from_translation(Vec3::new(0.0, 500.0 + n as f32 * 3.0, 0.0)),
            )
            .unwrap();
    }
    assert_eq!(world.validate(), Ok(()));
    let reference = pairwise(&world);
    assert_eq!(world.pairs(), reference.as_slice());
    for (n, &key) in keys.iter().enumerate() {
        let centre = world.get(key).unwrap().aabb().center();
        let s = Segment::new(centre - Vec3::new(50.0, 0.25, 0.0), centre + Vec3::new(50.0, 0.25, 0.0));
        let hit = world.segment_cast(&s, &QueryFilter::ALL).unwrap();
        assert_eq!(
            hit,
            world.segment_cast_brute_force(&s, &QueryFilter::ALL).unwrap(),
            "collider {n}"
        );
        assert!(hit.is_some(), "collider {n}");
    }
}
