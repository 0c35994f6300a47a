//! Persistent sweep and prune (Baraff 1992; Ericson §7.5.1), run in the
//! cells of a coarse grid across the sweep axis: the boxes' intervals on
//! one axis, sorted, swept to find the pairs whose intervals overlap, which
//! are then tested on the other axes.
//!
//! - One sweep over a whole 3D scene meets, for each box, every box whose
//!   interval on the sweep axis overlaps its own: on uniform-100k about 940
//!   of them, of which one overlaps on the other axes too. So each box is
//!   entered in the cells it overlaps of a grid across the sweep axis, and
//!   each cell is swept on its own (PhysX's multi-box pruning and Bullet's
//!   multi-SAP cut the world into regions for the same reason). A pair met
//!   in several cells is reported from one: the cell holding the lower
//!   corner of the two boxes' overlap across the sweep axis. A cell is at
//!   least twice as wide as 90 % of the boxes, so most boxes are in one to
//!   four cells; a box reaching more is swept among the other wide ones
//!   and against the cells it reaches.
//! - The arrays persist between calls (a call in steady state allocates
//!   nothing); each call enters the boxes in their cells anew and sorts the
//!   entries by cell and lower bound on the sweep axis with a radix sort,
//!   linear in the entries however much moved. (An insertion sort from the
//!   last call's order is linear only for a coherent frame, and a box
//!   crossing into the next row of cells moves its entry past a whole row.)
//! - The axis is the one along which the box centres spread most (largest
//!   variance, Ericson §7.5.1), re-chosen when another axis' variance grows
//!   past 1.5× the current one's, so a scene whose boxes all overlap on x
//!   (the `column-10k` benchmark scene) sweeps along y or z instead of
//!   degenerating to O(n²).
//! - The sweep loops read plain `f32` arrays (structure of arrays) and
//!   touch a collider only for a candidate that passes all three axes,
//!   after the sweep, in a loop that fetches ahead.

use core::ops::Range;

use crate::broad::radix_sort::{self, SortScratch};
use crate::broad::Pair;
use crate::broad::{overlapping_pair, PairData};
use crate::collider::{ColliderKey, Colliders};
use crate::math::total_order_bits;
use crate::prefetch::{for_each_fetching_ahead, prefetch};

/// How much larger another axis' variance must be before the sweep moves
/// to it (hysteresis, so the axis does not flip every frame).
const AXIS_SWITCH_RATIO: f64 = 1.5;

/// Cells per grid axis at most: a cell coordinate is clamped to
/// `0..GRID_CELLS`, so a cell's id stays below 2³⁰.
const GRID_CELLS: u32 = 1 << 15;

/// The share of boxes a cell is made at least twice as wide as.
const FITTING_SHARE: f64 = 0.9;

/// Cell widths are powers of `2^(1/4)`: a few steps between powers of two,
/// so a cell is not up to twice as wide as it needs to be, and few enough
/// that the grid stays the same from frame to frame.
const CELL_STEPS_PER_OCTAVE: f64 = 4.0;

/// The share of the boxes' lower corners, at each end of each axis across
/// the sweep, left out of the spread the grid must cover.
const OUTLIER_SHARE: f64 = 0.01;

/// How many boxes, evenly strided, the grid's width and spread are taken
/// from.
const GRID_SAMPLE: usize = 1024;

/// The widest cell: wider than any `f32` box, and finite.
const MAX_CELL: f64 = 1.0e300;

/// A box overlapping more cells than this is wide: swept apart.
const MAX_CELLS_PER_BOX: u32 = 4;

/// The cell id of the wide boxes' entries, after every cell's.
const WIDE: u32 = u32::MAX;

/// A square grid across the sweep axis, on its two other axes `(u, v)`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Grid {
    /// The lower corner of cell `(0, 0)`, a multiple of `cell`.
    origin: [f64; 2],
    /// The width of a cell, a power of `2^(1/4)`.
    cell: f64,
    /// Cells along `u` (the row length of the cell ids), at most
    /// [`GRID_CELLS`].
    columns: u32,
}

