//! `Board`, `Move`, `Piece` and `Outcome`: the rules as python-chess users expect
//! them, every question answered by the core's `Game`.

use crate::args;
use crate::encoding::{self, NUM_ACTIONS, OBSERVATION_SIZE, PLANES};
use crate::rules::{parse_rules, start_position, RuleArgs};
use crate::wait::interruptible;
use jungle_core::board::geometry::{JUMPS, NEIGHBOURS};
use jungle_core::board::movegen::MoveError;
use jungle_core::board::{Animal, Color, Move, MoveList, Piece, Position, Square, WinReason};
use jungle_core::game::{DrawReason, Game, GameResult, PlayError, Rules};
use jungle_core::tools::perft::perft_until;
use jungle_core::with_move_rules;
use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft a board counts (as the protocol's `perft`).
const MAX_PERFT_DEPTH: i64 = 32;

pub fn color_name(c: Color) -> &'static str {
    c.name()
}

fn color_of(name: &str) -> PyResult<Color> {
    match name.to_ascii_lowercase().as_str() {
        "red" => Ok(Color::Red),
        "blue" => Ok(Color::Blue),
        _ => Err(PyValueError::new_err(format!(
            "'{}' is not a side (red or blue)",
            jungle_core::text::quote(name)
        ))),
    }
}

/// A move from one square to another (`Move.from_uci("g3g4")`). A move is only
/// checked against the rules when a board plays it.
#[pyclass(module = "jungle", name = "Move", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PyMove(pub Move);

impl PyMove {
    /// The move of coordinate text such as `g3g4` (from-square, to-square).
    pub fn from_uci(text: &str) -> PyResult<PyMove> {
        let malformed =
            || PyValueError::new_err(MoveError::Malformed(text.to_string()).to_string());
        if text.len() != 4 || !text.is_char_boundary(2) {
            return Err(malformed());
        }
        let from = text[..2].parse::<Square>().map_err(|_| malformed())?;
        let to = text[2..].parse::<Square>().map_err(|_| malformed())?;
        PyMove::between(from, to)
    }

    /// The move from `from` to `to` when some position could have it: one square
    /// along a rank or a file, or a river jump; else `ValueError` saying so (no board
    /// is asked: whether it is legal is a board's question).
    pub fn between(from: Square, to: Square) -> PyResult<PyMove> {
        if from == to {
            return Err(PyValueError::new_err(format!(
                "'{from}{to}' is not a move: it starts and ends on {from}"
            )));
        }
        if !NEIGHBOURS[from.index()].contains(to) && !JUMPS[from.index()].targets().contains(to) {
            return Err(PyValueError::new_err(format!(
                "'{from}{to}' is not a move in Jungle: an animal goes one square along a rank \
                 or a file, or a lion or tiger jumps a river"
            )));
        }
        Ok(PyMove(Move::new(from, to)))
    }
}

#[pymethods]
impl PyMove {
    #[new]
    fn new(from_square: &Bound<'_, PyAny>, to_square: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let from = args::square(from_square, "from_square")?;
        let to = args::square(to_square, "to_square")?;
        PyMove::between(from, to)
    }

    /// The move of coordinate text such as `g3g4` (from-square, to-square).
    #[staticmethod]
    #[pyo3(name = "from_uci")]
    fn py_from_uci(text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        PyMove::from_uci(&args::text(text, "text")?)
    }

    /// The move as coordinate text (`"g3g4"`).
    pub fn uci(&self) -> String {
        self.0.to_string()
    }

    /// The number of the square the move leaves (0 = a1 … 62 = g9).
    #[getter(from_square)]
    fn origin(&self) -> usize {
        self.0.from().index()
    }

    /// The number of the square the move goes to.
    #[getter(to_square)]
    fn target(&self) -> usize {
        self.0.to().index()
    }

    /// The move's action number in the learning environments (`from * 4 + direction`).
    #[getter]
    fn action(&self) -> usize {
        encoding::action_of(self.0)
    }

    fn __str__(&self) -> String {
        self.uci()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.0)
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, (String,))> {
        let from_uci = slf.get_type().getattr("from_uci")?;
        Ok((from_uci.unbind(), (slf.get().uci(),)))
    }
}

