//! End-to-end tests of the engine protocol (protocol.md sections 3 and 4), driving the
//! real binary through stdin/stdout. Every wait has a timeout.

mod protocol_common;

use jungle::board::Position;
use jungle::game::{DrawReason, Game, GameResult};
use jungle::rng::Rng;
use protocol_common::*;
use std::time::{Duration, Instant};

/// The option lines of protocol.md, in its order (the `UCI_Elo` range is the measured
/// one of `search::strength`).
fn option_lines() -> Vec<String> {
    use jungle::search::strength::{ELO_MAX, ELO_MIN};
    [
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 32",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Clear Hash type button",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        &format!("option name UCI_Elo type spin default {ELO_MIN} min {ELO_MIN} max {ELO_MAX}"),
        "option name Ponder type check default false",
        "option name UCI_Variant type combo default jungle var jungle var jungle-cn",
        "option name DogSwims type check default false",
        "option name TrappedLoseAttack type check default false",
        "option name NoCaptureDrawPlies type spin default 100 min 0 max 1000",
        "option name RepetitionDraw type spin default 3 min 0 max 10",
        "option name Eval type combo default nnue var classical var nnue",
        "option name EvalFile type string default <embedded>",
        "option name TablebasePath type string default <empty>",
        "option name TablebaseProbeLimit type spin default 5 min 0 max 5",
        "option name SearchParams type string default <default>",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Red Lion on c9 next to Blue's den, Blue Lion on g1: Red wins at once with c9d9.
const MATE_IN_ONE: &str = "2L4/7/7/7/7/7/7/7/6l r 0 1";
/// From protocol.md's example session: Red already stands in Blue's den.
const DEN_ENTERED: &str = "3R3/7/7/7/7/7/7/7/6l b";

/// Checks the handshake answer (`uci` or `jcei`) and returns its lines.
fn check_handshake(e: &mut Engine, cmd: &str, last: &str) -> Vec<String> {
    e.send(cmd);
    let lines = e.read_until(last, T_REPLY);
    let n = lines.len();
    if lines[n - 1] != last {
        e.fail(&format!(
            "{cmd}: expected {last:?} exactly, got {:?}",
            lines[n - 1]
        ));
    }
    let name = &lines[0];
    let version = name.strip_prefix("id name Jungle ").unwrap_or_else(|| {
        e.fail(&format!(
            "{cmd}: first line should be 'id name Jungle <version>', got {name:?}"
        ))
    });
    if version != env!("CARGO_PKG_VERSION") {
        e.fail(&format!(
            "{cmd}: version in {name:?} should be the package version {}",
            env!("CARGO_PKG_VERSION")
        ));
    }
    match lines.get(1) {
        Some(a) if a.starts_with("id author ") && a.len() > "id author ".len() => {}
        other => e.fail(&format!(
            "{cmd}: second line should be 'id author ...', got {other:?}"
        )),
    }
    let options: Vec<String> = lines[2..n - 1].to_vec();
    let expected = option_lines();
    if options != expected {
        e.fail(&format!(
            "{cmd}: the lines between 'id author' and {last:?} should be exactly the {} \
             option lines of protocol.md, in its order.\nexpected: {expected:#?}\ngot: {options:#?}",
            expected.len()
        ));
    }
    lines
}

/// The lines `d` prints after `Fen:` are exactly `Key:`, `Rules: jungle`, `Moves:`,
/// `State:` (protocol.md section 3).
fn check_d_shape(d: &DOutput, dev: &mut Vec<String>) {
    if d.rules.as_deref() != Some("jungle") || !d.extra.is_empty() {
        dev.push(format!(
            "sent 'd': protocol.md lists the board, then exactly 'Fen:', 'Key:', \
             'Rules: jungle', 'Moves:', 'State:'; got {:?}",
            d.lines
        ));
    }
}

fn check_search(
    e: &mut Engine,
    game: &Game,
    cmd: &str,
    timeout: Duration,
) -> (SearchOutput, jungle::board::Move) {
    let out = e.go(cmd, timeout);
    if let Some(err) = out
        .other
        .iter()
        .find(|l| l.starts_with("info string error"))
    {
        e.fail(&format!("{cmd}: unexpected error {err:?}"));
    }
    let m = out.check_legal(game, cmd);
    // Exactly one bestmove: nothing more after it.
    let extra = e.sync();
    if extra.iter().any(|l| l.starts_with("bestmove")) {
        e.fail(&format!("{cmd}: more than one bestmove: {extra:?}"));
    }
    (out, m)
}

#[test]
fn scripted_session_covers_every_command() {
    let mut e = Engine::start("session");
    // Deviations in the shape of answers are collected and reported together at the
    // end, so that one of them does not hide the rest of the session.
    let mut dev: Vec<String> = Vec::new();

    // Handshakes.
    let uci = check_handshake(&mut e, "uci", "uciok");
    let jcei = check_handshake(&mut e, "jcei", "jceiok");
    assert_eq!(
        uci[..uci.len() - 1],
        jcei[..jcei.len() - 1],
        "jcei must answer as uci, ending in jceiok"
    );

    // isready, ucinewgame.
    let out = e.sync();
    assert!(out.is_empty(), "isready: unexpected lines {out:?}");
    e.send_silent("ucinewgame");

    // setoption: every option with a valid value, then case-insensitive names.
    for cmd in [
        "setoption name Hash value 128",
        "setoption name Threads value 2",
        "setoption name MultiPV value 2",
        "setoption name Move Overhead value 10",
        "setoption name Clear Hash",
        "setoption name Skill Level value 20",
        "setoption name Ponder value true",
        "setoption name hash value 16",
        "setoption name THREADS value 1",
        "setoption name move overhead value 30",
        "setoption name CLEAR HASH",
        "setoption name clear hash",
        "setoption name sKiLl LeVeL value 20",
        "setoption name ponder value false",
        "setoption name Hash value 1",
        "setoption name Hash value 64",
        "setoption name Move Overhead value 0",
        "setoption name Move Overhead value 5000",
        "setoption name Move Overhead value 30",
        "setoption name Skill Level value 0",
        "setoption name Skill Level value 20",
        "setoption name UCI_LimitStrength value true",
        "setoption name uci_elo value 1500",
        "setoption name UCI_LimitStrength value false",
        "setoption name MultiPV value 32",
        "setoption name MultiPV value 2",
    ] {
        e.send_silent(cmd);
    }

    // MultiPV 2 is in force: a search reports two lines per depth.
    e.send_silent("position startpos");
    let game = Game::startpos();
    let (out, _) = check_search(&mut e, &game, "go depth 3", T_SEARCH);
    for depth in 1..=3 {
        for k in 1..=2 {
            if !out.infos.iter().any(|i| i.depth == depth && i.multipv == k) {
                e.fail(&format!(
                    "with MultiPV 2, 'go depth 3' should report 'multipv {k}' at depth {depth}"
                ));
            }
        }
    }
    assert!(out.infos.iter().all(|i| i.multipv <= 2));
    // Different first moves on the two lines of the last depth.
    let last1 = out.infos.iter().rev().find(|i| i.multipv == 1).unwrap();
    let last2 = out.infos.iter().rev().find(|i| i.multipv == 2).unwrap();
    assert_ne!(last1.pv[0], last2.pv[0], "MultiPV lines must differ");
    e.send_silent("setoption name multipv value 1");
    let (out, _) = check_search(&mut e, &game, "go depth 2", T_SEARCH);
    assert!(
        out.infos.iter().all(|i| i.multipv == 1),
        "MultiPV back to 1: only multipv 1 lines expected"
    );

    // position / d.
    e.send_silent("position startpos");
    let d = e.d();
    assert_eq!(d.fen, START_FEN, "d after position startpos");
    if d.state != "ongoing, red to move" {
        dev.push(format!(
            "sent 'position startpos' then 'd': protocol.md says 'State: ongoing, red to move', got 'State: {}'",
            d.state
        ));
    }
    check_d_shape(&d, &mut dev);
    let mut got = d.moves.clone();
    got.sort();
    assert_eq!(
        got,
        legal_strings(&Position::startpos()),
        "d Moves at start"
    );
    assert!(!d.board.is_empty(), "d prints the board before Fen:");
    let start_key = d.key.clone();

    e.send_silent("position startpos moves g3g4 a7a6");
    let g = game_of(START_FEN, &["g3g4", "a7a6"]);
    let d = e.d();
    assert_eq!(
        d.fen,
        g.position().to_fen(),
        "d after position startpos moves"
    );
    assert_ne!(d.key, start_key, "Key must change with the position");
    let mut got = d.moves.clone();
    got.sort();
    assert_eq!(got, legal_strings(g.position()));

    // fen with 2 fields, w for Red: the engine writes r and both counters.
    e.send_silent("position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w");
    let d = e.d();
    assert_eq!(d.fen, START_FEN, "position fen with 'w' and no counters");
    assert_eq!(d.key, start_key, "same position, same Key");
    // fen with moves.
    e.send_silent(&format!("position fen {START_FEN} moves g3g4 a7a6"));
    let d = e.d();
    assert_eq!(d.fen, g.position().to_fen(), "position fen ... moves ...");
    // tabs and extra spaces are separators.
    e.send_silent(
        "  position\tfen  l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L\tb 3   7 moves  a7a6 \t",
    );
    let g2 = game_of("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 3 7", &["a7a6"]);
    let d = e.d();
    assert_eq!(
        d.fen,
        g2.position().to_fen(),
        "tabs and spaces as separators"
    );
    check_d_shape(&d, &mut dev);
    // Blue to move.
    e.send_silent("position startpos moves g3g4");
    let d = e.d();
    if d.state != "ongoing, blue to move" {
        dev.push(format!(
            "sent 'position startpos moves g3g4' then 'd': expected 'State: ongoing, blue to move', got 'State: {}'",
            d.state
        ));
    }
    check_d_shape(&d, &mut dev);

    // A finished game: d shows the result and no moves.
    e.send_silent(&format!("position fen {DEN_ENTERED}"));
    let d = e.d();
    if d.state != "red wins (den entered)" {
        dev.push(format!(
            "sent 'position fen {DEN_ENTERED}' then 'd': expected 'State: red wins (den entered)', got 'State: {}'",
            d.state
        ));
    }
    assert!(
        d.moves.is_empty(),
        "no Moves in a finished game: {:?}",
        d.moves
    );
    check_d_shape(&d, &mut dev);
    // Rank 9 at the top; `~` water, `#` trap, `*` den (Blue's den holds the Red rat).
    let board = d.board.join("\n");
    if !d
        .board
        .first()
        .is_some_and(|l| l.trim_start().starts_with('9'))
        || !board.contains('~')
        || !board.contains('#')
        || !board.contains('*')
    {
        dev.push(format!(
            "'d': protocol.md says the board has rank 9 at the top, '~' water, '#' traps, \
             '*' dens; got:\n{board}"
        ));
    }

    // go depth.
    e.send_silent("position startpos moves g3g4 a7a6");
    let (out, _) = check_search(&mut e, &g, "go depth 4", T_SEARCH);
    assert!(!out.infos.is_empty(), "go depth 4: no info lines");
    assert_eq!(
        out.infos.iter().map(|i| i.depth).max(),
        Some(4),
        "go depth 4 should report depth 4 and no deeper"
    );

    // eval, with Red and Blue to move.
    for (fen, red_to_move) in [
        (START_FEN, true),
        ("l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L b 0 1", false),
    ] {
        e.send_silent(&format!("position fen {fen}"));
        e.send("eval");
        let all = e.read_until("NNUE (side to move):", T_REPLY);
        // The network's score for the side to move is the red view, signed.
        let nnue: Vec<i64> = all[all.len() - 2..]
            .iter()
            .zip(["NNUE (red view): ", "NNUE (side to move): "])
            .map(|(l, prefix)| {
                l.strip_prefix(prefix)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| e.fail(&format!("eval: expected '{prefix}<n>': {l:?}")))
            })
            .collect();
        assert_eq!(nnue[1], if red_to_move { nnue[0] } else { -nnue[0] });
        let lines = &all[..all.len() - 2];
        let n = lines.len();
        assert!(
            n >= 3,
            "eval: expected term lines and two totals: {lines:?}"
        );
        let red_view: i64 = lines[n - 2]
            .strip_prefix("Total (red view): ")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| {
                e.fail(&format!(
                    "eval: line before the last should be 'Total (red view): <n>': {:?}",
                    lines[n - 2]
                ))
            });
        let stm: i64 = lines[n - 1]
            .strip_prefix("Total (side to move): ")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| e.fail(&format!("eval: bad last line {:?}", lines[n - 1])));
        assert_eq!(
            stm,
            if red_to_move { red_view } else { -red_view },
            "eval: side-to-move total vs red-view total ({fen})"
        );
        for term in &lines[..n - 2] {
            // <term> red <r> blue <b> total <r-b>; the term name may contain spaces.
            let t: Vec<&str> = term.split_whitespace().collect();
            let k = t.len();
            let ok = k >= 7
                && t[k - 6] == "red"
                && t[k - 4] == "blue"
                && t[k - 2] == "total"
                && match (
                    t[k - 5].parse::<i64>(),
                    t[k - 3].parse::<i64>(),
                    t[k - 1].parse::<i64>(),
                ) {
                    (Ok(r), Ok(b), Ok(tot)) => r - b == tot,
                    _ => false,
                };
            if !ok {
                e.fail(&format!(
                    "eval: term line should read '<term> red <r> blue <b> total <r-b>': {term:?}"
                ));
            }
        }
    }

    // go perft 3 from the start position.
    e.send_silent("position startpos");
    e.send("go perft 3");
    let lines = e.read_until("Nodes searched:", T_SEARCH);
    let n = lines.len();
    assert_eq!(lines[n - 1], "Nodes searched: 12240", "go perft 3");
    assert_eq!(
        lines[n - 2],
        "",
        "go perft: empty line before Nodes searched"
    );
    let mut sum = 0u64;
    let mut moves = Vec::new();
    for l in &lines[..n - 2] {
        let (m, c) = l
            .split_once(": ")
            .unwrap_or_else(|| e.fail(&format!("go perft: line {l:?} is not '<move>: <count>'")));
        sum += c
            .parse::<u64>()
            .unwrap_or_else(|_| e.fail(&format!("go perft: bad count in {l:?}")));
        moves.push(m.to_string());
    }
    moves.sort();
    assert_eq!(
        moves,
        legal_strings(&Position::startpos()),
        "go perft: divide moves"
    );
    assert_eq!(sum, 12240, "go perft: sum of the divide counts");
    let time = e.expect_line("perft Time: line", T_REPLY, |_| true);
    assert!(time.starts_with("Time: "), "go perft: last line {time:?}");
    let extra = e.sync();
    assert!(extra.is_empty(), "go perft: lines after Time: {extra:?}");

    // bench 2.
    let lines = e.bench_lines(2, Duration::from_secs(30));
    let (_, count) = check_bench_output(&lines, "bench 2 (protocol)");
    if count < 30 {
        dev.push(format!(
            "sent 'bench 2': protocol.md says at least 30 bench positions, got {count}"
        ));
    }

    // The position is still the start position after bench; a search works.
    let d = e.d();
    assert_eq!(d.fen, START_FEN, "bench must not change the position");
    check_search(&mut e, &Game::startpos(), "go depth 2", T_SEARCH);

    // quit.
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(status.success(), "quit: exit status {status:?}, expected 0");
    let rest = e.drain(Duration::from_millis(200));
    assert!(rest.is_empty(), "quit: unexpected output {rest:?}");
    assert!(
        dev.is_empty(),
        "deviations from protocol.md:\n{}",
        dev.join("\n")
    );
}

