//! [`Shape`]: any of the shapes, the one type the world stores and every
//! query dispatches on, with its validation, bounds and placement.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::math::{unit_without_overflow, Aabb, DVec3, Mat3, Transform, Vec3};
use crate::shape::{
    Capsule, Compound, Cone, ConvexHull, Cylinder, HeightField, Obb, Segment, Sphere, Triangle, TriangleMesh,
};

/// A collider's shape: in object space when given to the world, in world
/// space as [`ColliderRef::world_shape`](crate::collider::ColliderRef::world_shape).
///
/// `Clone`, not `Copy`: a [`Shape::Hull`] holds its vertices and planes
/// behind an [`Arc`]. A handle into a hull store kept by the world would
/// have kept `Shape` `Copy`, but then no shape could answer a query on its
/// own (every cast, overlap and distance would need the store), a query
/// shape could not be a hull, and a removed hull would leave dangling
/// handles. With the `Arc` a hull is shared, never copied: cloning a shape
/// (a collider description, a world) costs one reference-count increment,
/// and every other variant is still plain data.
///
/// Non-exhaustive: a later version may add a kind of shape (a `match` on
/// a shape from outside the crate ends with a `_` arm).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Shape {
    /// A solid axis-aligned box, the book's `BoxComponent`.
    Aabb(Aabb),
    /// A solid sphere.
    Sphere(Sphere),
    /// A solid capsule.
    Capsule(Capsule),
    /// A solid oriented box, exact under rotation (unlike [`Shape::Aabb`],
    /// which stays axis-aligned as the book's box does).
    Obb(Obb),
    /// A flat, two-sided triangle.
    Triangle(Triangle),
    /// A solid cylinder with flat caps.
    Cylinder(Cylinder),
    /// A solid cone.
    Cone(Cone),
    /// A solid convex polyhedron, shared (see the type docs).
    Hull(Arc<ConvexHull>),
    /// A static triangle mesh (level geometry): a two-sided surface, not
    /// convex, with a BVH over its triangles; shared like a hull.
    ///
    /// Every query takes it triangle by triangle: segment casts
    /// ([`TriangleMesh::cast_segment`]), overlap with a convex shape
    /// ([`TriangleMesh::intersects`]), contact (the deepest triangle),
    /// distance (the nearest triangle) and a convex shape cast against it
    /// (the earliest triangle). Two meshes never overlap, touch or hit each
    /// other: a mesh is static level geometry, and level geometry does not
    /// collide with itself — so no pair finder reports a mesh–mesh pair,
    /// and [`World`](crate::World) refuses a mesh as a query shape
    /// ([`Error::InvalidArgument`]) where the query needs one that is convex.
    Mesh(Arc<TriangleMesh>),
    /// Terrain: a grid of heights, two triangles per cell, holes per cell
    /// ([`HeightField`]); its samples are shared behind an `Arc`. Queried
    /// as a [`Shape::Mesh`] is, triangle by triangle among the cells a
    /// query reaches, and like a mesh it never meets another mesh or
    /// height field. It can be moved and scaled, not rotated.
    HeightField(HeightField),
    /// Convex children, each placed by its own pose, queried as one
    /// collider ([`Compound`]); shared like a hull. Every answer names the
    /// child that decided it by its index, the sub-shape id.
    Compound(Arc<Compound>),
}

impl Shape {
    /// Checks the shape's numbers (finite, `min <= max`, radius `>= 0`,
    /// a unit rotation for an oriented box; a hull was checked when built,
    /// and its bounds are checked for finiteness).
    #[inline]
    pub fn validate(&self) -> Result<()> {
        match self {
            Shape::Aabb(aabb) => aabb.validate(),
            Shape::Sphere(sphere) => sphere.validate(),
            Shape::Capsule(capsule) => capsule.validate(),
            Shape::Obb(obb) => obb.validate(),
            Shape::Triangle(triangle) => triangle.validate(),
            Shape::Cylinder(cylinder) => cylinder.validate(),
            Shape::Cone(cone) => cone.validate(),
            Shape::Hull(hull) => {
                if hull.center().is_finite() && hull.bounding_radius().is_finite() {
                    Ok(())
                } else {
                    Err(Error::NonFinite("convex hull"))
                }
            }
            Shape::Mesh(mesh) => {
                let b = mesh.bounding_aabb();
                if b.is_finite() {
                    Ok(())
                } else {
                    Err(Error::NonFinite("triangle mesh"))
                }
            }
            // Checked when built and placed.
            Shape::HeightField(_) | Shape::Compound(_) => Ok(()),
        }
    }

