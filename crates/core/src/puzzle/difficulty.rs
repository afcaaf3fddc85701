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
//! `BEGINNER_SAMPLES` seeds with which it chooses a right move. A row solves the
//! puzzle with the product of its chances over the solver moves. Between two rows,
//! `UCI_Elo` plays a whole game as the stronger row with a probability proportional
//! to the distance (`search/strength.rs`), so the chance of solving is linear in the
//! Elo between the two rows' chances of solving. The puzzle's Elo is the lowest
//! `UCI_Elo` that solves it at least half the time; below the weakest row and above
//! full strength it is extended by `BELOW` and `ABOVE`.
//!
//! That Elo alone takes few values (a line is found from the depth of the row that
//! first sees it), so the rating adds what else makes a puzzle hard to find: the
//! solution's length (solver moves), its only-move depth, the search depth from
//! which the engine at full strength keeps playing a right move, summed over the
//! solver moves, and the search's effort, the nodes that search spent until then
//! (continuous where the depths are steps: it grows with the choices and the
//! defences to see through). Each part is scaled to 0–1 (`Difficulty::hardness`)
//! and their weighted sum (`WEIGHTS`) maps linearly onto `RATING_SPAN`.

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
/// The ratings the hardness 0–1 maps onto.
pub const RATING_SPAN: (f64, f64) = (600.0, 2600.0);
/// The deepest search looked at for a solver move's only-move depth; a move not
/// found by then counts one more.
pub const DEPTH_CAP: i32 = 12;
/// Solver moves at which the length part is 1.
pub const LONG_LINE: usize = 5;
/// Only-move depths beyond one a solver move, summed over the line, at which the
/// depth part is 1.
pub const DEEP_LINE: i32 = 16;
/// The effort (nodes summed over the solver moves) at which the effort part is 0,
/// and at which it is 1; the part is logarithmic between them.
pub const EFFORT_SPAN: (f64, f64) = (10.0, 1_000_000.0);
/// Weights of the levels' Elo, their failure rate, the length, the only-move depth
/// and the effort in the hardness.
pub const WEIGHTS: [f64; 5] = [0.35, 0.15, 0.15, 0.15, 0.2];

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
    /// Each solver move's only-move depth (1 to `DEPTH_CAP + 1`).
    pub depths: Vec<i32>,
    /// Each solver move's effort: the nodes the search spent until its only-move
    /// depth was complete (twice `PLAY_NODES` when it never keeps a right move).
    pub nodes: Vec<u64>,
    pub rating: u32,
}

impl Difficulty {
    /// The hardness, 0 to 1: the `WEIGHTS` of `parts`.
    pub fn hardness(&self) -> f64 {
        self.parts().iter().zip(WEIGHTS).map(|(x, w)| x * w).sum()
    }

    /// The five parts of the hardness, each 0 to 1: the Elo's place on
    /// `[ELO_MIN − BELOW, ELO_MAX + ABOVE]`, the levels' failure rate (the mean over
    /// the rows of `LEVELS` of the chance of not solving the line), the length (1 to
    /// `LONG_LINE` solver moves), the only-move depths beyond 1 (0 to `DEEP_LINE`)
    /// and the effort (`EFFORT_SPAN`, logarithmic).
    pub fn parts(&self) -> [f64; 5] {
        let lo = f64::from(ELO_MIN) - BELOW;
        let hi = f64::from(ELO_MAX) + ABOVE;
        let levels = (self.elo - lo) / (hi - lo);
        let failure = 1.0
            - (0..LEVELS.len())
                .map(|row| self.steps.iter().map(|c| c[row]).product::<f64>())
                .sum::<f64>()
                / LEVELS.len() as f64;
        let moves = self.depths.len().max(1);
        let length = (moves - 1) as f64 / (LONG_LINE - 1) as f64;
        let beyond: i32 = self.depths.iter().map(|d| d - 1).sum();
        let depth = f64::from(beyond) / f64::from(DEEP_LINE);
        let nodes = self.nodes.iter().sum::<u64>().max(1) as f64;
        let (e0, e1) = EFFORT_SPAN;
        let effort = (nodes.log10() - e0.log10()) / (e1.log10() - e0.log10());
        [levels, failure, length, depth, effort].map(|x| x.clamp(0.0, 1.0))
    }
}

