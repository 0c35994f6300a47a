//! The height field: every query held to the same surface built as a
//! `TriangleMesh` (same triangles, same order; the mesh's answers are held
//! to brute force and certified in tests/mesh.rs and tests/certificates.rs),
//! on random terrains with holes, at the origin and 1e5 away, with thin and
//! badly proportioned cells; its internal edges, its memory, a world with
//! terrain (casts, pairs, move and slide), bad input, and the C ABI.

use std::ptr::null;
use std::sync::Arc;

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::{Quat, Vec3};
use collide::shape::{HeightField, TriangleMesh};
use collide::{
    Aabb, Capsule, CastHit, ColliderDesc, Contact, ConvexHull, Cylinder, Distance, Error, Obb, QueryFilter, Segment,
    Shape, Sphere, TimeOfImpact, Transform, World,
};

mod common;
use common::geometry::slide;
use common::oracle::Oracle;
use common::random::{seeded, Draw, TestRng};

/// A random terrain of `columns × rows` samples: rolling hills plus noise,
/// one cell in `hole_one_in` a hole (0: none), placed at `origin` with
/// `scale`.
fn terrain(rng: &mut TestRng, columns: usize, rows: usize, scale: Vec3, origin: Vec3, hole_one_in: u64) -> HeightField {
    let heights: Vec<f32> = (0..columns * rows)
        .map(|i| {
            let (c, r) = ((i % columns) as f32, (i / columns) as f32);
            (c * 0.3).sin() * 2.0 + (r * 0.21).cos() * 1.5 + rng.range(-0.3, 0.3)
        })
        .collect();
    let mut field = HeightField::new(columns, rows, heights, scale).unwrap();
    if hole_one_in > 0 {
        let holes: Vec<bool> = (0..(columns - 1) * (rows - 1))
            .map(|_| rng.one_in(hole_one_in))
            .collect();
        field = field.with_holes(&holes).unwrap();
    }
    let placed = Shape::HeightField(field)
        .transformed(&Transform::from_translation(origin), false)
        .unwrap();
    let Shape::HeightField(field) = placed else {
        unreachable!()
    };
    field
}

/// The same surface as a mesh: one vertex per sample, the triangles of
/// the cells that are not holes in the field's order, and the field's
/// index of each mesh triangle.
fn as_mesh(field: &HeightField) -> (TriangleMesh, Vec<usize>) {
    let (columns, rows) = (field.columns(), field.rows());
    let vertices: Vec<Vec3> = (0..rows)
        .flat_map(|r| (0..columns).map(move |c| (c, r)))
        .map(|(c, r)| field.sample(c, r))
        .collect();
    let at = |c: usize, r: usize| (r * columns + c) as u32;
    let (mut indices, mut index) = (Vec::new(), Vec::new());
    for (i, _) in field.triangles() {
        let cell = i / 2;
        let (c, r) = (cell % (columns - 1), cell / (columns - 1));
        indices.push(if i % 2 == 0 {
            [at(c, r), at(c, r + 1), at(c + 1, r + 1)]
        } else {
            [at(c, r), at(c + 1, r + 1), at(c + 1, r)]
        });
        index.push(i);
    }
    (TriangleMesh::new(vertices, indices).unwrap(), index)
}

/// The terrains the equivalence tests run on: small and odd-sized (blocks
/// cut at the border), thin and badly proportioned cells, far from the
/// origin, with and without holes.
fn terrains(rng: &mut TestRng) -> Vec<HeightField> {
    vec![
        terrain(rng, 2, 2, Vec3::ONE, Vec3::ZERO, 0),
        terrain(rng, 37, 29, Vec3::new(1.5, 0.7, 2.0), Vec3::new(-20.0, 0.0, -25.0), 0),
        terrain(rng, 33, 41, Vec3::new(1.0, 1.0, 1.0), Vec3::new(-16.0, -3.0, -20.0), 7),
        terrain(rng, 50, 9, Vec3::new(0.05, 3.0, 4.0), Vec3::new(-1.0, 0.0, -16.0), 0),
        terrain(
            rng,
            40,
            40,
            Vec3::new(2.0, 0.5, 2.0),
            Vec3::new(1.0e5, 2.0e3, -1.0e5),
            11,
        ),
    ]
}

