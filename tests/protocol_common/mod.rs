//! Shared driver for the end-to-end protocol tests: runs the real `jungle` binary with
//! piped stdin/stdout, reads stdout on a thread into a channel, and offers `send`,
//! `expect_line` and `read_until`, every wait bounded by a timeout so that a hung engine
//! fails the test instead of hanging CI. Also parsers for the `info`, `bestmove`, `d`,
//! `eval`, `perft` and `bench` answers of `protocol.md`.

#![allow(dead_code)]

use jungle::board::{Move, Position};
use jungle::game::{Game, GameResult};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_jungle");
pub const START_FEN: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1";

/// Answer to a command that the protocol says is immediate (isready, d, eval, ...).
pub const T_REPLY: Duration = Duration::from_secs(3);
/// A short search (small depth or node count).
pub const T_SEARCH: Duration = Duration::from_secs(20);

/// One line of stdout and when the reader thread saw it.
type Stamped = (Instant, String);

pub struct Engine {
    pub label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Stamped>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    transcript: Arc<Mutex<Vec<String>>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Arrival time of the last line returned by a read.
    pub last_arrival: Option<Instant>,
    /// Thread id of the stdout reader (0 until it has started), so that a test can
    /// read how long it waited for a CPU (`/proc/self/task/<tid>/schedstat`).
    reader_tid: Arc<AtomicU32>,
}

impl Engine {
    pub fn start(label: &str) -> Engine {
        Engine::start_with(label, &[], &[])
    }

    pub fn start_with(label: &str, args: &[&str], envs: &[(&str, &str)]) -> Engine {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("[{label}] cannot start {BIN}: {e}"));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
        let transcript = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = channel::<Stamped>();
        let reader_tid = Arc::new(AtomicU32::new(0));
        {
            let transcript = Arc::clone(&transcript);
            let reader_tid = Arc::clone(&reader_tid);
            thread::spawn(move || {
                if let Some(tid) = current_tid() {
                    reader_tid.store(tid, Ordering::Relaxed);
                }
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            if buf.last() == Some(&b'\n') {
                                buf.pop();
                            }
                            let line = String::from_utf8_lossy(&buf).into_owned();
                            let now = Instant::now();
                            transcript
                                .lock()
                                .unwrap()
                                .push(format!("< {}", shorten(&line)));
                            if tx.send((now, line)).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        {
            let stderr = Arc::clone(&stderr);
            thread::spawn(move || {
                let mut chunk = [0u8; 8192];
                loop {
                    match stderr_pipe.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => stderr.lock().unwrap().extend_from_slice(&chunk[..n]),
                    }
                }
            });
        }
        Engine {
            label: label.to_string(),
            child,
            stdin,
            rx,
            transcript,
            stderr,
            last_arrival: None,
            reader_tid,
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The thread id of this driver's stdout reader, once it runs.
    pub fn reader_tid(&self) -> Option<u32> {
        match self.reader_tid.load(Ordering::Relaxed) {
            0 => None,
            tid => Some(tid),
        }
    }

    /// The last lines of the exchange, for failure messages.
    pub fn transcript_tail(&self, n: usize) -> String {
        let t = self.transcript.lock().unwrap();
        let start = t.len().saturating_sub(n);
        t[start..].join("\n")
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Panics with a message and the end of the transcript.
    pub fn fail(&self, msg: &str) -> ! {
        let err = self.stderr_text();
        let err_tail: String = err
            .chars()
            .rev()
            .take(2000)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        panic!(
            "[{}] {msg}\n--- last lines of the exchange ---\n{}\n--- end of stderr ---\n{}",
            self.label,
            self.transcript_tail(40),
            err_tail
        );
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.transcript
            .lock()
            .unwrap()
            .push(format!("> {}", shorten(line)));
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write_raw(&bytes);
    }

    /// Sends raw bytes as one line (a newline is added).
    pub fn send_bytes(&mut self, line: &[u8]) {
        self.transcript.lock().unwrap().push(format!(
            "> {} (raw bytes)",
            shorten(&String::from_utf8_lossy(line))
        ));
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.write_raw(&bytes);
    }

    fn write_raw(&mut self, bytes: &[u8]) {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("stdin already closed")),
        };
        if let Err(e) = result {
            self.fail(&format!("cannot write to the engine (did it die?): {e}"));
        }
    }

    /// The next stdout line, or None after `timeout`. Panics if stdout was closed.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.rx.recv_timeout(timeout) {
            Ok((t, line)) => {
                self.last_arrival = Some(t);
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.try_wait().ok().flatten();
                self.fail(&format!(
                    "the engine closed stdout (exit status {status:?}) while a line was expected"
                ))
            }
        }
    }

