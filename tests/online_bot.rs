//! `jungle bot` on a `jungle serve` site (docs/accounts.md, "Bots"): a bot account
//! made with an API token takes a person's rated challenge from the lobby and plays it
//! to its end with the engine, then stops (`--games 1`); both are rated. And the
//! command's refusals: a token of an account that is no bot, an https address, a bad
//! token file. Bots online (docs/accounts.md, "Bots online"): `GET /api/bots` while a
//! bot polls, a person's invitation to a bot by name played to its end, the decline of
//! one outside its filters, the withdrawal of an invitation whose bot went offline (on
//! one node, and on two nodes of one PostgreSQL, where a bot polling one is online on
//! both), the bot offered in quick pairing.

mod gui_common;
mod online_common;

use online_common::accounts::*;
use online_common::*;
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// An API token of the session's account, written to a file in `dir`.
fn token_file(
    server: &Server,
    session: &str,
    dir: &std::path::Path,
) -> (String, std::path::PathBuf) {
    let (status, v) = with(server, session, "POST", "/api/account/token", "");
    assert_eq!(status, 201, "{v}");
    let token = v["token"].as_str().expect("token").to_string();
    let path = dir.join(format!("token-{}", &session[..8]));
    std::fs::write(&path, format!("{token}\n")).expect("token file");
    (token, path)
}

/// Runs `jungle bot ARGS…` to its end (at most `limit`): (exit code, stderr).
fn bot_to_end(args: &[&str], limit: Duration) -> (Option<i32>, String) {
    let mut child = Command::new(jungle())
        .arg("bot")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jungle bot");
    let start = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn games_rated(server: &Server, session: &str) -> i64 {
    let (status, v) = with(server, session, "GET", "/api/account/me", "");
    assert_eq!(status, 200, "{v}");
    v["ratings"].as_array().map_or(0, |r| {
        r.iter().map(|x| x["games"].as_i64().unwrap_or(0)).sum()
    })
}

/// A bot account on the server: its session and its token file.
fn bot_account(server: &Server, dir: &std::path::Path, name: &str) -> (String, String) {
    let session = signup(server, name);
    let (api, file) = token_file(server, &session, dir);
    let auth = format!("Bearer {api}");
    let (status, _, v) =
        server.request("POST", "/api/account/bot", "", &[("Authorization", &auth)]);
    assert_eq!(status, 200, "{v}");
    (session, file.display().to_string())
}

/// Ann's rated challenge in the lobby, Ann red: her session, the game and her seat's
/// token.
fn ann_challenge(server: &Server, tc: &str) -> (String, String, String) {
    let ann = signup(server, "Ann");
    let body = json!({"tc": tc, "color": "red", "rated": true, "lobby": true}).to_string();
    let (status, seat) = with(server, &ann, "POST", "/api/games", &body);
    assert_eq!(status, 201, "{seat}");
    let id = seat["id"].as_str().expect("id").to_string();
    let token = seat["token"].as_str().expect("token").to_string();
    (ann, id, token)
}

/// `jungle bot` for one game on the server, in a thread: its exit code and stderr.
fn spawn_bot(
    server: &Server,
    file: &str,
    more: &[&str],
) -> std::thread::JoinHandle<(Option<i32>, String)> {
    let url = format!("http://{}", server.addr);
    let args: Vec<String> = ["--server", &url, "--token-file", file, "--games", "1"]
        .iter()
        .chain(["--poll-ms", "200"].iter())
        .chain(more)
        .map(|s| s.to_string())
        .collect();
    std::thread::spawn(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        bot_to_end(&args, Duration::from_secs(180))
    })
}

/// Ann waits for the bot's seat, then plays her moves (each at once) until the game
/// is over, resigning at `resign_at` plies; the game's moves.
fn ann_plays(server: &Server, id: &str, token: &str, resign_at: usize) -> Vec<String> {
    ann_plays_to(server, id, token, resign_at, true)
}

