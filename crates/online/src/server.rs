//! The HTTP and websocket front (axum on tokio): creating and joining games, the
//! lobby, "your games", records, a websocket per game, the board site's files.
//! protocol.md, section "Online games", describes every endpoint and message.

use crate::clock::online_tc;
use crate::hub::{Hub, Live, Reply};
use crate::messages::{self, ClientMsg, MAX_MESSAGE};
use crate::model::Side;
use crate::store::{Kind, Store, CHANNEL};
use crate::{now_ms, token_hash, token_ok, ServeArgs};
use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota};
use jungle_core::game::Rules;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The time a new connection has to say `hello`.
const HELLO_WAIT: Duration = Duration::from_secs(10);

/// What every handler shares.
pub struct App {
    pub hub: Arc<Hub>,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    messages_per_second: NonZeroU32,
    max_open_per_ip: i64,
}

/// Makes the router of the visitors' boards on the server's engine (the `jungle gui`
/// host's, given by the binary) for at most so many visitors at once.
pub type LocalBoards = dyn Fn(usize) -> Result<Router, String> + Send + Sync;

type Shared = State<Arc<App>>;

/// A refusal as HTTP: a status, and `{"code", "reason"}`.
fn refuse(status: StatusCode, code: &str, reason: impl Into<String>) -> Response {
    (status, Json(json!({"code": code, "reason": reason.into()}))).into_response()
}

/// A body that is not the JSON asked for, or too big.
fn bad_body(e: JsonRejection) -> Response {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        refuse(e.status(), "too_big", "the request body is too big")
    } else {
        refuse(StatusCode::BAD_REQUEST, "malformed", e.body_text())
    }
}

fn internal(e: impl std::fmt::Display) -> Response {
    log::error!("{e}");
    refuse(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
}

impl App {
    /// The body of a request limited per address: refused when the address is over
    /// its rate, or the body is not the JSON asked for.
    fn limited_body<T>(
        &self,
        ip: IpAddr,
        body: Result<Json<T>, JsonRejection>,
    ) -> Result<T, Box<Response>> {
        if let Some(r) = self.limited(ip) {
            return Err(Box::new(r));
        }
        body.map(|Json(b)| b).map_err(|e| Box::new(bad_body(e)))
    }

    fn limited(&self, ip: IpAddr) -> Option<Response> {
        self.limiter.check_key(&ip).is_err().then(|| {
            refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "rate",
                "too many requests from this address: wait a little",
            )
        })
    }
}

#[derive(Deserialize)]
struct CreateReq {
    tc: String,
    rules: Option<String>,
    color: Option<String>,
    lobby: Option<bool>,
}

#[derive(Deserialize)]
struct QuickReq {
    tc: String,
    rules: Option<String>,
}

#[derive(Deserialize)]
struct MineReq {
    tokens: Vec<String>,
}

/// Checks a new game's rules and time control: `(rules text, tc text)`, or the
/// refusal (400 `bad_tc`, `bad_rules`).
fn game_settings(tc: &str, rules: Option<&str>) -> Result<(String, String), Box<Response>> {
    let bad = |code: &str, why: String| Box::new(refuse(StatusCode::BAD_REQUEST, code, why));
    let tc = online_tc(tc).map_err(|e| bad("bad_tc", e))?;
    let rules = rules.unwrap_or("jungle");
    if rules.len() > 200 {
        return Err(bad("bad_rules", "rules text too long".into()));
    }
    let rules: Rules = rules.parse().map_err(|e| bad("bad_rules", e))?;
    Ok((rules.to_string(), tc.to_string()))
}

fn random_side() -> Side {
    let mut b = [0u8; 1];
    let _ = getrandom::fill(&mut b);
    if b[0] & 1 == 0 {
        Side::Red
    } else {
        Side::Blue
    }
}

fn seat_json(id: &str, side: Side, token: &str) -> Value {
    json!({
        "id": id,
        "side": side,
        "token": token,
        "play_url": format!("/play/{id}"),
        "watch_url": format!("/watch/{id}"),
        "ws_url": format!("/api/games/{id}/ws"),
    })
}

