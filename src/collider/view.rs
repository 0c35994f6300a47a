//! The colliders as callers and the broad phase read them: a record joined
//! with its leaf.

use std::borrow::Cow;

use slotmap::SlotMap;

use crate::bvh::{Bvh, Leaf};
use crate::error::Result;
use crate::math::{Aabb, Transform};
use crate::shape::Shape;

use super::world_shape::{WorldShape, WorldShapeAt};
use super::{ColliderDesc, ColliderKey, ColliderRecord, Filter, Placement, Proxy, RecordTables};

/// A live collider of a [`World`](crate::World), read through
/// [`World::get`](crate::World::get) and [`World::iter`](crate::World::iter):
/// a view of the world's storage, valid while the world is not changed.
///
/// ```
/// use collide::{Aabb, ColliderDesc, Shape, Transform, World, math::Vec3};
/// let mut world = World::new();
/// let desc = ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)))
///     .with_transform(Transform::from_translation(Vec3::X))
///     .with_user_data(7);
/// let key = world.add(desc.clone())?;
/// let collider = world.get(key).unwrap();
/// assert_eq!(collider.user_data(), 7);
/// assert_eq!(collider.aabb().min, Vec3::X);
/// assert_eq!(collider.desc(), desc);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct ColliderRef<'w> {
    record: &'w ColliderRecord,
    leaf: &'w Leaf<Proxy>,
    tables: &'w RecordTables,
}

impl<'w> ColliderRef<'w> {
    /// The view of a record, its leaf and the world's tables.
    #[inline]
    pub(crate) fn new(record: &'w ColliderRecord, leaf: &'w Leaf<Proxy>, tables: &'w RecordTables) -> Self {
        Self { record, leaf, tables }
    }

    /// The collider's leaf in the world's tree.
    #[inline]
    pub(crate) fn proxy(&self) -> u32 {
        self.record.proxy
    }

    /// The collider's key.
    ///
    /// ```
    /// use collide::{ColliderDesc, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// let key = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))))?;
    /// assert!(world.iter().all(|(k, c)| c.key() == k && k == key));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn key(&self) -> ColliderKey {
        self.leaf.data.key
    }

    /// The object-space shape: borrowed from the world, or for a box or a
    /// sphere (which the world keeps in fewer bytes than a [`Shape`]) made
    /// from what it keeps.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, Transform, World, math::Vec3};
    /// let mut world = World::new();
    /// let unit = Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE));
    /// let key = world.add(ColliderDesc::new(unit.clone()).with_transform(Transform::from_translation(Vec3::X)))?;
    /// assert_eq!(*world.get(key).unwrap().shape(), unit);
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn shape(&self) -> Cow<'w, Shape> {
        self.record.shape(self.tables)
    }

    /// The transform (rotation renormalised).
    #[inline]
    #[must_use]
    pub fn transform(&self) -> Transform {
        self.record.transform(self.tables)
    }

    /// Whether a box collider applies its rotation.
    #[inline]
    #[must_use]
    pub fn should_rotate(&self) -> bool {
        self.record.should_rotate()
    }

    /// The game's user-data word.
    #[inline]
    #[must_use]
    pub fn user_data(&self) -> u64 {
        self.leaf.data.user_data
    }

    /// Category and mask.
    #[inline]
    #[must_use]
    pub fn filter(&self) -> &'w Filter {
        &self.leaf.data.filter
    }

    /// The shape in world space, the one every query tests exactly:
    /// borrowed from the world, or for a box collider made from its box
    /// (the world keeps a box collider's box once, in its tree).
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, Sphere, Transform, World, math::Vec3};
    /// let mut world = World::new();
    /// let moved = Transform::from_translation(Vec3::X);
    /// let crate_ = world.add(ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE))).with_transform(moved))?;
    /// let ball = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5))).with_transform(moved))?;
    /// assert_eq!(*world.get(crate_).unwrap().world_shape(), Shape::Aabb(Aabb::new(Vec3::X, Vec3::new(2.0, 1.0, 1.0))));
    /// assert_eq!(*world.get(ball).unwrap().world_shape(), Shape::Sphere(Sphere::new(Vec3::X, 0.5)));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn world_shape(&self) -> Cow<'w, Shape> {
        self.record.world_shape(&self.leaf.aabb, self.tables)
    }

    /// Whether the collider's world shape is exactly its bounding box (an
    /// axis-aligned box; an oriented box is never taken for one, even when
    /// its rotation happens to be the identity).
    #[inline]
    #[must_use]
    pub fn is_box(&self) -> bool {
        self.record.is_box()
    }

    /// The world-space bounding box.
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> &'w Aabb {
        &self.leaf.aabb
    }

    /// The description this collider was built from (with any updates
    /// applied): what [`World::add`](crate::World::add) takes to make it
    /// again.
    #[must_use]
    pub fn desc(&self) -> ColliderDesc {
        ColliderDesc {
            shape: self.shape().into_owned(),
            transform: self.record.transform(self.tables),
            should_rotate: self.record.should_rotate(),
            user_data: self.user_data(),
            filter: *self.filter(),
        }
    }

    /// The placement ([`Placement::of`]) the collider takes under
    /// `transform` with the rotation switch `should_rotate`: what an update
    /// of either gives it.
    #[inline]
    pub(crate) fn placement_under(&self, transform: &Transform, should_rotate: bool) -> Result<Placement> {
        self.record.placement_under(transform, should_rotate, self.tables)
    }

    /// The collider's placement as it stands: what [`Placement::of`] gives
    /// again for its description (its transform is validated already), for
    /// an update that leaves shape, transform and rotation switch alone.
    pub(crate) fn placement(&self) -> Placement {
        let world_shape = match self.record.world_shape_at() {
            WorldShapeAt::Box => WorldShape::Box,
            WorldShapeAt::Kept => WorldShape::Kept,
            WorldShapeAt::Table(i) => WorldShape::Own(self.tables.shapes.get(i).clone()),
        };
        Placement {
            transform: self.record.transform(self.tables),
            world_shape,
            aabb: self.leaf.aabb,
        }
    }
}

