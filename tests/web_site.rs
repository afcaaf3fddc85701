//! The static site (`scripts/build-web.sh`, into `target/web/`) in headless Chromium,
//! served by a plain file server that runs no code, with the engine of the
//! WebAssembly module in a worker: everything a person does on the board under
//! `jungle gui` (`browser_common::a_person_plays`: moves by clicking and the engine's
//! replies, hint, undo, rule sets, a forced win announced), analysis lines that stream
//! and stop, a request taken within a slice while analysis runs, no script errors, and
//! once the server is gone the page still opens from the service worker's copy and the
//! engine still plays. The module's bench in the worker
//! must count the native engine's nodes; its speed and the time to take a request
//! during analysis are printed (`--nocapture`).
//!
//! Needs the built site, Chromium and chromedriver (`.ci/run` has them); without them
//! the test says so and passes, except under CI (`CI` set), where it fails.

mod browser_common;

use browser_common::files::{built_site, FileServer};
use browser_common::puzzles::a_person_solves_puzzles;
use browser_common::{
    a_person_plays, board_ready, css, engine_replied, no_script_errors, shot, until, Browser,
};
use jungle::tools::bench;
use std::time::Instant;

/// The page's value of a JavaScript expression that may be a promise.
async fn eval_async(client: &fantoccini::Client, js: &str) -> serde_json::Value {
    client
        .execute_async(
            &format!("const done = arguments[0]; Promise.resolve({js}).then(done, (e) => done('error: ' + e));"),
            vec![],
        )
        .await
        .expect("script runs")
}

/// How long the back end takes to answer `request(args)` (ms).
async fn timed_request(client: &fantoccini::Client, args: &str) -> f64 {
    let js = format!(
        "(async () => {{ const t = performance.now(); await Jungle.link.backend.request({args}); return performance.now() - t; }})()"
    );
    eval_async(client, &js)
        .await
        .as_f64()
        .expect("milliseconds")
}

async fn toggle_analysis(client: &fantoccini::Client) {
    css(client, "#analysis")
        .await
        .click()
        .await
        .expect("clicks Analyse");
}

/// On a new board: the worker is up, the person plays a3a4 in the move box, and the
/// engine answers.
async fn play_a_move(client: &fantoccini::Client) {
    board_ready(client).await;
    css(client, "#move-input")
        .await
        .send_keys("a3a4\n")
        .await
        .expect("types");
    engine_replied(client, 2).await;
}

/// The board's faults found by trying it as a new user (issue 44), on the static site
/// (`browser_common::faults`). Screenshots `site-fault-*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_board_faults_stay_fixed() {
    let Some(site) = built_site() else {
        return;
    };
    let Some(browser) = Browser::open().await else {
        return;
    };
    let server = FileServer::start(site);
    let client = &browser.client;
    browser_common::faults::moves_scroll_only_their_list(client, &server.url(), "site-").await;
    browser_common::faults::leaving_a_mode_keeps_the_game(client, &server.url(), "site-").await;
    browser_common::faults::a_new_visitor_gets_a_new_game(client, &server.url(), "site-").await;
    browser_common::faults::the_place_is_in_the_address(client, &server.url(), "site-").await;
    browser_common::faults::the_keyboard_plays(client, &server.url(), "site-").await;
    browser_common::faults::the_lessons_end(client, &server.url(), "site-").await;
    browser_common::faults::the_words_left_over(client, &server.url(), "site-").await;
    browser.close().await;
    browser_common::faults::sizes_on_a_phone(&server.url(), "site-").await;
    browser_common::faults::the_lesson_fits_a_phone(&server.url(), "site-").await;
}

/// The review judged by the endgame tables the worker builds in memory
/// (`browser_common::the_tables_judge_the_review`). Screenshots `site-review-tables*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_tables_judge_the_review() {
    let Some(site) = built_site() else {
        return;
    };
    let Some(browser) = Browser::open().await else {
        return;
    };
    let server = FileServer::start(site);
    let client = &browser.client;
    client.set_window_size(1280, 800).await.expect("resize");
    client.goto(&server.url()).await.expect("page loads");
    board_ready(client).await;
    browser_common::the_tables_judge_the_review(client, "site-").await;
    browser.close().await;
}

