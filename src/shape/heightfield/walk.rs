//! The three walks of a height field over its pyramid: the triangles under
//! a box, along a segment front to back, and nearest first.

use core::cmp::Reverse;
use core::ops::ControlFlow;

use std::collections::BinaryHeap;

use crate::math::{DVec3, Vec3};
use crate::prefetch::prefetch;
use crate::shape::surface::{box_gap, triangle_bounds};
use crate::shape::{Aabb, Triangle};
use crate::visit::VisitResult;

use super::pyramid::corner_range;
use super::{index_f64, Cells, HeightField, BLOCK};

/// The relative slack of the pyramid's box tests (`f64` against boxes of
/// `f32` corners): a box is entered when the segment comes within this
/// fraction of the box's largest coordinate, so rounding never prunes a
/// triangle the exact test hits.
const BOX_SLACK: f64 = 1.0e-6;

impl HeightField {
    /// The cells of `within` whose footprint may meet the world box `b`
    /// (its x and z ranges, widened by the rounding of sample positions);
    /// `None` when none.
    fn cells_under(&self, b: &Aabb, within: Cells) -> Option<Cells> {
        let range = |lo: f32, hi: f32, origin: f32, size: f32, from: usize, to: usize| {
            // Sample positions are `origin + c·size` rounded to f32: off by
            // at most an ulp of the largest coordinate, here in cell units.
            let largest = f64::from(origin.abs()) + index_f64(to) * f64::from(size) + f64::from(lo.abs().max(hi.abs()));
            let slack = largest * f64::from(f32::EPSILON) / f64::from(size) + 1.0e-6;
            let cell = |v: f32| (f64::from(v) - f64::from(origin)) / f64::from(size);
            let first = floor(cell(lo) - slack).max(index_f64(from));
            let end = (floor(cell(hi) + slack) + 1.0).min(index_f64(to));
            (first < end).then_some((first as usize, end as usize))
        };
        let (x0, x1) = range(b.min.x, b.max.x, self.origin.x, self.scale.x, within.x0, within.x1)?;
        let (z0, z1) = range(b.min.z, b.max.z, self.origin.z, self.scale.z, within.z0, within.z1)?;
        Some(Cells { x0, x1, z0, z1 })
    }

    /// Calls `f(i, triangle)` for every triangle outside the holes whose
    /// bounds overlap `aabb` (closed), until `f` answers `Break`: the
    /// pyramid walked down to the blocks the box meets, then the cells
    /// under the box.
    ///
    /// ```
    /// use collide::{Aabb, shape::HeightField, math::Vec3};
    /// let field = HeightField::new(11, 11, vec![0.0; 121], Vec3::ONE)?;
    /// let mut found = 0;
    /// field.for_each_triangle_in(&Aabb::new(Vec3::new(2.2, -1.0, 2.2), Vec3::new(2.8, 1.0, 2.8)), |_, _| found += 1);
    /// assert_eq!(found, 2); // the two triangles of cell (2, 2)
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn for_each_triangle_in<R: VisitResult>(&self, aabb: &Aabb, mut f: impl FnMut(usize, Triangle) -> R) {
        let field = self.level_cells(self.samples.levels.len(), 0, 0);
        let Some(under) = self.cells_under(aabb, field) else {
            return;
        };
        let mut f = |i, t| f(i, t).control_flow();
        // A box over a few blocks' worth of cells (a character, a vehicle)
        // takes its cells directly; a larger one walks the pyramid.
        if (under.x1 - under.x0) * (under.z1 - under.z0) <= BLOCK * BLOCK {
            let _ = self.visit_cells(under, aabb, &mut f);
        } else {
            let _ = self.visit_in(self.samples.levels.len(), 0, 0, aabb, &mut f);
        }
    }

