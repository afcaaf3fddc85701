//! The engine's protocol session on stdin and stdout (the language is
//! `jungle_core::protocol`): reads commands on the calling thread, answers `isready`,
//! `stop` and `ponderhit` at once, and runs each search on its own thread
//! (`searcher`). `common::input` reads bounded lines, `common::output` writes whole
//! lines.

pub mod searcher;

use crate::board::Move;
use crate::common::input::read_lines;
use crate::common::output::Output;
use crate::eval;
use crate::game::{Game, GameResult, Rules};
use crate::nnue::Network;
use crate::protocol::command::Command;
use crate::protocol::options::{self, OptionId, Setting};
use crate::protocol::server::{Extra, Flow, Program, Server};
use crate::search::search::SharedState;
use crate::search::{strength, Engine, Limits};
use crate::tb::store::Event as TbEvent;
use crate::tb::{Tablebases, TbRules};
use crate::text::quote;
use crate::tools::{bench, perft};
use crate::with_move_rules;
use searcher::{SearchJob, Searcher};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};

pub const ENGINE_NAME: &str = "Jungle";

/// The hash table a session starts with (MB), as the option table declares `Hash`.
const DEFAULT_HASH_MB: usize = 64;

/// A search running on the search thread.
struct RunningSearch {
    shared: Arc<SharedState>,
    /// `bestmove` is held back while this is set (`go infinite`, `go ponder`).
    hold: Arc<AtomicBool>,
    /// Set just before `bestmove` is printed: from then on the search counts as over,
    /// so a GUI that answers `bestmove` at once is never told a search is running.
    finished: Arc<AtomicBool>,
    infinite: bool,
    /// Receives (or closes) once the search is over and the engine is free.
    done: Receiver<()>,
}

impl RunningSearch {
    /// Waits until the search is over and the engine is free.
    fn wait(self) {
        let _ = self.done.recv();
    }
}

/// The engine behind the protocol server (`protocol::server`): the commands it reads
/// are the server's, the searching and the extra commands are the engine's.
pub struct Session {
    server: Server<Jungle>,
}

/// What the engine `jungle` supplies to the server.
struct Jungle {
    out: Output,
    /// The rules in force (the server's; kept for the tables and the tools).
    rules: Rules,
    engine: Arc<Mutex<Engine>>,
    ponder: bool,
    /// `UCI_LimitStrength` and `UCI_Elo` (the engine's options hold the Elo only
    /// while the limit is on).
    limit_strength: bool,
    elo: u32,
    search: Option<RunningSearch>,
    searcher: Searcher,
    /// The network the engine holds (a copy, so that `eval` needs no lock on the
    /// engine while it searches).
    network: Arc<Network>,
    /// `TablebasePath` (none: the small tables are built in memory only).
    tb_dir: Option<std::path::PathBuf>,
}

