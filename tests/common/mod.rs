//! The helpers the integration tests share, each kind in its own module:
//!
//! - [`bad`]: the bad input of RELIABILITY.md's table, as safe-API values;
//! - [`book`]: the book's collision routines, transliterated, to show
//!   where they fail and collide does not;
//! - [`c`]: the C toolchain, the builds of `examples-c/` and the
//!   `kind key=value ...` lines the C and C++ programs print;
//! - [`ffi`]: the values, sentinels and world harness of the C ABI tests;
//! - [`float`]: neighbouring `f32`s, tolerant comparisons and `f64`
//!   reference distances;
//! - [`geometry`]: `v`, `seg` and the shapes and checks the query tests
//!   share;
//! - [`oracle`]: the `f64` geometry oracle of `certificates.rs`;
//! - [`random`]: the seeded random source of the randomised checks (also
//!   included by `vs-parry/tests/` with `#[path]`).
// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

pub mod bad;
pub mod book;
pub mod c;
pub mod ffi;
pub mod float;
pub mod geometry;
pub mod oracle;
pub mod random;
