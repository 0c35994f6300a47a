//! Dynamic bounding-volume hierarchy with four children per node, the
//! broad phase behind every world query.
//!
//! - Nodes are 4-wide and stored as structure of arrays (the four child
//!   boxes' `min.x` side by side, and so on), so one SIMD slab or overlap
//!   test covers all four children (Wald et al., "Getting Rid of Packets",
//!   2008; the layout of Embree's BVH4 and Jolt's `QuadTree`). The test
//!   runs on glam's `Vec4`, which is SSE2 on x86-64 and NEON on aarch64.
//! - A node lives in one 128-byte, cache-aligned slot of a flat array;
//!   children are indices, with the top bit marking a leaf.
//! - A leaf's box in its parent's slot is tight until the leaf moves, then
//!   enlarged ("fat") ahead of its motion, so steady motion changes nothing
//!   most frames; a leaf escaping its fat box is refitted in place
//!   (ancestors' boxes grown until one already holds it). Insertion descends to the child
//!   whose box grows least (Guttman's R-tree `ChooseLeaf`) and takes a free
//!   slot, or pairs up with a leaf in a new node. Removal empties the slot.
//! - [`Bvh::rebuild`] rebuilds the whole tree top-down by binned SAH (Wald,
//!   "On fast Construction of SAH-based Bounding Volume Hierarchies", 2007),
//!   splitting each node's range until it has four parts. The tree rebuilds
//!   itself once insertions or refits have piled up, amortised over them.
//! - Each node keeps the union of its leaves' filter categories, so a query
//!   mask prunes whole subtrees.

use arrayvec::ArrayVec;

use crate::collider::{ColliderKey, Filter};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::prefetch::prefetch;
use crate::shape::{Aabb, Segment};

/// "No node" / an empty child slot.
pub(crate) const NULL_NODE: u32 = u32::MAX;

/// A leaf's `node` while a batch insertion waits for its rebuild.
const PENDING_NODE: u32 = u32::MAX - 1;

/// Marks a child index as a leaf index.
const LEAF_BIT: u32 = 1 << 31;

/// Traversal entries kept on the call stack. A walk pushes at most three
/// entries per level and the tree is about `log4 n` deep (12 levels for
/// ten million leaves), so 64 suffice in practice; a deeper walk spills to
/// the heap.
const INLINE_STACK: usize = 64;

/// Bins per axis for the SAH build.
const SAH_BINS: usize = 16;

/// How many refits per leaf the tree absorbs before it tightens its boxes
/// (see [`Bvh::tighten`]).
const REFIT_BUDGET: usize = 4;

/// Every this many tightenings, the tree rebuilds itself by SAH instead:
/// tightening undoes the boxes' growth, not the drift of the leaves away
/// from the places the last rebuild gave them.
const TIGHTENINGS_PER_REBUILD: usize = 4;

/// An empty slot's box: `min = max = +∞` fails every slab test without a
/// branch (`(+∞ − o)·inv` is `+∞` or `−∞` on both sides), and every overlap
/// test but against a box reaching +∞ on every axis, for which
/// `overlap_mask` masks empty slots out.
const EMPTY_BOUND: f32 = f32::INFINITY;

/// Four child boxes as structure of arrays, their children and the node's
/// parent: 128 bytes, two cache lines.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Node {
    /// `bounds[0][axis]` holds the four children's minima on `axis`,
    /// `bounds[1][axis]` their maxima.
    bounds: [[Vec4; 3]; 2],
    /// A node index, `LEAF_BIT | leaf index`, or `NULL_NODE` for an empty slot.
    children: [u32; 4],
    /// Union of the filter categories of every leaf below.
    category: u64,
    /// The parent node, or `NULL_NODE` for the root (and free nodes).
    parent: u32,
}

impl Node {
    const EMPTY: Node = Node {
        bounds: [[Vec4::splat(EMPTY_BOUND); 3]; 2],
        children: [NULL_NODE; 4],
        category: 0,
        parent: NULL_NODE,
    };

    #[inline]
    fn slot_box(&self, slot: usize) -> Aabb {
        let [min, max] = &self.bounds;
        Aabb::new(
            Vec3::new(min[0][slot], min[1][slot], min[2][slot]),
            Vec3::new(max[0][slot], max[1][slot], max[2][slot]),
        )
    }

    #[inline]
    fn set_slot(&mut self, slot: usize, child: u32, aabb: &Aabb) {
        self.children[slot] = child;
        for axis in 0..3 {
            self.bounds[0][axis][slot] = aabb.min[axis];
            self.bounds[1][axis][slot] = aabb.max[axis];
        }
    }

    #[inline]
    fn clear_slot(&mut self, slot: usize) {
        self.set_slot(
            slot,
            NULL_NODE,
            &Aabb::new(Vec3::splat(EMPTY_BOUND), Vec3::splat(EMPTY_BOUND)),
        );
    }

    /// The union of the occupied slots' boxes (`None` when all are empty).
    fn bounds(&self) -> Option<Aabb> {
        (0..4)
            .filter(|&s| self.children[s] != NULL_NODE)
            .map(|s| self.slot_box(s))
            .reduce(|a, b| a.union(&b))
    }

    /// The slots holding a child, as a bit mask, by two SIMD instructions:
    /// read as floats, `NULL_NODE` (all ones) is a NaN, the one value not
    /// equal to itself, and no child is, since node and leaf indices stay
    /// below `MAX_COLLIDERS` = 2³⁰ (bit 30, the top exponent bit, is clear).
    #[inline]
    fn occupied(&self) -> u32 {
        let children = self.children_as_floats();
        children.cmpeq(children).bitmask()
    }

    /// The slots holding a leaf (or empty: `NULL_NODE` has the leaf bit),
    /// as a bit mask: the leaf bit is the sign bit of the children read as
    /// floats, which one SIMD instruction gathers.
    #[inline]
    fn leaf_slots(&self) -> u32 {
        self.children_as_floats().is_negative_bitmask()
    }

    /// The four children's bits read as floats (one load), for the slot
    /// masks above.
    #[inline]
    fn children_as_floats(&self) -> Vec4 {
        Vec4::from_array(self.children.map(f32::from_bits))
    }

    /// A slot's box splatted for [`overlap_bits`]: per lane, one load and
    /// one shuffle, no branch on the slot.
    #[inline]
    fn splat_slot(&self, slot: usize) -> ([Vec4; 3], [Vec4; 3]) {
        let splat = |v: Vec4| Vec4::splat(AsRef::<[f32; 4]>::as_ref(&v)[slot % 4]);
        let [min, max] = &self.bounds;
        (
            [splat(min[0]), splat(min[1]), splat(min[2])],
            [splat(max[0]), splat(max[1]), splat(max[2])],
        )
    }

    #[inline]
    fn free_slot(&self) -> Option<usize> {
        self.children.iter().position(|&c| c == NULL_NODE)
    }

