//! The contact of two convex polyhedra — hulls and boxes, in any pairing
//! but two boxes (`sat.rs`) — by the separating-axis test.
//!
//! Two convex polyhedra overlap exactly when their projections overlap on
//! every face normal of either and on every cross product of an edge of
//! each; the axis of least overlap is the minimum translation direction
//! and its overlap the penetration depth, exactly (Gottschalk, Lin and
//! Manocha, "OBBTree", 1996). Of the edge pairs only those whose arcs
//! cross on the Gauss map can give a face of the Minkowski difference
//! (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC
//! 2013): the others are skipped by four dot products, four pairs at a
//! time. The vertices are taken relative to the first polyhedron's centre
//! (in `f64`, where the differences of `f32` coordinates are exact) and
//! projected in `f32` four at a time: each separation is then within a few
//! ulps of the polyhedra's size, well inside the touching tolerance, which
//! is where the test leaves the pair to GJK.
//!
//! Across a face normal, the contact points are the deepest of the
//! manifold clipped from the two shapes' faces along it (`manifold.rs`);
//! across two crossing edges, the edges' closest points, one point. Where
//! the test cannot tell an overlap from a touch (the least overlap within
//! the touching tolerance), or the points do not reach the depth the axes
//! gave, the caller falls back on GJK and EPA.

use arrayvec::ArrayVec;

use crate::math::{DVec3, Vec3, Vec4};
use crate::query::contact::Contact;
use crate::query::gjk::TOUCH_TOLERANCE;
use crate::query::manifold::{clipped_manifold, ContactManifold};
use crate::query::sat::{BoxFrame, EDGE_BIAS, PARALLEL_SINE};
use crate::shape::hull::SAT_MAX_VERTICES;
use crate::shape::segment::DSegment;
use crate::shape::{ConvexHull, Obb, Shape};

/// The slack of the Gauss-map test, relative to the unit normals' products:
/// an edge pair whose arcs touch within it is tested, so rounding never
/// skips the axis of least overlap.
const ARC_SLACK: f32 = 1.0e-6;

/// How far the deepest clipped point may fall short of the depth the axes
/// gave, relative to the shapes' size, for the contact to be taken from
/// it.
const DEPTH_AGREEMENT: f64 = 1.0e-5;

/// The sizes (the sum of the two bounding radii) the test takes: its `f32`
/// projections stay far from the subnormal and overflow ranges. Beyond,
/// GJK and EPA work at unit scale (`rescale.rs`).
const SIZES: core::ops::RangeInclusive<f64> = 1.0e-18..=1.0e18;

/// The feature id of an edge–edge contact's single point, above the two
/// edges' indices (15 bits each): the same while the same edges cross.
const EDGE_PAIR_ID: u32 = 0xc000_0000;

/// A convex polyhedron as the separating-axis test reads it: vertices,
/// outward face planes with their reach from the centre, and feature edges
/// with the two faces each joins.
trait Polyhedron {
    fn center(&self) -> Vec3;
    fn vertex_count(&self) -> usize;
    /// Vertex `i` relative to `origin`, in `f64`.
    fn vertex(&self, i: usize, origin: DVec3) -> DVec3;
    fn face_count(&self) -> usize;
    /// Face `i`'s outward unit normal.
    fn normal(&self, i: usize) -> Vec3;
    /// Face `i`'s reach from the centre, `max_v n·(v − center)`.
    fn reach(&self, i: usize) -> f64;
    fn edge_count(&self) -> usize;
    /// Edge `i`'s ends and the two faces it joins.
    fn edge(&self, i: usize) -> ([u32; 2], [u32; 2]);
    /// The largest distance of a vertex from the centre, for the
    /// tolerances.
    fn radius(&self) -> f32;
}

