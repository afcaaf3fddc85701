//! `jungle puzzles ratings`: the ratings `jungle serve` has learnt from people's
//! attempts (docs/puzzles.md, "Ratings from people") written back into a puzzle file of
//! the shipped format. The format carries one whole rating a puzzle; the RD, the
//! volatility and the count of rated attempts go in a comment line above each puzzle
//! whose rating was learnt (`# learnt ID: …`), which reading ignores.

use crate::puzzle::Puzzle;
use jungle_online::store::PuzzleRatingRow as Learnt;
use std::collections::HashMap;

/// The header line that says where the ratings came from (replaced when the file is
/// written back again).
pub const HEADER: &str = "# Ratings learnt from people";
/// The start of each learnt puzzle's comment line, before its id.
pub const NOTE: &str = "# learnt ";

/// The puzzle file `text` with the learnt ratings of the puzzles that have at least
/// `min_attempts` rated attempts (their lines' ratings replaced, a note above each;
/// every other line as it was, a previous write-back's notes of the puzzles rated
/// again dropped), and how many puzzles took a learnt rating. A line that is not a
/// puzzle is an error naming it.
pub fn write_back(
    text: &str,
    learnt: &HashMap<String, Learnt>,
    min_attempts: i64,
) -> Result<(Vec<String>, usize), String> {
    let chosen = |id: &str| learnt.get(id).filter(|l| l.attempts >= min_attempts);
    let mut out = Vec::new();
    let mut changed = 0;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with(HEADER) {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix(NOTE) {
            let id = rest.split(':').next().unwrap_or_default();
            if chosen(id).is_some() {
                continue;
            }
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            out.push(line.to_string());
            continue;
        }
        let mut puzzle = Puzzle::parse(trimmed).map_err(|e| format!("line {}: {e}", n + 1))?;
        if let Some(l) = chosen(&puzzle.id) {
            puzzle.rating = jungle_online::puzzles::whole_rating(l.rating.rating);
            out.push(note(&puzzle.id, l));
            out.push(puzzle.to_string());
            changed += 1;
        } else {
            out.push(line.to_string());
        }
    }
    // The header goes after the file's leading comments.
    let at = out
        .iter()
        .position(|l| !l.trim().starts_with('#'))
        .unwrap_or(out.len());
    out.insert(
        at,
        format!(
            "{HEADER}: {changed} puzzles with at least {min_attempts} rated attempts (jungle puzzles ratings)"
        ),
    );
    Ok((out, changed))
}

/// A learnt puzzle's note: `# learnt ID: rating R, RD D, volatility V, N rated attempts`.
fn note(id: &str, l: &Learnt) -> String {
    format!(
        "{NOTE}{id}: rating {:.1}, RD {:.1}, volatility {:.5}, {} rated attempts",
        l.rating.rating, l.rating.rd, l.rating.vol, l.attempts
    )
}
