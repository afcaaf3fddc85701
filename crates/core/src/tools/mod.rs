//! The engine's own commands: perft and the bench.

pub mod bench;
pub mod perft;
pub mod perft_suite;
