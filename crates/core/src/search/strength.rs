//! Weaker play for people: `Skill Level` below 20, or `UCI_LimitStrength` with
//! `UCI_Elo`. A weakened search stops at a small depth, looks at several root moves
//! (`MultiPV`), and picks one at random with the softmax rule
//! `P(move) ∝ exp((score − best score) / T)`: the higher the temperature `T`, the more
//! often a worse move is played; at `T = 0` the best move is.
//!
//! The rows of `LEVELS` were measured in games (`jungle match`, protocol.md has the
//! commands and the table): the Elo scale puts the one-ply greedy player
//! (`jungle greedy`) at 1000. An Elo between two rows plays a whole game with the
//! stronger row's settings with probability proportional to the distance (drawn once
//! a game, at `ucinewgame`), so the expected score moves smoothly between the measured
//! points. A draw for each move instead was not linear: 18% of a beginner's moves
//! cost as much as the other 82% of the next row's gained (protocol.md).

use super::beginner::{Beginner, Profile};
use super::limits::SearchOptions;
use super::score::{mate_in, INFINITE};
use super::search::RootMove;
use crate::board::{Move, MoveRules, Position};
use crate::rng::Rng;

/// One measured setting: its Elo, the search depth (0 = no limit) and the softmax
/// temperature in centipawns, or for the weakest rows the beginner's attention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub elo: u32,
    pub depth: i32,
    pub temperature: i32,
    /// `Some`: the move is the beginner's (`beginner.rs`) with these gaps; the search
    /// (depth 1) only reports.
    pub beginner: Option<Profile>,
}

/// Measured settings, weakest first; the last row is full strength (protocol.md,
/// "Strength levels", has the matches; `scripts/calibrate-levels.sh` measures them).
pub const LEVELS: [Level; 10] = [
    Level {
        elo: 969,
        depth: 1,
        temperature: 0,
        beginner: Some(Profile {
            attention: 10,
            sight: 50,
            confusion: 7,
        }),
    },
    Level {
        elo: 1122,
        depth: 1,
        temperature: 600,
        beginner: None,
    },
    Level {
        elo: 1232,
        depth: 1,
        temperature: 300,
        beginner: None,
    },
    Level {
        elo: 1326,
        depth: 1,
        temperature: 150,
        beginner: None,
    },
    Level {
        elo: 1465,
        depth: 1,
        temperature: 60,
        beginner: None,
    },
    Level {
        elo: 1640,
        depth: 2,
        temperature: 30,
        beginner: None,
    },
    Level {
        elo: 1767,
        depth: 3,
        temperature: 20,
        beginner: None,
    },
    Level {
        elo: 1906,
        depth: 5,
        temperature: 10,
        beginner: None,
    },
    Level {
        elo: 1946,
        depth: 8,
        temperature: 0,
        beginner: None,
    },
    Level {
        elo: 1976,
        depth: 0,
        temperature: 0,
        beginner: None,
    },
];

/// The range of `UCI_Elo`: the weakest row to full strength.
pub const ELO_MIN: u32 = LEVELS[0].elo;
pub const ELO_MAX: u32 = LEVELS[LEVELS.len() - 1].elo;

/// Scores beyond this are clamped before the softmax, so a forced win is very likely
/// but not certain to be taken by the weakest settings (a win at once always is:
/// `choice_weights`).
const SCORE_CAP: i32 = 3000;

/// The weakening of one search (drawn once per search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Maximum depth (0: no limit).
    pub depth: i32,
    pub temperature: i32,
    /// The beginner's profile, when the beginner chooses the move.
    pub beginner: Option<Profile>,
    seed: u64,
}

impl Strength {
    /// Full strength: no limit, the best move.
    pub const FULL: Strength = Strength {
        depth: 0,
        temperature: 0,
        beginner: None,
        seed: 1,
    };

    /// The Elo the options ask for, if they ask for less than full strength.
    pub fn target_elo(options: &SearchOptions) -> Option<u32> {
        if let Some(elo) = options.limit_elo {
            return (elo < ELO_MAX).then_some(elo.max(ELO_MIN));
        }
        (options.skill_level < 20).then(|| skill_level_elo(options.skill_level))
    }

    /// The weakening for `options` in the game of `game_seed`, with this search's
    /// random choices from `seed`.
    pub fn for_options(options: &SearchOptions, game_seed: u64, seed: u64) -> Strength {
        match Strength::target_elo(options) {
            None => Strength::FULL,
            Some(elo) => Strength::at_elo(elo, game_seed, seed),
        }
    }

