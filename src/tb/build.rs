//! Retrograde analysis: the values of every position of a signature, from the tables
//! of the signatures its captures lead to.
//!
//! 1. One pass over all positions (parallel) generates each position's moves with the
//!    rules core. Captures and den entries end the stay in this table and are decided
//!    at once from the smaller tables (or win outright: a den entry, the last enemy
//!    animal taken); the other moves are only counted.
//! 2. Level by level, in increasing distance `d`: positions decided at `d` become
//!    final, and their predecessors (found by un-moving the side that just moved) are
//!    updated: a predecessor of a loss in `d` wins in `d + 1`; each predecessor of a
//!    win in `d` has one move fewer left that does not lose, and with none left (and no
//!    capture that wins or escapes) it is lost, in `d + 1` or in its longest capture
//!    line if that is longer. Each level is processed in parallel with atomics.
//! 3. The same again for DTZ, where every capture ends the count (its value is the
//!    smaller table's value within the rule at counter 0) and only levels up to the
//!    rule's length matter.
//!
//! What is never reached is a draw (DTM) or not decided within the rule (DTZ).

use super::index::{Indexer, Placement, LAND_DOMAIN, LEFT_HALF, SWIM_DOMAIN};
use super::material::{Material, TbRules, MAX_ANIMALS};
use super::table::{Dtms, Outcome, Table};
use super::TbError;
use crate::board::geometry::{JUMPS, NEIGHBOURS, TRAPS, WATER};
use crate::board::movegen::generate_with;
use crate::board::{Animal, Color, MoveList, MoveRules};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

/// In `cap`: some capture (or den entry) wins; the low bits are the fastest such win.
const CAP_WIN: u16 = 0x8000;
/// In `flags`: some capture leads to a draw (the position cannot be lost).
const ESCAPE: u8 = 1;
/// Some capture or den entry wins within the rule.
const Z_WIN: u8 = 2;
/// Some capture leads to a position the opponent wins within the rule.
const Z_FLOOR: u8 = 4;
/// Some capture leads to a position not decided within the rule.
const Z_ESCAPE: u8 = 8;
/// The side to move has no legal move.
const NO_MOVES: u8 = 16;

/// Tables with at least this many positions are built with all threads; smaller ones
/// with one thread each (several side by side: see `store`).
pub const PARALLEL_FROM: usize = 1 << 20;

/// Tables up to this many positions keep every placement in memory while building
/// (8 bytes each).
const KEEP_PLACEMENTS_UP_TO: usize = 1 << 24;

/// Receives progress lines (for stderr).
pub type Progress<'a> = &'a (dyn Fn(&str) + Sync);

/// What a build measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildReport {
    pub positions: usize,
    pub seconds: f64,
    /// Levels (plies) the DTM pass went through.
    pub dtm_levels: u16,
    /// Bytes of working memory the build used for this table (arrays and lists).
    pub work_bytes: usize,
}

