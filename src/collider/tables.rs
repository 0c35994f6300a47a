//! What the world keeps of its colliders outside their slots: the shapes
//! and the rotations and scales a slot has no room for, each in a table of
//! entries by index with a free list.

use crate::bvh::store;
use crate::math::{Quat, Transform, Vec3, Vec4};
use crate::shape::{Shape, Sphere};

/// The world's tables of what collider records keep outside their slots.
/// A world of boxes that are only moved keeps nothing in them.
#[derive(Debug, Clone, Default)]
pub(crate) struct RecordTables {
    /// Object shapes other than an axis-aligned box or a sphere (a record
    /// keeps those in place), and world shapes that are neither the
    /// collider's box nor its object shape (a moved sphere, a rotated box,
    /// a placed hull).
    pub(crate) shapes: Table<Shape>,
    /// The rotation and scale of each transform that has either (a record
    /// keeps the translation).
    pub(crate) rotation_scales: Table<RotationScale>,
}

impl RecordTables {
    /// Bytes held (capacities).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.shapes.memory_bytes() + self.rotation_scales.memory_bytes()
    }
}

/// A transform's rotation and scale as a table keeps them: 28 bytes of
/// 4-byte floats, stored and read back bit for bit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RotationScale {
    pub(crate) rotation: [f32; 4],
    pub(crate) scale: [f32; 3],
}

impl RotationScale {
    /// No rotation and unit scale: a transform a record keeps without an
    /// entry.
    pub(crate) const IDENTITY: RotationScale = RotationScale {
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
    };

    /// The rotation and scale of `transform`, or `None` if their bits are
    /// those of [`RotationScale::IDENTITY`]. Only `+0.0` equals zero with
    /// its sign bit clear and only `1.0` equals one, so the comparisons
    /// below are a comparison of bits (a negative zero is kept as given).
    #[inline]
    pub(crate) fn of(transform: &Transform) -> Option<RotationScale> {
        let identity = transform.rotation == Quat::IDENTITY
            && Vec4::from(transform.rotation).is_negative_bitmask() == 0
            && transform.scale == Vec3::ONE;
        (!identity).then(|| RotationScale {
            rotation: transform.rotation.to_array(),
            scale: transform.scale.to_array(),
        })
    }
}

/// What a free entry holds: for a shape, one that keeps no shared data
/// alive.
pub(crate) trait Vacant {
    /// The value.
    const VACANT: Self;
}

impl Vacant for Shape {
    const VACANT: Self = Shape::Sphere(Sphere {
        center: Vec3::ZERO,
        radius: 0.0,
    });
}

impl Vacant for RotationScale {
    const VACANT: Self = RotationScale::IDENTITY;
}

/// Values by index, with a free list; each entry belongs to one collider.
#[derive(Debug, Clone)]
pub(crate) struct Table<T> {
    values: Vec<T>,
    /// Entries no collider uses, reused last freed first.
    free: Vec<u32>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Self {
            values: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<T: Vacant> Table<T> {
    /// Stores `value` in entry `at` (a collider's own, reused), or else in
    /// a free or new entry, and returns the entry.
    pub(crate) fn store(&mut self, at: Option<u32>, value: T) -> u32 {
        match at {
            Some(i) => {
                self.values[i as usize] = value;
                i
            }
            None => store(&mut self.values, &mut self.free, value),
        }
    }

    /// Frees entry `i`.
    pub(crate) fn release(&mut self, i: u32) {
        self.values[i as usize] = T::VACANT;
        self.free.push(i);
    }

    /// Entry `i`.
    #[inline]
    pub(crate) fn get(&self, i: u32) -> &T {
        &self.values[i as usize]
    }

    /// Checks that `named`, the entries the colliders name, are the entries
    /// in use, each named once: for the world's validation.
    pub(crate) fn check_named(&self, mut named: Vec<u32>) -> Result<(), String> {
        let mut free = vec![false; self.values.len()];
        for &i in &self.free {
            free[i as usize] = true;
        }
        named.sort_unstable();
        if let Some(pair) = named.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(format!("entry {} is named twice", pair[0]));
        }
        if let Some(i) = named.iter().find(|&&i| free.get(i as usize).copied().unwrap_or(true)) {
            return Err(format!("entry {i} is named but free"));
        }
        if named.len() != self.live() {
            return Err(format!("{} entries are in use, {} named", self.live(), named.len()));
        }
        Ok(())
    }

    /// How many entries colliders use.
    pub(crate) fn live(&self) -> usize {
        self.values.len() - self.free.len()
    }

    /// Bytes held (capacities).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.values.capacity() * core::mem::size_of::<T>() + self.free.capacity() * core::mem::size_of::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::Table;
    use crate::math::Vec3;
    use crate::shape::{Shape, Sphere};

    /// An entry is reused in place when its owner passes it, and a freed
    /// one goes to the next value stored.
    #[test]
    fn entries_are_reused() {
        let ball = |r| Shape::Sphere(Sphere::new(Vec3::ZERO, r));
        let mut table = Table::default();
        let a = table.store(None, ball(1.0));
        let b = table.store(None, ball(2.0));
        assert_eq!(table.store(Some(a), ball(3.0)), a);
        assert_eq!(*table.get(a), ball(3.0));
        table.release(a);
        assert_eq!(table.live(), 1);
        assert_eq!(table.check_named(vec![b]), Ok(()));
        assert!(table.check_named(vec![a, b]).is_err(), "a free entry");
        assert!(table.check_named(vec![b, b]).is_err(), "an entry named twice");
        assert!(table.check_named(vec![]).is_err(), "an entry in use named by none");
        assert_eq!(table.store(None, ball(4.0)), a);
        assert_eq!(*table.get(b), ball(2.0));
        assert_eq!(table.live(), 2);
    }
}
