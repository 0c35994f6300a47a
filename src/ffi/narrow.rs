//! The narrow-phase `phys_*` functions: colliders of the new shapes
//! (oriented box, triangle, cylinder, cone, convex hull), shape casts,
//! nearest collider, distance and contact between two colliders, and the
//! character's move and slide. Thin shells over the safe
//! [`World`](crate::World) queries, with the conventions of
//! [`world`](super::world): checked pointers, outputs written on success.

use std::sync::Arc;

use crate::error::Error;
use crate::ffi::error::{guard, Failure, PhysStatus};
use crate::ffi::query::{overlap, read_filter};
use crate::ffi::types::*;
use crate::ffi::world::{add, check_count, check_pointer, copy_in, read_in, try_vec, world_ref, Out, PhysWorld};
use crate::math::Vec3;
use crate::shape::{ConvexHull, TriangleMesh};
use crate::shape::{Shape, Sphere};

/// Adds an oriented-box collider (object space: an exact rotated box, not
/// the book's axis-aligned `BoxComponent`), placed by `desc` (NULL for the
/// defaults). The new handle goes to `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_add_obb(
    world: *mut PhysWorld,
    obb: *const PhysObb,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(world, read_in(obb, "obb").map(|v| Shape::Obb(v.into())), desc, out)
}

/// Adds a triangle collider (object space, flat and two-sided), placed by
/// `desc` (NULL for the defaults). The new handle goes to `*out`.
///
/// Errors: `PHYS_ERROR_NON_FINITE` for a NaN or infinite corner, or corners
/// more than `FLT_MAX` apart on an axis (before or after `desc`'s
/// transform).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_add_triangle(
    world: *mut PhysWorld,
    triangle: *const PhysTriangle,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(
        world,
        read_in(triangle, "triangle").map(|v| Shape::Triangle(v.into())),
        desc,
        out,
    )
}

/// Adds a cylinder collider (object space), placed by `desc` (NULL for the
/// defaults). The new handle goes to `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_add_cylinder(
    world: *mut PhysWorld,
    cylinder: *const PhysCylinder,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(
        world,
        read_in(cylinder, "cylinder").map(|v| Shape::Cylinder(v.into())),
        desc,
        out,
    )
}

/// Adds a cone collider (object space), placed by `desc` (NULL for the
/// defaults). The new handle goes to `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_add_cone(
    world: *mut PhysWorld,
    cone: *const PhysCone,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(world, read_in(cone, "cone").map(|v| Shape::Cone(v.into())), desc, out)
}

/// The convex hull of `count` points read from `points` (object space).
pub(crate) fn hull_of(points: *const PhysVec3, count: usize) -> Result<Shape, Failure> {
    let points: Vec<Vec3> = copy_in(points, count, "points", Vec3::from)?;
    Ok(Shape::Hull(Arc::new(ConvexHull::from_points(&points)?)))
}

/// Adds a convex-hull collider: the hull of `count` points (object space;
/// at least four, not coplanar; interior points are dropped), placed by
/// `desc` (NULL for the defaults; its scale must have no zero component).
/// The new handle goes to `*out`. The points are copied.
///
/// # Safety
/// The pointer contract at the top of collide.h; `points` holds `count`
/// readable points.
#[no_mangle]
pub unsafe extern "C" fn phys_add_hull(
    world: *mut PhysWorld,
    points: *const PhysVec3,
    count: usize,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(world, hull_of(points, count), desc, out)
}

/// The triangle mesh of `vertex_count` vertices and `index_count / 3`
/// triangles read from `vertices` and `indices` (object space).
pub(crate) fn mesh_of(
    vertices: *const PhysVec3,
    vertex_count: usize,
    indices: *const u32,
    index_count: usize,
) -> Result<Shape, Failure> {
    check_pointer(vertices, "vertices")?;
    check_pointer(indices, "indices")?;
    if index_count % 3 != 0 {
        return Err(Error::InvalidArgument("index_count is not a multiple of 3").into());
    }
    check_count::<PhysVec3>(vertex_count, "too many mesh vertices or indices")?;
    check_count::<u32>(index_count, "too many mesh vertices or indices")?;
    // Both buffers are reserved before either array is read.
    let mut triangles: Vec<[u32; 3]> = try_vec(index_count / 3, "the mesh's triangles")?;
    let vertices: Vec<Vec3> = copy_in(vertices, vertex_count, "vertices", Vec3::from)?;
    // SAFETY: non-NULL and aligned (checked), the byte length fits in
    // `isize` (checked); the caller guarantees `index_count` readable indices.
    let indices = unsafe { core::slice::from_raw_parts(indices, index_count) };
    triangles.extend(indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]));
    Ok(Shape::Mesh(Arc::new(TriangleMesh::new(vertices, triangles)?)))
}

