//! Load benchmark of a running `jungle serve` (not a test): N games, each two
//! websocket players on loopback playing random legal moves, for a bounded time.
//! Reports moves per second and the round trip from sending a move to the opponent
//! seeing it (median, 99th percentile), and checks that no move was lost or doubled
//! (every player's view equals the server's record).
//!
//! Two modes: as fast as the server answers (the default), or `--think 2-6`, players
//! who think as people do (uniformly 2 to 6 seconds before each move; the games start
//! spread over the first think range) so that thousands of connections are open at
//! once. With `--pid` (the server's process id) it samples the server's resident
//! memory and CPU time from /proc: the memory per connection is the growth over the
//! server's size before the run, divided by the connections open at the peak.
//!
//! ```sh
//! jungle serve --port 8018 --db /tmp/bench.sqlite --creates-per-minute 100000 \
//!     --max-open-per-ip 100000 --messages-per-second 1000 &
//! cargo run --release -p jungle-online --example serve_bench -- 127.0.0.1:8018 250 60
//! cargo run --release -p jungle-online --example serve_bench -- 127.0.0.1:8018 10000 120 \
//!     --think 2-6 --pid "$(pgrep -f 'jungle serve')"
//! ```

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use jungle_core::board::Position;
use jungle_core::game::{Game, GameResult};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A POST with a session's cookie (`name=value`), if any; its JSON answer and the
/// session cookie it sets, if any.
fn post_as(
    addr: &str,
    path: &str,
    body: &str,
    cookie: Option<&str>,
) -> Result<(Value, Option<String>), String> {
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
    let cookie = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{cookie}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    let mut text = String::new();
    s.read_to_string(&mut text).map_err(|e| e.to_string())?;
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let set = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        let pair = value.trim().split(';').next()?;
        (name.eq_ignore_ascii_case("set-cookie") && pair.starts_with("jungle_session="))
            .then(|| pair.to_string())
    });
    let value = serde_json::from_str(body).map_err(|e| format!("{e}: {text}"))?;
    Ok((value, set))
}

/// Two new accounts for a pair's rated games (`--rated`): their session cookies.
async fn sign_up_pair(addr: &str, seed: u64) -> Result<[String; 2], String> {
    let mut cookies = Vec::new();
    for side in ["r", "b"] {
        let (a, body) = (
            addr.to_string(),
            json!({"username": format!("bench{seed:x}{side}"), "password": "bench-password"})
                .to_string(),
        );
        let (answer, cookie) =
            tokio::task::spawn_blocking(move || post_as(&a, "/api/account/signup", &body, None))
                .await
                .map_err(|e| e.to_string())??;
        cookies.push(cookie.ok_or(format!("signed up without a session: {answer}"))?);
    }
    Ok([cookies[0].clone(), cookies[1].clone()])
}

async fn connect(addr: &str, id: &str, token: &str) -> Result<Ws, String> {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .map_err(|e| e.to_string())?;
    ws.send(Message::text(
        json!({"t": "hello", "token": token}).to_string(),
    ))
    .await
    .map_err(|e| e.to_string())?;
    loop {
        let v = read(&mut ws).await?;
        if v["t"] == "welcome" {
            return Ok(ws);
        }
    }
}

async fn read(ws: &mut Ws) -> Result<Value, String> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| "timeout")?
            .ok_or("closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).map_err(|e| e.to_string());
        }
    }
}

/// Waits on `ws` for the move event of `ply`; returns whether the game ended with it.
async fn wait_move(ws: &mut Ws, ply: usize) -> Result<bool, String> {
    loop {
        let v = read(ws).await?;
        if v["t"] == "refused" {
            return Err(format!("refused: {v}"));
        }
        if v["t"] == "event" && v["e"]["kind"] == "move" && v["e"]["ply"] == ply {
            return Ok(v["status"] == "over");
        }
    }
}

struct Stats {
    /// Each move's round trip (ms) and whether it was sent once every game had
    /// started (the steady state, after the arrivals' burst of creates and joins).
    rtts: Vec<(f64, bool)>,
    moves: usize,
    games: Vec<(String, Vec<String>)>,
    /// Games that ended with a result (rated ones then changed both ratings).
    ended: usize,
    /// `--rated`: the account of the pair's Red player.
    red_account: Option<String>,
}

