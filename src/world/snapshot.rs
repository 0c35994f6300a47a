//! Snapshots: a world as bytes and back ([`World::save`], [`World::load`]),
//! and a hash of those bytes ([`World::state_hash`]).
//!
//! The bytes are the world's state, not its caches: the colliders'
//! descriptions (object-space shape, transform, user data, filter) by slot,
//! every slot's version (so live keys stay what they were and keys of
//! removed colliders stay stale), and the world's collider limit. Loading
//! derives everything else — world shapes, bounds, the tree, the sweep
//! lists — by the same code as [`World::add`], so every query answers bit
//! for bit as before the save. Little-endian throughout:
//!
//! ```text
//! "CLDW" · format u32 · max_colliders u64 · slots u32 · per slot: version u32, and if odd a collider
//! · free slots u32 · their indices u32, the one to reuse last first
//! collider: shape · translation 3×f32 · rotation 4×f32 · scale 3×f32 · should_rotate u8 · user_data u64 · category u64 · mask u64
//! shape: kind u8 (PHYS_SHAPE_*), then its numbers (a hull its parts, a mesh its vertices and
//!        triangles, a height field its samples, scale, origin and holes, a compound its placed children)
//! ```
//!
//! A slot map hands a slot's key out with an odd version and bumps it on
//! removal, so a slot's version counts its reuses; loading reaches each
//! version by removing and reinserting, which costs one step per reuse:
//! bytes whose slots claim more than [`MAX_SNAPSHOT_REUSES`] in all are refused. The
//! free slots are chained in the order the saved world had them, so a
//! loaded world hands out the keys the saved one would next.

use std::sync::Arc;

use slotmap::SlotMap;

use crate::bvh::Leaf;

use crate::collider::{
    ColliderDesc, ColliderKey, ColliderRecord, ColliderRef, Filter, NewCollider, Proxy, RecordTables,
};
use crate::error::{Error, Result};
use crate::math::{Quat, Transform, Vec3};
use crate::shape::{
    Aabb, Capsule, Compound, Cone, ConvexHull, Cylinder, HeightField, Obb, Plane, Segment, Shape, Sphere, Triangle,
    TriangleMesh,
};
use crate::world::{World, MAX_COLLIDERS};

/// The first bytes of every snapshot.
const MAGIC: [u8; 4] = *b"CLDW";
/// The layout's version.
const FORMAT: u32 = 1;
/// The most slot reuses (removals) a snapshot may claim in all: loading
/// replays each (see the module docs), so this bounds the time bytes can
/// make a load take (BENCHMARKS.md gives the price of a reuse).
pub const MAX_SNAPSHOT_REUSES: u64 = 1 << 22;

/// Where encoded bytes go: a buffer, or a hash.
trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A 64-bit hash of a byte stream, word by word: the bytes gathered into
/// little-endian 64-bit words, each mixed in by rustc's FxHasher step
/// (`h = (h.rotate_left(5) ^ word)·0x517c_c1b7_2722_0a95`), the length
/// last. The same on every machine; not a cryptographic hash.
struct WordHash {
    hash: u64,
    word: u64,
    length: u64,
}

impl WordHash {
    const SEED: u64 = 0xcbf2_9ce4_8422_2325;

    fn mix(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn finish(mut self) -> u64 {
        if self.length % 8 != 0 {
            let word = self.word;
            self.mix(word);
        }
        let length = self.length;
        self.mix(length);
        self.hash
    }
}

impl Sink for WordHash {
    fn put(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.word |= u64::from(b) << (8 * (self.length % 8));
            self.length += 1;
            if self.length % 8 == 0 {
                let word = core::mem::take(&mut self.word);
                self.mix(word);
            }
        }
    }
}

/// Little-endian writing of the layout's numbers.
struct Writer<'a, S: Sink>(&'a mut S);