/// Ann plays until the game is over or it has `plies` plies and is hers to move;
/// then she resigns if `resign`, else leaves it so. The game's moves.
fn ann_plays_to(server: &Server, id: &str, token: &str, plies: usize, resign: bool) -> Vec<String> {
    let start = Instant::now();
    while server.state(id)["seated"]["blue"] != true {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the bot took no seat"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut moves = Vec::new();
    block_on(async {
        let mut c = Client::connect(&server.addr, id, Some(token), None).await?;
        let mut rng = Rng(11 + c.moves.len() as u64);
        while c.result.is_none() {
            if c.moves.len() % 2 == 0 {
                match pick("jungle", &c.moves, &mut rng) {
                    Some(_) if c.moves.len() >= plies && !resign => break,
                    Some(mv) if c.moves.len() < plies => {
                        let answer = c.play(&mv).await?;
                        if answer["t"] == "refused" {
                            return Err(format!("Ann's move refused: {answer}"));
                        }
                    }
                    Some(_) => c.send(json!({"t": "resign"})).await?,
                    None => {}
                }
            }
            c.next().await?;
        }
        moves = c.moves.clone();
        Ok(())
    });
    moves
}

#[test]
fn a_bot_takes_a_rated_challenge_and_plays_it_to_the_end() {
    let dir = TempDir::new("bot-game");
    let server = Server::sqlite(&dir.0);
    let (robo, file) = bot_account(&server, &dir.0, "Robo");
    let (ann, id, token) = ann_challenge(&server, "1m+0s");
    let bot = spawn_bot(&server, &file, &["--nodes", "400"]);
    let moves = ann_plays(&server, &id, &token, 120);
    assert!(
        moves.len() >= 2,
        "the game ended before the bot moved: {moves:?}"
    );
    let (code, stderr) = bot.join().expect("the bot's thread");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains(&format!("game {id}: joined")), "{stderr}");
    assert!(stderr.contains(&format!("game {id}: over")), "{stderr}");
    let state = server.state(&id);
    assert_eq!(state["status"], "over", "{state}");
    // Both rated once, the bot's account as Ann's.
    assert_eq!(games_rated(&server, &ann), 1);
    assert_eq!(games_rated(&server, &robo), 1);
}

/// Without `--nodes` the engine searches on the bot's clock (`go wtime … btime …`):
/// it takes time from it, a share of what is left each move, and never all of it.
#[test]
fn the_bot_thinks_on_its_clock() {
    let dir = TempDir::new("bot-clock");
    let server = Server::sqlite(&dir.0);
    let (_, file) = bot_account(&server, &dir.0, "Robo");
    let (_, id, token) = ann_challenge(&server, "1m+0s");
    let bot = spawn_bot(&server, &file, &[]);
    let moves = ann_plays(&server, &id, &token, 12);
    let (code, stderr) = bot.join().expect("the bot's thread");
    assert_eq!(code, Some(0), "{stderr}");
    let state = server.state(&id);
    let left = state["clock"]["blue"].as_i64().expect("blue's clock");
    let bot_moves = moves.len() / 2;
    eprintln!("the bot: {bot_moves} moves, {left} ms of 60000 left");
    assert!(bot_moves >= 2, "{moves:?}");
    assert!(left < 59_000, "the bot took no time: {left} ms left");
    assert!(left > 20_000, "the bot spent its clock: {left} ms left");
}

