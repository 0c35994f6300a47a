//! Every `PhysStatus` the C ABI can return (but `PHYS_ERROR_PANIC`, covered
//! by the unit test in `src/ffi/error.rs`), provoked by calling the
//! `extern "C"` functions exactly as C does: the status strings, then NULL
//! and misaligned pointers, NaN and infinities, inverted boxes, negative
//! radii, unknown flags and non-unit rotations. The other statuses are
//! provoked by the file of their area: stale and forged handles and full
//! worlds in `ffi_world.rs`, short buffers in `ffi_queries.rs`, busy worlds
//! in `ffi_access.rs`, impossible counts and out of memory in
//! `ffi_counts.rs`, the narrow functions' refusals in `ffi_narrow.rs`.
//!
//! After every failing call the test checks the header's promise (with the
//! harness of `tests/common/ffi.rs`): the world
//! is unchanged (count, pairs, and each collider's world box, user data and
//! transform) and no output was written (outputs are pre-filled with
//! sentinels), except `*total` for `PHYS_ERROR_BUFFER_TOO_SMALL`.

mod common;

use std::collections::BTreeMap;
use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut, NonNull};

use collide::ffi::world::*;
use collide::ffi::PhysStatus::{self, *};
use collide::ffi::*;
use collide::math::Vec3;
use collide::{Error, Shape, Transform};
use common::bad::{malformed_descs, non_finite_descs, segments_with_a_non_finite_number};
use common::ffi::*;

// ---------------------------------------------------------------------------
// Status strings and version.

/// Every status, in code order.
const ALL: [PhysStatus; 12] = [
    PHYS_OK,
    PHYS_ERROR_NULL_POINTER,
    PHYS_ERROR_NON_FINITE,
    PHYS_ERROR_INVERTED_BOX,
    PHYS_ERROR_NEGATIVE_RADIUS,
    PHYS_ERROR_STALE_HANDLE,
    PHYS_ERROR_INVALID_ARGUMENT,
    PHYS_ERROR_BUFFER_TOO_SMALL,
    PHYS_ERROR_CAPACITY_EXCEEDED,
    PHYS_ERROR_PANIC,
    PHYS_ERROR_OUT_OF_MEMORY,
    PHYS_ERROR_WORLD_BUSY,
];

fn status_string(code: u32) -> &'static str {
    // SAFETY: phys_status_string returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(phys_status_string(code)) }.to_str().unwrap()
}

#[test]
fn status_strings_describe_every_code_and_unknown_ones() {
    let expected = [
        "success",
        "a required pointer was NULL",
        "an input number was NaN or infinite",
        "a box had min > max",
        "a radius was negative",
        "the collider handle is null, removed or foreign",
        "an argument was malformed",
        "the output buffer is too small",
        "the world is full",
        "internal error: collide panicked",
        "out of memory",
        "another call is running on the world",
    ];
    for (code, (status, text)) in ALL.iter().zip(expected).enumerate() {
        assert_eq!(*status as u32, code as u32, "{status:?} has code {code}");
        assert_eq!(status_string(code as u32), text, "{status:?}");
        assert_eq!(status.description().to_str().unwrap(), text);
    }
    for unknown in [12, 13, 0x8000_0000, u32::MAX] {
        assert_eq!(status_string(unknown), "unknown status code");
    }
    // The same static string every time, not a fresh allocation.
    assert_eq!(phys_status_string(3), phys_status_string(3));
}

#[test]
fn version_matches_the_package() {
    // SAFETY: a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(phys_version()) };
    assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    let part = |s: &str| s.parse::<u32>().unwrap();
    let number = (part(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
        | (part(env!("CARGO_PKG_VERSION_MINOR")) << 8)
        | part(env!("CARGO_PKG_VERSION_PATCH"));
    assert_eq!(phys_version_number(), number);
    let dotted: Vec<u32> = env!("CARGO_PKG_VERSION").split('.').map(part).collect();
    assert_eq!(dotted, [number >> 16, (number >> 8) & 0xFF, number & 0xFF]);
}

// ---------------------------------------------------------------------------
// NULL and misaligned pointers.

#[derive(Debug, Clone, Copy, PartialEq)]
enum Bad {
    Null,
    Misaligned,
}

/// Which argument of a call to spoil, and how.
type Target<'a> = Option<(&'a str, Bad)>;

/// `ptr`, or a NULL or misaligned copy when `name` is the target.
fn arg<T>(ptr: *mut T, name: &str, target: Target) -> *mut T {
    match target {
        Some((n, Bad::Null)) if n == name => null_mut(),
        // Never dereferenced: collide checks alignment first.
        Some((n, Bad::Misaligned)) if n == name => ptr.cast::<u8>().wrapping_add(1).cast(),
        _ => ptr,
    }
}

fn arg_in<T>(ptr: &T, name: &str, target: Target) -> *const T {
    arg((ptr as *const T).cast_mut(), name, target).cast_const()
}

/// One `phys_*` function, callable with any one pointer argument spoiled;
/// returns the status and whether every output still holds its sentinel.
struct PointerCall {
    function: &'static str,
    args: &'static [&'static str],
    call: SpoiledCall,
}

/// A call with one pointer argument spoiled (or none): its status, and
/// whether its outputs still hold their sentinels.
type SpoiledCall = Box<dyn Fn(Target) -> (PhysStatus, bool)>;

fn pc(
    function: &'static str,
    args: &'static [&'static str],
    call: impl Fn(Target) -> (PhysStatus, bool) + 'static,
) -> PointerCall {
    PointerCall {
        function,
        args,
        call: Box::new(call),
    }
}

/// A callback that ignores its context (which may be NULL).
unsafe extern "C" fn ignore_pair(_: *mut c_void, _: PhysCollider, _: u64, _: PhysCollider, _: u64) {}

/// A query that fills a caller buffer (`phys_segment_cast_all`,
/// `phys_overlap_*`), called with one pointer spoiled: `fill(world, out,
/// capacity, written, total)`. The outputs are untouched when the buffer and
/// both counters hold their sentinels.
fn buffer_call<T: Copy + PartialEq + 'static>(
    world: *mut PhysWorld,
    sentinel: T,
    fill: impl Fn(*mut PhysWorld, *mut T, usize, *mut usize, *mut usize) -> PhysStatus + 'static,
) -> impl Fn(Target) -> (PhysStatus, bool) {
    move |t| {
        let mut buffer = [sentinel; 8];
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        let status = fill(
            arg(world, "world", t),
            arg(buffer.as_mut_ptr(), "out", t),
            buffer.len(),
            arg(&mut written, "written", t),
            arg(&mut total, "total", t),
        );
        let untouched = buffer.iter().all(|p| *p == sentinel) && written == SENTINEL_USIZE && total == SENTINEL_USIZE;
        (status, untouched)
    }
}

/// Counts the lines drawn into `*count`.
unsafe extern "C" fn count_lines(ctx: *mut std::ffi::c_void, _a: PhysVec3, _b: PhysVec3, _color: u32) {
    // SAFETY: `counting_drawer` passes a `usize` as the context.
    unsafe { *ctx.cast::<usize>() += 1 };
}

/// A debug drawer that counts its lines into `count`.
fn counting_drawer(count: &mut usize) -> PhysDebugDraw {
    PhysDebugDraw {
        ctx: (count as *mut usize).cast(),
        line: Some(count_lines),
        triangle: None,
        oriented_box: None,
        sphere: None,
        capsule: None,
        point: None,
        text: None,
    }
}

/// The functions whose `out` points to bytes (`bool*`, `uint8_t*`), which
/// cannot be misaligned.
const BYTE_OUT: [&str; 3] = ["phys_geom_polygon_contains", "phys_geom_intersects", "phys_world_save"];

/// The bytes of the snapshot of `world` (`phys_world_save`).
fn snapshot_of(world: *mut PhysWorld) -> Vec<u8> {
    let (mut written, mut total) = (0, 0);
    // SAFETY: a live world; a NULL buffer of capacity 0 asks for the size.
    unsafe { phys_world_save(world, null_mut(), 0, &mut written, &mut total) };
    let mut bytes = vec![0u8; total];
    // SAFETY: a live world and a buffer of `total` bytes.
    let status = unsafe { phys_world_save(world, bytes.as_mut_ptr(), total, &mut written, &mut total) };
    assert_eq!(status, PHYS_OK);
    bytes
}

/// A `PhysShape` ball of radius 0.5 at `center`.
fn ball_shape(center: PhysVec3) -> PhysShape {
    PhysShape {
        kind: PHYS_SHAPE_SPHERE,
        data: PhysShapeData {
            sphere: PhysSphere { center, radius: 0.5 },
        },
    }
}

/// A filter that accepts every collider.
fn all_filter() -> PhysQueryFilter {
    PhysQueryFilter {
        category_bits: u64::MAX,
        mask_bits: u64::MAX,
        exclude: PhysCollider { bits: 0 },
    }
}

