//! `jungle gui` over HTTP: the API, bad requests (each a 4xx that changes nothing),
//! engines that crash or hang (reported, restarted, the game kept), the rules core
//! refereeing every move, records that `jungle replay` reads, and the event stream.

mod gui_common;

use gui_common::{fake, jungle, moves, notices, Gui};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

fn ours(name: &str) -> String {
    format!("cmd={} name={name} option.Hash=8", jungle())
}

#[test]
fn serves_the_page_offline_and_the_state() {
    let gui = Gui::start(&["--engine", &ours("J")]);
    let (status, page) = gui.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<title>Jungle</title>"), "{page}");
    // Everything the page loads comes from this server (`url(#…)` names an SVG
    // marker inside the page).
    let outside = page.replace("url(#", "");
    for needle in ["http://", "https://", "//cdn", "@import", "url("] {
        assert!(!outside.contains(needle), "index.html mentions {needle}");
    }
    for f in jungle_app::page::FILES {
        let (status, text) = gui.get(&format!("/{}", f.path));
        assert_eq!((status, text.as_str()), (200, f.body), "{}", f.path);
    }
    for script in ["/main.js", "/backend.js"] {
        let (status, js) = gui.get(script);
        assert_eq!(status, 200, "{script}");
        assert!(
            !js.contains("http://") && !js.contains("https://"),
            "{script}"
        );
    }
    for sheet in ["/app.css", "/puzzles.css", "/online.css"] {
        let (status, css) = gui.get(sheet);
        assert_eq!(status, 200);
        assert!(!css.contains("url(") && !css.contains("@import") && !css.contains("@font-face"));
    }

    let s = gui.state();
    assert_eq!(s["board"].as_array().map(Vec::len), Some(63));
    assert_eq!(s["board"][0]["animal"], "tiger");
    assert_eq!(s["board"][0]["color"], "red");
    assert_eq!(s["fen"], "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1");
    assert_eq!(s["sideToMove"], "red");
    assert_eq!(s["players"], "red");
    assert_eq!(
        s["legal"]["g3"],
        serde_json::json!([
            { "to": "g2", "capture": false, "jump": false },
            { "to": "f3", "capture": false, "jump": false },
            { "to": "g4", "capture": false, "jump": false },
        ]),
        "{s}"
    );
    // The page is told the terrain, so that it draws the board without rules of its own.
    assert_eq!(
        s["terrain"][0],
        serde_json::json!({ "kind": "land", "side": null })
    );
    assert_eq!(
        s["terrain"][3],
        serde_json::json!({ "kind": "den", "side": "red" })
    );
    assert_eq!(
        s["terrain"][22],
        serde_json::json!({ "kind": "water", "side": null })
    );
    assert_eq!(
        s["terrain"][52],
        serde_json::json!({ "kind": "trap", "side": "blue" })
    );
    assert_eq!(s["levels"].as_array().map(Vec::len), Some(8));
    // The engine has started and declared its strength options: levels have Elos.
    let s = gui.wait_for(10, "the engine's options", |s| s["levelsSupported"] == true);
    assert!(s["levels"][0]["elo"].is_number(), "{s}");
    assert!(
        s["levels"][7]["elo"].is_null(),
        "level 8 is full strength: {s}"
    );
}

