//! The clocks of a game between engines that the person watches.

use crate::board::Color;
use crate::search::Limits;
use std::time::Duration;

/// Extra time an engine may take past its time before it counts as hung.
pub const ANSWER_GRACE: Duration = Duration::from_secs(5);

#[derive(Clone, Debug)]
pub struct Watch {
    /// The game runs: the engines move by themselves.
    pub running: bool,
    /// Time left of Red and Blue (ms; below 0 once a flag has fallen).
    pub clocks: [i64; 2],
    /// The clock: base and increment (ms).
    pub tc: (u64, u64),
}

impl Watch {
    pub fn new(tc: (u64, u64)) -> Watch {
        Watch {
            running: false,
            clocks: [tc.0 as i64; 2],
            tc,
        }
    }

    /// Full clocks for a new game, not running.
    pub fn reset(&mut self) {
        *self = Watch::new(self.tc);
    }

    /// The limits of a move on these clocks, and how long the engine may take.
    pub fn limits(&self, color: Color) -> (Limits, Duration) {
        let own = self.clocks[color.index()].max(0) as u64;
        let limits = Limits {
            time: self.clocks.map(|c| Some(c.max(0) as u64)),
            inc: [self.tc.1; 2],
            ..Limits::default()
        };
        (limits, Duration::from_millis(own) + ANSWER_GRACE)
    }

    /// Charges `used` ms to `color`'s clock; false when its flag fell.
    pub fn charge(&mut self, color: Color, used: u64) -> bool {
        let clock = &mut self.clocks[color.index()];
        *clock -= used as i64;
        *clock >= 0
    }

    /// The increment after a move in time.
    pub fn add_increment(&mut self, color: Color) {
        self.clocks[color.index()] += self.tc.1 as i64;
    }

    /// `color` has used `used` ms of a move and is past its flag by more than a tenth
    /// of a second (the answer cannot be on time any more).
    pub fn flag_fell(&self, color: Color, used: u64) -> bool {
        self.clocks[color.index()] - (used as i64) < -100
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_run_down_and_refill() {
        let mut w = Watch::new((1000, 100));
        let (limits, deadline) = w.limits(Color::Red);
        assert_eq!(limits.time, [Some(1000), Some(1000)]);
        assert_eq!(limits.inc, [100, 100]);
        assert_eq!(deadline, Duration::from_millis(1000) + ANSWER_GRACE);
        assert!(w.charge(Color::Red, 400));
        w.add_increment(Color::Red);
        assert_eq!(w.clocks, [700, 1000]);
        assert!(!w.flag_fell(Color::Blue, 1050));
        assert!(w.flag_fell(Color::Blue, 1101));
        assert!(!w.charge(Color::Blue, 1001));
        w.reset();
        assert_eq!(w.clocks, [1000, 1000]);
    }
}
