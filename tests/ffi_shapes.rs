//! `PhysShape`, the C ABI's one way to say a shape: every kind added with
//! `phys_add_shape` answers casts as the same shape added to a Rust
//! `World`; overlaps, shape casts, the nearest collider and the world-free
//! distance and contact give the safe API's answers; hulls and meshes are
//! shared handles that outlive their creator's reference; bad input is a
//! status and leaves the world alone.

mod common;

use std::ptr::{null, null_mut};
use std::sync::Arc;

use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::{Quat, Vec3};
use collide::shape::{Cone, ConvexHull, Cylinder, HeightField, TriangleMesh};
use collide::{Aabb, Capsule, ColliderDesc, Obb, QueryFilter, Segment, Shape, Sphere, Triangle, World};
use common::ffi::*;

const CUBE: [[f32; 3]; 8] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, 1.0],
    [-1.0, 1.0, 1.0],
    [1.0, 1.0, 1.0],
];

/// A shared hull of the cube `CUBE` turned into a wedge (one corner moved).
fn hull_points() -> Vec<Vec3> {
    let mut points: Vec<Vec3> = CUBE.iter().map(|&p| Vec3::from(p)).collect();
    points[7] = Vec3::new(0.2, 0.4, 0.3);
    points
}

/// Two triangles of a floor square, 4 wide.
fn mesh_parts() -> (Vec<Vec3>, Vec<u32>) {
    let vertices = vec![
        Vec3::new(-2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, -2.0),
        Vec3::new(2.0, 0.0, 2.0),
        Vec3::new(-2.0, 0.0, 2.0),
    ];
    (vertices, vec![0, 1, 2, 0, 2, 3])
}

/// A 5 × 5 height field, one unit apart, a bump in the middle.
fn heights() -> Vec<f32> {
    (0..25)
        .map(|i| if i == 12 { 1.5 } else { (i % 3) as f32 * 0.1 })
        .collect()
}

fn pv(p: Vec3) -> PhysVec3 {
    v(p.x, p.y, p.z)
}

/// A hull and a mesh created through the C ABI, released on drop.
struct Shared {
    hull: *mut PhysHull,
    mesh: *mut PhysMesh,
    heightfield: *mut PhysHeightField,
}

impl Shared {
    fn new() -> Self {
        let points: Vec<PhysVec3> = hull_points().into_iter().map(pv).collect();
        let (vertices, indices) = mesh_parts();
        let vertices: Vec<PhysVec3> = vertices.into_iter().map(pv).collect();
        let (mut hull, mut mesh, mut heightfield) = (null_mut(), null_mut(), null_mut());
        // SAFETY: arrays of the counts given, valid out-pointers.
        unsafe {
            let scale = v(1.0, 1.0, 1.0);
            assert_eq!(
                phys_heightfield_create(5, 5, heights().as_ptr(), &scale, null(), &mut heightfield),
                PHYS_OK
            );
            assert_eq!(phys_hull_create(points.as_ptr(), points.len(), &mut hull), PHYS_OK);
            assert_eq!(
                phys_mesh_create(
                    vertices.as_ptr(),
                    vertices.len(),
                    indices.as_ptr(),
                    indices.len(),
                    &mut mesh
                ),
                PHYS_OK
            );
        }
        Self {
            hull,
            mesh,
            heightfield,
        }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: handles of phys_*_create, destroyed once.
        unsafe {
            phys_hull_destroy(self.hull);
            phys_mesh_destroy(self.mesh);
            phys_heightfield_destroy(self.heightfield);
        }
    }
}

