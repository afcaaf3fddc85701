//! `jungle greedy`: a player that looks one move ahead, speaking the protocol. It is
//! the beginner the strength levels are measured against (protocol.md, `UCI_Elo`):
//! it enters the enemy den when it can, otherwise takes the most valuable animal it
//! can (by rank; a rat taking the elephant takes an elephant), otherwise plays a legal
//! move at random. Ties are broken at random. It never looks at the opponent's reply.
//! With `--random` it plays any legal move at random (the weakest opponent there is,
//! which a first level must beat).

pub mod command;

use crate::board::{Move, Position};
use crate::common::input::read_lines;
use crate::common::output::Output;
use crate::game::Game;
use crate::protocol::options::{self, OptionId, Setting};
use crate::protocol::server::{Extra, Flow, Program, Server};
use crate::rng::Rng;
use crate::search::Limits;
use std::io::BufRead;

/// How much the greedy player wants `m`: a den entry above everything, then the rank
/// of the animal taken, 0 for a quiet move.
fn greed(pos: &Position, m: Move) -> u32 {
    if pos.is_den_entry(m) {
        return 100;
    }
    pos.captured_by(m).map_or(0, |a| u32::from(a.rank()))
}

/// The greedy player's move, or `None` when the game is over or it has no move.
pub fn choose(game: &Game, rng: &mut Rng) -> Option<Move> {
    choose_with(game, &[], rng, greed)
}

/// A legal move at random, or `None` when the game is over or there is none.
pub fn choose_random(game: &Game, rng: &mut Rng) -> Option<Move> {
    choose_with(game, &[], rng, indifferent)
}

/// The random player's want: every move alike.
fn indifferent(_: &Position, _: Move) -> u32 {
    0
}

/// One of the legal moves (of `only`, unless empty: `go searchmoves`) that `want`
/// values most, at random.
fn choose_with(
    game: &Game,
    only: &[Move],
    rng: &mut Rng,
    want: fn(&Position, Move) -> u32,
) -> Option<Move> {
    if game.result() != crate::game::GameResult::Ongoing {
        return None;
    }
    let moves: Vec<Move> = game
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| only.is_empty() || only.contains(m))
        .collect();
    let pos = game.position();
    let greed = |m| want(pos, m);
    let best = moves.iter().map(|&m| greed(m)).max()?;
    let candidates: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| greed(m) == best)
        .collect();
    Some(candidates[rng.below(candidates.len())])
}

/// The greedy player (or with `random` the random one) on stdin/stdout until `quit`
/// or the end of input.
pub fn run(seed: Option<u64>, random: bool) -> i32 {
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    let rng = seed.map_or_else(Rng::from_time, Rng::new);
    let mut player = Player::new(Output::stdout(), rng);
    if random {
        player.want = indifferent;
    }
    serve(player, &mut reader);
    0
}

/// Answers the lines of `reader` until `quit` or its end.
fn serve(player: Player, reader: &mut impl BufRead) {
    let out = player.out.clone();
    let mut server = Server::new(player);
    read_lines(reader, &out, |line| {
        server.handle_line(line) == Flow::Continue
    });
}

/// What the greedy player supplies to the protocol server.
struct Player {
    out: Output,
    rng: Rng,
    /// What it wants most: `greed`, or with `--random` nothing (`indifferent`).
    want: fn(&Position, Move) -> u32,
}

impl Player {
    fn new(out: Output, rng: Rng) -> Player {
        Player {
            out,
            rng,
            want: greed,
        }
    }
}

impl Program for Player {
    fn name(&self) -> &str {
        "Greedy"
    }

    fn offered(&self) -> &'static [OptionId] {
        options::GREEDY
    }

    fn say(&mut self, line: &str) {
        self.out.line(line);
    }

    /// Every option it offers is a rule option, which the server applies.
    fn apply(&mut self, _: Setting) -> Result<(), String> {
        Ok(())
    }

    fn go(&mut self, game: &Game, limits: Limits) {
        let line = match choose_with(game, &limits.searchmoves, &mut self.rng, self.want) {
            Some(m) => format!("bestmove {m}"),
            None => "bestmove 0000".to_string(),
        };
        self.out.line(&line);
    }

    fn extra(&mut self, _: Extra, _: &Game) {
        self.out.error("the greedy player only plays moves");
    }
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

    #[test]
    fn answers_the_protocol() {
        let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl std::io::Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().expect("lock").extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let p = Player::new(Output::new(Box::new(Sink(buf.clone()))), Rng::new(1));
        let input = "uci\nisready\nposition fen 6l/3R3/7/7/7/7/7/7/6L r\ngo movetime 10\n\
                     go searchmoves d8c8\ngo searchmoves d8c8 a1a9\n\
                     setoption name DogSwims value false\ngo searchmoves d8d9\n\
                     setoption name DogSwims value maybe\nposition fen 3R3/7/7/7/7/7/7/7/6l b\ngo\nquit\ngo\n";
        serve(p, &mut input.as_bytes());
        let text = String::from_utf8(buf.lock().expect("lock").clone()).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&"uciok"), "{text}");
        assert!(lines.contains(&"readyok"), "{text}");
        // Only the moves of searchmoves, all of them legal; a rule option set to the
        // value it has keeps the game.
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.starts_with("bestmove"))
                .copied()
                .collect::<Vec<_>>(),
            [
                "bestmove d8d9",
                "bestmove d8c8",
                "bestmove d8d9",
                "bestmove 0000"
            ],
            "{text}"
        );
        assert!(text.contains("error: go searchmoves: 'a1a9' is not a legal move in this position"));
        assert!(text.contains("error: option DogSwims takes true or false, got 'maybe'"));
        // The game is over: no move. Nothing is read after quit.
        assert_eq!(lines.last(), Some(&"bestmove 0000"), "{text}");
    }
}
