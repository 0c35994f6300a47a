//! The helpers the integration tests share, each kind in its own module:
//!
//! - [`c`]: the C toolchain, the builds of `examples-c/` and the
//!   `kind key=value ...` lines the C and C++ programs print;
//! - [`oracle`]: the `f64` geometry oracle of `certificates.rs`;
//! - [`random`]: the seeded random source of the randomised checks (also
//!   included by `vs-parry/tests/` with `#[path]`).
// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

pub mod c;
pub mod oracle;
pub mod random;