    /// Calls `f` for the triangles of `cells` whose bounds overlap `aabb`,
    /// holes skipped.
    fn visit_cells(
        &self,
        cells: Cells,
        aabb: &Aabb,
        f: &mut impl FnMut(usize, Triangle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for r in cells.z0..cells.z1 {
            for c in cells.x0..cells.x1 {
                let cell = r * self.cells_x() + c;
                if self.is_hole_cell(cell) || !self.node_box(0, c, r).intersects_aabb(aabb) {
                    continue;
                }
                let [first, second] = self.cell_triangles(c, r);
                for (i, t) in [(2 * cell, first), (2 * cell + 1, second)] {
                    if triangle_bounds(&t).intersects_aabb(aabb) {
                        f(i, t)?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn visit_in(
        &self,
        level: usize,
        x: usize,
        z: usize,
        aabb: &Aabb,
        f: &mut impl FnMut(usize, Triangle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if !self.node_box(level, x, z).intersects_aabb(aabb) {
            return ControlFlow::Continue(());
        }
        if level > 1 {
            for (cx, cz) in self.children(level, x, z) {
                self.visit_in(level - 1, cx, cz, aabb, f)?;
            }
            return ControlFlow::Continue(());
        }
        // A block: the cells under the box.
        match self.cells_under(aabb, self.level_cells(1, x, z)) {
            Some(cells) => self.visit_cells(cells, aabb, f),
            None => ControlFlow::Continue(()),
        }
    }

    /// Calls `hit(i)` for the triangles of the cells the segment crosses,
    /// in the order it crosses them, up to the closest hit so far (the `t`
    /// `hit` answers): the maximum-mipmap traversal of Tevs, Ihrke and
    /// Seidel ("Maximum Mipmaps for Fast, Accurate, and Scalable Dynamic
    /// Height Field Rendering", 2008) over the min/max pyramid, two-sided.
    /// The segment steps from node to node of one level as a 2D DDA
    /// (Amanatides and Woo, 1987); a node the segment passes entirely above
    /// or below is stepped over whole (and the walk climbs a level when it
    /// leaves its parent), any other is descended into, down to the cells,
    /// whose triangles `hit` tests. Below the pyramid's blocks the cells are
    /// a level of their own, bounded by their four corners.
    ///
    /// A segment over one cell and the neighbours it comes within the
    /// rounding of (a ground probe, a short cast) meets those cells'
    /// triangles and nothing else; a longer one starts at the smallest node
    /// holding both ends. At a cell, every cell under that piece of the
    /// segment is tested, widened by the rounding of sample positions: a
    /// segment through a grid corner meets all the cells around it (the
    /// watertight test gives a hit on a shared corner or edge to one
    /// triangle only). Entering a block, the walk asks for its rows of
    /// heights at once ([`prefetch`]), as each lies a row of the field
    /// apart.
    pub(crate) fn walk_along(&self, start: Vec3, end: Vec3, mut hit: impl FnMut(usize, Triangle) -> Option<f32>) {
        if !(start.is_finite() && end.is_finite()) {
            return;
        }
        let grid = Grid::of(self);
        let (lo, hi) = (start.min(end).as_dvec3(), start.max(end).as_dvec3());
        let (c, r) = grid.cell_at(lo);
        if let Some(near) = grid.cells_near(lo, hi, c, r) {
            // The whole segment over a cell and the neighbours it comes
            // within the slack of (a ground probe, a short cast): their
            // triangles and nothing else.
            for r in near.z0..near.z1 {
                for c in near.x0..near.x1 {
                    let _ = self.cross_cell(&grid, c, r, (lo, hi), (f64::NEG_INFINITY, f64::INFINITY), &mut hit);
                }
            }
            return;
        }
        let ray = Ray::new(start, end);
        let bounds = self.bounding_aabb();
        let Some((t_enter, t_leave)) = ray.clip(&bounds, 1.0) else {
            return;
        };
        let levels = &self.samples.levels[..];
        let top = levels.len();
        let (mut x, mut z) = grid.cell_at(ray.at(t_enter));
        let (mut last_x, mut last_z) = grid.cell_at(ray.at(t_leave));
        let mut level = 0;
        while level < top && (x, z) != (last_x, last_z) {
            let k = Self::ratio_shift(level);
            (x, z, last_x, last_z) = (x >> k, z >> k, last_x >> k, last_z >> k);
            level += 1;
        }
        // Where the segment leaves the grid lines `[lo, hi)` along an axis:
        // through the upper line when it moves up the axis.
        let axis = |start: f64, d: f64, origin: f64, size: f64| {
            let inverse = if d == 0.0 { 0.0 } else { 1.0 / d };
            move |lo: usize, hi: usize| match d {
                d if d > 0.0 => (origin + index_f64(hi) * size - start) * inverse,
                d if d < 0.0 => (origin + index_f64(lo) * size - start) * inverse,
                _ => f64::INFINITY,
            }
        };
        let exit_x = axis(ray.start.x, ray.delta.x, grid.origin.x, grid.size.x);
        let exit_z = axis(ray.start.z, ray.delta.z, grid.origin.z, grid.size.z);
        let (y0, dy) = (ray.start.y, ray.delta.y);
        let pad = BOX_SLACK * ray.magnitude.max(f64::from(bounds.min.y.abs().max(bounds.max.y.abs())));
        // The segment's heights over `[a, b]`, widened by `pad`.
        let heights_over = |a: f64, b: f64| {
            let (ya, yb) = (y0 + dy * a, y0 + dy * b);
            if dy >= 0.0 {
                (ya - pad, yb + pad)
            } else {
                (yb - pad, ya + pad)
            }
        };
        // The raw height range of node `(x, z)` of `level`.
        let node_heights = |level: usize, x: usize, z: usize| match level {
            0 => corner_range(self.cell_corners(x, z)),
            k => {
                let l = &levels[k - 1];
                l.bounds[z * l.width + x]
            }
        };
        let stop_at = |best: f64| t_leave.min(best * (1.0 + BOX_SLACK));
        let mut t_stop = stop_at(1.0);
        let mut t = t_enter;
        loop {
            let cells = self.level_cells(level, x, z);
            let (tx, tz) = (exit_x(cells.x0, cells.x1), exit_z(cells.z0, cells.z1));
            let t_exit = less(more(less(tx, tz), t), t_stop);
            let (y_lo, y_hi) = heights_over(t, t_exit);
            let [lo, hi] = node_heights(level, x, z);
            if y_lo <= grid.height(hi) && y_hi >= grid.height(lo) {
                if level > 0 {
                    // Down to the child holding the segment's point at `t`.
                    let (c, r) = grid.cell_at(ray.at(t));
                    let (c, r) = (c.clamp(cells.x0, cells.x1 - 1), r.clamp(cells.z0, cells.z1 - 1));
                    level -= 1;
                    if level == 0 {
                        self.prefetch_block(cells);
                    }
                    let k = Self::shift(level);
                    (x, z) = (c >> k, r >> k);
                    continue;
                }
                let (a, b) = (ray.at(t), ray.at(t_exit));
                let (piece_lo, piece_hi) = (a.min(b), a.max(b));
                let under = grid.cells_near(piece_lo, piece_hi, x, z).or_else(|| {
                    let piece = Aabb::new(piece_lo.as_vec3(), piece_hi.as_vec3());
                    self.cells_under(&piece, self.level_cells(top, 0, 0))
                });
                let mut best = None;
                for r in under.iter().flat_map(|u| u.z0..u.z1) {
                    for c in under.iter().flat_map(|u| u.x0..u.x1) {
                        let t = self.cross_cell(&grid, c, r, (piece_lo, piece_hi), (y_lo, y_hi), &mut hit);
                        best = least(best, t);
                    }
                }
                if let Some(best) = best {
                    t_stop = t_stop.min(stop_at(f64::from(best)));
                }
            }
            if t_exit >= t_stop {
                return;
            }
            // Across the nearer side to the next node of this level.
            let (from_x, from_z) = (x, z);
            let (width, depth) = self.level_size(level);
            if tx <= tz {
                match (ray.delta.x > 0.0, x.checked_sub(1)) {
                    (true, _) if x + 1 < width => x += 1,
                    (false, Some(left)) => x = left,
                    _ => return,
                }
            } else {
                match (ray.delta.z > 0.0, z.checked_sub(1)) {
                    (true, _) if z + 1 < depth => z += 1,
                    (false, Some(below)) => z = below,
                    _ => return,
                }
            }
            t = t_exit;
            if level < top {
                let k = Self::ratio_shift(level);
                if (from_x >> k, from_z >> k) != (x >> k, z >> k) {
                    (x, z) = (x >> k, z >> k);
                    level += 1;
                }
            }
        }
    }

    /// Calls `hit` for the triangles of cell `(c, r)` that the piece of
    /// the segment with bounds `[lo, hi]` and heights `[y_lo, y_hi]` may
    /// cross, and answers the least `t` they gave: none for a hole or a
    /// cell whose corner heights the piece passes above or below, else the
    /// triangles on the piece's side of the cell's diagonal (both when it
    /// comes within the slack of it).
    #[inline(always)]
    fn cross_cell(
        &self,
        grid: &Grid,
        c: usize,
        r: usize,
        (lo, hi): (DVec3, DVec3),
        (y_lo, y_hi): (f64, f64),
        hit: &mut impl FnMut(usize, Triangle) -> Option<f32>,
    ) -> Option<f32> {
        let cell = r * self.cells_x() + c;
        let corners = self.cell_corners(c, r);
        let [low, high] = corner_range(corners);
        if self.is_hole_cell(cell) || y_lo > grid.height(high) || y_hi < grid.height(low) {
            return None;
        }
        // Each triangle covers one side of the diagonal: the first where
        // u ≤ v, the second where u ≥ v (u, v the position in the cell, in
        // cells).
        let [first, second] = self.cell_triangles_of(c, r, corners);
        let (u, v) = grid.in_cell(lo, hi, c, r);
        let mut best = None;
        if u.0 <= v.1 + grid.slack_cells {
            best = least(best, hit(2 * cell, first));
        }
        if u.1 >= v.0 - grid.slack_cells {
            best = least(best, hit(2 * cell + 1, second));
        }
        best
    }

    /// Asks for the heights of a block's cells (a row of `BLOCK + 1`
    /// samples per row of cells, and the row above; at the field's right
    /// edge, where a block's rows are shorter, none) before the walk reads
    /// them cell by cell: rows lie a row of the field apart, one or two
    /// cache lines each, and their loads overlap.
    #[inline]
    fn prefetch_block(&self, block: Cells) {
        let (cols, heights) = (self.samples.columns, &self.samples.heights);
        if block.x0 + BLOCK < cols {
            for r in block.z0..=block.z1 {
                let first = r * cols + block.x0;
                if let Ok(row) = <&[f32; BLOCK + 1]>::try_from(&heights[first..=first + BLOCK]) {
                    prefetch(row);
                }
            }
        }
    }

    /// Calls `f(i, triangle)` nearest first (by the distance between boxes
    /// to `bounds`), until the bound passes what `f` answers.
    pub(crate) fn walk_near(&self, bounds: &Aabb, mut f: impl FnMut(usize, Triangle) -> f32) {
        let mut best = f32::INFINITY;
        let mut heap = BinaryHeap::new();
        let top = self.samples.levels.len();
        heap.push(Reverse(Near(box_gap(&self.node_box(top, 0, 0), bounds), top, 0, 0)));
        while let Some(Reverse(Near(gap, level, x, z))) = heap.pop() {
            if gap > best {
                break;
            }
            if level > 1 {
                for (cx, cz) in self.children(level, x, z) {
                    let g = box_gap(&self.node_box(level - 1, cx, cz), bounds);
                    if g <= best {
                        heap.push(Reverse(Near(g, level - 1, cx, cz)));
                    }
                }
                continue;
            }
            // A block: its cells, the farther ones skipped.
            let cells = self.level_cells(1, x, z);
            for r in cells.z0..cells.z1 {
                for c in cells.x0..cells.x1 {
                    let cell = r * self.cells_x() + c;
                    if self.is_hole_cell(cell) || box_gap(&self.node_box(0, c, r), bounds) > best {
                        continue;
                    }
                    let [first, second] = self.cell_triangles(c, r);
                    for (i, t) in [(2 * cell, first), (2 * cell + 1, second)] {
                        if box_gap(&triangle_bounds(&t), bounds) <= best {
                            best = best.min(f(i, t));
                        }
                    }
                }
            }
        }
    }
}

/// A pyramid node waiting in the nearest-first walk: its lower bound, level
/// and position (ordered by the bound, then level and position, so the
/// walk is deterministic).
#[derive(Debug, PartialEq)]
struct Near(f32, usize, usize, usize);

impl Eq for Near {}

impl PartialOrd for Near {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Near {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.0
            .total_cmp(&other.0)
            .then(self.1.cmp(&other.1))
            .then(self.2.cmp(&other.2))
            .then(self.3.cmp(&other.3))
    }
}

/// A field's grid in `f64`, for one walk: grid line `c` along x at
/// `origin.x + c·size.x`, raw height `h` at `origin.y + h·size.y`.
struct Grid {
    origin: DVec3,
    size: DVec3,
    inverse: DVec3,
    cells: (usize, usize),
    /// How far from a grid line, in world units along x and z, a point is
    /// certainly on its side of it despite the rounding of sample
    /// positions (see [`HeightField::cells_under`]).
    slack: (f64, f64),
    /// The larger slack, in cells.
    slack_cells: f64,
}

impl Grid {
    fn of(field: &HeightField) -> Grid {
        let (origin, size) = (field.origin.as_dvec3(), field.scale.as_dvec3());
        let cells = (field.cells_x(), field.cells_z());
        let slack =
            |o: f64, s: f64, n: usize| (o.abs() + index_f64(n) * s) * f64::from(f32::EPSILON) * 4.0 + 1.0e-6 * s;
        let (slack_x, slack_z) = (slack(origin.x, size.x, cells.0), slack(origin.z, size.z, cells.1));
        Grid {
            origin,
            size,
            inverse: DVec3::ONE / size,
            cells,
            slack: (slack_x, slack_z),
            slack_cells: (slack_x / size.x).max(slack_z / size.z),
        }
    }

    /// The world height of raw height `h`.
    #[inline]
    fn height(&self, h: f32) -> f64 {
        self.origin.y + f64::from(h) * self.size.y
    }

    /// The cell under point `p` (clamped into the grid).
    #[inline]
    fn cell_at(&self, p: DVec3) -> (usize, usize) {
        // `as i64` truncates toward zero, saturating outside the `i64`
        // range (NaN gives 0): the floor of a non-negative value; a
        // negative one clamps to 0.
        let along = |v: f64, origin: f64, inverse: f64, cells: usize| {
            (((v - origin) * inverse) as i64).clamp(0, cells as i64 - 1) as usize
        };
        (
            along(p.x, self.origin.x, self.inverse.x, self.cells.0),
            along(p.z, self.origin.z, self.inverse.z, self.cells.1),
        )
    }

    /// The cells under the box `[lo, hi]` over cell `(c, r)`: the cell and
    /// each neighbour whose side the box comes within the slack of (a
    /// superset of [`HeightField::cells_under`], whose slack is smaller);
    /// `None` when the box comes that close to a cell beyond the
    /// neighbours.
    #[inline]
    fn cells_near(&self, lo: DVec3, hi: DVec3, c: usize, r: usize) -> Option<Cells> {
        let range = |lo: f64, hi: f64, i: usize, origin: f64, size: f64, slack: f64, cells: usize| {
            let (left, right) = (origin + index_f64(i) * size, origin + index_f64(i + 1) * size);
            if lo < left - size + slack || hi > right + size - slack {
                return None;
            }
            let first = if lo < left + slack { i.saturating_sub(1) } else { i };
            let end = if hi > right - slack { (i + 2).min(cells) } else { i + 1 };
            Some((first, end))
        };
        let (x0, x1) = range(lo.x, hi.x, c, self.origin.x, self.size.x, self.slack.0, self.cells.0)?;
        let (z0, z1) = range(lo.z, hi.z, r, self.origin.z, self.size.z, self.slack.1, self.cells.1)?;
        Some(Cells { x0, x1, z0, z1 })
    }

    /// The box `[lo, hi]`'s ranges of position in cell `(c, r)`, in cells:
    /// `((u_lo, u_hi), (v_lo, v_hi))`, u along x and v along z.
    #[inline]
    fn in_cell(&self, lo: DVec3, hi: DVec3, c: usize, r: usize) -> ((f64, f64), (f64, f64)) {
        let (x0, z0) = (
            self.origin.x + index_f64(c) * self.size.x,
            self.origin.z + index_f64(r) * self.size.z,
        );
        (
            ((lo.x - x0) * self.inverse.x, (hi.x - x0) * self.inverse.x),
            ((lo.z - z0) * self.inverse.z, (hi.z - z0) * self.inverse.z),
        )
    }
}

/// A segment `start + t·delta`, `t ∈ [0, 1]`, in `f64`.
struct Ray {
    start: DVec3,
    delta: DVec3,
    /// `1/delta` per axis, 0 where `delta` is.
    inverse: DVec3,
    /// The largest coordinate of either end, for the slack of box tests.
    magnitude: f64,
}

impl Ray {
    fn new(start: Vec3, end: Vec3) -> Ray {
        let delta = end.as_dvec3() - start.as_dvec3();
        Ray {
            start: start.as_dvec3(),
            delta,
            inverse: DVec3::select(delta.cmpeq(DVec3::ZERO), DVec3::ZERO, DVec3::ONE / delta),
            magnitude: f64::from(start.abs().max(end.abs()).max_element()),
        }
    }

    fn at(&self, t: f64) -> DVec3 {
        self.start + self.delta * t
    }

    /// The range of `t` in `[0, t_max·(1 + slack)]` inside `b` widened by
    /// [`BOX_SLACK`] of the largest coordinate of the box or the segment
    /// (slab test); `None` when the segment misses it.
    fn clip(&self, b: &Aabb, t_max: f64) -> Option<(f64, f64)> {
        let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
        let pad = BOX_SLACK * lo.abs().max(hi.abs()).max_element().max(self.magnitude) + f64::MIN_POSITIVE;
        let (lo, hi) = ((lo - pad).to_array(), (hi + pad).to_array());
        let (start, delta, inverse) = (self.start.to_array(), self.delta.to_array(), self.inverse.to_array());
        let (mut t0, mut t1) = (0.0f64, t_max * (1.0 + BOX_SLACK));
        for axis in 0..3 {
            let (s, d) = (start[axis], delta[axis]);
            if d == 0.0 {
                if s < lo[axis] || s > hi[axis] {
                    return None;
                }
                continue;
            }
            let inv = inverse[axis];
            let (a, b) = ((lo[axis] - s) * inv, (hi[axis] - s) * inv);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
            if t0 > t1 {
                return None;
            }
        }
        Some((t0, t1))
    }
}

/// The smaller of `a` and `b` (`b` when either is NaN): one instruction
/// where `f64::min` needs several to return the number beside a NaN.
#[inline]
fn less(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// The larger of `a` and `b` (`b` when either is NaN), as [`less`].
#[inline]
fn more(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// The smaller of two optional `t`.
#[inline]
fn least(a: Option<f32>, b: Option<f32>) -> Option<f32> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// `⌊v⌋` for the grid's cell arithmetic, without a call into the maths
/// library: exact for `|v| < 2⁶³`, saturating beyond (where the callers
/// clamp into the grid anyway); 0 for NaN.
#[inline]
fn floor(v: f64) -> f64 {
    let t = v as i64 as f64;
    if t > v {
        t - 1.0
    } else {
        t
    }
}
