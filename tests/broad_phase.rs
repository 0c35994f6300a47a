//! The broad phase against brute force: after random sequences of add,
//! remove and update (large jumps, zero-size and touching boxes, spheres and
//! capsules, filters), the tree stays valid, tree casts equal the O(n) loop
//! and every pair finder equals the O(n²) loop.
//!
//! Sweep and prune in the cells of a grid against the O(n²) loop, where the
//! grid is stressed: boxes of every size from a thousandth to a thousand
//! units (so some reach many cells and are swept apart), boxes sharing
//! cells, boxes beyond the grid's last cell, touching and zero-size boxes,
//! and scenes that change scale and spread between calls (a new grid, a
//! new sweep axis).
//!
//! And the book's sweep-and-prune bugs (ties and determinism).

mod common;

use collide::math::{Quat, Vec3};
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, Filter, Hit, Pair, QueryFilter, Segment, Shape, Sphere, Transform, World,
};
use common::geometry::v;
use common::random::seeded;
use proptest::prelude::*;
use rand::RngExt;

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
                let mut t = world.get(key).expect("live key").transform();
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
                sub_shape: cast.sub_shape,
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
                world.intersections_with_shape(region, filter, |key, _| found.push(key)).unwrap();
                found.sort();
                let expected: Vec<ColliderKey> = world
                    .iter()
                    .filter(|(k, c)| filter.accepts(*k, c.filter()) && region.intersects(&c.world_shape()))
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

// ---------------------------------------------------------------------------
// Sweep and prune in the cells of a grid.

/// Asserts that sweep and prune finds the pairs of the O(n²) loop, and
/// returns them.
fn pairs_checked(world: &mut World) -> Vec<Pair> {
    let reference = pairwise(world);
    assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());
    reference
}

fn boxed(min: Vec3, size: Vec3) -> ColliderDesc {
    ColliderDesc::new(Shape::Aabb(Aabb::new(min, min + size)))
}

/// A length from 2⁻¹⁰ to 2¹⁰, uniform in its exponent, or zero.
fn length() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => (-10i32..=10, 0.0f32..1.0).prop_map(|(e, m)| (1.0 + m) * (e as f32).exp2()),
        1 => Just(0.0f32),
    ]
}

/// A box: a corner spread over ±2¹² on each axis, on a grid of halves so
/// that boxes touch exactly now and then, and a size on each axis.
fn any_box() -> impl Strategy<Value = (Vec3, Vec3)> {
    let corner = (-8192i32..8192).prop_map(|v| v as f32 * 0.5);
    ((corner.clone(), corner.clone(), corner), (length(), length(), length()))
        .prop_map(|((x, y, z), (a, b, c))| (Vec3::new(x, y, z), Vec3::new(a, b, c)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Boxes of every size, then the same boxes moved closer together and
    /// scaled, then a third of them removed and new ones added: after each
    /// step, sweep and prune returns the pairs of the O(n²) loop.
    #[test]
    fn sweep_and_prune_equals_pairwise_at_every_scale(
        boxes in prop::collection::vec(any_box(), 1..160),
        squeeze in prop_oneof![Just(1.0f32 / 64.0), Just(0.25), Just(4.0)],
        added in prop::collection::vec(any_box(), 0..40),
    ) {
        let mut world = World::new();
        let keys = world.extend(boxes.iter().map(|&(min, size)| boxed(min, size))).unwrap();
        let reference = pairwise(&world);
        prop_assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());

        let updates: Vec<(ColliderKey, Shape)> = keys
            .iter()
            .zip(&boxes)
            .map(|(&key, &(min, size))| (key, Shape::Aabb(Aabb::new(min * squeeze, (min + size) * squeeze))))
            .collect();
        world.set_shapes(&updates).unwrap();
        let reference = pairwise(&world);
        prop_assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());

        for &key in keys.iter().step_by(3) {
            world.remove(key).unwrap();
        }
        world.extend(added.iter().map(|&(min, size)| boxed(min, size))).unwrap();
        let reference = pairwise(&world);
        prop_assert_eq!(world.pairs_sweep_and_prune(), reference.as_slice());
    }
}

