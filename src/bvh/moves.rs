//! A leaf's move in the tree: its slot takes its new tight box, and its
//! node's box in the parent grows, with the boxes above, when it no
//! longer holds the leaf. One mechanism serves a single update, applied to
//! the whole array of nodes, and a large batch, applied by ranges of node
//! indices that threads take side by side: a range's moves climb their
//! paths while the nodes stay in the range, and the growth that reaches a
//! node outside it waits, as an [`Escape`], to be applied after every
//! range (growth only widens boxes, so the tree holds every leaf in any
//! order of growth). The ranges depend on the node count alone, so a batch
//! leaves the same tree whatever the number of threads.

use crate::math::{Aabb, Vec3A};
use crate::prefetch::prefetch;

use super::node::Node;
use super::{fatten, leaf_child, leaf_tree_box, Bvh, Leaf, LeafData, NULL_NODE};

/// Nodes per range of a batch: 2 MB of nodes. Enough ranges for threads to
/// share a batch's moves on a world beyond the caches, few enough that a
/// path rarely leaves its range (a build numbers the nodes depth first, so
/// a subtree's nodes lie together).
const RANGE_NODES: usize = 16_384;

/// Moves between asking for a move's node and applying it, in
/// [`NodeRange::apply_all`]; the node's parent is asked for half way.
const NODE_AHEAD: usize = 8;

/// A leaf's move, planned from the tree as it stands before the move: the
/// leaf's new slot box, its centre's displacement (for the fat box, if its
/// node's box must grow), its categories, and where it lies.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlannedMove {
    needed: Aabb,
    displacement: Vec3A,
    category: u64,
    proxy: u32,
    node: u32,
    slot: u8,
}

/// Growth that reached a node outside a range: `node`'s box in its parent
/// must hold `needed` and its parent the `category`, else that box and the
/// ones above grow to hold `fat`.
#[derive(Debug, Clone, Copy)]
struct Escape {
    needed: Aabb,
    fat: Aabb,
    category: u64,
    node: u32,
}

/// A contiguous range of the tree's nodes, from node `first` on.
#[derive(Debug)]
pub(crate) struct NodeRange<'a> {
    first: u32,
    nodes: &'a mut [Node],
}

/// What a range's moves left to do once every range is done: their
/// escapes, and whether any box grew.
#[derive(Debug, Default)]
pub(crate) struct RangeOutcome {
    escapes: Vec<Escape>,
    grew: bool,
}

/// The tree's leaves, written by a batch apart from its nodes.
#[derive(Debug)]
pub(crate) struct LeafWrites<'a, T> {
    leaves: &'a mut [Leaf<T>],
}

impl<T: Copy> LeafWrites<'_, T> {
    /// The payload of leaf `proxy`.
    #[inline]
    pub(crate) fn data(&self, proxy: u32) -> T {
        self.leaves[proxy as usize].data
    }

    /// Leaf `proxy` takes its new tight box and payload (its slot, in its
    /// node, is the range's to write).
    #[inline]
    pub(crate) fn write(&mut self, proxy: u32, aabb: &Aabb, data: T, exact: bool) {
        self.leaves[proxy as usize].take_move(aabb, data, exact);
    }

    /// Starts loading leaf `proxy` into the cache (a hint).
    #[inline]
    pub(crate) fn prefetch(&self, proxy: u32) {
        if let Some(leaf) = self.leaves.get(proxy as usize) {
            prefetch(leaf);
        }
    }
}

impl<T> Leaf<T> {
    /// The leaf takes its new tight box and payload (its slot, in its
    /// node, is written apart).
    #[inline(always)]
    fn take_move(&mut self, aabb: &Aabb, data: T, exact: bool) {
        self.aabb = *aabb;
        self.data = data;
        self.exact = exact;
    }
}

impl<'a> NodeRange<'a> {
    /// Every node of the tree as one range (a single update's).
    #[inline]
    fn whole(nodes: &'a mut [Node]) -> Self {
        Self { first: 0, nodes }
    }

    /// Node `node`'s place in the range, if it lies in it.
    #[inline]
    fn local(&self, node: u32) -> Option<usize> {
        let i = node.wrapping_sub(self.first) as usize;
        (i < self.nodes.len()).then_some(i)
    }