/// Adds a static triangle-mesh collider (level geometry): `vertex_count`
/// vertices and `index_count / 3` triangles, three vertex indices each
/// (object space), placed by `desc` (NULL for the defaults). Both arrays are
/// copied and a BVH is built over the triangles. Segment casts and overlaps
/// test the triangles exactly (two-sided); two meshes never form a pair.
/// The new handle goes to `*out`.
///
/// Errors: `PHYS_ERROR_INVALID_ARGUMENT` when `index_count` is not a
/// multiple of 3, is 0, or an index is `>= vertex_count`;
/// `PHYS_ERROR_NON_FINITE` for a NaN or infinite vertex, or a triangle
/// whose corners lie more than `FLT_MAX` apart on an axis (before or after
/// `desc`'s transform).
///
/// # Safety
/// The pointer contract at the top of collide.h; `vertices` holds
/// `vertex_count` readable vertices and `indices` `index_count` readable
/// indices.
#[no_mangle]
pub unsafe extern "C" fn phys_add_mesh(
    world: *mut PhysWorld,
    vertices: *const PhysVec3,
    vertex_count: usize,
    indices: *const u32,
    index_count: usize,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(world, mesh_of(vertices, vertex_count, indices, index_count), desc, out)
}

/// Every collider `filter` accepts that overlaps the world-space oriented
/// box (touching counts), with the `*_into` conventions of
/// `phys_overlap_box`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_overlap_obb(
    world: *const PhysWorld,
    obb: *const PhysObb,
    filter: *const PhysQueryFilter,
    out: *mut PhysColliderRef,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    let shape = read_in(obb, "obb").map(|o| Shape::Obb(o.into()));
    overlap(world, shape, filter, out, capacity, written, total)
}

/// Casts `shape` by `*motion` and reports the first hit, the
/// `phys_segment_cast` way.
pub(crate) fn shape_cast(
    world: *const PhysWorld,
    shape: Result<Shape, Failure>,
    motion: *const PhysVec3,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysShapeHit,
) -> PhysStatus {
    guard(|| {
        let shape = shape?;
        let out_hit = Out::new(out_hit, "out_hit")?;
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let motion = read_in(motion, "motion")?.into();
        let filter = read_filter(&world, filter)?;
        out.write_some(
            out_hit,
            world
                .world
                .cast_shape(&shape, motion, &filter)?
                .map(|hit| PhysShapeHit::new(hit, world.salt)),
        );
        Ok(())
    })
}

/// Moves the world-space sphere by `*motion` and reports the first
/// collider `filter` accepts (NULL accepts all) that it touches: `*out_hit`
/// says whether there was one and, if so, `*out` holds it (left alone on a
/// miss). A sphere already touching a collider hits it at t = 0.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_shape_cast_sphere(
    world: *const PhysWorld,
    sphere: *const PhysSphere,
    motion: *const PhysVec3,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysShapeHit,
) -> PhysStatus {
    let shape = read_in(sphere, "sphere").map(|s| Shape::Sphere(s.into()));
    shape_cast(world, shape, motion, filter, out_hit, out)
}

/// `phys_shape_cast_sphere` for a world-space capsule.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_shape_cast_capsule(
    world: *const PhysWorld,
    capsule: *const PhysCapsule,
    motion: *const PhysVec3,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysShapeHit,
) -> PhysStatus {
    let shape = read_in(capsule, "capsule").map(|c| Shape::Capsule(c.into()));
    shape_cast(world, shape, motion, filter, out_hit, out)
}

/// `phys_shape_cast_sphere` for a world-space axis-aligned box.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_shape_cast_box(
    world: *const PhysWorld,
    aabb: *const PhysAabb,
    motion: *const PhysVec3,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysShapeHit,
) -> PhysStatus {
    let shape = read_in(aabb, "aabb").map(|b| Shape::Aabb(b.into()));
    shape_cast(world, shape, motion, filter, out_hit, out)
}

