//! For the tests of `jungle serve`: starting servers (on SQLite or a throwaway
//! PostgreSQL cluster), a plain HTTP client on the socket, and websocket players and
//! spectators that keep their own view of a game.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub use crate::gui_common::{get, jungle, raw, spawn_with_url};

pub mod accounts;

/// Runs a test's future on a runtime of its own; panics with its error.
pub fn block_on<F: std::future::Future<Output = Result<(), String>>>(f: F) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    if let Err(e) = rt.block_on(f) {
        panic!("{e}");
    }
}

/// A fresh temporary folder (removed when dropped).
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let mut bytes = [0u8; 6];
        getrandom_bytes(&mut bytes);
        let name: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let dir = std::env::temp_dir().join(format!("jungle-{tag}-{name}"));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn getrandom_bytes(out: &mut [u8]) {
    let mut f = std::fs::File::open("/dev/urandom").expect("urandom");
    f.read_exact(out).expect("random bytes");
}

/// A running `jungle serve`; killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
    pub args: Vec<String>,
}

impl Server {
    /// Starts `jungle serve --port PORT ARGS…` and waits for its URL line.
    pub fn start(port: u16, args: &[String]) -> Server {
        let mut cmd = Command::new(jungle());
        cmd.args(["serve", "--port", &port.to_string()]).args(args);
        let (child, addr) = spawn_with_url(&mut cmd);
        Server {
            child,
            addr,
            args: args.to_vec(),
        }
    }

    /// `jungle serve` from a copy of the binary in `dir`, run there: it finds no
    /// browser engine (no target/web beside it or in its folder), as a fresh build
    /// with cargo only.
    pub fn without_browser_engine(dir: &Path, args: &[String]) -> Server {
        let exe = dir.join("jungle");
        std::fs::copy(jungle(), &exe).expect("a copy of the binary");
        let mut cmd = Command::new(&exe);
        cmd.current_dir(dir)
            .args(["serve", "--port", "0"])
            .args(args);
        let (child, addr) = spawn_with_url(&mut cmd);
        Server {
            child,
            addr,
            args: args.to_vec(),
        }
    }

    /// SQLite in `dir`, generous limits for the tests' many games.
    pub fn sqlite(dir: &Path) -> Server {
        Server::start(0, &sqlite_args(dir))
    }

    pub fn port(&self) -> u16 {
        self.addr
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("port")
    }

    /// Kills the process at once (SIGKILL: no clean-up of any kind).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends raw bytes, returns (status, headers, body).
    pub fn raw(&self, request: &[u8]) -> (u16, String, String) {
        raw(&self.addr, request)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        get(&self.addr, path)
    }

    pub fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        let (status, _, text) = self.raw(req.as_bytes());
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text:?}"));
        (status, json)
    }

    /// A request with headers of the test's own (a cookie, an `Origin`): (status,
    /// the answer's head, its JSON body or null).
    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: &str,
        headers: &[(&str, &str)],
    ) -> (u16, String, Value) {
        let extra: String = headers
            .iter()
            .map(|(name, value)| format!("{name}: {value}\r\n"))
            .collect();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        let (status, head, text) = self.raw(req.as_bytes());
        (
            status,
            head,
            serde_json::from_str(&text).unwrap_or(Value::Null),
        )
    }

    /// Creates a game; returns the creator's seat (`id`, `side`, `token`, links).
    pub fn create(&self, tc: &str, rules: &str, color: &str) -> Value {
        let (status, v) = self.post(
            "/api/games",
            &json!({"tc": tc, "rules": rules, "color": color}).to_string(),
        );
        assert_eq!(status, 201, "{v}");
        v
    }

    pub fn join(&self, id: &str) -> Value {
        let (status, v) = self.post(&format!("/api/games/{id}/join"), "");
        assert_eq!(status, 200, "{v}");
        v
    }

    pub fn state(&self, id: &str) -> Value {
        let (status, body) = self.get(&format!("/api/games/{id}"));
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).expect("JSON state")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The session token a response's `Set-Cookie` gives (`Some("")` when it clears it).
pub fn session_cookie(head: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        if !name.eq_ignore_ascii_case("set-cookie") {
            return None;
        }
        let value = value.trim().strip_prefix("jungle_session=")?;
        Some(value.split(';').next().unwrap_or_default().to_string())
    })
}

