//! End-to-end search tests through the real binary: the labelled wins of
//! `tests/mates.txt` must be found with the exact `score mate N`, and the bench node
//! count (the engine's signature) must be deterministic, from the command line and
//! over the protocol alike.

mod protocol_common;

use jungle::game::GameResult;
use protocol_common::*;
use std::time::{Duration, Instant};

struct MateCase {
    line: usize,
    n: i32,
    fen: String,
    winning: Vec<String>,
    label: String,
}

fn load_mates() -> Vec<MateCase> {
    // JUNGLE_MATES_FILE may point elsewhere (to try a suite before it lands).
    let path = std::env::var("JUNGLE_MATES_FILE")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mates.txt").to_string());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{path} is missing or unreadable ({e}): tests/mates.txt must list the mate \
             suite as '<N> ; <position string> ; <all winning first moves> ; <label>'"
        )
    });
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        assert!(
            f.len() >= 4,
            "tests/mates.txt line {}: expected '<N> ; <fen> ; <moves> ; <label>': {line:?}",
            i + 1
        );
        let n: i32 = f[0]
            .parse()
            .unwrap_or_else(|_| panic!("tests/mates.txt line {}: bad N {:?}", i + 1, f[0]));
        assert!(n >= 1, "tests/mates.txt line {}: N must be >= 1", i + 1);
        let winning: Vec<String> = f[2].split_whitespace().map(str::to_string).collect();
        assert!(
            !winning.is_empty(),
            "tests/mates.txt line {}: no winning moves",
            i + 1
        );
        let g = game_of(f[1], &[]);
        assert_eq!(
            g.result(),
            GameResult::Ongoing,
            "tests/mates.txt line {}: the game is already over",
            i + 1
        );
        for m in &winning {
            g.position().parse_move(m).unwrap_or_else(|e| {
                panic!("tests/mates.txt line {}: winning move {m}: {e}", i + 1)
            });
        }
        cases.push(MateCase {
            line: i + 1,
            n,
            fen: f[1].to_string(),
            winning,
            label: f[3..].join(";"),
        });
    }
    assert!(!cases.is_empty(), "tests/mates.txt has no positions");
    cases
}

/// Checks a search on a mate case: the last exact main-line score is `mate N`, no line
/// claims a faster win, and the bestmove is one of the winning moves.
fn check_mate_search(e: &mut Engine, case: &MateCase, go: &str, failures: &mut Vec<String>) {
    e.send_silent(&format!("position fen {}", case.fen));
    let start = Instant::now();
    let out = e.go(go, Duration::from_secs(30));
    let took = start.elapsed();
    let g = game_of(&case.fen, &[]);
    out.check_legal(&g, &format!("mates.txt line {}", case.line));
    let ctx = format!(
        "mates.txt line {} ({}): `position fen {}` + `{go}`",
        case.line, case.label, case.fen
    );
    println!("{ctx}: bestmove {} in {took:?}", out.bestmove);
    let exact: Vec<&Info> = out
        .infos
        .iter()
        .filter(|i| i.multipv == 1 && i.bound.is_none())
        .collect();
    let last = exact.last().map(|i| i.score);
    if last != Some(Score::Mate(case.n)) {
        failures.push(format!(
            "{ctx}: expected the last info line to say 'score mate {}', got {:?} (last line {:?})",
            case.n,
            last,
            exact.last().map(|i| i.line.as_str())
        ));
    }
    if !out
        .infos
        .iter()
        .any(|i| i.score == Score::Mate(case.n) && i.bound.is_none())
    {
        failures.push(format!("{ctx}: no info line with 'score mate {}'", case.n));
    }
    for i in &exact {
        if let Score::Mate(m) = i.score {
            if m > 0 && m < case.n {
                failures.push(format!(
                    "{ctx}: claims a faster win than the suite's N={}: {:?}",
                    case.n, i.line
                ));
            }
        }
    }
    if !case.winning.contains(&out.bestmove) {
        failures.push(format!(
            "{ctx}: bestmove {} is not among the winning moves {:?}",
            out.bestmove, case.winning
        ));
    }
}

