//! Two rules of the C ABI that concern whole calls rather than arguments:
//!
//! - A NULL output buffer with a non-zero `capacity` is
//!   `PHYS_ERROR_NULL_POINTER` in every function taking one, whatever the
//!   number of records there is to write (none included).
//! - A call breaking the header's thread rules on a world (a mutation while
//!   any other call runs on it, a read-only call while a mutation runs) is
//!   refused with `PHYS_ERROR_WORLD_BUSY`, never a panic or a wrong answer,
//!   and the world stays intact; a callback may read the world it runs
//!   on, and its mutations are refused the same way.

mod common;

use std::collections::{BTreeSet, HashSet};
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Barrier;

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use common::ffi::*;

fn at(x: f32, y: f32, z: f32, user: u64) -> PhysColliderDesc {
    let mut desc = phys_collider_desc_default();
    desc.transform.translation = v(x, y, z);
    desc.user_data = user;
    desc
}

/// The pairs of the O(n²) finder, as user-data pairs.
fn pairwise_users(world: *const PhysWorld) -> Vec<(u64, u64)> {
    let (mut written, mut total) = (0, 0);
    // SAFETY: valid pointers; NULL with capacity 0.
    let status = unsafe { phys_test_pairwise_into(world, null_mut(), 0, &mut written, &mut total) };
    assert!(status == PHYS_OK || status == PHYS_ERROR_BUFFER_TOO_SMALL);
    let mut pairs = vec![PhysPair::default(); total];
    // SAFETY: `total` writable records.
    let status = unsafe { phys_test_pairwise_into(world, pairs.as_mut_ptr(), total, &mut written, &mut total) };
    assert_eq!(status, PHYS_OK);
    pairs.iter().map(|p| (p.user_a, p.user_b)).collect()
}

// ---------------------------------------------------------------------------
// NULL buffers with a non-zero capacity.

/// Every function with a `capacity` parameter, called with `out = NULL` and
/// the given capacity; returns its status and whether `*written` and
/// `*total` stayed untouched.
fn buffer_calls(world: *mut PhysWorld, capacity: usize) -> Vec<(&'static str, PhysStatus, bool)> {
    let down = PhysSegment {
        start: v(0.0, 5.0, 0.0),
        end: v(0.0, -5.0, 0.0),
    };
    let sphere = PhysSphere {
        center: v(0.0, 0.0, 0.0),
        radius: 2.0,
    };
    let capsule = PhysCapsule {
        segment: down,
        radius: 1.0,
    };
    let obb = PhysObb {
        center: v(0.0, 0.0, 0.0),
        rotation: PhysQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        },
        half_extents: v(1.0, 1.0, 1.0),
    };
    let mut calls = Vec::new();
    let mut call = |name: &'static str, f: &dyn Fn(*mut usize, *mut usize) -> PhysStatus| {
        let (mut written, mut total) = (0x5A5A, 0x5A5A);
        let status = f(&mut written, &mut total);
        calls.push((name, status, (written, total) == (0x5A5A, 0x5A5A)));
    };
    // SAFETY (every call): a valid world and segment, shape and counters;
    // the NULL buffer is what is being tested.
    unsafe {
        call("phys_test_pairwise_into", &|w, t| {
            phys_test_pairwise_into(world, null_mut(), capacity, w, t)
        });
        call("phys_test_sweep_and_prune_into", &|w, t| {
            phys_test_sweep_and_prune_into(world, null_mut(), capacity, w, t)
        });
        call("phys_find_pairs_into", &|w, t| {
            phys_find_pairs_into(world, null_mut(), capacity, w, t)
        });
        call("phys_world_contact_manifolds", &|w, t| {
            phys_world_contact_manifolds(world, null_mut(), capacity, w, t)
        });
        call("phys_world_save", &|w, t| {
            phys_world_save(world, null_mut(), capacity, w, t)
        });
        call("phys_pair_events_began", &|w, t| {
            phys_pair_events_began(world, null_mut(), capacity, w, t)
        });
        call("phys_pair_events_ended", &|w, t| {
            phys_pair_events_ended(world, null_mut(), capacity, w, t)
        });
        call("phys_segment_cast_all", &|w, t| {
            phys_segment_cast_all(world, &down, null(), null_mut(), capacity, w, t)
        });
        call("phys_overlap_box", &|w, t| {
            phys_overlap_box(world, &cube(2.0), null(), null_mut(), capacity, w, t)
        });
        call("phys_overlap_sphere", &|w, t| {
            phys_overlap_sphere(world, &sphere, null(), null_mut(), capacity, w, t)
        });
        call("phys_overlap_capsule", &|w, t| {
            phys_overlap_capsule(world, &capsule, null(), null_mut(), capacity, w, t)
        });
        call("phys_overlap_obb", &|w, t| {
            phys_overlap_obb(world, &obb, null(), null_mut(), capacity, w, t)
        });
        let ball = PhysShape {
            kind: PHYS_SHAPE_SPHERE,
            data: PhysShapeData { sphere },
        };
        call("phys_overlap_shape", &|w, t| {
            phys_overlap_shape(world, &ball, null(), null_mut(), capacity, w, t)
        });
        call("phys_world_colliders", &|w, t| {
            phys_world_colliders(world, null_mut(), capacity, w, t)
        });
        call("phys_move_and_slide", &|w, t| {
            let mut delta = v(0.0, 0.0, 0.0);
            phys_move_and_slide(
                world,
                &ball,
                &v(1.0, 0.0, 0.0),
                null(),
                4,
                &mut delta,
                null_mut(),
                capacity,
                w,
                t,
            )
        });
    }
    calls
}