/// The collider as its accessors give it (not the world's other
/// colliders' shapes, which the view can reach).
impl core::fmt::Debug for ColliderRef<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ColliderRef")
            .field("key", &self.key())
            .field("shape", &self.shape())
            .field("transform", &self.transform())
            .field("should_rotate", &self.should_rotate())
            .field("user_data", &self.user_data())
            .field("filter", self.filter())
            .field("aabb", self.aabb())
            .field("world_shape", &self.world_shape())
            .finish()
    }
}

/// How many colliders ahead [`Colliders::iter`] asks for a leaf: enough
/// loads in flight to cover a memory access.
const LEAVES_AHEAD: usize = 16;

/// The world's colliders as the broad phase reads them: the slot map of
/// records, the tables beside them and the tree holding their leaves.
#[derive(Clone, Copy)]
pub(crate) struct Colliders<'w> {
    pub(crate) records: &'w SlotMap<ColliderKey, ColliderRecord>,
    pub(crate) tables: &'w RecordTables,
    pub(crate) bvh: &'w Bvh<Proxy>,
}

impl<'w> Colliders<'w> {
    /// The view of the world's records, tables and tree.
    #[inline]
    pub(crate) fn new(
        records: &'w SlotMap<ColliderKey, ColliderRecord>,
        tables: &'w RecordTables,
        bvh: &'w Bvh<Proxy>,
    ) -> Self {
        Self { records, tables, bvh }
    }

    /// The live collider `key` names.
    #[inline]
    pub(crate) fn get(&self, key: ColliderKey) -> Option<ColliderRef<'w>> {
        let record = self.records.get(key)?;
        Some(ColliderRef::new(record, self.bvh.leaf(record.proxy), self.tables))
    }

    /// The collider `key` names, which must be live.
    #[inline]
    pub(crate) fn at(&self, key: ColliderKey) -> ColliderRef<'w> {
        let record = &self.records[key];
        ColliderRef::new(record, self.bvh.leaf(record.proxy), self.tables)
    }

    /// Every live collider, in key order. The records come in memory
    /// order and their leaves in another (the tree's): each leaf is asked
    /// for [`LEAVES_AHEAD`] colliders before its turn, so that the misses
    /// overlap.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ColliderKey, ColliderRef<'w>)> + 'w {
        let (bvh, tables) = (self.bvh, self.tables);
        let mut ahead = self.records.values().map(|record| record.proxy);
        ahead.by_ref().take(LEAVES_AHEAD).for_each(|proxy| {
            bvh.prefetch_leaf(proxy);
        });
        self.records.iter().map(move |(key, record)| {
            if let Some(proxy) = ahead.next() {
                bvh.prefetch_leaf(proxy);
            }
            (key, ColliderRef::new(record, bvh.leaf(record.proxy), tables))
        })
    }
}