/// Runs the protocol on stdin and stdout until `quit` or end of input; returns the exit code.
pub fn run() -> i32 {
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    match Session::new(Output::stdout()) {
        Ok(mut session) => session.serve(&mut reader),
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

impl Session {
    pub fn new(out: Output) -> Result<Session, String> {
        Session::with_hash(out, DEFAULT_HASH_MB)
    }

    /// A session whose hash table starts at `hash_mb` MB instead of the default (for
    /// tests and fuzzing, which start many sessions).
    pub fn with_hash(out: Output, hash_mb: usize) -> Result<Session, String> {
        let engine = Engine::new(hash_mb).map_err(|e| e.to_string())?;
        let engine = Arc::new(Mutex::new(engine));
        let mut jungle = Jungle {
            searcher: Searcher::new(Arc::clone(&engine), out.clone()),
            out,
            rules: Rules::default(),
            engine,
            ponder: false,
            limit_strength: false,
            elo: strength::ELO_MIN,
            search: None,
            network: crate::nnue::embedded(),
            tb_dir: None,
        };
        jungle.renew_tablebases();
        Ok(Session {
            server: Server::new(jungle),
        })
    }

    /// Reads and answers commands until `quit` or the end of input.
    pub fn serve(&mut self, reader: &mut impl BufRead) -> i32 {
        let out = self.server.program.out.clone();
        read_lines(reader, &out, |line| self.handle_line(line));
        self.stop_search();
        0
    }

    /// Answers one input line; `false` after `quit` (the caller then stops reading and
    /// calls `stop_search`).
    pub fn handle_line(&mut self, line: &str) -> bool {
        log::debug!("< {line}");
        self.server.handle_line(line) == Flow::Continue
    }

    /// The current game (what `position` set, under the current rules).
    pub fn game(&self) -> &Game {
        self.server.game()
    }

    pub fn execute(&mut self, cmd: Command) {
        self.server.execute(cmd);
    }

    /// Stops any running search and waits for its `bestmove` (what `quit` and the end
    /// of input do).
    pub fn stop_search(&mut self) {
        if let Some(s) = self.server.program.search.take() {
            s.hold.store(false, Ordering::SeqCst);
            s.shared.stop.store(true, Ordering::SeqCst);
            s.wait();
        }
    }
}

impl Program for Jungle {
    fn name(&self) -> &str {
        ENGINE_NAME
    }

    fn offered(&self) -> &'static [OptionId] {
        options::ENGINE
    }

    fn say(&mut self, line: &str) {
        self.out.line(line);
    }

    fn say_all(&mut self, lines: &[String]) {
        self.out.lines(&lines.join("\n"));
    }

    fn may_change(&mut self, what: &str) -> Result<(), String> {
        self.refuse_while_searching(what)
    }

    fn may_search(&mut self) -> Result<(), String> {
        if self.searching() {
            return Err("a search is already running; send stop first".into());
        }
        Ok(())
    }

    fn new_game(&mut self) {
        self.engine().clear();
    }

    fn rules_changed(&mut self, rules: Rules) {
        self.rules = rules;
        self.renew_tablebases();
    }

    fn apply(&mut self, setting: Setting) -> Result<(), String> {
        match setting {
            Setting::Hash(mb) => return self.engine().set_hash(mb).map_err(|e| e.to_string()),
            Setting::Threads(n) => self.engine().options.threads = n,
            Setting::MultiPv(n) => self.engine().options.multipv = n,
            Setting::MoveOverhead(ms) => self.engine().options.move_overhead_ms = ms,
            Setting::ClearHash => self.engine().clear_hash(),
            Setting::SkillLevel(level) => self.engine().options.skill_level = level,
            Setting::LimitStrength(on) => {
                self.limit_strength = on;
                self.apply_strength_limit();
            }
            Setting::Elo(elo) => {
                self.elo = elo;
                self.apply_strength_limit();
            }
            Setting::Ponder(on) => self.ponder = on,
            Setting::Eval(kind) => {
                let mut engine = self.engine();
                if engine.options.eval != kind {
                    // The table's stored static scores belong to the other evaluation.
                    engine.options.eval = kind;
                    engine.clear_hash();
                }
            }
            Setting::EvalFile(path) => return self.load_network(path.as_deref()),
            Setting::TablebasePath(dir) => return self.set_tablebase_path(dir.as_deref()),
            Setting::TablebaseProbeLimit(n) => self.engine().options.tb_probe_limit = n,
            Setting::SearchParams(params) => self.engine().options.params = params,
            // The server applies the rule options.
            Setting::Variant(_)
            | Setting::DogSwims(_)
            | Setting::TrappedLoseAttack(_)
            | Setting::NoCaptureDrawPlies(_)
            | Setting::RepetitionDraw(_) => {}
        }
        Ok(())
    }

    fn go(&mut self, game: &Game, limits: Limits) {
        // The previous search has ended; wait until the engine is free.
        if let Some(old) = self.search.take() {
            old.wait();
        }
        let threads = self.engine().options.threads;
        let shared = Arc::new(SharedState::new(threads));
        shared.pondering.store(limits.ponder, Ordering::SeqCst);
        let hold = Arc::new(AtomicBool::new(limits.infinite || limits.ponder));
        let finished = Arc::new(AtomicBool::new(false));
        let infinite = limits.infinite;
        let job = SearchJob {
            game: game.clone(),
            limits,
            shared: Arc::clone(&shared),
            hold: Arc::clone(&hold),
            finished: Arc::clone(&finished),
        };
        match self.searcher.start(job) {
            Ok(done) => {
                self.search = Some(RunningSearch {
                    shared,
                    hold,
                    finished,
                    infinite,
                    done,
                })
            }
            Err(e) => {
                self.out.error(&e);
                self.out.line("bestmove 0000");
            }
        }
    }

    fn stop(&mut self) {
        if let Some(s) = &self.search {
            s.hold.store(false, Ordering::SeqCst);
            s.shared.stop.store(true, Ordering::SeqCst);
        }
    }

    fn ponder_hit(&mut self) {
        if let Some(s) = &self.search {
            s.shared.pondering.store(false, Ordering::SeqCst);
            if !s.infinite {
                s.hold.store(false, Ordering::SeqCst);
            }
        }
    }

    fn extra(&mut self, command: Extra, game: &Game) {
        match command {
            Extra::Display => self.display(game),
            Extra::Eval => self.eval(game),
            Extra::Moves => self.list_moves(game),
            Extra::PerftCount(depth) => self.perft_count(game, depth),
            Extra::Perft(depth) => self.perft(game, depth),
            Extra::Bench(depth) => self.bench(depth),
        }
    }
}

impl Jungle {
    /// New tables for the rules and directory in force (none when the rules cannot
    /// be tabled); a file refused later is reported as an error line.
    fn renew_tablebases(&mut self) {
        let tables = TbRules::for_rules(&self.rules).ok().map(|rules| {
            let out = self.out.clone();
            Arc::new(
                Tablebases::new(rules, self.tb_dir.clone()).reporting(move |e| {
                    if let TbEvent::Refused(_, why) = e {
                        out.error(&format!("tablebase ignored: {why}"));
                    }
                }),
            )
        });
        self.engine().tablebases = tables;
    }

    /// `TablebasePath`: a directory of table files, or `None`.
    fn set_tablebase_path(&mut self, dir: Option<&str>) -> Result<(), String> {
        let Some(text) = dir else {
            self.tb_dir = None;
            self.renew_tablebases();
            return Ok(());
        };
        let dir = std::path::PathBuf::from(text);
        let entries = std::fs::read_dir(&dir).map_err(|e| {
            format!(
                "option TablebasePath: cannot read directory '{}': {e}",
                quote(text)
            )
        })?;
        let files = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".jtb"))
            .count();
        self.tb_dir = Some(dir);
        self.renew_tablebases();
        let largest = self
            .engine()
            .tablebases
            .as_ref()
            .map_or(0, |t| t.largest_on_disk());
        self.out.line(&format!(
            "info string tablebases: {files} table files in {}, up to {largest} animals for these rules",
            quote(text)
        ));
        Ok(())
    }

    fn searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.finished.load(Ordering::SeqCst))
    }

    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `go perft N`: the counts of each move (`--divide`).
    fn perft(&mut self, game: &Game, depth: u32) {
        if let Err(e) = self.refuse_while_searching("go perft") {
            return self.out.error(&e);
        }
        let threads = self.engine().options.threads;
        let mut buf = Vec::new();
        let pos = game.position();
        let result = with_move_rules!(self.rules.moves, R => perft::report_with::<R>(pos, depth, true, threads, &mut buf));
        match result {
            Ok(_) => self.out.lines(&String::from_utf8_lossy(&buf)),
            Err(e) => self.out.error(&format!("perft failed: {e}")),
        }
    }

    fn bench(&mut self, depth: Option<i32>) {
        if let Err(e) = self.refuse_while_searching("bench") {
            return self.out.error(&e);
        }
        let mut buf = Vec::new();
        // One lock of the engine (a second in the same statement would wait
        // for the first).
        let (eval, params) = {
            let engine = self.engine();
            (engine.options.eval, engine.options.params)
        };
        let settings = bench::Settings {
            depth: depth.unwrap_or(bench::DEFAULT_DEPTH),
            rules: self.rules,
            eval,
            network: Some(Arc::clone(&self.network)),
            params,
            ..bench::Settings::default()
        };
        match bench::run(&settings, &mut buf) {
            Ok(_) => self.out.lines(&String::from_utf8_lossy(&buf)),
            Err(e) => self.out.error(&format!("bench failed: {e}")),
        }
    }

    /// Refuses `what` while a search runs; otherwise collects a finished search's
    /// thread (which may still be returning) so that the engine is free.
    fn refuse_while_searching(&mut self, what: &str) -> Result<(), String> {
        if self.searching() {
            return Err(format!(
                "'{what}' is not allowed while a search is running; send stop first"
            ));
        }
        if let Some(old) = self.search.take() {
            old.wait();
        }
        Ok(())
    }

    /// `EvalFile`: loads a network (`None`: the built-in one); a file that cannot be
    /// used is refused and the current network kept.
    fn load_network(&mut self, path: Option<&str>) -> Result<(), String> {
        let net =
            match path {
                None => crate::nnue::embedded(),
                Some(path) => Arc::new(Network::load(std::path::Path::new(path)).map_err(|e| {
                    format!("EvalFile '{}' refused, network kept: {e}", quote(path))
                })?),
            };
        self.out.line(&format!(
            "info string network {}: {}",
            path.map_or_else(|| "<embedded>".to_string(), quote),
            net.architecture()
        ));
        self.network = Arc::clone(&net);
        let mut engine = self.engine();
        engine.set_network(net);
        engine.clear_hash();
        Ok(())
    }

    fn apply_strength_limit(&mut self) {
        let elo = self.limit_strength.then_some(self.elo);
        self.engine().options.limit_elo = elo;
    }

    /// jcei `moves`: the legal moves of the game in one line; none once it is over.
    fn list_moves(&self, game: &Game) {
        let moves: Vec<String> = if game.result() == GameResult::Ongoing {
            game.legal_moves().iter().map(Move::to_string).collect()
        } else {
            Vec::new()
        };
        let mut line = format!("Legal moves ({}):", moves.len());
        for m in &moves {
            line.push(' ');
            line.push_str(m);
        }
        self.out.line(&line);
    }

    /// jcei `perft N`: the leaf count and the time in one line.
    fn perft_count(&mut self, game: &Game, depth: u32) {
        if let Err(e) = self.refuse_while_searching("perft") {
            return self.out.error(&e);
        }
        let threads = self.engine().options.threads;
        let pos = game.position();
        let start = std::time::Instant::now();
        let count = with_move_rules!(self.rules.moves, R => perft::perft_threads_with::<R>(pos, depth, threads));
        self.out.line(&format!(
            "perft({depth}) = {count}  ({} ms)",
            start.elapsed().as_millis()
        ));
    }

    fn display(&self, game: &Game) {
        let pos = game.position();
        let moves: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
        let state = match game.result() {
            GameResult::Ongoing => format!("ongoing, {} to move", pos.side_to_move()),
            other => other.to_string(),
        };
        let text = format!(
            "{}Fen: {}\nKey: {:016x}\nRules: {}\nMoves: {}\nState: {}",
            pos.pretty(),
            pos.to_fen(),
            pos.key(),
            game.rules(),
            moves.join(" "),
            state
        );
        self.out.lines(&text);
    }

    fn eval(&self, game: &Game) {
        let pos = game.position();
        let trace = eval::trace(pos);
        let mut text = String::new();
        for t in &trace.terms {
            text.push_str(&format!(
                "{:<16} red {:>6} blue {:>6} total {:>6}\n",
                t.name,
                t.red,
                t.blue,
                t.red - t.blue
            ));
        }
        text.push_str(&format!("Total (red view): {}\n", trace.total));
        text.push_str(&format!(
            "Total (side to move): {}\n",
            trace.side_to_move_score
        ));
        let nnue = self.network.evaluate_position(pos);
        let red_view = match pos.side_to_move() {
            crate::board::Color::Red => nnue,
            crate::board::Color::Blue => -nnue,
        };
        text.push_str(&format!("NNUE (red view): {red_view}\n"));
        text.push_str(&format!("NNUE (side to move): {nnue}"));
        self.out.lines(&text);
    }
}
