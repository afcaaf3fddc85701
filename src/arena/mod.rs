//! The arena: matches between engines. The referee and scheduler (`match_runner`),
//! engine processes spoken to over the protocol (`engine_process`), the statistics
//! (`stats`: Elo, pentanomial, SPRT), the split of a long job into parts for several
//! machines (`shard`), the summary of several record files (`merge`), and the command
//! lines of `jungle match` and `replay` (`command`).

pub mod command;
pub mod engine_process;
pub mod match_runner;
pub mod merge;
pub mod shard;
pub mod stats;
