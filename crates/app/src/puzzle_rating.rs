//! The person's puzzle rating: Glicko-2 (Mark Glickman, "Example of the Glicko-2
//! system", 2013), one rating period per puzzle, the puzzle being the opponent at its
//! rating with a fixed deviation. The page keeps the rating in the browser as JSON.

use serde::{Deserialize, Serialize};

/// Glicko-2's scale factor between the Glicko scale and its own.
const SCALE: f64 = 173.7178;
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
/// Convergence of the volatility's iteration.
const EPSILON: f64 = 0.000_001;

/// A Glicko-2 rating on the Glicko scale.
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

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// The rating after one rating period with `games`, with the system constant
    /// `tau` (Glickman's steps 1–8; no games: only the deviation grows).
    pub fn updated(self, games: &[RatedResult], tau: f64) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: phi_star * SCALE,
                ..self
            };
        }
        // Steps 3 and 4: the estimated variance and improvement.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - 1500.0) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            inv_v += g(phi_j).powi(2) * e * (1.0 - e);
            sum += g(phi_j) * (game.score - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: the new volatility (the Illinois algorithm).
        let sigma_new = new_volatility(delta, phi, v, sigma, tau);
        // Steps 6 to 8.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating {
            rating: mu_new * SCALE + 1500.0,
            deviation: phi_new * SCALE,
            volatility: sigma_new,
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
        let mut r = self.updated(&[game], TAU);
        r.deviation = r.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION);
        r
    }
}

/// Glickman's step 5: σ' from Δ, φ, v, σ and τ.
fn new_volatility(delta: f64, phi: f64, v: f64, sigma: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut rounds = 0;
    while (big_b - big_a).abs() > EPSILON && rounds < 1000 {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
        rounds += 1;
    }
    (big_a / 2.0).exp()
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
}
