//! `#[repr(C)]` mirrors of collide's types, as C sees them.
//!
//! Each struct has the size and member order of the book's type of the same
//! role (checked below and by `static_assert`s in the C tests), so a C++ port
//! passes its own `Vector3`, `Quaternion`, `AABB` and `LineSegment` by pointer.
//! glam's 16-byte-aligned SIMD types never cross the boundary.

use core::ffi::c_void;
use core::mem::{offset_of, size_of};

use crate::broad::Pair;
use crate::collider::{ColliderKey, Filter, QueryFilter};
use crate::math::Transform;
use crate::math::{Quat, Vec3};
use crate::query::{Contact, Distance};
use crate::shape::{Aabb, Capsule, Cone, Cylinder, Obb, Segment, Sphere, Triangle};
use crate::world::Hit;

/// `{float x, y, z}`: the book's `Vector3` (12 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysVec3 {
    /// x
    pub x: f32,
    /// y
    pub y: f32,
    /// z
    pub z: f32,
}

/// `{float x, y, z, w}`, `w` last: the book's `Quaternion` (16 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysQuat {
    /// x
    pub x: f32,
    /// y
    pub y: f32,
    /// z
    pub z: f32,
    /// w, the scalar part
    pub w: f32,
}

/// `{PhysVec3 min, max}`: the book's `AABB` (24 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysAabb {
    /// The corner with the smallest coordinates.
    pub min: PhysVec3,
    /// The corner with the largest coordinates.
    pub max: PhysVec3,
}

/// `{PhysVec3 start, end}`: the book's `LineSegment` (24 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysSegment {
    /// The point at t = 0.
    pub start: PhysVec3,
    /// The point at t = 1.
    pub end: PhysVec3,
}

/// `{PhysVec3 center; float radius}`: the book's `Sphere` (16 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysSphere {
    /// Centre.
    pub center: PhysVec3,
    /// Radius, >= 0.
    pub radius: f32,
}

/// `{PhysSegment segment; float radius}`: the book's `Capsule` (28 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysCapsule {
    /// The axis between the centres of the caps.
    pub segment: PhysSegment,
    /// Radius, >= 0.
    pub radius: f32,
}

/// Placement of a collider: points map by
/// `p_world = rotation·(scale ∘ p) + translation`. The rotation must be a
/// unit quaternion.
///
/// Round shapes stay round: the radius of a sphere, capsule, cylinder or
/// cone scales by the largest `|scale_i|`, while its centre or axis ends map
/// as points, so a non-uniform scale gives the smallest round shape holding
/// the scaled axis (a unit sphere scaled by (1, 2, 3) is a sphere of
/// radius 3, not an ellipsoid). A box follows the book's `BoxComponent`
/// (scaled, rotated when `PHYS_COLLIDER_SHOULD_ROTATE`, kept axis-aligned);
/// triangles, hulls and meshes map point by point.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysTransform {
    /// Translation, applied last.
    pub translation: PhysVec3,
    /// Rotation, a unit quaternion (x, y, z, w).
    pub rotation: PhysQuat,
    /// Per-axis scale, applied first.
    pub scale: PhysVec3,
}

/// A collider handle: the slot map key of the collider, its generation
/// mixed with its world's salt. `{0}` never names a live collider; a removed
/// collider's handle is reported stale, never aliased to a new one; a handle
/// from another world is reported stale too (its generation does not match).
///
/// Key order, in which pairs list `a` before `b` and ties are broken: by
/// slot index (`bits & 0xFFFFFFFF`), then by the high word. Two live
/// colliders of a world never share a slot index, so the index alone orders
/// them; comparing `bits` as a whole does not (the generation is the high
/// word).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PhysCollider {
    /// Slot index (low 32 bits) and salted generation (high 32 bits).
    pub bits: u64,
}

/// Flag of [`PhysColliderDesc::flags`]: rotate a box collider with its
/// transform (the book's `BoxComponent::mShouldRotate`).
pub const PHYS_COLLIDER_SHOULD_ROTATE: u32 = 1;

