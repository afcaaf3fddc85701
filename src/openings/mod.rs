//! The opening suite: short random lines from the start position, kept only when a
//! fixed-depth search scores them near equal (or, for an unbalanced suite, in a band
//! away from equal, and optionally only when a self-play game from the position is
//! won by the side the search favours). `jungle openings` regenerates the suites
//! shipped in `openings.txt` and `books/unbalanced.txt` (same command, same file).
//!
//! Calibration (`--calibrate-nodes`, `--calibrate-tc`) keeps an unbalanced position
//! only when the engine, playing both sides, wins it for the favoured side in a given
//! share of several trials (40–70% by default) and never loses it: a book whose game
//! pairs are decisive as often as possible at the limit of the test (`books/calibrated.txt`).

pub mod command;

use crate::board::{Color, Position};
use crate::game::{Game, GameResult, Rules};
use crate::nnue::EvalKind;
use crate::rng::Rng;
use crate::search::search::SharedState;
use crate::search::{Engine, Limits, Score};
use rayon::prelude::*;
use std::io::{self, Write};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct Settings {
    pub count: usize,
    pub plies: u32,
    pub depth: i32,
    pub margin: i32,
    /// Keep only positions scored at least this far from 0 (an unbalanced suite, in
    /// which one side is better and the result depends on converting it); 0: none.
    pub min_margin: i32,
    pub seed: u64,
    pub rules: Rules,
    /// Keep a position only when a self-play game from it at this many nodes per move
    /// is won by the side the search favours (`None`: no game).
    pub verify_nodes: Option<u64>,
    /// Threads playing the verification games (the suite does not depend on it).
    pub threads: usize,
    /// Evaluation of the searches.
    pub eval: EvalKind,
    /// Keep a position only when self-play trials from it pass (`None`: no trials).
    pub calibrate: Option<Calibration>,
}

/// The limit of each move of a trial game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrialLimit {
    /// About this many nodes per move. A game at fixed nodes from a fresh table is
    /// deterministic, so every move's budget is drawn from `nodes` ± `jitter_pct`%
    /// by a generator seeded with the suite's seed, the position and the trial's
    /// number: the trials differ, and the suite still depends on nothing else.
    Nodes { nodes: u64, jitter_pct: u32 },
    /// A clock per side (ms) with an increment per move (ms), kept by the trial as
    /// `jungle match` keeps it: a side whose clock runs out loses. Not reproducible.
    Clock { base_ms: u64, inc_ms: u64 },
}

impl std::fmt::Display for TrialLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TrialLimit::Nodes { nodes, jitter_pct } => {
                write!(f, "{nodes} nodes per move (each move ±{jitter_pct}%)")
            }
            TrialLimit::Clock { base_ms, inc_ms } => write!(
                f,
                "the clock {}+{}",
                base_ms as f64 / 1000.0,
                inc_ms as f64 / 1000.0
            ),
        }
    }
}

/// Calibration: `trials` self-play games from each candidate at each limit in turn
/// (nodes first, for speed, then the clock); a candidate is kept when at every limit
/// the favoured side wins between `min_win_pct` and `max_win_pct` percent of the
/// trials and loses at most `max_losses` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calibration {
    pub limits: Vec<TrialLimit>,
    pub trials: u32,
    pub min_win_pct: u32,
    pub max_win_pct: u32,
    pub max_losses: u32,
}

impl Calibration {
    /// Refuses settings that can keep nothing (one line, naming the options).
    pub fn check(&self) -> Result<(), String> {
        if self.limits.is_empty() {
            return Err("calibration needs --calibrate-nodes or --calibrate-tc".into());
        }
        if self.trials == 0 {
            return Err("--calibrate-trials must be at least 1".into());
        }
        if self.min_win_pct > self.max_win_pct || self.max_win_pct > 100 {
            return Err(format!(
                "--calibrate-min-win {} and --calibrate-max-win {} must satisfy min <= max <= 100",
                self.min_win_pct, self.max_win_pct
            ));
        }
        if !(0..=self.trials).any(|w| self.wins_in_band(w)) {
            return Err(format!(
                "no number of wins out of {} trials lies between {}% and {}%: give more --calibrate-trials or a wider band",
                self.trials, self.min_win_pct, self.max_win_pct
            ));
        }
        Ok(())
    }

