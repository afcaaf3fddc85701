//! The GUI's one owner of the game: every request of the page and every event of an
//! engine arrives here, on one thread, in order. The rules core checks every move,
//! the page's and the engines' alike; an engine only ever proposes.

use crate::api::{self, Answer, Players, Refusal, Request};
use crate::board::movegen::MoveError;
use crate::board::rules::MoveRuleFlags;
use crate::board::{Color, Move, Position};
use crate::engines::{EngineEvent, Host, Request as EngineRequest, Search};
use crate::game::{Game, GameResult, Rules, Variant};
use crate::review::{Review, REVIEW_NODES};
use crate::view;
use jungle_core::clock::Instant;
use jungle_core::protocol::client::{declaration, spin_range};
use jungle_core::protocol::options::rule_settings;
use jungle_core::record::{self, RecordHeader};
use jungle_core::search::{Limits, SearchInfo};
use std::collections::VecDeque;
use std::time::Duration;

/// Named strength levels, weakest first; the last is full strength.
/// The level of a new board: Novice, for someone who has never played (full strength
/// is the last level, one choice away).
pub const FIRST_LEVEL: u32 = 2;

pub const LEVEL_NAMES: [&str; 8] = [
    "Beginner",
    "Novice",
    "Casual",
    "Club",
    "Strong",
    "Expert",
    "Master",
    "Full strength",
];
/// Engine slots: the engine that plays (Red's in a watched game), the second engine
/// (Blue's in a watched game), and the one that analyses and gives hints.
pub const PLAYER: usize = 0;
pub const SECOND: usize = 1;
pub const ANALYSER: usize = 2;

/// Notes shown to the person: errors and what engines did.
const NOTICES_KEPT: usize = 20;
/// Extra time an engine may take past its move time before it counts as hung.
const ANSWER_GRACE: Duration = Duration::from_secs(5);
/// How long a review's search of one position may take before the engine counts as
/// hung (it is a node count: a fraction of a second on any machine).
const REVIEW_DEADLINE: Duration = Duration::from_secs(60);

/// What the command line allows.
#[derive(Clone, Debug)]
pub struct Config {
    /// The names of the engines of the slots `PLAYER`, `SECOND` and `ANALYSER` (as
    /// `jungle match` records them).
    pub names: [String; 3],
    /// The clock of a watched game.
    pub watch_clock: (u64, u64),
    pub movetime_ms: u64,
}

/// A search of an engine playing a move.
#[derive(Clone, Copy, Debug)]
struct PlaySearch {
    slot: usize,
    id: u64,
    color: Color,
    started: Instant,
    /// Already asked again once after the engine failed.
    retried: bool,
    /// The mover's last reported score (centipawns, mates as ±30000 − plies).
    score: Option<i32>,
}

/// A game decided by the referee rather than the rules (an illegal move, a crash, a
/// loss on time): it holds at the end of the line it was given at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub ply: usize,
    pub winner: Option<Color>,
    pub reason: String,
}

/// One line of analysis.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PvLine {
    pub multipv: u32,
    pub depth: u32,
    /// `cp 23` or `mate -3`, from the side to move's view.
    pub score: String,
    pub nodes: u64,
    pub nps: u64,
    pub pv: Vec<String>,
}

impl PvLine {
    /// The line a search reported (the first 40 moves of its variation).
    pub fn of(info: &SearchInfo) -> PvLine {
        PvLine {
            multipv: info.multipv as u32,
            depth: info.depth.max(0) as u32,
            score: info.score.to_string(),
            nodes: info.nodes,
            nps: info.nps,
            pv: info.pv.iter().take(40).map(Move::to_string).collect(),
        }
    }
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Notice {
    pub kind: &'static str,
    pub text: String,
}

/// What is known of an engine slot.
#[derive(Clone, Debug, Default)]
pub struct EngineInfo {
    /// The name given on the command line (as `jungle match` records it).
    pub name: String,
    /// The name the engine gives itself (`id name`), once it has started.
    pub id_name: Option<String>,
    pub options: Vec<String>,
}

impl EngineInfo {
    /// `(min, max)` of a spin option the engine declared.
    pub fn spin(&self, name: &str) -> Option<(i64, i64)> {
        spin_range(&self.options, name)
    }

