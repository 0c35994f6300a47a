//! What the world keeps of a collider: the hot part in its tree leaf
//! ([`Proxy`]), the cold part in its slot-map record.

use crate::bvh::{Leaf, LeafData};
use crate::error::Result;
use crate::math::{Aabb, Transform};
use crate::shape::Shape;

use super::{ColliderDesc, ColliderKey, Filter, Placement};

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
