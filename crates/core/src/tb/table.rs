//! One table in memory: the value of every position of a signature, and what a probe
//! of one position returns.
//!
//! Two numbers per position, both in plies and both from the side to move's view:
//! - DTM, distance to mate: the game-theoretic value when the no-capture rule and
//!   repetitions are ignored. A win in `d` plies (odd: the winner makes the last move),
//!   a loss in `d` plies (even; 0 = no legal move now), or a draw (neither side can
//!   force a win). Stored as `d + 1`, 0 for a draw.
//! - DTZ, distance to zeroing under the no-capture rule of `N` plies: with the counter
//!   at 0, the side to move wins within the rule when it can force, within `z <= N`
//!   plies, either a win or a capture into a position that is itself won within the
//!   rule; it loses within the rule when the opponent can force that (or when all its
//!   own moves are captures into such positions: `z = 1`). The winner is the DTM
//!   winner (a win within the rule is a win without it), so `z` needs no sign. With
//!   `c` plies already played since the last capture the position is won (lost)
//!   within the rule exactly when `z <= N - c`. A DTM win that is not won within the
//!   rule is a *cursed win* (a draw under the rule), a DTM loss that is not lost
//!   within it a *blessed loss*. Stored as `z + 1`, 0 when not decided within the rule
//!   at counter 0; absent for tables built without a no-capture rule.

use super::index::Indexer;
use super::material::{Material, TbRules};
use crate::board::Position;
use std::fmt;

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TbValue {
    /// Wins in this many plies (odd).
    Win(u16),
    Draw,
    /// Loses in this many plies (even; 0: no legal move).
    Loss(u16),
}

impl TbValue {
    /// From the stored form `plies + 1` (0 = draw).
    #[inline]
    pub fn from_raw(raw: u16) -> TbValue {
        match raw {
            0 => TbValue::Draw,
            r if (r - 1) % 2 == 1 => TbValue::Win(r - 1),
            r => TbValue::Loss(r - 1),
        }
    }

    #[inline]
    pub fn plies(self) -> Option<u16> {
        match self {
            TbValue::Win(d) | TbValue::Loss(d) => Some(d),
            TbValue::Draw => None,
        }
    }
}

impl fmt::Display for TbValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbValue::Win(d) => write!(f, "win in {d} plies"),
            TbValue::Loss(d) => write!(f, "loss in {d} plies"),
            TbValue::Draw => write!(f, "draw"),
        }
    }
}

/// The value under the no-capture rule, for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    /// Lost without the rule, drawn with it.
    BlessedLoss,
    Draw,
    /// Won without the rule, drawn with it.
    CursedWin,
    Win,
}

impl Wdl {
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        }
    }

    /// The same value for the other side.
    pub fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// The stored values of one position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// DTM + 1, 0 for a draw.
    pub dtm_raw: u16,
    /// DTZ + 1, 0 when not decided within the rule (always 0 without a rule).
    pub dtz_raw: u8,
}

impl Entry {
    #[inline]
    pub fn outcome(self) -> TbValue {
        TbValue::from_raw(self.dtm_raw)
    }

    /// DTZ in plies, when the position is decided within the rule at counter 0.
    #[inline]
    pub fn dtz(self) -> Option<u16> {
        (self.dtz_raw != 0).then(|| self.dtz_raw as u16 - 1)
    }

    /// The value under a no-capture rule of `rule` plies (0: none) with `counter`
    /// plies already played without a capture.
    pub fn wdl(self, rule: u16, counter: u16) -> Wdl {
        let outcome = self.outcome();
        if rule == 0 {
            return match outcome {
                TbValue::Win(_) => Wdl::Win,
                TbValue::Loss(_) => Wdl::Loss,
                TbValue::Draw => Wdl::Draw,
            };
        }
        let within = self
            .dtz()
            .filter(|&z| z as u32 + counter as u32 <= rule as u32);
        match (outcome, within) {
            (TbValue::Win(_), Some(_)) => Wdl::Win,
            (TbValue::Loss(_), Some(_)) => Wdl::Loss,
            (TbValue::Win(_), None) => Wdl::CursedWin,
            (TbValue::Loss(_), None) => Wdl::BlessedLoss,
            (TbValue::Draw, _) => Wdl::Draw,
        }
    }
}

/// Counts over a table, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Wins, draws, losses for the side to move, `[red to move, blue to move]` (for a
    /// signature equal to its twin, both are the Red-to-move half).
    pub wins: [u64; 2],
    pub draws: [u64; 2],
    pub losses: [u64; 2],
    /// DTM wins that the no-capture rule turns into draws, and DTM losses it saves.
    pub cursed: u64,
    pub blessed: u64,
    /// The longest DTM and DTZ, in plies, and where the longest DTM win is.
    pub max_dtm: u16,
    pub max_dtz: u16,
    pub longest_win: Option<usize>,
}

/// The stored DTMs: a byte each when they fit, else two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dtms {
    Bytes(Vec<u8>),
    Words(Vec<u16>),
}

