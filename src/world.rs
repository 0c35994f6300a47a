//! The world: colliders in a generational slot map, the broad phases over
//! them, and the safe API every query and the C ABI go through.

mod snapshot;

pub use snapshot::MAX_SNAPSHOT_REUSES;

use slotmap::SlotMap;

use crate::broad::events::{self, PairEvents};
use crate::broad::pair_cache::PairCache;
use crate::broad::sap::SweepAndPrune;
use crate::broad::Proxy;
use crate::broad::{naive, Pair};
use core::ops::ControlFlow;

use crate::bvh::{Bvh, Leaf, PathPrefetch, LEAF_AHEAD, PATH_STEP};
use crate::collider::{
    ColliderDesc, ColliderKey, ColliderRecord, ColliderRef, Colliders, Filter, NewCollider, Placement, QueryFilter,
    RecordTables,
};
use crate::error::{Error, Result};
use crate::math::Transform;
use crate::math::Vec3;
use crate::prefetch::{prefetch, CACHED_BYTES};
use crate::query::Ray;
use crate::query::{CastHit, Contact, ContactManifold, Distance};
use crate::shape::Shape;
use crate::shape::{Aabb, Segment, Sphere};
use crate::threads::on_own_copy;
pub use crate::threads::Threads;
use crate::visit::VisitResult;

/// The most colliders any world holds; [`World::add`] refuses more with
/// [`Error::CapacityExceeded`] (slot indices are 32-bit). A world may set a
/// lower limit with [`World::with_max_colliders`].
pub const MAX_COLLIDERS: usize = crate::bvh::MAX_LEAVES;

/// Updates per block of a batch update's placements: enough loads in
/// flight to cover a memory access (a core tracks some twenty misses at
/// once), few enough that a block's records and leaves (about 12 KB) stay
/// in the first-level cache until they are used.
const UPDATE_BLOCK: usize = 64;

/// How far ahead of the update being applied a batch asks for the
/// collider's record, as far as for the leaf and the first node of its
/// path ([`LEAF_AHEAD`], [`PATH_STEP`]).
const RECORD_AHEAD: usize = LEAF_AHEAD + PATH_STEP;

/// The fewest updates worth a share of their own when a batch update's
/// placements are derived on several threads ([`World::set_transforms`]);
/// a smaller batch than two shares runs on the calling thread: its
/// placements, shared, save less than the threads take to start and the
/// apply then takes to read placements another core wrote (BENCHMARKS.md,
/// "All cores").
const UPDATES_PER_SHARE: usize = 8192;

/// A large batch update is cut into this many shares per thread, handed
/// out one at a time.
const UPDATE_SHARES_PER_THREAD: usize = 4;

/// Segments per share of a batch: a batch of at most this many runs on the
/// calling thread whatever the thread setting (handing it out would cost
/// more than it saves).
const BATCH_CHUNK: usize = 256;

/// The bytes of one slot of the world's slot map: a collider's record (or,
/// vacant, a `u32` link to the next free slot, in a union) and a `u32`
/// version, padded to the record's alignment (slotmap 1's `Slot<T>`).
const COLLIDER_SLOT_BYTES: usize = (core::mem::size_of::<ColliderRecord>() + core::mem::size_of::<u32>())
    .next_multiple_of(core::mem::align_of::<ColliderRecord>());

/// Refuses a segment with a NaN or infinite end point, or so long that its
/// direction `end − start` overflows.
fn check_segment(segment: &Segment) -> Result<()> {
    if segment.is_castable() {
        Ok(())
    } else {
        Err(Error::NonFinite("a segment end point or its direction"))
    }
}

/// The collider a cast hit: the answer of every world cast
/// ([`World::segment_cast`], [`World::cast_ray`], [`World::cast_shape`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// The collider hit.
    pub collider: ColliderKey,
    /// Its user data.
    pub user_data: u64,
    /// When: the parameter along the segment, in `[0, 1]`; along a ray, in
    /// units of its direction; for a moving shape, the fraction of its
    /// motion at first contact, in `[0, 1]`.
    pub t: f32,
    /// Where: `segment.point_at(t)` (`ray.point_at(t)`); for a moving
    /// shape, the contact point at time `t`.
    pub point: Vec3,
    /// The collider's unit outward normal at the hit, pointing back
    /// towards the segment's start or the moving shape; for a segment
    /// starting inside, `−direction/|direction|` (see [`CastHit`]).
    pub normal: Vec3,
    /// Which part of the collider was hit: the index of a
    /// [`Compound`](crate::shape::Compound)'s child, of a mesh's or height
    /// field's triangle; 0 for any other shape.
    pub sub_shape: u32,
}

impl Hit {
    pub(crate) fn new(key: ColliderKey, user_data: u64, segment: &Segment, cast: CastHit) -> Self {
        Self {
            collider: key,
            user_data,
            t: cast.t,
            point: segment.point_at(cast.t),
            normal: cast.normal,
            sub_shape: cast.sub_shape,
        }
    }
}

/// Refuses a motion with a NaN or infinite component, or one that carries
/// the shape's bounds beyond `f32`.
pub(crate) fn check_motion(bounds: &Aabb, motion: Vec3) -> Result<()> {
    if motion.is_finite() && (bounds.min + motion).is_finite() && (bounds.max + motion).is_finite() {
        Ok(())
    } else {
        Err(Error::NonFinite("motion"))
    }
}

/// Validates a query shape, refusing a mesh or height field: the region,
/// swept and nearest queries take a convex shape (a surface is static level
/// geometry, a collider to be found, not a probe).
pub(crate) fn check_query_shape(shape: &Shape) -> Result<()> {
    if shape.surface().is_some() {
        return Err(Error::InvalidArgument(
            "a query shape must be convex, not a triangle mesh or height field",
        ));
    }
    shape.validate()
}

/// Refuses a NaN or infinite search radius, and a negative one.
fn check_max_distance(max_distance: f32) -> Result<()> {
    if !max_distance.is_finite() {
        return Err(Error::NonFinite("max_distance"));
    }
    if max_distance < 0.0 {
        return Err(Error::InvalidArgument("max_distance is negative"));
    }
    Ok(())
}