    /// True when `wins` of `trials` lies in the band (in whole-number arithmetic).
    pub fn wins_in_band(&self, wins: u32) -> bool {
        let pct = 100 * wins;
        pct >= self.min_win_pct * self.trials && pct <= self.max_win_pct * self.trials
    }

    /// The command-line flags that give this calibration.
    fn flags(&self) -> String {
        let mut f = String::new();
        for limit in &self.limits {
            match *limit {
                TrialLimit::Nodes { nodes, jitter_pct } => {
                    f.push_str(&format!(
                        " --calibrate-nodes {nodes} --calibrate-jitter {jitter_pct}"
                    ));
                }
                TrialLimit::Clock { base_ms, inc_ms } => f.push_str(&format!(
                    " --calibrate-tc {}",
                    jungle_core::time_control::TimeControl::Clock { base_ms, inc_ms }
                )),
            }
        }
        f.push_str(&format!(
            " --calibrate-trials {} --calibrate-min-win {} --calibrate-max-win {} --calibrate-max-losses {}",
            self.trials, self.min_win_pct, self.max_win_pct, self.max_losses
        ));
        f
    }
}

/// The trials of one candidate at one limit, from the favoured side's view. Trials
/// stop at the first loss beyond `max_losses` (the candidate is out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrialScore {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// What calibration saw: per limit, how many candidates lost too often and how many
/// won each number of trials without losing too often.
#[derive(Clone, Debug, Default)]
pub struct CalibrationReport {
    /// Positions searched at the suite's depth.
    pub searched: usize,
    /// Of those, in the score band (the candidates of the trials).
    pub in_band: usize,
    /// Per limit: candidates tried at it, rejected for losses, and by wins (index: wins).
    pub tried: Vec<usize>,
    pub lost: Vec<usize>,
    pub by_wins: Vec<Vec<usize>>,
    /// Win rates of the kept positions at the last limit.
    pub kept_rates: Vec<f64>,
    pub trial_games: u64,
}

impl CalibrationReport {
    /// The report as comment lines (`# …`): counts, the win-rate distribution and the
    /// game-pair outcome the kept positions give in self-play.
    pub fn lines(&self, cal: &Calibration) -> Vec<String> {
        let mut lines = vec![format!(
            "Calibration: {} positions searched, {} in the score band; {} trial games.",
            self.searched, self.in_band, self.trial_games
        )];
        for (i, limit) in cal.limits.iter().enumerate() {
            let dist: Vec<String> = self.by_wins[i]
                .iter()
                .enumerate()
                .map(|(w, n)| {
                    let mark = if cal.wins_in_band(w as u32) { "*" } else { "" };
                    format!("{w}/{}{mark}: {n}", cal.trials)
                })
                .collect();
            let kept: usize = self.by_wins[i]
                .iter()
                .enumerate()
                .filter(|&(w, _)| cal.wins_in_band(w as u32))
                .map(|(_, n)| n)
                .sum();
            lines.push(format!(
                "At {limit}: {} tried, {} lost more than {} trial(s), {kept} kept; favoured-side wins of those that did not lose (* kept): {}.",
                self.tried[i],
                self.lost[i],
                cal.max_losses,
                dist.join(", ")
            ));
        }
        let n = self.kept_rates.len().max(1) as f64;
        // Pair of the same engine, colours swapped: each side wins its favoured game
        // with probability p, else draws (no loss was seen): pair score 2-0 / 0-2 …
        let split: f64 = self.kept_rates.iter().map(|p| p * (1.0 - p)).sum::<f64>() / n;
        let both: f64 = self.kept_rates.iter().map(|p| p * p).sum::<f64>() / n;
        let none: f64 = self
            .kept_rates
            .iter()
            .map(|p| (1.0 - p) * (1.0 - p))
            .sum::<f64>()
            / n;
        let mean: f64 = self.kept_rates.iter().sum::<f64>() / n;
        lines.push(format!(
            "Kept {}: mean favoured-side win rate {:.1}%. Expected self-play pair (colours swapped), if the trials' rates hold: Ptnml [0, {:.3}, {:.3}, {:.3}, 0] (1-1 by two wins {:.3}, by two draws {:.3}); non-draw pairs (score not 1-1) {:.1}%, pairs with a decisive game {:.1}%.",
            self.kept_rates.len(),
            100.0 * mean,
            split,
            both + none,
            split,
            both,
            none,
            200.0 * split,
            100.0 * (1.0 - none)
        ));
        lines
    }
}

