//! The finished games of a database, for programs that read them (`jungle puzzles
//! mine --database`): each game's rules, moves and result, oldest first; and the
//! puzzles' ratings learnt from people (`jungle puzzles ratings`).

use crate::model::GameState;
use crate::store::{PuzzleRatingRow, Store};
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
    let runtime = reader()?;
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

/// The runtime a blocking read of the database runs on.
fn reader() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the database reader: {e}"))
}

/// The puzzles' ratings learnt by the database at `url` (`jungle puzzles ratings`),
/// by puzzle id. Blocks while it reads.
pub fn puzzle_ratings(url: &str) -> Result<Vec<PuzzleRatingRow>, String> {
    let runtime = reader()?;
    runtime.block_on(async {
        let store = Store::open(url, "export").await?;
        store.puzzle_ratings().await.map_err(|e| e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, Side, Stored};
    use crate::store::NewGame;

    fn stored(v: u64, ev: Event) -> Stored {
        Stored {
            v,
            at: v as i64,
            ev,
        }
    }

    /// A database with a finished game and one being played: only the finished one
    /// is read, with its rules and moves.
    #[test]
    fn the_finished_games_are_read_oldest_first() {
        let dir = std::env::temp_dir().join(format!("jungle-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let url = format!("sqlite:{}?mode=rwc", dir.join("games.sqlite").display());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let store = Store::open(&url, "test").await.expect("opens");
            let moves = ["a3a4", "g7g6", "a4a5"];
            for (id, created, over) in [("b-playing", 2, false), ("a-over", 1, true)] {
                let mut events = vec![
                    stored(
                        1,
                        Event::Created {
                            rules: "jungle-cn".into(),
                            tc: "5m+3s".into(),
                        },
                    ),
                    stored(2, Event::Seated { side: Side::Red }),
                    stored(3, Event::Seated { side: Side::Blue }),
                ];
                for (i, m) in moves.iter().enumerate() {
                    events.push(stored(
                        4 + i as u64,
                        Event::Move {
                            ply: i as u32,
                            mv: (*m).into(),
                            left_ms: 1000,
                            credit_ms: 0,
                        },
                    ));
                }
                if over {
                    events.push(stored(
                        7,
                        Event::End {
                            result: "0-1".into(),
                            reason: "resign".into(),
                        },
                    ));
                }
                let game = NewGame {
                    id,
                    created_at: created,
                    rules: "jungle-cn",
                    tc: "5m+3s",
                    hashes: [None, None],
                    lobby: false,
                    creator_ip: "127.0.0.1",
                    status: if over { "over" } else { "playing" },
                    rated: false,
                    users: [None, None],
                    range: None,
                    invited: None,
                };
                store.create(&game, &events).await.expect("stored");
            }
        });
        let games = finished_games(&url).expect("read");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].id, "a-over");
        assert_eq!(games[0].moves, ["a3a4", "g7g6", "a4a5"]);
        assert!(games[0].rules.anti_chase);
        assert_eq!(
            (games[0].result.as_str(), games[0].reason.as_str()),
            ("0-1", "resign")
        );
        assert!(finished_games("mysql://nowhere").is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
