//! The HTTP and websocket front (axum on tokio): creating and joining games, the
//! lobby, "your games", records, a websocket per game, and the page. docs/online.md
//! describes every endpoint and message.

use crate::accounts::Category;
use crate::clock::online_tc;
use crate::hub::{GameSpec, Hub, Live, Reply};
use crate::messages::{self, ClientMsg, ServerMsg, MAX_MESSAGE};
use crate::model::{Refusal, Side};
use crate::players;
use crate::sessions::{self, Session};
use crate::store::{Kind, Store};
use crate::{now_ms, token_hash, token_ok, ServeArgs};
use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota};
use jungle_core::game::Rules;
use serde::{Deserialize, Serialize};
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The time a new connection has to say `hello`.
const HELLO_WAIT: Duration = Duration::from_secs(10);
/// The buffers of a websocket (tungstenite's read buffer is 128 KB by default): a
/// message is at most `MAX_MESSAGE` bytes in, a few kilobytes out.
const WS_READ_BUFFER: usize = 4 * 1024;
const WS_WRITE_BUFFER: usize = 0;
const WS_MAX_WRITE_BUFFER: usize = 256 * 1024;

/// What every handler shares.
pub struct App {
    pub hub: Arc<Hub>,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    messages_per_second: NonZeroU32,
    max_open_per_ip: i64,
    /// Log-in attempts (and password checks) by address and by account name.
    pub(crate) login_ip: DefaultKeyedRateLimiter<IpAddr>,
    pub(crate) login_name: DefaultKeyedRateLimiter<String>,
    /// Session cookies get `Secure` (`--behind-tls`).
    pub(crate) secure_cookies: bool,
    /// The endgame tables of `/api/tablebase`.
    tables: Arc<crate::tablebase::Endpoint>,
    /// Its requests per address.
    tablebase_ip: DefaultKeyedRateLimiter<IpAddr>,
    /// The bots online, on every node (`bots`).
    pub(crate) bots: crate::bots::Online,
    /// How long a quick-pairing challenge waits before a bot is offered (ms).
    pub(crate) bot_offer_ms: i64,
}

/// Makes the router of the visitors' boards on the server's engine (the `jungle gui`
/// host's, given by the binary) for at most so many visitors at once.
pub type LocalBoards = dyn Fn(usize) -> Result<Router, String> + Send + Sync;

type Shared = State<Arc<App>>;

/// Why a request was refused: a status, a code and a sentence (`{"code", "reason"}`);
/// an error of the server's own is logged and said as `internal`.
#[derive(Debug)]
pub enum ApiError {
    Refused(StatusCode, &'static str, String),
    Internal(String),
}

impl ApiError {
    pub(crate) fn new(
        status: StatusCode,
        code: &'static str,
        reason: impl Into<String>,
    ) -> ApiError {
        ApiError::Refused(status, code, reason.into())
    }
}

impl From<String> for ApiError {
    fn from(e: String) -> ApiError {
        ApiError::Internal(e)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

/// A body that is not the JSON asked for, or too big.
impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> ApiError {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(e.status(), "too_big", "the request body is too big")
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "malformed", e.body_text())
        }
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    code: &'a str,
    reason: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            ApiError::Refused(status, code, reason) => (
                status,
                Json(ErrorBody {
                    code,
                    reason: &reason,
                }),
            )
                .into_response(),
            ApiError::Internal(e) => {
                log::error!("{e}");
                let body = ErrorBody {
                    code: "internal",
                    reason: &e,
                };
                (StatusCode::INTERNAL_SERVER_ERROR, Json(body)).into_response()
            }
        }
    }
}

pub(crate) type Answer = Result<Response, ApiError>;

fn no_game() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no_game", "no such game")
}

impl App {
    /// Refused when the address is over its rate.
    pub(crate) fn limited(&self, ip: IpAddr) -> Result<(), ApiError> {
        within_rate(
            &self.limiter,
            &ip,
            "too many requests from this address: wait a little",
        )
    }

