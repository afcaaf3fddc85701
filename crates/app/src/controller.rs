//! The board app's one owner of the game: every request of a page and every event of
//! an engine arrives here, on one thread, in order, and is handed to the part it is
//! about: the game line (`line`), who plays (`seats`), the watched game's clocks
//! (`watch`), the engines' searches (`jobs`), analysis (`analysis`), the review
//! (`review`), records (`records`), the judge of puzzles and lessons (`judge`). The rules core checks every move, the page's and
//! the engines' alike; an engine only ever proposes.
//!
//! Here: the state, what the view reads, the dispatch, the game line's changes and
//! the events to the pages. `requests` answers the page's requests, `playing` runs
//! the engines' searches and takes what they say, `reviewing` walks a review,
//! `judging` sets puzzles and lessons on the board and hands the person's tries to the
//! judge.

use crate::analysis::Analysis;
use crate::api::{self, Answer, Code, Players, Refusal, Request};
use crate::board::movegen::MoveError;
use crate::board::rules::MoveRuleFlags;
use crate::board::{Color, Move, Position};
use crate::engines::{
    EngineEvent, EngineInfo, EngineRequest, Host, Search, ANALYSER, PLAYER, SLOTS,
};
use crate::events::{Event, Notice, NoticeKind, Notices};
use crate::game::{Game, GameResult, Rules, Variant};
use crate::jobs::{Job, Jobs, PlayJob};
use crate::judge::Judge;
use crate::line::GameLine;
use crate::records;
use crate::review::{Review, REVIEW_NODES};
use crate::search::{Limits, SearchInfo};
use crate::seats::Seats;
use crate::view::{self, side_name};
use crate::watch::{Watch, ANSWER_GRACE};
use jungle_core::clock::Instant;
use jungle_core::protocol::options::rule_settings;
use jungle_core::review::MoveNote;
use jungle_core::text::quote;
use std::time::Duration;

pub use crate::seats::{FIRST_LEVEL, LEVEL_NAMES};

/// How long a review's search of one position may take before the engine counts as
/// hung (it is a node count: a fraction of a second on any machine).
const REVIEW_DEADLINE: Duration = Duration::from_secs(60);
/// The longest a hint may think.
const HINT_MS: u64 = 2000;

/// What the command line allows.
#[derive(Clone, Debug)]
pub struct Config {
    /// The names of the engines of the slots `PLAYER`, `SECOND` and `ANALYSER` (as
    /// `jungle match` records them).
    pub names: [String; 3],
    /// The clock of a watched game (base, increment; ms).
    pub watch_clock: (u64, u64),
    pub movetime_ms: u64,
}

pub struct Controller<H: Host> {
    /// Carries requests to the engines and events to the pages.
    host: H,
    engines: [EngineInfo; 3],
    line: GameLine,
    seats: Seats,
    watch: Watch,
    jobs: Jobs,
    analysis: Analysis,
    hint: Option<Move>,
    /// The engines' scores by ply from Red's view, as they played or analysed
    /// (centipawns; mates as ±(30000 − plies)); the review's own scores come first.
    evals: Vec<Option<i32>>,
    /// The review of the line, running or done.
    review: Option<Review>,
    /// The puzzle or lesson task on the board, if any.
    judge: Judge,
    notices: Notices,
    /// Counts the states sent, so that a page drops one older than it has.
    version: u64,
}

impl<H: Host> Controller<H> {
    pub fn new(config: Config, host: H) -> Controller<H> {
        Controller {
            host,
            engines: config.names.map(|name| EngineInfo {
                name,
                ..EngineInfo::default()
            }),
            line: GameLine::default(),
            seats: Seats::new(config.movetime_ms),
            watch: Watch::new(config.watch_clock),
            jobs: Jobs::default(),
            analysis: Analysis::default(),
            hint: None,
            evals: vec![None],
            review: None,
            judge: Judge::default(),
            notices: Notices::default(),
            version: 0,
        }
    }

    /// Starts the engines now, so the page can show their names at once.
    pub fn start(&mut self) {
        self.send_level();
        self.host.to_engine(PLAYER, EngineRequest::NewGame);
    }

    // ----- what the view and the hosts read -------------------------------------

    pub fn host(&self) -> &H {
        &self.host
    }

    pub fn host_mut(&mut self) -> &mut H {
        &mut self.host
    }

