//! The verifier: whether a position is a puzzle, and its solution line.
//!
//! A solver move is right when it is the only move that wins (or keeps a win), or,
//! in a drawn position, the only move that does not lose. Where the endgame tables
//! cover the position they decide exactly; elsewhere searches at a node budget well
//! above play decide: the best move must win by force (a mate score) within the
//! line's length, and a second search of the position with that move excluded
//! (`searchmoves` of all the others) must find no other win of any length: it must
//! complete the depth that would see a win `Settings::margin` solver moves longer
//! than the solution's (tables probed where they reach), and its best move must
//! neither win nor promise more than `Settings::alternative_max` percent of the
//! expected result (the review's scale), as lichess's generator asks of an
//! alternative. A move that wins the game at once ends the line; there every move
//! that wins at once is right. The opponent replies with its best defence: the
//! longest loss by the tables, the search's best move elsewhere; in a draw puzzle,
//! the drawing reply after which the solver's move is again the only one, if any.

use super::format::{Goal, Puzzle};
use crate::board::{Move, MoveList};
use crate::game::{Game, GameResult};
use crate::review::expected_percent;
use crate::search::score::MAX_PLY;
use crate::search::search::SharedState;
use crate::search::{Engine, Limits, Score, SearchInfo};
use crate::tb::{probe_moves, probe_position, Material, MoveValue, Tablebases, TbRules, Wdl};
use crate::with_move_rules;
use std::fmt;
use std::sync::{Arc, Mutex};

/// How hard the verifier looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Nodes of each verifying search (one thread, a fresh hash table each).
    pub nodes: u64,
    /// Most solver moves in a line.
    pub max_moves: usize,
    /// The most expected result (percent, for the solver) that a move other than the
    /// solution may promise.
    pub alternative_max: f64,
    /// Solver moves beyond the solution's win that the search excluding the solution
    /// must see through: it completes `2 · (mate + margin) − 1` plies, for a win in
    /// `mate` moves.
    pub margin: usize,
    /// The search excluding the solution stops at `alternative_factor × nodes` nodes;
    /// a position where it has not completed its depth by then is refused.
    pub alternative_factor: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            nodes: 2_000_000,
            max_moves: 5,
            alternative_max: 65.0,
            margin: 4,
            alternative_factor: 8,
        }
    }
}

/// Why a position or a line is not a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The game is over.
    Over,
    /// The solver has one legal move: nothing to find.
    OnlyMove,
    /// At this solver move (from 1), no move wins (or, in a draw puzzle, every move
    /// loses).
    NoSolution { step: usize },
    /// At this solver move, these moves all win (or all hold the draw).
    Several { step: usize, moves: Vec<Move> },
    /// The win takes more solver moves than allowed.
    TooLong,
    /// At this solver move, the search excluding the solution did not complete the
    /// depth that would see another win (it reached `depth` of `needed` plies).
    Unsettled {
        step: usize,
        depth: i32,
        needed: i32,
    },
    /// A draw puzzle whose position is not in the tables (or not a draw).
    NotTableDraw,
    /// A given line's solver move is not the one that wins (or holds).
    WrongMove { step: usize, stored: Move },
    /// A given line plays on after a move that wins at once, or a win puzzle's line
    /// stops before the game is won.
    BadEnd,
    /// A move of a given line cannot be played.
    Illegal(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |moves: &[Move]| {
            moves
                .iter()
                .map(Move::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        match self {
            Refusal::Over => write!(f, "the game is over"),
            Refusal::OnlyMove => write!(f, "the solver has only one legal move"),
            Refusal::NoSolution { step } => {
                write!(f, "solver move {step}: no move wins (or holds the draw)")
            }
            Refusal::Several { step, moves } => write!(
                f,
                "solver move {step}: more than one move wins (or holds): {}",
                list(moves)
            ),
            Refusal::TooLong => write!(f, "the win takes too many moves"),
            Refusal::Unsettled {
                step,
                depth,
                needed,
            } => write!(
                f,
                "solver move {step}: unsettled: the search without the solution reached \
                 {depth} of {needed} plies"
            ),
            Refusal::NotTableDraw => write!(f, "not a drawn position of the tables"),
            Refusal::WrongMove { step, stored } => {
                write!(
                    f,
                    "solver move {step}: {stored} is not the move that wins (or holds)"
                )
            }
            Refusal::BadEnd => write!(f, "the line does not end as its goal says"),
            Refusal::Illegal(e) => write!(f, "{e}"),
        }
    }
}

/// What is right at one solver move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The only move that wins, keeps the win, or holds the draw.
    Only(Move),
    /// These moves win the game at once (every one of them is right; the line ends).
    WinsAtOnce(Vec<Move>),
}

