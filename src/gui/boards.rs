//! The visitors' own boards under `jungle serve`, where the browser's engine is not
//! built: playing the computer, lessons, puzzles and review run on a board app of the
//! server's (as `jungle gui`'s, the engine this program itself) for each visitor, at
//! `/local/` (`local/backend.js`, `local/api/…`). A visitor is a cookie
//! (`jungle_board`, 128 random bits, given with `local/backend.js`; the server keys
//! its boards by the cookie's SHA-256). The boards are capped: at most `max` at once and two an address; a board
//! unused for `IDLE` closes, its engines with it. Past the cap a new visitor is refused
//! with a clear message (`boardsBusy`) until one closes.

use super::http::{self, Board};
use crate::common::engine_process::EngineSpec;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use jungle_app::api::Refusal;
use jungle_app::controller;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A board unused this long closes.
pub const IDLE: Duration = Duration::from_secs(15 * 60);
/// Boards an address may hold at once.
const PER_ADDRESS: usize = 2;
const COOKIE: &str = "jungle_board";

struct Entry {
    board: Arc<Board>,
    used: Instant,
    ip: IpAddr,
}

/// The boards of the visitors.
pub struct Boards {
    engines: Vec<EngineSpec>,
    movetime_ms: u64,
    max: usize,
    all: Mutex<HashMap<String, Entry>>,
}

impl Boards {
    /// Boards on this program's engine (one thread, a small hash each), at most `max`.
    pub fn new(max: usize, movetime_ms: u64) -> Result<Arc<Boards>, String> {
        let mut engines = super::engine_specs(&[])?;
        for e in &mut engines {
            e.options = vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())];
        }
        Ok(Arc::new(Boards {
            engines,
            movetime_ms,
            max,
            all: Mutex::new(HashMap::new()),
        }))
    }

    /// Boards open now.
    pub fn open(&self) -> usize {
        self.all.lock().map_or(0, |a| a.len())
    }

    /// The visitor's board (by its cookie), or a new one with the cookie to set.
    fn board_of(
        &self,
        cookie: Option<String>,
        ip: IpAddr,
    ) -> Result<(Arc<Board>, Option<String>), Refusal> {
        let mut all = self
            .all
            .lock()
            .map_err(|_| Refusal::new(503, "the boards are unavailable").coded("stopped", &[]))?;
        // The cookie is given with local/backend.js: the page's first requests, made at
        // once, all carry it and share the one board made for the first.
        let (key, new_cookie) = match cookie {
            Some(c) => (jungle_online::token_hash(&c), None),
            None => {
                let token = jungle_online::new_token()
                    .map_err(|e| Refusal::new(503, e).coded("stopped", &[]))?;
                (jungle_online::token_hash(&token), Some(token))
            }
        };
        if let Some(e) = all.get_mut(&key) {
            e.used = Instant::now();
            return Ok((e.board.clone(), None));
        }
        let busy = || {
            Refusal::new(
                503,
                "the server is running as many boards as it can: try again in a few minutes",
            )
            .coded("boardsBusy", &[])
        };
        if all.len() >= self.max || all.values().filter(|e| e.ip == ip).count() >= PER_ADDRESS {
            return Err(busy());
        }
        let config = controller::Config {
            names: [String::new(), String::new(), String::new()],
            watch_clock: (60_000, 600),
            movetime_ms: self.movetime_ms,
        };
        let board = super::start_board(self.engines.clone(), config, super::review_tables(None))
            .map_err(|e| Refusal::new(503, e).coded("stopped", &[]))?;
        all.insert(
            key,
            Entry {
                board: board.clone(),
                used: Instant::now(),
                ip,
            },
        );
        Ok((board, new_cookie))
    }

    /// Closes the boards unused for `IDLE`.
    pub fn sweep(&self) {
        if let Ok(mut all) = self.all.lock() {
            all.retain(|_, e| e.used.elapsed() < IDLE);
        }
    }
}

/// The visitor's cookie, if its request has one.
fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
        .filter(|v| jungle_online::token_ok(v))
}

/// A board's answer, with the cookie of a new board.
fn with_cookie(mut r: Response, token: Option<String>, secure: bool) -> Response {
    if let Some(t) = token {
        let value = format!(
            "{COOKIE}={t}; Path=/local/; HttpOnly; SameSite=Strict{}",
            if secure { "; Secure" } else { "" }
        );
        if let Ok(v) = HeaderValue::from_str(&value) {
            r.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    r
}

/// Behind TLS (a proxy says so): the cookie is `Secure`.
fn behind_tls(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// The routes at `/local/`: the back end and each visitor's API.
pub fn router(boards: Arc<Boards>) -> Router {
    Router::new()
        .route(
            "/local/backend.js",
            get(|headers: HeaderMap| async move {
                let js = http::answer(
                    StatusCode::OK,
                    "text/javascript; charset=utf-8",
                    jungle_app::page::HTTP_BACKEND,
                );
                // The visitor's cookie, before its first request.
                let token = match cookie(&headers) {
                    Some(_) => None,
                    None => jungle_online::new_token().ok(),
                };
                with_cookie(js, token, behind_tls(&headers))
            }),
        )
        .route(
            "/local/api/{name}",
            get(
                |State(b): State<Arc<Boards>>,
                 ConnectInfo(addr): ConnectInfo<SocketAddr>,
                 Path(name): Path<String>,
                 headers: HeaderMap| async move {
                    match b.board_of(cookie(&headers), addr.ip()) {
                        Ok((board, token)) => with_cookie(
                            http::read(&board, &name).await,
                            token,
                            behind_tls(&headers),
                        ),
                        Err(r) => http::failed(&r),
                    }
                },
            )
            .post(
                |State(b): State<Arc<Boards>>,
                 ConnectInfo(addr): ConnectInfo<SocketAddr>,
                 Path(name): Path<String>,
                 headers: HeaderMap,
                 body: Bytes| async move {
                    match b.board_of(cookie(&headers), addr.ip()) {
                        Ok((board, token)) => with_cookie(
                            http::action(&board, &name, &headers, &body).await,
                            token,
                            behind_tls(&headers),
                        ),
                        Err(r) => http::failed(&r),
                    }
                },
            ),
        )
        .with_state(boards)
}

/// The visitors' boards for `jungle serve` (at most `max` at once), swept of idle ones
/// every minute.
pub fn local_router(max: usize) -> Result<Router, String> {
    let boards = Boards::new(max, 1000)?;
    let swept = Arc::downgrade(&boards);
    std::thread::Builder::new()
        .name("boards-sweep".into())
        .spawn(move || {
            while let Some(b) = swept.upgrade() {
                b.sweep();
                drop(b);
                std::thread::sleep(Duration::from_secs(60));
            }
        })
        .map_err(|e| format!("cannot start the boards: {e}"))?;
    Ok(router(boards))
}
