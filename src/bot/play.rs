//! One game on the site, played over its websocket (docs/online.md, "The
//! websocket"): `hello` with the seat's token, then the state and every event; when the
//! bot's side is to move, its engine searches on the bot's clock and the move is sent
//! with the time it took. A lost connection is made again (the state comes anew); a
//! seat whose opponent has gone is claimed as a win when the server allows it.

use super::site::Site;
use crate::board::Position;
use crate::common::engine_process::{EngineFailure, EngineProcess};
use crate::game::Rules;
use crate::protocol::command::{go_line, setoption_line};
use crate::protocol::options::rule_settings;
use crate::search::Limits;
use jungle_core::time_control::TimeControl;
use jungle_online::model::{Event, Side};
use serde::Deserialize;
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::Message;

/// How often the bot wakes while nothing comes (to claim an opponent's absence).
const WAKE: Duration = Duration::from_secs(5);
/// Connections made again before the game is given up.
const RECONNECTS: u32 = 5;
/// The engine's answer may come this long after the bot's clock would fall.
const ENGINE_GRACE: Duration = Duration::from_secs(5);
/// Moves refused in a game before the bot resigns it.
const MOVE_TRIES: u32 = 3;
/// A correspondence move's thinking time.
const CORRESPONDENCE_MS: u64 = 10_000;

/// How the engine is asked to search.
#[derive(Clone, Copy, Debug)]
pub enum Thinking {
    /// On the bot's clock (`go wtime … btime … winc … binc …`).
    Clock,
    /// A fixed number of nodes a move (a weaker or quicker bot).
    Nodes(u64),
}

/// The server's messages the bot reads; the rest (`pong`, `ack`) are skipped.
#[derive(Deserialize, Debug)]
#[serde(tag = "t", rename_all = "snake_case")]
enum FromServer {
    State(Box<StateIn>),
    Event(Box<EventIn>),
    Presence(PresenceIn),
    Welcome {
        you: Option<Side>,
    },
    Refused {
        to: Option<String>,
        code: String,
        reason: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize, Debug)]
struct ClockIn {
    red: i64,
    blue: i64,
}

#[derive(Deserialize, Debug)]
struct BoardIn {
    fens: Vec<String>,
}

#[derive(Deserialize, Debug)]
struct PresenceIn {
    red: bool,
    blue: bool,
}

#[derive(Deserialize, Debug)]
struct StateIn {
    rules: String,
    tc: String,
    status: String,
    you: Option<Side>,
    moves: Vec<String>,
    clock: ClockIn,
    presence: PresenceIn,
    board: BoardIn,
    result: Option<ResultIn>,
}

#[derive(Deserialize, Debug)]
struct ResultIn {
    result: String,
    reason: String,
}

#[derive(Deserialize, Debug)]
struct EventIn {
    e: Event,
    clock: ClockIn,
    status: String,
}

/// The game as the bot knows it.
struct View {
    rules: Rules,
    start: Position,
    inc_ms: u64,
    correspondence: bool,
    moves: Vec<String>,
    status: String,
    you: Option<Side>,
    clock: [i64; 2],
    /// Whether each seat has a connection.
    here: [bool; 2],
    /// When the bot last saw the position change (its thinking time runs from there).
    since: Instant,
    result: Option<String>,
}

impl View {
    fn of(s: StateIn) -> Result<View, String> {
        let rules: Rules = s.rules.parse()?;
        let fen = s
            .board
            .fens
            .first()
            .ok_or("a state without its start position")?;
        let start = Position::from_fen_with(fen, rules.moves)
            .map_err(|e| format!("the start position: {e}"))?;
        let (inc_ms, correspondence) = match TimeControl::parse(&s.tc) {
            Ok(TimeControl::Clock { inc_ms, .. }) => (inc_ms, false),
            Ok(TimeControl::Correspondence { .. }) => (0, true),
            // A game stored before the notation (`5+3`): minutes and seconds.
            _ => (old_increment_ms(&s.tc), false),
        };
        Ok(View {
            rules,
            start,
            inc_ms,
            correspondence,
            moves: s.moves,
            status: s.status,
            you: s.you,
            clock: [s.clock.red, s.clock.blue],
            here: [s.presence.red, s.presence.blue],
            since: Instant::now(),
            result: s.result.map(|r| format!("{} ({})", r.result, r.reason)),
        })
    }

    fn to_move(&self) -> Side {
        let first = Side::of(self.start.side_to_move());
        if self.moves.len() % 2 == 0 {
            first
        } else {
            first.other()
        }
    }

