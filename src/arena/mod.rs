//! The arena: matches between engines. The referee and scheduler (`match_runner`),
//! engine processes spoken to over the protocol (`engine_process`), the statistics
//! (`stats`: Elo, pentanomial, SPRT), opening suites (`openings`), the split of a
//! long job into parts for several machines (`shard`), the summary of several
//! record files (`merge`), the one-ply greedy player that anchors the strength
//! levels (`greedy`), the review of recorded games (`analyse`), and the command
//! lines of `jungle match`, `replay`, `analyse`, `openings` and `greedy` (`command`).

pub mod analyse;
pub mod command;
pub mod engine_process;
pub mod greedy;
pub mod match_runner;
pub mod merge;
pub mod openings;
pub mod shard;
pub mod stats;
