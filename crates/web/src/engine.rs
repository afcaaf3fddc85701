//! The engine of the browser build: the core's search behind the board controller's
//! engine requests, in a worker that has one thread.
//!
//! A worker cannot be interrupted from outside while it computes, so a search runs in
//! bounded slices of about `SLICE_MS` (a node budget from the speed measured on this
//! device): each slice is an iterative deepening that starts again at the depth the
//! previous slice completed and finds the earlier slices' work in the hash table.
//! Between slices the worker reads its messages, so `stop` (a move, undo, "Move now")
//! is obeyed within one slice. What slices cost is measured by the ignored test
//! `slicing_cost` (protocol.md, section 8).

use jungle_app::engines::{EngineEvent, Request, Search};
use jungle_core::board::Move;
use jungle_core::board::Position;
use jungle_core::game::{Game, Rules, Variant};
use jungle_core::search::search::SharedState;
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

/// The options the engine declares (as `option name …` lines, without `option `).
pub fn declarations() -> Vec<String> {
    vec![
        "name MultiPV type spin default 1 min 1 max 32".into(),
        "name Skill Level type spin default 20 min 0 max 20".into(),
        "name UCI_LimitStrength type check default false".into(),
        format!(
            "name UCI_Elo type spin default {0} min {0} max {1}",
            strength::ELO_MIN,
            strength::ELO_MAX
        ),
        "name UCI_Variant type combo default jungle var jungle var jungle-cn".into(),
        "name DogSwims type check default false".into(),
        "name TrappedLoseAttack type check default false".into(),
        "name NoCaptureDrawPlies type spin default 100 min 0 max 1000".into(),
        "name RepetitionDraw type spin default 3 min 0 max 10".into(),
    ]
}

/// How long a search may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `go movetime`, or the share of a clock (ms).
    Millis(u64),
    /// `go infinite`: until stopped; `bestmove` waits for `stop`.
    Infinite,
    /// `go nodes N`: N nodes over all slices (a review's fixed budget).
    Nodes(u64),
}

/// The search in progress.
struct Running {
    id: u64,
    game: Game,
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

/// One engine of the page (the controller has three slots).
pub struct WebEngine {
    slot: usize,
    /// The most nodes of a slice (`SLICE_NODES`).
    pub slice_nodes: u64,
    engine: Option<Engine>,
    rules: Rules,
    limit_strength: bool,
    elo: u32,
    running: Option<Running>,
    /// Nodes per millisecond of the last slice long enough to measure.
    speed: u64,
}

impl WebEngine {
    pub fn new(slot: usize) -> WebEngine {
        WebEngine {
            slot,
            slice_nodes: SLICE_NODES,
            engine: None,
            rules: Rules::default(),
            limit_strength: false,
            elo: strength::ELO_MIN,
            running: None,
            speed: FIRST_SPEED,
        }
    }

    /// True while a search wants more slices.
    pub fn busy(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.complete)
    }

