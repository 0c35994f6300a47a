//! Every `PhysStatus` the C ABI can return (but `PHYS_ERROR_PANIC`, covered
//! by the unit test in `src/ffi/error.rs`), provoked by calling the
//! `extern "C"` functions exactly as C does: raw pointers, NULL, misaligned
//! pointers, NaN and infinities, inverted boxes, negative radii, stale and
//! forged handles, unknown flags, short buffers and full worlds.
//!
//! After every failing call the test checks the header's promise: the world
//! is unchanged (count, pairs, and each collider's world box, user data and
//! transform) and no output was written (outputs are pre-filled with
//! sentinels), except `*total` for `PHYS_ERROR_BUFFER_TOO_SMALL`.

use std::collections::BTreeMap;
use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut, NonNull};

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;

// ---------------------------------------------------------------------------
// Values and sentinels.

const IDENTITY: PhysQuat = PhysQuat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 1.0,
};

/// Every way a float can be non-finite.
const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

const SENTINEL_HANDLE: PhysCollider = PhysCollider {
    bits: 0xDEAD_BEEF_DEAD_BEEF,
};
const SENTINEL_U64: u64 = 0xA5A5_A5A5_A5A5_A5A5;
const SENTINEL_USIZE: usize = 0x5A5A_5A5A;
/// Written into the byte behind a `bool*` output: neither `false` nor `true`,
/// so any write shows.
const SENTINEL_BOOL_BYTE: u8 = 0xAA;

fn v(x: f32, y: f32, z: f32) -> PhysVec3 {
    PhysVec3 { x, y, z }
}

fn aabb(min: PhysVec3, max: PhysVec3) -> PhysAabb {
    PhysAabb { min, max }
}

fn cube(half: f32) -> PhysAabb {
    aabb(v(-half, -half, -half), v(half, half, half))
}

fn segment(start: PhysVec3, end: PhysVec3) -> PhysSegment {
    PhysSegment { start, end }
}

fn sphere(radius: f32) -> PhysSphere {
    PhysSphere {
        center: v(0.0, 0.0, 0.0),
        radius,
    }
}

fn capsule(radius: f32) -> PhysCapsule {
    PhysCapsule {
        segment: segment(v(0.0, 0.0, -1.0), v(0.0, 0.0, 1.0)),
        radius,
    }
}

fn translation(x: f32, y: f32, z: f32) -> PhysTransform {
    PhysTransform {
        translation: v(x, y, z),
        rotation: IDENTITY,
        scale: v(1.0, 1.0, 1.0),
    }
}

/// The default description, moved to `(x, y, z)` and tagged `user`.
fn desc(user: u64, x: f32, y: f32, z: f32) -> PhysColliderDesc {
    PhysColliderDesc {
        transform: translation(x, y, z),
        user_data: user,
        ..phys_collider_desc_default()
    }
}

fn sentinel_aabb() -> PhysAabb {
    aabb(v(777.0, 777.0, 777.0), v(-777.0, -777.0, -777.0))
}

fn sentinel_transform() -> PhysTransform {
    PhysTransform {
        translation: v(777.0, 777.0, 777.0),
        rotation: PhysQuat {
            x: 7.0,
            y: 7.0,
            z: 7.0,
            w: 7.0,
        },
        scale: v(-7.0, -7.0, -7.0),
    }
}

fn obb(half: f32) -> PhysObb {
    PhysObb {
        center: v(0.0, 0.0, 0.0),
        rotation: IDENTITY,
        half_extents: v(half, half, half),
    }
}

fn sentinel_shape_hit() -> PhysShapeHit {
    PhysShapeHit {
        collider: SENTINEL_HANDLE,
        user_data: SENTINEL_U64,
        t: 777.0,
        point: v(777.0, 777.0, 777.0),
        normal: v(777.0, 777.0, 777.0),
    }
}

fn sentinel_hit() -> PhysHit {
    PhysHit {
        collider: SENTINEL_HANDLE,
        user_data: SENTINEL_U64,
        t: 777.0,
        point: v(777.0, 777.0, 777.0),
        normal: v(777.0, 777.0, 777.0),
    }
}

fn sentinel_pair() -> PhysPair {
    PhysPair {
        a: SENTINEL_HANDLE,
        user_a: SENTINEL_U64,
        b: SENTINEL_HANDLE,
        user_b: SENTINEL_U64,
    }
}

/// A `bool*` over a sentinel byte.
fn bool_out(byte: &mut u8) -> *mut bool {
    (byte as *mut u8).cast()
}

/// `v` with component `k` (x, y, z) replaced by `value`.
fn with_component(mut p: PhysVec3, k: usize, value: f32) -> PhysVec3 {
    *[&mut p.x, &mut p.y, &mut p.z][k] = value;
    p
}

/// Every copy of `p` with one component made non-finite, and a name for it.
fn non_finite_vecs(p: PhysVec3) -> Vec<(String, PhysVec3)> {
    (0..3)
        .flat_map(|k| NON_FINITE.map(|x| (format!("{}={x}", ["x", "y", "z"][k]), with_component(p, k, x))))
        .collect()
}

/// Every copy of `q` with one component made non-finite.
fn non_finite_quats(q: PhysQuat) -> Vec<(String, PhysQuat)> {
    (0..4)
        .flat_map(|k| {
            NON_FINITE.map(|x| {
                let mut q = q;
                *[&mut q.x, &mut q.y, &mut q.z, &mut q.w][k] = x;
                (format!("{}={x}", ["x", "y", "z", "w"][k]), q)
            })
        })
        .collect()
}

/// Every copy of `t` with one number of one field made non-finite.
fn non_finite_transforms(t: PhysTransform) -> Vec<(String, PhysTransform)> {
    let mut out = Vec::new();
    for (what, translation) in non_finite_vecs(t.translation) {
        out.push((format!("translation.{what}"), PhysTransform { translation, ..t }));
    }
    for (what, rotation) in non_finite_quats(t.rotation) {
        out.push((format!("rotation.{what}"), PhysTransform { rotation, ..t }));
    }
    for (what, scale) in non_finite_vecs(t.scale) {
        out.push((format!("scale.{what}"), PhysTransform { scale, ..t }));
    }
    out
}

/// The calling thread's last-error message.
fn last_error() -> String {
    // SAFETY: a valid NUL-terminated string, alive until the next failure.
    unsafe { CStr::from_ptr(phys_last_error_message()) }
        .to_str()
        .expect("UTF-8")
        .to_owned()
}

fn new_world(limit: Option<usize>) -> *mut PhysWorld {
    let mut world = null_mut();
    // SAFETY: `world` is a valid out-pointer.
    let status = unsafe {
        match limit {
            Some(limit) => phys_world_create_with_limit(limit, &mut world),
            None => phys_world_create(&mut world),
        }
    };
    assert_eq!(status, PHYS_OK);
    assert!(!world.is_null());
    world
}

fn add_box(world: *mut PhysWorld, object_box: PhysAabb, desc: &PhysColliderDesc) -> PhysCollider {
    let mut out = SENTINEL_HANDLE;
    // SAFETY: valid pointers throughout.
    let status = unsafe { phys_add_box(world, &object_box, desc, &mut out) };
    assert_eq!(status, PHYS_OK, "{}", last_error());
    out
}

fn count(world: *const PhysWorld) -> usize {
    let mut n = SENTINEL_USIZE;
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_world_count(world, &mut n) }, PHYS_OK);
    n
}

fn alive(world: *const PhysWorld, handle: PhysCollider) -> bool {
    // SAFETY: a live world.
    unsafe { phys_collider_is_alive(world, handle) }
}

/// The finder type of `phys_test_*_into`, with a `*mut` world.
type BufferFinder = unsafe extern "C" fn(*mut PhysWorld, *mut PhysPair, usize, *mut usize, *mut usize) -> PhysStatus;

/// The pairs of `finder`, through a buffer large enough for this test's worlds.
fn pairs_into(finder: BufferFinder, world: *mut PhysWorld) -> Vec<PhysPair> {
    let mut buffer = vec![sentinel_pair(); 64];
    let (mut written, mut total) = (0, 0);
    // SAFETY: a buffer of `buffer.len()` records and valid counters.
    let status = unsafe { finder(world, buffer.as_mut_ptr(), buffer.len(), &mut written, &mut total) };
    assert_eq!(status, PHYS_OK, "{}", last_error());
    assert_eq!(written, total);
    buffer.truncate(written);
    buffer
}

/// `phys_test_pairwise_into` with a `*mut` world, to share `pairs_into`.
/// `phys_pair_events_began`, with a `*mut` world.
unsafe extern "C" fn began_into_mut(
    world: *mut PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    // SAFETY: the caller's pointers, passed on.
    unsafe { phys_pair_events_began(world, out, capacity, written, total) }
}

/// `phys_pair_events_ended`, with a `*mut` world.
unsafe extern "C" fn ended_into_mut(
    world: *mut PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    // SAFETY: the caller's pointers, passed on.
    unsafe { phys_pair_events_ended(world, out, capacity, written, total) }
}

unsafe extern "C" fn pairwise_into_mut(
    world: *mut PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    // SAFETY: the caller's pointers, passed on.
    unsafe { phys_test_pairwise_into(world, out, capacity, written, total) }
}

// ---------------------------------------------------------------------------
// The world every failing call must leave alone.

