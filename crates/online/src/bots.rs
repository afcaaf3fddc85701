//! Bots online (docs/accounts.md, "Bots online"), after lichess's bot API: which bot
//! accounts are online and what they play, `GET /api/bots`, challenges that invite a
//! bot by name and the bot's decline, and the bot offered to a player who waits in
//! quick pairing.
//!
//! A bot is online while it has asked for the lobby (or held a game's websocket)
//! within the window (`--bots-online-ms`, a minute), on any node: each node writes the
//! time it saw a bot to the database (`bots_online`, at most every few seconds per
//! bot), and every node reads the same. A challenge that invites a bot gone offline is
//! withdrawn by the server (`withdraw_unanswered`, reason `bot_offline`).

use crate::accounts::Category;
use crate::clock::{online_tc, stored_tc};
use crate::now_ms;
use crate::server::{Answer, ApiError, App};
use crate::sessions::{self, Session};
use crate::store::{GameRow, Store};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use jungle_core::game::Rules;
use jungle_core::time_control::TimeControl;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A quick-pairing challenge that has waited this long with no opponent is offered
/// the nearest bot online: long enough for the people in the lobby to see it (the
/// page looks at the lobby every 4 s), short enough that few give up before
/// (`--bot-offer-ms` sets it).
pub const BOT_OFFER_WAIT_MS: u64 = 20_000;
/// How long a bot counts as online after its last poll (`--bots-online-ms` sets it).
pub const ONLINE_MS: u64 = 60_000;
/// The most rule sets and time controls a bot may list.
const MAX_LISTED: usize = 32;
/// The longest level a bot may give.
const MAX_LEVEL: usize = 24;

/// What a bot says it plays (`POST /api/bots/online`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PlaysReq {
    /// The project's engine's level (`1` … `8`), `engine` for another engine.
    level: Option<String>,
    /// The rule sets it accepts (default jungle and jungle-cn).
    #[serde(default)]
    rules: Vec<String>,
    /// The time controls it accepts (default every live clock).
    #[serde(default)]
    tcs: Vec<String>,
    rated: bool,
    casual: bool,
    /// It takes invitations only, not the lobby's open challenges.
    #[serde(default)]
    invitations_only: bool,
}

/// What a bot plays, checked.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Plays {
    pub level: Option<String>,
    pub rules: Vec<String>,
    pub tcs: Vec<String>,
    pub rated: bool,
    pub casual: bool,
    pub invitations_only: bool,
    #[serde(skip)]
    parsed_rules: Vec<Rules>,
    #[serde(skip)]
    parsed_tcs: Vec<TimeControl>,
}

fn bad_plays(why: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "bad_plays", why)
}

