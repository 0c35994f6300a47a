//! What the world stores per collider: in its tree leaf the hot part read
//! by every query (bounds, filter, user data, key), in its slot-map record
//! the cold part (shape, transform, the world shape derived from them), and
//! the view that joins them for the caller.

use slotmap::SlotMap;

use crate::bvh::{Bvh, Leaf, LeafData};
use crate::error::{Error, Result};

use crate::math::{Aabb, Transform};
use crate::shape::Shape;

slotmap::new_key_type! {
    /// A generational handle to a collider of a [`World`](crate::World).
    ///
    /// A key whose collider was removed is detected as stale (its slot's
    /// generation has moved on), never aliased to a new collider. As a
    /// `u64` ([`ColliderKey::to_bits`]) it is what the C ABI's
    /// `PhysCollider` carries.
    pub struct ColliderKey;
}

impl ColliderKey {
    /// The key as a `u64` (slot index in the low half, generation in the
    /// high half; never 0 for a key a world gave out): for storing a
    /// handle in an engine's own components or sending it over the C ABI.
    ///
    /// ```
    /// use collide::{ColliderDesc, ColliderKey, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// let key = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))))?;
    /// assert_eq!(ColliderKey::from_bits(key.to_bits()), key);
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn to_bits(self) -> u64 {
        slotmap::Key::data(&self).as_ffi()
    }

    /// The key's slot index and generation (the low and high halves of
    /// [`ColliderKey::to_bits`]).
    #[inline]
    pub(crate) fn slot_and_version(self) -> (usize, u32) {
        let bits = self.to_bits();
        ((bits & 0xffff_ffff) as usize, (bits >> 32) as u32)
    }

    /// The key whose [`ColliderKey::to_bits`] is `bits`. Any `u64` gives a
    /// key; one no world gave out (or whose collider was removed) is a
    /// stale handle to every world: [`World::get`](crate::World::get) gives
    /// `None`, the other calls [`Error::StaleHandle`].
    /// Bits no live key can have (an even generation: live generations are
    /// odd) give the null key, never a key one generation on, which could
    /// name a live collider.
    ///
    /// ```
    /// use collide::{ColliderDesc, ColliderKey, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// let key = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))))?;
    /// // The same slot one generation earlier is no alias of the live collider.
    /// let older = ColliderKey::from_bits(key.to_bits() - (1 << 32));
    /// assert!(world.get(older).is_none());
    /// assert!(world.get(ColliderKey::from_bits(0)).is_none());
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn from_bits(bits: u64) -> Self {
        let generation = bits >> 32;
        if generation & 1 == 1 {
            slotmap::KeyData::from_ffi(bits).into()
        } else {
            slotmap::Key::null()
        }
    }
}

/// Which colliders may touch which, by Box2D's rule: `a` and `b` interact
/// when `(a.category & b.mask) != 0 && (b.category & a.mask) != 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The categories this collider belongs to (usually one bit).
    pub category: u64,
    /// The categories this collider interacts with.
    pub mask: u64,
}

impl Default for Filter {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Filter {
    /// Category 1, interacting with every category.
    pub const DEFAULT: Filter = Filter {
        category: 1,
        mask: u64::MAX,
    };

    /// Box2D's rule: each side's category is in the other side's mask.
    ///
    /// ```
    /// use collide::Filter;
    /// let player = Filter { category: 0b01, mask: 0b10 };
    /// let wall = Filter { category: 0b10, mask: u64::MAX };
    /// assert!(player.interacts_with(&wall));
    /// assert!(!player.interacts_with(&player));
    /// ```
    #[inline]
    #[must_use]
    pub fn interacts_with(&self, other: &Filter) -> bool {
        (self.category & other.mask) != 0 && (other.category & self.mask) != 0
    }
}

/// What a query may hit: the colliders that pass Box2D's rule against the
/// query's own category and mask, except `exclude` (a bullet must not hit
/// its shooter). The default hits everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryFilter {
    /// The query's categories, tested against each collider's mask.
    pub category: u64,
    /// The categories the query hits, tested against each collider's category.
    pub mask: u64,
    /// A collider the query ignores.
    pub exclude: Option<ColliderKey>,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self::ALL
    }
}

impl QueryFilter {
    /// Hits every collider.
    pub const ALL: QueryFilter = QueryFilter {
        category: u64::MAX,
        mask: u64::MAX,
        exclude: None,
    };

    /// Hits every collider but `key`.
    #[must_use]
    pub fn excluding(key: ColliderKey) -> Self {
        Self {
            exclude: Some(key),
            ..Self::ALL
        }
    }

    /// Hits the colliders whose category is in `mask` and whose own mask
    /// admits `category`.
    #[must_use]
    pub fn with_bits(category: u64, mask: u64) -> Self {
        Self {
            category,
            mask,
            exclude: None,
        }
    }

