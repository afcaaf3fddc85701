//! Retrograde analysis: the values of every position of a signature, from the tables
//! of the signatures its captures lead to.
//!
//! 1. One pass over all positions (parallel) looks at each position's moves. Captures
//!    (from the rules core) and den entries end the stay in this table and are decided
//!    at once from the smaller tables (or win outright: a den entry, the last enemy
//!    animal taken); the other moves are only counted, and a small table (built on one
//!    thread) keeps where they lead, turned around into lists of predecessors.
//! 2. Level by level, in increasing distance `d`: positions decided at `d` become
//!    final, and their predecessors (read from those lists, or in a large table found
//!    by un-moving the side that just moved) are updated: a predecessor of a loss in `d` wins in `d + 1`; each predecessor of a
//!    win in `d` has one move fewer left that does not lose, and with none left (and no
//!    capture that wins or escapes) it is lost, in `d + 1` or in its longest capture
//!    line if that is longer. Each level is processed in parallel with atomics.
//! 3. The same again for DTZ, where every capture ends the count (its value is the
//!    smaller table's value within the rule at counter 0) and only levels up to the
//!    rule's length matter.
//!
//! What is never reached is a draw (DTM) or not decided within the rule (DTZ).
//!
//! Small tables share work: signatures whose animals move alike (`Geometry`) have the
//! same quiet moves, so they share one move graph (and the quiet part of the first
//! look); one whose first look is also the same as a signature's built before takes
//! that signature's values, since the walks would repeat its work exactly.

use super::index::{Indexer, Placement, LAND_DOMAIN, LEFT_HALF, SWIM_DOMAIN};
use super::material::{Material, TbRules, MAX_ANIMALS};
use super::table::{Dtms, Table, TbValue};
use super::TbError;
use crate::board::geometry::{JUMPS, NEIGHBOURS, TRAPS, WATER};
use crate::board::movegen::generate_to_with;
use crate::board::{Animal, Bitboard, Color, MoveList, MoveRules};
use crate::clock::Instant;
use rayon::prelude::*;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

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

/// In a quiet look (`quiet_look`): the number of quiet moves…
const QUIET_MOVES: u8 = 0x3f;
/// …and an enemy animal is within reach (the rules core is asked for captures).
const ENEMY_IN_REACH: u8 = 0x40;
/// An animal of the side to move stands on an enemy trap (it may enter the den).
const ON_ENEMY_TRAP: u8 = 0xff;

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
    /// The move graph came from a signature of the same geometry.
    pub graph_shared: bool,
    /// The values are those of this signature, built before: it has the same move
    /// graph and the same first look (captures and their values, position for
    /// position), so the level walks would repeat its work exactly.
    pub values_from: Option<Material>,
}

/// What the quiet moves of a signature's table depend on: each slot's colour and
/// whether it jumps and swims, and the index's symmetries. Signatures that agree on
/// it (`LE v R` and `TE v R`: a plain animal and a jumper against a rat) number their
/// positions alike and have the same quiet moves between them (moves onto empty
/// squares do not depend on rank), so one move graph serves them all.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Geometry {
    /// Per slot: colour (bit 2), jumps (bit 1), swims (bit 0).
    slots: Vec<u8>,
    /// The slot of the same animal of the other colour (signatures equal to their
    /// colour twin store one side to move and use it).
    twin: Vec<usize>,
    positions: usize,
}

impl Geometry {
    pub fn of(material: Material, dog_swims: bool) -> Geometry {
        let ix = Indexer::new(material, dog_swims);
        let swims = |a: Animal| a == Animal::Rat || (dog_swims && a == Animal::Dog);
        let slots = ix
            .pieces
            .iter()
            .map(|p| {
                (p.color.index() as u8) << 2
                    | u8::from(p.animal.jumps()) << 1
                    | u8::from(swims(p.animal))
            })
            .collect();
        let twin = ix
            .pieces
            .iter()
            .map(|p| ix.slot_of(p.color.other(), p.animal).unwrap_or(usize::MAX))
            .collect();
        Geometry {
            slots,
            twin,
            positions: ix.len(),
        }
    }
}