    #[inline]
    fn slot_of(&self, child: u32) -> usize {
        self.children
            .iter()
            .position(|&c| c == child)
            .expect("a child is in its parent's slots")
    }
}

/// A leaf: one collider's tight box and filter, and where it sits in the tree.
#[derive(Debug, Clone, Copy)]
pub struct Leaf {
    /// The collider's tight world box.
    pub aabb: Aabb,
    /// The collider.
    pub key: ColliderKey,
    /// The collider's filter.
    pub filter: Filter,
    /// The collider's user data.
    pub user_data: u64,
    /// Whether the collider's world shape is this box itself (an `Aabb`
    /// collider), so exact tests need not look the collider up.
    pub is_box: bool,
    /// The node holding the leaf, `NULL_NODE` once removed.
    node: u32,
    slot: u8,
}

impl Leaf {
    /// The node holding the leaf: nearby leaves sit in nearby nodes, which
    /// a rebuild numbers depth first.
    #[inline]
    pub fn node(&self) -> u32 {
        self.node
    }
}

/// The dynamic 4-wide BVH over a world's colliders. A leaf's index (its
/// proxy id) stays valid until the leaf is removed.
#[derive(Debug, Clone)]
pub struct Bvh {
    nodes: Vec<Node>,
    free_nodes: Vec<u32>,
    leaves: Vec<Leaf>,
    free_leaves: Vec<u32>,
    root: u32,
    leaf_count: usize,
    /// Refits since the last rebuild or tightening.
    refits: usize,
    /// Tightenings since the last rebuild.
    tightenings: usize,
    /// Insertions since the last rebuild, and the leaf count then.
    insertions: usize,
    leaves_at_rebuild: usize,
}

impl Default for Bvh {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            free_nodes: Vec::new(),
            leaves: Vec::new(),
            free_leaves: Vec::new(),
            root: NULL_NODE,
            leaf_count: 0,
            refits: 0,
            tightenings: 0,
            insertions: 0,
            leaves_at_rebuild: 0,
        }
    }
}

/// The box a leaf stands for in the tree before any motion: a box
/// collider's own box (its exact shape), or another shape's bounds grown by
/// the rounding of its exact tests — four ulps of its largest coordinate,
/// plus `1e-18` for the squares that underflow near the origin — so the
/// tree never prunes a hit or an overlap the exact test reports.
#[inline]
fn leaf_tree_box(aabb: &Aabb, is_box: bool) -> Aabb {
    if is_box {
        return *aabb;
    }
    let magnitude = aabb.min.abs().max(aabb.max.abs()).max_element();
    aabb.expanded(4.0 * f32::EPSILON * magnitude + 1e-18)
}

