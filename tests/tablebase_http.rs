//! `GET /api/tablebase?fen=…` on `jungle serve`: the value, DTM, DTZ and every move's
//! value, the same as `jungle tb probe` and the library say, for a position whose
//! table is built in memory and one read from a table file.

mod gui_common;
mod online_common;

use jungle::board::{Position, Standard};
use jungle::tb::material::{Material, TbRules};
use jungle::tb::{probe_moves, probe_position, Tablebases, TbValue};
use online_common::*;
use serde_json::Value;

/// Red lion c3 and rat g1 against Blue's elephant d8: Red to move wins in 11 moves.
const WON_LRVE: &str = "7/3e3/7/7/7/7/2L4/7/6R r 0 1";
/// Four animals: no table in memory unless a file has it.
const FOUR: &str = "7/3e3/7/7/3t3/7/2L4/7/6R r 0 1";

fn json(server: &Server, fen: &str) -> (u16, Value) {
    let (status, body) = server.get(&format!("/api/tablebase?fen={}", fen.replace(' ', "%20")));
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

#[test]
fn the_endpoint_gives_the_tables_values_for_the_position_and_every_move() {
    let dir = TempDir::new("tablebase-http");
    let tables = dir.0.join("tables");
    // The 4-animal table as a file (built with its dependencies).
    let out = std::process::Command::new(jungle())
        .args(["tb", "build", "--material", "LR v TE", "--dir"])
        .arg(&tables)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut args = sqlite_args(&dir.0);
    args.extend(["--tablebases".into(), tables.display().to_string()]);
    let server = Server::start(0, &args);

    for fen in [WON_LRVE, FOUR] {
        let (status, body) = json(&server, fen);
        assert_eq!(status, 200, "{body}");
        let pos = Position::from_fen(fen).unwrap();
        let tb = Tablebases::new(TbRules::default(), Some(tables.clone()));
        tb.ensure(Material::of(&pos), &|_| {}).unwrap();
        let set = tb.snapshot();
        let p = probe_position(&set, &pos).unwrap();
        let moves = probe_moves::<Standard>(&set, &pos).unwrap();
        assert_eq!(body["table"], Material::of(&pos).canonical().to_string());
        let dtm = match p.outcome {
            TbValue::Win(d) => Some(i64::from(d)),
            TbValue::Loss(d) => Some(-i64::from(d)),
            TbValue::Draw => None,
        };
        assert_eq!(body["dtm"].as_i64(), dtm, "{body}");
        let listed = body["moves"].as_array().unwrap();
        assert_eq!(listed.len(), moves.len());
        // Best first: the first move leaves the opponent the worst of it.
        for (m, v) in listed.iter().zip(&moves) {
            assert_eq!(m["uci"], v.mv.to_string());
            assert_eq!(m["category"], v.wdl.flipped().name().replace(' ', "-"));
        }
    }
    let (status, body) = json(&server, WON_LRVE);
    assert_eq!(body["category"], "win");
    assert_eq!(body["dtm"], 21, "{body}");
    assert_eq!(body["moves"][0]["category"], "loss", "{status}");
    assert_eq!(body["moves"][0]["dtm"], -20);
    // Refusals: a bad position, and one with too many animals.
    assert_eq!(json(&server, "nonsense").0, 400);
    let (status, body) = json(&server, "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1");
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("no_table")),
        "{body}"
    );
}

#[test]
fn an_address_asks_so_many_probes_a_minute() {
    let dir = TempDir::new("tablebase-rate");
    let mut args = sqlite_args(&dir.0);
    args.extend(["--tablebase-per-minute".into(), "2".into()]);
    let server = Server::start(0, &args);
    assert_eq!(json(&server, WON_LRVE).0, 200);
    assert_eq!(json(&server, "nonsense").0, 400);
    let (status, body) = json(&server, WON_LRVE);
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate")),
        "{body}"
    );
    // The rest of the site is not limited by it.
    assert_eq!(server.get("/api/lobby").0, 200);
    // A limit of 0 is refused at the start, before any database is made.
    let out = std::process::Command::new(jungle())
        .current_dir(&dir.0)
        .args(["serve", "--port", "0", "--tablebase-per-minute", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(!dir.0.join("jungle-online.sqlite").exists());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--tablebase-per-minute"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
