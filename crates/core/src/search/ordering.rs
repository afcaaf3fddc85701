//! Move ordering: the hash move first, then captures by most valuable victim and least
//! valuable attacker, then killer moves, then quiet moves by their history score.

use super::score::MAX_PLY;
use crate::board::geometry::TRAPS;
use crate::board::movegen::generate_to_with;
use crate::board::moves::MAX_MOVES;
use crate::board::MoveRules;
use crate::board::{Bitboard, Move, MoveList, Position};
use crate::game::anti_chase::Forbidden;

const CAPTURE: i32 = 1 << 20;
const KILLER_1: i32 = 1 << 19;
const KILLER_2: i32 = KILLER_1 - 1;
/// Stepping onto an enemy trap threatens to enter the den next move.
const DEN_THREAT: i32 = 1 << 14;
/// History scores stay within ±HISTORY_MAX.
pub const HISTORY_MAX: i32 = 1 << 14;

/// A move's piece and target, as one number below `PIECE_TO` (the piece index,
/// colour × 8 + animal, times 64, plus the target square).
pub const PIECE_TO: usize = 16 * 64;

/// Heuristic tables a search thread keeps between searches.
pub struct Heuristics {
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// Indexed by piece index (color * 8 + animal) and target square.
    pub history: [[i32; 64]; 16],
    /// Continuation history (Stockfish's `continuationHistory`): how a quiet move did
    /// after an earlier move of the search path, indexed by the earlier move's
    /// `piece_to` times `PIECE_TO` plus the move's. Empty (and never read) unless
    /// `SearchParams::cont_history` is on: `allocate_continuation`.
    pub continuation: Vec<i32>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 2],
            history: [[0; 64]; 16],
            continuation: Vec::new(),
        }
    }
}

/// What the ordering knows of the path to a node for the continuation history: the
/// rows of the moves one and two plies up (`piece_to × PIECE_TO`; `None` for a null
/// move or above the root), and the weight of the history in percent (0: off).
#[derive(Clone, Copy, Default)]
pub struct Continuation {
    pub rows: [Option<usize>; 2],
    pub weight: i32,
}

/// `m`'s piece and target in `pos` (below `PIECE_TO`).
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> usize {
    (pos.side_to_move().index() * 8 + pos.mover(m).index()) * 64 + m.to().index()
}

