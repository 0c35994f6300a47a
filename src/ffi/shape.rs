//! One way to say a shape in C: the tagged [`PhysShape`] (a kind and a
//! union of the plain shape structs, hulls and meshes by handle), taken by
//! `phys_add_shape`, `phys_set_shape`, `phys_overlap_shape`,
//! `phys_shape_cast`, `phys_closest`, `phys_move_and_slide` and the world-free
//! `phys_shape_distance` / `phys_shape_contact`; and the shared,
//! reference-counted hull, mesh and height-field objects ([`PhysHull`],
//! [`PhysMesh`], [`PhysHeightField`]) that a shape names, built once and
//! used by any number of colliders.

use std::sync::Arc;

use crate::error::Error;
use crate::ffi::error::{guard, Failure, PhysStatus};
use crate::ffi::narrow::{closest, hull_of, mesh_of, shape_cast};
use crate::ffi::query::{fill, overlap, read_filter};
use crate::ffi::types::*;
use crate::ffi::world::{
    add, add_batch, check_count, check_pointer, copy_in, read_in, set_shape, update_batch, world_ref, Out, PhysWorld,
};
use crate::shape::{Compound, ConvexHull, HeightField, Shape, TriangleMesh};

/// `PhysShape::kind` of an axis-aligned box (`data.aabb`).
pub const PHYS_SHAPE_BOX: u32 = 1;
/// `PhysShape::kind` of a sphere (`data.sphere`).
pub const PHYS_SHAPE_SPHERE: u32 = 2;
/// `PhysShape::kind` of a capsule (`data.capsule`).
pub const PHYS_SHAPE_CAPSULE: u32 = 3;
/// `PhysShape::kind` of an oriented box (`data.obb`).
pub const PHYS_SHAPE_OBB: u32 = 4;
/// `PhysShape::kind` of a triangle (`data.triangle`).
pub const PHYS_SHAPE_TRIANGLE: u32 = 5;
/// `PhysShape::kind` of a cylinder (`data.cylinder`).
pub const PHYS_SHAPE_CYLINDER: u32 = 6;
/// `PhysShape::kind` of a cone (`data.cone`).
pub const PHYS_SHAPE_CONE: u32 = 7;
/// `PhysShape::kind` of a convex hull (`data.hull`, a `phys_hull_create`
/// handle).
pub const PHYS_SHAPE_HULL: u32 = 8;
/// `PhysShape::kind` of a triangle mesh (`data.mesh`, a `phys_mesh_create`
/// handle).
pub const PHYS_SHAPE_MESH: u32 = 9;
/// `PhysShape::kind` of a height field (`data.heightfield`, a
/// `phys_heightfield_create` handle).
pub const PHYS_SHAPE_HEIGHTFIELD: u32 = 10;
/// `PhysShape::kind` of a compound (`data.compound`, a
/// `phys_compound_create` handle).
pub const PHYS_SHAPE_COMPOUND: u32 = 11;

/// A convex hull built once by `phys_hull_create` and shared by every
/// collider and shape that names it; opaque. Each collider keeps its own
/// reference: `phys_hull_destroy` may come right after the adds.
pub struct PhysHull {
    hull: Arc<ConvexHull>,
}

/// A triangle mesh (vertices, triangles and their tree) built once by
/// `phys_mesh_create` and shared like a [`PhysHull`]; opaque.
pub struct PhysMesh {
    mesh: Arc<TriangleMesh>,
}

/// A height field (terrain: heights, holes and their min/max pyramid) built
/// once by `phys_heightfield_create` and shared like a [`PhysHull`]; opaque.
pub struct PhysHeightField {
    field: HeightField,
}

/// Convex children with their poses, built once by `phys_compound_create`
/// and shared like a [`PhysHull`]; opaque.
pub struct PhysCompound {
    compound: Arc<Compound>,
}

