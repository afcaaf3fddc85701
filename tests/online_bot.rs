//! `jungle bot` on a `jungle serve` site (docs/accounts.md, "Bots"): a bot account
//! made with an API token takes a person's rated challenge from the lobby and plays it
//! to its end with the engine, then stops (`--games 1`); both are rated. And the
//! command's refusals: a token of an account that is no bot, an https address, a bad
//! token file.

mod gui_common;
mod online_common;

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

#[test]
fn a_bot_takes_a_rated_challenge_and_plays_it_to_the_end() {
    let dir = TempDir::new("bot-game");
    let server = Server::sqlite(&dir.0);
    let robo = signup(&server, "Robo");
    let (api, file) = token_file(&server, &robo, &dir.0);
    let auth = format!("Bearer {api}");
    let (status, _, v) =
        server.request("POST", "/api/account/bot", "", &[("Authorization", &auth)]);
    assert_eq!(status, 200, "{v}");

    // Ann's rated challenge in the lobby, Ann red; the bot is started after it.
    let ann = signup(&server, "Ann");
    let body = json!({"tc": "1m+0s", "color": "red", "rated": true, "lobby": true}).to_string();
    let (status, seat) = with(&server, &ann, "POST", "/api/games", &body);
    assert_eq!(status, 201, "{seat}");
    let id = seat["id"].as_str().expect("id").to_string();
    let url = format!("http://{}", server.addr);
    let file = file.display().to_string();
    let args = [
        "--server",
        &url,
        "--token-file",
        &file,
        "--games",
        "1",
        "--nodes",
        "400",
        "--poll-ms",
        "200",
    ];
    let bot = std::thread::spawn({
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            bot_to_end(&args, Duration::from_secs(120))
        }
    });

    // Ann waits for the bot's seat, then plays her moves until the game is over.
    let start = Instant::now();
    while server.state(&id)["seated"]["blue"] != true {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the bot took no seat"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    block_on(async {
        let mut c = Client::connect(&server.addr, &id, seat["token"].as_str(), None).await?;
        let mut rng = Rng(11);
        while c.result.is_none() {
            if c.moves.len() % 2 == 0 {
                match pick("jungle", &c.moves, &mut rng) {
                    Some(mv) if c.moves.len() < 120 => {
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
        if c.moves.len() < 2 {
            return Err(format!(
                "the game ended before the bot moved: {:?}",
                c.result
            ));
        }
        Ok(())
    });
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