async fn create(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<CreateReq>, JsonRejection>,
) -> Response {
    let req = match app.limited_body(addr.ip(), body) {
        Ok(req) => req,
        Err(refusal) => return *refusal,
    };
    let (rules, tc) = match game_settings(&req.tc, req.rules.as_deref()) {
        Ok(s) => s,
        Err(refusal) => return *refusal,
    };
    let side = match req.color.as_deref().unwrap_or("random") {
        "red" => Side::Red,
        "blue" => Side::Blue,
        "random" => random_side(),
        _ => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "bad_color",
                "color: red, blue or random",
            )
        }
    };
    create_game(&app, &addr, &rules, &tc, side, req.lobby.unwrap_or(false)).await
}

async fn create_game(
    app: &App,
    addr: &SocketAddr,
    rules: &str,
    tc: &str,
    side: Side,
    lobby: bool,
) -> Response {
    let ip = addr.ip().to_string();
    match app.hub.store.open_games_of(&ip).await {
        Ok(n) if n >= app.max_open_per_ip => {
            return refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_games",
                format!("this address has {n} games not finished"),
            )
        }
        Ok(_) => {}
        Err(e) => return internal(e),
    }
    match app.hub.create(rules, tc, side, lobby, &ip).await {
        Ok((id, token)) => {
            (StatusCode::CREATED, Json(seat_json(&id, side, &token))).into_response()
        }
        Err(e) => internal(e),
    }
}

async fn join(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
) -> Response {
    if let Some(r) = app.limited(addr.ip()) {
        return r;
    }
    let live = match app.hub.get(&id).await {
        Ok(Some(l)) => l,
        Ok(None) => return no_game(),
        Err(e) => return internal(e),
    };
    match app.hub.join(&live).await {
        Ok((side, token)) => Json(seat_json(&id, side, &token)).into_response(),
        Err(r) => refuse(StatusCode::CONFLICT, r.code, r.reason),
    }
}

fn no_game() -> Response {
    refuse(StatusCode::NOT_FOUND, "no_game", "no such game")
}

async fn game_state(State(app): Shared, Path(id): Path<String>) -> Response {
    match app.hub.get(&id).await {
        Ok(Some(live)) => Json(app.hub.snapshot(&live, None).await.0).into_response(),
        Ok(None) => no_game(),
        Err(e) => internal(e),
    }
}

async fn record(State(app): Shared, Path(id): Path<String>) -> Response {
    match app.hub.get(&id).await {
        Ok(Some(live)) => {
            let (text, _) = app.hub.record(&live).await;
            (
                [
                    (
                        header::CONTENT_TYPE,
                        "text/plain; charset=utf-8".to_string(),
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"jungle-{id}.txt\""),
                    ),
                ],
                text,
            )
                .into_response()
        }
        Ok(None) => no_game(),
        Err(e) => internal(e),
    }
}

fn row_json(r: &crate::store::GameRow) -> Value {
    json!({
        "id": r.id,
        "tc": r.tc,
        "rules": r.rules,
        "status": r.status,
        "created_at": r.created_at,
        "open_side": if r.hashes[0].is_none() { Some("red") } else if r.hashes[1].is_none() { Some("blue") } else { None },
    })
}

async fn lobby(State(app): Shared) -> Response {
    match app.hub.store.lobby().await {
        Ok(rows) => {
            Json(json!({"games": rows.iter().map(row_json).collect::<Vec<_>>()})).into_response()
        }
        Err(e) => internal(e),
    }
}

/// Quick pairing: the oldest open challenge with the same clock and rules, else a new
/// challenge in the lobby.
async fn quick(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<QuickReq>, JsonRejection>,
) -> Response {
    let req = match app.limited_body(addr.ip(), body) {
        Ok(req) => req,
        Err(refusal) => return *refusal,
    };
    let (rules, tc) = match game_settings(&req.tc, req.rules.as_deref()) {
        Ok(s) => s,
        Err(refusal) => return *refusal,
    };
    let open = match app.hub.store.lobby().await {
        Ok(rows) => rows,
        Err(e) => return internal(e),
    };
    for row in open.iter().filter(|r| r.tc == tc && r.rules == rules) {
        let Ok(Some(live)) = app.hub.get(&row.id).await else {
            continue;
        };
        if let Ok((side, token)) = app.hub.join(&live).await {
            return Json(seat_json(&row.id, side, &token)).into_response();
        }
    }
    create_game(&app, &addr, &rules, &tc, random_side(), true).await
}

