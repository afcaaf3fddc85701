//! How long each side may think, and its one notation for every command and page
//! (`jungle match`, `jungle gui`, `jungle openings`, `jungle serve` and its page):
//! every amount of time carries its unit, so that no one can read minutes for seconds.
//!
//! - `5m+3s`: a clock of 5 minutes a side, 3 seconds added after each move; `10s+0.1s`,
//!   `90s`, `1.5m+0s`, `1h+30s`, `500ms+10ms`. The increment may be left out (`40s`).
//! - `1d`: correspondence, a day a move (online games: 1, 2, 3 or 7 days).
//!
//! A number without its unit (`10+5`, `40`) is refused, with its two readings named.
//! A fixed time a move, a depth or a node count come from their own options (`--movetime`,
//! `--depth`, `--nodes`) and have no text here.

use std::fmt;

/// How long each side may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// A clock: each side's time at the start, and what each move adds (ms).
    Clock {
        base_ms: u64,
        inc_ms: u64,
    },
    /// Correspondence: days for each move.
    Correspondence {
        days: u32,
    },
    /// A fixed time for each move (ms).
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
}

/// The longest clock the notation takes (a week), and the most days a move.
const MAX_MS: u64 = 7 * 24 * 3_600_000;
const MAX_DAYS: u32 = 30;

/// A game's speed by its estimated duration, as lichess counts it: the initial time
/// plus 40 increments (a game of about 40 moves a side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days a move.
    Correspondence,
}

impl Speed {
    pub const ALL: [Speed; 5] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    pub fn from_name(name: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl TimeControl {
    /// Reads the notation (module documentation).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let shown = crate::text::quote(&text.chars().take(24).collect::<String>());
        let text = text.trim();
        if let Some(days) = text.strip_suffix('d') {
            let days: u32 = days
                .parse()
                .ok()
                .filter(|d| (1..=MAX_DAYS).contains(d))
                .ok_or_else(|| {
                    format!("'{shown}': days a move must be a whole number from 1 to {MAX_DAYS}, like 1d")
                })?;
            return Ok(TimeControl::Correspondence { days });
        }
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (text, None),
        };
        let (base_ms, inc_ms) = match (duration(base), inc.map(duration)) {
            (Amount::Time(b), None) => (b, 0),
            (Amount::Time(b), Some(Amount::Time(i))) => (b, i),
            (Amount::Bare(b), None) => return Err(ambiguous(&shown, b, None)),
            (Amount::Bare(b), Some(Amount::Bare(i))) => return Err(ambiguous(&shown, b, Some(i))),
            (Amount::Time(_), Some(Amount::Bare(_))) | (Amount::Bare(_), Some(Amount::Time(_))) => {
                return Err(format!(
                    "'{shown}': give both amounts their units, like 5m+3s or 10s+0.1s"
                ))
            }
            _ => {
                return Err(format!(
                    "'{shown}' is not a time control: write it like 5m+3s (5 minutes, 3 seconds a move), 10s+0.1s, or 1d (a day a move)"
                ))
            }
        };
        if base_ms == 0 {
            return Err(format!("'{shown}': the clock must start above zero"));
        }
        if base_ms > MAX_MS || inc_ms > MAX_MS {
            return Err(format!("'{shown}': at most a week on a clock"));
        }
        Ok(TimeControl::Clock { base_ms, inc_ms })
    }

    /// Reads a clock (`10s+0.1s`): what games between engines and a watched game take.
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        match TimeControl::parse(text)? {
            TimeControl::Correspondence { .. } => Err(format!(
                "'{}': days a move are for online games; give a clock, like 10s+0.1s",
                crate::text::quote(&text.chars().take(24).collect::<String>())
            )),
            tc => Ok(tc),
        }
    }

    /// The estimated duration of a game for each side (ms): the initial time plus 40
    /// increments; `None` without a clock.
    pub fn estimated_ms(self) -> Option<u64> {
        match self {
            TimeControl::Clock { base_ms, inc_ms } => Some(base_ms + 40 * inc_ms),
            _ => None,
        }
    }

    /// The speed of a game on this clock (lichess's bounds); `None` for a fixed time,
    /// depth or node count.
    pub fn speed(self) -> Option<Speed> {
        match self {
            TimeControl::Correspondence { .. } => Some(Speed::Correspondence),
            TimeControl::Clock { .. } => {
                let s = self.estimated_ms()? / 1000;
                Some(match s {
                    0..=179 => Speed::Bullet,
                    180..=479 => Speed::Blitz,
                    480..=1499 => Speed::Rapid,
                    _ => Speed::Classical,
                })
            }
            _ => None,
        }
    }
}

/// The two readings of a clock written without units.
fn ambiguous(shown: &str, base: f64, inc: Option<f64>) -> String {
    let inc = inc.map_or(String::new(), |i| format!("+{}s", number(i)));
    let b = number(base);
    format!(
        "'{shown}' does not say its units: {b}m{inc} is {b} minutes a side, {b}s{inc} is {b} seconds; write the units (m minutes, s seconds, ms milliseconds, h hours)"
    )
}

