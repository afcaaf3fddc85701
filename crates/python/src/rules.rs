//! The rule set of a board from Python's keyword arguments: a named rule set
//! (`jungle`, `jungle-cn`) and the settings that change it.

use crate::args::{flag_opt, text_opt, whole};
use jungle_core::board::Position;
use jungle_core::game::{Rules, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The settings a `Board`, an environment or a search can be given.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuleArgs<'a, 'py> {
    pub rules: Option<&'a Bound<'py, PyAny>>,
    pub dog_swims: Option<&'a Bound<'py, PyAny>>,
    pub trapped_lose_attack: Option<&'a Bound<'py, PyAny>>,
    pub no_capture_plies: Option<&'a Bound<'py, PyAny>>,
    pub repetitions: Option<&'a Bound<'py, PyAny>>,
    pub anti_chase: Option<&'a Bound<'py, PyAny>>,
}

impl RuleArgs<'_, '_> {
    /// The rule set: the named one, with each setting given replacing its value.
    pub fn resolve(&self) -> PyResult<Rules> {
        let name = text_opt(self.rules, "rules")?;
        let name = name.as_deref().unwrap_or("jungle");
        let variant = Variant::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown rule set '{}' (jungle or jungle-cn)",
                jungle_core::text::quote(name)
            ))
        })?;
        let mut rules = variant.rules();
        if let Some(on) = flag_opt(self.dog_swims, "dog_swims")? {
            rules.moves.dog_swims = on;
        }
        if let Some(on) = flag_opt(self.trapped_lose_attack, "trapped_lose_attack")? {
            rules.moves.trapped_lose_attack = on;
        }
        // 0 turns each draw rule off.
        if let Some(plies) = self.no_capture_plies {
            rules.draw.no_capture_plies =
                whole(plies, "no_capture_plies", 0, u16::MAX.into())? as u16;
        }
        if let Some(count) = self.repetitions {
            rules.draw.repetitions = whole(count, "repetitions", 0, u8::MAX.into())? as u8;
        }
        if let Some(on) = flag_opt(self.anti_chase, "anti_chase")? {
            rules.anti_chase = on;
        }
        Ok(rules)
    }
}

/// The start position of a `fen` argument (`None`: the start of the game) under
/// `rules`: `TypeError` for what is not text, `ValueError` for a bad position string.
pub fn start_position(fen: Option<&Bound<'_, PyAny>>, rules: &Rules) -> PyResult<Position> {
    match text_opt(fen, "fen")? {
        None => Ok(Position::startpos()),
        Some(text) => Position::from_fen_with(&text, rules.moves)
            .map_err(|e| PyValueError::new_err(e.to_string())),
    }
}

/// Reads rules as `str(board.rules)` writes them (a record's `[Rules]` tag).
pub fn parse_rules(text: &str) -> PyResult<Rules> {
    text.parse::<Rules>().map_err(PyValueError::new_err)
}