/// The `phys_*` functions the header declares with a `capacity` parameter.
fn header_functions_with_a_capacity() -> BTreeSet<String> {
    let header = include_str!("../include/collide.h");
    header
        .split(';')
        .filter_map(|declaration| {
            let open = declaration.rfind("phys_")?;
            let name_end = open + declaration[open..].find('(')?;
            declaration[name_end..]
                .contains("size_t capacity")
                .then(|| declaration[open..name_end].to_owned())
        })
        .collect()
}

#[test]
fn a_null_buffer_with_a_capacity_is_a_null_pointer_whatever_the_count() {
    let world = new_world(None);
    let covered: BTreeSet<String> = buffer_calls(world, 0).iter().map(|c| c.0.to_owned()).collect();
    assert_eq!(
        covered,
        header_functions_with_a_capacity(),
        "every buffer-taking function"
    );

    // Nothing to write: NULL with capacity 0 is fine, with 64 it is not.
    // SAFETY: valid pointers.
    let (mut began, mut ended) = (0, 0);
    assert_eq!(
        unsafe { phys_update_pair_events(world, &mut began, &mut ended) },
        PHYS_OK
    );
    for (name, status, _) in buffer_calls(world, 0) {
        // A snapshot is never empty: even an empty world's has its header.
        let expected = if name == "phys_world_save" {
            PHYS_ERROR_BUFFER_TOO_SMALL
        } else {
            PHYS_OK
        };
        assert_eq!(status, expected, "{name} with NULL and capacity 0 in an empty world");
    }
    for (name, status, untouched) in buffer_calls(world, 64) {
        assert_eq!(
            (status, untouched),
            (PHYS_ERROR_NULL_POINTER, true),
            "{name} with NULL and capacity 64 in an empty world"
        );
        assert!(last_error().contains("`out`"), "{name}: {}", last_error());
    }

    // Records to write: still NULL_POINTER, never BUFFER_TOO_SMALL or a write.
    add_box(world, cube(1.0), &at(0.0, 0.0, 0.0, 1));
    add_box(world, cube(1.0), &at(0.5, 0.0, 0.0, 2));
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { phys_update_pair_events(world, &mut began, &mut ended) },
        PHYS_OK
    );
    assert_eq!(began, 1);
    for capacity in [1, 64] {
        for (name, status, untouched) in buffer_calls(world, capacity) {
            assert_eq!(
                (status, untouched),
                (PHYS_ERROR_NULL_POINTER, true),
                "{name} with NULL and capacity {capacity} and records to write"
            );
        }
    }
    // With capacity 0 the total is reported as before (or nothing is due).
    for (name, status, _) in buffer_calls(world, 0) {
        let expected = if name == "phys_pair_events_ended" {
            PHYS_OK
        } else {
            PHYS_ERROR_BUFFER_TOO_SMALL
        };
        assert_eq!(status, expected, "{name} with NULL and capacity 0");
    }
    // SAFETY: made above, destroyed once.
    unsafe { phys_world_destroy(world) };
}

