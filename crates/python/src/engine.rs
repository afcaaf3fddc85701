//! `jungle.Engine`: the engine in process. A search runs with the GIL released, so
//! other Python threads run meanwhile (and one of them may `stop()` it).

use crate::args;
use crate::board::PyMove;
use crate::info::{PyInfoLine, PyScore};
use crate::wait::interruptible;
use jungle_core::game::Game;
use jungle_core::game::GameResult;
use jungle_core::protocol::command::{self, MAX_DEPTH};
use jungle_core::protocol::options::{self, Kind, OptionId, Setting, TABLE};
use jungle_core::protocol::position;
use jungle_core::search::search::SharedState;
use jungle_core::search::{Engine, Limits, SearchInfo, SearchOutcome, SeedState};
use jungle_core::tb::{Tablebases, TbRules};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The settings of `elo` or `skill_level` (not both), read as the table's `UCI_Elo`
/// (with `UCI_LimitStrength` on) and `Skill Level`.
fn strength_settings(
    elo: Option<&Bound<'_, PyAny>>,
    skill_level: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Setting>> {
    match (elo, skill_level) {
        (Some(_), Some(_)) => Err(PyValueError::new_err("give elo or skill_level, not both")),
        (Some(e), None) => Ok(vec![
            number_option("elo", e, "UCI_Elo")?,
            Setting::LimitStrength(true),
        ]),
        (None, Some(s)) => Ok(vec![number_option("skill_level", s, "Skill Level")?]),
        (None, None) => Ok(Vec::new()),
    }
}

/// A search of a finished game is refused by `analyse` and `play` alike.
fn refuse_finished(game: &Game) -> PyResult<()> {
    match game.result() {
        GameResult::Ongoing => Ok(()),
        over => Err(PyValueError::new_err(format!("the game is over: {over}"))),
    }
}

/// What `Engine.play` chose: the `move`, the `ponder` move it expects in reply, and
/// the search's `score`, `depth`, `nodes` and `time` (seconds).
#[pyclass(module = "jungle", name = "PlayResult", frozen, get_all)]
pub struct PyPlayResult {
    /// The move chosen (a `Move`).
    #[pyo3(name = "move")]
    mv: PyMove,
    /// The reply the engine expects (a `Move`), or `None`.
    ponder: Option<PyMove>,
    /// The search's score for the side to move (a `Score`), or `None`.
    score: Option<PyScore>,
    /// Plies of the deepest iteration the search completed.
    depth: i32,
    /// Positions the search visited.
    nodes: u64,
    /// Seconds the search took.
    time: f64,
}

#[pymethods]
impl PyPlayResult {
    #[new]
    #[pyo3(signature = (r#move, *, ponder=None, score=None, depth=0, nodes=0, time=0.0))]
    fn new(
        r#move: PyMove,
        ponder: Option<PyMove>,
        score: Option<PyScore>,
        depth: i32,
        nodes: u64,
        time: f64,
    ) -> PyPlayResult {
        PyPlayResult {
            mv: r#move,
            ponder,
            score,
            depth,
            nodes,
            time,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "PlayResult(move={}, ponder={}, depth={}, nodes={})",
            self.mv.uci(),
            self.ponder.map_or("None".into(), |m| m.uci()),
            self.depth,
            self.nodes
        )
    }
}

/// Tables for the rules of the last search.
struct TableCache {
    rules: Option<TbRules>,
    /// `TablebasePath`: a directory of table files (none: built in memory only).
    dir: Option<PathBuf>,
}

/// The engine: `Engine(threads=None, hash_mb=None, elo=None, skill_level=None,
/// eval=None, tablebases=True, options=None)`. The values, their ranges and defaults
/// are the `jungle` engine's options (`Threads` 1, `Hash` 64 MB, `Eval` nnue), refused
/// in its words; `options` sets any of them by protocol name (see `configure`). `elo`
/// (`jungle.ELO_MIN` to `jungle.ELO_MAX`) or `skill_level` (0–20) weaken it to a
/// measured strength level (`jungle.LEVELS`); `tablebases` builds the tables of up to
/// 3 animals in memory on first need, as the `jungle` engine does. Ctrl-C stops a
/// search (`KeyboardInterrupt`), and the engine stays usable.
#[pyclass(module = "jungle", name = "Engine", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    tables: Mutex<TableCache>,
    use_tablebases: bool,
    /// The running search's shared state (for `stop`).
    running: Mutex<Option<Arc<SharedState>>>,
    /// The thread the main search runs on, while the caller's waits for Ctrl-C.
    pool: ThreadPool,
    config: Mutex<Config>,
}