    /// The game `id`.
    async fn game(&self, id: &str) -> Result<Arc<Live>, ApiError> {
        self.hub.get(id).await?.ok_or_else(no_game)
    }
}

/// Counts a request against `key`'s rate in `limiter`: over it, a 429 `rate` error
/// saying `reason`.
pub(crate) fn within_rate<K: Clone + std::hash::Hash + Eq>(
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
    reason: &str,
) -> Result<(), ApiError> {
    limiter
        .check_key(key)
        .map_err(|_| ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate", reason))
}

#[derive(Deserialize)]
struct CreateReq {
    tc: String,
    rules: Option<String>,
    color: Option<String>,
    lobby: Option<bool>,
    rated: Option<bool>,
    /// The rating range of the challenge: the creator's rating plus or minus this.
    range: Option<u32>,
    /// The name of the bot the challenge is for (`bots::invitee`): only it may join.
    invite: Option<String>,
}

#[derive(Deserialize)]
struct QuickReq {
    tc: String,
    rules: Option<String>,
    rated: Option<bool>,
    range: Option<u32>,
}

#[derive(Deserialize)]
struct MineReq {
    tokens: Vec<String>,
}

/// Checks a new game's rules and time control: `(rules text, tc text)`, or the
/// refusal (400 `bad_tc`, `bad_rules`).
fn game_settings(tc: &str, rules: Option<&str>) -> Result<(String, String), ApiError> {
    let bad = |code: &'static str, why: String| ApiError::new(StatusCode::BAD_REQUEST, code, why);
    let tc = online_tc(tc).map_err(|e| bad("bad_tc", e))?;
    let rules = rules.unwrap_or("jungle");
    if rules.len() > 200 {
        return Err(bad("bad_rules", "rules text too long".into()));
    }
    let rules: Rules = rules.parse().map_err(|e| bad("bad_rules", e))?;
    Ok((rules.to_string(), tc.to_string()))
}

/// A rated game's creator: the account of the session (401 `login_required`
/// without one), and rules that are a named rule set's (400 `unrated_rules`).
fn rated_creator<'a>(
    session: Option<&'a Session>,
    rules: &str,
    tc: &str,
) -> Result<&'a Session, ApiError> {
    let Some(s) = session else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "login_required",
            "a rated game is played by accounts: log in first",
        ));
    };
    if Category::of_texts(rules, tc).is_none() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "unrated_rules",
            "rated games are played under the rule sets jungle and jungle-cn, without settings of their own",
        ));
    }
    Ok(s)
}

/// Bots join challenges; they make none in the lobby, which is for people to find
/// each other (403 `bot_lobby`).
fn people_only_in_lobby(session: Option<&Session>) -> Result<(), ApiError> {
    if session.is_some_and(|s| s.user.is_bot) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "bot_lobby",
            "a bot joins challenges and makes none in the lobby",
        ));
    }
    Ok(())
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

/// A seat taken: the game, the side and the token that holds it, and the links.
#[derive(Serialize)]
struct SeatBody {
    id: String,
    side: Side,
    token: String,
    play_url: String,
    watch_url: String,
    ws_url: String,
}

fn seat_body(id: &str, side: Side, token: String) -> Json<SeatBody> {
    Json(SeatBody {
        id: id.to_string(),
        side,
        token,
        play_url: format!("/play/{id}"),
        watch_url: format!("/watch/{id}"),
        ws_url: format!("/api/games/{id}/ws"),
    })
}

