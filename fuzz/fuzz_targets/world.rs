//! Fuzz target `world`: raw bytes become a sequence of `World` calls, each
//! checked against a brute-force model (`tests/fuzz_model/mod.rs`, shared
//! with `tests/fuzz_replay.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_model/mod.rs"]
mod fuzz_model;

fuzz_target!(|data: &[u8]| fuzz_model::run_world(data));
