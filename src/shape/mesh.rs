//! Triangle mesh: static level geometry, a soup of triangles indexed by a
//! bounding volume hierarchy (the 4-wide tree of the world's broad phase,
//! one leaf per triangle carrying the triangle's index).
//!
//! A mesh is *not* convex and has no inside: it is a two-sided surface.
//! Segment casts find the closest triangle crossed; overlap, distance,
//! contact and shape casts against a convex shape run the convex query
//! against each triangle whose box the shape's (swept) bounds touch and
//! keep the best answer (Ericson, *Real-Time Collision Detection*, §6.1:
//! a BVH over the primitives, then exact primitive tests).

use core::ops::ControlFlow;

use std::collections::HashMap;

use crate::bvh::{Bvh, Leaf, LeafData};
use crate::error::{Error, Result};
use crate::math::Transform;
use crate::math::{length_without_overflow, Vec3};
use crate::shape::surface::{box_gap, farthest_from, is_internal_edge, triangle_bounds, TriangleSurface};
use crate::shape::{Aabb, Support, Triangle};
use crate::visit::VisitResult;

/// A mesh's tree leaf carries its triangle's index, in every category.
impl LeafData for u32 {
    #[inline]
    fn category(&self) -> u64 {
        u64::MAX
    }
}

/// A static triangle mesh: vertices, triangles as vertex-index triples, and
/// a BVH over the triangles.
///
/// Built once ([`TriangleMesh::new`]) and shared behind an `Arc` by
/// [`Shape::Mesh`](crate::shape::Shape::Mesh). Degenerate triangles (repeated or collinear corners)
/// are kept but never hit by a segment cast; overlap and distance queries
/// treat them as the segment or point they are.
///
/// ```
/// use collide::{Segment, shape::TriangleMesh, math::Vec3};
/// // A 2 × 2 floor at y = 0 made of two triangles.
/// let floor = TriangleMesh::new(
///     vec![Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0), Vec3::new(-1.0, 0.0, 1.0)],
///     vec![[0, 1, 2], [0, 2, 3]],
/// )?;
/// // Straight down through the shared diagonal: hit, normal facing up.
/// let hit = floor.cast_segment(&Segment::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, -1.0, 0.0))).unwrap();
/// assert_eq!((hit.t, hit.normal), (0.5, Vec3::Y));
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct TriangleMesh {
    vertices: Vec<Vec3>,
    indices: Vec<[u32; 3]>,
    /// Per triangle, bit `k` set when its edge from corner `k` to corner
    /// `k + 1` is active (see [`TriangleMesh::is_edge_active`]).
    active_edges: Vec<u8>,
    bvh: Bvh<u32>,
    aabb: Aabb,
}

impl PartialEq for TriangleMesh {
    /// Same vertices and triangles (the trees follow from them).
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices && self.indices == other.indices
    }
}

/// The active edges of every triangle (bit `k`: edge `k`, corner `k` to
/// corner `k + 1`): every edge but those shared by exactly two triangles
/// that meet as one surface ([`is_internal_edge`]).
fn active_edges(vertices: &[Vec3], indices: &[[u32; 3]]) -> Vec<u8> {
    let triangle = |t: &[u32; 3]| {
        let [a, b, c] = t.map(|i| vertices[i as usize]);
        Triangle::new(a, b, c)
    };
    let mut sharing: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for (i, t) in indices.iter().enumerate() {
        for k in 0..3 {
            let (u, v) = (t[k], t[(k + 1) % 3]);
            sharing.entry((u.min(v), u.max(v))).or_default().push((i, k));
        }
    }
    let mut active = vec![0b111u8; indices.len()];
    for triangles in sharing.values() {
        let [(i, k), (j, l)] = triangles[..] else {
            continue;
        };
        if is_internal_edge(&triangle(&indices[i]), &triangle(&indices[j])) {
            active[i] &= !(1 << k);
            active[j] &= !(1 << l);
        }
    }
    active
}

/// Checks every triangle of a mesh whose vertices are finite and whose
/// indices are in range ([`Triangle::validate`]: corners at most `f32::MAX`
/// apart on each axis).
fn check_triangles(vertices: &[Vec3], indices: &[[u32; 3]]) -> Result<()> {
    let corner = |i: u32| vertices[i as usize];
    indices
        .iter()
        .try_for_each(|&[a, b, c]| Triangle::new(corner(a), corner(b), corner(c)).validate())
}

