//! The database: SQLite (the default, one file, WAL with `synchronous=FULL`, or
//! `NORMAL` by choice: `SqliteSync`) or
//! PostgreSQL, through sqlx's `Any` driver so that one set of queries (`$1`
//! placeholders, which both read) serves both. A game is a row in `games` and its log
//! in `events`, whose key `(game_id, version)` makes the database the judge of which
//! of two writers stored a move first (each appends at the version after the one it
//! read). The schema is
//! created on start and migrated by the versions in `schema_migrations`.
//!
//! On SQLite the write-ahead log is copied into the database by a task of its own
//! every second (`checkpoints`), not by the commit that finds it long: a checkpoint
//! writes and syncs the database file, which on a slow disk took the writer (and
//! every move waiting for it) hundreds of milliseconds. Should that task fall
//! behind, a commit still checkpoints once the log reaches `WAL_PAGES_MAX` pages.

use crate::accounts::Category;
use crate::model::{Event, Side, Stored};
use crate::notify::{Notice, CHANNEL};
use jungle_glicko2::{self as glicko2, Rating};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// How SQLite makes a commit durable (`jungle serve --sqlite-sync`). In WAL mode both
/// keep every acknowledged commit through a crash of the server (SIGKILL): the log
/// is written to the operating system before the commit returns. `Full` also syncs
/// the log to the disk at each commit, so that commits survive a power cut; `Normal`
/// syncs only at checkpoints, so that a power cut (or a crash of the machine) may
/// lose the last commits, never the database's consistency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SqliteSync {
    #[default]
    Full,
    Normal,
}

impl SqliteSync {
    fn pragma(self) -> &'static str {
        match self {
            SqliteSync::Full => "FULL",
            SqliteSync::Normal => "NORMAL",
        }
    }
}

/// The database's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

/// The migrations in order: version `i + 1` is `MIGRATIONS[i]`. Append only. 2: the time
/// controls in the one notation (`10+5`, minutes and seconds, becomes `10m+5s`; a
/// game's log keeps its text, which `clock::stored_tc` reads). 3: accounts, sessions,
/// ratings and their history, and each game's accounts and whether it is rated
/// (docs/accounts.md). 4: a challenge's rating range (docs/accounts.md, "Pairing by
/// rating"). 5: the puzzles' ratings learnt from people and every logged-in attempt at a
/// puzzle, at most one of each account's per puzzle rated (docs/puzzles.md). 6: the
/// account a challenge invites (a bot, docs/accounts.md "Bots online"). 7: `events`
/// without the unique `(game_id, ply)`: every append is at the version after the one
/// its writer read, so the key `(game_id, version)` alone refuses the second of two
/// writers, and each move wrote a page of that index too. 8: `bots_online`, when each
/// bot was last seen by any node and what it plays (docs/accounts.md, "Bots online"),
/// so that every node of one database sees the same bots online.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    rules TEXT NOT NULL,
    tc TEXT NOT NULL,
    red_hash TEXT,
    blue_hash TEXT,
    lobby BIGINT NOT NULL,
    creator_ip TEXT NOT NULL,
    status TEXT NOT NULL,
    version BIGINT NOT NULL
);
CREATE INDEX games_status ON games (status);
CREATE INDEX games_red_hash ON games (red_hash);
CREATE INDEX games_blue_hash ON games (blue_hash);
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    version BIGINT NOT NULL,
    ply BIGINT,
    at BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, version),
    UNIQUE (game_id, ply)
);
CREATE TABLE service (
    id BIGINT PRIMARY KEY,
    last_seen BIGINT NOT NULL
);
",
    "
UPDATE games SET tc = REPLACE(tc, '+', 'm+') || 's' WHERE tc LIKE '%+%' AND tc NOT LIKE '%s'
",
    "
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    deleted BIGINT NOT NULL DEFAULT 0,
    is_bot BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    last_seen BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    category TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    vol DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, category)
);
CREATE TABLE rating_history (
    user_id TEXT NOT NULL REFERENCES users (id),
    category TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    rating_before DOUBLE PRECISION NOT NULL,
    rd_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    rd_after DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_history_user ON rating_history (user_id, category, at);
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rated_done BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN red_user TEXT;
ALTER TABLE games ADD COLUMN blue_user TEXT;
CREATE INDEX games_red_user ON games (red_user);
CREATE INDEX games_blue_user ON games (blue_user)
",
    "
ALTER TABLE games ADD COLUMN rating_min BIGINT;
ALTER TABLE games ADD COLUMN rating_max BIGINT
",
    "
CREATE TABLE puzzle_ratings (
    puzzle_id TEXT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    vol DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE puzzle_attempts (
    user_id TEXT NOT NULL REFERENCES users (id),
    puzzle_id TEXT NOT NULL,
    at BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    player_before DOUBLE PRECISION NOT NULL,
    player_after DOUBLE PRECISION NOT NULL,
    puzzle_before DOUBLE PRECISION NOT NULL,
    puzzle_after DOUBLE PRECISION NOT NULL
);
CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id, puzzle_id);
CREATE UNIQUE INDEX puzzle_attempts_rated ON puzzle_attempts (user_id, puzzle_id) WHERE rated = 1
",
    "
ALTER TABLE games ADD COLUMN invited TEXT;
CREATE INDEX games_invited ON games (invited)
",
    "
CREATE TABLE events_v7 (
    game_id TEXT NOT NULL REFERENCES games (id),
    version BIGINT NOT NULL,
    ply BIGINT,
    at BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
INSERT INTO events_v7 (game_id, version, ply, at, body)
    SELECT game_id, version, ply, at, body FROM events;
DROP TABLE events;
ALTER TABLE events_v7 RENAME TO events
",
    "
CREATE TABLE bots_online (
    user_id TEXT PRIMARY KEY REFERENCES users (id),
    seen_at BIGINT NOT NULL,
    plays TEXT
)
",
];

/// Why an append failed.
#[derive(Debug)]
pub enum AppendError {
    /// Another writer stored this version (or took the seat) first.
    Conflict,
    Db(sqlx::Error),
}

impl From<sqlx::Error> for AppendError {
    fn from(e: sqlx::Error) -> Self {
        match e.as_database_error() {
            Some(d) if d.is_unique_violation() => AppendError::Conflict,
            _ => AppendError::Db(e),
        }
    }
}

/// A game's row.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub created_at: i64,
    pub rules: String,
    pub tc: String,
    pub hashes: [Option<String>; 2],
    pub lobby: bool,
    pub status: String,
    pub rated: bool,
    /// The accounts in the seats (red, blue), if they were logged in.
    pub users: [Option<String>; 2],
    /// The ratings a joiner must have (a challenge's range), if it has one.
    pub range: Option<(i64, i64)>,
    /// The only account that may join (a challenge to a bot), if any.
    pub invited: Option<String>,
}

/// A bot seen within the window (`bots_online`): its account, name, and what it
/// plays as it last said (the JSON of `bots::Plays`), if it said.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSeenRow {
    pub user_id: String,
    pub username: String,
    pub plays: Option<String>,
}

/// A new game's row.
pub struct NewGame<'a> {
    pub id: &'a str,
    pub created_at: i64,
    pub rules: &'a str,
    pub tc: &'a str,
    pub hashes: [Option<&'a str>; 2],
    pub lobby: bool,
    pub creator_ip: &'a str,
    pub status: &'a str,
    pub rated: bool,
    pub users: [Option<&'a str>; 2],
    pub range: Option<(i64, i64)>,
    pub invited: Option<&'a str>,
}

/// A seat taken by an append: the side, its token's hash, and its account.
#[derive(Clone, Copy, Debug)]
pub struct Seat<'a> {
    pub side: Side,
    pub hash: &'a str,
    pub user: Option<&'a str>,
}

/// An account's row.
#[derive(Clone, Debug)]
pub struct UserRow {
    pub id: String,
    pub username: String,
    pub password_hash: String,
    pub created_at: i64,
    pub deleted: bool,
    pub is_bot: bool,
}

/// One category's rating of an account.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub category: String,
    pub rating: Rating,
    pub games: i64,
    pub updated_at: i64,
}

/// One rated game's change of an account's rating.
#[derive(Clone, Debug)]
pub struct HistoryRow {
    pub category: String,
    pub game_id: String,
    pub before: (f64, f64),
    pub after: (f64, f64),
    pub at: i64,
}