/// "Your games": the games whose seats the given tokens hold, newest first.
async fn mine(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<MineReq>, JsonRejection>,
) -> Response {
    let req = match app.limited_body(addr.ip(), body) {
        Ok(req) => req,
        Err(refusal) => return *refusal,
    };
    if req.tokens.len() > 50 || !req.tokens.iter().all(|t| token_ok(t)) {
        return refuse(
            StatusCode::BAD_REQUEST,
            "bad_token",
            "up to 50 tokens of 32 hex digits",
        );
    }
    let hashes: Vec<String> = req.tokens.iter().map(|t| token_hash(t)).collect();
    match app.hub.store.games_of(&hashes).await {
        Ok(rows) => {
            let games: Vec<Value> = rows
                .iter()
                .map(|r| {
                    let mut v = row_json(r);
                    let side = if hashes.iter().any(|h| r.hashes[0].as_ref() == Some(h)) {
                        "red"
                    } else {
                        "blue"
                    };
                    v["side"] = json!(side);
                    v
                })
                .collect();
            Json(json!({ "games": games })).into_response()
        }
        Err(e) => internal(e),
    }
}

/// A websocket upgrade is refused from a page of another site (its `Origin` names
/// another host than the request's `Host`).
fn origin_ok(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true; // Not a browser: nothing to check.
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest.trim_end_matches('/'));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

async fn ws(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_ok(&headers) {
        return refuse(
            StatusCode::FORBIDDEN,
            "origin",
            "websocket from another site's page",
        );
    }
    let live = match app.hub.get(&id).await {
        Ok(Some(l)) => l,
        Ok(None) => return no_game(),
        Err(e) => return internal(e),
    };
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| session(app, live, socket))
}

fn refused(code: &str, reason: impl Into<String>) -> Value {
    json!({"t": "refused", "code": code, "reason": reason.into()})
}

/// The refusal of a command the server read: it names the command (`to`), so that a
/// client with several in flight settles the one refused.
fn refused_to(kind: &str, code: &str, reason: impl Into<String>) -> Value {
    json!({"t": "refused", "to": kind, "code": code, "reason": reason.into()})
}

async fn send(sink: &mut futures_util::stream::SplitSink<WebSocket, Message>, v: &Value) -> bool {
    sink.send(Message::Text(v.to_string().into())).await.is_ok()
}

/// Reads a client's message, or the refusal to send back.
fn parse(text: &str) -> Result<ClientMsg, Value> {
    messages::parse(text).map_err(|r| refused(r.code, r.reason))
}

