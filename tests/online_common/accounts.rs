//! Accounts for the tests of `jungle serve` (docs/accounts.md): signing up, requests
//! with a session's cookie, an account's ratings, and rated games played over
//! websockets.

use super::*;
use serde_json::{json, Value};

pub const PASSWORD: &str = "correct horse battery";

/// Signs up `name`; returns its session token.
pub fn signup(server: &Server, name: &str) -> String {
    let body = json!({"username": name, "password": PASSWORD}).to_string();
    let (status, head, v) = server.request("POST", "/api/account/signup", &body, &[]);
    assert_eq!(status, 201, "{v}");
    session_cookie(&head).expect("a session cookie")
}

pub fn cookie(token: &str) -> String {
    format!("jungle_session={token}")
}

/// A request with the session's cookie.
pub fn with(server: &Server, token: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let c = cookie(token);
    let (status, _, v) = server.request(method, path, body, &[("Cookie", &c)]);
    (status, v)
}

pub fn me(server: &Server, token: &str) -> (u16, Value) {
    with(server, token, "GET", "/api/account/me", "")
}

/// The account's rating in `category`: (rating, rd, games), if it has one.
pub fn rating(server: &Server, token: &str, category: &str) -> Option<(f64, f64, i64)> {
    let (status, v) = me(server, token);
    assert_eq!(status, 200, "{v}");
    v["ratings"].as_array()?.iter().find_map(|r| {
        (r["category"] == category).then(|| {
            (
                r["rating"].as_f64().unwrap_or_default(),
                r["rd"].as_f64().unwrap_or_default(),
                r["games"].as_i64().unwrap_or_default(),
            )
        })
    })
}

pub fn login(server: &Server, name: &str, password: &str) -> (u16, String, Value) {
    let body = json!({"username": name, "password": password}).to_string();
    server.request("POST", "/api/account/login", &body, &[])
}

/// A rated game (5m+3s) that the session `red` creates as red and `blue` joins, both
/// connected, after a move each: (its id, red's seat token, red's and blue's clients).
pub async fn rated_opening(
    server: &Server,
    red: &str,
    blue: &str,
    seed: u64,
) -> Result<(String, String, Client, Client), String> {
    let body = json!({"tc": "5m+3s", "color": "red", "rated": true}).to_string();
    let (status, v) = with(server, red, "POST", "/api/games", &body);
    if status != 201 {
        return Err(format!("create: {status} {v}"));
    }
    let id = v["id"].as_str().unwrap_or_default().to_string();
    let (status, b) = with(server, blue, "POST", &format!("/api/games/{id}/join"), "");
    if status != 200 {
        return Err(format!("join: {status} {b}"));
    }
    let token = v["token"].as_str().unwrap_or_default().to_string();
    let mut r = Client::connect(&server.addr, &id, Some(&token), None).await?;
    let mut bl = Client::connect(&server.addr, &id, b["token"].as_str(), None).await?;
    if r.seen.iter().all(|m| m["rated"] != true) {
        return Err("the state does not say rated".into());
    }
    let mut rng = Rng(seed);
    for ply in 0..2 {
        let mover = if ply == 0 { &mut r } else { &mut bl };
        let mv = pick("jungle", &mover.moves, &mut rng).ok_or("no move")?;
        mover.play(&mv).await?;
        r.wait_moves(ply + 1).await?;
        bl.wait_moves(ply + 1).await?;
    }
    Ok((id, token, r, bl))
}

/// Plays a rated game between two sessions to its end: a move each, then red
/// resigns. Returns the game's id.
pub async fn rated_game(
    server: &Server,
    red: &str,
    blue: &str,
    seed: u64,
) -> Result<String, String> {
    let (id, _, mut r, mut bl) = rated_opening(server, red, blue, seed).await?;
    r.send(json!({"t": "resign"})).await?;
    r.wait_end().await?;
    bl.wait_end().await?;
    Ok(id)
}
