//! The top-down binned SAH build of the whole tree.

use crate::math::{total_order_bits, Aabb, Vec3A};

use super::{leaf_child, leaf_tree_box, Bvh, LeafData, NULL_NODE};

/// Bins per axis for the SAH build.
const SAH_BINS: usize = 16;

/// Parts of at most this many items are binned into [`SMALL_PART_BINS`]
/// bins per axis: for them the sweep over the bins (three axes, both ways)
/// costs more than binning the items, and fewer bins leave the tree as good
/// for casts and pairs.
const SMALL_PART: usize = 32;

/// Bins per axis for the parts of at most [`SMALL_PART`] items.
const SMALL_PART_BINS: usize = 8;

impl<T: LeafData> Bvh<T> {
    /// Rebuilds every node top-down by binned SAH over the live leaves
    /// (proxy ids stay valid): each node's range of leaves is split in two
    /// at the best SAH plane, and its largest part split again, until it has
    /// four parts; a range of at most four leaves becomes one node, its
    /// leaves side by side.
    pub fn rebuild(&mut self) {
        let items = self.live_items();
        self.build_nodes(items, false);
    }

    /// The build items of the live leaves, each with its proxy id.
    pub(super) fn live_items(&self) -> Vec<BuildItem> {
        let mut items = Vec::with_capacity(self.leaf_count);
        items.extend(
            self.leaves
                .iter()
                .enumerate()
                .filter(|(_, leaf)| leaf.node != NULL_NODE)
                .map(|(proxy, leaf)| BuildItem::new(&leaf.aabb, leaf.exact, proxy as u32)),
        );
        items
    }

