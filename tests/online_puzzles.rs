//! Puzzles rated by people under `jungle serve` (docs/puzzles.md, "Ratings from
//! people"): a logged-in player's attempt rates the player and the puzzle once (the
//! first attempt; later ones casual, racing ones too), the next puzzle is near the
//! player's puzzle rating and not one attempted, the obvious abuses are refused, and
//! `jungle puzzles ratings` writes what the server learnt into a puzzle file and
//! reads its own file back. On SQLite and on a throwaway PostgreSQL cluster.

mod gui_common;
mod online_common;

use jungle_core::puzzle::{read_puzzles, Puzzle};
use online_common::accounts::signup;
use online_common::*;
use serde_json::{json, Value};
use std::process::Command;

/// A request with the session's cookie (and the site's own `Origin`, as a page sends).
fn with(server: &Server, token: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let c = format!("jungle_session={token}");
    let own = format!("http://{}", server.addr);
    let (status, _, v) = server.request(method, path, body, &[("Cookie", &c), ("Origin", &own)]);
    (status, v)
}

fn attempt(server: &Server, token: &str, id: &str, solved: bool) -> (u16, Value) {
    let body = json!({"id": id, "solved": solved}).to_string();
    with(server, token, "POST", "/api/puzzles/attempt", &body)
}

fn next(server: &Server, token: &str, query: &str) -> Value {
    let (status, v) = with(
        server,
        token,
        "GET",
        &format!("/api/puzzles/next{query}"),
        "",
    );
    assert_eq!(status, 200, "{v}");
    v
}

fn shipped(id: &str) -> &'static Puzzle {
    jungle_app::puzzles::shipped()
        .iter()
        .find(|p| p.id == id)
        .expect("a shipped puzzle")
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

/// The player's puzzle rating as `/api/account/me` lists it: (rating, games).
fn puzzle_rating(server: &Server, token: &str) -> Option<(f64, i64)> {
    let (status, v) = with(server, token, "GET", "/api/account/me", "");
    assert_eq!(status, 200, "{v}");
    v["ratings"].as_array()?.iter().find_map(|r| {
        (r["category"] == "puzzle").then(|| (f(&r["rating"]), r["games"].as_i64().unwrap_or(-1)))
    })
}

#[test]
fn a_logged_in_attempt_rates_the_player_and_the_puzzle_once_on_sqlite_and_postgresql() {
    let dir = TempDir::new("puzzles-rated");
    let server = Server::sqlite(&dir.0);
    let url = format!("sqlite:{}", dir.0.join("games.sqlite").display());
    rated_once(&server, &url, &dir);
    drop(server);
    match Postgres::start() {
        Some(pg) => {
            let mut args = sqlite_args(&dir.0);
            args.extend(["--database".to_string(), pg.url.clone()]);
            let server = Server::start(0, &args);
            rated_once(&server, &pg.url, &dir);
        }
        None => eprintln!("SKIPPED on PostgreSQL: not installed"),
    }
}

