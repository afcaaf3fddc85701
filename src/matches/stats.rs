//! Match statistics: W/D/L and pentanomial tallies, Elo estimates with 95% intervals and
//! likelihood of superiority, and the sequential probability ratio test (SPRT).
//!
//! Everything follows the conventions of the chess testing tools fastchess, cutechess-cli
//! and OpenBench, so that numbers printed by the match runner can be compared with theirs:
//!
//! * Scores are per game, in `[0, 1]`: a pair of games (one opening, colours swapped)
//!   scores 0, 0.25, 0.5, 0.75 or 1 per game ("Ptnml(0-2)" in fastchess counts the pair
//!   totals 0, 0.5, 1, 1.5, 2).
//! * Elo is logistic Elo: `E = -400 log10(1/s - 1)` for a score `s`.
//! * Intervals are normal approximations on the score, mapped to Elo through the formula
//!   above (fastchess `elo_wdl.cpp` / `elo_pentanomial.cpp`, cutechess-cli `elo.cpp`).
//! * The SPRT is the generalized SPRT (GSPRT) of Michel Van den Bergh on the pentanomial
//!   (or trinomial) distribution with logistic Elo bounds, as in fastchess `sprt.cpp`
//!   (`getLLR_logistic`) and fishtest / OpenBench.
//!
//! No function here panics or returns NaN for any tally, including the degenerate ones
//! (no games, zero variance, all wins, all draws).

use std::f64::consts::LN_10;

/// The two-sided 95% normal quantile, `Phi^-1(0.975)` (fastchess `CI95ZSCORE`).
pub const Z95: f64 = 1.959963984540054;

/// Counts of zero cells are replaced by this pseudo-count before the LLR is computed, as
/// fastchess (`regularize` in `sprt.cpp`) and OpenBench (`max(1e-3, x)`) do: the
/// multinomial MLE needs every cell to have positive probability.
const REGULARIZE: f64 = 1e-3;

/// Per-game scores of the pentanomial cells LL, LD, DD/WL, WD, WW.
const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Per-game scores of the trinomial cells L, D, W.
const WDL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The result of one game from engine A's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    Loss,
    Draw,
    Win,
}

impl GameScore {
    /// Points in half-point units: loss 0, draw 1, win 2.
    fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }
}

/// Results of game pairs (same opening, colours swapped), from engine A's view.
///
/// The fields count the pairs whose total score for A was 0 (`ll`), 0.5 (`ld`),
/// 1 (`dd_or_wl`: two draws, or a win and a loss), 1.5 (`wd`) and 2 (`ww`), the order of
/// fastchess's and cutechess-cli's `Ptnml(0-2)` line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub ll: u64,
    pub ld: u64,
    pub dd_or_wl: u64,
    pub wd: u64,
    pub ww: u64,
}

impl Pentanomial {
    /// Adds one finished pair: A's results in its two games, in either order.
    pub fn add_pair(&mut self, a: GameScore, b: GameScore) {
        match a.half_points() + b.half_points() {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 => self.dd_or_wl += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts().iter().sum()
    }

    /// The counts in `Ptnml(0-2)` order: `[ll, ld, dd_or_wl, wd, ww]`.
    pub fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.dd_or_wl, self.wd, self.ww]
    }

    /// A's mean score per game, in `[0, 1]`; 0.5 when there are no pairs.
    pub fn score(&self) -> f64 {
        moments(&self.counts(), &PENTA_SCORES).map_or(0.5, |m| m.mean)
    }
}

