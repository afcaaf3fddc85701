//! `jungle gui` in a real browser: headless Chromium driven over WebDriver
//! (chromedriver) goes through what a person does on the board
//! (`browser_common::a_person_plays`: a level for beginners with the rules one click
//! away, a move by clicking and the engine's reply, hint, undo, a rule-set switch that
//! asks first, a river jump marked apart from a step, the labels, a forced win
//! announced as "You win!" under the board, the phone layout). tests/web_site.rs does
//! the same on the static site. Screenshots go to `target/tmp/gui-screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without
//! them the test says so and passes, except under CI (`CI` set), where it fails.
//! `CHROMIUM` and `CHROMEDRIVER` name other binaries.

mod browser_common;
mod gui_common;

use browser_common::{
    a_person_plays, board_ready, choose_language, click_move, close_rules, css, eval, lesson_says,
    open_lesson, open_rules, set_viewport, shot, top_shot, until, Browser,
};
use gui_common::{jungle, Gui};
use std::time::Instant;

#[tokio::test(flavor = "current_thread")]
async fn a_person_plays_in_the_browser() {
    let Some(browser) = Browser::open().await else {
        return;
    };
    let client = &browser.client;
    let started = Instant::now();
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
        "--movetime",
        "200",
    ]);

    a_person_plays(client, &gui.url(), "").await;

    browser.close().await;
    eprintln!("browser test took {:.1} s", started.elapsed().as_secs_f64());
}

/// The board's faults found by trying it as a new user (issue 44), under `jungle gui`
/// (`browser_common::faults`). Screenshots `fault-*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_board_faults_stay_fixed() {
    let Some(browser) = Browser::open().await else {
        return;
    };
    let client = &browser.client;
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
        "--movetime",
        "200",
    ]);
    browser_common::faults::moves_scroll_only_their_list(client, &gui.url(), "").await;
    browser_common::faults::leaving_a_mode_keeps_the_game(client, &gui.url(), "").await;
    browser_common::faults::a_new_visitor_gets_a_new_game(client, &gui.url(), "").await;
    browser_common::faults::the_place_is_in_the_address(client, &gui.url(), "").await;
    browser_common::faults::the_keyboard_plays(client, &gui.url(), "").await;
    browser_common::faults::the_lessons_end(client, &gui.url(), "").await;
    browser_common::faults::the_words_left_over(client, &gui.url(), "").await;
    browser.close().await;
    browser_common::faults::sizes_on_a_phone(&gui.url(), "").await;
    browser_common::faults::the_lesson_fits_a_phone(&gui.url(), "").await;
}

/// The faults a newcomer met (issue 60), under `jungle gui`: the puzzle's board drawn
/// whichever of the state and the answer comes first, a new game inside a lesson, a
/// refused move naming its rule (`browser_common::newcomer`, `::puzzles`).
/// Screenshots `newcomer-*.png`, `puzzle-order-*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_newcomers_faults_stay_fixed() {
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
        "--movetime",
        "200",
    ]);
    browser_common::puzzles::the_board_is_drawn_in_either_order(&gui.url(), "").await;
    drop(gui);
    // A new server: its one game is a new game against the engine again.
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
        "--movetime",
        "200",
    ]);
    let Some(browser) = Browser::open().await else {
        return;
    };
    let client = &browser.client;
    browser_common::newcomer::a_new_game_ends_the_lesson(client, &gui.url(), "").await;
    browser_common::newcomer::a_refused_move_names_its_rule(client, &gui.url(), "").await;
    browser.close().await;
    browser_common::newcomer::what_spilled_on_a_phone(&gui.url(), "").await;
}

/// The Puzzles mode under `jungle gui`: solved, failed with the solution shown, the
/// rating and the streak, the phone layout (`browser_common::puzzles`). Screenshots
/// `puzzle-*.png`.
#[tokio::test(flavor = "current_thread")]
async fn a_person_solves_puzzles_in_the_browser() {
    let Some(browser) = Browser::open().await else {
        return;
    };
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
    ]);
    browser_common::puzzles::a_person_solves_puzzles(&browser.client, &gui.url(), "").await;
    browser.close().await;
}

/// The puzzle screen in Chinese under `jungle gui`, from a browser set to Chinese:
/// solved and failed, no English left, the back end's refusals worded; traditional
/// Chinese, German, the phone in the dark (`browser_common::puzzles`). Screenshots
/// `puzzle-zh-*.png`, `puzzle-de*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_puzzles_in_chinese() {
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
    ]);
    browser_common::puzzles::the_puzzles_in_chinese(&gui.url(), "").await;
}

/// The review judged by the endgame tables (`browser_common::the_tables_judge_the_review`),
/// in the light scheme here and the dark one below. Screenshots `review-tables*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_tables_judge_the_review() {
    let Some(browser) = Browser::open().await else {
        return;
    };
    let client = &browser.client;
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
    ]);
    client.set_window_size(1280, 800).await.expect("resize");
    client.goto(&gui.url()).await.expect("page loads");
    board_ready(client).await;
    browser_common::the_tables_judge_the_review(client, "").await;
    browser.close().await;
}