/// A `phys_test_*_into` call over `world` with one pointer spoiled; the
/// outputs are untouched when the buffer and both counters hold their sentinels.
fn pair_buffer_call(world: *mut PhysWorld, finder: BufferFinder) -> impl Fn(Target) -> (PhysStatus, bool) {
    move |t| {
        let mut buffer = [sentinel_pair(); 8];
        let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
        // SAFETY: valid pointers except the spoiled one, which collide checks.
        let status = unsafe {
            finder(
                arg(world, "world", t),
                arg(buffer.as_mut_ptr(), "out", t),
                buffer.len(),
                arg(&mut written, "written", t),
                arg(&mut total, "total", t),
            )
        };
        let untouched =
            buffer.iter().all(|p| *p == sentinel_pair()) && written == SENTINEL_USIZE && total == SENTINEL_USIZE;
        (status, untouched)
    }
}

/// Every `phys_*` function that takes a pointer, over the fixture's world.
/// With nothing spoiled every call succeeds and changes nothing that
/// `Fixture::snapshot` sees, except `phys_add_*` (a new collider far away)
/// and `phys_remove` (of `spare`).
fn pointer_calls(f: &Fixture) -> Vec<PointerCall> {
    let world = f.world;
    let (probe, ball, pill, spare) = (f.probe, f.ball, f.pill, f.spare);
    // SAFETY (for every `unsafe` below): valid pointers except the spoiled
    // one, which collide checks before any use.
    vec![
        pc("phys_world_create", &["out"], |t| {
            let sentinel = NonNull::<PhysWorld>::dangling().as_ptr();
            let mut out = sentinel;
            let status = unsafe { phys_world_create(arg(&mut out, "out", t)) };
            if status == PHYS_OK {
                unsafe { phys_world_destroy(out) };
            }
            (status, out == sentinel)
        }),
        pc("phys_world_create_with_limit", &["out"], |t| {
            let sentinel = NonNull::<PhysWorld>::dangling().as_ptr();
            let mut out = sentinel;
            let status = unsafe { phys_world_create_with_limit(3, arg(&mut out, "out", t)) };
            if status == PHYS_OK {
                unsafe { phys_world_destroy(out) };
            }
            (status, out == sentinel)
        }),
        pc("phys_world_count", &["world", "out"], move |t| {
            let mut out = SENTINEL_USIZE;
            let status = unsafe { phys_world_count(arg(world, "world", t), arg(&mut out, "out", t)) };
            (status, out == SENTINEL_USIZE)
        }),
        pc("phys_add_box", &["world", "object_box", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let status = unsafe {
                phys_add_box(
                    arg(world, "world", t),
                    arg_in(&cube(1.0), "object_box", t),
                    arg_in(&desc(9, 200.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_sphere", &["world", "sphere", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let status = unsafe {
                phys_add_sphere(
                    arg(world, "world", t),
                    arg_in(&sphere(1.0), "sphere", t),
                    arg_in(&desc(9, 200.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_capsule", &["world", "capsule", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let status = unsafe {
                phys_add_capsule(
                    arg(world, "world", t),
                    arg_in(&capsule(1.0), "capsule", t),
                    arg_in(&desc(9, 200.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_remove", &["world"], move |t| {
            (unsafe { phys_remove(arg(world, "world", t), spare) }, true)
        }),
        pc("phys_set_transform", &["world", "transform"], move |t| {
            let same = translation(0.0, 0.0, 0.0);
            let status = unsafe { phys_set_transform(arg(world, "world", t), probe, arg_in(&same, "transform", t)) };
            (status, true)
        }),
        pc("phys_set_transforms", &["world", "colliders", "transforms"], move |t| {
            let same = [translation(0.0, 0.0, 0.0)];
            let status = unsafe {
                phys_set_transforms(
                    arg(world, "world", t),
                    arg_in(&probe, "colliders", t),
                    arg_in(&same[0], "transforms", t),
                    1,
                )
            };
            (status, true)
        }),
        pc("phys_set_box", &["world", "object_box"], move |t| {
            let status = unsafe { phys_set_box(arg(world, "world", t), probe, arg_in(&cube(1.0), "object_box", t)) };
            (status, true)
        }),
        pc("phys_set_sphere", &["world", "sphere"], move |t| {
            let status = unsafe { phys_set_sphere(arg(world, "world", t), ball, arg_in(&sphere(1.0), "sphere", t)) };
            (status, true)
        }),
        pc("phys_set_capsule", &["world", "capsule"], move |t| {
            let status =
                unsafe { phys_set_capsule(arg(world, "world", t), pill, arg_in(&capsule(0.75), "capsule", t)) };
            (status, true)
        }),
        pc("phys_set_should_rotate", &["world"], move |t| {
            (
                unsafe { phys_set_should_rotate(arg(world, "world", t), probe, true) },
                true,
            )
        }),
        pc("phys_set_user_data", &["world"], move |t| {
            (
                unsafe { phys_set_user_data(arg(world, "world", t), probe, PROBE_USER) },
                true,
            )
        }),
        pc("phys_set_filter", &["world"], move |t| {
            (
                unsafe { phys_set_filter(arg(world, "world", t), probe, 1, u64::MAX) },
                true,
            )
        }),
        pc("phys_get_user_data", &["world", "out"], move |t| {
            let mut out = SENTINEL_U64;
            let status = unsafe { phys_get_user_data(arg(world, "world", t), probe, arg(&mut out, "out", t)) };
            (status, out == SENTINEL_U64)
        }),
        pc("phys_get_world_aabb", &["world", "out"], move |t| {
            let mut out = sentinel_aabb();
            let status = unsafe { phys_get_world_aabb(arg(world, "world", t), probe, arg(&mut out, "out", t)) };
            (status, out == sentinel_aabb())
        }),
        pc("phys_get_transform", &["world", "out"], move |t| {
            let mut out = sentinel_transform();
            let status = unsafe { phys_get_transform(arg(world, "world", t), probe, arg(&mut out, "out", t)) };
            (status, out == sentinel_transform())
        }),
        pc(
            "phys_segment_cast",
            &["world", "segment", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_hit());
                let through_probe = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
                let all = PhysQueryFilter {
                    category_bits: u64::MAX,
                    mask_bits: u64::MAX,
                    exclude: PhysCollider { bits: 0 },
                };
                let status = unsafe {
                    phys_segment_cast(
                        arg(world, "world", t),
                        arg_in(&through_probe, "segment", t),
                        arg_in(&all, "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_hit())
            },
        ),
        pc("phys_test_pairwise", &["world", "callback"], move |t| {
            let mut calls = 0usize;
            let callback: PhysPairCallback = if t == Some(("callback", Bad::Null)) {
                None
            } else {
                Some(count_pairs)
            };
            let ctx = (&mut calls as *mut usize).cast();
            let status = unsafe { phys_test_pairwise(arg(world, "world", t), callback, ctx) };
            (status, calls == 0)
        }),
        pc("phys_test_sweep_and_prune", &["world", "callback"], move |t| {
            let mut calls = 0usize;
            let callback: PhysPairCallback = if t == Some(("callback", Bad::Null)) {
                None
            } else {
                Some(count_pairs)
            };
            let ctx = (&mut calls as *mut usize).cast();
            let status = unsafe { phys_test_sweep_and_prune(arg(world, "world", t), callback, ctx) };
            (status, calls == 0)
        }),
        pc(
            "phys_test_pairwise_into",
            &["world", "out", "written", "total"],
            pair_buffer_call(world, pairwise_into_mut),
        ),
        pc(
            "phys_test_sweep_and_prune_into",
            &["world", "out", "written", "total"],
            pair_buffer_call(world, phys_test_sweep_and_prune_into),
        ),
        pc("phys_add_boxes", &["world", "boxes", "descs", "out"], move |t| {
            let mut out = [SENTINEL_HANDLE; 2];
            let boxes = [cube(1.0), cube(0.5)];
            let descs = [desc(9, 200.0, 0.0, 0.0), desc(9, 300.0, 0.0, 0.0)];
            let status = unsafe {
                phys_add_boxes(
                    arg(world, "world", t),
                    arg_in(&boxes[0], "boxes", t),
                    arg_in(&descs[0], "descs", t),
                    2,
                    arg(&mut out[0], "out", t),
                )
            };
            (status, out == [SENTINEL_HANDLE; 2])
        }),
        pc("phys_world_optimize", &["world"], move |t| {
            (unsafe { phys_world_optimize(arg(world, "world", t)) }, true)
        }),
        pc("phys_world_set_thread_count", &["world"], move |t| {
            (unsafe { phys_world_set_thread_count(arg(world, "world", t), 2) }, true)
        }),
        pc("phys_world_memory_bytes", &["world", "out"], move |t| {
            let mut out = SENTINEL_USIZE;
            let status = unsafe { phys_world_memory_bytes(arg(world, "world", t), arg(&mut out, "out", t)) };
            (status, out == SENTINEL_USIZE)
        }),
        pc(
            "phys_segment_cast_any",
            &["world", "segment", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_hit());
                let through_probe = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
                let status = unsafe {
                    phys_segment_cast_any(
                        arg(world, "world", t),
                        arg_in(&through_probe, "segment", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_hit())
            },
        ),
        pc(
            "phys_segment_cast_all",
            &["world", "segment", "filter", "out", "written", "total"],
            move |t| {
                let through_probe = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
                let filter = all_filter();
                let (segment_arg, filter_arg) = (arg_in(&through_probe, "segment", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_hit(), move |w, out, capacity, written, total| unsafe {
                    phys_segment_cast_all(w, segment_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_segment_cast_batch",
            &["world", "segments", "filter", "out_hit", "out"],
            move |t| {
                let segments = [segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0)); 2];
                let mut hit_bytes = [SENTINEL_BOOL_BYTE; 2];
                let mut out = [sentinel_hit(); 2];
                let status = unsafe {
                    phys_segment_cast_batch(
                        arg(world, "world", t),
                        arg_in(&segments[0], "segments", t),
                        2,
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_bytes[0]), "out_hit", t),
                        arg(&mut out[0], "out", t),
                    )
                };
                let untouched = hit_bytes == [SENTINEL_BOOL_BYTE; 2] && out == [sentinel_hit(); 2];
                (status, untouched)
            },
        ),
        pc(
            "phys_overlap_box",
            &["world", "aabb", "filter", "out", "written", "total"],
            move |t| {
                // Locals, not temporaries: the pointers are used after this statement.
                let (aabb, filter) = (cube(2.0), all_filter());
                let (aabb_arg, filter_arg) = (arg_in(&aabb, "aabb", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_box(w, aabb_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_overlap_sphere",
            &["world", "sphere", "filter", "out", "written", "total"],
            move |t| {
                let (ball, filter) = (sphere(2.0), all_filter());
                let (sphere_arg, filter_arg) = (arg_in(&ball, "sphere", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_sphere(w, sphere_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_overlap_capsule",
            &["world", "capsule", "filter", "out", "written", "total"],
            move |t| {
                let (pill, filter) = (capsule(1.0), all_filter());
                let (capsule_arg, filter_arg) = (arg_in(&pill, "capsule", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_capsule(w, capsule_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc("phys_add_obb", &["world", "obb", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let status = unsafe {
                phys_add_obb(
                    arg(world, "world", t),
                    arg_in(&obb(1.0), "obb", t),
                    arg_in(&desc(9, 1000.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_triangle", &["world", "triangle", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let tri = PhysTriangle {
                a: v(0.0, 0.0, 0.0),
                b: v(1.0, 0.0, 0.0),
                c: v(0.0, 1.0, 0.0),
            };
            let status = unsafe {
                phys_add_triangle(
                    arg(world, "world", t),
                    arg_in(&tri, "triangle", t),
                    arg_in(&desc(9, 1010.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_cylinder", &["world", "cylinder", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let cylinder = PhysCylinder {
                segment: segment(v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)),
                radius: 0.5,
            };
            let status = unsafe {
                phys_add_cylinder(
                    arg(world, "world", t),
                    arg_in(&cylinder, "cylinder", t),
                    arg_in(&desc(9, 1020.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_cone", &["world", "cone", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let cone = PhysCone {
                base_center: v(0.0, 0.0, 0.0),
                apex: v(0.0, 1.0, 0.0),
                radius: 0.5,
            };
            let status = unsafe {
                phys_add_cone(
                    arg(world, "world", t),
                    arg_in(&cone, "cone", t),
                    arg_in(&desc(9, 1030.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_add_hull", &["world", "points", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let points = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0)];
            let status = unsafe {
                phys_add_hull(
                    arg(world, "world", t),
                    arg_in(&points[0], "points", t),
                    points.len(),
                    arg_in(&desc(9, 1040.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc(
            "phys_add_mesh",
            &["world", "vertices", "indices", "desc", "out"],
            move |t| {
                let mut out = SENTINEL_HANDLE;
                let vertices = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 0.0, 1.0)];
                let indices: [u32; 3] = [0, 1, 2];
                let status = unsafe {
                    phys_add_mesh(
                        arg(world, "world", t),
                        arg_in(&vertices[0], "vertices", t),
                        vertices.len(),
                        arg_in(&indices[0], "indices", t),
                        indices.len(),
                        arg_in(&desc(9, 1050.0, 0.0, 0.0), "desc", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, out == SENTINEL_HANDLE)
            },
        ),
        pc(
            "phys_overlap_obb",
            &["world", "obb", "filter", "out", "written", "total"],
            move |t| {
                let (oriented, filter) = (obb(2.0), all_filter());
                let (obb_arg, filter_arg) = (arg_in(&oriented, "obb", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_obb(w, obb_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_shape_cast_sphere",
            &["world", "sphere", "motion", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
                let ball = PhysSphere {
                    center: v(-5.0, 0.0, 0.0),
                    radius: 0.5,
                };
                let status = unsafe {
                    phys_shape_cast_sphere(
                        arg(world, "world", t),
                        arg_in(&ball, "sphere", t),
                        arg_in(&v(10.0, 0.0, 0.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_shape_hit())
            },
        ),
        pc(
            "phys_shape_cast_capsule",
            &["world", "capsule", "motion", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
                let pill = PhysCapsule {
                    segment: segment(v(-5.0, 0.0, -0.5), v(-5.0, 0.0, 0.5)),
                    radius: 0.5,
                };
                let status = unsafe {
                    phys_shape_cast_capsule(
                        arg(world, "world", t),
                        arg_in(&pill, "capsule", t),
                        arg_in(&v(10.0, 0.0, 0.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_shape_hit())
            },
        ),
        pc(
            "phys_shape_cast_box",
            &["world", "aabb", "motion", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
                let crate_ = aabb(v(-5.5, -0.5, -0.5), v(-4.5, 0.5, 0.5));
                let status = unsafe {
                    phys_shape_cast_box(
                        arg(world, "world", t),
                        arg_in(&crate_, "aabb", t),
                        arg_in(&v(10.0, 0.0, 0.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_shape_hit())
            },
        ),
        pc(
            "phys_closest_point",
            &["world", "point", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, PhysClosest::default());
                let status = unsafe {
                    phys_closest_point(
                        arg(world, "world", t),
                        arg_in(&v(-5.0, 0.0, 0.0), "point", t),
                        10.0,
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == PhysClosest::default())
            },
        ),
        pc("phys_distance", &["world", "out"], move |t| {
            let mut out = PhysDistance::default();
            let status = unsafe { phys_distance(arg(world, "world", t), probe, ball, arg(&mut out, "out", t)) };
            (status, out == PhysDistance::default())
        }),
        pc("phys_contact", &["world", "out_touching", "out"], move |t| {
            let (mut touching_byte, mut out) = (SENTINEL_BOOL_BYTE, PhysContact::default());
            let status = unsafe {
                phys_contact(
                    arg(world, "world", t),
                    probe,
                    ball,
                    arg(bool_out(&mut touching_byte), "out_touching", t),
                    arg(&mut out, "out", t),
                )
            };
            (
                status,
                touching_byte == SENTINEL_BOOL_BYTE && out == PhysContact::default(),
            )
        }),
        pc(
            "phys_move_and_slide_capsule",
            &["world", "capsule", "motion", "filter", "out_delta", "out_hit_count"],
            move |t| {
                let (mut delta, mut count) = (v(777.0, 777.0, 777.0), SENTINEL_USIZE);
                let character = PhysCapsule {
                    segment: segment(v(-5.0, -0.5, 0.0), v(-5.0, 0.5, 0.0)),
                    radius: 0.5,
                };
                let status = unsafe {
                    phys_move_and_slide_capsule(
                        arg(world, "world", t),
                        arg_in(&character, "capsule", t),
                        arg_in(&v(10.0, 0.0, 1.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        4,
                        arg(&mut delta, "out_delta", t),
                        arg(&mut count, "out_hit_count", t),
                    )
                };
                (status, delta == v(777.0, 777.0, 777.0) && count == SENTINEL_USIZE)
            },
        ),
        pc("phys_add_shape", &["world", "shape", "desc", "out"], move |t| {
            let mut out = SENTINEL_HANDLE;
            let shape = ball_shape(v(1100.0, 0.0, 0.0));
            let status = unsafe {
                phys_add_shape(
                    arg(world, "world", t),
                    arg_in(&shape, "shape", t),
                    arg_in(&desc(9, 0.0, 0.0, 0.0), "desc", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == SENTINEL_HANDLE)
        }),
        pc("phys_set_shape", &["world", "shape"], move |t| {
            // The same sphere as `phys_set_sphere` gives the ball.
            let shape = PhysShape {
                kind: PHYS_SHAPE_SPHERE,
                data: PhysShapeData { sphere: sphere(1.0) },
            };
            let status = unsafe { phys_set_shape(arg(world, "world", t), ball, arg_in(&shape, "shape", t)) };
            (status, true)
        }),
        pc("phys_hull_create", &["points", "out"], move |t| {
            let sentinel = NonNull::<PhysHull>::dangling().as_ptr();
            let mut out = sentinel;
            let points = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0)];
            let status =
                unsafe { phys_hull_create(arg_in(&points[0], "points", t), points.len(), arg(&mut out, "out", t)) };
            if status == PHYS_OK {
                unsafe { phys_hull_destroy(out) };
            }
            (status, out == sentinel)
        }),
        pc("phys_mesh_create", &["vertices", "indices", "out"], move |t| {
            let sentinel = NonNull::<PhysMesh>::dangling().as_ptr();
            let mut out = sentinel;
            let vertices = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 0.0, 1.0)];
            let indices: [u32; 3] = [0, 1, 2];
            let status = unsafe {
                phys_mesh_create(
                    arg_in(&vertices[0], "vertices", t),
                    vertices.len(),
                    arg_in(&indices[0], "indices", t),
                    indices.len(),
                    arg(&mut out, "out", t),
                )
            };
            if status == PHYS_OK {
                unsafe { phys_mesh_destroy(out) };
            }
            (status, out == sentinel)
        }),
        pc(
            "phys_heightfield_create",
            &["heights", "scale", "holes", "out"],
            move |t| {
                let sentinel = NonNull::<PhysHeightField>::dangling().as_ptr();
                let mut out = sentinel;
                let (heights, holes, scale) = ([0.0f32; 9], [0u8, 0, 0, 1], v(1.0, 1.0, 1.0));
                let status = unsafe {
                    phys_heightfield_create(
                        3,
                        3,
                        arg_in(&heights[0], "heights", t),
                        arg_in(&scale, "scale", t),
                        arg_in(&holes[0], "holes", t),
                        arg(&mut out, "out", t),
                    )
                };
                if status == PHYS_OK {
                    unsafe { phys_heightfield_destroy(out) };
                }
                (status, out == sentinel)
            },
        ),
        pc("phys_compound_create", &["children", "poses", "out"], move |t| {
            let sentinel = NonNull::<PhysCompound>::dangling().as_ptr();
            let mut out = sentinel;
            let children = [PhysShape {
                kind: PHYS_SHAPE_SPHERE,
                data: PhysShapeData {
                    sphere: PhysSphere {
                        center: v(0.0, 0.0, 0.0),
                        radius: 1.0,
                    },
                },
            }];
            let poses = [PhysTransform {
                rotation: PhysQuat {
                    x: 0.0,
                    y: 0.0,
                    z: 0.0,
                    w: 1.0,
                },
                scale: v(1.0, 1.0, 1.0),
                ..PhysTransform::default()
            }];
            let status = unsafe {
                phys_compound_create(
                    arg_in(&children[0], "children", t),
                    arg_in(&poses[0], "poses", t),
                    1,
                    arg(&mut out, "out", t),
                )
            };
            if status == PHYS_OK {
                unsafe { phys_compound_destroy(out) };
            }
            (status, out == sentinel)
        }),
        pc(
            "phys_overlap_shape",
            &["world", "shape", "filter", "out", "written", "total"],
            move |t| {
                let (shape, filter) = (ball_shape(v(0.0, 0.0, 0.0)), all_filter());
                let (shape_arg, filter_arg) = (arg_in(&shape, "shape", t), arg_in(&filter, "filter", t));
                buffer_call(world, sentinel_ref(), move |w, out, capacity, written, total| unsafe {
                    phys_overlap_shape(w, shape_arg, filter_arg, out, capacity, written, total)
                })(t)
            },
        ),
        pc(
            "phys_shape_cast",
            &["world", "shape", "motion", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_shape_hit());
                let shape = ball_shape(v(-5.0, 0.0, 0.0));
                let status = unsafe {
                    phys_shape_cast(
                        arg(world, "world", t),
                        arg_in(&shape, "shape", t),
                        arg_in(&v(10.0, 0.0, 0.0), "motion", t),
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_shape_hit())
            },
        ),
        pc(
            "phys_closest",
            &["world", "shape", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, PhysClosest::default());
                let shape = ball_shape(v(-5.0, 0.0, 0.0));
                let status = unsafe {
                    phys_closest(
                        arg(world, "world", t),
                        arg_in(&shape, "shape", t),
                        10.0,
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == PhysClosest::default())
            },
        ),
        pc(
            "phys_move_and_slide",
            &[
                "world",
                "shape",
                "motion",
                "filter",
                "out_delta",
                "out",
                "written",
                "total",
            ],
            move |t| {
                let mut delta = v(777.0, 777.0, 777.0);
                let shape = ball_shape(v(-5.0, 0.0, 0.0));
                let (shape_arg, filter) = (arg_in(&shape, "shape", t), all_filter());
                let (motion_arg, filter_arg) = (arg_in(&v(10.0, 0.0, 1.0), "motion", t), arg_in(&filter, "filter", t));
                let delta_arg = arg(&mut delta, "out_delta", t);
                let (status, untouched) =
                    buffer_call(world, sentinel_hit(), move |w, out, capacity, written, total| unsafe {
                        phys_move_and_slide(
                            w, shape_arg, motion_arg, filter_arg, 4, delta_arg, out, capacity, written, total,
                        )
                    })(t);
                (status, untouched && delta == v(777.0, 777.0, 777.0))
            },
        ),
        pc("phys_shape_distance", &["a", "b", "out"], move |t| {
            let mut out = PhysDistance::default();
            let (a, b) = (ball_shape(v(0.0, 0.0, 0.0)), ball_shape(v(3.0, 0.0, 0.0)));
            let status =
                unsafe { phys_shape_distance(arg_in(&a, "a", t), arg_in(&b, "b", t), arg(&mut out, "out", t)) };
            (status, out == PhysDistance::default())
        }),
        pc("phys_shape_contact", &["a", "b", "out_touching", "out"], move |t| {
            let (mut touching_byte, mut out) = (SENTINEL_BOOL_BYTE, PhysContact::default());
            let (a, b) = (ball_shape(v(0.0, 0.0, 0.0)), ball_shape(v(0.5, 0.0, 0.0)));
            let status = unsafe {
                phys_shape_contact(
                    arg_in(&a, "a", t),
                    arg_in(&b, "b", t),
                    arg(bool_out(&mut touching_byte), "out_touching", t),
                    arg(&mut out, "out", t),
                )
            };
            (
                status,
                touching_byte == SENTINEL_BOOL_BYTE && out == PhysContact::default(),
            )
        }),
        pc("phys_shape_manifold", &["a", "b", "out_touching", "out"], move |t| {
            let (mut touching_byte, mut out) = (SENTINEL_BOOL_BYTE, PhysManifold::default());
            let (a, b) = (ball_shape(v(0.0, 0.0, 0.0)), ball_shape(v(0.5, 0.0, 0.0)));
            let status = unsafe {
                phys_shape_manifold(
                    arg_in(&a, "a", t),
                    arg_in(&b, "b", t),
                    arg(bool_out(&mut touching_byte), "out_touching", t),
                    arg(&mut out, "out", t),
                )
            };
            (
                status,
                touching_byte == SENTINEL_BOOL_BYTE && out == PhysManifold::default(),
            )
        }),
        pc("phys_contact_manifold", &["world", "out_touching", "out"], move |t| {
            let (mut touching_byte, mut out) = (SENTINEL_BOOL_BYTE, PhysManifold::default());
            let status = unsafe {
                phys_contact_manifold(
                    arg(world, "world", t),
                    probe,
                    ball,
                    arg(bool_out(&mut touching_byte), "out_touching", t),
                    arg(&mut out, "out", t),
                )
            };
            (
                status,
                touching_byte == SENTINEL_BOOL_BYTE && out == PhysManifold::default(),
            )
        }),
        pc(
            "phys_world_contact_manifolds",
            &["world", "out", "written", "total"],
            buffer_call(
                world,
                PhysPairManifold::default(),
                |w, out, capacity, written, total| unsafe {
                    phys_world_contact_manifolds(w, out, capacity, written, total)
                },
            ),
        ),
        pc("phys_world_save", &["world", "out", "written", "total"], move |t| {
            let size = snapshot_of(world).len();
            let mut buffer = vec![0x5Au8; size];
            let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
            let status = unsafe {
                phys_world_save(
                    arg(world, "world", t),
                    arg(buffer.as_mut_ptr(), "out", t),
                    size,
                    arg(&mut written, "written", t),
                    arg(&mut total, "total", t),
                )
            };
            let untouched = buffer.iter().all(|&b| b == 0x5A) && written == SENTINEL_USIZE && total == SENTINEL_USIZE;
            (status, untouched)
        }),
        pc("phys_world_load", &["bytes", "out"], move |t| {
            let bytes = snapshot_of(world);
            let sentinel = NonNull::<PhysWorld>::dangling().as_ptr();
            let mut out = sentinel;
            let status =
                unsafe { phys_world_load(arg_in(&bytes[0], "bytes", t), bytes.len(), arg(&mut out, "out", t)) };
            if status == PHYS_OK {
                unsafe { phys_world_destroy(out) };
            }
            (status, out == sentinel)
        }),
        pc("phys_world_state_hash", &["world", "out"], move |t| {
            let mut out = SENTINEL_U64;
            let status = unsafe { phys_world_state_hash(arg(world, "world", t), arg(&mut out, "out", t)) };
            (status, out == SENTINEL_U64)
        }),
        pc(
            "phys_cast_ray",
            &["world", "ray", "filter", "out_hit", "out"],
            move |t| {
                let (mut hit_byte, mut out) = (SENTINEL_BOOL_BYTE, sentinel_hit());
                let ray = PhysRay {
                    origin: v(-5.0, 0.0, 0.0),
                    direction: v(1.0, 0.0, 0.0),
                };
                let status = unsafe {
                    phys_cast_ray(
                        arg(world, "world", t),
                        arg_in(&ray, "ray", t),
                        10.0,
                        arg_in(&all_filter(), "filter", t),
                        arg(bool_out(&mut hit_byte), "out_hit", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, hit_byte == SENTINEL_BOOL_BYTE && out == sentinel_hit())
            },
        ),
        pc(
            "phys_get_filter",
            &["world", "out_category_bits", "out_mask_bits"],
            move |t| {
                let (mut category, mut mask) = (SENTINEL_U64, SENTINEL_U64);
                let status = unsafe {
                    phys_get_filter(
                        arg(world, "world", t),
                        probe,
                        arg(&mut category, "out_category_bits", t),
                        arg(&mut mask, "out_mask_bits", t),
                    )
                };
                (status, category == SENTINEL_U64 && mask == SENTINEL_U64)
            },
        ),
        pc("phys_get_should_rotate", &["world", "out_should_rotate"], move |t| {
            let mut byte = SENTINEL_BOOL_BYTE;
            let status = unsafe {
                phys_get_should_rotate(
                    arg(world, "world", t),
                    probe,
                    arg(bool_out(&mut byte), "out_should_rotate", t),
                )
            };
            (status, byte == SENTINEL_BOOL_BYTE)
        }),
        pc("phys_get_shape", &["world", "out"], move |t| {
            let sentinel = ball_shape(v(7.0, 7.0, 7.0));
            let mut out = sentinel;
            let status = unsafe { phys_get_shape(arg(world, "world", t), probe, arg(&mut out, "out", t)) };
            // SAFETY: both are spheres or boxes, plain data.
            let untouched = out.kind == sentinel.kind && unsafe { out.data.sphere == sentinel.data.sphere };
            (status, untouched)
        }),
        pc(
            "phys_world_colliders",
            &["world", "out", "written", "total"],
            move |t| {
                // Room for every collider the table's adds make.
                let mut buffer = [sentinel_ref(); 64];
                let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
                let status = unsafe {
                    phys_world_colliders(
                        arg(world, "world", t),
                        arg(buffer.as_mut_ptr(), "out", t),
                        buffer.len(),
                        arg(&mut written, "written", t),
                        arg(&mut total, "total", t),
                    )
                };
                let untouched =
                    buffer.iter().all(|r| *r == sentinel_ref()) && written == SENTINEL_USIZE && total == SENTINEL_USIZE;
                (status, untouched)
            },
        ),
        pc("phys_world_max_colliders", &["world", "out"], move |t| {
            let mut out = SENTINEL_USIZE;
            let status = unsafe { phys_world_max_colliders(arg(world, "world", t), arg(&mut out, "out", t)) };
            (status, out == SENTINEL_USIZE)
        }),
        pc("phys_world_thread_count", &["world", "out"], move |t| {
            let mut out = 0xA5A5_A5A5u32;
            let status = unsafe { phys_world_thread_count(arg(world, "world", t), arg(&mut out, "out", t)) };
            (status, out == 0xA5A5_A5A5)
        }),
        pc("phys_add_shapes", &["world", "shapes", "descs", "out"], move |t| {
            let mut out = [SENTINEL_HANDLE; 2];
            let shapes = [ball_shape(v(1200.0, 0.0, 0.0)), ball_shape(v(1210.0, 0.0, 0.0))];
            let descs = [desc(9, 0.0, 0.0, 0.0), desc(10, 0.0, 0.0, 0.0)];
            let status = unsafe {
                phys_add_shapes(
                    arg(world, "world", t),
                    arg_in(&shapes[0], "shapes", t),
                    arg_in(&descs[0], "descs", t),
                    2,
                    arg(&mut out[0], "out", t),
                )
            };
            (status, out == [SENTINEL_HANDLE; 2])
        }),
        pc("phys_set_shapes", &["world", "colliders", "shapes"], move |t| {
            let colliders = [ball];
            let shapes = [PhysShape {
                kind: PHYS_SHAPE_SPHERE,
                data: PhysShapeData { sphere: sphere(1.0) },
            }];
            let status = unsafe {
                phys_set_shapes(
                    arg(world, "world", t),
                    arg_in(&colliders[0], "colliders", t),
                    arg_in(&shapes[0], "shapes", t),
                    1,
                )
            };
            (status, true)
        }),
        pc("phys_geom_plane_from_points", &["a", "b", "c", "out"], move |t| {
            let mut out = PhysPlane {
                normal: v(7.0, 7.0, 7.0),
                d: 7.0,
            };
            let sentinel = out;
            let (a, b, c) = (v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 0.0, 1.0));
            let status = unsafe {
                phys_geom_plane_from_points(
                    arg_in(&a, "a", t),
                    arg_in(&b, "b", t),
                    arg_in(&c, "c", t),
                    arg(&mut out, "out", t),
                )
            };
            (status, out == sentinel)
        }),
        pc(
            "phys_geom_plane_signed_distance",
            &["plane", "point", "out"],
            move |t| {
                let mut out = 7.0f32;
                let plane = PhysPlane {
                    normal: v(0.0, 1.0, 0.0),
                    d: 0.0,
                };
                let status = unsafe {
                    phys_geom_plane_signed_distance(
                        arg_in(&plane, "plane", t),
                        arg_in(&v(0.0, 2.0, 0.0), "point", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, out == 7.0)
            },
        ),
        pc("phys_geom_polygon_contains", &["vertices", "point", "out"], move |t| {
            let mut byte = SENTINEL_BOOL_BYTE;
            let square = [
                PhysVec2 { x: 0.0, y: 0.0 },
                PhysVec2 { x: 1.0, y: 0.0 },
                PhysVec2 { x: 1.0, y: 1.0 },
            ];
            let point = PhysVec2 { x: 0.5, y: 0.25 };
            let status = unsafe {
                phys_geom_polygon_contains(
                    arg_in(&square[0], "vertices", t),
                    3,
                    arg_in(&point, "point", t),
                    arg(bool_out(&mut byte), "out", t),
                )
            };
            (status, byte == SENTINEL_BOOL_BYTE)
        }),
        pc("phys_geom_segment_closest_points", &["a", "b", "out"], move |t| {
            let mut out = PhysSegmentClosest {
                s: 7.0,
                ..PhysSegmentClosest::default()
            };
            let (a, b) = (
                segment(v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0)),
                segment(v(0.0, 1.0, 0.0), v(1.0, 1.0, 1.0)),
            );
            let status = unsafe {
                phys_geom_segment_closest_points(arg_in(&a, "a", t), arg_in(&b, "b", t), arg(&mut out, "out", t))
            };
            (status, out.s == 7.0)
        }),
        pc(
            "phys_geom_segment_point_distance_squared",
            &["segment", "point", "out"],
            move |t| {
                let mut out = 7.0f32;
                let s = segment(v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
                let status = unsafe {
                    phys_geom_segment_point_distance_squared(
                        arg_in(&s, "segment", t),
                        arg_in(&v(0.0, 2.0, 0.0), "point", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, out == 7.0)
            },
        ),
        pc(
            "phys_geom_box_point_distance_squared",
            &["aabb", "point", "out"],
            move |t| {
                let mut out = 7.0f32;
                let status = unsafe {
                    phys_geom_box_point_distance_squared(
                        arg_in(&cube(1.0), "aabb", t),
                        arg_in(&v(0.0, 2.0, 0.0), "point", t),
                        arg(&mut out, "out", t),
                    )
                };
                (status, out == 7.0)
            },
        ),
        pc(
            "phys_geom_swept_spheres",
            &["a", "motion_a", "b", "motion_b", "out_hit", "out_t"],
            move |t| {
                let (mut byte, mut out) = (SENTINEL_BOOL_BYTE, 7.0f32);
                let (a, b) = (
                    sphere(1.0),
                    PhysSphere {
                        center: v(5.0, 0.0, 0.0),
                        radius: 1.0,
                    },
                );
                let status = unsafe {
                    phys_geom_swept_spheres(
                        arg_in(&a, "a", t),
                        arg_in(&v(4.0, 0.0, 0.0), "motion_a", t),
                        arg_in(&b, "b", t),
                        arg_in(&v(0.0, 0.0, 0.0), "motion_b", t),
                        arg(bool_out(&mut byte), "out_hit", t),
                        arg(&mut out, "out_t", t),
                    )
                };
                (status, byte == SENTINEL_BOOL_BYTE && out == 7.0)
            },
        ),
        pc("phys_geom_intersects", &["a", "b", "out"], move |t| {
            let mut byte = SENTINEL_BOOL_BYTE;
            let (a, b) = (ball_shape(v(0.0, 0.0, 0.0)), ball_shape(v(0.5, 0.0, 0.0)));
            let status = unsafe {
                phys_geom_intersects(
                    arg_in(&a, "a", t),
                    arg_in(&b, "b", t),
                    arg(bool_out(&mut byte), "out", t),
                )
            };
            (status, byte == SENTINEL_BOOL_BYTE)
        }),
        pc(
            "phys_geom_segment_cast",
            &["segment", "shape", "out_hit", "out_t", "out_normal"],
            move |t| {
                let (mut byte, mut out_t, mut normal) = (SENTINEL_BOOL_BYTE, 7.0f32, v(7.0, 7.0, 7.0));
                let s = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
                let shape = ball_shape(v(0.0, 0.0, 0.0));
                let status = unsafe {
                    phys_geom_segment_cast(
                        arg_in(&s, "segment", t),
                        arg_in(&shape, "shape", t),
                        arg(bool_out(&mut byte), "out_hit", t),
                        arg(&mut out_t, "out_t", t),
                        arg(&mut normal, "out_normal", t),
                    )
                };
                (
                    status,
                    byte == SENTINEL_BOOL_BYTE && out_t == 7.0 && normal == v(7.0, 7.0, 7.0),
                )
            },
        ),
        pc("phys_world_debug_draw", &["world", "draw"], move |t| {
            let mut lines = 0usize;
            let draw = counting_drawer(&mut lines);
            let status = unsafe {
                phys_world_debug_draw(arg(world, "world", t), arg_in(&draw, "draw", t), PHYS_DEBUG_DRAW_SHAPES)
            };
            (status, lines == 0 || status == PHYS_OK)
        }),
        pc("phys_debug_draw_hit", &["hit", "draw"], move |t| {
            let mut lines = 0usize;
            let draw = counting_drawer(&mut lines);
            let hit = PhysHit {
                point: v(0.0, 0.0, 0.0),
                normal: v(0.0, 1.0, 0.0),
                ..sentinel_hit()
            };
            let status = unsafe { phys_debug_draw_hit(arg_in(&hit, "hit", t), arg_in(&draw, "draw", t)) };
            (status, lines == 0 || status == PHYS_OK)
        }),
        pc("phys_find_pairs", &["world", "callback"], move |t| {
            let mut calls = 0usize;
            let callback: PhysPairCallback = if t == Some(("callback", Bad::Null)) {
                None
            } else {
                Some(count_pairs)
            };
            let ctx = (&mut calls as *mut usize).cast();
            let status = unsafe { phys_find_pairs(arg(world, "world", t), callback, ctx) };
            (status, calls == 0)
        }),
        pc(
            "phys_find_pairs_into",
            &["world", "out", "written", "total"],
            pair_buffer_call(world, phys_find_pairs_into),
        ),
        pc("phys_update_pair_events", &["world", "began", "ended"], move |t| {
            let (mut began, mut ended) = (SENTINEL_USIZE, SENTINEL_USIZE);
            let status = unsafe {
                phys_update_pair_events(
                    arg(world, "world", t),
                    arg(&mut began, "began", t),
                    arg(&mut ended, "ended", t),
                )
            };
            (status, began == SENTINEL_USIZE && ended == SENTINEL_USIZE)
        }),
        pc("phys_pair_events_began", &["world", "out", "written", "total"], |t| {
            with_events_world(|w| pair_buffer_call(w, began_into_mut)(t))
        }),
        pc("phys_pair_events_ended", &["world", "out", "written", "total"], |t| {
            with_events_world(|w| pair_buffer_call(w, ended_into_mut)(t))
        }),
    ]
}

/// Runs `f` on a world of its own whose last pair events are one pair begun
/// and one ended, so that reading either needs an output buffer.
fn with_events_world(f: impl FnOnce(*mut PhysWorld) -> (PhysStatus, bool)) -> (PhysStatus, bool) {
    let world = new_world(None);
    let a = add_box(world, cube(1.0), &desc(1, 0.0, 0.0, 0.0));
    add_box(world, cube(1.0), &desc(2, 1.0, 0.0, 0.0));
    let (mut began, mut ended) = (0, 0);
    // SAFETY: a live world and valid out-pointers.
    unsafe {
        assert_eq!(phys_update_pair_events(world, &mut began, &mut ended), PHYS_OK);
        assert_eq!(phys_remove(world, a), PHYS_OK);
        add_box(world, cube(1.0), &desc(3, 0.0, 1.0, 0.0));
        assert_eq!(phys_update_pair_events(world, &mut began, &mut ended), PHYS_OK);
    }
    assert_eq!((began, ended), (1, 1));
    let result = f(world);
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
    result
}

/// A `PhysColliderRef` no call writes.
fn sentinel_ref() -> PhysColliderRef {
    PhysColliderRef {
        collider: SENTINEL_HANDLE,
        user_data: SENTINEL_U64,
    }
}

/// The pointer and callback parameters of every `phys_*` function declared
/// in the generated collide.h, in order, by function name.
fn header_pointer_params() -> BTreeMap<String, Vec<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/include/collide.h");
    let header = std::fs::read_to_string(path).expect("include/collide.h is readable");
    // Drop the comments, then read each `... phys_name(params);` declaration.
    let mut code = String::new();
    let mut rest = header.as_str();
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        rest = &rest[start + rest[start..].find("*/").expect("closed comment") + 2..];
    }
    code.push_str(rest);
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    code.split(';')
        .filter_map(|declaration| {
            let open = declaration.find("phys_")?;
            let name_end = open + declaration[open..].find('(')?;
            let params = &declaration[name_end + 1..declaration.rfind(')')?];
            let pointers = params
                .split(',')
                .filter(|p| p.contains('*') || p.contains("PhysPairCallback"))
                .map(|p| {
                    p.rsplit(|c: char| !c.is_alphanumeric() && c != '_')
                        .find(|w| !w.is_empty())
                        .expect("a named parameter")
                        .to_owned()
                })
                .collect();
            Some((declaration[open..name_end].trim().to_owned(), pointers))
        })
        .collect()
}

#[test]
fn every_pointer_argument_is_checked_for_null_and_alignment() {
    // The table covers every pointer parameter of every function in the
    // header, but those of the destroys (NULL is a no-op) and is_alive (no status;
    // tested above), and `ctx`, which collide only passes on (NULL included).
    let mut in_header = header_pointer_params();
    in_header.retain(|name, _| {
        !matches!(
            name.as_str(),
            "phys_world_destroy"
                | "phys_hull_destroy"
                | "phys_mesh_destroy"
                | "phys_heightfield_destroy"
                | "phys_compound_destroy"
                | "phys_collider_is_alive"
        )
    });
    in_header.values_mut().for_each(|params| params.retain(|p| p != "ctx"));
    in_header.retain(|_, params| !params.is_empty());
    let in_table: BTreeMap<String, Vec<String>> = pointer_calls(&Fixture::new())
        .iter()
        .map(|c| (c.function.to_owned(), c.args.iter().map(|a| a.to_string()).collect()))
        .collect();
    assert_eq!(in_table, in_header, "the table matches collide.h");

    // With nothing spoiled, every call succeeds (on a world of its own, as
    // some calls add or remove colliders): the failures below are the
    // spoiled argument's doing.
    let scratch = Fixture::new();
    for c in pointer_calls(&scratch) {
        assert_eq!(
            (c.call)(None).0,
            PHYS_OK,
            "{} with valid arguments: {}",
            c.function,
            last_error()
        );
    }

    let f = Fixture::new();
    let mut checked = 0;
    for c in pointer_calls(&f) {
        for &name in c.args {
            for bad in [Bad::Null, Bad::Misaligned] {
                // NULL `desc`, `filter` and `holes` mean the defaults (tested
                // below and in tests/heightfield.rs); `bool`, byte (`holes`,
                // `bytes`, a snapshot's `out`) and function pointers cannot
                // be misaligned.
                let applies = match bad {
                    Bad::Null => !matches!(name, "desc" | "descs" | "filter" | "holes"),
                    Bad::Misaligned => {
                        let bool_out = matches!(name, "out_hit" | "out_touching" | "out_should_rotate")
                            || (name == "out" && BYTE_OUT.contains(&c.function));
                        !(bool_out || name == "callback" || name == "holes" || name == "bytes")
                    }
                };
                if !applies {
                    continue;
                }
                let what = format!("{} with {bad:?} `{name}`", c.function);
                let mut untouched = false;
                let status = match bad {
                    Bad::Null => PHYS_ERROR_NULL_POINTER,
                    Bad::Misaligned => PHYS_ERROR_INVALID_ARGUMENT,
                };
                let message = f.refuses(status, &what, || {
                    let (status, outputs_untouched) = (c.call)(Some((name, bad)));
                    untouched = outputs_untouched;
                    status
                });
                assert!(untouched, "{what}: an output was written");
                match bad {
                    Bad::Null => assert_eq!(message, format!("`{name}` is NULL"), "{what}"),
                    Bad::Misaligned => assert_eq!(message, "invalid argument: misaligned pointer", "{what}"),
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 566, "every pointer argument but the exempt ones was tried");
}

#[test]
fn null_desc_filter_and_empty_buffers_mean_the_defaults() {
    let world = new_world(None);
    let (mut written, mut total) = (SENTINEL_USIZE, SENTINEL_USIZE);
    // SAFETY: valid pointers; NULL where the header allows it.
    unsafe {
        // No pairs: a NULL buffer of capacity 0 is enough.
        assert_eq!(
            phys_test_pairwise_into(world, null_mut(), 0, &mut written, &mut total),
            PHYS_OK
        );
        assert_eq!((written, total), (0, 0));
        assert_eq!(
            phys_test_sweep_and_prune_into(world, null_mut(), 0, &mut written, &mut total),
            PHYS_OK
        );

        let mut handle = SENTINEL_HANDLE;
        assert_eq!(phys_add_box(world, &cube(1.0), null(), &mut handle), PHYS_OK);
        let (mut user, mut transform) = (SENTINEL_U64, sentinel_transform());
        assert_eq!(phys_get_user_data(world, handle, &mut user), PHYS_OK);
        assert_eq!(phys_get_transform(world, handle, &mut transform), PHYS_OK);
        assert_eq!((user, transform), (0, translation(0.0, 0.0, 0.0)));

        // A NULL filter hits everything.
        let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
        let down = segment(v(0.0, 5.0, 0.0), v(0.0, -5.0, 0.0));
        assert_eq!(
            phys_segment_cast(world, &down, null(), bool_out(&mut hit_byte), &mut hit),
            PHYS_OK
        );
        assert_eq!(hit_byte, 1);
        assert_eq!((hit.collider, hit.t, hit.normal), (handle, 0.4, v(0.0, 1.0, 0.0)));

        // A miss writes `*out_hit` and leaves `*out` alone.
        let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
        let away = segment(v(0.0, 5.0, 0.0), v(0.0, 9.0, 0.0));
        assert_eq!(
            phys_segment_cast(world, &away, null(), bool_out(&mut hit_byte), &mut hit),
            PHYS_OK
        );
        assert_eq!(hit_byte, 0);
        assert_eq!(hit, sentinel_hit());

        // A context pointer may be NULL: collide only passes it on.
        add_box(world, cube(1.0), &desc(2, 0.5, 0.0, 0.0));
        assert_eq!(phys_test_pairwise(world, Some(ignore_pair), null_mut()), PHYS_OK);
        phys_world_destroy(world);
    }
}

// ---------------------------------------------------------------------------
// Numbers: NaN and infinities, inverted boxes, negative radii.

#[test]
fn non_finite_numbers_are_refused_in_every_input() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    let nf = PHYS_ERROR_NON_FINITE;
    let check_message = |message: String| assert!(message.contains("not finite"), "message `{message}`");
    // SAFETY (every `unsafe` below): valid pointers; collide reads the numbers.

    // Box corners, sphere centre and radius, capsule axis and radius: in
    // phys_add_* and phys_set_*.
    for (what, p) in non_finite_vecs(v(-1.0, -1.0, -1.0)) {
        let b = aabb(p, v(1.0, 1.0, 1.0));
        check_message(f.refuses_add(nf, &format!("add_box min.{what}"), |o| unsafe {
            phys_add_box(w, &b, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_box min.{what}"), || unsafe {
            phys_set_box(w, f.probe, &b)
        }));
    }
    for (what, p) in non_finite_vecs(v(1.0, 1.0, 1.0)) {
        let b = aabb(v(-1.0, -1.0, -1.0), p);
        check_message(f.refuses_add(nf, &format!("add_box max.{what}"), |o| unsafe {
            phys_add_box(w, &b, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_box max.{what}"), || unsafe {
            phys_set_box(w, f.probe, &b)
        }));
    }
    for (what, center) in non_finite_vecs(v(0.0, 0.0, 0.0)) {
        let s = PhysSphere { center, radius: 1.0 };
        check_message(f.refuses_add(nf, &format!("add_sphere center.{what}"), |o| unsafe {
            phys_add_sphere(w, &s, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_sphere center.{what}"), || unsafe {
            phys_set_sphere(w, f.ball, &s)
        }));
        for end in [false, true] {
            let mut c = capsule(0.5);
            *if end { &mut c.segment.end } else { &mut c.segment.start } = center;
            let what = format!("capsule {}.{what}", if end { "end" } else { "start" });
            check_message(f.refuses_add(nf, &format!("add_{what}"), |o| unsafe {
                phys_add_capsule(w, &c, &d, o)
            }));
            check_message(f.refuses(nf, &format!("set_{what}"), || unsafe {
                phys_set_capsule(w, f.pill, &c)
            }));
        }
    }
    for radius in NON_FINITE {
        let s = sphere(radius);
        let c = capsule(radius);
        check_message(f.refuses_add(nf, &format!("add_sphere r={radius}"), |o| unsafe {
            phys_add_sphere(w, &s, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_sphere r={radius}"), || unsafe {
            phys_set_sphere(w, f.ball, &s)
        }));
        check_message(f.refuses_add(nf, &format!("add_capsule r={radius}"), |o| unsafe {
            phys_add_capsule(w, &c, &d, o)
        }));
        check_message(f.refuses(nf, &format!("set_capsule r={radius}"), || unsafe {
            phys_set_capsule(w, f.pill, &c)
        }));
    }

    // Transforms: in the description of every phys_add_* and in phys_set_transform.
    for (what, transform) in non_finite_transforms(d.transform) {
        let bad = PhysColliderDesc { transform, ..d };
        check_message(f.refuses_add(nf, &format!("add_box {what}"), |o| unsafe {
            phys_add_box(w, &cube(1.0), &bad, o)
        }));
        check_message(f.refuses_add(nf, &format!("add_sphere {what}"), |o| unsafe {
            phys_add_sphere(w, &sphere(1.0), &bad, o)
        }));
        check_message(f.refuses_add(nf, &format!("add_capsule {what}"), |o| unsafe {
            phys_add_capsule(w, &capsule(1.0), &bad, o)
        }));
        check_message(f.refuses(nf, &format!("set_transform {what}"), || unsafe {
            phys_set_transform(w, f.probe, &transform)
        }));
    }

    // Finite inputs whose world bounds overflow to infinity.
    let huge = PhysColliderDesc {
        transform: PhysTransform {
            scale: v(1e30, 1e30, 1e30),
            ..d.transform
        },
        ..d
    };
    check_message(f.refuses_add(nf, "add_box overflowing scale", |o| unsafe {
        phys_add_box(w, &cube(1e30), &huge, o)
    }));
    check_message(f.refuses_add(nf, "add_sphere overflowing scale", |o| unsafe {
        phys_add_sphere(w, &sphere(1e30), &huge, o)
    }));
    let far = desc(9, 3e38, 0.0, 0.0);
    check_message(f.refuses_add(nf, "add_box overflowing translation", |o| unsafe {
        phys_add_box(w, &cube(3e38), &far, o)
    }));

    // Segment end points, in phys_segment_cast.
    let through = segment(v(-5.0, 0.0, 0.0), v(5.0, 0.0, 0.0));
    for (end, p) in [(false, through.start), (true, through.end)] {
        for (what, bad) in non_finite_vecs(p) {
            let mut s = through;
            *if end { &mut s.end } else { &mut s.start } = bad;
            let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
            let what = format!("segment_cast {}.{what}", if end { "end" } else { "start" });
            check_message(f.refuses(nf, &what, || unsafe {
                phys_segment_cast(w, &s, null(), bool_out(&mut hit_byte), &mut hit)
            }));
            assert_eq!(
                (hit_byte, hit),
                (SENTINEL_BOOL_BYTE, sentinel_hit()),
                "{what}: outputs written"
            );
        }
    }
}

#[test]
fn inverted_boxes_are_refused_on_each_axis() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    for (k, axis) in ["x", "y", "z"].into_iter().enumerate() {
        let b = aabb(with_component(v(-1.0, -1.0, -1.0), k, 2.0), v(1.0, 1.0, 1.0));
        let expected = format!("box is inverted: min > max on the {axis} axis");
        // SAFETY: valid pointers.
        let message = f.refuses_add(PHYS_ERROR_INVERTED_BOX, &format!("add_box {axis}"), |o| unsafe {
            phys_add_box(w, &b, &d, o)
        });
        assert_eq!(message, expected);
        // SAFETY: valid pointers.
        let message = f.refuses(PHYS_ERROR_INVERTED_BOX, &format!("set_box {axis}"), || unsafe {
            phys_set_box(w, f.probe, &b)
        });
        assert_eq!(message, expected);
        // The smallest inversion counts too.
        let one_ulp = aabb(with_component(v(0.0, 0.0, 0.0), k, f32::MIN_POSITIVE), v(0.0, 0.0, 0.0));
        // SAFETY: valid pointers.
        f.refuses(
            PHYS_ERROR_INVERTED_BOX,
            &format!("set_box {axis} by one ulp"),
            || unsafe { phys_set_box(w, f.probe, &one_ulp) },
        );
    }
    // A flat box (min == max) is a valid box.
    let flat = aabb(v(0.0, 0.0, 0.0), v(0.0, 0.0, 0.0));
    // SAFETY: valid pointers.
    assert_eq!(unsafe { phys_set_box(w, f.spare, &flat) }, PHYS_OK);
}

#[test]
fn negative_radii_are_refused_but_zero_is_a_point() {
    let f = Fixture::new();
    let w = f.world;
    let d = desc(9, 20.0, 0.0, 0.0);
    let nr = PHYS_ERROR_NEGATIVE_RADIUS;
    for radius in [-1.0, -f32::MIN_POSITIVE, -1e-45, f32::MIN] {
        let (s, c) = (sphere(radius), capsule(radius));
        // SAFETY (all four): valid pointers.
        let messages = [
            f.refuses_add(nr, &format!("add_sphere r={radius}"), |o| unsafe {
                phys_add_sphere(w, &s, &d, o)
            }),
            f.refuses(nr, &format!("set_sphere r={radius}"), || unsafe {
                phys_set_sphere(w, f.ball, &s)
            }),
            f.refuses_add(nr, &format!("add_capsule r={radius}"), |o| unsafe {
                phys_add_capsule(w, &c, &d, o)
            }),
            f.refuses(nr, &format!("set_capsule r={radius}"), || unsafe {
                phys_set_capsule(w, f.pill, &c)
            }),
        ];
        assert!(messages.iter().all(|m| m == "radius is negative"), "{messages:?}");
    }
    // Zero (of either sign) is allowed: a point, a segment.
    let world = new_world(None);
    for radius in [0.0, -0.0] {
        let mut out = SENTINEL_HANDLE;
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(phys_add_sphere(world, &sphere(radius), null(), &mut out), PHYS_OK);
            assert_eq!(phys_add_capsule(world, &capsule(radius), null(), &mut out), PHYS_OK);
        }
    }
    assert_eq!(count(world), 4);
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
}

/// A segment whose end points are finite but whose direction overflows
/// (`end − start` beyond `f32::MAX`) is refused, instead of a NaN hit point.
#[test]
fn a_segment_whose_direction_overflows_is_refused() {
    let world = new_world(None);
    add_box(world, cube(1.0), &desc(1, 0.0, 0.0, 0.0));
    let huge = segment(v(-3.0e38, 0.0, 0.0), v(3.0e38, 0.0, 0.0));
    let (mut hit_byte, mut hit) = (SENTINEL_BOOL_BYTE, sentinel_hit());
    // SAFETY: valid pointers.
    let status = unsafe { phys_segment_cast(world, &huge, null(), bool_out(&mut hit_byte), &mut hit) };
    assert_eq!(status, PHYS_ERROR_NON_FINITE);
    assert_eq!((hit_byte, hit), (SENTINEL_BOOL_BYTE, sentinel_hit()));
    // SAFETY: made by phys_world_create.
    unsafe { phys_world_destroy(world) };
}

/// NaN and infinite segments in `phys_segment_cast_any`, `_all` and
/// `_batch` (`non_finite_numbers_are_refused_in_every_input` covers `phys_segment_cast`): `PHYS_ERROR_NON_FINITE`,
/// nothing written.
#[test]
fn c_every_cast_refuses_non_finite_segments() {
    let (world, handles) = c_world(usize::MAX);
    let before = c_state(world, &handles);
    for s in segments_with_a_non_finite_number() {
        let seg = PhysSegment {
            start: pv(s.start),
            end: pv(s.end),
        };
        let sentinel = PhysHit {
            t: -1.0,
            ..PhysHit::default()
        };
        // SAFETY: valid pointers to live locals; buffers hold what they claim.
        unsafe {
            let (mut hit, mut out) = (false, sentinel);
            assert_eq!(
                phys_segment_cast_any(world, &seg, null(), &mut hit, &mut out),
                PHYS_ERROR_NON_FINITE
            );
            assert_eq!(out, sentinel);
            let mut buffer = [sentinel; 4];
            let (mut written, mut total) = (usize::MAX, usize::MAX);
            let status = phys_segment_cast_all(world, &seg, null(), buffer.as_mut_ptr(), 4, &mut written, &mut total);
            assert_eq!(
                (status, written, total),
                (PHYS_ERROR_NON_FINITE, usize::MAX, usize::MAX)
            );
            assert_eq!(buffer, [sentinel; 4]);
            let good = PhysSegment {
                start: pv(Vec3::new(-5.0, 0.5, 0.5)),
                end: pv(Vec3::new(5.0, 0.5, 0.5)),
            };
            let segs = [good, seg];
            let mut hits = [false; 2];
            let mut outs = [sentinel; 2];
            let status = phys_segment_cast_batch(world, segs.as_ptr(), 2, null(), hits.as_mut_ptr(), outs.as_mut_ptr());
            assert_eq!(status, PHYS_ERROR_NON_FINITE, "{s:?}");
            assert_eq!((hits, outs), ([false; 2], [sentinel; 2]), "the batch wrote on failure");
        }
    }
    assert_eq!(c_state(world, &handles), before);
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(world) };
}

/// `phys_overlap_box/sphere/capsule` refuse NaN, infinities, inverted boxes
/// and negative radii (`non_finite_numbers_are_refused_in_every_input` covers the add and set functions), with
/// nothing written.
#[test]
fn c_overlaps_refuse_bad_shapes() {
    let (world, handles) = c_world(usize::MAX);
    let before = c_state(world, &handles);
    let sentinel = PhysColliderRef {
        collider: PhysCollider { bits: 5 },
        user_data: 5,
    };
    let check = |status, buffer: &[PhysColliderRef; 4], written: usize, total: usize, expected, what: &str| {
        assert_eq!(status, expected, "{what}");
        assert_eq!(
            (written, total, *buffer),
            (usize::MAX, usize::MAX, [sentinel; 4]),
            "{what} wrote on failure"
        );
    };
    let mut cases: Vec<(String, Shape, collide::ffi::PhysStatus)> = Vec::new();
    for (name, desc) in non_finite_descs() {
        if desc.transform == Transform::IDENTITY {
            cases.push((name, desc.shape, PHYS_ERROR_NON_FINITE));
        }
    }
    for (name, desc, error) in malformed_descs() {
        if desc.transform == Transform::IDENTITY {
            let status = match error {
                Error::InvertedBox(_) => PHYS_ERROR_INVERTED_BOX,
                Error::NegativeRadius => PHYS_ERROR_NEGATIVE_RADIUS,
                _ => unreachable!("shape errors only"),
            };
            cases.push((name, desc.shape, status));
        }
    }
    for (name, shape, expected) in cases {
        let mut buffer = [sentinel; 4];
        let (mut written, mut total) = (usize::MAX, usize::MAX);
        let (out, w, t) = (
            buffer.as_mut_ptr(),
            &mut written as *mut usize,
            &mut total as *mut usize,
        );
        // SAFETY: valid pointers to live locals; the buffer holds 4 records.
        let status = unsafe {
            match shape {
                Shape::Aabb(b) => phys_overlap_box(world, &PhysAabb::from(b), null(), out, 4, w, t),
                Shape::Sphere(s) => {
                    let s = PhysSphere {
                        center: pv(s.center),
                        radius: s.radius,
                    };
                    phys_overlap_sphere(world, &s, null(), out, 4, w, t)
                }
                Shape::Capsule(c) => {
                    let c = PhysCapsule {
                        segment: PhysSegment {
                            start: pv(c.segment.start),
                            end: pv(c.segment.end),
                        },
                        radius: c.radius,
                    };
                    phys_overlap_capsule(world, &c, null(), out, 4, w, t)
                }
                _ => unreachable!("shapes of the three kinds above"),
            }
        };
        check(status, &buffer, written, total, expected, &name);
    }
    assert_eq!(c_state(world, &handles), before);
    // SAFETY: made above, not used again.
    unsafe { phys_world_destroy(world) };
}

// ---------------------------------------------------------------------------
// Malformed arguments: flags and rotations.

#[test]
fn unknown_flags_and_non_unit_rotations_are_invalid_arguments() {
    let f = Fixture::new();
    let w = f.world;
    let inv = PHYS_ERROR_INVALID_ARGUMENT;
    // SAFETY (every `unsafe` below): valid pointers.
    for flags in [2, 4, PHYS_COLLIDER_SHOULD_ROTATE | 8, 1 << 31, u32::MAX] {
        let d = PhysColliderDesc {
            flags,
            ..desc(9, 20.0, 0.0, 0.0)
        };
        let what = format!("flags {flags:#x}");
        let messages = [
            f.refuses_add(inv, &format!("add_box {what}"), |o| unsafe {
                phys_add_box(w, &cube(1.0), &d, o)
            }),
            f.refuses_add(inv, &format!("add_sphere {what}"), |o| unsafe {
                phys_add_sphere(w, &sphere(1.0), &d, o)
            }),
            f.refuses_add(inv, &format!("add_capsule {what}"), |o| unsafe {
                phys_add_capsule(w, &capsule(1.0), &d, o)
            }),
        ];
        assert!(
            messages
                .iter()
                .all(|m| m == "invalid argument: unknown collider flag bits"),
            "{messages:?}"
        );
    }

    let not_unit = [
        PhysQuat { w: 0.0, ..IDENTITY },
        PhysQuat { w: 2.0, ..IDENTITY },
        PhysQuat { w: 1.001, ..IDENTITY },
        PhysQuat {
            x: 1.0,
            y: 1.0,
            z: 0.0,
            w: 0.0,
        },
        PhysQuat { w: -0.5, ..IDENTITY },
    ];
    for rotation in not_unit {
        let mut transform = translation(20.0, 0.0, 0.0);
        transform.rotation = rotation;
        let d = PhysColliderDesc {
            transform,
            ..desc(9, 0.0, 0.0, 0.0)
        };
        let what = format!("rotation {rotation:?}");
        let messages = [
            f.refuses_add(inv, &format!("add_box {what}"), |o| unsafe {
                phys_add_box(w, &cube(1.0), &d, o)
            }),
            f.refuses_add(inv, &format!("add_sphere {what}"), |o| unsafe {
                phys_add_sphere(w, &sphere(1.0), &d, o)
            }),
            f.refuses_add(inv, &format!("add_capsule {what}"), |o| unsafe {
                phys_add_capsule(w, &capsule(1.0), &d, o)
            }),
            f.refuses(inv, &format!("set_transform {what}"), || unsafe {
                phys_set_transform(w, f.probe, &transform)
            }),
        ];
        assert!(
            messages
                .iter()
                .all(|m| m == "invalid argument: rotation is not a unit quaternion"),
            "{messages:?}"
        );
    }

    // Within the tolerance a rotation is accepted and renormalised.
    let mut nearly = translation(0.0, 0.0, 0.0);
    nearly.rotation.w = 1.0004;
    let mut stored = sentinel_transform();
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(phys_set_transform(w, f.spare, &nearly), PHYS_OK);
        assert_eq!(phys_get_transform(w, f.spare, &mut stored), PHYS_OK);
    }
    assert!((stored.rotation.w - 1.0).abs() < 1e-6, "{stored:?}");
}
