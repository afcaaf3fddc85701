//! Accounts and rated games of `jungle serve` (docs/accounts.md): the store on SQLite
//! and a throwaway PostgreSQL cluster, the account requests over HTTP with their bad
//! input, the cookie, the origin check and the rate limit, and whole rated games
//! between two accounts over websockets, each rated exactly once, with the obvious
//! abuses refused.

mod gui_common;
mod online_common;

use jungle_online::model::{Event, Side, Stored};
use jungle_online::store::{NewGame, Seat, Store};
use online_common::accounts::*;
use online_common::*;
use serde_json::{json, Value};

#[test]
fn the_store_keeps_accounts_and_rates_a_game_once_on_sqlite_and_postgresql() {
    let dir = TempDir::new("accounts-store");
    let sqlite = format!("sqlite:{}?mode=rwc", dir.0.join("a.sqlite").display());
    block_on(store_checks(&sqlite));
    match Postgres::start() {
        Some(pg) => block_on(store_checks(&pg.url)),
        None => eprintln!("SKIPPED on PostgreSQL: not installed"),
    }
}

fn db(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn append(e: impl std::fmt::Debug) -> String {
    format!("{e:?}")
}

async fn store_checks(url: &str) -> Result<(), String> {
    let store = Store::open(url, "test").await?;
    assert_eq!(store.schema_version().await.map_err(|e| e.to_string())?, 8);
    store
        .create_user("u1", "Ann", "ann", "$argon2id$x", 1)
        .await
        .map_err(append)?;
    store
        .create_user("u2", "Bob", "bob", "$argon2id$y", 1)
        .await
        .map_err(append)?;
    // The key is unique: "ANN" is Ann's name.
    assert!(matches!(
        store.create_user("u3", "ANN", "ann", "h", 1).await,
        Err(jungle_online::store::AppendError::Conflict)
    ));
    // Sessions: found by hash while fresh, not once idle, not once dropped.
    store.create_session("h1", "u1", 1000).await.map_err(db)?;
    let found = store.session("h1", 2000, 0).await.map_err(db)?;
    assert_eq!(
        found.map(|(u, h)| (u.username, h)),
        Some(("Ann".into(), "h1".into()))
    );
    assert!(store.session("h1", 2000, 1500).await.map_err(db)?.is_none());
    store.drop_session("h1").await.map_err(db)?;
    assert!(store.session("h1", 2000, 0).await.map_err(db)?.is_none());

    // A rated game, Ann red and Bob blue, ends: both rated once.
    let created = |v: u64, ev: Event| Stored { v, at: 10, ev };
    let events = [
        created(
            1,
            Event::Created {
                rules: "jungle".into(),
                tc: "5m+3s".into(),
            },
        ),
        created(2, Event::Seated { side: Side::Red }),
    ];
    let game = NewGame {
        id: "g1",
        created_at: 10,
        rules: "jungle",
        tc: "5m+3s",
        hashes: [Some("hr"), None],
        lobby: false,
        creator_ip: "ip",
        status: "waiting",
        rated: true,
        users: [Some("u1"), None],
        range: Some((1400, 1600)),
        invited: None,
    };
    store.create(&game, &events).await.map_err(append)?;
    let seat = Seat {
        side: Side::Blue,
        hash: "hb",
        user: Some("u2"),
    };
    let seated = [created(3, Event::Seated { side: Side::Blue })];
    store
        .append("g1", &seated, "playing", Some(seat), true, None)
        .await
        .map_err(append)?;
    let end = |v: u64| {
        let ev = Event::End {
            result: "1-0".into(),
            reason: "resign".into(),
        };
        [Stored { v, at: 20, ev }]
    };
    store
        .append("g1", &end(4), "over", None, false, Some(1.0))
        .await
        .map_err(append)?;
    // The same end again (a replay) is refused by its version and rates nothing.
    assert!(store
        .append("g1", &end(4), "over", None, false, Some(1.0))
        .await
        .is_err());
    // Another event with a rated end changes nothing twice (the game is rated).
    store
        .append("g1", &end(5), "over", None, false, Some(0.0))
        .await
        .map_err(append)?;
    let ann = store.ratings("u1").await.map_err(db)?;
    let bob = store.ratings("u2").await.map_err(db)?;
    assert_eq!(ann.len(), 1);
    assert_eq!(
        (ann[0].category.as_str(), ann[0].games),
        ("jungle.blitz", 1)
    );
    assert!(ann[0].rating.rating > 1500.0 && bob[0].rating.rating < 1500.0);
    assert!((ann[0].rating.rating - 1500.0 - (1500.0 - bob[0].rating.rating)).abs() < 1e-6);
    let history = store.history("u1").await.map_err(db)?;
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].game_id, "g1");
    assert_eq!(history[0].before.0, 1500.0);
    let row = store.game("g1").await.map_err(db)?.ok_or("no game")?;
    assert!(row.rated);
    assert_eq!(row.users, [Some("u1".into()), Some("u2".into())]);
    assert_eq!(row.range, Some((1400, 1600)));
    assert_eq!(row.invited, None);

    // A challenge to one account (a bot): its invitations while it waits, and whether
    // it plays a game now.
    assert!(store.invitations("u9").await.map_err(db)?.is_empty());
    assert!(!store.playing("u9").await.map_err(db)?);
    let invite = NewGame {
        id: "g2",
        invited: Some("u9"),
        rated: false,
        range: None,
        ..game
    };
    store.create(&invite, &events).await.map_err(append)?;
    let invitations = store.invitations("u9").await.map_err(db)?;
    assert_eq!(invitations.len(), 1);
    assert_eq!(invitations[0].invited.as_deref(), Some("u9"));
    assert!(store.invitations("u2").await.map_err(db)?.is_empty());
    let seated = [created(3, Event::Seated { side: Side::Blue })];
    store
        .append(
            "g2",
            &seated,
            "playing",
            Some(Seat {
                user: Some("u9"),
                ..seat
            }),
            true,
            None,
        )
        .await
        .map_err(append)?;
    assert!(store.invitations("u9").await.map_err(db)?.is_empty());
    assert!(store.playing("u9").await.map_err(db)?);

    // What profiles and leaderboards read (docs/accounts.md).
    let listed = store.games_of_user("u2", 10, 0).await.map_err(db)?;
    assert_eq!(
        listed.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
        ["g1"]
    );
    assert!(store
        .games_of_user("u2", 10, 1)
        .await
        .map_err(db)?
        .is_empty());
    assert_eq!(store.finished_of_user("u1", 10).await.map_err(db)?.len(), 1);
    let in_blitz = store.rating("u1", "jungle.blitz").await.map_err(db)?;
    assert_eq!(in_blitz.map(|r| r.games), Some(1));
    assert!(store
        .rating("u1", "jungle.rapid")
        .await
        .map_err(db)?
        .is_none());
    // One game leaves both provisional: none under RD 110, both under 500.
    assert!(store
        .leaderboard("jungle.blitz", 110.0, 10)
        .await
        .map_err(db)?
        .is_empty());
    let board = store
        .leaderboard("jungle.blitz", 500.0, 10)
        .await
        .map_err(db)?;
    assert_eq!(
        board.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["Ann", "Bob"]
    );
    // A seat is claimed only while it has no account, by its token, in a game not
    // rated and not over (g1 is all three).
    assert!(!store
        .claim_seat("g1", Side::Red, "hr", "u2")
        .await
        .map_err(db)?);

    // Deleting: the name is gone (and free), the sessions end, the ratings stay.
    store.create_session("h2", "u1", 3000).await.map_err(db)?;
    store.delete_user("u1").await.map_err(db)?;
    assert!(store.user_by_key("ann").await.map_err(db)?.is_none());
    assert!(store.session("h2", 3000, 0).await.map_err(db)?.is_none());
    let gone = store.user("u1").await.map_err(db)?.ok_or("no row")?;
    assert!(gone.deleted && gone.username.is_empty() && gone.password_hash.is_empty());
    assert_eq!(store.ratings("u1").await.map_err(db)?.len(), 1);
    store
        .create_user("u4", "ann", "ann", "h", 5)
        .await
        .map_err(append)?;
    bots_seen_checks(&store, &game, &events).await
}

