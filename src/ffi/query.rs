//! The `phys_*` query functions: segment casts (closest, any, all, many),
//! region overlaps, the pair finders and the pair events. Thin shells over
//! the safe [`World`] queries, with the conventions of
//! [`world`](super::world): checked pointers, outputs written on success,
//! caller buffers that report the total they need.

use core::ffi::c_void;

use crate::broad::Pair;
use crate::collider::ColliderKey;
use crate::ffi::error::{guard, Failure, PhysStatus};
use crate::ffi::types::*;
use crate::ffi::world::{
    check_count, check_pointer, copy_in, read_in, try_vec, world_mut, world_ref, Out, PhysWorld, WorldState,
};
use crate::query::Ray;
use crate::shape::Segment;
use crate::shape::Shape;
use crate::world::{Hit, World};

/// Casts the closed segment against every collider `filter` accepts (NULL
/// accepts all; a stale `exclude` excludes nothing) and reports the closest
/// hit: `*out_hit` says whether there was one and, if so, `*out` holds it
/// (`*out` is left alone on a miss). The book's `PhysWorld::SegmentCast`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_segment_cast(
    world: *const PhysWorld,
    segment: *const PhysSegment,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysHit,
) -> PhysStatus {
    cast_one(world, segment, filter, out_hit, out, World::segment_cast)
}

/// One segment cast that reports at most one hit (`cast`:
/// `World::segment_cast` or `World::segment_cast_any`), the
/// `phys_segment_cast` way.
fn cast_one(
    world: *const PhysWorld,
    segment: *const PhysSegment,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysHit,
    cast: impl FnOnce(&World, &Segment, &crate::collider::QueryFilter) -> crate::error::Result<Option<Hit>>,
) -> PhysStatus {
    guard(|| {
        let out_hit = Out::new(out_hit, "out_hit")?;
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let segment = read_segment(segment)?;
        out.write_some(
            out_hit,
            cast(&world.world, &segment, &read_filter(&world, filter)?)?.map(|hit| PhysHit::new(hit, world.salt)),
        );
        Ok(())
    })
}

/// The closest collider `filter` accepts (NULL accepts all) that the ray
/// hits within `t ∈ [0, max_t]` (`World::cast_ray`): `*out_hit` says whether
/// there was one and, if so, `*out` holds it, with `t` in units of the ray's
/// direction (left alone on a miss). `PHYS_ERROR_INVALID_ARGUMENT` for a
/// negative or NaN `max_t`, `PHYS_ERROR_NON_FINITE` for a ray whose end at
/// `max_t` is beyond the float range.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_cast_ray(
    world: *const PhysWorld,
    ray: *const PhysRay,
    max_t: f32,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysHit,
) -> PhysStatus {
    guard(|| {
        let out_hit = Out::new(out_hit, "out_hit")?;
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let ray = read_in(ray, "ray")?;
        let ray = Ray::new(ray.origin.into(), ray.direction.into());
        out.write_some(
            out_hit,
            world
                .world
                .cast_ray(&ray, max_t, &read_filter(&world, filter)?)?
                .map(|hit| PhysHit::new(hit, world.salt)),
        );
        Ok(())
    })
}

/// Every live collider with its user data (`World::iter`), in slot order,
/// into a caller buffer with the `*_into` conventions of
/// `phys_overlap_box`: a level's save, an editor's list.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_colliders(
    world: *const PhysWorld,
    out: *mut PhysColliderRef,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let world = world_ref(world)?;
        let all: Vec<(ColliderKey, u64)> = world.world.iter().map(|(key, c)| (key, c.user_data())).collect();
        let salt = world.salt;
        let convert = |(key, user_data)| PhysColliderRef::new(key, user_data, salt);
        fill(&all, convert, out, capacity, written, total)
    })
}

/// Calls `callback` for each pair in `pairs`, which are not borrowed from
/// the world: the callback may run read-only calls on it.
fn deliver(
    pairs: &[PhysPair],
    callback: unsafe extern "C" fn(*mut c_void, PhysCollider, u64, PhysCollider, u64),
    ctx: *mut c_void,
) {
    for p in pairs {
        // SAFETY: a non-NULL function pointer supplied by the caller, called
        // with the caller's own context pointer, as the header documents.
        unsafe { callback(ctx, p.a, p.user_a, p.b, p.user_b) };
    }
}