/// The shape of a [`PhysShape`], by its `kind`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union PhysShapeData {
    /// `PHYS_SHAPE_BOX`.
    pub aabb: PhysAabb,
    /// `PHYS_SHAPE_SPHERE`.
    pub sphere: PhysSphere,
    /// `PHYS_SHAPE_CAPSULE`.
    pub capsule: PhysCapsule,
    /// `PHYS_SHAPE_OBB`.
    pub obb: PhysObb,
    /// `PHYS_SHAPE_TRIANGLE`.
    pub triangle: PhysTriangle,
    /// `PHYS_SHAPE_CYLINDER`.
    pub cylinder: PhysCylinder,
    /// `PHYS_SHAPE_CONE`.
    pub cone: PhysCone,
    /// `PHYS_SHAPE_HULL`: a live `phys_hull_create` handle.
    pub hull: *const PhysHull,
    /// `PHYS_SHAPE_MESH`: a live `phys_mesh_create` handle.
    pub mesh: *const PhysMesh,
    /// `PHYS_SHAPE_HEIGHTFIELD`: a live `phys_heightfield_create` handle.
    pub heightfield: *const PhysHeightField,
    /// `PHYS_SHAPE_COMPOUND`: a live `phys_compound_create` handle.
    pub compound: *const PhysCompound,
}

/// Any shape collide knows, as plain data: `kind` (a `PHYS_SHAPE_*`
/// constant) says which member of `data` holds it. Object space when it
/// makes a collider (`phys_add_shape`, `phys_set_shape`), world space when
/// it is a query's probe.
///
/// ```c
/// PhysShape ball = {PHYS_SHAPE_SPHERE, {.sphere = {{0, 1, 0}, 0.5f}}};
/// ```
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PhysShape {
    /// `PHYS_SHAPE_*`: which member of `data` is the shape.
    pub kind: u32,
    /// The shape.
    pub data: PhysShapeData,
}

/// The hull or mesh a handle names, checked non-NULL and aligned.
fn shared<'a, T>(ptr: *const T, name: &'static str) -> Result<&'a T, Failure> {
    check_pointer(ptr, name)?;
    // SAFETY: non-NULL and aligned (checked); the caller guarantees a live
    // handle of `phys_hull_create` / `phys_mesh_create` (the header's
    // contract), which is never written after its creation.
    Ok(unsafe { &*ptr })
}

/// The [`Shape`] `*shape` (the argument `name`) describes: its kind checked, then that member of
/// its union read.
pub(crate) fn shape_of(shape: *const PhysShape, name: &'static str) -> Result<Shape, Failure> {
    let shape = read_in(shape, name)?;
    // SAFETY (every arm): `kind` names the member the caller wrote (the
    // header's contract); each member is plain data for which every bit
    // pattern is a value (floats, or a pointer checked before use).
    Ok(match shape.kind {
        PHYS_SHAPE_BOX => Shape::Aabb(unsafe { shape.data.aabb }.into()),
        PHYS_SHAPE_SPHERE => Shape::Sphere(unsafe { shape.data.sphere }.into()),
        PHYS_SHAPE_CAPSULE => Shape::Capsule(unsafe { shape.data.capsule }.into()),
        PHYS_SHAPE_OBB => Shape::Obb(unsafe { shape.data.obb }.into()),
        PHYS_SHAPE_TRIANGLE => Shape::Triangle(unsafe { shape.data.triangle }.into()),
        PHYS_SHAPE_CYLINDER => Shape::Cylinder(unsafe { shape.data.cylinder }.into()),
        PHYS_SHAPE_CONE => Shape::Cone(unsafe { shape.data.cone }.into()),
        PHYS_SHAPE_HULL => Shape::Hull(Arc::clone(&shared(unsafe { shape.data.hull }, "shape.data.hull")?.hull)),
        PHYS_SHAPE_MESH => Shape::Mesh(Arc::clone(&shared(unsafe { shape.data.mesh }, "shape.data.mesh")?.mesh)),
        PHYS_SHAPE_HEIGHTFIELD => Shape::HeightField(
            shared(unsafe { shape.data.heightfield }, "shape.data.heightfield")?
                .field
                .clone(),
        ),
        PHYS_SHAPE_COMPOUND => Shape::Compound(Arc::clone(
            &shared(unsafe { shape.data.compound }, "shape.data.compound")?.compound,
        )),
        _ => return Err(Error::InvalidArgument("shape.kind is not a PHYS_SHAPE_* constant").into()),
    })
}

