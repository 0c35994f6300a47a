//! What the tests of the C ABI (`ffi_*.rs`) share: the values and the
//! sentinels they fill outputs with, a world with a few colliders
//! ([`Fixture`]) and what a failing call must leave alone ([`Snapshot`],
//! [`refuses`]), called exactly as C calls them: raw pointers throughout.

use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut};

use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::Vec3;

// ---------------------------------------------------------------------------
// Values and sentinels.

pub const IDENTITY: PhysQuat = PhysQuat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 1.0,
};

/// Every way a float can be non-finite.
pub const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

pub const SENTINEL_HANDLE: PhysCollider = PhysCollider {
    bits: 0xDEAD_BEEF_DEAD_BEEF,
};
pub const SENTINEL_U64: u64 = 0xA5A5_A5A5_A5A5_A5A5;
pub const SENTINEL_USIZE: usize = 0x5A5A_5A5A;
/// Written into the byte behind a `bool*` output: neither `false` nor `true`,
/// so any write shows.
pub const SENTINEL_BOOL_BYTE: u8 = 0xAA;

pub fn v(x: f32, y: f32, z: f32) -> PhysVec3 {
    PhysVec3 { x, y, z }
}

pub fn aabb(min: PhysVec3, max: PhysVec3) -> PhysAabb {
    PhysAabb { min, max }
}

pub fn cube(half: f32) -> PhysAabb {
    aabb(v(-half, -half, -half), v(half, half, half))
}

pub fn segment(start: PhysVec3, end: PhysVec3) -> PhysSegment {
    PhysSegment { start, end }
}

pub fn sphere(radius: f32) -> PhysSphere {
    PhysSphere {
        center: v(0.0, 0.0, 0.0),
        radius,
    }
}

pub fn capsule(radius: f32) -> PhysCapsule {
    PhysCapsule {
        segment: segment(v(0.0, 0.0, -1.0), v(0.0, 0.0, 1.0)),
        radius,
    }
}

pub fn translation(x: f32, y: f32, z: f32) -> PhysTransform {
    PhysTransform {
        translation: v(x, y, z),
        rotation: IDENTITY,
        scale: v(1.0, 1.0, 1.0),
    }
}

/// The default description, moved to `(x, y, z)` and tagged `user`.
pub fn desc(user: u64, x: f32, y: f32, z: f32) -> PhysColliderDesc {
    PhysColliderDesc {
        transform: translation(x, y, z),
        user_data: user,
        ..phys_collider_desc_default()
    }
}

pub fn sentinel_aabb() -> PhysAabb {
    aabb(v(777.0, 777.0, 777.0), v(-777.0, -777.0, -777.0))
}

