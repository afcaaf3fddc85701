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
//! defences to see through), and how quiet its moves are (a solver move that takes
//! nothing, threatens no den and enters none is harder to look for). Each part is
//! scaled to 0–1 (`Difficulty::hardness`); their weighted sum (`WEIGHTS`) maps onto
//! the rating by `RATING_CURVE`, a monotone piecewise-linear curve fitted to the
//! candidates' hardness (`fit_curve`), so that the ratings spread over the scale as
//! people's do rather than bunching where most hardness values lie.

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
/// Weights of the levels' Elo, their failure rate, the length, the only-move depth,
/// the effort and the quiet moves in the hardness.
pub const WEIGHTS: [f64; 6] = [0.3, 0.15, 0.1, 0.15, 0.15, 0.15];

/// Hardness to rating: (hardness, rating) points, hardness rising; linear between
/// them, constant beyond the ends. Fitted by `fit_curve` (`jungle puzzles rate --fit`)
/// to the hardness of the candidates of the shipped set (docs/puzzles.md,
/// "Difficulty").
pub const RATING_CURVE: [(f64, f64); 21] = [
    (0.0000, 600.0),
    (0.0274, 693.0),
    (0.0924, 860.0),
    (0.1072, 973.0),
    (0.1179, 1063.0),
    (0.1282, 1140.0),
    (0.1349, 1209.0),
    (0.1385, 1273.0),
    (0.1785, 1333.0),
    (0.2487, 1392.0),
    (0.2516, 1450.0),
    (0.2539, 1508.0),
    (0.2565, 1567.0),
    (0.2600, 1627.0),
    (0.2653, 1691.0),
    (0.2696, 1760.0),
    (0.2985, 1837.0),
    (0.3992, 1927.0),
    (0.4353, 2040.0),
    (0.5026, 2207.0),
    (0.9558, 2600.0),
];

/// The ratings `fit_curve` spreads the hardness over: a normal distribution of this
/// mean and deviation, within `RATING_SPAN`.
pub const TARGET: (f64, f64) = (1450.0, 460.0);

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
    /// The share of the solver moves that are quiet: no capture, no step onto an enemy
    /// trap (next to the den), no den entry (a last move that wins at once is not
    /// counted, unless it is the only move).
    pub quiet: f64,
    pub rating: u32,
}

impl Difficulty {
    /// The hardness, 0 to 1: the `WEIGHTS` of `parts`.
    pub fn hardness(&self) -> f64 {
        self.parts().iter().zip(WEIGHTS).map(|(x, w)| x * w).sum()
    }

    /// The six parts of the hardness, each 0 to 1: the Elo's place on
    /// `[ELO_MIN − BELOW, ELO_MAX + ABOVE]`, the levels' failure rate (the mean over
    /// the rows of `LEVELS` of the chance of not solving the line), the length (1 to
    /// `LONG_LINE` solver moves), the only-move depths beyond 1 (0 to `DEEP_LINE`),
    /// the effort (`EFFORT_SPAN`, logarithmic) and the quiet moves' share.
    pub fn parts(&self) -> [f64; 6] {
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
        [levels, failure, length, depth, effort, self.quiet].map(|x| x.clamp(0.0, 1.0))
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
        quiet: quiet_share(game, line),
        rating: 0,
    };
    difficulty.rating = rating_of_hardness(difficulty.hardness());
    difficulty
}

/// The share of the solver moves of `line` from `game` that are quiet (no capture,
/// no step onto an enemy trap, no den entry); a last move that wins at once is left
/// out unless it is the only one.
pub fn quiet_share(game: &Game, line: &[Move]) -> f64 {
    use crate::board::geometry::TRAPS;
    let mut g = game.clone();
    let solver_moves = line.len().div_ceil(2);
    let (mut quiet, mut counted) = (0usize, 0usize);
    for (i, &m) in line.iter().enumerate() {
        if i % 2 == 0 {
            let pos = g.position();
            let them = pos.side_to_move().other();
            let last = i / 2 + 1 == solver_moves;
            let ends = {
                let mut after = g.clone();
                after.play(m).is_ok() && after.result() != crate::game::GameResult::Ongoing
            };
            if !(last && ends && solver_moves > 1) {
                counted += 1;
                let loud = pos.is_capture(m)
                    || pos.is_den_entry(m)
                    || TRAPS[them.index()].contains(m.to());
                quiet += usize::from(!loud);
            }
        }
        if g.play(m).is_err() {
            break;
        }
    }
    if counted == 0 {
        0.0
    } else {
        quiet as f64 / counted as f64
    }
}

/// A `RATING_CURVE` for puzzles of these hardness values: the hardness at each
/// twentieth of their order (0, 5%, …, 100%) mapped onto the rating at the same
/// point of the normal distribution `TARGET`, clamped to `RATING_SPAN`; equal hardness
/// at several points merged into one at the middle of their points, so the curve
/// rises.
pub fn fit_curve(hardness: &[f64]) -> Vec<(f64, f64)> {
    let mut h: Vec<f64> = hardness.iter().copied().filter(|x| x.is_finite()).collect();
    h.sort_by(f64::total_cmp);
    if h.len() < 2 {
        return RATING_CURVE.to_vec();
    }
    let (lo, hi) = RATING_SPAN;
    // The hardness at each twentieth, and the share of the order at which it stands
    // (equal ones merged at the middle of their shares).
    let mut points: Vec<(f64, f64, f64)> = Vec::new();
    for k in 0..=20 {
        let p = f64::from(k) / 20.0;
        let x = h[((h.len() - 1) as f64 * p).round() as usize];
        match points.last_mut() {
            Some(last) if x <= last.0 => last.2 = p,
            _ => points.push((x, p, p)),
        }
    }
    points
        .into_iter()
        .map(|(x, first, last)| {
            // Keep the tails inside the span: the ends at 0.5% and 99.5%.
            let q = ((first + last) / 2.0).clamp(0.005, 0.995);
            (x, (TARGET.0 + TARGET.1 * normal_quantile(q)).clamp(lo, hi))
        })
        .collect()
}

