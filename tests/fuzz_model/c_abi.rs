//! The C-ABI target: raw bytes drive the `phys_*` functions exactly as C
//! calls them (raw pointers, NULL and misaligned ones, flags of any value,
//! stale, forged and foreign handles, short buffers, full worlds), over two
//! worlds at once.
//!
//! Each C world has a mirror: a safe-API `World` given the same calls (the
//! world target holds the safe API to its brute-force model). After every
//! call the status must be the one the header promises (a pointer fault,
//! else the safe API's error mapped to its status, else a short buffer),
//! outputs must be written exactly on success (sentinels elsewhere), the
//! values must equal the mirror's with keys mapped to handles, and
//! `PHYS_ERROR_PANIC` is never acceptable.

use core::ffi::c_void;
use std::ffi::CStr;
use std::ptr::{null, null_mut};

use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::Vec3;
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, ConvexHull, Error, Filter, Hit, Obb, Pair, QueryFilter, Shape, Sphere,
    Transform, TriangleMesh, World,
};
use std::sync::Arc;

use super::{same, Input, ShapeSpec};

/// The status of each error of the safe API, as `PhysStatus` documents it.
pub fn status_of(error: Error) -> PhysStatus {
    match error {
        Error::NonFinite(_) => PHYS_ERROR_NON_FINITE,
        Error::InvertedBox(_) => PHYS_ERROR_INVERTED_BOX,
        Error::NegativeRadius => PHYS_ERROR_NEGATIVE_RADIUS,
        Error::StaleHandle => PHYS_ERROR_STALE_HANDLE,
        Error::InvalidArgument(_) => PHYS_ERROR_INVALID_ARGUMENT,
        Error::CapacityExceeded => PHYS_ERROR_CAPACITY_EXCEEDED,
        Error::OutOfMemory(_) => PHYS_ERROR_OUT_OF_MEMORY,
    }
}

fn result_status<T>(result: &Result<T, Error>) -> PhysStatus {
    match result {
        Ok(_) => PHYS_OK,
        Err(e) => status_of(*e),
    }
}

/// How one pointer argument of a call is spoiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    Null,
    Misaligned,
}

impl Fault {
    fn status(self) -> PhysStatus {
        match self {
            Fault::Null => PHYS_ERROR_NULL_POINTER,
            Fault::Misaligned => PHYS_ERROR_INVALID_ARGUMENT,
        }
    }
}

/// Which pointer argument (by position) of the next call is spoiled, if any.
#[derive(Debug, Clone, Copy)]
struct Spoil(Option<(u8, Fault)>);

impl Spoil {
    fn read(input: &mut Input) -> Self {
        let b = input.u8();
        if b < 200 {
            Spoil(None)
        } else {
            let fault = if b & 1 == 0 { Fault::Null } else { Fault::Misaligned };
            Spoil(Some(((b >> 1) % 6, fault)))
        }
    }

    /// The fault of argument `index`, for a pointer to `T` (a type aligned to
    /// one byte cannot be misaligned: it is made NULL instead).
    fn fault<T>(&self, index: u8) -> Option<Fault> {
        match self.0 {
            Some((i, fault)) if i == index => Some(if core::mem::align_of::<T>() == 1 {
                Fault::Null
            } else {
                fault
            }),
            _ => None,
        }
    }

    fn ptr<T>(&self, index: u8, real: *const T) -> *const T {
        match self.fault::<T>(index) {
            None => real,
            Some(Fault::Null) => null(),
            // One byte past an aligned, live object: never dereferenced
            // (the library checks alignment first).
            Some(Fault::Misaligned) => real.cast::<u8>().wrapping_add(1).cast(),
        }
    }

    fn mut_ptr<T>(&self, index: u8, real: *mut T) -> *mut T {
        self.ptr(index, real.cast_const()).cast_mut()
    }
}

/// Asserts a status, and that a failure left a message.
#[track_caller]
fn expect(status: PhysStatus, expected: PhysStatus, what: &str) {
    assert_ne!(status, PHYS_ERROR_PANIC, "{what}: collide panicked: {}", last_error());
    assert_eq!(status, expected, "{what}: {}", last_error());
    if status != PHYS_OK {
        assert!(!last_error().is_empty(), "{what}: a failure without a message");
    }
}

