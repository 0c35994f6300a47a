//! The tree against itself: every pair of overlapping leaves, entering
//! only the subtrees that hold a changed leaf.

use core::ops::ControlFlow;

use crate::math::Aabb;

use super::node::{overlap_matrix, self_overlap_matrix, slots, Node};
use super::query::RegionVisitor;
use super::{is_leaf, Bvh, LeafData, LEAF_BIT, NULL_NODE};

impl<T: LeafData> Bvh<T> {
    /// Marks in `dirty` (indexed by node, resized to the node count, cleared
    /// first) every node above a leaf in `changed`: the subtrees where a
    /// pair may have begun or ended. When half the leaves or more changed
    /// (the first call, a level load), every node is marked: a marked node
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
    /// leaves whose fat boxes (their boxes in the nodes) overlap (closed), at
    /// least one of them changed: the tree against itself (Bullet's
    /// `btDbvt::collideTT`), four children against four at a time. Subtrees
    /// without a changed leaf (per `dirty`, from [`Bvh::mark_dirty`]) are
    /// only entered to meet a dirty one, so a frame that moved few leaves
    /// visits little of the tree. Only pairs of inner nodes wait on the
    /// stack: two overlapping leaves are visited at once, and a leaf against
    /// a subtree is walked at once with the leaf's box from its node (parry's
    /// `traverse_single_subtree`). No leaf record is read: the caller reads
    /// the leaves of the pairs afterwards, in a loop that can fetch several
    /// at once, where reading them here stalled the walk on each pair's two
    /// leaves in turn.
    pub fn overlapping_pairs(&self, dirty: &[bool], changed: impl Fn(u32) -> bool, mut visit: impl FnMut(u32, u32)) {
        if self.root == NULL_NODE || !dirty[self.root as usize] {
            return;
        }
        let live = |child: u32| -> bool {
            if is_leaf(child) {
                changed(child & !LEAF_BIT)
            } else {
                dirty[child as usize]
            }
        };
        // Two overlapping children, slot `i` of `na` and slot `j` of `nb`,
        // either of them live.
        let mut meet = |stack: &mut Vec<(u32, u32)>, na: &Node, i: usize, nb: &Node, j: usize| {
            let (a, b) = (na.children[i], nb.children[j]);
            match (is_leaf(a), is_leaf(b)) {
                (true, true) => visit(a & !LEAF_BIT, b & !LEAF_BIT),
                (true, false) => {
                    self.leaf_against_subtree(a, &na.slot_box(i), b, &live, &mut visit);
                }
                (false, true) => {
                    self.leaf_against_subtree(b, &nb.slot_box(j), a, &live, &mut visit);
                }
                (false, false) => stack.push((a, b)),
            }
        };
        // Pairs of inner nodes still to test: (a, a) for a node against
        // itself, else two distinct nodes whose boxes overlap.
        let mut stack: Vec<(u32, u32)> = vec![(self.root, self.root)];
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            let hits = if a == b {
                for i in slots(na.occupied()) {
                    let ci = na.children[i];
                    if !is_leaf(ci) && dirty[ci as usize] {
                        stack.push((ci, ci));
                    }
                }
                // Each pair of distinct children once.
                self_overlap_matrix(na)
            } else {
                overlap_matrix(na, nb)
            };
            for bit in slots(hits) {
                let (i, j) = (bit / 4, bit % 4);
                if live(na.children[i]) || live(nb.children[j]) {
                    meet(&mut stack, na, i, nb, j);
                }
            }
        }
    }

    /// Visits the leaf `leaf` (a child, `LEAF_BIT` set, whose slot box is
    /// `leaf_box`) against every leaf of the subtree under node `subtree`
    /// whose box overlaps it, entering only live subtrees unless the leaf
    /// itself is live: the tree's walk with a region visitor that also
    /// skips dead children.
    fn leaf_against_subtree(
        &self,
        leaf: u32,
        leaf_box: &Aabb,
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