/// One websocket connection to a game: `hello`, the catch-up (the events after the
/// client's version, or the full state), then events out and commands in.
async fn session(app: Arc<App>, live: Arc<Live>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let hello = match tokio::time::timeout(HELLO_WAIT, stream.next()).await {
        Ok(Some(Ok(Message::Text(t)))) => parse(&t),
        _ => Err(refused("no_hello", "the first message must be hello")),
    };
    let (token, since) = match hello {
        Ok(ClientMsg::Hello { token, since }) => (token, since),
        Ok(_) => {
            let _ = send(
                &mut sink,
                &refused("no_hello", "the first message must be hello"),
            )
            .await;
            return;
        }
        Err(r) => {
            let _ = send(&mut sink, &r).await;
            return;
        }
    };
    let hub = &app.hub;
    let mut seat = None;
    if let Some(t) = token.as_deref() {
        seat = if token_ok(t) {
            hub.seat_of(&live, Some(t)).await
        } else {
            None
        };
        if seat.is_none() {
            // Watched, not played: the client is told, and can still watch.
            if !send(
                &mut sink,
                &refused("no_seat", "this token holds no seat in this game"),
            )
            .await
            {
                return;
            }
        }
    }
    let mut rx = live.tx.subscribe();
    let mut last_v;
    match since {
        Some(s) => match hub.since(&live, s).await {
            Some(events) => {
                last_v = s;
                for e in events {
                    last_v = e["v"].as_u64().unwrap_or(last_v);
                    if !send(&mut sink, &e).await {
                        return;
                    }
                }
            }
            None => {
                let (state, v) = hub.snapshot(&live, seat).await;
                last_v = v;
                if !send(&mut sink, &state).await {
                    return;
                }
            }
        },
        None => {
            let (state, v) = hub.snapshot(&live, seat).await;
            last_v = v;
            if !send(&mut sink, &state).await {
                return;
            }
        }
    }
    if !send(
        &mut sink,
        &json!({"t": "welcome", "you": seat, "v": last_v}),
    )
    .await
    {
        return;
    }
    if let Some(side) = seat {
        connect(&app, &live, side, 1).await;
    }
    let limiter = DefaultDirectRateLimiter::direct(
        Quota::per_second(app.messages_per_second).allow_burst(
            app.messages_per_second
                .saturating_mul(NonZeroU32::MIN.saturating_add(1)),
        ),
    );
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Ok(msg) => {
                    if let Some(v) = msg.get("v").and_then(Value::as_u64) {
                        if msg["t"] == "event" {
                            if v <= last_v {
                                continue;
                            }
                            last_v = v;
                        }
                    }
                    if !send(&mut sink, &msg).await {
                        break;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    let (state, v) = hub.snapshot(&live, seat).await;
                    last_v = v;
                    if !send(&mut sink, &state).await {
                        break;
                    }
                }
                Err(_) => break,
            },
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        if !send(&mut sink, &refused("malformed", "messages are JSON text")).await {
                            break;
                        }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                if limiter.check().is_err() {
                    let slow_down = "too many messages: slow down";
                    let answer = match parse(&text) {
                        Ok(msg) => refused_to(msg.kind(), "rate", slow_down),
                        Err(_) => refused("rate", slow_down),
                    };
                    if !send(&mut sink, &answer).await {
                        break;
                    }
                    continue;
                }
                let reply = match parse(&text) {
                    Err(r) => Some(r),
                    Ok(msg) => handle(&app, &live, seat, msg).await,
                };
                if let Some(r) = reply {
                    if !send(&mut sink, &r).await {
                        break;
                    }
                }
            }
        }
    }
    if let Some(side) = seat {
        connect(&app, &live, side, -1).await;
    }
}

/// One command from a connection; what to answer it directly, if anything.
async fn handle(app: &App, live: &Arc<Live>, seat: Option<Side>, msg: ClientMsg) -> Option<Value> {
    let kind = msg.kind();
    if matches!(msg, ClientMsg::Hello { .. }) {
        return Some(refused_to(kind, "hello_again", "hello was already said"));
    }
    if !msg.is_command() {
        return Some(json!({"t": "pong", "now": now_ms()}));
    }
    match app.hub.command(live, seat, msg).await {
        Reply::Done => None,
        Reply::Again { ply, v } => Some(json!({"t": "ack", "ply": ply, "v": v})),
        Reply::Refused(r) => Some(refused_to(kind, r.code, r.reason)),
    }
}

/// A seat's connection count on this node changes: tell the game's connections, and
/// on PostgreSQL the other nodes.
async fn connect(app: &App, live: &Live, side: Side, delta: i32) {
    let hub = &app.hub;
    let (counts, msg) = {
        let mut p = match live.presence.lock() {
            Ok(p) => p,
            Err(e) => e.into_inner(),
        };
        let counts = p.local(&hub.node, side, delta, now_ms());
        (counts, p.message())
    };
    let _ = live.tx.send(Arc::new(msg));
    let payload = format!("p:{}:{}:{}:{}", live.id, hub.node, counts[0], counts[1]);
    if let Err(e) = hub.store.notify_now(&payload).await {
        log::warn!("presence not sent to the other nodes: {e}");
    }
}

/// The board page (built into the binary, `jungle_app::page`): the site's first page,
/// and a game's links with `<base href="/">`, so that its modules come from the site's
/// root under `/play/ID` and `/watch/ID` too.
async fn page() -> Response {
    file_response("index.html", with_base(INDEX_HTML))
}

