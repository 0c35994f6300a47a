//! A shape's supporting feature along a direction: the face, edge or point
//! of the shape farthest along it, as a convex polygon of points on the
//! shape's surface. Contact manifolds clip one shape's feature against the
//! other's (Jolt's `GetSupportingFace`; Gregorius, "Robust Contact Creation
//! for Physics Simulations", GDC 2015).

use arrayvec::ArrayVec;

use crate::math::{Mat3, Vec3};
use crate::shape::{Obb, Shape};

/// The most corners a supporting face keeps (a hull's face with more is
/// cut to its first `MAX_FACE` corners in order, a smaller convex polygon
/// inside it).
pub(crate) const MAX_FACE: usize = 16;

/// How many corners stand for a disc (a cylinder's cap, a cone's base): a
/// regular polygon inscribed in it, so every corner is on the surface.
const DISC_CORNERS: usize = 8;

/// The sine of the largest angle between a direction and the plane
/// perpendicular to an axis (a capsule's or cylinder's side line, a cone's
/// generator) for the line to be the supporting feature: 0.1, about 5.7°.
const SIDE_SINE: f32 = 0.1;

/// The cosine of the largest angle between a direction and a disc's
/// normal for the disc to be the supporting feature.
const DISC_COSINE: f32 = 0.995;

/// A supporting feature: its corners in order around its normal (a
/// polygon of three or more, a segment of two, or one point), all on the
/// shape's surface, the polygon's unit normal (the shape's own face normal
/// where it has one; `None` for a segment or a point), and a number naming
/// it among the shape's features (stable while the same feature supports).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SupportFace {
    pub(crate) corners: ArrayVec<Vec3, MAX_FACE>,
    pub(crate) normal: Option<Vec3>,
    pub(crate) feature: u32,
}

impl SupportFace {
    fn point(p: Vec3, feature: u32) -> SupportFace {
        SupportFace::of([p], None, feature)
    }

    fn of(points: impl IntoIterator<Item = Vec3>, normal: Option<Vec3>, feature: u32) -> SupportFace {
        let corners: ArrayVec<Vec3, MAX_FACE> = points.into_iter().take(MAX_FACE).collect();
        let normal = if corners.len() >= 3 { normal } else { None };
        SupportFace {
            corners,
            normal,
            feature,
        }
    }
}

/// The feature of `shape` farthest along the unit direction `d`, or `None`
/// for a mesh or height field (their triangles are features of their own).
pub(crate) fn support_face(shape: &Shape, d: Vec3) -> Option<SupportFace> {
    Some(match shape {
        Shape::Aabb(b) => box_face(&Obb::from(*b), d),
        Shape::Obb(o) => box_face(o, d),
        Shape::Sphere(s) => SupportFace::point(s.center + d * s.radius, 0),
        Shape::Triangle(t) => SupportFace::of([t.a, t.b, t.c], t.normal(), 0),
        Shape::Capsule(c) => {
            let (a, b) = (c.segment.start, c.segment.end);
            match (b - a).try_normalize() {
                // The side line: the axis moved out by the radius across it
                // (every point at the radius from the axis).
                Some(u) if u.dot(d).abs() <= SIDE_SINE => {
                    let out = (d - u * u.dot(d)).normalize_or_zero() * c.radius;
                    SupportFace::of([a + out, b + out], None, 0)
                }
                Some(u) if u.dot(d) > 0.0 => SupportFace::point(b + d * c.radius, 2),
                _ => SupportFace::point(a + d * c.radius, 1),
            }
        }
        Shape::Cylinder(c) => {
            let (a, b) = (c.segment.start, c.segment.end);
            match (b - a).try_normalize() {
                Some(u) if u.dot(d) >= DISC_COSINE => disc(b, u, c.radius, 2),
                Some(u) if u.dot(d) <= -DISC_COSINE => disc(a, -u, c.radius, 1),
                Some(u) => {
                    let out = (d - u * u.dot(d)).normalize_or_zero() * c.radius;
                    if u.dot(d).abs() <= SIDE_SINE {
                        SupportFace::of([a + out, b + out], None, 0)
                    } else if u.dot(d) > 0.0 {
                        SupportFace::point(b + out, 4)
                    } else {
                        SupportFace::point(a + out, 3)
                    }
                }
                None => SupportFace::point(a + d * c.radius, 0),
            }
        }
        Shape::Cone(c) => {
            let (base, apex) = (c.base_center, c.apex);
            match (apex - base).try_normalize() {
                Some(u) if u.dot(d) <= -DISC_COSINE => disc(base, -u, c.radius, 1),
                Some(u) => {
                    let out = (d - u * u.dot(d)).normalize_or_zero();
                    let rim = base + out * c.radius;
                    // The generator from the apex to `rim` has the outward
                    // normal `m`; it supports when `d` is within the side
                    // sine of `m`.
                    let m = (out * (apex - base).length() + u * c.radius).normalize_or_zero();
                    if out != Vec3::ZERO && (d - m).length() <= SIDE_SINE {
                        SupportFace::of([apex, rim], None, 0)
                    } else if apex.dot(d) >= rim.dot(d) {
                        SupportFace::point(apex, 2)
                    } else {
                        SupportFace::point(rim, 3)
                    }
                }
                None => SupportFace::point(base + d * c.radius, 0),
            }
        }
        Shape::Hull(h) => {
            let planes = h.planes();
            let (i, plane) = planes
                .iter()
                .enumerate()
                .max_by(|x, y| x.1.normal.dot(d).total_cmp(&y.1.normal.dot(d)))?;
            let tolerance = 1.0e-5 * h.bounding_radius();
            let on_face: ArrayVec<Vec3, MAX_FACE> = h
                .vertices()
                .iter()
                .copied()
                .filter(|&v| plane.signed_distance(v) >= -tolerance)
                .take(MAX_FACE)
                .collect();
            SupportFace::of(around(&on_face, plane.normal), Some(plane.normal), i as u32)
        }
        Shape::Mesh(_) | Shape::HeightField(_) | Shape::Compound(_) => return None,
    })
}

