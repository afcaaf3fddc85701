//! Legal move generation on whole bitboards.
//!
//! Each side has at most one animal of each kind, so the generator walks the eight
//! animals of the side to move; for each it takes the precomputed neighbours of its
//! square (and the river jumps of lion and tiger), and masks them with one set of
//! allowed destinations per animal, built once per position from the capture rules.
//! No move is ever filtered afterwards: every generated move is legal.

use super::bitboard::Bitboard;
use super::geometry::{own_den, JUMPS, LAND, NEIGHBOURS, SQUARE_BB, TRAPS, WATER};
use super::moves::{Move, MoveList, ParseMoveError};
use super::piece::{Animal, Color};
use super::position::{Position, WinReason};
use super::rules::{MoveRules, Standard};
use super::square::Square;
use crate::text::quote;

pub use super::count::{count, count_after_with, count_with, mobility, mobility_with};

/// Where each animal of the side to move may go, apart from geometry.
#[derive(Clone, Copy)]
pub(super) struct Destinations {
    /// For each animal walking (or jumping) on land: squares it may enter.
    land: [Bitboard; 8],
    /// For a rat standing in water.
    rat_in_water: Bitboard,
    /// For a rat standing on land.
    rat_on_land: Bitboard,
    /// For a dog standing in water (dog-swims rules only).
    dog_in_water: Bitboard,
    /// Squares whose occupant blocks a river jump: both rats (and both dogs when dogs
    /// swim: a dog on land is never on the water a jump crosses).
    jump_blockers: Bitboard,
    /// Enemy animals (an animal on an enemy trap may not take them when trapped
    /// animals lose their attack).
    enemies: Bitboard,
    /// The enemy's traps.
    enemy_traps: Bitboard,
}

impl Destinations {
    #[inline]
    pub(super) fn new<R: MoveRules>(pos: &Position) -> Destinations {
        Destinations::of::<R>(pos.side, &pos.occupied, &pos.squares)
    }

    /// Built from the parts of a position that move generation reads, so that perft
    /// can count the replies to a move without making the whole move.
    #[inline]
    pub(super) fn of<R: MoveRules>(
        us: Color,
        occupied: &[Bitboard; 2],
        squares: &[[u8; 8]; 2],
    ) -> Destinations {
        let them = us.other();
        let bb_of = |c: Color, a: Animal| SQUARE_BB[squares[c.index()][a.index()] as usize];
        let own = occupied[us.index()];
        let enemies = occupied[them.index()];
        // "Never into its own den; never onto its own animal."
        let empty_or_enemy = !(own | own_den(us));
        // "An enemy animal on one of the capturing side's own traps can be captured by
        // any animal of that side, whatever the ranks."
        let trapped = enemies & TRAPS[us.index()];
        let enemy_rat = bb_of(them, Animal::Rat);
        let enemy_elephant = bb_of(them, Animal::Elephant);

        let mut land = [Bitboard::EMPTY; 8];
        // Enemies of rank <= the attacker's, built up from the rat.
        let mut weaker_or_equal = enemy_rat;
        for animal in &Animal::ALL[1..] {
            weaker_or_equal |= bb_of(them, *animal);
            let mut prey = weaker_or_equal;
            if *animal == Animal::Elephant {
                // "The elephant never captures the rat."
                prey = prey.minus(enemy_rat);
            }
            // Non-rats never enter water, so a rat in water is out of reach by `LAND`.
            land[animal.index()] = empty_or_enemy & LAND & (!enemies | prey | trapped);
        }
        let mut jump_blockers = bb_of(Color::Red, Animal::Rat) | bb_of(Color::Blue, Animal::Rat);
        let mut dog_in_water = Bitboard::EMPTY;
        if R::DOG_SWIMS {
            let enemy_dog = bb_of(them, Animal::Dog);
            jump_blockers |= bb_of(Color::Red, Animal::Dog) | bb_of(Color::Blue, Animal::Dog);
            // A dog on land may also step into empty water; "no animal on land captures
            // anything in water".
            land[Animal::Dog.index()] |= empty_or_enemy & WATER & !enemies;
            // In water it takes the enemy rat or dog in water, nothing on land.
            dog_in_water = empty_or_enemy & (!enemies | ((enemy_rat | enemy_dog) & WATER));
        }
        Destinations {
            land,
            dog_in_water,
            // Only read when trapped animals lose their attack.
            enemies: if R::TRAPPED_LOSE_ATTACK {
                enemies
            } else {
                Bitboard::EMPTY
            },
            enemy_traps: if R::TRAPPED_LOSE_ATTACK {
                TRAPS[them.index()]
            } else {
                Bitboard::EMPTY
            },
            // "A rat in water captures nothing on land; a rat in water may capture the
            // enemy rat in water."
            rat_in_water: empty_or_enemy & (!enemies | (enemy_rat & WATER)),
            // A rat on land takes the rat and the elephant on land, and anything in our
            // traps; "no animal on land captures a rat in water (a rat on land included)".
            rat_on_land: empty_or_enemy
                & (!enemies | ((enemy_rat | enemy_elephant) & LAND) | trapped),
            jump_blockers,
        }
    }