/// A xorshift step: the players' moves and think times, reproducible from the seed.
fn next(rng: &mut u64) -> u64 {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

/// How players pace their moves.
#[derive(Clone, Copy)]
struct Pace {
    /// Milliseconds of thought before a move, drawn uniformly (0..0: none).
    think_ms: (u64, u64),
}

impl Pace {
    async fn think(&self, rng: &mut u64) {
        let (lo, hi) = self.think_ms;
        if hi > 0 {
            let ms = lo + next(rng) % (hi - lo + 1);
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
    }
}

/// Plays games one after another until `end`, counting its open connections in `open`.
async fn player_pair(
    addr: String,
    seed: u64,
    steady: Instant,
    end: Instant,
    pace: Pace,
    open: Arc<AtomicUsize>,
    rated: bool,
) -> Result<Stats, String> {
    let mut stats = Stats {
        rtts: Vec::new(),
        moves: 0,
        games: Vec::new(),
        ended: 0,
        red_account: rated.then(|| format!("bench{seed:x}r")),
    };
    let mut rng = seed | 1;
    // Thinking players arrive spread over the first think range.
    if pace.think_ms.1 > 0 {
        let ms = next(&mut rng) % pace.think_ms.1;
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    let cookies = if rated {
        Some(sign_up_pair(&addr, seed).await?)
    } else {
        None
    };
    while Instant::now() < end {
        let (a, c) = (addr.clone(), cookies.clone());
        let red = tokio::task::spawn_blocking(move || {
            let body = json!({"tc": "30m+30s", "color": "red", "rated": c.is_some()});
            post_as(
                &a,
                "/api/games",
                &body.to_string(),
                c.as_ref().map(|c| c[0].as_str()),
            )
        })
        .await
        .map_err(|e| e.to_string())??
        .0;
        let id = red["id"]
            .as_str()
            .ok_or(format!("no id: {red}"))?
            .to_string();
        let (a, i, c) = (addr.clone(), id.clone(), cookies.clone());
        let blue = tokio::task::spawn_blocking(move || {
            let cookie = c.as_ref().map(|c| c[1].as_str());
            post_as(&a, &format!("/api/games/{i}/join"), "", cookie)
        })
        .await
        .map_err(|e| e.to_string())??
        .0;
        let mut ws = [
            connect(&addr, &id, red["token"].as_str().unwrap_or_default()).await?,
            connect(&addr, &id, blue["token"].as_str().unwrap_or_default()).await?,
        ];
        open.fetch_add(2, Ordering::Relaxed);
        let mut game = Game::new(Position::startpos());
        let mut moves = Vec::new();
        while Instant::now() < end && game.result() == GameResult::Ongoing && moves.len() < 300 {
            let legal: Vec<_> = game.legal_moves().iter().copied().collect();
            let m = legal[(next(&mut rng) % legal.len() as u64) as usize];
            pace.think(&mut rng).await;
            if Instant::now() >= end {
                break;
            }
            let ply = moves.len();
            let (mover, other) = if ply % 2 == 0 { (0, 1) } else { (1, 0) };
            let sent = Instant::now();
            ws[mover]
                .send(Message::text(
                    json!({"t": "move", "ply": ply, "mv": m.to_string(), "think_ms": 0})
                        .to_string(),
                ))
                .await
                .map_err(|e| e.to_string())?;
            let over = wait_move(&mut ws[other], ply).await?;
            stats
                .rtts
                .push((sent.elapsed().as_secs_f64() * 1000.0, sent >= steady));
            wait_move(&mut ws[mover], ply).await?;
            game.play(m).map_err(|e| e.to_string())?;
            moves.push(m.to_string());
            stats.moves += 1;
            if over {
                break;
            }
        }
        // The end is its own event after the last move's: the rules say it here.
        if game.result() != GameResult::Ongoing {
            stats.ended += 1;
        }
        stats.games.push((id, moves));
        for w in &mut ws {
            let _ = w.close(None).await;
        }
        open.fetch_sub(2, Ordering::Relaxed);
    }
    Ok(stats)
}

/// The server's resident memory (KB) and CPU time (clock ticks) from /proc.
fn sample(pid: u32) -> Option<Sample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command's closing parenthesis: utime and stime are 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Sample {
        rss_kb,
        ticks,
        sockets: sockets_of(pid),
    })
}

/// The server's resident memory, CPU time (ticks) and open sockets at one moment.
struct Sample {
    rss_kb: u64,
    ticks: u64,
    sockets: usize,
}

/// The sockets a process has open (its connections, whoever the clients are: several
/// client processes may share one server), from /proc/PID/fd.
fn sockets_of(pid: u32) -> usize {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return 0;
    };
    fds.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with("socket:"))
        .count()
}

/// Peak resident memory and connections, sampled every second until `end`.
#[derive(Default)]
struct ServerLoad {
    rss_before_kb: u64,
    rss_peak_kb: u64,
    /// This process's connections open at the peak, and the server's sockets then.
    open_at_peak: usize,
    sockets_at_peak: usize,
    open_max: usize,
    /// The server's memory once every game had started, and at the end.
    rss_steady_kb: u64,
    rss_end_kb: u64,
    cpu_seconds: f64,
    steady_seconds: f64,
}

