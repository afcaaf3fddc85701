//! The messages of a game's websocket, each one type: what a client sends
//! (`ClientMsg`), read from at most `MAX_MESSAGE` bytes of JSON whose `t` names the
//! kind (anything else is refused with a code), and what the server sends
//! (`ServerMsg`), written here only. No network here, so the fuzz target and the tests
//! use it as is.

use crate::model::{Event, GameState, Refusal, Side, Stored};
use jungle_app::line::MoveKind;
use jungle_app::view::{SquareView, Target};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The largest message a client may send (bytes).
pub const MAX_MESSAGE: usize = 4096;

/// A client's message.
#[derive(Deserialize, Debug, PartialEq, Eq)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMsg {
    Hello {
        token: Option<String>,
        since: Option<u64>,
    },
    Move {
        ply: u32,
        mv: String,
        think_ms: Option<i64>,
    },
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Abort,
    Rematch,
    Claim {
        draw: bool,
    },
    Ping,
}

/// Reads a message.
pub fn parse(text: &str) -> Result<ClientMsg, Refusal> {
    if text.len() > MAX_MESSAGE {
        return Err(Refusal::new("too_big", "message too big"));
    }
    serde_json::from_str(text)
        .map_err(|e| Refusal::new("malformed", format!("unreadable message: {e}")))
}

impl ClientMsg {
    /// Its kind, as its `t` names it: a refusal names the command it answers, so that
    /// a client with several commands in flight settles the right one.
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMsg::Hello { .. } => "hello",
            ClientMsg::Move { .. } => "move",
            ClientMsg::Resign => "resign",
            ClientMsg::DrawOffer => "draw_offer",
            ClientMsg::DrawAccept => "draw_accept",
            ClientMsg::DrawDecline => "draw_decline",
            ClientMsg::Abort => "abort",
            ClientMsg::Rematch => "rematch",
            ClientMsg::Claim { .. } => "claim",
            ClientMsg::Ping => "ping",
        }
    }

    /// A command of the game (not `hello` or `ping`, which are the connection's).
    pub fn is_command(&self) -> bool {
        !matches!(self, ClientMsg::Hello { .. } | ClientMsg::Ping)
    }
}

// ----- what the server sends --------------------------------------------------------

/// Each side's value of something (`{"red": …, "blue": …}`).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BySide<T> {
    pub red: T,
    pub blue: T,
}

impl<T: Copy> BySide<T> {
    pub fn of(values: [T; 2]) -> BySide<T> {
        BySide {
            red: values[0],
            blue: values[1],
        }
    }
}

/// The clocks: each side's time left (ms) at the message's time, and whose runs.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ClockMsg {
    pub red: i64,
    pub blue: i64,
    pub running: Option<Side>,
}

impl ClockMsg {
    pub fn of(st: &GameState, at: i64) -> ClockMsg {
        let c = st.clocks_at(at);
        ClockMsg {
            red: c[0],
            blue: c[1],
            running: st.running(),
        }
    }
}

/// The result and its reason code (`model::reason`), with what the page shows of it:
/// the winner, the reason as the page words it (`code`: `reason.<code>` in its
/// catalogues) and the code's arguments (`side`: the side that lost).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ResultMsg {
    pub result: String,
    pub reason: String,
    pub winner: Option<Side>,
    pub code: String,
    pub args: BTreeMap<&'static str, Side>,
}

impl ResultMsg {
    /// `result` as a record writes it (`1-0`, `0-1`, `1/2-1/2`, `*`) for `reason`.
    pub fn of(result: &str, reason: &str) -> ResultMsg {
        let winner = match result {
            "1-0" => Some(Side::Red),
            "0-1" => Some(Side::Blue),
            _ => None,
        };
        ResultMsg {
            result: result.to_string(),
            reason: reason.to_string(),
            winner,
            code: page_code(reason, winner),
            args: winner.map(|w| ("side", w.other())).into_iter().collect(),
        }
    }
}