/// Migration 8's `bots_online` (docs/accounts.md, "Bots online"): a bot's last-seen
/// time only moves on, what it plays stays until it says again, and the invitations
/// of a bot no node has seen since a time are found, not those of a bot seen since.
async fn bots_seen_checks(
    store: &Store,
    game: &NewGame<'_>,
    events: &[Stored],
) -> Result<(), String> {
    for (id, name) in [("b1", "Robo"), ("b2", "Zed")] {
        store
            .create_user(id, name, &name.to_lowercase(), "h", 1)
            .await
            .map_err(append)?;
        assert!(store.make_bot(id).await.map_err(db)?);
    }
    assert_eq!(store.bot_seen_at("b1").await.map_err(db)?, None);
    store
        .bot_seen("b1", 100, Some("{\"level\":\"3\"}"))
        .await
        .map_err(db)?;
    store.bot_seen("b1", 300, None).await.map_err(db)?;
    store.bot_seen("b1", 200, None).await.map_err(db)?;
    assert_eq!(store.bot_seen_at("b1").await.map_err(db)?, Some(300));
    store.bot_seen("b2", 150, None).await.map_err(db)?;
    let seen = store.bots_seen_since(150).await.map_err(db)?;
    assert_eq!(
        seen.iter()
            .map(|b| (b.username.as_str(), b.plays.as_deref()))
            .collect::<Vec<_>>(),
        [("Robo", Some("{\"level\":\"3\"}")), ("Zed", None)]
    );
    assert_eq!(store.bots_seen_since(151).await.map_err(db)?.len(), 1);
    // Invitations to each bot, and a challenge that invites no one.
    for (id, invited) in [("g5", Some("b1")), ("g6", Some("b2")), ("g7", None)] {
        let row = NewGame {
            id,
            invited,
            rated: false,
            range: None,
            hashes: [Some(id), None],
            created_at: 50,
            ..*game
        };
        store.create(&row, events).await.map_err(append)?;
    }
    assert_eq!(
        store.invitations_unseen_since(200).await.map_err(db)?,
        ["g6"]
    );
    assert!(
        store
            .invitations_unseen_since(50)
            .await
            .map_err(db)?
            .is_empty(),
        "created since"
    );
    assert_eq!(
        store.invitations_unseen_since(301).await.map_err(db)?,
        ["g5", "g6"]
    );
    Ok(())
}

