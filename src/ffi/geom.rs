//! The book's free geometry (*Game Programming in C++*, chapter 10,
//! `Collision.h`) without a world: `phys_geom_*` over plain structs —
//! planes, convex polygons, closest points of segments, point–box distance,
//! swept spheres, any two shapes' overlap and a segment against one shape.
//! The book's `FixCollisions` push-out is `phys_move_and_slide` with a zero
//! motion.

use crate::ffi::error::{guard, Failure, PhysStatus};
use crate::ffi::shape::{shape_of, PhysShape};
use crate::ffi::types::*;
use crate::ffi::world::{copy_in, read_in, Out};
use crate::math::{Vec2, Vec3};
use crate::shape::{ConvexPolygon, Plane, Segment, Sphere};

/// A plane of points `x` with `normal·x + d = 0`, `|normal| = 1` (the
/// book's `Plane`; positive signed distances on the normal's side).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysPlane {
    /// Unit normal.
    pub normal: PhysVec3,
    /// Offset: `d = −normal·p` for any point `p` of the plane.
    pub d: f32,
}

/// A 2D point (the book's `Vector2`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysVec2 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
}

/// The closest points of two segments (the book's `MinDistSq` of two
/// `LineSegment`s, with its witnesses).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysSegmentClosest {
    /// The closest point's parameter on the first segment, in `[0, 1]`.
    pub s: f32,
    /// The closest point's parameter on the second segment, in `[0, 1]`.
    pub t: f32,
    /// The closest point on the first segment.
    pub point_a: PhysVec3,
    /// The closest point on the second segment.
    pub point_b: PhysVec3,
    /// `|point_a − point_b|²`.
    pub distance_squared: f32,
}

const _: () = {
    assert!(size_of::<PhysPlane>() == 16);
    assert!(size_of::<PhysVec2>() == 8);
    assert!(size_of::<PhysSegmentClosest>() == 36);
};

/// The plane through three points, normal `(b − a) × (c − a)` normalised
/// (the book's `Plane(a, b, c)`), in `*out`. `PHYS_ERROR_INVALID_ARGUMENT`
/// for collinear points, `PHYS_ERROR_NON_FINITE` for a plane whose offset
/// is beyond `float` (points near `FLT_MAX`).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_plane_from_points(
    a: *const PhysVec3,
    b: *const PhysVec3,
    c: *const PhysVec3,
    out: *mut PhysPlane,
) -> PhysStatus {
    guard(|| {
        let (a, b, c) = (read_in(a, "a")?, read_in(b, "b")?, read_in(c, "c")?);
        let out = Out::new(out, "out")?;
        let plane = Plane::from_points(a.into(), b.into(), c.into())?;
        out.write(PhysPlane {
            normal: plane.normal.into(),
            d: plane.d,
        });
        Ok(())
    })
}

/// `normal·p + d`, positive on the normal's side (the book's
/// `Plane::SignedDist`, with the sign fixed: see BOOK.md), in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_plane_signed_distance(
    plane: *const PhysPlane,
    point: *const PhysVec3,
    out: *mut f32,
) -> PhysStatus {
    guard(|| {
        let plane = read_plane(plane)?;
        let point: Vec3 = read_in(point, "point")?.into();
        let out = Out::new(out, "out")?;
        out.write(plane.signed_distance(point));
        Ok(())
    })
}

/// A plane checked as `Plane`'s constructors check one.
fn read_plane(plane: *const PhysPlane) -> Result<Plane, Failure> {
    let plane = read_in(plane, "plane")?;
    Ok(Plane::from_normal_and_point(
        plane.normal.into(),
        Vec3::from(plane.normal) * -plane.d,
    )?)
}

/// Whether the convex polygon of `count` vertices (either winding) contains
/// `*point`, edges and vertices included (the book's
/// `ConvexPolygon::Contains`, exact where its summed `acos` is not), in
/// `*out`. `PHYS_ERROR_INVALID_ARGUMENT` for fewer than three vertices or a
/// polygon that is not convex.
///
/// # Safety
/// The pointer contract at the top of collide.h; `vertices` holds `count`
/// readable points.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_polygon_contains(
    vertices: *const PhysVec2,
    count: usize,
    point: *const PhysVec2,
    out: *mut bool,
) -> PhysStatus {
    guard(|| {
        let vertices: Vec<Vec2> = copy_in(vertices, count, "vertices", |v| Vec2::new(v.x, v.y))?;
        let point = read_in(point, "point")?;
        let out = Out::new(out, "out")?;
        let polygon = ConvexPolygon::new(vertices)?;
        out.write(polygon.contains_point(Vec2::new(point.x, point.y)));
        Ok(())
    })
}

/// The closest points of two segments (the book's `MinDistSq(LineSegment,
/// LineSegment)`, Ericson §5.1.9), in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_segment_closest_points(
    a: *const PhysSegment,
    b: *const PhysSegment,
    out: *mut PhysSegmentClosest,
) -> PhysStatus {
    guard(|| {
        let (a, b) = (finite_segment(a, "a")?, finite_segment(b, "b")?);
        let out = Out::new(out, "out")?;
        let c = a.closest_points(&b);
        out.write(PhysSegmentClosest {
            s: c.s,
            t: c.t,
            point_a: c.point_a.into(),
            point_b: c.point_b.into(),
            distance_squared: c.distance_squared,
        });
        Ok(())
    })
}

