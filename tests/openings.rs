//! `jungle openings` with calibration, through the real binary: the book it writes
//! holds only positions within its thresholds, reports what it saw, and is read by
//! `jungle match`; bad option values are refused with one error line.

use std::process::Command;

fn jungle() -> &'static str {
    env!("CARGO_BIN_EXE_jungle")
}

/// Runs `jungle …`; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(jungle())
        .args(args)
        .output()
        .expect("jungle runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn calibrated_book_keeps_its_band_and_plays_in_a_match() {
    let (code, book, err) = run(&[
        "openings",
        "--count",
        "2",
        "--plies",
        "8",
        "--depth",
        "3",
        "--margin",
        "3000",
        "--min-margin",
        "100",
        "--seed",
        "9",
        "--calibrate-nodes",
        "300",
        "--calibrate-trials",
        "4",
        "--calibrate-min-win",
        "25",
        "--calibrate-max-win",
        "75",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(book.contains("--calibrate-nodes 300 --calibrate-jitter 25 --calibrate-trials 4 --calibrate-min-win 25 --calibrate-max-win 75 --calibrate-max-losses 0 --seed 9\n"), "{book}");
    let positions: Vec<&str> = book.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(positions.len(), 2, "{book}");
    for line in &positions {
        // 1 to 3 wins of 4 (25–75%), no loss.
        let trials = line.rsplit(" ; trials ").next().expect("trials");
        let wdl: Vec<u32> = trials.split('-').map(|n| n.parse().expect("n")).collect();
        assert!((1..=3).contains(&wdl[0]), "{line}");
        assert_eq!((wdl[0] + wdl[1], wdl[2]), (4, 0), "{line}");
    }
    // The report: in the book and on stderr.
    assert!(book.contains("\n# Calibration: "), "{book}");
    assert!(err.contains("non-draw pairs"), "{err}");

    // The book is an openings file for `jungle match`.
    let dir = std::env::temp_dir().join(format!("jungle-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("calibrated.txt");
    std::fs::write(&path, &book).expect("written");
    let engine = format!("cmd={} name=a option.Hash=8", jungle());
    let (code, out, err) = run(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "2",
        "--nodes",
        "200",
        "--openings",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("Finished game").count(), 2, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_calibration_options_give_one_error_line() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--calibrate-tc", "ten\nseconds"],
            "--calibrate-tc 'ten\\nseconds' is not a time control",
        ),
        (
            &[
                "--calibrate-nodes",
                "100",
                "--calibrate-min-win",
                "70",
                "--calibrate-max-win",
                "40",
            ],
            "--calibrate-min-win 70 and --calibrate-max-win 40",
        ),
        (
            &[
                "--calibrate-nodes",
                "100",
                "--calibrate-trials",
                "2",
                "--calibrate-min-win",
                "60",
                "--calibrate-max-win",
                "70",
            ],
            "no number of wins out of 2 trials",
        ),
        (&["--calibrate-nodes", "lots"], "invalid value 'lots'"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["openings", "--count", "1", "--depth", "1"];
        all.extend_from_slice(args);
        let (code, out, err) = run(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with("error: "), "{args:?}: {err}");
        assert!(first.contains(expected), "{args:?}: {err}");
        // Our own refusals are exactly one line (clap adds a usage hint to its own).
        if !expected.starts_with("invalid value") {
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
    }
}
