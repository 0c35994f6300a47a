//! Broad phases: which colliders may overlap or be hit, before the exact
//! shape tests. Every pair finder returns the same set, each pair once, as
//! `(a, b)` with `a < b` by key, sorted by `(a, b)`.

pub mod bvh;
pub mod events;
pub mod naive;
pub mod pair_cache;
pub mod sap;

use crate::collider::ColliderKey;

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
