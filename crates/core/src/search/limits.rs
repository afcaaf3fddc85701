//! What a `go` asks for, and the engine options that shape a search.

use super::parameters::SearchParams;
use crate::board::Move;
use crate::nnue::EvalKind;

/// Limits of one search, as given by `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Remaining clock time in ms for Red and Blue.
    pub time: [Option<u64>; 2],
    /// Increment per move in ms for Red and Blue.
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
    /// Search for a win in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// The first depth of iterative deepening (none: 1). A search resumed in slices
    /// (the browser's worker) starts again at the depth its last slice completed,
    /// whose work is in the hash table.
    pub start_depth: Option<i32>,
}

impl Limits {
    pub fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// True when the search runs on a clock (and so may stop early).
    pub fn uses_clock(&self) -> bool {
        self.time.iter().any(Option::is_some) || self.movetime.is_some()
    }
}

/// Engine options that affect searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// 0 (weakest) to 20 (full strength).
    pub skill_level: u32,
    /// `UCI_Elo` when `UCI_LimitStrength` is on (see `strength`).
    pub limit_elo: Option<u32>,
    /// Print `info` lines while searching.
    pub report: bool,
    /// The evaluation the search uses.
    pub eval: EvalKind,
    /// Most animals in a position the tablebases are probed for (0: never).
    pub tb_probe_limit: u32,
    /// The search's margins and reduction constants (the `SearchParams` option).
    pub params: SearchParams,
    /// Score repetitions as the rules do: a position that repeats one from before the
    /// root (or the root) is a draw only at its third occurrence, counting the game's
    /// moves. Off (play), every repetition is a draw at once; either way a repetition
    /// inside the search is (the puzzles' verifier turns it on: docs/puzzles.md).
    pub rules_repetition: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            skill_level: 20,
            limit_elo: None,
            report: true,
            eval: EvalKind::default(),
            tb_probe_limit: crate::tb::MAX_ANIMALS as u32,
            params: SearchParams::DEFAULT,
            rules_repetition: false,
        }
    }
}
