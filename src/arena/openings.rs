//! The opening suite: short random lines from the start position, kept only when a
//! fixed-depth search scores them near equal (or, for an unbalanced suite, in a band
//! away from equal, and optionally only when a self-play game from the position is
//! won by the side the search favours). `jungle openings` regenerates the suites
//! shipped in `openings.txt` and `books/unbalanced.txt` (same command, same file).

use crate::board::Position;
use crate::game::{Game, GameResult, Rules};
use crate::nnue::EvalKind;
use crate::search::search::SharedState;
use crate::search::{Engine, Limits, Score};
use rayon::prelude::*;
use std::io::{self, Write};

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
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// Writes `settings.count` balanced positions, one per line with a comment header.
pub fn generate(settings: &Settings, out: &mut impl Write) -> io::Result<usize> {
    if settings.min_margin > settings.margin {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--min-margin {} is above --margin {}: no score can lie between them",
                settings.min_margin, settings.margin
            ),
        ));
    }
    let mut engine = Engine::new(16).map_err(|e| io::Error::other(e.to_string()))?;
    engine.options.report = false;
    engine.options.eval = settings.eval;
    let mut rng = Rng(settings.seed.max(1));
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
    let mut seen = std::collections::HashSet::new();
    let mut written = 0;
    let mut attempts = 0;
    let max_attempts = settings.count * 200;
    let mut candidates: Vec<(Position, i32)> = Vec::new();
    let batch = if settings.verify_nodes.is_some() {
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
        if let Score::Cp(cp) = outcome.score {
            if cp.abs() <= settings.margin && cp.abs() >= settings.min_margin {
                candidates.push((*game.position(), cp));
            }
        }
        // Without verification games each candidate is kept at once; with them, a
        // batch is verified in parallel and kept in candidate order.
        if candidates.len() >= batch {
            written += keep_verified(&mut candidates, settings, &pool, written, out)?;
        }
    }
    written += keep_verified(&mut candidates, settings, &pool, written, out)?;
    out.flush()?;
    Ok(written)
}

/// Writes the candidates that pass verification (all without it) while the suite is
/// short; empties `candidates`; returns how many were written.
fn keep_verified(
    candidates: &mut Vec<(Position, i32)>,
    settings: &Settings,
    pool: &rayon::ThreadPool,
    written: usize,
    out: &mut impl Write,
) -> io::Result<usize> {
    let verdicts: Vec<bool> = match settings.verify_nodes {
        None => vec![true; candidates.len()],
        Some(nodes) => pool.install(|| {
            candidates
                .par_iter()
                .map(|&(pos, cp)| favoured_side_wins(pos, cp, nodes, settings))
                .collect()
        }),
    };
    let mut added = 0;
    for (&(pos, cp), keep) in candidates.iter().zip(verdicts) {
        if keep && written + added < settings.count {
            writeln!(out, "{} ; eval {cp}", pos.to_fen())?;
            added += 1;
        }
    }
    candidates.clear();
    Ok(added)
}

/// True when the engine, playing both sides from `pos` at `nodes` nodes per move (one
/// thread, fresh table), wins the game for the side that `cp` (the side to move's
/// score) favours.
fn favoured_side_wins(pos: Position, cp: i32, nodes: u64, settings: &Settings) -> bool {
    let rules = settings.rules;
    let Ok(mut engine) = Engine::new(16) else {
        return false;
    };
    engine.options.report = false;
    engine.options.eval = settings.eval;
    let favoured = if cp > 0 {
        pos.side_to_move()
    } else {
        pos.side_to_move().other()
    };
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut game = Game::with_rules(pos, rules);
    while game.result() == GameResult::Ongoing {
        let shared = SharedState::new(1);
        let Some(best) = engine.search(&game, &limits, &shared, &|_| {}).best else {
            return false;
        };
        if game.play(best).is_err() {
            return false;
        }
    }
    matches!(game.result(), GameResult::Win { winner, .. } if winner == favoured)
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
}