    pub fn line(&self) -> &GameLine {
        &self.line
    }

    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    pub fn engine(&self, slot: usize) -> &EngineInfo {
        &self.engines[slot]
    }

    pub fn watch(&self) -> &Watch {
        &self.watch
    }

    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    pub fn hint(&self) -> Option<Move> {
        self.hint
    }

    pub fn review(&self) -> Option<&Review> {
        self.review.as_ref()
    }

    pub fn judge(&self) -> &Judge {
        &self.judge
    }

    /// The searches asked of the engines and not yet answered.
    pub fn jobs(&self) -> &Jobs {
        &self.jobs
    }

    /// Puts `m` as the line's one move without checking it: for the test that the
    /// exercise's checks can fail.
    #[cfg(test)]
    pub(crate) fn force_line_for_test(&mut self, m: Move) {
        self.line = GameLine::with_moves(*self.line.start(), self.line.rules(), vec![m], 0);
    }

    pub fn notices(&self) -> &Notices {
        &self.notices
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    /// The engine playing a move: its side, slot, and when it began.
    pub fn thinking(&self) -> Option<(Color, usize, Instant)> {
        self.jobs
            .playing()
            .map(|(slot, p)| (p.color, slot, p.started))
    }

    /// The Elo (on the playing engine's `UCI_Elo` scale) of each level, if it has one.
    pub fn level_elos(&self) -> Option<Vec<Option<i64>>> {
        Seats::level_elos(&self.engines[PLAYER])
    }

    /// The notes of the line's moves (none without a review).
    pub fn review_notes(&self) -> Vec<Option<MoveNote>> {
        let moves: Vec<String> = self.line.moves().iter().map(Move::to_string).collect();
        match &self.review {
            Some(r) => r.notes(self.line.start(), &moves),
            None => Vec::new(),
        }
    }

    /// The score after each ply from Red's view: the review's where it has one, else
    /// the engines'.
    pub fn graph_scores(&self) -> Vec<Option<i32>> {
        (0..=self.line.moves().len())
            .map(|ply| {
                self.review
                    .as_ref()
                    .and_then(|r| r.red_view_score(ply, self.line.mover_at(ply)))
                    .or(self.evals.get(ply).copied().flatten())
            })
            .collect()
    }

    /// The state as an event, for a page that has just subscribed.
    pub fn state_event(&self) -> Event {
        Event::State(Box::new(view::state(self)))
    }

    // ----- a page's requests -------------------------------------------------------

    /// Answers a request of a page.
    pub fn handle(&mut self, request: Request) -> Result<Answer, Refusal> {
        log::debug!("request: {request:?}");
        let result = match request {
            Request::State => return Ok(Answer::State(Box::new(view::state(self)))),
            Request::Record => return Ok(Answer::Text(self.record())),
            Request::Puzzle(p) => return crate::puzzles::answer(&p).map(Answer::Json),
            _ => {
                self.judge.forget_answers();
                self.change(request)
            }
        };
        result?;
        self.changed();
        Ok(Answer::State(Box::new(view::state(self))))
    }

    /// A request that may change the state.
    fn change(&mut self, request: Request) -> Result<(), Refusal> {
        match request {
            Request::State | Request::Record | Request::Puzzle(_) => Ok(()),
            Request::Judge(j) => self.judge_request(j),
            Request::Move(m) => self.human_move(&m.mv),
            Request::Undo => self.undo(),
            Request::Redo => self.redo(),
            Request::Goto(g) => self.goto(g.ply),
            Request::NewGame(n) => self.new_game(n),
            Request::Settings(s) => self.settings(s),
            Request::Hint => self.ask_hint(),
            Request::MoveNow => self.move_now(),
            Request::Analysis(a) => self.set_analysis(a),
            Request::Watch(w) => self.set_watch(w.run),
            Request::Load(l) => self.load(&l.text, l.game.unwrap_or(1)),
            Request::Review(r) => self.set_review(r.on),
        }
    }

    /// The game is over: a request to play on is refused with its result.
    fn refuse_when_over(&self) -> Result<(), Refusal> {
        match self.line.result_code() {
            Some((_, reason, code)) => {
                // The reason's key, and its arguments beside it (the engine's name).
                let mut args: Vec<(&'static str, &str)> = vec![("reason", code.key)];
                args.extend(code.args.iter().map(|(k, v)| (*k, v.as_str())));
                Err(Refusal::conflict(format!("the game is over ({reason})"))
                    .coded("gameOver", &args))
            }
            None => Ok(()),
        }
    }

    // ----- the game line ------------------------------------------------------------

    /// Moves the cursor; searches of the old position end.
    fn move_cursor(&mut self, ply: usize) {
        self.line.set_cursor(ply);
        self.position_changed();
    }

    /// Plays `m` (checked legal) at the cursor, dropping the moves after it.
    fn push_move(&mut self, m: Move) {
        // A new line: its review no longer holds.
        self.cancel_review();
        self.line.push(m);
        self.position_changed();
    }

    /// Replaces the game; engines are told new rules. The old game's messages go.
    fn set_line(&mut self, line: GameLine) {
        self.notices.clear();
        // A puzzle or a lesson ends with its game (`judging` sets the judge after).
        self.judge.leave();
        let rules = line.rules();
        if rules != self.line.rules() {
            self.send_rules(rules);
        }
        self.cancel_review();
        for slot in SLOTS {
            self.host.to_engine(slot, EngineRequest::NewGame);
        }
        self.line = line;
        self.evals = vec![None; self.line.moves().len() + 1];
        self.position_changed();
    }

    /// Tells every engine the rules (engines that do not declare them are named).
    fn send_rules(&mut self, rules: Rules) {
        let options = rule_settings(rules);
        for slot in SLOTS {
            self.jobs.cancel(slot);
            self.host.to_engine(slot, EngineRequest::Stop);
            self.host
                .to_engine(slot, EngineRequest::Options(options.clone()));
        }
        for slot in SLOTS {
            let engine = &self.engines[slot];
            if rules != Rules::default() && engine.started() && !engine.declares("UCI_Variant") {
                let text = format!(
                    "engine {} does not declare the rule options; its moves are still checked by the rules of {rules}",
                    engine.name
                );
                let code = Code::notice(
                    "noRuleOptions",
                    &[("engine", &engine.name), ("rules", &rules.to_string())],
                );
                self.notice(NoticeKind::Info, code, text);
            }
        }
    }

    /// The shown position changed: what was thought about the old one ends.
    fn position_changed(&mut self) {
        self.hint = None;
        if matches!(self.jobs.on(ANALYSER), Some(Job::Hint)) {
            self.jobs.cancel(ANALYSER);
        }
        self.analysis.clear();
        self.stop_play();
        self.evals.resize(self.line.moves().len() + 1, None);
        self.restart_analysis();
    }

    /// The referee ends a watched game: `reason` in English (the record's), `code` as
    /// the page words it.
    fn decide(&mut self, winner: Option<Color>, reason: String, code: Code) {
        self.watch.running = false;
        self.line.decide(winner, reason, code);
        self.changed();
    }

    // ----- telling the pages ---------------------------------------------------------

    /// Tells the pages `code` (worded by the page), `text` in English.
    pub fn notice(&mut self, kind: NoticeKind, code: Code, text: String) {
        log::info!("{kind:?}: {text}");
        let notice = Notice::new(kind, code, text);
        self.notices.push(notice.clone());
        self.host.publish(Event::Notice(notice));
    }

    fn changed(&mut self) {
        self.version += 1;
        let event = self.state_event();
        self.host.publish(event);
    }

    fn flush_analysis(&mut self) {
        if self.analysis.due() {
            let event = Event::Analysis(view::analysis(self));
            self.host.publish(event);
        }
    }
}

/// A score of `mover`'s from Red's view.
fn red_view(score: i32, mover: Color) -> i32 {
    if mover == Color::Red {
        score
    } else {
        -score
    }
}

fn elapsed_ms(since: Instant) -> u64 {
    since.elapsed().as_millis() as u64
}

/// The rules of a choice of the page.
fn rules_of(choice: &api::RulesChoice) -> Result<Rules, Refusal> {
    let variant = Variant::from_name(&choice.variant).ok_or_else(|| {
        Refusal::bad(format!(
            "unknown rule set '{}' (jungle or jungle-cn)",
            quote(&choice.variant)
        ))
        .coded("badVariant", &[("variant", &quote(&choice.variant))])
    })?;
    Ok(Rules {
        moves: MoveRuleFlags {
            dog_swims: choice.dog_swims,
            trapped_lose_attack: choice.trapped_lose_attack,
        },
        ..variant.rules()
    })
}

mod judging;
mod playing;
mod requests;
mod reviewing;

#[cfg(test)]
mod tests;
