//! `jungle greedy`: a player that looks one move ahead, speaking the protocol. It is
//! the beginner the strength levels are measured against (protocol.md, `UCI_Elo`):
//! it enters the enemy den when it can, otherwise takes the most valuable animal it
//! can (by rank; a rat taking the elephant takes an elephant), otherwise plays a legal
//! move at random. Ties are broken at random. It never looks at the opponent's reply.
//! With `--random` it plays any legal move at random (the weakest opponent there is,
//! which a first level must beat). How both choose is the core's
//! (`jungle_core::search::greedy`); this is the protocol around it.

pub mod command;

use crate::common::input::read_lines;
use crate::common::output::Output;
use crate::game::Game;
use crate::protocol::options::{self, OptionId, Setting};
use crate::protocol::server::{Extra, Flow, Program, Server};
use crate::rng::Rng;
use crate::search::greedy::{choose_with, greed, indifferent, Want};
use crate::search::Limits;
use std::io::BufRead;

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
    want: Want,
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