/// A level: a ground under everything, long walls across many cells,
/// crates in rows that touch, and a stack of zero-size boxes at one point.
/// The ground and the walls are swept apart from the crates, and each
/// crate pair that shares two or four cells is reported once.
#[test]
fn a_level_with_a_ground_walls_and_touching_crates() {
    let mut world = World::new();
    let mut descs = vec![boxed(Vec3::new(0.0, -1.0, 0.0), Vec3::new(400.0, 1.0, 400.0))];
    for i in 0..20 {
        let at = i as f32 * 19.0;
        descs.push(boxed(Vec3::new(at, 0.0, 0.0), Vec3::new(0.5, 8.0, 400.0)));
        descs.push(boxed(Vec3::new(0.0, 0.0, at + 3.0), Vec3::new(400.0, 8.0, 0.5)));
    }
    for row in 0..40 {
        for column in 0..40 {
            let corner = Vec3::new(column as f32 * 2.0 + 1.0, 0.0, row as f32 * 2.0 + 1.0);
            descs.push(boxed(corner, Vec3::splat(2.0)));
        }
    }
    for _ in 0..5 {
        descs.push(boxed(Vec3::new(31.0, 1.0, 31.0), Vec3::ZERO));
    }
    world.extend(descs).unwrap();
    let reference = pairs_checked(&mut world);
    assert!(reference.len() > 5_000, "{} pairs", reference.len());
}

/// Boxes far beyond the grid's last cell on both axes across the sweep (the
/// grid holds at most 2¹⁵ cells a side; here a cell fits the unit boxes,
/// and two boxes sit a billion units away, one overlapping the other), with
/// a box spanning the whole range: all clamped into the edge cells, and
/// still every pair found once.
#[test]
fn boxes_beyond_the_last_cell_pair_up() {
    let mut world = World::new();
    let mut descs: Vec<ColliderDesc> = (0..200)
        .map(|i| boxed(Vec3::new(i as f32 * 0.75, (i % 7) as f32, (i % 5) as f32), Vec3::ONE))
        .collect();
    descs.push(boxed(Vec3::new(1.0e9, 1.0e9, 1.0e9), Vec3::ONE));
    descs.push(boxed(Vec3::new(1.0e9 + 0.5, 1.0e9, 1.0e9), Vec3::ONE));
    descs.push(boxed(Vec3::new(-1.0e9, -1.0e9, -1.0e9), Vec3::ONE));
    descs.push(boxed(Vec3::splat(-2.0e9), Vec3::splat(4.0e9)));
    world.extend(descs).unwrap();
    let reference = pairs_checked(&mut world);
    let far = reference
        .iter()
        .filter(|p| world.get(p.a).unwrap().aabb().min.x >= 1.0e9 && world.get(p.b).unwrap().aabb().min.x >= 1.0e9)
        .count();
    assert_eq!(far, 1, "the two far boxes overlap each other");
}

/// Zero-size boxes only (every width zero, so the grid's cell comes from
/// the spread alone), touching at shared points.
#[test]
fn points_only() {
    let mut world = World::new();
    let descs = (0..300).map(|i| boxed(Vec3::new((i % 10) as f32, (i / 10 % 3) as f32, 0.0), Vec3::ZERO));
    world.extend(descs).unwrap();
    let reference = pairs_checked(&mut world);
    assert!(!reference.is_empty());
}

/// Wide boxes of every orientation among small ones: slabs across the
/// whole scene beside it and through it on each axis, walls long on each
/// axis, and a box far out on every axis (the grid leaves it in an edge
/// cell). Each wide box is swept against the cells it reaches, row by row,
/// and passed over where the cells' boxes lie beyond it.
#[test]
fn wide_boxes_of_every_orientation() {
    let mut world = World::new();
    let mut descs: Vec<ColliderDesc> = (0..2000)
        .map(|i| {
            let (x, y, z) = (
                (i % 20) as f32 * 1.5,
                (i / 20 % 10) as f32 * 1.5,
                (i / 200) as f32 * 1.5,
            );
            boxed(Vec3::new(x, y, z), Vec3::splat(1.0))
        })
        .collect();
    for axis in 0..3 {
        let slab = |offset: f32| {
            let mut min = Vec3::splat(-10.0);
            let mut size = Vec3::splat(60.0);
            min[axis] = offset;
            size[axis] = 0.5;
            boxed(min, size)
        };
        descs.extend([-100.0, 100.0, -0.5, 7.0, 14.5, 15.25, 29.5].map(slab));
        for at in [0.5f32, 6.0, 13.5] {
            let mut min = Vec3::splat(at);
            let mut size = Vec3::splat(0.25);
            min[axis] = -5.0;
            size[axis] = 50.0;
            descs.push(boxed(min, size));
        }
    }
    descs.push(boxed(Vec3::splat(5.0e8), Vec3::splat(2.0)));
    descs.push(boxed(Vec3::splat(5.0e8 + 1.0), Vec3::splat(2.0)));
    world.extend(descs).unwrap();
    let reference = pairs_checked(&mut world);
    assert!(reference.len() > 1000, "{} pairs", reference.len());
}

