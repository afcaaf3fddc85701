//! The index: a perfect numbering of the positions of one material signature.
//!
//! A position is the square of each animal (a slot per animal, in a fixed order) and
//! the side to move. No animal stands in a den (in its own it never may; one in the
//! enemy den has already won), and only swimmers (the rats, and the dogs when dogs
//! swim) stand in water. The animals that cannot swim come first in slot order, the
//! swimmers last, so the squares each slot may take always include every square of the
//! slots before it: slot `i` then has exactly `domain_i - i` free squares whatever the
//! others do, and the index is a mixed-radix number over those counts, with no gaps
//! and no two animals on one square.
//!
//! Symmetries: the board is its own mirror image left to right, so the first slot is
//! kept on files a-d (positions with it on the d-file are stored in both mirror
//! forms: 28 of its 49 land squares, not a perfect half). Red and Blue are each other
//! seen from the other end of the board, so one table serves a signature and its
//! colour twin; for a signature equal to its twin (`L v L`) only Red-to-move is stored.

use super::material::{Material, MAX_ANIMALS};
use crate::board::geometry::{BOTH_DENS, LAND};
use crate::board::position::CAPTURED;
use crate::board::{Animal, Bitboard, Color, Piece, Position};

/// Squares a non-swimmer may stand on in a table: land outside the dens.
pub const LAND_DOMAIN: u64 = LAND.0 & !BOTH_DENS.0;
/// Squares a swimmer may stand on: anywhere outside the dens.
pub const SWIM_DOMAIN: u64 = Bitboard::ALL.0 & !BOTH_DENS.0;
/// Files a-d.
pub const LEFT_HALF: u64 = {
    let mut b = 0u64;
    let mut sq = 0;
    while sq < 63 {
        if sq % 7 <= 3 {
            b |= 1 << sq;
        }
        sq += 1;
    }
    b
};

/// The square seen from the other side (rank mirrored): Red's view of Blue's position.
pub static FLIP_RANK: [u8; 64] = {
    let mut t = [CAPTURED; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = ((8 - sq / 7) * 7 + sq % 7) as u8;
        sq += 1;
    }
    t
};

/// The square mirrored left to right (file a <-> g).
pub static MIRROR: [u8; 64] = {
    let mut t = [CAPTURED; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = ((sq / 7) * 7 + 6 - sq % 7) as u8;
        sq += 1;
    }
    t
};

/// One position as the index sees it: the square of each slot and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement {
    pub squares: [u8; MAX_ANIMALS],
    pub side: Color,
}

/// The numbering of one signature's positions.
#[derive(Clone, Debug)]
pub struct Indexer {
    /// The canonical signature.
    pub material: Material,
    /// The animal of each slot.
    pub pieces: Vec<Piece>,
    /// Free squares of each slot (`domain - slot number`).
    radix: [u64; MAX_ANIMALS],
    /// Rank of each square within each slot's domain (number of domain squares below
    /// it), and the domain's squares in order.
    rank: [[u8; 64]; MAX_ANIMALS],
    nth: [[u8; 64]; MAX_ANIMALS],
    /// Place value of each slot's digit (the product of the later slots' radices).
    stride: [u64; MAX_ANIMALS],
    /// `2^40 / radix + 1`: division by multiplication, exact below `2^34`.
    magic: [u64; MAX_ANIMALS],
    /// Squares each slot may take (the first slot: files a-d only).
    domain: [u64; MAX_ANIMALS],
    /// Positions with one side to move.
    half: usize,
    /// 2, or 1 for a signature equal to its colour twin.
    sides: usize,
    /// Slot of the same animal of the other colour (symmetric signatures only).
    twin: [usize; MAX_ANIMALS],
    /// Slot of each `[color][animal]`, or `usize::MAX`.
    slot: [[usize; 8]; 2],
}

