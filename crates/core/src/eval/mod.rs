//! Static evaluation.
//!
//! Every term is computed for each side from that side's point of view; the score is
//! the sum over terms of (red − blue), negated when Blue is to move. All tunable
//! numbers live in [`Weights`], which also offers a flat view (`params`, `from_params`,
//! `names`) for an automatic tuner.
//!
//! Terms:
//! - `material`: value of each living animal.
//! - `progress`: each animal's shortest path to the enemy den (precomputed tables in
//!   [`distance`]), mapped through a distance curve that grows steeply in the last
//!   steps, times a per-animal scale (in sixteenths).
//! - `den_defence`: enemy animals within [`ATTACK_RADIUS`] moves of our den (by their
//!   own distance tables) against our animals in the zone around our den.
//! - `trap_guard`: our traps that we cover (an animal of ours on or next to the trap,
//!   ready to take an intruder there).
//! - `trap_intruder`: an enemy animal on one of our traps, one step from our den;
//!   worse when none of our animals touches it.
//! - `rat_elephant`: our rat alive while the enemy elephant lives; our rat on land next
//!   to the enemy elephant.
//! - `rat_river`: our rat in the water; and in the path of an enemy lion's or tiger's
//!   river jump, blocking it.
//! - `placement`: a square table per animal, seen from the animal's own side and
//!   symmetric left to right (the board is), tuned from games.
//! - `mobility`: number of legal moves the side would have.
//! - `tempo`: bonus for the side to move.

pub mod distance;
mod weights;

#[cfg(test)]
mod tests;

use crate::board::bitboard::Bitboard;
use crate::board::geometry::{DEN_BB, JUMPS, LAND, NEIGHBOURS, TRAPS, WATER};
use crate::board::movegen::mobility;
use crate::board::piece::{Animal, Color};
use crate::board::position::Position;
use crate::board::square::{sq, Square};
use distance::{Mover, DISTANCE};

/// Evaluations are clamped to `±EVAL_LIMIT`, below any mate score of the search.
pub const EVAL_LIMIT: i32 = 9_999;

/// An enemy animal at most this many moves from our den counts as an attacker.
pub const ATTACK_RADIUS: u8 = 3;

/// Length of the distance curve: distances 0..PROGRESS_LEN-1; longer ones use the
/// last entry. The longest finite path on the board is 11 moves.
pub const PROGRESS_LEN: usize = 12;

/// Entries of one placement table: 9 ranks × 4 files (a–d; e–g mirror c–a).
pub const PLACEMENT_LEN: usize = 36;

/// Every tunable number of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of each animal, indexed by `Animal::index()` (rat first).
    pub material: [i32; 8],
    /// Bonus by distance to the enemy den (index = moves still needed).
    pub progress: [i32; PROGRESS_LEN],
    /// Per-animal multiplier of `progress`, in sixteenths.
    pub progress_scale: [i32; 8],
    /// Bonus by square for each animal (`Animal::index()`), indexed by
    /// [`placement_index`]: rank from the animal's own side, file folded to a–d.
    pub placement: [[i32; PLACEMENT_LEN]; 8],
    /// Per legal move.
    pub mobility: i32,
    /// For the side to move.
    pub tempo: i32,
    /// Per enemy attacker near our den that no defender answers (subtracted).
    pub den_attacker: i32,
    /// Per enemy attacker near our den matched by one of our defenders.
    pub den_defender: i32,
    /// Per trap of ours with one of our animals on it or next to it.
    pub trap_guard: i32,
    /// Per enemy animal on our trap with none of our animals next to it (subtracted).
    pub intruder_unguarded: i32,
    /// Per enemy animal on our trap that one of our animals touches (subtracted).
    pub intruder_guarded: i32,
    /// Our rat alive while the enemy elephant lives.
    pub rat_vs_elephant: i32,
    /// Our rat on land next to the enemy elephant (threatening to take it).
    pub rat_attacks_elephant: i32,
    /// Our rat in the water.
    pub rat_in_river: i32,
    /// Per enemy lion/tiger whose river jump our rat blocks.
    pub rat_blocks_jump: i32,
}

/// Names of the scalar weights, in the order of `Weights::slots_mut`.
const SCALAR_NAMES: [&str; 11] = [
    "mobility",
    "tempo",
    "den_attacker",
    "den_defender",
    "trap_guard",
    "intruder_unguarded",
    "intruder_guarded",
    "rat_vs_elephant",
    "rat_attacks_elephant",
    "rat_in_river",
    "rat_blocks_jump",
];

