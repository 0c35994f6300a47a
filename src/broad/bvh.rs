//! Dynamic AABB tree: a binary bounding-volume hierarchy that changes with
//! the world, in the spirit of Box2D's `b2DynamicTree` and Bullet's
//! `btDbvt`.
//!
//! - Leaves hold enlarged ("fat") boxes, so small motions leave the tree
//!   untouched; a leaf that escapes its fat box is refitted in place
//!   (its ancestors' boxes recomputed), and the tree is rebuilt by binned SAH
//!   once refits have piled up (amortised over many updates).
//! - Insertion picks the sibling that adds the least surface area, by Box2D
//!   v3's branch and bound (Catto, "Dynamic Bounding Volume Hierarchies",
//!   GDC 2019), then AVL-style rotations keep the height logarithmic.
//! - [`Bvh::rebuild`] builds the whole tree top-down with binned SAH
//!   (Wald, "On fast Construction of SAH-based Bounding Volume Hierarchies",
//!   2007), for static sets and after bulk insertion.
//! - Each node keeps the union of its leaves' filter categories, so a query
//!   mask prunes whole subtrees.
//!
//! Nodes live in one flat array and refer to each other by `u32` index;
//! a leaf's index is its proxy id and never changes while it lives.

use slotmap::SlotMap;

use crate::broad::naive::overlaps;
use crate::broad::Pair;
use crate::collider::{Collider, ColliderKey};
use crate::math::Vec3;
use crate::shape::{Aabb, Segment};

/// "No node".
pub(crate) const NULL_NODE: u32 = u32::MAX;

/// Deepest traversal kept on the call stack; deeper trees (which rotations
/// and SAH builds make very unlikely) fall back to a heap stack.
const INLINE_STACK: usize = 96;

/// Bins per axis for the SAH rebuild.
const SAH_BINS: usize = 16;

/// One tree node: a leaf (a collider's fat box) or an internal node (the
/// union of its two children). 48 bytes; free nodes chain through `parent`.
#[derive(Debug, Clone, Copy)]
struct Node {
    aabb: Aabb,
    /// Union of the filter categories of the leaves below.
    category: u64,
    /// Parent node, or the next free node for a free node.
    parent: u32,
    child1: u32,
    child2: u32,
    /// 0 for a leaf, 1 + the children's largest height otherwise, −1 when free.
    height: i32,
}

impl Node {
    #[inline]
    fn is_leaf(&self) -> bool {
        self.height == 0
    }
}

/// A dynamic AABB tree over the colliders of a world.
#[derive(Debug, Clone)]
pub struct Bvh {
    nodes: Vec<Node>,
    /// The collider of each leaf node, by node index.
    keys: Vec<ColliderKey>,
    root: u32,
    free_list: u32,
    leaf_count: usize,
    /// Leaves refitted since the last rebuild; the tree is rebuilt when this
    /// passes `REFIT_BUDGET × leaf_count`.
    refits: usize,
}

/// How many refits per leaf the tree absorbs before it rebuilds itself.
const REFIT_BUDGET: usize = 4;

impl Default for Bvh {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            keys: Vec::new(),
            root: NULL_NODE,
            free_list: NULL_NODE,
            leaf_count: 0,
            refits: 0,
        }
    }
}

/// The fat box of a leaf: the tight box grown by a tenth of its largest
/// half-extent on every side, so a small motion stays inside it.
#[inline]
fn fatten(tight: &Aabb) -> Aabb {
    tight.expanded(0.1 * tight.half_extents().max_element())
}