/// Stack of the thread the main search runs on: the search recurses up to its
/// deepest ply (as the core's own search threads).
const SEARCH_STACK: usize = 16 * 1024 * 1024;

/// The one thread of an engine's main search.
fn search_pool() -> PyResult<ThreadPool> {
    ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(SEARCH_STACK)
        .thread_name(|_| "jungle-search".into())
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Seconds as whole milliseconds, refusing what is not a duration.
fn millis(name: &str, seconds: f64) -> PyResult<u64> {
    if !(0.0..=1e9).contains(&seconds) {
        return Err(PyValueError::new_err(format!(
            "{name} must be a number of seconds from 0, not {seconds}"
        )));
    }
    Ok(Duration::from_secs_f64(seconds).as_millis() as u64)
}

/// The limits of one search, checked.
#[derive(Default)]
pub struct LimitArgs<'a, 'py> {
    pub depth: Option<&'a Bound<'py, PyAny>>,
    pub nodes: Option<&'a Bound<'py, PyAny>>,
    pub movetime: Option<&'a Bound<'py, PyAny>>,
    pub clock: Option<&'a Bound<'py, PyAny>>,
    pub increment: Option<&'a Bound<'py, PyAny>>,
}

impl LimitArgs<'_, '_> {
    /// The limits, refused as the protocol's `go` refuses them (the same ranges).
    pub fn limits(&self) -> PyResult<Limits> {
        let mut limits = Limits {
            depth: args::whole_opt(self.depth, "depth", 1, MAX_DEPTH.into())?.map(|d| d as i32),
            nodes: args::whole_opt(self.nodes, "nodes", 1, i64::MAX)?.map(|n| n as u64),
            ..Limits::default()
        };
        if let Some(t) = self.movetime {
            limits.movetime = Some(millis("movetime", args::seconds(t, "movetime")?)?);
        }
        if let Some(clock) = self.clock {
            let (red, blue) = args::seconds_each(clock, "clock")?;
            limits.time = [Some(millis("clock", red)?), Some(millis("clock", blue)?)];
            let increment = self.increment.map(|i| args::seconds_each(i, "increment"));
            let (red_inc, blue_inc) = increment.transpose()?.unwrap_or((0.0, 0.0));
            limits.inc = [
                millis("increment", red_inc)?,
                millis("increment", blue_inc)?,
            ];
        } else if self.increment.is_some() {
            return Err(PyValueError::new_err("increment needs clock"));
        }
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && !limits.uses_clock()
        {
            return Err(PyValueError::new_err(
                "give a limit: depth, nodes, movetime or clock",
            ));
        }
        Ok(limits)
    }
}

/// The options of the engine's table (`jungle_core::protocol::options`) that an
/// `Engine` does not take: the rules come with each board, there is no pondering, and
/// the network is the embedded one.
const NOT_OFFERED: &[OptionId] = &[
    OptionId::Ponder,
    OptionId::Variant,
    OptionId::DogSwims,
    OptionId::TrappedLoseAttack,
    OptionId::NoCaptureDrawPlies,
    OptionId::RepetitionDraw,
    OptionId::EvalFile,
];

/// The options an `Engine` takes, by their protocol names.
fn offered() -> Vec<OptionId> {
    let engine = options::ENGINE.iter().copied();
    engine.filter(|id| !NOT_OFFERED.contains(id)).collect()
}

/// The table's default of a number option.
fn table_default(id: OptionId) -> i64 {
    let row = TABLE.iter().find(|o| o.id == id);
    match row.map(|o| o.kind) {
        Some(Kind::Spin { default, .. }) => default,
        _ => 1,
    }
}

/// Reads a value of the option `name` with the table, refused in the protocol's words
/// (after `arg`, the keyword argument it came as).
fn read_option(name: &str, value: Option<&str>, arg: Option<&str>) -> PyResult<Setting> {
    options::read(name, value, &offered()).map_err(|e| match arg {
        Some(arg) => PyValueError::new_err(format!("{arg}: {e}")),
        None => PyValueError::new_err(e),
    })
}

/// The protocol text of a Python value for the option `name` (`None`: no value, as a
/// button takes).
fn option_text(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    if let Ok(on) = value.cast::<PyBool>() {
        return Ok(Some(on.is_true().to_string()));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(Some(text.to_cow()?.into_owned()));
    }
    match args::whole_number(value, name) {
        Ok(number) => Ok(Some(number.text)),
        Err(_) => Err(PyTypeError::new_err(format!(
            "the value of option {name} must be a bool, an int or a str, not {}",
            args::type_name(value)
        ))),
    }
}

/// A keyword argument read as the table's option `name`: a whole number (else
/// `TypeError`) in the option's range (else `ValueError` in the table's words).
fn number_option(arg: &str, value: &Bound<'_, PyAny>, name: &str) -> PyResult<Setting> {
    let text = args::whole_number(value, arg)?.text;
    read_option(name, Some(&text), Some(arg))
}

/// Protocol options by name, with their values as text.
type Settings = Vec<(String, String)>;

/// What pickling keeps of an engine: its settings, whether it uses tablebases, and a
/// seeded engine's seed state (stream, game).
type Kept = (Settings, bool, Option<(u64, u64)>);

/// What the options set besides the engine's own settings.
struct Config {
    /// Lines of `analyse` when it is not given `multipv`.
    multipv: usize,
    limit_strength: bool,
    elo: u32,
}

impl PyEngine {
    /// The engine's settings as protocol options (names and values `configure`
    /// reads back), and a seeded engine's seed state.
    fn settings(&self) -> (Settings, Option<(u64, u64)>) {
        let engine = lock(&self.engine);
        let config = lock(&self.config);
        let o = &engine.options;
        let mut settings: Vec<(&str, String)> = vec![
            ("Hash", engine.hash_mb().to_string()),
            ("Threads", o.threads.to_string()),
            ("MultiPV", config.multipv.to_string()),
            ("Move Overhead", o.move_overhead_ms.to_string()),
            ("Skill Level", o.skill_level.to_string()),
            ("UCI_LimitStrength", config.limit_strength.to_string()),
            ("UCI_Elo", config.elo.to_string()),
            ("Eval", o.eval.name().to_string()),
            ("TablebaseProbeLimit", o.tb_probe_limit.to_string()),
            ("SearchParams", o.params.to_text()),
        ];
        if let Some(dir) = &lock(&self.tables).dir {
            settings.push(("TablebasePath", dir.to_string_lossy().into_owned()));
        }
        let seeds = engine.seed_state().map(|s| (s.stream, s.game));
        let settings = settings.into_iter().map(|(n, v)| (n.to_string(), v));
        (settings.collect(), seeds)
    }

    /// Applies one option's setting (as the `jungle` engine's session applies it).
    fn apply(&self, setting: Setting) -> PyResult<()> {
        let mut engine = lock(&self.engine);
        let mut config = lock(&self.config);
        match setting {
            Setting::Hash(mb) => engine
                .set_hash(mb)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
            Setting::Threads(n) => engine.options.threads = n,
            Setting::MultiPv(k) => config.multipv = k,
            Setting::MoveOverhead(ms) => engine.options.move_overhead_ms = ms,
            Setting::ClearHash => engine.clear_hash(),
            Setting::SkillLevel(level) => engine.options.skill_level = level,
            Setting::LimitStrength(on) => config.limit_strength = on,
            Setting::Elo(elo) => config.elo = elo,
            Setting::Eval(kind) => {
                if engine.options.eval != kind {
                    // The table's stored static scores belong to the other evaluation.
                    engine.options.eval = kind;
                    engine.clear_hash();
                }
            }
            Setting::TablebasePath(dir) => {
                let dir = dir.map(PathBuf::from);
                if let Some(dir) = &dir {
                    args::readable_dir(dir, "option TablebasePath")?;
                }
                let mut tables = lock(&self.tables);
                tables.dir = dir;
                // Built again, with the directory, by the next search.
                tables.rules = None;
                engine.tablebases = None;
            }
            Setting::TablebaseProbeLimit(n) => engine.options.tb_probe_limit = n,
            Setting::SearchParams(params) => engine.options.params = params,
            other => {
                return Err(PyValueError::new_err(format!(
                    "option {other:?} is not an Engine's"
                )))
            }
        }
        engine.options.limit_elo = config.limit_strength.then_some(config.elo);
        Ok(())
    }

    /// Runs one search of `game` with the GIL released; the reports it made are
    /// returned with the outcome.
    fn search(
        &self,
        py: Python<'_>,
        game: Game,
        limits: Limits,
        multipv: usize,
    ) -> PyResult<(SearchOutcome, Vec<SearchInfo>)> {
        let threads = py.detach(|| lock(&self.engine).options.threads);
        let shared = Arc::new(SharedState::new(threads));
        let work = || {
            let mut engine = lock(&self.engine);
            self.prepare_tables(&mut engine, &game);
            engine.options.multipv = multipv;
            *lock(&self.running) = Some(Arc::clone(&shared));
            let reports = Mutex::new(Vec::new());
            let report = |info: &SearchInfo| lock(&reports).push(info.clone());
            let outcome = engine.search(&game, &limits, &shared, &report);
            *lock(&self.running) = None;
            let reports = reports.into_inner().unwrap_or_else(|e| e.into_inner());
            (outcome, reports)
        };
        // Ctrl-C stops the search (it returns at once) and raises KeyboardInterrupt.
        let interrupt = || shared.stop.store(true, Ordering::Relaxed);
        interruptible(py, Some(&self.pool), work, interrupt)
    }

    /// Gives the engine the tables of the game's rules (none when they cannot be
    /// tabled or tables are off).
    fn prepare_tables(&self, engine: &mut Engine, game: &Game) {
        if !self.use_tablebases {
            return;
        }
        let rules = TbRules::for_rules(game.rules()).ok();
        let mut cache = lock(&self.tables);
        if cache.rules != rules || engine.tablebases.is_none() != rules.is_none() {
            let dir = cache.dir.clone();
            engine.tablebases = rules.map(|r| Arc::new(Tablebases::new(r, dir.clone())));
            cache.rules = rules;
        }
    }
}

/// The last line reported for each line number, best first, with the nodes, time
/// and speed of the whole search (the lines were reported at the end of their
/// iteration); from the outcome when the search reported none (a stop before depth
/// 1 completed).
fn final_lines(outcome: &SearchOutcome, reports: &[SearchInfo], multipv: usize) -> Vec<PyInfoLine> {
    let mut best: Vec<Option<PyInfoLine>> = vec![None; multipv];
    for info in reports {
        if (1..=multipv).contains(&info.multipv) {
            best[info.multipv - 1] = Some(PyInfoLine::of(info));
        }
    }
    let mut out: Vec<PyInfoLine> = best.into_iter().flatten().collect();
    if out.is_empty() {
        if let Some(m) = outcome.best {
            out.push(PyInfoLine {
                multipv: 1,
                depth: outcome.depth,
                seldepth: outcome.depth,
                score: PyScore::of(outcome.score, "exact"),
                nodes: 0,
                nps: 0,
                time: 0.0,
                tbhits: 0,
                pv: vec![PyMove(m)],
            });
        }
    }
    let secs = outcome.elapsed.as_secs_f64();
    for line in &mut out {
        line.nodes = outcome.nodes;
        line.time = secs;
        line.nps = (outcome.nodes as f64 / secs.max(1e-3)) as u64;
    }
    out
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (*, threads=None, hash_mb=None, elo=None, skill_level=None, eval=None,
        tablebases=None, options=None, seed=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        threads: Option<&Bound<'_, PyAny>>,
        hash_mb: Option<&Bound<'_, PyAny>>,
        elo: Option<&Bound<'_, PyAny>>,
        skill_level: Option<&Bound<'_, PyAny>>,
        eval: Option<&Bound<'_, PyAny>>,
        tablebases: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyEngine> {
        let seed = seed.map(|s| args::seed(s, "seed")).transpose()?;
        // Every value is read before the table is allocated.
        let mut settings = Vec::new();
        if let Some(n) = threads {
            settings.push(number_option("threads", n, "Threads")?);
        }
        let hash = match hash_mb {
            Some(mb) => number_option("hash_mb", mb, "Hash")?,
            None => Setting::Hash(table_default(OptionId::Hash) as usize),
        };
        if let Some(kind) = args::text_opt(eval, "eval")? {
            settings.push(read_option("Eval", Some(&kind), Some("eval"))?);
        }
        let tablebases = args::flag_opt(tablebases, "tablebases")?.unwrap_or(true);
        settings.extend(strength_settings(elo, skill_level)?);
        let Setting::Hash(mb) = hash else {
            return Err(PyRuntimeError::new_err("Hash read as another option"));
        };
        let mut engine = Engine::new(mb).map_err(|e| PyValueError::new_err(e.to_string()))?;
        engine.options.report = true;
        if let Some(seed) = seed {
            engine.seed(seed);
        }
        let this = PyEngine {
            engine: Mutex::new(engine),
            tables: Mutex::new(TableCache {
                rules: None,
                dir: None,
            }),
            use_tablebases: tablebases,
            running: Mutex::new(None),
            pool: search_pool()?,
            config: Mutex::new(Config {
                multipv: table_default(OptionId::MultiPv) as usize,
                limit_strength: false,
                elo: table_default(OptionId::Elo) as u32,
            }),
        };
        for setting in settings {
            this.apply(setting)?;
        }
        if let Some(options) = options {
            this.configure(py, options)?;
        }
        Ok(this)
    }

    /// Sets options by their protocol names, as `setoption` does in the `jungle`
    /// engine and `EngineProcess.configure` out of process: `{"Hash": 128,
    /// "Skill Level": 5, "Clear Hash": None}`. The options are the engine table's
    /// (`Hash`, `Threads`, `MultiPV` (the lines of `analyse` without `multipv`),
    /// `Move Overhead`, `Clear Hash`, `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`,
    /// `Eval`, `TablebasePath`, `TablebaseProbeLimit`, `SearchParams`); a value out
    /// of range, of the wrong kind, or an unknown option raises `ValueError` in the
    /// engine's words, and the options after it are not set.
    fn configure(&self, py: Python<'_>, options: &Bound<'_, PyDict>) -> PyResult<()> {
        for (name, value) in options.iter() {
            let name: String = name.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "option names are str, not {}",
                    args::type_name(&name)
                ))
            })?;
            let text = option_text(&value, &name)?;
            let setting = read_option(&name, text.as_deref(), None)?;
            py.detach(|| self.apply(setting))?;
        }
        Ok(())
    }

    /// The engine's number of search threads.
    #[getter]
    fn threads(&self, py: Python<'_>) -> usize {
        py.detach(|| lock(&self.engine).options.threads)
    }

    /// The size of the transposition table in MB.
    #[getter]
    fn hash_mb(&self, py: Python<'_>) -> usize {
        py.detach(|| lock(&self.engine).hash_mb())
    }

    /// Weakens the engine to a measured level: `elo` from `jungle.ELO_MIN` to
    /// `jungle.ELO_MAX` (the top is full strength; the rows of `jungle.LEVELS`), or
    /// `skill_level` from 0 to 20; neither: full strength.
    #[pyo3(signature = (elo=None, skill_level=None))]
    fn set_strength(
        &self,
        py: Python<'_>,
        elo: Option<&Bound<'_, PyAny>>,
        skill_level: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut settings = strength_settings(elo, skill_level)?;
        if elo.is_none() {
            settings.push(Setting::LimitStrength(false));
        }
        if skill_level.is_none() {
            settings.push(Setting::SkillLevel(
                table_default(OptionId::SkillLevel) as u32
            ));
        }
        py.detach(|| settings.into_iter().try_for_each(|s| self.apply(s)))
    }

    /// Searches `board` and returns its lines (`InfoLine`, best first): one limit or
    /// more of `depth` (1–124), `nodes`, `movetime` (seconds); `multipv` lines (1–32;
    /// default the `MultiPV` option, 1). A finished game raises `ValueError`, as in
    /// `play`.
    #[pyo3(signature = (board, *, depth=None, nodes=None, movetime=None, multipv=None))]
    fn analyse(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        movetime: Option<&Bound<'_, PyAny>>,
        multipv: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyInfoLine>> {
        // A copy: the board is free for other threads while the search runs.
        let game = args::board(board, "board")?.game.clone();
        let limits = LimitArgs {
            depth,
            nodes,
            movetime,
            ..LimitArgs::default()
        }
        .limits()?;
        let multipv = match multipv {
            Some(k) => match number_option("multipv", k, "MultiPV")? {
                Setting::MultiPv(k) => k,
                _ => return Err(PyRuntimeError::new_err("MultiPV read as another option")),
            },
            None => lock(&self.config).multipv,
        };
        refuse_finished(&game)?;
        let (outcome, lines) = self.search(py, game, limits, multipv)?;
        Ok(final_lines(&outcome, &lines, multipv))
    }

    /// Chooses a move for `board`: a limit of `depth`, `nodes`, `movetime` (seconds),
    /// or the clocks `clock=(red, blue)` in seconds with `increment=(red, blue)`.
    /// At a weakened strength the move is drawn as the level plays. A finished game
    /// raises `ValueError`.
    #[pyo3(signature = (board, *, depth=None, nodes=None, movetime=None, clock=None, increment=None))]
    #[allow(clippy::too_many_arguments)]
    fn play(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        movetime: Option<&Bound<'_, PyAny>>,
        clock: Option<&Bound<'_, PyAny>>,
        increment: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPlayResult> {
        let game = args::board(board, "board")?.game.clone();
        let limits = LimitArgs {
            depth,
            nodes,
            movetime,
            clock,
            increment,
        }
        .limits()?;
        refuse_finished(&game)?;
        let (outcome, _) = self.search(py, game, limits, 1)?;
        let mv = outcome
            .best
            .ok_or_else(|| PyRuntimeError::new_err("the search found no move"))?;
        Ok(PyPlayResult {
            mv: PyMove(mv),
            ponder: outcome.ponder.map(PyMove),
            score: Some(PyScore::of(outcome.score, "exact")),
            depth: outcome.depth,
            nodes: outcome.nodes,
            time: outcome.elapsed.as_secs_f64(),
        })
    }

    /// Draws the random choices of weakened play (`elo`, `skill_level`) from a stream
    /// seeded with `seed` (a whole number from 0 to 2**64 - 1) instead of the clock,
    /// and the game's level row at once: the same seed, positions and limits on one
    /// thread, the same moves. `new_game()` draws the next game's row from the stream.
    fn seed(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = args::seed(seed, "seed")?;
        py.detach(|| lock(&self.engine).seed(seed));
        Ok(())
    }

    /// Forgets what earlier searches learned (hash table, move-ordering history) but
    /// stays in the same game (its level row kept): the next search's move then
    /// depends only on the position, the limits and the seed.
    fn forget(&self, py: Python<'_>) {
        py.detach(|| lock(&self.engine).forget());
    }

    /// Pickling (and `copy.deepcopy`) keeps the settings and a seeded engine's random
    /// stream; the copy's hash table starts empty, as after `forget()`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Kept)> {
        let this = slf.get();
        let (settings, seeds) = slf.py().detach(|| this.settings());
        let restore = slf.get_type().getattr("_restore")?;
        Ok((restore, (settings, this.use_tablebases, seeds)))
    }

    /// An engine from what `__reduce__` keeps.
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        settings: Vec<(String, String)>,
        tablebases: bool,
        seeds: Option<(u64, u64)>,
    ) -> PyResult<PyEngine> {
        let options = PyDict::new(py);
        let mut hash = None;
        for (name, value) in &settings {
            match name.as_str() {
                // The table is allocated once, at its size.
                "Hash" => hash = Some(value.parse::<u64>().unwrap_or(1).into_pyobject(py)?),
                _ => options.set_item(name, value)?,
            }
        }
        let hash = hash.map(|h| h.into_any());
        let tables = PyBool::new(py, tablebases).to_owned().into_any();
        let engine = PyEngine::new(
            py,
            None,
            hash.as_ref(),
            None,
            None,
            None,
            Some(&tables),
            Some(&options),
            None,
        )?;
        if let Some((stream, game)) = seeds {
            lock(&engine.engine).set_seed_state(SeedState { stream, game });
        }
        Ok(engine)
    }

    /// Stops the running search (from another thread); it returns what it has.
    fn stop(&self) {
        if let Some(shared) = lock(&self.running).as_ref() {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Forgets what earlier searches learned (hash table, move-ordering history).
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| lock(&self.engine).clear());
    }

    fn __repr__(&self) -> String {
        let engine = lock(&self.engine);
        format!(
            "Engine(threads={}, hash_mb={}, eval='{}')",
            engine.options.threads,
            engine.hash_mb(),
            engine.options.eval.name()
        )
    }
}

