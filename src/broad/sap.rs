//! Sweep and prune (Baraff 1992; Ericson §7.5.1): sort the boxes by their
//! lower bound on one axis, then sweep, testing each box only against the
//! boxes that start before it ends.
//!
//! The axis is the one along which the box centres spread most (largest
//! variance, Ericson §7.5.1), so a scene whose boxes all overlap on x (the
//! `column-10k` benchmark scene) sweeps along y or z instead of degenerating
//! to O(n²).

use slotmap::SlotMap;

use crate::broad::naive::overlaps;
use crate::broad::Pair;
use crate::collider::{Collider, ColliderKey};
use crate::math::Vec3;
use crate::shape::Aabb;

/// One box on the sweep axis.
#[derive(Debug, Clone, Copy)]
struct Endpoint {
    min: f32,
    max: f32,
    key: ColliderKey,
}

/// Sweep-and-prune pair finder; keeps its array between calls so a call in
/// steady state allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct SweepAndPrune {
    endpoints: Vec<Endpoint>,
}

impl SweepAndPrune {
    /// Replaces `pairs` by every overlapping pair whose filters interact, as
    /// `(a, b)` with `a < b`, sorted: the same set and order as
    /// [`naive::for_each_pair`](crate::broad::naive::for_each_pair).
    pub fn find_pairs(&mut self, colliders: &SlotMap<ColliderKey, Collider>, pairs: &mut Vec<Pair>) {
        let axis = sweep_axis(colliders.values().map(Collider::aabb));
        self.endpoints.clear();
        self.endpoints.extend(colliders.iter().map(|(key, c)| Endpoint {
            min: c.aabb().min[axis],
            max: c.aabb().max[axis],
            key,
        }));
        self.endpoints
            .sort_unstable_by(|a, b| a.min.total_cmp(&b.min).then(a.key.cmp(&b.key)));
        pairs.clear();
        for (i, first) in self.endpoints.iter().enumerate() {
            for second in self.endpoints[i + 1..].iter().take_while(|e| e.min <= first.max) {
                let (a, b) = (&colliders[first.key], &colliders[second.key]);
                if overlaps(a, b) {
                    let (a_key, a, b_key, b) = if first.key < second.key {
                        (first.key, a, second.key, b)
                    } else {
                        (second.key, b, first.key, a)
                    };
                    pairs.push(Pair {
                        a: a_key,
                        b: b_key,
                        user_a: a.user_data(),
                        user_b: b.user_data(),
                    });
                }
            }
        }
        pairs.sort_unstable();
    }
}

/// The axis (0, 1, 2) along which the box centres have the largest variance.
fn sweep_axis<'a>(boxes: impl Iterator<Item = &'a Aabb>) -> usize {
    let mut count = 0.0f64;
    let mut sum = [0.0f64; 3];
    let mut sum_squares = [0.0f64; 3];
    for aabb in boxes {
        let c: Vec3 = aabb.center();
        count += 1.0;
        for axis in 0..3 {
            let v = f64::from(c[axis]);
            sum[axis] += v;
            sum_squares[axis] += v * v;
        }
    }
    if count == 0.0 {
        return 0;
    }
    let variance = |axis: usize| sum_squares[axis] / count - (sum[axis] / count).powi(2);
    (0..3).max_by(|&a, &b| variance(a).total_cmp(&variance(b))).unwrap_or(0)
}