impl Bvh {
    /// How many leaves the tree holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.leaf_count
    }

    /// Whether the tree is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.leaf_count == 0
    }

    /// Height of the tree (0 for a single leaf or an empty tree).
    pub fn height(&self) -> i32 {
        if self.root == NULL_NODE {
            0
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// Bytes held by the tree's arrays.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node>() + self.keys.capacity() * core::mem::size_of::<ColliderKey>()
    }

    fn allocate(&mut self) -> u32 {
        if self.free_list != NULL_NODE {
            let index = self.free_list;
            self.free_list = self.nodes[index as usize].parent;
            return index;
        }
        self.nodes.push(Node {
            aabb: Aabb::default(),
            category: 0,
            parent: NULL_NODE,
            child1: NULL_NODE,
            child2: NULL_NODE,
            height: -1,
        });
        self.keys.push(ColliderKey::default());
        (self.nodes.len() - 1) as u32
    }

    fn release(&mut self, index: u32) {
        let node = &mut self.nodes[index as usize];
        node.height = -1;
        node.parent = self.free_list;
        self.free_list = index;
    }

    /// Adds a leaf for `key` with tight box `aabb` and returns its proxy id.
    pub fn insert(&mut self, aabb: &Aabb, category: u64, key: ColliderKey) -> u32 {
        let leaf = self.allocate();
        self.nodes[leaf as usize] = Node {
            aabb: fatten(aabb),
            category,
            parent: NULL_NODE,
            child1: NULL_NODE,
            child2: NULL_NODE,
            height: 0,
        };
        self.keys[leaf as usize] = key;
        self.leaf_count += 1;
        self.insert_leaf(leaf);
        leaf
    }

    /// Removes a leaf.
    pub fn remove(&mut self, proxy: u32) {
        self.remove_leaf(proxy);
        self.release(proxy);
        self.leaf_count -= 1;
    }

    /// Gives a leaf a new tight box and category. Nothing moves while the box
    /// stays inside the leaf's fat box (and the category is unchanged);
    /// otherwise the leaf gets a new fat box and its ancestors are refitted.
    pub fn update(&mut self, proxy: u32, aabb: &Aabb, category: u64) {
        let node = &self.nodes[proxy as usize];
        let contained = node.aabb.min.cmple(aabb.min).all() && aabb.max.cmple(node.aabb.max).all();
        if contained && node.category == category {
            return;
        }
        let node = &mut self.nodes[proxy as usize];
        node.aabb = fatten(aabb);
        node.category = category;
        let parent = node.parent;
        self.refit_ancestors(parent);
        self.refits += 1;
        if self.refits > REFIT_BUDGET * self.leaf_count.max(64) {
            self.rebuild();
        }
    }

    /// Recomputes boxes and categories from `index` up to the root,
    /// stopping early once a node is unchanged.
    fn refit_ancestors(&mut self, mut index: u32) {
        while index != NULL_NODE {
            let node = self.nodes[index as usize];
            let (a, b) = (&self.nodes[node.child1 as usize], &self.nodes[node.child2 as usize]);
            let aabb = a.aabb.union(&b.aabb);
            let category = a.category | b.category;
            if aabb == node.aabb && category == node.category {
                return;
            }
            let node = &mut self.nodes[index as usize];
            node.aabb = aabb;
            node.category = category;
            index = node.parent;
        }
    }

    /// The sibling for a new leaf with box `d`: the node whose replacement
    /// by a parent of it and the leaf adds the least total surface area.
    ///
    /// Branch and bound (Box2D v3 `b2FindBestSibling`): the cost of picking a
    /// node is the area of its union with `d` plus the area growth it
    /// inflicts on every ancestor; a subtree is skipped when even its most
    /// favourable node cannot beat the best cost found so far.
    fn find_best_sibling(&self, d: &Aabb) -> u32 {
        let area_d = d.surface_area();
        let mut index = self.root;
        let mut direct_cost = self.nodes[index as usize].aabb.union(d).surface_area();
        let mut inherited_cost = 0.0;
        let mut best = index;
        let mut best_cost = direct_cost;
        while !self.nodes[index as usize].is_leaf() {
            let node = &self.nodes[index as usize];
            // Making `index` the sibling: a new parent of area `direct_cost`,
            // plus the growth of every ancestor.
            if direct_cost + inherited_cost < best_cost {
                best = index;
                best_cost = direct_cost + inherited_cost;
            }
            inherited_cost += direct_cost - node.aabb.surface_area();

            let children = [node.child1, node.child2];
            let mut direct = [0.0f32; 2];
            let mut lower_bound = [f32::INFINITY; 2];
            for slot in 0..2 {
                let child = &self.nodes[children[slot] as usize];
                direct[slot] = child.aabb.union(d).surface_area();
                if child.is_leaf() {
                    if direct[slot] + inherited_cost < best_cost {
                        best = children[slot];
                        best_cost = direct[slot] + inherited_cost;
                    }
                } else {
                    // No node below can cost less than this: the child grows
                    // by at least `direct − area`, and a new parent below
                    // costs at least `area(d)`.
                    let area = child.aabb.surface_area();
                    lower_bound[slot] = inherited_cost + direct[slot] + (area_d - area).min(0.0);
                }
            }
            if best_cost <= lower_bound[0] && best_cost <= lower_bound[1] {
                break;
            }
            let slot = if lower_bound[0] <= lower_bound[1] { 0 } else { 1 };
            index = children[slot];
            direct_cost = direct[slot];
        }
        best
    }

    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL_NODE {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL_NODE;
            return;
        }
        let leaf_aabb = self.nodes[leaf as usize].aabb;
        let sibling = self.find_best_sibling(&leaf_aabb);
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.allocate();
        let sibling_node = self.nodes[sibling as usize];
        let leaf_node = self.nodes[leaf as usize];
        self.nodes[new_parent as usize] = Node {
            aabb: leaf_aabb.union(&sibling_node.aabb),
            category: leaf_node.category | sibling_node.category,
            parent: old_parent,
            child1: sibling,
            child2: leaf,
            height: sibling_node.height + 1,
        };
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL_NODE {
            self.root = new_parent;
        } else {
            let parent = &mut self.nodes[old_parent as usize];
            if parent.child1 == sibling {
                parent.child1 = new_parent;
            } else {
                parent.child2 = new_parent;
            }
        }
        self.fix_upwards(old_parent);
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL_NODE;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let parent_node = self.nodes[parent as usize];
        let grandparent = parent_node.parent;
        let sibling = if parent_node.child1 == leaf {
            parent_node.child2
        } else {
            parent_node.child1
        };
        self.release(parent);
        if grandparent == NULL_NODE {
            self.root = sibling;
            self.nodes[sibling as usize].parent = NULL_NODE;
            return;
        }
        let g = &mut self.nodes[grandparent as usize];
        if g.child1 == parent {
            g.child1 = sibling;
        } else {
            g.child2 = sibling;
        }
        self.nodes[sibling as usize].parent = grandparent;
        self.fix_upwards(grandparent);
    }

    /// Walks from `index` to the root, balancing and refitting each node.
    fn fix_upwards(&mut self, mut index: u32) {
        while index != NULL_NODE {
            index = self.balance(index);
            let node = self.nodes[index as usize];
            let (a, b) = (self.nodes[node.child1 as usize], self.nodes[node.child2 as usize]);
            let n = &mut self.nodes[index as usize];
            n.height = 1 + a.height.max(b.height);
            n.aabb = a.aabb.union(&b.aabb);
            n.category = a.category | b.category;
            index = n.parent;
        }
    }

    /// If the subtree at `a` leans (children heights differ by more than
    /// one), rotates its taller child up (Box2D v2.4 `b2DynamicTree::Balance`,
    /// an AVL rotation) and returns the subtree's new root.
    fn balance(&mut self, a: u32) -> u32 {
        let node_a = self.nodes[a as usize];
        if node_a.is_leaf() || node_a.height < 2 {
            return a;
        }
        let (b, c) = (node_a.child1, node_a.child2);
        let balance = self.nodes[c as usize].height - self.nodes[b as usize].height;
        if balance > 1 {
            self.rotate_up(a, c)
        } else if balance < -1 {
            self.rotate_up(a, b)
        } else {
            a
        }
    }

    /// Rotates `up` (the taller child of `a`) above `a`: `up`'s taller
    /// child stays under `up`, its shorter one takes `up`'s place under `a`.
    /// Returns `up`.
    fn rotate_up(&mut self, a: u32, up: u32) -> u32 {
        let node_up = self.nodes[up as usize];
        let (f, g) = (node_up.child1, node_up.child2);
        let a_parent = self.nodes[a as usize].parent;

        // `up` takes `a`'s place.
        self.nodes[up as usize].parent = a_parent;
        self.nodes[a as usize].parent = up;
        if a_parent == NULL_NODE {
            self.root = up;
        } else {
            let p = &mut self.nodes[a_parent as usize];
            if p.child1 == a {
                p.child1 = up;
            } else {
                p.child2 = up;
            }
        }

        let (keep, give) = if self.nodes[f as usize].height > self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        {
            let n = &mut self.nodes[up as usize];
            n.child1 = a;
            n.child2 = keep;
        }
        {
            let n = &mut self.nodes[a as usize];
            if n.child1 == up {
                n.child1 = give;
            } else {
                n.child2 = give;
            }
        }
        self.nodes[give as usize].parent = a;
        self.refit_node(a);
        self.refit_node(up);
        up
    }

    /// Recomputes one internal node from its children.
    fn refit_node(&mut self, index: u32) {
        let node = self.nodes[index as usize];
        let (a, b) = (self.nodes[node.child1 as usize], self.nodes[node.child2 as usize]);
        let n = &mut self.nodes[index as usize];
        n.aabb = a.aabb.union(&b.aabb);
        n.category = a.category | b.category;
        n.height = 1 + a.height.max(b.height);
    }
}

