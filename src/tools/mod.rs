//! Tools built on the engine: perft, the bench, the match runner and its statistics,
//! and the opening suite.

pub mod bench;
pub mod engine_process;
pub mod match_runner;
pub mod openings;
pub mod perft;
pub mod stats;
pub mod tune;
