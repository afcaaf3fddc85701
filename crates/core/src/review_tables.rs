//! The exact part of a review: where the endgame tables cover the position before a
//! move, they say what the move did to its side's result, whatever the engine's
//! scores say (issue 64).
//!
//! The judgement is by the game's result under the rules in force: a table value is a
//! win, a draw or a loss for the mover (a cursed win and a blessed loss, decided
//! beyond the no-capture rule, are draws). A move is
//! - perfect when it keeps the position's result: a win stays a win, a draw a draw;
//!   in a lost position, where every move keeps the loss, the moves that lose
//!   slowest (the tables' order: the longest mate, then the longest distance to the
//!   capture that keeps it) are perfect, and the others keep the loss unmarked;
//! - a blunder when it throws a result away: win → draw, win → loss, draw → loss.
//!
//! No I/O here: the callers probe the tables (`tb::probe::game_move_values`) and pass
//! the values.

use crate::board::Move;
use crate::tb::{MoveValue, Wdl};
use std::cmp::Reverse;
use std::fmt;

/// A result for the mover as the tables decide it under the rules in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TableResult {
    Loss,
    Draw,
    Win,
}

impl TableResult {
    /// The result of a table value (the no-capture rule applied).
    pub fn of(wdl: Wdl) -> TableResult {
        match wdl {
            Wdl::Win => TableResult::Win,
            Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => TableResult::Draw,
            Wdl::Loss => TableResult::Loss,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TableResult::Loss => "loss",
            TableResult::Draw => "draw",
            TableResult::Win => "win",
        }
    }

    pub fn from_name(name: &str) -> Option<TableResult> {
        [TableResult::Loss, TableResult::Draw, TableResult::Win]
            .into_iter()
            .find(|r| r.name() == name)
    }

    /// The result as points of expected result (the review's scale): 100, 50, 0.
    pub fn points(self) -> f64 {
        match self {
            TableResult::Loss => 0.0,
            TableResult::Draw => 50.0,
            TableResult::Win => 100.0,
        }
    }
}

/// What the tables say of one move: the mover's result before it and after it, and
/// whether it was perfect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableNote {
    pub before: TableResult,
    pub after: TableResult,
    /// Kept the result (in a lost position: one of the slowest losses).
    pub perfect: bool,
}

impl TableNote {
    /// The move threw a result away.
    pub fn is_blunder(&self) -> bool {
        self.after < self.before
    }

    /// The points of expected result the move lost: exact (0, 50 or 100).
    pub fn loss(&self) -> f64 {
        (self.before.points() - self.after.points()).max(0.0)
    }

    /// Reads `Display`'s words after `tb`: `win->draw` (a result thrown away), or a
    /// result kept (`win`, `loss`) followed by `perfect` when it was.
    pub fn parse(value: &str, perfect: bool) -> Option<TableNote> {
        let (before, after) = match value.split_once("->") {
            Some((b, a)) => (TableResult::from_name(b)?, TableResult::from_name(a)?),
            None => {
                let kept = TableResult::from_name(value)?;
                (kept, kept)
            }
        };
        let note = TableNote {
            before,
            after,
            perfect: perfect && before == after,
        };
        (before >= after).then_some(note)
    }
}

/// `win perfect`, `loss perfect`, `loss` (a faster loss), `win->draw`.
impl fmt::Display for TableNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.before != self.after {
            return write!(f, "{}->{}", self.before.name(), self.after.name());
        }
        write!(f, "{}", self.before.name())?;
        if self.perfect {
            write!(f, " perfect")?;
        }
        Ok(())
    }
}

/// The tables' judgement of a move and, when it threw a result away, a move that
/// keeps it (the tables' best).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableJudgement {
    pub note: TableNote,
    pub best: Option<Move>,
}

