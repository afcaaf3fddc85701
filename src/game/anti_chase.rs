//! The anti-chase rules of Chinese online play (seed 002), as `protocol.md` reads them.
//!
//! - **7-3:** if, among the mover's last 7 moves, the same animal moved onto the same
//!   square 3 times or more, that animal may not move onto that square now. Exempt:
//!   any of those 7 moves entered a trap; or the animal is being chased (the
//!   opponent's last-moved animal could now capture it on its square).
//! - **17-5:** if the mover's last 17 moves were all made by the same animal and
//!   together visited at most 5 different squares (the square it started from and
//!   every square it moved to), that animal may not move onto any of those squares
//!   now. Exempt: any of those 17 moves entered a trap.
//!
//! "Entered a trap" means the move ended on any of the six trap squares.

use crate::board::geometry::TRAPS;
use crate::board::movegen::is_legal_with;
use crate::board::{Animal, Bitboard, Color, Move, MoveRules, Position};

/// One move of the game, with who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub mv: Move,
    pub animal: Animal,
    pub color: Color,
}

impl MoveRecord {
    /// The record of `m` played in `pos` (before it is played).
    pub fn of(pos: &Position, m: Move) -> MoveRecord {
        MoveRecord {
            mv: m,
            animal: pos.mover(m),
            color: pos.side_to_move(),
        }
    }
}

/// Squares each animal of the side to move may not move onto now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forbidden(pub [Bitboard; 8]);

impl Forbidden {
    #[inline]
    pub fn forbids(&self, animal: Animal, to: crate::board::Square) -> bool {
        self.0[animal.index()].contains(to)
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|b| b.is_empty())
    }
}

const ALL_TRAPS: Bitboard = Bitboard(TRAPS[0].0 | TRAPS[1].0);

/// What the anti-chase rules forbid to the side to move of `pos`, given the moves of
/// the game so far (oldest first; the last one is the opponent's move that led here).
pub fn forbidden<R: MoveRules>(pos: &Position, history: &[MoveRecord]) -> Forbidden {
    let us = pos.side_to_move();
    let mut out = Forbidden::default();
    // The mover's own moves, most recent first.
    let mine = history.iter().rev().filter(|r| r.color == us);
    let last7: Vec<&MoveRecord> = mine.clone().take(7).collect();
    rule_7_3::<R>(pos, history, &last7, &mut out);
    let last17: Vec<&MoveRecord> = mine.take(17).collect();
    rule_17_5(&last17, &mut out);
    out
}

fn rule_7_3<R: MoveRules>(
    pos: &Position,
    history: &[MoveRecord],
    last7: &[&MoveRecord],
    out: &mut Forbidden,
) {
    if last7.iter().any(|r| ALL_TRAPS.contains(r.mv.to())) {
        return;
    }
    for (i, r) in last7.iter().enumerate() {
        let repeats = last7
            .iter()
            .filter(|o| o.animal == r.animal && o.mv.to() == r.mv.to())
            .count();
        let first_time = !last7[..i]
            .iter()
            .any(|o| o.animal == r.animal && o.mv.to() == r.mv.to());
        if repeats >= 3 && first_time && !is_chased::<R>(pos, history, r.animal) {
            out.0[r.animal.index()] |= Bitboard::from_square(r.mv.to());
        }
    }
}

/// The opponent's last move attacked `animal`: the animal that made it could now take
/// `animal` on its square.
fn is_chased<R: MoveRules>(pos: &Position, history: &[MoveRecord], animal: Animal) -> bool {
    let us = pos.side_to_move();
    let Some(last) = history.last().filter(|r| r.color != us) else {
        return false;
    };
    let Some(target) = pos.square_of(us, animal) else {
        return false;
    };
    let mut theirs = *pos;
    theirs.play_null();
    is_legal_with::<R>(&theirs, Move::new(last.mv.to(), target))
}

fn rule_17_5(last17: &[&MoveRecord], out: &mut Forbidden) {
    let Some(first) = last17.first() else {
        return;
    };
    if last17.len() < 17 || last17.iter().any(|r| r.animal != first.animal) {
        return;
    }
    if last17.iter().any(|r| ALL_TRAPS.contains(r.mv.to())) {
        return;
    }
    // The oldest move's start square and every destination.
    let mut visited = Bitboard::from_square(last17[last17.len() - 1].mv.from());
    for r in last17 {
        visited |= Bitboard::from_square(r.mv.to());
    }
    if visited.count() <= 5 {
        out.0[first.animal.index()] |= visited;
    }
}
