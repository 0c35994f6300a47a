//! Where a collider's world shape is kept: nowhere of its own when it is
//! the collider's box (the tree leaf holds that) or its object shape (the
//! record holds that), else in the world's table of world shapes.

use std::borrow::Cow;

use crate::bvh::store;
use crate::math::{Aabb, Vec3};
use crate::shape::{Shape, Sphere};

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
    /// Entry `i` of the world's [`WorldShapes`].
    Table(u32),
}

impl WorldShapeAt {
    /// The world shape, given the collider's object shape, its box and the
    /// table.
    #[inline]
    pub(crate) fn resolve<'a>(self, shape: &'a Shape, aabb: &Aabb, table: &'a WorldShapes) -> Cow<'a, Shape> {
        match self {
            WorldShapeAt::Box => Cow::Owned(Shape::Aabb(*aabb)),
            WorldShapeAt::Kept => Cow::Borrowed(shape),
            WorldShapeAt::Table(i) => Cow::Borrowed(table.get(i)),
        }
    }
}

/// The world shapes that are neither a collider's box nor its object shape
/// (a moved sphere, a rotated box, a placed hull), by index, with a free
/// list: a world of box colliders keeps none.
#[derive(Debug, Clone, Default)]
pub(crate) struct WorldShapes {
    shapes: Vec<Shape>,
    /// Entries no collider uses, reused last freed first.
    free: Vec<u32>,
}

/// What a free entry holds: no shared data kept alive.
const VACANT: Shape = Shape::Sphere(Sphere {
    center: Vec3::ZERO,
    radius: 0.0,
});

impl WorldShapes {
    /// Stores `shape` in entry `at` (a collider's own, reused), or else in
    /// a free or new entry, and returns the entry.
    pub(crate) fn store(&mut self, at: Option<u32>, shape: Shape) -> u32 {
        match at {
            Some(i) => {
                self.shapes[i as usize] = shape;
                i
            }
            None => store(&mut self.shapes, &mut self.free, shape),
        }
    }

    /// Frees entry `i`.
    pub(crate) fn release(&mut self, i: u32) {
        self.shapes[i as usize] = VACANT;
        self.free.push(i);
    }

    /// Entry `i`.
    #[inline]
    pub(crate) fn get(&self, i: u32) -> &Shape {
        &self.shapes[i as usize]
    }

    /// Per entry, whether a collider uses it (is not free): for the
    /// world's validation.
    pub(crate) fn used(&self) -> Vec<bool> {
        let mut used = vec![true; self.shapes.len()];
        for &i in &self.free {
            used[i as usize] = false;
        }
        used
    }

    /// How many entries colliders use.
    pub(crate) fn live(&self) -> usize {
        self.shapes.len() - self.free.len()
    }

    /// Bytes held (capacities).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.shapes.capacity() * core::mem::size_of::<Shape>() + self.free.capacity() * core::mem::size_of::<u32>()
    }
}