    fn fold(&mut self, ev: EventIn) -> Result<(), String> {
        match ev.e {
            Event::Move { ply, mv, .. } => {
                if ply as usize != self.moves.len() {
                    return Err(format!(
                        "a move at ply {ply} after {} moves",
                        self.moves.len()
                    ));
                }
                self.moves.push(mv);
                self.since = Instant::now();
            }
            Event::End { result, reason } => self.result = Some(format!("{result} ({reason})")),
            _ => {}
        }
        self.status = ev.status;
        self.clock = [ev.clock.red, ev.clock.blue];
        Ok(())
    }

    /// The bot's turn: it holds a seat, the game goes on, its side is to move.
    fn ours(&self) -> bool {
        self.status == "playing" && self.result.is_none() && self.you == Some(self.to_move())
    }

    /// The `position` line of the game now.
    fn position_line(&self) -> String {
        let mut line = format!("position fen {}", self.start.to_fen());
        if !self.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&self.moves.join(" "));
        }
        line
    }

    /// What the engine is asked: the clocks (the opponent's as it stood), or nodes.
    fn limits(&self, thinking: Thinking) -> Limits {
        let mut limits = Limits::default();
        match thinking {
            Thinking::Nodes(n) => limits.nodes = Some(n),
            Thinking::Clock if self.correspondence => limits.movetime = Some(CORRESPONDENCE_MS),
            Thinking::Clock => {
                limits.time = self.clock.map(|t| Some(t.max(1) as u64));
                limits.inc = [self.inc_ms; 2];
            }
        }
        limits
    }

    /// The longest wait for the engine's answer.
    fn engine_deadline(&self, thinking: Thinking) -> Instant {
        let mine = self.you.map_or(0, |s| self.clock[s.index()].max(0) as u64);
        let budget = match thinking {
            Thinking::Nodes(_) => Duration::from_secs(600),
            Thinking::Clock if self.correspondence => Duration::from_millis(CORRESPONDENCE_MS),
            Thinking::Clock => Duration::from_millis(mine),
        };
        Instant::now() + budget + ENGINE_GRACE
    }
}

/// `5+3` (minutes and seconds), the stored text of games before the notation.
fn old_increment_ms(tc: &str) -> u64 {
    tc.split_once('+')
        .and_then(|(_, inc)| inc.trim().parse::<u64>().ok())
        .map_or(0, |s| s * 1000)
}

/// Plays the game `id` in the seat `token` holds to its end; returns its result.
pub fn play(
    site: &Site,
    id: &str,
    token: &str,
    engine: &mut EngineProcess,
    thinking: Thinking,
) -> Result<String, String> {
    let mut last = String::new();
    for attempt in 0..=RECONNECTS {
        if attempt > 0 {
            eprintln!("game {id}: {last}; connecting again ({attempt} of {RECONNECTS})");
            std::thread::sleep(Duration::from_secs(2));
        }
        match connection(site, id, token, engine, thinking) {
            Ok(result) => return Ok(result),
            Err(Lost::Connection(e)) => last = e,
            Err(Lost::Game(e)) => return Err(e),
        }
    }
    Err(format!("game {id}: {last}"))
}

/// Why a connection ended before the game: the network (worth connecting again), or
/// the game itself (not).
enum Lost {
    Connection(String),
    Game(String),
}

/// One connection to the game: `hello`, then every message until the game is over.
fn connection(
    site: &Site,
    id: &str,
    token: &str,
    engine: &mut EngineProcess,
    thinking: Thinking,
) -> Result<String, Lost> {
    let net = |e: tungstenite::Error| Lost::Connection(e.to_string());
    let io = |e: std::io::Error| Lost::Connection(e.to_string());
    let stream = TcpStream::connect(&site.addr).map_err(io)?;
    stream.set_read_timeout(Some(WAKE)).map_err(io)?;
    let (mut ws, _) = tungstenite::client(site.ws_url(id), stream)
        .map_err(|e| Lost::Connection(format!("the websocket: {e}")))?;
    let hello = serde_json::json!({"t": "hello", "token": token, "since": null});
    ws.send(Message::text(hello.to_string())).map_err(net)?;
    let mut seat = Seat {
        id,
        view: None,
        sent_for: None,
        refused_moves: 0,
    };
    loop {
        let text = match ws.read() {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(_)) => {
                return Err(Lost::Connection("the server closed the connection".into()))
            }
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e)) if quiet(&e) => {
                if let Some(claim) = seat.view.as_ref().and_then(claim_if_gone) {
                    ws.send(Message::text(claim.to_string())).map_err(net)?;
                }
                continue;
            }
            Err(e) => return Err(net(e)),
        };
        let msg: FromServer = serde_json::from_str(text.as_str())
            .map_err(|e| Lost::Game(format!("game {id}: an unreadable message ({e})")))?;
        seat.receive(msg, engine)
            .map_err(|e| Lost::Game(format!("game {id}: {e}")))?;
        if let Some(result) = seat.view.as_ref().and_then(|v| v.result.clone()) {
            let _ = ws.close(None);
            return Ok(result);
        }
        if let Some(command) = seat
            .command(engine, thinking)
            .map_err(|e| Lost::Game(format!("game {id}: {e}")))?
        {
            ws.send(Message::text(command.to_string())).map_err(net)?;
        }
    }
}

