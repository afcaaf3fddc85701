//! The puzzle file format (protocol.md, "Puzzles"): one puzzle a line,
//!
//! ```text
//! id;position;before;solution;rules;goal;themes;rating
//! ```
//!
//! - `id`: 7 characters `0-9a-z`, made from the puzzle's position and line (`Puzzle::make_id`);
//! - `position`: a position string;
//! - `before`: moves the board plays from that position before the puzzle starts (the
//!   history the anti-chase rules count, or the opponent's last move), `-` for none;
//! - `solution`: the solver's move, the opponent's reply, …, ending on a solver move;
//! - `rules`: the rule set as a record's `[Rules]` tag writes it (`jungle`, `jungle-cn`);
//! - `goal`: `win` (the last move wins the game), `draw` (every solver move is the only
//!   one that does not lose, by the tables) or `hold` (every solver move is the only one
//!   that does not lose by force within the proof's depth);
//! - `themes`: names separated by `,` (`-` for none);
//! - `rating`: the puzzle's rating on the Glicko scale.
//!
//! Blank lines and lines starting with `#` are comments. A line read back is replayed
//! with the rules core: a position that is not a position, an illegal move or a line
//! that does not end as its goal says is an error naming the line.

use super::theme::Theme;
use crate::board::{Color, Move, Position};
use crate::game::{Game, GameResult, Rules};
use crate::rng::Rng;
use crate::text::quote;
use std::fmt;

/// What the solver achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Every solver move is the only one that wins (or keeps the win); the last one
    /// wins the game on the board.
    Win,
    /// Every solver move is the only one that does not lose (by the endgame tables);
    /// the line ends in a drawn position of the tables.
    Draw,
    /// Every solver move is the only one after which the opponent has no forced win
    /// within the proof's depth, where every other move loses by force (a position
    /// too big for the tables); the line ends with the game going on.
    Hold,
}

impl Goal {
    pub const ALL: [Goal; 3] = [Goal::Win, Goal::Draw, Goal::Hold];

    pub fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Draw => "draw",
            Goal::Hold => "hold",
        }
    }

    pub fn from_name(name: &str) -> Option<Goal> {
        Goal::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The solver defends: every other move loses (`draw`, `hold`).
    pub fn defends(self) -> bool {
        self != Goal::Win
    }
}

/// The lowest and highest rating a puzzle line may carry.
pub const RATING_RANGE: (u32, u32) = (100, 4000);

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub id: String,
    /// The position string's position (where `before` starts).
    pub start: Position,
    /// Moves played before the puzzle starts.
    pub before: Vec<Move>,
    /// The solver's moves and the opponent's replies, ending on a solver move.
    pub solution: Vec<Move>,
    pub rules: Rules,
    pub goal: Goal,
    pub themes: Vec<Theme>,
    pub rating: u32,
}

impl Puzzle {
    /// The game at the puzzle's start: the position string with `before` played.
    pub fn game(&self) -> Result<Game, String> {
        let mut game = Game::with_rules(self.start, self.rules);
        for (i, &m) in self.before.iter().enumerate() {
            game.play(m)
                .map_err(|e| format!("move {} '{m}' before the puzzle: {e}", i + 1))?;
        }
        if game.result() != GameResult::Ongoing {
            return Err(format!(
                "the game is over before the puzzle: {}",
                game.result()
            ));
        }
        Ok(game)
    }

    /// The side that solves the puzzle.
    pub fn solver(&self) -> Color {
        let side = self.start.side_to_move();
        if self.before.len() % 2 == 0 {
            side
        } else {
            side.other()
        }
    }

