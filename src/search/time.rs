//! Time management: how long to think on a clock.
//!
//! Two budgets: the *optimum*, after which no new iteration is started, and the
//! *maximum*, at which the search is stopped wherever it is. Both leave the
//! `Move Overhead` (communication and process delays) unused, so that the engine never
//! loses on time, and the maximum never exceeds a fixed share of the remaining clock.

use super::limits::Limits;
use crate::board::Color;
use std::time::{Duration, Instant};

/// Moves assumed to remain in a sudden-death game.
const DEFAULT_MOVES_TO_GO: u64 = 30;

#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    pub start: Instant,
    pub optimum: Option<Duration>,
    pub maximum: Option<Duration>,
}

impl TimeManager {
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64, start: Instant) -> TimeManager {
        let (optimum, maximum) = budgets(limits, side, overhead_ms);
        TimeManager {
            start,
            optimum: optimum.map(Duration::from_millis),
            maximum: maximum.map(Duration::from_millis),
        }
    }

    /// No clock: only `stop`, depth, nodes or mate end the search.
    pub fn unlimited(start: Instant) -> TimeManager {
        TimeManager {
            start,
            optimum: None,
            maximum: None,
        }
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
    pub fn may_start_iteration(&self, scale: f64) -> bool {
        match self.optimum {
            None => true,
            Some(opt) => self.elapsed().as_secs_f64() < opt.as_secs_f64() * 0.6 * scale,
        }
    }
}

/// (optimum, maximum) in ms, or `None` when not on a clock.
fn budgets(limits: &Limits, side: Color, overhead_ms: u64) -> (Option<u64>, Option<u64>) {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead_ms).max(1);
        return (Some(t), Some(t));
    }
    let Some(remaining) = limits.time[side.index()] else {
        return (None, None);
    };
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
    (Some(optimum.max(1).min(maximum)), Some(maximum))
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

    #[test]
    fn movetime_leaves_the_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(budgets(&l, Color::Red, 30), (Some(970), Some(970)));
        let tiny = Limits {
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(budgets(&tiny, Color::Red, 30), (Some(1), Some(1)));
    }

    #[test]
    fn sudden_death_spends_a_fraction() {
        let (opt, max) = budgets(&clock(60_000, 0, None), Color::Red, 30);
        let (opt, max) = (opt.unwrap(), max.unwrap());
        assert!(opt > 1000 && opt < 3000, "{opt}");
        assert!(max >= opt && max <= 60_000 / 4, "{max}");
    }

    #[test]
    fn never_more_than_the_clock() {
        for time in [1, 10, 50, 100, 1000, 10_000] {
            for inc in [0, 100, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let (opt, max) = budgets(&clock(time, inc, mtg), Color::Blue, 30);
                    let (opt, max) = (opt.unwrap(), max.unwrap());
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
        let red = budgets(&l, Color::Red, 0).1.unwrap();
        let blue = budgets(&l, Color::Blue, 0).1.unwrap();
        assert!(red > blue * 10);
        assert_eq!(budgets(&Limits::depth(5), Color::Red, 0), (None, None));
    }
}
