//! The board app driven by arbitrary bytes, its invariants checked after every step.
//! The fuzz target `board_requests` (fuzz/) feeds it what libFuzzer makes; the test
//! below feeds it seeded random bytes, so that CI walks the same paths in seconds.
//!
//! Each step is one thing a page or an engine can do: a request of the page, with a
//! well-formed body or junk (`api::parse`, then `Controller::handle`), or an engine's
//! answer, report, failure, restart or stray line. The engines are played by the
//! bytes too: an answer may be a legal move, an illegal one, `0000` or junk, and may
//! come for a search that was replaced long ago.

use crate::api::{self, Answer};
use crate::board::{movegen::legal_moves, Move, Position};
use crate::controller::{Config, Controller};
use crate::engines::{EngineEvent, EngineRequest, Host, Search, SLOTS};
use crate::events::Event;
use crate::game::Game;
use crate::search::info::SearchInfo;
use crate::search::score::{Score, ScoreBound};
use crate::view;
use std::time::Duration;

/// Keeps the last search asked of each slot; drops the events (the view is checked
/// from the controller itself).
#[derive(Default)]
pub struct Recorder {
    last_search: [Option<Search>; 3],
    sent: usize,
}

impl Host for Recorder {
    fn to_engine(&mut self, slot: usize, request: EngineRequest) {
        self.sent += 1;
        if let EngineRequest::Go(search) = request {
            self.last_search[slot] = Some(*search);
        }
    }

    fn publish(&mut self, event: Event) {
        // Every event must be writable for the page.
        let _ = event.name();
    }
}

/// Reads the script: a byte at a time, zeros once it is used up.
struct Script<'a> {
    bytes: &'a [u8],
}

