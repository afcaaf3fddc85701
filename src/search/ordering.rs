//! Move ordering: the hash move first, then captures by most valuable victim and least
//! valuable attacker, then killer moves, then quiet moves by their history score.

use super::score::MAX_PLY;
use crate::board::geometry::TRAPS;
use crate::board::{Move, MoveList, Position};

const HASH_MOVE: i32 = 1 << 24;
const CAPTURE: i32 = 1 << 20;
const KILLER_1: i32 = 1 << 19;
const KILLER_2: i32 = KILLER_1 - 1;
/// Stepping onto an enemy trap threatens to enter the den next move.
const DEN_THREAT: i32 = 1 << 14;
/// History scores stay within ±HISTORY_MAX.
pub const HISTORY_MAX: i32 = 1 << 14;

/// Heuristic tables a search thread keeps between searches.
pub struct Heuristics {
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// Indexed by piece index (color * 8 + animal) and target square.
    pub history: [[i32; 64]; 16],
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 2],
            history: [[0; 64]; 16],
        }
    }
}

impl Heuristics {
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    #[inline]
    fn history_slot(&mut self, pos: &Position, m: Move) -> &mut i32 {
        let piece = pos.side_to_move().index() * 8 + pos.mover(m).index();
        &mut self.history[piece][m.to().index()]
    }

    #[inline]
    pub fn history(&self, pos: &Position, m: Move) -> i32 {
        let piece = pos.side_to_move().index() * 8 + pos.mover(m).index();
        self.history[piece][m.to().index()]
    }

    /// A quiet move caused a cut-off at `depth`: reward it, punish the quiet moves
    /// tried before it.
    pub fn reward_quiet(
        &mut self,
        pos: &Position,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let bonus = (depth * depth).min(400);
        update(self.history_slot(pos, best), bonus);
        for &m in tried {
            if m != best {
                update(self.history_slot(pos, m), -bonus);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(best) {
            k[1] = k[0];
            k[0] = Some(best);
        }
    }
}

/// History with gravity: large values move less, so scores stay bounded.
#[inline]
fn update(slot: &mut i32, bonus: i32) {
    *slot += bonus - *slot * bonus.abs() / HISTORY_MAX;
}

/// Value of a victim for ordering captures (rank, with the rat raised: it kills the
/// elephant and blocks jumps).
#[inline]
fn victim_value(pos: &Position, m: Move) -> i32 {
    match pos.captured_by(m) {
        Some(a) => match a.rank() {
            1 => 5,
            r => r as i32,
        },
        None => 0,
    }
}

/// Scores for the moves of `list`, in the same order.
pub fn score_moves(
    pos: &Position,
    list: &MoveList,
    hash_move: Option<Move>,
    heur: &Heuristics,
    ply: usize,
    scores: &mut [i32],
) {
    let enemy_traps = TRAPS[pos.side_to_move().other().index()];
    let killers = heur.killers[ply];
    for (i, &m) in list.iter().enumerate() {
        scores[i] = if Some(m) == hash_move {
            HASH_MOVE
        } else if pos.is_capture(m) {
            CAPTURE + victim_value(pos, m) * 16 - pos.mover(m).rank() as i32
        } else if Some(m) == killers[0] {
            KILLER_1
        } else if Some(m) == killers[1] {
            KILLER_2
        } else {
            let threat = if enemy_traps.contains(m.to()) {
                DEN_THREAT
            } else {
                0
            };
            heur.history(pos, m) + threat
        };
    }
}

/// Moves the best-scored remaining move to `index` and returns it (selection sort,
/// cheap because a cut-off usually comes early).
#[inline]
pub fn pick(moves: &mut [Move], scores: &mut [i32], index: usize) -> Move {
    let mut best = index;
    for j in index + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
    moves[index]
}

/// True for moves the search treats as tactical (not reduced, not pruned).
#[inline]
pub fn is_tactical(pos: &Position, m: Move) -> bool {
    pos.is_capture(m) || TRAPS[pos.side_to_move().other().index()].contains(m.to())
}
