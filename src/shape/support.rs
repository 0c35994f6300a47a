//! The support mapping: one trait that makes GJK, EPA and the convex casts
//! work for every convex shape.
//!
//! A convex shape `S` is known to GJK only through its support function
//! `s_S(d) ∈ argmax_{x ∈ S} d·x` (Gilbert, Johnson and Keerthi 1988; van
//! den Bergen, *Collision Detection in Interactive 3D Environments*, ch. 4).
//! The support function of the Minkowski difference is
//! `s_{A−B}(d) = s_A(d) − s_B(−d)`, which is all the distance, overlap,
//! penetration and cast queries of GJK and EPA need.
//!
//! Two refinements make those queries exact and precise:
//!
//! - **Core and margin.** A shape is `core ⊕ ball(margin)`: a sphere is a
//!   point with a margin, a capsule a segment with one. The iterative
//!   algorithms run on the cores, which are polytopes for every rounded shape
//!   here (so they terminate exactly), and the margins are added in closed
//!   form afterwards (van den Bergen, §4.3.6). Sharp shapes have margin 0.
//! - **Centre-relative supports.** [`Support::core_support`] returns the
//!   support point *relative to* [`Support::center`]. The queries subtract
//!   the centres once and then work near the origin, so two small shapes
//!   side by side far from the origin (coordinates of `1e5`) are resolved
//!   with the precision of their offsets, not of their absolute coordinates.

use crate::math::{midpoint, unit_without_overflow, Quat, Vec3};
use crate::shape::Shape;
use crate::shape::{Aabb, Capsule, Cone, ConvexHull, Cylinder, Obb, Segment, Sphere, Triangle};

/// A convex shape described by its support mapping (see the module docs).
///
/// Implementations must return finite points for every finite direction,
/// including the zero direction (any point of the core is then correct), and
/// must not panic for any input.
///
/// ```
/// use collide::{Sphere, shape::Support, math::Vec3};
/// let s = Sphere::new(Vec3::new(1.0, 0.0, 0.0), 2.0);
/// assert_eq!(s.support(Vec3::new(0.0, 5.0, 0.0)), Vec3::new(1.0, 2.0, 0.0));
/// assert_eq!((s.core_support(Vec3::Y), s.margin()), (Vec3::ZERO, 2.0));
/// ```
pub trait Support {
    /// A point inside the core (its centre where it has one), world space.
    fn center(&self) -> Vec3;

    /// The point of the core farthest along `direction`, **relative to
    /// [`Support::center`]**: `s_core(d) − center`.
    fn core_support(&self, direction: Vec3) -> Vec3;

    /// The radius by which the core is rounded: the shape is
    /// `core ⊕ ball(margin)`. Zero for sharp shapes.
    #[inline]
    fn margin(&self) -> f32 {
        0.0
    }

    /// An upper bound on `|x − center|` over the whole shape (margin
    /// included): the size used for relative tolerances and the rotation
    /// bound of conservative advancement.
    fn bounding_radius(&self) -> f32;

    /// The point of the whole shape farthest along `direction`, in world
    /// space: `center + core_support(d) + margin·d/|d|`, for every finite
    /// `d` (`d/|d|` normalised without overflow or underflow: a direction
    /// of 1e20 has `|d|² = ∞`, and a plain normalisation dropped the
    /// margin).
    #[inline]
    fn support(&self, direction: Vec3) -> Vec3 {
        self.center() + self.core_support(direction) + unit_or_zero(direction) * self.margin()
    }
}

impl<S: Support + ?Sized> Support for &S {
    #[inline]
    fn center(&self) -> Vec3 {
        (**self).center()
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        (**self).core_support(direction)
    }
    #[inline]
    fn margin(&self) -> f32 {
        (**self).margin()
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        (**self).bounding_radius()
    }
}

/// `+half` where `d >= 0`, `−half` elsewhere, per component (a NaN
/// component picks `−half`, so the result stays finite).
#[inline]
fn signed_half(d: Vec3, half: Vec3) -> Vec3 {
    Vec3::select(d.cmpge(Vec3::ZERO), half, -half)
}

/// `v / |v|`, or zero for a zero `v`, for every finite `v`: where `|v|²`
/// is a normal `f32`, `v.normalize_or_zero()`'s own product `v·(1/√|v|²)`
/// (the same bits); elsewhere [`unit_without_overflow`]. A vector of 1e20
/// has `|v|² = ∞`, which `normalize_or_zero` takes for no direction at all
/// (zero); one of 1e-25 has `|v|² = 0`, and one of 1e-21 a subnormal
/// square, whose root is too coarse to divide by.
#[inline]
fn unit_or_zero(v: Vec3) -> Vec3 {
    let squared = v.length_squared();
    if squared.is_normal() {
        v * squared.sqrt().recip()
    } else {
        unit_without_overflow(v).unwrap_or(Vec3::ZERO)
    }
}

