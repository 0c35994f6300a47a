//! Dynamic bounding-volume hierarchy with four children per node, over
//! leaves carrying any payload: the world's colliders (the broad phase
//! behind every world query) and a mesh's triangles.
//!
//! - Nodes are 4-wide and stored as structure of arrays (the four child
//!   boxes' `min.x` side by side, and so on), so one SIMD slab or overlap
//!   test covers all four children (Wald et al., "Getting Rid of Packets",
//!   2008; the layout of Embree's BVH4 and Jolt's `QuadTree`). The test
//!   runs on glam's `Vec4`, which is SSE2 on x86-64 and NEON on aarch64.
//! - A node lives in one 128-byte, cache-aligned slot of a flat array;
//!   children are indices, with the top bit marking a leaf.
//! - A leaf's box in its node's slot is always its tight box (with a
//!   rounding margin for shapes other than boxes); the slack for its
//!   motion lies in the boxes above. A moved leaf's slot is rewritten,
//!   and while its node's box in the parent still holds it nothing else
//!   changes; a leaf escaping that box grows it and its ancestors' to hold
//!   the leaf enlarged ("fat") ahead of its motion, until one already
//!   holds it. Insertion descends to the child whose box grows least
//!   (Guttman's R-tree `ChooseLeaf`) and takes a free slot, or pairs up
//!   with a leaf in a new node. Removal empties the slot.
//! - [`Bvh::rebuild`] rebuilds the whole tree top-down by binned SAH (Wald,
//!   "On fast Construction of SAH-based Bounding Volume Hierarchies", 2007),
//!   splitting each node's range until it has four parts. The tree rebuilds
//!   itself once insertions or updates have piled up, amortised over them.
//! - Each node keeps the union of its leaves' categories
//!   ([`LeafData::category`]), so a query mask prunes whole subtrees.
//!
//! This file holds the tree and its dynamic updates (insert, move,
//! remove, refit); beside it are the 4-wide node and its SIMD tests
//! (`node`), the one walk of the tree and its visitors' trait (`walk`),
//! the walk's stack (`stack`), the segment cast (`cast`) and the region
//! query (`query`), two visitors, the tree against itself (`pairs`) and the
//! SAH build (`build`).

mod build;
mod cast;
mod node;
mod pairs;
mod path_prefetch;
mod query;
mod stack;
mod walk;

use crate::math::{Aabb, Vec3A};
use crate::prefetch::prefetch;

use build::BuildItem;
use node::Node;
pub(crate) use pairs::{EveryLeaf, Liveness, Marked};
pub(crate) use path_prefetch::{PathPrefetch, LEAF_AHEAD, PATH_STEP};

/// "No node" / an empty child slot.
pub(crate) const NULL_NODE: u32 = u32::MAX;

/// A leaf's `node` while a batch insertion waits for its rebuild.
const PENDING_NODE: u32 = u32::MAX - 1;

/// Marks a child index as a leaf index.
const LEAF_BIT: u32 = 1 << 31;

/// The most leaves a tree holds: node and leaf indices stay below 2³⁰, so
/// that bit 30 of a child index is clear (see `Node::occupied`).
pub(crate) const MAX_LEAVES: usize = 1 << 30;

/// How many updates per leaf the tree absorbs before it tightens its boxes
/// (see [`Bvh::tighten`]).
const UPDATE_BUDGET: usize = 4;

/// Every this many tightenings, the tree rebuilds itself by SAH instead:
/// tightening undoes the boxes' growth, not the drift of the leaves away
/// from the places the last rebuild gave them.
const TIGHTENINGS_PER_REBUILD: usize = 4;

/// What a leaf carries beside its box.
pub(crate) trait LeafData: Copy {
    /// The categories the leaf belongs to: a walk with a mask skips the
    /// subtrees with none of the mask's categories.
    fn category(&self) -> u64;
}

