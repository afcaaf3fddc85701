//! `scripts/sprt-shards.sh` with `RECORDS=`: a finished shard is kept compressed with
//! a manifest line, a lost data folder is restored from the records (checked against
//! their SHA-256), and records of another engine or another candidate are refused.
//! Shards of 2 games at 1+0.01 keep it short.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CANDIDATE: &str = "x=rfp_margin=95";

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-sprt-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs the script on `dir` with `records`, the candidate, and the extra variables.
fn shards(dir: &Path, records: &Path, vars: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/sprt-shards.sh"))
        .arg(dir)
        .arg(CANDIDATE)
        .env("JUNGLE", env!("CARGO_BIN_EXE_jungle"))
        .env("RECORDS", records)
        .env("GAMES", "2")
        .env("TC", "1s+0.01s");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.output().expect("bash runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn shards_are_kept_restored_and_checked() {
    let top = temp_dir("records");
    let (dir, records) = (top.join("run"), top.join("records"));

    // One shard played and kept.
    let out = shards(&dir, &records, &[("STOP_AFTER", "1")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played = std::fs::read(dir.join("x-1.txt")).expect("shard 1 finished");
    assert_eq!(text(&played).matches("[Result ").count(), 2);
    assert!(
        !dir.join("x-2.txt").exists(),
        "STOP_AFTER=1 played one shard"
    );
    assert!(records.join("x-1.txt.xz").exists());
    let manifest = std::fs::read_to_string(records.join("manifest.tsv")).expect("manifest");
    let lines: Vec<&str> = manifest.lines().collect();
    assert_eq!(lines.len(), 2, "{manifest}");
    assert_eq!(
        lines[0],
        "candidate\tshard\tgames\tsha256\tbench\tbench_candidate\tparams"
    );
    let fields: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(fields[..3], ["x", "1", "2"], "{manifest}");
    assert_eq!(fields[3].len(), 64, "{manifest}");
    assert_ne!(fields[4], fields[5], "the candidate searches another tree");
    assert_eq!(fields[6], "rfp_margin=95");
    let summary = std::fs::read_to_string(dir.join("x.summary")).expect("summary");
    assert!(summary.contains("Score of x vs main"), "{summary}");

    // The data folder lost: restored byte for byte, summed up, nothing played.
    std::fs::remove_dir_all(&dir).expect("removed");
    let out = shards(&dir, &records, &[("PLAY", "no")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("restored shard 1 of x"));
    assert_eq!(
        std::fs::read(dir.join("x-1.txt")).expect("restored"),
        played
    );
    assert!(!dir.join("x-2.txt").exists() && !dir.join("x-2.txt.part").exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("x.summary")).expect("summary"),
        summary
    );
    assert_eq!(
        std::fs::read_to_string(records.join("manifest.tsv")).expect("manifest"),
        manifest,
        "kept once"
    );

    // Records of another engine are refused before anything is touched.
    let other = manifest.replace(&format!("\t{}\t", fields[4]), "\t1\t");
    std::fs::write(records.join("manifest.tsv"), &other).expect("written");
    let out = shards(&dir, &records, &[("PLAY", "no")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("has shards of x from another engine or parameters"),
        "{}",
        text(&out.stderr)
    );

    // A record that does not match its checksum is not restored.
    let bad = manifest.replace(fields[3], &"0".repeat(64));
    std::fs::write(records.join("manifest.tsv"), &bad).expect("written");
    std::fs::remove_dir_all(&dir).expect("removed");
    let out = shards(&dir, &records, &[("PLAY", "no")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("does not match its SHA-256"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("x-1.txt").exists());

    // Wrong settings are named.
    let out = shards(&dir, &records, &[("STOP_AFTER", "one")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("STOP_AFTER is a number of shards, got 'one'"));
    let _ = std::fs::remove_dir_all(&top);
}
