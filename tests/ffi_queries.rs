//! The C ABI's query functions answer as the safe API does: batch casts
//! equal single casts, any/all casts agree with the closest, region
//! overlaps, the tree's pair finder, pair events and bulk adds.

use std::ptr::null;

use collide::ffi::PhysStatus::{self, PHYS_OK};
use collide::ffi::*;
use collide::Transform;

fn v(x: f32, y: f32, z: f32) -> PhysVec3 {
    PhysVec3 { x, y, z }
}

/// A world of `n` unit boxes on a diagonal staircase (each touching the
/// next), added in bulk, with user data = index.
fn staircase(n: usize) -> (*mut PhysWorld, Vec<PhysCollider>) {
    let mut world = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { phys_world_create(&mut world) }, PHYS_OK);
    let boxes: Vec<PhysAabb> = (0..n)
        .map(|i| {
            let o = i as f32;
            PhysAabb {
                min: v(o, o, 0.0),
                max: v(o + 1.0, o + 1.0, 1.0),
            }
        })
        .collect();
    let descs: Vec<PhysColliderDesc> = (0..n)
        .map(|i| PhysColliderDesc {
            user_data: i as u64,
            ..phys_collider_desc_default()
        })
        .collect();
    let mut handles = vec![PhysCollider::default(); n];
    // SAFETY: arrays of `n` records.
    let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), descs.as_ptr(), n, handles.as_mut_ptr()) };
    assert_eq!(status, PHYS_OK);
    (world, handles)
}

fn cast(world: *const PhysWorld, s: &PhysSegment) -> Option<PhysHit> {
    let (mut hit, mut out) = (false, PhysHit::default());
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { phys_segment_cast(world, s, null(), &mut hit, &mut out) },
        PHYS_OK
    );
    hit.then_some(out)
}

/// Bulk-added colliders are all there; batch, any and all casts agree with
/// the closest-hit cast.
#[test]
fn batch_any_and_all_casts_agree_with_single_casts() {
    let (world, handles) = staircase(300);
    let mut count = 0;
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_world_count(world, &mut count) }, PHYS_OK);
    assert_eq!(count, 300);

    let segments: Vec<PhysSegment> = (0..1000)
        .map(|i| {
            let o = (i % 310) as f32 + 0.25;
            PhysSegment {
                start: v(o - 3.0, o + 2.0, 0.5),
                end: v(o + 4.0, o - 1.5 + (i % 7) as f32 * 0.3, 0.5),
            }
        })
        .collect();
    let mut flags = vec![false; segments.len()];
    let mut hits = vec![PhysHit::default(); segments.len()];
    // SAFETY: arrays of `segments.len()` records.
    let status = unsafe {
        phys_segment_cast_batch(
            world,
            segments.as_ptr(),
            segments.len(),
            null(),
            flags.as_mut_ptr(),
            hits.as_mut_ptr(),
        )
    };
    assert_eq!(status, PHYS_OK);
    let mut hit_count = 0;
    for (i, s) in segments.iter().enumerate() {
        let single = cast(world, s);
        assert_eq!(flags[i], single.is_some(), "segment {i}");
        if let Some(single) = single {
            hit_count += 1;
            assert_eq!(hits[i], single, "segment {i}");
            assert!(handles.contains(&single.collider));

            let (mut any_hit, mut any) = (false, PhysHit::default());
            // SAFETY: valid pointers.
            assert_eq!(
                unsafe { phys_segment_cast_any(world, s, null(), &mut any_hit, &mut any) },
                PHYS_OK
            );
            assert!(any_hit);

            let mut all = [PhysHit::default(); 16];
            let (mut written, mut total) = (0, 0);
            // SAFETY: a 16-record buffer.
            let status = unsafe {
                phys_segment_cast_all(world, s, null(), all.as_mut_ptr(), all.len(), &mut written, &mut total)
            };
            assert_eq!(status, PHYS_OK);
            assert_eq!(all[0], single, "the first of all hits is the closest");
            assert!(all[..written].contains(&any), "the any-hit is one of all hits");
            assert!(all[..written].windows(2).all(|w| w[0].t <= w[1].t));
        }
    }
    assert!(
        hit_count > 500,
        "{hit_count} hits: the staircase is in the way of most segments"
    );
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
}

