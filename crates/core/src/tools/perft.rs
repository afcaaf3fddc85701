//! Perft: the number of leaf positions of the legal move tree to a fixed depth, the
//! standard check of a move generator. The last two plies are counted in bulk, without
//! playing their moves: the legal moves of each position one ply above the leaves
//! (`board::count`), and the leaves two plies below a position from the replies' reach
//! (`board::count::count_two_plies`); every leaf is counted, none is looked up in a
//! table. Den entries and captures of the last animal end the game, so nothing is
//! counted below them; repetition rules do not apply.

use crate::board::count::{count_two_plies, count_with};
use crate::board::movegen::generate_with;
use crate::board::{Move, MoveList, MoveRules, Position, Standard};
use crate::clock::Instant;
use rayon::prelude::*;
use std::io::{self, Write};
use std::iter::Sum;
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaves of the move tree `depth` plies deep, single-threaded.
pub fn perft_with<R: MoveRules>(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_with::<R>(pos) as u64,
        2 => count_two_plies::<R>(pos),
        _ => sum_over_children::<R, u64>(pos, |child| perft_with::<R>(child, depth - 1)),
    }
}

/// The sum of `count` over the positions after each legal move of `pos`.
fn sum_over_children<R: MoveRules, T: Sum<T>>(pos: &Position, count: impl Fn(&Position) -> T) -> T {
    let mut list = MoveList::new();
    generate_with::<R>(pos, &mut list);
    list.iter()
        .map(|&m| {
            let mut child = *pos;
            child.play(m);
            count(&child)
        })
        .sum()
}

/// Plies above the leaves from which `perft_until` looks at its stop flag: the
/// subtrees below are counted whole (milliseconds each).
const STOP_CHECK_DEPTH: u32 = 5;

/// `perft_with` that gives up once `stop` is set (`None`), looking at it at every node
/// at least `STOP_CHECK_DEPTH` plies above the leaves: the count of a caller that can
/// be interrupted (the Python package's `Board.perft` on Ctrl-C).
pub fn perft_until<R: MoveRules>(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < STOP_CHECK_DEPTH {
        return Some(perft_with::<R>(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    sum_over_children::<R, Option<u64>>(pos, |child| perft_until::<R>(child, depth - 1, stop))
}

/// `perft_with` under the default rules.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_with::<Standard>(pos, depth)
}

/// Leaves below each legal move, in generation order.
pub fn divide_with<R: MoveRules>(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let mut roots = MoveList::new();
    generate_with::<R>(pos, &mut roots);
    if depth == 0 {
        return Vec::new();
    }
    if threads <= 1 {
        return roots
            .iter()
            .map(|&m| {
                let mut child = *pos;
                child.play(m);
                (m, perft_with::<R>(&child, depth - 1))
            })
            .collect();
    }
    // Split two plies deep so that the work items are many and even.
    let mut items: Vec<(usize, Position)> = Vec::new();
    for (i, &m) in roots.iter().enumerate() {
        let mut child = *pos;
        child.play(m);
        if depth == 1 {
            items.push((i, child));
            continue;
        }
        let mut replies = MoveList::new();
        generate_with::<R>(&child, &mut replies);
        for &r in replies.iter() {
            let mut grandchild = child;
            grandchild.play(r);
            items.push((i, grandchild));
        }
    }
    let sub_depth = depth.saturating_sub(2);
    let counts: Vec<(usize, u64)> =
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| {
                items
                    .par_iter()
                    .map(|(i, p)| (*i, perft_with::<R>(p, sub_depth)))
                    .collect()
            }),
            Err(e) => {
                log::warn!("cannot start {threads} threads ({e}); counting on one");
                items
                    .iter()
                    .map(|(i, p)| (*i, perft_with::<R>(p, sub_depth)))
                    .collect()
            }
        };
    let mut per_root = vec![0u64; roots.len()];
    for (i, n) in counts {
        per_root[i] += if depth == 1 { 1 } else { n };
    }
    roots.iter().copied().zip(per_root).collect()
}

