//! The page's requests, one method each: checked for sense (the API checked their
//! form), then handed to the game line, the seats, the watch, analysis or the review.

use super::*;
use crate::judge::Judged;

impl<H: Host> Controller<H> {
    pub(super) fn human_move(&mut self, text: &str) -> Result<(), Refusal> {
        self.refuse_when_over()?;
        let side = self.line.position().side_to_move();
        if let Some(slot) = self.seats.seat(side) {
            let engine = &self.engines[slot].name;
            return Err(Refusal::conflict(format!(
                "it is {}'s turn, and {engine} plays {} (switch sides, or press Engine move)",
                side_name(side),
                side_name(side)
            ))
            .coded("notTurn", &[("side", side.name()), ("engine", engine)]));
        }
        let text = text.trim();
        let game = self.line.game();
        let m = game.parse_move(text).map_err(|e| {
            let parsed = text.parse::<Move>().ok();
            let explained = match e {
                MoveError::Forbidden(_) => parsed.and_then(|m| game.chase_explanation(m)),
                _ => None,
            };
            // The board's rule that the move breaks, named.
            let illegal = match e {
                MoveError::Illegal(_) => parsed.and_then(|m| game.why_illegal(m)),
                _ => None,
            };
            let message = match (&explained, illegal) {
                (Some(why), _) => format!("{text} is forbidden by the {why}"),
                (None, Some(why)) => format!("{e}: {why}"),
                (None, None) => e.to_string(),
            };
            // The page words it: the rule that forbids the move, and the animal.
            let animal = parsed.map_or("", |m| game.position().mover(m).name());
            match (&e, explained) {
                (MoveError::Malformed(_), _) => {
                    Refusal::bad(message).coded("malformed", &[("move", text)])
                }
                (MoveError::Illegal(_), _) => match illegal {
                    Some(why) => {
                        let mut args = vec![("move", text), ("why", why.code())];
                        let named = why.args();
                        args.extend(named.iter().map(|(k, v)| (*k, v.as_str())));
                        Refusal::bad(message).coded("illegalBecause", &args)
                    }
                    None => Refusal::bad(message).coded("illegal", &[("move", text)]),
                },
                (MoveError::Forbidden(_), Some(why)) if why.starts_with("rule 7-3") => {
                    Refusal::bad(message).coded("chase73", &[("move", text), ("animal", animal)])
                }
                (MoveError::Forbidden(_), Some(why)) if why.starts_with("rule 17-5") => {
                    Refusal::bad(message).coded("chase175", &[("move", text), ("animal", animal)])
                }
                (MoveError::Forbidden(_), _) => {
                    Refusal::bad(message).coded("forbidden", &[("move", text)])
                }
            }
        })?;
        match self.judge.try_move(self.line.game(), m)? {
            // No task, or the board off the task's position: an ordinary move.
            None => {
                self.push_move(m);
                self.engine_turn();
            }
            Some(Judged::Play) => self.push_move(m),
            Some(Judged::Keep) => {}
        }
        Ok(())
    }

    pub(super) fn undo(&mut self) -> Result<(), Refusal> {
        let mut ply = self
            .line
            .cursor()
            .checked_sub(1)
            .ok_or_else(|| Refusal::conflict("nothing to undo").coded("nothingToUndo", &[]))?;
        // Against the engine, undo goes back to the person's move.
        if self.seats.players.against_engine()
            && self.seats.seat(self.line.mover_at(ply)).is_some()
            && ply > 0
        {
            ply -= 1;
        }
        self.watch.running = false;
        self.move_cursor(ply);
        // Back at the start with the engine to move (a person playing Blue took back
        // its first move and the engine's): the engine moves again at once.
        if ply == 0 {
            self.engine_turn();
        }
        Ok(())
    }

    pub(super) fn redo(&mut self) -> Result<(), Refusal> {
        if self.line.at_end() {
            return Err(Refusal::conflict("nothing to redo").coded("nothingToRedo", &[]));
        }
        let mut ply = self.line.cursor() + 1;
        if self.seats.players.against_engine()
            && ply < self.line.moves().len()
            && self.seats.seat(self.line.mover_at(ply)).is_some()
        {
            ply += 1;
        }
        self.move_cursor(ply);
        Ok(())
    }