    /// The engine, started on first need; the first start says `Ready`.
    fn engine(&mut self, events: &mut Vec<EngineEvent>) -> Option<&mut Engine> {
        if self.engine.is_none() {
            let mut engine = Engine::new(HASH_MB).ok()?;
            // Slices are counted in nodes; no time is kept back for a slow interface.
            engine.options.move_overhead_ms = 0;
            self.engine = Some(engine);
            self.renew_tablebases();
            events.push(EngineEvent::Ready {
                slot: self.slot,
                name: NAME.into(),
                options: declarations(),
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

    /// Takes one request of the controller; what the engine answers goes to `events`.
    pub fn handle(&mut self, request: Request, events: &mut Vec<EngineEvent>) {
        if self.engine(events).is_none() {
            events.push(EngineEvent::Failed {
                slot: self.slot,
                id: match &request {
                    Request::Go(s) => Some(s.id),
                    _ => None,
                },
                message: "the engine cannot allocate its hash table".into(),
                restarted: false,
            });
            return;
        }
        match request {
            Request::Go(search) => {
                self.finish(events);
                self.start(search, events);
            }
            Request::Stop => self.finish(events),
            Request::Options(options) => {
                for (name, value) in options {
                    self.set_option(&name, &value, events);
                }
            }
            Request::NewGame => {
                if let Some(engine) = self.engine.as_mut() {
                    engine.clear();
                }
            }
            Request::Quit => self.running = None,
        }
    }

    fn set_option(&mut self, name: &str, value: &str, events: &mut Vec<EngineEvent>) {
        let number = value.trim().parse::<i64>().ok();
        let check = value.trim().eq_ignore_ascii_case("true");
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        let mut rules_changed = false;
        match name.to_ascii_lowercase().as_str() {
            "multipv" => engine.options.multipv = number.unwrap_or(1).clamp(1, 32) as usize,
            "skill level" => engine.options.skill_level = number.unwrap_or(20).clamp(0, 20) as u32,
            "uci_limitstrength" => self.limit_strength = check,
            "uci_elo" => {
                self.elo = number
                    .unwrap_or(0)
                    .clamp(i64::from(strength::ELO_MIN), i64::from(strength::ELO_MAX))
                    as u32
            }
            "uci_variant" => {
                if let Some(v) = Variant::from_name(value.trim()) {
                    let moves = self.rules.moves;
                    self.rules = Rules { moves, ..v.rules() };
                    rules_changed = true;
                }
            }
            "dogswims" => {
                self.rules.moves.dog_swims = check;
                rules_changed = true;
            }
            "trappedloseattack" => {
                self.rules.moves.trapped_lose_attack = check;
                rules_changed = true;
            }
            "nocapturedrawplies" => {
                self.rules.draw.no_capture_plies = number.unwrap_or(100).clamp(0, 1000) as u16;
                rules_changed = true;
            }
            "repetitiondraw" => {
                self.rules.draw.repetitions = number.unwrap_or(3).clamp(0, 10) as u8;
                rules_changed = true;
            }
            _ => events.push(EngineEvent::Said {
                slot: self.slot,
                line: format!("info string error: no option '{name}'"),
            }),
        }
        if let Some(engine) = self.engine.as_mut() {
            engine.options.limit_elo = self.limit_strength.then_some(self.elo);
        }
        if rules_changed {
            self.renew_tablebases();
        }
    }

    fn start(&mut self, search: Search, events: &mut Vec<EngineEvent>) {
        let game = game_of(&search.position, self.rules);
        let budget = budget_of(&search.go, game.as_ref().map(Game::position));
        match (game, budget) {
            (Some(game), Some(budget)) => {
                self.running = Some(Running {
                    id: search.id,
                    game,
                    budget,
                    started: jungle_core::clock::Instant::now(),
                    nodes: 0,
                    best: None,
                    reported: Vec::new(),
                    completed: 0,
                    complete: false,
                })
            }
            _ => events.push(EngineEvent::BestMove {
                slot: self.slot,
                id: search.id,
                text: "0000".into(),
            }),
        }
    }

    /// Ends the search in progress, if any: its best move so far is the answer.
    fn finish(&mut self, events: &mut Vec<EngineEvent>) {
        if let Some(r) = self.running.take() {
            events.push(EngineEvent::BestMove {
                slot: self.slot,
                id: r.id,
                text: r.best.map_or_else(|| "0000".to_string(), |m| m.to_string()),
            });
        }
    }

    /// Runs one slice of the search in progress; a search whose time is up or that
    /// has ended by itself answers `bestmove` (`go infinite` waits for `stop`).
    pub fn work(&mut self, events: &mut Vec<EngineEvent>) {
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
            Budget::Infinite => slice,
            Budget::Millis(ms) if elapsed >= ms && r.best.is_some() => {
                self.finish(events);
                return;
            }
            Budget::Millis(ms) => {
                (ms.saturating_sub(elapsed) * self.speed).clamp(MIN_SLICE_NODES.min(slice), slice)
            }
            Budget::Nodes(n) if r.nodes >= n && r.best.is_some() => {
                self.finish(events);
                return;
            }
            Budget::Nodes(n) => n.saturating_sub(r.nodes).clamp(1, slice),
        };
        let limits = Limits {
            nodes: Some(nodes),
            start_depth: Some(r.completed.max(1)),
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
                events.push(EngineEvent::Info {
                    slot,
                    id: r.id,
                    info,
                });
            }
        }
        // Fewer nodes than allowed: the search stopped by itself.
        r.complete = outcome.nodes < nodes || outcome.best.is_none();
        if r.complete && r.budget != Budget::Infinite {
            self.finish(events);
        }
    }
}

/// The game of a `position startpos|fen … [moves …]` line under `rules`.
fn game_of(line: &str, rules: Rules) -> Option<Game> {
    let rest = line.strip_prefix("position ")?;
    let (setup, moves) = match rest.split_once(" moves ") {
        Some((s, m)) => (s, m),
        None => (rest, ""),
    };
    let start = match setup.trim() {
        "startpos" => Position::startpos(),
        s => Position::from_fen_with(s.strip_prefix("fen ")?.trim(), rules.moves).ok()?,
    };
    let mut game = Game::with_rules(start, rules);
    for m in moves.split_whitespace() {
        game.play_text(m).ok()?;
    }
    Some(game)
}

/// The budget of a `go` line the controller writes: `movetime N`, `nodes N`,
/// `infinite`, or a clock (`wtime … btime … winc … binc …`), of which a move takes a 25th of the time
/// left plus the increment, and never more than half of what is left.
fn budget_of(line: &str, pos: Option<&Position>) -> Option<Budget> {
    let t: Vec<&str> = line.split_whitespace().collect();
    let value = |key: &str| -> Option<u64> {
        let i = t.iter().position(|&x| x == key)?;
        t.get(i + 1)?.parse().ok()
    };
    if t.contains(&"infinite") {
        return Some(Budget::Infinite);
    }
    if let Some(ms) = value("movetime") {
        return Some(Budget::Millis(ms));
    }
    if let Some(n) = value("nodes") {
        return Some(Budget::Nodes(n.max(1)));
    }
    let red = pos?.side_to_move() == jungle_core::board::Color::Red;
    let (left, inc) = if red {
        (value("wtime")?, value("winc").unwrap_or(0))
    } else {
        (value("btime")?, value("binc").unwrap_or(0))
    };
    Some(Budget::Millis(
        (left / 25).saturating_add(inc).min(left / 2).max(1),
    ))
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

    #[test]
    fn reads_the_positions_the_controller_writes() {
        let rules = Rules::default();
        let g = game_of("position startpos moves a3a4 a7a6", rules).expect("legal");
        assert_eq!(g.moves().len(), 2);
        let fen = Position::startpos().to_fen();
        let g = game_of(&format!("position fen {fen}"), rules).expect("a position");
        assert_eq!(*g.position(), Position::startpos());
        assert!(game_of("position startpos moves a1a9", rules).is_none());
        assert!(game_of("go infinite", rules).is_none());
    }

    #[test]
    fn budgets_follow_the_go_line() {
        let pos = Position::startpos();
        assert_eq!(budget_of("go infinite", Some(&pos)), Some(Budget::Infinite));
        assert_eq!(
            budget_of("go movetime 700", Some(&pos)),
            Some(Budget::Millis(700))
        );
        // Red to move: a 25th of Red's 10 s plus the increment.
        assert_eq!(
            budget_of("go wtime 10000 btime 5000 winc 100 binc 100", Some(&pos)),
            Some(Budget::Millis(500))
        );
        assert_eq!(
            budget_of("go wtime 100 btime 100 winc 1000 binc 1000", Some(&pos)),
            Some(Budget::Millis(50))
        );
        assert_eq!(
            budget_of("go nodes 5000", Some(&pos)),
            Some(Budget::Nodes(5000))
        );
        assert_eq!(budget_of("go", Some(&pos)), None);
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
            Request::Go(Search {
                id: 7,
                position: "position startpos".into(),
                go: "go movetime 100".into(),
                deadline: None,
            }),
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
            Request::Go(Search {
                id: 8,
                position: "position startpos moves a3a4".into(),
                go: "go infinite".into(),
                deadline: None,
            }),
            &mut events,
        );
        e.work(&mut events);
        e.work(&mut events);
        assert!(!events
            .iter()
            .any(|ev| matches!(ev, EngineEvent::BestMove { .. })));
        e.handle(Request::Stop, &mut events);
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
                e.slice_nodes = slice.min(budget);
                let mut events = Vec::new();
                e.handle(
                    Request::Go(Search {
                        id: 1,
                        position: format!("position fen {}", pos.to_fen()),
                        go: "go infinite".into(),
                        deadline: None,
                    }),
                    &mut events,
                );
                while e.busy() && e.running.as_ref().is_some_and(|r| r.nodes < budget) {
                    e.work(&mut events);
                }
                let r = e.running.as_ref().expect("running");
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