/// What a failing call must not change.
#[derive(Debug, PartialEq)]
struct Snapshot {
    count: usize,
    /// Per watched handle: `None` when dead, else its world box, user data
    /// and transform.
    colliders: Vec<Option<(PhysAabb, u64, PhysTransform)>>,
    pairwise: Vec<PhysPair>,
    sweep_and_prune: Vec<PhysPair>,
}

fn snapshot(world: *mut PhysWorld, handles: &[PhysCollider]) -> Snapshot {
    let colliders = handles
        .iter()
        .map(|&h| {
            alive(world, h).then(|| {
                let (mut aabb, mut user, mut transform) = (sentinel_aabb(), SENTINEL_U64, sentinel_transform());
                // SAFETY: valid pointers; `h` is alive.
                unsafe {
                    assert_eq!(phys_get_world_aabb(world, h, &mut aabb), PHYS_OK);
                    assert_eq!(phys_get_user_data(world, h, &mut user), PHYS_OK);
                    assert_eq!(phys_get_transform(world, h, &mut transform), PHYS_OK);
                }
                (aabb, user, transform)
            })
        })
        .collect();
    Snapshot {
        count: count(world),
        colliders,
        pairwise: pairs_into(pairwise_into_mut, world),
        sweep_and_prune: pairs_into(phys_test_sweep_and_prune_into, world),
    }
}

/// Runs `call`, expects `status`, and checks the world did not change.
/// Returns the last-error message.
fn refuses(
    world: *mut PhysWorld,
    watched: &[PhysCollider],
    status: PhysStatus,
    what: &str,
    call: impl FnOnce() -> PhysStatus,
) -> String {
    let before = snapshot(world, watched);
    let got = call();
    let message = last_error();
    assert_eq!(got, status, "{what}: last error `{message}`");
    assert_eq!(snapshot(world, watched), before, "{what}: the world changed");
    assert!(!message.is_empty(), "{what}: a failure leaves a message");
    message
}

/// A world of a few colliders: `probe` (a box at the origin) overlaps
/// `ball` and `pill`; `spare` is far away; `removed` was removed.
struct Fixture {
    world: *mut PhysWorld,
    probe: PhysCollider,
    ball: PhysCollider,
    pill: PhysCollider,
    spare: PhysCollider,
    removed: PhysCollider,
}

/// User data of the fixture's colliders.
const PROBE_USER: u64 = 1;

impl Fixture {
    fn new() -> Self {
        let world = new_world(None);
        let probe = add_box(world, cube(1.0), &desc(PROBE_USER, 0.0, 0.0, 0.0));
        let mut ball = SENTINEL_HANDLE;
        let mut pill = SENTINEL_HANDLE;
        // SAFETY: valid pointers throughout.
        unsafe {
            assert_eq!(
                phys_add_sphere(world, &sphere(1.0), &desc(2, 1.5, 0.0, 0.0), &mut ball),
                PHYS_OK
            );
            assert_eq!(
                phys_add_capsule(world, &capsule(0.75), &desc(3, 0.0, 1.5, 0.0), &mut pill),
                PHYS_OK
            );
        }
        let spare = add_box(world, cube(1.0), &desc(4, 50.0, 0.0, 0.0));
        let removed = add_box(world, cube(1.0), &desc(5, 100.0, 0.0, 0.0));
        // SAFETY: a live world and handle.
        assert_eq!(unsafe { phys_remove(world, removed) }, PHYS_OK);
        let fixture = Self {
            world,
            probe,
            ball,
            pill,
            spare,
            removed,
        };
        assert_eq!(count(world), 4);
        assert_eq!(fixture.snapshot().pairwise.len(), 2, "probe-ball and probe-pill");
        fixture
    }

    fn watched(&self) -> [PhysCollider; 5] {
        [self.probe, self.ball, self.pill, self.spare, self.removed]
    }

    fn snapshot(&self) -> Snapshot {
        snapshot(self.world, &self.watched())
    }

    fn refuses(&self, status: PhysStatus, what: &str, call: impl FnOnce() -> PhysStatus) -> String {
        refuses(self.world, &self.watched(), status, what, call)
    }

    /// `refuses` for an `add`: also checks the handle was not written.
    fn refuses_add(&self, status: PhysStatus, what: &str, add: impl FnOnce(*mut PhysCollider) -> PhysStatus) -> String {
        let mut out = SENTINEL_HANDLE;
        let message = self.refuses(status, what, || add(&mut out));
        assert_eq!(out, SENTINEL_HANDLE, "{what}: *out was written");
        message
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        // SAFETY: made by phys_world_create, not used again.
        unsafe { phys_world_destroy(self.world) };
    }
}

// ---------------------------------------------------------------------------
// Status strings, version, destroy.

/// Every status, in code order.
const ALL: [PhysStatus; 12] = [
    PHYS_OK,
    PHYS_ERROR_NULL_POINTER,
    PHYS_ERROR_NON_FINITE,
    PHYS_ERROR_INVERTED_BOX,
    PHYS_ERROR_NEGATIVE_RADIUS,
    PHYS_ERROR_STALE_HANDLE,
    PHYS_ERROR_INVALID_ARGUMENT,
    PHYS_ERROR_BUFFER_TOO_SMALL,
    PHYS_ERROR_CAPACITY_EXCEEDED,
    PHYS_ERROR_PANIC,
    PHYS_ERROR_OUT_OF_MEMORY,
    PHYS_ERROR_WORLD_BUSY,
];

fn status_string(code: u32) -> &'static str {
    // SAFETY: phys_status_string returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(phys_status_string(code)) }.to_str().unwrap()
}

#[test]
fn status_strings_describe_every_code_and_unknown_ones() {
    let expected = [
        "success",
        "a required pointer was NULL",
        "an input number was NaN or infinite",
        "a box had min > max",
        "a radius was negative",
        "the collider handle is null, removed or foreign",
        "an argument was malformed",
        "the output buffer is too small",
        "the world is full",
        "internal error: collide panicked",
        "out of memory",
        "another call is running on the world",
    ];
    for (code, (status, text)) in ALL.iter().zip(expected).enumerate() {
        assert_eq!(*status as u32, code as u32, "{status:?} has code {code}");
        assert_eq!(status_string(code as u32), text, "{status:?}");
        assert_eq!(status.description().to_str().unwrap(), text);
    }
    for unknown in [12, 13, 0x8000_0000, u32::MAX] {
        assert_eq!(status_string(unknown), "unknown status code");
    }
    // The same static string every time, not a fresh allocation.
    assert_eq!(phys_status_string(3), phys_status_string(3));
}

#[test]
fn version_matches_the_package() {
    // SAFETY: a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(phys_version()) };
    assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    let part = |s: &str| s.parse::<u32>().unwrap();
    let number = (part(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
        | (part(env!("CARGO_PKG_VERSION_MINOR")) << 8)
        | part(env!("CARGO_PKG_VERSION_PATCH"));
    assert_eq!(phys_version_number(), number);
    let dotted: Vec<u32> = env!("CARGO_PKG_VERSION").split('.').map(part).collect();
    assert_eq!(dotted, [number >> 16, (number >> 8) & 0xFF, number & 0xFF]);
}

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
// NULL and misaligned pointers.

#[derive(Debug, Clone, Copy, PartialEq)]
enum Bad {
    Null,
    Misaligned,
}

/// Which argument of a call to spoil, and how.
type Target<'a> = Option<(&'a str, Bad)>;

/// `ptr`, or a NULL or misaligned copy when `name` is the target.
fn arg<T>(ptr: *mut T, name: &str, target: Target) -> *mut T {
    match target {
        Some((n, Bad::Null)) if n == name => null_mut(),
        // Never dereferenced: collide checks alignment first.
        Some((n, Bad::Misaligned)) if n == name => ptr.cast::<u8>().wrapping_add(1).cast(),
        _ => ptr,
    }
}

fn arg_in<T>(ptr: &T, name: &str, target: Target) -> *const T {
    arg((ptr as *const T).cast_mut(), name, target).cast_const()
}

/// One `phys_*` function, callable with any one pointer argument spoiled;
/// returns the status and whether every output still holds its sentinel.
struct PointerCall {
    function: &'static str,
    args: &'static [&'static str],
    call: SpoiledCall,
}

/// A call with one pointer argument spoiled (or none): its status, and
/// whether its outputs still hold their sentinels.
type SpoiledCall = Box<dyn Fn(Target) -> (PhysStatus, bool)>;

fn pc(
    function: &'static str,
    args: &'static [&'static str],
    call: impl Fn(Target) -> (PhysStatus, bool) + 'static,
) -> PointerCall {
    PointerCall {
        function,
        args,
        call: Box::new(call),
    }
}

/// Counts callback invocations.
unsafe extern "C" fn count_pairs(ctx: *mut c_void, _: PhysCollider, _: u64, _: PhysCollider, _: u64) {
    // SAFETY: the tests pass a `*mut usize` as the context.
    unsafe { *ctx.cast::<usize>() += 1 };
}

/// A callback that ignores its context (which may be NULL).
unsafe extern "C" fn ignore_pair(_: *mut c_void, _: PhysCollider, _: u64, _: PhysCollider, _: u64) {}