/// Validates both shapes of a world-free query and refuses two surfaces
/// (meshes or height fields: their answer would be a pass over every pair
/// of triangles), as `World::distance` does.
pub(crate) fn check_pair(a: &Shape, b: &Shape) -> Result<(), Failure> {
    a.validate()?;
    b.validate()?;
    if a.surface().is_some() && b.surface().is_some() {
        return Err(Error::InvalidArgument("two surfaces are never measured against each other").into());
    }
    Ok(())
}

/// Builds the convex hull of `count` points (at least four, not coplanar;
/// interior points dropped) into `*out`, to be named by any number of
/// `PhysShape`s (`PHYS_SHAPE_HULL`) and released by `phys_hull_destroy`.
/// The points are copied.
///
/// # Safety
/// The pointer contract at the top of collide.h; `points` holds `count`
/// readable points.
#[no_mangle]
pub unsafe extern "C" fn phys_hull_create(
    points: *const PhysVec3,
    count: usize,
    out: *mut *mut PhysHull,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let Shape::Hull(hull) = hull_of(points, count)? else {
            unreachable!("hull_of builds a hull")
        };
        out.write(Box::into_raw(Box::new(PhysHull { hull })));
        Ok(())
    })
}

/// Releases the caller's reference to a hull (NULL does nothing). Colliders
/// made from it keep theirs: it is freed with the last of them.
///
/// # Safety
/// `hull` is NULL or a handle of `phys_hull_create` not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn phys_hull_destroy(hull: *mut PhysHull) {
    if !hull.is_null() {
        // SAFETY: a handle of `phys_hull_create` (Box::into_raw), destroyed
        // once (the caller's contract).
        drop(unsafe { Box::from_raw(hull) });
    }
}

/// Builds a triangle mesh of `vertex_count` vertices and `index_count / 3`
/// triangles (three vertex indices each) and its tree into `*out`, to be
/// named by any number of `PhysShape`s (`PHYS_SHAPE_MESH`) and released by
/// `phys_mesh_destroy`. Both arrays are copied. Errors as `phys_add_mesh`.
///
/// # Safety
/// The pointer contract at the top of collide.h; `vertices` holds
/// `vertex_count` readable vertices and `indices` `index_count` readable
/// indices.
#[no_mangle]
pub unsafe extern "C" fn phys_mesh_create(
    vertices: *const PhysVec3,
    vertex_count: usize,
    indices: *const u32,
    index_count: usize,
    out: *mut *mut PhysMesh,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let Shape::Mesh(mesh) = mesh_of(vertices, vertex_count, indices, index_count)? else {
            unreachable!("mesh_of builds a mesh")
        };
        out.write(Box::into_raw(Box::new(PhysMesh { mesh })));
        Ok(())
    })
}

/// Releases the caller's reference to a mesh (NULL does nothing), as
/// `phys_hull_destroy` does.
///
/// # Safety
/// `mesh` is NULL or a handle of `phys_mesh_create` not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn phys_mesh_destroy(mesh: *mut PhysMesh) {
    if !mesh.is_null() {
        // SAFETY: a handle of `phys_mesh_create` (Box::into_raw), destroyed
        // once (the caller's contract).
        drop(unsafe { Box::from_raw(mesh) });
    }
}

