//! What several applications share, below them all: an application imports from
//! here (and from the core), never from another application.
//!
//! - `args`: the command-line options several commands take (the rules, `--eval`), a
//!   line-flushed stdout, this process's command line, logging.
//! - `input`, `output`: protocol lines read from stdin (bounded) and written whole
//!   (the engine's session and the greedy player).
//! - `engine_process`: another engine as a process spoken to over the protocol (the
//!   match referee, the board's driver, calibrated books).
//! - `shard`: part K of N of a fixed schedule of work (`match`, `datagen`), and the
//!   checksum that names a finished part in a manifest.
//! - `tables`: the endgame tables a command decides positions with (`--tb-dir`,
//!   `--tb-animals`).
//! - `test_books`: the committed books, whose positions are kept out of training data
//!   and puzzles.

pub mod args;
pub mod engine_process;
pub mod input;
pub mod output;
pub mod shard;
pub mod tables;
pub mod test_books;
