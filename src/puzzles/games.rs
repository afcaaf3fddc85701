//! Puzzles from game records: in each game (decisive or not), the positions of the
//! last `scan_plies` plies with at least `min_animals` animals are judged at a small
//! budget (`scan_nodes`), whichever side is to move, so that a win the side to move
//! missed counts as well as the one the winner played; each that looks like a puzzle
//! is verified at the full budget, earliest first. A puzzle found skips the positions
//! its line spans, and a game gives at most `per_game` puzzles. Its setup is the
//! position string some plies earlier with the moves since as `before`: the
//! opponent's last move under `jungle`, the last 34 plies (what the 7-3 and 17-5
//! rules look back on) under `jungle-cn`.

use super::Worker;
use crate::board::Move;
use crate::game::{Game, GameResult};
use crate::puzzle::theme::chase_forbids;
use crate::puzzle::{Goal, Puzzle};
use crate::record::{self, ReadGame};
use std::collections::{BTreeMap, HashSet};

/// How a game is mined.
#[derive(Clone, Copy, Debug)]
pub struct GameSettings {
    /// The last plies of a game looked at.
    pub scan_plies: usize,
    /// Nodes of the first look at a position.
    pub scan_nodes: u64,
    /// Positions with fewer animals on the board are not looked at.
    pub min_animals: usize,
    /// The most puzzles taken from one game.
    pub per_game: usize,
}

/// What became of one game.
#[derive(Clone, Debug, Default)]
pub struct GameReport {
    pub decisive: bool,
    /// Positions where the anti-chase rules forbid the side to move a move.
    pub chased: usize,
    /// Positions that looked like puzzles at the small budget.
    pub candidates: usize,
    /// Why candidates were refused at the full budget.
    pub refusals: Vec<String>,
    /// The game's puzzles, earliest first.
    pub puzzles: Vec<Puzzle>,
}

/// Plies of history kept before a puzzle: the opponent's last move, or under the
/// anti-chase rules all they can look back on (the mover's last 17 moves).
fn history_plies(game: &ReadGame) -> usize {
    if game.rules.anti_chase {
        34
    } else {
        1
    }
}

/// The game `g` up to `ply`, set up as a puzzle would be: the position string `k`
/// plies earlier and the moves since.
fn setup(g: &ReadGame, moves: &[Move], ply: usize) -> Result<(Game, usize), String> {
    let k = history_plies(g).min(ply);
    let mut full = Game::with_rules(g.start, g.rules);
    for &m in &moves[..ply - k] {
        full.play(m).map_err(|e| e.to_string())?;
    }
    let mut game = Game::with_rules(*full.position(), g.rules);
    for &m in &moves[ply - k..ply] {
        game.play(m).map_err(|e| e.to_string())?;
    }
    Ok((game, k))
}

/// The plies of a game under the anti-chase rules before which they forbid the side
/// to move a move (none under other rules).
fn chase_plies(g: &ReadGame, moves: &[Move]) -> Vec<usize> {
    let mut plies = Vec::new();
    if !g.rules.anti_chase {
        return plies;
    }
    let mut game = Game::with_rules(g.start, g.rules);
    for (ply, &m) in moves.iter().enumerate() {
        let (a, b) = chase_forbids(&game);
        if a || b {
            plies.push(ply);
        }
        if game.play(m).is_err() {
            break;
        }
    }
    plies
}

/// Mines one game for puzzles.
pub fn mine_game(
    w: &mut Worker,
    g: &ReadGame,
    settings: &GameSettings,
    excluded: &HashSet<u64>,
) -> GameReport {
    let mut report = GameReport::default();
    let Ok(end) = record::replay(g) else {
        report.refusals.push("the game does not replay".into());
        return report;
    };
    report.decisive = matches!(end.result(), GameResult::Win { .. });
    let moves = end.moves().to_vec();
    let first = moves.len().saturating_sub(settings.scan_plies);
    let full_nodes = w.verifier.settings.nodes;
    let max = w.verifier.settings.max_moves;
    // Under the anti-chase rules, positions anywhere in the game from which a move
    // forbidden by them is at most 3 plies away are looked at too.
    let chased = chase_plies(g, &moves);
    report.chased = chased.len();
    let mut candidates = Vec::new();
    w.verifier.settings.nodes = settings.scan_nodes;
    for ply in 0..moves.len() {
        if ply < first && !chased.iter().any(|&c| c >= ply && c <= ply + 3) {
            continue;
        }
        let Ok((game, _)) = setup(g, &moves, ply) else {
            continue;
        };
        let pos = game.position();
        if (pos.all_occupied().count() as usize) < settings.min_animals
            || excluded.contains(&pos.key())
        {
            continue;
        }
        if w.verifier.judge(&game, Goal::Win, 1, max).is_ok() {
            candidates.push(ply);
        }
    }
    w.verifier.settings.nodes = full_nodes;
    report.candidates = candidates.len();
    // The first ply not inside a puzzle's line already taken.
    let mut free = 0;
    for ply in candidates {
        if ply < free || report.puzzles.len() >= settings.per_game {
            continue;
        }
        let Ok((game, k)) = setup(g, &moves, ply) else {
            continue;
        };
        match w.verifier.find(&game, Goal::Win) {
            Ok(found) => {
                let start = *game.start_position();
                let before = moves[ply - k..ply].to_vec();
                match w.puzzle(start, before, g.rules, found) {
                    Ok(p) if !super::in_test_books(&p, excluded) => {
                        free = ply + p.solution.len();
                        report.puzzles.push(p);
                    }
                    Ok(_) => report.refusals.push("a test-book position".into()),
                    Err(e) => report.refusals.push(e),
                }
            }
            Err(refusal) => report.refusals.push(refusal.to_string()),
        }
    }
    report
}

