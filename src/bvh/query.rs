//! The region query: every leaf whose box overlaps a box.

use core::ops::ControlFlow;

use crate::math::Aabb;

use super::node::{overlap_mask, slots, splat_box};
use super::stack::TraversalStack;
use super::{is_leaf, Bvh, Leaf, LeafData, LEAF_BIT, NULL_NODE};

impl<T: LeafData> Bvh<T> {
    /// Calls `visit(proxy, leaf)` for every leaf whose fat box overlaps
    /// `aabb` (closed) below a node with a category in `mask`, until it
    /// answers `Break`.
    pub fn query(&self, aabb: &Aabb, mask: u64, mut visit: impl FnMut(u32, &Leaf<T>) -> ControlFlow<()>) {
        self.query_proxies(aabb, mask, |proxy| visit(proxy, &self.leaves[proxy as usize]));
    }

    /// [`Bvh::query`] without reading the leaves: calls `visit(proxy)` for
    /// every leaf whose fat box overlaps `aabb`, from the boxes in the nodes
    /// alone. For a caller that reads the leaves later, in a loop that can
    /// fetch several at once (the pair cache).
    pub fn query_proxies(&self, aabb: &Aabb, mask: u64, mut visit: impl FnMut(u32) -> ControlFlow<()>) {
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
                    if visit(child & !LEAF_BIT).is_break() {
                        return;
                    }
                } else {
                    stack.push(child);
                }
            }
        }
    }
}