impl Heuristics {
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
        self.history = [[0; 64]; 16];
        self.continuation.fill(0);
    }

    /// Makes room for the continuation history (once; 4 MB).
    pub fn allocate_continuation(&mut self) {
        if self.continuation.is_empty() {
            self.continuation = vec![0; PIECE_TO * PIECE_TO];
        }
    }

    /// The continuation history of `m` after the moves of `cont`, weighted.
    #[inline]
    pub fn continuation_score(&self, cont: &Continuation, pos: &Position, m: Move) -> i32 {
        if cont.weight == 0 || self.continuation.is_empty() {
            return 0;
        }
        let pt = piece_to(pos, m);
        let sum: i32 = cont
            .rows
            .iter()
            .flatten()
            .map(|row| self.continuation[row + pt])
            .sum();
        sum * cont.weight / 100
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

    /// A quiet move caused a cut-off: reward it by `bonus`
    /// (`SearchParams::history_bonus` of the depth), punish the quiet moves tried
    /// before it by as much.
    pub fn reward_quiet(
        &mut self,
        pos: &Position,
        best: Move,
        tried: &[Move],
        bonus: i32,
        ply: usize,
        cont: &Continuation,
    ) {
        update(self.history_slot(pos, best), bonus);
        for &m in tried {
            if m != best {
                update(self.history_slot(pos, m), -bonus);
            }
        }
        if cont.weight != 0 && !self.continuation.is_empty() {
            for row in cont.rows.iter().flatten() {
                update(&mut self.continuation[row + piece_to(pos, best)], bonus);
                for &m in tried {
                    if m != best {
                        update(&mut self.continuation[row + piece_to(pos, m)], -bonus);
                    }
                }
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

/// The ordering score of one move (with the continuation history when `CONT`: a
/// constant, so that the engine's default ordering pays nothing for it).
#[inline]
fn score<const CONT: bool>(
    pos: &Position,
    m: Move,
    killers: [Option<Move>; 2],
    heur: &Heuristics,
    cont: &Continuation,
) -> i32 {
    if pos.is_capture(m) {
        CAPTURE + victim_value(pos, m) * 16 - pos.mover(m).rank() as i32
    } else if Some(m) == killers[0] {
        KILLER_1
    } else if Some(m) == killers[1] {
        KILLER_2
    } else {
        let enemy_traps = TRAPS[pos.side_to_move().other().index()];
        let threat = if enemy_traps.contains(m.to()) {
            DEN_THREAT
        } else {
            0
        };
        let continuation = if CONT {
            heur.continuation_score(cont, pos, m)
        } else {
            0
        };
        heur.history(pos, m) + continuation + threat
    }
}

/// Packs a move's score, its generation index (so that equal scores keep generation
/// order) and the move into one integer: picking the largest picks the best move.
#[inline]
fn pack(score: i32, index: usize, m: Move) -> i64 {
    (score as i64) << 24 | ((255 - index) as i64) << 16 | m.raw() as i64
}

#[inline]
fn unpack(key: i64) -> Option<Move> {
    Move::from_raw(key as u16)
}

/// Picks made by selection before the rest is sorted at once.
const SELECTION_PICKS: usize = 3;

/// Hands out the moves of a node best first, in stages: the hash move before any
/// generation (a cut-off by it saves generating and scoring the rest), then the other
/// moves landing on `targets`, each time the best of those left (selection: cheap
/// when a cut-off comes early).
pub struct MovePicker {
    hash_move: Option<Move>,
    targets: Bitboard,
    /// Moves the anti-chase rules forbid now (`None`: nothing is forbidden).
    forbidden: Option<Forbidden>,
    continuation: Continuation,
    keys: [i64; MAX_MOVES],
    len: usize,
    index: usize,
    stage: Stage,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    HashMove,
    Generate,
    Rest,
}

impl MovePicker {
    #[inline(always)]
    pub fn new(
        hash_move: Option<Move>,
        targets: Bitboard,
        forbidden: Option<Forbidden>,
        continuation: Continuation,
    ) -> MovePicker {
        let hash_move = hash_move.filter(|m| targets.contains(m.to()));
        MovePicker {
            hash_move,
            targets,
            forbidden,
            continuation,
            keys: [0; MAX_MOVES],
            len: 0,
            index: 0,
            stage: if hash_move.is_some() {
                Stage::HashMove
            } else {
                Stage::Generate
            },
        }
    }

    /// The next move, or `None` when all have been handed out.
    #[inline]
    pub fn next<R: MoveRules>(
        &mut self,
        pos: &Position,
        heur: &Heuristics,
        ply: usize,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::Generate;
                    return self.hash_move;
                }
                Stage::Generate => {
                    let mut list = MoveList::new();
                    generate_to_with::<R>(pos, self.targets, &mut list);
                    if let Some(forbidden) = &self.forbidden {
                        list.retain(|&m| !forbidden.forbids(pos.mover(m), m.to()));
                    }
                    if self.continuation.weight == 0 {
                        self.score_all::<false>(pos, &list, heur, ply);
                    } else {
                        self.score_all::<true>(pos, &list, heur, ply);
                    }
                    self.stage = Stage::Rest;
                }
                Stage::Rest => {
                    if self.index >= self.len {
                        return None;
                    }
                    let rest = &mut self.keys[self.index..self.len];
                    if self.index < SELECTION_PICKS {
                        let mut best = 0;
                        for j in 1..rest.len() {
                            if rest[j] > rest[best] {
                                best = j;
                            }
                        }
                        rest.swap(0, best);
                    } else if self.index == SELECTION_PICKS {
                        // No cut-off so far: this is likely an all-node, sort the rest.
                        rest.sort_unstable_by(|a, b| b.cmp(a));
                    }
                    self.index += 1;
                    return unpack(rest[0]);
                }
            }
        }
    }
}

impl MovePicker {
    /// Scores the generated moves but the hash move (handed out already).
    #[inline]
    fn score_all<const CONT: bool>(
        &mut self,
        pos: &Position,
        list: &MoveList,
        heur: &Heuristics,
        ply: usize,
    ) {
        let killers = heur.killers[ply];
        for (i, &m) in list.iter().enumerate() {
            if Some(m) != self.hash_move {
                let s = score::<CONT>(pos, m, killers, heur, &self.continuation);
                self.keys[self.len] = pack(s, i, m);
                self.len += 1;
            }
        }
    }
}

/// Sorts `list` best first (equal scores in generation order).
pub fn order(pos: &Position, list: &mut MoveList, heur: &Heuristics, ply: usize) {
    let killers = heur.killers[ply];
    let moves = list.as_mut_slice();
    let mut keys = [0i64; MAX_MOVES];
    for (i, (k, &m)) in keys.iter_mut().zip(moves.iter()).enumerate() {
        *k = pack(
            score::<false>(pos, m, killers, heur, &Continuation::default()),
            i,
            m,
        );
    }
    let keys = &mut keys[..moves.len()];
    keys.sort_unstable_by(|a, b| b.cmp(a));
    for (m, &k) in moves.iter_mut().zip(keys.iter()) {
        if let Some(mv) = unpack(k) {
            *m = mv;
        }
    }
}

/// True for moves the search treats as tactical (not reduced, not pruned).
#[inline]
pub fn is_tactical(pos: &Position, m: Move) -> bool {
    pos.is_capture(m) || TRAPS[pos.side_to_move().other().index()].contains(m.to())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_history_rewards_the_cut_off_after_its_predecessors() {
        let pos = Position::startpos();
        let best = pos.parse_move("a1b1").expect("legal");
        let other = pos.parse_move("g1f1").expect("legal");
        let earlier = pos.parse_move("a3a4").expect("legal");
        let cont = Continuation {
            rows: [Some(piece_to(&pos, earlier) * PIECE_TO), None],
            weight: 100,
        };
        let mut heur = Heuristics::default();
        // Off until allocated: nothing is read or kept.
        heur.reward_quiet(&pos, best, &[other, best], 400, 3, &cont);
        assert_eq!(heur.continuation_score(&cont, &pos, best), 0);
        heur.allocate_continuation();
        heur.reward_quiet(&pos, best, &[other, best], 400, 3, &cont);
        assert_eq!(heur.continuation_score(&cont, &pos, best), 400);
        assert_eq!(heur.continuation_score(&cont, &pos, other), -400);
        // Weighted, and nothing after another earlier move or with the weight 0.
        let half = Continuation { weight: 50, ..cont };
        assert_eq!(heur.continuation_score(&half, &pos, best), 200);
        let elsewhere = Continuation {
            rows: [Some(piece_to(&pos, other) * PIECE_TO), None],
            weight: 100,
        };
        assert_eq!(heur.continuation_score(&elsewhere, &pos, best), 0);
        assert_eq!(
            heur.continuation_score(&Continuation::default(), &pos, best),
            0
        );
        // `clear` empties the table but keeps it.
        heur.clear();
        assert_eq!(heur.continuation_score(&cont, &pos, best), 0);
        assert_eq!(heur.continuation.len(), PIECE_TO * PIECE_TO);
    }
}