#[test]
fn signup_login_logout_me_password_and_delete() {
    let dir = TempDir::new("accounts-http");
    let server = Server::sqlite(&dir.0);
    let body = json!({"username": "Ann_Lee", "password": PASSWORD}).to_string();
    let (status, head, v) = server.request("POST", "/api/account/signup", &body, &[]);
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["username"], "Ann_Lee");
    // The cookie: HttpOnly, SameSite=Lax, Path=/, not Secure without --behind-tls.
    let set = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .expect("Set-Cookie");
    for part in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(part), "{set}");
    }
    assert!(!set.contains("Secure"), "{set}");
    let token = session_cookie(&head).expect("token");
    assert_eq!(token.len(), 32);
    let (status, v) = me(&server, &token);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["username"], "Ann_Lee");
    assert_eq!(v["ratings"], json!([]));

    // Log in by any case of the name; a second session beside the first.
    let (status, head, v) = login(&server, "ann_lee", PASSWORD);
    assert_eq!(status, 200, "{v}");
    let second = session_cookie(&head).expect("token");
    assert_ne!(second, token);
    // Log out: the session ends, the cookie is cleared; the other stays.
    let (status, head, _) = server.request(
        "POST",
        "/api/account/logout",
        "",
        &[("Cookie", &cookie(&second))],
    );
    assert_eq!(status, 200);
    assert_eq!(session_cookie(&head).as_deref(), Some(""));
    assert_eq!(me(&server, &second).0, 401);
    assert_eq!(me(&server, &token).0, 200);

    // A new password: the old one no longer logs in, other sessions end.
    let (_, head, _) = login(&server, "Ann_Lee", PASSWORD);
    let other = session_cookie(&head).expect("token");
    let change = json!({"old": "wrong one!", "new": "a new long secret"}).to_string();
    let (status, v) = with(&server, &token, "POST", "/api/account/password", &change);
    assert_eq!((status, v["code"].as_str()), (401, Some("bad_password")));
    let change = json!({"old": PASSWORD, "new": "short"}).to_string();
    let (status, v) = with(&server, &token, "POST", "/api/account/password", &change);
    assert_eq!((status, v["code"].as_str()), (400, Some("weak_password")));
    let change = json!({"old": PASSWORD, "new": "a new long secret"}).to_string();
    let (status, v) = with(&server, &token, "POST", "/api/account/password", &change);
    assert_eq!(status, 200, "{v}");
    assert_eq!(me(&server, &token).0, 200);
    assert_eq!(me(&server, &other).0, 401);
    assert_eq!(login(&server, "Ann_Lee", PASSWORD).0, 401);
    assert_eq!(login(&server, "Ann_Lee", "a new long secret").0, 200);

    // Delete: the password is asked; then no session, no log-in, the name is free.
    let wrong = json!({"password": PASSWORD}).to_string();
    let (status, _) = with(&server, &token, "POST", "/api/account/delete", &wrong);
    assert_eq!(status, 401);
    let right = json!({"password": "a new long secret"}).to_string();
    let (status, v) = with(&server, &token, "POST", "/api/account/delete", &right);
    assert_eq!(status, 200, "{v}");
    assert_eq!(me(&server, &token).0, 401);
    let (status, _, v) = login(&server, "Ann_Lee", "a new long secret");
    assert_eq!((status, v["code"].as_str()), (401, Some("bad_login")));
    signup(&server, "ann_lee");
}

