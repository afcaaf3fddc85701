//! The one-ply greedy player, the anchor of the strength levels' Elo scale (1000;
//! protocol.md, `UCI_Elo`), and the random player: how they choose a move. `jungle
//! greedy` speaks the protocol around this; the Python package's vectorised
//! environment plays them as opponents.
//!
//! The greedy player enters the enemy den when it can, otherwise takes the most
//! valuable animal it can (by rank; a rat taking the elephant takes an elephant),
//! otherwise plays a legal move at random. Ties are broken at random. It never looks
//! at the opponent's reply. The random player plays any legal move at random.

use crate::board::{Move, Position};
use crate::game::{Game, GameResult};
use crate::rng::Rng;

/// How much a player wants a move in a position (the most wanted is played).
pub type Want = fn(&Position, Move) -> u32;

/// How much the greedy player wants `m`: a den entry above everything, then the rank
/// of the animal taken, 0 for a quiet move.
pub fn greed(pos: &Position, m: Move) -> u32 {
    if pos.is_den_entry(m) {
        return 100;
    }
    pos.captured_by(m).map_or(0, |a| u32::from(a.rank()))
}

/// The random player's want: every move alike.
pub fn indifferent(_: &Position, _: Move) -> u32 {
    0
}

/// The greedy player's move, or `None` when the game is over or it has no move.
pub fn choose(game: &Game, rng: &mut Rng) -> Option<Move> {
    choose_with(game, &[], rng, greed)
}

/// A legal move at random, or `None` when the game is over or there is none.
pub fn choose_random(game: &Game, rng: &mut Rng) -> Option<Move> {
    choose_with(game, &[], rng, indifferent)
}

/// One of the legal moves (of `only`, unless empty: `go searchmoves`) that `want`
/// values most, at random; `None` when the game is over or none is left.
pub fn choose_with(game: &Game, only: &[Move], rng: &mut Rng, want: Want) -> Option<Move> {
    if game.result() != GameResult::Ongoing {
        return None;
    }
    let moves: Vec<Move> = game
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| only.is_empty() || only.contains(m))
        .collect();
    choose_among(game.position(), &moves, rng, want)
}

/// One of `moves` (legal in `pos`) that `want` values most, at random (`None` when
/// there is none).
pub fn choose_among(pos: &Position, moves: &[Move], rng: &mut Rng, want: Want) -> Option<Move> {
    let best = moves.iter().map(|&m| want(pos, m)).max()?;
    let candidates: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| want(pos, m) == best)
        .collect();
    Some(candidates[rng.below(candidates.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(fen: &str, seed: u64) -> String {
        let game = Game::new(Position::from_fen(fen).expect("valid"));
        choose(&game, &mut Rng::new(seed))
            .expect("a move")
            .to_string()
    }

    #[test]
    fn enters_the_den_before_taking_anything() {
        // The red rat on d8 can enter the den d9 or take the blue elephant on e8.
        for seed in 0..20 {
            assert_eq!(pick("6l/3Re2/7/7/7/7/7/7/6L r", seed), "d8d9");
        }
    }

    #[test]
    fn takes_the_most_valuable_animal() {
        // The red lion on d7 can take the blue cat c7 or the blue tiger e7.
        for seed in 0..20 {
            assert_eq!(pick("l6/7/2cLt2/7/7/7/7/7/6E r", seed), "d7e7");
        }
    }

    #[test]
    fn moves_at_random_otherwise() {
        let seen: std::collections::HashSet<String> = (0..50)
            .map(|seed| pick(crate::board::START_FEN, seed))
            .collect();
        assert!(seen.len() > 5, "{seen:?}");
        let game = Game::startpos();
        for m in &seen {
            assert!(game.parse_move(m).is_ok(), "{m}");
        }
    }

    #[test]
    fn the_random_player_passes_up_the_den_and_captures_at_times() {
        // The red rat on d8 can enter the den d9, take the blue elephant on e8, or
        // step back: all three come up.
        let game = Game::new(Position::from_fen("6l/3Re2/7/7/7/7/7/7/6L r").expect("valid"));
        let seen: std::collections::HashSet<String> = (0..60)
            .map(|seed| {
                choose_random(&game, &mut Rng::new(seed))
                    .expect("a move")
                    .to_string()
            })
            .collect();
        assert!(seen.contains("d8d9") && seen.contains("d8e8"), "{seen:?}");
        assert!(seen.len() >= 3, "{seen:?}");
    }
}
