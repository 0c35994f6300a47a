//! The world's batch work gives the same answers on any threads: worlds
//! large enough that pair finding (the first walk, later queries and walks)
//! and batch updates are shared out, run on the calling thread, on two and
//! three scoped threads and on rayon's pool, frame after frame, must agree
//! pair for pair, event for event and hash for hash; and the pairs of a
//! sample of colliders equal the exact test against every other collider.

mod common;

use collide::math::{Quat, Vec3};
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, Filter, Obb, Pair, Segment, Shape, Sphere, Threads, Transform, World,
};
use common::random::{seeded, Draw};
use rand::RngExt;

/// More than the tree size above which the walk is shared (16,384), in a
/// cube dense enough for about two neighbours each: more pairs than the
/// merge of fresh pairs is shared above (16,384).
const COLLIDERS: usize = 20_000;
const SIDE: f32 = 75.0;

/// The settings compared; the first is the reference.
fn settings() -> Vec<Threads> {
    let mut all = vec![Threads::CallingThread, Threads::Count(2), Threads::Count(3)];
    #[cfg(feature = "parallel")]
    all.push(Threads::Rayon);
    all
}

/// Mostly boxes, some spheres, capsules and oriented boxes, a few large
/// boxes, and filters that exclude some pairs.
fn random_desc(rng: &mut impl Draw, i: usize) -> ColliderDesc {
    let center = rng.vec(0.0, SIDE);
    let shape = match i % 10 {
        0 => Shape::Sphere(Sphere::new(center, rng.range(0.1, 1.5))),
        1 => Shape::Capsule(Capsule::new(
            Segment::new(center, center + rng.vec(-1.5, 1.5)),
            rng.range(0.1, 0.8),
        )),
        2 => Shape::Obb(Obb::new(
            center,
            Quat::from_rotation_y(rng.range(-3.0, 3.0)),
            rng.vec(0.2, 1.5),
        )),
        3 if i % 1000 == 3 => Shape::Aabb(Aabb::new(center, center + rng.vec(5.0, 30.0))),
        _ => {
            let half = rng.vec(0.1, 1.5);
            Shape::Aabb(Aabb::new(center - half, center + half))
        }
    };
    let filter = if i % 7 == 0 {
        Filter { category: 2, mask: 1 }
    } else {
        Filter::DEFAULT
    };
    ColliderDesc::new(shape).with_filter(filter).with_user_data(i as u64)
}

/// The exact test of `key` against every other collider, as pairs.
fn pairs_of(world: &World, key: ColliderKey) -> Vec<(ColliderKey, ColliderKey)> {
    let me = world.get(key).expect("live");
    let mut pairs: Vec<_> = world
        .iter()
        .filter(|&(other, c)| {
            other != key
                && me.filter().interacts_with(c.filter())
                && me.aabb().intersects_aabb(c.aabb())
                && me.world_shape().intersects(&c.world_shape())
        })
        .map(|(other, _)| (key.min(other), key.max(other)))
        .collect();
    pairs.sort();
    pairs
}

fn check_sample(world: &World, pairs: &[Pair], keys: &[ColliderKey], label: &str) {
    for &key in keys.iter().step_by(keys.len() / 10) {
        let found: Vec<_> = pairs
            .iter()
            .filter(|p| p.a == key || p.b == key)
            .map(|p| (p.a, p.b))
            .collect();
        assert_eq!(found, pairs_of(world, key), "{label}: the pairs of {key:?}");
    }
}

/// A world on each of `settings`, each with `descs` added by one
/// `extend`, and the keys they all gave.
fn loaded_worlds(settings: Vec<Threads>, descs: &[ColliderDesc]) -> (Vec<World>, Vec<ColliderKey>) {
    let mut worlds: Vec<World> = settings
        .into_iter()
        .map(|threads| {
            let mut world = World::new();
            world.set_threads(threads);
            world
        })
        .collect();
    let keys = worlds
        .iter_mut()
        .map(|world| world.extend(descs.iter().cloned()).expect("valid colliders"))
        .reduce(|a, b| {
            assert_eq!(a, b, "the same keys");
            a
        })
        .expect("worlds");
    (worlds, keys)
}

