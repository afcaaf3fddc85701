//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): the project's one
//! implementation, used by the online server for its players' ratings and its
//! puzzles' (docs/accounts.md, docs/puzzles.md) and by the board app for the page's
//! local puzzle rating (crates/app/src/puzzle_rating.rs). No I/O and no dependencies,
//! so that the WebAssembly build of the board uses it as the server does.
//!
//! The constants are a `System`. `LICHESS`, the server's: a new player is 1500 with a
//! deviation (RD) of 500 and a volatility of 0.09, τ is 0.75, an RD over 110 is shown
//! provisional ("1500?"), the RD stays in 45–500, the volatility at most 0.1 and the
//! rating in 400–4000. The page's local puzzle rating has its own (`System` values in
//! the board app).
//!
//! The paper rates a whole rating period at once; an online server rates each game
//! as it ends, as lichess does: one game is a period of one result, and the time
//! since the player's last rated game (`RATING_PERIODS_PER_DAY` periods a day, lichess's
//! figure) first widens the RD by step 6's formula, so that a player back after
//! months is uncertain again.

/// The scale between the Glicko and the Glicko-2 figures (the paper's 173.7178).
pub const SCALE: f64 = 173.7178;
/// The rating at μ = 0 on the Glicko-2 scale (the paper's 1500), whatever a system's
/// new players start at.
const CENTRE: f64 = 1500.0;
pub const DEFAULT_RATING: f64 = 1500.0;
pub const DEFAULT_RD: f64 = 500.0;
pub const DEFAULT_VOLATILITY: f64 = 0.09;
/// The system constant τ (lichess's; the paper's example has 0.5).
pub const TAU: f64 = 0.75;
/// A rating whose RD is over this is provisional (shown with "?", left out of
/// leaderboards).
pub const PROVISIONAL_RD: f64 = 110.0;
pub const MIN_RD: f64 = 45.0;
pub const MAX_RD: f64 = 500.0;
pub const MAX_VOLATILITY: f64 = 0.1;
pub const MIN_RATING: f64 = 400.0;
pub const MAX_RATING: f64 = 4000.0;
/// Rating periods a day of inactivity (lichess's): the RD grows by step 6 with this
/// many periods for the days since the last rated game.
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;
/// The volatility iteration (step 5.4, the Illinois algorithm) stops when its
/// interval is this narrow.
pub const EPSILON: f64 = 1e-6;
/// ... or after this many steps (it converges in a handful; the bound is a guard).
pub const MAX_ITERATIONS: usize = 1000;

const MS_PER_DAY: f64 = 86_400_000.0;

/// A system's constants: where a new rating starts, τ, and the bounds every result
/// is kept within (inputs outside them are read as the nearest figure inside).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct System {
    /// A new player's rating.
    pub start: Rating,
    pub tau: f64,
    pub min_rd: f64,
    pub max_rd: f64,
    pub max_volatility: f64,
    pub min_rating: f64,
    pub max_rating: f64,
}

/// lichess's constants: the online server's players and puzzles.
pub const LICHESS: System = System {
    start: Rating {
        rating: DEFAULT_RATING,
        rd: DEFAULT_RD,
        vol: DEFAULT_VOLATILITY,
    },
    tau: TAU,
    min_rd: MIN_RD,
    max_rd: MAX_RD,
    max_volatility: MAX_VOLATILITY,
    min_rating: MIN_RATING,
    max_rating: MAX_RATING,
};

/// A rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub rd: f64,
    pub vol: f64,
}

impl Default for Rating {
    /// A new player's rating under `LICHESS`.
    fn default() -> Rating {
        LICHESS.start
    }
}

/// One game's result for the player rated: the opponent (before the game) and the
/// score, 1 a win, 0.5 a draw, 0 a loss.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    pub opponent: Rating,
    pub score: f64,
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }

    /// The rating as shown: whole points, "?" when provisional.
    pub fn display(&self) -> String {
        format!(
            "{}{}",
            self.rating.round() as i64,
            if self.provisional() { "?" } else { "" }
        )
    }

    /// μ and φ, the Glicko-2 scale (step 2).
    fn mu_phi(&self) -> (f64, f64) {
        ((self.rating - CENTRE) / SCALE, self.rd / SCALE)
    }

    /// The rating after `periods` rating periods without a game: step 6 alone (the RD
    /// grows, up to `MAX_RD`).
    pub fn idle(&self, periods: f64) -> Rating {
        LICHESS.idle(*self, periods)
    }

    /// The rating after `idle_ms` milliseconds without a rated game.
    pub fn after_idle_ms(&self, idle_ms: i64) -> Rating {
        self.idle(periods_of(idle_ms))
    }

    /// The rating after one rating period with these results under `LICHESS` with
    /// the system constant `tau` (steps 3 to 8 of the paper); `periods` is step 6's
    /// count of periods (1 in the paper; lichess's elapsed periods, possibly 0,
    /// online). No results: only the RD grows. Any input gives finite figures within
    /// the bounds.
    pub fn update(&self, results: &[Outcome], tau: f64, periods: f64) -> Rating {
        System { tau, ..LICHESS }.update(*self, results, periods)
    }
}