impl<S: Sink> Writer<'_, S> {
    fn u8(&mut self, v: u8) {
        self.0.put(&[v]);
    }
    fn u32(&mut self, v: u32) {
        self.0.put(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.put(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.0.put(&v.to_le_bytes());
    }
    fn vec3(&mut self, v: Vec3) {
        v.to_array().into_iter().for_each(|x| self.f32(x));
    }
    fn quat(&mut self, q: Quat) {
        q.to_array().into_iter().for_each(|x| self.f32(x));
    }
    /// A count of items (a length the reader checks against its bytes).
    fn count(&mut self, n: usize) {
        self.u32(n as u32);
    }
}

/// Little-endian reading of the layout's numbers, every read checked
/// against the bytes left.
struct Reader<'a> {
    bytes: &'a [u8],
}

/// The error of bytes that end too soon or say something impossible.
const CORRUPT: Error = Error::InvalidArgument("snapshot bytes that are truncated or not a snapshot");

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        let (head, rest) = self.bytes.split_first_chunk::<N>().ok_or(CORRUPT)?;
        self.bytes = rest;
        Ok(*head)
    }
    fn u8(&mut self) -> Result<u8> {
        Ok(self.take::<1>()?[0])
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.take()?))
    }
    fn vec3(&mut self) -> Result<Vec3> {
        Ok(Vec3::new(self.f32()?, self.f32()?, self.f32()?))
    }
    fn quat(&mut self) -> Result<Quat> {
        Ok(Quat::from_xyzw(self.f32()?, self.f32()?, self.f32()?, self.f32()?))
    }
    /// Refuses `n` items of at least `item_bytes` bytes each that the bytes
    /// left cannot hold, so no count read from the bytes allocates more
    /// than they could fill.
    fn room(&self, n: usize, item_bytes: usize) -> Result<()> {
        if n.saturating_mul(item_bytes.max(1)) > self.bytes.len() {
            return Err(CORRUPT);
        }
        Ok(())
    }
    /// A count of items of at least `item_bytes` bytes each, checked
    /// ([`Reader::room`]).
    fn count(&mut self, item_bytes: usize) -> Result<usize> {
        let n = self.u32()? as usize;
        self.room(n, item_bytes)?;
        Ok(n)
    }
    fn many<T>(&mut self, item_bytes: usize, mut read: impl FnMut(&mut Self) -> Result<T>) -> Result<Vec<T>> {
        let n = self.count(item_bytes)?;
        (0..n).map(|_| read(self)).collect()
    }
}

/// `PhysShape::kind` numbers: one tag per kind, shared with the C ABI.
mod kind {
    pub const BOX: u8 = 1;
    pub const SPHERE: u8 = 2;
    pub const CAPSULE: u8 = 3;
    pub const OBB: u8 = 4;
    pub const TRIANGLE: u8 = 5;
    pub const CYLINDER: u8 = 6;
    pub const CONE: u8 = 7;
    pub const HULL: u8 = 8;
    pub const MESH: u8 = 9;
    pub const HEIGHTFIELD: u8 = 10;
    pub const COMPOUND: u8 = 11;
}

