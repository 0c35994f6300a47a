//! Snapshots: on the benchmark scenes (small size), after adds, removals
//! and moves, a loaded world answers every query bit for bit as the saved
//! one (casts, shape casts, nearest, pairs, manifolds), keeps its keys,
//! user data and filters, keeps removed keys stale and hands out the same
//! next keys as another load; every shape kind survives the trip; the
//! state hash follows the state; untrusted bytes (truncated, flipped,
//! random, lying counts) get an error, never a panic; the C ABI.

use std::ptr::{null, null_mut};
use std::sync::Arc;

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::{Quat, Vec3};
use collide::shape::{HeightField, TriangleMesh};
use collide::{
    Aabb, ColliderDesc, ColliderKey, Compound, Error, Filter, QueryFilter, Segment, Shape, Sphere, Transform, World,
};

mod common;
use common::geometry::random_convex;
use common::random::{seeded, Draw, TestRng};

#[path = "../benches/scenes.rs"]
mod scenes;

/// A scene's boxes in a world, then a game's churn: a tenth removed, some
/// added back (reusing slots), a tenth moved.
fn churned_world(scene: &scenes::Scene, rng: &mut TestRng) -> World {
    let mut world = World::new();
    let keys = world
        .extend(scenes::collider_descs(&scene.boxes).enumerate().map(|(i, desc)| {
            desc.with_filter(Filter {
                category: 1 << (i % 3),
                mask: u64::MAX,
            })
        }))
        .unwrap();
    for (i, &key) in keys.iter().enumerate() {
        match i % 10 {
            0 => {
                world.remove(key).unwrap();
            }
            1 => world
                .set_transform(key, Transform::from_translation(rng.vec(-1.0, 1.0)))
                .unwrap(),
            _ => {}
        }
    }
    for i in 0..keys.len() / 20 {
        let at = rng.vec(-20.0, 20.0);
        let shape = random_convex(rng, at, 1.5);
        world
            .add(ColliderDesc::new(shape).with_user_data(1_000_000 + i as u64))
            .unwrap();
    }
    world
}

fn saved(world: &World) -> Vec<u8> {
    let mut bytes = Vec::new();
    world.save(&mut bytes);
    bytes
}

/// Every query `world` and `copy` answer, asked of both: equal bit for bit.
fn assert_same_answers(world: &mut World, copy: &mut World, segments: &[Segment], rng: &mut TestRng) {
    assert_eq!(world.len(), copy.len());
    for (key, c) in world.iter() {
        let other = copy.get(key).expect("every key kept");
        assert_eq!(
            (other.desc(), other.world_shape(), other.aabb()),
            (c.desc(), c.world_shape(), c.aabb())
        );
    }
    let filter = QueryFilter::with_bits(1, 1);
    for s in segments {
        assert_eq!(
            world.segment_cast(s, &QueryFilter::ALL),
            copy.segment_cast(s, &QueryFilter::ALL)
        );
        assert_eq!(world.segment_cast(s, &filter), copy.segment_cast(s, &filter));
    }
    for _ in 0..200 {
        let at = rng.vec(-30.0, 30.0);
        let probe = random_convex(rng, at, 1.0);
        let motion = rng.vec(-10.0, 10.0);
        assert_eq!(
            world.cast_shape(&probe, motion, &QueryFilter::ALL),
            copy.cast_shape(&probe, motion, &QueryFilter::ALL)
        );
        assert_eq!(
            world.closest(&probe, 5.0, &QueryFilter::ALL),
            copy.closest(&probe, 5.0, &QueryFilter::ALL)
        );
    }
    assert_eq!(world.pairs().to_vec(), copy.pairs().to_vec());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    world.contact_manifolds(&mut a);
    copy.contact_manifolds(&mut b);
    assert_eq!(a, b);
}