/// The site is killed in the middle of a game and started again: the bot connects
/// again and plays the game on to its end.
#[test]
fn the_bot_plays_on_after_the_site_restarts() {
    let dir = TempDir::new("bot-restart");
    let mut server = Server::sqlite(&dir.0);
    let (_, file) = bot_account(&server, &dir.0, "Robo");
    let (_, id, token) = ann_challenge(&server, "5m+3s");
    let bot = spawn_bot(&server, &file, &["--nodes", "400"]);
    let before = ann_plays_to(&server, &id, &token, 4, false);
    assert_eq!(before.len(), 4, "{before:?}");
    let (port, args) = (server.port(), server.args.clone());
    server.kill();
    std::thread::sleep(Duration::from_millis(500));
    let server = Server::start(port, &args);
    let moves = ann_plays(&server, &id, &token, 40);
    assert!(
        moves.len() > 4 && moves[..4] == before[..],
        "{before:?} then {moves:?}"
    );
    let (code, stderr) = bot.join().expect("the bot's thread");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("connecting again"), "{stderr}");
    assert!(stderr.contains(&format!("game {id}: over")), "{stderr}");
    assert_eq!(server.state(&id)["status"], "over");
}

#[test]
fn the_bot_command_refuses_what_cannot_work() {
    let dir = TempDir::new("bot-refusals");
    let server = Server::sqlite(&dir.0);
    let person = signup(&server, "Person");
    let (_, file) = token_file(&server, &person, &dir.0);
    let url = format!("http://{}", server.addr);
    let file = file.display().to_string();
    let limit = Duration::from_secs(30);
    // A person's account plays no games as a bot.
    let (code, err) = bot_to_end(&["--server", &url, "--token-file", &file], limit);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("Person is no bot"), "{err}");
    // https: not spoken.
    let (code, err) = bot_to_end(
        &["--server", "https://example.org", "--token-file", &file],
        limit,
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("plain http"), "{err}");
    // A missing token file, a file that holds no token.
    let (code, err) = bot_to_end(
        &["--server", &url, "--token-file", "/nonexistent/token"],
        limit,
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--token-file /nonexistent/token"), "{err}");
    let junk = dir.0.join("junk");
    std::fs::write(&junk, "hello").expect("junk");
    let junk = junk.display().to_string();
    let (code, err) = bot_to_end(&["--server", &url, "--token-file", &junk], limit);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("32 lowercase hex digits"), "{err}");
    // An unknown token.
    std::fs::write(dir.0.join("unknown"), "0123456789abcdef0123456789abcdef").expect("file");
    let unknown = dir.0.join("unknown").display().to_string();
    let (code, err) = bot_to_end(&["--server", &url, "--token-file", &unknown], limit);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("login_required"), "{err}");
    // Bad clocks and rules name themselves.
    let (code, err) = bot_to_end(
        &["--server", &url, "--token-file", &file, "--tc", "5+3"],
        limit,
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--tc"), "{err}");
}

// ----- bots online, invitations, declines, the bot offer (docs/accounts.md) ----------

/// A server whose bots count as online 1.5 s after their last poll, and whose quick
/// pairing offers a bot after half a second.
fn bots_server(dir: &std::path::Path) -> Server {
    let mut args = sqlite_args(dir);
    args.extend(["--bots-online-ms", "1500", "--bot-offer-ms", "500"].map(String::from));
    Server::start(0, &args)
}

/// `jungle bot` running until dropped (killed then), its stderr in a file of `dir`.
struct RunningBot(std::process::Child, std::path::PathBuf);

impl RunningBot {
    fn start(server: &Server, file: &str, dir: &std::path::Path, more: &[&str]) -> RunningBot {
        let log = dir.join(format!("bot-{}.log", more.join("_").replace('/', "")));
        let url = format!("http://{}", server.addr);
        let child = Command::new(jungle())
            .args([
                "bot",
                "--server",
                &url,
                "--token-file",
                file,
                "--poll-ms",
                "200",
            ])
            .args(more)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("log"))
            .spawn()
            .expect("jungle bot");
        RunningBot(child, log)
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.1).unwrap_or_default()
    }
}

impl Drop for RunningBot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `GET /api/bots`: the bots online.
fn bots_online(server: &Server) -> Vec<serde_json::Value> {
    let (status, body) = server.get("/api/bots");
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    v["bots"].as_array().cloned().unwrap_or_default()
}

