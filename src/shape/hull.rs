//! Convex hull of a point cloud (3D), built by quickhull.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::math::{exponent_of_largest, power_of_two, DVec3, Mat3, Vec3, DEGENERATE_EPSILON};
use crate::shape::triangle::area_normal;
use crate::shape::Plane;

/// A solid convex polyhedron: the convex hull of a set of points.
///
/// It keeps what each query needs: the hull's vertices (for the support
/// mapping of GJK and EPA), its triangles (outward, counter-clockwise seen
/// from outside), one supporting [`Plane`] per distinct face (coplanar
/// triangles merged; for containment, segment casts and separating axes),
/// and its feature edges (between two distinct faces; the edge axes of
/// SAT).
///
/// Built once by [`ConvexHull::from_points`]; the data is immutable after
/// that, so every query is allocation-free.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexHull {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    planes: Vec<Plane>,
    /// Per plane, the hull's reach along its normal from `center`,
    /// `max_v n·(v − center)`: the plane relative to the hull, exact where
    /// `Plane::d`, an offset from the world's origin, rounds at that
    /// origin's distance (`f32` spacing 4e-6 at 50, which moves the knife
    /// edge of a thin hull's two faces 0.1 rad apart by 4e-5).
    reaches: Vec<f32>,
    edges: Vec<[u32; 2]>,
    /// Per edge, the two planes meeting there: the ends of the edge's arc
    /// on the Gauss map, for the separating-axis test; empty for a hull of
    /// more than [`SAT_MAX_VERTICES`] vertices, which the test leaves to
    /// GJK and EPA.
    edge_faces: Vec<[u32; 2]>,
    center: Vec3,
    bounding_radius: f32,
}

/// A hull's `reaches`: `max_v n·(v − center)` per plane, in `f64`.
fn reaches_of(planes: &[Plane], vertices: &[Vec3], center: Vec3) -> Vec<f32> {
    let c = center.as_dvec3();
    planes
        .iter()
        .map(|plane| {
            let n = plane.normal.as_dvec3();
            vertices
                .iter()
                .map(|v| n.dot(v.as_dvec3() - c))
                .fold(f64::NEG_INFINITY, f64::max) as f32
        })
        .collect()
}

/// The most vertices of a hull the separating-axis test takes: its cost
/// grows with the product of the two hulls' edge counts.
pub(crate) const SAT_MAX_VERTICES: usize = 64;

/// A hull's `edge_faces`: per edge, the two planes that both its ends lie
/// nearest to (the larger of the two ends' distances from the plane,
/// measured from the centre in `f64`), the two faces the edge joins.
fn edge_faces_of(
    planes: &[Plane],
    reaches: &[f32],
    vertices: &[Vec3],
    edges: &[[u32; 2]],
    center: Vec3,
) -> Vec<[u32; 2]> {
    let c = center.as_dvec3();
    // `off[v·F + i]`: vertex `v`'s distance from plane `i`.
    let off: Vec<f64> = vertices
        .iter()
        .flat_map(|v| {
            let v = v.as_dvec3() - c;
            planes
                .iter()
                .zip(reaches)
                .map(move |(p, &reach)| (p.normal.as_dvec3().dot(v) - f64::from(reach)).abs())
        })
        .collect();
    let f = planes.len();
    edges
        .iter()
        .map(|&[a, b]| {
            let (a, b) = (&off[a as usize * f..][..f], &off[b as usize * f..][..f]);
            let (mut first, mut second) = ((f64::INFINITY, 0u32), (f64::INFINITY, 0u32));
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let o = x.max(*y);
                if o < first.0 {
                    (first, second) = ((o, i as u32), first);
                } else if o < second.0 {
                    second = (o, i as u32);
                }
            }
            [first.1, second.1]
        })
        .collect()
}

/// How far, in ulps of a hull's extent, the corners of a triangle may lie
/// from a neighbour's plane for the two to form one face: the rounding of
/// the plane test in `f32`, so that exactly coplanar triangles (a box's
/// face) merge and no others.
const COPLANAR_ULPS: f32 = 8.0;