impl Default for Grid {
    fn default() -> Self {
        Self {
            origin: [0.0; 2],
            cell: 1.0,
            columns: 1,
        }
    }
}

impl Grid {
    /// The cell coordinate of `x` on grid axis `k`: `⌊(x − origin)/cell⌋`,
    /// clamped to the grid. Monotone in `x`, which is all the pair finding
    /// relies on: a point inside a box is in one of the box's cells.
    fn coordinate(&self, x: f32, k: usize) -> u32 {
        // Clamped first, then truncated: on the non-negative values left,
        // truncation is the floor.
        let c = (f64::from(x) - self.origin[k]) / self.cell;
        c.clamp(0.0, f64::from(GRID_CELLS - 1)) as u32
    }

    /// The id of cell `(u, v)`, `u + v·columns`: row by row, dense, below
    /// 2³⁰.
    fn id(&self, u: u32, v: u32) -> u32 {
        u.min(self.columns - 1) + v * self.columns
    }

    /// The id of the cell holding the point `(u, v)`.
    fn cell_at(&self, u: f32, v: f32) -> u32 {
        self.id(self.coordinate(u, 0), self.coordinate(v, 1))
    }
}

/// The bounds of the entries in sweep order, one array per bound, named by
/// the sweep axis `s` and the two across it `(u, v)`.
#[derive(Debug, Default, Clone)]
struct Columns {
    min_s: Vec<f32>,
    max_s: Vec<f32>,
    /// The largest upper bound on the sweep axis of the entries of the run
    /// up to this one: where a box reaching a cell can start its scan.
    reach_s: Vec<f32>,
    min_u: Vec<f32>,
    max_u: Vec<f32>,
    min_v: Vec<f32>,
    max_v: Vec<f32>,
}

impl Columns {
    fn clear(&mut self) {
        for column in self.all_mut() {
            column.clear();
        }
    }

    fn all_mut(&mut self) -> [&mut Vec<f32>; 7] {
        [
            &mut self.min_s,
            &mut self.max_s,
            &mut self.reach_s,
            &mut self.min_u,
            &mut self.max_u,
            &mut self.min_v,
            &mut self.max_v,
        ]
    }

    fn capacity(&self) -> usize {
        self.min_s.capacity()
            + self.max_s.capacity()
            + self.reach_s.capacity()
            + self.min_u.capacity()
            + self.max_u.capacity()
            + self.min_v.capacity()
            + self.max_v.capacity()
    }

    /// Whether entries `i` and `j` overlap on the two axes across the sweep.
    #[inline(always)]
    fn overlap_across(&self, i: usize, j: usize) -> bool {
        self.min_u[j] <= self.max_u[i]
            && self.min_u[i] <= self.max_u[j]
            && self.min_v[j] <= self.max_v[i]
            && self.min_v[i] <= self.max_v[j]
    }

    /// The lower corner of the overlap of entries `i` and `j` across the
    /// sweep axis, `(u, v)`.
    #[inline]
    fn overlap_corner(&self, i: usize, j: usize) -> (f32, f32) {
        (self.min_u[i].max(self.min_u[j]), self.min_v[i].max(self.min_v[j]))
    }

    /// Calls `emit(i, j)` for every two entries of `run` (sorted on the
    /// sweep axis) whose boxes overlap: the sweep.
    fn sweep(&self, run: Range<usize>, emit: &mut impl FnMut(usize, usize)) {
        for i in run.clone() {
            let end = self.max_s[i];
            for j in i + 1..run.end {
                if self.min_s[j] > end {
                    break;
                }
                if self.overlap_across(i, j) {
                    emit(i, j);
                }
            }
        }
    }
}

