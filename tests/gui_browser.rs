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

use browser_common::{a_person_plays, Browser};
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
