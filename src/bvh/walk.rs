//! The one walk of the tree: depth first, nearest child first, asking a
//! visitor which children to enter and what to do at each leaf (the shape
//! of Jolt's `WalkTree`). The segment cast, the region query and a leaf
//! against a subtree in the pair search are its visitors.

use core::ops::ControlFlow;

use crate::math::Vec4;
use crate::prefetch::prefetch;

use super::node::{slots, Node};
use super::stack::TraversalStack;
use super::{is_leaf, Bvh, LEAF_BIT};

/// What a walk asks at each node and leaf.
pub(super) trait Visitor {
    /// Whether the walk enters inner children smallest key first (a cast,
    /// front to back) or in any order (a region, where ordering and
    /// prefetching the children cost more than they save).
    const ORDERED: bool;

    /// The children of `node` to enter, as a bit mask of slots, and a key
    /// per slot (a cast's entry `t`; an unordered walk answers zeros).
    fn test(&mut self, node: &Node) -> (u32, Vec4);

    /// Whether a child with this key is still worth entering: asked when
    /// the child is reached and again when it is taken from the stack (a
    /// cast's best hit may have come closer meanwhile).
    fn worth(&self, key: f32) -> bool;

    /// A leaf the walk reached: `Break` ends the walk.
    fn leaf(&mut self, proxy: u32) -> ControlFlow<()>;
}

impl<T> Bvh<T> {
    /// Walks the subtree under node `from`, skipping nodes with no category
    /// in `mask`. In an ordered walk the nearest inner child just reached
    /// is visited next, so a walk down one path never goes through the
    /// stack, and the others wait on the stack with their key; an
    /// unordered walk stacks them all. Allocates nothing below 64 waiting
    /// entries.
    #[inline(always)]
    pub(super) fn walk<V: Visitor>(&self, from: u32, mask: u64, visitor: &mut V) {
        if !V::ORDERED {
            self.walk_unordered(from, mask, visitor);
            return;
        }
        let mut stack: TraversalStack<(u32, f32)> = TraversalStack::new();
        let mut next = Some((from, f32::NEG_INFINITY));
        while let Some((index, key)) = next.take().or_else(|| stack.pop()) {
            let node = &self.nodes[index as usize];
            if !visitor.worth(key) || node.category & mask == 0 {
                continue;
            }
            let (hits, keys) = visitor.test(node);
            let keys = keys.to_array();
            // Leaves first, each maybe changing what is worth entering.
            let leaf_hits = hits & node.leaf_slots();
            for slot in slots(leaf_hits) {
                if visitor.worth(keys[slot]) && visitor.leaf(node.children[slot] & !LEAF_BIT).is_break() {
                    return;
                }
            }
            for slot in slots(hits & !leaf_hits) {
                let entry = (node.children[slot], keys[slot]);
                if !visitor.worth(entry.1) {
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

    /// [`Bvh::walk`] for a visitor with no order: each node's children in
    /// slot order, leaves visited at once and inner children stacked.
    #[inline(always)]
    fn walk_unordered<V: Visitor>(&self, from: u32, mask: u64, visitor: &mut V) {
        let mut stack: TraversalStack<u32> = TraversalStack::new();
        stack.push(from);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            if node.category & mask == 0 {
                continue;
            }
            let (hits, _) = visitor.test(node);
            for slot in slots(hits) {
                let child = node.children[slot];
                if is_leaf(child) {
                    if visitor.leaf(child & !LEAF_BIT).is_break() {
                        return;
                    }
                } else {
                    stack.push(child);
                }
            }
        }
    }
}
