//! Persistent sweep and prune (Baraff 1992; Ericson §7.5.1): the boxes'
//! intervals on one axis, kept sorted between calls, swept to find the
//! pairs whose intervals overlap, which are then tested on the other axes.
//!
//! - The sorted order survives between calls; each call refreshes the
//!   intervals and restores the order by insertion sort, nearly linear when
//!   little moved since the last call (frame coherence).
//! - The axis is the one along which the box centres spread most (largest
//!   variance, Ericson §7.5.1), re-chosen when another axis' variance grows
//!   past 1.5× the current one's, so a scene whose boxes all overlap on x
//!   (the `column-10k` benchmark scene) sweeps along y or z instead of
//!   degenerating to O(n²).
//! - The sweep loop reads plain `f32` arrays (structure of arrays) and
//!   touches a collider only for a candidate that passes all three axes.

use slotmap::SlotMap;

use crate::broad::naive::overlaps;
use crate::broad::radix_sort::{self, SortScratch};
use crate::broad::Pair;
use crate::collider::{Collider, ColliderKey};

/// How much larger another axis' variance must be before the sweep moves
/// to it (hysteresis, so the axis does not flip every frame).
const AXIS_SWITCH_RATIO: f64 = 1.5;

/// Sweep-and-prune pair finder; its arrays persist between calls, so a call
/// in steady state allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct SweepAndPrune {
    axis: usize,
    /// Colliders in sweep order: by lower bound on `axis`, then key.
    keys: Vec<ColliderKey>,
    /// Per entry, in sweep order: bounds on the sweep axis and the two others.
    min: [Vec<f32>; 3],
    max: [Vec<f32>; 3],
    /// Colliders added since the last call, not yet in the arrays.
    added: Vec<ColliderKey>,
    /// The second buffer of the pairs' radix sort.
    scratch: SortScratch<Pair>,
}

impl SweepAndPrune {
    /// Bytes held by the arrays (capacities).
    pub fn memory_bytes(&self) -> usize {
        (self.keys.capacity() + self.added.capacity()) * core::mem::size_of::<ColliderKey>()
            + self.scratch.memory_bytes()
            + self
                .min
                .iter()
                .chain(&self.max)
                .map(|v| v.capacity() * 4)
                .sum::<usize>()
    }

    /// Registers a new collider; it joins the arrays at the next call.
    pub fn insert(&mut self, key: ColliderKey) {
        self.added.push(key);
    }

    /// Replaces `pairs` by every overlapping pair whose filters interact,
    /// as `(a, b)` with `a < b`, sorted: the same set and order as
    /// [`naive::for_each_pair`](crate::broad::naive::for_each_pair).
    pub fn find_pairs(&mut self, colliders: &SlotMap<ColliderKey, Collider>, pairs: &mut Vec<Pair>) {
        self.refresh(colliders);
        pairs.clear();
        let sweep = self.axis;
        let (u, v) = ((sweep + 1) % 3, (sweep + 2) % 3);
        let n = self.keys.len();
        for i in 0..n {
            let end = self.max[sweep][i];
            let (u_min, u_max, v_min, v_max) = (self.min[u][i], self.max[u][i], self.min[v][i], self.max[v][i]);
            let mut j = i + 1;
            while j < n && self.min[sweep][j] <= end {
                if self.min[u][j] <= u_max
                    && u_min <= self.max[u][j]
                    && self.min[v][j] <= v_max
                    && v_min <= self.max[v][j]
                {
                    let (key_a, key_b) = if self.keys[i] < self.keys[j] {
                        (self.keys[i], self.keys[j])
                    } else {
                        (self.keys[j], self.keys[i])
                    };
                    let (a, b) = (&colliders[key_a], &colliders[key_b]);
                    if overlaps(a, b) {
                        pairs.push(Pair {
                            a: key_a,
                            b: key_b,
                            user_a: a.user_data(),
                            user_b: b.user_data(),
                        });
                    }
                }
                j += 1;
            }
        }
        radix_sort::sort_by_u64_key(pairs, &mut self.scratch, Pair::order_key);
    }