/// Sweep-and-prune pair finder; its arrays persist between calls, so a call
/// in steady state allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct SweepAndPrune {
    axis: usize,
    grid: Grid,
    /// The colliders, in the order of their tree leaves.
    keys: Vec<ColliderKey>,
    /// Per collider, in `keys` order: its bounds, and what a pair of two
    /// boxes needs besides (read with the bounds, so that such a pair is
    /// taken without reading its colliders again).
    min: [Vec<f32>; 3],
    max: [Vec<f32>; 3],
    pair_data: Vec<PairData>,
    /// The entries, `(cell, collider position in keys)`, sorted by cell and
    /// within a cell by lower bound on the sweep axis; the wide colliders'
    /// entries, `(WIDE, position)` (see `MAX_CELLS_PER_BOX`), sorted by
    /// lower bound, come after every cell's.
    entries: Vec<(u32, u32)>,
    /// The entries' bounds, in sweep order.
    columns: Columns,
    /// Each cell's entries: `(cell, first entry)`, by cell; the wide
    /// entries are the last run.
    runs: Vec<(u32, u32)>,
    /// Each row of cells' first run (by index in `runs`), up to the last
    /// row with a run, then the index of the runs' end (the wide run's).
    row_starts: Vec<u32>,
    /// The span of the cells' entries (all but the wide ones) on the sweep
    /// axis: a wide box outside it meets none of them.
    cells_span_s: (f32, f32),
    /// Reused buffers: the pairs of colliders (positions in `keys`) whose
    /// boxes overlap, before the colliders that are not boxes are read; the
    /// sampled widths and corners the grid is fitted to; the entries' radix
    /// sort; the pairs' radix sort.
    candidates: Vec<(u32, u32)>,
    samples: Vec<f32>,
    entries_scratch: SortScratch<(u32, u32)>,
    scratch: SortScratch<Pair>,
}

impl SweepAndPrune {
    /// Bytes held by the arrays (capacities).
    pub fn memory_bytes(&self) -> usize {
        use core::mem::size_of;
        let key = size_of::<ColliderKey>();
        self.keys.capacity() * key
            + self.candidates.capacity() * 8
            + self.pair_data.capacity() * size_of::<PairData>()
            + self.entries.capacity() * 8
            + self.runs.capacity() * 8
            + self.row_starts.capacity() * 4
            + (self.columns.capacity() + self.samples.capacity()) * 4
            + self.entries_scratch.memory_bytes()
            + self.scratch.memory_bytes()
            + self
                .min
                .iter()
                .chain(&self.max)
                .map(|v| v.capacity() * 4)
                .sum::<usize>()
    }

    /// Replaces `pairs` by every overlapping pair whose filters interact,
    /// as `(a, b)` with `a < b`, sorted: the same set and order as
    /// [`naive::for_each_pair`](crate::broad::naive::for_each_pair).
    pub fn find_pairs(&mut self, colliders: Colliders<'_>, pairs: &mut Vec<Pair>) {
        self.refresh(colliders);
        let mut candidates = core::mem::take(&mut self.candidates);
        candidates.clear();
        let (columns, grid, entries) = (&self.columns, &self.grid, &self.entries);
        let key = |entry: usize| entries[entry].1;
        for r in 0..self.runs.len() {
            let (cell, run) = (self.runs[r].0, self.run(r));
            if cell == WIDE {
                // Wide boxes against each other: each pair once, here.
                columns.sweep(run.clone(), &mut |i, j| candidates.push((key(i), key(j))));
                for wide in run {
                    self.sweep_wide_against_cells(wide, &mut |i, j| candidates.push((key(i), key(j))));
                }
            } else {
                // Two boxes that share several cells meet in each: the
                // pair is taken in the cell of their overlap's corner.
                columns.sweep(run, &mut |i, j| {
                    let (u, v) = columns.overlap_corner(i, j);
                    if grid.cell_at(u, v) == cell {
                        candidates.push((key(i), key(j)));
                    }
                });
            }
        }
        self.resolve_candidates(colliders, &candidates, pairs);
        self.candidates = candidates;
        radix_sort::sort_by_u64_key(pairs, &mut self.scratch, Pair::order_key);
    }