/// Copies `items`, converted, into a caller buffer of `capacity` records,
/// or reports how many are needed: the convention of every `*_into`
/// function. `*written` and `*total` get the count on success; with
/// `PHYS_ERROR_BUFFER_TOO_SMALL` only `*total` is written. `out` may be NULL
/// when `capacity` is 0, and only then, whatever the count; a `capacity` no
/// array can hold is `PHYS_ERROR_INVALID_ARGUMENT`.
pub(crate) fn fill<S: Copy, T>(
    items: &[S],
    convert: impl Fn(S) -> T,
    out: *mut T,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> Result<(), Failure> {
    let written = Out::new(written, "written")?;
    let total = Out::new(total, "total")?;
    if capacity != 0 {
        check_pointer(out.cast_const(), "out")?;
        check_count::<T>(capacity, "capacity larger than any array")?;
    }
    if items.len() > capacity {
        total.write(items.len());
        return Err(Failure::BufferTooSmall { needed: items.len() });
    }
    for (i, item) in items.iter().enumerate() {
        // SAFETY: `capacity >= items.len() > 0`, so `out` is non-NULL and
        // aligned (checked above), and the caller guarantees `capacity`
        // writable records.
        unsafe { out.add(i).write(convert(*item)) };
    }
    written.write(items.len());
    total.write(items.len());
    Ok(())
}

/// Finds the pairs with `find` (a mutation: the finder keeps its state),
/// then calls `callback` for each with the world held for reading only: the
/// callback may run read-only calls on it, and a mutating call gets
/// `PHYS_ERROR_WORLD_BUSY`. The pairs go through the world's scratch buffer,
/// taken back when no callback holds the world any more.
fn find_and_deliver(
    world: *mut PhysWorld,
    callback: PhysPairCallback,
    ctx: *mut c_void,
    find: impl FnOnce(&mut World) -> &[Pair],
) -> PhysStatus {
    guard(|| {
        let callback = callback.ok_or(Failure::NullPointer("callback"))?;
        let mut state = world_mut(world)?;
        let mut pairs = core::mem::take(&mut state.pair_scratch);
        pairs.clear();
        let salt = state.salt;
        pairs.extend(find(&mut state.world).iter().map(|&p| PhysPair::new(p, salt)));
        let reading = state.downgrade();
        deliver(&pairs, callback, ctx);
        let mut state = reading.try_upgrade();
        if state.is_exclusive() {
            state.pair_scratch = pairs;
        }
        Ok(())
    })
}

/// Every pair by the O(n²) loop, and the world's salt.
fn pairwise(world: *const PhysWorld) -> Result<(Vec<Pair>, u32), Failure> {
    let world = world_ref(world)?;
    let mut pairs = Vec::new();
    world.world.test_pairwise(|p| pairs.push(p));
    Ok((pairs, world.salt))
}

/// Calls `callback(ctx, a, user_a, b, user_b)` once per overlapping pair,
/// found by testing every pair (the book's O(n²) `TestPairwise`). Pairs come
/// in increasing key order. The world is held for reading while the callback
/// runs: it may run read-only calls on it, and a mutating call on it gets
/// `PHYS_ERROR_WORLD_BUSY`. It must not throw.
///
/// # Safety
/// The pointer contract at the top of collide.h; `callback` is a valid function.
#[no_mangle]
pub unsafe extern "C" fn phys_test_pairwise(
    world: *const PhysWorld,
    callback: PhysPairCallback,
    ctx: *mut c_void,
) -> PhysStatus {
    guard(|| {
        let callback = callback.ok_or(Failure::NullPointer("callback"))?;
        let reading = world_ref(world)?;
        let mut pairs = Vec::new();
        reading
            .world
            .test_pairwise(|p| pairs.push(PhysPair::new(p, reading.salt)));
        deliver(&pairs, callback, ctx);
        drop(reading);
        Ok(())
    })
}

/// The pairs of `phys_test_pairwise`, written to `out[0 .. capacity)`;
/// `*written` and `*total` get their count. When `capacity` is too small the
/// status is `PHYS_ERROR_BUFFER_TOO_SMALL` and only `*total` is written.
/// `out` may be NULL when `capacity` is 0.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_test_pairwise_into(
    world: *const PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let (pairs, salt) = pairwise(world)?;
        fill(&pairs, |p| PhysPair::new(p, salt), out, capacity, written, total)
    })
}

/// Calls `callback` once per overlapping pair: the same pairs, in the same
/// order, as `phys_test_pairwise`, found by sweep and prune. Needs exclusive
/// access (the finder keeps its sorted arrays between calls); the world is
/// held for reading only while the callback runs, with the rules of
/// `phys_test_pairwise`'s callback.
///
/// # Safety
/// The pointer contract at the top of collide.h; `callback` is a valid function.
#[no_mangle]
pub unsafe extern "C" fn phys_test_sweep_and_prune(
    world: *mut PhysWorld,
    callback: PhysPairCallback,
    ctx: *mut c_void,
) -> PhysStatus {
    find_and_deliver(world, callback, ctx, World::pairs_sweep_and_prune)
}

