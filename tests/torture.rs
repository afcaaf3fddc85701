//! Command-sequence torture: long random sequences of valid and invalid commands sent
//! to the real binary, with random delays, checking after every step what the protocol
//! promises:
//!
//! - exactly one `bestmove` per accepted `go`, legal in the game that was searched (and
//!   one of its `searchmoves`), never before `stop`/`ponderhit` for `go infinite` /
//!   `go ponder`, and `bestmove 0000` only when the game is over;
//! - every `info` line well formed, with a legal pv;
//! - every refused command answered by exactly one `info string error:` line, with the
//!   state unchanged (`setoption`, `ucinewgame` and `go` are refused while searching);
//! - `readyok` within 100 ms, `bestmove` within 50 ms of `stop` (and of `quit`);
//! - resident memory (VmRSS from /proc) within the Hash setting plus a fixed margin;
//! - the process never dies, and `quit` (also in the middle of a search) or the end of
//!   input ends it with status 0 after the last `bestmove`.
//!
//! A sequence is one engine process from start to `quit` or end of input. The command
//! choices follow from the sequence's seed (printed on failure; the timing of the
//! engine's answers can still differ between runs). The short run is part of
//! `cargo test`; the long one is
//! `TORTURE_SEQUENCES=2000 cargo test --release --test torture -- --ignored --nocapture`
//! (`TORTURE_SEED` sets the first seed, `TORTURE_STEPS` the steps per sequence).
//!
//! Latency on a shared machine: a late answer counts against the engine only for the
//! part of the wait in which the threads it passes through (the engine's command
//! reader, for `stop` also its search threads, and this harness's stdout reader) were
//! not waiting for a CPU. The time they spent runnable but not running is read from
//! `/proc/<pid>/task/<tid>/schedstat` before and after, and subtracted. Both the raw
//! and the adjusted worst cases are reported; an answer later than 10 s always fails
//! (a hang).

mod protocol_common;

use jungle::board::{Move, Position};
use jungle::game::{Game, GameResult, Rules, Variant};
use jungle::protocol::command;
use jungle::with_move_rules;
use protocol_common::{parse_info, Engine};
use std::collections::HashMap;
use std::time::{Duration, Instant};

const READYOK_BOUND: Duration = Duration::from_millis(100);
const STOP_BOUND: Duration = Duration::from_millis(50);
/// Any answer later than this is a failure whatever the machine's load (a hang).
const HARD_BOUND: Duration = Duration::from_secs(10);
/// Memory allowed beyond the hash table: the binary, stacks, buffers, allocator slack.
const MEMORY_MARGIN_MB: u64 = 64;

// ---------------------------------------------------------------------------------
// Random choices
// ---------------------------------------------------------------------------------

/// The core's generator with the choices this test makes: every choice of a
/// sequence follows from its seed.
struct Rng(jungle::rng::Rng);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n.max(1)
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
    /// An index into `weights`, with probability proportional to its weight.
    fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut r = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }
}

// ---------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Stats {
    sequences: u64,
    commands: u64,
    gos: u64,
    bestmoves: u64,
    errors: u64,
    stops_timed: u64,
    readyoks_timed: u64,
    quits_mid_search: u64,
    eofs: u64,
    readyok_worst: Duration,
    readyok_worst_adjusted: Duration,
    stop_worst: Duration,
    stop_worst_adjusted: Duration,
    /// Answers over the bound that the CPU wait of the engine explained.
    excused: u64,
    /// Worst VmRSS minus the Hash setting, in MB.
    rss_over_hash_worst_mb: i64,
    rss_worst_mb: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.sequences += o.sequences;
        self.commands += o.commands;
        self.gos += o.gos;
        self.bestmoves += o.bestmoves;
        self.errors += o.errors;
        self.stops_timed += o.stops_timed;
        self.readyoks_timed += o.readyoks_timed;
        self.quits_mid_search += o.quits_mid_search;
        self.eofs += o.eofs;
        self.readyok_worst = self.readyok_worst.max(o.readyok_worst);
        self.readyok_worst_adjusted = self.readyok_worst_adjusted.max(o.readyok_worst_adjusted);
        self.stop_worst = self.stop_worst.max(o.stop_worst);
        self.stop_worst_adjusted = self.stop_worst_adjusted.max(o.stop_worst_adjusted);
        self.excused += o.excused;
        self.rss_over_hash_worst_mb = self.rss_over_hash_worst_mb.max(o.rss_over_hash_worst_mb);
        self.rss_worst_mb = self.rss_worst_mb.max(o.rss_worst_mb);
    }

    fn report(&self) -> String {
        format!(
            "{} sequences, {} commands, {} go / {} bestmove, {} errors answered, \
             {} quit mid-search, {} end of input; readyok worst {:?} (adjusted {:?}) over {}, \
             bestmove after stop worst {:?} (adjusted {:?}) over {}, {} late answers excused \
             by CPU wait; VmRSS worst {} MB, at most {} MB over the Hash setting",
            self.sequences,
            self.commands,
            self.gos,
            self.bestmoves,
            self.errors,
            self.quits_mid_search,
            self.eofs,
            self.readyok_worst,
            self.readyok_worst_adjusted,
            self.readyoks_timed,
            self.stop_worst,
            self.stop_worst_adjusted,
            self.stops_timed,
            self.excused,
            self.rss_worst_mb,
            self.rss_over_hash_worst_mb
        )
    }
}