pub fn sentinel_transform() -> PhysTransform {
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

pub fn obb(half: f32) -> PhysObb {
    PhysObb {
        center: v(0.0, 0.0, 0.0),
        rotation: IDENTITY,
        half_extents: v(half, half, half),
    }
}

pub fn sentinel_shape_hit() -> PhysShapeHit {
    PhysShapeHit {
        collider: SENTINEL_HANDLE,
        user_data: SENTINEL_U64,
        t: 777.0,
        point: v(777.0, 777.0, 777.0),
        normal: v(777.0, 777.0, 777.0),
        sub_shape: 777,
    }
}

pub fn sentinel_hit() -> PhysHit {
    PhysHit {
        collider: SENTINEL_HANDLE,
        user_data: SENTINEL_U64,
        t: 777.0,
        point: v(777.0, 777.0, 777.0),
        normal: v(777.0, 777.0, 777.0),
        sub_shape: 777,
    }
}

pub fn sentinel_pair() -> PhysPair {
    PhysPair {
        a: SENTINEL_HANDLE,
        user_a: SENTINEL_U64,
        b: SENTINEL_HANDLE,
        user_b: SENTINEL_U64,
    }
}

/// A `bool*` over a sentinel byte.
pub fn bool_out(byte: &mut u8) -> *mut bool {
    (byte as *mut u8).cast()
}

/// `v` with component `k` (x, y, z) replaced by `value`.
pub fn with_component(mut p: PhysVec3, k: usize, value: f32) -> PhysVec3 {
    *[&mut p.x, &mut p.y, &mut p.z][k] = value;
    p
}

/// Every copy of `p` with one component made non-finite, and a name for it.
pub fn non_finite_vecs(p: PhysVec3) -> Vec<(String, PhysVec3)> {
    (0..3)
        .flat_map(|k| NON_FINITE.map(|x| (format!("{}={x}", ["x", "y", "z"][k]), with_component(p, k, x))))
        .collect()
}

/// Every copy of `q` with one component made non-finite.
pub fn non_finite_quats(q: PhysQuat) -> Vec<(String, PhysQuat)> {
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
pub fn non_finite_transforms(t: PhysTransform) -> Vec<(String, PhysTransform)> {
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
pub fn last_error() -> String {
    // SAFETY: a valid NUL-terminated string, alive until the next failure.
    unsafe { CStr::from_ptr(phys_last_error_message()) }
        .to_str()
        .expect("UTF-8")
        .to_owned()
}

pub fn new_world(limit: Option<usize>) -> *mut PhysWorld {
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

pub fn add_box(world: *mut PhysWorld, object_box: PhysAabb, desc: &PhysColliderDesc) -> PhysCollider {
    let mut out = SENTINEL_HANDLE;
    // SAFETY: valid pointers throughout.
    let status = unsafe { phys_add_box(world, &object_box, desc, &mut out) };
    assert_eq!(status, PHYS_OK, "{}", last_error());
    out
}

pub fn count(world: *const PhysWorld) -> usize {
    let mut n = SENTINEL_USIZE;
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_world_count(world, &mut n) }, PHYS_OK);
    n
}

pub fn alive(world: *const PhysWorld, handle: PhysCollider) -> bool {
    // SAFETY: a live world.
    unsafe { phys_collider_is_alive(world, handle) }
}

/// The finder type of `phys_test_*_into`, with a `*mut` world.
pub type BufferFinder =
    unsafe extern "C" fn(*mut PhysWorld, *mut PhysPair, usize, *mut usize, *mut usize) -> PhysStatus;

/// The pairs of `finder`, through a buffer large enough for this test's worlds.
pub fn pairs_into(finder: BufferFinder, world: *mut PhysWorld) -> Vec<PhysPair> {
    let mut buffer = vec![sentinel_pair(); 64];
    let (mut written, mut total) = (0, 0);
    // SAFETY: a buffer of `buffer.len()` records and valid counters.
    let status = unsafe { finder(world, buffer.as_mut_ptr(), buffer.len(), &mut written, &mut total) };
    assert_eq!(status, PHYS_OK, "{}", last_error());
    assert_eq!(written, total);
    buffer.truncate(written);
    buffer
}

/// `phys_pair_events_began`, with a `*mut` world.
pub unsafe extern "C" fn began_into_mut(
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
pub unsafe extern "C" fn ended_into_mut(
    world: *mut PhysWorld,
    out: *mut PhysPair,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    // SAFETY: the caller's pointers, passed on.
    unsafe { phys_pair_events_ended(world, out, capacity, written, total) }
}

/// `phys_test_pairwise_into` with a `*mut` world, to share `pairs_into`.
pub unsafe extern "C" fn pairwise_into_mut(
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
pub struct Snapshot {
    pub count: usize,
    /// Per watched handle: `None` when dead, else its world box, user data
    /// and transform.
    pub colliders: Vec<Option<(PhysAabb, u64, PhysTransform)>>,
    pub pairwise: Vec<PhysPair>,
    pub sweep_and_prune: Vec<PhysPair>,
}

pub fn snapshot(world: *mut PhysWorld, handles: &[PhysCollider]) -> Snapshot {
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
pub fn refuses(
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
pub struct Fixture {
    pub world: *mut PhysWorld,
    pub probe: PhysCollider,
    pub ball: PhysCollider,
    pub pill: PhysCollider,
    pub spare: PhysCollider,
    pub removed: PhysCollider,
}

/// User data of the fixture's colliders.
pub const PROBE_USER: u64 = 1;

impl Fixture {
    pub fn new() -> Self {
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

    pub fn watched(&self) -> [PhysCollider; 5] {
        [self.probe, self.ball, self.pill, self.spare, self.removed]
    }

    pub fn snapshot(&self) -> Snapshot {
        snapshot(self.world, &self.watched())
    }

    pub fn refuses(&self, status: PhysStatus, what: &str, call: impl FnOnce() -> PhysStatus) -> String {
        refuses(self.world, &self.watched(), status, what, call)
    }

    /// `refuses` for an `add`: also checks the handle was not written.
    pub fn refuses_add(
        &self,
        status: PhysStatus,
        what: &str,
        add: impl FnOnce(*mut PhysCollider) -> PhysStatus,
    ) -> String {
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

/// Counts callback invocations.
pub unsafe extern "C" fn count_pairs(ctx: *mut c_void, _: PhysCollider, _: u64, _: PhysCollider, _: u64) {
    // SAFETY: the tests pass a `*mut usize` as the context.
    unsafe { *ctx.cast::<usize>() += 1 };
}

impl Fixture {
    /// Runs `call` (which must fail), checking the world did not change.
    pub fn snapshot_unchanged<T>(&self, call: impl FnOnce() -> T) -> T {
        let before = self.snapshot();
        let result = call();
        assert_eq!(self.snapshot(), before, "the world changed");
        result
    }
}

// ---------------------------------------------------------------------------
// A small world of a box, a sphere and a capsule (two pairs), with a limit.

pub fn pv(v: Vec3) -> PhysVec3 {
    v.into()
}

/// A C world for the tests below: a unit box at the origin overlapping a
/// sphere and a capsule (two pairs), with a limit of `limit` colliders.
pub fn c_world(limit: usize) -> (*mut PhysWorld, [PhysCollider; 3]) {
    let mut world = std::ptr::null_mut();
    let mut handles = [PhysCollider::default(); 3];
    // SAFETY: valid out-pointers and inputs.
    unsafe {
        assert_eq!(phys_world_create_with_limit(limit, &mut world), PHYS_OK);
        let cube = PhysAabb {
            min: pv(Vec3::ZERO),
            max: pv(Vec3::ONE),
        };
        assert_eq!(phys_add_box(world, &cube, null(), &mut handles[0]), PHYS_OK);
        let ball = PhysSphere {
            center: pv(Vec3::splat(1.2)),
            radius: 0.5,
        };
        assert_eq!(phys_add_sphere(world, &ball, null(), &mut handles[1]), PHYS_OK);
        let pill = PhysCapsule {
            segment: PhysSegment {
                start: pv(Vec3::new(-0.5, 0.5, 0.5)),
                end: pv(Vec3::new(-0.5, 0.5, 3.0)),
            },
            radius: 0.5,
        };
        assert_eq!(phys_add_capsule(world, &pill, null(), &mut handles[2]), PHYS_OK);
    }
    (world, handles)
}

/// The world boxes of `handles`, and the count: what a refusal must not change.
pub fn c_state(world: *mut PhysWorld, handles: &[PhysCollider]) -> (usize, Vec<PhysAabb>) {
    let mut count = 0;
    // SAFETY: a live world and valid out-pointers.
    unsafe {
        assert_eq!(phys_world_count(world, &mut count), PHYS_OK);
        let boxes = handles
            .iter()
            .map(|&h| {
                let mut b = PhysAabb::default();
                assert_eq!(phys_get_world_aabb(world, h, &mut b), PHYS_OK);
                b
            })
            .collect();
        (count, boxes)
    }
}
