//! Puzzles from game records: in each decisive game, the winner's positions of the
//! last `scan_plies` plies are judged at a small budget (`scan_nodes`); from the
//! earliest one that looks like a puzzle on, each is verified at the full budget,
//! and the first that passes is the game's puzzle. Its setup is the position string
//! some plies earlier with the moves since as `before`: the opponent's last move under
//! `jungle`, the last 34 plies (what the 7-3 and 17-5 rules look back on) under
//! `jungle-cn`.

use super::Worker;
use crate::board::Move;
use crate::game::{Game, GameResult};
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
}

/// What became of one game.
#[derive(Clone, Debug, Default)]
pub struct GameReport {
    pub decisive: bool,
    /// Positions that looked like puzzles at the small budget.
    pub candidates: usize,
    /// Why candidates were refused at the full budget.
    pub refusals: Vec<String>,
    pub puzzle: Option<Puzzle>,
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

/// Mines one game for a puzzle.
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
    let GameResult::Win { winner, .. } = end.result() else {
        return report;
    };
    report.decisive = true;
    let moves = end.moves().to_vec();
    let first = moves.len().saturating_sub(settings.scan_plies);
    let full_nodes = w.verifier.settings.nodes;
    let max = w.verifier.settings.max_moves;
    let mut candidates = Vec::new();
    w.verifier.settings.nodes = settings.scan_nodes;
    for ply in first..moves.len() {
        let Ok((game, _)) = setup(g, &moves, ply) else {
            continue;
        };
        if game.position().side_to_move() != winner || excluded.contains(&game.position().key()) {
            continue;
        }
        if w.verifier.judge(&game, Goal::Win, 1, max).is_ok() {
            candidates.push(ply);
        }
    }
    w.verifier.settings.nodes = full_nodes;
    report.candidates = candidates.len();
    for ply in candidates {
        let Ok((game, k)) = setup(g, &moves, ply) else {
            continue;
        };
        match w.verifier.find(&game, Goal::Win) {
            Ok(found) => {
                let start = *game.start_position();
                let before = moves[ply - k..ply].to_vec();
                match w.puzzle(start, before, g.rules, found) {
                    Ok(p) if !super::in_test_books(&p, excluded) => {
                        report.puzzle = Some(p);
                        return report;
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
        self.puzzles += usize::from(r.puzzle.is_some());
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
            "{} games, {} decisive, {} candidates, {} puzzles",
            self.games, self.decisive, self.candidates, self.puzzles
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
