//! An `f64` geometry oracle for certifying collide's answers: the signed
//! distance from a point to each shape, each shape's support value
//! (`h(d) = max_{x∈S} d·x`) and projection interval along a direction,
//! support points, and points sampled in the shape.
//!
//! Written from the definitions of the shapes in their docs, not from
//! collide's code: every formula below is a textbook one (Quilez's signed
//! distances of boxes, capsules and solids of revolution by their 2D
//! cross-section; the point–triangle distance by projection onto the plane
//! and the three edges; a convex polytope's facets by the brute-force test
//! "every vertex on one side of the plane"), evaluated in `f64` from the
//! `f32` inputs, which convert exactly. The only thing taken from collide
//! is a hull's vertex list ([`ConvexHull::vertices`]), whose faces are
//! recomputed here.
//!
//! Signs: negative inside a solid, positive outside; a triangle and a mesh
//! are surfaces, so their distance is unsigned.

use collide::math::{DVec3, Quat, Vec3};
use collide::{ConvexHull, Shape};

/// `v` in `f64` (exact).
pub fn d3(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

/// A shape in `f64`, in world space.
#[derive(Debug, Clone)]
pub enum Oracle {
    /// Centre, radius.
    Sphere { c: DVec3, r: f64 },
    /// Axis ends, radius.
    Capsule { a: DVec3, b: DVec3, r: f64 },
    /// Centre, orthonormal axes, half extents along them.
    Box { c: DVec3, axes: [DVec3; 3], h: DVec3 },
    /// Corners (a flat two-sided surface).
    Triangle { v: [DVec3; 3] },
    /// Cap centres, radius.
    Cylinder { a: DVec3, b: DVec3, r: f64 },
    /// Base centre, apex, base radius.
    Cone { base: DVec3, apex: DVec3, r: f64 },
    /// Vertices, facet triangles (indices into `v`), facet planes
    /// `(unit outward normal, offset)`: `n·x <= offset` inside.
    Hull {
        v: Vec<DVec3>,
        facets: Vec<[usize; 3]>,
        planes: Vec<(DVec3, f64)>,
    },
    /// Triangles (a surface, not a solid).
    Mesh { tris: Vec<[DVec3; 3]> },
}

/// The rotation matrix's columns of the quaternion `q`, normalised in `f64`
/// (`R = I + 2w[v]× + 2[v]×²` for the unit `(v, w)`).
pub fn rotation_axes(q: Quat) -> [DVec3; 3] {
    let (x, y, z, w) = (f64::from(q.x), f64::from(q.y), f64::from(q.z), f64::from(q.w));
    let n = (x * x + y * y + z * z + w * w).sqrt();
    let (x, y, z, w) = (x / n, y / n, z / n, w / n);
    [
        DVec3::new(
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y + w * z),
            2.0 * (x * z - w * y),
        ),
        DVec3::new(
            2.0 * (x * y - w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z + w * x),
        ),
        DVec3::new(
            2.0 * (x * z + w * y),
            2.0 * (y * z - w * x),
            1.0 - 2.0 * (x * x + y * y),
        ),
    ]
}

/// Distance from `p` to the segment `[a, b]` (a point when `a == b`).
pub fn segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    (p - closest_on_segment(p, a, b)).length()
}

/// The point of `[a, b]` nearest `p`: `a + clamp((p−a)·(b−a)/|b−a|², 0, 1)(b−a)`.
pub fn closest_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let ll = ab.length_squared();
    if ll == 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / ll).clamp(0.0, 1.0);
    a + ab * t
}

