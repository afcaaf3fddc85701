//! Puzzles: positions where the side to move has exactly one move that wins, keeps a
//! win, or saves a draw that every other move loses, with the line that follows.
//! No I/O: `jungle puzzles` (in the `jungle` crate) reads games and tables and writes
//! files; the board (`jungle_app`) reads the shipped set.
//!
//! - `format`: the puzzle and its line in a puzzle file (protocol.md, "Puzzles").
//! - `verify`: whether a position is a puzzle, its solution line, and the check of a
//!   stored line (tables where they reach, a deep search elsewhere).
//! - `theme`: the themes of a line, found with the rules core.
//! - `difficulty`: the lowest strength level that solves it, as a rating.
//! - `attempt`: a person's try at a puzzle (right, wrong, hint, solution).

pub mod attempt;
pub mod difficulty;
pub mod format;
pub mod prove;
pub mod theme;
pub mod verify;

pub use attempt::{Attempt, Judgement};
pub use difficulty::Difficulty;
pub use format::{read_puzzles, Goal, Puzzle};
pub use theme::Theme;
pub use verify::{Found, Refusal, Settings, Verdict, Verifier};
