//! What the board app tells its pages without being asked: a new state, new analysis
//! lines, a notice. The host sends each as it can (the GUI server as an event stream,
//! `event: <name>` and `data: <json>`; the browser's worker as a message).

use crate::api::Code;
use crate::view::{AnalysisView, View};
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", content = "data", rename_all = "lowercase")]
pub enum Event {
    /// Everything the page shows (after each change).
    State(Box<View>),
    /// The analysis lines (at most every 100 ms while they change).
    Analysis(AnalysisView),
    /// A note for the person: an error, or what an engine did.
    Notice(Notice),
}

impl Event {
    /// The event's name (`state`, `analysis`, `notice`).
    pub fn name(&self) -> &'static str {
        match self {
            Event::State(_) => "state",
            Event::Analysis(_) => "analysis",
            Event::Notice(_) => "notice",
        }
    }

    /// The event's data as JSON.
    pub fn data(&self) -> String {
        let json = match self {
            Event::State(v) => serde_json::to_string(v),
            Event::Analysis(a) => serde_json::to_string(a),
            Event::Notice(n) => serde_json::to_string(n),
        };
        // The views are plain data; serialising them cannot fail.
        json.unwrap_or_else(|_| "null".into())
    }
}

/// What kind of notice: the page shows errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NoticeKind {
    Info,
    Error,
}

/// A notice: its words in English (`text`, for logs), and its code and arguments,
/// by which the page words it (`notice.<code>` in its catalogues).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    pub kind: NoticeKind,
    pub text: String,
    pub code: &'static str,
    pub args: BTreeMap<&'static str, String>,
}

impl Notice {
    pub fn new(kind: NoticeKind, code: Code, text: String) -> Notice {
        Notice {
            kind,
            text,
            code: code.key,
            args: code.args.into_iter().collect(),
        }
    }
}

/// The last notices, newest last.
#[derive(Clone, Debug, Default)]
pub struct Notices(VecDeque<Notice>);

/// How many notices the page is shown.
const KEPT: usize = 20;

impl Notices {
    pub fn push(&mut self, notice: Notice) {
        self.0.push_back(notice);
        while self.0.len() > KEPT {
            self.0.pop_front();
        }
    }

    /// Forgets them all (a new game: what was said of the old one no longer holds).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    pub fn iter(&self) -> impl Iterator<Item = &Notice> {
        self.0.iter()
    }
}