/// Unsigned distance from `p` to the triangle `v`: to its plane when the
/// projection of `p` falls inside (the three edge tests `((v_{i+1}−v_i) ×
/// (q−v_i))·n >= 0`), else to the nearest edge. A degenerate triangle
/// (zero normal) is the union of its edges.
pub fn triangle_distance(p: DVec3, v: &[DVec3; 3]) -> f64 {
    let n = (v[1] - v[0]).cross(v[2] - v[0]);
    let nn = n.length_squared();
    if nn > 0.0 {
        let inside = (0..3).all(|i| {
            let (a, b) = (v[i], v[(i + 1) % 3]);
            (b - a).cross(p - a).dot(n) >= 0.0
        });
        if inside {
            return (p - v[0]).dot(n).abs() / nn.sqrt();
        }
    }
    (0..3)
        .map(|i| segment_distance(p, v[i], v[(i + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

/// The signed distance from `(x, y)` to the 2D convex polygon `poly`
/// (counter-clockwise): `−min edge distance` inside, `+min edge distance`
/// outside.
fn polygon_2d_signed_distance(x: f64, y: f64, poly: &[(f64, f64)]) -> f64 {
    let p = DVec3::new(x, y, 0.0);
    let mut dist = f64::INFINITY;
    let mut inside = true;
    for i in 0..poly.len() {
        let (ax, ay) = poly[i];
        let (bx, by) = poly[(i + 1) % poly.len()];
        let a = DVec3::new(ax, ay, 0.0);
        let b = DVec3::new(bx, by, 0.0);
        dist = dist.min(segment_distance(p, a, b));
        if (bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0.0 {
            inside = false;
        }
    }
    if inside {
        -dist
    } else {
        dist
    }
}

/// `(axial, radial)` coordinates of `p` about the axis from `a` along the
/// unit `u`: `((p−a)·u, |(p−a) × u|)`.
fn axial_radial(p: DVec3, a: DVec3, u: DVec3) -> (f64, f64) {
    let m = p - a;
    (m.dot(u), m.cross(u).length())
}

/// The facets of the convex hull of `v` by brute force: a triple spans a
/// facet plane when every vertex lies on one side of it (within
/// `1e-12·extent`). Everything is computed relative to the vertices'
/// centroid, where the differences and cross products round at `2⁻⁵³` of
/// the hull's own size, not of its distance from the origin (a hull 0.3
/// wide at 9e3 has `f64` coordinates rounding at 2e-12, its own size's
/// `1e-12`). A triple spanning less than `1e-9·extent²` of area (near
/// coincident or collinear corners) has no well-defined normal at that
/// precision and is skipped: the facet it lies in is spanned by other
/// triples. Every triangle of coplanar facet vertices is kept, so their
/// union is the whole facet polygon.
fn hull_facets(v: &[DVec3]) -> (Vec<[usize; 3]>, Vec<(DVec3, f64)>) {
    let centre = v.iter().fold(DVec3::ZERO, |s, p| s + *p) / v.len() as f64;
    let local: Vec<DVec3> = v.iter().map(|p| *p - centre).collect();
    let extent = local.iter().map(|p| p.length()).fold(0.0, f64::max);
    let eps = 1e-12 * extent;
    let mut facets = Vec::new();
    let mut planes = Vec::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            for k in j + 1..v.len() {
                let n = (local[j] - local[i]).cross(local[k] - local[i]);
                let len = n.length();
                if len.is_nan() || len <= 1e-9 * extent * extent {
                    continue;
                }
                let n = n / len;
                let s = n.dot(local[i]);
                let (mut above, mut below) = (false, false);
                for p in &local {
                    let h = n.dot(*p) - s;
                    above |= h > eps;
                    below |= h < -eps;
                }
                if above && below {
                    continue;
                }
                let n = if above { -n } else { n };
                facets.push([i, j, k]);
                planes.push((n, n.dot(local[i]) + n.dot(centre)));
            }
        }
    }
    (facets, planes)
}

impl Oracle {
    /// The oracle of collide's `shape`, from the shape's defining numbers.
    pub fn of(shape: &Shape) -> Oracle {
        match shape {
            Shape::Sphere(s) => Oracle::Sphere {
                c: d3(s.center),
                r: f64::from(s.radius),
            },
            Shape::Capsule(c) => Oracle::Capsule {
                a: d3(c.segment.start),
                b: d3(c.segment.end),
                r: f64::from(c.radius),
            },
            Shape::Aabb(b) => Oracle::Box {
                c: (d3(b.min) + d3(b.max)) * 0.5,
                axes: [DVec3::X, DVec3::Y, DVec3::Z],
                h: (d3(b.max) - d3(b.min)) * 0.5,
            },
            Shape::Obb(b) => Oracle::Box {
                c: d3(b.center),
                axes: rotation_axes(b.rotation),
                h: d3(b.half_extents),
            },
            Shape::Triangle(t) => Oracle::Triangle {
                v: [d3(t.a), d3(t.b), d3(t.c)],
            },
            Shape::Cylinder(c) => Oracle::Cylinder {
                a: d3(c.segment.start),
                b: d3(c.segment.end),
                r: f64::from(c.radius),
            },
            Shape::Cone(c) => Oracle::Cone {
                base: d3(c.base_center),
                apex: d3(c.apex),
                r: f64::from(c.radius),
            },
            Shape::Hull(h) => Oracle::of_hull(h),
            Shape::Mesh(m) => Oracle::Mesh {
                tris: m
                    .indices()
                    .iter()
                    .map(|t| t.map(|i| d3(m.vertices()[i as usize])))
                    .collect(),
            },
            Shape::HeightField(h) => Oracle::Mesh {
                tris: h.triangles().map(|(_, t)| [d3(t.a), d3(t.b), d3(t.c)]).collect(),
            },
            other => panic!("no oracle for {other:?}"),
        }
    }

    /// The oracle of a hull: its vertices, with facets recomputed.
    pub fn of_hull(hull: &ConvexHull) -> Oracle {
        let v: Vec<DVec3> = hull.vertices().iter().map(|p| d3(*p)).collect();
        let (facets, planes) = hull_facets(&v);
        Oracle::Hull { v, facets, planes }
    }

    /// The same shape moved by `offset` (in `f64`).
    pub fn translated(&self, offset: DVec3) -> Oracle {
        let mut s = self.clone();
        match &mut s {
            Oracle::Sphere { c, .. } => *c += offset,
            Oracle::Capsule { a, b, .. } | Oracle::Cylinder { a, b, .. } => {
                *a += offset;
                *b += offset;
            }
            Oracle::Box { c, .. } => *c += offset,
            Oracle::Triangle { v } => v.iter_mut().for_each(|p| *p += offset),
            Oracle::Cone { base, apex, .. } => {
                *base += offset;
                *apex += offset;
            }
            Oracle::Hull { v, planes, .. } => {
                v.iter_mut().for_each(|p| *p += offset);
                planes.iter_mut().for_each(|(n, o)| *o += n.dot(offset));
            }
            Oracle::Mesh { tris } => tris.iter_mut().flatten().for_each(|p| *p += offset),
        }
        s
    }

    /// Whether the shape is a solid (a triangle and a mesh are surfaces).
    pub fn is_solid(&self) -> bool {
        !matches!(self, Oracle::Triangle { .. } | Oracle::Mesh { .. })
    }

    /// The signed distance from `p` (unsigned for a triangle or mesh).
    ///
    /// - sphere `|p−c| − r`; capsule `dist(p, [a,b]) − r`;
    /// - box: with `q_i = |(p−c)·axis_i| − h_i`,
    ///   `|max(q, 0)| + min(max_i q_i, 0)`;
    /// - cylinder: in `(axial from the middle, radial)` coordinates
    ///   `(x, ρ)`, `q = (|x| − L/2, ρ − r)`, the same box formula in 2D;
    /// - cone: the 2D signed distance of `(ρ, y)` to its cross-section
    ///   triangle `(−r, 0), (r, 0), (0, H)`;
    /// - hull: inside, the largest facet-plane distance (`<= 0`); outside,
    ///   the distance to the nearest facet triangle;
    /// - triangle, mesh: the distance to the nearest triangle.
    pub fn signed_distance(&self, p: DVec3) -> f64 {
        match self {
            Oracle::Sphere { c, r } => (p - *c).length() - r,
            Oracle::Capsule { a, b, r } => segment_distance(p, *a, *b) - r,
            Oracle::Box { c, axes, h } => {
                let m = p - *c;
                let q = DVec3::new(m.dot(axes[0]).abs(), m.dot(axes[1]).abs(), m.dot(axes[2]).abs()) - *h;
                q.max(DVec3::ZERO).length() + q.max_element().min(0.0)
            }
            Oracle::Triangle { v } => triangle_distance(p, v),
            Oracle::Cylinder { a, b, r } => {
                let axis = *b - *a;
                let len = axis.length();
                if len == 0.0 {
                    return (p - *a).length() - r;
                }
                let u = axis / len;
                let (x, rho) = axial_radial(p, (*a + *b) * 0.5, u);
                let (qx, qr) = (x.abs() - len * 0.5, rho - r);
                (qx.max(0.0).hypot(qr.max(0.0))) + qx.max(qr).min(0.0)
            }
            Oracle::Cone { base, apex, r } => {
                let axis = *apex - *base;
                let height = axis.length();
                if height == 0.0 {
                    return (p - *base).length() - r;
                }
                let (y, rho) = axial_radial(p, *base, axis / height);
                if *r == 0.0 {
                    return segment_distance(DVec3::new(rho, y, 0.0), DVec3::ZERO, DVec3::new(0.0, height, 0.0));
                }
                polygon_2d_signed_distance(rho, y, &[(-r, 0.0), (*r, 0.0), (0.0, height)])
            }
            Oracle::Hull { v, planes, .. } => {
                let worst = planes
                    .iter()
                    .map(|(n, o)| n.dot(p) - o)
                    .fold(f64::NEG_INFINITY, f64::max);
                if worst <= 0.0 {
                    worst
                } else {
                    // Outside: the distance to the nearest triangle of any
                    // three vertices. Every such triangle lies in the hull,
                    // so none is nearer than its boundary, and the boundary's
                    // faces are among them (slivers too, whose planes
                    // `hull_facets` leaves out).
                    let mut nearest = f64::INFINITY;
                    for i in 0..v.len() {
                        for j in i + 1..v.len() {
                            for k in j + 1..v.len() {
                                nearest = nearest.min(triangle_distance(p, &[v[i], v[j], v[k]]));
                            }
                        }
                    }
                    nearest
                }
            }
            Oracle::Mesh { tris } => tris
                .iter()
                .map(|t| triangle_distance(p, t))
                .fold(f64::INFINITY, f64::min),
        }
    }

    /// The support value `h(d) = max_{x∈S} d·x` (for any `d`, not only unit):
    /// sphere `c·d + r|d|`; capsule `max(a·d, b·d) + r|d|`; box
    /// `c·d + Σ h_i|axis_i·d|`; cylinder `max(a·d, b·d) + r|d × u|`; cone
    /// `max(apex·d, base·d + r|d × u|)`; polytopes the largest vertex value.
    pub fn support_value(&self, d: DVec3) -> f64 {
        self.support_point(d).dot(d)
    }

    /// A point of the shape farthest along `d` (the formulas of
    /// [`Oracle::support_value`] with their maximisers).
    pub fn support_point(&self, d: DVec3) -> DVec3 {
        let unit = d.normalize_or_zero();
        // The part of `d` across the axis `u`, as `(u × d) × u`: perpendicular
        // to `u` by construction, so that a `d` along the axis, whose
        // residual `d − u(d·u)` is rounding along `u` itself, adds nothing
        // along `d` once normalised.
        // A zero axis (a flat cylinder or cone, which collide takes for the
        // ball of its radius) leaves all of `d`.
        let across = |u: DVec3| {
            if u == DVec3::ZERO {
                unit
            } else {
                u.cross(d).cross(u).normalize_or_zero()
            }
        };
        let farther = |a: DVec3, b: DVec3| if a.dot(d) >= b.dot(d) { a } else { b };
        match self {
            Oracle::Sphere { c, r } => *c + unit * *r,
            Oracle::Capsule { a, b, r } => farther(*a, *b) + unit * *r,
            Oracle::Box { c, axes, h } => {
                let mut p = *c;
                for i in 0..3 {
                    let s = if axes[i].dot(d) >= 0.0 { 1.0 } else { -1.0 };
                    p += axes[i] * (s * h[i]);
                }
                p
            }
            Oracle::Triangle { v } => farthest(v, d),
            Oracle::Cylinder { a, b, r } => {
                let u = (*b - *a).normalize_or_zero();
                farther(*a, *b) + across(u) * *r
            }
            Oracle::Cone { base, apex, r } => {
                let u = (*apex - *base).normalize_or_zero();
                farther(*apex, *base + across(u) * *r)
            }
            Oracle::Hull { v, .. } => farthest(v, d),
            Oracle::Mesh { tris } => {
                let all: Vec<DVec3> = tris.iter().flatten().copied().collect();
                farthest(&all, d)
            }
        }
    }

    /// The projection interval `[−h(−d), h(d)]` of the shape on `d`.
    pub fn interval(&self, d: DVec3) -> (f64, f64) {
        (-self.support_value(-d), self.support_value(d))
    }

    /// A centre: the middle of the axis, the box centre, the vertex mean.
    pub fn centre(&self) -> DVec3 {
        match self {
            Oracle::Sphere { c, .. } | Oracle::Box { c, .. } => *c,
            Oracle::Capsule { a, b, .. } | Oracle::Cylinder { a, b, .. } => (*a + *b) * 0.5,
            Oracle::Cone { base, apex, .. } => (*base + *apex) * 0.5,
            Oracle::Triangle { v } => (v[0] + v[1] + v[2]) / 3.0,
            Oracle::Hull { v, .. } => v.iter().fold(DVec3::ZERO, |s, p| s + *p) / v.len() as f64,
            Oracle::Mesh { tris } => tris.iter().flatten().fold(DVec3::ZERO, |s, p| s + *p) / (3 * tris.len()) as f64,
        }
    }

    /// The largest distance from [`Oracle::centre`] to a point of the
    /// shape (the support value along the six axes and a bound for round
    /// parts): the shape's size for tolerances.
    pub fn size(&self) -> f64 {
        let c = self.centre();
        match self {
            Oracle::Sphere { r, .. } => *r,
            Oracle::Capsule { a, b, r } | Oracle::Cylinder { a, b, r } => (*a - *b).length() * 0.5 + r,
            Oracle::Cone { base, apex, r } => (*apex - *base).length() * 0.5 + r,
            Oracle::Box { h, .. } => h.length(),
            Oracle::Triangle { v } => v.iter().map(|p| (*p - c).length()).fold(0.0, f64::max),
            Oracle::Hull { v, .. } => v.iter().map(|p| (*p - c).length()).fold(0.0, f64::max),
            Oracle::Mesh { tris } => tris.iter().flatten().map(|p| (*p - c).length()).fold(0.0, f64::max),
        }
    }

    /// Points of the shape's surface to bound distances from above: the
    /// support points along the given directions, and for flat parts
    /// random points of the faces (the barycentric weights `w` of three
    /// support points, which lie in the shape for a convex one).
    pub fn samples(&self, directions: &[DVec3], weights: &[[f64; 3]]) -> Vec<DVec3> {
        let mut out: Vec<DVec3> = directions.iter().map(|d| self.support_point(*d)).collect();
        match self {
            Oracle::Triangle { v } => out.extend(weights.iter().map(|w| v[0] * w[0] + v[1] * w[1] + v[2] * w[2])),
            Oracle::Mesh { tris } => {
                for (i, w) in weights.iter().enumerate() {
                    let t = &tris[i % tris.len()];
                    out.push(t[0] * w[0] + t[1] * w[1] + t[2] * w[2]);
                }
            }
            _ => {
                if out.len() >= 3 {
                    for (i, w) in weights.iter().enumerate() {
                        let n = out.len();
                        let (a, b, c) = (out[i % n], out[(i * 7 + 1) % n], out[(i * 13 + 2) % n]);
                        out.push(a * w[0] + b * w[1] + c * w[2]);
                    }
                }
            }
        }
        out
    }
}

/// The point of `v` with the largest `d·p`.
fn farthest(v: &[DVec3], d: DVec3) -> DVec3 {
    let mut best = v[0];
    for p in &v[1..] {
        if p.dot(d) > best.dot(d) {
            best = *p;
        }
    }
    best
}

/// Asserts that `point_a` lies on `a`'s surface and `point_b` on `b`'s,
/// each within `tol`, and that `point_a − point_b = depth·normal` within
/// `tol`: a contact's witnesses, certified; `what` names the case.
pub fn assert_witnesses(
    (a, b): (&Oracle, &Oracle),
    (point_a, point_b): (Vec3, Vec3),
    normal: Vec3,
    depth: f32,
    tol: f64,
    what: &dyn Fn() -> String,
) {
    let off_a = a.signed_distance(d3(point_a)).abs();
    assert!(off_a <= tol, "point_a {off_a:e} off a: {}", what());
    let off_b = b.signed_distance(d3(point_b)).abs();
    assert!(off_b <= tol, "point_b {off_b:e} off b: {}", what());
    let apart = (d3(point_a) - d3(point_b) - d3(normal) * f64::from(depth)).length();
    assert!(
        apart <= tol,
        "point_a − point_b ≠ depth·normal by {apart:e}: {}",
        what()
    );
}
