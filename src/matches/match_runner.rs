//! `jungle match`: the referee and scheduler of engine-vs-engine matches.
//!
//! The referee keeps the position and the clocks with the rules core and never trusts
//! an engine: an illegal or unparsable move, a crash, a hang or a flag fall loses the
//! game, with the reason recorded; a crashed engine is restarted for the next game.
//! Each opening is played twice with colours swapped (a game pair), so results can be
//! counted by pairs (pentanomial) for the Elo and SPRT statistics.

use super::stats::{pentanomial_elo, GameScore, Pentanomial, Sprt, SprtDecision, Wdl};
use crate::board::{Color, Position};
use crate::common::engine_process::{EngineFailure, EngineProcess, EngineSpec};
use crate::common::shard::Shard;
use crate::game::{Game, GameResult, Rules};
use crate::protocol::{command, position};
use crate::search::Limits;
pub use jungle_core::time_control::TimeControl;
use std::io::Write;

use crate::record::{write_game, RecordHeader, RecordResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Adjudication rules (all optional).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Draw when, from move `draw_from_move` on, both engines' scores stay within
    /// `draw_score` for `draw_moves` moves each.
    pub draw: Option<(u32, u32, i32)>,
    /// Resign when both engines agree for `moves` moves each that one side is behind
    /// by more than `score`.
    pub resign: Option<(u32, i32)>,
    /// Draw after this many moves (plies / 2) in all.
    pub max_moves: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub engines: [EngineSpec; 2],
    pub games: u32,
    /// Each engine's limit, indexed like `engines`: the same kind for both (clocks may
    /// differ, for time odds).
    pub tc: [TimeControl; 2],
    pub concurrency: usize,
    pub openings: Vec<Position>,
    pub pgn: Option<String>,
    pub sprt: Option<Sprt>,
    pub adjudication: Adjudication,
    pub rules: Rules,
    /// With `MoveTime`: an answer later than movetime + this margin loses on time
    /// (`None`: only a hang of five seconds past the movetime loses).
    pub time_margin_ms: Option<u64>,
    /// The part of the match's game pairs to play (`Shard::WHOLE`: all).
    pub shard: Shard,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    Rules(GameResult),
    IllegalMove(String),
    TimeForfeit,
    Crash,
    Hang,
    AdjudicatedDraw,
    AdjudicatedResign,
    MaxMoves,
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Termination::Rules(r) => write!(f, "{r}"),
            Termination::IllegalMove(m) => write!(f, "illegal move {m}"),
            Termination::TimeForfeit => write!(f, "loss on time"),
            Termination::Crash => write!(f, "engine crashed"),
            Termination::Hang => write!(f, "engine did not answer"),
            Termination::AdjudicatedDraw => write!(f, "adjudicated draw"),
            Termination::AdjudicatedResign => write!(f, "adjudicated resignation"),
            Termination::MaxMoves => write!(f, "maximum length reached"),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub number: u32,
    /// Index into `settings.engines` of the engine playing Red.
    pub red: usize,
    pub start: Position,
    pub moves: Vec<String>,
    /// `Some(color)` for a win, `None` for a draw.
    pub winner: Option<Color>,
    pub termination: Termination,
    /// The engine that lost by a fault (illegal move, time, crash, hang), if any.
    pub faulty: Option<usize>,
    /// Engines that did not answer `stop` to their ponder search at the end of the
    /// game (the result stands; the engine is restarted).
    pub unstopped_ponder: Vec<usize>,
    /// Ponder searches whose expected move was played (`ponderhit`), and the others.
    pub ponder_hits: u32,
    pub ponder_misses: u32,
}

impl GameRecord {
    /// The result as the record writes it.
    pub fn result(&self) -> RecordResult {
        RecordResult::of_winner(self.winner)
    }

    /// The score of engine `e`.
    pub fn score_of(&self, e: usize) -> GameScore {
        match self.winner {
            None => GameScore::Draw,
            Some(c) => {
                let e_color = if e == self.red {
                    Color::Red
                } else {
                    Color::Blue
                };
                if c == e_color {
                    GameScore::Win
                } else {
                    GameScore::Loss
                }
            }
        }
    }
}

/// The engines of one worker, started lazily and restarted after a crash.
struct Seat {
    spec: EngineSpec,
    process: Option<EngineProcess>,
    /// The move this engine expects and ponders on while its opponent thinks.
    pondering: Option<String>,
}

