//! A puzzle's themes, found in its solution line with the rules core (protocol.md,
//! "Puzzles", has the definitions).

use crate::board::geometry::{JUMPS, TRAPS, WATER};
use crate::board::{Animal, Color, Move, Position, WinReason};
use crate::game::anti_chase;
use crate::game::{Game, GameResult};
use crate::with_move_rules;

/// What a puzzle is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The line ends with the solver entering the enemy den.
    Den,
    /// A solver move takes an enemy animal standing on one of the solver's traps.
    TrapCapture,
    /// A solver move is a lion's or tiger's jump across a river.
    RiverJump,
    /// The solver's rat takes the enemy elephant.
    RatTakesElephant,
    /// With the opponent to move, a jump of its lion or tiger that would take one of
    /// the solver's animals is blocked by a rat in the water.
    BlockedJump,
    /// The line ends with the opponent left without a legal move.
    NoMoves,
    /// The line ends by taking the opponent's last animal.
    LastAnimal,
    /// The puzzle's position is in the endgame tables, which verified it exactly.
    Endgame,
    /// Somewhere in the line (`jungle-cn`), the 7-3 rule forbids a move.
    Chase73,
    /// Somewhere in the line (`jungle-cn`), the 17-5 rule forbids a move.
    Chase175,
}

impl Theme {
    pub const ALL: [Theme; 10] = [
        Theme::Den,
        Theme::TrapCapture,
        Theme::RiverJump,
        Theme::RatTakesElephant,
        Theme::BlockedJump,
        Theme::NoMoves,
        Theme::LastAnimal,
        Theme::Endgame,
        Theme::Chase73,
        Theme::Chase175,
    ];

    /// The name in puzzle files.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Den => "den",
            Theme::TrapCapture => "trap",
            Theme::RiverJump => "jump",
            Theme::RatTakesElephant => "rat-elephant",
            Theme::BlockedJump => "blocked-jump",
            Theme::NoMoves => "no-moves",
            Theme::LastAnimal => "last-animal",
            Theme::Endgame => "endgame",
            Theme::Chase73 => "chase-7-3",
            Theme::Chase175 => "chase-17-5",
        }
    }

    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The themes of a line played from `game` (the puzzle's start, with its history);
/// `endgame` when the tables verified it. Sorted, each once.
pub fn detect(game: &Game, line: &[Move], endgame: bool) -> Vec<Theme> {
    let mut themes = Vec::new();
    if endgame {
        themes.push(Theme::Endgame);
    }
    let solver = game.position().side_to_move();
    let mut g = game.clone();
    chase_themes(&g, &mut themes);
    for (i, &m) in line.iter().enumerate() {
        let pos = *g.position();
        if i % 2 == 0 {
            solver_move_themes(&pos, m, solver, &mut themes);
        }
        if g.play(m).is_err() {
            break;
        }
        if g.position().side_to_move() != solver && blocked_jump(g.position()) {
            themes.push(Theme::BlockedJump);
        }
        chase_themes(&g, &mut themes);
    }
    if let GameResult::Win { winner, reason } = g.result() {
        if winner == solver {
            themes.push(match reason {
                WinReason::Den => Theme::Den,
                WinReason::NoAnimals => Theme::LastAnimal,
                WinReason::NoMoves => Theme::NoMoves,
            });
        }
    }
    themes.sort();
    themes.dedup();
    themes
}

/// Trap captures, jumps and the rat taking the elephant.
fn solver_move_themes(pos: &Position, m: Move, solver: Color, themes: &mut Vec<Theme>) {
    let mover = pos.mover(m);
    if let Some(victim) = pos.captured_by(m) {
        if TRAPS[solver.index()].contains(m.to()) {
            themes.push(Theme::TrapCapture);
        }
        if mover == Animal::Rat && victim == Animal::Elephant {
            themes.push(Theme::RatTakesElephant);
        }
    }
    if mover.jumps() && JUMPS[m.from().index()].targets().contains(m.to()) {
        themes.push(Theme::RiverJump);
    }
}

/// The side to move has a lion or tiger whose jump onto a weaker (or equal) enemy
/// animal is blocked only by a rat in the water.
pub fn blocked_jump(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let rats_in_water =
        (pos.bb_of(Color::Red, Animal::Rat) | pos.bb_of(Color::Blue, Animal::Rat)) & WATER;
    for jumper in [Animal::Lion, Animal::Tiger] {
        let Some(from) = pos.square_of(us, jumper) else {
            continue;
        };
        let jumps = &JUMPS[from.index()];
        for slot in 0..2 {
            let Some(to) = jumps.landing[slot].first() else {
                continue;
            };
            if (jumps.over[slot] & rats_in_water).is_empty() {
                continue;
            }
            if let Some(victim) = pos.piece_at(to) {
                if victim.color != us && victim.animal.rank() <= jumper.rank() {
                    return true;
                }
            }
        }
    }
    false
}

/// The anti-chase rules forbid a move to the side to move now.
fn chase_themes(g: &Game, themes: &mut Vec<Theme>) {
    let (seven_three, seventeen_five) = chase_forbids(g);
    if seven_three {
        themes.push(Theme::Chase73);
    }
    if seventeen_five {
        themes.push(Theme::Chase175);
    }
}

/// Whether the 7-3 and the 17-5 rule (`jungle-cn`) each forbid a move to the side to
/// move now (a move the animals' own rules allow); both false under other rules or
/// when the game is over.
pub fn chase_forbids(g: &Game) -> (bool, bool) {
    if !g.rules().anti_chase || g.result() != GameResult::Ongoing {
        return (false, false);
    }
    let (seven_three, seventeen_five) = with_move_rules!(g.rules().moves, R => {
        anti_chase::forbidden_by_rule::<R>(g.position(), g.records())
    });
    let pos = g.position();
    let mut list = crate::board::MoveList::new();
    with_move_rules!(g.rules().moves, R => crate::board::movegen::generate_with::<R>(pos, &mut list));
    let mut out = (false, false);
    for &m in list.iter() {
        let animal = pos.mover(m);
        out.0 |= seven_three.forbids(animal, m.to());
        out.1 |= seventeen_five.forbids(animal, m.to());
    }
    out
}
