//! The static triangle mesh collider: a level of floor and ramp, held to
//! brute force over its triangles for casts and overlaps, in a world among
//! other colliders, through every pair finder, and over the C ABI.

use std::ptr::null;
use std::sync::Arc;

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::{Quat, Vec3};
use collide::shape::TriangleMesh;
use collide::{
    Aabb, Capsule, ColliderDesc, ColliderKey, ConvexHull, Error, Obb, QueryFilter, Segment, Shape, Sphere, Transform,
    World,
};

mod common;
use common::geometry::slide;
use common::random::{seeded, Draw, TestRng};
use rand::RngExt;

/// An 8 × 8 floor of unit quads on y = 0 over x, z ∈ [−4, 4], and a ramp
/// rising from the floor's edge x = 4 to y = 2 at x = 8 (4 × 8 quads),
/// sharing the floor's edge vertices; two triangles per quad, alternating
/// diagonals.
fn level() -> TriangleMesh {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    let (nx, nz) = (12usize, 8usize);
    for i in 0..=nx {
        for k in 0..=nz {
            let x = -4.0 + i as f32;
            let y = if x > 4.0 { (x - 4.0) * 0.5 } else { 0.0 };
            vertices.push(Vec3::new(x, y, -4.0 + k as f32));
        }
    }
    let at = |i: usize, k: usize| (i * (nz + 1) + k) as u32;
    for i in 0..nx {
        for k in 0..nz {
            let (a, b, c, d) = (at(i, k), at(i + 1, k), at(i + 1, k + 1), at(i, k + 1));
            if (i + k) % 2 == 0 {
                indices.push([a, b, c]);
                indices.push([a, c, d]);
            } else {
                indices.push([a, b, d]);
                indices.push([b, c, d]);
            }
        }
    }
    // One degenerate triangle (a repeated corner), allowed and never hit.
    indices.push([0, 0, 1]);
    TriangleMesh::new(vertices, indices).unwrap()
}

/// The closest hit by Möller–Trumbore over every triangle.
fn brute_force_moller_trumbore(mesh: &TriangleMesh, segment: &Segment) -> Option<f32> {
    mesh.triangles()
        .filter_map(|t| segment.cast_triangle(&t))
        .map(|h| h.t)
        .min_by(f32::total_cmp)
}

#[test]
fn segment_casts_match_brute_force_over_triangles() {
    let mesh = level();
    let mut rng = seeded(0x1234_5678_9abc_def1);
    let (lo, hi) = (Vec3::new(-6.0, -2.0, -6.0), Vec3::new(10.0, 5.0, 6.0));
    let mut hits = 0;
    for _ in 0..4000 {
        let segment = Segment::new(rng.vec_in(lo, hi), rng.vec_in(lo, hi));
        let tree = mesh.cast_segment_indexed(&segment);
        let brute = mesh.cast_segment_brute_force(&segment);
        assert_eq!(tree, brute, "{segment:?}");
        assert_eq!(mesh.cast_segment(&segment), tree.map(|(_, h)| h));
        assert_eq!(
            Shape::Mesh(Arc::new(mesh.clone())).cast_segment(&segment),
            tree.map(|(_, h)| h)
        );
        if let Some((i, hit)) = tree {
            hits += 1;
            // The normal is the triangle's, facing the start.
            let n = mesh.triangle(i).normal().unwrap();
            assert!((hit.normal.dot(n).abs() - 1.0).abs() < 1e-5);
            assert!(hit.normal.dot(segment.direction()) <= 0.0);
            // The hit point lies on the triangle.
            let p = segment.point_at(hit.t);
            let q = mesh.triangle(i).closest_point(p).point;
            assert!((p - q).length() < 1e-4, "{segment:?}: {p} off its triangle");
        }
        // Möller–Trumbore agrees wherever it hits (it may miss on seams).
        if let Some(t) = brute_force_moller_trumbore(&mesh, &segment) {
            let (_, hit) = tree.unwrap_or_else(|| panic!("{segment:?}: Möller–Trumbore hit at {t}, the mesh missed"));
            assert!((hit.t - t).abs() < 1e-4, "{segment:?}: {} vs {t}", hit.t);
        }
    }
    assert!(hits > 1000, "the test exercises hits ({hits})");
}