/// How long an engine may take to answer `stop` with its `bestmove`.
const STOP_DEADLINE: Duration = Duration::from_secs(5);

impl Seat {
    fn engine(&mut self) -> Result<&mut EngineProcess, String> {
        if self.process.is_none() {
            self.process = Some(EngineProcess::start(&self.spec, Duration::from_secs(10))?);
        }
        self.process.as_mut().ok_or_else(|| "no engine".to_string())
    }

    fn discard(&mut self) {
        self.pondering = None;
        if let Some(mut p) = self.process.take() {
            p.quit();
        }
    }

    /// Ends a ponder search whose move did not come: `stop`, and its `bestmove` is
    /// read and dropped. An engine that does not answer is discarded (`Err`).
    fn end_ponder(&mut self) -> Result<(), EngineFailure> {
        if self.pondering.take().is_none() {
            return Ok(());
        }
        let Some(engine) = self.process.as_mut() else {
            return Ok(());
        };
        engine.send("stop");
        let answer = engine.wait_for(
            |l| l.starts_with("bestmove"),
            Instant::now() + STOP_DEADLINE,
        );
        if let Err(failure) = answer {
            self.discard();
            return Err(failure);
        }
        Ok(())
    }
}

/// Plays one game; `seats` are indexed like `settings.engines`, and engine `red`
/// plays Red. A ponder search still running at the end is stopped, so that its
/// `bestmove` does not reach the next game; an engine that does not stop is counted.
fn play_game(
    seats: &mut [Seat; 2],
    red: usize,
    number: u32,
    start: Position,
    settings: &MatchSettings,
) -> GameRecord {
    let mut ponder = [0u32; 2];
    let mut record = play_moves(seats, red, number, start, settings, &mut ponder);
    [record.ponder_hits, record.ponder_misses] = ponder;
    for (e, seat) in seats.iter_mut().enumerate() {
        if seat.end_ponder().is_err() {
            record.unstopped_ponder.push(e);
        }
    }
    record
}

