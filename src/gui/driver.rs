//! One engine process behind a thread, so that the GUI never waits on an engine.
//!
//! The controller sends `EngineRequest`s; the driver answers with `EngineEvent`s on the
//! controller's channel. It keeps the protocol in order (a new search starts only
//! after the engine has answered `bestmove` to the previous one), stops a search that
//! is replaced, and treats an engine that crashes, or that does not answer within its
//! deadline, as failed: it is killed, reported, and started again, so the game in the
//! GUI goes on.

use crate::common::engine_process::{EngineFailure, EngineProcess, EngineSpec};
use crate::protocol::command::setoption_line;
pub use jungle_app::engines::{EngineEvent, EngineRequest, Search};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// How long the engine may take to start and answer the handshake.
const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long after `stop` the engine may take to answer `bestmove`.
const STOP_GRACE: Duration = Duration::from_secs(3);
/// How often the driver looks at its request queue while waiting for the engine.
const POLL: Duration = Duration::from_millis(5);

/// The controller's handle on a driver thread.
pub struct Driver {
    tx: Sender<EngineRequest>,
    pub spec: EngineSpec,
}

impl Driver {
    /// Starts the driver thread; the engine itself is started on the first request.
    pub fn spawn(slot: usize, spec: EngineSpec, events: Sender<super::Msg>) -> Driver {
        let (tx, rx) = mpsc::channel();
        let thread_spec = spec.clone();
        std::thread::Builder::new()
            .name(format!("engine-{slot}"))
            .spawn(move || Worker::new(slot, thread_spec, rx, events).run())
            .map_or_else(
                |e| log::error!("cannot start the engine thread: {e}"),
                |_| (),
            );
        Driver { tx, spec }
    }

    pub fn send(&self, request: EngineRequest) {
        // A driver thread that has gone away is reported by its last event.
        let _ = self.tx.send(request);
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.tx.send(EngineRequest::Quit);
    }
}

/// The running search: its id, when it must answer, whether `stop` was sent.
struct Running {
    id: u64,
    deadline: Option<Instant>,
    stopping: bool,
}

struct Worker {
    slot: usize,
    spec: EngineSpec,
    requests: Receiver<EngineRequest>,
    events: Sender<super::Msg>,
    process: Option<EngineProcess>,
    running: Option<Running>,
    /// The next search, started when the running one has answered.
    queued: Option<Box<Search>>,
    /// Options and new-game requests waiting for the engine to be idle.
    pending_setup: Vec<EngineRequest>,
    /// Every option set so far, sent again to a restarted engine.
    options: Vec<(String, String)>,
    /// When the engine failed lately: after `MAX_FAILURES` within `FAILURE_WINDOW`
    /// it is not restarted at once, but only when it is next needed.
    failures: Vec<Instant>,
}

const MAX_FAILURES: usize = 3;
const FAILURE_WINDOW: Duration = Duration::from_secs(60);

impl Worker {
    fn new(
        slot: usize,
        spec: EngineSpec,
        requests: Receiver<EngineRequest>,
        events: Sender<super::Msg>,
    ) -> Worker {
        Worker {
            slot,
            spec,
            requests,
            events,
            process: None,
            running: None,
            queued: None,
            pending_setup: Vec::new(),
            options: Vec::new(),
            failures: Vec::new(),
        }
    }

    fn emit(&self, event: EngineEvent) {
        let _ = self.events.send(super::Msg::Engine(event));
    }

    fn run(mut self) {
        loop {
            match self.requests.try_recv() {
                Ok(EngineRequest::Quit) | Err(TryRecvError::Disconnected) => break,
                Ok(request) => {
                    self.take(request);
                    continue;
                }
                Err(TryRecvError::Empty) => {}
            }
            self.start_queued();
            self.read_engine();
        }
        if let Some(mut p) = self.process.take() {
            p.quit();
        }
    }

    fn take(&mut self, request: EngineRequest) {
        match request {
            EngineRequest::Go(search) => {
                self.queued = Some(search);
                self.stop_running();
            }
            EngineRequest::Stop => {
                self.queued = None;
                self.stop_running();
            }
            EngineRequest::Options(list) => {
                for (name, value) in &list {
                    self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                    self.options.push((name.clone(), value.clone()));
                }
                self.pending_setup.push(EngineRequest::Options(list));
            }
            EngineRequest::NewGame => self.pending_setup.push(EngineRequest::NewGame),
            EngineRequest::Quit => {}
        }
    }

    fn stop_running(&mut self) {
        if let (Some(r), Some(p)) = (self.running.as_mut(), self.process.as_mut()) {
            if !r.stopping {
                p.send("stop");
                r.stopping = true;
                r.deadline = Some(Instant::now() + STOP_GRACE);
            }
        }
    }