#[test]
fn benchmark_scenes_answer_bit_for_bit_after_a_load() {
    let mut rng = seeded(90);
    for name in scenes::SCENE_NAMES {
        let scene = scenes::generate(name, true).unwrap();
        let mut world = churned_world(&scene, &mut rng);
        let bytes = saved(&world);
        let mut copy = World::load(&bytes).unwrap();
        copy.validate().unwrap();
        assert_eq!(copy.state_hash(), world.state_hash(), "{name}");
        assert_eq!(saved(&copy), bytes, "{name}: saving the copy gives the same bytes");
        let segments: Vec<Segment> = scene
            .bullets
            .iter()
            .chain(&scene.hitscan)
            .step_by(50)
            .map(|r| Segment::new(Vec3::new(r[0], r[1], r[2]), Vec3::new(r[3], r[4], r[5])))
            .collect();
        assert_same_answers(&mut world, &mut copy, &segments, &mut rng);
        // The frames go on alike.
        for frame in scene.frames.iter().take(3) {
            let keys: Vec<ColliderKey> = world.iter().map(|(k, _)| k).collect();
            for &(index, d) in frame {
                let key = keys[index as usize % keys.len()];
                let t = Transform::from_translation(world.get(key).unwrap().transform().translation + Vec3::from(d));
                world.set_transform(key, t).unwrap();
                copy.set_transform(key, t).unwrap();
            }
            assert_eq!(world.pairs().to_vec(), copy.pairs().to_vec(), "{name}");
            assert_eq!(world.state_hash(), copy.state_hash());
        }
    }
}

#[test]
fn keys_stay_theirs_and_removed_keys_stay_stale() {
    let mut world = World::new();
    let ball = || ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)));
    let mut gone = Vec::new();
    let mut kept = Vec::new();
    for round in 0..50 {
        let key = world.add(ball().with_user_data(round)).unwrap();
        if round % 3 == 0 {
            kept.push(key);
        } else {
            world.remove(key).unwrap();
            gone.push(key);
        }
    }
    let bytes = saved(&world);
    let (mut a, mut b) = (World::load(&bytes).unwrap(), World::load(&bytes).unwrap());
    for &key in &kept {
        assert_eq!(a.get(key).unwrap().user_data(), world.get(key).unwrap().user_data());
    }
    for &key in &gone {
        assert!(!a.contains(key), "a removed key stays stale");
        assert_eq!(a.remove(key).unwrap_err(), Error::StaleHandle);
    }
    // Two loads hand out the same keys, none of them an old one.
    for _ in 0..60 {
        let (ka, kb) = (a.add(ball()).unwrap(), b.add(ball()).unwrap());
        assert_eq!(ka, kb);
        assert!(
            !gone.contains(&ka) && !kept.contains(&ka),
            "{ka:?} was handed out before"
        );
    }
    assert_eq!(a.state_hash(), b.state_hash());
    // The hash follows the state: user data, filter, shape, transform.
    let key = kept[0];
    let base = world.state_hash();
    let mut changed = world.clone();
    changed.set_user_data(key, 99).unwrap();
    assert_ne!(changed.state_hash(), base);
    let mut changed = world.clone();
    changed.set_filter(key, Filter { category: 2, mask: 1 }).unwrap();
    assert_ne!(changed.state_hash(), base);
    let mut changed = world.clone();
    changed
        .set_transform(key, Transform::from_translation(Vec3::X * 1e-6))
        .unwrap();
    assert_ne!(changed.state_hash(), base);
    // A limit is kept.
    let limited = World::with_max_colliders(3);
    let back = World::load(&saved(&limited)).unwrap();
    assert_eq!(back.max_colliders(), 3);
}