impl Dtms {
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        match self {
            Dtms::Bytes(v) => v[i] as u16,
            Dtms::Words(v) => v[i],
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Dtms::Bytes(v) => v.len(),
            Dtms::Words(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// From full-width values, narrowed when every value fits a byte.
    pub fn from_words(words: Vec<u16>) -> Dtms {
        if words.iter().all(|&w| w <= u8::MAX as u16) {
            Dtms::Bytes(words.into_iter().map(|w| w as u8).collect())
        } else {
            Dtms::Words(words)
        }
    }

    /// Bytes per value.
    pub fn width(&self) -> usize {
        match self {
            Dtms::Bytes(_) => 1,
            Dtms::Words(_) => 2,
        }
    }
}

/// One signature's table.
#[derive(Clone, Debug)]
pub struct Table {
    pub material: Material,
    pub rules: TbRules,
    pub indexer: Indexer,
    pub dtm: Dtms,
    /// Empty when the rules have no no-capture draw.
    pub dtz: Vec<u8>,
    pub stats: TableStats,
}

impl Table {
    /// Assembles a table from its values, checking the sizes.
    pub fn new(
        material: Material,
        rules: TbRules,
        dtm: Dtms,
        dtz: Vec<u8>,
    ) -> Result<Table, super::TbError> {
        let indexer = Indexer::new(material, rules.moves.dog_swims);
        let want_dtz = if rules.no_capture_plies == 0 {
            0
        } else {
            indexer.len()
        };
        if dtm.len() != indexer.len() || dtz.len() != want_dtz {
            return Err(super::TbError::Corrupt(format!(
                "{material}: {} DTM and {} DTZ values for {} positions",
                dtm.len(),
                dtz.len(),
                indexer.len()
            )));
        }
        let mut table = Table {
            material: indexer.material,
            rules,
            indexer,
            dtm,
            dtz,
            stats: TableStats::default(),
        };
        table.stats = table.count();
        Ok(table)
    }

    pub fn len(&self) -> usize {
        self.indexer.len()
    }

    /// The bytes its values take in memory (DTM and DTZ).
    pub fn memory_bytes(&self) -> usize {
        self.dtm.len() * self.dtm.width() + self.dtz.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn entry(&self, index: usize) -> Entry {
        Entry {
            dtm_raw: self.dtm.get(index),
            dtz_raw: if self.dtz.is_empty() {
                0
            } else {
                self.dtz[index]
            },
        }
    }

    /// The entry of a position of this signature or its colour twin (`None` for other
    /// material or a finished position).
    #[inline]
    pub fn entry_of(&self, pos: &Position) -> Option<Entry> {
        self.indexer.index_of(pos).map(|i| self.entry(i))
    }

    fn count(&self) -> TableStats {
        match &self.dtm {
            Dtms::Bytes(v) => self.count_raw(v.iter().map(|&raw| u16::from(raw))),
            Dtms::Words(v) => self.count_raw(v.iter().copied()),
        }
    }

    /// `count` over the raw DTMs (`Entry::dtm_raw`), in one pass.
    fn count_raw(&self, dtm: impl Iterator<Item = u16>) -> TableStats {
        let mut s = TableStats::default();
        let half = self.len() / if self.material.is_symmetric() { 1 } else { 2 };
        let rule = self.rules.no_capture_plies;
        let mut longest: Option<(u16, usize)> = None;
        for (i, dtm_raw) in dtm.enumerate() {
            let side = usize::from(i >= half);
            let outcome = TbValue::from_raw(dtm_raw);
            match outcome {
                TbValue::Win(d) => {
                    s.wins[side] += 1;
                    if longest.map_or(true, |(l, _)| d > l) {
                        longest = Some((d, i));
                    }
                }
                TbValue::Draw => {
                    s.draws[side] += 1;
                    continue; // no distance, and the rule changes nothing
                }
                TbValue::Loss(_) => s.losses[side] += 1,
            }
            s.max_dtm = s.max_dtm.max(dtm_raw - 1);
            if rule > 0 {
                let e = Entry {
                    dtm_raw,
                    dtz_raw: self.dtz[i],
                };
                match e.wdl(rule, 0) {
                    Wdl::CursedWin => s.cursed += 1,
                    Wdl::BlessedLoss => s.blessed += 1,
                    _ => {}
                }
            }
        }
        if self.material.is_symmetric() {
            s.wins[1] = s.wins[0];
            s.draws[1] = s.draws[0];
            s.losses[1] = s.losses[0];
        }
        s.longest_win = longest.map(|(_, i)| i);
        let max_dtz_raw = self.dtz.iter().copied().max().unwrap_or(0);
        s.max_dtz = u16::from(max_dtz_raw.saturating_sub(1));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_values_decode() {
        assert_eq!(TbValue::from_raw(0), TbValue::Draw);
        assert_eq!(TbValue::from_raw(1), TbValue::Loss(0));
        assert_eq!(TbValue::from_raw(2), TbValue::Win(1));
        assert_eq!(TbValue::from_raw(9), TbValue::Loss(8));
    }

    #[test]
    fn the_counter_decides_within_the_rule() {
        let e = Entry {
            dtm_raw: 42,
            dtz_raw: 12,
        }; // win in 41 plies, 11 plies to the next capture
        assert_eq!(e.outcome(), TbValue::Win(41));
        assert_eq!(e.dtz(), Some(11));
        assert_eq!(e.wdl(100, 0), Wdl::Win);
        assert_eq!(e.wdl(100, 89), Wdl::Win);
        assert_eq!(e.wdl(100, 90), Wdl::CursedWin);
        assert_eq!(e.wdl(0, 90), Wdl::Win);
        let lost = Entry {
            dtm_raw: 31,
            dtz_raw: 0,
        };
        assert_eq!(lost.wdl(100, 0), Wdl::BlessedLoss);
        assert_eq!(Wdl::BlessedLoss.flipped(), Wdl::CursedWin);
    }
}