/// The moves of one game, refereed (see `play_game`); counts ponder hits and misses.
fn play_moves(
    seats: &mut [Seat; 2],
    red: usize,
    number: u32,
    start: Position,
    settings: &MatchSettings,
    ponder: &mut [u32; 2],
) -> GameRecord {
    let mut game = Game::with_rules(start, settings.rules);
    let mut moves = Vec::new();
    let engine_of = |c: Color| if c == Color::Red { red } else { 1 - red };
    // Each colour's limit: that of the engine playing it.
    let tc = [
        settings.tc[engine_of(Color::Red)],
        settings.tc[engine_of(Color::Blue)],
    ];
    let mut clocks = tc.map(|t| match t {
        TimeControl::Clock { base_ms, .. } => base_ms as i64,
        _ => 0,
    });
    // Per colour: consecutive moves within the draw score, and behind the resign score.
    let mut quiet_moves = [0u32; 2];
    let mut losing_moves = [0u32; 2];
    let mut winning_moves = [0u32; 2];
    let finish = |winner: Option<Color>,
                  termination: Termination,
                  faulty: Option<usize>,
                  moves: Vec<String>| GameRecord {
        number,
        red,
        start,
        moves,
        winner,
        termination,
        faulty,
        unstopped_ponder: Vec::new(),
        ponder_hits: 0,
        ponder_misses: 0,
    };

    for seat in seats.iter_mut() {
        if let Ok(e) = seat.engine() {
            e.send("ucinewgame");
            if e.sync(Duration::from_secs(10)).is_err() {
                seat.discard();
            }
        }
    }

    loop {
        let result = game.result();
        if result != GameResult::Ongoing {
            let winner = match result {
                GameResult::Win { winner, .. } => Some(winner),
                _ => None,
            };
            return finish(winner, Termination::Rules(result), None, moves);
        }
        if let Some(max) = settings.adjudication.max_moves {
            if moves.len() as u32 >= 2 * max {
                return finish(None, Termination::MaxMoves, None, moves);
            }
        }
        let side = game.position().side_to_move();
        let e_index = engine_of(side);
        let seat = &mut seats[e_index];
        // A ponder search on the move just played goes on after `ponderhit`; one on
        // another move is stopped and its answer dropped.
        let expected = seat.pondering.clone();
        let ponder_hit = expected.is_some() && expected.as_ref() == moves.last();
        if expected.is_some() {
            ponder[usize::from(!ponder_hit)] += 1;
        }
        if !ponder_hit {
            if let Err(failure) = seat.end_ponder() {
                let t = failure_termination(failure, tc[side.index()], settings.time_margin_ms);
                return finish(Some(side.other()), t, Some(e_index), moves);
            }
        }
        seat.pondering = None;
        let engine = match seat.engine() {
            Ok(e) => e,
            Err(_) => {
                seat.discard();
                return finish(Some(side.other()), Termination::Crash, Some(e_index), moves);
            }
        };
        let (limits, deadline) = search_limits(tc, settings.time_margin_ms, &clocks, side);
        engine.last_score = None;
        let sent = if ponder_hit {
            let sent = Instant::now();
            engine.send("ponderhit");
            sent
        } else {
            engine.send(&position::fen_line(&start, game.moves()));
            let sent = Instant::now();
            engine.send(&command::go_line(&limits));
            sent
        };
        let answer = engine.wait_for(|l| l.starts_with("bestmove"), sent + deadline);
        let used = sent.elapsed().as_millis() as i64;
        let line = match answer {
            Ok(l) => l,
            Err(failure) => {
                seat.discard();
                let t = failure_termination(failure, tc[side.index()], settings.time_margin_ms);
                return finish(Some(side.other()), t, Some(e_index), moves);
            }
        };
        if let (TimeControl::MoveTime(ms), Some(margin)) =
            (tc[side.index()], settings.time_margin_ms)
        {
            // The answer came before the deadline, but may still be past the margin.
            if used as u64 > ms + margin {
                return finish(
                    Some(side.other()),
                    Termination::TimeForfeit,
                    Some(e_index),
                    moves,
                );
            }
        }
        if let TimeControl::Clock { inc_ms, .. } = tc[side.index()] {
            let c = &mut clocks[side.index()];
            *c -= used;
            if *c < 0 {
                return finish(
                    Some(side.other()),
                    Termination::TimeForfeit,
                    Some(e_index),
                    moves,
                );
            }
            *c += inc_ms as i64;
        }
        let text = line.split_whitespace().nth(1).unwrap_or("").to_string();
        let score = engine.last_score;
        if game.play_text(&text).is_err() {
            return finish(
                Some(side.other()),
                Termination::IllegalMove(text),
                Some(e_index),
                moves,
            );
        }
        moves.push(text);
        if seats[e_index].spec.ponder {
            start_ponder(&mut seats[e_index], &game, &line, tc, &clocks, side);
        }

        // Adjudication on the engines' own scores (from the mover's view).
        if let Some(s) = score {
            let adj = settings.adjudication;
            let i = side.index();
            if let Some((from_move, count, limit)) = adj.draw {
                quiet_moves[i] = if s.abs() <= limit {
                    quiet_moves[i] + 1
                } else {
                    0
                };
                let move_number = moves.len() as u32 / 2;
                if move_number >= from_move && quiet_moves[0] >= count && quiet_moves[1] >= count {
                    return finish(None, Termination::AdjudicatedDraw, None, moves);
                }
            }
            if let Some((count, limit)) = adj.resign {
                losing_moves[i] = if s < -limit { losing_moves[i] + 1 } else { 0 };
                winning_moves[i] = if s > limit { winning_moves[i] + 1 } else { 0 };
                let o = 1 - i;
                if losing_moves[i] >= count && winning_moves[o] >= count {
                    return finish(
                        Some(side.other()),
                        Termination::AdjudicatedResign,
                        None,
                        moves,
                    );
                }
                if winning_moves[i] >= count && losing_moves[o] >= count {
                    return finish(Some(side), Termination::AdjudicatedResign, None, moves);
                }
            }
        } else {
            quiet_moves[side.index()] = 0;
        }
    }
}

/// How a failed answer ends the game: a crash; a flag fall on a clock or past the
/// movetime's margin; else a hang.
fn failure_termination(
    failure: EngineFailure,
    tc: TimeControl,
    time_margin_ms: Option<u64>,
) -> Termination {
    let on_time = match tc {
        TimeControl::Clock { .. } => true,
        TimeControl::MoveTime(_) => time_margin_ms.is_some(),
        _ => false,
    };
    match failure {
        EngineFailure::Crashed | EngineFailure::Start(_) => Termination::Crash,
        EngineFailure::Timeout if on_time => Termination::TimeForfeit,
        EngineFailure::Timeout => Termination::Hang,
    }
}

