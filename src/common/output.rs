//! Protocol output: whole lines, written and flushed under one lock so that lines from
//! the search threads and the command reader never interleave.

use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line. A closed stdout (the GUI went away) is not an error worth
    /// crashing for; it is logged.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let result = sink
            .write_all(text.as_bytes())
            .and_then(|_| sink.write_all(b"\n"))
            .and_then(|_| sink.flush());
        if let Err(e) = result {
            log::warn!("cannot write to stdout: {e}");
        }
        log::debug!("> {text}");
    }

    /// Writes several lines at once (for multi-line answers).
    pub fn lines(&self, text: &str) {
        let joined: String = text.lines().collect::<Vec<_>>().join("\n");
        self.line(&joined);
    }

    pub fn error(&self, message: &str) {
        self.line(&format!("info string error: {message}"));
    }
}
