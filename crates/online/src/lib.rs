//! `jungle serve`: games between people on different devices, by link. The server is
//! the referee (every move is checked by the rules core) and the clock; games live in
//! a database (SQLite by default, PostgreSQL for several nodes). Protocol:
//! docs/online.md.
//!
//! `model` is the game with no network and no database, `clock` its clock and time
//! controls, `messages` what clients send and what the server sends, each one type,
//! `store` the database (and `notify` what its nodes tell each other), `hub` the games
//! in memory, `server` the HTTP and websocket front; `export` reads the finished games
//! back (`jungle puzzles mine --database`). Players (docs/accounts.md): `accounts` the
//! names, passwords and rating categories (the ratings are crates/glicko2's), `sessions`
//! the account requests and the session cookie; `puzzles` the logged-in players'
//! puzzle attempts and the next puzzle near their puzzle rating; `bots` the bots
//! online, invitations to them and the bot offered in quick pairing; `requests_fuzz` the
//! fuzz target's exercise of the account and rating requests.

pub mod accounts;
pub mod bots;
pub mod clock;
pub mod export;
pub mod hub;
pub mod messages;
pub mod model;
pub mod notify;
pub mod players;
pub mod puzzles;
pub mod requests_fuzz;
pub mod server;
pub mod sessions;
pub mod store;
pub mod tablebase;

use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// A gap in the service's heartbeat longer than this means the whole service was
/// down: the clocks are credited the gap (docs/online.md).
pub const DOWNTIME_MIN_MS: i64 = 3_000;
/// How often a node records that the service is alive.
pub const HEARTBEAT_MS: u64 = 1_000;

/// Milliseconds since the Unix epoch: the server's clock (the same on every node,
/// and across restarts).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A new seat token: 128 random bits from the system, as 32 hex digits.
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// What the database keeps of a token: its SHA-256, in hex.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether two secrets (tokens, or their hashes) are equal, in a time that depends
/// on their lengths only.
pub fn same_secret(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// A well-formed token: 32 lowercase hex digits.
pub fn token_ok(token: &str) -> bool {
    token.len() == 32
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `jungle serve`'s options.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on; anything but 127.0.0.1 serves other machines (a warning
    /// says so).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 8018)]
    pub port: u16,
    /// The SQLite file of the games (created with its schema if missing).
    #[arg(long, default_value = "jungle-online.sqlite")]
    pub db: PathBuf,
    /// How SQLite makes each acknowledged move durable: `full` syncs it to the disk
    /// (it survives a power cut), `normal` leaves it to the operating system (it
    /// survives a crash of the server, not of the machine; faster on a slow disk).
    /// docs/online.md, "Durability".
    #[arg(long, value_enum, default_value_t = store::SqliteSync::Full)]
    pub sqlite_sync: store::SqliteSync,
    /// A PostgreSQL URL (postgres://user@host/db) instead of the SQLite file: several
    /// nodes can then serve the same games.
    #[arg(long)]
    pub database: Option<String>,
    /// Where the browser's engine is (scripts/build-web.sh's output): with it the
    /// computer plays in the visitors' browsers. Default target/web beside the binary's
    /// folder, else ./target/web; without it, on this server.
    #[arg(long)]
    pub site: Option<PathBuf>,
    /// Without the browser's engine: the most visitors playing the computer (or in a
    /// lesson, a puzzle, a review) on this server at once, each on a board of its own
    /// with an engine of one thread.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub local_boards: u64,
    /// Games, joins and pairings an address may ask for a minute.
    #[arg(long, default_value_t = 30)]
    pub creates_per_minute: u32,
    /// Games not over an address may have created.
    #[arg(long, default_value_t = 20)]
    pub max_open_per_ip: i64,
    /// Messages a websocket connection may send a second (twice that in a burst).
    #[arg(long, default_value_t = 20)]
    pub messages_per_second: u32,
    /// Log-in attempts (and password checks) an address may make a minute, and the
    /// same for each account name.
    #[arg(long, default_value_t = 10)]
    pub logins_per_minute: u32,
    /// The server is reached over https (a proxy in front of it does TLS): session
    /// cookies get `Secure`.
    #[arg(long)]
    pub behind_tls: bool,
    /// This node's name in logs and presence (default: a random one).
    #[arg(long)]
    pub node: Option<String>,
    /// A directory of endgame table files (`jungle tb build`) that `GET
    /// /api/tablebase?fen=…` answers from; without it, positions of up to 3 animals
    /// only (built in memory).
    #[arg(long)]
    pub tablebases: Option<PathBuf>,
    /// The most memory the tables of `/api/tablebase` may keep (MB; a five-animal
    /// table takes 500 to 800): the least recently asked are forgotten first.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(16..=1_048_576))]
    pub tablebase_memory_mb: u64,
    /// Table probes (`/api/tablebase`) an address may ask for a minute.
    #[arg(long, default_value_t = 120)]
    pub tablebase_per_minute: u32,
    /// How long a bot counts as online after it last asked for the lobby (ms), on
    /// every node; an invitation to a bot offline this long is withdrawn.
    #[arg(long, default_value_t = bots::ONLINE_MS, value_parser = clap::value_parser!(u64).range(100..=3_600_000))]
    pub bots_online_ms: u64,
    /// How long a quick-pairing challenge waits for a person before the nearest bot
    /// online is offered (ms).
    #[arg(long, default_value_t = bots::BOT_OFFER_WAIT_MS, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    pub bot_offer_ms: u64,
}

/// Runs `jungle serve`; returns the exit code.
pub fn run(args: ServeArgs, local_boards: &server::LocalBoards) -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return 1;
        }
    };
    match runtime.block_on(server::serve(args, local_boards)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
