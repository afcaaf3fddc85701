//! The endgame tables a command decides positions with (`--tb-dir`, `--tb-animals`):
//! files read from a directory, the small signatures built in memory when missing.

use crate::game::Rules;
use crate::tb::store::Event;
use crate::tb::{Tablebases, TbRules};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Signatures of up to this many animals may be built in memory; five-animal tables
/// take minutes and gigabytes to build, so they are only read from files.
pub const BUILD_UP_TO: usize = 4;

/// The tables for `rules` (`None` when no table serves them): files from `dir` when
/// given, signatures of up to `build` animals built in memory when missing. A file
/// that cannot be used is said on stderr (and its table built instead when small).
pub fn tables_for(rules: &Rules, dir: Option<&Path>, build: usize) -> Option<Arc<Tablebases>> {
    let rules = TbRules::for_rules(rules).ok()?;
    Some(Arc::new(
        Tablebases::new(rules, dir.map(Path::to_path_buf))
            .building(build, false)
            .reporting(|e| {
                if let Event::Refused(material, why) = e {
                    eprintln!("warning: table {material} ignored: {why}");
                }
            }),
    ))
}

/// A `--tb-dir` argument checked: a directory that can be read.
pub fn table_dir(dir: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(dir);
    std::fs::read_dir(&path).map(|_| path).map_err(|e| {
        format!(
            "--tb-dir {}: cannot read the directory: {e}",
            crate::text::quote(dir)
        )
    })
}

/// Drops the tables of `animals` animals or more from memory when more than `keep` of
/// them are loaded (a long run would otherwise hold hundreds of 4-animal tables).
pub fn trim_tables(tables: &Option<Arc<Tablebases>>, animals: usize, keep: usize) {
    let Some(tables) = tables else {
        return;
    };
    let big: Vec<_> = tables
        .snapshot()
        .tables
        .keys()
        .copied()
        .filter(|m| m.count() >= animals)
        .collect();
    if big.len() > keep {
        for m in big {
            tables.forget(m);
        }
    }
}
