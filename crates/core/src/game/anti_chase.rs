//! The anti-chase rules of Chinese online play (seed 002), as `protocol.md` reads them.
//!
//! - **7-3:** if, among the mover's last 7 moves, the same animal moved onto the same
//!   square 3 times or more, that animal may not move onto that square now. Exempt:
//!   any of those 7 moves entered a trap; or the animal is being chased (the
//!   opponent's last-moved animal could now capture it on its square).
//! - **17-5:** if the mover's last 17 moves were all made by the same animal and
//!   together visited at most 5 different squares (the square it started from and
//!   every square it moved to), that animal may not move onto any of those squares
//!   now. Exempt: any of those 17 moves entered a trap.
//!
//! "Entered a trap" means the move ended on any of the six trap squares.

use crate::board::geometry::TRAPS;
use crate::board::movegen::is_legal_with;
use crate::board::{Animal, Bitboard, Color, Move, MoveRules, Position};

/// One move of the game, with who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub mv: Move,
    pub animal: Animal,
    pub color: Color,
}

impl MoveRecord {
    /// The record of `m` played in `pos` (before it is played).
    pub fn of(pos: &Position, m: Move) -> MoveRecord {
        MoveRecord {
            mv: m,
            animal: pos.mover(m),
            color: pos.side_to_move(),
        }
    }
}

/// Squares each animal of the side to move may not move onto now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forbidden(pub [Bitboard; 8]);

impl Forbidden {
    #[inline]
    pub fn forbids(&self, animal: Animal, to: crate::board::Square) -> bool {
        self.0[animal.index()].contains(to)
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|b| b.is_empty())
    }
}

const ALL_TRAPS: Bitboard = Bitboard(TRAPS[0].0 | TRAPS[1].0);

/// What the anti-chase rules forbid to the side to move of `pos`, given the moves of
/// the game so far (oldest first; the last one is the opponent's move that led here).
pub fn forbidden<R: MoveRules>(pos: &Position, history: &[MoveRecord]) -> Forbidden {
    let (seven_three, seventeen_five) = forbidden_by_rule::<R>(pos, history);
    let mut out = seven_three;
    for (a, b) in out.0.iter_mut().zip(seventeen_five.0) {
        *a |= b;
    }
    out
}

/// What each rule forbids on its own: (7-3, 17-5).
pub fn forbidden_by_rule<R: MoveRules>(
    pos: &Position,
    history: &[MoveRecord],
) -> (Forbidden, Forbidden) {
    let us = pos.side_to_move();
    let mut seven_three = Forbidden::default();
    let mut seventeen_five = Forbidden::default();
    // The mover's own last 17 moves, most recent first, on the stack (this runs for
    // every move generation under the anti-chase rules).
    let mut mine = history.iter().rev().filter(|r| r.color == us);
    let Some(latest) = mine.next() else {
        return (seven_three, seventeen_five);
    };
    let mut recent = [latest; 17];
    let mut n = 1;
    for r in mine.take(16) {
        recent[n] = r;
        n += 1;
    }
    rule_7_3::<R>(pos, history, &recent[..n.min(7)], &mut seven_three);
    rule_17_5(&recent[..n], &mut seventeen_five);
    (seven_three, seventeen_five)
}

/// Why the anti-chase rules forbid `m` to the side to move, in words that name the
/// rule (for people: a GUI shows it when it refuses the move); `None` when they do not.
pub fn explain<R: MoveRules>(pos: &Position, history: &[MoveRecord], m: Move) -> Option<String> {
    let animal = pos.mover(m);
    let us = pos.side_to_move();
    let side = match us {
        Color::Red => "Red",
        Color::Blue => "Blue",
    };
    let (seven_three, seventeen_five) = forbidden_by_rule::<R>(pos, history);
    if seven_three.forbids(animal, m.to()) {
        return Some(format!(
            "rule 7-3: the {us} {} has moved onto {} 3 times in {side}'s last 7 moves \
             (none of them into a trap), and it is not being chased, so it may not move \
             there again now",
            animal.name(),
            m.to()
        ));
    }
    if seventeen_five.forbids(animal, m.to()) {
        let squares: Vec<String> = seventeen_five.0[animal.index()]
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        return Some(format!(
            "rule 17-5: the {us} {} made all of {side}'s last 17 moves and visited only \
             {} squares ({}), none of them a trap, so it may not move onto any of them now",
            animal.name(),
            squares.len(),
            squares.join(" ")
        ));
    }
    None
}

