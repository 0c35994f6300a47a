//! The narrow-phase C functions against the safe API's answers: colliders
//! of the new shapes, shape casts, the nearest collider, distance, contact
//! and move and slide, with their error statuses (outputs untouched).

use std::ptr::null;

use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;

const IDENTITY: PhysQuat = PhysQuat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 1.0,
};

fn v(x: f32, y: f32, z: f32) -> PhysVec3 {
    PhysVec3 { x, y, z }
}

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