    pub fn declares(&self, name: &str) -> bool {
        declaration(&self.options, name).is_some()
    }
}

pub struct Controller<H: Host> {
    pub config: Config,
    /// Carries requests to the engines and events to the pages.
    pub host: H,
    pub engines: [EngineInfo; 3],
    pub rules: Rules,
    pub start: Position,
    /// The moves of the game, those after the cursor kept for redo.
    pub line: Vec<Move>,
    pub cursor: usize,
    /// The game at the cursor.
    pub game: Game,
    pub players: Players,
    /// 1 ..= LEVEL_NAMES.len().
    pub level: u32,
    pub movetime_ms: u64,
    pub verdict: Option<Verdict>,
    play: Option<PlaySearch>,
    /// The watched game runs (engines move by themselves).
    pub watch_running: bool,
    /// Remaining time of Red and Blue in a watched game (ms).
    pub clocks: [i64; 2],
    pub analysis_on: bool,
    pub multipv: u32,
    analysis_id: Option<u64>,
    pub analysis: Vec<PvLine>,
    hint_id: Option<u64>,
    pub hint: Option<Move>,
    /// Scores by ply from Red's view (centipawns; mates as ±(30000 − plies)).
    pub scores: Vec<Option<i32>>,
    /// The review of the line, running or done.
    pub review: Option<Review>,
    pub notices: VecDeque<Notice>,
    next_id: u64,
    /// Analysis lines not yet sent (sent at most every 100 ms).
    analysis_dirty: bool,
    analysis_sent: Instant,
    pub version: u64,
}

impl<H: Host> Controller<H> {
    pub fn new(config: Config, host: H) -> Controller<H> {
        let engines = config.names.clone().map(|name| EngineInfo {
            name,
            id_name: None,
            options: Vec::new(),
        });
        let clock = config.watch_clock.0 as i64;
        let movetime_ms = config.movetime_ms;
        Controller {
            config,
            host,
            engines,
            rules: Rules::default(),
            start: Position::startpos(),
            line: Vec::new(),
            cursor: 0,
            game: Game::startpos(),
            players: Players::Red,
            level: FIRST_LEVEL,
            movetime_ms,
            verdict: None,
            play: None,
            watch_running: false,
            clocks: [clock; 2],
            analysis_on: false,
            multipv: 1,
            analysis_id: None,
            analysis: Vec::new(),
            hint_id: None,
            hint: None,
            scores: vec![None],
            review: None,
            notices: VecDeque::new(),
            next_id: 1,
            analysis_dirty: false,
            analysis_sent: Instant::now(),
            version: 0,
        }
    }

    /// Starts the engines now, so the page can show their names at once.
    pub fn start(&mut self) {
        self.send_level();
        self.host.to_engine(PLAYER, EngineRequest::NewGame);
    }

    /// Answers a request of a page.
    pub fn handle(&mut self, request: Request) -> Result<Answer, Refusal> {
        log::debug!("request: {request:?}");
        let result = match request {
            Request::State => return Ok(Answer::State(view::state(self))),
            Request::Record => return Ok(Answer::Text(self.record())),
            Request::Puzzle(p) => return crate::puzzles::answer(&p).map(Answer::State),
            Request::Move(m) => self.human_move(&m.mv),
            Request::Undo => self.undo(),
            Request::Redo => self.redo(),
            Request::Goto(g) => self.goto(g.ply),
            Request::NewGame(n) => self.new_game(n),
            Request::Settings(s) => self.settings(s),
            Request::Hint => self.ask_hint(),
            Request::MoveNow => self.move_now(),
            Request::Analysis(a) => self.set_analysis(a),
            Request::Watch(w) => self.watch(w.run),
            Request::Load(l) => self.load(&l.text, l.game.unwrap_or(1)),
            Request::Review(r) => self.set_review(r.on),
        };
        result?;
        self.changed();
        Ok(Answer::State(view::state(self)))
    }

    // ----- the game line -------------------------------------------------------

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Rebuilds the game at `cursor` from the start and the line (every move checked).
    fn rebuild(&mut self) {
        let mut game = Game::with_rules(self.start, self.rules);
        for &m in &self.line[..self.cursor] {
            if game.play(m).is_err() {
                // Cannot happen: every move of the line was checked when it was added.
                break;
            }
        }
        self.game = game;
    }

    /// The cursor moved or the line changed: searches on the old position end.
    fn position_changed(&mut self) {
        self.hint = None;
        self.hint_id = None;
        self.analysis.clear();
        if let Some(p) = self.play.take() {
            self.host.to_engine(p.slot, EngineRequest::Stop);
        }
        if self.verdict.as_ref().is_some_and(|v| v.ply != self.cursor) {
            self.verdict = None;
        }
        self.scores.resize(self.line.len() + 1, None);
        self.restart_analysis();
    }

    /// The result shown: the referee's verdict at the end of the line, or the rules'.
    pub fn result(&self) -> Option<(Option<Color>, String)> {
        if let Some(v) = &self.verdict {
            return Some((v.winner, v.reason.clone()));
        }
        match self.game.result() {
            GameResult::Ongoing => None,
            GameResult::Win { winner, reason } => Some((Some(winner), reason.describe().into())),
            GameResult::Draw(reason) => Some((None, reason.describe().into())),
        }
    }

    /// Who plays `color`: `None` for a person, else the engine slot.
    pub fn seat(&self, color: Color) -> Option<usize> {
        match (self.players, color) {
            (Players::Red, Color::Blue) | (Players::Blue, Color::Red) => Some(PLAYER),
            (Players::Engines, Color::Red) => Some(PLAYER),
            (Players::Engines, Color::Blue) => Some(SECOND),
            _ => None,
        }
    }

    pub fn thinking(&self) -> Option<(Color, usize, Instant)> {
        self.play.map(|p| (p.color, p.slot, p.started))
    }

