//! The position: where every animal stands, who is to move, and the counters.
//!
//! Copy-make: `Position` is a small `Copy` value (about 110 bytes), and `play` changes
//! it in place; a caller that needs the old position keeps a copy. There is no check in
//! Jungle, so every generated move can be played without a legality filter.

use super::bitboard::Bitboard;
use super::geometry::{enemy_den, DEN_BB};
use super::moves::Move;
use super::piece::{Animal, Color, Piece};
use super::square::Square;
use super::zobrist;

/// Slot index of a captured animal: square 63 does not exist, its bit is outside the
/// board and every table has an empty entry for it, so captured animals drop out of
/// bitboard arithmetic without branches.
pub(crate) const CAPTURED: u8 = 63;
/// Mailbox value of an empty square.
pub(crate) const EMPTY: u8 = 16;

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Square of each animal, `[color][animal]`, or `CAPTURED`.
    pub(crate) squares: [[u8; 8]; 2],
    /// Squares occupied by each side.
    pub(crate) occupied: [Bitboard; 2],
    /// Piece index (`color * 8 + animal`) on each square, or `EMPTY`; entry 63 is `EMPTY`.
    pub(crate) mailbox: [u8; 64],
    pub(crate) key: u64,
    pub(crate) side: Color,
    /// Plies since the last capture.
    pub(crate) halfmove: u16,
    /// Starts at 1, grows after each Blue move.
    pub(crate) fullmove: u32,
}

/// Why a game was decided on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WinReason {
    /// An animal entered the enemy den.
    Den,
    /// The loser has no animals left.
    NoAnimals,
    /// The loser is to move and has no legal move.
    NoMoves,
}

impl WinReason {
    pub fn describe(self) -> &'static str {
        match self {
            WinReason::Den => "den entered",
            WinReason::NoAnimals => "no animals left",
            WinReason::NoMoves => "no legal move",
        }
    }
}

