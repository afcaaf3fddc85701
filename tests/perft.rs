//! Perft checks of the move generator: the start position to depth 7, and the
//! labelled suite in `tests/perft_suite.txt` (one position per rule clause, with
//! counts derived by hand at depth 1 and by an independent reference deeper).

use jungle::board::rules::{DogSwims, DogSwimsTrappedLoseAttack, MoveRuleFlags, TrappedLoseAttack};
use jungle::board::{MoveRules, Position, Standard};
use jungle::tools::perft::{perft, perft_threads_with, perft_with};
use jungle::tools::perft_suite::parse_suite;

const START_COUNTS: [u64; 9] = [
    1,
    24,
    576,
    12240,
    260099,
    5111620,
    100453636,
    1908199299,
    36245152212,
];

#[test]
fn start_position_to_depth_6() {
    let p = Position::startpos();
    for (depth, &expected) in START_COUNTS.iter().enumerate().take(7) {
        assert_eq!(perft(&p, depth as u32), expected, "perft {depth}");
    }
}

#[test]
fn start_position_depth_7_on_two_threads() {
    let p = Position::startpos();
    assert_eq!(perft_threads_with::<Standard>(&p, 7, 2), START_COUNTS[7]);
}

#[test]
#[ignore = "takes about a minute; run with --ignored"]
fn start_position_depth_8() {
    let p = Position::startpos();
    assert_eq!(perft_threads_with::<Standard>(&p, 8, 2), START_COUNTS[8]);
}

/// Checks every entry of a suite under the move rules `R`.
fn check_suite<R: MoveRules>(name: &str, text: &str, flags: MoveRuleFlags) {
    let entries = parse_suite(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        entries.len() >= 5,
        "{name}: suite too small: {}",
        entries.len()
    );
    let mut failures = Vec::new();
    for e in &entries {
        let pos = match Position::from_fen_with(&e.fen, flags) {
            Ok(p) => p,
            Err(err) => {
                failures.push(format!(
                    "{name} line {} ({}): bad position: {err}",
                    e.line, e.label
                ));
                continue;
            }
        };
        for &(depth, expected) in &e.counts {
            let got = perft_with::<R>(&pos, depth);
            if got != expected {
                failures.push(format!(
                    "{name} line {} ({}): D{depth} expected {expected}, got {got}",
                    e.line, e.label
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "perft suite failures:\n{}",
        failures.join("\n")
    );
}

#[test]
fn rule_clause_suite() {
    let text = include_str!("perft_suite.txt");
    assert!(parse_suite(text).unwrap().len() >= 40);
    check_suite::<Standard>("perft_suite.txt", text, MoveRuleFlags::default());
}

#[test]
fn dog_swims_suite() {
    let flags = MoveRuleFlags {
        dog_swims: true,
        trapped_lose_attack: false,
    };
    check_suite::<DogSwims>(
        "perft_suite_dogswims.txt",
        include_str!("perft_suite_dogswims.txt"),
        flags,
    );
}

#[test]
fn trapped_lose_attack_suite() {
    let flags = MoveRuleFlags {
        dog_swims: false,
        trapped_lose_attack: true,
    };
    check_suite::<TrappedLoseAttack>(
        "perft_suite_trappedloseattack.txt",
        include_str!("perft_suite_trappedloseattack.txt"),
        flags,
    );
}

#[test]
fn both_variants_suite() {
    let flags = MoveRuleFlags {
        dog_swims: true,
        trapped_lose_attack: true,
    };
    check_suite::<DogSwimsTrappedLoseAttack>(
        "perft_suite_both.txt",
        include_str!("perft_suite_both.txt"),
        flags,
    );
}
