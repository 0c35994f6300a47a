//! The O(n²) pair loop (the book's `TestPairwise`): every pair tested, the
//! reference every faster pair finder is tested against.

use crate::broad::overlaps;
use crate::broad::Pair;
use crate::collider::{ColliderKey, ColliderRef, Colliders};
use crate::visit::VisitResult;

/// Every overlapping pair whose filters interact, in `(a, b)` key order,
/// until `f` answers `Break`: the bounds are compared first, then the
/// exact shapes.
pub fn for_each_pair<R: VisitResult>(colliders: Colliders<'_>, mut f: impl FnMut(Pair) -> R) {
    let all: Vec<(ColliderKey, ColliderRef<'_>)> = colliders.iter().collect();
    for (i, &(key_a, a)) in all.iter().enumerate() {
        for &(key_b, b) in &all[i + 1..] {
            if overlaps(a, b) {
                let pair = Pair {
                    a: key_a,
                    b: key_b,
                    user_a: a.user_data(),
                    user_b: b.user_data(),
                };
                if f(pair).control_flow().is_break() {
                    return;
                }
            }
        }
    }
}