#[test]
fn isready_during_infinite_search() {
    let mut e = Engine::start("isready-during-search");
    e.send_silent("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    e.send("isready");
    let lines = e.read_until("readyok", Duration::from_secs(2));
    let latency = e.last_arrival.unwrap().duration_since(sent);
    println!("isready latency during search: {latency:?}");
    assert_eq!(lines.last().unwrap(), "readyok");
    if let Some(b) = lines.iter().find(|l| l.starts_with("bestmove")) {
        e.fail(&format!("isready must not end a go infinite search: {b:?}"));
    }
    // The search continues: still no bestmove.
    let later = e.collect_for(Duration::from_millis(400));
    if let Some(b) = later.iter().find(|l| l.starts_with("bestmove")) {
        e.fail(&format!("bestmove {b:?} before stop after isready"));
    }
    // Several isready in a row are each answered.
    for _ in 0..3 {
        e.send("isready");
        e.read_until("readyok", Duration::from_secs(2));
    }
    let sent = Instant::now();
    e.send("stop");
    let out = e.wait_bestmove("stop", Duration::from_secs(2));
    println!("stop latency: {:?}", out.arrival.duration_since(sent));
    out.check_legal(&Game::startpos(), "go infinite + stop");
    let extra = e.sync();
    assert!(
        !extra.iter().any(|l| l.starts_with("bestmove")),
        "second bestmove: {extra:?}"
    );
}

#[test]
fn infinite_waits_for_stop() {
    let mut e = Engine::start("infinite");
    for (fen, label) in [
        (START_FEN, "start position"),
        // The search ends by itself at once here (a win in one), yet bestmove must wait.
        (MATE_IN_ONE, "win in one"),
    ] {
        e.send_silent(&format!("position fen {fen}"));
        e.send("go infinite");
        let early = e.collect_for(Duration::from_millis(500));
        if let Some(b) = early.iter().find(|l| l.starts_with("bestmove")) {
            e.fail(&format!(
                "{label}: 'go infinite' printed {b:?} before stop (protocol.md: bestmove waits for stop)"
            ));
        }
        let sent = Instant::now();
        e.send("stop");
        let out = e.wait_bestmove("go infinite + stop", Duration::from_secs(2));
        let latency = out.arrival.duration_since(sent);
        println!("{label}: stop -> bestmove latency {latency:?} (protocol.md: within 50 ms)");
        assert!(
            latency <= Duration::from_millis(500),
            "{label}: stop took {latency:?} to produce bestmove (protocol.md: 50 ms; test allows 500 ms)"
        );
        out.check_legal(&game_of(fen, &[]), label);
        if fen == MATE_IN_ONE {
            assert_eq!(out.bestmove, "c9d9", "the only winning move");
        }
        let extra = e.collect_for(Duration::from_millis(200));
        assert!(
            extra.is_empty(),
            "{label}: output after bestmove: {extra:?}"
        );
        let extra = e.sync();
        assert!(
            extra.is_empty(),
            "{label}: output after bestmove: {extra:?}"
        );
    }

    // Stop latency measured after ~300 ms of search, a few times.
    e.send_silent("position startpos moves g3g4 a7a6");
    let mut worst = Duration::ZERO;
    for _ in 0..3 {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        e.send("stop");
        let out = e.wait_bestmove("go infinite + stop", Duration::from_secs(2));
        worst = worst.max(out.arrival.duration_since(sent));
        e.sync();
    }
    println!("worst stop latency after 300 ms of search: {worst:?} (spec: 50 ms)");
    assert!(
        worst <= Duration::from_millis(500),
        "stop latency {worst:?} > 500 ms"
    );

    // A go with no limits also waits (searches until stop).
    e.send("go");
    let early = e.collect_for(Duration::from_millis(400));
    if let Some(b) = early.iter().find(|l| l.starts_with("bestmove")) {
        e.fail(&format!("'go' with no limits printed {b:?} before stop"));
    }
    e.send("stop");
    e.wait_bestmove("go + stop", Duration::from_secs(2));

    // quit during a search prints its bestmove and exits 0.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    let lines = e.read_until("bestmove", Duration::from_secs(2));
    parse_bestmove(lines.last().unwrap()).unwrap();
    let status = e.wait_exit(Duration::from_secs(3));
    assert!(
        status.success(),
        "quit during search: exit status {status:?}"
    );
}

#[test]
fn every_go_limit_ends_in_one_bestmove() {
    let mut e = Engine::start("go-limits");
    let g = game_of(START_FEN, &["g3g4", "a7a6"]);
    let setup = "position startpos moves g3g4 a7a6";

    let cases: &[(&str, u64)] = &[
        ("go depth 5", 20_000),
        ("go depth 1", 5_000),
        ("go nodes 5000", 10_000),
        ("go nodes 1", 5_000),
        ("go movetime 200", 5_000),
        ("go wtime 2000 btime 2000 winc 100 binc 100", 5_000),
        ("go wtime 5000 btime 5000 movestogo 10", 5_000),
        ("go btime 1000 wtime 1000 movestogo 1", 5_000),
        ("go rtime 2000 btime 2000 rinc 100 binc 100", 5_000),
        ("go rtime 100 btime 100", 5_000),
        (
            "go wtime 1000 btime 1000 winc 0 binc 0 movetime 100 depth 30",
            5_000,
        ),
        ("go depth 30 nodes 3000", 10_000),
        ("go mate 3 movetime 300", 5_000),
        ("go depth 3 searchmoves g4g5 a3a4", 10_000),
        ("go depth 3 searchmoves e3d3", 10_000),
    ];
    for &(cmd, limit_ms) in cases {
        e.send_silent(setup);
        let start = Instant::now();
        let (out, _) = check_search(&mut e, &g, cmd, Duration::from_millis(limit_ms));
        let took = out.arrival.duration_since(start);
        println!("{cmd}: bestmove {} after {took:?}", out.bestmove);
        if cmd.contains("depth 5") || cmd == "go depth 1" {
            let d: u32 = cmd.rsplit(' ').next().unwrap().parse().unwrap();
            assert_eq!(
                out.infos.iter().map(|i| i.depth).max(),
                Some(d),
                "{cmd}: the deepest info line should be depth {d}"
            );
        }
        if let Some(n) = cmd.strip_prefix("go nodes ") {
            let n: u64 = n.parse().unwrap();
            for i in &out.infos {
                assert!(
                    i.nodes <= n,
                    "{cmd}: info reports {} nodes > limit {n} (exact with one thread): {:?}",
                    i.nodes,
                    i.line
                );
            }
        }
        if cmd == "go depth 30 nodes 3000" {
            let deepest = out.infos.iter().map(|i| i.nodes).max().unwrap_or(0);
            assert!(deepest <= 3000, "{cmd}: nodes {deepest} > 3000");
        }
        if let Some(list) = cmd.split(" searchmoves ").nth(1) {
            let allowed: Vec<&str> = list.split(' ').collect();
            assert!(
                allowed.contains(&out.bestmove.as_str()),
                "{cmd}: bestmove {} not among searchmoves {allowed:?}",
                out.bestmove
            );
            for i in &out.infos {
                assert!(
                    allowed.contains(&i.pv[0].as_str()),
                    "{cmd}: pv starts outside searchmoves: {:?}",
                    i.line
                );
            }
        }
        if !cmd.contains("nodes 1") && !cmd.contains("rtime 100 ") {
            assert!(!out.infos.is_empty(), "{cmd}: no info line before bestmove");
        }
    }

    // Lazy SMP: with two threads every limit still ends in one legal bestmove.
    e.send_silent("setoption name Threads value 2");
    for cmd in ["go depth 6", "go nodes 20000", "go movetime 200"] {
        e.send_silent(setup);
        check_search(&mut e, &g, cmd, Duration::from_secs(10));
    }
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    e.send("stop");
    let out = e.wait_bestmove("go infinite + stop, 2 threads", Duration::from_secs(2));
    println!(
        "stop latency with 2 threads: {:?}",
        out.arrival.duration_since(sent)
    );
    out.check_legal(&g, "2 threads");
    let extra = e.sync();
    assert!(
        !extra.iter().any(|l| l.starts_with("bestmove")),
        "{extra:?}"
    );
    e.send_silent("setoption name Threads value 1");

    // go mate on a win in one: stops when found, with score mate 1.
    e.send_silent(&format!("position fen {MATE_IN_ONE}"));
    let gm = game_of(MATE_IN_ONE, &[]);
    let (out, _) = check_search(&mut e, &gm, "go mate 1", T_SEARCH);
    assert_eq!(out.bestmove, "c9d9", "go mate 1");
    assert_eq!(
        out.last_main().map(|i| i.score),
        Some(Score::Mate(1)),
        "go mate 1: last info score"
    );
    let (out, _) = check_search(&mut e, &gm, "go depth 4", T_SEARCH);
    assert_eq!(out.bestmove, "c9d9");
    assert_eq!(out.last_main().map(|i| i.score), Some(Score::Mate(1)));

    // The loser's view: Blue to move, Red wins next move whatever Blue does.
    let lose_fen = "2L4/7/7/7/7/7/7/7/6l b 0 1";
    e.send_silent(&format!("position fen {lose_fen}"));
    let (out, _) = check_search(&mut e, &game_of(lose_fen, &[]), "go depth 4", T_SEARCH);
    assert_eq!(
        out.last_main().map(|i| i.score),
        Some(Score::Mate(-1)),
        "side to move is mated in one: score mate -1"
    );

    // ponder + ponderhit: bestmove waits for ponderhit, then comes on the clock.
    e.send_silent("setoption name Ponder value true");
    e.send_silent(setup);
    e.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    let early = e.collect_for(Duration::from_millis(400));
    if let Some(b) = early.iter().find(|l| l.starts_with("bestmove")) {
        e.fail(&format!("go ponder printed {b:?} before ponderhit/stop"));
    }
    e.send("ponderhit");
    let out = e.wait_bestmove("go ponder + ponderhit", Duration::from_secs(5));
    out.check_legal(&g, "ponderhit");
    let extra = e.sync();
    assert!(
        !extra.iter().any(|l| l.starts_with("bestmove")),
        "{extra:?}"
    );

    // ponder on a search that finishes by itself (depth 2): still waits for ponderhit.
    e.send("go ponder depth 2");
    let early = e.collect_for(Duration::from_millis(400));
    if let Some(b) = early.iter().find(|l| l.starts_with("bestmove")) {
        e.fail(&format!(
            "go ponder depth 2 printed {b:?} before ponderhit (bestmove waits for stop or ponderhit)"
        ));
    }
    let sent = Instant::now();
    e.send("ponderhit");
    let out = e.wait_bestmove("go ponder depth 2 + ponderhit", Duration::from_secs(3));
    println!(
        "ponderhit after a finished ponder search: bestmove after {:?}",
        out.arrival.duration_since(sent)
    );
    out.check_legal(&g, "ponder depth 2");

    // ponder + stop.
    e.send("go ponder wtime 60000 btime 60000");
    let early = e.collect_for(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    let sent = Instant::now();
    e.send("stop");
    let out = e.wait_bestmove("go ponder + stop", Duration::from_secs(2));
    let latency = out.arrival.duration_since(sent);
    println!("ponder stop latency: {latency:?}");
    assert!(
        latency <= Duration::from_millis(500),
        "ponder stop {latency:?}"
    );
    out.check_legal(&g, "ponder + stop");
    let extra = e.sync();
    assert!(
        !extra.iter().any(|l| l.starts_with("bestmove")),
        "{extra:?}"
    );
}

#[test]
fn bestmove_0000_when_the_game_is_over() {
    let mut e = Engine::start("game-over");
    // Repetition: the start position for the third time.
    let rep = [
        "a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1", "a8a9",
    ];
    let g = game_of(START_FEN, &rep);
    assert_eq!(g.result(), GameResult::Draw(DrawReason::Repetition));
    let cases: Vec<(String, &str)> = vec![
        (
            format!("position fen {DEN_ENTERED}"),
            "den entered (Blue to move)",
        ),
        (
            "position fen 2L4/7/7/7/7/7/7/7/6l r moves c9d9".to_string(),
            "den entered by the last move",
        ),
        (
            "position fen 7/7/7/7/7/7/7/7/6L b".to_string(),
            "Blue has no animals",
        ),
        (
            "position fen rD5/C6/7/7/7/7/7/7/6L b".to_string(),
            "Blue has no legal move",
        ),
        (
            format!("position startpos moves {}", rep.join(" ")),
            "draw by repetition",
        ),
        (
            "position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 100 60".to_string(),
            "draw by 100 plies without capture",
        ),
        (
            "position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 99 60 moves a1a2".to_string(),
            "draw by the no-capture rule after a move",
        ),
    ];
    for (cmd, label) in &cases {
        // Test data sanity: the rules core agrees that the game is over.
        let rest = cmd.strip_prefix("position ").unwrap();
        let (fen, moves) = match rest.split_once(" moves ") {
            Some((f, m)) => (f, m.split(' ').collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        let fen = if fen == "startpos" {
            START_FEN
        } else {
            fen.strip_prefix("fen ").unwrap()
        };
        let game = game_of(fen, &moves);
        assert_ne!(game.result(), GameResult::Ongoing, "test data {label}");

        e.send_silent(cmd);
        for go in [
            "go depth 3",
            "go infinite",
            "go nodes 1000",
            "go movetime 100",
        ] {
            if go == "go infinite" {
                // Even then bestmove waits for stop.
                e.send(go);
                let early = e.collect_for(Duration::from_millis(200));
                if let Some(b) = early.iter().find(|l| l.starts_with("bestmove")) {
                    e.fail(&format!("{label}: 'go infinite' printed {b:?} before stop"));
                }
                e.send("stop");
                let out = e.wait_bestmove(go, Duration::from_secs(2));
                assert_eq!(out.bestmove, "0000", "{label}: {go} + stop");
            } else {
                let out = e.go(go, T_SEARCH);
                assert_eq!(out.bestmove, "0000", "{label}: {go}");
                assert_eq!(out.ponder, None, "{label}: no ponder move after 0000");
            }
        }
        let d = e.d();
        // On-board results leave no legal move (protocol.md section 1); for draws the
        // document does not say whether `Moves:` lists the position's moves.
        if !label.contains("draw") {
            assert!(
                d.moves.is_empty(),
                "{label}: d Moves should be empty: {:?}",
                d.moves
            );
        }
        assert!(
            !d.state.starts_with("ongoing"),
            "{label}: d State {:?}",
            d.state
        );
        println!("{label}: State: {}", d.state);
        if label.contains("repetition") {
            assert_eq!(d.state, "draw (repetition)", "{label}");
        }
        if *label == "Blue has no legal move" {
            assert!(
                d.state.starts_with("red wins"),
                "{label}: State {:?}",
                d.state
            );
        }
    }
    // A move after the end of the game is an error, and the game is kept.
    e.send_silent("position startpos moves g3g4");
    let before = e.d();
    e.send_expect_error(&format!("position startpos moves {} g3g4", rep.join(" ")));
    e.send_expect_error("position fen 2L4/7/7/7/7/7/7/7/6l r moves c9d9 g1g2");
    e.send_expect_error(&format!("position fen {DEN_ENTERED} moves g1g2"));
    let after = e.d();
    assert_eq!(before.fen, after.fen, "game kept after a refused position");
}

#[test]
fn bestmove_is_always_legal_in_short_games() {
    let mut e = Engine::start("self-play");
    let mut rng = Rng::new(0x5eed);
    let mut finished = 0;
    let mut plies_total = 0;
    for game_no in 0..20 {
        e.send_silent("ucinewgame");
        let skill = if (10..15).contains(&game_no) {
            (game_no - 10) * 4
        } else {
            20
        };
        e.send_silent(&format!("setoption name Skill Level value {skill}"));
        let go = if game_no % 2 == 0 {
            "go depth 3"
        } else {
            "go nodes 2000"
        };
        let mut game = Game::startpos();
        // A few random opening plies so that the games differ.
        for _ in 0..(game_no % 5) {
            let legal = jungle::board::movegen::legal_moves(game.position());
            let m = legal[(rng.next_u64() as usize) % legal.len()];
            game.play(m).unwrap();
        }
        loop {
            let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
            let cmd = if moves.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            e.send(&cmd);
            let ctx = format!("game {game_no} ply {} ({cmd})", moves.len());
            let out = e.go(go, T_SEARCH);
            if let Some(err) = out
                .other
                .iter()
                .find(|l| l.starts_with("info string error"))
            {
                e.fail(&format!("{ctx}: unexpected error {err:?}"));
            }
            if game.result() != GameResult::Ongoing {
                assert_eq!(
                    out.bestmove,
                    "0000",
                    "{ctx}: the game is over ({}), expected bestmove 0000",
                    game.result()
                );
                finished += 1;
                break;
            }
            let m = out.check_legal(&game, &ctx);
            game.play(m).unwrap();
            plies_total += 1;
            if game.moves().len() >= 60 && game.result() == GameResult::Ongoing {
                break;
            }
        }
        let out = e.sync();
        assert!(
            out.iter()
                .all(|l| !l.starts_with("bestmove") && !l.starts_with("info string error")),
            "game {game_no}: unexpected lines {out:?}"
        );
    }
    println!("{plies_total} engine moves checked, {finished} of 20 games finished");
}

#[test]
fn malformed_input_keeps_the_engine_alive() {
    let mut e = Engine::start("malformed");
    let setup = "position startpos moves g3g4 a7a6";
    e.send_silent(setup);
    let base = e.d();
    let base_game = game_of(START_FEN, &["g3g4", "a7a6"]);
    assert_eq!(base.fen, base_game.position().to_fen());

    // Checks after each bad line: alive, and the position unchanged.
    fn unchanged(e: &mut Engine, base: &DOutput, what: &str) {
        let d = e.d();
        if d.fen != base.fen || d.moves != base.moves || d.key != base.key {
            e.fail(&format!(
                "after {what}: the position changed: Fen {:?} (was {:?})",
                d.fen, base.fen
            ));
        }
    }

    // Ignored silently: empty and blank lines, stop/ponderhit with no search.
    for cmd in ["", "   ", "\t \t", "stop", "ponderhit"] {
        e.send_silent(cmd);
        unchanged(&mut e, &base, &format!("{cmd:?}"));
    }

    // Unknown commands (command names are case-sensitive).
    let err = e.send_expect_error("foo");
    assert!(
        err.contains("foo"),
        "the error should name the unknown command: {err:?}"
    );
    for cmd in [
        "ISREADY",
        "Uci",
        "Position startpos",
        "go_depth 3",
        "xyzzy 1 2 3",
        "moves g3g4",
        "bestmove g3g4",
    ] {
        e.send_expect_error(cmd);
        unchanged(&mut e, &base, cmd);
    }

    // Very long lines: 200 KB (accepted as a line, unknown) and over 1 MiB (rejected).
    let long = "x".repeat(200 * 1024);
    e.send_expect_error(&long);
    unchanged(&mut e, &base, "a 200 KB line");
    let long_position = format!("position startpos moves {}", "g3g4 ".repeat(40_000));
    e.send_expect_error(&long_position);
    unchanged(&mut e, &base, "a 200 KB position command");
    // 200 KB of trailing white space after a valid command: trimmed.
    e.send(&format!("isready{}", " ".repeat(200 * 1024)));
    let out = e.read_until("readyok", T_REPLY);
    assert_eq!(
        out,
        vec!["readyok".to_string()],
        "isready with long trailing space"
    );
    let huge = format!("position startpos moves {}", "a".repeat(2 * 1024 * 1024));
    e.send_expect_error(&huge);
    unchanged(&mut e, &base, "a 2 MiB line");
    let huge_ok = format!("isready {}", "z".repeat(1024 * 1024 + 10));
    e.send_expect_error(&huge_ok);
    unchanged(&mut e, &base, "a line over 1 MiB starting with isready");

    // Random bytes, invalid UTF-8 and NUL.
    e.send_bytes_expect_error(b"\xff\xfe\x00\x00garbage\x80\x81");
    e.send_bytes_expect_error(b"\x00");
    e.send_bytes_expect_error(b"\xc3\x28 \xa0\xa1 \xf0\x28\x8c\xbc");
    let mut rng = Rng::new(42);
    for _ in 0..30 {
        let len = 1 + (rng.next_u64() % 300) as usize;
        let mut bytes = vec![0xffu8];
        for _ in 0..len {
            let mut b = (rng.next_u64() & 0xff) as u8;
            if b == b'\n' || b == b'\r' {
                b = 0;
            }
            bytes.push(b);
        }
        e.send_bytes_expect_error(&bytes);
    }
    unchanged(&mut e, &base, "random bytes");

    // Bad position strings, one per kind of error in protocol.md section 2.
    let bad_fens = [
        ("", "empty"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 r", "8 ranks"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L/7 r", "10 ranks"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5 r", "rank 6 wide"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6L r", "rank 8 wide"),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X r",
            "unknown letter",
        ),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T05L r", "digit 0"),
        ("l5t/1d3c1/r1p1w1e/8/7/7/E1W1P1R/1C3D1/T5L r", "digit 8"),
        ("l5t/1d3c1/r1p1w1e/9/7/7/E1W1P1R/1C3D1/T5L r", "digit 9"),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4RL r",
            "two red rats",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1Cl2D1/T5L r",
            "two blue lions",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/1E5/2W1P1R/1C3D1/T5L r",
            "elephant in water",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/4L2/7/E1W1P1R/1C3D1/T6 r",
            "lion in water",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/3T2L r",
            "red tiger in own den",
        ),
        (
            "l2t3/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r",
            "blue tiger in own den",
        ),
        (
            "3T2t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/3l2L r",
            "both dens entered",
        ),
        ("7/7/7/7/7/7/7/7/7 r", "no animals"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L", "missing side"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x", "bad side"),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L R",
            "upper-case side",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r -1 1",
            "negative counter",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 65536 1",
            "counter too big",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r abc 1",
            "counter not a number",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 0",
            "move number 0",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 x",
            "move number not a number",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1 extra",
            "trailing text",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1 5",
            "five fields",
        ),
        ("l5t//r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r", "empty rank"),
    ];
    for (fen, label) in bad_fens {
        if !fen.is_empty() {
            // Test data sanity: the rules core rejects it too.
            assert!(
                Position::from_fen(fen).is_err(),
                "test data {label}: {fen} parses"
            );
        }
        let cmd = format!("position fen {fen}");
        let cmd = cmd.trim_end();
        let err = e.send_expect_error(cmd);
        println!("{label}: {err}");
        unchanged(&mut e, &base, &format!("position fen ({label})"));
    }

    // Bad moves and other malformed position commands.
    for (cmd, token) in [
        ("position startpos moves a1a3", Some("a1a3")),
        ("position startpos moves zz", Some("zz")),
        ("position startpos moves g3g4 a7a6 g4g4", Some("g4g4")),
        ("position startpos moves g3g4 g4g5", Some("g4g5")),
        ("position startpos moves G3G4", Some("G3G4")),
        ("position startpos moves g3g4x", Some("g3g4x")),
        ("position startpos moves h1h2", Some("h1h2")),
        ("position startpos moves a0a1", Some("a0a1")),
        (
            "position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b moves g3g4",
            Some("g3g4"),
        ),
        ("position", None),
        ("position foo", None),
        ("position startpos garbage", None),
        ("position fen", None),
    ] {
        let err = e.send_expect_error(cmd);
        if let Some(t) = token {
            assert!(
                err.contains(t),
                "{cmd}: the error should name the bad token {t:?}: {err:?}"
            );
        }
        unchanged(&mut e, &base, cmd);
    }

    // setoption errors; the previous values stay (MultiPV is observable).
    e.send_silent("setoption name MultiPV value 2");
    for cmd in [
        "setoption name Hash value abc",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Hash value -5",
        "setoption name Hash value 1.5",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name Threads value 257",
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 33",
        "setoption name MultiPV value many",
        "setoption name Move Overhead value -1",
        "setoption name Move Overhead value 5001",
        "setoption name Skill Level value 21",
        "setoption name UCI_Elo value 1",
        "setoption name UCI_Elo value 99999",
        "setoption name UCI_LimitStrength value yes",
        "setoption name Ponder value maybe",
        "setoption name Ponder value 1",
        "setoption name NoSuchOption value 1",
        "setoption name Hashes value 16",
        "setoption name",
        "setoption",
        "setoption foo",
    ] {
        let err = e.send_expect_error(cmd);
        if cmd.contains("value 0") || cmd.contains("99999999") || cmd.contains("value 33") {
            // "else an error naming the option and the range"
            let opt = if cmd.contains("Hash") {
                "Hash"
            } else if cmd.contains("Threads") {
                "Threads"
            } else {
                "MultiPV"
            };
            assert!(
                err.contains(opt),
                "{cmd}: the error should name the option: {err:?}"
            );
        }
        unchanged(&mut e, &base, cmd);
    }
    let (out, _) = check_search(&mut e, &base_game, "go depth 2", T_SEARCH);
    assert!(
        out.infos.iter().any(|i| i.multipv == 2) && out.infos.iter().all(|i| i.multipv <= 2),
        "MultiPV should still be 2 after refused setoptions"
    );
    e.send_silent("setoption name MultiPV value 1");

    // Malformed go: one error, no search started (no bestmove).
    for cmd in [
        "go depth x",
        "go depth -1",
        "go depth 0",
        "go depth 125",
        "go nodes",
        "go nodes -3",
        "go wtime",
        "go wtime abc btime 100",
        "go movetime",
        "go movestogo",
        "go mate",
        "go mate x",
        "go searchmoves a1a3",
        "go searchmoves zz",
        "go depth 3 searchmoves g4g5 a1a3",
        "go depth 3 searchmoves g4g5 depth",
        "go perft",
        "go perft x",
        "go foo",
        "go depth 3 bar",
    ] {
        e.send_expect_error(cmd);
        let later = e.collect_for(Duration::from_millis(100));
        if let Some(b) = later.iter().find(|l| l.starts_with("bestmove")) {
            e.fail(&format!("{cmd}: a refused go still printed {b:?}"));
        }
        unchanged(&mut e, &base, cmd);
    }

    // go, setoption, ucinewgame while a search runs: refused, the search goes on.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    for cmd in [
        "go depth 3",
        "go infinite",
        "setoption name Hash value 32",
        "ucinewgame",
        "foo",
    ] {
        e.send(cmd);
        e.send("isready");
        let lines = e.read_until("readyok", T_REPLY);
        let before: Vec<&String> = lines[..lines.len() - 1]
            .iter()
            .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
            .collect();
        if before.len() != 1 || !before[0].starts_with("info string error:") {
            e.fail(&format!(
                "'{cmd}' during a search: expected exactly one 'info string error:' line, got {before:?}"
            ));
        }
        if lines.iter().any(|l| l.starts_with("bestmove")) {
            e.fail(&format!("'{cmd}' during a search ended it: {lines:?}"));
        }
    }
    let later = e.collect_for(Duration::from_millis(300));
    assert!(
        !later.iter().any(|l| l.starts_with("bestmove")),
        "search ended by itself: {later:?}"
    );
    e.send("stop");
    let out = e.wait_bestmove("stop", Duration::from_secs(2));
    out.check_legal(&base_game, "search after refused commands");
    let extra = e.collect_for(Duration::from_millis(200));
    assert!(
        !extra.iter().any(|l| l.starts_with("bestmove")),
        "one go, two bestmoves: {extra:?}"
    );
    // stop again with no search: silent.
    e.send_silent("stop");
    unchanged(&mut e, &base, "the search");

    // Still fully working.
    check_search(&mut e, &base_game, "go depth 3", T_SEARCH);
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(status.success(), "quit after malformed input: {status:?}");
}

