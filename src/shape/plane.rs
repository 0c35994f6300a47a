//! Plane `n·x + d = 0` with a unit normal.

use crate::error::{Error, Result};
use crate::math::{DVec3, Vec3, DEGENERATE_EPSILON};

/// A plane of points `x` with `normal·x + d = 0`, `|normal| = 1`.
///
/// One sign convention everywhere: [`Plane::signed_distance`] is
/// `normal·p + d`, positive on the side the normal points to. (The book builds
/// its plane with `n·P + d = 0` but measures `n·P − d`: see BOOK.md.)
/// Layout matches the book's `Plane { Vector3 mNormal; float mD; }`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    /// Unit normal.
    pub normal: Vec3,
    /// Offset: `d = −normal·p` for any point `p` of the plane.
    pub d: f32,
}

impl Plane {
    /// The plane through `point` with the direction of `normal` (normalised).
    ///
    /// Errors: [`Error::NonFinite`] for NaN/∞ input or an offset `d` beyond
    /// `f32`, [`Error::InvalidArgument`] for a zero normal.
    ///
    /// ```
    /// use collide::{Plane, math::Vec3};
    /// let p = Plane::from_normal_and_point(Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, 3.0, 0.0)).unwrap();
    /// assert_eq!(p.signed_distance(Vec3::new(5.0, 4.0, 1.0)), 1.0);
    /// ```
    pub fn from_normal_and_point(normal: Vec3, point: Vec3) -> Result<Self> {
        if !normal.is_finite() || !point.is_finite() {
            return Err(Error::NonFinite("plane normal or point"));
        }
        let length = normal.as_dvec3().length();
        if length == 0.0 {
            return Err(Error::InvalidArgument("plane normal has zero length"));
        }
        Self::through(normal.as_dvec3() / length, point)
    }

    /// The plane with unit normal `normal` (in `f64`, rounded once) through
    /// `point`, its offset from the rounded normal in `f64`.
    ///
    /// Errors: [`Error::NonFinite`] for an offset beyond `f32` (a point
    /// near `f32::MAX` on a diagonal).
    fn through(normal: DVec3, point: Vec3) -> Result<Self> {
        let normal = normal.as_vec3();
        let d = -normal.as_dvec3().dot(point.as_dvec3()) as f32;
        if !d.is_finite() {
            return Err(Error::NonFinite("plane offset"));
        }
        Ok(Self { normal, d })
    }

    /// The plane through `a`, `b`, `c`, with normal `(b − a)×(c − a)`
    /// normalised (counter-clockwise points face the viewer).
    ///
    /// Collinear or coincident points are an error instead of the book's NaN
    /// normal: they are collinear when `|(b−a)×(c−a)|` is below
    /// `DEGENERATE_EPSILON·|b−a|·|c−a|` (the sine of the angle at `a`).
    /// The normal and offset are computed in `f64` and rounded once, so
    /// points at any `f32` scale give the plane they give at unit scale;
    /// an offset beyond `f32` is [`Error::NonFinite`].
    ///
    /// ```
    /// use collide::{Plane, math::Vec3};
    /// let p = Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
    /// assert_eq!(p.normal, Vec3::Z);
    /// assert!(Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0)).is_err());
    /// ```
    pub fn from_points(a: Vec3, b: Vec3, c: Vec3) -> Result<Self> {
        if !(a.is_finite() && b.is_finite() && c.is_finite()) {
            return Err(Error::NonFinite("plane point"));
        }
        // In `f64`, where the fourth powers of `f32` lengths neither
        // overflow nor fall below the normal range.
        let ab = b.as_dvec3() - a.as_dvec3();
        let ac = c.as_dvec3() - a.as_dvec3();
        let n = ab.cross(ac);
        let scale = ab.length_squared() * ac.length_squared();
        let epsilon = f64::from(DEGENERATE_EPSILON);
        if n.length_squared() <= epsilon * epsilon * scale || scale == 0.0 {
            return Err(Error::InvalidArgument("plane points are collinear"));
        }
        Self::through(n / n.length(), a)
    }

    /// Signed distance `normal·p + d`: positive in front (the side the
    /// normal points to), zero on the plane, negative behind.
    #[inline]
    #[must_use]
    pub fn signed_distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) + self.d
    }

    /// The point of the plane closest to `p`: `p − signed_distance(p)·normal`.
    #[inline]
    #[must_use]
    pub fn project_point(&self, p: Vec3) -> Vec3 {
        p - self.normal * self.signed_distance(p)
    }
}