/// Every flag [`PhysColliderDesc::flags`] may hold.
pub const PHYS_COLLIDER_ALL_FLAGS: u32 = PHYS_COLLIDER_SHOULD_ROTATE;

/// How to add a collider, besides its shape. `phys_collider_desc_default()`
/// gives the identity transform, user data 0, category 1, mask all,
/// `PHYS_COLLIDER_SHOULD_ROTATE`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhysColliderDesc {
    /// Placement in the world.
    pub transform: PhysTransform,
    /// The game's word for the collider (entity id, actor pointer).
    pub user_data: u64,
    /// Categories the collider belongs to.
    pub category_bits: u64,
    /// Categories the collider interacts with (Box2D's rule).
    pub mask_bits: u64,
    /// `PHYS_COLLIDER_*` flags; unknown bits are an invalid argument.
    pub flags: u32,
}

/// What a query may hit: colliders with `(category & mask_bits) != 0` and
/// `(collider mask & category_bits) != 0`, except `exclude` (`{0}` for none).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhysQueryFilter {
    /// The query's own categories.
    pub category_bits: u64,
    /// The categories the query hits.
    pub mask_bits: u64,
    /// A collider to ignore, or `{0}`.
    pub exclude: PhysCollider,
}

/// The closest hit of a segment cast.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysHit {
    /// The collider hit.
    pub collider: PhysCollider,
    /// Its user data.
    pub user_data: u64,
    /// Parameter along the segment, in [0, 1].
    pub t: f32,
    /// The point hit: start + t·(end − start).
    pub point: PhysVec3,
    /// Outward unit normal at the hit; −direction/|direction| when the
    /// segment starts inside the collider.
    pub normal: PhysVec3,
    /// Which part of the collider was hit: a compound's child index, a
    /// mesh's or height field's triangle index; 0 for any other shape.
    pub sub_shape: u32,
}

/// An overlapping pair, `a` before `b` in key order (see `PhysCollider`):
/// `a`'s slot index is below `b`'s.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhysPair {
    /// The first collider.
    pub a: PhysCollider,
    /// Its user data.
    pub user_a: u64,
    /// The second collider.
    pub b: PhysCollider,
    /// Its user data.
    pub user_b: u64,
}

/// A collider found by a region query, with its user data.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhysColliderRef {
    /// The collider.
    pub collider: PhysCollider,
    /// Its user data.
    pub user_data: u64,
}

/// `{PhysVec3 center; PhysQuat rotation; PhysVec3 half_extents}`: the
/// book's `OBB` (40 bytes), a solid box `center + rotation·x`,
/// `|x_i| <= half_extents_i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysObb {
    /// Centre.
    pub center: PhysVec3,
    /// Rotation from the box's frame to the world, a unit quaternion.
    pub rotation: PhysQuat,
    /// Half-extents along the box's own axes, >= 0.
    pub half_extents: PhysVec3,
}

/// `{PhysVec3 a, b, c}`: a flat, two-sided triangle (36 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysTriangle {
    /// First corner.
    pub a: PhysVec3,
    /// Second corner.
    pub b: PhysVec3,
    /// Third corner.
    pub c: PhysVec3,
}

/// `{PhysSegment segment; float radius}`: a solid cylinder with flat caps
/// around its axis (28 bytes, the layout of `PhysCapsule`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysCylinder {
    /// The axis between the centres of the caps.
    pub segment: PhysSegment,
    /// Radius, >= 0.
    pub radius: f32,
}

/// `{PhysVec3 base_center, apex; float radius}`: a solid cone (28 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysCone {
    /// Centre of the base disc.
    pub base_center: PhysVec3,
    /// The tip.
    pub apex: PhysVec3,
    /// Radius of the base, >= 0.
    pub radius: f32,
}

/// The distance between two shapes, with their closest points (48 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysDistance {
    /// The distance, >= 0; 0 when the shapes touch or overlap.
    pub distance: f32,
    /// The point of the first shape closest to the second.
    pub point_a: PhysVec3,
    /// The point of the second shape closest to the first (equal to
    /// `point_a` when they touch or overlap).
    pub point_b: PhysVec3,
    /// Unit direction from `point_a` to `point_b`; {0, 0, 0} when the
    /// shapes touch or overlap.
    pub normal: PhysVec3,
    /// Which part of each shape decided the answer: a compound's child
    /// index, a mesh's or height field's triangle index; 0 for any other
    /// shape.
    pub sub_shapes: [u32; 2],
}