/// Plain W/D/L from A's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    /// Adds one game.
    pub fn add(&mut self, s: GameScore) {
        match s {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// A's mean score per game, `(W + D/2) / N`; 0.5 when no game was played.
    pub fn score(&self) -> f64 {
        moments(&self.counts(), &WDL_SCORES).map_or(0.5, |m| m.mean)
    }

    /// The counts in score order: `[losses, draws, wins]`.
    fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// An Elo difference (A minus B) with its 95% confidence interval and likelihood of
/// superiority.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate, `elo_from_score(score)`; ±infinity for a score of 1 or 0.
    pub elo: f64,
    /// Lower end of the 95% interval (may be -infinity).
    pub lower: f64,
    /// Upper end of the 95% interval (may be +infinity).
    pub upper: f64,
    /// Likelihood of superiority, the probability that A is the stronger, in `[0, 1]`.
    pub los: f64,
}

/// Logistic Elo difference of a per-game score: `-400 log10(1/s - 1)`, computed as
/// `400 log10(s / (1 - s))` (cutechess-cli `Elo::diff`, fastchess `scoreToEloDiff`).
///
/// Scores at or beyond the ends map to the limits: `s <= 0` gives -infinity and `s >= 1`
/// gives +infinity, so a confidence bound that leaves `[0, 1]` becomes an unbounded end
/// of the interval rather than NaN. (A NaN score, which no function of this module
/// produces, stays NaN.)
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// The per-game score expected at a logistic Elo difference: `1 / (1 + 10^(-elo/400))`
/// (fastchess `leloToScore`), the inverse of [`elo_from_score`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo estimate from game pairs (fastchess `elo_pentanomial.cpp`).
///
/// With `N` pairs and cell frequencies `p_i` at per-game scores `a_i = 0, 1/4, 1/2, 3/4, 1`:
/// `s = sum p_i a_i`, per-pair variance `var = sum p_i (a_i - s)^2`, standard error
/// `se = sqrt(var / N)`; the 95% interval is `elo_from_score(s ± 1.959964 se)` and
/// `LOS = Phi((s - 1/2) / se) = (1 - erf(-(s - 1/2) / sqrt(2 var / N))) / 2`.
///
/// fastchess prints the half-width `(upper - lower) / 2` as "± error"; here both ends are
/// given (the interval is slightly asymmetric in Elo).
///
/// `None` without pairs. With zero variance (every pair in one cell) the normal
/// approximation gives no error estimate, so the interval is reported as
/// `(-inf, +inf)` instead of a misleading zero-width one; the LOS is then the limit of the
/// formula: 1 above a score of 1/2, 0 below, 1/2 at exactly 1/2.
pub fn pentanomial_elo(p: &Pentanomial) -> Option<EloEstimate> {
    estimate(&p.counts(), &PENTA_SCORES)
}

/// Elo estimate from W/D/L alone, the trinomial model of cutechess-cli and fastchess
/// (`elo_wdl.cpp`): the same formulas as [`pentanomial_elo`] with `N` games and cells
/// L, D, W at scores 0, 1/2, 1, so `var = W/N (1-s)^2 + D/N (1/2-s)^2 + L/N s^2`.
///
/// (cutechess-cli computes its LOS from wins and losses only; this uses fastchess's
/// score-based LOS for both models.) Degenerate cases as in [`pentanomial_elo`].
pub fn wdl_elo(w: &Wdl) -> Option<EloEstimate> {
    estimate(&w.counts(), &WDL_SCORES)
}

/// Sample size, mean and (population) variance of a tally of scores.
#[derive(Clone, Copy, Debug)]
struct Moments {
    n: f64,
    mean: f64,
    var: f64,
}

/// `None` when the tally is empty. Cells of zero count contribute exactly nothing, so a
/// one-cell tally has a variance of exactly 0.
fn moments(counts: &[u64], scores: &[f64]) -> Option<Moments> {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let n = total as f64;
    let mean = counts
        .iter()
        .zip(scores)
        .map(|(&c, &a)| c as f64 * a)
        .sum::<f64>()
        / n;
    let var = counts
        .iter()
        .zip(scores)
        .map(|(&c, &a)| c as f64 * (a - mean) * (a - mean))
        .sum::<f64>()
        / n;
    // All cells but one empty: the sum above is exactly 0 already (0 * finite), but a
    // rounding of `mean` could leave a tiny residue; normalise it to the true 0.
    let occupied = counts.iter().filter(|&&c| c > 0).count();
    let var = if occupied <= 1 { 0.0 } else { var };
    Some(Moments { n, mean, var })
}

fn estimate(counts: &[u64], scores: &[f64]) -> Option<EloEstimate> {
    let m = moments(counts, scores)?;
    let elo = elo_from_score(m.mean);
    if m.var <= 0.0 {
        let los = if m.mean > 0.5 {
            1.0
        } else if m.mean < 0.5 {
            0.0
        } else {
            0.5
        };
        return Some(EloEstimate {
            elo,
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
            los,
        });
    }
    let se = (m.var / m.n).sqrt();
    Some(EloEstimate {
        elo,
        lower: elo_from_score(m.mean - Z95 * se),
        upper: elo_from_score(m.mean + Z95 * se),
        los: normal_cdf((m.mean - 0.5) / se),
    })
}

/// Standard normal distribution function, `Phi(x) = erfc(-x / sqrt 2) / 2`.
fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// A sequential probability ratio test of `H0: elo = elo0` against `H1: elo = elo1`
/// (logistic Elo), with type I error `alpha` and type II error `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// The state of an SPRT after some games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The LLR is between the bounds: play on.
    Continue,
    /// The LLR reached the lower bound: A is not `elo1` stronger (H0 accepted).
    AcceptH0,
    /// The LLR reached the upper bound: A is at least about `elo1` stronger (H1 accepted).
    AcceptH1,
}

