//! Contact manifolds: analytic cases (a crate on a floor, turned, tilted; a
//! capsule and a cylinder lying and standing; a box on a tiled mesh and on
//! a height field), every point certified on random pairs of every convex
//! kind (on both surfaces by the f64 oracle, `point_a − point_b =
//! depth·normal`, no point deeper than the contact), ids kept under small
//! motions, and the world's manifolds over its pairs. tests in `vs-parry`
//! compare the point sets with parry3d's.

use std::sync::Arc;

use collide::math::{Quat, Vec3};
use collide::shape::{HeightField, TriangleMesh};
use collide::{Aabb, Capsule, ColliderDesc, ContactManifold, ConvexHull, Cylinder, Obb, Segment, Shape, Sphere, World};

mod common;
use common::geometry::random_convex;
use common::oracle::{assert_witnesses, Oracle};
use common::random::{seeded, Draw};

fn floor() -> Shape {
    Shape::Obb(Obb::new(
        Vec3::new(0.0, -1.0, 0.0),
        Quat::IDENTITY,
        Vec3::new(10.0, 1.0, 10.0),
    ))
}

/// The points' depths, sorted.
fn depths(m: &ContactManifold) -> Vec<f32> {
    let mut d: Vec<f32> = m.points().iter().map(|p| p.depth).collect();
    d.sort_by(f32::total_cmp);
    d
}

fn assert_close(a: f32, b: f32, tol: f32, what: &str) {
    assert!((a - b).abs() <= tol, "{what}: {a} vs {b}");
}

#[test]
fn a_crate_on_a_floor_touches_at_its_corners() {
    // Resting 0.1 deep: the four bottom corners, each 0.1 deep.
    let crate_ = Shape::Obb(Obb::new(Vec3::new(1.0, 0.4, 2.0), Quat::IDENTITY, Vec3::splat(0.5)));
    let m = floor().contact_manifold(&crate_).unwrap();
    assert_eq!(m.normal, Vec3::Y);
    assert_eq!(m.points().len(), 4);
    for p in m.points() {
        assert_close(p.depth, 0.1, 1e-6, "depth");
        assert_close(p.point_a.y, 0.0, 1e-6, "on the floor");
        assert_close(p.point_b.y, -0.1, 1e-6, "on the crate");
        assert_close((p.point_b.x - 1.0).abs(), 0.5, 1e-6, "a corner");
        assert_close((p.point_b.z - 2.0).abs(), 0.5, 1e-6, "a corner");
    }
    let mut ids: Vec<u32> = m.points().iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 4, "distinct ids");
    // Seen from the crate: the same points, swapped, the normal turned.
    let back = crate_.contact_manifold(&floor()).unwrap();
    assert_eq!(back.normal, -Vec3::Y);
    assert_eq!(depths(&back), depths(&m));

    // Turned 45° about y: still its four corners.
    let turned = Shape::Obb(Obb::new(
        Vec3::new(0.0, 0.4, 0.0),
        Quat::from_rotation_y(0.785),
        Vec3::splat(0.5),
    ));
    let m = floor().contact_manifold(&turned).unwrap();
    assert_eq!(m.points().len(), 4);
    assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-5));

    // Tilted about z: one edge deeper than the other.
    let tilted = Shape::Obb(Obb::new(
        Vec3::new(0.0, 0.45, 0.0),
        Quat::from_rotation_z(0.05),
        Vec3::splat(0.5),
    ));
    let m = floor().contact_manifold(&tilted).unwrap();
    let d = depths(&m);
    assert!(d.len() >= 2, "{m:?}");
    let deepest = floor().contact(&tilted).unwrap().depth;
    assert_close(
        *d.last().unwrap(),
        deepest,
        1e-5,
        "the deepest point is the contact's depth",
    );
    assert!(d[0] < deepest - 1e-3, "the other edge is shallower: {d:?}");

    // A small crate on a large one's top face: its whole bottom face.
    let top = Shape::Aabb(Aabb::new(Vec3::new(-0.2, -0.05, -0.2), Vec3::new(0.2, 0.35, 0.2)));
    assert_eq!(floor().contact_manifold(&top).unwrap().points().len(), 4);
}