impl Plays {
    /// Reads what a bot says it plays; the error names what is wrong.
    pub fn of(req: PlaysReq) -> Result<Plays, String> {
        if req.rules.len() > MAX_LISTED || req.tcs.len() > MAX_LISTED {
            return Err(format!("at most {MAX_LISTED} rule sets and time controls"));
        }
        if let Some(level) = &req.level {
            let ok = level == "engine"
                || level
                    .parse::<u32>()
                    .is_ok_and(|n| (1..=jungle_app::seats::LEVEL_NAMES.len() as u32).contains(&n));
            if !ok || level.len() > MAX_LEVEL {
                return Err(format!(
                    "level: 1 to {} or engine, not '{}'",
                    jungle_app::seats::LEVEL_NAMES.len(),
                    jungle_core::text::quote(level)
                ));
            }
        }
        let rule_texts = if req.rules.is_empty() {
            vec!["jungle".to_string(), "jungle-cn".to_string()]
        } else {
            req.rules
        };
        let mut parsed_rules = Vec::new();
        for r in &rule_texts {
            if r.len() > 200 {
                return Err("rules: a rule set's text is too long".into());
            }
            parsed_rules.push(r.parse::<Rules>().map_err(|e| format!("rules: {e}"))?);
        }
        let parsed_tcs = req
            .tcs
            .iter()
            .map(|t| online_tc(t).map_err(|e| format!("tcs: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        if !req.rated && !req.casual {
            return Err("rated and casual both false: the bot would accept no game".into());
        }
        Ok(Plays {
            level: req.level,
            rules: parsed_rules.iter().map(Rules::to_string).collect(),
            tcs: parsed_tcs.iter().map(TimeControl::to_string).collect(),
            rated: req.rated,
            casual: req.casual,
            invitations_only: req.invitations_only,
            parsed_rules,
            parsed_tcs,
        })
    }

    /// Whether the bot takes a challenge of these rules and clock, rated or not.
    pub fn accepts(&self, rules: &str, tc: &str, rated: bool) -> bool {
        let Ok(tc) = stored_tc(tc) else { return false };
        let clock_ok = if self.parsed_tcs.is_empty() {
            matches!(tc, TimeControl::Clock { .. })
        } else {
            self.parsed_tcs.contains(&tc)
        };
        let rules_ok = rules
            .parse::<Rules>()
            .is_ok_and(|r| self.parsed_rules.contains(&r));
        clock_ok && rules_ok && if rated { self.rated } else { self.casual }
    }
}

/// What a node remembers of a bot that polled it or holds a game's websocket on it:
/// when it last wrote the bot's time to the database, what it plays as last written
/// from here, and its websockets open here.
#[derive(Clone, Debug, Default)]
struct Here {
    written_at: i64,
    plays: Option<Plays>,
    held: u32,
}

/// The bots online, the same on every node of one database: each node writes when it
/// sees a bot (`bots_online`, migration 8), at most every `write_every_ms` per bot,
/// and a bot is online while its time there is within the window. In memory, what
/// this node saw and a short-lived copy of the list (`GET /api/bots`, the offer).
pub struct Online {
    window_ms: i64,
    write_every_ms: i64,
    here: Mutex<HashMap<String, Here>>,
    listed: Mutex<Option<(i64, Vec<OnlineBot>)>>,
}

/// A bot online: its account id and name, and what it plays if it said.
#[derive(Clone, Debug)]
pub struct OnlineBot {
    pub id: String,
    pub username: String,
    pub plays: Option<Plays>,
}

/// The longest a node writes a bot's time no more than once (a twelfth of the window
/// if that is less): a bot counts as offline at most that much before the window
/// has passed since it was last seen.
const WRITE_EVERY_MAX_MS: i64 = 5_000;
/// The longest the node reuses its list of the bots online.
const LISTED_FOR_MAX_MS: i64 = 1_000;

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(e) => e.into_inner(),
    }
}

/// What a bot plays as `bots_online` keeps it (the JSON `Plays` writes), read back;
/// `None` for none or text that no longer reads.
fn plays_of(json: Option<&str>) -> Option<Plays> {
    let req: PlaysReq = serde_json::from_str(json?).ok()?;
    Plays::of(req).ok()
}

impl Online {
    pub fn new(window_ms: u64) -> Online {
        let window_ms = window_ms as i64;
        Online {
            window_ms,
            write_every_ms: (window_ms / 12).clamp(1, WRITE_EVERY_MAX_MS),
            here: Mutex::new(HashMap::new()),
            listed: Mutex::new(None),
        }
    }

    /// The window (`--bots-online-ms`).
    pub fn window_ms(&self) -> i64 {
        self.window_ms
    }

    /// How often the node writes a bot's time at most.
    pub fn write_every_ms(&self) -> i64 {
        self.write_every_ms
    }

    /// Whether the bot `id`'s time is due to be written at `now` (`now` is then taken
    /// as written): a bot new here, a bot whose last write is older than the
    /// interval, or one that says it plays other than it last said here.
    fn due(&self, id: &str, now: i64, plays: Option<&Plays>) -> bool {
        let mut here = locked(&self.here);
        let due = here.get(id).map_or(true, |h| {
            now - h.written_at >= self.write_every_ms
                || plays.is_some_and(|p| h.plays.as_ref() != Some(p))
        });
        if due {
            let h = here.entry(id.to_string()).or_default();
            h.written_at = now;
            if plays.is_some() {
                h.plays = plays.cloned();
            }
        }
        due
    }

    /// The bot `id` polled at `now`; `plays`, what it plays, if it said (`jungle bot`
    /// says it before each poll: written at once when it changed).
    pub async fn polled(
        &self,
        store: &Store,
        id: &str,
        plays: Option<&Plays>,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        if !self.due(id, now, plays) {
            return Ok(());
        }
        let json = plays.and_then(|p| serde_json::to_string(p).ok());
        store.bot_seen(id, now, json.as_deref()).await?;
        // This node lists what it has just written at once.
        *locked(&self.listed) = None;
        Ok(())
    }

