//! The lifecycle of a C world and its colliders: creating and destroying a
//! world (NULL included), the default description, the handles (stale,
//! NULL, forged and foreign ones are refused by every function taking one),
//! a full world, and `phys_add_boxes`, all or nothing.
//!
//! After every failing call the world is unchanged and no output was
//! written (the harness of `tests/common/ffi.rs`).

mod common;

use std::ptr::{null, null_mut};

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::Vec3;
use common::ffi::*;

// ---------------------------------------------------------------------------
// Worlds.

#[test]
fn destroying_null_is_a_no_op() {
    // Leave a known message, then check destroy(NULL) neither crashes nor touches it.
    let mut n = SENTINEL_USIZE;
    // SAFETY: NULL world is detected.
    assert_eq!(unsafe { phys_world_count(null(), &mut n) }, PHYS_ERROR_NULL_POINTER);
    let message = last_error();
    // SAFETY: NULL is documented as ignored.
    unsafe { phys_world_destroy(null_mut()) };
    assert_eq!(last_error(), message);
    assert_eq!(n, SENTINEL_USIZE);
}

#[test]
fn is_alive_is_false_for_a_null_or_misaligned_world() {
    let f = Fixture::new();
    assert!(alive(f.world, f.probe));
    // SAFETY: NULL and misaligned worlds are detected, never dereferenced.
    unsafe {
        assert!(!phys_collider_is_alive(null(), f.probe));
        assert!(!phys_collider_is_alive(
            f.world.cast::<u8>().wrapping_add(1).cast(),
            f.probe
        ));
    }
}

#[test]
fn default_description_is_identity_user_zero_category_one_mask_all_rotating() {
    let d = phys_collider_desc_default();
    assert_eq!(d.transform, translation(0.0, 0.0, 0.0));
    assert_eq!((d.user_data, d.category_bits, d.mask_bits), (0, 1, u64::MAX));
    assert_eq!(d.flags, PHYS_COLLIDER_SHOULD_ROTATE);
}

// ---------------------------------------------------------------------------
// Handles.

/// Every function that takes a collider handle, as `(name, call)`; each call
/// returns its status and whether its output (if any) still holds its sentinel.
type HandleCall = (&'static str, Box<dyn Fn(PhysCollider) -> (PhysStatus, bool)>);

fn handle_calls(world: *mut PhysWorld, live: PhysCollider) -> Vec<HandleCall> {
    // SAFETY (every `unsafe` below): valid pointers; collide checks the handle.
    vec![
        (
            "phys_remove",
            Box::new(move |h| (unsafe { phys_remove(world, h) }, true)),
        ),
        (
            "phys_set_transform",
            Box::new(move |h| {
                (
                    unsafe { phys_set_transform(world, h, &translation(1.0, 2.0, 3.0)) },
                    true,
                )
            }),
        ),
        (
            "phys_set_box",
            Box::new(move |h| (unsafe { phys_set_box(world, h, &cube(2.0)) }, true)),
        ),
        (
            "phys_set_sphere",
            Box::new(move |h| (unsafe { phys_set_sphere(world, h, &sphere(2.0)) }, true)),
        ),
        (
            "phys_set_capsule",
            Box::new(move |h| (unsafe { phys_set_capsule(world, h, &capsule(2.0)) }, true)),
        ),
        (
            "phys_set_should_rotate",
            Box::new(move |h| (unsafe { phys_set_should_rotate(world, h, false) }, true)),
        ),
        (
            "phys_set_user_data",
            Box::new(move |h| (unsafe { phys_set_user_data(world, h, 42) }, true)),
        ),
        (
            "phys_set_filter",
            Box::new(move |h| (unsafe { phys_set_filter(world, h, 2, 2) }, true)),
        ),
        (
            "phys_get_user_data",
            Box::new(move |h| {
                let mut out = SENTINEL_U64;
                (unsafe { phys_get_user_data(world, h, &mut out) }, out == SENTINEL_U64)
            }),
        ),
        (
            "phys_get_world_aabb",
            Box::new(move |h| {
                let mut out = sentinel_aabb();
                (
                    unsafe { phys_get_world_aabb(world, h, &mut out) },
                    out == sentinel_aabb(),
                )
            }),
        ),
        (
            "phys_get_transform",
            Box::new(move |h| {
                let mut out = sentinel_transform();
                (
                    unsafe { phys_get_transform(world, h, &mut out) },
                    out == sentinel_transform(),
                )
            }),
        ),
        // The two-handle functions, with the bad handle first, then second.
        (
            "phys_distance (a)",
            Box::new(move |h| distance_untouched(world, h, live)),
        ),
        (
            "phys_distance (b)",
            Box::new(move |h| distance_untouched(world, live, h)),
        ),
        ("phys_contact (a)", Box::new(move |h| contact_untouched(world, h, live))),
        ("phys_contact (b)", Box::new(move |h| contact_untouched(world, live, h))),
    ]
}

/// `phys_distance`'s status, and whether `*out` kept its sentinel.
fn distance_untouched(world: *const PhysWorld, a: PhysCollider, b: PhysCollider) -> (PhysStatus, bool) {
    let sentinel = PhysDistance {
        distance: 777.0,
        ..PhysDistance::default()
    };
    let mut out = sentinel;
    // SAFETY: valid pointers; collide checks the handles.
    (unsafe { phys_distance(world, a, b, &mut out) }, out == sentinel)
}

/// `phys_contact`'s status, and whether both outputs kept their sentinels.
fn contact_untouched(world: *const PhysWorld, a: PhysCollider, b: PhysCollider) -> (PhysStatus, bool) {
    let sentinel = PhysContact {
        depth: 777.0,
        ..PhysContact::default()
    };
    let (mut touching, mut out) = (SENTINEL_BOOL_BYTE, sentinel);
    // SAFETY: valid pointers; collide checks the handles.
    let status = unsafe { phys_contact(world, a, b, bool_out(&mut touching), &mut out) };
    (status, touching == SENTINEL_BOOL_BYTE && out == sentinel)
}

/// The closest hit of a segment through the fixture's probe, under `filter`.
fn cast_through_probe(world: *const PhysWorld, filter: Option<&PhysQueryFilter>) -> PhysHit {
    let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
    let s = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
    let filter = filter.map_or(null(), |f| f as *const PhysQueryFilter);
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { phys_segment_cast(world, &s, filter, bool_out(&mut hit_byte), &mut hit) },
        PHYS_OK
    );
    assert_eq!(hit_byte, 1);
    hit
}

