//! The game model of the online server, with no network and no database: a game is
//! the fold of its versioned events ([`Stored`]), and a player's command is decided
//! against the state ([`GameState::decide`]) into the events that it adds, or refused
//! with a code. Legality and results come from the rules core (`jungle_core::game`);
//! time is a parameter (milliseconds since the Unix epoch), so every rule of the clock
//! is tested here without waiting.

use jungle_core::board::movegen::MoveError;
use jungle_core::board::{Color, Position};
use jungle_core::game::{Game, GameResult, Rules};
use jungle_core::record::{write_game, RecordHeader, RecordResult};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Lag credit (scalachess's `LagTracker`): the quota a player starts with.
pub const LAG_QUOTA_START_MS: i64 = 2_000;
/// The most the quota can hold.
pub const LAG_QUOTA_MAX_MS: i64 = 5_000;
/// The most credited on one move.
pub const LAG_MOVE_MAX_MS: i64 = 3_000;
/// Live games: the time each side has for its first move (plies 0 and 1, before the
/// clocks start); past it the game is aborted.
pub const FIRST_MOVE_MS: i64 = 60_000;
/// How long a player must be gone before the opponent may claim the win or a draw:
/// live games.
pub const GONE_LIVE_MS: i64 = 30_000;
/// The same for correspondence games.
pub const GONE_CORRESPONDENCE_MS: i64 = 24 * 3_600_000;
const DAY_MS: i64 = 24 * 3_600_000;

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

/// A game's time control: a live clock (1+0 … 30+30: minutes and an increment in
/// seconds) or correspondence (1, 2, 3 or 7 days a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Live { base_ms: i64, inc_ms: i64 },
    Correspondence { days: i64 },
}

impl TimeControl {
    /// Reads `M+S` (minutes 1–30, increment 0–30 seconds) or `Nd` (N of 1, 2, 3, 7).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "bad time control '{}': expected minutes+increment from 1+0 to 30+30, or days a move 1d, 2d, 3d or 7d",
                text.chars().take(20).collect::<String>()
            )
        };
        if let Some(days) = text.strip_suffix('d') {
            let days: i64 = days.parse().map_err(|_| bad())?;
            return match days {
                1 | 2 | 3 | 7 => Ok(TimeControl::Correspondence { days }),
                _ => Err(bad()),
            };
        }
        let (m, s) = text.split_once('+').ok_or_else(bad)?;
        let m: i64 = m.parse().map_err(|_| bad())?;
        let s: i64 = s.parse().map_err(|_| bad())?;
        if !(1..=30).contains(&m) || !(0..=30).contains(&s) {
            return Err(bad());
        }
        Ok(TimeControl::Live {
            base_ms: m * 60_000,
            inc_ms: s * 1_000,
        })
    }

    /// Each side's time at the start (correspondence: the time for one move).
    pub fn initial_ms(self) -> i64 {
        match self {
            TimeControl::Live { base_ms, .. } => base_ms,
            TimeControl::Correspondence { days } => days * DAY_MS,
        }
    }

    /// What a move adds to the lag quota: scalachess's rule, 1 s a move at most, less
    /// in the fastest games: (the estimated game time in seconds, base + 40 × increment)
    /// × 2/5 + 15 centiseconds.
    pub fn quota_gain_ms(self) -> i64 {
        match self {
            TimeControl::Live { base_ms, inc_ms } => {
                let estimate_s = (base_ms + 40 * inc_ms) / 1_000;
                (estimate_s * 2 / 5 * 10 + 150).min(1_000)
            }
            TimeControl::Correspondence { .. } => 0,
        }
    }

    pub fn gone_ms(self) -> i64 {
        match self {
            TimeControl::Live { .. } => GONE_LIVE_MS,
            TimeControl::Correspondence { .. } => GONE_CORRESPONDENCE_MS,
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Live { base_ms, inc_ms } => {
                write!(f, "{}+{}", base_ms / 60_000, inc_ms / 1_000)
            }
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
        }
    }
}

/// How a game ended, beside the board's results: the codes of `End::reason`.
pub mod reason {
    pub const RESIGN: &str = "resign";
    pub const TIME: &str = "time";
    pub const AGREEMENT: &str = "agreement";
    pub const ABORTED: &str = "aborted";
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
    /// The service was down this long: the running clock did not run (protocol.md).
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

/// What a player asks of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Move {
        ply: u32,
        mv: String,
        /// The client's own measure of its thinking time, for the lag credit.
        think_ms: Option<i64>,
    },
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Abort,
    Rematch,
    /// Claim the win (`draw == false`) or a draw when the opponent has been gone.
    Claim {
        draw: bool,
    },
}

/// Why a command was refused: a code for programs and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub reason: String,
}