    /// Applies one move whose node lies in the range: the slot takes the
    /// leaf's tight box; while the node's box in its parent still holds it
    /// and the node's categories hold the leaf's, nothing else changes;
    /// otherwise that box and the ones above grow to hold the leaf's fat
    /// box ([`fatten`]), growth reaching a node outside the range going to
    /// `escape`. Returns whether a box grew.
    #[inline(always)]
    fn apply(&mut self, m: &PlannedMove, escape: &mut impl FnMut(Escape)) -> bool {
        let Some(i) = self.local(m.node) else {
            debug_assert!(false, "a move is applied in the range of its node");
            return false;
        };
        let n = &mut self.nodes[i];
        n.set_slot(usize::from(m.slot), leaf_child(m.proxy), &m.needed);
        let parent = n.parent;
        if n.category & m.category == m.category {
            // The root has no box above it to hold.
            if parent == NULL_NODE {
                return false;
            }
            let Some(p) = self.local(parent) else {
                escape(Escape {
                    needed: m.needed,
                    fat: fatten(&m.needed, m.displacement),
                    category: m.category,
                    node: m.node,
                });
                return false;
            };
            let p = &self.nodes[p];
            if p.slot_box(p.slot_of(m.node)).contains_aabb(&m.needed) {
                return false;
            }
        }
        let fat = fatten(&m.needed, m.displacement);
        self.grow_from(m.node, &fat, m.category, escape);
        true
    }

    /// Makes `node` (in the range) and its ancestors hold `aabb` and
    /// `category`, growing their boxes, never shrinking them (that waits
    /// for the tree's next tightening): the climb stops at the first
    /// ancestor that already holds both, which for a small motion is
    /// usually the first, or at a parent outside the range, whose growth
    /// escapes.
    fn grow_from(&mut self, mut node: u32, aabb: &Aabb, category: u64, escape: &mut impl FnMut(Escape)) {
        while let Some(i) = self.local(node) {
            let n = &mut self.nodes[i];
            n.category |= category;
            let parent = n.parent;
            if parent == NULL_NODE {
                return;
            }
            let Some(p) = self.local(parent) else {
                escape(Escape {
                    needed: *aabb,
                    fat: *aabb,
                    category,
                    node,
                });
                return;
            };
            let p = &mut self.nodes[p];
            let slot = p.slot_of(node);
            let held = p.slot_box(slot);
            if held.contains_aabb(aabb) && p.category & category == category {
                return;
            }
            p.set_slot(slot, node, &held.union(aabb));
            node = parent;
        }
    }

    /// Applies an escape from another range (every range done): `node`'s
    /// box in its parent, and the boxes above, grow to its fat box unless
    /// they hold what it needs. Returns whether a box grew.
    fn settle(&mut self, e: &Escape) -> bool {
        let Some(i) = self.local(e.node) else {
            return false;
        };
        let parent = self.nodes[i].parent;
        if let Some(p) = self.local(parent) {
            let p = &self.nodes[p];
            if p.slot_box(p.slot_of(e.node)).contains_aabb(&e.needed) && p.category & e.category == e.category {
                return false;
            }
        }
        self.grow_from(e.node, &e.fat, e.category, &mut |_| {
            debug_assert!(false, "no parent lies outside the whole tree");
        });
        true
    }

    /// Applies `moves` (each lying in the range), run by run in order;
    /// with `fetch_ahead` (a tree beyond the caches), asks for each move's
    /// node [`NODE_AHEAD`] moves before its turn and for the node's parent
    /// half way. Returns what the moves left for [`Bvh::finish_batch`].
    pub(crate) fn apply_all(&mut self, runs: &[&[PlannedMove]], fetch_ahead: bool) -> RangeOutcome {
        let mut outcome = RangeOutcome::default();
        let RangeOutcome { escapes, grew } = &mut outcome;
        let mut escape = |e: Escape| escapes.push(e);
        let moves = runs.iter().flat_map(|run| run.iter());
        let mut ahead = moves.clone().skip(NODE_AHEAD / 2);
        let mut far = moves.clone().skip(NODE_AHEAD);
        for m in moves {
            if fetch_ahead {
                if let Some(i) = far.next().and_then(|far| self.local(far.node)) {
                    prefetch(&self.nodes[i]);
                }
                let parent = ahead
                    .next()
                    .and_then(|ahead| self.local(ahead.node))
                    .and_then(|i| self.local(self.nodes[i].parent));
                if let Some(i) = parent {
                    prefetch(&self.nodes[i]);
                }
            }
            *grew |= self.apply(m, &mut escape);
        }
        outcome
    }
}

impl<T: LeafData> Bvh<T> {
    /// How many ranges of nodes a batch's moves are applied by:
    /// [`RANGE_NODES`] nodes each, by index.
    pub(crate) fn range_count(&self) -> usize {
        self.nodes.len().div_ceil(RANGE_NODES)
    }

    /// How far leaf `proxy`'s centre moves to the box `aabb` from its box
    /// in the tree as it stands (`min/2 + max/2` as `Aabb::center`, in
    /// SIMD).
    #[inline(always)]
    pub(crate) fn displacement(&self, proxy: u32, aabb: &Aabb) -> Vec3A {
        let center = |b: &Aabb| Vec3A::from(b.min) * 0.5 + Vec3A::from(b.max) * 0.5;
        center(aabb) - center(&self.leaves[proxy as usize].aabb)
    }