    /// A game websocket of the account `id` opened (`delta` 1) or closed (-1) at
    /// `now`: a bot online (seen by any node within the window) stays online while it
    /// holds one, and is seen at `now` when it lets go of its last.
    pub async fn held(
        &self,
        store: &Store,
        id: &str,
        delta: i32,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let known = locked(&self.here).contains_key(id);
        if !known {
            if delta < 0 {
                return Ok(());
            }
            let seen = store.bot_seen_at(id).await?;
            if !seen.is_some_and(|at| now - at <= self.window_ms) {
                return Ok(());
            }
        }
        {
            let mut here = locked(&self.here);
            let h = here.entry(id.to_string()).or_default();
            h.held = h.held.saturating_add_signed(delta);
            h.written_at = now;
        }
        store.bot_seen(id, now, None).await
    }

    /// Writes the time of the bots that hold a game's websocket on this node (when
    /// due), and forgets those neither held nor written within the window.
    pub async fn refresh(&self, store: &Store, now: i64) -> Result<(), sqlx::Error> {
        let due: Vec<String> = {
            let mut here = locked(&self.here);
            here.retain(|_, h| h.held > 0 || now - h.written_at <= self.window_ms);
            here.iter_mut()
                .filter(|(_, h)| h.held > 0 && now - h.written_at >= self.write_every_ms)
                .map(|(id, h)| {
                    h.written_at = now;
                    id.clone()
                })
                .collect()
        };
        for id in due {
            store.bot_seen(&id, now, None).await?;
        }
        Ok(())
    }

    /// The bots online at `now`, by name, as the database has them.
    pub async fn online(&self, store: &Store, now: i64) -> Result<Vec<OnlineBot>, sqlx::Error> {
        let rows = store.bots_seen_since(now - self.window_ms).await?;
        Ok(rows
            .into_iter()
            .map(|r| OnlineBot {
                plays: plays_of(r.plays.as_deref()),
                id: r.user_id,
                username: r.username,
            })
            .collect())
    }

    /// `online`, read at most once a second (or as often as the bots' times are
    /// written, if more often) however many pages ask, and again after this node
    /// wrote what a bot plays or that a bot came.
    pub async fn listed(&self, store: &Store, now: i64) -> Result<Vec<OnlineBot>, sqlx::Error> {
        let fresh_for = self.write_every_ms.min(LISTED_FOR_MAX_MS);
        if let Some((at, bots)) = locked(&self.listed).as_ref() {
            if now >= *at && now - at < fresh_for {
                return Ok(bots.clone());
            }
        }
        let bots = self.online(store, now).await?;
        *locked(&self.listed) = Some((now, bots.clone()));
        Ok(bots)
    }

    /// Whether the bot `id` is online at `now` (read from the database).
    pub async fn is_online(&self, store: &Store, id: &str, now: i64) -> Result<bool, sqlx::Error> {
        Ok(store
            .bot_seen_at(id)
            .await?
            .is_some_and(|at| now - at <= self.window_ms))
    }
}

/// Withdraws the challenges whose invited bot no node has seen within the window
/// (docs/accounts.md, "Bots online"), reason `bot_offline`; each is checked again just
/// before, so that a bot back meanwhile keeps its invitation. How many were withdrawn.
pub async fn withdraw_unanswered(app: &App, now: i64) -> Result<usize, String> {
    let store = &app.hub.store;
    let ids = store
        .invitations_unseen_since(now - app.bots.window_ms)
        .await
        .map_err(|e| e.to_string())?;
    let mut withdrawn = 0;
    for id in ids {
        let Some(live) = app.hub.get(&id).await? else {
            continue;
        };
        let Some(bot) = app.hub.invited(&live).await else {
            continue;
        };
        if app
            .bots
            .is_online(store, &bot, now_ms())
            .await
            .map_err(|e| e.to_string())?
        {
            continue;
        }
        // Another node may have withdrawn it first: not waiting any more.
        if app.hub.withdraw_unanswered(&live).await.is_ok() {
            log::info!("game {id}: withdrawn, the invited bot went offline");
            withdrawn += 1;
        }
    }
    Ok(withdrawn)
}

