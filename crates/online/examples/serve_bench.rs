//! Load benchmark of a running `jungle serve` (not a test): N games, each two
//! websocket players on loopback playing random legal moves as fast as the server
//! answers, for a bounded time. Reports moves per second and the round trip from
//! sending a move to the opponent seeing it (median, 99th percentile), and checks that
//! no move was lost or doubled (every player's view equals the server's record).
//!
//! ```sh
//! jungle serve --port 8018 --db /tmp/bench.sqlite --creates-per-minute 100000 \
//!     --max-open-per-ip 100000 --messages-per-second 1000 &
//! cargo run --release -p jungle-online --example serve_bench -- 127.0.0.1:8018 250 60
//! ```

use futures_util::{SinkExt, StreamExt};
use jungle_core::board::Position;
use jungle_core::game::{Game, GameResult};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn post(addr: &str, path: &str, body: &str) -> Result<Value, String> {
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
    let mut text = String::new();
    s.read_to_string(&mut text).map_err(|e| e.to_string())?;
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).map_err(|e| format!("{e}: {text}"))
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
    rtts: Vec<f64>,
    moves: usize,
    games: Vec<(String, Vec<String>)>,
}

/// Plays games one after another until `end`.
async fn player_pair(addr: String, seed: u64, end: Instant) -> Result<Stats, String> {
    let mut stats = Stats {
        rtts: Vec::new(),
        moves: 0,
        games: Vec::new(),
    };
    let mut rng = seed | 1;
    while Instant::now() < end {
        let a = addr.clone();
        let red = tokio::task::spawn_blocking(move || {
            post(&a, "/api/games", r#"{"tc":"30m+30s","color":"red"}"#)
        })
        .await
        .map_err(|e| e.to_string())??;
        let id = red["id"]
            .as_str()
            .ok_or(format!("no id: {red}"))?
            .to_string();
        let (a, i) = (addr.clone(), id.clone());
        let blue =
            tokio::task::spawn_blocking(move || post(&a, &format!("/api/games/{i}/join"), ""))
                .await
                .map_err(|e| e.to_string())??;
        let mut ws = [
            connect(&addr, &id, red["token"].as_str().unwrap_or_default()).await?,
            connect(&addr, &id, blue["token"].as_str().unwrap_or_default()).await?,
        ];
        let mut game = Game::new(Position::startpos());
        let mut moves = Vec::new();
        while Instant::now() < end && game.result() == GameResult::Ongoing && moves.len() < 300 {
            let legal: Vec<_> = game.legal_moves().iter().copied().collect();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = legal[(rng % legal.len() as u64) as usize];
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
            stats.rtts.push(sent.elapsed().as_secs_f64() * 1000.0);
            wait_move(&mut ws[mover], ply).await?;
            game.play(m).map_err(|e| e.to_string())?;
            moves.push(m.to_string());
            stats.moves += 1;
            if over {
                break;
            }
        }
        stats.games.push((id, moves));
    }
    Ok(stats)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "127.0.0.1:8018".into());
    let games: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let seconds: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let start = Instant::now();
    let end = start + Duration::from_secs(seconds);
    let results = rt.block_on(async {
        let tasks: Vec<_> = (0..games)
            .map(|i| {
                tokio::spawn(player_pair(
                    addr.clone(),
                    0x9e37_79b9 + i as u64 * 7919,
                    end,
                ))
            })
            .collect();
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await);
        }
        out
    });
    let elapsed = start.elapsed().as_secs_f64();
    let mut rtts = Vec::new();
    let mut moves = 0;
    let mut errors = 0;
    let mut checked = 0;
    let mut mismatched = 0;
    for r in results {
        match r {
            Ok(Ok(s)) => {
                rtts.extend(s.rtts);
                moves += s.moves;
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
    rtts.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        rtts.get(((rtts.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    println!(
        "{games} games ({} clients), {elapsed:.1} s: {moves} moves, {:.0} moves/s; round trip median {:.1} ms, p99 {:.1} ms; {checked} games checked against the server, {mismatched} with lost or doubled moves; {errors} failed",
        games * 2,
        moves as f64 / elapsed,
        pct(0.5),
        pct(0.99)
    );
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
