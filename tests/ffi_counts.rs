//! Counts the C ABI cannot honour become statuses, never a panic or an
//! abort: a count whose byte length overflows `isize` is
//! `PHYS_ERROR_INVALID_ARGUMENT`, and one whose buffers cannot be allocated
//! is `PHYS_ERROR_OUT_OF_MEMORY`, both before a record of the caller's
//! arrays is read (the arrays here hold one or a few records), with the
//! world unchanged and nothing written.
//!
//! The allocation failures are provoked with counts of 2^40 records (tens
//! of TiB, which a host refuses unless it overcommits memory without
//! limit) and 2^45 (beyond any x86-64 or AArch64 address space, refused
//! everywhere).

mod common;

use std::ptr::null;

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use common::ffi::*;

/// Counts whose buffers no allocation can hold here: 2^45 always, and 2^40
/// unless the kernel grants any allocation (`vm.overcommit_memory = 1`),
/// where a 2^40-record buffer may be granted and this test's small arrays
/// would then be read past their end.
fn unallocatable_counts() -> Vec<usize> {
    let mut counts = vec![1 << 45];
    let always = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").is_ok_and(|mode| mode.trim() == "1");
    if !always {
        counts.push(1 << 40);
    }
    counts
}

/// A world with one box at the origin (user data 7), and its handle.
fn world_with_a_box() -> (*mut PhysWorld, PhysCollider) {
    let mut world = std::ptr::null_mut();
    let mut handle = PhysCollider::default();
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(phys_world_create(&mut world), PHYS_OK);
        let mut desc = phys_collider_desc_default();
        desc.user_data = 7;
        assert_eq!(phys_add_box(world, &cube(1.0), &desc, &mut handle), PHYS_OK);
    }
    (world, handle)
}

/// The world still holds its one box, where it was.
fn assert_unchanged(world: *mut PhysWorld, handle: PhysCollider, what: &str) {
    let (mut n, mut aabb) = (0, PhysAabb::default());
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(phys_world_count(world, &mut n), PHYS_OK);
        assert_eq!(phys_get_world_aabb(world, handle, &mut aabb), PHYS_OK);
    }
    assert_eq!((n, aabb), (1, cube(1.0)), "{what}: the world changed");
}

#[test]
fn segment_cast_batch_refuses_impossible_counts() {
    let (world, handle) = world_with_a_box();
    let segment = PhysSegment {
        start: v(0.0, 5.0, 0.0),
        end: v(0.0, -5.0, 0.0),
    };
    let sentinel = PhysHit {
        t: -1.0,
        ..PhysHit::default()
    };
    let too_large = [
        usize::MAX,
        usize::MAX / 2,
        isize::MAX as usize / 12,
        isize::MAX as usize / 24 + 1,
        isize::MAX as usize / 48 + 1,
    ];
    let cases = too_large.iter().map(|&n| (n, PHYS_ERROR_INVALID_ARGUMENT)).chain(
        unallocatable_counts()
            .into_iter()
            .map(|n| (n, PHYS_ERROR_OUT_OF_MEMORY)),
    );
    for (count, status) in cases {
        let (mut hit_byte, mut out) = ([0xAAu8; 1], [sentinel; 1]);
        // SAFETY: valid one-record arrays; the count is refused before any
        // record is read or written.
        let got = unsafe {
            phys_segment_cast_batch(
                world,
                &segment,
                count,
                null(),
                hit_byte.as_mut_ptr().cast(),
                out.as_mut_ptr(),
            )
        };
        assert_eq!(got, status, "count {count}: {}", last_error());
        assert_eq!((hit_byte, out), ([0xAA], [sentinel]), "count {count}: nothing written");
    }
    assert!(last_error().starts_with("out of memory"), "{}", last_error());
    // The same arrays with their real count still work.
    let (mut hit, mut out) = (false, sentinel);
    // SAFETY: one-record arrays.
    let got = unsafe { phys_segment_cast_batch(world, &segment, 1, null(), &mut hit, &mut out) };
    assert_eq!((got, hit, out.collider, out.t), (PHYS_OK, true, handle, 0.4));
    assert_unchanged(world, handle, "segment_cast_batch");
    // SAFETY: made above, destroyed once.
    unsafe { phys_world_destroy(world) };
}

