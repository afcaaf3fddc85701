//! Material signatures (which animals each side has) and the rules a table is built for.

use super::TbError;
use crate::board::rules::MoveRuleFlags;
use crate::board::{Animal, Color, Position};
use crate::game::Rules;
use std::fmt;

/// The most animals a table can hold (the index and the builder are sized for it).
pub const MAX_ANIMALS: usize = 5;

/// The animals of each side, one bit per animal (`1 << Animal::index()`): a side has at
/// most one animal of each kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub red: u8,
    pub blue: u8,
}

impl Material {
    pub const fn new(red: u8, blue: u8) -> Material {
        Material { red, blue }
    }

    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let mut m = [0u8; 2];
        for c in Color::BOTH {
            for a in Animal::ALL {
                if pos.squares[c.index()][a.index()] != crate::board::position::CAPTURED {
                    m[c.index()] |= 1 << a.index();
                }
            }
        }
        Material::new(m[0], m[1])
    }

    pub fn side(self, c: Color) -> u8 {
        match c {
            Color::Red => self.red,
            Color::Blue => self.blue,
        }
    }

    /// Number of animals on the board.
    pub fn count(self) -> usize {
        (self.red.count_ones() + self.blue.count_ones()) as usize
    }

    /// Red and Blue exchanged.
    pub fn flipped(self) -> Material {
        Material::new(self.blue, self.red)
    }

    /// One table serves a signature and its colour-flipped twin; the canonical one of
    /// the pair has the side with more animals (then the stronger set) as Red.
    pub fn is_canonical(self) -> bool {
        (self.red.count_ones(), self.red) >= (self.blue.count_ones(), self.blue)
    }

    pub fn canonical(self) -> Material {
        if self.is_canonical() {
            self
        } else {
            self.flipped()
        }
    }

    /// Both sides have the same animals: the Blue-to-move half of the table is the
    /// Red-to-move half seen from the other side, and is not stored.
    pub fn is_symmetric(self) -> bool {
        self.red == self.blue
    }

    /// Both sides have an animal (a position without is over and in no table).
    pub fn is_playable(self) -> bool {
        self.red != 0 && self.blue != 0
    }

    /// The signatures one capture leads to that still have a table (both sides have
    /// animals), canonical and without repeats.
    pub fn capture_children(self) -> Vec<Material> {
        let mut out = Vec::new();
        for a in 0..8 {
            let bit = 1u8 << a;
            for child in [
                Material::new(self.red & !bit, self.blue),
                Material::new(self.red, self.blue & !bit),
            ] {
                if child != self && child.is_playable() && !out.contains(&child.canonical()) {
                    out.push(child.canonical());
                }
            }
        }
        out
    }

    /// Every signature with `n` animals (both sides at least one), canonical, sorted.
    pub fn all_with(n: usize) -> Vec<Material> {
        let mut out = Vec::new();
        for red in 1u16..256 {
            for blue in 1u16..256 {
                let m = Material::new(red as u8, blue as u8);
                if m.count() == n && m.is_canonical() {
                    out.push(m);
                }
            }
        }
        out.sort();
        out
    }

    /// `self` and every signature it can reach by captures, smallest first (the order
    /// to build them in).
    pub fn with_dependencies(self) -> Vec<Material> {
        let mut all = vec![self.canonical()];
        let mut i = 0;
        while i < all.len() {
            for c in all[i].capture_children() {
                if !all.contains(&c) {
                    all.push(c);
                }
            }
            i += 1;
        }
        all.sort_by_key(|m| (m.count(), *m));
        all
    }

    /// Reads a signature like `LE v R`, `ELvR` or `elvr` (Red's letters, `v`, Blue's).
    pub fn parse(text: &str) -> Result<Material, TbError> {
        let bad =
            |why: &str| TbError::BadMaterial(format!("'{}': {why}", crate::text::quote(text)));
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let lower = compact.to_ascii_lowercase();
        let Some((red, blue)) = lower.split_once('v') else {
            return Err(bad(
                "expected Red's animals, 'v', Blue's animals (e.g. LE v R)",
            ));
        };
        let side = |s: &str| -> Result<u8, TbError> {
            let mut mask = 0u8;
            for ch in s.chars() {
                let animal = Animal::ALL
                    .into_iter()
                    .find(|a| a.letter().to_ascii_lowercase() == ch)
                    .ok_or_else(|| {
                        bad(&format!(
                            "unknown animal letter '{}' (E L T P W D C R)",
                            crate::text::quote(&ch.to_string())
                        ))
                    })?;
                if mask & (1 << animal.index()) != 0 {
                    return Err(bad(&format!(
                        "a side has two of '{}'",
                        crate::text::quote(&ch.to_string())
                    )));
                }
                mask |= 1 << animal.index();
            }
            if mask == 0 {
                return Err(bad("each side needs at least one animal"));
            }
            Ok(mask)
        };
        let m = Material::new(side(red)?, side(blue)?);
        if m.count() > MAX_ANIMALS {
            return Err(bad(&format!("more than {MAX_ANIMALS} animals")));
        }
        Ok(m)
    }

    /// Letters of one side, strongest first.
    fn letters(mask: u8) -> String {
        Animal::ALL
            .iter()
            .rev()
            .filter(|a| mask & (1 << a.index()) != 0)
            .map(|a| a.letter())
            .collect()
    }
}

