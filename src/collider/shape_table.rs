//! The world's table of shapes its collider records cannot hold in place:
//! object shapes of the kinds a record does not keep itself, and world
//! shapes that are neither a collider's box nor its object shape.

use crate::bvh::store;
use crate::math::Vec3;
use crate::shape::{Shape, Sphere};

/// Shapes by index, with a free list: object shapes other than an
/// axis-aligned box or a sphere (a record keeps those in place), and world
/// shapes that are neither the collider's box nor its object shape (a moved
/// sphere, a rotated box, a placed hull). A world of box colliders keeps
/// none. Each entry belongs to one collider.
#[derive(Debug, Clone, Default)]
pub(crate) struct ShapeTable {
    shapes: Vec<Shape>,
    /// Entries no collider uses, reused last freed first.
    free: Vec<u32>,
}

/// What a free entry holds: no shared data kept alive.
const VACANT: Shape = Shape::Sphere(Sphere {
    center: Vec3::ZERO,
    radius: 0.0,
});

impl ShapeTable {
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

#[cfg(test)]
mod tests {
    use super::ShapeTable;
    use crate::math::Vec3;
    use crate::shape::{Shape, Sphere};

    /// An entry is reused in place when its owner passes it, and a freed
    /// one goes to the next shape stored.
    #[test]
    fn entries_are_reused() {
        let ball = |r| Shape::Sphere(Sphere::new(Vec3::ZERO, r));
        let mut table = ShapeTable::default();
        let a = table.store(None, ball(1.0));
        let b = table.store(None, ball(2.0));
        assert_eq!(table.store(Some(a), ball(3.0)), a);
        assert_eq!(*table.get(a), ball(3.0));
        table.release(a);
        assert_eq!((table.live(), table.used()), (1, vec![false, true]));
        assert_eq!(table.store(None, ball(4.0)), a);
        assert_eq!(*table.get(b), ball(2.0));
        assert_eq!(table.live(), 2);
    }
}