/// After an engine's move, lets it ponder on the reply it expects (the `ponder` move
/// of its `bestmove` line, when that move is legal and does not end the game), on
/// its own clock as it stands: `position … <move> <expected>`, `go ponder …`.
fn start_ponder(
    seat: &mut Seat,
    game: &Game,
    bestmove_line: &str,
    tc: [TimeControl; 2],
    clocks: &[i64; 2],
    side: Color,
) {
    let mut tokens = bestmove_line.split_whitespace().skip(2);
    let (Some("ponder"), Some(expected)) = (tokens.next(), tokens.next()) else {
        return;
    };
    if game.result() != GameResult::Ongoing {
        return;
    }
    let mut after = game.clone();
    if after.play_text(expected).is_err() || after.result() != GameResult::Ongoing {
        return;
    }
    let Some(engine) = seat.process.as_mut() else {
        return;
    };
    engine.send(&position::fen_line(game.start_position(), after.moves()));
    let (mut limits, _) = search_limits(tc, None, clocks, side);
    limits.ponder = true;
    engine.send(&command::go_line(&limits));
    seat.pondering = Some(expected.to_string());
}

/// The limits of the `go` line for the side to move, and how long to wait for its
/// answer; `tc` and `clocks` are indexed by colour.
fn search_limits(
    tc: [TimeControl; 2],
    time_margin_ms: Option<u64>,
    clocks: &[i64; 2],
    side: Color,
) -> (Limits, Duration) {
    const GRACE: Duration = Duration::from_secs(60);
    let inc = tc.map(|t| match t {
        TimeControl::Clock { inc_ms, .. } => inc_ms,
        _ => 0,
    });
    match tc[side.index()] {
        TimeControl::Clock { .. } => {
            let [r, b] = clocks.map(|c| c.max(0) as u64);
            let own = clocks[side.index()].max(0) as u64;
            (
                Limits {
                    time: [Some(r), Some(b)],
                    inc,
                    ..Limits::default()
                },
                // A flag falls when the clock runs out; a little slack for scheduling.
                Duration::from_millis(own + 50),
            )
        }
        // Days a move (never a match's: `--tc` takes clocks only) as a time a move.
        TimeControl::Correspondence { days } => search_limits(
            [TimeControl::MoveTime(u64::from(days) * 86_400_000); 2],
            time_margin_ms,
            clocks,
            side,
        ),
        TimeControl::MoveTime(ms) => (
            Limits {
                movetime: Some(ms),
                ..Limits::default()
            },
            Duration::from_millis(ms + time_margin_ms.unwrap_or(5_000)),
        ),
        TimeControl::Depth(d) => (Limits::depth(i32::try_from(d).unwrap_or(i32::MAX)), GRACE),
        TimeControl::Nodes(n) => (
            Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            GRACE,
        ),
    }
}

/// Running totals from engine 0's view.
#[derive(Default, Clone, Debug)]
pub struct Tally {
    pub wdl: Wdl,
    pub pairs: Pentanomial,
    /// Losses by fault, per engine: (illegal, time, crash/hang).
    pub faults: [(u32, u32, u32); 2],
    /// Per engine: ponder searches that did not answer `stop` after a game.
    pub unstopped_ponder: [u32; 2],
    /// Ponder hits and misses of all engines.
    pub ponder: [u32; 2],
    pub games: u32,
    /// The SPRT's verdict and the number of games it was reached after. It stands:
    /// games still running when the match stops are counted, but cannot undo it.
    pub sprt_verdict: Option<(SprtDecision, u32)>,
}

impl Tally {
    /// Applies the SPRT (if any) to the pairs so far; true once it has decided. The
    /// first decision is kept: later pairs cannot undo it.
    pub fn judge(&mut self, sprt: Option<&Sprt>) -> bool {
        if self.sprt_verdict.is_none() {
            if let Some(sprt) = sprt {
                let decision = sprt.decide(&self.pairs);
                if decision != SprtDecision::Continue {
                    self.sprt_verdict = Some((decision, self.games));
                }
            }
        }
        self.sprt_verdict.is_some()
    }

    fn add(&mut self, g: &GameRecord) {
        self.wdl.add(g.score_of(0));
        self.games += 1;
        for &e in &g.unstopped_ponder {
            self.unstopped_ponder[e] += 1;
        }
        self.ponder[0] += g.ponder_hits;
        self.ponder[1] += g.ponder_misses;
        if let Some(e) = g.faulty {
            let f = &mut self.faults[e];
            match g.termination {
                Termination::IllegalMove(_) => f.0 += 1,
                Termination::TimeForfeit => f.1 += 1,
                _ => f.2 += 1,
            }
        }
    }
}

