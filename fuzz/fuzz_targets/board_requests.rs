//! The board app (`jungle_app`) driven by the page's requests (well formed and junk)
//! and its engines' answers (legal, illegal, late), its invariants checked after every
//! step: the game line legal, the shown position the line's, one search per slot, no
//! engine to move in an ended game, the view written whole with legal targets.
//! The script and the checks are in `crates/app/src/exercise.rs`.
#![no_main]

#[path = "../../tests/checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::board_requests(data));