/// The segment's reciprocal direction for slab tests, with zero components
/// replaced by `±1e30` so that `(bound − origin)·inv` never forms `0·∞`.
#[inline]
fn safe_recip(d: Vec3) -> Vec3 {
    let r = |x: f32| {
        if x.abs() < 1e-30 {
            1e30f32.copysign(x)
        } else {
            1.0 / x
        }
    };
    Vec3::new(r(d.x), r(d.y), r(d.z))
}

/// Conservative slab test of a node box: the entry parameter if the segment
/// part `[0, t_max]` may touch the box. It accepts a hair more than the
/// exact test (a relative `1e-6` on the exit), so rounding never prunes a
/// box the exact leaf test would hit.
#[inline]
fn slab_entry(aabb: &Aabb, origin: Vec3, inv: Vec3, t_max: f32) -> Option<f32> {
    let t0 = (aabb.min - origin) * inv;
    let t1 = (aabb.max - origin) * inv;
    let near = t0.min(t1).max_element().max(0.0);
    let far = t0.max(t1).min_element().min(t_max);
    (near <= far * (1.0 + 1e-6)).then_some(near)
}

/// A depth-first traversal stack on the call stack, spilling to the heap
/// only for trees deeper than [`INLINE_STACK`].
struct TraversalStack<T: Copy + Default> {
    inline: [T; INLINE_STACK],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy + Default> TraversalStack<T> {
    #[inline]
    fn new() -> Self {
        Self {
            inline: [T::default(); INLINE_STACK],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, value: T) {
        if self.len < INLINE_STACK {
            self.inline[self.len] = value;
            self.len += 1;
        } else {
            self.spill.push(value);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        if let Some(value) = self.spill.pop() {
            return Some(value);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.inline[self.len])
    }
}

impl Bvh {
    /// Walks the tree front to back along `segment` (`t ∈ [0, 1]`), calling
    /// `hit_leaf` for every leaf whose fat box the segment may touch before
    /// the closest hit so far, skipping subtrees with no category in `mask`.
    /// `hit_leaf` runs the exact test and returns the hit's `t`, which
    /// shrinks the rest of the walk. Allocates nothing for trees of
    /// ordinary depth.
    pub fn cast(&self, segment: &Segment, mask: u64, mut hit_leaf: impl FnMut(ColliderKey) -> Option<f32>) {
        if self.root == NULL_NODE {
            return;
        }
        let origin = segment.start;
        let inv = safe_recip(segment.direction());
        let mut t_max = 1.0f32;
        let mut stack: TraversalStack<(u32, f32)> = TraversalStack::new();
        let root = &self.nodes[self.root as usize];
        if root.category & mask != 0 {
            if let Some(t) = slab_entry(&root.aabb, origin, inv, t_max) {
                stack.push((self.root, t));
            }
        }
        while let Some((index, t_near)) = stack.pop() {
            if t_near > t_max {
                continue;
            }
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                if let Some(t) = hit_leaf(self.keys[index as usize]) {
                    t_max = t_max.min(t);
                }
                continue;
            }
            let entry = |child: u32| {
                let c = &self.nodes[child as usize];
                if c.category & mask == 0 {
                    return None;
                }
                slab_entry(&c.aabb, origin, inv, t_max).map(|t| (child, t))
            };
            match (entry(node.child1), entry(node.child2)) {
                (Some(a), Some(b)) => {
                    let (near, far) = if a.1 <= b.1 { (a, b) } else { (b, a) };
                    stack.push(far);
                    stack.push(near);
                }
                (Some(one), None) | (None, Some(one)) => stack.push(one),
                (None, None) => {}
            }
        }
    }

    /// Calls `visit(proxy, key)` for every leaf whose fat box overlaps
    /// `aabb` (closed) and whose category is in `mask`.
    pub fn query(&self, aabb: &Aabb, mask: u64, mut visit: impl FnMut(u32, ColliderKey)) {
        if self.root == NULL_NODE {
            return;
        }
        let mut stack: TraversalStack<u32> = TraversalStack::new();
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            if node.category & mask == 0 || !node.aabb.intersects_aabb(aabb) {
                continue;
            }
            if node.is_leaf() {
                visit(index, self.keys[index as usize]);
            } else {
                stack.push(node.child2);
                stack.push(node.child1);
            }
        }
    }

    /// Rebuilds every internal node top-down by binned SAH over the current
    /// leaves (proxy ids stay valid). For static sets and after bulk
    /// insertion; the tree also calls it itself once refits pile up.
    pub fn rebuild(&mut self) {
        self.refits = 0;
        let mut leaves: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&i| self.nodes[i as usize].height == 0)
            .collect();
        self.free_list = NULL_NODE;
        for i in (0..self.nodes.len() as u32).rev() {
            if self.nodes[i as usize].height != 0 {
                self.release(i);
            }
        }
        if leaves.is_empty() {
            self.root = NULL_NODE;
            return;
        }
        let mut centers: Vec<Vec3> = leaves.iter().map(|&i| self.nodes[i as usize].aabb.center()).collect();
        // Internal nodes in creation order: parents before children, so the
        // reverse order refits children before parents.
        let mut internal: Vec<u32> = Vec::with_capacity(leaves.len());
        // (range start, range end, parent, which child of the parent)
        let mut tasks: Vec<(usize, usize, u32, u8)> = vec![(0, leaves.len(), NULL_NODE, 0)];
        while let Some((start, end, parent, slot)) = tasks.pop() {
            let node = if end - start == 1 {
                leaves[start]
            } else {
                let split = start + sah_split(&self.nodes, &mut leaves[start..end], &mut centers[start..end]);
                let index = self.allocate();
                self.nodes[index as usize] = Node {
                    aabb: Aabb::default(),
                    category: 0,
                    parent,
                    child1: NULL_NODE,
                    child2: NULL_NODE,
                    height: 1,
                };
                internal.push(index);
                tasks.push((split, end, index, 2));
                tasks.push((start, split, index, 1));
                index
            };
            self.nodes[node as usize].parent = parent;
            match slot {
                0 => self.root = node,
                1 => self.nodes[parent as usize].child1 = node,
                _ => self.nodes[parent as usize].child2 = node,
            }
        }
        for &index in internal.iter().rev() {
            self.refit_node(index);
        }
    }