/// The unit part of `d` perpendicular to the unit axis `u`, as
/// `u × (d × u)` normalised (zero when `d` is parallel to `u`, or `u` is
/// zero: then `d` itself, normalised), for every finite `d`.
///
/// The cross products keep the result perpendicular to `u` to rounding even
/// when `d` is nearly parallel to it, where `d − (d·u)u` cancels to noise
/// with an axial part — which would put a cylinder's or cone's support
/// point outside the shape.
///
/// Where `|u × (d × u)|²` is a normal `f32`, that vector is normalised as
/// before (bit for bit). Where it is not but `|d|²` is, `d` lies within
/// about 1e-19 radians of the axis, and [`unit_or_zero`] rescales the
/// short vector (zero, the cap's centre, as before, when it is exactly
/// 0). Elsewhere the length of `d` is at fault, and `d` is normalised
/// first ([`unit_or_zero`]) and the cross products taken again: a `d` of
/// 1e20 squares to `∞` (and one near `f32::MAX` overflows the cross
/// products to NaN), one of 1e-25 to `0`, and one of 1e-40 has subnormal
/// products with few digits.
#[inline]
fn across_axis(d: Vec3, u: Vec3) -> Vec3 {
    if u == Vec3::ZERO {
        return unit_or_zero(d);
    }
    let across = u.cross(d.cross(u));
    let squared = across.length_squared();
    if squared.is_normal() {
        return across * squared.sqrt().recip();
    }
    if across.is_finite() && d.length_squared().is_normal() {
        return unit_or_zero(across);
    }
    let d = unit_or_zero(d);
    unit_or_zero(u.cross(d.cross(u)))
}

/// The smallest product of the largest components of the direction and of
/// the candidate points at which [`farther`] compares in `f32`: `2⁻¹⁰²`,
/// a normal `f32` with 24 bits to spare, so that products rounded to
/// subnormals (off by at most `2⁻¹⁵⁰` each) change the dot products by
/// less than an ulp of the largest product.
const SMALLEST_F32_PRODUCT: f32 = f32::MIN_POSITIVE * 16_777_216.0;

/// Whether `d·a >= d·b`: the support mappings' choice between two
/// candidate points (relative to the centre) along `d`, for every finite
/// input. In `f32` where both dot products are finite and the products of the largest
/// components reach [`SMALLEST_F32_PRODUCT`]; else in `f64`, where the
/// products of `f32` components are exact and nothing overflows or
/// underflows. In `f32` the half-axis `(0.5, 2, 0)·1e20` of a segment has
/// products of `±∞` with the direction `(−1, 0.95, 0)·1e20` (`∞ − ∞` is
/// NaN, and every comparison with it false: the wrong end), and a
/// direction of 1e-25 against an axis of 1e-25 has products that round to
/// 0 (a tie: the wrong end half the time).
#[inline]
fn farther(d: Vec3, a: Vec3, b: Vec3) -> bool {
    let (da, db) = (d.dot(a), d.dot(b));
    let largest_product = d.abs().max_element() * a.abs().max(b.abs()).max_element();
    if da.is_finite() && db.is_finite() && largest_product >= SMALLEST_F32_PRODUCT {
        return da >= db;
    }
    let d = d.as_dvec3();
    d.dot(a.as_dvec3()) >= d.dot(b.as_dvec3())
}

/// `√(|v|² + r²)` in `f64`, saturating at `f32::MAX`: the bounding radius
/// of a shape with half-size `v` and rounding `r`. No square of an `f32`
/// overflows or underflows in `f64`, so a box of half-extent `1e20` has a
/// finite radius and one of `1e-25` a nonzero one.
#[inline]
fn radius_of(v: Vec3, r: f32) -> f32 {
    radius_from_squared(v.as_dvec3().length_squared() + f64::from(r) * f64::from(r))
}

/// `√squared` rounded to `f32`, saturating at `f32::MAX` (see
/// [`radius_of`]): for a radius that is the largest of several squares.
#[inline]
fn radius_from_squared(squared: f64) -> f32 {
    (squared.sqrt() as f32).min(f32::MAX)
}