/// The pairs of `phys_test_sweep_and_prune` into a caller buffer, with the
/// conventions of `phys_test_pairwise_into`; allocates nothing in steady state.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_test_sweep_and_prune_into(
    world: *mut PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let mut state = world_mut(world)?;
        let salt = state.salt;
        let pairs = state.world.pairs_sweep_and_prune();
        fill(pairs, |p| PhysPair::new(p, salt), out, capacity, written, total)
    })
}

/// A segment read from C and checked like every cast's.
fn read_segment(segment: *const PhysSegment) -> Result<Segment, Failure> {
    Ok(read_in(segment, "segment")?.into())
}

/// The filter of a query: NULL accepts every collider.
pub(crate) fn read_filter(
    world: &WorldState,
    filter: *const PhysQueryFilter,
) -> Result<crate::collider::QueryFilter, Failure> {
    if filter.is_null() {
        return Ok(crate::collider::QueryFilter::ALL);
    }
    Ok(read_in(filter, "filter")?.to_query_filter(world.salt))
}

/// Like `phys_segment_cast`, but reports any hit, not necessarily the
/// closest: the walk stops at the first. For line-of-sight checks.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_segment_cast_any(
    world: *const PhysWorld,
    segment: *const PhysSegment,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysHit,
) -> PhysStatus {
    cast_one(world, segment, filter, out_hit, out, World::segment_cast_any)
}

/// Every collider the segment hits, sorted by `t` (ties by handle order),
/// into a caller buffer with the `*_into` conventions (see
/// `phys_test_pairwise_into`). For piercing shots.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_segment_cast_all(
    world: *const PhysWorld,
    segment: *const PhysSegment,
    filter: *const PhysQueryFilter,
    out: *mut PhysHit,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let world = world_ref(world)?;
        let segment = read_segment(segment)?;
        let mut hits = Vec::new();
        world
            .world
            .segment_cast_all(&segment, &read_filter(&world, filter)?, &mut hits)?;
        let salt = world.salt;
        fill(&hits, |h| PhysHit::new(h, salt), out, capacity, written, total)
    })
}

/// The closest hit of each of `count` segments: `out_hit[i]` says whether
/// `segments[i]` hit and, if so, `out[i]` holds the hit (`out[i]` is left
/// alone on a miss). Runs on the threads `phys_world_set_thread_count`
/// chose (one per core by default, all joined before the return). Allocates two arrays per call (never per
/// segment). `segments`, `out_hit` and `out` may be NULL when `count` is 0;
/// a `count` no array can hold is `PHYS_ERROR_INVALID_ARGUMENT` and one
/// whose arrays cannot be allocated `PHYS_ERROR_OUT_OF_MEMORY`, both before
/// any segment is read.
///
/// # Safety
/// The pointer contract at the top of collide.h; each array holds `count`
/// records.
#[no_mangle]
pub unsafe extern "C" fn phys_segment_cast_batch(
    world: *const PhysWorld,
    segments: *const PhysSegment,
    count: usize,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysHit,
) -> PhysStatus {
    guard(|| {
        let world = world_ref(world)?;
        let filter = read_filter(&world, filter)?;
        if count == 0 {
            return Ok(());
        }
        check_pointer(segments, "segments")?;
        check_pointer(out_hit.cast_const(), "out_hit")?;
        check_pointer(out.cast_const(), "out")?;
        // `PhysHit` is the largest record of the three arrays.
        check_count::<PhysHit>(count, "count larger than any array")?;
        let mut hits: Vec<Option<Hit>> = try_vec(count, "the batch's hits")?;
        let segments: Vec<Segment> = copy_in(segments, count, "segments", Segment::from)?;
        hits.resize(count, None);
        world.world.segment_cast_batch(&segments, &filter, &mut hits)?;
        for (i, hit) in hits.into_iter().enumerate() {
            // SAFETY: both arrays are non-NULL and aligned (checked), and the
            // caller guarantees `count` writable records in each.
            unsafe {
                out_hit.add(i).write(hit.is_some());
                if let Some(hit) = hit {
                    out.add(i).write(PhysHit::new(hit, world.salt));
                }
            }
        }
        Ok(())
    })
}