/// Rating periods for `ms` milliseconds (lichess's `RATING_PERIODS_PER_DAY`).
fn periods_of(ms: i64) -> f64 {
    ms.max(0) as f64 / MS_PER_DAY * RATING_PERIODS_PER_DAY
}

impl System {
    /// `me` after `periods` rating periods without a game: step 6 alone (the RD
    /// grows, up to `max_rd`).
    pub fn idle(&self, me: Rating, periods: f64) -> Rating {
        let (_, phi) = me.mu_phi();
        let periods = if periods.is_finite() {
            periods.max(0.0)
        } else {
            0.0
        };
        let phi_star = (phi * phi + periods * me.vol * me.vol).sqrt();
        Rating {
            rd: clamp(phi_star * SCALE, self.min_rd, self.max_rd, self.max_rd),
            ..me
        }
    }

    /// `me` after one rating period with these results (steps 3 to 8 of the paper);
    /// `periods` is step 6's count of periods (1 in the paper; lichess's elapsed
    /// periods, possibly 0, online). No results: only the RD grows. Any input gives
    /// finite figures within the bounds.
    pub fn update(&self, me: Rating, results: &[Outcome], periods: f64) -> Rating {
        let me = self.sane(me);
        if results.is_empty() {
            return self.idle(me, periods);
        }
        let (mu, phi) = me.mu_phi();
        // Step 3: v, the estimated variance from the results; step 4: Δ.
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for r in results {
            let (mu_j, phi_j) = self.sane(r.opponent).mu_phi();
            let g = g(phi_j);
            let e = expected(mu, mu_j, g);
            v_inv += g * g * e * (1.0 - e);
            let score = if r.score.is_nan() {
                0.5
            } else {
                r.score.clamp(0.0, 1.0)
            };
            sum += g * (score - e);
        }
        // E(1 − E) underflows only for absurd gaps, which the bounds exclude; a guard.
        let v = 1.0 / v_inv.max(1e-300);
        let delta = v * sum;
        let tau = if self.tau.is_finite() && self.tau > 0.0 {
            self.tau
        } else {
            TAU
        };
        // Step 5: the new volatility.
        let sigma = new_volatility(me.vol, delta, phi, v, tau);
        // Steps 6 and 7.
        let periods = if periods.is_finite() {
            periods.max(0.0)
        } else {
            0.0
        };
        let phi_star = (phi * phi + periods * sigma * sigma).sqrt();
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * sum;
        // Step 8, within lichess's bounds.
        Rating {
            rating: clamp(
                new_mu * SCALE + CENTRE,
                self.min_rating,
                self.max_rating,
                me.rating,
            ),
            rd: clamp(new_phi * SCALE, self.min_rd, self.max_rd, self.max_rd),
            vol: clamp(sigma, 0.0, self.max_volatility, self.start.vol),
        }
    }

    /// The figures as inputs: a figure that is not a number replaced by the start's,
    /// the rating within its bounds, the RD within 1–`max_rd` (an input may be under
    /// the floor, as the paper's opponents are; the results never are).
    fn sane(&self, r: Rating) -> Rating {
        Rating {
            rating: clamp(
                r.rating,
                self.min_rating,
                self.max_rating,
                self.start.rating,
            ),
            rd: clamp(r.rd, 1.0, self.max_rd, self.max_rd),
            vol: clamp(r.vol, 1e-6, self.max_volatility, self.start.vol),
        }
    }
}

/// `x` within `lo..=hi`; `fallback` when it is not a number.
fn clamp(x: f64, lo: f64, hi: f64, fallback: f64) -> f64 {
    if x.is_nan() {
        fallback
    } else {
        x.clamp(lo, hi)
    }
}

/// The paper's g(φ).
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The paper's E(μ, μj, φj), with g(φj) given.
fn expected(mu: f64, mu_j: f64, g: f64) -> f64 {
    1.0 / (1.0 + (-g * (mu - mu_j)).exp())
}