/// A point: the degenerate shape, useful as the moving point of a ray cast.
impl Support for Vec3 {
    #[inline]
    fn center(&self) -> Vec3 {
        *self
    }
    #[inline]
    fn core_support(&self, _direction: Vec3) -> Vec3 {
        Vec3::ZERO
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        0.0
    }
}

/// The centre, with the radius as margin.
impl Support for Sphere {
    #[inline]
    fn center(&self) -> Vec3 {
        self.center
    }
    #[inline]
    fn core_support(&self, _direction: Vec3) -> Vec3 {
        Vec3::ZERO
    }
    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.radius
    }
}

/// The corner `center + sign(d) ∘ half_extents`.
impl Support for Aabb {
    #[inline]
    fn center(&self) -> Vec3 {
        Aabb::center(self)
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        signed_half(direction, self.half_extents())
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        radius_of(self.half_extents(), 0.0)
    }
}

/// The corner `R·(sign(R⁻¹d) ∘ half_extents)` relative to the centre.
impl Support for Obb {
    #[inline]
    fn center(&self) -> Vec3 {
        self.center
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        let local = self.rotation.inverse() * direction;
        self.rotation * signed_half(local, self.half_extents)
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        radius_of(self.half_extents, 0.0)
    }
}

/// The axis end farther along `d` (the end point for `d ⟂` axis is `end`).
impl Support for Segment {
    #[inline]
    fn center(&self) -> Vec3 {
        midpoint(self.start, self.end)
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        let half = self.half_direction();
        if farther(direction, half, -half) {
            half
        } else {
            -half
        }
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        radius_of(self.half_direction(), 0.0)
    }
}

/// The axis (a segment) as core, the radius as margin.
impl Support for Capsule {
    #[inline]
    fn center(&self) -> Vec3 {
        self.segment.center()
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        self.segment.core_support(direction)
    }
    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.segment.bounding_radius() + self.radius
    }
}

/// The corner with the largest `d·(v − centroid)`.
impl Support for Triangle {
    #[inline]
    fn center(&self) -> Vec3 {
        self.centroid()
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        let c = self.centroid();
        let [a, b, e] = [self.a - c, self.b - c, self.c - c];
        let (da, db, de) = (direction.dot(a), direction.dot(b), direction.dot(e));
        if da >= db && da >= de {
            a
        } else if db >= de {
            b
        } else {
            e
        }
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        let c = self.centroid();
        let squared = |corner: Vec3| (corner - c).as_dvec3().length_squared();
        radius_from_squared(squared(self.a).max(squared(self.b)).max(squared(self.c)))
    }
}

/// The cap centre farther along `d`, plus `radius` along the part of `d`
/// perpendicular to the axis: `±h·u + r·(u × (d × u))/|u × (d × u)|`.
impl Support for Cylinder {
    #[inline]
    fn center(&self) -> Vec3 {
        self.segment.center()
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        let half = self.segment.half_direction();
        let u = unit_without_overflow(half).unwrap_or(Vec3::ZERO);
        let along = if farther(direction, half, -half) { half } else { -half };
        along + across_axis(direction, u) * self.radius
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        radius_of(self.segment.half_direction(), self.radius)
    }
}

/// The apex or the base rim point `base + r·(u × (d × u))/|…|`, whichever
/// is farther along `d`; the centre is the middle of the axis.
impl Support for Cone {
    #[inline]
    fn center(&self) -> Vec3 {
        midpoint(self.base_center, self.apex)
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        let half = self.half_axis();
        let u = unit_without_overflow(half).unwrap_or(Vec3::ZERO);
        let rim = -half + across_axis(direction, u) * self.radius;
        if farther(direction, half, rim) {
            half
        } else {
            rim
        }
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        radius_of(self.half_axis(), self.radius)
    }
}

/// The vertex with the largest `d·(v − center)`, by a linear scan (no
/// allocation; hill climbing over the adjacency would pay off only for
/// hulls of hundreds of vertices).
impl Support for ConvexHull {
    #[inline]
    fn center(&self) -> Vec3 {
        ConvexHull::center(self)
    }
    fn core_support(&self, direction: Vec3) -> Vec3 {
        let c = ConvexHull::center(self);
        let mut best = Vec3::ZERO;
        let mut best_dot = f32::NEG_INFINITY;
        for v in self.vertices() {
            let offset = *v - c;
            let dot = direction.dot(offset);
            if dot > best_dot {
                best_dot = dot;
                best = offset;
            }
        }
        best
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        ConvexHull::bounding_radius(self)
    }
}

