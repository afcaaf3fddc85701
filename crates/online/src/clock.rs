//! An online game's clock (after scalachess's): each side's time, the turn's start, the
//! lag quota, and the time controls an online game may have. Time is a parameter
//! (milliseconds since the Unix epoch), so every rule is tested without waiting.
//!
//! The time controls are the project's one notation (`jungle_core::time_control`):
//! a live clock from `1m+0s` to `30m+30s` in whole minutes and seconds, or
//! correspondence, `1d`, `2d`, `3d` or `7d` a move.

use crate::model::Side;
use jungle_core::time_control::TimeControl;

/// Lag credit (scalachess's `LagTracker`): the quota a player starts with.
pub const LAG_QUOTA_START_MS: i64 = 2_000;
/// The most the quota can hold.
pub const LAG_QUOTA_MAX_MS: i64 = 5_000;
/// The most credited on one move.
pub const LAG_MOVE_MAX_MS: i64 = 3_000;
/// Live games: the time each side has for its first move (plies 0 and 1, before the
/// clocks start); past it the game is aborted.
pub const FIRST_MOVE_MS: i64 = 60_000;
/// How long a player must be gone before the opponent may claim the win or a draw:
/// live games.
pub const GONE_LIVE_MS: i64 = 30_000;
/// The same for correspondence games.
pub const GONE_CORRESPONDENCE_MS: i64 = 24 * 3_600_000;
pub const DAY_MS: i64 = 24 * 3_600_000;

/// The time controls an online game may have, or why not (the notation's own errors
/// first).
pub fn online_tc(text: &str) -> Result<TimeControl, String> {
    let tc = TimeControl::parse(text)?;
    let shown = jungle_core::text::quote(&text.chars().take(24).collect::<String>());
    match tc {
        TimeControl::Clock { base_ms, inc_ms }
            if base_ms % 60_000 == 0
                && (1..=30).contains(&(base_ms / 60_000))
                && inc_ms % 1_000 == 0
                && inc_ms <= 30_000 =>
        {
            Ok(tc)
        }
        TimeControl::Correspondence { days: 1 | 2 | 3 | 7 } => Ok(tc),
        TimeControl::Correspondence { .. } => Err(format!(
            "'{shown}': an online game has 1, 2, 3 or 7 days a move (1d, 2d, 3d, 7d)"
        )),
        _ => Err(format!(
            "'{shown}': an online clock has 1 to 30 whole minutes and 0 to 30 whole seconds a move, from 1m+0s to 30m+30s"
        )),
    }
}

/// A time control as stored in a game's log: the notation, or the form the server
/// wrote before the notation was one (`M+S`, minutes and seconds: `10+5`), which only
/// a stored game may still have.
pub fn stored_tc(text: &str) -> Result<TimeControl, String> {
    online_tc(text).or_else(|e| {
        let (m, s) = text.split_once('+').ok_or_else(|| e.clone())?;
        let (Ok(m), Ok(s)) = (m.parse::<u64>(), s.parse::<u64>()) else {
            return Err(e);
        };
        online_tc(&format!("{m}m+{s}s"))
    })
}

/// The clock of a game in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub tc: TimeControl,
    /// Each side's time left at `turn_started` (correspondence: the time for a move).
    pub left: [i64; 2],
    /// When the side to move's turn began (moved on by downtime).
    pub turn_started: i64,
    /// Each side's lag quota.
    pub quota: [i64; 2],
}

impl Clock {
    pub fn new(tc: TimeControl, at: i64) -> Clock {
        Clock {
            tc,
            left: [initial_ms(tc); 2],
            turn_started: at,
            quota: [LAG_QUOTA_START_MS; 2],
        }
    }

    /// Each side's time left at `now`, `running` counted down.
    pub fn at(&self, now: i64, running: Option<Side>) -> [i64; 2] {
        let mut c = self.left;
        if let Some(s) = running {
            c[s.index()] = (c[s.index()] - (now - self.turn_started).max(0)).max(0);
        }
        c
    }

    /// The time the mover has after its move at `ply`, and the lag credited to it:
    /// `None` when its time ran out before the move (`think_ms`: the client's own
    /// measure of its thinking, for the lag credit).
    pub fn after_move(
        &self,
        mover: Side,
        ply: u32,
        think_ms: Option<i64>,
        now: i64,
    ) -> Option<(i64, i64)> {
        match self.tc {
            _ if ply < 2 => Some((self.left[mover.index()], 0)),
            TimeControl::Clock { inc_ms, .. } => {
                let elapsed = (now - self.turn_started).max(0);
                let lag = think_ms.map_or(0, |t| elapsed - t.clamp(0, elapsed));
                let credit = lag.min(self.max_credit(mover));
                let left = self.left[mover.index()] - (elapsed - credit);
                (left > 0).then_some((left + inc_ms as i64, credit))
            }
            tc => Some((initial_ms(tc), 0)),
        }
    }

