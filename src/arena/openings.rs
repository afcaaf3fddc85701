//! The opening suite: short random lines from the start position, kept only when a
//! fixed-depth search scores them near equal. `jungle openings` regenerates the
//! suite shipped in `openings.txt` (same seed, same file).

use crate::board::Position;
use crate::game::{Game, GameResult, Rules};
use crate::search::search::SharedState;
use crate::search::{Engine, Limits, Score};
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
    let mut rng = Rng(settings.seed.max(1));
    let (kept, flag) = if settings.min_margin > 0 {
        (
            format!("between {} and {}", settings.min_margin, settings.margin),
            format!(" --min-margin {}", settings.min_margin),
        )
    } else {
        (format!("within {}", settings.margin), String::new())
    };
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
    while written < settings.count && attempts < settings.count * 200 {
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
                writeln!(out, "{} ; eval {cp}", game.position().to_fen())?;
                written += 1;
            }
        }
    }
    out.flush()?;
    Ok(written)
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
        };
        let mut out = Vec::new();
        let err = generate(&empty, &mut out).expect_err("refused");
        assert!(err
            .to_string()
            .contains("--min-margin 100 is above --margin 50"));
        assert!(out.is_empty());
    }
}
