//! The account requests (`/api/account/…`), the session cookie, the API tokens of
//! programs (a session sent as `Authorization: Bearer …`) and bot accounts.
//! docs/accounts.md describes them. The server makes every session token (128 random
//! bits) and keeps only its SHA-256; no password or token is ever logged.

use crate::accounts::{self, Invalid};
use crate::server::{within_rate, Answer, ApiError, App};
use crate::store::{AppendError, UserRow};
use crate::{new_token, now_ms, same_secret, token_hash, token_ok};
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use jungle_glicko2::Rating;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::sync::Arc;

/// The session cookie's name.
pub const COOKIE: &str = "jungle_session";
/// The cookie's lifetime in the browser.
pub const COOKIE_MAX_AGE_S: i64 = 365 * 24 * 3600;
/// A session unused this long is over.
pub const SESSION_IDLE_MS: i64 = 90 * 24 * 3_600_000;

/// A logged-in request: the account and its session's stored hash.
pub struct Session {
    pub user: UserRow,
    pub hash: String,
}

/// The session token the request's cookie carries, if well-formed.
fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|t| token_ok(t))
}

/// The API token of `Authorization: Bearer TOKEN`, if well-formed.
fn bearer_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .filter(|t| token_ok(t))
}

/// Whether the request carries a session cookie (well-formed or not).
pub fn has_cookie(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains(COOKIE))
}

/// The request's session, if its API token (`Authorization: Bearer`) or else its
/// cookie names one that is not over.
pub async fn current(app: &App, headers: &HeaderMap) -> Result<Option<Session>, ApiError> {
    let Some(token) = bearer_token(headers).or_else(|| cookie_token(headers)) else {
        return Ok(None);
    };
    let hash = token_hash(&token);
    let now = now_ms();
    let found = app
        .hub
        .store
        .session(&hash, now, now - SESSION_IDLE_MS)
        .await?;
    Ok(found
        .and_then(|(user, stored)| same_secret(&stored, &hash).then_some(Session { user, hash })))
}

/// The request's session, or 401 `login_required`.
pub(crate) async fn required(app: &App, headers: &HeaderMap) -> Result<Session, ApiError> {
    current(app, headers)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "login_required", "log in first"))
}

/// The `Set-Cookie` of a new session, or of its end (`None`).
fn set_cookie(app: &App, token: Option<&str>) -> String {
    let secure = if app.secure_cookies { "; Secure" } else { "" };
    match token {
        Some(t) => format!(
            "{COOKIE}={t}; Path=/; HttpOnly; SameSite=Lax; Max-Age={COOKIE_MAX_AGE_S}{secure}"
        ),
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    }
}

/// `{"ok": true}` with the cookie cleared.
fn logged_out(app: &App) -> axum::response::Response {
    (
        [(header::SET_COOKIE, set_cookie(app, None))],
        Json(serde_json::json!({"ok": true})),
    )
        .into_response()
}

fn refused(e: Invalid) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, e.code, e.reason)
}

/// The one answer to a wrong name and a wrong password.
fn bad_login() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "bad_login",
        "wrong username or password",
    )
}

/// Counts a password check against the address's and the name's rates.
fn login_limited(app: &App, addr: &SocketAddr, key: &str) -> Result<(), ApiError> {
    const REASON: &str = "too many attempts to log in: wait a minute";
    within_rate(&app.login_ip, &addr.ip(), REASON)?;
    within_rate(&app.login_name, &key.to_string(), REASON)
}

/// Hashes off the async threads (Argon2id takes tens of milliseconds).
async fn hash(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || accounts::hash_password(&password))
        .await
        .map_err(|e| ApiError::Internal(format!("hashing: {e}")))?
        .map_err(ApiError::Internal)
}

async fn verify(password: String, hash: Option<String>) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || accounts::verify_password(&password, hash.as_deref()))
        .await
        .map_err(|e| ApiError::Internal(format!("hashing: {e}")))
}