pub fn sqlite_args(dir: &Path) -> Vec<String> {
    vec![
        "--db".into(),
        dir.join("games.sqlite").display().to_string(),
        "--creates-per-minute".into(),
        "10000".into(),
        "--max-open-per-ip".into(),
        "10000".into(),
        "--messages-per-second".into(),
        "1000".into(),
    ]
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A websocket client of one game, with its view: the version, the moves, the result.
pub struct Client {
    ws: Ws,
    pub id: String,
    pub token: Option<String>,
    pub v: u64,
    pub moves: Vec<String>,
    pub result: Option<Value>,
    /// Every message received, in order.
    pub seen: Vec<Value>,
    /// Refusals and acknowledgements (not folded into the view).
    pub replies: Vec<Value>,
}

pub const WAIT: Duration = Duration::from_secs(15);

impl Client {
    /// Connects and says hello (with the token and the version known, if any); reads
    /// the catch-up up to `welcome`.
    pub async fn connect(
        addr: &str,
        id: &str,
        token: Option<&str>,
        since: Option<u64>,
    ) -> Result<Client, String> {
        let url = format!("ws://{addr}/api/games/{id}/ws");
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| e.to_string())?;
        let mut c = Client {
            ws,
            id: id.to_string(),
            token: token.map(str::to_string),
            v: since.unwrap_or(0),
            moves: Vec::new(),
            result: None,
            seen: Vec::new(),
            replies: Vec::new(),
        };
        c.send(json!({"t": "hello", "token": token, "since": since}))
            .await?;
        c.until(|m| m["t"] == "welcome").await?;
        Ok(c)
    }

    /// Reconnects as the same viewer, from the version it has.
    pub async fn reconnect(&mut self, addr: &str) -> Result<(), String> {
        let url = format!("ws://{addr}/api/games/{}/ws", self.id);
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| e.to_string())?;
        self.ws = ws;
        let hello = json!({"t": "hello", "token": self.token, "since": self.v});
        self.send(hello).await?;
        self.until(|m| m["t"] == "welcome").await?;
        Ok(())
    }

    pub async fn send(&mut self, msg: Value) -> Result<(), String> {
        self.ws
            .send(Message::text(msg.to_string()))
            .await
            .map_err(|e| e.to_string())
    }

    pub async fn send_raw(&mut self, msg: Message) -> Result<(), String> {
        self.ws.send(msg).await.map_err(|e| e.to_string())
    }

    /// The next message (folded into the view), or an error after `WAIT`.
    pub async fn next(&mut self) -> Result<Value, String> {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .map_err(|_| format!("game {}: nothing for {WAIT:?}", self.id))?
                .ok_or("closed")?
                .map_err(|e| e.to_string())?;
            let text = match msg {
                Message::Text(t) => t.to_string(),
                Message::Close(_) => return Err("closed".into()),
                _ => continue,
            };
            let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            self.fold(&v)?;
            self.seen.push(v.clone());
            return Ok(v);
        }
    }

    fn fold(&mut self, m: &Value) -> Result<(), String> {
        match m["t"].as_str() {
            Some("state") => {
                self.v = m["v"].as_u64().ok_or("state without v")?;
                self.moves = m["moves"]
                    .as_array()
                    .ok_or("state without moves")?
                    .iter()
                    .map(|x| x.as_str().unwrap_or_default().to_string())
                    .collect();
                self.result = (!m["result"].is_null()).then(|| m["result"].clone());
            }
            Some("event") => {
                let v = m["v"].as_u64().ok_or("event without v")?;
                if v != self.v + 1 {
                    return Err(format!("game {}: event {v} after {}", self.id, self.v));
                }
                self.v = v;
                let e = &m["e"];
                match e["kind"].as_str() {
                    Some("move") => {
                        let ply = e["ply"].as_u64().ok_or("move without ply")? as usize;
                        if ply != self.moves.len() {
                            return Err(format!(
                                "game {}: move at ply {ply} after {} moves",
                                self.id,
                                self.moves.len()
                            ));
                        }
                        self.moves
                            .push(e["mv"].as_str().unwrap_or_default().to_string());
                    }
                    Some("end") => self.result = Some(e.clone()),
                    _ => {}
                }
            }
            Some("refused") | Some("ack") => self.replies.push(m.clone()),
            _ => {}
        }
        Ok(())
    }

    /// Reads until a message satisfies `pred`; returns it.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Result<Value, String> {
        loop {
            let m = self.next().await?;
            if pred(&m) {
                return Ok(m);
            }
        }
    }

    /// Sends a move for the next ply and waits for it to come back stored (or a
    /// refusal).
    pub async fn play(&mut self, mv: &str) -> Result<Value, String> {
        let ply = self.moves.len();
        self.send(json!({"t": "move", "ply": ply, "mv": mv, "think_ms": 0}))
            .await?;
        self.until(|m| {
            m["t"] == "refused"
                || m["t"] == "ack"
                || (m["t"] == "event" && m["e"]["kind"] == "move" && m["e"]["ply"] == ply)
        })
        .await
    }

    /// Waits until the view has `n` moves.
    pub async fn wait_moves(&mut self, n: usize) -> Result<(), String> {
        while self.moves.len() < n {
            self.next().await?;
        }
        Ok(())
    }

    pub async fn wait_end(&mut self) -> Result<Value, String> {
        while self.result.is_none() {
            self.next().await?;
        }
        Ok(self.result.clone().unwrap_or_default())
    }
}

/// A throwaway PostgreSQL 15 cluster in a temporary folder (its own unix socket, a
/// random port), run as the `postgres` user when the tests run as root; stopped and
/// removed when dropped.
pub struct Postgres {
    dir: TempDir,
    bin: PathBuf,
    pub url: String,
    as_root: bool,
}