/// A leaf: a tight box, its payload, and where it sits in the tree.
///
/// Aligned to a cache line, so that a leaf of up to 64 bytes (a world's
/// collider: box, key, filter and user data) is read in one line.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
pub(crate) struct Leaf<T> {
    /// The tight box.
    pub(crate) aabb: Aabb,
    /// The payload.
    pub(crate) data: T,
    /// Whether the box is the exact shape (an `Aabb` collider), so that the
    /// tree holds it without a rounding margin and an exact test against a
    /// box needs nothing else.
    pub(crate) exact: bool,
    /// The node holding the leaf, `NULL_NODE` once removed.
    node: u32,
    slot: u8,
}

impl<T> Leaf<T> {
    /// A leaf not yet in a tree, for [`Bvh::insert_batch`].
    #[inline]
    pub(crate) fn new(aabb: Aabb, data: T, exact: bool) -> Self {
        Self {
            aabb,
            data,
            exact,
            node: NULL_NODE,
            slot: 0,
        }
    }

    /// The node holding the leaf: nearby leaves sit in nearby nodes, which
    /// a rebuild numbers depth first.
    #[inline]
    pub fn node(&self) -> u32 {
        self.node
    }
}

/// The dynamic 4-wide BVH. A leaf's index (its proxy id) stays valid until
/// the leaf is removed.
#[derive(Debug, Clone)]
pub(crate) struct Bvh<T> {
    nodes: Vec<Node>,
    free_nodes: Vec<u32>,
    leaves: Vec<Leaf<T>>,
    free_leaves: Vec<u32>,
    root: u32,
    leaf_count: usize,
    /// Leaf updates since the last rebuild or tightening.
    updates: usize,
    /// Tightenings since the last rebuild.
    tightenings: usize,
    /// Insertions since the last rebuild, and the leaf count then.
    insertions: usize,
    leaves_at_rebuild: usize,
}

impl<T> Default for Bvh<T> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            free_nodes: Vec::new(),
            leaves: Vec::new(),
            free_leaves: Vec::new(),
            root: NULL_NODE,
            leaf_count: 0,
            updates: 0,
            tightenings: 0,
            insertions: 0,
            leaves_at_rebuild: 0,
        }
    }
}

/// The box a leaf stands for in its slot of the tree: a box collider's
/// own box (its exact shape), or another shape's bounds grown by
/// the rounding of its exact tests — four ulps of its largest coordinate,
/// plus `1e-18` for the squares that underflow near the origin — so the
/// tree never prunes a hit or an overlap the exact test reports.
#[inline]
fn leaf_tree_box(aabb: &Aabb, exact: bool) -> Aabb {
    if exact {
        return *aabb;
    }
    let magnitude = aabb.min.abs().max(aabb.max.abs()).max_element();
    aabb.expanded(4.0 * f32::EPSILON * magnitude + 1e-18)
}

/// The longest motion [`fatten`] predicts, in lengths of the leaf's box's
/// largest side: a jump farther than this (a teleport, a respawn) is not a
/// motion the next frame repeats, and a fat box stretched along it would
/// overlap much of the tree, so that every query and pair search entering
/// it would meet the leaf.
const MOST_STRETCH: f32 = 4.0;

/// The fat box of a leaf that just moved by `displacement` out of its
/// node's box (Box2D's predictive enlargement), which that box and its
/// ancestors' grow to hold: the new tight box, stretched to where the same
/// motion would take it next, and grown by a tenth of the motion on every
/// side, the motion shortened to [`MOST_STRETCH`] box lengths. The leaf's
/// own slot stays tight, and the nodes above a leaf that never moved hold
/// only what their subtrees do, so static geometry costs casts nothing
/// extra. Near the ends of the float range the motion itself may not be
/// finite (two centres near `±f32::MAX` apart): its length, and so the
/// margin, is then `∞` or NaN, the fat box is not finite, and the tight
/// box is grown to instead, since a NaN or infinite box in a node would
/// hide its subtree from every query. In 16-byte SIMD vectors.
#[inline]
fn fatten(tight: &Aabb, displacement: Vec3A) -> Aabb {
    let (min, max) = (Vec3A::from(tight.min), Vec3A::from(tight.max));
    let displacement = displacement.clamp_length_max(MOST_STRETCH * (max - min).max_element());
    let margin = Vec3A::splat(0.1 * displacement.length());
    let fat = Aabb::new(
        (min.min(min + displacement) - margin).into(),
        (max.max(max + displacement) + margin).into(),
    );
    if fat.is_finite() {
        fat
    } else {
        *tight
    }
}

