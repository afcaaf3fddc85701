//! Texel tuning of the evaluation weights from game outcomes.
//!
//! Positions are taken from recorded games (`jungle match --pgn`), each labelled with
//! the game's result from Red's view (1, ½, 0). The tuner fits the win probability
//! `sigmoid(K · eval / 400)` to the labels: it first finds the scale `K` that best fits
//! the current weights, then improves the weights one at a time by local search
//! (±step, halving the step when no weight moves) on the mean squared error.

use super::quiet::is_quiet;
use crate::board::{Color, Position};
use crate::eval::{evaluate_with, Weights};
use crate::game::{GameResult, Rules};
use crate::record::{read_records, replay, ReadGame};
use rayon::prelude::*;
use std::io::{self, Write};

/// A position with its game's result from Red's view.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub position: Position,
    pub result: f64,
}

#[derive(Clone, Debug)]
pub struct Settings {
    /// Plies skipped at the start of each game (the opening suite's moves).
    pub skip_plies: usize,
    /// Passes of local search over all weights.
    pub passes: usize,
    /// Keep every n-th distinct game out of the fit and report its error (0: none).
    pub holdout: usize,
    pub rules: Rules,
    /// Start from `Weights::HAND_SET` instead of the engine's weights.
    pub from_hand_set: bool,
    /// Also write the tuned weights as Rust source to this file.
    pub rust_file: Option<String>,
    /// The command that ran the tuning (recorded in the Rust source).
    pub command_line: String,
}

/// Labelled quiet positions (`is_quiet`) of the recorded games, from the ply
/// `skip_plies` on, while the game is not over.
pub fn samples(games: &[ReadGame], settings: &Settings) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let result = match g.result.and_then(|r| r.score_of(Color::Red)) {
            Some(score) => score,
            None => {
                return Err(format!(
                    "game {}: no result (1-0, 0-1 or 1/2-1/2) after the moves",
                    i + 1
                ))
            }
        };
        replay(g).map_err(|e| format!("game {}: {e}", i + 1))?;
        let mut game = crate::game::Game::with_rules(g.start, settings.rules);
        for (ply, m) in g.moves.iter().enumerate() {
            let pos = *game.position();
            if ply >= settings.skip_plies
                && game.result() == GameResult::Ongoing
                && is_quiet(&pos, settings.rules)
            {
                out.push(Sample {
                    position: pos,
                    result,
                });
            }
            game.play_text(m)
                .map_err(|e| format!("game {}: {e}", i + 1))?;
        }
    }
    Ok(out)
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared error of the predicted results. Computed in parallel over fixed
/// chunks whose sums are added in order, so the result does not depend on the number
/// of threads (tuning runs are reproducible).
pub fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    let chunk_sums: Vec<f64> = samples
        .par_chunks(4096)
        .map(|chunk| chunk.iter().map(|s| squared_error(s, w, k)).sum())
        .collect();
    chunk_sums.iter().sum::<f64>() / samples.len().max(1) as f64
}

fn squared_error(s: &Sample, w: &Weights, k: f64) -> f64 {
    let stm = evaluate_with(&s.position, w) as f64;
    let red = if s.position.side_to_move() == Color::Red {
        stm
    } else {
        -stm
    };
    let d = s.result - sigmoid(k, red);
    d * d
}

