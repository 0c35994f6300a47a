//! The queries of a [`TriangleMesh`]: segment casts through its tree, and
//! overlap, contact, distance and shape casts triangle by triangle among
//! the triangles whose boxes the other shape's bounds reach.

use core::ops::ControlFlow;

use crate::math::{length_without_overflow, Vec3};
use crate::query::{CastHit, Contact, Distance, TimeOfImpact};
use crate::shape::{Aabb, Segment, Shape, TriangleMesh};

impl TriangleMesh {
    /// The segment against triangle `i` alone ([`Segment::cast_triangle`],
    /// the watertight test): the exact test [`TriangleMesh::cast_segment`]
    /// runs at each leaf.
    #[must_use]
    pub fn cast_triangle(&self, i: usize, segment: &Segment) -> Option<CastHit> {
        segment.cast_triangle(&self.triangle(i))
    }

    /// The closest triangle the segment crosses, and which (ties in `t` to
    /// the smaller index): the tree walked front to back, each hit
    /// shortening the segment (a front-to-back walk), [`TriangleMesh::cast_triangle`]
    /// at the leaves.
    #[must_use]
    pub fn cast_segment_indexed(&self, segment: &Segment) -> Option<(usize, CastHit)> {
        let mut best: Option<(usize, CastHit)> = None;
        self.for_each_triangle_along(segment.start, segment.end, |i| {
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
    #[must_use]
    pub fn cast_segment(&self, segment: &Segment) -> Option<CastHit> {
        self.cast_segment_indexed(segment).map(|(_, hit)| hit)
    }

    /// The same answer as [`TriangleMesh::cast_segment_indexed`] by the loop
    /// over every triangle: the reference the tree walk is tested against.
    #[doc(hidden)]
    #[must_use]
    pub fn cast_segment_brute_force(&self, segment: &Segment) -> Option<(usize, CastHit)> {
        let mut best: Option<(usize, CastHit)> = None;
        for i in 0..self.triangle_count() {
            if let Some(hit) = self.cast_triangle(i, segment) {
                if best.is_none_or(|(_, b)| hit.t < b.t) {
                    best = Some((i, hit));
                }
            }
        }
        best
    }

    /// Whether the convex `shape` overlaps any triangle (touching counts):
    /// the triangles whose boxes overlap the shape's bounds, each tested
    /// exactly by [`Shape::intersects`] (closed form for a sphere, GJK
    /// otherwise). Against another mesh: `false` (see [`Shape::Mesh`]).
    #[must_use]
    pub fn intersects(&self, shape: &Shape) -> bool {
        if matches!(shape, Shape::Mesh(_)) {
            return false;
        }
        let mut found = false;
        self.for_each_triangle_in(&shape.bounding_aabb(), |_, tri| {
            found = Shape::Triangle(tri).intersects(shape);
            if found {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
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
            ControlFlow::Continue(())
        });
        out.sort_unstable();
    }

    /// The deepest contact of the convex `shape` with any triangle, the
    /// normal from the mesh to the shape; `None` when they are apart. Each
    /// triangle is a flat, two-sided solid (its contact normal is the
    /// triangle's face or edge normal towards the shape); the deepest one
    /// wins, ties to the smaller index. A per-triangle answer, not a
    /// manifold: a shape across a seam reports one triangle's contact.
    #[must_use]
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
            ControlFlow::Continue(())
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
    #[must_use]
    pub fn distance(&self, shape: &Shape) -> Distance {
        let bounds = shape.bounding_aabb();
        let gap = |b: &Aabb| {
            let d = (b.min - bounds.max).max(bounds.min - b.max).max(Vec3::ZERO);
            length_without_overflow(d)
        };
        let mut order: Vec<(f32, usize)> = (0..self.triangle_count())
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
                Shape::Mesh(other) => other.distance(&Shape::Triangle(self.triangle(i))).flipped(),
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
    /// The normal points from the shape to the mesh; a touch on an internal
    /// edge ([`TriangleMesh::is_edge_active`]) reports the triangle's face
    /// normal. Another mesh: `None`.
    #[must_use]
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
            ControlFlow::Continue(())
        });
        best.map(|(i, toi)| TimeOfImpact {
            normal: self.smooth_normal(i, toi.point, toi.normal),
            ..toi
        })
    }

    /// The normal of a contact with triangle `i` at `point`: the
    /// triangle's face normal (signed as `normal`) where the point lies on
    /// an internal edge ([`TriangleMesh::is_edge_active`]), or on a corner
    /// both of whose edges in this triangle are internal; `normal`
    /// elsewhere. A shape sliding across a tiled floor meets the floor, not
    /// the seams between its tiles.
    fn smooth_normal(&self, i: usize, point: Vec3, normal: Vec3) -> Vec3 {
        /// How close to an edge, as the opposite corner's barycentric
        /// weight, a point is on it.
        const ON_EDGE: f64 = 1.0e-4;
        let triangle = self.triangle(i);
        let Some(face) = triangle.normal() else {
            return normal;
        };
        let weights = triangle.closest_point_f64(point.as_dvec3()).weights;
        // Edge `k` runs from corner `k` to corner `k + 1`, opposite corner `k + 2`.
        let mut edges = (0..3).filter(|&k| weights[(k + 2) % 3] <= ON_EDGE).peekable();
        if edges.peek().is_some() && edges.all(|k| !self.is_edge_active(i, k)) {
            if face.dot(normal) < 0.0 {
                -face
            } else {
                face
            }
        } else {
            normal
        }
    }
}
