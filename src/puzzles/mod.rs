//! `jungle puzzles`: puzzles made from game records and from the endgame tables,
//! verified, themed and rated (`jungle_core::puzzle` has the logic; here are the
//! files, the workers and the choice of the shipped set).
//!
//! - `games`: puzzles from the decisive games of record files (`jungle match --pgn`).
//! - `tables`: puzzles from positions of the endgame tables.
//! - `select`: the shipped set chosen from candidate files.
//! - `check`: a puzzle file replayed, and verified again.
//! - `learnt`: the ratings `jungle serve` learnt from people, written back into a
//!   puzzle file (`jungle puzzles ratings`).
//! - `command`: the command line.

pub mod check;
pub mod command;
pub mod database;
pub mod games;
pub mod learnt;
pub mod mine;
pub mod select;
pub mod tables;

use crate::board::{Move, Position};
use crate::common::test_books::{book_keys, TEST_BOOKS};
use crate::game::{Game, GameResult, Rules};
use crate::puzzle::verify::{Found, Settings, Verifier};
use crate::puzzle::{difficulty, theme, Difficulty, Goal, Puzzle, Theme};
use crate::search::Engine;
use crate::tb::Tablebases;
use std::collections::HashSet;
use std::sync::Arc;

/// Hash of each verifying search (MB).
const VERIFY_HASH_MB: usize = 32;
/// Hash of each search that rates a puzzle (MB).
const RATE_HASH_MB: usize = 16;

/// One worker's verifier and rating engine.
pub struct Worker {
    pub verifier: Verifier,
    rater: Engine,
}

impl Worker {
    pub fn new(
        settings: Settings,
        tables: Option<Arc<Tablebases>>,
        table_animals: usize,
    ) -> Result<Worker, String> {
        let verifier = Verifier::new(settings, VERIFY_HASH_MB, tables, table_animals)?;
        let mut rater = Engine::new(RATE_HASH_MB).map_err(|e| e.to_string())?;
        rater.options.threads = 1;
        Ok(Worker { verifier, rater })
    }

    /// Forgets what earlier items taught the verifier's prover (its engine and the
    /// rating engine are cleared before each of their searches already).
    pub fn forget(&mut self) {
        self.verifier.forget();
    }

    /// The rating of `puzzle`'s solution by the strength levels as they are now.
    pub fn rate(&mut self, puzzle: &Puzzle) -> Result<u32, String> {
        Ok(self.difficulty(puzzle)?.rating)
    }

    /// The difficulty of `puzzle`'s solution, with the parts of its rating.
    pub fn difficulty(&mut self, puzzle: &Puzzle) -> Result<Difficulty, String> {
        let game = puzzle.game()?;
        Ok(difficulty::rate(&mut self.rater, &game, &puzzle.solution))
    }

    /// `puzzle`'s themes found again (its line, goal and source as they are).
    pub fn themes(&mut self, puzzle: &Puzzle) -> Result<Vec<Theme>, String> {
        let game = puzzle.game()?;
        let found = Found {
            line: puzzle.solution.clone(),
            goal: puzzle.goal,
            endgame: self.verifier.table_values(&game).is_some(),
        };
        let mut p = self.themed(puzzle.start, puzzle.before.clone(), puzzle.rules, found)?;
        Ok(std::mem::take(&mut p.themes))
    }

    /// The puzzle of a line found from `start` after `before`: its themes and rating.
    pub fn puzzle(
        &mut self,
        start: Position,
        before: Vec<Move>,
        rules: Rules,
        found: Found,
    ) -> Result<Puzzle, String> {
        let mut puzzle = self.themed(start, before, rules, found)?;
        let game = puzzle.game()?;
        puzzle.rating = difficulty::rate(&mut self.rater, &game, &puzzle.solution).rating;
        Ok(puzzle)
    }

