//! Fuzz target `c_abi`: raw bytes drive the `phys_*` functions as C calls
//! them, each checked against a safe-API mirror
//! (`tests/fuzz_model/c_abi.rs`, shared with `tests/fuzz_replay.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_model/mod.rs"]
mod fuzz_model;

fuzz_target!(|data: &[u8]| fuzz_model::c_abi::run_c_abi(data));
