//! The online game's page (`jungle serve`, crates/online/js/backend.js and
//! page/online.js) in three Chromium windows, on SQLite and on a throwaway PostgreSQL:
//! window A (a desktop) creates a game through "Play a friend" and reads its
//! link; window B (a phone) opens it and is seated; a spectator (a desktop, the
//! page in Chinese) opens the watch link. A and B play six plies by clicking on the
//! board; after four, B reloads and resumes (the same moves, none lost or doubled),
//! then leaves and comes back, and A sees it gone (after 31 s with the claims
//! offered) and back; the server is killed and
//! started again, and the pages say "reconnecting…" and go on with every move; a draw
//! offer lost as the connection drops is sent again on reconnection; a move typed that
//! the server refuses is shown refused with its reason. Every window ends with the
//! server's moves; A resigns and all see the result; the record downloads and the
//! browser's engine reviews the game; a draw offered and declined, a rematch asked
//! and accepted (colours swapped), aborted before both moved; the lobby lists a
//! challenge posted from another browser, which quick pairing on the phone takes,
//! and "Your games" the two games; no script
//! errors. Screenshots
//! `online-<db>-*.png` under target/tmp/gui-screenshots/: on SQLite the desktop light
//! and the phone dark, on PostgreSQL the other way round.
//!
//! The bots' page: a person plays a bot from "Play a bot" (and is offered one in quick
//! pairing), and the page of a person who invited a bot says in words, in each of the
//! page's languages, that the bot declined or went offline (`bots-*.png`).
//!
//! Needs the built site (scripts/build-web.sh), Chromium and chromedriver, and for the
//! second test PostgreSQL; without them a test says so and passes, except under CI.

mod browser_common;
mod gui_common;
mod online_common;

use browser_common::files::built_site;
use browser_common::{
    css, eval, no_script_errors, review_game, shot, top_shot, until, until_within, Browser,
};
use fantoccini::Client;
use online_common::accounts::{rated_game, signup};
use online_common::{sqlite_args, Postgres, Server, TempDir};
use serde_json::Value;

/// The state the page shows: `Jungle.game.state()`'s online part and moves.
async fn moves(client: &Client) -> Vec<String> {
    eval(
        client,
        "const s = Jungle.game.state(); return s && s.online ? s.moves : null",
    )
    .await
}

/// Waits until the window shows `n` moves of the online game.
async fn shows_plies(client: &Client, who: &str, n: usize) {
    until(
        client,
        &format!("{who} shows {n} plies"),
        &format!("(() => {{ const s = Jungle.game.state(); return s && s.online && s.moves.length === {n} && s.online.connected; }})()"),
    )
    .await;
}

/// The window to move clicks one of its animals and a square it may go to (the
/// first the board marks), and the server's event comes back to it.
async fn play_by_click(client: &Client, who: &str, ply: usize) -> String {
    until(
        client,
        &format!("{who}'s turn (ply {ply})"),
        "Object.keys(Jungle.game.state().legal).length > 0",
    )
    .await;
    let (from, to): (String, String) = eval(
        client,
        "const legal = Jungle.game.state().legal; const from = Object.keys(legal).sort()[0]; return [from, legal[from][0].to];",
    )
    .await;
    css(client, &format!("#board .cell[data-sq=\"{from}\"]"))
        .await
        .click()
        .await
        .expect("clicks the animal");
    css(
        client,
        &format!("#board .cell.selected[data-sq=\"{from}\"]"),
    )
    .await;
    css(client, &format!("#board .cell[data-sq=\"{to}\"]"))
        .await
        .click()
        .await
        .expect("clicks its target");
    shows_plies(client, who, ply + 1).await;
    format!("{from}{to}")
}

async fn choose(client: &Client, selector: &str, value: &str) {
    css(client, selector)
        .await
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("chooses {value} in {selector}: {e}"));
}

async fn click(client: &Client, selector: &str) {
    css(client, selector)
        .await
        .click()
        .await
        .unwrap_or_else(|e| panic!("clicks {selector}: {e}"));
}

async fn text_of(client: &Client, selector: &str) -> String {
    eval(
        client,
        &format!("return document.querySelector('{selector}').textContent"),
    )
    .await
}

