//! Separating-axis tests: boxes against boxes and against planes.
//!
//! Two convex polyhedra are disjoint exactly when their projections on some
//! axis are, and for two boxes the candidate axes are the three face normals
//! of each and the nine cross products of an edge direction of each
//! (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996; Ericson,
//! *Real-Time Collision Detection*, §4.4.1). The axis of least overlap is
//! then the minimum translation direction, and its overlap the penetration
//! depth.

use arrayvec::ArrayVec;

use crate::math::{length_without_overflow, tolerance_of_sum, DVec3, Mat3, Quat, Vec3};
use crate::query::contact::Contact;
use crate::shape::{Aabb, Obb, Plane, Segment};

/// A cross product of two unit edge directions shorter than this (the sine
/// of their angle) is a pair of parallel edges: no axis, skipped. Any unit
/// axis is a valid separating-axis candidate, so the threshold only has to
/// keep the normalisation finite and meaningful. Shared with the polyhedra's
/// test (`polyhedra.rs`), which works in `f64`; `as f32` here gives the
/// same `f32` as the literal.
pub(super) const PARALLEL_SINE: f64 = 1.0e-6;

/// How much smaller an edge–edge overlap must be than the best face overlap,
/// relative to the shapes' size, to win: faces win ties (their contact points
/// are better defined, and an axis-aligned pair's edge axes repeat the face
/// axes). Shared with the polyhedra's test, as [`PARALLEL_SINE`].
pub(super) const EDGE_BIAS: f64 = 1.0e-5;

/// A box as centre, unit axes and half-extents.
pub(super) struct BoxFrame {
    pub(super) center: Vec3,
    pub(super) axes: [Vec3; 3],
    pub(super) half: Vec3,
}

impl BoxFrame {
    pub(super) fn from_obb(obb: &Obb) -> Self {
        let m = Mat3::from_quat(obb.rotation);
        Self {
            center: obb.center,
            axes: [m.x_axis, m.y_axis, m.z_axis],
            half: obb.half_extents,
        }
    }

    /// The oriented box this frame describes.
    fn to_obb(&self) -> Obb {
        let rotation = Quat::from_mat3(&Mat3::from_cols(self.axes[0], self.axes[1], self.axes[2])).normalize();
        Obb::new(self.center, rotation, self.half)
    }

    /// `Σ e_k |axis_k·l|`: the box's half-width along `l`.
    #[inline]
    fn radius(&self, l: Vec3) -> f32 {
        (0..3).map(|k| self.half[k] * self.axes[k].dot(l).abs()).sum()
    }

    /// [`BoxFrame::radius`] in `f64`, where the sum of the three terms
    /// cannot overflow.
    #[inline]
    fn radius_f64(&self, l: Vec3) -> f64 {
        (0..3)
            .map(|k| f64::from(self.half[k]) * f64::from(self.axes[k].dot(l).abs()))
            .sum()
    }

    /// The edge along axis `i` farthest along `d`.
    fn support_edge(&self, i: usize, d: Vec3) -> Segment {
        let mut mid = self.center;
        for k in (0..3).filter(|&k| k != i) {
            let s = if self.axes[k].dot(d) >= 0.0 { 1.0 } else { -1.0 };
            mid += self.axes[k] * (s * self.half[k]);
        }
        let along = self.axes[i] * self.half[i];
        Segment::new(mid - along, mid + along)
    }
}

#[derive(Clone, Copy)]
enum Feature {
    FaceA,
    FaceB,
    Edges(usize, usize),
}

/// The most points a box face clipped by the four side planes of another
/// can keep: each plane adds at most one vertex to the quadrilateral.
const MAX_CLIPPED: usize = 8;

/// Sutherland–Hodgman: the part of `polygon` where `axis·p <= limit`.
fn clip_polygon(polygon: &[DVec3], axis: DVec3, limit: f64) -> ArrayVec<DVec3, MAX_CLIPPED> {
    let mut out = ArrayVec::new();
    for (i, &p) in polygon.iter().enumerate() {
        let q = polygon[(i + 1) % polygon.len()];
        let (dp, dq) = (axis.dot(p) - limit, axis.dot(q) - limit);
        if dp <= 0.0 && !out.is_full() {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            let t = dp / (dp - dq);
            if !out.is_full() {
                out.push(p + (q - p) * t);
            }
        }
    }
    out
}