#[derive(Deserialize)]
pub struct Credentials {
    pub(crate) username: String,
    pub(crate) password: String,
}

#[derive(Deserialize)]
pub struct PasswordReq {
    pub(crate) old: String,
    pub(crate) new: String,
}

#[derive(Deserialize)]
pub struct DeleteReq {
    pub(crate) password: String,
}

/// An account as its owner sees it.
#[derive(Serialize)]
struct MeBody {
    id: String,
    username: String,
    is_bot: bool,
    created_at: i64,
    ratings: Vec<RatingBody>,
}

/// One category's rating: the figures, the games, and how it is shown (`1500?`).
#[derive(Serialize)]
pub(crate) struct RatingBody {
    category: String,
    rating: f64,
    rd: f64,
    vol: f64,
    games: i64,
    provisional: bool,
    shown: String,
}

pub(crate) fn rating_body(category: String, r: Rating, games: i64) -> RatingBody {
    RatingBody {
        category,
        rating: r.rating,
        rd: r.rd,
        vol: r.vol,
        games,
        provisional: r.provisional(),
        shown: r.display(),
    }
}

/// A new session for `user`: the answer's cookie.
async fn log_in(app: &App, user: &UserRow, status: StatusCode) -> Answer {
    let token = new_token()?;
    app.hub
        .store
        .create_session(&token_hash(&token), &user.id, now_ms())
        .await?;
    let body = serde_json::json!({"id": user.id, "username": user.username});
    Ok((
        status,
        [(header::SET_COOKIE, set_cookie(app, Some(&token)))],
        Json(body),
    )
        .into_response())
}

/// `POST /api/account/signup {username, password}`: a new account, logged in.
pub async fn signup(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Answer {
    app.limited(addr.ip())?;
    let Json(req) = body?;
    let name = accounts::username(&req.username).map_err(refused)?;
    accounts::password_ok(&req.password, &name).map_err(refused)?;
    let taken = || {
        ApiError::new(
            StatusCode::CONFLICT,
            "username_taken",
            format!("the name '{}' is taken", name.shown),
        )
    };
    if app.hub.store.user_by_key(&name.key).await?.is_some() {
        return Err(taken());
    }
    let password_hash = hash(req.password).await?;
    let id = crate::hub::new_game_id()?;
    let now = now_ms();
    match app
        .hub
        .store
        .create_user(&id, &name.shown, &name.key, &password_hash, now)
        .await
    {
        Ok(()) => {}
        Err(AppendError::Conflict) => return Err(taken()),
        Err(AppendError::Db(e)) => return Err(e.into()),
    }
    log::info!("account {id} created");
    let user = app
        .hub
        .store
        .user(&id)
        .await?
        .ok_or_else(|| ApiError::Internal("a new account vanished".into()))?;
    log_in(&app, &user, StatusCode::CREATED).await
}

/// `POST /api/account/login {username, password}`: a new session. A wrong name and a
/// wrong password get the same answer, in the same time.
pub async fn login(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Answer {
    let Json(req) = body?;
    let key = accounts::username_key(&req.username);
    login_limited(&app, &addr, &key)?;
    let user = app.hub.store.user_by_key(&key).await?;
    let stored = user.as_ref().map(|u| u.password_hash.clone());
    if !verify(req.password, stored).await? {
        return Err(bad_login());
    }
    let user = user.ok_or_else(bad_login)?;
    log_in(&app, &user, StatusCode::OK).await
}

/// `POST /api/account/logout`: the session ends (if there is one) and the cookie is
/// cleared.
pub async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    if let Some(s) = current(&app, &headers).await? {
        app.hub.store.drop_session(&s.hash).await?;
    }
    Ok(logged_out(&app))
}

/// The session's account, its password checked (401 `bad_password`).
async fn with_password(
    app: &App,
    addr: &SocketAddr,
    headers: &HeaderMap,
    password: String,
) -> Result<Session, ApiError> {
    let s = required(app, headers).await?;
    login_limited(app, addr, &accounts::username_key(&s.user.username))?;
    if !verify(password, Some(s.user.password_hash.clone())).await? {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad_password",
            "wrong password",
        ));
    }
    Ok(s)
}

