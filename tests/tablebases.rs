//! End-to-end tests of the tablebases: the engine's probes (`score mate` at depth 1,
//! `tbhits`, the options), `jungle tb build` and `jungle tb probe`, and the tables
//! against the independently labelled forced wins of `tests/mates.txt`.

mod protocol_common;

use jungle::board::Position;
use jungle::tb::material::{Material, TbRules};
use jungle::tb::{probe_moves, probe_position, Tablebases, TbValue, Wdl};
use protocol_common::*;
use std::time::Duration;

/// Red lion c3 and rat g1 against Blue's elephant d8: Red to move wins in 11 moves.
const WON_LRVE: &str = "7/3e3/7/7/7/7/2L4/7/6R r 0 1";

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-tb-e2e-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The library's verdict on every move of a position (tables built in memory).
fn table_best_moves(fen: &str) -> (TbValue, Vec<String>) {
    let tb = Tablebases::new(TbRules::default(), None);
    let pos = Position::from_fen(fen).unwrap();
    tb.ensure(Material::of(&pos), &|_| {}).unwrap();
    let set = tb.snapshot();
    let values = probe_moves::<jungle::board::Standard>(&set, &pos).unwrap();
    let best = values[0].outcome;
    let moves = values
        .iter()
        .filter(|v| v.outcome == best && v.wdl == values[0].wdl)
        .map(|v| v.mv.to_string())
        .collect();
    (probe_position(&set, &pos).unwrap().outcome, moves)
}

#[test]
fn a_won_three_animal_position_is_a_mate_at_depth_one() {
    let (outcome, best) = table_best_moves(WON_LRVE);
    let TbValue::Win(plies) = outcome else {
        panic!("{WON_LRVE} should be won: {outcome:?}")
    };
    let mut e = Engine::start("tb-mate");
    e.send_silent(&format!("position fen {WON_LRVE}"));
    let out = e.go("go depth 1", T_SEARCH);
    let info = out.last_main().expect("an info line");
    assert_eq!(
        info.score,
        Score::Mate(plies.div_ceil(2) as i32),
        "{}",
        info.line
    );
    assert!(info.tbhits > 0, "{}", info.line);
    assert!(
        best.contains(&out.bestmove),
        "{} not in {best:?}",
        out.bestmove
    );
}

#[test]
fn the_probe_limit_and_a_bad_path_are_options() {
    let mut e = Engine::start("tb-options");
    let err = e.send_expect_error("setoption name TablebasePath value /no/such/dir/for/tables");
    assert!(err.contains("TablebasePath"), "{err}");
    e.send_expect_error("setoption name TablebaseProbeLimit value 6");
    e.send_silent("setoption name TablebaseProbeLimit value 0");
    e.send_silent(&format!("position fen {WON_LRVE}"));
    let out = e.go("go depth 3", T_SEARCH);
    let info = out.last_main().expect("an info line");
    assert_eq!(info.tbhits, 0, "{}", info.line);
    e.send_silent("setoption name TablebaseProbeLimit value 3");
    let out = e.go("go depth 1", T_SEARCH);
    assert!(out.last_main().expect("info").tbhits > 0);
    // Empty path: files off, the small tables still built in memory.
    e.send_silent("setoption name TablebasePath value <empty>");
    let out = e.go("go depth 1", T_SEARCH);
    assert!(matches!(
        out.last_main().expect("info").score,
        Score::Mate(_)
    ));
}

#[test]
fn build_writes_files_that_probe_and_the_engine_read_and_damage_is_refused() {
    let dir = temp_dir("build");
    let d = dir.to_str().unwrap();
    let (status, stdout, stderr) = run_cli(
        &["tb", "build", "--material", "LR v E", "--dir", d],
        Duration::from_secs(120),
    );
    assert!(status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("LRvE"), "{stdout}");
    for name in ["LRvE.n100.jtb", "EvL.n100.jtb", "EvR.n100.jtb"] {
        assert!(dir.join(name).exists(), "{name} missing: {stderr}");
    }
    let (status, stdout, stderr) = run_cli(
        &["tb", "probe", "--fen", WON_LRVE, "--dir", d],
        Duration::from_secs(60),
    );
    assert!(status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("Position: "), "{stdout}");
    assert!(lines.contains(&"Value: win"), "{stdout}");
    assert!(lines.iter().any(|l| l.starts_with("DTM: ")), "{stdout}");
    assert!(lines.iter().any(|l| l.starts_with("DTZ: ")), "{stdout}");
    let moves = lines.iter().position(|l| l.starts_with("Moves: ")).unwrap();
    let legal = legal_strings(&Position::from_fen(WON_LRVE).unwrap());
    assert_eq!(lines.len() - moves - 1, legal.len(), "{stdout}");
    // The engine reads the directory.
    let mut e = Engine::start("tb-dir");
    e.send(&format!("setoption name TablebasePath value {d}"));
    let line = e.expect_line("the tablebase summary", T_REPLY, |l| {
        l.starts_with("info string tablebases:")
    });
    assert!(line.contains("3 table files"), "{line}");
    e.send_silent(&format!("position fen {WON_LRVE}"));
    let out = e.go("go depth 1", T_SEARCH);
    assert!(matches!(
        out.last_main().expect("info").score,
        Score::Mate(_)
    ));
    // A damaged file is refused with a reason, and the table built again.
    let path = dir.join("LRvE.n100.jtb");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
    let (status, stdout, stderr) = run_cli(
        &["tb", "probe", "--fen", WON_LRVE, "--dir", d],
        Duration::from_secs(60),
    );
    assert!(status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("checksum"), "{stderr}");
    assert!(stdout.contains("Value: win"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tb_commands_refuse_bad_input() {
    let t = Duration::from_secs(30);
    let (status, _, stderr) = run_cli(&["tb", "probe", "--fen", "nonsense"], t);
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("invalid --fen"), "{stderr}");
    let (status, _, stderr) = run_cli(&["tb", "probe", "--fen", START_FEN], t);
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("at most"), "{stderr}");
    let (status, _, stderr) = run_cli(&["tb", "build", "--material", "LLvR"], t);
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("two of"), "{stderr}");
    let (status, _, stderr) = run_cli(
        &["tb", "probe", "--fen", WON_LRVE, "--rules", "jungle-cn"],
        t,
    );
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("anti-chase"), "{stderr}");
    let (status, _, _) = run_cli(&["tb", "build", "--animals", "7"], t);
    assert!(!status.success());
}