/// A physics world: colliders and the queries over them.
///
/// Every method validates its input and, on error, leaves the world as it
/// was. Queries taking `&self` never mutate anything and may run
/// concurrently from many threads (`World` is `Sync`).
///
/// Answers come back in one of five ways, by what they are: one answer as
/// `Result<Option<_>>` (a cast's [`Hit`]); one answer per input into the
/// caller's slice of the same length ([`World::segment_cast_batch`]); a
/// list the caller keeps into the caller's `Vec`, cleared and its
/// allocation reused ([`World::segment_cast_all`]); a list the world keeps
/// between calls as a borrowed slice ([`World::pairs`]); and every walk
/// through a callback that may stop it ([`VisitResult`]).
///
/// ```
/// use collide::{Aabb, ColliderDesc, QueryFilter, Segment, Shape, World, math::Vec3};
/// let mut world = World::new();
/// let wall = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(5.0, -1.0, -1.0), Vec3::new(6.0, 1.0, 1.0)))).with_user_data(7))?;
/// let hit = world.segment_cast(&Segment::new(Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0)), &QueryFilter::ALL)?.unwrap();
/// assert_eq!((hit.collider, hit.user_data, hit.t, hit.normal), (wall, 7, 0.5, Vec3::NEG_X));
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct World {
    /// Each collider's cold part; its hot part is its leaf in `bvh`.
    colliders: SlotMap<ColliderKey, ColliderRecord>,
    /// What the records keep outside their slots: shapes, rotations and
    /// scales.
    tables: RecordTables,
    bvh: Bvh<Proxy>,
    sweep_and_prune: SweepAndPrune,
    pair_cache: PairCache,
    /// The last pairs found, handed out as a slice.
    pairs: Vec<Pair>,
    /// The pair set of the last [`World::pair_events`] call, and the events
    /// it produced.
    previous_pairs: Vec<Pair>,
    began: Vec<Pair>,
    ended: Vec<Pair>,
    /// What a batch update derived, before it applies it: one share per
    /// share of the batch, in the batch's order.
    pending: Vec<PendingShare>,
    max_colliders: usize,
    /// Where batch queries run.
    threads: Threads,
    /// By slot index, the version a removed collider's slot has while it
    /// is free (what a snapshot keeps so that a removed collider's key
    /// stays stale after a load); a slot in use holds whatever it last had.
    free_versions: Vec<u32>,
    /// The free slots as the slot map chains them: the slot freed last on
    /// top, reused first (what a snapshot keeps so that a loaded world
    /// hands out the keys this one would).
    free_slots: Vec<u32>,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

/// One share of what a batch update derived, in the batch's order: each
/// update's placement, which the collider's record takes, and its leaf's
/// move, which the tree takes. The placements are kept as the `Result`s
/// they were derived as (a share stops at its first error): moved out of
/// them, each would be copied once more.
#[derive(Debug, Clone, Default)]
struct PendingShare {
    placements: Vec<Result<Placement>>,
    leaves: Vec<LeafMove>,
}

/// What the tree takes of one update of a batch, noted as its placement is
/// derived, so that the tree's side of the apply reads no record: the
/// collider's leaf, its new bounds, and whether they are its exact shape.
#[derive(Debug, Clone, Copy)]
struct LeafMove {
    proxy: u32,
    aabb: Aabb,
    exact: bool,
}

/// The two parts of a batch update's apply, run side by side on two
/// threads when the batch is large ([`World::apply_batch`]).
enum ApplySide<'a> {
    Tree(LeafSteps<'a>),
    Records(RecordSteps<'a>, Vec<&'a mut [Result<Placement>]>),
}

impl World {
    /// An empty world holding up to [`MAX_COLLIDERS`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_max_colliders(MAX_COLLIDERS)
    }

    /// An empty world that refuses to hold more than `max_colliders`
    /// (capped at [`MAX_COLLIDERS`]), as Jolt's `PhysicsSystem::Init` takes a
    /// body limit: a runaway spawner gets an error instead of eating memory.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Error, Shape, World, math::Vec3};
    /// let mut world = World::with_max_colliders(1);
    /// let unit = ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)));
    /// world.add(unit.clone())?;
    /// assert_eq!(world.add(unit), Err(Error::CapacityExceeded));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn with_max_colliders(max_colliders: usize) -> Self {
        Self {
            colliders: SlotMap::with_key(),
            tables: RecordTables::default(),
            bvh: Bvh::default(),
            sweep_and_prune: SweepAndPrune::default(),
            pair_cache: PairCache::default(),
            pairs: Vec::new(),
            previous_pairs: Vec::new(),
            began: Vec::new(),
            ended: Vec::new(),
            pending: Vec::new(),
            max_colliders: max_colliders.min(MAX_COLLIDERS),
            threads: Threads::default(),
            free_versions: Vec::new(),
            free_slots: Vec::new(),
        }
    }

    /// Chooses the threads the world's batch work runs on (see
    /// [`Threads`]; the default is [`Threads::default`]): batch casts, the
    /// pair search and merge of [`World::pairs`] and the placements of
    /// [`World::set_transforms`] and [`World::set_shapes`]. The answers do
    /// not depend on it. Work too small to gain from threads (a batch of at
    /// most 256 segments, fewer than 16,384 updates, a pair search that
    /// queries fewer than 2,048 moved colliders or walks a tree of fewer
    /// than 16,384 and the merge after it, a merge of fewer than 16,384 new
    /// pairs) runs on the calling thread.
    ///
    /// ```
    /// use collide::{Threads, World};
    /// let mut world = World::new();
    /// world.set_threads(Threads::CallingThread);
    /// assert_eq!(world.threads(), Threads::CallingThread);
    /// ```
    pub fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }

    /// The threads the world's batch work runs on.
    #[must_use]
    pub fn threads(&self) -> Threads {
        self.threads
    }

    /// The most colliders this world holds.
    #[inline]
    #[must_use]
    pub fn max_colliders(&self) -> usize {
        self.max_colliders
    }

    /// How many colliders the world holds.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.colliders.len()
    }

    /// Whether the world holds no collider.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.colliders.is_empty()
    }

    /// Adds a collider and returns its key.
    ///
    /// Errors: [`Error::NonFinite`], [`Error::InvertedBox`],
    /// [`Error::NegativeRadius`], [`Error::InvalidArgument`] (a rotation that
    /// is not a unit quaternion, or a cylinder or cone too thin to keep its
    /// axis direction where it is placed: its rim would move by more than
    /// `4ε·m + 128ε·r`, see [`Shape::transformed`]),
    /// [`Error::CapacityExceeded`]. The same holds for every update
    /// ([`World::set_transform`], [`World::set_transforms`],
    /// [`World::set_shape`], [`World::set_shapes`]).
    pub fn add(&mut self, desc: ColliderDesc) -> Result<ColliderKey> {
        if self.colliders.len() >= self.max_colliders {
            return Err(Error::CapacityExceeded);
        }
        let (mut record, leaf) = NewCollider::new(desc)?.into_record(&mut self.tables);
        let bvh = &mut self.bvh;
        let key = self.colliders.insert_with_key(|key| {
            let leaf = leaf.with_key(key);
            record.proxy = bvh.insert(&leaf.aabb, leaf.data, leaf.exact);
            record
        });
        self.free_slots.pop();
        self.pair_cache.mark(self.colliders[key].proxy);
        Ok(key)
    }

    /// Adds many colliders at once (a level load) and returns their keys in
    /// order; all or nothing: if any description is invalid, or they would
    /// not all fit, none is added. A batch into an empty world, or at least
    /// as large as the world (and 64 colliders), is placed in the tree by
    /// one SAH build, faster than adding one by one
    /// and a better tree than incremental insertion (no
    /// [`World::optimize`] needed).
    ///
    /// Errors: those of [`World::add`], and [`Error::OutOfMemory`] when
    /// room for the batch cannot be allocated (nothing is added).
    pub fn extend(&mut self, descs: impl IntoIterator<Item = ColliderDesc>) -> Result<Vec<ColliderKey>> {
        // Each collider's record goes straight into its slot, its leaf into
        // a list for the tree's batch insertion. An invalid description
        // takes the ones already placed out again.
        let descs = descs.into_iter();
        let room = self.max_colliders - self.colliders.len();
        let expected = descs.size_hint().0.min(room);
        self.colliders
            .try_reserve(expected)
            .map_err(|_| Error::OutOfMemory("the colliders of a batch"))?;
        let mut keys = Vec::new();
        keys.try_reserve_exact(expected)
            .map_err(|_| Error::OutOfMemory("the keys of a batch"))?;
        let mut leaves = Vec::new();
        leaves
            .try_reserve_exact(expected)
            .map_err(|_| Error::OutOfMemory("the leaves of a batch"))?;
        let mut overflow = false;
        for desc in descs {
            // Past the room, the rest are still validated (an invalid one
            // is reported first, as if all were checked before any placed).
            // One expression from description to record, so that the new
            // collider is not moved between the two.
            let fits = keys.len() < room;
            let tables = &mut self.tables;
            match NewCollider::new(desc).map(|new| fits.then(|| new.into_record(tables))) {
                Ok(Some((record, leaf))) => {
                    let key = self.colliders.insert(record);
                    leaves.push(leaf.with_key(key));
                    keys.push(key);
                    self.free_slots.pop();
                }
                Ok(None) => overflow = true,
                Err(error) => {
                    self.take_back(&keys);
                    return Err(error);
                }
            }
        }
        if overflow {
            self.take_back(&keys);
            return Err(Error::CapacityExceeded);
        }
        self.register(&keys, leaves);
        Ok(keys)
    }

    /// Puts the colliders `keys` name, already in the slot map, into the
    /// tree with their `leaves` (one batch) and the pair cache.
    fn register(&mut self, keys: &[ColliderKey], leaves: Vec<Leaf<Proxy>>) {
        let proxies = self.bvh.insert_batch(leaves);
        for (&key, proxy) in keys.iter().zip(proxies) {
            self.colliders[key].proxy = proxy;
            self.pair_cache.mark(proxy);
        }
    }

    /// Takes the collider `key` names out of the slot map (and its entries
    /// out of the record tables), noting the version its slot has from now
    /// on; gives back its leaf.
    fn take_out(&mut self, key: ColliderKey) -> Option<u32> {
        let proxy = self.colliders.remove(key)?.release(&mut self.tables);
        let (slot, version) = key.slot_and_version();
        if self.free_versions.len() <= slot {
            self.free_versions.resize(slot + 1, 0);
        }
        self.free_versions[slot] = version.wrapping_add(1);
        self.free_slots.push(slot as u32);
        Some(proxy)
    }

    /// Removes the colliders a failed [`World::extend`] placed, in reverse
    /// order, so the slot map's free list is as it was (only the slots'
    /// versions moved on: the keys handed out never were).
    fn take_back(&mut self, keys: &[ColliderKey]) {
        for &key in keys.iter().rev() {
            self.take_out(key);
        }
    }

    /// Removes a collider and returns its description (what
    /// [`World::add`] takes to make it again); [`Error::StaleHandle`] if the
    /// key names no live collider.
    ///
    /// ```
    /// use collide::{ColliderDesc, Error, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// let desc = ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))).with_user_data(3);
    /// let key = world.add(desc.clone())?;
    /// assert_eq!(world.remove(key)?, desc);
    /// assert_eq!(world.remove(key), Err(Error::StaleHandle));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn remove(&mut self, key: ColliderKey) -> Result<ColliderDesc> {
        let desc = self.get(key).ok_or(Error::StaleHandle)?.desc();
        let proxy = self.take_out(key).ok_or(Error::StaleHandle)?;
        self.bvh.remove(proxy);
        self.pair_cache.mark(proxy);
        Ok(desc)
    }

    /// Rebuilds the broad phase's tree from scratch by binned SAH: call it
    /// after adding many colliders at once (a level load), as Jolt's
    /// `OptimizeBroadPhase`. Queries are correct without it, only slower
    /// until the tree has been rebuilt.
    pub fn optimize(&mut self) {
        self.bvh.rebuild();
    }

    /// Whether `key` names a live collider.
    #[inline]
    #[must_use]
    pub fn contains(&self, key: ColliderKey) -> bool {
        self.colliders.contains_key(key)
    }

    /// The collider `key` names, if it is alive: a view of it, valid until
    /// the world changes.
    ///
    /// ```
    /// use collide::{ColliderDesc, Shape, Sphere, Transform, World, math::Vec3};
    /// let mut world = World::new();
    /// let ball = ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)))
    ///     .with_transform(Transform::from_translation(Vec3::X))
    ///     .with_user_data(9);
    /// let key = world.add(ball)?;
    /// let c = world.get(key).unwrap();
    /// assert_eq!((c.key(), c.user_data()), (key, 9));
    /// assert_eq!(*c.world_shape(), Shape::Sphere(Sphere::new(Vec3::X, 1.0)));
    /// world.remove(key)?;
    /// assert!(world.get(key).is_none());
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn get(&self, key: ColliderKey) -> Option<ColliderRef<'_>> {
        self.view().get(key)
    }

    /// Every live collider, in key order.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, World, math::Vec3};
    /// let mut world = World::new();
    /// let unit = ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)));
    /// let keys = world.extend([unit.clone().with_user_data(1), unit.with_user_data(2)])?;
    /// let users: Vec<u64> = world.iter().map(|(_, c)| c.user_data()).collect();
    /// assert_eq!(users, [1, 2]);
    /// assert!(world.iter().map(|(k, _)| k).eq(keys));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (ColliderKey, ColliderRef<'_>)> {
        self.view().iter()
    }

    /// The colliders as the broad phase reads them.
    #[inline]
    fn view(&self) -> Colliders<'_> {
        Colliders::new(&self.colliders, &self.tables, &self.bvh)
    }

    /// Changes one collider: a batch of one ([`World::update_batch`], the
    /// one path every update takes).
    fn update(
        &mut self,
        key: ColliderKey,
        place: impl Fn(ColliderRef<'_>) -> Result<Placement> + Sync,
        apply_record: impl Fn(&mut ColliderRecord, &mut RecordTables) + Sync,
        apply_leaf: impl Fn(&mut Proxy) + Sync,
    ) -> Result<()> {
        self.update_batch(
            &[(key, ())],
            |collider, ()| place(collider),
            |record, tables, ()| apply_record(record, tables),
            |proxy, ()| apply_leaf(proxy),
        )
    }

    /// Moves, rotates or scales a collider (the book's
    /// `BoxComponent::OnUpdateWorldTransform`).
    pub fn set_transform(&mut self, key: ColliderKey, transform: Transform) -> Result<()> {
        self.update(
            key,
            |c| c.placement_under(&transform, c.should_rotate()),
            |_, _| {},
            |_| {},
        )
    }

    /// Moves, rotates or scales many colliders: [`World::set_transform`] for
    /// each `(key, transform)` in order (a key given twice ends with its last
    /// transform), all or nothing: on the first stale key or invalid
    /// transform the error is returned and no collider has changed
    /// ([`Error::OutOfMemory`] when the batch's placements cannot be
    /// allocated).
    ///
    /// A batch of 16,384 updates or more derives its placements on the
    /// world's threads ([`World::set_threads`]), then applies them on two:
    /// the colliders' records on one, the tree on the other.
    ///
    /// Faster than one call per collider when the colliders are many and
    /// scattered in memory: the updates run in blocks whose colliders, tree
    /// leaves and tree nodes are all requested from memory before the first
    /// is used, so their cache misses overlap instead of following one
    /// another (each update reads a collider, then its leaf, then its
    /// node: three dependent loads).
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, Transform, World, math::Vec3};
    /// let mut world = World::new();
    /// let unit = ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)));
    /// let keys = world.extend([unit.clone(), unit])?;
    /// let moves: Vec<_> = keys.iter().map(|&k| (k, Transform::from_translation(Vec3::X))).collect();
    /// world.set_transforms(&moves)?;
    /// assert_eq!(world.get(keys[1]).unwrap().aabb().min, Vec3::X);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn set_transforms(&mut self, updates: &[(ColliderKey, Transform)]) -> Result<()> {
        self.update_batch(
            updates,
            |c, transform| c.placement_under(transform, c.should_rotate()),
            |_, _, _| {},
            |_, _| {},
        )
    }

    /// Replaces many colliders' object-space shapes: [`World::set_shape`]
    /// for each `(key, shape)` in order, all or nothing, in blocks as
    /// [`World::set_transforms`] does.
    pub fn set_shapes(&mut self, updates: &[(ColliderKey, Shape)]) -> Result<()> {
        self.update_batch(
            updates,
            |c, shape| {
                shape.validate()?;
                Placement::of(shape, &c.transform(), c.should_rotate())
            },
            |record, tables, shape| record.set_shape(shape.clone(), tables),
            |_, _| {},
        )
    }

    /// The batch behind every update ([`World::set_transforms`],
    /// [`World::set_shapes`], and each single update as a batch of one):
    /// every collider's new placement (transform, world shape, bounds) is
    /// derived by `place` from the collider as it is and the update's value
    /// (an update that changes no placement keeps the current one), and
    /// validated ([`World::derive_one`]), into a buffer the world
    /// keeps; only then does each collider take its placement,
    /// `apply_record` its value to its record and `apply_leaf` to its leaf's
    /// payload ([`World::apply_one`], [`World::apply_batch`]). `place` reads
    /// the fields an update of its kind leaves alone, so a key given twice
    /// ends with its last update, as one call per update would. Only the
    /// placements wait in the buffer; no description is copied. A batch of
    /// one needs no buffer. On a world beyond the caches
    /// ([`CACHED_BYTES`]) both passes ask for what they will read
    /// ahead of time ([`World::prefetch_block`], [`PathPrefetch`]).
    fn update_batch<T: Sync>(
        &mut self,
        updates: &[(ColliderKey, T)],
        place: impl Fn(ColliderRef<'_>, &T) -> Result<Placement> + Sync,
        apply_record: impl Fn(&mut ColliderRecord, &mut RecordTables, &T) + Sync,
        apply_leaf: impl Fn(&mut Proxy, &T) + Sync,
    ) -> Result<()> {
        if let [(key, value)] = updates {
            // Applied where it lies in its `Result`: moved out of it, the
            // placement would be copied at other widths than it was written.
            let mut placement = self.derive_one(*key, value, &place);
            return match &mut placement {
                Ok(placement) => {
                    self.apply_one(*key, value, placement, &apply_record, &apply_leaf);
                    Ok(())
                }
                Err(error) => Err(*error),
            };
        }
        // `pending`'s buffers are empty between calls; taken out (and put
        // back) so that the placements can be read while colliders change.
        let mut pending = core::mem::take(&mut self.pending);
        let derived = self.derive_batch(updates, &place, &mut pending);
        if derived.is_ok() {
            self.apply_batch(updates, &mut pending, &apply_record, &apply_leaf);
        }
        for share in &mut pending {
            share.placements.clear();
            share.leaves.clear();
        }
        self.pending = pending;
        derived
    }

    /// The placement one update gives the collider `key`.
    #[inline]
    fn derive_one<T>(
        &self,
        key: ColliderKey,
        value: &T,
        place: &impl Fn(ColliderRef<'_>, &T) -> Result<Placement>,
    ) -> Result<Placement> {
        place(self.live(key)?, value)
    }

    /// Applies one derived update to the live collider `key`: the record
    /// takes its value and placement, then the leaf its move and its payload
    /// change, and the pair cache marks it: [`RecordSteps::step`] then
    /// [`LeafSteps::step`], written as one so that the bounds go from the
    /// placement to the tree in registers rather than through a
    /// [`LeafMove`] in memory.
    #[inline]
    fn apply_one<T>(
        &mut self,
        key: ColliderKey,
        value: &T,
        placement: &mut Placement,
        apply_record: &impl Fn(&mut ColliderRecord, &mut RecordTables, &T),
        apply_leaf: &impl Fn(&mut Proxy, &T),
    ) {
        let record = &mut self.colliders[key];
        let mut proxy = self.bvh.leaf(record.proxy).data;
        apply_record(record, &mut self.tables, value);
        apply_leaf(&mut proxy, value);
        let aabb = record.place(placement, &mut self.tables);
        self.bvh.update(record.proxy, &aabb, proxy, record.is_box());
        self.pair_cache.mark(record.proxy);
    }

    /// Whether a batch of `len` updates derives its placements on several
    /// threads ([`World::derive_batch`]) and applies them in two parts side
    /// by side ([`World::apply_batch`]).
    fn applies_side_by_side(&self, len: usize) -> bool {
        self.threads.count() > 1 && len >= 2 * UPDATES_PER_SHARE
    }

    /// Applies a derived batch (every placement `Ok`), in the batch's
    /// order, in two parts that touch different memory: the records take
    /// their placements and values ([`RecordSteps`]), and the tree moves the
    /// leaves, the pair cache marking them ([`LeafSteps`]). A large batch on
    /// several threads ([`World::applies_side_by_side`]) runs the two parts
    /// side by side, one thread each (the tree's first, the larger), the
    /// tree reading the leaves' moves its derivation noted rather than the
    /// records. Otherwise each update takes both steps in turn, its leaf's
    /// move read from the record it just wrote, so that the memory the two
    /// parts wait on is asked for together and nothing more is noted.
    fn apply_batch<T: Sync>(
        &mut self,
        updates: &[(ColliderKey, T)],
        pending: &mut [PendingShare],
        apply_record: &(impl Fn(&mut ColliderRecord, &mut RecordTables, &T) + Sync),
        apply_leaf: &(impl Fn(&mut Proxy, &T) + Sync),
    ) {
        let fetch_ahead = self.beyond_caches();
        let side_by_side = self.applies_side_by_side(updates.len());
        let threads = self.threads;
        let World {
            colliders,
            tables,
            bvh,
            pair_cache,
            ..
        } = self;
        let mut records = RecordSteps { colliders, tables };
        let mut tree = LeafSteps {
            bvh,
            pair_cache,
            paths: PathPrefetch::new(),
        };
        let (placements, leaves): (Vec<_>, Vec<_>) = pending
            .iter_mut()
            .map(|share| (share.placements.as_mut_slice(), share.leaves.as_slice()))
            .unzip();
        if !side_by_side {
            // The shares' placements are the updates' in order.
            let mut next = updates.iter().enumerate();
            for share in placements {
                for (placement, (i, (key, value))) in share.iter_mut().flatten().zip(&mut next) {
                    if fetch_ahead {
                        records.fetch_ahead(updates, i);
                        let ahead = updates.get(i + LEAF_AHEAD).and_then(|(key, _)| records.proxy(*key));
                        tree.fetch_ahead(i, updates.len(), ahead);
                    }
                    let leaf = records.step(*key, value, placement, apply_record);
                    tree.step(&leaf, value, apply_leaf);
                }
            }
            return;
        }
        let moves = || leaves.iter().flat_map(|share| share.iter());
        let sides = vec![ApplySide::Tree(tree), ApplySide::Records(records, placements)];
        threads.for_each_share(sides, |side| match side {
            ApplySide::Tree(mut tree) => {
                let mut ahead = moves().skip(LEAF_AHEAD);
                for (i, (leaf, (_, value))) in moves().zip(updates).enumerate() {
                    let next = ahead.next();
                    if fetch_ahead {
                        tree.fetch_ahead(i, updates.len(), next.map(|leaf| leaf.proxy));
                    }
                    tree.step(leaf, value, apply_leaf);
                }
            }
            ApplySide::Records(mut records, placements) => {
                let mut next = updates.iter().enumerate();
                for share in placements {
                    for (placement, (i, (key, value))) in share.iter_mut().flatten().zip(&mut next) {
                        if fetch_ahead {
                            records.fetch_ahead(updates, i);
                        }
                        records.step(*key, value, placement, apply_record);
                    }
                }
            }
        });
    }

    /// Derives the placements `updates` make, in order, into `pending`'s
    /// buffers (one per share, grown as needed): shared among the world's
    /// threads when the batch is large, each share a contiguous run of
    /// updates. The first error in the batch's order is returned.
    fn derive_batch<T: Sync>(
        &self,
        updates: &[(ColliderKey, T)],
        place: &(impl Fn(ColliderRef<'_>, &T) -> Result<Placement> + Sync),
        pending: &mut Vec<PendingShare>,
    ) -> Result<()> {
        // A batch whose derivation is shared is applied side by side too,
        // and its derivation notes the leaves' moves for that.
        if !self.applies_side_by_side(updates.len()) {
            if pending.is_empty() {
                pending.push(PendingShare::default());
            }
            return self.derive_share(updates, place, &mut pending[0], false);
        }
        let threads = self.threads.count();
        let per_share = updates
            .len()
            .div_ceil(threads.saturating_mul(UPDATE_SHARES_PER_THREAD))
            .max(UPDATES_PER_SHARE);
        let parts: Vec<_> = updates.chunks(per_share).collect();
        if pending.len() < parts.len() {
            pending.resize_with(parts.len(), PendingShare::default);
        }
        let mut results: Vec<Result<()>> = vec![Ok(()); parts.len()];
        let shares: Vec<_> = parts
            .into_iter()
            .zip(pending.iter_mut())
            .zip(results.iter_mut())
            .collect();
        self.threads.for_each_share(shares, |((part, out), result)| {
            on_own_copy(out, |out| *result = self.derive_share(part, place, out, true));
        });
        results.into_iter().collect()
    }

    /// [`World::derive_batch`] for one share: its placements into `out`,
    /// and with `note_leaves` its leaves' moves, stopping at the first
    /// error.
    fn derive_share<T>(
        &self,
        updates: &[(ColliderKey, T)],
        place: &impl Fn(ColliderRef<'_>, &T) -> Result<Placement>,
        out: &mut PendingShare,
        note_leaves: bool,
    ) -> Result<()> {
        out.placements
            .try_reserve(updates.len())
            .map_err(|_| Error::OutOfMemory("the placements of a batch update"))?;
        if note_leaves {
            out.leaves
                .try_reserve(updates.len())
                .map_err(|_| Error::OutOfMemory("the leaf moves of a batch update"))?;
        }
        let fetch_ahead = self.beyond_caches();
        for block in updates.chunks(UPDATE_BLOCK) {
            if fetch_ahead {
                self.prefetch_block(block);
            }
            for (key, value) in block {
                let collider = self.live(*key);
                out.placements
                    .push(collider.and_then(|collider| place(collider, value)));
                match (out.placements.last(), collider) {
                    (Some(Err(error)), _) => return Err(*error),
                    (Some(Ok(placement)), Ok(collider)) if note_leaves => out.leaves.push(LeafMove {
                        proxy: collider.proxy(),
                        aabb: placement.aabb(),
                        exact: placement.is_box(),
                    }),
                    // A placement derived is `Ok` only for a live collider.
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Whether the tree and the collider slots take more than
    /// [`CACHED_BYTES`]: then a batch update's loads wait on memory, and
    /// asking for them ahead of time pays.
    fn beyond_caches(&self) -> bool {
        self.bvh.memory_bytes() + self.colliders.capacity() * COLLIDER_SLOT_BYTES > CACHED_BYTES
    }

    /// Requests a block's colliders and their leaves from memory (the
    /// loads are independent, so they overlap).
    fn prefetch_block<T>(&self, block: &[(ColliderKey, T)]) {
        for &(key, _) in block {
            if let Some(record) = self.colliders.get(key) {
                prefetch(record);
                self.bvh.prefetch_leaf(record.proxy);
            }
        }
    }

    /// Replaces a collider's object-space shape (of any kind).
    pub fn set_shape(&mut self, key: ColliderKey, shape: Shape) -> Result<()> {
        self.update(
            key,
            |c| {
                shape.validate()?;
                Placement::of(&shape, &c.transform(), c.should_rotate())
            },
            |record, tables| record.set_shape(shape.clone(), tables),
            |_| {},
        )
    }

    /// Sets the book's `mShouldRotate` switch of a box collider.
    pub fn set_should_rotate(&mut self, key: ColliderKey, should_rotate: bool) -> Result<()> {
        self.update(
            key,
            |c| c.placement_under(&c.transform(), should_rotate),
            |record, _| record.set_should_rotate(should_rotate),
            |_| {},
        )
    }

    /// Sets a collider's user-data word.
    pub fn set_user_data(&mut self, key: ColliderKey, user_data: u64) -> Result<()> {
        self.update(
            key,
            |c| Ok(c.placement()),
            |_, _| {},
            |proxy| proxy.user_data = user_data,
        )
    }

    /// Sets a collider's category and mask.
    pub fn set_filter(&mut self, key: ColliderKey, filter: Filter) -> Result<()> {
        self.update(key, |c| Ok(c.placement()), |_, _| {}, |proxy| proxy.filter = filter)
    }

    /// The closest collider hit by the closed segment `start + t·(end −
    /// start)`, `t ∈ [0, 1]`, among those `filter` accepts (the book's
    /// `PhysWorld::SegmentCast`). Solid shapes: a segment starting inside a
    /// collider hits it at `t = 0`. Ties in `t` go to the smaller key. A
    /// zero-length segment hits the colliders containing its point.
    ///
    /// The tree is walked front to back and the segment shortened at each
    /// hit; nothing is allocated.
    ///
    /// Errors: [`Error::NonFinite`] for a NaN or infinite end point.
    #[inline]
    pub fn segment_cast(&self, segment: &Segment, filter: &QueryFilter) -> Result<Option<Hit>> {
        check_segment(segment)?;
        Ok(self.closest_hit(segment, filter))
    }

    fn closest_hit(&self, segment: &Segment, filter: &QueryFilter) -> Option<Hit> {
        let mut best: Option<(ColliderKey, u64, CastHit)> = None;
        self.bvh.cast(segment.start, segment.end, filter.mask, |leaf| {
            let Some(cast) = self.cast_leaf(leaf, segment, filter) else {
                return ControlFlow::Continue(None);
            };
            let Proxy { key, user_data, .. } = leaf.data;
            if best.is_none_or(|(best_key, _, b)| cast.t < b.t || (cast.t == b.t && key < best_key)) {
                best = Some((key, user_data, cast));
            }
            ControlFlow::Continue(Some(cast.t))
        });
        best.map(|(key, user_data, cast)| Hit::new(key, user_data, segment, cast))
    }

    /// The closest collider the ray hits within `t ∈ [0, max_t]`, among
    /// those `filter` accepts (parry's and rapier's `cast_ray`): the
    /// [`World::segment_cast`] from the origin to `ray.point_at(max_t)`,
    /// with the hit's `t` in units of the ray's direction
    /// (`point = origin + t·direction`; with a unit direction, `t` is the
    /// distance).
    ///
    /// ```
    /// use collide::{query::Ray, Aabb, ColliderDesc, QueryFilter, Shape, World, math::Vec3};
    /// let mut world = World::new();
    /// let wall = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(4.0, -1.0, -1.0), Vec3::new(5.0, 1.0, 1.0)))))?;
    /// let ray = Ray::new(Vec3::ZERO, Vec3::X);
    /// let hit = world.cast_ray(&ray, 100.0, &QueryFilter::ALL)?.unwrap();
    /// assert_eq!((hit.collider, hit.t, hit.point), (wall, 4.0, Vec3::new(4.0, 0.0, 0.0)));
    /// assert!(world.cast_ray(&ray, 3.0, &QueryFilter::ALL)?.is_none());
    /// # Ok::<(), collide::Error>(())
    /// ```
    ///
    /// Errors: [`Error::NonFinite`] for a NaN or infinite origin or
    /// direction, or a ray whose end at `max_t` is beyond the `f32` range;
    /// [`Error::InvalidArgument`] for a negative or NaN `max_t`.
    pub fn cast_ray(&self, ray: &Ray, max_t: f32, filter: &QueryFilter) -> Result<Option<Hit>> {
        if !(max_t >= 0.0) {
            return Err(Error::InvalidArgument("a ray's max_t is negative or NaN"));
        }
        let segment = ray
            .segment(max_t)
            .ok_or(Error::NonFinite("a ray's origin, direction or end at max_t"))?;
        Ok(self.segment_cast(&segment, filter)?.map(|hit| Hit {
            t: hit.t * max_t,
            ..hit
        }))
    }

    /// The exact cast of one tree leaf, if the filter accepts it.
    #[inline]
    fn cast_leaf(&self, leaf: &Leaf<Proxy>, segment: &Segment, filter: &QueryFilter) -> Option<CastHit> {
        if !filter.accepts(leaf.data.key, &leaf.data.filter) {
            return None;
        }
        if leaf.exact {
            segment.cast_aabb(&leaf.aabb)
        } else {
            self.at_leaf(leaf).world_shape().cast_segment(segment)
        }
    }

    /// Whether the segment hits any collider `filter` accepts, and one such
    /// hit (not necessarily the closest): the walk stops at the first.
    /// Cheaper than [`World::segment_cast`] for line-of-sight checks.
    pub fn segment_cast_any(&self, segment: &Segment, filter: &QueryFilter) -> Result<Option<Hit>> {
        check_segment(segment)?;
        let mut found: Option<Hit> = None;
        self.bvh.cast(segment.start, segment.end, filter.mask, |leaf| {
            let Some(cast) = self.cast_leaf(leaf, segment, filter) else {
                return ControlFlow::Continue(None);
            };
            found = Some(Hit::new(leaf.data.key, leaf.data.user_data, segment, cast));
            ControlFlow::Break(())
        });
        Ok(found)
    }

    /// Every collider the segment hits, each once with its first contact,
    /// sorted by `t` (ties by key), written into `hits` (cleared first; its
    /// allocation is reused). For piercing shots.
    pub fn segment_cast_all(&self, segment: &Segment, filter: &QueryFilter, hits: &mut Vec<Hit>) -> Result<()> {
        check_segment(segment)?;
        hits.clear();
        self.bvh.cast(segment.start, segment.end, filter.mask, |leaf| {
            if let Some(cast) = self.cast_leaf(leaf, segment, filter) {
                hits.push(Hit::new(leaf.data.key, leaf.data.user_data, segment, cast));
            }
            ControlFlow::Continue(None)
        });
        // By `t` as `segment_cast` compares it (−0.0 ties with 0.0; no `t`
        // is NaN), then by key.
        hits.sort_unstable_by(|a, b| {
            a.t.partial_cmp(&b.t)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(a.collider.cmp(&b.collider))
        });
        Ok(())
    }

    /// The closest hit of every segment, `hits[i]` for `segments[i]`: many
    /// bullets in one call. A batch of more than 256 segments is shared
    /// among the threads [`World::set_threads`] chose (by default rayon's
    /// global pool with the `parallel` feature, the calling thread without
    /// it); a smaller one, or one with [`Threads::CallingThread`], runs on
    /// the calling thread and allocates nothing. The hits are the same
    /// whatever the threads.
    ///
    /// Errors: [`Error::InvalidArgument`] when the slices' lengths differ,
    /// [`Error::NonFinite`] for a NaN or infinite end point (then `hits` is
    /// left untouched).
    pub fn segment_cast_batch(
        &self,
        segments: &[Segment],
        filter: &QueryFilter,
        hits: &mut [Option<Hit>],
    ) -> Result<()> {
        if segments.len() != hits.len() {
            return Err(Error::InvalidArgument("one hit slot per segment is needed"));
        }
        if segments.len() <= BATCH_CHUNK || self.threads.count() <= 1 {
            segments.iter().try_for_each(check_segment)?;
            self.cast_each(segments, filter, hits);
            return Ok(());
        }
        // Every segment is checked before any hit is written: on the pool's
        // threads, whose jobs cost little, or on the calling thread where
        // each call starts its threads (a check is a few comparisons a
        // segment; starting the threads a second time costs far more).
        if self.threads.starts_threads_per_call() {
            segments.iter().try_for_each(check_segment)?;
        } else {
            let mut checks: Vec<Result<()>> = vec![Ok(()); segments.len().div_ceil(BATCH_CHUNK)];
            let shares: Vec<_> = segments.chunks(BATCH_CHUNK).zip(&mut checks).collect();
            self.threads
                .for_each_share(shares, |(segs, check)| *check = segs.iter().try_for_each(check_segment));
            checks.into_iter().collect::<Result<()>>()?;
        }
        let shares: Vec<_> = hits.chunks_mut(BATCH_CHUNK).zip(segments.chunks(BATCH_CHUNK)).collect();
        self.threads
            .for_each_share(shares, |(out, segs)| self.cast_each(segs, filter, out));
        Ok(())
    }

    /// `hits[i]` = the closest hit of `segments[i]`, checked already.
    fn cast_each(&self, segments: &[Segment], filter: &QueryFilter, hits: &mut [Option<Hit>]) {
        for (hit, segment) in hits.iter_mut().zip(segments) {
            *hit = self.closest_hit(segment, filter);
        }
    }

    /// Calls `f` for every collider `filter` accepts whose world shape
    /// overlaps `shape`, until `f` answers `Break` ([`VisitResult`]) (in world space, of any kind, tested exactly by
    /// [`Shape::intersects`]; touching counts): the region query
    /// ("everything in the blast radius": pass a sphere; "everything in this
    /// trigger box": pass a box). Mesh colliders are tested triangle by
    /// triangle ([`TriangleMesh::intersects`](crate::shape::TriangleMesh::intersects)).
    ///
    /// Errors: the shape's validation errors; [`Error::InvalidArgument`]
    /// for a mesh as the query shape.
    pub fn intersections_with_shape<R: VisitResult>(
        &self,
        shape: &Shape,
        filter: &QueryFilter,
        mut f: impl FnMut(ColliderKey, ColliderRef<'_>) -> R,
    ) -> Result<()> {
        check_query_shape(shape)?;
        let bounds = shape.bounding_aabb();
        let query_is_box = matches!(shape, Shape::Aabb(_));
        self.for_each_candidate(&bounds, filter, |leaf| {
            let (key, collider) = (leaf.data.key, self.at_leaf(leaf));
            if (query_is_box && leaf.exact) || shape.intersects(&collider.world_shape()) {
                f(key, collider).control_flow()
            } else {
                ControlFlow::Continue(())
            }
        });
        Ok(())
    }

    /// Calls `visit(leaf)` for every leaf `filter` accepts whose tight box
    /// overlaps `region` (the tree's walk tests the boxes in its nodes),
    /// until it answers `Break`: the candidates of every region, swept and
    /// nearest query, for the exact test to decide.
    fn for_each_candidate(
        &self,
        region: &Aabb,
        filter: &QueryFilter,
        mut visit: impl FnMut(&Leaf<Proxy>) -> ControlFlow<()>,
    ) {
        self.bvh.query(region, filter.mask, |_, leaf| {
            if filter.accepts(leaf.data.key, &leaf.data.filter) && leaf.aabb.intersects_aabb(region) {
                visit(leaf)
            } else {
                ControlFlow::Continue(())
            }
        });
    }

    /// The first collider `filter` accepts that `shape` (in world space)
    /// touches when moved linearly by `motion`: a swept-shape cast for
    /// bullets with a size, and the step of a character controller.
    ///
    /// Broad phase: one tree query with the swept bounds (the shape's
    /// bounds at the start and at the end of the motion, and between);
    /// narrow phase: [`Shape::cast_shape`] for each candidate (closed forms
    /// for sphere and capsule pairs, GJK ray casting otherwise). The
    /// earliest contact wins, ties to the smaller key. A shape that already
    /// touches a collider hits it at `t = 0`. A mesh collider is cast
    /// against triangle by triangle, the earliest wins.
    ///
    /// Errors: the shape's validation errors, [`Error::NonFinite`] for a
    /// NaN or infinite motion, [`Error::InvalidArgument`] for a mesh as the
    /// moving shape.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, QueryFilter, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// let wall = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(5.0, -1.0, -1.0), Vec3::new(6.0, 1.0, 1.0)))))?;
    /// let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
    /// let hit = world.cast_shape(&ball, Vec3::new(8.0, 0.0, 0.0), &QueryFilter::ALL)?.unwrap();
    /// assert_eq!((hit.collider, hit.t, hit.normal), (wall, 0.5, Vec3::NEG_X));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn cast_shape(&self, shape: &Shape, motion: Vec3, filter: &QueryFilter) -> Result<Option<Hit>> {
        check_query_shape(shape)?;
        check_motion(&shape.bounding_aabb(), motion)?;
        Ok(self.first_hit(shape, motion, filter, |_| true))
    }

    /// The collider `filter` accepts that `shape` overlaps deepest, as the
    /// [`Hit`] of a push out of it at `t = 0` (the normal the surface's,
    /// from the collider towards the shape; the point on the collider) and
    /// the depth; `None` when it overlaps none by more than 0. Ties go to
    /// the smaller key.
    pub(crate) fn deepest_overlap(&self, shape: &Shape, filter: &QueryFilter) -> Option<(Hit, f32)> {
        let mut best: Option<(Hit, f32)> = None;
        self.for_each_candidate(&shape.bounding_aabb(), filter, |leaf| {
            let key = leaf.data.key;
            let collider = self.at_leaf(leaf);
            if let Some(contact) = shape.contact(&collider.world_shape()) {
                let deeper =
                    best.is_none_or(|(b, depth)| contact.depth > depth || (contact.depth == depth && key < b.collider));
                if contact.depth > 0.0 && deeper {
                    let hit = Hit {
                        collider: key,
                        user_data: collider.user_data(),
                        t: 0.0,
                        point: contact.point_b,
                        normal: -contact.normal,
                        sub_shape: contact.sub_shapes[1],
                    };
                    best = Some((hit, contact.depth));
                }
            }
            ControlFlow::Continue(())
        });
        best
    }

    /// The earliest hit of the swept `shape` among the colliders `filter`
    /// accepts whose hit `keep` accepts (ties to the smaller key); the
    /// input is already validated.
    pub(crate) fn first_hit(
        &self,
        shape: &Shape,
        motion: Vec3,
        filter: &QueryFilter,
        keep: impl Fn(&Hit) -> bool,
    ) -> Option<Hit> {
        let swept = shape.bounding_aabb().swept(motion);
        let mut best: Option<Hit> = None;
        self.for_each_candidate(&swept, filter, |leaf| {
            let key = leaf.data.key;
            let collider = self.at_leaf(leaf);
            let Some(toi) = shape.cast_shape(motion, &collider.world_shape()) else {
                return ControlFlow::Continue(());
            };
            let hit = Hit {
                collider: key,
                user_data: collider.user_data(),
                t: toi.t,
                point: toi.point,
                normal: -toi.normal,
                sub_shape: toi.sub_shapes[1],
            };
            if keep(&hit) && best.is_none_or(|b| hit.t < b.t || (hit.t == b.t && hit.collider < b.collider)) {
                best = Some(hit);
            }
            ControlFlow::Continue(())
        });
        best
    }

    /// The collider `filter` accepts nearest to `shape` (in world space),
    /// if one is within `max_distance`, with the distance and closest
    /// points ([`Shape::distance`]; `point_a` on `shape`, `point_b` on the
    /// collider): aim at the nearest enemy. Colliders touching or
    /// overlapping the shape are at distance 0; ties go to the smaller key.
    ///
    /// Broad phase: one tree query with the shape's bounds grown by
    /// `max_distance` (no collider outside it can be within reach); narrow
    /// phase: GJK distance to each candidate.
    ///
    /// Errors: the shape's validation errors, [`Error::NonFinite`] for a
    /// NaN or infinite `max_distance`, [`Error::InvalidArgument`] for a
    /// negative one or a mesh as the query shape. A mesh collider's
    /// distance is its nearest triangle's.
    pub fn closest(
        &self,
        shape: &Shape,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Result<Option<(ColliderKey, Distance)>> {
        check_query_shape(shape)?;
        check_max_distance(max_distance)?;
        let reach = shape.bounding_aabb().expanded(max_distance);
        if !reach.is_finite() {
            return Err(Error::NonFinite("max_distance"));
        }
        let mut best: Option<(ColliderKey, Distance)> = None;
        self.for_each_candidate(&reach, filter, |leaf| {
            let key = leaf.data.key;
            let d = shape.distance(&self.at_leaf(leaf).world_shape());
            if d.distance <= max_distance
                && best
                    .is_none_or(|(best_key, b)| d.distance < b.distance || (d.distance == b.distance && key < best_key))
            {
                best = Some((key, d));
            }
            ControlFlow::Continue(())
        });
        Ok(best)
    }

    /// [`World::closest`] for a point: the nearest collider within
    /// `max_distance` of `point`, with the closest point on it as
    /// `point_b`.
    ///
    /// ```
    /// use collide::{ColliderDesc, QueryFilter, Shape, Sphere, Transform, World, math::Vec3};
    /// let mut world = World::new();
    /// let ball = |x: f32| ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))).with_transform(Transform::from_translation(Vec3::new(x, 0.0, 0.0)));
    /// let near = world.add(ball(3.0))?;
    /// world.add(ball(-5.0))?;
    /// let (key, d) = world.project_point(Vec3::ZERO, 10.0, &QueryFilter::ALL)?.unwrap();
    /// assert_eq!(key, near);
    /// assert!((d.distance - 2.0).abs() < 1e-6);
    /// assert!(world.project_point(Vec3::ZERO, 1.5, &QueryFilter::ALL)?.is_none());
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn project_point(
        &self,
        point: Vec3,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Result<Option<(ColliderKey, Distance)>> {
        self.closest(&Shape::Sphere(Sphere::new(point, 0.0)), max_distance, filter)
    }

    /// The tree over the colliders (for the debug drawing of its nodes).
    pub(crate) fn tree(&self) -> &Bvh<Proxy> {
        &self.bvh
    }

    /// The pairs the last [`World::pairs`] (or [`World::pair_events`]) found.
    pub(crate) fn last_pairs(&self) -> &[Pair] {
        self.pair_cache.last_pairs()
    }

    /// The live collider `key` names, or [`Error::StaleHandle`].
    fn live(&self, key: ColliderKey) -> Result<ColliderRef<'_>> {
        self.get(key).ok_or(Error::StaleHandle)
    }

    /// The collider whose leaf the tree handed out.
    #[inline]
    fn at_leaf<'w>(&'w self, leaf: &'w Leaf<Proxy>) -> ColliderRef<'w> {
        ColliderRef::new(&self.colliders[leaf.data.key], leaf, &self.tables)
    }

    /// The distance between two colliders' world shapes, with closest points
    /// (`point_a` on `a`, `point_b` on `b`), by [`Shape::distance`].
    ///
    /// A mesh collider is measured triangle by triangle (the nearest
    /// triangle's distance).
    ///
    /// Errors: [`Error::StaleHandle`] when either key names no live
    /// collider; [`Error::InvalidArgument`] when both are surfaces (static
    /// level geometry is never measured against itself; the answer would
    /// cost a pass over every pair of triangles).
    pub fn distance(&self, a: ColliderKey, b: ColliderKey) -> Result<Distance> {
        let (a, b) = (self.live(a)?.world_shape(), self.live(b)?.world_shape());
        if a.surface().is_some() && b.surface().is_some() {
            return Err(Error::InvalidArgument(
                "distance between two surfaces (triangle meshes or height fields)",
            ));
        }
        Ok(a.distance(&b))
    }

    /// The contact between two colliders' world shapes ([`Shape::contact`]):
    /// depth, the normal from `a` to `b`, and the deepest points; `None`
    /// when they are apart. A mesh collider answers with its deepest
    /// triangle's contact; two meshes never touch (`None`), as no pair
    /// finder reports them.
    ///
    /// Errors: [`Error::StaleHandle`] when either key names no live collider.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// let floor = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)))))?;
    /// let ball = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::new(0.0, 0.25, 0.0), 0.5))))?;
    /// let c = world.contact(floor, ball)?.unwrap();
    /// assert_eq!((c.depth, c.normal), (0.25, Vec3::Y));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn contact(&self, a: ColliderKey, b: ColliderKey) -> Result<Option<Contact>> {
        Ok(self.live(a)?.world_shape().contact(&self.live(b)?.world_shape()))
    }

    /// The contact manifold of two colliders' world shapes
    /// ([`Shape::contact_manifold`]): up to four points with one normal
    /// from `a` to `b`, a depth and a feature id each; `None` when they are
    /// apart.
    ///
    /// Errors: [`Error::StaleHandle`] when either key names no live collider.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, World, math::Vec3};
    /// let mut world = World::new();
    /// let floor = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)))))?;
    /// let crate_ = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(0.0, -0.1, 0.0), Vec3::ONE))))?;
    /// let m = world.contact_manifold(floor, crate_)?.unwrap();
    /// assert_eq!((m.normal, m.points().len()), (Vec3::Y, 4));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn contact_manifold(&self, a: ColliderKey, b: ColliderKey) -> Result<Option<ContactManifold>> {
        Ok(self
            .live(a)?
            .world_shape()
            .contact_manifold(&self.live(b)?.world_shape()))
    }

    /// The contact manifold of every current pair ([`World::pairs`]) whose
    /// shapes touch, into `out` (cleared first), in the pairs' order: what
    /// a solver takes each step. A pair with a compound gives one manifold
    /// per touching child ([`Shape::contact_manifolds`]), each naming its
    /// children in [`ContactManifold::sub_shapes`].
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, World, math::Vec3};
    /// let mut world = World::new();
    /// world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0)))))?;
    /// world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(0.0, -0.1, 0.0), Vec3::ONE))))?;
    /// world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(3.0, 2.0, 0.0), Vec3::new(4.0, 3.0, 1.0)))))?;
    /// let mut manifolds = Vec::new();
    /// world.contact_manifolds(&mut manifolds);
    /// assert_eq!(manifolds.len(), 1); // the crate on the floor; the other box floats
    /// assert_eq!(manifolds[0].1.points().len(), 4);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn contact_manifolds(&mut self, out: &mut Vec<(Pair, ContactManifold)>) {
        out.clear();
        let colliders = Colliders::new(&self.colliders, &self.tables, &self.bvh);
        let pairs = self.pair_cache.update(colliders, self.threads);
        for pair in pairs {
            let (a, b) = (colliders.at(pair.a), colliders.at(pair.b));
            a.world_shape()
                .for_each_contact_manifold(&b.world_shape(), &mut |m| out.push((*pair, m)));
        }
    }

    /// The closest hit by the O(n) loop over every collider: the reference
    /// [`World::segment_cast`] is tested against (same answer, ties included).
    #[doc(hidden)]
    pub fn segment_cast_brute_force(&self, segment: &Segment, filter: &QueryFilter) -> Result<Option<Hit>> {
        check_segment(segment)?;
        let mut best: Option<Hit> = None;
        for (key, collider) in self.iter() {
            if !filter.accepts(key, collider.filter()) {
                continue;
            }
            if let Some(cast) = collider.world_shape().cast_segment(segment) {
                if best.is_none_or(|b| cast.t < b.t) {
                    best = Some(Hit::new(key, collider.user_data(), segment, cast));
                }
            }
        }
        Ok(best)
    }

    /// Calls `f` once for every pair of overlapping colliders whose filters
    /// interact, by testing every pair (the book's O(n²) `TestPairwise`, the
    /// reference the faster finders are held to). Pairs come as `(a, b)`
    /// with `a < b` by key, in increasing `(a, b)` order, until `f` answers
    /// `Break` (see [`VisitResult`]).
    pub fn test_pairwise<R: VisitResult>(&self, f: impl FnMut(Pair) -> R) {
        naive::for_each_pair(self.view(), f);
    }

    /// The same pairs as [`World::test_pairwise`], in the same order, found
    /// by sweep and prune in the cells of a coarse grid across the sweep
    /// axis, until `f` answers `Break`. Takes `&mut self` because the finder
    /// keeps its arrays between calls.
    pub fn test_sweep_and_prune<R: VisitResult>(&mut self, mut f: impl FnMut(Pair) -> R) {
        for pair in self.pairs_sweep_and_prune() {
            if f(*pair).control_flow().is_break() {
                return;
            }
        }
    }

    /// The pairs of [`World::test_sweep_and_prune`] as a slice, valid until
    /// the next mutation: the allocation-free path.
    pub fn pairs_sweep_and_prune(&mut self) -> &[Pair] {
        let colliders = Colliders::new(&self.colliders, &self.tables, &self.bvh);
        self.sweep_and_prune.find_pairs(colliders, &mut self.pairs);
        &self.pairs
    }

    /// The same pairs as [`World::test_pairwise`], in the same order, found
    /// with the broad phase's tree, incrementally: the last call's pairs are
    /// kept but for colliders changed since, whose pairs are found by one
    /// tree query each (or, when many changed, by walking the tree against
    /// itself). Valid until the next mutation. The fastest finder, from
    /// frame to frame. A large search is shared among the world's threads
    /// ([`World::set_threads`]).
    pub fn pairs(&mut self) -> &[Pair] {
        self.pair_cache
            .update(Colliders::new(&self.colliders, &self.tables, &self.bvh), self.threads)
    }

    /// Finds the current pairs and reports which began and which ended
    /// since the previous call (the first call reports every pair as
    /// begun). A removed collider's pairs end. Both lists are sorted by
    /// `(a, b)` and valid until the next mutation; allocation is reused.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, World, math::Vec3};
    /// let mut world = World::new();
    /// let unit = |x: f32| ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0))));
    /// let a = world.add(unit(0.0))?;
    /// let b = world.add(unit(0.5))?;
    /// assert_eq!(world.pair_events().began.len(), 1);
    /// world.remove(b)?;
    /// let events = world.pair_events();
    /// assert_eq!((events.began.len(), events.ended[0].a, events.ended[0].b), (0, a, b));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn pair_events(&mut self) -> PairEvents<'_> {
        let current = self
            .pair_cache
            .update(Colliders::new(&self.colliders, &self.tables, &self.bvh), self.threads);
        events::diff(&self.previous_pairs, current, &mut self.began, &mut self.ended);
        self.previous_pairs.clear();
        self.previous_pairs.extend_from_slice(current);
        PairEvents {
            began: &self.began,
            ended: &self.ended,
        }
    }

    /// The events of the last [`World::pair_events`] call (empty before the
    /// first), valid until the next mutation.
    #[must_use]
    pub fn last_pair_events(&self) -> PairEvents<'_> {
        PairEvents {
            began: &self.began,
            ended: &self.ended,
        }
    }

    /// Bytes held by the world: the collider slots, the table of the
    /// shapes they do not hold and every broad-phase structure (capacities, not lengths),
    /// for memory budgets.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        // The slot map keeps one sentinel slot beyond its capacity.
        (self.colliders.capacity() + 1) * COLLIDER_SLOT_BYTES
            + self.tables.memory_bytes()
            + self.bvh.memory_bytes()
            + self.sweep_and_prune.memory_bytes()
            + self.pair_cache.memory_bytes()
            + (self.pairs.capacity() + self.previous_pairs.capacity() + self.began.capacity() + self.ended.capacity())
                * core::mem::size_of::<Pair>()
            + self
                .pending
                .iter()
                .map(|share| {
                    share.placements.capacity() * core::mem::size_of::<Result<Placement>>()
                        + share.leaves.capacity() * core::mem::size_of::<LeafMove>()
                })
                .sum::<usize>()
            + (self.free_versions.capacity() + self.free_slots.capacity()) * core::mem::size_of::<u32>()
    }

    /// Checks the broad phase's invariants (tree links, boxes, counts);
    /// for tests.
    #[doc(hidden)]
    pub fn validate(&self) -> core::result::Result<(), String> {
        self.bvh.validate()?;
        if self.bvh.len() != self.colliders.len() {
            return Err("tree and collider counts differ".into());
        }
        let (mut shapes, mut rotation_scales) = (Vec::new(), Vec::new());
        for (key, record) in &self.colliders {
            if !self.bvh.is_live(record.proxy) {
                return Err(format!("{key:?}'s leaf is not in the tree"));
            }
            let leaf = self.bvh.leaf(record.proxy);
            if leaf.data.key != key || leaf.exact != record.is_box() {
                return Err(format!("{key:?}'s leaf names another collider or kind"));
            }
            shapes.extend(record.shape_entries());
            rotation_scales.extend(record.rotation_scale_entry());
        }
        self.tables
            .shapes
            .check_named(shapes)
            .map_err(|e| format!("table of shapes: {e}"))?;
        self.tables
            .rotation_scales
            .check_named(rotation_scales)
            .map_err(|e| format!("table of rotations and scales: {e}"))
    }
}

/// The records' part of a batch's apply ([`World::apply_batch`]).
struct RecordSteps<'a> {
    colliders: &'a mut SlotMap<ColliderKey, ColliderRecord>,
    tables: &'a mut RecordTables,
}

impl RecordSteps<'_> {
    /// Before update `i` is applied: asks for the record [`RECORD_AHEAD`]
    /// updates on.
    #[inline]
    fn fetch_ahead<T>(&self, updates: &[(ColliderKey, T)], i: usize) {
        if let Some(record) = updates
            .get(i + RECORD_AHEAD)
            .and_then(|(key, _)| self.colliders.get(*key))
        {
            prefetch(record);
        }
    }

    /// The leaf of the live collider `key`.
    #[inline]
    fn proxy(&self, key: ColliderKey) -> Option<u32> {
        self.colliders.get(key).map(|record| record.proxy)
    }

    /// Collider `key`'s record takes `apply`'s value and its placement;
    /// returns its leaf's move.
    #[inline(always)]
    fn step<T>(
        &mut self,
        key: ColliderKey,
        value: &T,
        placement: &mut Placement,
        apply: &impl Fn(&mut ColliderRecord, &mut RecordTables, &T),
    ) -> LeafMove {
        let record = &mut self.colliders[key];
        apply(record, self.tables, value);
        let aabb = record.place(placement, self.tables);
        LeafMove {
            proxy: record.proxy,
            aabb,
            exact: record.is_box(),
        }
    }
}

