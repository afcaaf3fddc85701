//! A game: the position plus its history, so that draws by repetition and by the
//! no-capture rule (and the history-dependent anti-chase rules) are decided exactly,
//! and the result of the game can be reported.

pub mod anti_chase;

use crate::board::movegen::{self, MoveError};
use crate::board::rules::MoveRuleFlags;
use crate::board::{why_illegal_with, Color, Illegal, Move, MoveList, Position, WinReason};
use crate::with_move_rules;
use anti_chase::{Forbidden, MoveRecord};
use std::fmt;

/// The named rule sets (`UCI_Variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The rules in `protocol.md`.
    Jungle,
    /// Chinese online rules: 200 plies without capture draw, no repetition draw, the
    /// 7-3 and 17-5 anti-chase rules.
    JungleCn,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Jungle => "jungle",
            Variant::JungleCn => "jungle-cn",
        }
    }

    pub fn from_name(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "jungle" => Some(Variant::Jungle),
            "jungle-cn" => Some(Variant::JungleCn),
            _ => None,
        }
    }

    /// The full rule set this variant stands for.
    pub fn rules(self) -> Rules {
        match self {
            Variant::Jungle => Rules::default(),
            Variant::JungleCn => Rules {
                variant: Variant::JungleCn,
                moves: MoveRuleFlags::default(),
                draw: DrawRules {
                    no_capture_plies: 200,
                    repetitions: 0,
                },
                anti_chase: true,
            },
        }
    }
}

/// Every rule choice of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub variant: Variant,
    pub moves: MoveRuleFlags,
    pub draw: DrawRules,
    /// The 7-3 and 17-5 anti-chase rules.
    pub anti_chase: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            variant: Variant::Jungle,
            moves: MoveRuleFlags::default(),
            draw: DrawRules::default(),
            anti_chase: false,
        }
    }
}

impl fmt::Display for Rules {
    /// The variant's name alone when the rules are exactly that variant's, else the
    /// name and every setting: `jungle (dog swims, no-capture draw 100 plies, …)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == self.variant.rules() {
            return f.write_str(self.variant.name());
        }
        let mut parts = Vec::new();
        if self.moves.dog_swims {
            parts.push("dog swims".to_string());
        }
        if self.moves.trapped_lose_attack {
            parts.push("trapped animals lose their attack".to_string());
        }
        parts.push(match self.draw.no_capture_plies {
            0 => "no-capture draw off".to_string(),
            n => format!("no-capture draw {n} plies"),
        });
        parts.push(match self.draw.repetitions {
            0 => "repetition draw off".to_string(),
            n => format!("repetition draw at {n} occurrences"),
        });
        if self.anti_chase {
            parts.push("anti-chase 7-3/17-5".to_string());
        }
        write!(f, "{} ({})", self.variant.name(), parts.join(", "))
    }
}

impl std::str::FromStr for Rules {
    type Err = String;

