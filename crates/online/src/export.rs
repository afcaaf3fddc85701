//! The finished games of a database, for programs that read them (`jungle puzzles
//! mine --database`): each game's rules, moves and result, oldest first.

use crate::model::GameState;
use crate::store::Store;
use jungle_core::game::Rules;

/// A finished game as its log tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    pub id: String,
    pub created_at: i64,
    pub rules: Rules,
    /// The moves as played, in coordinate notation.
    pub moves: Vec<String>,
    /// As a record writes it (`1-0`, `0-1`, `1/2-1/2`, `*` for an aborted game).
    pub result: String,
    /// The reason code of the end.
    pub reason: String,
}

/// Every finished game of the database at `url` (`sqlite:FILE` or `postgres://…`),
/// oldest first. Blocks while it reads.
pub fn finished_games(url: &str) -> Result<Vec<FinishedGame>, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the database reader: {e}"))?;
    runtime.block_on(async {
        let store = Store::open(url, "export").await?;
        let ids = store.finished().await.map_err(|e| e.to_string())?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let events = store.events(&id, 0).await?;
            let state = GameState::replay(&events).map_err(|e| format!("game {id}: {e}"))?;
            let (result, reason) = state.end.clone().unwrap_or_default();
            out.push(FinishedGame {
                id,
                created_at: state.created_at,
                rules: state.rules,
                moves: state.moves(),
                result,
                reason,
            });
        }
        Ok(out)
    })
}
