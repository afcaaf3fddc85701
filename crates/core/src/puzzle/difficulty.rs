//! A puzzle's difficulty: how strong the engine's strength levels must be to solve it
//! (protocol.md, "Puzzles", has the definition).
//!
//! Each row of `LEVELS` plays a move as the weakened search does: a search to the
//! row's depth with its number of lines, within `PLAY_NODES` nodes (the budget the rows
//! were measured at), then the softmax choice at the row's temperature. Its
//! probability of playing a right move at each solver move is computed exactly from
//! the search's lines (one thread, a fresh hash table, no endgame tables: the tables
//! would play every endgame perfectly). The weakest row is the beginner
//! (`search/beginner.rs`), which does not search: its chance is the share of
//! `BEGINNER_SAMPLES` seeds with which it chooses a right move. Between two rows, `UCI_Elo` plays the
//! stronger row's move with a probability proportional to the distance, so the
//! probability of a right move is linear in the Elo between rows, and the puzzle is
//! solved with the product over its solver moves. The puzzle's Elo is the lowest
//! `UCI_Elo` that solves it at least half the time; below the weakest row and above
//! full strength it is extended by `BELOW` and `ABOVE`. The rating maps that Elo
//! linearly onto `RATING_SPAN`.

use super::verify::{accepted, last_lines};
use crate::board::Move;
use crate::game::Game;
use crate::rng::Rng;
use crate::search::beginner::{Beginner, Profile};
use crate::search::strength::{choice_weights, Strength, ELO_MAX, ELO_MIN, LEVELS};
use crate::search::{Engine, Limits, SearchInfo};
use crate::with_move_rules;

/// Nodes of a move at full strength: the budget the strength rows were measured at.
pub const PLAY_NODES: u64 = 200_000;
/// The seeds over which the beginner row's chance of a right move is counted.
pub const BEGINNER_SAMPLES: u64 = 256;
/// How far below the weakest row a puzzle it solves for certain lies.
pub const BELOW: f64 = 200.0;
/// Where a puzzle that full strength does not solve lies, above full strength.
pub const ABOVE: f64 = 100.0;
/// The ratings the Elo range `[ELO_MIN − BELOW, ELO_MAX + ABOVE]` maps onto.
pub const RATING_SPAN: (f64, f64) = (600.0, 2600.0);

/// For each row of `LEVELS`, the probability of playing a right move at one solver
/// move.
pub type RowChances = [f64; LEVELS.len()];

/// A puzzle's difficulty.
#[derive(Clone, Debug, PartialEq)]
pub struct Difficulty {
    /// The chances of each row at each solver move.
    pub steps: Vec<RowChances>,
    /// The lowest `UCI_Elo` that solves the puzzle at least half the time (extended
    /// beyond the scale by `BELOW` and `ABOVE`).
    pub elo: f64,
    pub rating: u32,
}

/// Rates the line `line` (solver, reply, …, solver) played from `game`. `engine` is
/// used with one thread and without tables; its options are restored after.
pub fn rate(engine: &mut Engine, game: &Game, line: &[Move]) -> Difficulty {
    let mut g = game.clone();
    let mut steps = Vec::new();
    for pair in line.chunks(2) {
        let right = accepted(&g, pair[0]);
        steps.push(row_chances(engine, &g, &right));
        for &m in pair {
            if g.play(m).is_err() {
                break;
            }
        }
    }
    let elo = puzzle_elo(&steps);
    Difficulty {
        steps,
        elo,
        rating: rating_of_elo(elo),
    }
}