impl Position {
    /// A board with no animals, Red to move (used by the position-string parser).
    pub(crate) fn empty() -> Position {
        Position {
            squares: [[CAPTURED; 8]; 2],
            occupied: [Bitboard::EMPTY; 2],
            mailbox: [EMPTY; 64],
            key: 0,
            side: Color::Red,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The start position.
    pub fn startpos() -> Position {
        Position::from_fen(super::fen::START_FEN).unwrap_or_else(|_| unreachable!())
    }

    /// Puts a piece on an empty square (parser and tests only).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert_eq!(self.mailbox[sq.index()], EMPTY);
        self.squares[piece.color.index()][piece.animal.index()] = sq.index() as u8;
        self.occupied[piece.color.index()] |= Bitboard::from_square(sq);
        self.mailbox[sq.index()] = piece.index() as u8;
        self.key ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key of placement and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    #[inline]
    pub fn occupied(&self, c: Color) -> Bitboard {
        self.occupied[c.index()]
    }

    #[inline]
    pub fn all_occupied(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// Where this animal stands, or `None` once captured.
    #[inline]
    pub fn square_of(&self, c: Color, a: Animal) -> Option<Square> {
        Square::from_index(self.squares[c.index()][a.index()])
    }

    /// The animal's square as a one-bit (or empty) set.
    #[inline]
    pub fn bb_of(&self, c: Color, a: Animal) -> Bitboard {
        Bitboard((1u64 << self.squares[c.index()][a.index()]) & Bitboard::ALL.0)
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let p = self.mailbox[sq.index()];
        if p == EMPTY {
            None
        } else {
            Some(Piece::new(
                Color::from_index(p as usize >> 3),
                Animal::from_index(p as usize),
            ))
        }
    }

    /// Number of animals a side still has.
    #[inline]
    pub fn animal_count(&self, c: Color) -> u32 {
        self.occupied[c.index()].count()
    }

    /// True when the move lands on an enemy animal.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.mailbox[m.to().index()] != EMPTY
    }

    /// The animal a move captures, if any.
    #[inline]
    pub fn captured_by(&self, m: Move) -> Option<Animal> {
        self.piece_at(m.to()).map(|p| p.animal)
    }

    /// The animal that makes the move (the move must start on an animal of the mover).
    #[inline]
    pub fn mover(&self, m: Move) -> Animal {
        Animal::from_index(self.mailbox[m.from().index()] as usize)
    }

    /// True when the move enters the enemy den (and so wins at once).
    #[inline]
    pub fn is_den_entry(&self, m: Move) -> bool {
        enemy_den(self.side).contains(m.to())
    }

    /// Plays a move generated for this position.
    #[inline]
    pub fn play(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let them = us.other();
        let moving = self.mailbox[from.index()];
        let captured = self.mailbox[to.index()];
        debug_assert!(moving != EMPTY && moving as usize >> 3 == us.index());

        if captured != EMPTY {
            let victim = Animal::from_index(captured as usize);
            self.occupied[them.index()] ^= Bitboard::from_square(to);
            self.squares[them.index()][victim.index()] = CAPTURED;
            self.key ^= zobrist::piece_key(Piece::new(them, victim), to);
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }

        let piece = Piece::new(us, Animal::from_index(moving as usize));
        self.occupied[us.index()] ^= Bitboard::from_square(from) | Bitboard::from_square(to);
        self.squares[us.index()][piece.animal.index()] = to.index() as u8;
        self.mailbox[from.index()] = EMPTY;
        self.mailbox[to.index()] = moving;
        self.key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);

        self.pass_turn();
    }

    /// Hands the move to the other side without moving (null move, for the search).
    #[inline]
    pub fn play_null(&mut self) {
        self.halfmove = self.halfmove.saturating_add(1);
        self.pass_turn();
    }

    #[inline]
    fn pass_turn(&mut self) {
        if self.side == Color::Blue {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.other();
        self.key ^= zobrist::side_key();
    }

    /// The key computed from scratch (to check the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Blue {
            zobrist::side_key()
        } else {
            0
        };
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                key ^= zobrist::piece_key(p, sq);
            }
        }
        key
    }

    /// The winner if the game is already decided by the board alone: an animal in
    /// the enemy den, or a side with no animals left. (The third way to lose, having
    /// no legal move, needs move generation: see `movegen::outcome`.)
    #[inline]
    pub fn decided_on_board(&self) -> Option<(Color, WinReason)> {
        for c in Color::BOTH {
            if (self.occupied[c.index()] & DEN_BB[c.other().index()]).any() {
                return Some((c, WinReason::Den));
            }
        }
        for c in Color::BOTH {
            if self.occupied[c.index()].is_empty() {
                return Some((c.other(), WinReason::NoAnimals));
            }
        }
        None
    }

    /// True when the board alone ends the game (den entered or a side wiped out).
    #[inline]
    pub fn is_over_on_board(&self) -> bool {
        let in_den = (self.occupied[0] & DEN_BB[1]) | (self.occupied[1] & DEN_BB[0]);
        in_den.any() || self.occupied[0].is_empty() || self.occupied[1].is_empty()
    }

    /// The position as text: the board (rank 9 at the top), then the position string.
    pub fn pretty(&self) -> String {
        use super::geometry::{TRAPS, WATER};
        let mut s = String::new();
        for rank in (0..9u8).rev() {
            s.push_str(&format!(" {} ", rank + 1));
            for file in 0..7u8 {
                let Some(sq) = Square::new(file, rank) else {
                    continue;
                };
                let c = match self.piece_at(sq) {
                    Some(p) => p.letter(),
                    None if WATER.contains(sq) => '~',
                    None if DEN_BB[0].contains(sq) || DEN_BB[1].contains(sq) => '*',
                    None if TRAPS[0].contains(sq) || TRAPS[1].contains(sq) => '#',
                    None => '.',
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("    a b c d e f g\n");
        s
    }
}

impl Color {
    #[inline]
    pub(crate) const fn from_index(i: usize) -> Color {
        if i & 1 == 0 {
            Color::Red
        } else {
            Color::Blue
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_fen())
    }
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::{count, count_after_with, legal_moves};
    use crate::board::Standard;
    use crate::rng::Rng;

    /// Mailbox, square list and occupancy describe the same placement.
    fn assert_consistent(p: &Position) {
        for c in Color::BOTH {
            let mut from_squares = Bitboard::EMPTY;
            for a in Animal::ALL {
                if let Some(s) = p.square_of(c, a) {
                    assert_eq!(p.piece_at(s), Some(Piece::new(c, a)), "{p:?}");
                    from_squares |= Bitboard::from_square(s);
                }
            }
            assert_eq!(from_squares, p.occupied(c), "{p:?}");
        }
        let from_mailbox = Square::all().filter(|&s| p.piece_at(s).is_some()).count();
        assert_eq!(from_mailbox as u32, p.all_occupied().count());
    }

    #[test]
    fn incremental_key_matches_scratch_key_along_random_games() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut plies = 0;
        for _game in 0..300 {
            let mut p = Position::startpos();
            for _ in 0..300 {
                let moves = legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let expected_replies = count_after_with::<Standard>(&p, m);
                p.play(m);
                plies += 1;
                assert_eq!(p.key(), p.compute_key(), "after {m} in {p:?}");
                assert_eq!(count(&p), expected_replies, "count_after {m}");
                assert_consistent(&p);
                let round_trip = Position::from_fen(&p.to_fen()).expect("own string parses");
                assert_eq!(round_trip, p);
            }
        }
        assert!(plies > 10_000);
    }

    #[test]
    fn null_move_flips_side_and_key() {
        let mut p = Position::startpos();
        let before = p.key();
        p.play_null();
        assert_eq!(p.side_to_move(), Color::Blue);
        assert_ne!(p.key(), before);
        assert_eq!(p.key(), p.compute_key());
    }

    #[test]
    fn captures_reset_the_clock_and_remove_the_victim() {
        // Red dog a4 takes the blue cat a5.
        let mut p = Position::from_fen("l6/7/7/7/c6/D6/7/7/6L r 7 9").unwrap();
        let m = p.parse_move("a4a5").unwrap();
        assert!(p.is_capture(m));
        assert_eq!(p.captured_by(m), Some(Animal::Cat));
        p.play(m);
        assert_eq!(p.halfmove_clock(), 0);
        assert_eq!(p.square_of(Color::Blue, Animal::Cat), None);
        assert_eq!(p.fullmove_number(), 9);
        assert_consistent(&p);
    }
}