/// Perft on any number of threads (1 = single-threaded).
pub fn perft_threads_with<R: MoveRules>(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 2 {
        perft_with::<R>(pos, depth)
    } else {
        divide_with::<R>(pos, depth, threads)
            .iter()
            .map(|(_, n)| n)
            .sum()
    }
}

/// Runs perft and prints the report of the `perft` command and of `go perft`:
/// with `divide`, one line `<move>: <count>` per legal move; then always
/// `Nodes searched: <N>` and `Time: <ms> ms, <leaves per second> leaves/s`.
pub fn report_with<R: MoveRules>(
    pos: &Position,
    depth: u32,
    divide: bool,
    threads: usize,
    out: &mut impl Write,
) -> io::Result<u64> {
    let start = Instant::now();
    let total = if divide {
        let per_move = divide_with::<R>(pos, depth, threads);
        for (m, n) in &per_move {
            writeln!(out, "{m}: {n}")?;
        }
        if depth == 0 {
            1
        } else {
            per_move.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft_threads_with::<R>(pos, depth, threads)
    };
    let elapsed = start.elapsed();
    let per_second = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(
        out,
        "Time: {} ms, {} leaves/s",
        elapsed.as_millis(),
        per_second
    )?;
    out.flush()?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::{DogSwims, DogSwimsTrappedLoseAttack, TrappedLoseAttack};

    /// Perft with no shortcut: every move made, every leaf visited.
    fn plain_perft<R: MoveRules>(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        sum_over_children::<R, u64>(pos, |child| plain_perft::<R>(child, depth - 1))
    }

    /// The counted perft (one-ply and two-ply counting at the bottom) against the plain
    /// one at depths 1 to 3, on positions of random games under the rules `R`: rats and
    /// dogs in the water, jumps open and blocked, animals in contact, traps, den entries.
    fn counted_perft_agrees_with_plain<R: MoveRules>() {
        let mut rng = crate::rng::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut positions = 0;
        for _game in 0..60 {
            let mut p = Position::startpos();
            for ply in 0..200 {
                if ply % 4 == 0 {
                    for depth in 1..=3 {
                        let plain = plain_perft::<R>(&p, depth);
                        assert_eq!(perft_with::<R>(&p, depth), plain, "depth {depth}: {p:?}");
                    }
                    positions += 1;
                }
                let mut moves = MoveList::new();
                generate_with::<R>(&p, &mut moves);
                if moves.is_empty() {
                    break;
                }
                p.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(positions > 1_000, "{positions} positions");
    }

    #[test]
    fn counted_perft_agrees_with_plain_under_every_rule_set() {
        counted_perft_agrees_with_plain::<Standard>();
        counted_perft_agrees_with_plain::<DogSwims>();
        counted_perft_agrees_with_plain::<TrappedLoseAttack>();
        counted_perft_agrees_with_plain::<DogSwimsTrappedLoseAttack>();
    }

    #[test]
    fn start_position_shallow() {
        let p = Position::startpos();
        let expected = [1u64, 24, 576, 12240, 260099];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&p, d as u32), n, "depth {d}");
        }
    }

    #[test]
    fn threads_agree_with_one_thread() {
        let p = Position::startpos();
        for d in 1..=4 {
            assert_eq!(
                perft_threads_with::<Standard>(&p, d, 2),
                perft(&p, d),
                "depth {d}"
            );
            let div = divide_with::<Standard>(&p, d, 2);
            let single = divide_with::<Standard>(&p, d, 1);
            assert_eq!(div, single);
        }
    }

    #[test]
    fn perft_until_counts_as_perft_and_gives_up_when_stopped() {
        let p = Position::startpos();
        let go = AtomicBool::new(false);
        assert_eq!(perft_until::<Standard>(&p, 6, &go), Some(perft(&p, 6)));
        assert_eq!(perft_until::<Standard>(&p, 3, &go), Some(12240));
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until::<Standard>(&p, 9, &stopped), None);
        // Shallower than the stop check: counted whole.
        assert_eq!(perft_until::<Standard>(&p, 4, &stopped), Some(260099));
    }
}
