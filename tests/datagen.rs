//! `jungle datagen` and `jungle data` through the real binary: files, shards, a
//! manifest's run, its check and statistics, errors.

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
    let cases: [(&[&str], &str); 6] = [
        (
            &["--drop-min", "3", "--drop-max", "1"],
            "--drop-min 3 is above --drop-max 1",
        ),
        (&["--drop-max", "15"], "--drop-max"),
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

/// Runs `jungle ARGS`; returns (exit code, stdout, stderr).
fn jungle_run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(jungle())
        .args(args)
        .env_remove("JUNGLE_DATA")
        .output()
        .expect("jungle runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_manifest_run_is_verified_remade_and_described() {
    let dir = temp_dir("manifest");
    let manifest = dir.join("pilot.tsv");
    let m = manifest.to_str().expect("utf-8");
    let data = dir.join("data");
    let d = data.to_str().expect("utf-8");
    let (code, _, err) = jungle_run(&[
        "data",
        "new",
        m,
        "--games",
        "4",
        "--shards",
        "2",
        "--seed",
        "5",
        "--nodes",
        "300",
        "--hash",
        "1",
        "--drop-max",
        "3",
        "--opening-margin",
        "500",
        "--sample-plies",
        "4",
        "--note",
        "test",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&manifest).expect("written");
    assert!(
        text.contains("\nseed\t5\n") && text.contains("\ndrop-max\t3\n"),
        "{text}"
    );
    // Never overwritten.
    let (code, _, err) = jungle_run(&[
        "data", "new", m, "--games", "4", "--shards", "2", "--seed", "5",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("exists"), "{err}");
    // Nothing made yet: verify is content, stats has nothing to read.
    let (code, out, _) = jungle_run(&["data", "verify", m, "--dir", d]);
    assert_eq!(code, 0);
    assert!(
        out.contains("0 shards ok, 0 missing or damaged, 2 not made yet"),
        "{out}"
    );
    let (code, out, err) = jungle_run(&["data", "run", m, "--dir", d, "--threads", "2", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "stdout carries nothing: {out}");
    assert!(
        err.contains("2 shards made, 0 made again, 0 already there, 0 rows taken"),
        "{err}"
    );
    let shard1 = data.join("pilot").join("shard-1.bin");
    let before = std::fs::read(&shard1).expect("made");
    let (code, out, _) = jungle_run(&["data", "verify", m, "--dir", d]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 shards ok"), "{out}");
    // A lost shard: verify fails, run makes it again, byte for byte.
    std::fs::remove_file(&shard1).expect("removed");
    let (code, out, _) = jungle_run(&["data", "verify", m, "--dir", d]);
    assert_eq!(code, 1);
    assert!(out.contains("shard-1.bin MISSING"), "{out}");
    let (code, _, err) = jungle_run(&["data", "run", m, "--dir", d, "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("0 shards made, 1 made again, 1 already there, 0 rows taken"),
        "{err}"
    );
    assert_eq!(std::fs::read(&shard1).expect("made again"), before);
    // The statistics, of the manifest's shards and of a file.
    let (code, out, err) = jungle_run(&["data", "stats", "--manifest", m, "--dir", d]);
    assert_eq!(code, 0, "{err}");
    for part in [
        "files 2, samples",
        "games 4 (shards 2 of 2)",
        "samples from decided games",
        "plies since the last capture",
        "|score| (cp): median",
        "6 animals or fewer",
        "shard-2.bin: ",
    ] {
        assert!(out.contains(part), "{part}: {out}");
    }
    let (code, out, _) = jungle_run(&["data", "stats", shard1.to_str().expect("utf-8")]);
    assert_eq!(code, 0);
    assert!(out.contains("files 1, samples"), "{out}");
    // Errors: a bad manifest line, a missing file.
    std::fs::write(&manifest, text.replace("nodes\t300", "nodes\tmany")).expect("written");
    let (code, _, err) = jungle_run(&["data", "run", m, "--dir", d]);
    assert_eq!(code, 2);
    assert!(
        err.contains("line") && err.contains("\"many\" is not a valid number"),
        "{err}"
    );
    let (code, _, err) = jungle_run(&["data", "stats", "/nonexistent/x.bin"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