// ---------------------------------------------------------------------------------
// CPU wait of the engine's threads (schedstat)
// ---------------------------------------------------------------------------------

/// Nanoseconds a thread has spent runnable but waiting for a CPU (the second field of
/// its schedstat).
fn run_delay(path: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU wait of the threads an answer passes through: the engine's (by thread id)
/// and this harness's stdout reader.
#[derive(Clone, Default)]
struct CpuWait {
    engine: HashMap<u32, u64>,
    reader: u64,
}

/// Which engine threads an answer needs.
#[derive(Clone, Copy)]
enum AnswerPath {
    /// `readyok`: the thread that reads commands (the process's first thread).
    Reader,
    /// `bestmove` after `stop`: the command reader, then the search threads, which
    /// stop in parallel (the slowest of them counts).
    ReaderThenSearch,
}

impl CpuWait {
    fn read(pid: u32, reader_tid: Option<u32>) -> CpuWait {
        let mut engine = HashMap::new();
        if let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for entry in dir.flatten() {
                let Some(tid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
                    continue;
                };
                if let Some(ns) = run_delay(&format!("/proc/{pid}/task/{tid}/schedstat")) {
                    engine.insert(tid, ns);
                }
            }
        }
        let reader = reader_tid
            .and_then(|tid| run_delay(&format!("/proc/self/task/{tid}/schedstat")))
            .unwrap_or(0);
        CpuWait { engine, reader }
    }

    /// Takes a newer reading; threads that have exited keep their last one.
    fn update(&mut self, newer: CpuWait) {
        self.engine.extend(newer.engine);
        self.reader = newer.reader;
    }

    /// How long the threads on `path` waited for a CPU between `self` and `after`.
    fn until(&self, after: &CpuWait, pid: u32, path: AnswerPath) -> Duration {
        let delta =
            |tid: &u32, ns: u64| ns.saturating_sub(self.engine.get(tid).copied().unwrap_or(0));
        let main = after.engine.get(&pid).map_or(0, |&ns| delta(&pid, ns));
        let search = match path {
            AnswerPath::Reader => 0,
            AnswerPath::ReaderThenSearch => after
                .engine
                .iter()
                .filter(|(tid, _)| **tid != pid)
                .map(|(tid, &ns)| delta(tid, ns))
                .max()
                .unwrap_or(0),
        };
        let reader = after.reader.saturating_sub(self.reader);
        Duration::from_nanos(main + search + reader)
    }

    /// Each thread's wait since `self`, for failure messages.
    fn describe(&self, after: &CpuWait) -> String {
        let mut parts: Vec<String> = after
            .engine
            .iter()
            .map(|(tid, &ns)| {
                let d = ns.saturating_sub(self.engine.get(tid).copied().unwrap_or(0));
                format!("engine thread {tid}: {:.1} ms", d as f64 / 1e6)
            })
            .collect();
        parts.sort();
        parts.push(format!(
            "harness reader: {:.1} ms",
            after.reader.saturating_sub(self.reader) as f64 / 1e6
        ));
        parts.join(", ")
    }
}

// ---------------------------------------------------------------------------------
// The model of the engine's state
// ---------------------------------------------------------------------------------

struct Search {
    game: Game,
    searchmoves: Vec<String>,
    /// `bestmove` is held back until `stop` (infinite) or `ponderhit`/`stop` (ponder).
    held: bool,
    infinite: bool,
    ponder: bool,
    /// When `stop` (or `quit`) was sent, and the CPU wait then.
    stop_sent: Option<(Instant, CpuWait)>,
}