async fn watch(pid: u32, open: Arc<AtomicUsize>, steady: Instant, end: Instant) -> ServerLoad {
    let mut load = ServerLoad::default();
    let Some(first) = sample(pid) else {
        eprintln!("cannot read /proc/{pid}: no server figures");
        return load;
    };
    load.rss_before_kb = first.rss_kb;
    let mut at_steady = None;
    while Instant::now() < end {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let Some(Sample {
            rss_kb: rss,
            ticks,
            sockets,
        }) = sample(pid)
        else {
            break;
        };
        let now_open = open.load(Ordering::Relaxed);
        load.open_max = load.open_max.max(now_open);
        if rss > load.rss_peak_kb {
            load.rss_peak_kb = rss;
            load.open_at_peak = now_open;
            load.sockets_at_peak = sockets;
        }
        load.rss_end_kb = rss;
        let now = Instant::now();
        match at_steady {
            None if now >= steady => {
                at_steady = Some((now, ticks));
                load.rss_steady_kb = rss;
            }
            Some((t0, k0)) => {
                load.steady_seconds = (now - t0).as_secs_f64();
                load.cpu_seconds = (ticks - k0) as f64 / 100.0;
            }
            None => {}
        }
    }
    load
}

#[derive(Parser)]
#[command(about = "Load benchmark of a running `jungle serve`")]
struct Args {
    /// The server's address.
    #[arg(default_value = "127.0.0.1:8018")]
    addr: String,
    /// Games played at once (two websocket clients each).
    #[arg(default_value_t = 50)]
    games: usize,
    /// Seconds the run lasts.
    #[arg(default_value_t = 20)]
    seconds: u64,
    /// Players think before each move, uniformly MIN-MAX seconds (e.g. 2-6).
    #[arg(long, value_parser = parse_think)]
    think: Option<(u64, u64)>,
    /// The server's process id: its memory and CPU time are sampled from /proc.
    #[arg(long)]
    pid: Option<u32>,
    /// Rated games between accounts: each pair signs up two accounts first (start
    /// the server with a high --logins-per-minute), and at the end each account's
    /// rated games are checked against the games that ended.
    #[arg(long)]
    rated: bool,
}

fn parse_think(text: &str) -> Result<(u64, u64), String> {
    let (lo, hi) = text
        .split_once('-')
        .ok_or("give the think time as MIN-MAX seconds, e.g. 2-6")?;
    let secs = |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0 && *x <= 3600.0)
            .map(|x| (x * 1000.0) as u64)
            .ok_or(format!("'{s}' is not a number of seconds from 0 to 3600"))
    };
    let (lo, hi) = (secs(lo)?, secs(hi)?);
    if lo > hi || hi == 0 {
        return Err(format!(
            "'{text}': MIN must not exceed MAX, and MAX must be above 0"
        ));
    }
    Ok((lo, hi))
}

