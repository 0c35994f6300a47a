//! Axis-aligned bounding box `[min, max]`.

use crate::error::{Error, Result};
use crate::math::{all_finite, Mat3, Quat, Vec3, Vec3A};

/// Names of the three axes, for error messages.
pub(crate) const AXIS_NAMES: [&str; 3] = ["x", "y", "z"];

/// A closed axis-aligned box, the points `x` with `min <= x <= max` on every
/// axis. Layout matches the book's `AABB { Vector3 mMin, mMax; }`.
///
/// A box with `min == max` on some axis is a valid, flat box; `min > max` is
/// inverted and rejected by [`Aabb::validate`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub min: Vec3,
    /// The corner with the largest coordinates.
    pub max: Vec3,
}

impl Aabb {
    /// The box `[min, max]` (not validated; see [`Aabb::validate`]).
    #[inline]
    #[must_use]
    pub const fn new(min: Vec3, max: Vec3) -> Self {
        Self { min, max }
    }

    /// The box `center ± half_extents`.
    #[inline]
    #[must_use]
    pub fn from_center_half_extents(center: Vec3, half_extents: Vec3) -> Self {
        Self::new(center - half_extents, center + half_extents)
    }

    /// The smallest box holding every point; `None` for an empty slice.
    ///
    /// ```
    /// use collide::{Aabb, math::Vec3};
    /// let b = Aabb::from_points(&[Vec3::new(1.0, -2.0, 0.0), Vec3::new(-1.0, 3.0, 0.5)]).unwrap();
    /// assert_eq!(b, Aabb::new(Vec3::new(-1.0, -2.0, 0.0), Vec3::new(1.0, 3.0, 0.5)));
    /// ```
    #[must_use]
    pub fn from_points(points: &[Vec3]) -> Option<Self> {
        let (first, rest) = points.split_first()?;
        let mut aabb = Self::new(*first, *first);
        for &p in rest {
            aabb.grow(p);
        }
        Some(aabb)
    }

    /// Whether both corners are finite (one test for the six numbers).
    #[inline]
    pub(crate) fn is_finite(&self) -> bool {
        let (a, b) = (self.min, self.max);
        all_finite(&[a.x, a.y, a.z, b.x, b.y, b.z])
    }

    /// Checks that both corners are finite and `min <= max` on every axis.
    ///
    /// ```
    /// use collide::{Aabb, Error, math::Vec3};
    /// assert!(Aabb::new(Vec3::ZERO, Vec3::ZERO).validate().is_ok());
    /// assert_eq!(Aabb::new(Vec3::X, Vec3::ZERO).validate(), Err(Error::InvertedBox("x")));
    /// ```
    #[inline]
    pub fn validate(&self) -> Result<()> {
        if !self.is_finite() {
            return Err(Error::NonFinite("box corner"));
        }
        let inverted = self.min.cmpgt(self.max).bitmask();
        if inverted != 0 {
            return Err(Error::InvertedBox(AXIS_NAMES[inverted.trailing_zeros() as usize]));
        }
        Ok(())
    }

    /// `(min + max) / 2`, computed as `min/2 + max/2`: the same rounding
    /// (halving is exact above the subnormals), and no overflow for a box
    /// near `±f32::MAX`.
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec3 {
        self.min * 0.5 + self.max * 0.5
    }

    /// `(max − min) / 2`, computed as `max/2 − min/2` (finite for every
    /// finite box, as [`Aabb::center`]).
    #[inline]
    #[must_use]
    pub fn half_extents(&self) -> Vec3 {
        self.max * 0.5 - self.min * 0.5
    }