/// The tree's part of a batch's apply ([`World::apply_batch`]).
struct LeafSteps<'a> {
    bvh: &'a mut Bvh<Proxy>,
    pair_cache: &'a mut PairCache,
    paths: PathPrefetch,
}

impl LeafSteps<'_> {
    /// Before update `i` of `len` is applied: asks for `ahead`, the leaf
    /// of the update [`LEAF_AHEAD`] on, and moves the paths in flight up
    /// ([`PathPrefetch`]).
    #[inline]
    fn fetch_ahead(&mut self, i: usize, len: usize, ahead: Option<u32>) {
        self.paths.advance(self.bvh, i, len, ahead);
    }

    /// The leaf takes its move and `apply`'s change to its payload, and
    /// the pair cache marks it.
    #[inline(always)]
    fn step<T>(&mut self, leaf: &LeafMove, value: &T, apply: &impl Fn(&mut Proxy, &T)) {
        let mut payload = self.bvh.leaf(leaf.proxy).data;
        apply(&mut payload, value);
        self.bvh.update(leaf.proxy, &leaf.aabb, payload, leaf.exact);
        self.pair_cache.mark(leaf.proxy);
    }
}

#[cfg(test)]
mod tests {
    use core::mem::ManuallyDrop;

    use super::{ColliderDesc, ColliderRecord, Transform, World, COLLIDER_SLOT_BYTES};
    use crate::math::{Quat, Vec3};
    use crate::shape::{Aabb, Obb, Shape, Sphere};

