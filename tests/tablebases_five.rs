//! A five-animal table, probed four ways: the library, `jungle tb probe`, the engine
//! (`score mate` at depth 1 and a best move of the table's) and `jungle serve`'s
//! `/api/tablebase` say the same value, DTM, DTZ and move values; puzzles drawn
//! from it are exact; and `jungle analyse` and the board's review (`jungle gui
//! --tb-dir`) judge its moves by it (issue 64).
//!
//! The table (WDCvDC, 261.5 M positions, with the 4-animal tables it needs) is built
//! by `jungle tb build` into `target/tmp/tables-five`, about four minutes on two
//! cores the first time; a later run checks the files and keeps them. The Python
//! package's test (crates/python/tests/test_tablebase.py) reads the same folder.

mod gui_common;
mod online_common;
mod protocol_common;

use jungle::board::{Position, Standard};
use jungle::tb::material::{Material, TbRules};
use jungle::tb::{probe_moves, probe_position, MoveValue, Probe, Tablebases, TbValue};
use online_common::{sqlite_args, Server, TempDir};
use protocol_common::{run_cli, Engine, Score, T_REPLY, T_SEARCH};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

const SIGNATURE: &str = "WDC v DC";
/// Red's wolf, dog and cat against Blue's dog and cat: Red to move mates in 9.
const RED_WINS: &str = "7/7/d5c/7/7/7/WD4C/7/7 r 0 1";
/// The same with Blue to move: mated in 11.
const BLUE_LOSES: &str = "7/7/d5c/7/7/7/WD4C/7/7 b 0 1";

/// The folder of the five-animal table, built (or checked and kept) by the command,
/// once for the tests of this file.
fn tables() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(build_tables).clone()
}

fn build_tables() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tables-five");
    let d = dir.to_str().expect("a UTF-8 path");
    let (status, stdout, stderr) = run_cli(
        &[
            "tb",
            "build",
            "--material",
            SIGNATURE,
            "--dir",
            d,
            "--threads",
            "2",
        ],
        Duration::from_secs(1800),
    );
    assert!(status.success(), "{stdout}\n{stderr}");
    assert!(dir.join("WDCvDC.n100.jtb").is_file(), "{stdout}\n{stderr}");
    dir
}

/// The library's probe of `fen` from the files in `dir`.
fn library(dir: &Path, fen: &str) -> (Probe, Vec<MoveValue>) {
    let pos = Position::from_fen(fen).unwrap();
    let tb = Tablebases::new(TbRules::default(), Some(dir.to_path_buf()));
    tb.ensure(Material::of(&pos), &|_| {}).unwrap();
    let set = tb.snapshot();
    (
        probe_position(&set, &pos).expect("covered"),
        probe_moves::<Standard>(&set, &pos).expect("covered"),
    )
}

/// DTM signed as the protocol and the HTTP answer write it: positive when the side
/// to move wins, `None` for a draw.
fn signed(outcome: TbValue) -> Option<i64> {
    match outcome {
        TbValue::Win(d) => Some(i64::from(d)),
        TbValue::Loss(d) => Some(-i64::from(d)),
        TbValue::Draw => None,
    }
}