#[test]
fn shared_edges_and_vertices_are_never_missed() {
    // The level as is, and turned and moved, so that the points on its
    // edges are no longer exact in f32.
    let turned = Transform {
        translation: Vec3::new(0.3, -1.7, 2.9),
        rotation: Quat::from_axis_angle(Vec3::new(0.31, 1.1, -0.47).normalize(), 0.9),
        scale: Vec3::new(1.3, 0.7, 1.1),
    };
    let mut rng = seeded(42);
    for mesh in [level(), level().transformed(&turned).unwrap()] {
        // Interior edges (shared by two triangles) and their corners: a
        // segment through the mesh's outer rim may pass outside.
        let mut uses = std::collections::HashMap::new();
        for t in mesh.indices() {
            for (p, q) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                *uses.entry((p.min(q), p.max(q))).or_insert(0) += 1;
            }
        }
        let rim: std::collections::HashSet<u32> = uses
            .iter()
            .filter(|(_, &n)| n == 1)
            .flat_map(|(&(p, q), _)| [p, q])
            .collect();
        let mut around: std::collections::HashMap<u32, Vec<Vec3>> = std::collections::HashMap::new();
        for (i, t) in mesh.indices().iter().enumerate() {
            if let Some(n) = mesh.triangle(i).normal() {
                for &v in t {
                    around.entry(v).or_default().push(n);
                }
            }
        }
        let mut tried = 0;
        for i in 0..mesh.triangle_count() {
            let tri = mesh.triangle(i);
            let Some(n) = tri.normal() else { continue };
            let ix = mesh.indices()[i];
            for (e, (p, q)) in [(tri.a, tri.b), (tri.b, tri.c), (tri.c, tri.a)].into_iter().enumerate() {
                let (ip, iq) = (ix[e], ix[(e + 1) % 3]);
                if uses[&(ip.min(iq), ip.max(iq))] != 2 || rim.contains(&ip) {
                    continue;
                }
                // The corner itself, the midpoint and random points of the edge.
                let points = [
                    p,
                    (p + q) * 0.5,
                    p.lerp(q, rng.random::<f32>()),
                    p.lerp(q, rng.random::<f32>()),
                ];
                for point in points {
                    for _ in 0..3 {
                        // From the front and from the back, slanted at random.
                        let tilt = rng.vec_in(Vec3::splat(-0.6), Vec3::splat(0.6));
                        for side in [1.0f32, -1.0] {
                            let along = (n * side + tilt).normalize();
                            // Across every face around the edge, not grazing a
                            // crease (a line may touch a valley at one point).
                            let faces = around[&ip].iter().chain(&around[&iq]);
                            if faces.clone().any(|m| along.dot(*m * m.dot(n).signum() * side) < 0.2) {
                                continue;
                            }
                            let segment = Segment::new(point + along * 3.0, point - along * 3.0);
                            tried += 1;
                            let hit = mesh.cast_segment(&segment);
                            let Some(hit) = hit else {
                                panic!("{segment:?} through {point} of triangle {i} missed the mesh");
                            };
                            assert!(hit.t <= 0.5 + 1e-4, "{segment:?}: hit at {} past the edge", hit.t);
                        }
                    }
                }
            }
        }
        assert!(tried > 3000, "{tried}");
    }
}

#[test]
fn degenerate_triangles_are_never_hit() {
    let line = TriangleMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0], vec![[0, 1, 2], [0, 0, 0]]).unwrap();
    let mut rng = seeded(7);
    for _ in 0..200 {
        let s = Segment::new(
            rng.vec_in(Vec3::splat(-3.0), Vec3::splat(3.0)),
            rng.vec_in(Vec3::splat(-3.0), Vec3::splat(3.0)),
        );
        assert_eq!(line.cast_segment(&s), None);
    }
    assert_eq!(
        line.cast_segment(&Segment::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, -1.0, 0.0))),
        None
    );
}

