//! What the world keeps of a collider: the hot part in its tree leaf
//! ([`Proxy`]), the cold part in its slot-map record.

use core::mem::ManuallyDrop;
use std::borrow::Cow;

use crate::bvh::{Leaf, LeafData};
use crate::error::Result;
use crate::math::{Aabb, Quat, Transform, Vec3};
use crate::shape::{Shape, Sphere};

use super::tables::{RotationScale, Table};
use super::world_shape::{WorldShape, WorldShapeAt};
use super::{ColliderDesc, ColliderKey, Filter, Placement, RecordTables};

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
/// object-space shape, the transform, the collider's leaf, and where its
/// world shape is (with the rotation switch). 52 bytes, so that a slot
/// with its version takes 56. The bounds, filter and user data are kept
/// once, in the leaf ([`Proxy`]); the world shape in the leaf's box, in
/// the object shape, or in the world's [`RecordTables`].
#[derive(Debug, Clone)]
pub(crate) struct ColliderRecord {
    shape: StoredShape,
    transform: StoredTransform,
    /// The collider's leaf in the world's tree.
    pub(crate) proxy: u32,
    world: WorldShapeLink,
}

const _: () = assert!(core::mem::size_of::<ColliderRecord>() == 52);

/// An object-space shape as a record keeps it: the two kinds a game has by
/// the thousand (the book's boxes and spheres) in place, any other kind in
/// the world's [`RecordTables`]. 28 bytes of 4-byte fields, where a
/// [`Shape`] takes 64.
#[derive(Debug, Clone, Copy)]
enum StoredShape {
    Aabb(Aabb),
    Sphere(Sphere),
    Table(u32),
}

impl StoredShape {
    /// `shape` kept in place, or in `table`: in entry `own` (the record's,
    /// reused) if there is one; `own` is freed if the shape is kept in
    /// place.
    fn store(shape: Shape, own: Option<u32>, table: &mut Table<Shape>) -> Self {
        let stored = match shape {
            Shape::Aabb(aabb) => StoredShape::Aabb(aabb),
            Shape::Sphere(sphere) => StoredShape::Sphere(sphere),
            shape => return StoredShape::Table(table.store(own, shape)),
        };
        if let Some(i) = own {
            table.release(i);
        }
        stored
    }

    /// The shape.
    #[inline]
    fn get<'a>(&self, table: &'a Table<Shape>) -> Cow<'a, Shape> {
        match *self {
            StoredShape::Aabb(aabb) => Cow::Owned(Shape::Aabb(aabb)),
            StoredShape::Sphere(sphere) => Cow::Owned(Shape::Sphere(sphere)),
            StoredShape::Table(i) => Cow::Borrowed(table.get(i)),
        }
    }

    /// `f` of the shape, not dropped after: a box or a sphere owns nothing,
    /// and a [`Cow`] of either would be dropped through [`Shape`]'s whole
    /// drop (a call per use).
    #[inline]
    fn with<R>(&self, table: &Table<Shape>, f: impl FnOnce(&Shape) -> R) -> R {
        match *self {
            StoredShape::Aabb(aabb) => f(&ManuallyDrop::new(Shape::Aabb(aabb))),
            StoredShape::Sphere(sphere) => f(&ManuallyDrop::new(Shape::Sphere(sphere))),
            StoredShape::Table(i) => f(table.get(i)),
        }
    }

    /// Its entry in the table, if it has one.
    #[inline]
    fn table_entry(self) -> Option<u32> {
        match self {
            StoredShape::Table(i) => Some(i),
            StoredShape::Aabb(_) | StoredShape::Sphere(_) => None,
        }
    }
}

/// A transform as a record keeps it: the translation, and the rotation and
/// scale in the world's table of [`RotationScale`]s unless their bits are
/// those of no rotation and unit scale ([`RotationScale::IDENTITY`]). 16
/// bytes, where a [`Transform`] takes 48; stored and read back bit for bit.
#[derive(Debug, Clone, Copy)]
struct StoredTransform {
    translation: [f32; 3],
    /// The entry of the rotation and scale, or [`StoredTransform::NO_ENTRY`].
    rotation_scale: u32,
}