    /// Pushes to `pairs` (cleared first) every candidate pair (colliders,
    /// by position in `keys`, whose boxes overlap) whose filters interact
    /// and shapes overlap ([`overlapping_pair`]), as `(a, b)` with `a < b`.
    /// Two boxes are taken as they are; for the other shapes the colliders
    /// are read, asked for ahead of their turn ([`for_each_fetching_ahead`]): they lie
    /// scattered across memory, and this loop, unlike the sweep, lets the
    /// loads overlap.
    fn resolve_candidates(&self, colliders: Colliders<'_>, candidates: &[(u32, u32)], pairs: &mut Vec<Pair>) {
        pairs.clear();
        let both_exact = |p: u32, q: u32| self.pair_data[p as usize].exact && self.pair_data[q as usize].exact;
        let side = |p: u32| (self.keys[p as usize], &self.pair_data[p as usize]);
        let fetch = |(p, q): (u32, u32)| {
            if !both_exact(p, q) {
                prefetch(&colliders.records[self.keys[p as usize]]);
                prefetch(&colliders.records[self.keys[q as usize]]);
            }
        };
        for_each_fetching_ahead(candidates, fetch, |(p, q)| {
            pairs.extend(overlapping_pair(side(p), side(q), colliders).map(|(pair, _)| pair));
        });
    }

    /// The entries of run `r` (one cell's, or the wide ones), in sweep order.
    fn run(&self, r: usize) -> Range<usize> {
        let end = self
            .runs
            .get(r + 1)
            .map_or(self.entries.len(), |&(_, start)| start as usize);
        self.runs[r].1 as usize..end
    }

    /// Calls `emit(wide, j)` for every entry `j` of a cell whose box
    /// overlaps the wide entry `wide`'s, taken in the cell of their
    /// overlap's corner. The cells are those `wide` overlaps, row by row
    /// (each row's runs found by `row_starts`, the first in the row by
    /// binary search). A cell whose entries
    /// all end before `wide` starts on the sweep axis, or start after it
    /// ends, is passed over; in the others, the entries from the first whose
    /// run so far reaches `wide`'s lower bound (by binary search on
    /// `reach_s`) to the last that starts before its upper bound.
    fn sweep_wide_against_cells(&self, wide: usize, emit: &mut impl FnMut(usize, usize)) {
        let (c, grid) = (&self.columns, &self.grid);
        let (low, high) = self.cells_span_s;
        if c.max_s[wide] < low || c.min_s[wide] > high {
            return;
        }
        let (u0, u1) = (
            grid.coordinate(c.min_u[wide], 0),
            grid.coordinate(c.max_u[wide], 0).min(grid.columns - 1),
        );
        let (v0, v1) = (grid.coordinate(c.min_v[wide], 1), grid.coordinate(c.max_v[wide], 1));
        // Rows past the last with a run have none (`row_starts` ends with
        // the runs' end).
        let last_row = (self.row_starts.len() as u32).saturating_sub(2);
        for v in v0..=v1.min(last_row) {
            let (row_start, row_end) = (
                self.row_starts[v as usize] as usize,
                self.row_starts[v as usize + 1] as usize,
            );
            let (first_cell, last_cell) = (grid.id(u0, v), grid.id(u1, v));
            let first = row_start + self.runs[row_start..row_end].partition_point(|&(cell, _)| cell < first_cell);
            for r in first..row_end {
                let cell = self.runs[r].0;
                if cell > last_cell {
                    break;
                }
                self.sweep_wide_against_run(wide, cell, self.run(r), emit);
            }
        }
    }

    /// [`SweepAndPrune::sweep_wide_against_cells`] in one cell, `cell`,
    /// whose entries are `run`.
    fn sweep_wide_against_run(&self, wide: usize, cell: u32, run: Range<usize>, emit: &mut impl FnMut(usize, usize)) {
        let (c, grid) = (&self.columns, &self.grid);
        if c.min_s[run.start] > c.max_s[wide] || c.reach_s[run.end - 1] < c.min_s[wide] {
            return;
        }
        let start = run.start + c.reach_s[run.clone()].partition_point(|&reach| reach < c.min_s[wide]);
        for j in start..run.end {
            if c.min_s[j] > c.max_s[wide] {
                break;
            }
            if c.min_s[wide] <= c.max_s[j] && c.overlap_across(wide, j) {
                let (u, v) = c.overlap_corner(wide, j);
                if grid.cell_at(u, v) == cell {
                    emit(wide, j);
                }
            }
        }
    }