impl Verdict {
    pub fn accepts(&self, m: Move) -> bool {
        match self {
            Verdict::Only(only) => *only == m,
            Verdict::WinsAtOnce(moves) => moves.contains(&m),
        }
    }

    /// The move a line stores.
    pub fn chosen(&self) -> Option<Move> {
        match self {
            Verdict::Only(m) => Some(*m),
            Verdict::WinsAtOnce(moves) => moves.first().copied(),
        }
    }
}

/// A solution line found from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Solver, reply, …, solver.
    pub line: Vec<Move>,
    pub goal: Goal,
    /// The tables decided the first solver move.
    pub endgame: bool,
}

/// The moves of the side to move that win the game at once (den, last animal, or the
/// opponent left without a legal move, the anti-chase rules included).
pub fn wins_at_once(game: &Game) -> Vec<Move> {
    let us = game.position().side_to_move();
    game.legal_moves()
        .iter()
        .copied()
        .filter(|&m| {
            let mut g = game.clone();
            g.play(m).is_ok()
                && matches!(g.result(), GameResult::Win { winner, .. } if winner == us)
        })
        .collect()
}

/// The moves a person may play at this point of a puzzle: the stored one, and any
/// move that wins the game at once.
pub fn accepted(game: &Game, stored: Move) -> Vec<Move> {
    let mut moves = vec![stored];
    for m in wins_at_once(game) {
        if m != stored {
            moves.push(m);
        }
    }
    moves
}

/// Decides solver moves with the tables and a search.
pub struct Verifier {
    engine: Engine,
    tables: Option<Arc<Tablebases>>,
    /// Most animals of a position the tables are asked about.
    table_animals: usize,
    pub settings: Settings,
}

impl Verifier {
    /// A verifier searching with `hash_mb` of hash; `tables` (for the rules they were
    /// made for) decide positions of up to `table_animals` animals.
    pub fn new(
        settings: Settings,
        hash_mb: usize,
        tables: Option<Arc<Tablebases>>,
        table_animals: usize,
    ) -> Result<Verifier, String> {
        let mut engine = Engine::new(hash_mb).map_err(|e| e.to_string())?;
        engine.options.threads = 1;
        engine.options.report = true;
        engine.options.tb_probe_limit = table_animals as u32;
        engine.tablebases = tables.clone();
        Ok(Verifier {
            engine,
            tables,
            table_animals,
            settings,
        })
    }

    /// The value of every legal move by the tables, best first for the side to move;
    /// `None` when they do not cover the position or its rules.
    pub fn table_values(&self, game: &Game) -> Option<Vec<MoveValue>> {
        let tables = self.tables.as_ref()?;
        let rules = TbRules::for_rules(game.rules()).ok()?;
        let pos = game.position();
        if rules != tables.rules() || pos.all_occupied().count() as usize > self.table_animals {
            return None;
        }
        tables.ensure(Material::of(pos), &|_| {}).ok()?;
        let set = tables.snapshot();
        with_move_rules!(game.rules().moves, R => probe_moves::<R>(&set, pos))
    }

    /// One search of `game` at the verification budget with `lines` lines (only among
    /// `among` when not empty): the last iteration's lines, best first.
    fn search(&mut self, game: &Game, lines: usize, among: &[Move]) -> Vec<SearchInfo> {
        self.engine.clear();
        self.engine.options.multipv = lines;
        let limits = Limits {
            nodes: Some(self.settings.nodes),
            searchmoves: among.to_vec(),
            ..Limits::default()
        };
        last_lines(&mut self.engine, game, &limits)
    }