const GAME_COLUMNS: &str =
    "id, created_at, rules, tc, red_hash, blue_hash, lobby, status, rated, red_user, blue_user, rating_min, rating_max, invited";
/// An account's rating in one category (`$1` the account, `$2` the category).
const RATING_OF: &str = "SELECT category, rating, rd, vol, games, updated_at FROM ratings WHERE user_id = $1 AND category = $2";
const USER_COLUMNS: &str = "id, username, password_hash, created_at, deleted, is_bot";

/// The connection pool and the database's kind.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    kind: Kind,
    /// This node's name, in its notifications (so that it skips its own).
    node: String,
    /// The writer's queue (`append`, `heartbeat`).
    appends: tokio::sync::mpsc::Sender<Write>,
    /// How the group commits went (`commit_counts`).
    counts: Arc<CommitCounters>,
}

/// How often a group's plain appends were committed together, and how often that
/// failed and they were committed each in its savepoint instead.
#[derive(Default)]
struct CommitCounters {
    together: AtomicU64,
    fell_back: AtomicU64,
}

/// `Store::commit_counts`: groups of plain appends committed together, and those
/// whose statements failed (another node's append, a broken database) and were
/// committed each on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommitCounts {
    pub together: u64,
    pub fell_back: u64,
}

/// What the writer does: an append, or the service's heartbeat (on SQLite, one
/// writer at a time: another connection writing beside it would make the group
/// commit wait in SQLite's busy handler, a stall of tens of milliseconds a second).
enum Write {
    Append(Append),
    Heartbeat {
        at: i64,
        done: tokio::sync::oneshot::Sender<Result<(), sqlx::Error>>,
    },
}

/// An append waiting for the group commit, and where its outcome goes.
struct Append {
    id: String,
    events: Vec<Stored>,
    status: String,
    seat: Option<OwnedSeat>,
    leave_lobby: bool,
    rated_end: Option<f64>,
    done: tokio::sync::oneshot::Sender<Result<(), AppendError>>,
}

impl Append {
    /// Only events and the status: no seat taken, no game rated.
    fn plain(&self) -> bool {
        self.seat.is_none() && self.rated_end.is_none()
    }
}

/// A seat taken by an append: the side, its token's hash, the account if any.
struct OwnedSeat {
    side: Side,
    hash: String,
    user: Option<String>,
}

/// SQLite: a commit checkpoints the write-ahead log itself only when it is this
/// many pages long (40 MB); the `checkpoints` task keeps it far shorter.
const WAL_PAGES_MAX: u32 = 10_000;

/// SQLite: copies the write-ahead log into the database every second, beside the
/// writer (a passive checkpoint waits for no one and blocks no one).
async fn checkpoints(pool: AnyPool) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(1));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if pool.is_closed() {
            return;
        }
        let started = std::time::Instant::now();
        match sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&pool)
            .await
        {
            // Its pages: those in the log, and those copied into the database.
            Ok(row) => log_if_slow(
                "a checkpoint",
                row.try_get::<i64, _>(2).unwrap_or(0) as usize,
                started,
            ),
            Err(e) => log::warn!("checkpoint of the write-ahead log: {e}"),
        }
    }
}

/// A database operation slower than `SLOW_MS` is logged at debug level (the load
/// benchmark's tails: `RUST_LOG=jungle_online::store=debug`).
fn log_if_slow(what: &str, items: usize, started: std::time::Instant) {
    let ms = started.elapsed().as_millis();
    if ms >= SLOW_MS {
        log::debug!("{what} of {items} took {ms} ms");
    }
}

const SLOW_MS: u128 = 20;

/// At most this many appends share one transaction.
const GROUP_COMMIT_MAX: usize = 256;

impl Store {
    /// Opens (creating if needed) the database at `url` (`sqlite:…` or
    /// `postgres://…`) and migrates its schema; SQLite syncs each commit.
    pub async fn open(url: &str, node: &str) -> Result<Store, String> {
        Store::open_with(url, node, SqliteSync::Full).await
    }

    /// `open`, with SQLite's commits made durable as `sync` says (ignored on
    /// PostgreSQL, whose server decides).
    pub async fn open_with(url: &str, node: &str, sync: SqliteSync) -> Result<Store, String> {
        sqlx::any::install_default_drivers();
        let kind = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Kind::Postgres
        } else if url.starts_with("sqlite:") {
            Kind::Sqlite
        } else {
            return Err(format!(
                "unknown database URL '{}': expected sqlite:PATH or postgres://…",
                url.chars().take(40).collect::<String>()
            ));
        };
        let mut options = AnyPoolOptions::new().max_connections(match kind {
            // One writer at a time in SQLite anyway; a few readers beside it.
            Kind::Sqlite => 4,
            Kind::Postgres => 8,
        });
        if kind == Kind::Sqlite {
            options = options.after_connect(move |conn, _| {
                Box::pin(async move {
                    let pragmas = format!(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = {}; \
                         PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON; \
                         PRAGMA wal_autocheckpoint = {WAL_PAGES_MAX};",
                        sync.pragma()
                    );
                    conn.execute(pragmas.as_str()).await?;
                    Ok(())
                })
            });
        }
        let pool = options
            .connect(url)
            .await
            .map_err(|e| format!("cannot open the database: {e}"))?;
        let (appends, queue) = tokio::sync::mpsc::channel(4 * GROUP_COMMIT_MAX);
        let store = Store {
            pool,
            kind,
            node: node.to_string(),
            appends,
            counts: Arc::default(),
        };
        tokio::spawn(store.clone().group_commit(queue));
        if kind == Kind::Sqlite {
            tokio::spawn(checkpoints(store.pool.clone()));
        }
        store
            .migrate()
            .await
            .map_err(|e| format!("cannot create or migrate the schema: {e}"))?;
        Ok(store)
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// How the group commits have gone since the store was opened.
    pub fn commit_counts(&self) -> CommitCounts {
        CommitCounts {
            together: self.counts.together.load(Ordering::Relaxed),
            fell_back: self.counts.fell_back.load(Ordering::Relaxed),
        }
    }

