//! The engine of the browser build: the core's search behind the board controller's
//! engine requests, in a worker that has one thread.
//!
//! A worker cannot be interrupted from outside while it computes, so a search runs in
//! bounded slices of about `SLICE_MS` (a node budget from the speed measured on this
//! device): each slice is an iterative deepening that starts again at the depth the
//! previous slice completed and finds the earlier slices' work in the hash table.
//! Between slices the worker reads its messages, so `stop` (a move, undo, "Move now")
//! is obeyed within one slice. What slices cost is measured by the ignored test
//! `slicing_cost` (docs/board.md, "The static site").
//!
//! Its options, positions and time are the core protocol's (`protocol::options`,
//! `protocol::position`, `search::time`), as in the engine's session, and it also
//! speaks the protocol as text (`command`), so that a page or Node can drive it as a
//! program: one line gets the same answer here as from `jungle`.

use jungle_app::engines::{EngineEvent, EngineRequest};
use jungle_core::board::Move;
use jungle_core::game::{Game, Rules};
use jungle_core::protocol::options::{self, OptionId, Setting};
use jungle_core::protocol::server::{error_line, Extra, Program, Server};
use jungle_core::protocol::{info, position};
use jungle_core::search::search::SharedState;
use jungle_core::search::time::TimeManager;
use jungle_core::search::{strength, Engine, Limits, SearchInfo};
use jungle_core::tb::{Tablebases, TbRules};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The name the engine gives itself, as the native engine does.
pub const NAME: &str = "Jungle";
/// The time a slice aims at (ms): a request of the page waits about this long at most.
pub const SLICE_MS: u64 = 50;
/// The most nodes of one slice, whatever the speed.
pub const SLICE_NODES: u64 = 150_000;
/// The fewest nodes of one slice.
const MIN_SLICE_NODES: u64 = 2_000;
/// The hash table of each engine of the page (MB).
const HASH_MB: usize = 16;
/// Nodes per millisecond assumed before the first slice has measured the speed.
const FIRST_SPEED: u64 = 300;

/// How long a search may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `go movetime`, or the share of a clock the time manager gives (ms).
    Millis(u64),
    /// `go infinite`: until stopped; `bestmove` waits for `stop`.
    Infinite,
    /// `go nodes N`: N nodes over all slices (a review's fixed budget).
    Nodes(u64),
    /// No limit but the search's own (`go depth N`, `go mate N`, a bare `go`).
    Open,
}

impl Budget {
    /// The budget of `limits` for the side to move of `game`: a clock's share comes
    /// from the engine's time manager (`search::time`), as in the native engine.
    fn of(limits: &Limits, game: &Game) -> Budget {
        if limits.infinite {
            Budget::Infinite
        } else if let Some(n) = limits.nodes {
            Budget::Nodes(n.max(1))
        } else if limits.uses_clock() {
            let side = game.position().side_to_move();
            let time = TimeManager::new(limits, side, 0, jungle_core::clock::Instant::now());
            Budget::Millis(time.optimum.map_or(1, |t| t.as_millis() as u64).max(1))
        } else {
            Budget::Open
        }
    }
}

/// The search in progress.
struct Running {
    id: u64,
    game: Game,
    /// What `go` asked for: its depth, mate and moves bound every slice.
    limits: Limits,
    budget: Budget,
    started: jungle_core::clock::Instant,
    /// Nodes of the slices so far.
    nodes: u64,
    best: Option<Move>,
    /// The deepest depth reported so far of each line (index: multipv − 1).
    reported: Vec<u32>,
    /// The deepest iteration a slice has completed (the next slice starts there).
    completed: i32,
    /// The last slice ended by itself: the search has nothing left to do (a mate
    /// found, the level's depth reached) and waits for `stop` if infinite.
    complete: bool,
}

/// One engine of the page (the controller has three slots): the search in slices
/// behind the protocol server, which reads its lines (`command`) and the options of
/// the controller's requests (`handle`) alike.
pub struct WebEngine {
    server: Server<Slices>,
}

/// What the browser's engine supplies to the protocol server: the engine, searched in
/// slices, and the events it has to tell.
struct Slices {
    slot: usize,
    /// The most nodes of a slice (`SLICE_NODES`).
    slice_nodes: u64,
    engine: Option<Engine>,
    /// The rules in force (the server's; kept for the tables).
    rules: Rules,
    limit_strength: bool,
    elo: u32,
    running: Option<Running>,
    /// Nodes per millisecond of the last slice long enough to measure.
    speed: u64,
    /// The number of the last search started by a `go` line.
    searches: u64,
    /// What it has to tell since the last call (`WebEngine` hands them on).
    events: Vec<EngineEvent>,
}

