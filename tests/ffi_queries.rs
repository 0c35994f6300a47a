//! The C ABI's query functions answer as the safe API does: batch casts
//! equal single casts, any/all casts agree with the closest, region
//! overlaps, the tree's pair finder, pair events and batch transforms; zero-length segments and
//! huge coordinates; and every buffer-filling function reports a short
//! buffer with its total only.

mod common;

use std::ptr::{null, null_mut};

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::Vec3;
use collide::Transform;
use common::ffi::*;

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

// ---------------------------------------------------------------------------
// Zero-length segments and huge coordinates.

/// Through the C ABI, a zero-length segment is the same point test:
/// `phys_segment_cast`, `_any`, `_all` and `_batch` hit the colliders
/// containing the point at t = 0.
#[test]
fn c_zero_length_segments_hit_the_colliders_containing_their_point() {
    let mut world = std::ptr::null_mut();
    // SAFETY: every pointer below points to a live local of its type.
    unsafe {
        assert_eq!(phys_world_create(&mut world), PHYS_OK);
        let cube = PhysAabb {
            min: pv(Vec3::ZERO),
            max: pv(Vec3::ONE),
        };
        let mut a = PhysCollider::default();
        let mut b = PhysCollider::default();
        assert_eq!(phys_add_box(world, &cube, null(), &mut a), PHYS_OK);
        let ball = PhysSphere {
            center: pv(Vec3::splat(1.5)),
            radius: 0.5f32 * 3f32.sqrt(),
        };
        assert_eq!(phys_add_sphere(world, &ball, null(), &mut b), PHYS_OK);
        for (p, expected) in [
            (Vec3::ONE, vec![a]),
            (Vec3::splat(0.5), vec![a]),
            (Vec3::splat(3.0), vec![]),
        ] {
            let s = PhysSegment {
                start: pv(p),
                end: pv(p),
            };
            let mut hit = false;
            let mut out = PhysHit::default();
            assert_eq!(phys_segment_cast(world, &s, null(), &mut hit, &mut out), PHYS_OK);
            assert_eq!(hit, !expected.is_empty(), "at {p}");
            if hit {
                assert_eq!((out.collider, out.t), (expected[0], 0.0));
                let n = out.normal;
                assert!(
                    ((n.x * n.x + n.y * n.y + n.z * n.z).sqrt() - 1.0).abs() < 1e-6,
                    "at {p}: a unit normal"
                );
            }
            assert_eq!(phys_segment_cast_any(world, &s, null(), &mut hit, &mut out), PHYS_OK);
            assert_eq!(hit, !expected.is_empty());
            let mut all = [PhysHit::default(); 4];
            let (mut written, mut total) = (0, 0);
            assert_eq!(
                phys_segment_cast_all(world, &s, null(), all.as_mut_ptr(), 4, &mut written, &mut total),
                PHYS_OK
            );
            let found: Vec<PhysCollider> = all[..written].iter().map(|h| h.collider).collect();
            // The corner (1, 1, 1) is on the box and on the sphere's surface
            // only up to rounding: whichever the exact test says, the cast
            // and the batch must agree with it.
            assert!(expected.iter().all(|k| found.contains(k)), "at {p}: {found:?}");
            let mut batch_hit = [false];
            let mut batch_out = [PhysHit::default()];
            assert_eq!(
                phys_segment_cast_batch(world, &s, 1, null(), batch_hit.as_mut_ptr(), batch_out.as_mut_ptr()),
                PHYS_OK
            );
            assert_eq!(batch_hit[0], hit);
        }
        phys_world_destroy(world);
    }
}