async fn two_windows(server: &mut Server, db: &str) {
    // On SQLite the desktop is light and the phone dark; on PostgreSQL the other way
    // round (the screenshots show all four).
    let dark = ["--blink-settings=preferredColorScheme=0"];
    let (a_flags, b_flags): (&[&str], &[&str]) = if db == "sqlite" {
        (&[], &dark)
    } else {
        (&dark, &[])
    };
    let (a_scheme, b_scheme) = if db == "sqlite" {
        ("light", "dark")
    } else {
        ("dark", "light")
    };
    let Some(a) = Browser::open_with(a_flags).await else {
        return;
    };
    let Some(b) = Browser::open_phone_with(b_flags, 390, 844).await else {
        return;
    };
    let Some(c) = Browser::open().await else {
        return;
    };
    let (wa, wb, wc) = (&a.client, &b.client, &c.client);
    wa.set_window_size(1280, 800).await.expect("resize");
    wc.set_window_size(1280, 800).await.expect("resize");
    let root = format!("http://{}/", server.addr);
    // The page's back end here is the online one; the visitor's own is the browser's
    // engine of the built site, at local/.
    let (status, js) = server.get("/backend.js");
    assert_eq!(status, 200);
    assert!(js.contains("export const backend") && js.contains("name: \"online\""));
    let (status, local) = server.get("/local/backend.js");
    assert_eq!(status, 200);
    assert!(local.contains("new Worker("), "{local:.200}");
    let (status, page) = server.get("/play/abc");
    assert_eq!(status, 200);
    assert!(page.contains("<head>\n<base href=\"/\">"), "{page}");

    // The spectator's browser first posts a challenge in the lobby (3+2, jungle-cn).
    wc.goto(&root).await.expect("page loads");
    choose(wc, "#lang", "zh").await;
    click(wc, "#online-open").await;
    css(wc, "#online-dialog[open]").await;
    assert_eq!(text_of(wc, "#online-title").await, "和朋友下棋");
    choose(wc, "#online-tc", "3m+2s").await;
    choose(wc, "#online-rules", "jungle-cn").await;
    choose(wc, "#online-color", "red").await;
    shot(
        wc,
        &format!("online-{db}-c0-play-a-friend-desktop-light-chinese"),
    )
    .await;
    click(wc, "#online-challenge").await;
    until(wc, "the challenge posted", "location.pathname.startsWith('/play/') && !!Jungle.game.state() && Jungle.game.state().online.status === 'waiting'").await;
    let challenge: String = eval(wc, "return location.pathname").await;

    // A: the first screen offers "Play a friend"; its dialog makes the game, and lists
    // the open challenge.
    wa.goto(&root).await.expect("page loads");
    css(wa, "#welcome-friend:not([hidden])").await;
    shot(
        wa,
        &format!("online-{db}-a0-first-screen-desktop-{a_scheme}"),
    )
    .await;
    // On a small phone (320x480) the four choices are on the first screen, each as
    // wide as the page and none cut off (the German words are the longest).
    if let Some(small) = Browser::open_phone(320, 480).await {
        let ws = &small.client;
        ws.goto(&root).await.expect("page loads");
        browser_common::viewport_is(ws, 320, 480).await;
        choose(ws, "#lang", "de").await;
        css(ws, "#welcome-friend:not([hidden])").await;
        let fits: String = eval(
            ws,
            "return ['play', 'learn', 'friend', 'puzzles'].map((k) => { \
               const r = document.getElementById('welcome-' + k).getBoundingClientRect(); \
               return k + (r.left >= 0 && r.right <= 320 && r.width >= 240 ? ' fits' : ' ' + JSON.stringify(r)); \
             }).join(', ') + (document.documentElement.scrollWidth <= 320 ? '' : ' wide')",
        )
        .await;
        assert_eq!(fits, "play fits, learn fits, friend fits, puzzles fits");
        shot(ws, &format!("online-{db}-a0b-first-screen-320x480-de")).await;
        // The last choice may be below the fold: a scroll brings it into view.
        let reached: bool = eval(
            ws,
            "const b = document.getElementById('welcome-puzzles'); b.scrollIntoView({block: 'end'}); \
             const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight",
        )
        .await;
        assert!(
            reached,
            "the first screen's last choice cannot be scrolled into view at 320x480"
        );
        shot(
            ws,
            &format!("online-{db}-a0c-first-screen-320x480-de-scrolled"),
        )
        .await;
        small.close().await;
    }
    click(wa, "#welcome-friend").await;
    css(wa, "#online-dialog[open]").await;
    until(
        wa,
        "the lobby",
        "document.querySelectorAll('#online-lobby li').length === 1",
    )
    .await;
    // An anonymous challenger: no name and no rating, the speed last.
    assert_eq!(
        text_of(wa, "#online-lobby li span").await,
        "3 min + 2 s · jungle-cn · Blue is free · Blitz"
    );
    choose(wa, "#online-tc", "5m+3s").await;
    choose(wa, "#online-color", "red").await;
    shot(
        wa,
        &format!("online-{db}-a1-play-a-friend-desktop-{a_scheme}"),
    )
    .await;
    click(wa, "#online-create").await;
    until(wa, "the friend's link", "document.getElementById('online-play-url') && document.getElementById('online-play-url').value.includes('/play/') && !document.getElementById('online-share').hidden").await;
    let link: String = eval(
        wa,
        "return document.getElementById('online-play-url').value",
    )
    .await;
    let watch: String = eval(
        wa,
        "return document.getElementById('online-watch-url').value",
    )
    .await;
    assert!(link.starts_with(&root) && link.contains("/play/"), "{link}");
    let id = link.rsplit('/').next().expect("id").to_string();
    assert_eq!(watch, format!("{root}watch/{id}"));
    shot(wa, &format!("online-{db}-a2-waiting-desktop-{a_scheme}")).await;

    // B opens the friend's link and is seated (Blue, its side at the bottom); the
    // spectator watches in Chinese.
    wb.goto(&link).await.expect("B opens the link");
    until(wb, "B seated", "(() => { const s = Jungle.game.state(); return s && s.online && s.online.you === 'blue' && s.online.status === 'playing'; })()").await;
    // B's phone really is 390 px wide, and the page no wider.
    browser_common::viewport_is(wb, 390, 844).await;
    until(wa, "A sees the game start", "Jungle.game.state().online.status === 'playing' && document.getElementById('online-share').hidden").await;
    wc.goto(&watch)
        .await
        .expect("the spectator opens the watch link");
    until(wc, "the spectator", "(() => { const s = Jungle.game.state(); return s && s.online && s.online.watching && s.online.connected; })()").await;
    choose(wc, "#lang", "zh").await;
    assert_eq!(text_of(wc, "#online-watch-link").await, "你正在观战。");

    // Six plies by clicking, two windows taking turns; every window sees each.
    let mut played = Vec::new();
    for ply in 0..6 {
        let (mover, name) = if ply % 2 == 0 { (wa, "A") } else { (wb, "B") };
        if ply == 2 {
            // A move the server refuses is shown refused, in the page's words, and
            // changes nothing.
            until(
                wa,
                "A's turn",
                "Object.keys(Jungle.game.state().legal).length > 0",
            )
            .await;
            css(wa, "#move-input")
                .await
                .send_keys("a1a9")
                .await
                .expect("types");
            click(wa, "#move-form button").await;
            // The server names the rule the move breaks, in the page's words.
            until(wa, "the refusal", "document.getElementById('notice').textContent.startsWith(\"'a1a9' is not a legal move: \")").await;
            assert_eq!(server.state(&id)["moves"].as_array().map(Vec::len), Some(2));
        }
        played.push(play_by_click(mover, name, ply).await);
        shows_plies(wa, "A", ply + 1).await;
        shows_plies(wb, "B", ply + 1).await;
        shows_plies(wc, "the spectator", ply + 1).await;
        if ply == 1 {
            shot(wb, &format!("online-{db}-b1-phone-{b_scheme}")).await;
        }
        if ply == 3 {
            // B reloads: the same game, the same moves, its seat kept.
            wb.refresh().await.expect("B reloads");
            shows_plies(wb, "B after its reload", 4).await;
            assert_eq!(moves(wb).await, played, "B resumed with the moves played");
            until(
                wb,
                "B seated again",
                "Jungle.game.state().online.you === 'blue'",
            )
            .await;
            // B leaves; A sees it gone, then back.
            wb.goto("about:blank").await.expect("B leaves");
            until(
                wa,
                "A told that B is gone",
                "Jungle.game.state().online.presence.blue === false",
            )
            .await;
            until(wa, "A sees B gone", "document.querySelector('#player-top .who').textContent.includes('left') && document.getElementById('online-status').textContent.includes('left the game')").await;
            shot(
                wa,
                &format!("online-{db}-a3-friend-gone-desktop-{a_scheme}"),
            )
            .await;
            // Gone 31 s (the server's 30 and a second), B may be claimed against.
            assert!(text_of(wa, "#online-status").await.contains("claim it in"));
            until_within(
                wa,
                "the claim offered",
                "!document.getElementById('online-claim-win').hidden && !document.getElementById('online-claim-draw').hidden",
                std::time::Duration::from_secs(90),
            )
            .await;
            assert_eq!(
                text_of(wa, "#online-status").await,
                "Your friend left the game: you may claim the win or a draw."
            );
            shot(wa, &format!("online-{db}-a3b-claim-desktop-{a_scheme}")).await;
            wb.goto(&link).await.expect("B comes back");
            shows_plies(wb, "B back", 4).await;
            css(wa, "#online-claim-win[hidden]").await;
            until(wa, "A sees B back", "!document.querySelector('#player-top .who').textContent.includes('left') && document.getElementById('online-status').textContent.includes('is back')").await;
        }
    }
    for (w, who) in [(wa, "A"), (wb, "B"), (wc, "the spectator")] {
        assert_eq!(moves(w).await, played, "{who}'s moves");
    }
    // The spectator is offered no move (a click on an animal says that only the players
    // move), and its seats are the sides.
    let animal: String = eval(
        wc,
        "return document.querySelector('#board .cell[data-piece]').dataset.sq",
    )
    .await;
    click(wc, &format!("#board .cell[data-sq=\"{animal}\"]")).await;
    until(
        wc,
        "the spectator told",
        "document.getElementById('notice').textContent === '只有对局双方可以走棋，你在观战。'",
    )
    .await;
    let spectator_moves: usize =
        eval(wc, "return Object.keys(Jungle.game.state().legal).length").await;
    assert_eq!(spectator_moves, 0);
    assert_eq!(text_of(wc, "#player-top .who").await, "蓝方");
    let state = server.state(&id);
    let stored: Vec<String> = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(stored, played, "the server's moves: none lost or doubled");
    // The clocks run from the second ply on: Red's (A's turn) counts down on both.
    assert_eq!(state["clock"]["running"], Value::from("red"));
    let clock = text_of(wb, "#player-top .clock").await;
    // Minutes and seconds, a few minutes left of 5+3 (a loaded machine takes longer).
    let (minutes, seconds) = clock.split_once(':').expect("m:ss");
    assert!(
        ["2", "3", "4", "5"].contains(&minutes) && seconds.len() == 2,
        "{clock}"
    );
    // The server's figure and the page's agree within a few seconds.
    let server_ms = state["clock"]["red"].as_i64().expect("ms");
    let page_s: i64 =
        minutes.parse::<i64>().unwrap_or(0) * 60 + seconds.parse::<i64>().unwrap_or(0);
    assert!(
        (server_ms / 1000 - page_s).abs() <= 3,
        "{clock} against {server_ms} ms"
    );
    shot(wb, &format!("online-{db}-b2-phone-{b_scheme}-resumed")).await;

    // The server is killed: both players read "reconnecting…"; started again on the
    // same database and port, the pages reconnect by themselves with every move.
    server.kill();
    for (w, who) in [(wa, "A"), (wb, "B")] {
        until(w, &format!("{who} reconnecting"), "!document.getElementById('online-conn').hidden && !Jungle.game.state().online.connected").await;
    }
    assert_eq!(text_of(wb, "#online-conn").await, "reconnecting…");
    shot(wb, &format!("online-{db}-b3-phone-{b_scheme}-reconnecting")).await;
    let (port, args) = (server.port(), server.args.clone());
    *server = Server::start(port, &args);
    for (w, who) in [(wa, "A"), (wb, "B"), (wc, "the spectator")] {
        shows_plies(w, &format!("{who} after the restart"), 6).await;
        assert_eq!(moves(w).await, played, "{who}'s moves after the restart");
    }
    until(
        wa,
        "A's turn again",
        "Object.keys(Jungle.game.state().legal).length > 0",
    )
    .await;
    shot(
        wc,
        &format!("online-{db}-c1-spectator-desktop-light-chinese"),
    )
    .await;
    // A offers a draw as the connection drops, before the offer leaves the browser:
    // the page sends it again once connected, and B sees it; B declines; the offer is
    // gone for both.
    let _: Value = eval(wa, "const send = WebSocket.prototype.send; WebSocket.prototype.send = function (data) { if (JSON.parse(data).t === 'draw_offer') { WebSocket.prototype.send = send; this.close(); return; } return send.call(this, data); }; return null").await;
    click(wa, "#online-offer-draw").await;
    until(wb, "B offered a draw", "!document.getElementById('online-accept-draw').hidden && document.getElementById('online-status').textContent === 'Red offers a draw.'").await;
    click(wb, "#online-decline-draw").await;
    until(wa, "the offer declined", "!document.getElementById('online-offer-draw').hidden && Jungle.game.state().online.drawOffer === null").await;
    until(
        wb,
        "the offer gone",
        "document.getElementById('online-accept-draw').hidden",
    )
    .await;
    // A offers a draw and at once sends a command the server refuses (a claim while B
    // is here), and the offer's event reaches A's page only after the refusal: the
    // refusal names the claim, so the offer is not taken for refused and no error shows.
    let _: Value = eval(wa, "const send = WebSocket.prototype.send; WebSocket.prototype.send = function (data) { if (JSON.parse(data).t !== 'draw_offer') return send.call(this, data); WebSocket.prototype.send = send; const ws = this, deliver = ws.onmessage, held = []; ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.t === 'event' && m.e && m.e.kind === 'draw_offer') { held.push(e); return; } deliver(e); if (m.t === 'refused') { ws.onmessage = deliver; held.forEach(deliver); } }; send.call(ws, data); return send.call(ws, JSON.stringify({ t: 'claim', draw: false })); }; return null").await;
    click(wa, "#online-offer-draw").await;
    until(
        wb,
        "B offered a draw again",
        "!document.getElementById('online-accept-draw').hidden",
    )
    .await;
    until(wa, "A's offer made, no error shown", "Jungle.game.state().online.drawOffer === 'red' && document.getElementById('notice').hidden").await;
    click(wb, "#online-decline-draw").await;
    until(
        wa,
        "the second offer declined",
        "Jungle.game.state().online.drawOffer === null",
    )
    .await;
    shot(wa, &format!("online-{db}-a4-six-plies-desktop-{a_scheme}")).await;

    // A resigns (two clicks); both players and the spectator see the result.
    click(wa, "#online-resign").await;
    click(wa, "#online-resign").await;
    until(
        wa,
        "A's result",
        "!document.getElementById('result').hidden",
    )
    .await;
    until(
        wb,
        "B's result",
        "!document.getElementById('result').hidden",
    )
    .await;
    until(
        wc,
        "the spectator's result",
        "!document.getElementById('result').hidden",
    )
    .await;
    assert_eq!(text_of(wa, "#result").await, "You lose: Red resigned");
    assert_eq!(text_of(wb, "#result").await, "You win! Red resigned");
    assert_eq!(text_of(wc, "#result").await, "蓝方获胜：红方认输");
    css(wb, "#online-rematch:not([hidden])").await;
    css(wb, "#online-record:not([hidden])").await;
    let (status, record) = server.get(&format!("/api/games/{id}/record"));
    assert_eq!(status, 200);
    assert!(record.contains(&played[0]), "{record}");
    top_shot(wb, &format!("online-{db}-b4-phone-{b_scheme}-over")).await;
    // The record downloads, and the finished game is reviewed by the browser's engine.
    click(wb, "#online-record").await;
    review_game(wb).await;
    let sides: usize = eval(
        wb,
        "return document.querySelectorAll('#review-summary .side-review').length",
    )
    .await;
    assert_eq!(sides, 2, "the review's summary of each side");
    shot(wa, &format!("online-{db}-a5-over-desktop-{a_scheme}")).await;

    // B asks for a rematch, A accepts: both go to the new game, colours swapped, their
    // seats kept by the same tokens; the spectator is offered the link to watch it.
    click(wb, "#online-rematch").await;
    until(
        wa,
        "A asked for a rematch",
        "document.getElementById('online-rematch').textContent === 'Accept the rematch'",
    )
    .await;
    click(wa, "#online-rematch").await;
    let seated = |side: &str| {
        format!("(() => {{ const s = Jungle.game.state(); return location.pathname !== '/play/{id}' && s && s.online && s.online.id !== '{id}' && s.online.you === '{side}' && s.online.status === 'playing' && s.online.connected; }})()")
    };
    until(wa, "A in the rematch as Blue", &seated("blue")).await;
    until(wb, "B in the rematch as Red", &seated("red")).await;
    css(wc, "#online-rematch-go:not([hidden])").await;
    // Before both have moved, B (Red now) aborts.
    click(wb, "#online-abort").await;
    for (w, who) in [(wa, "A"), (wb, "B")] {
        until(
            w,
            &format!("{who} sees the abort"),
            "document.getElementById('result').textContent === 'The game was aborted.'",
        )
        .await;
    }
    // "Your games" lists both games of A's browser.
    click(wa, "#online-home").await;
    click(wa, "#online-open").await;
    until(
        wa,
        "A's games",
        "document.querySelectorAll('#online-mine li').length === 2",
    )
    .await;
    shot(wa, &format!("online-{db}-a6-your-games-desktop-{a_scheme}")).await;
    // Quick pairing on the phone with the challenge's clock and rules seats it in the
    // challenge, as Blue.
    wb.goto(&root).await.expect("page loads");
    click(wb, "#online-open").await;
    css(wb, "#online-dialog[open]").await;
    choose(wb, "#online-tc", "3m+2s").await;
    choose(wb, "#online-rules", "jungle-cn").await;
    click(wb, "#online-quick").await;
    until(wb, "B paired", &format!("location.pathname === '{challenge}' && (() => {{ const s = Jungle.game.state(); return s && s.online && s.online.you === 'blue' && s.online.status === 'playing'; }})()")).await;
    for w in [wa, wb, wc] {
        no_script_errors(w).await;
        // Every file and request of the page answered (none refused or missing).
        let (failed, answered): (Vec<String>, usize) = eval(w, "const all = performance.getEntriesByType('resource'); return [all.filter((e) => e.responseStatus >= 400).map((e) => e.name + ' ' + e.responseStatus), all.filter((e) => e.responseStatus === 200).length]").await;
        assert!(
            failed.is_empty() && answered > 0,
            "{failed:?}, {answered} answered"
        );
    }
    a.close().await;
    b.close().await;
    c.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn two_windows_play_a_friend_on_sqlite() {
    let Some(site) = built_site() else {
        return;
    };
    let dir = TempDir::new("online-page");
    let mut args = sqlite_args(&dir.0);
    args.extend(["--site".to_string(), site.display().to_string()]);
    let mut server = Server::start(online_common::free_port(), &args);
    two_windows(&mut server, "sqlite").await;
}

#[tokio::test(flavor = "current_thread")]
async fn two_windows_play_a_friend_on_postgresql() {
    let Some(site) = built_site() else {
        return;
    };
    let Some(pg) = Postgres::start() else {
        eprintln!("SKIPPED: no PostgreSQL");
        return;
    };
    let args: Vec<String> = [
        "--database",
        pg.url.as_str(),
        "--site",
        &site.display().to_string(),
        "--creates-per-minute",
        "10000",
        "--max-open-per-ip",
        "10000",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut server = Server::start(online_common::free_port(), &args);
    two_windows(&mut server, "postgresql").await;
}

/// A fresh build with cargo only (no browser engine): the whole site is served, the
/// page says that the computer plays on the server, a game against the computer and a
/// lesson's task run on the server's engine, and two windows play each other by the
/// friend's link. Screenshots `online-server-engine-*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_site_plays_on_the_server_engine_without_the_browser_engine() {
    let dir = TempDir::new("online-server-engine");
    let server = Server::without_browser_engine(&dir.0, &sqlite_args(&dir.0));
    let (status, local) = server.get("/local/backend.js");
    assert_eq!(status, 200);
    assert!(
        local.contains("EventSource"),
        "the HTTP back end: {local:.200}"
    );
    let Some(a) = Browser::open().await else {
        return;
    };
    let wa = &a.client;
    wa.set_window_size(1280, 800).await.expect("resize");
    let root = format!("http://{}/", server.addr);
    wa.goto(&root).await.expect("the root");
    until(
        wa,
        "the board",
        "Jungle.game.state() && document.querySelector('#board .cell[data-piece]')",
    )
    .await;
    assert_eq!(
        text_of(wa, "#engine-where").await,
        "The computer plays on the server."
    );
    if !eval::<bool>(wa, "return document.getElementById('welcome').hidden").await {
        click(wa, "#welcome-play").await;
    }
    // The computer answers a move, on the server.
    until(
        wa,
        "Red to move",
        "Object.keys(Jungle.game.state().legal).length > 0",
    )
    .await;
    browser_common::click_move(wa, "g3", "g4").await;
    until(
        wa,
        "the computer's answer",
        "Jungle.game.state().moves.length === 2",
    )
    .await;
    shot(wa, "online-server-engine-1-computer").await;
    // A lesson's first task, judged on the server.
    browser_common::open_lesson(wa, "steps", "d3", "D", "online-server-engine-2-lessons").await;
    until(
        wa,
        "the task ready",
        "document.body.dataset.lesson === 'waiting'",
    )
    .await;
    browser_common::click_move(wa, "d3", "d4").await;
    browser_common::lesson_says(wa, "praise").await;
    shot(wa, "online-server-engine-3-lesson").await;
    no_script_errors(wa).await;
    // Two windows play each other by the friend's link.
    let red = server.create("5m+3s", "jungle", "red");
    let id = red["id"].as_str().expect("an id").to_string();
    let token = red["token"].as_str().expect("a token").to_string();
    wa.goto(&root).await.expect("the root");
    wa.execute(
        &format!("localStorage.setItem('jungle.online.tokens', JSON.stringify({{ '{id}': {{ token: '{token}', side: 'red', at: Date.now() }} }}))"),
        vec![],
    )
    .await
    .expect("keeps the seat");
    wa.goto(&format!("{root}play/{id}"))
        .await
        .expect("A's game");
    let Some(b) = Browser::open_phone(390, 844).await else {
        return;
    };
    let wb = &b.client;
    wb.goto(&format!("{root}play/{id}"))
        .await
        .expect("B opens the link");
    until(wb, "B seated", "(() => { const s = Jungle.game.state(); return s && s.online && s.online.you === 'blue' && s.online.status === 'playing'; })()").await;
    for ply in 0..4 {
        let mover = if ply % 2 == 0 { wa } else { wb };
        play_by_click(mover, if ply % 2 == 0 { "A" } else { "B" }, ply).await;
    }
    shows_plies(wa, "A", 4).await;
    shot(wa, "online-server-engine-4-a-friend").await;
    no_script_errors(wa).await;
    no_script_errors(wb).await;
    b.close().await;
    a.close().await;
}

/// Signs up `name` in the page's account box and waits until the page knows it.
async fn sign_up_in_page(client: &Client, name: &str) {
    let _: Value = eval(client, "Jungle.welcome.close(); return null").await;
    click(client, "#account-open").await;
    css(client, "#account-dialog[open] #account-out:not([hidden])").await;
    css(client, "#account-username")
        .await
        .send_keys(name)
        .await
        .expect("types the name");
    css(client, "#account-password")
        .await
        .send_keys("correct horse battery")
        .await
        .expect("types the password");
    click(client, "#account-signup").await;
    until(
        client,
        &format!("{name} signed in"),
        &format!("(() => {{ const me = Jungle.players.me(); return !!me && me.username === '{name}'; }})()"),
    )
    .await;
    css(client, "#account-in:not([hidden])").await;
}

/// Players in the page: two accounts sign up in their browsers, one posts a rated
/// challenge, the other sees its rating and speed in the lobby and takes it, they play
/// and one resigns; each profile then shows the rating, its chart and the game, in
/// English and Chinese; the leaderboards list established players only. Screenshots
/// `players-*.png` (desktop light, phone dark).
#[tokio::test(flavor = "current_thread")]
async fn players_sign_up_play_rated_and_see_profiles_and_leaderboards() {
    let dir = TempDir::new("players-page");
    let server = Server::sqlite(&dir.0);
    let Some(a) = Browser::open().await else {
        return;
    };
    let Some(b) =
        Browser::open_phone_with(&["--blink-settings=preferredColorScheme=0"], 390, 844).await
    else {
        return;
    };
    let (wa, wb) = (&a.client, &b.client);
    wa.set_window_size(1280, 800).await.expect("resize");
    let root = format!("http://{}/", server.addr);

    wa.goto(&root).await.expect("page loads");
    sign_up_in_page(wa, "Ann").await;
    shot(wa, "players-a1-account-desktop-light").await;
    wb.goto(&root).await.expect("page loads");
    sign_up_in_page(wb, "Bob").await;

    // Ann posts a rated challenge (5+3, she plays red, any rating).
    let _: Value = eval(
        wa,
        "document.getElementById('account-dialog').close(); return null",
    )
    .await;
    click(wa, "#online-open").await;
    css(wa, "#online-dialog[open] #online-rated-row:not([hidden])").await;
    choose(wa, "#online-tc", "5m+3s").await;
    choose(wa, "#online-color", "red").await;
    click(wa, "#online-rated").await;
    shot(wa, "players-a2-rated-challenge-desktop-light").await;
    click(wa, "#online-challenge").await;
    until(wa, "the rated challenge posted", "location.pathname.startsWith('/play/') && !!Jungle.game.state() && !!Jungle.game.state().online").await;

    // Bob sees who challenges, the rating, the speed and "rated", and takes it.
    let _: Value = eval(
        wb,
        "document.getElementById('account-dialog').close(); return null",
    )
    .await;
    click(wb, "#online-open").await;
    until(
        wb,
        "the lobby lists Ann's challenge",
        "document.querySelectorAll('#online-lobby li').length === 1",
    )
    .await;
    let row = text_of(wb, "#online-lobby li span").await;
    assert!(
        row.starts_with("Ann (1500?) · ") && row.contains("Blitz") && row.ends_with("rated"),
        "{row}"
    );
    shot(wb, "players-b1-lobby-phone-dark").await;
    click(wb, "#online-lobby li button").await;
    until(wb, "Bob in the game", "location.pathname.startsWith('/play/') && !!Jungle.game.state() && !!Jungle.game.state().online && Jungle.game.state().online.you === 'blue'").await;

    // A move each, then Ann resigns.
    play_by_click(wa, "Ann", 0).await;
    play_by_click(wb, "Bob", 1).await;
    let _: Value = eval(wa, "Jungle.game.post('resign', {}); return null").await;
    until(
        wb,
        "the game over for Bob",
        "Jungle.game.state().online.status === 'over'",
    )
    .await;

    // Ann's profile: the rating fell, one dot on the chart, the game listed as lost.
    wa.goto(&format!("{root}@/Ann"))
        .await
        .expect("profile loads");
    until(
        wa,
        "Ann's profile",
        "document.querySelectorAll('#profile-games li').length === 1",
    )
    .await;
    let rating = text_of(wa, "#profile-ratings tbody tr").await;
    assert!(
        rating.starts_with("Blitz · ") && rating.contains('?'),
        "{rating}"
    );
    let shown: i64 = eval(wa, "return parseInt(document.querySelector('#profile-ratings tbody tr td:nth-child(2)').textContent)").await;
    assert!(shown < 1500, "{rating}");
    let dots: i64 = eval(
        wa,
        "return document.querySelectorAll('#profile-chart svg circle').length",
    )
    .await;
    assert_eq!(dots, 1);
    let game = text_of(wa, "#profile-games li").await;
    assert!(
        game.contains("Bob") && game.contains("lost · rated -"),
        "{game}"
    );
    let download: String = eval(
        wa,
        "return document.getElementById('profile-download').getAttribute('href')",
    )
    .await;
    assert_eq!(download, "/api/players/Ann/games.txt");
    let (status, text) = server.get(&download);
    assert!(status == 200 && text.contains("[Red \"Ann\"]"), "{text}");
    shot(wa, "players-a3-profile-desktop-light").await;
    choose(wa, "#lang", "zh").await;
    until(wa, "the profile in Chinese", "(document.querySelector('#profile-games li .result') || {}).textContent?.startsWith('负') === true").await;
    shot(wa, "players-a4-profile-desktop-light-chinese").await;

    // Two more players play until established; the leaderboard lists them, not the
    // provisional Ann and Bob.
    let cal = signup(&server, "Cal");
    let dan = signup(&server, "Dan");
    for n in 0..30u64 {
        let (red, blue) = if n % 3 == 0 {
            (&cal, &dan)
        } else {
            (&dan, &cal)
        };
        rated_game(&server, red, blue, n)
            .await
            .expect("a rated game");
    }
    wb.goto(&format!("{root}leaderboard"))
        .await
        .expect("leaderboard loads");
    until(
        wb,
        "the leaderboard",
        "document.querySelectorAll('#leaderboard-rows tr').length > 0",
    )
    .await;
    let names: String = eval(wb, "return [...document.querySelectorAll('#leaderboard-rows tr td:nth-child(2)')].map((td) => td.textContent).join(' ')").await;
    assert_eq!(names, "Cal Dan");
    // Behind the dialog, the visitor's own board is set up as at the root (a shot
    // taken as soon as the rows came showed it still "Loading…").
    until(
        wb,
        "the board behind the leaderboard",
        "document.querySelectorAll('#board .cell[data-piece]').length === 16
         && !document.getElementById('status').textContent.startsWith('Loading')",
    )
    .await;
    shot(wb, "players-b2-leaderboard-phone-dark").await;
    // A name in it opens that profile.
    click(wb, "#leaderboard-rows tr a").await;
    until(wb, "Cal's profile", "location.pathname === '/@/Cal' && document.querySelectorAll('#profile-games li').length === 20").await;
    assert!(eval::<bool>(wb, "return !document.getElementById('profile-more').hidden").await);
    shot(wb, "players-b3-profile-phone-dark").await;
    no_script_errors(wa).await;
    no_script_errors(wb).await;
    a.close().await;
    b.close().await;
}

/// A logged-in player's puzzle under `jungle serve` (docs/puzzles.md, "Ratings from
/// people"): signed up from the page, the first puzzle offered solved by clicking;
/// the page shows the account's rating, and the server has rated the player and the
/// puzzle, once. Screenshot `online-puzzle-account.png`.
#[tokio::test(flavor = "current_thread")]
async fn a_logged_in_puzzle_attempt_changes_the_ratings_on_the_server() {
    let dir = TempDir::new("online-puzzles");
    let server = Server::without_browser_engine(&dir.0, &sqlite_args(&dir.0));
    let Some(a) = Browser::open().await else {
        return;
    };
    let wa = &a.client;
    wa.set_window_size(1280, 800).await.expect("resize");
    wa.goto(&format!("http://{}/", server.addr))
        .await
        .expect("the root");
    until(
        wa,
        "the board",
        "Jungle.game.state() && document.querySelector('#board .cell[data-piece]')",
    )
    .await;
    let signup = "return fetch('/api/account/signup', {method: 'POST', \
        headers: {'Content-Type': 'application/json'}, \
        body: JSON.stringify({username: 'Pia', password: 'correct horse battery'})}).then((r) => r.status)";
    assert_eq!(eval::<u64>(wa, signup).await, 201);
    let (id, shown) = browser_common::puzzles::solve_the_first_puzzle(wa).await;
    let words = text_of(wa, "#puzzle-rating").await;
    assert!(words.contains("your account"), "{words}");
    shot(wa, "online-puzzle-account").await;
    no_script_errors(wa).await;

    // The server's figures, read with a session of the test's own.
    let login = serde_json::json!({"username": "Pia", "password": "correct horse battery"});
    let (status, head, _) = server.request("POST", "/api/account/login", &login.to_string(), &[]);
    assert_eq!(status, 200);
    let cookie = format!(
        "jungle_session={}",
        online_common::session_cookie(&head).expect("a session")
    );
    let (_, _, me) = server.request("GET", "/api/account/me", "", &[("Cookie", &cookie)]);
    let puzzle = me["ratings"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["category"] == "puzzle"))
        .unwrap_or_else(|| panic!("a puzzle rating: {me}"));
    assert_eq!(puzzle["games"], 1, "{me}");
    let rating = puzzle["rating"].as_f64().expect("a rating");
    assert!(rating > 1500.0, "{me}");
    assert_eq!(shown, rating.round(), "the page shows the server's rating");
    let (_, _, asked) = server.request(
        "GET",
        &format!("/api/puzzles/next?id={id}"),
        "",
        &[("Cookie", &cookie)],
    );
    let shipped = jungle_app::puzzles::shipped()
        .iter()
        .find(|p| p.id == id)
        .expect("a shipped puzzle");
    assert!(
        asked["puzzle"]["rating"].as_u64() < Some(u64::from(shipped.rating)),
        "solved, the puzzle's rating falls: {asked}"
    );
}