fn write_shape<S: Sink>(w: &mut Writer<'_, S>, shape: &Shape) {
    let segment = |w: &mut Writer<'_, S>, s: &Segment| {
        w.vec3(s.start);
        w.vec3(s.end);
    };
    match shape {
        Shape::Aabb(b) => {
            w.u8(kind::BOX);
            w.vec3(b.min);
            w.vec3(b.max);
        }
        Shape::Sphere(s) => {
            w.u8(kind::SPHERE);
            w.vec3(s.center);
            w.f32(s.radius);
        }
        Shape::Capsule(c) => {
            w.u8(kind::CAPSULE);
            segment(w, &c.segment);
            w.f32(c.radius);
        }
        Shape::Obb(o) => {
            w.u8(kind::OBB);
            w.vec3(o.center);
            w.quat(o.rotation);
            w.vec3(o.half_extents);
        }
        Shape::Triangle(t) => {
            w.u8(kind::TRIANGLE);
            [t.a, t.b, t.c].into_iter().for_each(|p| w.vec3(p));
        }
        Shape::Cylinder(c) => {
            w.u8(kind::CYLINDER);
            segment(w, &c.segment);
            w.f32(c.radius);
        }
        Shape::Cone(c) => {
            w.u8(kind::CONE);
            w.vec3(c.base_center);
            w.vec3(c.apex);
            w.f32(c.radius);
        }
        Shape::Hull(h) => {
            w.u8(kind::HULL);
            w.count(h.vertices().len());
            h.vertices().iter().for_each(|&v| w.vec3(v));
            w.count(h.triangles().len());
            h.triangles().iter().flatten().for_each(|&i| w.u32(i));
            w.count(h.planes().len());
            for p in h.planes() {
                w.vec3(p.normal);
                w.f32(p.d);
            }
            w.count(h.edges().len());
            h.edges().iter().flatten().for_each(|&i| w.u32(i));
            w.vec3(h.center());
            w.f32(h.bounding_radius());
        }
        Shape::Mesh(m) => {
            w.u8(kind::MESH);
            w.count(m.vertices().len());
            m.vertices().iter().for_each(|&v| w.vec3(v));
            w.count(m.indices().len());
            m.indices().iter().flatten().for_each(|&i| w.u32(i));
        }
        Shape::HeightField(h) => {
            w.u8(kind::HEIGHTFIELD);
            w.count(h.columns());
            w.count(h.rows());
            h.heights().iter().for_each(|&y| w.f32(y));
            w.vec3(h.scale());
            w.vec3(h.origin());
            let cells = (0..h.rows() - 1).flat_map(|r| (0..h.columns() - 1).map(move |c| (c, r)));
            let holes: Vec<bool> = cells.map(|(c, r)| h.is_hole(c, r)).collect();
            w.u8(u8::from(holes.contains(&true)));
            if holes.contains(&true) {
                holes.into_iter().for_each(|hole| w.u8(u8::from(hole)));
            }
        }
        Shape::Compound(c) => {
            w.u8(kind::COMPOUND);
            w.count(c.children().len());
            c.children().iter().for_each(|child| write_shape(w, child));
        }
    }
}

/// A shape as [`write_shape`] wrote it, built by its own constructor (which
/// checks it); a compound's child is read with `in_compound`, where
/// another compound is refused.
fn read_shape(r: &mut Reader<'_>, in_compound: bool) -> Result<Shape> {
    let tag = r.u8()?;
    Ok(match tag {
        kind::BOX => Shape::Aabb(Aabb::new(r.vec3()?, r.vec3()?)),
        kind::SPHERE => Shape::Sphere(Sphere::new(r.vec3()?, r.f32()?)),
        kind::CAPSULE => Shape::Capsule(Capsule::new(Segment::new(r.vec3()?, r.vec3()?), r.f32()?)),
        kind::OBB => {
            let center = r.vec3()?;
            let rotation = r.quat()?;
            Shape::Obb(Obb::new(center, rotation, r.vec3()?))
        }
        kind::TRIANGLE => Shape::Triangle(Triangle::new(r.vec3()?, r.vec3()?, r.vec3()?)),
        kind::CYLINDER => Shape::Cylinder(Cylinder::new(Segment::new(r.vec3()?, r.vec3()?), r.f32()?)),
        kind::CONE => Shape::Cone(Cone::new(r.vec3()?, r.vec3()?, r.f32()?)),
        kind::HULL => {
            let vertices = r.many(12, Reader::vec3)?;
            let triangles = r.many(12, |r| Ok([r.u32()?, r.u32()?, r.u32()?]))?;
            let planes = r.many(16, |r| {
                Ok(Plane {
                    normal: r.vec3()?,
                    d: r.f32()?,
                })
            })?;
            let edges = r.many(8, |r| Ok([r.u32()?, r.u32()?]))?;
            let (center, radius) = (r.vec3()?, r.f32()?);
            Shape::Hull(Arc::new(ConvexHull::from_parts(
                vertices, triangles, planes, edges, center, radius,
            )?))
        }
        kind::MESH => {
            let vertices = r.many(12, Reader::vec3)?;
            let indices = r.many(12, |r| Ok([r.u32()?, r.u32()?, r.u32()?]))?;
            Shape::Mesh(Arc::new(TriangleMesh::new(vertices, indices)?))
        }
        kind::HEIGHTFIELD if !in_compound => {
            let (columns, rows) = (r.u32()? as usize, r.u32()? as usize);
            let samples = columns.checked_mul(rows).ok_or(CORRUPT)?;
            r.room(samples, 4)?;
            let heights = (0..samples).map(|_| r.f32()).collect::<Result<Vec<f32>>>()?;
            let (scale, origin) = (r.vec3()?, r.vec3()?);
            let mut field = HeightField::new(columns, rows, heights, scale)?;
            if r.u8()? != 0 {
                let cells = (columns - 1) * (rows - 1);
                let holes = (0..cells).map(|_| Ok(r.u8()? != 0)).collect::<Result<Vec<bool>>>()?;
                field = field.with_holes(&holes)?;
            }
            Shape::HeightField(field.translated(origin)?)
        }
        kind::COMPOUND if !in_compound => {
            let children = r.many(1, |r| read_shape(r, true))?;
            Shape::Compound(Arc::new(Compound::from_placed(children)?))
        }
        _ => return Err(CORRUPT),
    })
}