/// Through the C ABI, colliders at 1e30 are accepted and found; a sphere
/// whose bounds overflow is refused (`PHYS_ERROR_NON_FINITE`, nothing
/// written), and an overlap query whose bounds overflow answers instead of
/// panicking (F8).
#[test]
fn c_huge_coordinates_are_accepted_or_refused_never_a_panic() {
    let mut world = std::ptr::null_mut();
    // SAFETY: every pointer below points to a live local of its type.
    unsafe {
        assert_eq!(phys_world_create(&mut world), PHYS_OK);
        let far = PhysAabb {
            min: pv(Vec3::splat(1e30)),
            max: pv(Vec3::splat(2e30)),
        };
        let mut a = PhysCollider::default();
        assert_eq!(phys_add_box(world, &far, null(), &mut a), PHYS_OK);
        let mut refused = PhysCollider { bits: 7 };
        let desc = PhysColliderDesc {
            transform: PhysTransform {
                scale: pv(Vec3::splat(2.0)),
                ..Transform::IDENTITY.into()
            },
            ..PhysColliderDesc::default()
        };
        let big = PhysSphere {
            center: pv(Vec3::ZERO),
            radius: 3e38,
        };
        assert_eq!(phys_add_sphere(world, &big, &desc, &mut refused), PHYS_ERROR_NON_FINITE);
        assert_eq!(refused.bits, 7);
        let mut found = [PhysColliderRef::default(); 2];
        let (mut written, mut total) = (0, 0);
        let status = phys_overlap_sphere(world, &big, null(), found.as_mut_ptr(), 2, &mut written, &mut total);
        assert_eq!((status, written), (PHYS_OK, 1));
        assert_eq!(found[0].collider, a);
        let s = PhysSegment {
            start: pv(Vec3::ZERO),
            end: pv(Vec3::splat(3e30)),
        };
        let (mut hit, mut out) = (false, PhysHit::default());
        assert_eq!(phys_segment_cast(world, &s, null(), &mut hit, &mut out), PHYS_OK);
        assert!(hit && out.collider == a);
        let mut count = 0;
        assert_eq!(phys_world_count(world, &mut count), PHYS_OK);
        assert_eq!(count, 1);
        phys_world_destroy(world);
    }
}

// ---------------------------------------------------------------------------
// Short buffers.

#[test]
fn a_short_buffer_gets_only_the_total() {
    let f = Fixture::new();
    let expected = f.snapshot().pairwise;
    assert_eq!(expected.len(), 2);
    let finders: [(&str, BufferFinder); 2] = [
        ("phys_test_pairwise_into", pairwise_into_mut),
        ("phys_test_sweep_and_prune_into", phys_test_sweep_and_prune_into),
    ];
    for (name, finder) in finders {
        // Capacity 0 with a NULL buffer: the way to ask for the total.
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        let message = f.refuses(PHYS_ERROR_BUFFER_TOO_SMALL, &format!("{name} capacity 0"), || unsafe {
            // SAFETY: NULL with capacity 0 is allowed; valid counters.
            finder(f.world, null_mut(), 0, &mut written, &mut total)
        });
        assert_eq!((written, total), (SENTINEL_USIZE, 2), "{name}: only *total is written");
        assert_eq!(message, "the buffer is too small: 2 records are needed");

        // One short: nothing of the buffer is written.
        let mut buffer = [sentinel_pair(); 3];
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        f.refuses(PHYS_ERROR_BUFFER_TOO_SMALL, &format!("{name} capacity 1"), || unsafe {
            // SAFETY: a buffer of at least `capacity` records.
            finder(f.world, buffer.as_mut_ptr(), 1, &mut written, &mut total)
        });
        assert_eq!((written, total), (SENTINEL_USIZE, 2), "{name}");
        assert!(
            buffer.iter().all(|p| *p == sentinel_pair()),
            "{name}: the buffer was written"
        );

        // Exactly enough, and more than enough: the records and no more.
        for capacity in [2, 3] {
            let mut buffer = [sentinel_pair(); 3];
            let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
            // SAFETY: a buffer of `capacity` records.
            let status = unsafe { finder(f.world, buffer.as_mut_ptr(), capacity, &mut written, &mut total) };
            assert_eq!(status, PHYS_OK, "{name} capacity {capacity}");
            assert_eq!((written, total), (2, 2));
            assert_eq!(buffer[..2], expected[..]);
            assert_eq!(buffer[2], sentinel_pair(), "{name}: wrote past the pairs");
        }
    }
    assert_eq!(
        (
            expected[0].user_a,
            expected[0].user_b,
            expected[1].user_a,
            expected[1].user_b
        ),
        (1, 2, 1, 3)
    );
}

