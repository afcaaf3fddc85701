//! `jungle.tablebase.probe`: the exact value of a position with few animals, from
//! tables built in memory (as the engine builds them) or read from a directory of
//! table files (`jungle tb build`).

use crate::args;
use crate::board::PyMove;
use crate::wait;
use jungle_core::board::Position;
use jungle_core::tb::store::BUILD_IN_MEMORY;
use jungle_core::tb::{
    probe_moves, probe_position, Material, Tablebases, TbRules, TbValue, MAX_ANIMALS,
};
use jungle_core::with_move_rules;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// The value of a position for the side to move: `wdl` (`win`, `cursed win`,
/// `draw`, `blessed loss`, `loss`: under the no-capture rule with the position's
/// count), `dtm` (plies to the end of the game with best play, positive when the
/// side to move wins, negative when it loses, `None` for a draw), `dtz` (plies to
/// the capture or win that keeps the result within the no-capture rule, `None` when
/// not decided within it) and `moves` (every legal move's value, best first).
#[pyclass(module = "jungle.tablebase", name = "Probe", frozen, get_all)]
pub struct PyProbe {
    /// `win`, `cursed win`, `draw`, `blessed loss` or `loss`, for the side to move.
    wdl: &'static str,
    /// Plies to the end with best play (positive: the side to move wins), or `None`.
    dtm: Option<i32>,
    /// Plies to the capture or win that keeps the result, or `None`.
    dtz: Option<u16>,
    /// Every legal move's `MoveValue`, best first.
    moves: Vec<PyMoveValue>,
}

#[pymethods]
impl PyProbe {
    fn __repr__(&self) -> String {
        format!(
            "Probe(wdl='{}', dtm={}, dtz={}, moves={})",
            self.wdl,
            show(self.dtm),
            show(self.dtz),
            self.moves.len()
        )
    }
}

/// One move's value for the side that makes it (`dtm` counts the move).
#[pyclass(module = "jungle.tablebase", name = "MoveValue", frozen, get_all)]
#[derive(Clone)]
pub struct PyMoveValue {
    /// The move.
    #[pyo3(name = "move")]
    mv: PyMove,
    /// Its value for the side that makes it (`win` … `loss`).
    wdl: &'static str,
    /// Plies to the end after it, the move counted (positive: a win), or `None`.
    dtm: Option<i32>,
    /// Plies to the capture or win that keeps the result, or `None`.
    dtz: Option<u16>,
    /// Whether it takes an animal.
    capture: bool,
}

#[pymethods]
impl PyMoveValue {
    fn __repr__(&self) -> String {
        format!(
            "MoveValue(move={}, wdl='{}', dtm={}, dtz={})",
            self.mv.uci(),
            self.wdl,
            show(self.dtm),
            show(self.dtz)
        )
    }
}

fn show<T: ToString>(v: Option<T>) -> String {
    v.map_or("None".into(), |v| v.to_string())
}

/// DTM signed from the side to move's view.
fn signed(outcome: TbValue) -> Option<i32> {
    match outcome {
        TbValue::Win(d) => Some(i32::from(d)),
        TbValue::Loss(d) => Some(-i32::from(d)),
        TbValue::Draw => None,
    }
}

/// The most animals whose tables `probe` builds (more take `jungle tb build`).
const BUILD_MOST: usize = 4;

/// One set of tables per rules and directory, kept for the life of the process (as
/// the engine keeps its own).
fn tables_for(rules: TbRules, dir: Option<PathBuf>, build_up_to: usize) -> Arc<Tablebases> {
    type Key = (TbRules, Option<PathBuf>, usize);
    static SETS: OnceLock<Mutex<HashMap<Key, Arc<Tablebases>>>> = OnceLock::new();
    let sets = SETS.get_or_init(Mutex::default);
    let mut sets = sets.lock().unwrap_or_else(|e| e.into_inner());
    sets.entry((rules, dir.clone(), build_up_to))
        .or_insert_with(|| Arc::new(Tablebases::new(rules, dir).building(build_up_to, false)))
        .clone()
}

/// The tablebase value of `board`'s position, or `None` when it has more animals than
/// the tables hold, the game is already over on the board, or no table is at hand.
///
/// Tables of up to `build` animals (default 3, at most 4) are built in memory on first
/// need and kept; `directory` adds table files made by `jungle tb build` (a directory
/// that cannot be read raises `ValueError`). The rules
/// are the board's; the anti-chase rules cannot be tabled (`ValueError`). Releases
/// the GIL while tables are built; Ctrl-C raises `KeyboardInterrupt` at once, and the
/// build goes on in the background for the next call.
#[pyfunction]
#[pyo3(signature = (board, *, build=None, directory=None))]
pub fn probe(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    build: Option<&Bound<'_, PyAny>>,
    directory: Option<PathBuf>,
) -> PyResult<Option<PyProbe>> {
    let board = args::board(board, "board")?;
    let build = match build {
        Some(b) => args::whole(b, "build", 0, BUILD_MOST as i64)? as usize,
        None => BUILD_IN_MEMORY,
    };
    if let Some(dir) = &directory {
        args::readable_dir(dir, "directory")?;
    }
    let rules =
        TbRules::for_rules(board.game.rules()).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let pos: Position = *board.game.position();
    let material = Material::of(&pos);
    if pos.is_over_on_board() || material.count() > MAX_ANIMALS {
        return Ok(None);
    }
    let tables = tables_for(rules, directory, build);
    if tables.get(material).is_some() {
        return probe_with(&tables, rules, &pos, material);
    }
    // A build of 4-animal tables takes seconds and cannot be told to stop: Ctrl-C
    // raises at once and leaves it to finish for the next call.
    wait::leaving_on_signal(py, "jungle-tablebase-build", move || {
        probe_with(&tables, rules, &pos, material)
    })?
}

fn probe_with(
    tables: &Tablebases,
    rules: TbRules,
    pos: &Position,
    material: Material,
) -> PyResult<Option<PyProbe>> {
    // A signature too large to build and without a file is simply not covered.
    if tables.ensure(material, &|_| {}).is_err() {
        return Ok(None);
    }
    let set = tables.snapshot();
    let Some(p) = probe_position(&set, pos) else {
        return Ok(None);
    };
    let moves = with_move_rules!(rules.moves, R => probe_moves::<R>(&set, pos)).unwrap_or_default();
    Ok(Some(PyProbe {
        wdl: p.wdl.name(),
        dtm: signed(p.outcome),
        dtz: p.dtz,
        moves: moves
            .into_iter()
            .map(|v| PyMoveValue {
                mv: PyMove(v.mv),
                wdl: v.wdl.name(),
                dtm: signed(v.outcome),
                dtz: v.dtz,
                capture: v.capture,
            })
            .collect(),
    }))
}