async fn create(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<CreateReq>, JsonRejection>,
) -> Answer {
    app.limited(addr.ip())?;
    let Json(req) = body?;
    let (rules, tc) = game_settings(&req.tc, req.rules.as_deref())?;
    let session = sessions::current(&app, &headers).await?;
    let rated = req.rated.unwrap_or(false);
    if rated {
        rated_creator(session.as_ref(), &rules, &tc)?;
    }
    let side = match req.color.as_deref().unwrap_or("random") {
        "red" => Side::Red,
        "blue" => Side::Blue,
        "random" => random_side(),
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_color",
                "color: red, blue or random",
            ))
        }
    };
    let range = players::range_of(&app, session.as_ref(), &rules, &tc, req.range).await?;
    let lobby = req.lobby.unwrap_or(false);
    if lobby {
        people_only_in_lobby(session.as_ref())?;
    }
    let invited = match &req.invite {
        Some(name) => Some(crate::bots::invitee(&app, session.as_ref(), name).await?),
        None => None,
    };
    let spec = GameSpec {
        rules: &rules,
        tc: &tc,
        // An invitation is in no one's lobby but the bot's.
        lobby: lobby && invited.is_none(),
        rated,
        range: range.filter(|_| invited.is_none()),
        invited: invited.as_deref(),
    };
    create_game(&app, &addr, spec, side, session.as_ref()).await
}

async fn create_game(
    app: &App,
    addr: &SocketAddr,
    spec: GameSpec<'_>,
    side: Side,
    session: Option<&Session>,
) -> Answer {
    let ip = addr.ip().to_string();
    let open = app.hub.store.open_games_of(&ip).await?;
    if open >= app.max_open_per_ip {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_games",
            format!("this address has {open} games not finished"),
        ));
    }
    let user = session.map(|s| s.user.id.as_str());
    let (id, token) = app.hub.create(spec, side, user, &ip).await?;
    Ok((StatusCode::CREATED, seat_body(&id, side, token)).into_response())
}