/// Replaces the timing numbers (nps, time) so that two runs can be compared.
fn normalize(line: &str) -> String {
    let t: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        out.push(t[i].to_string());
        if (t[i] == "nps" || t[i] == "time") && t[0] == "info" && i + 1 < t.len() {
            out.push("#".into());
            i += 1;
        }
        i += 1;
    }
    let s = out.join(" ");
    if s.starts_with("Time:") {
        return "Time: #".into();
    }
    if let Some((n, _)) = parse_bench_total(&s) {
        return format!("{n} nodes # nps");
    }
    s
}

fn purity_session(rust_log: Option<&str>) -> (Vec<String>, String) {
    let envs: Vec<(&str, &str)> = rust_log.map(|v| vec![("RUST_LOG", v)]).unwrap_or_default();
    let mut e = Engine::start_with("purity", &[], &envs);
    let mut all = Vec::new();
    let script = [
        "uci",
        "jcei",
        "setoption name Hash value 8",
        "setoption name MultiPV value 2",
        "ucinewgame",
        "position startpos moves g3g4",
        "go depth 4",
        "setoption name MultiPV value 1",
        "d",
        "eval",
        "go perft 2",
        "foo",
        "position fen 3R3/7/7/7/7/7/7/7/6l b",
        "go depth 2",
        "d",
        "bench 1",
    ];
    for cmd in script {
        e.send(cmd);
        let out = if cmd == "bench 1" {
            let mut v = Vec::new();
            loop {
                let l = e
                    .next_line(Duration::from_secs(30))
                    .unwrap_or_else(|| e.fail("bench 1: no total line"));
                let done = parse_bench_total(&l).is_some();
                v.push(l);
                if done {
                    break;
                }
            }
            v.extend(e.sync());
            v
        } else {
            let mut v = e.sync();
            if cmd.starts_with("go depth") && !v.iter().any(|l| l.starts_with("bestmove")) {
                // The search runs on other threads: readyok may come first.
                v.extend(e.read_until("bestmove", T_SEARCH));
            }
            v
        };
        check_protocol_lines(&e, cmd, &out);
        all.extend(out.iter().map(|l| format!("{cmd} => {}", normalize(l))));
    }
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(status.success());
    let err = e.stderr_text();
    (all, err)
}