/// Two wide slabs just touching the first and the last of the small boxes
/// on the sweep axis (the boxes spread most along x, so x is swept): a
/// wide box is passed over only when it lies strictly beyond them.
#[test]
fn wide_slabs_touching_the_ends_of_the_sweep() {
    let mut world = World::new();
    let mut descs: Vec<ColliderDesc> = (0..101)
        .map(|i| boxed(Vec3::new(i as f32, (i % 3) as f32, (i % 5) as f32), Vec3::ONE))
        .collect();
    descs.push(boxed(Vec3::new(-1.0, -50.0, -50.0), Vec3::new(1.0, 100.0, 100.0)));
    descs.push(boxed(Vec3::new(101.0, -50.0, -50.0), Vec3::new(1.0, 100.0, 100.0)));
    let keys = world.extend(descs).unwrap();
    let slabs = &keys[keys.len() - 2..];
    let reference = pairs_checked(&mut world);
    let slab_pairs = reference
        .iter()
        .filter(|p| slabs.contains(&p.a) || slabs.contains(&p.b))
        .count();
    assert_eq!(slab_pairs, 2, "each slab touches one end box");
}

// ---------------------------------------------------------------------------
// The book's sweep and prune: ties and determinism (`tests/common/book.rs`)
// ---------------------------------------------------------------------------

/// A row of unit boxes with many equal `min.x` (ties for the sweep), added in the given order.
fn tied_world(order: &[usize]) -> (World, Vec<ColliderKey>) {
    let mut world = World::new();
    let mut keys = vec![ColliderKey::default(); order.len()];
    for &i in order {
        let x = (i / 4) as f32;
        let y = (i % 4) as f32 * 0.75;
        let shape = Shape::Aabb(Aabb::new(v(x, y, 0.0), v(x + 1.0, y + 1.0, 1.0)));
        let filter = if i % 7 == 3 {
            Filter { category: 2, mask: 2 }
        } else {
            Filter::DEFAULT
        };
        keys[i] = world
            .add(ColliderDesc::new(shape).with_user_data(i as u64).with_filter(filter))
            .unwrap();
    }
    (world, keys)
}

/// Pairs as `(a, b, user_a, user_b)`.
type PairList = Vec<(ColliderKey, ColliderKey, u64, u64)>;

/// The pairs of `test_pairwise` and of `test_sweep_and_prune`, in the order delivered.
fn collect_pairs(world: &mut World) -> (PairList, PairList) {
    let mut pairwise = Vec::new();
    world.test_pairwise(|p| pairwise.push((p.a, p.b, p.user_a, p.user_b)));
    let mut sap = Vec::new();
    world.test_sweep_and_prune(|p| sap.push((p.a, p.b, p.user_a, p.user_b)));
    (pairwise, sap)
}

/// Sweep and prune is deterministic: same pairs in the same order as `test_pairwise`, sorted by key, repeatable, independent of insertion order, and it does not disturb other queries' tie order.
#[test]
fn sweep_and_prune_deterministic() {
    let n = 40;
    let forward: Vec<usize> = (0..n).collect();
    let reversed: Vec<usize> = (0..n).rev().collect();
    let interleaved: Vec<usize> = (0..n).map(|i| (i * 17) % n).collect();
    let mut reference: Option<Vec<(u64, u64)>> = None;
    for order in [&forward, &reversed, &interleaved] {
        let (mut world, _keys) = tied_world(order);
        let (pairwise, sap) = collect_pairs(&mut world);
        assert!(!pairwise.is_empty());
        assert_eq!(sap, pairwise, "sweep and prune differs from pairwise");
        assert!(
            pairwise.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)),
            "not sorted by key"
        );
        assert!(pairwise.iter().all(|p| p.0 < p.1));
        let slice: Vec<_> = world
            .pairs_sweep_and_prune()
            .iter()
            .map(|p| (p.a, p.b, p.user_a, p.user_b))
            .collect();
        assert_eq!(slice, pairwise);
        let (_, again) = collect_pairs(&mut world);
        assert_eq!(again, sap, "a second sweep gives another order");
        // The same set of pairs by user data, whatever the insertion order.
        let mut by_user: Vec<(u64, u64)> = pairwise.iter().map(|p| (p.2.min(p.3), p.2.max(p.3))).collect();
        by_user.sort_unstable();
        match &reference {
            None => reference = Some(by_user),
            Some(r) => assert_eq!(&by_user, r, "pair set depends on insertion order"),
        }
    }
    // Other queries keep their tie order after a sweep: a cast hitting two coincident boxes picks the smaller key.
    let mut world = World::new();
    let twin = Shape::Aabb(Aabb::new(v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0)));
    let first = world.add(ColliderDesc::new(twin.clone()).with_user_data(1)).unwrap();
    let second = world.add(ColliderDesc::new(twin).with_user_data(2)).unwrap();
    let cast = Segment::new(v(-1.0, 0.5, 0.5), v(2.0, 0.5, 0.5));
    let expected = first.min(second);
    assert_eq!(
        world.segment_cast(&cast, &QueryFilter::ALL).unwrap().unwrap().collider,
        expected
    );
    world.test_sweep_and_prune(|_| {});
    assert_eq!(
        world.segment_cast(&cast, &QueryFilter::ALL).unwrap().unwrap().collider,
        expected
    );
}

