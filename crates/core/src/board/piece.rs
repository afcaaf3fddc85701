//! Sides, animals and pieces.

use std::fmt;

/// A side. Red moves first and starts on ranks 1–3.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Blue = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Blue];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The eight animals, in rank order: `Rat` has rank 1, `Elephant` rank 8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Animal {
    Rat = 0,
    Cat = 1,
    Dog = 2,
    Wolf = 3,
    Leopard = 4,
    Tiger = 5,
    Lion = 6,
    Elephant = 7,
}

impl Animal {
    /// All animals, weakest first.
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Dog,
        Animal::Wolf,
        Animal::Leopard,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank printed in the rules: Rat 1 … Elephant 8.
    #[inline]
    pub const fn rank(self) -> u8 {
        self as u8 + 1
    }

    #[inline]
    pub const fn from_index(i: usize) -> Animal {
        Animal::ALL[i & 7]
    }

    /// Upper-case letter used in position strings (Red's letter).
    pub const fn letter(self) -> char {
        match self {
            Animal::Rat => 'R',
            Animal::Cat => 'C',
            Animal::Dog => 'D',
            Animal::Wolf => 'W',
            Animal::Leopard => 'P',
            Animal::Tiger => 'T',
            Animal::Lion => 'L',
            Animal::Elephant => 'E',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Animal::Rat => "rat",
            Animal::Cat => "cat",
            Animal::Dog => "dog",
            Animal::Wolf => "wolf",
            Animal::Leopard => "leopard",
            Animal::Tiger => "tiger",
            Animal::Lion => "lion",
            Animal::Elephant => "elephant",
        }
    }

    /// Lion and tiger jump rivers.
    #[inline]
    pub const fn jumps(self) -> bool {
        matches!(self, Animal::Lion | Animal::Tiger)
    }
}

/// An animal of a side. Index = `color * 8 + animal`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub animal: Animal,
}

impl Piece {
    pub const fn new(color: Color, animal: Animal) -> Piece {
        Piece { color, animal }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 8 + self.animal.index()
    }

    /// Letter in position strings: upper case Red, lower case Blue.
    pub const fn letter(self) -> char {
        let c = self.animal.letter();
        match self.color {
            Color::Red => c,
            Color::Blue => c.to_ascii_lowercase(),
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Blue
        };
        let up = c.to_ascii_uppercase();
        Animal::ALL
            .iter()
            .find(|a| a.letter() == up)
            .map(|&animal| Piece::new(color, animal))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.animal.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for color in Color::BOTH {
            for animal in Animal::ALL {
                let p = Piece::new(color, animal);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(Piece::from_letter('1'), None);
    }

    #[test]
    fn ranks_follow_the_rules() {
        assert_eq!(Animal::Elephant.rank(), 8);
        assert_eq!(Animal::Rat.rank(), 1);
        assert_eq!(Animal::Leopard.letter(), 'P');
    }
}
