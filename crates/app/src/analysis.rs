//! Analysis of the shown position: the engine's lines as they come, sent to the pages
//! at most every 100 ms.

use crate::board::Move;
use crate::search::SearchInfo;
use jungle_core::clock::Instant;
use serde::Serialize;
use std::time::Duration;

/// One line of analysis as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PvLine {
    pub multipv: u32,
    pub depth: u32,
    /// `cp 23` or `mate -3`, from the side to move's view.
    pub score: String,
    pub nodes: u64,
    pub nps: u64,
    pub pv: Vec<String>,
}

impl PvLine {
    /// The line a search reported (the first 40 moves of its variation).
    pub fn of(info: &SearchInfo) -> PvLine {
        PvLine {
            multipv: info.multipv as u32,
            depth: info.depth.max(0) as u32,
            score: info.score.to_string(),
            nodes: info.nodes,
            nps: info.nps,
            pv: info.pv.iter().take(40).map(Move::to_string).collect(),
        }
    }
}

/// How often changed lines are sent.
const SEND_EVERY: Duration = Duration::from_millis(100);

#[derive(Clone, Debug)]
pub struct Analysis {
    pub on: bool,
    /// Lines asked for (1–8).
    pub multipv: u32,
    /// The lines of the current search, by number.
    pub lines: Vec<PvLine>,
    /// Lines changed since they were last sent.
    dirty: bool,
    sent: Instant,
}

impl Default for Analysis {
    fn default() -> Self {
        Analysis {
            on: false,
            multipv: 1,
            lines: Vec::new(),
            dirty: false,
            sent: Instant::now(),
        }
    }
}

impl Analysis {
    /// Takes a report of the analysing search.
    pub fn take(&mut self, info: &SearchInfo) {
        let line = PvLine::of(info);
        self.lines.retain(|l| l.multipv != line.multipv);
        self.lines.push(line);
        self.lines.sort_by_key(|l| l.multipv);
        self.lines.truncate(self.multipv as usize);
        self.dirty = true;
    }

    /// The lines are of a position that is no longer shown.
    pub fn clear(&mut self) {
        self.lines.clear();
    }

    /// True when changed lines are due to be sent (and counts them as sent).
    pub fn due(&mut self) -> bool {
        if !self.dirty || self.sent.elapsed() < SEND_EVERY {
            return false;
        }
        self.dirty = false;
        self.sent = Instant::now();
        true
    }

    /// The first line's first move, if any.
    pub fn best_move(&self) -> Option<&str> {
        self.lines.first()?.pv.first().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;

    #[test]
    fn keeps_one_line_of_each_number_in_order() {
        let mut a = Analysis {
            multipv: 2,
            ..Analysis::default()
        };
        let report = |multipv, cp| SearchInfo {
            multipv,
            depth: 3,
            score: Score::Cp(cp),
            pv: vec!["a3a4".parse().expect("a move")],
            ..SearchInfo::default()
        };
        a.take(&report(2, 5));
        a.take(&report(1, 9));
        a.take(&report(1, 12));
        a.take(&report(3, 1));
        let scores: Vec<&str> = a.lines.iter().map(|l| l.score.as_str()).collect();
        assert_eq!(scores, ["cp 12", "cp 5"]);
        assert_eq!(a.best_move(), Some("a3a4"));
        std::thread::sleep(SEND_EVERY);
        assert!(a.due());
        assert!(!a.due());
    }
}