    /// Applies the migrations the database has not had, each in a transaction; on
    /// PostgreSQL under an advisory lock, so that nodes starting together take turns.
    async fn migrate(&self) -> Result<(), sqlx::Error> {
        let mut conn = self.pool.acquire().await?;
        if self.kind == Kind::Postgres {
            conn.execute("SELECT pg_advisory_lock(4343)").await?;
        }
        let result = async {
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
            )
            .await?;
            let have: i64 = sqlx::query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
                .fetch_one(&mut *conn)
                .await?
                .try_get(0)?;
            for (i, sql) in MIGRATIONS.iter().enumerate() {
                let version = i as i64 + 1;
                if version <= have {
                    continue;
                }
                log::info!("migrating the database schema to version {version}");
                let mut tx = sqlx::Connection::begin(&mut *conn).await?;
                for statement in sql.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                    tx.execute(statement).await?;
                }
                sqlx::query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)")
                    .bind(version)
                    .bind(crate::now_ms())
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            }
            Ok::<(), sqlx::Error>(())
        }
        .await;
        if self.kind == Kind::Postgres {
            conn.execute("SELECT pg_advisory_unlock(4343)").await?;
        }
        result
    }

    /// The schema's version.
    pub async fn schema_version(&self) -> Result<i64, sqlx::Error> {
        sqlx::query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)
    }

    /// Stores a new game with its first events, in one transaction.
    /// A casual game of the standard rules at 5m+3s that no one sits in yet, created
    /// at time 0 with its first event (the store's tests and benchmarks).
    pub async fn create_waiting(&self, id: &str, lobby: bool) -> Result<(), AppendError> {
        let game = NewGame {
            id,
            created_at: 0,
            rules: "jungle",
            tc: "5m+3s",
            hashes: [None, None],
            lobby,
            creator_ip: "127.0.0.1",
            status: "waiting",
            rated: false,
            users: [None, None],
            range: None,
            invited: None,
        };
        let created = Event::Created {
            rules: game.rules.into(),
            tc: game.tc.into(),
        };
        let first = Stored {
            v: 1,
            at: 0,
            ev: created,
        };
        self.create(&game, &[first]).await
    }

    pub async fn create(&self, g: &NewGame<'_>, events: &[Stored]) -> Result<(), AppendError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, created_at, rules, tc, red_hash, blue_hash, lobby, creator_ip, status, version, rated, red_user, blue_user, rating_min, rating_max, invited) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )
        .bind(g.id)
        .bind(g.created_at)
        .bind(g.rules)
        .bind(g.tc)
        .bind(g.hashes[0])
        .bind(g.hashes[1])
        .bind(i64::from(g.lobby))
        .bind(g.creator_ip)
        .bind(g.status)
        .bind(events.last().map_or(0, |e| e.v as i64))
        .bind(i64::from(g.rated))
        .bind(g.users[0])
        .bind(g.users[1])
        .bind(g.range.map(|r| r.0))
        .bind(g.range.map(|r| r.1))
        .bind(g.invited)
        .execute(&mut *tx)
        .await?;
        for e in events {
            insert_event(&mut tx, g.id, e).await?;
        }
        self.notify(&mut tx, g.id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Appends events (the next versions) to a game in one transaction, with the game's
    /// new status, taking `seat` if given. `rated_end`, red's score when these events
    /// end a game both sides moved in, rates a rated game in the same transaction
    /// (once: `rated_done`). Committed when this returns `Ok`: only then may they be
    /// shown.
    ///
    /// The appends of all games go through one queue: those waiting when the writer
    /// is free share one transaction, each in its own savepoint (one append's conflict
    /// undoes only its own), so that a commit, which waits for the disk, serves every
    /// move made meanwhile (a group commit).
    pub async fn append(
        &self,
        id: &str,
        events: &[Stored],
        status: &str,
        seat: Option<Seat<'_>>,
        leave_lobby: bool,
        rated_end: Option<f64>,
    ) -> Result<(), AppendError> {
        let (done, outcome) = tokio::sync::oneshot::channel();
        let append = Append {
            id: id.to_string(),
            events: events.to_vec(),
            status: status.to_string(),
            seat: seat.map(|seat| OwnedSeat {
                side: seat.side,
                hash: seat.hash.to_string(),
                user: seat.user.map(str::to_string),
            }),
            leave_lobby,
            rated_end,
            done,
        };
        let stopped = || AppendError::Db(sqlx::Error::PoolClosed);
        self.appends
            .send(Write::Append(append))
            .await
            .map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }

    /// The writer: takes the appends waiting, commits them together, answers each;
    /// then writes the heartbeats that came with them.
    async fn group_commit(self, mut queue: tokio::sync::mpsc::Receiver<Write>) {
        while let Some(first) = queue.recv().await {
            let mut waiting = vec![first];
            while waiting.len() < GROUP_COMMIT_MAX {
                match queue.try_recv() {
                    Ok(next) => waiting.push(next),
                    Err(_) => break,
                }
            }
            let mut group = Vec::with_capacity(waiting.len());
            let mut beats = Vec::new();
            for w in waiting {
                match w {
                    Write::Append(a) => group.push(a),
                    Write::Heartbeat { at, done } => beats.push((at, done)),
                }
            }
            if !group.is_empty() {
                let started = std::time::Instant::now();
                let outcomes = self.commit_group(&group).await;
                log_if_slow("a group commit", group.len(), started);
                for (append, outcome) in group.into_iter().zip(outcomes) {
                    // The caller may have gone (its connection closed): nothing to tell.
                    let _ = append.done.send(outcome);
                }
            }
            for (at, done) in beats {
                let _ = done.send(self.write_heartbeat(at).await);
            }
        }
    }

    /// Commits a group: the appends of games whose appends only add events and set
    /// the status (moves, the common case) with a few statements for all of them
    /// (`commit_plain`); the others (a seat taken, a rated end) and, should those
    /// statements fail (another node's append to one of the games), all of them, each
    /// in its savepoint (`commit_each`). The outcomes in the group's order.
    async fn commit_group(&self, group: &[Append]) -> Vec<Result<(), AppendError>> {
        let mixed: HashSet<&str> = group
            .iter()
            .filter(|a| !a.plain())
            .map(|a| a.id.as_str())
            .collect();
        let (plain, other): (Vec<usize>, Vec<usize>) =
            (0..group.len()).partition(|&i| !mixed.contains(group[i].id.as_str()));
        let mut outcomes: Vec<Option<Result<(), AppendError>>> =
            (0..group.len()).map(|_| None).collect();
        let mut each = other;
        if plain.len() > 1 {
            let appends: Vec<&Append> = plain.iter().map(|&i| &group[i]).collect();
            match self.commit_plain(&appends).await {
                Ok(()) => {
                    self.counts.together.fetch_add(1, Ordering::Relaxed);
                    plain.iter().for_each(|&i| outcomes[i] = Some(Ok(())));
                }
                Err(e) => {
                    self.counts.fell_back.fetch_add(1, Ordering::Relaxed);
                    log::debug!("a group's appends together failed ({e}); each on its own");
                    each.extend(plain);
                    each.sort_unstable();
                }
            }
        } else {
            each.extend(plain);
            each.sort_unstable();
        }
        if !each.is_empty() {
            let appends: Vec<&Append> = each.iter().map(|&i| &group[i]).collect();
            for (i, outcome) in each.iter().zip(self.commit_each(&appends).await) {
                outcomes[*i] = Some(outcome);
            }
        }
        outcomes
            .into_iter()
            .map(|o| o.unwrap_or(Err(AppendError::Conflict)))
            .collect()
    }

    /// Plain appends (`Append::plain`) in one transaction of a few statements: every
    /// event in multi-row inserts, each game's last version and status in one update
    /// (a game may have several appends in the group: the last one's figures), one
    /// notification per game. All or nothing.
    async fn commit_plain(&self, group: &[&Append]) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let events: Vec<(&str, &Stored)> = group
            .iter()
            .flat_map(|a| a.events.iter().map(move |e| (a.id.as_str(), e)))
            .collect();
        for chunk in events.chunks(ROWS_PER_STATEMENT) {
            insert_events(&mut tx, chunk).await?;
        }
        let mut games: Vec<GameUpdate> = Vec::new();
        for a in group {
            let version = a.events.last().map_or(0, |e| e.v as i64);
            match games.iter_mut().find(|g| g.id == a.id) {
                Some(g) => {
                    g.version = version;
                    g.status = &a.status;
                    g.leave_lobby |= a.leave_lobby;
                }
                None => games.push(GameUpdate {
                    id: &a.id,
                    version,
                    status: &a.status,
                    leave_lobby: a.leave_lobby,
                }),
            }
        }
        for chunk in games.chunks(ROWS_PER_STATEMENT) {
            update_games(&mut tx, chunk).await?;
        }
        if self.kind == Kind::Postgres {
            let ids: Vec<&str> = games.iter().map(|g| g.id).collect();
            for chunk in ids.chunks(ROWS_PER_STATEMENT) {
                self.notify_all(&mut tx, chunk).await?;
            }
        }
        tx.commit().await
    }

    /// Each append in a savepoint of one transaction; the outcome of each (all fail
    /// when the commit does).
    async fn commit_each(&self, group: &[&Append]) -> Vec<Result<(), AppendError>> {
        let failed = |e: &sqlx::Error| {
            (0..group.len())
                .map(|_| Err(AppendError::Db(sqlx::Error::Protocol(e.to_string()))))
                .collect()
        };
        let mut tx = match self.pool.begin().await {
            Ok(tx) => tx,
            Err(e) => return failed(&e),
        };
        let mut outcomes = Vec::with_capacity(group.len());
        for a in group {
            let mut savepoint = match sqlx::Connection::begin(&mut *tx).await {
                Ok(sp) => sp,
                Err(e) => return failed(&e),
            };
            let outcome = self.append_in(&mut savepoint, a).await;
            let closed = match outcome {
                Ok(()) => savepoint.commit().await,
                Err(_) => savepoint.rollback().await,
            };
            if let Err(e) = closed {
                return failed(&e);
            }
            outcomes.push(outcome);
        }
        match tx.commit().await {
            Ok(()) => outcomes,
            Err(e) => failed(&e),
        }
    }

    /// One append's statements, in `tx`.
    async fn append_in(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        a: &Append,
    ) -> Result<(), AppendError> {
        for e in &a.events {
            insert_event(tx, &a.id, e).await?;
        }
        if let Some(seat) = &a.seat {
            let sql = match seat.side {
                Side::Red => "UPDATE games SET red_hash = $1, red_user = $2 WHERE id = $3 AND red_hash IS NULL",
                Side::Blue => "UPDATE games SET blue_hash = $1, blue_user = $2 WHERE id = $3 AND blue_hash IS NULL",
            };
            let done = sqlx::query(sql)
                .bind(seat.hash.as_str())
                .bind(seat.user.as_deref())
                .bind(a.id.as_str())
                .execute(&mut **tx)
                .await?;
            if done.rows_affected() != 1 {
                return Err(AppendError::Conflict);
            }
        }
        let version = a.events.last().map_or(0, |e| e.v as i64);
        sqlx::query(
            "UPDATE games SET version = $1, status = $2, lobby = CASE WHEN $3 = 1 THEN 0 ELSE lobby END \
             WHERE id = $4 AND (status <> $2 OR $3 = 1)",
        )
        .bind(version)
        .bind(a.status.as_str())
        .bind(i64::from(a.leave_lobby))
        .bind(a.id.as_str())
        .execute(&mut **tx)
        .await?;
        if let Some(score) = a.rated_end {
            let at = a.events.last().map_or_else(crate::now_ms, |e| e.at);
            rate(tx, &a.id, score, at).await?;
        }
        self.notify(tx, &a.id).await?;
        Ok(())
    }

    /// On PostgreSQL, tells the other nodes (at commit) that a game changed.
    async fn notify(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        id: &str,
    ) -> Result<(), sqlx::Error> {
        if self.kind == Kind::Postgres {
            let notice = Notice::Changed {
                game: id.to_string(),
                node: self.node.clone(),
            };
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(notice.payload())
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// On PostgreSQL, tells the other nodes (at commit) that these games changed.
    async fn notify_all(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        ids: &[&str],
    ) -> Result<(), sqlx::Error> {
        let rows = placeholders(ids.len(), 1, 2);
        let sql = format!("SELECT pg_notify($1, v.column1) FROM (VALUES {rows}) AS v");
        let mut q = sqlx::query(&sql).bind(CHANNEL);
        for id in ids {
            let notice = Notice::Changed {
                game: id.to_string(),
                node: self.node.clone(),
            };
            q = q.bind(notice.payload());
        }
        q.execute(&mut **tx).await?;
        Ok(())
    }

    /// On PostgreSQL, tells the other nodes this node's connection counts of a game's
    /// seats (outside any transaction).
    pub async fn notify_presence(&self, game: &str, counts: [u32; 2]) -> Result<(), sqlx::Error> {
        if self.kind == Kind::Postgres {
            let notice = Notice::Presence {
                game: game.to_string(),
                node: self.node.clone(),
                counts,
            };
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(notice.payload())
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// A game's events after version `since`, in order.
    pub async fn events(&self, id: &str, since: u64) -> Result<Vec<Stored>, String> {
        let rows = sqlx::query(
            "SELECT version, at, body FROM events WHERE game_id = $1 AND version > $2 ORDER BY version",
        )
        .bind(id)
        .bind(since as i64)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| e.to_string())?;
        rows.iter().map(read_event).collect()
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, sqlx::Error> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| read_game(&r)).transpose()
    }

    /// The ids of the games over, oldest first (by creation, then id).
    pub async fn finished(&self) -> Result<Vec<String>, sqlx::Error> {
        let rows =
            sqlx::query("SELECT id FROM games WHERE status = 'over' ORDER BY created_at, id")
                .fetch_all(&self.pool)
                .await?;
        rows.iter().map(|r| r.try_get(0)).collect()
    }

    /// The ids of the games not over.
    pub async fn unfinished(&self) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query("SELECT id FROM games WHERE status <> 'over'")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| r.try_get(0)).collect()
    }

    /// Open challenges in the lobby, oldest first.
    pub async fn lobby(&self) -> Result<Vec<GameRow>, sqlx::Error> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games \
             WHERE lobby = 1 AND status = 'waiting' ORDER BY created_at LIMIT 100"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_game).collect()
    }

    /// The challenges waiting for the account `user` (invitations to a bot), oldest
    /// first.
    pub async fn invitations(&self, user: &str) -> Result<Vec<GameRow>, sqlx::Error> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games \
             WHERE invited = $1 AND status = 'waiting' ORDER BY created_at LIMIT 100"
        ))
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_game).collect()
    }

    /// Whether the account `user` sits in a game being played.
    pub async fn playing(&self, user: &str) -> Result<bool, sqlx::Error> {
        let n: i64 = sqlx::query(
            "SELECT COUNT(*) FROM games WHERE (red_user = $1 OR blue_user = $1) AND status = 'playing'",
        )
        .bind(user)
        .fetch_one(&self.pool)
        .await?
        .try_get(0)?;
        Ok(n > 0)
    }

    /// The bot `user` was seen at `at` (a poll, a game's websocket): its last-seen time
    /// becomes `at` unless it is later already, and what it plays `plays` (JSON) if
    /// given, else stays.
    pub async fn bot_seen(
        &self,
        user: &str,
        at: i64,
        plays: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO bots_online (user_id, seen_at, plays) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET \
             seen_at = CASE WHEN excluded.seen_at > bots_online.seen_at \
             THEN excluded.seen_at ELSE bots_online.seen_at END, \
             plays = COALESCE(excluded.plays, bots_online.plays)",
        )
        .bind(user)
        .bind(at)
        .bind(plays)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// When the bot `user` was last seen by any node, if ever.
    pub async fn bot_seen_at(&self, user: &str) -> Result<Option<i64>, sqlx::Error> {
        sqlx::query("SELECT seen_at FROM bots_online WHERE user_id = $1")
            .bind(user)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| r.try_get(0))
            .transpose()
    }

    /// The bots (accounts not deleted) seen at `since` or later, by name.
    pub async fn bots_seen_since(&self, since: i64) -> Result<Vec<BotSeenRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT b.user_id, u.username, b.plays FROM bots_online b \
             JOIN users u ON u.id = b.user_id \
             WHERE b.seen_at >= $1 AND u.deleted = 0 AND u.is_bot = 1 ORDER BY u.username",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(BotSeenRow {
                    user_id: r.try_get(0)?,
                    username: r.try_get(1)?,
                    plays: r.try_get(2)?,
                })
            })
            .collect()
    }

    /// The challenges created before `since` still waiting for a bot they invite that
    /// no node has seen since `since` (at most 100, oldest first).
    pub async fn invitations_unseen_since(&self, since: i64) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g LEFT JOIN bots_online b ON b.user_id = g.invited \
             WHERE g.invited IS NOT NULL AND g.status = 'waiting' AND g.created_at < $1 \
             AND (b.seen_at IS NULL OR b.seen_at < $1) ORDER BY g.created_at LIMIT 100",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get(0)).collect()
    }

    /// The games whose seats these token hashes hold (at most 50 hashes).
    pub async fn games_of(&self, hashes: &[String]) -> Result<Vec<GameRow>, sqlx::Error> {
        let mut out = Vec::new();
        for h in hashes.iter().take(50) {
            let rows = sqlx::query(&format!(
                "SELECT {GAME_COLUMNS} FROM games \
                 WHERE red_hash = $1 OR blue_hash = $1 ORDER BY created_at DESC LIMIT 20"
            ))
            .bind(h)
            .fetch_all(&self.pool)
            .await?;
            for r in &rows {
                let game = read_game(r)?;
                // A rematch keeps the tokens: a game found by two of them is listed once.
                if !out.iter().any(|g: &GameRow| g.id == game.id) {
                    out.push(game);
                }
            }
        }
        out.sort_by_key(|g| std::cmp::Reverse(g.created_at));
        Ok(out)
    }

    /// How many games not over an address created.
    pub async fn open_games_of(&self, ip: &str) -> Result<i64, sqlx::Error> {
        sqlx::query("SELECT COUNT(*) FROM games WHERE creator_ip = $1 AND status <> 'over'")
            .bind(ip)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)
    }

    /// The service's last sign of life (0 if never), then records `now` as the new one.
    pub async fn heartbeat(&self, now: i64) -> Result<i64, sqlx::Error> {
        let last: Option<i64> = sqlx::query("SELECT last_seen FROM service WHERE id = 1")
            .fetch_optional(&self.pool)
            .await?
            .map(|r| r.try_get(0))
            .transpose()?;
        let (done, written) = tokio::sync::oneshot::channel();
        let stopped = || sqlx::Error::PoolClosed;
        self.appends
            .send(Write::Heartbeat { at: now, done })
            .await
            .map_err(|_| stopped())?;
        written.await.map_err(|_| stopped())??;
        Ok(last.unwrap_or(0))
    }

    /// The heartbeat's write (by the writer).
    async fn write_heartbeat(&self, now: i64) -> Result<(), sqlx::Error> {
        let done = sqlx::query("UPDATE service SET last_seen = $1 WHERE id = 1 AND last_seen < $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            // No row yet (or a later one): two nodes may both insert, the second
            // fails harmlessly.
            let _ = sqlx::query("INSERT INTO service (id, last_seen) VALUES (1, $1)")
                .bind(now)
                .execute(&self.pool)
                .await;
        }
        Ok(())
    }

    /// The database's size in bytes (SQLite: pages; PostgreSQL: the database).
    pub async fn size_bytes(&self) -> Result<i64, sqlx::Error> {
        let sql = match self.kind {
            Kind::Sqlite => {
                "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
            }
            Kind::Postgres => "SELECT pg_database_size(current_database())",
        };
        sqlx::query(sql).fetch_one(&self.pool).await?.try_get(0)
    }
}