/// Builds the table of `material` (canonical form) under `rules`, given the tables of
/// every signature one capture leads to (keyed by canonical material).
pub fn build<R: MoveRules>(
    material: Material,
    rules: TbRules,
    children: &HashMap<Material, Arc<Table>>,
    progress: Progress,
) -> Result<(Table, BuildReport), TbError> {
    let start = Instant::now();
    let material = material.canonical();
    let builder = Builder::<R>::new(material, rules, children)?;
    let n = builder.ix.len();
    let dtm = zeroed_u16(n);
    let cap = zeroed_u16(n);
    let flags = zeroed_u8(n);
    let moves = zeroed_u8(n);
    let counter = zeroed_u8(n);
    let work_bytes = n * 7;

    let look = |i: usize| {
        let (c, f, m) = builder.first_look(i);
        cap[i].store(c, Relaxed);
        flags[i].store(f, Relaxed);
        moves[i].store(m, Relaxed);
        counter[i].store(m, Relaxed);
    };
    if builder.par {
        (0..n).into_par_iter().with_min_len(4096).for_each(look);
    } else {
        (0..n).for_each(look);
    }

    // DTM: every level until nothing changes.
    let (wins, losses) = seeds(n, builder.par, |i| {
        let (c, f, m) = (
            cap[i].load(Relaxed),
            flags[i].load(Relaxed),
            moves[i].load(Relaxed),
        );
        if f & NO_MOVES != 0 {
            Seed::Loss(0)
        } else if c & CAP_WIN != 0 {
            Seed::Win(c & !CAP_WIN)
        } else if m == 0 && f & ESCAPE == 0 {
            // Only captures, all into lost positions: the longest of them.
            Seed::Loss(c)
        } else {
            Seed::None
        }
    });
    let dtm_levels = builder.retrograde(
        &dtm,
        &counter,
        wins,
        losses,
        u16::MAX - 1,
        |q| {
            let (c, f) = (cap[q].load(Relaxed), flags[q].load(Relaxed));
            (c & CAP_WIN == 0 && f & ESCAPE == 0).then_some(c)
        },
        &|d, done| {
            if start.elapsed().as_secs_f64() > 2.0 && d % 16 == 0 {
                progress(&format!(
                    "{material}: DTM level {d}, {done} of {n} positions decided"
                ));
            }
        },
    );

    // DTZ: the same walk, where every capture ends it, up to the rule's length.
    let rule = rules.no_capture_plies;
    let dtz_values = if rule == 0 {
        Vec::new()
    } else {
        let zval = cap; // the capture summary is no longer needed: reuse its memory
        zval.iter().for_each(|z| z.store(0, Relaxed));
        counter
            .iter()
            .zip(moves.iter())
            .for_each(|(c, m)| c.store(m.load(Relaxed), Relaxed));
        let (wins, losses) = seeds(n, builder.par, |i| {
            let (f, m) = (flags[i].load(Relaxed), moves[i].load(Relaxed));
            if f & NO_MOVES != 0 {
                Seed::Loss(0)
            } else if f & Z_WIN != 0 {
                Seed::Win(1)
            } else if m == 0 && f & Z_ESCAPE == 0 {
                Seed::Loss(1)
            } else {
                Seed::None
            }
        });
        builder.retrograde(
            &zval,
            &counter,
            wins,
            losses,
            rule,
            |q| {
                let f = flags[q].load(Relaxed);
                (f & (Z_WIN | Z_ESCAPE) == 0).then_some(u16::from(f & Z_FLOOR != 0))
            },
            &|_, _| {},
        );
        into_u16(zval).into_iter().map(|z| z as u8).collect()
    };

    let table = Table::new(material, rules, Dtms::from_words(into_u16(dtm)), dtz_values)?;
    let report = BuildReport {
        positions: n,
        seconds: start.elapsed().as_secs_f64(),
        dtm_levels,
        work_bytes,
    };
    Ok((table, report))
}

/// How a position enters the level walk.
enum Seed {
    None,
    Win(u16),
    Loss(u16),
}

type Buckets = Vec<Vec<u32>>;

/// The positions decided before the walk, by level.
fn seeds(n: usize, par: bool, seed: impl Fn(usize) -> Seed + Sync) -> (Buckets, Buckets) {
    let pick = |i: usize| match seed(i) {
        Seed::None => None,
        Seed::Win(d) => Some((true, d, i as u32)),
        Seed::Loss(d) => Some((false, d, i as u32)),
    };
    let found: Vec<(bool, u16, u32)> = if par {
        (0..n)
            .into_par_iter()
            .with_min_len(4096)
            .filter_map(pick)
            .collect()
    } else {
        (0..n).filter_map(pick).collect()
    };
    let mut wins: Buckets = Vec::new();
    let mut losses: Buckets = Vec::new();
    for (win, d, i) in found {
        let b = if win { &mut wins } else { &mut losses };
        if b.len() <= d as usize {
            b.resize(d as usize + 1, Vec::new());
        }
        b[d as usize].push(i);
    }
    (wins, losses)
}

