//! `jungle tb reach`: which N-animal signatures games reach, and how often, to build
//! the tables games need first (`jungle tb build --first`).
//!
//! Record files (`[FEN]`, moves) count each signature once per game that passes
//! through it; position files (one position a line, `;` labels: an endgame suite)
//! count each position. Signatures are canonical (a table serves both colours).

use crate::game::{Game, Rules};
use crate::record;
use crate::tb::Material;
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

/// Counts per signature: games that reach it, suite positions that have it.
pub fn count(animals: usize, files: &[PathBuf]) -> Result<Vec<(Material, u64, u64)>, String> {
    let mut counts: HashMap<Material, (u64, u64)> = HashMap::new();
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let is_record = text.lines().any(|l| l.trim_start().starts_with('['));
        if is_record {
            let games = record::read_records(&text, Rules::default())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            for g in &games {
                let mut game = Game::with_rules(g.start, g.rules);
                let mut seen = BTreeSet::new();
                seen.insert(Material::of(game.position()).canonical());
                for m in &g.moves {
                    if game.play_text(m).is_err() {
                        break;
                    }
                    seen.insert(Material::of(game.position()).canonical());
                }
                for m in seen
                    .into_iter()
                    .filter(|m| m.count() == animals && m.is_playable())
                {
                    counts.entry(m).or_default().0 += 1;
                }
            }
        } else {
            let positions = record::read_openings(&text, Rules::default())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            for p in &positions {
                let m = Material::of(p).canonical();
                if m.count() == animals && m.is_playable() {
                    counts.entry(m).or_default().1 += 1;
                }
            }
        }
    }
    let mut out: Vec<(Material, u64, u64)> =
        counts.into_iter().map(|(m, (g, p))| (m, g, p)).collect();
    out.sort_by_key(|&(m, g, p)| (std::cmp::Reverse(g + p), m));
    Ok(out)
}

/// Prints the counts, most reached first, in the form `--first` reads.
pub fn print(animals: usize, files: &[PathBuf]) -> Result<(), String> {
    let counts = count(animals, files)?;
    println!(
        "# {} of the {animals}-animal signatures reached in {} file(s), most first: signature, games, suite positions",
        counts.len(),
        files.len()
    );
    for (m, g, p) in counts {
        println!("{m}\t{g}\t{p}");
    }
    Ok(())
}
