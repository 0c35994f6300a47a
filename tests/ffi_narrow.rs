//! The narrow-phase C functions against the safe API's answers: colliders
//! of the new shapes, shape casts, the nearest collider, distance, contact
//! and move and slide, with their error statuses (outputs untouched); and
//! every narrow function refuses non-finite numbers, malformed shapes and
//! impossible counts, leaving the world unchanged.

mod common;

use std::ptr::null;

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use common::ffi::*;

struct World(*mut PhysWorld);

impl Drop for World {
    fn drop(&mut self) {
        // SAFETY: created by phys_world_create, destroyed once.
        unsafe { phys_world_destroy(self.0) };
    }
}

fn world() -> World {
    let mut w = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { phys_world_create(&mut w) }, PHYS_OK);
    World(w)
}

fn at(x: f32, y: f32, z: f32) -> PhysColliderDesc {
    let mut d = phys_collider_desc_default();
    d.transform.translation = v(x, y, z);
    d
}

fn ok(status: PhysStatus) {
    assert_eq!(status, PHYS_OK, "{:?}", unsafe {
        std::ffi::CStr::from_ptr(phys_last_error_message())
    });
}

#[test]
fn colliders_of_every_new_shape_are_added_and_hit() {
    let w = world();
    let mut keys = [PhysCollider::default(); 5];
    // SAFETY: valid pointers throughout.
    unsafe {
        let obb = PhysObb {
            center: v(0.0, 0.0, 0.0),
            rotation: IDENTITY,
            half_extents: v(0.5, 0.5, 0.5),
        };
        ok(phys_add_obb(w.0, &obb, &at(0.0, 0.0, 0.0), &mut keys[0]));
        let tri = PhysTriangle {
            a: v(-1.0, -1.0, 0.0),
            b: v(1.0, -1.0, 0.0),
            c: v(0.0, 1.0, 0.0),
        };
        ok(phys_add_triangle(w.0, &tri, &at(0.0, 0.0, 10.0), &mut keys[1]));
        let cylinder = PhysCylinder {
            segment: PhysSegment {
                start: v(0.0, -1.0, 0.0),
                end: v(0.0, 1.0, 0.0),
            },
            radius: 0.5,
        };
        ok(phys_add_cylinder(w.0, &cylinder, &at(0.0, 0.0, 20.0), &mut keys[2]));
        let cone = PhysCone {
            base_center: v(0.0, -0.5, 0.0),
            apex: v(0.0, 0.5, 0.0),
            radius: 0.5,
        };
        ok(phys_add_cone(w.0, &cone, &at(0.0, 0.0, 30.0), &mut keys[3]));
        let cube: Vec<PhysVec3> = (0..8)
            .map(|i| {
                v(
                    (i & 1) as f32 - 0.5,
                    ((i >> 1) & 1) as f32 - 0.5,
                    ((i >> 2) & 1) as f32 - 0.5,
                )
            })
            .collect();
        ok(phys_add_hull(
            w.0,
            cube.as_ptr(),
            cube.len(),
            &at(0.0, 0.0, 40.0),
            &mut keys[4],
        ));
        let mut count = 0;
        ok(phys_world_count(w.0, &mut count));
        assert_eq!(count, 5);
        // A segment along x through each collider hits its near face at x = −0.5.
        for (i, key) in keys.iter().enumerate() {
            let z = 10.0 * i as f32;
            let y = if i == 3 { -0.25 } else { 0.0 };
            let s = PhysSegment {
                start: v(-5.0, y, z),
                end: v(5.0, y, z),
            };
            let (mut hit, mut out) = (false, PhysHit::default());
            ok(phys_segment_cast(w.0, &s, null(), &mut hit, &mut out));
            if i == 1 {
                assert!(!hit, "a segment in the triangle's plane misses it");
                continue;
            }
            assert!(hit && out.collider == *key, "shape {i}");
            let expected = if i == 3 { 0.375 } else { 0.5 };
            assert!((out.point.x + expected).abs() < 1e-4, "shape {i}: {out:?}");
        }
        // Too few points, a flat scale: refused, nothing added.
        let mut out = PhysCollider { bits: 7 };
        assert_eq!(
            phys_add_hull(w.0, cube.as_ptr(), 3, null(), &mut out),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        let mut flat = at(0.0, 0.0, 0.0);
        flat.transform.scale = v(1.0, 0.0, 1.0);
        assert_eq!(
            phys_add_hull(w.0, cube.as_ptr(), 8, &flat, &mut out),
            PHYS_ERROR_INVALID_ARGUMENT
        );
        let bad_cone = PhysCone {
            radius: -1.0,
            ..Default::default()
        };
        assert_eq!(
            phys_add_cone(w.0, &bad_cone, null(), &mut out),
            PHYS_ERROR_NEGATIVE_RADIUS
        );
        assert_eq!(out.bits, 7);
        ok(phys_world_count(w.0, &mut count));
        assert_eq!(count, 5);
        // Overlap with an oriented box.
        let probe = PhysObb {
            center: v(0.0, 0.0, 10.0),
            rotation: IDENTITY,
            half_extents: v(0.5, 0.5, 0.5),
        };
        let mut found = [PhysColliderRef::default(); 4];
        let (mut written, mut total) = (0, 0);
        ok(phys_overlap_obb(
            w.0,
            &probe,
            null(),
            found.as_mut_ptr(),
            found.len(),
            &mut written,
            &mut total,
        ));
        assert_eq!((written, found[0].collider), (1, keys[1]));
    }
}

#[test]
fn shape_casts_closest_distance_contact_and_slide() {
    let w = world();
    let (mut wall, mut ball) = (PhysCollider::default(), PhysCollider::default());
    // SAFETY: valid pointers throughout.
    unsafe {
        let slab = PhysAabb {
            min: v(4.0, -5.0, -5.0),
            max: v(5.0, 5.0, 5.0),
        };
        ok(phys_add_box(w.0, &slab, null(), &mut wall));
        let sphere = PhysSphere {
            center: v(0.0, 0.0, 0.0),
            radius: 1.0,
        };
        ok(phys_add_sphere(w.0, &sphere, &at(-10.0, 0.0, 0.0), &mut ball));

        let motion = v(10.0, 0.0, 0.0);
        let (mut hit, mut out) = (false, PhysShapeHit::default());
        ok(phys_shape_cast_sphere(
            w.0,
            &sphere,
            &motion,
            null(),
            &mut hit,
            &mut out,
        ));
        assert!(
            hit && out.collider == wall && out.t == 0.3 && out.normal == v(-1.0, 0.0, 0.0),
            "{out:?}"
        );
        let pill = PhysCapsule {
            segment: PhysSegment {
                start: v(0.0, -1.0, 0.0),
                end: v(0.0, 1.0, 0.0),
            },
            radius: 1.0,
        };
        ok(phys_shape_cast_capsule(w.0, &pill, &motion, null(), &mut hit, &mut out));
        assert!(hit && out.collider == wall && (out.t - 0.3).abs() < 1e-5, "{out:?}");
        let crate_ = PhysAabb {
            min: v(-1.0, -1.0, -1.0),
            max: v(1.0, 1.0, 1.0),
        };
        ok(phys_shape_cast_box(w.0, &crate_, &motion, null(), &mut hit, &mut out));
        assert!(hit && out.collider == wall && (out.t - 0.3).abs() < 1e-5, "{out:?}");
        let away = v(0.0, 10.0, 0.0);
        let before = out;
        ok(phys_shape_cast_box(w.0, &crate_, &away, null(), &mut hit, &mut out));
        assert!(!hit && out == before, "a miss leaves out alone");
        let nan = v(f32::NAN, 0.0, 0.0);
        hit = true;
        assert_eq!(
            phys_shape_cast_sphere(w.0, &sphere, &nan, null(), &mut hit, &mut out),
            PHYS_ERROR_NON_FINITE
        );
        assert!(hit && out == before);

        let mut closest = PhysClosest::default();
        ok(phys_closest_point(
            w.0,
            &v(-6.0, 0.0, 0.0),
            10.0,
            null(),
            &mut hit,
            &mut closest,
        ));
        assert!(
            hit && closest.collider == ball && (closest.distance.distance - 3.0).abs() < 1e-5,
            "{closest:?}"
        );
        ok(phys_closest_point(
            w.0,
            &v(-6.0, 0.0, 0.0),
            1.0,
            null(),
            &mut hit,
            &mut closest,
        ));
        assert!(!hit);
        assert_eq!(
            phys_closest_point(w.0, &v(0.0, 0.0, 0.0), -1.0, null(), &mut hit, &mut closest),
            PHYS_ERROR_INVALID_ARGUMENT
        );

        let mut d = PhysDistance::default();
        ok(phys_distance(w.0, ball, wall, &mut d));
        assert!(
            (d.distance - 13.0).abs() < 1e-5 && d.normal == v(1.0, 0.0, 0.0),
            "{d:?}"
        );
        let mut touching = true;
        let mut c = PhysContact::default();
        ok(phys_contact(w.0, ball, wall, &mut touching, &mut c));
        assert!(!touching && c == PhysContact::default());
        let mut moved = at(3.5, 0.0, 0.0);
        moved.user_data = 1;
        ok(phys_set_transform(w.0, ball, &moved.transform));
        ok(phys_contact(w.0, wall, ball, &mut touching, &mut c));
        assert!(touching && c.depth == 0.5 && c.normal == v(-1.0, 0.0, 0.0), "{c:?}");
        ok(phys_remove(w.0, ball));
        assert_eq!(phys_distance(w.0, ball, wall, &mut d), PHYS_ERROR_STALE_HANDLE);
        assert_eq!(
            phys_contact(w.0, wall, ball, &mut touching, &mut c),
            PHYS_ERROR_STALE_HANDLE
        );

        let mut delta = v(0.0, 0.0, 0.0);
        let mut hits = 0usize;
        ok(phys_move_and_slide_capsule(
            w.0,
            &pill,
            &v(6.0, 0.0, 2.0),
            null(),
            4,
            &mut delta,
            &mut hits,
        ));
        assert!(
            (delta.x - (3.0 - MOVE_SKIN)).abs() < 1e-4 && (delta.z - 2.0).abs() < 1e-4,
            "{delta:?}"
        );
        assert_eq!(hits, 1);
        let bad = PhysCapsule { radius: -1.0, ..pill };
        assert_eq!(
            phys_move_and_slide_capsule(w.0, &bad, &v(1.0, 0.0, 0.0), null(), 4, &mut delta, &mut hits),
            PHYS_ERROR_NEGATIVE_RADIUS
        );
        assert_eq!(hits, 1);
    }
}

const MOVE_SKIN: f32 = collide::MOVE_AND_SLIDE_SKIN;

// ---------------------------------------------------------------------------
// Refusals of the narrow phase's functions (`src/ffi/narrow.rs`).

/// `phys_shape_cast_*`, `phys_closest_point` and
/// `phys_move_and_slide_capsule` with the given inputs: the status, and
/// whether every output kept its sentinel.
fn narrow_query(world: *const PhysWorld, query: &NarrowQuery) -> (PhysStatus, bool) {
    let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
    let closest_sentinel = PhysClosest {
        collider: SENTINEL_HANDLE,
        user_data: SENTINEL_U64,
        distance: PhysDistance::default(),
    };
    let mut closest = closest_sentinel;
    let (mut delta, mut hits) = (v(777.0, 777.0, 777.0), SENTINEL_USIZE);
    // SAFETY: valid pointers; collide reads the numbers.
    let status = unsafe {
        match query {
            NarrowQuery::CastSphere(s, m) => {
                phys_shape_cast_sphere(world, s, m, null(), bool_out(&mut hit_byte), &mut hit)
            }
            NarrowQuery::CastCapsule(c, m) => {
                phys_shape_cast_capsule(world, c, m, null(), bool_out(&mut hit_byte), &mut hit)
            }
            NarrowQuery::CastBox(b, m) => phys_shape_cast_box(world, b, m, null(), bool_out(&mut hit_byte), &mut hit),
            NarrowQuery::Closest(p, max_distance) => {
                phys_closest_point(world, p, *max_distance, null(), bool_out(&mut hit_byte), &mut closest)
            }
            NarrowQuery::Slide(c, m) => phys_move_and_slide_capsule(world, c, m, null(), 4, &mut delta, &mut hits),
        }
    };
    let untouched = hit_byte == SENTINEL_BOOL_BYTE
        && hit == sentinel_shape_hit()
        && closest == closest_sentinel
        && delta == v(777.0, 777.0, 777.0)
        && hits == SENTINEL_USIZE;
    (status, untouched)
}

/// The inputs of one narrow-phase query.
enum NarrowQuery {
    CastSphere(PhysSphere, PhysVec3),
    CastCapsule(PhysCapsule, PhysVec3),
    CastBox(PhysAabb, PhysVec3),
    Closest(PhysVec3, f32),
    Slide(PhysCapsule, PhysVec3),
}

/// A hull's points and a mesh's vertices: a unit cube's corners, and a
/// floor triangle.
fn cube_points() -> Vec<PhysVec3> {
    (0..8)
        .map(|i| v((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
        .collect()
}

fn floor_vertices() -> Vec<PhysVec3> {
    vec![v(-5.0, -3.0, -5.0), v(5.0, -3.0, -5.0), v(0.0, -3.0, 5.0)]
}

#[test]
fn narrow_functions_refuse_non_finite_numbers() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    let nf = PHYS_ERROR_NON_FINITE;
    // SAFETY (every `unsafe` below): valid pointers; collide reads the numbers.
    for (what, p) in non_finite_vecs(v(0.5, 0.5, 0.5)) {
        let o = PhysObb { center: p, ..obb(1.0) };
        f.refuses_add(nf, &format!("add_obb center.{what}"), |out| unsafe {
            phys_add_obb(w, &o, &d, out)
        });
        let o = PhysObb {
            half_extents: p,
            ..obb(1.0)
        };
        f.refuses_add(nf, &format!("add_obb half_extents.{what}"), |out| unsafe {
            phys_add_obb(w, &o, &d, out)
        });
        let t = PhysTriangle {
            a: v(0.0, 0.0, 0.0),
            b: v(1.0, 0.0, 0.0),
            c: p,
        };
        f.refuses_add(nf, &format!("add_triangle c.{what}"), |out| unsafe {
            phys_add_triangle(w, &t, &d, out)
        });
        let c = PhysCylinder {
            segment: segment(v(0.0, 0.0, 0.0), p),
            radius: 1.0,
        };
        f.refuses_add(nf, &format!("add_cylinder end.{what}"), |out| unsafe {
            phys_add_cylinder(w, &c, &d, out)
        });
        for cone in [
            PhysCone {
                base_center: p,
                apex: v(0.0, 2.0, 0.0),
                radius: 1.0,
            },
            PhysCone {
                base_center: v(0.0, 0.0, 0.0),
                apex: p,
                radius: 1.0,
            },
        ] {
            f.refuses_add(nf, &format!("add_cone {what}"), |out| unsafe {
                phys_add_cone(w, &cone, &d, out)
            });
        }
        let mut points = cube_points();
        points[5] = p;
        f.refuses_add(nf, &format!("add_hull point.{what}"), |out| unsafe {
            phys_add_hull(w, points.as_ptr(), points.len(), &d, out)
        });
        let mut vertices = floor_vertices();
        vertices[1] = p;
        f.refuses_add(nf, &format!("add_mesh vertex.{what}"), |out| unsafe {
            phys_add_mesh(w, vertices.as_ptr(), 3, [0u32, 1, 2].as_ptr(), 3, &d, out)
        });
        let o = PhysObb { center: p, ..obb(1.0) };
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        f.refuses(nf, &format!("overlap_obb center.{what}"), || unsafe {
            phys_overlap_obb(w, &o, null(), std::ptr::null_mut(), 0, &mut written, &mut total)
        });
        assert_eq!(
            (written, total),
            (SENTINEL_USIZE, SENTINEL_USIZE),
            "overlap_obb wrote on failure"
        );
        // The moving shape's numbers, the motion's, the point's.
        let good = v(0.0, 1.0, 0.0);
        let queries = [
            NarrowQuery::CastSphere(PhysSphere { center: p, radius: 0.5 }, good),
            NarrowQuery::CastSphere(sphere(0.5), p),
            NarrowQuery::CastCapsule(
                PhysCapsule {
                    segment: segment(p, good),
                    radius: 0.5,
                },
                good,
            ),
            NarrowQuery::CastCapsule(capsule(0.5), p),
            NarrowQuery::CastBox(aabb(p, v(1.0, 1.0, 1.0)), good),
            NarrowQuery::CastBox(cube(0.5), p),
            NarrowQuery::Closest(p, 1.0),
            NarrowQuery::Slide(
                PhysCapsule {
                    segment: segment(good, p),
                    radius: 0.5,
                },
                good,
            ),
            NarrowQuery::Slide(capsule(0.5), p),
        ];
        for (i, q) in queries.iter().enumerate() {
            let what = format!("narrow query {i} with {what}");
            let mut untouched = false;
            f.refuses(nf, &what, || {
                let (status, kept) = narrow_query(w, q);
                untouched = kept;
                status
            });
            assert!(untouched, "{what}: an output was written");
        }
    }
    for (what, rotation) in non_finite_quats(IDENTITY) {
        let o = PhysObb { rotation, ..obb(1.0) };
        f.refuses_add(nf, &format!("add_obb rotation.{what}"), |out| unsafe {
            phys_add_obb(w, &o, &d, out)
        });
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        f.refuses(nf, &format!("overlap_obb rotation.{what}"), || unsafe {
            phys_overlap_obb(w, &o, null(), std::ptr::null_mut(), 0, &mut written, &mut total)
        });
    }
    for x in NON_FINITE {
        let c = PhysCylinder {
            segment: segment(v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)),
            radius: x,
        };
        f.refuses_add(nf, &format!("add_cylinder radius {x}"), |out| unsafe {
            phys_add_cylinder(w, &c, &d, out)
        });
        let cone = PhysCone {
            base_center: v(0.0, 0.0, 0.0),
            apex: v(0.0, 1.0, 0.0),
            radius: x,
        };
        f.refuses_add(nf, &format!("add_cone radius {x}"), |out| unsafe {
            phys_add_cone(w, &cone, &d, out)
        });
        for q in [
            NarrowQuery::CastSphere(sphere(x), v(0.0, 1.0, 0.0)),
            NarrowQuery::CastCapsule(capsule(x), v(0.0, 1.0, 0.0)),
            NarrowQuery::Closest(v(0.0, 0.0, 0.0), x),
            NarrowQuery::Slide(capsule(x), v(0.0, 1.0, 0.0)),
        ] {
            let (status, untouched) = f.snapshot_unchanged(|| narrow_query(w, &q));
            assert_eq!(status, nf, "radius or max_distance {x}: {}", last_error());
            assert!(untouched);
        }
    }
    // A finite motion carrying the shape beyond f32, a finite radius
    // growing the search box beyond it.
    for q in [
        NarrowQuery::CastSphere(
            PhysSphere {
                center: v(3.0e38, 0.0, 0.0),
                radius: 1.0,
            },
            v(1.0e38, 0.0, 0.0),
        ),
        NarrowQuery::Slide(
            PhysCapsule {
                segment: segment(v(3.0e38, 0.0, 0.0), v(3.0e38, 1.0, 0.0)),
                radius: 1.0,
            },
            v(1.0e38, 0.0, 0.0),
        ),
        NarrowQuery::Closest(v(3.0e38, 0.0, 0.0), 1.0e38),
    ] {
        let (status, untouched) = f.snapshot_unchanged(|| narrow_query(w, &q));
        assert_eq!(status, nf, "an overflowing motion or radius: {}", last_error());
        assert!(untouched);
    }
}

#[test]
fn narrow_functions_refuse_malformed_shapes_and_counts() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    let invalid = PHYS_ERROR_INVALID_ARGUMENT;
    // SAFETY (every `unsafe` below): valid pointers; every array holds at
    // least its count of records, or the count's byte length overflows
    // `isize` (refused before anything is read).
    for axis in 0..3 {
        let o = PhysObb {
            half_extents: with_component(v(1.0, 1.0, 1.0), axis, -0.25),
            ..obb(1.0)
        };
        f.refuses_add(
            PHYS_ERROR_INVERTED_BOX,
            &format!("add_obb half-extent {axis} < 0"),
            |out| unsafe { phys_add_obb(w, &o, &d, out) },
        );
    }
    let skewed = PhysObb {
        rotation: PhysQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.01,
        },
        ..obb(1.0)
    };
    f.refuses_add(invalid, "add_obb with a non-unit rotation", |out| unsafe {
        phys_add_obb(w, &skewed, &d, out)
    });
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    f.refuses(invalid, "overlap_obb with a non-unit rotation", || unsafe {
        phys_overlap_obb(w, &skewed, null(), std::ptr::null_mut(), 0, &mut written, &mut total)
    });
    let c = PhysCylinder {
        segment: segment(v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)),
        radius: -1.0,
    };
    f.refuses_add(PHYS_ERROR_NEGATIVE_RADIUS, "add_cylinder radius -1", |out| unsafe {
        phys_add_cylinder(w, &c, &d, out)
    });
    let cone = PhysCone {
        base_center: v(0.0, 0.0, 0.0),
        apex: v(0.0, 1.0, 0.0),
        radius: -1.0,
    };
    f.refuses_add(PHYS_ERROR_NEGATIVE_RADIUS, "add_cone radius -1", |out| unsafe {
        phys_add_cone(w, &cone, &d, out)
    });

    // Hulls: too few points (0–3 of the cube's), coplanar ones (a face),
    // coincident ones, a count whose byte length overflows.
    let cube = cube_points();
    let face = [cube[0], cube[1], cube[2], cube[3], v(0.5, 0.5, 0.0)];
    let same = [v(1.0, 2.0, 3.0); 5];
    let hulls: [(&str, *const PhysVec3, usize); 7] = [
        ("0 points", cube.as_ptr(), 0),
        ("3 points", cube.as_ptr(), 3),
        ("a face", face.as_ptr(), face.len()),
        ("one point five times", same.as_ptr(), same.len()),
        ("count usize::MAX", cube.as_ptr(), usize::MAX),
        ("count isize::MAX / 4", cube.as_ptr(), isize::MAX as usize / 4),
        (
            "count past isize::MAX bytes",
            cube.as_ptr(),
            isize::MAX as usize / 12 + 1,
        ),
    ];
    for (what, points, count) in hulls {
        f.refuses_add(invalid, &format!("add_hull {what}"), |out| unsafe {
            phys_add_hull(w, points, count, &d, out)
        });
    }
    // A hull's scale must have no zero component.
    let flat = PhysColliderDesc {
        transform: PhysTransform {
            scale: v(1.0, 0.0, 1.0),
            ..translation(20.0, 0.0, 0.0)
        },
        ..d
    };
    f.refuses_add(invalid, "add_hull with a zero scale", |out| unsafe {
        phys_add_hull(w, cube.as_ptr(), cube.len(), &flat, out)
    });

    // Meshes: no triangle, a count not a multiple of 3, an index out of
    // range, counts whose byte lengths overflow.
    let vertices = floor_vertices();
    let indices = [0u32, 1, 2, 2, 1, 3];
    let meshes: [(&str, usize, usize); 7] = [
        ("0 indices", 3, 0),
        ("2 indices", 3, 2),
        ("4 indices", 3, 4),
        ("index 3 of 3 vertices", 3, 6),
        ("2 vertices for index 2", 2, 3),
        ("vertex_count usize::MAX", usize::MAX, 3),
        ("index_count usize::MAX", 3, usize::MAX),
    ];
    for (what, vertex_count, index_count) in meshes {
        f.refuses_add(invalid, &format!("add_mesh {what}"), |out| unsafe {
            phys_add_mesh(
                w,
                vertices.as_ptr(),
                vertex_count,
                indices.as_ptr(),
                index_count,
                &d,
                out,
            )
        });
    }

    // A full world: the shape is read (a hull or mesh built) first, then
    // the world refuses.
    let full = new_world(Some(0));
    let mut out = SENTINEL_HANDLE;
    let tri = PhysTriangle {
        a: v(0.0, 0.0, 0.0),
        b: v(1.0, 0.0, 0.0),
        c: v(0.0, 1.0, 0.0),
    };
    let cylinder = PhysCylinder {
        segment: segment(v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)),
        radius: 1.0,
    };
    let upright = PhysCone { radius: 1.0, ..cone };
    // SAFETY: valid pointers; the arrays hold their counts.
    let statuses = unsafe {
        [
            phys_add_obb(full, &obb(1.0), null(), &mut out),
            phys_add_triangle(full, &tri, null(), &mut out),
            phys_add_cylinder(full, &cylinder, null(), &mut out),
            phys_add_cone(full, &upright, null(), &mut out),
            phys_add_hull(full, cube.as_ptr(), cube.len(), null(), &mut out),
            phys_add_mesh(full, vertices.as_ptr(), 3, indices.as_ptr(), 3, null(), &mut out),
            phys_add_hull(full, cube.as_ptr(), 3, null(), &mut out),
        ]
    };
    assert_eq!(statuses[..6], [PHYS_ERROR_CAPACITY_EXCEEDED; 6]);
    assert_eq!(statuses[6], invalid, "a bad hull is refused before the capacity");
    assert_eq!((out, count(full)), (SENTINEL_HANDLE, 0));
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(full) };

    // Malformed moving shapes.
    for (q, status) in [
        (
            NarrowQuery::CastSphere(sphere(-1.0), v(0.0, 1.0, 0.0)),
            PHYS_ERROR_NEGATIVE_RADIUS,
        ),
        (
            NarrowQuery::CastCapsule(capsule(-1.0), v(0.0, 1.0, 0.0)),
            PHYS_ERROR_NEGATIVE_RADIUS,
        ),
        (
            NarrowQuery::Slide(capsule(-1.0), v(0.0, 1.0, 0.0)),
            PHYS_ERROR_NEGATIVE_RADIUS,
        ),
        (
            NarrowQuery::CastBox(aabb(v(0.0, 1.0, 0.0), v(1.0, 0.0, 1.0)), v(0.0, 1.0, 0.0)),
            PHYS_ERROR_INVERTED_BOX,
        ),
    ] {
        assert_eq!(
            f.snapshot_unchanged(|| narrow_query(w, &q)),
            (status, true),
            "{}",
            last_error()
        );
    }

    // A negative search radius.
    let (status, untouched) = f.snapshot_unchanged(|| narrow_query(w, &NarrowQuery::Closest(v(0.0, 0.0, 0.0), -1.0)));
    assert_eq!((status, untouched), (invalid, true), "closest_point within -1");

    // overlap_obb into a short buffer: only the total.
    let mut refs = [PhysColliderRef::default(); 1];
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    // SAFETY: one writable record.
    let status = unsafe { phys_overlap_obb(w, &obb(1.0), null(), refs.as_mut_ptr(), 1, &mut written, &mut total) };
    assert_eq!(
        (status, written, total, refs[0]),
        (
            PHYS_ERROR_BUFFER_TOO_SMALL,
            SENTINEL_USIZE,
            3,
            PhysColliderRef::default()
        ),
        "the probe, the ball and the pill overlap the box"
    );
}