/// A point in or around the field's bounds (a margin of a quarter of its
/// size).
fn near(rng: &mut TestRng, field: &HeightField) -> Vec3 {
    let b = field.bounding_aabb();
    let margin = (b.max - b.min) * 0.25 + Vec3::ONE;
    rng.vec_in(b.min - margin, b.max + margin)
}

/// A random convex probe of size about `size` at `at`.
fn probe(rng: &mut TestRng, at: Vec3, size: f32) -> Shape {
    let r = size * rng.range(0.05, 1.0);
    match rng.below(5) {
        0 => Shape::Sphere(Sphere::new(at, r)),
        1 => Shape::Capsule(Capsule::new(Segment::new(at, at + rng.vec(-size, size)), r)),
        2 => Shape::Aabb(Aabb::new(at - rng.vec(0.0, size), at + rng.vec(0.01, size))),
        3 => Shape::Obb(Obb::new(at, rng.rotation(), rng.vec(0.01, size))),
        _ => {
            let points: Vec<Vec3> = (0..8).map(|_| at + rng.vec(-size, size)).collect();
            Shape::Hull(Arc::new(ConvexHull::from_points(&points).unwrap()))
        }
    }
}

/// Asserts that the field's cast of `segment` is the mesh's (same
/// triangle, same hit, `index` mapping the mesh's triangles to the
/// field's) and brute force's; whether it hit.
fn cast_matches_the_mesh(field: &HeightField, mesh: &TriangleMesh, index: &[usize], segment: &Segment) -> bool {
    let ours = field.cast_segment_indexed(segment);
    let theirs = mesh.cast_segment_indexed(segment).map(|(i, h)| {
        let i = index[i];
        (
            i,
            CastHit {
                sub_shape: i as u32,
                ..h
            },
        )
    });
    assert_eq!(ours, theirs, "{segment:?}");
    let brute = mesh.cast_segment_brute_force(segment).map(|(_, h)| h.t);
    assert_eq!(ours.map(|(_, h)| h.t), brute, "{segment:?}");
    ours.is_some()
}

#[test]
fn segment_casts_match_the_same_surface_as_a_mesh() {
    let mut rng = seeded(41);
    for field in terrains(&mut rng) {
        let (mesh, index) = as_mesh(&field);
        let b = field.bounding_aabb();
        let mut hits = 0;
        for n in 0..3000 {
            let start = near(&mut rng, &field);
            let segment = match n % 4 {
                // Straight down, as a ground probe.
                0 => Segment::new(start, Vec3::new(start.x, b.min.y - 1.0, start.z)),
                // Grazing: level across the field, at a height inside it.
                1 => {
                    let (y, end) = (rng.range(b.min.y, b.max.y), near(&mut rng, &field));
                    Segment::new(Vec3::new(start.x, y, start.z), Vec3::new(end.x, y, end.z))
                }
                _ => Segment::new(start, near(&mut rng, &field)),
            };
            hits += usize::from(cast_matches_the_mesh(&field, &mesh, &index, &segment));
        }
        assert!(hits > 200, "{hits} hits of 3000");
    }
}