/// The standard normal distribution's quantile (Acklam's rational approximation,
/// relative error below 1.2e-9).
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
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

/// The puzzle rating of a hardness by `RATING_CURVE`.
pub fn rating_of_hardness(hardness: f64) -> u32 {
    rating_on(&RATING_CURVE, hardness)
}

/// The rating of a hardness on `curve` ((hardness, rating) points, hardness rising).
pub fn rating_on(curve: &[(f64, f64)], hardness: f64) -> u32 {
    let (r0, r1) = RATING_SPAN;
    let r = match curve.iter().position(|&(x, _)| x >= hardness) {
        None => curve.last().map_or(r0, |p| p.1),
        Some(0) => curve[0].1,
        Some(i) => {
            let ((x0, y0), (x1, y1)) = (curve[i - 1], curve[i]);
            if x1 > x0 {
                y0 + (hardness - x0) / (x1 - x0) * (y1 - y0)
            } else {
                y1
            }
        }
    };
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
            quiet: 0.0,
            rating: 0,
        }
    }

    /// The fitted curve rises, spans the target's middle, and puts a twentieth of
    /// the fitted puzzles between each two points.
    #[test]
    fn a_fitted_curve_spreads_the_ratings() {
        // Hardness bunched low, as the puzzles' is: most near 0.2.
        let h: Vec<f64> = (0..1000)
            .map(|i| 0.15 + 0.1 * (f64::from(i) / 1000.0).powi(3) + if i > 900 { 0.3 } else { 0.0 })
            .collect();
        let curve = fit_curve(&h);
        assert!(
            curve
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1),
            "{curve:?}"
        );
        let mut rated: Vec<u32> = h.iter().map(|&x| rating_on(&curve, x)).collect();
        rated.sort_unstable();
        let (q1, q3) = (rated[250], rated[750]);
        assert!(q3 - q1 >= 550, "{q1} {q3}");
        let high = rated.iter().filter(|&&r| r >= 1800).count();
        assert!(high >= 180, "{high}");
        assert!((normal_quantile(0.975) - 1.959_964).abs() < 1e-5);
        assert!(normal_quantile(0.5).abs() < 1e-9);
    }

    /// Captures, steps next to the den and den entries are not quiet.
    #[test]
    fn quiet_moves_are_counted() {
        let (den, _) = den_entry();
        let enter = den.parse_move("d8d9").expect("legal");
        assert_eq!(quiet_share(&den, &[enter]), 0.0);
        let far =
            Game::new(crate::board::Position::from_fen("7/7/3R3/7/7/7/7/7/l6 r 0 1").expect("fen"));
        let line: Vec<Move> = ["d7c7", "a1a2", "c7c8", "a2a1", "c8c9"]
            .iter()
            .scan(far.clone(), |g, m| {
                let mv = g.parse_move(m).ok()?;
                g.play(mv).ok()?;
                Some(mv)
            })
            .collect();
        // d7c7 and c7c8 quiet; c8c9 steps onto a trap (and wins no game yet) is loud.
        assert!((quiet_share(&far, &line) - 2.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn the_hardness_maps_onto_the_rating_span() {
        let lo = f64::from(ELO_MIN) - BELOW;
        let hi = f64::from(ELO_MAX) + ABOVE;
        assert_eq!(rating_of_hardness(0.0), 600);
        assert_eq!(rating_of_hardness(1.0), 2600);
        // The fitted curve goes through its points and rises between them.
        for (h, r) in RATING_CURVE {
            assert_eq!(f64::from(rating_of_hardness(h)), r, "{h}");
        }
        let ratings: Vec<u32> = (0..=100)
            .map(|i| rating_of_hardness(f64::from(i) / 100.0))
            .collect();
        assert!(ratings.windows(2).all(|w| w[0] <= w[1]), "{ratings:?}");
        // Linear between two points.
        assert_eq!(rating_on(&[(0.0, 600.0), (1.0, 2600.0)], 0.5), 1600);
        assert_eq!(difficulty(lo, &[1]).hardness(), 0.0);
        assert_eq!(difficulty(0.0, &[1]).hardness(), 0.0);
        let mut hardest = difficulty(hi, &[DEPTH_CAP + 1; LONG_LINE]);
        hardest.nodes = vec![EFFORT_SPAN.1 as u64; LONG_LINE];
        hardest.quiet = 1.0;
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
        // five) add a fifth of the effort's weight; and by quiet moves.
        let mut quiet = difficulty(elo, &[3, 1]);
        quiet.quiet = 0.5;
        assert!((quiet.hardness() - two - WEIGHTS[5] / 2.0).abs() < 1e-9);
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