/// A world of the level mesh, a second small mesh (a wall), and convex
/// colliders of every kind around them.
fn world_with_meshes(rng: &mut TestRng) -> (World, Vec<ColliderKey>) {
    let mut world = World::new();
    let mut meshes = Vec::new();
    meshes.push(
        world
            .add(ColliderDesc::new(Shape::Mesh(Arc::new(level()))).with_user_data(1000))
            .unwrap(),
    );
    let wall = TriangleMesh::new(
        vec![
            Vec3::new(-4.0, 0.0, 4.0),
            Vec3::new(4.0, 0.0, 4.0),
            Vec3::new(4.0, 3.0, 4.0),
            Vec3::new(-4.0, 3.0, 4.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap();
    let wall_desc = ColliderDesc::new(Shape::Mesh(Arc::new(wall)))
        .with_transform(Transform::new(
            Vec3::new(0.0, 0.0, -0.5),
            Quat::from_rotation_y(0.2),
            1.0,
        ))
        .with_user_data(1001);
    meshes.push(world.add(wall_desc).unwrap());
    let hull = ConvexHull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z, Vec3::new(0.7, 0.7, 0.7)]).unwrap();
    for i in 0..60 {
        let c = rng.vec_in(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(9.0, 3.0, 5.0));
        let r = rng.range(0.1, 0.8);
        let shape = match i % 5 {
            0 => Shape::Sphere(Sphere::new(c, r)),
            1 => Shape::Aabb(Aabb::from_center_half_extents(c, Vec3::splat(r))),
            2 => Shape::Capsule(Capsule::new(Segment::new(c, c + Vec3::new(r, r, 0.0)), r * 0.5)),
            3 => Shape::Obb(Obb::new(c, Quat::from_rotation_z(r * 3.0), Vec3::new(r, 0.3, 0.2))),
            _ => Shape::Hull(Arc::new(hull.clone())).translated(c),
        };
        world.add(ColliderDesc::new(shape).with_user_data(i)).unwrap();
    }
    (world, meshes)
}

#[test]
fn world_segment_cast_agrees_with_brute_force_among_other_colliders() {
    let mut rng = seeded(99);
    let (world, meshes) = world_with_meshes(&mut rng);
    world.validate().unwrap();
    let mut mesh_hits = 0;
    for _ in 0..3000 {
        let lo = Vec3::new(-7.0, -3.0, -7.0);
        let hi = Vec3::new(11.0, 6.0, 7.0);
        let segment = Segment::new(rng.vec_in(lo, hi), rng.vec_in(lo, hi));
        let tree = world.segment_cast(&segment, &QueryFilter::ALL).unwrap();
        let brute = world.segment_cast_brute_force(&segment, &QueryFilter::ALL).unwrap();
        assert_eq!(
            tree.map(|h| (h.collider, h.t)),
            brute.map(|h| (h.collider, h.t)),
            "{segment:?}"
        );
        if tree.is_some_and(|h| meshes.contains(&h.collider)) {
            mesh_hits += 1;
        }
    }
    assert!(mesh_hits > 300, "meshes hit {mesh_hits} times");
    // Straight down onto the floor between the colliders: the level mesh.
    let down = Segment::new(Vec3::new(-3.5, 10.0, -3.9), Vec3::new(-3.5, -10.0, -3.9));
    let only_meshes = QueryFilter::ALL;
    if let Some(hit) = world.segment_cast(&down, &only_meshes).unwrap() {
        if hit.collider == meshes[0] {
            assert_eq!((hit.t, hit.normal, hit.user_data), (0.5, Vec3::Y, 1000));
        }
    }
}

/// The triangles `shape` overlaps, by the loop over every triangle.
fn brute_force_overlap(mesh: &TriangleMesh, shape: &Shape) -> Vec<usize> {
    (0..mesh.triangle_count())
        .filter(|&i| Shape::Triangle(mesh.triangle(i)).intersects(shape))
        .collect()
}

#[test]
fn overlaps_of_spheres_and_boxes_match_brute_force_over_triangles() {
    let mesh = Arc::new(level());
    let mut world = World::new();
    let key = world.add(ColliderDesc::new(Shape::Mesh(Arc::clone(&mesh)))).unwrap();
    let mut rng = seeded(2024);
    let (mut found, mut out) = (0, Vec::new());
    for i in 0..3000 {
        let c = rng.vec_in(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(9.0, 3.0, 5.0));
        let r = rng.range(0.0, 1.0);
        let shape = match i % 4 {
            0 => Shape::Sphere(Sphere::new(c, r)),
            1 => Shape::Aabb(Aabb::from_center_half_extents(c, Vec3::new(r, r * 0.5, r * 2.0))),
            2 => Shape::Obb(Obb::new(c, Quat::from_rotation_x(r * 2.0), Vec3::new(r, 0.2, 0.5))),
            _ => Shape::Capsule(Capsule::new(Segment::new(c, c + Vec3::new(0.5, r, -0.3)), r * 0.3)),
        };
        let expected = brute_force_overlap(&mesh, &shape);
        mesh.overlapping_triangles(&shape, &mut out);
        assert_eq!(out, expected, "{shape:?}");
        let any = !expected.is_empty();
        found += any as usize;
        let mesh_shape = Shape::Mesh(Arc::clone(&mesh));
        assert_eq!(mesh.intersects(&shape), any, "{shape:?}");
        assert_eq!(mesh_shape.intersects(&shape), any);
        assert_eq!(shape.intersects(&mesh_shape), any);
        let mut keys = Vec::new();
        world
            .intersections_with_shape(&shape, &QueryFilter::ALL, |k, _| keys.push(k))
            .unwrap();
        assert_eq!(keys, if any { vec![key] } else { vec![] }, "{shape:?}");
        // Contact and distance agree with the overlap.
        let contact = mesh_shape.contact(&shape);
        assert_eq!(contact.is_some(), any, "{shape:?}");
        let d = mesh_shape.distance(&shape);
        if !any {
            let nearest = mesh
                .triangles()
                .map(|t| Shape::Triangle(t).distance(&shape).distance)
                .fold(f32::INFINITY, f32::min);
            assert!((d.distance - nearest).abs() < 1e-5, "{shape:?}");
        }
    }
    assert!(found > 500 && found < 2900, "{found} overlaps");
}

#[test]
fn pairs_agree_across_the_three_finders() {
    let mut rng = seeded(5);
    let (mut world, meshes) = world_with_meshes(&mut rng);
    // The two meshes' boxes overlap (the wall stands on the floor), but
    // meshes never pair.
    let (a, b) = (world.get(meshes[0]).unwrap(), world.get(meshes[1]).unwrap());
    assert!(a.aabb().intersects_aabb(b.aabb()));
    for round in 0..3 {
        let mut pairwise = Vec::new();
        world.test_pairwise(|p| pairwise.push((p.a, p.b)));
        let mut sap = Vec::new();
        world.test_sweep_and_prune(|p| sap.push((p.a, p.b)));
        let tree: Vec<_> = world.pairs().iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(pairwise, sap, "round {round}");
        assert_eq!(pairwise, tree, "round {round}");
        assert!(!pairwise.contains(&(meshes[0], meshes[1])));
        let with_mesh = pairwise
            .iter()
            .filter(|(a, b)| meshes.contains(a) || meshes.contains(b))
            .count();
        assert!(with_mesh > 0, "some colliders touch the level");
        // Each mesh pair is an exact overlap.
        for &(a, b) in &pairwise {
            let (sa, sb) = (world.get(a).unwrap().world_shape(), world.get(b).unwrap().world_shape());
            assert!(sa.intersects(&sb));
        }
        // Move things and go again (the incremental finder keeps state).
        let keys: Vec<_> = world.iter().map(|(k, _)| k).filter(|k| !meshes.contains(k)).collect();
        for k in keys.into_iter().step_by(3) {
            let t = Transform::from_translation(rng.vec_in(Vec3::splat(-0.5), Vec3::splat(0.5)));
            world.set_transform(k, t).unwrap();
        }
        world
            .set_transform(
                meshes[1],
                Transform::from_translation(Vec3::new(0.0, 0.0, -1.0 - round as f32)),
            )
            .unwrap();
    }
    world.validate().unwrap();
}

#[test]
fn shape_casts_contacts_and_distances_against_a_mesh() {
    let mut world = World::new();
    let floor = world.add(ColliderDesc::new(Shape::Mesh(Arc::new(level())))).unwrap();
    let ball = Shape::Sphere(Sphere::new(Vec3::new(0.3, 5.0, 0.2), 1.0));
    let hit = world
        .cast_shape(&ball, Vec3::new(0.0, -8.0, 0.0), &QueryFilter::ALL)
        .unwrap()
        .unwrap();
    assert_eq!(hit.collider, floor);
    assert!(
        (hit.t - 0.5).abs() < 1e-4 && (hit.normal - Vec3::Y).length() < 1e-4,
        "{hit:?}"
    );
    // Onto the ramp (slope 1/2 from x = 4): the normal is the ramp's.
    let ball = Shape::Sphere(Sphere::new(Vec3::new(6.0, 5.0, 0.0), 0.5));
    let hit = world
        .cast_shape(&ball, Vec3::new(0.0, -5.0, 0.0), &QueryFilter::ALL)
        .unwrap()
        .unwrap();
    let ramp = Vec3::new(-0.5, 1.0, 0.0).normalize();
    assert!((hit.normal - ramp).length() < 1e-3, "{hit:?}");
    // The character walks up the ramp.
    let moved = world
        .move_and_slide(
            &Shape::Sphere(Sphere::new(Vec3::new(2.0, 0.51, 0.0), 0.5)),
            Vec3::new(4.0, 0.0, 0.0),
            &QueryFilter::ALL,
            4,
        )
        .unwrap();
    assert!(moved.position_delta.y > 0.5, "{moved:?}");
    // Contact and distance through the world.
    let resting = world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
            Vec3::new(0.5, 0.4, 0.5),
            0.5,
        ))))
        .unwrap();
    let c = world.contact(floor, resting).unwrap().unwrap();
    assert!(
        (c.depth - 0.1).abs() < 1e-4 && (c.normal - Vec3::Y).length() < 1e-4,
        "{c:?}"
    );
    let c2 = world.contact(resting, floor).unwrap().unwrap();
    assert!((c2.normal + Vec3::Y).length() < 1e-4);
    let above = world
        .add(ColliderDesc::new(Shape::Sphere(Sphere::new(
            Vec3::new(-1.0, 3.0, 1.0),
            0.5,
        ))))
        .unwrap();
    let d = world.distance(above, floor).unwrap();
    assert!((d.distance - 2.5).abs() < 1e-4, "{d:?}");
    assert!((d.point_b - Vec3::new(-1.0, 0.0, 1.0)).length() < 1e-3);
    let (nearest, _) = world
        .project_point(Vec3::new(-2.0, 1.0, -2.0), 5.0, &QueryFilter::ALL)
        .unwrap()
        .unwrap();
    assert_eq!(nearest, floor);
}