    /// The solver's moves only.
    pub fn solver_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.solution.iter().step_by(2).copied()
    }

    /// Replays the line with the rules core: every move legal, and the line ends as
    /// the goal says: with `Win`, the last move wins the game for the solver; with
    /// `Draw`, the game goes on (whether the position is a draw is the tables' to say:
    /// `verify::check_draw_end`). Returns the game at the end of the line.
    pub fn replay(&self) -> Result<Game, String> {
        if self.solution.len() % 2 == 0 {
            return Err("the solution must end on a solver move (an odd number of moves)".into());
        }
        let mut game = self.game()?;
        let solver = self.solver();
        for (i, &m) in self.solution.iter().enumerate() {
            if game.result() != GameResult::Ongoing {
                return Err(format!(
                    "solution move {} '{m}': the game is already over ({})",
                    i + 1,
                    game.result()
                ));
            }
            game.play(m)
                .map_err(|e| format!("solution move {} '{m}': {e}", i + 1))?;
        }
        match (self.goal, game.result()) {
            (Goal::Win, GameResult::Win { winner, .. }) if winner == solver => Ok(game),
            (Goal::Win, other) => Err(format!(
                "the solution should win for {solver} but ends with the game {other}"
            )),
            (Goal::Draw | Goal::Hold, GameResult::Ongoing) => Ok(game),
            (goal, other) => Err(format!(
                "a {} puzzle's line should leave the game going on, but it is {other}",
                goal.name()
            )),
        }
    }

    /// A short id from the puzzle's position (with its history) and its line: 7
    /// characters `0-9a-z`.
    pub fn make_id(&self) -> String {
        let mut h = Rng::new(self.start.key()).next_u64();
        for m in self.before.iter().chain(&self.solution) {
            h = Rng::new(h ^ u64::from(m.raw())).next_u64();
        }
        h = Rng::new(h ^ (self.before.len() as u64) << 32).next_u64();
        let mut id = String::new();
        for _ in 0..7 {
            let digit = (h % 36) as u32;
            id.push(char::from_digit(digit, 36).unwrap_or('0'));
            h /= 36;
        }
        id
    }

    /// Has `theme`.
    pub fn has(&self, theme: Theme) -> bool {
        self.themes.contains(&theme)
    }

    /// Reads one line of a puzzle file (not a comment) and replays it.
    pub fn parse(line: &str) -> Result<Puzzle, String> {
        let fields: Vec<&str> = line.trim().split(';').map(str::trim).collect();
        let [id, fen, before, solution, rules, goal, themes, rating] = fields[..] else {
            return Err(format!(
                "{} fields separated by ';', expected 8 (id;position;before;solution;rules;goal;themes;rating)",
                fields.len()
            ));
        };
        if id.is_empty() || id.len() > 16 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(format!(
                "bad id '{}': 1 to 16 letters and digits",
                quote(id)
            ));
        }
        let rules: Rules = rules.parse()?;
        let start =
            Position::from_fen_with(fen, rules.moves).map_err(|e| format!("position: {e}"))?;
        let before = parse_moves(before, "before")?;
        let solution = parse_moves(solution, "solution")?;
        if solution.is_empty() {
            return Err("the solution has no moves".into());
        }
        let goal = Goal::from_name(goal)
            .ok_or_else(|| format!("bad goal '{}': win, draw or hold", quote(goal)))?;
        let themes = if themes == "-" {
            Vec::new()
        } else {
            themes
                .split(',')
                .map(|t| {
                    Theme::from_name(t.trim())
                        .ok_or_else(|| format!("unknown theme '{}'", quote(t.trim())))
                })
                .collect::<Result<Vec<_>, _>>()?
        };
        let rating: u32 = rating
            .parse()
            .ok()
            .filter(|r| (RATING_RANGE.0..=RATING_RANGE.1).contains(r))
            .ok_or_else(|| {
                format!(
                    "bad rating '{}': a whole number from {} to {}",
                    quote(rating),
                    RATING_RANGE.0,
                    RATING_RANGE.1
                )
            })?;
        let puzzle = Puzzle {
            id: id.to_string(),
            start,
            before,
            solution,
            rules,
            goal,
            themes,
            rating,
        };
        puzzle.replay()?;
        Ok(puzzle)
    }
}

