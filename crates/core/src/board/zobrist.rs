//! Zobrist keys, generated at compile time from a fixed seed so that hashes (and so
//! the bench signature) are identical on every machine.

use super::piece::Piece;
use super::square::Square;
use crate::rng::Rng;

struct Keys {
    piece_square: [[u64; 64]; 16],
    side: u64,
}

static KEYS: Keys = {
    let mut rng = Rng::new(0x4A55_4E47_4C45_2021); // "JUNGLE !"
    let mut piece_square = [[0u64; 64]; 16];
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 63 {
            piece_square[p][s] = rng.next_u64();
            s += 1;
        }
        p += 1;
    }
    let side = rng.next_u64();
    Keys { piece_square, side }
};

/// Key of a piece standing on a square.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.piece_square[piece.index()][sq.index()]
}

/// Key toggled when Blue is to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS
            .piece_square
            .iter()
            .flat_map(|row| row[..63].iter().copied())
            .collect();
        all.push(KEYS.side);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