/// A collider's description, read through its view (no copy of its shape).
fn write_desc<S: Sink>(w: &mut Writer<'_, S>, collider: ColliderRef<'_>) {
    write_shape(w, &collider.shape());
    let t = collider.transform();
    w.vec3(t.translation);
    w.quat(t.rotation);
    w.vec3(t.scale);
    w.u8(u8::from(collider.should_rotate()));
    w.u64(collider.user_data());
    w.u64(collider.filter().category);
    w.u64(collider.filter().mask);
}

fn read_desc(r: &mut Reader<'_>) -> Result<ColliderDesc> {
    let shape = read_shape(r, false)?;
    let translation = r.vec3()?;
    let rotation = r.quat()?;
    let scale = r.vec3()?;
    let should_rotate = match r.u8()? {
        0 => false,
        1 => true,
        _ => return Err(CORRUPT),
    };
    Ok(ColliderDesc {
        shape,
        transform: Transform {
            translation,
            rotation,
            scale,
        },
        should_rotate,
        user_data: r.u64()?,
        filter: Filter {
            category: r.u64()?,
            mask: r.u64()?,
        },
    })
}

impl World {
    /// Writes the snapshot of the world into `out` (cleared first): its
    /// state, not its caches — each collider's description (object-space
    /// shape, transform, user data, filter) in its slot, every slot's
    /// version, the order of the free slots and the collider limit, in a
    /// versioned little-endian layout of collide's own. [`World::load`]
    /// makes the same world of it: the same keys, user data and filters,
    /// every query answering bit for bit as this one does, the same keys
    /// handed out next.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, QueryFilter, Segment, Shape, World, math::Vec3};
    /// let mut world = World::new();
    /// let wall = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(4.0, -1.0, -1.0), Vec3::new(5.0, 1.0, 1.0)))).with_user_data(7))?;
    /// let mut bytes = Vec::new();
    /// world.save(&mut bytes);
    /// let copy = World::load(&bytes)?;
    /// let shot = Segment::new(Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0));
    /// assert_eq!(copy.segment_cast(&shot, &QueryFilter::ALL)?, world.segment_cast(&shot, &QueryFilter::ALL)?);
    /// assert_eq!(copy.get(wall).unwrap().user_data(), 7);
    /// assert_eq!(copy.state_hash(), world.state_hash());
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn save(&self, out: &mut Vec<u8>) {
        out.clear();
        self.append_snapshot(out);
    }

    /// [`World::save`]'s bytes after what `out` holds.
    pub(crate) fn append_snapshot(&self, out: &mut Vec<u8>) {
        self.encode(&mut Writer(out));
    }

