//! Whole protocol sessions in memory: errors, unchanged state on refusal, one legal bestmove per go.
//! The invariants are in `tests/checks/mod.rs`, shared with the stable tests.
#![no_main]

#[path = "../../tests/checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::session(data));