impl Polyhedron for ConvexHull {
    fn center(&self) -> Vec3 {
        ConvexHull::center(self)
    }
    fn vertex_count(&self) -> usize {
        self.vertices().len()
    }
    #[inline]
    fn vertex(&self, i: usize, origin: DVec3) -> DVec3 {
        self.vertices()[i].as_dvec3() - origin
    }
    fn face_count(&self) -> usize {
        self.planes().len()
    }
    #[inline]
    fn normal(&self, i: usize) -> Vec3 {
        self.planes()[i].normal
    }
    #[inline]
    fn reach(&self, i: usize) -> f64 {
        f64::from(ConvexHull::reach(self, i))
    }
    fn edge_count(&self) -> usize {
        self.edges().len()
    }
    #[inline]
    fn edge(&self, i: usize) -> ([u32; 2], [u32; 2]) {
        (self.edges()[i], self.edge_faces()[i])
    }
    fn radius(&self) -> f32 {
        self.bounding_radius()
    }
}

/// An oriented box as a polyhedron: vertex `i` at `center + Σ ±half_k·axis_k`
/// (`+` where bit `k` of `i` is set), face `2k + s` the one along `±axis_k`
/// (`s = 1` for `+`), and the twelve edges, four along each axis.
impl Polyhedron for BoxFrame {
    fn center(&self) -> Vec3 {
        self.center
    }
    fn vertex_count(&self) -> usize {
        8
    }
    #[inline]
    fn vertex(&self, i: usize, origin: DVec3) -> DVec3 {
        (0..3).fold(self.center.as_dvec3() - origin, |v, k| {
            let sign = if i >> k & 1 == 1 { 1.0 } else { -1.0 };
            v + self.axes[k].as_dvec3() * (sign * f64::from(self.half[k]))
        })
    }
    fn face_count(&self) -> usize {
        6
    }
    #[inline]
    fn normal(&self, i: usize) -> Vec3 {
        if i % 2 == 1 {
            self.axes[i / 2]
        } else {
            -self.axes[i / 2]
        }
    }
    #[inline]
    fn reach(&self, i: usize) -> f64 {
        f64::from(self.half[i / 2])
    }
    fn edge_count(&self) -> usize {
        12
    }
    /// Edge `4k + j` runs along axis `k` from the vertex whose other two
    /// bits are `j`'s, with bit `k` clear, to the one with it set; it joins
    /// the faces of the other two axes on the sides those bits say.
    #[inline]
    fn edge(&self, i: usize) -> ([u32; 2], [u32; 2]) {
        let (k, j) = (i / 4, i % 4);
        let (u, w) = ((k + 1) % 3, (k + 2) % 3);
        let (bu, bw) = (j & 1, j >> 1 & 1);
        let start = bu << u | bw << w;
        (
            [start as u32, (start | 1 << k) as u32],
            [(2 * u + bu) as u32, (2 * w + bw) as u32],
        )
    }
    fn radius(&self) -> f32 {
        self.half.length()
    }
}

/// What the separating-axis test makes of a pair.
pub(crate) enum SatContact {
    /// An axis separates them by more than the touching tolerance.
    Apart,
    /// They overlap by more than the touching tolerance: the contact, and
    /// the manifold it is the deepest point of.
    Overlapping(Contact, ContactManifold),
    /// Touching, within the tolerance, or the clipped points disagree with
    /// the axes: for GJK and EPA to settle.
    Undecided,
}

/// The contact of `a` and `b` by the separating-axis test, when both are
/// polyhedra (hulls, boxes) and not both boxes; `None` for any other pair.
pub(crate) fn sat_contact(a: &Shape, b: &Shape) -> Option<SatContact> {
    let boxed = |s: &Shape| match s {
        Shape::Obb(o) => Some(BoxFrame::from_obb(o)),
        Shape::Aabb(a) => Some(BoxFrame::from_obb(&Obb::from(*a))),
        _ => None,
    };
    Some(match (a, b) {
        (Shape::Hull(x), Shape::Hull(y)) => contact_of(x.as_ref(), y.as_ref(), a, b),
        (Shape::Hull(x), _) => contact_of(x.as_ref(), &boxed(b)?, a, b),
        (_, Shape::Hull(y)) => contact_of(&boxed(a)?, y.as_ref(), a, b),
        _ => return None,
    })
}

/// The most vertices of a polyhedron the test takes; a larger hull is
/// left to GJK and EPA.
const MAX_VERTICES: usize = SAT_MAX_VERTICES;