    /// Whether the query may hit the collider `key` with filter `filter`.
    ///
    /// ```
    /// use collide::{Filter, QueryFilter, ColliderKey};
    /// let walls_only = QueryFilter::with_bits(u64::MAX, 0b10);
    /// let wall = Filter { category: 0b10, mask: u64::MAX };
    /// assert!(walls_only.accepts(ColliderKey::default(), &wall));
    /// assert!(!walls_only.accepts(ColliderKey::default(), &Filter::DEFAULT));
    /// ```
    #[inline]
    #[must_use]
    pub fn accepts(&self, key: ColliderKey, filter: &Filter) -> bool {
        let bits = Filter {
            category: self.category,
            mask: self.mask,
        };
        self.exclude != Some(key) && bits.interacts_with(filter)
    }
}

/// Everything needed to add a collider.
#[derive(Debug, Clone, PartialEq)]
pub struct ColliderDesc {
    /// Shape in object space.
    pub shape: Shape,
    /// Placement in the world.
    pub transform: Transform,
    /// For boxes: apply the rotation (the world box is then the bounds of the
    /// rotated box), as the book's `BoxComponent::mShouldRotate`. Ignored by
    /// every other shape, which always rotates.
    pub should_rotate: bool,
    /// The game's word for this collider (an entity id or actor pointer).
    pub user_data: u64,
    /// Category and mask.
    pub filter: Filter,
}

impl ColliderDesc {
    /// A collider of `shape` at the identity transform, rotating, with user
    /// data 0 and the default filter.
    ///
    /// ```
    /// use collide::{Aabb, ColliderDesc, Shape, Transform, math::Vec3};
    /// let desc = ColliderDesc::new(Shape::Aabb(Aabb::new(Vec3::ZERO, Vec3::ONE)))
    ///     .with_transform(Transform::from_translation(Vec3::X))
    ///     .with_user_data(42);
    /// assert_eq!(desc.user_data, 42);
    /// ```
    #[must_use]
    pub fn new(shape: Shape) -> Self {
        Self {
            shape,
            transform: Transform::IDENTITY,
            should_rotate: true,
            user_data: 0,
            filter: Filter::DEFAULT,
        }
    }

    /// With this transform.
    #[must_use]
    pub fn with_transform(mut self, transform: Transform) -> Self {
        self.transform = transform;
        self
    }

    /// With this user-data word.
    #[must_use]
    pub fn with_user_data(mut self, user_data: u64) -> Self {
        self.user_data = user_data;
        self
    }

    /// With this filter.
    #[must_use]
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    /// With the book's `mShouldRotate` switch for boxes.
    #[must_use]
    pub fn with_should_rotate(mut self, should_rotate: bool) -> Self {
        self.should_rotate = should_rotate;
        self
    }
}

/// What the world's tree keeps of a collider beside its box, the data every
/// query and pair search reads (the collider's hot part): 32 bytes, so
/// that a leaf is one cache line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Proxy {
    /// The collider.
    pub(crate) key: ColliderKey,
    /// Its filter.
    pub(crate) filter: Filter,
    /// Its user data.
    pub(crate) user_data: u64,
}

impl LeafData for Proxy {
    #[inline]
    fn category(&self) -> u64 {
        self.filter.category
    }
}

/// A collider's leaf is one cache line.
const _: () = assert!(core::mem::size_of::<Leaf<Proxy>>() == 64);

/// What the world's slot map keeps of a collider (its cold part): the
/// description's shape, transform and rotation switch, the world shape
/// derived from them, and the collider's leaf. The bounds, filter and user
/// data are kept once, in the leaf ([`Proxy`]).
#[derive(Debug, Clone)]
pub(crate) struct ColliderRecord {
    pub(crate) shape: Shape,
    pub(crate) transform: Transform,
    pub(crate) world_shape: Shape,
    /// The collider's leaf in the world's tree.
    pub(crate) proxy: u32,
    pub(crate) should_rotate: bool,
}

/// A new collider, validated and placed: its record, and what its leaf
/// holds beside the record's key.
pub(crate) struct NewCollider {
    pub(crate) record: ColliderRecord,
    pub(crate) aabb: Aabb,
    pub(crate) filter: Filter,
    pub(crate) user_data: u64,
}

impl NewCollider {
    /// Validates `desc` and derives the world shape and bounds
    /// ([`Placement::of`]).
    pub(crate) fn new(desc: ColliderDesc) -> Result<Self> {
        desc.shape.validate()?;
        let Placement {
            transform,
            world_shape,
            aabb,
        } = Placement::of(&desc.shape, &desc.transform, desc.should_rotate)?;
        Ok(Self {
            record: ColliderRecord {
                shape: desc.shape,
                transform,
                world_shape,
                proxy: u32::MAX,
                should_rotate: desc.should_rotate,
            },
            aabb,
            filter: desc.filter,
            user_data: desc.user_data,
        })
    }

    /// The leaf's payload once the collider's key is known.
    #[inline]
    pub(crate) fn proxy(&self, key: ColliderKey) -> Proxy {
        Proxy {
            key,
            filter: self.filter,
            user_data: self.user_data,
        }
    }
}