/// The contact of a face of `reference` (outward normal `normal`, one of
/// its axes) with the face of `incident` most opposed to it, by clipping
/// (Ericson, *Real-Time Collision Detection*, §5.2; Box2D's
/// `b2CollidePolygons` in 3D): the incident face is clipped by the
/// reference face's four side planes, and of the clipped points the deepest
/// below the reference face (their mean, where several are deepest within
/// `tie`) is the contact. Returns `(point on incident, point on reference)`,
/// the second the first's projection on the reference face, so each lies on
/// its own box; `None` when no clipped point remains. Computed in `f64`
/// relative to the reference box's centre: exact enough at every `f32`
/// size, and no sum of half-extents overflows.
fn face_contact(reference: &BoxFrame, incident: &BoxFrame, normal: Vec3, tie: f32) -> Option<(Vec3, Vec3)> {
    let alignment = |axes: &[Vec3; 3], i: usize| axes[i].dot(normal).abs();
    let k = (0..3).max_by(|&i, &j| alignment(&reference.axes, i).total_cmp(&alignment(&reference.axes, j)))?;
    let m = (0..3).max_by(|&i, &j| alignment(&incident.axes, i).total_cmp(&alignment(&incident.axes, j)))?;
    let axis = |frame: &BoxFrame, i: usize| frame.axes[i].as_dvec3();
    let half = |frame: &BoxFrame, i: usize| f64::from(frame.half[i]);
    let n = normal.as_dvec3();
    // The incident face, relative to the reference box's centre.
    let side = if incident.axes[m].dot(normal) > 0.0 { -1.0 } else { 1.0 };
    let face_center =
        (incident.center.as_dvec3() - reference.center.as_dvec3()) + axis(incident, m) * (side * half(incident, m));
    let (u, v) = ((m + 1) % 3, (m + 2) % 3);
    let (eu, ev) = (
        axis(incident, u) * half(incident, u),
        axis(incident, v) * half(incident, v),
    );
    let mut polygon: ArrayVec<DVec3, MAX_CLIPPED> = ArrayVec::new();
    polygon.extend([
        face_center + eu + ev,
        face_center - eu + ev,
        face_center - eu - ev,
        face_center + eu - ev,
    ]);
    for i in (0..3).filter(|&i| i != k) {
        polygon = clip_polygon(&polygon, axis(reference, i), half(reference, i));
        polygon = clip_polygon(&polygon, -axis(reference, i), half(reference, i));
        if polygon.is_empty() {
            return None;
        }
    }
    // A point's penetration below the reference face: `h_k − n·p`.
    let plane = half(reference, k) * axis(reference, k).dot(n).abs();
    let depth_of = |p: &DVec3| plane - n.dot(*p);
    let deepest = polygon.iter().map(depth_of).fold(f64::NEG_INFINITY, f64::max);
    let (mut sum, mut count) = (DVec3::ZERO, 0.0);
    for p in polygon.iter().filter(|p| depth_of(p) >= deepest - f64::from(tie)) {
        sum += *p;
        count += 1.0;
    }
    let point = sum / count;
    let on_reference = point + n * depth_of(&point);
    let origin = reference.center.as_dvec3();
    Some(((origin + point).as_vec3(), (origin + on_reference).as_vec3()))
}

/// SAT over the 15 axes; `None` when some axis separates.
///
/// The edge bias is `EDGE_BIAS·(|e_a| + |e_b|)` with lengths that do not
/// overflow ([`length_without_overflow`], [`tolerance_of_sum`]): an `f32`
/// length of half-extents beyond about 1.8e19 is `∞`, and with an infinite
/// bias no edge axis could win. An overlap `r_a + r_b − |s|` that is not
/// finite in `f32` (radii summing past `f32::MAX`) is taken in `f64`.
fn box_box(a: &BoxFrame, b: &BoxFrame) -> Option<Contact> {
    let t = b.center - a.center;
    let edge_bias = tolerance_of_sum(
        EDGE_BIAS as f32,
        length_without_overflow(a.half),
        length_without_overflow(b.half),
    );
    let mut best: Option<(f32, Vec3, Feature)> = None;
    let mut consider = |l: Vec3, feature: Feature, bias: f32| -> bool {
        let mut s = t.dot(l);
        let mut overlap = a.radius(l) + b.radius(l) - s.abs();
        if !overlap.is_finite() {
            let s64 = (b.center.as_dvec3() - a.center.as_dvec3()).dot(l.as_dvec3());
            overlap = (a.radius_f64(l) + b.radius_f64(l) - s64.abs()) as f32;
            s = s64 as f32;
        }
        if !(overlap >= 0.0) {
            return false;
        }
        let oriented = if s < 0.0 { -l } else { l };
        if best.is_none_or(|(o, _, _)| overlap < o - bias) {
            best = Some((overlap, oriented, feature));
        }
        true
    };
    for axis in a.axes {
        if !consider(axis, Feature::FaceA, 0.0) {
            return None;
        }
    }
    for axis in b.axes {
        if !consider(axis, Feature::FaceB, 0.0) {
            return None;
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            let cross = a.axes[i].cross(b.axes[j]);
            let sine = cross.length();
            if !(sine > PARALLEL_SINE as f32) {
                continue;
            }
            if !consider(cross / sine, Feature::Edges(i, j), edge_bias) {
                return None;
            }
        }
    }
    let (depth, normal, feature) = best?;
    let tie = edge_bias.max(depth * EDGE_BIAS as f32);
    let (point_a, point_b) = match feature {
        Feature::FaceA => {
            let (on_b, on_a) = face_contact(a, b, normal, tie).unwrap_or_else(|| closest_pair(a, b));
            (on_a, on_b)
        }
        Feature::FaceB => face_contact(b, a, -normal, tie).unwrap_or_else(|| closest_pair(b, a)),
        Feature::Edges(i, j) => {
            let c = a.support_edge(i, normal).closest_points(&b.support_edge(j, -normal));
            let crossing = c.s > 0.0 && c.s < 1.0 && c.t > 0.0 && c.t < 1.0;
            if crossing {
                (c.point_a, c.point_b)
            } else {
                witnesses_apart(a, b, normal, depth).unwrap_or((c.point_a, c.point_b))
            }
        }
    };
    Some(Contact {
        sub_shapes: [0; 2],
        depth,
        normal,
        point_a,
        point_b,
    })
}