    /// The puzzle of a line with its themes (not rated).
    fn themed(
        &mut self,
        start: Position,
        before: Vec<Move>,
        rules: Rules,
        found: Found,
    ) -> Result<Puzzle, String> {
        let mut puzzle = Puzzle {
            id: String::new(),
            start,
            before,
            solution: found.line,
            rules,
            goal: found.goal,
            themes: Vec::new(),
            rating: 0,
        };
        let game = puzzle.game()?;
        puzzle.themes = theme::detect(&game, &puzzle.solution, found.endgame);
        if puzzle.goal.defends() {
            puzzle.themes.push(Theme::Defence);
        }
        let animals = game.position().all_occupied().count();
        if !puzzle.before.is_empty() && (4..=6).contains(&animals) {
            puzzle.themes.push(Theme::GameEndgame);
        }
        if puzzle.goal == Goal::Win && self.zugzwang(&game, &puzzle.solution) {
            puzzle.themes.push(Theme::Zugzwang);
        }
        puzzle.themes.sort();
        puzzle.themes.dedup();
        puzzle.rating = crate::puzzle::format::RATING_RANGE.0;
        puzzle.id = puzzle.make_id();
        puzzle.replay()?;
        Ok(puzzle)
    }
}

impl Worker {
    /// Whether, somewhere in a win line from `game`, the opponent to move loses by the
    /// obligation: passing instead, the solver would not win within the moves left.
    pub fn zugzwang(&mut self, game: &Game, line: &[Move]) -> bool {
        let solver_moves = line.len().div_ceil(2);
        let mut g = game.clone();
        for (i, &m) in line.iter().enumerate() {
            if g.play(m).is_err() || g.result() != GameResult::Ongoing {
                return false;
            }
            if i % 2 == 0 {
                // The opponent to move; the solver wins within the moves left.
                let left = solver_moves - (i / 2 + 1);
                if left >= 1 && self.verifier.zugzwang(&g, left) == Some(true) {
                    return true;
                }
            }
        }
        false
    }
}

/// `count` workers.
pub fn workers(
    count: usize,
    settings: Settings,
    tables: &Option<Arc<Tablebases>>,
    table_animals: usize,
) -> Result<Vec<Worker>, String> {
    (0..count.max(1))
        .map(|_| Worker::new(settings, tables.clone(), table_animals))
        .collect()
}

/// Runs `job` on every item, each on a worker of its own as one falls free (a queue:
/// a slow item holds up no other worker), and hands the results to `sink` in the
/// items' order. Each item starts from a worker that remembers no earlier item
/// (`Worker::forget`), so its result depends on the item alone, never on which worker
/// took it or how many there are.
pub fn in_parallel<T: Sync, R: Send>(
    workers: &mut [Worker],
    items: &[T],
    job: &(dyn Fn(&mut Worker, &T) -> R + Sync),
    sink: &mut dyn FnMut(usize, R),
) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<Option<R>>> =
        std::sync::Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .take(items.len())
            .map(|w| {
                let (next, done) = (&next, &done);
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        break;
                    };
                    w.forget();
                    let r = job(w, item);
                    // A worker that panicked poisons the lock: its panic is resumed below.
                    if let Ok(mut d) = done.lock() {
                        d[i] = Some(r);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    });
    let results = done.into_inner().unwrap_or_else(|e| e.into_inner());
    for (i, r) in results.into_iter().enumerate() {
        if let Some(r) = r {
            sink(i, r);
        }
    }
}

/// The keys of every position of the test books (`TEST_BOOKS`): no puzzle starts from
/// one.
pub fn test_book_keys() -> HashSet<u64> {
    let mut keys = HashSet::new();
    for (name, text) in TEST_BOOKS {
        // The books are committed and checked by a test: they always parse.
        if let Ok(k) = book_keys(name, text) {
            keys.extend(k);
        }
    }
    keys
}

/// True when a position of the puzzle's setup (its position string's, or its start
/// after the moves before it) is a test-book position.
pub fn in_test_books(puzzle: &Puzzle, keys: &HashSet<u64>) -> bool {
    keys.contains(&puzzle.start.key())
        || puzzle
            .game()
            .is_ok_and(|g: Game| keys.contains(&g.position().key()))
}

