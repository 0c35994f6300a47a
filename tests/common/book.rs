//! The book's routines, transliterated to Rust with the same `f32`
//! arithmetic, comparisons and absolute epsilon (`Math::NearZero`, 0.001).

use collide::math::{Vec2, Vec3};

pub fn near_zero(x: f32) -> bool {
    x.abs() <= 0.001
}

/// `SweptSphere`: the range check compares against 0 instead of 1.
pub fn swept_sphere(p0: Vec3, p1: Vec3, rp: f32, q0: Vec3, q1: Vec3, rq: f32) -> Option<f32> {
    let x = p0 - q0;
    let y = p1 - p0 - (q1 - q0);
    let a = y.dot(y);
    let b = 2.0 * x.dot(y);
    let sum_radii = rp + rq;
    let c = x.dot(x) - sum_radii * sum_radii;
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / (2.0 * a);
    // (sic) the book's range check, against 0 where 1 is meant.
    #[allow(clippy::double_comparisons, clippy::manual_range_contains)]
    let accepted = t >= 0.0 && t <= 0.0;
    accepted.then_some(t)
}

/// `AABB::MinDistSq`: the z term reuses `dy`.
pub fn aabb_min_dist_sq(min: Vec3, max: Vec3, p: Vec3) -> f32 {
    let dx = (min.x - p.x).max(0.0).max(p.x - max.x);
    let dy = (min.y - p.y).max(0.0).max(p.y - max.y);
    let _dz = (min.z - p.z).max(0.0);
    let dz = dy.max(p.z - max.z);
    dx * dx + dy * dy + dz * dz
}

/// `Intersect(Sphere, AABB)` on top of the faulty distance.
pub fn sphere_aabb(center: Vec3, radius: f32, min: Vec3, max: Vec3) -> bool {
    aabb_min_dist_sq(min, max, center) <= radius * radius
}

/// `AABB::Contains`: "not outside", so NaN is inside.
pub fn aabb_contains(min: Vec3, max: Vec3, p: Vec3) -> bool {
    let outside = p.x < min.x || p.y < min.y || p.z < min.z || p.x > max.x || p.y > max.y || p.z > max.z;
    !outside
}

/// `Intersect(AABB, AABB)`: "no separating axis", so NaN overlaps.
pub fn aabb_aabb(a_min: Vec3, a_max: Vec3, b_min: Vec3, b_max: Vec3) -> bool {
    let no = a_max.x < b_min.x
        || a_max.y < b_min.y
        || a_max.z < b_min.z
        || b_max.x < a_min.x
        || b_max.y < a_min.y
        || b_max.z < a_min.z;
    !no
}

fn test_side_plane(start: f32, end: f32, neg_d: f32, normal: Vec3, out: &mut Vec<(f32, Vec3)>) {
    let denom = end - start;
    if near_zero(denom) {
        return;
    }
    let t = (-start + neg_d) / denom;
    if (0.0..=1.0).contains(&t) {
        out.push((t, normal));
    }
}

/// `Intersect(LineSegment, AABB)`: the six face planes, sorted, each
/// point re-tested with the exact containment check.
pub fn segment_aabb(start: Vec3, end: Vec3, min: Vec3, max: Vec3) -> Option<(f32, Vec3)> {
    let mut t_values = Vec::new();
    test_side_plane(start.x, end.x, min.x, Vec3::NEG_X, &mut t_values);
    test_side_plane(start.x, end.x, max.x, Vec3::X, &mut t_values);
    test_side_plane(start.y, end.y, min.y, Vec3::NEG_Y, &mut t_values);
    test_side_plane(start.y, end.y, max.y, Vec3::Y, &mut t_values);
    test_side_plane(start.z, end.z, min.z, Vec3::NEG_Z, &mut t_values);
    test_side_plane(start.z, end.z, max.z, Vec3::Z, &mut t_values);
    t_values.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    t_values
        .into_iter()
        .find(|&(t, _)| aabb_contains(min, max, start + (end - start) * t))
}

/// `LineSegment::MinDistSq(point)`: `0/0` for a zero-length segment.
pub fn segment_point_min_dist_sq(start: Vec3, end: Vec3, p: Vec3) -> f32 {
    let ab = end - start;
    let ba = -ab;
    let ac = p - start;
    let bc = p - end;
    if ab.dot(ac) < 0.0 {
        ac.length_squared()
    } else if ba.dot(bc) < 0.0 {
        bc.length_squared()
    } else {
        let scalar = ac.dot(ab) / ab.dot(ab);
        (ac - ab * scalar).length_squared()
    }
}

