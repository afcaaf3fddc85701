//! `jungle bot` on a `jungle serve` site (docs/accounts.md, "Bots"): a bot account
//! made with an API token takes a person's rated challenge from the lobby and plays it
//! to its end with the engine, then stops (`--games 1`); both are rated. And the
//! command's refusals: a token of an account that is no bot, an https address, a bad
//! token file.

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