/// Every kind of shape, as C says it and as Rust does, placed around the
/// origin.
fn every_kind(shared: &Shared) -> Vec<(&'static str, PhysShape, Shape)> {
    let q = Quat::from_rotation_y(0.4) * Quat::from_rotation_x(0.3);
    let pq = PhysQuat {
        x: q.x,
        y: q.y,
        z: q.z,
        w: q.w,
    };
    let (a, b) = (Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
    let (vertices, indices) = mesh_parts();
    let triangles = indices.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let shape = |kind, data| PhysShape { kind, data };
    vec![
        (
            "box",
            shape(PHYS_SHAPE_BOX, PhysShapeData { aabb: cube(1.0) }),
            Shape::Aabb(Aabb::new(Vec3::splat(-1.0), Vec3::ONE)),
        ),
        (
            "sphere",
            shape(PHYS_SHAPE_SPHERE, PhysShapeData { sphere: sphere(1.0) }),
            Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)),
        ),
        (
            "capsule",
            shape(
                PHYS_SHAPE_CAPSULE,
                PhysShapeData {
                    capsule: PhysCapsule {
                        segment: segment(pv(a), pv(b)),
                        radius: 0.5,
                    },
                },
            ),
            Shape::Capsule(Capsule::new(Segment::new(a, b), 0.5)),
        ),
        (
            "obb",
            shape(
                PHYS_SHAPE_OBB,
                PhysShapeData {
                    obb: PhysObb {
                        center: v(0.0, 0.0, 0.0),
                        rotation: pq,
                        half_extents: v(1.0, 0.5, 0.25),
                    },
                },
            ),
            Shape::Obb(Obb::new(Vec3::ZERO, q, Vec3::new(1.0, 0.5, 0.25))),
        ),
        (
            "triangle",
            shape(
                PHYS_SHAPE_TRIANGLE,
                PhysShapeData {
                    triangle: PhysTriangle {
                        a: v(-1.0, -1.0, 0.0),
                        b: v(1.0, -1.0, 0.0),
                        c: v(0.0, 1.0, 0.0),
                    },
                },
            ),
            Shape::Triangle(Triangle::new(
                Vec3::new(-1.0, -1.0, 0.0),
                Vec3::new(1.0, -1.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            )),
        ),
        (
            "cylinder",
            shape(
                PHYS_SHAPE_CYLINDER,
                PhysShapeData {
                    cylinder: PhysCylinder {
                        segment: segment(pv(a), pv(b)),
                        radius: 0.75,
                    },
                },
            ),
            Shape::Cylinder(Cylinder::new(Segment::new(a, b), 0.75)),
        ),
        (
            "cone",
            shape(
                PHYS_SHAPE_CONE,
                PhysShapeData {
                    cone: PhysCone {
                        base_center: pv(a),
                        apex: pv(b),
                        radius: 0.75,
                    },
                },
            ),
            Shape::Cone(Cone::new(a, b, 0.75)),
        ),
        (
            "hull",
            shape(PHYS_SHAPE_HULL, PhysShapeData { hull: shared.hull }),
            Shape::Hull(Arc::new(ConvexHull::from_points(&hull_points()).unwrap())),
        ),
        (
            "mesh",
            shape(PHYS_SHAPE_MESH, PhysShapeData { mesh: shared.mesh }),
            Shape::Mesh(Arc::new(TriangleMesh::new(vertices, triangles).unwrap())),
        ),
        (
            "heightfield",
            shape(
                PHYS_SHAPE_HEIGHTFIELD,
                PhysShapeData {
                    heightfield: shared.heightfield,
                },
            ),
            Shape::HeightField(HeightField::new(5, 5, heights(), Vec3::ONE).unwrap()),
        ),
    ]
}

fn add_shape(world: *mut PhysWorld, shape: &PhysShape, desc: &PhysColliderDesc) -> PhysCollider {
    let mut out = SENTINEL_HANDLE;
    // SAFETY: valid pointers throughout; the shape's handles are live.
    let status = unsafe { phys_add_shape(world, shape, desc, &mut out) };
    assert_eq!(status, PHYS_OK, "{}", last_error());
    out
}

/// Segments through and past a shape around `at`, from every side.
fn probes(at: Vec3) -> Vec<Segment> {
    let mut segments = Vec::new();
    for i in 0..24 {
        let angle = i as f32 * 0.2618;
        let from = Vec3::new(4.0 * angle.cos(), 0.3 * (i % 5) as f32 - 0.6, 4.0 * angle.sin());
        let through = -from + Vec3::new(0.0, 0.17 * (i % 3) as f32, 0.1);
        segments.push(Segment::new(at + from, at + through));
        let (top, bottom) = (
            Vec3::new(from.x * 0.1, 4.0, from.z * 0.1),
            Vec3::new(from.x * 0.2, -4.0, 0.0),
        );
        segments.push(Segment::new(at + top, at + bottom));
    }
    segments
}

#[test]
fn every_kind_added_from_c_answers_casts_as_the_same_shape_in_rust() {
    let shared = Shared::new();
    for (name, c_shape, rust_shape) in every_kind(&shared) {
        let world = new_world(None);
        let placed = desc(9, 0.5, -0.25, 1.0);
        let handle = add_shape(world, &c_shape, &placed);
        let mut rust = World::new();
        let key = rust
            .add(
                ColliderDesc::new(rust_shape)
                    .with_transform(collide::Transform::from_translation(Vec3::new(0.5, -0.25, 1.0)))
                    .with_user_data(9),
            )
            .unwrap();
        let mut bounds = sentinel_aabb();
        // SAFETY: a live world, a valid out-pointer.
        assert_eq!(unsafe { phys_get_world_aabb(world, handle, &mut bounds) }, PHYS_OK);
        let expected = rust.get(key).unwrap().aabb();
        assert_eq!(
            (Vec3::from(bounds.min), Vec3::from(bounds.max)),
            (expected.min, expected.max),
            "{name}"
        );
        let mut hits = 0;
        for s in probes(Vec3::new(0.5, -0.25, 1.0)) {
            let (mut hit, mut byte) = (sentinel_hit(), SENTINEL_BOOL_BYTE);
            let segment = PhysSegment {
                start: pv(s.start),
                end: pv(s.end),
            };
            // SAFETY: valid pointers.
            let status = unsafe { phys_segment_cast(world, &segment, null(), bool_out(&mut byte), &mut hit) };
            assert_eq!(status, PHYS_OK);
            let want = rust.segment_cast(&s, &QueryFilter::ALL).unwrap();
            assert_eq!(byte == 1, want.is_some(), "{name}: {s:?}");
            if let Some(want) = want {
                hits += 1;
                assert_eq!((hit.t, hit.user_data), (want.t, 9), "{name}: {s:?}");
                assert_eq!(Vec3::from(hit.normal), want.normal, "{name}: {s:?}");
            }
        }
        assert!(hits >= 8, "{name}: only {hits} probes hit");
        // SAFETY: a live world.
        unsafe { phys_world_destroy(world) };
    }
}

