//! The 4-wide node: four child boxes as structure of arrays, and the SIMD
//! overlap tests every walk runs on them.

use glam::Vec4Swizzles;

use crate::math::Aabb;
use crate::math::{Vec3, Vec4};

use super::NULL_NODE;

/// An empty slot's box: `min = max = +∞` fails every slab test without a
/// branch (`(+∞ − o)·inv` is `+∞` or `−∞` on both sides), and every overlap
/// test but against a box reaching +∞ on every axis, for which
/// `overlap_mask` masks empty slots out.
const EMPTY_BOUND: f32 = f32::INFINITY;

/// Four child boxes as structure of arrays, their children and the node's
/// parent: 128 bytes, two cache lines.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Node {
    /// `bounds[0][axis]` holds the four children's minima on `axis`,
    /// `bounds[1][axis]` their maxima.
    pub(super) bounds: [[Vec4; 3]; 2],
    /// A node index, `LEAF_BIT | leaf index`, or `NULL_NODE` for an empty slot.
    pub(super) children: [u32; 4],
    /// Union of the filter categories of every leaf below.
    pub(super) category: u64,
    /// The parent node, or `NULL_NODE` for the root (and free nodes).
    pub(super) parent: u32,
}

impl Node {
    pub(super) const EMPTY: Node = Node {
        bounds: [[Vec4::splat(EMPTY_BOUND); 3]; 2],
        children: [NULL_NODE; 4],
        category: 0,
        parent: NULL_NODE,
    };

    #[inline]
    pub(super) fn slot_box(&self, slot: usize) -> Aabb {
        // Lanes as arrays: an indexed load, where `Vec4`'s `Index` branches
        // on the lane.
        let lane = |v: &Vec4| AsRef::<[f32; 4]>::as_ref(v)[slot];
        let [min, max] = &self.bounds;
        Aabb::new(
            Vec3::new(lane(&min[0]), lane(&min[1]), lane(&min[2])),
            Vec3::new(lane(&max[0]), lane(&max[1]), lane(&max[2])),
        )
    }

    /// Slot `slot`'s box splatted for [`overlap_mask`]: `splat_box` of
    /// [`Node::slot_box`], each bound broadcast from its lane in a register.
    /// Through an `Aabb` the six lanes are stored one by one and loaded
    /// back four at a time, and each such load waits for the stores to
    /// retire (no store-to-load forwarding across several stores).
    #[inline]
    pub(super) fn slot_splat(&self, slot: usize) -> SplatBox {
        let lane = |v: &Vec4| Vec4::splat(AsRef::<[f32; 4]>::as_ref(v)[slot]);
        let [min, max] = &self.bounds;
        (min.each_ref().map(lane), max.each_ref().map(lane))
    }

    #[inline]
    pub(super) fn set_slot(&mut self, slot: usize, child: u32, aabb: &Aabb) {
        self.children[slot] = child;
        let [min, max] = &mut self.bounds;
        for (axis, (min, max)) in min.iter_mut().zip(max.iter_mut()).enumerate() {
            AsMut::<[f32; 4]>::as_mut(min)[slot] = aabb.min[axis];
            AsMut::<[f32; 4]>::as_mut(max)[slot] = aabb.max[axis];
        }
    }

    #[inline]
    pub(super) fn clear_slot(&mut self, slot: usize) {
        self.set_slot(
            slot,
            NULL_NODE,
            &Aabb::new(Vec3::splat(EMPTY_BOUND), Vec3::splat(EMPTY_BOUND)),
        );
    }

    /// The union of the occupied slots' boxes (`None` when all are empty).
    pub(super) fn bounds(&self) -> Option<Aabb> {
        (0..4)
            .filter(|&s| self.children[s] != NULL_NODE)
            .map(|s| self.slot_box(s))
            .reduce(|a, b| a.union(&b))
    }

    /// The slots holding a child, as a bit mask, by two SIMD instructions:
    /// read as floats, `NULL_NODE` (all ones) is a NaN, the one value not
    /// equal to itself, and no child is, since node and leaf indices stay
    /// below `MAX_LEAVES` = 2³⁰ (bit 30, the top exponent bit, is clear).
    #[inline]
    pub(super) fn occupied(&self) -> u32 {
        let children = self.children_as_floats();
        children.cmpeq(children).bitmask()
    }

    /// The slots holding a leaf (or empty: `NULL_NODE` has the leaf bit),
    /// as a bit mask: the leaf bit is the sign bit of the children read as
    /// floats, which one SIMD instruction gathers.
    #[inline]
    pub(super) fn leaf_slots(&self) -> u32 {
        self.children_as_floats().is_negative_bitmask()
    }

