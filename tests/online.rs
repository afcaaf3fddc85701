//! `jungle serve` on loopback: whole games by websocket clients under both rule sets
//! with a spectator, the obvious abuses refused, the crash test (SIGKILL right after
//! acknowledged moves, restart on the same database, reconnection by version), and
//! two nodes on one throwaway PostgreSQL cluster, one killed mid-game. Every test is
//! bounded (a wait is at most 15 s) and stops by itself.

mod gui_common;
mod online_common;

use online_common::*;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// Plays a game with two players and a spectator to its end (or draws it by
/// agreement after `max_plies`); every view ends with the same moves and result,
/// which the record repeats.
async fn whole_game(
    server: &Server,
    rules: &str,
    tc: &str,
    seed: u64,
    max_plies: usize,
) -> Result<Value, String> {
    let red = server.create(tc, rules, "red");
    let id = text(&red["id"]);
    let blue = server.join(&id);
    assert_eq!(blue["side"], "blue");
    let mut r = Client::connect(&server.addr, &id, red["token"].as_str(), None).await?;
    let mut b = Client::connect(&server.addr, &id, blue["token"].as_str(), None).await?;
    let mut watcher = Client::connect(&server.addr, &id, None, None).await?;
    let mut rng = Rng(seed);
    while r.result.is_none() {
        let ply = r.moves.len();
        if ply >= max_plies {
            r.send(json!({"t": "draw_offer"})).await?;
            b.until(|m| m["t"] == "event" && m["e"]["kind"] == "draw_offer")
                .await?;
            b.send(json!({"t": "draw_accept"})).await?;
            break;
        }
        let mover = if ply % 2 == 0 { &mut r } else { &mut b };
        // None: the game is over, its end on the way.
        let Some(mv) = pick(rules, &mover.moves, &mut rng) else {
            break;
        };
        let reply = mover.play(&mv).await?;
        if reply["t"] != "event" {
            return Err(format!("{mv} at ply {ply}: {reply}"));
        }
        let other = if ply % 2 == 0 { &mut b } else { &mut r };
        other.wait_moves(ply + 1).await?;
        if ply % 2 == 1 {
            r.wait_moves(ply + 1).await?;
        }
    }
    let result = r.wait_end().await?;
    b.wait_end().await?;
    watcher.wait_end().await?;
    assert_eq!(r.moves, b.moves);
    assert_eq!(r.moves, watcher.moves);
    assert_eq!(r.result, watcher.result);
    // The spectator saw every event, in order, and no refusal.
    let versions: Vec<u64> = watcher
        .seen
        .iter()
        .filter(|m| m["t"] == "event")
        .filter_map(|m| m["v"].as_u64())
        .collect();
    assert!(
        versions.windows(2).all(|w| w[1] == w[0] + 1),
        "{versions:?}"
    );
    let (status, record) = server.get(&format!("/api/games/{id}/record"));
    assert_eq!(status, 200);
    let games = jungle_core::record::read_records(&record, Default::default())
        .map_err(|e| format!("{e}: {record}"))?;
    assert_eq!(games[0].moves, r.moves, "{record}");
    assert_eq!(games[0].rules.to_string(), rules);
    let replayed = jungle_core::record::replay(&games[0]);
    assert!(replayed.is_ok(), "{record}");
    Ok(result)
}

#[test]
fn whole_games_under_both_rule_sets_with_a_spectator() {
    let dir = TempDir::new("online-games");
    let server = Server::sqlite(&dir.0);
    block_on(async {
        let mut results = Vec::new();
        for (i, rules) in ["jungle", "jungle-cn", "jungle", "jungle-cn"]
            .iter()
            .enumerate()
        {
            let tc = ["1m+0s", "5m+3s", "30m+30s", "3d"][i];
            results.push(whole_game(&server, rules, tc, 7 + i as u64, 200).await?);
        }
        // A draw offered and accepted over the server.
        let agreed = whole_game(&server, "jungle-cn", "10m+0s", 1, 10).await?;
        assert_eq!(agreed["reason"], "agreement", "{agreed}");
        eprintln!("results: {results:?}");
        Ok(())
    });
}