struct Builder<'a, R: MoveRules> {
    ix: Indexer,
    rules: TbRules,
    /// The table a capture of `[color][animal]` leads to; `None` when it takes the
    /// side's last animal (a win).
    child: [[Option<&'a Table>; 8]; 2],
    /// Full domain of each slot (the index restricts the first slot to files a-d).
    domain: Vec<u64>,
    /// Squares whose occupant blocks river jumps: the swimmers' slots.
    swimmer_slots: Vec<usize>,
    jumper_slots: u8,
    /// Work on this table is split between threads (large tables only: small ones
    /// are built side by side, one thread each).
    par: bool,
    /// Every stored placement, packed, when the table is small enough to keep them
    /// (decoding an index costs more than reading this).
    placements: Vec<u64>,
    _rules: std::marker::PhantomData<R>,
}

impl<'a, R: MoveRules> Builder<'a, R> {
    fn new(
        material: Material,
        rules: TbRules,
        tables: &'a HashMap<Material, Arc<Table>>,
    ) -> Result<Builder<'a, R>, TbError> {
        let ix = Indexer::new(material, rules.moves.dog_swims);
        let mut child = [[None; 8]; 2];
        for c in Color::BOTH {
            for a in Animal::ALL {
                let bit = 1u8 << a.index();
                if material.side(c) & bit == 0 {
                    continue;
                }
                let rest = match c {
                    Color::Red => Material::new(material.red & !bit, material.blue),
                    Color::Blue => Material::new(material.red, material.blue & !bit),
                };
                if !rest.is_playable() {
                    continue;
                }
                let t = tables.get(&rest.canonical()).ok_or_else(|| {
                    TbError::Missing(format!("{material} needs the table {}", rest.canonical()))
                })?;
                if t.rules != rules {
                    return Err(TbError::Rules(format!(
                        "{} was built for other rules ({}) than {material} ({rules})",
                        t.material, t.rules
                    )));
                }
                child[c.index()][a.index()] = Some(&**t);
            }
        }
        let swims = |a: Animal| a == Animal::Rat || (rules.moves.dog_swims && a == Animal::Dog);
        let domain = ix
            .pieces
            .iter()
            .map(|p| {
                if swims(p.animal) {
                    SWIM_DOMAIN
                } else {
                    LAND_DOMAIN
                }
            })
            .collect();
        let swimmer_slots = (0..ix.pieces.len())
            .filter(|&i| swims(ix.pieces[i].animal))
            .collect();
        let mut jumper_slots = 0u8;
        for (i, p) in ix.pieces.iter().enumerate() {
            if p.animal.jumps() {
                jumper_slots |= 1 << i;
            }
        }
        let mut placements = Vec::new();
        if ix.len() <= KEEP_PLACEMENTS_UP_TO {
            placements.reserve_exact(ix.len());
            ix.for_each_placement(|_, p| placements.push(pack(p)));
        }
        Ok(Builder {
            par: ix.len() >= PARALLEL_FROM,
            placements,
            ix,
            rules,
            child,
            domain,
            swimmer_slots,
            jumper_slots,
            _rules: std::marker::PhantomData,
        })
    }

    /// The first look at position `i`: its capture summary (`cap`), flags and the
    /// number of moves that stay in this table.
    fn first_look(&self, i: usize) -> (u16, u8, u8) {
        let pos = self.ix.position_unkeyed(&self.placement(i));
        let us = pos.side_to_move();
        let them = us.other();
        // An animal on an enemy trap stands next to the enemy den and may enter it.
        if (pos.occupied(us) & TRAPS[them.index()]).any() {
            return (CAP_WIN | 1, Z_WIN, 0);
        }
        let mut list = MoveList::new();
        generate_with::<R>(&pos, &mut list);
        if list.is_empty() {
            return (0, NO_MOVES, 0);
        }
        let mut fastest_win = u16::MAX;
        let mut longest_loss = 0u16;
        let mut flags = 0u8;
        let mut quiet = 0u8;
        for &m in list.iter() {
            let Some(victim) = pos.captured_by(m) else {
                quiet += 1;
                continue;
            };
            let Some(table) = self.child[them.index()][victim.index()] else {
                // The last enemy animal is taken.
                fastest_win = 1;
                flags |= Z_WIN;
                continue;
            };
            let mut child = pos;
            child.play(m);
            let Some(e) = table.entry_of(&child) else {
                debug_assert!(false, "capture child {child:?} not in {}", table.material);
                continue;
            };
            match e.outcome() {
                Outcome::Loss(d) => fastest_win = fastest_win.min(d + 1),
                Outcome::Win(d) => longest_loss = longest_loss.max(d + 1),
                Outcome::Draw => flags |= ESCAPE,
            }
            if self.rules.no_capture_plies > 0 {
                // Decided within the rule: the same side wins as without it.
                flags |= match (e.outcome(), e.dtz()) {
                    (Outcome::Loss(_), Some(_)) => Z_WIN,
                    (Outcome::Win(_), Some(_)) => Z_FLOOR,
                    _ => Z_ESCAPE,
                };
            }
        }
        let cap = if fastest_win != u16::MAX {
            CAP_WIN | fastest_win
        } else {
            longest_loss
        };
        (cap, flags, quiet)
    }

    /// Calls `f` with the index of every position that has a move (not a capture)
    /// into position `index`, once per such move.
    ///
    /// A stored position stands for its mirror image (and for a signature equal to its
    /// colour twin, for the twin) too, so the un-moves start from each form that the
    /// index maps to `index`, and only predecessors already in stored form are kept:
    /// exactly the moves that the first look counted from the stored forms.
    fn for_each_predecessor(&self, index: usize, mut f: impl FnMut(usize)) {
        let n = self.ix.pieces.len();
        let stored = self.placement(index);
        // The mirror image maps to the same index unless the first slot is on the
        // d-file (then it is stored apart, or is the same placement).
        let mirrored = stored.squares[0] % 7 < 3;
        let mut forms = [stored; 4];
        let mut count = 1;
        if mirrored {
            forms[count] = mirror(&stored, n);
            count += 1;
        }
        if self.ix.material.is_symmetric() {
            let flipped = self.colour_flip(&stored);
            forms[count] = flipped;
            count += 1;
            if mirrored {
                forms[count] = mirror(&flipped, n);
                count += 1;
            }
        }
        debug_assert!(forms[..count].iter().all(|p| self.ix.encode(p) == index));
        for form in &forms[..count] {
            self.unmoves(form, &mut f);
        }
    }

    /// Every position from which the side not to move in `p` reaches `p` by a move
    /// that is not a capture (and is not a den entry: `p` is not over), when the index
    /// stores it as it is: `f` gets its index.
    #[inline]
    fn unmoves(&self, p: &Placement, f: &mut impl FnMut(usize)) {
        let n = self.ix.pieces.len();
        let mover = p.side.other();
        if self.ix.material.is_symmetric() && mover == Color::Blue {
            // Stored with Red to move only: reached from the colour-flipped form.
            return;
        }
        let mut occupied = 0u64;
        for &s in &p.squares[..n] {
            occupied |= 1 << s;
        }
        // Rats (and dogs that swim) in the water block river jumps.
        let mut blockers = 0u64;
        for &i in &self.swimmer_slots {
            blockers |= 1 << p.squares[i];
        }
        blockers &= WATER.0;
        let mut sq = p.squares;
        for i in 0..n {
            if self.ix.pieces[i].color != mover {
                continue;
            }
            let to = p.squares[i] as usize;
            let mut from = NEIGHBOURS[to].0;
            if self.jumper_slots >> i & 1 != 0 {
                // Jumps are symmetric: the landing square of a jump from `to` jumps
                // back over the same water.
                let jumps = &JUMPS[to];
                for k in 0..2 {
                    if jumps.over[k].0 & blockers == 0 {
                        from |= jumps.landing[k].0;
                    }
                }
            }
            from &= self.domain[i] & !occupied;
            // Only predecessors in stored form: the first slot on files a-d.
            if i == 0 {
                from &= LEFT_HALF;
            } else if (LEFT_HALF >> sq[0]) & 1 == 0 {
                continue;
            }
            while from != 0 {
                sq[i] = from.trailing_zeros() as u8;
                from &= from - 1;
                f(self.ix.encode_stored(&sq, mover));
            }
            sq[i] = p.squares[i];
        }
    }

    /// The same position with colours exchanged, seen from the other end.
    fn colour_flip(&self, p: &Placement) -> Placement {
        let n = self.ix.pieces.len();
        let mut q = *p;
        for i in 0..n {
            let piece = self.ix.pieces[i];
            let twin = self
                .ix
                .slot_of(piece.color.other(), piece.animal)
                .unwrap_or(i);
            q.squares[i] = super::index::FLIP_RANK[p.squares[twin] as usize];
        }
        q.side = p.side.other();
        q
    }

    /// The level walk shared by DTM and DTZ. `value[i]` is 0 (undecided) or the
    /// distance + 1; `counter[i]` the moves of `i` not yet known to lose; `wins` and
    /// `losses` the positions decided before the walk, by level; `may_lose(i)` is
    /// `None` when a capture saves `i` from losing, else the least distance its
    /// captures give a loss. Returns the last level reached.
    #[allow(clippy::too_many_arguments)]
    fn retrograde(
        &self,
        value: &[AtomicU16],
        counter: &[AtomicU8],
        mut wins: Buckets,
        mut losses: Buckets,
        max_level: u16,
        may_lose: impl Fn(usize) -> Option<u16> + Sync,
        on_level: &(dyn Fn(u16, usize) + Sync),
    ) -> u16 {
        let par = self.par;
        // One thread per table needs no atomic read-modify-write.
        let decide = |i: u32, d: u16| {
            let v = &value[i as usize];
            if par {
                v.compare_exchange(0, d + 1, Relaxed, Relaxed).is_ok()
            } else if v.load(Relaxed) == 0 {
                v.store(d + 1, Relaxed);
                true
            } else {
                false
            }
        };
        let count_down = |q: usize| {
            let c = &counter[q];
            if par {
                c.fetch_sub(1, Relaxed)
            } else {
                let before = c.load(Relaxed);
                c.store(before.wrapping_sub(1), Relaxed);
                before
            }
        };
        let mut won_next: Vec<u32> = Vec::new();
        let mut decided = 0usize;
        let mut d: u16 = 0;
        loop {
            let mut won = std::mem::take(&mut won_next);
            if let Some(b) = wins.get_mut(d as usize) {
                let pending = std::mem::take(b);
                won.extend(self.each(&pending, |chunk, out| {
                    out.extend(chunk.iter().copied().filter(|&i| decide(i, d)))
                }));
            }
            let lost: Vec<u32> = match losses.get_mut(d as usize) {
                Some(b) => self.each(&std::mem::take(b), |chunk, out| {
                    out.extend(chunk.iter().copied().filter(|&i| decide(i, d)))
                }),
                None => Vec::new(),
            };
            decided += won.len() + lost.len();
            if d == max_level {
                break;
            }
            // A predecessor of a loss in d wins in d + 1.
            won_next = self.each(&lost, |chunk, out| {
                for &w in chunk {
                    self.for_each_predecessor(w as usize, |q| {
                        if decide(q as u32, d + 1) {
                            out.push(q as u32);
                        }
                    });
                }
            });
            // A predecessor of a win in d has one saving move fewer.
            let new_losses: Vec<(u16, u32)> = self.each(&won, |chunk, out| {
                for &w in chunk {
                    self.for_each_predecessor(w as usize, |q| {
                        if value[q].load(Relaxed) != 0 {
                            return;
                        }
                        let before = count_down(q);
                        debug_assert!(before > 0, "counter underflow at {q}");
                        if before == 1 {
                            if let Some(floor) = may_lose(q) {
                                out.push((floor.max(d + 1), q as u32));
                            }
                        }
                    });
                }
            });
            for (level, q) in new_losses {
                if level <= max_level {
                    if losses.len() <= level as usize {
                        losses.resize(level as usize + 1, Vec::new());
                    }
                    losses[level as usize].push(q);
                }
            }
            on_level(d, decided);
            let pending = won_next.is_empty()
                && wins.iter().skip(d as usize + 1).all(Vec::is_empty)
                && losses.iter().skip(d as usize + 1).all(Vec::is_empty);
            if pending {
                break;
            }
            d += 1;
        }
        d
    }
}

