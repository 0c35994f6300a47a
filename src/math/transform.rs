//! A collider's placement: translation, rotation and per-axis scale.

use crate::error::{Error, Result};
use crate::math::{all_finite, Quat, Vec3, UNIT_QUAT_TOLERANCE};

/// Where a collider is: points map by
/// `p_world = rotation·(scale ∘ p_object) + translation`.
///
/// Round shapes stay round: the radius of a sphere, capsule, cylinder or
/// cone scales by the largest `|scale_i|`, while its centre or axis ends map
/// as points, so a non-uniform scale gives the smallest round shape holding
/// the scaled axis (a unit sphere scaled by (1, 2, 3) is a sphere of radius
/// 3, not an ellipsoid). Boxes, oriented boxes, triangles, hulls and meshes
/// follow [`Shape::transformed`](crate::shape::Shape::transformed).
///
/// ```
/// use collide::{ColliderDesc, Shape, Sphere, Transform, World, math::{Quat, Vec3}};
/// let mut world = World::new();
/// let stretched = Transform { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::new(1.0, 2.0, 3.0) };
/// let ball = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::X, 1.0))).with_transform(stretched))?;
/// let bounds = world.get(ball).unwrap().aabb();
/// assert_eq!((bounds.min, bounds.max), (Vec3::new(-2.0, -3.0, -3.0), Vec3::new(4.0, 3.0, 3.0)));
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    /// Translation, applied last.
    pub translation: Vec3,
    /// Rotation, a unit quaternion.
    pub rotation: Quat,
    /// Per-axis scale, applied first (the book scales uniformly; any finite
    /// value works here, a negative one mirrors).
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Transform = Transform {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// A pure translation.
    #[inline]
    #[must_use]
    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            translation,
            ..Self::IDENTITY
        }
    }

    /// Translation, rotation and a uniform scale, as the book's actors have.
    #[inline]
    #[must_use]
    pub fn new(translation: Vec3, rotation: Quat, scale: f32) -> Self {
        Self {
            translation,
            rotation,
            scale: Vec3::splat(scale),
        }
    }

    /// `rotation·(scale ∘ p) + translation`.
    #[inline]
    #[must_use]
    pub fn apply(&self, p: Vec3) -> Vec3 {
        self.rotation * (self.scale * p) + self.translation
    }

    /// The transform checked and its rotation renormalised: every number
    /// finite and `| |rotation|² − 1 | <= UNIT_QUAT_TOLERANCE`. A rotation
    /// already unit to rounding (`| |q|² − 1 | <= 8ε`, as a normalised one
    /// is) is kept as it is, so validating a validated transform changes
    /// nothing: every setter revalidates the stored transform, and
    /// normalising again could move a component by an ulp each time.
    pub fn validated(&self) -> Result<Transform> {
        let (t, s, r) = (self.translation, self.scale, self.rotation);
        if !all_finite(&[t.x, t.y, t.z, s.x, s.y, s.z, r.x, r.y, r.z, r.w]) {
            return Err(Error::NonFinite(if !all_finite(&t.to_array()) {
                "translation"
            } else if !all_finite(&s.to_array()) {
                "scale"
            } else {
                "rotation"
            }));
        }
        let off_unit = (r.length_squared() - 1.0).abs();
        if off_unit > UNIT_QUAT_TOLERANCE {
            return Err(Error::InvalidArgument("rotation is not a unit quaternion"));
        }
        Ok(Transform {
            rotation: if off_unit <= 8.0 * f32::EPSILON {
                r
            } else {
                r.normalize()
            },
            ..*self
        })
    }
}