impl ColliderRecord {
    /// Takes a placement derived ([`Placement::of`]) from this collider's
    /// description as it now is; the bounds go to the leaf.
    #[inline]
    pub(crate) fn set_placement(&mut self, placement: Placement) -> Aabb {
        self.transform = placement.transform;
        self.world_shape = placement.world_shape;
        placement.aabb
    }

    /// Whether the world shape is exactly its bounding box.
    #[inline]
    pub(crate) fn is_box(&self) -> bool {
        matches!(self.world_shape, Shape::Aabb(_))
    }
}

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
#[derive(Debug, Clone, Copy)]
pub struct ColliderRef<'w> {
    record: &'w ColliderRecord,
    leaf: &'w Leaf<Proxy>,
}

impl<'w> ColliderRef<'w> {
    /// The view of a record and its leaf.
    #[inline]
    pub(crate) fn new(record: &'w ColliderRecord, leaf: &'w Leaf<Proxy>) -> Self {
        Self { record, leaf }
    }

    /// The collider's key.
    #[inline]
    #[must_use]
    pub fn key(&self) -> ColliderKey {
        self.leaf.data.key
    }

    /// The object-space shape.
    #[inline]
    #[must_use]
    pub fn shape(&self) -> &'w Shape {
        &self.record.shape
    }

    /// The transform (rotation renormalised).
    #[inline]
    #[must_use]
    pub fn transform(&self) -> &'w Transform {
        &self.record.transform
    }

    /// Whether a box collider applies its rotation.
    #[inline]
    #[must_use]
    pub fn should_rotate(&self) -> bool {
        self.record.should_rotate
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

    /// The shape in world space, the one every query tests exactly.
    #[inline]
    #[must_use]
    pub fn world_shape(&self) -> &'w Shape {
        &self.record.world_shape
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
            shape: self.record.shape.clone(),
            transform: self.record.transform,
            should_rotate: self.record.should_rotate,
            user_data: self.user_data(),
            filter: *self.filter(),
        }
    }

    /// The collider's placement as it stands: what [`Placement::of`] gives
    /// again for its description (its transform is validated already), for
    /// an update that leaves shape, transform and rotation switch alone.
    pub(crate) fn placement(&self) -> Placement {
        Placement {
            transform: self.record.transform,
            world_shape: self.record.world_shape.clone(),
            aabb: self.leaf.aabb,
        }
    }
}

/// The world's colliders as the broad phase reads them: the slot map of
/// records and the tree holding their leaves.
#[derive(Clone, Copy)]
pub(crate) struct Colliders<'w> {
    pub(crate) records: &'w SlotMap<ColliderKey, ColliderRecord>,
    pub(crate) bvh: &'w Bvh<Proxy>,
}

impl<'w> Colliders<'w> {
    /// The live collider `key` names.
    #[inline]
    pub(crate) fn get(&self, key: ColliderKey) -> Option<ColliderRef<'w>> {
        let record = self.records.get(key)?;
        Some(ColliderRef::new(record, self.bvh.leaf(record.proxy)))
    }

    /// The collider `key` names, which must be live.
    #[inline]
    pub(crate) fn at(&self, key: ColliderKey) -> ColliderRef<'w> {
        let record = &self.records[key];
        ColliderRef::new(record, self.bvh.leaf(record.proxy))
    }

    /// Whether `key` names a live collider.
    #[inline]
    pub(crate) fn contains_key(&self, key: ColliderKey) -> bool {
        self.records.contains_key(key)
    }

    /// Every live collider, in key order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ColliderKey, ColliderRef<'w>)> + 'w {
        let bvh = self.bvh;
        self.records
            .iter()
            .map(move |(key, record)| (key, ColliderRef::new(record, bvh.leaf(record.proxy))))
    }
}

/// What a collider's shape and transform make of it, validated: a batch
/// update derives one per collider first, and applies them all once every
/// one is valid.
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    transform: Transform,
    world_shape: Shape,
    aabb: Aabb,
}

impl Placement {
    /// Validates `transform` (renormalising the rotation) and derives the
    /// world shape of `shape` under it and its bounds. `shape` must be valid
    /// ([`Shape::validate`]): a collider's stored shape always is, and a new
    /// one is validated before it is placed.
    #[inline]
    pub(crate) fn of(shape: &Shape, transform: &Transform, should_rotate: bool) -> Result<Self> {
        let transform = transform.validated()?;
        let kept = shape.is_kept_by(&transform);
        let world_shape = if kept {
            shape.clone()
        } else {
            shape.transformed(&transform, should_rotate)?
        };
        let aabb = world_shape.bounding_aabb();
        // The world shape itself, not only its bounds: `Vec3::min`/`max`
        // skip a NaN, so a NaN end point (a finite scale times a finite point
        // overflowing, then rotated: ∞·0) would leave finite bounds. A shape
        // the transform keeps as it is was valid already.
        if !aabb.min.is_finite() || !aabb.max.is_finite() || (!kept && world_shape.validate().is_err()) {
            return Err(Error::NonFinite("collider bounds after transform"));
        }
        Ok(Self {
            transform,
            world_shape,
            aabb,
        })
    }
}