/// A query that fills a caller buffer (`phys_segment_cast_all`,
/// `phys_overlap_*`), called with one pointer spoiled: `fill(world, out,
/// capacity, written, total)`. The outputs are untouched when the buffer and
/// both counters hold their sentinels.
fn buffer_call<T: Copy + PartialEq + 'static>(
    world: *mut PhysWorld,
    sentinel: T,
    fill: impl Fn(*mut PhysWorld, *mut T, usize, *mut usize, *mut usize) -> PhysStatus + 'static,
) -> impl Fn(Target) -> (PhysStatus, bool) {
    move |t| {
        let mut buffer = [sentinel; 8];
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        let status = fill(
            arg(world, "world", t),
            arg(buffer.as_mut_ptr(), "out", t),
            buffer.len(),
            arg(&mut written, "written", t),
            arg(&mut total, "total", t),
        );
        let untouched = buffer.iter().all(|p| *p == sentinel) && written == SENTINEL_USIZE && total == SENTINEL_USIZE;
        (status, untouched)
    }
}

/// A filter that accepts every collider.
fn all_filter() -> PhysQueryFilter {
    PhysQueryFilter {
        category_bits: u64::MAX,
        mask_bits: u64::MAX,
        exclude: PhysCollider { bits: 0 },
    }
}

/// A `phys_test_*_into` call over `world` with one pointer spoiled; the
/// outputs are untouched when the buffer and both counters hold their sentinels.
fn pair_buffer_call(world: *mut PhysWorld, finder: BufferFinder) -> impl Fn(Target) -> (PhysStatus, bool) {
    move |t| {
        let mut buffer = [sentinel_pair(); 8];
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        // SAFETY: valid pointers except the spoiled one, which collide checks.
        let status = unsafe {
            finder(
                arg(world, "world", t),
                arg(buffer.as_mut_ptr(), "out", t),
                buffer.len(),
                arg(&mut written, "written", t),
                arg(&mut total, "total", t),
            )
        };
        let untouched =
            buffer.iter().all(|p| *p == sentinel_pair()) && written == SENTINEL_USIZE && total == SENTINEL_USIZE;
        (status, untouched)
    }
}