/// The draw by repetition is the core's under `jungle`; `jungle-cn` refuses the same
/// shuffle by its anti-chase rules, naming the rule.
#[test]
fn repetition_draws_under_jungle_and_is_refused_under_jungle_cn() {
    let dir = TempDir::new("online-repetition");
    let server = Server::sqlite(&dir.0);
    block_on(async {
        for rules in ["jungle", "jungle-cn"] {
            let red = server.create("5m+0s", rules, "red");
            let id = text(&red["id"]);
            let blue = server.join(&id);
            let mut r = Client::connect(&server.addr, &id, red["token"].as_str(), None).await?;
            let mut b = Client::connect(&server.addr, &id, blue["token"].as_str(), None).await?;
            let mut refusal = None;
            for (ply, mv) in ["g1g2", "a9a8", "g2g1", "a8a9"]
                .iter()
                .cycle()
                .take(40)
                .enumerate()
            {
                let mover = if ply % 2 == 0 { &mut r } else { &mut b };
                mover.wait_moves(ply).await?;
                let reply = mover.play(mv).await?;
                if reply["t"] == "refused" {
                    refusal = Some(reply);
                    break;
                }
                if mover.result.is_some() || r.result.is_some() {
                    break;
                }
                r.wait_moves(ply + 1).await?;
            }
            if rules == "jungle" {
                let end = r.wait_end().await?;
                assert_eq!(end["reason"], "repetition", "{end}");
                assert_eq!(end["result"], "1/2-1/2");
            } else {
                let refusal = refusal.ok_or("jungle-cn allowed the shuffle")?;
                assert!(
                    refusal["code"] == "chase73" || refusal["code"] == "chase175",
                    "{refusal}"
                );
                assert!(
                    text(&refusal["reason"]).contains("7-3")
                        || text(&refusal["reason"]).contains("17-5")
                );
            }
        }
        Ok(())
    });
}

/// What the rules core says of the game of `moves` under `rules`: the legal moves
/// (none once the game is over, `over`) and the moves only the anti-chase rules forbid,
/// found by trying every pair of squares, and checked against the move generator.
fn moves_by_the_core(rules: &str, moves: &[String], over: bool) -> (Vec<String>, Vec<String>) {
    use jungle_core::board::{Move, Square};
    use jungle_core::game::{Game, GameResult};
    let parsed: jungle_core::game::Rules = rules.parse().expect("rules");
    let mut g = Game::with_rules(jungle_core::board::Position::startpos(), parsed);
    for m in moves {
        g.play_text(m).expect("a stored move is legal");
    }
    if over || g.result() != GameResult::Ongoing {
        return (Vec::new(), Vec::new());
    }
    let squares: Vec<Square> = (0..7)
        .flat_map(|f| (0..9).filter_map(move |r| Square::new(f, r)))
        .collect();
    let (mut legal, mut forbidden) = (Vec::new(), Vec::new());
    for &from in &squares {
        for &to in &squares {
            let m = Move::new(from, to);
            if from == to || g.why_illegal(m).is_some() {
                continue;
            }
            if g.chase_explanation(m).is_some() {
                forbidden.push(m.to_string());
            } else {
                legal.push(m.to_string());
            }
        }
    }
    let mut generated: Vec<String> = g.legal_moves().iter().map(|m| m.to_string()).collect();
    generated.sort();
    legal.sort();
    forbidden.sort();
    assert_eq!(
        generated, legal,
        "the generator and the rules disagree after {moves:?}"
    );
    (legal, forbidden)
}

/// The moves a `board` of the server's messages shows: the legal ones, the forbidden.
fn moves_on_the_board(board: &Value) -> (Vec<String>, Vec<String>) {
    let pairs = |map: &Value, target: fn(&Value) -> String| {
        let mut out: Vec<String> = map
            .as_object()
            .into_iter()
            .flatten()
            .flat_map(|(from, tos)| {
                tos.as_array()
                    .into_iter()
                    .flatten()
                    .map(move |t| format!("{from}{}", target(t)))
            })
            .collect();
        out.sort();
        out
    };
    (
        pairs(&board["legal"], |t| text(&t["to"])),
        pairs(&board["forbidden"], text),
    )
}

