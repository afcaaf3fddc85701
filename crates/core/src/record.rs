//! The record format of games (PGN-like; protocol.md): writing a game, reading a file
//! of games back under each game's `[Rules]` tag, replaying them with the referee, and
//! reading openings files. Text in, text out: no files are opened here.

use crate::board::{Color, Position};
use crate::game::{Game, GameResult, Rules};
use std::io::Write;

/// The result of a recorded game, as a record writes it: `1-0` (Red won), `0-1` (Blue
/// won), `1/2-1/2`, or `*` (unfinished).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RecordResult {
    RedWins,
    BlueWins,
    Draw,
    #[default]
    Unfinished,
}

impl RecordResult {
    /// A finished game's result: its winner, or a draw.
    pub fn of_winner(winner: Option<Color>) -> RecordResult {
        match winner {
            Some(Color::Red) => RecordResult::RedWins,
            Some(Color::Blue) => RecordResult::BlueWins,
            None => RecordResult::Draw,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RecordResult::RedWins => "1-0",
            RecordResult::BlueWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unfinished => "*",
        }
    }

    /// Reads `as_str`.
    pub fn parse(word: &str) -> Option<RecordResult> {
        [
            RecordResult::RedWins,
            RecordResult::BlueWins,
            RecordResult::Draw,
            RecordResult::Unfinished,
        ]
        .into_iter()
        .find(|r| r.as_str() == word)
    }

    /// What `color` scored (1, ½ or 0); `None` for an unfinished game.
    pub fn score_of(self, color: Color) -> Option<f64> {
        let red = match self {
            RecordResult::RedWins => 1.0,
            RecordResult::BlueWins => 0.0,
            RecordResult::Draw => 0.5,
            RecordResult::Unfinished => return None,
        };
        Some(if color == Color::Red { red } else { 1.0 - red })
    }
}

impl std::fmt::Display for RecordResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The tags of a game record.
pub struct RecordHeader<'a> {
    pub number: u32,
    pub red: &'a str,
    pub blue: &'a str,
    pub result: RecordResult,
    pub termination: &'a str,
    pub rules: Rules,
    pub start: Position,
}

/// Writes one game: the tags, a blank line, the numbered moves and the result.
pub fn write_game(out: &mut impl Write, h: &RecordHeader, moves: &[String]) -> std::io::Result<()> {
    write_game_with_comments(out, h, moves, &[])
}

/// `write_game` with a comment after each move that has one (`comments[i]` after
/// move i; `{` and `}` inside a comment become parentheses).
pub fn write_game_with_comments(
    out: &mut impl Write,
    h: &RecordHeader,
    moves: &[String],
    comments: &[Option<String>],
) -> std::io::Result<()> {
    let tags = [
        ("Game", h.number.to_string()),
        ("Red", h.red.to_string()),
        ("Blue", h.blue.to_string()),
        ("Result", h.result.to_string()),
        ("Termination", h.termination.to_string()),
        ("Rules", h.rules.to_string()),
        ("FEN", h.start.to_fen()),
    ];
    write_tagged_game(out, &tags, moves, comments, h.result)
}

/// Writes one game with these tags, in their order (a reader's `ReadGame::tags`
/// written back), then a blank line, the numbered moves with their comments, and
/// the result.
pub fn write_tagged_game<K: AsRef<str>, V: AsRef<str>>(
    out: &mut impl Write,
    tags: &[(K, V)],
    moves: &[String],
    comments: &[Option<String>],
    result: RecordResult,
) -> std::io::Result<()> {
    // Quotes would end a tag early: names are the command line's, but be safe.
    let clean = |s: &str| s.replace(['"', '\n', '\r', ']'], "'");
    for (key, value) in tags {
        writeln!(
            out,
            "[{} \"{}\"]",
            clean(key.as_ref()).replace(' ', "_"),
            clean(value.as_ref())
        )?;
    }
    writeln!(out)?;
    let mut text = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(m);
        text.push(' ');
        if let Some(Some(c)) = comments.get(i) {
            let c: String = c
                .chars()
                .map(|ch| match ch {
                    '{' => '(',
                    '}' => ')',
                    '\n' | '\r' => ' ',
                    ch => ch,
                })
                .collect();
            text.push_str(&format!("{{{}}} ", c.trim()));
        }
    }
    text.push_str(result.as_str());
    writeln!(out, "{text}")?;
    writeln!(out)
}