#[test]
fn a_capacity_no_array_can_hold_is_an_invalid_argument() {
    let world = new_world(None);
    let mut pairs = [PhysPair::default(); 1];
    let (mut written, mut total) = (0x5A5A, 0x5A5A);
    for capacity in [usize::MAX, isize::MAX as usize / 32 + 1] {
        // SAFETY: a valid world and a valid (small) buffer; the capacity is
        // refused before anything is written.
        let status = unsafe { phys_test_pairwise_into(world, pairs.as_mut_ptr(), capacity, &mut written, &mut total) };
        assert_eq!(status, PHYS_ERROR_INVALID_ARGUMENT, "capacity {capacity}");
        assert_eq!((written, total), (0x5A5A, 0x5A5A));
    }
    // SAFETY: made above, destroyed once.
    unsafe { phys_world_destroy(world) };
}

// ---------------------------------------------------------------------------
// The busy world.

/// A world pointer shared with other threads, as C code does.
#[derive(Clone, Copy)]
struct Shared(*mut PhysWorld);
// SAFETY: collide's C ABI is called from any thread; the test itself is
// what checks that concurrent calls are handled.
unsafe impl Send for Shared {}
// SAFETY: as above.
unsafe impl Sync for Shared {}

/// Blocks the pair callback until the test has tried its calls.
struct Parked {
    entered: mpsc::SyncSender<()>,
    release: std::sync::Mutex<mpsc::Receiver<()>>,
    first: AtomicBool,
}

unsafe extern "C" fn park_on_first_pair(ctx: *mut c_void, _: PhysCollider, _: u64, _: PhysCollider, _: u64) {
    // SAFETY: the test passes a `*const Parked` that outlives the call.
    let parked = unsafe { &*ctx.cast::<Parked>() };
    if parked.first.swap(false, Ordering::SeqCst) {
        let _ = parked.entered.send(());
        let _ = parked.release.lock().map(|r| r.recv());
    }
}

/// Runs `finder` on another thread, parks it in its first callback, and
/// returns the statuses of a mutation and of a read tried meanwhile.
fn while_a_callback_runs(
    world: Shared,
    finder: unsafe extern "C" fn(*mut PhysWorld, PhysPairCallback, *mut c_void) -> PhysStatus,
    victim: PhysCollider,
) -> (PhysStatus, PhysStatus, usize) {
    let (entered_tx, entered_rx) = mpsc::sync_channel(1);
    let (release_tx, release_rx) = mpsc::channel();
    let parked = Parked {
        entered: entered_tx,
        release: std::sync::Mutex::new(release_rx),
        first: AtomicBool::new(true),
    };
    std::thread::scope(|scope| {
        let parked = &parked;
        let finder_thread = scope.spawn(move || {
            let world = world;
            let ctx = (parked as *const Parked).cast_mut().cast();
            // SAFETY: a valid world, callback and context.
            unsafe { finder(world.0, Some(park_on_first_pair), ctx) }
        });
        entered_rx.recv().expect("the callback runs");
        // SAFETY: a valid world and handle.
        let removal = unsafe { phys_remove(world.0, victim) };
        let n = count(world.0);
        let mut aabb = cube(0.0);
        // SAFETY: valid pointers.
        let read = unsafe { phys_get_world_aabb(world.0, victim, &mut aabb) };
        release_tx.send(()).expect("the callback waits");
        assert_eq!(finder_thread.join().expect("no panic"), PHYS_OK);
        (removal, read, n)
    })
}

unsafe extern "C" fn pairwise_mut(world: *mut PhysWorld, callback: PhysPairCallback, ctx: *mut c_void) -> PhysStatus {
    // SAFETY: the caller's arguments, passed on.
    unsafe { phys_test_pairwise(world, callback, ctx) }
}

#[test]
fn a_mutation_from_another_thread_during_a_pair_callback_is_busy() {
    let world = new_world(None);
    let a = add_box(world, cube(1.0), &at(0.0, 0.0, 0.0, 1));
    add_box(world, cube(1.0), &at(0.5, 0.0, 0.0, 2));
    let shared = Shared(world);
    for finder in [pairwise_mut, phys_test_sweep_and_prune, phys_find_pairs] {
        let (removal, read, n) = while_a_callback_runs(shared, finder, a);
        assert_eq!(removal, PHYS_ERROR_WORLD_BUSY, "a mutation while a callback runs");
        assert_eq!((read, n), (PHYS_OK, 2), "a read while a callback runs");
    }
    // Free again once the finders returned.
    // SAFETY: valid world and handle; destroyed once.
    unsafe {
        assert_eq!(phys_remove(world, a), PHYS_OK);
        phys_world_destroy(world);
    }
}

