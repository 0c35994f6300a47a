//! Failures other collision libraries recorded in their issue trackers, each
//! with the exact input of the report, put to collide.
//!
//! One test per report. Each names the repository and issue, says in one line
//! what the peer answered wrongly, and computes the right answer itself: in
//! closed form, or by brute force in `f64` (dense sampling of the motion
//! followed by bisection on an exact distance). No expected value comes
//! from collide.
//!
//! Units and conventions are translated from the peer's: a PhysX capsule's
//! axis is its local x and its size a half height; a Jolt capsule's is its
//! local y; a Jolt or PhysX cast direction is the whole displacement unless
//! the report gives a unit direction and a distance. 2D reports are lifted
//! into 3D by extruding the shapes along z, which keeps every distance in
//! the plane z = 0 the 2D one.

// The inputs are the reports' literals, verbatim, digits past f32's included.
#![allow(clippy::excessive_precision)]

mod common;

use std::sync::Arc;

use collide::math::{Quat, Vec3};
use collide::query::{time_of_impact, RigidMotion, ToiOptions};
use collide::shape::Pose;
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, ConvexHull, Cylinder, Obb, QueryFilter, Segment, Shape, Sphere, Triangle,
    TriangleMesh, World,
};
use common::geometry::v;

// ---------------------------------------------------------------------------
// f64 reference geometry (Ericson, Real-Time Collision Detection, §5.1)
// ---------------------------------------------------------------------------

type V = [f64; 3];

fn v64(p: Vec3) -> V {
    [p.x as f64, p.y as f64, p.z as f64]
}
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn scale(a: V, s: f64) -> V {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn len(a: V) -> f64 {
    dot(a, a).sqrt()
}

/// The point of triangle `abc` closest to `p` (Ericson §5.1.5, by Voronoi regions).
fn closest_on_triangle(p: V, a: V, b: V, c: V) -> V {
    let ab = sub(b, a);
    let ac = sub(c, a);
    let ap = sub(p, a);
    let d1 = dot(ab, ap);
    let d2 = dot(ac, ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = sub(p, b);
    let d3 = dot(ab, bp);
    let d4 = dot(ac, bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return add(a, scale(ab, d1 / (d1 - d3)));
    }
    let cp = sub(p, c);
    let d5 = dot(ab, cp);
    let d6 = dot(ac, cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return add(a, scale(ac, d2 / (d2 - d6)));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return add(b, scale(sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))));
    }
    let denom = 1.0 / (va + vb + vc);
    add(a, add(scale(ab, vb * denom), scale(ac, vc * denom)))
}

fn point_triangle_distance(p: V, [a, b, c]: [V; 3]) -> f64 {
    len(sub(p, closest_on_triangle(p, a, b, c)))
}

/// Distance between segments `p1q1` and `p2q2` (Ericson §5.1.9).
fn segment_segment_distance(p1: V, q1: V, p2: V, q2: V) -> f64 {
    let d1 = sub(q1, p1);
    let d2 = sub(q2, p2);
    let r = sub(p1, p2);
    let a = dot(d1, d1);
    let e = dot(d2, d2);
    let f = dot(d2, r);
    let (s, t);
    if a <= 1e-300 && e <= 1e-300 {
        return len(r);
    }
    if a <= 1e-300 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = dot(d1, r);
        if e <= 1e-300 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = dot(d1, d2);
            let denom = a * e - b * b;
            let s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    len(sub(add(p1, scale(d1, s)), add(p2, scale(d2, t))))
}

/// Distance between segment `pq` and triangle `tri`: 0 when the segment
/// crosses it, else the least of the endpoints' distances to the triangle
/// and the segment's distances to the three edges.
fn segment_triangle_distance(p: V, q: V, tri: [V; 3]) -> f64 {
    let [a, b, c] = tri;
    let n = cross(sub(b, a), sub(c, a));
    let dp = dot(sub(p, a), n);
    let dq = dot(sub(q, a), n);
    if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
        let x = add(p, scale(sub(q, p), dp / (dp - dq)));
        if point_triangle_distance(x, tri) <= 1e-12 * (1.0 + len(x)) {
            return 0.0;
        }
    }
    point_triangle_distance(p, tri)
        .min(point_triangle_distance(q, tri))
        .min(segment_segment_distance(p, q, a, b))
        .min(segment_segment_distance(p, q, b, c))
        .min(segment_segment_distance(p, q, c, a))
}