fn last_error() -> String {
    // SAFETY: phys_last_error_message returns a valid NUL-terminated string.
    unsafe { CStr::from_ptr(phys_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// A sentinel no call writes.
fn sentinel_hit() -> PhysHit {
    PhysHit {
        sub_shape: 0xdead,
        collider: PhysCollider { bits: 0xdead_beef },
        user_data: 0xdead,
        t: -7.0,
        point: PhysVec3 { x: 7.0, y: 7.0, z: 7.0 },
        normal: PhysVec3::default(),
    }
}

fn sentinel_pair() -> PhysPair {
    PhysPair {
        a: PhysCollider { bits: 1 },
        user_a: 0xdead,
        b: PhysCollider { bits: 2 },
        user_b: 0xbeef,
    }
}

fn sentinel_ref() -> PhysColliderRef {
    PhysColliderRef {
        collider: PhysCollider { bits: 3 },
        user_data: 0xdead,
    }
}

const SENTINEL_BYTE: u8 = 0xAB;
const SENTINEL_COUNT: usize = usize::MAX - 1;

/// A caller buffer of `capacity` records and its two counters.
struct Buffer<T> {
    records: Vec<T>,
    sentinel: T,
    written: usize,
    total: usize,
}

impl<T: Copy + PartialEq + core::fmt::Debug> Buffer<T> {
    fn new(capacity: usize, sentinel: T) -> Self {
        Self {
            records: vec![sentinel; capacity],
            sentinel,
            written: SENTINEL_COUNT,
            total: SENTINEL_COUNT,
        }
    }

    /// `(out, capacity, written, total)` with the spoil applied to argument
    /// positions `first` (out), `first + 1` (written) and `first + 2` (total).
    fn args(&mut self, spoil: &Spoil, first: u8) -> (*mut T, usize, *mut usize, *mut usize) {
        let capacity = self.records.len();
        let out = if capacity == 0 && spoil.fault::<T>(first).is_none() {
            // An empty buffer may be NULL: C callers pass it so.
            null_mut()
        } else {
            spoil.mut_ptr(first, self.records.as_mut_ptr())
        };
        (
            out,
            capacity,
            spoil.mut_ptr(first + 1, &mut self.written),
            spoil.mut_ptr(first + 2, &mut self.total),
        )
    }

    fn untouched(&self) -> bool {
        self.records.iter().all(|r| *r == self.sentinel)
            && self.written == SENTINEL_COUNT
            && self.total == SENTINEL_COUNT
    }

    /// Checks a `*_into` call: `before` is the status of everything checked
    /// before the buffer (pointer faults of the other arguments, the query's
    /// own error); then the counters' pointers, the records' pointer (when
    /// the capacity is not 0), the size.
    #[track_caller]
    fn check(&self, status: PhysStatus, before: PhysStatus, items: &[T], spoil: &Spoil, first: u8, what: &str) {
        let fault = |i| spoil.fault::<usize>(i);
        let expected = if before != PHYS_OK {
            before
        } else if let Some(f) = fault(first + 1).or(fault(first + 2)) {
            f.status()
        } else if let Some(f) = spoil.fault::<T>(first).filter(|_| !self.records.is_empty()) {
            // `out` is checked whenever the capacity is not 0, whatever the
            // number of records to write.
            f.status()
        } else if items.len() > self.records.len() {
            PHYS_ERROR_BUFFER_TOO_SMALL
        } else {
            PHYS_OK
        };
        expect(status, expected, what);
        match expected {
            PHYS_OK => {
                assert_eq!((self.written, self.total), (items.len(), items.len()), "{what}: counts");
                assert_eq!(&self.records[..items.len()], items, "{what}: records");
                assert!(
                    self.records[items.len()..].iter().all(|r| *r == self.sentinel),
                    "{what}: wrote past the end"
                );
            }
            PHYS_ERROR_BUFFER_TOO_SMALL => {
                assert_eq!(self.total, items.len(), "{what}: total needed");
                assert!(self.written == SENTINEL_COUNT && self.records.iter().all(|r| *r == self.sentinel));
            }
            _ => assert!(self.untouched(), "{what}: wrote outputs on failure"),
        }
    }
}

/// Collects the pairs a callback sees into the `Vec<PhysPair>` behind `ctx`.
unsafe extern "C" fn collect(ctx: *mut c_void, a: PhysCollider, user_a: u64, b: PhysCollider, user_b: u64) {
    // SAFETY: every call below passes a `&mut Vec<PhysPair>` as `ctx`.
    let pairs = unsafe { &mut *ctx.cast::<Vec<PhysPair>>() };
    pairs.push(PhysPair { a, user_a, b, user_b });
}

/// One C world, its mirror, and the handles it handed out with their keys.
struct Side {
    world: *mut PhysWorld,
    mirror: World,
    handles: Vec<(PhysCollider, ColliderKey)>,
}

impl Side {
    fn new(limit: usize) -> Self {
        let mut world = null_mut();
        // SAFETY: a valid out-pointer.
        let status = unsafe { phys_world_create_with_limit(limit, &mut world) };
        expect(status, PHYS_OK, "phys_world_create_with_limit");
        Self {
            world,
            mirror: World::with_max_colliders(limit),
            handles: Vec::new(),
        }
    }

    /// The live key a handle names, if any.
    fn key_of(&self, handle: PhysCollider) -> Option<ColliderKey> {
        self.handles
            .iter()
            .find(|(h, _)| *h == handle)
            .map(|&(_, k)| k)
            .filter(|&k| self.mirror.contains(k))
    }

    /// The handle of a live key.
    fn handle_of(&self, key: ColliderKey) -> PhysCollider {
        self.handles
            .iter()
            .rev()
            .find(|(_, k)| *k == key)
            .map(|&(h, _)| h)
            .expect("every live key was handed out")
    }

    fn issue(&mut self, handle: PhysCollider, key: ColliderKey) {
        assert_ne!(handle.bits, 0, "a live collider got the null handle");
        assert!(
            !self.handles.iter().any(|(h, _)| *h == handle),
            "{handle:?} handed out twice"
        );
        self.handles.push((handle, key));
    }

    fn hit(&self, hit: Hit) -> PhysHit {
        PhysHit {
            sub_shape: hit.sub_shape,
            collider: self.handle_of(hit.collider),
            user_data: hit.user_data,
            t: hit.t,
            point: hit.point.into(),
            normal: hit.normal.into(),
        }
    }

    fn pair(&self, p: &Pair) -> PhysPair {
        PhysPair {
            a: self.handle_of(p.a),
            user_a: p.user_a,
            b: self.handle_of(p.b),
            user_b: p.user_b,
        }
    }

    fn pairs(&self, pairs: &[Pair]) -> Vec<PhysPair> {
        pairs.iter().map(|p| self.pair(p)).collect()
    }

    /// Asserts the C world holds what the mirror holds.
    #[track_caller]
    fn check(&self) {
        let mut count = SENTINEL_COUNT;
        // SAFETY: a live world and a valid out-pointer.
        expect(
            unsafe { phys_world_count(self.world, &mut count) },
            PHYS_OK,
            "phys_world_count",
        );
        assert_eq!(count, self.mirror.len(), "count");
        for (key, collider) in self.mirror.iter() {
            let handle = self.handle_of(key);
            let mut aabb = PhysAabb::default();
            let mut user = 0;
            // SAFETY: as above.
            unsafe {
                expect(
                    phys_get_world_aabb(self.world, handle, &mut aabb),
                    PHYS_OK,
                    "phys_get_world_aabb",
                );
                expect(
                    phys_get_user_data(self.world, handle, &mut user),
                    PHYS_OK,
                    "phys_get_user_data",
                );
                assert!(phys_collider_is_alive(self.world, handle));
            }
            assert_eq!(aabb, PhysAabb::from(*collider.aabb()), "world box");
            assert_eq!(user, collider.user_data(), "user data");
        }
    }
}

impl Drop for Side {
    fn drop(&mut self) {
        // SAFETY: made by phys_world_create_with_limit, not used again.
        unsafe { phys_world_destroy(self.world) };
    }
}

/// The state of the C-ABI target.
pub struct CRun {
    sides: [Side; 2],
    /// Every handle seen, of either world, forged ones and `{0}`.
    handles: Vec<PhysCollider>,
}

fn limit(input: &mut Input) -> usize {
    match input.u8() {
        b @ 0..=31 => usize::from(b % 8),
        _ => usize::MAX,
    }
}

impl CRun {
    pub fn new(input: &mut Input) -> Self {
        Self {
            sides: [Side::new(limit(input)), Side::new(limit(input))],
            handles: vec![PhysCollider { bits: 0 }],
        }
    }

    fn handle(&mut self, input: &mut Input) -> PhysCollider {
        let pick = input.u8();
        if pick < 232 {
            self.handles[usize::from(pick) % self.handles.len()]
        } else {
            let forged = PhysCollider { bits: input.u64() };
            self.handles.push(forged);
            forged
        }
    }

    fn desc(&mut self, input: &mut Input) -> PhysColliderDesc {
        let d = input.desc();
        let flags = match input.u8() {
            0..=223 => u32::from(d.should_rotate),
            _ => input.u32(),
        };
        PhysColliderDesc {
            transform: d.transform.into(),
            user_data: d.user_data,
            category_bits: d.filter.category,
            mask_bits: d.filter.mask,
            flags,
        }
    }

    fn filter(&mut self, input: &mut Input) -> PhysQueryFilter {
        if input.bool() {
            PhysQueryFilter::default()
        } else {
            PhysQueryFilter {
                category_bits: input.bits(),
                mask_bits: input.bits(),
                exclude: self.handle(input),
            }
        }
    }

    /// Runs one step decoded from `input`.
    pub fn step(&mut self, input: &mut Input) {
        let s = usize::from(input.u8() & 1);
        let spoil = Spoil::read(input);
        let op = input.u8();
        if op >= 248 {
            self.set_transforms(s, input, &spoil);
            for side in &self.sides {
                side.check();
            }
            return;
        }
        if op >= 192 {
            self.narrow(s, (op - 192) % 8, input, &spoil);
            for side in &self.sides {
                side.check();
            }
            return;
        }
        match op % 24 {
            0..=2 => self.add(s, input, &spoil),
            3 => self.add_boxes(s, input, &spoil),
            4 => {
                let handle = self.handle(input);
                let side = &mut self.sides[s];
                let world = spoil.mut_ptr(0, side.world);
                // SAFETY: the pointer contract (world live, NULL or misaligned).
                let status = unsafe { phys_remove(world, handle) };
                let expected = match (spoil.fault::<PhysWorld>(0), side.key_of(handle)) {
                    (Some(f), _) => f.status(),
                    (None, None) => PHYS_ERROR_STALE_HANDLE,
                    (None, Some(key)) => result_status(&side.mirror.remove(key)),
                };
                expect(status, expected, "phys_remove");
            }
            5..=7 => self.set(s, input, &spoil),
            8 => self.get(s, input, &spoil),
            9 | 10 => self.cast(s, input, &spoil),
            11 => self.cast_all(s, input, &spoil),
            12 => self.cast_batch(s, input, &spoil),
            13 => self.overlap(s, input, &spoil),
            14 | 15 => self.pairs_callback(s, input, &spoil),
            16 | 17 => self.pairs_into(s, input, &spoil),
            18 => self.events(s, input, &spoil),
            19 => {
                let side = &mut self.sides[s];
                // SAFETY: the pointer contract.
                let status = unsafe { phys_world_optimize(spoil.mut_ptr(0, side.world)) };
                match spoil.fault::<PhysWorld>(0) {
                    Some(f) => expect(status, f.status(), "phys_world_optimize"),
                    None => {
                        expect(status, PHYS_OK, "phys_world_optimize");
                        side.mirror.optimize();
                    }
                }
            }
            20 => {
                let side = &self.sides[s];
                let mut count = SENTINEL_COUNT;
                let mut bytes = SENTINEL_COUNT;
                let world = spoil.ptr(0, side.world.cast_const());
                // SAFETY: the pointer contract.
                let (a, b) = unsafe {
                    (
                        phys_world_count(world, spoil.mut_ptr(1, &mut count)),
                        phys_world_memory_bytes(world, spoil.mut_ptr(1, &mut bytes)),
                    )
                };
                match spoil.fault::<PhysWorld>(0).or(spoil.fault::<usize>(1)) {
                    Some(f) => {
                        expect(a, f.status(), "phys_world_count");
                        expect(b, f.status(), "phys_world_memory_bytes");
                        assert_eq!((count, bytes), (SENTINEL_COUNT, SENTINEL_COUNT));
                    }
                    None => {
                        expect(a, PHYS_OK, "phys_world_count");
                        expect(b, PHYS_OK, "phys_world_memory_bytes");
                        assert_eq!(count, side.mirror.len());
                    }
                }
            }
            21 => {
                let handle = self.handle(input);
                let side = &self.sides[s];
                let world = spoil.ptr(0, side.world.cast_const());
                // SAFETY: the pointer contract.
                let alive = unsafe { phys_collider_is_alive(world, handle) };
                let expected = spoil.fault::<PhysWorld>(0).is_none() && side.key_of(handle).is_some();
                assert_eq!(alive, expected, "phys_collider_is_alive");
            }
            22 => {
                let code = if input.bool() {
                    input.u32()
                } else {
                    u32::from(input.u8() % 12)
                };
                // SAFETY: phys_status_string returns a static NUL-terminated string.
                let text = unsafe { CStr::from_ptr(phys_status_string(code)) };
                assert!(!text.to_bytes().is_empty());
                // SAFETY: as above.
                let version = unsafe { CStr::from_ptr(phys_version()) }.to_str().expect("ASCII");
                let parts: Vec<u32> = version.split('.').map(|p| p.parse().expect("a number")).collect();
                assert_eq!(phys_version_number(), (parts[0] << 16) | (parts[1] << 8) | parts[2]);
            }
            _ => {
                // A new world in place of this one: its old handles become
                // foreign to it (they stay in the pool).
                let limit = limit(input);
                self.sides[s] = Side::new(limit);
            }
        }
        for side in &self.sides {
            side.check();
        }
    }

    fn add(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let spec = input.shape_spec();
        let desc = self.desc(input);
        let use_desc = input.u8() % 4 != 0;
        let counts = input.u8();
        let side = &mut self.sides[s];
        let world = spoil.mut_ptr(0, side.world);
        let desc_ptr = spoil.ptr(2, if use_desc { &desc } else { null() });
        let mut out = PhysCollider { bits: 0xdead };
        let out_ptr = spoil.mut_ptr(3, &mut out);
        // SAFETY: the pointer contract; every array holds at least its
        // count of records (a count beyond `isize::MAX` bytes is refused
        // before anything is read).
        let (status, name, shape_fault, shape) = unsafe { add_shape(&spec, counts, world, desc_ptr, out_ptr, spoil) };
        let desc_fault = spoil.fault::<PhysColliderDesc>(2).filter(|f| *f == Fault::Misaligned);
        let desc = match (use_desc, spoil.fault::<PhysColliderDesc>(2)) {
            (true, None) => desc,
            _ => PhysColliderDesc::default(),
        };
        // The shape is read (and built) first, then the other pointers.
        let expected = if let Some(f) = shape_fault {
            f.status()
        } else if let Err(status) = shape {
            status
        } else if let Some(f) = spoil
            .fault::<PhysWorld>(0)
            .or(spoil.fault::<PhysCollider>(3))
            .or(desc_fault)
        {
            f.status()
        } else if desc.flags & !PHYS_COLLIDER_ALL_FLAGS != 0 {
            PHYS_ERROR_INVALID_ARGUMENT
        } else {
            let result = side.mirror.add(mirror_desc(shape.expect("built"), &desc));
            if let Ok(key) = result {
                side.issue(out, key);
                self.handles.push(out);
            }
            result_status(&result)
        };
        expect(status, expected, name);
        if expected != PHYS_OK {
            assert_eq!(out.bits, 0xdead, "{name} wrote its output on failure");
        }
    }

    fn add_boxes(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let count = usize::from(input.u8() % 6);
        let mut boxes = Vec::new();
        let mut descs = Vec::new();
        for _ in 0..count {
            let min = input.vec3();
            let max = if input.u8() % 8 == 0 {
                input.vec3()
            } else {
                min + input.size3()
            };
            boxes.push(PhysAabb {
                min: min.into(),
                max: max.into(),
            });
            descs.push(self.desc(input));
        }
        let use_descs = input.bool();
        let side = &mut self.sides[s];
        let mut out = vec![PhysCollider { bits: 0xdead }; count];
        let world = spoil.mut_ptr(0, side.world);
        let boxes_ptr = spoil.ptr(1, if count == 0 { null() } else { boxes.as_ptr() });
        let descs_ptr = spoil.ptr(2, if use_descs && count > 0 { descs.as_ptr() } else { null() });
        let out_ptr = spoil.mut_ptr(3, if count == 0 { null_mut() } else { out.as_mut_ptr() });
        // SAFETY: the pointer contract: each array holds `count` records.
        let status = unsafe { phys_add_boxes(world, boxes_ptr, descs_ptr, count, out_ptr) };
        let expected = if let Some(f) = spoil.fault::<PhysWorld>(0) {
            f.status()
        } else if count == 0 {
            PHYS_OK
        } else if let Some(f) = spoil
            .fault::<PhysAabb>(1)
            .or(spoil.fault::<PhysCollider>(3))
            .or(spoil.fault::<PhysColliderDesc>(2).filter(|f| *f == Fault::Misaligned))
        {
            f.status()
        } else {
            let descs: Vec<PhysColliderDesc> = if use_descs && spoil.fault::<PhysColliderDesc>(2).is_none() {
                descs
            } else {
                vec![PhysColliderDesc::default(); count]
            };
            if descs.iter().any(|d| d.flags & !PHYS_COLLIDER_ALL_FLAGS != 0) {
                PHYS_ERROR_INVALID_ARGUMENT
            } else {
                let result = side.mirror.extend(
                    boxes
                        .iter()
                        .zip(&descs)
                        .map(|(b, d)| mirror_desc(Shape::Aabb(Aabb::from(*b)), d)),
                );
                if let Ok(keys) = &result {
                    for (&handle, &key) in out.iter().zip(keys) {
                        side.issue(handle, key);
                        self.handles.push(handle);
                    }
                }
                result_status(&result)
            }
        };
        expect(status, expected, "phys_add_boxes");
        if expected != PHYS_OK {
            assert!(out.iter().all(|h| h.bits == 0xdead), "phys_add_boxes wrote on failure");
        }
    }

    fn set(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let handle = self.handle(input);
        let which = input.u8() % 7;
        let transform = input.transform();
        let shape = input.shape();
        let number = input.u64();
        let bits = (input.bits(), input.bits());
        let should_rotate = input.bool();
        let side = &mut self.sides[s];
        let world = spoil.mut_ptr(0, side.world);
        let t = PhysTransform::from(transform);
        let b = PhysAabb {
            min: bounding_min(&shape).into(),
            max: bounding_max(&shape).into(),
        };
        let (sphere, capsule) = (
            PhysSphere {
                center: sphere_of(&shape).center.into(),
                radius: sphere_of(&shape).radius,
            },
            PhysCapsule {
                segment: PhysSegment {
                    start: capsule_of(&shape).segment.start.into(),
                    end: capsule_of(&shape).segment.end.into(),
                },
                radius: capsule_of(&shape).radius,
            },
        );
        // SAFETY: the pointer contract.
        let (status, pointer_fault, name) = unsafe {
            match which {
                0 => (
                    phys_set_transform(world, handle, spoil.ptr(1, &t)),
                    spoil.fault::<PhysTransform>(1),
                    "phys_set_transform",
                ),
                1 => (
                    phys_set_box(world, handle, spoil.ptr(1, &b)),
                    spoil.fault::<PhysAabb>(1),
                    "phys_set_box",
                ),
                2 => (
                    phys_set_sphere(world, handle, spoil.ptr(1, &sphere)),
                    spoil.fault::<PhysSphere>(1),
                    "phys_set_sphere",
                ),
                3 => (
                    phys_set_capsule(world, handle, spoil.ptr(1, &capsule)),
                    spoil.fault::<PhysCapsule>(1),
                    "phys_set_capsule",
                ),
                4 => (phys_set_user_data(world, handle, number), None, "phys_set_user_data"),
                5 => (phys_set_filter(world, handle, bits.0, bits.1), None, "phys_set_filter"),
                _ => (
                    phys_set_should_rotate(world, handle, should_rotate),
                    None,
                    "phys_set_should_rotate",
                ),
            }
        };
        let expected = if let Some(f) = spoil.fault::<PhysWorld>(0).or(pointer_fault) {
            f.status()
        } else if let Some(key) = side.key_of(handle) {
            let m = &mut side.mirror;
            result_status(&match which {
                0 => m.set_transform(key, t.into()),
                1 => m.set_shape(key, Shape::Aabb(b.into())),
                2 => m.set_shape(key, Shape::Sphere(sphere.into())),
                3 => m.set_shape(key, Shape::Capsule(capsule.into())),
                4 => m.set_user_data(key, number),
                5 => m.set_filter(
                    key,
                    Filter {
                        category: bits.0,
                        mask: bits.1,
                    },
                ),
                _ => m.set_should_rotate(key, should_rotate),
            })
        } else {
            PHYS_ERROR_STALE_HANDLE
        };
        expect(status, expected, name);
    }

    /// `phys_set_transforms` with 0–5 entries (any handles: live, removed,
    /// the other world's, forged), against the mirror's `set_transforms`
    /// with the handles' keys (the null key, `ColliderKey::default()`, for
    /// a handle this side never issued: stale in its place, as the C side
    /// treats it).
    fn set_transforms(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let count = usize::from(input.u8() % 6);
        let mut handles = Vec::new();
        let mut transforms = Vec::new();
        for _ in 0..count {
            handles.push(self.handle(input));
            transforms.push(PhysTransform::from(input.transform()));
        }
        let side = &mut self.sides[s];
        let world = spoil.mut_ptr(0, side.world);
        let handles_ptr = spoil.ptr(1, if count == 0 { null() } else { handles.as_ptr() });
        let transforms_ptr = spoil.ptr(2, if count == 0 { null() } else { transforms.as_ptr() });
        // SAFETY: the pointer contract: each array holds `count` records.
        let status = unsafe { phys_set_transforms(world, handles_ptr, transforms_ptr, count) };
        let expected = if let Some(f) = spoil.fault::<PhysWorld>(0) {
            f.status()
        } else if count == 0 {
            PHYS_OK
        } else if let Some(f) = spoil.fault::<PhysCollider>(1).or(spoil.fault::<PhysTransform>(2)) {
            f.status()
        } else {
            let updates: Vec<(ColliderKey, Transform)> = handles
                .iter()
                .zip(&transforms)
                .map(|(h, t)| {
                    let key = side.handles.iter().find(|(issued, _)| issued == h).map(|&(_, k)| k);
                    (key.unwrap_or_default(), Transform::from(*t))
                })
                .collect();
            result_status(&side.mirror.set_transforms(&updates))
        };
        expect(status, expected, "phys_set_transforms");
    }

    fn get(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let handle = self.handle(input);
        let side = &self.sides[s];
        let world = spoil.ptr(0, side.world.cast_const());
        let mut user = 0xdead_u64;
        let mut aabb = PhysAabb {
            min: PhysVec3 { x: 9.0, y: 9.0, z: 9.0 },
            max: PhysVec3::default(),
        };
        let mut transform = PhysTransform::default();
        // SAFETY: the pointer contract.
        let statuses = unsafe {
            [
                phys_get_user_data(world, handle, spoil.mut_ptr(1, &mut user)),
                phys_get_world_aabb(world, handle, spoil.mut_ptr(1, &mut aabb)),
                phys_get_transform(world, handle, spoil.mut_ptr(1, &mut transform)),
            ]
        };
        let faults = [
            spoil.fault::<u64>(1),
            spoil.fault::<PhysAabb>(1),
            spoil.fault::<PhysTransform>(1),
        ];
        let collider = side.key_of(handle).and_then(|k| side.mirror.get(k));
        for (i, (status, fault)) in statuses.into_iter().zip(faults).enumerate() {
            let expected = match (spoil.fault::<PhysWorld>(0).or(fault), collider) {
                (Some(f), _) => f.status(),
                (None, None) => PHYS_ERROR_STALE_HANDLE,
                (None, Some(_)) => PHYS_OK,
            };
            expect(
                status,
                expected,
                ["phys_get_user_data", "phys_get_world_aabb", "phys_get_transform"][i],
            );
            match (expected, collider, i) {
                (PHYS_OK, Some(c), 0) => assert_eq!(user, c.user_data()),
                (PHYS_OK, Some(c), 1) => assert_eq!(aabb, PhysAabb::from(*c.aabb())),
                (PHYS_OK, Some(c), _) => assert_eq!(transform, PhysTransform::from(c.transform())),
                (_, _, 0) => assert_eq!(user, 0xdead),
                (_, _, 1) => assert_eq!(aabb.min.x, 9.0),
                _ => assert_eq!(transform, PhysTransform::default()),
            }
        }
    }

    fn mirror_filter(&self, s: usize, filter: &PhysQueryFilter) -> QueryFilter {
        QueryFilter {
            category: filter.category_bits,
            mask: filter.mask_bits,
            exclude: self.sides[s].key_of(filter.exclude),
        }
    }

    /// The filter argument at position `index`: `Some` (read) or NULL (the
    /// default), and the pointer fault it gives (a misaligned filter).
    fn filter_arg(&mut self, input: &mut Input, spoil: &Spoil, index: u8) -> (PhysQueryFilter, bool, Option<Fault>) {
        let filter = self.filter(input);
        let given = input.u8() % 4 != 0;
        let fault = spoil.fault::<PhysQueryFilter>(index);
        let used = if given && fault.is_none() {
            filter
        } else {
            PhysQueryFilter::default()
        };
        // NULL means the default filter; only a misaligned pointer is refused.
        (used, given, fault.filter(|f| *f == Fault::Misaligned))
    }

    fn cast(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let segment = input.segment();
        let (filter, given, filter_fault) = self.filter_arg(input, spoil, 2);
        let any = input.bool();
        let seg = PhysSegment {
            start: segment.start.into(),
            end: segment.end.into(),
        };
        let query = self.mirror_filter(s, &filter);
        let side = &self.sides[s];
        let mut hit_byte = SENTINEL_BYTE;
        let mut out = sentinel_hit();
        let filter_ptr = spoil.ptr(2, if given { &filter } else { null() });
        let args = (
            spoil.ptr(0, side.world.cast_const()),
            spoil.ptr(1, &seg),
            filter_ptr,
            spoil.mut_ptr(3, (&mut hit_byte as *mut u8).cast::<bool>()),
            spoil.mut_ptr(4, &mut out),
        );
        // SAFETY: the pointer contract.
        let status = unsafe {
            if any {
                phys_segment_cast_any(args.0, args.1, args.2, args.3, args.4)
            } else {
                phys_segment_cast(args.0, args.1, args.2, args.3, args.4)
            }
        };
        let name = if any {
            "phys_segment_cast_any"
        } else {
            "phys_segment_cast"
        };
        let fault = spoil
            .fault::<PhysWorld>(0)
            .or(spoil.fault::<PhysSegment>(1))
            .or(filter_fault)
            .or(spoil.fault::<bool>(3))
            .or(spoil.fault::<PhysHit>(4));
        if let Some(f) = fault {
            expect(status, f.status(), name);
            return assert!(
                hit_byte == SENTINEL_BYTE && out == sentinel_hit(),
                "{name} wrote on failure"
            );
        }
        let result = if any {
            side.mirror.segment_cast_any(&segment, &query)
        } else {
            side.mirror.segment_cast(&segment, &query)
        };
        expect(status, result_status(&result), name);
        match result {
            Err(_) => assert!(
                hit_byte == SENTINEL_BYTE && out == sentinel_hit(),
                "{name} wrote on failure"
            ),
            Ok(None) => assert!(hit_byte == 0 && out == sentinel_hit(), "{name}: a miss"),
            Ok(Some(hit)) => {
                assert_eq!(hit_byte, 1, "{name}: a hit");
                if any {
                    // Any hit will do: it must be one the closest-hit cast
                    // of that collider alone would give.
                    let key = side.key_of(out.collider).expect("a live collider");
                    let exact = side
                        .mirror
                        .get(key)
                        .unwrap()
                        .world_shape()
                        .cast_segment(&segment)
                        .unwrap();
                    assert_eq!((out.t, Vec3::from(out.normal)), (exact.t, exact.normal), "{name}");
                } else {
                    assert_eq!(out, side.hit(hit), "{name}");
                }
            }
        }
    }

    fn cast_all(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let segment = input.segment();
        let (filter, given, filter_fault) = self.filter_arg(input, spoil, 2);
        let capacity = usize::from(input.u8() % 6);
        let seg = PhysSegment {
            start: segment.start.into(),
            end: segment.end.into(),
        };
        let query = self.mirror_filter(s, &filter);
        let side = &self.sides[s];
        let mut buffer = Buffer::new(capacity, sentinel_hit());
        let (out, capacity, written, total) = buffer.args(spoil, 3);
        // SAFETY: the pointer contract; `out` holds `capacity` records.
        let status = unsafe {
            phys_segment_cast_all(
                spoil.ptr(0, side.world.cast_const()),
                spoil.ptr(1, &seg),
                spoil.ptr(2, if given { &filter } else { null() }),
                out,
                capacity,
                written,
                total,
            )
        };
        let (before, items) = match spoil
            .fault::<PhysWorld>(0)
            .or(spoil.fault::<PhysSegment>(1))
            .or(filter_fault)
        {
            Some(f) => (f.status(), Vec::new()),
            None => {
                let mut hits = Vec::new();
                let result = side.mirror.segment_cast_all(&segment, &query, &mut hits);
                (result_status(&result), hits.into_iter().map(|h| side.hit(h)).collect())
            }
        };
        buffer.check(status, before, &items, spoil, 3, "phys_segment_cast_all");
    }

    fn cast_batch(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let count = usize::from(input.u8() % 5);
        let segments: Vec<_> = (0..count).map(|_| input.segment()).collect();
        let (filter, given, filter_fault) = self.filter_arg(input, spoil, 2);
        let query = self.mirror_filter(s, &filter);
        let side = &self.sides[s];
        let c_segments: Vec<PhysSegment> = segments
            .iter()
            .map(|sg| PhysSegment {
                start: sg.start.into(),
                end: sg.end.into(),
            })
            .collect();
        let mut hit_bytes = vec![SENTINEL_BYTE; count];
        let mut out = vec![sentinel_hit(); count];
        let or_null = |p: *const PhysSegment| if count == 0 { null() } else { p };
        // SAFETY: the pointer contract; each array holds `count` records.
        let status = unsafe {
            phys_segment_cast_batch(
                spoil.ptr(0, side.world.cast_const()),
                spoil.ptr(1, or_null(c_segments.as_ptr())),
                count,
                spoil.ptr(2, if given { &filter } else { null() }),
                spoil.mut_ptr(
                    3,
                    if count == 0 {
                        null_mut()
                    } else {
                        hit_bytes.as_mut_ptr().cast::<bool>()
                    },
                ),
                spoil.mut_ptr(4, if count == 0 { null_mut() } else { out.as_mut_ptr() }),
            )
        };
        let untouched =
            |b: &[u8], o: &[PhysHit]| b.iter().all(|&x| x == SENTINEL_BYTE) && o.iter().all(|h| *h == sentinel_hit());
        let fault = spoil.fault::<PhysWorld>(0).or(filter_fault).or(if count == 0 {
            None
        } else {
            spoil
                .fault::<PhysSegment>(1)
                .or(spoil.fault::<bool>(3))
                .or(spoil.fault::<PhysHit>(4))
        });
        if let Some(f) = fault {
            expect(status, f.status(), "phys_segment_cast_batch");
            return assert!(untouched(&hit_bytes, &out), "phys_segment_cast_batch wrote on failure");
        }
        let mut hits = vec![None; count];
        let result = side.mirror.segment_cast_batch(&segments, &query, &mut hits);
        expect(status, result_status(&result), "phys_segment_cast_batch");
        if result.is_err() {
            return assert!(untouched(&hit_bytes, &out), "phys_segment_cast_batch wrote on failure");
        }
        for i in 0..count {
            match hits[i] {
                None => assert!(hit_bytes[i] == 0 && out[i] == sentinel_hit(), "batch miss {i}"),
                Some(hit) => assert!(hit_bytes[i] == 1 && out[i] == side.hit(hit), "batch hit {i}"),
            }
        }
    }

    fn overlap(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        // The C ABI overlaps boxes, spheres, capsules and oriented boxes.
        let shape = match input.shape() {
            shape @ (Shape::Aabb(_) | Shape::Sphere(_) | Shape::Capsule(_) | Shape::Obb(_)) => shape,
            other => Shape::Aabb(other.bounding_aabb()),
        };
        let (filter, given, filter_fault) = self.filter_arg(input, spoil, 2);
        let capacity = usize::from(input.u8() % 6);
        let query = self.mirror_filter(s, &filter);
        let side = &self.sides[s];
        let mut buffer = Buffer::new(capacity, sentinel_ref());
        let (out, capacity, written, total) = buffer.args(spoil, 3);
        let world = spoil.ptr(0, side.world.cast_const());
        let filter_ptr = spoil.ptr(2, if given { &filter } else { null() });
        // SAFETY: the pointer contract; `out` holds `capacity` records.
        let (status, shape_fault) = unsafe {
            match shape {
                Shape::Aabb(b) => {
                    let b = PhysAabb::from(b);
                    (
                        phys_overlap_box(world, spoil.ptr(1, &b), filter_ptr, out, capacity, written, total),
                        spoil.fault::<PhysAabb>(1),
                    )
                }
                Shape::Sphere(sp) => {
                    let sp = PhysSphere {
                        center: sp.center.into(),
                        radius: sp.radius,
                    };
                    (
                        phys_overlap_sphere(world, spoil.ptr(1, &sp), filter_ptr, out, capacity, written, total),
                        spoil.fault::<PhysSphere>(1),
                    )
                }
                Shape::Capsule(c) => {
                    let c = PhysCapsule {
                        segment: PhysSegment {
                            start: c.segment.start.into(),
                            end: c.segment.end.into(),
                        },
                        radius: c.radius,
                    };
                    (
                        phys_overlap_capsule(world, spoil.ptr(1, &c), filter_ptr, out, capacity, written, total),
                        spoil.fault::<PhysCapsule>(1),
                    )
                }
                Shape::Obb(o) => {
                    let o = phys_obb(&o);
                    (
                        phys_overlap_obb(world, spoil.ptr(1, &o), filter_ptr, out, capacity, written, total),
                        spoil.fault::<PhysObb>(1),
                    )
                }
                _ => unreachable!("made a box above"),
            }
        };
        let (before, items) = match shape_fault.or(spoil.fault::<PhysWorld>(0)).or(filter_fault) {
            Some(f) => (f.status(), Vec::new()),
            None => {
                let mut found = Vec::new();
                let result = side.mirror.intersections_with_shape(&shape, &query, |key, c| {
                    found.push(PhysColliderRef {
                        collider: side.handle_of(key),
                        user_data: c.user_data(),
                    })
                });
                (result_status(&result), found)
            }
        };
        buffer.check(status, before, &items, spoil, 3, "phys_overlap_*");
    }

    fn pairs_callback(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let which = input.u8() % 3;
        let side = &mut self.sides[s];
        let mut got: Vec<PhysPair> = Vec::new();
        let callback: PhysPairCallback = if spoil.fault::<u8>(1).is_some() {
            None
        } else {
            Some(collect)
        };
        let ctx = (&mut got as *mut Vec<PhysPair>).cast::<c_void>();
        let world = spoil.mut_ptr(0, side.world);
        // SAFETY: the pointer contract; `collect` takes this `ctx`.
        let status = unsafe {
            match which {
                0 => phys_test_pairwise(world, callback, ctx),
                1 => phys_test_sweep_and_prune(world, callback, ctx),
                _ => phys_find_pairs(world, callback, ctx),
            }
        };
        let name = ["phys_test_pairwise", "phys_test_sweep_and_prune", "phys_find_pairs"][usize::from(which)];
        let fault = if callback.is_none() {
            Some(Fault::Null)
        } else {
            spoil.fault::<PhysWorld>(0)
        };
        if let Some(f) = fault {
            expect(status, f.status(), name);
            return assert!(got.is_empty(), "{name} called back on failure");
        }
        expect(status, PHYS_OK, name);
        let expected = match which {
            0 => {
                let mut pairs = Vec::new();
                side.mirror.test_pairwise(|p| pairs.push(p));
                pairs
            }
            1 => side.mirror.pairs_sweep_and_prune().to_vec(),
            _ => side.mirror.pairs().to_vec(),
        };
        assert_eq!(got, side.pairs(&expected), "{name}");
    }

    fn pairs_into(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let which = input.u8() % 3;
        let capacity = usize::from(input.u8() % 6);
        let side = &mut self.sides[s];
        let mut buffer = Buffer::new(capacity, sentinel_pair());
        let (out, capacity, written, total) = buffer.args(spoil, 1);
        let world = spoil.mut_ptr(0, side.world);
        // SAFETY: the pointer contract; `out` holds `capacity` records.
        let status = unsafe {
            match which {
                0 => phys_test_pairwise_into(world, out, capacity, written, total),
                1 => phys_test_sweep_and_prune_into(world, out, capacity, written, total),
                _ => phys_find_pairs_into(world, out, capacity, written, total),
            }
        };
        let name = [
            "phys_test_pairwise_into",
            "phys_test_sweep_and_prune_into",
            "phys_find_pairs_into",
        ][usize::from(which)];
        let (before, items) = match spoil.fault::<PhysWorld>(0) {
            Some(f) => (f.status(), Vec::new()),
            None => {
                let pairs = match which {
                    0 => {
                        let mut pairs = Vec::new();
                        side.mirror.test_pairwise(|p| pairs.push(p));
                        pairs
                    }
                    1 => side.mirror.pairs_sweep_and_prune().to_vec(),
                    _ => side.mirror.pairs().to_vec(),
                };
                (PHYS_OK, side.pairs(&pairs))
            }
        };
        buffer.check(status, before, &items, spoil, 1, name);
    }

    fn events(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let side = &mut self.sides[s];
        match input.u8() % 3 {
            0 => {
                let (mut began, mut ended) = (SENTINEL_COUNT, SENTINEL_COUNT);
                // SAFETY: the pointer contract.
                let status = unsafe {
                    phys_update_pair_events(
                        spoil.mut_ptr(0, side.world),
                        spoil.mut_ptr(1, &mut began),
                        spoil.mut_ptr(2, &mut ended),
                    )
                };
                match spoil
                    .fault::<PhysWorld>(0)
                    .or(spoil.fault::<usize>(1))
                    .or(spoil.fault::<usize>(2))
                {
                    Some(f) => {
                        expect(status, f.status(), "phys_update_pair_events");
                        assert_eq!((began, ended), (SENTINEL_COUNT, SENTINEL_COUNT));
                    }
                    None => {
                        expect(status, PHYS_OK, "phys_update_pair_events");
                        let events = side.mirror.pair_events();
                        assert_eq!((began, ended), (events.began.len(), events.ended.len()));
                    }
                }
            }
            which => {
                let capacity = usize::from(input.u8() % 6);
                let mut buffer = Buffer::new(capacity, sentinel_pair());
                let (out, capacity, written, total) = buffer.args(spoil, 1);
                let world = spoil.ptr(0, side.world.cast_const());
                // SAFETY: the pointer contract; `out` holds `capacity` records.
                let status = unsafe {
                    if which == 1 {
                        phys_pair_events_began(world, out, capacity, written, total)
                    } else {
                        phys_pair_events_ended(world, out, capacity, written, total)
                    }
                };
                let (before, items) = match spoil.fault::<PhysWorld>(0) {
                    Some(f) => (f.status(), Vec::new()),
                    None => {
                        let events = side.mirror.last_pair_events();
                        let pairs = if which == 1 { events.began } else { events.ended };
                        // Ended pairs may name removed colliders: map by the
                        // handle each key had.
                        let items = pairs
                            .iter()
                            .map(|p| PhysPair {
                                a: handle_ever(side, p.a),
                                user_a: p.user_a,
                                b: handle_ever(side, p.b),
                                user_b: p.user_b,
                            })
                            .collect();
                        (PHYS_OK, items)
                    }
                };
                buffer.check(status, before, &items, spoil, 1, "phys_pair_events_*");
            }
        }
    }
}

impl CRun {
    /// One step of the narrow phase's functions (`src/ffi/narrow.rs`).
    fn narrow(&mut self, s: usize, which: u8, input: &mut Input, spoil: &Spoil) {
        match which {
            0 | 1 => self.shape_cast(s, input, spoil),
            2 => self.closest_point(s, input, spoil),
            3 | 4 => self.distance_or_contact(s, which == 3, input, spoil),
            5 => self.move_and_slide(s, input, spoil),
            6 => self.overlap(s, input, spoil),
            _ => self.add(s, input, spoil),
        }
    }

    /// `phys_shape_cast_sphere`, `_capsule` or `_box`: pointers world 0,
    /// shape 1, filter 2, out_hit 3, out 4, motion 5.
    fn shape_cast(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let kind = input.u8() % 3;
        let shape = input.shape();
        let motion = input.vec3();
        let (filter, given, filter_fault) = self.filter_arg(input, spoil, 2);
        let query = self.mirror_filter(s, &filter);
        let side = &self.sides[s];
        let m = PhysVec3::from(motion);
        let mut hit_byte = SENTINEL_BYTE;
        let mut out = sentinel_shape_hit();
        let world = spoil.ptr(0, side.world.cast_const());
        let filter_ptr = spoil.ptr(2, if given { &filter } else { null() });
        let motion_ptr = spoil.ptr(5, &m);
        let out_hit = spoil.mut_ptr(3, (&mut hit_byte as *mut u8).cast::<bool>());
        let out_ptr = spoil.mut_ptr(4, &mut out);
        // SAFETY: the pointer contract.
        let (status, shape_fault, moving, name) = unsafe {
            match kind {
                0 => {
                    let sp = sphere_of(&shape);
                    let c = PhysSphere {
                        center: sp.center.into(),
                        radius: sp.radius,
                    };
                    (
                        phys_shape_cast_sphere(world, spoil.ptr(1, &c), motion_ptr, filter_ptr, out_hit, out_ptr),
                        spoil.fault::<PhysSphere>(1),
                        Shape::Sphere(sp),
                        "phys_shape_cast_sphere",
                    )
                }
                1 => {
                    let cap = capsule_of(&shape);
                    let c = phys_capsule(&cap);
                    (
                        phys_shape_cast_capsule(world, spoil.ptr(1, &c), motion_ptr, filter_ptr, out_hit, out_ptr),
                        spoil.fault::<PhysCapsule>(1),
                        Shape::Capsule(cap),
                        "phys_shape_cast_capsule",
                    )
                }
                _ => {
                    let b = Aabb::new(bounding_min(&shape), bounding_max(&shape));
                    let c = PhysAabb::from(b);
                    (
                        phys_shape_cast_box(world, spoil.ptr(1, &c), motion_ptr, filter_ptr, out_hit, out_ptr),
                        spoil.fault::<PhysAabb>(1),
                        Shape::Aabb(b),
                        "phys_shape_cast_box",
                    )
                }
            }
        };
        let untouched = |byte: u8, out: &PhysShapeHit| byte == SENTINEL_BYTE && *out == sentinel_shape_hit();
        let fault = shape_fault
            .or(spoil.fault::<bool>(3))
            .or(spoil.fault::<PhysShapeHit>(4))
            .or(spoil.fault::<PhysWorld>(0))
            .or(spoil.fault::<PhysVec3>(5))
            .or(filter_fault);
        if let Some(f) = fault {
            expect(status, f.status(), name);
            return assert!(untouched(hit_byte, &out), "{name} wrote on failure");
        }
        let result = side.mirror.cast_shape(&moving, motion, &query);
        expect(status, result_status(&result), name);
        match result {
            Err(_) => assert!(untouched(hit_byte, &out), "{name} wrote on failure"),
            Ok(None) => assert!(hit_byte == 0 && out == sentinel_shape_hit(), "{name}: a miss"),
            Ok(Some(hit)) => {
                assert_eq!(hit_byte, 1, "{name}: a hit");
                let expected = PhysShapeHit {
                    sub_shape: hit.sub_shape,
                    collider: side.handle_of(hit.collider),
                    user_data: hit.user_data,
                    t: hit.t,
                    point: hit.point.into(),
                    normal: hit.normal.into(),
                };
                assert!(same(&out, &expected), "{name}: {out:?}, the mirror says {expected:?}");
            }
        }
    }

    /// `phys_closest_point`: pointers world 0, point 1, filter 2, out_hit
    /// 3, out 4.
    fn closest_point(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let point = input.vec3();
        let max_distance = input.max_distance();
        let (filter, given, filter_fault) = self.filter_arg(input, spoil, 2);
        let query = self.mirror_filter(s, &filter);
        let side = &self.sides[s];
        let p = PhysVec3::from(point);
        let mut hit_byte = SENTINEL_BYTE;
        let mut out = sentinel_closest();
        // SAFETY: the pointer contract.
        let status = unsafe {
            phys_closest_point(
                spoil.ptr(0, side.world.cast_const()),
                spoil.ptr(1, &p),
                max_distance,
                spoil.ptr(2, if given { &filter } else { null() }),
                spoil.mut_ptr(3, (&mut hit_byte as *mut u8).cast::<bool>()),
                spoil.mut_ptr(4, &mut out),
            )
        };
        let name = "phys_closest_point";
        let untouched = |byte: u8, out: &PhysClosest| byte == SENTINEL_BYTE && *out == sentinel_closest();
        let fault = spoil
            .fault::<bool>(3)
            .or(spoil.fault::<PhysClosest>(4))
            .or(spoil.fault::<PhysWorld>(0))
            .or(spoil.fault::<PhysVec3>(1))
            .or(filter_fault);
        if let Some(f) = fault {
            expect(status, f.status(), name);
            return assert!(untouched(hit_byte, &out), "{name} wrote on failure");
        }
        let result = side.mirror.project_point(point, max_distance, &query);
        expect(status, result_status(&result), name);
        match result {
            Err(_) => assert!(untouched(hit_byte, &out), "{name} wrote on failure"),
            Ok(None) => assert!(hit_byte == 0 && out == sentinel_closest(), "{name}: none"),
            Ok(Some((key, d))) => {
                assert_eq!(hit_byte, 1, "{name}: found");
                let expected = PhysClosest {
                    collider: side.handle_of(key),
                    user_data: side.mirror.get(key).expect("live").user_data(),
                    distance: d.into(),
                };
                assert!(same(&out, &expected), "{name}: {out:?}, the mirror says {expected:?}");
            }
        }
    }

    /// `phys_distance` (pointers world 0, out 1), `phys_contact_manifold`
    /// or `phys_contact` (world 0, out_touching 1, out 2) of two handles:
    /// any, or live ones.
    fn distance_or_contact(&mut self, s: usize, distance: bool, input: &mut Input, spoil: &Spoil) {
        let (a, b) = if input.bool() {
            let side = &self.sides[s];
            let live: Vec<PhysCollider> = side.mirror.iter().map(|(k, _)| side.handle_of(k)).collect();
            let pick = |input: &mut Input| {
                let i = usize::from(input.u8());
                live.get(i % live.len().max(1)).copied().unwrap_or_default()
            };
            (pick(input), pick(input))
        } else {
            (self.handle(input), self.handle(input))
        };
        let side = &self.sides[s];
        let world = spoil.ptr(0, side.world.cast_const());
        let keys = side.key_of(a).zip(side.key_of(b));
        if distance {
            let mut out = sentinel_distance();
            // SAFETY: the pointer contract.
            let status = unsafe { phys_distance(world, a, b, spoil.mut_ptr(1, &mut out)) };
            let expected = match (spoil.fault::<PhysDistance>(1).or(spoil.fault::<PhysWorld>(0)), keys) {
                (Some(f), _) => Err(f.status()),
                (None, None) => Err(PHYS_ERROR_STALE_HANDLE),
                (None, Some((ka, kb))) => side.mirror.distance(ka, kb).map_err(status_of),
            };
            match expected {
                Err(e) => {
                    expect(status, e, "phys_distance");
                    assert!(out == sentinel_distance(), "phys_distance wrote on failure");
                }
                Ok(d) => {
                    expect(status, PHYS_OK, "phys_distance");
                    let d = PhysDistance::from(d);
                    assert!(same(&out, &d), "phys_distance: {out:?}, the mirror says {d:?}");
                }
            }
        } else if input.u8() % 4 == 0 {
            let mut touching = SENTINEL_BYTE;
            let mut out = sentinel_manifold();
            // SAFETY: the pointer contract.
            let status = unsafe {
                phys_contact_manifold(
                    world,
                    a,
                    b,
                    spoil.mut_ptr(1, (&mut touching as *mut u8).cast::<bool>()),
                    spoil.mut_ptr(2, &mut out),
                )
            };
            let fault = spoil
                .fault::<bool>(1)
                .or(spoil.fault::<PhysManifold>(2))
                .or(spoil.fault::<PhysWorld>(0));
            let expected = match (fault, keys) {
                (Some(f), _) => Err(f.status()),
                (None, None) => Err(PHYS_ERROR_STALE_HANDLE),
                (None, Some((ka, kb))) => side.mirror.contact_manifold(ka, kb).map_err(status_of),
            };
            match expected {
                Err(e) => {
                    expect(status, e, "phys_contact_manifold");
                    assert!(
                        touching == SENTINEL_BYTE && out == sentinel_manifold(),
                        "phys_contact_manifold wrote on failure"
                    );
                }
                Ok(None) => {
                    expect(status, PHYS_OK, "phys_contact_manifold");
                    assert!(
                        touching == 0 && out == sentinel_manifold(),
                        "phys_contact_manifold: apart"
                    );
                }
                Ok(Some(m)) => {
                    expect(status, PHYS_OK, "phys_contact_manifold");
                    let m = PhysManifold::from(m);
                    assert!(
                        touching == 1 && same(&out, &m) && (1..=4).contains(&m.count),
                        "phys_contact_manifold: {out:?}, the mirror says {m:?}"
                    );
                }
            }
        } else {
            let mut touching = SENTINEL_BYTE;
            let mut out = sentinel_contact();
            // SAFETY: the pointer contract.
            let status = unsafe {
                phys_contact(
                    world,
                    a,
                    b,
                    spoil.mut_ptr(1, (&mut touching as *mut u8).cast::<bool>()),
                    spoil.mut_ptr(2, &mut out),
                )
            };
            let fault = spoil
                .fault::<bool>(1)
                .or(spoil.fault::<PhysContact>(2))
                .or(spoil.fault::<PhysWorld>(0));
            let expected = match (fault, keys) {
                (Some(f), _) => Err(f.status()),
                (None, None) => Err(PHYS_ERROR_STALE_HANDLE),
                (None, Some((ka, kb))) => side.mirror.contact(ka, kb).map_err(status_of),
            };
            match expected {
                Err(e) => {
                    expect(status, e, "phys_contact");
                    assert!(
                        touching == SENTINEL_BYTE && out == sentinel_contact(),
                        "phys_contact wrote on failure"
                    );
                }
                Ok(None) => {
                    expect(status, PHYS_OK, "phys_contact");
                    assert!(touching == 0 && out == sentinel_contact(), "phys_contact: apart");
                }
                Ok(Some(c)) => {
                    expect(status, PHYS_OK, "phys_contact");
                    let c = PhysContact::from(c);
                    assert!(
                        touching == 1 && same(&out, &c),
                        "phys_contact: {out:?}, the mirror says {c:?}"
                    );
                }
            }
        }
    }

    /// `phys_move_and_slide_capsule`: pointers world 0, capsule 1, motion
    /// 2, filter 3, out_delta 4, out_hit_count 5.
    fn move_and_slide(&mut self, s: usize, input: &mut Input, spoil: &Spoil) {
        let capsule = capsule_of(&input.shape());
        let motion = input.vec3();
        let (filter, given, filter_fault) = self.filter_arg(input, spoil, 3);
        let max_iterations = match input.u8() {
            0..=239 => u32::from(input.u8() % 12),
            _ => 1000,
        };
        let query = self.mirror_filter(s, &filter);
        let side = &self.sides[s];
        let (c, m) = (phys_capsule(&capsule), PhysVec3::from(motion));
        let sentinel_delta = PhysVec3 { x: 7.0, y: 7.0, z: 7.0 };
        let (mut delta, mut count) = (sentinel_delta, SENTINEL_COUNT);
        // SAFETY: the pointer contract.
        let status = unsafe {
            phys_move_and_slide_capsule(
                spoil.ptr(0, side.world.cast_const()),
                spoil.ptr(1, &c),
                spoil.ptr(2, &m),
                spoil.ptr(3, if given { &filter } else { null() }),
                max_iterations,
                spoil.mut_ptr(4, &mut delta),
                spoil.mut_ptr(5, &mut count),
            )
        };
        let name = "phys_move_and_slide_capsule";
        let fault = spoil
            .fault::<PhysVec3>(4)
            .or(spoil.fault::<usize>(5))
            .or(spoil.fault::<PhysWorld>(0))
            .or(spoil.fault::<PhysCapsule>(1))
            .or(spoil.fault::<PhysVec3>(2))
            .or(filter_fault);
        let expected = match fault {
            Some(f) => Err(f.status()),
            None => side
                .mirror
                .move_and_slide(&Shape::Capsule(capsule), motion, &query, max_iterations as usize)
                .map_err(status_of),
        };
        match expected {
            Err(e) => {
                expect(status, e, name);
                assert!(
                    delta == sentinel_delta && count == SENTINEL_COUNT,
                    "{name} wrote on failure"
                );
            }
            Ok(moved) => {
                expect(status, PHYS_OK, name);
                let expected = PhysVec3::from(moved.position_delta);
                assert!(
                    same(&delta, &expected),
                    "{name}: {delta:?}, the mirror says {expected:?}"
                );
                assert_eq!(count, moved.hits.len(), "{name}: hits");
            }
        }
    }
}

/// Calls the `phys_add_*` function of the shape: the status, its name,
/// the fault of the shape's pointer (argument 1; a mesh's indices are
/// argument 4), and the shape as the library must build it from what it
/// reads (or the status of its refusal). `counts` picks a hull's or mesh's
/// counts: mostly the arrays' lengths, sometimes one short (a mismatch),
/// 0, or so large that the byte length overflows `isize`.
///
/// # Safety
/// The pointer contract.
unsafe fn add_shape(
    spec: &ShapeSpec,
    counts: u8,
    world: *mut PhysWorld,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
    spoil: &Spoil,
) -> (PhysStatus, &'static str, Option<Fault>, Result<Shape, PhysStatus>) {
    let count = |len: usize, pick: u8| match pick % 8 {
        0 => usize::MAX,
        1 => isize::MAX as usize / 4,
        2 => len.saturating_sub(1),
        3 => 0,
        _ => len,
    };
    let built = |shape: Result<Shape, Error>| shape.map_err(status_of);
    // Bit 6 of `counts` says the plain shapes to `phys_add_shape`, as a
    // `PhysShape`, instead of their own `phys_add_*`.
    if let (ShapeSpec::Plain(shape), true) = (spec, counts & 0x40 != 0) {
        let c = tagged(shape);
        // SAFETY: the pointer contract, passed on.
        let status = unsafe { phys_add_shape(world, spoil.ptr(1, &c), desc, out) };
        return (status, "phys_add_shape", spoil.fault::<PhysShape>(1), Ok(shape.clone()));
    }
    // SAFETY (every call): the pointer contract, passed on.
    unsafe {
        match spec {
            ShapeSpec::Plain(Shape::Aabb(b)) => {
                let b = PhysAabb::from(*b);
                let status = phys_add_box(world, spoil.ptr(1, &b), desc, out);
                (
                    status,
                    "phys_add_box",
                    spoil.fault::<PhysAabb>(1),
                    Ok(Shape::Aabb(b.into())),
                )
            }
            ShapeSpec::Plain(Shape::Sphere(sp)) => {
                let c = PhysSphere {
                    center: sp.center.into(),
                    radius: sp.radius,
                };
                let status = phys_add_sphere(world, spoil.ptr(1, &c), desc, out);
                (
                    status,
                    "phys_add_sphere",
                    spoil.fault::<PhysSphere>(1),
                    Ok(Shape::Sphere(*sp)),
                )
            }
            ShapeSpec::Plain(Shape::Capsule(cap)) => {
                let c = phys_capsule(cap);
                let status = phys_add_capsule(world, spoil.ptr(1, &c), desc, out);
                (
                    status,
                    "phys_add_capsule",
                    spoil.fault::<PhysCapsule>(1),
                    Ok(Shape::Capsule(*cap)),
                )
            }
            ShapeSpec::Plain(Shape::Obb(o)) => {
                let c = phys_obb(o);
                let status = phys_add_obb(world, spoil.ptr(1, &c), desc, out);
                (status, "phys_add_obb", spoil.fault::<PhysObb>(1), Ok(Shape::Obb(*o)))
            }
            ShapeSpec::Plain(Shape::Triangle(t)) => {
                let c = PhysTriangle {
                    a: t.a.into(),
                    b: t.b.into(),
                    c: t.c.into(),
                };
                let status = phys_add_triangle(world, spoil.ptr(1, &c), desc, out);
                (
                    status,
                    "phys_add_triangle",
                    spoil.fault::<PhysTriangle>(1),
                    Ok(Shape::Triangle(*t)),
                )
            }
            ShapeSpec::Plain(Shape::Cylinder(cy)) => {
                let c = PhysCylinder {
                    segment: PhysSegment {
                        start: cy.segment.start.into(),
                        end: cy.segment.end.into(),
                    },
                    radius: cy.radius,
                };
                let status = phys_add_cylinder(world, spoil.ptr(1, &c), desc, out);
                (
                    status,
                    "phys_add_cylinder",
                    spoil.fault::<PhysCylinder>(1),
                    Ok(Shape::Cylinder(*cy)),
                )
            }
            ShapeSpec::Plain(Shape::Cone(co)) => {
                let c = PhysCone {
                    base_center: co.base_center.into(),
                    apex: co.apex.into(),
                    radius: co.radius,
                };
                let status = phys_add_cone(world, spoil.ptr(1, &c), desc, out);
                (
                    status,
                    "phys_add_cone",
                    spoil.fault::<PhysCone>(1),
                    Ok(Shape::Cone(*co)),
                )
            }
            ShapeSpec::Plain(_) => unreachable!("hulls and meshes come as their inputs"),
            ShapeSpec::Hull(spec) => {
                let points: Vec<PhysVec3> = spec.points().iter().map(|&p| p.into()).collect();
                let n = count(points.len(), counts);
                let status = phys_add_hull(world, spoil.ptr(1, points.as_ptr()), n, desc, out);
                let shape = if n > isize::MAX as usize / core::mem::size_of::<PhysVec3>() {
                    Err(PHYS_ERROR_INVALID_ARGUMENT)
                } else if n == points.len() {
                    built(ShapeSpec::Hull(spec.clone()).build())
                } else {
                    let prefix: Vec<Vec3> = spec.points()[..n].to_vec();
                    built(ConvexHull::from_points(&prefix).map(|h| Shape::Hull(Arc::new(h))))
                };
                (status, "phys_add_hull", spoil.fault::<PhysVec3>(1), shape)
            }
            ShapeSpec::Mesh(vertices, triangles) => {
                let v: Vec<PhysVec3> = vertices.iter().map(|&p| p.into()).collect();
                let indices: Vec<u32> = triangles.iter().flatten().copied().collect();
                let (nv, ni) = (count(v.len(), counts), count(indices.len(), counts >> 3));
                let status = phys_add_mesh(
                    world,
                    spoil.ptr(1, v.as_ptr()),
                    nv,
                    spoil.ptr(4, indices.as_ptr()),
                    ni,
                    desc,
                    out,
                );
                let fault = spoil.fault::<PhysVec3>(1).or(spoil.fault::<u32>(4));
                let shape = if ni % 3 != 0
                    || nv > isize::MAX as usize / core::mem::size_of::<PhysVec3>()
                    || ni > isize::MAX as usize / core::mem::size_of::<u32>()
                {
                    Err(PHYS_ERROR_INVALID_ARGUMENT)
                } else if (nv, ni) == (v.len(), indices.len()) {
                    built(ShapeSpec::Mesh(vertices.clone(), triangles.clone()).build())
                } else {
                    let tris: Vec<[u32; 3]> = indices[..ni].chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
                    built(TriangleMesh::new(vertices[..nv].to_vec(), tris).map(|m| Shape::Mesh(Arc::new(m))))
                };
                (status, "phys_add_mesh", fault, shape)
            }
            ShapeSpec::Compound(children) => {
                // Built by phys_compound_create, added by phys_add_shape,
                // then released: the collider keeps its own reference.
                let tagged_children: Vec<PhysShape> = children.iter().map(|(c, _)| tagged(c)).collect();
                let poses: Vec<PhysTransform> = children.iter().map(|(_, p)| (*p).into()).collect();
                let mut compound = null_mut();
                let created =
                    phys_compound_create(tagged_children.as_ptr(), poses.as_ptr(), children.len(), &mut compound);
                let shape = built(ShapeSpec::Compound(children.clone()).build());
                if created != PHYS_OK {
                    assert!(compound.is_null(), "phys_compound_create wrote on failure");
                    return (created, "phys_compound_create", None, shape);
                }
                let c = PhysShape {
                    kind: PHYS_SHAPE_COMPOUND,
                    data: PhysShapeData { compound },
                };
                let status = phys_add_shape(world, spoil.ptr(1, &c), desc, out);
                phys_compound_destroy(compound);
                (status, "phys_add_shape", spoil.fault::<PhysShape>(1), shape)
            }
            ShapeSpec::HeightField(spec) => {
                // Built by phys_heightfield_create (its arrays exactly
                // `columns·rows` heights and one flag per cell, or no flags),
                // added by phys_add_shape, then released: the collider keeps
                // its own reference.
                let holes: Option<Vec<u8>> = spec.holes.as_ref().map(|h| h.iter().map(|&b| u8::from(b)).collect());
                let scale = PhysVec3::from(spec.scale);
                let mut field = null_mut();
                let created = phys_heightfield_create(
                    spec.columns,
                    spec.rows,
                    spec.heights.as_ptr(),
                    &scale,
                    holes.as_ref().map_or(null(), |h| h.as_ptr()),
                    &mut field,
                );
                let shape = built(ShapeSpec::HeightField(spec.clone()).build());
                if created != PHYS_OK {
                    assert!(field.is_null(), "phys_heightfield_create wrote on failure");
                    return (created, "phys_heightfield_create", None, shape);
                }
                let c = PhysShape {
                    kind: PHYS_SHAPE_HEIGHTFIELD,
                    data: PhysShapeData { heightfield: field },
                };
                let status = phys_add_shape(world, spoil.ptr(1, &c), desc, out);
                phys_heightfield_destroy(field);
                (status, "phys_add_shape", spoil.fault::<PhysShape>(1), shape)
            }
        }
    }
}

/// The `PhysShape` of a plain (not hull or mesh) shape.
fn tagged(shape: &Shape) -> PhysShape {
    let (kind, data) = match shape {
        Shape::Aabb(b) => (PHYS_SHAPE_BOX, PhysShapeData { aabb: (*b).into() }),
        Shape::Sphere(sp) => (
            PHYS_SHAPE_SPHERE,
            PhysShapeData {
                sphere: PhysSphere {
                    center: sp.center.into(),
                    radius: sp.radius,
                },
            },
        ),
        Shape::Capsule(c) => (
            PHYS_SHAPE_CAPSULE,
            PhysShapeData {
                capsule: phys_capsule(c),
            },
        ),
        Shape::Obb(o) => (PHYS_SHAPE_OBB, PhysShapeData { obb: phys_obb(o) }),
        Shape::Triangle(t) => (
            PHYS_SHAPE_TRIANGLE,
            PhysShapeData {
                triangle: PhysTriangle {
                    a: t.a.into(),
                    b: t.b.into(),
                    c: t.c.into(),
                },
            },
        ),
        Shape::Cylinder(cy) => (
            PHYS_SHAPE_CYLINDER,
            PhysShapeData {
                cylinder: PhysCylinder {
                    segment: PhysSegment {
                        start: cy.segment.start.into(),
                        end: cy.segment.end.into(),
                    },
                    radius: cy.radius,
                },
            },
        ),
        Shape::Cone(co) => (
            PHYS_SHAPE_CONE,
            PhysShapeData {
                cone: PhysCone {
                    base_center: co.base_center.into(),
                    apex: co.apex.into(),
                    radius: co.radius,
                },
            },
        ),
        _ => unreachable!("hulls and meshes come as their inputs"),
    };
    PhysShape { kind, data }
}

fn phys_obb(o: &Obb) -> PhysObb {
    PhysObb {
        center: o.center.into(),
        rotation: o.rotation.into(),
        half_extents: o.half_extents.into(),
    }
}

fn phys_capsule(c: &Capsule) -> PhysCapsule {
    PhysCapsule {
        segment: PhysSegment {
            start: c.segment.start.into(),
            end: c.segment.end.into(),
        },
        radius: c.radius,
    }
}

fn sentinel_shape_hit() -> PhysShapeHit {
    PhysShapeHit {
        sub_shape: 0xdead,
        collider: PhysCollider { bits: 0xdead_beef },
        user_data: 0xdead,
        t: -7.0,
        point: PhysVec3 { x: 7.0, y: 7.0, z: 7.0 },
        normal: PhysVec3::default(),
    }
}

fn sentinel_distance() -> PhysDistance {
    PhysDistance {
        distance: -7.0,
        point_a: PhysVec3 { x: 7.0, y: 7.0, z: 7.0 },
        ..PhysDistance::default()
    }
}

fn sentinel_closest() -> PhysClosest {
    PhysClosest {
        collider: PhysCollider { bits: 0xdead_beef },
        user_data: 0xdead,
        distance: sentinel_distance(),
    }
}

fn sentinel_manifold() -> PhysManifold {
    PhysManifold {
        normal: PhysVec3 {
            x: 777.0,
            y: 777.0,
            z: 777.0,
        },
        count: 0xdead,
        ..PhysManifold::default()
    }
}

fn sentinel_contact() -> PhysContact {
    PhysContact {
        depth: -7.0,
        point_a: PhysVec3 { x: 7.0, y: 7.0, z: 7.0 },
        ..PhysContact::default()
    }
}

/// The handle a key (live or removed) was handed out as.
fn handle_ever(side: &Side, key: ColliderKey) -> PhysCollider {
    side.handles
        .iter()
        .rev()
        .find(|(_, k)| *k == key)
        .map(|&(h, _)| h)
        .expect("every key was handed out")
}

fn mirror_desc(shape: Shape, desc: &PhysColliderDesc) -> ColliderDesc {
    ColliderDesc {
        shape,
        transform: desc.transform.into(),
        should_rotate: desc.flags & PHYS_COLLIDER_SHOULD_ROTATE != 0,
        user_data: desc.user_data,
        filter: Filter {
            category: desc.category_bits,
            mask: desc.mask_bits,
        },
    }
}

fn bounding_min(shape: &Shape) -> Vec3 {
    match shape {
        Shape::Aabb(b) => b.min,
        _ => shape.bounding_aabb().min,
    }
}

fn bounding_max(shape: &Shape) -> Vec3 {
    match shape {
        Shape::Aabb(b) => b.max,
        _ => shape.bounding_aabb().max,
    }
}

fn sphere_of(shape: &Shape) -> Sphere {
    match shape {
        Shape::Sphere(s) => *s,
        Shape::Aabb(b) => Sphere::new(b.min, b.max.x - b.min.x),
        Shape::Capsule(c) => Sphere::new(c.segment.start, c.radius),
        other => Sphere::new(other.bounding_aabb().min, 1.0),
    }
}

fn capsule_of(shape: &Shape) -> Capsule {
    match shape {
        Shape::Capsule(c) => *c,
        Shape::Aabb(b) => Capsule::new(collide::Segment::new(b.min, b.max), b.max.y - b.min.y),
        Shape::Sphere(s) => Capsule::new(collide::Segment::new(s.center, s.center), s.radius),
        other => {
            let b = other.bounding_aabb();
            Capsule::new(collide::Segment::new(b.min, b.max), 1.0)
        }
    }
}

/// The C-ABI target: two byte-chosen collider limits, then steps until the
/// bytes or [`super::MAX_STEPS`] run out.
pub fn run_c_abi(data: &[u8]) {
    let mut input = Input::new(data);
    let mut run = CRun::new(&mut input);
    let mut steps = 0;
    while !input.is_empty() && steps < super::MAX_STEPS {
        run.step(&mut input);
        steps += 1;
    }
    for side in &run.sides {
        side.check_snapshot();
    }
}

impl Side {
    /// `phys_world_save` and `phys_world_load`: the loaded world hashes as
    /// the mirror does, its handles live where the mirror's keys are and
    /// stale where they were removed.
    fn check_snapshot(&self) {
        let (mut written, mut total) = (0usize, 0usize);
        // SAFETY (every call): a live world, valid out-pointers, a buffer of
        // the size asked for.
        unsafe {
            let status = phys_world_save(self.world, null_mut(), 0, &mut written, &mut total);
            expect(status, PHYS_ERROR_BUFFER_TOO_SMALL, "phys_world_save's size");
            let mut bytes = vec![0u8; total];
            let status = phys_world_save(self.world, bytes.as_mut_ptr(), total, &mut written, &mut total);
            expect(status, PHYS_OK, "phys_world_save");
            let mut loaded = null_mut();
            expect(
                phys_world_load(bytes.as_ptr(), bytes.len(), &mut loaded),
                PHYS_OK,
                "phys_world_load",
            );
            let mut hash = 0u64;
            expect(
                phys_world_state_hash(loaded, &mut hash),
                PHYS_OK,
                "phys_world_state_hash",
            );
            assert_eq!(hash, self.mirror.state_hash(), "the loaded world hashes as the mirror");
            for (handle, key) in &self.handles {
                let alive = phys_collider_is_alive(loaded, *handle);
                assert_eq!(alive, self.mirror.contains(*key), "{handle:?} after the load");
            }
            phys_world_destroy(loaded);
        }
    }
}