/// Plays the match (or its shard: the pairs `settings.shard` gives it, numbered as in
/// the whole match), printing progress to `out`; returns the final tally.
pub fn run(settings: &MatchSettings, out: &mut (impl Write + Send)) -> std::io::Result<Tally> {
    let pairs = settings.games.div_ceil(2);
    let mine = settings.shard.range(u64::from(pairs));
    let jobs: Vec<(u32, Position)> = (mine.start as u32..mine.end as u32)
        .map(|i| (i, settings.openings[i as usize % settings.openings.len()]))
        .collect();
    let jobs = Arc::new(Mutex::new(jobs.into_iter()));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let names = [
        settings.engines[0].name.clone(),
        settings.engines[1].name.clone(),
    ];
    let mut pgn = match &settings.pgn {
        Some(path) => Some(std::fs::File::create(path)?),
        None => None,
    };

    let mut tally = Tally::default();
    std::thread::scope(|scope| -> std::io::Result<()> {
        for _ in 0..settings.concurrency.max(1) {
            let jobs = Arc::clone(&jobs);
            let stop = Arc::clone(&stop);
            let tx = tx.clone();
            scope.spawn(move || {
                let mut seats_by_engine = [
                    Seat {
                        spec: settings.engines[0].clone(),
                        process: None,
                        pondering: None,
                    },
                    Seat {
                        spec: settings.engines[1].clone(),
                        process: None,
                        pondering: None,
                    },
                ];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let job = jobs.lock().map(|mut j| j.next()).unwrap_or(None);
                    let Some((pair, opening)) = job else {
                        break;
                    };
                    for k in 0..2u32 {
                        let number = pair * 2 + k + 1;
                        if number > settings.games {
                            break;
                        }
                        // Engine 0 is Red in the first game of a pair, Blue in the second.
                        let red = k as usize;
                        let record =
                            play_game(&mut seats_by_engine, red, number, opening, settings);
                        if tx.send(record).is_err() {
                            return;
                        }
                    }
                }
                for s in &mut seats_by_engine {
                    s.discard();
                }
            });
        }
        drop(tx);

        let mut pending: std::collections::HashMap<u32, GameRecord> =
            std::collections::HashMap::new();
        for record in rx {
            tally.add(&record);
            writeln!(
                out,
                "Finished game {} ({} vs {}): {} {{{}}}",
                record.number,
                names[record.red],
                names[1 - record.red],
                record.result(),
                record.termination
            )?;
            if let Some(f) = pgn.as_mut() {
                write_record(f, &record, &names, settings.rules)?;
            }
            // Pair the two games of an opening.
            let pair = (record.number - 1) / 2;
            if let Some(other) = pending.remove(&pair) {
                tally.pairs.add_pair(other.score_of(0), record.score_of(0));
                if tally.judge(settings.sprt.as_ref()) {
                    stop.store(true, Ordering::Relaxed);
                }
                summary(out, &tally, &names, settings.sprt.as_ref())?;
            } else {
                pending.insert(pair, record);
            }
        }
        Ok(())
    })?;
    writeln!(out, "Match finished")?;
    summary(out, &tally, &names, settings.sprt.as_ref())?;
    Ok(tally)
}