    /// The move of leaf `proxy` to the tight box `aabb` with payload `data`,
    /// its centre moving by `displacement`, from the leaf's place in the
    /// tree, and the range of its node ([`Bvh::range_count`]). A batch
    /// plans every move by the displacement from the box its leaf had
    /// before the batch ([`Bvh::displacement`]), a key given twice
    /// included, so that the moves do not depend on the order they are
    /// applied in.
    #[inline(always)]
    pub(crate) fn plan_move(
        &self,
        proxy: u32,
        aabb: &Aabb,
        data: &T,
        exact: bool,
        displacement: Vec3A,
    ) -> (usize, PlannedMove) {
        let leaf = &self.leaves[proxy as usize];
        let planned = PlannedMove {
            needed: leaf_tree_box(aabb, exact),
            displacement,
            category: data.category(),
            proxy,
            node: leaf.node,
            slot: leaf.slot,
        };
        (leaf.node as usize / RANGE_NODES, planned)
    }

    /// Gives a leaf a new tight box and payload (see [`Bvh::update`]).
    #[inline(always)]
    pub(super) fn move_leaf(&mut self, proxy: u32, aabb: &Aabb, data: T, exact: bool) {
        let displacement = self.displacement(proxy, aabb);
        let (_, planned) = self.plan_move(proxy, aabb, &data, exact, displacement);
        self.leaves[proxy as usize].take_move(aabb, data, exact);
        self.updates += 1;
        let grew = NodeRange::whole(&mut self.nodes).apply(&planned, &mut |_| {
            debug_assert!(false, "no parent lies outside the whole tree");
        });
        if grew {
            // The budget is checked only here, where the tree grows:
            // updates that grow nothing leave it no looser.
            self.rebuild_if_due();
        }
    }

    /// The outcomes of a batch's ranges before any move, one per range, for
    /// [`Bvh::apply_in_range`].
    pub(crate) fn range_outcomes(&self) -> Vec<RangeOutcome> {
        (0..self.range_count()).map(|_| RangeOutcome::default()).collect()
    }

    /// Applies a batch's move on the calling thread, leaf and node: the
    /// move of leaf `proxy` is planned ([`Bvh::plan_move`], by the
    /// `displacement` its leaf's box before the batch gives), the leaf takes
    /// its box and payload, and the move is applied in the range of its node
    /// as [`NodeRange::apply_all`] applies it, its escapes into that range's
    /// outcome. Moves applied this way in the batch's order leave the tree
    /// that the ranges taken side by side leave.
    #[inline(always)]
    pub(crate) fn apply_in_range(
        &mut self,
        proxy: u32,
        aabb: &Aabb,
        data: T,
        exact: bool,
        displacement: Vec3A,
        outcomes: &mut [RangeOutcome],
    ) {
        let (range, m) = self.plan_move(proxy, aabb, &data, exact, displacement);
        self.leaves[proxy as usize].take_move(aabb, data, exact);
        let first = range * RANGE_NODES;
        let end = (first + RANGE_NODES).min(self.nodes.len());
        let (Some(nodes), Some(outcome)) = (self.nodes.get_mut(first..end), outcomes.get_mut(range)) else {
            debug_assert!(false, "a planned move lies in a range of the tree");
            return;
        };
        let RangeOutcome { escapes, grew } = outcome;
        let mut nodes = NodeRange {
            first: first as u32,
            nodes,
        };
        *grew |= nodes.apply(&m, &mut |e| escapes.push(e));
    }

    /// The tree split for a batch of moves: its leaves, and its nodes in
    /// [`Bvh::range_count`] ranges of consecutive indices.
    pub(crate) fn split_for_batch(&mut self) -> (LeafWrites<'_, T>, Vec<NodeRange<'_>>) {
        let ranges = self
            .nodes
            .chunks_mut(RANGE_NODES)
            .enumerate()
            .map(|(i, nodes)| NodeRange {
                first: (i * RANGE_NODES) as u32,
                nodes,
            })
            .collect();
        (
            LeafWrites {
                leaves: &mut self.leaves,
            },
            ranges,
        )
    }

