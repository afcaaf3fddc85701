//! How long each side may think in a game between engines: a clock, a time per move,
//! a depth or a node count (`jungle match`, the board's games, calibrated books).

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// Clock per game in ms, increment per move in ms.
    Clock {
        base_ms: u64,
        inc_ms: u64,
    },
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
}

impl TimeControl {
    /// `10+0.1` (seconds + increment seconds) or `40` (seconds, no increment).
    pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "bad time control '{}' (expected seconds[+increment], like 10+0.1)",
                crate::text::quote(text)
            )
        };
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b, i),
            None => (text, "0"),
        };
        let secs = |s: &str| -> Result<u64, String> {
            let v: f64 = s.parse().map_err(|_| bad())?;
            if !v.is_finite() || !(0.0..=1e7).contains(&v) {
                return Err(bad());
            }
            Ok((v * 1000.0).round() as u64)
        };
        let base_ms = secs(base)?;
        if base_ms == 0 {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            base_ms,
            inc_ms: secs(inc)?,
        })
    }
}