/// A triangle of the hull under construction.
struct Face {
    v: [u32; 3],
    normal: Vec3,
    offset: f32,
    outside: Vec<u32>,
    alive: bool,
}

impl Face {
    /// The face `v`, its plane through the points `p` (in the shifted frame).
    fn new(v: [u32; 3], p: &[Vec3]) -> Self {
        let [a, b, c] = v.map(|i| p[i as usize]);
        let normal = area_normal(a, b, c).normalize_or_zero().as_vec3();
        Self {
            v,
            normal,
            offset: -normal.dot((a + b + c) / 3.0),
            outside: Vec::new(),
            alive: true,
        }
    }

    #[inline]
    fn distance(&self, q: Vec3) -> f32 {
        self.normal.dot(q) + self.offset
    }
}

impl ConvexHull {
    /// The convex hull of `points`, by quickhull (Barber, Dobkin and
    /// Huhdanpaa, "The Quickhull Algorithm for Convex Hulls", ACM TOMS 1996):
    /// start from the tetrahedron of four extreme points, then repeatedly
    /// take the point farthest outside some face, delete the faces it sees
    /// (a flood fill from that face, so the deleted region is connected) and
    /// fan new faces from the point to the horizon.
    ///
    /// Tolerance: work is done relative to the centre of the points' bounds,
    /// and a point within `ε = DEGENERATE_EPSILON · extent` of a face
    /// (`extent` = the largest distance from that centre) counts as on it,
    /// so duplicate, coplanar and collinear points are absorbed instead of
    /// making slivers; the hull may lose such near-boundary points (it is
    /// then smaller than the exact hull by at most `ε`).
    ///
    /// Errors: [`Error::NonFinite`] for a NaN or infinite coordinate, and
    /// [`Error::InvalidArgument`] when fewer than four non-coplanar points
    /// remain at that tolerance: fewer than four points, all points
    /// coincident, collinear, or coplanar (a flat hull has no volume; use a
    /// [`Triangle`](crate::shape::Triangle) or a polygon); and for a hull
    /// whose bounding radius or a plane offset is beyond `f32` (points near
    /// `f32::MAX` on a diagonal), or points a few subnormals apart, too
    /// close for a centre strictly inside.
    ///
    /// ```
    /// use collide::{shape::ConvexHull, math::Vec3};
    /// let mut cube: Vec<Vec3> = (0..8)
    ///     .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
    ///     .collect();
    /// cube.push(Vec3::splat(0.5)); // interior
    /// cube.push(Vec3::new(0.5, 0.5, 1.0)); // on a face
    /// cube.push(Vec3::ONE); // duplicate
    /// let hull = ConvexHull::from_points(&cube).unwrap();
    /// assert_eq!((hull.vertices().len(), hull.triangles().len(), hull.planes().len(), hull.edges().len()), (8, 12, 6, 12));
    /// assert!(ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)]).is_err());
    /// ```
    pub fn from_points(points: &[Vec3]) -> Result<Self> {
        if points.iter().any(|p| !p.is_finite()) {
            return Err(Error::NonFinite("hull point"));
        }
        let too_few = Error::InvalidArgument("a convex hull needs four points that are not coplanar");
        if points.len() < 4 {
            return Err(too_few);
        }
        let bounds_min = points.iter().fold(Vec3::splat(f32::INFINITY), |m, p| m.min(*p));
        let bounds_max = points.iter().fold(Vec3::splat(f32::NEG_INFINITY), |m, p| m.max(*p));
        // Halved before the sum, which overflows near `f32::MAX`; the same
        // value as halving the sum elsewhere.
        let origin = bounds_min * 0.5 + bounds_max * 0.5;
        // The points relative to the origin at unit scale: times the power
        // of two that brings the largest offset into `[1, 2)`, exact short
        // of the subnormals, so that the build's squares and tolerances
        // neither overflow nor vanish at any `f32` scale. Every offset,
        // length and tolerance below is that scale's; `from_faces` scales
        // the reaches, centre and radius back.
        let all_coincide = Error::InvalidArgument("hull points all coincide");
        let origin64 = origin.as_dvec3();
        let largest = points
            .iter()
            .map(|q| (q.as_dvec3() - origin64).abs().max_element())
            .fold(0.0, f64::max);
        let exponent = exponent_of_largest(largest).ok_or(all_coincide)?;
        let to_unit = power_of_two(-exponent);
        let p: Vec<Vec3> = points
            .iter()
            .map(|q| ((q.as_dvec3() - origin64) * to_unit).as_vec3())
            .collect();
        let extent = p.iter().map(|q| q.length()).fold(0.0f32, f32::max);
        let eps = DEGENERATE_EPSILON * extent;
        if !(extent > 0.0) {
            return Err(all_coincide);
        }

        let simplex = initial_simplex(&p, eps)?;
        let mut faces: Vec<Face> = Vec::new();
        let mut edge_map: HashMap<(u32, u32), usize> = HashMap::new();
        let interior = simplex.iter().map(|&i| p[i as usize]).sum::<Vec3>() * 0.25;
        for skip in 0..4 {
            let mut v = [0u32; 3];
            let mut k = 0;
            for (j, &index) in simplex.iter().enumerate() {
                if j != skip {
                    v[k] = index;
                    k += 1;
                }
            }
            let mut face = Face::new(v, &p);
            if face.distance(interior) > 0.0 {
                face = Face::new([v[0], v[2], v[1]], &p);
            }
            add_face(&mut faces, &mut edge_map, face);
        }
        let others: Vec<u32> = (0..p.len() as u32).filter(|i| !simplex.contains(i)).collect();
        assign_outside(&mut faces, 0..4, &others, &p, eps);

        // Main loop: expand towards the farthest outside point of some face.
        let mut visit_stamp: Vec<u32> = Vec::new();
        let mut visible_flag: Vec<bool> = Vec::new();
        let mut stamp = 0u32;
        let mut cursor = 0;
        // Each round adds a hull vertex or discards points, so it ends; the
        // cap only guards against a numerical loop.
        let mut rounds = 0usize;
        let max_rounds = 4 * p.len() + 16;
        while cursor < faces.len() && rounds < max_rounds {
            if !faces[cursor].alive || faces[cursor].outside.is_empty() {
                cursor += 1;
                continue;
            }
            rounds += 1;
            let start = cursor;
            let eye = *faces[start]
                .outside
                .iter()
                .max_by(|&&x, &&y| {
                    let face = &faces[start];
                    face.distance(p[x as usize]).total_cmp(&face.distance(p[y as usize]))
                })
                .expect("non-empty outside set");
            let eye_point = p[eye as usize];

            // Flood fill the faces the eye sees; record the horizon.
            stamp += 1;
            visit_stamp.resize(faces.len(), 0);
            visible_flag.resize(faces.len(), false);
            let mut visible = vec![start];
            let mut horizon: Vec<(u32, u32)> = Vec::new();
            visit_stamp[start] = stamp;
            visible_flag[start] = true;
            let mut next = 0;
            while next < visible.len() {
                let f = visible[next];
                next += 1;
                let v = faces[f].v;
                for k in 0..3 {
                    let (a, b) = (v[k], v[(k + 1) % 3]);
                    let Some(&g) = edge_map.get(&(b, a)) else {
                        continue;
                    };
                    if visit_stamp[g] != stamp {
                        visit_stamp[g] = stamp;
                        visible_flag[g] = faces[g].distance(eye_point) > eps;
                        if visible_flag[g] {
                            visible.push(g);
                        }
                    }
                    if !visible_flag[g] {
                        horizon.push((a, b));
                    }
                }
            }

            if horizon.is_empty() {
                // Only possible through rounding (a point outside a solid
                // sees every face): drop the point rather than the hull.
                faces[start].outside.retain(|&i| i != eye);
                continue;
            }

            // Delete the visible faces, keeping their outside points.
            let mut orphans: Vec<u32> = Vec::new();
            for &f in &visible {
                let face = &mut faces[f];
                face.alive = false;
                orphans.append(&mut face.outside);
                let v = face.v;
                for k in 0..3 {
                    edge_map.remove(&(v[k], v[(k + 1) % 3]));
                }
            }
            orphans.retain(|&i| i != eye);

            // Fan new faces from the eye to the horizon.
            let first_new = faces.len();
            for &(a, b) in &horizon {
                add_face(&mut faces, &mut edge_map, Face::new([a, b, eye], &p));
            }
            let new_faces = first_new..faces.len();
            assign_outside(&mut faces, new_faces, &orphans, &p, eps);
        }

        Self::from_faces(&faces, &edge_map, points, &p, (origin, power_of_two(exponent)), eps)
    }