    /// A 64-bit hash of the world's state (of its [`World::save`] bytes,
    /// without writing them, 8 bytes at a time): equal on every machine
    /// for equal worlds, so lock-step peers can compare theirs; it costs a
    /// pass over the colliders' descriptions.
    ///
    /// ```
    /// use collide::{ColliderDesc, Shape, Sphere, Transform, World, math::Vec3};
    /// let mut a = World::new();
    /// let ball = a.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))))?;
    /// let b = a.clone();
    /// assert_eq!(a.state_hash(), b.state_hash());
    /// a.set_transform(ball, Transform::from_translation(Vec3::X))?;
    /// assert_ne!(a.state_hash(), b.state_hash());
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut hash = WordHash {
            hash: WordHash::SEED,
            word: 0,
            length: 0,
        };
        self.encode(&mut Writer(&mut hash));
        hash.finish()
    }

    fn encode<S: Sink>(&self, w: &mut Writer<'_, S>) {
        // Every slot holds a collider or is free, and the free ones are
        // `free_slots`; the slot map yields its colliders by slot.
        let slots = self.colliders.len() + self.free_slots.len();
        w.0.put(&MAGIC);
        w.u32(FORMAT);
        w.u64(self.max_colliders as u64);
        w.count(slots);
        let mut live = self.iter().peekable();
        for slot in 1..=slots {
            match live.next_if(|(key, _)| key.slot_and_version().0 == slot) {
                Some((key, collider)) => {
                    w.u32(key.slot_and_version().1);
                    write_desc(w, collider);
                }
                None => w.u32(self.free_versions[slot]),
            }
        }
        w.count(self.free_slots.len());
        self.free_slots.iter().for_each(|&slot| w.u32(slot));
    }

    /// The world a [`World::save`] wrote: every collider in the slot it
    /// had, under the key it had (a removed collider's key stays stale),
    /// placed by the same code as [`World::add`]; the collider limit as it
    /// was. Pair events start afresh (the first [`World::pair_events`]
    /// reports every current pair as begun); the thread setting is the
    /// default.
    ///
    /// Errors: [`Error::InvalidArgument`] for bytes that are not a snapshot
    /// of this format, end too soon, go on after it, or claim more than
    /// [`MAX_SNAPSHOT_REUSES`] slot reuses or more colliders than the limit; a
    /// collider's own errors, as [`World::add`] gives them (a snapshot of
    /// a valid world never has any). Untrusted bytes get an error, never a
    /// panic.
    pub fn load(bytes: &[u8]) -> Result<World> {
        let mut r = Reader { bytes };
        if r.take::<4>()? != MAGIC || r.u32()? != FORMAT {
            return Err(Error::InvalidArgument("not a collide snapshot of this format"));
        }
        let max_colliders = usize::try_from(r.u64()?).map_err(|_| CORRUPT)?;
        if max_colliders > MAX_COLLIDERS {
            return Err(CORRUPT);
        }
        let slot_count = r.count(4)?;
        let mut slots: Vec<(u32, Option<NewCollider>)> = Vec::new();
        slots
            .try_reserve_exact(slot_count)
            .map_err(|_| Error::OutOfMemory("snapshot slots"))?;
        let mut reuses = 0u64;
        for _ in 0..slot_count {
            let version = r.u32()?;
            // Live slots have odd versions from 1, free ones even from 2.
            let live = version % 2 == 1;
            if version == 0 {
                return Err(CORRUPT);
            }
            reuses += u64::from((version - 1) / 2);
            if reuses > MAX_SNAPSHOT_REUSES {
                return Err(Error::InvalidArgument(
                    "snapshot slots reused more than MAX_SNAPSHOT_REUSES times",
                ));
            }
            let collider = if live {
                Some(NewCollider::new(read_desc(&mut r)?)?)
            } else {
                None
            };
            slots.push((version, collider));
        }
        // The free slots, each once, in the order they were freed.
        let free_slots = r.many(4, Reader::u32)?;
        let mut seen = vec![false; slots.len()];
        for &slot in &free_slots {
            let i = (slot as usize).wrapping_sub(1);
            if i >= slots.len() || slots[i].1.is_some() || std::mem::replace(&mut seen[i], true) {
                return Err(CORRUPT);
            }
        }
        let live = slots.iter().filter(|(_, c)| c.is_some()).count();
        if free_slots.len() != slots.len() - live || !r.bytes.is_empty() {
            return Err(CORRUPT);
        }
        if live > max_colliders {
            return Err(Error::InvalidArgument("a snapshot with more colliders than its limit"));
        }
        let mut world = World::with_max_colliders(max_colliders);
        let (records, keys, leaves) = slot_map_of(slots, &free_slots, &mut world.free_versions, &mut world.tables)?;
        world.colliders = records;
        world.free_slots = free_slots;
        world.register(&keys, leaves);
        Ok(world)
    }
}