/// Puts `value` in a free record of `records` (the last index
/// pushed on `free`), or at the end, and returns its index: the free list
/// of the tree's nodes and leaves, and of the world's table of shapes. A
/// full array grows by half its length (Box2D's dynamic tree), not by
/// doubling: a tree built with little room beside its nodes, or a level
/// loaded into leaves that fit, takes a few colliders more without asking
/// for twice its memory.
#[inline]
pub(crate) fn store<T>(records: &mut Vec<T>, free: &mut Vec<u32>, value: T) -> u32 {
    match free.pop() {
        Some(index) => {
            records[index as usize] = value;
            index
        }
        None => {
            if records.len() == records.capacity() {
                records.reserve_exact(records.len() / 2 + 4);
            }
            records.push(value);
            (records.len() - 1) as u32
        }
    }
}

#[inline]
fn leaf_child(leaf: u32) -> u32 {
    leaf | LEAF_BIT
}

#[inline]
fn is_leaf(child: u32) -> bool {
    child != NULL_NODE && child & LEAF_BIT != 0
}

/// [`is_leaf`] for a child read from an occupied slot, which is never
/// `NULL_NODE`: the leaf bit alone tells.
#[inline]
fn is_leaf_in_slot(child: u32) -> bool {
    debug_assert!(child != NULL_NODE, "an occupied slot's child");
    child & LEAF_BIT != 0
}

impl<T> Bvh<T> {
    /// Calls `f(box, depth)` with the box of every inner node, the root's
    /// at depth 0, parents before children: the tree as a debug drawing
    /// shows it.
    pub(crate) fn for_each_node_box(&self, mut f: impl FnMut(&Aabb, usize)) {
        if self.root == NULL_NODE {
            return;
        }
        if let Some(root) = self.nodes[self.root as usize].bounds() {
            f(&root, 0);
        }
        let mut stack = vec![(self.root, 0usize)];
        while let Some((index, depth)) = stack.pop() {
            let node = &self.nodes[index as usize];
            for slot in 0..4 {
                let child = node.children[slot];
                if child != NULL_NODE && !is_leaf(child) {
                    f(&node.slot_box(slot), depth + 1);
                    stack.push((child, depth + 1));
                }
            }
        }
    }
}

