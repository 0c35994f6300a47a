//! The `phys_*` functions. Each is a thin shell: check pointers, run the
//! body inside the panic guard of `ffi::error` (no panic crosses into C), call the safe
//! [`World`] API, translate the error.
//!
//! Pointer contract, for every function: a non-NULL pointer argument points
//! to a valid, aligned object of its type (for `out` buffers, `capacity`
//! writable records) that nothing else accesses during the call; a
//! `PhysWorld*` comes from `phys_world_create` and was not destroyed. NULL
//! and misaligned pointers are detected and reported, not dereferenced.

use core::cell::UnsafeCell;
use core::ffi::c_char;
use std::sync::atomic::{AtomicUsize, Ordering};

use slotmap::Key;

use crate::collider::{ColliderDesc, ColliderKey, Filter};
use crate::error::Error;
use crate::ffi::error::{guard, last_error_message, Failure, PhysStatus, ALL_STATUSES};
use crate::ffi::types::*;
use crate::math::Transform;
use crate::shape::Shape;
use crate::world::{Threads, World};

/// An opaque physics world: colliders and the queries over them.
///
/// Thread rules: functions taking `const PhysWorld*` only read and may run
/// concurrently with each other on the same world; functions taking
/// `PhysWorld*` need exclusive access. No query rebuilds anything lazily.
/// A call breaking these rules (a mutation while another call runs on the
/// same world, on another thread or from a pair callback; a read-only call
/// while a mutation runs) is refused with `PHYS_ERROR_WORLD_BUSY`, the world
/// unchanged.
pub struct PhysWorld {
    /// `WRITER` while a mutating call runs, else the number of read-only
    /// calls running: the only field touched before access is granted.
    access: AtomicUsize,
    /// The world itself, reached only through an [`Access`] guard.
    state: UnsafeCell<WorldState>,
}

/// What a [`PhysWorld`] holds, behind its access count.
pub(crate) struct WorldState {
    pub(crate) world: World,
    /// Mixed into every handle's generation, so a handle of another world is
    /// detected as stale (see `PhysCollider::encode`).
    pub(crate) salt: u32,
    /// Reused by the pair finders with callbacks to hand pairs over without
    /// holding a borrow of the world while C code runs.
    pub(crate) pair_scratch: Vec<PhysPair>,
    /// Reused by `phys_world_contact_manifolds`.
    pub(crate) manifold_scratch: Vec<(crate::broad::Pair, crate::query::ContactManifold)>,
}

/// The value of `PhysWorld::access` while a mutating call runs.
const WRITER: usize = usize::MAX;

/// Granted access to a world's state: shared (a read-only call, counted in
/// `access`) or exclusive (`access == WRITER`). Dropping it, on return or
/// on unwinding, gives the access back.
pub(crate) struct Access<'a> {
    owner: &'a PhysWorld,
    exclusive: bool,
}

impl PhysWorld {
    /// A C world: batch calls run on one thread per core, all joined
    /// before the call returns (`Threads::Count(0)`), so no thread of
    /// collide's outlives a call.
    fn new(world: World) -> Self {
        Self::with_salt(world, next_salt())
    }

    /// A C world whose handles carry `salt` (an even number): a loaded
    /// world keeps its saved one, so the saved world's handles name the
    /// same colliders in it.
    pub(crate) fn with_salt(mut world: World, salt: u32) -> Self {
        world.set_threads(Threads::Count(0));
        Self {
            access: AtomicUsize::new(0),
            state: UnsafeCell::new(WorldState {
                world,
                salt,
                pair_scratch: Vec::new(),
                manifold_scratch: Vec::new(),
            }),
        }
    }