/// Every line answering `cmd` must be a protocol line.
fn check_protocol_lines(e: &Engine, cmd: &str, lines: &[String]) {
    let n = lines.len();
    for (i, l) in lines.iter().enumerate() {
        let first = l.split(' ').next().unwrap_or("");
        let ok = match first {
            "id" | "option" | "uciok" | "jceiok" | "readyok" => true,
            "info" => l.starts_with("info string") || parse_info(l).is_ok(),
            "bestmove" => parse_bestmove(l).is_ok(),
            _ => match cmd {
                // The board, then Fen/Key/Moves/State.
                "d" => {
                    i + 4 >= n
                        || !(l.starts_with('[')
                            || l.contains("DEBUG")
                            || l.contains("TRACE")
                            || l.contains(" INFO ")
                            || l.contains("WARN"))
                }
                "eval" => {
                    l.contains(" red ") || l.starts_with("Total (") || l.starts_with("NNUE (")
                }
                "go perft 2" => {
                    l.is_empty()
                        || l.starts_with("Nodes searched: ")
                        || l.starts_with("Time: ")
                        || l.split_once(": ")
                            .is_some_and(|(m, c)| is_move_shape(m) && c.parse::<u64>().is_ok())
                }
                "bench 1" => parse_bench_line(l).is_some() || parse_bench_total(l).is_some(),
                _ => false,
            },
        };
        if !ok {
            e.fail(&format!(
                "stdout carries a line that is not protocol output (answering {cmd:?}): {l:?}"
            ));
        }
    }
}