impl<T: LeafData> Bvh<T> {
    /// How many leaves the tree holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.leaf_count
    }

    /// The leaf of a proxy id (of a removed leaf, its last state).
    #[inline]
    pub fn leaf(&self, proxy: u32) -> &Leaf<T> {
        &self.leaves[proxy as usize]
    }

    /// Whether the proxy names a leaf in the tree (not a removed one).
    #[inline]
    pub fn is_live(&self, proxy: u32) -> bool {
        self.leaves.get(proxy as usize).is_some_and(|l| l.node != NULL_NODE)
    }

    /// Every live leaf, in leaf order (the order of memory: after a
    /// build, the tree's order).
    pub fn live_leaves(&self) -> impl Iterator<Item = &Leaf<T>> {
        self.leaves.iter().filter(|leaf| leaf.node != NULL_NODE)
    }

    /// Bytes held by the tree's arrays (capacity, not length).
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node>()
            + self.leaves.capacity() * core::mem::size_of::<Leaf<T>>()
            + (self.free_nodes.capacity() + self.free_leaves.capacity()) * core::mem::size_of::<u32>()
    }

    fn allocate_node(&mut self, parent: u32) -> u32 {
        store(&mut self.nodes, &mut self.free_nodes, Node { parent, ..Node::EMPTY })
    }

    /// Puts `child` (with box `aabb`) into `node`'s `slot`, and records the
    /// new position in the child.
    fn place(&mut self, node: u32, slot: usize, child: u32, aabb: &Aabb) {
        self.nodes[node as usize].set_slot(slot, child, aabb);
        if is_leaf(child) {
            let leaf = &mut self.leaves[(child & !LEAF_BIT) as usize];
            leaf.node = node;
            leaf.slot = slot as u8;
        } else {
            self.nodes[child as usize].parent = node;
        }
    }

    /// Adds a leaf and returns its proxy id.
    pub fn insert(&mut self, aabb: &Aabb, data: T, exact: bool) -> u32 {
        let proxy = self.allocate_leaf(aabb, data, exact);
        self.insert_leaf(proxy);
        self.insertions += 1;
        self.rebuild_if_due();
        proxy
    }

    /// Adds many leaves at once (each made by [`Leaf::new`]) and returns
    /// their proxy ids in order. A batch into an empty tree, or at least as
    /// large as the tree (and 64 leaves), is placed by one SAH rebuild (a
    /// level load); a smaller one leaf by leaf.
    pub fn insert_batch(&mut self, batch: Vec<Leaf<T>>) -> Vec<u32> {
        if self.leaf_count > 0 {
            if batch.len() < self.leaf_count.max(64) {
                return batch
                    .into_iter()
                    .map(|leaf| self.insert(&leaf.aabb, leaf.data, leaf.exact))
                    .collect();
            }
            self.leaves.reserve(batch.len());
            let proxies: Vec<u32> = batch
                .into_iter()
                .map(|leaf| {
                    let proxy = self.allocate_leaf(&leaf.aabb, leaf.data, leaf.exact);
                    // Not in the tree yet, but live: the rebuild below places it.
                    self.leaves[proxy as usize].node = PENDING_NODE;
                    proxy
                })
                .collect();
            let items = self.live_items();
            self.build_nodes(items, false);
            return proxies;
        }
        // Into an empty tree (a level load), no proxy id is held yet: the
        // leaves are numbered in tree order, so that leaves near in space
        // are near in memory (a pair's two leaves, a query's hits). The
        // build's items stand for the batch's entries (their proxies are
        // positions in `batch`); the batch then becomes the tree's leaves,
        // put in tree order where it lies, so that a level load allocates
        // no second array of leaves.
        let mut items = Vec::with_capacity(batch.len());
        items.extend(
            batch
                .iter()
                .enumerate()
                .map(|(at, leaf)| BuildItem::new(&leaf.aabb, leaf.exact, at as u32)),
        );
        self.leaf_count = batch.len();
        let order = self.build_nodes(items, true);
        let mut leaves = batch;
        let mut proxies = vec![NULL_NODE; leaves.len()];
        for (proxy, item) in order.iter().enumerate() {
            proxies[item.proxy as usize] = proxy as u32;
            let leaf = &mut leaves[item.proxy as usize];
            (leaf.node, leaf.slot) = (item.node, item.slot);
        }
        drop(order);
        // `place[i]` is where the leaf at `i` in `batch` belongs, set to `i`
        // once position `i` holds its leaf. Each cycle of the permutation
        // is followed once: the leaf carried goes to its place and the one
        // found there is carried on. The next place is read from `place`
        // alone, so the loads of the leaves along a cycle overlap: none
        // waits for the one before.
        let mut place = proxies.clone();
        for start in 0..leaves.len() {
            let mut to = place[start] as usize;
            if to == start {
                continue;
            }
            let mut carried = leaves[start];
            loop {
                let next = place[to] as usize;
                place[to] = to as u32;
                let found = leaves[to];
                leaves[to] = carried;
                if to == start {
                    break;
                }
                (carried, to) = (found, next);
            }
        }
        self.leaves = leaves;
        self.free_leaves.clear();
        self.gather_categories();
        proxies
    }

    /// A new leaf record (reusing a free one), not yet in the tree.
    fn allocate_leaf(&mut self, aabb: &Aabb, data: T, exact: bool) -> u32 {
        let leaf = Leaf {
            aabb: *aabb,
            data,
            exact,
            node: NULL_NODE,
            slot: 0,
        };
        let proxy = store(&mut self.leaves, &mut self.free_leaves, leaf);
        self.leaf_count += 1;
        proxy
    }

    fn insert_leaf(&mut self, proxy: u32) {
        let leaf = &self.leaves[proxy as usize];
        let fat = leaf_tree_box(&leaf.aabb, leaf.exact);
        if self.root == NULL_NODE {
            self.root = self.allocate_node(NULL_NODE);
        }
        let mut node = self.root;
        loop {
            if let Some(slot) = self.nodes[node as usize].free_slot() {
                self.place(node, slot, leaf_child(proxy), &fat);
                break;
            }
            // Guttman's ChooseLeaf: the child whose box grows least, the
            // smaller box on ties.
            let n = &self.nodes[node as usize];
            let slot = (0..4)
                .min_by(|&a, &b| {
                    let (box_a, box_b) = (n.slot_box(a), n.slot_box(b));
                    let growth_a = box_a.union(&fat).surface_area() - box_a.surface_area();
                    let growth_b = box_b.union(&fat).surface_area() - box_b.surface_area();
                    growth_a
                        .total_cmp(&growth_b)
                        .then(box_a.surface_area().total_cmp(&box_b.surface_area()))
                })
                .expect("a full node has four slots");
            let child = n.children[slot];
            let child_box = n.slot_box(slot);
            if is_leaf(child) {
                let pair = self.allocate_node(node);
                self.place(pair, 0, child, &child_box);
                self.place(pair, 1, leaf_child(proxy), &fat);
                let pair_box = child_box.union(&fat);
                self.place(node, slot, pair, &pair_box);
                node = pair;
                break;
            }
            node = child;
        }
        self.refit_from(node);
    }

    /// Removes a leaf.
    pub fn remove(&mut self, proxy: u32) {
        let Leaf { node, slot, .. } = self.leaves[proxy as usize];
        self.leaves[proxy as usize].node = NULL_NODE;
        self.nodes[node as usize].clear_slot(slot as usize);
        self.free_leaves.push(proxy);
        self.leaf_count -= 1;
        // Empty nodes leave the tree; the first non-empty one is refitted.
        let mut node = node;
        while self.nodes[node as usize].bounds().is_none() {
            let parent = self.nodes[node as usize].parent;
            self.free_nodes.push(node);
            if parent == NULL_NODE {
                self.root = NULL_NODE;
                return;
            }
            let slot = self.nodes[parent as usize].slot_of(node);
            self.nodes[parent as usize].clear_slot(slot);
            node = parent;
        }
        self.refit_from(node);
    }

    /// Starts loading a leaf's record into the cache (a hint; it reads
    /// nothing).
    #[inline]
    pub fn prefetch_leaf(&self, proxy: u32) {
        if let Some(leaf) = self.leaves.get(proxy as usize) {
            prefetch(leaf);
        }
    }

    /// [`Bvh::prefetch_leaf`], returning the leaf as the first step of a
    /// path for [`Bvh::prefetch_up`].
    #[inline]
    fn prefetch_path(&self, proxy: u32) -> u32 {
        self.prefetch_leaf(proxy);
        leaf_child(proxy)
    }

    /// One step up a leaf's path for [`PathPrefetch`]: from a leaf (as
    /// [`Bvh::prefetch_path`] returns it) to the node holding it, or from a
    /// node to its parent; starts loading that node into the cache and
    /// returns it (`NULL_NODE` past the root, or from anything that is not a
    /// leaf or a node). It reads the record it steps from, which an earlier
    /// step asked for.
    #[inline]
    fn prefetch_up(&self, from: u32) -> u32 {
        let next = if is_leaf(from) {
            self.leaves
                .get((from & !LEAF_BIT) as usize)
                .map_or(NULL_NODE, |leaf| leaf.node)
        } else {
            self.nodes.get(from as usize).map_or(NULL_NODE, |node| node.parent)
        };
        if let Some(node) = self.nodes.get(next as usize) {
            prefetch(node);
        }
        next
    }

    /// Gives a leaf a new tight box and payload. The leaf's slot takes its
    /// tree box (tight, see [`leaf_tree_box`]) at every update, so that
    /// casts and queries test the box the leaf has now; the slack for its
    /// motion lies one level up, in its node's box in the parent (Jolt's
    /// quad tree keeps leaf bounds tight and widens the nodes above). While
    /// that box holds the new one and the node's category holds the leaf's,
    /// nothing else changes; otherwise that box and its ancestors' grow to
    /// hold the leaf's fat box ([`fatten`]), until one already holds it.
    /// Every update counts towards the next tightening ([`UPDATE_BUDGET`]).
    pub fn update(&mut self, proxy: u32, aabb: &Aabb, data: T, exact: bool) {
        let leaf = &mut self.leaves[proxy as usize];
        let category = data.category();
        // The centres' move, `min/2 + max/2` as `Aabb::center`, in SIMD.
        let center = |b: &Aabb| Vec3A::from(b.min) * 0.5 + Vec3A::from(b.max) * 0.5;
        let displacement = center(aabb) - center(&leaf.aabb);
        leaf.aabb = *aabb;
        leaf.data = data;
        leaf.exact = exact;
        let (node, slot) = (leaf.node, leaf.slot as usize);
        let needed = leaf_tree_box(aabb, exact);
        self.updates += 1;
        let n = &mut self.nodes[node as usize];
        n.set_slot(slot, leaf_child(proxy), &needed);
        let parent = n.parent;
        if n.category & category == category {
            // The root has no box above it to hold.
            if parent == NULL_NODE {
                return;
            }
            let p = &self.nodes[parent as usize];
            if p.slot_box(p.slot_of(node)).contains_aabb(&needed) {
                return;
            }
        }
        // The budget is checked only here, where the tree grows: updates
        // that grow nothing leave it no looser.
        let fat = fatten(&needed, displacement);
        self.grow_from(node, &fat, category);
        self.rebuild_if_due();
    }

    /// Rebuilds by SAH once the tree has doubled by insertion since the last
    /// rebuild; tightens its boxes once updates pass `UPDATE_BUDGET` per leaf,
    /// and rebuilds instead every `TIGHTENINGS_PER_REBUILD`-th time. Both
    /// amortise their cost (O(n) and O(n log n)) over Ω(n) changes, so
    /// building a world collider by collider costs O(log n) per insertion
    /// and a moving leaf O(1) amortised per update.
    #[inline]
    fn rebuild_if_due(&mut self) {
        let grown = self.insertions > self.leaves_at_rebuild.max(32);
        if grown || self.updates > UPDATE_BUDGET * self.leaf_count.max(64) {
            self.rebuild_or_tighten(grown);
        }
    }

    /// [`Bvh::rebuild_if_due`]'s work, once it is due: a rebuild when the
    /// tree has `grown` by insertion, else a tightening (or every
    /// `TIGHTENINGS_PER_REBUILD`-th time a rebuild).
    #[cold]
    #[inline(never)]
    fn rebuild_or_tighten(&mut self, grown: bool) {
        if grown {
            self.rebuild();
        } else {
            self.tightenings += 1;
            if self.tightenings >= TIGHTENINGS_PER_REBUILD {
                self.rebuild();
            } else {
                self.tighten();
            }
        }
    }

    /// Recomputes every inner node's box in its parent, and every node's
    /// category, from its children, bottom up: the boxes that updates have
    /// grown since the last rebuild shrink back to what their subtrees
    /// hold (a leaf's slot holds its tree box). O(n), with no change of
    /// topology.
    fn tighten(&mut self) {
        self.updates = 0;
        if self.root == NULL_NODE {
            return;
        }
        // Parents before children, then the reverse: children first.
        let mut order = Vec::with_capacity(self.nodes.len());
        order.push(self.root);
        let mut next = 0;
        while next < order.len() {
            let node = &self.nodes[order[next] as usize];
            order.extend(node.children.iter().filter(|&&c| c != NULL_NODE && !is_leaf(c)));
            next += 1;
        }
        for &index in order.iter().rev() {
            let node = self.nodes[index as usize];
            let mut category = 0;
            for (slot, &child) in node.children.iter().enumerate() {
                if child == NULL_NODE {
                    continue;
                }
                category |= self.category_of(child);
                if !is_leaf(child) {
                    let bounds = self.nodes[child as usize]
                        .bounds()
                        .expect("an inner node holds a child");
                    self.nodes[index as usize].set_slot(slot, child, &bounds);
                }
            }
            self.nodes[index as usize].category = category;
        }
    }

    /// The category union of a child.
    #[inline]
    fn category_of(&self, child: u32) -> u64 {
        if child == NULL_NODE {
            0
        } else if is_leaf(child) {
            self.leaves[(child & !LEAF_BIT) as usize].data.category()
        } else {
            self.nodes[child as usize].category
        }
    }

    /// Makes `node` and its ancestors hold `aabb` and `category`, growing
    /// their boxes, never shrinking them (that waits for the next rebuild):
    /// the walk stops at the first ancestor that already holds both, which
    /// for a small motion is usually the first.
    fn grow_from(&mut self, mut node: u32, aabb: &Aabb, category: u64) {
        loop {
            let n = &mut self.nodes[node as usize];
            n.category |= category;
            let parent = n.parent;
            if parent == NULL_NODE {
                return;
            }
            let p = &mut self.nodes[parent as usize];
            let slot = p.slot_of(node);
            let held = p.slot_box(slot);
            let holds = held.contains_aabb(aabb);
            if holds && p.category & category == category {
                return;
            }
            p.set_slot(slot, node, &held.union(aabb));
            node = parent;
        }
    }

    /// Recomputes categories and parent slot boxes from `node` up to the
    /// root, stopping once a node's box and category are unchanged.
    fn refit_from(&mut self, mut node: u32) {
        // The first node always passes its change on: `insert_leaf` has
        // already set its slot in the parent (a new pair node), so "same
        // box, same category" there says nothing about the ancestors (two
        // category-0 leaves paired left them not holding the new leaf).
        let mut first = true;
        loop {
            let n = self.nodes[node as usize];
            let category = n.children.iter().fold(0, |acc, &c| acc | self.category_of(c));
            self.nodes[node as usize].category = category;
            if n.parent == NULL_NODE {
                return;
            }
            let bounds = n.bounds().expect("a node in the tree has a child");
            let parent = &mut self.nodes[n.parent as usize];
            let slot = parent.slot_of(node);
            if !first && category == n.category && parent.slot_box(slot) == bounds {
                return;
            }
            first = false;
            parent.set_slot(slot, node, &bounds);
            node = n.parent;
        }
    }
}

