//! The games a node holds in memory, each behind its own lock: commands are decided
//! by the model, stored by the database, and only then folded in and sent to the
//! game's connections (a broadcast channel). Timers make the server act by itself
//! (a flag, an abort); on PostgreSQL, notifications from other nodes bring their
//! events in.

use crate::messages::{
    BoardMsg, BySide, ClientMsg, ClockMsg, EventMsg, Moves, PlayerMsg, PresenceMsg, ResultMsg,
    ServerMsg, StateMsg,
};
use crate::model::{Context, Decision, Event, GameState, Refusal, Side, Stored};
use crate::notify::Notice;
use crate::store::{AppendError, NewGame, Seat, Store};
use crate::{now_ms, token_hash};
use jungle_app::line::MoveKind;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// A message to a game's connections, written once (`ServerMsg::text`).
pub type Out = Arc<str>;

/// The messages a game's channel keeps for a connection that reads late; one further
/// behind gets the whole state again.
const CHANNEL_DEPTH: usize = 16;

/// Who is connected to a game's seats, by node (a node's counts come from its
/// notifications), and since when a seat has had no one.
#[derive(Debug, Default)]
pub struct Presence {
    counts: HashMap<String, [u32; 2]>,
    gone_since: [Option<i64>; 2],
}

impl Presence {
    pub fn here(&self, side: Side) -> bool {
        self.counts.values().any(|c| c[side.index()] > 0)
    }

    /// This node's count of a seat's connections changes by `delta`: the new counts.
    pub fn local(&mut self, node: &str, side: Side, delta: i32, now: i64) -> [u32; 2] {
        let mut c = self.counts.get(node).copied().unwrap_or([0, 0]);
        let i = side.index();
        c[i] = c[i].saturating_add_signed(delta);
        self.update(node, c, now);
        c
    }

    /// Since when each seat is gone, after it had come (`None` while it is here).
    pub fn gone_since(&self) -> BySide<Option<i64>> {
        let gone = |side: Side| self.gone_since[side.index()].filter(|_| !self.here(side));
        BySide {
            red: gone(Side::Red),
            blue: gone(Side::Blue),
        }
    }

    /// The presence message for the game's connections.
    pub fn message(&self) -> Out {
        ServerMsg::Presence(PresenceMsg {
            red: self.here(Side::Red),
            blue: self.here(Side::Blue),
            gone_since: self.gone_since(),
        })
        .text()
    }

    fn update(&mut self, node: &str, counts: [u32; 2], now: i64) {
        let before = [self.here(Side::Red), self.here(Side::Blue)];
        self.counts.insert(node.to_string(), counts);
        for side in [Side::Red, Side::Blue] {
            let i = side.index();
            if before[i] && !self.here(side) {
                self.gone_since[i] = Some(now);
            }
        }
    }
}

/// One game in memory.
pub struct Live {
    pub id: String,
    inner: tokio::sync::Mutex<Inner>,
    pub tx: broadcast::Sender<Out>,
    pub presence: Mutex<Presence>,
}

/// What a node holds of a game: its state (the log is the database's), the seats'
/// token hashes and accounts, whether it is rated, and its timer.
struct Inner {
    state: GameState,
    hashes: [Option<String>; 2],
    users: [Option<String>; 2],
    rated: bool,
    /// The ratings a joiner must have (a challenge's range).
    range: Option<(i64, i64)>,
    /// The only account that may join (a challenge to a bot).
    invited: Option<String>,
    timer: Option<tokio::task::JoinHandle<()>>,
}

/// A new game's settings.
#[derive(Clone, Copy, Debug)]
pub struct GameSpec<'a> {
    pub rules: &'a str,
    pub tc: &'a str,
    pub lobby: bool,
    /// Rated: both seats must be accounts, two different ones.
    pub rated: bool,
    /// The ratings a joiner must have in the game's category (accounts only).
    pub range: Option<(i64, i64)>,
    /// The only account that may join (a challenge to a bot), if any.
    pub invited: Option<&'a str>,
}