#[test]
fn stale_null_forged_and_foreign_handles_are_refused_everywhere() {
    let f = Fixture::new();
    // A world with more slots than the fixture: its last handle is out of
    // range there.
    let other = new_world(None);
    let first_foreign = add_box(other, cube(1.0), &desc(0, 0.0, 0.0, 0.0));
    let mut foreign = SENTINEL_HANDLE;
    for i in 1..8 {
        foreign = add_box(other, cube(1.0), &desc(i, i as f32 * 3.0, 0.0, 0.0));
    }
    // The other world's first handle names a slot that is live here, under
    // the same generation: the worlds' salts tell them apart.
    assert_eq!(first_foreign.bits & 0xFFFF_FFFF, f.probe.bits & 0xFFFF_FFFF);

    let mut stale = vec![
        ("removed", f.removed),
        ("null {0}", PhysCollider { bits: 0 }),
        ("foreign, in range", first_foreign),
        ("foreign, out of range", foreign),
        ("all ones", PhysCollider { bits: u64::MAX }),
    ];
    // Forged bits with an even generation (upper 32 bits) on live slots:
    // slotmap's `from_ffi` would round them up onto a live key.
    for (name, live) in [
        ("probe", f.probe),
        ("ball", f.ball),
        ("pill", f.pill),
        ("spare", f.spare),
    ] {
        assert_eq!((live.bits >> 32) & 1, 1, "live generations are odd");
        let index = live.bits & 0xFFFF_FFFF;
        for bits in [index, live.bits + (1 << 32), index | (0xFFFF_FFFE << 32)] {
            stale.push((name, PhysCollider { bits }));
        }
    }

    let unfiltered = cast_through_probe(f.world, None);
    assert_eq!(unfiltered.collider, f.probe);
    for (name, handle) in &stale {
        assert!(!alive(f.world, *handle), "{name} {handle:?} is not alive");
        for (function, call) in handle_calls(f.world, f.probe) {
            let what = format!("{function} with {name} handle {:#x}", handle.bits);
            let mut untouched = false;
            let message = f.refuses(PHYS_ERROR_STALE_HANDLE, &what, || {
                let (status, outputs_untouched) = call(*handle);
                untouched = outputs_untouched;
                status
            });
            assert!(untouched, "{what}: an output was written");
            assert_eq!(message, "collider handle is stale or null", "{what}");
        }
        // As a query filter's `exclude`, a stale handle excludes nothing.
        let filter = PhysQueryFilter {
            category_bits: u64::MAX,
            mask_bits: u64::MAX,
            exclude: *handle,
        };
        assert_eq!(cast_through_probe(f.world, Some(&filter)), unfiltered, "exclude {name}");
    }

    // A removed collider's slot is reused by the next add, under a new
    // generation: the old handle stays stale and never names the newcomer.
    let world = new_world(None);
    let first = add_box(world, cube(1.0), &desc(1, 0.0, 0.0, 0.0));
    // SAFETY: valid world and handle.
    assert_eq!(unsafe { phys_remove(world, first) }, PHYS_OK);
    let second = add_box(world, cube(1.0), &desc(2, 0.0, 0.0, 0.0));
    assert_eq!(
        first.bits & 0xFFFF_FFFF,
        second.bits & 0xFFFF_FFFF,
        "the slot is reused"
    );
    assert_ne!(first, second);
    let mut user = SENTINEL_U64;
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(phys_get_user_data(world, first, &mut user), PHYS_ERROR_STALE_HANDLE);
        assert_eq!(user, SENTINEL_U64);
        assert_eq!(phys_get_user_data(world, second, &mut user), PHYS_OK);
        assert_eq!(user, 2);
        phys_world_destroy(world);
        phys_world_destroy(other);
    }
}