/// The scale K that best fits the weights (golden-section search on [0.01, 5]: the
/// tuned evaluation is large, and its best K fell below 0.1).
pub fn best_k(samples: &[Sample], w: &Weights) -> f64 {
    let (mut lo, mut hi) = (0.01f64, 5.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn log_changes(old: &[i32], new: &[i32], log: &mut impl Write) -> io::Result<()> {
    for (name, (o, n)) in Weights::names().iter().zip(old.iter().zip(new)) {
        if o != n {
            writeln!(log, "{name}: {o} -> {n}")?;
        }
    }
    Ok(())
}

/// Tunes the weights; reports progress to `log`. Returns the tuned weights and the
/// scale K fitted to the start weights (the error is measured with it).
pub fn tune(
    samples: &[Sample],
    start: &Weights,
    settings: &Settings,
    log: &mut impl Write,
) -> io::Result<(Weights, f64)> {
    let k = best_k(samples, start);
    let mut params = start.params();
    let mut best = error(samples, start, k);
    writeln!(log, "samples {} K {k:.4} error {best:.6}", samples.len())?;
    let mut step = 8;
    for pass in 0..settings.passes {
        let mut improved = false;
        for i in 0..params.len() {
            for delta in [step, -step] {
                let mut trial = params.clone();
                trial[i] += delta;
                let Some(w) = Weights::from_params(&trial) else {
                    continue;
                };
                let e = error(samples, &w, k);
                if e < best {
                    best = e;
                    params = trial;
                    improved = true;
                    break;
                }
            }
        }
        writeln!(log, "pass {} step {step} error {best:.6}", pass + 1)?;
        if !improved {
            if step == 1 {
                break;
            }
            step /= 2;
        }
    }
    let tuned = Weights::from_params(&params).unwrap_or(*start);
    log_changes(&start.params(), &params, log)?;
    Ok((tuned, k))
}

/// Reads record files and tunes; prints the tuned parameters as `name value` lines,
/// and with `rust_file` also writes them as the Rust source of `eval/weights.rs`.
pub fn run(files: &[String], settings: &Settings, out: &mut impl Write) -> Result<(), String> {
    let mut games = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
        games.extend(read_records(&text, settings.rules).map_err(|e| format!("{f}: {e}"))?);
    }
    let total = games.len();
    let games = distinct_games(games);
    writeln!(out, "games {total}, distinct {}", games.len()).map_err(|e| e.to_string())?;
    let (games, held) = split_holdout(games, settings.holdout);
    let held_samples = samples(&held, settings)?;
    let samples = samples(&games, settings)?;
    if samples.is_empty() {
        return Err(format!(
            "no positions to tune on ({} games left after --holdout {})",
            games.len(),
            settings.holdout
        ));
    }
    // Open the output now: a bad path is reported before minutes of tuning.
    let mut rust_out = match &settings.rust_file {
        Some(path) => Some((
            path,
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", crate::text::quote(path)))?,
        )),
        None => None,
    };
    let mut log = Tee {
        out: &mut *out,
        copy: Vec::new(),
    };
    let start = if settings.from_hand_set {
        Weights::HAND_SET
    } else {
        Weights::DEFAULT
    };
    let (tuned, k) = tune(&samples, &start, settings, &mut log).map_err(|e| e.to_string())?;
    if !held_samples.is_empty() {
        writeln!(
            log,
            "holdout: {} games, {} samples, error {:.6} -> {:.6}",
            held.len(),
            held_samples.len(),
            error(&held_samples, &start, k),
            error(&held_samples, &tuned, k)
        )
        .map_err(|e| e.to_string())?;
    }
    let log = log.copy;
    writeln!(out, "# tuned weights (Weights::params order)").map_err(|e| e.to_string())?;
    for (name, v) in Weights::names().iter().zip(tuned.params()) {
        writeln!(out, "{name} {v}").map_err(|e| e.to_string())?;
    }
    if let Some((path, file)) = rust_out.as_mut() {
        let summary = String::from_utf8_lossy(&log);
        let first = summary.lines().next().unwrap_or_default();
        let last = summary
            .lines()
            .rfind(|l| l.starts_with("pass"))
            .unwrap_or_default();
        let mut provenance = format!("{}\n{first}\n{last}", settings.command_line);
        if let Some(h) = summary.lines().find(|l| l.starts_with("holdout")) {
            provenance = format!("{provenance}\n{h}");
        }
        file.write_all(rust_source(&tuned, &provenance).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", crate::text::quote(path)))?;
    }
    Ok(())
}

/// Every `n`-th game is kept out of the fit, to measure overfitting (none for 0):
/// returns (games to fit, held-out games).
fn split_holdout(games: Vec<ReadGame>, n: usize) -> (Vec<ReadGame>, Vec<ReadGame>) {
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (i, g) in games.into_iter().enumerate() {
        if n > 0 && i % n == n - 1 {
            held.push(g);
        } else {
            fit.push(g);
        }
    }
    (fit, held)
}

/// The games without repeats (same start, same moves): self-play of one deterministic
/// engine at a fixed node count plays each opening's colour-swapped pair identically,
/// and a repeated game would only count its positions twice.
fn distinct_games(games: Vec<ReadGame>) -> Vec<ReadGame> {
    let mut seen = ahash::AHashSet::new();
    games
        .into_iter()
        .filter(|g| seen.insert((g.start.key(), g.moves.clone())))
        .collect()
}

/// Writes through to `out` and keeps a copy.
struct Tee<'a, W: Write> {
    out: &'a mut W,
    copy: Vec<u8>,
}

impl<W: Write> Write for Tee<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.copy.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The Rust source of `crates/core/src/eval/weights.rs` holding `weights` (run `cargo fmt` after).
pub fn rust_source(weights: &Weights, provenance: &str) -> String {
    let mut s = String::from(
        "//! The evaluation weights, written by `jungle tune --rust` (then `cargo fmt`).\n//!\n",
    );
    for line in provenance.lines() {
        s.push_str(&format!("//! {line}\n"));
    }
    s.push_str("//!\n//! How the record files were made, and the match that accepted these weights:\n//! CHANGES.md.\n");
    s.push_str("\nuse super::Weights;\n\n/// Weights tuned from self-play games (see the module header).\n");
    s.push_str(&format!("pub const TUNED: Weights = {weights:#?};\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_games_count_once_and_the_rust_source_holds_the_weights() {
        let game = |n: u32, moves: &str| {
            format!(
                "[Game \"{n}\"]\n[Red \"a\"]\n[Blue \"b\"]\n[Result \"1/2-1/2\"]\n[FEN \"{}\"]\n\n{moves} 1/2-1/2\n\n",
                crate::board::START_FEN
            )
        };
        let text = game(1, "1. a3a4 a7a6") + &game(2, "1. a3a4 a7a6") + &game(3, "1. a3a4 g7g6");
        let games = read_records(&text, Rules::default()).expect("valid records");
        assert_eq!(games.len(), 3);
        let distinct = distinct_games(games);
        assert_eq!(distinct.len(), 2);
        assert_eq!(distinct[1].moves, vec!["a3a4", "g7g6"]);
        let (fit, held) = split_holdout(distinct.clone(), 2);
        assert_eq!((fit.len(), held.len()), (1, 1));
        assert_eq!(held[0].moves, vec!["a3a4", "g7g6"]);
        assert_eq!(split_holdout(distinct, 0).1.len(), 0);

        let src = rust_source(&Weights::HAND_SET, "jungle tune x.txt\nsamples 1");
        assert!(src.starts_with("//! The evaluation weights, written by `jungle tune --rust`"));
        assert!(src.contains("//! jungle tune x.txt\n//! samples 1\n"));
        assert!(src.contains("pub const TUNED: Weights = Weights {"));
        assert!(src.contains(&format!("mobility: {},", Weights::HAND_SET.mobility)));
    }

    #[test]
    fn the_fit_prefers_weights_that_predict_the_results() {
        // Red wins every game in which Red has an extra lion: tuning must not lower the
        // lion's value, and the error must not grow.
        let up = Position::from_fen("l6/7/7/7/7/7/7/2L4/T5E r").expect("valid");
        let even = Position::from_fen("l6/7/7/7/7/7/7/7/6L r").expect("valid");
        let samples = vec![
            Sample {
                position: up,
                result: 1.0,
            },
            Sample {
                position: even,
                result: 0.5,
            },
        ];
        let settings = Settings {
            skip_plies: 0,
            passes: 3,
            holdout: 0,
            rules: Rules::default(),
            from_hand_set: false,
            rust_file: None,
            command_line: String::new(),
        };
        let start = Weights::DEFAULT;
        let k = best_k(&samples, &start);
        assert!(k > 0.01 && k < 5.0);
        let before = error(&samples, &start, k);
        let (tuned, _) = tune(&samples, &start, &settings, &mut Vec::new()).expect("tunes");
        assert!(error(&samples, &tuned, k) <= before);
    }
}