/// The least `s` in `[0, s_max]` with `gap(s) <= 0`, by sampling 20,000
/// steps and bisecting the first step that closes the gap; `None` when no
/// sample closes it.
fn first_contact(s_max: f64, gap: impl Fn(f64) -> f64) -> Option<f64> {
    const STEPS: usize = 20_000;
    if gap(0.0) <= 0.0 {
        return Some(0.0);
    }
    let mut previous = 0.0;
    for i in 1..=STEPS {
        let s = s_max * i as f64 / STEPS as f64;
        if gap(s) <= 0.0 {
            let (mut lo, mut hi) = (previous, s);
            for _ in 0..80 {
                let mid = 0.5 * (lo + hi);
                if gap(mid) <= 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        previous = s;
    }
    None
}

/// The least separation over `t ∈ [0, 1]` (sampled) of two rectangles in
/// the plane, each `(centre, angle, half extents)` moving linearly in
/// centre and angle: the separating-axis gap (positive when apart).
fn least_rectangle_separation(a: impl Fn(f64) -> Rect, b: impl Fn(f64) -> Rect) -> f64 {
    fn corners(r: &Rect) -> [[f64; 2]; 4] {
        let (s, c) = r.angle.sin_cos();
        [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)].map(|(i, j)| {
            let (x, y) = (i * r.half[0], j * r.half[1]);
            [r.center[0] + c * x - s * y, r.center[1] + s * x + c * y]
        })
    }
    fn gap(p: &[[f64; 2]; 4], q: &[[f64; 2]; 4]) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for (poly, other) in [(p, q), (q, p)] {
            for i in 0..4 {
                let (a, b) = (poly[i], poly[(i + 1) % 4]);
                // Counter-clockwise corners: (dy, −dx) points out.
                let n = [b[1] - a[1], a[0] - b[0]];
                let l = (n[0] * n[0] + n[1] * n[1]).sqrt();
                let d = other
                    .iter()
                    .map(|o| ((o[0] - a[0]) * n[0] + (o[1] - a[1]) * n[1]) / l)
                    .fold(f64::INFINITY, f64::min);
                best = best.max(d);
            }
        }
        best
    }
    (0..=100_000)
        .map(|i| {
            let t = i as f64 / 100_000.0;
            gap(&corners(&a(t)), &corners(&b(t)))
        })
        .fold(f64::INFINITY, f64::min)
}

struct Rect {
    center: [f64; 2],
    angle: f64,
    half: [f64; 2],
}

// ---------------------------------------------------------------------------
// collide helpers
// ---------------------------------------------------------------------------

/// A world holding `shapes` as colliders, in order.
fn world_of(shapes: impl IntoIterator<Item = Shape>) -> (World, Vec<ColliderKey>) {
    let mut world = World::new();
    let keys = shapes
        .into_iter()
        .map(|shape| world.add(ColliderDesc::new(shape)).unwrap())
        .collect();
    (world, keys)
}

/// A convex hull of the box `center ± half` (GJK's path, not a box's closed form).
fn box_hull(center: Vec3, half: Vec3) -> Shape {
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            let sign = |bit: i32| if i & bit != 0 { 1.0 } else { -1.0 };
            center + half * v(sign(1), sign(2), sign(4))
        })
        .collect();
    Shape::Hull(Arc::new(ConvexHull::from_points(&corners).unwrap()))
}

// ---------------------------------------------------------------------------
// Jolt
// ---------------------------------------------------------------------------