/// `Capsule::Contains` on top of it.
pub fn capsule_contains(start: Vec3, end: Vec3, radius: f32, p: Vec3) -> bool {
    segment_point_min_dist_sq(start, end, p) <= radius * radius
}

/// `LineSegment::MinDistSq(s1, s2)` (Sunday's algorithm with `NearZero`).
pub fn segment_segment_min_dist_sq(s1: (Vec3, Vec3), s2: (Vec3, Vec3)) -> f32 {
    let u = s1.1 - s1.0;
    let v = s2.1 - s2.0;
    let w = s1.0 - s2.0;
    let (a, b, c, d, e) = (u.dot(u), u.dot(v), v.dot(v), u.dot(w), v.dot(w));
    let big_d = a * c - b * b;
    let (mut s_n, mut s_d, mut t_n, t_d) = if near_zero(big_d) {
        (0.0, 1.0, e, c)
    } else {
        let (s_n, t_n) = (b * e - c * d, a * e - b * d);
        if s_n < 0.0 {
            (0.0, big_d, e, c)
        } else if s_n > big_d {
            (big_d, big_d, e + b, c)
        } else {
            (s_n, big_d, t_n, big_d)
        }
    };
    if t_n < 0.0 {
        t_n = 0.0;
        if -d < 0.0 {
            s_n = 0.0;
        } else if -d > a {
            s_n = s_d;
        } else {
            s_n = -d;
            s_d = a;
        }
    } else if t_n > t_d {
        t_n = t_d;
        if (-d + b) < 0.0 {
            s_n = 0.0;
        } else if (-d + b) > a {
            s_n = s_d;
        } else {
            s_n = -d + b;
            s_d = a;
        }
    }
    let sc = if near_zero(s_n) { 0.0 } else { s_n / s_d };
    let tc = if near_zero(t_n) { 0.0 } else { t_n / t_d };
    (w + u * sc - v * tc).length_squared()
}

/// The book's `Plane`: built with `n·P + d = 0`.
pub struct Plane {
    pub normal: Vec3,
    pub d: f32,
}

impl Plane {
    pub fn from_points(a: Vec3, b: Vec3, c: Vec3) -> Plane {
        let n = (b - a).cross(c - a);
        let normal = n / n.length();
        Plane {
            normal,
            d: -a.dot(normal),
        }
    }

    /// `SignedDist`: `n·P − d`, the opposite sign of the constructor's.
    pub fn signed_dist(&self, p: Vec3) -> f32 {
        p.dot(self.normal) - self.d
    }
}

/// `Intersect(LineSegment, Plane)`: `(hit, t)`, where `t` stays unset
/// (`None`) when the book returns true without writing it.
pub fn segment_plane(start: Vec3, end: Vec3, plane: &Plane) -> (bool, Option<f32>) {
    let denom = (end - start).dot(plane.normal);
    if near_zero(denom) {
        (near_zero(start.dot(plane.normal) - plane.d), None)
    } else {
        let numer = -start.dot(plane.normal) - plane.d;
        let t = numer / denom;
        ((0.0..=1.0).contains(&t), Some(t))
    }
}

/// `Intersect(LineSegment, Sphere)`.
pub fn segment_sphere(start: Vec3, end: Vec3, center: Vec3, radius: f32) -> Option<f32> {
    let x = start - center;
    let y = end - start;
    let a = y.dot(y);
    let b = 2.0 * x.dot(y);
    let c = x.dot(x) - radius * radius;
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    let disc = disc.sqrt();
    let t_min = (-b - disc) / (2.0 * a);
    let t_max = (-b + disc) / (2.0 * a);
    if (0.0..=1.0).contains(&t_min) {
        Some(t_min)
    } else if (0.0..=1.0).contains(&t_max) {
        Some(t_max)
    } else {
        None
    }
}

/// `ConvexPolygon::Contains`: the angles subtended by the edges, summed
/// with `acos`, compared with 2π. (Undefined behaviour for an empty
/// polygon: `size() − 1` wraps; not callable here.)
pub fn polygon_contains(vertices: &[Vec2], p: Vec2) -> bool {
    let normalize = |v: Vec2| v / v.length();
    let mut sum = 0.0f32;
    for i in 0..vertices.len() - 1 {
        let a = normalize(vertices[i] - p);
        let b = normalize(vertices[i + 1] - p);
        sum += a.dot(b).acos();
    }
    let a = normalize(vertices[vertices.len() - 1] - p);
    let b = normalize(vertices[0] - p);
    sum += a.dot(b).acos();
    near_zero(sum - std::f32::consts::TAU)
}