#[test]
fn pairs_updates_and_events_are_the_same_on_any_threads() {
    let mut rng = seeded(0x7A11_C0DE);
    let descs: Vec<ColliderDesc> = (0..COLLIDERS).map(|i| random_desc(&mut rng, i)).collect();
    let (mut worlds, keys) = loaded_worlds(settings(), &descs);

    // The first call walks the whole tree, shared out.
    let first: Vec<Vec<Pair>> = worlds.iter_mut().map(|w| w.pairs().to_vec()).collect();
    assert!(
        first[0].len() > 16_384,
        "more pairs than the count above which their merge is shared: {}",
        first[0].len()
    );
    for (pairs, world) in first.iter().zip(&worlds) {
        assert_eq!(pairs, &first[0], "first pairs on {:?}", world.threads());
    }
    check_sample(&worlds[0], &first[0], &keys, "first call");

    // Frames: moves by batch (shared derivation), few and many (queries
    // shared, the walk shared), a batch of shapes, one collider at a time.
    let mut offsets = vec![Vec3::ZERO; keys.len()];
    for (frame, moved) in [5_000usize, 120, 17_000, 3_000].into_iter().enumerate() {
        let start = rng.random_range(0..keys.len());
        let updates: Vec<(ColliderKey, Transform)> = (0..moved)
            .map(|i| {
                let k = (start + i * 7) % keys.len();
                offsets[k] += rng.vec(-0.8, 0.8);
                let spin = if k % 3 == 0 { rng.range(-0.2, 0.2) } else { 0.0 };
                (keys[k], Transform::new(offsets[k], Quat::from_rotation_z(spin), 1.0))
            })
            .collect();
        for world in &mut worlds {
            if frame == 3 {
                let shapes: Vec<(ColliderKey, Shape)> = updates
                    .iter()
                    .map(|(key, t)| {
                        let c = t.translation + Vec3::splat(SIDE / 2.0);
                        (*key, Shape::Aabb(Aabb::new(c, c + Vec3::ONE)))
                    })
                    .collect();
                world.set_shapes(&shapes).expect("valid shapes");
            } else if frame == 1 {
                for (key, t) in &updates {
                    world.set_transform(*key, *t).expect("valid transform");
                }
            } else {
                world.set_transforms(&updates).expect("valid transforms");
            }
        }
        let pairs: Vec<Vec<Pair>> = worlds.iter_mut().map(|w| w.pairs().to_vec()).collect();
        let hashes: Vec<u64> = worlds.iter().map(World::state_hash).collect();
        for (i, world) in worlds.iter().enumerate() {
            assert_eq!(pairs[i], pairs[0], "frame {frame}: pairs on {:?}", world.threads());
            assert_eq!(hashes[i], hashes[0], "frame {frame}: state on {:?}", world.threads());
        }
        check_sample(&worlds[0], &pairs[0], &keys, &format!("frame {frame}"));
        let events: Vec<(Vec<Pair>, Vec<Pair>)> = worlds
            .iter_mut()
            .map(|w| {
                let e = w.pair_events();
                (e.began.to_vec(), e.ended.to_vec())
            })
            .collect();
        assert!(events.iter().all(|e| *e == events[0]), "frame {frame}: pair events");
    }
}

/// The pairs every world in `worlds` finds, checked equal across them, as
/// their states' hashes are (`label` names the step in a failure).
fn agreed_pairs(worlds: &mut [World], label: &str) -> Vec<Pair> {
    let hashes: Vec<u64> = worlds.iter().map(World::state_hash).collect();
    let pairs: Vec<Vec<Pair>> = worlds.iter_mut().map(|w| w.pairs().to_vec()).collect();
    for (i, world) in worlds.iter().enumerate() {
        assert_eq!(hashes[i], hashes[0], "{label}: state on {:?}", world.threads());
        assert_eq!(pairs[i], pairs[0], "{label}: pairs on {:?}", world.threads());
    }
    pairs.into_iter().next().unwrap_or_default()
}