const INDEX_HTML: &str = include_str!("../../../page/index.html");

/// `html` with `<base href="/">` first in its head.
fn with_base(html: &str) -> String {
    match html.find("<head>") {
        Some(at) => {
            let end = at + "<head>".len();
            format!("{}\n<base href=\"/\">{}", &html[..end], &html[end..])
        }
        None => html.to_string(),
    }
}

fn file_response(path: &str, body: impl Into<axum::body::Body>) -> Response {
    (
        [
            (header::CONTENT_TYPE, jungle_app::page::content_type(path)),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body.into(),
    )
        .into_response()
}

/// A file of the page.
async fn page_file(Path(path): Path<String>) -> Response {
    match jungle_app::page::file(&path) {
        Some(f) => file_response(f.path, f.body),
        None => refuse(StatusCode::NOT_FOUND, "not_found", "no such file"),
    }
}

/// The online game's back end (js/backend.js), built into the server so that it
/// always speaks this server's protocol.
const ONLINE_JS: &str = include_str!("../js/backend.js");

/// Where the browser's engine is (`--site`, else `target/web` of the build the binary
/// is in, else `./target/web`): `None` when scripts/build-web.sh has not built it.
fn find_site(arg: Option<&PathBuf>) -> Result<Option<PathBuf>, String> {
    let has_engine = |d: &std::path::Path| {
        d.join("jungle.wasm").is_file() && d.join("worker-backend.js").is_file()
    };
    if let Some(dir) = arg {
        if !has_engine(dir) {
            return Err(format!(
                "--site {}: no browser engine there (jungle.wasm, worker-backend.js: scripts/build-web.sh DIR writes them)",
                dir.display()
            ));
        }
        return Ok(Some(dir.clone()));
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("web")));
    Ok([beside, Some(PathBuf::from("target/web"))]
        .into_iter()
        .flatten()
        .find(|d| has_engine(d)))
}

/// The visitor's own back end at `/local/`: the browser's engine (the site's worker
/// back end, its worker, loader and module), served from the built site.
fn browser_engine(site: PathBuf) -> Router {
    let serve = move |name: &'static str, path: &'static str| {
        let file = site.join(path);
        get(move || {
            let file = file.clone();
            async move {
                match tokio::fs::read(&file).await {
                    Ok(bytes) => file_response(name, bytes),
                    Err(e) => internal(format!("{}: {e}", file.display())),
                }
            }
        })
    };
    Router::new()
        .route(
            "/local/backend.js",
            serve("backend.js", "worker-backend.js"),
        )
        .route("/local/worker.js", serve("worker.js", "worker.js"))
        .route("/local/engine.mjs", serve("engine.mjs", "engine.mjs"))
        .route("/local/jungle.wasm", serve("jungle.wasm", "jungle.wasm"))
}

/// The router, for `serve` and the tests: the game API, the page, and `local` (the
/// visitor's own back end at `/local/`).
pub fn router(app: Arc<App>, local: Router) -> Router {
    let api = Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api/lobby", get(lobby))
        .route("/api/lobby/quick", post(quick))
        .route("/api/mine", post(mine))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_MESSAGE))
        .with_state(app);
    Router::new()
        .route("/", get(page))
        .route("/index.html", get(page))
        .route("/play/{id}", get(page))
        .route("/watch/{id}", get(page))
        .route(
            "/backend.js",
            get(|| async { file_response("backend.js", ONLINE_JS) }),
        )
        .route("/{*path}", get(page_file))
        .merge(api)
        .merge(local)
}