#[test]
fn bad_input_is_refused_with_a_clear_code() {
    let dir = TempDir::new("accounts-bad");
    let server = Server::sqlite(&dir.0);
    signup(&server, "Taken");
    let code = |name: &str, password: &str| {
        let body = json!({"username": name, "password": password}).to_string();
        let (status, _, v) = server.request("POST", "/api/account/signup", &body, &[]);
        (status, v["code"].as_str().unwrap_or_default().to_string())
    };
    let bad = |c: &str| (400, c.to_string());
    assert_eq!(code(&"x".repeat(21), PASSWORD), bad("bad_username"));
    assert_eq!(code("x", PASSWORD), bad("bad_username"));
    assert_eq!(code("two words", PASSWORD), bad("bad_username"));
    assert_eq!(code("-dash", PASSWORD), bad("bad_username"));
    assert_eq!(code("admin", PASSWORD), bad("reserved_username"));
    assert_eq!(code("Lichess", PASSWORD), bad("reserved_username"));
    assert_eq!(code("TAKEN", PASSWORD), (409, "username_taken".into()));
    assert_eq!(code("ｔａｋｅｎ", PASSWORD), (409, "username_taken".into()));
    assert_eq!(code("newname", "1234567"), bad("weak_password"));
    assert_eq!(code("newname", "password"), bad("weak_password"));
    assert_eq!(code("newname", &"x1".repeat(129)), bad("password_too_long"));
    // A body that is not the JSON asked for.
    for body in ["{", "{\"username\": 5}", "[]", ""] {
        let (status, _, v) = server.request("POST", "/api/account/signup", body, &[]);
        assert_eq!(
            (status, v["code"].as_str()),
            (400, Some("malformed")),
            "{body:?}"
        );
    }
    let (status, _, v) = server.request("POST", "/api/account/login", "{\"username\":", &[]);
    assert_eq!((status, v["code"].as_str()), (400, Some("malformed")));
    // Too big.
    let huge = json!({"username": "a", "password": "x".repeat(5000)}).to_string();
    let (status, _, _) = server.request("POST", "/api/account/signup", &huge, &[]);
    assert_eq!(status, 413);
    // The same answer for a wrong name and a wrong password.
    let (s1, _, v1) = login(&server, "nobody_here", PASSWORD);
    let (s2, _, v2) = login(&server, "Taken", "not the password");
    assert_eq!((s1, &v1), (s2, &v2));
    assert_eq!((s1, v1["code"].as_str()), (401, Some("bad_login")));
    // A session is not something a client can name: a chosen cookie is not a session,
    // and a log-in with it gets a new token.
    let chosen = "0123456789abcdef0123456789abcdef";
    assert_eq!(me(&server, chosen).0, 401);
    let body = json!({"username": "Taken", "password": PASSWORD}).to_string();
    let (status, head, _) = server.request(
        "POST",
        "/api/account/login",
        &body,
        &[("Cookie", &cookie(chosen))],
    );
    assert_eq!(status, 200);
    assert_ne!(session_cookie(&head).as_deref(), Some(chosen));
    assert_eq!(me(&server, chosen).0, 401);
    // GET only for me; POST elsewhere.
    let (status, _, _) = server.request("GET", "/api/account/login", "", &[]);
    assert_eq!(status, 405);
}