    /// Shared access for a read-only call, unless a mutating call holds the
    /// world.
    fn read(&self) -> Result<Access<'_>, Failure> {
        let mut readers = self.access.load(Ordering::Relaxed);
        loop {
            if readers >= WRITER - 1 {
                return Err(Failure::WorldBusy);
            }
            match self
                .access
                .compare_exchange_weak(readers, readers + 1, Ordering::Acquire, Ordering::Relaxed)
            {
                Ok(_) => {
                    return Ok(Access {
                        owner: self,
                        exclusive: false,
                    })
                }
                Err(now) => readers = now,
            }
        }
    }

    /// Exclusive access for a mutating call, unless any other call holds the
    /// world.
    fn write(&self) -> Result<Access<'_>, Failure> {
        self.access
            .compare_exchange(0, WRITER, Ordering::Acquire, Ordering::Relaxed)
            .map_err(|_| Failure::WorldBusy)?;
        Ok(Access {
            owner: self,
            exclusive: true,
        })
    }
}

impl Access<'_> {
    /// Turns exclusive access into shared access (the only reader), so
    /// that a pair callback may run read-only calls on the world while
    /// mutations stay refused.
    pub(crate) fn downgrade(self) -> Self {
        debug_assert!(self.exclusive);
        let owner = self.owner;
        core::mem::forget(self);
        owner.access.store(1, Ordering::Release);
        Access {
            owner,
            exclusive: false,
        }
    }

    /// Turns shared access back into exclusive access if no other reader
    /// holds the world; otherwise keeps it shared.
    pub(crate) fn try_upgrade(mut self) -> Self {
        if !self.exclusive
            && self
                .owner
                .access
                .compare_exchange(1, WRITER, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        {
            self.exclusive = true;
        }
        self
    }

    /// Whether this access is exclusive.
    pub(crate) fn is_exclusive(&self) -> bool {
        self.exclusive
    }
}

impl Drop for Access<'_> {
    fn drop(&mut self) {
        if self.exclusive {
            self.owner.access.store(0, Ordering::Release);
        } else {
            self.owner.access.fetch_sub(1, Ordering::Release);
        }
    }
}

impl core::ops::Deref for Access<'_> {
    type Target = WorldState;

    fn deref(&self) -> &WorldState {
        // SAFETY: access is granted: shared (no exclusive access exists
        // while the count is not WRITER) or exclusive (no other access).
        unsafe { &*self.owner.state.get() }
    }
}

impl core::ops::DerefMut for Access<'_> {
    fn deref_mut(&mut self) -> &mut WorldState {
        assert!(self.exclusive, "mutable access to a world held for reading");
        // SAFETY: exclusive access: `access` is WRITER, held by this guard,
        // so no other reference to the state exists.
        unsafe { &mut *self.owner.state.get() }
    }
}

/// A checked output pointer: non-NULL and aligned, written at most once,
/// at the end of a successful call.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    /// Writes an optional answer: `*found` says whether there is one and,
    /// if so, `*self` holds it (left alone when there is none).
    pub(crate) fn write_some(self, found: Out<bool>, value: Option<T>) {
        match value {
            Some(value) => {
                self.write(value);
                found.write(true);
            }
            None => found.write(false),
        }
    }

    pub(crate) fn new(ptr: *mut T, name: &'static str) -> Result<Self, Failure> {
        check_pointer(ptr.cast_const(), name)?;
        Ok(Self(ptr))
    }

    pub(crate) fn write(self, value: T) {
        // SAFETY: non-NULL and aligned (checked in `new`); the caller
        // guarantees it is valid for writes (the module's pointer contract).
        unsafe { self.0.write(value) }
    }
}

pub(crate) fn check_pointer<T>(ptr: *const T, name: &'static str) -> Result<(), Failure> {
    if ptr.is_null() {
        return Err(Failure::NullPointer(name));
    }
    if !ptr.is_aligned() {
        return Err(Error::InvalidArgument("misaligned pointer").into());
    }
    Ok(())
}

/// Refuses a count of `T` records no array can hold (a byte length beyond
/// `isize::MAX`, where pointer offsets are no longer defined), before any
/// record is read.
pub(crate) fn check_count<T>(count: usize, message: &'static str) -> Result<(), Failure> {
    if count > isize::MAX as usize / core::mem::size_of::<T>() {
        return Err(Error::InvalidArgument(message).into());
    }
    Ok(())
}

