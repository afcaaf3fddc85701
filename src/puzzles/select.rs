//! The shipped set chosen from candidate puzzles: each position once, none from the
//! test books, every puzzle with a rare theme, and the rest spread evenly over the
//! ratings.

use crate::puzzle::{Puzzle, Theme};
use crate::rng::Rng;
use std::collections::{BTreeMap, HashSet};

/// A theme held by at most this share of the candidates is rare: all its puzzles are
/// taken first (`jungle puzzles select`'s default).
pub const RARE_SHARE: f64 = 0.05;
/// Width of the rating buckets the rest is spread over.
pub const BUCKET: u32 = 100;

/// The key that makes two puzzles the same: the position the solver starts from.
fn start_key(p: &Puzzle) -> u64 {
    p.game().map_or(p.start.key(), |g| g.position().key())
}

/// Chooses `count` puzzles (all when there are fewer) from `candidates`, by `seed`;
/// a theme of at most `rare_share` of them is rare. Sorted by id.
pub fn select(
    candidates: Vec<Puzzle>,
    count: usize,
    seed: u64,
    rare_share: f64,
    excluded: &HashSet<u64>,
) -> Vec<Puzzle> {
    let mut seen = HashSet::new();
    let mut ids = HashSet::new();
    let pool: Vec<Puzzle> = candidates
        .into_iter()
        .filter(|p| !super::in_test_books(p, excluded))
        .filter(|p| seen.insert(start_key(p)) && ids.insert(p.id.clone()))
        .collect();
    let mut chosen: Vec<Puzzle> = if pool.len() <= count {
        pool
    } else {
        choose(pool, count, seed, rare_share)
    };
    chosen.sort_by(|a, b| a.id.cmp(&b.id));
    chosen
}

fn choose(pool: Vec<Puzzle>, count: usize, seed: u64, rare_share: f64) -> Vec<Puzzle> {
    let rare: Vec<Theme> = Theme::ALL
        .into_iter()
        .filter(|&t| {
            let n = pool.iter().filter(|p| p.has(t)).count();
            n > 0 && (n as f64) <= rare_share * pool.len() as f64
        })
        .collect();
    let (mut chosen, rest): (Vec<Puzzle>, Vec<Puzzle>) = pool
        .into_iter()
        .partition(|p| p.themes.iter().any(|t| rare.contains(t)));
    chosen.truncate(count);
    // The rest by rating bucket, each bucket in a random order, taken in turns.
    let mut buckets: BTreeMap<u32, Vec<(u64, Puzzle)>> = BTreeMap::new();
    for p in rest {
        let order = Rng::new(seed ^ start_key(&p)).next_u64();
        buckets
            .entry(p.rating / BUCKET)
            .or_default()
            .push((order, p));
    }
    for b in buckets.values_mut() {
        b.sort_by_key(|(order, _)| std::cmp::Reverse(*order));
    }
    while chosen.len() < count && buckets.values().any(|b| !b.is_empty()) {
        for b in buckets.values_mut() {
            if chosen.len() >= count {
                break;
            }
            if let Some((_, p)) = b.pop() {
                chosen.push(p);
            }
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(id: &str, fen_rat: &str, rating: u32, themes: &str) -> Puzzle {
        Puzzle::parse(&format!(
            "{id};7/7/3L3/7/7/7/7/7/{fen_rat} r 0 1;-;d7d8 a1a2 d8d9;jungle;win;{themes};{rating}"
        ))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
    }

    #[test]
    fn the_set_takes_rare_themes_spreads_ratings_and_drops_repeats() {
        let mut candidates = Vec::new();
        let rats = ["r6", "r5R", "r4R1", "r3R2", "r1R4", "rR5"];
        for (i, rat) in rats.iter().enumerate() {
            // Ratings 800, 800, 800, 800, 1500 and one rare theme at 2000.
            let (rating, themes) = match i {
                4 => (1500, "den"),
                5 => (2000, "den,jump"),
                _ => (800, "den"),
            };
            candidates.push(puzzle(&format!("p{i}"), rat, rating, themes));
        }
        // The same position again under another id.
        candidates.push(puzzle("again", "r6", 900, "den"));
        let chosen = select(candidates.clone(), 3, 1, 0.2, &HashSet::new());
        let ids: Vec<&str> = chosen.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(chosen.len(), 3);
        assert!(ids.contains(&"p5"), "the rare theme first: {ids:?}");
        assert!(ids.contains(&"p4"), "the other rating bucket: {ids:?}");
        let all = select(candidates, 100, 1, 0.2, &HashSet::new());
        assert_eq!(all.len(), 6, "the repeated position once");
        assert!(all.windows(2).all(|w| w[0].id < w[1].id));
    }
}