/// A segment with finite ends.
fn finite_segment(segment: *const PhysSegment, name: &'static str) -> Result<Segment, Failure> {
    let s = read_in(segment, name)?;
    let segment = Segment::new(s.start.into(), s.end.into());
    if !segment.is_finite() {
        return Err(crate::error::Error::NonFinite("a segment end point").into());
    }
    Ok(segment)
}

/// The squared distance from `*point` to the segment (the book's
/// `LineSegment::MinDistSq`), in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_segment_point_distance_squared(
    segment: *const PhysSegment,
    point: *const PhysVec3,
    out: *mut f32,
) -> PhysStatus {
    guard(|| {
        let segment = finite_segment(segment, "segment")?;
        let point = finite_point(point)?;
        let out = Out::new(out, "out")?;
        out.write(segment.distance_squared_to_point(point));
        Ok(())
    })
}

/// A finite point.
fn finite_point(point: *const PhysVec3) -> Result<Vec3, Failure> {
    let point: Vec3 = read_in(point, "point")?.into();
    if !point.is_finite() {
        return Err(crate::error::Error::NonFinite("point").into());
    }
    Ok(point)
}

/// The squared distance from `*point` to the box, 0 inside (the book's
/// `AABB::MinDistSq`), in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_box_point_distance_squared(
    aabb: *const PhysAabb,
    point: *const PhysVec3,
    out: *mut f32,
) -> PhysStatus {
    guard(|| {
        let aabb: crate::math::Aabb = read_in(aabb, "aabb")?.into();
        aabb.validate()?;
        let point = finite_point(point)?;
        let out = Out::new(out, "out")?;
        out.write(aabb.distance_squared_to_point(point));
        Ok(())
    })
}

/// When two spheres moving by `*motion_a` and `*motion_b` over a step first
/// touch (the book's `SweptSphere`, with its bugs fixed: see BOOK.md):
/// `*out_hit` says whether they do within the step and, if so, `*out_t` is
/// the fraction of the step (0 when they already touch; left alone on a
/// miss).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_swept_spheres(
    a: *const PhysSphere,
    motion_a: *const PhysVec3,
    b: *const PhysSphere,
    motion_b: *const PhysVec3,
    out_hit: *mut bool,
    out_t: *mut f32,
) -> PhysStatus {
    guard(|| {
        let (a, b): (Sphere, Sphere) = (read_in(a, "a")?.into(), read_in(b, "b")?.into());
        let motion_a: Vec3 = read_in(motion_a, "motion_a")?.into();
        let motion_b: Vec3 = read_in(motion_b, "motion_b")?.into();
        let out_hit = Out::new(out_hit, "out_hit")?;
        let out_t = Out::new(out_t, "out_t")?;
        crate::shape::Shape::Sphere(a).validate()?;
        crate::shape::Shape::Sphere(b).validate()?;
        if !(motion_a.is_finite() && motion_b.is_finite()) {
            return Err(crate::error::Error::NonFinite("motion").into());
        }
        out_t.write_some(out_hit, a.cast_sphere(motion_a, &b, motion_b).map(|toi| toi.t));
        Ok(())
    })
}

/// Whether two shapes touch or overlap (the book's `Intersect` of any two of
/// its shapes, and every other pair), in `*out`.
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_intersects(a: *const PhysShape, b: *const PhysShape, out: *mut bool) -> PhysStatus {
    guard(|| {
        let (a, b) = (shape_of(a, "a")?, shape_of(b, "b")?);
        let out = Out::new(out, "out")?;
        a.validate()?;
        b.validate()?;
        out.write(a.intersects(&b));
        Ok(())
    })
}

/// The first point of the segment in the shape (the book's `Intersect` of a
/// `LineSegment` with a sphere, a plane-free box, ...): `*out_hit` says
/// whether it hits and, if so, `*out_t` is its parameter along the segment
/// and `*out_normal` the surface's outward normal there (left alone on a
/// miss).
///
/// # Safety
/// The pointer contract at the top of collide.h.
#[no_mangle]
pub unsafe extern "C" fn phys_geom_segment_cast(
    segment: *const PhysSegment,
    shape: *const PhysShape,
    out_hit: *mut bool,
    out_t: *mut f32,
    out_normal: *mut PhysVec3,
) -> PhysStatus {
    guard(|| {
        let segment = finite_segment(segment, "segment")?;
        let shape = shape_of(shape, "shape")?;
        let out_hit = Out::new(out_hit, "out_hit")?;
        let out_t = Out::new(out_t, "out_t")?;
        let out_normal = Out::new(out_normal, "out_normal")?;
        shape.validate()?;
        match shape.cast_segment(&segment) {
            Some(hit) => {
                out_t.write(hit.t);
                out_normal.write(hit.normal.into());
                out_hit.write(true);
            }
            None => out_hit.write(false),
        }
        Ok(())
    })
}