impl StoredTransform {
    /// No rotation and unit scale: above every entry (entries stay below
    /// [`MAX_COLLIDERS`](crate::MAX_COLLIDERS), 2³⁰).
    const NO_ENTRY: u32 = u32::MAX;

    /// `transform` as a record keeps it, its rotation and scale in entry
    /// `own` (the record's, reused) if it has one; `own` is freed if the
    /// transform has neither.
    #[inline(always)]
    fn store(transform: &Transform, own: Option<u32>, table: &mut Table<RotationScale>) -> Self {
        let rotation_scale = match RotationScale::of(transform) {
            Some(rotation_scale) => table.store(own, rotation_scale),
            None => {
                if let Some(i) = own {
                    table.release(i);
                }
                Self::NO_ENTRY
            }
        };
        Self {
            translation: transform.translation.to_array(),
            rotation_scale,
        }
    }

    /// The transform.
    #[inline]
    fn get(&self, table: &Table<RotationScale>) -> Transform {
        let rotation_scale = match self.rotation_scale_entry() {
            Some(i) => table.get(i),
            None => &RotationScale::IDENTITY,
        };
        Transform {
            translation: Vec3::from_array(self.translation),
            rotation: Quat::from_array(rotation_scale.rotation),
            scale: Vec3::from_array(rotation_scale.scale),
        }
    }

    /// Its entry in the table, if it has one.
    #[inline]
    fn rotation_scale_entry(&self) -> Option<u32> {
        (self.rotation_scale != Self::NO_ENTRY).then_some(self.rotation_scale)
    }
}

/// A record's [`WorldShapeAt`] and rotation switch in one `u32`: the switch
/// in the top bit; below it a table entry, or one of the two values above
/// every entry (entries stay below [`MAX_COLLIDERS`](crate::MAX_COLLIDERS),
/// 2³⁰).
#[derive(Debug, Clone, Copy)]
struct WorldShapeLink(u32);

impl WorldShapeLink {
    const ROTATE: u32 = 1 << 31;
    const BOX: u32 = Self::ROTATE - 1;
    const KEPT: u32 = Self::ROTATE - 2;

    #[inline]
    fn new(at: WorldShapeAt, should_rotate: bool) -> Self {
        let at = match at {
            WorldShapeAt::Box => Self::BOX,
            WorldShapeAt::Kept => Self::KEPT,
            WorldShapeAt::Table(i) => {
                debug_assert!(i < Self::KEPT);
                i
            }
        };
        Self(at | if should_rotate { Self::ROTATE } else { 0 })
    }

    #[inline]
    fn at(self) -> WorldShapeAt {
        match self.0 & !Self::ROTATE {
            Self::BOX => WorldShapeAt::Box,
            Self::KEPT => WorldShapeAt::Kept,
            i => WorldShapeAt::Table(i),
        }
    }

    #[inline]
    fn should_rotate(self) -> bool {
        self.0 & Self::ROTATE != 0
    }
}

