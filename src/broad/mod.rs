//! Broad phases: which colliders may overlap or be hit, before the exact
//! shape tests. Every pair finder returns the same set, each pair once, as
//! `(a, b)` with `a < b` by key, sorted by `(a, b)`.

pub mod bvh;
pub mod events;
pub mod naive;
pub mod pair_cache;
pub mod radix_sort;
pub mod sap;

use crate::collider::ColliderKey;

impl Pair {
    /// A `u64` that orders pairs as `(a, b)` does: the two keys' slot indices,
    /// `a`'s in the high half. Live colliders have distinct slot indices,
    /// and keys order by slot index first, so among pairs of live colliders
    /// this integer sorts exactly like the pair, with one comparison.
    #[inline]
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