/// A bot account running `jungle bot` (its own engine at level 2, 400 nodes a move)
/// against the server until dropped.
struct PageBot(std::process::Child);

/// A new bot account `name` on the server: its API token.
fn bot_token(server: &Server, name: &str) -> String {
    let session = signup(server, name);
    let (status, v) =
        online_common::accounts::with(server, &session, "POST", "/api/account/token", "");
    assert_eq!(status, 201, "{v}");
    let token = v["token"].as_str().expect("token").to_string();
    let auth = format!("Bearer {token}");
    let (status, _, v) =
        server.request("POST", "/api/account/bot", "", &[("Authorization", &auth)]);
    assert_eq!(status, 200, "{v}");
    token
}

impl PageBot {
    fn start(server: &Server, dir: &std::path::Path) -> PageBot {
        let token = bot_token(server, "Robo");
        let file = dir.join("robo.token");
        std::fs::write(&file, &token).expect("token file");
        let url = format!("http://{}", server.addr);
        let child = std::process::Command::new(gui_common::jungle())
            .args(["bot", "--server", &url, "--token-file"])
            .arg(&file)
            .args(["--level", "2", "--nodes", "400", "--poll-ms", "300"])
            .arg("--invitations-only")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("jungle bot");
        PageBot(child)
    }
}

