//! Input features: which of the [`INPUTS`](super::INPUTS) inputs of a perspective an
//! animal on a square turns on. Shared by the engine and the trainer.

use crate::board::{Animal, Color, Square};

/// Inputs per owner block: 8 animals × 63 squares.
const PER_OWNER: usize = 8 * 63;

/// The input of `perspective` for `color`'s `animal` on square index `square` (0..63):
/// owner block (0: the perspective's own animals, 1: the other side's), then animal,
/// then the square seen from the perspective (Blue sees the board flipped by rank).
#[inline(always)]
pub fn index(perspective: Color, color: Color, animal: Animal, square: Square) -> usize {
    let owner = (color != perspective) as usize;
    let seen = match perspective {
        Color::Red => square,
        Color::Blue => square.flip_rank(),
    };
    owner * PER_OWNER + animal.index() * 63 + seen.index()
}

/// The inputs of both perspectives (`[Red's, Blue's]`) for every animal on the board,
/// from its square list (`squares[color][animal]`, `None` when captured).
pub fn active(squares: &[[Option<Square>; 8]; 2]) -> [FeatureList; 2] {
    let mut out = [FeatureList::default(), FeatureList::default()];
    for color in Color::BOTH {
        for animal in Animal::ALL {
            if let Some(sq) = squares[color.index()][animal.index()] {
                for p in Color::BOTH {
                    out[p.index()].push(index(p, color, animal, sq) as u16);
                }
            }
        }
    }
    out
}

/// At most 16 active inputs (one per animal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeatureList {
    items: [u16; 16],
    len: usize,
}

impl FeatureList {
    #[inline]
    pub fn push(&mut self, f: u16) {
        if self.len < 16 {
            self.items[self.len] = f;
            self.len += 1;
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[u16] {
        &self.items[..self.len]
    }
}

/// The square list of a position.
pub fn squares_of(pos: &crate::board::Position) -> [[Option<Square>; 8]; 2] {
    let mut s = [[None; 8]; 2];
    for c in Color::BOTH {
        for a in Animal::ALL {
            s[c.index()][a.index()] = pos.square_of(c, a);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::square::sq;
    use crate::nnue::INPUTS;

    #[test]
    fn indices_cover_the_inputs_once_per_perspective() {
        for p in Color::BOTH {
            let mut seen = vec![false; INPUTS];
            for c in Color::BOTH {
                for a in Animal::ALL {
                    for s in Square::all() {
                        let i = index(p, c, a, s);
                        assert!(!seen[i], "{p} {c} {a:?} {s}");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&b| b));
        }
    }

    #[test]
    fn each_side_sees_its_own_animals_from_its_own_side() {
        // Red's rat on g3 seen by Red is Blue's rat on g7 seen by Blue.
        assert_eq!(
            index(Color::Red, Color::Red, Animal::Rat, sq::G3),
            index(Color::Blue, Color::Blue, Animal::Rat, sq::G7)
        );
        // Enemy animals are in the second block.
        assert_eq!(index(Color::Red, Color::Blue, Animal::Rat, sq::A1), 8 * 63);
        assert_eq!(
            index(Color::Blue, Color::Red, Animal::Elephant, sq::A1),
            8 * 63 + 7 * 63 + sq::A9.index()
        );
    }

    #[test]
    fn start_position_has_sixteen_inputs_per_perspective() {
        let pos = crate::board::Position::startpos();
        let [red, blue] = active(&squares_of(&pos));
        assert_eq!(red.as_slice().len(), 16);
        assert_eq!(blue.as_slice().len(), 16);
    }
}
