//! Time management: how long to think on a clock.
//!
//! Two budgets: the *optimum*, after which no new iteration is started, and the
//! *maximum*, at which the search is stopped wherever it is. Both leave the
//! `Move Overhead` (communication and process delays) unused, so that the engine never
//! loses on time, and the maximum never exceeds a fixed share of the remaining clock.

use super::limits::Limits;
use crate::board::Color;
use crate::clock::Instant;
use std::time::Duration;

/// Moves assumed to remain in a sudden-death game.
const DEFAULT_MOVES_TO_GO: u64 = 30;

#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    /// When the clock started: at `go`, or at `ponderhit` after a ponder search.
    pub start: Instant,
    pub optimum: Option<Duration>,
    pub maximum: Option<Duration>,
    /// The whole maximum is to be used (`movetime`, or `movestogo 1`): no soft stop.
    pub fixed: bool,
}

/// The budgets of one move: when to stop starting iterations, when to stop at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Budget {
    optimum_ms: u64,
    maximum_ms: u64,
    fixed: bool,
}

impl TimeManager {
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64, start: Instant) -> TimeManager {
        match budget(limits, side, overhead_ms) {
            Some(b) => TimeManager {
                start,
                optimum: Some(Duration::from_millis(b.optimum_ms)),
                maximum: Some(Duration::from_millis(b.maximum_ms)),
                fixed: b.fixed,
            },
            None => TimeManager::unlimited(start),
        }
    }

    /// No clock: only `stop`, depth, nodes or mate end the search.
    pub fn unlimited(start: Instant) -> TimeManager {
        TimeManager {
            start,
            optimum: None,
            maximum: None,
            fixed: false,
        }
    }

    /// Starts the clock again (at `ponderhit`: the clock of a ponder search starts
    /// when the opponent plays the expected move).
    pub fn restart(&mut self, now: Instant) {
        self.start = now;
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The hard limit has passed.
    pub fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.elapsed() >= m)
    }

    /// Whether to begin another iteration, given how stable the best move is
    /// (`scale` > 1 when it just changed, < 1 when it has held for a while).
    /// A fixed budget is used to the end: only the hard limit stops it.
    pub fn may_start_iteration(&self, scale: f64) -> bool {
        match self.optimum {
            None => true,
            Some(_) if self.fixed => true,
            Some(opt) => self.elapsed().as_secs_f64() < opt.as_secs_f64() * 0.6 * scale,
        }
    }
}

/// The budget of this move, or `None` when not on a clock.
///
/// - `movetime`: exactly that time less the overhead (at most half of it), used to the
///   end.
/// - `movestogo 1`: the clock is refilled after this move, so most of it (90% of what
///   the overhead leaves) is used to the end.
/// - Otherwise a share of the clock plus most of the increment as the optimum, and at
///   most four times that, never more than a quarter of the clock, as the maximum.
fn budget(limits: &Limits, side: Color, overhead_ms: u64) -> Option<Budget> {
    if let Some(mt) = limits.movetime {
        // The overhead never takes more than half of a short movetime.
        let t = mt.saturating_sub(overhead_ms.min(mt / 2)).max(1);
        return Some(Budget {
            optimum_ms: t,
            maximum_ms: t,
            fixed: true,
        });
    }
    let remaining = limits.time[side.index()]?;
    let inc = limits.inc[side.index()];
    let usable = remaining.saturating_sub(overhead_ms).max(1);
    let moves_to_go = limits.movestogo.map_or(DEFAULT_MOVES_TO_GO, |m| {
        (m as u64).clamp(1, DEFAULT_MOVES_TO_GO)
    });
    let optimum = (usable / moves_to_go + inc * 3 / 4).min(usable / 2);
    // Never more than a share of the clock in one move, less with many moves to go.
    let share = if moves_to_go == 1 {
        usable * 9 / 10
    } else {
        usable / 4
    };
    let maximum = (optimum * 4).min(share).max(optimum.min(usable)).max(1);
    if moves_to_go == 1 {
        return Some(Budget {
            optimum_ms: share.max(1),
            maximum_ms: share.max(1),
            fixed: true,
        });
    }
    Some(Budget {
        optimum_ms: optimum.max(1).min(maximum),
        maximum_ms: maximum,
        fixed: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            time: [Some(time), Some(time)],
            inc: [inc, inc],
            movestogo: mtg,
            ..Limits::default()
        }
    }

    /// (optimum, maximum, fixed) of a clock budget.
    fn of(limits: &Limits, side: Color, overhead: u64) -> (u64, u64, bool) {
        let b = budget(limits, side, overhead).expect("on a clock");
        (b.optimum_ms, b.maximum_ms, b.fixed)
    }

    #[test]
    fn movetime_is_used_to_the_end_less_the_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(of(&l, Color::Red, 30), (970, 970, true));
        let tiny = Limits {
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(of(&tiny, Color::Red, 30), (3, 3, true));
        let short = Limits {
            movetime: Some(40),
            ..Limits::default()
        };
        assert_eq!(of(&short, Color::Red, 30), (20, 20, true));
        // A fixed budget never stops at the soft limit, however late.
        let tm = TimeManager::new(
            &l,
            Color::Red,
            30,
            Instant::now() - Duration::from_millis(900),
        );
        assert!(tm.may_start_iteration(0.5));
        assert!(!tm.out_of_time());
    }

    #[test]
    fn sudden_death_spends_a_fraction() {
        let (opt, max, fixed) = of(&clock(60_000, 0, None), Color::Red, 30);
        assert!(opt > 1000 && opt < 3000, "{opt}");
        assert!(max >= opt && max <= 60_000 / 4, "{max}");
        assert!(!fixed);
    }

    #[test]
    fn the_last_move_before_the_control_spends_most_of_the_clock() {
        let (opt, max, fixed) = of(&clock(10_000, 0, Some(1)), Color::Red, 30);
        assert_eq!((opt, max, fixed), (8973, 8973, true));
        // Two moves to go: about half, with a soft stop.
        let (opt, max, fixed) = of(&clock(10_000, 0, Some(2)), Color::Red, 30);
        assert!(opt <= 5000 && max <= 5000 && !fixed, "{opt} {max}");
    }

    #[test]
    fn never_more_than_the_clock() {
        for time in [1, 10, 50, 100, 1000, 10_000] {
            for inc in [0, 100, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let (opt, max, _) = of(&clock(time, inc, mtg), Color::Blue, 30);
                    assert!(opt <= max, "{time} {inc} {mtg:?}");
                    assert!(
                        max <= time.saturating_sub(30).max(1),
                        "{time} {inc} {mtg:?}: {max}"
                    );
                }
            }
        }
    }

    #[test]
    fn uses_the_clock_of_the_side_to_move() {
        let l = Limits {
            time: [Some(100_000), Some(1_000)],
            ..Limits::default()
        };
        let red = of(&l, Color::Red, 0).1;
        let blue = of(&l, Color::Blue, 0).1;
        assert!(red > blue * 10);
        assert_eq!(budget(&Limits::depth(5), Color::Red, 0), None);
    }

    #[test]
    fn restart_moves_the_clock() {
        let l = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&l, Color::Red, 0, Instant::now() - Duration::from_secs(5));
        assert!(tm.out_of_time());
        tm.restart(Instant::now());
        assert!(!tm.out_of_time());
    }
}
