//! Triangle mesh: static level geometry, a soup of triangles indexed by a
//! bounding volume hierarchy (the world's own 4-wide [`Bvh`], one leaf per
//! triangle with the triangle's index as the leaf's user data).
//!
//! A mesh is *not* convex and has no inside: it is a two-sided surface.
//! Segment casts find the closest triangle crossed; overlap, distance,
//! contact and shape casts against a convex shape run the convex query
//! against each triangle whose box the shape's (swept) bounds touch and
//! keep the best answer (Ericson, *Real-Time Collision Detection*, §6.1:
//! a BVH over the primitives, then exact primitive tests).

use crate::broad::bvh::Bvh;
use crate::collider::{ColliderKey, Filter, Shape, Transform};
use crate::error::{Error, Result};
use crate::math::{length_without_overflow, Vec3};
use crate::query::{CastHit, Contact, Distance, TimeOfImpact};
use crate::shape::{Aabb, Segment, Support, Triangle};

/// A static triangle mesh: vertices, triangles as vertex-index triples, and
/// a BVH over the triangles.
///
/// Built once ([`TriangleMesh::new`]) and shared behind an `Arc` by
/// [`Shape::Mesh`]. Degenerate triangles (repeated or collinear corners)
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
    bvh: Bvh,
    aabb: Aabb,
}

