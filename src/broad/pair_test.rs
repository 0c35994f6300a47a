//! The test every pair finder applies to a candidate pair: filters
//! interact, then boxes, then shapes; and what a finder keeps of a collider
//! so that two boxes make a pair without either collider being read.

use crate::broad::{Pair, Proxy};
use crate::bvh::Leaf;
use crate::collider::{ColliderKey, ColliderRef, Colliders, Filter};

/// The narrow test behind every pair finder: filters interact, bounds
/// overlap, shapes overlap.
#[inline]
pub(crate) fn overlaps(a: ColliderRef<'_>, b: ColliderRef<'_>) -> bool {
    a.filter().interacts_with(b.filter())
        && a.aabb().intersects_aabb(b.aabb())
        && a.world_shape().intersects(&b.world_shape())
}

/// What a fast pair finder keeps of a collider beside its box, so that two
/// box colliders whose boxes overlap make a pair without either collider
/// being read: a tree leaf, or the sweep and prune's [`PairData`].
pub(crate) trait PairSide {
    /// The collider's filter.
    fn filter(&self) -> &Filter;
    /// The collider's user data.
    fn user_data(&self) -> u64;
    /// Whether the collider's box is its exact shape (an `Aabb` collider):
    /// the tree leaf's `exact` flag.
    fn exact(&self) -> bool;
}

/// A collider's [`PairSide`], kept apart from the collider.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairData {
    pub(crate) filter: Filter,
    pub(crate) user_data: u64,
    pub(crate) exact: bool,
}

impl PairSide for Leaf<Proxy> {
    #[inline]
    fn filter(&self) -> &Filter {
        &self.data.filter
    }

    #[inline]
    fn user_data(&self) -> u64 {
        self.data.user_data
    }

    #[inline]
    fn exact(&self) -> bool {
        self.exact
    }
}

impl PairSide for PairData {
    #[inline]
    fn filter(&self) -> &Filter {
        &self.filter
    }

    #[inline]
    fn user_data(&self) -> u64 {
        self.user_data
    }

    #[inline]
    fn exact(&self) -> bool {
        self.exact
    }
}

/// The pair of two colliders whose boxes overlap, `(key, side)` each, if
/// their filters interact and their shapes overlap: as `(a, b)` with
/// `a < b`, and whether that put `q` first. Two boxes are a pair at once (a
/// box collider's box is its shape); other shapes go through [`overlaps`]
/// on the colliders, in key order, as every finder tests a pair: the exact
/// tests round differently with their arguments swapped.
#[inline(always)]
pub(crate) fn overlapping_pair<S: PairSide>(
    p: (ColliderKey, &S),
    q: (ColliderKey, &S),
    colliders: Colliders<'_>,
) -> Option<(Pair, bool)> {
    if !p.1.filter().interacts_with(q.1.filter()) {
        return None;
    }
    let swapped = q.0 < p.0;
    let ((key_a, a), (key_b, b)) = if swapped { (q, p) } else { (p, q) };
    if !((a.exact() && b.exact()) || overlaps(colliders.at(key_a), colliders.at(key_b))) {
        return None;
    }
    let pair = Pair {
        a: key_a,
        b: key_b,
        user_a: a.user_data(),
        user_b: b.user_data(),
    };
    Some((pair, swapped))
}