/// A world with a collider of every kind of shape (`convex` random convex
/// ones), moved and turned.
fn every_kind(rng: &mut TestRng, convex: usize) -> World {
    let mut world = World::new();
    let mut shapes: Vec<Shape> = (0..convex).map(|_| random_convex(rng, Vec3::ZERO, 1.0)).collect();
    let heights: Vec<f32> = (0..64).map(|_| rng.range(-0.5, 0.5)).collect();
    let mut holes = vec![false; 49];
    holes[10] = true;
    let field = HeightField::new(8, 8, heights, Vec3::new(1.5, 1.0, 1.5))
        .unwrap()
        .with_holes(&holes)
        .unwrap();
    shapes.push(Shape::HeightField(field));
    let mesh = TriangleMesh::new(
        vec![
            Vec3::new(-5.0, -2.0, -5.0),
            Vec3::new(5.0, -2.0, -5.0),
            Vec3::new(0.0, -2.0, 5.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    shapes.push(Shape::Mesh(Arc::new(mesh)));
    for _ in 0..5 {
        let children: Vec<(Shape, Transform)> = (0..3)
            .map(|_| {
                let child = random_convex(rng, Vec3::ZERO, 0.5);
                (child, Transform::new(rng.vec(-1.0, 1.0), rng.rotation(), 1.0))
            })
            .collect();
        shapes.push(Shape::from(Compound::new(children).unwrap()));
    }
    for (i, shape) in shapes.into_iter().enumerate() {
        let surface = matches!(shape, Shape::HeightField(_) | Shape::Mesh(_));
        let rotation = if surface { Quat::IDENTITY } else { rng.rotation() };
        let t = Transform::new(rng.vec(-6.0, 6.0), rotation, if i % 4 == 0 { 1.5 } else { 1.0 });
        world
            .add(
                ColliderDesc::new(shape)
                    .with_transform(t)
                    .with_should_rotate(i % 2 == 0),
            )
            .unwrap();
    }
    world
}

#[test]
fn every_shape_kind_survives_the_trip() {
    let mut rng = seeded(91);
    for _ in 0..10 {
        let mut world = every_kind(&mut rng, 40);
        let bytes = saved(&world);
        let mut copy = World::load(&bytes).unwrap();
        assert_eq!(saved(&copy), bytes);
        let segments: Vec<Segment> = (0..2000)
            .map(|_| Segment::new(rng.vec(-10.0, 10.0), rng.vec(-10.0, 10.0)))
            .collect();
        assert_same_answers(&mut world, &mut copy, &segments, &mut rng);
    }
}

#[test]
fn untrusted_bytes_get_an_error_never_a_panic() {
    let mut rng = seeded(92);
    let mut world = every_kind(&mut rng, 8);
    let key = world.iter().next().unwrap().0;
    world.remove(key).unwrap();
    let bytes = saved(&world);
    // Truncations: every cut in the header and first colliders, then cuts
    // spread over the rest.
    let step = (bytes.len() / 150).max(1);
    for len in (0..bytes.len()).filter(|&len| len < 200 || len % step == 0) {
        assert!(World::load(&bytes[..len]).is_err(), "a snapshot cut at {len}");
    }
    // Anything after it.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(World::load(&longer).is_err());
    // Flipped bytes: an error or a valid world, never a panic.
    let mut loaded = 0;
    for n in 0..400 {
        let mut bad = bytes.clone();
        for _ in 0..1 + n % 4 {
            let at = rng.below(bad.len() as u64) as usize;
            bad[at] = match n % 3 {
                0 => bad[at] ^ (1 << rng.below(8)),
                1 => rng.below(256) as u8,
                _ => [0, 0xff, 0x7f, 0x80][rng.below(4) as usize],
            };
        }
        if let Ok(w) = World::load(&bad) {
            w.validate().unwrap();
            loaded += 1;
        }
    }
    assert!(loaded > 2, "some flips only move a number: {loaded}");
    // Random bytes, with and without the header.
    for n in 0..5_000 {
        let mut junk: Vec<u8> = (0..rng.below(200)).map(|_| rng.below(256) as u8).collect();
        if n % 2 == 0 {
            let mut head = bytes[..20].to_vec();
            head.append(&mut junk);
            junk = head;
        }
        let _ = World::load(&junk);
    }
    // Counts that lie: more slots, vertices or samples than bytes.
    let mut lying = bytes[..16].to_vec();
    lying.extend_from_slice(&u32::MAX.to_le_bytes());
    assert!(World::load(&lying).is_err());
    // Versions claiming more reuses than allowed; a version 0.
    let mut reused = bytes[..16].to_vec();
    reused.extend_from_slice(&2u32.to_le_bytes());
    reused.extend_from_slice(&u32::MAX.to_le_bytes());
    reused.extend_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(World::load(&reused), Err(Error::InvalidArgument(_))));
    // More colliders than the limit the bytes give.
    let mut limited = World::with_max_colliders(3);
    for _ in 0..3 {
        limited
            .add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))))
            .unwrap();
    }
    let mut over = saved(&limited);
    over[8..16].copy_from_slice(&2u64.to_le_bytes());
    assert!(matches!(World::load(&over), Err(Error::InvalidArgument(_))));
    let mut zero = bytes[..16].to_vec();
    zero.extend_from_slice(&1u32.to_le_bytes());
    zero.extend_from_slice(&0u32.to_le_bytes());
    assert!(World::load(&zero).is_err());
}

fn check(status: PhysStatus) {
    assert_eq!(status, PHYS_OK);
}

