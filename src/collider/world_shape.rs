//! Where a collider's world shape is kept: nowhere of its own when it is
//! the collider's box (the tree leaf holds that) or its object shape (the
//! record holds that), else in the world's table of shapes
//! ([`RecordTables`](super::RecordTables)).

use crate::shape::Shape;

/// A collider's shape in world space as a placement derives it.
#[derive(Debug, Clone)]
pub(crate) enum WorldShape {
    /// An axis-aligned box, exactly the collider's bounds.
    Box,
    /// The object-space shape itself (an identity transform keeps it).
    Kept,
    /// Any other shape.
    Own(Shape),
}

/// Where a record finds its world shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WorldShapeAt {
    /// The leaf's box ([`WorldShape::Box`]).
    Box,
    /// The record's object shape ([`WorldShape::Kept`]).
    Kept,
    /// Entry `i` of the world's table of shapes
    /// ([`RecordTables`](super::RecordTables)).
    Table(u32),
}