#[test]
fn stdout_carries_only_protocol_lines() {
    let (with_log, err) = purity_session(Some("debug"));
    println!("stderr with RUST_LOG=debug: {} bytes", err.len());
    let (without, err_off) = purity_session(None);
    assert!(
        err_off.trim().is_empty(),
        "logging is off unless RUST_LOG is set, yet stderr had: {err_off:?}"
    );
    if with_log != without {
        let diff: Vec<String> = with_log
            .iter()
            .zip(without.iter())
            .filter(|(a, b)| a != b)
            .take(5)
            .map(|(a, b)| format!("with RUST_LOG=debug: {a}\nwithout:             {b}"))
            .collect();
        panic!(
            "stdout differs with RUST_LOG=debug ({} vs {} lines):\n{}",
            with_log.len(),
            without.len(),
            diff.join("\n")
        );
    }
}

#[test]
fn end_of_input_exits_cleanly() {
    // Not quit but EOF on stdin: the engine must not hang.
    let mut e = Engine::start("eof");
    e.send("uci");
    e.read_until("uciok", T_REPLY);
    e.close_stdin();
    let status = e.wait_exit(Duration::from_secs(5));
    println!("exit status at end of input: {status:?}");
}

#[test]
fn cli_perft_and_errors() {
    let (status, out, _) = run_cli(&["perft", "3", "--divide"], Duration::from_secs(20));
    assert!(status.success(), "perft 3 --divide: {status:?}");
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(n >= 3, "perft output: {out:?}");
    assert_eq!(lines[n - 2], "Nodes searched: 12240");
    assert_eq!(lines[n - 3], "");
    assert!(lines[n - 1].starts_with("Time: ") && lines[n - 1].ends_with(" leaves/s"));
    assert_eq!(n - 3, 24, "one divide line per legal move");

    let (status, out, _) = run_cli(
        &["perft", "2", "--fen", START_FEN, "--threads", "2"],
        Duration::from_secs(20),
    );
    assert!(status.success());
    assert!(out.contains("\nNodes searched: 576\n") || out.starts_with("\nNodes searched: 576\n"));

    let (status, _, err) = run_cli(&["perft", "2", "--fen", "7/7/7 r"], Duration::from_secs(20));
    assert_eq!(status.code(), Some(2), "bad --fen exits with status 2");
    assert!(
        err.starts_with("error: invalid --fen: "),
        "bad --fen message on stderr: {err:?}"
    );
    let (status, _, _) = run_cli(&["perft", "33"], Duration::from_secs(20));
    assert!(!status.success(), "perft 33 is out of range");
    let (status, _, _) = run_cli(&["bench", "--depth", "x"], Duration::from_secs(20));
    assert!(!status.success(), "bench --depth x is an error");
}

