//! The tablebase hook of the search: the root moves the tables allow, and the score
//! of a position with few enough animals below the root.
//!
//! A probe returns the exact mate score (`mate_in`/`mated_in` the table's DTM) when
//! the game ends within the no-capture rule whatever the count does (DTM plus the
//! plies already without a capture fit in the rule); a win within the rule that needs
//! captures to reset the count scores just below the mate scores (`TB_WIN` less the
//! distances, so that shorter wins are preferred); cursed wins and blessed losses
//! score +1/-1, draws 0.

use super::limits::Limits;
use super::score::{mate_in, mated_in, MATE_BOUND, MAX_PLY};
use crate::board::{Move, MoveRules, Position};
use crate::game::Game;
use crate::tb::material::{Material, TbRules};
use crate::tb::store::{TableSet, BUILD_IN_MEMORY};
use crate::tb::{probe_moves, probe_position, Tablebases, TbValue, Wdl};
use std::sync::Arc;

/// Scores of tablebase wins within the rule that are not exact mates lie below this.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Longest distance that is shown as an exact mate.
const MAX_EXACT: u32 = 800;

/// The tables one search probes (a snapshot of those in memory at its start).
pub struct TbSearch {
    set: TableSet,
    /// Most animals a probed position may have.
    limit: u32,
}

impl TbSearch {
    /// The tables for a search of `game`, or `None` when probing is off or the tables
    /// do not fit the game's rules. The root's own table is loaded or built first
    /// when the search has no clock (the wait counts in its time otherwise, so under a
    /// clock it is only requested, with the tables a capture or two away, for later
    /// searches).
    pub fn prepare(
        tablebases: &Arc<Tablebases>,
        limit: u32,
        game: &Game,
        limits: &Limits,
    ) -> Option<TbSearch> {
        let rules = TbRules::for_rules(game.rules()).ok()?;
        if limit == 0 || rules != tablebases.rules() {
            return None;
        }
        let root = Material::of(game.position());
        if root.is_playable() && root.count() as u32 <= limit && tablebases.get(root).is_none() {
            if limits.uses_clock() {
                tablebases.request(root);
            } else if let Err(e) = tablebases.ensure(root, &|_| {}) {
                log::info!("no table for the root: {e}");
            }
        }
        // Tables the search may reach after captures, loaded in the background.
        let wanted = (limit as usize).min(BUILD_IN_MEMORY + 1);
        for child in root.capture_children() {
            if child.count() <= wanted {
                tablebases.request(child);
            }
            for grandchild in child.capture_children() {
                if grandchild.count() <= wanted {
                    tablebases.request(grandchild);
                }
            }
        }
        Some(TbSearch {
            set: tablebases.snapshot(),
            limit,
        })
    }

    /// Keeps the root moves that hold the best value the tables give (a win within
    /// the rule, else a cursed win, a draw...), fastest win or longest loss first.
    /// Returns false (and changes nothing) when the tables do not cover the root.
    pub fn filter_root<R: MoveRules>(&self, pos: &Position, root: &mut Vec<Move>) -> bool {
        if pos.all_occupied().count() > self.limit {
            return false;
        }
        let Some(values) = probe_moves::<R>(&self.set, pos) else {
            return false;
        };
        let Some(best) = values
            .iter()
            .filter(|v| root.contains(&v.mv))
            .map(|v| v.wdl)
            .max()
        else {
            return false;
        };
        let kept: Vec<Move> = values
            .iter()
            .filter(|v| v.wdl == best && root.contains(&v.mv))
            .map(|v| v.mv)
            .collect();
        *root = kept;
        true
    }

    /// The score of a position `ply` plies from the root, if the tables have it.
    #[inline]
    pub fn score(&self, pos: &Position, ply: usize) -> Option<i32> {
        if pos.all_occupied().count() > self.limit {
            return None;
        }
        let p = probe_position(&self.set, pos)?;
        let rule = self.set.rules.no_capture_plies as u32;
        let count = pos.halfmove_clock() as u32;
        // The game ends within d plies, before the count can reach the rule.
        let exact = |d: u16| (rule == 0 || d as u32 + count <= rule) && (d as u32) < MAX_EXACT;
        let far = |d: u16| ply as i32 + (d as u32).min(MAX_EXACT) as i32;
        Some(match (p.wdl, p.outcome) {
            (Wdl::Win, TbValue::Win(d)) if exact(d) => mate_in(ply + d as usize),
            (Wdl::Loss, TbValue::Loss(d)) if exact(d) => mated_in(ply + d as usize),
            (Wdl::Win, TbValue::Win(d)) => TB_WIN - far(d),
            (Wdl::Loss, TbValue::Loss(d)) => -TB_WIN + far(d),
            (Wdl::CursedWin, _) => 1,
            (Wdl::BlessedLoss, _) => -1,
            _ => 0,
        })
    }
}

const _: () = assert!(TB_WIN - MAX_PLY as i32 - MAX_EXACT as i32 > 20_000);