/// An empty vector with room for `count` records, or
/// `PHYS_ERROR_OUT_OF_MEMORY` (`what` names the buffer) when the room cannot
/// be allocated: every buffer whose size a caller's count decides is
/// reserved this way, before any of the caller's records is read.
pub(crate) fn try_vec<T>(count: usize, what: &'static str) -> Result<Vec<T>, Failure> {
    let mut records = Vec::new();
    records.try_reserve_exact(count).map_err(|_| Error::OutOfMemory(what))?;
    Ok(records)
}

/// The `count` records of the caller's array `ptr`, converted, in a vector
/// reserved by [`try_vec`]. The count is checked against `isize` first,
/// the room is reserved next, and only then is a record read, so a count
/// the caller's memory cannot back is refused without touching it.
pub(crate) fn copy_in<S: Copy, T>(
    ptr: *const S,
    count: usize,
    what: &'static str,
    convert: impl Fn(S) -> T,
) -> Result<Vec<T>, Failure> {
    check_pointer(ptr, what)?;
    check_count::<S>(count, "count larger than any array")?;
    let mut records = try_vec(count, what)?;
    // SAFETY: non-NULL and aligned (checked), the byte length fits in
    // `isize` (checked); the caller guarantees `count` readable records.
    let source = unsafe { core::slice::from_raw_parts(ptr, count) };
    records.extend(source.iter().map(|&record| convert(record)));
    Ok(records)
}

/// Copies `*ptr` in after checking it.
pub(crate) fn read_in<T: Copy>(ptr: *const T, name: &'static str) -> Result<T, Failure> {
    check_pointer(ptr, name)?;
    // SAFETY: non-NULL and aligned (checked); the caller guarantees it points
    // to a valid `T` (the module's pointer contract).
    Ok(unsafe { ptr.read() })
}

/// Copies `*ptr` in, or gives `default` for NULL.
pub(crate) fn read_or<T: Copy>(ptr: *const T, default: T, name: &'static str) -> Result<T, Failure> {
    if ptr.is_null() {
        Ok(default)
    } else {
        read_in(ptr, name)
    }
}

/// Shared access to `*world` for a read-only call: `PHYS_ERROR_WORLD_BUSY`
/// while a mutating call holds it. Every `phys_*` function taking a
/// `const PhysWorld*` reaches the world through it.
pub(crate) fn world_ref<'a>(world: *const PhysWorld) -> Result<Access<'a>, Failure> {
    check_pointer(world, "world")?;
    // SAFETY: non-NULL and aligned (checked); the caller guarantees it came
    // from `phys_world_create` and is not destroyed. Only a shared reference
    // is formed: the state inside is reached through the granted access.
    unsafe { &*world }.read()
}

/// Exclusive access to `*world` for a mutating call: `PHYS_ERROR_WORLD_BUSY`
/// while any other call holds it. Every `phys_*` function taking a
/// `PhysWorld*` reaches the world through it.
pub(crate) fn world_mut<'a>(world: *mut PhysWorld) -> Result<Access<'a>, Failure> {
    check_pointer(world.cast_const(), "world")?;
    // SAFETY: as in `world_ref`; exclusivity comes from the access count,
    // not from this reference, which is shared.
    unsafe { &*world }.write()
}

impl WorldState {
    pub(crate) fn key_of(&self, collider: PhysCollider) -> Result<ColliderKey, Failure> {
        collider.decode(self.salt).ok_or(Failure::Core(Error::StaleHandle))
    }

    pub(crate) fn handle(&self, key: ColliderKey) -> PhysCollider {
        PhysCollider::encode(key, self.salt)
    }
}

/// A new even salt per world: SplitMix64 of a global counter (a bijection,
/// so worlds created one after another get scattered salts).
fn next_salt() -> u32 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static WORLDS: AtomicU64 = AtomicU64::new(0);
    let mut z = WORLDS
        .fetch_add(1, Ordering::Relaxed)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) as u32) & !1
}

