//! Legal move generation on whole bitboards.
//!
//! Each side has at most one animal of each kind, so the generator walks the eight
//! animals of the side to move; for each it takes the precomputed neighbours of its
//! square (and the river jumps of lion and tiger), and masks them with one set of
//! allowed destinations per animal, built once per position from the capture rules.
//! No move is ever filtered afterwards: every generated move is legal.

use super::bitboard::Bitboard;
use super::geometry::{own_den, JUMPS, LAND, NEIGHBOURS, TRAPS, WATER};
use super::moves::{Move, MoveList};
use super::piece::{Animal, Color};
use super::position::{Position, WinReason};
use super::rules::{MoveRules, Standard};
use super::square::Square;

/// Where each animal of the side to move may go, apart from geometry.
#[derive(Clone, Copy)]
struct Destinations {
    /// For each animal walking (or jumping) on land: squares it may enter.
    land: [Bitboard; 8],
    /// For a rat standing in water.
    rat_in_water: Bitboard,
    /// For a rat standing on land.
    rat_on_land: Bitboard,
    /// Squares whose occupant blocks a river jump: both rats.
    jump_blockers: Bitboard,
}

impl Destinations {
    #[inline]
    fn new(pos: &Position) -> Destinations {
        let us = pos.side;
        let them = us.other();
        let own = pos.occupied[us.index()];
        let enemies = pos.occupied[them.index()];
        // "Never into its own den; never onto its own animal."
        let open = !(own | own_den(us));
        let empty_or_enemy = open;
        // "An enemy animal on one of the capturing side's own traps can be captured by
        // any animal of that side, whatever the ranks."
        let trapped = enemies & TRAPS[us.index()];
        let enemy_rat = pos.bb_of(them, Animal::Rat);
        let enemy_elephant = pos.bb_of(them, Animal::Elephant);

        let mut land = [Bitboard::EMPTY; 8];
        // Enemies of rank <= the attacker's, built up from the rat.
        let mut weaker_or_equal = enemy_rat;
        for animal in &Animal::ALL[1..] {
            weaker_or_equal |= pos.bb_of(them, *animal);
            let mut prey = weaker_or_equal;
            if *animal == Animal::Elephant {
                // "The elephant never captures the rat."
                prey = prey.minus(enemy_rat);
            }
            // Non-rats never enter water, so a rat in water is out of reach by `LAND`.
            land[animal.index()] = empty_or_enemy & LAND & (!enemies | prey | trapped);
        }
        Destinations {
            land,
            // "A rat in water captures nothing on land; a rat in water may capture the
            // enemy rat in water."
            rat_in_water: empty_or_enemy & (!enemies | (enemy_rat & WATER)),
            // A rat on land takes the rat and the elephant on land, and anything in our
            // traps; "no animal on land captures a rat in water (a rat on land included)".
            rat_on_land: empty_or_enemy
                & (!enemies | ((enemy_rat | enemy_elephant) & LAND) | trapped),
            jump_blockers: pos.bb_of(Color::Red, Animal::Rat) | pos.bb_of(Color::Blue, Animal::Rat),
        }
    }

    /// Every square the animal standing on `from` (index, 63 when captured) may move to.
    #[inline]
    fn targets(&self, animal: Animal, from: usize) -> Bitboard {
        let steps = NEIGHBOURS[from];
        match animal {
            Animal::Rat => {
                let allowed = if (WATER.0 >> from) & 1 != 0 {
                    self.rat_in_water
                } else {
                    self.rat_on_land
                };
                steps & allowed
            }
            Animal::Lion | Animal::Tiger => {
                (steps | open_jumps(from, self.jump_blockers)) & self.land[animal.index()]
            }
            _ => steps & self.land[animal.index()],
        }
    }
}

/// Landing squares of the river jumps from `from` that no rat blocks.
///
/// "Lion and tiger jump … straight across it to the first land square beyond.
/// Forbidden if any rat, of either side, is on a water square jumped over."
#[inline]
fn open_jumps(from: usize, blockers: Bitboard) -> Bitboard {
    let set = &JUMPS[from];
    let mut landing = Bitboard::EMPTY;
    for jump in &set.jumps[..set.count as usize] {
        if (jump.over & blockers).is_empty() {
            landing |= Bitboard::from_square(jump.to);
        }
    }
    landing
}