    /// The tightest axis-aligned box around the shape (for a cylinder and a
    /// cone, the exact bounds of their discs: a disc of radius `r` with unit
    /// normal `u` spans `±r·√(1 − u_i²)` on axis `i`).
    #[must_use]
    pub fn bounding_aabb(&self) -> Aabb {
        match self {
            Shape::Aabb(aabb) => *aabb,
            Shape::Sphere(s) => Aabb::from_center_half_extents(s.center, Vec3::splat(s.radius)),
            Shape::Capsule(c) => {
                let r = Vec3::splat(c.radius);
                let seg = c.segment;
                Aabb::new(seg.start.min(seg.end) - r, seg.start.max(seg.end) + r)
            }
            Shape::Obb(obb) => obb.bounding_aabb(),
            Shape::Triangle(t) => Aabb::new(t.a.min(t.b).min(t.c), t.a.max(t.b).max(t.c)),
            Shape::Cylinder(c) => {
                let seg = c.segment;
                let e = disc_extent(seg.start, seg.end, c.radius);
                Aabb::new(seg.start.min(seg.end) - e, seg.start.max(seg.end) + e)
            }
            Shape::Cone(c) => {
                let e = disc_extent(c.base_center, c.apex, c.radius);
                Aabb::new(c.apex.min(c.base_center - e), c.apex.max(c.base_center + e))
            }
            Shape::Hull(hull) => Aabb::from_points(hull.vertices()).unwrap_or(Aabb::new(hull.center(), hull.center())),
            Shape::Mesh(mesh) => mesh.bounding_aabb(),
            Shape::HeightField(field) => field.bounding_aabb(),
            Shape::Compound(compound) => compound.bounding_aabb(),
        }
    }

