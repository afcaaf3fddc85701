//! What a search reports while it runs: one `SearchInfo` for each line of analysis
//! after every completed iteration (and, past the first second, for a line whose
//! aspiration window failed). The protocol writes it as an `info` line
//! (`protocol::info`); callers in the same process (the browser's engine, the board
//! app, the Python package) read its fields.

use super::score::{Score, ScoreBound};
use crate::board::Move;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SearchInfo {
    /// The iteration's depth in plies.
    pub depth: i32,
    /// The deepest ply the line's search reached.
    pub seldepth: i32,
    /// The line's number, from 1 (`MultiPV`).
    pub multipv: usize,
    /// From the side to move's view.
    pub score: Score,
    pub bound: ScoreBound,
    /// Nodes of all threads since the search began.
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    pub tbhits: u64,
    /// The principal variation, from the root's move on.
    pub pv: Vec<Move>,
}

impl Default for Score {
    fn default() -> Self {
        Score::Cp(0)
    }
}

/// Receives each report of a running search.
pub type Report<'a> = &'a (dyn Fn(&SearchInfo) + Sync);
