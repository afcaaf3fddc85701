//! The online store's group commit on SQLite and on a throwaway PostgreSQL cluster:
//! moves of many games made at once are committed together in a few statements
//! (`Store::commit_counts`), each game ending at its own version and status, and a
//! group with a clash falls back to one savepoint per append, so that only the
//! clashing append fails (docs/online.md, "Load").

mod gui_common;
mod online_common;

use jungle_online::model::{Event, Side, Stored};
use jungle_online::store::{AppendError, Store};
use online_common::*;

fn stored(v: u64, ev: Event) -> Stored {
    Stored {
        v,
        at: v as i64,
        ev,
    }
}

fn seated(v: u64) -> Stored {
    stored(v, Event::Seated { side: Side::Red })
}

async fn create_games(store: &Store, n: usize) -> Result<Vec<String>, String> {
    let ids: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
    for id in &ids {
        store
            .create_waiting(id, false)
            .await
            .map_err(|e| format!("{id}: {e:?}"))?;
    }
    Ok(ids)
}

async fn group_commits(url: &str) -> Result<(), String> {
    let store = Store::open(url, "test").await?;
    let ids = create_games(&store, 150).await?;
    // Three rounds of a move in every game at once: after the first append of a
    // round the writer finds the others waiting and commits them together.
    for v in 2..5u64 {
        let status = if v == 4 { "over" } else { "playing" };
        let events = [seated(v)];
        let appends = ids
            .iter()
            .map(|id| store.append(id, &events, status, None, false, None));
        let outcomes = futures_util::future::join_all(appends).await;
        if let Some(e) = outcomes.iter().find(|o| o.is_err()) {
            return Err(format!("round {v}: {e:?}"));
        }
    }
    let counts = store.commit_counts();
    assert!(counts.together >= 3, "{counts:?}");
    assert_eq!(counts.fell_back, 0, "{counts:?}");
    for id in &ids {
        let versions: Vec<u64> = store.events(id, 0).await?.iter().map(|e| e.v).collect();
        assert_eq!(versions, [1, 2, 3, 4], "{id}");
        let row = store.game(id).await.map_err(|e| e.to_string())?;
        assert_eq!(row.map(|r| r.status), Some("over".to_string()), "{id}");
    }
    // A clash (version 4 of s1 is stored) among new moves: only it fails.
    let (old, new) = ([seated(4)], [seated(5)]);
    let appends = ids[..40].iter().enumerate().map(|(i, id)| {
        let events = if i == 1 { &old } else { &new };
        store.append(id, events, "over", None, false, None)
    });
    let outcomes = futures_util::future::join_all(appends).await;
    for (i, o) in outcomes.iter().enumerate() {
        if i == 1 {
            assert!(matches!(o, Err(AppendError::Conflict)), "{o:?}");
        } else {
            assert!(o.is_ok(), "{i}: {o:?}");
        }
    }
    assert!(store.commit_counts().fell_back >= 1);
    assert_eq!(store.events(&ids[1], 0).await?.len(), 4);
    assert_eq!(store.events(&ids[0], 0).await?.len(), 5);
    Ok(())
}

#[test]
fn moves_of_many_games_commit_together_on_sqlite() {
    let dir = TempDir::new("store");
    let url = format!("sqlite:{}?mode=rwc", dir.0.join("games.sqlite").display());
    block_on(group_commits(&url));
}

#[test]
fn moves_of_many_games_commit_together_on_postgresql() {
    let Some(pg) = Postgres::start() else {
        eprintln!("SKIPPED: PostgreSQL is not installed");
        return;
    };
    block_on(group_commits(&pg.url));
}
