//! The board app in the browser: the same `jungle_app::Controller` that
//! `jungle gui` runs behind its server, hosted here by the worker, with the engine of
//! `engine.rs` in each of its three slots. The page's requests arrive as (action, JSON
//! body) pairs, as they would arrive over HTTP; the events the server would stream
//! are collected for the worker to post.

use crate::engine::WebEngine;
use jungle_app::api::{self, Answer};
use jungle_app::controller::{Config, Controller};
use jungle_app::engines::{EngineEvent, EngineRequest, Host, SLOTS};
use jungle_app::events::Event;
use jungle_app::review::ReviewTables;
use jungle_core::clock::Instant;
use jungle_core::game::Game;
use jungle_core::tb::MoveValue;
use std::collections::VecDeque;
use std::time::Duration;

/// The thinking time per move of a new board (ms), as `jungle gui`'s default.
pub const MOVETIME_MS: u64 = 1000;
/// The clock of a watched game (ms, increment ms), as `jungle gui`'s default.
pub const WATCH_CLOCK: (u64, u64) = (60_000, 600);
/// How often the controller's clock work runs (ms), as the server's tick.
const TICK: Duration = Duration::from_millis(100);

/// The worker's host: requests for the engines wait in a queue, events for the page
/// in another. The review's tables are the 2- and 3-animal ones, built in memory as
/// the engine's are (no files here).
#[derive(Default)]
pub struct WorkerHost {
    to_engines: VecDeque<(usize, EngineRequest)>,
    events: Vec<Event>,
    tables: ReviewTables,
}

impl Host for WorkerHost {
    fn to_engine(&mut self, slot: usize, request: EngineRequest) {
        self.to_engines.push_back((slot, request));
    }

    fn publish(&mut self, event: Event) {
        self.events.push(event);
    }

    fn table_values(&mut self, game: &Game) -> Option<Vec<MoveValue>> {
        self.tables.values(game)
    }
}

/// An answer to a request: the HTTP status the server would give and the body.
pub struct Reply {
    pub status: u16,
    pub body: String,
}

pub struct WebApp {
    controller: Controller<WorkerHost>,
    engines: [WebEngine; 3],
    last_tick: Instant,
}

impl Default for WebApp {
    fn default() -> Self {
        WebApp::new()
    }
}

impl WebApp {
    pub fn new() -> WebApp {
        let name = crate::engine::NAME.to_string();
        let config = Config {
            names: [name.clone(), format!("{name}-2"), name],
            watch_clock: WATCH_CLOCK,
            movetime_ms: MOVETIME_MS,
        };
        let mut board = WebApp {
            controller: Controller::new(config, WorkerHost::default()),
            engines: SLOTS.map(WebEngine::new),
            last_tick: Instant::now(),
        };
        board.controller.start();
        board.settle();
        board
    }

    /// Answers a request of the page: `action` as in `POST /api/<action>` (or
    /// `state`, `record` for the server's GET requests), `body` its JSON.
    pub fn request(&mut self, action: &str, body: &str) -> Reply {
        let parsed = match action {
            "state" => Ok(api::Request::State),
            "record" => Ok(api::Request::Record),
            _ => api::parse(action, body),
        };
        let reply = match parsed.and_then(|r| self.controller.handle(r)) {
            Ok(Answer::State(v)) => Reply {
                status: 200,
                body: serde_json::to_string(&v).unwrap_or_default(),
            },
            Ok(Answer::Json(v)) => Reply {
                status: 200,
                body: v.to_string(),
            },
            Ok(Answer::Text(t)) => Reply {
                status: 200,
                body: t,
            },
            Err(r) => Reply {
                status: r.status,
                body: r.body(),
            },
        };
        self.settle();
        reply
    }

    /// Runs one slice of engine work and the controller's clock work; true while an
    /// engine still has work (the worker then calls again after reading its messages).
    pub fn work(&mut self) -> bool {
        if let Some(engine) = self.engines.iter_mut().find(|e| e.busy()) {
            let mut events = Vec::new();
            engine.work(&mut events);
            self.deliver(events);
        }
        if self.last_tick.elapsed() >= TICK {
            self.last_tick = Instant::now();
            self.controller.tick();
        }
        self.settle();
        self.busy()
    }

    /// True while an engine searches.
    pub fn busy(&self) -> bool {
        self.engines.iter().any(WebEngine::busy)
    }

    /// The events for the page since the last call, as a JSON array of
    /// `{"event": <name>, "data": {…}}` (empty when there are none).
    pub fn take_events(&mut self) -> String {
        let events = std::mem::take(&mut self.controller.host_mut().events);
        if events.is_empty() {
            return String::new();
        }
        serde_json::to_string(&events).unwrap_or_default()
    }

    /// Carries the controller's requests to the engines and their answers back until
    /// both are quiet.
    fn settle(&mut self) {
        while let Some((slot, request)) = self.controller.host_mut().to_engines.pop_front() {
            let mut events = Vec::new();
            if let Some(engine) = self.engines.get_mut(slot) {
                engine.handle(request, &mut events);
            }
            self.deliver(events);
        }
    }