    /// Reads lines until one satisfies `pred`; returns it. Lines before it are dropped.
    pub fn expect_line(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) if pred(&line) => return line,
                Some(_) => {}
                None => self.fail(&format!("timed out after {timeout:?} waiting for {what}")),
            }
        }
    }

    /// Sends `bench <depth>` and reads its lines up to and including the total
    /// (`<N> nodes <M> nps`).
    pub fn bench_lines(&mut self, depth: u32, timeout: Duration) -> Vec<String> {
        self.send(&format!("bench {depth}"));
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.next_line(left).unwrap_or_else(|| {
                self.fail(&format!(
                    "bench {depth}: no final '<N> nodes <M> nps' line within {timeout:?}"
                ))
            });
            let done = parse_bench_total(&l).is_some();
            lines.push(l);
            if done {
                return lines;
            }
        }
    }

    /// Reads lines up to and including the first that starts with `prefix`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                None => self.fail(&format!(
                    "timed out after {timeout:?} waiting for a line starting with {prefix:?}"
                )),
            }
        }
    }

    /// Every line that arrives within `dur`.
    pub fn collect_for(&mut self, dur: Duration) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            match self.rx.recv_timeout(left) {
                Ok((t, line)) => {
                    self.last_arrival = Some(t);
                    lines.push(line);
                }
                Err(RecvTimeoutError::Timeout) => return lines,
                Err(RecvTimeoutError::Disconnected) => {
                    self.fail("the engine closed stdout unexpectedly")
                }
            }
        }
    }

    /// Sends `isready` and returns the lines that came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", T_REPLY);
        let last = lines.pop().unwrap();
        if last != "readyok" {
            self.fail(&format!("expected exactly 'readyok', got {last:?}"));
        }
        lines
    }

    /// Sends `cmd` and checks that it produces no output at all (up to `readyok`).
    pub fn send_silent(&mut self, cmd: &str) {
        self.send(cmd);
        let out = self.sync();
        if !out.is_empty() {
            self.fail(&format!(
                "sent {cmd:?}: expected no output (protocol.md section 3), got {out:?}"
            ));
        }
    }

    /// Sends `cmd` and checks that it is answered by exactly one `info string error:`
    /// line and nothing else. Returns the error line.
    pub fn send_expect_error(&mut self, cmd: &str) -> String {
        self.send(cmd);
        self.expect_one_error(&shorten(cmd))
    }

    pub fn send_bytes_expect_error(&mut self, bytes: &[u8]) -> String {
        self.send_bytes(bytes);
        self.expect_one_error(&format!(
            "raw bytes {:?}",
            shorten(&String::from_utf8_lossy(bytes))
        ))
    }

    fn expect_one_error(&mut self, what: &str) -> String {
        let out = self.sync();
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string error:"))
            .collect();
        if out.len() != 1 || errors.len() != 1 {
            self.fail(&format!(
                "sent {what}: expected exactly one 'info string error: ...' line, got {:?}",
                out.iter().map(|l| shorten(l)).collect::<Vec<_>>()
            ));
        }
        out[0].clone()
    }

    /// Sends a `go ...` and reads up to its `bestmove`.
    pub fn go(&mut self, cmd: &str, timeout: Duration) -> SearchOutput {
        self.send(cmd);
        self.wait_bestmove(cmd, timeout)
    }

    pub fn wait_bestmove(&mut self, cmd: &str, timeout: Duration) -> SearchOutput {
        let lines = self.read_until("bestmove", timeout);
        let last = lines.last().unwrap().clone();
        let (best, ponder) = match parse_bestmove(&last) {
            Ok(bp) => bp,
            Err(e) => self.fail(&format!("after {cmd:?}: {e}")),
        };
        let mut infos = Vec::new();
        let mut other = Vec::new();
        for line in &lines[..lines.len() - 1] {
            if line.starts_with("info string") {
                other.push(line.clone());
                continue;
            }
            match parse_info(line) {
                Ok(info) => infos.push(info),
                Err(e) => self.fail(&format!(
                    "after {cmd:?}: info line does not follow protocol.md \
                     ('info depth D seldepth S multipv K score cp X|mate M \
                     [lowerbound|upperbound] nodes N nps R hashfull H tbhits B time T pv ...'): \
                     {e}: {line:?}"
                )),
            }
        }
        SearchOutput {
            infos,
            other,
            bestmove: best,
            ponder,
            arrival: self.last_arrival.unwrap(),
        }
    }

    /// Sends `d` and parses its answer.
    pub fn d(&mut self) -> DOutput {
        self.send("d");
        let lines = self.read_until("State:", T_REPLY);
        match parse_d(&lines) {
            Ok(d) => d,
            Err(e) => self.fail(&format!("answer to 'd': {e}: {lines:?}")),
        }
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) => self.fail(&format!("the engine did not exit within {timeout:?}")),
                Err(e) => self.fail(&format!("cannot wait for the engine: {e}")),
            }
        }
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Lines still queued or arriving within `dur` after the process ended.
    pub fn drain(&mut self, dur: Duration) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok((_, line)) => lines.push(line),
                Err(_) => return lines,
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The id of the calling thread (Linux: the first field of /proc/thread-self/stat).
fn current_tid() -> Option<u32> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

