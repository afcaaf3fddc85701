//! A puzzle file checked: every line replayed (the reader does it), draw puzzles'
//! last positions looked up in the tables, and with a budget every solver move
//! verified again; and what the set holds (goals, themes, ratings).

use super::{in_parallel, Worker};
use crate::puzzle::{Goal, Puzzle, Theme};
use std::collections::BTreeMap;

/// The set's figures, as lines of text.
pub fn summary(puzzles: &[Puzzle]) -> Vec<String> {
    let mut lines = Vec::new();
    let count = |f: &dyn Fn(&Puzzle) -> bool| puzzles.iter().filter(|p| f(p)).count();
    lines.push(format!(
        "{} puzzles: {} win, {} draw, {} hold; {} jungle, {} jungle-cn; {} from the tables",
        puzzles.len(),
        count(&|p| p.goal == Goal::Win),
        count(&|p| p.goal == Goal::Draw),
        count(&|p| p.goal == Goal::Hold),
        count(&|p| !p.rules.anti_chase),
        count(&|p| p.rules.anti_chase),
        count(&|p| !super::select::from_games(p)),
    ));
    // How many puzzles have each value of `key`, as "k: n, …".
    let tally = |key: &dyn Fn(&Puzzle) -> usize| {
        let mut by: BTreeMap<usize, usize> = BTreeMap::new();
        for p in puzzles {
            *by.entry(key(p)).or_default() += 1;
        }
        by.iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    lines.push(format!(
        "solver moves: {}",
        tally(&|p| p.solution.len().div_ceil(2))
    ));
    lines.push(format!(
        "animals: {}",
        tally(&|p| p
            .game()
            .map_or(p.start, |g| *g.position())
            .all_occupied()
            .count() as usize)
    ));
    lines.push(format!(
        "first move: {} trivial (a den entry in one move or a capture that cannot be \
         retaken); {} from games",
        count(&super::select::trivial),
        count(&super::select::from_games),
    ));
    lines.push(format!(
        "themes: {}",
        Theme::ALL
            .iter()
            .map(|&t| format!("{} {}", t.name(), count(&|p| p.has(t))))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut buckets: BTreeMap<u32, usize> = BTreeMap::new();
    for p in puzzles {
        *buckets.entry(p.rating / 200 * 200).or_default() += 1;
    }
    lines.push(format!(
        "ratings: {}",
        buckets
            .iter()
            .map(|(b, n)| format!("{b}-{}: {n}", b + 199))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let games: Vec<&Puzzle> = puzzles
        .iter()
        .filter(|p| super::select::from_games(p))
        .collect();
    if !games.is_empty() {
        let mut animals: Vec<u32> = games
            .iter()
            .map(|p| {
                p.game()
                    .map_or(p.start, |g| *g.position())
                    .all_occupied()
                    .count()
            })
            .collect();
        animals.sort_unstable();
        lines.push(format!(
            "from games: {} ({:.0}%), {} jungle, {} jungle-cn; animals {} to {} (median {})",
            games.len(),
            100.0 * games.len() as f64 / puzzles.len() as f64,
            games.iter().filter(|p| !p.rules.anti_chase).count(),
            games.iter().filter(|p| p.rules.anti_chase).count(),
            animals[0],
            animals[animals.len() - 1],
            animals[animals.len() / 2]
        ));
    }
    if !puzzles.is_empty() {
        let mut r: Vec<u32> = puzzles.iter().map(|p| p.rating).collect();
        r.sort_unstable();
        let distinct = r.windows(2).filter(|w| w[0] != w[1]).count() + 1;
        lines.push(format!(
            "rating: min {}, quartiles {} {} {}, max {}; {distinct} distinct",
            r[0],
            r[r.len() / 4],
            r[r.len() / 2],
            r[3 * r.len() / 4],
            r[r.len() - 1]
        ));
    }
    lines
}

/// How much of every puzzle `check` verifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// The line replayed, draw puzzles' last positions looked up in the tables.
    Replay,
    /// Everything (`Verifier::verify`) for one puzzle in `every` (by its id) and every
    /// puzzle of up to `tables` animals the tables cover; the cheap exact part
    /// (`Verifier::verify_line`, the tables up to `tables` animals) for the rest.
    /// `every` 1 verifies every puzzle in full.
    Sample { every: u64, tables: usize },
}

/// Whether `p` is one of the one in `n` verified in full: by its id, so that the
/// sample is the same on every run.
pub fn sampled(p: &Puzzle, n: u64) -> bool {
    let h = p.id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    n <= 1 || h % n == 0
}

/// Checks every puzzle with the workers' verifiers to `depth`. Returns the failures
/// as `id: reason`.
pub fn check(workers: &mut [Worker], puzzles: &[Puzzle], depth: Depth) -> Vec<String> {
    let mut failures = Vec::new();
    let job = |w: &mut Worker, p: &Puzzle| -> Result<(), String> {
        if let Depth::Sample { every, tables } = depth {
            let covered = p.game().is_ok_and(|g| {
                g.position().all_occupied().count() as usize <= tables
                    && w.verifier.table_values(&g).is_some()
            });
            return if covered || sampled(p, every) {
                w.verifier.verify(p)
            } else {
                w.verifier.verify_line(p, tables)
            }
            .map_err(|e| e.to_string());
        }
        if p.goal == Goal::Draw {
            let end = p.replay()?;
            if !w.verifier.is_table_draw(&end) {
                return Err("the line does not end in a drawn position of the tables".into());
            }
        }
        Ok(())
    };
    in_parallel(workers, puzzles, &job, &mut |i, r| {
        if let Err(e) = r {
            failures.push(format!("{}: {e}", puzzles[i].id));
        }
    });
    failures
}
