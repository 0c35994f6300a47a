//! The region query: every leaf whose box overlaps a box, the tree walked
//! with four SIMD overlap tests per node.

use core::ops::ControlFlow;

use crate::math::{Aabb, Vec4};

use super::node::{overlap_mask, splat_box, Node};
use super::walk::Visitor;
use super::{Bvh, Leaf, LeafData, NULL_NODE};

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
    pub fn query_proxies(&self, aabb: &Aabb, mask: u64, visit: impl FnMut(u32) -> ControlFlow<()>) {
        if self.root == NULL_NODE {
            return;
        }
        let (min, max) = splat_box(aabb);
        self.walk(self.root, mask, &mut RegionVisitor { min, max, visit });
    }
}

/// The region query as a walk: the children whose boxes overlap the
/// region's, in no particular order.
pub(super) struct RegionVisitor<F> {
    /// The region's box, splatted for [`overlap_mask`].
    pub(super) min: [Vec4; 3],
    pub(super) max: [Vec4; 3],
    pub(super) visit: F,
}

impl<F: FnMut(u32) -> ControlFlow<()>> Visitor for RegionVisitor<F> {
    const ORDERED: bool = false;

    #[inline(always)]
    fn test(&mut self, node: &Node) -> (u32, Vec4) {
        (overlap_mask(node, &self.min, &self.max), Vec4::ZERO)
    }

    #[inline(always)]
    fn worth(&self, _key: f32) -> bool {
        true
    }

    #[inline(always)]
    fn leaf(&mut self, proxy: u32) -> ControlFlow<()> {
        (self.visit)(proxy)
    }
}