/// Waits (at most 20 s) until the bots online are `names`.
fn wait_for_bots(server: &Server, names: &[&str]) -> Vec<serde_json::Value> {
    let start = Instant::now();
    loop {
        let bots = bots_online(server);
        let now: Vec<&str> = bots.iter().filter_map(|b| b["username"].as_str()).collect();
        if now == names {
            return bots;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "bots online {now:?}, not {names:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Ann's challenge to the bot `name`: the answer's status and body.
fn invite(server: &Server, session: &str, name: &str, tc: &str) -> (u16, serde_json::Value) {
    let body = json!({"tc": tc, "color": "red", "invite": name}).to_string();
    with(server, session, "POST", "/api/games", &body)
}

#[test]
fn a_person_invites_a_bot_online_by_name_and_it_plays_to_the_end() {
    let dir = TempDir::new("bot-invite");
    let server = bots_server(&dir.0);
    let (_, file) = bot_account(&server, &dir.0, "Robo");
    let ann = signup(&server, "Ann");
    let bob = signup(&server, "Bob");
    // Not online yet: refused.
    let (status, v) = invite(&server, &ann, "Robo", "1m+0s");
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("bot_offline")),
        "{v}"
    );
    let bot = spawn_bot(&server, &file, &["--nodes", "400", "--level", "3"]);
    let listed = wait_for_bots(&server, &["Robo"]);
    assert_eq!(listed[0]["level"], "3", "{listed:?}");
    assert_eq!(listed[0]["busy"], false, "{listed:?}");
    assert_eq!(listed[0]["plays"]["rules"], json!(["jungle", "jungle-cn"]));
    assert!(listed[0]["ratings"].is_array(), "{listed:?}");
    // Only a bot is invited by name, and a bot invites no one.
    let (status, v) = invite(&server, &ann, "Bob", "1m+0s");
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("not_a_bot")),
        "{v}"
    );
    let (status, v) = invite(&server, &ann, "Nobody", "1m+0s");
    assert_eq!(
        (status, v["code"].as_str()),
        (404, Some("no_player")),
        "{v}"
    );
    let (_, other_bot) = bot_account(&server, &dir.0, "Other");
    let other = std::fs::read_to_string(&other_bot).expect("token");
    let auth = format!("Bearer {}", other.trim());
    let body = json!({"tc": "1m+0s", "invite": "Robo"}).to_string();
    let (status, _, v) = server.request("POST", "/api/games", &body, &[("Authorization", &auth)]);
    assert_eq!(
        (status, v["code"].as_str()),
        (403, Some("bot_lobby")),
        "{v}"
    );

    let (status, seat) = invite(&server, &ann, "Robo", "1m+0s");
    assert_eq!(status, 201, "{seat}");
    let id = seat["id"].as_str().expect("id").to_string();
    let token = seat["token"].as_str().expect("token").to_string();
    // In no one else's lobby, and no one else may join it.
    let (_, lobby) = with(&server, &bob, "GET", "/api/lobby", "");
    assert!(!lobby.to_string().contains(&id), "{lobby}");
    let (status, v) = with(&server, &bob, "POST", &format!("/api/games/{id}/join"), "");
    assert_eq!(
        (status, v["code"].as_str()),
        (403, Some("invited_only")),
        "{v}"
    );
    let (status, v) = server.post(&format!("/api/games/{id}/join"), "");
    assert_eq!(
        (status, v["code"].as_str()),
        (403, Some("invited_only")),
        "{v}"
    );
    // Nor may anyone but the bot decline it.
    let (status, v) = with(
        &server,
        &bob,
        "POST",
        &format!("/api/games/{id}/decline"),
        "",
    );
    assert_eq!(
        (status, v["code"].as_str()),
        (403, Some("not_a_bot")),
        "{v}"
    );

    let before = ann_plays_to(&server, &id, &token, 4, false);
    assert_eq!(before.len(), 4, "{before:?}");
    // The state names both players and marks the bot; the bot is busy.
    let state = server.state(&id);
    assert_eq!(
        state["players"]["red"],
        json!({"username": "Ann", "bot": false})
    );
    assert_eq!(
        state["players"]["blue"],
        json!({"username": "Robo", "bot": true})
    );
    let robo = wait_for_bots(&server, &["Robo"]);
    assert_eq!(robo[0]["busy"], true, "{robo:?}");
    let moves = ann_plays(&server, &id, &token, 40);
    assert!(moves.len() > 4, "{moves:?}");
    let (code, stderr) = bot.join().expect("the bot's thread");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains(&format!("game {id}: joined")), "{stderr}");
    assert_eq!(server.state(&id)["status"], "over");
    // Gone (the bot stopped): off the list once the window has passed.
    wait_for_bots(&server, &[]);
    let (status, v) = invite(&server, &ann, "Robo", "1m+0s");
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("bot_offline")),
        "{v}"
    );
}