/// A number as written back in an error (no trailing zeros).
fn number(v: f64) -> String {
    let text = format!("{v:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// An amount of time as written: with its unit, or a bare number, or neither.
enum Amount {
    Time(u64),
    Bare(f64),
    Bad,
}

fn duration(text: &str) -> Amount {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let Ok(value) = number.parse::<f64>() else {
        return Amount::Bad;
    };
    if !value.is_finite() || !(0.0..=1e9).contains(&value) {
        return Amount::Bad;
    }
    let scale = match unit {
        "" => return Amount::Bare(value),
        "ms" => 1.0,
        "s" => 1_000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        _ => return Amount::Bad,
    };
    Amount::Time((value * scale).round() as u64)
}

/// An amount of milliseconds in the notation: whole minutes as `Nm`; else seconds
/// (`90s`, `0.1s`, `0s`), but for a part of a second that is not a tenth (`5ms`).
fn written(ms: u64) -> String {
    if ms > 0 && ms % 60_000 == 0 {
        format!("{}m", ms / 60_000)
    } else if ms >= 1_000 || ms % 100 == 0 {
        number(ms as f64 / 1000.0) + "s"
    } else {
        format!("{ms}ms")
    }
}

impl fmt::Display for TimeControl {
    /// The notation (`5m+3s`, `10s+0.1s`, `1d`); a fixed time, depth or node count as
    /// the options that give them (`movetime 500`, `depth 8`, `nodes 20000`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { base_ms, inc_ms } => {
                write!(f, "{}+{}", written(base_ms), written(inc_ms))
            }
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
            TimeControl::MoveTime(ms) => write!(f, "movetime {ms}"),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        TimeControl::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(base_ms: u64, inc_ms: u64) -> TimeControl {
        TimeControl::Clock { base_ms, inc_ms }
    }

    #[test]
    fn the_notation_is_read_with_its_units() {
        for (text, tc) in [
            ("5m+3s", clock(300_000, 3_000)),
            ("10s+0.1s", clock(10_000, 100)),
            ("90s", clock(90_000, 0)),
            ("1.5m+0s", clock(90_000, 0)),
            ("1h+30s", clock(3_600_000, 30_000)),
            ("500ms+10ms", clock(500, 10)),
            (" 3m+2s ", clock(180_000, 2_000)),
            ("1d", TimeControl::Correspondence { days: 1 }),
            ("7d", TimeControl::Correspondence { days: 7 }),
        ] {
            assert_eq!(TimeControl::parse(text), Ok(tc), "{text}");
        }
    }

    #[test]
    fn it_is_written_back_as_it_is_read() {
        for text in [
            "5m+3s",
            "10s+0.1s",
            "90s+0s",
            "1m+0s",
            "60m+30s",
            "500ms+10ms",
            "1d",
            "0.5s+0.005s",
        ] {
            let tc = TimeControl::parse(text).unwrap();
            assert_eq!(
                TimeControl::parse(&tc.to_string()),
                Ok(tc),
                "{text} written {tc}"
            );
        }
        assert_eq!(clock(300_000, 3_000).to_string(), "5m+3s");
        assert_eq!(clock(10_000, 100).to_string(), "10s+0.1s");
        assert_eq!(clock(90_000, 0).to_string(), "90s+0s");
        assert_eq!(clock(500, 5).to_string(), "0.5s+5ms");
        assert_eq!(clock(1_234, 0).to_string(), "1.234s+0s");
    }

    #[test]
    fn a_number_without_its_unit_is_refused_with_both_readings() {
        let e = TimeControl::parse("10+5").unwrap_err();
        assert!(
            e.contains("10m+5s is 10 minutes") && e.contains("10s+5s is 10 seconds"),
            "{e}"
        );
        let e = TimeControl::parse("10+0.1").unwrap_err();
        assert!(e.contains("10m+0.1s") && e.contains("10s+0.1s"), "{e}");
        let e = TimeControl::parse("40").unwrap_err();
        assert!(
            e.contains("40m is 40 minutes") && e.contains("40s is 40 seconds"),
            "{e}"
        );
        for bad in [
            "", "+", "5x+3s", "5m+3", "5+3s", "-1m", "0s+1s", "0d", "31d", "1.5d", "nanm",
            "1e400s", "9999h",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn speeds_follow_lichess_bounds() {
        let speed = |text: &str| TimeControl::parse(text).unwrap().speed();
        assert_eq!(speed("1m+0s"), Some(Speed::Bullet));
        assert_eq!(
            speed("2m+1s"),
            Some(Speed::Bullet),
            "2 minutes and 40 increments: 160 s"
        );
        assert_eq!(speed("3m+0s"), Some(Speed::Blitz));
        assert_eq!(speed("5m+3s"), Some(Speed::Blitz));
        assert_eq!(speed("10m+0s"), Some(Speed::Rapid));
        assert_eq!(speed("15m+10s"), Some(Speed::Rapid));
        assert_eq!(speed("20m+15s"), Some(Speed::Classical));
        assert_eq!(speed("30m+0s"), Some(Speed::Classical));
        assert_eq!(speed("2d"), Some(Speed::Correspondence));
        assert_eq!(TimeControl::Nodes(5).speed(), None);
    }
}