    fn deliver(&mut self, events: Vec<EngineEvent>) {
        for event in events {
            self.controller.engine_event(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(board: &mut WebApp) -> serde_json::Value {
        let r = board.request("state", "");
        assert_eq!(r.status, 200);
        serde_json::from_str(&r.body).expect("JSON")
    }

    #[test]
    fn the_engine_answers_a_move_and_refusals_are_the_servers() {
        let mut b = WebApp::new();
        assert!(b.take_events().contains(r#""event":"state""#));
        let r = b.request("move", r#"{"move":"a1a9"}"#);
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("error"), "{}", r.body);
        let r = b.request("nosuch", "{}");
        assert_eq!(r.status, 404, "{}", r.body);
        let r = b.request("move", r#"{"move":"a3a4"}"#);
        assert_eq!(r.status, 200, "{}", r.body);
        let mut slices = 0;
        while b.work() {
            slices += 1;
            assert!(slices < 10_000);
        }
        let s = state(&mut b);
        assert_eq!(s["moves"].as_array().map(Vec::len), Some(2), "{s}");
        assert!(s["thinking"].is_null());
    }

    /// The judge in the worker (the same as `jungle gui`'s, tests/gui_server.rs): a
    /// puzzle set, its first move right and the reply played, the solution shown.
    #[test]
    fn the_judge_answers_a_puzzles_tries() {
        let mut b = WebApp::new();
        let puzzle = jungle_app::puzzles::shipped()
            .iter()
            .find(|p| p.solution.len() >= 3)
            .expect("a puzzle of two moves");
        let r = b.request(
            "judge",
            &format!(r#"{{"do":"puzzle","id":"{}"}}"#, puzzle.id),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let r = b.request("move", &format!(r#"{{"move":"{}"}}"#, puzzle.solution[0]));
        let s: serde_json::Value = serde_json::from_str(&r.body).expect("JSON");
        assert_eq!(s["judge"]["verdict"]["answer"], "right", "{s}");
        let reply = puzzle.solution[1].to_string();
        assert_eq!(s["judge"]["reply"].as_str(), Some(reply.as_str()));
        let r = b.request("judge", r#"{"do":"reply"}"#);
        assert_eq!(r.status, 200, "{}", r.body);
        let r = b.request("judge", r#"{"do":"solution"}"#);
        let s: serde_json::Value = serde_json::from_str(&r.body).expect("JSON");
        assert_eq!(s["judge"]["outcome"], false, "{s}");
        assert_eq!(
            s["judge"]["solution"][0].as_str(),
            Some(puzzle.solution[2].to_string().as_str())
        );
        assert!(!b.busy(), "the engines are not asked");
    }

    #[test]
    fn analysis_streams_lines_and_stops_with_the_position() {
        let mut b = WebApp::new();
        let r = b.request("analysis", r#"{"on":true,"multipv":2}"#);
        assert_eq!(r.status, 200, "{}", r.body);
        for _ in 0..4 {
            assert!(b.work(), "analysis runs until stopped");
        }
        std::thread::sleep(Duration::from_millis(120));
        b.work();
        assert!(b.take_events().contains(r#""event":"analysis""#));
        let r = b.request("analysis", r#"{"on":false}"#);
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(!b.busy());
    }

    #[test]
    fn a_review_marks_a_planted_blunder_and_names_the_better_move() {
        let mut b = WebApp::new();
        // Red's elephant d3 next to Blue's rat d5: d3d4 lets the rat take it.
        let r = b.request(
            "new",
            r#"{"players":"both","fen":"l6/7/7/7/3r3/7/3E3/7/T5L r 0 1"}"#,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        for m in ["d3d4", "d5d4"] {
            let r = b.request("move", &format!(r#"{{"move":"{m}"}}"#));
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let r = b.request("review", r#"{"on":true}"#);
        assert_eq!(r.status, 200, "{}", r.body);
        let mut slices = 0;
        while b.work() {
            slices += 1;
            assert!(slices < 100_000, "the review ends");
        }
        let s = state(&mut b);
        let review = &s["review"];
        assert_eq!(review["running"], false, "{review}");
        assert_eq!(review["moves"][0]["mark"], "blunder", "{review}");
        let best = review["moves"][0]["best"].as_str().expect("a better move");
        assert_ne!(best, "d3d4");
        assert!(
            review["red"]["accuracy"].as_f64().expect("accuracy") < 50.0,
            "{review}"
        );
        assert_eq!(review["red"]["blunders"], 1);
        // The graph shows the review's scores; the saved record carries the notes.
        assert!(s["scores"][1].is_i64(), "{s}");
        let record = b.request("record", "").body;
        assert!(record.contains("d3d4 {eval #-"), "{record}");
        assert!(
            record.contains(&format!("blunder best {best}}}")),
            "{record}"
        );
        // Loaded back, the board shows the same review.
        let r = b.request("load", &serde_json::json!({ "text": record }).to_string());
        assert_eq!(r.status, 200, "{}", r.body);
        let s = state(&mut b);
        assert_eq!(s["review"]["moves"][0]["mark"], "blunder", "{s}");
        assert_eq!(s["review"]["red"]["blunders"], 1);
    }
}