/// `POST /api/account/password {old, new}`: a new password; every other session of
/// the account ends.
pub async fn password(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<PasswordReq>, JsonRejection>,
) -> Answer {
    let Json(req) = body?;
    let s = with_password(&app, &addr, &headers, req.old).await?;
    let name = accounts::Username {
        key: accounts::username_key(&s.user.username),
        shown: s.user.username.clone(),
    };
    accounts::password_ok(&req.new, &name).map_err(refused)?;
    let new_hash = hash(req.new).await?;
    app.hub
        .store
        .set_password(&s.user.id, &new_hash, &s.hash)
        .await?;
    Ok(Json(serde_json::json!({"ok": true})).into_response())
}

/// `POST /api/account/delete {password}`: the account is deleted (its games kept,
/// its name gone), its sessions end.
pub async fn delete(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<DeleteReq>, JsonRejection>,
) -> Answer {
    let Json(req) = body?;
    let s = with_password(&app, &addr, &headers, req.password).await?;
    app.hub.store.delete_user(&s.user.id).await?;
    log::info!("account {} deleted", s.user.id);
    Ok(logged_out(&app))
}

/// An account's ratings, each category it has played rated, its RD widened by the
/// time since.
pub(crate) async fn ratings_now(app: &App, user_id: &str) -> Result<Vec<RatingBody>, ApiError> {
    let now = now_ms();
    Ok(app
        .hub
        .store
        .ratings(user_id)
        .await?
        .into_iter()
        .map(|r| {
            let shown = r.rating.after_idle_ms(now - r.updated_at);
            rating_body(r.category, shown, r.games)
        })
        .collect())
}

/// `GET /api/account/me`: the session's account and its ratings (each category it
/// has played rated, its RD widened by the time since).
pub async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let s = required(&app, &headers).await?;
    Ok(Json(me_body(&app, s).await?).into_response())
}

async fn me_body(app: &App, s: Session) -> Result<MeBody, ApiError> {
    let ratings = ratings_now(app, &s.user.id).await?;
    Ok(MeBody {
        id: s.user.id,
        username: s.user.username,
        is_bot: s.user.is_bot,
        created_at: s.user.created_at,
        ratings,
    })
}

#[derive(Serialize)]
struct SessionBody {
    account: Option<MeBody>,
}

/// `GET /api/account/session`: the page's question "who is this?": the account as
/// `me` answers it, or null without a session (200 either way, so that an anonymous
/// visit shows no failed request).
pub async fn session(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let account = match current(&app, &headers).await? {
        Some(s) => Some(me_body(&app, s).await?),
        None => None,
    };
    Ok(Json(SessionBody { account }).into_response())
}

/// `POST /api/account/token`: a new session for a program (a bot), its token in the
/// answer's body and not in a cookie; the program sends it as `Authorization: Bearer
/// TOKEN`. It ends as every session does (logout with it, a new password, deletion, 90
/// days unused).
pub async fn api_token(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let s = required(&app, &headers).await?;
    let token = new_token()?;
    app.hub
        .store
        .create_session(&token_hash(&token), &s.user.id, now_ms())
        .await?;
    log::info!("account {} made an API token", s.user.id);
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({"token": token})),
    )
        .into_response())
}

/// `POST /api/account/bot`: the account becomes a bot account, for good; only one
/// that has sat in no game (409 `has_games`), so that no person's games and ratings
/// become a program's.
pub async fn become_bot(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let s = required(&app, &headers).await?;
    if !s.user.is_bot && !app.hub.store.make_bot(&s.user.id).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "has_games",
            "an account that has played becomes no bot: make a new account for the bot",
        ));
    }
    log::info!("account {} is a bot", s.user.id);
    Ok(Json(serde_json::json!({"ok": true, "is_bot": true})).into_response())
}
