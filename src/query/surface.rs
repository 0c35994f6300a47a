//! The queries of a triangle surface — a [`TriangleMesh`] or a
//! [`HeightField`] — written once over [`TriangleSurface`]: segment casts
//! through its index front to back, and overlap, contact, distance and
//! shape casts triangle by triangle among the triangles whose bounds the
//! other shape's (swept) bounds reach (Ericson, *Real-Time Collision
//! Detection*, §6.1: a hierarchy over the primitives, then exact primitive
//! tests). Two surfaces never overlap, touch or hit each other (see
//! [`Shape::Mesh`]).

use core::ops::ControlFlow;

use crate::math::Vec3;
use crate::query::watertight::WatertightSegment;
use crate::query::{CastHit, Contact, Distance, TimeOfImpact};
use crate::shape::surface::TriangleSurface;
use crate::shape::{Aabb, HeightField, Segment, Shape, TriangleMesh};

/// A borrowed triangle surface of a [`Shape`]: the one place a query
/// dispatches on the kind of surface.
#[derive(Debug, Clone, Copy)]
pub(crate) enum SurfaceRef<'a> {
    Mesh(&'a TriangleMesh),
    HeightField(&'a HeightField),
}

/// Calls `$body` with `$s` bound to the surface, whichever its kind.
macro_rules! each_surface {
    ($value:expr, $s:ident => $body:expr) => {
        match $value {
            SurfaceRef::Mesh($s) => $body,
            SurfaceRef::HeightField($s) => $body,
        }
    };
}

impl Shape {
    /// The shape as a triangle surface, `None` for a convex shape.
    #[inline]
    pub(crate) fn surface(&self) -> Option<SurfaceRef<'_>> {
        match self {
            Shape::Mesh(m) => Some(SurfaceRef::Mesh(m)),
            Shape::HeightField(h) => Some(SurfaceRef::HeightField(h)),
            _ => None,
        }
    }
}

impl SurfaceRef<'_> {
    pub(crate) fn intersects(self, shape: &Shape) -> bool {
        each_surface!(self, s => intersects(s, shape))
    }
    pub(crate) fn contact(self, shape: &Shape) -> Option<Contact> {
        each_surface!(self, s => contact(s, shape))
    }
    pub(crate) fn distance(self, shape: &Shape) -> Distance {
        each_surface!(self, s => distance(s, shape))
    }
    pub(crate) fn cast_shape_against(self, shape: &Shape, motion: Vec3) -> Option<TimeOfImpact> {
        each_surface!(self, s => cast_shape_against(s, shape, motion))
    }
    pub(crate) fn for_each_triangle_in(
        self,
        aabb: &Aabb,
        f: impl FnMut(usize, crate::shape::Triangle) -> ControlFlow<()>,
    ) {
        each_surface!(self, s => TriangleSurface::for_each_triangle_in(s, aabb, f))
    }
}

/// The closest triangle the segment crosses, and which (ties in `t` to the
/// smaller index): the surface's index walked front to back, each hit
/// shortening the walk, [`Segment::cast_triangle`] (watertight) at the
/// triangles.
fn cast_segment_indexed(s: &impl TriangleSurface, segment: &Segment) -> Option<(usize, CastHit)> {
    let prepared = WatertightSegment::new(segment)?;
    let mut best: Option<(usize, CastHit)> = None;
    s.for_each_triangle_along(segment.start, segment.end, |i, triangle| {
        let hit = CastHit {
            sub_shape: i as u32,
            ..prepared.cast(&triangle)?
        };
        if best.is_none_or(|(j, b)| hit.t < b.t || (hit.t == b.t && i < j)) {
            best = Some((i, hit));
        }
        Some(hit.t)
    });
    best
}

