//! The players the site knows, as others see them (docs/accounts.md, "Profiles and
//! leaderboards", "Pairing by rating"): profiles with their ratings and history, a
//! player's games a page at a time and as one record file, leaderboards of
//! established players only, challenges with a rating range, and an anonymous
//! player's games claimed at log-in, with the abuses refused.

mod gui_common;
mod online_common;

use jungle_core::game::Rules;
use online_common::accounts::*;
use online_common::*;
use serde_json::{json, Value};

fn get_json(server: &Server, path: &str) -> (u16, Value) {
    let (status, _, v) = server.request("GET", path, "", &[]);
    (status, v)
}

#[test]
fn a_profile_lists_ratings_history_and_games_and_downloads_them() {
    let dir = TempDir::new("players-profile");
    let server = Server::sqlite(&dir.0);
    let ann = signup(&server, "Ann");
    let bob = signup(&server, "Bob");
    let mut ids = Vec::new();
    block_on(async {
        // Ann resigns the first as red, Bob the second as red.
        ids.push(rated_game(&server, &ann, &bob, 3).await?);
        ids.push(rated_game(&server, &bob, &ann, 4).await?);
        Ok(())
    });
    // A casual game Ann created and nobody joined: listed, not finished.
    let (status, open) = with(&server, &ann, "POST", "/api/games", r#"{"tc":"5m+3s"}"#);
    assert_eq!(status, 201, "{open}");

    // The page's "who is this?": the account with a session, null without (200).
    let (status, v) = with(&server, &ann, "GET", "/api/account/session", "");
    assert_eq!(
        (status, v["account"]["username"].as_str()),
        (200, Some("Ann")),
        "{v}"
    );
    assert_eq!(
        get_json(&server, "/api/account/session"),
        (200, json!({"account": null}))
    );

    // Any case and Unicode form of the name finds the profile.
    let (status, p) = get_json(&server, "/api/players/%EF%BD%81nn");
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["username"], "Ann");
    assert_eq!(p["is_bot"], false);
    let ratings = p["ratings"].as_array().expect("ratings");
    assert_eq!(ratings.len(), 1, "{p}");
    assert_eq!(ratings[0]["category"], "jungle.blitz");
    assert_eq!(ratings[0]["games"], 2);
    assert!(ratings[0]["shown"]
        .as_str()
        .is_some_and(|s| s.ends_with('?')));
    let history = p["history"].as_array().expect("history");
    let games_of_history: Vec<&str> = history.iter().filter_map(|h| h["game"].as_str()).collect();
    assert_eq!(
        games_of_history,
        ids.iter().map(String::as_str).collect::<Vec<_>>()
    );
    // Ann lost the first and won the second.
    let r0 = history[0]["rating"].as_f64().unwrap_or_default();
    let r1 = history[1]["rating"].as_f64().unwrap_or_default();
    assert!(r0 < 1500.0 && r1 > r0, "{r0} {r1}");

    let (status, g) = get_json(&server, "/api/players/Ann/games");
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["more"], false);
    let games = g["games"].as_array().expect("games");
    assert_eq!(games.len(), 3, "{g}");
    // Newest first: the open game, then the second rated game, then the first.
    assert_eq!(games[0]["id"], open["id"]);
    assert_eq!(games[0]["result"], Value::Null);
    assert_eq!(games[0]["opponent"], Value::Null);
    assert_eq!(games[1]["id"].as_str(), Some(ids[1].as_str()));
    assert_eq!(
        (games[1]["side"].as_str(), games[1]["result"].as_str()),
        (Some("blue"), Some("0-1"))
    );
    assert_eq!(games[1]["opponent"], "Bob");
    assert!(
        games[1]["rating_change"].as_f64().is_some_and(|d| d > 0.0),
        "{g}"
    );
    assert_eq!(
        (games[2]["side"].as_str(), games[2]["result"].as_str()),
        (Some("red"), Some("0-1"))
    );
    assert_eq!(games[2]["reason"], "resign");
    assert!(
        games[2]["rating_change"].as_f64().is_some_and(|d| d < 0.0),
        "{g}"
    );
    let (status, g) = get_json(&server, "/api/players/Ann/games?page=1");
    assert_eq!(
        (status, g["games"].as_array().map(Vec::len)),
        (200, Some(0))
    );

    // The download: the finished games, oldest first, named, in the record format.
    let (status, text) = server.get("/api/players/Ann/games.txt");
    assert_eq!(status, 200, "{text}");
    let read = jungle_core::record::read_records(&text, Rules::default()).expect("records");
    assert_eq!(read.len(), 2, "{text}");
    assert_eq!(
        (read[0].tag("Red"), read[0].tag("Blue")),
        (Some("Ann"), Some("Bob"))
    );
    assert_eq!(
        (read[1].tag("Red"), read[1].tag("Blue")),
        (Some("Bob"), Some("Ann"))
    );
    assert!(read.iter().all(|r| r.moves.len() == 2), "{text}");

    // No such player, a name too long, a bad page: clear refusals.
    for path in [
        "/api/players/nobody",
        &format!("/api/players/{}", "x".repeat(300)),
    ] {
        let (status, v) = get_json(&server, path);
        assert_eq!(
            (status, v["code"].as_str()),
            (404, Some("no_player")),
            "{path}"
        );
    }
    let (status, _) = get_json(&server, "/api/players/Ann/games?page=-1");
    assert_eq!(status, 400);
    // A deleted account's profile is gone; its games stay in its opponent's list.
    let (status, v) = with(
        &server,
        &bob,
        "POST",
        "/api/account/delete",
        &json!({"password": PASSWORD}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(get_json(&server, "/api/players/Bob").0, 404);
    let (_, g) = get_json(&server, "/api/players/Ann/games");
    assert_eq!(g["games"][1]["opponent"], "deleted");
    // The page answers a profile's address.
    assert_eq!(server.get("/@/Ann").0, 200);
    assert_eq!(server.get("/leaderboard").0, 200);
}

#[test]
fn the_leaderboard_lists_only_established_players() {
    let dir = TempDir::new("players-leaderboard");
    let server = Server::sqlite(&dir.0);
    let ann = signup(&server, "Ann");
    let bob = signup(&server, "Bob");
    let cal = signup(&server, "Cal");
    // Ann and Bob play until both are established (RD at most 110); Bob resigns
    // two games of three.
    let mut played = 0;
    block_on(async {
        while played < 60 {
            let (red, blue) = if played % 3 == 0 {
                (&ann, &bob)
            } else {
                (&bob, &ann)
            };
            rated_game(&server, red, blue, played as u64).await?;
            played += 1;
            let established =
                |t: &str| rating(&server, t, "jungle.blitz").is_some_and(|r| r.1 <= 110.0);
            if established(&ann) && established(&bob) {
                break;
            }
        }
        // Cal: one game, provisional.
        rated_game(&server, &cal, &ann, 99).await?;
        Ok(())
    });
    assert!(played < 60, "not established after {played} games");
    let (status, v) = get_json(&server, "/api/leaderboard/jungle.blitz");
    assert_eq!(status, 200, "{v}");
    let names: Vec<&str> = v["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter_map(|p| p["username"].as_str())
        .collect();
    assert_eq!(names, ["Ann", "Bob"], "{v}");
    assert_eq!(v["players"][0]["rank"], 1);
    assert!(v["players"][0]["rating"].as_i64() > v["players"][1]["rating"].as_i64());
    // Other categories are empty; a bad one is refused.
    let (status, v) = get_json(&server, "/api/leaderboard/jungle-cn.blitz");
    assert_eq!(
        (status, v["players"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    for bad in ["jungle.fast", "chess.blitz", "jungle", "jungle.blitz.x"] {
        let (status, v) = get_json(&server, &format!("/api/leaderboard/{bad}"));
        assert_eq!(
            (status, v["code"].as_str()),
            (404, Some("no_category")),
            "{bad}"
        );
    }
}

#[test]
fn challenges_with_a_rating_range_pair_players_of_near_strength() {
    let dir = TempDir::new("players-range");
    let server = Server::sqlite(&dir.0);
    let ann = signup(&server, "Ann");
    let bob = signup(&server, "Bob");
    let cal = signup(&server, "Cal");
    let dan = signup(&server, "Dan");
    // Bob loses three to Cal: below 1400.
    block_on(async {
        for seed in 0..3 {
            rated_game(&server, &bob, &cal, seed).await?;
        }
        Ok(())
    });
    let bob_rating = rating(&server, &bob, "jungle.blitz").expect("Bob rated").0;
    assert!(bob_rating < 1400.0, "{bob_rating}");

    let quick = |token: &str, body: Value| {
        with(
            &server,
            token,
            "POST",
            "/api/lobby/quick",
            &body.to_string(),
        )
    };
    // Ann (1500, new) asks for players within 100 points.
    let (status, a) = quick(&ann, json!({"tc": "5m+3s", "rated": true, "range": 100}));
    assert_eq!(status, 201, "{a}");
    let (_, lobby) = get_json(&server, "/api/lobby");
    let row = &lobby["games"][0];
    assert_eq!(row["id"], a["id"]);
    assert_eq!(row["range"], json!([1400, 1600]));
    assert_eq!(row["speed"], "blitz");
    assert_eq!(row["player"], json!({"username": "Ann", "rating": "1500?"}));
    // Bob is out of it: his join is refused, and quick pairing makes him his own.
    let (status, v) = with(
        &server,
        &bob,
        "POST",
        &format!("/api/games/{}/join", a["id"].as_str().unwrap_or_default()),
        "",
    );
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("out_of_range")),
        "{v}"
    );
    let (status, b) = quick(&bob, json!({"tc": "5m+3s", "rated": true}));
    assert_eq!(status, 201, "{b}");
    assert_ne!(b["id"], a["id"]);
    // Dan (1500) within 100 passes Bob's challenge by and takes Ann's.
    let (status, d) = quick(&dan, json!({"tc": "5m+3s", "rated": true, "range": 100}));
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["id"], a["id"]);
    // Bad ranges, and a range without an account.
    for bad in [json!(0), json!(5000), json!(-1), json!("wide")] {
        let (status, v) = quick(&cal, json!({"tc": "5m+3s", "rated": true, "range": bad}));
        assert!(status == 400 || status == 422, "{bad}: {status} {v}");
    }
    let (status, v) = quick(
        &cal,
        json!({"tc": "5m+3s", "rules": "jungle (dog swims, no-capture draw 100 plies, repetition draw at 3 occurrences)", "range": 100}),
    );
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("bad_range")),
        "{v}"
    );
    let (status, v) = server.post(
        "/api/lobby/quick",
        &json!({"tc": "5m+3s", "range": 100}).to_string(),
    );
    assert_eq!(
        (status, v["code"].as_str()),
        (401, Some("login_required")),
        "{v}"
    );
}

