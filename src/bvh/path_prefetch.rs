//! A software pipeline that asks for the leaves, and the tree paths above
//! them, of a run of leaves a loop will visit, before the loop reaches them.

use super::{Bvh, LeafData, NULL_NODE};

/// Tree levels asked for above each leaf: the node holding it and three
/// above. A leaf's first move after a build grows its node's box and often
/// a few above it; a query for a leaf's box enters every node above the
/// leaf, and in a tree beyond the caches the lowest of them are misses.
const LEVELS: usize = 4;

/// Items visited between one step of the pipeline and the next: while two
/// items are visited, a load from memory arrives.
pub(crate) const PATH_STEP: usize = 2;

/// How many items ahead of the one being visited the pipeline asks for a
/// leaf; each level above it is asked for a step later.
pub(crate) const LEAF_AHEAD: usize = (LEVELS + 1) * PATH_STEP;

/// The ring of paths in flight, one per item (a power of two above
/// [`LEAF_AHEAD`]).
const RING: usize = 16;
const _: () = assert!(RING.is_power_of_two() && RING > LEAF_AHEAD);

/// Where each item in flight has got to on its way up the tree: a leaf
/// asked for [`LEAF_AHEAD`] items before its turn, then, a step apart, the
/// node holding it and each node above, each read from the one before. No
/// step reads what the same step asked for: each reads a load issued
/// [`PATH_STEP`] items earlier, so the loads of several items are in
/// flight at once instead of each waiting on the one before.
///
/// Hints only: a leaf that has moved in the tree since it was asked for
/// costs a wasted request, never a wrong result.
#[derive(Debug)]
pub(crate) struct PathPrefetch {
    paths: [u32; RING],
}

impl PathPrefetch {
    /// A pipeline with nothing in flight.
    pub(crate) fn new() -> Self {
        Self {
            paths: [NULL_NODE; RING],
        }
    }

    /// Before item `i` of `len` is visited: asks for `ahead`, the leaf of
    /// item `i + LEAF_AHEAD` (`None` if it has none), and moves each item
    /// in flight one level up its path.
    #[inline]
    pub(crate) fn advance<T: LeafData>(&mut self, bvh: &Bvh<T>, i: usize, len: usize, ahead: Option<u32>) {
        let ring = |items_ahead: usize| (i + items_ahead) % RING;
        if i + LEAF_AHEAD < len {
            self.paths[ring(LEAF_AHEAD)] = ahead.map_or(NULL_NODE, |proxy| bvh.prefetch_path(proxy));
        }
        for level in 0..LEVELS {
            let items_ahead = (LEVELS - level) * PATH_STEP;
            if i + items_ahead < len {
                let path = &mut self.paths[ring(items_ahead)];
                *path = bvh.prefetch_up(*path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PathPrefetch, LEAF_AHEAD, LEVELS, RING};
    use crate::bvh::{Bvh, Leaf, NULL_NODE};
    use crate::math::{Aabb, Vec3};

    /// The node `LEVELS - 1` levels above the one holding `proxy`'s leaf
    /// (`NULL_NODE` past the root), by the tree's own links.
    fn last_level(bvh: &Bvh<u32>, proxy: u32) -> u32 {
        let mut node = bvh.leaves[proxy as usize].node;
        for _ in 1..LEVELS {
            node = bvh.nodes.get(node as usize).map_or(NULL_NODE, |n| n.parent);
        }
        node
    }

    /// When the loop reaches an item, its path has climbed every level: it
    /// is the node [`LEVELS`] levels up from its leaf, by the tree's links,
    /// for every item the pipeline started (all but the first
    /// [`LEAF_AHEAD`]), on runs longer and shorter than the ring; an item
    /// without a leaf ends at `NULL_NODE`. The ring never hands one item's
    /// path to another.
    #[test]
    fn each_item_reaches_the_top_of_its_path() {
        let mut bvh = Bvh::<u32>::default();
        let leaves = (0..3000u32)
            .map(|i| {
                let x = Vec3::new((i % 17) as f32, ((i / 17) % 13) as f32, (i / 221) as f32) * 3.0;
                Leaf::new(Aabb::new(x, x + Vec3::ONE), i, true)
            })
            .collect();
        let proxies = bvh.insert_batch(leaves);
        for (len, stride) in [(400, 7), (RING + 3, 11), (LEAF_AHEAD + 1, 5), (3, 1)] {
            let run: Vec<Option<u32>> = (0..len)
                .map(|i| (i % 9 != 4).then_some(proxies[(i * stride) % proxies.len()]))
                .collect();
            let mut paths = PathPrefetch::new();
            let mut checked = 0;
            for i in 0..len {
                paths.advance(&bvh, i, len, run.get(i + LEAF_AHEAD).copied().flatten());
                if i < LEAF_AHEAD {
                    continue;
                }
                let expected = run[i].map_or(NULL_NODE, |proxy| last_level(&bvh, proxy));
                assert_eq!(paths.paths[i % RING], expected, "run of {len}, item {i}");
                checked += usize::from(expected != NULL_NODE);
            }
            assert_eq!(checked > 0, len > LEAF_AHEAD, "run of {len}");
        }
    }
}
