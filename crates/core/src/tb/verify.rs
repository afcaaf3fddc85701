//! The verification of a table against the rules core: every stored value agrees with
//! the values of its moves, and random positions agree with a brute-force search that
//! knows nothing of the tables (`brute`). The tests run it on the small signatures,
//! `jungle tb verify` on table files (docs/tablebases.md, "Checking the tables").

use super::brute::Brute;
use super::probe::move_value;
use super::store::TableSet;
use super::table::{Table, TbValue, Wdl};
use crate::board::movegen::generate_with;
use crate::board::{MoveList, MoveRules};
use crate::rng::Rng;
use rayon::prelude::*;

/// Every `step`-th stored value agrees with the values of its moves (the Bellman
/// equations of DTM and of DTZ within the rule), checked with the rules core's move
/// generator. With the values of smaller tables right, this proves a table right: a
/// win's distance has a move that realises it, a loss has no move that escapes, and a
/// draw neither wins nor loses by any move. Returns the positions checked, or the
/// first disagreement found (on all threads: not necessarily the lowest index).
pub fn consistency<R: MoveRules>(
    set: &TableSet,
    table: &Table,
    step: usize,
) -> Result<usize, String> {
    (0..table.len())
        .into_par_iter()
        .step_by(step.max(1))
        .try_for_each(|i| check_position::<R>(set, table, i))?;
    Ok(table.len().div_ceil(step.max(1)))
}

/// The value stored at index `i` against the values of the position's moves.
fn check_position<R: MoveRules>(set: &TableSet, table: &Table, i: usize) -> Result<(), String> {
    let rule = set.rules.no_capture_plies;
    let pos = table.indexer.position(&table.indexer.decode(i));
    let e = table.entry(i);
    let mut list = MoveList::new();
    generate_with::<R>(&pos, &mut list);
    // Best DTM for the mover over the moves: wins minimise, losses maximise.
    let mut best_win: Option<u16> = None;
    let mut longest_loss: Option<u16> = None;
    let mut any_draw = false;
    let mut zwin: Option<u16> = None;
    let mut zloss_max: Option<u16> = None;
    let mut z_undecided = false;
    for &m in list.iter() {
        let v = move_value(set, &pos, m).ok_or_else(|| {
            format!(
                "{}: the move {m} of {pos} leads outside the tables",
                table.material
            )
        })?;
        match v.outcome {
            TbValue::Win(d) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
            TbValue::Loss(d) => longest_loss = Some(longest_loss.map_or(d, |b| b.max(d))),
            TbValue::Draw => any_draw = true,
        }
        // Within the rule from a count of 0 here (so 1 after a quiet move).
        match (v.wdl, v.dtz) {
            (Wdl::Win, Some(z)) => zwin = Some(zwin.map_or(z, |b| b.min(z))),
            (Wdl::Loss, Some(z)) => zloss_max = Some(zloss_max.map_or(z, |b| b.max(z))),
            _ => z_undecided = true,
        }
    }
    let expected = if list.is_empty() {
        TbValue::Loss(0)
    } else if let Some(w) = best_win {
        TbValue::Win(w)
    } else if any_draw {
        TbValue::Draw
    } else {
        TbValue::Loss(longest_loss.unwrap_or(0))
    };
    let wrong = |what: &str, stored: String, moves: String| {
        Err(format!(
            "{} {what} at {pos} (index {i}): stored {stored}, its moves give {moves}",
            table.material
        ))
    };
    if e.outcome() != expected {
        return wrong("DTM", e.outcome().to_string(), expected.to_string());
    }
    if rule > 0 {
        let (expected_wdl, expected_z) = if list.is_empty() {
            (Wdl::Loss, Some(0))
        } else if zwin.is_some() {
            (Wdl::Win, zwin)
        } else if !z_undecided {
            (Wdl::Loss, zloss_max)
        } else {
            (
                e.wdl(rule, 0).min(Wdl::CursedWin).max(Wdl::BlessedLoss),
                None,
            )
        };
        if e.dtz() != expected_z {
            return wrong("DTZ", format!("{:?}", e.dtz()), format!("{expected_z:?}"));
        }
        if e.wdl(rule, 0) != expected_wdl {
            return wrong(
                "WDL",
                e.wdl(rule, 0).name().into(),
                expected_wdl.name().into(),
            );
        }
    }
    Ok(())
}

/// The table agrees with the brute-force search on `samples` random positions
/// (from `seed`): exact DTM for every decided position within `horizon` plies, and no
/// forced result within the horizon for the others. Returns (positions checked, of
/// which exact), or the first disagreement.
pub fn against_brute<R: MoveRules>(
    set: &TableSet,
    table: &Table,
    samples: usize,
    horizon: u32,
    seed: u64,
) -> Result<(usize, usize), String> {
    let mut rng = Rng::new(seed);
    let mut brute = Brute::<R>::new(set.rules.no_capture_plies as u32);
    let mut exact = 0;
    for _ in 0..samples {
        let i = rng.below(table.len());
        let pos = table.indexer.position(&table.indexer.decode(i));
        let outcome = table.entry(i).outcome();
        let fails = |why: &str| -> Result<(usize, usize), String> {
            Err(format!(
                "{} at {pos} (index {i}): stored {outcome}, but the brute-force search {why}",
                table.material
            ))
        };
        match outcome {
            TbValue::Win(d) if u32::from(d) <= horizon => {
                if !brute.wins_within(&pos, d as u32) {
                    return fails(&format!("finds no win within {d} plies"));
                }
                if brute.wins_within(&pos, d as u32 - 1) {
                    return fails(&format!("wins faster than {d} plies"));
                }
                exact += 1;
            }
            TbValue::Loss(d) if u32::from(d) <= horizon => {
                if !brute.loses_within(&pos, d as u32) {
                    return fails(&format!("finds no loss within {d} plies"));
                }
                if d >= 2 && brute.loses_within(&pos, d as u32 - 2) {
                    return fails(&format!("loses before {d} plies"));
                }
                exact += 1;
            }
            _ => {
                if brute.wins_within(&pos, horizon) {
                    return fails(&format!("wins within {horizon} plies"));
                }
                if brute.loses_within(&pos, horizon) {
                    return fails(&format!("loses within {horizon} plies"));
                }
            }
        }
    }
    Ok((samples, exact))
}