/// Whether the convex `shape` overlaps any triangle (touching counts),
/// each tested by [`Shape::intersects`]; `false` for another surface.
fn intersects(s: &impl TriangleSurface, shape: &Shape) -> bool {
    if shape.surface().is_some() {
        return false;
    }
    let mut found = false;
    s.for_each_triangle_in(&shape.bounding_aabb(), |_, tri| {
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
fn overlapping_triangles(s: &impl TriangleSurface, shape: &Shape, out: &mut Vec<usize>) {
    out.clear();
    if shape.surface().is_some() {
        return;
    }
    s.for_each_triangle_in(&shape.bounding_aabb(), |i, tri| {
        if Shape::Triangle(tri).intersects(shape) {
            out.push(i);
        }
    });
    out.sort_unstable();
}

/// The deepest contact of the convex `shape` with any triangle (ties to
/// the smaller index), the normal from the surface to the shape.
fn contact(s: &impl TriangleSurface, shape: &Shape) -> Option<Contact> {
    if shape.surface().is_some() {
        return None;
    }
    let mut best: Option<(usize, Contact)> = None;
    s.for_each_triangle_in(&shape.bounding_aabb(), |i, tri| {
        if let Some(c) = Shape::Triangle(tri).contact(shape) {
            if best.is_none_or(|(j, b)| c.depth > b.depth || (c.depth == b.depth && i < j)) {
                best = Some((i, c));
            }
        }
    });
    best.map(|(i, c)| Contact {
        sub_shapes: [i as u32, c.sub_shapes[1]],
        ..c
    })
}

/// The least distance from the surface to `shape` over the triangles,
/// nearest bounds first, stopped once a bound passes the best so far.
/// Another surface: the least over its triangles against each of these
/// (quadratic; surfaces are level geometry).
fn distance(s: &impl TriangleSurface, shape: &Shape) -> Distance {
    let mut best: Option<(usize, Distance)> = None;
    s.for_each_triangle_near(&shape.bounding_aabb(), |i, tri| {
        let d = Shape::Triangle(tri).distance(shape);
        if best.is_none_or(|(j, b)| d.distance < b.distance || (d.distance == b.distance && i < j)) {
            best = Some((i, d));
        }
        best.map_or(f32::INFINITY, |(_, b)| b.distance)
    });
    let (i, d) = best.expect("a surface has at least one triangle");
    Distance {
        sub_shapes: [i as u32, d.sub_shapes[1]],
        ..d
    }
}

/// When the convex `shape`, moving by `motion`, first touches the
/// surface: [`Shape::cast_shape`] against each triangle whose bounds the
/// swept bounds reach, the earliest wins (ties to the smaller index); a
/// touch on an internal edge reports the face normal ([`smooth_normal`]).
fn cast_shape_against(s: &impl TriangleSurface, shape: &Shape, motion: Vec3) -> Option<TimeOfImpact> {
    if shape.surface().is_some() {
        return None;
    }
    let swept = shape.bounding_aabb().swept(motion);
    let mut best: Option<(usize, TimeOfImpact)> = None;
    s.for_each_triangle_in(&swept, |i, tri| {
        if let Some(toi) = shape.cast_shape(motion, &Shape::Triangle(tri)) {
            if best.is_none_or(|(j, b)| toi.t < b.t || (toi.t == b.t && i < j)) {
                best = Some((i, toi));
            }
        }
    });
    best.map(|(i, toi)| TimeOfImpact {
        normal: smooth_normal(s, i, toi.point, toi.normal),
        sub_shapes: [toi.sub_shapes[0], i as u32],
        ..toi
    })
}

/// The normal of a contact with triangle `i` at `point`: the
/// triangle's face normal (signed as `normal`) where the point lies on
/// an internal edge ([`TriangleMesh::is_edge_active`]), or on a corner
/// both of whose edges in this triangle are internal; `normal`
/// elsewhere. A shape sliding across a tiled floor meets the floor, not
/// the seams between its tiles.
fn smooth_normal(s: &impl TriangleSurface, i: usize, point: Vec3, normal: Vec3) -> Vec3 {
    /// How close to an edge, as the opposite corner's barycentric
    /// weight, a point is on it.
    const ON_EDGE: f64 = 1.0e-4;
    let triangle = s.triangle(i);
    let Some(face) = triangle.normal() else {
        return normal;
    };
    let weights = triangle.closest_point_f64(point.as_dvec3()).weights;
    // Edge `k` runs from corner `k` to corner `k + 1`, opposite corner `k + 2`.
    let mut edges = (0..3).filter(|&k| weights[(k + 2) % 3] <= ON_EDGE).peekable();
    if edges.peek().is_some() && edges.all(|k| !s.is_edge_active(i, k)) {
        if face.dot(normal) < 0.0 {
            -face
        } else {
            face
        }
    } else {
        normal
    }
}

impl TriangleMesh {
    /// The segment against triangle `i` alone ([`Segment::cast_triangle`],
    /// the watertight test): the exact test [`TriangleMesh::cast_segment`]
    /// runs at each leaf.
    #[must_use]
    pub fn cast_triangle(&self, i: usize, segment: &Segment) -> Option<CastHit> {
        let hit = segment.cast_triangle(&self.triangle(i))?;
        Some(CastHit {
            sub_shape: i as u32,
            ..hit
        })
    }

    /// The closest triangle the segment crosses, and which (ties in `t` to
    /// the smaller index): the tree walked front to back, each hit
    /// shortening the segment, [`TriangleMesh::cast_triangle`] at the
    /// leaves.
    #[must_use]
    pub fn cast_segment_indexed(&self, segment: &Segment) -> Option<(usize, CastHit)> {
        cast_segment_indexed(self, segment)
    }

    /// First contact of the segment with the mesh (two-sided; the normal is
    /// the hit triangle's, facing the segment's start). A mesh is a surface,
    /// not a solid: a segment starting "inside" a closed mesh hits its
    /// first wall.
    #[inline]
    #[must_use]
    pub fn cast_segment(&self, segment: &Segment) -> Option<CastHit> {
        cast_segment_indexed(self, segment).map(|(_, hit)| hit)
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
    /// otherwise). Against another surface: `false` (see [`Shape::Mesh`]).
    #[must_use]
    pub fn intersects(&self, shape: &Shape) -> bool {
        intersects(self, shape)
    }

    /// The indices of the triangles the convex `shape` overlaps, ascending.
    pub fn overlapping_triangles(&self, shape: &Shape, out: &mut Vec<usize>) {
        overlapping_triangles(self, shape, out);
    }

    /// The deepest contact of the convex `shape` with any triangle, the
    /// normal from the mesh to the shape; `None` when they are apart. Each
    /// triangle is a flat, two-sided solid (its contact normal is the
    /// triangle's face or edge normal towards the shape); the deepest one
    /// wins, ties to the smaller index. A per-triangle answer, not a
    /// manifold: a shape across a seam reports one triangle's contact.
    #[must_use]
    pub fn contact(&self, shape: &Shape) -> Option<Contact> {
        contact(self, shape)
    }

    /// The distance from the mesh to `shape` (`point_a` on the mesh): the
    /// least GJK distance over the triangles, visited in order of their
    /// boxes' distance to the shape's bounds and stopped once a box is
    /// farther than the best so far (ties to the smaller index). Another
    /// surface: the least over pairs of triangles (quadratic; meshes are
    /// level geometry).
    #[must_use]
    pub fn distance(&self, shape: &Shape) -> Distance {
        distance(self, shape)
    }

    /// When the convex `shape`, moving by `motion`, first touches the
    /// mesh: [`Shape::cast_shape`] against each triangle whose box the
    /// swept bounds touch, the earliest wins (ties to the smaller index).
    /// The normal points from the shape to the mesh; a touch on an internal
    /// edge ([`TriangleMesh::is_edge_active`]) reports the triangle's face
    /// normal. Another surface: `None`.
    #[must_use]
    pub fn cast_shape_against(&self, shape: &Shape, motion: Vec3) -> Option<TimeOfImpact> {
        cast_shape_against(self, shape, motion)
    }
}

impl HeightField {
    /// The closest triangle the segment crosses, and which (ties in `t` to
    /// the smaller index): the pyramid walked front to back down to the
    /// cells under the segment, each hit shortening the walk.
    ///
    /// ```
    /// use collide::{Segment, shape::HeightField, math::Vec3};
    /// let field = HeightField::new(3, 3, vec![0.0; 9], Vec3::ONE)?;
    /// let (i, hit) = field.cast_segment_indexed(&Segment::new(Vec3::new(1.2, 1.0, 0.5), Vec3::new(1.2, -1.0, 0.5))).unwrap();
    /// // Cell (1, 0), its first triangle: the side of the diagonal where x − 1 ≤ z.
    /// assert_eq!((i, hit.t, hit.normal), (2, 0.5, Vec3::Y));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn cast_segment_indexed(&self, segment: &Segment) -> Option<(usize, CastHit)> {
        cast_segment_indexed(self, segment)
    }

    /// First contact of the segment with the field (two-sided: the normal
    /// faces the segment's start). See the type's example.
    #[inline]
    #[must_use]
    pub fn cast_segment(&self, segment: &Segment) -> Option<CastHit> {
        cast_segment_indexed(self, segment).map(|(_, hit)| hit)
    }

    /// Whether the convex `shape` overlaps any triangle (touching counts);
    /// `false` against another surface.
    ///
    /// ```
    /// use collide::{Shape, Sphere, shape::HeightField, math::Vec3};
    /// let field = HeightField::new(3, 3, vec![0.0; 9], Vec3::ONE)?;
    /// assert!(field.intersects(&Shape::Sphere(Sphere::new(Vec3::new(1.0, 0.4, 1.0), 0.5))));
    /// assert!(!field.intersects(&Shape::Sphere(Sphere::new(Vec3::new(1.0, 0.6, 1.0), 0.5))));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn intersects(&self, shape: &Shape) -> bool {
        intersects(self, shape)
    }

    /// The indices of the triangles the convex `shape` overlaps, ascending.
    ///
    /// ```
    /// use collide::{Shape, Sphere, shape::HeightField, math::Vec3};
    /// let field = HeightField::new(3, 3, vec![0.0; 9], Vec3::ONE)?;
    /// let mut found = Vec::new();
    /// field.overlapping_triangles(&Shape::Sphere(Sphere::new(Vec3::new(0.2, 0.0, 0.8), 0.1)), &mut found);
    /// assert_eq!(found, [0]);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn overlapping_triangles(&self, shape: &Shape, out: &mut Vec<usize>) {
        overlapping_triangles(self, shape, out);
    }

    /// The deepest contact of the convex `shape` with any triangle (ties to
    /// the smaller index), the normal from the field to the shape; `None`
    /// when apart.
    ///
    /// ```
    /// use collide::{Shape, Sphere, shape::HeightField, math::Vec3};
    /// let field = HeightField::new(3, 3, vec![0.0; 9], Vec3::ONE)?;
    /// let c = field.contact(&Shape::Sphere(Sphere::new(Vec3::new(1.5, 0.25, 1.5), 0.5))).unwrap();
    /// assert_eq!((c.depth, c.normal), (0.25, Vec3::Y));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn contact(&self, shape: &Shape) -> Option<Contact> {
        contact(self, shape)
    }

    /// The distance from the field to `shape` (`point_a` on the field):
    /// the pyramid walked nearest first, stopped once a node is farther
    /// than the best so far.
    ///
    /// ```
    /// use collide::{Shape, Sphere, shape::HeightField, math::Vec3};
    /// let field = HeightField::new(3, 3, vec![0.0; 9], Vec3::ONE)?;
    /// let d = field.distance(&Shape::Sphere(Sphere::new(Vec3::new(1.5, 3.0, 1.5), 1.0)));
    /// assert!((d.distance - 2.0).abs() < 1e-6);
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn distance(&self, shape: &Shape) -> Distance {
        distance(self, shape)
    }

    /// When the convex `shape`, moving by `motion`, first touches the
    /// field (the earliest triangle, ties to the smaller index; the face
    /// normal on an internal edge); `None` against another surface.
    ///
    /// ```
    /// use collide::{Shape, Sphere, shape::HeightField, math::Vec3};
    /// let field = HeightField::new(3, 3, vec![0.0; 9], Vec3::ONE)?;
    /// let ball = Shape::Sphere(Sphere::new(Vec3::new(1.0, 2.0, 1.0), 0.5));
    /// let toi = field.cast_shape_against(&ball, Vec3::new(0.0, -3.0, 0.0)).unwrap();
    /// assert_eq!((toi.t, toi.normal), (0.5, Vec3::NEG_Y));
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    pub fn cast_shape_against(&self, shape: &Shape, motion: Vec3) -> Option<TimeOfImpact> {
        cast_shape_against(self, shape, motion)
    }
}
