//! The cluster example of docs/matches.md, run as written (with a small match): two array
//! tasks of the Slurm script play the two shards, and `jungle replay` over their record
//! files prints the same summary as the unsharded match.

use std::path::Path;
use std::process::Command;

fn jungle() -> &'static str {
    env!("CARGO_BIN_EXE_jungle")
}

/// The first ```sh block after `marker` in docs/matches.md.
fn doc_block(marker: &str) -> String {
    let doc = include_str!("../docs/matches.md");
    let after = &doc[doc.find(marker).expect("marker in docs/matches.md")..];
    let start = after.find("```sh\n").expect("a sh block") + "```sh\n".len();
    let end = after[start..].find("```").expect("closed block");
    after[start..start + end].to_string()
}

/// The documented command with this machine's binary and a small, fast match.
fn localised(script: &str) -> String {
    let replaced = script
        .replace("./jungle-new", jungle())
        .replace("./jungle-old", jungle())
        .replace("./jungle ", &format!("{} ", jungle()))
        .replace("--games 4000", "--games 10")
        .replace("--nodes 20000", "--nodes 1500")
        .replace(
            "books/unbalanced.txt",
            concat!(env!("CARGO_MANIFEST_DIR"), "/books/unbalanced.txt"),
        );
    assert!(!replaced.contains("--games 4000") && !replaced.contains(" ./jungle"));
    replaced
}

/// Runs the array task `task` of `count` in `dir`; returns the script's stdout.
fn bash(dir: &Path, script: &str, task: u32, count: u32) -> String {
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("SLURM_ARRAY_TASK_ID", task.to_string())
        .env("SLURM_ARRAY_TASK_COUNT", count.to_string())
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The summary lines (from `Score of` on) of the last summary in `text`.
fn last_summary(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Score of"))
        .expect("a summary");
    lines[start..].iter().map(|l| l.to_string()).collect()
}

#[test]
fn shards_of_the_readme_job_array_merge_into_the_unsharded_match() {
    let base = std::env::temp_dir().join(format!("jungle-cluster-{}", std::process::id()));
    let (sharded, whole) = (base.join("sharded"), base.join("whole"));
    for d in [&sharded, &whole] {
        std::fs::create_dir_all(d).expect("temp dir");
    }
    let job = localised(&doc_block("<!-- cluster-example -->"));
    let merge = localised(&doc_block("<!-- cluster-merge -->"));

    bash(&sharded, &job, 1, 2);
    bash(&sharded, &job, 2, 2);
    bash(&whole, &job, 1, 1);
    let count = |dir: &Path, file: &str| {
        std::fs::read_to_string(dir.join(file))
            .expect("record file")
            .matches("[Game \"")
            .count()
    };
    // 5 pairs: shard 1/2 plays pairs 0-1, shard 2/2 pairs 2-4.
    assert_eq!(count(&sharded, "games-1.pgn"), 4);
    assert_eq!(count(&sharded, "games-2.pgn"), 6);
    assert_eq!(count(&whole, "games-1.pgn"), 10);

    let merged = last_summary(&bash(&sharded, &merge, 1, 1));
    let unsharded = last_summary(&bash(&whole, &merge, 1, 1));
    assert_eq!(merged, unsharded);
    assert!(merged[0].starts_with("Score of new vs old:") && merged[0].ends_with(" 10"));
    assert!(
        merged.iter().any(|l| l.starts_with("SPRT: llr")),
        "{merged:?}"
    );
    // The match's own summary (no SPRT there) agrees line for line.
    let log = std::fs::read_to_string(whole.join("match-1.log")).expect("match log");
    let from_match = last_summary(&log);
    let without_sprt: Vec<String> = merged
        .iter()
        .filter(|l| !l.starts_with("SPRT:"))
        .cloned()
        .collect();
    assert_eq!(from_match, without_sprt);
    let _ = std::fs::remove_dir_all(&base);
}