    /// Ends a batch of `moved` moves whose ranges left `outcomes`: their
    /// escapes applied, range by range in order, then the tree tightened or
    /// rebuilt if due.
    pub(crate) fn finish_batch(&mut self, moved: usize, outcomes: &[RangeOutcome]) {
        self.updates += moved;
        let mut nodes = NodeRange::whole(&mut self.nodes);
        let mut grew = false;
        for outcome in outcomes {
            grew |= outcome.grew;
            for escape in &outcome.escapes {
                grew |= nodes.settle(escape);
            }
        }
        if grew {
            self.rebuild_if_due();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PlannedMove;
    use crate::bvh::{Bvh, Leaf};
    use crate::math::{Aabb, Vec3, Vec3A};

    /// Unit boxes on a jittered grid, enough for two ranges of nodes.
    fn scattered() -> Bvh<u32> {
        let mut bvh = Bvh::default();
        let leaves = (0..48_000u32)
            .map(|i| {
                let jitter = (i.wrapping_mul(2_654_435_761) % 1000) as f32 / 1000.0;
                let x = Vec3::new((i % 40) as f32, ((i / 40) % 40) as f32, (i / 1600) as f32) * 3.0 + jitter;
                Leaf::new(Aabb::new(x, x + Vec3::ONE), i, true)
            })
            .collect();
        bvh.insert_batch(leaves);
        bvh
    }

    /// Every node's children, boxes, category and parent, for comparing
    /// two trees.
    fn node_fields(bvh: &Bvh<u32>) -> Vec<String> {
        bvh.nodes.iter().map(|node| format!("{node:?}")).collect()
    }

    /// A batch applied by ranges of nodes leaves a tree that holds every
    /// leaf with its slot at its new tight box, the same tree whatever order
    /// the ranges are taken in (as threads would take them), and the same
    /// when the moves are applied one by one in the batch's order on one
    /// thread, growth that left a range applied after them all. A key
    /// given twice is planned from the box its leaf had before the batch.
    #[test]
    fn ranges_taken_in_any_order_leave_the_same_valid_tree() {
        let base = scattered();
        assert!(base.range_count() >= 2, "{} nodes", base.nodes.len());
        // Every third leaf jumps by up to 8 units (most escape their node's
        // box, and the growth of some climbs out of its range), then the
        // first hundred of them again.
        let jump = |proxy: u32, k: u32| {
            let step = |m: u32| (proxy.wrapping_mul(m).wrapping_add(k) % 17) as f32 - 8.0;
            let old = base.leaves[proxy as usize].aabb;
            let d = Vec3::new(step(31), step(57), step(91));
            (proxy, Aabb::new(old.min + d, old.max + d))
        };
        let mut targets: Vec<(u32, Aabb)> = (0..base.leaves.len() as u32).step_by(3).map(|p| jump(p, 0)).collect();
        targets.extend((0..300).step_by(3).map(|p| jump(p, 5)));
        let mut trees = Vec::new();
        let mut escapes = Vec::new();
        for order in ["ranges in order", "ranges reversed", "one by one"] {
            let mut bvh = base.clone();
            let displacements: Vec<Vec3A> = targets.iter().map(|(p, aabb)| bvh.displacement(*p, aabb)).collect();
            let mut outcomes = bvh.range_outcomes();
            if order == "one by one" {
                for ((proxy, aabb), d) in targets.iter().zip(&displacements) {
                    bvh.apply_in_range(*proxy, aabb, *proxy, true, *d, &mut outcomes);
                }
            } else {
                let mut by_range: Vec<Vec<PlannedMove>> = vec![Vec::new(); bvh.range_count()];
                for ((proxy, aabb), d) in targets.iter().zip(&displacements) {
                    let (range, planned) = bvh.plan_move(*proxy, aabb, proxy, true, *d);
                    by_range[range].push(planned);
                }
                let (mut leaves, ranges) = bvh.split_for_batch();
                assert_eq!(ranges.len(), by_range.len());
                for (proxy, aabb) in &targets {
                    leaves.write(*proxy, aabb, *proxy, true);
                }
                let mut taken: Vec<_> = ranges.into_iter().zip(&by_range).zip(&mut outcomes).collect();
                if order == "ranges reversed" {
                    taken.reverse();
                }
                for ((mut range, moves), outcome) in taken {
                    *outcome = range.apply_all(&[moves.as_slice()], order == "ranges reversed");
                }
            }
            escapes.push(outcomes.iter().map(|o| o.escapes.len()).sum::<usize>());
            bvh.finish_batch(targets.len(), &outcomes);
            bvh.validate().expect("a valid tree");
            for (proxy, aabb) in targets.iter().rev().take(100) {
                let leaf = &bvh.leaves[*proxy as usize];
                assert_eq!(leaf.aabb, *aabb, "{order}: leaf {proxy} has its last box");
                let slot = bvh.nodes[leaf.node as usize].slot_box(usize::from(leaf.slot));
                assert_eq!(slot, *aabb, "{order}: leaf {proxy}'s slot");
            }
            trees.push(node_fields(&bvh));
        }
        assert!(escapes[0] > 0, "some growth left its range");
        assert!(escapes.iter().all(|&e| e == escapes[0]), "{escapes:?}");
        assert!(trees[1] == trees[0], "ranges reversed: the same tree");
        assert!(trees[2] == trees[0], "one by one: the same tree");
    }
}