/// The accounts (docs/accounts.md).
impl Store {
    /// Stores a new account; `Conflict` when its name's key is taken.
    pub async fn create_user(
        &self,
        id: &str,
        username: &str,
        key: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<(), AppendError> {
        sqlx::query(
            "INSERT INTO users (id, username, name_key, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(username)
        .bind(key)
        .bind(password_hash)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account whose name has this key (deleted ones have no name).
    pub async fn user_by_key(&self, key: &str) -> Result<Option<UserRow>, sqlx::Error> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users WHERE name_key = $1 AND deleted = 0"
        ))
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| read_user(&r)).transpose()
    }

    pub async fn user(&self, id: &str) -> Result<Option<UserRow>, sqlx::Error> {
        let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| read_user(&r)).transpose()
    }

    pub async fn create_session(
        &self,
        token_hash: &str,
        user_id: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, created_at, last_seen) VALUES ($1, $2, $3, $3)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account of a session seen since `idle_since` (not deleted), and the
    /// session's hash as stored; marks it seen at `now` (at most once a minute).
    pub async fn session(
        &self,
        token_hash: &str,
        now: i64,
        idle_since: i64,
    ) -> Result<Option<(UserRow, String)>, sqlx::Error> {
        let row = sqlx::query(&format!(
            "SELECT {}, s.token_hash, s.last_seen FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND u.deleted = 0 AND s.last_seen >= $2",
            USER_COLUMNS
                .split(", ")
                .map(|c| format!("u.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .bind(token_hash)
        .bind(idle_since)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        let user = read_user(&r)?;
        let stored: String = r.try_get(6)?;
        let last_seen: i64 = r.try_get(7)?;
        if now - last_seen > 60_000 {
            sqlx::query("UPDATE sessions SET last_seen = $1 WHERE token_hash = $2")
                .bind(now)
                .bind(token_hash)
                .execute(&self.pool)
                .await?;
        }
        Ok(Some((user, stored)))
    }

    pub async fn drop_session(&self, token_hash: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A new password hash; every session of the account but `keep` ends.
    pub async fn set_password(
        &self,
        user_id: &str,
        password_hash: &str,
        keep: &str,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
            .bind(user_id)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// Deletes an account: its name and password are gone (the name is free again),
    /// its sessions end; its games, ratings and history stay under its id, shown
    /// as a deleted player's.
    pub async fn delete_user(&self, user_id: &str) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "UPDATE users SET deleted = 1, username = '', name_key = '~' || id, password_hash = '' WHERE id = $1",
        )
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// Makes the account a bot if it has sat in no game (in one statement, so that no
    /// seat is taken in between); whether it did.
    pub async fn make_bot(&self, user_id: &str) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "UPDATE users SET is_bot = 1 WHERE id = $1 AND NOT EXISTS \
             (SELECT 1 FROM games WHERE red_user = $1 OR blue_user = $1)",
        )
        .bind(user_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// An account's ratings, by category.
    pub async fn ratings(&self, user_id: &str) -> Result<Vec<RatingRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT category, rating, rd, vol, games, updated_at FROM ratings WHERE user_id = $1 ORDER BY category",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_rating).collect()
    }

    /// An account's rating changes, oldest first.
    pub async fn history(&self, user_id: &str) -> Result<Vec<HistoryRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT category, game_id, rating_before, rd_before, rating_after, rd_after, at \
             FROM rating_history WHERE user_id = $1 ORDER BY at, game_id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryRow {
                    category: r.try_get(0)?,
                    game_id: r.try_get(1)?,
                    before: (r.try_get(2)?, r.try_get(3)?),
                    after: (r.try_get(4)?, r.try_get(5)?),
                    at: r.try_get(6)?,
                })
            })
            .collect()
    }

    /// The games an account sat in, newest first: `limit` of them after `offset`.
    pub async fn games_of_user(
        &self,
        user_id: &str,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<GameRow>, sqlx::Error> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE red_user = $1 OR blue_user = $1 \
             ORDER BY created_at DESC, id LIMIT $2 OFFSET $3"
        ))
        .bind(user_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_game).collect()
    }

    /// The finished games an account sat in, oldest first, at most `limit`.
    pub async fn finished_of_user(
        &self,
        user_id: &str,
        limit: i64,
    ) -> Result<Vec<GameRow>, sqlx::Error> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games \
             WHERE (red_user = $1 OR blue_user = $1) AND status = 'over' \
             ORDER BY created_at, id LIMIT $2"
        ))
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_game).collect()
    }

    /// A category's best ratings whose stored RD is at most `max_rd`, of accounts
    /// that are neither deleted nor bots, best first, at most `limit`: (username,
    /// rating).
    pub async fn leaderboard(
        &self,
        category: &str,
        max_rd: f64,
        limit: i64,
    ) -> Result<Vec<(String, RatingRow)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT r.category, r.rating, r.rd, r.vol, r.games, r.updated_at, u.username \
             FROM ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.category = $1 AND r.rd <= $2 AND u.deleted = 0 AND u.is_bot = 0 \
             ORDER BY r.rating DESC, u.name_key LIMIT $3",
        )
        .bind(category)
        .bind(max_rd)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(6)?, read_rating(r)?)))
            .collect()
    }

    /// Records `user` in the seat `side` of game `id` that the token hash `hash`
    /// holds, if the seat has no account yet and the game is neither over nor rated:
    /// whether it did.
    pub async fn claim_seat(
        &self,
        id: &str,
        side: Side,
        hash: &str,
        user: &str,
    ) -> Result<bool, sqlx::Error> {
        let (user_col, hash_col) = match side {
            Side::Red => ("red_user", "red_hash"),
            Side::Blue => ("blue_user", "blue_hash"),
        };
        let done = sqlx::query(&format!(
            "UPDATE games SET {user_col} = $1 WHERE id = $2 AND {hash_col} = $3 \
             AND {user_col} IS NULL AND status <> 'over' AND rated = 0"
        ))
        .bind(user)
        .bind(id)
        .bind(hash)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}