#[test]
fn set_transforms_refuses_impossible_counts() {
    let (world, handle) = world_with_a_box();
    let mut moved = phys_collider_desc_default().transform;
    moved.translation = v(10.0, 0.0, 0.0);
    let cases = [
        (usize::MAX, PHYS_ERROR_INVALID_ARGUMENT),
        (isize::MAX as usize / 40 + 1, PHYS_ERROR_INVALID_ARGUMENT),
        // Fits as an array of PhysTransform, not as the batch collide builds.
        (isize::MAX as usize / 40, PHYS_ERROR_OUT_OF_MEMORY),
    ]
    .into_iter()
    .chain(
        unallocatable_counts()
            .into_iter()
            .map(|n| (n, PHYS_ERROR_OUT_OF_MEMORY)),
    );
    for (count, status) in cases {
        // SAFETY: one-record arrays; the count is refused before any record
        // is read.
        let got = unsafe { phys_set_transforms(world, &handle, &moved, count) };
        assert_eq!(got, status, "count {count}: {}", last_error());
        assert_unchanged(world, handle, "set_transforms");
    }
    // SAFETY: made above, destroyed once.
    unsafe { phys_world_destroy(world) };
}

#[test]
fn bulk_adds_hulls_and_meshes_refuse_unallocatable_counts() {
    let (world, handle) = world_with_a_box();
    let points = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0)];
    let indices = [0u32, 1, 2];
    let boxes = [cube(1.0); 2];
    let check = |what: String, status: PhysStatus, out: PhysCollider| {
        assert_eq!(status, PHYS_ERROR_OUT_OF_MEMORY, "{what}: {}", last_error());
        assert_eq!(out, PhysCollider::default(), "{what}: nothing written");
        assert_unchanged(world, handle, &what);
    };
    for count in unallocatable_counts() {
        let mut out = PhysCollider::default();
        // SAFETY (each call): valid small arrays; the count is refused
        // before any record is read.
        let status = unsafe { phys_add_hull(world, points.as_ptr(), count, null(), &mut out) };
        check(format!("add_hull {count}"), status, out);
        let status = unsafe { phys_add_mesh(world, points.as_ptr(), count, indices.as_ptr(), 3, null(), &mut out) };
        check(format!("add_mesh vertex_count {count}"), status, out);
        let status = unsafe { phys_add_mesh(world, points.as_ptr(), 4, indices.as_ptr(), 3 * count, null(), &mut out) };
        check(format!("add_mesh index_count 3 x {count}"), status, out);
        let mut outs = [PhysCollider::default(); 2];
        let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), null(), count, outs.as_mut_ptr()) };
        check(format!("add_boxes {count}"), status, outs[0]);
    }
    // SAFETY: made above, destroyed once.
    unsafe { phys_world_destroy(world) };
}

/// An iterator that promises `2^40` descriptions and yields none: the
/// room `World::extend` reserves for it is the world's whole limit.
struct Promises;

impl Iterator for Promises {
    type Item = collide::ColliderDesc;

    fn next(&mut self) -> Option<Self::Item> {
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (1 << 40, None)
    }
}

#[test]
fn extend_reports_room_it_cannot_allocate() {
    if unallocatable_counts().len() == 1 {
        // The kernel grants any allocation: the reservation would succeed.
        return;
    }
    let mut world = collide::World::new();
    let result = world.extend(Promises);
    assert!(
        matches!(result, Err(collide::Error::OutOfMemory(_))),
        "{} colliders' room: {result:?}",
        world.max_colliders()
    );
    assert!(world.is_empty());
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