#[test]
fn cross_site_posts_are_refused_and_cookies_are_secure_behind_tls() {
    let dir = TempDir::new("accounts-origin");
    let mut args = sqlite_args(&dir.0);
    args.push("--behind-tls".into());
    let server = Server::start(0, &args);
    let body = json!({"username": "Ann", "password": PASSWORD}).to_string();
    let evil = [("Origin", "https://evil.example")];
    let (status, _, v) = server.request("POST", "/api/account/signup", &body, &evil);
    assert_eq!((status, v["code"].as_str()), (403, Some("origin")));
    let cross = [("Sec-Fetch-Site", "cross-site")];
    let (status, _, _) = server.request("POST", "/api/account/signup", &body, &cross);
    assert_eq!(status, 403);
    // From the site's own page.
    let own = format!("http://{}", server.addr);
    let (status, head, v) =
        server.request("POST", "/api/account/signup", &body, &[("Origin", &own)]);
    assert_eq!(status, 201, "{v}");
    assert!(head.contains("Secure"), "{head}");
    let token = session_cookie(&head).expect("token");
    // A game created with the cookie from another site's page: refused.
    let c = cookie(&token);
    let game = json!({"tc": "5m+3s"}).to_string();
    let (status, _, _) = server.request(
        "POST",
        "/api/games",
        &game,
        &[("Cookie", &c), ("Origin", "https://evil.example")],
    );
    assert_eq!(status, 403);
    let (status, _, _) = server.request(
        "POST",
        "/api/account/logout",
        "",
        &[("Cookie", &c), ("Origin", "https://evil.example")],
    );
    assert_eq!(status, 403);
    assert_eq!(me(&server, &token).0, 200);
    // Without a cookie, creating a game from anywhere is as before.
    let (status, _, _) = server.request("POST", "/api/games", &game, &evil);
    assert_eq!(status, 201);
}

#[test]
fn logins_are_rate_limited_by_address_and_by_name() {
    let dir = TempDir::new("accounts-rate");
    let mut args = sqlite_args(&dir.0);
    args.extend(["--logins-per-minute".into(), "3".into()]);
    let server = Server::start(0, &args);
    signup(&server, "Ann");
    for _ in 0..3 {
        assert_eq!(login(&server, "Ann", "wrong password!").0, 401);
    }
    let (status, _, v) = login(&server, "Ann", PASSWORD);
    assert_eq!((status, v["code"].as_str()), (429, Some("rate")));
    // Another name from the same address: the address's limit holds too.
    let (status, _, _) = login(&server, "Bob", PASSWORD);
    assert_eq!(status, 429);
}