    pub(super) fn goto(&mut self, ply: usize) -> Result<(), Refusal> {
        if ply > self.line.moves().len() {
            let plies = self.line.moves().len();
            return Err(Refusal::bad(format!(
                "ply {ply} is past the end of the game ({plies} plies)"
            ))
            .coded(
                "pastEnd",
                &[("ply", &ply.to_string()), ("plies", &plies.to_string())],
            ));
        }
        self.watch.running = false;
        self.move_cursor(ply);
        Ok(())
    }

    pub(super) fn new_game(&mut self, request: api::NewGameRequest) -> Result<(), Refusal> {
        let rules = match &request.rules {
            Some(choice) => rules_of(choice)?,
            None => self.line.rules(),
        };
        let start = match &request.fen {
            Some(fen) => {
                let pos = Position::from_fen_with(fen.trim(), rules.moves).map_err(|e| {
                    Refusal::bad(format!("invalid position '{}': {e}", quote(fen)))
                        .coded("badPosition", &[])
                })?;
                if Game::with_rules(pos, rules).result() != GameResult::Ongoing {
                    return Err(
                        Refusal::bad("that position is already decided").coded("decided", &[])
                    );
                }
                pos
            }
            None => Position::startpos(),
        };
        self.set_line(GameLine::new(start, rules));
        if let Some(p) = request.players {
            self.seats.players = p;
        }
        self.watch.reset();
        self.send_level();
        self.engine_turn();
        Ok(())
    }

    pub(super) fn settings(&mut self, s: api::SettingsRequest) -> Result<(), Refusal> {
        if let Some(level) = s.level {
            if level == 0 || level > LEVEL_NAMES.len() as u32 {
                let max = LEVEL_NAMES.len().to_string();
                return Err(
                    Refusal::bad(format!("level must be from 1 to {max}, got {level}"))
                        .coded("badLevel", &[("max", &max), ("level", &level.to_string())]),
                );
            }
        }
        if let Some(ms) = s.movetime_ms {
            if !(50..=600_000).contains(&ms) {
                return Err(Refusal::bad(format!(
                    "thinking time must be from 50 to 600000 ms, got {ms}"
                ))
                .coded("badMovetime", &[("ms", &ms.to_string())]));
            }
        }
        if let Some(level) = s.level {
            self.seats.level = level;
            self.send_level();
        }
        if let Some(ms) = s.movetime_ms {
            self.seats.movetime_ms = ms;
        }
        if let Some(p) = s.players.filter(|&p| p != self.seats.players) {
            self.stop_play();
            self.seats.players = p;
            self.watch.running = false;
            self.send_level();
            self.engine_turn();
        }
        Ok(())
    }

    pub(super) fn move_now(&mut self) -> Result<(), Refusal> {
        if let Some((slot, _)) = self.jobs.playing() {
            // Its bestmove follows and is played.
            self.host.to_engine(slot, EngineRequest::Stop);
            return Ok(());
        }
        self.refuse_when_over()?;
        let side = self.line.position().side_to_move();
        match self.seats.seat(side) {
            Some(slot) => {
                if self.seats.players == Players::Engines {
                    self.watch.running = true;
                }
                self.start_play(slot, side, false);
            }
            None => {
                // The engine takes over the side to move; the person gets the other.
                self.seats.players = match side {
                    Color::Red => Players::Blue,
                    Color::Blue => Players::Red,
                };
                self.send_level();
                self.start_play(PLAYER, side, false);
            }
        }
        Ok(())
    }

    pub(super) fn set_watch(&mut self, run: bool) -> Result<(), Refusal> {
        if run {
            self.refuse_when_over()?;
            if self.seats.players != Players::Engines {
                self.seats.players = Players::Engines;
                self.send_level();
            }
            self.watch.running = true;
            self.engine_turn();
        } else {
            self.watch.running = false;
            if let Some((slot, p)) = self.jobs.playing() {
                // The clock stops where it is; the move is thought again on resume.
                let (color, used) = (p.color, elapsed_ms(p.started));
                self.watch.charge(color, used);
                self.jobs.cancel(slot);
                self.host.to_engine(slot, EngineRequest::Stop);
            }
            self.restart_analysis();
        }
        Ok(())
    }