    /// Compacts the alive faces into the stored form (world coordinates):
    /// the vertices are the input `points` themselves, not their shifted
    /// copies `p` shifted back (which round: a coordinate of 7.5e-30 next
    /// to one of 13.75 came back as 0). `p` is `(points − origin)/scale`,
    /// `scale` a power of two.
    ///
    /// Exactly coplanar faces (to rounding) merge into one plane; a hull no
    /// thicker than `2ε` across one of its faces is refused as coplanar.
    fn from_faces(
        faces: &[Face],
        edge_map: &HashMap<(u32, u32), usize>,
        points: &[Vec3],
        p: &[Vec3],
        (origin, scale): (Vec3, f64),
        eps: f32,
    ) -> Result<Self> {
        let alive: Vec<usize> = (0..faces.len()).filter(|&f| faces[f].alive).collect();
        let mut remap: HashMap<u32, u32> = HashMap::new();
        let mut local_vertices: Vec<Vec3> = Vec::new();
        let mut vertices: Vec<Vec3> = Vec::new();
        let mut triangles = Vec::with_capacity(alive.len());
        for &f in &alive {
            let tri = faces[f].v.map(|i| {
                *remap.entry(i).or_insert_with(|| {
                    local_vertices.push(p[i as usize]);
                    vertices.push(points[i as usize]);
                    (local_vertices.len() - 1) as u32
                })
            });
            triangles.push(tri);
        }

        // Merge coplanar neighbours into faces by flood fill over shared
        // edges: a neighbour joins when its corners are within the rounding
        // of the seed's plane (`COPLANAR_ULPS` ulps of the extent). A looser
        // test would bend a face: the merged plane, made supporting, cuts
        // off none of the hull but adds to it beyond the real faces, and
        // near an edge of two faces 0.01 rad apart a plane off by δ puts the
        // edge δ/0.01 away.
        let coplanar = COPLANAR_ULPS * f32::EPSILON * (eps / DEGENERATE_EPSILON);
        let mut group = vec![usize::MAX; faces.len()];
        let mut group_normals: Vec<Vec3> = Vec::new();
        for &seed in &alive {
            if group[seed] != usize::MAX {
                continue;
            }
            let id = group_normals.len();
            group[seed] = id;
            let mut stack = vec![seed];
            let mut weighted_normal = DVec3::ZERO;
            while let Some(f) = stack.pop() {
                let v = faces[f].v;
                let [a, b, c] = v.map(|i| p[i as usize]);
                weighted_normal += area_normal(a, b, c);
                for k in 0..3 {
                    let Some(&g) = edge_map.get(&(v[(k + 1) % 3], v[k])) else {
                        continue;
                    };
                    if group[g] == usize::MAX
                        && faces[g]
                            .v
                            .iter()
                            .all(|&i| faces[seed].distance(p[i as usize]).abs() <= coplanar)
                    {
                        group[g] = id;
                        stack.push(g);
                    }
                }
            }
            group_normals.push(weighted_normal.normalize_or(faces[seed].normal.as_dvec3()).as_vec3());
        }
        // The hull's extent `[lo, hi]` along each face normal, in `f64`.
        let extents: Vec<(f64, f64)> = group_normals
            .iter()
            .map(|n| {
                let n = n.as_dvec3();
                local_vertices
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                        let x = n.dot(v.as_dvec3());
                        (lo.min(x), hi.max(x))
                    })
            })
            .collect();
        // Flat within the tolerance across some face (a sliver whose fourth
        // point lies a little more than `ε` off the plane of the first
        // three, which the initial simplex accepts): refused as coplanar,
        // as the documentation's tolerance says.
        let flat = extents.iter().any(|&(lo, hi)| !(hi - lo > 2.0 * f64::from(eps)));
        if group_normals.len() < 4 || flat {
            return Err(Error::InvalidArgument("hull points are coplanar"));
        }
        // Each plane is made supporting: its offset is the hull's extent
        // along the normal, so every vertex lies on or behind every plane.
        // n·(x − origin) <= reach  ⇔  n·x − (reach + n·origin) <= 0, in
        // `f64` and rounded once: `n·origin` in `f32` carries a few ulps of
        // the origin's coordinates.
        let planes: Vec<Plane> = group_normals
            .iter()
            .zip(&extents)
            .map(|(&normal, &(_, reach))| Plane {
                normal,
                d: -(reach * scale + normal.as_dvec3().dot(origin.as_dvec3())) as f32,
            })
            .collect();
        let mut edges = Vec::new();
        for &f in &alive {
            let v = faces[f].v;
            for k in 0..3 {
                let (a, b) = (v[k], v[(k + 1) % 3]);
                if a > b {
                    continue;
                }
                if let Some(&g) = edge_map.get(&(b, a)) {
                    if group[g] != group[f] {
                        edges.push([remap[&a], remap[&b]]);
                    }
                }
            }
        }
        let local_center = local_vertices.iter().sum::<Vec3>() / local_vertices.len() as f32;
        let bounding_radius = local_vertices
            .iter()
            .map(|v| (*v - local_center).length())
            .fold(0.0f32, f32::max);
        // Scaled back in `f32` (exactly, short of the subnormals: `scale`
        // is a power of two within the range of the points' offsets), the
        // centre then rounded once.
        let scale = scale as f32;
        let bounding_radius = bounding_radius * scale;
        let center = local_center * scale + origin;
        // Within `f32`: a hull reaching near `f32::MAX` on a diagonal has a
        // radius or a plane offset beyond it.
        if !(bounding_radius.is_finite() && planes.iter().all(|p| p.d.is_finite())) {
            return Err(Error::InvalidArgument(
                "a hull whose radius or plane offset is beyond f32",
            ));
        }
        let hull = Self::assembled(vertices, triangles, planes, edges, center, bounding_radius);
        // The centre strictly inside, every plane's reach from it positive
        // (measured in `f64` from the vertices): points a few subnormals
        // apart round it onto a vertex.
        if !hull.reaches.iter().all(|&reach| reach > 0.0) {
            return Err(Error::InvalidArgument(
                "hull points too close together to hold a centre",
            ));
        }
        Ok(hull)
    }

    /// The hull of checked parts, with the planes' reaches from the centre
    /// and the faces each edge joins (from the parts alone, so a hull
    /// restored from a snapshot's parts is the same).
    fn assembled(
        vertices: Vec<Vec3>,
        triangles: Vec<[u32; 3]>,
        planes: Vec<Plane>,
        edges: Vec<[u32; 2]>,
        center: Vec3,
        bounding_radius: f32,
    ) -> Self {
        let reaches = reaches_of(&planes, &vertices, center);
        let edge_faces = if vertices.len() <= SAT_MAX_VERTICES {
            edge_faces_of(&planes, &reaches, &vertices, &edges, center)
        } else {
            Vec::new()
        };
        Self {
            edge_faces,
            reaches,
            vertices,
            triangles,
            planes,
            edges,
            center,
            bounding_radius,
        }
    }

    /// A hull from the parts [`ConvexHull::vertices`],
    /// [`ConvexHull::triangles`], [`ConvexHull::planes`],
    /// [`ConvexHull::edges`], [`ConvexHull::center`] and
    /// [`ConvexHull::bounding_radius`] gave (a snapshot's), checked to be a
    /// convex polyhedron they describe: every number finite, every index in
    /// range, at least four unit plane normals, every vertex on or behind
    /// every plane, at least three vertices on each plane, the centre
    /// strictly behind each, and every vertex within the bounding radius of
    /// the centre — each to the rounding of the hull's size and place.
    pub(crate) fn from_parts(
        vertices: Vec<Vec3>,
        triangles: Vec<[u32; 3]>,
        planes: Vec<Plane>,
        edges: Vec<[u32; 2]>,
        center: Vec3,
        bounding_radius: f32,
    ) -> Result<Self> {
        let finite = center.is_finite()
            && bounding_radius.is_finite()
            && vertices.iter().all(|v| v.is_finite())
            && planes.iter().all(|p| p.normal.is_finite() && p.d.is_finite());
        if !finite {
            return Err(Error::NonFinite("hull part"));
        }
        let bad = Error::InvalidArgument("hull parts that are not a convex polyhedron");
        let n = vertices.len();
        let in_range = |i: &u32| (*i as usize) < n;
        if n < 4
            || planes.len() < 4
            || !triangles.iter().flatten().all(in_range)
            || !edges.iter().flatten().all(in_range)
            || planes.iter().any(|p| (p.normal.length() - 1.0).abs() > 1.0e-4)
        {
            return Err(bad);
        }
        let c = center.as_dvec3();
        let tol = 1.0e-4 * f64::from(bounding_radius) + 16.0 * f64::from(f32::EPSILON) * c.abs().max_element();
        let distance = |p: &Plane, v: Vec3| p.normal.as_dvec3().dot(v.as_dvec3()) + f64::from(p.d);
        for p in &planes {
            let on = vertices.iter().filter(|&&v| distance(p, v).abs() <= tol).count();
            if on < 3 || vertices.iter().any(|&v| distance(p, v) > tol) || distance(p, center) >= 0.0 {
                return Err(bad);
            }
        }
        if vertices
            .iter()
            .any(|v| (v.as_dvec3() - c).length() > f64::from(bounding_radius) + tol)
        {
            return Err(bad);
        }
        Ok(Self::assembled(
            vertices,
            triangles,
            planes,
            edges,
            center,
            bounding_radius,
        ))
    }

    /// The hull's vertices, in world space: input points, exactly (the
    /// extreme ones; a point within the tolerance of a face may be among
    /// them when the first tetrahedron took it, ties in extremeness going
    /// to the earlier point).
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The hull's triangles as indices into [`ConvexHull::vertices`],
    /// counter-clockwise seen from outside.
    #[inline]
    #[must_use]
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// One supporting plane per distinct face, normal pointing out: every
    /// vertex has `signed_distance <= 0` for every plane.
    #[inline]
    #[must_use]
    pub fn planes(&self) -> &[Plane] {
        &self.planes
    }

    /// The feature edges (between two distinct faces), as vertex indices.
    #[inline]
    #[must_use]
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// The mean of the vertices, a point strictly inside the hull.
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec3 {
        self.center
    }

    /// The largest distance from [`ConvexHull::center`] to a vertex.
    #[inline]
    #[must_use]
    pub fn bounding_radius(&self) -> f32 {
        self.bounding_radius
    }

    /// The hull mapped by the affine map `x ↦ linear·x + translation`, an
    /// invertible `linear` (an affine image of a convex hull is the convex
    /// hull of the images of its vertices, so nothing is rebuilt): vertices
    /// and centre map directly, a plane `n·x + d = 0` maps to the plane with
    /// normal `linear⁻ᵀ·n` (normalised) through the image of its point
    /// `−d·n`, triangles keep their winding unless `det(linear) < 0` (a
    /// mirror), where it is reversed to stay counter-clockwise from outside.
    ///
    /// `None` when `linear` is singular (the image would be flat) or a
    /// number of the result is not finite.
    ///
    /// ```
    /// use collide::{shape::ConvexHull, math::{Mat3, Vec3}};
    /// let tetra = ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
    /// let moved = tetra.mapped(Mat3::from_diagonal(Vec3::new(2.0, 1.0, 1.0)), Vec3::Y).unwrap();
    /// assert!(moved.contains_point(Vec3::new(1.9, 1.0, 0.0)) && !tetra.contains_point(Vec3::new(1.9, 0.0, 0.0)));
    /// assert!(tetra.mapped(Mat3::from_diagonal(Vec3::new(1.0, 0.0, 1.0)), Vec3::ZERO).is_none());
    /// ```
    pub fn mapped(&self, linear: Mat3, translation: Vec3) -> Option<ConvexHull> {
        // The determinant and the normals' map in `f64`: in `f32` a scale
        // beyond about 7e12 or below 1e-13 overflows or underflows the
        // determinant, and the normals' squares do at their own sizes.
        let (linear64, translation64, center64) = (linear.as_dmat3(), translation.as_dvec3(), self.center.as_dvec3());
        let det = linear64.determinant();
        if !(det != 0.0 && det.is_finite()) {
            return None;
        }
        let normal_map = linear64.inverse().transpose();
        let apply = |p: Vec3| linear * p + translation;
        let vertices: Vec<Vec3> = self.vertices.iter().map(|&v| apply(v)).collect();
        let planes: Vec<Plane> = self
            .planes
            .iter()
            .map(|plane| {
                let normal = (normal_map * plane.normal.as_dvec3()).try_normalize()?.as_vec3();
                // The image of the plane's point nearest the centre, in
                // `f64`: `c − (n·c + d)·n` and its image lie within the
                // hull's size of the centre, so `d` rounds once, relative to
                // the centre's coordinates.
                let n = plane.normal.as_dvec3();
                let on_plane = center64 - n * (n.dot(center64) + f64::from(plane.d));
                let image = linear64 * on_plane + translation64;
                Some(Plane {
                    normal,
                    d: -normal.as_dvec3().dot(image) as f32,
                })
            })
            .collect::<Option<_>>()?;
        let triangles = if det < 0.0 {
            self.triangles.iter().map(|&[a, b, c]| [a, c, b]).collect()
        } else {
            self.triangles.clone()
        };
        let center = apply(self.center);
        let bounding_radius = vertices
            .iter()
            .map(|v| (v.as_dvec3() - center.as_dvec3()).length())
            .fold(0.0, f64::max) as f32;
        let finite = center.is_finite()
            && bounding_radius.is_finite()
            && vertices.iter().all(|v| v.is_finite())
            && planes.iter().all(|p| p.normal.is_finite() && p.d.is_finite());
        finite.then(|| Self::assembled(vertices, triangles, planes, self.edges.clone(), center, bounding_radius))
    }

    /// Whether `p` is inside or on the hull: on or behind every face plane,
    /// each measured from the hull's centre in `f64`
    /// (`ConvexHull::plane_distance`).
    ///
    /// ```
    /// use collide::{shape::ConvexHull, math::Vec3};
    /// let tetra = ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
    /// assert!(tetra.contains_point(Vec3::splat(0.2)));
    /// assert!(!tetra.contains_point(Vec3::splat(0.5)));
    /// ```
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        (0..self.planes.len()).all(|i| self.plane_distance(i, p.as_dvec3()) <= 0.0)
    }

    /// Per feature edge ([`ConvexHull::edges`]), the two planes it joins;
    /// empty beyond [`SAT_MAX_VERTICES`] vertices.
    #[inline]
    pub(crate) fn edge_faces(&self) -> &[[u32; 2]] {
        &self.edge_faces
    }

    /// Plane `i`'s reach from the centre, `max_v n·(v − center)`.
    #[inline]
    pub(crate) fn reach(&self, i: usize) -> f32 {
        self.reaches[i]
    }

    /// The signed distance of `p` from plane `i`, `n·(p − center) − reach`,
    /// in `f64` relative to the hull (see the `reaches` field).
    #[inline]
    pub(crate) fn plane_distance(&self, i: usize, p: DVec3) -> f64 {
        self.planes[i].normal.as_dvec3().dot(p - self.center.as_dvec3()) - f64::from(self.reaches[i])
    }
}