impl Drop for PageBot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A person plays the bot from "Play a bot": the list shows it online with its "BOT"
/// mark, rating and level; its button invites it with the dialog's settings (5m+3s,
/// red); the bot joins and answers, the seats name it with the mark. Then on a phone,
/// in Chinese; quick pairing that finds no one offers the bot, whose button plays it;
/// the bot's profile has the mark. Screenshots `bots-lobby.png`,
/// `bots-game.png` (desktop, English) and `bots-lobby-zh-phone.png`,
/// `bots-game-zh-phone.png`.
#[tokio::test(flavor = "current_thread")]
async fn a_person_plays_a_bot_from_the_lobby() {
    let dir = TempDir::new("bots-page");
    let mut args = sqlite_args(&dir.0);
    args.extend(["--bot-offer-ms", "1000"].map(String::from));
    let server = Server::start(0, &args);
    let _bot = PageBot::start(&server, &dir.0);
    let Some(a) = Browser::open().await else {
        return;
    };
    let Some(b) = Browser::open_phone(390, 844).await else {
        return;
    };
    let (wa, wb) = (&a.client, &b.client);
    wa.set_window_size(1280, 800).await.expect("resize");
    let root = format!("http://{}/", server.addr);
    for (w, name, lang) in [(wa, "", "en"), (wb, "-zh-phone", "zh")] {
        w.goto(&root).await.expect("page loads");
        let _: Value = eval(w, "Jungle.welcome.close(); return null").await;
        if lang == "zh" {
            browser_common::choose_language(w, "zh", "#online-open", "和朋友下").await;
        }
        click(w, "#online-open").await;
        until(
            w,
            "the bot listed",
            "(() => { const li = document.querySelector('#online-bots li'); return !!li && li.textContent.includes('Robo') && !!li.querySelector('.bot-mark') && li.textContent.includes('1500?'); })()",
        )
        .await;
        assert!(
            eval::<bool>(
                w,
                "return document.getElementById('online-bots-empty').hidden"
            )
            .await
        );
        choose(w, "#online-tc", "5m+3s").await;
        choose(w, "#online-color", "red").await;
        shot(w, &format!("bots-lobby{name}")).await;
        click(w, "#online-bots li button").await;
        until(w, "the game page", "location.pathname.startsWith('/play/') && !!Jungle.game.state() && !!Jungle.game.state().online").await;
        // The bot joins: its seat named, marked as a bot; a few moves each.
        until(
            w,
            "the bot seated and marked",
            "(() => { const o = Jungle.game.state().online; return o.status === 'playing' && !!o.players.blue && o.players.blue.bot && !!document.querySelector('#player-top .who .bot-mark'); })()",
        )
        .await;
        assert!(text_of(w, "#player-top .who").await.contains("Robo"));
        // A few moves each (the bot answers at once: its reply may come before the
        // person's move is seen alone).
        for ply in [0, 2, 4] {
            until(
                w,
                &format!("the person's turn at ply {ply}"),
                &format!("Jungle.game.state().moves.length === {ply} && Object.keys(Jungle.game.state().legal).length > 0"),
            )
            .await;
            let (from, to): (String, String) = eval(w, "const legal = Jungle.game.state().legal; const from = Object.keys(legal).sort()[0]; return [from, legal[from][0].to];").await;
            click(w, &format!("#board .cell[data-sq=\"{from}\"]")).await;
            css(w, &format!("#board .cell.selected[data-sq=\"{from}\"]")).await;
            click(w, &format!("#board .cell[data-sq=\"{to}\"]")).await;
            shows_plies(w, "the person and the bot", ply + 2).await;
        }
        shot(w, &format!("bots-game{name}")).await;
        // Resigned, so that the bot (one game at a time) is free for the next.
        click(w, "#online-resign").await;
        click(w, "#online-resign").await;
        until(
            w,
            "the game over",
            "Jungle.game.state().online.status === 'over'",
        )
        .await;
        no_script_errors(w).await;
    }
    // Quick pairing finds no one: after the wait the page offers the bot, whose button
    // withdraws the challenge and plays the bot instead.
    wa.goto(&root).await.expect("page loads");
    let _: Value = eval(wa, "Jungle.welcome.close(); return null").await;
    click(wa, "#online-open").await;
    choose(wa, "#online-tc", "5m+3s").await;
    click(wa, "#online-quick").await;
    until(
        wa,
        "the bot offered",
        "(() => { const o = document.getElementById('online-bot-offer'); return !o.hidden && document.getElementById('online-bot-offer-text').textContent.includes('play Robo (1500?'); })()",
    )
    .await;
    let waiting: String = eval(wa, "return Jungle.game.state().online.id").await;
    shot(wa, "bots-offer").await;
    click(wa, "#online-bot-offer-play").await;
    until(
        wa,
        "the bot's game",
        &format!("(() => {{ const s = Jungle.game.state(); return !location.pathname.includes('{waiting}') && !!s && !!s.online && s.online.status === 'playing' && Object.values(s.online.players).some((p) => !!p && p.bot); }})()"),
    )
    .await;
    assert_eq!(
        server.state(&waiting)["status"],
        "over",
        "the challenge withdrawn"
    );
    // The bot's profile has the mark too.
    wa.goto(&format!("{root}@/Robo"))
        .await
        .expect("the profile loads");
    until(
        wa,
        "the bot's profile marked",
        "(() => { const n = document.getElementById('profile-name'); return !!n && n.textContent.startsWith('Robo') && !!n.querySelector('.bot-mark'); })()",
    )
    .await;
    no_script_errors(wa).await;
    a.close().await;
    b.close().await;
}

