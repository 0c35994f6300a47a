//! Height field: terrain as a regular grid of heights, two triangles per
//! cell, with holes marked per cell. Its only index is a min/max pyramid
//! over blocks of cells (each level halving the one below, as a mip chain),
//! so a 1024 × 1024 field costs its heights plus about 4 %; every query
//! takes the triangles of the cells it reaches, never the whole field.

mod pyramid;
mod walk;

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::math::Vec3;
use crate::shape::surface::{is_internal_edge, TriangleSurface};
use crate::shape::{Aabb, Triangle};
use crate::visit::VisitResult;

use pyramid::{pyramid, Level};

/// How many cells along each side of a block, the pyramid's finest node,
/// as a power of two.
const BLOCK_SHIFT: u32 = 3;
/// How many cells along each side of a block.
const BLOCK: usize = 1 << BLOCK_SHIFT;

/// A height field: `columns × rows` samples of height on a regular grid,
/// placed by an origin and a scale.
///
/// Sample `(c, r)` (column `c` along x, row `r` along z) is the point
/// `origin + (c·scale.x, heights[r·columns + c]·scale.y, r·scale.z)`; cell
/// `(c, r)` spans samples `c..=c + 1` and `r..=r + 1` and holds two
/// triangles split along its diagonal from `(c, r)` to `(c + 1, r + 1)`,
/// both facing +y: triangle `2·(r·(columns − 1) + c)` is
/// `(c, r), (c, r + 1), (c + 1, r + 1)`, the next one
/// `(c, r), (c + 1, r + 1), (c + 1, r)`. A cell marked as a hole has no
/// triangles.
///
/// Like a [`TriangleMesh`](crate::shape::TriangleMesh), a height field is
/// static level geometry: a two-sided surface queried triangle by triangle
/// ([`Shape::HeightField`](crate::shape::Shape::HeightField)). The samples
/// are shared behind an `Arc`: cloning or moving a height field copies no
/// height.
///
/// ```
/// use collide::{Segment, shape::HeightField, math::Vec3};
/// // 3 × 3 samples one unit apart, a bump in the middle.
/// let heights = vec![0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
/// let field = HeightField::new(3, 3, heights, Vec3::ONE)?;
/// let down = Segment::new(Vec3::new(1.0, 5.0, 1.0), Vec3::new(1.0, -5.0, 1.0));
/// let hit = field.cast_segment(&down).unwrap();
/// assert_eq!(down.point_at(hit.t), Vec3::new(1.0, 1.0, 1.0)); // the top of the bump
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct HeightField {
    samples: Arc<Samples>,
    origin: Vec3,
    scale: Vec3,
}

/// The shared part of a height field: the heights, the holes and the
/// pyramid, in sample units.
#[derive(Debug)]
struct Samples {
    columns: usize,
    rows: usize,
    heights: Vec<f32>,
    /// One bit per cell, row-major (bit `i % 64` of word `i / 64`); empty
    /// when the field has no hole.
    holes: Vec<u64>,
    /// `levels[0]`: the least and greatest height of each block of
    /// `BLOCK × BLOCK` cells (samples on its border included); each next
    /// level the least and greatest of 2 × 2 nodes of the one before; the
    /// last holds one node, the whole field.
    levels: Vec<Level>,
}

impl PartialEq for HeightField {
    /// Same samples, holes, origin and scale.
    fn eq(&self, other: &Self) -> bool {
        let same_samples = Arc::ptr_eq(&self.samples, &other.samples)
            || (self.samples.columns == other.samples.columns
                && self.samples.heights == other.samples.heights
                && self.samples.holes == other.samples.holes);
        same_samples && self.origin == other.origin && self.scale == other.scale
    }
}

/// A cell or sample index as `f64`, exactly: a field's indices are below
/// 2³² ([`HeightField::new`] refuses more cells), and the signed conversion
/// is one instruction on x86-64 where an unsigned one takes several.
#[inline]
fn index_f64(i: usize) -> f64 {
    i as i64 as f64
}

/// A cell or sample index as `f32`, rounded as `as f32` rounds it, by the
/// signed conversion (see [`index_f64`]).
#[inline]
fn index_f32(i: usize) -> f32 {
    i as i64 as f32
}

/// A range of cells, `[x0, x1) × [z0, z1)`.
#[derive(Debug, Clone, Copy)]
struct Cells {
    x0: usize,
    x1: usize,
    z0: usize,
    z1: usize,
}

