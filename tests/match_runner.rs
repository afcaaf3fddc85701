//! The referee and scheduler of `jungle match`, through the real binary, against the
//! engine itself and against fake engines (tests/fake_engines/*.sh) that move
//! illegally, crash, hang, or answer garbage.

mod gui_common;

use gui_common::{fake, jungle};
use std::process::Command;
use std::time::{Duration, Instant};

fn ours(name: &str) -> String {
    format!("cmd={} name={name} option.Hash=8", jungle())
}

/// Runs `jungle match …`; returns (success, stdout, stderr).
fn run_match(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    gui_common::run_jungle(&all)
}

fn finished_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect()
}

#[test]
fn self_play_mini_match_with_records_that_replay() {
    let dir = std::env::temp_dir().join(format!("jungle-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pgn = dir.join("games.txt");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/openings.txt");
    let (ok, out, err) = run_match(&[
        "--engine",
        &ours("A"),
        "--engine",
        &ours("B"),
        "--games",
        "4",
        "--nodes",
        "3000",
        "--concurrency",
        "2",
        "--openings",
        openings,
        "--pgn",
        pgn.to_str().expect("utf-8 path"),
        "--maxmoves",
        "150",
    ]);
    assert!(ok, "{out}\n{err}");
    assert_eq!(finished_lines(&out).len(), 4, "{out}");
    assert!(out.contains("Score of A vs B:"), "{out}");
    assert!(out.contains("Ptnml(0-2):"), "{out}");
    assert!(
        out.contains("Losses of A: 0 by illegal move, 0 on time, 0 by crash or hang"),
        "{out}"
    );
    assert!(
        out.contains("Losses of B: 0 by illegal move, 0 on time, 0 by crash or hang"),
        "{out}"
    );
    // The record file reads back and every game replays legally.
    let replay = Command::new(jungle())
        .args(["replay", pgn.to_str().expect("utf-8 path")])
        .output()
        .expect("replay runs");
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(replay.status.success(), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("Game ")).count(),
        4,
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn illegal_moves_lose_and_are_counted() {
    let (ok, out, err) = run_match(&[
        "--engine",
        &ours("Jungle"),
        "--engine",
        &fake("illegal"),
        "--games",
        "2",
        "--depth",
        "2",
    ]);
    assert!(ok, "{out}\n{err}");
    let games = finished_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    assert!(
        games.iter().all(|l| l.contains("illegal move a1a3")),
        "{out}"
    );
    assert!(
        out.contains("Score of Jungle vs illegal: 2 - 0 - 0"),
        "{out}"
    );
    assert!(
        out.contains("Losses of illegal: 2 by illegal move, 0 on time, 0 by crash or hang"),
        "{out}"
    );
}

#[test]
fn sprt_stops_the_match_and_its_verdict_stands() {
    // Every game against the illegal-move engine is won: H1 is accepted after about a
    // hundred pairs (a one-cell tally grows the LLR slowly), the match stops before
    // its 400 games, and the final summary keeps the verdict.
    let (ok, out, err) = run_match(&[
        "--engine",
        &ours("Jungle"),
        "--engine",
        &fake("illegal"),
        "--games",
        "400",
        "--depth",
        "1",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0",
        "elo1=10",
    ]);
    assert!(ok, "{out}\n{err}");
    let games = finished_lines(&out).len();
    assert!(games < 400, "the match did not stop: {games} games\n{out}");
    let verdicts: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("SPRT:"))
        .skip_while(|l| !l.contains("H1 was accepted after"))
        .collect();
    assert!(!verdicts.is_empty(), "{out}");
    let first = verdicts[0];
    assert!(
        verdicts
            .iter()
            .all(|l| l.ends_with(first.rsplit(" - ").next().unwrap_or(""))),
        "the verdict changed: {out}"
    );
    let after_end = out.split("Match finished").nth(1).unwrap_or("");
    assert!(after_end.contains("H1 was accepted after"), "{out}");
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let (ok, out, err) = run_match(&[
        "--engine",
        &ours("Jungle"),
        "--engine",
        &fake("crash"),
        "--games",
        "4",
        "--depth",
        "2",
    ]);
    assert!(ok, "{out}\n{err}");
    let games = finished_lines(&out);
    assert_eq!(games.len(), 4, "{out}");
    assert!(games.iter().all(|l| l.contains("engine crashed")), "{out}");
    assert!(
        out.contains("Losses of crash: 0 by illegal move, 0 on time, 4 by crash or hang"),
        "{out}"
    );
}

/// A match of two games against the silent engine `hang` (with `hang_extra` in its
/// settings) under `limits`: both are lost on time, within `within`.
fn both_games_lost_on_time(hang_extra: &str, limits: &[&str], within: Duration) {
    let start = Instant::now();
    let (jungle, hang) = (ours("Jungle"), format!("{} {hang_extra}", fake("hang")));
    let mut args = vec!["--engine", &jungle, "--engine", &hang, "--games", "2"];
    args.extend_from_slice(limits);
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    assert!(start.elapsed() < within, "{out}");
    let games = finished_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    assert!(games.iter().all(|l| l.contains("loss on time")), "{out}");
    assert!(
        out.contains("Losses of hang: 0 by illegal move, 2 on time, 0 by crash or hang"),
        "{out}"
    );
}

#[test]
fn a_hang_loses_on_time() {
    both_games_lost_on_time("", &["--tc", "0.5s+0s"], Duration::from_secs(30));
}

#[test]
fn an_engines_own_clock_gives_time_odds() {
    // The silent engine plays on its own 0.3 s clock, not the match's 60 s.
    both_games_lost_on_time("tc=0.3s", &["--tc", "60s"], Duration::from_secs(30));
}

#[test]
fn a_movetime_answer_past_the_margin_loses_on_time() {
    // Without a margin a silent engine is waited on for 5 s and loses as hung.
    both_games_lost_on_time(
        "",
        &["--movetime", "100", "--timemargin", "50"],
        Duration::from_secs(10),
    );
    let (ok, _, err) = run_match(&[
        "--engine",
        &ours("A"),
        "--engine",
        &ours("B"),
        "--depth",
        "2",
        "--timemargin",
        "50",
    ]);
    assert!(!ok && err.contains("--movetime"), "{err}");
}

#[test]
fn pondering_engines_are_hit_and_stopped_and_their_games_replay() {
    let dir = std::env::temp_dir().join(format!("jungle-ponder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pgn = dir.join("games.txt");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/openings.txt");
    let (ok, out, err) = run_match(&[
        "--engine",
        &format!("{} ponder=true", ours("A")),
        "--engine",
        &format!("{} ponder=true option.Threads=2", ours("B")),
        "--games",
        "4",
        "--nodes",
        "2000",
        "--openings",
        openings,
        "--pgn",
        pgn.to_str().expect("utf-8 path"),
        "--maxmoves",
        "60",
    ]);
    assert!(ok, "{out}\n{err}");
    assert_eq!(finished_lines(&out).len(), 4, "{out}");
    for name in ["A", "B"] {
        assert!(
            out.contains(&format!(
                "Losses of {name}: 0 by illegal move, 0 on time, 0 by crash or hang"
            )),
            "{out}"
        );
    }
    assert!(!out.contains("not stopped"), "{out}");
    // Self-play at fixed nodes guesses the reply often, and not always.
    let ponder = out
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("Ponder searches: "))
        .unwrap_or_else(|| panic!("no ponder summary: {out}"));
    let counts: Vec<u32> = ponder
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .collect();
    assert!(
        counts.len() == 2 && counts[0] > 0 && counts[1] > 0,
        "{ponder}"
    );
    let replay = Command::new(jungle())
        .args(["replay", pgn.to_str().expect("utf-8 path")])
        .output()
        .expect("replay runs");
    assert!(replay.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_answer_is_an_illegal_move() {
    let (ok, out, _) = run_match(&[
        "--engine",
        &ours("Jungle"),
        "--engine",
        &fake("garbage"),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(ok);
    assert!(
        out.contains("Losses of garbage: 2 by illegal move"),
        "{out}"
    );
}

#[test]
fn bad_settings_are_refused_before_any_game() {
    let (a, b) = (ours("A"), ours("B"));
    // Two good engines followed by the settings under test.
    let with_engines = |rest: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["--engine", a.as_str(), "--engine", b.as_str()]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(rest.iter().map(|s| s.to_string()));
        v
    };
    let own = |args: &[&str]| args.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            own(&[
                "--engine",
                "cmd=/nonexistent/engine",
                "--engine",
                "cmd=/bin/true",
                "--depth",
                "1",
            ]),
            "cannot start",
        ),
        (with_engines(&["--tc", "fast"]), "is not a time control"),
        (with_engines(&["--tc", "0s+1s"]), "must start above zero"),
        (with_engines(&["--tc", "10+0.1"]), "does not say its units"),
        (
            with_engines(&["--tc", "1d"]),
            "days a move are for online games",
        ),
        (
            with_engines(&["--depth", "1", "--openings", "/nonexistent/file"]),
            "cannot read openings",
        ),
        (
            with_engines(&["--depth", "1", "--sprt", "elo0=5", "elo1=0"]),
            "elo0",
        ),
        (
            with_engines(&["--depth", "1", "--sprt", "elo1=x"]),
            "not a number",
        ),
        (with_engines(&[]), "one of --tc"),
        (
            own(&[
                "--engine",
                &format!("{a} tc=1s"),
                "--engine",
                &b,
                "--nodes",
                "100",
            ]),
            "not with --movetime, --depth or --nodes",
        ),
        (
            own(&["--engine", &format!("{a} tc=1s"), "--engine", &b]),
            "give --tc",
        ),
        (
            own(&[
                "--engine",
                &format!("{a} tc=1s+x"),
                "--engine",
                &b,
                "--tc",
                "1s",
            ]),
            "is not a time control",
        ),
        (own(&["--engine", &a, "--depth", "1"]), "exactly two"),
        (
            own(&["--engine", "name=A", "--engine", &b, "--depth", "1"]),
            "no cmd",
        ),
        (
            own(&["--engine", &fake("noshake"), "--engine", &b, "--depth", "1"]),
            "handshake",
        ),
        // An option the engine refuses is an error, not a silently different engine.
        (
            own(&[
                "--engine",
                &format!("{a} option.Bogus=1"),
                "--engine",
                &b,
                "--depth",
                "1",
            ]),
            "refused its options: info string error: unknown option 'Bogus'",
        ),
        (
            own(&[
                "--engine",
                &format!("{a} option.UCI_Elo=5"),
                "--engine",
                &b,
                "--depth",
                "1",
            ]),
            "option UCI_Elo takes a whole number",
        ),
    ];
    for (args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, out, err) = run_match(&args);
        assert!(!ok, "{args:?} should fail");
        assert!(
            finished_lines(&out).is_empty(),
            "{args:?}: games were played"
        );
        assert!(
            err.to_lowercase().contains(&expected.to_lowercase()),
            "{args:?}: {err}"
        );
    }
    // A bad openings file (a malformed position) is refused too.
    let dir = std::env::temp_dir().join(format!("jungle-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "l5t/1d3c1/7 r\n").expect("write");
    let (ok, _, err) = run_match(&[
        "--engine",
        &ours("A"),
        "--engine",
        &ours("B"),
        "--depth",
        "1",
        "--openings",
        bad.to_str().expect("utf-8"),
    ]);
    assert!(!ok);
    assert!(err.contains("openings line 1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engines_are_told_the_rules_the_referee_enforces() {
    // Under jungle-cn with swimming dogs, an engine left on the default rules would
    // sooner or later play a move the referee refuses; told the rules, none is illegal.
    let (ok, out, err) = run_match(&[
        "--engine",
        &ours("A"),
        "--engine",
        &ours("B"),
        "--games",
        "2",
        "--depth",
        "3",
        "--rules",
        "jungle-cn",
        "--dog-swims",
        "--maxmoves",
        "60",
    ]);
    assert!(ok, "{out}\n{err}");
    let games = finished_lines(&out);
    assert_eq!(games.len(), 2, "{out}");
    assert!(games.iter().all(|l| !l.contains("illegal move")), "{out}");
    assert!(out.contains("Losses of A: 0 by illegal move"), "{out}");
    assert!(out.contains("Losses of B: 0 by illegal move"), "{out}");
}