#[test]
fn a_rated_game_between_two_accounts_rates_both_once() {
    let dir = TempDir::new("accounts-rated");
    let mut server = Server::sqlite(&dir.0);
    let ann = signup(&server, "Ann");
    let bob = signup(&server, "Bob");
    block_on(async {
        rated_game(&server, &ann, &bob, 7).await?;
        Ok(())
    });
    let (a, ard, ag) = rating(&server, &ann, "jungle.blitz").expect("Ann rated");
    let (b, brd, bg) = rating(&server, &bob, "jungle.blitz").expect("Bob rated");
    assert_eq!((ag, bg), (1, 1));
    // Bob won: equal RDs, so he gains what Ann loses.
    assert!(b > 1500.0 && a < 1500.0, "{a} {b}");
    assert!((b - 1500.0 - (1500.0 - a)).abs() < 1e-6);
    // (`me` widens the RD by the milliseconds since the game: a trace.)
    assert!(ard < 500.0 && (ard - brd).abs() < 1e-3);
    // A restart on the same database rates nothing again.
    server.kill();
    let server = Server::start(0, &server.args.clone());
    assert_eq!(rating(&server, &ann, "jungle.blitz").map(|r| r.2), Some(1));
    let (b_again, brd_again, games) = rating(&server, &bob, "jungle.blitz").expect("Bob");
    assert_eq!((b_again, games), (b, 1));
    assert!((brd_again - brd).abs() < 1e-3);
    // A second game: each rated once more.
    block_on(async {
        rated_game(&server, &bob, &ann, 9).await?;
        Ok(())
    });
    assert_eq!(rating(&server, &ann, "jungle.blitz").map(|r| r.2), Some(2));
    let (b2, _, _) = rating(&server, &bob, "jungle.blitz").expect("Bob");
    assert!(b2 < b, "Bob resigned the second: {b2} < {b}");
}

#[test]
fn rated_abuses_are_refused() {
    let dir = TempDir::new("accounts-abuse");
    let server = Server::sqlite(&dir.0);
    let ann = signup(&server, "Ann");
    // Ann in a second browser: another session of the same account.
    let (_, head, _) = login(&server, "Ann", PASSWORD);
    let ann2 = session_cookie(&head).expect("token");
    let bob = signup(&server, "Bob");
    let rated = json!({"tc": "3m+2s", "rated": true, "lobby": true}).to_string();
    // No account, no rated game.
    let (status, _, v) = server.request("POST", "/api/games", &rated, &[]);
    assert_eq!((status, v["code"].as_str()), (401, Some("login_required")));
    // Rules of one's own are casual only.
    let variant = json!({"tc": "3m+2s", "rated": true, "rules": "jungle (dog swims, no-capture draw 100 plies, repetition draw at 3 occurrences)"}).to_string();
    let (status, v) = with(&server, &ann, "POST", "/api/games", &variant);
    assert_eq!((status, v["code"].as_str()), (400, Some("unrated_rules")));
    let (status, game) = with(&server, &ann, "POST", "/api/games", &rated);
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap_or_default().to_string();
    let join = format!("/api/games/{id}/join");
    // Ann cannot take the other seat from her second browser, nor an anonymous one.
    let (status, v) = with(&server, &ann2, "POST", &join, "");
    assert_eq!((status, v["code"].as_str()), (409, Some("own_game")));
    let (status, _, v) = server.request("POST", &join, "", &[]);
    assert_eq!((status, v["code"].as_str()), (401, Some("login_required")));
    // Quick pairing skips her own challenge: it makes a new one.
    let (status, v) = with(&server, &ann2, "POST", "/api/lobby/quick", &rated);
    assert_eq!(status, 201, "{v}");
    assert_ne!(v["id"], game["id"]);
    // Bob joins; the game is aborted before both have moved: no rating.
    let (status, b) = with(&server, &bob, "POST", &join, "");
    assert_eq!(status, 200, "{b}");
    block_on(async {
        let mut a = Client::connect(&server.addr, &id, game["token"].as_str(), None).await?;
        // A client cannot send a result or a rating: not a message of the protocol.
        for forged in [
            json!({"t": "end", "result": "1-0"}),
            json!({"t": "rating", "rating": 3000}),
        ] {
            a.send(forged).await?;
            let r = a.until(|m| m["t"] == "refused").await?;
            if r["code"] != "malformed" {
                return Err(format!("{r}"));
            }
        }
        a.send(json!({"t": "abort"})).await?;
        a.wait_end().await?;
        Ok(())
    });
    assert_eq!(rating(&server, &ann, "jungle.blitz"), None);
    assert_eq!(rating(&server, &bob, "jungle.blitz"), None);
    // Nor through the HTTP API: me is read-only, and fields of a rating in a request
    // are not read.
    let (status, _) = with(
        &server,
        &ann,
        "POST",
        "/api/account/me",
        "{\"rating\": 3000}",
    );
    assert_eq!(status, 405);
    let forged = json!({"username": "Ann", "password": PASSWORD, "rating": 3000, "ratings": [{"category": "jungle.blitz", "rating": 3000}]}).to_string();
    let (status, head, _) = server.request("POST", "/api/account/login", &forged, &[]);
    assert_eq!(status, 200);
    let t = session_cookie(&head).expect("token");
    assert_eq!(me(&server, &t).1["ratings"], json!([]));
    // A casual game of one account against itself is allowed and rates nothing.
    let casual = json!({"tc": "3m+2s"}).to_string();
    let (status, g) = with(&server, &ann, "POST", "/api/games", &casual);
    assert_eq!(status, 201);
    let (status, _) = with(
        &server,
        &ann2,
        "POST",
        &format!("/api/games/{}/join", g["id"].as_str().unwrap_or_default()),
        "",
    );
    assert_eq!(status, 200);
    // The lobby says which challenges are rated.
    let (status, lobby) = server.get("/api/lobby");
    assert_eq!(status, 200);
    let lobby: Value = serde_json::from_str(&lobby).expect("JSON");
    assert!(lobby["games"]
        .as_array()
        .is_some_and(|g| g.iter().any(|x| x["rated"] == true)));
}

