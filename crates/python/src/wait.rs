//! Long calls that Ctrl-C stops. Python runs its signal handlers (the one that raises
//! `KeyboardInterrupt`) only on the main thread, between bytecodes: a call that works
//! for seconds in Rust would hold the `KeyboardInterrupt` back until it returns. So
//! the work runs on a pool's thread while the calling thread waits with the GIL
//! released and looks for signals every `POLL`; on one, the work is told to stop,
//! and its end is awaited before the exception is raised (nothing runs on after it).
//! Work that cannot be told to stop (a table build) runs on a thread of its own
//! instead, and Ctrl-C leaves it to finish there (`leaving_on_signal`).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::ThreadPool;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// How often a waiting call looks for signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on `pool` (the global rayon pool when `None`) while this thread waits
/// with the GIL released, checking for signals every `POLL`. When a signal handler
/// raises (Ctrl-C's `KeyboardInterrupt`), `interrupt` is called, which must make
/// `work` return soon; once it has, the exception is raised.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    pool: Option<&ThreadPool>,
    work: impl FnOnce() -> T + Send,
    interrupt: impl Fn(),
) -> PyResult<T> {
    match pool {
        Some(pool) => pool.in_place_scope(|scope| spawn_and_wait(scope, py, work, interrupt)),
        None => rayon::in_place_scope(|scope| spawn_and_wait(scope, py, work, interrupt)),
    }
}

fn spawn_and_wait<'scope, T: Send + 'scope>(
    scope: &rayon::Scope<'scope>,
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'scope,
    interrupt: impl Fn(),
) -> PyResult<T> {
    let (tx, rx) = channel();
    scope.spawn(move |_| {
        // The receiver waits until this is sent (or the sender is gone, on a panic).
        let _ = tx.send(work());
    });
    wait_for(py, rx, Some(interrupt))
}

/// Runs `work` on a thread of its own while this thread waits with the GIL released,
/// checking for signals every `POLL`. When a signal handler raises, the exception is
/// raised at once and `work` is left to finish on its thread: for work that cannot be
/// told to stop and whose result is kept for later calls (tables built in memory).
pub fn leaving_on_signal<T: Send + 'static>(
    py: Python<'_>,
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = channel();
    thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            // Nobody may be waiting any more (Ctrl-C): then the value is dropped.
            let _ = tx.send(work());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread for {name}: {e}")))?;
    wait_for(py, rx, None::<fn()>)
}

/// Waits for the value on `rx`, checking for signals. On one, `interrupt` (if any) is
/// called and the wait goes on until the work ends; without `interrupt` the exception
/// is raised at once.
fn wait_for<T: Send>(py: Python<'_>, rx: Receiver<T>, interrupt: Option<impl Fn()>) -> PyResult<T> {
    let mut raised: Option<PyErr> = None;
    let mut rx = rx;
    loop {
        let (got, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
        rx = back;
        match got {
            Ok(value) => return raised.map_or(Ok(value), Err),
            Err(RecvTimeoutError::Timeout) => {
                if raised.is_none() {
                    if let Err(e) = py.check_signals() {
                        match &interrupt {
                            Some(interrupt) => interrupt(),
                            None => return Err(e),
                        }
                        raised = Some(e);
                    }
                }
            }
            // The work panicked: the scope raises its panic when it ends.
            Err(RecvTimeoutError::Disconnected) => {
                return Err(raised.unwrap_or_else(|| PyRuntimeError::new_err("the work failed")))
            }
        }
    }
}
