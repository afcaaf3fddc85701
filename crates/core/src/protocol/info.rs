//! `info` lines: the one place a search's report becomes text and text becomes a
//! report. This engine's session writes them; the board app and the match referee read
//! those of other programs (any engine speaking the protocol, or jungine's jcei).
//!
//! `info depth 12 seldepth 18 multipv 1 score cp 35 nodes 120000 nps 2400000 hashfull
//! 3 tbhits 0 time 50 pv g3g4 a7a6`, with `lowerbound` or `upperbound` after the score
//! when it is a bound.

use crate::board::Move;
use crate::search::{Score, ScoreBound, SearchInfo};
use std::time::Duration;

/// The `info` line of a report.
pub fn write(info: &SearchInfo) -> String {
    let bound = match info.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time.as_millis(),
        pv.join(" ")
    )
}

/// The report of an `info` line that carries a score; `None` for any other line
/// (`info string …`, `info currmove …`, a malformed score). Fields a program leaves
/// out keep their defaults (`multipv` 1); the principal variation ends at the first
/// word that is not a move. Whether its moves are legal is for the caller's rules.
pub fn read(line: &str) -> Option<SearchInfo> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut info = SearchInfo {
        multipv: 1,
        ..SearchInfo::default()
    };
    let mut scored = false;
    while let Some(key) = words.next() {
        match key {
            "string" => return None,
            "depth" => info.depth = number(words.next())?,
            "seldepth" => info.seldepth = number(words.next())?,
            "multipv" => info.multipv = number::<usize>(words.next())?.max(1),
            "nodes" => info.nodes = number(words.next())?,
            "nps" => info.nps = number(words.next())?,
            "hashfull" => info.hashfull = number(words.next())?,
            "tbhits" => info.tbhits = number(words.next())?,
            "time" => info.time = Duration::from_millis(number(words.next())?),
            "score" => {
                let kind = words.next()?;
                let value: i32 = number(words.next())?;
                info.score = match kind {
                    "cp" => Score::Cp(value),
                    "mate" => Score::Mate(value),
                    _ => return None,
                };
                scored = true;
            }
            "lowerbound" => info.bound = ScoreBound::Lower,
            "upperbound" => info.bound = ScoreBound::Upper,
            "pv" => {
                info.pv = words.map_while(|w| w.parse().ok()).collect();
                break;
            }
            // Words of other reports (`currmove e2e4`, `currmovenumber 3`, …) and
            // their values are passed over.
            _ => {}
        }
    }
    scored.then_some(info)
}

fn number<T: std::str::FromStr>(word: Option<&str>) -> Option<T> {
    word?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().expect("a move"))
            .collect()
    }

    #[test]
    fn a_report_reads_back_as_written() {
        let info = SearchInfo {
            depth: 7,
            seldepth: 11,
            multipv: 2,
            score: Score::Mate(-3),
            bound: ScoreBound::Upper,
            nodes: 1234,
            nps: 99_000,
            time: Duration::from_millis(12),
            hashfull: 5,
            tbhits: 2,
            pv: moves("a3a4 a7a6"),
        };
        let line = write(&info);
        assert_eq!(
            line,
            "info depth 7 seldepth 11 multipv 2 score mate -3 upperbound nodes 1234 nps 99000 hashfull 5 tbhits 2 time 12 pv a3a4 a7a6"
        );
        assert_eq!(read(&line), Some(info));
    }

    #[test]
    fn reads_what_other_programs_say() {
        // jungine's lines have no multipv, hashfull or tbhits.
        let j = read("info depth 3 seldepth 5 score cp 12 nodes 40 nps 400 time 1 pv g3g4")
            .expect("a report");
        assert_eq!((j.multipv, j.score, j.depth), (1, Score::Cp(12), 3));
        assert_eq!(j.pv, moves("g3g4"));
        // Other words are passed over; the principal variation stops at a non-move.
        let o = read("info depth 2 currmove a3a4 score cp -5 lowerbound pv a3a4 b7b6 x")
            .expect("a report");
        assert_eq!((o.score, o.bound), (Score::Cp(-5), ScoreBound::Lower));
        assert_eq!(o.pv, moves("a3a4 b7b6"));
        for not_a_report in [
            "info depth 3 nodes 40",
            "info depth 3 score cp x pv a1a2",
            "info depth 3 score wdl 1 pv a1a2",
            "info string score cp 5",
            "info depth x score cp 5",
            "bestmove a1a2",
            "",
        ] {
            assert_eq!(read(not_a_report), None, "{not_a_report:?}");
        }
    }
}
