//! The one protocol server: the command loop every program of the project speaks
//! (the engine `jungle`, the one-ply player `jungle greedy`, the browser's engine). It
//! reads a line, answers the handshake and `isready`, reads `setoption` against the
//! option table (`options`), keeps the game of `position` under the rules in force,
//! reads `go` and its `searchmoves` against that game, and answers every bad line with
//! one error line, state unchanged. What differs between the programs (how they
//! search and report, which options they offer, their name, the extra commands) they
//! supply through `Program`. There is no I/O here: the program writes what it is
//! given (`Program::say`), and its host reads the lines.

use super::command::{self, Command, GoCommand};
use super::options::{self, OptionId, Setting};
use super::position;
use crate::board::Position;
use crate::game::{Game, Rules};
use crate::search::Limits;

/// The author line of every program's handshake.
pub const AUTHOR: &str = "The Jungle developers";

/// The line that reports `message` as an error (protocol.md: `info string error: …`).
pub fn error_line(message: &str) -> String {
    format!("info string error: {message}")
}

/// The commands beyond the protocol's core that a program may offer (the engine
/// does; the others refuse them with their own words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// `d`, `display`.
    Display,
    Eval,
    /// jcei `moves`.
    Moves,
    /// jcei `perft [N]`.
    PerftCount(u32),
    /// `go perft N`.
    Perft(u32),
    Bench(Option<i32>),
}

/// What a program supplies to the server: its name and options, where its lines go,
/// and what it does with a setting, a search and the extra commands. Each method
/// that returns `Err` has its message answered as an error line.
pub trait Program {
    /// The name of `id name` (the server adds the project's version).
    fn name(&self) -> &str;
    /// The options it offers: a part of `options::TABLE`.
    fn offered(&self) -> &'static [OptionId];
    /// Writes one line of output.
    fn say(&mut self, line: &str);
    /// Writes several lines at once (the handshake); a program whose output other
    /// threads share writes them together.
    fn say_all(&mut self, lines: &[String]) {
        for line in lines {
            self.say(line);
        }
    }
    /// Whether it can answer at all (checked before every command).
    fn ready(&mut self) -> Result<(), String> {
        Ok(())
    }
    /// Whether `what` (`ucinewgame`, `setoption`) may change its state now.
    fn may_change(&mut self, what: &str) -> Result<(), String> {
        let _ = what;
        Ok(())
    }
    /// Whether a search may start now (before its moves are read).
    fn may_search(&mut self) -> Result<(), String> {
        Ok(())
    }
    /// `ucinewgame`: forget what was learned of the last game.
    fn new_game(&mut self) {}
    /// The rules changed (a new game under them has started).
    fn rules_changed(&mut self, rules: Rules) {
        let _ = rules;
    }
    /// A setting of an option it offers that is not a rule option.
    fn apply(&mut self, setting: Setting) -> Result<(), String>;
    /// `go`: search `game` within `limits` (their `searchmoves` read and legal) and
    /// answer `bestmove`, now or later.
    fn go(&mut self, game: &Game, limits: Limits);
    /// `stop`.
    fn stop(&mut self) {}
    /// `ponderhit`.
    fn ponder_hit(&mut self) {}
    /// A command beyond the core (`Extra`) on `game`.
    fn extra(&mut self, command: Extra, game: &Game);
}

/// Whether to go on reading after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// `quit` (or jcei `exit`): the host stops reading.
    Quit,
}

/// A program and the game it is asked about, under the rules in force.
pub struct Server<P: Program> {
    pub program: P,
    rules: Rules,
    game: Game,
}

impl<P: Program> Server<P> {
    /// A server on the default rules, at the start position.
    pub fn new(program: P) -> Server<P> {
        Server {
            program,
            rules: Rules::default(),
            game: Game::startpos(),
        }
    }