/// An animal of one side.
#[pyclass(module = "jungle", name = "Piece", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyPiece(pub Piece);

#[pymethods]
impl PyPiece {
    #[new]
    fn new(color: &Bound<'_, PyAny>, animal: &Bound<'_, PyAny>) -> PyResult<PyPiece> {
        let color = color_of(&args::text(color, "color")?)?;
        let animal = args::text(animal, "animal")?;
        let found = Animal::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(&animal));
        let animal = found.ok_or_else(|| {
            PyValueError::new_err(format!(
                "'{}' is not an animal (rat, cat, dog, wolf, leopard, tiger, lion, elephant)",
                jungle_core::text::quote(&animal)
            ))
        })?;
        Ok(PyPiece(Piece::new(color, animal)))
    }

    /// The piece of a letter of the position string (`E` red elephant, `r` blue rat).
    #[staticmethod]
    fn from_symbol(symbol: &Bound<'_, PyAny>) -> PyResult<PyPiece> {
        let symbol = args::text(symbol, "symbol")?;
        let mut chars = symbol.chars();
        match (chars.next().and_then(Piece::from_letter), chars.next()) {
            (Some(p), None) => Ok(PyPiece(p)),
            _ => Err(PyValueError::new_err(format!(
                "'{}' is not an animal letter (E L T P W D C R, lower case for Blue)",
                jungle_core::text::quote(&symbol)
            ))),
        }
    }

    /// `"red"` or `"blue"`.
    #[getter]
    fn color(&self) -> &'static str {
        color_name(self.0.color)
    }

    /// `rat`, `cat`, `dog`, `wolf`, `leopard`, `tiger`, `lion` or `elephant`.
    #[getter]
    fn animal(&self) -> &'static str {
        self.0.animal.name()
    }

    /// 1 (rat) to 8 (elephant).
    #[getter]
    fn rank(&self) -> u8 {
        self.0.animal.rank()
    }

    /// The letter of the position string (`E` red elephant, `r` blue rat).
    fn symbol(&self) -> String {
        self.0.letter().to_string()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Piece('{}', '{}')", self.color(), self.animal())
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, (&'static str, &'static str))> {
        let piece = slf.get();
        Ok((
            slf.get_type().into_any().unbind(),
            (piece.color(), piece.animal()),
        ))
    }
}

/// How a game ended: the winner (`"red"`, `"blue"` or `None` for a draw), the
/// termination (`den`, `no_animals`, `no_moves`, `repetition`, `no_capture`) and the
/// reason in words.
#[pyclass(module = "jungle", name = "Outcome", frozen, eq, get_all)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyOutcome {
    /// `"red"` or `"blue"`, or `None` for a draw.
    winner: Option<&'static str>,
    /// `den`, `no_animals`, `no_moves`, `repetition` or `no_capture`.
    termination: &'static str,
    /// The reason in words.
    reason: &'static str,
}

/// What `Outcome(winner, termination)` is rebuilt from.
type OutcomeArgs = (Option<&'static str>, &'static str);

/// The terminations, each with its result: the winner's (`true`) or a draw's.
const TERMINATIONS: [(&str, bool); 5] = [
    ("den", true),
    ("no_animals", true),
    ("no_moves", true),
    ("repetition", false),
    ("no_capture", false),
];