    /// Plays `m` (already checked legal) at the cursor, dropping the moves after it.
    fn push_move(&mut self, m: Move) {
        // A new line: its review no longer holds.
        self.cancel_review();
        self.line.truncate(self.cursor);
        self.line.push(m);
        self.cursor += 1;
        self.verdict = None;
        self.rebuild();
        self.position_changed();
    }

    fn human_move(&mut self, text: &str) -> Result<(), Refusal> {
        if let Some((_, reason)) = self.result() {
            return Err(Refusal::conflict(format!("the game is over ({reason})")));
        }
        let side = self.game.position().side_to_move();
        if let Some(slot) = self.seat(side) {
            return Err(Refusal::conflict(format!(
                "it is {}'s turn, and {} plays {} (switch sides, or press Engine move)",
                side_name(side),
                self.engines[slot].name,
                side_name(side)
            )));
        }
        let text = text.trim();
        let m = self.game.parse_move(text).map_err(|e| {
            let explained = match e {
                MoveError::Forbidden(_) => text
                    .parse::<Move>()
                    .ok()
                    .and_then(|m| self.game.chase_explanation(m)),
                _ => None,
            };
            Refusal::bad(match explained {
                Some(why) => format!("{text} is forbidden by the {why}"),
                None => e.to_string(),
            })
        })?;
        self.push_move(m);
        self.engine_turn();
        Ok(())
    }

    fn undo(&mut self) -> Result<(), Refusal> {
        if self.cursor == 0 {
            return Err(Refusal::conflict("nothing to undo"));
        }
        self.cursor -= 1;
        // Against the engine, undo goes back to the person's move.
        if self.players == Players::Red || self.players == Players::Blue {
            let mover = self.mover_at(self.cursor);
            if self.seat(mover).is_some() && self.cursor > 0 {
                self.cursor -= 1;
            }
        }
        self.watch_running = false;
        self.rebuild();
        self.position_changed();
        // Back at the start with the engine to move (a person playing Blue took back
        // its first move and the engine's): the engine moves again at once.
        if self.cursor == 0 {
            self.engine_turn();
        }
        Ok(())
    }

    fn redo(&mut self) -> Result<(), Refusal> {
        if self.cursor >= self.line.len() {
            return Err(Refusal::conflict("nothing to redo"));
        }
        self.cursor += 1;
        if (self.players == Players::Red || self.players == Players::Blue)
            && self.cursor < self.line.len()
            && self.seat(self.mover_at(self.cursor)).is_some()
        {
            self.cursor += 1;
        }
        self.rebuild();
        self.position_changed();
        Ok(())
    }

    /// The side to move after `ply` plies of the line.
    fn mover_at(&self, ply: usize) -> Color {
        jungle_core::review::mover_at(&self.start, ply)
    }

    fn goto(&mut self, ply: usize) -> Result<(), Refusal> {
        if ply > self.line.len() {
            return Err(Refusal::bad(format!(
                "ply {ply} is past the end of the game ({} plies)",
                self.line.len()
            )));
        }
        self.cursor = ply;
        self.watch_running = false;
        self.rebuild();
        self.position_changed();
        Ok(())
    }

    fn new_game(&mut self, request: api::NewGameRequest) -> Result<(), Refusal> {
        let rules = match &request.rules {
            Some(choice) => rules_of(choice)?,
            None => self.rules,
        };
        let start = match &request.fen {
            Some(fen) => {
                let pos = Position::from_fen_with(fen.trim(), rules.moves).map_err(|e| {
                    Refusal::bad(format!(
                        "invalid position '{}': {e}",
                        crate::text::quote(fen)
                    ))
                })?;
                if Game::with_rules(pos, rules).result() != GameResult::Ongoing {
                    return Err(Refusal::bad("that position is already decided"));
                }
                pos
            }
            None => Position::startpos(),
        };
        self.set_game(start, rules, Vec::new(), 0);
        if let Some(p) = request.players {
            self.players = p;
        }
        self.clocks = [self.config.watch_clock.0 as i64; 2];
        self.watch_running = false;
        self.send_level();
        self.engine_turn();
        Ok(())
    }

    /// Replaces the game (the line is legal under `rules`).
    fn set_game(&mut self, start: Position, rules: Rules, line: Vec<Move>, cursor: usize) {
        if rules != self.rules {
            let options = rule_settings(rules);
            for slot in [PLAYER, SECOND, ANALYSER] {
                self.host.to_engine(slot, EngineRequest::Stop);
                self.host
                    .to_engine(slot, EngineRequest::Options(options.clone()));
            }
            for slot in [PLAYER, SECOND, ANALYSER] {
                if rules != Rules::default()
                    && !self.engines[slot].options.is_empty()
                    && !self.engines[slot].declares("UCI_Variant")
                {
                    self.notice(
                        "info",
                        format!(
                            "engine {} does not declare the rule options; its moves are still checked by the rules of {rules}",
                            self.engines[slot].name
                        ),
                    );
                }
            }
        }
        self.cancel_review();
        for slot in [PLAYER, SECOND, ANALYSER] {
            self.host.to_engine(slot, EngineRequest::NewGame);
        }
        self.rules = rules;
        self.start = start;
        self.line = line;
        self.cursor = cursor;
        self.verdict = None;
        self.scores = vec![None; self.line.len() + 1];
        self.rebuild();
        self.position_changed();
    }