impl WebEngine {
    pub fn new(slot: usize) -> WebEngine {
        WebEngine {
            server: Server::new(Slices {
                slot,
                slice_nodes: SLICE_NODES,
                engine: None,
                rules: Rules::default(),
                limit_strength: false,
                elo: strength::ELO_MIN,
                running: None,
                speed: FIRST_SPEED,
                searches: 0,
                events: Vec::new(),
            }),
        }
    }

    /// True while a search wants more slices.
    pub fn busy(&self) -> bool {
        self.server
            .program
            .running
            .as_ref()
            .is_some_and(|r| !r.complete)
    }

    /// Takes one request of the controller; what the engine answers goes to `events`.
    pub fn handle(&mut self, request: EngineRequest, events: &mut Vec<EngineEvent>) {
        let rules = self.server.rules();
        let e = &mut self.server.program;
        if e.engine().is_none() {
            let slot = e.slot;
            e.events.push(EngineEvent::Failed {
                slot,
                id: match &request {
                    EngineRequest::Go(s) => Some(s.id),
                    _ => None,
                },
                message: "the engine cannot allocate its hash table".into(),
                restarted: false,
            });
            return e.hand_on(events);
        }
        match request {
            EngineRequest::Go(search) => {
                e.finish();
                match position::game_after(&search.start, &search.moves, rules) {
                    Ok(game) => e.start(search.id, game, search.limits),
                    Err(message) => {
                        e.say(&error_line(&message));
                        e.answer_none(search.id);
                    }
                }
            }
            EngineRequest::Stop => e.finish(),
            EngineRequest::Options(settings) => {
                for (name, value) in settings {
                    self.server.set_option(&name, Some(&value));
                }
            }
            EngineRequest::NewGame => self.server.new_game(),
            EngineRequest::Quit => e.running = None,
        }
        self.server.program.hand_on(events);
    }

    /// One protocol line, as a program reads it on stdin (the engine as text, for a
    /// page or Node); what it answers goes to `events` (`lines` writes them). `quit`
    /// ends nothing here: the page ends the worker.
    pub fn command(&mut self, line: &str, events: &mut Vec<EngineEvent>) {
        self.server.handle_line(line);
        self.server.program.hand_on(events);
    }

    /// The protocol lines of `events`, as a program would print them.
    pub fn lines(events: &[EngineEvent]) -> Vec<String> {
        events
            .iter()
            .filter_map(|event| match event {
                EngineEvent::Ready { .. } => None,
                EngineEvent::Info { info, .. } => Some(info::write(info)),
                EngineEvent::Said { line, .. } => Some(line.clone()),
                EngineEvent::BestMove { text, .. } => Some(format!("bestmove {text}")),
                EngineEvent::Failed { message, .. } => Some(error_line(message)),
            })
            .collect()
    }

    /// Runs one slice of the search in progress; a search whose time is up or that
    /// has ended by itself answers `bestmove` (`go infinite` waits for `stop`).
    pub fn work(&mut self, events: &mut Vec<EngineEvent>) {
        self.server.program.work();
        self.server.program.hand_on(events);
    }
}

impl Program for Slices {
    fn name(&self) -> &str {
        NAME
    }

    fn offered(&self) -> &'static [OptionId] {
        options::BROWSER
    }

    fn say(&mut self, line: &str) {
        self.events.push(EngineEvent::Said {
            slot: self.slot,
            line: line.to_string(),
        });
    }

    fn ready(&mut self) -> Result<(), String> {
        match self.engine() {
            Some(_) => Ok(()),
            None => Err("the engine cannot allocate its hash table".into()),
        }
    }

    fn new_game(&mut self) {
        if let Some(engine) = self.engine.as_mut() {
            engine.clear();
        }
    }

    fn rules_changed(&mut self, rules: Rules) {
        self.rules = rules;
        self.renew_tablebases();
    }

    /// An option of the table, read as the native engine reads it.
    fn apply(&mut self, setting: Setting) -> Result<(), String> {
        let Some(engine) = self.engine.as_mut() else {
            return Ok(());
        };
        match setting {
            Setting::MultiPv(n) => engine.options.multipv = n,
            Setting::SkillLevel(level) => engine.options.skill_level = level,
            Setting::LimitStrength(on) => self.limit_strength = on,
            Setting::Elo(elo) => self.elo = elo,
            // Not offered here (`options::BROWSER`), so never read.
            _ => {}
        }
        engine.options.limit_elo = self.limit_strength.then_some(self.elo);
        Ok(())
    }

    fn go(&mut self, game: &Game, limits: Limits) {
        self.finish();
        self.searches += 1;
        self.start(self.searches, game.clone(), limits);
    }

    fn stop(&mut self) {
        self.finish();
    }

    fn extra(&mut self, _: Extra, _: &Game) {
        self.say(&error_line(
            "the browser's engine plays and analyses only (jungle_perft and jungle_bench count and time)",
        ));
    }
}