/// Red's score in a game that `next` ends after `before`, if the end counts for the
/// ratings: both sides moved, and the result is a win or a draw (not an abort).
fn rated_score(before: &GameState, next: &GameState) -> Option<f64> {
    if before.is_over() || next.ply() < 2 {
        return None;
    }
    match next.end.as_ref()?.0.as_str() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// What a connection gets back for a command.
pub enum Reply {
    /// Stored (the events go to every connection, this one included).
    Done,
    /// A move already stored, sent again: acknowledged, nothing changed.
    Again {
        ply: u32,
        v: u64,
    },
    Refused(Refusal),
}

/// The games of this node.
pub struct Hub {
    pub store: Store,
    pub node: String,
    games: Mutex<HashMap<String, Arc<Live>>>,
}

/// The client's view of a game at `now`: everything but the tokens, the board's too.
pub fn state_msg(
    id: &str,
    st: &GameState,
    you: Option<Side>,
    presence: &Presence,
    now: i64,
) -> StateMsg {
    // Each position and each move's kind, from the start (the page browses them).
    let mut pos = *st.game.start_position();
    let mut fens = vec![pos.to_fen()];
    let mut kinds = Vec::new();
    for &m in st.game.moves() {
        kinds.push(MoveKind::of(&pos, m));
        pos.play(m);
        fens.push(pos.to_fen());
    }
    StateMsg {
        id: id.to_string(),
        v: st.version,
        rules: st.rules.to_string(),
        variant: st.rules.variant.name(),
        dog_swims: st.rules.moves.dog_swims,
        trapped_lose_attack: st.rules.moves.trapped_lose_attack,
        tc: st.tc().to_string(),
        rated: false,
        status: st.status(),
        you,
        seated: BySide::of(st.seated),
        moves: st.moves(),
        fen: st.game.position().to_fen(),
        to_move: st.to_move(),
        clock: ClockMsg::of(st, now),
        deadline: st.deadline().map(|d| d.0),
        now,
        draw_offer: st.draw_offer,
        rematch_offer: st.rematch_offer,
        rematch: st.rematch.clone(),
        result: st.end.as_ref().map(|(r, why)| ResultMsg::of(r, why)),
        presence: BySide {
            red: presence.here(Side::Red),
            blue: presence.here(Side::Blue),
        },
        gone_since: presence.gone_since(),
        players: BySide {
            red: None,
            blue: None,
        },
        board: BoardMsg {
            terrain: jungle_app::view::terrains(),
            fens,
            kinds,
            moves: Moves::of(st),
        },
    }
}

/// The kind of the move event `e` would play in `st` (before it is folded in).
fn kind_of(st: &GameState, e: &Stored) -> Option<MoveKind> {
    let Event::Move { mv, .. } = &e.ev else {
        return None;
    };
    let m = mv.parse().ok()?;
    Some(MoveKind::of(st.game.position(), m))
}

/// A fresh random id for a game: 12 letters and digits of a 32-sign alphabet (60 bits).
pub fn new_game_id() -> Result<String, String> {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[(b % 32) as usize] as char)
        .collect())
}

impl Hub {
    pub fn new(store: Store, node: String) -> Arc<Hub> {
        Arc::new(Hub {
            store,
            node,
            games: Mutex::new(HashMap::new()),
        })
    }

    /// The games in memory.
    pub fn loaded(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }

    /// The game `id`, loaded from the database if needed; `None` if there is none.
    pub async fn get(self: &Arc<Self>, id: &str) -> Result<Option<Arc<Live>>, String> {
        if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Ok(None);
        }
        if let Some(live) = self.games.lock().map_err(|_| "poisoned")?.get(id) {
            return Ok(Some(live.clone()));
        }
        let Some(row) = self.store.game(id).await.map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let log = self.store.events(id, 0).await?;
        let state = GameState::replay(&log)?;
        let (tx, _) = broadcast::channel(CHANNEL_DEPTH);
        let live = Arc::new(Live {
            id: id.to_string(),
            inner: tokio::sync::Mutex::new(Inner {
                state,
                hashes: row.hashes,
                users: row.users,
                rated: row.rated,
                range: row.range,
                invited: row.invited,
                timer: None,
            }),
            tx,
            presence: Mutex::new(Presence::default()),
        });
        let live = {
            let mut games = self.games.lock().map_err(|_| "poisoned")?;
            games.entry(id.to_string()).or_insert(live).clone()
        };
        self.arm(&live).await;
        Ok(Some(live))
    }

    /// Creates a game: `Created` and the creator's `Seated` (with the creator's
    /// account, if logged in), in one transaction. Returns its id and the creator's
    /// token.
    pub async fn create(
        self: &Arc<Self>,
        spec: GameSpec<'_>,
        side: Side,
        user: Option<&str>,
        ip: &str,
    ) -> Result<(String, String), String> {
        let token = crate::new_token()?;
        let hash = token_hash(&token);
        let mut hashes = [None, None];
        hashes[side.index()] = Some(hash.as_str());
        let mut users = [None, None];
        users[side.index()] = user;
        let id = self.create_with(spec, hashes, users, ip).await?;
        Ok((id, token))
    }

    async fn create_with(
        self: &Arc<Self>,
        spec: GameSpec<'_>,
        hashes: [Option<&str>; 2],
        users: [Option<&str>; 2],
        ip: &str,
    ) -> Result<String, String> {
        let GameSpec {
            rules, tc, lobby, ..
        } = spec;
        let now = now_ms();
        let mut events = vec![Stored {
            v: 1,
            at: now,
            ev: Event::Created {
                rules: rules.to_string(),
                tc: tc.to_string(),
            },
        }];
        for side in [Side::Red, Side::Blue] {
            if hashes[side.index()].is_some() {
                events.push(Stored {
                    v: events.len() as u64 + 1,
                    at: now,
                    ev: Event::Seated { side },
                });
            }
        }
        let state = GameState::replay(&events)?;
        for _ in 0..5 {
            let id = new_game_id()?;
            let row = NewGame {
                id: &id,
                created_at: now,
                rules,
                tc,
                hashes,
                lobby,
                creator_ip: ip,
                status: state.status(),
                rated: spec.rated,
                users,
                range: spec.range,
                invited: spec.invited,
            };
            match self.store.create(&row, &events).await {
                Ok(()) => return Ok(id),
                Err(AppendError::Conflict) => continue,
                Err(AppendError::Db(e)) => return Err(e.to_string()),
            }
        }
        Err("no free game id".into())
    }

    /// Whether a game is rated.
    pub async fn rated(&self, live: &Live) -> bool {
        live.inner.lock().await.rated
    }

    /// Refused unless `user` is an account whose rating in the game's category (1500,
    /// a new player's, if it has none) lies in `range` (a challenge's rating range).
    async fn check_range(
        &self,
        state: &GameState,
        range: (i64, i64),
        user: Option<&str>,
    ) -> Result<(), Refusal> {
        let Some(me) = user else {
            return Err(Refusal::new(
                "login_required",
                "this challenge takes players of a rating range: log in to join it",
            ));
        };
        let rating = match crate::accounts::Category::of(&state.rules, state.tc()) {
            Some(c) => self
                .store
                .rating(me, &c.key())
                .await
                .map_err(|e| Refusal::new("database", e.to_string()))?
                .map_or(jungle_glicko2::DEFAULT_RATING, |r| r.rating.rating),
            None => jungle_glicko2::DEFAULT_RATING,
        };
        let rounded = rating.round() as i64;
        if rounded < range.0 || rounded > range.1 {
            return Err(Refusal::new(
                "out_of_range",
                format!(
                    "this challenge takes ratings {} to {}, and yours is {rounded}",
                    range.0, range.1
                ),
            ));
        }
        Ok(())
    }

    /// Records the account `user` in the seat that the token hash `hash` holds in this
    /// game, if that seat has no account yet and the game is neither over nor rated
    /// (an anonymous player's game claimed after logging in): whether it did.
    pub async fn claim(&self, live: &Arc<Live>, hash: &str, user: &str) -> Result<bool, String> {
        let mut inner = live.inner.lock().await;
        let Some(side) = [Side::Red, Side::Blue]
            .into_iter()
            .find(|s| inner.hashes[s.index()].as_deref() == Some(hash))
        else {
            return Ok(false);
        };
        if inner.users[side.index()].is_some() || inner.rated || inner.state.is_over() {
            return Ok(false);
        }
        let done = self
            .store
            .claim_seat(&live.id, side, hash, user)
            .await
            .map_err(|e| e.to_string())?;
        if done {
            inner.users[side.index()] = Some(user.to_string());
        }
        Ok(done)
    }

    /// Takes the free seat of a game for a new token, and for `user`'s account if
    /// logged in: `(side, token)`. A rated game's seat needs an account other than
    /// the one in the other seat.
    pub async fn join(
        self: &Arc<Self>,
        live: &Arc<Live>,
        user: Option<&str>,
    ) -> Result<(Side, String), Refusal> {
        let token = crate::new_token().map_err(|e| Refusal::new("internal", e))?;
        let hash = token_hash(&token);
        let mut inner = live.inner.lock().await;
        for _ in 0..3 {
            let st = &inner.state;
            if st.is_over() {
                return Err(Refusal::new("game_over", "the game is over"));
            }
            let Some(side) = [Side::Red, Side::Blue]
                .into_iter()
                .find(|s| !st.seated[s.index()])
            else {
                return Err(Refusal::new("seats_taken", "both seats are taken"));
            };
            if inner.rated {
                let Some(me) = user else {
                    return Err(Refusal::new(
                        "login_required",
                        "a rated game is played by accounts: log in to join it",
                    ));
                };
                if inner.users[side.other().index()].as_deref() == Some(me) {
                    return Err(Refusal::new(
                        "own_game",
                        "you cannot play yourself in a rated game",
                    ));
                }
            }
            if let Some(invited) = &inner.invited {
                if user != Some(invited.as_str()) {
                    return Err(Refusal::new(
                        "invited_only",
                        "this challenge is for the player it invites",
                    ));
                }
            }
            if let Some(range) = inner.range {
                self.check_range(&inner.state, range, user).await?;
            }
            let ev = Event::Seated { side };
            let seat = Seat {
                side,
                hash: &hash,
                user,
            };
            match self
                .store_events(live, &mut inner, vec![ev], Some(seat), true)
                .await
            {
                Ok(()) => return Ok((side, token)),
                Err(AppendError::Conflict) => self.catch_up(live, &mut inner).await,
                Err(AppendError::Db(e)) => return Err(Refusal::new("database", e.to_string())),
            }
        }
        Err(Refusal::new(
            "busy",
            "the game changed meanwhile: try again",
        ))
    }

    /// The invited account declines a challenge that waits for it: the game ends,
    /// withdrawn with the reason `declined` (refused for anyone else, and once the
    /// challenge was taken or is over).
    pub async fn decline(self: &Arc<Self>, live: &Arc<Live>, user: &str) -> Result<(), Refusal> {
        self.end_invitation(live, Some(user), crate::model::reason::DECLINED)
            .await
    }

    /// The server withdraws a challenge whose invited bot went offline: the game ends
    /// with the reason `bot_offline` (refused for a challenge that invites no one, and
    /// once it was taken or is over).
    pub async fn withdraw_unanswered(self: &Arc<Self>, live: &Arc<Live>) -> Result<(), Refusal> {
        self.end_invitation(live, None, crate::model::reason::BOT_OFFLINE)
            .await
    }

    /// Ends an invitation that still waits, withdrawn (result `*`) with `reason`; `by`,
    /// the account that ends it, must be the invited one (none: the server).
    async fn end_invitation(
        self: &Arc<Self>,
        live: &Arc<Live>,
        by: Option<&str>,
        reason: &str,
    ) -> Result<(), Refusal> {
        let mut inner = live.inner.lock().await;
        for _ in 0..3 {
            let invited = inner.invited.as_deref();
            if invited.is_none() || by.is_some_and(|u| invited != Some(u)) {
                return Err(Refusal::new(
                    "not_invited",
                    "only the invited player declines a challenge",
                ));
            }
            if inner.state.status() != "waiting" {
                return Err(Refusal::new(
                    "not_waiting",
                    "the challenge no longer waits for an answer",
                ));
            }
            let ev = Event::End {
                result: jungle_core::record::RecordResult::Unfinished
                    .as_str()
                    .into(),
                reason: reason.into(),
            };
            match self
                .store_events(live, &mut inner, vec![ev], None, true)
                .await
            {
                Ok(()) => return Ok(()),
                Err(AppendError::Conflict) => self.catch_up(live, &mut inner).await,
                Err(AppendError::Db(e)) => return Err(Refusal::new("database", e.to_string())),
            }
        }
        Err(Refusal::new(
            "busy",
            "the game changed meanwhile: try again",
        ))
    }

    /// The account a challenge invites, if any.
    pub async fn invited(&self, live: &Live) -> Option<String> {
        live.inner.lock().await.invited.clone()
    }

    /// The accounts in a game's seats (red, blue).
    pub async fn users(&self, live: &Live) -> [Option<String>; 2] {
        live.inner.lock().await.users.clone()
    }

    /// The seat a token holds in a game, if any.
    pub async fn seat_of(&self, live: &Live, token: Option<&str>) -> Option<Side> {
        let token = token?;
        let hash = token_hash(token);
        let inner = live.inner.lock().await;
        [Side::Red, Side::Blue].into_iter().find(|s| {
            inner.hashes[s.index()]
                .as_deref()
                .is_some_and(|h| crate::same_secret(h, &hash))
        })
    }

    /// The full state for one viewer, and the version it is at.
    pub async fn snapshot(&self, live: &Live, you: Option<Side>) -> (StateMsg, u64) {
        let (mut msg, users) = {
            let inner = live.inner.lock().await;
            let presence = live.presence.lock();
            let empty = Presence::default();
            let p = presence.as_deref().unwrap_or(&empty);
            let mut msg = state_msg(&live.id, &inner.state, you, p, now_ms());
            msg.rated = inner.rated;
            (msg, inner.users.clone())
        };
        msg.players = BySide {
            red: self.player(users[0].as_deref()).await,
            blue: self.player(users[1].as_deref()).await,
        };
        let v = msg.v;
        (msg, v)
    }

    /// The account in a seat as the state names it (none when the account is gone or
    /// cannot be read: the state goes out without it).
    async fn player(&self, user: Option<&str>) -> Option<PlayerMsg> {
        let row = self.store.user(user?).await.ok()??;
        (!row.deleted).then_some(PlayerMsg {
            username: row.username,
            bot: row.is_bot,
        })
    }

    /// The events after `since` up to this node's version, read from the database's log
    /// (the node keeps only the state), each with what it left; `None` when `since` is
    /// not a version of this game or the log cannot be read.
    pub async fn since(&self, live: &Live, since: u64) -> Option<Vec<EventMsg>> {
        let version = live.inner.lock().await.state.version;
        if since == 0 || since > version {
            return None;
        }
        let log = self.store.events(&live.id, 0).await.ok()?;
        let mut replay = GameState::replay(log.get(..since as usize)?).ok()?;
        let mut out = Vec::new();
        for e in log
            .get(since as usize..)?
            .iter()
            .take_while(|e| e.v <= version)
        {
            let kind = kind_of(&replay, e);
            replay.apply(e).ok()?;
            out.push(EventMsg::of(e, kind, &replay));
        }
        Some(out)
    }

    pub async fn record(&self, live: &Live) -> (String, bool) {
        let inner = live.inner.lock().await;
        (inner.state.record(&live.id), inner.state.is_over())
    }

    /// Decides and stores a command from `seat`.
    pub async fn command(
        self: &Arc<Self>,
        live: &Arc<Live>,
        seat: Option<Side>,
        cmd: ClientMsg,
    ) -> Reply {
        let mut inner = live.inner.lock().await;
        for _ in 0..3 {
            let now = now_ms();
            // The server's own deadline comes first.
            if let Some(ev) = inner.state.due(now) {
                match self
                    .store_events(live, &mut inner, vec![ev], None, false)
                    .await
                {
                    Ok(()) => {}
                    Err(AppendError::Conflict) => {
                        self.catch_up(live, &mut inner).await;
                        continue;
                    }
                    Err(AppendError::Db(e)) => {
                        return Reply::Refused(Refusal::new("database", e.to_string()))
                    }
                }
            }
            let ctx = Context {
                opponent_gone_since: seat.and_then(|s| {
                    let p = live.presence.lock().ok()?;
                    if p.here(s.other()) {
                        None
                    } else {
                        // Never seen at all: gone since the game began on this node.
                        Some(
                            p.gone_since[s.other().index()]
                                .unwrap_or(inner.state.clock.turn_started),
                        )
                    }
                }),
            };
            let outcome = match inner.state.decide(seat, &cmd, now, ctx) {
                Ok(o) => o,
                Err(r) => return Reply::Refused(r),
            };
            let Decision { mut events, again } = outcome;
            if let Some(ply) = again {
                return Reply::Again {
                    ply,
                    v: inner.state.version,
                };
            }
            if let Some(Event::Rematch { game }) = events.first_mut() {
                match self.rematch_game(&inner).await {
                    Ok(id) => *game = id,
                    Err(e) => return Reply::Refused(Refusal::new("database", e)),
                }
            }
            match self
                .store_events(live, &mut inner, events, None, false)
                .await
            {
                Ok(()) => return Reply::Done,
                Err(AppendError::Conflict) => self.catch_up(live, &mut inner).await,
                Err(AppendError::Db(e)) => {
                    return Reply::Refused(Refusal::new("database", e.to_string()))
                }
            }
        }
        Reply::Refused(Refusal::new(
            "busy",
            "the game changed meanwhile: try again",
        ))
    }

    /// The rematch: a new game with the same rules, clock and rating, the seats (and
    /// their accounts) swapped.
    async fn rematch_game(self: &Arc<Self>, inner: &Inner) -> Result<String, String> {
        let hashes = [inner.hashes[1].as_deref(), inner.hashes[0].as_deref()];
        let users = [inner.users[1].as_deref(), inner.users[0].as_deref()];
        let spec = GameSpec {
            rules: &inner.state.rules.to_string(),
            tc: &inner.state.tc().to_string(),
            lobby: false,
            rated: inner.rated,
            range: None,
            invited: None,
        };
        self.create_with(spec, hashes, users, "rematch").await
    }

    /// Stores events (the next versions), then folds them in and sends them.
    async fn store_events(
        self: &Arc<Self>,
        live: &Arc<Live>,
        inner: &mut Inner,
        events: Vec<Event>,
        seat: Option<Seat<'_>>,
        leave_lobby: bool,
    ) -> Result<(), AppendError> {
        let now = now_ms();
        let mut next = inner.state.clone();
        let mut stored = Vec::new();
        for ev in events {
            let s = Stored {
                v: next.version + 1,
                at: now,
                ev,
            };
            next.apply(&s)
                .map_err(|e| AppendError::Db(sqlx::Error::Protocol(e)))?;
            stored.push(s);
        }
        let rated_end = if inner.rated {
            rated_score(&inner.state, &next)
        } else {
            None
        };
        self.store
            .append(
                &live.id,
                &stored,
                next.status(),
                seat,
                leave_lobby,
                rated_end,
            )
            .await?;
        if let Some(seat) = seat {
            inner.hashes[seat.side.index()] = Some(seat.hash.to_string());
            inner.users[seat.side.index()] = seat.user.map(str::to_string);
        }
        self.fold_in(live, inner, stored);
        self.arm_locked(live, inner);
        Ok(())
    }

    /// Folds stored events in and sends them to the game's connections.
    fn fold_in(&self, live: &Live, inner: &mut Inner, stored: Vec<Stored>) {
        for s in stored {
            let kind = kind_of(&inner.state, &s);
            if let Err(e) = inner.state.apply(&s) {
                log::error!("game {}: {e}", live.id);
                return;
            }
            let _ = live
                .tx
                .send(ServerMsg::Event(Box::new(EventMsg::of(&s, kind, &inner.state))).text());
        }
    }

    /// Reads the events other nodes stored since our version (after a conflict or a
    /// notification), and the seats' hashes.
    async fn catch_up(self: &Arc<Self>, live: &Arc<Live>, inner: &mut Inner) {
        match self.store.events(&live.id, inner.state.version).await {
            Ok(events) => self.fold_in(live, inner, events),
            Err(e) => log::error!("game {}: {e}", live.id),
        }
        if let Ok(Some(row)) = self.store.game(&live.id).await {
            inner.hashes = row.hashes;
            inner.users = row.users;
        }
        self.arm_locked(live, inner);
    }

    /// A notification of another node's (none of ours: they are skipped).
    pub async fn notified(self: &Arc<Self>, notice: Notice) {
        if notice.node() == self.node {
            return;
        }
        match notice {
            Notice::Changed { game, .. } => self.changed(&game).await,
            Notice::Presence { game, node, counts } => {
                if let Ok(Some(live)) = self.get(&game).await {
                    let msg = self.presence(&live, &node, counts);
                    let _ = live.tx.send(msg);
                }
            }
        }
    }

    /// A notification: game `id` changed on another node.
    pub async fn changed(self: &Arc<Self>, id: &str) {
        let live = self.games.lock().ok().and_then(|g| g.get(id).cloned());
        match live {
            Some(live) => {
                let mut inner = live.inner.lock().await;
                self.catch_up(&live, &mut inner).await;
            }
            // Every node holds every game that is not over, so that its clock is kept
            // even when the node that started it is gone.
            None => {
                if let Err(e) = self.get(id).await {
                    log::error!("game {id}: {e}");
                }
            }
        }
    }

    /// Reads what other nodes stored in every game held (after lost notifications).
    pub async fn catch_up_all(self: &Arc<Self>) {
        let all: Vec<Arc<Live>> = match self.games.lock() {
            Ok(g) => g.values().cloned().collect(),
            Err(_) => return,
        };
        for live in all {
            let mut inner = live.inner.lock().await;
            self.catch_up(&live, &mut inner).await;
        }
    }

    /// Presence counts of a node for a game (ours, or another's by notification).
    pub fn presence(&self, live: &Live, node: &str, counts: [u32; 2]) -> Out {
        let mut p = match live.presence.lock() {
            Ok(p) => p,
            Err(e) => e.into_inner(),
        };
        p.update(node, counts, now_ms());
        p.message()
    }

    async fn arm(self: &Arc<Self>, live: &Arc<Live>) {
        let mut inner = live.inner.lock().await;
        self.arm_locked(live, &mut inner);
    }

    /// Sets the game's timer to its deadline (a flag, an abort), if it has one.
    fn arm_locked(self: &Arc<Self>, live: &Arc<Live>, inner: &mut Inner) {
        if let Some(t) = inner.timer.take() {
            t.abort();
        }
        let Some((at, _)) = inner.state.deadline() else {
            return;
        };
        let hub = self.clone();
        let live = live.clone();
        inner.timer = Some(tokio::spawn(async move {
            let wait = (at - now_ms()).max(0) as u64;
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
            hub.tick(&live).await;
        }));
    }

    /// The timer: stores the deadline's event if it is due.
    async fn tick(self: &Arc<Self>, live: &Arc<Live>) {
        let mut inner = live.inner.lock().await;
        // This task is the timer: it must not abort itself when re-arming.
        inner.timer = None;
        for _ in 0..3 {
            let Some(ev) = inner.state.due(now_ms()) else {
                self.arm_locked(live, &mut inner);
                return;
            };
            match self
                .store_events(live, &mut inner, vec![ev], None, false)
                .await
            {
                Ok(()) => return,
                Err(AppendError::Conflict) => self.catch_up(live, &mut inner).await,
                Err(AppendError::Db(e)) => {
                    log::error!("game {}: {e}", live.id);
                    return;
                }
            }
        }
    }

    /// On start: loads every game not over, and when the whole service was down
    /// (no heartbeat for `DOWNTIME_MIN_MS`) gives each a `Downtime` event, so that the
    /// time the service was down runs no one's clock (docs/online.md).
    pub async fn resume(self: &Arc<Self>) -> Result<usize, String> {
        let now = now_ms();
        let last = self.store.heartbeat(now).await.map_err(|e| e.to_string())?;
        let down = if last > 0 && now - last > crate::DOWNTIME_MIN_MS {
            now - last
        } else {
            0
        };
        let ids = self.store.unfinished().await.map_err(|e| e.to_string())?;
        for id in &ids {
            let Some(live) = self.get(id).await? else {
                continue;
            };
            if down > 0 {
                let mut inner = live.inner.lock().await;
                if inner.state.deadline().is_some() {
                    let ev = Event::Downtime { ms: down };
                    if let Err(e) = self
                        .store_events(&live, &mut inner, vec![ev], None, false)
                        .await
                    {
                        log::warn!("game {id}: downtime not recorded: {e:?}");
                    }
                }
            }
        }
        if down > 0 {
            log::info!(
                "the service was down {:.1} s: {} games' clocks credited",
                down as f64 / 1000.0,
                ids.len()
            );
        }
        Ok(ids.len())
    }

    /// Drops finished games no one watches from memory.
    pub async fn sweep(&self) {
        let all: Vec<Arc<Live>> = match self.games.lock() {
            Ok(g) => g.values().cloned().collect(),
            Err(_) => return,
        };
        for live in all {
            let over = live.inner.lock().await.state.is_over();
            if over && live.tx.receiver_count() == 0 {
                if let Ok(mut g) = self.games.lock() {
                    g.remove(&live.id);
                }
            }
        }
    }
}