/// Every buffer-filling function `a_short_buffer_gets_only_the_total` leaves out (`phys_segment_cast_all`,
/// `phys_overlap_*`, `phys_find_pairs_into`, `phys_pair_events_began/ended`)
/// reports a short buffer with `PHYS_ERROR_BUFFER_TOO_SMALL` and only
/// `*total`; with room, writes exactly `*written` records.
#[test]
fn c_every_buffer_reports_its_total_when_short() {
    let (world, _) = c_world(usize::MAX);
    let mut began = 0;
    let mut ended = 0;
    // SAFETY: a live world and valid counters.
    assert_eq!(
        unsafe { phys_update_pair_events(world, &mut began, &mut ended) },
        PHYS_OK
    );
    assert_eq!((began, ended), (2, 0));
    let through = PhysSegment {
        start: pv(Vec3::new(-5.0, 0.5, 0.6)),
        end: pv(Vec3::new(5.0, 0.5, 0.6)),
    };
    let everything = PhysSphere {
        center: pv(Vec3::ZERO),
        radius: 100.0,
    };
    // A caller buffer as C passes it: NULL when it holds no record.
    fn out_ptr<T>(buf: &mut [T]) -> *mut T {
        if buf.is_empty() {
            std::ptr::null_mut()
        } else {
            buf.as_mut_ptr()
        }
    }
    type Fill = Box<dyn Fn(usize, &mut usize, &mut usize) -> (collide::ffi::PhysStatus, usize)>;
    // Each call fills a sentinel buffer of `capacity` records (NULL for 0)
    // and returns its status and how many records changed.
    let calls: Vec<(&str, usize, Fill)> = vec![
        (
            "phys_segment_cast_all",
            2,
            Box::new(move |cap, w, t| {
                let mut buf = vec![
                    PhysHit {
                        t: -1.0,
                        ..PhysHit::default()
                    };
                    cap
                ];
                let out = out_ptr(&mut buf);
                // SAFETY: `buf` holds `cap` records.
                let s = unsafe { phys_segment_cast_all(world, &through, null(), out, cap, w, t) };
                (s, buf.iter().filter(|h| h.t != -1.0).count())
            }),
        ),
        (
            "phys_overlap_sphere",
            3,
            Box::new(move |cap, w, t| {
                let mut buf = vec![PhysColliderRef::default(); cap];
                let out = out_ptr(&mut buf);
                // SAFETY: `buf` holds `cap` records.
                let s = unsafe { phys_overlap_sphere(world, &everything, null(), out, cap, w, t) };
                (s, buf.iter().filter(|r| r.collider.bits != 0).count())
            }),
        ),
        (
            "phys_find_pairs_into",
            2,
            Box::new(move |cap, w, t| {
                let mut buf = vec![PhysPair::default(); cap];
                let out = out_ptr(&mut buf);
                // SAFETY: `buf` holds `cap` records.
                let s = unsafe { phys_find_pairs_into(world, out, cap, w, t) };
                (s, buf.iter().filter(|p| p.a.bits != 0).count())
            }),
        ),
        (
            "phys_pair_events_began",
            2,
            Box::new(move |cap, w, t| {
                let mut buf = vec![PhysPair::default(); cap];
                let out = out_ptr(&mut buf);
                // SAFETY: `buf` holds `cap` records.
                let s = unsafe { phys_pair_events_began(world, out, cap, w, t) };
                (s, buf.iter().filter(|p| p.a.bits != 0).count())
            }),
        ),
    ];
    for (name, needed, call) in &calls {
        for capacity in 0..=needed + 1 {
            let (mut written, mut total) = (usize::MAX, usize::MAX);
            let (status, changed) = call(capacity, &mut written, &mut total);
            if capacity < *needed {
                assert_eq!(status, PHYS_ERROR_BUFFER_TOO_SMALL, "{name} capacity {capacity}");
                assert_eq!(
                    (written, total, changed),
                    (usize::MAX, *needed, 0),
                    "{name} capacity {capacity}"
                );
            } else {
                assert_eq!(status, PHYS_OK, "{name} capacity {capacity}");
                assert_eq!(
                    (written, total, changed),
                    (*needed, *needed, *needed),
                    "{name} capacity {capacity}"
                );
            }
        }
    }
    // No pair ended: an empty buffer is enough, and NULL is fine.
    let (mut written, mut total) = (usize::MAX, usize::MAX);
    // SAFETY: NULL with capacity 0; valid counters.
    let status = unsafe { phys_pair_events_ended(world, std::ptr::null_mut(), 0, &mut written, &mut total) };
    assert_eq!((status, written, total), (PHYS_OK, 0, 0));
    drop(calls);
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(world) };
}