/// The four starting points: the two farthest apart among the six axis
/// extremes, the point farthest from their line, and the point farthest from
/// the plane of those three.
fn initial_simplex(p: &[Vec3], eps: f32) -> Result<[u32; 4]> {
    let mut extremes = [0u32; 6];
    for axis in 0..3 {
        let (mut lo, mut hi) = (0usize, 0usize);
        for (i, q) in p.iter().enumerate() {
            if q[axis] < p[lo][axis] {
                lo = i;
            }
            if q[axis] > p[hi][axis] {
                hi = i;
            }
        }
        extremes[2 * axis] = lo as u32;
        extremes[2 * axis + 1] = hi as u32;
    }
    let (mut i0, mut i1, mut best) = (0u32, 0u32, -1.0f32);
    for &a in &extremes {
        for &b in &extremes {
            let d = (p[a as usize] - p[b as usize]).length_squared();
            if d > best {
                (i0, i1, best) = (a, b, d);
            }
        }
    }
    if !(best.sqrt() > eps) {
        return Err(Error::InvalidArgument("hull points all coincide"));
    }
    let a = p[i0 as usize];
    let dir = (p[i1 as usize] - a).normalize();
    let (i2, line_distance) = farthest(p, |q| (q - a).cross(dir).length());
    if !(line_distance > eps) {
        return Err(Error::InvalidArgument("hull points are collinear"));
    }
    let normal = dir.cross(p[i2 as usize] - a).normalize();
    let (i3, plane_distance) = farthest(p, |q| normal.dot(q - a).abs());
    if !(plane_distance > eps) {
        return Err(Error::InvalidArgument("hull points are coplanar"));
    }
    Ok([i0, i1, i2, i3])
}