pub fn shorten(s: &str) -> String {
    if s.len() <= 200 {
        s.to_string()
    } else {
        let head: String = s.chars().take(120).collect();
        format!("{head}... ({} bytes)", s.len())
    }
}

// ---------------------------------------------------------------------------------
// Parsers
// ---------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Lower,
    Upper,
}

#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: Score,
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub tbhits: u64,
    pub time: u64,
    pub pv: Vec<String>,
    pub line: String,
}

fn num<T: std::str::FromStr>(tokens: &[&str], i: &mut usize, key: &str) -> Result<T, String> {
    match tokens.get(*i) {
        Some(&k) if k == key => {}
        other => return Err(format!("expected '{key}' at token {}, got {other:?}", *i)),
    }
    let v = tokens
        .get(*i + 1)
        .ok_or_else(|| format!("'{key}' without a value"))?;
    *i += 2;
    v.parse::<T>()
        .map_err(|_| format!("'{key}' value {v:?} is not a number of the right kind"))
}

/// Parses `info depth D seldepth S multipv K score (cp X|mate M) [lowerbound|upperbound]
/// nodes N nps R hashfull H tbhits B time T pv <move>...` strictly in that order.
pub fn parse_info(line: &str) -> Result<Info, String> {
    let tokens: Vec<&str> = line.split(' ').collect();
    if tokens.first() != Some(&"info") {
        return Err("does not start with 'info'".into());
    }
    if tokens.iter().any(|t| t.is_empty()) {
        return Err("empty token (double space or trailing space)".into());
    }
    let mut i = 1;
    let depth: u32 = num(&tokens, &mut i, "depth")?;
    let seldepth: u32 = num(&tokens, &mut i, "seldepth")?;
    let multipv: u32 = num(&tokens, &mut i, "multipv")?;
    if tokens.get(i) != Some(&"score") {
        return Err(format!("expected 'score' at token {i}"));
    }
    i += 1;
    let score = match (tokens.get(i), tokens.get(i + 1)) {
        (Some(&"cp"), Some(v)) => Score::Cp(v.parse().map_err(|_| format!("bad cp {v:?}"))?),
        (Some(&"mate"), Some(v)) => {
            let m: i32 = v.parse().map_err(|_| format!("bad mate {v:?}"))?;
            if m == 0 {
                return Err("score mate 0".into());
            }
            Score::Mate(m)
        }
        other => return Err(format!("expected 'cp <x>' or 'mate <m>', got {other:?}")),
    };
    i += 2;
    let bound = match tokens.get(i) {
        Some(&"lowerbound") => {
            i += 1;
            Some(Bound::Lower)
        }
        Some(&"upperbound") => {
            i += 1;
            Some(Bound::Upper)
        }
        _ => None,
    };
    let nodes: u64 = num(&tokens, &mut i, "nodes")?;
    let nps: u64 = num(&tokens, &mut i, "nps")?;
    let hashfull: u32 = num(&tokens, &mut i, "hashfull")?;
    if hashfull > 1000 {
        return Err(format!("hashfull {hashfull} is not per mille"));
    }
    let tbhits: u64 = num(&tokens, &mut i, "tbhits")?;
    let time: u64 = num(&tokens, &mut i, "time")?;
    if tokens.get(i) != Some(&"pv") {
        return Err(format!("expected 'pv' at token {i}"));
    }
    i += 1;
    let pv: Vec<String> = tokens[i..].iter().map(|s| s.to_string()).collect();
    if pv.is_empty() {
        return Err("empty pv".into());
    }
    for m in &pv {
        if !is_move_shape(m) {
            return Err(format!("pv token {m:?} is not a move"));
        }
    }
    if depth == 0 || multipv == 0 {
        return Err("depth and multipv count from 1".into());
    }
    Ok(Info {
        depth,
        seldepth,
        multipv,
        score,
        bound,
        nodes,
        nps,
        hashfull,
        tbhits,
        time,
        pv,
        line: line.to_string(),
    })
}