#[test]
fn mates_are_found_with_the_exact_distance() {
    let cases = load_mates();
    let mut e = Engine::start("mates");
    let mut failures = Vec::new();
    let t0 = Instant::now();
    for case in &cases {
        e.send_silent("ucinewgame");
        check_mate_search(
            &mut e,
            case,
            // Two plies beyond the mate's length: pruning (null move, reductions) may
            // delay a quiet mate by an iteration or two, and how far depends on the
            // evaluation; the distance and the winning move must still be exact.
            &format!("go depth {}", 2 * case.n + 4),
            &mut failures,
        );
    }
    println!(
        "go depth 2N+4 over {} cases: {:?}",
        cases.len(),
        t0.elapsed()
    );
    let t1 = Instant::now();
    for case in &cases {
        e.send_silent("ucinewgame");
        check_mate_search(&mut e, case, &format!("go mate {}", case.n), &mut failures);
    }
    println!("go mate N over {} cases: {:?}", cases.len(), t1.elapsed());
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_blocking_move_is_a_win_at_the_horizon() {
    // Blue's rat steps to a3 and Red (elephant a4, cat a5) has no legal move: a win in
    // one. Found at depth 1, where Red's reply is a quiescence node, and never hidden by
    // a static score that looks good for the blocked side (reverse futility once did).
    let cases = load_mates();
    let case = cases
        .iter()
        .find(|c| c.fen.starts_with("6t/2e4/5l1/d6/C6/E6/7/r6/7 b"))
        .expect("the blocked-side case is in tests/mates.txt");
    let mut e = Engine::start("blocked");
    let mut failures = Vec::new();
    for depth in 1..=6 {
        e.send_silent("ucinewgame");
        check_mate_search(&mut e, case, &format!("go depth {depth}"), &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn cli_bench_total(depth: &str) -> (u64, usize) {
    let (status, out, err) = run_cli(&["bench", "--depth", depth], Duration::from_secs(60));
    assert!(
        status.success(),
        "`jungle bench --depth {depth}` failed: {status:?}\nstderr: {err}\nstdout: {out}"
    );
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    check_bench_output(&lines, &format!("jungle bench --depth {depth}"))
}

/// `bench 5` over the protocol: its total node count.
fn bench5_total(e: &mut Engine, what: &str) -> u64 {
    check_bench_output(&e.bench_lines(5, Duration::from_secs(60)), what).0
}

#[test]
fn bench_is_deterministic() {
    let t0 = Instant::now();
    let (a, count) = cli_bench_total("5");
    let (b, _) = cli_bench_total("5");
    println!(
        "bench --depth 5: {a} nodes over {count} positions ({:?} for two runs)",
        t0.elapsed()
    );
    assert!(a > 0, "bench node count must be positive");
    assert_eq!(a, b, "two runs of `jungle bench --depth 5` disagree");

    // Over the protocol, after other searches and with other options: the same count.
    let mut e = Engine::start("bench");
    e.send_silent("setoption name Hash value 32");
    e.send_silent("position startpos moves g3g4 a7a6");
    e.go("go depth 5", Duration::from_secs(20));
    let p = bench5_total(&mut e, "bench 5 (protocol)");
    assert_eq!(
        p, a,
        "`bench 5` over the protocol gives {p} nodes, `jungle bench --depth 5` gives {a}"
    );
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());

    // --json: one object with the documented fields and the same node count.
    let (status, out, err) = run_cli(
        &["bench", "--depth", "5", "--json"],
        Duration::from_secs(60),
    );
    assert!(status.success(), "bench --json failed: {err}");
    let text = out.trim();
    assert!(
        text.starts_with('{') && text.ends_with('}'),
        "bench --json: one JSON object expected: {text:?}"
    );
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    for key in [
        "\"depth\":5",
        "\"threads\":1",
        "\"positions\":[",
        "\"fen\":",
        "\"bestmove\":",
        "\"nps\":",
        "\"time_ms\":",
    ] {
        assert!(compact.contains(key), "bench --json lacks {key}: {text}");
    }
    assert!(
        compact.contains(&format!("\"nodes\":{a}")),
        "bench --json: total nodes {a} not found: {text}"
    );
    assert!(
        count >= 30,
        "`jungle bench`: protocol.md says at least 30 bench positions, got {count}"
    );
}

/// A candidate's signature: `jungle bench --params` and `bench` over the protocol after
/// `setoption name SearchParams` count the same nodes, other than the engine's; a
/// wrong parameter is refused by name.
#[test]
fn bench_of_tuned_parameters() {
    // The default history bonus before issue 45's (d² up to 400).
    const CANDIDATE: &str =
        "history_bonus_quad=1,history_bonus_lin=0,history_bonus_offset=0,history_bonus_max=400";
    let (engine, _) = cli_bench_total("5");
    let (status, out, err) = run_cli(
        &["bench", "--depth", "5", "--params", CANDIDATE],
        Duration::from_secs(60),
    );
    assert!(status.success(), "{err}");
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    let (candidate, _) = check_bench_output(&lines, "jungle bench --params");
    assert_ne!(candidate, engine, "other parameters search other trees");

    let mut e = Engine::start("bench-params");
    e.send_silent(&format!("setoption name SearchParams value {CANDIDATE}"));
    let p = bench5_total(&mut e, "bench 5 (protocol, SearchParams)");
    assert_eq!(p, candidate);
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());

    let (status, _, err) = run_cli(
        &["bench", "--params", "history_bonus_max=0"],
        Duration::from_secs(20),
    );
    assert!(!status.success());
    assert!(
        err.contains("history_bonus_max takes a whole number from 50 to 1600"),
        "{err}"
    );
}