/// The page's code of an end's reason: the rules' reasons as the board app words
/// them, the server's own as `online.<reason>` (a draw because a player left is
/// `online.gone_draw`: the one who stayed claimed it).
fn page_code(reason: &str, winner: Option<Side>) -> String {
    use crate::model::reason;
    let board = match reason {
        reason::DEN => "den",
        reason::NO_ANIMALS => "noAnimals",
        reason::NO_MOVES => "noMoves",
        reason::REPETITION => "repetition",
        reason::NO_CAPTURE => "noCapture",
        reason::GONE if winner.is_none() => "online.gone_draw",
        _ => return format!("online.{reason}"),
    };
    board.to_string()
}

/// What the board shows of the position now, from the rules core (the page checks no
/// rule): where each animal of the side to move may go, and where only the anti-chase
/// rules forbid it (the board's `legal` and `forbidden`, as `jungle gui`'s view has
/// them). Empty once the game is over.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Moves {
    pub legal: BTreeMap<String, Vec<Target>>,
    pub forbidden: BTreeMap<String, Vec<String>>,
}

impl Moves {
    pub fn of(st: &GameState) -> Moves {
        if st.is_over() {
            return Moves {
                legal: BTreeMap::new(),
                forbidden: BTreeMap::new(),
            };
        }
        let (legal, forbidden) = jungle_app::view::targets_of(&st.game);
        Moves { legal, forbidden }
    }
}

/// The board of a whole game, in a `state` message: the terrain, each position (the
/// start's first) and each move's kind, and the moves now.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct BoardMsg {
    pub terrain: Vec<SquareView>,
    pub fens: Vec<String>,
    pub kinds: Vec<MoveKind>,
    #[serde(flatten)]
    pub moves: Moves,
}

/// The board after an event: the moves now, and a move's kind.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct BoardNow {
    #[serde(flatten)]
    pub moves: Moves,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<MoveKind>,
}

/// The whole game for one viewer (`you`: its seat), at `now`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct StateMsg {
    pub id: String,
    pub v: u64,
    pub rules: String,
    /// The rules' parts as the page's settings show them.
    pub variant: &'static str,
    pub dog_swims: bool,
    pub trapped_lose_attack: bool,
    pub tc: String,
    /// A rated game (docs/accounts.md).
    pub rated: bool,
    pub status: &'static str,
    pub you: Option<Side>,
    pub seated: BySide<bool>,
    pub moves: Vec<String>,
    pub fen: String,
    pub to_move: Side,
    pub clock: ClockMsg,
    pub deadline: Option<i64>,
    pub now: i64,
    pub draw_offer: Option<Side>,
    pub rematch_offer: Option<Side>,
    pub rematch: Option<String>,
    pub result: Option<ResultMsg>,
    pub presence: BySide<bool>,
    /// Since when each seat is gone (server ms), after it had come; null while it is
    /// here or before it first came.
    pub gone_since: BySide<Option<i64>>,
    /// The account in each seat, if the player was logged in, and whether it is a
    /// bot's (docs/accounts.md, "Bots online").
    pub players: BySide<Option<PlayerMsg>>,
    pub board: BoardMsg,
}

/// A seat's account, as a game's state names it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PlayerMsg {
    pub username: String,
    pub bot: bool,
}

/// An event of the game's log, with what it left: the clocks, the position and the
/// side to move, the status and the board's moves, and after an `end` the result as
/// the page shows it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct EventMsg {
    pub v: u64,
    pub at: i64,
    pub e: Event,
    pub clock: ClockMsg,
    pub fen: String,
    pub to_move: Side,
    pub status: &'static str,
    pub board: BoardNow,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultMsg>,
}

impl EventMsg {
    /// `e`, folded into `after` (the state it left); `kind`: a move's.
    pub fn of(e: &Stored, kind: Option<MoveKind>, after: &GameState) -> EventMsg {
        EventMsg {
            v: e.v,
            at: e.at,
            e: e.ev.clone(),
            clock: ClockMsg::of(after, e.at),
            fen: after.game.position().to_fen(),
            to_move: after.to_move(),
            status: after.status(),
            board: BoardNow {
                moves: Moves::of(after),
                kind,
            },
            result: match &e.ev {
                Event::End { result, reason } => Some(ResultMsg::of(result, reason)),
                _ => None,
            },
        }
    }
}