/// Builds a height field of `columns × rows` samples into `*out`, to be
/// named by any number of `PhysShape`s (`PHYS_SHAPE_HEIGHTFIELD`) and
/// released by `phys_heightfield_destroy`. `heights` holds `columns·rows`
/// heights, row-major (row `r` at `heights[r·columns]`); sample `(c, r)`
/// lies at `(c·scale.x, height·scale.y, r·scale.z)` in object space, each
/// cell split into two triangles along its diagonal from `(c, r)` to
/// `(c + 1, r + 1)`. `holes` is NULL for none, or one byte per cell
/// (`(columns − 1)·(rows − 1)`, row-major), non-zero for a hole. Both
/// arrays are copied. A height field collider can be moved and scaled
/// (positive scale), not rotated.
///
/// Errors: `PHYS_ERROR_INVALID_ARGUMENT` for fewer than 2 × 2 samples, a
/// scale not positive on every axis, or holes everywhere;
/// `PHYS_ERROR_NON_FINITE` for a NaN or infinite height or scale.
///
/// # Safety
/// The pointer contract at the top of collide.h; `heights` holds
/// `columns·rows` readable floats and `holes`, when not NULL,
/// `(columns − 1)·(rows − 1)` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn phys_heightfield_create(
    columns: usize,
    rows: usize,
    heights: *const f32,
    scale: *const PhysVec3,
    holes: *const u8,
    out: *mut *mut PhysHeightField,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let scale = read_in(scale, "scale")?;
        let count = columns
            .checked_mul(rows)
            .ok_or(Error::InvalidArgument("columns × rows overflows"))?;
        check_count::<f32>(count, "too many height field samples")?;
        let mut field = HeightField::new(columns, rows, copy_in(heights, count, "heights", |h| h)?, scale.into())?;
        if !holes.is_null() {
            let cells = (columns - 1) * (rows - 1);
            field = field.with_holes(&copy_in(holes, cells, "holes", |h| h != 0)?)?;
        }
        out.write(Box::into_raw(Box::new(PhysHeightField { field })));
        Ok(())
    })
}

/// Releases the caller's reference to a height field (NULL does nothing),
/// as `phys_hull_destroy` does.
///
/// # Safety
/// `field` is NULL or a handle of `phys_heightfield_create` not yet
/// destroyed.
#[no_mangle]
pub unsafe extern "C" fn phys_heightfield_destroy(field: *mut PhysHeightField) {
    if !field.is_null() {
        // SAFETY: a handle of `phys_heightfield_create` (Box::into_raw),
        // destroyed once (the caller's contract).
        drop(unsafe { Box::from_raw(field) });
    }
}

/// Builds a compound of `count` convex children into `*out`: child `i` is
/// `children[i]` (object space; not a mesh, height field or compound)
/// placed by `poses[i]` in the compound's frame. It is named by any number
/// of `PhysShape`s (`PHYS_SHAPE_COMPOUND`) and released by
/// `phys_compound_destroy`; the children are copied (a hull child is
/// shared). Every hit, contact, distance and manifold of the compound names
/// the child that made it by its index (`sub_shape`, `sub_shapes`).
///
/// Errors: `PHYS_ERROR_INVALID_ARGUMENT` for `count == 0` or a child that
/// is not convex; a child's or pose's own errors.
///
/// # Safety
/// The pointer contract at the top of collide.h; `children` and `poses`
/// each hold `count` readable records.
#[no_mangle]
pub unsafe extern "C" fn phys_compound_create(
    children: *const PhysShape,
    poses: *const PhysTransform,
    count: usize,
    out: *mut *mut PhysCompound,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let described = copy_in(children, count, "children", |c| c)?;
        let poses = copy_in(poses, count, "poses", crate::math::Transform::from)?;
        let shapes = described
            .iter()
            .map(|c| shape_of(c, "children"))
            .collect::<Result<Vec<_>, _>>()?;
        let compound = Compound::new(shapes.into_iter().zip(poses))?;
        out.write(Box::into_raw(Box::new(PhysCompound {
            compound: Arc::new(compound),
        })));
        Ok(())
    })
}