fn parse_moves(text: &str, field: &str) -> Result<Vec<Move>, String> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|t| {
            t.parse::<Move>()
                .map_err(|_| format!("{field}: '{}' is not a move", quote(t)))
        })
        .collect()
}

fn write_moves(f: &mut fmt::Formatter<'_>, moves: &[Move]) -> fmt::Result {
    if moves.is_empty() {
        return f.write_str("-");
    }
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            f.write_str(" ")?;
        }
        write!(f, "{m}")?;
    }
    Ok(())
}

impl fmt::Display for Puzzle {
    /// The puzzle as a line of a puzzle file (without the newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};{};", self.id, self.start.to_fen())?;
        write_moves(f, &self.before)?;
        f.write_str(";")?;
        write_moves(f, &self.solution)?;
        write!(f, ";{};{};", self.rules, self.goal.name())?;
        if self.themes.is_empty() {
            f.write_str("-")?;
        }
        for (i, t) in self.themes.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(t.name())?;
        }
        write!(f, ";{}", self.rating)
    }
}

/// Reads a puzzle file: every line that is not blank or a `#` comment is a puzzle.
/// Errors name the line.
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(Puzzle::parse(line).map_err(|e| format!("line {}: {e}", n + 1))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red's lion on d7 enters the den at d9 in two moves; Blue's rat is far away.
    const LINE: &str = "abc1234;7/7/3L3/7/7/7/7/7/r6 r 0 1;-;d7d8 a1a2 d8d9;jungle;win;den;900";

    #[test]
    fn a_line_reads_back_as_it_is_written() {
        let p = Puzzle::parse(LINE).expect("a puzzle");
        assert_eq!(p.solution.len(), 3);
        assert_eq!(p.solver(), Color::Red);
        assert_eq!(p.themes, vec![Theme::Den]);
        assert_eq!(p.to_string(), LINE);
        assert_eq!(
            read_puzzles(&format!("# c\n\n{LINE}\n"))
                .expect("reads")
                .len(),
            1
        );
        let id = p.make_id();
        assert_eq!(id.len(), 7);
        assert!(id
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()));
    }

    #[test]
    fn bad_lines_are_refused_with_a_reason() {
        let cases = [
            (LINE.replace(";900", ""), "fields"),
            (LINE.replace("abc1234", "a b"), "bad id"),
            (LINE.replace("3L3", "3L4"), "position"),
            (LINE.replace("d8d9;", "d8d7;"), "should win"),
            (LINE.replace("a1a2", "a1a3"), "solution move 2"),
            (LINE.replace("d7d8 a1a2 d8d9", "d7d8 a1a2"), "odd number"),
            (LINE.replace(";win;", ";lose;"), "bad goal"),
            (LINE.replace(";den;", ";dragons;"), "unknown theme"),
            (LINE.replace(";900", ";99999"), "bad rating"),
            (LINE.replace(";-;", ";x9y9;"), "not a move"),
            (LINE.replace(";jungle;", ";chess;"), "bad rules"),
            (LINE.replace(";win;", ";draw;"), "draw puzzle"),
        ];
        for (line, want) in cases {
            let err = Puzzle::parse(&line).expect_err(&line);
            assert!(err.contains(want), "{line}: {err}");
        }
        let err = read_puzzles(&format!("{LINE}\nnonsense\n")).expect_err("line 2");
        assert!(err.starts_with("line 2: "), "{err}");
    }

    #[test]
    fn moves_before_the_puzzle_change_the_solver() {
        let line = "abc1234;7/7/3L3/7/7/7/7/7/r6 b 0 1;a1b1;d7d8 b1a1 d8d9;jungle;win;den;900";
        let p = Puzzle::parse(line).expect("a puzzle");
        assert_eq!(p.solver(), Color::Red);
        assert_eq!(p.game().expect("plays").moves().len(), 1);
    }
}
