//! An engine as a child process speaking the protocol of `protocol.md` (or the `jcei`
//! handshake). The referee never trusts it: every wait has a deadline, and a process
//! that dies or hangs is reported, not waited on.

use crate::protocol::client::declaration;
use crate::protocol::{command, info};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How to start and set up one engine: `cmd=PATH name=NAME [arg=A]… [proto=uci|jcei]
/// [ponder=true|false] [option.NAME=VALUE]…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub cmd: String,
    pub name: String,
    pub args: Vec<String>,
    pub jcei: bool,
    /// The referee lets it ponder on the move it expects while the opponent thinks.
    pub ponder: bool,
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            cmd: String::new(),
            name: String::new(),
            args: Vec::new(),
            jcei: false,
            ponder: false,
            options: Vec::new(),
        };
        for token in text.split_whitespace() {
            let (key, value) = token.split_once('=').ok_or_else(|| {
                format!(
                    "engine setting '{}' is not key=value",
                    crate::text::quote(token)
                )
            })?;
            match key {
                "cmd" => spec.cmd = value.to_string(),
                "name" => spec.name = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "proto" => {
                    spec.jcei = match value {
                        "uci" => false,
                        "jcei" => true,
                        other => {
                            return Err(format!(
                                "unknown protocol '{}' (uci or jcei)",
                                crate::text::quote(other)
                            ))
                        }
                    }
                }
                "ponder" => {
                    spec.ponder = match value {
                        "true" | "on" => true,
                        "false" | "off" => false,
                        other => {
                            return Err(format!(
                                "ponder takes true or false, got '{}'",
                                crate::text::quote(other)
                            ))
                        }
                    }
                }
                k if k.starts_with("option.") => spec
                    .options
                    .push((option_name(&k["option.".len()..]), value.to_string())),
                other => {
                    return Err(format!(
                        "unknown engine setting '{}'",
                        crate::text::quote(other)
                    ))
                }
            }
        }
        if spec.cmd.is_empty() {
            return Err(format!("engine '{}' has no cmd=", crate::text::quote(text)));
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.cmd)
                .file_name()
                .map_or(spec.cmd.clone(), |n| n.to_string_lossy().into_owned());
        }
        Ok(spec)
    }

    /// Checks that the program exists and can be started, before any game.
    pub fn check(&self) -> Result<(), String> {
        EngineProcess::start(self, Duration::from_secs(10)).map(|mut e| e.quit())
    }
}

/// An option name from an engine spec: `_` stands for a space (`Move_Overhead`),
/// except in the `UCI_` prefix of the standard options (`UCI_Elo`).
fn option_name(text: &str) -> String {
    match text.strip_prefix("UCI_") {
        Some(rest) => format!("UCI_{}", rest.replace('_', " ")),
        None => text.replace('_', " "),
    }
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// The process ended or closed its output.
    Crashed,
    /// No answer before the deadline.
    Timeout,
    /// It could not be started.
    Start(String),
}

pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    pub name: String,
    /// The engine's own name (`id name …`), if it gave one.
    pub id_name: Option<String>,
    /// The options it declared in the handshake (`option name …` lines, without
    /// the leading `option `).
    pub declared_options: Vec<String>,
    /// The last `info` line with a score: (centipawns or mate-adjusted score).
    pub last_score: Option<i32>,
}

impl EngineProcess {
    /// Starts the engine, does the handshake and sets its options.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<EngineProcess, String> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start engine '{}' ({}): {e}", spec.name, spec.cmd))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut e = EngineProcess {
            child,
            stdin,
            lines: rx,
            name: spec.name.clone(),
            id_name: None,
            declared_options: Vec::new(),
            last_score: None,
        };
        let (hello, ok) = if spec.jcei {
            ("jcei", "jceiok")
        } else {
            ("uci", "uciok")
        };
        e.send(hello);
        let deadline = Instant::now() + timeout;
        loop {
            let line = e.wait_for(|_| true, deadline).map_err(|f| {
                format!("engine '{}' failed the {hello} handshake: {f:?}", spec.name)
            })?;
            if line == ok {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                e.id_name = Some(name.trim().to_string());
            } else if let Some(option) = line.strip_prefix("option ") {
                e.declared_options.push(option.trim().to_string());
            }
        }
        if spec.ponder {
            e.send(&command::setoption_line("Ponder", "true"));
        }
        for (name, value) in &spec.options {
            e.send(&command::setoption_line(name, value));
        }
        // An option the engine refuses (an `info string error` line, protocol.md) is
        // an error here, not a silently different engine.
        e.send("isready");
        let answer = e
            .wait_for(
                |l| l == "readyok" || l.starts_with("info string error"),
                Instant::now() + timeout,
            )
            .map_err(|f| format!("engine '{}' is not ready: {f:?}", spec.name))?;
        if answer != "readyok" {
            return Err(format!(
                "engine '{}' refused its options: {answer}",
                spec.name
            ));
        }
        Ok(e)
    }

    pub fn send(&mut self, line: &str) {
        // A dead engine is noticed when its answer does not come.
        let _ = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
    }

    /// `isready` → `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        self.send("isready");
        self.wait_for(|l| l == "readyok", Instant::now() + timeout)
            .map(|_| ())
    }

    /// Reads lines until one satisfies `done`; returns it.
    pub fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
    ) -> Result<String, EngineFailure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.note_score(&line);
                    if done(&line) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(EngineFailure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineFailure::Crashed),
            }
        }
    }

    /// The next line if one comes within `wait`: `Ok(None)` when none did,
    /// `Err(Crashed)` when the engine has closed its output.
    pub fn poll_line(&mut self, wait: Duration) -> Result<Option<String>, EngineFailure> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.note_score(&line);
                Ok(Some(line))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(EngineFailure::Crashed),
        }
    }

    /// Keeps the score of a report line (`last_score`).
    fn note_score(&mut self, line: &str) {
        if let Some(report) = info::read(line) {
            self.last_score = Some(report.score.to_internal());
        }
    }

    /// True when the engine declared the option `name` (any case).
    pub fn declares(&self, name: &str) -> bool {
        declaration(&self.declared_options, name).is_some()
    }

    /// Ends the process: `quit`, then kill if it does not exit promptly.
    pub fn quit(&mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engine_specs() {
        let s = EngineSpec::parse(
            "cmd=./a name=A option.Hash=64 option.Move_Overhead=10 arg=-x proto=jcei option.UCI_Elo=1200",
        )
        .unwrap();
        assert_eq!(s.cmd, "./a");
        assert_eq!(s.name, "A");
        assert!(s.jcei);
        assert_eq!(s.args, vec!["-x".to_string()]);
        assert_eq!(
            s.options,
            vec![
                ("Hash".into(), "64".into()),
                ("Move Overhead".into(), "10".into()),
                ("UCI_Elo".into(), "1200".into())
            ]
        );
        assert!(!s.ponder);
        assert!(EngineSpec::parse("cmd=./a ponder=true").unwrap().ponder);
        assert!(!EngineSpec::parse("cmd=./a ponder=off").unwrap().ponder);
        assert!(EngineSpec::parse("cmd=./a ponder=maybe").is_err());
        assert_eq!(EngineSpec::parse("cmd=/usr/bin/eng").unwrap().name, "eng");
        assert!(EngineSpec::parse("name=A").is_err());
        assert!(EngineSpec::parse("cmd=a foo").is_err());
        assert!(EngineSpec::parse("cmd=a proto=xboard").is_err());
        assert!(EngineSpec::parse("cmd=a colour=red").is_err());
    }

    #[test]
    fn the_handshake_records_the_name_and_the_options() {
        let spec = EngineSpec::parse(&format!(
            "cmd=bash arg={}/tests/fake_engines/illegal.sh name=X",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let mut e = EngineProcess::start(&spec, Duration::from_secs(10)).unwrap();
        assert_eq!(e.id_name.as_deref(), Some("Illegal"));
        assert!(e.declared_options.is_empty());
        assert!(!e.declares("Hash"));
        // Lines come one at a time; none when the engine says nothing.
        assert_eq!(e.poll_line(Duration::from_millis(20)), Ok(None));
        e.send("go");
        let first = e.poll_line(Duration::from_secs(5)).unwrap();
        assert_eq!(first.as_deref(), Some("info depth 1 score cp 0 pv a1a3"));
        assert_eq!(e.last_score, Some(0));
        e.quit();
    }

    #[test]
    fn a_missing_program_is_reported() {
        let spec = EngineSpec::parse("cmd=/nonexistent/engine name=X").unwrap();
        assert!(spec.check().is_err());
    }
}