fn rule_7_3<R: MoveRules>(
    pos: &Position,
    history: &[MoveRecord],
    last7: &[&MoveRecord],
    out: &mut Forbidden,
) {
    if last7.iter().any(|r| ALL_TRAPS.contains(r.mv.to())) {
        return;
    }
    for (i, r) in last7.iter().enumerate() {
        let repeats = last7
            .iter()
            .filter(|o| o.animal == r.animal && o.mv.to() == r.mv.to())
            .count();
        let first_time = !last7[..i]
            .iter()
            .any(|o| o.animal == r.animal && o.mv.to() == r.mv.to());
        if repeats >= 3 && first_time && !is_chased::<R>(pos, history, r.animal) {
            out.0[r.animal.index()] |= Bitboard::from_square(r.mv.to());
        }
    }
}

/// The opponent's last move attacked `animal`: the animal that made it could now take
/// `animal` on its square.
fn is_chased<R: MoveRules>(pos: &Position, history: &[MoveRecord], animal: Animal) -> bool {
    let us = pos.side_to_move();
    let Some(last) = history.last().filter(|r| r.color != us) else {
        return false;
    };
    let Some(target) = pos.square_of(us, animal) else {
        return false;
    };
    let mut theirs = *pos;
    theirs.play_null();
    is_legal_with::<R>(&theirs, Move::new(last.mv.to(), target))
}