#[test]
fn invalid_input_is_refused() {
    let v = vec![Vec3::ZERO, Vec3::X, Vec3::Z];
    assert!(matches!(
        TriangleMesh::new(v.clone(), vec![]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        TriangleMesh::new(v.clone(), vec![[0, 1, 3]]),
        Err(Error::InvalidArgument(_))
    ));
    let nan = vec![Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::Z];
    assert!(matches!(
        TriangleMesh::new(nan, vec![[0, 1, 2]]),
        Err(Error::NonFinite(_))
    ));
    let inf = vec![Vec3::ZERO, Vec3::X, Vec3::new(0.0, 0.0, f32::INFINITY)];
    assert!(matches!(
        TriangleMesh::new(inf, vec![[0, 1, 2]]),
        Err(Error::NonFinite(_))
    ));

    let mesh = Shape::Mesh(Arc::new(TriangleMesh::new(v, vec![[0, 1, 2]]).unwrap()));
    let mut world = World::new();
    // A transform that overflows the vertices.
    let big = Shape::Mesh(Arc::new(
        TriangleMesh::new(vec![Vec3::ZERO, Vec3::X * 4.0, Vec3::Z], vec![[0, 1, 2]]).unwrap(),
    ));
    let huge = ColliderDesc::new(big).with_transform(Transform::new(Vec3::ZERO, Quat::IDENTITY, f32::MAX));
    assert!(matches!(world.add(huge), Err(Error::NonFinite(_))));
    assert!(world.is_empty());
    let a = world.add(ColliderDesc::new(mesh.clone())).unwrap();
    let b = world.add(ColliderDesc::new(mesh.clone())).unwrap();
    // Meshes are not query shapes, and two meshes are never measured.
    let f = QueryFilter::ALL;
    assert!(matches!(
        world.intersections_with_shape(&mesh, &f, |_, _| ()),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        world.cast_shape(&mesh, Vec3::X, &f),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(world.closest(&mesh, 1.0, &f), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        world.move_and_slide(&mesh, Vec3::X, &f, 4),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(world.distance(a, b), Err(Error::InvalidArgument(_))));
    assert_eq!(world.contact(a, b), Ok(None));
    // Identical meshes on top of each other form no pair.
    let mut pairs = 0;
    world.test_pairwise(|_| pairs += 1);
    assert_eq!((pairs, world.pairs().len()), (0, 0));
    // A degenerate triangle is allowed.
    assert!(TriangleMesh::new(vec![Vec3::ZERO, Vec3::X], vec![[0, 1, 1]]).is_ok());
}

#[test]
fn c_abi_add_mesh_and_segment_cast() {
    let v = |x: f32, y: f32, z: f32| PhysVec3 { x, y, z };
    let vertices = [
        v(-1.0, 0.0, -1.0),
        v(1.0, 0.0, -1.0),
        v(1.0, 0.0, 1.0),
        v(-1.0, 0.0, 1.0),
    ];
    let indices: [u32; 6] = [0, 1, 2, 0, 2, 3];
    let mut world = std::ptr::null_mut();
    // SAFETY: valid pointers and counts throughout.
    unsafe {
        assert_eq!(phys_world_create(&mut world), PHYS_OK);
        let mut mesh = PhysCollider { bits: 0 };
        let add = |vertex_count: usize, indices: &[u32], out: &mut PhysCollider| -> PhysStatus {
            phys_add_mesh(
                world,
                vertices.as_ptr(),
                vertex_count,
                indices.as_ptr(),
                indices.len(),
                null(),
                out,
            )
        };
        assert_eq!(add(4, &indices, &mut mesh), PHYS_OK);
        assert_ne!(mesh.bits, 0);
        // Refused: a count not a multiple of 3, an index out of range, no triangle.
        let mut refused = PhysCollider { bits: 0 };
        assert_eq!(add(4, &indices[..5], &mut refused), PHYS_ERROR_INVALID_ARGUMENT);
        assert_eq!(add(3, &indices, &mut refused), PHYS_ERROR_INVALID_ARGUMENT);
        assert_eq!(add(4, &[], &mut refused), PHYS_ERROR_INVALID_ARGUMENT);
        assert_eq!(refused.bits, 0, "outputs are written only on success");
        let mut count = 0usize;
        assert_eq!(phys_world_count(world, &mut count), PHYS_OK);
        assert_eq!(count, 1);

        // Down through the shared diagonal, from below (two-sided).
        for (start, end, normal_y) in [(2.0, -2.0, 1.0), (-2.0, 2.0, -1.0)] {
            let segment = PhysSegment {
                start: v(0.25, start, 0.25),
                end: v(0.25, end, 0.25),
            };
            let (mut hit_flag, mut hit) = (false, std::mem::zeroed::<PhysHit>());
            assert_eq!(
                phys_segment_cast(world, &segment, null(), &mut hit_flag, &mut hit),
                PHYS_OK
            );
            assert!(hit_flag);
            assert_eq!((hit.collider.bits, hit.t), (mesh.bits, 0.5));
            assert_eq!((hit.normal.x, hit.normal.y, hit.normal.z), (0.0, normal_y, 0.0));
        }
        // Beside the mesh: a miss.
        let segment = PhysSegment {
            start: v(3.0, 2.0, 0.0),
            end: v(3.0, -2.0, 0.0),
        };
        let (mut hit_flag, mut hit) = (true, std::mem::zeroed::<PhysHit>());
        assert_eq!(
            phys_segment_cast(world, &segment, null(), &mut hit_flag, &mut hit),
            PHYS_OK
        );
        assert!(!hit_flag);
        phys_world_destroy(world);
    }
}

#[test]
fn transformed_meshes_are_mapped_vertex_by_vertex() {
    let mesh = level();
    let t = Transform::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.5), 2.0);
    let moved = mesh.transformed(&t).unwrap();
    for (a, b) in mesh.vertices().iter().zip(moved.vertices()) {
        assert!((t.apply(*a) - *b).length() < 1e-5);
    }
    assert_eq!(moved.indices(), mesh.indices());
    let shape = Shape::Mesh(Arc::new(mesh.clone()));
    let placed = shape.transformed(&t, true).unwrap();
    let Shape::Mesh(placed) = placed else { panic!() };
    assert_eq!(*placed, moved);
    let bounds = Shape::Mesh(placed).bounding_aabb();
    let expected = Aabb::from_points(moved.vertices()).unwrap();
    assert!((bounds.min - expected.min).length() < 1e-5 && (bounds.max - expected.max).length() < 1e-5);
    // Translated is the same as a translation transform.
    let Shape::Mesh(shifted) = shape.translated(Vec3::X) else {
        panic!()
    };
    assert_eq!(shifted.vertices()[0], mesh.vertices()[0] + Vec3::X);
    // Casts over the tree match brute force after the transform too.
    let mut rng = seeded(3);
    for _ in 0..1000 {
        let s = Segment::new(
            rng.vec_in(Vec3::splat(-12.0), Vec3::splat(12.0)),
            rng.vec_in(Vec3::splat(-12.0), Vec3::splat(12.0)),
        );
        assert_eq!(moved.cast_segment_indexed(&s), moved.cast_segment_brute_force(&s));
    }
}

// ---------------------------------------------------------------------------
// Internal edges: a tiled surface is one smooth surface.

/// A square of `n × n` unit tiles, two triangles each, around the origin,
/// on the plane `y = slope·x`.
fn tiled_floor(n: usize, slope: f32) -> TriangleMesh {
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let x = i as f32 - n as f32 / 2.0;
            vertices.push(Vec3::new(x, slope * x, j as f32 - n as f32 / 2.0));
        }
    }
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut triangles = Vec::new();
    for i in 0..n {
        for j in 0..n {
            triangles.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    TriangleMesh::new(vertices, triangles).unwrap()
}

#[test]
fn a_tiled_floor_has_internal_edges_inside_and_active_ones_on_its_outline() {
    let floor = tiled_floor(4, 0.0);
    let (mut internal, mut active) = (0, 0);
    for i in 0..floor.triangle_count() {
        for k in 0..3 {
            if floor.is_edge_active(i, k) {
                active += 1;
            } else {
                internal += 1;
            }
        }
    }
    // The outline: 4 sides of 4 edges; every other edge is shared twice.
    assert_eq!(active, 16);
    assert_eq!(internal, 3 * 32 - 16);
    // A ridge of 30° keeps its crease.
    let ridge = TriangleMesh::new(
        vec![
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(0.0, 0.577, -1.0),
            Vec3::new(0.0, 0.577, 1.0),
            Vec3::new(-1.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, 1.0),
        ],
        vec![[0, 1, 2], [0, 2, 3], [1, 4, 5], [1, 5, 2]],
    )
    .unwrap();
    assert!(ridge.is_edge_active(0, 1), "the crease 1–2 is active");
    assert!(!ridge.is_edge_active(0, 2), "the flat diagonal 2–0 is internal");
}

#[test]
fn shapes_slide_across_tiled_floors_meeting_only_the_floor() {
    for (slope, step) in [
        (0.0f32, Vec3::new(0.04, -0.01, 0.013)),
        (0.17, Vec3::new(0.04, -0.02, 0.013)),
    ] {
        let mut world = World::new();
        world
            .add(ColliderDesc::new(Shape::Mesh(Arc::new(tiled_floor(20, slope)))))
            .unwrap();
        let face = Vec3::new(-slope, 1.0, 0.0).normalize();
        let base = Vec3::new(-8.0, -8.0 * slope, 0.3);
        let shapes = [
            Shape::Capsule(Capsule::new(
                Segment::new(base + Vec3::Y * 0.5, base + Vec3::Y * 1.5),
                0.5,
            )),
            Shape::Sphere(Sphere::new(base + Vec3::Y * 0.5, 0.5)),
            Shape::Obb(Obb::new(
                base + Vec3::Y * 0.5,
                Quat::from_rotation_y(0.7),
                Vec3::splat(0.5),
            )),
        ];
        for shape in &shapes {
            let (normals, travelled) = slide(&world, shape, step);
            assert!(
                normals.len() >= 300,
                "{shape:?} on slope {slope}: {} hits",
                normals.len()
            );
            for n in &normals {
                assert!(
                    (*n - face).length() < 1e-5,
                    "{shape:?} on slope {slope} met {n}, not the floor {face}"
                );
            }
            if slope == 0.0 {
                // Every step keeps its whole horizontal motion: no snag.
                let full = 400.0 * Vec3::new(step.x, 0.0, step.z).length();
                assert!((travelled - full).abs() < 1e-3, "{shape:?}: {travelled} of {full}");
            }
        }
    }
}