    /// Reads what `Display` writes (a record's `[Rules "…"]` tag): a variant's name
    /// alone, or the name and every setting in parentheses.
    fn from_str(text: &str) -> Result<Rules, String> {
        let bad = |what: &str| format!("bad rules '{}': {what}", crate::text::quote(text));
        let (name, settings) = match text.split_once('(') {
            Some((name, rest)) => {
                let inner = rest
                    .trim_end()
                    .strip_suffix(')')
                    .ok_or_else(|| bad("missing ')'"))?;
                (name.trim(), Some(inner))
            }
            None => (text.trim(), None),
        };
        let variant = Variant::from_name(name).ok_or_else(|| bad("unknown rule set"))?;
        let Some(settings) = settings else {
            return Ok(variant.rules());
        };
        let mut rules = Rules {
            variant,
            moves: MoveRuleFlags::default(),
            draw: DrawRules {
                no_capture_plies: 0,
                repetitions: 0,
            },
            anti_chase: false,
        };
        for part in settings.split(',').map(str::trim) {
            let number = |prefix: &str, suffix: &str| {
                part.strip_prefix(prefix)
                    .and_then(|r| r.strip_suffix(suffix))
                    .and_then(|n| n.parse::<u16>().ok())
            };
            match part {
                "dog swims" => rules.moves.dog_swims = true,
                "trapped animals lose their attack" => rules.moves.trapped_lose_attack = true,
                "anti-chase 7-3/17-5" => rules.anti_chase = true,
                "no-capture draw off" | "repetition draw off" => {}
                _ => {
                    if let Some(n) = number("no-capture draw ", " plies") {
                        rules.draw.no_capture_plies = n;
                    } else if let Some(n) = number("repetition draw at ", " occurrences") {
                        rules.draw.repetitions =
                            u8::try_from(n).map_err(|_| bad("too many repetitions"))?;
                    } else {
                        return Err(bad(&format!(
                            "unknown setting '{}'",
                            crate::text::quote(part)
                        )));
                    }
                }
            }
        }
        Ok(rules)
    }
}

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
    /// Every move with its animal and side (for the anti-chase rules).
    records: Vec<MoveRecord>,
    rules: Rules,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game::with_rules(start, Rules::default())
    }

    pub fn with_rules(start: Position, rules: Rules) -> Game {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            keys: vec![start.key()],
            records: Vec::new(),
            rules,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Changes the draw rules (the moves played stay valid).
    pub fn set_draw_rules(&mut self, draw: DrawRules) {
        self.rules.draw = draw;
    }

    /// The moves of the game with their animals and sides, oldest first.
    pub fn records(&self) -> &[MoveRecord] {
        &self.records
    }

    /// What the anti-chase rules forbid to the side to move (nothing when off).
    pub fn forbidden(&self) -> Forbidden {
        if !self.rules.anti_chase {
            return Forbidden::default();
        }
        with_move_rules!(self.rules.moves, R => anti_chase::forbidden::<R>(&self.position, &self.records))
    }

    /// Why the board's rules refuse `m` here, naming the rule (`None`: the board allows
    /// it; the anti-chase rules are `chase_explanation`'s).
    pub fn why_illegal(&self, m: Move) -> Option<Illegal> {
        with_move_rules!(self.rules.moves, R => why_illegal_with::<R>(&self.position, m))
    }

    /// Why the anti-chase rules forbid `m` now, naming the rule, if they do.
    pub fn chase_explanation(&self, m: Move) -> Option<String> {
        if !self.rules.anti_chase {
            return None;
        }
        with_move_rules!(self.rules.moves, R => anti_chase::explain::<R>(&self.position, &self.records, m))
    }

    /// The legal moves of the side to move under all the rules of the game.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        with_move_rules!(self.rules.moves, R => movegen::generate_with::<R>(&self.position, &mut list));
        let forbidden = self.forbidden();
        if forbidden.is_empty() {
            return list;
        }
        let mut allowed = MoveList::new();
        for &m in list.iter() {
            if !forbidden.forbids(self.position.mover(m), m.to()) {
                allowed.push(m);
            }
        }
        allowed
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
        if !self.legal_moves().contains(m) {
            return Err(PlayError::Move(MoveError::Illegal(m.to_string())));
        }
        self.play_legal(m);
        Ok(())
    }

    /// Plays `m`, which the caller took from `legal_moves()` of this game while it
    /// was going on: nothing is checked again (for callers that step many games and
    /// hold the legal moves already; `play` checks).
    pub fn play_legal(&mut self, m: Move) {
        self.records.push(MoveRecord::of(&self.position, m));
        self.position.play(m);
        self.moves.push(m);
        self.keys.push(self.position.key());
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
        let m = self.parse_move(text).map_err(PlayError::Move)?;
        self.play(m)?;
        Ok(m)
    }

    /// Reads a move in coordinate notation and checks it against all the rules of the
    /// game, the anti-chase rules included.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = with_move_rules!(self.rules.moves, R => self.position.parse_move_with::<R>(text))?;
        self.allowed(m, text)
    }

    /// `m`, unless the anti-chase rules forbid it now (`shown`: how the error names it).
    fn allowed(&self, m: Move, shown: &str) -> Result<Move, MoveError> {
        if self.forbidden().forbids(self.position.mover(m), m.to()) {
            return Err(MoveError::Forbidden(shown.to_string()));
        }
        Ok(m)
    }

    /// Plays `m` with the checks and the errors of `play_text` on its text, for a
    /// caller that holds moves as values.
    pub fn play_checked(&mut self, m: Move) -> Result<(), PlayError> {
        self.ensure_ongoing()?;
        let legal =
            with_move_rules!(self.rules.moves, R => movegen::is_legal_with::<R>(&self.position, m));
        if !legal {
            return Err(PlayError::Move(MoveError::Illegal(m.to_string())));
        }
        self.allowed(m, &m.to_string()).map_err(PlayError::Move)?;
        self.play(m)
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
        if let Some((winner, reason)) = self.position.decided_on_board() {
            return GameResult::Win { winner, reason };
        }
        self.result_with(&self.legal_moves())
    }

    /// `result`, for a caller that holds `legal_moves()` of the current position.
    pub fn result_with(&self, legal: &MoveList) -> GameResult {
        if let Some((winner, reason)) = self.position.decided_on_board() {
            return GameResult::Win { winner, reason };
        }
        if legal.is_empty() {
            return GameResult::Win {
                winner: self.position.side_to_move().other(),
                reason: WinReason::NoMoves,
            };
        }
        let rules = self.rules.draw;
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

    #[test]
    fn rules_read_back_what_they_print() {
        for variant in [Variant::Jungle, Variant::JungleCn] {
            for dog_swims in [false, true] {
                for trapped_lose_attack in [false, true] {
                    for no_capture_plies in [0, 100, 200, 1000] {
                        for repetitions in [0, 3, 10] {
                            for anti_chase in [false, true] {
                                let rules = Rules {
                                    variant,
                                    moves: MoveRuleFlags {
                                        dog_swims,
                                        trapped_lose_attack,
                                    },
                                    draw: DrawRules {
                                        no_capture_plies,
                                        repetitions,
                                    },
                                    anti_chase,
                                };
                                let text = rules.to_string();
                                assert_eq!(text.parse::<Rules>(), Ok(rules), "{text}");
                            }
                        }
                    }
                }
            }
        }
        assert_eq!("jungle-cn".parse::<Rules>(), Ok(Variant::JungleCn.rules()));
        for bad in [
            "",
            "chess",
            "jungle (dog swims",
            "jungle (flying dogs)",
            "jungle (repetition draw at 999 occurrences)",
        ] {
            assert!(bad.parse::<Rules>().is_err(), "{bad}");
        }
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
        g.set_draw_rules(DrawRules {
            repetitions: 0,
            ..DrawRules::default()
        });
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
        g.set_draw_rules(DrawRules {
            repetitions: 0,
            ..DrawRules::default()
        });
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