/// What the harness expects of the lines before the next `readyok`.
#[derive(Default)]
struct Expect {
    errors: u64,
    /// Commands whose answer is free text (uci, d, eval, go perft) and the line that
    /// ends each answer.
    text_answers: Vec<&'static str>,
    /// Table work (Hash, Clear Hash, ucinewgame) may delay `readyok`.
    slow: bool,
}

struct Torture {
    e: Engine,
    rng: Rng,
    seed: u64,
    pid: u32,
    game: Game,
    rules: Rules,
    hash_mb: u64,
    search: Option<Search>,
    expect: Expect,
    text_seen: Vec<String>,
    errors_seen: u64,
    /// Figures of this sequence.
    stats: Stats,
    /// The last CPU-wait reading of every engine thread seen (see `cpu_wait_now`).
    cpu_seen: CpuWait,
}

/// Position strings for `position fen`: some valid only when dogs swim, some finished.
const FENS: [&str; 8] = [
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1",
    "l5t/1d3c1/2p1w1e/1r5/3L3/4R2/E1W1P2/1C3D1/T6 r 0 1",
    "l5t/1d3c1/r1p1w1e/7/7/2D4/E1W1P1R/1C5/T5L b 0 1",
    "l1E3t/1d1W1c1/r1p3e/7/7/7/4P1R/1C1w1D1/T5L r 12 20",
    "7/3R3/7/7/7/7/7/3r3/7 r 0 1",
    "6t/7/7/7/7/7/7/7/L6 b 97 80",
    "3R3/7/7/7/7/7/7/7/6l b",
    "rC5/D6/7/7/7/7/7/7/6L b",
];

/// Lines that are not commands, or malformed ones.
const GARBAGE: [&str; 24] = [
    "foo",
    "uci extra",
    "go depth",
    "go depth x",
    "go depth 0",
    "go nodes -5",
    "go wtime",
    "go frobnicate",
    "go searchmoves",
    "go perft",
    "position",
    "position fen",
    "position start",
    "position startpos a1a2",
    "position fen 7/7/7/7/7/7/7/7/7 r",
    "setoption",
    "setoption Hash 1",
    "setoption name",
    "setoption name value 3",
    "bench x",
    "isready now",
    "STOP",
    "\u{1b}[2J",
    "go movetime 99999999999999999999",
];

impl Torture {
    fn start(seed: u64) -> Torture {
        let e = Engine::start(&format!("torture seed {seed}"));
        let pid = e.pid();
        let mut t = Torture {
            e,
            rng: Rng(jungle::rng::Rng::new(seed)),
            seed,
            pid,
            game: Game::startpos(),
            rules: Rules::default(),
            hash_mb: 64,
            search: None,
            expect: Expect::default(),
            text_seen: Vec::new(),
            errors_seen: 0,
            stats: Stats {
                sequences: 1,
                ..Stats::default()
            },
            cpu_seen: CpuWait::default(),
        };
        let (hello, ok) = if t.rng.chance(50) {
            ("uci", "uciok")
        } else {
            ("jcei", "jceiok")
        };
        t.send(hello);
        t.e.read_until(ok, protocol_common::T_REPLY);
        t
    }

    fn fail(&self, msg: &str) -> ! {
        self.e.fail(&format!(
            "seed {}: {msg}\n(again: TORTURE_SEED={} TORTURE_SEQUENCES=1 cargo test --release \
             --test torture -- --ignored --nocapture)",
            self.seed, self.seed
        ))
    }

    fn send(&mut self, line: &str) {
        self.e.send(line);
        self.stats.commands += 1;
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.e.send_bytes(bytes);
        self.stats.commands += 1;
    }

    /// The CPU wait of every thread seen so far. Threads that have exited keep their
    /// last reading: lines are read in short polls that take readings too, so a
    /// thread's wait is known up to a few ms before it ended.
    fn cpu_wait_now(&mut self) -> CpuWait {
        let now = CpuWait::read(self.pid, self.e.reader_tid());
        self.cpu_seen.update(now);
        self.cpu_seen.clone()
    }

    /// Records a latency; fails if it is over `bound` once the CPU wait of the threads
    /// on the answer's path since `before` is taken off, or over the hard bound at all.
    fn time_answer(
        &mut self,
        what: &str,
        latency: Duration,
        before: &CpuWait,
        path: AnswerPath,
        bound: Duration,
    ) -> Duration {
        let after = self.cpu_wait_now();
        let adjusted = latency.saturating_sub(before.until(&after, self.pid, path));
        if latency > bound && adjusted <= bound {
            self.stats.excused += 1;
        }
        if adjusted > bound || latency > HARD_BOUND {
            self.fail(&format!(
                "{what} came after {latency:?} ({adjusted:?} without the CPU wait; \
                 CPU wait per thread: {}); the bound is {bound:?}",
                before.describe(&after)
            ));
        }
        adjusted
    }