/// The chances of every row of playing one of the moves `right` in `game`.
pub fn row_chances(engine: &mut Engine, game: &Game, right: &[Move]) -> RowChances {
    let saved_options = engine.options;
    let saved_tables = engine.tablebases.take();
    engine.options.threads = 1;
    engine.options.report = true;
    engine.options.limit_elo = None;
    engine.options.skill_level = 20;
    let mut searched: Vec<((i32, usize), Vec<SearchInfo>)> = Vec::new();
    let mut chances = [0.0; LEVELS.len()];
    for (row, level) in LEVELS.iter().enumerate() {
        if let Some(profile) = level.beginner {
            chances[row] = beginner_chance(game, profile, right);
            continue;
        }
        let strength = Strength::at_elo(level.elo, 0);
        let key = (level.depth, strength.multipv(1));
        if !searched.iter().any(|(k, _)| *k == key) {
            engine.clear();
            engine.options.multipv = key.1;
            let limits = Limits {
                depth: (level.depth > 0).then_some(level.depth),
                nodes: Some(PLAY_NODES),
                ..Limits::default()
            };
            searched.push((key, last_lines(engine, game, &limits)));
        }
        let lines = searched
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, l)| l.as_slice())
            .unwrap_or_default();
        chances[row] = chance_of(lines, level.temperature, right);
    }
    engine.options = saved_options;
    engine.tablebases = saved_tables;
    chances
}

/// The share of `BEGINNER_SAMPLES` seeds with which the beginner of `profile` plays
/// one of `right` in `game` (choosing among the legal moves, as in play; the seeds
/// are mixed as `Strength::pick` mixes its own).
fn beginner_chance(game: &Game, profile: Profile, right: &[Move]) -> f64 {
    let moves: Vec<Move> = game.legal_moves().iter().copied().collect();
    if moves.is_empty() {
        return 0.0;
    }
    let pos = game.position();
    let hits = (0..BEGINNER_SAMPLES)
        .filter(|&s| {
            let seed = Rng::new(s ^ 0xBE61).next_u64();
            let beginner = Beginner { profile, seed };
            let i = with_move_rules!(game.rules().moves, R => beginner.choose::<R>(pos, &moves));
            right.contains(&moves[i])
        })
        .count();
    hits as f64 / BEGINNER_SAMPLES as f64
}

/// The probability that the softmax choice at `temperature` among `lines` (best
/// first) plays one of `right` (at temperature 0: the best line).
fn chance_of(lines: &[SearchInfo], temperature: i32, right: &[Move]) -> f64 {
    let is_right = |l: &SearchInfo| l.pv.first().is_some_and(|m| right.contains(m));
    if temperature <= 0 {
        return if lines.first().is_some_and(is_right) {
            1.0
        } else {
            0.0
        };
    }
    let scores: Vec<i32> = lines.iter().map(|l| l.score.to_internal()).collect();
    let weights = choice_weights(temperature, &scores);
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    lines
        .iter()
        .zip(&weights)
        .filter(|(l, _)| is_right(l))
        .map(|(_, w)| w)
        .sum::<f64>()
        / total
}

/// The chance of a right move at `elo` on the `UCI_Elo` scale (clamped to it).
pub fn chance_at(chances: &RowChances, elo: f64) -> f64 {
    let elo = elo.clamp(f64::from(ELO_MIN), f64::from(ELO_MAX));
    let upper = LEVELS
        .iter()
        .position(|l| f64::from(l.elo) >= elo)
        .unwrap_or(LEVELS.len() - 1);
    if upper == 0 || f64::from(LEVELS[upper].elo) == elo {
        return chances[upper];
    }
    let (lo, hi) = (
        f64::from(LEVELS[upper - 1].elo),
        f64::from(LEVELS[upper].elo),
    );
    let q = (elo - lo) / (hi - lo);
    q * chances[upper] + (1.0 - q) * chances[upper - 1]
}

/// The chance of solving the whole puzzle at `elo`.
pub fn solve_chance(steps: &[RowChances], elo: f64) -> f64 {
    steps.iter().map(|c| chance_at(c, elo)).product()
}

/// The lowest Elo that solves the puzzle at least half the time, in steps of 1 Elo;
/// below the scale `ELO_MIN − BELOW·(2p − 1)` for a chance `p` ≥ ½ at the weakest
/// row, above it `ELO_MAX + ABOVE`.
pub fn puzzle_elo(steps: &[RowChances]) -> f64 {
    let at_min = solve_chance(steps, f64::from(ELO_MIN));
    if at_min >= 0.5 {
        return f64::from(ELO_MIN) - BELOW * (2.0 * at_min - 1.0);
    }
    (ELO_MIN..=ELO_MAX)
        .map(f64::from)
        .find(|&e| solve_chance(steps, e) >= 0.5)
        .unwrap_or(f64::from(ELO_MAX) + ABOVE)
}

