//! The engine's own commands: perft and the bench (and, until it moves, the tuner).

pub mod bench;
pub mod perft;
pub mod tune;