    /// The layout of a slot of slotmap 1's `SlotMap` (a union of the value
    /// and a free-list link, then the version), to check the slot size that
    /// `World::memory_bytes` counts.
    #[allow(dead_code)]
    union SlotUnion {
        value: ManuallyDrop<ColliderRecord>,
        next_free: u32,
    }

    #[allow(dead_code)]
    struct Slot {
        u: SlotUnion,
        version: u32,
    }

    #[test]
    fn collider_slot_bytes_are_the_slot_maps() {
        assert_eq!(COLLIDER_SLOT_BYTES, core::mem::size_of::<Slot>());
        assert!(COLLIDER_SLOT_BYTES > core::mem::size_of::<ColliderRecord>());
        assert_eq!(COLLIDER_SLOT_BYTES, 56);
    }

    /// A table entry is kept only for a world shape that is neither the
    /// collider's box nor its object shape, for an object shape other than
    /// a box or a sphere, and for a transform's rotation and scale other
    /// than the identity's; reused while the collider keeps needing one,
    /// freed when it stops or is removed, and handed to the next collider
    /// that needs one.
    #[test]
    fn table_entries_are_kept_only_where_needed() {
        let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let ball = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0));
        let moved = Transform::from_translation(Vec3::new(3.0, 0.0, 0.0));
        let turned = Transform {
            rotation: Quat::from_rotation_z(0.5),
            ..Transform::IDENTITY
        };
        let mut world = World::new();
        let boxes = world
            .extend((0..4).map(|_| ColliderDesc::new(Shape::Aabb(unit)).with_transform(moved)))
            .unwrap();
        let still = world.add(ColliderDesc::new(ball.clone())).unwrap();
        assert_eq!(world.tables.shapes.live(), 0, "boxes and a kept sphere need no entry");
        assert_eq!(world.tables.rotation_scales.live(), 0, "nor do translations");
        let rolling = world
            .add(ColliderDesc::new(ball.clone()).with_transform(moved))
            .unwrap();
        assert_eq!(world.tables.shapes.live(), 1);
        world.set_transform(rolling, turned).unwrap();
        world.set_transform(boxes[0], turned).unwrap();
        assert_eq!(
            world.tables.shapes.live(),
            1,
            "the entry is reused; a turned box stays a box"
        );
        assert_eq!(world.tables.rotation_scales.live(), 2, "each rotation has its entry");
        world.set_transform(still, moved).unwrap();
        assert_eq!(world.tables.shapes.live(), 2);
        world.set_shape(still, Shape::Aabb(unit)).unwrap();
        assert_eq!(world.tables.shapes.live(), 1, "a box frees its entry");
        world.remove(rolling).unwrap();
        assert_eq!(world.tables.shapes.live(), 0);
        let held = world.tables.shapes.memory_bytes();
        let obb = Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE));
        let tilted = world
            .add(ColliderDesc::new(obb.clone()).with_transform(turned))
            .unwrap();
        assert_eq!(
            world.tables.shapes.live(),
            2,
            "an oriented box's object shape and world shape"
        );
        assert_eq!(world.tables.shapes.memory_bytes(), held, "freed entries are reused");
        assert_eq!(world.validate(), Ok(()));
        let c = world.get(tilted).unwrap();
        assert_eq!(*c.shape(), obb);
        assert_eq!(
            Ok(c.world_shape().into_owned()),
            c.shape().transformed(&c.transform(), true)
        );
        let b = world.get(boxes[1]).unwrap();
        assert_eq!(*b.world_shape(), Shape::Aabb(*b.aabb()));
        world.set_shape(tilted, ball).unwrap();
        assert_eq!(
            world.tables.shapes.live(),
            1,
            "a sphere's object shape is kept in its slot"
        );
        world.set_shape(still, obb.clone()).unwrap();
        assert_eq!(world.tables.shapes.live(), 3);
        world.remove(still).unwrap();
        assert_eq!(world.tables.shapes.live(), 1);
        assert_eq!(world.validate(), Ok(()));
        assert_eq!(
            world.tables.rotation_scales.live(),
            2,
            "the box's and the oriented box's, now a sphere's"
        );
        world.set_transform(boxes[0], moved).unwrap();
        assert_eq!(world.tables.rotation_scales.live(), 1, "a translation frees its entry");
        assert_eq!(world.get(boxes[0]).unwrap().transform(), moved);
        world.remove(tilted).unwrap();
        assert_eq!(
            (world.tables.shapes.live(), world.tables.rotation_scales.live()),
            (0, 0)
        );
        assert_eq!(world.validate(), Ok(()));
    }
}