/// Region queries find exactly the boxes they overlap.
#[test]
fn overlaps_find_what_they_touch() {
    let (world, handles) = staircase(50);
    let collect = |f: &dyn Fn(*mut PhysColliderRef, usize, &mut usize, &mut usize) -> PhysStatus| {
        let mut out = [PhysColliderRef::default(); 64];
        let (mut written, mut total) = (0, 0);
        assert_eq!(f(out.as_mut_ptr(), out.len(), &mut written, &mut total), PHYS_OK);
        let mut users: Vec<u64> = out[..written].iter().map(|r| r.user_data).collect();
        users.sort();
        users
    };
    // The box [10.5, 11.5]² overlaps boxes 10 and 11.
    let trigger = PhysAabb {
        min: v(10.5, 10.5, 0.2),
        max: v(11.5, 11.5, 0.4),
    };
    // SAFETY (all three): valid pointers and buffers.
    let users = collect(&|o, c, w, t| unsafe { phys_overlap_box(world, &trigger, null(), o, c, w, t) });
    assert_eq!(users, [10, 11]);
    let blast = PhysSphere {
        center: v(20.0, 20.0, 0.5),
        radius: 0.1,
    };
    let users = collect(&|o, c, w, t| unsafe { phys_overlap_sphere(world, &blast, null(), o, c, w, t) });
    assert_eq!(users, [19, 20], "the sphere sits on the corner the two boxes share");
    let beam = PhysCapsule {
        segment: PhysSegment {
            start: v(30.5, 30.5, -5.0),
            end: v(30.5, 30.5, 5.0),
        },
        radius: 0.25,
    };
    let users = collect(&|o, c, w, t| unsafe { phys_overlap_capsule(world, &beam, null(), o, c, w, t) });
    assert_eq!(users, [30]);
    assert_eq!(handles.len(), 50);
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
}

fn pairs_of(world: *mut PhysWorld) -> Vec<(u64, u64)> {
    let mut out = vec![PhysPair::default(); 512];
    let (mut written, mut total) = (0, 0);
    // SAFETY: a 512-record buffer.
    let status = unsafe { phys_find_pairs_into(world, out.as_mut_ptr(), out.len(), &mut written, &mut total) };
    assert_eq!(status, PHYS_OK);
    out[..written].iter().map(|p| (p.user_a, p.user_b)).collect()
}

/// The tree's pair finder equals the pairwise loop, frame after frame, and
/// the pair events are the difference of consecutive pair sets.
#[test]
fn tree_pairs_and_events_follow_the_world() {
    let (world, handles) = staircase(40);
    let pairwise = || {
        let mut out = vec![PhysPair::default(); 512];
        let (mut written, mut total) = (0, 0);
        // SAFETY: a 512-record buffer.
        let status = unsafe { phys_test_pairwise_into(world, out.as_mut_ptr(), out.len(), &mut written, &mut total) };
        assert_eq!(status, PHYS_OK);
        out[..written].iter().map(|p| (p.user_a, p.user_b)).collect::<Vec<_>>()
    };
    let events = || {
        let (mut began, mut ended) = (0, 0);
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { phys_update_pair_events(world, &mut began, &mut ended) },
            PHYS_OK
        );
        let read =
            |f: unsafe extern "C" fn(*const PhysWorld, *mut PhysPair, usize, *mut usize, *mut usize) -> PhysStatus| {
                let mut out = vec![PhysPair::default(); 512];
                let (mut written, mut total) = (0, 0);
                // SAFETY: a 512-record buffer.
                assert_eq!(
                    unsafe { f(world, out.as_mut_ptr(), out.len(), &mut written, &mut total) },
                    PHYS_OK
                );
                out[..written].iter().map(|p| (p.user_a, p.user_b)).collect::<Vec<_>>()
            };
        let (b, e) = (read(phys_pair_events_began), read(phys_pair_events_ended));
        assert_eq!((b.len(), e.len()), (began, ended));
        (b, e)
    };

    assert_eq!(pairs_of(world), pairwise());
    assert_eq!(pairwise().len(), 39, "each step touches the next");
    let (began, ended) = events();
    assert_eq!((began.len(), ended.len()), (39, 0));

    // Lift box 10 out of the staircase: its two pairs end.
    let lifted = PhysTransform {
        translation: v(0.0, 0.0, 100.0),
        rotation: PhysQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        },
        scale: v(1.0, 1.0, 1.0),
    };
    // SAFETY: a live world and handle.
    assert_eq!(unsafe { phys_set_transform(world, handles[10], &lifted) }, PHYS_OK);
    assert_eq!(pairs_of(world), pairwise());
    let (began, ended) = events();
    assert_eq!((began, ended), (vec![], vec![(9, 10), (10, 11)]));

    // Remove box 20: its pairs end too.
    // SAFETY: a live world and handle.
    assert_eq!(unsafe { phys_remove(world, handles[20]) }, PHYS_OK);
    let (began, ended) = events();
    assert_eq!((began, ended), (vec![], vec![(19, 20), (20, 21)]));
    assert_eq!(pairs_of(world), pairwise());
    assert_eq!(pairwise().len(), 35);
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
}

/// The world box of a collider.
fn world_box(world: *const PhysWorld, collider: PhysCollider) -> PhysAabb {
    let mut out = PhysAabb::default();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_get_world_aabb(world, collider, &mut out) }, PHYS_OK);
    out
}