/// Step 5: the volatility σ' by the Illinois algorithm (regula falsi with the
/// Illinois step) on f(x), x = ln σ'², to `EPSILON`.
fn new_volatility(sigma: f64, delta: f64, phi: f64, v: f64, tau: f64) -> f64 {
    volatility_iteration(sigma, delta, phi, v, tau).0
}

/// The volatility and the number of steps taken.
fn volatility_iteration(sigma: f64, delta: f64, phi: f64, v: f64, tau: f64) -> (f64, usize) {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    // Step 5.2: the bracket [A, B].
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
    // Step 5.3 and 5.4.
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut steps = 0;
    while (big_b - big_a).abs() > EPSILON && steps < MAX_ITERATIONS {
        steps += 1;
        let denominator = f_b - f_a;
        if denominator == 0.0 || !denominator.is_finite() {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / denominator;
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    if sigma_new.is_finite() {
        (sigma_new, steps)
    } else {
        (sigma, steps)
    }
}

/// A rated game's two updates, red's and blue's: `red_score` 1, 0.5 or 0, each
/// player's rating first widened by the time since their last rated game.
pub fn game(
    red: Rating,
    red_idle_ms: i64,
    blue: Rating,
    blue_idle_ms: i64,
    red_score: f64,
) -> (Rating, Rating) {
    let (pr, pb) = (periods_of(red_idle_ms), periods_of(blue_idle_ms));
    // Each is rated against the other's figures as they stood, widened the same way.
    let (red_now, blue_now) = (red.idle(pr), blue.idle(pb));
    let red_after = red.update(
        &[Outcome {
            opponent: blue_now,
            score: red_score,
        }],
        TAU,
        pr,
    );
    let blue_after = blue.update(
        &[Outcome {
            opponent: red_now,
            score: 1.0 - red_score,
        }],
        TAU,
        pb,
    );
    (red_after, blue_after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, rd: f64) -> Rating {
        Rating {
            rating,
            rd,
            vol: DEFAULT_VOLATILITY,
        }
    }

    /// The paper's example: 1500/200/0.06, τ 0.5, against 1400/30, 1550/100 and
    /// 1700/300 with a win and two losses: 1464.06, 151.52, 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Rating {
            rating: 1500.0,
            rd: 200.0,
            vol: 0.06,
        };
        let results = [
            Outcome {
                opponent: Rating {
                    rating: 1400.0,
                    rd: 30.0,
                    vol: 0.06,
                },
                score: 1.0,
            },
            Outcome {
                opponent: Rating {
                    rating: 1550.0,
                    rd: 100.0,
                    vol: 0.06,
                },
                score: 0.0,
            },
            Outcome {
                opponent: Rating {
                    rating: 1700.0,
                    rd: 300.0,
                    vol: 0.06,
                },
                score: 0.0,
            },
        ];
        let after = player.update(&results, 0.5, 1.0);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.vol - 0.05999).abs() < 0.00001, "{after:?}");
        // The paper's intermediate figures: v = 1.7785, Δ = −0.4834.
        let (mu, phi) = player.mu_phi();
        assert!((mu - 0.0).abs() < 1e-12 && (phi - 1.1513).abs() < 1e-4);
    }

    /// The iteration converges in a few steps to the paper's σ' (0.05999) and meets
    /// its tolerance.
    #[test]
    fn the_volatility_iteration_converges() {
        // The paper's v and Δ for its example.
        let (sigma, steps) = volatility_iteration(0.06, -0.4834, 1.1513, 1.7785, 0.5);
        assert!((sigma - 0.05999).abs() < 1e-5, "{sigma}");
        assert!(steps > 0 && steps < 20, "{steps} steps");
        // Far from the start too: a huge surprise, and a tiny one.
        for (delta, phi, v) in [(50.0, 0.3, 0.1), (1e-9, 2.8, 1.0), (-30.0, 0.26, 400.0)] {
            let (s, steps) = volatility_iteration(0.09, delta, phi, v, TAU);
            assert!(s.is_finite() && s > 0.0, "{s}");
            assert!(steps < 100, "{steps} steps for Δ {delta}");
        }
    }

    #[test]
    fn a_draw_between_equals_moves_no_rating_and_narrows_both() {
        let (a, b) = game(r(1500.0, 200.0), 0, r(1500.0, 200.0), 0, 0.5);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(a.rd < 200.0 && (a.rd - b.rd).abs() < 1e-9);
        // A draw against a stronger player gains.
        let (weak, strong) = game(r(1400.0, 100.0), 0, r(1700.0, 100.0), 0, 0.5);
        assert!(weak.rating > 1400.0 && strong.rating < 1700.0);
    }

    /// Equal RDs: the winner gains what the loser loses.
    #[test]
    fn a_win_between_equal_deviations_is_symmetric() {
        for (ra, rb) in [(1500.0, 1500.0), (1600.0, 1450.0), (2100.0, 1200.0)] {
            let (a, b) = game(r(ra, 80.0), 0, r(rb, 80.0), 0, 1.0);
            let gain = a.rating - ra;
            let loss = rb - b.rating;
            assert!(gain > 0.0 && (gain - loss).abs() < 1e-6, "{gain} {loss}");
            assert!((a.rd - b.rd).abs() < 1e-9);
        }
        // Unequal: the newcomer (large RD) moves much more.
        let (newcomer, old) = game(Rating::default(), 0, r(1500.0, 50.0), 0, 1.0);
        assert!(newcomer.rating - 1500.0 > 10.0 * (1500.0 - old.rating));
    }

    /// A new player's first games: the rating moves a lot, the RD falls fast, and
    /// the figures stay in order with lichess's (a newcomer beating 1500s thrice).
    #[test]
    fn a_few_games_in_a_row() {
        let mut me = Rating::default();
        let opp = r(1500.0, 60.0);
        let mut last = me;
        for i in 0..3 {
            me = me.update(
                &[Outcome {
                    opponent: opp,
                    score: 1.0,
                }],
                TAU,
                0.0,
            );
            assert!(
                me.rating > last.rating && me.rd < last.rd,
                "game {i}: {me:?}"
            );
            last = me;
        }
        // A first win from 1500/500 gains some two hundred points, as on lichess.
        let first = Rating::default().update(
            &[Outcome {
                opponent: opp,
                score: 1.0,
            }],
            TAU,
            0.0,
        );
        assert!(
            (150.0..300.0).contains(&(first.rating - 1500.0)),
            "{first:?}"
        );
        assert!(first.rd < 400.0 && first.rd > 250.0, "{first:?}");
        assert!(me.provisional());
        // Then a loss brings it down.
        let after_loss = me.update(
            &[Outcome {
                opponent: opp,
                score: 0.0,
            }],
            TAU,
            0.0,
        );
        assert!(after_loss.rating < me.rating);
        assert_eq!(Rating::default().display(), "1500?");
        assert_eq!(r(1712.4, 60.0).display(), "1712");
    }

    #[test]
    fn inactivity_widens_the_deviation_up_to_its_bound() {
        let me = Rating {
            rating: 1800.0,
            rd: 60.0,
            vol: 0.06,
        };
        let day = me.after_idle_ms(86_400_000);
        let year = me.after_idle_ms(365 * 86_400_000);
        assert!(day.rd > 60.0 && year.rd > day.rd && year.rd <= MAX_RD);
        assert_eq!(year.rating, 1800.0);
        assert!((me.after_idle_ms(-5).rd - 60.0).abs() < 1e-9);
        // Step 6 with lichess's periods a day: a year is 78 periods.
        let expected =
            ((60.0f64 / SCALE).powi(2) + 365.0 * RATING_PERIODS_PER_DAY * 0.0036).sqrt() * SCALE;
        assert!((year.rd - expected).abs() < 1e-6, "{} {expected}", year.rd);
        // The RD never falls under its floor.
        let mut me = r(1500.0, 46.0);
        for _ in 0..50 {
            me = me.update(
                &[Outcome {
                    opponent: r(1500.0, 45.0),
                    score: 0.5,
                }],
                TAU,
                0.0,
            );
        }
        assert!(me.rd >= MIN_RD);
    }

    #[test]
    fn no_nan_for_extreme_inputs() {
        let odd = [
            Rating {
                rating: f64::NAN,
                rd: f64::NAN,
                vol: f64::NAN,
            },
            Rating {
                rating: f64::INFINITY,
                rd: 0.0,
                vol: 0.0,
            },
            Rating {
                rating: -1e300,
                rd: 1e300,
                vol: 1e9,
            },
            r(4000.0, 45.0),
            r(400.0, 45.0),
            r(400.0, 500.0),
            r(4000.0, 500.0),
        ];
        for a in odd {
            for b in odd {
                for score in [0.0, 0.5, 1.0, f64::NAN, 7.0] {
                    for idle in [0, i64::MAX, i64::MIN] {
                        let (x, y) = game(a, idle, b, idle, score);
                        for z in [x, y] {
                            assert!(
                                z.rating.is_finite() && z.rd.is_finite() && z.vol.is_finite(),
                                "{a:?} {b:?} {score}: {z:?}"
                            );
                            assert!((MIN_RATING..=MAX_RATING).contains(&z.rating));
                            assert!((MIN_RD..=MAX_RD).contains(&z.rd));
                            assert!(z.vol > 0.0 && z.vol <= MAX_VOLATILITY);
                        }
                    }
                }
            }
        }
    }

    /// lichess's own figures: the cases of lila's `RatingCalculatorTest` (one game
    /// between two players, each rated against the other's figures before it, without
    /// the deviation's growth for time; lila checks them to the tolerances kept here).
    /// Each row: White's and Black's rating, RD and volatility before, White's score,
    /// then White's and Black's rating, RD, volatility after, and the tolerances of
    /// rating and RD, and of volatility.
    #[test]
    fn lichess_own_figures() {
        type Case = ([f64; 3], [f64; 3], f64, [f64; 3], [f64; 3], f64, f64);
        let default = [1500.0, 500.0, 0.09];
        let low = [1500.0, 80.0, 0.06];
        let (w3, b3) = ([1400.0, 79.0, 0.06], [1550.0, 110.0, 0.065]);
        let (w4, b4) = ([1200.0, 60.0, 0.053], [1850.0, 200.0, 0.062]);
        let cases: [Case; 12] = [
            (
                default,
                default,
                1.0,
                [1741.0, 396.0, 0.0899983],
                [1258.0, 396.0, 0.0899983],
                1.0,
                1e-7,
            ),
            (
                default,
                default,
                0.0,
                [1258.0, 396.0, 0.0899983],
                [1741.0, 396.0, 0.0899983],
                1.0,
                1e-7,
            ),
            (
                default,
                default,
                0.5,
                [1500.0, 396.0, 0.0899954],
                [1500.0, 396.0, 0.0899954],
                1.0,
                1e-7,
            ),
            (
                low,
                low,
                1.0,
                [1517.0, 78.0, 0.06],
                [1482.0, 78.0, 0.06],
                1.0,
                1e-5,
            ),
            (
                low,
                low,
                0.0,
                [1482.0, 78.0, 0.06],
                [1517.0, 78.0, 0.06],
                1.0,
                1e-5,
            ),
            (
                low,
                low,
                0.5,
                [1500.0, 78.0, 0.06],
                [1500.0, 78.0, 0.06],
                1.0,
                1e-5,
            ),
            (
                w3,
                b3,
                1.0,
                [1422.0, 77.0, 0.06],
                [1506.0, 105.0, 0.065],
                1.0,
                1e-5,
            ),
            (
                w3,
                b3,
                0.0,
                [1389.0, 78.0, 0.06],
                [1568.0, 105.0, 0.065],
                1.0,
                1e-5,
            ),
            (
                w3,
                b3,
                0.5,
                [1406.0, 78.0, 0.06],
                [1537.0, 105.87, 0.065],
                1.0,
                1e-5,
            ),
            (
                w4,
                b4,
                1.0,
                [1216.7, 59.9, 0.053013],
                [1636.0, 196.9, 0.062028],
                0.1,
                1e-6,
            ),
            (
                w4,
                b4,
                0.0,
                [1199.3, 59.9, 0.052999],
                [1855.4, 196.9, 0.061999],
                0.1,
                1e-6,
            ),
            (
                w4,
                b4,
                0.5,
                [1208.0, 59.90056, 0.053002],
                [1745.7, 196.98729, 0.062006],
                0.1,
                1e-6,
            ),
        ];
        let rating = |[rating, rd, vol]: [f64; 3]| Rating { rating, rd, vol };
        for (white, black, score, white_after, black_after, tol, vol_tol) in cases {
            let (w, b) = (rating(white), rating(black));
            let got = [
                LICHESS.update(w, &[Outcome { opponent: b, score }], 0.0),
                LICHESS.update(
                    b,
                    &[Outcome {
                        opponent: w,
                        score: 1.0 - score,
                    }],
                    0.0,
                ),
            ];
            for (got, want) in got.iter().zip([white_after, black_after]) {
                let ok = (got.rating - want[0]).abs() <= tol
                    && (got.rd - want[1]).abs() <= tol
                    && (got.vol - want[2]).abs() <= vol_tol;
                assert!(
                    ok,
                    "{white:?} against {black:?}, score {score}: {got:?}, lichess {want:?}"
                );
            }
        }
    }
}