    // -- lines from the engine --------------------------------------------------

    /// The next line and its arrival time, reading the threads' CPU wait every 2 ms
    /// meanwhile; fails after `timeout`.
    fn next(&mut self, timeout: Duration, waiting_for: &str) -> (String, Instant) {
        let deadline = Instant::now() + timeout;
        loop {
            self.cpu_wait_now();
            let left = deadline.saturating_duration_since(Instant::now());
            if let Some(line) = self.e.next_line(left.min(Duration::from_millis(2))) {
                return (line, self.e.last_arrival.unwrap_or_else(Instant::now));
            }
            if left.is_zero() {
                self.fail(&format!("no {waiting_for} within {timeout:?}"));
            }
        }
    }

    /// Checks one line from the engine against the model.
    fn take(&mut self, line: &str, arrival: Instant) {
        if line.starts_with("bestmove") {
            self.on_bestmove(line, arrival);
        } else if line.starts_with("info string error:") {
            self.errors_seen += 1;
        } else if line.starts_with("info string") {
            // Other messages carry no promise.
        } else if line.starts_with("info ") {
            self.check_info(line);
        } else if line == "readyok" {
            self.fail("readyok without isready");
        } else if self.expect.text_answers.is_empty() {
            self.fail(&format!("unexpected line {line:?}"));
        } else {
            self.text_seen.push(line.to_string());
        }
    }

    /// An `info` line belongs to the running search and its pv is legal there.
    fn check_info(&self, line: &str) {
        let Some(search) = &self.search else {
            self.fail(&format!("info line with no search running: {line:?}"));
        };
        let info = parse_info(line).unwrap_or_else(|e| self.fail(&format!("{e}: {line:?}")));
        let moves = search.game.rules().moves;
        let mut p = *search.game.position();
        for m in &info.pv {
            match with_move_rules!(moves, R => p.parse_move_with::<R>(m)) {
                Ok(mv) => p.play(mv),
                Err(e) => self.fail(&format!("illegal pv move {m} in {line:?}: {e}")),
            }
        }
    }

    fn on_bestmove(&mut self, line: &str, arrival: Instant) {
        let Some(search) = self.search.take() else {
            self.fail(&format!(
                "{line:?} with no search running (two for one go?)"
            ));
        };
        if search.held && search.stop_sent.is_none() {
            self.fail(&format!(
                "{line:?} before stop for go {}",
                if search.infinite {
                    "infinite"
                } else {
                    "ponder"
                }
            ));
        }
        self.stats.bestmoves += 1;
        check_bestmove(line, &search).unwrap_or_else(|e| self.fail(&e));
        if let Some((sent, before)) = search.stop_sent {
            let latency = arrival.saturating_duration_since(sent);
            let adjusted = self.time_answer(
                "bestmove after stop",
                latency,
                &before,
                AnswerPath::ReaderThenSearch,
                STOP_BOUND,
            );
            self.stats.stops_timed += 1;
            self.stats.stop_worst = self.stats.stop_worst.max(latency);
            self.stats.stop_worst_adjusted = self.stats.stop_worst_adjusted.max(adjusted);
        }
    }

    /// Reads lines until the running search's `bestmove` (after stop or quit).
    fn await_bestmove(&mut self) {
        let deadline = Instant::now() + HARD_BOUND;
        while self.search.is_some() {
            let left = deadline.saturating_duration_since(Instant::now());
            let (line, arrival) = self.next(left, "bestmove after stop");
            self.take(&line, arrival);
        }
    }