    /// Grows the box to hold `p` (the book's `UpdateMinMax`).
    #[inline]
    pub fn grow(&mut self, p: Vec3) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    /// The smallest box holding both boxes.
    #[inline]
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb::new(self.min.min(other.min), self.max.max(other.max))
    }

    /// The box swept by this one moving by `motion`: the union of its start
    /// and end places.
    ///
    /// ```
    /// use collide::{Aabb, math::Vec3};
    /// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    /// assert_eq!(b.swept(Vec3::new(2.0, -1.0, 0.0)), Aabb::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(3.0, 1.0, 1.0)));
    /// ```
    #[inline]
    #[must_use]
    pub fn swept(&self, motion: Vec3) -> Aabb {
        self.union(&Aabb::new(self.min + motion, self.max + motion))
    }

    /// The box grown by `margin` on every side.
    #[inline]
    #[must_use]
    pub fn expanded(&self, margin: f32) -> Aabb {
        Aabb::new(self.min - Vec3::splat(margin), self.max + Vec3::splat(margin))
    }

    /// The world box of an object-space box, as the book's
    /// `BoxComponent::OnUpdateWorldTransform` computes it: scale, then rotate
    /// (only when `should_rotate`), then translate.
    ///
    /// The rotation uses Arvo's method (*Graphics Gems*, "Transforming
    /// Axis-Aligned Bounding Boxes"): `min'_i = Σ_j min(R_ij·min_j, R_ij·max_j)`,
    /// the same bounds as rotating the eight corners (the book's `AABB::Rotate`)
    /// in a third of the work. A negative scale mirrors the box (min and max
    /// swap on that axis). With unit scale and no rotation the result is
    /// exactly `min + translation`, `max + translation`.
    ///
    /// ```
    /// use collide::{Aabb, math::{Quat, Vec3}};
    /// let local = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
    /// let quarter_turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    /// let world = local.transformed(Vec3::new(2.0, 1.0, 1.0), quarter_turn, true, Vec3::new(10.0, 0.0, 0.0));
    /// assert!((world.max.x - (10.0 + 3.0 * std::f32::consts::FRAC_1_SQRT_2)).abs() < 1e-5);
    /// ```
    #[inline]
    #[must_use]
    pub fn transformed(&self, scale: Vec3, rotation: Quat, should_rotate: bool, translation: Vec3) -> Aabb {
        // In 16-byte SIMD vectors: the products of finite numbers are not
        // NaN, where the vector `min`/`max` and the scalar ones agree.
        let a = Vec3A::from(self.min) * Vec3A::from(scale);
        let b = Vec3A::from(self.max) * Vec3A::from(scale);
        let (min, max) = (a.min(b), a.max(b));
        // The identity rotation leaves the box as it is (Arvo's sums would
        // give the same numbers, at the cost of 18 products).
        let (min, max) = if should_rotate && rotation != Quat::IDENTITY {
            let rotated = Aabb::new(min.into(), max.into()).rotated(Mat3::from_quat(rotation));
            (rotated.min.into(), rotated.max.into())
        } else {
            (min, max)
        };
        let translation = Vec3A::from(translation);
        Aabb::new((min + translation).into(), (max + translation).into())
    }

    /// The bounds of the box rotated by `rotation` about the origin
    /// (Arvo's method; see [`Aabb::transformed`]).
    #[must_use]
    pub fn rotated(&self, rotation: Mat3) -> Aabb {
        let mut min = Vec3::ZERO;
        let mut max = Vec3::ZERO;
        for i in 0..3 {
            for j in 0..3 {
                let r = rotation.col(j)[i];
                let e = r * self.min[j];
                let f = r * self.max[j];
                min[i] += e.min(f);
                max[i] += e.max(f);
            }
        }
        Aabb::new(min, max)
    }

    /// The eight corners, `x` varying fastest.
    #[must_use]
    pub fn corners(&self) -> [Vec3; 8] {
        core::array::from_fn(|i| {
            Vec3::new(
                if i & 1 == 0 { self.min.x } else { self.max.x },
                if i & 2 == 0 { self.min.y } else { self.max.y },
                if i & 4 == 0 { self.min.z } else { self.max.z },
            )
        })
    }

    /// Surface area `2(xy + yz + zx)` of the extents, the cost measure of
    /// bounding-volume trees.
    #[inline]
    #[must_use]
    pub fn surface_area(&self) -> f32 {
        let e = self.max - self.min;
        2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    }
}