/// The most edges of a polyhedron of [`MAX_VERTICES`] vertices (Euler:
/// `E ≤ 3V − 6`).
const MAX_EDGES: usize = 3 * MAX_VERTICES - 6;

/// A polyhedron read for the test: its vertices relative to the common
/// origin, in `f64` and four by four in `f32` lanes for the projections,
/// its edges' ends, and for the second polyhedron the arcs its edges'
/// faces' normals span on the Gauss map, four by four (see [`Arcs`]; the
/// first one's edges are taken one at a time against them).
struct Prepared {
    vertices: ArrayVec<DVec3, MAX_VERTICES>,
    /// `[x, y, z]` of four vertices a block; a last block's spare lanes
    /// repeat its first vertex.
    lanes: ArrayVec<[Vec4; 3], { MAX_VERTICES / 4 }>,
    ends: ArrayVec<[u32; 2], MAX_EDGES>,
    arcs: ArrayVec<Arcs, { MAX_EDGES.div_ceil(4) }>,
}

/// Four edges' arcs on the Gauss map, lane by lane: from `u` to `v` (the
/// edge's faces' normals, negated for the second polyhedron, whose Gauss
/// map is reflected) and `arc = v × u`, each as its three coordinates;
/// `live` the lanes holding an edge.
#[derive(Debug, Clone, Copy)]
struct Arcs {
    u: [Vec4; 3],
    v: [Vec4; 3],
    arc: [Vec4; 3],
    live: u32,
}

impl Prepared {
    /// `p` read relative to `origin` into `self` (cleared first), with its
    /// arcs, reflected, when `reflected` (the second polyhedron); `false`
    /// beyond [`MAX_VERTICES`] vertices or [`MAX_EDGES`] edges (a hull
    /// keeps its edges' faces up to [`MAX_VERTICES`] vertices).
    fn read<P: Polyhedron>(&mut self, p: &P, origin: DVec3, reflected: bool) -> bool {
        if p.vertex_count() > MAX_VERTICES || p.edge_count() > MAX_EDGES {
            return false;
        }
        self.vertices.clear();
        self.vertices.extend((0..p.vertex_count()).map(|i| p.vertex(i, origin)));
        self.lanes.clear();
        for four in self.vertices.chunks(4) {
            let lane = |k: usize, axis: usize| four.get(k).unwrap_or(&four[0])[axis] as f32;
            self.lanes
                .push([0, 1, 2].map(|axis| Vec4::new(lane(0, axis), lane(1, axis), lane(2, axis), lane(3, axis))));
        }
        self.ends.clear();
        self.arcs.clear();
        if !reflected {
            // The first polyhedron's arcs are read edge by edge, as needed.
            self.ends.extend((0..p.edge_count()).map(|i| p.edge(i).0));
            return true;
        }
        for i in 0..p.edge_count() {
            let (ends, [f, g]) = p.edge(i);
            let (u, v) = (-p.normal(f as usize), -p.normal(g as usize));
            let arc = v.cross(u);
            let lane = i % 4;
            if lane == 0 {
                self.arcs.push(Arcs {
                    u: [Vec4::ZERO; 3],
                    v: [Vec4::ZERO; 3],
                    arc: [Vec4::ZERO; 3],
                    live: 0,
                });
            }
            let block = self.arcs.last_mut().expect("a block per four edges");
            for k in 0..3 {
                block.u[k][lane] = u[k];
                block.v[k][lane] = v[k];
                block.arc[k][lane] = arc[k];
            }
            block.live |= 1 << lane;
            self.ends.push(ends);
        }
        true
    }

    /// Edge `i`'s ends.
    #[inline]
    fn edge(&self, i: usize) -> (DVec3, DVec3) {
        let [p, q] = self.ends[i];
        (self.vertices[p as usize], self.vertices[q as usize])
    }