    /// Reads lines up to `readyok` (checking each); returns its arrival.
    fn await_readyok(&mut self) -> Instant {
        let deadline = Instant::now() + HARD_BOUND;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (line, arrival) = self.next(left, "readyok");
            if line == "readyok" {
                return arrival;
            }
            self.take(&line, arrival);
        }
    }

    /// `isready`, then every line up to `readyok`, checked: the errors and answers
    /// must be those the commands since the last sync call for; then the memory.
    fn sync(&mut self) {
        let before = self.cpu_wait_now();
        self.send("isready");
        let sent = Instant::now();
        let arrival = self.await_readyok();
        if !self.expect.slow {
            let latency = arrival.saturating_duration_since(sent);
            let adjusted = self.time_answer(
                "readyok",
                latency,
                &before,
                AnswerPath::Reader,
                READYOK_BOUND,
            );
            self.stats.readyoks_timed += 1;
            self.stats.readyok_worst = self.stats.readyok_worst.max(latency);
            self.stats.readyok_worst_adjusted = self.stats.readyok_worst_adjusted.max(adjusted);
        }
        if self.errors_seen != self.expect.errors {
            self.fail(&format!(
                "expected {} error line(s) since the last isready, got {}",
                self.expect.errors, self.errors_seen
            ));
        }
        for end in &self.expect.text_answers {
            if !self.text_seen.iter().any(|l| l.starts_with(end)) {
                self.fail(&format!("an answer ending in {end:?} is missing"));
            }
        }
        self.stats.errors += self.errors_seen;
        self.errors_seen = 0;
        self.text_seen.clear();
        self.expect = Expect::default();
        self.check_memory();
    }

    fn check_memory(&mut self) {
        let Some(mb) = rss_mb(self.pid) else {
            return;
        };
        self.stats.rss_worst_mb = self.stats.rss_worst_mb.max(mb);
        self.stats.rss_over_hash_worst_mb = self
            .stats
            .rss_over_hash_worst_mb
            .max(mb as i64 - self.hash_mb as i64);
        if mb > self.hash_mb + MEMORY_MARGIN_MB {
            self.fail(&format!(
                "VmRSS {mb} MB with Hash {} MB (margin {MEMORY_MARGIN_MB} MB)",
                self.hash_mb
            ));
        }
    }

    // -- commands ------------------------------------------------------------

    /// One step: one to three commands (with random pauses), then `isready`;
    /// false once the process has ended.
    fn step(&mut self) -> bool {
        for _ in 0..self.rng.range(1, 3) {
            if self.rng.chance(30) {
                std::thread::sleep(Duration::from_millis(self.rng.below(15)));
            }
            if !self.command() {
                return false;
            }
        }
        self.sync();
        true
    }

    /// Sends one command and notes what it should answer; false after `quit` or the
    /// end of input. Commands whose answer depends on whether a search has just ended
    /// (`go`, `setoption`, `ucinewgame` during a search that may end by itself) are
    /// sent only when the answer is certain.
    fn command(&mut self) -> bool {
        match &self.search {
            None => match self.rng.weighted(&[18, 24, 12, 4, 4, 10, 5, 4, 1, 1, 2]) {
                0 => self.position(),
                1 => self.go(),
                2 => self.setoption(),
                3 => self.newgame(),
                4 => {
                    let line = if self.rng.chance(50) {
                        "stop"
                    } else {
                        "ponderhit"
                    };
                    self.send(line);
                }
                5 => self.garbage(),
                6 => self.text_command(true),
                7 => self.isready_now(),
                8 => return self.end(true),
                9 => return self.end(false),
                _ => self.pause(),
            },
            Some(s) if s.held => {
                let ponderhit = if s.ponder { 12 } else { 2 };
                match self
                    .rng
                    .weighted(&[25, ponderhit, 8, 8, 3, 4, 8, 8, 12, 2, 1, 1])
                {
                    0 => self.stop(),
                    1 => self.ponderhit(),
                    2 => self.refused(REFUSED_SETOPTIONS),
                    3 => self.refused(&["go depth 3", "go infinite", "go perft 2", "go"]),
                    4 => self.refused(&["ucinewgame"]),
                    5 => self.isready_now(),
                    6 => self.position(),
                    7 => self.garbage(),
                    8 => self.pause(),
                    9 => self.text_command(false),
                    10 => return self.end(true),
                    _ => return self.end(false),
                }
            }
            Some(_) => match self.rng.weighted(&[22, 12, 8, 8, 30, 1, 1]) {
                0 => self.stop(),
                1 => self.isready_now(),
                2 => self.position(),
                3 => self.garbage(),
                4 => self.pause(),
                5 => return self.end(true),
                _ => return self.end(false),
            },
        }
        true
    }

    fn pause(&mut self) {
        std::thread::sleep(Duration::from_millis(self.rng.range(1, 30)));
    }

    /// A bare `isready` inside a step: its `readyok` must come (timed by the next sync).
    fn isready_now(&mut self) {
        self.send("isready");
        self.await_readyok();
    }

    /// `position` with a start the rules may refuse and moves that may be illegal.
    fn position(&mut self) {
        let (text, start) = if self.rng.chance(50) {
            ("startpos".to_string(), Ok(Position::startpos()))
        } else {
            let fen = *self.rng.pick(&FENS);
            (
                format!("fen {fen}"),
                Position::from_fen_with(fen, self.rules.moves),
            )
        };
        let mut moves = Vec::new();
        if let Ok(p) = start {
            let mut g = Game::with_rules(p, self.rules);
            for _ in 0..self.rng.below(30) {
                if g.result() != GameResult::Ongoing {
                    break;
                }
                let legal = g.legal_moves();
                let m = legal.as_slice()[self.rng.below(legal.len() as u64) as usize];
                moves.push(m.to_string());
                g.play(m).expect("a legal move");
            }
        }
        if self.rng.chance(15) {
            // A bad move somewhere: illegal, not a move, or after the end of the game.
            let bad = *self
                .rng
                .pick(&["a1a1", "zz", "g3g5", "a9a8", "d1d2", "a1a2"]);
            let at = self.rng.below(moves.len() as u64 + 1) as usize;
            moves.insert(at, bad.to_string());
        }
        let mut line = format!("position {text}");
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        // The reference: the rules core plays the whole list, or the command is refused.
        let expected = start.ok().and_then(|p| {
            let mut g = Game::with_rules(p, self.rules);
            moves.iter().all(|m| g.play_text(m).is_ok()).then_some(g)
        });
        self.send(&line);
        match expected {
            Some(g) => self.game = g,
            None => self.expect.errors += 1,
        }
    }

    /// `go` with up to three limits of every kind, sometimes `searchmoves`.
    fn go(&mut self) {
        let mut parts: Vec<String> = Vec::new();
        let (mut infinite, mut ponder) = (false, false);
        for _ in 0..self.rng.range(0, 3) {
            let r = &mut self.rng;
            match r.weighted(&[10, 8, 10, 10, 4, 6, 6, 3]) {
                0 => parts.push(format!("depth {}", r.range(1, 8))),
                1 => parts.push(format!("nodes {}", r.range(1, 40_000))),
                2 => parts.push(format!("movetime {}", r.range(0, 80))),
                3 => {
                    parts.push(format!(
                        "wtime {} btime {}",
                        r.range(0, 3000),
                        r.range(0, 3000)
                    ));
                    if r.chance(50) {
                        parts.push(format!("winc {} binc {}", r.range(0, 100), r.range(0, 100)));
                    }
                    if r.chance(30) {
                        parts.push(format!("movestogo {}", r.range(1, 40)));
                    }
                }
                4 => parts.push(format!("mate {}", r.range(1, 3))),
                5 => {
                    infinite = true;
                    parts.push("infinite".into());
                }
                6 => {
                    ponder = true;
                    parts.push("ponder".into());
                }
                _ => parts.push(format!("movetime {}", r.range(0, 5))),
            }
        }
        let legal: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        let mut searchmoves = Vec::new();
        let mut refused = false;
        if self.rng.chance(12) {
            if !legal.is_empty() && self.rng.chance(75) {
                for _ in 0..self.rng.range(1, 3) {
                    searchmoves.push(self.rng.pick(&legal).clone());
                }
            } else {
                searchmoves.push("a1a1".to_string());
                refused = true;
            }
            parts.push(format!("searchmoves {}", searchmoves.join(" ")));
        }
        let line = format!("go {}", parts.join(" "));
        self.send(line.trim_end());
        if refused {
            self.expect.errors += 1;
            return;
        }
        self.stats.gos += 1;
        self.search = Some(Search {
            game: self.game.clone(),
            searchmoves,
            held: infinite || ponder,
            infinite,
            ponder,
            stop_sent: None,
        });
    }

    fn stop(&mut self) {
        let before = self.cpu_wait_now();
        self.send("stop");
        if let Some(s) = self.search.as_mut() {
            s.stop_sent = Some((Instant::now(), before));
        }
        self.await_bestmove();
    }

    fn ponderhit(&mut self) {
        self.send("ponderhit");
        if let Some(s) = self.search.as_mut() {
            s.ponder = false;
            s.held = s.infinite;
        }
    }

    /// An option value, valid or not; the model follows what is accepted.
    fn setoption(&mut self) {
        let (line, accepted) = match self.rng.below(12) {
            0 | 1 => {
                self.expect.slow = true;
                if self.rng.chance(85) {
                    let mb = *self.rng.pick(&[1, 2, 4, 8, 16, 32, 64]);
                    self.hash_mb = mb;
                    (format!("setoption name Hash value {mb}"), true)
                } else {
                    let v = *self
                        .rng
                        .pick(&["0", "-1", "65537", "x", "99999999999999999999"]);
                    (format!("setoption name Hash value {v}"), false)
                }
            }
            2 => {
                let n = self.rng.range(0, 4);
                (format!("setoption name Threads value {n}"), n >= 1)
            }
            3 => {
                let n = self.rng.range(0, 4);
                (format!("setoption name MultiPV value {n}"), n >= 1)
            }
            4 => {
                self.expect.slow = true;
                if self.rng.chance(85) {
                    ("setoption name Clear Hash".into(), true)
                } else {
                    ("setoption name Clear Hash value 1".into(), false)
                }
            }
            5 => {
                let n = self.rng.range(0, 200);
                (format!("setoption name Move Overhead value {n}"), true)
            }
            6 => {
                let n = self.rng.range(0, 21);
                (format!("setoption name Skill Level value {n}"), n <= 20)
            }
            7 => {
                let v = *self.rng.pick(&["true", "false", "maybe"]);
                (format!("setoption name Ponder value {v}"), v != "maybe")
            }
            8 => {
                let v = *self.rng.pick(&["jungle", "jungle-cn", "chess"]);
                let variant = Variant::from_name(v);
                if let Some(variant) = variant {
                    self.set_rules(Rules {
                        moves: self.rules.moves,
                        ..variant.rules()
                    });
                }
                (
                    format!("setoption name UCI_Variant value {v}"),
                    variant.is_some(),
                )
            }
            9 | 10 => {
                let on = self.rng.chance(50);
                let mut rules = self.rules;
                let name = if self.rng.chance(50) {
                    rules.moves.dog_swims = on;
                    "DogSwims"
                } else {
                    rules.moves.trapped_lose_attack = on;
                    "TrappedLoseAttack"
                };
                self.set_rules(rules);
                (format!("setoption name {name} value {on}"), true)
            }
            _ => {
                let n = self.rng.range(0, 11);
                if n <= 10 {
                    let mut rules = self.rules;
                    rules.draw.repetitions = n as u8;
                    self.set_rules(rules);
                }
                (format!("setoption name RepetitionDraw value {n}"), n <= 10)
            }
        };
        self.send(&line);
        if !accepted {
            self.expect.errors += 1;
        }
    }

    /// The session starts a new game from the start when the rules change.
    fn set_rules(&mut self, rules: Rules) {
        if rules != self.rules {
            self.rules = rules;
            self.game = Game::with_rules(Position::startpos(), rules);
        }
    }

    fn newgame(&mut self) {
        self.send("ucinewgame");
        self.expect.slow = true;
        self.game = Game::with_rules(Position::startpos(), self.rules);
    }

    /// A command refused while a search runs (one error, nothing changes).
    fn refused(&mut self, lines: &[&str]) {
        let line = *self.rng.pick(lines);
        self.send(line);
        self.expect.errors += 1;
    }

    /// Junk: unknown or malformed commands, bytes that are not UTF-8, control
    /// characters, long lines, lines over the 1 MiB limit, blank lines.
    fn garbage(&mut self) {
        let (bytes, error): (Vec<u8>, bool) = match self.rng.below(10) {
            0..=3 => (self.rng.pick(&GARBAGE).as_bytes().to_vec(), true),
            4 | 5 => {
                let n = self.rng.range(1, 40);
                let bytes: Vec<u8> = (0..n)
                    .map(|_| match self.rng.below(256) as u8 {
                        b'\n' => b' ',
                        b => b,
                    })
                    .collect();
                // Read as the engine reads it: lossy UTF-8, without a final CR.
                let text = String::from_utf8_lossy(&bytes);
                match command::parse(text.strip_suffix('\r').unwrap_or(&text)) {
                    Ok(Some(_)) => return, // junk that happens to be a command
                    Ok(None) => (bytes, false),
                    Err(_) => (bytes, true),
                }
            }
            6 => (b" \t  ".to_vec(), false),
            7 => {
                let mut v = b"position startpos moves ".to_vec();
                v.resize(v.len() + self.rng.range(1_000, 200_000) as usize, b'x');
                (v, true)
            }
            8 => {
                let n = self.rng.range(50, 5_000) as usize;
                (b"go depth 1 ".repeat(n), true)
            }
            _ => {
                if self.rng.chance(10) {
                    // Longer than the 1 MiB line limit: refused as a whole.
                    (vec![b'y'; (1 << 20) + 10], true)
                } else {
                    (b"\xff\xfe\xfd uci".to_vec(), true)
                }
            }
        };
        self.send_bytes(&bytes);
        if error {
            self.expect.errors += 1;
        }
    }

    /// Commands answered with text: the board, the evaluation, perft and uci (the
    /// last two only when idle).
    fn text_command(&mut self, idle: bool) {
        let choices: &[(&str, &'static str)] = if idle {
            &[
                ("d", "State:"),
                ("eval", "Total (side to move):"),
                ("go perft 2", "Time:"),
                ("uci", "uciok"),
            ]
        } else {
            &[("d", "State:"), ("eval", "Total (side to move):")]
        };
        let (line, end) = *self.rng.pick(choices);
        self.send(line);
        self.expect.text_answers.push(end);
    }

    /// Ends the process with `quit` or by closing its input, maybe mid-search: the
    /// search's `bestmove` comes first (within the stop bound), then exit status 0.
    fn end(&mut self, quit: bool) -> bool {
        let before = self.cpu_wait_now();
        if quit {
            self.send("quit");
        } else {
            self.stats.eofs += 1;
            self.e.close_stdin();
        }
        if let Some(s) = self.search.as_mut() {
            self.stats.quits_mid_search += 1;
            s.stop_sent = Some((Instant::now(), before));
            self.await_bestmove();
        }
        let status = self.e.wait_exit(HARD_BOUND);
        if !status.success() {
            self.fail(&format!(
                "exit status {status:?} after quit or end of input"
            ));
        }
        for line in self.e.drain(Duration::from_millis(100)) {
            if line != "readyok" {
                self.take(&line, Instant::now());
            }
        }
        false
    }
}