async fn join(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Answer {
    app.limited(addr.ip())?;
    let live = app.game(&id).await?;
    let session = sessions::current(&app, &headers).await?;
    let user = session.as_ref().map(|s| s.user.id.as_str());
    match app.hub.join(&live, user).await {
        Ok((side, token)) => Ok(seat_body(&id, side, token).into_response()),
        Err(r) if r.code == "login_required" => Err(ApiError::Refused(
            StatusCode::UNAUTHORIZED,
            r.code,
            r.reason,
        )),
        Err(r) if r.code == "invited_only" => {
            Err(ApiError::Refused(StatusCode::FORBIDDEN, r.code, r.reason))
        }
        Err(r) => Err(ApiError::Refused(StatusCode::CONFLICT, r.code, r.reason)),
    }
}

async fn game_state(State(app): Shared, Path(id): Path<String>) -> Answer {
    let live = app.game(&id).await?;
    Ok(Json(app.hub.snapshot(&live, None).await.0).into_response())
}

async fn record(State(app): Shared, Path(id): Path<String>) -> Answer {
    let live = app.game(&id).await?;
    let (text, _) = app.hub.record(&live).await;
    Ok((
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
        .into_response())
}

/// A game of the lobby or of "your games", as listed.
#[derive(Serialize)]
struct RowBody {
    id: String,
    tc: String,
    rules: String,
    status: String,
    created_at: i64,
    rated: bool,
    open_side: Option<Side>,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<Side>,
    /// The speed of the time control (`bullet` … `correspondence`).
    speed: Option<&'static str>,
    /// The ratings a joiner must have.
    range: Option<(i64, i64)>,
    /// In the lobby: the challenger's name and rating in the game's category as
    /// shown (`1500?`), if the challenger is logged in.
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<players::PlayerTag>,
    /// In a bot's lobby: a challenge that invites it (docs/accounts.md, "Bots online").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    invited: bool,
}

fn row_body(r: &crate::store::GameRow, side: Option<Side>) -> RowBody {
    let open_side = if r.hashes[0].is_none() {
        Some(Side::Red)
    } else if r.hashes[1].is_none() {
        Some(Side::Blue)
    } else {
        None
    };
    RowBody {
        id: r.id.clone(),
        tc: r.tc.clone(),
        rules: r.rules.clone(),
        status: r.status.clone(),
        created_at: r.created_at,
        rated: r.rated,
        open_side,
        side,
        speed: crate::clock::stored_tc(&r.tc)
            .ok()
            .and_then(|tc| tc.speed())
            .map(|s| s.name()),
        range: r.range,
        player: None,
        invited: false,
    }
}

#[derive(Serialize)]
struct GamesBody {
    games: Vec<RowBody>,
}

/// The lobby's answer: its challenges (a bot's invitations first), and for the
/// creator of a challenge that has waited (`?waiting=ID`), the bot offered instead.
#[derive(Serialize)]
struct LobbyBody {
    games: Vec<RowBody>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bot_offer: Option<crate::bots::BotOffer>,
}

#[derive(Deserialize)]
struct LobbyQuery {
    waiting: Option<String>,
}

#[derive(Deserialize)]
struct TablebaseQuery {
    fen: String,
}

/// `GET /api/tablebase?fen=…` (`tablebase`): loading a table takes a moment, off the
/// runtime's threads.
async fn tablebase(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    axum::extract::Query(q): axum::extract::Query<TablebaseQuery>,
) -> Answer {
    within_rate(
        &app.tablebase_ip,
        &addr.ip(),
        "too many table probes from this address: wait a little",
    )?;
    let tables = Arc::clone(&app.tables);
    let answer = tokio::task::spawn_blocking(move || crate::tablebase::probe(&tables, &q.fen))
        .await
        .map_err(|e| e.to_string())?;
    match answer {
        Ok(body) => Ok(Json(body).into_response()),
        Err((status, code, reason)) => Err(ApiError::new(
            StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST),
            code,
            reason,
        )),
    }
}

/// `GET /api/lobby[?waiting=ID]`: the open challenges; asked by a bot, it is online
/// and its invitations come first, marked.
async fn lobby(
    State(app): Shared,
    headers: HeaderMap,
    axum::extract::Query(q): axum::extract::Query<LobbyQuery>,
) -> Answer {
    let session = sessions::current(&app, &headers).await?;
    let mut rows = Vec::new();
    if let Some(bot) = session.as_ref().filter(|s| s.user.is_bot) {
        app.bots
            .polled(&app.hub.store, &bot.user.id, None, now_ms())
            .await?;
        rows = app.hub.store.invitations(&bot.user.id).await?;
    }
    let invitations = rows.len();
    rows.extend(app.hub.store.lobby().await?);
    let mut games = Vec::with_capacity(rows.len());
    let mut bot_offer = None;
    for (i, r) in rows.iter().enumerate() {
        let mut row = row_body(r, None);
        row.player = players::challenger(&app, r).await?;
        row.invited = i < invitations;
        if q.waiting.as_deref() == Some(r.id.as_str()) {
            bot_offer = crate::bots::offer_for(&app, r).await?;
        }
        games.push(row);
    }
    Ok(Json(LobbyBody { games, bot_offer }).into_response())
}

/// Quick pairing: the oldest open challenge with the same clock, rules and rating
/// (rated or casual; not one's own), else a new challenge in the lobby.
async fn quick(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<QuickReq>, JsonRejection>,
) -> Answer {
    app.limited(addr.ip())?;
    let Json(req) = body?;
    let (rules, tc) = game_settings(&req.tc, req.rules.as_deref())?;
    let session = sessions::current(&app, &headers).await?;
    people_only_in_lobby(session.as_ref())?;
    let rated = req.rated.unwrap_or(false);
    if rated {
        rated_creator(session.as_ref(), &rules, &tc)?;
    }
    let range = players::range_of(&app, session.as_ref(), &rules, &tc, req.range).await?;
    let user = session.as_ref().map(|s| s.user.id.as_str());
    let open = app.hub.store.lobby().await?;
    let mine =
        |r: &crate::store::GameRow| user.is_some() && r.users.iter().any(|u| u.as_deref() == user);
    for row in open
        .iter()
        .filter(|r| r.tc == tc && r.rules == rules && r.rated == rated && !mine(r))
    {
        if !players::creator_in_range(&app, row, range).await? {
            continue;
        }
        let Ok(Some(live)) = app.hub.get(&row.id).await else {
            continue;
        };
        if let Ok((side, token)) = app.hub.join(&live, user).await {
            return Ok(seat_body(&row.id, side, token).into_response());
        }
    }
    let spec = GameSpec {
        rules: &rules,
        tc: &tc,
        lobby: true,
        rated,
        range,
        invited: None,
    };
    create_game(&app, &addr, spec, random_side(), session.as_ref()).await
}

/// The hashes of a browser's seat tokens (up to 50, each 32 hex digits, else 400
/// `bad_token`).
pub(crate) fn seat_hashes(tokens: &[String]) -> Result<Vec<String>, ApiError> {
    if tokens.len() > 50 || !tokens.iter().all(|t| token_ok(t)) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_token",
            "up to 50 tokens of 32 hex digits",
        ));
    }
    Ok(tokens.iter().map(|t| token_hash(t)).collect())
}

