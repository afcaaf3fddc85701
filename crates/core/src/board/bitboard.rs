//! A set of squares as the low 63 bits of a `u64`.

use super::square::{Square, FILES, NUM_SQUARES};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of board squares; bit `i` is the square with index `i`. Bit 63 is always clear.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

const ALL_BITS: u64 = (1u64 << NUM_SQUARES) - 1;
const FILE_A_BITS: u64 = {
    let mut b = 0u64;
    let mut r = 0;
    while r < 9 {
        b |= 1u64 << (r * FILES as u32);
        r += 1;
    }
    b
};
const FILE_G_BITS: u64 = FILE_A_BITS << (FILES - 1);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(ALL_BITS);
    pub const FILE_A: Bitboard = Bitboard(FILE_A_BITS);
    pub const FILE_G: Bitboard = Bitboard(FILE_G_BITS);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// The set of the named squares (for building constant masks).
    pub const fn from_squares(squares: &[Square]) -> Bitboard {
        let mut b = 0u64;
        let mut i = 0;
        while i < squares.len() {
            b |= 1u64 << squares[i].index();
            i += 1;
        }
        Bitboard(b)
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    #[inline]
    pub const fn minus(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Lowest square of a non-empty set.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Shift one rank up (towards rank 9); squares leaving the board vanish.
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard((self.0 << FILES) & ALL_BITS)
    }

    /// Shift one rank down (towards rank 1).
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> FILES)
    }

    /// Shift one file right (towards g); squares on file g vanish.
    #[inline]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !FILE_G_BITS) << 1)
    }

    /// Shift one file left (towards a); squares on file a vanish.
    #[inline]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !FILE_A_BITS) >> 1)
    }

    /// The orthogonal neighbours of every square in the set.
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(self.north().0 | self.south().0 | self.east().0 | self.west().0)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 63 board squares.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}
impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}
impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}
impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a board, rank 9 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..9u8).rev() {
            for file in 0..FILES {
                let on = Square::new(file, rank).is_some_and(|s| self.contains(s));
                write!(f, "{}", if on { 'X' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::square::sq;

    #[test]
    fn shifts_stay_on_the_board() {
        assert_eq!(Bitboard::from_square(sq::G4).east(), Bitboard::EMPTY);
        assert_eq!(Bitboard::from_square(sq::A4).west(), Bitboard::EMPTY);
        assert_eq!(Bitboard::from_square(sq::D9).north(), Bitboard::EMPTY);
        assert_eq!(Bitboard::from_square(sq::D1).south(), Bitboard::EMPTY);
        assert_eq!(
            Bitboard::from_square(sq::G4).west(),
            Bitboard::from_square(sq::F4)
        );
        assert_eq!(
            Bitboard::from_square(sq::A4).east(),
            Bitboard::from_square(sq::B4)
        );
        assert_eq!(
            Bitboard::from_square(sq::C8).north(),
            Bitboard::from_square(sq::C9)
        );
        assert_eq!(Bitboard::ALL.count(), 63);
        assert_eq!((!Bitboard::EMPTY).count(), 63);
    }

    #[test]
    fn neighbours_of_a_corner_and_a_centre() {
        assert_eq!(Bitboard::from_square(sq::A1).neighbours().count(), 2);
        assert_eq!(Bitboard::from_square(sq::D5).neighbours().count(), 4);
        assert_eq!(Bitboard::from_square(sq::G5).neighbours().count(), 3);
    }

    #[test]
    fn iterates_in_index_order() {
        let b = Bitboard::from_squares(&[sq::G9, sq::A1, sq::D5]);
        let v: Vec<Square> = b.collect();
        assert_eq!(v, vec![sq::A1, sq::D5, sq::G9]);
    }
}