impl HeightField {
    /// A field of `columns × rows` samples (`heights` row-major, row `r`
    /// at `heights[r·columns..(r + 1)·columns]`), sample `(c, r)` at
    /// `(c·scale.x, height·scale.y, r·scale.z)`, without holes.
    ///
    /// Errors: [`Error::InvalidArgument`] for fewer than 2 samples along a
    /// side, a `heights` of another length than `columns·rows`, or a scale
    /// not positive on every axis; [`Error::NonFinite`] for a NaN or
    /// infinite height or scale, or a field whose extent overflows.
    ///
    /// ```
    /// use collide::{shape::HeightField, math::Vec3};
    /// let field = HeightField::new(2, 2, vec![0.0; 4], Vec3::new(10.0, 1.0, 10.0))?;
    /// assert_eq!(field.triangle_count(), 2);
    /// assert!(HeightField::new(2, 2, vec![0.0; 3], Vec3::ONE).is_err());
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn new(columns: usize, rows: usize, heights: Vec<f32>, scale: Vec3) -> Result<HeightField> {
        if columns < 2 || rows < 2 {
            return Err(Error::InvalidArgument("a height field needs at least 2 × 2 samples"));
        }
        if columns.checked_mul(rows) != Some(heights.len()) {
            return Err(Error::InvalidArgument("a height field needs columns × rows heights"));
        }
        if (columns - 1)
            .checked_mul(rows - 1)
            .and_then(|cells| cells.checked_mul(2))
            .is_none_or(|t| t > u32::MAX as usize)
        {
            return Err(Error::InvalidArgument("too many height field cells"));
        }
        if heights.iter().any(|h| !h.is_finite()) {
            return Err(Error::NonFinite("height field height"));
        }
        let samples = Samples {
            columns,
            rows,
            levels: pyramid(columns, rows, &heights),
            heights,
            holes: Vec::new(),
        };
        HeightField {
            samples: Arc::new(samples),
            origin: Vec3::ZERO,
            scale: Vec3::ONE,
        }
        .placed(Vec3::ZERO, scale)
    }

    /// The same field with the cells where `holes` is `true` removed
    /// (`holes` row-major, one per cell: `(columns − 1)·(rows − 1)`).
    ///
    /// Errors: [`Error::InvalidArgument`] for a `holes` of another length,
    /// or holes everywhere.
    ///
    /// ```
    /// use collide::{Segment, shape::HeightField, math::Vec3};
    /// let field = HeightField::new(3, 2, vec![0.0; 6], Vec3::ONE)?.with_holes(&[false, true])?;
    /// let through = |x: f32| Segment::new(Vec3::new(x, 1.0, 0.5), Vec3::new(x, -1.0, 0.5));
    /// assert!(field.cast_segment(&through(0.5)).is_some());
    /// assert!(field.cast_segment(&through(1.5)).is_none()); // the hole
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn with_holes(self, holes: &[bool]) -> Result<HeightField> {
        let s = &self.samples;
        if holes.len() != (s.columns - 1) * (s.rows - 1) {
            return Err(Error::InvalidArgument("a height field needs one hole flag per cell"));
        }
        if holes.iter().all(|&hole| hole) {
            return Err(Error::InvalidArgument("a height field needs a cell that is not a hole"));
        }
        // No bits at all for a field without holes.
        let mut bits = vec![
            0u64;
            if holes.contains(&true) {
                holes.len().div_ceil(64)
            } else {
                0
            }
        ];
        for (i, _) in holes.iter().enumerate().filter(|(_, &hole)| hole) {
            bits[i / 64] |= 1 << (i % 64);
        }
        let samples = Samples {
            columns: s.columns,
            rows: s.rows,
            heights: s.heights.clone(),
            holes: bits,
            levels: s.levels.clone(),
        };
        Ok(HeightField {
            samples: Arc::new(samples),
            ..self
        })
    }

    /// The field placed at `origin` with `scale` (the samples shared).
    fn placed(&self, origin: Vec3, scale: Vec3) -> Result<HeightField> {
        if !(origin.is_finite() && scale.is_finite()) {
            return Err(Error::NonFinite("height field placement"));
        }
        if !scale.cmpgt(Vec3::ZERO).all() {
            return Err(Error::InvalidArgument(
                "a height field's scale must be positive on every axis",
            ));
        }
        let field = HeightField {
            samples: Arc::clone(&self.samples),
            origin,
            scale,
        };
        let b = field.bounding_aabb();
        if b.is_finite() && (b.max - b.min).is_finite() {
            Ok(field)
        } else {
            Err(Error::NonFinite("height field extent"))
        }
    }

    /// The field moved by `translation` and scaled by `scale` about its
    /// origin (sample `p` goes to `translation + scale ∘ p`): a collider's
    /// placement. A height field stays axis-aligned, so a placement that
    /// rotates it is refused.
    ///
    /// Errors: [`Error::InvalidArgument`] for a rotation other than the
    /// identity or a scale not positive on every axis,
    /// [`Error::NonFinite`] when the placed field overflows.
    pub(crate) fn transformed(&self, transform: &crate::math::Transform) -> Result<HeightField> {
        if transform.rotation.xyz() != Vec3::ZERO {
            return Err(Error::InvalidArgument(
                "a height field can be moved and scaled, not rotated",
            ));
        }
        if !transform.scale.cmpgt(Vec3::ZERO).all() {
            return Err(Error::InvalidArgument(
                "a height field's scale must be positive on every axis",
            ));
        }
        self.placed(
            transform.translation + transform.scale * self.origin,
            transform.scale * self.scale,
        )
    }

