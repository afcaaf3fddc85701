//! The players the site knows, as others see them (docs/accounts.md, "Profiles and
//! leaderboards"): a player's profile (ratings, their history, counts), the games they
//! sat in (a page at a time, or all as one record file), the leaderboards, and an
//! anonymous player's games claimed by the account they log into. Everything here but
//! the claim is public and read-only.

use crate::accounts::{self, Category};
use crate::model::{GameState, Side};
use crate::now_ms;
use crate::server::{Answer, ApiError, App};
use crate::sessions::{self, RatingBody};
use crate::store::{GameRow, UserRow};
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use jungle_glicko2::PROVISIONAL_RD;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

type Shared = State<Arc<App>>;

/// Games in a page of a player's list.
pub const GAMES_PAGE: i64 = 20;
/// Most games in a player's download.
pub const DOWNLOAD_MAX: i64 = 10_000;
/// Players in a leaderboard.
pub const LEADERBOARD_SIZE: usize = 100;

fn no_player() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no_player", "no such player")
}

/// The account named `name` (any case, any Unicode form of it), not deleted.
async fn player(app: &App, name: &str) -> Result<UserRow, ApiError> {
    if name.is_empty() || name.len() > 100 {
        return Err(no_player());
    }
    let key = accounts::username_key(name);
    match app.hub.store.user_by_key(&key).await? {
        Some(u) if !u.deleted => Ok(u),
        _ => Err(no_player()),
    }
}

/// One rated game's change, as the profile's chart draws it.
#[derive(Serialize)]
struct PointBody {
    category: String,
    at: i64,
    rating: f64,
    rd: f64,
    game: String,
}

#[derive(Serialize)]
struct ProfileBody {
    username: String,
    is_bot: bool,
    created_at: i64,
    ratings: Vec<RatingBody>,
    history: Vec<PointBody>,
}

/// `GET /api/players/{name}`: the profile.
pub async fn profile(State(app): Shared, Path(name): Path<String>) -> Answer {
    let user = player(&app, &name).await?;
    let ratings = sessions::ratings_now(&app, &user.id).await?;
    let history = app
        .hub
        .store
        .history(&user.id)
        .await?
        .into_iter()
        .map(|h| PointBody {
            category: h.category,
            at: h.at,
            rating: h.after.0,
            rd: h.after.1,
            game: h.game_id,
        })
        .collect();
    Ok(Json(ProfileBody {
        username: user.username,
        is_bot: user.is_bot,
        created_at: user.created_at,
        ratings,
        history,
    })
    .into_response())
}

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<u32>,
}

/// A game as a player's list shows it.
#[derive(Serialize)]
struct PlayerGameBody {
    id: String,
    created_at: i64,
    rules: String,
    tc: String,
    rated: bool,
    status: String,
    /// The player's side.
    side: Side,
    /// The opponent's name: null for an anonymous player or an empty seat, and
    /// "deleted" for a deleted account.
    opponent: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, `*` (aborted); null while the game goes on.
    result: Option<String>,
    reason: Option<String>,
    /// The player's rating change in a rated game, once rated.
    rating_change: Option<f64>,
}

#[derive(Serialize)]
struct PlayerGamesBody {
    games: Vec<PlayerGameBody>,
    /// Whether a next page has games.
    more: bool,
}

/// An account's name by its id ("deleted" for a deleted one; none for no account),
/// cached per request.
async fn opponent_name(
    app: &App,
    names: &mut HashMap<String, Option<String>>,
    id: Option<&str>,
) -> Result<Option<String>, ApiError> {
    let Some(id) = id else { return Ok(None) };
    if let Some(n) = names.get(id) {
        return Ok(n.clone());
    }
    let name = app.hub.store.user(id).await?.map(|u| {
        if u.deleted {
            "deleted".to_string()
        } else {
            u.username
        }
    });
    names.insert(id.to_string(), name.clone());
    Ok(name)
}

/// The game's state as its log tells it (for its result).
async fn replayed(app: &App, id: &str) -> Result<GameState, ApiError> {
    let log = app.hub.store.events(id, 0).await?;
    Ok(GameState::replay(&log)?)
}

async fn game_item(
    app: &App,
    user: &UserRow,
    row: &GameRow,
    changes: &HashMap<String, f64>,
    names: &mut HashMap<String, Option<String>>,
) -> Result<PlayerGameBody, ApiError> {
    let side = if row.users[0].as_deref() == Some(user.id.as_str()) {
        Side::Red
    } else {
        Side::Blue
    };
    let opponent = opponent_name(app, names, row.users[side.other().index()].as_deref()).await?;
    let end = if row.status == "over" {
        replayed(app, &row.id).await?.end
    } else {
        None
    };
    Ok(PlayerGameBody {
        id: row.id.clone(),
        created_at: row.created_at,
        rules: row.rules.clone(),
        tc: row.tc.clone(),
        rated: row.rated,
        status: row.status.clone(),
        side,
        opponent,
        result: end.as_ref().map(|e| e.0.clone()),
        reason: end.map(|e| e.1),
        rating_change: changes.get(&row.id).copied(),
    })
}