/// The protocol's `go` line of a search's limits (`depth`, `nodes`, `movetime`,
/// `clock=(red, blue)` and `increment=(red, blue)`, times in seconds), checked as
/// `Engine.analyse` and `Engine.play` check them and written by the core's one writer
/// of `go` lines: what `jungle.engine.EngineProcess` sends.
#[pyfunction]
#[pyo3(signature = (*, depth=None, nodes=None, movetime=None, clock=None, increment=None))]
pub fn go_line(
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    movetime: Option<&Bound<'_, PyAny>>,
    clock: Option<&Bound<'_, PyAny>>,
    increment: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let limits = LimitArgs {
        depth,
        nodes,
        movetime,
        clock,
        increment,
    }
    .limits()?;
    Ok(command::go_line(&limits))
}

/// The protocol's `setoption` line giving option `name` the value `value` (text),
/// written by the core's one writer of `setoption` lines.
#[pyfunction]
pub fn setoption_line(name: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(command::setoption_line(
        &args::text(name, "name")?,
        &args::text(value, "value")?,
    ))
}

/// The protocol's `position` line of a board's game (its start position and moves),
/// written by the core's one writer of `position` lines.
#[pyfunction]
pub fn position_line(board: &Bound<'_, PyAny>) -> PyResult<String> {
    let board = args::board(board, "board")?;
    Ok(position::line(
        board.game.start_position(),
        board.game.moves(),
    ))
}