impl TriangleMesh {
    /// A mesh of `indices.len()` triangles over `vertices`, each triangle
    /// three indices into `vertices`; the BVH is built by one binned-SAH
    /// build.
    ///
    /// Errors: [`Error::NonFinite`] for a NaN or infinite vertex,
    /// [`Error::InvalidArgument`] for an index out of range, no triangle,
    /// or more than `u32::MAX` vertices; then [`Error::NonFinite`] for a
    /// triangle whose corners lie more than `f32::MAX` apart on an axis
    /// ([`Triangle::validate`]).
    pub fn new(vertices: Vec<Vec3>, indices: Vec<[u32; 3]>) -> Result<TriangleMesh> {
        if vertices.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFinite("mesh vertex"));
        }
        if indices.is_empty() {
            return Err(Error::InvalidArgument("a mesh needs at least one triangle"));
        }
        if u32::try_from(vertices.len()).is_err() {
            return Err(Error::InvalidArgument("too many mesh vertices"));
        }
        if indices.iter().flatten().any(|&i| i as usize >= vertices.len()) {
            return Err(Error::InvalidArgument("mesh index out of range"));
        }
        check_triangles(&vertices, &indices)?;
        Ok(Self::build(vertices, indices))
    }

    /// Builds the tree over checked input.
    fn build(vertices: Vec<Vec3>, indices: Vec<[u32; 3]>) -> TriangleMesh {
        let active_edges = active_edges(&vertices, &indices);
        let mut mesh = TriangleMesh {
            vertices,
            indices,
            active_edges,
            bvh: Bvh::default(),
            aabb: Aabb::new(Vec3::ZERO, Vec3::ZERO),
        };
        let leaves: Vec<Leaf<u32>> = (0..mesh.indices.len())
            .map(|i| Leaf::new(triangle_bounds(&mesh.triangle(i)), i as u32, false))
            .collect();
        mesh.aabb = leaves
            .iter()
            .skip(1)
            .fold(leaves[0].aabb, |acc, leaf| acc.union(&leaf.aabb));
        mesh.bvh.insert_batch(leaves);
        mesh
    }

    /// Whether edge `k` of triangle `i` (from corner `k` to corner
    /// `k + 1`, `k < 3`) is active: an edge of the surface's outline or a
    /// crease, where a shape meets the edge itself. An edge shared by two
    /// triangles whose planes meet at less than 5° is internal: a shape
    /// sliding across it meets the surface, and a cast that touches it
    /// reports the triangle's face normal, never the edge's (no ghost
    /// collisions on a tiled floor). Computed when the mesh is built.
    ///
    /// ```
    /// use collide::{shape::TriangleMesh, math::Vec3};
    /// let floor = TriangleMesh::new(
    ///     vec![Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0), Vec3::new(-1.0, 0.0, 1.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    /// )?;
    /// assert!(floor.is_edge_active(0, 0)); // the outline
    /// assert!(!floor.is_edge_active(0, 2)); // the shared diagonal, 2 → 0
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn is_edge_active(&self, i: usize, k: usize) -> bool {
        self.active_edges[i] & (1 << k) != 0
    }

    /// The vertices.
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The triangles, as vertex-index triples.
    #[inline]
    #[must_use]
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// How many triangles.
    #[inline]
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// Triangle `i` (panics when `i >= triangle_count()`).
    #[inline]
    #[must_use]
    pub fn triangle(&self, i: usize) -> Triangle {
        let [a, b, c] = self.indices[i];
        Triangle::new(
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        )
    }

    /// Every triangle, in index order.
    pub fn triangles(&self) -> impl Iterator<Item = Triangle> + '_ {
        (0..self.indices.len()).map(|i| self.triangle(i))
    }

    /// The tight bounds of all triangles.
    #[inline]
    #[must_use]
    pub fn bounding_aabb(&self) -> Aabb {
        self.aabb
    }

    /// Bytes held by the mesh (vertices, indices, edge flags and tree).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.vertices.capacity() * core::mem::size_of::<Vec3>()
            + self.indices.capacity() * core::mem::size_of::<[u32; 3]>()
            + self.active_edges.capacity()
            + self.bvh.memory_bytes()
    }

    /// The mesh placed by `transform`: every vertex mapped by
    /// [`Transform::apply`] (exact for any scale, a zero or mirroring one
    /// included: a triangle stays a triangle), the tree rebuilt.
    ///
    /// Errors: [`Error::NonFinite`] when a mapped vertex overflows, or a
    /// mapped triangle's corners lie more than `f32::MAX` apart on an axis.
    pub fn transformed(&self, transform: &Transform) -> Result<TriangleMesh> {
        let vertices: Vec<Vec3> = self.vertices.iter().map(|&v| transform.apply(v)).collect();
        if vertices.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFinite("mesh vertex after transform"));
        }
        check_triangles(&vertices, &self.indices)?;
        Ok(Self::build(vertices, self.indices.clone()))
    }

    /// Calls `f(i, triangle)` for every triangle whose box overlaps `aabb`
    /// (closed), until `f` answers `Break` ([`VisitResult`]).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use collide::{Aabb, shape::TriangleMesh, math::Vec3};
    /// let floor = TriangleMesh::new(
    ///     vec![Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0), Vec3::new(-1.0, 0.0, 1.0)],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    /// )?;
    /// let near = Aabb::new(Vec3::new(0.5, -0.1, 0.5), Vec3::new(0.9, 0.1, 0.9));
    /// let mut found = Vec::new();
    /// floor.for_each_triangle_in(&near, |i, _| {
    ///     found.push(i);
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(found.len(), 2); // both triangles' boxes span the square
    /// // Stopping at the first one:
    /// let mut first = None;
    /// floor.for_each_triangle_in(&near, |i, _| {
    ///     first = Some(i);
    ///     ControlFlow::Break(())
    /// });
    /// assert!(first.is_some_and(|i| found.contains(&i)));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn for_each_triangle_in<R: VisitResult>(&self, aabb: &Aabb, mut f: impl FnMut(usize, Triangle) -> R) {
        self.bvh.query(aabb, u64::MAX, |_, leaf| {
            if !leaf.aabb.intersects_aabb(aabb) {
                return ControlFlow::Continue(());
            }
            let i = leaf.data as usize;
            f(i, self.triangle(i)).control_flow()
        });
    }

    /// Walks the tree front to back along the segment from `start` to `end`,
    /// calling `hit(i)` for every triangle whose box the segment may reach
    /// before the closest hit so far; `hit` returns the `t` of its hit,
    /// which shortens the rest of the walk.
    pub(crate) fn for_each_triangle_along(&self, start: Vec3, end: Vec3, mut hit: impl FnMut(usize) -> Option<f32>) {
        self.bvh.cast(start, end, u64::MAX, |leaf| {
            ControlFlow::Continue(hit(leaf.data as usize))
        });
    }
}