/// jrouwe/JoltPhysics#886: a sphere cast past a sliver triangle (three
/// nearly collinear corners) reported a ghost hit. The triangle lies in the
/// plane x = 14.5536213 with y ≥ 10.5969315; the sphere's centre keeps
/// y ≤ 8.1905509 along the cast, so at least 2.4 separates them: no hit.
#[test]
fn jolt_886_sphere_cast_past_sliver_triangle_misses() {
    let corners = [
        v(14.5536213, 10.5973721, -0.00600051880),
        v(14.5536213, 10.5969315, -3.18638134),
        v(14.5536213, 10.5969315, -5.18637228),
    ];
    let start = v(14.8314590, 8.19055080, -4.30825043);
    let motion = v(-0.0988006592, 5.96046448e-08, 0.000732421875);
    let radius = 0.2;

    // The least vertical gap between the swept centre and the triangle
    // bounds the distance from below.
    let lowest_corner = corners.iter().map(|c| c.y as f64).fold(f64::INFINITY, f64::min);
    let highest_centre = start.y as f64 + (motion.y as f64).max(0.0);
    let tri = corners.map(v64);
    let closest = (0..=1000)
        .map(|i| point_triangle_distance(add(v64(start), scale(v64(motion), i as f64 / 1000.0)), tri))
        .fold(f64::INFINITY, f64::min);
    assert!(lowest_corner - highest_centre > 2.4 && closest > 2.4);

    let (world, _) = world_of([Shape::Triangle(Triangle::new(corners[0], corners[1], corners[2]))]);
    let hit = world
        .cast_shape(&Shape::Sphere(Sphere::new(start, radius)), motion, &QueryFilter::ALL)
        .unwrap();
    assert_eq!(hit, None, "a sphere 2.4 from the triangle hit it");
}

/// jrouwe/JoltPhysics#2103: a cylinder cast starting in touch with a
/// capsule reported a penetration depth of 7.25 m. Jolt's capsule (half
/// height 2.03114343, radius 7.19732189) stands on the y axis; the
/// cylinder (half height 0.3, radius 0.4975) stands at (−0.95166, −2.09155,
/// −7.63574), its y range overlapping the capsule's segment, so the gap is
/// radial: √(x² + z²) − 0.4975 − 7.19732189 = −4.4e-6 (touching).
#[test]
fn jolt_2103_cylinder_cast_touching_capsule_reports_no_deep_penetration() {
    let (half_height, capsule_radius) = (2.03114343f32, 7.19732189f32);
    let (cyl_half, cyl_radius) = (0.3f32, 0.4975f32);
    let centre = v(-0.951660156, -2.09155273, -7.63574218);
    let motion = v(0.00244140625, -0.0068359375, 0.0029296875);
    let gap = (centre.x as f64).hypot(centre.z as f64) - cyl_radius as f64 - capsule_radius as f64;
    assert!(gap.abs() < 1e-5);

    let capsule = Shape::Capsule(Capsule::new(
        Segment::new(v(0.0, -half_height, 0.0), v(0.0, half_height, 0.0)),
        capsule_radius,
    ));
    let cylinder = Shape::Cylinder(Cylinder::new(
        Segment::new(centre - v(0.0, cyl_half, 0.0), centre + v(0.0, cyl_half, 0.0)),
        cyl_radius,
    ));
    let (capsule_only, _) = world_of([capsule.clone()]);
    let hit = capsule_only
        .cast_shape(&cylinder, motion, &QueryFilter::ALL)
        .unwrap()
        .expect("the cylinder starts touching the capsule and moves towards its axis");
    assert!(hit.t * motion.length() < 1e-4, "hit at t = {}", hit.t);

    let (world, keys) = world_of([capsule, cylinder]);
    let distance = world.distance(keys[0], keys[1]).unwrap().distance;
    assert!(distance < 1e-4, "distance {distance}, expected {}", gap.max(0.0));
    if let Some(contact) = world.contact(keys[0], keys[1]).unwrap() {
        assert!(
            (contact.depth as f64 - (-gap).max(0.0)).abs() < 1e-4,
            "depth {} for shapes {gap} apart",
            contact.depth
        );
    }
}

// ---------------------------------------------------------------------------
// PhysX
// ---------------------------------------------------------------------------