impl Slices {
    /// Hands the events told since the last call on to `events`.
    fn hand_on(&mut self, events: &mut Vec<EngineEvent>) {
        events.append(&mut self.events);
    }

    /// The engine, started on first need; the first start says `Ready`.
    fn engine(&mut self) -> Option<&mut Engine> {
        if self.engine.is_none() {
            let mut engine = Engine::new(HASH_MB).ok()?;
            // Slices are counted in nodes; no time is kept back for a slow interface.
            engine.options.move_overhead_ms = 0;
            self.engine = Some(engine);
            self.renew_tablebases();
            self.events.push(EngineEvent::Ready {
                slot: self.slot,
                name: NAME.into(),
                options: options::declarations(options::BROWSER),
            });
        }
        self.engine.as_mut()
    }

    /// The 2- and 3-animal tables, built in memory on first need (no files here).
    fn renew_tablebases(&mut self) {
        let tables = TbRules::for_rules(&self.rules)
            .ok()
            .map(|rules| Arc::new(Tablebases::new(rules, None)));
        if let Some(engine) = self.engine.as_mut() {
            engine.tablebases = tables;
        }
    }

    fn start(&mut self, id: u64, game: Game, limits: Limits) {
        let budget = Budget::of(&limits, &game);
        self.running = Some(Running {
            id,
            game,
            limits,
            budget,
            started: jungle_core::clock::Instant::now(),
            nodes: 0,
            best: None,
            reported: Vec::new(),
            completed: 0,
            complete: false,
        });
    }

    fn answer_none(&mut self, id: u64) {
        self.events.push(EngineEvent::BestMove {
            slot: self.slot,
            id,
            text: "0000".into(),
        });
    }

    /// Ends the search in progress, if any: its best move so far is the answer.
    fn finish(&mut self) {
        if let Some(r) = self.running.take() {
            self.events.push(EngineEvent::BestMove {
                slot: self.slot,
                id: r.id,
                text: r.best.map_or_else(|| "0000".to_string(), |m| m.to_string()),
            });
        }
    }

    /// One slice of the search in progress (`WebEngine::work`).
    fn work(&mut self) {
        let slot = self.slot;
        let (Some(engine), Some(r)) = (self.engine.as_mut(), self.running.as_mut()) else {
            return;
        };
        if r.complete {
            return;
        }
        let elapsed = r.started.elapsed().as_millis() as u64;
        let slice =
            (self.speed * SLICE_MS).clamp(MIN_SLICE_NODES, self.slice_nodes.max(MIN_SLICE_NODES));
        let nodes = match r.budget {
            Budget::Infinite | Budget::Open => slice,
            Budget::Millis(ms) if elapsed >= ms && r.best.is_some() => {
                self.finish();
                return;
            }
            Budget::Millis(ms) => {
                (ms.saturating_sub(elapsed) * self.speed).clamp(MIN_SLICE_NODES.min(slice), slice)
            }
            Budget::Nodes(n) if r.nodes >= n && r.best.is_some() => {
                self.finish();
                return;
            }
            Budget::Nodes(n) => n.saturating_sub(r.nodes).clamp(1, slice),
        };
        let limits = Limits {
            nodes: Some(nodes),
            start_depth: Some(r.completed.max(1)),
            depth: r.limits.depth,
            mate: r.limits.mate,
            searchmoves: r.limits.searchmoves.clone(),
            ..Limits::default()
        };
        let shared = SharedState::new(1);
        let reports = Mutex::new(Vec::new());
        let report = |info: &SearchInfo| {
            if let Ok(mut r) = reports.lock() {
                r.push(info.clone());
            }
        };
        let slice_started = jungle_core::clock::Instant::now();
        let outcome = engine.search(&r.game, &limits, &shared, &report);
        let slice_ms = slice_started.elapsed().as_millis() as u64;
        if slice_ms >= 5 {
            self.speed = (outcome.nodes / slice_ms).max(1);
        }
        let before = r.nodes;
        r.nodes += outcome.nodes;
        // A slice that completed no iteration keeps the earlier slices' move.
        if outcome.best.is_some() && (outcome.depth > 0 || r.best.is_none()) {
            r.best = outcome.best;
        }
        r.completed = r.completed.max(outcome.depth);
        let time = r.started.elapsed();
        for info in reports.into_inner().unwrap_or_default() {
            if let Some(info) = restate(info, &mut r.reported, before, time) {
                self.events.push(EngineEvent::Info {
                    slot,
                    id: r.id,
                    info,
                });
            }
        }
        // Fewer nodes than allowed: the search stopped by itself.
        r.complete = outcome.nodes < nodes || outcome.best.is_none();
        if r.complete && r.budget != Budget::Infinite {
            self.finish();
        }
    }
}