#[test]
fn an_invitation_the_bot_does_not_accept_is_declined() {
    let dir = TempDir::new("bot-decline");
    let server = bots_server(&dir.0);
    let (_, file) = bot_account(&server, &dir.0, "Robo");
    let ann = signup(&server, "Ann");
    let bot = RunningBot::start(&server, &file, &dir.0, &["--casual-only", "--tc", "5m+3s"]);
    let listed = wait_for_bots(&server, &["Robo"]);
    assert_eq!(listed[0]["plays"]["tcs"], json!(["5m+3s"]), "{listed:?}");
    assert_eq!(listed[0]["plays"]["rated"], false, "{listed:?}");
    let (status, seat) = invite(&server, &ann, "Robo", "1m+0s");
    assert_eq!(status, 201, "{seat}");
    let id = seat["id"].as_str().expect("id").to_string();
    let start = Instant::now();
    while server.state(&id)["status"] != "over" {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "not declined: {}",
            bot.stderr()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let state = server.state(&id);
    assert_eq!(state["result"]["reason"], "declined", "{state}");
    assert_eq!(state["result"]["result"], "*", "{state}");
    assert!(bot.stderr().contains(&format!("game {id}: declined")));
    // Declined once: over, no one's to take.
    let (status, v) = server.post(&format!("/api/games/{id}/join"), "");
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("game_over")),
        "{v}"
    );
}

/// A bot's API token read from its token file, as an `Authorization` value.
fn bearer(file: &str) -> String {
    let token = std::fs::read_to_string(file).expect("token file");
    format!("Bearer {}", token.trim())
}

/// The bot of `auth` asks `server` for its lobby once (and is online from then).
fn poll_lobby(server: &Server, auth: &str) {
    let (status, _, v) = server.request("GET", "/api/lobby", "", &[("Authorization", auth)]);
    assert_eq!(status, 200, "{v}");
}