fn main() {
    let Args {
        addr,
        games,
        seconds,
        think,
        pid,
        rated,
    } = Args::parse();
    let pace = Pace {
        think_ms: think.unwrap_or((0, 0)),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let start = Instant::now();
    let end = start + Duration::from_secs(seconds);
    // CPU is counted once every game has started (after the first think range).
    let steady = start + Duration::from_millis(pace.think_ms.1 * 2);
    let open = Arc::new(AtomicUsize::new(0));
    let (results, load) = rt.block_on(async {
        let watcher = pid.map(|pid| tokio::spawn(watch(pid, open.clone(), steady, end)));
        let tasks: Vec<_> = (0..games)
            .map(|i| {
                tokio::spawn(player_pair(
                    addr.clone(),
                    0x9e37_79b9 + i as u64 * 7919,
                    steady,
                    end,
                    pace,
                    open.clone(),
                    rated,
                ))
            })
            .collect();
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await);
        }
        let load = match watcher {
            Some(w) => w.await.ok(),
            None => None,
        };
        (out, load)
    });
    let elapsed = start.elapsed().as_secs_f64();
    let mut rtts = Vec::new();
    let mut moves = 0;
    let mut errors = 0;
    let mut checked = 0;
    let mut mismatched = 0;
    let (mut ended, mut rated_counted, mut rated_wrong) = (0, 0, 0);
    for r in results {
        match r {
            Ok(Ok(s)) => {
                rtts.extend(s.rtts);
                moves += s.moves;
                ended += s.ended;
                if let Some(name) = &s.red_account {
                    let counted = rated_games_of(&addr, name);
                    rated_counted += counted.unwrap_or(0);
                    if counted != Some(s.ended) {
                        rated_wrong += 1;
                    }
                }
                for (id, played) in s.games {
                    let (status, body) = match get(&addr, &format!("/api/games/{id}")) {
                        Ok(x) => x,
                        Err(_) => continue,
                    };
                    checked += 1;
                    let stored: Vec<String> = serde_json::from_str::<Value>(&body)
                        .ok()
                        .and_then(|v| {
                            v["moves"].as_array().map(|a| {
                                a.iter()
                                    .filter_map(|m| m.as_str().map(String::from))
                                    .collect()
                            })
                        })
                        .unwrap_or_default();
                    if status != 200 || stored != played {
                        mismatched += 1;
                    }
                }
            }
            Ok(Err(e)) => {
                errors += 1;
                eprintln!("a game failed: {e}");
            }
            Err(e) => {
                errors += 1;
                eprintln!("a task failed: {e}");
            }
        }
    }
    let mut all: Vec<f64> = rtts.iter().map(|r| r.0).collect();
    let mut settled: Vec<f64> = rtts.iter().filter(|r| r.1).map(|r| r.0).collect();
    all.sort_by(f64::total_cmp);
    settled.sort_by(f64::total_cmp);
    let pct = |rtts: &[f64], p: f64| {
        rtts.get(((rtts.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    println!(
        "{games} games ({} clients), {elapsed:.1} s: {moves} moves, {:.0} moves/s; round trip median {:.1} ms, p99 {:.1} ms; {checked} games checked against the server, {mismatched} with lost or doubled moves; {errors} failed",
        games * 2,
        moves as f64 / elapsed,
        pct(&all, 0.5),
        pct(&all, 0.99)
    );
    if rated {
        println!(
            "rated: {ended} games ended, {rated_counted} counted in the Red accounts' ratings; {rated_wrong} accounts whose rated games differ from those that ended"
        );
    }
    let steady_seconds = end.saturating_duration_since(steady).as_secs_f64();
    if steady > start && steady_seconds > 0.0 {
        println!(
            "once every game had started (the last {steady_seconds:.0} s): {} moves, {:.0} moves/s; round trip median {:.1} ms, p99 {:.1} ms",
            settled.len(),
            settled.len() as f64 / steady_seconds,
            pct(&settled, 0.5),
            pct(&settled, 0.99)
        );
    }
    if let Some(l) = load.filter(|l| l.rss_peak_kb > 0) {
        report_server(&l, settled.len(), steady_seconds);
    }
}

/// The server's figures: memory per connection (over the server's own sockets, so
/// that several client processes may share it), its growth while games went on, and
/// its CPU per move (only when this process's clients are all the server has).
fn report_server(l: &ServerLoad, steady_moves: usize, steady_seconds: f64) {
    let connections = l.sockets_at_peak.max(1);
    let per_connection =
        (l.rss_peak_kb.saturating_sub(l.rss_before_kb)) as f64 / connections as f64;
    let cpu_share = l.cpu_seconds / l.steady_seconds.max(1e-9);
    println!(
        "server: {} MB before, {} MB at the peak with {} sockets open ({:.1} KB each; this process's connections: {} then, at most {}); CPU {:.0}% of a core over the last {:.0} s",
        l.rss_before_kb / 1024,
        l.rss_peak_kb / 1024,
        l.sockets_at_peak,
        per_connection,
        l.open_at_peak,
        l.open_max,
        cpu_share * 100.0,
        l.steady_seconds,
    );
    let growth_kb = l.rss_end_kb as f64 - l.rss_steady_kb as f64;
    println!(
        "server memory once every game had started: {} MB, at the end {} MB ({:+.0} bytes for each of this process's {steady_moves} moves)",
        l.rss_steady_kb / 1024,
        l.rss_end_kb / 1024,
        growth_kb * 1024.0 / steady_moves.max(1) as f64,
    );
    // A few sockets beyond the clients' (the listener, a database's) are the server's own.
    if l.sockets_at_peak > l.open_at_peak + l.open_at_peak / 20 + 16 {
        println!("other clients share the server: no CPU per move (run one client process for it)");
    } else {
        let moves_per_s = steady_moves as f64 / steady_seconds.max(1e-9);
        println!(
            "server CPU per move: about {:.2} ms",
            cpu_share * 1000.0 / moves_per_s.max(1e-9)
        );
    }
}

/// The rated games of an account, all categories together (`GET /api/players/NAME`).
fn rated_games_of(addr: &str, name: &str) -> Option<usize> {
    let (status, body) = get(addr, &format!("/api/players/{name}")).ok()?;
    let v: Value = serde_json::from_str(&body).ok().filter(|_| status == 200)?;
    let games = v["ratings"].as_array()?.iter();
    Some(games.filter_map(|r| r["games"].as_u64()).sum::<u64>() as usize)
}

fn get(addr: &str, path: &str) -> Result<(u16, String), String> {
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .map_err(|e| e.to_string())?;
    let mut text = String::new();
    s.read_to_string(&mut text).map_err(|e| e.to_string())?;
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Ok((status, body.to_string()))
}
