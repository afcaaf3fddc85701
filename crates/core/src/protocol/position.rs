//! `position startpos | fen <position string> [moves <move>…]`: the one way from a
//! position line to a game (the engine's session, the greedy player and the browser's
//! engine all build their games here), and from a game's start and moves back to the
//! line (what the board app and the match referee send other programs).

use crate::board::{Move, Position};
use crate::game::{Game, Rules};
use crate::text::quote;

/// The game of a `position` line as `command` reads it (`fen`: `None` for
/// `startpos`), under `rules`; the error names the bad position or move.
pub fn game(fen: Option<&str>, moves: &[String], rules: Rules) -> Result<Game, String> {
    let start = match fen {
        None => Position::startpos(),
        Some(text) => Position::from_fen_with(text, rules.moves)
            .map_err(|e| format!("invalid position '{}': {e}", quote(text)))?,
    };
    let mut game = Game::with_rules(start, rules);
    for (i, m) in moves.iter().enumerate() {
        game.play_text(m)
            .map_err(|e| format!("position: move {} '{}' rejected: {e}", i + 1, quote(m)))?;
    }
    Ok(game)
}

/// The game from `start` after `moves`, under `rules`: `game` for a caller that holds
/// the position and moves as values (the board app's engine in the same process),
/// with the same checks and the same errors, without text in between.
pub fn game_after(start: &Position, moves: &[Move], rules: Rules) -> Result<Game, String> {
    if let Err(e) = start.check_placement_with(rules.moves) {
        return Err(format!(
            "invalid position '{}': {e}",
            quote(&start.to_fen())
        ));
    }
    let mut game = Game::with_rules(*start, rules);
    for (i, &m) in moves.iter().enumerate() {
        game.play_checked(m)
            .map_err(|e| format!("position: move {} '{m}' rejected: {e}", i + 1))?;
    }
    Ok(game)
}

/// The `position` line of the game from `start` after `moves` (`startpos` for the
/// start position).
pub fn line(start: &Position, moves: &[Move]) -> String {
    if *start == Position::startpos() {
        with_moves("position startpos".to_string(), moves)
    } else {
        fen_line(start, moves)
    }
}

/// The `position fen` line of the game from `start` after `moves`, the start position
/// too (what the match referee sends, so that an engine need not know `startpos`).
pub fn fen_line(start: &Position, moves: &[Move]) -> String {
    with_moves(format!("position fen {}", start.to_fen()), moves)
}

fn with_moves(base: String, moves: &[Move]) -> String {
    if moves.is_empty() {
        return base;
    }
    let texts: Vec<String> = moves.iter().map(Move::to_string).collect();
    format!("{base} moves {}", texts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::{parse, Command};

    fn read(text: &str, rules: Rules) -> Result<Game, String> {
        match parse(text) {
            Ok(Some(Command::Position { fen, moves })) => game(fen.as_deref(), &moves, rules),
            other => panic!("not a position line: {other:?}"),
        }
    }

    #[test]
    fn lines_and_games_round_trip() {
        let rules = Rules::default();
        let g = read("position startpos moves a3a4 a7a6", rules).expect("legal");
        assert_eq!(g.moves().len(), 2);
        assert_eq!(
            line(&Position::startpos(), g.moves()),
            "position startpos moves a3a4 a7a6"
        );
        let start = Position::from_fen("l6/7/7/7/3r3/7/3E3/7/T5L r").expect("valid");
        let text = line(&start, &[]);
        let again = read(&text, rules).expect("a position");
        assert_eq!(*again.position(), start);
        let after = game_after(&start, &[], rules).expect("a position");
        assert_eq!(*after.position(), start);
    }

    #[test]
    fn moves_as_values_get_the_answers_of_moves_as_text() {
        let cn = crate::game::Variant::JungleCn.rules();
        let moves = |text: &str| -> Vec<Move> {
            text.split_whitespace()
                .map(|m| m.parse().expect("a move"))
                .collect()
        };
        // Red's wolf onto a2 a fourth time is forbidden by rule 7-3 under jungle-cn.
        let shuffle = "6l/7/1t5/7/7/7/W5R/7/7 r";
        let chase = "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8 a3a2";
        let start = Position::from_fen(shuffle).expect("valid");
        let swimming = crate::board::rules::MoveRuleFlags {
            dog_swims: true,
            ..crate::board::rules::MoveRuleFlags::default()
        };
        let dog_in_water = Position::from_fen_with("l6/7/7/7/1D5/7/7/7/6L r", swimming)
            .expect("valid where dogs swim");
        let cases = [
            (Position::startpos(), "a3a4 a7a6", Rules::default()),
            (Position::startpos(), "a3a4 a1a9", Rules::default()),
            (Position::startpos(), "a3a4 a3a4", Rules::default()),
            (start, chase, cn),
            (start, chase, Rules::default()),
            (dog_in_water, "", Rules::default()),
        ];
        for (start, text, rules) in cases {
            let texts: Vec<String> = text.split_whitespace().map(String::from).collect();
            let fen = (start != Position::startpos()).then(|| start.to_fen());
            let by_text = game(fen.as_deref(), &texts, rules);
            let by_value = game_after(&start, &moves(text), rules);
            match (by_text, by_value) {
                (Ok(a), Ok(b)) => assert_eq!(a.position(), b.position(), "{text}"),
                (a, b) => assert_eq!(a.err(), b.err(), "{text}"),
            }
        }
        let refused = game_after(&start, &moves(chase), cn).expect_err("forbidden");
        assert!(refused.contains("anti-chase"), "{refused}");
    }

    #[test]
    fn names_what_is_wrong() {
        let rules = Rules::default();
        assert_eq!(
            read("position startpos moves a3a4 a1a9", rules).err(),
            Some(
                "position: move 2 'a1a9' rejected: 'a1a9' is not a legal move in this position"
                    .into()
            )
        );
        let bad = read("position fen 9/9 r", rules).expect_err("refused");
        assert!(bad.starts_with("invalid position '9/9 r': "), "{bad}");
    }
}