/// A bot that asks for its lobby every 200 ms from a thread of its own while it is
/// `on` (it goes offline when it stops), and declines invitations when told.
struct PollingBot {
    addr: String,
    auth: String,
    on: std::sync::Arc<std::sync::atomic::AtomicBool>,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl PollingBot {
    /// The bot account `name` on the server, polling.
    fn start(server: &Server, name: &str) -> PollingBot {
        let auth = format!("Bearer {}", bot_token(server, name));
        let bot = PollingBot {
            addr: server.addr.clone(),
            auth,
            on: Default::default(),
            done: Default::default(),
        };
        bot.set_polling(true);
        let (addr, auth, on, done) = (
            bot.addr.clone(),
            bot.auth.clone(),
            bot.on.clone(),
            bot.done.clone(),
        );
        std::thread::spawn(move || {
            use std::sync::atomic::Ordering;
            while !done.load(Ordering::Relaxed) {
                if on.load(Ordering::Relaxed) {
                    bot_request(&addr, &auth, "GET", "/api/lobby");
                }
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
        });
        bot
    }

    fn set_polling(&self, on: bool) {
        self.on.store(on, std::sync::atomic::Ordering::Relaxed);
        if on {
            bot_request(&self.addr, &self.auth, "GET", "/api/lobby");
        }
    }

    fn decline(&self, id: &str) {
        let status = bot_request(
            &self.addr,
            &self.auth,
            "POST",
            &format!("/api/games/{id}/decline"),
        );
        assert_eq!(status, 200, "the decline of {id}");
    }
}

impl Drop for PollingBot {
    fn drop(&mut self) {
        self.done.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A request of a bot's (with its token): the status.
fn bot_request(addr: &str, auth: &str, method: &str, path: &str) -> u16 {
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: {auth}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    gui_common::raw(addr, req.as_bytes()).0
}

/// The page of a person who invited a bot, in each of the page's languages, says in
/// words when the bot declines ("The bot declined the challenge.") and when it goes
/// offline before it answers ("The bot went offline: the challenge is withdrawn."),
/// as the server ends the challenge (docs/accounts.md, "Bots online"). Screenshots
/// `bots-declined-<lang>.png` and `bots-offline-<lang>.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_inviters_page_says_when_the_bot_declines_or_goes_offline() {
    let dir = TempDir::new("bots-gone-page");
    let mut args = sqlite_args(&dir.0);
    args.extend(["--bots-online-ms", "1500"].map(String::from));
    let server = Server::start(0, &args);
    let bot = PollingBot::start(&server, "Robo");
    let Some(a) = Browser::open().await else {
        return;
    };
    let w = &a.client;
    w.set_window_size(1280, 800).await.expect("resize");
    let root = format!("http://{}/", server.addr);
    // Each language (in an order where the header's "Play a friend" changes each
    // time), the header's words, and the sentences of a decline and of a bot gone.
    let languages = [
        (
            "en",
            "Play a friend",
            "The bot declined the challenge.",
            "The bot went offline: the challenge is withdrawn.",
        ),
        (
            "zh",
            "和朋友下",
            "机器人拒绝了挑战。",
            "机器人已离线：挑战已撤回。",
        ),
        (
            "de",
            "Gegen Freunde",
            "Der Bot hat die Herausforderung abgelehnt.",
            "Der Bot ist offline gegangen: die Herausforderung ist zurückgezogen.",
        ),
        (
            "zh-Hant",
            "和朋友下",
            "機器人拒絕了挑戰。",
            "機器人已離線：挑戰已撤回。",
        ),
    ];
    for (lang, header, declined, offline) in languages {
        for (case, sentence) in [("declined", declined), ("offline", offline)] {
            bot.set_polling(true);
            w.goto(&root).await.expect("page loads");
            let _: Value = eval(w, "Jungle.welcome.close(); return null").await;
            browser_common::choose_language(w, lang, "#online-open", header).await;
            click(w, "#online-open").await;
            until(
                w,
                "the bot listed",
                "(() => { const li = document.querySelector('#online-bots li'); return !!li && li.textContent.includes('Robo'); })()",
            )
            .await;
            click(w, "#online-bots li button").await;
            until(
                w,
                "the invitation's page",
                "location.pathname.startsWith('/play/') && !!Jungle.game.state() && !!Jungle.game.state().online && Jungle.game.state().online.status === 'waiting'",
            )
            .await;
            let id: String = eval(w, "return Jungle.game.state().online.id").await;
            if case == "declined" {
                bot.decline(&id);
            } else {
                bot.set_polling(false);
            }
            until_within(
                w,
                &format!("the page says the bot {case} ({lang})"),
                &format!(
                    "(() => {{ const r = document.getElementById('result'); return !r.hidden && r.textContent === {}; }})()",
                    serde_json::to_string(sentence).expect("JSON")
                ),
                std::time::Duration::from_secs(15),
            )
            .await;
            // No rematch is offered: no one took the challenge.
            assert!(
                eval::<bool>(w, "return document.getElementById('online-rematch').hidden").await,
                "a rematch offered of a challenge no one took"
            );
            let result = server.state(&id)["result"].clone();
            let reason = if case == "declined" {
                "declined"
            } else {
                "bot_offline"
            };
            assert_eq!(result["reason"], reason, "{result}");
            shot(w, &format!("bots-{case}-{lang}")).await;
            no_script_errors(w).await;
        }
    }
    a.close().await;
}
