//! End-to-end tests of time use (protocol.md, `go`): `movetime` is used to the end
//! unless nothing more can be learned, `movestogo 1` spends most of the clock, the clock
//! of a ponder search starts at `ponderhit`, and tiny clocks are answered at once.
//!
//! These are lower bounds with wide margins and generous upper bounds (a hung or
//! overrunning engine), not speed assertions: the wall clock is what the protocol
//! promises, whatever the machine's load.

mod protocol_common;

use protocol_common::*;
use std::time::{Duration, Instant};

const MOVETIME_MS: u64 = 300;

/// Twelve undecided positions of every phase, from the bench set (none is a proven
/// win or loss within a second, none has a single legal move).
const POSITIONS: [&str; 12] = [
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1",
    "l5t/1d3c1/rp2w1e/7/7/7/E3P1R/1CW2D1/T5L r 2 2",
    "ld4t/5c1/r1p1w1e/7/7/7/E1W2P1/1C3DR/T5L b 3 2",
    "ld4t/5c1/2p1w2/r5e/7/7/E3P1R/1CW2D1/T5L r 10 6",
    "6t/l1d4/2pc2e/1r5/7/E2wR2/4P1D/1T1C3/5L1 r 4 14",
    "4t2/2l1e2/4c2/2r1R2/7/7/2WDP2/E1C2L1/7 b 13 29",
    "1d5/4te1/4L2/l6/1r3R1/3P3/1E2D2/2TW3/2C4 b 14 36",
    "1l4t/1d1w3/4pc1/r5e/7/6R/4PD1/1CW4/ET4L r 24 13",
    "ld4t/p5c/r2w1e1/7/7/E2P1R1/1CW4/6D/1T4L b 27 14",
    "1w3t1/d4e1/6p/3c2D/7/2rTR1W/7/1E3L1/1C4P r 21 71",
    "7/3cw2/p2d3/1r1l3/7/3t3/3PDT1/2EC3/4L2 b 37 89",
    "7/2e4/3d2t/7/1R1L1r1/6l/T6/E4C1/7 r 0 20",
];

/// Sends `go` and returns the search output and the time to its `bestmove`.
fn timed_go(e: &mut Engine, cmd: &str, timeout: Duration) -> (SearchOutput, Duration) {
    let start = Instant::now();
    let out = e.go(cmd, timeout);
    let took = out.arrival.duration_since(start);
    (out, took)
}

#[test]
fn movetime_is_used_to_the_end() {
    let mut e = Engine::start("movetime");
    let mut report = Vec::new();
    for (i, fen) in POSITIONS.iter().enumerate() {
        e.send_silent(&format!("position fen {fen}"));
        e.sync();
        let (out, took) = timed_go(
            &mut e,
            &format!("go movetime {MOVETIME_MS}"),
            Duration::from_millis(MOVETIME_MS + 5_000),
        );
        out.check_legal(&game_of(fen, &[]), fen);
        let last = out.last_main().map(|i| i.line.clone()).unwrap_or_default();
        report.push(format!("{i:2}: {took:?} {last}"));
        // At least 80% of the time: the engine thinks movetime less Move Overhead
        // (30 ms by default), so 90% is used even with no margin at all.
        assert!(
            took >= Duration::from_millis(MOVETIME_MS * 8 / 10),
            "position {i} ({fen}): bestmove after {took:?}, less than 80% of movetime \
             {MOVETIME_MS} ms; last info: {last}\n{}",
            report.join("\n")
        );
    }
    println!("{}", report.join("\n"));
}

#[test]
fn movetime_stops_early_with_a_single_legal_move() {
    let mut e = Engine::start("movetime-single");
    // Red's only animal, the rat on a1, cannot take the Blue cat on a2: a1b1 is the
    // one legal move.
    let fen = "6l/7/7/7/7/7/7/c6/R6 r 0 1";
    assert_eq!(legal_strings(game_of(fen, &[]).position()), ["a1b1"]);
    e.send_silent(&format!("position fen {fen}"));
    e.sync();
    let (out, took) = timed_go(&mut e, "go movetime 10000", Duration::from_secs(20));
    assert_eq!(out.bestmove, "a1b1");
    assert!(
        took < Duration::from_secs(5),
        "one legal move: answered after {took:?} of a 10 s movetime"
    );
}

#[test]
fn movetime_stops_early_on_a_proven_win() {
    let mut e = Engine::start("movetime-win");
    // Red lion on c9 next to Blue's den: c9d9 wins at once.
    e.send_silent("position fen 2L4/7/7/7/7/7/7/7/6l r 0 1");
    e.sync();
    let (out, took) = timed_go(&mut e, "go movetime 10000", Duration::from_secs(20));
    assert_eq!(out.bestmove, "c9d9");
    assert!(
        took < Duration::from_secs(5),
        "a proven win: answered after {took:?} of a 10 s movetime"
    );
}

#[test]
fn movestogo_one_spends_most_of_the_clock() {
    let mut e = Engine::start("movestogo-1");
    e.send_silent(&format!("position fen {}", POSITIONS[4]));
    e.sync();
    let (out, took) = timed_go(
        &mut e,
        "go wtime 2000 btime 2000 movestogo 1",
        Duration::from_secs(10),
    );
    out.check_legal(&game_of(POSITIONS[4], &[]), "movestogo 1");
    // 90% of what the overhead leaves: 1773 ms.
    assert!(
        took >= Duration::from_millis(1400) && took < Duration::from_millis(2000),
        "movestogo 1 with 2000 ms: bestmove after {took:?}"
    );
}

#[test]
fn tiny_clocks_are_answered_within_the_clock() {
    let mut e = Engine::start("tiny-clock");
    for (i, fen) in POSITIONS.iter().enumerate().take(6) {
        e.send_silent(&format!("position fen {fen}"));
        e.sync();
        let side = if fen.contains(" b ") {
            "btime"
        } else {
            "wtime"
        };
        for clock in [1u64, 50, 300] {
            let cmd = format!("go wtime 60000 btime 60000 {side} {clock}");
            let (out, took) = timed_go(&mut e, &cmd, Duration::from_secs(10));
            out.check_legal(&game_of(fen, &[]), &cmd);
            // The engine keeps Move Overhead (30 ms) for the delays of the pipe; the
            // bound here is the clock itself, plus 300 ms for a loaded machine.
            assert!(
                took < Duration::from_millis(clock + 300),
                "position {i}: {cmd}: bestmove after {took:?}"
            );
        }
    }
}

#[test]
fn the_clock_of_a_ponder_search_starts_at_ponderhit() {
    let mut e = Engine::start("ponderhit-clock");
    e.send_silent("setoption name Ponder value true");
    e.send_silent(&format!("position fen {}", POSITIONS[0]));
    e.sync();
    e.send(&format!("go ponder movetime {MOVETIME_MS}"));
    // Ponder longer than the movetime: the clock must not run yet.
    let early = e.collect_for(Duration::from_millis(MOVETIME_MS * 2));
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove while pondering: {early:?}"
    );
    let hit = Instant::now();
    e.send("ponderhit");
    let out = e.wait_bestmove("ponderhit", Duration::from_secs(10));
    let took = out.arrival.duration_since(hit);
    assert!(
        took >= Duration::from_millis(MOVETIME_MS * 8 / 10),
        "after ponderhit the search had its movetime again; bestmove came after {took:?}"
    );
}