    fn settings(&mut self, s: api::SettingsRequest) -> Result<(), Refusal> {
        if let Some(level) = s.level {
            if level == 0 || level > LEVEL_NAMES.len() as u32 {
                return Err(Refusal::bad(format!(
                    "level must be from 1 to {}, got {level}",
                    LEVEL_NAMES.len()
                )));
            }
        }
        if let Some(ms) = s.movetime_ms {
            if !(50..=600_000).contains(&ms) {
                return Err(Refusal::bad(format!(
                    "thinking time must be from 50 to 600000 ms, got {ms}"
                )));
            }
        }
        if let Some(level) = s.level {
            self.level = level;
            self.send_level();
        }
        if let Some(ms) = s.movetime_ms {
            self.movetime_ms = ms;
        }
        if let Some(p) = s.players {
            if p != self.players {
                if let Some(search) = self.play.take() {
                    self.host.to_engine(search.slot, EngineRequest::Stop);
                }
                self.players = p;
                self.watch_running = false;
                self.send_level();
                self.engine_turn();
            }
        }
        Ok(())
    }

    /// The strength options of the playing engine for the chosen level (full
    /// strength in a watched game).
    fn send_level(&mut self) {
        let info = &self.engines[PLAYER];
        let top = LEVEL_NAMES.len() as u32;
        let level = if self.players == Players::Engines {
            top
        } else {
            self.level
        };
        let mut options = Vec::new();
        if let Some((min, max)) = info.spin("UCI_Elo") {
            let limit = level < top;
            options.push(("UCI_LimitStrength".to_string(), limit.to_string()));
            if limit {
                let elo = min + (max - min) * i64::from(level - 1) / i64::from(top - 1);
                options.push(("UCI_Elo".to_string(), elo.to_string()));
            }
        } else if let Some((min, max)) = info.spin("Skill Level") {
            let skill = min + (max - min) * i64::from(level - 1) / i64::from(top - 1);
            options.push(("Skill Level".to_string(), skill.to_string()));
        } else if info.options.is_empty() {
            // Not started yet: both ways; the driver skips what the engine lacks.
            return;
        }
        if !options.is_empty() {
            self.host.to_engine(PLAYER, EngineRequest::Options(options));
        }
    }

    /// The Elo (on the engine's `UCI_Elo` scale) of each level, when it has one.
    pub fn level_elos(&self) -> Option<Vec<Option<i64>>> {
        let (min, max) = self.engines[PLAYER].spin("UCI_Elo")?;
        let top = LEVEL_NAMES.len() as i64;
        Some(
            (1..=top)
                .map(|l| (l < top).then(|| min + (max - min) * (l - 1) / (top - 1)))
                .collect(),
        )
    }

    // ----- engines playing ----------------------------------------------------

    /// Starts the engine's move if it is an engine's turn (and, in a watched game,
    /// the game runs).
    fn engine_turn(&mut self) {
        if self.result().is_some() {
            // A watched game that has ended stays ended.
            self.watch_running = false;
            return;
        }
        if self.play.is_some() {
            return;
        }
        if self.players == Players::Engines && !self.watch_running {
            return;
        }
        let side = self.game.position().side_to_move();
        let Some(slot) = self.seat(side) else {
            return;
        };
        self.start_play(slot, side, false);
    }

    /// A search of the position after `ply` plies of the line.
    fn search_at(&mut self, ply: usize, limits: Limits, deadline: Option<Duration>) -> Search {
        Search {
            id: self.id(),
            start: self.start,
            moves: self.line[..ply].to_vec(),
            limits,
            deadline,
        }
    }

    fn start_play(&mut self, slot: usize, color: Color, retried: bool) {
        // The analyser pauses while an engine plays (they share the cores).
        if let Some(_id) = self.analysis_id.take() {
            self.host.to_engine(ANALYSER, EngineRequest::Stop);
        }
        let (limits, deadline) = if self.players == Players::Engines {
            let (_, inc) = self.config.watch_clock;
            let own = self.clocks[color.index()].max(0) as u64;
            (
                Limits {
                    time: self.clocks.map(|c| Some(c.max(0) as u64)),
                    inc: [inc; 2],
                    ..Limits::default()
                },
                Duration::from_millis(own) + ANSWER_GRACE,
            )
        } else {
            (
                Limits {
                    movetime: Some(self.movetime_ms),
                    ..Limits::default()
                },
                Duration::from_millis(self.movetime_ms) + ANSWER_GRACE,
            )
        };
        let search = self.search_at(self.cursor, limits, Some(deadline));
        let id = search.id;
        self.host
            .to_engine(slot, EngineRequest::Go(Box::new(search)));
        self.play = Some(PlaySearch {
            slot,
            id,
            color,
            started: Instant::now(),
            retried,
            score: None,
        });
    }

