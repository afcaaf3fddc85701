//! The invariants every parser of outside input must keep, checked on arbitrary bytes.
//!
//! One function per input format. Each takes raw bytes (what a fuzzer or a property
//! test produces), feeds them to the real parser, and panics when an invariant fails:
//! not only "no panic", but round trips (a position string that parses prints back to
//! one that parses to the same position), differential checks against the rules core
//! (a move text is accepted exactly when it is one of the legal moves), "a rejected
//! command leaves the state unchanged", and "after any sequence of commands the engine
//! still answers `isready` and a `go depth 1` with a legal move".
//!
//! Shared by the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs` include this file by
//! path), the property tests and the fuzz regression tests (`tests/properties.rs`), so
//! that stable CI compiles and runs the same checks the fuzzers run.

#![allow(dead_code)]

use jungle::board::rules::MoveRuleFlags;
use jungle::board::{Color, Move, Position};
use jungle::common::input::{read_line, Line};
use jungle::common::output::Output;
use jungle::game::{Game, GameResult, Rules, Variant};
use jungle::matches::match_runner::{write_record, GameRecord, Termination};
use jungle::protocol::command::{self, Command, GoCommand};
use jungle::record::{read_openings, read_records, replay, RecordResult};
use jungle::session::Session;
use jungle::train::{data, tune};
use jungle::with_move_rules;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Error messages are one protocol line of bounded length, whatever the input.
pub const MAX_MESSAGE: usize = 400;

/// The rule sets inputs are checked under: the default, each move-rule switch, and
/// the Chinese variant (anti-chase rules).
pub fn rule_sets() -> [Rules; 4] {
    let with_moves = |dog_swims, trapped_lose_attack| Rules {
        moves: MoveRuleFlags {
            dog_swims,
            trapped_lose_attack,
        },
        ..Rules::default()
    };
    [
        Rules::default(),
        with_moves(true, false),
        with_moves(false, true),
        Variant::JungleCn.rules(),
    ]
}

/// The `setoption` lines that put a session under `rules` (from the defaults).
pub fn rule_option_lines(rules: Rules) -> Vec<String> {
    vec![
        format!("setoption name UCI_Variant value {}", rules.variant.name()),
        format!("setoption name DogSwims value {}", rules.moves.dog_swims),
        format!(
            "setoption name TrappedLoseAttack value {}",
            rules.moves.trapped_lose_attack
        ),
        format!(
            "setoption name NoCaptureDrawPlies value {}",
            rules.draw.no_capture_plies
        ),
        format!(
            "setoption name RepetitionDraw value {}",
            rules.draw.repetitions
        ),
    ]
}

/// An error message fits on one protocol line, stays short, and holds no control
/// character (a carriage return or an escape sequence from the input would split or
/// rewrite the line on a terminal), nor a Unicode line or paragraph separator.
pub fn check_message(message: &str) {
    assert!(
        !message
            .chars()
            .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')),
        "error message holds a control character: {message:?}"
    );
    assert!(
        message.chars().count() <= MAX_MESSAGE,
        "error message of {} characters (input echoed unshortened?): {}...",
        message.chars().count(),
        message.chars().take(120).collect::<String>()
    );
    assert!(!message.trim().is_empty(), "empty error message");
}

// ---------------------------------------------------------------------------------
// Position strings
// ---------------------------------------------------------------------------------

/// Position strings (`position fen`, `--fen`, openings, records).
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let parsed: Vec<_> = rule_sets()[..3]
        .iter()
        .map(|r| Position::from_fen_with(&text, r.moves))
        .collect();
    for (result, rules) in parsed.iter().zip(rule_sets()) {
        match result {
            Ok(pos) => check_position(pos, rules),
            Err(e) => check_message(&e.to_string()),
        }
    }
    // Trapped animals losing their attack changes moves, not which positions exist;
    // a swimming dog only allows more.
    assert_eq!(
        parsed[0].is_ok(),
        parsed[2].is_ok(),
        "TrappedLoseAttack changed whether {text:?} parses"
    );
    if parsed[0].is_ok() {
        assert!(parsed[1].is_ok(), "{text:?} parses, but not when dogs swim");
    }
}

