//! One summary from the record files of a match, or of the shards of one match
//! (`jungle replay FILE…`): W/D/L, pentanomial pairs, Elo and SPRT, as the match
//! runner prints them.
//!
//! The two games of a pair are found by their `[Game]` numbers (`2p+1` and `2p+2` for
//! pair `p`, as `jungle match` numbers them with or without `--shard`), so the files may
//! come in any order. The first engine (the one the scores are given for) is Red in the
//! odd-numbered games.

use super::match_runner::Tally;
use super::stats::GameScore;
use crate::record::{ReadGame, RecordResult};
use std::collections::HashMap;

/// The tally of a set of recorded games, and the names of the two engines (the first
/// engine's results are counted).
#[derive(Debug, Clone)]
pub struct Merged {
    pub tally: Tally,
    pub names: [String; 2],
}

fn tag<'a>(g: &'a ReadGame, key: &str) -> Option<&'a str> {
    g.tags
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// The number of a recorded game, from its `[Game]` tag.
fn number(g: &ReadGame, index: usize) -> Result<u32, String> {
    let text = tag(g, "Game").ok_or(format!(
        "game {} has no [Game] tag: its pair cannot be found",
        index + 1
    ))?;
    text.parse().ok().filter(|&n| n >= 1).ok_or(format!(
        "game {}: bad [Game] tag '{}'",
        index + 1,
        crate::text::quote(text)
    ))
}

/// Counts `games` (in any order) as the match runner counts them.
pub fn merge(games: &[ReadGame]) -> Result<Merged, String> {
    let mut names: Option<[String; 2]> = None;
    let mut seen = HashMap::new();
    let mut tally = Tally::default();
    // Per pair, the first engine's result in the game found first.
    let mut pending: HashMap<u32, GameScore> = HashMap::new();
    for (i, g) in games.iter().enumerate() {
        let n = number(g, i)?;
        if seen.insert(n, i).is_some() {
            return Err(format!(
                "game {n} is recorded twice (the same file or shard given twice?)"
            ));
        }
        let red = tag(g, "Red").ok_or(format!("game {n} has no [Red] tag"))?;
        let blue = tag(g, "Blue").ok_or(format!("game {n} has no [Blue] tag"))?;
        // The first engine plays Red in odd-numbered games.
        let pair_names = if n % 2 == 1 {
            [red.to_string(), blue.to_string()]
        } else {
            [blue.to_string(), red.to_string()]
        };
        let names = names.get_or_insert_with(|| pair_names.clone());
        if *names != pair_names {
            return Err(format!(
                "game {n} is {} vs {}: not a game of the match {} vs {}",
                crate::text::quote(red),
                crate::text::quote(blue),
                crate::text::quote(&names[0]),
                crate::text::quote(&names[1])
            ));
        }
        let first_is_red = n % 2 == 1;
        let score = match g.result {
            Some(RecordResult::Draw) => GameScore::Draw,
            Some(won @ (RecordResult::RedWins | RecordResult::BlueWins)) => {
                if (won == RecordResult::RedWins) == first_is_red {
                    GameScore::Win
                } else {
                    GameScore::Loss
                }
            }
            // An unfinished game (saved by `jungle gui`) counts for nothing.
            Some(RecordResult::Unfinished) => continue,
            None => return Err(format!("game {n}: no result after the moves")),
        };
        tally.wdl.add(score);
        tally.games += 1;
        if let Some(loser) = fault_loser(g, score) {
            let f = &mut tally.faults[loser];
            match tag(g, "Termination").unwrap_or("") {
                t if t.starts_with("illegal move") => f.0 += 1,
                "loss on time" => f.1 += 1,
                _ => f.2 += 1,
            }
        }
        let pair = (n - 1) / 2;
        match pending.remove(&pair) {
            Some(other) => tally.pairs.add_pair(other, score),
            None => {
                pending.insert(pair, score);
            }
        }
    }
    let names = names.ok_or("no games to count")?;
    Ok(Merged { tally, names })
}