/// `GET /api/players/{name}/games?page=N`: the games the player sat in, newest
/// first, `GAMES_PAGE` a page (the first page is 0).
pub async fn games(
    State(app): Shared,
    Path(name): Path<String>,
    Query(q): Query<PageQuery>,
) -> Answer {
    let user = player(&app, &name).await?;
    let page = i64::from(q.page.unwrap_or(0).min(100_000));
    let mut rows = app
        .hub
        .store
        .games_of_user(&user.id, GAMES_PAGE + 1, page * GAMES_PAGE)
        .await?;
    let more = rows.len() as i64 > GAMES_PAGE;
    rows.truncate(GAMES_PAGE as usize);
    let changes: HashMap<String, f64> = app
        .hub
        .store
        .history(&user.id)
        .await?
        .into_iter()
        .map(|h| (h.game_id, h.after.0 - h.before.0))
        .collect();
    let mut names = HashMap::new();
    let mut games = Vec::with_capacity(rows.len());
    for row in &rows {
        games.push(game_item(&app, &user, row, &changes, &mut names).await?);
    }
    Ok(Json(PlayerGamesBody { games, more }).into_response())
}

/// `GET /api/players/{name}/games.txt`: the player's finished games, oldest first,
/// as one file of `jungle match`'s record format (at most `DOWNLOAD_MAX`). Each game
/// is replayed from its log, so a download counts against the address's rate as a
/// new game does.
pub async fn download(
    State(app): Shared,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path(name): Path<String>,
) -> Answer {
    app.limited(addr.ip())?;
    let user = player(&app, &name).await?;
    let rows = app
        .hub
        .store
        .finished_of_user(&user.id, DOWNLOAD_MAX)
        .await?;
    let mut names = HashMap::new();
    let mut text = String::new();
    for (n, row) in rows.iter().enumerate() {
        let mut seat = [String::new(), String::new()];
        for side in [Side::Red, Side::Blue] {
            let id = row.users[side.index()].as_deref();
            seat[side.index()] = opponent_name(&app, &mut names, id)
                .await?
                .unwrap_or_else(|| "anonymous".to_string());
        }
        let state = replayed(&app, &row.id).await?;
        text.push_str(&state.record_named(n as u32 + 1, &seat[0], &seat[1]));
        if !text.ends_with("\n\n") {
            text.push('\n');
        }
    }
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"jungle-{}.txt\"", user.username),
            ),
        ],
        text,
    )
        .into_response())
}

/// A leaderboard's row.
#[derive(Serialize)]
struct LeaderBody {
    rank: usize,
    username: String,
    rating: i64,
    rd: f64,
    games: i64,
}

#[derive(Serialize)]
struct LeaderboardBody {
    category: String,
    players: Vec<LeaderBody>,
}

/// `GET /api/leaderboard/{category}`: the category's best `LEADERBOARD_SIZE` players
/// who are not provisional now (RD at most 110 after the time since their last rated
/// game widened it), not bots, not deleted.
pub async fn leaderboard(State(app): Shared, Path(category): Path<String>) -> Answer {
    let Some(cat) = Category::parse(&category) else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no_category",
            "no such category: RULES.SPEED, as jungle.blitz",
        ));
    };
    let now = now_ms();
    // The stored RD only grows with time: fetch those under the bound, keep those
    // still under it now.
    let rows = app
        .hub
        .store
        .leaderboard(&cat.key(), PROVISIONAL_RD, 5 * LEADERBOARD_SIZE as i64)
        .await?;
    let players = rows
        .into_iter()
        .map(|(name, r)| (name, r.rating.after_idle_ms(now - r.updated_at), r.games))
        .filter(|(_, r, _)| !r.provisional())
        .take(LEADERBOARD_SIZE)
        .enumerate()
        .map(|(i, (username, r, games))| LeaderBody {
            rank: i + 1,
            username,
            rating: r.rating.round() as i64,
            rd: r.rd,
            games,
        })
        .collect();
    Ok(Json(LeaderboardBody {
        category: cat.key(),
        players,
    })
    .into_response())
}

#[derive(Deserialize)]
pub struct ClaimReq {
    tokens: Vec<String>,
}