    /// [`Bvh::rebuild`] over `items` (one per leaf of the tree to be,
    /// [`BuildItem::new`]); returns them with their proxies in tree order
    /// (each subtree's leaves together, depth first). With `by_position`,
    /// for a batch into an empty tree only ([`Bvh::insert_batch`]), a
    /// node's leaf child is its item's position (the leaf's id once the
    /// leaves are written in that order) and the leaf's node and slot go
    /// into its item, so the build reads and writes no leaf record.
    pub(super) fn build_nodes(&mut self, mut items: Vec<BuildItem>, by_position: bool) -> Vec<BuildItem> {
        self.updates = 0;
        self.tightenings = 0;
        self.insertions = 0;
        self.leaves_at_rebuild = self.leaf_count;
        self.nodes.clear();
        self.free_nodes.clear();
        self.root = NULL_NODE;
        if items.is_empty() {
            return items;
        }
        // Room for the nodes a build makes from scattered boxes (a node
        // holds two to four children; [`nodes_room`]). A build that needs
        // more grows the array by half (see `store`). Room left by an
        // earlier, larger tree is kept; a larger array replaces the old
        // one, freed first, where growing it would copy the cleared nodes.
        let room = nodes_room(items.len());
        if self.nodes.capacity() < room {
            self.nodes = Vec::new();
            self.nodes.reserve_exact(room);
        }
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
                if let Some(i) = too_big {
                    let (left, right) = sah_split(&mut items, parts[i]);
                    parts[i] = left;
                    parts[count] = right;
                    count += 1;
                    continue;
                }
                // Every part fits one node: the smallest part whose leaves
                // all fit the spare slots becomes those leaves, side by side
                // (splitting it in two until each part held one leaf, by up
                // to three median splits, put the same leaves in this node).
                let spare = 4 - count;
                let Some(i) = (0..count)
                    .filter(|&i| parts[i].len() >= 2 && parts[i].len() - 1 <= spare)
                    .min_by_key(|&i| parts[i].len())
                else {
                    break;
                };
                let small = parts[i];
                parts[i] = Part::of(&items, small.start, small.start + 1);
                for start in small.start + 1..small.end {
                    parts[count] = Part::of(&items, start, start + 1);
                    count += 1;
                }
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
    pub(super) fn gather_categories(&mut self) {
        for node in (0..self.nodes.len()).rev() {
            let n = &self.nodes[node];
            let category = n.children.iter().fold(0, |acc, &c| acc | self.category_of(c));
            self.nodes[node].category = category;
        }
    }
}

/// The nodes reserved for a build of `leaves` leaves: 0.45 per leaf, a
/// little over what builds of scattered boxes make (about 0.4: most nodes
/// hold four children), rather than the half per leaf of a tree of
/// two-leaf nodes, which a fitted array would only reach by copying every
/// node into a smaller one after the build (nodes are over-aligned, so the
/// allocator cannot shrink them in place).
fn nodes_room(leaves: usize) -> usize {
    leaves * 9 / 20 + 4
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

/// A leaf during a rebuild: its proxy and box, and (for a build that
/// numbers leaves by position) the node and slot it was placed in, in what
/// would otherwise be the item's padding: 48 bytes. The box's centre, which
/// the splits bin and partition by, is computed from the box where it is
/// needed (two vector operations), not kept: every level of the build
/// reads and moves every item.
#[derive(Debug, Clone, Copy)]
pub(super) struct BuildItem {
    aabb: Bounds,
    pub(super) proxy: u32,
    pub(super) node: u32,
    pub(super) slot: u8,
}

impl BuildItem {
    /// The item of the leaf `proxy` with the tight box `aabb` (the build
    /// places the box the tree holds for it, [`leaf_tree_box`], which has
    /// the tight box's centre).
    #[inline]
    pub(super) fn new(aabb: &Aabb, exact: bool, proxy: u32) -> Self {
        Self {
            aabb: Bounds::of(&leaf_tree_box(aabb, exact)),
            proxy,
            node: NULL_NODE,
            slot: 0,
        }
    }

    /// The centre of the item's box, `min/2 + max/2` (finite for every
    /// finite box, as [`Aabb::center`]).
    #[inline]
    fn center(&self) -> Vec3A {
        self.aabb.min * 0.5 + self.aabb.max * 0.5
    }

    /// The centre's coordinate on `axis` (< 3), by indexed loads, where
    /// `Vec3A`'s `Index` branches on the lane.
    #[inline]
    fn center_on(&self, axis: usize) -> f32 {
        let lane = |v: &Vec3A| AsRef::<[f32; 3]>::as_ref(v)[axis];
        lane(&self.aabb.min) * 0.5 + lane(&self.aabb.max) * 0.5
    }
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
            centers.grow(item.center());
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
/// The median is found by ranking integer keys, the centre's bits in
/// `f32::total_cmp`'s order above the item's position (at most
/// [`SAH_BINS`] plain integers, where selecting with comparisons reads the
/// items again at every step); the items of the lower half are then
/// gathered at the front by [`partition`].
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
        *key = u64::from(total_order_bits(item.center_on(axis))) << 32 | position as u64;
    }
    let half = n / 2;
    // Bit `p` set: the item at position `p` belongs to the lower half, its
    // key below those of at least `n − half` others (the keys are distinct).
    // Counting, for each key, the keys below it takes `n²` comparisons
    // with no branch, where a sort branches on each of its comparisons,
    // whose outcomes on scattered centres a predictor cannot guess.
    let lower = keys.iter().enumerate().fold(0u32, |mask, (position, &key)| {
        let rank = keys.iter().filter(|&&other| other < key).count();
        mask | u32::from(rank < half) << position
    });
    partition(range, |position, _| lower >> position & 1 == 1, |_, _| {});
    let mid = part.start + half;
    (Part::of(items, part.start, mid), Part::of(items, mid, part.end))
}

/// Reorders `range` so that the items `on_left` accepts come first, and
/// returns how many there are, by Lomuto's partition without a branch on
/// the side: the items before `left` are on the left, those from `left` to
/// `i` on the right, and each item in turn is swapped to `left`, which
/// advances by whether it belongs there (whether an item's centre lies
/// below a split plane is as good as random to a branch predictor: a
/// scheme that branches on it, as Hoare's does, mispredicts about once
/// per two items). `on_left` sees every item once, with its position
/// before any swap (an item is read before anything is swapped to its
/// position); `seen` is told every item's side.
#[inline]
fn partition(
    range: &mut [BuildItem],
    on_left: impl Fn(usize, &BuildItem) -> bool,
    mut seen: impl FnMut(&BuildItem, bool),
) -> usize {
    let mut left = 0;
    for i in 0..range.len() {
        let is_left = on_left(i, &range[i]);
        seen(&range[i], is_left);
        range.swap(left, i);
        left += usize::from(is_left);
    }
    left
}

/// The bins (`BINS` per axis) of a centre on the three axes, given its
/// position `x` in bin widths from the low end (`(c − lo)·scale`, in
/// `[0, BINS]`): `round(x − ½)` clamped to `[0, BINS − 1]`: `⌊x⌋`, but for whole `x`,
/// a tie, which rounds to even (any map that never decreases along an axis
/// serves, as long as binning and partitioning share it). Adding `1.5·2²³` leaves the
/// rounded value in the low mantissa bits, so the three axes take three
/// SIMD operations and no saturating float-to-integer conversion (a quarter
/// of a rebuild's instructions before).
#[inline]
fn bin_indices<const BINS: usize>(x: Vec3A) -> [usize; 3] {
    let below = x.clamp(Vec3A::ZERO, Vec3A::splat(bin_clamp(BINS))) - Vec3A::splat(0.5);
    let rounded = below + Vec3A::splat(BIN_ROUNDER);
    rounded.to_array().map(|v| (v.to_bits() & (BINS as u32 - 1)) as usize)
}

/// [`bin_indices`] on one axis, by the same operations in the same order
/// (`max`, then `min`, as `clamp` on vectors, so a NaN lands in bin 0 in
/// both), for the partition, which needs the split axis only.
#[inline]
#[allow(clippy::manual_clamp, reason = "`f32::clamp` keeps a NaN, the vector clamp does not")]
fn bin_index<const BINS: usize>(x: f32) -> usize {
    let below = x.max(0.0).min(bin_clamp(BINS)) - 0.5;
    let rounded = below + BIN_ROUNDER;
    (rounded.to_bits() & (BINS as u32 - 1)) as usize
}

/// `1.5·2²³`: added to a value in `[−½, 2²²]`, it leaves the value rounded to
/// an integer in the low mantissa bits.
const BIN_ROUNDER: f32 = 12_582_912.0;

/// The largest position binned among `bins` bins, just below the end of
/// the last one.
const fn bin_clamp(bins: usize) -> f32 {
    (bins - 1) as f32 + 0.99
}

// A bin is below the bin count, a power of two: masking with the count less
// one keeps the same value and tells the compiler no bounds check is needed.
const _: () = assert!(SAH_BINS.is_power_of_two() && SMALL_PART_BINS.is_power_of_two());

/// Splits a part in two and reorders its items so the left part comes
/// first; both parts are non-empty. Parts of at most [`SAH_BINS`] items
/// take [`median_split`], the others [`binned_split`], with
/// [`SMALL_PART_BINS`] bins up to [`SMALL_PART`] items and [`SAH_BINS`]
/// above.
fn sah_split(items: &mut [BuildItem], part: Part) -> (Part, Part) {
    match part.len() {
        n if n <= SAH_BINS => median_split(items, part),
        n if n <= SMALL_PART => binned_split::<SMALL_PART_BINS>(items, part),
        _ => binned_split::<SAH_BINS>(items, part),
    }
}

/// Splits a part in two by binned SAH over its centres, `BINS` bins per
/// axis (a power of two), and reorders its items so the left part comes
/// first; both parts are non-empty.
///
/// Each centre falls into one of the bins on each axis (one pass over the
/// items for all three axes); the split between bins `i − 1` and `i` costs
/// `area(left)·count(left) + area(right)·count(right)`, and the cheapest
/// split over the three axes wins. Coincident centres, or no split leaving
/// both sides non-empty, split in the middle of the range.
fn binned_split<const BINS: usize>(items: &mut [BuildItem], part: Part) -> (Part, Part) {
    let n = part.len();
    let range = &mut items[part.start..part.end];
    let lo = part.centers.min;
    let extent = part.centers.max - part.centers.min;
    // Bins per unit of length on each axis; 0 where the centres do not
    // spread (or the extent is NaN), which puts every centre in bin 0.
    let scale = Vec3A::select(
        extent.cmpgt(Vec3A::ZERO),
        Vec3A::splat(BINS as f32) / extent,
        Vec3A::ZERO,
    );
    let bins_of = |c: Vec3A| bin_indices::<BINS>((c - lo) * scale);
    let empty = Bounds::EMPTY;
    let mut bins = [[(empty, 0usize); BINS]; 3];
    for item in range.iter() {
        let item_bins = bins_of(item.center());
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
        let mut right_cost = [0.0f32; BINS];
        let (mut acc, mut acc_count) = (empty, 0);
        for i in (1..BINS).rev() {
            acc = acc.union(&axis_bins[i].0);
            acc_count += axis_bins[i].1;
            right_cost[i] = if acc_count == 0 {
                0.0
            } else {
                acc.surface_area() * acc_count as f32
            };
        }
        let (mut left, mut left_count) = (empty, 0);
        for i in 1..BINS {
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
    // Both sides' boxes are the unions of their bins on the split axis.
    // Their centres' bounds are gathered by the partition's one pass, the
    // left's at 0: an item grows the one its side indexes, with no branch
    // on the side.
    let (lo, scale) = (lo[axis], scale[axis]);
    let on_left = |_, item: &BuildItem| bin_index::<BINS>((item.center_on(axis) - lo) * scale) < split_bin;
    let mut centers = [empty, empty];
    let left_count = partition(range, on_left, |item, left| {
        centers[usize::from(!left)].grow(item.center());
    });
    let [left_centers, right_centers] = centers;
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

    /// `bin_indices` is `⌊x⌋` clamped to the bins but at whole `x`, never
    /// decreases along an axis, and puts every input, NaN and infinities
    /// included, into a bin: for both bin counts the build uses.
    #[test]
    fn bin_indices_floor_monotonic_and_in_range() {
        check_bin_indices::<SAH_BINS>();
        check_bin_indices::<SMALL_PART_BINS>();
    }

    fn check_bin_indices<const BINS: usize>() {
        let last = BINS - 1;
        let mut previous = [0; 3];
        for step in 0..=(BINS * 64) {
            let x = step as f32 / 64.0;
            let bins = bin_indices::<BINS>(Vec3A::new(x, x * 0.5, BINS as f32 - x));
            if x.fract() != 0.0 {
                assert_eq!(bins[0], (x.floor() as usize).min(last), "{BINS} bins, x = {x}");
            }
            assert!(bins[0] >= previous[0] && bins[1] >= previous[1], "{BINS} bins, x = {x}");
            if step > 0 {
                assert!(bins[2] <= previous[2], "{BINS} bins, x = {x}");
            }
            previous = bins;
        }
        for odd in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, 1e30] {
            assert!(
                bin_indices::<BINS>(Vec3A::splat(odd)).iter().all(|&b| b <= last),
                "{odd}"
            );
        }
    }

    /// The partition's one-axis bin is the binning's, lane for lane: on a
    /// fine grid over and beyond the bins, at every bin edge and beside it,
    /// and for the values that clamp (NaN, infinities, negative zero), for
    /// both bin counts the build uses.
    #[test]
    fn bin_index_agrees_with_bin_indices() {
        check_bin_index::<SAH_BINS>();
        check_bin_index::<SMALL_PART_BINS>();
    }

    fn check_bin_index<const BINS: usize>() {
        let edges = (0..=BINS).flat_map(|b| {
            let x = b as f32;
            [x.next_down(), x, x.next_up()]
        });
        let grid = (-64..=(BINS as i32 + 4) * 64).map(|step| step as f32 / 64.0);
        let odd = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
            1e30,
            -1e30,
            bin_clamp(BINS),
        ];
        for x in edges.chain(grid).chain(odd) {
            let lanes = bin_indices::<BINS>(Vec3A::new(x, -x, x * 3.0));
            let one = [bin_index::<BINS>(x), bin_index::<BINS>(-x), bin_index::<BINS>(x * 3.0)];
            assert_eq!(lanes, one, "{BINS} bins, x = {x}");
        }
    }

    /// A batch into an empty tree: each proxy returned names the leaf of
    /// its entry (box, payload, exactness), every subtree's leaves lie side
    /// by side (the build's order), and the tree is whole; on 1, 5 and
    /// 1,000 boxes.
    #[test]
    fn a_batch_into_an_empty_tree_keeps_each_entry_under_its_proxy() {
        use crate::bvh::{is_leaf, Leaf, LEAF_BIT};
        use crate::math::Vec3;
        for n in [1u32, 5, 1000] {
            // Boxes scattered by a multiplicative hash, some exact.
            let entry = |i: u32| {
                let h = i.wrapping_mul(2_654_435_761);
                let at = Vec3::new((h % 97) as f32, (h / 97 % 89) as f32, (h / 8633 % 83) as f32);
                Leaf::new(Aabb::new(at, at + Vec3::splat(1.0 + (i % 3) as f32)), i, i % 2 == 0)
            };
            let mut bvh: Bvh<u32> = Bvh::default();
            let proxies = bvh.insert_batch((0..n).map(entry).collect());
            assert_eq!(bvh.validate(), Ok(()), "{n} boxes");
            for (i, &proxy) in proxies.iter().enumerate() {
                let (leaf, expected) = (bvh.leaf(proxy), entry(i as u32));
                assert_eq!(
                    (leaf.data, leaf.exact, leaf.aabb),
                    (expected.data, expected.exact, expected.aabb),
                    "{n} boxes, entry {i}"
                );
            }
            // Each subtree's leaves are a run of consecutive proxies.
            fn run<T>(bvh: &Bvh<T>, child: u32) -> (u32, u32, u32) {
                if is_leaf(child) {
                    let proxy = child & !LEAF_BIT;
                    return (proxy, proxy, 1);
                }
                let children = bvh.nodes[child as usize].children;
                let runs = children.iter().filter(|&&c| c != NULL_NODE).map(|&c| run(bvh, c));
                let (first, last, count) = runs.fold((u32::MAX, 0, 0), |(f, l, n), (rf, rl, rn)| {
                    (f.min(rf), l.max(rl), n + rn)
                });
                assert_eq!(
                    last - first + 1,
                    count,
                    "node {child}: leaves {first}..={last}, {count} of them"
                );
                (first, last, count)
            }
            assert_eq!(run(&bvh, bvh.root), (0, n - 1, n), "{n} boxes");
        }
    }

    /// `partition` puts the items `on_left` accepts first and returns their
    /// count; `on_left` sees each item once, at its position before any
    /// swap, and `seen` each item once with its side; on every side pattern
    /// of up to 10 items, and on 1,000 items split by a hash.
    #[test]
    fn partition_puts_the_accepted_items_first() {
        use crate::math::Vec3;
        let items = |n: u32| -> Vec<BuildItem> {
            (0..n)
                .map(|i| BuildItem::new(&Aabb::new(Vec3::splat(i as f32), Vec3::splat(i as f32 + 1.0)), true, i))
                .collect()
        };
        let check = |n: u32, left_of: &dyn Fn(u32) -> bool| {
            let mut range = items(n);
            let mut seen_times = vec![0; n as usize];
            let mut told = vec![None; n as usize];
            let on_left = |position: usize, item: &BuildItem| {
                assert_eq!(item.proxy as usize, position, "asked before any swap");
                left_of(item.proxy)
            };
            let count = partition(&mut range, on_left, |item, left| {
                seen_times[item.proxy as usize] += 1;
                told[item.proxy as usize] = Some(left);
            });
            let expected: Vec<u32> = (0..n).filter(|&i| left_of(i)).collect();
            assert_eq!(count, expected.len());
            let mut front: Vec<u32> = range[..count].iter().map(|item| item.proxy).collect();
            front.sort_unstable();
            assert_eq!(front, expected);
            assert!(range[count..].iter().all(|item| !left_of(item.proxy)));
            assert!(seen_times.iter().all(|&times| times == 1));
            assert!((0..n).all(|i| told[i as usize] == Some(left_of(i))));
        };
        for n in 0..=10u32 {
            for pattern in 0..1u32 << n {
                check(n, &|i| pattern >> i & 1 == 1);
            }
        }
        check(1000, &|i| i.wrapping_mul(2_654_435_761) >> 31 == 1);
    }

    /// A level load reserves the nodes' room once, 0.45 per leaf, which
    /// a build of scattered boxes does not outgrow; the leaves are the
    /// batch's, with no room beside them.
    #[test]
    fn a_level_load_reserves_its_nodes_once() {
        use crate::bvh::{Bvh, Leaf};
        use crate::math::{Aabb, Vec3};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(0x2545_F491);
        let mut random = move || rng.random::<f32>();
        let n = 5000;
        let mut bvh: Bvh<u32> = Bvh::default();
        let leaves = (0..n)
            .map(|i| {
                let min = Vec3::new(random(), random(), random()) * 100.0;
                let size = Vec3::new(random(), random(), random()) * 3.0;
                Leaf::new(Aabb::new(min, min + size), i, true)
            })
            .collect();
        bvh.insert_batch(leaves);
        assert_eq!(bvh.nodes.capacity(), nodes_room(n as usize));
        assert!(bvh.nodes.len() <= bvh.nodes.capacity());
        assert_eq!(bvh.leaves.capacity(), bvh.leaves.len());
        bvh.rebuild();
        assert_eq!(bvh.nodes.capacity(), nodes_room(n as usize), "a rebuild keeps the room");
        bvh.validate().unwrap();
    }
}