/// Who is connected to each seat, and since when a seat is gone.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PresenceMsg {
    pub red: bool,
    pub blue: bool,
    pub gone_since: BySide<Option<i64>>,
}

/// A refusal: the command it answers (`to`, when the server could read it), a code, a
/// sentence, and the code's arguments (a refused move's rule and animals: the board
/// app's codes `illegalBecause`, `chase73`, `chase175`, which the page words).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct RefusedMsg {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<&'static str>,
    pub code: &'static str,
    pub reason: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<&'static str, String>,
}

/// What the server sends on a game's websocket: one type, written as JSON here only
/// (`text`), its kind in `t`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    State(Box<StateMsg>),
    Event(Box<EventMsg>),
    Presence(PresenceMsg),
    /// The catch-up is done: the seat this connection holds, and the version it is at.
    Welcome {
        you: Option<Side>,
        v: u64,
    },
    Pong {
        now: i64,
    },
    /// A move sent again that the server already has.
    Ack {
        ply: u32,
        v: u64,
    },
    Refused(RefusedMsg),
}

impl ServerMsg {
    /// The message as sent.
    pub fn text(&self) -> Arc<str> {
        // Plain data: writing it cannot fail.
        Arc::from(serde_json::to_string(self).unwrap_or_else(|_| "{}".into()))
    }

    /// The refusal of `refusal`, answering the command `to` if known.
    pub fn refused(to: Option<&'static str>, refusal: Refusal) -> ServerMsg {
        ServerMsg::Refused(RefusedMsg {
            to,
            code: refusal.code,
            reason: refusal.reason,
            args: refusal.args.into_iter().collect(),
        })
    }
}