/// A parsed position prints back to a string that parses to the same position, its
/// key is the key computed from scratch, and its moves print and parse back.
pub fn check_position(pos: &Position, rules: Rules) {
    let printed = pos.to_fen();
    let again = Position::from_fen_with(&printed, rules.moves)
        .unwrap_or_else(|e| panic!("printed position {printed:?} does not parse: {e}"));
    assert!(
        again == *pos,
        "{printed:?} parses to another position ({:?})",
        again.to_fen()
    );
    assert_eq!(again.to_fen(), printed, "printing is not canonical");
    assert_eq!(pos.key(), pos.compute_key(), "key of {printed}");
    let game = Game::with_rules(*pos, rules);
    let _ = game.result();
    let legal = game.legal_moves();
    for &m in legal.iter() {
        let text = m.to_string();
        assert_eq!(Move::from_raw(m.raw()), Some(m));
        let parsed = with_move_rules!(rules.moves, R => pos.parse_move_with::<R>(&text));
        assert_eq!(parsed, Ok(m), "legal move {text} in {printed}");
        let mut after = *pos;
        after.play(m);
        assert_eq!(
            after.key(),
            after.compute_key(),
            "key after {text} from {printed}"
        );
        assert_eq!(after.side_to_move(), pos.side_to_move().other());
    }
}

// ---------------------------------------------------------------------------------
// Protocol command lines
// ---------------------------------------------------------------------------------

/// One protocol line: parsing never panics, errors are one short line, and a parsed
/// command written back canonically parses to the same command.
pub fn command_line(data: &[u8]) {
    let mut reader = std::io::Cursor::new(data);
    let line = match read_line(&mut reader) {
        Ok(Some(Line::Text(t))) => t,
        _ => return,
    };
    match command::parse(&line) {
        Ok(None) => assert!(
            line.split_whitespace().next().is_none(),
            "{line:?} is not empty but parsed to nothing"
        ),
        Ok(Some(cmd)) => {
            if let Some(canonical) = canonical_line(&cmd) {
                assert_eq!(
                    command::parse(&canonical),
                    Ok(Some(cmd.clone())),
                    "{line:?} parsed to {cmd:?}, written back as {canonical:?}"
                );
            }
        }
        Err(e) => check_message(&e),
    }
}