    /// Checks every structural invariant: links, heights, boxes holding
    /// their children, category unions, the leaf count. For tests.
    pub fn validate(&self) -> Result<(), String> {
        let mut leaves = 0;
        if self.root != NULL_NODE {
            if self.nodes[self.root as usize].parent != NULL_NODE {
                return Err("root has a parent".into());
            }
            let mut stack = vec![self.root];
            while let Some(index) = stack.pop() {
                let node = &self.nodes[index as usize];
                if node.is_leaf() {
                    leaves += 1;
                    continue;
                }
                for child in [node.child1, node.child2] {
                    let c = &self.nodes[child as usize];
                    if c.parent != index {
                        return Err(format!("node {child} does not point back to its parent {index}"));
                    }
                    if !(node.aabb.min.cmple(c.aabb.min).all() && c.aabb.max.cmple(node.aabb.max).all()) {
                        return Err(format!("node {index} does not hold child {child}"));
                    }
                    if c.category & !node.category != 0 {
                        return Err(format!("node {index} misses categories of child {child}"));
                    }
                    stack.push(child);
                }
                let h = 1 + self.nodes[node.child1 as usize].height.max(self.nodes[node.child2 as usize].height);
                if node.height != h {
                    return Err(format!("node {index} has height {} instead of {h}", node.height));
                }
            }
        }
        if leaves != self.leaf_count {
            return Err(format!("{leaves} leaves reachable, {} counted", self.leaf_count));
        }
        Ok(())
    }
}