/// NVIDIAGameWorks/PhysX#610: sweeping a 2×2×2 convex cube centred at
/// (0, 15, 0) straight down onto the same cube at (0, 10, 0) returned 2.9975
/// instead of 3: the faces y = 14 − s and y = 11 meet at s = 3.
#[test]
fn physx_610_cube_swept_down_onto_cube_hits_at_distance_three() {
    let moving = [
        box_hull(v(0.0, 15.0, 0.0), Vec3::ONE),
        Shape::Obb(Obb::new(v(0.0, 15.0, 0.0), Quat::IDENTITY, Vec3::ONE)),
    ];
    let targets = [
        box_hull(v(0.0, 10.0, 0.0), Vec3::ONE),
        Shape::Obb(Obb::new(v(0.0, 10.0, 0.0), Quat::IDENTITY, Vec3::ONE)),
        Shape::Aabb(Aabb::new(v(-1.0, 9.0, -1.0), v(1.0, 11.0, 1.0))),
    ];
    let max_distance = 10.0;
    for target in &targets {
        let (world, _) = world_of([target.clone()]);
        for shape in &moving {
            let hit = world
                .cast_shape(shape, v(0.0, -max_distance, 0.0), &QueryFilter::ALL)
                .unwrap()
                .expect("the cubes meet after 3");
            assert!(
                (hit.t * max_distance - 3.0).abs() < 1e-5,
                "{shape:?} onto {target:?}: distance {}",
                hit.t * max_distance
            );
            assert!((hit.normal - Vec3::Y).length() < 1e-5, "normal {}", hit.normal);
        }
    }
}

/// NVIDIAGameWorks/PhysX#600: a capsule (radius 0.3, half height 1 along x)
/// at the origin, swept by 1 along −x, lies on the edge (0,0,0)–(1,0,0) of
/// the triangle (0,0,0), (1,0,0), (0,0,−1); PhysX's precise sweep missed
/// the initial overlap because the sweep ran parallel to the triangle. The
/// capsule's axis touches the triangle (distance 0 < 0.3): hit at t = 0.
#[test]
fn physx_600_capsule_swept_parallel_to_triangle_it_overlaps_hits_at_zero() {
    let tri = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 0.0, -1.0)];
    let axis = Segment::new(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    let radius = 0.3;
    assert_eq!(
        segment_triangle_distance(v64(axis.start), v64(axis.end), tri.map(v64)),
        0.0
    );

    let (world, _) = world_of([Shape::Triangle(Triangle::new(tri[0], tri[1], tri[2]))]);
    let capsule = Shape::Capsule(Capsule::new(axis, radius));
    let hit = world
        .cast_shape(&capsule, v(-1.0, 0.0, 0.0), &QueryFilter::ALL)
        .unwrap()
        .expect("the capsule starts overlapping the triangle");
    assert_eq!(hit.t, 0.0);
    let mut found = Vec::new();
    world
        .intersections_with_shape(&capsule, &QueryFilter::ALL, |key, _| found.push(key))
        .unwrap();
    assert_eq!(found.len(), 1);
}

/// NVIDIAGameWorks/PhysX#597: `sweepSphereVSTri` missed a capsule sweep
/// into a triangle (the reporter found the hit at 0.0944127962 along the
/// sweep). PhysX's capsule axis is its local x, turned here by the quaternion
/// (0, 0, 0.7071, 0.7071) onto y. The first contact is found by bisection on
/// the exact segment–triangle distance minus the radius.
#[test]
fn physx_597_capsule_sweep_into_triangle_hits() {
    let tri = [
        v(7.33294010, 79.6109009, -26.9337997),
        v(7.61456013, 80.2574005, -27.3008995),
        v(7.33294010, 80.2574005, -26.9337997),
    ];
    let (radius, half_height) = (0.265350759f32, 0.340350509f32);
    let start = v(7.74110079, 80.8543167, -27.2595482);
    let rotation = Quat::from_xyzw(0.0, 0.0, 0.707106829, 0.707106829).normalize();
    let unit_dir = v(-0.929564953, -0.0281119142, 0.367584974);
    let distance = 0.149537891f32;

    let half_axis = rotation * v(half_height, 0.0, 0.0);
    let (p, q) = (v64(start - half_axis), v64(start + half_axis));
    let d = v64(unit_dir);
    let expected = first_contact(distance as f64, |s| {
        segment_triangle_distance(add(p, scale(d, s)), add(q, scale(d, s)), tri.map(v64)) - radius as f64
    })
    .expect("the capsule reaches the triangle within the sweep");
    // The reporter's hit distance, found independently.
    assert!((expected - 0.0944127962).abs() < 1e-3, "brute force {expected}");

    let (world, _) = world_of([Shape::Triangle(Triangle::new(tri[0], tri[1], tri[2]))]);
    let capsule = Shape::Capsule(Capsule::new(Segment::new(start - half_axis, start + half_axis), radius));
    let hit = world
        .cast_shape(&capsule, unit_dir * distance, &QueryFilter::ALL)
        .unwrap()
        .expect("the sweep hits the triangle");
    let got = hit.t as f64 * distance as f64;
    assert!((got - expected).abs() < 1e-4, "hit at {got}, expected {expected}");
}