#[test]
fn a_hull_and_a_mesh_are_shared_and_outlive_their_handles() {
    let world = new_world(None);
    let colliders: Vec<PhysCollider> = {
        let shared = Shared::new();
        let kinds = every_kind(&shared);
        let hull = &kinds.iter().find(|k| k.0 == "hull").unwrap().1;
        let mesh = &kinds.iter().find(|k| k.0 == "mesh").unwrap().1;
        let mut made: Vec<PhysCollider> = (0..3)
            .map(|i| add_shape(world, hull, &desc(i, 5.0 * i as f32, 0.0, 0.0)))
            .collect();
        made.push(add_shape(world, mesh, &desc(3, 0.0, -3.0, 0.0)));
        made
        // The creator's references are released here.
    };
    for (i, x) in [0.0f32, 5.0, 10.0].into_iter().enumerate() {
        let (mut hit, mut byte) = (sentinel_hit(), SENTINEL_BOOL_BYTE);
        let down = segment(v(x, 5.0, 0.0), v(x, -0.5, 0.0));
        // SAFETY: valid pointers; the world holds the hull.
        assert_eq!(
            unsafe { phys_segment_cast(world, &down, null(), bool_out(&mut byte), &mut hit) },
            PHYS_OK
        );
        assert_eq!((byte, hit.collider, hit.user_data), (1, colliders[i], i as u64));
    }
    let (mut hit, mut byte) = (sentinel_hit(), SENTINEL_BOOL_BYTE);
    let to_floor = segment(v(1.0, -1.0, 20.0), v(1.0, -5.0, 20.0));
    let to_mesh = segment(v(1.0, -1.0, 1.0), v(1.0, -5.0, 1.0));
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            phys_segment_cast(world, &to_floor, null(), bool_out(&mut byte), &mut hit),
            PHYS_OK
        );
        assert_eq!(byte, 0);
        assert_eq!(
            phys_segment_cast(world, &to_mesh, null(), bool_out(&mut byte), &mut hit),
            PHYS_OK
        );
    }
    assert_eq!((byte, hit.collider), (1, colliders[3]));
    assert!((hit.t - 0.5).abs() < 1e-6, "{}", hit.t);
    // SAFETY: a live world.
    unsafe { phys_world_destroy(world) };
}

/// A level of one collider of each kind along x, and the same in Rust.
fn level(shared: &Shared) -> (*mut PhysWorld, Vec<PhysCollider>, World, Vec<collide::ColliderKey>) {
    let world = new_world(None);
    let mut rust = World::new();
    let (mut handles, mut keys) = (Vec::new(), Vec::new());
    for (i, (_, c_shape, rust_shape)) in every_kind(shared).into_iter().enumerate() {
        let x = 3.0 * i as f32;
        handles.push(add_shape(world, &c_shape, &desc(i as u64, x, 0.0, 0.0)));
        let placed = collide::Transform::from_translation(Vec3::new(x, 0.0, 0.0));
        keys.push(
            rust.add(
                ColliderDesc::new(rust_shape)
                    .with_transform(placed)
                    .with_user_data(i as u64),
            )
            .unwrap(),
        );
    }
    (world, handles, rust, keys)
}