/// The category of an account's puzzle rating in `ratings` (beside the games'
/// `RULES.SPEED` ones).
pub const PUZZLE_CATEGORY: &str = "puzzle";

/// A puzzle's rating learnt from people, and its rated attempts.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRatingRow {
    pub puzzle_id: String,
    pub rating: Rating,
    pub attempts: i64,
}

/// What an attempt at a puzzle did: whether it was rated (an account's first at the
/// puzzle), and the player's and the puzzle's ratings before and after it (the same
/// when not rated).
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleAttempt {
    pub rated: bool,
    /// Stored in `puzzle_attempts` (not beyond `ATTEMPTS_KEPT` of an account's at one
    /// puzzle).
    pub recorded: bool,
    pub player_before: Rating,
    pub player: RatingRow,
    pub puzzle_before: Rating,
    pub puzzle: PuzzleRatingRow,
}

/// An attempt of `user_id` at `puzzle_id` (whose rating starts at `start` when nobody
/// has tried it yet), solved or not, at `at`.
#[derive(Clone, Copy, Debug)]
pub struct NewAttempt<'a> {
    pub user_id: &'a str,
    pub puzzle_id: &'a str,
    pub start: Rating,
    pub solved: bool,
    pub at: i64,
}

/// An account's attempts at one puzzle kept in `puzzle_attempts`: later ones (all
/// casual) are answered but not stored, so that no account can grow the table
/// without bound by sending one attempt again and again.
pub const ATTEMPTS_KEPT: i64 = 20;

