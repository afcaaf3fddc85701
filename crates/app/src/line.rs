//! The game line on the board: the start position and rules, the moves played (those
//! after the cursor kept for redo), the game at the cursor, and the referee's verdict
//! when a game between engines ended by a rule of the match rather than of the game.
//! Every move of the line was checked by the rules core when it was added.

use crate::api::Code;
use crate::board::{Color, Move, Position, WinReason};
use crate::game::{DrawReason, Game, GameResult, Rules};
use serde::Serialize;

/// A game decided by the referee rather than the rules (an illegal move, a crash, a
/// loss on time): it holds at the end of the line it was given at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub ply: usize,
    pub winner: Option<Color>,
    pub reason: String,
    /// The reason as the page words it.
    pub code: Code,
}

/// The rules' reasons for a win as the page words them.
fn win_reason_code(reason: WinReason) -> Code {
    match reason {
        WinReason::Den => Code::reason("den", &[]),
        WinReason::NoAnimals => Code::reason("noAnimals", &[]),
        WinReason::NoMoves => Code::reason("noMoves", &[]),
    }
}

fn draw_reason_code(reason: DrawReason) -> Code {
    match reason {
        DrawReason::Repetition => Code::reason("repetition", &[]),
        DrawReason::NoCapture => Code::reason("noCapture", &[]),
    }
}

/// What kind of move a move is, as the page draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MoveKind {
    /// It takes an animal.
    pub capture: bool,
    /// A lion's or tiger's jump across a river.
    pub jump: bool,
}