    /// The same field moved by `offset` (the samples shared).
    pub(crate) fn translated(&self, offset: Vec3) -> Result<HeightField> {
        self.placed(self.origin + offset, self.scale)
    }

    /// How many samples along x.
    #[inline]
    #[must_use]
    pub fn columns(&self) -> usize {
        self.samples.columns
    }

    /// How many samples along z.
    #[inline]
    #[must_use]
    pub fn rows(&self) -> usize {
        self.samples.rows
    }

    /// Where sample `(0, 0)` at height 0 lies.
    #[inline]
    #[must_use]
    pub fn origin(&self) -> Vec3 {
        self.origin
    }

    /// The cell size along x and z, and the factor of the heights.
    #[inline]
    #[must_use]
    pub fn scale(&self) -> Vec3 {
        self.scale
    }

    /// The heights, row-major, as given.
    #[inline]
    #[must_use]
    pub fn heights(&self) -> &[f32] {
        &self.samples.heights
    }

    /// Sample `(column, row)` as a point (panics out of the grid).
    #[inline]
    #[must_use]
    pub fn sample(&self, column: usize, row: usize) -> Vec3 {
        let h = self.samples.heights[row * self.samples.columns + column];
        self.point(column, h, row)
    }

    /// The point above grid position `(column, row)` at raw height `h`,
    /// by the one formula every corner and bound is computed with.
    #[inline]
    fn point(&self, column: usize, h: f32, row: usize) -> Vec3 {
        Vec3::new(
            self.origin.x + index_f32(column) * self.scale.x,
            self.origin.y + h * self.scale.y,
            self.origin.z + index_f32(row) * self.scale.z,
        )
    }

    /// How many cells along x.
    #[inline]
    fn cells_x(&self) -> usize {
        self.samples.columns - 1
    }

    /// How many cells along z.
    #[inline]
    fn cells_z(&self) -> usize {
        self.samples.rows - 1
    }

