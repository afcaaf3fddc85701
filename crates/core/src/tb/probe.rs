//! What a position and each of its moves are worth according to the tables, under the
//! rules in force and the game's count of plies without a capture.

use super::material::{Material, TbRules};
use super::store::{TableSet, Tablebases};
use super::table::{Entry, TbValue, Wdl};
use crate::board::movegen::generate_with;
use crate::board::{Move, MoveList, MoveRules, Position};
use crate::game::Game;
use crate::with_move_rules;
use std::cmp::Reverse;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub entry: Entry,
    /// Under the no-capture rule, with the position's own count.
    pub wdl: Wdl,
    /// Ignoring the no-capture rule.
    pub outcome: TbValue,
    /// Plies to the win, or to the capture that keeps it, within the rule (counter 0).
    pub dtz: Option<u16>,
}

/// The value of one move for the side that makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    pub mv: Move,
    /// Under the no-capture rule, with the count after the move.
    pub wdl: Wdl,
    /// Ignoring the rule: win or loss in this many plies counting the move.
    pub outcome: TbValue,
    /// Plies to the zeroing move (this capture: 1) when decided within the rule.
    pub dtz: Option<u16>,
    pub capture: bool,
}

impl MoveValue {
    /// Sort key, larger is better for the mover: within-rule wins fastest first, then
    /// cursed wins, draws, blessed losses, and losses that last longest.
    pub fn rank(&self) -> (Wdl, i32, i32) {
        let dtm = self.outcome.plies().map_or(0, i32::from);
        let z = self.dtz.map_or(0, i32::from);
        match self.wdl {
            Wdl::Win | Wdl::CursedWin => (self.wdl, -dtm, -z),
            Wdl::Draw => (self.wdl, 0, 0),
            Wdl::BlessedLoss | Wdl::Loss => (self.wdl, dtm, z),
        }
    }
}

/// The value of a position that the tables cover (`None` otherwise, or when the game
/// is already over on the board).
pub fn probe_position(set: &TableSet, pos: &Position) -> Option<Probe> {
    if pos.is_over_on_board() {
        return None;
    }
    let table = set.table(Material::of(pos))?;
    let entry = table.entry_of(pos)?;
    Some(Probe {
        entry,
        wdl: entry.wdl(set.rules.no_capture_plies, pos.halfmove_clock()),
        outcome: entry.outcome(),
        dtz: entry.dtz(),
    })
}

/// The value of every legal move (under the move rules `R`, which must be the
/// tables'), best first; `None` when a move leads to a signature without a table.
pub fn probe_moves<R: MoveRules>(set: &TableSet, pos: &Position) -> Option<Vec<MoveValue>> {
    let mut list = MoveList::new();
    generate_with::<R>(pos, &mut list);
    let mut values = Vec::with_capacity(list.len());
    for &mv in list.iter() {
        values.push(move_value(set, pos, mv)?);
    }
    values.sort_by_key(|v| Reverse(v.rank()));
    Some(values)
}

/// The value of every legal move of `game`'s position by `tables`, best first for
/// the side to move, when the position has at most `max_animals` animals and its
/// table (with those its captures lead to) can be had: from memory, read or built as
/// `tables` allows (`Tablebases::ensure`, which may wait). `None` otherwise, or when
/// the tables were made for other rules than the game's.
pub fn game_move_values(
    tables: &Tablebases,
    game: &Game,
    max_animals: usize,
) -> Option<Vec<MoveValue>> {
    let rules = TbRules::for_rules(game.rules()).ok()?;
    let pos = game.position();
    if rules != tables.rules() || pos.all_occupied().count() as usize > max_animals {
        return None;
    }
    tables.ensure(Material::of(pos), &|_| {}).ok()?;
    let set = tables.snapshot();
    with_move_rules!(game.rules().moves, R => probe_moves::<R>(&set, pos))
}

/// The value of one legal move.
pub fn move_value(set: &TableSet, pos: &Position, mv: Move) -> Option<MoveValue> {
    let capture = pos.is_capture(mv);
    let mut child = *pos;
    child.play(mv);
    if child.is_over_on_board() {
        // The den entered or the last animal taken.
        return Some(MoveValue {
            mv,
            wdl: Wdl::Win,
            outcome: TbValue::Win(1),
            dtz: Some(1),
            capture,
        });
    }
    let reply = probe_position(set, &child)?;
    let outcome = match reply.outcome {
        TbValue::Win(d) => TbValue::Loss(d + 1),
        TbValue::Loss(d) => TbValue::Win(d + 1),
        TbValue::Draw => TbValue::Draw,
    };
    let dtz = reply.dtz.map(|z| if capture { 1 } else { z + 1 });
    Some(MoveValue {
        mv,
        wdl: reply.wdl.flipped(),
        outcome,
        dtz,
        capture,
    })
}
