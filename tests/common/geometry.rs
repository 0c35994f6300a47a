//! Shapes and checks the query tests share: `v` and `seg` to write vectors
//! and segments briefly, a unit box, the cube and its hull, one shape of
//! every kind, a random convex shape of every kind, a signed distance by
//! shape, and the finiteness checks of a contact and a distance.

use collide::math::{DVec3, Quat, Vec3};
use collide::query::Contact;
use collide::query::Distance;
use collide::shape::{Cone, ConvexHull, Cylinder, Triangle};
use collide::{Aabb, Capsule, Obb, QueryFilter, Segment, Shape, Sphere, World};

use super::float::*;
use super::random::{Draw, TestRng};

pub fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

pub fn seg(a: Vec3, b: Vec3) -> Segment {
    Segment::new(a, b)
}

pub fn unit_box() -> Aabb {
    Aabb::new(Vec3::ZERO, Vec3::ONE)
}

/// Signed distance from `p` to the surface of a solid shape (negative inside), in `f64`.
pub fn signed_distance(shape: &Shape, p: Vec3) -> f64 {
    let q = to_f64(p);
    match shape {
        Shape::Aabb(b) => {
            let outside = box_point_distance_squared_f64(b, q);
            if outside > 0.0 {
                outside.sqrt()
            } else {
                let (min, max) = (to_f64(b.min), to_f64(b.max));
                -(0..3)
                    .map(|i| (q[i] - min[i]).min(max[i] - q[i]))
                    .fold(f64::INFINITY, f64::min)
            }
        }
        Shape::Sphere(sp) => distance_squared_f64(q, to_f64(sp.center)).sqrt() - f64::from(sp.radius),
        Shape::Capsule(c) => point_segment_distance_squared_f64(q, &c.segment).sqrt() - f64::from(c.radius),
        other => unreachable!("the book's shapes only, not {other:?}"),
    }
}

pub fn cube_points(min: Vec3, max: Vec3) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            v(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            )
        })
        .collect()
}

pub fn cube_hull(min: Vec3, max: Vec3) -> ConvexHull {
    ConvexHull::from_points(&cube_points(min, max)).unwrap()
}

pub fn all_shapes() -> Vec<Shape> {
    vec![
        Shape::Sphere(Sphere::new(v(0.1, 0.2, 0.3), 0.7)),
        Shape::Aabb(Aabb::new(v(-0.5, -0.4, -0.3), v(0.6, 0.5, 0.4))),
        Shape::Obb(Obb::new(v(0.1, 0.0, 0.0), Quat::from_rotation_y(0.4), v(0.5, 0.3, 0.6))),
        Shape::Capsule(Capsule::new(seg(v(-0.5, 0.0, 0.0), v(0.5, 0.2, 0.0)), 0.3)),
        Shape::Capsule(Capsule::new(seg(v(-0.5, -0.5, 0.0), v(0.5, 0.5, 0.1)), 0.0)),
        Shape::Triangle(Triangle::new(v(-0.5, -0.5, 0.0), v(0.6, -0.4, 0.1), v(0.0, 0.7, -0.1))),
        Shape::Cylinder(Cylinder::new(seg(v(0.0, -0.5, 0.0), v(0.1, 0.5, 0.0)), 0.4)),
        Shape::Cone(Cone::new(v(0.0, -0.5, 0.0), v(0.0, 0.6, 0.1), 0.5)),
        Shape::Hull(std::sync::Arc::new(
            ConvexHull::from_points(&[
                v(0.0, 0.0, 0.0),
                v(1.0, 0.0, 0.0),
                v(0.0, 1.0, 0.0),
                v(0.0, 0.0, 1.0),
                v(0.4, 0.4, 0.4),
            ])
            .unwrap(),
        )),
    ]
}

#[track_caller]
pub fn assert_finite_contact(c: &Contact) {
    assert!(
        c.depth.is_finite() && c.depth >= 0.0 && c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite(),
        "{c:?}"
    );
    assert_close(c.normal.length(), 1.0, 1e-4);
}