/// A batch large enough that its records and its tree are updated side by
/// side on two threads ends as on one thread, a key given several times
/// with its last update: moves (some turning, so that boxes become oriented
/// boxes and back), then new shapes.
#[test]
fn a_batch_applied_side_by_side_ends_with_each_keys_last_update() {
    let mut rng = seeded(0x51DE_B51D);
    let descs: Vec<ColliderDesc> = (0..COLLIDERS).map(|i| random_desc(&mut rng, i)).collect();
    let (mut worlds, keys) = loaded_worlds(vec![Threads::CallingThread, Threads::Count(2)], &descs);
    let keys = &keys;
    // Every collider once, then the first 2,000 again with other moves.
    let moves: Vec<(ColliderKey, Transform)> = (0..COLLIDERS + 2_000)
        .map(|i| {
            let spin = if i % 4 == 0 { rng.range(-0.5, 0.5) } else { 0.0 };
            let offset = rng.vec(-1.0, 1.0) * if i >= COLLIDERS { 3.0 } else { 1.0 };
            (
                keys[i % COLLIDERS],
                Transform::new(offset, Quat::from_rotation_y(spin), 1.0),
            )
        })
        .collect();
    let shapes: Vec<(ColliderKey, Shape)> = (0..COLLIDERS + 500)
        .map(|i| {
            let c = rng.vec(0.0, SIDE);
            let shape = if i % 5 == 0 {
                Shape::Sphere(Sphere::new(c, rng.range(0.2, 1.0)))
            } else {
                Shape::Aabb(Aabb::new(c, c + rng.vec(0.2, 1.5)))
            };
            (keys[(i * 3) % COLLIDERS], shape)
        })
        .collect();
    for world in &mut worlds {
        world.set_transforms(&moves).expect("valid moves");
    }
    let pairs = agreed_pairs(&mut worlds, "moves");
    let last_move = &moves[COLLIDERS];
    let moved = worlds[1].get(last_move.0).expect("live");
    assert_eq!(
        moved.transform().translation,
        last_move.1.translation,
        "the last move of a key given twice"
    );
    check_sample(&worlds[0], &pairs, keys, "after the moves");
    for world in &mut worlds {
        world.set_shapes(&shapes).expect("valid shapes");
    }
    let pairs = agreed_pairs(&mut worlds, "shapes");
    worlds[1].validate().expect("a consistent world");
    check_sample(&worlds[0], &pairs, keys, "after the shapes");
}

/// A batch update with an error anywhere (here in the last share) changes
/// nothing on any threads, and reports the first error in the batch's
/// order.
#[test]
fn a_shared_batch_update_with_an_error_changes_nothing() {
    let mut rng = seeded(0xBAD_BA7C);
    let descs: Vec<ColliderDesc> = (0..20_000).map(|i| random_desc(&mut rng, i)).collect();
    for threads in settings() {
        let mut world = World::new();
        world.set_threads(threads);
        let keys = world.extend(descs.iter().cloned()).expect("valid colliders");
        let before = world.state_hash();
        let pairs_before = world.pairs().to_vec();
        let mut updates: Vec<(ColliderKey, Transform)> = keys
            .iter()
            .map(|&k| (k, Transform::from_translation(Vec3::X)))
            .collect();
        let last = updates.len() - 1;
        updates[last].1 = Transform::from_translation(Vec3::new(f32::NAN, 0.0, 0.0));
        updates[last - 5000].1 = Transform::from_translation(Vec3::new(0.0, f32::INFINITY, 0.0));
        let error = world.set_transforms(&updates).expect_err("a non-finite translation");
        assert_eq!(error, collide::Error::NonFinite("translation"), "{threads:?}");
        assert_eq!(world.state_hash(), before, "{threads:?}: nothing changed");
        assert_eq!(world.pairs(), pairs_before.as_slice(), "{threads:?}");
        let removed = keys[10];
        world.remove(removed).expect("live");
        updates[last].1 = Transform::IDENTITY;
        updates[last - 5000].1 = Transform::IDENTITY;
        updates[20].0 = removed;
        assert_eq!(
            world.set_transforms(&updates),
            Err(collide::Error::StaleHandle),
            "{threads:?}"
        );
    }
}

/// A thread count far beyond the machine's (any `usize`) still gives the
/// single-threaded answers, with no more threads than the work has shares.
#[test]
fn an_absurd_thread_count_gives_the_same_answers() {
    let mut rng = seeded(0xC0FF_EE00);
    let descs: Vec<ColliderDesc> = (0..COLLIDERS).map(|i| random_desc(&mut rng, i)).collect();
    let mut reference = World::new();
    reference.set_threads(Threads::CallingThread);
    let mut absurd = World::new();
    absurd.set_threads(Threads::Count(usize::MAX));
    let keys = reference.extend(descs.iter().cloned()).expect("valid colliders");
    assert_eq!(absurd.extend(descs.iter().cloned()).expect("valid colliders"), keys);
    assert_eq!(absurd.pairs(), reference.pairs());
    // Every collider: a batch large enough to be shared.
    let moves: Vec<(ColliderKey, Transform)> = keys
        .iter()
        .map(|&k| (k, Transform::from_translation(rng.vec(-1.0, 1.0))))
        .collect();
    for world in [&mut reference, &mut absurd] {
        world.set_transforms(&moves).expect("valid moves");
    }
    assert_eq!(absurd.pairs(), reference.pairs());
    assert_eq!(absurd.state_hash(), reference.state_hash());
    // Emptied: the walk of an empty tree.
    for world in [&mut reference, &mut absurd] {
        for &key in &keys {
            world.remove(key).expect("live");
        }
        assert!(world.pairs().is_empty());
    }
}