    /// Drops removed colliders, adds new ones, reloads every box, re-chooses
    /// the axis if it drifted, and restores the sweep order.
    fn refresh(&mut self, colliders: &SlotMap<ColliderKey, Collider>) {
        let mut write = 0;
        for read in 0..self.keys.len() {
            let key = self.keys[read];
            if colliders.contains_key(key) {
                self.keys[write] = key;
                write += 1;
            }
        }
        self.keys.truncate(write);
        self.keys
            .extend(self.added.drain(..).filter(|&k| colliders.contains_key(k)));
        for axis in 0..3 {
            self.min[axis].clear();
            self.max[axis].clear();
        }
        for &key in &self.keys {
            let aabb = colliders[key].aabb();
            for axis in 0..3 {
                self.min[axis].push(aabb.min[axis]);
                self.max[axis].push(aabb.max[axis]);
            }
        }
        let variance = self.centre_variance();
        let best = (0..3).max_by(|&a, &b| variance[a].total_cmp(&variance[b])).unwrap_or(0);
        if variance[best] > AXIS_SWITCH_RATIO * variance[self.axis] {
            self.axis = best;
        }
        self.insertion_sort();
    }

    /// The variance of the box centres along each axis.
    fn centre_variance(&self) -> [f64; 3] {
        let n = self.keys.len() as f64;
        if n == 0.0 {
            return [0.0; 3];
        }
        core::array::from_fn(|axis| {
            let (mut sum, mut sum_squares) = (0.0f64, 0.0f64);
            for (lo, hi) in self.min[axis].iter().zip(&self.max[axis]) {
                let c = 0.5 * (f64::from(*lo) + f64::from(*hi));
                sum += c;
                sum_squares += c * c;
            }
            sum_squares / n - (sum / n) * (sum / n)
        })
    }

    /// Sorts the entries by `(min on the sweep axis, key)` by insertion
    /// sort: O(n + inversions), nearly linear for a coherent frame. After an
    /// axis change or a large jump it degrades gracefully up to O(n²), so a
    /// heavily disordered array is sorted by a full sort instead.
    fn insertion_sort(&mut self) {
        let axis = self.axis;
        let n = self.keys.len();
        let before = |a: (f32, ColliderKey), b: (f32, ColliderKey)| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1);
        let mut moves = 0usize;
        for i in 1..n {
            let entry = (self.min[axis][i], self.keys[i]);
            let mut j = i;
            while j > 0 && before(entry, (self.min[axis][j - 1], self.keys[j - 1])) {
                j -= 1;
            }
            if j < i {
                moves += i - j;
                self.rotate_entry(j, i);
            }
            if moves > 8 * n + 1024 {
                self.full_sort();
                return;
            }
        }
    }

    /// Moves entry `i` down to position `j < i`, shifting the others up.
    fn rotate_entry(&mut self, j: usize, i: usize) {
        self.keys[j..=i].rotate_right(1);
        for axis in 0..3 {
            self.min[axis][j..=i].rotate_right(1);
            self.max[axis][j..=i].rotate_right(1);
        }
    }

    /// Sorts all entries from scratch (O(n log n)).
    fn full_sort(&mut self) {
        let axis = self.axis;
        let mut order: Vec<usize> = (0..self.keys.len()).collect();
        order.sort_unstable_by(|&a, &b| {
            self.min[axis][a]
                .total_cmp(&self.min[axis][b])
                .then(self.keys[a].cmp(&self.keys[b]))
        });
        self.keys = order.iter().map(|&i| self.keys[i]).collect();
        for a in 0..3 {
            self.min[a] = order.iter().map(|&i| self.min[a][i]).collect();
            self.max[a] = order.iter().map(|&i| self.max[a][i]).collect();
        }
    }
}
