//! Why the board refuses a move: the rule of protocol.md, section 1, that a move breaks,
//! for a person who tried it (the page, the engine's error lines). Move generation
//! never needs this; it is asked only of a move already found illegal.

use super::geometry::{own_den, JUMPS, NEIGHBOURS, TRAPS, WATER};
use super::moves::Move;
use super::piece::{Animal, Color};
use super::position::Position;
use super::rules::MoveRules;
use super::square::Square;
use std::fmt;

/// The rule a move breaks, with the animals it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is decided on the board (a den entered, a side without animals).
    GameOver,
    /// No animal stands on the move's first square.
    NoAnimal { from: Square },
    /// The animal there is the other side's.
    NotYours { animal: Animal, owner: Color },
    /// Neither one square up, down, left or right, nor a river jump.
    NotAStep { animal: Animal },
    /// A jump across the river by an animal other than the lion and the tiger.
    OnlyLionAndTigerJump { animal: Animal },
    /// A rat (or, when dogs swim, a dog) in the water the jump crosses.
    JumpBlocked { animal: Animal, blocker: Animal },
    /// Into its own den.
    OwnDen { animal: Animal },
    /// Onto an animal of its own side.
    OwnAnimal { animal: Animal, own: Animal },
    /// Into the river by an animal that does not swim.
    OnlyRatSwims { animal: Animal, dog_swims: bool },
    /// From the river onto an animal on land.
    FromTheRiver { animal: Animal, victim: Animal },
    /// From land onto an animal in the river.
    IntoTheRiver { animal: Animal, victim: Animal },
    /// The elephant onto the rat.
    ElephantAndRat,
    /// Onto an animal of higher rank (not in one of the mover's traps).
    Outranked { animal: Animal, victim: Animal },
    /// A capture by an animal standing on an enemy trap (`TrappedLoseAttack`).
    TrappedAttacker { animal: Animal },
}

impl Illegal {
    /// Every rule's code (`code()`), for the pages' catalogues to word.
    pub const CODES: [&'static str; 15] = [
        "gameOver",
        "noAnimal",
        "notYours",
        "notAStep",
        "onlyLionAndTigerJump",
        "jumpBlocked",
        "ownDen",
        "ownAnimal",
        "onlyRatSwims",
        "onlyRatAndDogSwim",
        "fromTheRiver",
        "intoTheRiver",
        "elephantAndRat",
        "outranked",
        "trappedAttacker",
    ];