#[test]
fn overlaps_casts_and_the_nearest_collider_take_any_convex_probe() {
    let shared = Shared::new();
    let (world, handles, rust, keys) = level(&shared);
    let index_of = |c: PhysCollider| handles.iter().position(|&h| h == c).unwrap();
    let (mut overlapping, mut cast_hits) = (0, 0);
    for (name, c_probe, rust_probe) in every_kind(&shared)
        .into_iter()
        .filter(|k| !matches!(k.0, "mesh" | "heightfield"))
    {
        for x in [1.5f32, 6.0, 13.0, 22.0] {
            // The probe moved to x, through its union member's own fields:
            // its own description, placed in world space by hand.
            let moved = collide::Transform::from_translation(Vec3::new(x, 0.3, 0.2));
            let rust_probe = rust_probe.transformed(&moved, true).unwrap();
            let c_probe = match c_probe.kind {
                PHYS_SHAPE_HULL => {
                    let points: Vec<PhysVec3> = hull_points().iter().map(|&p| pv(moved.apply(p))).collect();
                    let mut hull = null_mut();
                    // SAFETY: an array of `points.len()` points.
                    assert_eq!(
                        unsafe { phys_hull_create(points.as_ptr(), points.len(), &mut hull) },
                        PHYS_OK
                    );
                    (
                        PhysShape {
                            kind: PHYS_SHAPE_HULL,
                            data: PhysShapeData { hull },
                        },
                        Some(hull),
                    )
                }
                _ => (world_shape(&rust_probe), None),
            };
            let (probe, owned) = c_probe;
            // Overlaps.
            let mut found = vec![PhysColliderRef::default(); 16];
            let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
            // SAFETY: a buffer of 16 records, valid counters.
            let status = unsafe {
                phys_overlap_shape(
                    world,
                    &probe,
                    null(),
                    found.as_mut_ptr(),
                    found.len(),
                    &mut written,
                    &mut total,
                )
            };
            assert_eq!(status, PHYS_OK, "{name}: {}", last_error());
            let mut got: Vec<usize> = found[..written].iter().map(|r| index_of(r.collider)).collect();
            got.sort_unstable();
            let mut want = Vec::new();
            rust.intersections_with_shape(&rust_probe, &QueryFilter::ALL, |key, _| {
                want.push(keys.iter().position(|&k| k == key).unwrap());
            })
            .unwrap();
            want.sort_unstable();
            assert_eq!(got, want, "{name} at {x}: overlaps");
            overlapping += got.len();
            // A cast down onto the level.
            let motion = v(0.0, -3.0, 0.0);
            let (mut hit, mut byte) = (sentinel_shape_hit(), SENTINEL_BOOL_BYTE);
            let lifted = rust_probe
                .transformed(&collide::Transform::from_translation(Vec3::new(0.0, 2.5, 0.0)), true)
                .unwrap();
            let lifted_c = match owned {
                Some(_) => None,
                None => Some(world_shape(&lifted)),
            };
            if let Some(lifted_c) = lifted_c {
                // SAFETY: valid pointers.
                let status =
                    unsafe { phys_shape_cast(world, &lifted_c, &motion, null(), bool_out(&mut byte), &mut hit) };
                assert_eq!(status, PHYS_OK, "{name}: {}", last_error());
                let want = rust.cast_shape(&lifted, Vec3::from(motion), &QueryFilter::ALL).unwrap();
                assert_eq!(byte == 1, want.is_some(), "{name} at {x}: cast");
                if let Some(want) = want {
                    cast_hits += 1;
                    assert_eq!(
                        index_of(hit.collider),
                        keys.iter().position(|&k| k == want.collider).unwrap()
                    );
                    assert_eq!((hit.t, Vec3::from(hit.normal)), (want.t, want.normal), "{name} at {x}");
                }
            }
            // The nearest collider.
            let mut closest = PhysClosest::default();
            // SAFETY: valid pointers.
            let status = unsafe { phys_closest(world, &probe, 10.0, null(), bool_out(&mut byte), &mut closest) };
            assert_eq!(status, PHYS_OK, "{name}: {}", last_error());
            let (key, d) = rust.closest(&rust_probe, 10.0, &QueryFilter::ALL).unwrap().unwrap();
            assert_eq!(byte, 1);
            assert_eq!(
                index_of(closest.collider),
                keys.iter().position(|&k| k == key).unwrap(),
                "{name} at {x}"
            );
            assert_eq!(closest.distance.distance, d.distance, "{name} at {x}");
            if let Some(hull) = owned {
                // SAFETY: created above, destroyed once.
                unsafe { phys_hull_destroy(hull) };
            }
        }
    }
    assert!(
        overlapping >= 20 && cast_hits >= 10,
        "{overlapping} overlaps, {cast_hits} cast hits"
    );
    // SAFETY: a live world.
    unsafe { phys_world_destroy(world) };
}

