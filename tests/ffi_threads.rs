//! Where batch queries run: `World::set_threads` in Rust and
//! `phys_world_set_thread_count` in C choose the calling thread alone, `n`
//! threads joined before the call returns, one per core, or (Rust only)
//! rayon's global pool. The hits are the same, bit for bit, whatever the
//! setting.

use std::ptr::{null, null_mut};

use collide::ffi::PhysStatus::PHYS_OK;
use collide::ffi::*;
use collide::math::Vec3;
use collide::{Aabb, ColliderDesc, Hit, QueryFilter, Segment, Shape, Sphere, Threads, Transform, World};
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;

/// 3,000 segments: more than ten shares of 256, and a length no thread
/// count divides evenly.
const SEGMENTS: usize = 3001;

fn scene() -> (World, Vec<Segment>) {
    let mut rng = XorShiftRng::seed_from_u64(11);
    let mut world = World::new();
    for i in 0..400u64 {
        let at = Vec3::new(
            rng.random_range(-50.0..50.0),
            rng.random_range(-5.0..5.0),
            rng.random_range(-50.0..50.0),
        );
        let shape = if i % 2 == 0 {
            Shape::Aabb(Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0)))
        } else {
            Shape::Sphere(Sphere::new(Vec3::ZERO, 1.5))
        };
        let desc = ColliderDesc::new(shape)
            .with_transform(Transform::from_translation(at))
            .with_user_data(i);
        world.add(desc).expect("a valid collider");
    }
    let segments = (0..SEGMENTS)
        .map(|_| {
            let start = Vec3::new(
                rng.random_range(-60.0..60.0),
                rng.random_range(-6.0..6.0),
                rng.random_range(-60.0..60.0),
            );
            let end = Vec3::new(
                rng.random_range(-60.0..60.0),
                rng.random_range(-6.0..6.0),
                rng.random_range(-60.0..60.0),
            );
            Segment::new(start, end)
        })
        .collect();
    (world, segments)
}

#[test]
fn every_thread_setting_gives_the_same_hits() {
    let (mut world, segments) = scene();
    let reference: Vec<Option<Hit>> = segments
        .iter()
        .map(|s| world.segment_cast(s, &QueryFilter::ALL).expect("finite"))
        .collect();
    let hits = reference.iter().filter(|h| h.is_some()).count();
    assert!(hits > SEGMENTS / 10 && hits < SEGMENTS * 9 / 10, "{hits} hits");
    let mut settings = vec![
        Threads::CallingThread,
        Threads::Count(0),
        Threads::Count(1),
        Threads::Count(2),
        Threads::Count(3),
        Threads::Count(7),
        Threads::Count(64),
    ];
    #[cfg(feature = "parallel")]
    settings.push(Threads::Rayon);
    assert_eq!(world.threads(), Threads::default());
    for threads in settings {
        world.set_threads(threads);
        assert_eq!(world.threads(), threads);
        for len in [SEGMENTS, 256, 257, 600] {
            let mut batch = vec![None; len];
            world
                .segment_cast_batch(&segments[..len], &QueryFilter::ALL, &mut batch)
                .expect("finite segments");
            assert_eq!(batch, reference[..len], "{threads:?}, {len} segments");
        }
        // A NaN segment anywhere is refused before any hit is written.
        let mut bad = segments.clone();
        bad[SEGMENTS - 2] = Segment::new(Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0));
        let mut batch = vec![None; SEGMENTS];
        assert!(world.segment_cast_batch(&bad, &QueryFilter::ALL, &mut batch).is_err());
        assert!(batch.iter().all(Option::is_none), "{threads:?}: nothing written");
    }
}

#[test]
fn every_c_thread_count_gives_the_same_hits() {
    let mut world = null_mut();
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { phys_world_create(&mut world) }, PHYS_OK);
    let boxes: Vec<PhysAabb> = (0..300)
        .map(|i| {
            let (x, z) = ((i % 20) as f32 * 3.0, (i / 20) as f32 * 3.0);
            PhysAabb {
                min: PhysVec3 { x, y: 0.0, z },
                max: PhysVec3 {
                    x: x + 1.0,
                    y: 1.0 + (i % 4) as f32,
                    z: z + 1.0,
                },
            }
        })
        .collect();
    let mut handles = vec![PhysCollider::default(); boxes.len()];
    // SAFETY: arrays of `boxes.len()` records.
    let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), null(), boxes.len(), handles.as_mut_ptr()) };
    assert_eq!(status, PHYS_OK);
    let mut rng = XorShiftRng::seed_from_u64(5);
    let segments: Vec<PhysSegment> = (0..SEGMENTS)
        .map(|_| {
            let mut p = || PhysVec3 {
                x: rng.random_range(-5.0..65.0),
                y: rng.random_range(-1.0..6.0),
                z: rng.random_range(-5.0..50.0),
            };
            PhysSegment { start: p(), end: p() }
        })
        .collect();
    let run = |threads: Option<u32>| {
        if let Some(n) = threads {
            // SAFETY: a valid world.
            assert_eq!(unsafe { phys_world_set_thread_count(world, n) }, PHYS_OK);
        }
        let (mut hit, mut out) = (vec![false; SEGMENTS], vec![PhysHit::default(); SEGMENTS]);
        // SAFETY: arrays of SEGMENTS records.
        let status = unsafe {
            phys_segment_cast_batch(
                world,
                segments.as_ptr(),
                SEGMENTS,
                null(),
                hit.as_mut_ptr(),
                out.as_mut_ptr(),
            )
        };
        assert_eq!(status, PHYS_OK);
        (hit, out)
    };
    let reference = run(Some(1));
    let hits = reference.0.iter().filter(|&&h| h).count();
    assert!(hits > SEGMENTS / 10 && hits < SEGMENTS * 9 / 10, "{hits} hits");
    for threads in [None, Some(0), Some(2), Some(3), Some(16), Some(1)] {
        assert!(run(threads) == reference, "thread count {threads:?}");
    }
    // SAFETY: made above, destroyed once.
    unsafe { phys_world_destroy(world) };
}