#[track_caller]
pub fn assert_finite_distance(d: &Distance) {
    assert!(d.distance.is_finite() && d.distance >= 0.0, "{d:?}");
    assert!(d.point_a.is_finite() && d.point_b.is_finite(), "{d:?}");
    if let Some(n) = d.normal {
        assert!(n.is_finite() && close(n.length(), 1.0, 1e-4), "{d:?}");
    }
}

/// The point of `tri` closest to `p`, by brute force in `f64`: a
/// barycentric grid of 64 steps per side, refined six times by 8 around
/// the best point so far (to about 1e-10 of the triangle's size) — an
/// answer independent of the library's closest-point formulas.
pub fn closest_point_of_triangle_by_search(tri: &Triangle, p: DVec3) -> DVec3 {
    let (a, b, c) = (tri.a.as_dvec3(), tri.b.as_dvec3(), tri.c.as_dvec3());
    let at = |u: f64, v: f64| a + (b - a) * u + (c - a) * v;
    let (mut best_u, mut best_v, mut best) = (0.0, 0.0, f64::INFINITY);
    let (mut u0, mut v0, mut span, mut step) = (0.0f64, 0.0f64, 1.0f64, 1.0 / 64.0);
    for _ in 0..6 {
        let n = (span / step).round() as i32;
        for i in 0..=n {
            for j in 0..=n {
                let u = (u0 + f64::from(i) * step).clamp(0.0, 1.0);
                let v = (v0 + f64::from(j) * step).clamp(0.0, 1.0);
                if u + v > 1.0 {
                    continue;
                }
                let d = (at(u, v) - p).length();
                if d < best {
                    (best_u, best_v, best) = (u, v, d);
                }
            }
        }
        u0 = (best_u - 2.0 * step).max(0.0);
        v0 = (best_v - 2.0 * step).max(0.0);
        span = 4.0 * step;
        step /= 8.0;
    }
    at(best_u, best_v)
}

/// Slides `shape` 400 steps by `step` over `world` and returns the hits'
/// normals and the horizontal distance travelled.
pub fn slide(world: &World, shape: &Shape, step: Vec3) -> (Vec<Vec3>, f32) {
    let (mut at, mut travelled, mut normals) = (Vec3::ZERO, 0.0, Vec::new());
    for _ in 0..400 {
        let moved = world
            .move_and_slide(&shape.translated(at), step, &QueryFilter::ALL, 4)
            .unwrap();
        normals.extend(moved.hits.iter().map(|h| h.normal));
        at += moved.position_delta;
        travelled += Vec3::new(moved.position_delta.x, 0.0, moved.position_delta.z).length();
    }
    (normals, travelled)
}

/// A random convex shape of size about `size` around `at`.
pub fn random_convex(rng: &mut TestRng, at: Vec3, size: f32) -> Shape {
    let s = |rng: &mut TestRng| size * rng.range(0.1, 1.0);
    match rng.below(8) {
        0 => Shape::Aabb(Aabb::new(
            at - Vec3::new(s(rng), s(rng), s(rng)),
            at + Vec3::new(s(rng), s(rng), s(rng)),
        )),
        1 => Shape::Obb(Obb::new(at, rng.rotation(), Vec3::new(s(rng), s(rng), s(rng)))),
        2 => Shape::Sphere(Sphere::new(at, s(rng))),
        3 => {
            let half = rng.rotation() * Vec3::X * s(rng);
            Shape::Capsule(Capsule::new(Segment::new(at - half, at + half), s(rng) * 0.5))
        }
        4 => {
            let half = rng.rotation() * Vec3::Y * s(rng);
            Shape::Cylinder(Cylinder::new(Segment::new(at - half, at + half), s(rng) * 0.7))
        }
        5 => {
            let half = rng.rotation() * Vec3::Y * s(rng);
            Shape::Cone(Cone::new(at - half, at + half, s(rng)))
        }
        6 => Shape::Triangle(Triangle::new(
            at + rng.vec(-size, size),
            at + rng.vec(-size, size),
            at + rng.vec(-size, size),
        )),
        _ => {
            let points: Vec<Vec3> = (0..10).map(|_| at + rng.vec(-size, size)).collect();
            Shape::Hull(std::sync::Arc::new(ConvexHull::from_points(&points).unwrap()))
        }
    }
}