    /// The settings for `elo`: between two measured rows, the stronger row's with
    /// probability proportional to the distance from the weaker one, drawn from
    /// `game_seed` (the same row for every search of a game); the move's own random
    /// choices come from `seed`.
    pub fn at_elo(elo: u32, game_seed: u64, seed: u64) -> Strength {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        let upper = LEVELS
            .iter()
            .position(|l| l.elo >= elo)
            .unwrap_or(LEVELS.len() - 1);
        let row = if upper == 0 || LEVELS[upper].elo == elo {
            LEVELS[upper]
        } else {
            let (lo, hi) = (LEVELS[upper - 1], LEVELS[upper]);
            let roll = Rng::new(game_seed ^ 0x5EED).unit() * f64::from(hi.elo - lo.elo);
            if roll < f64::from(elo - lo.elo) {
                hi
            } else {
                lo
            }
        };
        Strength {
            depth: row.depth,
            temperature: row.temperature,
            beginner: row.beginner,
            seed: Rng::new(seed).next_u64(),
        }
    }

    /// True when this search is weakened at all.
    pub fn enabled(self) -> bool {
        self.depth > 0 || self.temperature > 0 || self.beginner.is_some()
    }

    /// Root moves to score so the choice has something to choose from: every move at
    /// small depths (a beginner's blunders must be possible), a few at larger ones.
    pub fn multipv(self, asked: usize) -> usize {
        if self.temperature == 0 {
            asked
        } else if self.depth > 0 && self.depth <= 3 {
            asked.max(64)
        } else {
            asked.max(6)
        }
    }

    /// Index into `root_moves` (sorted best first) of the move to play, among the
    /// first `lines` (the ones scored exactly).
    /// `pos` is the position searched; the beginner chooses among all root moves.
    pub fn pick<R: MoveRules>(
        self,
        pos: &Position,
        root_moves: &[RootMove],
        lines: usize,
    ) -> usize {
        if let Some(profile) = self.beginner {
            let moves: Vec<Move> = root_moves.iter().map(|rm| rm.mv).collect();
            let seed = Rng::new(self.seed ^ 0xBE61).next_u64();
            return Beginner { profile, seed }.choose::<R>(pos, &moves);
        }
        if self.temperature <= 0 {
            return 0;
        }
        let n = lines.min(root_moves.len()).max(1);
        let scores: Vec<i32> = root_moves[..n].iter().map(|rm| rm.score).collect();
        let weights = choice_weights(self.temperature, &scores);
        let total: f64 = weights.iter().sum();
        let mut x = Rng::new(self.seed).unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        0
    }
}

/// The softmax weights of root moves scored `scores` (best first, the search's
/// scale) at `temperature` (> 0): `exp((score − best) / T)` after clamping every
/// score to ±`SCORE_CAP`; a move never scored (`-INFINITE`) weighs nothing. A move is
/// played with probability its weight over the sum (the puzzles' difficulty uses the
/// same weights). A win at once is always taken: when the best move wins with this
/// move (entering the den, taking the last animal, leaving no move), only such moves
/// weigh, as anyone who has learnt the rules takes it; the clamp would otherwise
/// weigh it as any slower forced win.
pub fn choice_weights(temperature: i32, scores: &[i32]) -> Vec<f64> {
    let at_once = |s: i32| s >= mate_in(1);
    if scores.first().is_some_and(|&s| at_once(s)) {
        return scores
            .iter()
            .map(|&s| if at_once(s) { 1.0 } else { 0.0 })
            .collect();
    }
    let scored = |s: i32| s.clamp(-SCORE_CAP, SCORE_CAP);
    let top = scores.first().map_or(0, |&s| scored(s));
    scores
        .iter()
        .map(|&s| {
            if s <= -INFINITE {
                0.0
            } else {
                (f64::from(scored(s) - top) / f64::from(temperature.max(1))).exp()
            }
        })
        .collect()
}