    fn move_now(&mut self) -> Result<(), Refusal> {
        if let Some(p) = self.play {
            // Its bestmove follows and is played.
            self.host.to_engine(p.slot, EngineRequest::Stop);
            return Ok(());
        }
        if let Some((_, reason)) = self.result() {
            return Err(Refusal::conflict(format!("the game is over ({reason})")));
        }
        let side = self.game.position().side_to_move();
        match self.seat(side) {
            Some(slot) => {
                if self.players == Players::Engines {
                    self.watch_running = true;
                }
                self.start_play(slot, side, false);
            }
            None => {
                // The engine takes over the side to move; the person gets the other.
                self.players = match side {
                    Color::Red => Players::Blue,
                    Color::Blue => Players::Red,
                };
                self.send_level();
                self.start_play(PLAYER, side, false);
            }
        }
        Ok(())
    }

    fn watch(&mut self, run: bool) -> Result<(), Refusal> {
        if run {
            if let Some((_, reason)) = self.result() {
                return Err(Refusal::conflict(format!("the game is over ({reason})")));
            }
            if self.players != Players::Engines {
                self.players = Players::Engines;
                self.send_level();
            }
            self.watch_running = true;
            self.engine_turn();
        } else {
            self.watch_running = false;
            if let Some(p) = self.play.take() {
                // The clock stops where it is; the move is thought again on resume.
                let used = p.started.elapsed().as_millis() as i64;
                self.clocks[p.color.index()] -= used;
                self.host.to_engine(p.slot, EngineRequest::Stop);
            }
            self.restart_analysis();
        }
        Ok(())
    }

    /// Takes in what an engine said.
    pub fn engine_event(&mut self, event: EngineEvent) {
        log::debug!("engine: {event:?}");
        match event {
            EngineEvent::Ready {
                slot,
                name,
                options,
            } => {
                let first_time = self.engines[slot].options.is_empty();
                let info = &mut self.engines[slot];
                info.id_name = Some(name);
                info.options = options;
                if slot == PLAYER && first_time {
                    self.send_level();
                }
                self.changed();
            }
            EngineEvent::Said { slot, line } => {
                let text = line.trim_start_matches("info string").trim().to_string();
                if text.starts_with("error") {
                    let name = self.engines[slot].name.clone();
                    self.notice("error", format!("{name}: {text}"));
                    self.changed();
                }
            }
            EngineEvent::Info { slot, id, info } => self.engine_info(slot, id, &info),
            EngineEvent::BestMove { slot, id, text } => self.engine_move(slot, id, &text),
            EngineEvent::Failed {
                slot,
                id,
                message,
                restarted,
            } => self.engine_failed(slot, id, message, restarted),
        }
    }

    fn engine_info(&mut self, slot: usize, id: u64, info: &SearchInfo) {
        // The first line's score is the search's; other lines are alternatives.
        let main_score = (info.multipv <= 1).then(|| info.score.to_internal());
        if let Some(r) = self
            .review
            .as_mut()
            .filter(|r| slot == ANALYSER && r.search == Some(id))
        {
            r.last_score = main_score.or(r.last_score);
            return;
        }
        if let Some(p) = self.play.as_mut().filter(|p| p.slot == slot && p.id == id) {
            p.score = main_score.or(p.score);
            return;
        }
        if slot == ANALYSER && self.analysis_id == Some(id) {
            if let Some(s) = main_score {
                let red_view = if self.game.position().side_to_move() == Color::Red {
                    s
                } else {
                    -s
                };
                self.scores[self.cursor] = Some(red_view);
            }
            let line = PvLine::of(info);
            self.analysis.retain(|l| l.multipv != line.multipv);
            self.analysis.push(line);
            self.analysis.sort_by_key(|l| l.multipv);
            self.analysis.truncate(self.multipv as usize);
            self.analysis_dirty = true;
            self.flush_analysis();
        }
    }

    fn engine_move(&mut self, slot: usize, id: u64, text: &str) {
        if slot == ANALYSER && self.review.as_ref().is_some_and(|r| r.search == Some(id)) {
            self.review_answer(text);
            return;
        }
        if slot == ANALYSER && self.hint_id == Some(id) {
            self.hint_id = None;
            match self.game.parse_move(text) {
                Ok(m) => self.hint = Some(m),
                Err(_) => self.notice(
                    "error",
                    format!(
                        "{} suggested '{}', which is not a legal move here",
                        self.engines[slot].name,
                        crate::text::quote(text)
                    ),
                ),
            }
            self.restart_analysis();
            self.changed();
            return;
        }
        let Some(p) = self.play.filter(|p| p.slot == slot && p.id == id) else {
            // A stopped analysis or an outdated search.
            return;
        };
        self.play = None;
        let name = self.engines[slot].name.clone();
        if self.players == Players::Engines {
            let used = p.started.elapsed().as_millis() as i64;
            let clock = &mut self.clocks[p.color.index()];
            *clock -= used;
            if *clock < 0 {
                self.decide(Some(p.color.other()), format!("{name} lost on time"));
                return;
            }
            *clock += self.config.watch_clock.1 as i64;
        }
        match self.game.parse_move(text) {
            Ok(m) => {
                if let Some(s) = p.score {
                    let red_view = if p.color == Color::Red { s } else { -s };
                    self.scores[self.cursor] = Some(red_view);
                }
                self.push_move(m);
                self.engine_turn();
            }
            Err(e) => {
                if self.players == Players::Engines {
                    self.decide(
                        Some(p.color.other()),
                        format!("{name} played an illegal move ({e})"),
                    );
                } else {
                    self.notice(
                        "error",
                        format!("{name} answered with an illegal move ({e}); the game is kept, press Engine move to ask again"),
                    );
                }
            }
        }
        self.changed();
    }