    /// Every square the animal standing on `from` (index, 63 when captured) may move to.
    #[inline(always)]
    pub(super) fn targets<R: MoveRules>(&self, animal: Animal, from: usize) -> Bitboard {
        let targets = self.targets_by_rank::<R>(animal, from);
        // "An animal on an enemy trap cannot capture anything while it stands there."
        if R::TRAPPED_LOSE_ATTACK && (self.enemy_traps.0 >> from) & 1 != 0 {
            targets.minus(self.enemies)
        } else {
            targets
        }
    }

    #[inline(always)]
    fn targets_by_rank<R: MoveRules>(&self, animal: Animal, from: usize) -> Bitboard {
        let steps = NEIGHBOURS[from];
        if R::DOG_SWIMS && animal == Animal::Dog && (WATER.0 >> from) & 1 != 0 {
            return steps & self.dog_in_water;
        }
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

/// Whether `attacker` of `us`, standing on `from`, may take `victim` on `to`, a step or
/// an open jump away: the capture rules of `Destinations` for one move, for counting
/// the captures of the few animals in contact without building every destination.
#[inline(always)]
pub(super) fn may_capture<R: MoveRules>(
    us: Color,
    attacker: Animal,
    from: usize,
    victim: Animal,
    to: usize,
) -> bool {
    let in_water = |sq: usize| (WATER.0 >> sq) & 1 != 0;
    // "An animal on an enemy trap cannot capture anything while it stands there."
    if R::TRAPPED_LOSE_ATTACK && (TRAPS[us.other().index()].0 >> from) & 1 != 0 {
        return false;
    }
    match attacker {
        // "A rat in water captures nothing on land; a rat in water may capture the
        // enemy rat in water."
        Animal::Rat if in_water(from) => in_water(to) && victim == Animal::Rat,
        // A swimming dog takes the enemy rat or dog in water, nothing on land.
        Animal::Dog if R::DOG_SWIMS && in_water(from) => {
            in_water(to) && matches!(victim, Animal::Rat | Animal::Dog)
        }
        // "No animal on land captures anything in water (a rat on land included)."
        _ if in_water(to) => false,
        // "An enemy animal on one of the capturing side's own traps can be captured by
        // any animal of that side, whatever the ranks."
        _ if (TRAPS[us.index()].0 >> to) & 1 != 0 => true,
        // "The rat captures the elephant"; "the elephant never captures the rat".
        Animal::Rat => matches!(victim, Animal::Rat | Animal::Elephant),
        Animal::Elephant => victim != Animal::Rat,
        _ => attacker >= victim,
    }
}

/// Landing squares of the river jumps from `from` that no rat blocks.
///
/// "Lion and tiger jump … straight across it to the first land square beyond.
/// Forbidden if any rat, of either side, is on a water square jumped over."
/// Branch-free: unused jump slots have an empty landing set.
#[inline]
pub(super) fn open_jumps(from: usize, blockers: Bitboard) -> Bitboard {
    let set = &JUMPS[from];
    let open = |i: usize| {
        let clear = (set.over[i] & blockers).is_empty() as u64;
        Bitboard(set.landing[i].0 & clear.wrapping_neg())
    };
    open(0) | open(1)
}

/// All legal moves of the side to move, under the rule set `R`.
#[inline]
pub fn generate_with<R: MoveRules>(pos: &Position, list: &mut MoveList) {
    generate_to_with::<R>(pos, Bitboard::ALL, list)
}

/// The legal moves that land on `targets` (captures: the enemy's squares), under `R`.
#[inline]
pub fn generate_to_with<R: MoveRules>(pos: &Position, targets: Bitboard, list: &mut MoveList) {
    if pos.is_over_on_board() {
        return;
    }
    let dest = Destinations::new::<R>(pos);
    let us = pos.side.index();
    for animal in Animal::ALL {
        let from = pos.squares[us][animal.index()];
        for to in dest.targets::<R>(animal, from as usize) & targets {
            // Only a living animal has targets, so `from` is a real square here.
            list.push(Move::new(Square::from_index_unchecked(from), to));
        }
    }
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
    Destinations::new::<R>(pos)
        .targets::<R>(piece.animal, m.from().index())
        .contains(m.to())
}

/// All legal moves under the default rules.
#[inline]
pub fn generate(pos: &Position, list: &mut MoveList) {
    generate_with::<Standard>(pos, list)
}

/// The legal moves landing on `targets`, under the default rules.
#[inline]
pub fn generate_to(pos: &Position, targets: Bitboard, list: &mut MoveList) {
    generate_to_with::<Standard>(pos, targets, list)
}

/// A fresh list of all legal moves under the default rules.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list
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
    /// Legal by the board, but forbidden now by the anti-chase rules.
    Forbidden(String),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Malformed(s) => {
                write!(
                    f,
                    "'{}' is not a move (expected from and to squares, like g3g4)",
                    quote(s)
                )
            }
            MoveError::Illegal(s) => {
                write!(f, "'{}' is not a legal move in this position", quote(s))
            }
            MoveError::Forbidden(s) => {
                write!(
                    f,
                    "'{}' is forbidden now by the anti-chase rules (7-3 or 17-5)",
                    quote(s)
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// Reads a move in coordinate notation and checks that it is legal here under `R`.
    pub fn parse_move_with<R: MoveRules>(&self, text: &str) -> Result<Move, MoveError> {
        let shown = text.to_string();
        let m = match text.parse::<Move>() {
            Ok(m) => m,
            Err(ParseMoveError::SameSquare) => return Err(MoveError::Illegal(shown)),
            Err(ParseMoveError::NotSquares) => return Err(MoveError::Malformed(shown)),
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    /// (rule, position, move, legal?): one row per rule clause, both ways where it can go.
    const CASES: &[(&str, &str, &str, bool)] = &[
        (
            "one square orthogonally",
            "l6/7/7/7/7/3L3/7/7/7 r",
            "d4d5",
            true,
        ),
        ("no diagonal step", "l6/7/7/7/7/3L3/7/7/7 r", "d4e5", false),
        (
            "no two-square step",
            "l6/7/7/7/7/7/3W3/7/7 r",
            "d3d5",
            false,
        ),
        (
            "never into its own den",
            "l6/7/7/7/7/7/7/3W3/7 r",
            "d2d1",
            false,
        ),
        (
            "the enemy den may be entered",
            "l6/7/7/7/7/7/7/3w3/6L b",
            "d2d1",
            true,
        ),
        (
            "never onto its own animal",
            "l6/7/7/7/7/7/7/2WD3/7 r",
            "c2d2",
            false,
        ),
        (
            "only the rat enters water",
            "l6/7/7/7/7/7/1D5/7/7 r",
            "b3b4",
            false,
        ),
        ("rat enters water", "l6/7/7/7/7/7/1R5/7/7 r", "b3b4", true),
        (
            "rat leaves water onto land",
            "l6/7/7/7/1R5/7/7/7/7 r",
            "b5a5",
            true,
        ),
        (
            "lion jumps the river sideways",
            "l6/7/7/7/L6/7/7/7/7 r",
            "a5d5",
            true,
        ),
        (
            "tiger jumps the river lengthwise",
            "l6/7/7/7/7/7/1T5/7/7 r",
            "b3b7",
            true,
        ),
        (
            "jump blocked by own rat",
            "l6/7/7/7/L1R4/7/7/7/7 r",
            "a5d5",
            false,
        ),
        (
            "jump blocked by enemy rat",
            "l6/7/7/7/L1r4/7/7/7/7 r",
            "a5d5",
            false,
        ),
        (
            "a rat off the line does not block",
            "l6/7/7/1r5/L6/7/7/7/7 r",
            "a5d5",
            true,
        ),
        (
            "jump captures a weaker animal",
            "l6/7/7/7/L2p3/7/7/7/7 r",
            "a5d5",
            true,
        ),
        (
            "jump may not land on a stronger one",
            "7/7/7/7/T2l3/7/7/7/6L r",
            "a5d5",
            false,
        ),
        ("a wolf cannot jump", "l6/7/7/7/W6/7/7/7/7 r", "a5d5", false),
        (
            "equal rank captures",
            "7/7/7/7/7/3w3/3W3/7/6L r",
            "d3d4",
            true,
        ),
        (
            "weaker cannot capture stronger",
            "7/7/7/7/7/3p3/3W3/7/6L r",
            "d3d4",
            false,
        ),
        (
            "rat captures elephant",
            "7/7/7/7/7/3e3/3R3/7/6L r",
            "d3d4",
            true,
        ),
        (
            "elephant never captures rat",
            "7/7/7/7/7/3r3/3E3/7/6L r",
            "d3d4",
            false,
        ),
        (
            "rat in water cannot take elephant on land",
            "7/7/7/7/eR5/7/7/7/6L r",
            "b5a5",
            false,
        ),
        (
            "rat on land takes elephant",
            "7/7/7/e6/R6/7/7/7/6L r",
            "a5a6",
            true,
        ),
        (
            "rat in water cannot take rat on land",
            "7/7/7/7/7/rR5/7/7/6L r",
            "b4a4",
            false,
        ),
        (
            "rat on land cannot take rat in water",
            "7/7/7/7/7/Rr5/7/7/6L r",
            "a4b4",
            false,
        ),
        (
            "rat in water takes rat in water",
            "7/7/7/7/7/1rR4/7/7/6L r",
            "c4b4",
            true,
        ),
        (
            "land animal cannot take rat in water",
            "7/7/7/7/7/Lr5/7/7/6l r",
            "a4b4",
            false,
        ),
        (
            "red rat takes blue elephant in red trap",
            "l6/7/7/7/7/7/7/7/1Re4 r",
            "b1c1",
            true,
        ),
        (
            "red elephant takes blue rat in red trap",
            "l6/7/7/7/7/7/7/2Er3/7 r",
            "c2d2",
            true,
        ),
        (
            "elephant still cannot take rat off the trap",
            "l6/7/7/7/7/7/2Er3/7/7 r",
            "c3d3",
            false,
        ),
        (
            "cat takes lion in own trap",
            "7/7/7/7/7/7/7/4C2/4l1L r",
            "e2e1",
            true,
        ),
        (
            "own trap does not weaken",
            "l6/7/7/7/7/7/7/7/1cE4 b",
            "b1c1",
            false,
        ),
        (
            "red animal in blue trap keeps its power",
            "1cW4/7/7/7/7/7/7/7/6L r",
            "c9b9",
            true,
        ),
        (
            "blue animal in red trap keeps its power",
            "7/7/7/7/7/7/7/7/1Cw3L b",
            "c1b1",
            true,
        ),
    ];

    #[test]
    fn every_rule_clause() {
        for &(rule, fen, mv, legal) in CASES {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{rule}: {e}"));
            let m = Move::new(mv[..2].parse().unwrap(), mv[2..].parse().unwrap());
            assert_eq!(is_legal(&pos, m), legal, "{rule}: {mv} in {fen}");
            assert_eq!(legal_moves(&pos).contains(m), legal, "{rule}: generator");
            assert_eq!(pos.parse_move(mv).is_ok(), legal, "{rule}: parse_move");
            // The one-move capture rule of the counter, where a capture is in reach.
            let (from, to) = (m.from().index(), m.to().index());
            let in_reach = (NEIGHBOURS[from]
                | open_jumps(
                    from,
                    pos.bb_of(Color::Red, Animal::Rat) | pos.bb_of(Color::Blue, Animal::Rat),
                ))
            .contains(m.to());
            if let (Some(attacker), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) {
                if in_reach && attacker.color != victim.color {
                    let capture =
                        may_capture::<Standard>(pos.side, attacker.animal, from, victim.animal, to);
                    assert_eq!(capture, legal, "{rule}: may_capture");
                }
            }
        }
    }

    #[test]
    fn finished_positions_have_no_moves() {
        for fen in [
            "3R3/7/7/7/7/7/7/7/6l b",
            "3R3/7/7/7/7/7/7/7/6l r",
            "7/7/7/7/7/7/7/7/6L b",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(count(&pos), 0, "{fen}");
            assert!(legal_moves(&pos).is_empty());
            assert!(outcome(&pos).is_some());
        }
    }
}