/// How many times an attempt is tried when another transaction stored first (an
/// attempt of the same account at the same puzzle, which makes this one casual; or on
/// SQLite any write after this one's first read), a few milliseconds apart.
const ATTEMPT_TRIES: u64 = 10;

/// The puzzles' ratings (docs/puzzles.md, "Ratings from people").
impl Store {
    /// Stores an attempt: the account's first attempt at the
    /// puzzle is rated, the player's puzzle rating and the puzzle's updated by
    /// Glicko-2 in the same transaction as the attempt; a later one is recorded
    /// casual. A unique index lets at most one attempt per account and puzzle be
    /// rated, whatever requests race.
    pub async fn puzzle_attempt(&self, a: &NewAttempt<'_>) -> Result<PuzzleAttempt, sqlx::Error> {
        let mut tries = 0;
        loop {
            tries += 1;
            match self.try_puzzle_attempt(a).await {
                Err(e) if tries < ATTEMPT_TRIES && lost_a_race(&e) => {
                    tokio::time::sleep(std::time::Duration::from_millis(tries * 5)).await;
                }
                other => return other,
            }
        }
    }

    async fn try_puzzle_attempt(&self, a: &NewAttempt<'_>) -> Result<PuzzleAttempt, sqlx::Error> {
        let NewAttempt {
            user_id,
            puzzle_id,
            start,
            solved,
            at,
        } = *a;
        let mut tx = self.pool.begin().await?;
        let earlier = sqlx::query(
            "SELECT COUNT(*), COALESCE(MAX(rated), 0) FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2",
        )
        .bind(user_id)
        .bind(puzzle_id)
        .fetch_one(&mut *tx)
        .await?;
        let rated = earlier.try_get::<i64, _>(1)? == 0;
        let recorded = earlier.try_get::<i64, _>(0)? < ATTEMPTS_KEPT;
        let player = sqlx::query(RATING_OF)
            .bind(user_id)
            .bind(PUZZLE_CATEGORY)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| read_rating(&r))
            .transpose()?
            .unwrap_or(RatingRow {
                category: PUZZLE_CATEGORY.into(),
                rating: Rating::default(),
                games: 0,
                updated_at: at,
            });
        let puzzle = puzzle_rating_in(&mut tx, puzzle_id)
            .await?
            .unwrap_or(PuzzleRatingRow {
                puzzle_id: puzzle_id.into(),
                rating: start,
                attempts: 0,
            });
        let (player_before, puzzle_before) = (player.rating, puzzle.rating);
        let (player, puzzle) = if rated {
            let (p, z) = glicko2::game(
                player_before,
                at - player.updated_at,
                puzzle_before,
                0,
                if solved { 1.0 } else { 0.0 },
            );
            (
                RatingRow {
                    rating: p,
                    games: player.games + 1,
                    updated_at: at,
                    ..player
                },
                PuzzleRatingRow {
                    rating: z,
                    attempts: puzzle.attempts + 1,
                    ..puzzle
                },
            )
        } else {
            (player, puzzle)
        };
        if rated {
            store_rating(&mut tx, user_id, &player).await?;
            store_puzzle_rating(&mut tx, &puzzle, at).await?;
        }
        if recorded {
            sqlx::query(
                "INSERT INTO puzzle_attempts (user_id, puzzle_id, at, solved, rated, player_before, player_after, puzzle_before, puzzle_after) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(user_id)
            .bind(puzzle_id)
            .bind(at)
            .bind(i64::from(solved))
            .bind(i64::from(rated))
            .bind(player_before.rating)
            .bind(player.rating.rating)
            .bind(puzzle_before.rating)
            .bind(puzzle.rating.rating)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(PuzzleAttempt {
            rated,
            recorded,
            player_before,
            player,
            puzzle_before,
            puzzle,
        })
    }

    /// Every puzzle's rating learnt so far, by id.
    pub async fn puzzle_ratings(&self) -> Result<Vec<PuzzleRatingRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT puzzle_id, rating, rd, vol, attempts FROM puzzle_ratings ORDER BY puzzle_id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read_puzzle_rating).collect()
    }

    /// The puzzles an account has attempted (logged in), each once.
    pub async fn puzzles_attempted(&self, user_id: &str) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query("SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE user_id = $1")
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| r.try_get(0)).collect()
    }

    /// An account's rating in one category, if it has one.
    pub async fn rating(
        &self,
        user_id: &str,
        category: &str,
    ) -> Result<Option<RatingRow>, sqlx::Error> {
        let row = sqlx::query(RATING_OF)
            .bind(user_id)
            .bind(category)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| read_rating(&r)).transpose()
    }
}

/// Whether a transaction failed because another one stored first: a unique index
/// (PostgreSQL, SQLite) or SQLite's busy snapshot.
fn lost_a_race(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation() || d.message().contains("database is locked"))
}

async fn puzzle_rating_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    puzzle_id: &str,
) -> Result<Option<PuzzleRatingRow>, sqlx::Error> {
    sqlx::query(
        "SELECT puzzle_id, rating, rd, vol, attempts FROM puzzle_ratings WHERE puzzle_id = $1",
    )
    .bind(puzzle_id)
    .fetch_optional(&mut **tx)
    .await?
    .map(|r| read_puzzle_rating(&r))
    .transpose()
}

fn read_puzzle_rating(r: &AnyRow) -> Result<PuzzleRatingRow, sqlx::Error> {
    Ok(PuzzleRatingRow {
        puzzle_id: r.try_get(0)?,
        rating: read_glicko(r)?,
        attempts: r.try_get(4)?,
    })
}

/// A row's rating, RD and volatility (its columns 1 to 3).
fn read_glicko(r: &AnyRow) -> Result<Rating, sqlx::Error> {
    Ok(Rating {
        rating: r.try_get(1)?,
        rd: r.try_get(2)?,
        vol: r.try_get(3)?,
    })
}

async fn store_puzzle_rating(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    p: &PuzzleRatingRow,
    at: i64,
) -> Result<(), sqlx::Error> {
    let sql = "INSERT INTO puzzle_ratings (puzzle_id, rating, rd, vol, attempts, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, \
         vol = excluded.vol, attempts = excluded.attempts, updated_at = excluded.updated_at";
    upsert_rating(tx, sql, &[&p.puzzle_id], p.rating, p.attempts, at).await
}

/// Stores an account's rating in its row's category (inserted or replaced).
async fn store_rating(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    user_id: &str,
    r: &RatingRow,
) -> Result<(), sqlx::Error> {
    let sql = "INSERT INTO ratings (user_id, category, rating, rd, vol, games, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (user_id, category) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, \
         vol = excluded.vol, games = excluded.games, updated_at = excluded.updated_at";
    let keys = [user_id, r.category.as_str()];
    upsert_rating(tx, sql, &keys, r.rating, r.games, r.updated_at).await
}

