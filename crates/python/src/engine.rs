//! `jungle.Engine`: the engine in process. A search runs with the GIL released, so
//! other Python threads run meanwhile (and one of them may `stop()` it).

use crate::board::{PyBoard, PyMove};
use crate::info::{PyInfoLine, PyScore};
use crate::wait::interruptible;
use jungle_core::game::Game;
use jungle_core::nnue::EvalKind;
use jungle_core::search::search::SharedState;
use jungle_core::search::strength::{ELO_MAX, ELO_MIN};
use jungle_core::search::{Engine, Limits, SearchInfo, SearchOutcome};
use jungle_core::tb::{Tablebases, TbRules};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Most search threads an `Engine` takes.
const MAX_THREADS: usize = 256;

/// What `Engine.play` chose: the `move`, the `ponder` move it expects in reply, and
/// the search's `score`, `depth`, `nodes` and `time` (seconds).
#[pyclass(module = "jungle", name = "PlayResult", frozen, get_all)]
pub struct PyPlayResult {
    #[pyo3(name = "move")]
    mv: PyMove,
    ponder: Option<PyMove>,
    score: Option<PyScore>,
    depth: i32,
    nodes: u64,
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
}

/// The engine: `Engine(threads=1, hash_mb=16, elo=None, skill_level=None,
/// eval="nnue", tablebases=True)`. `elo` (`jungle.ELO_MIN` to `jungle.ELO_MAX`) or
/// `skill_level` (0–20) weaken it to a measured strength level; `tablebases` builds
/// the tables of up to 3 animals in memory on first need, as the `jungle` engine does.
#[pyclass(module = "jungle", name = "Engine", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    tables: Mutex<TableCache>,
    use_tablebases: bool,
    /// The running search's shared state (for `stop`).
    running: Mutex<Option<Arc<SharedState>>>,
    /// The thread the main search runs on, while the caller's waits for Ctrl-C.
    pool: ThreadPool,
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
struct LimitArgs {
    depth: Option<i64>,
    nodes: Option<i64>,
    movetime: Option<f64>,
    clock: Option<(f64, f64)>,
    increment: Option<(f64, f64)>,
}