/// Polls the lobby as each bot of `polls` (a server and a bot's `Authorization`)
/// every 200 ms for `ms`, and meanwhile checks that `waiting` (a server and a game)
/// still waits.
fn keep_polling(polls: &[(&Server, &str)], waiting: &[(&Server, &str)], ms: u64) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(ms) {
        for (server, auth) in polls {
            poll_lobby(server, auth);
        }
        for (server, id) in waiting {
            let state = server.state(id);
            assert_eq!(state["status"], "waiting", "{id} ended: {state}");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Waits (at most 10 s) until the game is over, and returns its result.
fn wait_over(server: &Server, id: &str) -> serde_json::Value {
    let start = Instant::now();
    loop {
        let state = server.state(id);
        if state["status"] == "over" {
            return state["result"].clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{id} not over: {state}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn an_invitation_to_a_bot_gone_offline_is_withdrawn() {
    let dir = TempDir::new("bot-gone");
    let server = bots_server(&dir.0);
    let (_, robo) = bot_account(&server, &dir.0, "Robo");
    let (_, zed) = bot_account(&server, &dir.0, "Zed");
    let (robo, zed) = (bearer(&robo), bearer(&zed));
    poll_lobby(&server, &robo);
    poll_lobby(&server, &zed);
    let ann = signup(&server, "Ann");
    let id_of = |(status, seat): (u16, serde_json::Value)| {
        assert_eq!(status, 201, "{seat}");
        seat["id"].as_str().expect("id").to_string()
    };
    let to_robo = id_of(invite(&server, &ann, "Robo", "1m+0s"));
    let to_zed = id_of(invite(&server, &ann, "Zed", "1m+0s"));
    let body = json!({"tc": "1m+0s", "lobby": true}).to_string();
    let open = id_of(with(&server, &ann, "POST", "/api/games", &body));
    // Both bots poll for longer than the window: nothing ends.
    keep_polling(
        &[(&server, &robo), (&server, &zed)],
        &[(&server, &to_robo), (&server, &to_zed), (&server, &open)],
        2500,
    );
    // Robo stops: its invitation is withdrawn once the window has passed, not Zed's
    // (Zed polls on) nor the lobby's challenge.
    let gone_at = Instant::now();
    let start = Instant::now();
    let mut result = serde_json::Value::Null;
    while start.elapsed() < Duration::from_secs(10) {
        poll_lobby(&server, &zed);
        let state = server.state(&to_robo);
        if state["status"] == "over" {
            result = state["result"].clone();
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        gone_at.elapsed() >= Duration::from_millis(1200),
        "withdrawn before the window passed: {:?}",
        gone_at.elapsed()
    );
    assert_eq!(result["result"], "*", "{result}");
    assert_eq!(result["reason"], "bot_offline", "{result}");
    assert_eq!(result["code"], "online.bot_offline", "{result}");
    assert_eq!(server.state(&to_zed)["status"], "waiting");
    assert_eq!(server.state(&open)["status"], "waiting");
    // Withdrawn: no one's to take or decline, and off Robo's lobby.
    let (status, v) = server.post(&format!("/api/games/{to_robo}/join"), "");
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("game_over")),
        "{v}"
    );
    let (status, _, lobby) = server.request("GET", "/api/lobby", "", &[("Authorization", &robo)]);
    assert_eq!(status, 200);
    assert!(!lobby.to_string().contains(&to_robo), "{lobby}");
    // Zed stops too: its invitation goes the same way.
    let result = wait_over(&server, &to_zed);
    assert_eq!(result["reason"], "bot_offline", "{result}");
    assert_eq!(server.state(&open)["status"], "waiting");
}

/// Two nodes on one PostgreSQL (docs/accounts.md, "Bots online"): a bot that polls
/// node a only is online for node b too (listed, invited there), node b does not
/// withdraw its invitation while it polls a, and once it stops either node does.
#[test]
fn a_bot_online_on_one_node_is_online_on_every_node() {
    let Some(pg) = Postgres::start() else {
        eprintln!("SKIPPED: PostgreSQL is not installed");
        return;
    };
    let dir = TempDir::new("bot-nodes");
    let args = |node: &str| -> Vec<String> {
        [
            "--database",
            &pg.url,
            "--node",
            node,
            "--bots-online-ms",
            "1500",
            "--creates-per-minute",
            "1000",
        ]
        .map(String::from)
        .to_vec()
    };
    let a = Server::start(0, &args("a"));
    let b = Server::start(0, &args("b"));
    let (_, robo) = bot_account(&a, &dir.0, "Robo");
    let robo = bearer(&robo);
    let ann = signup(&b, "Ann");
    poll_lobby(&a, &robo);
    let listed = wait_for_bots(&b, &["Robo"]);
    assert_eq!(listed[0]["busy"], false, "{listed:?}");
    let (status, seat) = invite(&b, &ann, "Robo", "1m+0s");
    assert_eq!(status, 201, "{seat}");
    let id = seat["id"].as_str().expect("id").to_string();
    // Robo polls node a for twice the window: neither node withdraws it.
    keep_polling(&[(&a, &robo)], &[(&b, &id), (&a, &id)], 3500);
    wait_for_bots(&b, &["Robo"]);
    // Robo stops: withdrawn, as both nodes see it, and off both lists.
    let result = wait_over(&b, &id);
    assert_eq!(result["reason"], "bot_offline", "{result}");
    assert_eq!(a.state(&id)["result"]["reason"], "bot_offline");
    wait_for_bots(&a, &[]);
    wait_for_bots(&b, &[]);
}

#[test]
fn quick_pairing_offers_a_bot_online_after_the_wait() {
    let dir = TempDir::new("bot-offer");
    let server = bots_server(&dir.0);
    let (_, robo) = bot_account(&server, &dir.0, "Robo");
    let (_, zed) = bot_account(&server, &dir.0, "Zed");
    // Neither takes the lobby's challenges; Zed plays 5m+3s only.
    let _robo = RunningBot::start(
        &server,
        &robo,
        &dir.0,
        &["--invitations-only", "--level", "2"],
    );
    let _zed = RunningBot::start(
        &server,
        &zed,
        &dir.0,
        &["--invitations-only", "--tc", "5m+3s"],
    );
    wait_for_bots(&server, &["Robo", "Zed"]);
    let ann = signup(&server, "Ann");
    let body = json!({"tc": "1m+0s"}).to_string();
    let (status, seat) = with(&server, &ann, "POST", "/api/lobby/quick", &body);
    assert_eq!(status, 201, "{seat}");
    let id = seat["id"].as_str().expect("id").to_string();
    let waiting = format!("/api/lobby?waiting={id}");
    let (_, lobby) = with(&server, &ann, "GET", &waiting, "");
    assert!(lobby.get("bot_offer").is_none(), "offered at once: {lobby}");
    std::thread::sleep(Duration::from_millis(700));
    let (_, lobby) = with(&server, &ann, "GET", &waiting, "");
    assert_eq!(
        lobby["bot_offer"],
        json!({"username": "Robo", "rating": "1500?", "level": "2"}),
        "{lobby}"
    );
    // Nothing is offered for another game, nor to anyone without `waiting`.
    let (_, plain) = with(&server, &ann, "GET", "/api/lobby", "");
    assert!(plain.get("bot_offer").is_none(), "{plain}");
}

#[test]
fn what_a_bot_says_it_plays_is_checked() {
    let dir = TempDir::new("bot-plays");
    let server = bots_server(&dir.0);
    let (bot, _) = bot_account(&server, &dir.0, "Robo");
    let ann = signup(&server, "Ann");
    let ok = json!({"level": "4", "rated": true, "casual": true}).to_string();
    let (status, v) = with(&server, &ann, "POST", "/api/bots/online", &ok);
    assert_eq!(
        (status, v["code"].as_str()),
        (403, Some("not_a_bot")),
        "{v}"
    );
    let (status, v) = server.post("/api/bots/online", &ok);
    assert_eq!(
        (status, v["code"].as_str()),
        (401, Some("login_required")),
        "{v}"
    );
    for bad in [
        json!({"level": "99", "rated": true, "casual": true}),
        json!({"rules": ["chess"], "rated": true, "casual": true}),
        json!({"tcs": ["5+3"], "rated": true, "casual": true}),
        json!({"rated": false, "casual": false}),
    ] {
        let (status, v) = with(&server, &bot, "POST", "/api/bots/online", &bad.to_string());
        assert_eq!(
            (status, v["code"].as_str()),
            (400, Some("bad_plays")),
            "{bad}: {v}"
        );
    }
    let (status, v) = with(&server, &bot, "POST", "/api/bots/online", "{\"rated\": 1}");
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("malformed")),
        "{v}"
    );
    assert!(bots_online(&server).is_empty(), "listed after refusals");
    let (status, v) = with(&server, &bot, "POST", "/api/bots/online", &ok);
    assert_eq!(status, 200, "{v}");
    assert_eq!(bots_online(&server)[0]["level"], "4");
}
