//! The region query: every leaf whose box overlaps a box, the tree walked
//! with four SIMD overlap tests per node.

use core::ops::ControlFlow;

use crate::math::{Aabb, Vec4};

use super::node::{overlap_mask, slots, splat_box, Node, SplatBox};
use super::walk::Visitor;
use super::{Bvh, Leaf, LeafData, NULL_NODE};

impl<T: LeafData> Bvh<T> {
    /// Calls `visit(proxy, leaf)` for every leaf whose slot box overlaps
    /// `aabb` (closed) below a node with a category in `mask`, until it
    /// answers `Break`.
    pub fn query(&self, aabb: &Aabb, mask: u64, mut visit: impl FnMut(u32, &Leaf<T>) -> ControlFlow<()>) {
        self.query_proxies(aabb, mask, |proxy| visit(proxy, &self.leaves[proxy as usize]));
    }

    /// [`Bvh::query`] without reading the leaves: calls `visit(proxy)` for
    /// every leaf whose slot box overlaps `aabb`, from the boxes in the nodes
    /// alone. For a caller that reads the leaves later, in a loop that can
    /// fetch several at once (the pair cache).
    pub fn query_proxies(&self, aabb: &Aabb, mask: u64, visit: impl FnMut(u32) -> ControlFlow<()>) {
        if self.root == NULL_NODE {
            return;
        }
        let mut visitor = RegionVisitor::<_, fn(u32) -> bool>::new(splat_box(aabb), None, visit);
        self.walk(self.root, mask, &mut visitor);
    }
}

/// The region query as a walk: the children whose boxes overlap the
/// region's and, with a `live` filter, that it keeps (the pair search's
/// leaf against a subtree enters only live children), in no particular
/// order.
pub(super) struct RegionVisitor<'a, F, L> {
    /// The region's box, splatted for [`overlap_mask`].
    min: [Vec4; 3],
    max: [Vec4; 3],
    live: Option<&'a L>,
    visit: F,
}

impl<'a, F: FnMut(u32) -> ControlFlow<()>, L: Fn(u32) -> bool> RegionVisitor<'a, F, L> {
    /// The walk over the leaves overlapping `region` (splatted), through
    /// the children `live` keeps (every one without it), calling
    /// `visit(proxy)`.
    #[inline(always)]
    pub(super) fn new((min, max): SplatBox, live: Option<&'a L>, visit: F) -> Self {
        Self { min, max, live, visit }
    }
}

impl<F: FnMut(u32) -> ControlFlow<()>, L: Fn(u32) -> bool> Visitor for RegionVisitor<'_, F, L> {
    const ORDERED: bool = false;

    #[inline(always)]
    fn test(&mut self, node: &Node) -> (u32, Vec4) {
        let hits = overlap_mask(node, &self.min, &self.max);
        let Some(live) = self.live else {
            return (hits, Vec4::ZERO);
        };
        let kept = slots(hits)
            .filter(|&j| live(node.children[j]))
            .fold(0, |mask, j| mask | 1 << j);
        (kept, Vec4::ZERO)
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
