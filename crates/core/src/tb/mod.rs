//! Endgame tablebases: the exact value of every position with few animals.
//!
//! - `material`: signatures (`ELvR`) and the rules a table holds for.
//! - `index`: the perfect numbering of a signature's positions, with the mirror and
//!   colour symmetries.
//! - `build`: parallel retrograde analysis (DTM, and DTZ for the no-capture rule).
//! - `table`: a table in memory, its values and statistics.
//! - `file`: the file format (versioned header, compressed blocks, checksum).
//! - `store`: the set of tables an engine or a command uses, built or loaded on demand.
//! - `probe`: what a position is worth, with every move's value, under the rules in
//!   force and the game's no-capture count.
//! - `verify`: a table checked against the rules core, position by position, and on
//!   random positions against a brute-force search (`brute`).

pub mod build;
#[cfg(feature = "files")]
pub mod file;
pub mod index;
pub mod material;
pub mod plan;
pub mod probe;
pub mod store;
pub mod table;
pub mod verify;

mod brute;
#[cfg(test)]
mod tests;

pub use material::{Material, TbRules, MAX_ANIMALS};
pub use probe::{game_move_values, probe_moves, probe_position, MoveValue, Probe};
pub use store::Tablebases;
pub use table::{Entry, Table, TbValue, Wdl};

use std::fmt;

/// Everything that can go wrong with a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TbError {
    /// A signature that cannot be read or is too large.
    BadMaterial(String),
    /// Rules that no table can serve, or a table built for other rules.
    Rules(String),
    /// A table needed first is not available.
    Missing(String),
    /// A file that is not a table, of another version, truncated, or failing its
    /// checksum.
    Corrupt(String),
    /// Reading or writing a file failed.
    Io(String),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::BadMaterial(s) => write!(f, "bad material signature {s}"),
            TbError::Rules(s) => write!(f, "rules: {s}"),
            TbError::Missing(s) => write!(f, "missing table: {s}"),
            TbError::Corrupt(s) => write!(f, "corrupt table file: {s}"),
            TbError::Io(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for TbError {}
