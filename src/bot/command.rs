//! `jungle bot`: the command line. Checks the token's account is a bot, starts the
//! engine, then, one game at a time: says what it plays (`POST /api/bots/online`),
//! looks at the lobby, declines the invitations its filters refuse, and takes the
//! first challenge it accepts, invitations first.

use super::choose::{Accepts, Challenge};
use super::play::{self, Thinking};
use super::site::{refusal, Site};
use crate::common::engine_process::{EngineProcess, EngineSpec};
use clap::Args;
use jungle_app::engines::EngineInfo;
use jungle_app::seats::{Seats, LEVEL_NAMES};
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct BotArgs {
    /// The site's address, http://HOST:PORT (plain http: run the bot beside the server
    /// or through a tunnel).
    #[arg(long)]
    pub server: String,
    /// A file holding the bot account's API token (POST /api/account/token makes one;
    /// not on the command line, where other users of the machine could read it).
    #[arg(long)]
    pub token_file: PathBuf,
    /// The engine that plays, as `jungle match` takes one (`cmd=PATH name=NAME
    /// [arg=A]… [option.NAME=VALUE]…`); default this program's own engine.
    #[arg(long, conflicts_with = "level")]
    pub engine: Option<String>,
    /// The level of this program's engine, 1 (Beginner) to 8 (full strength, the
    /// default), as the board's levels.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=LEVELS))]
    pub level: Option<u32>,
    /// Take only the challenges that invite this bot, none of the lobby's open ones.
    #[arg(long)]
    pub invitations_only: bool,
    /// A time control the bot plays (repeat for several); default every live clock
    /// (correspondence only when given, like 1d).
    #[arg(long = "tc")]
    pub tcs: Vec<String>,
    /// A rule set the bot plays (repeat for several); default jungle and jungle-cn.
    #[arg(long = "rules")]
    pub rules: Vec<String>,
    /// Only rated challenges.
    #[arg(long, conflicts_with = "casual_only")]
    pub rated_only: bool,
    /// Only casual challenges.
    #[arg(long)]
    pub casual_only: bool,
    /// Search this many nodes a move instead of playing on the clock.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Stop after this many games (default: play on until stopped).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// How often the lobby is looked at (ms).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(200..=60_000))]
    pub poll_ms: u64,
}

/// The board's levels (`jungle_app::seats::LEVEL_NAMES`).
const LEVELS: i64 = LEVEL_NAMES.len() as i64;

/// A seat taken (`POST /api/games/ID/join`).
#[derive(Deserialize)]
struct SeatIn {
    id: String,
    token: String,
}

#[derive(Deserialize)]
struct LobbyIn {
    games: Vec<Challenge>,
}

#[derive(Deserialize)]
struct MeIn {
    username: String,
    is_bot: bool,
}