#[test]
fn a_move_is_answered_by_the_engine_and_checked() {
    let gui = Gui::start(&["--engine", &ours("J"), "--movetime", "100"]);
    let (status, s) = gui.post("move", r#"{"move":"g3g4"}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!(moves(&s), ["g3g4"]);
    let s = gui.wait_for(15, "the engine's reply", |s| {
        s["moves"].as_array().is_some_and(|m| m.len() == 2) && s["thinking"].is_null()
    });
    assert_eq!(s["sideToMove"], "red");
    assert!(
        s["scores"][1].is_number(),
        "the engine's score is kept: {s}"
    );
    // Undo goes back to the person's move (two plies), redo forward again.
    let (status, s) = gui.post("undo", "");
    assert_eq!(status, 200);
    assert_eq!(s["ply"], 0);
    assert_eq!(moves(&s).len(), 2, "the undone moves are kept for redo");
    let (status, s) = gui.post("redo", "{}");
    assert_eq!(status, 200);
    assert_eq!(s["ply"], 2);
    // Browsing and a new move there drop the moves after it.
    let (_, s) = gui.post("goto", r#"{"ply":0}"#);
    assert_eq!(s["ply"], 0);
    let (status, s) = gui.post("move", r#"{"move":"a1a2"}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!(moves(&s)[0], "a1a2");
}

#[test]
fn bad_requests_get_4xx_and_change_nothing() {
    let gui = Gui::start(&["--engine", &ours("J")]);
    // The engine's name arrives on its own and changes the state: wait for it, so that
    // only the requests below could change the version.
    gui.wait_for(30, "the engine's id", |s| s["engineIds"][0].is_string());
    let (_, before) = gui.post("settings", r#"{"players":"both"}"#);
    let (status, after_move) = gui.post("move", r#"{"move":"g3g4"}"#);
    assert_eq!(status, 200);
    let version = after_move["version"].as_u64().expect("version");
    let fen = after_move["fen"].clone();
    assert_ne!(before["fen"], fen);

    let cases: Vec<(&str, &str, u16, &str)> = vec![
        ("move", r#"{"move":"a9a7"}"#, 400, "not a legal move"),
        ("move", r#"{"move":"zz"}"#, 400, "not a move"),
        ("move", r#"{"move":"g4g5"}"#, 400, "not a legal move"),
        ("move", r#"{"move":"g4g5","extra":1}"#, 400, "unknown field"),
        ("move", r#"{"mv":"g4g5"}"#, 400, "unknown field"),
        ("move", r#"{}"#, 400, "missing field"),
        ("move", "{", 400, "bad request body"),
        ("move", "[1,2]", 400, "bad request body"),
        ("goto", r#"{"ply":99}"#, 400, "past the end"),
        ("new", r#"{"fen":"l5t/1d3c1 r"}"#, 400, "invalid position"),
        (
            "new",
            r#"{"fen":"3R3/7/7/7/7/7/7/7/6l b"}"#,
            400,
            "already decided",
        ),
        (
            "new",
            r#"{"rules":{"variant":"chess"}}"#,
            400,
            "unknown rule set",
        ),
        ("new", r#"{"players":"robots"}"#, 400, "unknown variant"),
        ("settings", r#"{"level":0}"#, 400, "level must be"),
        ("settings", r#"{"level":9}"#, 400, "level must be"),
        ("settings", r#"{"movetimeMs":1}"#, 400, "thinking time"),
        ("analysis", r#"{"on":true,"multipv":99}"#, 400, "MultiPV"),
        ("load", r#"{"text":"garbage"}"#, 400, "FEN"),
        ("load", r#"{"text":""}"#, 400, "no games"),
        ("load", r#"{"path":"/etc/passwd"}"#, 400, "unknown field"),
        (
            "load",
            r#"{"text":"[FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1\"]\n\n1. g3g5 *\n"}"#,
            400,
            "cannot be replayed",
        ),
        ("undo", r#"{"steps":3}"#, 400, "takes no fields"),
        ("launch", r#"{"cmd":"/bin/sh"}"#, 404, "no such action"),
    ];
    for (action, body, status, needle) in cases {
        let (got, answer) = gui.post(action, body);
        let message = answer["error"].as_str().unwrap_or("");
        assert_eq!(got, status, "{action} {body}: {answer}");
        assert!(message.contains(needle), "{action} {body}: {message}");
    }

    // Requests the HTTP layer refuses.
    let host = gui.addr.clone();
    let raw_cases: Vec<(String, u16)> = vec![
        // Not JSON: a form post from another site would look like this.
        (format!("POST /api/move HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\nConnection: close\r\n\r\nmove=g4g5"), 415),
        // Too large.
        (format!("POST /api/move HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n{}", "x".repeat(100_000)), 413),
        // A page reached through DNS rebinding sends its own name as Host.
        ("GET /api/state HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n".to_string(), 403),
        ("GET /api/state HTTP/1.1\r\nConnection: close\r\n\r\n".to_string(), 403),
        (format!("GET /api/move HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"), 405),
        (format!("DELETE /api/state HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"), 405),
        (format!("GET /../../etc/passwd HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"), 404),
        (format!("GET /static/main.js HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"), 404),
        ("GARBAGE\r\n\r\n".to_string(), 400),
    ];
    for (request, status) in raw_cases {
        let (got, head, body) = gui.raw(request.as_bytes());
        assert_eq!(got, status, "{request:.80}: {head} {body}");
    }
    // Invalid UTF-8 in a body.
    let mut bytes = format!(
        "POST /api/move HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nConnection: close\r\n\r\n"
    )
    .into_bytes();
    bytes.extend_from_slice(&[0xff, 0xfe, 0x22, 0x7b]);
    assert_eq!(gui.raw(&bytes).0, 400);

    let s = gui.state();
    assert_eq!(s["version"].as_u64(), Some(version), "nothing changed: {s}");
    assert_eq!(s["fen"], fen);
    assert_eq!(moves(&s), ["g3g4"]);
}

#[test]
fn a_move_forbidden_by_an_anti_chase_rule_names_the_rule() {
    let gui = Gui::start(&["--engine", &ours("J")]);
    let (status, s) = gui.post(
        "new",
        r#"{"players":"both","fen":"6l/7/1t5/7/7/7/W5R/7/7 r","rules":{"variant":"jungle-cn"}}"#,
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["variant"], "jungle-cn");
    for m in "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8".split(' ') {
        let (status, s) = gui.post("move", &format!(r#"{{"move":"{m}"}}"#));
        assert_eq!(status, 200, "{m}: {s}");
    }
    let s = gui.state();
    assert_eq!(s["forbidden"]["a3"][0], "a2", "{s}");
    let (status, answer) = gui.post("move", r#"{"move":"a3a2"}"#);
    assert_eq!(status, 400);
    let message = answer["error"].as_str().unwrap_or("");
    assert!(
        message.starts_with(
            "a3a2 is forbidden by the rule 7-3: the red wolf has moved onto a2 3 times"
        ),
        "{message}"
    );
}

/// The judge over HTTP (the same as the worker's, crates/web/src/host.rs): a lesson's
/// task set, a wrong try, the task again, a refused try, the right one.
#[test]
fn the_judge_answers_a_lessons_tries() {
    let gui = Gui::start(&["--engine", &ours("J")]);
    let (status, s) = gui.post("judge", r#"{"do":"lesson","id":"rat","task":0}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (s["judge"]["kind"].as_str(), s["players"].as_str()),
        (Some("lesson"), Some("both"))
    );
    let (_, s) = gui.post("move", r#"{"move":"d4d3"}"#);
    assert_eq!(s["judge"]["verdict"]["answer"], "wrong", "{s}");
    let (_, s) = gui.post("judge", r#"{"do":"again"}"#);
    assert_eq!(moves(&s), Vec::<String>::new());
    let (_, s) = gui.post("move", r#"{"move":"d4d5"}"#);
    assert_eq!(s["judge"]["verdict"]["answer"], "solved", "{s}");
    gui.post("judge", r#"{"do":"lesson","id":"rat","task":1}"#);
    let (status, answer) = gui.post("move", r#"{"move":"d4d5"}"#);
    assert_eq!(
        (
            status,
            answer["code"].as_str(),
            answer["args"]["why"].as_str()
        ),
        (400, Some("illegalBecause"), Some("elephantAndRat")),
        "{answer}"
    );
    let (status, answer) = gui.post("judge", r#"{"do":"hint"}"#);
    assert_eq!(
        (status, answer["code"].as_str()),
        (409, Some("noPuzzle")),
        "{answer}"
    );
}

#[test]
fn a_crashing_engine_is_reported_restarted_and_the_game_kept() {
    let gui = Gui::start(&["--engine", &fake("crash")]);
    let (status, s) = gui.post("move", r#"{"move":"g3g4"}"#);
    assert_eq!(status, 200, "{s}");
    // It crashes on go, is restarted and asked once more, crashes again.
    let s = gui.wait_for(20, "the engine to give up", |s| {
        notices(s).contains("did not produce a move")
    });
    let text = notices(&s);
    assert!(
        text.contains("engine 'crash' crashed; it was restarted"),
        "{text}"
    );
    assert_eq!(moves(&s), ["g3g4"], "the game is kept");
    assert!(s["thinking"].is_null());
    // The person can go on: undo, play again (the engine is asked again).
    let (status, s) = gui.post("undo", "");
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["ply"], 0);
}

#[test]
fn a_hanging_engine_is_stopped_and_restarted() {
    let gui = Gui::start(&["--engine", &fake("hang"), "--movetime", "50"]);
    let start = Instant::now();
    let (status, _) = gui.post("move", r#"{"move":"g3g4"}"#);
    assert_eq!(status, 200);
    let s = gui.wait_for(30, "the hang to be noticed", |s| {
        notices(s).contains("did not answer in time")
    });
    assert!(
        start.elapsed() >= Duration::from_secs(5),
        "not before its time"
    );
    assert!(notices(&s).contains("it was restarted"), "{}", notices(&s));
    assert_eq!(moves(&s), ["g3g4"]);
}

#[test]
fn an_illegal_engine_move_is_refused() {
    let gui = Gui::start(&["--engine", &fake("illegal"), "--movetime", "50"]);
    gui.post("move", r#"{"move":"g3g4"}"#);
    let s = gui.wait_for(10, "the refusal", |s| notices(s).contains("illegal move"));
    assert_eq!(moves(&s), ["g3g4"], "the engine's move was not played");
}

#[test]
fn engines_play_each_other_on_the_clock() {
    let greedy = format!("cmd={} arg=greedy name=Greedy", jungle());
    let gui = Gui::start(&[
        "--engine",
        &ours("J"),
        "--engine",
        &greedy,
        "--tc",
        "4s+0.05s",
    ]);
    let (status, s) = gui.post("watch", r#"{"run":true}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["players"], "engines");
    assert_eq!(s["seats"]["red"], "J");
    let s = gui.wait_for(60, "the end of the game", |s| !s["result"].is_null());
    assert_eq!(s["result"]["winner"], "red", "{s}");
    let clocks = s["watch"]["clocks"].as_array().expect("clocks");
    assert!(
        clocks[0].as_i64().is_some_and(|c| c > 0 && c < 4000 + 2000),
        "{s}"
    );
    // The record says who played, and `jungle replay` accepts it.
    let (status, record) = gui.get("/api/record");
    assert_eq!(status, 200);
    assert!(
        record.contains("[Red \"J\"]") && record.contains("[Blue \"Greedy\"]"),
        "{record}"
    );
    assert!(record.contains("[Result \"1-0\"]"), "{record}");
    let path = std::env::temp_dir().join(format!("jungle-gui-{}.txt", std::process::id()));
    std::fs::write(&path, &record).expect("writes");
    let out = std::process::Command::new(jungle())
        .arg("replay")
        .arg(&path)
        .output()
        .expect("replay runs");
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("[red wins"), "{text}");
}

#[test]
fn a_match_record_loads_and_an_unfinished_game_saves() {
    // A game from `jungle match`, opened in the GUI and stepped through.
    let dir = std::env::temp_dir().join(format!("jungle-gui-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let pgn = dir.join("games.txt");
    let status = std::process::Command::new(jungle())
        .args([
            "match",
            "--engine",
            &ours("A"),
            "--engine",
            &ours("B"),
            "--games",
            "2",
        ])
        .args(["--depth", "2", "--maxmoves", "20", "--pgn"])
        .arg(&pgn)
        .output()
        .expect("match runs");
    assert!(status.status.success());
    let text = std::fs::read_to_string(&pgn).expect("record");
    let games = jungle::record::read_records(&text, Default::default()).expect("records");
    let _ = std::fs::remove_dir_all(&dir);

    let gui = Gui::start(&["--engine", &ours("J")]);
    let body = serde_json::json!({ "text": text, "game": 2 }).to_string();
    let (status, s) = gui.post("load", &body);
    assert_eq!(status, 200, "{s}");
    assert_eq!(moves(&s), games[1].moves);
    // Who plays stays the person's choice; the engine does not move by itself on
    // loading (it answers the person's next move).
    assert_eq!(s["players"], "red", "Players changed by loading");
    assert!(s["thinking"].is_null(), "the engine moved on loading");
    assert!(
        notices(&s).contains("loaded game 2 of 2: B (Red) against A (Blue)"),
        "{}",
        notices(&s)
    );
    let (status, s) = gui.post("goto", r#"{"ply":3}"#);
    assert_eq!(status, 200);
    assert_eq!(s["ply"], 3);
    let (_, answer) = gui.post(
        "load",
        &serde_json::json!({ "text": text, "game": 3 }).to_string(),
    );
    assert!(answer["error"]
        .as_str()
        .unwrap_or("")
        .contains("not in the file"));

    // An unfinished game saves with result `*` and loads back, rules and all.
    gui.post(
        "new",
        r#"{"players":"both","rules":{"variant":"jungle-cn","dogSwims":true}}"#,
    );
    gui.post("move", r#"{"move":"f2f3"}"#);
    gui.post("move", r#"{"move":"b8b7"}"#);
    let (_, saved) = gui.get("/api/record");
    assert!(saved.contains("[Result \"*\"]"), "{saved}");
    assert!(saved.contains("1. f2f3 b8b7 *"), "{saved}");
    gui.post("new", r#"{"rules":{"variant":"jungle"}}"#);
    let (status, s) = gui.post("load", &serde_json::json!({ "text": saved }).to_string());
    assert_eq!(status, 200, "{s}");
    assert_eq!(moves(&s), ["f2f3", "b8b7"]);
    assert_eq!(s["variant"], "jungle-cn");
    assert_eq!(s["dogSwims"], true);
}

#[test]
fn hint_and_analysis_come_from_the_engine() {
    let gui = Gui::start(&["--engine", &ours("J"), "--movetime", "200"]);
    // A forced win in two: the hint walks the rat to the den.
    gui.post(
        "new",
        r#"{"players":"red","fen":"l5t/7/3R3/7/7/7/7/7/6L r"}"#,
    );
    let (status, _) = gui.post("hint", "");
    assert_eq!(status, 200);
    let s = gui.wait_for(10, "the hint", |s| !s["hint"].is_null());
    assert_eq!(s["hint"], "d7d8");
    let (status, s) = gui.post("analysis", r#"{"on":true,"multipv":2}"#);
    assert_eq!(status, 200, "{s}");
    let s = gui.wait_for(10, "analysis lines", |s| {
        s["analysis"]["lines"]
            .as_array()
            .is_some_and(|l| l.len() == 2)
    });
    let first = &s["analysis"]["lines"][0];
    assert_eq!(first["pv"][0], "d7d8", "{s}");
    assert!(
        first["score"].as_str().unwrap_or("").starts_with("mate"),
        "{s}"
    );
    // Playing the move moves the analysis along.
    gui.post("move", r#"{"move":"d7d8"}"#);
    let s = gui.wait_for(10, "the reply", |s| s["ply"] == 2);
    assert_eq!(s["result"], serde_json::Value::Null);
    let (status, s) = gui.post("move", r#"{"move":"d8d9"}"#);
    assert_eq!(status, 200);
    assert_eq!(s["result"]["text"], "Red wins: den entered");
    let (status, answer) = gui.post("move", r#"{"move":"a1a2"}"#);
    assert_eq!(status, 409, "{answer}");
}

#[test]
fn events_stream_the_state_live() {
    let gui = Gui::start(&["--engine", &ours("J")]);
    let mut stream = std::net::TcpStream::connect(&gui.addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        gui.addr
    )
    .expect("asks");
    let mut seen = String::new();
    let read_until = |stream: &mut std::net::TcpStream, seen: &mut String, needle: &str| {
        let mut buf = [0u8; 4096];
        let deadline = Instant::now() + Duration::from_secs(10);
        while !seen.contains(needle) {
            assert!(Instant::now() < deadline, "no {needle:?} in {seen}");
            let n = stream.read(&mut buf).expect("reads");
            assert!(n > 0, "stream closed: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    };
    read_until(&mut stream, &mut seen, "event: state");
    assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
    assert!(seen.contains("text/event-stream"), "{seen}");
    // A move made elsewhere shows up on the stream at once.
    gui.post("settings", r#"{"players":"both"}"#);
    gui.post("move", r#"{"move":"a1a2"}"#);
    read_until(&mut stream, &mut seen, "\"lastMove\":\"a1a2\"");
}
