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
//! **Observation.** `float32[32, 9, 7]`, indexed `[plane, rank - 1, file]`, from a
//! fixed point of view (Red at the bottom, whoever is to move):
//! planes 0–7 the red rat, cat, dog, wolf, leopard, tiger, lion, elephant; 8–15 the
//! blue ones; 16 water; 17 Red's traps; 18 Blue's traps; 19 Red's den; 20 Blue's den;
//! 21 all ones when Red is to move; 22 the plies since the last capture over the
//! no-capture draw limit (100 when the rule is off), at most 1.
//!
//! The history planes, which make the observation decide what the position alone does
//! not (repetitions, the anti-chase rules): 23 the occurrences of this position so far
//! (this one included) over the repetition draw's count (0 when the rule is off), at
//! most 1; 24–27 the legal moves, one plane per direction (north, east, south, west),
//! 1 on the from-square of each legal move (`obs[24:28]` is the legal-action mask
//! as `[direction, square]`); 28–31 the same for the legal moves that end the game
//! in a draw at once (by repetition or by the no-capture rule). A finished game has
//! no legal moves (its planes 24–31 are 0). So the observation decides the legal
//! moves and which of them draw; a win at once is the placement's to show.
//!
//! **From the side to move** (`flip`, for Blue to move in `VectorEnv(perspective=
//! "side_to_move")`): the board turned half round (square `s` seen as `62 - s`, so the
//! mover's den is at d1), the colours' planes swapped (0–7 the mover's animals, 17 and
//! 19 the mover's trap and den), and each action seen the same way (from-square `62 -
//! s`, direction turned by two), in planes 24–31 too. Plane 21 still says which colour
//! is to move.

use jungle_core::board::geometry::{DEN_BB, TRAPS, WATER};
use jungle_core::board::square::{FILES, NUM_SQUARES, RANKS};
use jungle_core::board::{Animal, Bitboard, Color, Move, MoveList, Square};
use jungle_core::game::{Game, GameResult};
use std::mem::MaybeUninit;

pub const DIRECTIONS: usize = 4;
pub const NUM_ACTIONS: usize = NUM_SQUARES * DIRECTIONS;
pub const PLANES: usize = 32;
pub const PLANE_SIZE: usize = RANKS as usize * FILES as usize;
pub const OBSERVATION_SIZE: usize = PLANES * PLANE_SIZE;

const WATER_PLANE: usize = 16;
const TRAP_PLANES: usize = 17;
const DEN_PLANES: usize = 19;
const SIDE_PLANE: usize = 21;
const NO_CAPTURE_PLANE: usize = 22;
const REPETITION_PLANE: usize = 23;
const LEGAL_PLANES: usize = 24;
const DRAW_PLANES: usize = 28;

/// The action of a move.
pub fn action_of(m: Move) -> usize {
    action_in(m, false)
}

/// The direction of a move: 0 north, 1 east, 2 south, 3 west. Squares are numbered
/// file + 7 × rank, so a move along a rank changes the number by less than 7 (a
/// river jump by 3) and one along a file by 7 or more: no division needed.
fn direction(m: Move) -> usize {
    let step = m.to().index() as isize - m.from().index() as isize;
    match step {
        7.. => 0,
        1..=6 => 1,
        ..=-7 => 2,
        _ => 3,
    }
}

/// The action of a move, seen from the other side when `flip`.
pub fn action_in(m: Move, flip: bool) -> usize {
    let (square, direction) = seen(m, flip);
    square * DIRECTIONS + direction
}

/// A move's from-square and direction, seen from the other side when `flip`.
fn seen(m: Move, flip: bool) -> (usize, usize) {
    let (from, direction) = (m.from().index(), direction(m));
    if flip {
        (NUM_SQUARES - 1 - from, (direction + 2) % DIRECTIONS)
    } else {
        (from, direction)
    }
}

/// The legal move an action stands for (seen from the other side when `flip`), if any.
pub fn move_of(action: usize, legal: &[Move], flip: bool) -> Option<Move> {
    legal
        .iter()
        .copied()
        .find(|&m| action_in(m, flip) == action)
}

/// Sets `mask[action]` for every legal move (the slice is cleared first).
pub fn write_mask<T: Copy>(legal: &[Move], mask: &mut [T], off: T, on: T, flip: bool) {
    mask.fill(off);
    for &m in legal {
        mask[action_in(m, flip)] = on;
    }
}

/// Where an observation is written: numbers, or memory not yet written (the
/// vectorised environment writes each game's observation straight into the array it
/// returns, once).
pub trait Planes {
    fn put(&mut self, index: usize, value: f32);
    fn put_all(&mut self, range: std::ops::Range<usize>, value: f32);
}

impl Planes for [f32] {
    #[inline]
    fn put(&mut self, index: usize, value: f32) {
        self[index] = value;
    }

    #[inline]
    fn put_all(&mut self, range: std::ops::Range<usize>, value: f32) {
        self[range].fill(value);
    }
}

impl Planes for [MaybeUninit<f32>] {
    #[inline]
    fn put(&mut self, index: usize, value: f32) {
        self[index] = MaybeUninit::new(value);
    }

    #[inline]
    fn put_all(&mut self, range: std::ops::Range<usize>, value: f32) {
        let part = &mut self[range];
        if value.to_bits() == 0 {
            // As memset (which stores without reading the lines first: the array
            // the vectorised environment fills is not in the cache).
            // SAFETY: the pointer and length are the slice's own, and every bit
            // pattern, zero too, is a valid `MaybeUninit<f32>`.
            unsafe { std::ptr::write_bytes(part.as_mut_ptr(), 0, part.len()) }
        } else {
            part.fill(MaybeUninit::new(value));
        }
    }
}

