//! `jungle analyse` on the records of a short match: every move gets a comment with
//! the score after it, its loss and mark; `jungle replay` still reads the file; a
//! planted blunder is marked with the better move; `jungle gui` loads the output
//! and shows the review. In an ending the endgame tables cover, the marks are the
//! tables' (`--tb-dir`, `--tb-animals`). Bad input gets one clear error.

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

/// Red's lion d5 and rat a1 against Blue's elephant d7, won for Red: the rat's moves
/// keep the win, though the engine at a small budget calls 2. b1a1 a blunder (it lets
/// Blue repeat); 3. d5d6 puts the lion next to the elephant, which takes it: a draw.
const ENDING: &str = "[Game \"1\"]\n[Red \"a\"]\n[Blue \"b\"]\n[Result \"*\"]\n[FEN \"7/7/3e3/7/3L3/7/7/7/R6 r 0 1\"]\n\n1. a1b1 d7d8 2. b1a1 d8d7 3. d5d6 d7d6 *\n";

/// The tables of the ending (LRvE and the two it captures into), built by `jungle tb
/// build`.
fn ending_tables() -> std::path::PathBuf {
    let dir = tmp("tables");
    let d = dir.to_string_lossy().into_owned();
    let (ok, stdout, err) = run(&["tb", "build", "--material", "LR v E", "--dir", &d]);
    assert!(ok, "{stdout}{err}");
    assert!(dir.join("LRvE.n100.jtb").is_file(), "{stdout}{err}");
    dir
}

/// What the library says of each move of the ending, from the table files.
fn library_judgements(dir: &std::path::Path) -> Vec<jungle::review_tables::TableJudgement> {
    use jungle::tb::{game_move_values, Tablebases, TbRules};
    let read = jungle::record::read_records(ENDING, Default::default()).expect("reads");
    let tables = Tablebases::new(TbRules::default(), Some(dir.to_path_buf()));
    let mut game = jungle::game::Game::with_rules(read[0].start, read[0].rules);
    let moves = jungle::record::replay(&read[0])
        .expect("legal")
        .moves()
        .to_vec();
    moves
        .iter()
        .map(|&m| {
            let values = game_move_values(&tables, &game, 4).expect("covered");
            let judged = jungle::review_tables::judge(&values, m).expect("legal");
            game.play(m).expect("legal");
            judged
        })
        .collect()
}

fn notes_of(stdout: &str) -> Vec<jungle::review::MoveNote> {
    let games = jungle::record::read_records(stdout, Default::default()).expect("reads");
    games[0]
        .comments
        .iter()
        .map(|c| {
            c.as_deref()
                .and_then(jungle::review::MoveNote::parse)
                .expect("every move has a note")
        })
        .collect()
}

#[test]
fn the_tables_judge_an_ending_exactly_whatever_the_engine_says() {
    use jungle::review::Mark;
    use jungle::review_tables::TableResult::{Draw, Win};
    let dir = ending_tables();
    let path = tmp("ending.txt");
    std::fs::write(&path, ENDING).expect("writes");
    let p = path.to_string_lossy().into_owned();
    let d = dir.to_string_lossy().into_owned();
    let (ok, stdout, err) = run(&["analyse", &p, "--tb-dir", &d, "--nodes", "2000"]);
    assert!(ok, "{err}");
    let notes = notes_of(&stdout);
    let expected = library_judgements(&dir);
    assert_eq!(notes.len(), expected.len());
    for (note, j) in notes.iter().zip(&expected) {
        assert_eq!(note.table, Some(j.note), "{stdout}");
        assert_eq!(note.best, j.best.map(|m| m.to_string()), "{stdout}");
        assert_eq!(
            note.mark,
            j.note.is_blunder().then_some(Mark::Blunder),
            "{stdout}"
        );
        assert_eq!(note.loss, Some(j.note.loss()), "{stdout}");
    }
    // The rat's moves keep the win; the lion's step throws it away.
    let kinds: Vec<String> = notes
        .iter()
        .map(|n| n.table.expect("judged").to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "win perfect",
            "loss perfect",
            "win perfect",
            "loss perfect",
            "win->draw",
            "draw perfect"
        ],
        "{stdout}"
    );
    assert!(
        stdout.contains("d5d6 {eval +0.00 loss 50.0 tb win->draw blunder best "),
        "{stdout}"
    );
    let t = notes[4].table.expect("judged");
    assert_eq!((t.before, t.after), (Win, Draw));
    assert!(
        err.contains("1 blunder") && err.contains("6 moves judged by the tables"),
        "{err}"
    );

    // Without the tables (`--tb-animals 0`) the engine's marks stand: no `tb` note.
    let (ok, stdout, err) = run(&["analyse", &p, "--tb-animals", "0", "--nodes", "2000"]);
    assert!(ok, "{err}");
    assert!(
        notes_of(&stdout).iter().all(|n| n.table.is_none()),
        "{stdout}"
    );
    assert!(!err.contains("judged by the tables"), "{err}");

    // Without --tb-dir the tables of up to four animals are built in memory.
    let (ok, stdout, err) = run(&["analyse", &p, "--nodes", "2000"]);
    assert!(ok, "{err}");
    let again: Vec<_> = notes_of(&stdout).iter().map(|n| n.table).collect();
    assert_eq!(again, notes.iter().map(|n| n.table).collect::<Vec<_>>());
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
    let record = tmp("short.txt");
    std::fs::write(&record, "[Game \"1\"]\n\n1. a3a4 *\n").expect("writes");
    let r = record.to_string_lossy().into_owned();
    for (args, said) in [
        (
            &["--tb-dir", "/no/such/tables"][..],
            "error: --tb-dir /no/such/tables: cannot read the directory",
        ),
        (
            &["--tb-animals", "5"][..],
            "error: --tb-animals 5 needs --tb-dir",
        ),
        (&["--tb-animals", "6"][..], "6 is not in 0..=5"),
    ] {
        let (ok, _, err) = run(&[&["analyse", r.as_str()][..], args].concat());
        assert!(!ok, "{args:?}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(
            err.lines().filter(|l| l.starts_with("error")).count() == 1,
            "{err}"
        );
    }
}