/// What a `bestmove` line must be for its search: a legal move of the game searched
/// (one of `searchmoves` if given), `0000` only when the game is over, and a ponder
/// move legal after it.
fn check_bestmove(line: &str, search: &Search) -> Result<(), String> {
    let tokens: Vec<&str> = line.split(' ').collect();
    let (best, ponder) = match tokens.as_slice() {
        ["bestmove", b] => (*b, None),
        ["bestmove", b, "ponder", p] => (*b, Some(*p)),
        _ => return Err(format!("malformed {line:?}")),
    };
    let game = &search.game;
    let fen = game.position().to_fen();
    if game.result() != GameResult::Ongoing {
        return match best {
            "0000" => Ok(()),
            _ => Err(format!("{line:?} in the finished game {fen}")),
        };
    }
    let legal: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
    if !legal.iter().any(|m| m == best) {
        return Err(format!("{line:?} is not legal in {fen}"));
    }
    if !search.searchmoves.is_empty() && !search.searchmoves.iter().any(|m| m == best) {
        return Err(format!("{line:?} is not one of {:?}", search.searchmoves));
    }
    if let Some(p) = ponder {
        let mut after = game.clone();
        after.play_text(best).map_err(|e| e.to_string())?;
        if !after.legal_moves().iter().any(|m| m.to_string() == p) {
            return Err(format!(
                "ponder move of {line:?} is illegal after {best} from {fen}"
            ));
        }
    }
    Ok(())
}

