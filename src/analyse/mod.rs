//! `jungle analyse`: the review of recorded games from the command line. The engine
//! searches every position of every game at a fixed budget; the games are written
//! back with a comment after each move (the score after it from Red's view, what it
//! cost, its mark, the better move: `jungle_core::review`), which `jungle replay` and
//! the board (`Load game`) read. A summary of each game goes to stderr.

pub mod command;

use crate::board::Move;
use crate::game::Game;
use crate::record::{self, ReadGame, RecordHeader};
use crate::review::{self, MoveNote};
use crate::search::search::SharedState;
use crate::search::{Engine, Limits};
use crate::tb::{Tablebases, TbRules};
use std::io::Write;
use std::sync::Arc;

/// The budget of each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Nodes(u64),
    Movetime(u64),
}

#[derive(Clone, Debug)]
pub struct Settings {
    pub budget: Budget,
    pub threads: usize,
    pub hash_mb: usize,
}

/// Reviews `games`, writing each back to `out` with its notes; returns the notes of
/// each game. `progress` is told of every position searched.
pub fn run(
    games: &[ReadGame],
    settings: &Settings,
    out: &mut impl Write,
    progress: &dyn Fn(u64),
) -> Result<Vec<Vec<Option<MoveNote>>>, String> {
    let mut engine = Engine::new(settings.hash_mb).map_err(|e| e.to_string())?;
    engine.options.threads = settings.threads.max(1);
    engine.options.report = false;
    let mut reviewed = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let number = tag(g, "Game").map_or((i + 1).to_string(), str::to_string);
        let game = record::replay(g).map_err(|e| format!("game {number}: {e}"))?;
        engine.clear();
        engine.tablebases = TbRules::for_rules(&g.rules)
            .ok()
            .map(|rules| Arc::new(Tablebases::new(rules, None)));
        let notes = review_game(&mut engine, g, game.moves(), settings, progress);
        let comments: Vec<Option<String>> = notes
            .iter()
            .map(|n| n.as_ref().map(MoveNote::to_comment))
            .collect();
        let termination = tag(g, "Termination").unwrap_or("");
        record::write_game_with_comments(
            out,
            &RecordHeader {
                number: number.parse().unwrap_or(i as u32 + 1),
                red: tag(g, "Red").unwrap_or("?"),
                blue: tag(g, "Blue").unwrap_or("?"),
                result: g.result.unwrap_or_default(),
                termination,
                rules: g.rules,
                start: g.start,
            },
            &g.moves,
            &comments,
        )
        .map_err(|e| format!("cannot write the records: {e}"))?;
        reviewed.push(notes);
    }
    Ok(reviewed)
}

fn tag<'a>(g: &'a ReadGame, key: &str) -> Option<&'a str> {
    g.tags
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Searches every position of the game; returns the notes of its moves.
fn review_game(
    engine: &mut Engine,
    g: &ReadGame,
    moves: &[Move],
    settings: &Settings,
    progress: &dyn Fn(u64),
) -> Vec<Option<MoveNote>> {
    let limits = match settings.budget {
        Budget::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        Budget::Movetime(ms) => Limits {
            movetime: Some(ms),
            ..Limits::default()
        },
    };
    let mut scores = Vec::with_capacity(moves.len() + 1);
    let mut best = Vec::with_capacity(moves.len() + 1);
    let mut game = Game::with_rules(g.start, g.rules);
    for ply in 0..=moves.len() {
        match review::terminal_score(&game) {
            Some(score) => {
                scores.push(Some(score));
                best.push(None);
            }
            None => {
                let shared = SharedState::new(settings.threads.max(1));
                let outcome = engine.search(&game, &limits, &shared, &|_| {});
                scores.push(Some(outcome.score.to_internal()));
                best.push(outcome.best.map(|m| m.to_string()));
            }
        }
        progress(1);
        if let Some(&m) = moves.get(ply) {
            // Every move was checked when the game was replayed.
            let _ = game.play(m);
        }
    }
    review::notes(&g.start, &g.moves, &scores, &best)
}
