//! Training data records (`train::data`): decode, encode back to the same bytes.
//! The invariants are in `tests/checks/mod.rs`, shared with the stable tests.
#![no_main]

#[path = "../../tests/checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::training_data(data));