    /// The least and greatest of `axis·v` over the vertices, in `f32`
    /// (within a few ulps of the polyhedra's size).
    #[inline]
    fn project(&self, axis: Vec3) -> (f32, f32) {
        let (lo, hi) = self.lanes.iter().fold(
            (Vec4::splat(f32::INFINITY), Vec4::splat(f32::NEG_INFINITY)),
            |(lo, hi), [x, y, z]| {
                let d = *x * axis.x + *y * axis.y + *z * axis.z;
                (lo.min(d), hi.max(d))
            },
        );
        (lo.min_element(), hi.max_element())
    }

    /// The least of `axis·v` over the vertices, in `f32`.
    #[inline]
    fn lowest(&self, axis: Vec3) -> f32 {
        self.lanes
            .iter()
            .fold(Vec4::splat(f32::INFINITY), |lo, [x, y, z]| {
                lo.min(*x * axis.x + *y * axis.y + *z * axis.z)
            })
            .min_element()
    }
}

/// The lanes of `b` whose arcs cross the arc `(u, v, arc)` on the Gauss
/// map, four at a time, as a bit mask (Gregorius: the arcs `AB` and `CD`
/// cross when `C` and `D` lie on both sides of `AB`'s plane, `A` and `B`
/// on both sides of `CD`'s, and the arcs in the same hemisphere), within
/// [`ARC_SLACK`].
#[inline]
fn crossing(u: Vec3, v: Vec3, arc: Vec3, b: &Arcs) -> u32 {
    let dot = |c: &[Vec4; 3], d: Vec3| c[0] * d.x + c[1] * d.y + c[2] * d.z;
    let (cba, dba) = (dot(&b.u, arc), dot(&b.v, arc));
    let (adc, bdc) = (dot(&b.arc, u), dot(&b.arc, v));
    let slack = Vec4::splat(ARC_SLACK);
    let cross = (cba * dba).cmple(slack) & (adc * bdc).cmple(slack) & (cba * bdc).cmpge(-slack);
    cross.bitmask() & b.live
}

/// How the test ended.
enum Overlap {
    /// An axis separates the two by more than the touching tolerance.
    Apart,
    /// The axis of least overlap, from `a` to `b`, the separation along it
    /// (negative: the overlap), and the edges that gave it (relative to
    /// `a`'s centre, and their indices) when it is not a face normal.
    Least(DVec3, f64, Option<EdgePair>),
    /// A polyhedron too large to read.
    TooLarge,
}

/// An edge of each polyhedron, relative to the first's centre, with their
/// indices.
#[derive(Debug, Clone, Copy)]
struct EdgePair {
    a: DSegment,
    b: DSegment,
    indices: [usize; 2],
}

/// The axis of least overlap of `a` and `b`, or an axis separating them by
/// more than `apart`; an edge pair's axis must beat the faces' by `bias`.
fn least_overlap<A: Polyhedron, B: Polyhedron>(a: &A, b: &B, apart: f64, bias: f64) -> Overlap {
    let origin = a.center().as_dvec3();
    let empty = || Prepared {
        vertices: ArrayVec::new(),
        lanes: ArrayVec::new(),
        ends: ArrayVec::new(),
        arcs: ArrayVec::new(),
    };
    let (mut pa, mut pb) = (empty(), empty());
    if !pa.read(a, origin, false) || !pb.read(b, origin, true) {
        return Overlap::TooLarge;
    }
    let b_center = b.center().as_dvec3() - origin;
    let mut best = (DVec3::ZERO, f64::NEG_INFINITY);
    let mut edges = None;
    // `a`'s faces: `b` beyond each, along its outward normal.
    for i in 0..a.face_count() {
        let n = a.normal(i);
        let s = f64::from(pb.lowest(n)) - a.reach(i);
        if s > apart {
            return Overlap::Apart;
        }
        if s > best.1 {
            best = (n.as_dvec3(), s);
        }
    }
    // `b`'s faces: `a` beyond each, the axis from `a` to `b` against it.
    for j in 0..b.face_count() {
        let m = b.normal(j);
        let s = f64::from(pa.lowest(m)) - m.as_dvec3().dot(b_center) - b.reach(j);
        if s > apart {
            return Overlap::Apart;
        }
        if s > best.1 {
            best = (-m.as_dvec3(), s);
        }
    }
    // The edge pairs whose arcs cross on the Gauss map.
    for ea in 0..pa.ends.len() {
        let (_, [f, g]) = a.edge(ea);
        let (u, v) = (a.normal(f as usize), a.normal(g as usize));
        let arc = v.cross(u);
        let (p, q) = pa.edge(ea);
        for (block, arcs) in pb.arcs.iter().enumerate() {
            let mut lanes = crossing(u, v, arc, arcs);
            while lanes != 0 {
                let eb = 4 * block + lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let (r, t) = pb.edge(eb);
                let (da, db) = (q - p, t - r);
                let axis = da.cross(db);
                let length = axis.length();
                if !(length > PARALLEL_SINE * da.length() * db.length()) {
                    continue;
                }
                let axis = (axis / length).as_vec3();
                let ((a_lo, a_hi), (b_lo, b_hi)) = (pa.project(axis), pb.project(axis));
                // `b` on either side of `a` along the axis.
                let (s, n) = if b_lo - a_hi >= a_lo - b_hi {
                    (b_lo - a_hi, axis)
                } else {
                    (a_lo - b_hi, -axis)
                };
                let (s, n) = (f64::from(s), n.as_dvec3());
                if s > apart {
                    return Overlap::Apart;
                }
                if s > best.1 + if edges.is_none() { bias } else { 0.0 } {
                    best = (n, s);
                    edges = Some(EdgePair {
                        a: DSegment { start: p, end: q },
                        b: DSegment { start: r, end: t },
                        indices: [ea, eb],
                    });
                }
            }
        }
    }
    Overlap::Least(best.0, best.1, edges)
}