/// A report of a slice as one of the whole search: nodes, time and speed counted
/// from the search's start; `None` for a line shallower than one already reported
/// (each slice begins again at the depth the last one completed).
fn restate(
    mut info: SearchInfo,
    reported: &mut Vec<u32>,
    nodes_before: u64,
    time: Duration,
) -> Option<SearchInfo> {
    let depth = info.depth.max(0) as u32;
    let line_index = info.multipv.max(1) - 1;
    if reported.len() <= line_index {
        reported.resize(line_index + 1, 0);
    }
    if depth < reported[line_index] {
        return None;
    }
    reported[line_index] = depth;
    info.nodes += nodes_before;
    info.time = time;
    info.nps = info.nodes * 1000 / (time.as_millis() as u64).max(1);
    Some(info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_app::engines::Search;
    use jungle_core::board::Position;

    #[test]
    fn budgets_come_from_the_time_manager() {
        let game = Game::startpos();
        let budget = |limits: Limits| Budget::of(&limits, &game);
        assert_eq!(
            budget(Limits {
                infinite: true,
                ..Limits::default()
            }),
            Budget::Infinite
        );
        assert_eq!(
            budget(Limits {
                movetime: Some(700),
                ..Limits::default()
            }),
            Budget::Millis(700)
        );
        assert_eq!(
            budget(Limits {
                nodes: Some(5000),
                ..Limits::default()
            }),
            Budget::Nodes(5000)
        );
        assert_eq!(budget(Limits::depth(4)), Budget::Open);
        // Red to move on a clock: the native engine's share of Red's time.
        let clock = Limits {
            time: [Some(10_000), Some(5_000)],
            inc: [100, 100],
            ..Limits::default()
        };
        let native = TimeManager::new(
            &clock,
            jungle_core::board::Color::Red,
            0,
            jungle_core::clock::Instant::now(),
        );
        assert_eq!(
            budget(clock),
            Budget::Millis(native.optimum.expect("a clock").as_millis() as u64)
        );
    }

    /// Runs the engine's slices until it is idle; its protocol lines.
    fn run(e: &mut WebEngine, events: &mut Vec<EngineEvent>) -> Vec<String> {
        let mut slices = 0;
        while e.busy() {
            e.work(events);
            slices += 1;
            assert!(slices < 10_000, "the search ends");
        }
        WebEngine::lines(events)
    }

    #[test]
    fn speaks_the_protocol_as_text() {
        let mut e = WebEngine::new(0);
        let mut events = Vec::new();
        for line in [
            "uci",
            "setoption name RepetitionDraw value 50",
            "setoption name dogswims value TRUE",
            "setoption name Hash value 16",
            "position startpos moves a3a4 a1a9",
            "position fen l5t/3R3/7/7/7/7/7/7/6L r moves",
            "go depth 3",
        ] {
            e.command(line, &mut events);
        }
        let lines = run(&mut e, &mut events);
        assert!(lines.contains(&"uciok".to_string()), "{lines:?}");
        assert!(lines.contains(&"option name DogSwims type check default false".to_string()));
        assert!(lines.contains(
            &"info string error: option RepetitionDraw takes a whole number from 0 to 10, got '50'"
                .to_string()
        ));
        assert!(lines.contains(&"info string error: unknown option 'Hash'".to_string()));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("info string error: position: move 2 'a1a9' rejected")));
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 1 ")),
            "{lines:?}"
        );
        // The rat enters the den.
        assert_eq!(lines.last().map(String::as_str), Some("bestmove d8d9"));
    }

    #[test]
    fn slices_read_as_one_search() {
        let report = |depth: i32, multipv: usize, nodes: u64| SearchInfo {
            depth,
            multipv,
            nodes,
            nps: 1,
            time: Duration::from_millis(2),
            ..SearchInfo::default()
        };
        let mut reported = Vec::new();
        let ms = Duration::from_millis;
        let l = restate(report(5, 1, 100), &mut reported, 900, ms(50)).expect("deeper");
        assert_eq!((l.nodes, l.time, l.nps), (1000, ms(50), 20_000));
        // The next slice begins again at depth 1: not shown until it is as deep.
        assert!(restate(report(1, 1, 5), &mut reported, 1000, ms(60)).is_none());
        assert!(restate(report(5, 2, 5), &mut reported, 1000, ms(60)).is_some());
        assert!(restate(report(6, 1, 5), &mut reported, 1000, ms(60)).is_some());
    }

    #[test]
    fn a_search_answers_within_its_budget_and_stop_ends_infinite() {
        let mut e = WebEngine::new(0);
        let mut events = Vec::new();
        e.handle(
            EngineRequest::Go(Box::new(Search {
                id: 7,
                start: Position::startpos(),
                moves: Vec::new(),
                limits: Limits {
                    movetime: Some(100),
                    ..Limits::default()
                },
                deadline: None,
            })),
            &mut events,
        );
        assert!(matches!(events[0], EngineEvent::Ready { .. }));
        let mut slices = 0;
        while e.busy() {
            e.work(&mut events);
            slices += 1;
            assert!(slices < 1000, "the search ends");
        }
        let best = events.iter().find_map(|ev| match ev {
            EngineEvent::BestMove { id: 7, text, .. } => Some(text.clone()),
            _ => None,
        });
        let best = best.expect("an answer");
        assert!(Game::startpos().parse_move(&best).is_ok(), "{best}");
        assert!(events
            .iter()
            .any(|ev| matches!(ev, EngineEvent::Info { id: 7, .. })));

        events.clear();
        e.handle(
            EngineRequest::Go(Box::new(Search {
                id: 8,
                start: Position::startpos(),
                moves: vec!["a3a4".parse().expect("a move")],
                limits: Limits {
                    infinite: true,
                    ..Limits::default()
                },
                deadline: None,
            })),
            &mut events,
        );
        e.work(&mut events);
        e.work(&mut events);
        assert!(!events
            .iter()
            .any(|ev| matches!(ev, EngineEvent::BestMove { .. })));
        e.handle(EngineRequest::Stop, &mut events);
        assert!(events
            .iter()
            .any(|ev| matches!(ev, EngineEvent::BestMove { id: 8, .. })));
        assert!(!e.busy());
    }

    /// What slices cost: the depth that analysis of the bench positions reaches in
    /// the same number of nodes, as one search and in slices of several sizes.
    /// `cargo test --release -p jungle-web slicing_cost -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement, not a check"]
    fn slicing_cost() {
        let budget = 3_000_000;
        let positions = jungle_core::tools::bench::positions_with(Rules::default());
        for slice in [u64::MAX, 150_000, 50_000, 20_000] {
            let (mut depths, mut nodes_total) = (0u64, 0u64);
            let started = std::time::Instant::now();
            for pos in &positions {
                let mut e = WebEngine::new(0);
                e.server.program.slice_nodes = slice.min(budget);
                let mut events = Vec::new();
                e.handle(
                    EngineRequest::Go(Box::new(Search {
                        id: 1,
                        start: *pos,
                        moves: Vec::new(),
                        limits: Limits {
                            infinite: true,
                            ..Limits::default()
                        },
                        deadline: None,
                    })),
                    &mut events,
                );
                while e.busy()
                    && e.server
                        .program
                        .running
                        .as_ref()
                        .is_some_and(|r| r.nodes < budget)
                {
                    e.work(&mut events);
                }
                let r = e.server.program.running.as_ref().expect("running");
                depths += u64::from(r.reported.first().copied().unwrap_or(0));
                nodes_total += r.nodes;
            }
            eprintln!(
                "slice {:>9}: mean depth {:.2} after {} nodes a position ({} positions, {:.1} s)",
                if slice == u64::MAX {
                    "whole".to_string()
                } else {
                    slice.to_string()
                },
                depths as f64 / positions.len() as f64,
                nodes_total / positions.len() as u64,
                positions.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
}