pub(crate) fn collider_desc(shape: Shape, desc: *const PhysColliderDesc) -> Result<ColliderDesc, Failure> {
    let desc = read_or(desc, PhysColliderDesc::default(), "desc")?;
    if desc.flags & !PHYS_COLLIDER_ALL_FLAGS != 0 {
        return Err(Error::InvalidArgument("unknown collider flag bits").into());
    }
    Ok(ColliderDesc {
        shape,
        transform: desc.transform.into(),
        should_rotate: desc.flags & PHYS_COLLIDER_SHOULD_ROTATE != 0,
        user_data: desc.user_data,
        filter: Filter {
            category: desc.category_bits,
            mask: desc.mask_bits,
        },
    })
}

/// Parses a decimal version component at compile time.
const fn parse_version(s: &str) -> u32 {
    let bytes = s.as_bytes();
    let mut value = 0;
    let mut i = 0;
    while i < bytes.len() {
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    value
}

/// collide's version as a NUL-terminated string, e.g. `"0.1.0"`; the same
/// as the header's `PHYS_VERSION_STRING`.
#[no_mangle]
pub extern "C" fn phys_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// collide's version as `(major << 16) | (minor << 8) | patch`; the same
/// as the header's `PHYS_VERSION_NUMBER`.
#[no_mangle]
pub extern "C" fn phys_version_number() -> u32 {
    (parse_version(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
        | (parse_version(env!("CARGO_PKG_VERSION_MINOR")) << 8)
        | parse_version(env!("CARGO_PKG_VERSION_PATCH"))
}

/// A static NUL-terminated description of a status code (any `uint32_t`;
/// an unknown code gets "unknown status code").
#[no_mangle]
pub extern "C" fn phys_status_string(status: u32) -> *const c_char {
    ALL_STATUSES
        .get(status as usize)
        .map_or(c"unknown status code", |s| s.description())
        .as_ptr()
}

/// The message of the last failing `phys_*` call on this thread (empty if
/// none), NUL-terminated, valid until the next failing call on this thread.
#[no_mangle]
pub extern "C" fn phys_last_error_message() -> *const c_char {
    last_error_message()
}

/// The default collider description: identity transform, user data 0,
/// category 1, mask all bits, `PHYS_COLLIDER_SHOULD_ROTATE`.
#[no_mangle]
pub extern "C" fn phys_collider_desc_default() -> PhysColliderDesc {
    PhysColliderDesc::default()
}

/// Creates an empty world in `*out`; free it with `phys_world_destroy`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_create(out: *mut *mut PhysWorld) -> PhysStatus {
    // SAFETY: the same contract, passed on.
    unsafe { phys_world_create_with_limit(usize::MAX, out) }
}

/// Creates an empty world in `*out` that refuses to hold more than
/// `max_colliders` colliders (`PHYS_ERROR_CAPACITY_EXCEEDED`), as Jolt's
/// `PhysicsSystem::Init` takes a body limit.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_create_with_limit(max_colliders: usize, out: *mut *mut PhysWorld) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let world = Box::new(PhysWorld::new(World::with_max_colliders(max_colliders)));
        out.write(Box::into_raw(world));
        Ok(())
    })
}

/// Destroys a world and every collider in it. NULL is ignored. A world
/// another call is running on (another thread's, or the call whose pair
/// callback this is) is not destroyed: it stays valid, and
/// `phys_last_error_message` says why.
///
/// # Safety
/// `world` is NULL or came from `phys_world_create` and is not used again.
#[no_mangle]
pub unsafe extern "C" fn phys_world_destroy(world: *mut PhysWorld) {
    if world.is_null() {
        return;
    }
    guard(|| {
        // Exclusive access, kept: the world is freed holding it.
        core::mem::forget(world_mut(world)?);
        // SAFETY: non-NULL, made by `Box::into_raw` in `phys_world_create`,
        // no other call holds it (exclusive access was granted), and the
        // caller gives up its pointer.
        drop(unsafe { Box::from_raw(world) });
        Ok(())
    });
}

/// How many colliders the world holds, in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_count(world: *const PhysWorld, out: *mut usize) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        out.write(world_ref(world)?.world.len());
        Ok(())
    })
}