#[derive(Serialize)]
struct ClaimedBody {
    claimed: Vec<String>,
}

/// `POST /api/account/claim {"tokens"}`: the games whose seats these tokens hold
/// (the browser's, from before its player logged in) recorded as the session's
/// account's, where the seat has no account yet and the game is neither over nor
/// rated. A seat of another account is left as it is. Answers the games claimed.
pub async fn claim(
    State(app): Shared,
    headers: HeaderMap,
    body: Result<Json<ClaimReq>, JsonRejection>,
) -> Answer {
    let session = sessions::required(&app, &headers).await?;
    let Json(req) = body?;
    let hashes = crate::server::seat_hashes(&req.tokens)?;
    let rows = app.hub.store.games_of(&hashes).await?;
    let mut claimed = Vec::new();
    for row in rows.iter().filter(|r| r.status != "over" && !r.rated) {
        let Some(live) = app.hub.get(&row.id).await? else {
            continue;
        };
        for hash in hashes
            .iter()
            .filter(|h| row.hashes.contains(&Some((*h).clone())))
        {
            if app.hub.claim(&live, hash, &session.user.id).await? {
                claimed.push(row.id.clone());
            }
        }
    }
    if !claimed.is_empty() {
        log::info!(
            "account {} claimed {} games",
            session.user.id,
            claimed.len()
        );
    }
    Ok(Json(ClaimedBody { claimed }).into_response())
}

/// A challenger as the lobby names it.
#[derive(Serialize)]
pub struct PlayerTag {
    username: String,
    /// The rating in the challenge's category as shown (`1500?` for a new player).
    rating: String,
}

/// The widest rating range a challenge may ask (either side of the rating).
pub const MAX_RANGE: u32 = 1000;

/// An account's rating in the category of `rules` and `tc` (a new player's where it
/// has none, or the rules have no category).
async fn rating_for(app: &App, user: &str, rules: &str, tc: &str) -> Result<f64, ApiError> {
    let Some(cat) = Category::of_texts(rules, tc) else {
        return Ok(jungle_glicko2::DEFAULT_RATING);
    };
    Ok(app
        .hub
        .store
        .rating(user, &cat.key())
        .await?
        .map_or(jungle_glicko2::DEFAULT_RATING, |r| r.rating.rating))
}

/// A challenge's rating range from what its creator asked (`range`: plus or minus
/// this around the creator's rating): none when none was asked; 401 without an
/// account, 400 `bad_range` beyond `MAX_RANGE` or for rules without a rating.
pub async fn range_of(
    app: &App,
    session: Option<&sessions::Session>,
    rules: &str,
    tc: &str,
    range: Option<u32>,
) -> Result<Option<(i64, i64)>, ApiError> {
    let Some(width) = range else { return Ok(None) };
    let Some(s) = session else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "login_required",
            "a rating range is an account's: log in first",
        ));
    };
    if width == 0 || width > MAX_RANGE || Category::of_texts(rules, tc).is_none() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_range",
            format!("range: 1 to {MAX_RANGE} rating points, under jungle or jungle-cn without settings of their own"),
        ));
    }
    let center = rating_for(app, &s.user.id, rules, tc).await?.round() as i64;
    Ok(Some((center - i64::from(width), center + i64::from(width))))
}

/// Whether an open challenge's creator has a rating in `range` (any challenge when
/// there is no range; none of an anonymous creator when there is).
pub async fn creator_in_range(
    app: &App,
    row: &GameRow,
    range: Option<(i64, i64)>,
) -> Result<bool, ApiError> {
    let Some((lo, hi)) = range else {
        return Ok(true);
    };
    let Some(creator) = row.users.iter().flatten().next() else {
        return Ok(false);
    };
    let r = rating_for(app, creator, &row.rules, &row.tc).await?.round() as i64;
    Ok(lo <= r && r <= hi)
}

/// The challenger of a lobby row, if logged in.
pub async fn challenger(app: &App, row: &GameRow) -> Result<Option<PlayerTag>, ApiError> {
    let Some(id) = row.users.iter().flatten().next() else {
        return Ok(None);
    };
    let Some(user) = app.hub.store.user(id).await? else {
        return Ok(None);
    };
    let rating = match Category::of_texts(&row.rules, &row.tc) {
        Some(cat) => app
            .hub
            .store
            .rating(id, &cat.key())
            .await?
            .map(|r| r.rating.after_idle_ms(now_ms() - r.updated_at))
            .unwrap_or_default(),
        None => jungle_glicko2::Rating::default(),
    };
    Ok(Some(PlayerTag {
        username: user.username,
        rating: rating.display(),
    }))
}