/// Releases the caller's reference to a compound (NULL does nothing), as
/// `phys_hull_destroy` does.
///
/// # Safety
/// `compound` is NULL or a handle of `phys_compound_create` not yet
/// destroyed.
#[no_mangle]
pub unsafe extern "C" fn phys_compound_destroy(compound: *mut PhysCompound) {
    if !compound.is_null() {
        // SAFETY: a handle of `phys_compound_create` (Box::into_raw),
        // destroyed once (the caller's contract).
        drop(unsafe { Box::from_raw(compound) });
    }
}

/// Adds a collider of any shape (object space), placed by `desc` (NULL for
/// the defaults). The new handle goes to `*out`. Errors as the
/// shape-specific adds, and `PHYS_ERROR_INVALID_ARGUMENT` for an unknown
/// `kind`.
///
/// # Safety
/// The pointer contract at the top of collide.h; a hull or mesh shape names
/// a live handle.
#[no_mangle]
pub unsafe extern "C" fn phys_add_shape(
    world: *mut PhysWorld,
    shape: *const PhysShape,
    desc: *const PhysColliderDesc,
    out: *mut PhysCollider,
) -> PhysStatus {
    add(world, shape_of(shape, "shape"), desc, out)
}

/// Gives a collider another shape, of any kind (object space); its
/// placement, user data and filter stay.
///
/// # Safety
/// The pointer contract at the top of collide.h; a hull or mesh shape names
/// a live handle.
#[no_mangle]
pub unsafe extern "C" fn phys_set_shape(
    world: *mut PhysWorld,
    collider: PhysCollider,
    shape: *const PhysShape,
) -> PhysStatus {
    set_shape(world, collider, shape_of(shape, "shape"))
}

/// Adds `count` colliders of any shapes at once (`World::extend`, a level
/// load): `shapes[i]` in object space, placed by `descs[i]` (`descs` NULL
/// for the defaults for all), handles into `out[i]`. All or nothing, with
/// the count rules of `phys_add_boxes`.
///
/// # Safety
/// The pointer contract at the top of collide.h; each array holds `count`
/// records, and every hull or mesh shape names a live handle.
#[no_mangle]
pub unsafe extern "C" fn phys_add_shapes(
    world: *mut PhysWorld,
    shapes: *const PhysShape,
    descs: *const PhysColliderDesc,
    count: usize,
    out: *mut PhysCollider,
) -> PhysStatus {
    // Each `PhysShape` is read through its pointer: `shape_of` checks its
    // kind before its union.
    add_batch(world, shapes, "shapes", descs, count, out, |shape: &PhysShape| {
        shape_of(shape, "shapes")
    })
}

/// Gives `count` colliders other shapes at once (`World::set_shapes`):
/// `colliders[i]` gets `shapes[i]` (object space), in order. All or
/// nothing, with the count rules of `phys_set_transforms`.
///
/// # Safety
/// The pointer contract at the top of collide.h; each array holds `count`
/// records, and every hull or mesh shape names a live handle.
#[no_mangle]
pub unsafe extern "C" fn phys_set_shapes(
    world: *mut PhysWorld,
    colliders: *const PhysCollider,
    shapes: *const PhysShape,
    count: usize,
) -> PhysStatus {
    update_batch(
        world,
        colliders,
        shapes,
        "shapes",
        count,
        |shape: &PhysShape| shape_of(shape, "shapes"),
        |world, updates| world.set_shapes(updates),
    )
}