#[test]
fn a_busy_world_is_not_destroyed_from_its_own_callback() {
    unsafe extern "C" fn destroy(ctx: *mut c_void, _: PhysCollider, _: u64, _: PhysCollider, _: u64) {
        // SAFETY: the test passes the world itself as the context.
        unsafe { phys_world_destroy(ctx.cast()) };
    }
    let world = new_world(None);
    add_box(world, cube(1.0), &at(0.0, 0.0, 0.0, 1));
    add_box(world, cube(1.0), &at(0.5, 0.0, 0.0, 2));
    // SAFETY: a valid world and callback; the callback's destroy is refused.
    let status = unsafe { phys_find_pairs(world, Some(destroy), world.cast()) };
    assert_eq!(status, PHYS_OK);
    assert!(last_error().contains("busy"), "{}", last_error());
    assert_eq!(count(world), 2, "the world survived");
    assert_eq!(pairwise_users(world), [(1, 2)]);
    // SAFETY: made above, destroyed once.
    unsafe { phys_world_destroy(world) };
}

/// A writer thread moving, adding and removing colliders races three reader
/// threads casting, overlapping and listing pairs on the same world, as a
/// game breaking the header's rule would: every status is `PHYS_OK` or
/// `PHYS_ERROR_WORLD_BUSY`, every answer a reader got is one a quiet world
/// gives, and the world afterwards is what the writer's successful calls
/// made it.
#[test]
fn a_writer_racing_readers_sees_only_ok_or_busy() {
    const ROUNDS: usize = 3000;
    let world = new_world(None);
    // A row of boxes along x, users 1..=20; the writer moves box 1 between
    // two places the readers' probes do not reach, adds and removes others.
    let handles: Vec<PhysCollider> = (1..=20)
        .map(|i| add_box(world, cube(1.0), &at(i as f32 * 3.0, 0.0, 0.0, i)))
        .collect();
    let shared = Shared(world);
    let start = Barrier::new(4);
    // Readers go on until the writer is done (and at least ROUNDS times), so
    // each is let in at the end even if the writer held the world throughout.
    let writer_done = AtomicBool::new(false);
    let (reader_statuses, writer) = std::thread::scope(|scope| {
        let readers: Vec<_> = (0..3)
            .map(|r| {
                let start = &start;
                let writer_done = &writer_done;
                scope.spawn(move || {
                    let world = shared;
                    start.wait();
                    let mut statuses = HashSet::new();
                    let mut i = 0;
                    // The last call is made after the writer was seen done.
                    let mut last = false;
                    while !last {
                        last = i >= ROUNDS && writer_done.load(Ordering::Acquire);
                        i += 1;
                        let k = (i % 19 + 2) as f32 * 3.0;
                        let status = match r {
                            0 => {
                                let down = PhysSegment {
                                    start: v(k, 5.0, 0.0),
                                    end: v(k, -5.0, 0.0),
                                };
                                let (mut hit, mut out) = (false, PhysHit::default());
                                // SAFETY: valid pointers.
                                let s = unsafe { phys_segment_cast(world.0, &down, null(), &mut hit, &mut out) };
                                if s == PHYS_OK {
                                    assert!(hit && out.t == 0.4, "box {k} is hit at its top: {out:?}");
                                }
                                s
                            }
                            1 => {
                                let probe = PhysAabb {
                                    min: v(k - 0.5, -0.5, -0.5),
                                    max: v(k + 0.5, 0.5, 0.5),
                                };
                                let mut refs = [PhysColliderRef::default(); 4];
                                let (mut written, mut total) = (0, 0);
                                // SAFETY: 4 writable records.
                                let s = unsafe {
                                    phys_overlap_box(
                                        world.0,
                                        &probe,
                                        null(),
                                        refs.as_mut_ptr(),
                                        4,
                                        &mut written,
                                        &mut total,
                                    )
                                };
                                if s == PHYS_OK {
                                    assert_eq!(written, 1, "one box at x = {k}");
                                }
                                s
                            }
                            _ => {
                                let mut pairs = [PhysPair::default(); 8];
                                let (mut written, mut total) = (0, 0);
                                // SAFETY: 8 writable records.
                                unsafe {
                                    phys_test_pairwise_into(world.0, pairs.as_mut_ptr(), 8, &mut written, &mut total)
                                }
                            }
                        };
                        statuses.insert(status);
                    }
                    statuses
                })
            })
            .collect();
        let writer = {
            let start = &start;
            let writer_done = &writer_done;
            let moved = handles[0];
            scope.spawn(move || {
                let world = shared;
                start.wait();
                let mut statuses = HashSet::new();
                let mut extra: Vec<PhysCollider> = Vec::new();
                let mut last_move = None;
                for i in 0..ROUNDS {
                    let y = 100.0 + (i % 7) as f32;
                    let mut transform = at(3.0, y, 0.0, 0).transform;
                    transform.translation.x = 3.0;
                    // SAFETY: valid pointers.
                    let s = unsafe { phys_set_transform(world.0, moved, &transform) };
                    if s == PHYS_OK {
                        last_move = Some(y);
                    }
                    statuses.insert(s);
                    if i % 3 == 0 {
                        let mut handle = PhysCollider::default();
                        let desc = at(-50.0 - i as f32, 0.0, 0.0, 1000 + i as u64);
                        // SAFETY: valid pointers.
                        let s = unsafe { phys_add_box(world.0, &cube(1.0), &desc, &mut handle) };
                        if s == PHYS_OK {
                            extra.push(handle);
                        }
                        statuses.insert(s);
                    } else if i % 3 == 1 && !extra.is_empty() {
                        // SAFETY: a valid world and handle.
                        let s = unsafe { phys_remove(world.0, extra[0]) };
                        if s == PHYS_OK {
                            extra.remove(0);
                        }
                        statuses.insert(s);
                    }
                }
                writer_done.store(true, Ordering::Release);
                (statuses, extra, last_move)
            })
        };
        let readers: Vec<HashSet<PhysStatus>> = readers.into_iter().map(|r| r.join().expect("no panic")).collect();
        (readers, writer.join().expect("no panic"))
    });
    let allowed = HashSet::from([PHYS_OK, PHYS_ERROR_WORLD_BUSY]);
    for statuses in reader_statuses.iter().chain([&writer.0]) {
        assert!(statuses.is_subset(&allowed), "{statuses:?}");
    }
    // Either side may be refused throughout the race (neither waits for the
    // other); a reader's last call, after the writer is done, is let in.
    assert!(
        reader_statuses.iter().all(|s| s.contains(&PHYS_OK)),
        "{reader_statuses:?}"
    );
    let (_, extra, last_move) = writer;
    assert_eq!(count(world), 20 + extra.len(), "the writer's adds and removes, no more");
    let mut aabb = cube(0.0);
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_get_world_aabb(world, handles[0], &mut aabb) }, PHYS_OK);
    assert_eq!(
        aabb.min.y + 1.0,
        last_move.unwrap_or(0.0),
        "box 1 where the last successful move (if any) put it"
    );
    // The finders agree: the tree and the pair cache followed every change.
    let (mut written, mut total) = (0, 0);
    // SAFETY: valid pointers; NULL with capacity 0.
    let status = unsafe { phys_find_pairs_into(world, null_mut(), 0, &mut written, &mut total) };
    assert_eq!((status, total), (PHYS_OK, pairwise_users(world).len()));
    // SAFETY: made above, destroyed once.
    unsafe { phys_world_destroy(world) };
}