/// Move graphs of the tables built so far, kept for the next signatures of the same
/// `Geometry` (a build sorts its signatures by geometry so that they come together),
/// up to a memory budget: the oldest go first.
#[derive(Default)]
pub struct MoveGraphs {
    kept: Mutex<VecDeque<(Geometry, Arc<MoveGraph>)>>,
}

impl MoveGraphs {
    /// Bytes of graphs kept at most (a 3-animal graph is about 3.5 MB, and each
    /// solution kept with it 7 bytes a position).
    const BUDGET: usize = 16 << 20;

    fn get(&self, g: &Geometry) -> Option<Arc<MoveGraph>> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter()
            .find(|(k, _)| k == g)
            .map(|(_, graph)| Arc::clone(graph))
    }

    fn keep(&self, g: Geometry, graph: Arc<MoveGraph>) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.iter().any(|(k, _)| *k == g) {
            return; // built twice side by side
        }
        kept.push_back((g, graph));
        while kept.len() > 1 && kept.iter().map(|(_, m)| m.bytes()).sum::<usize>() > Self::BUDGET {
            kept.pop_front();
        }
    }
}

/// Builds the table of `material` (canonical form) under `rules`, given the tables of
/// every signature one capture leads to (keyed by canonical material). A small table
/// takes its move graph from `graphs` when a signature of the same geometry left one
/// there, and leaves its own.
pub fn build<R: MoveRules>(
    material: Material,
    rules: TbRules,
    children: &HashMap<Material, Arc<Table>>,
    graphs: &MoveGraphs,
    progress: Progress,
) -> Result<(Table, BuildReport), TbError> {
    build_finding_predecessors::<R>(material, rules, children, progress, None, Some(graphs))
}