/// The witnesses of an edge axis whose support edges do not cross (their
/// closest points are an end of one: a box thinner than the edge bias
/// meets the other with a face or a corner, not an edge): the closest
/// points of the boxes with `b` moved apart along `normal` by `depth` and
/// a few touching tolerances, `b`'s moved back, so that
/// `point_a − point_b = depth·normal` up to GJK's tolerance. `None` when
/// they still touch.
fn witnesses_apart(a: &BoxFrame, b: &BoxFrame, normal: Vec3, depth: f32) -> Option<(Vec3, Vec3)> {
    // Apart by more than GJK's touching tolerance, whose closest points
    // are then those of a well-posed distance problem.
    let size = length_without_overflow(a.half) + length_without_overflow(b.half);
    let shift = depth + 8.0 * crate::query::gjk::TOUCH_TOLERANCE * size;
    let moved = BoxFrame {
        center: b.center + normal * shift,
        ..*b
    };
    let d = crate::query::gjk::distance(&a.to_obb(), &moved.to_obb());
    (d.distance > 0.0).then(|| (d.point_a, d.point_b - normal * shift))
}

/// The closest points of the incident and the reference box (GJK), for
/// the case clipping leaves no point: boxes that the separating-axis test
/// takes for touching but that meet only within rounding at a face's rim.
/// Returns `(point on incident, point on reference)`, each on its box.
fn closest_pair(reference: &BoxFrame, incident: &BoxFrame) -> (Vec3, Vec3) {
    let d = crate::query::gjk::distance(&incident.to_obb(), &reference.to_obb());
    (d.point_a, d.point_b)
}

impl From<Aabb> for Obb {
    /// The same box with the identity rotation.
    #[inline]
    fn from(aabb: Aabb) -> Obb {
        Obb::new(aabb.center(), Quat::IDENTITY, aabb.half_extents())
    }
}

impl Obb {
    /// The contact of two oriented boxes by the separating-axis test over
    /// all 15 axes (see the module docs), or `None` when they are apart;
    /// touching boxes have depth 0.
    ///
    /// The normal is the axis of least overlap, oriented from `self` to
    /// `other`; an edge–edge axis must beat the best face axis by
    /// `1e-5` of the boxes' size to be chosen. Cross products of parallel
    /// edges (sine below `1e-6`) are skipped: the face axes cover them.
    /// Points: for a face axis, the deepest point of the other box's face
    /// clipped to this face (see `face_contact`) and its projection on the
    /// face; for an edge pair, the closest points of the two edges. Each
    /// point lies on its own box.
    ///
    /// ```
    /// use collide::{Obb, math::{Quat, Vec3}};
    /// let a = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
    /// let b = Obb::new(Vec3::new(0.0, 1.8, 0.0), Quat::from_rotation_y(0.5), Vec3::ONE);
    /// let c = a.contact_obb(&b).unwrap();
    /// assert!((c.depth - 0.2).abs() < 1e-6 && c.normal == Vec3::Y);
    /// assert!(a.contact_obb(&Obb::new(Vec3::new(0.0, 2.1, 0.0), Quat::IDENTITY, Vec3::ONE)).is_none());
    /// ```
    #[must_use]
    pub fn contact_obb(&self, other: &Obb) -> Option<Contact> {
        box_box(&BoxFrame::from_obb(self), &BoxFrame::from_obb(other))
    }

    /// Whether two oriented boxes overlap (touching counts), by the same
    /// 15-axis test.
    #[inline]
    #[must_use]
    pub fn intersects_obb(&self, other: &Obb) -> bool {
        self.contact_obb(other).is_some()
    }