/// Sweep and prune with the sweep axis full of ties in a rotated, scaled scene still equals the pairwise reference.
#[test]
fn sweep_and_prune_ties_with_transforms() {
    let mut world = World::new();
    for i in 0..30u64 {
        let shape = match i % 3 {
            0 => Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)),
            1 => Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5)),
            _ => Shape::Capsule(Capsule::new(Segment::new(Vec3::ZERO, Vec3::Y), 0.25)),
        };
        let transform = Transform {
            translation: v(0.0, (i / 3) as f32 * 0.5, (i % 3) as f32),
            rotation: Quat::from_rotation_y(0.3 * i as f32),
            scale: Vec3::splat(1.0 + (i % 2) as f32),
        };
        world
            .add(ColliderDesc::new(shape).with_transform(transform).with_user_data(i))
            .unwrap();
    }
    let (pairwise, sap) = collect_pairs(&mut world);
    assert!(!pairwise.is_empty());
    assert_eq!(sap, pairwise);
}

/// A pair visitor that answers `Break` ends the walk: `test_pairwise` and
/// `test_sweep_and_prune` give the first `k` pairs of the full list, and a
/// region query that breaks at once reports one collider.
#[test]
fn visitors_that_break_stop_the_pair_finders_and_the_region_query() {
    use std::ops::ControlFlow;
    let mut world = World::new();
    for i in 0..40 {
        let x = i as f32 * 0.5;
        world
            .add(ColliderDesc::new(Shape::Aabb(Aabb::new(
                v(x, 0.0, 0.0),
                v(x + 1.0, 1.0, 1.0),
            ))))
            .unwrap();
    }
    let all = pairwise(&world);
    assert!(all.len() > 20, "{} pairs", all.len());
    for k in [1, 5, all.len()] {
        let mut first = Vec::new();
        world.test_pairwise(|p| {
            first.push(p);
            if first.len() == k {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(first, all[..k], "pairwise, k = {k}");
        let mut first = Vec::new();
        world.test_sweep_and_prune(|p| {
            first.push(p);
            if first.len() == k {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(first, all[..k], "sweep and prune, k = {k}");
    }
    let mut seen = 0;
    let everything = Shape::Aabb(Aabb::new(v(-10.0, -10.0, -10.0), v(30.0, 10.0, 10.0)));
    world
        .intersections_with_shape(&everything, &QueryFilter::ALL, |_, _| {
            seen += 1;
            ControlFlow::Break(())
        })
        .unwrap();
    assert_eq!(seen, 1);
}

/// The pair cache is sized by the pairs, not by the first search: after a
/// frame that moves a few colliders, the buffers the first call filled with
/// every pair are released, and the pairs still equal brute force.
#[test]
fn a_first_searchs_buffers_are_released_by_the_next_frame() {
    let mut world = World::new();
    let mut rng = seeded(0x5EED_CAFE);
    let mut random = move || rng.random::<f32>();
    let keys: Vec<ColliderKey> = (0..6_000)
        .map(|_| {
            let min = Vec3::new(random(), random(), random()) * 40.0;
            let size = Vec3::new(random(), random(), random()) * 4.0;
            world
                .add(ColliderDesc::new(Shape::Aabb(Aabb::new(min, min + size))))
                .unwrap()
        })
        .collect();
    let first = world.pairs().len();
    assert!(first > 10_000, "a dense scene: {first} pairs");
    let after_first = world.memory_bytes();
    for &key in keys.iter().step_by(500) {
        world.set_transform(key, Transform::from_translation(Vec3::X)).unwrap();
    }
    let reference = pairwise(&world);
    assert_eq!(world.pairs(), reference.as_slice());
    let after_frame = world.memory_bytes();
    assert!(
        after_frame + 16 * first < after_first,
        "{after_first} bytes after the first call, {after_frame} after a frame, {first} pairs"
    );
}