impl LimitArgs {
    fn limits(&self) -> PyResult<Limits> {
        let mut limits = Limits::default();
        if let Some(d) = self.depth {
            limits.depth = Some(
                i32::try_from(d)
                    .ok()
                    .filter(|d| (1..=100).contains(d))
                    .ok_or_else(|| {
                        PyValueError::new_err(format!("depth must be from 1 to 100, not {d}"))
                    })?,
            );
        }
        if let Some(n) = self.nodes {
            limits.nodes = Some(u64::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
                PyValueError::new_err(format!("nodes must be at least 1, not {n}"))
            })?);
        }
        if let Some(t) = self.movetime {
            limits.movetime = Some(millis("movetime", t)?);
        }
        if let Some((red, blue)) = self.clock {
            limits.time = [Some(millis("clock", red)?), Some(millis("clock", blue)?)];
            let (red_inc, blue_inc) = self.increment.unwrap_or((0.0, 0.0));
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

impl PyEngine {
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
            engine.tablebases = rules.map(|r| Arc::new(Tablebases::new(r, None)));
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
    #[pyo3(signature = (*, threads=1, hash_mb=16, elo=None, skill_level=None, eval="nnue", tablebases=true))]
    fn new(
        threads: i64,
        hash_mb: i64,
        elo: Option<i64>,
        skill_level: Option<i64>,
        eval: &str,
        tablebases: bool,
    ) -> PyResult<PyEngine> {
        let threads = usize::try_from(threads)
            .ok()
            .filter(|t| (1..=MAX_THREADS).contains(t))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "threads must be from 1 to {MAX_THREADS}, not {threads}"
                ))
            })?;
        let hash = usize::try_from(hash_mb)
            .ok()
            .filter(|&mb| (1..=1 << 20).contains(&mb))
            .ok_or_else(|| {
                PyValueError::new_err(format!("hash_mb must be from 1 to 1048576, not {hash_mb}"))
            })?;
        let eval = EvalKind::from_name(eval).ok_or_else(|| {
            PyValueError::new_err(format!(
                "eval must be 'nnue' or 'classical', not '{}'",
                jungle_core::text::quote(eval)
            ))
        })?;
        let mut engine = Engine::new(hash).map_err(|e| PyValueError::new_err(e.to_string()))?;
        engine.options.threads = threads;
        engine.options.eval = eval;
        engine.options.report = true;
        let this = PyEngine {
            engine: Mutex::new(engine),
            tables: Mutex::new(TableCache { rules: None }),
            use_tablebases: tablebases,
            running: Mutex::new(None),
            pool: search_pool()?,
        };
        this.set_strength(elo, skill_level)?;
        Ok(this)
    }

    /// Weakens the engine to a measured level: `elo` from `jungle.ELO_MIN` to
    /// `jungle.ELO_MAX` (the top is full strength), or `skill_level` from 0 to 20;
    /// neither: full strength.
    #[pyo3(signature = (elo=None, skill_level=None))]
    fn set_strength(&self, elo: Option<i64>, skill_level: Option<i64>) -> PyResult<()> {
        let mut engine = lock(&self.engine);
        if elo.is_some() && skill_level.is_some() {
            return Err(PyValueError::new_err("give elo or skill_level, not both"));
        }
        let elo = elo
            .map(|e| {
                u32::try_from(e)
                    .ok()
                    .filter(|e| (ELO_MIN..=ELO_MAX).contains(e))
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "elo must be from {ELO_MIN} to {ELO_MAX}, not {e}"
                        ))
                    })
            })
            .transpose()?;
        let skill = skill_level
            .map(|s| {
                u32::try_from(s).ok().filter(|s| *s <= 20).ok_or_else(|| {
                    PyValueError::new_err(format!("skill_level must be from 0 to 20, not {s}"))
                })
            })
            .transpose()?;
        engine.options.limit_elo = elo;
        engine.options.skill_level = skill.unwrap_or(20);
        Ok(())
    }

    /// Searches `board` and returns its lines (`InfoLine`, best first): one limit or
    /// more of `depth`, `nodes`, `movetime` (seconds); `multipv` lines.
    #[pyo3(signature = (board, *, depth=None, nodes=None, movetime=None, multipv=1))]
    fn analyse(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        depth: Option<i64>,
        nodes: Option<i64>,
        movetime: Option<f64>,
        multipv: i64,
    ) -> PyResult<Vec<PyInfoLine>> {
        let limits = LimitArgs {
            depth,
            nodes,
            movetime,
            ..LimitArgs::default()
        }
        .limits()?;
        let multipv = usize::try_from(multipv)
            .ok()
            .filter(|k| (1..=64).contains(k))
            .ok_or_else(|| {
                PyValueError::new_err(format!("multipv must be from 1 to 64, not {multipv}"))
            })?;
        let (outcome, lines) = self.search(py, board.game.clone(), limits, multipv)?;
        Ok(final_lines(&outcome, &lines, multipv))
    }

    /// Chooses a move for `board`: a limit of `depth`, `nodes`, `movetime` (seconds),
    /// or the clocks `clock=(red, blue)` in seconds with `increment=(red, blue)`.
    /// At a weakened strength the move is drawn as the level plays.
    #[pyo3(signature = (board, *, depth=None, nodes=None, movetime=None, clock=None, increment=None))]
    #[allow(clippy::too_many_arguments)]
    fn play(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        depth: Option<i64>,
        nodes: Option<i64>,
        movetime: Option<f64>,
        clock: Option<(f64, f64)>,
        increment: Option<(f64, f64)>,
    ) -> PyResult<PyPlayResult> {
        let limits = LimitArgs {
            depth,
            nodes,
            movetime,
            clock,
            increment,
        }
        .limits()?;
        if board.game.result() != jungle_core::game::GameResult::Ongoing {
            return Err(PyValueError::new_err(format!(
                "the game is over: {}",
                board.game.result()
            )));
        }
        let (outcome, _) = self.search(py, board.game.clone(), limits, 1)?;
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