    fn engine_failed(&mut self, slot: usize, id: Option<u64>, message: String, restarted: bool) {
        self.notice("error", message);
        if let Some(p) = self.play.filter(|p| p.slot == slot && Some(p.id) == id) {
            self.play = None;
            if self.players == Players::Engines {
                let name = self.engines[slot].name.clone();
                let used = p.started.elapsed().as_millis() as i64;
                if self.clocks[p.color.index()] - used < 0 {
                    self.decide(Some(p.color.other()), format!("{name} lost on time"));
                } else {
                    self.clocks[p.color.index()] -= used;
                    self.decide(Some(p.color.other()), format!("{name} crashed or hung"));
                }
            } else if restarted && !p.retried {
                // Once more with the restarted engine.
                self.start_play(slot, p.color, true);
            } else {
                self.notice(
                    "error",
                    "the engine did not produce a move; the game is kept (press Engine move to try again)".to_string(),
                );
            }
        }
        if slot == ANALYSER && (self.analysis_id.is_some() && self.analysis_id == id) {
            self.analysis_id = None;
            if restarted {
                self.restart_analysis();
            } else {
                self.analysis_on = false;
            }
        }
        if slot == ANALYSER && self.hint_id.is_some() && self.hint_id == id {
            self.hint_id = None;
        }
        if slot == ANALYSER && id.is_some() && self.review.as_ref().is_some_and(|r| r.search == id)
        {
            self.review = None;
            self.notice("error", "the review stopped: the engine failed".to_string());
            self.restart_analysis();
        }
        self.changed();
    }

    /// The referee ends a watched game.
    fn decide(&mut self, winner: Option<Color>, reason: String) {
        self.watch_running = false;
        self.verdict = Some(Verdict {
            ply: self.cursor,
            winner,
            reason,
        });
        self.changed();
    }

    /// Called about every 100 ms: clocks of a watched game, analysis lines to send.
    pub fn tick(&mut self) {
        if let Some(p) = self.play {
            if self.players == Players::Engines {
                let used = p.started.elapsed().as_millis() as i64;
                if self.clocks[p.color.index()] - used < -100 {
                    // The flag fell and the engine has not answered: it loses now.
                    self.play = None;
                    self.clocks[p.color.index()] -= used;
                    self.host.to_engine(p.slot, EngineRequest::Stop);
                    let name = self.engines[p.slot].name.clone();
                    self.decide(Some(p.color.other()), format!("{name} lost on time"));
                }
            }
        }
        self.flush_analysis();
    }

    // ----- analysis and hints -------------------------------------------------

    fn set_analysis(&mut self, a: api::AnalysisRequest) -> Result<(), Refusal> {
        if let Some(k) = a.multipv {
            if !(1..=8).contains(&k) {
                return Err(Refusal::bad(format!(
                    "MultiPV must be from 1 to 8, got {k}"
                )));
            }
            self.multipv = k;
            self.host.to_engine(
                ANALYSER,
                EngineRequest::Options(vec![("MultiPV".into(), k.to_string())]),
            );
        }
        self.analysis_on = a.on;
        self.analysis.clear();
        if a.on {
            self.analysis_id = None;
            self.restart_analysis();
        } else if self.analysis_id.take().is_some() {
            self.host.to_engine(ANALYSER, EngineRequest::Stop);
        }
        Ok(())
    }

    /// Starts thinking on the shown position, if analysis is on and nothing else
    /// needs the cores.
    fn restart_analysis(&mut self) {
        if !self.analysis_on || self.play.is_some() || self.hint_id.is_some() || self.reviewing() {
            return;
        }
        if self.game.result() != GameResult::Ongoing {
            if self.analysis_id.take().is_some() {
                self.host.to_engine(ANALYSER, EngineRequest::Stop);
            }
            return;
        }
        let search = self.search_at(
            self.cursor,
            Limits {
                infinite: true,
                ..Limits::default()
            },
            None,
        );
        self.analysis_id = Some(search.id);
        self.host
            .to_engine(ANALYSER, EngineRequest::Go(Box::new(search)));
    }

