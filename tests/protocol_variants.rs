//! The rule options through the real binary: UCI_Variant, DogSwims, TrappedLoseAttack,
//! NoCaptureDrawPlies, RepetitionDraw; and the CLI's --rules flags.

mod protocol_common;

use jungle::board::rules::MoveRuleFlags;
use jungle::board::Position;
use jungle::game::{Game, Variant};
use protocol_common::*;
use std::time::Duration;

const T: Duration = Duration::from_secs(20);

#[test]
fn variant_options_change_the_rules_and_show_in_d() {
    let mut e = Engine::start("variants");
    e.send_silent("setoption name UCI_Variant value jungle-cn");
    let d = e.d();
    assert_eq!(d.rules.as_deref(), Some("jungle-cn"));
    e.send_silent("setoption name uci_variant value JUNGLE");
    assert_eq!(e.d().rules.as_deref(), Some("jungle"));
    e.send_expect_error("setoption name UCI_Variant value chess");
    e.send_expect_error("setoption name DogSwims value maybe");
    e.send_expect_error("setoption name NoCaptureDrawPlies value 5000");
    e.send_expect_error("setoption name RepetitionDraw value -1");

    // A dog in water is an error under the default rules, fine when dogs swim.
    let fen = "l5t/1d3c1/r1p1w1e/7/1D5/7/E1W1P1R/1C5/T5L r";
    e.send_expect_error(&format!("position fen {fen}"));
    e.send_silent("setoption name DogSwims value true");
    e.send_silent(&format!("position fen {fen}"));
    let d = e.d();
    assert!(
        d.rules.as_deref().is_some_and(|r| r.contains("dog swims")),
        "{:?}",
        d.rules
    );
    for m in ["b5b4", "b5c5", "b5b6", "b5a5"] {
        assert!(
            d.moves.contains(&m.to_string()),
            "{m} missing from {:?}",
            d.moves
        );
    }
    let pos = Position::from_fen_with(
        fen,
        MoveRuleFlags {
            dog_swims: true,
            trapped_lose_attack: false,
        },
    )
    .expect("valid with dogs swimming");
    let out = e.go("go depth 4", T);
    assert!(
        d.moves.contains(&out.bestmove),
        "bestmove {} is not legal under dog-swims rules in {}",
        out.bestmove,
        pos.to_fen()
    );
    // go perft follows the rules too: 24 + the dog's three water steps - the dog's old
    // f2 moves (4) + ... simply compare with the listed moves.
    e.send("go perft 1");
    let lines = e.read_until("Time:", T);
    let total = lines
        .iter()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse::<usize>().ok());
    assert_eq!(total, Some(d.moves.len()));
    e.send("quit");
}

#[test]
fn trapped_animals_lose_their_attack() {
    let mut e = Engine::start("trapped");
    // Red wolf on Blue's trap c9 next to the blue cat b9.
    let fen = "1cW4/7/7/7/7/7/7/7/6L r";
    e.send_silent(&format!("position fen {fen}"));
    assert!(e.d().moves.contains(&"c9b9".to_string()));
    e.send_silent("setoption name TrappedLoseAttack value true");
    e.send_silent(&format!("position fen {fen}"));
    let d = e.d();
    assert!(!d.moves.contains(&"c9b9".to_string()), "{:?}", d.moves);
    assert!(
        d.moves.contains(&"c9d9".to_string()),
        "entering the den stays legal"
    );
    e.send("quit");
}

#[test]
fn draw_options_follow_the_settings() {
    let mut e = Engine::start("draws");
    // Four plies back to the start, twice: the third occurrence is a draw by default.
    let moves = "a1a2 a9b9 a2a1 b9a9 a1a2 a9b9 a2a1 b9a9";
    e.send_silent(&format!("position startpos moves {moves}"));
    assert!(
        e.d().state.contains("draw"),
        "threefold is a draw by default"
    );
    assert_eq!(e.go("go depth 3", T).bestmove, "0000");
    e.send_silent("setoption name RepetitionDraw value 0");
    e.send_silent(&format!("position startpos moves {moves}"));
    assert!(e.d().state.starts_with("ongoing"));
    // The no-capture count: 10 plies.
    e.send_silent("setoption name NoCaptureDrawPlies value 10");
    e.send_silent("position startpos moves a1a2 a9b9 a2a1 b9a9 a1a2 a9b9 a2a1 b9a9 g3g4 a7a6");
    assert!(e.d().state.contains("no capture"), "{}", e.d().state);
    e.send("quit");
}

#[test]
fn chinese_rules_forbid_the_fourth_visit_and_the_engine_obeys() {
    let mut e = Engine::start("anti-chase");
    e.send_silent("setoption name UCI_Variant value jungle-cn");
    let fen = "6l/7/1t5/7/7/7/W5R/7/7 r";
    let moves = "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8";
    e.send_silent(&format!("position fen {fen} moves {moves}"));
    let d = e.d();
    assert!(!d.moves.contains(&"a3a2".to_string()), "{:?}", d.moves);
    let mut game = Game::with_rules(
        Position::from_fen(fen).expect("valid"),
        Variant::JungleCn.rules(),
    );
    for m in moves.split_whitespace() {
        game.play_text(m).expect("legal");
    }
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(d.moves, legal);
    for go in ["go depth 6", "go nodes 3000", "go searchmoves a3b3 a3a4"] {
        let out = e.go(go, T);
        assert!(
            legal.contains(&out.bestmove),
            "{go}: {} not allowed",
            out.bestmove
        );
    }
    e.send_expect_error("go searchmoves a3a2");
    e.send_expect_error(&format!("position fen {fen} moves {moves} a3a2"));
    e.send("quit");
}

#[test]
fn cli_rules_flags() {
    let (status, out, _) = run_cli(&["perft", "3", "--dog-swims"], T);
    assert!(status.success());
    assert!(out.contains("Nodes searched: 12264"), "{out}");
    let (status, out, _) = run_cli(
        &[
            "perft",
            "3",
            "--rules",
            "jungle-cn",
            "--trapped-lose-attack",
        ],
        T,
    );
    assert!(status.success());
    assert!(out.contains("Nodes searched: 12240"), "{out}");
    let (status, _, err) = run_cli(&["perft", "3", "--rules", "chess"], T);
    assert!(!status.success());
    assert!(err.contains("jungle-cn"), "{err}");
    let (status, out, _) = run_cli(
        &[
            "bench",
            "--depth",
            "3",
            "--rules",
            "jungle-cn",
            "--dog-swims",
        ],
        T,
    );
    assert!(status.success());
    assert!(
        out.lines().last().is_some_and(|l| l.ends_with(" nps")),
        "{out}"
    );
}