/// A command written as a protocol line (`None` for commands this check does not
/// know, so that new commands do not break it).
pub fn canonical_line(cmd: &Command) -> Option<String> {
    Some(match cmd {
        Command::Uci => "uci".into(),
        Command::Jcei => "jcei".into(),
        Command::IsReady => "isready".into(),
        Command::NewGame => "ucinewgame".into(),
        Command::Stop => "stop".into(),
        Command::PonderHit => "ponderhit".into(),
        Command::Quit => "quit".into(),
        Command::Display => "d".into(),
        Command::Eval => "eval".into(),
        Command::Perft(d) => format!("go perft {d}"),
        Command::PerftCount(d) => format!("perft {d}"),
        Command::Moves => "moves".into(),
        Command::Bench(None) => "bench".into(),
        Command::Bench(Some(d)) => format!("bench {d}"),
        Command::SetOption { name, value } => match value {
            Some(v) => format!("setoption name {name} value {v}"),
            None => format!("setoption name {name}"),
        },
        Command::Position { fen, moves } => {
            let mut s = match fen {
                Some(f) => format!("position fen {f}"),
                None => "position startpos".into(),
            };
            if !moves.is_empty() {
                s.push_str(" moves ");
                s.push_str(&moves.join(" "));
            }
            s
        }
        Command::Go(go) => canonical_go(go),
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

fn canonical_go(go: &GoCommand) -> String {
    let l = &go.limits;
    let mut s = String::from("go");
    let mut add = |key: &str, v: Option<String>| {
        if let Some(v) = v {
            s.push_str(&format!(" {key} {v}"));
        }
    };
    add("depth", l.depth.map(|v| v.to_string()));
    add("nodes", l.nodes.map(|v| v.to_string()));
    add("movetime", l.movetime.map(|v| v.to_string()));
    add("wtime", l.time[0].map(|v| v.to_string()));
    add("btime", l.time[1].map(|v| v.to_string()));
    add("winc", (l.inc[0] != 0).then(|| l.inc[0].to_string()));
    add("binc", (l.inc[1] != 0).then(|| l.inc[1].to_string()));
    add("movestogo", l.movestogo.map(|v| v.to_string()));
    add("mate", l.mate.map(|v| v.to_string()));
    if l.infinite {
        s.push_str(" infinite");
    }
    if l.ponder {
        s.push_str(" ponder");
    }
    if !go.searchmoves.is_empty() {
        s.push_str(" searchmoves ");
        s.push_str(&go.searchmoves.join(" "));
    }
    s
}

// ---------------------------------------------------------------------------------
// A session in memory
// ---------------------------------------------------------------------------------

/// An output sink shared with the test: the session's lines, in order.
#[derive(Clone, Default)]
pub struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    /// Every complete line written so far.
    pub fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        String::from_utf8_lossy(&bytes[..end])
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// A session writing into memory, with a 1 MB table (fast to start).
pub struct MemorySession {
    pub session: Session,
    pub out: SharedBuf,
    /// Lines already looked at by `new_lines`.
    seen: usize,
}

impl MemorySession {
    pub fn new() -> MemorySession {
        let out = SharedBuf::default();
        let session =
            Session::with_hash(Output::new(Box::new(out.clone())), 1).expect("a 1 MB table");
        MemorySession {
            session,
            out,
            seen: 0,
        }
    }

    /// Sends one line; returns the lines written since the last call (search output of
    /// a running search may be among them) and whether the session goes on.
    pub fn send(&mut self, line: &str) -> (Vec<String>, bool) {
        let alive = self.session.handle_line(line);
        (self.new_lines(), alive)
    }

    pub fn new_lines(&mut self) -> Vec<String> {
        let all = self.out.lines();
        let new = all[self.seen.min(all.len())..].to_vec();
        self.seen = all.len();
        new
    }

    /// Waits until `n` `bestmove` lines have been written in all; panics after 30 s.
    pub fn wait_bestmoves(&self, n: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let found: Vec<String> = self
                .out
                .lines()
                .into_iter()
                .filter(|l| l.starts_with("bestmove"))
                .collect();
            if found.len() >= n {
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "waited 30 s for bestmove number {n}; only {} came",
                found.len()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Default for MemorySession {
    fn default() -> Self {
        MemorySession::new()
    }
}

/// What must not change when a command is rejected.
#[derive(Debug, PartialEq, Eq)]
pub struct GameSnapshot {
    start: String,
    moves: Vec<Move>,
    position: String,
    rules: String,
}

pub fn snapshot(g: &Game) -> GameSnapshot {
    GameSnapshot {
        start: g.start_position().to_fen(),
        moves: g.moves().to_vec(),
        position: g.position().to_fen(),
        rules: format!("{:?}", g.rules()),
    }
}

fn errors_in(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

/// Commands that are slow or big by design (a 10 GB table, perft 30, a full bench):
/// the session target skips them, so that an input cannot stall the fuzzer. Their
/// parsing is covered by the command-line target and their values by the option
/// target.
pub fn too_costly(line: &str) -> bool {
    let number = |v: &Option<String>| {
        v.as_deref()
            .and_then(|v| v.trim().parse::<i64>().ok())
            .unwrap_or(0)
    };
    match command::parse(line) {
        Ok(Some(Command::Bench(_))) => true,
        Ok(Some(Command::Perft(d) | Command::PerftCount(d))) => d > 3,
        Ok(Some(Command::SetOption { name, value })) => {
            let name = name.to_ascii_lowercase();
            (name == "hash" && number(&value) > 16) || (name == "threads" && number(&value) > 8)
        }
        _ => false,
    }
}

/// A search the session accepted: the game it searched and its `searchmoves`.
struct Searched {
    game: Game,
    searchmoves: Vec<String>,
}

/// Whole sessions: the input is protocol lines. Checks after every command that an
/// error is exactly one line, that a rejected `position` (or any rejected command)
/// leaves the game unchanged; at the end that every accepted `go` got exactly one
/// legal `bestmove`, that the engine answers `isready`, and that `go depth 1` from a
/// legal position gives a legal move.
pub fn session(data: &[u8]) {
    let mut s = MemorySession::new();
    let mut reader = std::io::Cursor::new(data);
    let mut searched: Vec<Searched> = Vec::new();
    let mut alive = true;
    while let Ok(Some(line)) = read_line(&mut reader) {
        let Line::Text(line) = line else { continue };
        if too_costly(&line) {
            continue;
        }
        let parsed = command::parse(&line);
        let before = snapshot(s.session.game());
        let game_before = s.session.game().clone();
        let (out, go_on) = s.send(&line);
        let errors = errors_in(&out);
        assert!(
            errors.len() <= 1,
            "{line:?} was answered by {} error lines: {errors:?}",
            errors.len()
        );
        for e in &errors {
            check_message(e);
        }
        if !errors.is_empty() {
            assert_eq!(
                snapshot(s.session.game()),
                before,
                "rejected {line:?} changed the game"
            );
        }
        match parsed {
            Err(_) => assert_eq!(
                errors.len(),
                1,
                "malformed {line:?} not answered by an error"
            ),
            Ok(Some(Command::Go(go))) if errors.is_empty() => searched.push(Searched {
                game: game_before,
                searchmoves: go.searchmoves.clone(),
            }),
            Ok(Some(Command::IsReady)) => assert!(
                out.iter().any(|l| l == "readyok"),
                "isready not answered at once: {out:?}"
            ),
            _ => {}
        }
        if !go_on {
            alive = false;
            break;
        }
    }
    s.session.stop_search();
    check_bestmoves(&s, &searched);
    if !alive {
        return;
    }
    // The engine still works: isready, then a legal move from a legal position.
    s.new_lines();
    let (out, _) = s.send("isready");
    assert_eq!(
        out.last().map(String::as_str),
        Some("readyok"),
        "isready after the session: {out:?}"
    );
    let mut gos = searched.len();
    for setup in [None, Some("position startpos")] {
        if let Some(line) = setup {
            let (out, _) = s.send(line);
            assert!(out.is_empty(), "{line}: {out:?}");
        }
        let (out, _) = s.send("go depth 1");
        assert!(errors_in(&out).is_empty(), "go depth 1 refused: {out:?}");
        searched.push(Searched {
            game: s.session.game().clone(),
            searchmoves: Vec::new(),
        });
        gos += 1;
        s.wait_bestmoves(gos);
        s.session.stop_search();
        check_bestmoves(&s, &searched);
        s.new_lines();
    }
}

/// Exactly one `bestmove` per accepted `go`, each legal in the game it searched.
fn check_bestmoves(s: &MemorySession, searched: &[Searched]) {
    let lines = s.out.lines();
    let bestmoves: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(
        bestmoves.len(),
        searched.len(),
        "{} searches started, {} bestmove lines: {bestmoves:?}",
        searched.len(),
        bestmoves.len()
    );
    for (line, search) in bestmoves.iter().zip(searched) {
        check_bestmove(line, &search.game, &search.searchmoves);
    }
}

/// `bestmove` is a legal move of `game` (one of `searchmoves` if any), `0000` only
/// when the game is over, and its ponder move is legal after it.
pub fn check_bestmove(line: &str, game: &Game, searchmoves: &[String]) {
    let tokens: Vec<&str> = line.split(' ').collect();
    let (best, ponder) = match tokens.as_slice() {
        ["bestmove", b] => (*b, None),
        ["bestmove", b, "ponder", p] => (*b, Some(*p)),
        _ => panic!("malformed bestmove line {line:?}"),
    };
    let fen = game.position().to_fen();
    if game.result() != GameResult::Ongoing {
        assert_eq!(best, "0000", "the game {fen} is over: {line:?}");
        return;
    }
    let legal: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
    assert!(
        legal.iter().any(|m| m == best),
        "{line:?} is not legal in {fen} (legal: {legal:?})"
    );
    if !searchmoves.is_empty() {
        assert!(
            searchmoves.iter().any(|m| m == best),
            "{line:?} is not among searchmoves {searchmoves:?}"
        );
    }
    if let Some(p) = ponder {
        let mut after = game.clone();
        after
            .play_text(best)
            .unwrap_or_else(|e| panic!("bestmove {best} in {fen}: {e}"));
        let replies: Vec<String> = after.legal_moves().iter().map(Move::to_string).collect();
        assert!(
            replies.iter().any(|m| m == p),
            "ponder move of {line:?} is not legal after {best} from {fen}"
        );
    }
}

// ---------------------------------------------------------------------------------
// Move lists (`position ... moves ...`)
// ---------------------------------------------------------------------------------

/// Start positions for the move-list check: the start, rats in the rivers (jumps
/// blocked), a dog by the water, animals on traps, a race to the den.
pub const MOVE_STARTS: [&str; 6] = [
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1",
    "l5t/1d3c1/2p1w1e/1r5/3L3/4R2/E1W1P2/1C3D1/T6 r 0 1",
    "l5t/1d3c1/r1p1w1e/7/7/3D3/E1W1P1R/1C5/T5L b 0 1",
    "l1E3t/1d1W1c1/r1p3e/7/7/7/4P1R/1C1w1D1/T5L r 12 20",
    "7/3R3/7/7/7/7/7/3r3/7 r 0 1",
    "6t/7/7/7/7/7/7/7/L6 b 97 80",
];

/// `position fen <start> moves <list>`: the input picks a start and rules and gives
/// the moves, either as text or as indices into the legal moves. The session accepts
/// the list exactly when the rules core plays every move; then it holds the same game;
/// otherwise exactly one error names the first bad move and the previous game is kept.
pub fn moves(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let start_fen = MOVE_STARTS[usize::from(selector) % MOVE_STARTS.len()];
    let rules = rule_sets()[usize::from(selector >> 3) % 4];
    let by_index = selector & 0x80 != 0;
    let start = Position::from_fen_with(start_fen, rules.moves).expect("start positions parse");

    // Reference: the rules core plays the moves one by one.
    let mut game = Game::with_rules(start, rules);
    let tokens: Vec<String> = if by_index {
        tokens_from_indices(&game, rest)
    } else {
        String::from_utf8_lossy(rest)
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let mut first_bad = None;
    for (i, tok) in tokens.iter().enumerate() {
        let ongoing = game.result() == GameResult::Ongoing;
        let legal: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
        let is_legal = legal.contains(tok);
        assert_eq!(
            game.parse_move(tok).is_ok(),
            is_legal,
            "move text {tok:?} in {} (legal: {legal:?})",
            game.position().to_fen()
        );
        let before = snapshot(&game);
        match game.play_text(tok) {
            Ok(m) => {
                assert!(ongoing && is_legal, "{tok} played in a finished game");
                assert_eq!(m.to_string(), *tok);
                let pos = game.position();
                assert_eq!(pos.key(), pos.compute_key(), "key after {tok}");
            }
            Err(e) => {
                assert!(!(ongoing && is_legal), "legal {tok} refused: {e}");
                check_message(&e.to_string());
                assert_eq!(snapshot(&game), before, "refused {tok} changed the game");
                first_bad = Some(i);
                break;
            }
        }
    }

    // The session: a known previous game, then the list.
    let mut s = MemorySession::new();
    for line in rule_option_lines(rules) {
        let (out, _) = s.send(&line);
        assert!(out.is_empty(), "{line}: {out:?}");
    }
    let (out, _) = s.send("position startpos moves a1a2");
    assert!(out.is_empty(), "{out:?}");
    let previous = snapshot(s.session.game());
    let line = format!("position fen {start_fen} moves {}", tokens.join(" "));
    let (out, _) = s.send(&line);
    match first_bad {
        None => {
            assert!(out.is_empty(), "{line:?} refused: {out:?}");
            assert_eq!(snapshot(s.session.game()), snapshot(&game));
        }
        Some(i) => {
            assert_eq!(out.len(), 1, "{line:?}: {out:?}");
            assert!(out[0].starts_with("info string error:"), "{out:?}");
            check_message(&out[0]);
            assert!(
                out[0].contains(&format!("move {} ", i + 1)),
                "the error does not name move {}: {}",
                i + 1,
                out[0]
            );
            assert_eq!(snapshot(s.session.game()), previous);
        }
    }
}

/// Moves from bytes: each byte picks a legal move of the game so far, except that
/// bytes from 0xF0 give an illegal or malformed token (then the list stops mattering).
fn tokens_from_indices(start: &Game, bytes: &[u8]) -> Vec<String> {
    const BAD: [&str; 8] = ["a1a1", "a0a1", "zz", "g9g8g7", "", "d1d2", "A1A2", "e3e4"];
    let mut game = start.clone();
    let mut out = Vec::new();
    for &b in bytes {
        if b >= 0xF0 {
            let bad = BAD[usize::from(b & 7)];
            out.push(if bad.is_empty() {
                "x".into()
            } else {
                bad.into()
            });
            continue;
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal.as_slice()[usize::from(b) % legal.len()];
        out.push(m.to_string());
        if game.play(m).is_err() {
            break;
        }
    }
    out
}

// ---------------------------------------------------------------------------------
// Option values (`setoption`)
// ---------------------------------------------------------------------------------

/// The options and their kinds, as protocol.md documents them.
#[derive(Clone, Copy)]
enum Kind {
    Spin(i64, i64),
    Check,
    Button,
    Variant,
}

const OPTIONS: [(&str, Kind); 15] = [
    ("Hash", Kind::Spin(1, 65536)),
    ("Threads", Kind::Spin(1, 256)),
    ("MultiPV", Kind::Spin(1, 32)),
    ("Move Overhead", Kind::Spin(0, 5000)),
    ("Clear Hash", Kind::Button),
    ("Skill Level", Kind::Spin(0, 20)),
    ("UCI_LimitStrength", Kind::Check),
    (
        "UCI_Elo",
        Kind::Spin(
            jungle::search::strength::ELO_MIN as i64,
            jungle::search::strength::ELO_MAX as i64,
        ),
    ),
    ("Ponder", Kind::Check),
    ("UCI_Variant", Kind::Variant),
    ("DogSwims", Kind::Check),
    ("TrappedLoseAttack", Kind::Check),
    ("NoCaptureDrawPlies", Kind::Spin(0, 1000)),
    ("RepetitionDraw", Kind::Spin(0, 10)),
    ("NoSuchOption", Kind::Button),
];

/// Whether protocol.md says the value is accepted (written from the documentation,
/// not from the code: spins take a whole number in range, checks `true`/`false`,
/// buttons nothing, the variant `jungle`/`jungle-cn`).
fn documented_accepts(kind: Kind, value: Option<&str>) -> bool {
    match (kind, value) {
        (Kind::Button, v) => v.is_none(),
        (_, None) => false,
        (Kind::Spin(min, max), Some(v)) => {
            let digits = v.strip_prefix(['+', '-']).unwrap_or(v);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
            let magnitude = digits.trim_start_matches('0');
            if magnitude.len() > 12 {
                return false;
            }
            let n: i64 = magnitude.parse().unwrap_or(0);
            let n = if v.starts_with('-') { -n } else { n };
            (min..=max).contains(&n)
        }
        (Kind::Check, Some(v)) => v.eq_ignore_ascii_case("true") || v.eq_ignore_ascii_case("false"),
        (Kind::Variant, Some(v)) => {
            v.eq_ignore_ascii_case("jungle") || v.eq_ignore_ascii_case("jungle-cn")
        }
    }
}

/// `setoption`: the first byte picks an option (and whether a value is given), the
/// rest is the value. The session accepts exactly what protocol.md documents, a
/// refusal is one error line naming the option and leaves the game and rules alone,
/// and afterwards the engine still searches and plays a legal move.
pub fn setoption(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (name, kind) = OPTIONS[usize::from(selector) % OPTIONS.len()];
    let with_value = selector & 0x80 == 0;
    let raw = String::from_utf8_lossy(rest).replace(['\n', '\r'], " ");
    // The value as the command parser sees it: its tokens joined by single spaces.
    let value = with_value.then(|| raw.split_whitespace().collect::<Vec<_>>().join(" "));
    if value
        .as_deref()
        .is_some_and(|v| v.split(' ').any(|t| t == "value"))
    {
        // `value` inside the value is read as the start of the value by the parser,
        // by design; the check below assumes the value is everything after it.
        return;
    }
    let mut name_text = name.to_string();
    if selector & 0x40 != 0 {
        name_text = name_text.to_ascii_lowercase();
    }
    let line = match &value {
        Some(v) => format!("setoption name {name_text} value {v}"),
        None => format!("setoption name {name_text}"),
    };
    if too_costly(&line) {
        return;
    }
    let mut s = MemorySession::new();
    let (out, _) = s.send("position startpos moves g3g4");
    assert!(out.is_empty());
    let before = snapshot(s.session.game());
    let (out, _) = s.send(&line);
    let expected = documented_accepts(kind, value.as_deref()) && name != "NoSuchOption";
    if expected {
        assert!(out.is_empty(), "{line:?} refused: {out:?}");
    } else {
        assert_eq!(out.len(), 1, "{line:?} answered by {out:?}");
        assert!(out[0].starts_with("info string error:"), "{out:?}");
        check_message(&out[0]);
        assert!(
            out[0].to_lowercase().contains(&name.to_lowercase()),
            "the error for {line:?} does not name the option: {}",
            out[0]
        );
        assert_eq!(snapshot(s.session.game()), before);
    }
    // The engine still works with whatever was set.
    let (out, _) = s.send("isready");
    assert_eq!(out, ["readyok"], "after {line:?}");
    let game = s.session.game().clone();
    let (out, _) = s.send("go depth 1");
    assert!(errors_in(&out).is_empty(), "after {line:?}: {out:?}");
    let best = s.wait_bestmoves(1);
    s.session.stop_search();
    check_bestmove(&best[0], &game, &[]);
}

// ---------------------------------------------------------------------------------
// Files: match records, openings, training data
// ---------------------------------------------------------------------------------

/// Match records (`jungle replay`, `jungle tune`): reading never panics and errors are
/// short; every game that replays is written back by the match runner's writer and
/// read again to the same start, moves and result; the tuner's sampling never panics.
pub fn records(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for rules in rule_sets() {
        let games = match read_records(&text, rules) {
            Ok(g) => g,
            Err(e) => {
                check_message(&e);
                continue;
            }
        };
        for g in &games {
            let game = match replay(g) {
                Ok(game) => game,
                Err(e) => {
                    check_message(&e);
                    continue;
                }
            };
            assert_eq!(game.moves().len(), g.moves.len());
            assert_eq!(*game.start_position(), g.start);
            let winner = match g.result {
                Some(RecordResult::RedWins) => Some(Color::Red),
                Some(RecordResult::BlueWins) => Some(Color::Blue),
                Some(RecordResult::Draw) => None,
                _ => continue,
            };
            let record = GameRecord {
                number: 1,
                red: 0,
                start: g.start,
                moves: g.moves.clone(),
                winner,
                termination: Termination::Rules(game.result()),
                faulty: None,
                unstopped_ponder: Vec::new(),
                ponder_hits: 0,
                ponder_misses: 0,
            };
            let mut written = Vec::new();
            write_record(&mut written, &record, &["A".into(), "B".into()], rules)
                .expect("writes to memory");
            let written = String::from_utf8(written).expect("records are UTF-8");
            let back = read_records(&written, rules)
                .unwrap_or_else(|e| panic!("a written record does not read: {e}\n{written}"));
            assert_eq!(back.len(), 1, "{written}");
            assert_eq!(back[0].start, g.start, "{written}");
            assert_eq!(back[0].moves, g.moves, "{written}");
            assert_eq!(back[0].result, g.result, "{written}");
        }
        let settings = tune::Settings {
            skip_plies: 0,
            passes: 0,
            holdout: 0,
            rules,
            from_hand_set: false,
            rust_file: None,
            command_line: String::new(),
        };
        match tune::samples(&games, &settings) {
            Ok(samples) => {
                let plies: usize = games.iter().map(|g| g.moves.len()).sum();
                assert!(samples.len() <= plies);
            }
            Err(e) => check_message(&e),
        }
    }
}

/// Openings files: every position read is a legal, unfinished game under the rules,
/// and prints back to itself; errors are short.
pub fn openings(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for rules in rule_sets() {
        match read_openings(&text, rules) {
            Ok(positions) => {
                assert!(positions.len() <= text.lines().count());
                for p in &positions {
                    check_position(p, rules);
                    assert_eq!(
                        Game::with_rules(*p, rules).result(),
                        GameResult::Ongoing,
                        "finished opening {}",
                        p.to_fen()
                    );
                }
            }
            Err(e) => check_message(&e),
        }
    }
}

/// Training data: a buffer decodes exactly when each of its records does, a decoded
/// buffer encodes back to the same bytes, and every decoded position is sound.
pub fn training_data(bytes: &[u8]) {
    let whole = data::decode_all(bytes);
    if bytes.len() % data::RECORD_BYTES != 0 {
        assert!(whole.is_err(), "a truncated buffer decoded");
        return;
    }
    let each: Vec<_> = bytes
        .chunks_exact(data::RECORD_BYTES)
        .enumerate()
        .map(|(i, c)| {
            let mut r = [0u8; data::RECORD_BYTES];
            r.copy_from_slice(c);
            data::decode(&r, i as u64)
        })
        .collect();
    match whole {
        Ok(samples) => {
            assert!(each.iter().all(Result::is_ok));
            let mut again = Vec::new();
            data::write_samples(&mut again, &samples).expect("writes to memory");
            assert_eq!(again, bytes, "decode then encode changed the bytes");
            for s in &samples {
                check_position(&s.pos, Rules::default());
            }
        }
        Err(e) => {
            let first_bad = each.iter().position(Result::is_err);
            let first_bad = first_bad.expect("decode_all failed but every record decodes");
            let message = e.to_string();
            check_message(&message);
            assert!(
                message.contains(&format!("record {first_bad}")),
                "the error does not name record {first_bad}: {message}"
            );
        }
    }
}

/// The board app driven by the bytes (the page's requests and the engines' answers),
/// its invariants checked after every step: `jungle_app::exercise`.
pub fn board_requests(data: &[u8]) {
    if let Err(e) = jungle_app::exercise::run(data) {
        panic!("{e}");
    }
}