// ---------------------------------------------------------------------------
// Callbacks calling back into the world.

/// What the re-entrant callback saw and did.
struct Reentry {
    world: *mut PhysWorld,
    delivered: Vec<(u64, u64)>,
    /// The statuses of the mutations tried from inside the callback.
    mutations: Vec<PhysStatus>,
    /// The world's count read from inside the callback.
    counts: Vec<usize>,
    /// The pairs a nested read-only `phys_test_pairwise` saw, with its status.
    nested: Vec<(PhysStatus, Vec<(u64, u64)>)>,
    /// Whether `phys_get_user_data` inside the callback agreed with the
    /// user data delivered.
    user_data_agrees: bool,
}

unsafe extern "C" fn collect_users(ctx: *mut c_void, _: PhysCollider, user_a: u64, _: PhysCollider, user_b: u64) {
    // SAFETY: the test passes a `*mut Vec<(u64, u64)>`.
    unsafe { (*ctx.cast::<Vec<(u64, u64)>>()).push((user_a, user_b)) };
}

/// Tries every kind of mutation on the world being iterated (removing `b`,
/// moving `a`, adding, a mutating pair finder, destroying it), and reads it
/// (the count, `a`'s user data, a nested read-only pair finder). Records
/// instead of asserting: a panic must not unwind through collide's frames.
unsafe extern "C" fn mutate_and_read(ctx: *mut c_void, a: PhysCollider, user_a: u64, b: PhysCollider, user_b: u64) {
    // SAFETY: the test passes a `*mut Reentry` that outlives the call.
    let state = unsafe { &mut *ctx.cast::<Reentry>() };
    state.delivered.push((user_a, user_b));
    let w = state.world;
    let mut user = SENTINEL_U64;
    let mut handle = SENTINEL_HANDLE;
    let mut sink: Vec<(u64, u64)> = Vec::new();
    let sink_ptr: *mut c_void = (&mut sink as *mut Vec<(u64, u64)>).cast();
    // SAFETY: a live world; the callback may call back into it.
    unsafe {
        if phys_get_user_data(w, a, &mut user) != PHYS_OK || user != user_a {
            state.user_data_agrees = false;
        }
        state.mutations.extend([
            phys_remove(w, b),
            phys_set_transform(w, a, &translation(50.0, 0.0, 0.0)),
            phys_add_box(w, &cube(1.0), null(), &mut handle),
            phys_test_sweep_and_prune(w, Some(collect_users), sink_ptr),
            phys_find_pairs(w, Some(collect_users), sink_ptr),
        ]);
        // Refused, so the world survives it.
        phys_world_destroy(w);
        let mut n = SENTINEL_USIZE;
        phys_world_count(w, &mut n);
        state.counts.push(n);
        let status = phys_test_pairwise(w, Some(collect_users), sink_ptr);
        state.nested.push((status, sink));
    }
}