/// SIGKILL as rated games end (0–4 ms after the resignation is sent), then a restart
/// on the same database: each game ends once (resigned again if the end was lost) and
/// is rated once. With equal histories the two players' RDs stay equal, so the sum of
/// their ratings stays 3000: a game rated twice, or for one player only, would show.
#[test]
fn killed_as_rated_games_end_each_is_rated_once() {
    let dir = TempDir::new("accounts-kill");
    let args = sqlite_args(&dir.0);
    let mut server = Server::start(0, &args);
    let ann = signup(&server, "Ann");
    let bob = signup(&server, "Bob");
    const ROUNDS: u64 = 20;
    let mut lost = 0;
    for round in 0..ROUNDS {
        let mut seat = (String::new(), String::new());
        block_on(async {
            let (id, token, mut r, _bl) = rated_opening(&server, &ann, &bob, round + 1).await?;
            r.send(json!({"t": "resign"})).await?;
            std::thread::sleep(std::time::Duration::from_millis(round % 5));
            seat = (id, token);
            Ok(())
        });
        let (id, token) = &seat;
        server.kill();
        server = Server::start(0, &args);
        if server.state(id)["status"] != "over" {
            lost += 1;
            block_on(async {
                let mut r = Client::connect(&server.addr, id, Some(token), None).await?;
                r.send(json!({"t": "resign"})).await?;
                r.wait_end()
                    .await
                    .map_err(|e| format!("{e}: {:?}", r.seen))?;
                Ok(())
            });
        }
    }
    let (a, ard, ag) = rating(&server, &ann, "jungle.blitz").expect("Ann");
    let (b, brd, bg) = rating(&server, &bob, "jungle.blitz").expect("Bob");
    assert_eq!(
        (ag, bg),
        (ROUNDS as i64, ROUNDS as i64),
        "{lost} ends lost to the kill"
    );
    assert!((a + b - 3000.0).abs() < 1e-6, "{a} + {b}");
    assert!((ard - brd).abs() < 1e-3 && a < 1500.0, "{a} {ard} {brd}");
    eprintln!("{ROUNDS} rated games killed as they ended, {lost} ends lost and played again: each rated once");
}