#[test]
fn c_abi_snapshots() {
    // SAFETY: every pointer below is to live, initialised data of the
    // right type and count.
    unsafe {
        let mut world = null_mut();
        check(phys_world_create(&mut world));
        let mut handles = Vec::new();
        for i in 0..10 {
            let b = PhysAabb {
                min: PhysVec3 {
                    x: i as f32 * 3.0,
                    y: 0.0,
                    z: 0.0,
                },
                max: PhysVec3 {
                    x: i as f32 * 3.0 + 1.0,
                    y: 1.0,
                    z: 1.0,
                },
            };
            let mut h = PhysCollider::default();
            check(phys_add_box(world, &b, null(), &mut h));
            handles.push(h);
        }
        check(phys_remove(world, handles[3]));
        // The size first, then the bytes; a buffer too small is refused.
        let (mut written, mut total) = (0usize, 0usize);
        assert_eq!(
            phys_world_save(world, null_mut(), 0, &mut written, &mut total),
            PHYS_ERROR_BUFFER_TOO_SMALL
        );
        let mut bytes = vec![0u8; total];
        assert_eq!(
            phys_world_save(world, bytes.as_mut_ptr(), total - 1, &mut written, &mut total),
            PHYS_ERROR_BUFFER_TOO_SMALL
        );
        check(phys_world_save(
            world,
            bytes.as_mut_ptr(),
            bytes.len(),
            &mut written,
            &mut total,
        ));
        assert_eq!(written, bytes.len());
        let mut copy = null_mut();
        check(phys_world_load(bytes.as_ptr(), bytes.len(), &mut copy));
        // The saved world's handles name the same colliders in the copy.
        let shot = PhysSegment {
            start: PhysVec3 {
                x: -5.0,
                y: 0.5,
                z: 0.5,
            },
            end: PhysVec3 {
                x: 50.0,
                y: 0.5,
                z: 0.5,
            },
        };
        let (mut hit_a, mut hit_b, mut found) = (PhysHit::default(), PhysHit::default(), false);
        check(phys_segment_cast(world, &shot, null(), &mut found, &mut hit_a));
        check(phys_segment_cast(copy, &shot, null(), &mut found, &mut hit_b));
        assert_eq!(hit_a, hit_b);
        assert_eq!(hit_b.collider, handles[0]);
        assert!(phys_collider_is_alive(copy, handles[9]));
        assert!(!phys_collider_is_alive(copy, handles[3]), "removed stays stale");
        let (mut ha, mut hb) = (0u64, 1u64);
        check(phys_world_state_hash(world, &mut ha));
        check(phys_world_state_hash(copy, &mut hb));
        assert_eq!(ha, hb);
        // Bad bytes: refused, nothing made.
        let mut none = null_mut();
        assert_eq!(
            phys_world_load(bytes.as_ptr(), 7, &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            phys_world_load(bytes.as_ptr(), bytes.len() - 1, &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        let mut other = bytes.clone();
        other[0] = b'X';
        assert_eq!(
            phys_world_load(other.as_ptr(), other.len(), &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(phys_world_load(null(), 10, &mut none), PHYS_ERROR_NULL_POINTER);
        assert!(none.is_null());
        phys_world_destroy(copy);
        phys_world_destroy(world);
    }
}

/// A fixed world's snapshot and hash, written down: the layout and the hash
/// are the same on every machine and from one build to the next (a change
/// to either is a format change, and fails here).
#[test]
fn a_fixed_world_has_a_fixed_hash() {
    let mut world = World::with_max_colliders(16);
    let a = world
        .add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE))).with_user_data(1))
        .unwrap();
    world
        .add(
            ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::new(3.0, 0.0, 0.0), 0.5)))
                .with_transform(Transform::new(Vec3::Y, Quat::from_rotation_z(0.5), 2.0)),
        )
        .unwrap();
    world.remove(a).unwrap();
    let bytes = saved(&world);
    assert_eq!(&bytes[..4], b"CLDW");
    assert_eq!(bytes.len(), 4 + 4 + 8 + 4 + 4 + (4 + 1 + 16 + 40 + 1 + 24) + 4 + 4);
    assert_eq!(world.state_hash(), FIXED_HASH, "{:#018x}", world.state_hash());
}

const FIXED_HASH: u64 = 0xdad5_4d44_a10f_b015;