/// A read that ended because nothing came for `WAKE`.
fn quiet(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// The bot's seat in one connection: the game as it knows it, and its moves sent.
struct Seat<'a> {
    id: &'a str,
    view: Option<View>,
    /// The ply the last move was sent for (none sent yet, or one refused).
    sent_for: Option<usize>,
    refused_moves: u32,
}

impl Seat<'_> {
    /// Folds a message of the server into the view.
    fn receive(&mut self, msg: FromServer, engine: &mut EngineProcess) -> Result<(), String> {
        let id = self.id;
        match msg {
            FromServer::State(s) => {
                let v = View::of(*s)?;
                start_engine_game(engine, &v.rules);
                self.view = Some(v);
            }
            FromServer::Event(ev) => self
                .view
                .as_mut()
                .ok_or("an event before the state")?
                .fold(*ev)?,
            FromServer::Presence(p) => {
                if let Some(v) = self.view.as_mut() {
                    v.here = [p.red, p.blue];
                }
            }
            FromServer::Welcome { you: None } => return Err("the token holds no seat".into()),
            FromServer::Refused { to, code, .. } if to.as_deref() == Some("claim") => {
                log::debug!("game {id}: no claim yet: {code}");
            }
            FromServer::Refused { to, code, reason } => {
                eprintln!(
                    "game {id}: {} refused: {code}: {reason}",
                    to.as_deref().unwrap_or("a message")
                );
                if to.as_deref() == Some("move") {
                    self.refused_moves += 1;
                    self.sent_for = None; // Think again on the position as it is.
                }
            }
            FromServer::Welcome { .. } | FromServer::Other => {}
        }
        Ok(())
    }

    /// On the bot's turn, once a ply: its move (the engine's), or its resignation when
    /// the engine has none or the server has refused too many.
    fn command(
        &mut self,
        engine: &mut EngineProcess,
        thinking: Thinking,
    ) -> Result<Option<serde_json::Value>, String> {
        let Some(v) = self.view.as_ref() else {
            return Ok(None);
        };
        if !v.ours() || self.sent_for == Some(v.moves.len()) {
            return Ok(None);
        }
        let mv = think(engine, v, thinking)?;
        self.sent_for = Some(v.moves.len());
        let think_ms = v.since.elapsed().as_millis() as i64;
        Ok(Some(match mv {
            // The server and the engine disagree on this position: no endless retries.
            Some(_) if self.refused_moves >= MOVE_TRIES => {
                eprintln!(
                    "game {}: {MOVE_TRIES} moves refused: the bot resigns",
                    self.id
                );
                serde_json::json!({"t": "resign"})
            }
            Some(mv) => {
                serde_json::json!({"t": "move", "ply": v.moves.len(), "mv": mv, "think_ms": think_ms})
            }
            None => serde_json::json!({"t": "resign"}),
        }))
    }
}

/// A new game for the engine, under the game's rules.
fn start_engine_game(engine: &mut EngineProcess, rules: &Rules) {
    engine.send("ucinewgame");
    for (name, value) in rule_settings(*rules) {
        engine.send(&setoption_line(&name, &value));
    }
}

/// The engine's move for the position now; `None` when it has none to give (the bot
/// resigns).
fn think(
    engine: &mut EngineProcess,
    v: &View,
    thinking: Thinking,
) -> Result<Option<String>, String> {
    engine.send(&v.position_line());
    engine.send(&go_line(&v.limits(thinking)));
    let answer = engine.wait_for(
        |l| l.starts_with("bestmove") || l.starts_with("info string error"),
        v.engine_deadline(thinking),
    );
    match answer {
        Ok(line) if line.starts_with("bestmove") => {
            let mv = line.split_whitespace().nth(1).unwrap_or("0000");
            Ok((mv != "0000").then(|| mv.to_string()))
        }
        Ok(error) => {
            eprintln!("the engine refused the position: {error}");
            Ok(None)
        }
        Err(EngineFailure::Timeout) => {
            engine.send("stop");
            Err("the engine gave no move in time".into())
        }
        Err(f) => Err(format!("the engine failed: {f:?}")),
    }
}

/// When the opponent has no connection, the claim of the win; the server refuses it
/// (`not_gone`) until the seat has been gone long enough (30 s live, 24 hours
/// correspondence).
fn claim_if_gone(v: &View) -> Option<serde_json::Value> {
    let me = v.you?;
    let gone = v.status == "playing" && v.result.is_none() && !v.here[me.other().index()];
    gone.then(|| serde_json::json!({"t": "claim", "draw": false}))
}
