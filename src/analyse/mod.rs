//! `jungle analyse`: the review of recorded games from the command line. The engine
//! searches every position of every game at a fixed budget; the games are written
//! back with a comment after each move (the score after it from Red's view, what it
//! cost, its mark, the better move: `jungle_core::review`), which `jungle replay` and
//! the board (`Load game`) read. A summary of each game goes to stderr.
//!
//! Positions with few enough animals are also judged by the endgame tables
//! (`jungle_core::review_tables`): there the marks are exact, whatever the scores say.

pub mod command;

use crate::board::Move;
use crate::common::tables::{tables_for, trim_tables, BUILD_UP_TO};
use crate::game::Game;
use crate::record::{self, ReadGame, RecordHeader};
use crate::review::{self, MoveNote};
use crate::review_tables::{self, TableJudgement};
use crate::search::search::SharedState;
use crate::search::{Engine, Limits};
use crate::tb::store::BUILD_IN_MEMORY;
use crate::tb::{game_move_values, Tablebases, TbRules};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
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
    pub tables: TableSettings,
}

/// The endgame tables the review judges with.
#[derive(Clone, Debug, Default)]
pub struct TableSettings {
    /// A directory of table files (`jungle tb build`).
    pub dir: Option<PathBuf>,
    /// Positions with at most this many animals are judged by the tables (0: none);
    /// `None`: 4, or 5 when `dir` holds five-animal tables of the game's rules.
    pub animals: Option<usize>,
}

/// The tables of one set of rules, and the most animals of a position they judge.
struct GameTables {
    store: Arc<Tablebases>,
    animals: usize,
}

impl TableSettings {
    /// The tables for `rules` (`None` when no table serves them). Signatures of up to
    /// 4 animals are built in memory when the directory lacks them (at least the
    /// engine's own 3, so that its search is the same with or without judging).
    fn tables_for(&self, rules: &crate::game::Rules) -> Option<GameTables> {
        let build = self
            .animals
            .unwrap_or(BUILD_UP_TO)
            .clamp(BUILD_IN_MEMORY, BUILD_UP_TO);
        let store = tables_for(rules, self.dir.as_deref(), build)?;
        let animals = self.animals.unwrap_or_else(|| {
            if store.largest_on_disk() > BUILD_UP_TO {
                BUILD_UP_TO + 1
            } else {
                BUILD_UP_TO
            }
        });
        Some(GameTables { store, animals })
    }
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
    // One set of tables for each rules, kept from game to game.
    let mut tables: HashMap<TbRules, Option<GameTables>> = HashMap::new();
    for (i, g) in games.iter().enumerate() {
        let number = tag(g, "Game").map_or((i + 1).to_string(), str::to_string);
        let game = record::replay(g).map_err(|e| format!("game {number}: {e}"))?;
        engine.clear();
        let game_tables = TbRules::for_rules(&g.rules).ok().and_then(|rules| {
            tables
                .entry(rules)
                .or_insert_with(|| settings.tables.tables_for(&g.rules))
                .as_ref()
        });
        engine.tablebases = game_tables.map(|t| Arc::clone(&t.store));
        let mut notes = review_game(&mut engine, g, game.moves(), settings, progress);
        if let Some(t) = game_tables {
            notes = review::with_tables(notes, &judge_game(t, g, game.moves()));
        }
        // A long run would otherwise keep every table its games reached in memory
        // (a four-animal table 12-15 MB, a five-animal one 0.5-0.8 GB).
        trim_tables(&engine.tablebases, BUILD_UP_TO + 1, 4);
        trim_tables(&engine.tablebases, BUILD_UP_TO, 64);
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

/// The tables' judgement of each move of the game whose position before it they
/// cover (`None` for the others).
fn judge_game(tables: &GameTables, g: &ReadGame, moves: &[Move]) -> Vec<Option<TableJudgement>> {
    let mut game = Game::with_rules(g.start, g.rules);
    let mut judgements = Vec::with_capacity(moves.len());
    for &m in moves {
        let values = game_move_values(&tables.store, &game, tables.animals);
        judgements.push(values.and_then(|v| review_tables::judge(&v, m)));
        // Every move was checked when the game was replayed.
        let _ = game.play(m);
    }
    judgements
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