impl ColliderRecord {
    /// The object-space shape, given the world's tables.
    #[inline]
    pub(crate) fn shape<'a>(&self, tables: &'a RecordTables) -> Cow<'a, Shape> {
        self.shape.get(&tables.shapes)
    }

    /// The placement ([`Placement::of`]) of the object-space shape under
    /// `transform` and the rotation switch `should_rotate`.
    #[inline]
    pub(crate) fn placement_under(
        &self,
        transform: &Transform,
        should_rotate: bool,
        tables: &RecordTables,
    ) -> Result<Placement> {
        self.shape
            .with(&tables.shapes, |shape| Placement::of(shape, transform, should_rotate))
    }

    /// Replaces the object-space shape (the world shape follows with the
    /// next placement), in the record's own table entry if it has one and
    /// the new shape needs one.
    pub(crate) fn set_shape(&mut self, shape: Shape, tables: &mut RecordTables) {
        self.shape = StoredShape::store(shape, self.shape.table_entry(), &mut tables.shapes);
    }

    /// The transform (rotation renormalised), given the world's tables.
    #[inline]
    pub(crate) fn transform(&self, tables: &RecordTables) -> Transform {
        self.transform.get(&tables.rotation_scales)
    }

    /// Whether a box collider applies its rotation.
    #[inline]
    pub(crate) fn should_rotate(&self) -> bool {
        self.world.should_rotate()
    }

    /// Sets the rotation switch (the world shape follows with the next
    /// placement).
    #[inline]
    pub(crate) fn set_should_rotate(&mut self, should_rotate: bool) {
        self.world = WorldShapeLink::new(self.world.at(), should_rotate);
    }

    /// Where the world shape is.
    #[inline]
    pub(crate) fn world_shape_at(&self) -> WorldShapeAt {
        self.world.at()
    }

    /// The world shape, given the collider's box and the world's tables.
    #[inline]
    pub(crate) fn world_shape<'a>(&self, aabb: &Aabb, tables: &'a RecordTables) -> Cow<'a, Shape> {
        match self.world.at() {
            WorldShapeAt::Box => Cow::Owned(Shape::Aabb(*aabb)),
            WorldShapeAt::Kept => self.shape(tables),
            WorldShapeAt::Table(i) => Cow::Borrowed(tables.shapes.get(i)),
        }
    }

    /// Whether the world shape is exactly the collider's box.
    #[inline]
    pub(crate) fn is_box(&self) -> bool {
        self.world.at() == WorldShapeAt::Box
    }

    /// Takes a placement derived ([`Placement::of`]) from this collider's
    /// description as it now is: its transform's rotation and scale, and
    /// its world shape, into `tables` where they need an entry (the
    /// collider's own entries reused; the placement keeps
    /// [`WorldShape::Kept`] in its place, so that a batch's placements are
    /// taken where they wait, not moved out); the bounds, for the leaf, are
    /// returned.
    #[inline(always)]
    pub(crate) fn place(&mut self, placement: &mut Placement, tables: &mut RecordTables) -> Aabb {
        self.transform = StoredTransform::store(
            &placement.transform,
            self.transform.rotation_scale_entry(),
            &mut tables.rotation_scales,
        );
        let own = self.world_shape_entry();
        let at = match core::mem::replace(&mut placement.world_shape, WorldShape::Kept) {
            WorldShape::Own(shape) => WorldShapeAt::Table(tables.shapes.store(own, shape)),
            WorldShape::Box => WorldShapeAt::Box,
            WorldShape::Kept => WorldShapeAt::Kept,
        };
        if let (Some(i), WorldShapeAt::Box | WorldShapeAt::Kept) = (own, at) {
            tables.shapes.release(i);
        }
        self.world = WorldShapeLink::new(at, self.should_rotate());
        placement.aabb
    }

    /// Frees the record's table entries, as its collider is removed, and
    /// gives back its leaf.
    pub(crate) fn release(self, tables: &mut RecordTables) -> u32 {
        for i in self.shape_entries() {
            tables.shapes.release(i);
        }
        if let Some(i) = self.rotation_scale_entry() {
            tables.rotation_scales.release(i);
        }
        self.proxy
    }

    /// The record's entry for its world shape in the world's table, if it
    /// has one.
    #[inline]
    fn world_shape_entry(&self) -> Option<u32> {
        match self.world.at() {
            WorldShapeAt::Table(i) => Some(i),
            WorldShapeAt::Box | WorldShapeAt::Kept => None,
        }
    }

    /// The record's entries in the world's table of shapes: its object
    /// shape's and its world shape's, each if it has one.
    pub(crate) fn shape_entries(&self) -> impl Iterator<Item = u32> {
        self.shape.table_entry().into_iter().chain(self.world_shape_entry())
    }

    /// The record's entry in the world's table of rotations and scales, if
    /// its transform has either.
    #[inline]
    pub(crate) fn rotation_scale_entry(&self) -> Option<u32> {
        self.transform.rotation_scale_entry()
    }
}

/// A new collider, validated and placed, before it has a key.
pub(crate) struct NewCollider {
    shape: Shape,
    should_rotate: bool,
    placement: Placement,
    filter: Filter,
    user_data: u64,
}

/// What a new collider's leaf holds but its key.
pub(crate) struct NewLeaf {
    aabb: Aabb,
    filter: Filter,
    user_data: u64,
    exact: bool,
}