/// All legal moves of the side to move, under the rule set `R`.
#[inline]
pub fn generate_with<R: MoveRules>(pos: &Position, list: &mut MoveList) {
    if pos.is_over_on_board() {
        return;
    }
    let dest = Destinations::new(pos);
    let us = pos.side.index();
    for animal in Animal::ALL {
        let from = pos.squares[us][animal.index()];
        for to in dest.targets(animal, from as usize) {
            // Only a living animal has targets, so `from` is a real square here.
            list.push(Move::new(Square::from_index_unchecked(from), to));
        }
    }
}

/// The number of legal moves, counted without building them (perft's last ply).
#[inline]
pub fn count_with<R: MoveRules>(pos: &Position) -> u32 {
    if pos.is_over_on_board() {
        return 0;
    }
    let dest = Destinations::new(pos);
    let us = pos.side.index();
    let mut n = 0;
    for animal in Animal::ALL {
        n += dest
            .targets(animal, pos.squares[us][animal.index()] as usize)
            .count();
    }
    n
}

/// True when `m` is legal here (for moves that come from a table or from outside).
#[inline]
pub fn is_legal_with<R: MoveRules>(pos: &Position, m: Move) -> bool {
    if pos.is_over_on_board() {
        return false;
    }
    let Some(piece) = pos.piece_at(m.from()) else {
        return false;
    };
    if piece.color != pos.side {
        return false;
    }
    Destinations::new(pos)
        .targets(piece.animal, m.from().index())
        .contains(m.to())
}

/// All legal moves under the default rules.
#[inline]
pub fn generate(pos: &Position, list: &mut MoveList) {
    generate_with::<Standard>(pos, list)
}

/// A fresh list of all legal moves under the default rules.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list
}

/// Number of legal moves under the default rules.
#[inline]
pub fn count(pos: &Position) -> u32 {
    count_with::<Standard>(pos)
}

/// Legality under the default rules.
#[inline]
pub fn is_legal(pos: &Position, m: Move) -> bool {
    is_legal_with::<Standard>(pos, m)
}

/// The winner, if the position is decided by the rules of play alone (den, no animals,
/// no legal move for the side to move). Draws need the history: see `crate::game`.
pub fn outcome_with<R: MoveRules>(pos: &Position) -> Option<(Color, WinReason)> {
    if let Some(decided) = pos.decided_on_board() {
        return Some(decided);
    }
    if count_with::<R>(pos) == 0 {
        return Some((pos.side.other(), WinReason::NoMoves));
    }
    None
}

pub fn outcome(pos: &Position) -> Option<(Color, WinReason)> {
    outcome_with::<Standard>(pos)
}

/// Why a move given as text cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form from-square to-square (`g3g4`).
    Malformed(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Malformed(s) => {
                write!(
                    f,
                    "'{s}' is not a move (expected from and to squares, like g3g4)"
                )
            }
            MoveError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// Reads a move in coordinate notation and checks that it is legal here under `R`.
    pub fn parse_move_with<R: MoveRules>(&self, text: &str) -> Result<Move, MoveError> {
        let shown: String = text.chars().take(16).collect();
        let (from, to) = match (text.get(..2), text.get(2..)) {
            (Some(a), Some(b)) if text.len() == 4 => (a.parse::<Square>(), b.parse::<Square>()),
            _ => return Err(MoveError::Malformed(shown)),
        };
        let (Ok(from), Ok(to)) = (from, to) else {
            return Err(MoveError::Malformed(shown));
        };
        if from == to {
            return Err(MoveError::Illegal(shown));
        }
        let m = Move::new(from, to);
        if is_legal_with::<R>(self, m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(shown))
        }
    }

    /// `parse_move_with` under the default rules.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move_with::<Standard>(text)
    }
}