impl<T: LeafData> Bvh<T> {
    /// Checks every structural invariant: parent links, leaf positions,
    /// boxes holding their children, categories holding their children's,
    /// the leaf count. For tests.
    pub fn validate(&self) -> Result<(), String> {
        let mut leaves = 0;
        if self.root != NULL_NODE {
            if self.nodes[self.root as usize].parent != NULL_NODE {
                return Err("the root has a parent".into());
            }
            let mut stack = vec![self.root];
            while let Some(index) = stack.pop() {
                let node = &self.nodes[index as usize];
                let mut category = 0;
                for slot in 0..4 {
                    let child = node.children[slot];
                    let slot_box = node.slot_box(slot);
                    if child == NULL_NODE {
                        continue;
                    }
                    category |= self.category_of(child);
                    if is_leaf(child) {
                        let leaf = &self.leaves[(child & !LEAF_BIT) as usize];
                        if leaf.node != index || leaf.slot as usize != slot {
                            return Err(format!("leaf {} does not know its slot", child & !LEAF_BIT));
                        }
                        if !slot_box.contains_aabb(&leaf.aabb) {
                            return Err(format!("leaf {} escapes its slot", child & !LEAF_BIT));
                        }
                        leaves += 1;
                    } else {
                        let c = &self.nodes[child as usize];
                        if c.parent != index {
                            return Err(format!("node {child} does not point back to {index}"));
                        }
                        let bounds = c.bounds().ok_or(format!("node {child} is empty"))?;
                        if !slot_box.contains_aabb(&bounds) {
                            return Err(format!("node {index} does not hold child {child}"));
                        }
                        stack.push(child);
                    }
                }
                if category & !node.category != 0 {
                    return Err(format!("node {index} misses categories of its children"));
                }
            }
        }
        if leaves != self.leaf_count {
            return Err(format!("{leaves} leaves reachable, {} counted", self.leaf_count));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{store, Bvh};
    use crate::math::{Aabb, Vec3};

    /// A tree of forty unit boxes ten apart along x, leaf `i` at `10·i`:
    /// every leaf's node has a parent.
    fn row_of_boxes() -> Bvh<u32> {
        let mut bvh: Bvh<u32> = Bvh::default();
        for i in 0..40 {
            bvh.insert(&unit(10.0 * i as f32), i, true);
        }
        bvh
    }

    /// The unit box from `(x, 0, 0)`.
    fn unit(x: f32) -> Aabb {
        Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0))
    }