impl Refusal {
    pub fn new(code: &'static str, reason: impl Into<String>) -> Refusal {
        Refusal {
            code,
            reason: reason.into(),
        }
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
pub struct Outcome {
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
    pub tc: TimeControl,
    pub game: Game,
    /// The version of the last event folded in (0 before any).
    pub version: u64,
    pub created_at: i64,
    pub seated: [bool; 2],
    /// Each side's time left at `turn_started` (correspondence: the time for a move).
    pub clock: [i64; 2],
    /// When the side to move's turn began (moved on by downtime).
    pub turn_started: i64,
    /// Each side's lag quota.
    pub quota: [i64; 2],
    pub draw_offer: Option<Side>,
    pub rematch_offer: Option<Side>,
    pub rematch: Option<String>,
    /// The result and its reason code once over.
    pub end: Option<(String, String)>,
    /// The moves as played, in coordinate notation.
    pub moves: Vec<String>,
}

/// The core's refusal of a move as a code and its reason.
fn core_refusal(e: MoveError, game: &Game, text: &str) -> Refusal {
    match e {
        MoveError::Malformed(_) => Refusal::new("malformed_move", e.to_string()),
        MoveError::Illegal(_) => Refusal::new("illegal", e.to_string()),
        MoveError::Forbidden(_) => {
            // The explanation names the rule (7-3 or 17-5).
            let why = jungle_core::with_move_rules!(game.rules().moves, R => game.position().parse_move_with::<R>(text))
                .ok()
                .and_then(|m| game.chase_explanation(m))
                .unwrap_or_else(|| e.to_string());
            Refusal::new("forbidden", why)
        }
    }
}

impl GameState {
    /// The state of the `Created` event (version 1).
    pub fn new(rules: Rules, tc: TimeControl, at: i64) -> GameState {
        GameState {
            rules,
            tc,
            game: Game::with_rules(Position::startpos(), rules),
            version: 1,
            created_at: at,
            seated: [false; 2],
            clock: [tc.initial_ms(); 2],
            turn_started: at,
            quota: [LAG_QUOTA_START_MS; 2],
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            end: None,
            moves: Vec::new(),
        }
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
        let tc = TimeControl::parse(tc)?;
        let mut state = GameState::new(rules, tc, first.at);
        for e in &events[1..] {
            state.apply(e)?;
        }
        Ok(state)
    }

    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
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
        let mut c = self.clock;
        if let Some(s) = self.running() {
            c[s.index()] = (c[s.index()] - (now - self.turn_started).max(0)).max(0);
        }
        c
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
                    self.turn_started = s.at;
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
                self.moves.push(mv.clone());
                let i = mover.index();
                self.clock[i] = *left_ms;
                if *ply >= 2 {
                    self.quota[i] =
                        (self.quota[i] + self.tc.quota_gain_ms() - credit_ms).min(LAG_QUOTA_MAX_MS);
                }
                if let TimeControl::Correspondence { days } = self.tc {
                    self.clock[mover.other().index()] = days * DAY_MS;
                }
                self.turn_started = s.at;
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
                    self.turn_started += (*ms).max(0);
                }
            }
            Event::End { result, reason } => {
                // The clocks stop at the end (a fallen flag shows zero).
                self.clock = self.clocks_at(s.at);
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
            let limit = match self.tc {
                TimeControl::Live { .. } => FIRST_MOVE_MS,
                TimeControl::Correspondence { days } => days * DAY_MS,
            };
            return Some((
                self.turn_started + limit,
                Event::End {
                    result: RecordResult::Unfinished.as_str().into(),
                    reason: reason::ABORTED.into(),
                },
            ));
        }
        let grace = self.max_credit(mover);
        Some((
            self.turn_started + self.clock[mover.index()] + grace,
            self.win_for(mover.other(), reason::TIME),
        ))
    }

    /// The events the server stores at `now` by itself (see `deadline`): none before
    /// the deadline.
    pub fn due(&self, now: i64) -> Option<Event> {
        let (at, ev) = self.deadline()?;
        (now >= at).then_some(ev)
    }

    fn max_credit(&self, side: Side) -> i64 {
        match self.tc {
            TimeControl::Live { .. } => self.quota[side.index()].min(LAG_MOVE_MAX_MS),
            TimeControl::Correspondence { .. } => 0,
        }
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

    /// Decides a command from `seat` (`None`: someone without a seat) at `now`.
    pub fn decide(
        &self,
        seat: Option<Side>,
        cmd: &Command,
        now: i64,
        ctx: Context,
    ) -> Result<Outcome, Refusal> {
        let Some(side) = seat else {
            return Err(Refusal::new("no_seat", "you hold no seat in this game"));
        };
        if !self.seated[side.index()] {
            return Err(Refusal::new("no_seat", "you hold no seat in this game"));
        }
        // A move sent again after it was stored is acknowledged even after the end.
        if let Command::Move { ply, mv, .. } = cmd {
            if let Some(played) = self.moves.get(*ply as usize) {
                // Games start from the start position: Red moves at even plies.
                let mover = if ply % 2 == 0 { Side::Red } else { Side::Blue };
                if played == mv && mover == side {
                    return Ok(Outcome {
                        events: Vec::new(),
                        again: Some(*ply),
                    });
                }
                return Err(Refusal::new(
                    "ply_played",
                    format!("ply {ply} was already played ({played})"),
                ));
            }
        }
        let over = || Refusal::new("game_over", "the game is over");
        match cmd {
            Command::Rematch => {
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
                return match self.rematch_offer {
                    Some(s) if s == side => Err(Refusal::new(
                        "already_offered",
                        "you already asked for a rematch",
                    )),
                    // The game id is the server's to give: it fills it in.
                    Some(_) => Ok(events(vec![Event::Rematch {
                        game: String::new(),
                    }])),
                    None => Ok(events(vec![Event::RematchOffer { side }])),
                };
            }
            _ if self.is_over() => return Err(over()),
            Command::Abort => {
                if self.ply() >= 2 {
                    return Err(Refusal::new(
                        "too_late",
                        "a game can be aborted only before both sides have moved",
                    ));
                }
                return Ok(events(vec![Event::End {
                    result: RecordResult::Unfinished.as_str().into(),
                    reason: reason::ABORTED.into(),
                }]));
            }
            _ if !self.started() => {
                return Err(Refusal::new("not_started", "the opponent has not come yet"))
            }
            _ => {}
        }
        let them = side.other();
        match cmd {
            Command::Move { ply, mv, think_ms } => self.decide_move(side, *ply, mv, *think_ms, now),
            Command::Resign => Ok(events(vec![self.win_for(them, reason::RESIGN)])),
            Command::DrawOffer | Command::DrawAccept if self.draw_offer == Some(them) => {
                Ok(events(vec![GameState::draw(reason::AGREEMENT)]))
            }
            Command::DrawOffer if self.draw_offer == Some(side) => Err(Refusal::new(
                "already_offered",
                "you already offered a draw",
            )),
            Command::DrawOffer => Ok(events(vec![Event::DrawOffer { side }])),
            Command::DrawAccept | Command::DrawDecline if self.draw_offer != Some(them) => {
                Err(Refusal::new("no_offer", "no draw was offered to you"))
            }
            Command::DrawDecline => Ok(events(vec![Event::DrawDecline { side }])),
            Command::Claim { draw } => {
                let gone = ctx
                    .opponent_gone_since
                    .is_some_and(|since| now - since >= self.tc.gone_ms());
                if !gone {
                    return Err(Refusal::new(
                        "not_gone",
                        format!(
                            "a claim needs the opponent gone for {} s",
                            self.tc.gone_ms() / 1000
                        ),
                    ));
                }
                Ok(events(vec![if *draw {
                    GameState::draw(reason::GONE)
                } else {
                    self.win_for(side, reason::GONE)
                }]))
            }
            // Decided above.
            Command::DrawAccept | Command::Abort | Command::Rematch => {
                Err(Refusal::new("internal", "command decided twice"))
            }
        }
    }

    fn decide_move(
        &self,
        side: Side,
        ply: u32,
        mv: &str,
        think_ms: Option<i64>,
        now: i64,
    ) -> Result<Outcome, Refusal> {
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
        let (left_ms, credit_ms) = match self.tc {
            _ if ply < 2 => (self.clock[side.index()], 0),
            TimeControl::Correspondence { days } => (days * DAY_MS, 0),
            TimeControl::Live { inc_ms, .. } => {
                let elapsed = (now - self.turn_started).max(0);
                let lag = think_ms.map_or(0, |t| elapsed - t.clamp(0, elapsed));
                let credit = lag.min(self.max_credit(side));
                let left = self.clock[side.index()] - (elapsed - credit);
                if left <= 0 {
                    return Ok(events(vec![self.win_for(side.other(), reason::TIME)]));
                }
                (left + inc_ms, credit)
            }
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
        let result = match &self.end {
            Some((r, _)) => RecordResult::parse(r).unwrap_or_default(),
            None => RecordResult::Unfinished,
        };
        let termination = match &self.end {
            Some((_, why)) => termination_text(why),
            None => "in progress".to_string(),
        };
        let red = format!("red of game {id}");
        let blue = format!("blue of game {id}");
        let header = RecordHeader {
            number: 1,
            red: &red,
            blue: &blue,
            result,
            termination: &termination,
            rules: self.rules,
            start: *self.game.start_position(),
        };
        let mut out = Vec::new();
        // Writing to memory cannot fail.
        let _ = write_game(&mut out, &header, &self.moves);
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

fn events(events: Vec<Event>) -> Outcome {
    Outcome {
        events,
        again: None,
    }
}

#[cfg(test)]
mod tests;