fn rated_once(server: &Server, url: &str, dir: &TempDir) {
    let ann = signup(server, "Ann");
    let first = next(server, &ann, "");
    assert_eq!(f(&first["player"]["rating"]), 1500.0, "{first}");
    assert_eq!(first["player"]["shown"], "1500?");
    assert_eq!(
        first["total"].as_u64(),
        Some(jungle_app::puzzles::shipped().len() as u64)
    );
    let id = first["puzzle"]["id"].as_str().expect("an id").to_string();
    let start = f64::from(shipped(&id).rating);
    // Not yet attempted: the puzzle's rating is the shipped one.
    assert_eq!(f(&first["puzzle"]["rating"]), start);

    let (status, rated) = attempt(server, &ann, &id, true);
    assert_eq!(status, 200, "{rated}");
    assert_eq!(rated["rated"], true);
    let player = f(&rated["player"]["rating"]);
    let puzzle = f(&rated["puzzle"]["rating"]);
    assert!(player > 1500.0, "{rated}");
    assert!(puzzle < start, "{rated}");
    assert!(f(&rated["puzzle"]["rd"]) < 200.0, "{rated}");
    assert_eq!(rated["puzzle"]["attempts"], 1);
    assert_eq!(
        rated["change"].as_i64(),
        Some((player.round() - 1500.0) as i64)
    );
    assert_eq!(puzzle_rating(server, &ann), Some((player, 1)));

    // The same puzzle again (a replay, or tried again): casual, nothing moves.
    for solved in [false, true] {
        let (status, again) = attempt(server, &ann, &id, solved);
        assert_eq!(status, 200, "{again}");
        assert_eq!(again["rated"], false, "{again}");
        assert_eq!(again["change"], 0);
        assert_eq!(f(&again["player"]["rating"]), player);
        assert_eq!(f(&again["puzzle"]["rating"]), puzzle);
        assert_eq!(again["puzzle"]["attempts"], 1);
    }
    assert_eq!(puzzle_rating(server, &ann), Some((player, 1)));
    // The same attempt sent on and on: answered, kept only up to ATTEMPTS_KEPT.
    let kept = jungle_online::store::ATTEMPTS_KEPT as usize;
    for n in 4..=kept + 3 {
        let (status, again) = attempt(server, &ann, &id, true);
        assert_eq!(
            (status, again["rated"].as_bool()),
            (200, Some(false)),
            "{again}"
        );
        assert_eq!(
            again["recorded"].as_bool(),
            Some(n <= kept),
            "attempt {n}: {again}"
        );
    }

    // Another player's first attempt moves the puzzle again; the server's rating is
    // what the next puzzle request tells.
    let bob = signup(server, "Bob");
    let (_, failed) = attempt(server, &bob, &id, false);
    assert_eq!(failed["rated"], true);
    assert!(f(&failed["player"]["rating"]) < 1500.0, "{failed}");
    let puzzle = f(&failed["puzzle"]["rating"]);
    assert!(puzzle > f(&rated["puzzle"]["rating"]), "{failed}");
    assert_eq!(failed["puzzle"]["attempts"], 2);
    let asked = next(server, &bob, &format!("?id={id}"));
    assert_eq!(asked["puzzle"]["id"].as_str(), Some(id.as_str()));
    assert_eq!(
        asked["puzzle"]["rating"].as_f64(),
        Some(puzzle.round()),
        "{asked}"
    );

    abuses_are_refused(server, &ann, &id);
    racing_first_attempts_rate_one(server);
    written_back(url, &id, puzzle, dir);
}

/// Ratings in the request, a puzzle that does not exist, no session, another site's
/// page: refused, and nothing rated.
fn abuses_are_refused(server: &Server, token: &str, id: &str) {
    let before = puzzle_rating(server, token);
    let other = jungle_app::puzzles::shipped()
        .iter()
        .find(|p| p.id != id)
        .expect("another puzzle");
    for body in [
        json!({"id": other.id, "solved": true, "rating": 3000}),
        json!({"id": other.id, "solved": true, "player": {"rating": 3000, "rd": 45}}),
        json!({"id": other.id, "solved": true, "puzzle": {"rating": 100}}),
        json!({"id": other.id, "solved": "yes"}),
    ] {
        let (status, v) = with(
            server,
            token,
            "POST",
            "/api/puzzles/attempt",
            &body.to_string(),
        );
        assert_eq!(
            (status, v["code"].as_str()),
            (400, Some("malformed")),
            "{body}: {v}"
        );
    }
    let (status, v) = attempt(server, token, "zzzzzzz", true);
    assert_eq!(
        (status, v["code"].as_str()),
        (404, Some("no_puzzle")),
        "{v}"
    );
    let body = json!({"id": other.id, "solved": true}).to_string();
    let (status, _, v) = server.request("POST", "/api/puzzles/attempt", &body, &[]);
    assert_eq!(
        (status, v["code"].as_str()),
        (401, Some("login_required")),
        "{v}"
    );
    let (status, _, v) = server.request("GET", "/api/puzzles/next", "", &[]);
    assert_eq!(
        (status, v["code"].as_str()),
        (401, Some("login_required")),
        "{v}"
    );
    let c = format!("jungle_session={token}");
    let (status, _, v) = server.request(
        "POST",
        "/api/puzzles/attempt",
        &body,
        &[("Cookie", &c), ("Origin", "https://evil.example")],
    );
    assert_eq!((status, v["code"].as_str()), (403, Some("origin")), "{v}");
    let (status, v) = with(server, token, "GET", "/api/puzzles/next?theme=chess", "");
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("puzzle_theme")),
        "{v}"
    );
    let (status, v) = with(server, token, "GET", "/api/puzzles/next?rating=3000", "");
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("malformed")),
        "{v}"
    );
    let (status, v) = with(server, token, "GET", "/api/puzzles/next?id=nope", "");
    assert_eq!(
        (status, v["code"].as_str()),
        (404, Some("no_puzzle")),
        "{v}"
    );
    assert_eq!(puzzle_rating(server, token), before);
    // The other puzzle was never attempted: its rating is still the shipped one.
    let asked = next(server, token, &format!("?id={}", other.id));
    assert_eq!(
        asked["puzzle"]["rating"].as_u64(),
        Some(u64::from(other.rating))
    );
}

