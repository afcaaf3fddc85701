//! The game line as a record file and back (the format of `jungle match`,
//! `jungle_core::record`): what "Save game" writes and "Load game" reads.

use crate::api::{Code, Refusal};
use crate::board::Move;
use crate::line::GameLine;
use crate::review::Review;
use jungle_core::game::Rules;
use jungle_core::record::{self, RecordHeader, RecordResult};
use jungle_core::review::MoveNote;
use jungle_core::text::quote;

/// The line as a record file (`jungle replay` reads it), with the review's notes as
/// comments; an unfinished game has the result `*`.
pub fn write(line: &GameLine, names: [&str; 2], notes: &[Option<MoveNote>]) -> String {
    let (result, termination) = match line.final_result() {
        Some((winner, reason)) => (RecordResult::of_winner(winner), reason),
        None => (RecordResult::Unfinished, "unfinished".to_string()),
    };
    let moves: Vec<String> = line.moves().iter().map(Move::to_string).collect();
    let comments: Vec<Option<String>> = notes
        .iter()
        .map(|n| n.as_ref().map(MoveNote::to_comment))
        .collect();
    let mut out = Vec::new();
    // Writing to memory cannot fail.
    let _ = record::write_game_with_comments(
        &mut out,
        &RecordHeader {
            number: 1,
            red: names[0],
            blue: names[1],
            result,
            termination: &termination,
            rules: line.rules(),
            start: *line.start(),
        },
        &moves,
        &comments,
    );
    String::from_utf8_lossy(&out).into_owned()
}

/// A game read from a record file.
pub struct Loaded {
    /// At its end.
    pub line: GameLine,
    /// The review its comments carry (`jungle analyse`, or a board's saved review).
    pub review: Option<Review>,
    /// What was loaded, in words.
    pub description: String,
    /// The same as the page words it.
    pub code: Code,
}

/// Game `number` (from 1) of the record file `text`, read and replayed under the rules
/// of its `[Rules]` tag (the default rules without one).
pub fn read(text: &str, number: usize) -> Result<Loaded, Refusal> {
    let games = record::read_records(text, Rules::default()).map_err(|e| {
        // The core's errors start with the line they are about ("line 5: …").
        let line = e
            .strip_prefix("line ")
            .and_then(|rest| rest.split_once(':'))
            .map_or("?", |(n, _)| n);
        Refusal::bad(format!("cannot read the record file: {e}"))
            .coded("badRecord", &[("line", line)])
    })?;
    if games.is_empty() {
        return Err(Refusal::bad("the record file has no games").coded("noGames", &[]));
    }
    let count = games.len().to_string();
    let g = games.get(number.wrapping_sub(1)).ok_or_else(|| {
        Refusal::bad(format!(
            "game {number} is not in the file (it has {count} games)"
        ))
        .coded(
            "noSuchGame",
            &[("number", &number.to_string()), ("games", &count)],
        )
    })?;
    let game = record::replay(g).map_err(|e| {
        // The core's error names the move ("move 3 'a1a9': …").
        let ply = e
            .strip_prefix("move ")
            .and_then(|rest| rest.split_once(' '))
            .map_or("?", |(n, _)| n);
        Refusal::bad(format!("game {number} cannot be replayed: {e}")).coded(
            "badRecordMove",
            &[("number", &number.to_string()), ("ply", ply)],
        )
    })?;
    let moves = game.moves().to_vec();
    let cursor = moves.len();
    let tag = |k: &str| g.tag(k).unwrap_or("?").to_string();
    let code = Code::notice(
        "loaded",
        &[
            ("number", &number.to_string()),
            ("games", &count),
            ("red", &quote(&tag("Red"))),
            ("blue", &quote(&tag("Blue"))),
        ],
    );
    Ok(Loaded {
        code,
        line: GameLine::with_moves(g.start, g.rules, moves, cursor),
        review: Review::from_comments(&g.comments),
        description: format!(
            "loaded game {number} of {}: {} (Red) against {} (Blue), {} {{{}}}",
            games.len(),
            quote(&tag("Red")),
            quote(&tag("Blue")),
            g.result.unwrap_or_default(),
            g.tag("Termination").map(quote).unwrap_or_default()
        ),
    })
}