pub fn is_move_shape(m: &str) -> bool {
    let b = m.as_bytes();
    b.len() == 4
        && (b'a'..=b'g').contains(&b[0])
        && (b'1'..=b'9').contains(&b[1])
        && (b'a'..=b'g').contains(&b[2])
        && (b'1'..=b'9').contains(&b[3])
}

/// `bestmove <move> [ponder <move>]`.
pub fn parse_bestmove(line: &str) -> Result<(String, Option<String>), String> {
    let t: Vec<&str> = line.split(' ').collect();
    match t.as_slice() {
        ["bestmove", m] if is_move_shape(m) || *m == "0000" => Ok((m.to_string(), None)),
        ["bestmove", m, "ponder", p] if is_move_shape(m) && is_move_shape(p) => {
            Ok((m.to_string(), Some(p.to_string())))
        }
        _ => Err(format!(
            "bestmove line does not read 'bestmove <move> [ponder <move>]': {line:?}"
        )),
    }
}

pub struct SearchOutput {
    pub infos: Vec<Info>,
    /// `info string` lines.
    pub other: Vec<String>,
    pub bestmove: String,
    pub ponder: Option<String>,
    /// When the bestmove line arrived.
    pub arrival: Instant,
}

impl SearchOutput {
    /// The last info line of the main line (multipv 1).
    pub fn last_main(&self) -> Option<&Info> {
        self.infos.iter().rev().find(|i| i.multipv == 1)
    }