/// Runs `sql`, an insert or update of a rating row, with the row's key (`keys`), then
/// its rating, RD and volatility, its count and its time.
async fn upsert_rating(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    sql: &str,
    keys: &[&str],
    r: Rating,
    count: i64,
    at: i64,
) -> Result<(), sqlx::Error> {
    let mut query = sqlx::query(sql);
    for &key in keys {
        query = query.bind(key);
    }
    query
        .bind(r.rating)
        .bind(r.rd)
        .bind(r.vol)
        .bind(count)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Rates a rated game that ends (red's score `score`) inside its end's transaction:
/// nothing if it is not rated or was rated already (`rated_done`, set here), else
/// both accounts' ratings in the game's category and a history row each (unique per
/// game and account: a second rating of a game cannot be stored).
async fn rate(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    score: f64,
    at: i64,
) -> Result<(), sqlx::Error> {
    let first = sqlx::query(
        "UPDATE games SET rated_done = 1 WHERE id = $1 AND rated = 1 AND rated_done = 0",
    )
    .bind(id)
    .execute(&mut **tx)
    .await?;
    if first.rows_affected() != 1 {
        return Ok(());
    }
    let row = sqlx::query("SELECT rules, tc, red_user, blue_user FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    let (rules, tc): (String, String) = (row.try_get(0)?, row.try_get(1)?);
    let users: [Option<String>; 2] = [row.try_get(2)?, row.try_get(3)?];
    let (Some(category), [Some(red), Some(blue)]) = (Category::of_texts(&rules, &tc), users) else {
        log::warn!("game {id}: rated without a category or two accounts: not rated");
        return Ok(());
    };
    if red == blue {
        log::warn!("game {id}: rated with one account in both seats: not rated");
        return Ok(());
    }
    let key = category.key();
    let mut before = Vec::new();
    for user in [&red, &blue] {
        let row = sqlx::query(RATING_OF)
            .bind(user)
            .bind(&key)
            .fetch_optional(&mut **tx)
            .await?;
        before.push(match row {
            Some(r) => read_rating(&r)?,
            None => RatingRow {
                category: key.clone(),
                rating: Rating::default(),
                games: 0,
                updated_at: at,
            },
        });
    }
    let (r, b) = (&before[0], &before[1]);
    let (red_after, blue_after) = glicko2::game(
        r.rating,
        at - r.updated_at,
        b.rating,
        at - b.updated_at,
        score,
    );
    for (user, old, new) in [(&red, r, red_after), (&blue, b, blue_after)] {
        let row = RatingRow {
            category: key.clone(),
            rating: new,
            games: old.games + 1,
            updated_at: at,
        };
        store_rating(tx, user, &row).await?;
        sqlx::query(
            "INSERT INTO rating_history (user_id, category, game_id, rating_before, rd_before, rating_after, rd_after, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(user)
        .bind(&key)
        .bind(id)
        .bind(old.rating.rating)
        .bind(old.rating.rd)
        .bind(new.rating)
        .bind(new.rd)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

fn read_user(r: &AnyRow) -> Result<UserRow, sqlx::Error> {
    Ok(UserRow {
        id: r.try_get(0)?,
        username: r.try_get(1)?,
        password_hash: r.try_get(2)?,
        created_at: r.try_get(3)?,
        deleted: r.try_get::<i64, _>(4)? != 0,
        is_bot: r.try_get::<i64, _>(5)? != 0,
    })
}

fn read_rating(r: &AnyRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        category: r.try_get(0)?,
        rating: read_glicko(r)?,
        games: r.try_get(4)?,
        updated_at: r.try_get(5)?,
    })
}

async fn insert_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    e: &Stored,
) -> Result<(), sqlx::Error> {
    insert_events(tx, &[(id, e)]).await
}

/// Rows in one multi-row statement of a group commit (5 parameters each: well
/// within SQLite's and PostgreSQL's limits).
const ROWS_PER_STATEMENT: usize = 100;

/// `($first, $first+1, …), (…)`: `rows` rows of `width` numbered parameters.
fn placeholders(rows: usize, width: usize, first: usize) -> String {
    (0..rows)
        .map(|r| {
            let cells: Vec<String> = (0..width)
                .map(|c| format!("${}", first + r * width + c))
                .collect();
            format!("({})", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Events of several games in one statement.
async fn insert_events(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    events: &[(&str, &Stored)],
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "INSERT INTO events (game_id, version, ply, at, body) VALUES {}",
        placeholders(events.len(), 5, 1)
    );
    let mut q = sqlx::query(&sql);
    for (id, e) in events {
        let ply = match &e.ev {
            Event::Move { ply, .. } => Some(i64::from(*ply)),
            _ => None,
        };
        // Serialising our own enum cannot fail.
        let body = serde_json::to_string(&e.ev).unwrap_or_default();
        q = q.bind(*id).bind(e.v as i64).bind(ply).bind(e.at).bind(body);
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// A game's figures after a group's plain appends.
struct GameUpdate<'a> {
    id: &'a str,
    version: i64,
    status: &'a str,
    leave_lobby: bool,
}

/// Several games' statuses in one statement (`UPDATE … FROM (VALUES …)`,
/// which SQLite has since 3.33 and PostgreSQL since long; both name a VALUES list's
/// columns column1, column2, …). A game whose status stays and which leaves no lobby
/// (a move in a game in play) is not written: its row is not rewritten at each move.
async fn update_games(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    games: &[GameUpdate<'_>],
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "UPDATE games SET version = v.column2, status = v.column3, \
         lobby = CASE WHEN v.column4 = 1 THEN 0 ELSE games.lobby END \
         FROM (VALUES {}) AS v \
         WHERE games.id = v.column1 AND (games.status <> v.column3 OR v.column4 = 1)",
        placeholders(games.len(), 4, 1)
    );
    let mut q = sqlx::query(&sql);
    for g in games {
        q = q
            .bind(g.id)
            .bind(g.version)
            .bind(g.status)
            .bind(i64::from(g.leave_lobby));
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

fn read_event(r: &AnyRow) -> Result<Stored, String> {
    let v: i64 = r.try_get(0).map_err(|e| e.to_string())?;
    let at: i64 = r.try_get(1).map_err(|e| e.to_string())?;
    let body: String = r.try_get(2).map_err(|e| e.to_string())?;
    let ev: Event =
        serde_json::from_str(&body).map_err(|e| format!("stored event {v} unreadable: {e}"))?;
    Ok(Stored {
        v: v as u64,
        at,
        ev,
    })
}

fn read_game(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: r.try_get(0)?,
        created_at: r.try_get(1)?,
        rules: r.try_get(2)?,
        tc: r.try_get(3)?,
        hashes: [r.try_get(4)?, r.try_get(5)?],
        lobby: r.try_get::<i64, _>(6)? != 0,
        status: r.try_get(7)?,
        rated: r.try_get::<i64, _>(8)? != 0,
        users: [r.try_get(9)?, r.try_get(10)?],
        range: match (
            r.try_get::<Option<i64>, _>(11)?,
            r.try_get::<Option<i64>, _>(12)?,
        ) {
            (Some(lo), Some(hi)) => Some((lo, hi)),
            _ => None,
        },
        invited: r.try_get(13)?,
    })
}

/// PostgreSQL: listens to the other nodes' notifications. Each is sent on the channel
/// returned; `None` when the connection to the database was lost and notifications may
/// be missing (the listener connects again on its own).
pub async fn listen(url: &str) -> Result<tokio::sync::mpsc::Receiver<Option<Notice>>, String> {
    let mut listener = sqlx::postgres::PgListener::connect(url)
        .await
        .map_err(|e| format!("cannot listen on the database: {e}"))?;
    listener.listen(CHANNEL).await.map_err(|e| e.to_string())?;
    let (tx, rx) = tokio::sync::mpsc::channel(1024);
    tokio::spawn(async move {
        loop {
            let sent = match listener.try_recv().await {
                Ok(Some(n)) => match Notice::parse(n.payload()) {
                    Some(notice) => tx.send(Some(notice)).await,
                    None => {
                        log::warn!("database notifications: unreadable '{}'", n.payload());
                        Ok(())
                    }
                },
                Ok(None) => {
                    log::warn!("database notifications: connection lost; catching up");
                    tx.send(None).await
                }
                Err(e) => {
                    log::warn!("database notifications: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    Ok(())
                }
            };
            if sent.is_err() {
                return;
            }
        }
    });
    Ok(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(v: u64, ev: Event) -> Stored {
        Stored {
            v,
            at: v as i64,
            ev,
        }
    }

    /// `n` waiting games `g0`, `g1`, … (in the lobby or not), each with its first event.
    async fn create_games(store: &Store, n: usize, lobby: bool) -> Vec<String> {
        let ids: Vec<String> = (0..n).map(|i| format!("g{i}")).collect();
        for id in &ids {
            store.create_waiting(id, lobby).await.expect("created");
        }
        ids
    }

    fn plain_append(id: &str, events: Vec<Stored>, status: &str, leave_lobby: bool) -> Append {
        Append {
            id: id.to_string(),
            events,
            status: status.to_string(),
            seat: None,
            leave_lobby,
            rated_end: None,
            done: tokio::sync::oneshot::channel().0,
        }
    }

    /// A game's version, status and lobby flag as stored.
    async fn game_figures(store: &Store, id: &str) -> (i64, String, bool) {
        let row = sqlx::query("SELECT version, status, lobby FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&store.pool)
            .await
            .expect("a game");
        let lobby: i64 = row.try_get(2).expect("lobby");
        (
            row.try_get(0).expect("version"),
            row.try_get(1).expect("status"),
            lobby != 0,
        )
    }

    /// Migration 7 (`events` without its unique `(game_id, ply)`) keeps every event of
    /// a database at schema 6 and its games go on; a second writer of a version is
    /// still refused.
    #[tokio::test]
    async fn migration_7_keeps_the_events() {
        let (dir, url) = temp_sqlite("mig7");
        let store = Store::open(&url, "test").await.expect("opens");
        let ids = create_games(&store, 3, true).await;
        let seated = |v| stored(v, Event::Seated { side: Side::Red });
        let group = [
            plain_append(&ids[0], vec![seated(2), seated(3)], "waiting", false),
            plain_append(&ids[2], vec![seated(2)], "waiting", false),
        ];
        store
            .commit_plain(&group.iter().collect::<Vec<_>>())
            .await
            .expect("committed");
        // Back to schema 6's table, then opened again: migrated once more.
        let mut conn = store.pool.acquire().await.expect("a connection");
        for statement in [
            "CREATE TABLE events_v6 (game_id TEXT NOT NULL REFERENCES games (id), version BIGINT NOT NULL, ply BIGINT, at BIGINT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (game_id, version), UNIQUE (game_id, ply))",
            "INSERT INTO events_v6 SELECT game_id, version, ply, at, body FROM events",
            "DROP TABLE events",
            "ALTER TABLE events_v6 RENAME TO events",
            "DROP TABLE bots_online",
            "DELETE FROM schema_migrations WHERE version >= 7",
        ] {
            conn.execute(statement).await.expect("schema 6");
        }
        drop(conn);
        let before: Vec<Vec<u64>> = versions_of(&store, &ids).await;
        assert_eq!(store.schema_version().await.expect("read"), 6);
        store.pool.close().await;
        let store = Store::open(&url, "test").await.expect("opens again");
        assert_eq!(
            store.schema_version().await.expect("read"),
            MIGRATIONS.len() as i64
        );
        assert_eq!(versions_of(&store, &ids).await, before);
        assert_eq!(before, vec![vec![1, 2, 3], vec![1], vec![1, 2]]);
        let again = plain_append(&ids[1], vec![seated(2)], "waiting", false);
        store.commit_plain(&[&again]).await.expect("a game goes on");
        let twice = plain_append(&ids[1], vec![seated(2)], "waiting", false);
        assert!(
            store.commit_plain(&[&twice]).await.is_err(),
            "version 2 stored twice"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A fresh folder of this test process and the URL of an SQLite file in it.
    fn temp_sqlite(tag: &str) -> (std::path::PathBuf, String) {
        let dir = std::env::temp_dir().join(format!("jungle-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let url = format!("sqlite:{}?mode=rwc", dir.join("games.sqlite").display());
        (dir, url)
    }

    async fn versions_of(store: &Store, ids: &[String]) -> Vec<Vec<u64>> {
        let mut all = Vec::new();
        for id in ids {
            let log = store.events(id, 0).await.expect("a log");
            all.push(log.iter().map(|s| s.v).collect());
        }
        all
    }

    /// `--sqlite-sync`: each of the pool's connections syncs as asked (SQLite's codes:
    /// 2 FULL, 1 NORMAL), the default syncing each commit.
    #[tokio::test]
    async fn sqlite_syncs_as_asked() {
        let (dir, _) = temp_sqlite("sync");
        for (sync, code) in [
            (None, 2i64),
            (Some(SqliteSync::Normal), 1),
            (Some(SqliteSync::Full), 2),
        ] {
            let file = dir.join(format!("games-{code}-{}.sqlite", sync.is_some()));
            let url = format!("sqlite:{}?mode=rwc", file.display());
            let store = match sync {
                None => Store::open(&url, "test").await,
                Some(s) => Store::open_with(&url, "test", s).await,
            }
            .expect("opens");
            let row = sqlx::query("PRAGMA synchronous")
                .fetch_one(&store.pool)
                .await
                .expect("read");
            assert_eq!(row.try_get::<i64, _>(0).expect("a code"), code, "{sync:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The group commit's few statements for many plain appends: every event stored in
    /// order, each game at its last append's status (two appends of one game in the
    /// group), the lobby left where one asked, a row not written when nothing of it
    /// changed; and all or nothing, a
    /// conflict in one game undoing every game's appends.
    #[tokio::test]
    async fn plain_appends_commit_together_all_or_nothing() {
        let (dir, url) = temp_sqlite("plain");
        let store = Store::open(&url, "test").await.expect("opens");
        // More games than one statement's rows, so that the chunks are exercised.
        let ids = create_games(&store, ROWS_PER_STATEMENT + 30, true).await;
        let seated = |v| stored(v, Event::Seated { side: Side::Red });
        let mut group: Vec<Append> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| plain_append(id, vec![seated(2)], "waiting", i % 2 == 0))
            .collect();
        group.push(plain_append(
            &ids[1],
            vec![seated(3), seated(4)],
            "playing",
            false,
        ));
        let refs: Vec<&Append> = group.iter().collect();
        store.commit_plain(&refs).await.expect("committed");
        for (i, id) in ids.iter().enumerate() {
            let versions: Vec<u64> = store
                .events(id, 0)
                .await
                .expect("read")
                .iter()
                .map(|e| e.v)
                .collect();
            let (version, status, lobby) = game_figures(&store, id).await;
            if i == 1 {
                assert_eq!(versions, [1, 2, 3, 4]);
                assert_eq!((version, status.as_str(), lobby), (4, "playing", true));
            } else if i % 2 == 0 {
                // Left the lobby: the row is written.
                assert_eq!(versions, [1, 2], "{id}");
                assert_eq!(
                    (version, status.as_str(), lobby),
                    (2, "waiting", false),
                    "{id}"
                );
            } else {
                // Nothing of the row changed: it is not written.
                assert_eq!(versions, [1, 2], "{id}");
                assert_eq!(
                    (version, status.as_str(), lobby),
                    (1, "waiting", true),
                    "{id}"
                );
            }
        }
        // Version 3 of g0 is new, version 2 of g2 is stored already: nothing is kept.
        let clash = [
            plain_append(&ids[0], vec![seated(3)], "playing", false),
            plain_append(&ids[2], vec![seated(2)], "playing", false),
        ];
        let refs: Vec<&Append> = clash.iter().collect();
        assert!(store.commit_plain(&refs).await.is_err());
        assert_eq!(game_figures(&store, &ids[0]).await.0, 2);
        assert_eq!(store.events(&ids[0], 0).await.expect("read").len(), 2);
        // Through the queue, the group falls back to savepoints: only the clash fails.
        let outcomes = futures_util::future::join_all([
            store.append(&ids[0], &[seated(3)], "playing", None, false, None),
            store.append(&ids[2], &[seated(2)], "playing", None, false, None),
        ])
        .await;
        assert!(outcomes[0].is_ok(), "{outcomes:?}");
        assert!(
            matches!(outcomes[1], Err(AppendError::Conflict)),
            "{outcomes:?}"
        );
        assert_eq!(game_figures(&store, &ids[0]).await.0, 3);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Appends made at once share a commit, each in its savepoint: the one that
    /// conflicts (a version stored already) fails alone, the others are stored.
    #[tokio::test]
    async fn a_group_commit_fails_only_the_append_that_conflicts() {
        let (dir, url) = temp_sqlite("group");
        let store = Store::open(&url, "test").await.expect("opens");
        let ids = create_games(&store, 20, false).await;
        let seated = [stored(2, Event::Seated { side: Side::Red })];
        let appends = ids
            .iter()
            .chain(std::iter::once(&ids[0]))
            .map(|id| store.append(id, &seated, "waiting", None, false, None));
        let outcomes = futures_util::future::join_all(appends).await;
        let conflicts = outcomes
            .iter()
            .filter(|o| matches!(o, Err(AppendError::Conflict)))
            .count();
        assert_eq!(conflicts, 1, "{outcomes:?}");
        assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 20);
        for id in &ids {
            let log = store.events(id, 0).await.expect("read");
            assert_eq!(log.iter().map(|e| e.v).collect::<Vec<_>>(), [1, 2], "{id}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