/// Segments the walk's cell arithmetic finds hardest, each held to the
/// mesh and to brute force: probes exactly on grid corners and grid lines
/// or a rounding away from them, segments through a sample (a corner shared
/// by six triangles), level segments along grid lines, along the cells'
/// diagonals, probes on a diagonal, and short segments inside one cell
/// close to its sides.
#[test]
fn segment_casts_through_grid_corners_and_along_grid_lines_match_the_mesh() {
    let mut rng = seeded(43);
    for field in terrains(&mut rng) {
        let (mesh, index) = as_mesh(&field);
        let b = field.bounding_aabb();
        let (above, below) = (b.max.y + 1.0, b.min.y - 1.0);
        let mut hits = 0;
        for n in 0..3000 {
            let (c, r) = (
                rng.below(field.columns() as u64) as usize,
                rng.below(field.rows() as u64) as usize,
            );
            let corner = field.sample(c, r);
            let nudge = |v: f32, rng: &mut TestRng| match rng.below(3) {
                0 => v,
                1 => v.next_up(),
                _ => v.next_down(),
            };
            let (x, z) = (nudge(corner.x, &mut rng), nudge(corner.z, &mut rng));
            let far = near(&mut rng, &field);
            let segment = match n % 7 {
                // Straight down on a corner, or a rounding beside it.
                0 => Segment::new(Vec3::new(x, above, z), Vec3::new(x, below, z)),
                // Straight down on a grid line.
                1 => Segment::new(Vec3::new(x, above, far.z), Vec3::new(x, below, far.z)),
                // Through the sample itself, from anywhere around.
                2 => Segment::new(far, corner + (corner - far) * rng.range(0.0, 1.0)),
                // Level along a grid line, at a height inside the field.
                3 => {
                    let y = rng.range(b.min.y, b.max.y);
                    Segment::new(Vec3::new(b.min.x - 1.0, y, z), Vec3::new(b.max.x + 1.0, y, z))
                }
                // Along the cells' diagonals, from a corner.
                4 => {
                    let (k, y) = (rng.range(1.0, 20.0), rng.range(b.min.y, b.max.y));
                    let step = Vec3::new(field.scale().x, 0.0, field.scale().z) * k;
                    let sign = if rng.one_in(2) { 1.0 } else { -1.0 };
                    Segment::new(Vec3::new(x, y, z), Vec3::new(x, y, z) + step * sign)
                }
                // Straight down on a cell's diagonal, or a rounding beside it.
                5 => {
                    let k = rng.range(0.0, 1.0);
                    let (x, z) = (x + k * field.scale().x, z + k * field.scale().z);
                    let (x, z) = (nudge(x, &mut rng), nudge(z, &mut rng));
                    Segment::new(Vec3::new(x, above, z), Vec3::new(x, below, z))
                }
                // Short, inside one cell and close to its sides.
                _ => {
                    let (dx, dz) = (field.scale().x * 1.0e-4, field.scale().z * 1.0e-4);
                    let start = Vec3::new(x + dx, above, z + dz);
                    Segment::new(start, Vec3::new(x + 2.0 * dx, below, z + 2.0 * dz))
                }
            };
            hits += usize::from(cast_matches_the_mesh(&field, &mesh, &index, &segment));
        }
        assert!(hits > 300, "{hits} hits of 3000");
    }
}

#[test]
fn overlaps_contacts_distances_and_shape_casts_match_the_mesh() {
    let mut rng = seeded(42);
    for field in terrains(&mut rng) {
        let (mesh, index) = as_mesh(&field);
        let (surface, mesh_shape) = (Shape::HeightField(field.clone()), Shape::Mesh(Arc::new(mesh.clone())));
        let oracle = Oracle::of(&surface);
        let cell = field.scale().x.max(field.scale().z);
        let (mut overlapping, mut touching, mut casts) = (0, 0, 0);
        for _ in 0..400 {
            let at = near(&mut rng, &field);
            let shape = probe(&mut rng, at, cell * 3.0);
            // Overlap: the same triangles.
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            field.overlapping_triangles(&shape, &mut ours);
            mesh.overlapping_triangles(&shape, &mut theirs);
            let theirs: Vec<usize> = theirs.iter().map(|&i| index[i]).collect();
            assert_eq!(ours, theirs, "{shape:?}");
            assert_eq!(field.intersects(&shape), !ours.is_empty());
            assert_eq!(surface.intersects(&shape), shape.intersects(&surface));
            overlapping += usize::from(!ours.is_empty());
            // Contact: the same answer.
            // The mesh names its triangles by its own indices.
            let renamed = |sub: [u32; 2]| [index[sub[0] as usize] as u32, sub[1]];
            let contact = field.contact(&shape);
            let mesh_contact = mesh.contact(&shape).map(|c| Contact {
                sub_shapes: renamed(c.sub_shapes),
                ..c
            });
            assert_eq!(contact, mesh_contact, "{shape:?}");
            assert_eq!(surface.contact(&shape), contact);
            touching += usize::from(contact.is_some());
            // Distance: the same distance and points, certified.
            // (Two triangles as near, sharing the nearest point, are named
            // by the smaller index of each surface's own numbering.)
            let d = field.distance(&shape);
            let mesh_d = mesh.distance(&shape);
            let mesh_d = Distance {
                sub_shapes: d.sub_shapes,
                ..mesh_d
            };
            assert_eq!(d, mesh_d, "{shape:?}");
            let named = Shape::Triangle(field.triangle(d.sub_shapes[0] as usize)).distance(&shape);
            assert_eq!(named.distance, d.distance, "{shape:?}");
            assert_eq!(surface.distance(&shape), d);
            let tolerance = 1e-4 * (1.0 + d.point_a.abs().max_element() as f64);
            assert!(
                oracle.signed_distance(d.point_a.as_dvec3()).abs() <= tolerance,
                "{shape:?}: {d:?}"
            );
            // Shape cast: the same time of impact and normal.
            let motion = rng.vec(-1.0, 1.0) * cell * 10.0;
            let toi = field.cast_shape_against(&shape, motion);
            let mesh_toi = mesh.cast_shape_against(&shape, motion).map(|t| TimeOfImpact {
                sub_shapes: [t.sub_shapes[0], index[t.sub_shapes[1] as usize] as u32],
                ..t
            });
            assert_eq!(toi, mesh_toi, "{shape:?} by {motion}");
            assert_eq!(shape.cast_shape(motion, &surface), toi);
            casts += usize::from(toi.is_some());
        }
        assert!(!mesh_shape.intersects(&surface), "two surfaces never overlap");
        assert!(
            overlapping > 20 && touching > 20 && casts > 40,
            "{overlapping} {touching} {casts}"
        );
    }
}

