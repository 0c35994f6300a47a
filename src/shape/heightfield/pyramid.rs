//! The min/max pyramid of a height field and the levels the walks step
//! through: level 0 is the cells (bounded by their four corners, nothing
//! stored), level `k > 0` the pyramid's level `k − 1`, blocks of
//! `BLOCK·2^(k−1)` cells on a side.

use crate::shape::Aabb;

use super::{Cells, HeightField, BLOCK, BLOCK_SHIFT};

/// One level of the pyramid: `width × depth` nodes, row-major.
#[derive(Debug, Clone)]
pub(super) struct Level {
    pub(super) width: usize,
    pub(super) depth: usize,
    pub(super) bounds: Vec<[f32; 2]>,
}

/// The min/max pyramid of a `columns × rows` grid of heights.
pub(super) fn pyramid(columns: usize, rows: usize, heights: &[f32]) -> Vec<Level> {
    let (cells_x, cells_z) = (columns - 1, rows - 1);
    let (width, depth) = (cells_x.div_ceil(BLOCK), cells_z.div_ceil(BLOCK));
    let mut bounds = vec![[f32::INFINITY, f32::NEG_INFINITY]; width * depth];
    for (r, row) in heights.chunks_exact(columns).enumerate() {
        for (c, &h) in row.iter().enumerate() {
            // A sample on a block's border belongs to the blocks on both sides.
            for bz in blocks_of(r, cells_z) {
                for bx in blocks_of(c, cells_x) {
                    let b = &mut bounds[bz * width + bx];
                    *b = [b[0].min(h), b[1].max(h)];
                }
            }
        }
    }
    let mut levels = vec![Level { width, depth, bounds }];
    while let Some(below) = levels.last().filter(|l| l.width > 1 || l.depth > 1) {
        let (width, depth) = (below.width.div_ceil(2), below.depth.div_ceil(2));
        let mut bounds = vec![[f32::INFINITY, f32::NEG_INFINITY]; width * depth];
        for z in 0..below.depth {
            for x in 0..below.width {
                let [lo, hi] = below.bounds[z * below.width + x];
                let b = &mut bounds[(z / 2) * width + x / 2];
                *b = [b[0].min(lo), b[1].max(hi)];
            }
        }
        levels.push(Level { width, depth, bounds });
    }
    levels
}

/// The least and greatest of a cell's corner heights.
#[inline]
pub(super) fn corner_range([a, b, c, d]: [f32; 4]) -> [f32; 2] {
    [a.min(b).min(c.min(d)), a.max(b).max(c.max(d))]
}

/// The blocks holding a cell that sample `i` of a side of `cells` cells
/// bounds: the blocks of cells `i − 1` and `i`.
fn blocks_of(i: usize, cells: usize) -> impl Iterator<Item = usize> {
    let before = i.checked_sub(1).map(|c| c / BLOCK);
    let after = (i < cells).then_some(i / BLOCK).filter(|&b| Some(b) != before);
    before.into_iter().chain(after)
}

impl HeightField {
    /// The world box over `cells` with raw heights `[lo, hi]`.
    pub(super) fn cells_box(&self, cells: Cells, [lo, hi]: [f32; 2]) -> Aabb {
        Aabb::new(self.point(cells.x0, lo, cells.z0), self.point(cells.x1, hi, cells.z1))
    }

    /// The children of node `(x, z)` of walk level `level > 0`.
    pub(super) fn children(&self, level: usize, x: usize, z: usize) -> impl Iterator<Item = (usize, usize)> {
        let k = Self::ratio_shift(level - 1);
        let (width, depth) = self.level_size(level - 1);
        let xs = (x << k)..((x + 1) << k).min(width);
        let zs = (z << k)..((z + 1) << k).min(depth);
        zs.flat_map(move |cz| xs.clone().map(move |cx| (cx, cz)))
    }

    /// The box of node `(x, z)` of walk level `level`.
    pub(super) fn node_box(&self, level: usize, x: usize, z: usize) -> Aabb {
        self.cells_box(self.level_cells(level, x, z), self.level_heights(level, x, z))
    }

    /// How many cells along a side of a node of walk level `level`, as a
    /// power of two: level 0 is the cells, level `k > 0` the pyramid's level
    /// `k − 1` (`BLOCK·2^(k−1)` cells).
    #[inline]
    pub(super) fn shift(level: usize) -> u32 {
        match level {
            0 => 0,
            k => BLOCK_SHIFT + k as u32 - 1,
        }
    }

    /// How many nodes of walk level `level` make one of the next level
    /// along each side, as a power of two.
    #[inline]
    pub(super) fn ratio_shift(level: usize) -> u32 {
        Self::shift(level + 1) - Self::shift(level)
    }

    /// How many nodes walk level `level` has along x and z.
    pub(super) fn level_size(&self, level: usize) -> (usize, usize) {
        match level {
            0 => (self.cells_x(), self.cells_z()),
            k => (self.samples.levels[k - 1].width, self.samples.levels[k - 1].depth),
        }
    }

    /// The cells of node `(x, z)` of walk level `level`.
    pub(super) fn level_cells(&self, level: usize, x: usize, z: usize) -> Cells {
        let k = Self::shift(level);
        Cells {
            x0: x << k,
            x1: ((x + 1) << k).min(self.cells_x()),
            z0: z << k,
            z1: ((z + 1) << k).min(self.cells_z()),
        }
    }

    /// The least and greatest raw height of node `(x, z)` of walk level
    /// `level` (a cell: of its four corners).
    pub(super) fn level_heights(&self, level: usize, x: usize, z: usize) -> [f32; 2] {
        match level {
            0 => corner_range(self.cell_corners(x, z)),
            k => {
                let l = &self.samples.levels[k - 1];
                l.bounds[z * l.width + x]
            }
        }
    }
}