impl PartialEq for TriangleMesh {
    /// Same vertices and triangles (the trees follow from them).
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices && self.indices == other.indices
    }
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
        let mut mesh = TriangleMesh {
            vertices,
            indices,
            bvh: Bvh::default(),
            aabb: Aabb::new(Vec3::ZERO, Vec3::ZERO),
        };
        let leaves: Vec<(Aabb, Filter, u64, bool, ColliderKey)> = (0..mesh.indices.len())
            .map(|i| {
                let t = mesh.triangle(i);
                let aabb = Aabb::new(t.a.min(t.b).min(t.c), t.a.max(t.b).max(t.c));
                (aabb, Filter::DEFAULT, i as u64, false, ColliderKey::default())
            })
            .collect();
        mesh.aabb = leaves.iter().skip(1).fold(leaves[0].0, |acc, leaf| acc.union(&leaf.0));
        mesh.bvh.insert_batch(leaves.into_iter());
        mesh
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The triangles, as vertex-index triples.
    #[inline]
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// How many triangles.
    #[inline]
    pub fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// Triangle `i` (panics when `i >= triangle_count()`).
    #[inline]
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
    pub fn bounding_aabb(&self) -> Aabb {
        self.aabb
    }

    /// Bytes held by the mesh (vertices, indices and tree).
    pub fn memory_bytes(&self) -> usize {
        self.vertices.capacity() * core::mem::size_of::<Vec3>()
            + self.indices.capacity() * core::mem::size_of::<[u32; 3]>()
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

    /// The segment against triangle `i` alone (two-sided, normal facing the
    /// segment's start): the exact test [`TriangleMesh::cast_segment`] runs
    /// at each leaf.
    ///
    /// A watertight test: Woop, Benthin and Wald, "Watertight Ray/Triangle
    /// Intersection" (JCGT 2(1), 2013). The corners are taken into the
    /// segment's frame (the start at the origin, the dominant axis `z` of
    /// `D = end − start` sheared onto the line) and rounded to `f32` once
    /// per corner, so the triangles around an edge or a corner see the very
    /// same 2D points; the edge functions `U = p.x·q.y − p.y·q.x` of those
    /// points are then evaluated in `f64`, where the two products are exact
    /// and the difference is rounded once, so their signs are exact. The
    /// line crosses the triangle when the three signs agree (zeros allowed,
    /// not all zero): a segment through a shared edge or corner hits at
    /// least one of the triangles around it, where Möller–Trumbore
    /// ([`Segment::cast_triangle`]) may let it slip between them. `t` is
    /// the plane crossing `n·(a − start) / n·D`, kept in `[0, 1]`. A
    /// degenerate triangle (`n = 0`, exact in `f64`), a segment parallel to
    /// the plane and a zero-length segment miss.
    pub fn cast_triangle(&self, i: usize, segment: &Segment) -> Option<CastHit> {
        let tri = self.triangle(i);
        let p = segment.start.as_dvec3();
        let d = segment.end.as_dvec3() - p;
        let kz = d.abs().max_position();
        let (kx, ky) = ((kz + 1) % 3, (kz + 2) % 3);
        if !(d[kz] != 0.0) {
            return None;
        }
        let (sx, sy) = (d[kx] / d[kz], d[ky] / d[kz]);
        let project = |v: Vec3| {
            let a = v.as_dvec3() - p;
            ((a[kx] - sx * a[kz]) as f32 as f64, (a[ky] - sy * a[kz]) as f32 as f64)
        };
        let (a2, b2, c2) = (project(tri.a), project(tri.b), project(tri.c));
        let edge = |p: (f64, f64), q: (f64, f64)| p.0 * q.1 - p.1 * q.0;
        let (w_c, w_a, w_b) = (edge(a2, b2), edge(b2, c2), edge(c2, a2));
        let negative = w_a < 0.0 || w_b < 0.0 || w_c < 0.0;
        let positive = w_a > 0.0 || w_b > 0.0 || w_c > 0.0;
        if negative == positive {
            // Mixed signs (a miss), all zero (in the plane, or degenerate),
            // or NaN.
            return None;
        }
        let (a, b, c) = (tri.a.as_dvec3(), tri.b.as_dvec3(), tri.c.as_dvec3());
        let n = (b - a).cross(c - a);
        let approach = n.dot(d);
        if !(approach != 0.0) {
            return None;
        }
        let t = n.dot(a - p) / approach;
        if !(0.0..=1.0).contains(&t) {
            return None;
        }
        let n = n.normalize().as_vec3();
        let normal = if approach > 0.0 { -n } else { n };
        if !normal.is_finite() {
            return None;
        }
        Some(CastHit { t: t as f32, normal })
    }

    /// The closest triangle the segment crosses, and which (ties in `t` to
    /// the smaller index): the tree walked front to back, each hit
    /// shortening the segment ([`Bvh::cast`]), [`TriangleMesh::cast_triangle`]
    /// at the leaves.
    pub fn cast_segment_indexed(&self, segment: &Segment) -> Option<(usize, CastHit)> {
        let mut best: Option<(usize, CastHit)> = None;
        self.bvh.cast(segment, u64::MAX, |leaf| {
            let i = leaf.user_data as usize;
            let hit = self.cast_triangle(i, segment)?;
            if best.is_none_or(|(j, b)| hit.t < b.t || (hit.t == b.t && i < j)) {
                best = Some((i, hit));
            }
            Some(hit.t)
        });
        best
    }

    /// First contact of the segment with the mesh (two-sided; the normal is
    /// the hit triangle's, facing the segment's start). A mesh is a surface,
    /// not a solid: a segment starting "inside" a closed mesh hits its
    /// first wall.
    #[inline]
    pub fn cast_segment(&self, segment: &Segment) -> Option<CastHit> {
        self.cast_segment_indexed(segment).map(|(_, hit)| hit)
    }

    /// The same answer as [`TriangleMesh::cast_segment_indexed`] by the loop
    /// over every triangle: the reference the tree walk is tested against.
    pub fn cast_segment_brute_force(&self, segment: &Segment) -> Option<(usize, CastHit)> {
        let mut best: Option<(usize, CastHit)> = None;
        for i in 0..self.indices.len() {
            if let Some(hit) = self.cast_triangle(i, segment) {
                if best.is_none_or(|(_, b)| hit.t < b.t) {
                    best = Some((i, hit));
                }
            }
        }
        best
    }

    /// Calls `f(i, triangle)` for every triangle whose box overlaps `aabb`
    /// (closed); `f` returns `false` to stop the walk early (the rest of the
    /// tree is then skipped cheaply).
    pub fn for_each_triangle_in(&self, aabb: &Aabb, mut f: impl FnMut(usize, Triangle) -> bool) {
        let mut going = true;
        self.bvh.query(aabb, u64::MAX, |_, leaf| {
            if going && leaf.aabb.intersects_aabb(aabb) {
                let i = leaf.user_data as usize;
                going = f(i, self.triangle(i));
            }
        });
    }

    /// Whether the convex `shape` overlaps any triangle (touching counts):
    /// the triangles whose boxes overlap the shape's bounds, each tested
    /// exactly by [`Shape::intersects`] (closed form for a sphere, GJK
    /// otherwise). Against another mesh: `false` (see [`Shape::Mesh`]).
    pub fn intersects(&self, shape: &Shape) -> bool {
        if matches!(shape, Shape::Mesh(_)) {
            return false;
        }
        let mut found = false;
        self.for_each_triangle_in(&shape.bounding_aabb(), |_, tri| {
            found = Shape::Triangle(tri).intersects(shape);
            !found
        });
        found
    }

    /// The indices of the triangles the convex `shape` overlaps, ascending.
    pub fn overlapping_triangles(&self, shape: &Shape, out: &mut Vec<usize>) {
        out.clear();
        if matches!(shape, Shape::Mesh(_)) {
            return;
        }
        self.for_each_triangle_in(&shape.bounding_aabb(), |i, tri| {
            if Shape::Triangle(tri).intersects(shape) {
                out.push(i);
            }
            true
        });
        out.sort_unstable();
    }

    /// The deepest contact of the convex `shape` with any triangle, the
    /// normal from the mesh to the shape; `None` when they are apart. Each
    /// triangle is a flat, two-sided solid (its contact normal is the
    /// triangle's face or edge normal towards the shape); the deepest one
    /// wins, ties to the smaller index. A per-triangle answer, not a
    /// manifold: a shape across a seam reports one triangle's contact.
    pub fn contact(&self, shape: &Shape) -> Option<Contact> {
        if matches!(shape, Shape::Mesh(_)) {
            return None;
        }
        let mut best: Option<Contact> = None;
        self.for_each_triangle_in(&shape.bounding_aabb(), |_, tri| {
            if let Some(c) = Shape::Triangle(tri).contact(shape) {
                if best.is_none_or(|b| c.depth > b.depth) {
                    best = Some(c);
                }
            }
            true
        });
        best
    }

    /// The distance from the mesh to the convex `shape` (`point_a` on the
    /// mesh): the least GJK distance over the triangles, visited in order
    /// of their boxes' distance to the shape's bounds and stopped once a
    /// box is farther than the best so far. Another mesh: the least over
    /// pairs of triangles (quadratic; meshes are level geometry).
    ///
    /// A box's distance is the length of the per-axis gap, by
    /// `math::length_without_overflow`: its square overflows for gaps
    /// beyond about 1.8e19, and a bound of `∞` on every box would stop the
    /// walk after the first triangle, whichever is nearest.
    pub fn distance(&self, shape: &Shape) -> Distance {
        let bounds = shape.bounding_aabb();
        let gap = |b: &Aabb| {
            let d = (b.min - bounds.max).max(bounds.min - b.max).max(Vec3::ZERO);
            length_without_overflow(d)
        };
        let mut order: Vec<(f32, usize)> = (0..self.indices.len())
            .map(|i| {
                let t = self.triangle(i);
                (gap(&Aabb::new(t.a.min(t.b).min(t.c), t.a.max(t.b).max(t.c))), i)
            })
            .collect();
        order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let mut best: Option<Distance> = None;
        for (lower_bound, i) in order {
            if best.is_some_and(|b| lower_bound > b.distance) {
                break;
            }
            let d = match shape {
                Shape::Mesh(other) => {
                    let d = other.distance(&Shape::Triangle(self.triangle(i)));
                    Distance {
                        point_a: d.point_b,
                        point_b: d.point_a,
                        normal: d.normal.map(|n| -n),
                        ..d
                    }
                }
                _ => Shape::Triangle(self.triangle(i)).distance(shape),
            };
            if best.is_none_or(|b| d.distance < b.distance) {
                best = Some(d);
            }
        }
        best.expect("a mesh has at least one triangle")
    }

    /// When the convex `shape`, moving by `motion`, first touches the
    /// mesh: [`Shape::cast_shape`] against each triangle whose box the
    /// swept bounds touch, the earliest wins (ties to the smaller index).
    /// The normal points from the shape to the mesh. Another mesh: `None`.
    pub fn cast_shape_against(&self, shape: &Shape, motion: Vec3) -> Option<TimeOfImpact> {
        if matches!(shape, Shape::Mesh(_)) {
            return None;
        }
        let bounds = shape.bounding_aabb();
        let swept = bounds.union(&Aabb::new(bounds.min + motion, bounds.max + motion));
        let mut best: Option<(usize, TimeOfImpact)> = None;
        self.for_each_triangle_in(&swept, |i, tri| {
            if let Some(toi) = shape.cast_shape(motion, &Shape::Triangle(tri)) {
                if best.is_none_or(|(j, b)| toi.t < b.t || (toi.t == b.t && i < j)) {
                    best = Some((i, toi));
                }
            }
            true
        });
        best.map(|(_, toi)| toi)
    }
}

/// The support mapping of the convex hull of the mesh's triangles (every
/// corner visited):
/// what a generic convex routine sees if handed a mesh. [`Shape`]'s own
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
        let center = self.center();
        let mut best = self.vertices[self.indices[0][0] as usize] - center;
        let mut best_dot = best.dot(direction);
        for &i in self.indices.iter().flatten() {
            let offset = self.vertices[i as usize] - center;
            let dot = offset.dot(direction);
            if dot > best_dot {
                best = offset;
                best_dot = dot;
            }
        }
        best
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