#[pymethods]
impl PyOutcome {
    /// `Outcome(winner, termination)`: a win (`winner` `"red"` or `"blue"`, by `den`,
    /// `no_animals` or `no_moves`) or a draw (`winner` `None`, by `repetition` or
    /// `no_capture`), as `Board.outcome()` gives them (and pickling rebuilds them).
    #[new]
    fn new(winner: Option<&Bound<'_, PyAny>>, termination: &Bound<'_, PyAny>) -> PyResult<Self> {
        let winner = match winner.filter(|w| !w.is_none()) {
            Some(w) => Some(color_of(&args::text(w, "winner")?)?),
            None => None,
        };
        let termination = args::text(termination, "termination")?;
        let names: Vec<&str> = TERMINATIONS.iter().map(|(t, _)| *t).collect();
        let Some(&(_, won)) = TERMINATIONS.iter().find(|(t, _)| *t == termination) else {
            return Err(PyValueError::new_err(format!(
                "termination: '{}' is not one of {}",
                jungle_core::text::quote(&termination),
                names.join(", ")
            )));
        };
        let result = match (winner, won) {
            (Some(winner), true) => GameResult::Win {
                winner,
                reason: match termination.as_str() {
                    "den" => WinReason::Den,
                    "no_animals" => WinReason::NoAnimals,
                    _ => WinReason::NoMoves,
                },
            },
            (None, false) => GameResult::Draw(match termination.as_str() {
                "repetition" => DrawReason::Repetition,
                _ => DrawReason::NoCapture,
            }),
            (Some(_), false) => {
                return Err(PyValueError::new_err(format!(
                    "a game ended by {termination} is a draw: its winner is None"
                )))
            }
            (None, true) => {
                return Err(PyValueError::new_err(format!(
                    "a game ended by {termination} has a winner ('red' or 'blue')"
                )))
            }
        };
        outcome_of(result).ok_or_else(|| PyRuntimeError::new_err("no outcome of a game over"))
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, OutcomeArgs)> {
        let outcome = slf.get();
        Ok((
            slf.get_type().into_any().unbind(),
            (outcome.winner, outcome.termination),
        ))
    }

    /// `1-0` (Red won), `0-1` (Blue won) or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some("red") => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self) -> String {
        match self.winner {
            Some(w) => format!("Outcome(winner='{w}', termination='{}')", self.termination),
            None => format!("Outcome(winner=None, termination='{}')", self.termination),
        }
    }

    fn __str__(&self) -> String {
        match self.winner {
            Some(w) => format!("{w} wins ({})", self.reason),
            None => format!("draw ({})", self.reason),
        }
    }
}

pub fn outcome_of(result: GameResult) -> Option<PyOutcome> {
    let (winner, termination, reason) = match result {
        GameResult::Ongoing => return None,
        GameResult::Win { winner, reason } => {
            let termination = match reason {
                WinReason::Den => "den",
                WinReason::NoAnimals => "no_animals",
                WinReason::NoMoves => "no_moves",
            };
            (Some(color_name(winner)), termination, reason.describe())
        }
        GameResult::Draw(reason) => {
            let termination = match reason {
                DrawReason::Repetition => "repetition",
                DrawReason::NoCapture => "no_capture",
            };
            (None, termination, reason.describe())
        }
    };
    Some(PyOutcome {
        winner,
        termination,
        reason,
    })
}

/// A game of Jungle: a position, the moves that led to it, and the rules.
///
/// `Board(fen=None, rules="jungle", dog_swims=None, trapped_lose_attack=None,
/// no_capture_plies=None, repetitions=None, anti_chase=None)`: `rules` names the rule
/// set (`jungle`, or `jungle-cn` for the Chinese online rules with the 7-3 and 17-5
/// anti-chase rules); the other settings change it.
#[pyclass(module = "jungle", name = "Board", eq, from_py_object)]
#[derive(Clone)]
pub struct PyBoard {
    pub game: Game,
}

impl PartialEq for PyBoard {
    /// The same position (placement, side to move, counters) under the same rules, as
    /// python-chess compares boards (the move stacks may differ).
    fn eq(&self, other: &Self) -> bool {
        self.game.position() == other.game.position() && self.game.rules() == other.game.rules()
    }
}

impl PyBoard {
    pub fn new_game(start: Position, rules: Rules) -> PyBoard {
        PyBoard {
            game: Game::with_rules(start, rules),
        }
    }

    /// The legal moves: none once the game is over, whatever ended it (python-chess's
    /// rule), else every move the rules allow now.
    pub fn legal(&self) -> MoveList {
        encoding::shown_moves(&self.game)
    }

    /// Whether actions are seen from Blue's side: with `perspective="side_to_move"`
    /// when Blue is to move.
    fn mover_flips(&self, perspective: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let side_to_move = args::perspective(perspective)?;
        Ok(side_to_move && self.game.position().side_to_move() == Color::Blue)
    }

    /// Plays `m`, or says why not in the core's words (naming the anti-chase rule that
    /// forbids it); the board is unchanged on error.
    pub fn play(&mut self, m: Move) -> PyResult<()> {
        self.game
            .play(m)
            .map_err(|e| PyValueError::new_err(self.refusal(m, e)))
    }

