//! `jungle analyse` on the records of a short match: every move gets a comment with
//! the score after it, its loss and mark; `jungle replay` still reads the file; a
//! planted blunder is marked with the better move; `jungle gui` loads the output
//! and shows the review. Bad input gets one clear error.

mod gui_common;

use gui_common::{jungle, run_jungle as run, Gui};

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyse");
    std::fs::create_dir_all(&dir).expect("a directory");
    dir.join(name)
}

#[test]
fn a_short_match_is_reviewed_and_the_board_reads_the_review() {
    let pgn = tmp("match.txt");
    let pgn_text = pgn.to_string_lossy().into_owned();
    let engine = format!("cmd={} name=J option.Hash=16", jungle());
    let (ok, _, err) = run(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "2",
        "--nodes",
        "2000",
        "--maxmoves",
        "40",
        "--pgn",
        &pgn_text,
    ]);
    assert!(ok, "{err}");
    let out = tmp("match-reviewed.txt");
    let out_text = out.to_string_lossy().into_owned();
    let (ok, stdout, err) = run(&["analyse", &pgn_text, "--nodes", "5000", "--out", &out_text]);
    assert!(ok, "{err}");
    assert!(stdout.is_empty(), "the records go to --out: {stdout}");
    assert_eq!(
        err.matches("accuracy").count(),
        4,
        "a summary per game and side: {err}"
    );
    let reviewed = std::fs::read_to_string(&out).expect("written");
    let games = jungle::record::read_records(&reviewed, Default::default()).expect("reads");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(!g.moves.is_empty());
        for c in &g.comments {
            let note = c.as_deref().and_then(jungle::review::MoveNote::parse);
            let note = note.expect("every move has a note");
            assert!(note.eval.is_some() && note.loss.is_some(), "{c:?}");
        }
    }
    let (ok, stdout, err) = run(&["replay", &out_text]);
    assert!(ok, "replay reads the reviewed records: {stdout}{err}");

    // The board loads the reviewed file and shows its review.
    let gui = Gui::start(&["--engine", &engine]);
    let (status, state) = gui.post(
        "load",
        &serde_json::json!({ "text": reviewed, "game": 1 }).to_string(),
    );
    assert_eq!(status, 200, "{state}");
    let review = &state["review"];
    assert_eq!(review["running"], false, "{review}");
    assert_eq!(
        review["moves"].as_array().map(Vec::len),
        Some(games[0].moves.len()),
        "{review}"
    );
    assert!(review["red"]["accuracy"].is_f64(), "{review}");
}

#[test]
fn a_planted_blunder_is_marked_with_the_better_move() {
    // Red's elephant d3 next to Blue's rat d5: d3d4 lets the rat take it.
    let record = "[Game \"1\"]\n[Red \"a\"]\n[Blue \"b\"]\n[Result \"*\"]\n[FEN \"l6/7/7/7/3r3/7/3E3/7/T5L r 0 1\"]\n\n1. d3d4 d5d4 *\n";
    let path = tmp("blunder.txt");
    std::fs::write(&path, record).expect("writes");
    let (ok, stdout, err) = run(&["analyse", &path.to_string_lossy()]);
    assert!(ok, "{err}");
    let games = jungle::record::read_records(&stdout, Default::default()).expect("reads");
    let note = games[0].comments[0]
        .as_deref()
        .and_then(jungle::review::MoveNote::parse)
        .expect("a note");
    assert_eq!(note.mark, Some(jungle::review::Mark::Blunder), "{stdout}");
    let best = note.best.expect("the better move");
    assert_ne!(best, "d3d4");
    assert!(err.contains("1 blunder"), "{err}");
}

#[test]
fn bad_input_gets_one_clear_error() {
    let (ok, _, err) = run(&["analyse", "/no/such/file.txt"]);
    assert!(!ok);
    assert!(
        err.starts_with("error: cannot read /no/such/file.txt"),
        "{err}"
    );
    let path = tmp("illegal.txt");
    std::fs::write(
        &path,
        format!("[FEN \"{}\"]\n\n1. a1a9 *\n", jungle::board::START_FEN),
    )
    .expect("writes");
    let (ok, _, err) = run(&["analyse", &path.to_string_lossy()]);
    assert!(!ok);
    assert!(err.contains("move 1 'a1a9'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (ok, _, err) = run(&["analyse", &path.to_string_lossy(), "--nodes", "0"]);
    assert!(!ok, "{err}");
}