// ---------------------------------------------------------------------------
// Capacity and batches.

#[test]
fn a_full_world_refuses_new_colliders() {
    let world = new_world(Some(2));
    let first = add_box(world, cube(1.0), &desc(1, 0.0, 0.0, 0.0));
    let second = add_box(world, cube(1.0), &desc(2, 1.0, 0.0, 0.0));
    let watched = [first, second];
    let d = desc(3, 5.0, 0.0, 0.0);
    let full = PHYS_ERROR_CAPACITY_EXCEEDED;
    // SAFETY (every `unsafe` below): valid pointers.
    type Add = Box<dyn Fn(*mut PhysCollider) -> PhysStatus>;
    let attempts: [(&str, Add); 3] = [
        (
            "add_box",
            Box::new(move |o| unsafe { phys_add_box(world, &cube(1.0), &d, o) }),
        ),
        (
            "add_sphere",
            Box::new(move |o| unsafe { phys_add_sphere(world, &sphere(1.0), &d, o) }),
        ),
        (
            "add_capsule",
            Box::new(move |o| unsafe { phys_add_capsule(world, &capsule(1.0), &d, o) }),
        ),
    ];
    for (name, add) in &attempts {
        let mut out = SENTINEL_HANDLE;
        let message = refuses(world, &watched, full, name, || add(&mut out));
        assert_eq!(out, SENTINEL_HANDLE, "{name}: *out was written");
        assert!(message.contains("full"), "{message}");
    }
    // Room again after a removal.
    assert_eq!(unsafe { phys_remove(world, first) }, PHYS_OK);
    let mut out = SENTINEL_HANDLE;
    assert_eq!(attempts[1].1(&mut out), PHYS_OK);
    assert!(alive(world, out));
    assert_eq!(count(world), 2);

    // A limit of zero holds nothing.
    let empty = new_world(Some(0));
    let mut out = SENTINEL_HANDLE;
    assert_eq!(unsafe { phys_add_sphere(empty, &sphere(1.0), null(), &mut out) }, full);
    assert_eq!((out, count(empty)), (SENTINEL_HANDLE, 0));
    unsafe {
        phys_world_destroy(world);
        phys_world_destroy(empty);
    }
}

/// `phys_add_boxes` refuses a batch with one bad box (NaN, inverted) or one
/// unknown flag, and a batch that does not fit (`PHYS_ERROR_CAPACITY_EXCEEDED`):
/// none is added, no handle written.
#[test]
fn c_add_boxes_is_all_or_nothing() {
    let (world, handles) = c_world(6);
    let before = c_state(world, &handles);
    let good = |x: f32| PhysAabb {
        min: pv(Vec3::new(x, 0.0, 0.0)),
        max: pv(Vec3::new(x + 1.0, 1.0, 1.0)),
    };
    let inverted = PhysAabb {
        min: pv(Vec3::ONE),
        max: pv(Vec3::ZERO),
    };
    let nan = PhysAabb {
        min: pv(Vec3::new(0.0, f32::NAN, 0.0)),
        max: pv(Vec3::ONE),
    };
    let flagged = PhysColliderDesc {
        flags: 0x8000_0000,
        ..PhysColliderDesc::default()
    };
    let cases = [
        ([good(10.0), inverted, good(12.0)], None, PHYS_ERROR_INVERTED_BOX),
        ([good(10.0), good(11.0), nan], None, PHYS_ERROR_NON_FINITE),
        (
            [good(10.0), good(11.0), good(12.0)],
            Some(flagged),
            PHYS_ERROR_INVALID_ARGUMENT,
        ),
    ];
    for (boxes, desc, expected) in cases {
        let descs = [
            PhysColliderDesc::default(),
            desc.unwrap_or_default(),
            PhysColliderDesc::default(),
        ];
        let mut out = [PhysCollider { bits: 9 }; 3];
        // SAFETY: three records in each array.
        let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), descs.as_ptr(), 3, out.as_mut_ptr()) };
        assert_eq!(status, expected);
        assert_eq!(out, [PhysCollider { bits: 9 }; 3]);
        assert_eq!(c_state(world, &handles), before);
    }
    // Three fit (3 + 3 = 6), four do not.
    let boxes = [good(10.0), good(11.0), good(12.0), good(13.0)];
    let mut out = [PhysCollider { bits: 9 }; 4];
    // SAFETY: four records in each array.
    let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), null(), 4, out.as_mut_ptr()) };
    assert_eq!(
        (status, out),
        (PHYS_ERROR_CAPACITY_EXCEEDED, [PhysCollider { bits: 9 }; 4])
    );
    assert_eq!(c_state(world, &handles), before);
    // SAFETY: three records in each array.
    let status = unsafe { phys_add_boxes(world, boxes.as_ptr(), null(), 3, out.as_mut_ptr()) };
    assert_eq!(status, PHYS_OK);
    assert!(out[..3].iter().all(|h| h.bits != 9 && h.bits != 0));
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(world) };
}