#[test]
fn internal_edges_are_those_of_the_mesh() {
    let mut rng = seeded(43);
    let mut fields = terrains(&mut rng);
    // A flat field: every edge internal but the outline's.
    fields.push(HeightField::new(5, 4, vec![0.0; 20], Vec3::ONE).unwrap());
    for field in fields {
        let (mesh, index) = as_mesh(&field);
        for (m, &i) in index.iter().enumerate() {
            for k in 0..3 {
                assert_eq!(
                    field.is_edge_active(i, k),
                    mesh.is_edge_active(m, k),
                    "triangle {i} edge {k}"
                );
            }
        }
    }
    let flat = HeightField::new(5, 4, vec![0.0; 20], Vec3::ONE).unwrap();
    let active: usize = (0..flat.triangle_count())
        .map(|i| (0..3).filter(|&k| flat.is_edge_active(i, k)).count())
        .sum();
    assert_eq!(active, 2 * (4 + 3), "the outline of 4 × 3 cells");
}

#[test]
fn a_million_samples_cost_their_heights_and_a_small_pyramid() {
    let n = 1024;
    let heights: Vec<f32> = (0..n * n).map(|i| ((i % n) as f32 * 0.01).sin()).collect();
    let field = HeightField::new(n, n, heights, Vec3::ONE).unwrap();
    let heights_bytes = n * n * 4;
    assert!(field.memory_bytes() >= heights_bytes);
    assert!(
        field.memory_bytes() <= heights_bytes + heights_bytes / 20,
        "{} bytes for {} of heights",
        field.memory_bytes(),
        heights_bytes
    );
    // Moving it copies nothing: the samples are shared.
    let moved = Shape::HeightField(field.clone())
        .transformed(&Transform::from_translation(Vec3::X), false)
        .unwrap();
    let Shape::HeightField(moved) = moved else {
        unreachable!()
    };
    assert_eq!(moved.heights().as_ptr(), field.heights().as_ptr());
}

