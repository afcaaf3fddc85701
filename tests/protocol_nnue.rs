//! The network through the real binary: the `Eval` and `EvalFile` options, the
//! network's line in `eval`, and `bench --eval`.

mod protocol_common;

use protocol_common::*;
use std::time::Duration;

const T: Duration = Duration::from_secs(30);

/// The two NNUE lines at the end of `eval`: (red view, side to move).
fn nnue_score(e: &mut Engine) -> (i64, i64) {
    e.send("eval");
    let lines = e.read_until("NNUE (side to move):", T);
    let value = |l: &str| l.rsplit(' ').next().and_then(|v| v.parse::<i64>().ok());
    let n = lines.len();
    match (value(&lines[n - 2]), value(&lines[n - 1])) {
        (Some(r), Some(s)) if lines[n - 2].starts_with("NNUE (red view): ") => (r, s),
        _ => e.fail(&format!("eval: bad NNUE lines {:?}", &lines[n - 2..])),
    }
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let path = std::env::temp_dir().join(format!("jungle-nnue-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("temp file");
    path.to_string_lossy().into_owned()
}

#[test]
fn eval_option_switches_the_search_to_the_network() {
    let mut e = Engine::start("eval-option");
    e.send_expect_error("setoption name Eval value neural");
    e.send_silent("setoption name Eval value nnue");
    e.send_silent("position startpos moves g3g4");
    let out = e.go("go depth 5", T);
    out.check_legal(&game_of(START_FEN, &["g3g4"]), "go depth 5 with Eval nnue");
    e.send_silent("setoption name Eval value CLASSICAL");
    let out = e.go("go depth 5", T);
    out.check_legal(
        &game_of(START_FEN, &["g3g4"]),
        "go depth 5 with Eval classical",
    );
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn eval_file_refuses_bad_files_and_keeps_the_network() {
    let mut e = Engine::start("eval-file");
    e.send_silent("position startpos moves g3g4 a7a6");
    let before = nnue_score(&mut e);
    assert_eq!(
        before.1, before.0,
        "Red to move: the side to move's view is Red's"
    );

    let missing = e.send_expect_error("setoption name EvalFile value /nonexistent/net.nnue");
    assert!(missing.contains("refused"), "{missing}");
    let embedded = jungle::nnue::EMBEDDED;
    let truncated = temp_file("truncated", &embedded[..embedded.len() / 2]);
    let err = e.send_expect_error(&format!("setoption name EvalFile value {truncated}"));
    assert!(err.contains("truncated"), "{err}");
    let mut corrupt = embedded.to_vec();
    corrupt[100] ^= 1;
    let corrupt = temp_file("corrupt", &corrupt);
    let err = e.send_expect_error(&format!("setoption name EvalFile value {corrupt}"));
    assert!(err.contains("checksum"), "{err}");
    let text = temp_file("text", b"not a network\n");
    let err = e.send_expect_error(&format!("setoption name EvalFile value {text}"));
    assert!(err.contains("truncated") || err.contains("magic"), "{err}");
    assert_eq!(
        nnue_score(&mut e),
        before,
        "a refused file must not change the network"
    );

    // A good file (a copy of the embedded network) loads and says what it is.
    let good = temp_file("good", embedded);
    e.send(&format!("setoption name EvalFile value {good}"));
    let out = e.sync();
    assert!(
        out.len() == 1
            && out[0].starts_with("info string network ")
            && out[0].contains("(1008 -> "),
        "{out:?}"
    );
    assert_eq!(nnue_score(&mut e), before);
    e.send("setoption name EvalFile value <embedded>");
    assert_eq!(e.sync().len(), 1);
    for f in [truncated, corrupt, text, good] {
        let _ = std::fs::remove_file(f);
    }
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn bench_compares_both_evaluations() {
    let (status, out, err) = run_cli(&["bench", "--depth", "4", "--eval", "both"], T);
    assert!(status.success(), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    for (line, name) in lines.iter().zip(["classical: ", "nnue: "]) {
        let rest = line.strip_prefix(name).unwrap_or_else(|| panic!("{line}"));
        assert!(parse_bench_total(rest).is_some(), "{line}");
    }
    assert!(lines[2].starts_with("nnue/classical nps: "), "{out}");

    let (status, _, err) = run_cli(&["bench", "--eval-file", "/nonexistent.nnue"], T);
    assert_eq!(status.code(), Some(2));
    assert!(err.contains("--eval-file"), "{err}");
}