/// The puzzle rating of an Elo: `[ELO_MIN − BELOW, ELO_MAX + ABOVE]` mapped linearly
/// onto `RATING_SPAN`.
pub fn rating_of_elo(elo: f64) -> u32 {
    let lo = f64::from(ELO_MIN) - BELOW;
    let hi = f64::from(ELO_MAX) + ABOVE;
    let (r0, r1) = RATING_SPAN;
    let r = r0 + (elo - lo) / (hi - lo) * (r1 - r0);
    r.round().clamp(r0, r1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(p: f64) -> RowChances {
        [p; LEVELS.len()]
    }

    #[test]
    fn the_elo_scale_maps_onto_the_rating_span() {
        let lo = f64::from(ELO_MIN) - BELOW;
        let hi = f64::from(ELO_MAX) + ABOVE;
        assert_eq!(rating_of_elo(lo), 600);
        assert_eq!(rating_of_elo(hi), 2600);
        assert_eq!(rating_of_elo((lo + hi) / 2.0), 1600);
        assert_eq!(rating_of_elo(0.0), 600);
    }

    #[test]
    fn a_sure_puzzle_is_below_the_scale_and_an_unsolved_one_above() {
        assert_eq!(puzzle_elo(&[flat(1.0)]), f64::from(ELO_MIN) - BELOW);
        assert_eq!(puzzle_elo(&[flat(0.5)]), f64::from(ELO_MIN));
        assert_eq!(puzzle_elo(&[flat(0.0)]), f64::from(ELO_MAX) + ABOVE);
    }

    /// The beginner row does not search: it always enters the den, and misses a quiet
    /// move that only a search finds most of the time.
    #[test]
    fn the_beginner_row_is_counted_over_its_seeds() {
        let profile = LEVELS[0].beginner.expect("the weakest row is the beginner");
        // Red's rat at d8 next to Blue's den (d9): entering is the one right move.
        let den = Game::new(
            crate::board::Position::from_fen("7/3R3/7/7/7/7/7/3l3/7 r 0 1").expect("fen"),
        );
        let entry: Vec<Move> = den
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| den.position().is_den_entry(m))
            .collect();
        assert_eq!(entry.len(), 1);
        assert_eq!(beginner_chance(&den, profile, &entry), 1.0);
        // From the start, any one quiet move is played with some seeds but not all.
        let start = Game::startpos();
        let moves: Vec<Move> = start.legal_moves().iter().copied().collect();
        let shares: Vec<f64> = moves
            .iter()
            .map(|&m| beginner_chance(&start, profile, &[m]))
            .collect();
        assert!(
            (shares.iter().sum::<f64>() - 1.0).abs() < 1e-9,
            "{shares:?}"
        );
        assert!(shares.iter().all(|&c| c < 1.0), "{shares:?}");
        // And the rating uses it for the weakest row.
        let mut engine = Engine::new(16).expect("a 16 MB table");
        let rows = row_chances(&mut engine, &start, &moves[..1]);
        assert_eq!(rows[0], shares[0]);
    }

    #[test]
    fn the_chance_is_linear_between_rows_and_multiplies_over_moves() {
        // Only the top two rows find the move: halfway between them the chance is ½.
        let mut c = flat(0.0);
        let n = LEVELS.len();
        c[n - 1] = 1.0;
        c[n - 2] = 0.0;
        let mid = f64::from(LEVELS[n - 2].elo + LEVELS[n - 1].elo) / 2.0;
        assert!((chance_at(&c, mid) - 0.5).abs() < 1e-9);
        assert!((puzzle_elo(&[c]) - mid.ceil()).abs() <= 1.0);
        // Two moves each found with 0.6 at the weakest row: 0.36 < ½, so above it.
        let mut easy = flat(1.0);
        easy[0] = 0.6;
        assert!(puzzle_elo(&[easy]) < f64::from(ELO_MIN));
        assert!(puzzle_elo(&[easy, easy]) > f64::from(ELO_MIN));
    }
}
