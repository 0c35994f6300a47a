//! The tree against itself: every pair of overlapping leaves, entering
//! only the subtrees that hold a changed leaf.

use core::ops::ControlFlow;

use super::node::{overlap_matrix, self_overlap_matrix, slots, SplatBox};
use super::query::RegionVisitor;
use super::{is_leaf, is_leaf_in_slot, Bvh, LeafData, LEAF_BIT, NULL_NODE};

/// Which parts of the tree the pair walk enters: a pair of children is met
/// only when one side is live (a changed leaf, or a node with one below).
pub(crate) trait Liveness: Sync {
    /// Whether node `node` has a changed leaf below.
    fn node(&self, node: u32) -> bool;
    /// Whether leaf `proxy` changed.
    fn leaf(&self, proxy: u32) -> bool;
}

/// Every leaf changed (a first call, a level load): the whole tree is
/// live, and the walk asks nothing.
pub(crate) struct EveryLeaf;

impl Liveness for EveryLeaf {
    #[inline(always)]
    fn node(&self, _node: u32) -> bool {
        true
    }

    #[inline(always)]
    fn leaf(&self, _proxy: u32) -> bool {
        true
    }
}

/// The nodes [`Bvh::mark_dirty`] marked and the leaves `changed` flags.
pub(crate) struct Marked<'a, F> {
    pub(crate) dirty: &'a [bool],
    pub(crate) changed: F,
}

impl<F: Fn(u32) -> bool + Sync> Liveness for Marked<'_, F> {
    #[inline(always)]
    fn node(&self, node: u32) -> bool {
        self.dirty[node as usize]
    }

    #[inline(always)]
    fn leaf(&self, proxy: u32) -> bool {
        (self.changed)(proxy)
    }
}

impl<T: LeafData> Bvh<T> {
    /// Whether `changed`, distinct proxies, names every live leaf: with no
    /// leaf slot free the live proxies are `0..len`, and distinct proxies
    /// below `len`, `len` of them, are all of them. With a free slot the
    /// answer is `false`, whatever `changed` holds.
    pub fn is_every_leaf(&self, changed: &[u32]) -> bool {
        self.free_leaves.is_empty()
            && changed.len() == self.leaf_count
            && changed
                .iter()
                .max()
                .is_none_or(|&most| (most as usize) < self.leaf_count)
    }

    /// Marks in `dirty` (indexed by node, resized to the node count, cleared
    /// first) every node above a leaf in `changed`: the subtrees where a
    /// pair may have begun or ended. When half the leaves or more changed
    /// (a level loaded into a world), every node is marked: a marked node
    /// without a changed leaf below only costs the walk a visit, and
    /// filling the array beats a walk up from each leaf through the whole
    /// tree in random order.
    pub fn mark_dirty(&self, changed: &[u32], dirty: &mut Vec<bool>) {
        dirty.clear();
        if changed.len() >= self.leaf_count.div_ceil(2) && !changed.is_empty() {
            dirty.resize(self.nodes.len(), true);
            return;
        }
        dirty.resize(self.nodes.len(), false);
        for &proxy in changed {
            if !self.is_live(proxy) {
                continue;
            }
            let mut node = self.leaves[proxy as usize].node;
            while node != NULL_NODE && !dirty[node as usize] {
                dirty[node as usize] = true;
                node = self.nodes[node as usize].parent;
            }
        }
    }

    /// Calls `visit(proxy_a, proxy_b)` once for every pair of distinct
    /// leaves whose boxes in their nodes' slots overlap (closed), at
    /// least one of them live: the tree against itself (Bullet's
    /// `btDbvt::collideTT`), four children against four at a time. Subtrees
    /// without a changed leaf (per `live`) are only entered to meet a live
    /// one, so a frame that moved few leaves visits little of the tree.
    /// Only pairs of inner nodes wait on the stack (and the roots, which
    /// may be a leaf and a subtree): two overlapping leaves are visited at
    /// once, and a leaf against a subtree is walked at once with the leaf's
    /// box from its node (parry's
    /// `traverse_single_subtree`). No leaf record is read: the caller reads
    /// the leaves of the pairs afterwards, in a loop that can fetch several
    /// at once, where reading them here stalled the walk on each pair's two
    /// leaves in turn.
    ///
    /// The walk in two parts, for sharing it among threads: the node pairs
    /// of `roots` (from [`Bvh::overlapping_pair_roots`]) are independent,
    /// and each covers its own part of the walk.
    pub fn overlapping_pairs_below(&self, roots: &[(u32, u32)], live: &impl Liveness, mut visit: impl FnMut(u32, u32)) {
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for &root in roots {
            stack.push(root);
            while let Some(pair) = stack.pop() {
                self.pair_step(pair, live, false, &mut |next| stack.push(next), &mut visit);
            }
        }
    }