/// NVIDIAGameWorks/PhysX#487: a ray starting just outside a capsule and
/// pointing away from it counted as a hit (the infinite cylinder's
/// intersections behind the origin were kept). The report gives the setup
/// in a picture; here the capsule (0,0,0)–(0,2,0), radius 0.5, and rays
/// from 0.1 outside its side, its cap and its shoulder, pointing away. Along
/// each, the distance to the axis only grows from 0.6: no hit. Reversed,
/// each ray hits at its analytic entry.
#[test]
fn physx_487_ray_leaving_capsule_from_outside_misses() {
    let axis = Segment::new(Vec3::ZERO, v(0.0, 2.0, 0.0));
    let radius = 0.5;
    let (world, _) = world_of([Shape::Capsule(Capsule::new(axis, radius))]);
    let outward = [
        (v(0.6, 1.0, 0.0), v(1.0, 0.0, 0.0)),
        (v(0.0, 2.6, 0.0), v(0.0, 1.0, 0.0)),
        (
            v(0.0, 2.0, 0.0) + v(0.6, 0.6, 0.0).normalize() * 0.6,
            v(0.6, 0.6, 0.0).normalize(),
        ),
        (v(0.0, 1.0, 0.6), v(0.3, 0.2, 1.0).normalize()),
    ];
    for (start, dir) in outward {
        let end = start + dir * 10.0;
        let axis_distance = |s: f64| {
            let p = add(v64(start), scale(sub(v64(end), v64(start)), s));
            segment_segment_distance(p, p, v64(axis.start), v64(axis.end))
        };
        assert!((0..=1000).all(|i| axis_distance(i as f64 / 1000.0) >= 0.6 - 1e-6));
        assert_eq!(
            world
                .segment_cast(&Segment::new(start, end), &QueryFilter::ALL)
                .unwrap(),
            None,
            "the ray from {start} along {dir} leaves the capsule"
        );
        // Reversed: from 10 out, entering at 0.1 before the old start.
        let hit = world
            .segment_cast(&Segment::new(end, start - dir * 0.5), &QueryFilter::ALL)
            .unwrap()
            .expect("the reversed ray enters the capsule");
        let entry = first_contact(10.5, |s| {
            let p = add(v64(end), scale(v64(-dir), s));
            segment_segment_distance(p, p, v64(axis.start), v64(axis.end)) - radius as f64
        })
        .unwrap();
        assert!(((hit.t as f64) * 10.5 - entry).abs() < 1e-4);
    }
}