    /// The best of `others` when it is an alternative to a win in `mate` solver moves
    /// (a win of any length, or more than `alternative_max` percent), `None` when no
    /// other move is: one search of `others` only, to the depth that would see a win
    /// `margin` moves longer than `mate`, within `alternative_factor × nodes` nodes.
    fn other_win(
        &mut self,
        game: &Game,
        others: &[Move],
        mate: usize,
        step: usize,
    ) -> Result<Option<Move>, Refusal> {
        if others.is_empty() {
            return Ok(None);
        }
        let needed = (2 * (mate + self.settings.margin) - 1).min(MAX_PLY - 4) as i32;
        self.engine.clear();
        self.engine.options.multipv = 1;
        // The verification budget first; when it ends short of the depth needed, on
        // to that depth within `alternative_factor` times the budget (the hash kept).
        let mut limits = Limits {
            nodes: Some(self.settings.nodes),
            searchmoves: others.to_vec(),
            ..Limits::default()
        };
        let shared = SharedState::new(1);
        let mut outcome = self.engine.search(game, &limits, &shared, &|_| {});
        if self.harmless(outcome.score) && outcome.depth < needed {
            limits.depth = Some(needed);
            limits.nodes = Some(
                self.settings
                    .nodes
                    .saturating_mul(self.settings.alternative_factor.max(1)),
            );
            let shared = SharedState::new(1);
            outcome = self.engine.search(game, &limits, &shared, &|_| {});
        }
        if !self.harmless(outcome.score) {
            return Ok(outcome.best);
        }
        if outcome.depth < needed {
            return Err(Refusal::Unsettled {
                step,
                depth: outcome.depth,
                needed,
            });
        }
        Ok(None)
    }

    /// True when a move scored `score` (for the solver) is no alternative to a win.
    fn harmless(&self, score: Score) -> bool {
        !matches!(score, Score::Mate(n) if n > 0)
            && expected_percent(score.to_internal()) <= self.settings.alternative_max
    }

    /// What is right at solver move `step` (from 1) of a line for `goal`, with
    /// `moves_left` solver moves allowed from here.
    pub fn judge(
        &mut self,
        game: &Game,
        goal: Goal,
        step: usize,
        moves_left: usize,
    ) -> Result<Verdict, Refusal> {
        if game.result() != GameResult::Ongoing {
            return Err(Refusal::Over);
        }
        let legal = game.legal_moves();
        if step == 1 && legal.len() == 1 {
            return Err(Refusal::OnlyMove);
        }
        match goal {
            Goal::Win => self.judge_win(game, &legal, step, moves_left),
            Goal::Draw => self.judge_draw(game, step),
        }
    }