/// `build`, with the way predecessors are found forced (`Some(true)`: the move graph,
/// `Some(false)`: un-moves) or chosen by size (`None`: the graph for tables built on
/// one thread), and graphs shared through `graphs` or not at all.
fn build_finding_predecessors<R: MoveRules>(
    material: Material,
    rules: TbRules,
    children: &HashMap<Material, Arc<Table>>,
    progress: Progress,
    use_graph: Option<bool>,
    graphs: Option<&MoveGraphs>,
) -> Result<(Table, BuildReport), TbError> {
    let start = Instant::now();
    let material = material.canonical();
    let mut builder = Builder::<R>::new(material, rules, children)?;
    let n = builder.ix.len();
    let dtm = zeroed_u16(n);
    let cap = zeroed_u16(n);
    let flags = zeroed_u8(n);
    let moves = zeroed_u8(n);
    let counter = zeroed_u8(n);
    let work_bytes = n * 7;

    let store = |i: usize, (c, f, m): (u16, u8, u8)| {
        cap[i].store(c, Relaxed);
        flags[i].store(f, Relaxed);
        moves[i].store(m, Relaxed);
        counter[i].store(m, Relaxed);
    };
    let mut graph_shared = false;
    if !use_graph.unwrap_or(!builder.par) {
        builder.keep_placements();
        let look =
            |i: usize| builder.first_look::<false>(i, &builder.placement(i), &mut Vec::new());
        if builder.par {
            (0..n)
                .into_par_iter()
                .with_min_len(4096)
                .for_each(|i| store(i, look(i)));
        } else {
            (0..n).for_each(|i| store(i, look(i)));
        }
    } else if let Some(graph) =
        graphs.and_then(|g| g.get(&Geometry::of(material, rules.moves.dog_swims)))
    {
        // Another signature of this geometry made the graph and counted the quiet
        // moves: only captures are left to look at, where an enemy is within reach.
        for (i, &look) in graph.looks.iter().enumerate() {
            if let Some(values) = geometric_look(look) {
                store(i, values);
            }
        }
        for &(i, packed) in &graph.in_reach {
            let i = i as usize;
            store(
                i,
                builder.capture_look(&unpack(packed), graph.looks[i] & QUIET_MOVES),
            );
        }
        builder.graph = Some(graph);
        graph_shared = true;
    } else {
        // A small table keeps the moves it generates, turned around, for both walks.
        let mut successors = Vec::with_capacity(n * 8);
        let mut ends = Vec::with_capacity(n);
        // Predecessors of each position, counted while the lists are in cache.
        let mut counts = vec![0u32; n + 1];
        let mut looks = Vec::with_capacity(n);
        let mut in_reach = Vec::new();
        builder.ix.for_each_placement(|i, p| {
            let begin = successors.len();
            let look = builder.quiet_look::<true>(i, p, &mut successors);
            looks.push(look);
            if geometric_look(look).is_none() {
                in_reach.push((i as u32, pack(p)));
            }
            store(i, builder.finish_look(look, p));
            for &t in &successors[begin..] {
                counts[t as usize + 1] += 1;
            }
            ends.push(successors.len() as u32);
        });
        let graph = Arc::new(MoveGraph::reversed(
            counts,
            &ends,
            &successors,
            looks,
            in_reach,
        ));
        if let Some(g) = graphs {
            g.keep(
                Geometry::of(material, rules.moves.dog_swims),
                Arc::clone(&graph),
            );
        }
        builder.graph = Some(graph);
    }
    let work_bytes = work_bytes + builder.graph.as_ref().map_or(0, |g| g.bytes());

    // The level walks depend only on the move graph, the first look and the rule: a
    // signature of this geometry with the same first look has already done them.
    let first_look = builder
        .graph
        .as_ref()
        .map(|_| FirstLook::of(&cap, &flags, &moves));
    if let (Some(graph), Some(look)) = (&builder.graph, &first_look) {
        if let Some(solved) = graph.solution_for(look, rules) {
            let table = Table::new(
                material,
                rules,
                Dtms::from_words(solved.dtm.clone()),
                solved.dtz.clone(),
            )?;
            let report = BuildReport {
                positions: n,
                seconds: start.elapsed().as_secs_f64(),
                dtm_levels: solved.dtm_levels,
                work_bytes,
                graph_shared,
                values_from: Some(solved.material),
            };
            return Ok((table, report));
        }
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

    let dtm = into_u16(dtm);
    if let (Some(graph), Some(look)) = (&builder.graph, first_look) {
        graph.keep_solution(Solution {
            material,
            rules,
            look,
            dtm: dtm.clone(),
            dtz: dtz_values.clone(),
            dtm_levels,
        });
    }
    let table = Table::new(material, rules, Dtms::from_words(dtm), dtz_values)?;
    let report = BuildReport {
        positions: n,
        seconds: start.elapsed().as_secs_f64(),
        dtm_levels,
        work_bytes,
        graph_shared,
        values_from: None,
    };
    Ok((table, report))
}

/// What the first look found at every position: all that the level walks read
/// besides the move graph.
#[derive(PartialEq, Eq)]
struct FirstLook {
    cap: Vec<u16>,
    flags: Vec<u8>,
    moves: Vec<u8>,
}

impl FirstLook {
    fn of(cap: &[AtomicU16], flags: &[AtomicU8], moves: &[AtomicU8]) -> FirstLook {
        FirstLook {
            cap: cap.iter().map(|c| c.load(Relaxed)).collect(),
            flags: flags.iter().map(|f| f.load(Relaxed)).collect(),
            moves: moves.iter().map(|m| m.load(Relaxed)).collect(),
        }
    }

    fn bytes(&self) -> usize {
        2 * self.cap.len() + self.flags.len() + self.moves.len()
    }
}

/// The values a signature's level walks gave, kept with its move graph for the
/// signatures of the same geometry and the same first look.
struct Solution {
    material: Material,
    rules: TbRules,
    look: FirstLook,
    dtm: Vec<u16>,
    dtz: Vec<u8>,
    dtm_levels: u16,
}

impl Solution {
    fn bytes(&self) -> usize {
        self.look.bytes() + 2 * self.dtm.len() + self.dtz.len()
    }
}

/// The first look's values when the quiet look decides them (`None`: an enemy is
/// within reach, and the captures decide).
#[inline]
fn geometric_look(look: u8) -> Option<(u16, u8, u8)> {
    let quiet = look & QUIET_MOVES;
    if look == ON_ENEMY_TRAP {
        Some((CAP_WIN | 1, Z_WIN, 0))
    } else if look & ENEMY_IN_REACH != 0 {
        None
    } else if quiet == 0 {
        Some((0, NO_MOVES, 0))
    } else {
        Some((0, 0, quiet))
    }
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
    /// The quiet moves turned around, kept for tables built on one thread (made by
    /// the first look, here or for a signature of the same geometry); `None`:
    /// predecessors are found by un-moving.
    graph: Option<Arc<MoveGraph>>,
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
        Ok(Builder {
            par: ix.len() >= PARALLEL_FROM,
            placements: Vec::new(),
            graph: None,
            ix,
            rules,
            child,
            domain,
            swimmer_slots,
            jumper_slots,
            _rules: std::marker::PhantomData,
        })
    }

    /// Keeps every placement when the table is small enough (for the un-moves).
    fn keep_placements(&mut self) {
        if self.ix.len() <= KEEP_PLACEMENTS_UP_TO {
            let mut placements = Vec::with_capacity(self.ix.len());
            self.ix.for_each_placement(|_, p| placements.push(pack(p)));
            self.placements = placements;
        }
    }

    /// The first look at position `i`: its capture summary (`cap`), flags and the
    /// number of moves that stay in this table. With `RECORD`, the index each of those
    /// moves leads to is pushed on `successors`.
    ///
    /// Quiet moves (onto empty squares) are the steps and jumps `steps` gives, the
    /// same geometry the un-moves use; captures come from the rules core, asked only
    /// when an enemy animal is within reach (a test checks both against the core).
    fn first_look<const RECORD: bool>(
        &self,
        i: usize,
        p: &Placement,
        successors: &mut Vec<u32>,
    ) -> (u16, u8, u8) {
        let look = self.quiet_look::<RECORD>(i, p, successors);
        self.finish_look(look, p)
    }

    /// The first look, from what its geometric part (`quiet_look`) found.
    #[inline]
    fn finish_look(&self, look: u8, p: &Placement) -> (u16, u8, u8) {
        geometric_look(look).unwrap_or_else(|| self.capture_look(p, look & QUIET_MOVES))
    }

    /// The part of the first look that depends only on the geometry (`Geometry`):
    /// the number of quiet moves (pushed on `successors` with `RECORD`), whether an
    /// enemy animal is within reach (`ENEMY_IN_REACH`), or `ON_ENEMY_TRAP`.
    #[inline]
    fn quiet_look<const RECORD: bool>(
        &self,
        i: usize,
        p: &Placement,
        successors: &mut Vec<u32>,
    ) -> u8 {
        let n = self.ix.pieces.len();
        let us = p.side;
        let (own, enemies) = self.sides(p);
        // An animal on an enemy trap stands next to the enemy den and may enter it.
        if own & TRAPS[us.other().index()].0 != 0 {
            return ON_ENEMY_TRAP;
        }
        let blockers = self.jump_blockers(p);
        let mut quiet = 0u8;
        let mut reach = 0u64;
        for k in 0..n {
            if self.ix.pieces[k].color != us {
                continue;
            }
            let steps = self.steps(k, p.squares[k], blockers);
            reach |= steps;
            let mut to = steps & !(own | enemies);
            quiet += to.count_ones() as u8;
            while RECORD && to != 0 {
                let t = to.trailing_zeros() as u8;
                to &= to - 1;
                successors.push(self.successor(i, p, k, t) as u32);
            }
        }
        debug_assert!(quiet <= QUIET_MOVES);
        if reach & enemies != 0 {
            quiet | ENEMY_IN_REACH
        } else {
            quiet
        }
    }

    /// The squares of the side to move's animals and of the other side's.
    #[inline]
    fn sides(&self, p: &Placement) -> (u64, u64) {
        let (mut own, mut enemies) = (0u64, 0u64);
        for k in 0..self.ix.pieces.len() {
            if self.ix.pieces[k].color == p.side {
                own |= 1 << p.squares[k];
            } else {
                enemies |= 1 << p.squares[k];
            }
        }
        (own, enemies)
    }

    /// The first look where an enemy animal is within reach: the captures, from the
    /// rules core, decided from the smaller tables.
    fn capture_look(&self, p: &Placement, quiet: u8) -> (u16, u8, u8) {
        let them = p.side.other();
        let (_, enemies) = self.sides(p);
        let pos = self.ix.position_unkeyed(p);
        let mut list = MoveList::new();
        generate_to_with::<R>(&pos, Bitboard(enemies), &mut list);
        if list.is_empty() && quiet == 0 {
            return (0, NO_MOVES, 0);
        }
        let mut fastest_win = u16::MAX;
        let mut longest_loss = 0u16;
        let mut flags = 0u8;
        for &m in list.iter() {
            let Some(victim) = pos.captured_by(m) else {
                debug_assert!(false, "{m} from {pos:?} is not a capture");
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
                TbValue::Loss(d) => fastest_win = fastest_win.min(d + 1),
                TbValue::Win(d) => longest_loss = longest_loss.max(d + 1),
                TbValue::Draw => flags |= ESCAPE,
            }
            if self.rules.no_capture_plies > 0 {
                // Decided within the rule: the same side wins as without it.
                flags |= match (e.outcome(), e.dtz()) {
                    (TbValue::Loss(_), Some(_)) => Z_WIN,
                    (TbValue::Win(_), Some(_)) => Z_FLOOR,
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

    /// Squares whose occupant blocks river jumps: swimmers in the water.
    #[inline]
    fn jump_blockers(&self, p: &Placement) -> u64 {
        let mut blockers = 0u64;
        for &k in &self.swimmer_slots {
            blockers |= 1 << p.squares[k];
        }
        blockers & WATER.0
    }

    /// The squares slot `k` reaches from `from` by a step or an open river jump, within
    /// its domain, occupied or not. Quiet moves are symmetric (a jump lands where a jump
    /// back starts, over the same water), so this serves moves and un-moves alike.
    #[inline]
    fn steps(&self, k: usize, from: u8, blockers: u64) -> u64 {
        let from = from as usize;
        let mut to = NEIGHBOURS[from].0;
        if self.jumper_slots >> k & 1 != 0 {
            let jumps = &JUMPS[from];
            for j in 0..2 {
                if jumps.over[j].0 & blockers == 0 {
                    to |= jumps.landing[j].0;
                }
            }
        }
        to & self.domain[k]
    }

    /// The index of the position reached from `p` (stored at `index`) when slot `k`
    /// moves to the empty square `to`.
    #[inline]
    fn successor(&self, index: usize, p: &Placement, k: usize, to: u8) -> usize {
        self.ix
            .encode_after_move(index, &p.squares, k, to)
            .unwrap_or_else(|| {
                let mut child = *p;
                child.squares[k] = to;
                child.side = p.side.other();
                self.ix.encode(&child)
            })
    }

    /// Calls `f` with the index of every position that has a move (not a capture)
    /// into position `index`, once per such move.
    ///
    /// A stored position stands for its mirror image (and for a signature equal to its
    /// colour twin, for the twin) too, so the un-moves start from each form that the
    /// index maps to `index`, and only predecessors already in stored form are kept:
    /// exactly the moves that the first look counted from the stored forms.
    fn for_each_predecessor(&self, index: usize, mut f: impl FnMut(usize)) {
        if let Some(graph) = &self.graph {
            graph
                .predecessors(index)
                .iter()
                .for_each(|&q| f(q as usize));
            return;
        }
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
        let blockers = self.jump_blockers(p);
        let mut sq = p.squares;
        for i in 0..n {
            if self.ix.pieces[i].color != mover {
                continue;
            }
            let mut from = self.steps(i, p.squares[i], blockers) & !occupied;
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

/// For each position, the positions with a quiet move into it (once per move), in
/// compressed rows. Walking these lists costs a read per edge, where un-moving costs
/// a move generation and an index per edge in each of the two walks (DTM and DTZ);
/// the lists need 4 bytes an edge, so only tables built on one thread keep them.
/// Made from the moves the first look counted, they agree with its counts exactly.
pub struct MoveGraph {
    /// Position `i`'s predecessors are `from[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    from: Vec<u32>,
    /// What the quiet look found at each position (`quiet_look`).
    looks: Vec<u8>,
    /// The positions with an enemy within reach (index, packed placement): only
    /// these need a look at captures.
    in_reach: Vec<(u32, u64)>,
    /// The solutions of the signatures built on this graph (at most
    /// `MAX_SOLUTIONS`).
    solutions: Mutex<Vec<Arc<Solution>>>,
}

impl MoveGraph {
    /// Turns the successor lists around: position `i`'s successors are
    /// `successors[ends[i - 1]..ends[i]]` (from 0 for the first), and `counts[i + 1]`
    /// is the number of times `i` is among them.
    fn reversed(
        counts: Vec<u32>,
        ends: &[u32],
        successors: &[u32],
        looks: Vec<u8>,
        in_reach: Vec<(u32, u64)>,
    ) -> MoveGraph {
        let mut start = counts;
        let n = start.len() - 1;
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut from = vec![0u32; successors.len()];
        let mut begin = 0usize;
        for (i, &end) in ends.iter().enumerate() {
            for &t in &successors[begin..end as usize] {
                let slot = &mut next[t as usize];
                from[*slot as usize] = i as u32;
                *slot += 1;
            }
            begin = end as usize;
        }
        MoveGraph {
            start,
            from,
            looks,
            in_reach,
            solutions: Mutex::default(),
        }
    }

    /// Solutions kept per graph at most.
    const MAX_SOLUTIONS: usize = 8;

    fn solution_for(&self, look: &FirstLook, rules: TbRules) -> Option<Arc<Solution>> {
        let solutions = self.solutions.lock().unwrap_or_else(|e| e.into_inner());
        solutions
            .iter()
            .find(|s| s.rules == rules && s.look == *look)
            .cloned()
    }

    fn keep_solution(&self, solution: Solution) {
        let mut solutions = self.solutions.lock().unwrap_or_else(|e| e.into_inner());
        if solutions.len() == Self::MAX_SOLUTIONS {
            solutions.remove(0);
        }
        solutions.push(Arc::new(solution));
    }

    #[inline]
    fn predecessors(&self, i: usize) -> &[u32] {
        &self.from[self.start[i] as usize..self.start[i + 1] as usize]
    }

    fn bytes(&self) -> usize {
        let solutions = self.solutions.lock().unwrap_or_else(|e| e.into_inner());
        4 * (self.start.len() + self.from.len())
            + self.looks.len()
            + 16 * self.in_reach.len()
            + solutions.iter().map(|s| s.bytes()).sum::<usize>()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::generate_with;
    use crate::board::rules::{DogSwims, TrappedLoseAttack};
    use crate::board::Standard;
    use crate::tb::tests::tables;
    use crate::with_move_rules;

    /// The first look's quiet moves (its own geometry) are exactly the rules core's
    /// moves onto empty squares, each recorded once, with the index the core's move
    /// leads to; a position has no moves exactly when the core finds none.
    fn first_look_matches_the_core<R: MoveRules>(rules: TbRules, name: &str) {
        let (tb, _) = tables(rules, &[name]);
        let children = tb.snapshot().tables;
        let builder = Builder::<R>::new(Material::parse(name).unwrap(), rules, &children).unwrap();
        let ix = &builder.ix;
        let mut checked = 0;
        for i in (0..ix.len()).step_by(7) {
            let mut recorded = Vec::new();
            let p = ix.decode(i);
            let (_, flags, quiet) = builder.first_look::<true>(i, &p, &mut recorded);
            let pos = ix.position(&p);
            let mut list = MoveList::new();
            generate_with::<R>(&pos, &mut list);
            let us = pos.side_to_move();
            if (pos.occupied(us) & TRAPS[us.other().index()]).any() {
                continue; // decided without looking at moves
            }
            assert_eq!(flags & NO_MOVES != 0, list.is_empty(), "{name} {pos:?}");
            let mut expected: Vec<u32> = list
                .iter()
                .filter(|&&m| pos.captured_by(m).is_none())
                .map(|&m| {
                    let mut child = pos;
                    child.play(m);
                    ix.index_of(&child)
                        .expect("a quiet move stays in the table") as u32
                })
                .collect();
            expected.sort_unstable();
            recorded.sort_unstable();
            assert_eq!(quiet as usize, expected.len(), "{name} {pos:?}");
            assert_eq!(recorded, expected, "{name} {pos:?}");
            checked += 1;
        }
        assert!(checked > 300, "{name}: {checked}");
    }

    #[test]
    fn first_look_quiet_moves_are_the_rules_cores() {
        let standard = TbRules::default();
        for name in ["LE v R", "TR v WD", "LR v LR", "CD v R", "L v T"] {
            first_look_matches_the_core::<Standard>(standard, name);
        }
        let mut rules = standard;
        rules.moves.dog_swims = true;
        for name in ["TD v R", "LD v D"] {
            first_look_matches_the_core::<DogSwims>(rules, name);
        }
        let mut rules = standard;
        rules.moves.trapped_lose_attack = true;
        first_look_matches_the_core::<TrappedLoseAttack>(rules, "LE v R");
    }

    /// A table built on the move graph (and perhaps the values) of another signature
    /// of its geometry is the table built alone, and signatures of other geometries
    /// do not share.
    #[test]
    fn signatures_of_one_geometry_share_a_move_graph() {
        let mut dog_swims = TbRules::default();
        dog_swims.moves.dog_swims = true;
        // With the same first look too, the values are shared: the wolf and the dog
        // both take the rat and are safe from it, and so are their two-animal tables
        // against it. In `WC v D` the dog takes the cat; in `WD v C` nothing takes
        // anything but the wolf and the dog.
        for (rules, first, second, same_values) in [
            (TbRules::default(), "LE v R", "TE v R", true),
            (TbRules::default(), "WR v L", "PR v T", true),
            (TbRules::default(), "PW v R", "PD v R", true),
            (TbRules::default(), "WD v C", "WC v D", false),
            (dog_swims, "LD v R", "TD v R", true),
        ] {
            let (tb, _) = tables(rules, &[first, second]);
            let children = tb.snapshot().tables;
            let (a, b) = (
                Material::parse(first).unwrap(),
                Material::parse(second).unwrap(),
            );
            let dog = rules.moves.dog_swims;
            assert_eq!(
                Geometry::of(a, dog),
                Geometry::of(b, dog),
                "{first} {second}"
            );
            let build = |m, graphs| {
                with_move_rules!(rules.moves, R => build_finding_predecessors::<R>(m, rules, &children, &|_| {}, None, graphs))
                    .unwrap()
            };
            let graphs = MoveGraphs::default();
            let (_, own) = build(a, Some(&graphs));
            assert!(!own.graph_shared);
            let (shared, report) = build(b, Some(&graphs));
            assert!(report.graph_shared, "{second} did not take {first}'s graph");
            assert_eq!(
                report.values_from,
                same_values.then_some(a.canonical()),
                "{second}"
            );
            let (alone, _) = build(b, None);
            assert_eq!(shared.len(), alone.len());
            for i in 0..alone.len() {
                assert_eq!(shared.entry(i), alone.entry(i), "{second} at {i}");
            }
        }
        // A jumper against a rat is not a plain animal against one.
        let (l, e) = (
            Material::parse("L v R").unwrap(),
            Material::parse("E v R").unwrap(),
        );
        assert_ne!(Geometry::of(l, false), Geometry::of(e, false));
        // Dogs are swimmers only when they swim.
        let (d, w) = (
            Material::parse("D v R").unwrap(),
            Material::parse("W v R").unwrap(),
        );
        assert_eq!(Geometry::of(d, false), Geometry::of(w, false));
        assert_ne!(Geometry::of(d, true), Geometry::of(w, true));
    }

    /// The move graph (small tables) and the un-moves (large ones) give the same table.
    #[test]
    fn the_move_graph_and_the_unmoves_agree() {
        let mut dog_swims = TbRules::default();
        dog_swims.moves.dog_swims = true;
        for (rules, name) in [
            (TbRules::default(), "LE v R"),
            (TbRules::default(), "TR v L"),
            (TbRules::default(), "LR v LR"),
            (dog_swims, "TD v R"),
        ] {
            let (tb, _) = tables(rules, &[name]);
            let children = tb.snapshot().tables;
            let m = Material::parse(name).unwrap();
            let build = |graph| {
                with_move_rules!(rules.moves, R => build_finding_predecessors::<R>(m, rules, &children, &|_| {}, Some(graph), None))
                    .unwrap()
                    .0
            };
            let (by_graph, by_unmoves) = (build(true), build(false));
            assert_eq!(by_graph.len(), by_unmoves.len());
            for i in 0..by_graph.len() {
                assert_eq!(by_graph.entry(i), by_unmoves.entry(i), "{name} at {i}");
            }
        }
    }
}