/// The `PhysShape` of a world-space convex Rust shape other than a hull.
fn world_shape(shape: &Shape) -> PhysShape {
    let (kind, data) = match *shape {
        Shape::Aabb(b) => (
            PHYS_SHAPE_BOX,
            PhysShapeData {
                aabb: aabb(pv(b.min), pv(b.max)),
            },
        ),
        Shape::Sphere(s) => (
            PHYS_SHAPE_SPHERE,
            PhysShapeData {
                sphere: PhysSphere {
                    center: pv(s.center),
                    radius: s.radius,
                },
            },
        ),
        Shape::Capsule(c) => (
            PHYS_SHAPE_CAPSULE,
            PhysShapeData {
                capsule: PhysCapsule {
                    segment: segment(pv(c.segment.start), pv(c.segment.end)),
                    radius: c.radius,
                },
            },
        ),
        Shape::Obb(o) => (
            PHYS_SHAPE_OBB,
            PhysShapeData {
                obb: PhysObb {
                    center: pv(o.center),
                    rotation: PhysQuat {
                        x: o.rotation.x,
                        y: o.rotation.y,
                        z: o.rotation.z,
                        w: o.rotation.w,
                    },
                    half_extents: pv(o.half_extents),
                },
            },
        ),
        Shape::Triangle(t) => (
            PHYS_SHAPE_TRIANGLE,
            PhysShapeData {
                triangle: PhysTriangle {
                    a: pv(t.a),
                    b: pv(t.b),
                    c: pv(t.c),
                },
            },
        ),
        Shape::Cylinder(c) => (
            PHYS_SHAPE_CYLINDER,
            PhysShapeData {
                cylinder: PhysCylinder {
                    segment: segment(pv(c.segment.start), pv(c.segment.end)),
                    radius: c.radius,
                },
            },
        ),
        Shape::Cone(c) => (
            PHYS_SHAPE_CONE,
            PhysShapeData {
                cone: PhysCone {
                    base_center: pv(c.base_center),
                    apex: pv(c.apex),
                    radius: c.radius,
                },
            },
        ),
        _ => panic!("not a plain convex shape: {shape:?}"),
    };
    PhysShape { kind, data }
}

#[test]
fn distance_and_contact_need_no_world() {
    let shared = Shared::new();
    let kinds = every_kind(&shared);
    let mut touching = 0;
    for (name_a, c_a, rust_a) in &kinds {
        for (name_b, _, rust_b) in kinds
            .iter()
            .filter(|k| !matches!(k.2, Shape::Hull(_) | Shape::Mesh(_) | Shape::HeightField(_)))
        {
            for x in [0.7f32, 1.8, 4.0] {
                let rust_b = rust_b
                    .transformed(&collide::Transform::from_translation(Vec3::new(x, 0.2, 0.1)), true)
                    .unwrap();
                let c_b = world_shape(&rust_b);
                let mut d = PhysDistance::default();
                let mut c = PhysContact::default();
                let mut byte = SENTINEL_BOOL_BYTE;
                // SAFETY: valid pointers; the handles are live.
                unsafe {
                    assert_eq!(phys_shape_distance(c_a, &c_b, &mut d), PHYS_OK, "{}", last_error());
                    assert_eq!(phys_shape_contact(c_a, &c_b, bool_out(&mut byte), &mut c), PHYS_OK);
                }
                let want = rust_a.distance(&rust_b);
                assert_eq!(d.distance, want.distance, "{name_a}–{name_b} at {x}");
                assert_eq!(Vec3::from(d.point_a), want.point_a, "{name_a}–{name_b} at {x}");
                let contact = rust_a.contact(&rust_b);
                assert_eq!(byte == 1, contact.is_some(), "{name_a}–{name_b} at {x}");
                if let Some(contact) = contact {
                    touching += 1;
                    assert_eq!((c.depth, Vec3::from(c.normal)), (contact.depth, contact.normal));
                }
            }
        }
    }
    assert!(touching >= 30, "only {touching} contacts");
}

fn status_of_add(world: *mut PhysWorld, shape: *const PhysShape) -> PhysStatus {
    let mut out = SENTINEL_HANDLE;
    // SAFETY: valid pointers but for what the test passes.
    let status = unsafe { phys_add_shape(world, shape, null(), &mut out) };
    if status != PHYS_OK {
        assert_eq!(out, SENTINEL_HANDLE, "no output on failure");
    }
    status
}

