//! The game model of the online server, with no network and no database: a game is
//! the fold of its versioned events ([`Stored`]), and a player's command is decided
//! against the state ([`GameState::decide`]) into the events that it adds, or refused
//! with a code. Legality and results come from the rules core (`jungle_core::game`);
//! time is a parameter (milliseconds since the Unix epoch), so every rule of the clock
//! is tested here without waiting.

use crate::clock::{stored_tc, Clock};
use crate::messages::ClientMsg;
use jungle_core::board::movegen::MoveError;
use jungle_core::board::{Color, Position};
use jungle_core::game::{Game, GameResult, Rules};
use jungle_core::record::{write_game, RecordHeader, RecordResult};
use jungle_core::time_control::TimeControl;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A side as the messages write it: `"red"` or `"blue"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Red,
    Blue,
}

impl Side {
    pub fn color(self) -> Color {
        match self {
            Side::Red => Color::Red,
            Side::Blue => Color::Blue,
        }
    }

    pub fn of(color: Color) -> Side {
        match color {
            Color::Red => Side::Red,
            Color::Blue => Side::Blue,
        }
    }

    pub fn other(self) -> Side {
        Side::of(self.color().other())
    }

    pub fn index(self) -> usize {
        self.color().index()
    }

    pub fn name(self) -> &'static str {
        self.color().name()
    }
}

/// How a game ended, beside the board's results: the codes of `End::reason`.
pub mod reason {
    pub const RESIGN: &str = "resign";
    pub const TIME: &str = "time";
    pub const AGREEMENT: &str = "agreement";
    pub const ABORTED: &str = "aborted";
    /// A challenge the invited bot declined (docs/accounts.md, "Bots online").
    pub const DECLINED: &str = "declined";
    /// A challenge whose invited bot went offline before it answered (docs/accounts.md,
    /// "Bots online").
    pub const BOT_OFFLINE: &str = "bot_offline";
    pub const GONE: &str = "opponent_gone";
    pub const DEN: &str = "den";
    pub const NO_ANIMALS: &str = "no_animals";
    pub const NO_MOVES: &str = "no_moves";
    pub const REPETITION: &str = "repetition";
    pub const NO_CAPTURE: &str = "no_capture";
}

/// One event of a game's log. The log is the game: its state is their fold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The first event: the rules (a record's `[Rules]` text) and the time control.
    Created {
        rules: String,
        tc: String,
    },
    /// A seat was taken (the token's hash is kept apart, never in the log).
    Seated {
        side: Side,
    },
    /// A move at `ply`, with the mover's clock after it (increment included) and the
    /// lag credited to it.
    Move {
        ply: u32,
        mv: String,
        left_ms: i64,
        credit_ms: i64,
    },
    DrawOffer {
        side: Side,
    },
    DrawDecline {
        side: Side,
    },
    RematchOffer {
        side: Side,
    },
    /// Both wanted a rematch: the new game (colours swapped).
    Rematch {
        game: String,
    },
    /// The service was down this long: the running clock did not run (docs/online.md).
    Downtime {
        ms: i64,
    },
    /// The end: `result` as a record writes it (`1-0`, `0-1`, `1/2-1/2`, `*` for an
    /// aborted game) and a reason code ([`reason`]).
    End {
        result: String,
        reason: String,
    },
}

/// An event with its version (1, 2, … in each game) and the server's time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    pub v: u64,
    pub at: i64,
    #[serde(flatten)]
    pub ev: Event,
}

/// Why a command was refused: a code for programs and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub reason: String,
    /// What the code's words name (a refused move's rule and animals).
    pub args: Vec<(&'static str, String)>,
}

impl Refusal {
    pub fn new(code: &'static str, reason: impl Into<String>) -> Refusal {
        Refusal {
            code,
            reason: reason.into(),
            args: Vec::new(),
        }
    }

    /// The refusal with the arguments its code's words name.
    pub fn with(self, args: Vec<(&'static str, String)>) -> Refusal {
        Refusal { args, ..self }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.reason)
    }
}

/// What a command comes to: the events to store (in order), or, for a move sent again
/// after it was stored, only its acknowledgement (`again`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Decision {
    pub events: Vec<Event>,
    /// The ply of a move already stored that this command repeated: no effect.
    pub again: Option<u32>,
}

/// What the server knows beside the log when it decides.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context {
    /// Since when the opponent of the one commanding has had no connection.
    pub opponent_gone_since: Option<i64>,
}

/// A game: the fold of its events.
#[derive(Clone, Debug)]
pub struct GameState {
    pub rules: Rules,
    /// The game as the rules core keeps it: its moves, positions and result.
    pub game: Game,
    /// The version of the last event folded in (0 before any).
    pub version: u64,
    pub created_at: i64,
    pub seated: [bool; 2],
    pub clock: Clock,
    pub draw_offer: Option<Side>,
    pub rematch_offer: Option<Side>,
    pub rematch: Option<String>,
    /// The result and its reason code once over.
    pub end: Option<(String, String)>,
}

/// The core's refusal of a move: a code and its reason. A move the board refuses names
/// its rule, one the anti-chase rules forbid names the rule and the animal, with the
/// board app's codes (`illegalBecause`, `chase73`, `chase175`), which the page words.
fn core_refusal(e: MoveError, game: &Game, text: &str) -> Refusal {
    let parsed = text.parse::<jungle_core::board::Move>().ok();
    match e {
        MoveError::Malformed(_) => Refusal::new("malformed_move", e.to_string()),
        MoveError::Illegal(_) => match parsed.and_then(|m| game.why_illegal(m)) {
            Some(why) => {
                let mut args = vec![("move", text.to_string()), ("why", why.code().to_string())];
                args.extend(why.args());
                Refusal::new("illegalBecause", format!("{e}: {why}")).with(args)
            }
            None => Refusal::new("illegal", e.to_string()),
        },
        MoveError::Forbidden(_) => {
            // The explanation names the rule (7-3 or 17-5).
            let why = parsed.and_then(|m| game.chase_explanation(m));
            let code = match &why {
                Some(w) if w.starts_with("rule 7-3") => "chase73",
                Some(w) if w.starts_with("rule 17-5") => "chase175",
                _ => "forbidden",
            };
            let animal = parsed.map_or("", |m| game.position().mover(m).name());
            Refusal::new(code, why.unwrap_or_else(|| e.to_string())).with(vec![
                ("move", text.to_string()),
                ("animal", animal.to_string()),
            ])
        }
    }
}

impl GameState {
    /// The state of the `Created` event (version 1).
    pub fn new(rules: Rules, tc: TimeControl, at: i64) -> GameState {
        GameState {
            rules,
            game: Game::with_rules(Position::startpos(), rules),
            version: 1,
            created_at: at,
            seated: [false; 2],
            clock: Clock::new(tc, at),
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            end: None,
        }
    }

    pub fn tc(&self) -> TimeControl {
        self.clock.tc
    }

    /// The moves as played, in coordinate notation.
    pub fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(|m| m.to_string()).collect()
    }

    /// The move played at `ply`, if there is one.
    pub fn move_at(&self, ply: u32) -> Option<String> {
        self.game.moves().get(ply as usize).map(|m| m.to_string())
    }

    /// Folds a whole log (the first event must be `Created`).
    pub fn replay(events: &[Stored]) -> Result<GameState, String> {
        let first = events.first().ok_or("a game without events")?;
        let Event::Created { rules, tc } = &first.ev else {
            return Err("a game's first event is not its creation".into());
        };
        if first.v != 1 {
            return Err(format!("a game's first event has version {}", first.v));
        }
        let rules: Rules = rules.parse()?;
        let tc = stored_tc(tc)?;
        let mut state = GameState::new(rules, tc, first.at);
        for e in &events[1..] {
            state.apply(e)?;
        }
        Ok(state)
    }

    pub fn ply(&self) -> u32 {
        self.game.moves().len() as u32
    }

    pub fn to_move(&self) -> Side {
        Side::of(self.game.position().side_to_move())
    }

    pub fn started(&self) -> bool {
        self.seated == [true, true]
    }

    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The status word: `waiting` (a seat free), `playing`, or `over`.
    pub fn status(&self) -> &'static str {
        if self.is_over() {
            "over"
        } else if self.started() {
            "playing"
        } else {
            "waiting"
        }
    }

    /// Whose clock runs, if any: the side to move once both have moved once.
    pub fn running(&self) -> Option<Side> {
        (self.started() && !self.is_over() && self.ply() >= 2).then(|| self.to_move())
    }

    /// Each side's time left at `now` (the running side's counted down).
    pub fn clocks_at(&self, now: i64) -> [i64; 2] {
        self.clock.at(now, self.running())
    }

    /// Folds one event in. The event must be the next version.
    pub fn apply(&mut self, s: &Stored) -> Result<(), String> {
        if s.v != self.version + 1 {
            return Err(format!(
                "event version {} after {} (expected {})",
                s.v,
                self.version,
                self.version + 1
            ));
        }
        match &s.ev {
            Event::Created { .. } => return Err("a second creation event".into()),
            Event::Seated { side } => {
                self.seated[side.index()] = true;
                if self.started() {
                    self.clock.turn_started = s.at;
                }
            }
            Event::Move {
                ply,
                mv,
                left_ms,
                credit_ms,
            } => {
                if *ply != self.ply() {
                    return Err(format!(
                        "a move at ply {ply} when ply {} is next",
                        self.ply()
                    ));
                }
                let mover = self.to_move();
                self.game
                    .play_text(mv)
                    .map_err(|e| format!("stored move {mv} at ply {ply}: {e}"))?;
                self.clock.moved(mover, *ply, *left_ms, *credit_ms, s.at);
                if self.draw_offer == Some(mover.other()) {
                    self.draw_offer = None;
                }
            }
            Event::DrawOffer { side } => self.draw_offer = Some(*side),
            Event::DrawDecline { .. } => self.draw_offer = None,
            Event::RematchOffer { side } => self.rematch_offer = Some(*side),
            Event::Rematch { game } => self.rematch = Some(game.clone()),
            Event::Downtime { ms } => {
                if !self.is_over() {
                    self.clock.turn_started += (*ms).max(0);
                }
            }
            Event::End { result, reason } => {
                // The clocks stop at the end (a fallen flag shows zero).
                self.clock.left = self.clocks_at(s.at);
                self.end = Some((result.clone(), reason.clone()));
                self.draw_offer = None;
            }
        }
        self.version = s.v;
        Ok(())
    }

    /// When the server must act by itself, and the event it then stores: the flag of
    /// the side to move (its time and the lag credit it could still get spent), or
    /// the abort of a game whose first moves did not come in time. `None` while no
    /// clock runs.
    pub fn deadline(&self) -> Option<(i64, Event)> {
        if !self.started() || self.is_over() {
            return None;
        }
        let mover = self.to_move();
        if self.ply() < 2 {
            return Some((
                self.clock.first_move_deadline(),
                Event::End {
                    result: RecordResult::Unfinished.as_str().into(),
                    reason: reason::ABORTED.into(),
                },
            ));
        }
        Some((
            self.clock.flag_at(mover),
            self.win_for(mover.other(), reason::TIME),
        ))
    }

    /// The events the server stores at `now` by itself (see `deadline`): none before
    /// the deadline.
    pub fn due(&self, now: i64) -> Option<Event> {
        let (at, ev) = self.deadline()?;
        (now >= at).then_some(ev)
    }

    fn win_for(&self, winner: Side, why: &str) -> Event {
        Event::End {
            result: RecordResult::of_winner(Some(winner.color()))
                .as_str()
                .into(),
            reason: why.into(),
        }
    }

    fn draw(why: &str) -> Event {
        Event::End {
            result: RecordResult::Draw.as_str().into(),
            reason: why.into(),
        }
    }

    /// Decides a command from `seat` (`None`: someone without a seat) at `now`
    /// (`hello` and `ping` are the connection's, never a game's).
    pub fn decide(
        &self,
        seat: Option<Side>,
        cmd: &ClientMsg,
        now: i64,
        ctx: Context,
    ) -> Result<Decision, Refusal> {
        let Some(side) = seat else {
            return Err(Refusal::new("no_seat", "you hold no seat in this game"));
        };
        if !self.seated[side.index()] {
            return Err(Refusal::new("no_seat", "you hold no seat in this game"));
        }
        // A move sent again after it was stored is acknowledged even after the end.
        if let ClientMsg::Move { ply, mv, .. } = cmd {
            if let Some(decided) = self.move_sent_again(side, *ply, mv) {
                return decided;
            }
        }
        match cmd {
            ClientMsg::Rematch => return self.decide_rematch(side),
            _ if self.is_over() => return Err(Refusal::new("game_over", "the game is over")),
            ClientMsg::Abort => return self.decide_abort(),
            _ if !self.started() => {
                return Err(Refusal::new("not_started", "the opponent has not come yet"))
            }
            _ => {}
        }
        let them = side.other();
        match cmd {
            ClientMsg::Move { ply, mv, think_ms } => {
                self.decide_move(side, *ply, mv, *think_ms, now)
            }
            ClientMsg::Resign => Ok(events(vec![self.win_for(them, reason::RESIGN)])),
            ClientMsg::DrawOffer | ClientMsg::DrawAccept if self.draw_offer == Some(them) => {
                Ok(events(vec![GameState::draw(reason::AGREEMENT)]))
            }
            ClientMsg::DrawOffer if self.draw_offer == Some(side) => Err(Refusal::new(
                "already_offered",
                "you already offered a draw",
            )),
            ClientMsg::DrawOffer => Ok(events(vec![Event::DrawOffer { side }])),
            ClientMsg::DrawAccept | ClientMsg::DrawDecline if self.draw_offer != Some(them) => {
                Err(Refusal::new("no_offer", "no draw was offered to you"))
            }
            ClientMsg::DrawDecline => Ok(events(vec![Event::DrawDecline { side }])),
            ClientMsg::Claim { draw } => self.decide_claim(side, *draw, now, ctx),
            // Decided above.
            ClientMsg::DrawAccept | ClientMsg::Abort | ClientMsg::Rematch => {
                Err(Refusal::new("internal", "command decided twice"))
            }
            ClientMsg::Hello { .. } | ClientMsg::Ping => Err(Refusal::new(
                "not_a_command",
                "hello and ping change no game",
            )),
        }
    }

    /// A move at a ply already played: acknowledged (no events) if it is the same move
    /// by the same side, sent again, else refused; `None` for a ply not played yet.
    fn move_sent_again(&self, side: Side, ply: u32, mv: &str) -> Option<Result<Decision, Refusal>> {
        let played = self.move_at(ply)?;
        // Games start from the start position: Red moves at even plies.
        let mover = if ply % 2 == 0 { Side::Red } else { Side::Blue };
        Some(if played == mv && mover == side {
            Ok(Decision {
                events: Vec::new(),
                again: Some(ply),
            })
        } else {
            Err(Refusal::new(
                "ply_played",
                format!("ply {ply} was already played ({played})"),
            ))
        })
    }

    /// A rematch asked for by `side`: offered, or made when the other side had asked.
    fn decide_rematch(&self, side: Side) -> Result<Decision, Refusal> {
        if !self.is_over() {
            return Err(Refusal::new("not_over", "a rematch is for a finished game"));
        }
        if self.rematch.is_some() {
            return Err(Refusal::new("rematch_made", "the rematch was already made"));
        }
        if !self.started() {
            return Err(Refusal::new(
                "no_opponent",
                "the game never had an opponent",
            ));
        }
        match self.rematch_offer {
            Some(s) if s == side => Err(Refusal::new(
                "already_offered",
                "you already asked for a rematch",
            )),
            // The game id is the server's to give: it fills it in.
            Some(_) => Ok(events(vec![Event::Rematch {
                game: String::new(),
            }])),
            None => Ok(events(vec![Event::RematchOffer { side }])),
        }
    }

    /// An abort: allowed before both sides have moved.
    fn decide_abort(&self) -> Result<Decision, Refusal> {
        if self.ply() >= 2 {
            return Err(Refusal::new(
                "too_late",
                "a game can be aborted only before both sides have moved",
            ));
        }
        Ok(events(vec![Event::End {
            result: RecordResult::Unfinished.as_str().into(),
            reason: reason::ABORTED.into(),
        }]))
    }

    /// `side` claims the game (a win, or a draw with `draw`) from an opponent gone long
    /// enough.
    fn decide_claim(
        &self,
        side: Side,
        draw: bool,
        now: i64,
        ctx: Context,
    ) -> Result<Decision, Refusal> {
        let gone = ctx
            .opponent_gone_since
            .is_some_and(|since| now - since >= self.clock.gone_ms());
        if !gone {
            return Err(Refusal::new(
                "not_gone",
                format!(
                    "a claim needs the opponent gone for {} s",
                    self.clock.gone_ms() / 1000
                ),
            ));
        }
        Ok(events(vec![if draw {
            GameState::draw(reason::GONE)
        } else {
            self.win_for(side, reason::GONE)
        }]))
    }

    fn decide_move(
        &self,
        side: Side,
        ply: u32,
        mv: &str,
        think_ms: Option<i64>,
        now: i64,
    ) -> Result<Decision, Refusal> {
        if mv.len() > 8 {
            return Err(Refusal::new("malformed_move", "a move is like g3g4"));
        }
        if ply != self.ply() {
            return Err(Refusal::new(
                "bad_ply",
                format!("ply {ply} is not the next ply ({})", self.ply()),
            ));
        }
        if side != self.to_move() {
            return Err(Refusal::new("out_of_turn", "it is not your turn"));
        }
        // The flag falls first: a move after the deadline is too late.
        if let Some(ev) = self.due(now) {
            return Ok(events(vec![ev]));
        }
        let m = self
            .game
            .parse_move(mv)
            .map_err(|e| core_refusal(e, &self.game, mv))?;
        let Some((left_ms, credit_ms)) = self.clock.after_move(side, ply, think_ms, now) else {
            return Ok(events(vec![self.win_for(side.other(), reason::TIME)]));
        };
        let mut after = self.game.clone();
        after
            .play(m)
            .map_err(|e| Refusal::new("illegal", e.to_string()))?;
        let mut evs = vec![Event::Move {
            ply,
            mv: m.to_string(),
            left_ms,
            credit_ms,
        }];
        match after.result() {
            GameResult::Ongoing => {}
            GameResult::Win { winner, reason: r } => {
                use jungle_core::board::WinReason;
                let code = match r {
                    WinReason::Den => reason::DEN,
                    WinReason::NoAnimals => reason::NO_ANIMALS,
                    WinReason::NoMoves => reason::NO_MOVES,
                };
                evs.push(self.win_for(Side::of(winner), code));
            }
            GameResult::Draw(d) => {
                use jungle_core::game::DrawReason;
                evs.push(GameState::draw(match d {
                    DrawReason::Repetition => reason::REPETITION,
                    DrawReason::NoCapture => reason::NO_CAPTURE,
                }));
            }
        }
        Ok(events(evs))
    }

    /// The game in the record format of `jungle match` (protocol.md): the result `*`
    /// while it goes on or when it was aborted.
    pub fn record(&self, id: &str) -> String {
        self.record_named(
            1,
            &format!("red of game {id}"),
            &format!("blue of game {id}"),
        )
    }

    /// The game's record as game `number` of a file, between players so named.
    pub fn record_named(&self, number: u32, red: &str, blue: &str) -> String {
        let result = match &self.end {
            Some((r, _)) => RecordResult::parse(r).unwrap_or_default(),
            None => RecordResult::Unfinished,
        };
        let termination = match &self.end {
            Some((_, why)) => termination_text(why),
            None => "in progress".to_string(),
        };
        let header = RecordHeader {
            number,
            red,
            blue,
            result,
            termination: &termination,
            rules: self.rules,
            start: *self.game.start_position(),
        };
        let mut out = Vec::new();
        // Writing to memory cannot fail.
        let _ = write_game(&mut out, &header, &self.moves());
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// A reason code as a record's `[Termination]` tag says it.
pub fn termination_text(why: &str) -> String {
    match why {
        reason::RESIGN => "resignation",
        reason::TIME => "loss on time",
        reason::AGREEMENT => "draw by agreement",
        reason::ABORTED => "aborted",
        reason::DECLINED => "declined by the bot",
        reason::BOT_OFFLINE => "the bot went offline",
        reason::GONE => "opponent left the game",
        reason::DEN => "den entered",
        reason::NO_ANIMALS => "no animals left",
        reason::NO_MOVES => "no legal move",
        reason::REPETITION => "draw (repetition)",
        reason::NO_CAPTURE => "draw (no capture rule)",
        other => other,
    }
    .to_string()
}

fn events(events: Vec<Event>) -> Decision {
    Decision {
        events,
        again: None,
    }
}

#[cfg(test)]
mod tests;