/// The page keeps no second game: after every message a viewer gets (its catch-up and
/// each event), the board the server sends holds exactly the rules core's legal moves
/// and anti-chase refusals for that position, under both rule sets; a forbidden move
/// tried is refused naming its rule. Returns how many boards were checked and how many
/// showed a forbidden move.
async fn boards_follow_the_rules(
    server: &Server,
    rules: &str,
    seed: u64,
) -> Result<(usize, usize), String> {
    let red = server.create("30m+30s", rules, "red");
    let id = text(&red["id"]);
    let blue = server.join(&id);
    let mut r = Client::connect(&server.addr, &id, red["token"].as_str(), None).await?;
    let mut b = Client::connect(&server.addr, &id, blue["token"].as_str(), None).await?;
    let mut watcher = Client::connect(&server.addr, &id, None, None).await?;
    let mut rng = Rng(seed);
    // A shuffle first (the lions back and forth), which jungle-cn's 7-3 rule stops.
    let shuffle = ["g1g2", "a9a8", "g2g1", "a8a9"];
    let mut refusals = 0;
    while r.result.is_none() && r.moves.len() < 120 {
        let ply = r.moves.len();
        let mover = if ply % 2 == 0 { &mut r } else { &mut b };
        let scripted = shuffle[ply % 4];
        let (legal, forbidden) = moves_by_the_core(rules, &mover.moves, false);
        let mv = if rules == "jungle-cn" && ply < 16 && legal.contains(&scripted.to_string()) {
            scripted.to_string()
        } else if let Some(f) = forbidden.first() {
            // Tried, refused with its rule, then a legal move instead.
            let reply = mover.play(f).await?;
            if reply["t"] != "refused"
                || !["chase73", "chase175"].contains(&reply["code"].as_str().unwrap_or(""))
            {
                return Err(format!("{f}, forbidden at ply {ply}: {reply}"));
            }
            refusals += 1;
            match pick(rules, &mover.moves, &mut rng) {
                Some(m) => m,
                None => break,
            }
        } else {
            match pick(rules, &mover.moves, &mut rng) {
                Some(m) => m,
                None => break,
            }
        };
        let reply = mover.play(&mv).await?;
        if reply["t"] != "event" {
            return Err(format!("{mv} at ply {ply}: {reply}"));
        }
        let other = if ply % 2 == 0 { &mut b } else { &mut r };
        other.wait_moves(ply + 1).await?;
        watcher.wait_moves(ply + 1).await?;
    }
    r.send(json!({"t": "resign"})).await.ok();
    for c in [&mut r, &mut b, &mut watcher] {
        c.wait_end().await?;
    }
    // Every board each viewer got, against the core at that point of the game.
    let (mut checked, mut with_forbidden) = (0, 0);
    for c in [&r, &b, &watcher] {
        let mut moves: Vec<String> = Vec::new();
        for m in &c.seen {
            match m["t"].as_str() {
                Some("state") => {
                    moves = m["moves"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(text)
                        .collect()
                }
                Some("event") if m["e"]["kind"] == "move" => moves.push(text(&m["e"]["mv"])),
                Some("event") => {}
                _ => continue,
            }
            let over = m["status"] == "over";
            let want = moves_by_the_core(rules, &moves, over);
            let got = moves_on_the_board(&m["board"]);
            if got != want {
                return Err(format!(
                    "{rules}, after {moves:?}: the server's board {got:?}, the rules {want:?}"
                ));
            }
            said_as_the_page_shows_it(rules, &moves, m)?;
            checked += 1;
            with_forbidden += usize::from(!want.1.is_empty());
        }
    }
    if rules == "jungle-cn" && refusals == 0 {
        return Err("jungle-cn: no anti-chase refusal was met".into());
    }
    Ok((checked, with_forbidden))
}

/// What the page shows besides the moves comes with the message `m` (a `state` or an
/// event, after `moves`) too: the side to move, the rules' parts (in a `state`), and
/// the result with its winner and the page's code of its reason (in a finished
/// game's `state` and in the `end` event, and in no other event).
fn said_as_the_page_shows_it(rules: &str, moves: &[String], m: &Value) -> Result<(), String> {
    let to_move = if moves.len() % 2 == 0 { "red" } else { "blue" };
    if m["to_move"] != to_move {
        return Err(format!(
            "after {} moves, {to_move} to move: {m}",
            moves.len()
        ));
    }
    if m["t"] == "state" && (m["variant"] != rules || m["dog_swims"] != false) {
        return Err(format!("{rules}: the state's rules: {m}"));
    }
    let end = &m["e"];
    let has_result = !m["result"].is_null();
    let should = if m["t"] == "state" {
        m["status"] == "over"
    } else {
        end["kind"] == "end"
    };
    if has_result != should {
        return Err(format!(
            "a result where none is due, or none where one is: {m}"
        ));
    }
    let r = &m["result"];
    if m["t"] == "event"
        && has_result
        && (r["result"] != end["result"] || r["reason"] != end["reason"])
    {
        return Err(format!("the end's result twice, differently: {m}"));
    }
    if has_result {
        let (winner, loser) = match r["result"].as_str() {
            Some("1-0") => (json!("red"), json!({"side": "blue"})),
            Some("0-1") => (json!("blue"), json!({"side": "red"})),
            _ => (Value::Null, json!({})),
        };
        let reason = text(&r["reason"]);
        let code = match reason.as_str() {
            "den" | "repetition" => reason.clone(),
            "no_animals" => "noAnimals".into(),
            "no_moves" => "noMoves".into(),
            "no_capture" => "noCapture".into(),
            _ => format!("online.{reason}"),
        };
        if r["winner"] != winner || r["args"] != loser || r["code"] != code.as_str() {
            return Err(format!("the result as the page shows it: {r}"));
        }
    }
    Ok(())
}

#[test]
fn the_board_shows_the_rules_own_moves_after_every_event() {
    let dir = TempDir::new("online-boards");
    let server = Server::sqlite(&dir.0);
    block_on(async {
        for (seed, rules) in [(3, "jungle"), (5, "jungle-cn"), (11, "jungle-cn")] {
            let (checked, forbidden) = boards_follow_the_rules(&server, rules, seed).await?;
            eprintln!("{rules}: {checked} boards checked, {forbidden} with forbidden moves");
            assert!(checked > 30, "{rules}: only {checked} boards");
            if rules == "jungle-cn" {
                assert!(forbidden > 0, "{rules}: no board showed a forbidden move");
            }
        }
        Ok(())
    });
}

#[test]
fn abuses_are_refused_with_nothing_changed() {
    let dir = TempDir::new("online-abuse");
    let server = Server::sqlite(&dir.0);
    block_on(async {
        // Bad requests over HTTP.
        let (s, v) = server.post("/api/games", r#"{"tc":"99m+0s"}"#);
        assert_eq!((s, text(&v["code"])), (400, "bad_tc".into()));
        // The old form without units is refused with its two readings.
        let (s, v) = server.post("/api/games", r#"{"tc":"10+5"}"#);
        assert_eq!((s, text(&v["code"])), (400, "bad_tc".into()));
        assert!(text(&v["reason"]).contains("10m+5s is 10 minutes"), "{v}");
        let (s, v) = server.post("/api/games", r#"{"tc":"5m+0s","rules":"chess"}"#);
        assert_eq!((s, text(&v["code"])), (400, "bad_rules".into()));
        let (s, v) = server.post("/api/games", r#"{"tc":"5m+0s","color":"green"}"#);
        assert_eq!((s, text(&v["code"])), (400, "bad_color".into()));
        let (s, v) = server.post("/api/games", "{not json");
        assert_eq!((s, text(&v["code"])), (400, "malformed".into()));
        let big = format!(r#"{{"tc":"5m+0s","rules":"{}"}}"#, "x".repeat(10_000));
        let (s, _, _) = server.raw(
            format!(
                "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{big}",
                server.addr,
                big.len()
            )
            .as_bytes(),
        );
        assert_eq!(s, 413);
        assert_eq!(server.get("/api/games/nosuchgame").0, 404);
        assert_eq!(server.get("/api/games/..%2f..%2fetc").0, 404);
        let (s, v) = server.post("/api/mine", r#"{"tokens":["short"]}"#);
        assert_eq!((s, text(&v["code"])), (400, "bad_token".into()));

        let red = server.create("5m+0s", "jungle", "red");
        let id = text(&red["id"]);
        let blue = server.join(&id);
        let (s, v) = server.post(&format!("/api/games/{id}/join"), "");
        assert_eq!((s, text(&v["code"])), (409, "seats_taken".into()));
        let mut r = Client::connect(&server.addr, &id, red["token"].as_str(), None).await?;
        let mut b = Client::connect(&server.addr, &id, blue["token"].as_str(), None).await?;
        let mut spectator = Client::connect(&server.addr, &id, None, None).await?;
        // A token of no seat in this game: told so, and only watches.
        let mut stranger = Client::connect(&server.addr, &id, Some(&"0".repeat(32)), None).await?;
        assert_eq!(stranger.replies[0]["code"], "no_seat");
        let v0 = server.state(&id)["v"].clone();
        // The last reply: a refusal with this code, naming the command it refuses
        // (`to`), or nothing when the message could not be read.
        let expect_to = |c: &mut Client, to: Option<&str>, code: &'static str| {
            let last = c.replies.last().cloned().unwrap_or_default();
            assert_eq!(last["code"], code, "{last}");
            assert_eq!(last["to"].as_str(), to, "{last}");
        };
        let expect = |c: &mut Client, code: &'static str| expect_to(c, Some("move"), code);
        // Moving for the other side, out of turn, from a spectator, illegal, malformed.
        b.play("a9a8").await?;
        expect(&mut b, "out_of_turn");
        spectator.play("g1g2").await?;
        expect(&mut spectator, "no_seat");
        stranger.play("g1g2").await?;
        expect(&mut stranger, "no_seat");
        r.play("g1g3").await?;
        expect(&mut r, "illegalBecause");
        r.play("zz9").await?;
        expect(&mut r, "malformed_move");
        r.send(json!({"t": "move", "ply": 5, "mv": "g1g2"})).await?;
        r.until(|m| m["t"] == "refused").await?;
        expect(&mut r, "bad_ply");
        r.send(json!({"t": "teleport"})).await?;
        r.until(|m| m["t"] == "refused").await?;
        expect_to(&mut r, None, "malformed");
        r.send_raw(Message::text("[1,2,3]")).await?;
        r.until(|m| m["t"] == "refused").await?;
        expect_to(&mut r, None, "malformed");
        r.send(json!({"t": "claim", "draw": false})).await?;
        r.until(|m| m["t"] == "refused").await?;
        expect_to(&mut r, Some("claim"), "not_gone");
        assert_eq!(server.state(&id)["v"], v0);
        // A stale ply: played already, then sent again (acknowledged, no effect) and
        // with another move (refused).
        r.play("g1g2").await?;
        let v1 = server.state(&id)["v"].clone();
        r.send(json!({"t": "move", "ply": 0, "mv": "g1g2"})).await?;
        let ack = r.until(|m| m["t"] == "ack" || m["t"] == "refused").await?;
        assert_eq!(ack["t"], "ack", "{ack}");
        r.send(json!({"t": "move", "ply": 0, "mv": "a1a2"})).await?;
        let refused = r.until(|m| m["t"] == "refused").await?;
        assert_eq!(
            (&refused["code"], &refused["to"]),
            (&json!("ply_played"), &json!("move"))
        );
        assert_eq!(server.state(&id)["v"], v1);
        // A huge message closes the connection; the game is unchanged.
        let huge = json!({"t": "move", "ply": 1, "mv": "x".repeat(100_000)});
        let _ = b.send(huge).await;
        assert!(b.until(|_| false).await.is_err());
        assert_eq!(server.state(&id)["v"], v1);
        // After the end nothing moves.
        r.send(json!({"t": "resign"})).await?;
        r.wait_end().await?;
        let mut b = Client::connect(&server.addr, &id, blue["token"].as_str(), None).await?;
        b.play("a9a8").await?;
        expect(&mut b, "game_over");
        // A websocket from another site's page is refused.
        let req = format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            server.addr
        );
        assert_eq!(server.raw(req.as_bytes()).0, 403);
        // "Your games" finds the game by the token; the record is downloadable.
        let (s, mine) = server.post("/api/mine", &json!({"tokens": [red["token"]]}).to_string());
        assert_eq!(s, 200);
        assert_eq!(mine["games"][0]["id"], id.as_str());
        assert_eq!(mine["games"][0]["side"], "red");
        // A token sent twice (a rematch keeps its tokens) lists its game once.
        let twice = json!({"tokens": [red["token"], red["token"]]}).to_string();
        let (s, mine) = server.post("/api/mine", &twice);
        assert_eq!(s, 200);
        assert_eq!(mine["games"].as_array().map(Vec::len), Some(1), "{mine}");
        let (s, rec) = server.get(&format!("/api/games/{id}/record"));
        assert_eq!(s, 200);
        assert!(
            rec.contains("[Result \"0-1\"]") && rec.contains("resignation"),
            "{rec}"
        );
        Ok(())
    });
    // A flood of creates from one address meets the rate limit.
    let limited = Server::start(
        0,
        &[
            "--db".into(),
            dir.0.join("flood.sqlite").display().to_string(),
            "--creates-per-minute".into(),
            "5".into(),
        ],
    );
    let codes: Vec<u16> = (0..8)
        .map(|_| limited.post("/api/games", r#"{"tc":"5m+0s"}"#).0)
        .collect();
    assert_eq!(&codes[..5], &[201; 5]);
    assert!(codes[5..].iter().all(|&c| c == 429), "{codes:?}");
}

/// The online back end's files (backend.js and its modules under /online/) are served
/// as built in, as the page's own files are: JavaScript the browser may not sniff,
/// asked again each time.
#[test]
fn the_online_back_end_is_served_as_javascript() {
    let dir = TempDir::new("online-backend-files");
    let server = Server::sqlite(&dir.0);
    let get_with_headers = |path: &str| {
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.addr
        );
        server.raw(req.as_bytes())
    };
    for (path, body) in jungle_online::server::BACKEND_FILES {
        let (status, head, text) = get_with_headers(path);
        assert_eq!(status, 200, "{path}");
        let head = head.to_ascii_lowercase();
        for header in [
            "content-type: text/javascript; charset=utf-8",
            "cache-control: no-cache",
            "x-content-type-options: nosniff",
        ] {
            assert!(head.contains(header), "{path}: {head}");
        }
        assert_eq!(text, body, "{path}");
    }
    let (status, _, _) = get_with_headers("/online/nothing.js");
    assert_eq!(status, 404);
}

#[test]
fn lobby_quick_pairing() {
    let dir = TempDir::new("online-lobby");
    let server = Server::sqlite(&dir.0);
    let (s, first) = server.post("/api/lobby/quick", r#"{"tc":"3m+2s","rules":"jungle-cn"}"#);
    assert_eq!(s, 201, "{first}");
    let (_, lobby) = server.get("/api/lobby");
    assert!(
        lobby.contains(first["id"].as_str().unwrap_or("?")),
        "{lobby}"
    );
    // Another clock does not pair; the same one does, with the other side.
    let (s, other) = server.post("/api/lobby/quick", r#"{"tc":"5m+0s","rules":"jungle-cn"}"#);
    assert_eq!(s, 201);
    assert_ne!(other["id"], first["id"]);
    let (s, second) = server.post("/api/lobby/quick", r#"{"tc":"3m+2s","rules":"jungle-cn"}"#);
    assert_eq!(s, 200, "{second}");
    assert_eq!(second["id"], first["id"]);
    assert_ne!(second["side"], first["side"]);
    let id = text(&first["id"]);
    assert_eq!(server.state(&id)["status"], "playing");
    let (_, lobby) = server.get("/api/lobby");
    assert!(!lobby.contains(&id), "{lobby}");
}

/// The crash test: games in play, the server killed with SIGKILL right after
/// acknowledging moves (and with moves in flight), restarted on the same database;
/// the clients reconnect by version and resend what was in flight. Every acknowledged
/// move is there, none doubled.
#[test]
fn crash_and_restart_lose_and_double_nothing() {
    let games: usize = std::env::var("JUNGLE_CRASH_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let rounds: usize = std::env::var("JUNGLE_CRASH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let dir = TempDir::new("online-crash");
    let args = sqlite_args(&dir.0);
    let mut server = Server::start(0, &args);
    let port = server.port();
    block_on(async move {
        let mut players: Vec<[Client; 2]> = Vec::new();
        for i in 0..games {
            let red = server.create(
                "30m+30s",
                if i % 2 == 0 { "jungle" } else { "jungle-cn" },
                "red",
            );
            let id = text(&red["id"]);
            let blue = server.join(&id);
            let r = Client::connect(&server.addr, &id, red["token"].as_str(), None).await?;
            let b = Client::connect(&server.addr, &id, blue["token"].as_str(), None).await?;
            players.push([r, b]);
        }
        let rules = |i: usize| if i % 2 == 0 { "jungle" } else { "jungle-cn" };
        let mut acked: Vec<Vec<String>> = vec![Vec::new(); games];
        let mut in_flight: Vec<Option<(usize, String)>> = vec![None; games];
        let mut rng = Rng(12345);
        // In-flight moves found stored after the restart, and those sent again.
        let (mut found, mut resent) = (0, 0);
        for round in 0..rounds {
            // Two plies acknowledged in every game still going.
            for (i, pair) in players.iter_mut().enumerate() {
                for _ in 0..2 {
                    let ply = pair[0].moves.len();
                    let Some(mv) = pick_random(rules(i), &pair[0].moves, &mut rng) else {
                        break;
                    };
                    let reply = pair[ply % 2].play(&mv).await?;
                    if reply["t"] != "event" {
                        return Err(format!("game {i} ply {ply}: {reply}"));
                    }
                    acked[i].push(mv);
                    pair[(ply + 1) % 2].wait_moves(ply + 1).await?;
                    pair[ply % 2].wait_moves(ply + 1).await?;
                }
            }
            // Moves in flight in half the games, then SIGKILL at once.
            for (i, pair) in players
                .iter_mut()
                .enumerate()
                .filter(|(i, _)| (i + round) % 2 == 0)
            {
                let ply = pair[0].moves.len();
                if let Some(mv) = pick_random(rules(i), &pair[0].moves, &mut rng) {
                    pair[ply % 2]
                        .send(json!({"t": "move", "ply": ply, "mv": mv, "think_ms": 0}))
                        .await?;
                    in_flight[i] = Some((ply, mv));
                }
            }
            server.kill();
            server = Server::start(port, &args);
            // Reconnect by version; what was in flight is sent again.
            for (i, pair) in players.iter_mut().enumerate() {
                for c in pair.iter_mut() {
                    c.reconnect(&server.addr).await?;
                }
                assert_eq!(pair[0].moves, pair[1].moves);
                assert!(
                    pair[0].moves.starts_with(&acked[i]),
                    "game {i}: acknowledged moves lost"
                );
                if let Some((ply, mv)) = in_flight[i].take() {
                    let c = &mut pair[ply % 2];
                    if c.moves.len() == ply + 1 {
                        found += 1;
                        // Stored before the crash: the resend is acknowledged, no effect.
                        c.send(json!({"t": "move", "ply": ply, "mv": mv})).await?;
                        let ack = c.until(|m| m["t"] == "ack" || m["t"] == "refused").await?;
                        assert_eq!(ack["t"], "ack", "{ack}");
                    } else {
                        resent += 1;
                        let reply = c.play(&mv).await?;
                        assert_eq!(reply["t"], "event", "{reply}");
                    }
                    pair[0].wait_moves(ply + 1).await?;
                    pair[1].wait_moves(ply + 1).await?;
                    acked[i] = pair[0].moves.clone();
                }
                // The database has exactly the moves the clients saw (and the end of
                // a game that just ended, which the client reads now).
                let state = server.state(&pair[0].id);
                while pair[0].v < state["v"].as_u64().unwrap_or(0) {
                    pair[0].next().await?;
                }
                let stored: Vec<String> = state["moves"]
                    .as_array()
                    .map(|a| a.iter().map(text).collect())
                    .unwrap_or_default();
                assert_eq!(stored, pair[0].moves, "game {i}");
                assert_eq!(state["v"].as_u64(), Some(pair[0].v), "game {i}");
            }
        }
        let plies: usize = acked.iter().map(Vec::len).sum();
        eprintln!(
            "{rounds} crashes, {games} games, {plies} plies stored; of the moves in flight at a crash {found} were stored, {resent} sent again"
        );
        assert!(found + resent > 0);
        Ok(())
    });
}

/// Two nodes on one PostgreSQL: the players of a game on different nodes, a spectator
/// on a third connection; the first node killed mid-game; the game finishes on the
/// second with nothing lost.
#[test]
fn two_nodes_on_postgresql() {
    let Some(pg) = Postgres::start() else {
        eprintln!("SKIPPED: PostgreSQL is not installed");
        return;
    };
    let args = |node: &str| -> Vec<String> {
        vec![
            "--database".into(),
            pg.url.clone(),
            "--node".into(),
            node.into(),
            "--creates-per-minute".into(),
            "1000".into(),
        ]
    };
    let mut a = Server::start(0, &args("a"));
    let b = Server::start(0, &args("b"));
    block_on(async {
        for (n, rules) in ["jungle", "jungle-cn"].iter().enumerate() {
            let red = a.create("10m+5s", rules, "red");
            let id = text(&red["id"]);
            let blue = b.join(&id);
            let mut r = Client::connect(&a.addr, &id, red["token"].as_str(), None).await?;
            let mut bl = Client::connect(&b.addr, &id, blue["token"].as_str(), None).await?;
            let mut watcher = Client::connect(&b.addr, &id, None, None).await?;
            let mut rng = Rng(99 + n as u64);
            let mut ply = 0;
            while r.result.is_none() && ply < 60 {
                if n == 0 && ply == 10 {
                    // Node a dies; Red reconnects to node b by version.
                    a.kill();
                    r.reconnect(&b.addr).await?;
                }
                let mover = if ply % 2 == 0 { &mut r } else { &mut bl };
                let Some(mv) = pick(rules, &mover.moves, &mut rng) else {
                    break;
                };
                let reply = mover.play(&mv).await?;
                if reply["t"] != "event" {
                    return Err(format!("{mv}: {reply}"));
                }
                ply += 1;
                r.wait_moves(ply).await?;
                bl.wait_moves(ply).await?;
                watcher.wait_moves(ply).await?;
            }
            if r.result.is_none() {
                bl.send(json!({"t": "resign"})).await?;
            }
            r.wait_end().await?;
            watcher.wait_end().await?;
            assert_eq!(r.moves, bl.moves);
            assert_eq!(r.moves, watcher.moves);
            let state = b.state(&id);
            let stored: Vec<String> = state["moves"]
                .as_array()
                .map(|a| a.iter().map(text).collect())
                .unwrap_or_default();
            assert_eq!(stored, r.moves);
            assert_eq!(state["status"], "over");
            if n == 0 {
                // Start a again for the second game.
                a = Server::start(0, &args("a"));
            }
        }
        Ok(())
    });
}

/// The service down for 4.5 s: on restart each running game gets a `downtime` event,
/// and the time down runs no one's clock (docs/online.md, "Restarts and downtime").
#[test]
fn downtime_runs_no_clock() {
    let dir = TempDir::new("online-downtime");
    let args = sqlite_args(&dir.0);
    let mut server = Server::start(0, &args);
    let port = server.port();
    block_on(async move {
        let red = server.create("3m+0s", "jungle", "red");
        let id = text(&red["id"]);
        let blue = server.join(&id);
        let mut r = Client::connect(&server.addr, &id, red["token"].as_str(), None).await?;
        let mut b = Client::connect(&server.addr, &id, blue["token"].as_str(), None).await?;
        r.play("g1g2").await?;
        b.wait_moves(1).await?;
        b.play("a9a8").await?;
        // Red's clock runs from here; a heartbeat lands within a second.
        std::thread::sleep(std::time::Duration::from_millis(1_200));
        server.kill();
        std::thread::sleep(std::time::Duration::from_millis(4_500));
        server = Server::start(port, &args);
        r.reconnect(&server.addr).await?;
        // The catch-up (read up to `welcome`) brings the downtime event.
        let down = r
            .seen
            .iter()
            .find(|m| m["t"] == "event" && m["e"]["kind"] == "downtime")
            .cloned()
            .ok_or("no downtime event")?;
        let ms = down["e"]["ms"].as_i64().unwrap_or(0);
        assert!((3_000..10_000).contains(&ms), "{down}");
        // 180 s less what ran before the crash and during the restart (a few
        // seconds at most), not the 4.5 s down.
        let state = server.state(&id);
        let left = state["clock"]["red"].as_i64().unwrap_or(0);
        assert_eq!(state["clock"]["running"], "red");
        assert!(left > 180_000 - 4_000, "{state}");
        let ran = 180_000 - left;
        eprintln!("down {ms} ms; Red's clock ran {ran} ms over the crash and restart");
        Ok(())
    });
}

/// A rematch: both ask, the server makes a new game with the same clock and rules and
/// the seats swapped, held by the same tokens.
#[test]
fn rematch_swaps_the_seats_for_the_same_tokens() {
    let dir = TempDir::new("online-rematch");
    let server = Server::sqlite(&dir.0);
    block_on(async {
        let red = server.create("3m+2s", "jungle-cn", "red");
        let id = text(&red["id"]);
        let blue = server.join(&id);
        let mut r = Client::connect(&server.addr, &id, red["token"].as_str(), None).await?;
        let mut b = Client::connect(&server.addr, &id, blue["token"].as_str(), None).await?;
        r.send(json!({"t": "rematch"})).await?;
        let early = r.until(|m| m["t"] == "refused").await?;
        assert_eq!(early["code"], "not_over");
        r.send(json!({"t": "abort"})).await?;
        r.wait_end().await?;
        r.send(json!({"t": "rematch"})).await?;
        b.until(|m| m["t"] == "event" && m["e"]["kind"] == "rematch_offer")
            .await?;
        b.send(json!({"t": "rematch"})).await?;
        let made = r
            .until(|m| m["t"] == "event" && m["e"]["kind"] == "rematch")
            .await?;
        let next = text(&made["e"]["game"]);
        assert!(!next.is_empty() && next != id, "{made}");
        let state = server.state(&next);
        assert_eq!(state["tc"], "3m+2s");
        assert_eq!(state["rules"], "jungle-cn");
        assert_eq!(state["status"], "playing");
        // Red's token holds Blue in the new game, and Blue's Red.
        let r2 = Client::connect(&server.addr, &next, red["token"].as_str(), None).await?;
        let b2 = Client::connect(&server.addr, &next, blue["token"].as_str(), None).await?;
        let you = |c: &Client| {
            c.seen
                .iter()
                .find(|m| m["t"] == "welcome")
                .map(|m| m["you"].clone())
        };
        assert_eq!(you(&r2), Some(json!("blue")));
        assert_eq!(you(&b2), Some(json!("red")));
        Ok(())
    });
}
