//! The engine's protocol session on stdin and stdout (the language is
//! `jungle_core::protocol`): reads commands on the calling thread, answers `isready`,
//! `stop` and `ponderhit` at once, and runs each search on its own thread
//! (`searcher`). `input` reads bounded lines, `output` writes whole lines.

pub mod input;
pub mod output;
pub mod searcher;

use crate::board::rules::MoveRuleFlags;
use crate::board::{Move, Position};
use crate::eval;
use crate::game::{DrawRules, Game, GameResult, Rules, Variant};
use crate::nnue::{EvalKind, Network};
use crate::protocol::command::{self, Command, GoCommand};
use crate::search::search::SharedState;
use crate::search::{strength, Engine};
use crate::tb::store::Event as TbEvent;
use crate::tb::{Tablebases, TbRules};
use crate::text::quote;
use crate::tools::{bench, perft};
use crate::with_move_rules;
use input::{read_line, Line, MAX_LINE};
use output::Output;
use searcher::{SearchJob, Searcher};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};

pub const ENGINE_NAME: &str = "Jungle";
pub const AUTHOR: &str = "The Jungle developers";

/// A spin option: name, default, min, max.
struct Spin {
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
}

const HASH: Spin = Spin {
    name: "Hash",
    default: 64,
    min: 1,
    max: 65536,
};
const THREADS: Spin = Spin {
    name: "Threads",
    default: 1,
    min: 1,
    max: 256,
};
const MULTIPV: Spin = Spin {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: 32,
};
const MOVE_OVERHEAD: Spin = Spin {
    name: "Move Overhead",
    default: 30,
    min: 0,
    max: 5000,
};
const NO_CAPTURE_DRAW: Spin = Spin {
    name: "NoCaptureDrawPlies",
    default: 100,
    min: 0,
    max: 1000,
};
const REPETITION_DRAW: Spin = Spin {
    name: "RepetitionDraw",
    default: 3,
    min: 0,
    max: 10,
};
const TB_PROBE_LIMIT: Spin = Spin {
    name: "TablebaseProbeLimit",
    default: crate::tb::MAX_ANIMALS as i64,
    min: 0,
    max: crate::tb::MAX_ANIMALS as i64,
};
const SKILL_LEVEL: Spin = Spin {
    name: "Skill Level",
    default: 20,
    min: 0,
    max: 20,
};
const UCI_ELO: Spin = Spin {
    name: "UCI_Elo",
    default: strength::ELO_MIN as i64,
    min: strength::ELO_MIN as i64,
    max: strength::ELO_MAX as i64,
};

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