    /// A stored move folded in: the mover's time and quota, the other's new turn.
    pub fn moved(&mut self, mover: Side, ply: u32, left_ms: i64, credit_ms: i64, at: i64) {
        let i = mover.index();
        self.left[i] = left_ms;
        if ply >= 2 {
            self.quota[i] =
                (self.quota[i] + quota_gain_ms(self.tc) - credit_ms).min(LAG_QUOTA_MAX_MS);
        }
        if let TimeControl::Correspondence { .. } = self.tc {
            self.left[mover.other().index()] = initial_ms(self.tc);
        }
        self.turn_started = at;
    }

    /// When the mover's flag falls: its time and the lag credit it could still get.
    pub fn flag_at(&self, mover: Side) -> i64 {
        self.turn_started + self.left[mover.index()] + self.max_credit(mover)
    }

    /// When a game whose first moves are not in falls aborted.
    pub fn first_move_deadline(&self) -> i64 {
        self.turn_started
            + match self.tc {
                TimeControl::Correspondence { .. } => initial_ms(self.tc),
                _ => FIRST_MOVE_MS,
            }
    }

    /// How long the opponent must be gone before a claim.
    pub fn gone_ms(&self) -> i64 {
        match self.tc {
            TimeControl::Correspondence { .. } => GONE_CORRESPONDENCE_MS,
            _ => GONE_LIVE_MS,
        }
    }

    fn max_credit(&self, side: Side) -> i64 {
        match self.tc {
            TimeControl::Clock { .. } => self.quota[side.index()].min(LAG_MOVE_MAX_MS),
            _ => 0,
        }
    }
}

/// Each side's time at the start (correspondence: the time for one move).
pub fn initial_ms(tc: TimeControl) -> i64 {
    match tc {
        TimeControl::Clock { base_ms, .. } => base_ms as i64,
        TimeControl::Correspondence { days } => i64::from(days) * DAY_MS,
        _ => 0,
    }
}

/// What a move adds to the lag quota: scalachess's rule, 1 s a move at most, less
/// in the fastest games: (the estimated game time in seconds, base + 40 × increment)
/// × 2/5 + 15 centiseconds.
pub fn quota_gain_ms(tc: TimeControl) -> i64 {
    match tc.estimated_ms() {
        Some(estimate) if !matches!(tc, TimeControl::Correspondence { .. }) => {
            let estimate_s = (estimate / 1_000) as i64;
            (estimate_s * 2 / 5 * 10 + 150).min(1_000)
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn online_time_controls_are_read_within_their_bounds() {
        for ok in ["1m+0s", "30m+30s", "5m+3s", "1d", "2d", "3d", "7d"] {
            let tc = online_tc(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert_eq!(tc.to_string(), ok);
        }
        for bad in [
            "0m+0s", "31m+0s", "1m+31s", "1.5m+0s", "5m+0.5s", "90s+0s", "4d", "0d", "10+5", "",
            "5m+3s+1s",
        ] {
            assert!(online_tc(bad).is_err(), "{bad} accepted");
        }
        let e = online_tc("10+5").unwrap_err();
        assert!(e.contains("10m+5s is 10 minutes"), "{e}");
    }

    #[test]
    fn a_stored_game_keeps_its_old_notation() {
        assert_eq!(stored_tc("10+5"), online_tc("10m+5s"));
        assert_eq!(stored_tc("1+0"), online_tc("1m+0s"));
        assert_eq!(stored_tc("5m+3s"), online_tc("5m+3s"));
        assert_eq!(stored_tc("2d"), online_tc("2d"));
        assert!(stored_tc("31+0").is_err());
        assert!(stored_tc("x+y").is_err());
    }

    #[test]
    fn the_quota_grows_by_scalachess_rule() {
        assert_eq!(quota_gain_ms(online_tc("1m+0s").unwrap()), 390);
        assert_eq!(quota_gain_ms(online_tc("30m+30s").unwrap()), 1_000);
        assert_eq!(quota_gain_ms(online_tc("1d").unwrap()), 0);
    }
}