/// The leaves of a world's colliders, in slot order, for the tree's batch
/// insertion.
type Leaves = Vec<Leaf<Proxy>>;

/// The slot map holding `slots[i]`'s collider record in slot `i + 1` with
/// its version, the free slots (checked: each free slot once) emptied in
/// the order of `free_slots` so that the last is reused first; their
/// versions go to `free_versions`. Each slot is created, then reinserted
/// until its version is reached (a slot map reuses the slot it freed
/// last). With it, the live colliders' keys and leaves in slot order;
/// what of them needs an entry goes to `tables`.
fn slot_map_of(
    slots: Vec<(u32, Option<NewCollider>)>,
    free_slots: &[u32],
    free_versions: &mut Vec<u32>,
    tables: &mut RecordTables,
) -> Result<(SlotMap<ColliderKey, ColliderRecord>, Vec<ColliderKey>, Leaves)> {
    // A sphere at the identity keeps no world shape of its own.
    let placeholder = NewCollider::new(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 0.0))))?
        .into_record(tables)
        .0;
    let mut map: SlotMap<ColliderKey, ColliderRecord> = SlotMap::with_key();
    map.try_reserve(slots.len())
        .map_err(|_| Error::OutOfMemory("snapshot colliders"))?;
    let mut keys = Vec::with_capacity(slots.len());
    for _ in 0..slots.len() {
        keys.push(map.insert(placeholder.clone()));
    }
    let mut versions = Vec::with_capacity(slots.len());
    let (mut live_keys, mut leaves) = (Vec::new(), Vec::new());
    for (key, (version, collider)) in keys.iter_mut().zip(slots) {
        let last_live = if version % 2 == 1 { version } else { version - 1 };
        while key.slot_and_version().1 < last_live {
            map.remove(*key);
            *key = map.insert(placeholder.clone());
        }
        if let Some(new) = collider {
            let (record, leaf) = new.into_record(tables);
            leaves.push(leaf.with_key(*key));
            live_keys.push(*key);
            map[*key] = record;
        }
        versions.push(version);
    }
    free_versions.clear();
    free_versions.resize(versions.len() + 1, 0);
    for &slot in free_slots {
        let i = slot as usize - 1;
        map.remove(keys[i]);
        free_versions[i + 1] = versions[i];
    }
    Ok((map, live_keys, leaves))
}

/// The world as its snapshot's bytes ([`World::save`]) in any serde
/// format.
#[cfg(feature = "serde")]
impl serde::Serialize for World {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error> {
        let mut bytes = Vec::new();
        self.save(&mut bytes);
        serializer.serialize_bytes(&bytes)
    }
}

/// The world of a snapshot's bytes ([`World::load`], its errors as the
/// format's custom error).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for World {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> core::result::Result<Self, D::Error> {
        /// Bytes, as a format gives them: a byte buffer, or a sequence of
        /// numbers (JSON).
        struct Bytes;
        impl<'de> serde::de::Visitor<'de> for Bytes {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("the bytes of a collide world snapshot")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> core::result::Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> core::result::Result<Vec<u8>, E> {
                Ok(v)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> core::result::Result<Vec<u8>, A::Error> {
                let mut bytes = Vec::new();
                while let Some(b) = seq.next_element::<u8>()? {
                    bytes.push(b);
                }
                Ok(bytes)
            }
        }
        let bytes = deserializer.deserialize_byte_buf(Bytes)?;
        World::load(&bytes).map_err(serde::de::Error::custom)
    }
}