impl TriangleSurface for TriangleMesh {
    #[inline]
    fn triangle(&self, i: usize) -> Triangle {
        TriangleMesh::triangle(self, i)
    }
    #[inline]
    fn is_edge_active(&self, i: usize, k: usize) -> bool {
        TriangleMesh::is_edge_active(self, i, k)
    }
    fn for_each_triangle_in<R: VisitResult>(&self, aabb: &Aabb, f: impl FnMut(usize, Triangle) -> R) {
        TriangleMesh::for_each_triangle_in(self, aabb, f);
    }
    fn for_each_triangle_along(&self, start: Vec3, end: Vec3, mut hit: impl FnMut(usize, Triangle) -> Option<f32>) {
        TriangleMesh::for_each_triangle_along(self, start, end, |i| hit(i, self.triangle(i)));
    }
    /// Every triangle sorted by the gap between its box and `bounds` (ties
    /// by index), visited until a gap passes the best distance.
    fn for_each_triangle_near(&self, bounds: &Aabb, mut f: impl FnMut(usize, Triangle) -> f32) {
        let mut order: Vec<(f32, usize)> = (0..self.triangle_count())
            .map(|i| (box_gap(&triangle_bounds(&self.triangle(i)), bounds), i))
            .collect();
        order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let mut best = f32::INFINITY;
        for (gap, i) in order {
            if gap > best {
                break;
            }
            best = best.min(f(i, self.triangle(i)));
        }
    }
}

/// The support mapping of the convex hull of the mesh's triangles (every
/// corner visited):
/// what a generic convex routine sees if handed a mesh. [`Shape`](crate::shape::Shape)'s own
/// queries never rely on it: they send meshes to the per-triangle
/// routines above.
impl Support for TriangleMesh {
    /// The centre of the mesh's bounds ([`Aabb::center`], finite for any
    /// finite mesh).
    #[inline]
    fn center(&self) -> Vec3 {
        self.aabb.center()
    }
    /// The corner `v` with the largest `d·(v − center)`, returned as
    /// `v − center` (the trait's centre-relative support; ties to the
    /// first corner met). Every corner lies in the bounds and the centre is
    /// their middle, so `|v − center|` is at most the half extent: the
    /// difference is a finite `f32` even for a mesh spanning `±f32::MAX`.
    fn core_support(&self, direction: Vec3) -> Vec3 {
        let corners = self.indices.iter().flatten().map(|&i| self.vertices[i as usize]);
        farthest_from(self.center(), direction, corners).expect("a mesh has a triangle")
    }
    #[inline]
    fn margin(&self) -> f32 {
        0.0
    }
    /// `|half extents|` of the bounds, by `math::length_without_overflow` (its
    /// square overflows for meshes beyond about 1.8e19), saturating at
    /// `f32::MAX` (a box spanning more than `±f32::MAX / √3` on every axis),
    /// as the other shapes' radii do.
    #[inline]
    fn bounding_radius(&self) -> f32 {
        length_without_overflow(self.aabb.half_extents()).min(f32::MAX)
    }
}
