//! `jungle puzzles mine --database URL`: the finished games of `jungle serve`'s
//! database as games to mine, oldest first, numbered from 0.

use super::mine::SourceGame;
use crate::board::{Move, Position};
use crate::game::Game;
use crate::record::RecordResult;

/// The finished games of the database at `url` that replay, oldest first.
pub fn finished_games(url: &str) -> Result<Vec<SourceGame>, String> {
    let games = jungle_online::export::finished_games(url)?;
    let mut out = Vec::with_capacity(games.len());
    for (i, g) in games.into_iter().enumerate() {
        let start = Position::startpos();
        let mut game = Game::with_rules(start, g.rules);
        let mut moves: Vec<Move> = Vec::with_capacity(g.moves.len());
        for (n, m) in g.moves.iter().enumerate() {
            let mv = game
                .play_text(m)
                .map_err(|e| format!("database game {}: move {} '{m}': {e}", g.id, n + 1))?;
            moves.push(mv);
        }
        out.push(SourceGame {
            index: i as u64,
            red: format!("{} red", g.id),
            blue: format!("{} blue", g.id),
            rules: g.rules,
            start,
            moves,
            result: RecordResult::parse(&g.result).unwrap_or(RecordResult::Unfinished),
            termination: g.reason,
        });
    }
    Ok(out)
}