/// protocol.md: "a size the machine cannot give is refused with an error and the old
/// size kept". Only run where 64 GiB certainly cannot be given (no overcommit).
#[test]
fn hash_the_machine_cannot_give_is_refused() {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kb = |key: &str| -> u64 {
        meminfo
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(u64::MAX / 4)
    };
    let overcommit = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    let total_gb = (kb("MemTotal:") + kb("SwapTotal:")) / (1024 * 1024);
    if overcommit.trim() == "1" || total_gb >= 48 {
        println!("skipped: this machine might give 64 GiB (RAM+swap {total_gb} GB, overcommit {overcommit:?})");
        return;
    }
    let mut e = Engine::start("hash-too-big");
    e.send_silent("setoption name Hash value 16");
    let err = e.send_expect_error("setoption name Hash value 65536");
    println!("Hash 65536 on a {total_gb} GB machine: {err}");
    e.send_silent("position startpos");
    check_search(&mut e, &Game::startpos(), "go depth 5", T_SEARCH);
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

/// The SearchParams option (search/parameters.rs) reaches the search: other margins
/// search another tree, `<default>` gives back the engine's, and a bad value is refused
/// with the parameters unchanged.
#[test]
fn search_params_option_reaches_the_search() {
    let mut e = Engine::start("search-params");
    let game = Game::startpos();
    let nodes = |e: &mut Engine| -> u64 {
        e.send_silent("ucinewgame");
        e.send_silent("position startpos");
        let (out, _) = check_search(e, &game, "go depth 7", T_SEARCH);
        out.infos.last().map_or(0, |i| i.nodes)
    };
    let default = nodes(&mut e);
    assert!(default > 0);
    assert_eq!(nodes(&mut e), default, "a search at a depth is repeatable");
    e.send_silent("setoption name SearchParams value rfp_margin=20,futility_base=0 lmr_base=150");
    let tuned = nodes(&mut e);
    assert_ne!(tuned, default, "other margins search another tree");
    let err = e.send_expect_error("setoption name SearchParams value lmr_divisor=0");
    assert!(
        err.contains("lmr_divisor") && err.contains("100 to 500"),
        "{err}"
    );
    let err = e.send_expect_error("setoption name SearchParams value colour=red");
    assert!(err.contains("unknown search parameter 'colour'"), "{err}");
    assert_eq!(nodes(&mut e), tuned, "a refused value changes nothing");
    e.send_silent("setoption name SearchParams value <default>");
    assert_eq!(nodes(&mut e), default);
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

/// `jungle params` lists every tunable parameter with its default inside its range.
#[test]
fn params_lists_the_tunables() {
    let (status, out, err) = run_cli(&["params"], T_REPLY);
    assert!(status.success(), "{err}");
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split(", ").collect()).collect();
    assert_eq!(rows.len(), jungle::search::parameters::TUNABLES.len());
    for r in &rows {
        assert_eq!(r.len(), 7, "{r:?}");
        assert_eq!(r[1], "int");
        let n = |i: usize| r[i].parse::<i64>().expect("a number");
        assert!(n(3) <= n(2) && n(2) <= n(4), "{r:?}");
    }
    assert!(rows.iter().any(|r| r[0] == "rfp_margin" && r[2] == "90"));
}

/// The extra commands of jungine's jcei dialect, in its exact formats: its tkinter GUI
/// reads `moves` as one line `Legal moves (<n>): <m>…` and sends `newgame`.
#[test]
fn jungine_dialect_commands() {
    let mut e = Engine::start("jungine-dialect");
    check_handshake(&mut e, "jcei", "jceiok");

    // moves: one line, the count, then the legal moves of the game.
    let check_moves = |e: &mut Engine, game: &Game| {
        e.send("moves");
        let line = e
            .next_line(T_REPLY)
            .unwrap_or_else(|| e.fail("no answer to 'moves'"));
        let expected = if game.result() == GameResult::Ongoing {
            legal_strings(game.position())
        } else {
            Vec::new()
        };
        let (head, list) = line
            .split_once(':')
            .unwrap_or_else(|| e.fail(&format!("'moves': no ':' in {line:?}")));
        assert_eq!(
            head,
            format!("Legal moves ({})", expected.len()),
            "{line:?}"
        );
        let mut got: Vec<String> = list.split_whitespace().map(String::from).collect();
        let mut want = expected.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{line:?}");
        if expected.is_empty() {
            assert_eq!(line, "Legal moves (0):");
        } else {
            assert!(list.starts_with(' ') && !list.ends_with(' '), "{line:?}");
        }
        let rest = e.sync();
        assert!(rest.is_empty(), "more than one line: {rest:?}");
    };
    check_moves(&mut e, &Game::startpos());
    e.send_silent("position startpos moves g3g4 a7a6");
    check_moves(&mut e, &game_of(START_FEN, &["g3g4", "a7a6"]));
    // Once the game is over (Red stands in Blue's den) there is no move to list.
    e.send_silent(&format!("position fen {DEN_ENTERED}"));
    check_moves(&mut e, &game_of(DEN_ENTERED, &[]));

    // perft N: one line with the count and the time; perft alone is depth 1.
    e.send_silent("position startpos");
    for (cmd, depth, count) in [
        ("perft 3", 3, 12240u64),
        ("perft", 1, 24),
        ("perft 0", 0, 1),
    ] {
        e.send(cmd);
        let line = e
            .next_line(T_REPLY)
            .unwrap_or_else(|| e.fail(&format!("no answer to {cmd:?}")));
        let prefix = format!("perft({depth}) = {count}  (");
        let ms = line
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(" ms)"))
            .unwrap_or_else(|| {
                e.fail(&format!("{cmd}: expected '{prefix}<ms> ms)', got {line:?}"))
            });
        assert!(ms.parse::<u64>().is_ok(), "{cmd}: {line:?}");
        let rest = e.sync();
        assert!(rest.is_empty(), "more than one line: {rest:?}");
    }
    e.send_expect_error("perft x");
    e.send_expect_error("perft 1 2");
    e.send_expect_error("moves now");

    // display is d; newgame is ucinewgame (silent); eval is ours.
    e.send_silent("position startpos moves g3g4");
    e.send("display");
    let display = e.read_until("State:", T_REPLY);
    let d = e.d();
    assert_eq!(parse_d(&display).map(|x| x.fen).ok(), Some(d.fen.clone()));
    e.send_silent("newgame");
    e.send("eval");
    let eval = e.read_until("Total (side to move):", T_REPLY);
    assert!(eval.len() > 3, "{eval:?}");

    // exit is quit.
    e.send("exit");
    assert!(e.wait_exit(T_REPLY).success());
}

