//! Moves and fixed-capacity move lists.

use super::square::Square;
use std::fmt;
use std::num::NonZeroU16;

/// A move: from-square in bits 0–5, to-square in bits 6–11. A real move never has
/// `from == to`, so the value is never zero and `Option<Move>` is two bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);
const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// The caller guarantees `from != to`.
    #[inline]
    pub fn new(from: Square, to: Square) -> Move {
        debug_assert!(from != to);
        let raw = from.index() as u16 | (to.index() as u16) << 6;
        // from != to, so at least one of the two fields is non-zero.
        Move(NonZeroU16::new(raw).unwrap_or(NonZeroU16::MIN))
    }

    #[inline]
    pub fn from(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 63) as u8)
    }

    #[inline]
    pub fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() >> 6 & 63) as u8)
    }

    /// A lion's or tiger's jump across a river: every other move goes one square.
    #[inline]
    pub fn is_jump(self) -> bool {
        super::geometry::distance(self.from(), self.to()) > 1
    }

    /// The packed 16-bit form (for the transposition table).
    #[inline]
    pub fn raw(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from `raw()`; `None` for 0 or a value that is not a move.
    #[inline]
    pub fn from_raw(raw: u16) -> Option<Move> {
        let from = Square::from_index((raw & 63) as u8)?;
        let to = Square::from_index((raw >> 6 & 63) as u8)?;
        if from == to || raw >> 12 != 0 {
            return None;
        }
        Some(Move::new(from, to))
    }
}

/// Why a text is not a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Not two squares in coordinate notation (`g3g4`).
    NotSquares,
    /// The same square twice: a move nowhere.
    SameSquare,
}

impl std::str::FromStr for Move {
    type Err = ParseMoveError;

    /// Two squares in coordinate notation, legal or not (the rules decide that:
    /// `Position::parse_move`).
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let (Some(from), Some(to)) = (text.get(..2), text.get(2..)) else {
            return Err(ParseMoveError::NotSquares);
        };
        match (from.parse::<Square>(), to.parse::<Square>()) {
            (Ok(from), Ok(to)) if text.len() == 4 => {
                if from == to {
                    Err(ParseMoveError::SameSquare)
                } else {
                    Ok(Move::new(from, to))
                }
            }
            _ => Err(ParseMoveError::NotSquares),
        }
    }
}

impl fmt::Display for Move {
    /// Coordinate notation: from-square then to-square, e.g. `g3g4`, `d4a4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most moves a side can have: eight animals, at most four steps each, plus up to
/// two river jumps each for lion and tiger (a square with two jumps has two water
/// neighbours, so the true maximum is lower).
pub const MAX_MOVES: usize = 40;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move(NonZeroU16::MIN); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(&m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::square::sq;

    #[test]
    fn packs_and_unpacks() {
        let m = Move::new(sq::A1, sq::B1);
        assert_eq!(m.from(), sq::A1);
        assert_eq!(m.to(), sq::B1);
        assert_eq!(m.to_string(), "a1b1");
        let j = Move::new(sq::D4, sq::G4);
        assert_eq!(Move::from_raw(j.raw()), Some(j));
        assert_eq!(Move::from_raw(0), None);
        assert_eq!(Move::from_raw(63 | 63 << 6), None);
        assert_eq!(Move::new(sq::B1, sq::A1).to_string(), "b1a1");
    }
}