    /// The first part of [`Bvh::overlapping_pairs_below`]'s walk: from the
    /// root against itself, node pairs are taken breadth first until at
    /// least `wanted` wait (or none is left), and those are `roots`
    /// (cleared first); the leaf pairs met on the way go to `visit`. A leaf
    /// met against a subtree is left for later too, as a root of its own
    /// (the leaf, `LEAF_BIT` set, and the subtree's node): a large box high
    /// in the tree can reach most of it. With `wanted` = 1, `roots` is the
    /// root against itself.
    pub fn overlapping_pair_roots(
        &self,
        wanted: usize,
        live: &impl Liveness,
        roots: &mut Vec<(u32, u32)>,
        mut visit: impl FnMut(u32, u32),
    ) {
        roots.clear();
        if self.root == NULL_NODE || !live.node(self.root) {
            return;
        }
        let mut queue = std::collections::VecDeque::from([(self.root, self.root)]);
        while queue.len() + roots.len() < wanted {
            let Some(pair) = queue.pop_front() else {
                break;
            };
            let mut push = |next: (u32, u32)| {
                if is_leaf(next.0) {
                    roots.push(next);
                } else {
                    queue.push_back(next);
                }
            };
            self.pair_step(pair, live, true, &mut push, &mut visit);
        }
        roots.extend(queue);
    }

    /// One step of the walk. A node pair (`(a, a)` for a node against
    /// itself, else two distinct inner nodes whose boxes overlap): its
    /// overlapping children with a live side are met: two leaves are
    /// visited, a leaf is walked against a subtree (or, with
    /// `defer_leaves`, handed to `push` as `(leaf, node)`), two inner nodes
    /// are handed to `push`. A leaf and a node:
    /// the leaf, with its box in its node, walked against the subtree.
    fn pair_step(
        &self,
        (a, b): (u32, u32),
        live: &impl Liveness,
        defer_leaves: bool,
        push: &mut impl FnMut((u32, u32)),
        visit: &mut impl FnMut(u32, u32),
    ) {
        // `a`, `b` and every child met below come from occupied slots.
        let is_live = |child: u32| -> bool {
            if is_leaf_in_slot(child) {
                live.leaf(child & !LEAF_BIT)
            } else {
                live.node(child)
            }
        };
        if is_leaf_in_slot(a) {
            let leaf = &self.leaves[(a & !LEAF_BIT) as usize];
            let leaf_box = self.nodes[leaf.node as usize].slot_splat(leaf.slot as usize);
            self.leaf_against_subtree(a, leaf_box, b, &is_live, visit);
            return;
        }
        let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
        let hits = if a == b {
            for i in slots(na.occupied()) {
                let ci = na.children[i & 3];
                if !is_leaf_in_slot(ci) && live.node(ci) {
                    push((ci, ci));
                }
            }
            // Each pair of distinct children once.
            self_overlap_matrix(na)
        } else {
            overlap_matrix(na, nb)
        };
        for bit in slots(hits) {
            // A matrix bit is below 16: `i` and `j` are slots.
            let (i, j) = ((bit / 4) & 3, bit % 4);
            let (ca, cb) = (na.children[i], nb.children[j]);
            if !(is_live(ca) || is_live(cb)) {
                continue;
            }
            match (is_leaf_in_slot(ca), is_leaf_in_slot(cb)) {
                (true, true) => visit(ca & !LEAF_BIT, cb & !LEAF_BIT),
                (true, false) if defer_leaves => push((ca, cb)),
                (false, true) if defer_leaves => push((cb, ca)),
                (true, false) => self.leaf_against_subtree(ca, na.slot_splat(i), cb, &is_live, visit),
                (false, true) => self.leaf_against_subtree(cb, nb.slot_splat(j), ca, &is_live, visit),
                (false, false) => push((ca, cb)),
            }
        }
    }

    /// Visits the leaf `leaf` (a child, `LEAF_BIT` set, whose slot box,
    /// splatted, is `leaf_box`) against every leaf of the subtree under
    /// node `subtree` whose box overlaps it, entering only live subtrees
    /// unless the leaf itself is live: the tree's walk with a region
    /// visitor that also skips dead children.
    fn leaf_against_subtree(
        &self,
        leaf: u32,
        leaf_box: SplatBox,
        subtree: u32,
        live: &impl Fn(u32) -> bool,
        visit: &mut impl FnMut(u32, u32),
    ) {
        let live = if live(leaf) { None } else { Some(live) };
        let mut visitor = RegionVisitor::new(leaf_box, live, |proxy| {
            visit(leaf & !LEAF_BIT, proxy);
            ControlFlow::Continue(())
        });
        self.walk(subtree, u64::MAX, &mut visitor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::Leaf;
    use crate::math::{Aabb, Vec3};

    fn unit_box(x: f32) -> Aabb {
        Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0))
    }

    /// Every live proxy, and only those, is every leaf; a missing one, one
    /// past the live ones, or a free slot in the tree is not.
    #[test]
    fn every_leaf_is_each_live_proxy_once() {
        let mut bvh: Bvh<u32> = Bvh::default();
        let proxies = bvh.insert_batch((0..5).map(|i| Leaf::new(unit_box(i as f32), i, true)).collect());
        assert!(bvh.is_every_leaf(&proxies));
        assert!(!bvh.is_every_leaf(&proxies[1..]));
        let mut beyond = proxies.clone();
        beyond[0] = 5;
        assert!(!bvh.is_every_leaf(&beyond));
        bvh.remove(proxies[4]);
        assert!(!bvh.is_every_leaf(&proxies[..4]), "a free slot");
        let again = bvh.insert(&unit_box(9.0), 9, true);
        assert!(bvh.is_every_leaf(&[proxies[0], proxies[1], proxies[2], proxies[3], again]));
        assert!(Bvh::<u32>::default().is_every_leaf(&[]));
    }
}