/// Whether `collider` names a live collider of `world` (false for a NULL
/// world).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_collider_is_alive(world: *const PhysWorld, collider: PhysCollider) -> bool {
    // No status to report, so no last-error message either: a NULL world is
    // simply "not alive", and a panic (a bug) is caught and answers false.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world_ref(world).is_ok_and(|w| w.key_of(collider).is_ok_and(|key| w.world.contains(key)))
    }))
    .unwrap_or(false)
}

pub(crate) fn add(
    world: *mut PhysWorld,
    shape: Result<Shape, Failure>,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    guard(|| {
        let shape = shape?;
        let out = Out::new(out, "out")?;
        let mut access = world_mut(world)?;
        let world = &mut *access;
        let key = world.world.add(collider_desc(shape, desc)?)?;
        out.write(world.handle(key));
        Ok(())
    })
}

/// Adds a box collider: `object_box` in object space (the book's
/// `BoxComponent::mObjectBox`), placed by `desc` (NULL for the defaults).
/// The new handle goes to `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_add_box(
    world: *mut PhysWorld,
    object_box: *const PhysAabb,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(
        world,
        read_in(object_box, "object_box").map(|v| Shape::Aabb(v.into())),
        desc,
        out,
    )
}

/// Adds a sphere collider (object space), placed by `desc` (NULL for the
/// defaults). The new handle goes to `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_add_sphere(
    world: *mut PhysWorld,
    sphere: *const PhysSphere,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(
        world,
        read_in(sphere, "sphere").map(|v| Shape::Sphere(v.into())),
        desc,
        out,
    )
}

/// Adds a capsule collider (object space), placed by `desc` (NULL for the
/// defaults). The new handle goes to `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_add_capsule(
    world: *mut PhysWorld,
    capsule: *const PhysCapsule,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(
        world,
        read_in(capsule, "capsule").map(|v| Shape::Capsule(v.into())),
        desc,
        out,
    )
}

/// Removes a collider; its handle becomes stale.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_remove(world: *mut PhysWorld, collider: PhysCollider) -> PhysStatus {
    guard(|| {
        let mut access = world_mut(world)?;
        let world = &mut *access;
        world.world.remove(world.key_of(collider)?)?;
        Ok(())
    })
}

/// Moves, rotates or scales a collider (the book's
/// `BoxComponent::OnUpdateWorldTransform`).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_set_transform(
    world: *mut PhysWorld,
    collider: PhysCollider,
    transform: *const PhysTransform,
) -> PhysStatus {
    guard(|| {
        let transform = read_in(transform, "transform")?;
        let mut access = world_mut(world)?;
        let world = &mut *access;
        world.world.set_transform(world.key_of(collider)?, transform.into())?;
        Ok(())
    })
}

pub(crate) fn set_shape(world: *mut PhysWorld, collider: PhysCollider, shape: Result<Shape, Failure>) -> PhysStatus {
    guard(|| {
        let shape = shape?;
        let mut access = world_mut(world)?;
        let world = &mut *access;
        world.world.set_shape(world.key_of(collider)?, shape)?;
        Ok(())
    })
}

/// Moves, rotates or scales `count` colliders at once: `colliders[i]` gets
/// `transforms[i]`, in order (a collider given twice ends with its last
/// transform). All or nothing: on the first stale handle or invalid
/// transform its status is returned and no collider has changed. Faster
/// than `count` calls of `phys_set_transform` for many colliders (their
/// memory loads overlap). `colliders` and `transforms` may be NULL when
/// `count` is 0; a `count` no array can hold is `PHYS_ERROR_INVALID_ARGUMENT`
/// and one whose batch cannot be allocated `PHYS_ERROR_OUT_OF_MEMORY`, both
/// before any record is read.
///
/// # Safety
/// The pointer contract at the top of collide.h; each array holds `count`
/// records.
#[no_mangle]
pub unsafe extern "C" fn phys_set_transforms(
    world: *mut PhysWorld,
    colliders: *const PhysCollider,
    transforms: *const PhysTransform,
    count: usize,
) -> PhysStatus {
    update_batch(
        world,
        colliders,
        transforms,
        "transforms",
        count,
        |transform: &PhysTransform| Ok(Transform::from(*transform)),
        |world, updates| world.set_transforms(updates),
    )
}

