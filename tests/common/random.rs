//! The seeded random source of the tests' randomised checks: `rand`'s
//! generator traits over `rand_xorshift`'s XorShift (the same stream on
//! every platform and every run, so a failing case replays), and the few
//! draws the tests share.
// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

use collide::math::{Quat, Vec3};
use rand::{RngExt, SeedableRng};
pub use rand_xorshift::XorShiftRng as TestRng;

/// A generator seeded with `seed`.
pub fn seeded(seed: u64) -> TestRng {
    TestRng::seed_from_u64(seed)
}

/// The draws the tests share, on any `rand` generator.
pub trait Draw: RngExt {
    /// Uniform in `[lo, hi)` (`lo` when they are equal).
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.random::<f32>()
    }

    /// Each coordinate uniform in `[lo, hi)`.
    fn vec(&mut self, lo: f32, hi: f32) -> Vec3 {
        Vec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }

    /// Each coordinate uniform in `[lo, hi)` of its axis.
    fn vec_in(&mut self, lo: Vec3, hi: Vec3) -> Vec3 {
        Vec3::new(self.range(lo.x, hi.x), self.range(lo.y, hi.y), self.range(lo.z, hi.z))
    }

    /// An integer in `[0, n)`, `n > 0`.
    fn below(&mut self, n: u64) -> u64 {
        self.random_range(0..n)
    }

    /// True one time in `n` on average, `n > 0`.
    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// A uniformly distributed rotation: a point drawn uniformly in the
    /// unit 4-ball by rejection, projected onto the unit sphere of
    /// quaternions (the uniform measure on rotations, Shoemake 1992).
    fn rotation(&mut self) -> Quat {
        loop {
            let q = Quat::from_xyzw(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let norm_squared = q.length_squared();
            if (1.0e-2..=1.0).contains(&norm_squared) {
                return q.normalize();
            }
        }
    }
}

impl<R: RngExt + ?Sized> Draw for R {}