#[test]
fn bad_shapes_are_refused_and_leave_the_world_alone() {
    let world = new_world(None);
    let kept = add_box(world, cube(1.0), &phys_collider_desc_default());
    let unknown = PhysShape {
        kind: 0,
        data: PhysShapeData { sphere: sphere(1.0) },
    };
    assert_eq!(status_of_add(world, &unknown), PHYS_ERROR_INVALID_ARGUMENT);
    assert!(last_error().contains("PHYS_SHAPE"), "{}", last_error());
    let beyond = PhysShape { kind: 12, ..unknown };
    assert_eq!(status_of_add(world, &beyond), PHYS_ERROR_INVALID_ARGUMENT);
    assert_eq!(status_of_add(world, null()), PHYS_ERROR_NULL_POINTER);
    let no_hull = PhysShape {
        kind: PHYS_SHAPE_HULL,
        data: PhysShapeData { hull: null() },
    };
    assert_eq!(status_of_add(world, &no_hull), PHYS_ERROR_NULL_POINTER);
    for bad in NON_FINITE {
        let ball = PhysShape {
            kind: PHYS_SHAPE_SPHERE,
            data: PhysShapeData {
                sphere: PhysSphere {
                    center: v(bad, 0.0, 0.0),
                    radius: 1.0,
                },
            },
        };
        assert_eq!(status_of_add(world, &ball), PHYS_ERROR_NON_FINITE);
        // SAFETY: a live world and collider, a valid shape.
        assert_eq!(unsafe { phys_set_shape(world, kept, &ball) }, PHYS_ERROR_NON_FINITE);
    }
    let inverted = PhysShape {
        kind: PHYS_SHAPE_BOX,
        data: PhysShapeData {
            aabb: aabb(v(1.0, 0.0, 0.0), v(0.0, 1.0, 1.0)),
        },
    };
    assert_eq!(status_of_add(world, &inverted), PHYS_ERROR_INVERTED_BOX);
    assert_eq!(count(world), 1);
    let mut bounds = sentinel_aabb();
    // SAFETY: a live world, a valid out-pointer.
    assert_eq!(unsafe { phys_get_world_aabb(world, kept, &mut bounds) }, PHYS_OK);
    assert_eq!(
        (Vec3::from(bounds.min), Vec3::from(bounds.max)),
        (Vec3::splat(-1.0), Vec3::ONE)
    );
    // A mesh is no probe.
    let shared = Shared::new();
    let mesh = PhysShape {
        kind: PHYS_SHAPE_MESH,
        data: PhysShapeData { mesh: shared.mesh },
    };
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    // SAFETY: valid pointers, capacity 0 with a NULL buffer.
    let status = unsafe { phys_overlap_shape(world, &mesh, null(), null_mut(), 0, &mut written, &mut total) };
    assert_eq!(status, PHYS_ERROR_INVALID_ARGUMENT);
    assert_eq!((written, total), (SENTINEL_USIZE, SENTINEL_USIZE));
    // Two meshes are never measured against each other.
    let mut d = PhysDistance::default();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { phys_shape_distance(&mesh, &mesh, &mut d) },
        PHYS_ERROR_INVALID_ARGUMENT
    );
    // A set_shape to another kind keeps the collider and its user data.
    let ball = PhysShape {
        kind: PHYS_SHAPE_SPHERE,
        data: PhysShapeData { sphere: sphere(2.0) },
    };
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_set_shape(world, kept, &ball) }, PHYS_OK);
    // SAFETY: a live world, a valid out-pointer.
    assert_eq!(unsafe { phys_get_world_aabb(world, kept, &mut bounds) }, PHYS_OK);
    assert_eq!(Vec3::from(bounds.max), Vec3::splat(2.0));
    // A hull of too few points is a status, and no handle.
    let mut hull = SENTINEL_HULL;
    let points = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    // SAFETY: an array of 3 points.
    assert_eq!(
        unsafe { phys_hull_create(points.as_ptr(), 3, &mut hull) },
        PHYS_ERROR_INVALID_ARGUMENT
    );
    assert_eq!(hull, SENTINEL_HULL);
    // SAFETY: NULL is accepted.
    unsafe {
        phys_hull_destroy(null_mut());
        phys_mesh_destroy(null_mut());
        phys_world_destroy(world);
    }
}

/// An address no hull has, to see that a failing create writes nothing.
const SENTINEL_HULL: *mut PhysHull = 0x10 as *mut PhysHull;