    /// The shape placed in the world by `transform`.
    ///
    /// A box follows the book's `BoxComponent` ([`Aabb::transformed`]): it is
    /// rotated only when `should_rotate`, and stays axis-aligned (its world
    /// shape is the bounds of the rotated box). Points (sphere and cone
    /// centres, axis ends, triangle corners) map by
    /// `rotation·(scale ∘ p) + translation`, exactly; radii scale by the
    /// largest `|scale_i|`, so a non-uniform scale gives the smallest round
    /// shape holding the scaled one's axis. An oriented box `c + Q·x` keeps
    /// its centre exact and turns to `rotation·Q`; its half-extents become
    /// `|M|·h` with `M = Q⁻¹·diag(scale)·Q` (exact when the scale is
    /// uniform or `Q` is axis-aligned, the enclosing box of the sheared
    /// image otherwise). A hull is mapped exactly ([`ConvexHull::mapped`]),
    /// a mesh vertex by vertex with its tree rebuilt
    /// ([`TriangleMesh::transformed`]). Under the identity every shape but
    /// an oriented box is returned as it is (a hull or mesh shared), see
    /// [`Shape::is_kept_by`].
    ///
    /// A collider keeps its geometry or is refused, never becomes another
    /// shape. Every world point is the exact image rounded to `f32`, which
    /// moves each point by the rounding of its coordinates; that is the
    /// precision placement promises. A cylinder or cone is stored by its
    /// world axis ends, so the direction of its axis is that of the rounded
    /// ends' difference, and its rim (at `r` from the axis) moves by
    /// `r·|u_exact − u_world|` (`u` the unit axes, exact one in `f64`; `r`
    /// when the world ends coincide but the exact axis is not zero: a disc
    /// would become a ball). **Rule:** the placement is refused with
    /// [`Error::InvalidArgument`] when that displacement exceeds
    /// `4ε·m + 128ε·r`, with `ε = f32::EPSILON`, `r` the world radius and
    /// `m` the largest magnitude of a coordinate the placement rounds (world
    /// ends, scaled object ends, translation) — the tolerance within which
    /// every query answer is checked. So a disc 2e-4 thick moved to
    /// `y = 1e4` (both ends round to one `f32`) is refused, while the same
    /// disc at the origin, an axis-aligned one anywhere (its direction is
    /// exact), and a cylinder 1 tall of radius 0.5 at 1e5 are accepted.
    /// The other shapes keep their geometry to the rounding of their points:
    /// a capsule's surface is within its radius of its axis, which moves
    /// only by rounding (a collapsed axis is the sphere it approximates); an
    /// oriented box keeps its exact centre, rotation and half-extents; a
    /// hull keeps its face normals (mapped by the linear part) and moves its
    /// points by rounding; a triangle and a mesh move only by the rounding
    /// of their corners.
    ///
    /// A height field moves its origin and scales its cells and heights,
    /// sharing its samples. A compound places each child (rotating) by
    /// these rules.
    ///
    /// Errors: [`Error::InvalidArgument`] for a hull whose scale has a zero
    /// component (the image would be flat), for a cylinder or cone
    /// refused by the rule above, and for a height field rotated or scaled
    /// by a component that is not positive; [`Error::NonFinite`] when the
    /// mapped hull, mesh or height field overflows.
    pub fn transformed(&self, transform: &Transform, should_rotate: bool) -> Result<Shape> {
        if self.is_kept_by(transform) {
            return Ok(self.clone());
        }
        let radius_scale = transform.scale.abs().max_element();
        let segment = |s: &Segment| Segment::new(transform.apply(s.start), transform.apply(s.end));
        Ok(match self {
            Shape::Aabb(aabb) => Shape::Aabb(aabb.transformed(
                transform.scale,
                transform.rotation,
                should_rotate,
                transform.translation,
            )),
            Shape::Sphere(s) => Shape::Sphere(Sphere::new(transform.apply(s.center), s.radius * radius_scale)),
            Shape::Capsule(c) => Shape::Capsule(Capsule::new(segment(&c.segment), c.radius * radius_scale)),
            Shape::Obb(obb) => {
                let local = Mat3::from_quat(obb.rotation);
                let m = local.transpose() * Mat3::from_diagonal(transform.scale) * local;
                let abs = Mat3::from_cols(m.x_axis.abs(), m.y_axis.abs(), m.z_axis.abs());
                Shape::Obb(Obb::new(
                    transform.apply(obb.center),
                    (transform.rotation * obb.rotation).normalize(),
                    abs * obb.half_extents,
                ))
            }
            Shape::Triangle(t) => Shape::Triangle(Triangle::new(
                transform.apply(t.a),
                transform.apply(t.b),
                transform.apply(t.c),
            )),
            Shape::Cylinder(c) => {
                let world = Cylinder::new(segment(&c.segment), c.radius * radius_scale);
                axis_kept(transform, c.segment, world.segment, world.radius)?;
                Shape::Cylinder(world)
            }
            Shape::Cone(c) => {
                let world = Cone::new(
                    transform.apply(c.base_center),
                    transform.apply(c.apex),
                    c.radius * radius_scale,
                );
                axis_kept(
                    transform,
                    Segment::new(c.base_center, c.apex),
                    Segment::new(world.base_center, world.apex),
                    world.radius,
                )?;
                Shape::Cone(world)
            }
            Shape::Hull(hull) => {
                if transform.scale.cmpeq(Vec3::ZERO).any() {
                    return Err(Error::InvalidArgument("a hull's scale has a zero component"));
                }
                let linear = Mat3::from_quat(transform.rotation) * Mat3::from_diagonal(transform.scale);
                let mapped = hull
                    .mapped(linear, transform.translation)
                    .ok_or(Error::NonFinite("hull after transform"))?;
                Shape::Hull(Arc::new(mapped))
            }
            Shape::Mesh(mesh) => Shape::Mesh(Arc::new(mesh.transformed(transform)?)),
            Shape::HeightField(field) => Shape::HeightField(field.transformed(transform)?),
            Shape::Compound(compound) => Shape::Compound(Arc::new(compound.transformed(transform)?)),
        })
    }

    /// Whether [`Shape::transformed`] returns this very shape under
    /// `transform`: under the identity, for every kind but the oriented box,
    /// whose rotation the transform renormalises. A collider then skips the
    /// work of transforming and checking its world shape again.
    #[inline]
    #[must_use]
    pub fn is_kept_by(&self, transform: &Transform) -> bool {
        *transform == Transform::IDENTITY && !matches!(self, Shape::Obb(_))
    }

    /// The same shape moved by `offset` (exact: every point of it moves).
    ///
    /// ```
    /// use collide::{Shape, Sphere, math::Vec3};
    /// let s = Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0)).translated(Vec3::X);
    /// assert_eq!(s, Shape::Sphere(Sphere::new(Vec3::X, 1.0)));
    /// ```
    #[must_use]
    pub fn translated(&self, offset: Vec3) -> Shape {
        let segment = |s: &Segment| Segment::new(s.start + offset, s.end + offset);
        match self {
            Shape::Aabb(b) => Shape::Aabb(Aabb::new(b.min + offset, b.max + offset)),
            Shape::Sphere(s) => Shape::Sphere(Sphere::new(s.center + offset, s.radius)),
            Shape::Capsule(c) => Shape::Capsule(Capsule::new(segment(&c.segment), c.radius)),
            Shape::Obb(o) => Shape::Obb(Obb::new(o.center + offset, o.rotation, o.half_extents)),
            Shape::Triangle(t) => Shape::Triangle(Triangle::new(t.a + offset, t.b + offset, t.c + offset)),
            Shape::Cylinder(c) => Shape::Cylinder(Cylinder::new(segment(&c.segment), c.radius)),
            Shape::Cone(c) => Shape::Cone(Cone::new(c.base_center + offset, c.apex + offset, c.radius)),
            Shape::Hull(h) => match h.mapped(Mat3::IDENTITY, offset) {
                Some(moved) => Shape::Hull(Arc::new(moved)),
                None => Shape::Hull(Arc::clone(h)),
            },
            Shape::Mesh(m) => match m.transformed(&Transform::from_translation(offset)) {
                Ok(moved) => Shape::Mesh(Arc::new(moved)),
                Err(_) => Shape::Mesh(Arc::clone(m)),
            },
            Shape::HeightField(h) => Shape::HeightField(h.translated(offset).unwrap_or_else(|_| h.clone())),
            Shape::Compound(c) => Shape::Compound(Arc::new(c.translated(offset))),
        }
    }
}