/// "Your games": the games whose seats the given tokens hold, newest first.
async fn mine(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<MineReq>, JsonRejection>,
) -> Answer {
    app.limited(addr.ip())?;
    let Json(req) = body?;
    let hashes = seat_hashes(&req.tokens)?;
    let rows = app.hub.store.games_of(&hashes).await?;
    let games = rows
        .iter()
        .map(|r| {
            let red = hashes.iter().any(|h| r.hashes[0].as_ref() == Some(h));
            row_body(r, Some(if red { Side::Red } else { Side::Blue }))
        })
        .collect();
    Ok(Json(GamesBody { games }).into_response())
}

/// A websocket upgrade is refused from a page of another site (its `Origin` names
/// another host than the request's `Host`).
pub(crate) fn origin_ok(headers: &HeaderMap) -> bool {
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
) -> Answer {
    if !origin_ok(&headers) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "origin",
            "websocket from another site's page",
        ));
    }
    let live = app.game(&id).await?;
    Ok(upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(WS_WRITE_BUFFER)
        .max_write_buffer_size(WS_MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| session(app, live, socket)))
}

type Sink = SplitSink<WebSocket, Message>;

async fn send(sink: &mut Sink, text: &Arc<str>) -> bool {
    sink.send(Message::Text(text.as_ref().into())).await.is_ok()
}

async fn send_msg(sink: &mut Sink, msg: ServerMsg) -> bool {
    send(sink, &msg.text()).await
}

/// A refusal of what the server could not read (no command to name).
fn unreadable(r: Refusal) -> ServerMsg {
    ServerMsg::refused(None, r)
}

/// One websocket connection to a game: `hello`, the catch-up, then events out and
/// commands in.
async fn session(app: Arc<App>, live: Arc<Live>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let Some((seat, since)) = hello(&app, &live, &mut sink, &mut stream).await else {
        return;
    };
    // Subscribed before the catch-up, so that nothing stored meanwhile is missed.
    let rx = live.tx.subscribe();
    let Some(last_v) = catch_up(&app, &live, seat, since, &mut sink).await else {
        return;
    };
    if !send_msg(
        &mut sink,
        ServerMsg::Welcome {
            you: seat,
            v: last_v,
        },
    )
    .await
    {
        return;
    }
    if let Some(side) = seat {
        connect(&app, &live, side, 1).await;
    }
    play(&app, &live, seat, last_v, rx, &mut sink, &mut stream).await;
    if let Some(side) = seat {
        connect(&app, &live, side, -1).await;
    }
}

