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

use crate::collider::ColliderKey;
pub(crate) use crate::collider::Proxy;

/// The items a trimmed scratch buffer keeps room for at least
/// ([`trim_scratch`]).
const SCRATCH_FLOOR: usize = 1024;

/// Releases a scratch buffer's memory beyond twice what the call that just
/// used it needed (`used` items, at least [`SCRATCH_FLOOR`]), once it holds
/// more than twice that: a first pair search, where every pair is fresh,
/// leaves its buffers the size of the whole pair set, and a frame's search
/// needs a small part of it. Between half and all of the room kept, a
/// buffer is left alone, so one whose use varies from frame to frame is
/// not reallocated each time.
pub(crate) fn trim_scratch<T>(buffer: &mut Vec<T>, used: usize) {
    let keep = (2 * used).max(SCRATCH_FLOOR);
    if buffer.capacity() > 2 * keep {
        buffer.shrink_to(keep);
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_scratch_keeps_twice_the_use_and_leaves_a_near_fit_alone() {
        let mut buffer: Vec<u64> = Vec::with_capacity(100_000);
        buffer.extend(0..10);
        trim_scratch(&mut buffer, 10);
        assert!(buffer.capacity() >= SCRATCH_FLOOR && buffer.capacity() < 100_000);
        assert_eq!(buffer, (0..10).collect::<Vec<_>>(), "the items stay");

        let mut busy: Vec<u64> = Vec::with_capacity(10_000);
        trim_scratch(&mut busy, 4_000);
        assert_eq!(busy.capacity(), 10_000, "within twice the room kept: left alone");
        trim_scratch(&mut busy, 2_000);
        assert!(busy.capacity() >= 4_000 && busy.capacity() < 10_000);
    }
}