/// Every collider `filter` accepts whose shape overlaps `shape`, into a
/// caller buffer of `PhysColliderRef`s with the `*_into` conventions.
pub(crate) fn overlap(
    world: *const PhysWorld,
    shape: Result<Shape, Failure>,
    filter: *const PhysQueryFilter,
    out: *mut PhysColliderRef,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let shape = shape?;
        let world = world_ref(world)?;
        let mut found = Vec::new();
        world
            .world
            .intersections_with_shape(&shape, &read_filter(&world, filter)?, |key, collider| {
                found.push((key, collider.user_data()));
            })?;
        let salt = world.salt;
        let convert = |(key, user_data)| PhysColliderRef::new(key, user_data, salt);
        fill(&found, convert, out, capacity, written, total)
    })
}

/// Every collider `filter` accepts that overlaps the world-space box
/// (touching counts): a trigger volume. Into a caller buffer with the
/// `*_into` conventions.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_overlap_box(
    world: *const PhysWorld,
    aabb: *const PhysAabb,
    filter: *const PhysQueryFilter,
    out: *mut PhysColliderRef,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    let shape = read_in(aabb, "aabb").map(|b| Shape::Aabb(b.into()));
    overlap(world, shape, filter, out, capacity, written, total)
}

/// Every collider `filter` accepts that overlaps the world-space sphere:
/// everything in a blast radius. Into a caller buffer with the `*_into`
/// conventions.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_overlap_sphere(
    world: *const PhysWorld,
    sphere: *const PhysSphere,
    filter: *const PhysQueryFilter,
    out: *mut PhysColliderRef,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    let shape = read_in(sphere, "sphere").map(|s| Shape::Sphere(s.into()));
    overlap(world, shape, filter, out, capacity, written, total)
}

/// Every collider `filter` accepts that overlaps the world-space capsule.
/// Into a caller buffer with the `*_into` conventions.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_overlap_capsule(
    world: *const PhysWorld,
    capsule: *const PhysCapsule,
    filter: *const PhysQueryFilter,
    out: *mut PhysColliderRef,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    let shape = read_in(capsule, "capsule").map(|c| Shape::Capsule(c.into()));
    overlap(world, shape, filter, out, capacity, written, total)
}

/// Calls `callback` once per overlapping pair: the pairs of
/// `phys_test_pairwise`, in the same order, found with the tree and
/// incrementally (only colliders changed since the last call are
/// re-queried): the fastest finder from frame to frame. Needs exclusive
/// access; the world is held for reading only while the callback runs, with
/// the rules of `phys_test_pairwise`'s callback.
///
/// # Safety
/// The pointer contract at the top of collide.h; `callback` is a valid function.
#[no_mangle]
pub unsafe extern "C" fn phys_find_pairs(
    world: *mut PhysWorld,
    callback: PhysPairCallback,
    ctx: *mut c_void,
) -> PhysStatus {
    find_and_deliver(world, callback, ctx, World::pairs)
}

/// The pairs of `phys_find_pairs` into a caller buffer, with the `*_into`
/// conventions; allocates nothing in steady state.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_find_pairs_into(
    world: *mut PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let mut state = world_mut(world)?;
        let salt = state.salt;
        fill(
            state.world.pairs(),
            |p| PhysPair::new(p, salt),
            out,
            capacity,
            written,
            total,
        )
    })
}

/// Finds the current pairs and computes which began and which ended since
/// the previous call (the first call reports every pair as begun; a removed
/// collider's pairs end). `*began` and `*ended` get the counts; read the
/// pairs with `phys_pair_events_began` / `phys_pair_events_ended`, which stay
/// valid until the next call of this function.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_update_pair_events(
    world: *mut PhysWorld,
    began: *mut usize,
    ended: *mut usize,
) -> PhysStatus {
    guard(|| {
        let began = Out::new(began, "began")?;
        let ended = Out::new(ended, "ended")?;
        let mut access = world_mut(world)?;
        let events = access.world.pair_events();
        began.write(events.began.len());
        ended.write(events.ended.len());
        Ok(())
    })
}

/// The pairs that began at the last `phys_update_pair_events`, sorted, into
/// a caller buffer with the `*_into` conventions.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_pair_events_began(
    world: *const PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let world = world_ref(world)?;
        let salt = world.salt;
        let began = world.world.last_pair_events().began;
        fill(began, |p| PhysPair::new(p, salt), out, capacity, written, total)
    })
}

/// The pairs that ended at the last `phys_update_pair_events`, sorted, into
/// a caller buffer with the `*_into` conventions.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_pair_events_ended(
    world: *const PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let world = world_ref(world)?;
        let salt = world.salt;
        let ended = world.world.last_pair_events().ended;
        fill(ended, |p| PhysPair::new(p, salt), out, capacity, written, total)
    })
}