/// A game read back from a record file.
#[derive(Clone, Debug)]
pub struct ReadGame {
    pub tags: Vec<(String, String)>,
    /// The rules of its `[Rules]` tag, or the reader's default when it has none.
    pub rules: Rules,
    pub start: Position,
    pub moves: Vec<String>,
    /// The comment (`{…}`) after each move, if any, as many as moves.
    pub comments: Vec<Option<String>>,
    /// `None` when the record gives none.
    pub result: Option<RecordResult>,
    /// The line (from 1) of the file its moves are on, for errors in them.
    pub line: usize,
}

impl ReadGame {
    /// The value of tag `key` (`Red`, `Termination`, …), if the record has it.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads a record file written by `jungle match --pgn`. Each game is read under the
/// rules of its `[Rules]` tag (as `write_record` writes them), or `default` when it has
/// none; its start position under those rules' move rules (a dog may start in the
/// water when dogs swim).
pub fn read_records(text: &str, default: Rules) -> Result<Vec<ReadGame>, String> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    // The lines of the game's FEN and Rules tags, for errors in them.
    let mut fen_line = 0;
    let mut rules_line = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(tag) = line.strip_prefix('[') {
            let tag = tag
                .strip_suffix(']')
                .ok_or(format!("line {}: unterminated tag", n + 1))?;
            let (k, v) = tag
                .split_once(' ')
                .ok_or(format!("line {}: bad tag", n + 1))?;
            if k == "FEN" && !tags.iter().any(|(k, _)| k == "FEN") {
                fen_line = n + 1;
            }
            if k == "Rules" && !tags.iter().any(|(k, _)| k == "Rules") {
                rules_line = n + 1;
            }
            tags.push((k.to_string(), v.trim_matches('"').to_string()));
            continue;
        }
        let fen = tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map(|(_, v)| v.clone())
            .ok_or(format!("line {}: moves without a FEN tag", n + 1))?;
        let rules = match tags.iter().find(|(k, _)| k == "Rules") {
            Some((_, text)) => text
                .parse::<Rules>()
                .map_err(|e| format!("line {rules_line}: {e}"))?,
            None => default,
        };
        let start = Position::from_fen_with(&fen, rules.moves)
            .map_err(|e| format!("line {fen_line}: {e}"))?;
        let mut moves = Vec::new();
        let mut comments = Vec::new();
        let mut result = None;
        for part in split_comments(line).map_err(|e| format!("line {}: {e}", n + 1))? {
            match part {
                Part::Comment(c) => {
                    if let Some(last) = comments.last_mut() {
                        *last = Some(c.trim().to_string());
                    }
                }
                Part::Text(text) => {
                    for tok in text.split_whitespace() {
                        if tok.ends_with('.') {
                            continue;
                        }
                        if let Some(r) = RecordResult::parse(tok) {
                            result = Some(r);
                        } else {
                            moves.push(tok.to_string());
                            comments.push(None);
                        }
                    }
                }
            }
        }
        games.push(ReadGame {
            tags: std::mem::take(&mut tags),
            rules,
            start,
            moves,
            comments,
            result,
            line: n + 1,
        });
    }
    Ok(games)
}

/// A piece of a move line: text, or a comment in braces.
enum Part<'a> {
    Text(&'a str),
    Comment(&'a str),
}

/// Cuts a move line into text and `{comments}`.
fn split_comments(line: &str) -> Result<Vec<Part<'_>>, String> {
    let mut parts = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        parts.push(Part::Text(&rest[..open]));
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or("a comment '{' without its '}'")?;
        if after[..close].contains('{') {
            return Err("a comment '{' without its '}'".into());
        }
        parts.push(Part::Comment(&after[..close]));
        rest = &after[close + 1..];
    }
    if rest.contains('}') {
        return Err("a '}' without its '{'".into());
    }
    parts.push(Part::Text(rest));
    Ok(parts)
}

