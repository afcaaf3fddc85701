//! Long calls that Ctrl-C stops. Python runs its signal handlers (the one that raises
//! `KeyboardInterrupt`) only on the main thread, between bytecodes: a call that works
//! for seconds in Rust would hold the `KeyboardInterrupt` back until it returns. So
//! the work runs on a pool's thread while the calling thread waits with the GIL
//! released and looks for signals every `POLL`; on one, the work is told to stop,
//! and its end is awaited before the exception is raised (nothing runs on after it).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::ThreadPool;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
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
    wait_for(py, rx, interrupt)
}

fn wait_for<T: Send>(py: Python<'_>, rx: Receiver<T>, interrupt: impl Fn()) -> PyResult<T> {
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
                        interrupt();
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