#[test]
fn move_and_slide_returns_its_hits_and_pushes_out_of_a_start_inside() {
    let world = new_world(None);
    let mut rust = World::new();
    let wall = add_box(
        world,
        aabb(v(2.0, -5.0, -5.0), v(3.0, 5.0, 5.0)),
        &desc(7, 0.0, 0.0, 0.0),
    );
    let floor = add_box(
        world,
        aabb(v(-10.0, -1.0, -10.0), v(10.0, 0.0, 10.0)),
        &desc(8, 0.0, 0.0, 0.0),
    );
    for (min, max, user) in [
        (Vec3::new(2.0, -5.0, -5.0), Vec3::new(3.0, 5.0, 5.0), 7),
        (Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 10.0), 8),
    ] {
        rust.add(ColliderDesc::new(Shape::Aabb(Aabb::new(min, max))).with_user_data(user))
            .unwrap();
    }
    // A capsule standing on the floor, 0.1 into the wall, walking on.
    let axis = (Vec3::new(1.85, 0.251, 0.0), Vec3::new(1.85, 1.25, 0.0));
    let character = Shape::Capsule(Capsule::new(Segment::new(axis.0, axis.1), 0.25));
    let c_character = world_shape(&character);
    let motion = v(0.5, -0.2, 1.0);
    let mut delta = v(f32::NAN, 0.0, 0.0);
    let mut hits = vec![sentinel_hit(); 8];
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    // SAFETY: a buffer of 8 records, valid pointers.
    let status = unsafe {
        phys_move_and_slide(
            world,
            &c_character,
            &motion,
            null(),
            4,
            &mut delta,
            hits.as_mut_ptr(),
            hits.len(),
            &mut written,
            &mut total,
        )
    };
    assert_eq!(status, PHYS_OK, "{}", last_error());
    let want = rust
        .move_and_slide(&character, Vec3::from(motion), &QueryFilter::ALL, 4)
        .unwrap();
    assert_eq!(Vec3::from(delta), want.position_delta);
    assert_eq!((written, total), (want.hits.len(), want.hits.len()));
    assert!(written >= 2, "{want:?}");
    assert_eq!(
        (hits[0].collider, hits[0].t, Vec3::from(hits[0].normal)),
        (wall, 0.0, Vec3::NEG_X)
    );
    assert!(
        hits[..written]
            .iter()
            .any(|h| h.collider == floor && Vec3::from(h.normal) == Vec3::Y),
        "grounded"
    );
    for (got, want) in hits[..written].iter().zip(&want.hits) {
        assert_eq!(
            (got.user_data, got.t, Vec3::from(got.point), Vec3::from(got.normal)),
            (want.user_data, want.t, want.point, want.normal)
        );
    }
    // A buffer too small: the total only, nothing else written.
    let mut short = vec![sentinel_hit(); 1];
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    let mut delta = v(9.0, 9.0, 9.0);
    // SAFETY: a buffer of 1 record.
    let status = unsafe {
        phys_move_and_slide(
            world,
            &c_character,
            &motion,
            null(),
            4,
            &mut delta,
            short.as_mut_ptr(),
            1,
            &mut written,
            &mut total,
        )
    };
    assert_eq!(status, PHYS_ERROR_BUFFER_TOO_SMALL);
    assert_eq!(
        (written, total, Vec3::from(delta)),
        (SENTINEL_USIZE, want.hits.len(), Vec3::splat(9.0))
    );
    assert_eq!(short[0].collider, SENTINEL_HANDLE);
    // NULL with a capacity is a NULL pointer, whatever the count.
    // SAFETY: valid pointers but the buffer.
    let status = unsafe {
        phys_move_and_slide(
            world,
            &c_character,
            &motion,
            null(),
            4,
            &mut delta,
            null_mut(),
            4,
            &mut written,
            &mut total,
        )
    };
    assert_eq!(status, PHYS_ERROR_NULL_POINTER);
    // SAFETY: a live world.
    unsafe { phys_world_destroy(world) };
}