/// The connection's `hello`: the seat its token holds (a token of no seat is told so
/// and watches) and the version it has; `None` when the connection is over.
async fn hello(
    app: &App,
    live: &Live,
    sink: &mut Sink,
    stream: &mut SplitStream<WebSocket>,
) -> Option<(Option<Side>, Option<u64>)> {
    let no_hello = || unreadable(Refusal::new("no_hello", "the first message must be hello"));
    let (token, since) = match tokio::time::timeout(HELLO_WAIT, stream.next()).await {
        Ok(Some(Ok(Message::Text(t)))) => match messages::parse(&t) {
            Ok(ClientMsg::Hello { token, since }) => (token, since),
            Ok(_) => {
                send_msg(sink, no_hello()).await;
                return None;
            }
            Err(r) => {
                send_msg(sink, unreadable(r)).await;
                return None;
            }
        },
        _ => {
            send_msg(sink, no_hello()).await;
            return None;
        }
    };
    let Some(t) = token.as_deref() else {
        return Some((None, since));
    };
    let seat = if token_ok(t) {
        app.hub.seat_of(live, Some(t)).await
    } else {
        None
    };
    if seat.is_none() {
        let r = Refusal::new("no_seat", "this token holds no seat in this game");
        if !send_msg(sink, unreadable(r)).await {
            return None;
        }
    }
    Some((seat, since))
}

/// What the connection missed: the events after its version, or the whole state; the
/// version it is then at (`None`: the connection is over).
async fn catch_up(
    app: &App,
    live: &Live,
    seat: Option<Side>,
    since: Option<u64>,
    sink: &mut Sink,
) -> Option<u64> {
    if let Some(s) = since {
        if let Some(events) = app.hub.since(live, s).await {
            let mut last_v = s;
            for e in events {
                last_v = e.v;
                if !send_msg(sink, ServerMsg::Event(Box::new(e))).await {
                    return None;
                }
            }
            return Some(last_v);
        }
    }
    let (state, v) = app.hub.snapshot(live, seat).await;
    send_msg(sink, ServerMsg::State(Box::new(state)))
        .await
        .then_some(v)
}

/// The connection in play: the game's messages out (an event once, in order; a whole
/// state again when it fell behind), its commands in, rate-limited.
async fn play(
    app: &App,
    live: &Arc<Live>,
    seat: Option<Side>,
    mut last_v: u64,
    mut rx: tokio::sync::broadcast::Receiver<Arc<str>>,
    sink: &mut Sink,
    stream: &mut SplitStream<WebSocket>,
) {
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
                    // An event the catch-up already sent is skipped.
                    if let Some(v) = event_version(&msg) {
                        if v <= last_v {
                            continue;
                        }
                        last_v = v;
                    }
                    if !send(sink, &msg).await {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    let (state, v) = app.hub.snapshot(live, seat).await;
                    last_v = v;
                    if !send_msg(sink, ServerMsg::State(Box::new(state))).await {
                        return;
                    }
                }
                Err(_) => return,
            },
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let r = Refusal::new("malformed", "messages are JSON text");
                        if !send_msg(sink, unreadable(r)).await {
                            return;
                        }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                };
                let reply = match messages::parse(&text) {
                    Err(r) => Some(unreadable(r)),
                    Ok(msg) if limiter.check().is_err() => Some(ServerMsg::refused(
                        Some(msg.kind()),
                        Refusal::new("rate", "too many messages: slow down"),
                    )),
                    Ok(msg) => handle(app, live, seat, msg).await,
                };
                if let Some(r) = reply {
                    if !send_msg(sink, r).await {
                        return;
                    }
                }
            }
        }
    }
}