    /// Leaf `proxy`'s box in its node's slot.
    fn slot_box(bvh: &Bvh<u32>, proxy: u32) -> Aabb {
        let leaf = &bvh.leaves[proxy as usize];
        bvh.nodes[leaf.node as usize].slot_box(leaf.slot as usize)
    }

    /// The box of leaf `proxy`'s node in the node's parent.
    fn node_box_in_parent(bvh: &Bvh<u32>, proxy: u32) -> Aabb {
        let node = bvh.leaves[proxy as usize].node;
        let parent = &bvh.nodes[bvh.nodes[node as usize].parent as usize];
        parent.slot_box(parent.slot_of(node))
    }

    /// A moved leaf's slot is its new tight box. A move inside its node's
    /// box leaves every box above unchanged; a move out of it grows that
    /// box to the next step of the same motion.
    #[test]
    fn a_moved_leaf_keeps_a_tight_slot_and_its_node_takes_the_slack() {
        let mut bvh = row_of_boxes();
        let before = node_box_in_parent(&bvh, 0);
        assert!(before.min.x >= 0.0, "{before:?}");
        bvh.update(0, &unit(0.5), 0, true);
        assert_eq!(slot_box(&bvh, 0), unit(0.5));
        assert_eq!(node_box_in_parent(&bvh, 0), before, "a move inside the node's box");
        bvh.update(0, &unit(-0.5), 0, true);
        assert_eq!(slot_box(&bvh, 0), unit(-0.5));
        let grown = node_box_in_parent(&bvh, 0);
        assert!(
            grown.contains_aabb(&unit(-1.5)),
            "stretched to the next step: {grown:?}"
        );
        bvh.validate().unwrap();
    }