/// Every `phys_*` function that takes a pointer, over the fixture's world.
/// With nothing spoiled every call succeeds and changes nothing that
/// `Fixture::snapshot` sees, except `phys_add_*` (a new collider far away)
/// and `phys_remove` (of `spare`).
fn pointer_calls(f: &Fixture) -> Vec<PointerCall> {
    let world = f.world;
    let (probe, ball, pill, spare) = (f.probe, f.ball, f.pill, f.spare);
    // SAFETY (for every `unsafe` below): valid pointers except the spoiled
    // one, which collide checks before any use.
    vec![
        pc("phys_world_create", &["out"], |t| {
            let sentinel = NonNull::<PhysWorld>::dangling().as_ptr();
            let mut out = sentinel;
            let status = unsafe { phys_world_create(arg(&mut out, "out", t)) };
            if status == PHYS_OK {
                unsafe { phys_world_destroy(out) };
            }
            (status, out == sentinel)
        }),
        pc("phys_world_create_with_limit", &["out"], |t| {
            let sentinel = NonNull::<PhysWorld>::dangling().as_ptr();
            let mut out = sentinel;
            let status = unsafe { phys_world_create_with_limit(3, arg(&mut out, "out", t)) };
            if status == PHYS_OK {
                unsafe { phys_world_destroy(out) };
            }
            (status, out == sentinel)
        }),
        pc("phys_world_count", &["world", "out"], move |t| {
            let mut out = SENTINEL_USIZE;
            let status = unsafe { phys_world_count(arg(world, "world", t), arg(&mut out, "out", t)) };
            (status, out == SENTINEL_USIZE)
        }),
        pc("phys_add_box", &["world", "object_box", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let status = unsafe {
                phys_add_box(
                    arg(world, "world", t),
                    arg_in(&cube(1.0), "object_box", t),
                    arg_in(&desc(9, 200.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_sphere", &["world", "sphere", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let status = unsafe {
                phys_add_sphere(
                    arg(world, "world", t),
                    arg_in(&sphere(1.0), "sphere", t),
                    arg_in(&desc(9, 200.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_capsule", &["world", "capsule", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let status = unsafe {
                phys_add_capsule(
                    arg(world, "world", t),
                    arg_in(&capsule(1.0), "capsule", t),
                    arg_in(&desc(9, 200.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_remove", &["world"], move |t| {
            (unsafe { phys_remove(arg(world, "world", t), spare) }, true)
        }),
        pc("phys_set_transform", &["world", "transform"], move |t| {
            let same = translation(0.0, 0.0, 0.0);
            let status = unsafe { phys_set_transform(arg(world, "world", t), probe, arg_in(&same, "transform", t)) };
            (status, true)
        }),
        pc("phys_set_transforms", &["world", "colliders", "transforms"], move |t| {
            let same = [translation(0.0, 0.0, 0.0)];
            let status = unsafe {
                phys_set_transforms(
                    arg(world, "world", t),
                    arg_in(&probe, "colliders", t),
                    arg_in(&same[0], "transforms", t),
                    1,
                )
            };
            (status, true)
        }),
        pc("phys_set_box", &["world", "object_box"], move |t| {
            let status = unsafe { phys_set_box(arg(world, "world", t), probe, arg_in(&cube(1.0), "object_box", t)) };
            (status, true)
        }),
        pc("phys_set_sphere", &["world", "sphere"], move |t| {
            let status = unsafe { phys_set_sphere(arg(world, "world", t), ball, arg_in(&sphere(1.0), "sphere", t)) };
            (status, true)
        }),
        pc("phys_set_capsule", &["world", "capsule"], move |t| {
            let status =
                unsafe { phys_set_capsule(arg(world, "world", t), pill, arg_in(&capsule(0.75), "capsule", t)) };
            (status, true)
        }),
        pc("phys_set_should_rotate", &["world"], move |t| {
            (
                unsafe { phys_set_should_rotate(arg(world, "world", t), probe, true) },
                true,
            )
        }),
        pc("phys_set_user_data", &["world"], move |t| {
            (
                unsafe { phys_set_user_data(arg(world, "world", t), probe, PROBE_USER) },
                true,
            )
        }),
        pc("phys_set_filter", &["world"], move |t| {
            (
                unsafe { phys_set_filter(arg(world, "world", t), probe, 1, u64::MAX) },
                true,
            )
        }),
        pc("phys_get_user_data", &["world", "out"], move |t| {
            let mut out = SENTINEL_U64;
            let status = unsafe { phys_get_user_data(arg(world, "world", t), probe, arg(&mut out, "out", t)) };
            (status, out == SENTINEL_U64)
        }),
        pc("phys_get_world_aabb", &["world", "out"], move |t| {
            let mut out = sentinel_aabb();
            let status = unsafe { phys_get_world_aabb(arg(world, "world", t), probe, arg(&mut out, "out", t)) };
            (status, out == sentinel_aabb())
        }),
        pc("phys_get_transform", &["world", "out"], move |t| {
            let mut out = sentinel_transform();
            let status = unsafe { phys_get_transform(arg(world, "world", t), probe, arg(&mut out, "out", t)) };
            (status, out == sentinel_transform())
        }),
        pc(
            "phys_segment_cast",
            &["world", "segment", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_hit());
                let through_probe = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
                let all = PhysQueryFilter {
                    category_bits: u64::MAX,
                    mask_bits: u64::MAX,
                    exclude: PhysCollider { bits: 0 },
                };
                let status = unsafe {
                    phys_segment_cast(
                        arg(world, "world", t),
                        arg_in(&through_probe, "segment", t),
                        arg_in(&all, "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_hit())
            },
        ),
        pc("phys_test_pairwise", &["world", "callback"], move |t| {
            let mut calls = 0usize;
            let callback: PhysPairCallback = if t == Some(("callback", Bad::Null)) {
                None
            } else {
                Some(count_pairs)
            };
            let ctx = (&mut calls as *mut usize).cast();
            let status = unsafe { phys_test_pairwise(arg(world, "world", t), callback, ctx) };
            (status, calls == 0)
        }),
        pc("phys_test_sweep_and_prune", &["world", "callback"], move |t| {
            let mut calls = 0usize;
            let callback: PhysPairCallback = if t == Some(("callback", Bad::Null)) {
                None
            } else {
                Some(count_pairs)
            };
            let ctx = (&mut calls as *mut usize).cast();
            let status = unsafe { phys_test_sweep_and_prune(arg(world, "world", t), callback, ctx) };
            (status, calls == 0)
        }),
        pc(
            "phys_test_pairwise_into",
            &["world", "out", "written", "total"],
            pair_buffer_call(world, pairwise_into_mut),
        ),
        pc(
            "phys_test_sweep_and_prune_into",
            &["world", "out", "written", "total"],
            pair_buffer_call(world, phys_test_sweep_and_prune_into),
        ),
        pc("phys_add_boxes", &["world", "boxes", "descs", "out"], move |t| {
            let mut out = [SENTINEL_HANDLE; 2];
            let boxes = [cube(1.0), cube(0.5)];
            let descs = [desc(9, 200.0, 0.0, 0.0), desc(9, 300.0, 0.0, 0.0)];
            let status = unsafe {
                phys_add_boxes(
                    arg(world, "world", t),
                    arg_in(&boxes[0], "boxes", t),
                    arg_in(&descs[0], "descs", t),
                    2,
                    arg(&mut out[0], "out", t),
                )
            };
            (status, out == [SENTINEL_HANDLE; 2])
        }),
        pc("phys_world_optimize", &["world"], move |t| {
            (unsafe { phys_world_optimize(arg(world, "world", t)) }, true)
        }),
        pc("phys_world_set_thread_count", &["world"], move |t| {
            (unsafe { phys_world_set_thread_count(arg(world, "world", t), 2) }, true)
        }),
        pc("phys_world_memory_bytes", &["world", "out"], move |t| {
            let mut out = SENTINEL_USIZE;
            let status = unsafe { phys_world_memory_bytes(arg(world, "world", t), arg(&mut out, "out", t)) };
            (status, out == SENTINEL_USIZE)
        }),
        pc(
            "phys_segment_cast_any",
            &["world", "segment", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_hit());
                let through_probe = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
                let status = unsafe {
                    phys_segment_cast_any(
                        arg(world, "world", t),
                        arg_in(&through_probe, "segment", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_hit())
            },
        ),
        pc(
            "phys_segment_cast_all",
            &["world", "segment", "filter", "out", "written", "total"],
            move |t| {
                let through_probe = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
                let filter = all_filter();
                let (segment_arg, filter_arg) = (arg_in(&through_probe, "segment", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_hit(), move |w, out, capacity, written, total| unsafe {
                    phys_segment_cast_all(w, segment_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_segment_cast_batch",
            &["world", "segments", "filter", "out_hit", "out"],
            move |t| {
                let segments = [segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0)); 2];
                let mut hit_bytes = [SENTINEL_BOOL_BYTE; 2];
                let mut out = [sentinel_hit(); 2];
                let status = unsafe {
                    phys_segment_cast_batch(
                        arg(world, "world", t),
                        arg_in(&segments[0], "segments", t),
                        2,
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_bytes[0]), "out_hit", t),
                        arg(&mut out[0], "out", t),
                    )
                };
                let untouched = hit_bytes == [SENTINEL_BOOL_BYTE; 2] && out == [sentinel_hit(); 2];
                (status, untouched)
            },
        ),
        pc(
            "phys_overlap_box",
            &["world", "aabb", "filter", "out", "written", "total"],
            move |t| {
                // Locals, not temporaries: the pointers are used after this statement.
                let (aabb, filter) = (cube(2.0), all_filter());
                let (aabb_arg, filter_arg) = (arg_in(&aabb, "aabb", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_box(w, aabb_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_overlap_sphere",
            &["world", "sphere", "filter", "out", "written", "total"],
            move |t| {
                let (ball, filter) = (sphere(2.0), all_filter());
                let (sphere_arg, filter_arg) = (arg_in(&ball, "sphere", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_sphere(w, sphere_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_overlap_capsule",
            &["world", "capsule", "filter", "out", "written", "total"],
            move |t| {
                let (pill, filter) = (capsule(1.0), all_filter());
                let (capsule_arg, filter_arg) = (arg_in(&pill, "capsule", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_capsule(w, capsule_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc("phys_add_obb", &["world", "obb", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let status = unsafe {
                phys_add_obb(
                    arg(world, "world", t),
                    arg_in(&obb(1.0), "obb", t),
                    arg_in(&desc(9, 1000.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_triangle", &["world", "triangle", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let tri = PhysTriangle {
                a: v(0.0, 0.0, 0.0),
                b: v(1.0, 0.0, 0.0),
                c: v(0.0, 1.0, 0.0),
            };
            let status = unsafe {
                phys_add_triangle(
                    arg(world, "world", t),
                    arg_in(&tri, "triangle", t),
                    arg_in(&desc(9, 1010.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_cylinder", &["world", "cylinder", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let cylinder = PhysCylinder {
                segment: segment(v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)),
                radius: 0.5,
            };
            let status = unsafe {
                phys_add_cylinder(
                    arg(world, "world", t),
                    arg_in(&cylinder, "cylinder", t),
                    arg_in(&desc(9, 1020.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_cone", &["world", "cone", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let cone = PhysCone {
                base_center: v(0.0, 0.0, 0.0),
                apex: v(0.0, 1.0, 0.0),
                radius: 0.5,
            };
            let status = unsafe {
                phys_add_cone(
                    arg(world, "world", t),
                    arg_in(&cone, "cone", t),
                    arg_in(&desc(9, 1030.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_hull", &["world", "points", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let points = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0)];
            let status = unsafe {
                phys_add_hull(
                    arg(world, "world", t),
                    arg_in(&points[0], "points", t),
                    points.len(),
                    arg_in(&desc(9, 1040.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc(
            "phys_add_mesh",
            &["world", "vertices", "indices", "desc", "out"],
            move |t| {
                let mut out = SENTINEL_HANDLE;
                let vertices = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 0.0, 1.0)];
                let indices: [u32; 3] = [0, 1, 2];
                let status = unsafe {
                    phys_add_mesh(
                        arg(world, "world", t),
                        arg_in(&vertices[0], "vertices", t),
                        vertices.len(),
                        arg_in(&indices[0], "indices", t),
                        indices.len(),
                        arg_in(&desc(9, 1050.0, 0.0, 0.0), "desc", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, out == SENTINEL_HANDLE)
            },
        ),
        pc(
            "phys_overlap_obb",
            &["world", "obb", "filter", "out", "written", "total"],
            move |t| {
                let (oriented, filter) = (obb(2.0), all_filter());
                let (obb_arg, filter_arg) = (arg_in(&oriented, "obb", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_obb(w, obb_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_shape_cast_sphere",
            &["world", "sphere", "motion", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
                let ball = PhysSphere {
                    center: v(-5.0, 0.0, 0.0),
                    radius: 0.5,
                };
                let status = unsafe {
                    phys_shape_cast_sphere(
                        arg(world, "world", t),
                        arg_in(&ball, "sphere", t),
                        arg_in(&v(10.0, 0.0, 0.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_shape_hit())
            },
        ),
        pc(
            "phys_shape_cast_capsule",
            &["world", "capsule", "motion", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
                let pill = PhysCapsule {
                    segment: segment(v(-5.0, 0.0, -0.5), v(-5.0, 0.0, 0.5)),
                    radius: 0.5,
                };
                let status = unsafe {
                    phys_shape_cast_capsule(
                        arg(world, "world", t),
                        arg_in(&pill, "capsule", t),
                        arg_in(&v(10.0, 0.0, 0.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_shape_hit())
            },
        ),
        pc(
            "phys_shape_cast_box",
            &["world", "aabb", "motion", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
                let crate_ = aabb(v(-5.5, -0.5, -0.5), v(-4.5, 0.5, 0.5));
                let status = unsafe {
                    phys_shape_cast_box(
                        arg(world, "world", t),
                        arg_in(&crate_, "aabb", t),
                        arg_in(&v(10.0, 0.0, 0.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_shape_hit())
            },
        ),
        pc(
            "phys_closest_point",
            &["world", "point", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, PhysClosest::default());
                let status = unsafe {
                    phys_closest_point(
                        arg(world, "world", t),
                        arg_in(&v(-5.0, 0.0, 0.0), "point", t),
                        10.0,
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == PhysClosest::default())
            },
        ),
        pc("phys_distance", &["world", "out"], move |t| {
            let mut out = PhysDistance::default();
            let status = unsafe { phys_distance(arg(world, "world", t), probe, ball, arg(&mut out, "out", t)) };
            (status, out == PhysDistance::default())
        }),
        pc("phys_contact", &["world", "out_touching", "out"], move |t| {
            let (mut touching_byte, mut out) = (SENTINEL_BOOL_BYTE, PhysContact::default());
            let status = unsafe {
                phys_contact(
                    arg(world, "world", t),
                    probe,
                    ball,
                    arg(bool_out(&mut touching_byte), "out_touching", t),
                    arg(&mut out, "out", t),
                )
            };
            (
                status,
                touching_byte == SENTINEL_BOOL_BYTE && out == PhysContact::default(),
            )
        }),
        pc(
            "phys_move_and_slide_capsule",
            &["world", "capsule", "motion", "filter", "out_delta", "out_hit_count"],
            move |t| {
                let (mut delta, mut count) = (v(777.0, 777.0, 777.0), SENTINEL_USIZE);
                let character = PhysCapsule {
                    segment: segment(v(-5.0, -0.5, 0.0), v(-5.0, 0.5, 0.0)),
                    radius: 0.5,
                };
                let status = unsafe {
                    phys_move_and_slide_capsule(
                        arg(world, "world", t),
                        arg_in(&character, "capsule", t),
                        arg_in(&v(10.0, 0.0, 1.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        4,
                        arg(&mut delta, "out_delta", t),
                        arg(&mut count, "out_hit_count", t),
                    )
                };
                (status, delta == v(777.0, 777.0, 777.0) && count == SENTINEL_USIZE)
            },
        ),
        pc("phys_find_pairs", &["world", "callback"], move |t| {
            let mut calls = 0usize;
            let callback: PhysPairCallback = if t == Some(("callback", Bad::Null)) {
                None
            } else {
                Some(count_pairs)
            };
            let ctx = (&mut calls as *mut usize).cast();
            let status = unsafe { phys_find_pairs(arg(world, "world", t), callback, ctx) };
            (status, calls == 0)
        }),
        pc(
            "phys_find_pairs_into",
            &["world", "out", "written", "total"],
            pair_buffer_call(world, phys_find_pairs_into),
        ),
        pc("phys_update_pair_events", &["world", "began", "ended"], move |t| {
            let (mut began, mut ended) = (SENTINEL_USIZE, SENTINEL_USIZE);
            let status = unsafe {
                phys_update_pair_events(
                    arg(world, "world", t),
                    arg(&mut began, "began", t),
                    arg(&mut ended, "ended", t),
                )
            };
            (status, began == SENTINEL_USIZE && ended == SENTINEL_USIZE)
        }),
        pc("phys_pair_events_began", &["world", "out", "written", "total"], |t| {
            with_events_world(|w| pair_buffer_call(w, began_into_mut)(t))
        }),
        pc("phys_pair_events_ended", &["world", "out", "written", "total"], |t| {
            with_events_world(|w| pair_buffer_call(w, ended_into_mut)(t))
        }),
    ]
}

/// Runs `f` on a world of its own whose last pair events are one pair begun
/// and one ended, so that reading either needs an output buffer.
fn with_events_world(f: impl FnOnce(*mut PhysWorld) -> (PhysStatus, bool)) -> (PhysStatus, bool) {
    let world = new_world(None);
    let a = add_box(world, cube(1.0), &desc(1, 0.0, 0.0, 0.0));
    add_box(world, cube(1.0), &desc(2, 1.0, 0.0, 0.0));
    let (mut began, mut ended) = (0, 0);
    // SAFETY: a live world and valid out-pointers.
    unsafe {
        assert_eq!(phys_update_pair_events(world, &mut began, &mut ended), PHYS_OK);
        assert_eq!(phys_remove(world, a), PHYS_OK);
        add_box(world, cube(1.0), &desc(3, 0.0, 1.0, 0.0));
        assert_eq!(phys_update_pair_events(world, &mut began, &mut ended), PHYS_OK);
    }
    assert_eq!((began, ended), (1, 1));
    let result = f(world);
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
    result
}

/// A `PhysColliderRef` no call writes.
fn sentinel_ref() -> PhysColliderRef {
    PhysColliderRef {
        collider: SENTINEL_HANDLE,
        user_data: SENTINEL_U64,
    }
}

/// The pointer and callback parameters of every `phys_*` function declared
/// in the generated collide.h, in order, by function name.
fn header_pointer_params() -> BTreeMap<String, Vec<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/include/collide.h");
    let header = std::fs::read_to_string(path).expect("include/collide.h is readable");
    // Drop the comments, then read each `... phys_name(params);` declaration.
    let mut code = String::new();
    let mut rest = header.as_str();
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        rest = &rest[start + rest[start..].find("*/").expect("closed comment") + 2..];
    }
    code.push_str(rest);
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    code.split(';')
        .filter_map(|declaration| {
            let open = declaration.find("phys_")?;
            let name_end = open + declaration[open..].find('(')?;
            let params = &declaration[name_end + 1..declaration.rfind(')')?];
            let pointers = params
                .split(',')
                .filter(|p| p.contains('*') || p.contains("PhysPairCallback"))
                .map(|p| {
                    p.rsplit(|c: char| !c.is_alphanumeric() && c != '_')
                        .find(|w| !w.is_empty())
                        .expect("a named parameter")
                        .to_owned()
                })
                .collect();
            Some((declaration[open..name_end].trim().to_owned(), pointers))
        })
        .collect()
}

#[test]
fn every_pointer_argument_is_checked_for_null_and_alignment() {
    // The table covers every pointer parameter of every function in the
    // header, but those of destroy (NULL is a no-op) and is_alive (no status;
    // tested above), and `ctx`, which collide only passes on (NULL included).
    let mut in_header = header_pointer_params();
    in_header.retain(|name, _| name != "phys_world_destroy" && name != "phys_collider_is_alive");
    in_header.values_mut().for_each(|params| params.retain(|p| p != "ctx"));
    in_header.retain(|_, params| !params.is_empty());
    let in_table: BTreeMap<String, Vec<String>> = pointer_calls(&Fixture::new())
        .iter()
        .map(|c| (c.function.to_owned(), c.args.iter().map(|a| a.to_string()).collect()))
        .collect();
    assert_eq!(in_table, in_header, "the table matches collide.h");

    // With nothing spoiled, every call succeeds (on a world of its own, as
    // some calls add or remove colliders): the failures below are the
    // spoiled argument's doing.
    let scratch = Fixture::new();
    for c in pointer_calls(&scratch) {
        assert_eq!(
            (c.call)(None).0,
            PHYS_OK,
            "{} with valid arguments: {}",
            c.function,
            last_error()
        );
    }

    let f = Fixture::new();
    let mut checked = 0;
    for c in pointer_calls(&f) {
        for &name in c.args {
            for bad in [Bad::Null, Bad::Misaligned] {
                // NULL `desc` and `filter` mean the defaults (tested below);
                // `bool` and function pointers cannot be misaligned.
                let applies = match bad {
                    Bad::Null => !matches!(name, "desc" | "descs" | "filter"),
                    Bad::Misaligned => !matches!(name, "out_hit" | "out_touching" | "callback"),
                };
                if !applies {
                    continue;
                }
                let what = format!("{} with {bad:?} `{name}`", c.function);
                let mut untouched = false;
                let status = match bad {
                    Bad::Null => PHYS_ERROR_NULL_POINTER,
                    Bad::Misaligned => PHYS_ERROR_INVALID_ARGUMENT,
                };
                let message = f.refuses(status, &what, || {
                    let (status, outputs_untouched) = (c.call)(Some((name, bad)));
                    untouched = outputs_untouched;
                    status
                });
                assert!(untouched, "{what}: an output was written");
                match bad {
                    Bad::Null => assert_eq!(message, format!("`{name}` is NULL"), "{what}"),
                    Bad::Misaligned => assert_eq!(message, "invalid argument: misaligned pointer", "{what}"),
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 322, "every pointer argument but the exempt ones was tried");
}

#[test]
fn null_desc_filter_and_empty_buffers_mean_the_defaults() {
    let world = new_world(None);
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    // SAFETY: valid pointers; NULL where the header allows it.
    unsafe {
        // No pairs: a NULL buffer of capacity 0 is enough.
        assert_eq!(
            phys_test_pairwise_into(world, null_mut(), 0, &mut written, &mut total),
            PHYS_OK
        );
        assert_eq!((written, total), (0, 0));
        assert_eq!(
            phys_test_sweep_and_prune_into(world, null_mut(), 0, &mut written, &mut total),
            PHYS_OK
        );

        let mut handle = SENTINEL_HANDLE;
        assert_eq!(phys_add_box(world, &cube(1.0), null(), &mut handle), PHYS_OK);
        let (mut user, mut transform) = (SENTINEL_U64, sentinel_transform());
        assert_eq!(phys_get_user_data(world, handle, &mut user), PHYS_OK);
        assert_eq!(phys_get_transform(world, handle, &mut transform), PHYS_OK);
        assert_eq!((user, transform), (0, translation(0.0, 0.0, 0.0)));

        // A NULL filter hits everything.
        let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
        let down = segment(v(0.0, 5.0, 0.0), v(0.0, -5.0, 0.0));
        assert_eq!(
            phys_segment_cast(world, &down, null(), bool_out(&mut hit_byte), &mut hit),
            PHYS_OK
        );
        assert_eq!(hit_byte, 1);
        assert_eq!((hit.collider, hit.t, hit.normal), (handle, 0.4, v(0.0, 1.0, 0.0)));

        // A miss writes `*out_hit` and leaves `*out` alone.
        let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
        let away = segment(v(0.0, 5.0, 0.0), v(0.0, 9.0, 0.0));
        assert_eq!(
            phys_segment_cast(world, &away, null(), bool_out(&mut hit_byte), &mut hit),
            PHYS_OK
        );
        assert_eq!(hit_byte, 0);
        assert_eq!(hit, sentinel_hit());

        // A context pointer may be NULL: collide only passes it on.
        add_box(world, cube(1.0), &desc(2, 0.5, 0.0, 0.0));
        assert_eq!(phys_test_pairwise(world, Some(ignore_pair), null_mut()), PHYS_OK);
        phys_world_destroy(world);
    }
}

// ---------------------------------------------------------------------------
// Numbers: NaN and infinities, inverted boxes, negative radii.

#[test]
fn non_finite_numbers_are_refused_in_every_input() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    let nf = PHYS_ERROR_NON_FINITE;
    let check_message = |message: String| assert!(message.contains("not finite"), "message `{message}`");
    // SAFETY (every `unsafe` below): valid pointers; collide reads the numbers.

    // Box corners, sphere centre and radius, capsule axis and radius: in
    // phys_add_* and phys_set_*.
    for (what, p) in non_finite_vecs(v(-1.0, -1.0, -1.0)) {
        let b = aabb(p, v(1.0, 1.0, 1.0));
        check_message(f.refuses_add(nf, &format!("add_box min.{what}"), |o| unsafe {
            phys_add_box(w, &b, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_box min.{what}"), || unsafe {
            phys_set_box(w, f.probe, &b)
        }));
    }
    for (what, p) in non_finite_vecs(v(1.0, 1.0, 1.0)) {
        let b = aabb(v(-1.0, -1.0, -1.0), p);
        check_message(f.refuses_add(nf, &format!("add_box max.{what}"), |o| unsafe {
            phys_add_box(w, &b, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_box max.{what}"), || unsafe {
            phys_set_box(w, f.probe, &b)
        }));
    }
    for (what, center) in non_finite_vecs(v(0.0, 0.0, 0.0)) {
        let s = PhysSphere { center, radius: 1.0 };
        check_message(f.refuses_add(nf, &format!("add_sphere center.{what}"), |o| unsafe {
            phys_add_sphere(w, &s, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_sphere center.{what}"), || unsafe {
            phys_set_sphere(w, f.ball, &s)
        }));
        for end in [false, true] {
            let mut c = capsule(0.5);
            *if end { &mut c.segment.end } else { &mut c.segment.start } = center;
            let what = format!("capsule {}.{what}", if end { "end" } else { "start" });
            check_message(f.refuses_add(nf, &format!("add_{what}"), |o| unsafe {
                phys_add_capsule(w, &c, &d, o)
            }));
            check_message(f.refuses(nf, &format!("set_{what}"), || unsafe {
                phys_set_capsule(w, f.pill, &c)
            }));
        }
    }
    for radius in NON_FINITE {
        let s = sphere(radius);
        let c = capsule(radius);
        check_message(f.refuses_add(nf, &format!("add_sphere r={radius}"), |o| unsafe {
            phys_add_sphere(w, &s, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_sphere r={radius}"), || unsafe {
            phys_set_sphere(w, f.ball, &s)
        }));
        check_message(f.refuses_add(nf, &format!("add_capsule r={radius}"), |o| unsafe {
            phys_add_capsule(w, &c, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_capsule r={radius}"), || unsafe {
            phys_set_capsule(w, f.pill, &c)
        }));
    }

    // Transforms: in the description of every phys_add_* and in phys_set_transform.
    for (what, transform) in non_finite_transforms(d.transform) {
        let bad = PhysColliderDesc { transform, ..d };
        check_message(f.refuses_add(nf, &format!("add_box {what}"), |o| unsafe {
            phys_add_box(w, &cube(1.0), &bad, o)
        }));
        check_message(f.refuses_add(nf, &format!("add_sphere {what}"), |o| unsafe {
            phys_add_sphere(w, &sphere(1.0), &bad, o)
        }));
        check_message(f.refuses_add(nf, &format!("add_capsule {what}"), |o| unsafe {
            phys_add_capsule(w, &capsule(1.0), &bad, o)
        }));
        check_message(f.refuses(nf, &format!("set_transform {what}"), || unsafe {
            phys_set_transform(w, f.probe, &transform)
        }));
    }

    // Finite inputs whose world bounds overflow to infinity.
    let huge = PhysColliderDesc {
        transform: PhysTransform {
            scale: v(1e30, 1e30, 1e30),
            ..d.transform
        },
        ..d
    };
    check_message(f.refuses_add(nf, "add_box overflowing scale", |o| unsafe {
        phys_add_box(w, &cube(1e30), &huge, o)
    }));
    check_message(f.refuses_add(nf, "add_sphere overflowing scale", |o| unsafe {
        phys_add_sphere(w, &sphere(1e30), &huge, o)
    }));
    let far = desc(9, 3e38, 0.0, 0.0);
    check_message(f.refuses_add(nf, "add_box overflowing translation", |o| unsafe {
        phys_add_box(w, &cube(3e38), &far, o)
    }));

    // Segment end points, in phys_segment_cast.
    let through = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
    for (end, p) in [(false, through.start), (true, through.end)] {
        for (what, bad) in non_finite_vecs(p) {
            let mut s = through;
            *if end { &mut s.end } else { &mut s.start } = bad;
            let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
            let what = format!("segment_cast {}.{what}", if end { "end" } else { "start" });
            check_message(f.refuses(nf, &what, || unsafe {
                phys_segment_cast(w, &s, null(), bool_out(&mut hit_byte), &mut hit)
            }));
            assert_eq!(
                (hit_byte, hit),
                (SENTINEL_BOOL_BYTE, sentinel_hit()),
                "{what}: outputs written"
            );
        }
    }
}

#[test]
fn inverted_boxes_are_refused_on_each_axis() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    for (k, axis) in ["x", "y", "z"].into_iter().enumerate() {
        let b = aabb(with_component(v(-1.0, -1.0, -1.0), k, 2.0), v(1.0, 1.0, 1.0));
        let expected = format!("box is inverted: min > max on the {axis} axis");
        // SAFETY: valid pointers.
        let message = f.refuses_add(PHYS_ERROR_INVERTED_BOX, &format!("add_box {axis}"), |o| unsafe {
            phys_add_box(w, &b, &d, o)
        });
        assert_eq!(message, expected);
        // SAFETY: valid pointers.
        let message = f.refuses(PHYS_ERROR_INVERTED_BOX, &format!("set_box {axis}"), || unsafe {
            phys_set_box(w, f.probe, &b)
        });
        assert_eq!(message, expected);
        // The smallest inversion counts too.
        let one_ulp = aabb(with_component(v(0.0, 0.0, 0.0), k, f32::MIN_POSITIVE), v(0.0, 0.0, 0.0));
        // SAFETY: valid pointers.
        f.refuses(
            PHYS_ERROR_INVERTED_BOX,
            &format!("set_box {axis} by one ulp"),
            || unsafe { phys_set_box(w, f.probe, &one_ulp) },
        );
    }
    // A flat box (min == max) is a valid box.
    let flat = aabb(v(0.0, 0.0, 0.0), v(0.0, 0.0, 0.0));
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_set_box(w, f.spare, &flat) }, PHYS_OK);
}

#[test]
fn negative_radii_are_refused_but_zero_is_a_point() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    let nr = PHYS_ERROR_NEGATIVE_RADIUS;
    for radius in [-1.0, -f32::MIN_POSITIVE, -1e-45, f32::MIN] {
        let (s, c) = (sphere(radius), capsule(radius));
        // SAFETY (all four): valid pointers.
        let messages = [
            f.refuses_add(nr, &format!("add_sphere r={radius}"), |o| unsafe {
                phys_add_sphere(w, &s, &d, o)
            }),
            f.refuses(nr, &format!("set_sphere r={radius}"), || unsafe {
                phys_set_sphere(w, f.ball, &s)
            }),
            f.refuses_add(nr, &format!("add_capsule r={radius}"), |o| unsafe {
                phys_add_capsule(w, &c, &d, o)
            }),
            f.refuses(nr, &format!("set_capsule r={radius}"), || unsafe {
                phys_set_capsule(w, f.pill, &c)
            }),
        ];
        assert!(messages.iter().all(|m| m == "radius is negative"), "{messages:?}");
    }
    // Zero (of either sign) is allowed: a point, a segment.
    let world = new_world(None);
    for radius in [0.0, -0.0] {
        let mut out = SENTINEL_HANDLE;
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(phys_add_sphere(world, &sphere(radius), null(), &mut out), PHYS_OK);
            assert_eq!(phys_add_capsule(world, &capsule(radius), null(), &mut out), PHYS_OK);
        }
    }
    assert_eq!(count(world), 4);
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
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
// Malformed arguments: flags and rotations.

#[test]
fn unknown_flags_and_non_unit_rotations_are_invalid_arguments() {
    let f = Fixture::new();
    let w = f.world;
    let inv = PHYS_ERROR_INVALID_ARGUMENT;
    // SAFETY (every `unsafe` below): valid pointers.
    for flags in [2, 4, PHYS_COLLIDER_SHOULD_ROTATE | 8, 1 << 31, u32::MAX] {
        let d = PhysColliderDesc {
            flags,
            ..desc(9, 20.0, 0.0, 0.0)
        };
        let what = format!("flags {flags:#x}");
        let messages = [
            f.refuses_add(inv, &format!("add_box {what}"), |o| unsafe {
                phys_add_box(w, &cube(1.0), &d, o)
            }),
            f.refuses_add(inv, &format!("add_sphere {what}"), |o| unsafe {
                phys_add_sphere(w, &sphere(1.0), &d, o)
            }),
            f.refuses_add(inv, &format!("add_capsule {what}"), |o| unsafe {
                phys_add_capsule(w, &capsule(1.0), &d, o)
            }),
        ];
        assert!(
            messages
                .iter()
                .all(|m| m == "invalid argument: unknown collider flag bits"),
            "{messages:?}"
        );
    }

    let not_unit = [
        PhysQuat { w: 0.0, ..IDENTITY },
        PhysQuat { w: 2.0, ..IDENTITY },
        PhysQuat { w: 1.001, ..IDENTITY },
        PhysQuat {
            x: 1.0,
            y: 1.0,
            z: 0.0,
            w: 0.0,
        },
        PhysQuat { w: -0.5, ..IDENTITY },
    ];
    for rotation in not_unit {
        let mut transform = translation(20.0, 0.0, 0.0);
        transform.rotation = rotation;
        let d = PhysColliderDesc {
            transform,
            ..desc(9, 0.0, 0.0, 0.0)
        };
        let what = format!("rotation {rotation:?}");
        let messages = [
            f.refuses_add(inv, &format!("add_box {what}"), |o| unsafe {
                phys_add_box(w, &cube(1.0), &d, o)
            }),
            f.refuses_add(inv, &format!("add_sphere {what}"), |o| unsafe {
                phys_add_sphere(w, &sphere(1.0), &d, o)
            }),
            f.refuses_add(inv, &format!("add_capsule {what}"), |o| unsafe {
                phys_add_capsule(w, &capsule(1.0), &d, o)
            }),
            f.refuses(inv, &format!("set_transform {what}"), || unsafe {
                phys_set_transform(w, f.probe, &transform)
            }),
        ];
        assert!(
            messages
                .iter()
                .all(|m| m == "invalid argument: rotation is not a unit quaternion"),
            "{messages:?}"
        );
    }

    // Within the tolerance a rotation is accepted and renormalised.
    let mut nearly = translation(0.0, 0.0, 0.0);
    nearly.rotation.w = 1.0004;
    let mut stored = sentinel_transform();
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(phys_set_transform(w, f.spare, &nearly), PHYS_OK);
        assert_eq!(phys_get_transform(w, f.spare, &mut stored), PHYS_OK);
    }
    assert!((stored.rotation.w - 1.0).abs() < 1e-6, "{stored:?}");
}

// ---------------------------------------------------------------------------
// Buffers and capacity.

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

unsafe extern "C" fn pairwise_mut(world: *mut PhysWorld, callback: PhysPairCallback, ctx: *mut c_void) -> PhysStatus {
    // SAFETY: the caller's arguments, passed on.
    unsafe { phys_test_pairwise(world, callback, ctx) }
}

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

/// A segment whose end points are finite but whose direction overflows
/// (`end − start` beyond `f32::MAX`) is refused, instead of a NaN hit point.
#[test]
fn a_segment_whose_direction_overflows_is_refused() {
    let world = new_world(None);
    add_box(world, cube(1.0), &desc(1, 0.0, 0.0, 0.0));
    let huge = segment(v(-3.0e38, 0.0, 0.0), v(3.0e38, 0.0, 0.0));
    let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
    // SAFETY: valid pointers.
    let status = unsafe { phys_segment_cast(world, &huge, null(), bool_out(&mut hit_byte), &mut hit) };
    assert_eq!(status, PHYS_ERROR_NON_FINITE);
    assert_eq!((hit_byte, hit), (SENTINEL_BOOL_BYTE, sentinel_hit()));
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
}

// ---------------------------------------------------------------------------
// The narrow phase's functions (`src/ffi/narrow.rs`).

/// `phys_shape_cast_*`, `phys_closest_point` and
/// `phys_move_and_slide_capsule` with the given inputs: the status, and
/// whether every output kept its sentinel.
fn narrow_query(world: *const PhysWorld, query: &NarrowQuery) -> (PhysStatus, bool) {
    let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
    let closest_sentinel = PhysClosest {
        collider: SENTINEL_HANDLE,
        user_data: SENTINEL_U64,
        distance: PhysDistance::default(),
    };
    let mut closest = closest_sentinel;
    let (mut delta, mut hits) = (v(777.0, 777.0, 777.0), SENTINEL_USIZE);
    // SAFETY: valid pointers; collide reads the numbers.
    let status = unsafe {
        match query {
            NarrowQuery::CastSphere(s, m) => {
                phys_shape_cast_sphere(world, s, m, null(), bool_out(&mut hit_byte), &mut hit)
            }
            NarrowQuery::CastCapsule(c, m) => {
                phys_shape_cast_capsule(world, c, m, null(), bool_out(&mut hit_byte), &mut hit)
            }
            NarrowQuery::CastBox(b, m) => phys_shape_cast_box(world, b, m, null(), bool_out(&mut hit_byte), &mut hit),
            NarrowQuery::Closest(p, max_distance) => {
                phys_closest_point(world, p, *max_distance, null(), bool_out(&mut hit_byte), &mut closest)
            }
            NarrowQuery::Slide(c, m) => phys_move_and_slide_capsule(world, c, m, null(), 4, &mut delta, &mut hits),
        }
    };
    let untouched = hit_byte == SENTINEL_BOOL_BYTE
        && hit == sentinel_shape_hit()
        && closest == closest_sentinel
        && delta == v(777.0, 777.0, 777.0)
        && hits == SENTINEL_USIZE;
    (status, untouched)
}

/// The inputs of one narrow-phase query.
enum NarrowQuery {
    CastSphere(PhysSphere, PhysVec3),
    CastCapsule(PhysCapsule, PhysVec3),
    CastBox(PhysAabb, PhysVec3),
    Closest(PhysVec3, f32),
    Slide(PhysCapsule, PhysVec3),
}

/// A hull's points and a mesh's vertices: a unit cube's corners, and a
/// floor triangle.
fn cube_points() -> Vec<PhysVec3> {
    (0..8)
        .map(|i| v((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
        .collect()
}

fn floor_vertices() -> Vec<PhysVec3> {
    vec![v(-5.0, -3.0, -5.0), v(5.0, -3.0, -5.0), v(0.0, -3.0, 5.0)]
}

#[test]
fn narrow_functions_refuse_non_finite_numbers() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    let nf = PHYS_ERROR_NON_FINITE;
    // SAFETY (every `unsafe` below): valid pointers; collide reads the numbers.
    for (what, p) in non_finite_vecs(v(0.5, 0.5, 0.5)) {
        let o = PhysObb { center: p, ..obb(1.0) };
        f.refuses_add(nf, &format!("add_obb center.{what}"), |out| unsafe {
            phys_add_obb(w, &o, &d, out)
        });
        let o = PhysObb {
            half_extents: p,
            ..obb(1.0)
        };
        f.refuses_add(nf, &format!("add_obb half_extents.{what}"), |out| unsafe {
            phys_add_obb(w, &o, &d, out)
        });
        let t = PhysTriangle {
            a: v(0.0, 0.0, 0.0),
            b: v(1.0, 0.0, 0.0),
            c: p,
        };
        f.refuses_add(nf, &format!("add_triangle c.{what}"), |out| unsafe {
            phys_add_triangle(w, &t, &d, out)
        });
        let c = PhysCylinder {
            segment: segment(v(0.0, 0.0, 0.0), p),
            radius: 1.0,
        };
        f.refuses_add(nf, &format!("add_cylinder end.{what}"), |out| unsafe {
            phys_add_cylinder(w, &c, &d, out)
        });
        for cone in [
            PhysCone {
                base_center: p,
                apex: v(0.0, 2.0, 0.0),
                radius: 1.0,
            },
            PhysCone {
                base_center: v(0.0, 0.0, 0.0),
                apex: p,
                radius: 1.0,
            },
        ] {
            f.refuses_add(nf, &format!("add_cone {what}"), |out| unsafe {
                phys_add_cone(w, &cone, &d, out)
            });
        }
        let mut points = cube_points();
        points[5] = p;
        f.refuses_add(nf, &format!("add_hull point.{what}"), |out| unsafe {
            phys_add_hull(w, points.as_ptr(), points.len(), &d, out)
        });
        let mut vertices = floor_vertices();
        vertices[1] = p;
        f.refuses_add(nf, &format!("add_mesh vertex.{what}"), |out| unsafe {
            phys_add_mesh(w, vertices.as_ptr(), 3, [0u32, 1, 2].as_ptr(), 3, &d, out)
        });
        let o = PhysObb { center: p, ..obb(1.0) };
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        f.refuses(nf, &format!("overlap_obb center.{what}"), || unsafe {
            phys_overlap_obb(w, &o, null(), std::ptr::null_mut(), 0, &mut written, &mut total)
        });
        assert_eq!(
            (written, total),
            (SENTINEL_USIZE, SENTINEL_USIZE),
            "overlap_obb wrote on failure"
        );
        // The moving shape's numbers, the motion's, the point's.
        let good = v(0.0, 1.0, 0.0);
        let queries = [
            NarrowQuery::CastSphere(PhysSphere { center: p, radius: 0.5 }, good),
            NarrowQuery::CastSphere(sphere(0.5), p),
            NarrowQuery::CastCapsule(
                PhysCapsule {
                    segment: segment(p, good),
                    radius: 0.5,
                },
                good,
            ),
            NarrowQuery::CastCapsule(capsule(0.5), p),
            NarrowQuery::CastBox(aabb(p, v(1.0, 1.0, 1.0)), good),
            NarrowQuery::CastBox(cube(0.5), p),
            NarrowQuery::Closest(p, 1.0),
            NarrowQuery::Slide(
                PhysCapsule {
                    segment: segment(good, p),
                    radius: 0.5,
                },
                good,
            ),
            NarrowQuery::Slide(capsule(0.5), p),
        ];
        for (i, q) in queries.iter().enumerate() {
            let what = format!("narrow query {i} with {what}");
            let mut untouched = false;
            f.refuses(nf, &what, || {
                let (status, kept) = narrow_query(w, q);
                untouched = kept;
                status
            });
            assert!(untouched, "{what}: an output was written");
        }
    }
    for (what, rotation) in non_finite_quats(IDENTITY) {
        let o = PhysObb { rotation, ..obb(1.0) };
        f.refuses_add(nf, &format!("add_obb rotation.{what}"), |out| unsafe {
            phys_add_obb(w, &o, &d, out)
        });
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        f.refuses(nf, &format!("overlap_obb rotation.{what}"), || unsafe {
            phys_overlap_obb(w, &o, null(), std::ptr::null_mut(), 0, &mut written, &mut total)
        });
    }
    for x in NON_FINITE {
        let c = PhysCylinder {
            segment: segment(v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)),
            radius: x,
        };
        f.refuses_add(nf, &format!("add_cylinder radius {x}"), |out| unsafe {
            phys_add_cylinder(w, &c, &d, out)
        });
        let cone = PhysCone {
            base_center: v(0.0, 0.0, 0.0),
            apex: v(0.0, 1.0, 0.0),
            radius: x,
        };
        f.refuses_add(nf, &format!("add_cone radius {x}"), |out| unsafe {
            phys_add_cone(w, &cone, &d, out)
        });
        for q in [
            NarrowQuery::CastSphere(sphere(x), v(0.0, 1.0, 0.0)),
            NarrowQuery::CastCapsule(capsule(x), v(0.0, 1.0, 0.0)),
            NarrowQuery::Closest(v(0.0, 0.0, 0.0), x),
            NarrowQuery::Slide(capsule(x), v(0.0, 1.0, 0.0)),
        ] {
            let (status, untouched) = f.snapshot_unchanged(|| narrow_query(w, &q));
            assert_eq!(status, nf, "radius or max_distance {x}: {}", last_error());
            assert!(untouched);
        }
    }
    // A finite motion carrying the shape beyond f32, a finite radius
    // growing the search box beyond it.
    for q in [
        NarrowQuery::CastSphere(
            PhysSphere {
                center: v(3.0e38, 0.0, 0.0),
                radius: 1.0,
            },
            v(1.0e38, 0.0, 0.0),
        ),
        NarrowQuery::Slide(
            PhysCapsule {
                segment: segment(v(3.0e38, 0.0, 0.0), v(3.0e38, 1.0, 0.0)),
                radius: 1.0,
            },
            v(1.0e38, 0.0, 0.0),
        ),
        NarrowQuery::Closest(v(3.0e38, 0.0, 0.0), 1.0e38),
    ] {
        let (status, untouched) = f.snapshot_unchanged(|| narrow_query(w, &q));
        assert_eq!(status, nf, "an overflowing motion or radius: {}", last_error());
        assert!(untouched);
    }
}

#[test]
fn narrow_functions_refuse_malformed_shapes_and_counts() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    let invalid = PHYS_ERROR_INVALID_ARGUMENT;
    // SAFETY (every `unsafe` below): valid pointers; every array holds at
    // least its count of records, or the count's byte length overflows
    // `isize` (refused before anything is read).
    for axis in 0..3 {
        let o = PhysObb {
            half_extents: with_component(v(1.0, 1.0, 1.0), axis, -0.25),
            ..obb(1.0)
        };
        f.refuses_add(
            PHYS_ERROR_INVERTED_BOX,
            &format!("add_obb half-extent {axis} < 0"),
            |out| unsafe { phys_add_obb(w, &o, &d, out) },
        );
    }
    let skewed = PhysObb {
        rotation: PhysQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.01,
        },
        ..obb(1.0)
    };
    f.refuses_add(invalid, "add_obb with a non-unit rotation", |out| unsafe {
        phys_add_obb(w, &skewed, &d, out)
    });
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    f.refuses(invalid, "overlap_obb with a non-unit rotation", || unsafe {
        phys_overlap_obb(w, &skewed, null(), std::ptr::null_mut(), 0, &mut written, &mut total)
    });
    let c = PhysCylinder {
        segment: segment(v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)),
        radius: -1.0,
    };
    f.refuses_add(PHYS_ERROR_NEGATIVE_RADIUS, "add_cylinder radius -1", |out| unsafe {
        phys_add_cylinder(w, &c, &d, out)
    });
    let cone = PhysCone {
        base_center: v(0.0, 0.0, 0.0),
        apex: v(0.0, 1.0, 0.0),
        radius: -1.0,
    };
    f.refuses_add(PHYS_ERROR_NEGATIVE_RADIUS, "add_cone radius -1", |out| unsafe {
        phys_add_cone(w, &cone, &d, out)
    });

    // Hulls: too few points (0–3 of the cube's), coplanar ones (a face),
    // coincident ones, a count whose byte length overflows.
    let cube = cube_points();
    let face = [cube[0], cube[1], cube[2], cube[3], v(0.5, 0.5, 0.0)];
    let same = [v(1.0, 2.0, 3.0); 5];
    let hulls: [(&str, *const PhysVec3, usize); 7] = [
        ("0 points", cube.as_ptr(), 0),
        ("3 points", cube.as_ptr(), 3),
        ("a face", face.as_ptr(), face.len()),
        ("one point five times", same.as_ptr(), same.len()),
        ("count usize::MAX", cube.as_ptr(), usize::MAX),
        ("count isize::MAX / 4", cube.as_ptr(), isize::MAX as usize / 4),
        (
            "count past isize::MAX bytes",
            cube.as_ptr(),
            isize::MAX as usize / 12 + 1,
        ),
    ];
    for (what, points, count) in hulls {
        f.refuses_add(invalid, &format!("add_hull {what}"), |out| unsafe {
            phys_add_hull(w, points, count, &d, out)
        });
    }
    // A hull's scale must have no zero component.
    let flat = PhysColliderDesc {
        transform: PhysTransform {
            scale: v(1.0, 0.0, 1.0),
            ..translation(20.0, 0.0, 0.0)
        },
        ..d
    };
    f.refuses_add(invalid, "add_hull with a zero scale", |out| unsafe {
        phys_add_hull(w, cube.as_ptr(), cube.len(), &flat, out)
    });

    // Meshes: no triangle, a count not a multiple of 3, an index out of
    // range, counts whose byte lengths overflow.
    let vertices = floor_vertices();
    let indices = [0u32, 1, 2, 2, 1, 3];
    let meshes: [(&str, usize, usize); 7] = [
        ("0 indices", 3, 0),
        ("2 indices", 3, 2),
        ("4 indices", 3, 4),
        ("index 3 of 3 vertices", 3, 6),
        ("2 vertices for index 2", 2, 3),
        ("vertex_count usize::MAX", usize::MAX, 3),
        ("index_count usize::MAX", 3, usize::MAX),
    ];
    for (what, vertex_count, index_count) in meshes {
        f.refuses_add(invalid, &format!("add_mesh {what}"), |out| unsafe {
            phys_add_mesh(
                w,
                vertices.as_ptr(),
                vertex_count,
                indices.as_ptr(),
                index_count,
                &d,
                out,
            )
        });
    }

    // A full world: the shape is read (a hull or mesh built) first, then
    // the world refuses.
    let full = new_world(Some(0));
    let mut out = SENTINEL_HANDLE;
    let tri = PhysTriangle {
        a: v(0.0, 0.0, 0.0),
        b: v(1.0, 0.0, 0.0),
        c: v(0.0, 1.0, 0.0),
    };
    let cylinder = PhysCylinder {
        segment: segment(v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)),
        radius: 1.0,
    };
    let upright = PhysCone { radius: 1.0, ..cone };
    // SAFETY: valid pointers; the arrays hold their counts.
    let statuses = unsafe {
        [
            phys_add_obb(full, &obb(1.0), null(), &mut out),
            phys_add_triangle(full, &tri, null(), &mut out),
            phys_add_cylinder(full, &cylinder, null(), &mut out),
            phys_add_cone(full, &upright, null(), &mut out),
            phys_add_hull(full, cube.as_ptr(), cube.len(), null(), &mut out),
            phys_add_mesh(full, vertices.as_ptr(), 3, indices.as_ptr(), 3, null(), &mut out),
            phys_add_hull(full, cube.as_ptr(), 3, null(), &mut out),
        ]
    };
    assert_eq!(statuses[..6], [PHYS_ERROR_CAPACITY_EXCEEDED; 6]);
    assert_eq!(statuses[6], invalid, "a bad hull is refused before the capacity");
    assert_eq!((out, count(full)), (SENTINEL_HANDLE, 0));
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(full) };

    // Malformed moving shapes.
    for (q, status) in [
        (
            NarrowQuery::CastSphere(sphere(-1.0), v(0.0, 1.0, 0.0)),
            PHYS_ERROR_NEGATIVE_RADIUS,
        ),
        (
            NarrowQuery::CastCapsule(capsule(-1.0), v(0.0, 1.0, 0.0)),
            PHYS_ERROR_NEGATIVE_RADIUS,
        ),
        (
            NarrowQuery::Slide(capsule(-1.0), v(0.0, 1.0, 0.0)),
            PHYS_ERROR_NEGATIVE_RADIUS,
        ),
        (
            NarrowQuery::CastBox(aabb(v(0.0, 1.0, 0.0), v(1.0, 0.0, 1.0)), v(0.0, 1.0, 0.0)),
            PHYS_ERROR_INVERTED_BOX,
        ),
    ] {
        assert_eq!(
            f.snapshot_unchanged(|| narrow_query(w, &q)),
            (status, true),
            "{}",
            last_error()
        );
    }

    // A negative search radius.
    let (status, untouched) = f.snapshot_unchanged(|| narrow_query(w, &NarrowQuery::Closest(v(0.0, 0.0, 0.0), -1.0)));
    assert_eq!((status, untouched), (invalid, true), "closest_point within -1");

    // overlap_obb into a short buffer: only the total.
    let mut refs = [PhysColliderRef::default(); 1];
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    // SAFETY: one writable record.
    let status = unsafe { phys_overlap_obb(w, &obb(1.0), null(), refs.as_mut_ptr(), 1, &mut written, &mut total) };
    assert_eq!(
        (status, written, total, refs[0]),
        (
            PHYS_ERROR_BUFFER_TOO_SMALL,
            SENTINEL_USIZE,
            3,
            PhysColliderRef::default()
        ),
        "the probe, the ball and the pill overlap the box"
    );
}

impl Fixture {
    /// Runs `call` (which must fail), checking the world did not change.
    fn snapshot_unchanged<T>(&self, call: impl FnOnce() -> T) -> T {
        let before = self.snapshot();
        let result = call();
        assert_eq!(self.snapshot(), before, "the world changed");
        result
    }
}
