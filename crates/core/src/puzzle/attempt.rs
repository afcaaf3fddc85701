//! A person solving a puzzle: the moves they try, the board's replies, a hint, the
//! solution shown. What the board's Puzzles mode keeps for the puzzle on screen.

use super::format::{Goal, Puzzle};
use super::verify::wins_at_once;
use crate::board::{Color, Move};
use crate::game::Game;

/// What a tried move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Right; the board answered with `reply` (already played).
    Right { reply: Move },
    /// Right, and the puzzle is solved.
    Solved,
    /// A legal move that is not the solution: the board stays as it was, and the
    /// person may try again (the puzzle counts as failed).
    Wrong,
}

/// One try at a puzzle.
#[derive(Clone, Debug)]
pub struct Attempt {
    puzzle: Puzzle,
    game: Game,
    /// Index in the solution of the next move to find.
    next: usize,
    /// A wrong move was tried, a hint taken or the solution shown.
    failed: bool,
}

impl Attempt {
    /// The puzzle set up at its start (the moves before it played).
    pub fn new(puzzle: Puzzle) -> Result<Attempt, String> {
        let game = puzzle.game()?;
        Ok(Attempt {
            puzzle,
            game,
            next: 0,
            failed: false,
        })
    }

    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The game as it stands (the puzzle's start plus the moves found so far).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The side the person plays.
    pub fn solver(&self) -> Color {
        self.puzzle.solver()
    }

    pub fn is_solved(&self) -> bool {
        self.next >= self.puzzle.solution.len()
    }

    /// A wrong move was tried, or a hint or the solution was asked for.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// How the puzzle counts for the person's rating: `Some(true)` solved without a
    /// wrong move, hint or shown solution, `Some(false)` failed, `None` not yet decided.
    pub fn outcome(&self) -> Option<bool> {
        if self.failed {
            Some(false)
        } else if self.is_solved() {
            Some(true)
        } else {
            None
        }
    }

    /// The move to find now (a hint; asking for it fails the puzzle).
    pub fn hint(&mut self) -> Option<Move> {
        let m = self.puzzle.solution.get(self.next).copied();
        if m.is_some() {
            self.failed = true;
        }
        m
    }

    /// The rest of the solution from here, the person's moves and the replies (to
    /// show as arrows; asking for it fails the puzzle).
    pub fn show_solution(&mut self) -> &[Move] {
        if !self.is_solved() {
            self.failed = true;
        }
        &self.puzzle.solution[self.next.min(self.puzzle.solution.len())..]
    }

    /// Tries `m`: the stored move is right, and so is any move that wins the game at
    /// once in a win puzzle. A right move is played with the board's reply; a wrong
    /// one changes nothing. An illegal move, or a move after the end, is an error.
    pub fn play(&mut self, m: Move) -> Result<Judgement, String> {
        let Some(&stored) = self.puzzle.solution.get(self.next) else {
            return Err("the puzzle is already solved".into());
        };
        if !self.game.legal_moves().contains(m) {
            let mut probe = self.game.clone();
            return Err(match probe.play(m) {
                Err(e) => e.to_string(),
                Ok(()) => format!("{m} is not a legal move"),
            });
        }
        let wins_now = self.puzzle.goal == Goal::Win && wins_at_once(&self.game).contains(&m);
        if m != stored && !wins_now {
            self.failed = true;
            return Ok(Judgement::Wrong);
        }
        self.game.play(m).map_err(|e| e.to_string())?;
        if wins_now {
            self.next = self.puzzle.solution.len();
            return Ok(Judgement::Solved);
        }
        self.next += 1;
        let Some(&reply) = self.puzzle.solution.get(self.next) else {
            return Ok(Judgement::Solved);
        };
        self.game.play(reply).map_err(|e| e.to_string())?;
        self.next += 1;
        Ok(Judgement::Right { reply })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(line: &str) -> Puzzle {
        Puzzle::parse(line).expect("a puzzle")
    }

    #[test]
    fn right_moves_bring_replies_until_solved() {
        let p = puzzle("abc1234;7/7/3L3/7/7/7/7/7/r6 r 0 1;-;d7d8 a1a2 d8d9;jungle;win;den;900");
        let mut a = Attempt::new(p).expect("sets up");
        assert_eq!(a.solver(), Color::Red);
        let wrong: Move = "d7c7".parse().expect("a move");
        assert_eq!(a.play(wrong), Ok(Judgement::Wrong));
        assert_eq!(a.game().moves().len(), 0);
        assert_eq!(a.outcome(), Some(false));
        let reply: Move = "a1a2".parse().expect("a move");
        assert_eq!(
            a.play("d7d8".parse().expect("a move")),
            Ok(Judgement::Right { reply })
        );
        assert!(a.play("a1a1".parse().unwrap_or(reply)).is_err());
        assert_eq!(
            a.play("d8d9".parse().expect("a move")),
            Ok(Judgement::Solved)
        );
        assert!(a.is_solved());
        assert!(a.play("d8d9".parse().expect("a move")).is_err());
    }

    #[test]
    fn any_move_that_wins_at_once_is_right_and_a_clean_solve_counts() {
        // Red's lion on c8 or e8... here two ways into the den from d8's neighbours:
        // the lion on c9 and the tiger on e9 both enter d9; the file stores one.
        let p = puzzle("abc1234;2L1T2/7/7/7/7/7/7/7/r6 r 0 1;-;c9d9;jungle;win;den;700");
        let mut a = Attempt::new(p.clone()).expect("sets up");
        assert_eq!(
            a.play("e9d9".parse().expect("a move")),
            Ok(Judgement::Solved)
        );
        assert_eq!(a.outcome(), Some(true));
        let mut b = Attempt::new(p).expect("sets up");
        assert_eq!(b.hint(), Some("c9d9".parse().expect("a move")));
        assert_eq!(b.outcome(), Some(false));
        assert_eq!(b.show_solution().len(), 1);
    }
}