/// Updates `count` colliders at once, all or nothing: `colliders[i]` gets
/// `value_of(&records[i])` through `apply` (`World::set_transforms`,
/// `World::set_shapes`). A handle of no collider of this world becomes the
/// null key, stale in its place: the first bad entry decides. Both arrays
/// may be NULL when `count` is 0; a `count` no array can hold is refused
/// before any record is read.
pub(crate) fn update_batch<R, V>(
    world: *mut PhysWorld,
    colliders: *const PhysCollider,
    records: *const R,
    name: &'static str,
    count: usize,
    value_of: impl Fn(&R) -> Result<V, Failure>,
    apply: impl FnOnce(&mut World, &[(ColliderKey, V)]) -> crate::error::Result<()>,
) -> PhysStatus {
    guard(|| {
        let mut access = world_mut(world)?;
        let world = &mut *access;
        if count == 0 {
            return Ok(());
        }
        check_pointer(colliders, "colliders")?;
        check_pointer(records, name)?;
        check_count::<PhysCollider>(count, "count larger than any array")?;
        check_count::<R>(count, "count larger than any array")?;
        let mut updates = try_vec(count, "the batch of updates")?;
        for i in 0..count {
            // SAFETY (both): non-NULL and aligned (checked), the byte lengths
            // fit in `isize` (checked); the caller guarantees `count`
            // readable records in each.
            let (collider, record) = unsafe { (colliders.add(i).read(), &*records.add(i)) };
            let key = world.key_of(collider).unwrap_or_else(|_| ColliderKey::null());
            updates.push((key, value_of(record)?));
        }
        apply(&mut world.world, &updates)?;
        Ok(())
    })
}

/// Makes a collider a box with this object-space box.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_set_box(
    world: *mut PhysWorld,
    collider: PhysCollider,
    object_box: *const PhysAabb,
) -> PhysStatus {
    set_shape(
        world,
        collider,
        read_in(object_box, "object_box").map(|b| Shape::Aabb(b.into())),
    )
}

/// Makes a collider a sphere with this object-space sphere.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_set_sphere(
    world: *mut PhysWorld,
    collider: PhysCollider,
    sphere: *const PhysSphere,
) -> PhysStatus {
    set_shape(
        world,
        collider,
        read_in(sphere, "sphere").map(|s| Shape::Sphere(s.into())),
    )
}

/// Makes a collider a capsule with this object-space capsule.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_set_capsule(
    world: *mut PhysWorld,
    collider: PhysCollider,
    capsule: *const PhysCapsule,
) -> PhysStatus {
    set_shape(
        world,
        collider,
        read_in(capsule, "capsule").map(|c| Shape::Capsule(c.into())),
    )
}

/// Sets the book's `mShouldRotate` switch of a box collider.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_set_should_rotate(
    world: *mut PhysWorld,
    collider: PhysCollider,
    should_rotate: bool,
) -> PhysStatus {
    guard(|| {
        let mut access = world_mut(world)?;
        let world = &mut *access;
        world.world.set_should_rotate(world.key_of(collider)?, should_rotate)?;
        Ok(())
    })
}

/// Sets a collider's user-data word.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_set_user_data(
    world: *mut PhysWorld,
    collider: PhysCollider,
    user_data: u64,
) -> PhysStatus {
    guard(|| {
        let mut access = world_mut(world)?;
        let world = &mut *access;
        world.world.set_user_data(world.key_of(collider)?, user_data)?;
        Ok(())
    })
}

/// Sets a collider's category and mask bits.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_set_filter(
    world: *mut PhysWorld,
    collider: PhysCollider,
    category_bits: u64,
    mask_bits: u64,
) -> PhysStatus {
    guard(|| {
        let filter = Filter {
            category: category_bits,
            mask: mask_bits,
        };
        let mut access = world_mut(world)?;
        let world = &mut *access;
        world.world.set_filter(world.key_of(collider)?, filter)?;
        Ok(())
    })
}

