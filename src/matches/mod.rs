//! `jungle match` and `jungle replay`: matches between engines. The referee and scheduler (`match_runner`),
//! the statistics (`stats`: Elo, pentanomial, SPRT), the summary of several record
//! files (`merge`), and the command lines of `jungle match` and `replay` (`command`).
//! Engine processes, time controls and shards are `crate::common`'s.

pub mod command;
pub mod match_runner;
pub mod merge;
pub mod stats;
