//! The engines at work: the searches the controller asks for (a move, analysis, a
//! hint), and what the engines say back, matched to the job of their slot.

use super::*;

impl<H: Host> Controller<H> {
    // ----- engines playing -------------------------------------------------------

    /// Starts a search of the position after `ply` plies on `slot` for `job`.
    pub(super) fn search(
        &mut self,
        slot: usize,
        job: Job,
        ply: usize,
        limits: Limits,
        deadline: Option<Duration>,
    ) {
        let id = self.jobs.start(slot, job);
        let search = Search {
            id,
            start: *self.line.start(),
            moves: self.line.moves()[..ply].to_vec(),
            limits,
            deadline,
        };
        self.host
            .to_engine(slot, EngineRequest::Go(Box::new(search)));
    }

    /// The strength options of the playing engine for the chosen level.
    pub(super) fn send_level(&mut self) {
        if let Some(options) = self.seats.strength_options(&self.engines[PLAYER]) {
            if !options.is_empty() {
                self.host.to_engine(PLAYER, EngineRequest::Options(options));
            }
        }
    }

    /// Starts the engine's move if it is an engine's turn (and, in a watched game,
    /// the game runs).
    pub(super) fn engine_turn(&mut self) {
        if self.line.result().is_some() {
            // A watched game that has ended stays ended.
            self.watch.running = false;
            return;
        }
        if self.jobs.playing().is_some()
            || (self.seats.players == Players::Engines && !self.watch.running)
        {
            return;
        }
        let side = self.line.position().side_to_move();
        if let Some(slot) = self.seats.seat(side) {
            self.start_play(slot, side, false);
        }
    }

    pub(super) fn start_play(&mut self, slot: usize, color: Color, retried: bool) {
        // The analyser pauses while an engine plays (they share the cores).
        self.stop_analyser_if(|j| matches!(j, Job::Analysis));
        let (limits, deadline) = if self.seats.players == Players::Engines {
            self.watch.limits(color)
        } else {
            let ms = self.seats.movetime_ms;
            (
                Limits {
                    movetime: Some(ms),
                    ..Limits::default()
                },
                Duration::from_millis(ms) + ANSWER_GRACE,
            )
        };
        let job = Job::Play(PlayJob {
            color,
            started: Instant::now(),
            retried,
            score: None,
        });
        self.search(slot, job, self.line.cursor(), limits, Some(deadline));
    }

    /// Stops the engine that is playing a move, if one is.
    pub(super) fn stop_play(&mut self) {
        if let Some((slot, _)) = self.jobs.playing() {
            self.jobs.cancel(slot);
            self.host.to_engine(slot, EngineRequest::Stop);
        }
    }

    /// Stops the analyser when its job is of a kind `stop` names.
    pub(super) fn stop_analyser_if(&mut self, stop: fn(&Job) -> bool) {
        if self.jobs.on(ANALYSER).is_some_and(stop) {
            self.jobs.cancel(ANALYSER);
            self.host.to_engine(ANALYSER, EngineRequest::Stop);
        }
    }