/// The fat box of a leaf that just moved by `displacement` (Box2D's
/// predictive enlargement): the new tight box, stretched to where the same
/// motion would take it next, and grown by a tenth of the motion on every
/// side. A leaf that never moved keeps its tight box, so static geometry
/// costs casts nothing extra. Near the ends of the float range the motion
/// itself may not be finite (a centre `(min + max) / 2` overflows beyond
/// ±1.7e38, giving `∞ − ∞ = NaN`): then the leaf keeps its tight box, since
/// a NaN or infinite fat box would hide the leaf from every query.
#[inline]
fn fatten(tight: &Aabb, displacement: Vec3) -> Aabb {
    let ahead = Aabb::new(tight.min + displacement, tight.max + displacement);
    let fat = tight.union(&ahead).expanded(0.1 * displacement.length());
    if fat.min.is_finite() && fat.max.is_finite() {
        fat
    } else {
        *tight
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

impl Bvh {
    /// How many leaves the tree holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.leaf_count
    }

    /// Whether the tree holds no leaf.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.leaf_count == 0
    }

    /// The leaf of a proxy id (of a removed leaf, its last state).
    #[inline]
    pub fn leaf(&self, proxy: u32) -> &Leaf {
        &self.leaves[proxy as usize]
    }

    /// Whether the proxy names a leaf in the tree (not a removed one).
    #[inline]
    pub fn is_live(&self, proxy: u32) -> bool {
        self.leaves.get(proxy as usize).is_some_and(|l| l.node != NULL_NODE)
    }

    /// Bytes held by the tree's arrays (capacity, not length).
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node>()
            + self.leaves.capacity() * core::mem::size_of::<Leaf>()
            + (self.free_nodes.capacity() + self.free_leaves.capacity()) * core::mem::size_of::<u32>()
    }

    fn allocate_node(&mut self, parent: u32) -> u32 {
        let node = Node { parent, ..Node::EMPTY };
        match self.free_nodes.pop() {
            Some(index) => {
                self.nodes[index as usize] = node;
                index
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
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
    pub fn insert(&mut self, aabb: &Aabb, filter: Filter, user_data: u64, is_box: bool, key: ColliderKey) -> u32 {
        let proxy = self.allocate_leaf(aabb, filter, user_data, is_box, key);
        self.insert_leaf(proxy);
        self.insertions += 1;
        self.rebuild_if_due();
        proxy
    }

    /// Adds many leaves at once, `(box, filter, user data, is box, key)`
    /// each, and returns their proxy ids in order. A batch into an empty
    /// tree, or at least as large as the tree (and 64 leaves), is placed by
    /// one SAH rebuild (a level load); a smaller one leaf by leaf.
    pub fn insert_batch(
        &mut self,
        leaves: impl ExactSizeIterator<Item = (Aabb, Filter, u64, bool, ColliderKey)>,
    ) -> Vec<u32> {
        if self.leaf_count > 0 && leaves.len() < self.leaf_count.max(64) {
            return leaves
                .map(|(aabb, filter, user_data, is_box, key)| self.insert(&aabb, filter, user_data, is_box, key))
                .collect();
        }
        // Into an empty tree (a level load), no proxy id is held yet: the
        // leaves are numbered in tree order, so that leaves near in space
        // are near in memory (a pair's two leaves, a query's hits).
        let fresh = self.leaf_count == 0;
        if fresh {
            self.leaves.clear();
            self.free_leaves.clear();
        }
        self.leaves.reserve(leaves.len());
        let proxies: Vec<u32> = leaves
            .map(|(aabb, filter, user_data, is_box, key)| {
                let proxy = self.allocate_leaf(&aabb, filter, user_data, is_box, key);
                // Not in the tree yet, but live: the rebuild below places it.
                self.leaves[proxy as usize].node = PENDING_NODE;
                proxy
            })
            .collect();
        let order = self.build_nodes(fresh);
        if !fresh {
            return proxies;
        }
        let renumbered = self.renumber_leaves(&order);
        proxies.iter().map(|&proxy| renumbered[proxy as usize]).collect()
    }

    /// Puts the leaves in the order of `order` (the items of a build that
    /// numbered the leaves by position, every live proxy once): leaf
    /// `order[k].proxy` becomes leaf `k`, at the node and slot the build
    /// recorded in its item. Returns the new id of each old one. Only for a
    /// tree whose leaves are all live and whose proxy ids nobody holds yet.
    fn renumber_leaves(&mut self, order: &[BuildItem]) -> Vec<u32> {
        debug_assert!(order.len() == self.leaves.len() && self.free_leaves.is_empty());
        let mut renumbered = vec![NULL_NODE; self.leaves.len()];
        let leaves: Vec<Leaf> = order
            .iter()
            .enumerate()
            .map(|(new, item)| {
                renumbered[item.proxy as usize] = new as u32;
                Leaf {
                    node: item.node,
                    slot: item.slot,
                    ..self.leaves[item.proxy as usize]
                }
            })
            .collect();
        self.leaves = leaves;
        self.gather_categories();
        renumbered
    }

    /// A new leaf record (reusing a free one), not yet in the tree.
    fn allocate_leaf(&mut self, aabb: &Aabb, filter: Filter, user_data: u64, is_box: bool, key: ColliderKey) -> u32 {
        let leaf = Leaf {
            aabb: *aabb,
            key,
            filter,
            user_data,
            is_box,
            node: NULL_NODE,
            slot: 0,
        };
        let proxy = match self.free_leaves.pop() {
            Some(index) => {
                self.leaves[index as usize] = leaf;
                index
            }
            None => {
                self.leaves.push(leaf);
                (self.leaves.len() - 1) as u32
            }
        };
        self.leaf_count += 1;
        proxy
    }

    fn insert_leaf(&mut self, proxy: u32) {
        let leaf = &self.leaves[proxy as usize];
        let fat = leaf_tree_box(&leaf.aabb, leaf.is_box);
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
    /// nothing): the first step of [`Bvh::prefetch_path`].
    #[inline]
    pub fn prefetch_leaf(&self, proxy: u32) {
        if let Some(leaf) = self.leaves.get(proxy as usize) {
            prefetch(leaf);
        }
    }

    /// Starts loading the node holding a leaf (`level` 0) or its ancestor
    /// `level` steps up into the cache, reading the leaf and the nodes
    /// below that ancestor: called for many leaves in turn, level by level
    /// after [`Bvh::prefetch_leaf`], the loads of different leaves overlap
    /// where one update after another would wait for each in turn.
    #[inline]
    pub fn prefetch_path(&self, proxy: u32, level: usize) {
        let Some(leaf) = self.leaves.get(proxy as usize) else {
            return;
        };
        let mut node = leaf.node;
        for _ in 0..level {
            match self.nodes.get(node as usize) {
                Some(n) => node = n.parent,
                None => return,
            }
        }
        if let Some(n) = self.nodes.get(node as usize) {
            prefetch(n);
        }
    }

    /// Gives a leaf a new tight box and filter. The tree is untouched while
    /// the box stays inside the leaf's fat box and the category is the same;
    /// otherwise the leaf gets a new fat box, which its ancestors' boxes grow
    /// to hold.
    pub fn update(&mut self, proxy: u32, aabb: &Aabb, filter: Filter, user_data: u64, is_box: bool) {
        let leaf = &mut self.leaves[proxy as usize];
        leaf.user_data = user_data;
        let same_category = leaf.filter.category == filter.category;
        let displacement = aabb.center() - leaf.aabb.center();
        leaf.aabb = *aabb;
        leaf.filter = filter;
        leaf.is_box = is_box;
        let (node, slot) = (leaf.node, leaf.slot as usize);
        let needed = leaf_tree_box(aabb, is_box);
        let fat_box = self.nodes[node as usize].slot_box(slot);
        let inside = fat_box.min.cmple(needed.min).all() && needed.max.cmple(fat_box.max).all();
        if inside && same_category {
            return;
        }
        let fat = fatten(&needed, displacement);
        self.nodes[node as usize].set_slot(slot, leaf_child(proxy), &fat);
        self.grow_from(node, &fat, filter.category);
        self.refits += 1;
        self.rebuild_if_due();
    }

    /// Rebuilds by SAH once the tree has doubled by insertion since the last
    /// rebuild; tightens its boxes once refits pass `REFIT_BUDGET` per leaf,
    /// and rebuilds instead every `TIGHTENINGS_PER_REBUILD`-th time. Both
    /// amortise their cost (O(n) and O(n log n)) over Ω(n) changes, so
    /// building a world collider by collider costs O(log n) per insertion
    /// and a moving leaf O(1) per refit.
    fn rebuild_if_due(&mut self) {
        if self.insertions > self.leaves_at_rebuild.max(32) {
            self.rebuild();
        } else if self.refits > REFIT_BUDGET * self.leaf_count.max(64) {
            self.tightenings += 1;
            if self.tightenings >= TIGHTENINGS_PER_REBUILD {
                self.rebuild();
            } else {
                self.tighten();
            }
        }
    }

    /// Recomputes every inner node's box in its parent, and every node's
    /// category, from its children, bottom up: the boxes that refits have
    /// grown since the last rebuild shrink back to what their subtrees
    /// hold (a leaf keeps its fat box). O(n), with no change of topology.
    fn tighten(&mut self) {
        self.refits = 0;
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
            self.leaves[(child & !LEAF_BIT) as usize].filter.category
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
            let holds = held.min.cmple(aabb.min).all() && aabb.max.cmple(held.max).all();
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

/// A depth-first traversal stack on the call stack, spilling to the heap
/// only past [`INLINE_STACK`] entries. The inline part is an `ArrayVec`,
/// which leaves its storage uninitialised: a zeroed array of 64 entries
/// cost every cast a 512-byte `memset`.
struct TraversalStack<T: Copy> {
    inline: ArrayVec<T, INLINE_STACK>,
    spill: Vec<T>,
}

impl<T: Copy> TraversalStack<T> {
    #[inline]
    fn new() -> Self {
        Self {
            inline: ArrayVec::new(),
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, value: T) {
        if let Err(full) = self.inline.try_push(value) {
            self.spill.push(full.element());
        }
    }

    /// The last entry pushed on the call stack, or, once that is empty, one
    /// of the spilled ones: the walk's order only affects its speed, as every
    /// entry popped is tested against the best hit so far.
    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.inline.pop().or_else(|| self.spill.pop())
    }
}

/// The relative slack of the node slab test: a node's entry `t` and exit
/// `t`, and the best `t` so far, are compared with this much tolerance.
/// Node tests multiply by a reciprocal where the exact leaf test divides;
/// each result is within a few ulps (`4·2⁻²⁴ ≈ 2.4e-7`) of the exact
/// value, so a slack of `1e-6` never prunes a box the exact test would hit,
/// grazing and tied hits included.
const SLAB_SLACK: f32 = 1.0 + 1e-6;

/// Whether an entry parameter `t` may still beat (or tie) `t_max`.
#[inline]
fn may_beat(t: f32, t_max: f32) -> bool {
    t <= t_max * SLAB_SLACK
}

/// A segment prepared for slab tests against four boxes at once.
struct SlabRay {
    origin: [Vec4; 3],
    inv: [Vec4; 3],
    /// Axes the segment (almost) does not move along (`|d_i| < 1e-30`):
    /// there the slab is all or nothing, decided by whether the segment's
    /// extent `[min(start_i, end_i), max(start_i, end_i)]` meets
    /// `[min_i, max_i]` (a reciprocal would turn `0·∞` into NaN, or a start
    /// on the face into an empty slab; testing the extent rather than the
    /// start keeps a segment creeping onto a box by less than 1e-30).
    parallel: [bool; 3],
    /// Whether any axis is parallel: only then does a test take the slower,
    /// general path.
    any_parallel: bool,
    /// The segment's extent on each axis, for the parallel axes.
    span_lo: [Vec4; 3],
    span_hi: [Vec4; 3],
}

impl SlabRay {
    fn new(segment: &Segment) -> Self {
        let (start, end) = (Vec3A::from(segment.start), Vec3A::from(segment.end));
        let d = end - start;
        let parallel = d.abs().cmplt(Vec3A::splat(1e-30));
        let inv = Vec3A::select(parallel, Vec3A::ZERO, Vec3A::ONE / d);
        let (lo, hi) = (start.min(end), start.max(end));
        let splat = |v: Vec3A| [Vec4::splat(v.x), Vec4::splat(v.y), Vec4::splat(v.z)];
        Self {
            origin: splat(start),
            inv: splat(inv),
            parallel: [parallel.test(0), parallel.test(1), parallel.test(2)],
            any_parallel: parallel.any(),
            span_lo: splat(lo),
            span_hi: splat(hi),
        }
    }

    /// The parameters at which the segment crosses the four slabs of a
    /// moving axis: `(bound − origin) / d`, entry and exit.
    #[inline]
    fn crossings(&self, node: &Node, axis: usize) -> (Vec4, Vec4) {
        let t0 = (node.bounds[0][axis] - self.origin[axis]) * self.inv[axis];
        let t1 = (node.bounds[1][axis] - self.origin[axis]) * self.inv[axis];
        (t0.min(t1), t0.max(t1))
    }

    /// The entry and exit parameters of the four slabs of one axis, moving
    /// or parallel.
    #[inline]
    fn slab(&self, node: &Node, axis: usize) -> (Vec4, Vec4) {
        if !self.parallel[axis] {
            return self.crossings(node, axis);
        }
        let (min, max) = (node.bounds[0][axis], node.bounds[1][axis]);
        let inside = min.cmple(self.span_hi[axis]) & self.span_lo[axis].cmple(max);
        let all = Vec4::splat(f32::INFINITY);
        (Vec4::select(inside, -all, all), Vec4::select(inside, all, -all))
    }

    /// The entry and exit parameters of the four boxes of `node`, before
    /// clipping to the segment (Kay and Kajiya's slabs, four boxes at once).
    /// A segment with no parallel axis, nearly every one, skips the
    /// per-axis branch.
    #[inline]
    fn entry_exit(&self, node: &Node) -> (Vec4, Vec4) {
        let ((x0, x1), (y0, y1), (z0, z1)) = if self.any_parallel {
            (self.slab(node, 0), self.slab(node, 1), self.slab(node, 2))
        } else {
            (
                self.crossings(node, 0),
                self.crossings(node, 1),
                self.crossings(node, 2),
            )
        };
        (x0.max(y0).max(z0), x1.min(y1).min(z1))
    }

    /// The slab test of the four child boxes of `node` against `[0, t_max]`:
    /// a bit mask of the boxes the segment may touch (within
    /// [`SLAB_SLACK`]), and their entry `t`s. An empty slot is never hit,
    /// so needs no mask: on a moving axis its planes at +∞ are crossed at
    /// `t = +∞` (entry after any `t_max`) or `t = −∞` (exit before 0), and
    /// on a parallel axis no finite segment's extent reaches +∞.
    #[inline]
    fn test(&self, node: &Node, t_max: f32) -> (u32, Vec4) {
        let (near, far) = self.entry_exit(node);
        let near = near.max(Vec4::ZERO);
        let far = far.min(Vec4::splat(t_max));
        (near.cmple(far * SLAB_SLACK).bitmask(), near)
    }
}

/// `aabb`'s corners splatted for [`overlap_mask`].
#[inline]
fn splat_box(aabb: &Aabb) -> ([Vec4; 3], [Vec4; 3]) {
    (
        [
            Vec4::splat(aabb.min.x),
            Vec4::splat(aabb.min.y),
            Vec4::splat(aabb.min.z),
        ],
        [
            Vec4::splat(aabb.max.x),
            Vec4::splat(aabb.max.y),
            Vec4::splat(aabb.max.z),
        ],
    )
}

/// The set bits of a mask, lowest first: the slots of a node's 4-bit mask,
/// or the child pairs `4i + j` of an [`overlap_matrix`].
#[inline]
fn slots(mut mask: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        (mask != 0).then(|| {
            let slot = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            slot
        })
    })
}

/// The overlap test of the four child boxes of `node` against `aabb`
/// (closed): a bit mask of the overlapping occupied slots. An empty slot's
/// box (+∞, +∞) overlaps a box reaching +∞ on every axis (a collider near
/// `f32::MAX`, whose slot box the rounding margin grows to infinity, or a
/// query shape whose bounds overflow), so empty slots are masked out here,
/// for every walk (F8, F12).
#[inline]
fn overlap_mask(node: &Node, min: &[Vec4; 3], max: &[Vec4; 3]) -> u32 {
    overlap_bits(node, min, max) & node.occupied()
}

/// [`overlap_mask`] without the empty slots masked out: for a loop that
/// tests many boxes against one node and masks once.
#[inline]
fn overlap_bits(node: &Node, min: &[Vec4; 3], max: &[Vec4; 3]) -> u32 {
    let [node_min, node_max] = &node.bounds;
    let x = node_min[0].cmple(max[0]) & min[0].cmple(node_max[0]);
    let y = node_min[1].cmple(max[1]) & min[1].cmple(node_max[1]);
    let z = node_min[2].cmple(max[2]) & min[2].cmple(node_max[2]);
    (x & y & z).bitmask()
}

/// Bit `4i + j` of an [`overlap_matrix`] for `i < j`: the pairs of
/// distinct children of one node, each once.
const ABOVE_DIAGONAL: u32 = 0b0000_1000_1100_1110;

/// The four slots' bits of a node's 4-bit mask, each spread to a row of an
/// [`overlap_matrix`] (bit `i` to bits `4i..4i + 4`).
const ROWS_OF_SLOTS: [u32; 16] = {
    let mut rows = [0; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut slot = 0;
        while slot < 4 {
            if mask >> slot & 1 == 1 {
                rows[mask] |= 0xF << (4 * slot);
            }
            slot += 1;
        }
        mask += 1;
    }
    rows
};

/// Which children of `a` overlap which of `b` (closed boxes, occupied slots
/// only): bit `4i + j` for child `i` of `a` and child `j` of `b`. Four SIMD
/// rows, one per slot of `a` whatever its occupancy, then one mask, so the
/// walk branches per overlapping pair rather than per row.
#[inline]
fn overlap_matrix(a: &Node, b: &Node) -> u32 {
    let mut bits = 0;
    for i in 0..4 {
        let (min, max) = a.splat_slot(i);
        bits |= overlap_bits(b, &min, &max) << (4 * i);
    }
    bits & ROWS_OF_SLOTS[a.occupied() as usize] & (b.occupied() * 0x1111)
}

impl Bvh {
    /// Walks the tree front to back along `segment` (`t ∈ [0, 1]`), calling
    /// `hit_leaf` for every leaf whose fat box the segment may touch before
    /// the closest hit so far, skipping subtrees with no category in `mask`.
    /// `hit_leaf` runs the exact test and returns the hit's `t`, which
    /// shrinks the rest of the walk. Allocates nothing.
    pub fn cast(&self, segment: &Segment, mask: u64, mut hit_leaf: impl FnMut(&Leaf) -> Option<f32>) {
        if self.root == NULL_NODE {
            return;
        }
        let ray = SlabRay::new(segment);
        let mut t_max = 1.0f32;
        let mut stack: TraversalStack<(u32, f32)> = TraversalStack::new();
        // The node to visit next: the nearest inner child just hit, so a
        // walk down one path never goes through the stack.
        let mut next = Some((self.root, 0.0f32));
        while let Some((index, t_near)) = next.take().or_else(|| stack.pop()) {
            let node = &self.nodes[index as usize];
            if !may_beat(t_near, t_max) || node.category & mask == 0 {
                continue;
            }
            let (hits, near) = ray.test(node, t_max);
            let near = near.to_array();
            // Leaves are tested at once, each hit shortening the segment.
            let leaf_hits = hits & node.leaf_slots();
            for slot in slots(leaf_hits) {
                if may_beat(near[slot], t_max) {
                    let leaf = node.children[slot] & !LEAF_BIT;
                    if let Some(hit) = hit_leaf(&self.leaves[leaf as usize]) {
                        t_max = t_max.min(hit);
                    }
                }
            }
            // The nearest inner child is visited next, the others wait on
            // the stack with their entry `t`, tested again when popped.
            for slot in slots(hits & !leaf_hits) {
                let entry = (node.children[slot], near[slot]);
                if !may_beat(entry.1, t_max) {
                    continue;
                }
                prefetch(&self.nodes[entry.0 as usize]);
                match next {
                    Some(nearest) if nearest.1 <= entry.1 => stack.push(entry),
                    _ => {
                        if let Some(farther) = next.replace(entry) {
                            stack.push(farther);
                        }
                    }
                }
            }
        }
    }

    /// Calls `visit(proxy, leaf)` for every leaf whose fat box overlaps
    /// `aabb` (closed) below a node with a category in `mask`.
    pub fn query(&self, aabb: &Aabb, mask: u64, mut visit: impl FnMut(u32, &Leaf)) {
        if self.root == NULL_NODE {
            return;
        }
        let (min, max) = splat_box(aabb);
        let mut stack: TraversalStack<u32> = TraversalStack::new();
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            if node.category & mask == 0 {
                continue;
            }
            let hits = overlap_mask(node, &min, &max);
            for slot in slots(hits) {
                let child = node.children[slot];
                if is_leaf(child) {
                    let proxy = child & !LEAF_BIT;
                    visit(proxy, &self.leaves[proxy as usize]);
                } else {
                    stack.push(child);
                }
            }
        }
    }

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

    /// Calls `visit(proxy_a, leaf_a, proxy_b, leaf_b)` once for every pair
    /// of distinct leaves whose tight boxes overlap (closed), at least one of
    /// them changed: the tree against itself (Bullet's `btDbvt::collideTT`),
    /// four children against four at a time. Subtrees without a changed leaf
    /// (per `dirty`, from [`Bvh::mark_dirty`]) are only entered to meet a
    /// dirty one, so a frame that moved few leaves visits little of the tree.
    /// Only pairs of inner nodes wait on the stack: two overlapping leaves
    /// are tested at once, and a leaf against a subtree is walked at once
    /// with the leaf's box from its node (parry's `traverse_single_subtree`),
    /// so a leaf record is read only for a pair of overlapping leaf boxes.
    pub fn overlapping_pairs(
        &self,
        dirty: &[bool],
        changed: impl Fn(u32) -> bool,
        mut visit: impl FnMut(u32, &Leaf, u32, &Leaf),
    ) {
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
        let mut subtree_stack = Vec::new();
        // Two overlapping children, slot `i` of `na` and slot `j` of `nb`,
        // either of them live.
        let mut meet = |stack: &mut Vec<(u32, u32)>, na: &Node, i: usize, nb: &Node, j: usize| {
            let (a, b) = (na.children[i], nb.children[j]);
            match (is_leaf(a), is_leaf(b)) {
                (true, true) => self.visit_leaf_pair(a, b, &mut visit),
                (true, false) => {
                    self.leaf_against_subtree(a, &na.slot_box(i), b, &live, &mut subtree_stack, &mut visit);
                }
                (false, true) => {
                    self.leaf_against_subtree(b, &nb.slot_box(j), a, &live, &mut subtree_stack, &mut visit);
                }
                (false, false) => stack.push((a, b)),
            }
        };
        // Pairs of inner nodes still to test: (a, a) for a node against
        // itself, else two distinct nodes whose boxes overlap.
        let mut stack: Vec<(u32, u32)> = vec![(self.root, self.root)];
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            let mut hits = overlap_matrix(na, nb);
            if a == b {
                for i in slots(na.occupied()) {
                    let ci = na.children[i];
                    if !is_leaf(ci) && dirty[ci as usize] {
                        stack.push((ci, ci));
                    }
                }
                // Each pair of distinct children once.
                hits &= ABOVE_DIAGONAL;
            }
            for bit in slots(hits) {
                let (i, j) = (bit / 4, bit % 4);
                if live(na.children[i]) || live(nb.children[j]) {
                    meet(&mut stack, na, i, nb, j);
                }
            }
        }
    }

    /// Visits two leaves (children `a` and `b`, `LEAF_BIT` set) if their
    /// tight boxes overlap.
    #[inline]
    fn visit_leaf_pair(&self, a: u32, b: u32, visit: &mut impl FnMut(u32, &Leaf, u32, &Leaf)) {
        let (pa, pb) = (a & !LEAF_BIT, b & !LEAF_BIT);
        let (la, lb) = (&self.leaves[pa as usize], &self.leaves[pb as usize]);
        if la.aabb.intersects_aabb(&lb.aabb) {
            visit(pa, la, pb, lb);
        }
    }

    /// Visits the leaf `leaf` (a child, `LEAF_BIT` set, whose slot box is
    /// `leaf_box`) against every leaf of the subtree under node `subtree`
    /// whose box overlaps it, entering only live subtrees unless the leaf
    /// itself is live.
    fn leaf_against_subtree(
        &self,
        leaf: u32,
        leaf_box: &Aabb,
        subtree: u32,
        live: &impl Fn(u32) -> bool,
        stack: &mut Vec<u32>,
        visit: &mut impl FnMut(u32, &Leaf, u32, &Leaf),
    ) {
        let leaf_live = live(leaf);
        let (min, max) = splat_box(leaf_box);
        stack.clear();
        stack.push(subtree);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            let hits = overlap_mask(node, &min, &max);
            for j in slots(hits) {
                let child = node.children[j];
                if !(leaf_live || live(child)) {
                    continue;
                }
                if is_leaf(child) {
                    self.visit_leaf_pair(leaf, child, visit);
                } else {
                    stack.push(child);
                }
            }
        }
    }

    /// Rebuilds every node top-down by binned SAH over the live leaves
    /// (proxy ids stay valid): each node's range of leaves is split in two
    /// at the best SAH plane, and its largest part split again, until it has
    /// four parts; a range of at most four leaves becomes one node, its
    /// leaves side by side.
    pub fn rebuild(&mut self) {
        self.build_nodes(false);
    }

    /// [`Bvh::rebuild`]; returns the build's items, whose proxies are the
    /// live leaves in tree order (each subtree's leaves together, depth
    /// first). With `by_position`, for [`Bvh::renumber_leaves`] only, a
    /// node's leaf child is its item's position (the leaf's id once
    /// renumbered) and the leaf's node and slot go into its item, so the
    /// build writes no leaf record, scattered across memory.
    fn build_nodes(&mut self, by_position: bool) -> Vec<BuildItem> {
        self.refits = 0;
        self.tightenings = 0;
        self.insertions = 0;
        self.leaves_at_rebuild = self.leaf_count;
        self.nodes.clear();
        self.free_nodes.clear();
        self.root = NULL_NODE;
        let mut items: Vec<BuildItem> = self
            .leaves
            .iter()
            .enumerate()
            .filter(|(_, leaf)| leaf.node != NULL_NODE)
            .map(|(proxy, leaf)| BuildItem {
                aabb: Bounds::of(&leaf_tree_box(&leaf.aabb, leaf.is_box)),
                center: leaf.aabb.center().into(),
                proxy: proxy as u32,
                node: NULL_NODE,
                slot: 0,
            })
            .collect();
        if items.is_empty() {
            return items;
        }
        self.nodes.reserve(items.len() / 2);
        let whole = Part::of(&items, 0, items.len());
        // (part, parent node, parent slot)
        let mut tasks: Vec<(Part, u32, usize)> = vec![(whole, NULL_NODE, 0)];
        while let Some((part, parent, parent_slot)) = tasks.pop() {
            let node = self.allocate_node(parent);
            if parent == NULL_NODE {
                self.root = node;
            } else {
                self.nodes[parent as usize].children[parent_slot] = node;
            }
            // Split the part with the largest surface area (the one most
            // often entered, by SAH's measure) among those too big for one
            // node, until there are four. Once every part fits one node, a
            // part is split further only if all its leaves then fit this
            // node's spare slots: a node of four leaves below beats two
            // nodes of two (fewer nodes to store and to pair up).
            let mut parts = [part; 4];
            let mut count = 1;
            while count < 4 {
                let too_big = (0..count).filter(|&i| parts[i].len() > 4).max_by(|&a, &b| {
                    parts[a]
                        .bounds
                        .surface_area()
                        .total_cmp(&parts[b].bounds.surface_area())
                });
                let spare = 4 - count;
                let Some(i) = too_big.or_else(|| {
                    (0..count)
                        .filter(|&i| parts[i].len() >= 2 && parts[i].len() - 1 <= spare)
                        .min_by_key(|&i| parts[i].len())
                }) else {
                    break;
                };
                let (left, right) = sah_split(&mut items, parts[i]);
                parts[i] = left;
                parts[count] = right;
                count += 1;
            }
            for (slot, part) in parts[..count].iter().enumerate() {
                if part.len() == 1 {
                    let item = &mut items[part.start];
                    if by_position {
                        let child = leaf_child(part.start as u32);
                        self.nodes[node as usize].set_slot(slot, child, &item.aabb.to_aabb());
                        (item.node, item.slot) = (node, slot as u8);
                    } else {
                        self.place(node, slot, leaf_child(item.proxy), &item.aabb.to_aabb());
                    }
                } else {
                    self.nodes[node as usize].set_slot(slot, NULL_NODE, &part.bounds.to_aabb());
                    tasks.push((*part, node, slot));
                }
            }
        }
        if !by_position {
            self.gather_categories();
        }
        items
    }

    /// Sets every node's category to the union of its children's, after a
    /// build: a build numbers nodes from 0, parents before their children,
    /// so in reverse a node's children are done before it.
    fn gather_categories(&mut self) {
        for node in (0..self.nodes.len()).rev() {
            let n = &self.nodes[node];
            let category = n.children.iter().fold(0, |acc, &c| acc | self.category_of(c));
            self.nodes[node].category = category;
        }
    }

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
                        if !(slot_box.min.cmple(leaf.aabb.min).all() && leaf.aabb.max.cmple(slot_box.max).all()) {
                            return Err(format!("leaf {} escapes its fat box", child & !LEAF_BIT));
                        }
                        leaves += 1;
                    } else {
                        let c = &self.nodes[child as usize];
                        if c.parent != index {
                            return Err(format!("node {child} does not point back to {index}"));
                        }
                        let bounds = c.bounds().ok_or(format!("node {child} is empty"))?;
                        if !(slot_box.min.cmple(bounds.min).all() && bounds.max.cmple(slot_box.max).all()) {
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

/// A box during a rebuild, in 16-byte SIMD vectors (the build touches every
/// box once per level; `Vec3A` makes each union one SIMD min and max).
#[derive(Debug, Clone, Copy)]
struct Bounds {
    min: Vec3A,
    max: Vec3A,
}

impl Bounds {
    /// The empty box: the identity of `union` and `grow`.
    const EMPTY: Bounds = Bounds {
        min: Vec3A::INFINITY,
        max: Vec3A::NEG_INFINITY,
    };

    #[inline]
    fn of(aabb: &Aabb) -> Self {
        Self {
            min: aabb.min.into(),
            max: aabb.max.into(),
        }
    }

    #[inline]
    fn union(&self, other: &Bounds) -> Bounds {
        Bounds {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    #[inline]
    fn grow(&mut self, p: Vec3A) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    /// Surface area `2(xy + yz + zx)`.
    #[inline]
    fn surface_area(&self) -> f32 {
        let e = self.max - self.min;
        2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    }

    #[inline]
    fn to_aabb(self) -> Aabb {
        Aabb::new(self.min.into(), self.max.into())
    }
}

/// A leaf during a rebuild: its proxy, box and box centre, and (for a
/// build that numbers leaves by position) the node and slot it was placed
/// in, in what would otherwise be the item's padding.
#[derive(Debug, Clone, Copy)]
struct BuildItem {
    aabb: Bounds,
    center: Vec3A,
    proxy: u32,
    node: u32,
    slot: u8,
}

/// A range of build items with the bounds of their boxes and of their
/// centres.
#[derive(Debug, Clone, Copy)]
struct Part {
    start: usize,
    end: usize,
    bounds: Bounds,
    centers: Bounds,
}

impl Part {
    fn of(items: &[BuildItem], start: usize, end: usize) -> Self {
        let mut bounds = Bounds::EMPTY;
        let mut centers = bounds;
        for item in &items[start..end] {
            bounds = bounds.union(&item.aabb);
            centers.grow(item.center);
        }
        Self {
            start,
            end,
            bounds,
            centers,
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.end - self.start
    }
}

/// Splits a small part (no more items than bins, where binning costs more
/// than it finds) at the median of its centres along their widest axis.
///
/// The median is found by sorting integer keys, the centre's bits in
/// `f32::total_cmp`'s order above the item's position (at most
/// [`SAH_BINS`] plain integers, where selecting with comparisons reads the
/// items again at every step); the items of the lower half are then
/// gathered at the front by Hoare's partition, which moves only the items
/// on the wrong side.
fn median_split(items: &mut [BuildItem], part: Part) -> (Part, Part) {
    let extent = part.centers.max - part.centers.min;
    let axis = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    let range = &mut items[part.start..part.end];
    let n = range.len();
    let mut keys = [0u64; SAH_BINS];
    let keys = &mut keys[..n];
    for (position, (key, item)) in keys.iter_mut().zip(range.iter()).enumerate() {
        *key = u64::from(total_order_bits(item.center[axis])) << 32 | position as u64;
    }
    keys.sort_unstable();
    let half = n / 2;
    // Bit `p` set: the item at position `p` belongs to the lower half.
    let lower = keys[..half].iter().fold(0u32, |mask, &key| mask | 1 << (key as u32));
    partition(range, |position, _| lower >> position & 1 == 1, |_, _| {});
    let mid = part.start + half;
    (Part::of(items, part.start, mid), Part::of(items, mid, part.end))
}

/// Reorders `range` so that the items `on_left` accepts come first, and
/// returns how many there are, by Hoare's partition: two fronts close in
/// from both ends and swap only the pairs found on the wrong sides.
/// `on_left` sees every item once, with its position before any swap;
/// `seen` is told every item's side.
#[inline]
fn partition(
    range: &mut [BuildItem],
    on_left: impl Fn(usize, &BuildItem) -> bool,
    mut seen: impl FnMut(&BuildItem, bool),
) -> usize {
    let (mut i, mut j) = (0, range.len());
    loop {
        while i < j && on_left(i, &range[i]) {
            seen(&range[i], true);
            i += 1;
        }
        while i < j && !on_left(j - 1, &range[j - 1]) {
            seen(&range[j - 1], false);
            j -= 1;
        }
        if i == j {
            return i;
        }
        seen(&range[i], false);
        seen(&range[j - 1], true);
        range.swap(i, j - 1);
        i += 1;
        j -= 1;
    }
}

/// `x`'s bits mapped so that unsigned order is `f32::total_cmp`'s order
/// (negative values' bits reversed, the sign bit of the others set).
#[inline]
fn total_order_bits(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }
}

/// The SAH bins of a centre on the three axes, given its position `x` in
/// bin widths from the low end (`(c − lo)·scale`, in `[0, SAH_BINS]`):
/// `round(x − ½)` clamped to `[0, SAH_BINS − 1]`: `⌊x⌋`, but for whole `x`,
/// a tie, which rounds to even (any map that never decreases along an axis
/// serves, as long as binning and partitioning share it). Adding `1.5·2²³` leaves the
/// rounded value in the low mantissa bits, so the three axes take three
/// SIMD operations and no saturating float-to-integer conversion (a quarter
/// of a rebuild's instructions before).
#[inline]
fn bin_indices(x: Vec3A) -> [usize; 3] {
    let below = x.clamp(Vec3A::ZERO, Vec3A::splat(BIN_CLAMP)) - Vec3A::splat(0.5);
    let rounded = below + Vec3A::splat(BIN_ROUNDER);
    rounded.to_array().map(|v| (v.to_bits() & BIN_MASK) as usize)
}

/// [`bin_indices`] on one axis, by the same operations in the same order
/// (`max`, then `min`, as `clamp` on vectors, so a NaN lands in bin 0 in
/// both), for the partition, which needs the split axis only.
#[inline]
#[allow(clippy::manual_clamp, reason = "`f32::clamp` keeps a NaN, the vector clamp does not")]
fn bin_index(x: f32) -> usize {
    let below = x.max(0.0).min(BIN_CLAMP) - 0.5;
    let rounded = below + BIN_ROUNDER;
    (rounded.to_bits() & BIN_MASK) as usize
}

/// `1.5·2²³`: added to a value in `[−½, 2²²]`, it leaves the value rounded to
/// an integer in the low mantissa bits.
const BIN_ROUNDER: f32 = 12_582_912.0;

/// The largest position binned, just below the end of the last bin.
const BIN_CLAMP: f32 = (SAH_BINS - 1) as f32 + 0.99;

/// The bin is below `SAH_BINS`, a power of two: masking with it keeps the
/// same value and tells the compiler no bounds check is needed.
const BIN_MASK: u32 = SAH_BINS as u32 - 1;
const _: () = assert!(SAH_BINS.is_power_of_two());

/// Splits a part in two by binned SAH over its centres and reorders its
/// items so the left part comes first; both parts are non-empty.
///
/// Each centre falls into one of [`SAH_BINS`] bins per axis (one pass over
/// the items for all three axes); the split between bins `i − 1` and `i`
/// costs `area(left)·count(left) + area(right)·count(right)`, and the
/// cheapest split over the three axes wins. Coincident centres, or no split
/// leaving both sides non-empty, split in the middle of the range. Parts of
/// at most [`SAH_BINS`] items take [`median_split`].
fn sah_split(items: &mut [BuildItem], part: Part) -> (Part, Part) {
    let n = part.len();
    if n <= SAH_BINS {
        return median_split(items, part);
    }
    let range = &mut items[part.start..part.end];
    let lo = part.centers.min;
    let extent = part.centers.max - part.centers.min;
    let scale = Vec3A::new(
        if extent.x > 0.0 {
            SAH_BINS as f32 / extent.x
        } else {
            0.0
        },
        if extent.y > 0.0 {
            SAH_BINS as f32 / extent.y
        } else {
            0.0
        },
        if extent.z > 0.0 {
            SAH_BINS as f32 / extent.z
        } else {
            0.0
        },
    );
    let bins_of = |c: Vec3A| bin_indices((c - lo) * scale);
    let empty = Bounds::EMPTY;
    let mut bins = [[(empty, 0usize); SAH_BINS]; 3];
    for item in range.iter() {
        let item_bins = bins_of(item.center);
        for (axis, axis_bins) in bins.iter_mut().enumerate() {
            let bin = &mut axis_bins[item_bins[axis]];
            bin.0 = bin.0.union(&item.aabb);
            bin.1 += 1;
        }
    }
    let mut best: Option<(f32, usize, usize)> = None; // (cost, axis, first bin on the right)
    for (axis, axis_bins) in bins.iter().enumerate() {
        if !(extent[axis] > 0.0) {
            continue;
        }
        let mut right_cost = [0.0f32; SAH_BINS];
        let (mut acc, mut acc_count) = (empty, 0);
        for i in (1..SAH_BINS).rev() {
            acc = acc.union(&axis_bins[i].0);
            acc_count += axis_bins[i].1;
            right_cost[i] = if acc_count == 0 {
                0.0
            } else {
                acc.surface_area() * acc_count as f32
            };
        }
        let (mut left, mut left_count) = (empty, 0);
        for i in 1..SAH_BINS {
            left = left.union(&axis_bins[i - 1].0);
            left_count += axis_bins[i - 1].1;
            if left_count == 0 || left_count == n {
                continue;
            }
            let cost = left.surface_area() * left_count as f32 + right_cost[i];
            if best.is_none_or(|(b, _, _)| cost < b) {
                best = Some((cost, axis, i));
            }
        }
    }
    let Some((_, axis, split_bin)) = best else {
        // No usable plane: halve the range as it stands.
        let mid = part.start + n / 2;
        return (Part::of(items, part.start, mid), Part::of(items, mid, part.end));
    };
    // Both sides' boxes are the unions of their bins on the split axis;
    // their centres' bounds are gathered by one partition pass, which
    // swaps only the items found on the wrong side (Hoare's scheme).
    let (lo, scale) = (lo[axis], scale[axis]);
    let on_left = |_, item: &BuildItem| bin_index((item.center[axis] - lo) * scale) < split_bin;
    let (mut left_centers, mut right_centers) = (empty, empty);
    let left_count = partition(range, on_left, |item, left| {
        if left {
            left_centers.grow(item.center);
        } else {
            right_centers.grow(item.center);
        }
    });
    let union_of = |bins: &[(Bounds, usize)]| bins.iter().fold(empty, |acc, bin| acc.union(&bin.0));
    let mid = part.start + left_count;
    let left = Part {
        start: part.start,
        end: mid,
        bounds: union_of(&bins[axis][..split_bin]),
        centers: left_centers,
    };
    let right = Part {
        start: mid,
        end: part.end,
        bounds: union_of(&bins[axis][split_bin..]),
        centers: right_centers,
    };
    (left, right)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `occupied` and `leaf_slots` read the slots right for every kind of
    /// child, the largest indices the world allows included.
    #[test]
    fn slot_masks_tell_empty_node_and_leaf_slots_apart() {
        let largest = (crate::world::MAX_COLLIDERS - 1) as u32;
        let mut node = Node::EMPTY;
        assert_eq!((node.occupied(), node.leaf_slots()), (0b0000, 0b1111));
        node.children = [0, leaf_child(largest), NULL_NODE, largest];
        assert_eq!((node.occupied(), node.leaf_slots()), (0b1011, 0b0110));
        node.children = [leaf_child(0), NULL_NODE, 1, leaf_child(7)];
        assert_eq!((node.occupied(), node.leaf_slots()), (0b1101, 0b1011));
    }

    /// `bin_indices` is `⌊x⌋` clamped to the bins but at whole `x`, never
    /// decreases along an axis, and puts every input, NaN and infinities
    /// included, into a bin.
    #[test]
    fn bin_indices_floor_monotonic_and_in_range() {
        let last = SAH_BINS - 1;
        let mut previous = [0; 3];
        for step in 0..=(SAH_BINS * 64) {
            let x = step as f32 / 64.0;
            let bins = bin_indices(Vec3A::new(x, x * 0.5, SAH_BINS as f32 - x));
            if x.fract() != 0.0 {
                assert_eq!(bins[0], (x.floor() as usize).min(last), "x = {x}");
            }
            assert!(bins[0] >= previous[0] && bins[1] >= previous[1], "x = {x}");
            if step > 0 {
                assert!(bins[2] <= previous[2], "x = {x}");
            }
            previous = bins;
        }
        for odd in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, 1e30] {
            assert!(bin_indices(Vec3A::splat(odd)).iter().all(|&b| b <= last), "{odd}");
        }
    }

    /// Integer order of `total_order_bits` is `f32::total_cmp`'s order.
    #[test]
    fn total_order_bits_sort_as_total_cmp() {
        let values = [
            f32::NEG_INFINITY,
            -f32::MAX,
            -1.5,
            -f32::MIN_POSITIVE,
            -0.0,
            0.0,
            f32::from_bits(1),
            1.0,
            f32::MAX,
            f32::INFINITY,
        ];
        for a in values {
            for b in values {
                assert_eq!(
                    total_order_bits(a).cmp(&total_order_bits(b)),
                    a.total_cmp(&b),
                    "{a} {b}"
                );
            }
        }
    }

    /// The partition's one-axis bin is the binning's, lane for lane: on a
    /// fine grid over and beyond the bins, at every bin edge and beside it,
    /// and for the values that clamp (NaN, infinities, negative zero).
    #[test]
    fn bin_index_agrees_with_bin_indices() {
        let edges = (0..=SAH_BINS).flat_map(|b| {
            let x = b as f32;
            [x.next_down(), x, x.next_up()]
        });
        let grid = (-64..=(SAH_BINS as i32 + 4) * 64).map(|step| step as f32 / 64.0);
        let odd = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 1e30, -1e30, BIN_CLAMP];
        for x in edges.chain(grid).chain(odd) {
            let lanes = bin_indices(Vec3A::new(x, -x, x * 3.0));
            let one = [bin_index(x), bin_index(-x), bin_index(x * 3.0)];
            assert_eq!(lanes, one, "x = {x}");
        }
    }
}
