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
    /// A solver move of its rat into, within or out of the river.
    RiverRat,
    /// The solver defends: every other move loses (goal `draw` or `hold`).
    Defence,
    /// The line ends in the den after the opponent took an animal the solver had just
    /// moved where it could be taken (not by a capture of an animal at least as
    /// strong).
    Sacrifice,
    /// After a solver move the opponent must move and loses by it: were it allowed to
    /// pass, the solver would not win (within the line's moves; the tables or a proof
    /// say so).
    Zugzwang,
    /// From a game, with 4 to 6 animals on the board.
    GameEndgame,
}

impl Theme {
    pub const ALL: [Theme; 15] = [
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
        Theme::RiverRat,
        Theme::Defence,
        Theme::Sacrifice,
        Theme::Zugzwang,
        Theme::GameEndgame,
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
            Theme::RiverRat => "river-rat",
            Theme::Defence => "defence",
            Theme::Sacrifice => "sacrifice",
            Theme::Zugzwang => "zugzwang",
            Theme::GameEndgame => "game-endgame",
        }
    }

    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The themes of a line played from `game` (the puzzle's start, with its history);
/// `endgame` when the tables verified it. Sorted, each once. (The themes of the
/// goal, the source and zugzwang are the caller's: `Puzzle`'s maker adds them.)
pub fn detect(game: &Game, line: &[Move], endgame: bool) -> Vec<Theme> {
    let mut themes = Vec::new();
    if endgame {
        themes.push(Theme::Endgame);
    }
    let solver = game.position().side_to_move();
    let mut g = game.clone();
    chase_themes(&g, &mut themes);
    // An animal the solver offered and the opponent took.
    let mut offered = false;
    // The position before the solver's last move.
    let mut before = *g.position();
    for (i, &m) in line.iter().enumerate() {
        let pos = *g.position();
        if i % 2 == 0 {
            solver_move_themes(&pos, m, solver, &mut themes);
            before = pos;
        } else if pos.is_capture(m) && m.to() == line[i - 1].to() {
            // The reply takes the animal the solver just moved; an offer unless the
            // solver's move took an animal at least as strong.
            let given = pos.piece_at(m.to()).map_or(0, |p| p.animal.rank());
            let taken = before.captured_by(line[i - 1]).map_or(0, Animal::rank);
            offered |= taken < given;
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
            if offered && reason == WinReason::Den {
                themes.push(Theme::Sacrifice);
            }
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
    if mover == Animal::Rat && (WATER.contains(m.from()) || WATER.contains(m.to())) {
        themes.push(Theme::RiverRat);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::game::{Rules, Variant};

    /// The themes of `line` (moves as text) played from `fen` after `history`.
    fn themes_with(fen: &str, rules: Rules, history: &[&str], line: &[&str]) -> Vec<Theme> {
        let pos = Position::from_fen(fen).expect("a position");
        let mut game = Game::with_rules(pos, rules);
        for m in history {
            game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        let mut g = game.clone();
        let moves: Vec<Move> = line
            .iter()
            .map(|m| g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}")))
            .collect();
        detect(&game, &moves, false)
    }

    fn themes(fen: &str, line: &[&str]) -> Vec<Theme> {
        themes_with(fen, Rules::default(), &[], line)
    }

    /// Each detector on a line where it must fire and one where it must not.
    #[test]
    fn each_theme_fires_where_it_should_and_only_there() {
        // The trap: Red's cat takes Blue's lion on c1 (a Red trap); a capture on b1
        // (no trap) is none.
        let t = themes("7/7/7/7/7/7/7/2C4/2l4 r 0 1", &["c2c1"]);
        assert!(
            t.contains(&Theme::TrapCapture) && t.contains(&Theme::LastAnimal),
            "{t:?}"
        );
        let t = themes("7/7/7/7/7/7/7/1L5/1c5 r 0 1", &["b2b1"]);
        assert!(!t.contains(&Theme::TrapCapture), "{t:?}");
        // The jump: Red's lion across the river b3-b7; a step is none.
        assert!(themes("7/7/7/7/7/7/1L5/7/r6 r 0 1", &["b3b7"]).contains(&Theme::RiverJump));
        assert!(!themes("7/7/7/7/7/7/1L5/7/r6 r 0 1", &["b3a3"]).contains(&Theme::RiverJump));
        // The rat takes the elephant; taking the rat is none.
        let t = themes("7/7/7/7/7/7/7/Re5/7 r 0 1", &["a2b2"]);
        assert!(t.contains(&Theme::RatTakesElephant), "{t:?}");
        let t = themes("7/7/7/7/7/7/7/Rr5/7 r 0 1", &["a2b2"]);
        assert!(!t.contains(&Theme::RatTakesElephant), "{t:?}");
        // Blue's rat swims from b4 into b5, in the way of Red's lion's jump a5-d5 onto
        // Blue's dog: the rat in the river and the blocked jump; the dog stepping
        // away is neither.
        let fen = "7/7/7/7/L2d3/1r5/7/7/7 b 0 1";
        let t = themes(fen, &["b4b5"]);
        assert!(
            t.contains(&Theme::BlockedJump) && t.contains(&Theme::RiverRat),
            "{t:?}"
        );
        let t = themes(fen, &["d5d4"]);
        assert!(
            !t.contains(&Theme::BlockedJump) && !t.contains(&Theme::RiverRat),
            "{t:?}"
        );
        // The rat walking on land is not in the river.
        let t = themes("7/7/7/7/7/7/7/R6/4e2 r 0 1", &["a2a3"]);
        assert!(!t.contains(&Theme::RiverRat), "{t:?}");
        // No move left: Red's dog to a2 boxes Blue's rat in; taking it is the last
        // animal instead.
        let fen = "7/7/7/7/7/7/D6/7/rC5 r 0 1";
        let t = themes(fen, &["a3a2"]);
        assert!(
            t.contains(&Theme::NoMoves) && !t.contains(&Theme::LastAnimal),
            "{t:?}"
        );
        let t = themes(fen, &["b1a1"]);
        assert!(
            t.contains(&Theme::LastAnimal) && !t.contains(&Theme::NoMoves),
            "{t:?}"
        );
        // The den: entered, or not.
        assert!(themes("7/3L3/7/7/7/7/7/7/2r4 r 0 1", &["d8d9"]).contains(&Theme::Den));
        assert!(!themes("7/3L3/7/7/7/7/7/7/2r4 r 0 1", &["d8c8"]).contains(&Theme::Den));
    }

    /// Red's dog steps onto d8 (a Blue trap) and Blue's cat takes it there, which lets
    /// the lion in by e9: a sacrifice. Without the offer, or when the dog took Blue's
    /// dog first (a trade), none.
    #[test]
    fn a_sacrifice_is_an_animal_given_on_the_way_to_the_den() {
        let line = ["d7d8", "c8d8", "e8e9", "a1a2", "e9d9"];
        let t = themes("7/2c1L2/3D3/7/7/7/7/7/r6 r 0 1", &line);
        assert!(
            t.contains(&Theme::Sacrifice) && t.contains(&Theme::Den),
            "{t:?}"
        );
        let t = themes("7/2c1L2/3D3/7/7/7/7/7/r6 r 0 1", &["e8e9", "a1a2", "e9d9"]);
        assert!(!t.contains(&Theme::Sacrifice), "{t:?}");
        let t = themes("7/2cdL2/3D3/7/7/7/7/7/r6 r 0 1", &line);
        assert!(!t.contains(&Theme::Sacrifice), "{t:?}");
    }

    /// protocol.md's examples of the anti-chase rules: after them the rule forbids a
    /// move, and the theme is there; before them (or under jungle), it is not.
    #[test]
    fn the_anti_chase_themes_need_the_rule_to_forbid_a_move() {
        let cn = Variant::JungleCn.rules();
        let fen = "6l/7/1t5/7/7/7/W5R/7/7 r 0 1";
        let shuffle = [
            "a3a2", "g9f9", "a2a3", "f9f8", "a3a2", "f8g8", "a2a3", "g8g9", "a3a2", "g9f9", "a2a3",
            "f9f8",
        ];
        let t = themes_with(fen, cn, &shuffle, &["a3b3"]);
        assert!(
            t.contains(&Theme::Chase73) && !t.contains(&Theme::Chase175),
            "{t:?}"
        );
        let t = themes_with(fen, cn, &shuffle[..8], &["a3a2"]);
        assert!(!t.contains(&Theme::Chase73), "{t:?}");
        let t = themes_with(fen, Rules::default(), &shuffle, &["a3b3"]);
        assert!(!t.contains(&Theme::Chase73), "{t:?}");
        // Red's lion walks a1-a2-b2-b1 17 times while Blue's walks its corner; Red's
        // rat on g1 has not moved: the lion may not go back to those squares (17-5).
        let fen = "6l/7/7/7/r6/7/7/7/1L4R r 0 1";
        let red = ["b1a1", "a1a2", "a2b2", "b2b1"];
        let blue = ["g9f9", "f9f8", "f8g8", "g8g9"];
        let mut walk = Vec::new();
        for i in 0..17 {
            walk.push(red[i % 4]);
            walk.push(blue[i % 4]);
        }
        let t = themes_with(fen, cn, &walk, &["g1g2"]);
        assert!(t.contains(&Theme::Chase175), "{t:?}");
        let t = themes_with(fen, cn, &walk[..20], &["g1g2"]);
        assert!(!t.contains(&Theme::Chase175), "{t:?}");
    }
}