/// NVIDIA-Omniverse/PhysX#505: CCD of a sphere (radius 0.25) from
/// (−0.78131, 0.3092001, 0) moving by (240, −18, 0)/60 through one triangle
/// mesh holding a floor ending at x = 0 and a wall at x = 1 passed through
/// the wall: the earlier graze of the floor's edge discarded the wall. The
/// answer is the earliest contact with either, found by bisection on the
/// exact distance to the mesh's triangles.
#[test]
fn physx_505_sphere_grazing_mesh_edge_then_wall_stops_at_first_contact() {
    let vertices = vec![
        // Floor y = 0, x ∈ [−10, 0].
        v(-10.0, 0.0, -5.0),
        v(0.0, 0.0, -5.0),
        v(0.0, 0.0, 5.0),
        v(-10.0, 0.0, 5.0),
        // Wall x = 1, y ∈ [−5, 5].
        v(1.0, -5.0, -5.0),
        v(1.0, 5.0, -5.0),
        v(1.0, 5.0, 5.0),
        v(1.0, -5.0, 5.0),
    ];
    let triangles = vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]];
    let start = v(-0.78131, 0.3092001, 0.0);
    let motion = v(240.0, -18.0, 0.0) / 60.0;
    let radius = 0.25;

    let tris: Vec<[V; 3]> = triangles
        .iter()
        .map(|t: &[u32; 3]| t.map(|i| v64(vertices[i as usize])))
        .collect();
    let expected = first_contact(1.0, |t| {
        let c = add(v64(start), scale(v64(motion), t));
        tris.iter()
            .map(|&tri| point_triangle_distance(c, tri))
            .fold(f64::INFINITY, f64::min)
            - radius as f64
    })
    .expect("the sphere reaches the wall at the latest");
    // The wall alone is reached when x + 0.25 = 1.
    let wall = (0.75 - start.x as f64) / motion.x as f64;
    assert!(expected <= wall + 1e-9);

    let mesh = TriangleMesh::new(vertices, triangles).unwrap();
    let (world, _) = world_of([Shape::Mesh(Arc::new(mesh))]);
    let hit = world
        .cast_shape(&Shape::Sphere(Sphere::new(start, radius)), motion, &QueryFilter::ALL)
        .unwrap()
        .expect("the sphere cannot pass the wall");
    assert!(
        (hit.t as f64 - expected).abs() * motion.length() as f64 <= 1e-4,
        "hit at t = {}, expected {expected} (wall alone: {wall})",
        hit.t
    );
}

// ---------------------------------------------------------------------------
// parry
// ---------------------------------------------------------------------------