/// The version of an event message, read from its text (written by `ServerMsg::text`,
/// whose `t` comes first and whose event's `v` second).
fn event_version(text: &str) -> Option<u64> {
    let rest = text.strip_prefix(r#"{"t":"event","v":"#)?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// One command from a connection; what to answer it directly, if anything.
async fn handle(
    app: &App,
    live: &Arc<Live>,
    seat: Option<Side>,
    msg: ClientMsg,
) -> Option<ServerMsg> {
    let kind = msg.kind();
    if matches!(msg, ClientMsg::Hello { .. }) {
        return Some(ServerMsg::refused(
            Some(kind),
            Refusal::new("hello_again", "hello was already said"),
        ));
    }
    if !msg.is_command() {
        return Some(ServerMsg::Pong { now: now_ms() });
    }
    match app.hub.command(live, seat, msg).await {
        Reply::Done => None,
        Reply::Again { ply, v } => Some(ServerMsg::Ack { ply, v }),
        Reply::Refused(r) => Some(ServerMsg::refused(Some(kind), r)),
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
    let _ = live.tx.send(msg);
    if let Some(user) = &hub.users(live).await[side.index()] {
        if let Err(e) = app.bots.held(&hub.store, user, delta, now_ms()).await {
            log::warn!("a bot's game websocket not recorded: {e}");
        }
    }
    if let Err(e) = hub.store.notify_presence(&live.id, counts).await {
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
        None => ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such file").into_response(),
    }
}

/// The online game's back end, built into the server so that it always speaks this
/// server's protocol: js/backend.js, served as `/backend.js`, and the modules it
/// imports, served under `/online/` (docs/online.md, "The page").
pub const BACKEND_FILES: [(&str, &str); 6] = [
    ("/backend.js", include_str!("../js/backend.js")),
    ("/online/api.js", include_str!("../js/api.js")),
    ("/online/game.js", include_str!("../js/game.js")),
    ("/online/review.js", include_str!("../js/review.js")),
    ("/online/socket.js", include_str!("../js/socket.js")),
    ("/online/view.js", include_str!("../js/view.js")),
];

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
                    Err(e) => {
                        ApiError::Internal(format!("{}: {e}", file.display())).into_response()
                    }
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
        .route("/api/games/{id}/decline", post(crate::bots::decline))
        .route("/api/bots", get(crate::bots::list))
        .route("/api/bots/online", post(crate::bots::announce))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api/lobby", get(lobby))
        .route("/api/lobby/quick", post(quick))
        .route("/api/mine", post(mine))
        .route("/api/account/signup", post(sessions::signup))
        .route("/api/account/login", post(sessions::login))
        .route("/api/account/logout", post(sessions::logout))
        .route("/api/account/password", post(sessions::password))
        .route("/api/account/delete", post(sessions::delete))
        .route("/api/account/me", get(sessions::me))
        .route("/api/account/session", get(sessions::session))
        .route("/api/account/claim", post(players::claim))
        .route("/api/players/{name}", get(players::profile))
        .route("/api/players/{name}/games", get(players::games))
        .route("/api/players/{name}/games.txt", get(players::download))
        .route("/api/leaderboard/{category}", get(players::leaderboard))
        .route("/api/account/token", post(sessions::api_token))
        .route("/api/account/bot", post(sessions::become_bot))
        .route("/api/puzzles/attempt", post(crate::puzzles::attempt))
        .route("/api/puzzles/next", get(crate::puzzles::next))
        .route("/api/tablebase", get(tablebase))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_MESSAGE))
        .layer(middleware::from_fn(same_site))
        .with_state(app);
    let backend = BACKEND_FILES
        .into_iter()
        .fold(Router::new(), |router, (path, body)| {
            router.route(path, get(move || async move { file_response(path, body) }))
        });
    backend
        .route("/", get(page))
        .route("/index.html", get(page))
        .route("/play/{id}", get(page))
        .route("/watch/{id}", get(page))
        .route("/@/{name}", get(page))
        .route("/leaderboard", get(page))
        .route("/{*path}", get(page_file))
        .merge(api)
        .merge(local)
}

