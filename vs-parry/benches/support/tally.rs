//! One timed pass of casts, its checksum and the median of several passes,
//! shared by the cast benches
//! (`#[path]`; a file in a subdirectory of `benches/` is no bench target of
//! its own).

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Hits and `Σt` of one pass over a set of segments: its checksum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tally {
    pub hits: usize,
    pub sum_t: f64,
}

/// Times one pass: `cast` (the closest hit's `t`, if any) on every segment,
/// each kept from the optimiser by `black_box`.
pub fn time_pass<S>(segments: &[S], mut cast: impl FnMut(&S) -> Option<f32>) -> (Duration, Tally) {
    let mut tally = Tally { hits: 0, sum_t: 0.0 };
    let start = Instant::now();
    for s in segments {
        if let Some(t) = black_box(cast(black_box(s))) {
            tally.hits += 1;
            tally.sum_t += f64::from(t);
        }
    }
    (start.elapsed(), tally)
}

/// The median of `times` (passes over `count` segments each), in ns per
/// segment.
pub fn median_ns_per(times: &[Duration], count: usize) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2].as_nanos() as f64 / count as f64
}