/// dimforge/parry#429 (fixed by #430): casting a ball (radius 0.5166)
/// straight down onto a cuboid returned a time of impact short by up to
/// 139 mm at half-extent 500 (the upper bound stalled on large support
/// coordinates across the cast). Here the ball starts `gap` above the top
/// face at points spread over it; the analytic distance travelled is `gap`.
#[test]
fn parry_429_ball_cast_down_onto_wide_cuboid_is_exact() {
    let radius = 0.5166f32;
    let mut failures = Vec::new();
    for half in [5.0f32, 50.0, 500.0] {
        let extents = v(half, 0.5, half);
        for target in [
            box_hull(Vec3::ZERO, extents),
            Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, extents)),
        ] {
            let (world, _) = world_of([target.clone()]);
            let mut worst = (0.0f64, Vec3::ZERO, 0.0);
            for i in 0..8 {
                for j in 0..8 {
                    let x = half * (-0.95 + 1.9 * i as f32 / 7.0);
                    let z = half * (-0.95 + 1.9 * j as f32 / 7.0);
                    let gap = 0.3 + 0.137 * (i + 8 * j) as f32 / 8.0;
                    let centre = v(x, 0.5 + radius + gap, z);
                    let length = 10.0;
                    let hit = world
                        .cast_shape(
                            &Shape::Sphere(Sphere::new(centre, radius)),
                            v(0.0, -length, 0.0),
                            &QueryFilter::ALL,
                        )
                        .unwrap()
                        .expect("the ball lands on the cuboid");
                    let travelled = hit.t as f64 * length as f64;
                    let expected = (centre.y as f64 - radius as f64) - 0.5;
                    if (travelled - expected).abs() > worst.0 {
                        worst = ((travelled - expected).abs(), centre, travelled);
                    }
                }
            }
            let (error, centre, travelled) = worst;
            if error >= 1e-3 {
                let kind = if matches!(target, Shape::Hull(_)) {
                    "hull"
                } else {
                    "obb"
                };
                failures.push(format!(
                    "{kind} half-extents {extents}: the ball at {centre} travelled {travelled}, {error} off the analytic {}",
                    centre.y as f64 - radius as f64 - 0.5
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// dimforge/parry#414: a cylinder swept onto a 10,000 × 1 × 10,000 ground
/// cuboid returned a time of impact about ten times too small (0.119 for
/// 0.94): a support point (5043, 5006, −0.943) cancelled in the dot product.
/// Here the same magnitudes: the cuboid's top at z = 0.5 (half-extents
/// 5000, 5000, 0.5), a cylinder (radius 0.5, half height 0.5, axis z) at
/// (43, 6) whose bottom is 0.943 above it, cast by 2 along −z: t = 0.4715.
#[test]
fn parry_414_cylinder_cast_onto_huge_cuboid_is_exact() {
    let extents = v(5000.0, 5000.0, 0.5);
    let bottom = 0.5 + 0.943;
    let cylinder = Shape::Cylinder(Cylinder::new(
        Segment::new(v(43.0, 6.0, bottom), v(43.0, 6.0, bottom + 1.0)),
        0.5,
    ));
    let motion = v(0.0, 0.0, -2.0);
    let expected = (bottom as f64 - 0.5) / 2.0;
    for target in [
        box_hull(Vec3::ZERO, extents),
        Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, extents)),
        Shape::Aabb(Aabb::new(-extents, extents)),
    ] {
        let (world, _) = world_of([target.clone()]);
        let hit = world
            .cast_shape(&cylinder, motion, &QueryFilter::ALL)
            .unwrap()
            .expect("the cylinder lands on the cuboid");
        assert!(
            (hit.t as f64 - expected).abs() * 2.0 < 1e-3,
            "{target:?}: t = {}, expected {expected}",
            hit.t
        );
        assert!((hit.normal - Vec3::Z).length() < 1e-4, "normal {}", hit.normal);
    }
}

/// dimforge/parry#193: shape casts at a shallow angle into a grid-aligned
/// 10 × 5 × 0.1 wall returned normals off the face normal (and not of unit
/// length), enough for a character to clip through. A capsule (radius 0.3,
/// axis y) starting 1 in front of the wall and moving mostly along it hits
/// the face z = 0.05 when it has closed 0.65: normal +z, unit length.
#[test]
fn parry_193_shallow_shape_cast_into_wall_has_the_face_normal() {
    let half = v(5.0, 2.5, 0.05);
    for wall in [
        Shape::Aabb(Aabb::new(-half, half)),
        Shape::Obb(Obb::new(Vec3::ZERO, Quat::IDENTITY, half)),
        box_hull(Vec3::ZERO, half),
    ] {
        let (world, _) = world_of([wall.clone()]);
        for (k, along) in [4.0f32, 8.0, 20.0, 60.0].into_iter().enumerate() {
            let start = v(-3.0 + 0.37 * k as f32, -0.5, 1.0);
            let capsule = Shape::Capsule(Capsule::new(Segment::new(start, start + v(0.0, 1.0, 0.0)), 0.3));
            let motion = v(along * 0.1, 0.0, -1.3);
            let hit = world
                .cast_shape(&capsule, motion, &QueryFilter::ALL)
                .unwrap()
                .expect("the capsule reaches the wall");
            let expected = (1.0 - 0.3 - 0.05) / 1.3;
            assert!(
                (hit.t as f64 - expected).abs() < 1e-5,
                "{wall:?}: t = {}, expected {expected}",
                hit.t
            );
            assert!(
                (hit.normal - Vec3::Z).length() < 1e-5,
                "{wall:?}: normal {}",
                hit.normal
            );
            assert!((hit.normal.length() - 1.0).abs() < 1e-6);
        }
    }
}

/// dimforge/ncollide#4 (parry's predecessor): a ball of radius 15 0.529846
/// to the left of a 5 × 900 block, moving along (0.630261, −0.776384), was
/// reported to hit the far side at 57.57 instead of the near face at
/// 0.529846/0.630261 = 0.840677. 2D, lifted into 3D: a sphere and the block
/// extruded ±450 along z.
#[test]
fn ncollide_4_ball_close_to_block_hits_the_near_face() {
    let (world, _) = world_of([Shape::Aabb(Aabb::new(v(800.0, -450.0, -450.0), v(805.0, 450.0, 450.0)))]);
    let centre = v(784.470154, -88.887802, 0.0);
    let dir = v(0.630261, -0.776384, 0.0);
    let gap = 800.0 - (centre.x as f64 + 15.0);
    let expected = gap / dir.x as f64;
    assert!((expected - 0.840677).abs() < 1e-5);
    let hit = world
        .cast_shape(&Shape::Sphere(Sphere::new(centre, 15.0)), dir * 2.0, &QueryFilter::ALL)
        .unwrap()
        .expect("the ball reaches the block");
    assert!(
        ((hit.t as f64) * 2.0 - expected).abs() < 2e-4,
        "hit after {}",
        hit.t * 2.0
    );
    assert!((hit.normal - Vec3::NEG_X).length() < 1e-5, "normal {}", hit.normal);
}

// ---------------------------------------------------------------------------
// Bullet
// ---------------------------------------------------------------------------

/// bulletphysics/bullet3#889: the distance from a point to a sphere, a box
/// and the convex hull of the box floating 0.25 above the origin, for 101
/// points on the way up from 0.01 below the surface to it (steps of 1e-4):
/// Bullet's normal flipped and its closest point drifted as the point
/// neared the surface. The closest point is (0, 0, 0.25) and the distance
/// 0.25 − z throughout.
#[test]
fn bullet_889_point_distance_near_surface_is_stable() {
    let centre = v(0.0, 0.0, 0.75);
    let shapes = [
        Shape::Sphere(Sphere::new(centre, 0.5)),
        Shape::Obb(Obb::new(centre, Quat::IDENTITY, Vec3::splat(0.5))),
        box_hull(centre, Vec3::splat(0.5)),
    ];
    for shape in shapes {
        let (world, _) = world_of([shape.clone()]);
        for k in 0..=100 {
            let expected = 0.01 - 1e-4 * k as f64;
            let point = v(0.0, 0.0, (0.25 - expected) as f32);
            let (_, d) = world
                .project_point(point, 1.0, &QueryFilter::ALL)
                .unwrap()
                .expect("the shape is within 1");
            assert!(
                (d.distance as f64 - expected).abs() < 1e-6,
                "{shape:?} from {point}: distance {}, expected {expected}",
                d.distance
            );
            assert!(
                (d.point_b - v(0.0, 0.0, 0.25)).length() < 1e-6,
                "{shape:?} from {point}: closest point {}",
                d.point_b
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Box2D
// ---------------------------------------------------------------------------

/// erincatto/box2d#115: `b2TimeOfImpact` reported touching for a 2.5 × 2.5
/// box turning and sliding past a static 25 × 5 box that it never reaches
/// (and, before the angles were normalised, looped forever). The least
/// separating-axis gap over the motion, sampled at 100,001 times, is 6.69.
/// 2D, lifted into 3D: the boxes extruded ±5 along z, turning about z.
#[test]
fn box2d_115_turning_box_that_never_reaches_the_other_has_no_time_of_impact() {
    let a_angle = 2.95f64;
    let c0 = [53.474274f64, -50.252514];
    let c1 = [54.595478f64, -51.083473];
    for turns in [162.0f64, 0.0] {
        // Normalised (− 162π) and as given.
        let a0 = 513.36676 - turns * std::f64::consts::PI;
        let a1 = 513.62781 - turns * std::f64::consts::PI;
        let least = least_rectangle_separation(
            |_| Rect {
                center: [24.0, -60.0],
                angle: a_angle,
                half: [25.0, 5.0],
            },
            |t| Rect {
                center: [c0[0] + t * (c1[0] - c0[0]), c0[1] + t * (c1[1] - c0[1])],
                angle: a0 + t * (a1 - a0),
                half: [2.5, 2.5],
            },
        );
        assert!(least > 6.0, "least separation {least}");

        let box_a = Obb::new(Vec3::ZERO, Quat::IDENTITY, v(25.0, 5.0, 5.0));
        let box_b = Obb::new(Vec3::ZERO, Quat::IDENTITY, v(2.5, 2.5, 5.0));
        let motion_a = RigidMotion::stationary(Pose::new(Quat::from_rotation_z(a_angle as f32), v(24.0, -60.0, 0.0)));
        let motion_b = RigidMotion::new(
            Pose::new(Quat::from_rotation_z(a0 as f32), v(c0[0] as f32, c0[1] as f32, 0.0)),
            Vec3::ZERO,
            v((c1[0] - c0[0]) as f32, (c1[1] - c0[1]) as f32, 0.0),
            v(0.0, 0.0, (a1 - a0) as f32),
        );
        let toi = time_of_impact(&box_a, &motion_a, &box_b, &motion_b, &ToiOptions::default());
        assert_eq!(toi, None, "angles {a0}..{a1}: the boxes stay {least} apart");
    }
}