/// A collider's object-space shape, in `*out`. A hull's, mesh's or height
/// field's handle in it is a new reference to the collider's own, for the
/// caller to release with `phys_hull_destroy` / `phys_mesh_destroy` /
/// `phys_heightfield_destroy`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_get_shape(
    world: *const PhysWorld,
    collider: PhysCollider,
    out: *mut PhysShape,
) -> PhysStatus {
    guard(|| {
        let out = Out::new(out, "out")?;
        let world = world_ref(world)?;
        let collider = world.world.get(world.key_of(collider)?).ok_or(Error::StaleHandle)?;
        out.write(described(&collider.shape()));
        Ok(())
    })
}

/// The `PhysShape` of `shape`; a hull, mesh, height field or compound by a
/// new handle.
fn described(shape: &Shape) -> PhysShape {
    let segment = |s: &crate::shape::Segment| PhysSegment {
        start: s.start.into(),
        end: s.end.into(),
    };
    let (kind, data) = match shape {
        Shape::Aabb(b) => (PHYS_SHAPE_BOX, PhysShapeData { aabb: (*b).into() }),
        Shape::Sphere(s) => (
            PHYS_SHAPE_SPHERE,
            PhysShapeData {
                sphere: PhysSphere {
                    center: s.center.into(),
                    radius: s.radius,
                },
            },
        ),
        Shape::Capsule(c) => (
            PHYS_SHAPE_CAPSULE,
            PhysShapeData {
                capsule: PhysCapsule {
                    segment: segment(&c.segment),
                    radius: c.radius,
                },
            },
        ),
        Shape::Obb(o) => (
            PHYS_SHAPE_OBB,
            PhysShapeData {
                obb: PhysObb {
                    center: o.center.into(),
                    rotation: o.rotation.into(),
                    half_extents: o.half_extents.into(),
                },
            },
        ),
        Shape::Triangle(t) => (
            PHYS_SHAPE_TRIANGLE,
            PhysShapeData {
                triangle: PhysTriangle {
                    a: t.a.into(),
                    b: t.b.into(),
                    c: t.c.into(),
                },
            },
        ),
        Shape::Cylinder(c) => (
            PHYS_SHAPE_CYLINDER,
            PhysShapeData {
                cylinder: PhysCylinder {
                    segment: segment(&c.segment),
                    radius: c.radius,
                },
            },
        ),
        Shape::Cone(c) => (
            PHYS_SHAPE_CONE,
            PhysShapeData {
                cone: PhysCone {
                    base_center: c.base_center.into(),
                    apex: c.apex.into(),
                    radius: c.radius,
                },
            },
        ),
        Shape::Hull(h) => (
            PHYS_SHAPE_HULL,
            PhysShapeData {
                hull: Box::into_raw(Box::new(PhysHull { hull: Arc::clone(h) })),
            },
        ),
        Shape::Mesh(m) => (
            PHYS_SHAPE_MESH,
            PhysShapeData {
                mesh: Box::into_raw(Box::new(PhysMesh { mesh: Arc::clone(m) })),
            },
        ),
        Shape::HeightField(h) => (
            PHYS_SHAPE_HEIGHTFIELD,
            PhysShapeData {
                heightfield: Box::into_raw(Box::new(PhysHeightField { field: h.clone() })),
            },
        ),
        Shape::Compound(c) => (
            PHYS_SHAPE_COMPOUND,
            PhysShapeData {
                compound: Box::into_raw(Box::new(PhysCompound {
                    compound: Arc::clone(c),
                })),
            },
        ),
    };
    PhysShape { kind, data }
}

/// Every collider `filter` accepts that overlaps the world-space convex
/// `shape` (touching counts), with the `*_into` conventions of
/// `phys_overlap_box`. A mesh is no probe: `PHYS_ERROR_INVALID_ARGUMENT`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_overlap_shape(
    world: *const PhysWorld,
    shape: *const PhysShape,
    filter: *const PhysQueryFilter,
    out: *mut PhysColliderRef,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    overlap(world, shape_of(shape, "shape"), filter, out, capacity, written, total)
}