/// Rates the line `line` (solver, reply, …, solver) played from `game`. `engine` is
/// used with one thread and without tables; its options are restored after.
pub fn rate(engine: &mut Engine, game: &Game, line: &[Move]) -> Difficulty {
    let mut g = game.clone();
    let mut steps = Vec::new();
    let mut depths = Vec::new();
    let mut nodes = Vec::new();
    for pair in line.chunks(2) {
        let right = accepted(&g, pair[0]);
        steps.push(row_chances(engine, &g, &right));
        let settled = settling(engine, &g, &right);
        depths.push(settled.depth);
        nodes.push(settled.nodes);
        for &m in pair {
            if g.play(m).is_err() {
                break;
            }
        }
    }
    let elo = puzzle_elo(&steps);
    let mut difficulty = Difficulty {
        steps,
        elo,
        depths,
        nodes,
        rating: 0,
    };
    difficulty.rating = rating_of_hardness(difficulty.hardness());
    difficulty
}

/// Where a search at full strength settles on a right move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settled {
    /// The only-move depth: one more than the last depth whose best move is another
    /// (1 when every depth plays a right move), `DEPTH_CAP + 1` when the last depth
    /// searched plays another.
    pub depth: i32,
    /// The nodes searched when that depth was complete; twice `PLAY_NODES` when
    /// the search never settles.
    pub nodes: u64,
}

/// Where a search at full strength (one line, one thread, a fresh hash table, no
/// tables, `PLAY_NODES` at most, `DEPTH_CAP` deep) keeps playing one of `right`.
pub fn settling(engine: &mut Engine, game: &Game, right: &[Move]) -> Settled {
    let lines = at_full_strength(engine, |engine| {
        engine.options.multipv = 1;
        engine.clear();
        let limits = Limits {
            depth: Some(DEPTH_CAP),
            nodes: Some(PLAY_NODES),
            ..Limits::default()
        };
        every_depth(engine, game, &limits)
    });
    let never = Settled {
        depth: DEPTH_CAP + 1,
        nodes: 2 * PLAY_NODES,
    };
    let is_right = |l: &SearchInfo| l.pv.first().is_some_and(|m| right.contains(m));
    if !lines.last().is_some_and(is_right) {
        return never;
    }
    // The last wrong line, and the first of the right ones after it.
    let (depth, first) = match lines.iter().rposition(|l| !is_right(l)) {
        Some(wrong) => (lines[wrong].depth + 1, wrong + 1),
        None => (1, 0),
    };
    lines.get(first).map_or(never, |l| Settled {
        depth,
        nodes: l.nodes,
    })
}