/// [`sat_contact`] for two polyhedra, the shapes they are.
fn contact_of<A: Polyhedron, B: Polyhedron>(a: &A, b: &B, sa: &Shape, sb: &Shape) -> SatContact {
    let size = f64::from(a.radius()) + f64::from(b.radius());
    if !SIZES.contains(&size) {
        return SatContact::Undecided;
    }
    let touch = f64::from(TOUCH_TOLERANCE) * size;
    let (axis, separation, edges) = match least_overlap(a, b, touch, EDGE_BIAS * size) {
        Overlap::Apart => return SatContact::Apart,
        Overlap::TooLarge => return SatContact::Undecided,
        Overlap::Least(axis, separation, edges) => (axis, separation, edges),
    };
    if !(separation < -touch) {
        return SatContact::Undecided;
    }
    let (normal, depth) = (axis.as_vec3(), -separation);
    if let Some(pair) = edges {
        // Two edges crossing: the contact is their closest points, one
        // point, `depth·normal` apart.
        let c = pair.a.closest_points(&pair.b);
        if ((c.point_a - c.point_b) - axis * depth).length() > DEPTH_AGREEMENT * size {
            return SatContact::Undecided;
        }
        let origin = a.center().as_dvec3();
        let contact = Contact {
            depth: depth as f32,
            normal,
            point_a: (origin + c.point_a).as_vec3(),
            point_b: (origin + c.point_b).as_vec3(),
            sub_shapes: [0; 2],
        };
        let [ea, eb] = pair.indices.map(|i| i as u32 & 0x7fff);
        return SatContact::Overlapping(contact, ContactManifold::single(&contact, EDGE_PAIR_ID | ea << 15 | eb));
    }
    // The features along the normal, clipped; the contact is their deepest
    // point, which reaches the depth the axes gave (the face of the
    // Minkowski difference along the normal holds `depth·normal`).
    let Ok(manifold) = clipped_manifold(sa, sb, normal) else {
        return SatContact::Undecided;
    };
    let Some(deepest) = manifold
        .points()
        .iter()
        .max_by(|p, q| p.depth.total_cmp(&q.depth))
        .filter(|p| (depth - f64::from(p.depth)).abs() <= DEPTH_AGREEMENT * size)
    else {
        return SatContact::Undecided;
    };
    let contact = Contact {
        depth: deepest.depth,
        normal,
        point_a: deepest.point_a,
        point_b: deepest.point_b,
        sub_shapes: [0; 2],
    };
    SatContact::Overlapping(contact, manifold)
}