impl<R: MoveRules> Builder<'_, R> {
    /// The stored placement of `index`.
    #[inline]
    fn placement(&self, index: usize) -> Placement {
        match self.placements.get(index) {
            Some(&packed) => unpack(packed),
            None => self.ix.decode(index),
        }
    }

    /// Runs `f` over `list` in chunks, on all threads when the table is large, and
    /// gathers what it outputs.
    fn each<T: Send>(&self, list: &[u32], f: impl Fn(&[u32], &mut Vec<T>) + Sync) -> Vec<T> {
        if self.par && list.len() > 4096 {
            list.par_chunks(1024)
                .flat_map_iter(|chunk| {
                    let mut out = Vec::new();
                    f(chunk, &mut out);
                    out
                })
                .collect()
        } else {
            let mut out = Vec::new();
            f(list, &mut out);
            out
        }
    }
}

/// A placement in one word: a byte per slot, the side in the top byte.
#[inline]
fn pack(p: &Placement) -> u64 {
    let mut w = (p.side.index() as u64) << 56;
    for (i, &s) in p.squares.iter().enumerate() {
        w |= (s as u64) << (8 * i);
    }
    w
}

#[inline]
fn unpack(w: u64) -> Placement {
    let mut squares = [0u8; MAX_ANIMALS];
    for (i, s) in squares.iter_mut().enumerate() {
        *s = (w >> (8 * i)) as u8;
    }
    Placement {
        squares,
        side: if w >> 56 == 0 {
            Color::Red
        } else {
            Color::Blue
        },
    }
}

fn mirror(p: &Placement, n: usize) -> Placement {
    let mut q = *p;
    for s in q.squares[..n].iter_mut() {
        *s = super::index::MIRROR[*s as usize];
    }
    q
}

fn zeroed_u16(n: usize) -> Vec<AtomicU16> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u16; n]);
    // SAFETY: `AtomicU16` has the same size, alignment and bit validity as `u16`, and
    // the allocation is handed over whole (pointer, length, capacity).
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicU16>(), v.len(), v.capacity()) }
}

fn zeroed_u8(n: usize) -> Vec<AtomicU8> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u8; n]);
    // SAFETY: as above, for `AtomicU8` and `u8`.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicU8>(), v.len(), v.capacity()) }
}

fn into_u16(v: Vec<AtomicU16>) -> Vec<u16> {
    let mut v = std::mem::ManuallyDrop::new(v);
    // SAFETY: as in `zeroed_u16`, the other way; no other reference to `v` remains.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<u16>(), v.len(), v.capacity()) }
}