/// The Puzzles mode with the set built into the module: solved, failed with the
/// solution shown, the rating and the streak, the phone layout
/// (`browser_common::puzzles`). Screenshots `site-puzzle-*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_static_site_offers_puzzles() {
    let Some(site) = built_site() else {
        return;
    };
    let Some(browser) = Browser::open().await else {
        return;
    };
    let server = FileServer::start(site);
    a_person_solves_puzzles(&browser.client, &server.url(), "site-").await;
    browser.close().await;
}

/// The puzzle screen of the static site in Chinese, German and the dark on a phone
/// (`browser_common::puzzles`). Screenshots `site-puzzle-zh-*.png`, `site-puzzle-de*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_puzzles_in_chinese() {
    let Some(site) = built_site() else {
        return;
    };
    let server = FileServer::start(site);
    browser_common::puzzles::the_puzzles_in_chinese(&server.url(), "site-").await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_static_site_plays_with_the_engine_in_a_worker() {
    let Some(site) = built_site() else {
        return;
    };
    let Some(browser) = Browser::open().await else {
        return;
    };
    let client = &browser.client;
    let server = FileServer::start(site);
    // Everything a person does on the board, as under `jungle gui`.
    a_person_plays(client, &server.url(), "site-").await;
    client.set_window_size(1200, 900).await.expect("resize");

    // A new board: a move by the move box; the engine in the worker answers it.
    client.goto(&server.url()).await.expect("page loads");
    play_a_move(client).await;

    // Analysis streams lines; a request made while it runs is answered within a slice.
    toggle_analysis(client).await;
    until(
        client,
        "analysis lines",
        "document.querySelectorAll('#lines tbody tr').length > 0",
    )
    .await;
    // Let it search a while (to depth 8), then time a request and the stop.
    until(
        client,
        "analysis at depth 8",
        "Jungle.game.analysis() && Jungle.game.analysis().lines.some((l) => l.depth >= 8)",
    )
    .await;
    shot(client, "site-6-analysis").await;
    let answer_ms = timed_request(client, "'state', null").await;
    let stop_ms = timed_request(client, "'analysis', { on: false }").await;
    eprintln!(
        "during analysis: a request answered in {answer_ms:.0} ms, analysis stopped in {stop_ms:.0} ms"
    );
    for ms in [answer_ms, stop_ms] {
        assert!(ms < 5000.0, "the worker took {ms} ms to take a request");
    }
    // Stopped: the lines no longer change.
    let lines = "document.querySelector('#lines tbody').textContent";
    until(
        client,
        "analysis off",
        "Jungle.game.analysis() && !Jungle.game.analysis().on",
    )
    .await;
    let before = eval_async(client, lines).await;
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    assert_eq!(
        eval_async(client, lines).await,
        before,
        "analysis goes on after stop"
    );

    // The module's bench in the worker: the native engine's node count, and its speed.
    // The bench's default depth, the engine's signature (`Bench:`), timed natively
    // (one thread) in the same run for the ratio.
    let depth = bench::DEFAULT_DEPTH;
    let started = Instant::now();
    let native = bench::run(
        &bench::Settings {
            depth,
            ..bench::Settings::default()
        },
        &mut std::io::sink(),
    )
    .expect("bench");
    let native_nps = native as f64 / started.elapsed().as_secs_f64();
    let result = eval_async(client, &format!("Jungle.link.backend.bench({depth})")).await;
    let nodes = result["nodes"].as_u64().expect("nodes");
    let nps = nodes as f64 * 1000.0 / result["ms"].as_f64().expect("ms").max(1.0);
    eprintln!(
        "bench {depth} in Chromium's worker: {nodes} nodes, {nps:.0} nodes/s; native {native_nps:.0} nodes/s ({:.0}%)",
        100.0 * nps / native_nps
    );
    assert_eq!(
        nodes, native,
        "the module's bench differs from the native engine's"
    );

    // Offline: with the server gone, the page opens from the service worker's copy and
    // the engine still plays.
    until(
        client,
        "the service worker's copy",
        "navigator.serviceWorker.controller !== null",
    )
    .await;
    server.stop();
    client.refresh().await.expect("reloads");
    play_a_move(client).await;
    shot(client, "site-7-offline").await;
    no_script_errors(client).await;
    browser.close().await;
}