#[test]
fn a_world_casts_pairs_and_slides_over_terrain() {
    let mut rng = seeded(44);
    let field = terrain(&mut rng, 65, 65, Vec3::ONE, Vec3::ZERO, 9);
    let (mesh, index) = as_mesh(&field);
    let place = Transform::from_translation(Vec3::new(-32.0, 0.0, -32.0));
    // The terrain and the same surface as a mesh, each in its own world
    // among the same balls.
    let mut worlds = [Shape::HeightField(field), Shape::Mesh(Arc::new(mesh))].map(|ground| {
        let mut world = World::new();
        world.add(ColliderDesc::new(ground).with_transform(place)).unwrap();
        world
    });
    let mut balls = seeded(45);
    for _ in 0..60 {
        let at = balls.vec_in(Vec3::new(-30.0, -3.0, -30.0), Vec3::new(30.0, 5.0, 30.0));
        for world in &mut worlds {
            world
                .add(ColliderDesc::new(Shape::Sphere(Sphere::new(at, 0.8))))
                .unwrap();
        }
    }
    let [terrain_world, mesh_world] = &mut worlds;
    // The mesh names its triangles by its own indices: a hit on the ground
    // (the first collider of each world) renamed as the field's.
    let ground = terrain_world.iter().next().unwrap().0;
    let renamed = |h: collide::Hit| collide::Hit {
        sub_shape: if h.collider == ground {
            index[h.sub_shape as usize] as u32
        } else {
            h.sub_shape
        },
        ..h
    };
    // Bullets: the same hits, collider and all (the keys match: same adds).
    let mut ground_hits = 0;
    for _ in 0..500 {
        let from = rng.vec_in(Vec3::new(-40.0, 10.0, -40.0), Vec3::new(40.0, 20.0, 40.0));
        let to = rng.vec_in(Vec3::new(-40.0, -10.0, -40.0), Vec3::new(40.0, -5.0, 40.0));
        let segment = Segment::new(from, to);
        let ours = terrain_world.segment_cast(&segment, &QueryFilter::ALL).unwrap();
        let theirs = mesh_world.segment_cast(&segment, &QueryFilter::ALL).unwrap();
        assert_eq!(ours, theirs.map(renamed));
        assert_eq!(
            ours,
            terrain_world
                .segment_cast_brute_force(&segment, &QueryFilter::ALL)
                .unwrap()
        );
        ground_hits += usize::from(
            ours.is_some_and(|h| matches!(*terrain_world.get(h.collider).unwrap().shape(), Shape::HeightField(_))),
        );
    }
    assert!(ground_hits > 100, "{ground_hits}");
    // Pairs: the same balls touch the terrain as the mesh, by every finder.
    let pairs = terrain_world.pairs().to_vec();
    assert_eq!(pairs, mesh_world.pairs().to_vec());
    let mut pairwise = Vec::new();
    terrain_world.test_pairwise(|p| pairwise.push(p));
    let mut sap = Vec::new();
    terrain_world.test_sweep_and_prune(|p| sap.push(p));
    let key = |p: &collide::Pair| (p.a, p.b);
    for list in [&mut pairwise, &mut sap] {
        list.sort_by_key(key);
    }
    let mut sorted = pairs.clone();
    sorted.sort_by_key(key);
    assert_eq!((&pairwise, &sap), (&sorted, &sorted));
    assert!(pairs.len() > 5, "{} pairs", pairs.len());
    // A capsule walked across: the same slide over both.
    let capsule = Shape::Capsule(Capsule::new(
        Segment::new(Vec3::new(-20.0, 6.0, 0.5), Vec3::new(-20.0, 7.0, 0.5)),
        0.5,
    ));
    let step = Vec3::new(0.3, -0.2, 0.05);
    let (mut a, mut b) = (Vec3::ZERO, Vec3::ZERO);
    for _ in 0..120 {
        let on_terrain = terrain_world
            .move_and_slide(&capsule.translated(a), step, &QueryFilter::ALL, 4)
            .unwrap();
        let on_mesh = mesh_world
            .move_and_slide(&capsule.translated(b), step, &QueryFilter::ALL, 4)
            .unwrap();
        assert_eq!(on_terrain.position_delta, on_mesh.position_delta);
        assert_eq!(
            on_terrain.hits,
            on_mesh.hits.iter().copied().map(renamed).collect::<Vec<_>>()
        );
        a += on_terrain.position_delta;
        b += on_mesh.position_delta;
    }
    assert!(a.x > 20.0, "the capsule crossed the terrain: {a}");
}

#[test]
fn shapes_slide_across_a_flat_field_meeting_only_the_ground() {
    // 41 × 41 unit cells over [-20, 20]²: as tests/mesh.rs's tiled floor.
    let field = HeightField::new(41, 41, vec![0.0; 41 * 41], Vec3::ONE).unwrap();
    let mut world = World::new();
    world
        .add(
            ColliderDesc::new(Shape::HeightField(field))
                .with_transform(Transform::from_translation(Vec3::new(-20.0, 0.0, -20.0))),
        )
        .unwrap();
    let base = Vec3::new(-8.0, 0.0, 0.3);
    let step = Vec3::new(0.04, -0.01, 0.013);
    for shape in [
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
        Shape::Cylinder(Cylinder::new(
            Segment::new(base + Vec3::Y * 0.01, base + Vec3::Y * 1.0),
            0.4,
        )),
    ] {
        let (normals, travelled) = slide(&world, &shape, step);
        for n in &normals {
            assert!((*n - Vec3::Y).length() < 1e-5, "{shape:?} met {n}, not the ground");
        }
        let hits = normals.len();
        assert!(hits >= 300, "{shape:?}: {hits} hits");
        let full = 400.0 * Vec3::new(step.x, 0.0, step.z).length();
        assert!(
            (travelled - full).abs() < 1e-3,
            "{shape:?}: {travelled} of {full}, snagged"
        );
    }
}

