//! EPA: the penetration depth and direction of two overlapping convex
//! shapes, from the simplex GJK ended with.
//!
//! The expanding polytope algorithm (van den Bergen, "Proximity Queries and
//! Penetration Depth Computation on 3D Game Objects", GDC 2001; *Collision
//! Detection in Interactive 3D Environments* §4.3.8): the penetration depth
//! is the distance from the origin to the boundary of the Minkowski
//! difference `A − B`. Starting from a tetrahedron inside `A − B` that
//! holds the origin, repeatedly take the polytope face closest to the
//! origin, find the support point of `A − B` along its normal, and either
//! stop (the support point is no farther than the face: the face is on the
//! boundary) or replace the faces that point sees by a fan from the point
//! to their horizon. The faces seen are found by a flood fill over face
//! adjacency from the closest face (as quickhull does), so the deleted
//! region is connected and its horizon a single loop; an expansion that
//! would break the polytope (a horizon that is not one loop, a new face
//! turned inside out) is refused and the best face so far answers.
//!
//! No allocation: the polytope lives in fixed arrays of
//! [`MAX_VERTICES`] vertices and [`MAX_FACES`] faces (about 24 KiB of
//! stack with the expansion's scratch arrays). Polytopes converge long
//! before. A curved shape (cylinder, cone) may fill them, or refuse an
//! expansion, before the closest face reaches the boundary; the depth is
//! then settled from that face's normal by a descent on the support values
//! of `A − B`, each an upper bound of the depth (`descend_support`).

use arrayvec::ArrayVec;

use crate::math::{midpoint, unit_without_overflow, Quat, Vec3};
use crate::query::gjk::{gjk, MinkowskiDifference, Simplex, Vertex, TOUCH_TOLERANCE};
use crate::query::sphere_search::minimize_on_sphere;
use crate::shape::{Support, Triangle};

/// Most vertices the polytope may have.
pub const MAX_VERTICES: usize = 128;
/// Most faces (alive or deleted) the polytope may have.
pub const MAX_FACES: usize = 256;
/// Most expansion rounds (each adds a vertex, so the vertex capacity is
/// the real bound).
pub const MAX_ITERATIONS: usize = MAX_VERTICES - 4;
/// The support gap, relative to the shapes' size, at which a face counts
/// as lying on the boundary of `A − B`.
pub const DEPTH_TOLERANCE: f32 = 1.0e-5;

/// The deepest penetration found: `depth` along `normal` (from `a` to `b`),
/// with the deepest points of the cores, relative to `b.center()`
/// (`point_a − point_b = depth·normal`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct EpaOutput {
    pub depth: f32,
    pub normal: Vec3,
    pub point_a: Vec3,
    pub point_b: Vec3,
}

#[derive(Debug, Clone, Copy, Default)]
struct Face {
    /// Corners, counter-clockwise seen from outside.
    v: [u8; 3],
    /// `adj[k]`: the face across the edge `v[k] → v[k+1]`.
    adj: [u16; 3],
    normal: Vec3,
    distance: f32,
    alive: bool,
}

/// An edge of the horizon: `a → b` as in the deleted face, and the kept
/// face across it with the index of that edge in it.
#[derive(Debug, Clone, Copy, Default)]
struct HorizonEdge {
    a: u8,
    b: u8,
    kept: u16,
    kept_edge: u8,
}

struct Polytope {
    vertices: [Vertex; MAX_VERTICES],
    vertex_count: usize,
    faces: [Face; MAX_FACES],
    face_count: usize,
    free: [u16; MAX_FACES],
    free_count: usize,
}

impl Polytope {
    fn add_vertex(&mut self, vertex: Vertex) -> u8 {
        self.vertices[self.vertex_count] = vertex;
        self.vertex_count += 1;
        (self.vertex_count - 1) as u8
    }