/// The penetration of two overlapping shapes (48 bytes): moving the second
/// by `depth·normal` makes them touch.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysContact {
    /// Penetration depth, >= 0 (0 when touching).
    pub depth: f32,
    /// Unit direction from the first shape to the second.
    pub normal: PhysVec3,
    /// The deepest point of the first shape.
    pub point_a: PhysVec3,
    /// The deepest point of the second shape.
    pub point_b: PhysVec3,
    /// Which part of each shape decided the answer: a compound's child
    /// index, a mesh's or height field's triangle index; 0 for any other
    /// shape.
    pub sub_shapes: [u32; 2],
}

/// The first collider a moving shape touches (48 bytes, the layout of
/// `PhysHit`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysShapeHit {
    /// The collider hit.
    pub collider: PhysCollider,
    /// Its user data.
    pub user_data: u64,
    /// Time of first contact in [0, 1]: the shape touches when moved by
    /// t·motion.
    pub t: f32,
    /// The contact point at time t.
    pub point: PhysVec3,
    /// The collider's outward unit normal at the contact, pointing back at
    /// the moving shape.
    pub normal: PhysVec3,
    /// Which part of the collider was hit: a compound's child index, a
    /// mesh's or height field's triangle index; 0 for any other shape.
    pub sub_shape: u32,
}

/// The collider nearest to a point, with the distance to it (64 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysClosest {
    /// The nearest collider.
    pub collider: PhysCollider,
    /// Its user data.
    pub user_data: u64,
    /// The distance; `point_a` is the query point, `point_b` the closest
    /// point of the collider.
    pub distance: PhysDistance,
}

/// A ray: from `origin` along `direction`, whose length is the unit of the
/// hit's `t` (a unit direction makes `t` a distance).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhysRay {
    /// Where the ray starts.
    pub origin: PhysVec3,
    /// Where it goes.
    pub direction: PhysVec3,
}

/// Called once per overlapping pair with the caller's context pointer. It
/// must not unwind (throw) into collide. It may run read-only `phys_*`
/// calls on the world being iterated (a mutating one gets
/// `PHYS_ERROR_WORLD_BUSY`) and any call on another world.
pub type PhysPairCallback =
    Option<unsafe extern "C" fn(ctx: *mut c_void, a: PhysCollider, user_a: u64, b: PhysCollider, user_b: u64)>;

const _: () = {
    assert!(size_of::<PhysVec3>() == 12);
    assert!(size_of::<PhysQuat>() == 16 && offset_of!(PhysQuat, w) == 12);
    assert!(size_of::<PhysAabb>() == 24 && offset_of!(PhysAabb, max) == 12);
    assert!(size_of::<PhysSegment>() == 24 && offset_of!(PhysSegment, end) == 12);
    assert!(size_of::<PhysSphere>() == 16 && offset_of!(PhysSphere, radius) == 12);
    assert!(size_of::<PhysCapsule>() == 28 && offset_of!(PhysCapsule, radius) == 24);
    assert!(size_of::<PhysTransform>() == 40 && offset_of!(PhysTransform, scale) == 28);
    assert!(size_of::<PhysCollider>() == 8);
    assert!(size_of::<PhysColliderDesc>() == 72 && offset_of!(PhysColliderDesc, flags) == 64);
    assert!(size_of::<PhysQueryFilter>() == 24);
    assert!(size_of::<PhysHit>() == 48 && offset_of!(PhysHit, normal) == 32 && offset_of!(PhysHit, sub_shape) == 44);
    assert!(size_of::<PhysPair>() == 32);
    assert!(size_of::<PhysColliderRef>() == 16);
    assert!(
        size_of::<PhysObb>() == 40 && offset_of!(PhysObb, rotation) == 12 && offset_of!(PhysObb, half_extents) == 28
    );
    assert!(size_of::<PhysTriangle>() == 36 && offset_of!(PhysTriangle, c) == 24);
    assert!(size_of::<PhysCylinder>() == 28 && offset_of!(PhysCylinder, radius) == 24);
    assert!(size_of::<PhysCone>() == 28 && offset_of!(PhysCone, apex) == 12 && offset_of!(PhysCone, radius) == 24);
    assert!(
        size_of::<PhysDistance>() == 48
            && offset_of!(PhysDistance, normal) == 28
            && offset_of!(PhysDistance, sub_shapes) == 40
    );
    assert!(
        size_of::<PhysContact>() == 48
            && offset_of!(PhysContact, point_b) == 28
            && offset_of!(PhysContact, sub_shapes) == 40
    );
    assert!(
        size_of::<PhysShapeHit>() == 48
            && offset_of!(PhysShapeHit, normal) == 32
            && offset_of!(PhysShapeHit, sub_shape) == 44
    );
    assert!(size_of::<PhysClosest>() == 64 && offset_of!(PhysClosest, distance) == 16);
    assert!(size_of::<PhysRay>() == 24 && offset_of!(PhysRay, direction) == 12);
};