    fn ask_hint(&mut self) -> Result<(), Refusal> {
        if let Some((_, reason)) = self.result() {
            return Err(Refusal::conflict(format!("the game is over ({reason})")));
        }
        if self.play.is_some() {
            return Err(Refusal::conflict("the engine is thinking"));
        }
        if self.reviewing() {
            return Err(Refusal::conflict("the engine is reviewing the game"));
        }
        // Analysis already knows a good move.
        if let Some(best) = self.analysis.first() {
            if let Some(m) = best.pv.first().and_then(|t| self.game.parse_move(t).ok()) {
                self.hint = Some(m);
                return Ok(());
            }
        }
        if self.hint_id.is_some() {
            return Ok(());
        }
        if self.analysis_id.take().is_some() {
            self.host.to_engine(ANALYSER, EngineRequest::Stop);
        }
        let ms = self.movetime_ms.min(2000);
        let search = self.search_at(
            self.cursor,
            Limits {
                movetime: Some(ms),
                ..Limits::default()
            },
            Some(Duration::from_millis(ms) + ANSWER_GRACE),
        );
        self.hint_id = Some(search.id);
        self.host
            .to_engine(ANALYSER, EngineRequest::Go(Box::new(search)));
        Ok(())
    }

    // ----- review ---------------------------------------------------------------

    /// True while a review searches.
    pub fn reviewing(&self) -> bool {
        self.review.as_ref().is_some_and(Review::running)
    }

    /// The notes of the line's moves (none without a review).
    pub fn review_notes(&self) -> Vec<Option<jungle_core::review::MoveNote>> {
        let line: Vec<String> = self.line.iter().map(Move::to_string).collect();
        match &self.review {
            Some(r) => r.notes(&self.start, &line),
            None => Vec::new(),
        }
    }

    fn set_review(&mut self, on: bool) -> Result<(), Refusal> {
        if !on {
            self.cancel_review();
            self.restart_analysis();
            return Ok(());
        }
        if self.line.is_empty() {
            return Err(Refusal::conflict("there is no move to review yet"));
        }
        if self.play.is_some() {
            return Err(Refusal::conflict("wait for the engine's move, then review"));
        }
        if self.reviewing() {
            return Ok(());
        }
        // The analyser reviews: analysis and a hint in progress give way.
        if self.analysis_id.take().is_some() || self.hint_id.take().is_some() {
            self.host.to_engine(ANALYSER, EngineRequest::Stop);
        }
        self.review = Some(Review::new(self.line.len()));
        self.review_next();
        Ok(())
    }

    /// Stops the review's search, if one runs, and forgets the review.
    fn cancel_review(&mut self) {
        if let Some(r) = self.review.take() {
            if r.running() && r.search.is_some() {
                self.host.to_engine(ANALYSER, EngineRequest::Stop);
            }
        }
    }

    /// Searches the review's next position; positions where the game is over are
    /// scored by their result without a search. At the end, the graph shows the
    /// review's scores.
    fn review_next(&mut self) {
        loop {
            let Some(r) = self.review.as_ref() else {
                return;
            };
            let ply = r.next;
            if ply >= r.scores.len() {
                self.review_done();
                return;
            }
            let mut game = Game::with_rules(self.start, self.rules);
            for &m in &self.line[..ply] {
                let _ = game.play(m);
            }
            let terminal = jungle_core::review::terminal_score(&game);
            if let Some(score) = terminal {
                if let Some(r) = self.review.as_mut() {
                    r.scores[ply] = Some(score);
                    r.next += 1;
                }
                continue;
            }
            let search = self.search_at(
                ply,
                Limits {
                    nodes: Some(REVIEW_NODES),
                    ..Limits::default()
                },
                Some(REVIEW_DEADLINE),
            );
            if let Some(r) = self.review.as_mut() {
                r.search = Some(search.id);
                r.last_score = None;
            }
            self.host
                .to_engine(ANALYSER, EngineRequest::Go(Box::new(search)));
            return;
        }
    }

    /// The review's search answered: its score and move are kept, the next follows.
    fn review_answer(&mut self, text: &str) {
        if let Some(r) = self.review.as_mut() {
            let ply = r.next;
            r.scores[ply] = Some(r.last_score.unwrap_or(0));
            r.best[ply] = Some(text.to_string());
            r.search = None;
            r.next += 1;
        }
        self.review_next();
        self.changed();
    }

    fn review_done(&mut self) {
        let Some(r) = self.review.as_ref() else {
            return;
        };
        for (ply, score) in r.scores.iter().enumerate() {
            if let Some(s) = score {
                let red_view = if self.mover_at(ply) == Color::Red {
                    *s
                } else {
                    -*s
                };
                if let Some(slot) = self.scores.get_mut(ply) {
                    *slot = Some(red_view);
                }
            }
        }
        self.restart_analysis();
    }

    // ----- records ------------------------------------------------------------

    fn player_name(&self, color: Color) -> String {
        match self.seat(color) {
            Some(slot) => self.engines[slot].name.clone(),
            None => "Human".to_string(),
        }
    }