/// Reorders `leaves` (and their `centers`) so the first `k` go left and the
/// rest right, with `k` chosen by binned SAH over the centroids, and
/// returns `k` (always in `1..len`).
///
/// For each axis with extent, the centroids fall into [`SAH_BINS`] bins;
/// the split between bins `i` and `i + 1` costs
/// `area(left)·count(left) + area(right)·count(right)`. Coincident
/// centroids, or a best split leaving one side empty, split in the middle.
fn sah_split(nodes: &[Node], leaves: &mut [u32], centers: &mut [Vec3]) -> usize {
    let n = leaves.len();
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for c in centers.iter() {
        lo = lo.min(*c);
        hi = hi.max(*c);
    }
    let extent = hi - lo;
    let mut best: Option<(f32, usize, usize)> = None; // (cost, axis, first bin of the right side)
    for axis in 0..3 {
        if !(extent[axis] > 0.0) {
            continue;
        }
        let scale = SAH_BINS as f32 / extent[axis];
        let bin_of = |c: &Vec3| (((c[axis] - lo[axis]) * scale) as usize).min(SAH_BINS - 1);
        let mut bins = [(Aabb::new(Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), 0usize); SAH_BINS];
        for (leaf, c) in leaves.iter().zip(centers.iter()) {
            let bin = &mut bins[bin_of(c)];
            bin.0 = bin.0.union(&nodes[*leaf as usize].aabb);
            bin.1 += 1;
        }
        let mut right_area = [0.0f32; SAH_BINS];
        let mut acc = bins[SAH_BINS - 1].0;
        let mut acc_count = 0;
        for i in (1..SAH_BINS).rev() {
            acc = acc.union(&bins[i].0);
            acc_count += bins[i].1;
            right_area[i] = if acc_count == 0 { 0.0 } else { acc.surface_area() * acc_count as f32 };
        }
        let mut left = bins[0].0;
        let mut left_count = 0;
        for i in 1..SAH_BINS {
            left = left.union(&bins[i - 1].0);
            left_count += bins[i - 1].1;
            if left_count == 0 || left_count == n {
                continue;
            }
            let cost = left.surface_area() * left_count as f32 + right_area[i];
            if best.is_none_or(|(b, _, _)| cost < b) {
                best = Some((cost, axis, i));
            }
        }
    }
    let Some((_, axis, split_bin)) = best else {
        return n / 2;
    };
    let scale = SAH_BINS as f32 / extent[axis];
    let goes_left = |c: &Vec3| ((((c[axis] - lo[axis]) * scale) as usize).min(SAH_BINS - 1)) < split_bin;
    let mut k = 0;
    for i in 0..n {
        if goes_left(&centers[i]) {
            leaves.swap(i, k);
            centers.swap(i, k);
            k += 1;
        }
    }
    if k == 0 || k == n {
        n / 2
    } else {
        k
    }
}

/// Replaces `pairs` by every overlapping pair whose filters interact,
/// `(a, b)` with `a < b`, sorted: the set of
/// [`naive::for_each_pair`](crate::broad::naive::for_each_pair), found by
/// querying the tree with each collider's box.
pub fn find_pairs(bvh: &Bvh, colliders: &SlotMap<ColliderKey, Collider>, pairs: &mut Vec<Pair>) {
    pairs.clear();
    for (key, collider) in colliders {
        bvh.query(collider.aabb(), collider.filter().mask, |_, other_key| {
            if other_key <= key {
                return;
            }
            let other = &colliders[other_key];
            if overlaps(collider, other) {
                pairs.push(Pair {
                    a: key,
                    b: other_key,
                    user_a: collider.user_data(),
                    user_b: other.user_data(),
                });
            }
        });
    }
    pairs.sort_unstable();
}