    /// Checks that bestmove (and ponder) are legal in `game`, and every pv is a legal
    /// sequence from its position. Returns the bestmove.
    pub fn check_legal(&self, game: &Game, ctx: &str) -> Move {
        assert_eq!(
            game.result(),
            GameResult::Ongoing,
            "{ctx}: check_legal on a finished game"
        );
        let pos = game.position();
        let m = pos.parse_move(&self.bestmove).unwrap_or_else(|e| {
            panic!(
                "{ctx}: bestmove {} is not legal in {}: {e}",
                self.bestmove,
                pos.to_fen()
            )
        });
        if let Some(p) = &self.ponder {
            let mut after = *pos;
            after.play(m);
            if let Err(e) = after.parse_move(p) {
                panic!(
                    "{ctx}: ponder move {p} is not legal after bestmove {} from {}: {e}",
                    self.bestmove,
                    pos.to_fen()
                );
            }
        }
        for info in &self.infos {
            check_pv(pos, &info.pv)
                .unwrap_or_else(|e| panic!("{ctx}: illegal pv in {:?}: {e}", info.line));
        }
        m
    }
}

/// Every move of the pv is legal in turn from `pos`.
pub fn check_pv(pos: &Position, pv: &[String]) -> Result<(), String> {
    let mut p = *pos;
    for (i, m) in pv.iter().enumerate() {
        let mv = p
            .parse_move(m)
            .map_err(|e| format!("pv move {} ({m}) from {}: {e}", i + 1, p.to_fen()))?;
        p.play(mv);
    }
    Ok(())
}

pub struct DOutput {
    pub board: Vec<String>,
    pub fen: String,
    pub key: String,
    pub moves: Vec<String>,
    pub state: String,
    /// The `Rules:` line's value, if there is one.
    pub rules: Option<String>,
    /// Lines after `Fen:` other than `Key:`, `Rules:`, `Moves:` and `State:`
    /// (protocol.md lists only those; the scripted session checks that this is empty).
    pub extra: Vec<String>,
    /// Everything `d` printed.
    pub lines: Vec<String>,
}

/// Parses the answer to `d`: board lines, then `Fen:`, `Key:`, `Rules:`, `Moves:`,
/// `State:` in that order. Lines in between that are none of these are kept in `extra`.
pub fn parse_d(lines: &[String]) -> Result<DOutput, String> {
    let fen_at = lines
        .iter()
        .rposition(|l| l.starts_with("Fen: "))
        .ok_or("no 'Fen: ' line")?;
    let fen = lines[fen_at]["Fen: ".len()..].to_string();
    let mut key = None;
    let mut moves = None;
    let mut state = None;
    let mut rules = None;
    let mut extra = Vec::new();
    for l in &lines[fen_at + 1..] {
        if let Some(k) = l.strip_prefix("Key: ") {
            if moves.is_some() || state.is_some() || key.is_some() {
                return Err("'Key:' out of order".into());
            }
            key = Some(k.to_string());
        } else if let Some(r) = l.strip_prefix("Rules: ") {
            if key.is_none() || moves.is_some() || rules.is_some() {
                return Err("'Rules:' out of order".into());
            }
            rules = Some(r.to_string());
        } else if let Some(m) = l.strip_prefix("Moves:") {
            if key.is_none() || state.is_some() || moves.is_some() {
                return Err("'Moves:' out of order".into());
            }
            if !m.is_empty() && !m.starts_with(' ') {
                return Err(format!("bad Moves line {l:?}"));
            }
            moves = Some(
                m.split(' ')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect::<Vec<_>>(),
            );
        } else if let Some(st) = l.strip_prefix("State: ") {
            if moves.is_none() {
                return Err("'State:' before 'Moves:'".into());
            }
            state = Some(st.to_string());
        } else {
            extra.push(l.clone());
        }
    }
    let key = key.ok_or("no 'Key: ' line after 'Fen:'")?;
    if key.len() != 16 || !key.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("Key {key:?} is not 16 hex digits"));
    }
    Ok(DOutput {
        board: lines[..fen_at].to_vec(),
        fen,
        key,
        moves: moves.ok_or("no 'Moves:' line")?,
        state: state.ok_or("no 'State: ' line")?,
        rules,
        extra,
        lines: lines.to_vec(),
    })
}