/// Runs `jungle bot`; returns the exit code.
pub fn run_bot(args: BotArgs) -> i32 {
    match run(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn read_token(path: &PathBuf) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--token-file {}: {e}", path.display()))?;
    Ok(text.trim().to_string())
}

fn engine_spec(text: Option<&str>) -> Result<EngineSpec, String> {
    match text {
        Some(t) => EngineSpec::parse(t),
        None => {
            let me = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
            Ok(EngineSpec::parse(&format!(
                "cmd={} name=jungle",
                me.display()
            ))?)
        }
    }
}

/// The token's account, which must be a bot's.
fn bot_account(site: &Site) -> Result<String, String> {
    let (status, body) = site.get("/api/account/me")?;
    if status != 200 {
        return Err(format!(
            "the token is no account's: {}",
            refusal(status, &body)
        ));
    }
    let me: MeIn = serde_json::from_value(body).map_err(|e| format!("/api/account/me: {e}"))?;
    if !me.is_bot {
        return Err(format!(
            "the account {} is no bot: POST /api/account/bot with its token makes it one (only an account that has not played)",
            me.username
        ));
    }
    Ok(me.username)
}

/// The engine at the level: the strength options the board would give it (learnt
/// from a first start of the engine, which declares them), added to its setup.
fn at_level(mut spec: EngineSpec, level: u32) -> Result<EngineSpec, String> {
    let mut probe = EngineProcess::start(&spec, Duration::from_secs(10))?;
    let info = EngineInfo {
        options: probe.declared_options.clone(),
        ..EngineInfo::default()
    };
    probe.quit();
    let mut seats = Seats::new(0);
    seats.level = level;
    spec.options
        .extend(seats.strength_options(&info).unwrap_or_default());
    Ok(spec)
}

/// What the bot says it plays, as `POST /api/bots/online` reads it.
fn plays_body(args: &BotArgs, accepts: &Accepts) -> String {
    let level = match (&args.engine, args.level) {
        (Some(_), _) => "engine".to_string(),
        (None, level) => level.unwrap_or(LEVELS as u32).to_string(),
    };
    serde_json::json!({
        "level": level,
        "rules": accepts.rules.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
        "tcs": accepts.tcs.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
        "rated": accepts.rated,
        "casual": accepts.casual,
        "invitations_only": accepts.invitations_only,
    })
    .to_string()
}

fn run(args: &BotArgs) -> Result<(), String> {
    let token = read_token(&args.token_file)?;
    let site = Site::new(&args.server, &token)?;
    let mut accepts = Accepts::new(&args.tcs, &args.rules, !args.casual_only, !args.rated_only)?;
    accepts.invitations_only = args.invitations_only;
    let mut spec = engine_spec(args.engine.as_deref())?;
    if let Some(level) = args.level {
        spec = at_level(spec, level)?;
    }
    let name = bot_account(&site)?;
    let plays = plays_body(args, &accepts);
    let mut engine = EngineProcess::start(&spec, Duration::from_secs(10))?;
    let thinking = args.nodes.map_or(Thinking::Clock, Thinking::Nodes);
    eprintln!("bot {name} on {}, engine {}", site.addr, spec.name);
    let mut played = 0;
    while args.games.map_or(true, |n| played < n) {
        let (id, seat) = match next_seat(&site, &accepts, &plays) {
            Ok(Some(seat)) => seat,
            Ok(None) => {
                std::thread::sleep(Duration::from_millis(args.poll_ms));
                continue;
            }
            // The site may be restarting: the bot waits and looks again.
            Err(e) => {
                eprintln!("{e}; looking again in {} ms", args.poll_ms.max(5000));
                std::thread::sleep(Duration::from_millis(args.poll_ms.max(5000)));
                continue;
            }
        };
        eprintln!("game {id}: joined");
        match play::play(&site, &id, &seat, &mut engine, thinking) {
            Ok(result) => eprintln!("game {id}: over, {result}"),
            Err(e) => {
                eprintln!("game {id}: given up: {e}");
                // The engine may be what failed: the next game gets a new one.
                engine.quit();
                engine = EngineProcess::start(&spec, Duration::from_secs(10))?;
            }
        }
        played += 1;
    }
    engine.quit();
    Ok(())
}

/// Says what the bot plays, declines the invitations it does not accept, and joins
/// the first challenge it accepts (invitations first, then the oldest): its id and
/// seat token, or none.
fn next_seat(
    site: &Site,
    accepts: &Accepts,
    plays: &str,
) -> Result<Option<(String, String)>, String> {
    let (status, body) = site.post("/api/bots/online", plays)?;
    if status != 200 {
        return Err(format!(
            "saying what the bot plays: {}",
            refusal(status, &body)
        ));
    }
    let (status, body) = site.get("/api/lobby")?;
    if status != 200 {
        return Err(format!("the lobby: {}", refusal(status, &body)));
    }
    let lobby: LobbyIn = serde_json::from_value(body).map_err(|e| format!("the lobby: {e}"))?;
    for c in accepts.declines(&lobby.games) {
        let (status, body) = site.post(&format!("/api/games/{}/decline", c.id), "")?;
        match status {
            200 => eprintln!(
                "game {}: declined ({} {}{})",
                c.id,
                c.rules,
                c.tc,
                if c.rated { " rated" } else { "" }
            ),
            // Withdrawn or taken meanwhile.
            404 | 409 => log::info!("game {}: {}", c.id, refusal(status, &body)),
            _ => return Err(format!("declining {}: {}", c.id, refusal(status, &body))),
        }
    }
    for c in accepts.pick(&lobby.games) {
        let (status, body) = site.post(&format!("/api/games/{}/join", c.id), "")?;
        match status {
            200 => {
                let seat: SeatIn =
                    serde_json::from_value(body).map_err(|e| format!("a seat: {e}"))?;
                return Ok(Some((seat.id, seat.token)));
            }
            // Taken meanwhile, over, or one the bot may not take: the next.
            401 | 404 | 409 => log::info!("game {}: {}", c.id, refusal(status, &body)),
            429 => return Ok(None),
            _ => return Err(format!("joining {}: {}", c.id, refusal(status, &body))),
        }
    }
    Ok(None)
}