impl Indexer {
    /// The index of the canonical form of `material` (`dog_swims`: dogs are swimmers).
    pub fn new(material: Material, dog_swims: bool) -> Indexer {
        let material = material.canonical();
        let swims = |a: Animal| a == Animal::Rat || (dog_swims && a == Animal::Dog);
        let mut pieces = Vec::new();
        for swimmers in [false, true] {
            for c in Color::BOTH {
                // Strongest first, so the first slot is usually a big animal.
                for a in Animal::ALL.iter().rev() {
                    if material.side(c) & (1 << a.index()) != 0 && swims(*a) == swimmers {
                        pieces.push(Piece::new(c, *a));
                    }
                }
            }
        }
        let mut domain = [0u64; MAX_ANIMALS];
        let mut radix = [1u64; MAX_ANIMALS];
        let mut slot = [[usize::MAX; 8]; 2];
        for (i, p) in pieces.iter().enumerate() {
            let d = if swims(p.animal) {
                SWIM_DOMAIN
            } else {
                LAND_DOMAIN
            };
            domain[i] = if i == 0 { d & LEFT_HALF } else { d };
            radix[i] = domain[i].count_ones() as u64 - i as u64;
            slot[p.color.index()][p.animal.index()] = i;
        }
        let mut twin = [0usize; MAX_ANIMALS];
        for (i, p) in pieces.iter().enumerate() {
            twin[i] = slot[p.color.other().index()][p.animal.index()];
        }
        let half = radix[..pieces.len()].iter().product::<u64>() as usize;
        let mut rank = [[u8::MAX; 64]; MAX_ANIMALS];
        let mut nth = [[CAPTURED; 64]; MAX_ANIMALS];
        for i in 0..pieces.len() {
            let mut k = 0u8;
            for s in 0..63u8 {
                if domain[i] >> s & 1 != 0 {
                    rank[i][s as usize] = k;
                    nth[i][k as usize] = s;
                    k += 1;
                }
            }
        }
        let mut stride = [1u64; MAX_ANIMALS];
        for i in (0..pieces.len().saturating_sub(1)).rev() {
            stride[i] = stride[i + 1] * radix[i + 1];
        }
        let mut magic = [0u64; MAX_ANIMALS];
        for i in 0..MAX_ANIMALS {
            magic[i] = (1u64 << 40) / radix[i] + 1;
        }
        Indexer {
            stride,
            magic,
            domain,
            rank,
            nth,
            material,
            sides: if material.is_symmetric() { 1 } else { 2 },
            pieces,
            radix,
            half,
            twin,
            slot,
        }
    }