/// `jungle serve`.
pub async fn serve(args: ServeArgs, server_boards: &LocalBoards) -> Result<(), String> {
    let site = find_site(args.site.as_ref())?;
    let url = match &args.database {
        Some(u) => u.clone(),
        None => format!("sqlite:{}?mode=rwc", args.db.display()),
    };
    let node = match &args.node {
        Some(n)
            if !n.is_empty()
                && n.len() <= 32
                && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') =>
        {
            n.clone()
        }
        Some(_) => return Err("--node: 1 to 32 letters, digits or '-'".into()),
        None => crate::hub::new_game_id()?,
    };
    let store = Store::open(&url, &node).await?;
    let hub = Hub::new(store.clone(), node.clone());
    let per_minute = NonZeroU32::new(args.creates_per_minute)
        .ok_or("--creates-per-minute must be at least 1")?;
    let messages_per_second = NonZeroU32::new(args.messages_per_second)
        .ok_or("--messages-per-second must be at least 1")?;
    let app = Arc::new(App {
        hub: hub.clone(),
        limiter: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
        messages_per_second,
        max_open_per_ip: args.max_open_per_ip,
    });
    if store.kind() == Kind::Postgres {
        listen(hub.clone(), url.clone()).await?;
    }
    let resumed = hub.resume().await?;
    log::info!("node {node}: {resumed} games not over resumed");
    tokio::spawn(background(hub.clone()));
    // The rate limiter forgets addresses that have been quiet.
    let quiet = app.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(60)).await;
            quiet.limiter.retain_recent();
        }
    });
    let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", args.host, args.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    if args.host != "127.0.0.1" && args.host != "localhost" && args.host != "::1" {
        eprintln!(
            "warning: serving on {}: other machines can reach this server; put it behind TLS (README: Deployment)",
            args.host
        );
    }
    let local = match &site {
        Some(s) => {
            eprintln!(
                "the computer plays in the visitors' browsers (the engine from {})",
                s.display()
            );
            browser_engine(s.clone())
        }
        None => {
            eprintln!(
                "the computer plays on this server, for at most {} visitors at once (scripts/build-web.sh builds the browser's engine)",
                args.local_boards
            );
            server_boards(args.local_boards as usize)?
        }
    };
    println!("Jungle online server at http://{addr}/ (Ctrl-C stops it)");
    axum::serve(
        listener,
        router(app, local).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .map_err(|e| e.to_string())
}

/// The heartbeat (every `HEARTBEAT_MS`) and, every minute, dropping finished games
/// from memory.
async fn background(hub: Arc<Hub>) {
    let mut n = 0u64;
    loop {
        tokio::time::sleep(Duration::from_millis(crate::HEARTBEAT_MS)).await;
        if let Err(e) = hub.store.heartbeat(now_ms()).await {
            log::warn!("heartbeat not stored: {e}");
        }
        n += 1;
        if n % 60 == 0 {
            hub.sweep().await;
        }
    }
}

/// PostgreSQL: listens to the other nodes' notifications (a game changed; a seat's
/// presence on a node).
async fn listen(hub: Arc<Hub>, url: String) -> Result<(), String> {
    let mut listener = sqlx::postgres::PgListener::connect(&url)
        .await
        .map_err(|e| format!("cannot listen on the database: {e}"))?;
    listener.listen(CHANNEL).await.map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        loop {
            match listener.try_recv().await {
                Ok(Some(n)) => notified(&hub, n.payload()).await,
                // The connection was lost (the listener connects again on the next
                // call): what was notified meanwhile is read from the database.
                Ok(None) => {
                    log::warn!("database notifications: connection lost; catching up");
                    hub.catch_up_all().await;
                }
                Err(e) => {
                    log::warn!("database notifications: {e}");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }
    });
    Ok(())
}

async fn notified(hub: &Arc<Hub>, payload: &str) {
    if let Some(rest) = payload.strip_prefix("g:") {
        match rest.split_once(':') {
            Some((_, node)) if node == hub.node => {}
            Some((id, _)) => hub.changed(id).await,
            None => {}
        }
    } else if let Some(rest) = payload.strip_prefix("p:") {
        let parts: Vec<&str> = rest.split(':').collect();
        let [id, node, red, blue] = parts[..] else {
            return;
        };
        if node == hub.node {
            return;
        }
        let (Ok(red), Ok(blue)) = (red.parse(), blue.parse()) else {
            return;
        };
        if let Ok(Some(live)) = hub.get(id).await {
            let msg = hub.presence(&live, node, [red, blue]);
            let _ = live.tx.send(Arc::new(msg));
        }
    }
}