pub struct Session {
    out: Output,
    game: Game,
    /// The rules new games are played by (rule options).
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
        Session::with_hash(out, HASH.default as usize)
    }

    /// A session whose hash table starts at `hash_mb` MB instead of the default (for
    /// tests and fuzzing, which start many sessions).
    pub fn with_hash(out: Output, hash_mb: usize) -> Result<Session, String> {
        let engine = Engine::new(hash_mb).map_err(|e| e.to_string())?;
        let engine = Arc::new(Mutex::new(engine));
        let mut session = Session {
            searcher: Searcher::new(Arc::clone(&engine), out.clone()),
            out,
            game: Game::startpos(),
            rules: Rules::default(),
            engine,
            ponder: false,
            limit_strength: false,
            elo: strength::ELO_MIN,
            search: None,
            network: crate::nnue::embedded(),
            tb_dir: None,
        };
        session.renew_tablebases();
        Ok(session)
    }

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

    /// `TablebasePath`: a directory of table files, or empty for none.
    fn set_tablebase_path(&mut self, value: Option<&str>) -> Result<(), String> {
        let text = value.unwrap_or("").trim();
        if text.is_empty() || text == "<empty>" {
            self.tb_dir = None;
            self.renew_tablebases();
            return Ok(());
        }
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

    /// Reads and answers commands until `quit` or the end of input.
    pub fn serve(&mut self, reader: &mut impl BufRead) -> i32 {
        loop {
            let line = match read_line(reader) {
                Ok(Some(Line::Text(t))) => t,
                Ok(Some(Line::TooLong(n))) => {
                    self.out.error(&format!(
                        "input line of {n} bytes is longer than the limit of {MAX_LINE}"
                    ));
                    continue;
                }
                Ok(None) => break,
                Err(e) => {
                    log::error!("cannot read stdin: {e}");
                    break;
                }
            };
            if !self.handle_line(&line) {
                break;
            }
        }
        self.stop_search();
        0
    }

    /// Answers one input line; `false` after `quit` (the caller then stops reading and
    /// calls `stop_search`).
    pub fn handle_line(&mut self, line: &str) -> bool {
        log::debug!("< {line}");
        match command::parse(line) {
            Ok(None) => {}
            Ok(Some(Command::Quit)) => return false,
            Ok(Some(cmd)) => self.execute(cmd),
            Err(message) => self.out.error(&message),
        }
        true
    }

    /// The current game (what `position` set, under the current rules).
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.finished.load(Ordering::SeqCst))
    }

    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Uci => self.identify("uciok"),
            Command::Jcei => self.identify("jceiok"),
            Command::IsReady => self.out.line("readyok"),
            Command::NewGame => {
                if self.refuse_while_searching("ucinewgame") {
                    return;
                }
                self.engine().clear();
                self.game = Game::with_rules(Position::startpos(), self.rules);
            }
            Command::SetOption { name, value } => {
                if self.refuse_while_searching("setoption") {
                    return;
                }
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    self.out.error(&e);
                }
            }
            Command::Position { fen, moves } => {
                match build_game(fen.as_deref(), &moves, self.rules) {
                    Ok(game) => self.game = game,
                    Err(e) => self.out.error(&e),
                }
            }
            Command::Go(go) => self.go(go),
            Command::Stop => {
                if let Some(s) = &self.search {
                    s.hold.store(false, Ordering::SeqCst);
                    s.shared.stop.store(true, Ordering::SeqCst);
                }
            }
            Command::PonderHit => {
                if let Some(s) = &self.search {
                    s.shared.pondering.store(false, Ordering::SeqCst);
                    if !s.infinite {
                        s.hold.store(false, Ordering::SeqCst);
                    }
                }
            }
            Command::Quit => {}
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Moves => self.list_moves(),
            Command::PerftCount(depth) => self.perft_count(depth),
            Command::Perft(depth) => {
                if self.refuse_while_searching("go perft") {
                    return;
                }
                let threads = self.engine().options.threads;
                let mut buf = Vec::new();
                let pos = self.game.position();
                let result = with_move_rules!(self.rules.moves, R => perft::report_with::<R>(pos, depth, true, threads, &mut buf));
                match result {
                    Ok(_) => self.out.lines(&String::from_utf8_lossy(&buf)),
                    Err(e) => self.out.error(&format!("perft failed: {e}")),
                }
            }
            Command::Bench(depth) => {
                if self.refuse_while_searching("bench") {
                    return;
                }
                let mut buf = Vec::new();
                let settings = bench::Settings {
                    depth: depth.unwrap_or(bench::DEFAULT_DEPTH),
                    rules: self.rules,
                    eval: self.engine().options.eval,
                    network: Some(Arc::clone(&self.network)),
                    ..bench::Settings::default()
                };
                match bench::run(&settings, &mut buf) {
                    Ok(_) => self.out.lines(&String::from_utf8_lossy(&buf)),
                    Err(e) => self.out.error(&format!("bench failed: {e}")),
                }
            }
        }
    }

    /// Refuses `what` while a search runs; otherwise collects a finished search's
    /// thread (which may still be returning) so that the engine is free.
    fn refuse_while_searching(&mut self, what: &str) -> bool {
        if self.searching() {
            self.out.error(&format!(
                "'{what}' is not allowed while a search is running; send stop first"
            ));
            return true;
        }
        if let Some(old) = self.search.take() {
            old.wait();
        }
        false
    }

    fn identify(&self, ok: &str) {
        let mut text = format!(
            "id name {ENGINE_NAME} {}\nid author {AUTHOR}\n",
            env!("CARGO_PKG_VERSION")
        );
        for spin in [&HASH, &THREADS, &MULTIPV, &MOVE_OVERHEAD] {
            text.push_str(&spin_line(spin));
        }
        text.push_str("option name Clear Hash type button\n");
        text.push_str(&spin_line(&SKILL_LEVEL));
        text.push_str("option name UCI_LimitStrength type check default false\n");
        text.push_str(&spin_line(&UCI_ELO));
        text.push_str("option name Ponder type check default false\n");
        text.push_str(
            "option name UCI_Variant type combo default jungle var jungle var jungle-cn\n",
        );
        text.push_str("option name DogSwims type check default false\n");
        text.push_str("option name TrappedLoseAttack type check default false\n");
        text.push_str(&spin_line(&NO_CAPTURE_DRAW));
        text.push_str(&spin_line(&REPETITION_DRAW));
        text.push_str(&format!(
            "option name Eval type combo default {} var classical var nnue\n",
            EvalKind::default().name()
        ));
        text.push_str("option name EvalFile type string default <embedded>\n");
        text.push_str("option name TablebasePath type string default <empty>\n");
        text.push_str(&spin_line(&TB_PROBE_LIMIT));
        text.push_str(ok);
        self.out.lines(&text);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let key = name.to_ascii_lowercase();
        let spin = |s: &Spin| -> Result<i64, String> {
            let v = value.ok_or_else(|| format!("option {} needs a value", s.name))?;
            match v.trim().parse::<i64>() {
                Ok(n) if n >= s.min && n <= s.max => Ok(n),
                _ => Err(format!(
                    "option {} takes a whole number from {} to {}, got '{}'",
                    s.name,
                    s.min,
                    s.max,
                    quote(v)
                )),
            }
        };
        match key.as_str() {
            "hash" => {
                let mb = spin(&HASH)? as usize;
                self.engine().set_hash(mb).map_err(|e| e.to_string())
            }
            "threads" => {
                self.engine().options.threads = spin(&THREADS)? as usize;
                Ok(())
            }
            "multipv" => {
                self.engine().options.multipv = spin(&MULTIPV)? as usize;
                Ok(())
            }
            "move overhead" => {
                self.engine().options.move_overhead_ms = spin(&MOVE_OVERHEAD)? as u64;
                Ok(())
            }
            "skill level" => {
                self.engine().options.skill_level = spin(&SKILL_LEVEL)? as u32;
                Ok(())
            }
            "tablebasepath" => self.set_tablebase_path(value),
            "tablebaseprobelimit" => {
                self.engine().options.tb_probe_limit = spin(&TB_PROBE_LIMIT)? as u32;
                Ok(())
            }
            "uci_limitstrength" => {
                self.limit_strength = check(value, "UCI_LimitStrength")?;
                self.apply_strength_limit();
                Ok(())
            }
            "uci_elo" => {
                self.elo = spin(&UCI_ELO)? as u32;
                self.apply_strength_limit();
                Ok(())
            }
            "clear hash" => match value {
                None => {
                    self.engine().clear_hash();
                    Ok(())
                }
                Some(v) => Err(format!(
                    "option Clear Hash is a button and takes no value, got '{}'",
                    quote(v)
                )),
            },
            "ponder" => {
                self.ponder = check(value, "Ponder")?;
                Ok(())
            }
            "uci_variant" => {
                let v = value.unwrap_or("");
                let variant = Variant::from_name(v.trim()).ok_or_else(|| {
                    format!(
                        "option UCI_Variant takes jungle or jungle-cn, got '{}'",
                        quote(v)
                    )
                })?;
                let moves = self.rules.moves;
                self.set_rules(Rules {
                    moves,
                    ..variant.rules()
                });
                Ok(())
            }
            "dogswims" => {
                let on = check(value, "DogSwims")?;
                self.set_rules(Rules {
                    moves: MoveRuleFlags {
                        dog_swims: on,
                        ..self.rules.moves
                    },
                    ..self.rules
                });
                Ok(())
            }
            "trappedloseattack" => {
                let on = check(value, "TrappedLoseAttack")?;
                self.set_rules(Rules {
                    moves: MoveRuleFlags {
                        trapped_lose_attack: on,
                        ..self.rules.moves
                    },
                    ..self.rules
                });
                Ok(())
            }
            "nocapturedrawplies" => {
                let plies = spin(&NO_CAPTURE_DRAW)? as u16;
                self.set_rules(Rules {
                    draw: DrawRules {
                        no_capture_plies: plies,
                        ..self.rules.draw
                    },
                    ..self.rules
                });
                Ok(())
            }
            "repetitiondraw" => {
                let times = spin(&REPETITION_DRAW)? as u8;
                self.set_rules(Rules {
                    draw: DrawRules {
                        repetitions: times,
                        ..self.rules.draw
                    },
                    ..self.rules
                });
                Ok(())
            }
            "eval" => {
                let v = value.unwrap_or("");
                let kind = EvalKind::from_name(v).ok_or_else(|| {
                    format!("option Eval takes classical or nnue, got '{}'", quote(v))
                })?;
                let mut engine = self.engine();
                if engine.options.eval != kind {
                    // The table's stored static scores belong to the other evaluation.
                    engine.options.eval = kind;
                    engine.clear_hash();
                }
                Ok(())
            }
            "evalfile" => self.load_network(value.unwrap_or("").trim()),
            _ => Err(format!("unknown option '{}'", quote(name))),
        }
    }

    /// `EvalFile`: loads a network (`<embedded>` for the built-in one); a file that
    /// cannot be used is refused and the current network kept.
    fn load_network(&mut self, path: &str) -> Result<(), String> {
        let net =
            if path.is_empty() || path == "<embedded>" {
                crate::nnue::embedded()
            } else {
                Arc::new(Network::load(std::path::Path::new(path)).map_err(|e| {
                    format!("EvalFile '{}' refused, network kept: {e}", quote(path))
                })?)
            };
        self.out.line(&format!(
            "info string network {}: {}",
            if path.is_empty() {
                "<embedded>".to_string()
            } else {
                quote(path)
            },
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

    /// New rules start a new game from the start position (a position or move of the
    /// old game may not exist under the new rules).
    fn set_rules(&mut self, rules: Rules) {
        if rules != self.rules {
            self.rules = rules;
            self.game = Game::with_rules(Position::startpos(), rules);
            self.renew_tablebases();
        }
    }

    fn go(&mut self, go: GoCommand) {
        if self.searching() {
            self.out
                .error("a search is already running; send stop first");
            return;
        }
        let mut limits = go.limits;
        for text in &go.searchmoves {
            match self.game.parse_move(text) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => {
                    self.out.error(&format!("go searchmoves: {e}"));
                    return;
                }
            }
        }
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
            game: self.game.clone(),
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

    /// Stops any running search and waits for its `bestmove` (what `quit` and the end
    /// of input do).
    pub fn stop_search(&mut self) {
        if let Some(s) = self.search.take() {
            s.hold.store(false, Ordering::SeqCst);
            s.shared.stop.store(true, Ordering::SeqCst);
            s.wait();
        }
    }

    /// jcei `moves`: the legal moves of the game in one line; none once it is over.
    fn list_moves(&self) {
        let moves: Vec<String> = if self.game.result() == GameResult::Ongoing {
            self.game
                .legal_moves()
                .iter()
                .map(Move::to_string)
                .collect()
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
    fn perft_count(&mut self, depth: u32) {
        if self.refuse_while_searching("perft") {
            return;
        }
        let threads = self.engine().options.threads;
        let pos = self.game.position();
        let start = std::time::Instant::now();
        let count = with_move_rules!(self.rules.moves, R => perft::perft_threads_with::<R>(pos, depth, threads));
        self.out.line(&format!(
            "perft({depth}) = {count}  ({} ms)",
            start.elapsed().as_millis()
        ));
    }

    fn display(&self) {
        let pos = self.game.position();
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        let state = match self.game.result() {
            GameResult::Ongoing => format!("ongoing, {} to move", pos.side_to_move()),
            other => other.to_string(),
        };
        let text = format!(
            "{}Fen: {}\nKey: {:016x}\nRules: {}\nMoves: {}\nState: {}",
            pos.pretty(),
            pos.to_fen(),
            pos.key(),
            self.game.rules(),
            moves.join(" "),
            state
        );
        self.out.lines(&text);
    }

    fn eval(&self) {
        let pos = self.game.position();
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

/// The value of a check option: `true` or `false`.
fn check(value: Option<&str>, name: &str) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!(
            "option {name} takes true or false, got '{}'",
            quote(value.unwrap_or(""))
        )),
    }
}

fn spin_line(s: &Spin) -> String {
    format!(
        "option name {} type spin default {} min {} max {}\n",
        s.name, s.default, s.min, s.max
    )
}

/// The game of a `position` command, or an error naming the bad token.
fn build_game(fen: Option<&str>, moves: &[String], rules: Rules) -> Result<Game, String> {
    let start = match fen {
        None => Position::startpos(),
        Some(text) => Position::from_fen_with(text, rules.moves)
            .map_err(|e| format!("invalid position '{}': {e}", quote(text)))?,
    };
    let mut game = Game::with_rules(start, rules);
    for (i, m) in moves.iter().enumerate() {
        game.play_text(m)
            .map_err(|e| format!("position: move {} '{}' rejected: {e}", i + 1, quote(m)))?;
    }
    Ok(game)
}