/// Eight attempts of one account at one puzzle at once: exactly one is rated.
fn racing_first_attempts_rate_one(server: &Server) {
    let cy = signup(server, "Cy");
    let id = jungle_app::puzzles::shipped()[7].id.clone();
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (cy, id) = (&cy, &id);
                s.spawn(move || attempt(server, cy, id, i % 2 == 0))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a request"))
            .collect()
    });
    for (status, v) in &answers {
        assert_eq!(*status, 200, "{v}");
    }
    let rated = answers.iter().filter(|(_, v)| v["rated"] == true).count();
    assert_eq!(rated, 1, "{answers:?}");
    assert_eq!(puzzle_rating(server, &cy).map(|r| r.1), Some(1));
}

/// `jungle puzzles ratings`: the learnt rating in the file (with its note), every
/// other puzzle as shipped; the file written back again from itself is the same; a
/// minimum of rated attempts not reached leaves the shipped rating.
fn written_back(url: &str, id: &str, learnt: f64, dir: &TempDir) {
    let run = |out: &str, extra: &[&str]| {
        let out = dir.0.join(out);
        let status = Command::new(jungle())
            .args(["puzzles", "ratings", "--database", url, "--out"])
            .arg(&out)
            .args(extra)
            .status()
            .expect("jungle puzzles ratings");
        assert!(status.success());
        std::fs::read_to_string(&out).expect("the file written")
    };
    let text = run("learnt.txt", &[]);
    let puzzles = read_puzzles(&text).expect("the file reads");
    let shipped = jungle_app::puzzles::shipped();
    assert_eq!(puzzles.len(), shipped.len());
    for (p, s) in puzzles.iter().zip(shipped) {
        if p.id == id {
            assert_eq!(f64::from(p.rating), learnt.round());
            assert_eq!(
                Puzzle {
                    rating: s.rating,
                    ..p.clone()
                },
                *s
            );
        } else if p.id != shipped[7].id {
            assert_eq!(p, s);
        }
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with(&format!("# learnt {id}: rating"))
                && l.ends_with(", 2 rated attempts")),
        "{text}"
    );
    assert!(
        text.contains("# Ratings learnt from people: 2 puzzles"),
        "{text}"
    );
    let path = dir.0.join("learnt.txt").display().to_string();
    assert_eq!(run("again.txt", &["--puzzles", &path]), text);
    let strict = read_puzzles(&run("strict.txt", &["--min-attempts", "3"])).expect("reads");
    assert_eq!(strict, shipped);
    // A database URL that is none: one clear error.
    let out = Command::new(jungle())
        .args(["puzzles", "ratings", "--database", "mysql://x", "--out"])
        .arg(dir.0.join("never.txt"))
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown database URL"));
}

#[test]
fn the_next_puzzle_is_near_the_players_rating_and_not_one_attempted() {
    let dir = TempDir::new("puzzles-next");
    let server = Server::sqlite(&dir.0);
    let dee = signup(&server, "Dee");
    let set = jungle_app::puzzles::shipped();
    let mut attempted: Vec<String> = Vec::new();
    for round in 0..12 {
        let v = next(&server, &dee, "");
        let rating = f(&v["player"]["rating"]);
        let id = v["puzzle"]["id"].as_str().expect("an id").to_string();
        assert!(!attempted.contains(&id), "round {round}: {id} again");
        // Within the narrowest window (±100, doubling) that holds a puzzle not yet
        // attempted, by the server's ratings.
        let learnt = |p: &Puzzle| -> f64 {
            if attempted.contains(&p.id) {
                f64::INFINITY
            } else {
                f64::from(p.rating)
            }
        };
        let nearest = set
            .iter()
            .map(|p| (learnt(p) - rating).abs())
            .fold(f64::INFINITY, f64::min);
        let mut window = 100.0;
        while window < nearest {
            window *= 2.0;
        }
        let distance = (f(&v["puzzle"]["rating"]) - rating).abs();
        assert!(
            distance <= window,
            "round {round}: {distance} > {window} ({v})"
        );
        // Solving every one: the rating climbs, and the puzzles with it.
        let (status, a) = attempt(&server, &dee, &id, true);
        assert_eq!((status, a["rated"].as_bool()), (200, Some(true)), "{a}");
        attempted.push(id);
    }
    let climbed = f(&next(&server, &dee, "")["player"]["rating"]);
    assert!(climbed > 1700.0, "{climbed}");
    // A theme: a puzzle of it.
    let jump = next(&server, &dee, "?theme=jump");
    assert!(jump["puzzle"]["themes"]
        .as_array()
        .is_some_and(|t| t.contains(&"jump".into())));
}