#[test]
fn an_anonymous_players_games_are_claimed_at_log_in_and_no_one_elses() {
    let dir = TempDir::new("players-claim");
    let server = Server::sqlite(&dir.0);
    // An anonymous game in play, and one finished.
    let open = server.create("5m+3s", "jungle", "red");
    let token = open["token"].as_str().unwrap_or_default().to_string();
    let id = open["id"].as_str().unwrap_or_default().to_string();
    let joined = server.join(&id);
    let over = server.create("5m+3s", "jungle", "red");
    let over_token = over["token"].as_str().unwrap_or_default().to_string();
    let over_id = over["id"].as_str().unwrap_or_default().to_string();
    block_on(async {
        let mut c = Client::connect(&server.addr, &over_id, Some(&over_token), None).await?;
        c.send(json!({"t": "abort"})).await?;
        c.wait_end().await?;
        Ok(())
    });

    let ann = signup(&server, "Ann");
    let claim = |session: &str, tokens: Value| {
        with(
            &server,
            session,
            "POST",
            "/api/account/claim",
            &json!({ "tokens": tokens }).to_string(),
        )
    };
    let (status, v) = claim(&ann, json!([token, over_token]));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["claimed"], json!([id]), "only the game in play");
    let (_, g) = get_json(&server, "/api/players/Ann/games");
    assert_eq!(g["games"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        (g["games"][0]["id"].as_str(), g["games"][0]["side"].as_str()),
        (Some(id.as_str()), Some("red"))
    );
    // Claimed once: again claims nothing; Bob, holding the same token, takes nothing.
    assert_eq!(claim(&ann, json!([token])).1["claimed"], json!([]));
    let bob = signup(&server, "Bob");
    assert_eq!(claim(&bob, json!([token])).1["claimed"], json!([]));
    assert_eq!(
        get_json(&server, "/api/players/Bob/games").1["games"],
        json!([])
    );
    // The other seat is still the anonymous joiner's to claim.
    let (_, v) = claim(&bob, json!([joined["token"]]));
    assert_eq!(v["claimed"], json!([id]));

    // Without a session, with bad tokens, from another site: refused.
    let (status, v) = server.post(
        "/api/account/claim",
        &json!({"tokens": [token]}).to_string(),
    );
    assert_eq!(
        (status, v["code"].as_str()),
        (401, Some("login_required")),
        "{v}"
    );
    for bad in [json!(["xyz"]), json!(vec!["0"; 51]), json!("x")] {
        let (status, _) = claim(&ann, bad.clone());
        assert!(status == 400 || status == 422, "{bad}: {status}");
    }
    let c = cookie(&ann);
    let (status, _, v) = server.request(
        "POST",
        "/api/account/claim",
        &json!({"tokens": [token]}).to_string(),
        &[("Cookie", &c), ("Origin", "https://evil.example")],
    );
    assert_eq!((status, v["code"].as_str()), (403, Some("origin")), "{v}");
}

#[test]
fn downloads_count_against_the_address_rate() {
    let dir = TempDir::new("players-download-rate");
    let db = dir.0.join("games.sqlite").display().to_string();
    let args: Vec<String> = ["--db", db.as_str(), "--creates-per-minute", "2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let server = Server::start(0, &args);
    // The sign-up spends one of the address's two a minute, the first download the other.
    signup(&server, "Ann");
    let statuses: Vec<u16> = (0..3)
        .map(|_| server.get("/api/players/Ann/games.txt").0)
        .collect();
    assert_eq!(statuses, [200, 429, 429]);
}