/// The tables for the default rules: files from `dir` when given, signatures of up to
/// `build` animals built in memory when missing.
pub fn default_tables(dir: Option<&str>, build: usize) -> Option<Arc<Tablebases>> {
    crate::common::tables::tables_for(&Rules::default(), dir.map(std::path::Path::new), build)
}

pub use crate::common::tables::trim_tables;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::verify::Found;

    fn worker() -> Worker {
        Worker::new(Settings::default(), default_tables(None, 3), 3).expect("a worker")
    }

    fn line(game: &Game, moves: &[&str]) -> Vec<Move> {
        let mut g = game.clone();
        moves
            .iter()
            .map(|m| g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}")))
            .collect()
    }

    /// Red's wolf to b8 leaves Blue's cat in the corner a9 to move: both its squares
    /// are taken next, and were it allowed to pass Red could not take it at once. The
    /// dog next to the cat already, a waiting move leaves no zugzwang: passing, Blue
    /// would lose the cat at once all the same.
    #[test]
    fn zugzwang_is_the_move_the_opponent_must_make() {
        let mut w = worker();
        let game = Game::new(Position::from_fen("c6/7/DW5/7/7/7/7/7/7 r 0 1").expect("fen"));
        let moves = line(&game, &["b7b8", "a9b9", "b8b9"]);
        assert!(w.zugzwang(&game, &moves));
        let game = Game::new(Position::from_fen("c6/D6/7/7/7/7/7/7/6W r 0 1").expect("fen"));
        let moves = line(&game, &["g1g2", "a9b9", "g2g3"]);
        assert!(!w.zugzwang(&game, &moves), "{moves:?}");
    }

    /// A defended puzzle has the defence theme, a win not; a puzzle from a game (moves
    /// before it) with 4 to 6 animals the game's endgame, one from the tables not.
    #[test]
    fn the_goal_and_the_source_make_themes() {
        let mut w = worker();
        let pos = Position::from_fen("7/7/7/7/7/7/7/2C4/2l4 r 0 1").expect("fen");
        let found = |goal, m: &str| Found {
            line: vec![Game::new(pos).parse_move(m).expect("legal")],
            goal,
            endgame: false,
        };
        let win = w
            .puzzle(pos, Vec::new(), Rules::default(), found(Goal::Win, "c2c1"))
            .expect("a puzzle");
        assert!(
            !win.has(Theme::Defence) && !win.has(Theme::GameEndgame),
            "{win}"
        );
        let hold = w
            .puzzle(pos, Vec::new(), Rules::default(), found(Goal::Hold, "c2b2"))
            .expect("a puzzle");
        assert!(hold.has(Theme::Defence), "{hold}");
        // Five animals after a move of the game: the game's endgame; the same
        // position from the tables (no move before), or eight animals, not.
        let five = Position::from_fen("7/7/3l3/7/7/7/2C4/1e1E3/r6 b 0 1").expect("fen");
        let eight = Position::from_fen("7/7/3l3/7/t6/T6/2C4/1e1E3/r5R b 0 1").expect("fen");
        for (start, animals) in [(five, 5), (eight, 8)] {
            let mut g = Game::new(start);
            let last = g.play_text("d7d6").expect("legal");
            let hold = |before: Vec<Move>, w: &mut Worker| {
                let found = Found {
                    line: vec![g.parse_move("c3b3").expect("legal")],
                    goal: Goal::Hold,
                    endgame: false,
                };
                let from = if before.is_empty() {
                    *g.position()
                } else {
                    start
                };
                w.puzzle(from, before, Rules::default(), found)
                    .expect("a puzzle")
            };
            let from_game = hold(vec![last], &mut w);
            assert_eq!(
                from_game.has(Theme::GameEndgame),
                animals == 5,
                "{from_game}"
            );
            let from_tables = hold(Vec::new(), &mut w);
            assert!(!from_tables.has(Theme::GameEndgame), "{from_tables}");
        }
    }
}