#[test]
fn a_five_animal_table_says_the_same_through_the_library_the_command_the_engine_and_http() {
    let dir = tables();
    let d = dir.to_str().unwrap();
    let probes: Vec<_> = [RED_WINS, BLUE_LOSES]
        .iter()
        .map(|fen| (*fen, library(&dir, fen)))
        .collect();
    assert!(matches!(probes[0].1 .0.outcome, TbValue::Win(17)));
    assert!(matches!(probes[1].1 .0.outcome, TbValue::Loss(22)));

    // `jungle tb probe`: the value, DTM and DTZ lines, and every move with its value.
    for (fen, (p, moves)) in &probes {
        let (status, stdout, stderr) = run_cli(
            &["tb", "probe", "--fen", fen, "--dir", d],
            Duration::from_secs(300),
        );
        assert!(status.success(), "{stdout}\n{stderr}");
        assert!(stdout.contains("Table: WDCvDC"), "{stdout}");
        let value = format!("Value: {}", p.wdl.name());
        assert!(stdout.lines().any(|l| l == value), "{value}\n{stdout}");
        let dtm = match p.outcome {
            TbValue::Win(n) | TbValue::Loss(n) => format!("DTM: {n} plies ("),
            TbValue::Draw => "DTM: - (draw)".into(),
        };
        assert!(stdout.contains(&dtm), "{dtm}\n{stdout}");
        let listed = stdout.lines().skip_while(|l| !l.starts_with("Moves: "));
        let listed: Vec<&str> = listed.skip(1).collect();
        let want: Vec<String> = moves
            .iter()
            .map(|v| {
                let plies = |n: Option<u16>| n.map_or("-".into(), |d| d.to_string());
                format!(
                    "{} {} dtm {} dtz {}",
                    v.mv,
                    v.wdl.name().replace(' ', "-"),
                    plies(v.outcome.plies()),
                    plies(v.dtz)
                )
            })
            .collect();
        assert_eq!(listed, want, "{stdout}");
    }

    // The engine: a mate score at depth 1 from the table, a move of the table's best.
    let mut e = Engine::start("tb-five");
    e.send(&format!("setoption name TablebasePath value {d}"));
    let line = e.expect_line("the tablebase summary", T_REPLY, |l| {
        l.starts_with("info string tablebases:")
    });
    assert!(line.contains("18 table files"), "{line}");
    for (fen, (p, moves)) in &probes {
        e.send_silent(&format!("position fen {fen}"));
        let out = e.go("go depth 1", T_SEARCH);
        let info = out.last_main().expect("an info line");
        let mate = match p.outcome {
            TbValue::Win(n) => n.div_ceil(2) as i32,
            TbValue::Loss(n) => -(n.div_ceil(2) as i32),
            TbValue::Draw => unreachable!("both positions are decided"),
        };
        assert_eq!(info.score, Score::Mate(mate), "{fen}: {}", info.line);
        assert!(info.tbhits > 0, "{}", info.line);
        let best: Vec<String> = moves
            .iter()
            .filter(|v| v.wdl == moves[0].wdl && v.outcome == moves[0].outcome)
            .map(|v| v.mv.to_string())
            .collect();
        assert!(
            best.contains(&out.bestmove),
            "{fen}: {} not in {best:?}",
            out.bestmove
        );
    }

    // `jungle serve --tablebases`: the HTTP answer, position and moves.
    let tmp = TempDir::new("tablebase-five");
    let mut args = sqlite_args(&tmp.0);
    args.extend(["--tablebases".into(), d.to_string()]);
    let server = Server::start(0, &args);
    for (fen, (p, moves)) in &probes {
        let (status, body) = server.get(&format!("/api/tablebase?fen={}", fen.replace(' ', "%20")));
        let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["table"], "WDCvDC");
        assert_eq!(body["category"], p.wdl.name().replace(' ', "-"), "{body}");
        assert_eq!(body["dtm"].as_i64(), signed(p.outcome), "{body}");
        let dtz = p.dtz.map(i64::from).map(|z| match p.outcome {
            TbValue::Loss(_) => -z,
            _ => z,
        });
        assert_eq!(body["dtz"].as_i64(), dtz, "{body}");
        let listed = body["moves"].as_array().expect("moves");
        assert_eq!(listed.len(), moves.len());
        for (m, v) in listed.iter().zip(moves) {
            assert_eq!(m["uci"], v.mv.to_string());
            assert_eq!(m["category"], v.wdl.flipped().name().replace(' ', "-"));
            // The position after the move, one ply nearer the end, for the other side.
            let after = signed(v.outcome).map(|d| -(d - d.signum()));
            assert_eq!(m["dtm"].as_i64(), after, "{m}");
        }
    }
}