/// The face of the box whose outward normal is closest to `d`, corners
/// counter-clockwise about it; feature `2·axis + (1 if positive)`.
fn box_face(o: &Obb, d: Vec3) -> SupportFace {
    let m = Mat3::from_quat(o.rotation);
    let axes = [m.x_axis, m.y_axis, m.z_axis];
    let k = (0..3)
        .max_by(|&i, &j| axes[i].dot(d).abs().total_cmp(&axes[j].dot(d).abs()))
        .unwrap_or(0);
    let sign = if axes[k].dot(d) >= 0.0 { 1.0 } else { -1.0 };
    let normal = axes[k] * sign;
    let centre = o.center + normal * o.half_extents[k];
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    // (u, v, normal) right-handed: counter-clockwise seen from outside.
    let (u, v) = if sign > 0.0 {
        (axes[i], axes[j])
    } else {
        (axes[j], axes[i])
    };
    let (hu, hv) = if sign > 0.0 {
        (o.half_extents[i], o.half_extents[j])
    } else {
        (o.half_extents[j], o.half_extents[i])
    };
    let (u, v) = (u * hu, v * hv);
    SupportFace::of(
        [centre + u + v, centre - u + v, centre - u - v, centre + u - v],
        Some(normal),
        2 * k as u32 + u32::from(sign > 0.0),
    )
}

/// A disc of `radius` at `centre` facing `normal`, as a regular polygon
/// inscribed in it, counter-clockwise about the normal.
fn disc(centre: Vec3, normal: Vec3, radius: f32, feature: u32) -> SupportFace {
    let (u, v) = normal.any_orthonormal_pair();
    SupportFace::of(
        (0..DISC_CORNERS).map(|k| {
            let angle = k as f32 * core::f32::consts::TAU / DISC_CORNERS as f32;
            centre + (u * angle.cos() + v * angle.sin()) * radius
        }),
        Some(normal),
        feature,
    )
}

/// Coplanar points sorted counter-clockwise about `normal` around their
/// mean (each point's angle computed once).
fn around(points: &[Vec3], normal: Vec3) -> impl Iterator<Item = Vec3> {
    let centre = points.iter().copied().sum::<Vec3>() / points.len().max(1) as f32;
    let (u, v) = normal.any_orthonormal_pair();
    let mut by_angle: ArrayVec<(f32, Vec3), MAX_FACE> = points
        .iter()
        .map(|&p| ((p - centre).dot(v).atan2((p - centre).dot(u)), p))
        .collect();
    by_angle.sort_by(|a, b| a.0.total_cmp(&b.0));
    by_angle.into_iter().map(|(_, p)| p)
}