/// A collider's user-data word, in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_get_user_data(
    world: *const PhysWorld,
    collider: PhysCollider,
    out: *mut u64,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let collider = world.world.get(world.key_of(collider)?).ok_or(Error::StaleHandle)?;
        out.write(collider.user_data());
        Ok(())
    })
}

/// A collider's world-space bounding box (the book's
/// `BoxComponent::GetWorldBox`), in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_get_world_aabb(
    world: *const PhysWorld,
    collider: PhysCollider,
    out: *mut PhysAabb,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let collider = world.world.get(world.key_of(collider)?).ok_or(Error::StaleHandle)?;
        out.write((*collider.aabb()).into());
        Ok(())
    })
}

/// A collider's transform (rotation renormalised), in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_get_transform(
    world: *const PhysWorld,
    collider: PhysCollider,
    out: *mut PhysTransform,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let collider = world.world.get(world.key_of(collider)?).ok_or(Error::StaleHandle)?;
        out.write(collider.transform().into());
        Ok(())
    })
}

/// A collider's filter: its category bits in `*out_category_bits`, its
/// mask bits in `*out_mask_bits`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_get_filter(
    world: *const PhysWorld,
    collider: PhysCollider,
    out_category_bits: *mut u64,
    out_mask_bits: *mut u64,
) -> PhysStatus {
    guard(|| {
        let out_category_bits = Out::new(out_category_bits, "out_category_bits")?;
        let out_mask_bits = Out::new(out_mask_bits, "out_mask_bits")?;
        let world = world_ref(world)?;
        let collider = world.world.get(world.key_of(collider)?).ok_or(Error::StaleHandle)?;
        out_category_bits.write(collider.filter().category);
        out_mask_bits.write(collider.filter().mask);
        Ok(())
    })
}

/// Whether a collider follows its transform's rotation
/// (`PHYS_COLLIDER_SHOULD_ROTATE`), in `*out_should_rotate`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_get_should_rotate(
    world: *const PhysWorld,
    collider: PhysCollider,
    out_should_rotate: *mut bool,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out_should_rotate, "out_should_rotate")?;
        let world = world_ref(world)?;
        let collider = world.world.get(world.key_of(collider)?).ok_or(Error::StaleHandle)?;
        out.write(collider.should_rotate());
        Ok(())
    })
}

/// The most colliders the world may hold (`phys_world_create_with_limit`'s
/// limit, or the default), in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_max_colliders(world: *const PhysWorld, out: *mut usize) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        out.write(world_ref(world)?.world.max_colliders());
        Ok(())
    })
}

/// The thread setting of `phys_world_set_thread_count`, in `*out` (0: one
/// per core).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_thread_count(world: *const PhysWorld, out: *mut u32) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let threads = match world_ref(world)?.world.threads() {
            Threads::Count(n) => u32::try_from(n).unwrap_or(u32::MAX),
            // A C world never runs on rayon's pool; the calling thread alone
            // is the setting 1.
            _ => 1,
        };
        out.write(threads);
        Ok(())
    })
}

/// Adds `count` box colliders at once (a level load): `boxes[i]` in object
/// space, placed by `descs[i]` (`descs` NULL for the defaults for all),
/// handles into `out[i]`. All or nothing: on any error none is added. A
/// batch at least as large as the world is placed by one SAH build.
/// `boxes` and `out` may be NULL when `count` is 0; a `count` no array can
/// hold is `PHYS_ERROR_INVALID_ARGUMENT` and one whose batch cannot be
/// allocated `PHYS_ERROR_OUT_OF_MEMORY`, both before any record is read, and
/// one beyond the world's room `PHYS_ERROR_CAPACITY_EXCEEDED` (after the
/// records are checked, as `World::extend` does).
///
/// # Safety
/// The pointer contract at the top of collide.h; each array holds `count`
/// records.
#[no_mangle]
pub unsafe extern "C" fn phys_add_boxes(
    world: *mut PhysWorld,
    boxes: *const PhysAabb,
    descs: *const PhysColliderDesc,
    count: usize,
    out: *mut PhysCollider,
) -> PhysStatus {
    add_batch(world, boxes, "boxes", descs, count, out, |aabb: &PhysAabb| {
        Ok(Shape::Aabb((*aabb).into()))
    })
}