    /// The rule's code for a page to word (`refusal.illegal.<code>`).
    pub fn code(self) -> &'static str {
        match self {
            Illegal::GameOver => "gameOver",
            Illegal::NoAnimal { .. } => "noAnimal",
            Illegal::NotYours { .. } => "notYours",
            Illegal::NotAStep { .. } => "notAStep",
            Illegal::OnlyLionAndTigerJump { .. } => "onlyLionAndTigerJump",
            Illegal::JumpBlocked { .. } => "jumpBlocked",
            Illegal::OwnDen { .. } => "ownDen",
            Illegal::OwnAnimal { .. } => "ownAnimal",
            Illegal::OnlyRatSwims {
                dog_swims: false, ..
            } => "onlyRatSwims",
            Illegal::OnlyRatSwims {
                dog_swims: true, ..
            } => "onlyRatAndDogSwim",
            Illegal::FromTheRiver { .. } => "fromTheRiver",
            Illegal::IntoTheRiver { .. } => "intoTheRiver",
            Illegal::ElephantAndRat => "elephantAndRat",
            Illegal::Outranked { .. } => "outranked",
            Illegal::TrappedAttacker { .. } => "trappedAttacker",
        }
    }

    /// The animals, the side and the square the rule names, as (name, value) pairs:
    /// `animal` (the mover), `victim`, `own`, `blocker`, `side`, `from`.
    pub fn args(self) -> Vec<(&'static str, String)> {
        let name = |a: Animal| a.name().to_string();
        match self {
            Illegal::GameOver | Illegal::ElephantAndRat => vec![],
            Illegal::NoAnimal { from } => vec![("from", from.to_string())],
            Illegal::NotYours { animal, owner } => {
                vec![("animal", name(animal)), ("side", owner.name().to_string())]
            }
            Illegal::NotAStep { animal }
            | Illegal::OnlyLionAndTigerJump { animal }
            | Illegal::OwnDen { animal }
            | Illegal::OnlyRatSwims { animal, .. }
            | Illegal::TrappedAttacker { animal } => vec![("animal", name(animal))],
            Illegal::JumpBlocked { animal, blocker } => {
                vec![("animal", name(animal)), ("blocker", name(blocker))]
            }
            Illegal::OwnAnimal { animal, own } => {
                vec![("animal", name(animal)), ("own", name(own))]
            }
            Illegal::FromTheRiver { animal, victim }
            | Illegal::IntoTheRiver { animal, victim }
            | Illegal::Outranked { animal, victim } => {
                vec![("animal", name(animal)), ("victim", name(victim))]
            }
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::GameOver => write!(f, "the game is over"),
            Illegal::NoAnimal { from } => write!(f, "there is no animal on {from}"),
            Illegal::NotYours { animal, owner } => {
                write!(f, "the {} is {}'s", animal.name(), owner.name())
            }
            Illegal::NotAStep { animal } => write!(
                f,
                "the {} moves one square up, down, left or right",
                animal.name()
            ),
            Illegal::OnlyLionAndTigerJump { animal } => write!(
                f,
                "only the lion and the tiger jump the river, not the {}",
                animal.name()
            ),
            Illegal::JumpBlocked { animal, blocker } => write!(
                f,
                "the {}'s jump is blocked by a {} in the river",
                animal.name(),
                blocker.name()
            ),
            Illegal::OwnDen { animal } => {
                write!(f, "the {} may not enter its own den", animal.name())
            }
            Illegal::OwnAnimal { animal, own } => write!(
                f,
                "the {} may not move onto its own {}",
                animal.name(),
                own.name()
            ),
            Illegal::OnlyRatSwims {
                animal,
                dog_swims: false,
            } => write!(
                f,
                "only the rat swims: the {} may not enter the river",
                animal.name()
            ),
            Illegal::OnlyRatSwims {
                animal,
                dog_swims: true,
            } => write!(
                f,
                "only the rat and the dog swim: the {} may not enter the river",
                animal.name()
            ),
            Illegal::FromTheRiver { animal, victim } => write!(
                f,
                "the {} in the river cannot take the {} on land",
                animal.name(),
                victim.name()
            ),
            Illegal::IntoTheRiver { animal, victim } => write!(
                f,
                "the {} on land cannot take the {} in the river",
                animal.name(),
                victim.name()
            ),
            Illegal::ElephantAndRat => write!(f, "the elephant may not take the rat"),
            Illegal::Outranked { animal, victim } => write!(
                f,
                "the {} (rank {}) cannot take the {} (rank {})",
                animal.name(),
                animal.rank(),
                victim.name(),
                victim.rank()
            ),
            Illegal::TrappedAttacker { animal } => write!(
                f,
                "the {} stands on an enemy trap and cannot take anything there",
                animal.name()
            ),
        }
    }
}