    /// A jump of a thousand box lengths (a teleport) grows the boxes above
    /// the leaf to within a few lengths beyond its new place, not along
    /// the jump.
    #[test]
    fn a_teleported_leaf_is_not_stretched_along_its_jump() {
        let mut bvh = row_of_boxes();
        bvh.update(0, &unit(-1000.0), 0, true);
        assert_eq!(slot_box(&bvh, 0), unit(-1000.0));
        let grown = node_box_in_parent(&bvh, 0);
        assert!(grown.contains_aabb(&unit(-1000.0)));
        assert!(grown.min.x > -1006.0, "{grown:?}");
        bvh.validate().unwrap();
    }

    /// A full array grows by half its length, and a free record is taken
    /// before the array grows.
    #[test]
    fn store_grows_a_full_array_by_half_and_reuses_free_records() {
        let mut records: Vec<u64> = Vec::with_capacity(100);
        records.extend(0..100);
        let mut free = Vec::new();
        assert_eq!(store(&mut records, &mut free, 7), 100);
        assert_eq!(records.capacity(), 154, "100 + 100 / 2 + 4");
        free.push(3);
        assert_eq!(store(&mut records, &mut free, 9), 3);
        assert_eq!((records[3], records.len(), free.len()), (9, 101, 0));
    }
}