/// The collider `filter` accepts nearest to `shape` within `max_distance`
/// (`World::closest`) into `*out`, `*out_hit` saying whether there is one:
/// `phys_closest` and `phys_closest_point`.
pub(crate) fn closest(
    world: *const PhysWorld,
    shape: Result<Shape, Failure>,
    max_distance: f32,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysClosest,
) -> PhysStatus {
    guard(|| {
        let shape = shape?;
        let out_hit = Out::new(out_hit, "out_hit")?;
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let filter = read_filter(&world, filter)?;
        let found = world.world.closest(&shape, max_distance, &filter)?;
        out.write_some(
            out_hit,
            found.map(|(key, distance)| PhysClosest {
                collider: world.handle(key),
                user_data: world.world.get(key).map_or(0, |c| c.user_data()),
                distance: distance.into(),
            }),
        );
        Ok(())
    })
}

/// The collider `filter` accepts (NULL accepts all) nearest to `*point`,
/// if one is within `max_distance` (finite, >= 0): `*out_hit` says whether
/// there was one and, if so, `*out` holds it, its user data and the
/// distance (left alone when there is none). Colliders containing the
/// point are at distance 0.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_closest_point(
    world: *const PhysWorld,
    point: *const PhysVec3,
    max_distance: f32,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysClosest,
) -> PhysStatus {
    // `World::project_point` is the nearest to a ball of radius 0 there.
    let ball = read_in(point, "point").map(|p| Shape::Sphere(Sphere::new(p.into(), 0.0)));
    closest(world, ball, max_distance, filter, out_hit, out)
}

/// The distance between colliders `a` and `b`, with their closest points
/// (`point_a` on `a`), into `*out`. `PHYS_ERROR_STALE_HANDLE` when either
/// handle names no live collider.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_distance(
    world: *const PhysWorld,
    a: PhysCollider,
    b: PhysCollider,
    out: *mut PhysDistance,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let distance = world.world.distance(world.key_of(a)?, world.key_of(b)?)?;
        out.write(distance.into());
        Ok(())
    })
}

/// Whether colliders `a` and `b` touch or overlap (`*out_touching`) and,
/// if so, their contact in `*out` (depth, normal from `a` to `b`, deepest
/// points; left alone when they are apart). `PHYS_ERROR_STALE_HANDLE` when
/// either handle names no live collider.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_contact(
    world: *const PhysWorld,
    a: PhysCollider,
    b: PhysCollider,
    out_touching: *mut bool,
    out: *mut PhysContact,
) -> PhysStatus {
    guard(|| {
        let out_touching = Out::new(out_touching, "out_touching")?;
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        out.write_some(
            out_touching,
            world
                .world
                .contact(world.key_of(a)?, world.key_of(b)?)?
                .map(|contact| contact.into()),
        );
        Ok(())
    })
}

/// Moves the character capsule (world space) by `*motion` through the
/// colliders `filter` accepts (NULL accepts all), sliding along what it
/// meets, at most `max_iterations` casts (see `World::move_and_slide`):
/// `*out_delta` gets the displacement to apply to the character,
/// `*out_hit_count` how many surfaces it met. The world is not changed.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_move_and_slide_capsule(
    world: *const PhysWorld,
    capsule: *const PhysCapsule,
    motion: *const PhysVec3,
    filter: *const PhysQueryFilter,
    max_iterations: u32,
    out_delta: *mut PhysVec3,
    out_hit_count: *mut usize,
) -> PhysStatus {
    guard(|| {
        let out_delta = Out::new(out_delta, "out_delta")?;
        let out_hit_count = Out::new(out_hit_count, "out_hit_count")?;
        let world = world_ref(world)?;
        let capsule = Shape::Capsule(read_in(capsule, "capsule")?.into());
        let motion = read_in(motion, "motion")?.into();
        let filter = read_filter(&world, filter)?;
        let moved = world
            .world
            .move_and_slide(&capsule, motion, &filter, max_iterations as usize)?;
        out_delta.write(moved.position_delta.into());
        out_hit_count.write(moved.hits.len());
        Ok(())
    })
}