    /// The face `v` with its plane (adjacency to be filled in).
    fn face(&self, v: [u8; 3]) -> Face {
        let [a, b, c] = v.map(|i| self.vertices[i as usize].w);
        let n = (b - a).cross(c - a);
        // Scaled to a largest component of 1 before normalising: the cross
        // product of a tiny face (edges of 1e-11) has subnormal squares,
        // and `normalize` would give a normal of length 0.8 or 1.1.
        let largest = n.abs().max_element();
        let n = if largest > 0.0 { n / largest } else { n };
        match n.try_normalize() {
            Some(normal) => Face {
                v,
                adj: [0; 3],
                normal,
                distance: normal.dot(a),
                alive: true,
            },
            // A degenerate face is never chosen nor seen.
            None => Face {
                v,
                adj: [0; 3],
                normal: Vec3::ZERO,
                distance: f32::INFINITY,
                alive: true,
            },
        }
    }

    /// Stores a face in a free slot; `None` when full.
    fn add_face(&mut self, face: Face) -> Option<u16> {
        let index = if self.free_count > 0 {
            self.free_count -= 1;
            self.free[self.free_count]
        } else if self.face_count < MAX_FACES {
            self.face_count += 1;
            (self.face_count - 1) as u16
        } else {
            return None;
        };
        self.faces[index as usize] = face;
        Some(index)
    }

    fn remove_face(&mut self, f: u16) {
        self.faces[f as usize].alive = false;
        self.free[self.free_count] = f;
        self.free_count += 1;
    }

    fn closest_face(&self) -> Option<usize> {
        let mut best = None;
        let mut best_distance = f32::INFINITY;
        for (i, face) in self.faces[..self.face_count].iter().enumerate() {
            if face.alive && face.distance < best_distance {
                best_distance = face.distance;
                best = Some(i);
            }
        }
        best
    }

    /// Grows the polytope by `w`, seen from face `start`. Returns `false`
    /// (with the polytope unchanged) when the expansion is refused.
    fn expand(&mut self, start: usize, w: Vertex, interior: Vec3) -> bool {
        if self.vertex_count == MAX_VERTICES {
            return false;
        }
        // Flood fill the faces that see w; dry run first, so that a refused
        // expansion leaves everything as it was.
        let mut seen = [false; MAX_FACES];
        let mut is_removed = [false; MAX_FACES];
        let mut removed = [0u16; MAX_FACES];
        let mut removed_len = 1;
        let mut stack = [0u16; MAX_FACES];
        let mut stack_len = 1;
        stack[0] = start as u16;
        removed[0] = start as u16;
        seen[start] = true;
        is_removed[start] = true;
        let mut horizon = [HorizonEdge::default(); MAX_FACES];
        let mut horizon_len = 0;
        while stack_len > 0 {
            stack_len -= 1;
            let f = stack[stack_len] as usize;
            let face = self.faces[f];
            for k in 0..3 {
                let g = face.adj[k] as usize;
                if is_removed[g] {
                    continue;
                }
                let other = self.faces[g];
                if !seen[g] {
                    seen[g] = true;
                    if other.normal.dot(w.w) - other.distance > 0.0 {
                        is_removed[g] = true;
                        removed[removed_len] = g as u16;
                        removed_len += 1;
                        stack[stack_len] = g as u16;
                        stack_len += 1;
                        continue;
                    }
                }
                if horizon_len == MAX_FACES {
                    return false;
                }
                let Some(kept_edge) = (0..3).find(|&j| other.adj[j] as usize == f) else {
                    return false;
                };
                horizon[horizon_len] = HorizonEdge {
                    a: face.v[k],
                    b: face.v[(k + 1) % 3],
                    kept: g as u16,
                    kept_edge: kept_edge as u8,
                };
                horizon_len += 1;
            }
        }
        // The horizon must be one loop: each edge's end starts exactly one
        // edge, and following them from the first visits all of them.
        if horizon_len < 3 {
            return false;
        }
        let mut next = [0usize; MAX_FACES];
        for i in 0..horizon_len {
            let mut found = None;
            for j in 0..horizon_len {
                if horizon[j].a == horizon[i].b {
                    if found.is_some() {
                        return false;
                    }
                    found = Some(j);
                }
            }
            match found {
                Some(j) => next[i] = j,
                None => return false,
            }
        }
        let (mut walk, mut steps) = (next[0], 1);
        while walk != 0 && steps <= horizon_len {
            walk = next[walk];
            steps += 1;
        }
        if walk != 0 || steps != horizon_len {
            return false;
        }
        // The new faces must face outwards (away from the interior point)
        // and fit in the arrays.
        if removed_len + self.free_count + (MAX_FACES - self.face_count) < horizon_len {
            return false;
        }
        let index = self.vertex_count as u8;
        self.vertices[self.vertex_count] = w;
        for edge in &horizon[..horizon_len] {
            let face = self.face([edge.a, edge.b, index]);
            if face.normal != Vec3::ZERO && face.normal.dot(interior - self.vertices[edge.a as usize].w) > 0.0 {
                return false;
            }
        }
        // Commit.
        self.add_vertex(w);
        for &f in &removed[..removed_len] {
            self.remove_face(f);
        }
        let mut created = [0u16; MAX_FACES];
        for (i, edge) in horizon[..horizon_len].iter().enumerate() {
            let mut face = self.face([edge.a, edge.b, index]);
            face.adj[0] = edge.kept;
            // Cannot fail: the capacity was checked above.
            let Some(slot) = self.add_face(face) else {
                return false;
            };
            created[i] = slot;
            self.faces[edge.kept as usize].adj[edge.kept_edge as usize] = slot;
        }
        for i in 0..horizon_len {
            // Edge 1 is b → w: across it, the new face of the next horizon
            // edge (whose edge 2, w → a', has a' = b).
            let j = next[i];
            self.faces[created[i] as usize].adj[1] = created[j];
            self.faces[created[j] as usize].adj[2] = created[i];
        }
        true
    }
}