impl From<PhysVec3> for Vec3 {
    #[inline]
    fn from(v: PhysVec3) -> Self {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<Vec3> for PhysVec3 {
    #[inline]
    fn from(v: Vec3) -> Self {
        Self { x: v.x, y: v.y, z: v.z }
    }
}

impl From<PhysQuat> for Quat {
    #[inline]
    fn from(q: PhysQuat) -> Self {
        Quat::from_xyzw(q.x, q.y, q.z, q.w)
    }
}

impl From<Quat> for PhysQuat {
    #[inline]
    fn from(q: Quat) -> Self {
        Self {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}

impl From<PhysAabb> for Aabb {
    #[inline]
    fn from(b: PhysAabb) -> Self {
        Aabb::new(b.min.into(), b.max.into())
    }
}

impl From<Aabb> for PhysAabb {
    #[inline]
    fn from(b: Aabb) -> Self {
        Self {
            min: b.min.into(),
            max: b.max.into(),
        }
    }
}

impl From<PhysSegment> for Segment {
    #[inline]
    fn from(s: PhysSegment) -> Self {
        Segment::new(s.start.into(), s.end.into())
    }
}

impl From<PhysSphere> for Sphere {
    #[inline]
    fn from(s: PhysSphere) -> Self {
        Sphere::new(s.center.into(), s.radius)
    }
}

impl From<PhysCapsule> for Capsule {
    #[inline]
    fn from(c: PhysCapsule) -> Self {
        Capsule::new(c.segment.into(), c.radius)
    }
}

impl From<PhysTransform> for Transform {
    #[inline]
    fn from(t: PhysTransform) -> Self {
        Transform {
            translation: t.translation.into(),
            rotation: t.rotation.into(),
            scale: t.scale.into(),
        }
    }
}

impl From<Transform> for PhysTransform {
    #[inline]
    fn from(t: Transform) -> Self {
        Self {
            translation: t.translation.into(),
            rotation: t.rotation.into(),
            scale: t.scale.into(),
        }
    }
}

impl PhysCollider {
    /// The handle of `key` in a world with this `salt` (an even 32-bit
    /// number): slotmap's FFI bits with the generation XOR-ed by the salt.
    /// Generations of live slots are odd, so the result is never `{0}`.
    #[inline]
    #[must_use]
    pub fn encode(key: ColliderKey, salt: u32) -> Self {
        Self {
            bits: key.to_bits() ^ (u64::from(salt) << 32),
        }
    }

    /// The key these bits name in a world with this `salt`, or `None` for
    /// `{0}` and for bits no live key can have (an even generation, see
    /// [`ColliderKey::from_bits`]). A handle of another world decodes to a
    /// generation no live slot has, so the world reports it stale.
    #[inline]
    #[must_use]
    pub fn decode(self, salt: u32) -> Option<ColliderKey> {
        let key = ColliderKey::from_bits(self.bits ^ (u64::from(salt) << 32));
        (self.bits != 0 && !slotmap::Key::is_null(&key)).then_some(key)
    }
}

impl Default for PhysColliderDesc {
    fn default() -> Self {
        Self {
            transform: Transform::IDENTITY.into(),
            user_data: 0,
            category_bits: Filter::DEFAULT.category,
            mask_bits: Filter::DEFAULT.mask,
            flags: PHYS_COLLIDER_SHOULD_ROTATE,
        }
    }
}

impl Default for PhysQueryFilter {
    /// Accepts every collider.
    fn default() -> Self {
        Self {
            category_bits: QueryFilter::ALL.category,
            mask_bits: QueryFilter::ALL.mask,
            exclude: PhysCollider::default(),
        }
    }
}

impl PhysQueryFilter {
    /// The filter as the safe API takes it, in a world with this salt;
    /// `{0}` (or a stale handle) excludes nothing.
    #[must_use]
    pub fn to_query_filter(self, salt: u32) -> QueryFilter {
        QueryFilter {
            category: self.category_bits,
            mask: self.mask_bits,
            exclude: self.exclude.decode(salt),
        }
    }
}

impl PhysColliderRef {
    /// The collider `key` and its user data as C sees them, in a world with
    /// this salt.
    #[must_use]
    pub fn new(key: ColliderKey, user_data: u64, salt: u32) -> Self {
        Self {
            collider: PhysCollider::encode(key, salt),
            user_data,
        }
    }
}

impl PhysHit {
    /// The hit as C sees it, in a world with this salt.
    #[must_use]
    pub fn new(hit: Hit, salt: u32) -> Self {
        Self {
            collider: PhysCollider::encode(hit.collider, salt),
            user_data: hit.user_data,
            t: hit.t,
            point: hit.point.into(),
            normal: hit.normal.into(),
            sub_shape: hit.sub_shape,
        }
    }
}

impl PhysPair {
    /// The pair as C sees it, in a world with this salt.
    #[inline]
    #[must_use]
    pub fn new(p: Pair, salt: u32) -> Self {
        Self {
            a: PhysCollider::encode(p.a, salt),
            user_a: p.user_a,
            b: PhysCollider::encode(p.b, salt),
            user_b: p.user_b,
        }
    }
}

impl From<PhysObb> for Obb {
    #[inline]
    fn from(o: PhysObb) -> Self {
        Obb::new(o.center.into(), o.rotation.into(), o.half_extents.into())
    }
}

impl From<PhysTriangle> for Triangle {
    #[inline]
    fn from(t: PhysTriangle) -> Self {
        Triangle::new(t.a.into(), t.b.into(), t.c.into())
    }
}

impl From<PhysCylinder> for Cylinder {
    #[inline]
    fn from(c: PhysCylinder) -> Self {
        Cylinder::new(c.segment.into(), c.radius)
    }
}

impl From<PhysCone> for Cone {
    #[inline]
    fn from(c: PhysCone) -> Self {
        Cone::new(c.base_center.into(), c.apex.into(), c.radius)
    }
}

impl From<Distance> for PhysDistance {
    /// A missing normal (touching shapes) becomes {0, 0, 0}.
    #[inline]
    fn from(d: Distance) -> Self {
        Self {
            distance: d.distance,
            point_a: d.point_a.into(),
            point_b: d.point_b.into(),
            normal: d.normal.unwrap_or(Vec3::ZERO).into(),
            sub_shapes: d.sub_shapes,
        }
    }
}

impl From<Contact> for PhysContact {
    #[inline]
    fn from(c: Contact) -> Self {
        Self {
            depth: c.depth,
            normal: c.normal.into(),
            point_a: c.point_a.into(),
            point_b: c.point_b.into(),
            sub_shapes: c.sub_shapes,
        }
    }
}

impl PhysShapeHit {
    /// The hit as C sees it, in a world with this salt.
    #[must_use]
    pub fn new(hit: Hit, salt: u32) -> Self {
        Self {
            collider: PhysCollider::encode(hit.collider, salt),
            user_data: hit.user_data,
            t: hit.t,
            point: hit.point.into(),
            normal: hit.normal.into(),
            sub_shape: hit.sub_shape,
        }
    }
}