/// The legal moves of a position as sorted strings.
pub fn legal_strings(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = jungle::board::movegen::legal_moves(pos)
        .iter()
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

/// A game from a position string and moves, panicking on bad test data.
pub fn game_of(fen: &str, moves: &[&str]) -> Game {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("test data: fen {fen}: {e}"));
    let mut g = Game::new(pos);
    for m in moves {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("test data: move {m} from {fen}: {e}"));
    }
    g
}

/// `<total> nodes <nps> nps` (the last line of bench).
pub fn parse_bench_total(line: &str) -> Option<(u64, u64)> {
    let t: Vec<&str> = line.split(' ').collect();
    match t.as_slice() {
        [n, "nodes", r, "nps"] => Some((n.parse().ok()?, r.parse().ok()?)),
        _ => None,
    }
}

/// `<index>/<count> <nodes> nodes <bestmove> <position string>`.
pub fn parse_bench_line(line: &str) -> Option<(usize, usize, u64, String, String)> {
    let mut it = line.splitn(5, ' ');
    let (i, c) = it.next()?.split_once('/')?;
    let nodes: u64 = it.next()?.parse().ok()?;
    if it.next()? != "nodes" {
        return None;
    }
    let best = it.next()?.to_string();
    let fen = it.next()?.to_string();
    Some((i.parse().ok()?, c.parse().ok()?, nodes, best, fen))
}

/// Checks the full output of a bench run (one line per position, then the total);
/// returns (total nodes, number of positions).
pub fn check_bench_output(lines: &[String], ctx: &str) -> (u64, usize) {
    assert!(!lines.is_empty(), "{ctx}: no output");
    let last = lines.last().unwrap();
    let (total, _nps) = parse_bench_total(last).unwrap_or_else(|| {
        panic!("{ctx}: last line is not '<total nodes> nodes <nps> nps': {last:?}")
    });
    let per: Vec<_> = lines[..lines.len() - 1]
        .iter()
        .filter_map(|l| parse_bench_line(l))
        .collect();
    assert_eq!(
        per.len(),
        lines.len() - 1,
        "{ctx}: every line before the last must read \
         '<index>/<count> <nodes> nodes <bestmove> <position string>': {lines:?}"
    );
    let count = per.len();
    let mut sum = 0u64;
    for (k, (i, c, nodes, best, fen)) in per.iter().enumerate() {
        assert_eq!(*i, k + 1, "{ctx}: bench index of line {}", k + 1);
        assert_eq!(*c, count, "{ctx}: bench count on line {}", k + 1);
        let pos = Position::from_fen(fen)
            .unwrap_or_else(|e| panic!("{ctx}: bench position {fen:?} does not parse: {e}"));
        let g = Game::new(pos);
        if g.result() == GameResult::Ongoing {
            pos.parse_move(best)
                .unwrap_or_else(|e| panic!("{ctx}: bench bestmove {best} illegal in {fen}: {e}"));
        } else {
            assert_eq!(best, "0000", "{ctx}: finished bench position {fen}");
        }
        sum += nodes;
    }
    assert!(total > 0, "{ctx}: total node count is 0");
    assert_eq!(
        sum, total,
        "{ctx}: the total node count is not the sum of the per-position counts"
    );
    (total, count)
}

/// Runs the binary with arguments (no stdin) and returns (status, stdout, stderr),
/// killing it after `timeout`.
pub fn run_cli(args: &[&str], timeout: Duration) -> (ExitStatus, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let to = thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let te = thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`jungle {}` did not finish within {timeout:?}",
                args.join(" ")
            );
        }
        thread::sleep(Duration::from_millis(10));
    };
    let out = String::from_utf8_lossy(&to.join().unwrap()).into_owned();
    let err = String::from_utf8_lossy(&te.join().unwrap()).into_owned();
    (status, out, err)
}