impl Weights {
    /// The engine's weights: [`Weights::HAND_SET`] tuned from self-play games by
    /// `jungle tune` (how, in `weights.rs` and CHANGES.md).
    pub const DEFAULT: Weights = weights::TUNED;

    /// Hand-set starting values, from which the tuning started.
    ///
    /// Material (rat, cat, dog, wolf, leopard, tiger, lion, elephant):
    /// the elephant takes everything but the rat; the lion everything but the elephant,
    /// and it and the tiger cross the rivers, which makes them the main attackers. The
    /// rat is worth far more than its rank: it alone kills the elephant, it is safe from
    /// every land animal while in the water, and it blocks river jumps; its value rises
    /// further (by `rat_vs_elephant`) while the enemy elephant lives. Cat, dog and wolf
    /// are mostly defenders of the traps, valued by how much they can take.
    pub const HAND_SET: Weights = Weights {
        material: [400, 200, 300, 350, 500, 800, 900, 1000],
        // Distance 0 is the den itself (game over); the curve is steep for the last
        // three steps, where a single unanswered move wins.
        progress: [300, 160, 90, 55, 36, 24, 16, 10, 6, 3, 1, 0],
        // Strong animals profit most from advancing (they cannot easily be taken);
        // the rat is hard to stop in the water; weak animals are better at home.
        progress_scale: [14, 8, 9, 10, 12, 16, 16, 16],
        placement: [[0; PLACEMENT_LEN]; 8],
        mobility: 4,
        tempo: 10,
        den_attacker: 60,
        den_defender: 15,
        trap_guard: 8,
        intruder_unguarded: 150,
        intruder_guarded: 40,
        rat_vs_elephant: 50,
        rat_attacks_elephant: 60,
        rat_in_river: 10,
        rat_blocks_jump: 25,
    };

    /// Every weight as one mutable slot, in the order of `params` and `names`: the
    /// arrays first, then the scalars in the order of `SCALAR_NAMES`.
    fn slots_mut(&mut self) -> Vec<&mut i32> {
        let Weights {
            material,
            progress,
            progress_scale,
            placement,
            mobility,
            tempo,
            den_attacker,
            den_defender,
            trap_guard,
            intruder_unguarded,
            intruder_guarded,
            rat_vs_elephant,
            rat_attacks_elephant,
            rat_in_river,
            rat_blocks_jump,
        } = self;
        let mut v: Vec<&mut i32> = material
            .iter_mut()
            .chain(progress.iter_mut())
            .chain(progress_scale.iter_mut())
            .chain(placement.iter_mut().flatten())
            .collect();
        v.extend([
            mobility,
            tempo,
            den_attacker,
            den_defender,
            trap_guard,
            intruder_unguarded,
            intruder_guarded,
            rat_vs_elephant,
            rat_attacks_elephant,
            rat_in_river,
            rat_blocks_jump,
        ]);
        v
    }

    /// All weights as a flat vector, in the order of `names`.
    pub fn params(&self) -> Vec<i32> {
        let mut copy = *self;
        copy.slots_mut().into_iter().map(|x| *x).collect()
    }

    /// The inverse of `params`; `None` when the length is wrong.
    pub fn from_params(p: &[i32]) -> Option<Weights> {
        let mut w = Weights::DEFAULT;
        let mut slots = w.slots_mut();
        if p.len() != slots.len() {
            return None;
        }
        for (slot, &v) in slots.iter_mut().zip(p) {
            **slot = v;
        }
        Some(w)
    }

    /// A name for each entry of `params`.
    pub fn names() -> Vec<String> {
        let mut n = Vec::new();
        for a in Animal::ALL {
            n.push(format!("material_{}", a.name()));
        }
        for d in 0..PROGRESS_LEN {
            n.push(format!("progress_d{d}"));
        }
        for a in Animal::ALL {
            n.push(format!("progress_scale_{}", a.name()));
        }
        for a in Animal::ALL {
            for i in 0..PLACEMENT_LEN {
                let (rank, file) = (i / 4 + 1, (b'a' + (i % 4) as u8) as char);
                n.push(format!("placement_{}_{file}{rank}", a.name()));
            }
        }
        n.extend(SCALAR_NAMES.iter().map(|s| s.to_string()));
        n
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// One line of the breakdown: the term's value for each side, each from its own
/// point of view (the term contributes `red - blue` to Red's score).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub red: i32,
    pub blue: i32,
}

/// The evaluation term by term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub terms: Vec<Term>,
    /// From Red's point of view (after clamping); equals `evaluate` seen from Red.
    pub total: i32,
    /// Equals `evaluate(pos)`.
    pub side_to_move_score: i32,
}

