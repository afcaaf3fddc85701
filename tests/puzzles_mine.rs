//! `jungle puzzles mine` (docs/puzzles.md, "Mining"): a run of two small shards,
//! killed in the middle of the second and run again, makes the same games and
//! candidates as the same run in one shard; bad manifests and arguments are refused
//! with the line or the argument named.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn jungle() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-mine-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// A manifest of `games` small games in `shards` shards (made with --create, its
/// settings made small).
fn manifest(dir: &Path, name: &str, games: u64, shards: u32) -> PathBuf {
    let path = dir.join(format!("{name}.tsv"));
    let out = jungle()
        .args(["puzzles", "mine", "--create", "--manifest"])
        .arg(&path)
        .args([
            "--games",
            &games.to_string(),
            "--shards",
            &shards.to_string(),
        ])
        .args(["--seed", "9", "--note", "a test"])
        .output()
        .expect("jungle runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).expect("written");
    let small: String = text
        .lines()
        .map(|l| {
            let key = l.split('\t').next().unwrap_or("");
            match key {
                "nodes" => "nodes\t300".to_string(),
                "max-plies" => "max-plies\t120".to_string(),
                "scan-plies" => "scan-plies\t30".to_string(),
                "scan-nodes" => "scan-nodes\t1500".to_string(),
                "max-moves" => "max-moves\t3".to_string(),
                _ => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&path, small + "\n").expect("written");
    path
}

fn mine(manifest: &Path, dir: &Path, shard: Option<&str>) -> Command {
    let mut cmd = jungle();
    cmd.args(["puzzles", "mine", "--stage", "games", "--manifest"])
        .arg(manifest)
        .arg("--dir")
        .arg(dir);
    if let Some(s) = shard {
        cmd.args(["--shard", s]);
    }
    cmd
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_sharded_run_killed_and_resumed_makes_what_one_run_makes() {
    let dir = temp_dir("resume");
    let data = dir.join("data");
    // The whole run in one shard.
    let one = manifest(&dir, "one", 6, 1);
    let out = mine(&one, &data, None).output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same games in two shards: the first whole, the second killed once.
    let two = manifest(&dir, "two", 6, 2);
    let out = mine(&two, &data, Some("1/2")).output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let part = data.join("two/shard-2.pgn.part");
    let mut child = mine(&two, &data, Some("2/2"))
        .env("JUNGLE_MINE_GAME_DELAY_MS", "3000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let started = Instant::now();
    // Killed once a game of the shard is written, before it is done.
    while std::fs::metadata(&part).map_or(true, |m| m.len() == 0) {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no game written"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("killed");
    child.wait().expect("ended");
    assert!(
        !data.join("two/shard-2.cand").exists(),
        "a killed shard is not done"
    );
    assert!(!read(&two).contains("shard\t2\t"), "nor in the manifest");
    // Run again: the first shard is kept, the second made.
    let out = mine(&two, &data, None).output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for ext in ["cand", "pgn"] {
        let whole = read(&data.join(format!("one/shard-1.{ext}")));
        let halves = read(&data.join(format!("two/shard-1.{ext}")))
            + &read(&data.join(format!("two/shard-2.{ext}")));
        assert_eq!(halves, whole, "{ext}");
    }
    assert!(
        !read(&data.join("one/shard-1.cand")).is_empty(),
        "some candidates"
    );
    let manifest = read(&two);
    assert!(
        manifest.contains("shard\t1\t3\t") && manifest.contains("shard\t2\t3\t"),
        "{manifest}"
    );
    // A damaged file is made again and must match its row.
    std::fs::write(data.join("two/shard-1.cand"), "damaged").expect("written");
    let out = mine(&two, &data, Some("1/2")).output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        read(&data.join("two/shard-1.cand")) + &read(&data.join("two/shard-2.cand")),
        read(&data.join("one/shard-1.cand"))
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_manifests_and_shards_are_refused_by_name() {
    let dir = temp_dir("bad");
    let path = manifest(&dir, "run", 4, 2);
    let good = read(&path);
    let cases = [
        (good.replace("seed\t9", "seed\tnine"), "seed"),
        (
            good.replace("shards\t2", "shards\t9"),
            "shards 9 must be from 1",
        ),
        (good.replace("\tjungle-cn\t", "\tchess\t"), "bad rules"),
        (good + "colour\tred\n", "unknown key"),
    ];
    for (text, want) in cases {
        std::fs::write(&path, text).expect("written");
        let out = mine(&path, &dir, None).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(want), "{want}: {err}");
    }
    let _ = manifest(&dir, "fine", 4, 2);
    for (shard, want) in [("3/2", "bad shard"), ("1/3", "the manifest has 2 shards")] {
        let out = mine(&dir.join("fine.tsv"), &dir, Some(shard))
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(want),
            "{shard}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