/// A request with an API token (`Authorization: Bearer`).
fn bearer(server: &Server, token: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let (status, _, v) = server.request(method, path, body, &[("Authorization", &auth)]);
    (status, v)
}

#[test]
fn api_tokens_and_bot_accounts() {
    let dir = TempDir::new("accounts-bot");
    let server = Server::sqlite(&dir.0);
    let robo = signup(&server, "Robo");
    // An API token: made by a session, given in the body, no cookie set.
    let (status, head, v) = server.request(
        "POST",
        "/api/account/token",
        "",
        &[("Cookie", &cookie(&robo))],
    );
    assert_eq!(status, 201, "{v}");
    assert!(session_cookie(&head).is_none(), "{head}");
    let api = v["token"].as_str().expect("a token").to_string();
    assert_eq!(api.len(), 32);
    assert_ne!(api, robo);
    let (status, v) = bearer(&server, &api, "GET", "/api/account/me", "");
    assert_eq!(
        (status, v["username"].as_str(), v["is_bot"].as_bool()),
        (200, Some("Robo"), Some(false))
    );
    // No session, an unknown token, a malformed one: no token and no account.
    let (status, _, v) = server.request("POST", "/api/account/token", "", &[]);
    assert_eq!((status, v["code"].as_str()), (401, Some("login_required")));
    let unknown = "0123456789abcdef0123456789abcdef";
    assert_eq!(
        bearer(&server, unknown, "GET", "/api/account/me", "").0,
        401
    );
    assert_eq!(
        bearer(&server, "not-a-token", "GET", "/api/account/me", "").0,
        401
    );
    // From another site's page, refused as every account request is.
    let (status, _, v) = server.request(
        "POST",
        "/api/account/token",
        "",
        &[
            ("Cookie", &cookie(&robo)),
            ("Origin", "http://evil.example"),
        ],
    );
    assert_eq!((status, v["code"].as_str()), (403, Some("origin")));

    // The account becomes a bot (again: nothing changes).
    for _ in 0..2 {
        let (status, v) = bearer(&server, &api, "POST", "/api/account/bot", "");
        assert_eq!(status, 200, "{v}");
    }
    assert_eq!(me(&server, &robo).1["is_bot"], true);
    // A bot makes no challenge in the lobby, nor by quick pairing.
    let lobby = json!({"tc": "5m+3s", "lobby": true}).to_string();
    let (status, v) = bearer(&server, &api, "POST", "/api/games", &lobby);
    assert_eq!((status, v["code"].as_str()), (403, Some("bot_lobby")));
    let quick = json!({"tc": "5m+3s"}).to_string();
    let (status, v) = bearer(&server, &api, "POST", "/api/lobby/quick", &quick);
    assert_eq!((status, v["code"].as_str()), (403, Some("bot_lobby")));
    let (status, text) = server.get("/api/lobby");
    assert_eq!(status, 200, "{text}");
    assert!(text.contains(r#""games":[]"#), "{text}");

    // It joins a person's rated challenge with its token: its account holds the seat.
    let hugo = signup(&server, "Hugo");
    let rated = json!({"tc": "5m+3s", "color": "red", "rated": true, "lobby": true}).to_string();
    let (status, v) = with(&server, &hugo, "POST", "/api/games", &rated);
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let (status, v) = bearer(&server, &api, "POST", &format!("/api/games/{id}/join"), "");
    assert_eq!((status, v["side"].as_str()), (200, Some("blue")), "{v}");
    // An account that has sat in a game becomes no bot.
    let (status, v) = with(&server, &hugo, "POST", "/api/account/bot", "");
    assert_eq!((status, v["code"].as_str()), (409, Some("has_games")));
    assert_eq!(me(&server, &hugo).1["is_bot"], false);

    // Logging out with the token ends it; the browser's session stays.
    assert_eq!(
        bearer(&server, &api, "POST", "/api/account/logout", "").0,
        200
    );
    assert_eq!(bearer(&server, &api, "GET", "/api/account/me", "").0, 401);
    assert_eq!(me(&server, &robo).0, 200);
}