#[test]
fn round_shapes_touch_along_their_sides_and_caps() {
    // A capsule lying: its two ends; standing: one point.
    let lying = Shape::Capsule(Capsule::new(
        Segment::new(Vec3::new(-1.0, 0.4, 0.0), Vec3::new(1.0, 0.4, 0.0)),
        0.5,
    ));
    let m = floor().contact_manifold(&lying).unwrap();
    assert_eq!(m.points().len(), 2);
    assert!(m.points().iter().all(|p| (p.depth - 0.1).abs() < 1e-5));
    let standing = Shape::Capsule(Capsule::new(
        Segment::new(Vec3::new(0.0, 0.4, 0.0), Vec3::new(0.0, 2.0, 0.0)),
        0.5,
    ));
    let m = floor().contact_manifold(&standing).unwrap();
    assert_eq!(m.points().len(), 1);
    assert_close(m.points()[0].depth, 0.1, 1e-5, "depth");
    // A cylinder standing on its cap: points of the rim; lying: its side line.
    let cup = Shape::Cylinder(Cylinder::new(
        Segment::new(Vec3::new(0.0, -0.1, 0.0), Vec3::new(0.0, 1.0, 0.0)),
        0.5,
    ));
    let m = floor().contact_manifold(&cup).unwrap();
    assert_eq!(m.points().len(), 4);
    for p in m.points() {
        assert_close(p.depth, 0.1, 1e-5, "cap depth");
        assert_close(
            Vec3::new(p.point_b.x, 0.0, p.point_b.z).length(),
            0.5,
            1e-5,
            "on the rim",
        );
    }
    let log = Shape::Cylinder(Cylinder::new(
        Segment::new(Vec3::new(-1.0, 0.4, 0.0), Vec3::new(1.0, 0.4, 0.0)),
        0.5,
    ));
    assert_eq!(floor().contact_manifold(&log).unwrap().points().len(), 2);
    // A sphere: one point.
    let ball = Shape::Sphere(Sphere::new(Vec3::new(0.0, 0.4, 0.0), 0.5));
    let m = floor().contact_manifold(&ball).unwrap();
    assert_eq!(m.points().len(), 1);
    assert_close(m.depth(), 0.1, 1e-6, "sphere depth");
    // Apart: none.
    let above = Shape::Sphere(Sphere::new(Vec3::new(0.0, 2.0, 0.0), 0.5));
    assert!(floor().contact_manifold(&above).is_none());
}

/// A flat `n × n` floor of unit cells at y = 0 over [0, n]², as a mesh and
/// as a height field.
fn tiled(n: usize) -> [Shape; 2] {
    let field = HeightField::new(n + 1, n + 1, vec![0.0; (n + 1) * (n + 1)], Vec3::ONE).unwrap();
    let vertices: Vec<Vec3> = (0..=n)
        .flat_map(|r| (0..=n).map(move |c| Vec3::new(c as f32, 0.0, r as f32)))
        .collect();
    let at = |c: usize, r: usize| (r * (n + 1) + c) as u32;
    let mut triangles = Vec::new();
    for r in 0..n {
        for c in 0..n {
            triangles.push([at(c, r), at(c, r + 1), at(c + 1, r + 1)]);
            triangles.push([at(c, r), at(c + 1, r + 1), at(c + 1, r)]);
        }
    }
    [
        Shape::Mesh(Arc::new(TriangleMesh::new(vertices, triangles).unwrap())),
        Shape::HeightField(field),
    ]
}

#[test]
fn a_crate_on_a_tiled_floor_touches_at_its_corners_across_the_tiles() {
    for ground in tiled(8) {
        // A 1.5-wide crate over several cells, 0.1 deep.
        let crate_ = Shape::Obb(Obb::new(
            Vec3::new(3.3, 0.65, 4.1),
            Quat::from_rotation_y(0.3),
            Vec3::splat(0.75),
        ));
        let m = ground.contact_manifold(&crate_).unwrap();
        assert_eq!(m.normal, Vec3::Y, "{ground:?}");
        assert_eq!(m.points().len(), 4);
        assert!(m
            .points()
            .iter()
            .all(|p| (p.depth - 0.1).abs() < 1e-5 && p.point_a.y.abs() < 1e-6));
        // The corners of the crate, not seams.
        let spread = m
            .points()
            .iter()
            .map(|p| (p.point_b - Vec3::new(3.3, -0.1, 4.1)).length())
            .fold(0.0, f32::max);
        assert_close(spread, 0.75 * 2f32.sqrt(), 1e-4, "a corner");
        let flipped = crate_.contact_manifold(&ground).unwrap();
        assert_eq!(flipped.normal, -Vec3::Y);
    }
    let [mesh, field] = tiled(4);
    assert!(mesh.contact_manifold(&field).is_none(), "two surfaces never touch");
}