#[test]
fn batches_getters_listing_and_rays_answer_as_the_world_does() {
    let shared = Shared::new();
    let kinds = every_kind(&shared);
    let world = new_world(Some(100));
    // Every kind at once, then read back.
    let shapes: Vec<PhysShape> = kinds.iter().map(|k| k.1).collect();
    let descs: Vec<PhysColliderDesc> = (0..shapes.len())
        .map(|i| desc(i as u64, 4.0 * i as f32, 0.0, 0.0))
        .collect();
    let mut handles = vec![SENTINEL_HANDLE; shapes.len()];
    // SAFETY: arrays of `shapes.len()` records.
    let status = unsafe {
        phys_add_shapes(
            world,
            shapes.as_ptr(),
            descs.as_ptr(),
            shapes.len(),
            handles.as_mut_ptr(),
        )
    };
    assert_eq!(status, PHYS_OK, "{}", last_error());
    for ((name, _, rust_shape), &handle) in kinds.iter().zip(&handles) {
        let mut got = PhysShape {
            kind: 0,
            data: PhysShapeData { sphere: sphere(0.0) },
        };
        // SAFETY: a live world and collider, a valid out-pointer.
        assert_eq!(unsafe { phys_get_shape(world, handle, &mut got) }, PHYS_OK);
        // The shape read back adds a collider equal to the first.
        let mut again = SENTINEL_HANDLE;
        // SAFETY: as above; a hull or mesh shape holds a new handle.
        assert_eq!(
            unsafe { phys_add_shape(world, &got, null(), &mut again) },
            PHYS_OK,
            "{name}"
        );
        let (mut first, mut second) = (sentinel_aabb(), sentinel_aabb());
        // SAFETY: live colliders, valid out-pointers.
        unsafe {
            assert_eq!(phys_get_world_aabb(world, handle, &mut first), PHYS_OK);
            assert_eq!(phys_get_world_aabb(world, again, &mut second), PHYS_OK);
            assert_eq!(phys_remove(world, again), PHYS_OK);
            match got.kind {
                PHYS_SHAPE_HULL => phys_hull_destroy(got.data.hull.cast_mut()),
                PHYS_SHAPE_MESH => phys_mesh_destroy(got.data.mesh.cast_mut()),
                PHYS_SHAPE_HEIGHTFIELD => phys_heightfield_destroy(got.data.heightfield.cast_mut()),
                _ => {}
            }
        }
        let offset = Vec3::new(
            4.0 * handles.iter().position(|&h| h == handle).unwrap() as f32,
            0.0,
            0.0,
        );
        let want = rust_shape.bounding_aabb();
        // Equal up to the rounding of placing a rotation.
        assert!(
            (Vec3::from(first.min) - Vec3::from(second.min) - offset).length() < 1e-5,
            "{name}"
        );
        assert!((Vec3::from(second.min) - want.min).length() < 1e-6, "{name}");
        assert!((Vec3::from(second.max) - want.max).length() < 1e-6, "{name}");
    }
    // Every live collider, with its user data.
    let mut listed = vec![PhysColliderRef::default(); 16];
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    // SAFETY: a buffer of 16 records.
    let status = unsafe { phys_world_colliders(world, listed.as_mut_ptr(), listed.len(), &mut written, &mut total) };
    assert_eq!((status, written, total), (PHYS_OK, handles.len(), handles.len()));
    let mut users: Vec<u64> = listed[..written].iter().map(|r| r.user_data).collect();
    users.sort_unstable();
    assert_eq!(users, (0..handles.len() as u64).collect::<Vec<_>>());
    // Every kind becomes a ball at once; a stale handle in the batch
    // changes nothing.
    let balls = vec![world_shape(&Shape::Sphere(Sphere::new(Vec3::ZERO, 0.5))); handles.len()];
    let mut stale = handles.clone();
    stale[3] = SENTINEL_HANDLE;
    // SAFETY: arrays of `handles.len()` records.
    unsafe {
        assert_eq!(
            phys_set_shapes(world, stale.as_ptr(), balls.as_ptr(), balls.len()),
            PHYS_ERROR_STALE_HANDLE
        );
        let mut bounds = sentinel_aabb();
        assert_eq!(phys_get_world_aabb(world, handles[0], &mut bounds), PHYS_OK);
        assert_eq!(Vec3::from(bounds.max), Vec3::ONE, "unchanged");
        assert_eq!(
            phys_set_shapes(world, handles.as_ptr(), balls.as_ptr(), balls.len()),
            PHYS_OK
        );
        assert_eq!(phys_get_world_aabb(world, handles[0], &mut bounds), PHYS_OK);
        assert_eq!(Vec3::from(bounds.max), Vec3::splat(0.5));
    }
    // A ray with a maximum t, in units of its direction.
    let ray = PhysRay {
        origin: v(-10.0, 0.0, 0.0),
        direction: v(2.0, 0.0, 0.0),
    };
    let (mut hit, mut byte) = (sentinel_hit(), SENTINEL_BOOL_BYTE);
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            phys_cast_ray(world, &ray, 10.0, null(), bool_out(&mut byte), &mut hit),
            PHYS_OK
        );
        assert_eq!((byte, hit.collider, hit.t), (1, handles[0], 4.75));
        assert_eq!(
            phys_cast_ray(world, &ray, 4.0, null(), bool_out(&mut byte), &mut hit),
            PHYS_OK
        );
        assert_eq!(byte, 0);
        assert_eq!(
            phys_cast_ray(world, &ray, -1.0, null(), bool_out(&mut byte), &mut hit),
            PHYS_ERROR_INVALID_ARGUMENT
        );
    }
    // Getters of what the setters set.
    let (mut category, mut mask, mut limit, mut threads) = (0u64, 0u64, 0usize, 7u32);
    let mut rotate = SENTINEL_BOOL_BYTE;
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(phys_set_filter(world, handles[1], 4, 6), PHYS_OK);
        assert_eq!(phys_get_filter(world, handles[1], &mut category, &mut mask), PHYS_OK);
        assert_eq!(phys_set_should_rotate(world, handles[1], false), PHYS_OK);
        assert_eq!(
            phys_get_should_rotate(world, handles[1], bool_out(&mut rotate)),
            PHYS_OK
        );
        assert_eq!(phys_world_max_colliders(world, &mut limit), PHYS_OK);
        assert_eq!(phys_world_thread_count(world, &mut threads), PHYS_OK);
        assert_eq!(threads, 0, "a new C world: one thread per core");
        assert_eq!(phys_world_set_thread_count(world, 3), PHYS_OK);
        assert_eq!(phys_world_thread_count(world, &mut threads), PHYS_OK);
    }
    assert_eq!((category, mask, rotate, limit, threads), (4, 6, 0, 100, 3));
    // SAFETY: a live world.
    unsafe { phys_world_destroy(world) };
}