fn pg_bin() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("/usr/lib/postgresql/15/bin")];
    if let Ok(entries) = std::fs::read_dir("/usr/lib/postgresql") {
        candidates.extend(entries.flatten().map(|e| e.path().join("bin")));
    }
    candidates.push(PathBuf::from("/usr/local/bin"));
    candidates.push(PathBuf::from("/usr/bin"));
    candidates
        .into_iter()
        .find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

impl Postgres {
    /// Starts a cluster; `None` (the caller says SKIPPED) when PostgreSQL is not
    /// installed, which under CI is a failure.
    pub fn start() -> Option<Postgres> {
        let Some(bin) = pg_bin() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "PostgreSQL is not installed: .ci/run installs it"
            );
            return None;
        };
        let dir = TempDir::new("pg");
        let as_root = is_root();
        if as_root {
            // The cluster's files belong to `postgres`, which must reach the folder.
            let _ = Command::new("chmod").arg("755").arg(&dir.0).status();
            let _ = Command::new("chown")
                .args(["postgres:postgres"])
                .arg(&dir.0)
                .status();
        }
        let data = dir.0.join("data");
        let port = free_port();
        let pg = Postgres {
            url: format!(
                "postgres://postgres@localhost:{port}/postgres?host={}",
                dir.0.display()
            ),
            dir,
            bin,
            as_root,
        };
        let ok = pg
            .run(
                "initdb",
                &[
                    "-D",
                    &data.display().to_string(),
                    "-U",
                    "postgres",
                    "-A",
                    "trust",
                    "--no-sync",
                    "-E",
                    "UTF8",
                ],
            )
            .status()
            .expect("initdb runs")
            .success();
        assert!(ok, "initdb failed");
        let opts = format!(
            "-c listen_addresses='' -p {port} -k {} -c fsync=on -c max_connections=60",
            pg.dir.0.display()
        );
        let ok = pg
            .run(
                "pg_ctl",
                &[
                    "-D",
                    &data.display().to_string(),
                    "-o",
                    &opts,
                    "-l",
                    &pg.dir.0.join("log").display().to_string(),
                    "-w",
                    "start",
                ],
            )
            .stdout(Stdio::null())
            .status()
            .expect("pg_ctl runs")
            .success();
        if !ok {
            let log = std::fs::read_to_string(pg.dir.0.join("log")).unwrap_or_default();
            panic!("PostgreSQL did not start: {log}");
        }
        Some(pg)
    }

    fn run(&self, tool: &str, args: &[&str]) -> Command {
        let exe = self.bin.join(tool);
        let mut c = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            Command::new(exe)
        };
        c.args(args).stdin(Stdio::null());
        c
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.0.join("data").display().to_string();
        let _ = self
            .run("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .status();
    }
}

/// A port free now (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A seeded xorshift for the players' choices.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A legal move in the game of `moves` under `rules`: one that wins at once if there
/// is one, else (most of the time) a capture, else one chosen by `rng`; `None` when
/// the game is over. Games end by the rules more often than by random moves alone.
pub fn pick(rules: &str, moves: &[String], rng: &mut Rng) -> Option<String> {
    pick_with(rules, moves, rng, true)
}

/// A legal move chosen uniformly (games last longer); `None` when the game is over.
pub fn pick_random(rules: &str, moves: &[String], rng: &mut Rng) -> Option<String> {
    pick_with(rules, moves, rng, false)
}

fn pick_with(rules: &str, moves: &[String], rng: &mut Rng, keen: bool) -> Option<String> {
    use jungle_core::game::{Game, GameResult};
    let rules: jungle_core::game::Rules = rules.parse().ok()?;
    let mut g = Game::with_rules(jungle_core::board::Position::startpos(), rules);
    for m in moves {
        g.play_text(m).ok()?;
    }
    if g.result() != GameResult::Ongoing {
        return None;
    }
    let list: Vec<_> = g.legal_moves().iter().copied().collect();
    if list.is_empty() {
        return None;
    }
    if !keen {
        return Some(list[rng.below(list.len())].to_string());
    }
    let mut captures = Vec::new();
    for &m in &list {
        let mut after = g.clone();
        if after.play(m).is_err() {
            continue;
        }
        if matches!(after.result(), GameResult::Win { .. }) {
            return Some(m.to_string());
        }
        if after.position().halfmove_clock() == 0 {
            captures.push(m);
        }
    }
    if !captures.is_empty() && rng.below(4) != 0 {
        return Some(captures[rng.below(captures.len())].to_string());
    }
    if rng.below(2) == 0 {
        // Toward the enemy den (d9 for Red, d1 for Blue).
        let den_rank = if g.position().side_to_move() == jungle_core::board::Color::Red {
            9
        } else {
            1
        };
        let distance = |m: &jungle_core::board::Move| {
            let text = m.to_string();
            let b = text.as_bytes();
            let file = i32::from(b[2]) - i32::from(b'a');
            let rank: i32 = text[3..].parse().unwrap_or(0);
            (file - 3).abs() + (rank - den_rank).abs()
        };
        let best = list.iter().map(distance).min()?;
        let near: Vec<_> = list.iter().filter(|m| distance(m) == best).collect();
        return Some(near[rng.below(near.len())].to_string());
    }
    Some(list[rng.below(list.len())].to_string())
}
