//! `jungle datagen` through the real binary: files, shards, errors.

use std::path::{Path, PathBuf};
use std::process::Command;

fn jungle() -> &'static str {
    env!("CARGO_BIN_EXE_jungle")
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-datagen-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs `jungle datagen … --output out`; returns (exit code, stderr).
fn datagen(out: &Path, args: &[&str]) -> (i32, String) {
    let o = Command::new(jungle())
        .args(["datagen", "--output", out.to_str().expect("utf-8 path")])
        .args(args)
        .output()
        .expect("jungle runs");
    assert!(o.stdout.is_empty(), "stdout carries nothing");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn shard_files_concatenate_into_the_whole_file() {
    let dir = temp_dir("shards");
    let common = [
        "--games", "5", "--nodes", "300", "--hash", "1", "--seed", "3",
    ];
    let whole = dir.join("whole.bin");
    let (code, err) = datagen(&whole, &[&common[..], &["--threads", "2"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("datagen: 5 games in"), "{err}");
    let whole = std::fs::read(&whole).expect("written");
    assert!(!whole.is_empty() && whole.len() % 16 == 0);
    let mut joined = Vec::new();
    for k in 1..=2 {
        let part = dir.join(format!("part{k}.bin"));
        let shard = format!("{k}/2");
        let (code, err) = datagen(
            &part,
            &[&common[..], &["--shard", &shard, "--quiet"]].concat(),
        );
        assert_eq!(code, 0, "{err}");
        assert!(err.is_empty(), "--quiet: {err}");
        joined.extend(std::fs::read(&part).expect("written"));
    }
    assert_eq!(joined, whole);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_refused_before_any_game() {
    let dir = temp_dir("bad");
    let out = dir.join("out.bin");
    let missing = dir.join("missing.txt");
    let bad_book = dir.join("bad.txt");
    std::fs::write(&bad_book, "not a position\n").expect("written");
    let cases: [(&[&str], &str); 4] = [
        (&["--shard", "3/2"], "bad shard '3/2'"),
        (
            &["--min-plies", "9", "--max-plies", "8"],
            "--min-plies 9 is above --max-plies 8",
        ),
        (
            &["--exclude", missing.to_str().expect("utf-8")],
            "cannot read --exclude file",
        ),
        (
            &["--exclude", bad_book.to_str().expect("utf-8")],
            "openings line 1",
        ),
    ];
    for (args, message) in cases {
        let (code, err) = datagen(&out, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
