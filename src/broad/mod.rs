//! Broad phases: which colliders may overlap or be hit, before the exact
//! shape tests. Every pair finder returns the same set, each pair once, as
//! `(a, b)` with `a < b` by key, sorted by `(a, b)`.

pub(crate) mod events;
pub(crate) mod naive;
pub(crate) mod pair_cache;
mod pair_test;
pub(crate) mod radix_sort;
pub(crate) mod sap;

pub(crate) use pair_test::{overlapping_pair, overlaps, PairData};

use crate::bvh::LeafData;
use crate::collider::{ColliderKey, Filter};

/// What the world's tree keeps of a collider beside its box: 32 bytes, so
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
const _: () = assert!(core::mem::size_of::<crate::bvh::Leaf<Proxy>>() == 64);

impl Pair {
    /// A `u64` that orders pairs as `(a, b)` does: the two keys' slot indices,
    /// `a`'s in the high half. Live colliders have distinct slot indices,
    /// and keys order by slot index first, so among pairs of live colliders
    /// this integer sorts exactly like the pair, with one comparison.
    #[inline]
    #[must_use]
    pub fn order_key(&self) -> u64 {
        use slotmap::Key;
        let index = |key: ColliderKey| key.data().as_ffi() & 0xFFFF_FFFF;
        (index(self.a) << 32) | index(self.b)
    }
}

/// Two overlapping colliders, `a < b` by key, with their user data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    /// The collider with the smaller key.
    pub a: ColliderKey,
    /// The collider with the larger key.
    pub b: ColliderKey,
    /// `a`'s user data.
    pub user_a: u64,
    /// `b`'s user data.
    pub user_b: u64,
}
