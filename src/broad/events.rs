//! Begin and end overlap events: the difference between the pair sets of
//! two consecutive frames.

use crate::broad::Pair;

/// Pairs that started and stopped overlapping between two pair queries,
/// each sorted by `(a, b)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairEvents<'a> {
    /// Pairs overlapping now that did not before.
    pub began: &'a [Pair],
    /// Pairs that overlapped before and do not now (including every pair of
    /// a collider removed since).
    pub ended: &'a [Pair],
}

/// Writes `current − previous` into `began` and `previous − current` into
/// `ended` (both cleared first), by one merge of the two sorted sets.
/// Pairs are compared by their keys only.
pub fn diff(previous: &[Pair], current: &[Pair], began: &mut Vec<Pair>, ended: &mut Vec<Pair>) {
    began.clear();
    ended.clear();
    let (mut i, mut j) = (0, 0);
    while i < previous.len() && j < current.len() {
        let (p, c) = (&previous[i], &current[j]);
        match (p.a, p.b).cmp(&(c.a, c.b)) {
            core::cmp::Ordering::Less => {
                ended.push(*p);
                i += 1;
            }
            core::cmp::Ordering::Greater => {
                began.push(*c);
                j += 1;
            }
            core::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    ended.extend_from_slice(&previous[i..]);
    began.extend_from_slice(&current[j..]);
}
