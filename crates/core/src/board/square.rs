//! Squares of the 7×9 Jungle board.
//!
//! Index = `(rank - 1) * 7 + file`, so `a1 = 0`, `g1 = 6`, `a2 = 7`, `g9 = 62`.
//! The board fits in the low 63 bits of a `u64`; bit 63 is never a square.

use std::fmt;
use std::str::FromStr;

/// Number of files (a–g).
pub const FILES: u8 = 7;
/// Number of ranks (1–9).
pub const RANKS: u8 = 9;
/// Number of squares on the board.
pub const NUM_SQUARES: usize = 63;

/// One square of the board, always in `0..63`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Builds a square from a 0-based file (0 = a) and rank (0 = rank 1).
    /// Returns `None` off the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square with this index, or `None` if the index is 63 or more.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < NUM_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `index < 63`.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < NUM_SQUARES);
        Square(index)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// 0-based rank, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The same square seen from the other side (rank mirrored).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// All 63 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for text that does not name a square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a square (files a-g, ranks 1-9)",
            crate::text::quote(&self.0)
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let bytes = s.as_bytes();
        let err = || ParseSquareError(s.to_string());
        if bytes.len() != 2 {
            return Err(err());
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::new(file, rank).ok_or_else(err)
    }
}

/// Named squares used by the rules and the tests.
#[allow(dead_code)]
pub mod sq {
    use super::Square;
    macro_rules! squares {
        ($($name:ident = $idx:expr),* $(,)?) => { $(pub const $name: Square = Square($idx);)* };
    }
    squares! {
        A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6,
        A2 = 7, B2 = 8, C2 = 9, D2 = 10, E2 = 11, F2 = 12, G2 = 13,
        A3 = 14, B3 = 15, C3 = 16, D3 = 17, E3 = 18, F3 = 19, G3 = 20,
        A4 = 21, B4 = 22, C4 = 23, D4 = 24, E4 = 25, F4 = 26, G4 = 27,
        A5 = 28, B5 = 29, C5 = 30, D5 = 31, E5 = 32, F5 = 33, G5 = 34,
        A6 = 35, B6 = 36, C6 = 37, D6 = 38, E6 = 39, F6 = 40, G6 = 41,
        A7 = 42, B7 = 43, C7 = 44, D7 = 45, E7 = 46, F7 = 47, G7 = 48,
        A8 = 49, B8 = 50, C8 = 51, D8 = 52, E8 = 53, F8 = 54, G8 = 55,
        A9 = 56, B9 = 57, C9 = 58, D9 = 59, E9 = 60, F9 = 61, G9 = 62,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_layout_matches_the_contract() {
        assert_eq!(sq::A1.index(), 0);
        assert_eq!(sq::G1.index(), 6);
        assert_eq!(sq::G9.index(), 62);
        assert_eq!("d4".parse::<Square>().unwrap(), sq::D4);
        assert_eq!(sq::C7.to_string(), "c7");
    }

    #[test]
    fn parse_rejects_off_board_text() {
        for bad in ["", "a", "h1", "a0", "a10", "A1", "1a", "g9x", "\u{e9}1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn display_round_trips_all_squares() {
        for s in Square::all() {
            assert_eq!(s.to_string().parse::<Square>().unwrap(), s);
            assert_eq!(s.flip_rank().flip_rank(), s);
        }
    }
}