    fn refusal(&self, m: Move, error: PlayError) -> String {
        if let PlayError::Move(MoveError::Illegal(_)) = error {
            if let Err(forbidden @ MoveError::Forbidden(_)) = self.game.parse_move(&m.to_string()) {
                let why = self.game.chase_explanation(m).unwrap_or_default();
                return format!("{forbidden}: {why}");
            }
        }
        error.to_string()
    }

    fn rebuild(&mut self, moves: &[Move]) -> PyResult<()> {
        let mut game = Game::with_rules(*self.game.start_position(), *self.game.rules());
        for &m in moves {
            game.play(m)
                .map_err(|e| PyRuntimeError::new_err(format!("replaying the game failed: {e}")))?;
        }
        self.game = game;
        Ok(())
    }
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen=None, *, rules=None, dog_swims=None, trapped_lose_attack=None,
        no_capture_plies=None, repetitions=None, anti_chase=None))]
    fn py_new(
        fen: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        dog_swims: Option<&Bound<'_, PyAny>>,
        trapped_lose_attack: Option<&Bound<'_, PyAny>>,
        no_capture_plies: Option<&Bound<'_, PyAny>>,
        repetitions: Option<&Bound<'_, PyAny>>,
        anti_chase: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBoard> {
        let rules = RuleArgs {
            rules,
            dog_swims,
            trapped_lose_attack,
            no_capture_plies,
            repetitions,
            anti_chase,
        }
        .resolve()?;
        let start = start_position(fen, &rules)?;
        Ok(PyBoard::new_game(start, rules))
    }

    /// A board from its start position, rules (as `str(board.rules)` writes them) and
    /// moves: what pickling stores.
    #[staticmethod]
    fn from_moves(start_fen: &str, rules: &str, moves: Vec<String>) -> PyResult<PyBoard> {
        let rules = parse_rules(rules)?;
        let start = Position::from_fen_with(start_fen, rules.moves)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut board = PyBoard::new_game(start, rules);
        for text in moves {
            let m = PyMove::from_uci(&text)?.0;
            board.play(m)?;
        }
        Ok(board)
    }

    /// The position string (`l5t/1d3c1/… r 0 1`).
    fn fen(&self) -> String {
        self.game.position().to_fen()
    }

    /// The position the game started from.
    fn start_fen(&self) -> String {
        self.game.start_position().to_fen()
    }

    /// The rule set, as a record's `[Rules]` tag writes it (`jungle`, `jungle-cn`,
    /// `jungle (dog swims, no-capture draw 100 plies, …)`).
    #[getter]
    fn rules(&self) -> String {
        self.game.rules().to_string()
    }

    /// The named rule set the rules start from (`jungle` or `jungle-cn`).
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.rules().variant.name()
    }

    /// Whether the dog may swim (a rule variant).
    #[getter]
    fn dog_swims(&self) -> bool {
        self.game.rules().moves.dog_swims
    }

    /// Whether an animal in an enemy trap cannot capture (a rule variant).
    #[getter]
    fn trapped_lose_attack(&self) -> bool {
        self.game.rules().moves.trapped_lose_attack
    }

    /// Plies without a capture that draw (0: no such rule).
    #[getter]
    fn no_capture_plies(&self) -> u16 {
        self.game.rules().draw.no_capture_plies
    }

    /// Occurrences of a position that draw (0: no such rule).
    #[getter]
    fn repetitions(&self) -> u8 {
        self.game.rules().draw.repetitions
    }

    /// The 7-3 and 17-5 anti-chase rules.
    #[getter]
    fn anti_chase(&self) -> bool {
        self.game.rules().anti_chase
    }

    /// The `setoption` name/value pairs that select these rules in an engine.
    fn rule_options(&self) -> Vec<(String, String)> {
        jungle_core::protocol::options::rule_settings(*self.game.rules())
    }

    /// `"red"` or `"blue"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.game.position().side_to_move())
    }

    /// Plies since the last capture.
    #[getter]
    fn halfmove_clock(&self) -> u16 {
        self.game.position().halfmove_clock()
    }

    /// The move number: 1 at the start, one more after each of Blue's moves.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.game.position().fullmove_number()
    }

    /// The legal moves under every rule of the game (the anti-chase rules included).
    #[getter]
    fn legal_moves(&self) -> Vec<PyMove> {
        self.legal().iter().map(|&m| PyMove(m)).collect()
    }

    /// Whether a move (a `Move` or text) is legal now; text that is no move is not.
    #[pyo3(signature = (r#move))]
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        match args::move_of(r#move, "move") {
            Ok(m) => Ok(self.legal().contains(m)),
            Err(e) if e.is_instance_of::<PyValueError>(r#move.py()) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Plays a move (a `Move` or text like `"g3g4"`); `ValueError` says why a move
    /// cannot be played (the anti-chase refusals name their rule).
    #[pyo3(signature = (r#move))]
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = args::move_of(r#move, "move")?;
        self.play(m)
    }

    /// Plays a move given as text and returns it.
    fn push_uci(&mut self, text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let m = PyMove::from_uci(&args::text(text, "text")?)?.0;
        self.play(m)?;
        Ok(PyMove(m))
    }

    /// The legal move of a text, or `ValueError` with the reason it is not one.
    fn parse_uci(&self, text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let text = args::text(text, "text")?;
        let text = text.as_str();
        self.game.parse_move(text).map(PyMove).map_err(|e| match e {
            MoveError::Forbidden(_) => {
                let m = PyMove::from_uci(text).map(|m| m.0);
                let why = m.ok().and_then(|m| self.game.chase_explanation(m));
                PyValueError::new_err(format!("{e}: {}", why.unwrap_or_default()))
            }
            other => PyValueError::new_err(other.to_string()),
        })
    }

    /// Why the anti-chase rules (7-3, 17-5) forbid a move now, naming the rule; `None`
    /// when they do not.
    #[pyo3(signature = (r#move))]
    fn chase_reason(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let m = args::move_of(r#move, "move")?;
        Ok(match self.game.parse_move(&m.to_string()) {
            Err(MoveError::Forbidden(_)) => self.game.chase_explanation(m),
            _ => None,
        })
    }

    /// Takes back the last move and returns it (`IndexError` when there is none).
    fn pop(&mut self) -> PyResult<PyMove> {
        let moves = self.game.moves();
        let Some((&last, earlier)) = moves.split_last() else {
            return Err(PyIndexError::new_err("pop from an empty move stack"));
        };
        let earlier = earlier.to_vec();
        self.rebuild(&earlier)?;
        Ok(PyMove(last))
    }

    /// The last move played (`IndexError` when there is none).
    fn peek(&self) -> PyResult<PyMove> {
        self.game
            .moves()
            .last()
            .map(|&m| PyMove(m))
            .ok_or_else(|| PyIndexError::new_err("peek at an empty move stack"))
    }

    /// The moves played on this board, first to last.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.game.moves().iter().map(|&m| PyMove(m)).collect()
    }

    /// Plies played on this board.
    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// The board back at its start position, with the same rules.
    fn reset(&mut self) {
        self.game = Game::with_rules(*self.game.start_position(), *self.game.rules());
    }

    /// A copy with its own move stack.
    fn copy(&self) -> PyBoard {
        self.clone()
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> PyBoard {
        self.clone()
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, Py<PyTuple>)> {
        let this = slf.borrow();
        let moves: Vec<String> = this.game.moves().iter().map(Move::to_string).collect();
        let args = PyTuple::new(
            slf.py(),
            [
                this.start_fen().into_pyobject(slf.py())?.into_any(),
                this.rules().into_pyobject(slf.py())?.into_any(),
                moves.into_pyobject(slf.py())?.into_any(),
            ],
        )?;
        let from_moves = slf.get_type().getattr("from_moves")?;
        Ok((from_moves.unbind(), args.unbind()))
    }

    /// The animal on a square (its number 0–62 or its name), or `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let square = args::square(square, "square")?;
        Ok(self.game.position().piece_at(square).map(PyPiece))
    }

    /// Every animal on the board: a dict from square numbers (ascending) to `Piece`s.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let pos = self.game.position();
        let map = PyDict::new(py);
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                map.set_item(sq.index(), PyPiece(p))?;
            }
        }
        Ok(map)
    }

    /// The placement part of the position string (`l5t/1d3c1/…/T5L`).
    fn board_fen(&self) -> String {
        let fen = self.fen();
        fen.split(' ').next().unwrap_or_default().to_string()
    }

    /// Sets the position from a position string under the board's rules; the move
    /// stack is cleared (`ValueError` for a bad string, the board unchanged).
    fn set_fen(&mut self, fen: &Bound<'_, PyAny>) -> PyResult<()> {
        let rules = *self.game.rules();
        let start = start_position(Some(fen), &rules)?;
        self.game = Game::with_rules(start, rules);
        Ok(())
    }

    /// A board at this one's start position, with its rules and no moves.
    fn root(&self) -> PyBoard {
        PyBoard::new_game(*self.game.start_position(), *self.game.rules())
    }

    /// The position seen from the other side: the board turned half round (a1 is g9;
    /// the board is symmetric so, and the start position maps onto itself) with the
    /// colours swapped, the other side to move; the counters kept, no moves.
    fn mirror(&self) -> PyResult<PyBoard> {
        let fen = self.fen();
        let mut fields = fen.split(' ');
        let placement = fields.next().unwrap_or_default();
        let turned: Vec<String> = placement
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .rev()
                    .map(|c| match c.is_ascii_uppercase() {
                        true => c.to_ascii_lowercase(),
                        false => c.to_ascii_uppercase(),
                    })
                    .collect()
            })
            .collect();
        let side = match fields.next() {
            Some("r") => "b",
            _ => "r",
        };
        let counters: Vec<&str> = fields.collect();
        let text = format!("{} {side} {}", turned.join("/"), counters.join(" "));
        let rules = *self.game.rules();
        let start = Position::from_fen_with(text.trim_end(), rules.moves)
            .map_err(|e| PyRuntimeError::new_err(format!("the mirrored position: {e}")))?;
        Ok(PyBoard::new_game(start, rules))
    }

    /// Whether the current position has occurred `count` times (default 3; this time
    /// included).
    #[pyo3(signature = (count=None))]
    fn is_repetition(&self, count: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let count = args::whole_opt(count, "count", 1, i64::MAX)?.unwrap_or(3) as usize;
        Ok(self.game.repetition_count() >= count)
    }

    /// Jungle's draws are not claimed: its rules (repetition, no capture) end the game
    /// themselves. True when one of them has, so that code written for python-chess
    /// reads the same.
    fn can_claim_draw(&self) -> bool {
        matches!(self.game.result(), GameResult::Draw(_))
    }

    /// Whether a move (a `Move` or text) takes an animal.
    #[pyo3(signature = (r#move))]
    fn is_capture(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self
            .game
            .position()
            .is_capture(args::move_of(r#move, "move")?))
    }

    /// How many times the current position has occurred (this time included).
    fn repetition_count(&self) -> usize {
        self.game.repetition_count()
    }

    /// Whether the game has ended (a win or a draw under the board's rules).
    fn is_game_over(&self) -> bool {
        self.game.result() != GameResult::Ongoing
    }

    /// The outcome when the game is over, else `None`.
    fn outcome(&self) -> Option<PyOutcome> {
        outcome_of(self.game.result())
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    fn result(&self) -> &'static str {
        self.outcome().map_or("*", |o| o.result())
    }

    /// Leaves of the legal move tree `depth` plies deep from this position, counted by
    /// the core's perft under the board's move rules (draw and anti-chase rules do
    /// not apply, as in `jungle perft`). Releases the GIL.
    fn perft(slf: &Bound<'_, Self>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let py = slf.py();
        let depth = args::whole(depth, "depth", 0, MAX_PERFT_DEPTH)? as u32;
        // The count is of a copy: the board is free for other threads meanwhile.
        let (pos, flags) = {
            let this = slf.borrow();
            (*this.game.position(), this.game.rules().moves)
        };
        let stop = AtomicBool::new(false);
        let work = || with_move_rules!(flags, R => perft_until::<R>(&pos, depth, &stop));
        let interrupt = || stop.store(true, Ordering::Relaxed);
        // `None` only when stopped, and then the interrupt is raised instead.
        interruptible(py, None, work, interrupt)?
            .ok_or_else(|| PyRuntimeError::new_err("perft was stopped"))
    }

    /// The legal-action mask: `bool[252]`, true for the actions of the legal moves
    /// (`perspective="side_to_move"`: the actions as the side to move sees them).
    #[pyo3(signature = (perspective=None))]
    fn legal_action_mask<'py>(
        &self,
        py: Python<'py>,
        perspective: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let flip = self.mover_flips(perspective)?;
        let mut mask = vec![false; NUM_ACTIONS];
        encoding::write_mask(&self.legal(), &mut mask, false, true, flip);
        Ok(mask.into_pyarray(py))
    }

    /// The legal moves' actions, ascending (`perspective` as for the mask).
    #[pyo3(signature = (perspective=None))]
    fn legal_actions(&self, perspective: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<usize>> {
        let flip = self.mover_flips(perspective)?;
        let legal = self.legal();
        let mut actions: Vec<usize> = legal
            .iter()
            .map(|&m| encoding::action_in(m, flip))
            .collect();
        actions.sort_unstable();
        Ok(actions)
    }

    /// The observation tensor: `float32[32, 9, 7]` (`jungle.rl.OBSERVATION_PLANES`
    /// names the planes). `perspective="side_to_move"` shows the board from the side
    /// of `player` (`"red"` or `"blue"`; by default the side to move), turned half
    /// round for Blue; `"fixed"` (the default) from Red's.
    #[pyo3(signature = (perspective=None, *, player=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        perspective: Option<&Bound<'py, PyAny>>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let side_to_move = args::perspective(perspective)?;
        let viewer = match args::text_opt(player, "player")? {
            Some(name) => color_of(&name)?,
            None => self.game.position().side_to_move(),
        };
        let flip = side_to_move && viewer == Color::Blue;
        let mut data = vec![0.0f32; OBSERVATION_SIZE];
        encoding::write_observation(&self.game, &self.legal(), data.as_mut_slice(), flip);
        let shape = (PLANES, 9, 7);
        let array = Array3::from_shape_vec(shape, data)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// The legal move of an action (`perspective` as for the mask), or `ValueError`.
    #[pyo3(signature = (action, perspective=None))]
    fn action_to_move(
        &self,
        action: &Bound<'_, PyAny>,
        perspective: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMove> {
        let number = args::whole_number(action, "action")?;
        let flip = self.mover_flips(perspective)?;
        number
            .value
            .and_then(|a| usize::try_from(a).ok())
            .filter(|&a| a < NUM_ACTIONS)
            .and_then(|a| encoding::move_of(a, &self.legal(), flip))
            .map(PyMove)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "action {} is not a legal move here (actions 0-{} by from-square and direction)",
                    number.text,
                    NUM_ACTIONS - 1
                ))
            })
    }

    /// Plays the move of an action (`perspective` as for the mask) and returns it.
    #[pyo3(signature = (action, perspective=None))]
    fn push_action(
        &mut self,
        action: &Bound<'_, PyAny>,
        perspective: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMove> {
        let m = self.action_to_move(action, perspective)?;
        self.play(m.0)?;
        Ok(m)
    }

    /// The board as SVG, the last move marked (`jungle.pictures.svg`): what Jupyter
    /// shows for a board.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let last = slf.borrow().game.moves().last().map(|&m| PyMove(m));
        let kwargs = PyDict::new(py);
        kwargs.set_item("lastmove", last)?;
        let pictures = py.import("jungle.pictures")?;
        pictures
            .call_method("svg", (slf,), Some(&kwargs))?
            .extract()
    }

    /// The board as text: rank 9 at the top, `~` water, `#` traps, `*` dens.
    fn __str__(&self) -> String {
        self.game.position().pretty()
    }

    fn __repr__(&self) -> String {
        if *self.game.rules() == Rules::default() {
            format!("Board('{}')", self.fen())
        } else {
            format!("Board('{}', rules='{}')", self.fen(), self.rules())
        }
    }

    /// A 64-bit Zobrist key of the placement and the side to move: equal for the
    /// positions the repetition rule counts as one. A board changes as it is played,
    /// so it is not hashable (as python-chess's); keep this key in sets and dicts.
    fn transposition_key(&self) -> u64 {
        self.game.position().key()
    }
}