    /// Starts thinking on the shown position, if analysis is on and nothing else
    /// needs the cores.
    pub(super) fn restart_analysis(&mut self) {
        let busy = self.jobs.playing().is_some()
            || matches!(self.jobs.on(ANALYSER), Some(Job::Hint))
            || self.reviewing();
        if !self.analysis.on || busy {
            return;
        }
        if self.line.result().is_some() {
            self.stop_analyser_if(|j| matches!(j, Job::Analysis));
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.search(ANALYSER, Job::Analysis, self.line.cursor(), limits, None);
    }

    // ----- what the engines say ----------------------------------------------------

    /// Takes in what an engine said.
    pub fn engine_event(&mut self, event: EngineEvent) {
        log::debug!("engine: {event:?}");
        match event {
            EngineEvent::Ready {
                slot,
                name,
                options,
            } => {
                let first_time = !self.engines[slot].started();
                let engine = &mut self.engines[slot];
                engine.id_name = Some(name);
                engine.options = options;
                if slot == PLAYER && first_time {
                    self.send_level();
                }
                self.changed();
            }
            EngineEvent::Said { slot, line } => {
                let text = line.trim_start_matches("info string").trim();
                if text.starts_with("error") {
                    // The engine's own words, quoted as they are.
                    let name = self.engines[slot].name.clone();
                    let code = Code::notice("engineSaid", &[("engine", &name), ("text", text)]);
                    self.notice(NoticeKind::Error, code, format!("{name}: {text}"));
                    self.changed();
                }
            }
            EngineEvent::Info { slot, id, info } => self.engine_info(slot, id, &info),
            EngineEvent::BestMove { slot, id, text } => self.engine_move(slot, id, &text),
            EngineEvent::Failed {
                slot,
                id,
                message,
                restarted,
            } => self.engine_failed(slot, id, message, restarted),
        }
    }

    pub(super) fn engine_info(&mut self, slot: usize, id: u64, info: &SearchInfo) {
        // The first line's score is the search's; other lines are alternatives.
        let main_score = (info.multipv <= 1).then(|| info.score.to_internal());
        match self.jobs.get_mut(slot, id) {
            Some(Job::Review { .. }) => {
                if let (Some(r), Some(s)) = (self.review.as_mut(), main_score) {
                    r.note_score(s);
                }
            }
            Some(Job::Play(p)) => p.score = main_score.or(p.score),
            Some(Job::Analysis) => {
                if let Some(s) = main_score {
                    let mover = self.line.position().side_to_move();
                    self.evals[self.line.cursor()] = Some(red_view(s, mover));
                }
                self.analysis.take(info);
                self.flush_analysis();
            }
            Some(Job::Hint) | None => {}
        }
    }

    pub(super) fn engine_move(&mut self, slot: usize, id: u64, text: &str) {
        match self.jobs.finish(slot, id) {
            Some(Job::Review { .. }) => self.review_answer(text),
            Some(Job::Hint) => self.hint_answer(slot, text),
            Some(Job::Play(p)) => self.play_answer(slot, p, text),
            // A stopped analysis or an outdated search.
            Some(Job::Analysis) | None => {}
        }
    }

    pub(super) fn hint_answer(&mut self, slot: usize, text: &str) {
        match self.line.game().parse_move(text) {
            Ok(m) => self.hint = Some(m),
            Err(_) => {
                let name = self.engines[slot].name.clone();
                let code = Code::notice("badHint", &[("engine", &name), ("move", &quote(text))]);
                self.notice(
                    NoticeKind::Error,
                    code,
                    format!(
                        "{name} suggested '{}', which is not a legal move here",
                        quote(text)
                    ),
                )
            }
        }
        self.restart_analysis();
        self.changed();
    }

    pub(super) fn play_answer(&mut self, slot: usize, p: PlayJob, text: &str) {
        let name = self.engines[slot].name.clone();
        let watched = self.seats.players == Players::Engines;
        if watched {
            if !self.watch.charge(p.color, elapsed_ms(p.started)) {
                let code = Code::reason("time", &[("engine", &name)]);
                self.decide(Some(p.color.other()), format!("{name} lost on time"), code);
                return;
            }
            self.watch.add_increment(p.color);
        }
        match self.line.game().parse_move(text) {
            Ok(m) => {
                if let Some(s) = p.score {
                    self.evals[self.line.cursor()] = Some(red_view(s, p.color));
                }
                self.push_move(m);
                self.engine_turn();
            }
            Err(e) if watched => {
                let code = Code::reason("illegalMove", &[("engine", &name), ("move", &quote(text))]);
                self.decide(
                    Some(p.color.other()),
                    format!("{name} played an illegal move ({e})"),
                    code,
                );
            }
            Err(e) => self.notice(
                NoticeKind::Error,
                Code::notice("illegalAnswer", &[("engine", &name), ("move", &quote(text))]),
                format!("{name} answered with an illegal move ({e}); the game is kept, press Engine move to ask again"),
            ),
        }
        self.changed();
    }

    pub(super) fn engine_failed(
        &mut self,
        slot: usize,
        id: Option<u64>,
        message: String,
        restarted: bool,
    ) {
        // The host's words say what happened (a crash, no answer in time); the page
        // says that the engine failed, and whether it runs again.
        let name = self.engines[slot].name.clone();
        let code = if restarted {
            Code::notice("engineRestarted", &[("engine", &name)])
        } else {
            Code::notice("engineFailed", &[("engine", &name)])
        };
        self.notice(NoticeKind::Error, code, message);
        match id.and_then(|id| self.jobs.finish(slot, id)) {
            Some(Job::Play(p)) => {
                if self.seats.players == Players::Engines {
                    let in_time = self.watch.charge(p.color, elapsed_ms(p.started));
                    let (reason, code) = if in_time {
                        (
                            "crashed or hung",
                            Code::reason("crashed", &[("engine", &name)]),
                        )
                    } else {
                        ("lost on time", Code::reason("time", &[("engine", &name)]))
                    };
                    self.decide(Some(p.color.other()), format!("{name} {reason}"), code);
                } else if restarted && !p.retried {
                    // Once more with the restarted engine.
                    self.start_play(slot, p.color, true);
                } else {
                    self.notice(
                        NoticeKind::Error,
                        Code::notice("noMove", &[("engine", &name)]),
                        "the engine did not produce a move; the game is kept (press Engine move to try again)".into(),
                    );
                }
            }
            Some(Job::Analysis) => {
                if restarted {
                    self.restart_analysis();
                } else {
                    self.analysis.on = false;
                }
            }
            Some(Job::Review { .. }) => {
                self.review = None;
                self.notice(
                    NoticeKind::Error,
                    Code::notice("reviewFailed", &[]),
                    "the review stopped: the engine failed".into(),
                );
                self.restart_analysis();
            }
            Some(Job::Hint) | None => {}
        }
        self.changed();
    }

    /// Called about every 100 ms: clocks of a watched game, analysis lines to send.
    pub fn tick(&mut self) {
        if let Some((slot, p)) = self.jobs.playing() {
            let (color, used) = (p.color, elapsed_ms(p.started));
            if self.seats.players == Players::Engines && self.watch.flag_fell(color, used) {
                // The flag fell and the engine has not answered: it loses now.
                self.jobs.cancel(slot);
                self.watch.charge(color, used);
                self.host.to_engine(slot, EngineRequest::Stop);
                let name = self.engines[slot].name.clone();
                let code = Code::reason("time", &[("engine", &name)]);
                self.decide(Some(color.other()), format!("{name} lost on time"), code);
            }
        }
        self.flush_analysis();
    }
}
