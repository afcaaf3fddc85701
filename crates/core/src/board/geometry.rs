//! The fixed geometry of the board: rivers, dens, traps, neighbours and river jumps,
//! all computed at compile time.

use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::{sq, Square, FILES, NUM_SQUARES, RANKS};

/// The two rivers: `b4 c4 b5 c5 b6 c6` and `e4 f4 e5 f5 e6 f6`.
pub const WATER: Bitboard = Bitboard::from_squares(&[
    sq::B4,
    sq::C4,
    sq::B5,
    sq::C5,
    sq::B6,
    sq::C6,
    sq::E4,
    sq::F4,
    sq::E5,
    sq::F5,
    sq::E6,
    sq::F6,
]);

/// Every square that is not water.
pub const LAND: Bitboard = Bitboard(Bitboard::ALL.0 & !WATER.0);

/// Dens: Red `d1`, Blue `d9`.
pub const DEN: [Square; 2] = [sq::D1, sq::D9];
pub const DEN_BB: [Bitboard; 2] = [
    Bitboard::from_squares(&[sq::D1]),
    Bitboard::from_squares(&[sq::D9]),
];
pub const BOTH_DENS: Bitboard = Bitboard(DEN_BB[0].0 | DEN_BB[1].0);

/// Each side's own traps: Red `c1 e1 d2`, Blue `c9 e9 d8`.
pub const TRAPS: [Bitboard; 2] = [
    Bitboard::from_squares(&[sq::C1, sq::E1, sq::D2]),
    Bitboard::from_squares(&[sq::C9, sq::E9, sq::D8]),
];

/// The den a side must never enter (its own) and the den it wins by entering.
#[inline]
pub const fn own_den(c: Color) -> Bitboard {
    DEN_BB[c.index()]
}

#[inline]
pub const fn enemy_den(c: Color) -> Bitboard {
    DEN_BB[c.other().index()]
}

/// Orthogonal neighbours of each square; entry 63 (the "captured" slot) is empty.
pub static NEIGHBOURS: [Bitboard; 64] = {
    let mut t = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < NUM_SQUARES {
        t[i] = Bitboard(1u64 << i).neighbours();
        i += 1;
    }
    t
};

/// One-square sets by index; entry 63 (the "captured" slot) is empty.
pub static SQUARE_BB: [Bitboard; 64] = {
    let mut t = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < NUM_SQUARES {
        t[i] = Bitboard(1u64 << i);
        i += 1;
    }
    t
};

/// The river jumps from one square: at most two (from `d4`–`d6`, one across each
/// river). Slot `i` lands on `landing[i]` (one square, or empty when unused) and flies
/// over the water squares `over[i]`; a rat on any of them blocks the jump.
#[derive(Clone, Copy)]
pub struct JumpSet {
    pub landing: [Bitboard; 2],
    pub over: [Bitboard; 2],
}

impl JumpSet {
    pub const fn count(&self) -> usize {
        self.landing[0].any() as usize + self.landing[1].any() as usize
    }

    /// All landing squares together.
    pub const fn targets(&self) -> Bitboard {
        self.landing[0].union(self.landing[1])
    }
}

/// River jumps from each square; entry 63 (the "captured" slot) has none.
pub static JUMPS: [JumpSet; 64] = {
    let mut t = [JumpSet {
        landing: [Bitboard::EMPTY; 2],
        over: [Bitboard::EMPTY; 2],
    }; 64];
    // (file step, rank step) for north, south, east, west.
    let dirs: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut i = 0;
    while i < NUM_SQUARES {
        let from = Square::from_index_unchecked(i as u8);
        if !WATER.contains(from) {
            let mut n = 0;
            let mut d = 0;
            while d < 4 {
                let (df, dr) = dirs[d];
                let mut f = from.file() as i8 + df;
                let mut r = from.rank() as i8 + dr;
                let mut over = 0u64;
                while f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
                    let s = r as u64 * FILES as u64 + f as u64;
                    if WATER.0 >> s & 1 == 0 {
                        break;
                    }
                    over |= 1u64 << s;
                    f += df;
                    r += dr;
                }
                if over != 0 && f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
                    let to = (r as u8) * FILES + f as u8;
                    t[i].landing[n] = Bitboard(1u64 << to);
                    t[i].over[n] = Bitboard(over);
                    n += 1;
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
};

/// Squares from which a lion or tiger can jump.
pub const fn jump_origins() -> Bitboard {
    let mut b = 0u64;
    let mut i = 0;
    while i < NUM_SQUARES {
        if JUMPS[i].count() > 0 {
            b |= 1u64 << i;
        }
        i += 1;
    }
    Bitboard(b)
}

/// Manhattan distance between two squares.
#[inline]
pub const fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_features_match_the_rules() {
        assert_eq!(WATER.count(), 12);
        assert_eq!(LAND.count(), 51);
        assert!(
            TRAPS[0].contains(sq::C1) && TRAPS[0].contains(sq::E1) && TRAPS[0].contains(sq::D2)
        );
        assert!(
            TRAPS[1].contains(sq::C9) && TRAPS[1].contains(sq::E9) && TRAPS[1].contains(sq::D8)
        );
        assert_eq!(DEN, [sq::D1, sq::D9]);
    }

    #[test]
    fn jumps_cross_two_sideways_or_three_lengthwise() {
        let d4 = &JUMPS[sq::D4.index()];
        assert_eq!(d4.count(), 2);
        let targets: Vec<Square> = d4.targets().collect();
        assert_eq!(targets, vec![sq::A4, sq::G4]);
        assert_eq!(d4.over[0].count(), 2);
        assert_eq!(d4.over[1].count(), 2);
        let b3 = &JUMPS[sq::B3.index()];
        assert_eq!(b3.count(), 1);
        assert_eq!(b3.landing[0], Bitboard::from_square(sq::B7));
        assert_eq!(
            b3.over[0],
            Bitboard::from_squares(&[sq::B4, sq::B5, sq::B6])
        );
        assert_eq!(
            JUMPS[sq::A5.index()].targets(),
            Bitboard::from_square(sq::D5)
        );
        assert_eq!(
            JUMPS[sq::F7.index()].targets(),
            Bitboard::from_square(sq::F3)
        );
        assert_eq!(JUMPS[sq::A3.index()].count(), 0);
        assert_eq!(JUMPS[63].count(), 0);
        // 3 squares on each of files a, d, g beside the rivers, plus 4 above and 4 below.
        assert_eq!(jump_origins().count(), 9 + 8);
    }
}
