//! Bots online (docs/accounts.md, "Bots online"), after lichess's bot API: which bot
//! accounts are online and what they play, `GET /api/bots`, challenges that invite a
//! bot by name and the bot's decline, and the bot offered to a player who waits in
//! quick pairing.
//!
//! A bot is online while it has asked for the lobby (or held a game's websocket)
//! within the window (`--bots-online-ms`, a minute). The node keeps this in memory:
//! with several nodes each lists the bots that poll it, which a load balancer that
//! keeps a bot on one node makes the same list everywhere only by chance (a bot whose
//! polls go round the nodes is listed by each it reached within the window).

use crate::accounts::Category;
use crate::clock::{online_tc, stored_tc};
use crate::now_ms;
use crate::server::{Answer, ApiError, App};
use crate::sessions::{self, Session};
use crate::store::GameRow;
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

/// A bot as the node last saw it.
#[derive(Clone, Debug)]
struct Seen {
    username: String,
    /// When it last polled, or last left a game's websocket.
    at: i64,
    /// Its game websockets open on this node.
    held: u32,
    plays: Option<Plays>,
}

/// The bots online on this node (in memory), by account id.
pub struct Online {
    window_ms: i64,
    seen: Mutex<HashMap<String, Seen>>,
}

/// A bot online: its account id and name, and what it plays if it said.
#[derive(Clone, Debug)]
pub struct OnlineBot {
    pub id: String,
    pub username: String,
    pub plays: Option<Plays>,
}

impl Online {
    pub fn new(window_ms: u64) -> Online {
        Online {
            window_ms: window_ms as i64,
            seen: Mutex::new(HashMap::new()),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, Seen>) -> T) -> T {
        let mut seen = match self.seen.lock() {
            Ok(s) => s,
            Err(e) => e.into_inner(),
        };
        f(&mut seen)
    }

    /// The bot `id` polled at `now`; `plays`, what it plays, if it said.
    pub fn polled(&self, id: &str, username: &str, plays: Option<Plays>, now: i64) {
        self.with(|seen| {
            let s = seen.entry(id.to_string()).or_insert_with(|| Seen {
                username: username.to_string(),
                at: now,
                held: 0,
                plays: None,
            });
            s.at = now;
            s.username = username.to_string();
            if plays.is_some() {
                s.plays = plays;
            }
        });
    }

    /// A game websocket of the account `id` opened (`delta` 1) or closed (-1) at
    /// `now`: a bot that has polled stays online while it holds one.
    pub fn held(&self, id: &str, delta: i32, now: i64) {
        self.with(|seen| {
            if let Some(s) = seen.get_mut(id) {
                s.held = s.held.saturating_add_signed(delta);
                s.at = now;
            }
        });
    }

    /// The bots online at `now`, by name; the others are forgotten.
    pub fn online(&self, now: i64) -> Vec<OnlineBot> {
        let window = self.window_ms;
        let mut bots: Vec<OnlineBot> = self.with(|seen| {
            seen.retain(|_, s| s.held > 0 || now - s.at <= window);
            seen.iter()
                .map(|(id, s)| OnlineBot {
                    id: id.clone(),
                    username: s.username.clone(),
                    plays: s.plays.clone(),
                })
                .collect()
        });
        bots.sort_by(|a, b| a.username.cmp(&b.username));
        bots
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
        .polled(&s.user.id, &s.user.username, Some(plays.clone()), now_ms());
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
    for b in app.bots.online(now_ms()) {
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
    if !app.bots.online(now_ms()).iter().any(|b| b.id == user.id) {
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
    for b in app.bots.online(now_ms()) {
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

    #[test]
    fn a_bot_is_online_for_the_window_after_its_poll_or_while_it_plays() {
        let online = Online::new(1000);
        online.polled("b1", "Bee", None, 0);
        online.polled("b2", "Ant", None, 500);
        let names = |now| {
            online
                .online(now)
                .into_iter()
                .map(|b| b.username)
                .collect::<Vec<_>>()
        };
        assert_eq!(names(900), ["Ant", "Bee"]);
        online.held("b2", 1, 1000);
        assert_eq!(names(1200), ["Ant"]);
        assert_eq!(names(5000), ["Ant"], "held a game's websocket");
        online.held("b2", -1, 5000);
        assert_eq!(names(6000), ["Ant"]);
        assert!(names(6001).is_empty());
        online.held("b3", 1, 7000);
        assert!(names(7000).is_empty(), "an account that never polled");
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
