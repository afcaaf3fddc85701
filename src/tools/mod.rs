//! Tools built on the engine: perft and the bench.

pub mod bench;
pub mod perft;
