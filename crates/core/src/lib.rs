//! The core of the Jungle (Dou Shou Qi) engine: the rules and the engine, with no
//! application around them.
//!
//! - `board`: squares, animals, the bitboard position, move generation, position strings.
//! - `game`: a game under a rule set: results, draws, the anti-chase rules.
//! - `eval`: the hand-set (classical) evaluation.
//! - `nnue`: the learned evaluation and the network built into the engine.
//! - `search`: iterative-deepening alpha-beta, the transposition table, threads, time.
//! - `tb`: endgame tablebases, built in memory or read from files.
//! - `tools`: perft and the bench.
//! - `record`: the record format of games and openings files.
//! - `puzzle`: puzzles: the format, the verifier, themes, difficulty, a person's try.
//! - `review`: what a game's moves cost by the engine's scores (marks, accuracy).
//! - `protocol`: the engine protocol's text, without I/O: `command` (parsing lines),
//!   `client` (what other engines declare and report).
//! - `rng`: the one small random generator (SplitMix64).
//! - `text`: outside text as errors quote it.
//! - `clock`: the time, also in WebAssembly.
//!
//! The applications (the protocol, the match runner, training, the board's server)
//! are in the `jungle` crate, which re-exports these modules.

pub mod board;
pub mod clock;
pub mod eval;
pub mod game;
pub mod nnue;
pub mod protocol;
pub mod puzzle;
pub mod record;
pub mod review;
pub mod review_tables;
pub mod rng;
pub mod search;
pub mod tb;
pub mod text;
pub mod time_control;
pub mod tools;