/// Every so often (a quarter of the window, at most 5 s) the node writes the times of
/// the bots it holds and withdraws the invitations of bots gone offline. It starts
/// judging one window after the node starts, so that bots reach a node started after
/// the whole service was down before their invitations are judged.
pub async fn keep(app: Arc<App>) {
    let every = (app.bots.window_ms / 4).clamp(50, 5_000) as u64;
    let started = now_ms();
    loop {
        tokio::time::sleep(std::time::Duration::from_millis(every)).await;
        let now = now_ms();
        if let Err(e) = app.bots.refresh(&app.hub.store, now).await {
            log::warn!("bots' times not written: {e}");
        }
        if now - started < app.bots.window_ms {
            continue;
        }
        if let Err(e) = withdraw_unanswered(&app, now).await {
            log::warn!("invitations of bots gone offline not withdrawn: {e}");
        }
    }
}

/// The one of `candidates` (each with its rating) whose rating is nearest `target`;
/// of two as near, the first.
pub fn nearest<T>(candidates: Vec<(T, f64)>, target: f64) -> Option<T> {
    let mut best: Option<(T, f64)> = None;
    for (c, rating) in candidates {
        let d = (rating - target).abs();
        if best.as_ref().map_or(true, |(_, bd)| d < *bd) {
            best = Some((c, d));
        }
    }
    best.map(|(c, _)| c)
}

/// The session's account if it is a bot's: 401 without a session, 403 `not_a_bot`.
fn bot_session(session: Option<Session>) -> Result<Session, ApiError> {
    let s = session.ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "login_required",
            "log in (a bot: its API token) first",
        )
    })?;
    if !s.user.is_bot {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_a_bot",
            "this is a bot's request, and the account is no bot",
        ));
    }
    Ok(s)
}

/// `POST /api/bots/online`: a bot says what it plays (and is online from now).
pub async fn announce(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<PlaysReq>, JsonRejection>,
) -> Answer {
    let s = bot_session(sessions::current(&app, &headers).await?)?;
    let Json(req) = body?;
    let plays = Plays::of(req).map_err(bad_plays)?;
    app.bots
        .polled(&app.hub.store, &s.user.id, Some(&plays), now_ms())
        .await?;
    Ok(Json(serde_json::json!({"ok": true, "plays": plays})).into_response())
}

/// A bot as `GET /api/bots` lists it.
#[derive(Serialize)]
struct BotBody {
    username: String,
    ratings: Vec<sessions::RatingBody>,
    level: Option<String>,
    plays: Option<Plays>,
    /// In a game now (a bot plays one game at a time).
    busy: bool,
}

/// `GET /api/bots`: the bots online, by name.
pub async fn list(State(app): State<Arc<App>>) -> Answer {
    let mut bots = Vec::new();
    for b in app.bots.listed(&app.hub.store, now_ms()).await? {
        bots.push(BotBody {
            ratings: sessions::ratings_now(&app, &b.id).await?,
            busy: app.hub.store.playing(&b.id).await?,
            level: b.plays.as_ref().and_then(|p| p.level.clone()),
            plays: b.plays,
            username: b.username,
        });
    }
    Ok(Json(serde_json::json!({ "bots": bots })).into_response())
}

/// The account a new challenge invites (`"invite": NAME`): a bot online, invited by
/// a person (bots play people, never each other by invitation). Refusals: 403
/// `bot_lobby` from a bot, 404 `no_player`, 400 `not_a_bot`, 409 `bot_offline`.
pub async fn invitee(app: &App, session: Option<&Session>, name: &str) -> Result<String, ApiError> {
    if session.is_some_and(|s| s.user.is_bot) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "bot_lobby",
            "a bot joins challenges and invites no one",
        ));
    }
    let no_player = || ApiError::new(StatusCode::NOT_FOUND, "no_player", "no such player");
    if name.is_empty() || name.len() > 100 {
        return Err(no_player());
    }
    let key = crate::accounts::username_key(name);
    let user = match app.hub.store.user_by_key(&key).await? {
        Some(u) if !u.deleted => u,
        _ => return Err(no_player()),
    };
    if !user.is_bot {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "not_a_bot",
            "only a bot can be invited by name (a friend gets the game's link)",
        ));
    }
    if !app
        .bots
        .is_online(&app.hub.store, &user.id, now_ms())
        .await?
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "bot_offline",
            format!("{} is not online now", user.username),
        ));
    }
    Ok(user.id)
}

