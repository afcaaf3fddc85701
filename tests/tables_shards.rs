//! The sharded table build (`jungle tb build --animals N --shard K/N`): shards run
//! separately, one of them killed and resumed over a damaged file and a stray
//! temporary file, give the in-memory build's bytes, with a manifest row for each
//! table; `--list` and `jungle tb status` describe the job.

mod tables_common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tables_common::*;

fn run(args: &[&str]) -> (String, String) {
    let out = Command::new(jungle())
        .args(args)
        .output()
        .expect("jungle runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{args:?}\n{stdout}\n{stderr}");
    (stdout, stderr)
}

/// The command line of 3-animal shard `k` into `d`, on one thread.
fn shard<'a>(d: &'a str, k: &'a str) -> [&'a str; 10] {
    [
        "tb",
        "build",
        "--animals",
        "3",
        "--shard",
        k,
        "--dir",
        d,
        "--threads",
        "1",
    ]
}

#[test]
fn shards_run_apart_killed_and_resumed_give_the_in_memory_tables() {
    let dir = temp_dir("shards");
    let d = dir.to_str().unwrap();
    // Shard 2 of 2 in one go.
    run(&shard(d, "2/2"));
    // Shard 1 of 2, killed once a few tables are recorded.
    let manifest = dir.join("manifest-3.tsv");
    let mut child = Command::new(jungle())
        .args(shard(d, "1/2"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("jungle starts");
    let count_rows = || {
        std::fs::read_to_string(&manifest)
            .map(|t| {
                t.lines()
                    .filter(|l| !l.starts_with('#'))
                    .count()
                    .saturating_sub(1)
            })
            .unwrap_or(0)
    };
    let first = count_rows();
    let start = Instant::now();
    while count_rows() < first + 5 && start.elapsed() < Duration::from_secs(60) {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    // A damaged table of shard 1 and a temporary file left by a stopped writer.
    let (list, _) = run(&["tb", "build", "--animals", "3", "--list", "--shard", "1/2"]);
    let (sig, damaged) = list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("rank"))
        .map(|l| l.split('\t').nth(1).unwrap().to_string())
        .map(|sig| (sig.clone(), format!("{sig}.n100.jtb")))
        .find(|(_, name)| dir.join(name).exists())
        .expect("shard 1 built some table before it was stopped");
    let bytes = std::fs::read(dir.join(&damaged)).unwrap();
    std::fs::write(dir.join(&damaged), &bytes[..bytes.len() / 2]).unwrap();
    std::fs::write(dir.join(format!("{damaged}.1-2.part")), b"half").unwrap();
    let (out, err) = run(&shard(d, "1/2"));
    assert!(out.contains(" kept"), "{out}");
    assert!(err.contains(&format!("refused {sig}")), "{err}");
    assert!(err.contains("left by a stopped build"), "{err}");
    // Run again: everything kept, nothing built.
    let (out, _) = run(&shard(d, "1/2"));
    assert!(out.contains(" 0 built"), "{out}");
    assert_tables_and_manifest(&dir, 3, &in_memory_files(3));

    let (status, _) = run(&["tb", "status", "--animals", "3", "--dir", d]);
    assert!(status.contains("224 of 224 tables built"), "{status}");
    assert!(
        status.contains("224 of the 224 files match a row"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_list_shows_each_shard_in_build_order_with_sizes() {
    let (all, _) = run(&["tb", "build", "--animals", "5", "--list"]);
    assert!(all.starts_with("# 5 animals"), "{all}");
    let rows: Vec<Vec<&str>> = all
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("rank"))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 2128);
    let sizes: Vec<u64> = rows.iter().map(|r| r[2].parse().unwrap()).collect();
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "smallest first");
    // The shards of four split them between them.
    let mut seen = 0;
    for k in 1..=4 {
        let (one, _) = run(&[
            "tb",
            "build",
            "--animals",
            "5",
            "--list",
            "--shard",
            &format!("{k}/4"),
        ]);
        let mine: Vec<&str> = one
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("rank"))
            .collect();
        assert!(mine.iter().all(|l| l.ends_with(&format!("\t{k}"))));
        seen += mine.len();
    }
    assert_eq!(seen, 2128);
}

#[test]
fn reach_counts_the_signatures_games_and_suites_pass_through() {
    let dir = temp_dir("reach");
    // Red's lion takes Blue's cat (4 animals to 3), then nothing is taken.
    let games = "[Game \"1\"]\n[FEN \"7/3e3/7/7/7/c6/L6/7/6R r 0 1\"]\n\n1. a3a4 d8d7 *\n";
    std::fs::write(dir.join("games.pgn"), games).unwrap();
    std::fs::write(
        dir.join("suite.txt"),
        "# two positions\n7/3e3/7/7/7/7/L6/7/6R r 0 1 ; animals 3\n7/3e3/7/7/7/7/L6/7/7 r 0 1\n",
    )
    .unwrap();
    let (out, _) = run(&[
        "tb",
        "reach",
        "--animals",
        "3",
        dir.join("games.pgn").to_str().unwrap(),
        dir.join("suite.txt").to_str().unwrap(),
    ]);
    let rows: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows, ["LRvE\t1\t1"], "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
