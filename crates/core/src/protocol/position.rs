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
/// the position and moves as values (the board app's engine in the same process).
pub fn game_after(start: &Position, moves: &[Move], rules: Rules) -> Result<Game, String> {
    let fen = (*start != Position::startpos()).then(|| start.to_fen());
    let texts: Vec<String> = moves.iter().map(Move::to_string).collect();
    game(fen.as_deref(), &texts, rules)
}

/// The `position` line of the game from `start` after `moves`.
pub fn line(start: &Position, moves: &[Move]) -> String {
    let base = if *start == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.to_fen())
    };
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