    /// When the engine is idle: sends waiting set-up, then the queued search.
    fn start_queued(&mut self) {
        if self.running.is_some() {
            return;
        }
        if self.pending_setup.is_empty() && self.queued.is_none() {
            return;
        }
        if self.process.is_none() && !self.restart(None, None) {
            // Could not start: what was asked for cannot be done now.
            if let Some(s) = self.queued.take() {
                self.emit(EngineEvent::Failed {
                    slot: self.slot,
                    id: Some(s.id),
                    message: format!("engine '{}' is not running", self.spec.name),
                    restarted: false,
                });
            }
            self.pending_setup.clear();
            return;
        }
        let Some(p) = self.process.as_mut() else {
            return;
        };
        for request in std::mem::take(&mut self.pending_setup) {
            match request {
                EngineRequest::Options(list) => {
                    for (name, value) in list {
                        if p.declares(&name) {
                            p.send(&setoption_line(&name, &value));
                        }
                    }
                }
                EngineRequest::NewGame => p.send("ucinewgame"),
                _ => {}
            }
        }
        if let Some(search) = self.queued.take() {
            p.send(&search.position_line());
            p.send(&search.go_line());
            self.running = Some(Running {
                id: search.id,
                deadline: search.deadline.map(|d| Instant::now() + d),
                stopping: false,
            });
        }
    }

    /// Reads what the engine says for a moment; notices crashes and missed deadlines.
    fn read_engine(&mut self) {
        let Some(p) = self.process.as_mut() else {
            std::thread::sleep(POLL);
            return;
        };
        match p.poll_line(POLL) {
            Ok(Some(line)) => self.heard(line),
            Ok(None) => {
                let late = self
                    .running
                    .as_ref()
                    .and_then(|r| r.deadline)
                    .is_some_and(|d| Instant::now() > d);
                if late {
                    let id = self.running.take().map(|r| r.id);
                    let message = format!("engine '{}' did not answer in time", self.spec.name);
                    self.process = None; // dropping kills it
                    self.restart(id, Some(message));
                }
            }
            Err(EngineFailure::Crashed) | Err(EngineFailure::Start(_)) => {
                let id = self.running.take().map(|r| r.id);
                let message = format!("engine '{}' crashed", self.spec.name);
                self.process = None;
                self.restart(id, Some(message));
            }
            Err(EngineFailure::Timeout) => {}
        }
    }

    fn heard(&mut self, line: String) {
        if line.starts_with("bestmove") {
            if let Some(r) = self.running.take() {
                let text = line.split_whitespace().nth(1).unwrap_or("").to_string();
                self.emit(EngineEvent::BestMove {
                    slot: self.slot,
                    id: r.id,
                    text,
                });
            }
        } else if line.starts_with("info string") {
            self.emit(EngineEvent::Said {
                slot: self.slot,
                line,
            });
        } else if let Some(info) = crate::protocol::info::read(&line) {
            if let Some(r) = &self.running {
                self.emit(EngineEvent::Info {
                    slot: self.slot,
                    id: r.id,
                    info,
                });
            }
        }
    }

    /// Starts the engine (again). After a failure (`what` happened), reports it with
    /// the search it ended and what became of the engine. Returns true when it runs.
    fn restart(&mut self, failed_search: Option<u64>, what: Option<String>) -> bool {
        self.running = None;
        if let Some(what) = &what {
            let now = Instant::now();
            self.failures
                .retain(|t| now.duration_since(*t) < FAILURE_WINDOW);
            self.failures.push(now);
            if self.failures.len() >= MAX_FAILURES {
                self.failures.clear();
                self.emit(EngineEvent::Failed {
                    slot: self.slot,
                    id: failed_search,
                    message: format!(
                        "{what}; it failed {MAX_FAILURES} times within a minute, so it will \
                         be started again only when it is next needed"
                    ),
                    restarted: false,
                });
                return false;
            }
        }
        let started = EngineProcess::start(&self.spec, START_TIMEOUT).map(|mut p| {
            for (name, value) in &self.options {
                if p.declares(name) {
                    p.send(&setoption_line(name, value));
                }
            }
            let _ = p.sync(START_TIMEOUT);
            p
        });
        match started {
            Ok(p) => {
                self.emit(EngineEvent::Ready {
                    slot: self.slot,
                    name: p.id_name.clone().unwrap_or_else(|| self.spec.name.clone()),
                    options: p.declared_options.clone(),
                });
                self.process = Some(p);
                if let Some(what) = what {
                    self.emit(EngineEvent::Failed {
                        slot: self.slot,
                        id: failed_search,
                        message: format!("{what}; it was restarted"),
                        restarted: true,
                    });
                }
                true
            }
            Err(e) => {
                let message = match what {
                    Some(what) => format!("{what}; restarting it failed: {e}"),
                    None => e,
                };
                self.emit(EngineEvent::Failed {
                    slot: self.slot,
                    id: failed_search,
                    message,
                    restarted: false,
                });
                false
            }
        }
    }
}