/// `POST /api/games/{id}/decline`: the invited bot declines the challenge.
pub async fn decline(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Answer {
    let s = bot_session(sessions::current(&app, &headers).await?)?;
    let live = app
        .hub
        .get(&id)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no_game", "no such game"))?;
    match app.hub.decline(&live, &s.user.id).await {
        Ok(()) => Ok(Json(serde_json::json!({"ok": true})).into_response()),
        Err(r) if r.code == "not_invited" => {
            Err(ApiError::Refused(StatusCode::FORBIDDEN, r.code, r.reason))
        }
        Err(r) => Err(ApiError::Refused(StatusCode::CONFLICT, r.code, r.reason)),
    }
}

/// The bot offered instead of a person.
#[derive(Serialize, Debug)]
pub struct BotOffer {
    pub username: String,
    /// Its rating in the challenge's category, as shown (`1500?`).
    pub rating: String,
    pub level: Option<String>,
}

/// A rating in the category of `rules` and `tc`: the account's (widened by the time
/// since), a new player's for none.
async fn rating_of(
    app: &App,
    user: Option<&str>,
    rules: &str,
    tc: &str,
) -> Result<jungle_glicko2::Rating, ApiError> {
    let (Some(user), Some(cat)) = (user, Category::of_texts(rules, tc)) else {
        return Ok(jungle_glicko2::Rating::default());
    };
    Ok(app
        .hub
        .store
        .rating(user, &cat.key())
        .await?
        .map(|r| r.rating.after_idle_ms(now_ms() - r.updated_at))
        .unwrap_or_default())
}

/// The bot offered to the creator of the lobby challenge `row` once it has waited
/// `--bot-offer-ms` with no opponent: of the bots online, not in a game, that accept
/// its rules, clock and kind, the one rated nearest the creator in its category (or
/// nearest 1500 for a player without an account).
pub async fn offer_for(app: &App, row: &GameRow) -> Result<Option<BotOffer>, ApiError> {
    if !row.lobby || row.status != "waiting" || now_ms() - row.created_at < app.bot_offer_ms {
        return Ok(None);
    }
    let creator = row.users.iter().flatten().next().map(String::as_str);
    let target = rating_of(app, creator, &row.rules, &row.tc).await?.rating;
    let mut candidates = Vec::new();
    for b in app.bots.listed(&app.hub.store, now_ms()).await? {
        let takes = b
            .plays
            .as_ref()
            .is_some_and(|p| p.accepts(&row.rules, &row.tc, row.rated));
        if !takes || app.hub.store.playing(&b.id).await? {
            continue;
        }
        let rating = rating_of(app, Some(&b.id), &row.rules, &row.tc).await?;
        candidates.push(((b, rating), rating.rating));
    }
    Ok(nearest(candidates, target).map(|(b, rating)| BotOffer {
        username: b.username,
        rating: rating.display(),
        level: b.plays.and_then(|p| p.level),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(
        level: Option<&str>,
        rules: &[&str],
        tcs: &[&str],
        rated: bool,
        casual: bool,
    ) -> PlaysReq {
        PlaysReq {
            level: level.map(str::to_string),
            rules: rules.iter().map(|s| s.to_string()).collect(),
            tcs: tcs.iter().map(|s| s.to_string()).collect(),
            rated,
            casual,
            invitations_only: false,
        }
    }

    #[test]
    fn what_a_bot_plays_is_read_or_refused() {
        let any = Plays::of(req(Some("3"), &[], &[], true, true)).unwrap();
        assert_eq!(any.rules, ["jungle", "jungle-cn"]);
        assert!(any.accepts("jungle", "5m+3s", true));
        assert!(any.accepts("jungle-cn", "1m+0s", false));
        assert!(
            !any.accepts("jungle", "1d", false),
            "no correspondence by default"
        );
        let blitz = Plays::of(req(None, &["jungle"], &["5m+3s"], false, true)).unwrap();
        assert!(blitz.accepts("jungle", "5m+3s", false));
        assert!(!blitz.accepts("jungle", "5m+3s", true), "casual only");
        assert!(!blitz.accepts("jungle", "3m+0s", false));
        assert!(!blitz.accepts("jungle-cn", "5m+3s", false));
        assert!(Plays::of(req(Some("engine"), &[], &[], true, false)).is_ok());
        for bad in [
            req(Some("9"), &[], &[], true, true),
            req(Some("0"), &[], &[], true, true),
            req(Some("strong"), &[], &[], true, true),
            req(None, &["chess"], &[], true, true),
            req(None, &[], &["5+3"], true, true),
            req(None, &[], &[], false, false),
        ] {
            assert!(Plays::of(bad).is_err());
        }
    }

    /// A fresh SQLite store with the bots Bee (b1), Ant (b2) and Cat (b3).
    async fn store_with_bots(tag: &str) -> (std::path::PathBuf, Store) {
        let dir = std::env::temp_dir().join(format!("jungle-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let url = format!("sqlite:{}?mode=rwc", dir.join("b.sqlite").display());
        let store = Store::open(&url, "test").await.expect("opens");
        for (id, name) in [("b1", "Bee"), ("b2", "Ant"), ("b3", "Cat")] {
            let key = name.to_lowercase();
            assert!(store.create_user(id, name, &key, "h", 1).await.is_ok());
            assert!(store.make_bot(id).await.expect("a bot"));
        }
        (dir, store)
    }

    async fn names(online: &Online, store: &Store, now: i64) -> Vec<String> {
        let bots = online.online(store, now).await.expect("read");
        bots.into_iter().map(|b| b.username).collect()
    }

    #[tokio::test]
    async fn a_bot_is_online_for_the_window_after_its_poll_or_while_it_plays() {
        let (dir, store) = store_with_bots("bots-online").await;
        let online = Online::new(1200);
        assert_eq!(online.write_every_ms(), 100);
        let plays = Plays::of(req(Some("3"), &["jungle"], &["5m+3s"], true, false)).unwrap();
        online.polled(&store, "b1", Some(&plays), 0).await.unwrap();
        online.polled(&store, "b2", None, 500).await.unwrap();
        assert_eq!(names(&online, &store, 900).await, ["Ant", "Bee"]);
        let bee = online.online(&store, 900).await.unwrap().pop().unwrap();
        assert_eq!(bee.plays.as_ref(), Some(&plays), "what it plays, read back");
        // A poll sooner than the next write is not written, nor the same plays said
        // again; other plays are, at once.
        online.polled(&store, "b1", None, 50).await.unwrap();
        online.polled(&store, "b1", Some(&plays), 60).await.unwrap();
        assert_eq!(store.bot_seen_at("b1").await.unwrap(), Some(0));
        let casual = Plays::of(req(None, &[], &[], false, true)).unwrap();
        online
            .polled(&store, "b1", Some(&casual), 70)
            .await
            .unwrap();
        assert_eq!(store.bot_seen_at("b1").await.unwrap(), Some(70));
        let bee = online.online(&store, 900).await.unwrap().pop().unwrap();
        assert_eq!(bee.plays, Some(casual));
        online.held(&store, "b2", 1, 1000).await.unwrap();
        assert_eq!(names(&online, &store, 1300).await, ["Ant"]);
        online.refresh(&store, 5000).await.unwrap();
        assert_eq!(
            names(&online, &store, 6000).await,
            ["Ant"],
            "held a game's websocket"
        );
        online.held(&store, "b2", -1, 6000).await.unwrap();
        assert_eq!(names(&online, &store, 7200).await, ["Ant"]);
        assert!(names(&online, &store, 7201).await.is_empty());
        // Neither an account that never polled nor one seen long ago is online by
        // holding a websocket.
        online.held(&store, "b3", 1, 8000).await.unwrap();
        online.held(&store, "b1", 1, 8000).await.unwrap();
        assert!(names(&online, &store, 8000).await.is_empty());
        assert!(!online.is_online(&store, "b1", 8000).await.unwrap());
        // The list is read again once it is older than a write's interval.
        assert!(online.listed(&store, 8000).await.unwrap().is_empty());
        store.bot_seen("b3", 8010, None).await.unwrap();
        assert!(
            online.listed(&store, 8050).await.unwrap().is_empty(),
            "another node's write"
        );
        assert_eq!(online.listed(&store, 8100).await.unwrap().len(), 1);
        online.polled(&store, "b2", None, 8110).await.unwrap();
        assert_eq!(
            online.listed(&store, 8120).await.unwrap().len(),
            2,
            "this node's"
        );
        assert!(online.is_online(&store, "b3", 8120).await.unwrap());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_nearest_rating_is_offered() {
        let c = vec![("a", 1200.0), ("b", 1620.0), ("c", 1380.0), ("d", 1620.0)];
        assert_eq!(nearest(c.clone(), 1500.0), Some("b"));
        assert_eq!(nearest(c.clone(), 1300.0), Some("c"));
        assert_eq!(nearest(c, 0.0), Some("a"));
        assert_eq!(nearest(Vec::<(&str, f64)>::new(), 1500.0), None);
    }
}