/// The index maximising `measure`, and the maximum.
fn farthest(p: &[Vec3], measure: impl Fn(Vec3) -> f32) -> (u32, f32) {
    let mut best = (0u32, f32::NEG_INFINITY);
    for (i, q) in p.iter().enumerate() {
        let m = measure(*q);
        if m > best.1 {
            best = (i as u32, m);
        }
    }
    best
}

/// Adds a face and its three directed edges.
fn add_face(faces: &mut Vec<Face>, edge_map: &mut HashMap<(u32, u32), usize>, face: Face) {
    let index = faces.len();
    for k in 0..3 {
        edge_map.insert((face.v[k], face.v[(k + 1) % 3]), index);
    }
    faces.push(face);
}

/// Gives each point to the face among `candidates` it is farthest outside
/// of (by more than `eps`); points outside none are inside and dropped.
fn assign_outside(faces: &mut [Face], candidates: std::ops::Range<usize>, points: &[u32], p: &[Vec3], eps: f32) {
    for &i in points {
        let q = p[i as usize];
        let mut best: Option<(usize, f32)> = None;
        for f in candidates.clone() {
            let d = faces[f].distance(q);
            if d > eps && best.is_none_or(|(_, bd)| d > bd) {
                best = Some((f, d));
            }
        }
        if let Some((f, _)) = best {
            faces[f].outside.push(i);
        }
    }
}