    /// Number of positions in the table.
    pub fn len(&self) -> usize {
        self.half * self.sides
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn animals(&self) -> usize {
        self.pieces.len()
    }

    /// Slot of an animal of this signature (`None` if it is not in it).
    pub fn slot_of(&self, c: Color, a: Animal) -> Option<usize> {
        Some(self.slot[c.index()][a.index()]).filter(|&s| s != usize::MAX)
    }

    /// The index of a placement given in this table's slots, in any of the forms that
    /// the symmetries make equal (it is brought to the stored form first).
    #[inline]
    pub fn encode(&self, p: &Placement) -> usize {
        let n = self.pieces.len();
        let mut sq = p.squares;
        let mut side = p.side;
        if self.sides == 1 && side == Color::Blue {
            // Seen from Blue's end with the colours exchanged: the same position with
            // Red to move.
            for i in 0..n {
                sq[i] = FLIP_RANK[p.squares[self.twin[i]] as usize];
            }
            side = Color::Red;
        }
        if sq[0] % 7 > 3 {
            for s in sq[..n].iter_mut() {
                *s = MIRROR[*s as usize];
            }
        }
        self.encode_stored(&sq, side)
    }

    /// `encode` of a placement already in stored form (first slot on files a-d, and
    /// Red to move for a signature equal to its twin).
    #[inline(always)]
    pub fn encode_stored(&self, sq: &[u8; MAX_ANIMALS], side: Color) -> usize {
        // Slot i's digit: its square's rank in its domain, less the earlier slots'
        // squares below it (all of them lie in its domain).
        let mut index = 0u64;
        for i in 0..self.pieces.len() {
            let mut digit = self.rank[i][sq[i] as usize] as u64;
            for &earlier in &sq[..i] {
                digit -= u64::from(earlier < sq[i]);
            }
            debug_assert!(digit < self.radix[i], "slot {i} on {}", sq[i]);
            index = index * self.radix[i] + digit;
        }
        side.index() * self.half + index as usize
    }

    /// The index after a move, from the index of the position before it: the stored
    /// placement `sq` (at `index`) with slot `k` moved to `to` and the other side to
    /// move. Only the digits the move changes are recomputed (slot `k`'s, and the later
    /// slots' that count it below them). `None` when the result is not in stored form
    /// (the first slot crosses to files e-g, or the signature is its own colour twin):
    /// then `encode` does it.
    #[inline(always)]
    pub fn encode_after_move(
        &self,
        index: usize,
        sq: &[u8; MAX_ANIMALS],
        k: usize,
        to: u8,
    ) -> Option<usize> {
        if self.sides == 1 || (k == 0 && to % 7 > 3) {
            return None;
        }
        let from = sq[k];
        let n = self.pieces.len();
        let (red_to_move, rest) = if index < self.half {
            (true, index)
        } else {
            (false, index - self.half)
        };
        let below = |s: u8, t: u8| i64::from(s < t);
        let mut digit =
            i64::from(self.rank[k][to as usize]) - i64::from(self.rank[k][from as usize]);
        for &earlier in &sq[..k] {
            digit -= below(earlier, to) - below(earlier, from);
        }
        let mut delta = digit * self.stride[k] as i64;
        for (&later, &stride) in sq[k + 1..n].iter().zip(&self.stride[k + 1..n]) {
            delta -= (below(to, later) - below(from, later)) * stride as i64;
        }
        let rest = (rest as i64 + delta) as usize;
        Some(if red_to_move { self.half + rest } else { rest })
    }

    /// The placement stored at `index` (`index < len()`).
    pub fn decode(&self, index: usize) -> Placement {
        let n = self.pieces.len();
        let side = if index >= self.half {
            Color::Blue
        } else {
            Color::Red
        };
        let mut rest = (index - side.index() * self.half) as u64;
        let mut digits = [0u64; MAX_ANIMALS];
        for i in (0..n).rev() {
            let q = ((rest as u128 * self.magic[i] as u128) >> 40) as u64;
            digits[i] = rest - q * self.radix[i];
            rest = q;
        }
        let mut squares = [CAPTURED; MAX_ANIMALS];
        // The earlier slots' squares, ascending.
        let mut sorted = [CAPTURED; MAX_ANIMALS];
        for i in 0..n.min(MAX_ANIMALS) {
            // The digit-th free square: skip the earlier squares at or below it (they
            // come in ascending order, so the first one above it ends the count).
            let rank = &self.rank[i];
            let mut k = digits[i] as usize;
            for &e in &sorted[..i] {
                if rank[(e & 63) as usize] as usize > k {
                    break;
                }
                k += 1;
            }
            let s = self.nth[i][k & 63];
            squares[i] = s;
            let mut j = i;
            while j > 0 && sorted[j - 1] > s {
                sorted[j] = sorted[j - 1];
                j -= 1;
            }
            sorted[j] = s;
        }
        Placement { squares, side }
    }

    /// Calls `f` with every stored placement in index order (`f` gets the index),
    /// without dividing: the slots' squares are walked like an odometer.
    pub fn for_each_placement(&self, mut f: impl FnMut(usize, &Placement)) {
        let n = self.pieces.len();
        let sides = [Color::Red, Color::Blue];
        let mut index = 0usize;
        for &side in &sides[..self.sides] {
            let mut p = Placement {
                squares: [CAPTURED; MAX_ANIMALS],
                side,
            };
            self.walk(0, n, 0, &mut p, &mut index, &mut f);
        }
    }

    fn walk(
        &self,
        i: usize,
        n: usize,
        occupied: u64,
        p: &mut Placement,
        index: &mut usize,
        f: &mut impl FnMut(usize, &Placement),
    ) {
        if i == n {
            f(*index, p);
            *index += 1;
            return;
        }
        let mut free = self.domain[i] & !occupied;
        while free != 0 {
            let s = free.trailing_zeros() as u8;
            free &= free - 1;
            p.squares[i] = s;
            self.walk(i + 1, n, occupied | 1 << s, p, index, f);
        }
    }

    /// The placement of a position of this signature or of its colour twin, in this
    /// table's slots (`None` for other material).
    #[inline]
    pub fn placement_of(&self, pos: &Position) -> Option<Placement> {
        let m = Material::of(pos);
        let flip = if m == self.material {
            false
        } else if m.flipped() == self.material {
            true
        } else {
            return None;
        };
        let mut squares = [CAPTURED; MAX_ANIMALS];
        for (i, p) in self.pieces.iter().enumerate() {
            let c = if flip { p.color.other() } else { p.color };
            let s = pos.squares[c.index()][p.animal.index()];
            squares[i] = if flip { FLIP_RANK[s as usize] } else { s };
        }
        let side = if flip {
            pos.side_to_move().other()
        } else {
            pos.side_to_move()
        };
        Some(Placement { squares, side })
    }

    /// The index of a position of this signature or its colour twin. The position
    /// must not be over (no animal in a den).
    #[inline]
    pub fn index_of(&self, pos: &Position) -> Option<usize> {
        let p = self.placement_of(pos)?;
        if p.squares[..self.pieces.len()]
            .iter()
            .any(|&s| (BOTH_DENS.0 >> s) & 1 != 0)
        {
            return None;
        }
        Some(self.encode(&p))
    }

    /// The position of a placement without its hash key (for the builder, which
    /// only generates moves: a key is xor work it does not need).
    #[inline]
    pub(crate) fn position_unkeyed(&self, p: &Placement) -> Position {
        let mut pos = Position::empty();
        for (i, piece) in self.pieces.iter().enumerate() {
            let s = p.squares[i] & 63;
            pos.squares[piece.color.index()][piece.animal.index()] = s;
            pos.occupied[piece.color.index()].0 |= 1u64 << s;
            pos.mailbox[s as usize] = piece.index() as u8;
        }
        pos.side = p.side;
        pos
    }

    /// The position of a placement (counters zero).
    pub fn position(&self, p: &Placement) -> Position {
        let mut pos = Position::empty();
        for (i, piece) in self.pieces.iter().enumerate() {
            pos.put(
                *piece,
                crate::board::Square::from_index_unchecked(p.squares[i]),
            );
        }
        if p.side == Color::Blue {
            pos.play_null();
            pos.halfmove = 0;
            pos.fullmove = 1;
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_have_the_expected_sizes() {
        assert_eq!(LAND_DOMAIN.count_ones(), 49);
        assert_eq!(SWIM_DOMAIN.count_ones(), 61);
        assert_eq!((LAND_DOMAIN & LEFT_HALF).count_ones(), 28);
        for s in 0..63 {
            assert_eq!(FLIP_RANK[FLIP_RANK[s] as usize] as usize, s);
            assert_eq!(MIRROR[MIRROR[s] as usize] as usize, s);
        }
    }

    /// Every index decodes to a valid placement that encodes back to itself, and the
    /// sizes are the products of the free squares.
    #[test]
    fn decode_then_encode_is_the_identity() {
        for (name, dog_swims, expected_half) in [
            ("LvR", false, 28 * 60),
            ("EvE", false, 28 * 48),
            ("TRvW", false, 28 * 48 * 59),
            ("RvR", false, 34 * 60),
            ("DvR", true, 34 * 60),
            ("ELvPW", false, 28 * 48 * 47 * 46),
        ] {
            let m = Material::parse(name).unwrap();
            let ix = Indexer::new(m, dog_swims);
            assert_eq!(ix.half, expected_half, "{name}");
            let step = (ix.len() / 20_000).max(1);
            for i in (0..ix.len()).step_by(step) {
                let p = ix.decode(i);
                assert_eq!(ix.encode(&p), i, "{name} {p:?}");
                let pos = ix.position(&p);
                assert_eq!(ix.index_of(&pos), Some(i), "{name} {pos:?}");
                assert_eq!(pos.key(), pos.compute_key());
            }
        }
    }

    /// The index after a move, computed from the digits it changes, is the index of
    /// the placement after it, for every move of every slot that stays in stored form.
    #[test]
    fn the_index_after_a_move_matches_a_full_encode() {
        for name in ["TRvW", "LvR", "ELvPW", "RvCD"] {
            let ix = Indexer::new(Material::parse(name).unwrap(), false);
            let n = ix.animals();
            let mut checked = 0;
            let step = (ix.len() / 3_000).max(1);
            for i in (0..ix.len()).step_by(step) {
                let p = ix.decode(i);
                let occupied: u64 = p.squares[..n].iter().map(|&s| 1u64 << s).sum();
                for k in 0..n {
                    let domain = if ix.pieces[k].animal == Animal::Rat {
                        SWIM_DOMAIN
                    } else {
                        LAND_DOMAIN
                    };
                    for to in 0..63u8 {
                        if (domain & !occupied) >> to & 1 == 0 {
                            continue;
                        }
                        let mut q = p;
                        q.squares[k] = to;
                        q.side = p.side.other();
                        match ix.encode_after_move(i, &p.squares, k, to) {
                            Some(j) => {
                                assert_eq!(j, ix.encode(&q), "{name} {p:?} slot {k} to {to}");
                                checked += 1;
                            }
                            None => assert!(k == 0 && to % 7 > 3, "{name} slot {k} to {to}"),
                        }
                    }
                }
            }
            assert!(checked > 10_000, "{name}: {checked}");
        }
    }

    #[test]
    fn the_odometer_walks_the_index_in_order() {
        for (name, dog_swims) in [("TRvW", false), ("LvL", false), ("DvR", true)] {
            let ix = Indexer::new(Material::parse(name).unwrap(), dog_swims);
            let mut count = 0;
            ix.for_each_placement(|i, p| {
                assert_eq!(i, count);
                assert_eq!(ix.decode(i), *p, "{name} {i}");
                count += 1;
            });
            assert_eq!(count, ix.len());
        }
    }

    /// Mirror images and colour twins of a position have the same index.
    #[test]
    fn symmetric_forms_share_an_index() {
        let ix = Indexer::new(Material::parse("TRvW").unwrap(), false);
        let pos = Position::from_fen("7/2w4/7/7/1R5/7/5T1/7/7 b").unwrap();
        let mirrored = Position::from_fen("7/4w2/7/7/5R1/7/1T5/7/7 b").unwrap();
        let twin = Position::from_fen("7/7/5t1/7/1r5/7/7/2W4/7 r").unwrap();
        let i = ix.index_of(&pos).unwrap();
        assert_eq!(ix.index_of(&mirrored), Some(i));
        assert_eq!(ix.index_of(&twin), Some(i));
        let ix = Indexer::new(Material::parse("LvL").unwrap(), false);
        let red = Position::from_fen("7/2l4/7/7/7/7/5L1/7/7 r").unwrap();
        let blue = Position::from_fen("7/7/5l1/7/7/7/7/2L4/7 b").unwrap();
        assert_eq!(ix.index_of(&red), ix.index_of(&blue));
        assert_eq!(ix.len(), 28 * 48);
    }
}