/// Grows GJK's final simplex (which holds the origin, or has it on its
/// boundary) into a tetrahedron of `A − B` vertices. `Err(normal)` when
/// `A − B` is flat (or thinner) around the origin: the depth is then 0,
/// along that normal.
fn tetrahedron<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    simplex: &Simplex,
    tolerance: f32,
    preferred: Vec3,
) -> Result<[Vertex; 4], Vec3> {
    let mut v = [Vertex::default(); 4];
    let mut len = simplex.len;
    v[..len].copy_from_slice(simplex.vertices());
    let axes = [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y, Vec3::Z, Vec3::NEG_Z];
    // Drop coincident vertices first (a touching simplex may repeat one).
    let mut distinct = 1;
    for i in 1..len {
        if (0..distinct).all(|j| (v[i].w - v[j].w).length() > tolerance) {
            v[distinct] = v[i];
            distinct += 1;
        }
    }
    len = distinct;
    while len < 4 {
        match len {
            1 => {
                let found = axes
                    .iter()
                    .map(|&d| pair.support(d))
                    .find(|w| (w.w - v[0].w).length() > tolerance);
                match found {
                    Some(w) => v[1] = w,
                    None => return Err(unit_without_overflow(preferred).unwrap_or(Vec3::X)),
                }
            }
            2 => {
                let Some(e) = unit_without_overflow(v[1].w - v[0].w) else {
                    return Err(unit_without_overflow(preferred).unwrap_or(Vec3::X));
                };
                let base = e.any_orthonormal_vector();
                let found = (0..6)
                    .map(|k| Quat::from_axis_angle(e, k as f32 * std::f32::consts::FRAC_PI_3) * base)
                    .map(|d| pair.support(d))
                    .find(|w| (w.w - v[0].w).cross(e).length() > tolerance);
                match found {
                    Some(w) => v[2] = w,
                    None => {
                        let across = preferred - e * preferred.dot(e);
                        return Err(unit_without_overflow(across).unwrap_or(base));
                    }
                }
            }
            _ => {
                let n = unit_without_overflow((v[1].w - v[0].w).cross(v[2].w - v[0].w)).unwrap_or(Vec3::ZERO);
                if n == Vec3::ZERO {
                    // Collinear after all (or overflowing): no volume to
                    // find; answer as for a flat difference.
                    return Err(unit_without_overflow(preferred).unwrap_or(Vec3::X));
                }
                let found = [n, -n]
                    .into_iter()
                    .map(|d| pair.support(d))
                    .find(|w| n.dot(w.w - v[0].w).abs() > tolerance);
                match found {
                    Some(w) => v[3] = w,
                    None => return Err(if preferred.dot(n) < 0.0 { -n } else { n }),
                }
            }
        }
        len += 1;
    }
    Ok(v)
}