/// Replays a game with the referee under its rules; returns the final game or the
/// first bad move.
pub fn replay(g: &ReadGame) -> Result<Game, String> {
    let mut game = Game::with_rules(g.start, g.rules);
    for (i, m) in g.moves.iter().enumerate() {
        game.play_text(m)
            .map_err(|e| format!("move {} '{}': {e}", i + 1, crate::text::quote(m)))?;
    }
    Ok(game)
}

/// Reads an openings file: one position string per line; `#` comments, `;` labels.
pub fn read_openings(text: &str, rules: Rules) -> Result<Vec<Position>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let fen = line.split(';').next().unwrap_or("").trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        let pos = Position::from_fen_with(fen, rules.moves)
            .map_err(|e| format!("openings line {}: {e}", n + 1))?;
        if Game::with_rules(pos, rules).result() != GameResult::Ongoing {
            return Err(format!("openings line {}: the game is already over", n + 1));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err("the openings file has no positions".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::MoveRuleFlags;

    #[test]
    fn records_replay_under_their_rules_tag() {
        // Threefold repetition: a draw under the default rules, not under jungle-cn.
        let moves = "1. a1a2 a9a8 2. a2a1 a8a9 3. a1a2 a9a8 4. a2a1 a8a9 5. a1a2 1/2-1/2";
        let text =
            format!("[Rules \"jungle-cn\"]\n[FEN \"l6/7/7/7/7/7/7/7/T5L r 0 1\"]\n\n{moves}\n");
        let games = read_records(&text, Rules::default()).expect("reads");
        assert_eq!(games[0].rules, crate::game::Variant::JungleCn.rules());
        assert!(replay(&games[0]).is_ok());
        let untagged = format!("[FEN \"l6/7/7/7/7/7/7/7/T5L r 0 1\"]\n\n{moves}\n");
        let games = read_records(&untagged, Rules::default()).expect("reads");
        let err = replay(&games[0]).expect_err("a draw before the last move");
        assert!(err.contains("repetition"), "{err}");
        let bad = text.replace("jungle-cn", "jungle-xx");
        assert!(read_records(&bad, Rules::default()).is_err());
    }

    #[test]
    fn a_bad_rules_tag_is_reported_at_its_line() {
        // The tag on line 5, the moves on line 8.
        let text = "[Game \"1\"]\n[Red \"a\"]\n[Blue \"b\"]\n[Result \"*\"]\n\
                    [Rules \"jungle-xx\"]\n[FEN \"l6/7/7/7/7/7/7/7/T5L r 0 1\"]\n\n1. a1a2 *\n";
        let err = read_records(text, Rules::default()).expect_err("no such rules");
        assert!(err.starts_with("line 5: "), "{err}");
    }

    #[test]
    fn results_read_as_written() {
        for r in [
            RecordResult::RedWins,
            RecordResult::BlueWins,
            RecordResult::Draw,
            RecordResult::Unfinished,
        ] {
            assert_eq!(RecordResult::parse(r.as_str()), Some(r));
        }
        assert_eq!(
            RecordResult::of_winner(Some(Color::Blue)),
            RecordResult::BlueWins
        );
        assert_eq!(RecordResult::Draw.score_of(Color::Blue), Some(0.5));
        assert_eq!(RecordResult::RedWins.score_of(Color::Blue), Some(0.0));
        assert_eq!(RecordResult::Unfinished.score_of(Color::Red), None);
        let text = format!("[FEN \"{}\"]\n\n1. a3a4 0-1\n", crate::board::START_FEN);
        let games = read_records(&text, Rules::default()).expect("reads");
        assert_eq!(games[0].result, Some(RecordResult::BlueWins));
        let text = format!("[FEN \"{}\"]\n\n1. a3a4\n", crate::board::START_FEN);
        let games = read_records(&text, Rules::default()).expect("reads");
        assert_eq!(games[0].result, None);
    }

    #[test]
    fn records_start_under_the_rules_they_are_replayed_with() {
        // A red dog in the water at c4: a position only when dogs swim.
        let text = "[FEN \"l5t/1d3c1/r1p1w1e/7/7/2D4/E1W1P1R/1C5/T5L r 0 1\"]\n\n1. c4c5 1/2-1/2\n";
        let swim = Rules {
            moves: MoveRuleFlags {
                dog_swims: true,
                ..MoveRuleFlags::default()
            },
            ..Rules::default()
        };
        let games = read_records(text, swim).expect("dogs swim");
        assert_eq!(games.len(), 1);
        let game = replay(&games[0]).expect("c4c5 swims on");
        assert_eq!(game.moves().len(), 1);
        let err = read_records(text, Rules::default()).expect_err("dogs do not swim");
        assert!(err.contains("line 1") && err.contains("water"), "{err}");
    }

    #[test]
    fn replay_errors_quote_a_bad_move_shortly() {
        // Found by the records fuzz target: a corrupt move of any length was echoed
        // whole in the error line `jungle replay` prints.
        let long = "x".repeat(5000);
        let text = format!("[FEN \"{}\"]\n\n1. {long} 1-0\n", crate::board::START_FEN);
        let games = read_records(&text, Rules::default()).expect("reads");
        let err = replay(&games[0]).expect_err("not a move");
        assert!(err.starts_with("move 1 'xxxxxxxxxx"), "{err}");
        let tail = "x".repeat(crate::text::QUOTE_MAX - crate::text::QUOTE_MAX / 2);
        assert!(err.contains(&format!("...{tail}': ")), "{err}");
        assert!(err.len() < 200, "{err}");
        // Short moves are quoted whole.
        let text = format!("[FEN \"{}\"]\n\n1. a1a3 1-0\n", crate::board::START_FEN);
        let games = read_records(&text, Rules::default()).expect("reads");
        let err = replay(&games[0]).expect_err("illegal");
        assert!(err.starts_with("move 1 'a1a3': "), "{err}");
    }

    #[test]
    fn comments_after_moves_are_kept_and_written_back() {
        let text = format!(
            "[FEN \"{}\"]\n\n1. g3g4 {{eval +0.20}} a7a6 2. g4g5 {{eval -1.10 loss 12.0 mistake best a3a4}} 1-0\n",
            crate::board::START_FEN
        );
        let games = read_records(&text, Rules::default()).expect("reads");
        let g = &games[0];
        assert_eq!(g.moves, ["g3g4", "a7a6", "g4g5"]);
        assert_eq!(
            g.comments,
            [
                Some("eval +0.20".to_string()),
                None,
                Some("eval -1.10 loss 12.0 mistake best a3a4".to_string())
            ]
        );
        assert_eq!(g.result, Some(RecordResult::RedWins));
        let mut out = Vec::new();
        write_game_with_comments(
            &mut out,
            &RecordHeader {
                number: 1,
                red: "a",
                blue: "b",
                result: RecordResult::RedWins,
                termination: "t",
                rules: Rules::default(),
                start: g.start,
            },
            &g.moves,
            &[Some("x {y}".into()), None, Some("z".into())],
        )
        .expect("writes");
        let written = String::from_utf8(out).expect("UTF-8");
        assert!(
            written.contains("1. g3g4 {x (y)} a7a6 2. g4g5 {z} 1-0"),
            "{written}"
        );
        assert_eq!(
            read_records(&written, Rules::default()).expect("reads")[0]
                .moves
                .len(),
            3
        );
        let bad = text.replace("{eval +0.20}", "{eval +0.20");
        let err = read_records(&bad, Rules::default()).expect_err("unterminated");
        assert!(err.contains("line 3") && err.contains("comment"), "{err}");
    }

    #[test]
    fn games_know_their_moves_line_and_tags_write_back_in_order() {
        let text = format!(
            "[Game \"1\"]\n[Event \"x\"]\n[FEN \"{}\"]\n\n1. g3g4 a7a6 1/2-1/2\n\n[FEN \"{}\"]\n\n1. a3a4 *\n",
            crate::board::START_FEN,
            crate::board::START_FEN
        );
        let games = read_records(&text, Rules::default()).expect("reads");
        assert_eq!((games[0].line, games[1].line), (5, 9));
        let mut out = Vec::new();
        for g in &games {
            let result = g.result.unwrap_or_default();
            write_tagged_game(&mut out, &g.tags, &g.moves, &g.comments, result).expect("writes");
        }
        assert_eq!(String::from_utf8(out).expect("UTF-8"), text + "\n");
    }
}
