//! The one action encoding and the one observation tensor of the learning
//! environments (PettingZoo, Gymnasium, OpenSpiel, the vectorised environment).
//!
//! **Actions.** A move is its from-square and its direction: action = `from * 4 +
//! direction`, with squares numbered `a1 = 0, b1 = 1, …, g9 = 62` (file + 7 × rank)
//! and directions 0 north (towards rank 9), 1 east (towards file g), 2 south, 3
//! west. A river jump of a lion or tiger is the move in its direction, so every move
//! has one action and no action two moves: 63 × 4 = 252 actions, most of them illegal
//! in any position (the legal-action mask says which are legal).
//!
//! **Observation.** `float32[23, 9, 7]`, indexed `[plane, rank - 1, file]`, from a
//! fixed point of view (Red at the bottom, whoever is to move):
//! planes 0–7 the red rat, cat, dog, wolf, leopard, tiger, lion, elephant; 8–15 the
//! blue ones; 16 water; 17 Red's traps; 18 Blue's traps; 19 Red's den; 20 Blue's den;
//! 21 all ones when Red is to move; 22 the plies since the last capture over the
//! no-capture draw limit (100 when the rule is off), at most 1.
//!
//! **From the side to move** (`flip`, for Blue to move in `VectorEnv(perspective=
//! "side_to_move")`): the board turned half round (square `s` seen as `62 - s`, so the
//! mover's den is at d1), the colours' planes swapped (0–7 the mover's animals, 17 and
//! 19 the mover's trap and den), and each action seen the same way (from-square `62 -
//! s`, direction turned by two). Plane 21 still says which colour is to move.

use jungle_core::board::geometry::{DEN_BB, TRAPS, WATER};
use jungle_core::board::square::{FILES, NUM_SQUARES, RANKS};
use jungle_core::board::{Animal, Bitboard, Color, Move, MoveList, Square};
use jungle_core::game::Game;

pub const DIRECTIONS: usize = 4;
pub const NUM_ACTIONS: usize = NUM_SQUARES * DIRECTIONS;
pub const PLANES: usize = 23;
pub const PLANE_SIZE: usize = RANKS as usize * FILES as usize;
pub const OBSERVATION_SIZE: usize = PLANES * PLANE_SIZE;

const WATER_PLANE: usize = 16;
const TRAP_PLANES: usize = 17;
const DEN_PLANES: usize = 19;
const SIDE_PLANE: usize = 21;
const NO_CAPTURE_PLANE: usize = 22;

/// The action of a move.
pub fn action_of(m: Move) -> usize {
    action_in(m, false)
}

/// The action of a move, seen from the other side when `flip`.
pub fn action_in(m: Move, flip: bool) -> usize {
    let (from, to) = (m.from(), m.to());
    let direction = if to.rank() > from.rank() {
        0
    } else if to.file() > from.file() {
        1
    } else if to.rank() < from.rank() {
        2
    } else {
        3
    };
    if flip {
        (NUM_SQUARES - 1 - from.index()) * DIRECTIONS + (direction + 2) % DIRECTIONS
    } else {
        from.index() * DIRECTIONS + direction
    }
}

/// The legal move an action stands for (seen from the other side when `flip`), if any.
pub fn move_of(action: usize, legal: &MoveList, flip: bool) -> Option<Move> {
    legal
        .iter()
        .copied()
        .find(|&m| action_in(m, flip) == action)
}

/// Sets `mask[action]` for every legal move (the slice is cleared first).
pub fn write_mask<T: Copy>(legal: &MoveList, mask: &mut [T], off: T, on: T, flip: bool) {
    mask.fill(off);
    for &m in legal.iter() {
        mask[action_in(m, flip)] = on;
    }
}

/// Writes the observation of `game` into `out` (`OBSERVATION_SIZE` values), seen from
/// Blue's side when `flip`.
pub fn write_observation(game: &Game, out: &mut [f32], flip: bool) {
    out.fill(0.0);
    let pos = game.position();
    let seen = |sq: Square| {
        if flip {
            NUM_SQUARES - 1 - sq.index()
        } else {
            sq.index()
        }
    };
    let side = |color: Color| color.index() ^ usize::from(flip);
    for color in Color::BOTH {
        for animal in Animal::ALL {
            if let Some(sq) = pos.square_of(color, animal) {
                let plane = side(color) * 8 + animal.index();
                out[plane * PLANE_SIZE + seen(sq)] = 1.0;
            }
        }
    }
    let mut fill = |plane: usize, squares: Bitboard| {
        let plane = plane_mut(out, plane);
        for sq in squares {
            plane[seen(sq)] = 1.0;
        }
    };
    fill(WATER_PLANE, WATER);
    for color in Color::BOTH {
        fill(TRAP_PLANES + side(color), TRAPS[color.index()]);
        fill(DEN_PLANES + side(color), DEN_BB[color.index()]);
    }
    if pos.side_to_move() == Color::Red {
        plane_mut(out, SIDE_PLANE).fill(1.0);
    }
    let limit = match game.rules().draw.no_capture_plies {
        0 => 100,
        n => n,
    };
    let count = (f32::from(pos.halfmove_clock()) / f32::from(limit)).min(1.0);
    plane_mut(out, NO_CAPTURE_PLANE).fill(count);
}

fn plane_mut(out: &mut [f32], plane: usize) -> &mut [f32] {
    &mut out[plane * PLANE_SIZE..(plane + 1) * PLANE_SIZE]
}

/// The square of a number, or why it is not one.
pub fn square_of_index(index: i64) -> Result<Square, String> {
    u8::try_from(index)
        .ok()
        .and_then(Square::from_index)
        .ok_or_else(|| format!("square {index} is off the board (0 = a1 to 62 = g9)"))
}