    fn judge_win(
        &mut self,
        game: &Game,
        legal: &MoveList,
        step: usize,
        moves_left: usize,
    ) -> Result<Verdict, Refusal> {
        let at_once = wins_at_once(game);
        let values = self.table_values(game);
        if !at_once.is_empty() {
            if step == 1 {
                // The first move must be the only win of any length.
                if at_once.len() > 1 {
                    return Err(Refusal::Several {
                        step,
                        moves: at_once,
                    });
                }
                let others: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| !at_once.contains(m))
                    .collect();
                let winner = match &values {
                    Some(values) => values
                        .iter()
                        .find(|v| v.wdl == Wdl::Win && others.contains(&v.mv))
                        .map(|v| v.mv),
                    None => self.other_win(game, &others, 1, step)?,
                };
                if let Some(other) = winner {
                    return Err(Refusal::Several {
                        step,
                        moves: vec![at_once[0], other],
                    });
                }
            }
            return Ok(Verdict::WinsAtOnce(at_once));
        }
        if moves_left <= 1 {
            return Err(Refusal::TooLong);
        }
        if let Some(values) = values {
            let wins: Vec<Move> = values
                .iter()
                .filter(|v| v.wdl == Wdl::Win)
                .map(|v| v.mv)
                .collect();
            return match wins[..] {
                [] => Err(Refusal::NoSolution { step }),
                [only] => {
                    let plies = values[0].outcome.plies().unwrap_or(u16::MAX) as usize;
                    if plies > 2 * moves_left - 1 {
                        Err(Refusal::TooLong)
                    } else {
                        Ok(Verdict::Only(only))
                    }
                }
                _ => Err(Refusal::Several { step, moves: wins }),
            };
        }
        let lines = self.search(game, 1, &[]);
        let Some(best) = lines.first() else {
            return Err(Refusal::NoSolution { step });
        };
        let Some(&best_move) = best.pv.first() else {
            return Err(Refusal::NoSolution { step });
        };
        let mate = match best.score {
            Score::Mate(n) if n > 0 && n as usize <= moves_left => n as usize,
            Score::Mate(n) if n > 0 => return Err(Refusal::TooLong),
            _ => return Err(Refusal::NoSolution { step }),
        };
        let others: Vec<Move> = legal.iter().copied().filter(|&m| m != best_move).collect();
        if let Some(other) = self.other_win(game, &others, mate, step)? {
            return Err(Refusal::Several {
                step,
                moves: vec![best_move, other],
            });
        }
        Ok(Verdict::Only(best_move))
    }

    fn judge_draw(&mut self, game: &Game, step: usize) -> Result<Verdict, Refusal> {
        let values = self.table_values(game).ok_or(Refusal::NotTableDraw)?;
        if values.iter().any(|v| v.wdl == Wdl::Win) {
            return Err(Refusal::NotTableDraw);
        }
        let holding: Vec<Move> = values
            .iter()
            .filter(|v| v.wdl > Wdl::Loss)
            .map(|v| v.mv)
            .collect();
        match holding[..] {
            [] => Err(Refusal::NoSolution { step }),
            [only] => Ok(Verdict::Only(only)),
            _ => Err(Refusal::Several {
                step,
                moves: holding,
            }),
        }
    }

    /// The opponent's reply in a line for `goal` (`None`: the line ends here).
    fn reply(&mut self, game: &Game, goal: Goal, step: usize) -> Option<Move> {
        match goal {
            Goal::Win => match self.table_values(game) {
                // Best first for the opponent: the longest loss.
                Some(values) => values.first().map(|v| v.mv),
                None => self.search(game, 1, &[]).first()?.pv.first().copied(),
            },
            Goal::Draw => {
                let values = self.table_values(game)?;
                for v in values.iter().filter(|v| v.wdl > Wdl::Loss) {
                    let mut next = game.clone();
                    next.play(v.mv).ok()?;
                    if matches!(
                        self.judge(&next, goal, step + 1, usize::MAX),
                        Ok(Verdict::Only(_))
                    ) {
                        return Some(v.mv);
                    }
                }
                None
            }
        }
    }

    /// The puzzle at `game`, if it is one: its solution line for `goal`.
    pub fn find(&mut self, game: &Game, goal: Goal) -> Result<Found, Refusal> {
        let max = self.settings.max_moves.max(1);
        let first = self.judge(game, goal, 1, max)?;
        let endgame = self.table_values(game).is_some();
        let mut g = game.clone();
        let mut line = Vec::new();
        let mut verdict = first;
        for step in 1..=max {
            let Some(m) = verdict.chosen() else {
                return Err(Refusal::NoSolution { step });
            };
            line.push(m);
            g.play(m).map_err(|e| Refusal::Illegal(e.to_string()))?;
            if let Verdict::WinsAtOnce(_) = verdict {
                return Ok(Found {
                    line,
                    goal,
                    endgame,
                });
            }
            if step == max {
                break;
            }
            let Some(reply) = self.reply(&g, goal, step) else {
                break;
            };
            let mut next = g.clone();
            next.play(reply)
                .map_err(|e| Refusal::Illegal(e.to_string()))?;
            match self.judge(&next, goal, step + 1, max - step) {
                Ok(v) => {
                    verdict = v;
                    line.push(reply);
                    g = next;
                }
                // A draw line ends where the solver's move stops being the only one.
                Err(_) if goal == Goal::Draw => break,
                Err(e) => return Err(e),
            }
        }
        match goal {
            Goal::Win => Err(Refusal::TooLong),
            Goal::Draw => Ok(Found {
                line,
                goal,
                endgame,
            }),
        }
    }

    /// Checks a stored puzzle: every solver move is the one that wins (or holds), the
    /// line ends with the win at once (`win`) or in a drawn position of the tables
    /// (`draw`).
    pub fn verify(&mut self, puzzle: &Puzzle) -> Result<(), Refusal> {
        puzzle.replay().map_err(Refusal::Illegal)?;
        let mut g = puzzle.game().map_err(Refusal::Illegal)?;
        let solver_moves = puzzle.solution.len().div_ceil(2);
        for (i, pair) in puzzle.solution.chunks(2).enumerate() {
            let step = i + 1;
            let verdict = self.judge(&g, puzzle.goal, step, solver_moves - i)?;
            let stored = pair[0];
            if !verdict.accepts(stored) {
                return Err(Refusal::WrongMove { step, stored });
            }
            let last = step == solver_moves;
            let wins = matches!(verdict, Verdict::WinsAtOnce(_));
            if wins != (last && puzzle.goal == Goal::Win) {
                return Err(Refusal::BadEnd);
            }
            for &m in pair {
                g.play(m).map_err(|e| Refusal::Illegal(e.to_string()))?;
            }
        }
        if puzzle.goal == Goal::Draw && !self.is_table_draw(&g) {
            return Err(Refusal::NotTableDraw);
        }
        Ok(())
    }

    /// The position is a draw under the rules by the tables (a blessed loss or cursed
    /// win counts: the no-capture rule draws it).
    pub fn is_table_draw(&self, game: &Game) -> bool {
        let Some(tables) = &self.tables else {
            return false;
        };
        let pos = game.position();
        if pos.all_occupied().count() as usize > self.table_animals
            || tables.ensure(Material::of(pos), &|_| {}).is_err()
        {
            return false;
        }
        probe_position(&tables.snapshot(), pos)
            .is_some_and(|p| matches!(p.wdl, Wdl::Draw | Wdl::BlessedLoss | Wdl::CursedWin))
    }
}