/// The forced wins of tests/mates.txt (labelled by an independent brute force over a
/// separate move generator) with at most four animals: the tables give the same
/// distance and exactly the same winning first moves.
#[test]
fn tables_agree_with_the_labelled_mate_suite() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mates.txt")).unwrap();
    let tb = Tablebases::new(TbRules::default(), None).building(4, false);
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(';'))
    {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        let n: u16 = f[0].parse().unwrap();
        let pos = Position::from_fen(f[1]).unwrap();
        let m = Material::of(&pos);
        if m.count() > 4 {
            continue;
        }
        tb.ensure(m, &|_| {}).unwrap();
        let set = tb.snapshot();
        let p = probe_position(&set, &pos).unwrap();
        assert_eq!(p.outcome, TbValue::Win(2 * n - 1), "{line}");
        assert_eq!(p.wdl, Wdl::Win, "{line}");
        let values = probe_moves::<jungle::board::Standard>(&set, &pos).unwrap();
        let mut winning: Vec<String> = values
            .iter()
            .filter(|v| v.outcome == TbValue::Win(2 * n - 1))
            .map(|v| v.mv.to_string())
            .collect();
        let mut listed: Vec<String> = f[2].split_whitespace().map(str::to_string).collect();
        winning.sort();
        listed.sort();
        assert_eq!(winning, listed, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 5);
}

/// `jungle tb verify`: sound files pass; a file whose one value was changed (and whose
/// checksum is right, so that loading accepts it) is found out, with status 1.
#[test]
fn verify_checks_every_position_of_the_files_and_finds_a_changed_value() {
    use jungle::tb::file;
    use jungle::tb::table::Dtms;
    let dir = temp_dir("verify");
    let d = dir.to_str().unwrap();
    let t = Duration::from_secs(120);
    let (status, stdout, stderr) = run_cli(&["tb", "build", "--material", "LR v E", "--dir", d], t);
    assert!(status.success(), "{stdout}\n{stderr}");
    let rec = dir.join("verified.tsv");
    let rec = rec.to_str().unwrap();
    let verify3 = [
        "tb",
        "verify",
        "--animals",
        "3",
        "--dir",
        d,
        "--record",
        rec,
    ];
    let (status, stdout, stderr) = run_cli(&verify3, t);
    assert!(status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("[1/1] LRvE: "), "{stdout}");
    assert!(stdout.contains("1 of 1 tables verified"), "{stdout}");
    // The record: the next run skips the table while its file is the same.
    assert!(std::fs::read_to_string(rec).unwrap().starts_with("LRvE\t"));
    let (status, stdout, _) = run_cli(&verify3, t);
    assert!(
        status.success() && stdout.contains("LRvE: verified before"),
        "{stdout}"
    );
    let (status, stdout, _) = run_cli(&["tb", "verify", "--animals", "2", "--dir", d], t);
    assert!(
        status.success() && stdout.contains("2 of 2 tables verified"),
        "{stdout}"
    );
    // One DTM value changed, the file written again with a right checksum.
    let rules = TbRules::default();
    let m = Material::parse("LRvE").unwrap();
    let table = file::read(&file::path_in(&dir, m, &rules), m, &rules).unwrap();
    let (i, _) = (0..table.len())
        .map(|i| (i, table.entry(i).outcome()))
        .find(|(_, o)| matches!(o, TbValue::Win(d) if *d > 3))
        .expect("a win");
    let dtm = match table.dtm.clone() {
        Dtms::Bytes(mut v) => {
            v[i] = v[i].wrapping_add(2);
            Dtms::Bytes(v)
        }
        Dtms::Words(mut v) => {
            v[i] = v[i].wrapping_add(2);
            Dtms::Words(v)
        }
    };
    let changed = jungle::tb::Table::new(m, rules, dtm, table.dtz.clone()).unwrap();
    file::write(&changed, &dir).unwrap();
    let (status, stdout, stderr) = run_cli(&verify3, t);
    assert_eq!(status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("LRvE: FAILED: LRvE"), "{stdout}");
    assert!(stdout.contains("0 of 1 tables verified"), "{stdout}");
    // Bad input: a folder without such tables, a bad signature.
    let (status, _, stderr) = run_cli(&["tb", "verify", "--animals", "5", "--dir", d], t);
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("no 5-animal table files"), "{stderr}");
    let (status, _, stderr) = run_cli(&["tb", "verify", "--material", "LLvR", "--dir", d], t);
    assert_eq!(status.code(), Some(2), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