/// The page in a dark colour scheme (`prefers-color-scheme: dark`, as a phone or a
/// desktop set to dark asks for): dark page and panel, light text, the board's
/// colours kept. Screenshots `dark-*.png`.
#[tokio::test(flavor = "current_thread")]
async fn the_board_in_a_dark_scheme() {
    let Some(browser) = Browser::open_with(&["--blink-settings=preferredColorScheme=0"]).await
    else {
        return;
    };
    let client = &browser.client;
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=16", jungle()),
    ]);
    client.set_window_size(1280, 800).await.expect("resize");
    client.goto(&gui.url()).await.expect("page loads");
    until(client, "the first screen", "!document.getElementById('welcome').hidden && document.getElementById('connection').className === 'online'").await;
    shot(client, "dark-0-first-screen").await;
    board_ready(client).await;
    let (dark, page, ink, panel): (bool, f64, f64, f64) = eval(client, "const lum = (c) => { const [r, g, b] = c.match(/\\d+/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
             const body = getComputedStyle(document.body);
             const panel = getComputedStyle(document.getElementById('panel'));
             return [matchMedia('(prefers-color-scheme: dark)').matches, lum(body.backgroundColor), lum(body.color), lum(panel.backgroundColor)]").await;
    assert!(dark, "the dark scheme asked for");
    assert!(
        page < 60.0 && panel < 60.0,
        "page {page}, panel {panel}: not dark"
    );
    assert!(ink > 180.0, "text {ink}: not light on the dark page");
    // A short window (1280x800 with the browser's frame, as on a laptop): the board
    // still takes most of the height, its columns equal whatever the names on them.
    let (_, _, board_width, _) = css(client, "#board").await.rectangle().await.expect("rect");
    assert!(board_width >= 380.0, "the board {board_width} px wide");
    let widths: Vec<f64> = eval(client, "return Array.from('abcdefg', (f) => document.querySelector('#board .cell[data-sq=\"' + f + '3\"]').getBoundingClientRect().width)").await;
    let (narrow, wide) = widths
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &w| (lo.min(w), hi.max(w)));
    assert!(
        widths.len() == 7 && wide - narrow < 1.5,
        "unequal columns: {widths:?}"
    );
    // The squares' TRAP and DEN in an ink that reads on them (their squares stay
    // light): a contrast of at least 4.5.
    let contrasts: Vec<f64> = eval(client, "const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
             const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).map(Number); return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b); };
             return ['trap', 'den'].map((k) => { const cell = document.querySelector('#board .cell.' + k + ':not([data-piece])');
               const a = lum(getComputedStyle(cell, '::after').color), b = lum(getComputedStyle(cell).backgroundColor);
               return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); })").await;
    assert!(
        contrasts.len() == 2 && contrasts.iter().all(|&c| c >= 4.5),
        "TRAP and DEN contrast {contrasts:?} in the dark scheme"
    );
    shot(client, "dark-1-desktop").await;
    open_rules(client).await;
    shot(client, "dark-2-rules").await;
    close_rules(client).await;
    set_viewport(client, 400, 860).await;
    shot(client, "dark-3-phone").await;
    // The first screen, a lesson and the Chinese page in the dark, desktop and phone.
    set_viewport(client, 1280, 800).await;
    open_lesson(client, "jumps", "a5", "L", "dark-4-lessons").await;
    click_move(client, "a5", "d5").await;
    lesson_says(client, "praise").await;
    shot(client, "dark-5-lesson").await;
    choose_language(client, "zh", "#lesson-leave", "回去下棋").await;
    shot(client, "dark-6-zh-lesson").await;
    set_viewport(client, 400, 860).await;
    top_shot(client, "dark-7-zh-lesson-phone").await;
    // The tables' review in the dark, in English again.
    set_viewport(client, 1280, 800).await;
    choose_language(client, "en", "#lesson-leave", "Back to playing").await;
    css(client, "#lesson-leave")
        .await
        .click()
        .await
        .expect("back to playing");
    board_ready(client).await;
    browser_common::the_tables_judge_the_review(client, "dark-8-").await;
    browser.close().await;
}

/// Makes the README's screenshot, `docs/gui.png`: a game against the engine at level
/// 4, reviewed, with two lines of analysis. Not part of the tests (it writes into the
/// source tree):
/// `cargo test --release --test gui_browser readme_screenshot -- --ignored`.
#[tokio::test(flavor = "current_thread")]
#[ignore]
async fn readme_screenshot() {
    use browser_common::{engine_replied, review_game};
    let Some(browser) = Browser::open().await else {
        return;
    };
    let client = &browser.client;
    let gui = Gui::start(&[
        "--engine",
        &format!("cmd={} name=Jungle option.Hash=64", jungle()),
        "--movetime",
        "300",
    ]);
    set_viewport(client, 1280, 800).await;
    client.goto(&gui.url()).await.expect("page loads");
    board_ready(client).await;
    css(client, "#level")
        .await
        .select_by_value("4")
        .await
        .expect("level");
    css(client, "#movetime")
        .await
        .select_by_value("500")
        .await
        .expect("thinking time");
    // Moves of Red's that stay legal whatever Blue answers in the opening.
    let moves = [("g3", "g4"), ("a3", "a4"), ("b2", "b3"), ("f2", "f3")];
    for (i, (from, to)) in moves.iter().enumerate() {
        click_move(client, from, to).await;
        engine_replied(client, 2 * (i + 1)).await;
    }
    review_game(client).await;
    css(client, "#multipv")
        .await
        .select_by_label("2")
        .await
        .expect("lines");
    css(client, "#analysis")
        .await
        .click()
        .await
        .expect("analysis");
    until(
        client,
        "analysis at depth 12",
        "Jungle.game.analysis() && Jungle.game.analysis().lines.some((l) => l.depth >= 12)",
    )
    .await;
    client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .expect("scrolls");
    let png = client.screenshot().await.expect("screenshot");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/gui.png");
    std::fs::write(&path, png).expect("writes docs/gui.png");
    eprintln!("wrote {}", path.display());
    browser.close().await;
}