/// One search's first line at every depth it reported, shallowest first (the last
/// report of each depth).
fn every_depth(engine: &mut Engine, game: &Game, limits: &Limits) -> Vec<SearchInfo> {
    let seen: std::sync::Mutex<Vec<SearchInfo>> = std::sync::Mutex::new(Vec::new());
    let shared = crate::search::search::SharedState::new(1);
    engine.search(game, limits, &shared, &|info: &SearchInfo| {
        if info.multipv != 1 {
            return;
        }
        if let Ok(mut s) = seen.lock() {
            match s.last_mut() {
                Some(l) if l.depth == info.depth => *l = info.clone(),
                _ => s.push(info.clone()),
            }
        }
    });
    seen.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` with `engine` at full strength, reporting, on one thread and without
/// tables; its options and tables are restored after.
fn at_full_strength<T>(engine: &mut Engine, f: impl FnOnce(&mut Engine) -> T) -> T {
    let saved_options = engine.options;
    let saved_tables = engine.tablebases.take();
    engine.options.threads = 1;
    engine.options.report = true;
    engine.options.limit_elo = None;
    engine.options.skill_level = 20;
    let result = f(engine);
    engine.options = saved_options;
    engine.tablebases = saved_tables;
    result
}

/// The chances of every row of playing one of the moves `right` in `game`.
pub fn row_chances(engine: &mut Engine, game: &Game, right: &[Move]) -> RowChances {
    at_full_strength(engine, |engine| level_chances(engine, game, right))
}

fn level_chances(engine: &mut Engine, game: &Game, right: &[Move]) -> RowChances {
    let mut searched: Vec<((i32, usize), Vec<SearchInfo>)> = Vec::new();
    let mut chances = [0.0; LEVELS.len()];
    for (row, level) in LEVELS.iter().enumerate() {
        if let Some(profile) = level.beginner {
            chances[row] = beginner_chance(game, profile, right);
            continue;
        }
        let strength = Strength::at_elo(level.elo, 0, 0);
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

/// The rows `elo` (clamped to the `UCI_Elo` scale) plays as: the upper row's index
/// and the probability of a game as that row, the rest as the row below it.
fn rows_at(elo: f64) -> (usize, f64) {
    let elo = elo.clamp(f64::from(ELO_MIN), f64::from(ELO_MAX));
    let upper = LEVELS
        .iter()
        .position(|l| f64::from(l.elo) >= elo)
        .unwrap_or(LEVELS.len() - 1);
    if upper == 0 || f64::from(LEVELS[upper].elo) == elo {
        return (upper, 1.0);
    }
    let (lo, hi) = (
        f64::from(LEVELS[upper - 1].elo),
        f64::from(LEVELS[upper].elo),
    );
    (upper, (elo - lo) / (hi - lo))
}

/// The chance of a right move at `elo` on the `UCI_Elo` scale (clamped to it): the
/// two rows' chances weighted by how often each is played.
pub fn chance_at(chances: &RowChances, elo: f64) -> f64 {
    match rows_at(elo) {
        (upper, q) if q >= 1.0 => chances[upper],
        (upper, q) => q * chances[upper] + (1.0 - q) * chances[upper - 1],
    }
}

/// The chance of solving the whole puzzle at `elo`: each row solves it with the
/// product of its chances, and a game is played as one row throughout.
pub fn solve_chance(steps: &[RowChances], elo: f64) -> f64 {
    let solves = |row: usize| steps.iter().map(|c| c[row]).product::<f64>();
    match rows_at(elo) {
        (upper, q) if q >= 1.0 => solves(upper),
        (upper, q) => q * solves(upper) + (1.0 - q) * solves(upper - 1),
    }
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

/// The puzzle rating of a hardness: 0–1 mapped linearly onto `RATING_SPAN`.
pub fn rating_of_hardness(hardness: f64) -> u32 {
    let (r0, r1) = RATING_SPAN;
    let r = r0 + hardness * (r1 - r0);
    r.round().clamp(r0, r1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(p: f64) -> RowChances {
        [p; LEVELS.len()]
    }

    /// Red's rat at d8 next to Blue's den (d9): entering is the one right move.
    fn den_entry() -> (Game, Vec<Move>) {
        let game = Game::new(
            crate::board::Position::from_fen("7/3R3/7/7/7/7/7/3l3/7 r 0 1").expect("fen"),
        );
        let entry = game
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| game.position().is_den_entry(m))
            .collect();
        (game, entry)
    }

    fn difficulty(elo: f64, depths: &[i32]) -> Difficulty {
        let found = if elo >= f64::from(ELO_MAX) + ABOVE {
            0.0
        } else {
            1.0
        };
        Difficulty {
            steps: vec![flat(found); depths.len()],
            elo,
            depths: depths.to_vec(),
            nodes: vec![10; depths.len()],
            rating: 0,
        }
    }

    #[test]
    fn the_hardness_maps_onto_the_rating_span() {
        let lo = f64::from(ELO_MIN) - BELOW;
        let hi = f64::from(ELO_MAX) + ABOVE;
        assert_eq!(rating_of_hardness(0.0), 600);
        assert_eq!(rating_of_hardness(1.0), 2600);
        assert_eq!(rating_of_hardness(0.5), 1600);
        assert_eq!(difficulty(lo, &[1]).hardness(), 0.0);
        assert_eq!(difficulty(0.0, &[1]).hardness(), 0.0);
        let mut hardest = difficulty(hi, &[DEPTH_CAP + 1; LONG_LINE]);
        hardest.nodes = vec![EFFORT_SPAN.1 as u64; LONG_LINE];
        assert!((hardest.hardness() - 1.0).abs() < 1e-9);
        assert!((WEIGHTS.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    /// Puzzles the levels place alike are told apart by their length and by how deep
    /// the search must look before it keeps the right move.
    #[test]
    fn length_and_only_move_depth_separate_equal_levels() {
        let elo = f64::from(LEVELS[LEVELS.len() - 2].elo);
        let two = difficulty(elo, &[3, 1]).hardness();
        let three = difficulty(elo, &[5, 3, 1]).hardness();
        let deeper = difficulty(elo, &[7, 3]).hardness();
        assert!(two < three, "{two} {three}");
        assert!(two < deeper, "{two} {deeper}");
        let rated = [two, three, deeper].map(rating_of_hardness);
        assert!(rated[0] < rated[1] && rated[0] < rated[2], "{rated:?}");
        // And by how often the levels fail.
        let mut often = difficulty(elo, &[3, 1]);
        often.steps[0][LEVELS.len() - 2] = 0.0;
        assert!(often.hardness() > two);
        // And by the nodes the search needs: ten times as many (a decade of the
        // five) add a fifth of the effort's weight.
        let mut effort = difficulty(elo, &[3, 1]);
        effort.nodes.iter_mut().for_each(|n| *n *= 10);
        let gained = effort.hardness() - two;
        assert!((gained - WEIGHTS[4] / 5.0).abs() < 1e-9, "{gained}");
    }

    /// A den entry is kept from depth 1, after a few nodes; a move the search never
    /// plays is past the cap and the budget.
    #[test]
    fn the_only_move_depth_is_where_the_search_keeps_the_move() {
        let mut engine = Engine::new(16).expect("a 16 MB table");
        let (now, entry) = den_entry();
        let settled = settling(&mut engine, &now, &entry);
        assert_eq!(settled.depth, 1);
        let legal = now.legal_moves().len() as u64;
        assert!((1..=10 * legal).contains(&settled.nodes), "{settled:?}");
        // No move is right: past the cap.
        let never = settling(&mut engine, &now, &[]);
        assert_eq!(never.depth, DEPTH_CAP + 1);
        assert_eq!(never.nodes, 2 * PLAY_NODES);
        // A quiet first move is kept from a later depth, after more nodes: Red's rat
        // must step next to the den before entering it.
        let far =
            Game::new(crate::board::Position::from_fen("7/7/3R3/7/7/7/7/7/l6 r 0 1").expect("fen"));
        let line = [far.parse_move("d7d8").expect("a move")];
        let quiet = settling(&mut engine, &far, &accepted(&far, line[0]));
        assert!(quiet.depth >= 1 && quiet.nodes > settled.nodes, "{quiet:?}");
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
        let (den, entry) = den_entry();
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
    fn a_game_between_rows_is_played_as_one_of_them() {
        // Two moves: the upper row finds both, the lower one each half the time.
        // Halfway between, a game is the upper row's half the time: ½ + ½·¼.
        let n = LEVELS.len();
        let mut c = flat(0.0);
        c[n - 1] = 1.0;
        c[n - 2] = 0.5;
        let mid = f64::from(LEVELS[n - 2].elo + LEVELS[n - 1].elo) / 2.0;
        assert!((solve_chance(&[c, c], mid) - 0.625).abs() < 1e-9);
        // A move at a time would have given (¾)² = 0.5625.
        assert!((chance_at(&c, mid).powi(2) - 0.5625).abs() < 1e-9);
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
