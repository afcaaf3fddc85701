//! Game records in the format of `jungle match --pgn` (protocol.md, "Game
//! records"), read and written by the core's one reader and one writer, for
//! `jungle.records`.

use jungle_core::game::Rules;
use jungle_core::record::{self, RecordResult};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A game as `jungle.records` receives it: its tags in order, rules, start
/// position, moves, the comment after each move, and result.
type ReadRecord = (
    Vec<(String, String)>,
    String,
    String,
    Vec<String>,
    Vec<Option<String>>,
    String,
);

/// A game as `jungle.records` gives it to be written: tags, moves, comments, result.
type WrittenRecord = (
    Vec<(String, String)>,
    Vec<String>,
    Vec<Option<String>>,
    String,
);

/// The games of a record file's text, each replayed by the rules of its `[Rules]`
/// tag (the default rules without one); a file that is not such a record, or a game
/// with an illegal move, raises `ValueError` naming the line it is on.
#[pyfunction]
pub fn read_records(py: Python<'_>, text: &str) -> PyResult<Vec<ReadRecord>> {
    let games = py
        .detach(|| record::read_records(text, Rules::default()))
        .map_err(PyValueError::new_err)?;
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        record::replay(&g).map_err(|e| PyValueError::new_err(format!("line {}: {e}", g.line)))?;
        let result = g.result.unwrap_or_default().as_str().to_string();
        out.push((
            g.tags,
            g.rules.to_string(),
            g.start.to_fen(),
            g.moves,
            g.comments,
            result,
        ));
    }
    Ok(out)
}

/// The text of these games, written as `jungle match` writes its records.
#[pyfunction]
pub fn write_records(games: Vec<WrittenRecord>) -> PyResult<String> {
    let mut out = Vec::new();
    for (tags, moves, comments, result) in games {
        let result = RecordResult::parse(&result).ok_or_else(|| {
            PyValueError::new_err(format!(
                "result must be 1-0, 0-1, 1/2-1/2 or *, not '{}'",
                jungle_core::text::quote(&result)
            ))
        })?;
        record::write_tagged_game(&mut out, &tags, &moves, &comments, result)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    String::from_utf8(out).map_err(|e| PyValueError::new_err(e.to_string()))
}