#[test]
fn limited_strength_plays_varied_legal_moves_and_full_strength_does_not() {
    use jungle::search::strength::{ELO_MAX, ELO_MIN};
    let mut e = Engine::start("limit-strength");
    let game = Game::startpos();
    let distinct = |e: &mut Engine, label: &str| {
        let mut seen = std::collections::HashSet::new();
        for i in 0..16 {
            // A fresh table each time: at full strength the same search from the same
            // state gives the same move, while a table kept from the search before may
            // pick another among moves of equal score.
            e.send_silent("ucinewgame");
            e.send_silent("position startpos");
            let out = e.go("go depth 4", T_SEARCH);
            seen.insert(out.check_legal(&game, &format!("{label} search {i}")));
        }
        seen.len()
    };
    e.send_silent("setoption name UCI_LimitStrength value true");
    e.send_silent(&format!("setoption name UCI_Elo value {ELO_MIN}"));
    let weakest = distinct(&mut e, "weakest");
    assert!(
        weakest >= 4,
        "the weakest level varies its moves: {weakest}"
    );
    // UCI_Elo at the top of its range, or the limit off, is full strength: one move.
    e.send_silent(&format!("setoption name UCI_Elo value {ELO_MAX}"));
    assert_eq!(distinct(&mut e, "top"), 1);
    e.send_silent(&format!("setoption name UCI_Elo value {ELO_MIN}"));
    e.send_silent("setoption name UCI_LimitStrength value false");
    assert_eq!(distinct(&mut e, "limit off"), 1);
}