/// Writes `settings.count` positions, one per line with a comment header; with
/// calibration, the report follows as comment lines at the end (and on stderr).
pub fn generate(settings: &Settings, out: &mut impl Write) -> io::Result<usize> {
    generate_with_report(settings, out).map(|(written, _)| written)
}

/// `generate`, also returning what calibration saw (`None` without calibration).
pub fn generate_with_report(
    settings: &Settings,
    out: &mut impl Write,
) -> io::Result<(usize, Option<CalibrationReport>)> {
    if settings.min_margin > settings.margin {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--min-margin {} is above --margin {}: no score can lie between them",
                settings.min_margin, settings.margin
            ),
        ));
    }
    if let Some(cal) = &settings.calibrate {
        cal.check()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    }
    let mut engine = Engine::new(16).map_err(|e| io::Error::other(e.to_string()))?;
    engine.options.report = false;
    engine.options.eval = settings.eval;
    let mut rng = Rng::new(settings.seed);
    let (mut kept, mut flag) = if settings.min_margin > 0 {
        (
            format!("between {} and {}", settings.min_margin, settings.margin),
            format!(" --min-margin {}", settings.min_margin),
        )
    } else {
        (format!("within {}", settings.margin), String::new())
    };
    if let Some(n) = settings.verify_nodes {
        kept.push_str(&format!(
            ", and a self-play game from it at {n} nodes per move is won by the side the search favours"
        ));
        flag.push_str(&format!(" --verify-nodes {n}"));
    }
    if let Some(cal) = &settings.calibrate {
        let limits: Vec<String> = cal.limits.iter().map(ToString::to_string).collect();
        kept.push_str(&format!(
            ", and in {} self-play trials from it at {} (fresh table each) the favoured side wins {}-{}% and loses at most {}",
            cal.trials,
            limits.join(", then at "),
            cal.min_win_pct,
            cal.max_win_pct,
            cal.max_losses
        ));
        flag.push_str(&cal.flags());
    }
    if settings.eval != EvalKind::default() {
        flag.push_str(&format!(" --eval {}", settings.eval.name()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads.max(1))
        .build()
        .map_err(|e| io::Error::other(e.to_string()))?;
    writeln!(
        out,
        "# Jungle opening suite: {} positions, {} random plies from the start, kept when a depth-{} search scores them {kept} (one thread, fresh table).",
        settings.count, settings.plies, settings.depth
    )?;
    writeln!(
        out,
        "# Regenerate: jungle openings --count {} --plies {} --depth {} --margin {}{flag} --seed {}",
        settings.count, settings.plies, settings.depth, settings.margin, settings.seed
    )?;
    let mut report = settings.calibrate.as_ref().map(|cal| CalibrationReport {
        tried: vec![0; cal.limits.len()],
        lost: vec![0; cal.limits.len()],
        by_wins: vec![vec![0; cal.trials as usize + 1]; cal.limits.len()],
        ..CalibrationReport::default()
    });
    let mut seen = std::collections::HashSet::new();
    let mut written = 0;
    let mut attempts = 0;
    let mut searched = 0;
    // Calibration keeps a small share of a narrow band: it may look ten times as long.
    let max_attempts = settings.count
        * if settings.calibrate.is_some() {
            2000
        } else {
            200
        };
    // Each candidate with its score and how many positions had been searched with it.
    let mut candidates: Vec<(Position, i32, usize)> = Vec::new();
    // Batches keep the threads busy; a calibration candidate takes many games, so its
    // batches are small (progress is reported after each).
    let batch = if settings.calibrate.is_some() {
        2 * settings.threads.max(1)
    } else if settings.verify_nodes.is_some() {
        16 * settings.threads.max(1)
    } else {
        1
    };
    while written < settings.count && attempts < max_attempts {
        attempts += 1;
        let mut game = Game::with_rules(Position::startpos(), settings.rules);
        let mut ok = true;
        for _ in 0..settings.plies {
            let moves = game.legal_moves();
            if moves.is_empty() || game.result() != GameResult::Ongoing {
                ok = false;
                break;
            }
            let m = moves[rng.below(moves.len())];
            if game.play(m).is_err() {
                ok = false;
                break;
            }
        }
        if !ok || game.result() != GameResult::Ongoing || !seen.insert(game.position().key()) {
            continue;
        }
        engine.clear();
        let shared = SharedState::new(1);
        let start = Game::with_rules(*game.position(), settings.rules);
        let outcome = engine.search(&start, &Limits::depth(settings.depth), &shared, &|_| {});
        searched += 1;
        if let Score::Cp(cp) = outcome.score {
            if cp.abs() <= settings.margin && cp.abs() >= settings.min_margin {
                candidates.push((*game.position(), cp, searched));
            }
        }
        // Without verification games each candidate is kept at once; with them, a
        // batch is verified in parallel and kept in candidate order.
        if candidates.len() >= batch {
            written += keep_verified(
                &mut candidates,
                settings,
                &pool,
                written,
                report.as_mut(),
                out,
            )?;
            if settings.calibrate.is_some() {
                // Progress of a long run, and the book so far on disk.
                out.flush()?;
                eprintln!(
                    "{written} of {} kept, {searched} positions searched",
                    settings.count
                );
            }
        }
    }
    written += keep_verified(
        &mut candidates,
        settings,
        &pool,
        written,
        report.as_mut(),
        out,
    )?;
    if let (Some(report), Some(cal)) = (report.as_mut(), &settings.calibrate) {
        if written < settings.count {
            // Every search counted (else: up to the last position kept, so that the
            // report does not depend on the batches, that is on the threads).
            report.searched = searched;
        }
        for line in report.lines(cal) {
            writeln!(out, "# {line}")?;
            eprintln!("{line}");
        }
    }
    out.flush()?;
    Ok((written, report))
}

/// Writes the candidates that pass verification and calibration (all without them)
/// while the suite is short; empties `candidates`; returns how many were written.
/// Candidates after the last one the suite needs are still judged (the batch runs in
/// parallel) but neither written nor counted in the report.
fn keep_verified(
    candidates: &mut Vec<(Position, i32, usize)>,
    settings: &Settings,
    pool: &rayon::ThreadPool,
    written: usize,
    mut report: Option<&mut CalibrationReport>,
    out: &mut impl Write,
) -> io::Result<usize> {
    let verdicts: Vec<(bool, Vec<TrialScore>)> = pool.install(|| {
        candidates
            .par_iter()
            .map(|&(pos, cp, _)| {
                let verified = settings
                    .verify_nodes
                    .map_or(true, |nodes| favoured_side_wins(pos, cp, nodes, settings));
                match &settings.calibrate {
                    Some(cal) if verified => calibrate(pos, cp, cal, settings),
                    _ => (verified, Vec::new()),
                }
            })
            .collect()
    });
    let mut added = 0;
    for (&(pos, cp, searched), (keep, scores)) in candidates.iter().zip(verdicts) {
        if written + added >= settings.count {
            break;
        }
        if let (Some(report), Some(cal)) = (report.as_deref_mut(), &settings.calibrate) {
            report.searched = searched;
            report.in_band += 1;
            let trials: Vec<String> = scores
                .iter()
                .map(|s| format!("{}-{}-{}", s.wins, s.draws, s.losses))
                .collect();
            eprintln!(
                "{} eval {cp}: trials (favoured side W-D-L) {} -> {}",
                pos.to_fen(),
                trials.join(" then "),
                if keep { "kept" } else { "dropped" }
            );
            for (i, s) in scores.iter().enumerate() {
                report.tried[i] += 1;
                report.trial_games += u64::from(s.wins + s.draws + s.losses);
                if s.losses > cal.max_losses {
                    report.lost[i] += 1;
                } else {
                    report.by_wins[i][s.wins as usize] += 1;
                }
            }
            if keep {
                if let Some(last) = scores.last() {
                    report
                        .kept_rates
                        .push(f64::from(last.wins) / f64::from(cal.trials));
                }
            }
        }
        if keep {
            match scores.last() {
                Some(s) => writeln!(
                    out,
                    "{} ; eval {cp} ; trials {}-{}-{}",
                    pos.to_fen(),
                    s.wins,
                    s.draws,
                    s.losses
                )?,
                None => writeln!(out, "{} ; eval {cp}", pos.to_fen())?,
            }
            added += 1;
        }
    }
    candidates.clear();
    Ok(added)
}

/// The favoured side (of the side to move's score `cp`) in `pos`.
fn favoured(pos: Position, cp: i32) -> Color {
    if cp > 0 {
        pos.side_to_move()
    } else {
        pos.side_to_move().other()
    }
}

/// The trials of one candidate at each limit in turn, until a limit fails; true when
/// every limit passes. Each limit's score is returned (the failing one last).
fn calibrate(
    pos: Position,
    cp: i32,
    cal: &Calibration,
    settings: &Settings,
) -> (bool, Vec<TrialScore>) {
    let side = favoured(pos, cp);
    let mut scores = Vec::new();
    for (stage, &limit) in cal.limits.iter().enumerate() {
        let mut s = TrialScore::default();
        for trial in 0..cal.trials {
            // The trial's own seed, from the run's, the position's and the trial's.
            let seed = [
                ((stage as u64) << 32) | u64::from(trial),
                pos.key(),
                settings.seed,
            ]
            .iter()
            .fold(0, |acc, &x| Rng::new(x ^ acc).next_u64());
            match play_out(pos, limit, seed, settings) {
                Some(Some(w)) if w == side => s.wins += 1,
                Some(None) => s.draws += 1,
                // A loss of the favoured side, or an engine that could not play.
                _ => s.losses += 1,
            }
            if s.losses > cal.max_losses {
                break;
            }
        }
        scores.push(s);
        if s.losses > cal.max_losses || !cal.wins_in_band(s.wins) {
            return (false, scores);
        }
    }
    (true, scores)
}

/// True when the engine, playing both sides from `pos` at `nodes` nodes per move (one
/// thread, fresh table), wins the game for the side that `cp` (the side to move's
/// score) favours.
fn favoured_side_wins(pos: Position, cp: i32, nodes: u64, settings: &Settings) -> bool {
    let limit = TrialLimit::Nodes {
        nodes,
        jitter_pct: 0,
    };
    play_out(pos, limit, 1, settings) == Some(Some(favoured(pos, cp)))
}

/// Plays `pos` to its end with the engine on both sides (one thread, a fresh 16 MB
/// table), every move at `limit` (`seed` draws the node jitter); returns the winner
/// (`None`: a draw), or `None` when the engine cannot play.
fn play_out(
    pos: Position,
    limit: TrialLimit,
    seed: u64,
    settings: &Settings,
) -> Option<Option<Color>> {
    let Ok(mut engine) = Engine::new(16) else {
        return None;
    };
    engine.options.report = false;
    engine.options.eval = settings.eval;
    let mut rng = Rng::new(seed);
    let mut clocks = match limit {
        TrialLimit::Clock { base_ms, .. } => [base_ms as i64; 2],
        TrialLimit::Nodes { .. } => [0; 2],
    };
    let mut game = Game::with_rules(pos, settings.rules);
    while game.result() == GameResult::Ongoing {
        let side = game.position().side_to_move();
        let limits = match limit {
            TrialLimit::Nodes { nodes, jitter_pct } => {
                let j = u64::from(jitter_pct.min(100));
                // nodes × (100 − j + [0, 2j]) / 100, at least one node.
                let pct = 100 - j + rng.below(2 * j as usize + 1) as u64;
                Limits {
                    nodes: Some((nodes.saturating_mul(pct) / 100).max(1)),
                    ..Limits::default()
                }
            }
            TrialLimit::Clock { inc_ms, .. } => Limits {
                time: [Some(clocks[0].max(0) as u64), Some(clocks[1].max(0) as u64)],
                inc: [inc_ms; 2],
                ..Limits::default()
            },
        };
        let shared = SharedState::new(1);
        let started = Instant::now();
        let best = engine.search(&game, &limits, &shared, &|_| {}).best?;
        if let TrialLimit::Clock { inc_ms, .. } = limit {
            let c = &mut clocks[side.index()];
            *c -= started.elapsed().as_millis() as i64;
            if *c < 0 {
                return Some(Some(side.other()));
            }
            *c += inc_ms as i64;
        }
        game.play(best).ok()?;
    }
    match game.result() {
        GameResult::Win { winner, .. } => Some(Some(winner)),
        _ => Some(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(margin: i32, min_margin: i32) -> String {
        let settings = Settings {
            count: 6,
            plies: 6,
            depth: 3,
            margin,
            min_margin,
            seed: 7,
            rules: Rules::default(),
            verify_nodes: None,
            threads: 1,
            eval: EvalKind::default(),
            calibrate: None,
        };
        let mut out = Vec::new();
        assert_eq!(generate(&settings, &mut out).expect("writes"), 6);
        String::from_utf8(out).expect("utf-8")
    }

    fn evals(text: &str) -> Vec<i32> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let (fen, eval) = l.split_once(" ; eval ").expect("eval comment");
                Position::from_fen(fen).expect("a valid position");
                eval.parse().expect("a number")
            })
            .collect()
    }

    #[test]
    fn suites_keep_the_positions_in_their_score_band() {
        let balanced = suite(60, 0);
        assert!(balanced.contains("--margin 60 --seed 7\n"), "{balanced}");
        assert!(evals(&balanced).iter().all(|e| e.abs() <= 60));
        let unbalanced = suite(2000, 100);
        assert!(
            unbalanced.contains("--margin 2000 --min-margin 100 --seed 7\n"),
            "{unbalanced}"
        );
        let e = evals(&unbalanced);
        assert_eq!(e.len(), 6);
        assert!(e.iter().all(|e| (100..=2000).contains(&e.abs())), "{e:?}");
        // Deterministic for a seed.
        assert_eq!(suite(2000, 100), unbalanced);
        // An empty band is refused before any search.
        let empty = Settings {
            count: 1,
            plies: 2,
            depth: 1,
            margin: 50,
            min_margin: 100,
            seed: 1,
            rules: Rules::default(),
            verify_nodes: None,
            threads: 1,
            eval: EvalKind::default(),
            calibrate: None,
        };
        let mut out = Vec::new();
        let err = generate(&empty, &mut out).expect_err("refused");
        assert!(err
            .to_string()
            .contains("--min-margin 100 is above --margin 50"));
        assert!(out.is_empty());
    }

    #[test]
    fn verified_suites_keep_positions_the_favoured_side_wins() {
        let settings_with = |threads| Settings {
            count: 4,
            plies: 8,
            depth: 3,
            margin: 3000,
            min_margin: 150,
            seed: 5,
            rules: Rules::default(),
            verify_nodes: Some(300),
            threads,
            eval: EvalKind::default(),
            calibrate: None,
        };
        let verified = |threads| {
            let mut out = Vec::new();
            assert_eq!(
                generate(&settings_with(threads), &mut out).expect("writes"),
                4
            );
            String::from_utf8(out).expect("utf-8")
        };
        let text = verified(1);
        let settings = settings_with(1);
        assert!(
            text.contains("--min-margin 150 --verify-nodes 300 --seed 5\n"),
            "{text}"
        );
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (fen, eval) = line.split_once(" ; eval ").expect("eval comment");
            let pos = Position::from_fen(fen).expect("a valid position");
            let cp: i32 = eval.parse().expect("a number");
            assert!(favoured_side_wins(pos, cp, 300, &settings), "{line}");
        }
        // Not every candidate passes: the plain suite of the same seed differs.
        let plain = Settings {
            verify_nodes: None,
            ..settings_with(1)
        };
        let mut out = Vec::new();
        generate(&plain, &mut out).expect("writes");
        let plain = String::from_utf8(out).expect("utf-8");
        assert_ne!(evals(&plain), evals(&text));
        // The suite does not depend on the threads.
        assert_eq!(verified(2), text);
    }

    fn calibration(trials: u32, min: u32, max: u32) -> Calibration {
        Calibration {
            limits: vec![TrialLimit::Nodes {
                nodes: 300,
                jitter_pct: 25,
            }],
            trials,
            min_win_pct: min,
            max_win_pct: max,
            max_losses: 0,
        }
    }

    #[test]
    fn calibration_bands_are_checked() {
        let c = calibration(5, 40, 70);
        assert!(c.check().is_ok());
        let band: Vec<u32> = (0..=5).filter(|&w| c.wins_in_band(w)).collect();
        assert_eq!(band, [2, 3]);
        assert!(calibration(4, 40, 70).wins_in_band(2));
        assert!(!calibration(4, 40, 70).wins_in_band(3));
        let err = calibration(3, 70, 40).check().expect_err("refused");
        assert!(err.contains("--calibrate-min-win 70"), "{err}");
        let err = calibration(2, 60, 70).check().expect_err("no count fits");
        assert!(err.contains("no number of wins out of 2"), "{err}");
        let err = calibration(0, 40, 70).check().expect_err("no trials");
        assert!(err.contains("--calibrate-trials"), "{err}");
        let none = Calibration {
            limits: Vec::new(),
            ..calibration(5, 40, 70)
        };
        assert!(none.check().is_err());
    }

    #[test]
    fn calibrated_suites_keep_only_positions_in_the_band() {
        let cal = calibration(3, 30, 70);
        let settings = Settings {
            count: 2,
            plies: 8,
            depth: 3,
            margin: 3000,
            min_margin: 100,
            seed: 5,
            rules: Rules::default(),
            verify_nodes: None,
            threads: 1,
            eval: EvalKind::default(),
            calibrate: Some(cal.clone()),
        };
        let mut out = Vec::new();
        let (written, report) = generate_with_report(&settings, &mut out).expect("writes");
        let report = report.expect("a report");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(written, 2, "{text}");
        assert!(
            text.contains(
                "--min-margin 100 --calibrate-nodes 300 --calibrate-jitter 25 --calibrate-trials 3 --calibrate-min-win 30 --calibrate-max-win 70 --calibrate-max-losses 0 --seed 5\n"
            ),
            "{text}"
        );
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let mut parts = line.split(" ; ");
            let fen = parts.next().expect("a position");
            let cp: i32 = parts
                .next()
                .and_then(|e| e.strip_prefix("eval "))
                .and_then(|e| e.parse().ok())
                .expect("an eval");
            let trials = parts
                .next()
                .and_then(|t| t.strip_prefix("trials "))
                .expect("trials");
            let wdl: Vec<u32> = trials
                .split('-')
                .map(|n| n.parse().expect("a count"))
                .collect();
            // One or two wins of three, no loss: the band of 30–70%.
            assert_eq!(wdl.len(), 3, "{line}");
            assert!((1..=2).contains(&wdl[0]) && wdl[2] == 0, "{line}");
            assert_eq!(wdl[0] + wdl[1], 3, "{line}");
            // The trials are reproducible: the same seed gives the same score.
            let pos = Position::from_fen(fen).expect("a valid position");
            let (keep, scores) = calibrate(pos, cp, &cal, &settings);
            assert!(keep, "{line}");
            assert_eq!(
                scores,
                [TrialScore {
                    wins: wdl[0],
                    draws: wdl[1],
                    losses: 0
                }]
            );
        }
        // The report adds up: every candidate tried lost, or won some number of trials;
        // only the numbers in the band were kept.
        assert_eq!(report.kept_rates.len(), 2);
        let by_wins = &report.by_wins[0];
        assert_eq!(
            report.tried[0],
            report.lost[0] + by_wins.iter().sum::<usize>()
        );
        assert_eq!(by_wins[1] + by_wins[2], 2, "{by_wins:?}");
        assert!(report.tried[0] <= report.in_band && report.in_band <= report.searched);
        assert!(text.contains("# Calibration: "), "{text}");
        assert!(text.contains("non-draw pairs"), "{text}");
        // The suite reads back as openings.
        let positions = crate::record::read_openings(&text, Rules::default()).expect("readable");
        assert_eq!(positions.len(), 2);
        // Deterministic for a seed, whatever the threads (the report too).
        let mut again = Vec::new();
        let two = Settings {
            threads: 2,
            ..settings
        };
        generate(&two, &mut again).expect("writes");
        assert_eq!(String::from_utf8(again).expect("utf-8"), text);
    }
}
