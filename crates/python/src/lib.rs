//! The extension module `jungle._jungle` of the Python package `jungle`: the
//! project's Rust core (rules, engine, tablebases) bound to Python with PyO3. Every
//! rule is the core's; this crate only translates between Python and the core.
//!
//! - `args`: arguments read with errors a Python user reads.
//! - `board`: `Board`, `Move`, `Piece`, `Outcome`.
//! - `rules`: the rule set from Python's keyword arguments.
//! - `encoding`: the action encoding and the observation tensor of the learning
//!   environments.
//! - `vector`: `VectorEnv`, N games stepped in Rust per call.
//! - `info`: `Score`, `InfoLine` and the reader of `info` lines.
//! - `engine`: `Engine`, the search in process.
//! - `tablebase`: `probe`.
//! - `wait`: long calls that Ctrl-C stops.
//! - `pictures`: the page's drawings of the animals, for `jungle.pictures`.
//! - `records`: game records read and written, for `jungle.records`.

mod args;
mod board;
mod encoding;
mod engine;
mod info;
mod pictures;
mod records;
mod rules;
mod tablebase;
mod vector;
mod wait;

use jungle_core::board::START_FEN;
use jungle_core::search::strength::{ELO_MAX, ELO_MIN, LEVELS};
use jungle_core::tools::bench::{positions_with, DEFAULT_DEPTH};
use pyo3::prelude::*;

/// The position strings the native `jungle bench` searches (default rules).
#[pyfunction]
fn bench_positions() -> Vec<String> {
    positions_with(Default::default())
        .iter()
        .map(|p| p.to_fen())
        .collect()
}

/// The names of the squares by number: `a1, b1, …, g9`.
fn square_names() -> Vec<String> {
    jungle_core::board::Square::all()
        .map(|s| s.to_string())
        .collect()
}

#[pymodule]
fn _jungle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_class::<board::PyMove>()?;
    m.add_class::<board::PyPiece>()?;
    m.add_class::<board::PyOutcome>()?;
    m.add_class::<info::PyScore>()?;
    m.add_class::<info::PyInfoLine>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyPlayResult>()?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_class::<tablebase::PyProbe>()?;
    m.add_class::<tablebase::PyMoveValue>()?;
    m.add_function(wrap_pyfunction!(info::parse_info, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::probe, m)?)?;
    m.add_function(wrap_pyfunction!(bench_positions, m)?)?;
    m.add_function(wrap_pyfunction!(pictures::animal_symbols, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(records::write_records, m)?)?;
    m.add_function(wrap_pyfunction!(engine::go_line, m)?)?;
    m.add_function(wrap_pyfunction!(engine::position_line, m)?)?;
    m.add_function(wrap_pyfunction!(engine::setoption_line, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("STARTING_FEN", START_FEN)?;
    m.add("SQUARE_NAMES", square_names())?;
    m.add("NUM_ACTIONS", encoding::NUM_ACTIONS)?;
    m.add("OBSERVATION_SHAPE", (encoding::PLANES, 9, 7))?;
    m.add("ELO_MIN", ELO_MIN)?;
    m.add("ELO_MAX", ELO_MAX)?;
    m.add(
        "LEVELS",
        LEVELS
            .iter()
            .map(|l| (l.elo, l.depth, l.temperature))
            .collect::<Vec<_>>(),
    )?;
    m.add("BENCH_DEPTH", DEFAULT_DEPTH)?;
    Ok(())
}