/// The engine (0 or 1) that lost `g` by a fault (illegal move, time, crash, hang),
/// given the first engine's `score`.
fn fault_loser(g: &ReadGame, score: GameScore) -> Option<usize> {
    let termination = tag(g, "Termination")?;
    let fault = termination.starts_with("illegal move")
        || matches!(
            termination,
            "loss on time" | "engine crashed" | "engine did not answer"
        );
    match (fault, score) {
        (true, GameScore::Loss) => Some(0),
        (true, GameScore::Win) => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::Pentanomial;
    use crate::record::read_records;

    fn record(n: u32, red: &str, blue: &str, result: &str, termination: &str) -> String {
        format!(
            "[Game \"{n}\"]\n[Red \"{red}\"]\n[Blue \"{blue}\"]\n[Result \"{result}\"]\n[Termination \"{termination}\"]\n[Rules \"jungle\"]\n[FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1\"]\n\n1. g3g4 {result}\n\n"
        )
    }

    fn merged(text: &str) -> Result<Merged, String> {
        merge(&read_records(text, crate::game::Rules::default()).expect("reads"))
    }

    #[test]
    fn pairs_are_found_by_number_in_any_order() {
        // Pair 0: A wins as Red, draws as Blue. Pair 1: A loses both (once on time).
        // Game 5 has no partner yet.
        let text = [
            record(4, "B", "A", "1-0", "red wins (den entered)"),
            record(2, "B", "A", "1/2-1/2", "draw (repetition)"),
            record(5, "A", "B", "1/2-1/2", "draw (repetition)"),
            record(1, "A", "B", "1-0", "red wins (den entered)"),
            record(3, "A", "B", "0-1", "loss on time"),
        ]
        .concat();
        let m = merged(&text).expect("merges");
        assert_eq!(m.names, ["A".to_string(), "B".to_string()]);
        let t = &m.tally;
        assert_eq!(
            (t.wdl.wins, t.wdl.losses, t.wdl.draws, t.games),
            (1, 2, 2, 5)
        );
        assert_eq!(
            t.pairs,
            Pentanomial {
                ll: 1,
                wd: 1,
                ..Pentanomial::default()
            }
        );
        assert_eq!(t.faults, [(0, 1, 0), (0, 0, 0)]);
    }

    #[test]
    fn faults_are_charged_to_the_loser() {
        let text = [
            record(1, "A", "B", "1-0", "illegal move a1a3"),
            record(2, "B", "A", "1-0", "engine crashed"),
            record(3, "A", "B", "0-1", "engine did not answer"),
            record(4, "B", "A", "0-1", "adjudicated resignation"),
        ]
        .concat();
        let t = merged(&text).expect("merges").tally;
        assert_eq!(t.faults, [(0, 0, 2), (1, 0, 0)]);
    }

    #[test]
    fn foreign_duplicate_and_untagged_games_are_errors() {
        let two = [
            record(1, "A", "B", "1-0", "x"),
            record(1, "A", "B", "1-0", "x"),
        ]
        .concat();
        assert!(merged(&two)
            .unwrap_err()
            .contains("game 1 is recorded twice"));
        let foreign = [
            record(1, "A", "B", "1-0", "x"),
            record(3, "A", "C", "1-0", "x"),
        ]
        .concat();
        assert!(merged(&foreign)
            .unwrap_err()
            .contains("game 3 is A vs C: not a game of the match A vs B"));
        let swapped = [
            record(1, "A", "B", "1-0", "x"),
            record(3, "B", "A", "1-0", "x"),
        ]
        .concat();
        assert!(merged(&swapped).is_err());
        let untagged = record(1, "A", "B", "1-0", "x").replace("[Game \"1\"]\n", "");
        assert!(merged(&untagged).unwrap_err().contains("no [Game] tag"));
        let zero = record(0, "A", "B", "1-0", "x");
        assert!(merged(&zero).unwrap_err().contains("bad [Game] tag '0'"));
        let result = record(1, "A", "B", "2-0", "x");
        assert!(merged(&result)
            .unwrap_err()
            .contains("game 1: no result after the moves"));
        assert!(merge(&[]).unwrap_err().contains("no games"));
    }
}