/// The penetration of the cores of `pair`, given the simplex of a GJK run
/// that found them overlapping. `preferred` is the normal reported when the
/// difference is flat around the origin (depth 0): the caller passes the
/// direction from `a`'s centre to `b`'s.
pub(crate) fn epa<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    simplex: &Simplex,
    preferred: Vec3,
) -> EpaOutput {
    let scale = pair.scale();
    let tolerance = DEPTH_TOLERANCE * scale;
    let flat = |normal: Vec3| {
        let (_, point_a, point_b) = simplex.combination();
        let common = midpoint(point_a, point_b);
        EpaOutput {
            depth: 0.0,
            normal,
            point_a: common,
            point_b: common,
        }
    };
    let tetra = match tetrahedron(pair, simplex, TOUCH_TOLERANCE * scale, preferred) {
        Ok(t) => t,
        // Flat around the origin (or thinner): the least overlap is along a
        // normal of the flat part, which the descent finds from `normal`.
        Err(normal) => return descend_support(pair, &[normal], tolerance, DESCENT_FIRST_STEP),
    };

    let mut poly = Polytope {
        vertices: [Vertex::default(); MAX_VERTICES],
        vertex_count: 0,
        faces: [Face::default(); MAX_FACES],
        face_count: 0,
        free: [0; MAX_FACES],
        free_count: 0,
    };
    for vertex in tetra {
        poly.add_vertex(vertex);
    }
    let interior = tetra.iter().map(|x| x.w).sum::<Vec3>() * 0.25;
    // Orient the tetrahedron so that (0, 1, 2) faces away from vertex 3;
    // then these four faces all face outwards.
    let (i1, i2) = if (tetra[1].w - tetra[0].w)
        .cross(tetra[2].w - tetra[0].w)
        .dot(tetra[3].w - tetra[0].w)
        > 0.0
    {
        (2u8, 1u8)
    } else {
        (1u8, 2u8)
    };
    let corners = [[0, i1, i2], [0, 3, i1], [i1, 3, i2], [i2, 3, 0]];
    for v in corners {
        let face = poly.face(v);
        poly.add_face(face);
    }
    // Adjacency of the tetrahedron: match each directed edge with its twin.
    for f in 0..4 {
        for k in 0..3 {
            let (a, b) = (corners[f][k], corners[f][(k + 1) % 3]);
            for (g, other) in corners.iter().enumerate() {
                if (0..3).any(|j| other[j] == b && other[(j + 1) % 3] == a) {
                    poly.faces[f].adj[k] = g as u16;
                }
            }
        }
    }

    let mut converged = false;
    for _ in 0..MAX_ITERATIONS {
        let Some(f) = poly.closest_face() else {
            break;
        };
        let face = poly.faces[f];
        let w = pair.support(face.normal);
        let gap = face.normal.dot(w.w) - face.distance;
        if !(gap > tolerance) {
            converged = true;
            break;
        }
        if !poly.expand(f, w, interior) {
            break;
        }
    }

    // The closest face of the polytope as it is now: after the last
    // iteration expanded its face, that face's slot may hold a new one.
    let Some(f) = poly.closest_face() else {
        return flat(unit_without_overflow(preferred).unwrap_or(Vec3::X));
    };
    // Coplanar faces (a box's face is two triangles) tie on distance; the
    // answer is the one of them whose triangle holds the origin's
    // projection, else the barycentric weights would be clamped to the
    // wrong triangle.
    let best_distance = poly.faces[f].distance;
    let best_normal = poly.faces[f].normal;
    let mut chosen = (f, f32::INFINITY, Vec3::ZERO, [0.0f32; 3]);
    for (g, face) in poly.faces[..poly.face_count].iter().enumerate() {
        // Only the best face's own plane: another face at the same distance
        // with another normal has not been checked against the support.
        let coplanar = face.normal.dot(best_normal) >= 1.0 - 1e-6;
        if !(face.alive || g == f) || !(face.distance <= best_distance + tolerance) || !coplanar {
            continue;
        }
        let [a, b, c] = face.v.map(|i| poly.vertices[i as usize].w);
        let projected = face.normal * face.distance;
        let closest = Triangle::new(a, b, c).closest_point(projected);
        let miss = (closest.point - projected).length_squared();
        if miss < chosen.1 {
            chosen = (g, miss, projected, closest.weights);
        }
    }
    let (f, _, _, weights) = chosen;
    let face = poly.faces[f];
    let [a, b, c] = face.v.map(|i| poly.vertices[i as usize]);
    let depth = face.distance.max(0.0);
    let point_a = a.a * weights[0] + b.a * weights[1] + c.a * weights[2];
    let point_b = a.b * weights[0] + b.b * weights[1] + c.b * weights[2];
    // The face's witnesses hold `point_a − point_b = depth·normal` when the
    // origin's projection lies in the face; on a polytope bent by rounding
    // or refused expansions it may not, and the descent's witnesses do.
    let consistent = (point_a - point_b - face.normal * depth).length() <= tolerance;
    if face.normal == Vec3::ZERO {
        return EpaOutput {
            depth,
            normal: face.normal,
            point_a,
            point_b,
        };
    }
    // From a face on the boundary to EPA's tolerance the descent starts
    // with small steps: a nearby direction may still overlap less (a face
    // of a polytope bent by rounding), and its witnesses are the closest
    // points of the shapes moved apart.
    if converged && consistent {
        return descend_support(pair, &[face.normal], tolerance, DESCENT_SETTLE_STEP);
    }
    // Unproved: the least overlap may lie in another direction than the
    // closest face's (the support values have local minima on the sphere),
    // so the descent starts from the normals of the closest few faces.
    let mut starts: ArrayVec<(f32, Vec3), DESCENT_STARTS> = ArrayVec::new();
    for candidate in poly.faces[..poly.face_count]
        .iter()
        .filter(|f| f.alive && f.normal != Vec3::ZERO)
    {
        if starts.is_full() {
            let worst = (0..DESCENT_STARTS)
                .max_by(|&i, &j| starts[i].0.total_cmp(&starts[j].0))
                .unwrap_or(0);
            if candidate.distance < starts[worst].0 {
                starts[worst] = (candidate.distance, candidate.normal);
            }
        } else {
            starts.push((candidate.distance, candidate.normal));
        }
    }
    let mut normals: ArrayVec<Vec3, { DESCENT_STARTS + 1 }> = ArrayVec::new();
    normals.push(face.normal);
    normals.extend(starts.iter().map(|&(_, n)| n));
    descend_support(pair, &normals, tolerance, DESCENT_FIRST_STEP)
}

