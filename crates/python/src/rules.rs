//! The rule set of a board from Python's keyword arguments: a named rule set
//! (`jungle`, `jungle-cn`) and the settings that change it.

use jungle_core::game::{Rules, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The settings a `Board`, an environment or a search can be given.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuleArgs<'a> {
    pub rules: Option<&'a str>,
    pub dog_swims: Option<bool>,
    pub trapped_lose_attack: Option<bool>,
    pub no_capture_plies: Option<i64>,
    pub repetitions: Option<i64>,
    pub anti_chase: Option<bool>,
}

impl RuleArgs<'_> {
    /// The rule set: the named one, with each setting given replacing its value.
    pub fn resolve(&self) -> PyResult<Rules> {
        let name = self.rules.unwrap_or("jungle");
        let variant = Variant::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown rule set '{}' (jungle or jungle-cn)",
                jungle_core::text::quote(name)
            ))
        })?;
        let mut rules = variant.rules();
        if let Some(on) = self.dog_swims {
            rules.moves.dog_swims = on;
        }
        if let Some(on) = self.trapped_lose_attack {
            rules.moves.trapped_lose_attack = on;
        }
        if let Some(plies) = self.no_capture_plies {
            rules.draw.no_capture_plies = u16::try_from(plies).map_err(|_| {
                PyValueError::new_err(format!(
                    "no_capture_plies must be a whole number from 0 (off) to 65535, not {plies}"
                ))
            })?;
        }
        if let Some(count) = self.repetitions {
            rules.draw.repetitions = u8::try_from(count).map_err(|_| {
                PyValueError::new_err(format!(
                    "repetitions must be a whole number from 0 (off) to 255, not {count}"
                ))
            })?;
        }
        if let Some(on) = self.anti_chase {
            rules.anti_chase = on;
        }
        Ok(rules)
    }
}

/// Reads rules as `str(board.rules)` writes them (a record's `[Rules]` tag).
pub fn parse_rules(text: &str) -> PyResult<Rules> {
    text.parse::<Rules>().map_err(PyValueError::new_err)
}