impl MoveKind {
    /// The kind of `m` (legal) in `pos`.
    pub fn of(pos: &Position, m: Move) -> MoveKind {
        MoveKind {
            capture: pos.is_capture(m),
            jump: m.is_jump(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct GameLine {
    rules: Rules,
    start: Position,
    moves: Vec<Move>,
    cursor: usize,
    /// The game after `cursor` moves.
    game: Game,
    verdict: Option<Verdict>,
}

impl Default for GameLine {
    fn default() -> Self {
        GameLine::new(Position::startpos(), Rules::default())
    }
}

impl GameLine {
    pub fn new(start: Position, rules: Rules) -> GameLine {
        GameLine {
            rules,
            start,
            moves: Vec::new(),
            cursor: 0,
            game: Game::with_rules(start, rules),
            verdict: None,
        }
    }

    /// A line of `moves` from `start`, the cursor after `cursor` of them; the moves
    /// must be legal under `rules` (a record's, replayed by the core).
    pub fn with_moves(start: Position, rules: Rules, moves: Vec<Move>, cursor: usize) -> GameLine {
        let mut line = GameLine {
            moves,
            ..GameLine::new(start, rules)
        };
        line.set_cursor(cursor);
        line
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The game at the cursor.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The game after `ply` moves of the line.
    pub fn game_at(&self, ply: usize) -> Game {
        let mut game = Game::with_rules(self.start, self.rules);
        for &m in &self.moves[..ply.min(self.moves.len())] {
            if game.play(m).is_err() {
                // Cannot happen: every move of the line was checked when it was added.
                break;
            }
        }
        game
    }

    /// The side to move after `ply` plies.
    pub fn mover_at(&self, ply: usize) -> Color {
        jungle_core::review::mover_at(&self.start, ply)
    }

    /// Moves the cursor (within the line).
    pub fn set_cursor(&mut self, ply: usize) {
        self.cursor = ply.min(self.moves.len());
        self.game = self.game_at(self.cursor);
        if self.verdict.as_ref().is_some_and(|v| v.ply != self.cursor) {
            self.verdict = None;
        }
    }

    /// Plays `m` (checked legal) at the cursor; the moves after it are dropped.
    pub fn push(&mut self, m: Move) {
        self.moves.truncate(self.cursor);
        self.moves.push(m);
        self.verdict = None;
        self.set_cursor(self.cursor + 1);
    }

    pub fn at_end(&self) -> bool {
        self.cursor == self.moves.len()
    }

    /// The referee ends the game at the cursor: `reason` in English, `code` as the page
    /// words it.
    pub fn decide(&mut self, winner: Option<Color>, reason: String, code: Code) {
        self.verdict = Some(Verdict {
            ply: self.cursor,
            winner,
            reason,
            code,
        });
    }

    /// The result shown: the referee's verdict at the cursor, or the rules'.
    pub fn result(&self) -> Option<(Option<Color>, String)> {
        self.result_code().map(|(w, reason, _)| (w, reason))
    }

    /// The result shown, with the reason's code (`reason.<key>` in the page's
    /// catalogues).
    pub fn result_code(&self) -> Option<(Option<Color>, String, Code)> {
        if let Some(v) = &self.verdict {
            return Some((v.winner, v.reason.clone(), v.code.clone()));
        }
        match self.game.result() {
            GameResult::Ongoing => None,
            GameResult::Win { winner, reason } => Some((
                Some(winner),
                reason.describe().into(),
                win_reason_code(reason),
            )),
            GameResult::Draw(reason) => {
                Some((None, reason.describe().into(), draw_reason_code(reason)))
            }
        }
    }

    /// The result of the whole line (its last position, or the verdict there):
    /// the winner and the words of the record's `Termination`; `None` while it goes on.
    pub fn final_result(&self) -> Option<(Option<Color>, String)> {
        if let Some(v) = self.verdict.as_ref().filter(|_| self.at_end()) {
            return Some((v.winner, v.reason.clone()));
        }
        match self.game_at(self.moves.len()).result() {
            GameResult::Ongoing => None,
            r @ GameResult::Win { winner, .. } => Some((Some(winner), r.to_string())),
            r @ GameResult::Draw(_) => Some((None, r.to_string())),
        }
    }

    /// Each move's kind (capture, jump), from the start.
    pub fn kinds(&self) -> Vec<MoveKind> {
        let mut pos = self.start;
        self.moves
            .iter()
            .map(|&m| {
                let kind = MoveKind::of(&pos, m);
                pos.play(m);
                kind
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().expect("a move")
    }

    #[test]
    fn the_cursor_walks_the_line_and_a_new_move_drops_the_rest() {
        let mut line = GameLine::default();
        for m in ["a3a4", "a7a6", "a4a5"] {
            line.push(mv(m));
        }
        line.set_cursor(1);
        assert_eq!(line.position().side_to_move(), Color::Blue);
        assert_eq!(line.moves().len(), 3);
        line.push(mv("g7g6"));
        assert_eq!(line.moves().len(), 2);
        assert!(line.at_end());
        assert_eq!(line.mover_at(2), Color::Red);
        line.set_cursor(99);
        assert_eq!(line.cursor(), 2);
    }

    #[test]
    fn a_verdict_holds_where_it_was_given() {
        let mut line = GameLine::default();
        line.push(mv("a3a4"));
        line.decide(
            Some(Color::Blue),
            "Red lost on time".into(),
            Code::reason("time", &[("engine", "Red")]),
        );
        assert_eq!(line.result().map(|r| r.0), Some(Some(Color::Blue)));
        assert!(line.final_result().is_some());
        line.set_cursor(0);
        assert_eq!(line.result(), None);
        assert_eq!(line.final_result(), None);
    }

    #[test]
    fn kinds_name_captures_and_jumps() {
        // Red's lion c3 jumps the river to c7, where Blue's wolf stands.
        let start = Position::from_fen("l6/7/2w4/7/7/7/2L4/7/6T r").expect("valid");
        let mut line = GameLine::new(start, Rules::default());
        line.push(mv("c3c7"));
        line.push(mv("a9a8"));
        line.push(mv("c7d7"));
        let kinds = line.kinds();
        assert_eq!(
            kinds[0],
            MoveKind {
                capture: true,
                jump: true
            }
        );
        assert_eq!(
            kinds[1],
            MoveKind {
                capture: false,
                jump: false
            }
        );
        assert_eq!(
            kinds[2],
            MoveKind {
                capture: false,
                jump: false
            }
        );
        let quiet = Position::from_fen("l6/7/7/7/7/7/2L4/7/6T r").expect("valid");
        let mut jump = GameLine::new(quiet, Rules::default());
        jump.push(mv("c3c7"));
        assert_eq!(
            jump.kinds()[0],
            MoveKind {
                capture: false,
                jump: true
            }
        );
    }
}