impl Sprt {
    /// Checks the parameters as fastchess's `SPRT::isValid` does: all finite,
    /// `elo0 < elo1`, `0 < alpha < 1`, `0 < beta < 1`, and `alpha + beta < 1` (otherwise
    /// the lower bound would not be below the upper one).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if ![elo0, elo1, alpha, beta].iter().all(|x| x.is_finite()) {
            return Err("SPRT: elo0, elo1, alpha and beta must be finite numbers".into());
        }
        if elo0 >= elo1 {
            return Err(format!(
                "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"
            ));
        }
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(format!("SPRT: alpha ({alpha}) must be between 0 and 1"));
        }
        if !(beta > 0.0 && beta < 1.0) {
            return Err(format!("SPRT: beta ({beta}) must be between 0 and 1"));
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "SPRT: alpha + beta ({}) must be less than 1",
                alpha + beta
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's stopping bounds on the LLR: `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`;
    /// (-2.944, 2.944) for alpha = beta = 0.05.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized-SPRT log-likelihood ratio on the pentanomial, logistic Elo: the
    /// exact maximum-likelihood version of fastchess `sprt.cpp` (`getLLR_logistic`) and
    /// fishtest/OpenBench.
    ///
    /// With `N` pairs, observed cell frequencies `p^_i` at per-game scores
    /// `a_i = 0, 1/4, 1/2, 3/4, 1` and `s_j = score_from_elo(elo_j)`:
    /// `LLR = N sum_i p^_i ln(p1_i / p0_i)`, where `p_j` is the distribution of largest
    /// likelihood among those with mean score `s_j`, namely (M. Van den Bergh, "Comments
    /// on Normalized Elo", proposition 1.1) `p_j,i = p^_i / (1 + theta (a_i - s_j))` with
    /// `theta` the root of `sum_i p^_i (a_i - s_j) / (1 + theta (a_i - s_j)) = 0` on
    /// `(-1/(1 - s_j), 1/s_j)`. fastchess finds `theta` by ITP to 1e-3; here it is bisected
    /// to full double precision.
    ///
    /// For large samples this agrees with the linearised GSPRT
    /// `N (s1 - s0)(2 mean - s0 - s1) / (2 var)` ([`Sprt::llr_approx`]).
    ///
    /// Degenerate tallies: 0.0 without pairs; empty cells get a pseudo-count of 1e-3 (as in
    /// fastchess and OpenBench), so a one-cell tally (all draws, all wins, …) still has a
    /// finite LLR (negative for all draws with `elo0 = 0`, growing slowly with all wins).
    /// Parameters outside what [`Sprt::new`] accepts (built by hand) give 0.0.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        self.llr_mle(&p.counts(), &PENTA_SCORES)
    }

    /// The same GSPRT log-likelihood ratio on plain W/D/L (the trinomial model, which
    /// fastchess uses when pentanomial reporting is off). The two games of a pair are
    /// correlated, so for paired games [`Sprt::llr`] is the right one.
    pub fn llr_wdl(&self, w: &Wdl) -> f64 {
        self.llr_mle(&w.counts(), &WDL_SCORES)
    }

    /// The linearised GSPRT on the pentanomial (Van den Bergh; older OpenBench and the
    /// "simplified" fishtest formula): `LLR ≈ N (s1 - s0)(2 m - s0 - s1) / (2 var)` with
    /// `m`, `var` the per-game mean and per-pair variance of the sample. Close to
    /// [`Sprt::llr`] near the bounds of a real test; 0.0 without pairs or with zero
    /// variance. Shown for reference: [`Sprt::decide`] uses [`Sprt::llr`].
    pub fn llr_approx(&self, p: &Pentanomial) -> f64 {
        let Some(s) = self.scores() else { return 0.0 };
        match moments(&p.counts(), &PENTA_SCORES) {
            Some(m) if m.var > 0.0 => {
                let (s0, s1) = s;
                finite_or_zero(m.n * (s1 - s0) * (2.0 * m.mean - s0 - s1) / (2.0 * m.var))
            }
            _ => 0.0,
        }
    }

    /// [`Sprt::decision`] of [`Sprt::llr`].
    pub fn decide(&self, p: &Pentanomial) -> SprtDecision {
        self.decision(self.llr(p))
    }

    /// Compares an LLR with the [`Sprt::bounds`]: at or above the upper bound H1 is
    /// accepted, at or below the lower one H0 is accepted (fastchess `getResult`).
    pub fn decision(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// The per-game scores of elo0 and elo1, if both lie strictly inside (0, 1).
    fn scores(&self) -> Option<(f64, f64)> {
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let inside = |s: f64| s > 0.0 && s < 1.0;
        (inside(s0) && inside(s1)).then_some((s0, s1))
    }

    fn llr_mle(&self, counts: &[u64], scores: &[f64]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let Some((s0, s1)) = self.scores() else {
            return 0.0;
        };
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZE } else { c as f64 })
            .collect();
        let total: f64 = regularized.iter().sum();
        let phat: Vec<f64> = regularized.iter().map(|c| c / total).collect();
        let (Some(p0), Some(p1)) = (mle(scores, &phat, s0), mle(scores, &phat, s1)) else {
            return 0.0;
        };
        let llr = total
            * phat
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(ph, (q0, q1))| ph * (q1.ln() - q0.ln()))
                .sum::<f64>();
        finite_or_zero(llr)
    }
}

fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// The distribution of largest likelihood for the observed frequencies `phat` (all
/// positive) over the cells at `scores` (ascending, first below and last above `s`) among
/// those with mean `s` (Van den Bergh, "Comments on Normalized Elo", eq. 1.2-1.3).
///
/// `f(theta) = sum phat_i (a_i - s) / (1 + theta (a_i - s))` falls strictly from +inf to
/// -inf on `(-1/(a_max - s), -1/(a_min - s))`, so its root is bisected safely.
fn mle(scores: &[f64], phat: &[f64], s: f64) -> Option<Vec<f64>> {
    let (a_min, a_max) = (*scores.first()?, *scores.last()?);
    if !(a_min < s && s < a_max) {
        return None;
    }
    let f = |theta: f64| -> f64 {
        let mut sum = 0.0;
        for (&a, &ph) in scores.iter().zip(phat) {
            let d = a - s;
            let denom = 1.0 + theta * d;
            if denom <= 0.0 {
                // At or past a pole: the sign of the diverging term decides.
                return if d > 0.0 {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                };
            }
            sum += ph * d / denom;
        }
        sum
    };
    let mut lo = -1.0 / (a_max - s);
    let mut hi = -1.0 / (a_min - s);
    for _ in 0..2000 {
        let mid = lo + 0.5 * (hi - lo);
        if mid <= lo || mid >= hi {
            break;
        }
        let v = f(mid);
        if v > 0.0 {
            lo = mid;
        } else if v < 0.0 {
            hi = mid;
        } else {
            lo = mid;
            hi = mid;
            break;
        }
    }
    let theta = lo + 0.5 * (hi - lo);
    let p: Vec<f64> = scores
        .iter()
        .zip(phat)
        .map(|(&a, &ph)| ph / (1.0 + theta * (a - s)))
        .collect();
    p.iter().all(|&x| x > 0.0 && x.is_finite()).then_some(p)
}

