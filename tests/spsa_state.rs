//! `scripts/spsa.py`: a run is made, goes on from its state file, and refuses to go on
//! with another engine or book; bad input is named. Iterations of one game pair at 300
//! nodes a move keep it short.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-spsa-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Runs the script on `state` with the arguments after it.
fn spsa(state: &Path, args: &[&str]) -> Output {
    Command::new("python3")
        .arg(repo("scripts/spsa.py"))
        .arg(state)
        .args(args)
        .output()
        .expect("python3 runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn read_state(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("state")).expect("JSON")
}

/// The node count of `jungle bench`, the engine's signature.
fn bench_nodes() -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .arg("bench")
        .output()
        .expect("bench runs");
    let last = text(&out.stdout)
        .lines()
        .last()
        .expect("a line")
        .to_string();
    last.split(' ').next().unwrap_or("").parse().expect("nodes")
}

#[test]
fn a_run_goes_on_from_its_state_and_refuses_another_engine_or_book() {
    let dir = temp_dir("state");
    let state = dir.join("state.json");
    let jungle = env!("CARGO_BIN_EXE_jungle");
    let book = repo("books/calibrated-100k.txt");
    let book = book.to_str().expect("UTF-8 path");
    let first = [
        "--iterations",
        "2",
        "--pairs",
        "1",
        "--nodes",
        "300",
        "--concurrency",
        "1",
        "--only",
        "rfp_margin,lmr_base",
        "--jungle",
        jungle,
        "--book",
        book,
    ];

    // Made and played: two rows of [k, wins, losses, draws, lost on time, seconds].
    let out = spsa(&state, &first);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let made = read_state(&state);
    assert_eq!(made["k"], 2);
    assert_eq!(made["config"]["bench"], bench_nodes());
    assert_eq!(
        made["config"]["book_sha256"].as_str().map(str::len),
        Some(64)
    );
    let history = made["history"].as_array().expect("history");
    assert_eq!(history.len(), 2);
    for (i, row) in history.iter().enumerate() {
        let row = row.as_array().expect("row");
        assert_eq!(row.len(), 6, "{row:?}");
        assert_eq!(row[0], i as u64 + 1);
        let games: u64 = row[1..4].iter().map(|g| g.as_u64().expect("count")).sum();
        assert_eq!(games, 2, "one pair an iteration: {row:?}");
        assert_eq!(row[4], 0, "no game lost on time at fixed nodes");
    }
    let mut tuned: Vec<&String> = made["theta"].as_object().expect("theta").keys().collect();
    tuned.sort();
    assert_eq!(tuned, ["lmr_base", "rfp_margin"]);
    assert!(text(&out.stdout)
        .lines()
        .last()
        .unwrap_or("")
        .starts_with("SearchParams "));

    // Raised to three: goes on after the second, the first two rows kept.
    let out = spsa(&state, &["--iterations", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("resuming"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout).matches("iteration ").count(), 1);
    let resumed = read_state(&state);
    assert_eq!(resumed["k"], 3);
    let rows = |state: &Value| state["history"].as_array().expect("history").clone();
    assert_eq!(rows(&resumed)[..2], rows(&made)[..2]);
    let kept = std::fs::read(&state).expect("state");

    // Another book, another engine: refused, the state untouched.
    let other_book = dir.join("book.txt");
    std::fs::write(&other_book, "startpos\n").expect("written");
    let out = spsa(
        &state,
        &[
            "--iterations",
            "4",
            "--book",
            other_book.to_str().expect("path"),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is not the book the run was started with"),
        "{}",
        text(&out.stderr)
    );
    let mut other_engine = resumed.clone();
    other_engine["config"]["bench"] = Value::from(bench_nodes() + 1);
    std::fs::write(&state, other_engine.to_string()).expect("written");
    let out = spsa(&state, &["--iterations", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("another engine"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read_state(&state), other_engine, "nothing played");
    std::fs::write(&state, &kept).expect("written");

    // Bad input is named.
    let out = spsa(
        &state,
        &["--jungle", dir.join("nope").to_str().expect("path")],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot run"),
        "{}",
        text(&out.stderr)
    );
    std::fs::write(&state, "{").expect("written");
    let out = spsa(&state, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is not a readable SPSA state"),
        "{}",
        text(&out.stderr)
    );
    let fresh = dir.join("fresh.json");
    let out = spsa(
        &fresh,
        &["--only", "rfp_margin,no_such", "--jungle", jungle],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unknown parameter 'no_such'"),
        "{}",
        text(&out.stderr)
    );
    assert!(!fresh.exists(), "no state made for a bad run");
    let _ = std::fs::remove_dir_all(&dir);
}