/// A rigid placement `x ↦ rotation·x + translation` (no scale).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Rotation, a unit quaternion.
    pub rotation: Quat,
    /// Translation, applied after the rotation.
    pub translation: Vec3,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// No rotation, no translation.
    pub const IDENTITY: Pose = Pose {
        rotation: Quat::IDENTITY,
        translation: Vec3::ZERO,
    };

    /// The pose `rotation`, then `translation`.
    #[inline]
    #[must_use]
    pub const fn new(rotation: Quat, translation: Vec3) -> Self {
        Self { rotation, translation }
    }

    /// A pure translation.
    #[inline]
    #[must_use]
    pub const fn from_translation(translation: Vec3) -> Self {
        Self::new(Quat::IDENTITY, translation)
    }

    /// `rotation·p + translation`.
    ///
    /// ```
    /// use collide::{shape::Pose, math::{Quat, Vec3}};
    /// let pose = Pose::new(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), Vec3::Z);
    /// assert!((pose.apply(Vec3::X) - Vec3::new(0.0, 1.0, 1.0)).length() < 1e-6);
    /// ```
    #[inline]
    #[must_use]
    pub fn apply(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.translation
    }

    /// `rotation⁻¹·(p − translation)`, the inverse of [`Pose::apply`].
    #[inline]
    #[must_use]
    pub fn inverse_apply(&self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.translation)
    }
}

/// A shape placed by a [`Pose`]: `{ pose.apply(x) : x ∈ shape }`, with the
/// support mapping `s(d) = R·s_shape(R⁻¹d) + t`. The shape may be owned or a
/// reference (`Transformed<&ConvexHull>` places a hull without copying it).
///
/// ```
/// use collide::{Aabb, shape::{Pose, Support, Transformed}, math::{Quat, Vec3}};
/// let cube = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
/// let turned = Transformed::new(&cube, Pose::new(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4), Vec3::X));
/// let tip = turned.support(Vec3::X);
/// assert!((tip.x - (1.0 + std::f32::consts::SQRT_2)).abs() < 1e-5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transformed<S> {
    /// The shape, in its own frame.
    pub shape: S,
    /// Where it is placed.
    pub pose: Pose,
}

impl<S> Transformed<S> {
    /// `shape` placed by `pose`.
    #[inline]
    pub const fn new(shape: S, pose: Pose) -> Self {
        Self { shape, pose }
    }
}

impl<S: Support> Support for Transformed<S> {
    #[inline]
    fn center(&self) -> Vec3 {
        self.pose.apply(self.shape.center())
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        self.pose.rotation * self.shape.core_support(self.pose.rotation.inverse() * direction)
    }
    #[inline]
    fn margin(&self) -> f32 {
        self.shape.margin()
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.shape.bounding_radius()
    }
}

macro_rules! each_collider_shape {
    ($value:expr, $s:ident => $body:expr) => {
        match $value {
            Shape::Aabb($s) => $body,
            Shape::Sphere($s) => $body,
            Shape::Capsule($s) => $body,
            Shape::Obb($s) => $body,
            Shape::Triangle($s) => $body,
            Shape::Cylinder($s) => $body,
            Shape::Cone($s) => $body,
            Shape::Hull($s) => {
                let $s: &ConvexHull = $s;
                $body
            }
            Shape::Mesh($s) => {
                let $s: &crate::shape::TriangleMesh = $s;
                $body
            }
            Shape::HeightField($s) => $body,
            Shape::Compound($s) => {
                let $s: &crate::shape::Compound = $s;
                $body
            }
        }
    };
}

/// A collider's shape is convex whatever its kind but a surface or a
/// compound: the support mapping of the kind at hand, so GJK, EPA and the
/// convex casts serve every pair of colliders without copying a hull. A
/// [`Shape::Mesh`], height field or compound maps to the support of its
/// convex hull; [`Shape`]'s own queries never use that, they take a surface
/// triangle by triangle and a compound child by child.
impl Support for Shape {
    #[inline]
    fn center(&self) -> Vec3 {
        each_collider_shape!(self, s => s.center())
    }
    #[inline]
    fn core_support(&self, direction: Vec3) -> Vec3 {
        each_collider_shape!(self, s => s.core_support(direction))
    }
    #[inline]
    fn margin(&self) -> f32 {
        each_collider_shape!(self, s => s.margin())
    }
    #[inline]
    fn bounding_radius(&self) -> f32 {
        each_collider_shape!(self, s => s.bounding_radius())
    }
}