/// Writes the observation of `game` into `out` (`OBSERVATION_SIZE` values, every one
/// of them), seen from Blue's side when `flip`; `legal` is what the game's legal
/// moves are shown as (none once it is over).
pub fn write_observation<O: Planes + ?Sized>(game: &Game, legal: &[Move], out: &mut O, flip: bool) {
    // Each value is written once but for the few ones of the placement, the fixed
    // squares and the moves: zeros, then the fills of planes 21–23, then zeros.
    out.put_all(0..SIDE_PLANE * PLANE_SIZE, 0.0);
    let pos = game.position();
    let seen_square = |sq: Square| {
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
                out.put(plane * PLANE_SIZE + seen_square(sq), 1.0);
            }
        }
    }
    let mut fill = |plane: usize, squares: Bitboard| {
        for sq in squares {
            out.put(plane * PLANE_SIZE + seen_square(sq), 1.0);
        }
    };
    fill(WATER_PLANE, WATER);
    for color in Color::BOTH {
        fill(TRAP_PLANES + side(color), TRAPS[color.index()]);
        fill(DEN_PLANES + side(color), DEN_BB[color.index()]);
    }
    let red_to_move = if pos.side_to_move() == Color::Red {
        1.0
    } else {
        0.0
    };
    out.put_all(plane(SIDE_PLANE), red_to_move);
    let draw = game.rules().draw;
    let limit = match draw.no_capture_plies {
        0 => 100,
        n => n,
    };
    let count = (f32::from(pos.halfmove_clock()) / f32::from(limit)).min(1.0);
    out.put_all(plane(NO_CAPTURE_PLANE), count);
    let occurred = match draw.repetitions {
        0 => 0.0,
        needed => (game.repetition_count() as f32 / f32::from(needed)).min(1.0),
    };
    out.put_all(plane(REPETITION_PLANE), occurred);
    out.put_all(LEGAL_PLANES * PLANE_SIZE..OBSERVATION_SIZE, 0.0);
    let mut mark = |first_plane: usize, m: Move| {
        let (square, direction) = seen(m, flip);
        out.put((first_plane + direction) * PLANE_SIZE + square, 1.0);
    };
    for &m in legal {
        mark(LEGAL_PLANES, m);
    }
    for_each_draw(game, legal, |m| mark(DRAW_PLANES, m));
}

/// Calls `draws` with each of the `legal` moves of `game` that ends it in a draw at
/// once (the position's third occurrence, the no-capture limit reached, and no win
/// before them in the order of the rules).
fn for_each_draw(game: &Game, legal: &[Move], mut draws: impl FnMut(Move)) {
    let pos = game.position();
    let rules = game.rules().draw;
    let clock = rules.no_capture_plies > 0 && pos.halfmove_clock() + 1 >= rules.no_capture_plies;
    let repeated = repeated_keys(game);
    if !clock && repeated.is_empty() {
        return;
    }
    for &m in legal {
        // A capture cannot draw: it resets the count, and no earlier position had
        // fewer animals. A den entry wins.
        if pos.is_capture(m) || pos.is_den_entry(m) {
            continue;
        }
        let mut after = *pos;
        after.play(m);
        if !clock && !repeated.contains(&after.key()) {
            continue;
        }
        // Rare (a draw is near): the rules themselves decide, in their order.
        let mut next = game.clone();
        next.play_legal(m);
        if matches!(next.result(), GameResult::Draw(_)) {
            draws(m);
        }
    }
}

/// The keys of the positions the next move could repeat for the last time allowed:
/// those with the opponent to move that occurred (the repetition count − 1) times
/// since the last capture. Usually none, and then found without sorting.
fn repeated_keys(game: &Game) -> Vec<u64> {
    let needed = game.rules().draw.repetitions as usize;
    if needed < 2 {
        return Vec::new();
    }
    let keys = game.keys();
    let len = keys.len();
    // After the move the position has plies-since-capture + 1 plies behind it within
    // which it may have occurred, with the opponent to move: two plies apart, from
    // one ply ago back.
    let window = (game.position().halfmove_clock() as usize + 1).min(len);
    let earlier = keys[len - window..len - 1].iter().rev().copied().step_by(2);
    if needed == 2 {
        // The second occurrence draws: any position seen before.
        return earlier.collect();
    }
    // Twice or more before: a key that repeats among them. Most histories have none:
    // a set of 1024 bits of the keys finds the few that may, and those alone are
    // counted.
    let mut seen = [0u64; 16];
    let mut found = Vec::new();
    for (k, key) in earlier.clone().enumerate() {
        let bit = (key >> 54) as usize;
        if seen[bit / 64] >> (bit % 64) & 1 == 1 && !found.contains(&key) {
            let before = earlier
                .clone()
                .take(k)
                .filter(|&other| other == key)
                .count();
            if before + 1 >= needed - 1 {
                found.push(key);
            }
        }
        seen[bit / 64] |= 1 << (bit % 64);
    }
    found
}

/// The values of one plane.
fn plane(plane: usize) -> std::ops::Range<usize> {
    plane * PLANE_SIZE..(plane + 1) * PLANE_SIZE
}

/// The legal moves a board shows: none once the game is over (whatever ended it),
/// else every move the rules allow now.
pub fn shown_moves(game: &Game) -> MoveList {
    let legal = game.legal_moves();
    match game.result_with(&legal) {
        GameResult::Ongoing => legal,
        _ => MoveList::new(),
    }
}

/// The square of a number, or why it is not one.
pub fn square_of_index(index: i64) -> Result<Square, String> {
    u8::try_from(index)
        .ok()
        .and_then(Square::from_index)
        .ok_or_else(|| format!("square {index} is off the board (0 = a1 to 62 = g9)"))
}