impl NewLeaf {
    /// The leaf, once the collider's key is known.
    #[inline]
    pub(crate) fn with_key(self, key: ColliderKey) -> Leaf<Proxy> {
        let proxy = Proxy {
            key,
            filter: self.filter,
            user_data: self.user_data,
        };
        Leaf::new(self.aabb, proxy, self.exact)
    }
}

impl NewCollider {
    /// Validates `desc` and derives the world shape and bounds
    /// ([`Placement::of`]). Inlined, with [`NewCollider::into_record`], into
    /// the loop of a batch: a new collider is then kept in registers, not
    /// moved through memory twice on its way to its slot.
    #[inline(always)]
    pub(crate) fn new(desc: ColliderDesc) -> Result<Self> {
        desc.shape.validate()?;
        let placement = Placement::of(&desc.shape, &desc.transform, desc.should_rotate)?;
        Ok(Self {
            shape: desc.shape,
            should_rotate: desc.should_rotate,
            placement,
            filter: desc.filter,
            user_data: desc.user_data,
        })
    }

    /// The record (its object and world shapes and its transform's rotation
    /// and scale into `tables` where they need an entry; no leaf yet) and
    /// what its leaf will hold.
    #[inline(always)]
    pub(crate) fn into_record(mut self, tables: &mut RecordTables) -> (ColliderRecord, NewLeaf) {
        let mut record = ColliderRecord {
            shape: StoredShape::store(self.shape, None, &mut tables.shapes),
            transform: StoredTransform::store(&Transform::IDENTITY, None, &mut tables.rotation_scales),
            proxy: u32::MAX,
            world: WorldShapeLink::new(WorldShapeAt::Kept, self.should_rotate),
        };
        let aabb = record.place(&mut self.placement, tables);
        let leaf = NewLeaf {
            aabb,
            filter: self.filter,
            user_data: self.user_data,
            exact: record.is_box(),
        };
        (record, leaf)
    }
}

#[cfg(test)]
mod tests {
    use super::{StoredTransform, Table, WorldShapeAt, WorldShapeLink};
    use crate::math::{Quat, Transform, Vec3};

    /// The link gives back each place and switch it was made of, entries up
    /// to the largest a world can have.
    #[test]
    fn world_shape_link_keeps_place_and_switch() {
        let largest = crate::bvh::MAX_LEAVES as u32 - 1;
        for at in [
            WorldShapeAt::Box,
            WorldShapeAt::Kept,
            WorldShapeAt::Table(0),
            WorldShapeAt::Table(largest),
        ] {
            for should_rotate in [false, true] {
                let link = WorldShapeLink::new(at, should_rotate);
                assert_eq!((link.at(), link.should_rotate()), (at, should_rotate));
            }
        }
    }

    /// A stored transform reads back bit for bit; only a rotation or a
    /// scale that differs from the identity's bits takes an entry (a
    /// negative zero does), the record's own entry is reused, and it is
    /// freed when the transform loses both.
    #[test]
    fn stored_transform_is_exact() {
        let bits = |t: &Transform| {
            [t.translation.to_array(), t.scale.to_array()]
                .concat()
                .into_iter()
                .chain(t.rotation.to_array())
                .map(f32::to_bits)
                .collect::<Vec<_>>()
        };
        let far = Vec3::new(1e-30, -3.5, 1e30);
        let turned = Transform {
            translation: far,
            rotation: Quat::from_rotation_y(0.3),
            scale: Vec3::new(-2.0, f32::MIN_POSITIVE, 7.0),
        };
        let negative_zero = Transform {
            rotation: Quat::from_xyzw(-0.0, 0.0, 0.0, 1.0),
            ..Transform::from_translation(far)
        };
        let mut table = Table::default();
        let mut own = None;
        for (t, entries) in [
            (turned, 1),
            (Transform::from_translation(far), 0),
            (negative_zero, 1),
            (turned, 1),
            (Transform::IDENTITY, 0),
        ] {
            let stored = StoredTransform::store(&t, own, &mut table);
            assert_eq!(bits(&stored.get(&table)), bits(&t));
            assert_eq!(table.live(), entries);
            assert!(
                own.is_none() || stored.rotation_scale_entry().is_none_or(|i| Some(i) == own),
                "reused"
            );
            own = stored.rotation_scale_entry();
        }
    }
}