/// Counts over many games, for the summary.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub games: usize,
    pub decisive: usize,
    pub chased: usize,
    pub candidates: usize,
    pub puzzles: usize,
    /// Refusals by their kind (the text up to the first ':' or digit).
    pub refusals: BTreeMap<String, usize>,
}

impl Tally {
    pub fn add(&mut self, r: &GameReport) {
        self.games += 1;
        self.decisive += usize::from(r.decisive);
        self.candidates += r.candidates;
        self.chased += r.chased;
        self.puzzles += r.puzzles.len();
        for reason in &r.refusals {
            *self.refusals.entry(refusal_kind(reason)).or_default() += 1;
        }
    }
}

/// A refusal's kind for the summary: its text without the solver move it names
/// ("solver move 2: ") and without the moves or details after a ':' or '('.
fn refusal_kind(reason: &str) -> String {
    let text = match reason.strip_prefix("solver move ") {
        Some(rest) => rest.split_once(": ").map_or(rest, |(_, kind)| kind),
        None => reason,
    };
    text.split([':', '('])
        .next()
        .unwrap_or(text)
        .trim()
        .to_string()
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games, {} decisive, {} positions with a move the anti-chase rules \
             forbid, {} candidates, {} puzzles",
            self.games, self.decisive, self.chased, self.candidates, self.puzzles
        )?;
        for (kind, n) in &self.refusals {
            write!(f, "; {n} refused: {kind}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::puzzle::{Settings, Theme};

    fn worker() -> Worker {
        let tables = super::super::default_tables(None, 3);
        let settings = Settings {
            nodes: 20_000,
            ..Settings::default()
        };
        Worker::new(settings, tables, 3).expect("a worker")
    }

    fn game(pgn: &str) -> ReadGame {
        let mut games = record::read_records(pgn, Rules::default()).expect("a record");
        games.remove(0)
    }

    /// The composed games of `scripts/puzzle-themes.pgn` give a puzzle each that
    /// relies on an anti-chase rule: tagged with it, and no puzzle without the history
    /// that makes the rule forbid the defence.
    #[test]
    fn the_composed_games_give_the_anti_chase_puzzles() {
        let text = include_str!("../../scripts/puzzle-themes.pgn");
        let games = record::read_records(text, Rules::default()).expect("records");
        let settings = GameSettings {
            scan_plies: 80,
            scan_nodes: 20_000,
            min_animals: 2,
            per_game: 3,
        };
        let mut w = Worker::new(crate::puzzle::Settings::default(), None, 0).expect("a worker");
        let themes = [Theme::Chase73, Theme::Chase175];
        for (g, theme) in games.iter().zip(themes) {
            let report = mine_game(&mut w, g, &settings, &HashSet::new());
            let [p] = &report.puzzles[..] else {
                panic!("one puzzle expected: {report:?}");
            };
            assert!(p.rules.anti_chase && p.has(theme), "{p}");
            assert_eq!(p.solution[0].to_string(), "a9b9", "{p}");
            assert_eq!(w.verifier.verify(p), Ok(()), "{p}");
            // The same position without its history: Blue defends with c7c8.
            let bare = Game::with_rules(*p.game().expect("sets up").position(), p.rules);
            assert!(w.verifier.find(&bare, Goal::Win).is_err(), "{p}");
        }
    }

    #[test]
    fn a_win_the_loser_missed_is_a_puzzle_too() {
        // Red's lion on d8 could enter the den but steps aside; Blue's rat on c1 enters
        // Red's den. Both moves were the only win: the loser's missed one and the
        // winner's are each a puzzle (a game may give several).
        let g = game(
            "[Rules \"jungle\"]\n[FEN \"7/3L3/7/7/7/7/7/7/2r4 r 0 1\"]\n[Result \"0-1\"]\n\n\
             1. d8c8 c1d1 0-1\n",
        );
        let settings = GameSettings {
            scan_plies: 80,
            scan_nodes: 20_000,
            min_animals: 2,
            per_game: 3,
        };
        let report = mine_game(&mut worker(), &g, &settings, &HashSet::new());
        assert!(report.decisive);
        let lines: Vec<String> = report
            .puzzles
            .iter()
            .map(|p| p.solution[0].to_string())
            .collect();
        assert_eq!(lines, ["d8d9", "c1d1"], "{report:?}");
        // At most one a game, and none where fewer animals than asked are on the board.
        let one = GameSettings {
            per_game: 1,
            ..settings
        };
        assert_eq!(
            mine_game(&mut worker(), &g, &one, &HashSet::new())
                .puzzles
                .len(),
            1
        );
        let six = GameSettings {
            min_animals: 6,
            ..settings
        };
        let report = mine_game(&mut worker(), &g, &six, &HashSet::new());
        assert_eq!((report.candidates, report.puzzles.len()), (0, 0));
    }

    #[test]
    fn refusals_are_counted_by_their_kind() {
        assert_eq!(
            refusal_kind("solver move 2: more than one move wins (or holds): e7e8 d7d8"),
            "more than one move wins"
        );
        assert_eq!(
            refusal_kind("the win takes too many moves"),
            "the win takes too many moves"
        );
        assert_eq!(refusal_kind("a test-book position"), "a test-book position");
    }
}