/// `jungle puzzles tables --animals 5` draws puzzles from the five-animal files, and
/// `jungle puzzles check --verify --tb-animals 5` proves them with the table: each
/// solver move of a win is one of the fastest, the goal is the table's value.
#[test]
fn puzzles_from_the_five_animal_table_are_exact() {
    let dir = tables();
    let d = dir.to_str().unwrap();
    let tmp = TempDir::new("puzzles-five");
    let out = tmp.0.join("five.txt");
    let o = out.to_str().unwrap();
    let t = Duration::from_secs(900);
    let tb = ["--tb-animals", "5", "--tb-dir", d];
    let mut args = vec!["puzzles", "tables", "--animals", "5", "--signatures", "1"];
    args.extend(["--tries", "300", "--out", o]);
    args.extend(tb);
    let (status, stdout, stderr) = run_cli(&args, t);
    assert!(status.success(), "{stdout}\n{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    let puzzles: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!puzzles.is_empty(), "{text}\n{stderr}");
    let files = Tablebases::new(TbRules::default(), Some(dir.clone()));
    for line in &puzzles {
        // id;position;before;solution;rules;goal;themes;rating
        let f: Vec<&str> = line.split(';').collect();
        let pos = Position::from_fen(f[1]).unwrap();
        assert_eq!(
            Material::of(&pos).canonical().to_string(),
            "WDCvDC",
            "{line}"
        );
        files.ensure(Material::of(&pos), &|_| {}).unwrap();
        let p = probe_position(&files.snapshot(), &pos).unwrap();
        let goal = match p.outcome {
            TbValue::Win(_) => "win",
            TbValue::Draw => "draw",
            TbValue::Loss(_) => "hold",
        };
        assert_eq!(f[5], goal, "{line}");
    }
    let mut check = vec!["puzzles", "check", o, "--verify"];
    check.extend(tb);
    let (status, stdout, stderr) = run_cli(&check, t);
    assert!(status.success(), "{stdout}\n{stderr}");
    let n = puzzles.len();
    let all = format!("{n} puzzles checked (verified in full), 0 refused");
    assert!(
        stdout.contains(&all) || stderr.contains(&all),
        "{stdout}\n{stderr}"
    );
    // Without the files, five animals are refused: nothing is built for minutes.
    let none = tmp.0.join("none");
    std::fs::create_dir_all(&none).unwrap();
    let mut args = vec!["puzzles", "tables", "--animals", "5", "--out", o];
    args.extend(["--tb-animals", "5", "--tb-dir", none.to_str().unwrap()]);
    let (status, _, stderr) = run_cli(&args, t);
    assert!(!status.success());
    assert!(stderr.contains("no five-animal table files"), "{stderr}");
}

/// The table's best move in `RED_WINS` and its best reply.
fn best_and_reply(dir: &Path) -> (jungle::board::Move, jungle::board::Move) {
    let best = library(dir, RED_WINS).1[0].mv;
    let mut after = Position::from_fen(RED_WINS).unwrap();
    after.play(best);
    (best, library(dir, &after.to_fen()).1[0].mv)
}

/// `jungle analyse --tb-dir` with the folder judges five-animal positions by default
/// (the folder holds a five-animal table): the table's best move and the best reply
/// are perfect; in the lost position the slowest loss is perfect and a faster one
/// is not (though no blunder: the result is the same).
#[test]
fn analyse_judges_a_five_animal_ending_by_the_table() {
    let dir = tables();
    let (best, reply) = best_and_reply(&dir);
    let (_, losses) = library(&dir, BLUE_LOSES);
    let faster = losses.last().unwrap();
    assert!(faster.rank() < losses[0].rank(), "{losses:?}");
    let record = format!(
        "[Game \"1\"]\n[FEN \"{RED_WINS}\"]\n\n1. {best} {reply} *\n\n\
         [Game \"2\"]\n[FEN \"{BLUE_LOSES}\"]\n\n1... {} *\n",
        faster.mv
    );
    let tmp = TempDir::new("analyse-five");
    let path = tmp.0.join("five.txt");
    std::fs::write(&path, &record).unwrap();
    let (status, stdout, stderr) = run_cli(
        &[
            "analyse",
            path.to_str().unwrap(),
            "--tb-dir",
            dir.to_str().unwrap(),
            "--nodes",
            "20000",
        ],
        Duration::from_secs(600),
    );
    assert!(status.success(), "{stdout}\n{stderr}");
    let games = jungle::record::read_records(&stdout, Default::default()).unwrap();
    let tb = |game: usize, ply: usize| {
        games[game].comments[ply]
            .as_deref()
            .and_then(jungle::review::MoveNote::parse)
            .and_then(|n| n.table)
            .map(|t| t.to_string())
    };
    assert_eq!(tb(0, 0).as_deref(), Some("win perfect"), "{stdout}");
    assert_eq!(tb(0, 1).as_deref(), Some("loss perfect"), "{stdout}");
    assert_eq!(tb(1, 0).as_deref(), Some("loss"), "{stdout}");
    assert!(!stdout.contains("blunder"), "{stdout}");
    for judged in [
        "2 moves judged by the tables",
        "1 move judged by the tables",
    ] {
        assert!(stderr.contains(judged), "{stderr}");
    }
}

/// The board's review under `jungle gui --tb-dir` judges five-animal moves by the
/// table: the table's best move and reply are perfect, whatever the engine says.
#[test]
fn the_boards_review_judges_a_five_animal_ending_by_the_table() {
    let dir = tables();
    let (best, reply) = best_and_reply(&dir);
    let gui = gui_common::Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", gui_common::jungle()),
        "--tb-dir",
        dir.to_str().unwrap(),
    ]);
    let (status, body) = gui.post(
        "new",
        &format!(r#"{{"players":"both","fen":"{RED_WINS}"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    for m in [best, reply] {
        let (status, body) = gui.post("move", &format!(r#"{{"move":"{m}"}}"#));
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = gui.post("review", r#"{"on":true}"#);
    assert_eq!(status, 200, "{body}");
    let s = gui.wait_for(120, "the review", |s| {
        s["review"]["running"] == false && s["review"]["moves"].as_array().is_some()
    });
    let table = |i: usize| s["review"]["moves"][i]["table"].clone();
    assert_eq!(
        table(0),
        serde_json::json!({"before": "win", "after": "win", "perfect": true}),
        "{s}"
    );
    assert_eq!(
        table(1),
        serde_json::json!({"before": "loss", "after": "loss", "perfect": true}),
        "{s}"
    );
    // Without the folder, five animals are beyond the board's tables.
    let gui = gui_common::Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", gui_common::jungle()),
    ]);
    gui.post(
        "new",
        &format!(r#"{{"players":"both","fen":"{RED_WINS}"}}"#),
    );
    gui.post("move", &format!(r#"{{"move":"{best}"}}"#));
    gui.post("review", r#"{"on":true}"#);
    let s = gui.wait_for(120, "the review", |s| s["review"]["running"] == false);
    assert_eq!(s["review"]["moves"][0]["table"], Value::Null, "{s}");
    // A folder that cannot be read is refused on the command line.
    let (ok, _, stderr) = gui_common::run_jungle(&["gui", "--tb-dir", "/nonexistent/tables"]);
    assert!(!ok);
    assert!(
        stderr.contains("--tb-dir") && stderr.contains("cannot read"),
        "{stderr}"
    );
}