    /// How many triangles: two per cell, holes included (a hole's indices
    /// are never handed out).
    #[inline]
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        2 * self.cells_x() * self.cells_z()
    }

    /// Whether cell `(column, row)` is a hole.
    #[inline]
    #[must_use]
    pub fn is_hole(&self, column: usize, row: usize) -> bool {
        self.is_hole_cell(row * self.cells_x() + column)
    }

    #[inline]
    fn is_hole_cell(&self, cell: usize) -> bool {
        let holes = &self.samples.holes;
        !holes.is_empty() && holes[cell / 64] & (1 << (cell % 64)) != 0
    }

    /// Triangle `i` (see the type's docs for the numbering; a hole's
    /// triangles are returned too). Panics when `i >= triangle_count()`.
    #[must_use]
    pub fn triangle(&self, i: usize) -> Triangle {
        let cell = i / 2;
        self.cell_triangles(cell % self.cells_x(), cell / self.cells_x())[i % 2]
    }

    /// The two triangles of cell `(c, r)`.
    #[inline]
    fn cell_triangles(&self, c: usize, r: usize) -> [Triangle; 2] {
        self.cell_triangles_of(c, r, self.cell_corners(c, r))
    }

    /// The raw heights of cell `(c, r)`'s corners: `[(c, r), (c + 1, r),
    /// (c, r + 1), (c + 1, r + 1)]`.
    #[inline]
    fn cell_corners(&self, c: usize, r: usize) -> [f32; 4] {
        let cols = self.samples.columns;
        let below = &self.samples.heights[r * cols + c..][..2];
        let above = &self.samples.heights[(r + 1) * cols + c..][..2];
        [below[0], below[1], above[0], above[1]]
    }

    /// The two triangles of cell `(c, r)` with corner heights `h` (see
    /// [`HeightField::cell_corners`]).
    #[inline]
    fn cell_triangles_of(&self, c: usize, r: usize, h: [f32; 4]) -> [Triangle; 2] {
        let (p00, p10) = (self.point(c, h[0], r), self.point(c + 1, h[1], r));
        let (p01, p11) = (self.point(c, h[2], r + 1), self.point(c + 1, h[3], r + 1));
        [Triangle::new(p00, p01, p11), Triangle::new(p00, p11, p10)]
    }

    /// Every triangle outside the holes, with its index, in index order.
    pub fn triangles(&self) -> impl Iterator<Item = (usize, Triangle)> + '_ {
        (0..self.triangle_count())
            .filter(|&i| !self.is_hole_cell(i / 2))
            .map(|i| (i, self.triangle(i)))
    }

    /// The bounds of every sample (holes included).
    #[must_use]
    pub fn bounding_aabb(&self) -> Aabb {
        self.node_box(self.samples.levels.len(), 0, 0)
    }

    /// Bytes held by the field: heights, hole bits and pyramid.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let s = &self.samples;
        s.heights.capacity() * 4
            + s.holes.capacity() * 8
            + s.levels.iter().map(|l| l.bounds.capacity() * 8).sum::<usize>()
    }

    /// Whether edge `k` of triangle `i` (corner `k` to corner `k + 1`) is
    /// active: on the field's border or a hole's, or between two triangles
    /// whose planes meet at 5° or more (computed from the heights, nothing
    /// stored). See [`TriangleMesh::is_edge_active`](crate::shape::TriangleMesh::is_edge_active).
    ///
    /// ```
    /// use collide::{shape::HeightField, math::Vec3};
    /// let flat = HeightField::new(3, 3, vec![0.0; 9], Vec3::ONE)?;
    /// assert!(!flat.is_edge_active(0, 2)); // the first cell's diagonal
    /// assert!(flat.is_edge_active(0, 0)); // the border at x = 0
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn is_edge_active(&self, i: usize, k: usize) -> bool {
        let Some(j) = self.neighbour(i, k) else {
            return true;
        };
        self.is_hole_cell(i / 2) || self.is_hole_cell(j / 2) || !is_internal_edge(&self.triangle(i), &self.triangle(j))
    }

    /// The triangle across edge `k` of triangle `i`, if any. Edges of the
    /// first triangle of a cell: 0 its x-min side, 1 its z-max side, 2 the
    /// diagonal; of the second: 0 the diagonal, 1 its x-max side, 2 its
    /// z-min side.
    fn neighbour(&self, i: usize, k: usize) -> Option<usize> {
        let cell = i / 2;
        let (c, r) = (cell % self.cells_x(), cell / self.cells_x());
        let at = |c: usize, r: usize, second: usize| 2 * (r * self.cells_x() + c) + second;
        match (i % 2, k) {
            (0, 2) => Some(i + 1),
            (1, 0) => Some(i - 1),
            (0, 0) => c.checked_sub(1).map(|c| at(c, r, 1)),
            (0, _) => (r + 1 < self.cells_z()).then(|| at(c, r + 1, 1)),
            (_, 1) => (c + 1 < self.cells_x()).then(|| at(c + 1, r, 0)),
            _ => r.checked_sub(1).map(|r| at(c, r, 0)),
        }
    }
}

impl TriangleSurface for HeightField {
    #[inline]
    fn triangle(&self, i: usize) -> Triangle {
        HeightField::triangle(self, i)
    }
    #[inline]
    fn is_edge_active(&self, i: usize, k: usize) -> bool {
        HeightField::is_edge_active(self, i, k)
    }
    fn for_each_triangle_in<R: VisitResult>(&self, aabb: &Aabb, f: impl FnMut(usize, Triangle) -> R) {
        HeightField::for_each_triangle_in(self, aabb, f);
    }
    fn for_each_triangle_along(&self, start: Vec3, end: Vec3, hit: impl FnMut(usize, Triangle) -> Option<f32>) {
        self.walk_along(start, end, hit);
    }
    fn for_each_triangle_near(&self, bounds: &Aabb, f: impl FnMut(usize, Triangle) -> f32) {
        self.walk_near(bounds, f);
    }
}

/// The support mapping of the convex hull of the samples (every sample
/// visited): what a generic convex routine sees if handed a height field.
/// [`Shape`](crate::shape::Shape)'s own queries never rely on it.
impl crate::shape::Support for HeightField {
    /// The centre of the bounds.
    #[inline]
    fn center(&self) -> Vec3 {
        self.bounding_aabb().center()
    }
    /// The sample with the largest `d·(p − center)`, as `p − center` (ties
    /// to the first sample).
    fn core_support(&self, direction: Vec3) -> Vec3 {
        let samples = (0..self.rows()).flat_map(|r| (0..self.columns()).map(move |c| (c, r)));
        let points = samples.map(|(c, r)| self.sample(c, r));
        crate::shape::surface::farthest_from(self.center(), direction, points).expect("a field has samples")
    }
    #[inline]
    fn margin(&self) -> f32 {
        0.0
    }
    /// `|half extents|` of the bounds, saturating at `f32::MAX`.
    #[inline]
    fn bounding_radius(&self) -> f32 {
        crate::math::length_without_overflow(self.bounding_aabb().half_extents()).min(f32::MAX)
    }
}