/// Normalized Elo of a per-game score (fastchess `scoreToNeloDiff`): the score's distance
/// from 1/2 in units of the per-game standard deviation, scaled by `800 / ln 10`;
/// `sd_per_game` is `sqrt(var)` for W/D/L and `sqrt(2 var)` for pentanomial variances.
pub fn nelo_from_score(score: f64, sd_per_game: f64) -> f64 {
    if sd_per_game > 0.0 {
        (score - 0.5) / sd_per_game * (800.0 / LN_10)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    //! Expected values come from an independent mpmath implementation (50 digits) written
    //! for this module, `/tmp/statsref/ref.py` at the time of writing; its outputs are
    //! quoted next to each assertion. It computes the estimates straight from the
    //! formulas, and the MLE LLR with `mpmath.findroot` for theta, checking that the
    //! resulting distributions sum to 1 and have mean `s` to 1e-30.

    use super::*;

    fn penta(c: [u64; 5]) -> Pentanomial {
        Pentanomial {
            ll: c[0],
            ld: c[1],
            dd_or_wl: c[2],
            wd: c[3],
            ww: c[4],
        }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn sprt() -> Sprt {
        Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap()
    }

    #[test]
    fn elo_from_score_values() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // ref: elo(0.75) = 190.84850188786497
        assert!(close(elo_from_score(0.75), 190.84850188786497, 1e-9));
        assert_eq!(elo_from_score(0.25), -elo_from_score(0.75));
        // ref: elo(0.6) = 70.4365036222725
        assert!(close(elo_from_score(0.6), 70.4365036222725, 1e-9));
        for i in 1..100 {
            let s = i as f64 / 100.0;
            assert!(close(elo_from_score(s), -elo_from_score(1.0 - s), 1e-9));
            assert!(close(score_from_elo(elo_from_score(s)), s, 1e-12));
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.3), f64::INFINITY);
        assert_eq!(elo_from_score(-0.2), f64::NEG_INFINITY);
    }

    #[test]
    fn normal_cdf_matches_python() {
        // Python: 0.5 * math.erfc(-x / math.sqrt(2)), in the lower tail where it
        // keeps its relative accuracy.
        let cases = [
            (-1.0, 0.15865525393145707),
            (-2.0, 0.02275013194817922),
            (-5.0, 2.866515718791946e-07),
            (-10.0, 7.619853024160593e-24),
        ];
        for (x, p) in cases {
            assert!(
                (normal_cdf(x) - p).abs() <= 1e-13 * p,
                "Phi({x}) = {}",
                normal_cdf(x)
            );
        }
        assert_eq!(normal_cdf(0.0), 0.5);
        assert_eq!(normal_cdf(f64::INFINITY), 1.0);
        assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
        assert!(close(normal_cdf(Z95), 0.975, 1e-12));
    }

    #[test]
    fn tallies() {
        let mut w = Wdl::default();
        for s in [
            GameScore::Win,
            GameScore::Win,
            GameScore::Draw,
            GameScore::Loss,
        ] {
            w.add(s);
        }
        assert_eq!((w.wins, w.draws, w.losses, w.games()), (2, 1, 1, 4));
        assert_eq!(w.score(), 0.625);
        assert_eq!(Wdl::default().score(), 0.5);

        let mut p = Pentanomial::default();
        use GameScore::*;
        p.add_pair(Loss, Loss);
        p.add_pair(Draw, Loss);
        p.add_pair(Loss, Draw);
        p.add_pair(Draw, Draw);
        p.add_pair(Win, Loss);
        p.add_pair(Loss, Win);
        p.add_pair(Win, Draw);
        p.add_pair(Win, Win);
        assert_eq!(p, penta([1, 2, 3, 1, 1]));
        assert_eq!(p.pairs(), 8);
        assert_eq!(p.score(), (0.0 + 2.0 * 0.25 + 3.0 * 0.5 + 0.75 + 1.0) / 8.0);
        assert_eq!(Pentanomial::default().score(), 0.5);
    }

    #[test]
    fn wdl_estimate() {
        // 100 W, 80 D, 70 L. ref: score 0.56, var 0.1664, elo 41.8941402080052,
        // interval [6.556504518046053, 78.11917269790628], LOS 0.9899814190546283.
        let e = wdl_elo(&Wdl {
            wins: 100,
            draws: 80,
            losses: 70,
        })
        .unwrap();
        assert!(close(e.elo, 41.9, 0.1));
        assert!(close(e.elo, 41.8941402080052, 1e-9));
        assert!(close(e.lower, 6.556504518046053, 1e-9));
        assert!(close(e.upper, 78.11917269790628, 1e-9));
        assert!(close(e.los, 0.9899814190546283, 1e-12));
    }

    #[test]
    fn pentanomial_estimate() {
        // Ptnml [10, 40, 90, 50, 20]. ref: score 0.5357142857142857,
        // var 0.061224489795918367, elo 24.859162699537789,
        // interval [1.562428086628899, 48.38156085508966], LOS 0.9817650848219868.
        let e = pentanomial_elo(&penta([10, 40, 90, 50, 20])).unwrap();
        assert!(close(e.elo, 24.859162699537789, 1e-9));
        assert!(close(e.lower, 1.562428086628899, 1e-9));
        assert!(close(e.upper, 48.38156085508966, 1e-9));
        assert!(close(e.los, 0.9817650848219868, 1e-12));

        // Ptnml [150, 1100, 2600, 1250, 180]. ref: elo 6.91014140201801,
        // interval [3.007220258104231, 10.814807174550686], LOS 0.9997401695352981.
        let e = pentanomial_elo(&penta([150, 1100, 2600, 1250, 180])).unwrap();
        assert!(close(e.elo, 6.91014140201801, 1e-9));
        assert!(close(e.lower, 3.007220258104231, 1e-9));
        assert!(close(e.upper, 10.814807174550686, 1e-9));
        assert!(close(e.los, 0.9997401695352981, 1e-12));
    }

    #[test]
    fn sprt_bounds_and_validation() {
        // ref: ln(0.05/0.95) = -2.9444389791664405
        let (lo, hi) = sprt().bounds();
        assert!(close(lo, -2.9444389791664405, 1e-12));
        assert!(close(hi, 2.9444389791664405, 1e-12));
        assert!(close(lo, -2.944, 1e-3) && close(hi, 2.944, 1e-3));

        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 1.0).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, f64::INFINITY, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, f64::NAN, 0.05).is_err());
        assert!(Sprt::new(-3.0, 1.0, 0.1, 0.02).is_ok());
    }

    #[test]
    fn llr_reference_values() {
        let s = sprt();
        // ref llr_exact: P1 0.7833748354421947, P2 5.552197660194956,
        // zeros (regularised) 1.6650146078799634, pos 13.236633657319022,
        // neg -13.51020594842028, small -0.0027953199389119965.
        let cases = [
            ([10, 40, 90, 50, 20], 0.7833748354421947),
            ([150, 1100, 2600, 1250, 180], 5.552197660194956),
            ([0, 30, 100, 60, 0], 1.6650146078799634),
            ([10, 100, 300, 400, 190], 13.236633657319022),
            ([190, 400, 300, 100, 10], -13.51020594842028),
            ([1, 2, 3, 2, 1], -0.0027953199389119965),
        ];
        for (c, want) in cases {
            let got = s.llr(&penta(c));
            assert!(close(got, want, 1e-9), "{c:?}: {got} vs {want}");
        }
        // ref: P2 under elo0 = -5, elo1 = 0: 11.80270888604031.
        let s2 = Sprt::new(-5.0, 0.0, 0.05, 0.05).unwrap();
        assert!(close(
            s2.llr(&penta([150, 1100, 2600, 1250, 180])),
            11.80270888604031,
            1e-9
        ));
        // ref llr_approx: P1 0.7926133299869232, P2 5.561891261043919.
        assert!(close(
            s.llr_approx(&penta([10, 40, 90, 50, 20])),
            0.7926133299869232,
            1e-9
        ));
        assert!(close(
            s.llr_approx(&penta([150, 1100, 2600, 1250, 180])),
            5.561891261043919,
            1e-9
        ));
        // Trinomial. ref: W100 D80 L70 0.5971757213012864; W1300 D2600 L1200
        // 1.8588214086576315.
        let w = |wins, draws, losses| Wdl {
            wins,
            draws,
            losses,
        };
        assert!(close(s.llr_wdl(&w(100, 80, 70)), 0.5971757213012864, 1e-9));
        assert!(close(
            s.llr_wdl(&w(1300, 2600, 1200)),
            1.8588214086576315,
            1e-9
        ));
    }

    #[test]
    fn decisions() {
        let s = sprt();
        assert_eq!(
            s.decide(&penta([10, 100, 300, 400, 190])),
            SprtDecision::AcceptH1
        );
        assert_eq!(
            s.decide(&penta([190, 400, 300, 100, 10])),
            SprtDecision::AcceptH0
        );
        assert_eq!(s.decide(&penta([1, 2, 3, 2, 1])), SprtDecision::Continue);
        assert_eq!(s.decide(&Pentanomial::default()), SprtDecision::Continue);
        // P2 gives 5.55 >= 2.944.
        assert_eq!(
            s.decide(&penta([150, 1100, 2600, 1250, 180])),
            SprtDecision::AcceptH1
        );
        assert_eq!(s.decision(2.95), SprtDecision::AcceptH1);
        assert_eq!(s.decision(-2.95), SprtDecision::AcceptH0);
        assert_eq!(s.decision(0.0), SprtDecision::Continue);
    }

    #[test]
    fn degenerate_inputs_no_nan() {
        let s = sprt();
        assert!(pentanomial_elo(&Pentanomial::default()).is_none());
        assert!(wdl_elo(&Wdl::default()).is_none());
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
        assert_eq!(s.llr_approx(&Pentanomial::default()), 0.0);
        assert_eq!(s.llr_wdl(&Wdl::default()), 0.0);

        // All draws: Elo 0, unbounded interval, LOS 1/2.
        let e = pentanomial_elo(&penta([0, 0, 100, 0, 0])).unwrap();
        assert_eq!(
            (e.elo, e.lower, e.upper, e.los),
            (0.0, f64::NEG_INFINITY, f64::INFINITY, 0.5)
        );
        // ref llr_exact alldraw: -1.4416479084498
        assert!(close(
            s.llr(&penta([0, 0, 100, 0, 0])),
            -1.4416479084498,
            1e-9
        ));
        assert_eq!(s.llr_approx(&penta([0, 0, 100, 0, 0])), 0.0);
        // All wins. ref llr_exact allww: 1.4287891376450415
        let e = pentanomial_elo(&penta([0, 0, 0, 0, 100])).unwrap();
        assert_eq!((e.elo, e.los), (f64::INFINITY, 1.0));
        assert!(close(
            s.llr(&penta([0, 0, 0, 0, 100])),
            1.4287891376450415,
            1e-9
        ));
        assert_eq!(
            s.decide(&penta([0, 0, 0, 0, 10_000])),
            SprtDecision::AcceptH1
        );
        assert_eq!(
            s.decide(&penta([10_000, 0, 0, 0, 0])),
            SprtDecision::AcceptH0
        );
        let e = wdl_elo(&Wdl {
            wins: 0,
            draws: 0,
            losses: 7,
        })
        .unwrap();
        assert_eq!((e.elo, e.los), (f64::NEG_INFINITY, 0.0));

        // Every one-cell and two-cell tally, tiny and huge, and hand-built parameters.
        let sprts = [
            s,
            Sprt::new(-10.0, 10.0, 0.001, 0.3).unwrap(),
            Sprt {
                elo0: 0.0,
                elo1: 1e6,
                alpha: 0.05,
                beta: 0.05,
            },
            Sprt {
                elo0: f64::NAN,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
            },
        ];
        for i in 0..5 {
            for j in 0..5 {
                for (ni, nj) in [(1, 0), (1, 1), (3, 1_000_000), (1u64 << 40, 1)] {
                    let mut c = [0u64; 5];
                    c[i] += ni;
                    c[j] += nj;
                    let p = penta(c);
                    let e = pentanomial_elo(&p).unwrap();
                    for x in [e.elo, e.lower, e.upper, e.los] {
                        assert!(!x.is_nan(), "{c:?}: {e:?}");
                    }
                    assert!(e.lower <= e.elo && e.elo <= e.upper, "{c:?}: {e:?}");
                    assert!((0.0..=1.0).contains(&e.los));
                    for sp in &sprts {
                        let llr = sp.llr(&p);
                        assert!(llr.is_finite(), "{c:?} {sp:?}: {llr}");
                        assert!(sp.llr_approx(&p).is_finite());
                        let _ = sp.decide(&p);
                    }
                }
            }
        }
        for c in [[0, 0, 5], [0, 5, 0], [5, 0, 0], [1, 0, 1], [1 << 40, 0, 3]] {
            let w = Wdl {
                wins: c[0],
                draws: c[1],
                losses: c[2],
            };
            let e = wdl_elo(&w).unwrap();
            assert!(![e.elo, e.lower, e.upper, e.los].iter().any(|x| x.is_nan()));
            assert!(s.llr_wdl(&w).is_finite());
        }
    }

    #[test]
    fn nelo() {
        // (0.56 - 0.5) / sqrt(0.1664) * 800 / ln 10 for the W/D/L example.
        let n = nelo_from_score(0.56, 0.1664f64.sqrt());
        assert!(close(n, 0.06 / 0.1664f64.sqrt() * 347.43558552260146, 1e-9));
        assert_eq!(nelo_from_score(0.7, 0.0), 0.0);
    }
}