/// An error quotes the input it refuses with control characters escaped: an escape
/// sequence or a carriage return in a move, a command or an option value is shown as
/// `\u{1b}` or `\r`, so that it can neither clear a terminal nor split the error line;
/// a refused command leaves the game as it was.
#[test]
fn errors_escape_control_characters_they_quote() {
    let mut e = Engine::start("escaped-errors");
    e.send_silent("position startpos moves g3g4");
    let base = e.d();
    let cases: [(&[u8], &str); 5] = [
        (b"position startpos moves g3g4 \x1b[2J", "'\\u{1b}[2J'"),
        (b"setoption name Hash value 1\x1b6", "'1\\u{1b}6'"),
        (
            b"setoption name Eval value nn\x1b]0;x\x07ue",
            "'nn\\u{1b}]0;x\\u{7}ue'",
        ),
        (
            b"frob\x08\x08\x08\x08isready",
            "'frob\\u{8}\\u{8}\\u{8}\\u{8}isready'",
        ),
        ("go searchmoves g3g4\u{202e}".as_bytes(), "\\u{202e}"),
    ];
    for (bytes, shown) in cases {
        let error = e.send_bytes_expect_error(bytes);
        assert!(
            !error.chars().any(char::is_control),
            "a control character in {error:?}"
        );
        assert!(error.contains(shown), "{error:?} does not show {shown}");
    }
    assert_eq!(e.d().fen, base.fen, "the refused commands changed the game");
}

/// `jungle replay` on a record whose `[Rules]` tag holds a carriage return prints one
/// error line with the carriage return escaped (found by the records fuzz target).
#[test]
fn replay_error_escapes_a_carriage_return_in_a_tag() {
    let dir = std::env::temp_dir().join(format!("jungle-replay-cr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("bad.txt");
    std::fs::write(
        &path,
        "[Game \"1\"]\n[Rules \"jungle\rINJECTED LINE\"]\n\
         [FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1\"]\n\n1. c3c2 *\n",
    )
    .expect("write the record");
    let path_text = path.to_str().expect("a UTF-8 temp path");
    let (status, _, err) = run_cli(&["replay", path_text], Duration::from_secs(20));
    std::fs::remove_dir_all(&dir).ok();
    assert!(!status.success(), "a bad record is refused");
    let line = err.trim_end_matches('\n');
    assert!(!line.contains('\n'), "one line: {err:?}");
    assert!(!line.chars().any(char::is_control), "{err:?}");
    assert!(
        line.contains("bad rules 'jungle\\rINJECTED LINE': unknown rule set"),
        "{err:?}"
    );
}