/// Judges `played` by the values of every legal move of the position before it
/// (`values`, as `tb::probe_moves` gives them, in any order; the better move of a
/// blunder is the first of the best); `None` when `played` is not among them.
pub fn judge(values: &[MoveValue], played: Move) -> Option<TableJudgement> {
    // The first of the best (`probe_moves`'s order: its first move).
    let best = values.iter().min_by_key(|v| Reverse(v.rank()))?;
    let value = values.iter().find(|v| v.mv == played)?;
    let before = TableResult::of(best.wdl);
    let after = TableResult::of(value.wdl);
    let perfect = match before {
        TableResult::Loss => value.rank() == best.rank(),
        _ => after == before,
    };
    let note = TableNote {
        before,
        after,
        perfect,
    };
    Some(TableJudgement {
        best: note.is_blunder().then_some(best.mv),
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Standard};
    use crate::tb::index::Indexer;
    use crate::tb::material::{Material, TbRules};
    use crate::tb::{probe_moves, Tablebases};

    fn result(v: &MoveValue) -> TableResult {
        TableResult::of(v.wdl)
    }

    /// The position's result: its best move's.
    fn result_of(values: &[MoveValue]) -> TableResult {
        values.iter().map(result).max().unwrap_or(TableResult::Loss)
    }

    /// The first position of `signature`'s table (built in memory, in index order)
    /// whose moves' values satisfy `wanted`, with those values.
    fn find(signature: &str, wanted: impl Fn(&[MoveValue]) -> bool) -> Vec<MoveValue> {
        let material = Material::parse(signature).expect("a signature");
        let tables = Tablebases::new(TbRules::default(), None);
        tables.ensure(material, &|_| {}).expect("a small table");
        let set = tables.snapshot();
        let indexer = Indexer::new(material.canonical(), false);
        (0..indexer.len())
            .map(|i| indexer.position(&indexer.decode(i)))
            .filter(|pos: &Position| !pos.is_over_on_board())
            .filter_map(|pos| probe_moves::<Standard>(&set, &pos))
            .find(|v| wanted(v))
            .unwrap_or_else(|| panic!("no such position of {signature}"))
    }

    fn with(values: &[MoveValue], r: TableResult) -> Move {
        values
            .iter()
            .find(|v| result(v) == r)
            .expect("such a move")
            .mv
    }

    fn has(values: &[MoveValue], r: TableResult) -> bool {
        values.iter().any(|v| result(v) == r)
    }

    #[test]
    fn in_a_won_position_keeping_the_win_is_perfect_and_throwing_it_a_blunder() {
        let v = find("LR v E", |v| {
            result_of(v) == TableResult::Win
                && has(v, TableResult::Draw)
                && has(v, TableResult::Loss)
        });
        let j = judge(&v, with(&v, TableResult::Win)).expect("a legal move");
        assert_eq!(j.note.to_string(), "win perfect");
        assert!(!j.note.is_blunder() && j.best.is_none());
        assert_eq!(j.note.loss(), 0.0);
        for (thrown, loss) in [(TableResult::Draw, 50.0), (TableResult::Loss, 100.0)] {
            let j = judge(&v, with(&v, thrown)).expect("a legal move");
            assert!(j.note.is_blunder() && !j.note.perfect, "{}", j.note);
            assert_eq!(j.note.to_string(), format!("win->{}", thrown.name()));
            assert_eq!(j.note.loss(), loss);
            let best = j.best.expect("a move that keeps the win");
            assert_eq!(best, v[0].mv, "the first of the tables' best");
            let kept = v.iter().find(|x| x.mv == best).expect("legal");
            assert_eq!(result(kept), TableResult::Win);
        }
    }

    #[test]
    fn in_a_drawn_position_a_losing_move_is_a_blunder_and_a_drawing_one_perfect() {
        let v = find("LR v E", |v| {
            result_of(v) == TableResult::Draw && has(v, TableResult::Loss)
        });
        let j = judge(&v, with(&v, TableResult::Loss)).expect("legal");
        assert_eq!(j.note.to_string(), "draw->loss");
        assert_eq!(j.note.loss(), 50.0);
        assert!(j.best.is_some());
        let j = judge(&v, with(&v, TableResult::Draw)).expect("legal");
        assert_eq!(j.note.to_string(), "draw perfect");
        assert_eq!(j.note.loss(), 0.0);
    }

    #[test]
    fn in_a_lost_position_the_slowest_losses_are_perfect_and_the_others_unmarked() {
        let v = find("LR v E", |v| {
            result_of(v) == TableResult::Loss
                && v.first().map(MoveValue::rank) != v.last().map(MoveValue::rank)
        });
        let slowest = judge(&v, v[0].mv).expect("legal");
        assert_eq!(slowest.note.to_string(), "loss perfect");
        let fastest = v.last().expect("moves");
        let j = judge(&v, fastest.mv).expect("legal");
        assert_eq!(j.note.to_string(), "loss");
        assert!(!j.note.is_blunder() && j.note.loss() == 0.0 && j.best.is_none());
    }

    #[test]
    fn a_move_not_among_the_values_is_not_judged() {
        let v = find("LR v E", |v| !v.is_empty());
        let other = v[0].mv;
        assert_eq!(judge(&v[1..], other), None);
        assert_eq!(judge(&[], other), None);
    }

    #[test]
    fn notes_read_back_as_written() {
        for (before, after, perfect) in [
            (TableResult::Win, TableResult::Win, true),
            (TableResult::Draw, TableResult::Draw, true),
            (TableResult::Loss, TableResult::Loss, true),
            (TableResult::Loss, TableResult::Loss, false),
            (TableResult::Win, TableResult::Draw, false),
            (TableResult::Win, TableResult::Loss, false),
            (TableResult::Draw, TableResult::Loss, false),
        ] {
            let note = TableNote {
                before,
                after,
                perfect,
            };
            let text = note.to_string();
            let (value, rest) = text.split_once(' ').unwrap_or((&text, ""));
            assert_eq!(
                TableNote::parse(value, rest == "perfect"),
                Some(note),
                "{text}"
            );
        }
        assert_eq!(TableResult::of(Wdl::CursedWin), TableResult::Draw);
        assert_eq!(TableResult::of(Wdl::BlessedLoss), TableResult::Draw);
        assert_eq!(TableNote::parse("draw->win", false), None);
        assert_eq!(TableNote::parse("won", true), None);
        assert_eq!(TableNote::parse("win->", false), None);
    }
}