/// `phys_set_transforms` moves every collider as `phys_set_transform` does,
/// one per entry, the last entry of a handle winning; a stale handle, an
/// invalid transform, NULL arrays and impossible counts are refused with
/// nothing changed.
#[test]
fn batch_transforms_equal_single_transforms_or_change_nothing() {
    let (batch, handles) = staircase(200);
    let (single, single_handles) = staircase(200);
    let moved = |i: usize| PhysTransform {
        translation: v(0.25 * i as f32, -1.0, 2.0),
        ..Transform::IDENTITY.into()
    };
    // Every third collider, then a few again: the last transform wins.
    let picks: Vec<usize> = (0..200).step_by(3).chain([0, 3, 6]).collect();
    let colliders: Vec<PhysCollider> = picks.iter().map(|&i| handles[i]).collect();
    let transforms: Vec<PhysTransform> = picks.iter().enumerate().map(|(k, _)| moved(k)).collect();
    for (k, &i) in picks.iter().enumerate() {
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { phys_set_transform(single, single_handles[i], &moved(k)) },
            PHYS_OK
        );
    }
    // SAFETY: arrays of `picks.len()` records.
    let status = unsafe { phys_set_transforms(batch, colliders.as_ptr(), transforms.as_ptr(), picks.len()) };
    assert_eq!(status, PHYS_OK);
    for i in 0..200 {
        assert_eq!(
            world_box(batch, handles[i]),
            world_box(single, single_handles[i]),
            "collider {i}"
        );
    }
    assert_eq!(pairs_of(batch), pairs_of(single));

    // Refused: the world is left as it was.
    let before: Vec<PhysAabb> = handles.iter().map(|&h| world_box(batch, h)).collect();
    let check_unchanged = || {
        for (i, &h) in handles.iter().enumerate() {
            assert_eq!(world_box(batch, h), before[i], "collider {i} changed");
        }
    };
    let mut bad = transforms.clone();
    bad[5].scale.y = f32::NAN;
    // SAFETY: arrays of `picks.len()` records.
    let status = unsafe { phys_set_transforms(batch, colliders.as_ptr(), bad.as_ptr(), picks.len()) };
    assert_eq!(status, PhysStatus::PHYS_ERROR_NON_FINITE);
    check_unchanged();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_remove(batch, handles[199]) }, PHYS_OK);
    let mut stale = colliders.clone();
    stale[7] = handles[199];
    // SAFETY: arrays of `picks.len()` records.
    let status = unsafe { phys_set_transforms(batch, stale.as_ptr(), transforms.as_ptr(), picks.len()) };
    assert_eq!(status, PhysStatus::PHYS_ERROR_STALE_HANDLE);
    for (i, &h) in handles[..199].iter().enumerate() {
        assert_eq!(world_box(batch, h), before[i], "collider {i} changed");
    }
    // SAFETY: NULL arrays are allowed with a count of 0 only; the huge count
    // is refused before anything is read.
    unsafe {
        assert_eq!(phys_set_transforms(batch, null(), null(), 0), PHYS_OK);
        assert_eq!(
            phys_set_transforms(batch, null(), transforms.as_ptr(), 1),
            PhysStatus::PHYS_ERROR_NULL_POINTER
        );
        assert_eq!(
            phys_set_transforms(batch, colliders.as_ptr(), transforms.as_ptr(), usize::MAX),
            PhysStatus::PHYS_ERROR_INVALID_ARGUMENT
        );
        phys_world_destroy(batch);
        phys_world_destroy(single);
    }
}

/// `phys_add_boxes` refuses a count no array can hold before it reads a
/// record (the array here holds one), and a batch beyond the world's room
/// after reading it, adding nothing either way.
#[test]
fn bulk_adds_refuse_impossible_counts() {
    let mut world = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { phys_world_create_with_limit(4, &mut world) }, PHYS_OK);
    let boxes = [PhysAabb {
        min: v(0.0, 0.0, 0.0),
        max: v(1.0, 1.0, 1.0),
    }; 5];
    let mut out = [PhysCollider::default(); 5];
    for (count, status) in [
        (usize::MAX, PhysStatus::PHYS_ERROR_INVALID_ARGUMENT),
        (usize::MAX / 2, PhysStatus::PHYS_ERROR_INVALID_ARGUMENT),
        (5, PhysStatus::PHYS_ERROR_CAPACITY_EXCEEDED),
    ] {
        // SAFETY: the huge counts are refused before any record is read;
        // the arrays hold 5 records.
        let got = unsafe { phys_add_boxes(world, boxes.as_ptr(), null(), count, out.as_mut_ptr()) };
        assert_eq!(got, status, "count {count}");
        assert_eq!(out, [PhysCollider::default(); 5], "nothing written");
    }
    let mut count = usize::MAX;
    // SAFETY: valid pointers; the world is destroyed once.
    unsafe {
        assert_eq!(phys_world_count(world, &mut count), PHYS_OK);
        phys_world_destroy(world);
    }
    assert_eq!(count, 0);
}
