//! The person's puzzle rating: Glicko-2 (Mark Glickman, "Example of the Glicko-2
//! system", 2013), one rating period per puzzle, the puzzle being the opponent at its
//! rating with a fixed deviation. The page keeps the rating in the browser as JSON.
//! The figures are the project's one Glicko-2 (crates/glicko2) with the page's
//! constants (`SYSTEM`); only the names of the JSON are this file's.

use jungle_glicko2::{Outcome, System};
use serde::{Deserialize, Serialize};

/// The rating everyone starts at.
pub const START: Rating = Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};
/// The system constant τ: how fast the volatility may change (Glickman suggests 0.3
/// to 1.2).
pub const TAU: f64 = 0.5;
/// A person's deviation never drops below this, so the rating keeps following them.
pub const MIN_DEVIATION: f64 = 45.0;
/// … and never rises above the start's.
pub const MAX_DEVIATION: f64 = 350.0;
/// The deviation given to every shipped puzzle's rating (its calibration is an
/// estimate, not a measurement against people).
pub const PUZZLE_DEVIATION: f64 = 100.0;

/// The page's constants for the project's one Glicko-2 (crates/glicko2): no bounds
/// on the rating or the volatility, the deviation within `MIN_DEVIATION`–`MAX_DEVIATION`.
pub const SYSTEM: System = System {
    start: glicko(START),
    tau: TAU,
    min_rd: MIN_DEVIATION,
    max_rd: MAX_DEVIATION,
    max_volatility: f64::MAX,
    min_rating: f64::MIN,
    max_rating: f64::MAX,
};

/// A Glicko-2 rating on the Glicko scale, as the page keeps it (its JSON's names).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    /// RD.
    pub deviation: f64,
    /// σ.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        START
    }
}

/// One game of a rating period: the opponent and the score (1 win, ½ draw, 0 loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedResult {
    pub opponent: Rating,
    pub score: f64,
}

const fn glicko(r: Rating) -> jungle_glicko2::Rating {
    jungle_glicko2::Rating {
        rating: r.rating,
        rd: r.deviation,
        vol: r.volatility,
    }
}

impl Rating {
    /// The rating after one rating period with `games`, with the system constant
    /// `tau` (Glickman's steps 1–8; no games: only the deviation grows), the
    /// deviation within `MIN_DEVIATION`–`MAX_DEVIATION`.
    pub fn updated(self, games: &[RatedResult], tau: f64) -> Rating {
        let games: Vec<Outcome> = games
            .iter()
            .map(|g| Outcome {
                opponent: glicko(g.opponent),
                score: g.score,
            })
            .collect();
        let r = System { tau, ..SYSTEM }.update(glicko(self), &games, 1.0);
        Rating {
            rating: r.rating,
            deviation: r.rd,
            volatility: r.vol,
        }
    }

    /// The rating after one puzzle rated `puzzle_rating`, solved or not (the puzzle's
    /// deviation is `PUZZLE_DEVIATION`, τ is `TAU`; the deviation is kept within
    /// `MIN_DEVIATION`–`MAX_DEVIATION`).
    pub fn after_puzzle(self, puzzle_rating: f64, solved: bool) -> Rating {
        let game = RatedResult {
            opponent: Rating {
                rating: puzzle_rating,
                deviation: PUZZLE_DEVIATION,
                volatility: START.volatility,
            },
            score: if solved { 1.0 } else { 0.0 },
        };
        self.updated(&[game], TAU)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won),
        // 1550/100 (lost) and 1700/300 (lost), τ = 0.5.
        let games = [
            RatedResult {
                opponent: rating(1400.0, 30.0),
                score: 1.0,
            },
            RatedResult {
                opponent: rating(1550.0, 100.0),
                score: 0.0,
            },
            RatedResult {
                opponent: rating(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let r = rating(1500.0, 200.0).updated(&games, 0.5);
        assert!((r.rating - 1464.06).abs() < 0.01, "{r:?}");
        assert!((r.deviation - 151.52).abs() < 0.01, "{r:?}");
        assert!((r.volatility - 0.05999).abs() < 0.00001, "{r:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let r = rating(1500.0, 200.0).updated(&[], 0.5);
        assert_eq!(r.rating, 1500.0);
        assert!(r.deviation > 200.0 && r.deviation < 201.0, "{r:?}");
    }

    #[test]
    fn solving_raises_failing_lowers_and_harder_puzzles_count_more() {
        let start = START;
        let up_easy = start.after_puzzle(1200.0, true);
        let up_hard = start.after_puzzle(1800.0, true);
        let down = start.after_puzzle(1500.0, false);
        assert!(up_easy.rating > 1500.0 && up_hard.rating > up_easy.rating);
        assert!(down.rating < 1500.0);
        assert!(up_easy.deviation < start.deviation);
        // Many puzzles at the person's rating: the deviation settles where one
        // puzzle's information balances the volatility (about 61), above its floor.
        let mut r = start;
        for i in 0..200 {
            r = r.after_puzzle(r.rating, i % 2 == 0);
        }
        let settled = r.after_puzzle(r.rating, true).after_puzzle(r.rating, false);
        assert!(
            (settled.deviation - r.deviation).abs() < 1.0,
            "{r:?} {settled:?}"
        );
        assert!(r.deviation >= MIN_DEVIATION && r.deviation < 100.0, "{r:?}");
        let json = serde_json::to_string(&r).expect("serialises");
        assert_eq!(serde_json::from_str::<Rating>(&json).expect("reads"), r);
    }

    /// The figures of the page's rating before it used the shared Glicko-2 (the
    /// board app's own copy, up to commit d234df2): the same to 1e-9.
    #[test]
    fn the_figures_are_those_of_the_page_before() {
        let expected = [
            (1572.4857942129968, 285.8810786337368, 0.05999903453084911),
            (1502.313053466825, 239.48690603525688, 0.05999784487262816),
            (1611.664934764316, 200.28673833250946, 0.05999717993108109),
            (1615.9234999606474, 198.24761587256714, 0.05999695254598195),
            (1613.0790633591066, 196.98702820192284, 0.05999679551636065),
            (1672.0326959630313, 175.29138332187426, 0.05999552854099085),
            (1711.9519417527044, 161.16347307768703, 0.05999412849462005),
            (1569.8266550036592, 161.2567822431034, 0.06000618080198153),
        ];
        let puzzles = [1200.0, 1800.0, 1500.0, 900.0, 2400.0, 1500.0, 1500.0, 700.0];
        let mut r = START;
        for (i, (p, want)) in puzzles.iter().zip(expected).enumerate() {
            r = r.after_puzzle(*p, i % 3 != 1);
            let got = (r.rating, r.deviation, r.volatility);
            assert!(
                (got.0 - want.0).abs() < 1e-9
                    && (got.1 - want.1).abs() < 1e-9
                    && (got.2 - want.2).abs() < 1e-12,
                "puzzle {i}: {got:?} {want:?}"
            );
        }
    }
}
