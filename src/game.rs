//! A game: the position plus its history, so that draws by repetition and by the
//! no-capture rule are decided exactly, and the result of the game can be reported.

use crate::board::movegen::{self, MoveError};
use crate::board::{Color, Move, Position, WinReason};
use std::fmt;

/// The rules that end a game in a draw. The defaults are the project's rules: the
/// third occurrence of a position, or 100 plies in a row without a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Plies without a capture that make a draw; 0 turns the rule off.
    pub no_capture_plies: u16,
    /// Occurrences of the same position (placement and side to move) that make a draw;
    /// 0 turns the rule off.
    pub repetitions: u8,
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            no_capture_plies: 100,
            repetitions: 3,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    Repetition,
    NoCapture,
}

impl DrawReason {
    pub fn describe(self) -> &'static str {
        match self {
            DrawReason::Repetition => "repetition",
            DrawReason::NoCapture => "no capture rule",
        }
    }
}

/// The state of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Ongoing,
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Ongoing => write!(f, "ongoing"),
            GameResult::Win { winner, reason } => {
                write!(f, "{winner} wins ({})", reason.describe())
            }
            GameResult::Draw(reason) => write!(f, "draw ({})", reason.describe()),
        }
    }
}

/// Why `Game::play` refused a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    Move(MoveError),
    GameOver(GameResult),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Move(e) => e.fmt(f),
            PlayError::GameOver(r) => write!(f, "the game is over: {r}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A position with the moves that led to it from a start position.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// Keys of every position of the game, the start first and the current one last.
    keys: Vec<u64>,
    pub draw_rules: DrawRules,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            keys: vec![start.key()],
            draw_rules: DrawRules::default(),
        }
    }

    pub fn startpos() -> Game {
        Game::new(Position::startpos())
    }

    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn start_position(&self) -> &Position {
        &self.start
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of all positions so far, oldest first, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Plays a legal move; refuses it if it is illegal or the game is over.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        self.ensure_ongoing()?;
        if !movegen::is_legal(&self.position, m) {
            return Err(PlayError::Move(MoveError::Illegal(m.to_string())));
        }
        self.position.play(m);
        self.moves.push(m);
        self.keys.push(self.position.key());
        Ok(())
    }

    fn ensure_ongoing(&self) -> Result<(), PlayError> {
        match self.result() {
            GameResult::Ongoing => Ok(()),
            over => Err(PlayError::GameOver(over)),
        }
    }

    /// Reads a move in coordinate notation and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        self.ensure_ongoing()?;
        let m = self.position.parse_move(text).map_err(PlayError::Move)?;
        self.play(m)?;
        Ok(m)
    }

    /// How many times the current position has occurred (placement and side to move),
    /// counting this one. Only positions since the last capture can be equal.
    pub fn repetition_count(&self) -> usize {
        let key = self.position.key();
        let window = (self.position.halfmove_clock() as usize).min(self.keys.len() - 1);
        self.keys[self.keys.len() - 1 - window..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&k| k == key)
            .count()
    }

    /// The result, checked in the order of the rules: den entered, no animals left,
    /// no legal move; then the draws by repetition and by the no-capture rule.
    pub fn result(&self) -> GameResult {
        if let Some((winner, reason)) = movegen::outcome(&self.position) {
            return GameResult::Win { winner, reason };
        }
        let rules = self.draw_rules;
        if rules.repetitions > 0 && self.repetition_count() >= rules.repetitions as usize {
            return GameResult::Draw(DrawReason::Repetition);
        }
        if rules.no_capture_plies > 0 && self.position.halfmove_clock() >= rules.no_capture_plies {
            return GameResult::Draw(DrawReason::NoCapture);
        }
        GameResult::Ongoing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn game(fen: &str) -> Game {
        Game::new(Position::from_fen(fen).unwrap())
    }

    fn play_all(g: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn start_is_ongoing() {
        assert_eq!(Game::startpos().result(), GameResult::Ongoing);
    }

    #[test]
    fn entering_the_enemy_den_wins() {
        // Red rat on d8 steps into the blue den d9.
        let mut g = game("l5t/3R3/7/7/7/7/7/7/6L r");
        play_all(&mut g, "d8d9");
        assert_eq!(
            g.result(),
            GameResult::Win {
                winner: Color::Red,
                reason: WinReason::Den
            }
        );
        assert!(matches!(g.play_text("a9a8"), Err(PlayError::GameOver(_))));
    }

    #[test]
    fn capturing_the_last_animal_wins() {
        // Blue's only animal, a cat on a5, is taken by the red dog from a4.
        let mut g = game("7/7/7/7/c6/D6/7/7/7 r");
        play_all(&mut g, "a4a5");
        assert_eq!(
            g.result(),
            GameResult::Win {
                winner: Color::Red,
                reason: WinReason::NoAnimals
            }
        );
    }

    #[test]
    fn side_without_a_legal_move_loses() {
        // Blue's only animal, a rat on a9, is boxed in by the red dog a8 and the red cat
        // b9, neither of which it may take.
        let g = game("rC5/D6/7/7/7/7/7/7/6L b");
        assert_eq!(
            g.result(),
            GameResult::Win {
                winner: Color::Red,
                reason: WinReason::NoMoves
            }
        );
    }

    #[test]
    fn third_repetition_draws() {
        let mut g = Game::startpos();
        play_all(&mut g, "a1b1 a9b9 b1a1 b9a9");
        assert_eq!(g.repetition_count(), 2);
        assert_eq!(g.result(), GameResult::Ongoing);
        play_all(&mut g, "a1b1 a9b9 b1a1");
        assert_eq!(g.result(), GameResult::Ongoing);
        play_all(&mut g, "b9a9");
        assert_eq!(g.repetition_count(), 3);
        assert_eq!(g.result(), GameResult::Draw(DrawReason::Repetition));
        assert!(matches!(g.play_text("a1b1"), Err(PlayError::GameOver(_))));
    }

    #[test]
    fn repetition_needs_the_same_side_to_move() {
        let mut g = Game::startpos();
        // After one ply the placement differs; after four it is the start again.
        play_all(&mut g, "a1a2");
        assert_eq!(g.repetition_count(), 1);
        play_all(&mut g, "a9b9 a2a1 b9a9");
        assert_eq!(g.repetition_count(), 2);
        g.draw_rules.repetitions = 0;
        play_all(&mut g, "a1a2 a9b9 a2a1 b9a9 a1a2 a9b9 a2a1 b9a9");
        assert_eq!(
            g.result(),
            GameResult::Ongoing,
            "repetition rule switched off"
        );
    }

    #[test]
    fn hundred_plies_without_capture_draw() {
        let mut g = game("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 98 60");
        g.draw_rules.repetitions = 0;
        play_all(&mut g, "a1b1");
        assert_eq!(g.result(), GameResult::Ongoing);
        play_all(&mut g, "a9b9");
        assert_eq!(g.position().halfmove_clock(), 100);
        assert_eq!(g.result(), GameResult::Draw(DrawReason::NoCapture));
    }

    #[test]
    fn a_capture_resets_the_no_capture_count() {
        // Red dog a4 takes the blue cat a5 at ply 99.
        let mut g = game("l6/7/7/7/c6/D6/7/7/6L r 99 80");
        play_all(&mut g, "a4a5");
        assert_eq!(g.position().halfmove_clock(), 0);
        assert_eq!(g.result(), GameResult::Ongoing);
    }

    #[test]
    fn win_on_the_board_comes_before_the_draws() {
        // The 100th quiet ply enters the den: the den wins.
        let mut g = game("l5t/3R3/7/7/7/7/7/7/6L r 99 80");
        play_all(&mut g, "d8d9");
        assert!(matches!(
            g.result(),
            GameResult::Win {
                winner: Color::Red,
                ..
            }
        ));
    }

    #[test]
    fn illegal_and_malformed_moves_leave_the_game_unchanged() {
        let mut g = Game::startpos();
        let before = *g.position();
        assert!(matches!(
            g.play_text("a1a3"),
            Err(PlayError::Move(MoveError::Illegal(_)))
        ));
        assert!(matches!(
            g.play_text("zz"),
            Err(PlayError::Move(MoveError::Malformed(_)))
        ));
        assert!(matches!(
            g.play_text("a9a8"),
            Err(PlayError::Move(MoveError::Illegal(_)))
        ));
        assert!(matches!(
            g.play_text("a1a1"),
            Err(PlayError::Move(MoveError::Illegal(_)))
        ));
        assert!(matches!(
            g.play_text("é1a1"),
            Err(PlayError::Move(MoveError::Malformed(_)))
        ));
        assert_eq!(*g.position(), before);
        assert!(g.moves().is_empty());
    }
}