    pub(super) fn set_analysis(&mut self, a: api::AnalysisRequest) -> Result<(), Refusal> {
        if let Some(k) = a.multipv {
            if !(1..=8).contains(&k) {
                return Err(
                    Refusal::bad(format!("MultiPV must be from 1 to 8, got {k}"))
                        .coded("badLines", &[("lines", &k.to_string())]),
                );
            }
            self.analysis.multipv = k;
            self.host.to_engine(
                ANALYSER,
                EngineRequest::Options(vec![("MultiPV".into(), k.to_string())]),
            );
        }
        self.analysis.on = a.on;
        self.analysis.clear();
        if a.on {
            self.restart_analysis();
        } else {
            self.stop_analyser_if(|j| matches!(j, Job::Analysis));
        }
        Ok(())
    }

    pub(super) fn ask_hint(&mut self) -> Result<(), Refusal> {
        self.refuse_when_over()?;
        if self.jobs.playing().is_some() {
            return Err(Refusal::conflict("the engine is thinking").coded("thinking", &[]));
        }
        if self.reviewing() {
            return Err(
                Refusal::conflict("the engine is reviewing the game").coded("reviewing", &[])
            );
        }
        // Analysis already knows a good move.
        let analysed = self
            .analysis
            .best_move()
            .and_then(|t| self.line.game().parse_move(t).ok());
        if let Some(m) = analysed {
            self.hint = Some(m);
            return Ok(());
        }
        if matches!(self.jobs.on(ANALYSER), Some(Job::Hint)) {
            return Ok(());
        }
        self.stop_analyser_if(|j| matches!(j, Job::Analysis));
        let ms = self.seats.movetime_ms.min(HINT_MS);
        let limits = Limits {
            movetime: Some(ms),
            ..Limits::default()
        };
        let deadline = Duration::from_millis(ms) + ANSWER_GRACE;
        self.search(
            ANALYSER,
            Job::Hint,
            self.line.cursor(),
            limits,
            Some(deadline),
        );
        Ok(())
    }

    pub(super) fn set_review(&mut self, on: bool) -> Result<(), Refusal> {
        if !on {
            self.cancel_review();
            self.restart_analysis();
            return Ok(());
        }
        if self.line.moves().is_empty() {
            return Err(Refusal::conflict("there is no move to review yet").coded("noMoves", &[]));
        }
        if self.jobs.playing().is_some() {
            return Err(Refusal::conflict("wait for the engine's move, then review")
                .coded("waitForEngine", &[]));
        }
        if self.reviewing() {
            return Ok(());
        }
        // The analyser reviews: analysis and a hint in progress give way.
        self.stop_analyser_if(|j| matches!(j, Job::Analysis | Job::Hint));
        self.review = Some(Review::new(self.table_judgements()));
        self.review_next();
        Ok(())
    }

    pub(super) fn record(&self) -> String {
        let names = [Color::Red, Color::Blue].map(|c| match self.seats.seat(c) {
            Some(slot) => self.engines[slot].name.as_str(),
            None => "Human",
        });
        records::write(&self.line, names, &self.review_notes())
    }

    pub(super) fn load(&mut self, text: &str, number: usize) -> Result<(), Refusal> {
        let loaded = records::read(text, number)?;
        // Who plays stays the person's choice: against the engine, it answers the
        // person's next move (or moves at once on "Engine move"). It does not move by
        // itself on loading, which would end the loaded line and its review.
        self.watch.running = false;
        self.set_line(loaded.line);
        // A record written by `jungle analyse` (or saved after a review) brings its
        // review: the marks, and the scores for the graph.
        self.review = loaded.review;
        self.notice(NoticeKind::Info, loaded.code, loaded.description);
        Ok(())
    }
}
