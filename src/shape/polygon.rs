//! Convex polygon in the plane (2D).

use crate::error::{Error, Result};
use crate::math::{Vec2, DEGENERATE_EPSILON};

/// A convex polygon given by its vertices in order, clockwise (the book's
/// convention) or counter-clockwise.
///
/// Construction checks it: at least three finite vertices, a non-zero area,
/// and every turn in the same direction (convex). Collinear consecutive
/// vertices are allowed. Point containment then needs only cross products
/// (see [`ConvexPolygon::contains_point`]) instead of the book's summed
/// `acos`, which fails on vertices, near edges and for large polygons.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexPolygon {
    vertices: Vec<Vec2>,
    /// `+1` for counter-clockwise vertices, `−1` for clockwise.
    orientation: f32,
}

/// `(b − a) × (c − a)`, twice the signed area of the triangle `abc`, in
/// `f64`: the products of `f32` differences, which overflow `f32` beyond
/// about 1.8e19, round at most once there.
#[inline]
pub(crate) fn cross2(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let a = a.as_dvec2();
    (b.as_dvec2() - a).perp_dot(c.as_dvec2() - a)
}

/// How often the sign of the non-zero values changes around the cyclic sequence.
fn sign_changes(values: impl Iterator<Item = f32>) -> usize {
    let signs: Vec<bool> = values.filter(|v| *v != 0.0).map(|v| v > 0.0).collect();
    (0..signs.len())
        .filter(|&i| signs[i] != signs[(i + 1) % signs.len()])
        .count()
}

impl ConvexPolygon {
    /// Builds a polygon, checking that it is convex and not degenerate.
    ///
    /// Errors: [`Error::NonFinite`], or [`Error::InvalidArgument`] for fewer
    /// than three vertices, a zero area, or a non-convex outline.
    ///
    /// ```
    /// use collide::{ConvexPolygon, math::Vec2};
    /// let square = ConvexPolygon::new(vec![
    ///     Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0),
    /// ]).unwrap();
    /// assert!(square.contains_point(Vec2::new(0.5, 0.5)));
    /// assert!(ConvexPolygon::new(vec![]).is_err());
    /// ```
    pub fn new(vertices: Vec<Vec2>) -> Result<Self> {
        if vertices.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFinite("polygon vertex"));
        }
        if vertices.len() < 3 {
            return Err(Error::InvalidArgument("a polygon needs at least three vertices"));
        }
        let twice_area: f64 = (1..vertices.len() - 1)
            .map(|i| cross2(vertices[0], vertices[i], vertices[i + 1]))
            .sum();
        let first = vertices[0].as_dvec2();
        let extent = vertices
            .iter()
            .map(|v| (v.as_dvec2() - first).length_squared())
            .fold(0.0f64, f64::max);
        let epsilon = f64::from(DEGENERATE_EPSILON);
        if twice_area.abs() <= epsilon * extent {
            return Err(Error::InvalidArgument("polygon has zero area"));
        }
        let orientation = twice_area.signum();
        let n = vertices.len();
        for i in 0..n {
            let turn = cross2(vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]);
            if turn * orientation < -epsilon * extent {
                return Err(Error::InvalidArgument("polygon is not convex"));
            }
        }
        // Turning one way is not enough: a pentagram does too. A simple convex
        // outline also sweeps its edge directions once around, so the sign of
        // each edge coordinate changes at most twice around the loop.
        let edges: Vec<Vec2> = (0..n).map(|i| vertices[(i + 1) % n] - vertices[i]).collect();
        for axis in 0..2 {
            if sign_changes(edges.iter().map(|e| e[axis])) > 2 {
                return Err(Error::InvalidArgument("polygon is not convex"));
            }
        }
        Ok(Self {
            vertices,
            orientation: orientation as f32,
        })
    }

    /// The vertices, in the order given.
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// `+1` when the vertices run counter-clockwise, `−1` when clockwise.
    #[inline]
    #[must_use]
    pub fn orientation(&self) -> f32 {
        self.orientation
    }
}