impl fmt::Display for Material {
    /// `ELvR`: Red's animals strongest first, `v`, Blue's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}v{}",
            Material::letters(self.red),
            Material::letters(self.blue)
        )
    }
}

/// The rules a table's values hold for: the move rules, and the no-capture draw (which
/// decides the distance-to-zeroing part). Repetition draws do not change any value
/// (the side that can force a win can force it without repeating), so they are not
/// part of it; the history-dependent anti-chase rules cannot be tabled at all.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TbRules {
    pub moves: MoveRuleFlags,
    /// Plies without a capture that draw; 0 = no such rule.
    pub no_capture_plies: u16,
}

/// The longest no-capture rule the tables store distances for (they fit a byte).
pub const MAX_NO_CAPTURE_PLIES: u16 = 254;

impl Default for TbRules {
    fn default() -> Self {
        TbRules {
            moves: MoveRuleFlags::default(),
            no_capture_plies: 100,
        }
    }
}

impl TbRules {
    /// The tables' rules for a game's rules, or why no table can serve them.
    pub fn for_rules(rules: &Rules) -> Result<TbRules, TbError> {
        if rules.anti_chase {
            return Err(TbError::Rules(
                "the 7-3 and 17-5 anti-chase rules depend on the game's history and cannot be tabled"
                    .into(),
            ));
        }
        if rules.draw.no_capture_plies > MAX_NO_CAPTURE_PLIES {
            return Err(TbError::Rules(format!(
                "tables support a no-capture draw of at most {MAX_NO_CAPTURE_PLIES} plies (or none), not {}",
                rules.draw.no_capture_plies
            )));
        }
        Ok(TbRules {
            moves: rules.moves,
            no_capture_plies: rules.draw.no_capture_plies,
        })
    }

    /// The part of file names that tells the rules: `n100`, `dog.tla.n100`.
    pub fn tag(&self) -> String {
        let mut parts = Vec::new();
        if self.moves.dog_swims {
            parts.push("dog".to_string());
        }
        if self.moves.trapped_lose_attack {
            parts.push("tla".to_string());
        }
        parts.push(format!("n{}", self.no_capture_plies));
        parts.join(".")
    }
}

impl fmt::Display for TbRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = vec!["jungle moves".to_string()];
        if self.moves.dog_swims {
            parts.push("dog swims".into());
        }
        if self.moves.trapped_lose_attack {
            parts.push("trapped animals lose their attack".into());
        }
        parts.push(match self.no_capture_plies {
            0 => "no-capture draw off".into(),
            n => format!("no-capture draw {n} plies"),
        });
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print() {
        let m = Material::parse("LE v R").unwrap();
        assert_eq!(m.to_string(), "ELvR");
        assert_eq!(Material::parse("elvr").unwrap(), m);
        assert_eq!(Material::parse("ELvR").unwrap(), m);
        assert!(m.is_canonical());
        assert!(!m.flipped().is_canonical());
        for bad in ["", "LE", "LEv", "vR", "LLvR", "LXvR", "ELTPvWD"] {
            assert!(Material::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn counts_of_signatures() {
        // Both sides have at least one animal; colour twins are counted once.
        assert_eq!(Material::all_with(2).len(), (64 + 8) / 2);
        assert_eq!(Material::all_with(3).len(), 2 * 28 * 8 / 2);
        assert_eq!(
            Material::all_with(4).len(),
            (2 * 56 * 8) / 2 + (28 * 28 + 28) / 2
        );
    }

    #[test]
    fn dependencies_come_first() {
        let m = Material::parse("TR v E").unwrap();
        let deps = m.with_dependencies();
        assert_eq!(*deps.last().unwrap(), m);
        assert!(deps.contains(&Material::parse("T v E").unwrap().canonical()));
        assert!(deps.contains(&Material::parse("R v E").unwrap().canonical()));
        assert_eq!(deps.len(), 3); // TRvE, EvT, EvR: taking the elephant wins at once
        assert!(deps.windows(2).all(|w| w[0].count() <= w[1].count()));
    }
}