/// The summary lines of a tally (after each pair, at the end of a match, and for
/// `jungle replay`).
pub fn summary(
    out: &mut impl Write,
    t: &Tally,
    names: &[String; 2],
    sprt: Option<&Sprt>,
) -> std::io::Result<()> {
    let w = &t.wdl;
    writeln!(
        out,
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        w.wins,
        w.losses,
        w.draws,
        w.score(),
        w.games()
    )?;
    let p = &t.pairs;
    writeln!(
        out,
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p.ll, p.ld, p.dd_or_wl, p.wd, p.ww
    )?;
    if let Some(e) = pentanomial_elo(p) {
        writeln!(
            out,
            "Elo difference: {:.1} [{:.1}, {:.1}] (95%), LOS: {:.1} %",
            e.elo,
            e.lower,
            e.upper,
            e.los * 100.0
        )?;
    }
    if let Some(s) = sprt {
        let (lo, hi) = s.bounds();
        let decision = match t.sprt_verdict {
            None | Some((SprtDecision::Continue, _)) => String::new(),
            Some((SprtDecision::AcceptH0, n)) => format!(" - H0 was accepted after {n} games"),
            Some((SprtDecision::AcceptH1, n)) => format!(" - H1 was accepted after {n} games"),
        };
        writeln!(
            out,
            "SPRT: llr {:.2}, lbound {:.2}, ubound {:.2}{decision} (elo0 {}, elo1 {})",
            s.llr(p),
            lo,
            hi,
            s.elo0,
            s.elo1
        )?;
    }
    for (i, (illegal, time, crash)) in t.faults.iter().enumerate() {
        writeln!(
            out,
            "Losses of {}: {illegal} by illegal move, {time} on time, {crash} by crash or hang",
            names[i]
        )?;
        if t.unstopped_ponder[i] > 0 {
            writeln!(
                out,
                "Ponder searches of {} not stopped within {} s after the game: {}",
                names[i],
                STOP_DEADLINE.as_secs(),
                t.unstopped_ponder[i]
            )?;
        }
    }
    if t.ponder != [0, 0] {
        writeln!(
            out,
            "Ponder searches: {} hit (ponderhit), {} missed (stopped)",
            t.ponder[0], t.ponder[1]
        )?;
    }
    Ok(())
}

/// Writes one game in the project's record format (PGN-like; see protocol.md).
pub fn write_record(
    out: &mut impl Write,
    g: &GameRecord,
    names: &[String; 2],
    rules: Rules,
) -> std::io::Result<()> {
    let header = RecordHeader {
        number: g.number,
        red: &names[g.red],
        blue: &names[1 - g.red],
        result: g.result(),
        termination: &g.termination.to_string(),
        rules,
        start: g.start,
    };
    write_game(out, &header, &g.moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameScore::{Draw, Loss, Win};

    fn add_pairs(t: &mut Tally, n: usize, a: GameScore, b: GameScore) {
        for _ in 0..n {
            t.pairs.add_pair(a, b);
            t.wdl.add(a);
            t.wdl.add(b);
            t.games += 2;
        }
    }

    #[test]
    fn each_colour_is_told_its_own_increment_and_waited_on_for_its_own_clock() {
        let red = TimeControl::Clock {
            base_ms: 10_000,
            inc_ms: 100,
        };
        let blue = TimeControl::Clock {
            base_ms: 500,
            inc_ms: 5,
        };
        let clocks = [9_000, 400];
        let (limits, wait) = search_limits([red, blue], None, &clocks, Color::Blue);
        assert_eq!(limits.time, [Some(9_000), Some(400)]);
        assert_eq!(limits.inc, [100, 5]);
        assert_eq!(wait, Duration::from_millis(450));
        let (_, wait) = search_limits([red, blue], None, &clocks, Color::Red);
        assert_eq!(wait, Duration::from_millis(9_050));
    }

    #[test]
    fn the_sprt_verdict_stands_once_reached() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid");
        let mut t = Tally::default();
        add_pairs(&mut t, 30, Win, Draw);
        add_pairs(&mut t, 30, Draw, Draw);
        assert!(!t.judge(Some(&sprt)), "llr {}", sprt.llr(&t.pairs));
        // Win pairs until H1 is accepted.
        let mut pairs = 0;
        while !t.judge(Some(&sprt)) {
            add_pairs(&mut t, 1, Win, Draw);
            pairs += 1;
            assert!(pairs < 1000, "never accepted");
        }
        let decided_after = t.games;
        assert_eq!(
            t.sprt_verdict,
            Some((SprtDecision::AcceptH1, decided_after))
        );
        // Games still running at the stop pull the LLR back inside the bounds…
        while sprt.decide(&t.pairs) != SprtDecision::Continue {
            add_pairs(&mut t, 1, Loss, Draw);
            assert!(t.games < decided_after + 200, "llr {}", sprt.llr(&t.pairs));
        }
        // …but the verdict, and the summary's SPRT line, stay.
        assert!(t.judge(Some(&sprt)));
        assert_eq!(
            t.sprt_verdict,
            Some((SprtDecision::AcceptH1, decided_after))
        );
        let mut out = Vec::new();
        summary(&mut out, &t, &["A".into(), "B".into()], Some(&sprt)).expect("writes");
        let text = String::from_utf8(out).expect("utf-8");
        assert!(
            text.contains(&format!("- H1 was accepted after {decided_after} games")),
            "{text}"
        );
        // Without an SPRT nothing is ever decided.
        assert!(!Tally::default().judge(None));
    }
}