impl std::fmt::Display for Trace {
    /// A table for the protocol's `eval` command: one line per term (each side's value
    /// from its own point of view, and the difference from Red's), then the totals.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{:<14} {:>7} {:>7} {:>7}",
            "term", "red", "blue", "red-blue"
        )?;
        for t in &self.terms {
            writeln!(
                f,
                "{:<14} {:>7} {:>7} {:>7}",
                t.name,
                t.red,
                t.blue,
                t.red - t.blue
            )?;
        }
        writeln!(f, "total (red's view): {}", self.total)?;
        write!(f, "side to move: {}", self.side_to_move_score)
    }
}

/// Names of the terms, in the order of `Breakdown`.
pub const TERM_NAMES: [&str; NUM_TERMS] = [
    "material",
    "progress",
    "placement",
    "den_defence",
    "trap_guard",
    "trap_intruder",
    "rat_elephant",
    "rat_river",
    "mobility",
    "tempo",
];
const NUM_TERMS: usize = 10;
const T_MATERIAL: usize = 0;
const T_PROGRESS: usize = 1;
const T_PLACEMENT: usize = 2;
const T_DEN: usize = 3;
const T_TRAP_GUARD: usize = 4;
const T_INTRUDER: usize = 5;
const T_RAT_ELEPHANT: usize = 6;
const T_RAT_RIVER: usize = 7;
const T_MOBILITY: usize = 8;
const T_TEMPO: usize = 9;

/// `Mover::of` by animal index, as an index into `DISTANCE[color]`.
const MOVER: [usize; 8] = {
    let mut m = [0; 8];
    let mut i = 0;
    while i < 8 {
        m[i] = Mover::of(Animal::from_index(i)) as usize;
        i += 1;
    }
    m
};

/// Index into a placement table of `color`'s animal on square index `s` (63, the
/// captured slot, maps to entry 0; the caller zeroes captured animals).
pub const fn placement_index(color: Color, s: usize) -> usize {
    if s >= 63 {
        return 0;
    }
    let (file, rank) = (s % 7, s / 7);
    let rank = match color {
        Color::Red => rank,
        Color::Blue => 8 - rank,
    };
    let file = if file > 3 { 6 - file } else { file };
    rank * 4 + file
}

/// `placement_index` for every square index 0..64, per colour.
const PLACEMENT_INDEX: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut s = 0;
    while s < 64 {
        t[0][s] = placement_index(Color::Red, s) as u8;
        t[1][s] = placement_index(Color::Blue, s) as u8;
        s += 1;
    }
    t
};

/// `[term][color]`.
type Breakdown = [[i32; 2]; NUM_TERMS];

/// Squares within two steps of each side's den (its traps and their neighbours, the
/// den excluded): where defenders stand.
const DEN_ZONE: [Bitboard; 2] = [
    TRAPS[0].union(TRAPS[0].neighbours()).minus(DEN_BB[0]),
    TRAPS[1].union(TRAPS[1].neighbours()).minus(DEN_BB[1]),
];

/// For each trap of each side: the trap and its neighbours (the den among them, which
/// the side's own animals never occupy).
const TRAP_GUARD: [[Bitboard; 3]; 2] = [
    guard_masks(&[sq::C1, sq::E1, sq::D2]),
    guard_masks(&[sq::C9, sq::E9, sq::D8]),
];

const fn guard_masks(traps: &[Square; 3]) -> [Bitboard; 3] {
    let mut m = [Bitboard::EMPTY; 3];
    let mut i = 0;
    while i < 3 {
        let t = Bitboard::from_square(traps[i]);
        m[i] = t.union(t.neighbours());
        i += 1;
    }
    m
}

/// Value of an animal under the default weights (for move ordering and exchanges).
#[inline]
pub fn material(animal: Animal) -> i32 {
    Weights::DEFAULT.material[animal.index()]
}

/// Score for the side to move under the default weights.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::DEFAULT)
}

/// Score for the side to move under the given weights.
#[inline]
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let red = red_total(&breakdown(pos, w));
    match pos.side_to_move() {
        Color::Red => red,
        Color::Blue => -red,
    }
}