#[test]
fn every_point_is_certified_on_random_pairs() {
    let mut rng = seeded(4711);
    let (mut pairs, mut many) = (0, 0);
    for n in 0..20_000 {
        let offset = if n % 4 == 0 { rng.vec(-1e5, 1e5) } else { Vec3::ZERO };
        let size = if n % 3 == 0 { 0.05 } else { 1.0 };
        let a = if n % 8 == 7 {
            // Rough terrain around the offset.
            let heights: Vec<f32> = (0..36).map(|_| rng.range(-0.3, 0.3)).collect();
            let field = HeightField::new(6, 6, heights, Vec3::new(0.5, 1.0, 0.5)).unwrap();
            Shape::HeightField(field).translated(offset - Vec3::new(1.25, 0.0, 1.25))
        } else {
            random_convex(&mut rng, offset, 1.0)
        };
        let near = offset + rng.vec(-1.2, 1.2);
        let b = random_convex(&mut rng, near, size);
        let (Some(m), Some(c)) = (a.contact_manifold(&b), a.contact(&b)) else {
            assert!(a.contact_manifold(&b).is_none() && a.contact(&b).is_none());
            continue;
        };
        pairs += 1;
        many += usize::from(m.points().len() > 1);
        let (oa, ob) = (Oracle::of(&a), Oracle::of(&b));
        let scale = 1.0 + f64::from(offset.abs().max_element());
        let tol = 2e-5 * scale;
        assert_eq!(m.normal, c.normal, "the contact's normal");
        assert!(!m.points().is_empty() && m.points().len() <= 4);
        for p in m.points() {
            let what = || format!("{a:?} / {b:?}: {p:?}");
            assert_witnesses((&oa, &ob), (p.point_a, p.point_b), m.normal, p.depth, tol, &what);
            assert!(
                p.depth >= 0.0 && f64::from(p.depth) <= f64::from(c.depth) + tol,
                "deeper than the contact: {}",
                what()
            );
        }
    }
    assert!(
        pairs > 5_000 && many > 1_000,
        "{pairs} pairs, {many} with several points"
    );
}

#[test]
fn ids_stay_while_the_shapes_barely_move() {
    let mut rng = seeded(99);
    for shape in [
        Shape::Obb(Obb::new(
            Vec3::new(0.0, 0.45, 0.0),
            Quat::from_rotation_y(0.3),
            Vec3::splat(0.5),
        )),
        Shape::Capsule(Capsule::new(
            Segment::new(Vec3::new(-1.0, 0.4, 0.0), Vec3::new(1.0, 0.4, 0.2)),
            0.5,
        )),
        Shape::Hull(Arc::new(
            ConvexHull::from_points(
                &(0..8)
                    .map(|i| {
                        Vec3::new(
                            (i & 1) as f32,
                            (i >> 1 & 1) as f32 * 0.8 - 0.05,
                            (i >> 2 & 1) as f32 * 1.2,
                        )
                    })
                    .collect::<Vec<_>>(),
            )
            .unwrap(),
        )),
    ] {
        let ids = |m: &ContactManifold| {
            let mut v: Vec<u32> = m.points().iter().map(|p| p.id).collect();
            v.sort_unstable();
            v
        };
        let first = ids(&floor().contact_manifold(&shape).unwrap());
        for _ in 0..100 {
            let jiggle =
                collide::Transform::new(rng.vec(-1e-3, 1e-3), Quat::from_rotation_y(rng.range(-1e-3, 1e-3)), 1.0);
            let moved = shape.transformed(&jiggle, true).unwrap();
            let m = floor().contact_manifold(&moved).unwrap();
            assert_eq!(ids(&m), first, "{moved:?}");
        }
    }
}

#[test]
fn the_world_gives_the_manifold_of_each_touching_pair() {
    let mut world = World::new();
    let ground = world.add(ColliderDesc::new(floor())).unwrap();
    let mut crates = Vec::new();
    for i in 0..5 {
        let at = Vec3::new(2.0 * i as f32 - 4.0, 0.45 + 1.0 * i as f32 * 0.0, 0.0);
        crates.push(
            world
                .add(ColliderDesc::new(Shape::Obb(Obb::new(
                    at,
                    Quat::IDENTITY,
                    Vec3::splat(0.5),
                ))))
                .unwrap(),
        );
    }
    // One floating, apart from everything.
    world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
            Vec3::new(0.0, 5.0, 0.0),
            0.5,
        ))))
        .unwrap();
    let mut manifolds = Vec::new();
    world.contact_manifolds(&mut manifolds);
    assert_eq!(manifolds.len(), 5);
    for (pair, m) in &manifolds {
        let (a, b) = (pair.a, pair.b);
        assert!(a == ground || b == ground);
        assert_eq!(Some(*m), world.contact_manifold(a, b).unwrap());
        assert_eq!(m.points().len(), 4);
    }
    world.remove(crates[0]).unwrap();
    assert!(
        world.contact_manifold(crates[0], ground).is_err(),
        "a stale key is an error"
    );
    world.contact_manifolds(&mut manifolds);
    assert_eq!(manifolds.len(), 4);
}