/// The relative precision of a placement: the world ends of an axis may
/// differ from the exact image of the object ones by rounding, but a
/// cylinder's or cone's rim must not move by more than
/// `AXIS_OFFSET_ULPS·ε·m + AXIS_RADIUS_ULPS·ε·r` (see [`Shape::transformed`]).
const AXIS_OFFSET_ULPS: f64 = 4.0;
/// See [`AXIS_OFFSET_ULPS`].
const AXIS_RADIUS_ULPS: f64 = 128.0;

/// Checks that the world axis `world` of a cylinder or cone of world radius
/// `radius` keeps the direction of the exact image of the object axis
/// `object` under `transform`: the rim moves by `r·|u_exact − u_world|`
/// (`u` the unit axes; `r` when the world axis collapsed to a point but the
/// exact one did not, the disc having become a ball), which must be at most
/// `4ε·m + 128ε·r`, with `m` the largest magnitude of a coordinate the
/// placement rounds (the world ends, the scaled object ends, the
/// translation).
///
/// The exact axis is `R·(scale ∘ (end − start))` in `f64` (the difference
/// of two `f32` is exact there, and so are the products to well below `ε`);
/// the world axis is the difference of the rounded ends, exact in `f64`.
fn axis_kept(transform: &Transform, object: Segment, world: Segment, radius: f32) -> Result<()> {
    if !(radius.is_finite() && world.is_finite()) {
        // Refused as not finite by the caller's check of the world shape.
        return Ok(());
    }
    let q = transform.rotation.as_dquat().normalize();
    let scale = transform.scale.as_dvec3();
    let exact = q * (scale * (object.end.as_dvec3() - object.start.as_dvec3()));
    let rounded = world.end.as_dvec3() - world.start.as_dvec3();
    let r = f64::from(radius);
    let displacement = match (exact.try_normalize(), rounded.try_normalize()) {
        // The exact image is a ball already (a zero axis, or a scale that
        // flattens it): nothing to lose.
        (None, _) => 0.0,
        (Some(_), None) => r,
        (Some(u), Some(v)) => r * (u - v).length(),
    };
    let magnitude = [
        world.start,
        world.end,
        transform.scale * object.start,
        transform.scale * object.end,
        transform.translation,
    ]
    .iter()
    .map(|p| f64::from(p.abs().max_element()))
    .fold(0.0, f64::max);
    let eps = f64::from(f32::EPSILON);
    if displacement <= AXIS_OFFSET_ULPS * eps * magnitude + AXIS_RADIUS_ULPS * eps * r {
        Ok(())
    } else {
        Err(Error::InvalidArgument(
            "the placed cylinder or cone would lose its axis direction to rounding (too thin for its distance from the origin)",
        ))
    }
}

/// The half-extents of a disc of `radius` perpendicular to the axis from
/// `from` to `to`: `r·√(1 − u_i²)` with `u` the unit axis, in `f64` (an
/// axis whose `f32` square is subnormal, about 1e-19 long or less, or
/// infinite, beyond about 1.8e19, has its exact direction there), rounded
/// once; a ball's (`r` on every axis) where the support mappings find no
/// axis direction (a half-axis of zero in `f32`) and take the shape as
/// round.
fn disc_extent(from: Vec3, to: Vec3, radius: f32) -> Vec3 {
    if unit_without_overflow(Segment::new(from, to).half_direction()).is_none() {
        return Vec3::splat(radius);
    }
    let axis = to.as_dvec3() - from.as_dvec3();
    let length = axis.length();
    let across = |u: f64| (1.0 - u * u).max(0.0).sqrt() * f64::from(radius);
    let u = axis / length;
    DVec3::new(across(u.x), across(u.y), across(u.z)).as_vec3()
}