/// Refuses (403 `origin`) a request that changes something and comes from another
/// site's page: every request but GET and HEAD that carries the session cookie or
/// goes to `/api/account/`, when its `Origin` names another host than `Host` (or,
/// without `Origin`, its `Sec-Fetch-Site` is `cross-site` or `same-site`).
async fn same_site(req: axum::extract::Request, next: Next) -> Response {
    let changes = !matches!(
        *req.method(),
        axum::http::Method::GET | axum::http::Method::HEAD
    );
    let guarded =
        sessions::has_cookie(req.headers()) || req.uri().path().starts_with("/api/account/");
    if changes && guarded && !from_this_site(req.headers()) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "origin",
            "a request from another site's page",
        )
        .into_response();
    }
    next.run(req).await
}

/// Whether a request comes from this site's pages (or from no browser at all).
fn from_this_site(headers: &HeaderMap) -> bool {
    if headers.contains_key(header::ORIGIN) {
        return origin_ok(headers);
    }
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some(site) => site == "same-origin" || site == "none",
        None => true,
    }
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
    // The limits are checked before the database is opened (or made).
    let per_minute = NonZeroU32::new(args.creates_per_minute)
        .ok_or("--creates-per-minute must be at least 1")?;
    let messages_per_second = NonZeroU32::new(args.messages_per_second)
        .ok_or("--messages-per-second must be at least 1")?;
    let logins =
        NonZeroU32::new(args.logins_per_minute).ok_or("--logins-per-minute must be at least 1")?;
    let tablebase_probes = NonZeroU32::new(args.tablebase_per_minute)
        .ok_or("--tablebase-per-minute must be at least 1")?;
    let store = Store::open_with(&url, &node, args.sqlite_sync).await?;
    let hub = Hub::new(store.clone(), node.clone());
    let app = Arc::new(App {
        hub: hub.clone(),
        limiter: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
        messages_per_second,
        max_open_per_ip: args.max_open_per_ip,
        login_ip: DefaultKeyedRateLimiter::keyed(Quota::per_minute(logins)),
        login_name: DefaultKeyedRateLimiter::keyed(Quota::per_minute(logins)),
        secure_cookies: args.behind_tls,
        tables: Arc::new(crate::tablebase::Endpoint::new(
            args.tablebases.clone(),
            (args.tablebase_memory_mb as usize) << 20,
        )),
        tablebase_ip: DefaultKeyedRateLimiter::keyed(Quota::per_minute(tablebase_probes)),
        bots: crate::bots::Online::new(args.bots_online_ms),
        bot_offer_ms: args.bot_offer_ms as i64,
    });
    if store.kind() == Kind::Postgres {
        follow(hub.clone(), url.clone()).await?;
    }
    // The hash an unknown name is checked against is made now, so that the first
    // log-in with an unknown name takes no longer than any other.
    drop(tokio::task::spawn_blocking(|| {
        crate::accounts::verify_password("", None)
    }));
    let resumed = hub.resume().await?;
    log::info!("node {node}: {resumed} games not over resumed");
    tokio::spawn(background(hub.clone()));
    tokio::spawn(crate::bots::keep(app.clone()));
    // The rate limiter forgets addresses that have been quiet.
    let quiet = app.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(60)).await;
            quiet.limiter.retain_recent();
            quiet.login_ip.retain_recent();
            quiet.login_name.retain_recent();
            quiet.tablebase_ip.retain_recent();
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

/// PostgreSQL: follows the other nodes' notifications (a game changed; a seat's
/// presence on a node); after a lost connection, reads what every game missed.
async fn follow(hub: Arc<Hub>, url: String) -> Result<(), String> {
    let mut notices = crate::store::listen(&url).await?;
    tokio::spawn(async move {
        while let Some(n) = notices.recv().await {
            match n {
                Some(notice) => hub.notified(notice).await,
                None => hub.catch_up_all().await,
            }
        }
    });
    Ok(())
}