    /// The four children's bits read as floats (one load), for the slot
    /// masks above.
    #[inline]
    fn children_as_floats(&self) -> Vec4 {
        Vec4::from_array(self.children.map(f32::from_bits))
    }

    #[inline]
    pub(super) fn free_slot(&self) -> Option<usize> {
        self.children.iter().position(|&c| c == NULL_NODE)
    }

    #[inline]
    pub(super) fn slot_of(&self, child: u32) -> usize {
        // The four comparisons as one mask, with no branch per slot.
        let found = (0..4).fold(0u32, |found, slot| {
            found | u32::from(self.children[slot] == child) << slot
        });
        assert!(found != 0, "a child is in its parent's slots");
        found.trailing_zeros() as usize
    }
}

/// A box as [`overlap_mask`] takes it: each bound broadcast to four
/// lanes, minima by axis then maxima by axis.
pub(super) type SplatBox = ([Vec4; 3], [Vec4; 3]);

/// `aabb`'s corners splatted for [`overlap_mask`].
#[inline]
pub(super) fn splat_box(aabb: &Aabb) -> SplatBox {
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
pub(super) fn slots(mut mask: u32) -> impl Iterator<Item = usize> {
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
/// for every walk.
#[inline]
pub(super) fn overlap_mask(node: &Node, min: &[Vec4; 3], max: &[Vec4; 3]) -> u32 {
    let [node_min, node_max] = &node.bounds;
    let x = node_min[0].cmple(max[0]) & min[0].cmple(node_max[0]);
    let y = node_min[1].cmple(max[1]) & min[1].cmple(node_max[1]);
    let z = node_min[2].cmple(max[2]) & min[2].cmple(node_max[2]);
    (x & y & z).bitmask() & node.occupied()
}

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
/// tests, `a`'s four boxes against `b`'s rotated by zero to three slots
/// (lane `k` compares child `k` of `a` with child `k + r mod 4` of `b`),
/// each lane mask spread to its matrix bits by a table; then one mask, so
/// the walk branches per overlapping pair rather than per row.
#[inline]
pub(super) fn overlap_matrix(a: &Node, b: &Node) -> u32 {
    let ([a_min, a_max], [b_min, b_max]) = (&a.bounds, &b.bounds);
    let against_rotated = |rotate: fn(Vec4) -> Vec4| {
        let overlap = |axis: usize| a_min[axis].cmple(rotate(b_max[axis])) & rotate(b_min[axis]).cmple(a_max[axis]);
        (overlap(0) & overlap(1) & overlap(2)).bitmask() as usize
    };
    let bits = PAIRS_SAME_SLOT[against_rotated(|v| v)]
        | PAIRS_ONE_SLOT_ON[against_rotated(|v| v.yzwx())]
        | PAIRS_TWO_SLOTS_ON[against_rotated(|v| v.zwxy())]
        | PAIRS_THREE_SLOTS_ON[against_rotated(|v| v.wxyz())];
    bits & ROWS_OF_SLOTS[a.occupied() as usize] & (b.occupied() * 0x1111)
}

/// The bits `4k + (k + r mod 4)` of an [`overlap_matrix`] that lane `k`
/// gives when `b`'s boxes are rotated by `r` slots: `r` = 0 to 3.
const PAIRS_SAME_SLOT: [u32; 16] = lane_pairs([0, 5, 10, 15]);
const PAIRS_ONE_SLOT_ON: [u32; 16] = lane_pairs([1, 6, 11, 12]);
const PAIRS_TWO_SLOTS_ON: [u32; 16] = lane_pairs([2, 7, 8, 13]);
const PAIRS_THREE_SLOTS_ON: [u32; 16] = lane_pairs([3, 4, 9, 14]);

/// The bits `4i + j` (`i < j`) of an [`overlap_matrix`] for the pair of
/// children that lane `k` of a node's boxes, tested against the boxes
/// rotated by one slot, compares: `k` with `k + 1 mod 4`.
const PAIRS_ONE_SLOT_APART: [u32; 16] = lane_pairs([1, 6, 11, 3]);

/// The same for the boxes rotated by two slots: lanes 0 and 1 compare
/// children 0 with 2 and 1 with 3; lanes 2 and 3 repeat them.
const PAIRS_TWO_SLOTS_APART: [u32; 16] = lane_pairs([2, 7, NO_PAIR, NO_PAIR]);

/// A lane that gives no matrix bit in [`lane_pairs`].
const NO_PAIR: u32 = 32;

/// For each 4-bit lane mask, the union of the matrix bits `bit_of_lane`
/// gives its set lanes ([`NO_PAIR`] for a lane that repeats another).
const fn lane_pairs(bit_of_lane: [u32; 4]) -> [u32; 16] {
    let mut table = [0; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut lane = 0;
        while lane < 4 {
            if mask >> lane & 1 == 1 && bit_of_lane[lane] < NO_PAIR {
                table[mask] |= 1 << bit_of_lane[lane];
            }
            lane += 1;
        }
        mask += 1;
    }
    table
}

/// [`overlap_matrix`] of a node against itself, above the diagonal: each
/// pair of distinct overlapping children once. Two SIMD tests where the
/// matrix takes four rows: the four boxes against themselves rotated by
/// one slot (pairs 01, 12, 23, 30), then by two (02, 13).
#[inline]
pub(super) fn self_overlap_matrix(node: &Node) -> u32 {
    let [min, max] = &node.bounds;
    let against_rotated = |rotate: fn(Vec4) -> Vec4| {
        let overlap = |axis: usize| min[axis].cmple(rotate(max[axis])) & rotate(min[axis]).cmple(max[axis]);
        (overlap(0) & overlap(1) & overlap(2)).bitmask() as usize
    };
    let bits =
        PAIRS_ONE_SLOT_APART[against_rotated(|v| v.yzwx())] | PAIRS_TWO_SLOTS_APART[against_rotated(|v| v.zwxy())];
    let occupied = node.occupied();
    bits & ROWS_OF_SLOTS[occupied as usize] & (occupied * 0x1111)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::bvh::leaf_child;

    /// `occupied` and `leaf_slots` read the slots right for every kind of
    /// child, the largest indices the world allows included.
    #[test]
    fn slot_masks_tell_empty_node_and_leaf_slots_apart() {
        let largest = (crate::bvh::MAX_LEAVES - 1) as u32;
        let mut node = Node::EMPTY;
        assert_eq!((node.occupied(), node.leaf_slots()), (0b0000, 0b1111));
        node.children = [0, leaf_child(largest), NULL_NODE, largest];
        assert_eq!((node.occupied(), node.leaf_slots()), (0b1011, 0b0110));
        node.children = [leaf_child(0), NULL_NODE, 1, leaf_child(7)];
        assert_eq!((node.occupied(), node.leaf_slots()), (0b1101, 0b1011));
    }

    /// Bit `4i + j` of an [`overlap_matrix`] for `i < j`: the pairs of
    /// distinct children of one node, each once.
    const ABOVE_DIAGONAL: u32 = 0b0000_1000_1100_1110;

    /// A slot's box on a small grid, so that boxes touch, overlap and miss
    /// (zero-width ones included), or an empty slot.
    fn grid_box() -> impl Strategy<Value = Option<Aabb>> {
        let cell = [0u8..5, 0u8..5, 0u8..5];
        proptest::option::of((cell.clone(), cell).prop_map(|(corner, size)| {
            let corner = Vec3::from(corner.map(f32::from));
            Aabb::new(corner, corner + Vec3::from(size.map(f32::from)))
        }))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// A node against itself by rotations gives the matrix's bits above
        /// the diagonal, for every occupancy.
        #[test]
        fn self_overlap_matrix_is_the_matrix_above_the_diagonal(boxes in proptest::array::uniform4(grid_box())) {
            let mut node = Node::EMPTY;
            for (slot, aabb) in boxes.iter().enumerate() {
                if let Some(aabb) = aabb {
                    node.set_slot(slot, slot as u32, aabb);
                }
            }
            prop_assert_eq!(self_overlap_matrix(&node), overlap_matrix(&node, &node) & ABOVE_DIAGONAL);
        }

        /// Bit `4i + j` of the matrix is set exactly when slots `i` of `a`
        /// and `j` of `b` are occupied and their boxes overlap, as the
        /// boxes' own test says.
        #[test]
        fn overlap_matrix_is_the_slot_by_slot_test(
            a in proptest::array::uniform4(grid_box()),
            b in proptest::array::uniform4(grid_box()),
        ) {
            let node = |boxes: &[Option<Aabb>; 4]| {
                let mut node = Node::EMPTY;
                for (slot, aabb) in boxes.iter().enumerate() {
                    if let Some(aabb) = aabb {
                        node.set_slot(slot, slot as u32, aabb);
                    }
                }
                node
            };
            let mut expected = 0;
            for (i, box_a) in a.iter().enumerate() {
                for (j, box_b) in b.iter().enumerate() {
                    if let (Some(box_a), Some(box_b)) = (box_a, box_b) {
                        expected |= u32::from(box_a.intersects_aabb(box_b)) << (4 * i + j);
                    }
                }
            }
            prop_assert_eq!(overlap_matrix(&node(&a), &node(&b)), expected);
        }
    }
}