/// Moves the world-space convex `shape` by `*motion` and reports the first
/// collider `filter` accepts that it touches, as `phys_shape_cast_sphere`
/// does for a sphere.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_shape_cast(
    world: *const PhysWorld,
    shape: *const PhysShape,
    motion: *const PhysVec3,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysShapeHit,
) -> PhysStatus {
    shape_cast(world, shape_of(shape, "shape"), motion, filter, out_hit, out)
}

/// The collider `filter` accepts nearest to the world-space convex `shape`,
/// if one is within `max_distance` (finite, >= 0): `*out_hit` says whether
/// there was one and, if so, `*out` holds it, its user data and the
/// distance (`point_a` on `shape`; left alone when there is none).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_closest(
    world: *const PhysWorld,
    shape: *const PhysShape,
    max_distance: f32,
    filter: *const PhysQueryFilter,
    out_hit: *mut bool,
    out: *mut PhysClosest,
) -> PhysStatus {
    closest(world, shape_of(shape, "shape"), max_distance, filter, out_hit, out)
}

/// Moves the character `shape` (world space, convex) by `*motion` through
/// the colliders `filter` accepts (NULL accepts all), sliding along what it
/// meets, at most `max_iterations` casts, after pushing it out of what it
/// starts inside (see `World::move_and_slide`): `*out_delta` gets the
/// displacement to apply to the character, and `out` every surface met, in
/// order, with the `*_into` conventions (the pushes out at `t = 0` first):
/// a character is grounded when a hit's normal points up. At most
/// `max_iterations + 4` hits: a buffer that large never falls short. The
/// world is not changed.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_move_and_slide(
    world: *const PhysWorld,
    shape: *const PhysShape,
    motion: *const PhysVec3,
    filter: *const PhysQueryFilter,
    max_iterations: u32,
    out_delta: *mut PhysVec3,
    out: *mut PhysHit,
    capacity: usize,
    written: *mut usize,
    total: *mut usize,
) -> PhysStatus {
    guard(|| {
        let shape = shape_of(shape, "shape")?;
        let out_delta = Out::new(out_delta, "out_delta")?;
        let world = world_ref(world)?;
        let motion = read_in(motion, "motion")?.into();
        let filter = read_filter(&world, filter)?;
        let moved = world
            .world
            .move_and_slide(&shape, motion, &filter, max_iterations as usize)?;
        let salt = world.salt;
        fill(
            &moved.hits,
            |hit| PhysHit::new(hit, salt),
            out,
            capacity,
            written,
            total,
        )?;
        out_delta.write(moved.position_delta.into());
        Ok(())
    })
}

/// The distance between two shapes (no world), with their closest points
/// (`point_a` on `a`), into `*out`: `Shape::distance`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_shape_distance(
    a: *const PhysShape,
    b: *const PhysShape,
    out: *mut PhysDistance,
) -> PhysStatus {
    guard(|| {
        let (a, b) = (shape_of(a, "a")?, shape_of(b, "b")?);
        let out = Out::new(out, "out")?;
        check_pair(&a, &b)?;
        out.write(a.distance(&b).into());
        Ok(())
    })
}

/// Whether two shapes (no world) touch or overlap (`*out_touching`) and,
/// if so, their contact in `*out` (depth, normal from `a` to `b`, deepest
/// points; left alone when they are apart): `Shape::contact`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_shape_contact(
    a: *const PhysShape,
    b: *const PhysShape,
    out_touching: *mut bool,
    out: *mut PhysContact,
) -> PhysStatus {
    guard(|| {
        let (a, b) = (shape_of(a, "a")?, shape_of(b, "b")?);
        let out_touching = Out::new(out_touching, "out_touching")?;
        let out = Out::new(out, "out")?;
        check_pair(&a, &b)?;
        out.write_some(out_touching, a.contact(&b).map(|contact| contact.into()));
        Ok(())
    })
}