    /// The game as a record file (protocol.md, `jungle replay` reads it); an
    /// unfinished game has the result `*`.
    fn record(&self) -> String {
        let mut end = Game::with_rules(self.start, self.rules);
        for &m in &self.line {
            let _ = end.play(m);
        }
        let at_end = self.cursor == self.line.len();
        let (result, termination) = match (&self.verdict, end.result()) {
            (Some(v), _) if at_end => (result_text(v.winner), v.reason.clone()),
            (_, GameResult::Ongoing) => ("*", "unfinished".to_string()),
            (_, GameResult::Win { winner, reason }) => (
                result_text(Some(winner)),
                GameResult::Win { winner, reason }.to_string(),
            ),
            (_, r @ GameResult::Draw(_)) => ("1/2-1/2", r.to_string()),
        };
        let moves: Vec<String> = self.line.iter().map(Move::to_string).collect();
        let comments: Vec<Option<String>> = self
            .review_notes()
            .iter()
            .map(|n| n.as_ref().map(|n| n.to_comment()))
            .collect();
        let mut out = Vec::new();
        let _ = record::write_game_with_comments(
            &mut out,
            &RecordHeader {
                number: 1,
                red: &self.player_name(Color::Red),
                blue: &self.player_name(Color::Blue),
                result,
                termination: &termination,
                rules: self.rules,
                start: self.start,
            },
            &moves,
            &comments,
        );
        String::from_utf8_lossy(&out).into_owned()
    }

    fn load(&mut self, text: &str, number: usize) -> Result<(), Refusal> {
        // Each game is read and replayed under the rules of its [Rules] tag (the
        // default rules when it has none).
        let games = record::read_records(text, Rules::default())
            .map_err(|e| Refusal::bad(format!("cannot read the record file: {e}")))?;
        if games.is_empty() {
            return Err(Refusal::bad("the record file has no games"));
        }
        let g = games.get(number.wrapping_sub(1)).ok_or_else(|| {
            Refusal::bad(format!(
                "game {number} is not in the file (it has {} games)",
                games.len()
            ))
        })?;
        let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.as_str());
        let rules = g.rules;
        let game = record::replay(g)
            .map_err(|e| Refusal::bad(format!("game {number} cannot be replayed: {e}")))?;
        let line = game.moves().to_vec();
        let cursor = line.len();
        self.players = Players::Both;
        self.watch_running = false;
        self.set_game(g.start, rules, line, cursor);
        // A record written by `jungle analyse` (or saved after a review) brings its
        // review: the marks, and the scores for the graph.
        if let Some(r) = Review::from_comments(&g.comments) {
            for (i, note) in r.loaded.iter().flatten().enumerate() {
                if let Some(eval) = note.as_ref().and_then(|n| n.eval) {
                    self.scores[i + 1] = Some(eval);
                }
            }
            self.review = Some(r);
        }
        self.notice(
            "info",
            format!(
                "loaded game {number} of {}: {} (Red) against {} (Blue), {} {{{}}}",
                games.len(),
                tag("Red").unwrap_or("?"),
                tag("Blue").unwrap_or("?"),
                if g.result.is_empty() { "*" } else { &g.result },
                tag("Termination").unwrap_or("")
            ),
        );
        Ok(())
    }

    // ----- telling the pages --------------------------------------------------

    pub fn notice(&mut self, kind: &'static str, text: String) {
        log::info!("{kind}: {text}");
        let event = format!(
            "event: notice\ndata: {}\n\n",
            serde_json::json!({ "kind": kind, "text": text })
        );
        self.notices.push_back(Notice { kind, text });
        while self.notices.len() > NOTICES_KEPT {
            self.notices.pop_front();
        }
        self.broadcast(event);
    }

    /// The state as an event, for a page that has just subscribed.
    pub fn state_event(&self) -> String {
        format!("event: state\ndata: {}\n\n", view::state(self))
    }

    fn changed(&mut self) {
        self.version += 1;
        let event = self.state_event();
        self.broadcast(event);
    }

    fn flush_analysis(&mut self) {
        if !self.analysis_dirty || self.analysis_sent.elapsed() < Duration::from_millis(100) {
            return;
        }
        self.analysis_dirty = false;
        self.analysis_sent = Instant::now();
        let event = format!("event: analysis\ndata: {}\n\n", view::analysis(self));
        self.broadcast(event);
    }

    fn broadcast(&mut self, event: String) {
        self.host.to_pages(&event);
    }
}

/// The rules of a choice of the page.
fn rules_of(choice: &api::RulesChoice) -> Result<Rules, Refusal> {
    let variant = Variant::from_name(&choice.variant).ok_or_else(|| {
        Refusal::bad(format!(
            "unknown rule set '{}' (jungle or jungle-cn)",
            crate::text::quote(&choice.variant)
        ))
    })?;
    Ok(Rules {
        moves: MoveRuleFlags {
            dog_swims: choice.dog_swims,
            trapped_lose_attack: choice.trapped_lose_attack,
        },
        ..variant.rules()
    })
}

pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Blue => "Blue",
    }
}

fn result_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Red) => "1-0",
        Some(Color::Blue) => "0-1",
        None => "1/2-1/2",
    }
}
