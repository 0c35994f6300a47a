//! The one walk of the tree: depth first, nearest child first, asking a
//! visitor which children to enter and what to do at each leaf (the shape
//! of Jolt's `WalkTree`). The segment cast, the region query and a leaf
//! against a subtree in the pair search are its visitors.

use core::ops::ControlFlow;

use crate::math::Vec4;
use crate::prefetch::prefetch;

use super::node::{slots, Node};
use super::stack::TraversalStack;
use super::{is_leaf, Bvh, LEAF_BIT, NULL_NODE};

/// What a walk asks at each node and leaf.
pub(super) trait Visitor {
    /// Whether the walk enters inner children smallest key first (a cast,
    /// front to back) or in any order (a region, where ordering and
    /// prefetching the children cost more than they save).
    const ORDERED: bool;

    /// The children of `node` to enter, as a bit mask of slots, and a key
    /// per slot (a cast's entry `t`; an unordered walk answers zeros):
    /// every child in the mask is [`Visitor::worth`] entering at the time
    /// of the test.
    fn test(&mut self, node: &Node) -> (u32, Vec4);

    /// Whether a child with this key is still worth entering: asked again
    /// after a leaf of the same node and when the child is taken from the
    /// stack (a cast's best hit may have come closer meanwhile).
    fn worth(&self, key: f32) -> bool;

    /// A leaf the walk reached: `Break` ends the walk.
    fn leaf(&mut self, proxy: u32) -> ControlFlow<()>;
}

impl<T> Bvh<T> {
    /// Walks the subtree under node `from`, skipping nodes with no category
    /// in `mask`. An ordered walk visits a node's leaves first, then the
    /// nearest of its inner children still worth entering, the others
    /// stacked with their key farthest first (so they come off the stack
    /// nearest first): a walk down one path never goes through the stack,
    /// and a node with one child to enter costs no sort. An unordered walk
    /// stacks every inner child. Allocates nothing below 64 waiting
    /// entries.
    #[inline(always)]
    pub(super) fn walk<V: Visitor>(&self, from: u32, mask: u64, visitor: &mut V) {
        if !V::ORDERED {
            self.walk_unordered(from, mask, visitor);
            return;
        }
        let mut stack: TraversalStack<(u32, f32)> = TraversalStack::new();
        let mut index = from;
        'walk: loop {
            let node = &self.nodes[index as usize];
            if node.category & mask != 0 {
                let (hits, keys) = visitor.test(node);
                let keys = keys.to_array();
                let leaf_slots = node.leaf_slots();
                let mut inner = hits & !leaf_slots;
                let leaf_hits = hits & leaf_slots;
                if leaf_hits != 0 {
                    for slot in slots(leaf_hits) {
                        if visitor.worth(keys[slot]) && visitor.leaf(node.children[slot] & !LEAF_BIT).is_break() {
                            return;
                        }
                    }
                    inner = slots(inner)
                        .filter(|&slot| visitor.worth(keys[slot]))
                        .fold(0, |kept, slot| kept | 1 << slot);
                }
                if inner != 0 {
                    let first = inner.trailing_zeros() as usize;
                    inner &= inner - 1;
                    if inner == 0 {
                        index = node.children[first];
                        continue 'walk;
                    }
                    // Two to four children, sorted farthest first by
                    // insertion.
                    let mut order = [(0u32, 0f32); 4];
                    let mut count = 0;
                    for slot in slots(inner | 1 << first) {
                        let entry = (node.children[slot], keys[slot]);
                        prefetch(&self.nodes[entry.0 as usize]);
                        let mut at = count;
                        while at > 0 && order[at - 1].1 < entry.1 {
                            order[at] = order[at - 1];
                            at -= 1;
                        }
                        order[at] = entry;
                        count += 1;
                    }
                    for &entry in &order[..count - 1] {
                        stack.push(entry);
                    }
                    index = order[count - 1].0;
                    continue 'walk;
                }
            }
            loop {
                let Some((next, key)) = stack.pop() else {
                    return;
                };
                if visitor.worth(key) {
                    index = next;
                    continue 'walk;
                }
            }
        }
    }

    /// [`Bvh::walk`] for a visitor with no order: each node's children in
    /// slot order, leaves visited at once, the first inner child to enter
    /// entered next and the others stacked (a walk down one path never
    /// goes through the stack).
    #[inline(always)]
    fn walk_unordered<V: Visitor>(&self, from: u32, mask: u64, visitor: &mut V) {
        let mut stack: TraversalStack<u32> = TraversalStack::new();
        let mut index = from;
        loop {
            let node = &self.nodes[index as usize];
            let mut next = NULL_NODE;
            if node.category & mask != 0 {
                let (hits, _) = visitor.test(node);
                for slot in slots(hits) {
                    let child = node.children[slot];
                    if is_leaf(child) {
                        if visitor.leaf(child & !LEAF_BIT).is_break() {
                            return;
                        }
                    } else if next == NULL_NODE {
                        next = child;
                    } else {
                        stack.push(child);
                    }
                }
            }
            if next == NULL_NODE {
                match stack.pop() {
                    Some(popped) => next = popped,
                    None => return,
                }
            }
            index = next;
        }
    }
}