    /// Loads every collider's box and pair data from its tree leaf, in
    /// leaf order (the leaves are read in the order of memory; the pairs
    /// are sorted by key at the end), re-chooses the axis if it drifted
    /// and the grid, and sorts the entries.
    fn refresh(&mut self, colliders: Colliders<'_>) {
        self.keys.clear();
        for axis in 0..3 {
            self.min[axis].clear();
            self.max[axis].clear();
        }
        self.pair_data.clear();
        for leaf in colliders.bvh.live_leaves() {
            self.keys.push(leaf.data.key);
            for axis in 0..3 {
                self.min[axis].push(leaf.aabb.min[axis]);
                self.max[axis].push(leaf.aabb.max[axis]);
            }
            self.pair_data.push(PairData {
                exact: leaf.exact,
                filter: leaf.data.filter,
                user_data: leaf.data.user_data,
            });
        }
        let variance = self.centre_variance();
        let best = (0..3).max_by(|&a, &b| variance[a].total_cmp(&variance[b])).unwrap_or(0);
        if variance[best] > AXIS_SWITCH_RATIO * variance[self.axis] {
            self.axis = best;
        }
        self.grid = self.fitting_grid();
        self.enter_cells();
        self.sort_entries();
        self.load_columns();
    }

    /// The axes across the sweep axis, `(u, v)`.
    fn cross_axes(&self) -> (usize, usize) {
        ((self.axis + 1) % 3, (self.axis + 2) % 3)
    }

    /// The entries of every collider, in `keys` order: one per cell it
    /// overlaps, or one wide entry.
    fn enter_cells(&mut self) {
        let (u, v) = self.cross_axes();
        self.entries.clear();
        // 1.5–1.6 entries per box on the benchmark scenes.
        self.entries.reserve(2 * self.keys.len());
        for p in 0..self.keys.len() {
            let grid = &self.grid;
            let (u0, u1) = (grid.coordinate(self.min[u][p], 0), grid.coordinate(self.max[u][p], 0));
            let (v0, v1) = (grid.coordinate(self.min[v][p], 1), grid.coordinate(self.max[v][p], 1));
            if (u1 - u0 + 1) * (v1 - v0 + 1) > MAX_CELLS_PER_BOX {
                self.entries.push((WIDE, p as u32));
                continue;
            }
            for cv in v0..=v1 {
                for cu in u0..=u1 {
                    self.entries.push((grid.id(cu, cv), p as u32));
                }
            }
        }
    }

    /// Sorts the entries by cell, then by lower bound on the sweep axis:
    /// one radix sort on both (the cell id's bits above the bound's), and
    /// the runs of each cell's entries.
    fn sort_entries(&mut self) {
        let min_s = &self.min[self.axis];
        radix_sort::sort_by_u64_key(&mut self.entries, &mut self.entries_scratch, |&(cell, p)| {
            u64::from(cell) << 32 | u64::from(total_order_bits(min_s[p as usize]))
        });
        self.runs.clear();
        for (i, &(cell, _)) in self.entries.iter().enumerate() {
            if self.runs.last().is_none_or(|&(last, _)| last != cell) {
                self.runs.push((cell, i as u32));
            }
        }
        self.row_starts.clear();
        for (r, &(cell, _)) in self.runs.iter().enumerate() {
            if cell == WIDE {
                break;
            }
            while self.row_starts.len() <= (cell / self.grid.columns) as usize {
                self.row_starts.push(r as u32);
            }
        }
        let cells = self.runs.partition_point(|&(cell, _)| cell != WIDE);
        self.row_starts.push(cells as u32);
    }