/// The largest step, in radians, of [`descend_support`].
const DESCENT_FIRST_STEP: f32 = 0.05;
/// The first step, in radians, of [`descend_support`] from a face EPA
/// proved on the boundary to its tolerance.
const DESCENT_SETTLE_STEP: f32 = 1.0e-3;
/// The most support queries [`descend_support`] makes from one start.
const DESCENT_MAX_QUERIES: usize = 256;
/// The most times [`descend_support`] replaces its normal by the direction
/// of the witnesses.
const WITNESS_ROUNDS: usize = 3;
/// How many of an unproved polytope's closest faces [`descend_support`]
/// starts from, besides the closest.
const DESCENT_STARTS: usize = 6;

/// The penetration depth as the least support value of `A − B` over unit
/// directions, `D = min_{|n|=1} h(n)` with `h(n) = n·s_{A−B}(n)` (the
/// distance from the origin, inside `A − B`, to its support plane along
/// `n`), found by a pattern search on the sphere from each of `starts`:
/// steps of `first_step` radians along the two tangent axes, kept when they
/// lower `h`, halved when none does (`minimize_on_sphere`); the least
/// of the minima found is the answer.
///
/// EPA's polytope lies inside `A − B`, so its closest face is a lower
/// bound of `D` and converges slowly where the boundary is curved (the
/// rim of a cylinder or a cone: a polytope of `MAX_VERTICES` corners
/// still misses by 1e-2 of the size). Every `h(n)` is an upper bound of
/// `D`; this search settles it to the precision of the support mappings.
/// The points are the closest points of the shapes moved apart along the
/// final normal by `D` and the tolerance, one on each shape, whose
/// difference is then `D·n` to the tolerance.
fn descend_support<A: Support + ?Sized, B: Support + ?Sized>(
    pair: &MinkowskiDifference<'_, A, B>,
    starts: &[Vec3],
    tolerance: f32,
    first_step: f32,
) -> EpaOutput {
    let value = |n: Vec3| {
        let w = pair.support(n);
        (n.dot(w.w), w)
    };
    let descend = |start: Vec3| minimize_on_sphere(start, first_step, DESCENT_MAX_QUERIES, value);
    let mut best: Option<(Vec3, f32, Vertex)> = None;
    for &start in starts {
        let found = descend(start);
        if best.is_none_or(|(_, h, _)| found.1 < h) {
            best = Some(found);
        }
    }
    let (mut normal, mut h, mut vertex) = best.unwrap_or_else(|| {
        let w = pair.support(Vec3::X);
        (Vec3::X, Vec3::X.dot(w.w), w)
    });
    // The witnesses: the closest points of the shapes moved apart by a
    // little more than the depth along the normal (a support point may be
    // any point of a flat part of the boundary: a cone's apex for its side).
    // Those closest points' direction is the normal of the surfaces where
    // they touch: where it overlaps less than the descent's (whose steps
    // along two tangent axes stall in a narrow valley of `h`, a long box's
    // face normal), it replaces it, and the shapes are moved apart again.
    let mut witnesses = None;
    for round in 0..=WITNESS_ROUNDS {
        let shift = h.max(0.0) + tolerance;
        let apart = MinkowskiDifference {
            a: pair.a,
            b: pair.b,
            offset: pair.offset - normal * shift,
        };
        let out = gjk(&apart, None);
        if out.overlapping {
            break;
        }
        witnesses = Some((out.point_a + normal * shift, out.point_b));
        if round == WITNESS_ROUNDS {
            break;
        }
        let Some(across) = unit_without_overflow(-out.v) else {
            break;
        };
        let (h_across, w_across) = value(across);
        if !(h_across < h - 0.1 * tolerance) {
            break;
        }
        (normal, h, vertex) = (across, h_across, w_across);
        witnesses = None;
    }
    let (point_a, point_b) = witnesses.unwrap_or((vertex.a, vertex.b));
    EpaOutput {
        depth: h.max(0.0),
        normal,
        point_a,
        point_b,
    }
}