impl Script<'_> {
    fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&b, rest)) => {
                self.bytes = rest;
                b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    fn number(&mut self) -> i64 {
        let bytes = [self.byte(), self.byte(), self.byte(), self.byte()];
        i64::from(i32::from_le_bytes(bytes))
    }

    /// Up to 40 bytes as text (invalid UTF-8 replaced, as a server would read it).
    fn text(&mut self) -> String {
        let n = self.below(41).min(self.bytes.len());
        let (taken, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        String::from_utf8_lossy(taken).into_owned()
    }

    fn done(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// The page's requests by name, `record` and one that does not exist included; moves
/// weigh more, so that games grow long. (`new` and `load`, which replace the line, are
/// drawn apart, rarely while a game goes on: see `request_name`.)
const NAMES: [&str; 20] = [
    "move", "move", "move", "move", "move", "undo", "redo", "goto", "settings", "hint", "movenow",
    "analysis", "watch", "review", "review", "state", "record", "nonsense", "judge", "judge",
];

fn request_name(c: &Controller<Recorder>, s: &mut Script) -> &'static str {
    let ended = c.line().result().is_some();
    match s.byte() {
        0..=2 => "new",
        3..=4 => "load",
        // A person whose game has ended soon starts another.
        5..=40 if ended => "new",
        _ => NAMES[s.below(NAMES.len())],
    }
}

const FENS: [&str; 4] = [
    "6l/7/1t5/7/7/7/W5R/7/7 r",
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b",
    "7/7/7/7/7/7/7/7/7 r",
    "not a position",
];

const RECORD: &str = "[Event \"x\"]\n[FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r\"]\n[Result \"*\"]\n\n1. a3a4 a7a6 2. g3g4 *\n";

/// How far a script got: to tell a run that explores from one that is refused at
/// every step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// The longest game line.
    pub plies: usize,
    /// Steps after which the shown game had ended.
    pub ended: usize,
    /// Steps with a review on.
    pub reviewing: usize,
    /// Steps with a puzzle or a lesson on the board.
    pub judging: usize,
}

/// Runs the script, checking the controller after every step. `Err` names the step
/// and the broken invariant.
pub fn run(bytes: &[u8]) -> Result<Reach, String> {
    let config = Config {
        names: ["Jungle".into(), "Jungle-2".into(), "Jungle".into()],
        watch_clock: (60_000, 600),
        movetime_ms: 1000,
    };
    let mut c = Controller::new(config, Recorder::default());
    c.start();
    for slot in SLOTS {
        c.engine_event(ready(slot));
    }
    check(&c).map_err(|e| format!("after the start: {e}"))?;
    let mut script = Script { bytes };
    let mut step = 0;
    let mut reach = Reach::default();
    while !script.done() && step < 2000 {
        step += 1;
        let what = act(&mut c, &mut script);
        check(&c).map_err(|e| format!("step {step} ({what}): {e}"))?;
        reach.plies = reach.plies.max(c.line().moves().len());
        reach.ended += usize::from(c.line().result().is_some());
        reach.reviewing += usize::from(c.review().is_some());
        reach.judging += usize::from(view::state(&c).judge.is_some());
    }
    Ok(reach)
}

fn ready(slot: usize) -> EngineEvent {
    EngineEvent::Ready {
        slot,
        name: "Jungle 0.1.0".into(),
        options: vec![
            "name UCI_Elo type spin default 1016 min 1016 max 2196".into(),
            "name MultiPV type spin default 1 min 1 max 32".into(),
        ],
    }
}

/// One step of the script; what it did, for the error.
fn act(c: &mut Controller<Recorder>, s: &mut Script) -> String {
    match s.below(16) {
        0..=7 => {
            let name = request_name(c, s);
            let body = body(c, name, s);
            if let Ok(request) = api::parse(name, &body) {
                let _ = c.handle(request);
            }
            format!("request {name} {body}")
        }
        8..=11 => {
            let slot = engine_slot(c, s);
            let text = answer_text(c, slot, s);
            let id = search_id(c, slot, s);
            c.engine_event(EngineEvent::BestMove {
                slot,
                id,
                text: text.clone(),
            });
            format!("bestmove {text} from slot {slot} for search {id}")
        }
        12 | 13 => {
            let slot = engine_slot(c, s);
            let id = search_id(c, slot, s);
            let info = report(c, slot, s);
            let what = format!("info {info:?} from slot {slot} for search {id}");
            c.engine_event(EngineEvent::Info { slot, id, info });
            what
        }
        14 => {
            let slot = s.below(3);
            let id = (s.byte() % 2 == 0).then(|| search_id(c, slot, s));
            let restarted = s.byte() % 2 == 0;
            c.engine_event(EngineEvent::Failed {
                slot,
                id,
                message: "crashed".into(),
                restarted,
            });
            if restarted {
                c.engine_event(ready(slot));
            }
            format!("slot {slot} failed in search {id:?}, restarted {restarted}")
        }
        _ => {
            let slot = s.below(3);
            let line = format!("info string {}", s.text());
            c.engine_event(EngineEvent::Said {
                slot,
                line: line.clone(),
            });
            format!("slot {slot} said {line:?}")
        }
    }
}

/// A body for request `name`: mostly well formed, sometimes junk.
fn body(c: &mut Controller<Recorder>, name: &str, s: &mut Script) -> String {
    if s.below(8) == 0 {
        return s.text();
    }
    let pick = |s: &mut Script, xs: &[&str]| xs[s.below(xs.len())].to_string();
    match name {
        "move" => {
            let legal = legal_moves(c.line().position());
            let mv = match legal.as_slice() {
                [] => "a1a2".to_string(),
                moves if s.below(4) > 0 => moves[s.below(moves.len())].to_string(),
                _ => pick(s, &["a1a9", "zz", "", "a3a4"]),
            };
            serde_json::json!({ "move": mv }).to_string()
        }
        "goto" => {
            let ply = s.below(c.line().moves().len() + 3);
            format!(r#"{{"ply":{ply}}}"#)
        }
        "new" => {
            let players = pick(s, &["red", "blue", "both", "engines", "martians"]);
            let variant = pick(s, &["jungle", "jungle-cn", "jungle-plain", "chess"]);
            let mut request = serde_json::json!({ "players": players });
            if s.below(2) == 0 {
                request["fen"] = FENS[s.below(FENS.len())].into();
            }
            if s.below(2) == 0 {
                request["rules"] = serde_json::json!({
                    "variant": variant,
                    "dogSwims": s.below(2) == 0,
                    "trappedLoseAttack": s.below(2) == 0,
                });
            }
            request.to_string()
        }
        "settings" => match s.below(3) {
            0 => format!(r#"{{"level":{}}}"#, s.number() % 14),
            1 => format!(r#"{{"movetimeMs":{}}}"#, s.number().rem_euclid(100_000)),
            _ => format!(
                r#"{{"players":"{}"}}"#,
                pick(s, &["red", "blue", "both", "engines"])
            ),
        },
        "analysis" => format!(
            r#"{{"on":{},"multipv":{}}}"#,
            s.below(2) == 0,
            s.number().rem_euclid(40)
        ),
        "watch" => format!(r#"{{"run":{}}}"#, s.below(2) == 0),
        "review" => format!(r#"{{"on":{}}}"#, s.below(2) == 0),
        "judge" => match s.below(8) {
            // A puzzle of the set (or none such), a lesson's task (or none such).
            0 => {
                let set = crate::puzzles::shipped();
                let id = set
                    .get(s.below(set.len() + 1))
                    .map_or("zzz", |p| p.id.as_str());
                serde_json::json!({ "do": "puzzle", "id": id }).to_string()
            }
            1 => {
                let lessons = crate::judge::lessons();
                let id = lessons
                    .get(s.below(lessons.len() + 1))
                    .map_or("x", |l| l.id.as_str());
                serde_json::json!({ "do": "lesson", "id": id, "task": s.below(4) }).to_string()
            }
            _ => {
                let what = pick(s, &["reply", "reply", "hint", "solution", "again", "leave"]);
                serde_json::json!({ "do": what }).to_string()
            }
        },
        "load" => {
            // The line's own record (as the page saves it), a fixed one, or junk.
            let text = match (s.below(3), c.handle(api::Request::Record)) {
                (0, Ok(Answer::Text(record))) => record,
                (1, _) => RECORD.to_string(),
                _ => s.text(),
            };
            serde_json::json!({ "text": text, "game": s.below(3) }).to_string()
        }
        _ => String::new(),
    }
}

/// Mostly the slot of a running search (the engines answer what they are asked),
/// sometimes any.
fn engine_slot(c: &Controller<Recorder>, s: &mut Script) -> usize {
    let busy: Vec<usize> = SLOTS
        .into_iter()
        .filter(|&slot| c.jobs().slots_id(slot).is_some())
        .collect();
    match busy.as_slice() {
        [] => s.below(3),
        slots if s.below(4) > 0 => slots[s.below(slots.len())],
        _ => s.below(3),
    }
}

/// The id an engine's word carries: mostly its current search's, sometimes an old one.
fn search_id(c: &Controller<Recorder>, slot: usize, s: &mut Script) -> u64 {
    let current = c.jobs().slots_id(slot).unwrap_or(0);
    match s.below(4) {
        0 => current.saturating_sub(u64::from(s.byte() % 4)),
        _ => current,
    }
}

/// The position of the last search asked of `slot` (the start when none).
fn searched(c: &Controller<Recorder>, slot: usize) -> Position {
    match &c.host().last_search[slot] {
        Some(search) => {
            let mut pos = search.start;
            for &m in &search.moves {
                pos.play(m);
            }
            pos
        }
        None => *c.line().start(),
    }
}

fn answer_text(c: &Controller<Recorder>, slot: usize, s: &mut Script) -> String {
    let legal = legal_moves(&searched(c, slot));
    match (legal.as_slice(), s.below(16)) {
        (moves, 0..=13) if !moves.is_empty() => moves[s.below(moves.len())].to_string(),
        (_, 14) => "0000".into(),
        _ => s.text(),
    }
}

/// A report on the last search of `slot`: a line of legal moves, any score.
fn report(c: &Controller<Recorder>, slot: usize, s: &mut Script) -> SearchInfo {
    let mut pos = searched(c, slot);
    let mut pv: Vec<Move> = Vec::new();
    for _ in 0..s.below(6) {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let m = legal.as_slice()[s.below(legal.len())];
        pos.play(m);
        pv.push(m);
    }
    let n = s.number() as i32;
    SearchInfo {
        depth: s.below(64) as i32,
        seldepth: s.below(128) as i32,
        multipv: s.below(5),
        score: if s.below(4) == 0 {
            Score::Mate(n % 400)
        } else {
            Score::Cp(n)
        },
        bound: [ScoreBound::Exact, ScoreBound::Lower, ScoreBound::Upper][s.below(3)],
        nodes: s.number().unsigned_abs(),
        nps: s.number().unsigned_abs(),
        time: Duration::from_millis(s.number().unsigned_abs()),
        hashfull: s.below(1001) as u32,
        tbhits: 0,
        pv,
    }
}

/// The controller's invariants.
fn check(c: &Controller<Recorder>) -> Result<(), String> {
    let line = c.line();
    if line.cursor() > line.moves().len() {
        return Err(format!(
            "cursor {} past the line's {} moves",
            line.cursor(),
            line.moves().len()
        ));
    }
    // Every move of the line is legal where it is played, under the line's rules.
    let mut game = Game::with_rules(*line.start(), line.rules());
    for (ply, &m) in line.moves().iter().enumerate() {
        if ply == line.cursor() && game.position() != line.position() {
            return Err(format!("the shown position is not the line's at ply {ply}"));
        }
        game.play(m)
            .map_err(|e| format!("move {} ({m}) of the line is refused: {e}", ply + 1))?;
    }
    if line.cursor() == line.moves().len() && game.position() != line.position() {
        return Err("the shown position is not the line's end".into());
    }
    // Each slot's job is the last search asked of it.
    for slot in SLOTS {
        if let Some(id) = c.jobs().slots_id(slot) {
            let asked = c.host().last_search[slot].as_ref().map(|s| s.id);
            if asked != Some(id) {
                return Err(format!(
                    "slot {slot} waits for search {id}, the last asked is {asked:?}"
                ));
            }
        }
    }
    // An engine plays only where the game goes on (at the cursor: a move played there
    // starts a new branch), for the side to move.
    if let Some((_, play)) = c.jobs().playing() {
        if line.result().is_some() {
            return Err("an engine is asked to move in a game that has ended".into());
        }
        if play.color != line.position().side_to_move() {
            return Err(format!("the engine plays {:?} out of turn", play.color));
        }
    }
    // The page's view: written whole, its targets legal.
    let v = view::state(c);
    serde_json::to_string(&v).map_err(|e| format!("the view does not serialise: {e}"))?;
    let legal: Vec<String> = game_at_cursor(c)
        .legal_moves()
        .as_slice()
        .iter()
        .map(Move::to_string)
        .collect();
    for (from, targets) in &v.legal {
        for t in targets {
            let mv = format!("{from}{}", t.to);
            if !legal.contains(&mv) {
                return Err(format!("the view offers {mv}, which is not legal"));
            }
        }
    }
    // The judge's reply due and hint are moves of the board shown.
    if let Some(j) = &v.judge {
        if let Some(reply) = j.reply.as_ref().filter(|r| !legal.contains(r)) {
            return Err(format!(
                "the judge's reply {reply} is not legal on the board"
            ));
        }
        if let Some(hint) = j
            .hint
            .as_ref()
            .filter(|h| !legal.iter().any(|m| m.starts_with(&h.square)))
        {
            return Err(format!(
                "the judge hints at {}, which has no move",
                hint.square
            ));
        }
    }
    Ok(())
}

fn game_at_cursor(c: &Controller<Recorder>) -> Game {
    c.line().game_at(c.line().cursor())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_core::rng::Rng;

    /// Seeded random scripts: what the fuzz target does, bounded for CI. A longer run:
    /// `JUNGLE_EXERCISE_SCRIPTS=100000 cargo test --release -p jungle-app exercise`.
    #[test]
    fn random_scripts_keep_the_invariants() {
        let scripts: u64 = std::env::var("JUNGLE_EXERCISE_SCRIPTS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(300);
        let mut reach = Reach::default();
        for seed in 0..scripts {
            let mut rng = Rng::new(seed);
            let len = 64 + rng.below(4000);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            match run(&bytes) {
                Ok(r) => {
                    reach.plies = reach.plies.max(r.plies);
                    reach.ended += r.ended;
                    reach.reviewing += r.reviewing;
                    reach.judging += r.judging;
                }
                Err(e) => panic!("script of seed {seed}: {e}"),
            }
        }
        // The scripts get somewhere: long games, ended games, reviews.
        eprintln!("{reach:?}");
        assert!(reach.plies >= 20, "{reach:?}");
        assert!(reach.ended > 0, "{reach:?}");
        assert!(reach.reviewing > 0, "{reach:?}");
        assert!(reach.judging > 0, "{reach:?}");
    }

    /// The checks can fail: a line with a move that is not legal is caught.
    #[test]
    fn the_checks_catch_an_illegal_line() {
        let config = Config {
            names: ["a".into(), "b".into(), "c".into()],
            watch_clock: (1000, 10),
            movetime_ms: 100,
        };
        let mut c = Controller::new(config, Recorder::default());
        assert_eq!(check(&c), Ok(()));
        assert!(run(&[]).is_ok());
        let bad: Move = "a1a9".parse().expect("a move's form");
        c.force_line_for_test(bad);
        assert!(check(&c).is_err());
    }
}