#[test]
fn bad_input_is_refused_and_leaves_the_world_intact() {
    let ok = || HeightField::new(3, 3, vec![0.0; 9], Vec3::ONE).unwrap();
    assert!(matches!(
        HeightField::new(1, 3, vec![0.0; 3], Vec3::ONE),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        HeightField::new(3, 3, vec![0.0; 8], Vec3::ONE),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        HeightField::new(usize::MAX, 2, vec![0.0; 4], Vec3::ONE),
        Err(Error::InvalidArgument(_))
    ));
    let mut nan = vec![0.0; 9];
    nan[4] = f32::NAN;
    assert!(matches!(
        HeightField::new(3, 3, nan, Vec3::ONE),
        Err(Error::NonFinite(_))
    ));
    for scale in [Vec3::new(0.0, 1.0, 1.0), Vec3::new(1.0, -1.0, 1.0)] {
        assert!(matches!(
            HeightField::new(3, 3, vec![0.0; 9], scale),
            Err(Error::InvalidArgument(_))
        ));
    }
    assert!(matches!(
        HeightField::new(3, 3, vec![0.0; 9], Vec3::splat(f32::INFINITY)),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(
        HeightField::new(3, 3, vec![f32::MAX; 9], Vec3::splat(4.0)),
        Err(Error::NonFinite(_))
    ));
    assert!(matches!(ok().with_holes(&[true; 3]), Err(Error::InvalidArgument(_))));
    assert!(
        matches!(ok().with_holes(&[true; 4]), Err(Error::InvalidArgument(_))),
        "all holes"
    );

    let mut world = World::new();
    let key = world.add(ColliderDesc::new(Shape::HeightField(ok()))).unwrap();
    let before = world.get(key).unwrap().world_shape().into_owned();
    let rotated = Transform::new(Vec3::ZERO, Quat::from_rotation_y(0.1), 1.0);
    assert!(matches!(
        world.set_transform(key, rotated),
        Err(Error::InvalidArgument(_))
    ));
    let flipped = Transform {
        scale: Vec3::new(1.0, -1.0, 1.0),
        ..Transform::IDENTITY
    };
    assert!(matches!(
        world.set_transform(key, flipped),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(*world.get(key).unwrap().world_shape(), before, "the world is intact");
    world.validate().unwrap();
    // A height field is no probe.
    let probe = Shape::HeightField(ok());
    assert!(matches!(
        world.cast_shape(&probe, Vec3::X, &QueryFilter::ALL),
        Err(Error::InvalidArgument(_))
    ));
    // Moved and scaled, it keeps its samples and answers where it went.
    let placed = Transform {
        translation: Vec3::new(10.0, 1.0, 0.0),
        rotation: Quat::IDENTITY,
        scale: Vec3::new(2.0, 3.0, 2.0),
    };
    world.set_transform(key, placed).unwrap();
    let hit = world
        .segment_cast(
            &Segment::new(Vec3::new(11.0, 5.0, 1.0), Vec3::new(11.0, -5.0, 1.0)),
            &QueryFilter::ALL,
        )
        .unwrap()
        .unwrap();
    assert_eq!((hit.point, hit.normal), (Vec3::new(11.0, 1.0, 1.0), Vec3::Y));
}

fn check(status: PhysStatus) {
    assert_eq!(status, PHYS_OK);
}

#[test]
fn c_abi_heightfield_shapes() {
    // SAFETY: every pointer below is to live, initialised stack or heap data
    // of the right type and count.
    unsafe {
        let heights = [0.0f32, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
        let scale = PhysVec3 { x: 1.0, y: 1.0, z: 1.0 };
        let holes = [0u8, 0, 0, 1];
        let mut field = core::ptr::null_mut();
        check(phys_heightfield_create(
            3,
            3,
            heights.as_ptr(),
            &scale,
            holes.as_ptr(),
            &mut field,
        ));
        let mut world = core::ptr::null_mut();
        check(phys_world_create(&mut world));
        let shape = PhysShape {
            kind: PHYS_SHAPE_HEIGHTFIELD,
            data: PhysShapeData { heightfield: field },
        };
        let mut collider = PhysCollider::default();
        check(phys_add_shape(world, &shape, null(), &mut collider));
        // The world keeps its own reference.
        phys_heightfield_destroy(field);
        let (mut hit, mut found) = (PhysHit::default(), false);
        let down = |x: f32, z: f32| PhysSegment {
            start: PhysVec3 { x, y: 5.0, z },
            end: PhysVec3 { x, y: -5.0, z },
        };
        check(phys_segment_cast(world, &down(1.0, 1.0), null(), &mut found, &mut hit));
        assert!(found);
        assert_eq!(hit.point.y, 1.0, "the top of the bump");
        assert!(hit.normal.y > 0.7);
        check(phys_segment_cast(world, &down(1.5, 1.5), null(), &mut found, &mut hit));
        assert!(!found, "cell (1, 1) is a hole");
        // Its shape comes back as a new reference.
        let mut back = PhysShape {
            kind: 0,
            data: PhysShapeData { heightfield: null() },
        };
        check(phys_get_shape(world, collider, &mut back));
        assert_eq!(back.kind, PHYS_SHAPE_HEIGHTFIELD);
        phys_heightfield_destroy(back.data.heightfield.cast_mut());
        // Bad input: an error, nothing made.
        let mut none = core::ptr::null_mut();
        assert_eq!(
            phys_heightfield_create(1, 3, heights.as_ptr(), &scale, null(), &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            phys_heightfield_create(3, 3, null(), &scale, null(), &mut none),
            PHYS_ERROR_NULL_POINTER
        );
        assert_eq!(
            phys_heightfield_create(usize::MAX, 3, heights.as_ptr(), &scale, null(), &mut none),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        let nan = PhysVec3 {
            x: f32::NAN,
            y: 1.0,
            z: 1.0,
        };
        assert_eq!(
            phys_heightfield_create(3, 3, heights.as_ptr(), &nan, null(), &mut none),
            PHYS_ERROR_NON_FINITE
        );
        assert!(none.is_null());
        phys_world_destroy(world);
    }
}

#[test]
fn shapes_resting_across_seams_meet_the_ground_not_its_edges() {
    // A flat floor of unit cells as a mesh and as a height field: shapes
    // resting 0.01 deep at 200 places along a line across the seams get the
    // floor's normal and depth from every contact and every manifold.
    let field = HeightField::new(9, 9, vec![0.0; 81], Vec3::ONE).unwrap();
    let (mesh, _) = as_mesh(&field);
    for ground in [Shape::HeightField(field), Shape::Mesh(Arc::new(mesh))] {
        for k in 0..200 {
            let at = Vec3::new(2.0 + 0.0213 * k as f32, 0.0, 2.5 + 0.0171 * k as f32);
            for shape in [
                Shape::Sphere(Sphere::new(at + Vec3::Y * 0.49, 0.5)),
                Shape::Capsule(Capsule::new(
                    Segment::new(at + Vec3::new(-0.7, 0.49, 0.2), at + Vec3::new(0.7, 0.49, -0.2)),
                    0.5,
                )),
                Shape::Obb(Obb::new(
                    at + Vec3::Y * 0.49,
                    Quat::from_rotation_y(0.3),
                    Vec3::splat(0.5),
                )),
                Shape::Cylinder(Cylinder::new(Segment::new(at - Vec3::Y * 0.01, at + Vec3::Y), 0.4)),
            ] {
                let c = ground.contact(&shape).unwrap();
                assert!((c.normal - Vec3::Y).length() < 1e-6, "{shape:?}: normal {}", c.normal);
                assert!((c.depth - 0.01).abs() < 1e-5, "{shape:?}: depth {}", c.depth);
                let m = ground.contact_manifold(&shape).unwrap();
                assert!(
                    (m.normal - Vec3::Y).length() < 1e-6,
                    "{shape:?}: manifold normal {}",
                    m.normal
                );
            }
        }
    }
}