type CallbackFinder = unsafe extern "C" fn(*mut PhysWorld, PhysPairCallback, *mut c_void) -> PhysStatus;

#[test]
fn a_callback_may_read_the_world_but_its_mutations_are_refused_as_busy() {
    let world = new_world(None);
    // Four mutually overlapping boxes: six pairs.
    let handles: Vec<PhysCollider> = (1..=4)
        .map(|user| add_box(world, cube(1.0), &desc(user, user as f32 * 0.1, 0.0, 0.0)))
        .collect();
    let all_pairs = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let finders: [(&str, CallbackFinder); 3] = [
        ("phys_test_pairwise", pairwise_mut),
        ("phys_test_sweep_and_prune", phys_test_sweep_and_prune),
        ("phys_find_pairs", phys_find_pairs),
    ];
    for (name, finder) in finders {
        let mut state = Reentry {
            world,
            delivered: Vec::new(),
            mutations: Vec::new(),
            counts: Vec::new(),
            nested: Vec::new(),
            user_data_agrees: true,
        };
        // SAFETY: valid world, callback and context.
        let status = unsafe { finder(world, Some(mutate_and_read), (&mut state as *mut Reentry).cast()) };
        assert_eq!(status, PHYS_OK, "{name}");
        assert_eq!(state.delivered, all_pairs, "{name}: every pair delivered");
        assert_eq!(
            state.mutations,
            [PHYS_ERROR_WORLD_BUSY; 5 * 6],
            "{name}: every mutation from the callback is refused"
        );
        assert_eq!(state.counts, [4; 6], "{name}: reads work, and the world is unchanged");
        assert!(state.user_data_agrees, "{name}");
        for (status, nested) in &state.nested {
            assert_eq!(
                (*status, nested.as_slice()),
                (PHYS_OK, &all_pairs[..]),
                "{name}: nested read"
            );
        }
        assert_eq!(state.nested.len(), 6);
        assert!(last_error().contains("busy"), "{name}: {}", last_error());
        // The world is intact and free again: the boxes are where they were.
        assert_eq!(count(world), 4);
        assert!(handles.iter().all(|&h| alive(world, h)));
        let pairs: Vec<(u64, u64)> = pairs_into(phys_test_sweep_and_prune_into, world)
            .iter()
            .map(|p| (p.user_a, p.user_b))
            .collect();
        assert_eq!(pairs, all_pairs, "{name}");
    }
    // Mutations work again once no call holds the world.
    // SAFETY: valid world and handle; destroyed once.
    unsafe {
        assert_eq!(phys_remove(world, handles[1]), PHYS_OK);
        assert_eq!(count(world), 3);
        let mut calls = 0usize;
        let ctx: *mut c_void = (&mut calls as *mut usize).cast();
        assert_eq!(phys_test_pairwise(world, Some(count_pairs), ctx), PHYS_OK);
        assert_eq!(calls, 3);
        phys_world_destroy(world);
    }
}