/// `Skill Level` 0–19 on the same scale: level 0 the weakest row, evenly up to full
/// strength at 20.
pub fn skill_level_elo(level: u32) -> u32 {
    ELO_MIN + (ELO_MAX - ELO_MIN) * level.min(20) / 20
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Square, Standard};

    fn root(scores: &[i32]) -> Vec<RootMove> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let file = i as u8 % 7;
                let mv = Move::new(
                    Square::new(file, 0).expect("on the board"),
                    Square::new(file, 1).expect("on the board"),
                );
                RootMove {
                    mv,
                    score: s,
                    previous_score: s,
                    display_score: s,
                    bound: None,
                    seldepth: 1,
                    pv: vec![mv],
                }
            })
            .collect()
    }

    #[test]
    fn the_table_rises_and_ends_at_full_strength() {
        for pair in LEVELS.windows(2) {
            assert!(pair[0].elo < pair[1].elo, "{pair:?}");
        }
        let top = LEVELS[LEVELS.len() - 1];
        assert_eq!((top.depth, top.temperature), (0, 0));
        assert!(!Strength::at_elo(ELO_MAX, 7, 7).enabled());
        assert!(Strength::at_elo(ELO_MIN, 7, 7).enabled());
    }

    #[test]
    fn options_choose_the_strength() {
        let full = SearchOptions::default();
        assert_eq!(Strength::target_elo(&full), None);
        let skill0 = SearchOptions {
            skill_level: 0,
            ..full
        };
        assert_eq!(Strength::target_elo(&skill0), Some(ELO_MIN));
        let limited = SearchOptions {
            limit_elo: Some(ELO_MIN - 500),
            ..full
        };
        assert_eq!(Strength::target_elo(&limited), Some(ELO_MIN));
        let at_max = SearchOptions {
            limit_elo: Some(ELO_MAX),
            skill_level: 0,
            ..full
        };
        assert_eq!(
            Strength::target_elo(&at_max),
            None,
            "UCI_Elo wins over Skill Level"
        );
        assert_eq!(skill_level_elo(20), ELO_MAX);
    }

    #[test]
    fn between_two_rows_both_are_played_in_proportion() {
        let settings = |s: Strength| (s.depth, s.temperature);
        for pair in LEVELS.windows(2) {
            let (lo, hi) = (pair[0], pair[1]);
            let quarter = lo.elo + (hi.elo - lo.elo) / 4;
            let strong = (0..4000u64)
                .filter(|&g| {
                    settings(Strength::at_elo(quarter, g, 1)) == (hi.depth, hi.temperature)
                })
                .count();
            assert!((850..1150).contains(&strong), "{strong} of 4000");
            assert_eq!(
                settings(Strength::at_elo(lo.elo, 3, 1)),
                (lo.depth, lo.temperature)
            );
        }
    }

    #[test]
    fn a_game_keeps_its_row_whatever_the_search() {
        let settings = |s: Strength| (s.depth, s.temperature, s.beginner);
        let (lo, hi) = (LEVELS[0], LEVELS[1]);
        let between = (lo.elo + hi.elo) / 2;
        let mut rows_seen = Vec::new();
        for game in 0..64u64 {
            let first = settings(Strength::at_elo(between, game, 0));
            if !rows_seen.contains(&first) {
                rows_seen.push(first);
            }
            for search in 1..50u64 {
                assert_eq!(
                    settings(Strength::at_elo(between, game, search)),
                    first,
                    "game {game}, search {search}"
                );
            }
        }
        assert_eq!(rows_seen.len(), 2, "both rows are played, a game each");
    }

    #[test]
    fn temperature_spreads_the_choice() {
        let moves = root(&[100, 90, -500, -2000]);
        let start = Position::startpos();
        let cold = Strength {
            depth: 1,
            temperature: 0,
            beginner: None,
            seed: 5,
        };
        assert_eq!(cold.pick::<Standard>(&start, &moves, 4), 0);
        let mut counts = [0usize; 4];
        for seed in 0..2000u64 {
            let warm = Strength {
                depth: 1,
                temperature: 100,
                beginner: None,
                seed: seed * 2654435761 + 1,
            };
            counts[warm.pick::<Standard>(&start, &moves, 4)] += 1;
        }
        // exp(0) : exp(-0.1) : exp(-6) : exp(-21): the two good moves share nearly all.
        assert!(counts[0] > counts[1] && counts[1] > 700, "{counts:?}");
        assert!(counts[2] < 20 && counts[3] == 0, "{counts:?}");
        // Only the first `lines` moves are candidates.
        for seed in 0..200u64 {
            let warm = Strength {
                depth: 1,
                temperature: 10_000,
                beginner: None,
                seed: seed * 2654435761 + 1,
            };
            assert!(warm.pick::<Standard>(&start, &moves, 2) < 2);
        }
    }

    /// Even the warmest row takes a win at once (two here, shared evenly), but a
    /// slower forced win only weighs as the clamp allows.
    #[test]
    fn a_win_at_once_is_always_taken() {
        let once = mate_in(1);
        let weights = choice_weights(600, &[once, once, mate_in(3), 200, -500]);
        assert_eq!(weights, vec![1.0, 1.0, 0.0, 0.0, 0.0]);
        let start = Position::startpos();
        let moves = root(&[once, mate_in(3), mate_in(5), 0]);
        for seed in 0..500u64 {
            let warm = Strength {
                depth: 1,
                temperature: 600,
                beginner: None,
                seed: seed * 2654435761 + 1,
            };
            assert_eq!(warm.pick::<Standard>(&start, &moves, 4), 0);
        }
        // Slower wins are clamped alike: a win in 3 and one in 5 weigh the same.
        let slower = choice_weights(600, &[mate_in(3), mate_in(5), 0]);
        assert_eq!(slower[0], slower[1]);
        assert!(slower[2] > 0.0 && slower[2] < 0.01, "{slower:?}");
    }
}