fn rule_17_5(last17: &[&MoveRecord], out: &mut Forbidden) {
    let Some(first) = last17.first() else {
        return;
    };
    if last17.len() < 17 || last17.iter().any(|r| r.animal != first.animal) {
        return;
    }
    if last17.iter().any(|r| ALL_TRAPS.contains(r.mv.to())) {
        return;
    }
    // The oldest move's start square and every destination.
    let mut visited = Bitboard::from_square(last17[last17.len() - 1].mv.from());
    for r in last17 {
        visited |= Bitboard::from_square(r.mv.to());
    }
    if visited.count() <= 5 {
        out.0[first.animal.index()] |= visited;
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Position;
    use crate::game::{Game, Variant};

    fn cn_game(fen: &str) -> Game {
        Game::with_rules(
            Position::from_fen(fen).expect("valid"),
            Variant::JungleCn.rules(),
        )
    }

    fn play(g: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    fn mv(text: &str) -> crate::board::Move {
        let square = |t: &str| t.parse().expect("a square");
        crate::board::Move::new(square(&text[..2]), square(&text[2..]))
    }

    fn legal(g: &Game) -> Vec<String> {
        g.legal_moves().iter().map(|m| m.to_string()).collect()
    }

    // Red: wolf a3, rat g3 (idle); Blue: lion g9, tiger b7.
    const SHUFFLE: &str = "6l/7/1t5/7/7/7/W5R/7/7 r";
    // Red's wolf goes to a2 three times; Blue's lion walks a square (no square twice).
    const WOLF_THREE_TIMES: &str = "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3";

    #[test]
    fn seven_three_forbids_a_fourth_visit() {
        let mut g = cn_game(SHUFFLE);
        play(&mut g, WOLF_THREE_TIMES);
        play(&mut g, "f9f8");
        let moves = legal(&g);
        assert!(!moves.contains(&"a3a2".to_string()), "{moves:?}");
        assert!(moves.contains(&"a3b3".to_string()));
        assert!(matches!(
            g.play_text("a3a2"),
            Err(crate::game::PlayError::Move(
                crate::board::movegen::MoveError::Forbidden(_)
            ))
        ));
        // A refusal names the rule and says why (a GUI shows it).
        let why = g.chase_explanation(mv("a3a2")).expect("forbidden");
        assert!(
            why.starts_with(
                "rule 7-3: the red wolf has moved onto a2 3 times in Red's last 7 moves"
            ),
            "{why}"
        );
        assert_eq!(g.chase_explanation(mv("a3b3")), None);
        // Under the default rules the same move is legal (and no draw has happened:
        // the positions differ because the blue lion walks on).
        let mut plain = Game::new(Position::from_fen(SHUFFLE).expect("valid"));
        play(&mut plain, WOLF_THREE_TIMES);
        play(&mut plain, "f9f8");
        assert!(legal(&plain).contains(&"a3a2".to_string()));
    }

    #[test]
    fn seven_three_exempts_a_chased_animal() {
        let mut g = cn_game(SHUFFLE);
        play(&mut g, WOLF_THREE_TIMES);
        // The blue tiger jumps the river to b3, next to the wolf on a3: it attacks it.
        play(&mut g, "b7b3");
        assert!(legal(&g).contains(&"a3a2".to_string()));
    }

    #[test]
    fn seven_three_exempts_moves_into_a_trap() {
        // Red wolf shuffles between d3 and its own trap d2.
        let mut g = cn_game("6l/7/7/7/7/7/3W2R/7/7 r");
        play(
            &mut g,
            "d3d2 g9f9 d2d3 f9f8 d3d2 f8g8 d2d3 g8g9 d3d2 g9f9 d2d3 f9f8",
        );
        assert!(legal(&g).contains(&"d3d2".to_string()));
    }

    #[test]
    fn seventeen_five_forbids_the_squares_of_a_lone_walker() {
        // Red's lion walks the 4-square cycle a1 a2 b2 b1 for 17 moves (never 3 times
        // onto one square within 7 moves, so 7-3 stays silent); Blue's lion walks its
        // own cycle in the other corner, with its rat idle.
        let mut g = cn_game("6l/7/7/7/r6/7/7/7/L6 r");
        let red = ["a1a2", "a2b2", "b2b1", "b1a1"];
        let blue = ["g9f9", "f9f8", "f8g8", "g8g9"];
        for i in 0..17 {
            play(&mut g, red[i % 4]);
            play(&mut g, blue[i % 4]);
        }
        // The lion is on a2; a1, b2 (and b1) are forbidden, a3 is not.
        let moves = legal(&g);
        assert!(!moves.contains(&"a2a1".to_string()), "{moves:?}");
        assert!(!moves.contains(&"a2b2".to_string()), "{moves:?}");
        assert!(moves.contains(&"a2a3".to_string()), "{moves:?}");
        assert_eq!(
            g.forbidden().0[crate::board::Animal::Lion.index()].count(),
            4
        );
        let why = g.chase_explanation(mv("a2a1")).expect("forbidden");
        assert!(
            why.starts_with("rule 17-5: the red lion made all of Red's last 17 moves and visited only 4 squares (a1 b1 a2 b2)"),
            "{why}"
        );
    }

    #[test]
    fn seventeen_five_needs_one_animal_for_all_seventeen_moves() {
        // Red has a second animal and moves it once among the 17: no restriction.
        let mut g = cn_game("6l/7/7/7/r6/7/6R/7/L6 r");
        let red = ["a1a2", "a2b2", "b2b1", "b1a1"];
        let blue = ["g9f9", "f9f8", "f8g8", "g8g9"];
        let mut lion_moves = 0;
        for i in 0..17 {
            if i == 8 {
                play(&mut g, "g3g2");
            } else {
                play(&mut g, red[lion_moves % 4]);
                lion_moves += 1;
            }
            play(&mut g, blue[i % 4]);
        }
        assert!(g.forbidden().0[crate::board::Animal::Lion.index()].is_empty());
    }

    #[test]
    fn a_side_whose_every_move_is_forbidden_loses() {
        // A lone lion walks b1 a1 a2 b2 for 17 moves and ends in the corner a1, whose
        // neighbours a2 and b1 it has visited: both are forbidden, and Red has no other
        // animal, so Red has no legal move.
        let mut g = cn_game("6l/7/7/7/r6/7/7/7/1L5 r");
        let red = ["b1a1", "a1a2", "a2b2", "b2b1"];
        let blue = ["g9f9", "f9f8", "f8g8", "g8g9"];
        for i in 0..17 {
            play(&mut g, red[i % 4]);
            play(&mut g, blue[i % 4]);
        }
        assert!(g.legal_moves().is_empty());
        assert!(matches!(
            g.result(),
            crate::game::GameResult::Win {
                winner: crate::board::Color::Blue,
                reason: crate::board::WinReason::NoMoves
            }
        ));
    }
}
