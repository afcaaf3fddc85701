//! What a search reports, typed: `Score` and `InfoLine`, made from the core's
//! `SearchInfo`, the same for the engine in process (its reports) and for an engine
//! driven through the protocol (whose `info` lines the core's reader turns into
//! `SearchInfo`s).

use crate::board::PyMove;
use jungle_core::search::{Score, ScoreBound, SearchInfo};
use pyo3::prelude::*;

/// A score from the side to move's view: `cp` (centipawn-like) or `mate` (moves to
/// the win, negative when the side to move is mated), and the bound (`exact`,
/// `lower`, `upper`) when the search only proved one side of it.
#[pyclass(module = "jungle", name = "Score", frozen, eq, get_all, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PyScore {
    /// The score in centipawn-like units for the side to move, or `None` for a mate.
    cp: Option<i32>,
    /// Moves to the win (negative: to the loss of the side to move), or `None`.
    mate: Option<i32>,
    /// `exact`, or `lower` / `upper` when the search proved only one side of it.
    bound: &'static str,
}

impl PyScore {
    pub fn of(score: Score, bound: &'static str) -> PyScore {
        match score {
            Score::Cp(cp) => PyScore {
                cp: Some(cp),
                mate: None,
                bound,
            },
            Score::Mate(m) => PyScore {
                cp: None,
                mate: Some(m),
                bound,
            },
        }
    }
}

#[pymethods]
impl PyScore {
    /// Whether the score is a mate score.
    fn is_mate(&self) -> bool {
        self.mate.is_some()
    }

    fn __repr__(&self) -> String {
        let value = match (self.cp, self.mate) {
            (Some(cp), _) => format!("cp={cp}"),
            (_, Some(m)) => format!("mate={m}"),
            _ => String::new(),
        };
        if self.bound == "exact" {
            format!("Score({value})")
        } else {
            format!("Score({value}, bound='{}')", self.bound)
        }
    }
}

/// One line of a search's analysis: its number (`multipv`, 1 = best), `depth`,
/// `seldepth`, `score`, `nodes`, `nps`, `time` (seconds), `tbhits` and `pv` (the
/// principal variation as moves).
#[pyclass(module = "jungle", name = "InfoLine", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyInfoLine {
    /// The line's number, 1 = best.
    pub multipv: u32,
    /// Plies of the iteration that gave the line.
    pub depth: i32,
    /// The deepest ply the search reached.
    pub seldepth: i32,
    /// The line's `Score` for the side to move.
    pub score: PyScore,
    /// Positions the search visited.
    pub nodes: u64,
    /// Positions a second.
    pub nps: u64,
    /// Seconds since the search started.
    pub time: f64,
    /// Tablebase probes that found a value.
    pub tbhits: u64,
    /// The principal variation: the line's moves from the position.
    pub pv: Vec<PyMove>,
}

#[pymethods]
impl PyInfoLine {
    fn __repr__(&self) -> String {
        let pv: Vec<String> = self.pv.iter().map(|m| m.uci()).collect();
        format!(
            "InfoLine(multipv={}, depth={}, score={}, nodes={}, pv=[{}])",
            self.multipv,
            self.depth,
            self.score.__repr__(),
            self.nodes,
            pv.join(" ")
        )
    }
}

impl PyInfoLine {
    /// The line of a search's typed report.
    pub fn of(info: &SearchInfo) -> PyInfoLine {
        let bound = match info.bound {
            ScoreBound::Exact => "exact",
            ScoreBound::Lower => "lower",
            ScoreBound::Upper => "upper",
        };
        PyInfoLine {
            multipv: u32::try_from(info.multipv).unwrap_or(u32::MAX),
            depth: info.depth,
            seldepth: info.seldepth,
            score: PyScore::of(info.score, bound),
            nodes: info.nodes,
            nps: info.nps,
            time: info.time.as_secs_f64(),
            tbhits: info.tbhits,
            pv: info.pv.iter().map(|&m| PyMove(m)).collect(),
        }
    }
}

/// Reads an `info` line with a score (`info depth 12 seldepth 20 multipv 1 score cp
/// 35 lowerbound nodes … pv g3g4 …`) with the core's one reader of the protocol's
/// `info` lines; `None` for any other line. The moves of the line are not checked
/// against a position here.
#[pyfunction]
pub fn parse_info(line: &str) -> Option<PyInfoLine> {
    jungle_core::protocol::info::read(line).map(|info| PyInfoLine::of(&info))
}
