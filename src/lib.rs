//! Jungle (Dou Shou Qi): the applications around the engine core.
//!
//! The rules and the engine (board, game, eval, nnue, search, tables, perft and bench)
//! are the `jungle-core` crate in `crates/core`, which builds for any target; they are
//! re-exported here under their own names. This crate holds what runs around them:
//!
//! - `session`: the engine's protocol session on stdin/stdout.
//! - `matches`: matches between engines and their records (`jungle match`, `replay`).
//! - `openings`: opening books (`jungle openings`), balanced or calibrated.
//! - `analyse`: the review of record files (`jungle analyse`).
//! - `greedy`: the one-ply player (`jungle greedy`), the anchor of the strength levels.
//! - `puzzles`: puzzles from games and tables (`jungle puzzles`).
//! - `train`: data generation, network training, weight tuning.
//! - `tablebases`: the `jungle tb` command (build, verify, probe table files).
//! - `gui`: the board's HTTP server.
//! - `bot`: an engine playing on a `jungle serve` site as a bot account (`jungle bot`).
//! - `cli`: the command line, dispatching to the above.
//! - `common`: what several applications share (command-line options, protocol
//!   lines in and out, engine processes, time controls, shards); applications import
//!   from it and the core only, never from each other.

pub use jungle_core::{
    board, eval, game, nnue, protocol, puzzle, record, review, review_tables, rng, search, tb,
    text, tools, with_move_rules,
};

pub mod analyse;
pub mod bot;
pub mod cli;
pub mod common;
pub mod greedy;
pub mod gui;
pub mod matches;
pub mod openings;
pub mod puzzles;
pub mod session;
pub mod tablebases;
pub mod train;
