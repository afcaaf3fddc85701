//! The arena: matches between engines. The referee and scheduler (`match_runner`),
//! engine processes spoken to over the protocol (`engine_process`), the statistics
//! (`stats`: Elo, pentanomial, SPRT), opening suites (`openings`), the split of a
//! long job into parts for several machines (`shard`) and the summary of several
//! record files (`merge`).

pub mod engine_process;
pub mod match_runner;
pub mod merge;
pub mod openings;
pub mod shard;
pub mod stats;