/// Why `m` is not a legal move in `pos` under `R`, or `None` when it is legal. The
/// rules are asked in the order a person reads them: the game, the animal, the way it
/// moves, where it lands, then who may take whom (the checks of `movegen`'s
/// `Destinations`, one rule at a time).
pub fn why_illegal_with<R: MoveRules>(pos: &Position, m: Move) -> Option<Illegal> {
    if pos.is_over_on_board() {
        return Some(Illegal::GameOver);
    }
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        return Some(Illegal::NoAnimal { from });
    };
    let animal = piece.animal;
    let us = pos.side_to_move();
    if piece.color != us {
        return Some(Illegal::NotYours {
            animal,
            owner: piece.color,
        });
    }
    let in_water = |sq: Square| WATER.contains(sq);
    let step = NEIGHBOURS[from.index()].contains(to);
    if !step {
        let jump = &JUMPS[from.index()];
        let Some(slot) = (0..2).find(|&i| jump.landing[i].contains(to)) else {
            return Some(Illegal::NotAStep { animal });
        };
        if !animal.jumps() {
            return Some(Illegal::OnlyLionAndTigerJump { animal });
        }
        let swimmer = |sq: Square| {
            let p = pos.piece_at(sq)?;
            (p.animal == Animal::Rat || (R::DOG_SWIMS && p.animal == Animal::Dog))
                .then_some(p.animal)
        };
        if let Some(blocker) = jump.over[slot].into_iter().find_map(swimmer) {
            return Some(Illegal::JumpBlocked { animal, blocker });
        }
    }
    if own_den(us).contains(to) {
        return Some(Illegal::OwnDen { animal });
    }
    let swims = animal == Animal::Rat || (R::DOG_SWIMS && animal == Animal::Dog);
    if in_water(to) && !swims {
        return Some(Illegal::OnlyRatSwims {
            animal,
            dog_swims: R::DOG_SWIMS,
        });
    }
    // An empty square, its way there checked, is a legal target.
    let target = pos.piece_at(to)?;
    let victim = target.animal;
    if target.color == us {
        return Some(Illegal::OwnAnimal {
            animal,
            own: victim,
        });
    }
    if R::TRAPPED_LOSE_ATTACK && TRAPS[us.other().index()].contains(from) {
        return Some(Illegal::TrappedAttacker { animal });
    }
    match (in_water(from), in_water(to)) {
        (true, false) => return Some(Illegal::FromTheRiver { animal, victim }),
        (false, true) => return Some(Illegal::IntoTheRiver { animal, victim }),
        // In the river a rat takes only the rat; a swimming dog the rat or the dog.
        (true, true) => {
            let prey = victim == Animal::Rat || (animal == Animal::Dog && victim == Animal::Dog);
            return (!prey).then_some(Illegal::Outranked { animal, victim });
        }
        (false, false) => {}
    }
    // "Any animal of that side" takes an enemy in its own traps, whatever the ranks.
    if TRAPS[us.index()].contains(to) {
        return None;
    }
    match (animal, victim) {
        (Animal::Elephant, Animal::Rat) => Some(Illegal::ElephantAndRat),
        (Animal::Rat, Animal::Elephant) => None,
        _ if animal < victim => Some(Illegal::Outranked { animal, victim }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen::placement_of_cells;
    use crate::board::movegen::{generate_with, is_legal_with};
    use crate::board::rules::{
        DogSwims, DogSwimsTrappedLoseAttack, MoveRuleFlags, Standard, TrappedLoseAttack,
    };
    use crate::board::{MoveList, START_FEN};
    use crate::rng::Rng;
    use Animal::*;

    /// A position of Red to move with these animals (`("c3", 'W')`: Red's wolf on c3;
    /// lower case Blue's), a Blue rat on g9 unless another square is named for it.
    fn board(animals: &[(&str, char)]) -> Position {
        board_with(animals, MoveRuleFlags::default())
    }

    /// `board` under rules that may let dogs swim.
    fn board_with(animals: &[(&str, char)], rules: MoveRuleFlags) -> Position {
        let mut squares = [['.'; 7]; 9];
        let mut put = |sq: &str, letter: char| {
            let sq: Square = sq.parse().expect("a square");
            squares[sq.rank() as usize][sq.file() as usize] = letter;
        };
        if !animals.iter().any(|&(_, l)| l == 'r') {
            put("g9", 'r');
        }
        for &(sq, letter) in animals {
            put(sq, letter);
        }
        let ranks = squares
            .iter()
            .rev()
            .map(|rank| rank.iter().collect::<String>());
        Position::from_fen_with(&format!("{} r", placement_of_cells(ranks)), rules)
            .expect("a position")
    }

    fn why<R: MoveRules>(pos: &Position, m: &str) -> Option<Illegal> {
        why_illegal_with::<R>(pos, m.parse().expect("a move"))
    }

    /// Every rule of protocol.md's section 1 that refuses a move, each on a position
    /// where it is the reason.
    #[test]
    fn each_rule_is_named() {
        let start: Position = START_FEN.parse().unwrap();
        let why = why::<Standard>;
        assert_eq!(why(&start, "g3g4"), None);
        assert_eq!(
            why(&start, "d3d4"),
            Some(Illegal::NoAnimal {
                from: "d3".parse().unwrap()
            })
        );
        assert_eq!(
            why(&start, "a7a6"),
            Some(Illegal::NotYours {
                animal: Rat,
                owner: Color::Blue
            })
        );
        assert_eq!(
            why(&start, "a3b4"),
            Some(Illegal::NotAStep { animal: Elephant })
        );
        assert_eq!(
            why(&start, "a3a5"),
            Some(Illegal::NotAStep { animal: Elephant })
        );
        // The wolf of the start onto the river (the move issue 60 tried).
        assert_eq!(
            why(&start, "c3c4"),
            Some(Illegal::OnlyRatSwims {
                animal: Wolf,
                dog_swims: false
            })
        );
        let pos = board(&[("c1", 'L'), ("c2", 'C')]);
        assert_eq!(why(&pos, "c1d1"), Some(Illegal::OwnDen { animal: Lion }));
        assert_eq!(
            why(&pos, "c1c2"),
            Some(Illegal::OwnAnimal {
                animal: Lion,
                own: Cat
            })
        );
        assert_eq!(why(&pos, "c2d2"), None);
        // River jumps: only the lion and the tiger, and not over a rat.
        let pos = board(&[("b3", 'D'), ("c3", 'L'), ("c5", 'r')]);
        assert_eq!(
            why(&pos, "b3b7"),
            Some(Illegal::OnlyLionAndTigerJump { animal: Dog })
        );
        assert_eq!(
            why(&pos, "c3c7"),
            Some(Illegal::JumpBlocked {
                animal: Lion,
                blocker: Rat
            })
        );
        assert_eq!(
            why(&pos, "c3c4"),
            Some(Illegal::OnlyRatSwims {
                animal: Lion,
                dog_swims: false
            })
        );
        assert_eq!(why(&pos, "c3c6"), Some(Illegal::NotAStep { animal: Lion }));
        let pos = board(&[("c3", 'L'), ("b3", 'T'), ("a3", 'E')]);
        assert_eq!(why(&pos, "c3c7"), None);
        assert_eq!(why(&pos, "b3b7"), None);
        assert_eq!(why(&pos, "c3c8"), Some(Illegal::NotAStep { animal: Lion }));
        // The rat between the river and the land.
        let pos = board(&[("b4", 'R'), ("b3", 'e'), ("c4", 'r')]);
        assert_eq!(
            why(&pos, "b4b3"),
            Some(Illegal::FromTheRiver {
                animal: Rat,
                victim: Elephant
            })
        );
        assert_eq!(why(&pos, "b4c4"), None, "a rat takes the rat in the river");
        assert_eq!(why(&pos, "b4a4"), None);
        let pos = board(&[("b3", 'R'), ("b4", 'r')]);
        assert_eq!(
            why(&pos, "b3b4"),
            Some(Illegal::IntoTheRiver {
                animal: Rat,
                victim: Rat
            })
        );
        // Ranks: the elephant and the rat, the wolf and the lion, equal ranks.
        let pos = board(&[
            ("a2", 'E'),
            ("a3", 'r'),
            ("b2", 'W'),
            ("b3", 'l'),
            ("c2", 'R'),
            ("c3", 'e'),
            ("d4", 'P'),
            ("d5", 'p'),
        ]);
        assert_eq!(why(&pos, "a2a3"), Some(Illegal::ElephantAndRat));
        assert_eq!(
            why(&pos, "b2b3"),
            Some(Illegal::Outranked {
                animal: Wolf,
                victim: Lion
            })
        );
        assert_eq!(why(&pos, "c2c3"), None, "the rat takes the elephant");
        assert_eq!(why(&pos, "d4d5"), None, "equal ranks");
        // In Red's own trap (c1) the lion is taken by the cat; in Blue's (c9) the
        // Red cat is not helped.
        let pos = board(&[("b1", 'C'), ("c1", 'l')]);
        assert_eq!(why(&pos, "b1c1"), None);
        let pos = board(&[("b9", 'C'), ("c9", 'l')]);
        assert_eq!(
            why(&pos, "b9c9"),
            Some(Illegal::Outranked {
                animal: Cat,
                victim: Lion
            })
        );
        // A game decided on the board refuses every move.
        let pos = board(&[("d9", 'C'), ("a1", 'R')]);
        assert_eq!(why(&pos, "a1a2"), Some(Illegal::GameOver));
    }

    #[test]
    fn the_variants_rules_are_named() {
        let pos = board(&[("b3", 'D'), ("c3", 'C')]);
        assert_eq!(
            why::<Standard>(&pos, "b3b4"),
            Some(Illegal::OnlyRatSwims {
                animal: Dog,
                dog_swims: false
            })
        );
        assert_eq!(why::<DogSwims>(&pos, "b3b4"), None);
        assert_eq!(
            why::<DogSwims>(&pos, "c3c4"),
            Some(Illegal::OnlyRatSwims {
                animal: Cat,
                dog_swims: true
            })
        );
        // A dog in the river blocks a jump when dogs swim.
        let swimming = MoveRuleFlags {
            dog_swims: true,
            trapped_lose_attack: false,
        };
        let pos = board_with(&[("c3", 'L'), ("c5", 'd')], swimming);
        assert_eq!(
            why::<DogSwims>(&pos, "c3c7"),
            Some(Illegal::JumpBlocked {
                animal: Lion,
                blocker: Dog
            })
        );
        // The lion on Blue's trap (d8) may not take the cat beside it.
        let pos = board(&[("d8", 'L'), ("c8", 'c')]);
        assert_eq!(why::<Standard>(&pos, "d8c8"), None);
        assert_eq!(
            why::<TrappedLoseAttack>(&pos, "d8c8"),
            Some(Illegal::TrappedAttacker { animal: Lion })
        );
    }

    /// On positions of random games under every rule set: a move has a reason exactly
    /// when the move generator refuses it, for every pair of squares.
    #[test]
    fn a_reason_exactly_for_the_illegal_moves() {
        fn check<R: MoveRules>(seed: u64) {
            let mut rng = Rng::new(seed);
            for _game in 0..30 {
                let mut pos: Position = START_FEN.parse().unwrap();
                for _ply in 0..150 {
                    for from in Square::all() {
                        for to in Square::all().filter(|&to| to != from) {
                            let m = Move::new(from, to);
                            let why = why_illegal_with::<R>(&pos, m);
                            assert_eq!(
                                why.is_none(),
                                is_legal_with::<R>(&pos, m),
                                "{m} in {pos}: {why:?}"
                            );
                            if let Some(why) = why {
                                assert!(Illegal::CODES.contains(&why.code()), "{why:?}");
                            }
                        }
                    }
                    let mut list = MoveList::new();
                    generate_with::<R>(&pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    pos.play(list.as_slice()[rng.below(list.len())]);
                }
            }
        }
        check::<Standard>(1);
        check::<DogSwims>(2);
        check::<TrappedLoseAttack>(3);
        check::<DogSwimsTrappedLoseAttack>(4);
    }
}