    /// The game of the last `position` (or the start under the rules in force).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Answers one line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) => self.execute(cmd),
            Err(message) => {
                self.error(&message);
                Flow::Continue
            }
        }
    }

    /// Answers one command.
    pub fn execute(&mut self, cmd: Command) -> Flow {
        if let Err(e) = self.program.ready() {
            self.error(&e);
            return Flow::Continue;
        }
        let extra = match cmd {
            Command::Uci => return self.identify("uciok"),
            Command::Jcei => return self.identify("jceiok"),
            Command::IsReady => {
                self.program.say("readyok");
                None
            }
            Command::NewGame => {
                self.new_game();
                None
            }
            Command::SetOption { name, value } => {
                self.set_option(&name, value.as_deref());
                None
            }
            Command::Position { fen, moves } => {
                match position::game(fen.as_deref(), &moves, self.rules) {
                    Ok(game) => self.game = game,
                    Err(e) => self.error(&e),
                }
                None
            }
            Command::Go(go) => {
                self.go(go);
                None
            }
            Command::Stop => {
                self.program.stop();
                None
            }
            Command::PonderHit => {
                self.program.ponder_hit();
                None
            }
            Command::Quit => return Flow::Quit,
            Command::Display => Some(Extra::Display),
            Command::Eval => Some(Extra::Eval),
            Command::Moves => Some(Extra::Moves),
            Command::PerftCount(depth) => Some(Extra::PerftCount(depth)),
            Command::Perft(depth) => Some(Extra::Perft(depth)),
            Command::Bench(depth) => Some(Extra::Bench(depth)),
        };
        if let Some(command) = extra {
            self.program.extra(command, &self.game);
        }
        Flow::Continue
    }

    /// `ucinewgame`: a new game from the start position under the rules in force.
    pub fn new_game(&mut self) {
        if let Err(e) = self.program.may_change("ucinewgame") {
            return self.error(&e);
        }
        self.program.new_game();
        self.game = Game::with_rules(Position::startpos(), self.rules);
    }

    /// `setoption name <name> [value <value>]`, read against the program's options:
    /// new rules start a new game; another setting goes to the program.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) {
        if let Err(e) = self.program.may_change("setoption") {
            return self.error(&e);
        }
        let setting = match options::read(name, value, self.program.offered()) {
            Ok(setting) => setting,
            Err(e) => return self.error(&e),
        };
        if let Some(rules) = setting.applied_to(self.rules) {
            // A position or move of the old game may not exist under new rules.
            if rules != self.rules {
                self.rules = rules;
                self.game = Game::with_rules(Position::startpos(), rules);
                self.program.rules_changed(rules);
            }
            return;
        }
        if let Err(e) = self.program.apply(setting) {
            self.error(&e);
        }
    }

    fn go(&mut self, go: GoCommand) {
        if let Err(e) = self.program.may_search() {
            return self.error(&e);
        }
        let mut limits = go.limits;
        for text in &go.searchmoves {
            match self.game.parse_move(text) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => return self.error(&format!("go searchmoves: {e}")),
            }
        }
        self.program.go(&self.game, limits);
    }

    fn identify(&mut self, ok: &str) -> Flow {
        let mut lines = vec![
            format!(
                "id name {} {}",
                self.program.name(),
                env!("CARGO_PKG_VERSION")
            ),
            format!("id author {AUTHOR}"),
        ];
        lines.extend(
            options::declarations(self.program.offered())
                .into_iter()
                .map(|d| format!("option {d}")),
        );
        lines.push(ok.to_string());
        self.program.say_all(&lines);
        Flow::Continue
    }

    fn error(&mut self, message: &str) {
        self.program.say(&error_line(message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program that writes down what it is asked.
    #[derive(Default)]
    struct Scribe {
        said: Vec<String>,
        busy: bool,
        rules: Vec<Rules>,
    }

    impl Program for Scribe {
        fn name(&self) -> &str {
            "Scribe"
        }
        fn offered(&self) -> &'static [OptionId] {
            options::BROWSER
        }
        fn say(&mut self, line: &str) {
            self.said.push(line.to_string());
        }
        fn may_search(&mut self) -> Result<(), String> {
            if self.busy {
                return Err("busy".into());
            }
            Ok(())
        }
        fn rules_changed(&mut self, rules: Rules) {
            self.rules.push(rules);
        }
        fn apply(&mut self, setting: Setting) -> Result<(), String> {
            self.said.push(format!("set {setting:?}"));
            Ok(())
        }
        fn go(&mut self, game: &Game, limits: Limits) {
            let moves: Vec<String> = limits.searchmoves.iter().map(|m| m.to_string()).collect();
            self.said.push(format!(
                "go {} plies [{}]",
                game.moves().len(),
                moves.join(" ")
            ));
        }
        fn extra(&mut self, command: Extra, _: &Game) {
            self.said.push(format!("extra {command:?}"));
        }
    }

    fn answers(server: &mut Server<Scribe>, line: &str) -> Vec<String> {
        server.program.said.clear();
        server.handle_line(line);
        std::mem::take(&mut server.program.said)
    }

    #[test]
    fn answers_the_core_and_hands_on_the_rest() {
        let mut s = Server::new(Scribe::default());
        let hello = answers(&mut s, "uci");
        assert!(hello[0].starts_with("id name Scribe "), "{hello:?}");
        assert_eq!(hello[1], "id author The Jungle developers");
        assert_eq!(hello.last().map(String::as_str), Some("uciok"));
        assert_eq!(answers(&mut s, "isready"), ["readyok"]);
        assert!(answers(&mut s, "position startpos moves a3a4").is_empty());
        assert_eq!(
            answers(&mut s, "go depth 2 searchmoves a7a6"),
            ["go 1 plies [a7a6]"]
        );
        assert_eq!(
            answers(&mut s, "go searchmoves a3a4"),
            ["info string error: go searchmoves: 'a3a4' is not a legal move in this position"]
        );
        assert_eq!(answers(&mut s, "d"), ["extra Display"]);
        assert_eq!(answers(&mut s, "go perft 2"), ["extra Perft(2)"]);
        assert_eq!(
            answers(&mut s, "setoption name MultiPV value 3"),
            ["set MultiPv(3)"]
        );
        assert_eq!(
            answers(&mut s, "setoption name Hash value 3"),
            ["info string error: unknown option 'Hash'"]
        );
        assert_eq!(s.handle_line("quit"), Flow::Quit);
        s.program.busy = true;
        assert_eq!(answers(&mut s, "go"), ["info string error: busy"]);
    }

    #[test]
    fn new_rules_start_a_new_game_once() {
        let mut s = Server::new(Scribe::default());
        answers(&mut s, "position startpos moves a3a4");
        // The value in force changes nothing.
        answers(&mut s, "setoption name DogSwims value false");
        assert_eq!(s.game().moves().len(), 1);
        assert!(s.program.rules.is_empty());
        answers(&mut s, "setoption name DogSwims value true");
        assert_eq!(s.game().moves().len(), 0);
        assert!(s.rules().moves.dog_swims);
        assert_eq!(s.program.rules, [s.rules()]);
        assert!(s.game().rules().moves.dog_swims);
    }
}