    /// Gathers the entries' bounds into the columns, in sweep order.
    fn load_columns(&mut self) {
        let (s, (u, v)) = (self.axis, self.cross_axes());
        let entries = &self.entries;
        let c = &mut self.columns;
        c.clear();
        let gather = |column: &mut Vec<f32>, bounds: &[f32]| {
            column.extend(entries.iter().map(|&(_, p)| bounds[p as usize]));
        };
        gather(&mut c.min_s, &self.min[s]);
        gather(&mut c.max_s, &self.max[s]);
        gather(&mut c.min_u, &self.min[u]);
        gather(&mut c.max_u, &self.max[u]);
        gather(&mut c.min_v, &self.min[v]);
        gather(&mut c.max_v, &self.max[v]);
        let mut reach = f32::NEG_INFINITY;
        c.reach_s
            .extend(entries.iter().zip(&c.max_s).enumerate().map(|(i, (&(cell, _), &max))| {
                if i == 0 || entries[i - 1].0 != cell {
                    reach = f32::NEG_INFINITY;
                }
                reach = reach.max(max);
                reach
            }));
        let cells = entries.partition_point(|&(cell, _)| cell != WIDE);
        self.cells_span_s = (
            c.min_s[..cells].iter().copied().fold(f32::INFINITY, f32::min),
            c.max_s[..cells].iter().copied().fold(f32::NEG_INFINITY, f32::max),
        );
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

    /// The grid across the sweep axis for the current boxes: cells at least
    /// twice as wide as [`FITTING_SHARE`] of the boxes (their larger width on
    /// the two axes) and at least the spread of all but the outermost
    /// [`OUTLIER_SHARE`] of their lower corners over [`GRID_CELLS`], rounded
    /// up to a power of `2^(1/4)`, aligned to multiples of the cell below the
    /// lowest of those corners. The outliers fall into the edge cells (the
    /// coordinates clamp), where one box a billion units away would
    /// otherwise have made the cells so wide that the rest shared one. The
    /// rounding and the alignment keep the grid, and so the sweep order, the
    /// same from frame to frame.
    fn fitting_grid(&mut self) -> Grid {
        let (u, v) = self.cross_axes();
        let n = self.keys.len();
        if n == 0 {
            return Grid::default();
        }
        // The ranks are taken in an evenly strided sample of the boxes: the
        // grid is a guess at a good one (any grid finds the same pairs),
        // and selecting among every box cost a tenth of a call.
        let stride = n.div_ceil(GRID_SAMPLE);
        let sample = (0..n).step_by(stride);
        let m = sample.len();
        let samples = &mut self.samples;
        samples.clear();
        samples.extend(
            sample
                .clone()
                .map(|i| (self.max[u][i] - self.min[u][i]).max(self.max[v][i] - self.min[v][i])),
        );
        let width = rank_value(samples, ((m - 1) as f64 * FITTING_SHARE) as usize);
        let outliers = (m as f64 * OUTLIER_SHARE) as usize;
        let mut corner_range = |axis: usize| {
            samples.clear();
            samples.extend(sample.clone().map(|i| self.min[axis][i]));
            let low = rank_value(samples, outliers);
            let high = rank_value(samples, m - 1 - outliers);
            (f64::from(low), f64::from(high))
        };
        let ((low_u, high_u), (low_v, high_v)) = (corner_range(u), corner_range(v));
        let spread = (high_u - low_u).max(high_v - low_v);
        // Capped so that a width that overflows `f32` still gives a finite
        // cell (one holding every box).
        let wanted = (2.0 * f64::from(width))
            .max(spread / f64::from(GRID_CELLS))
            .min(MAX_CELL);
        let cell = if wanted > 0.0 {
            ((wanted.log2() * CELL_STEPS_PER_OCTAVE).ceil() / CELL_STEPS_PER_OCTAVE).exp2()
        } else {
            1.0
        };
        let mut grid = Grid {
            origin: [(low_u / cell).floor() * cell, (low_v / cell).floor() * cell],
            cell,
            columns: GRID_CELLS,
        };
        let highest_u = self.max[u].iter().copied().fold(f32::NEG_INFINITY, f32::max);
        grid.columns = grid.coordinate(highest_u, 0) + 1;
        grid
    }
}

/// The value of rank `rank` (from 0) among `values` by `f32::total_cmp`
/// (reorders them).
fn rank_value(values: &mut [f32], rank: usize) -> f32 {
    *values.select_nth_unstable_by(rank, f32::total_cmp).1
}
