//! The segment cast: the tree walked front to back, four slab tests per
//! node.

use core::ops::ControlFlow;

use crate::math::{Vec3, Vec3A, Vec4};

use super::node::Node;
use super::walk::Visitor;
use super::{Bvh, Leaf, LeafData, NULL_NODE};

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
    /// The direction's octant: bit `axis` set when the segment moves
    /// towards −axis, so that it enters a slab by its maximum.
    octant: usize,
    /// Whether any axis is parallel: only then does a test take the slower,
    /// general path.
    any_parallel: bool,
    /// The segment's extent on each axis, for the parallel axes.
    span_lo: [Vec4; 3],
    span_hi: [Vec4; 3],
}

impl SlabRay {
    fn new(start: Vec3, end: Vec3) -> Self {
        let (start, end) = (Vec3A::from(start), Vec3A::from(end));
        let d = end - start;
        let parallel = d.abs().cmplt(Vec3A::splat(1e-30));
        let inv = Vec3A::select(parallel, Vec3A::ZERO, Vec3A::ONE / d);
        let (lo, hi) = (start.min(end), start.max(end));
        let splat = |v: Vec3A| [Vec4::splat(v.x), Vec4::splat(v.y), Vec4::splat(v.z)];
        Self {
            origin: splat(start),
            inv: splat(inv),
            parallel: [parallel.test(0), parallel.test(1), parallel.test(2)],
            octant: d.is_negative_bitmask() as usize,
            any_parallel: parallel.any(),
            span_lo: splat(lo),
            span_hi: splat(hi),
        }
    }

    /// The parameters at which the segment crosses the four slabs of a
    /// moving axis: `(bound − origin) / d`, entry and exit. The entry plane
    /// is known from the direction's octant `OCTANT` (Williams et al., "An
    /// Efficient and Robust Ray-Box Intersection Algorithm", 2005), so no
    /// `min` and `max` sort the two: with a finite reciprocal, rounding
    /// keeps the order of the bounds, so the result is the same to the bit.
    #[inline]
    fn crossings<const OCTANT: usize>(&self, node: &Node, axis: usize) -> (Vec4, Vec4) {
        let entry = (OCTANT >> axis) & 1;
        let t_entry = (node.bounds[entry][axis] - self.origin[axis]) * self.inv[axis];
        let t_exit = (node.bounds[1 - entry][axis] - self.origin[axis]) * self.inv[axis];
        (t_entry, t_exit)
    }

    /// The entry and exit parameters of the four slabs of one axis, moving
    /// or parallel.
    #[inline]
    fn slab<const OCTANT: usize>(&self, node: &Node, axis: usize) -> (Vec4, Vec4) {
        if !self.parallel[axis] {
            return self.crossings::<OCTANT>(node, axis);
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
    fn entry_exit<const OCTANT: usize>(&self, node: &Node) -> (Vec4, Vec4) {
        let ((x0, x1), (y0, y1), (z0, z1)) = if self.any_parallel {
            (
                self.slab::<OCTANT>(node, 0),
                self.slab::<OCTANT>(node, 1),
                self.slab::<OCTANT>(node, 2),
            )
        } else {
            (
                self.crossings::<OCTANT>(node, 0),
                self.crossings::<OCTANT>(node, 1),
                self.crossings::<OCTANT>(node, 2),
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
    fn test<const OCTANT: usize>(&self, node: &Node, t_max: f32) -> (u32, Vec4) {
        let (near, far) = self.entry_exit::<OCTANT>(node);
        let near = near.max(Vec4::ZERO);
        let far = far.min(Vec4::splat(t_max));
        (near.cmple(far * SLAB_SLACK).bitmask(), near)
    }
}

impl<T: LeafData> Bvh<T> {
    /// Walks the tree front to back along the segment from `start` to `end`
    /// (`t ∈ [0, 1]`), calling `hit_leaf` for every leaf whose slot box the
    /// segment may touch before the closest hit so far, skipping subtrees
    /// with no category in `mask`. `hit_leaf` runs the exact test and
    /// answers `Continue(Some(t))` for a hit at `t`, which shortens the rest
    /// of the walk, `Continue(None)` for a miss, or `Break(())` to end the
    /// walk. Allocates nothing.
    pub fn cast(
        &self,
        start: Vec3,
        end: Vec3,
        mask: u64,
        hit_leaf: impl FnMut(&Leaf<T>) -> ControlFlow<(), Option<f32>>,
    ) {
        if self.root == NULL_NODE {
            return;
        }
        let ray = SlabRay::new(start, end);
        // One copy of the walk per octant, each reading a node's entry and
        // exit planes with no test of the sign (see [`SlabRay::crossings`]).
        let leaves = &self.leaves[..];
        match ray.octant {
            0 => self.walk(
                self.root,
                mask,
                &mut CastVisitor::<T, _, 0>::new(&ray, leaves, hit_leaf),
            ),
            1 => self.walk(
                self.root,
                mask,
                &mut CastVisitor::<T, _, 1>::new(&ray, leaves, hit_leaf),
            ),
            2 => self.walk(
                self.root,
                mask,
                &mut CastVisitor::<T, _, 2>::new(&ray, leaves, hit_leaf),
            ),
            3 => self.walk(
                self.root,
                mask,
                &mut CastVisitor::<T, _, 3>::new(&ray, leaves, hit_leaf),
            ),
            4 => self.walk(
                self.root,
                mask,
                &mut CastVisitor::<T, _, 4>::new(&ray, leaves, hit_leaf),
            ),
            5 => self.walk(
                self.root,
                mask,
                &mut CastVisitor::<T, _, 5>::new(&ray, leaves, hit_leaf),
            ),
            6 => self.walk(
                self.root,
                mask,
                &mut CastVisitor::<T, _, 6>::new(&ray, leaves, hit_leaf),
            ),
            _ => self.walk(
                self.root,
                mask,
                &mut CastVisitor::<T, _, 7>::new(&ray, leaves, hit_leaf),
            ),
        }
    }
}

/// The cast as a walk: slab tests against `[0, t_max]`, entry `t`s as
/// keys, and `t_max` shrinking at every hit.
struct CastVisitor<'a, T, F, const OCTANT: usize> {
    ray: &'a SlabRay,
    leaves: &'a [Leaf<T>],
    hit_leaf: F,
    t_max: f32,
}

impl<'a, T, F, const OCTANT: usize> CastVisitor<'a, T, F, OCTANT> {
    #[inline(always)]
    fn new(ray: &'a SlabRay, leaves: &'a [Leaf<T>], hit_leaf: F) -> Self {
        Self {
            ray,
            leaves,
            hit_leaf,
            t_max: 1.0,
        }
    }
}

impl<T, F, const OCTANT: usize> Visitor for CastVisitor<'_, T, F, OCTANT>
where
    F: FnMut(&Leaf<T>) -> ControlFlow<(), Option<f32>>,
{
    const ORDERED: bool = true;

    #[inline(always)]
    fn test(&mut self, node: &Node) -> (u32, Vec4) {
        self.ray.test::<OCTANT>(node, self.t_max)
    }

    #[inline(always)]
    fn worth(&self, key: f32) -> bool {
        may_beat(key, self.t_max)
    }

    #[inline(always)]
    fn leaf(&mut self, proxy: u32) -> ControlFlow<()> {
        match (self.hit_leaf)(&self.leaves[proxy as usize]) {
            ControlFlow::Continue(Some(t)) => self.t_max = self.t_max.min(t),
            ControlFlow::Continue(None) => {}
            ControlFlow::Break(()) => return ControlFlow::Break(()),
        }
        ControlFlow::Continue(())
    }
}