    /// The box's half-width along the unit `direction`:
    /// `r = Σ_i e_i·|u_i·n|` (Ericson §5.2.3), summed in `f64` (three
    /// half-extents near `f32::MAX` overflow an `f32` sum) and rounded once.
    #[inline]
    #[must_use]
    pub fn projected_radius(&self, direction: Vec3) -> f32 {
        BoxFrame::from_obb(self).radius_f64(direction) as f32
    }

    /// The centre's signed distance to the plane and the projected radius
    /// along its normal, in `f64`: near `f32::MAX` the `f32` sums of either
    /// overflow.
    #[inline]
    fn plane_reach(&self, plane: &Plane) -> (f64, f64) {
        let n = plane.normal.as_dvec3();
        let s = n.dot(self.center.as_dvec3()) + f64::from(plane.d);
        (s, BoxFrame::from_obb(self).radius_f64(plane.normal))
    }

    /// Whether the box touches the plane (a surface, not a half-space):
    /// `|n·c + d| <= r` with `r` the projected radius (Ericson §5.2.3).
    ///
    /// ```
    /// use collide::{Obb, Plane, math::{Quat, Vec3}};
    /// let ground = Plane::from_normal_and_point(Vec3::Y, Vec3::ZERO).unwrap();
    /// let tilted = Obb::new(Vec3::new(0.0, 1.2, 0.0), Quat::from_rotation_z(std::f32::consts::FRAC_PI_4), Vec3::ONE);
    /// assert!(tilted.intersects_plane(&ground)); // reaches down to 1.2 − √2
    /// ```
    #[inline]
    #[must_use]
    pub fn intersects_plane(&self, plane: &Plane) -> bool {
        let (s, r) = self.plane_reach(plane);
        s.abs() <= r
    }

    /// How far to move the box along the plane's normal so that it only
    /// touches the plane, staying on the side its centre is on; `None`
    /// when it does not reach the plane.
    ///
    /// With `s = n·c + d` (the centre's signed distance) and `r` the
    /// projected radius:
    /// - centre in front (`s >= 0`): move by `+(r − s)` along `n` (the box's
    ///   lowest point `s − r` rises to the plane);
    /// - centre behind (`s < 0`): move by `−(r + s)` (negative: back along
    ///   `n`, the box's highest point `s + r` sinks to the plane).
    ///
    /// The result is the signed distance along `plane.normal`; its
    /// magnitude is the penetration depth.
    ///
    /// ```
    /// use collide::{Obb, Plane, math::{Quat, Vec3}};
    /// let ground = Plane::from_normal_and_point(Vec3::Y, Vec3::ZERO).unwrap();
    /// let sunk = Obb::new(Vec3::new(0.0, 0.75, 0.0), Quat::IDENTITY, Vec3::ONE);
    /// assert_eq!(sunk.push_out_plane(&ground), Some(0.25));
    /// let below = Obb::new(Vec3::new(0.0, -0.5, 0.0), Quat::IDENTITY, Vec3::ONE);
    /// assert_eq!(below.push_out_plane(&ground), Some(-0.5));
    /// ```
    #[must_use]
    pub fn push_out_plane(&self, plane: &Plane) -> Option<f32> {
        let (s, r) = self.plane_reach(plane);
        if !(s.abs() <= r) {
            return None;
        }
        Some((if s >= 0.0 { r - s } else { -(r + s) }) as f32)
    }
}

impl Aabb {
    /// The contact of two axis-aligned boxes by the separating-axis test:
    /// [`Obb::contact_obb`] with identity rotations, where the nine edge
    /// cross products are either zero (parallel edges, skipped) or repeat a
    /// face axis (never chosen over it), so the answer is the face axis of
    /// least overlap. `None` when apart; touching boxes have depth 0.
    ///
    /// ```
    /// use collide::{Aabb, math::Vec3};
    /// let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
    /// let c = a.contact_aabb(&Aabb::new(Vec3::new(0.9, 0.5, -0.5), Vec3::new(2.0, 2.0, 2.0))).unwrap();
    /// assert!((c.depth - 0.1).abs() < 1e-6);
    /// assert_eq!(c.normal, Vec3::X);
    /// ```
    #[must_use]
    pub fn contact_aabb(&self, other: &Aabb) -> Option<Contact> {
        Obb::from(*self).contact_obb(&Obb::from(*other))
    }

    /// Whether the box touches the plane: [`Obb::intersects_plane`].
    #[inline]
    #[must_use]
    pub fn intersects_plane(&self, plane: &Plane) -> bool {
        Obb::from(*self).intersects_plane(plane)
    }

    /// The signed push along the plane's normal: [`Obb::push_out_plane`].
    #[inline]
    #[must_use]
    pub fn push_out_plane(&self, plane: &Plane) -> Option<f32> {
        Obb::from(*self).push_out_plane(plane)
    }
}