/// Term-by-term breakdown under the default weights.
pub fn trace(pos: &Position) -> Trace {
    trace_with(pos, &Weights::DEFAULT)
}

/// Term-by-term breakdown under the given weights.
pub fn trace_with(pos: &Position, w: &Weights) -> Trace {
    let b = breakdown(pos, w);
    let total = red_total(&b);
    Trace {
        terms: TERM_NAMES
            .iter()
            .zip(b.iter())
            .map(|(&name, v)| Term {
                name,
                red: v[0],
                blue: v[1],
            })
            .collect(),
        total,
        side_to_move_score: match pos.side_to_move() {
            Color::Red => total,
            Color::Blue => -total,
        },
    }
}

#[inline(always)]
fn red_total(b: &Breakdown) -> i32 {
    let mut sum = 0;
    for t in b {
        sum += t[0] - t[1];
    }
    sum.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[inline(always)]
fn breakdown(pos: &Position, w: &Weights) -> Breakdown {
    let mut b: Breakdown = [[0; 2]; NUM_TERMS];
    // Animals of each side at most ATTACK_RADIUS moves from the enemy den.
    let mut attackers = [0i32; 2];

    for c in Color::BOTH {
        let ci = c.index();
        let tables = &DISTANCE[ci];
        // Square of each animal; 63 when captured (distance UNREACHABLE there).
        let squares = &pos.squares[ci];
        let place_index = &PLACEMENT_INDEX[ci];
        let (mut mat, mut prog, mut place, mut near) = (0, 0, 0, 0);
        // Branch-free and unrolled: this loop is most of the evaluation's work.
        for a in 0..8 {
            let s = squares[a] as usize & 63;
            let alive = (s < 63) as i32;
            let d = tables[MOVER[a]][s];
            mat += alive * w.material[a];
            let curve = w.progress[(d as usize).min(PROGRESS_LEN - 1)];
            prog += alive * curve * w.progress_scale[a];
            place += alive * w.placement[a][place_index[s] as usize];
            near += (d <= ATTACK_RADIUS) as i32;
        }
        b[T_MATERIAL][ci] = mat;
        b[T_PROGRESS][ci] = prog / 16;
        b[T_PLACEMENT][ci] = place;
        attackers[ci] = near;
    }

    for c in Color::BOTH {
        let (ci, them) = (c.index(), c.other());
        let own = pos.occupied(c);
        let enemies = pos.occupied(them);

        // Den defence: attackers near our den against defenders around it.
        let incoming = attackers[them.index()];
        let defenders = (own & DEN_ZONE[ci]).count() as i32;
        let answered = incoming.min(defenders);
        b[T_DEN][ci] = answered * w.den_defender - (incoming - answered) * w.den_attacker;

        // Trap control.
        let guarded = TRAP_GUARD[ci].iter().filter(|g| (**g & own).any()).count() as i32;
        b[T_TRAP_GUARD][ci] = guarded * w.trap_guard;

        // Enemy animals on our traps.
        let mut intr = 0;
        for t in enemies & TRAPS[ci] {
            intr -= if (NEIGHBOURS[t.index()] & own).any() {
                w.intruder_guarded
            } else {
                w.intruder_unguarded
            };
        }
        b[T_INTRUDER][ci] = intr;

        // Rat against elephant; rat in the river.
        let rat = pos.bb_of(c, Animal::Rat);
        let enemy_elephant = pos.bb_of(them, Animal::Elephant);
        let mut re = 0;
        let mut rr = 0;
        if let Some(rs) = rat.first() {
            if enemy_elephant.any() {
                re += w.rat_vs_elephant;
                if (rat & LAND).any() && (NEIGHBOURS[rs.index()] & enemy_elephant).any() {
                    re += w.rat_attacks_elephant;
                }
            }
            if (rat & WATER).any() {
                rr += w.rat_in_river;
                for j in [Animal::Lion, Animal::Tiger] {
                    if let Some(js) = pos.square_of(them, j) {
                        let jumps = &JUMPS[js.index()];
                        if ((jumps.over[0] | jumps.over[1]) & rat).any() {
                            rr += w.rat_blocks_jump;
                        }
                    }
                }
            }
        }
        b[T_RAT_ELEPHANT][ci] = re;
        b[T_RAT_RIVER][ci] = rr;

        b[T_MOBILITY][ci] = mobility(pos, c) as i32 * w.mobility;
    }
    b[T_TEMPO][pos.side_to_move().index()] = w.tempo;
    b
}