/// Resident memory of a process in MB.
fn rss_mb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024)
}

const REFUSED_SETOPTIONS: &[&str] = &[
    "setoption name Hash value 8",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Clear Hash",
    "setoption name UCI_Variant value jungle-cn",
];

/// Runs `sequences` sequences of up to `steps` steps, seeds `first` on.
fn torture(first: u64, sequences: u64, steps: u64) -> Stats {
    let mut total = Stats::default();
    for seed in first..first + sequences {
        let mut t = Torture::start(seed);
        let n = t.rng.range(steps / 4, steps);
        let mut alive = true;
        for _ in 0..n {
            if !t.step() {
                alive = false;
                break;
            }
        }
        if alive {
            let quit = t.rng.chance(70);
            t.end(quit);
        }
        total.add(&t.stats);
    }
    total
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The short run in CI: two dozen sequences.
#[test]
fn command_sequences() {
    let seed = env_u64("TORTURE_SEED", 1);
    let stats = torture(seed, 24, 40);
    eprintln!("torture: {}", stats.report());
    assert!(stats.gos > 0);
    assert_eq!(stats.bestmoves, stats.gos);
}

/// The long run: `TORTURE_SEQUENCES` (default 2000) sequences of up to `TORTURE_STEPS`
/// (default 100) steps, from seed `TORTURE_SEED` (default 1000).
#[test]
#[ignore]
fn command_sequences_long() {
    let seed = env_u64("TORTURE_SEED", 1000);
    let sequences = env_u64("TORTURE_SEQUENCES", 2000);
    let steps = env_u64("TORTURE_STEPS", 100);
    let started = Instant::now();
    let stats = torture(seed, sequences, steps);
    eprintln!(
        "torture: seeds {seed}..{} in {:?}: {}",
        seed + sequences,
        started.elapsed(),
        stats.report()
    );
    assert_eq!(stats.bestmoves, stats.gos);
}
