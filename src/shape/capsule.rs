//! Capsule: the points within `radius` of a segment (a swept sphere).

use crate::error::{Error, Result};
use crate::shape::Segment;

/// A solid capsule; layout matches the book's
/// `Capsule { LineSegment mSegment; float mRadius; }`.
///
/// A zero-length axis makes it a sphere (the book's capsule then contains
/// nothing, through a `0/0`: see BOOK.md).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Capsule {
    /// The axis: the centres of the two hemispherical caps.
    pub segment: Segment,
    /// Radius, `>= 0`.
    pub radius: f32,
}

impl Capsule {
    /// A capsule around `segment` (not validated; see [`Capsule::validate`]).
    #[inline]
    #[must_use]
    pub const fn new(segment: Segment, radius: f32) -> Self {
        Self { segment, radius }
    }

    /// Checks that the axis and radius are finite and the radius is not negative.
    pub fn validate(&self) -> Result<()> {
        if !self.segment.is_finite() || !self.radius.is_finite() {
            return Err(Error::NonFinite("capsule axis or radius"));
        }
        if self.radius < 0.0 {
            return Err(Error::NegativeRadius);
        }
        Ok(())
    }
}