/// The fuzz target's and the tests' exercise: each line of `data` is a message from
/// a seat chosen by its first byte (red, blue or none), at a time moved on by its
/// second; every message is read and decided against one game, the events folded in.
/// Checks: nothing panics; a refusal changes nothing; every stored event is the next
/// version and the state replays from the log to the same game.
pub fn exercise(data: &[u8]) {
    use crate::model::Context;
    let created = Stored {
        v: 1,
        at: 0,
        ev: Event::Created {
            rules: if data.first().is_some_and(|b| b & 1 == 1) {
                "jungle-cn".into()
            } else {
                "jungle".into()
            },
            tc: "1m+0s".into(),
        },
    };
    let mut log = vec![created];
    let Ok(mut state) = GameState::replay(&log) else {
        panic!("a new game does not replay");
    };
    let mut now = 0i64;
    for side in [Side::Red, Side::Blue] {
        let s = Stored {
            v: state.version + 1,
            at: now,
            ev: Event::Seated { side },
        };
        state.apply(&s).expect("seating");
        log.push(s);
    }
    for line in data.split(|&b| b == b'\n') {
        let (Some(&who), Some(&dt)) = (line.first(), line.get(1)) else {
            continue;
        };
        now += i64::from(dt) * 500;
        let seat = match who % 3 {
            0 => Some(Side::Red),
            1 => Some(Side::Blue),
            _ => None,
        };
        let text = String::from_utf8_lossy(&line[2..]);
        let Ok(cmd) = parse(&text) else {
            continue;
        };
        if !cmd.is_command() {
            continue;
        }
        // The server's own deadline first, as the hub does.
        let mut events = Vec::new();
        if let Some(ev) = state.due(now) {
            events.push(ev);
        }
        let before = (state.version, state.moves());
        let ctx = Context {
            opponent_gone_since: Some(0),
        };
        let mut probe = state.clone();
        for ev in events.drain(..) {
            let s = Stored {
                v: probe.version + 1,
                at: now,
                ev,
            };
            probe.apply(&s).expect("a deadline's event applies");
            log.push(s);
        }
        state = probe;
        match state.decide(seat, &cmd, now, ctx) {
            Ok(out) => {
                for mut ev in out.events {
                    if let Event::Rematch { game } = &mut ev {
                        *game = "next".into();
                    }
                    let s = Stored {
                        v: state.version + 1,
                        at: now,
                        ev,
                    };
                    state.apply(&s).expect("a decided event applies");
                    log.push(s);
                }
            }
            Err(_) => {
                assert!(state.version >= before.0 && state.moves().starts_with(&before.1));
            }
        }
    }
    let replayed = GameState::replay(&log).expect("the log replays");
    assert_eq!(replayed.version, state.version);
    assert_eq!(replayed.moves(), state.moves());
    assert_eq!(replayed.clock, state.clock);
    assert_eq!(replayed.end, state.end);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_into_types_or_refused_with_a_code() {
        assert_eq!(
            parse(r#"{"t":"move","ply":3,"mv":"g3g4"}"#).unwrap(),
            ClientMsg::Move {
                ply: 3,
                mv: "g3g4".into(),
                think_ms: None
            }
        );
        for (bad, code) in [
            ("", "malformed"),
            ("{", "malformed"),
            ("[1]", "malformed"),
            (r#"{"t":"fly"}"#, "malformed"),
            (r#"{"t":"move","ply":-1,"mv":"g3g4"}"#, "malformed"),
            (r#"{"t":"move","ply":99999999999,"mv":"g3g4"}"#, "malformed"),
            (r#"{"t":"claim"}"#, "malformed"),
        ] {
            assert_eq!(parse(bad).unwrap_err().code, code, "{bad}");
        }
        let huge = format!(r#"{{"t":"ping","x":"{}"}}"#, "x".repeat(MAX_MESSAGE));
        assert_eq!(parse(&huge).unwrap_err().code, "too_big");
        let long_move = parse(r#"{"t":"move","ply":0,"mv":"g3g4g3g4g3"}"#).unwrap();
        assert!(long_move.is_command());
    }

    /// The result as the page shows it: the winner, the rules' reasons as the board
    /// app's codes, the server's as `online.<reason>`, the loser named.
    #[test]
    fn a_result_says_its_winner_and_the_page_code_of_its_reason() {
        let den = ResultMsg::of("1-0", "den");
        assert_eq!((den.winner, den.code.as_str()), (Some(Side::Red), "den"));
        assert_eq!(den.args, BTreeMap::from([("side", Side::Blue)]));
        for (reason, code) in [
            ("no_animals", "noAnimals"),
            ("no_moves", "noMoves"),
            ("resign", "online.resign"),
            ("time", "online.time"),
            ("opponent_gone", "online.opponent_gone"),
        ] {
            let r = ResultMsg::of("0-1", reason);
            assert_eq!((r.winner, r.code.as_str()), (Some(Side::Blue), code));
            assert_eq!(r.args, BTreeMap::from([("side", Side::Red)]));
        }
        for (result, reason, code) in [
            ("1/2-1/2", "repetition", "repetition"),
            ("1/2-1/2", "no_capture", "noCapture"),
            ("1/2-1/2", "agreement", "online.agreement"),
            ("1/2-1/2", "opponent_gone", "online.gone_draw"),
            ("*", "aborted", "online.aborted"),
            ("*", "declined", "online.declined"),
            ("*", "bot_offline", "online.bot_offline"),
        ] {
            let r = ResultMsg::of(result, reason);
            assert_eq!((r.winner, r.code.as_str()), (None, code), "{reason}");
            assert!(r.args.is_empty());
        }
        let text = ServerMsg::Event(Box::new(EventMsg {
            v: 9,
            at: 0,
            e: Event::End {
                result: "0-1".into(),
                reason: "resign".into(),
            },
            clock: ClockMsg {
                red: 1,
                blue: 2,
                running: None,
            },
            fen: String::new(),
            to_move: Side::Red,
            status: "over",
            board: BoardNow {
                moves: Moves {
                    legal: BTreeMap::new(),
                    forbidden: BTreeMap::new(),
                },
                kind: None,
            },
            result: Some(ResultMsg::of("0-1", "resign")),
        }))
        .text();
        assert!(
            text.contains(r#""result":{"result":"0-1","reason":"resign","winner":"blue","code":"online.resign","args":{"side":"red"}}"#),
            "{text}"
        );
    }

    /// An event other than the end carries no result, and every event the side to
    /// move.
    #[test]
    fn only_the_end_event_carries_the_result() {
        let mut log = vec![Stored {
            v: 1,
            at: 0,
            ev: Event::Created {
                rules: "jungle".into(),
                tc: "1m+0s".into(),
            },
        }];
        let mut st = GameState::replay(&log).expect("a new game");
        for (v, ev) in [
            (2, Event::Seated { side: Side::Red }),
            (3, Event::Seated { side: Side::Blue }),
            (
                4,
                Event::End {
                    result: "*".into(),
                    reason: "aborted".into(),
                },
            ),
        ] {
            let s = Stored { v, at: 0, ev };
            st.apply(&s).expect("applies");
            log.push(s.clone());
            let msg = EventMsg::of(&s, None, &st);
            assert_eq!(msg.to_move, Side::Red);
            assert_eq!(msg.result.is_some(), v == 4, "{v}");
        }
        let end =
            serde_json::to_value(ServerMsg::Event(Box::new(EventMsg::of(&log[3], None, &st))))
                .expect("json");
        assert_eq!(end["result"]["code"], "online.aborted", "{end}");
        let seated = serde_json::to_value(EventMsg::of(&log[1], None, &st)).expect("json");
        assert!(seated.get("result").is_none(), "{seated}");
    }

    /// A game's `state` says its rules' parts as the page's settings show them, for
    /// rules with settings too (their text is `jungle-cn (dog swims, …)`).
    #[test]
    fn the_state_says_the_rules_parts() {
        use jungle_core::game::{Rules, Variant};
        let mut rules: Rules = Variant::JungleCn.rules();
        rules.moves.dog_swims = true;
        let log = [Stored {
            v: 1,
            at: 0,
            ev: Event::Created {
                rules: rules.to_string(),
                tc: "1m+0s".into(),
            },
        }];
        let st = GameState::replay(&log).expect("a new game");
        let msg = crate::hub::state_msg("g", &st, None, &Default::default(), 0);
        assert!(msg.rules.starts_with("jungle-cn ("), "{}", msg.rules);
        assert_eq!(
            (msg.variant, msg.dog_swims, msg.trapped_lose_attack),
            ("jungle-cn", true, false)
        );
    }

    /// Plausible and junk messages, the random scripts' words.
    const WORDS: [&str; 15] = [
        r#"{"t":"move","ply":0,"mv":"g1g2"}"#,
        r#"{"t":"move","ply":1,"mv":"a9a8"}"#,
        r#"{"t":"move","ply":2,"mv":"g2g1","think_ms":100}"#,
        r#"{"t":"move","ply":3,"mv":"a8a9"}"#,
        r#"{"t":"move","ply":2,"mv":"a3a4"}"#,
        r#"{"t":"move","ply":1,"mv":"g7g6"}"#,
        r#"{"t":"resign"}"#,
        r#"{"t":"draw_offer"}"#,
        r#"{"t":"draw_accept"}"#,
        r#"{"t":"draw_decline"}"#,
        r#"{"t":"abort"}"#,
        r#"{"t":"rematch"}"#,
        r#"{"t":"claim","draw":true}"#,
        r#"{"t":"hello"}"#,
        "junk",
    ];

    /// A message's kind is the `t` it was read from, for every kind.
    #[test]
    fn a_message_kind_is_its_t() {
        let mut kinds = std::collections::BTreeSet::new();
        for text in WORDS.iter().chain(&[r#"{"t":"ping"}"#]) {
            let Ok(msg) = parse(text) else { continue };
            let t: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(msg.kind(), t["t"], "{text}");
            kinds.insert(msg.kind());
        }
        assert_eq!(kinds.len(), 10, "every kind: {kinds:?}");
    }

    /// The fuzz target's exercise over seeded random scripts of plausible and junk
    /// messages.
    #[test]
    fn random_scripts_keep_the_game_consistent() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300 {
            let mut data = Vec::new();
            for _ in 0..12 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                data.push((x % 3) as u8);
                data.push(((x >> 8) % 40) as u8);
                data.extend_from_slice(WORDS[((x >> 16) % WORDS.len() as u64) as usize].as_bytes());
                data.push(b'\n');
            }
            exercise(&data);
        }
    }
}