/// Runs one search and returns its last completed iteration's lines, best first.
pub fn last_lines(engine: &mut Engine, game: &Game, limits: &Limits) -> Vec<SearchInfo> {
    let seen: Mutex<Vec<SearchInfo>> = Mutex::new(Vec::new());
    let shared = SharedState::new(1);
    engine.search(game, limits, &shared, &|info: &SearchInfo| {
        if let Ok(mut s) = seen.lock() {
            s.push(info.clone());
        }
    });
    let seen = seen.into_inner().unwrap_or_else(|e| e.into_inner());
    let depth = seen.iter().map(|i| i.depth).max().unwrap_or(0);
    let mut lines: Vec<SearchInfo> = Vec::new();
    for info in seen.into_iter().filter(|i| i.depth == depth) {
        match lines.iter_mut().find(|l| l.multipv == info.multipv) {
            Some(l) => *l = info,
            None => lines.push(info),
        }
    }
    lines.sort_by_key(|l| l.multipv);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::game::Rules;

    fn verifier() -> Verifier {
        let rules = TbRules::for_rules(&Rules::default()).expect("the default rules have tables");
        let tables = Arc::new(Tablebases::new(rules, None).building(3, false));
        let settings = Settings {
            nodes: 20_000,
            ..Settings::default()
        };
        Verifier::new(settings, 1, Some(tables), 3).expect("a verifier")
    }

    fn game(fen: &str) -> Game {
        Game::new(Position::from_fen(fen).expect("a position"))
    }

    fn several_at(result: Result<Found, Refusal>) -> (usize, usize) {
        match result {
            Err(Refusal::Several { step, moves }) => (step, moves.len()),
            other => panic!("expected more than one winning move, got {other:?}"),
        }
    }

    #[test]
    fn two_moves_into_the_den_are_no_puzzle() {
        // Red's lion on c9 and tiger on e9 can both step into the den at d9.
        let g = game("2L1T2/7/7/7/7/7/7/7/r6 r 0 1");
        assert_eq!(wins_at_once(&g).len(), 2);
        assert_eq!(several_at(verifier().find(&g, Goal::Win)), (1, 2));
    }

    #[test]
    fn two_moves_that_win_by_the_tables_are_no_puzzle() {
        // A lone red lion, a lone blue rat by its own den far from Red's: nearly
        // every lion move still wins.
        let g = game("r6/7/7/3L3/7/7/7/7/7 r 0 1");
        let (step, moves) = several_at(verifier().find(&g, Goal::Win));
        assert_eq!(step, 1);
        assert!(moves >= 2);
    }

    #[test]
    fn a_solution_that_stops_being_unique_is_refused() {
        // Blue's only winning first move is found, but after Red's best defence two
        // blue moves win (found by sampling the tables).
        let g = game("7/7/7/7/3C3/4rR1/7/7/7 b 0 1");
        let mut v = verifier();
        assert!(matches!(v.judge(&g, Goal::Win, 1, 5), Ok(Verdict::Only(_))));
        assert_eq!(several_at(v.find(&g, Goal::Win)).0, 2);
    }

    #[test]
    fn a_stored_line_is_checked_move_by_move() {
        // Red's lion on d8 must enter the den now: Blue's rat on c1 enters Red's
        // den next; moving sideways first is not the solution.
        let mut v = verifier();
        let right = Puzzle::parse("a;7/3L3/7/7/7/7/7/7/2r4 r 0 1;-;d8d9;jungle;win;den;600")
            .expect("a puzzle");
        assert_eq!(v.verify(&right), Ok(()));
        let wrong = Puzzle::parse(
            "b;7/3L3/7/7/7/7/7/7/2r4 r 0 1;-;d8c8 c1c2 c8c9 c2c3 c9d9;jungle;win;den;600",
        )
        .expect("a puzzle");
        assert!(matches!(
            v.verify(&wrong),
            Err(Refusal::WrongMove { step: 1, .. })
        ));
    }

    /// A puzzle of the first shipped set (mined from a game): b1c1 wins in 2, and c6c5
    /// wins too, in 7. A second best read from two lines missed it; the search without
    /// the solution finds it.
    const COOKED: &str =
        "247uyid;4w2/7/2de1c1/2r1R2/7/7/7/4E2/Wl3L1 r 4 44;e2d2;b1c1 e6e5 c1d1;jungle;win;den;2359";

    #[test]
    fn a_slower_second_win_is_refused() {
        let puzzle = Puzzle::parse(COOKED).expect("a puzzle");
        // As `jungle puzzles` verifies: the default budget, a 32 MB hash.
        let mut v = Verifier::new(Settings::default(), 32, None, 0).expect("a verifier");
        match v.verify(&puzzle) {
            Err(Refusal::Several { step: 1, moves }) => {
                assert_eq!(moves[0].to_string(), "b1c1");
                assert_eq!(moves.len(), 2);
            }
            other => panic!("expected a second win at the first move, got {other:?}"),
        }
        let game = puzzle.game().expect("sets up");
        assert!(matches!(
            v.find(&game, Goal::Win),
            Err(Refusal::Several { step: 1, .. })
        ));
    }

    #[test]
    fn a_search_that_cannot_see_far_enough_is_refused() {
        // The same position at a budget too small to reach the depth a win 4 moves
        // longer than the solution needs.
        let puzzle = Puzzle::parse(COOKED).expect("a puzzle");
        let mut v = verifier();
        v.settings.nodes = 1_000;
        v.settings.alternative_factor = 1;
        match v.verify(&puzzle) {
            Err(Refusal::Unsettled {
                step: 1,
                depth,
                needed: 11,
            }) => assert!(depth < 11),
            other => panic!("expected an unsettled search, got {other:?}"),
        }
    }
}