/// Adds `count` colliders at once, all or nothing (`World::extend`): the
/// shape `shape_of(&records[i])` placed by `descs[i]` (`descs` NULL for the
/// defaults for all), handles into `out[i]`. `records` (named `name`) and
/// `out` may be NULL when `count` is 0; a `count` no array can hold is
/// refused before any record is read.
pub(crate) fn add_batch<R>(
    world: *mut PhysWorld,
    records: *const R,
    name: &'static str,
    descs: *const PhysColliderDesc,
    count: usize,
    out: *mut PhysCollider,
    shape_of: impl Fn(&R) -> Result<Shape, Failure>,
) -> PhysStatus {
    guard(|| {
        let mut access = world_mut(world)?;
        let world = &mut *access;
        if count == 0 {
            return Ok(());
        }
        check_pointer(records, name)?;
        check_pointer(out.cast_const(), "out")?;
        if !descs.is_null() {
            check_pointer(descs, "descs")?;
        }
        check_count::<PhysColliderDesc>(count, "count larger than any array")?;
        check_count::<R>(count, "count larger than any array")?;
        let mut all = try_vec(count, "the batch of colliders")?;
        for i in 0..count {
            // SAFETY: `records` is non-NULL and aligned (checked), and the
            // caller guarantees `count` readable records.
            let record = unsafe { &*records.add(i) };
            let desc = if descs.is_null() {
                descs
            } else {
                // SAFETY: as `records`: `descs` is not NULL here, aligned
                // (checked) and holds `count` records.
                unsafe { descs.add(i) }
            };
            all.push(collider_desc(shape_of(record)?, desc)?);
        }
        let keys = world.world.extend(all)?;
        for (i, key) in keys.into_iter().enumerate() {
            // SAFETY: `out` is non-NULL and aligned (checked), and the caller
            // guarantees `count` writable records.
            unsafe { out.add(i).write(world.handle(key)) };
        }
        Ok(())
    })
}

/// Chooses the threads `world`'s batch work runs on (`phys_segment_cast_batch`,
/// the pair search of `phys_find_pairs`, `phys_update_pair_events` and
/// `phys_world_contact_manifolds`, and the placements of
/// `phys_set_transforms` and `phys_set_shapes`): 1, the calling thread
/// alone (for engines that split batches over their own job system);
/// n > 1, the calling thread and n − 1 threads started for the call; 0 (a
/// new world's setting), one thread per core likewise. Every thread
/// collide starts is joined before the call that started it returns, so
/// none is left behind, and the answers are the same whatever the
/// setting. Work too small to gain from threads (a batch of at most 256
/// segments, fewer than 16,384 updates, a pair search that queries fewer
/// than 2,048 moved colliders or walks a tree of fewer than 16,384) runs on
/// the calling thread.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_set_thread_count(world: *mut PhysWorld, threads: u32) -> PhysStatus {
    guard(|| {
        let threads = match threads {
            1 => Threads::CallingThread,
            n => Threads::Count(n as usize),
        };
        world_mut(world)?.world.set_threads(threads);
        Ok(())
    })
}

/// Rebuilds the world's tree from scratch (binned SAH): after adding many
/// colliders one by one, as Jolt's `OptimizeBroadPhase`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_optimize(world: *mut PhysWorld) -> PhysStatus {
    guard(|| {
        world_mut(world)?.world.optimize();
        Ok(())
    })
}

/// Bytes the world holds (colliders and every broad-phase structure), in
/// `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_world_memory_bytes(world: *const PhysWorld, out: *mut usize) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        out.write(world_ref(world)?.world.memory_bytes());
        Ok(())
    })
}
