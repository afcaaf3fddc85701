//! The search thread of a session: one long-lived thread runs every `go`.
//!
//! A thread spawned for each search starts behind the scheduler's penalty for new
//! tasks: on a loaded machine it was measured to begin tens of milliseconds after
//! `go` (median 0.06 ms, but 6 ms at the 90th percentile and 41 ms at worst, against
//! at most 2–4 ms to wake a sleeping thread), which a `go movetime 10` or a tiny clock
//! cannot afford. So the thread lives as long as the session and sleeps between
//! searches.
//!
//! Every job ends in exactly one `bestmove`: were the search ever to panic (a bug), the
//! panic is caught, reported as an error line, and the first legal move is played.

use crate::board::Move;
use crate::common::output::Output;
use crate::game::{Game, GameResult};
use crate::search::search::SharedState;
use crate::search::{Engine, Limits, SearchInfo, SearchOutcome};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// One `go`: what to search, and the flags the session shares with the search.
pub struct SearchJob {
    pub game: Game,
    pub limits: Limits,
    pub shared: Arc<SharedState>,
    /// `bestmove` is held back while this is set (`go infinite`, `go ponder`).
    pub hold: Arc<AtomicBool>,
    /// Set just before `bestmove` is printed.
    pub finished: Arc<AtomicBool>,
}

/// A job and the channel that tells the session it is over (its `bestmove` printed
/// and the engine free).
type Delivery = (SearchJob, Sender<()>);

pub struct Searcher {
    engine: Arc<Mutex<Engine>>,
    out: Output,
    jobs: Option<Sender<Delivery>>,
    thread: Option<JoinHandle<()>>,
}

impl Searcher {
    pub fn new(engine: Arc<Mutex<Engine>>, out: Output) -> Searcher {
        Searcher {
            engine,
            out,
            jobs: None,
            thread: None,
        }
    }

    /// Hands a search to the thread (starting it if it is not running); the returned
    /// channel receives, or closes, when the search is over.
    pub fn start(&mut self, job: SearchJob) -> Result<Receiver<()>, String> {
        let (done_tx, done_rx) = mpsc::channel();
        let mut delivery = (job, done_tx);
        // A thread that has died (it cannot, but a send would tell) is replaced once.
        for _ in 0..2 {
            let jobs = match &self.jobs {
                Some(j) => j,
                None => self.spawn()?,
            };
            match jobs.send(delivery) {
                Ok(()) => return Ok(done_rx),
                Err(mpsc::SendError(back)) => {
                    delivery = back;
                    self.jobs = None;
                    if let Some(t) = self.thread.take() {
                        let _ = t.join();
                    }
                }
            }
        }
        Err("the search thread cannot be started".into())
    }

    fn spawn(&mut self) -> Result<&Sender<Delivery>, String> {
        let (tx, rx) = mpsc::channel::<Delivery>();
        let engine = Arc::clone(&self.engine);
        let out = self.out.clone();
        let thread = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 * 1024 * 1024)
            .spawn(move || {
                for (job, done) in rx {
                    run(job, &engine, &out);
                    let _ = done.send(());
                }
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.thread = Some(thread);
        Ok(self.jobs.insert(tx))
    }
}

impl Drop for Searcher {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Runs one search and prints its `bestmove`.
fn run(job: SearchJob, engine: &Mutex<Engine>, out: &Output) {
    let searched = catch_unwind(AssertUnwindSafe(|| {
        let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
        let report = |info: &SearchInfo| out.line(&crate::protocol::info::write(info));
        engine.search(&job.game, &job.limits, &job.shared, &report)
    }));
    let line = match searched {
        Ok(outcome) => bestmove_line(&outcome),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            log::error!("the search panicked: {what}");
            out.error(&format!(
                "internal error in the search ({what}); playing the first legal move"
            ));
            fallback_line(&job.game, &job.limits)
        }
    };
    // Under `infinite` or `ponder`, bestmove waits for stop or ponderhit.
    while job.hold.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    job.finished.store(true, Ordering::SeqCst);
    out.line(&line);
}

/// `bestmove <move> [ponder <move>]`, or `bestmove 0000` with no move to play.
pub fn bestmove_line(outcome: &SearchOutcome) -> String {
    match (outcome.best, outcome.ponder) {
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// The first allowed move (of `searchmoves`, if given), or `0000` when the game is over.
fn fallback_line(game: &Game, limits: &Limits) -> String {
    let first: Option<Move> = if game.result() != GameResult::Ongoing {
        None
    } else if let Some(&m) = limits.searchmoves.first() {
        Some(m)
    } else {
        game.legal_moves().iter().next().copied()
    };
    match first {
        Some(m) => format!("bestmove {m}"),
        None => "bestmove 0000".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    /// A `Write` whose bytes the test can read.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("unpoisoned").extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_fallback_is_a_legal_move_or_none() {
        let game = Game::startpos();
        let line = fallback_line(&game, &Limits::default());
        let m = line.strip_prefix("bestmove ").expect("a bestmove line");
        assert!(game.position().parse_move(m).is_ok(), "{line}");
        let only = game.position().parse_move("a1b1").expect("legal");
        let limits = Limits {
            searchmoves: vec![only],
            ..Limits::default()
        };
        assert_eq!(fallback_line(&game, &limits), "bestmove a1b1");
        let over = Game::new(Position::from_fen("3R3/7/7/7/7/7/7/7/6l b").expect("valid"));
        assert_eq!(fallback_line(&over, &Limits::default()), "bestmove 0000");
    }

    #[test]
    fn every_job_gets_its_bestmove_on_the_one_thread() {
        let engine = Arc::new(Mutex::new(Engine::new(1).expect("small table")));
        let buffer = Buffer::default();
        let mut searcher = Searcher::new(engine, Output::new(Box::new(buffer.clone())));
        for depth in 1..=3 {
            let job = SearchJob {
                game: Game::startpos(),
                limits: Limits::depth(depth),
                shared: Arc::new(SharedState::new(1)),
                hold: Arc::new(AtomicBool::new(false)),
                finished: Arc::new(AtomicBool::new(false)),
            };
            let done = searcher.start(job).expect("the thread runs");
            let _ = done.recv();
        }
        let text = String::from_utf8_lossy(&buffer.0.lock().expect("unpoisoned")).into_owned();
        assert_eq!(
            text.lines().filter(|l| l.starts_with("bestmove")).count(),
            3,
            "{text}"
        );
    }
}
