//! Headless Chromium driven over WebDriver (chromedriver), for the browser tests of
//! `jungle gui` (tests/gui_browser.rs) and of the static site (tests/web_site.rs).
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without
//! them a test says so and passes, except under CI (`CI` set), where it fails.
//! `CHROMIUM` and `CHROMEDRIVER` name other binaries. Screenshots go to
//! `target/tmp/gui-screenshots/` (outside git).

#![allow(dead_code)]

pub mod faults;
pub mod files;
pub mod newcomer;
pub mod puzzles;

use fantoccini::{elements::Element, Client, ClientBuilder, Locator};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The flags that work on this project's machines (docs/testing.md has the browser tests).
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1200,900",
];

/// chromedriver in a process group of its own, with the Chromium it starts: dropped
/// (at the end of a test, or as a failed test unwinds), the whole group is killed, so
/// that no browser outlives its test, and the browser's profile is removed.
struct Driver {
    child: Child,
    profile: std::path::PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group's id is chromedriver's pid (`process_group(0)`).
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Chromium may have moved to a group of its own: its processes name the profile.
        let _ = Command::new("pkill")
            .args([
                "-KILL",
                "-f",
                "--",
                &format!("--user-data-dir={}( |$)", self.profile.display()),
            ])
            .status();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

pub fn binary(var: &str, default: &str) -> Option<String> {
    let path = std::env::var(var).unwrap_or_else(|_| default.to_string());
    std::path::Path::new(&path).exists().then_some(path)
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

pub fn shots_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gui-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    dir
}

pub async fn shot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("screenshot");
    let path = shots_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).expect("writes the screenshot");
    eprintln!("screenshot: {}", path.display());
}

/// A screenshot of the top of the page (the board).
pub async fn top_shot(client: &Client, name: &str) {
    client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .expect("scrolls");
    shot(client, name).await;
}

/// Chooses how the animals are labelled (`#labels`) and returns what the animal on
/// `sq` shows: its text (empty when none) and the picture drawn (the symbol its
/// `svg.pic use` names, `None` when no picture is shown). A picture that names no
/// symbol of the page draws nothing, and fails here.
pub async fn labelled(client: &Client, choice: &str, sq: &str) -> (String, Option<String>) {
    css(client, "#labels")
        .await
        .select_by_value(choice)
        .await
        .expect("labels");
    let shown = client
        .execute(
            &format!(
                "const p = document.querySelector('#board .cell[data-sq=\"{sq}\"] .piece'); \
                 const name = p.querySelector('.name'); \
                 const pic = p.querySelector('svg.pic'); \
                 const use = pic.querySelector('use'); \
                 return [getComputedStyle(name).display === 'none' ? '' : name.textContent, \
                   getComputedStyle(pic).display === 'none' ? null : use.getAttribute('href'), \
                   use.getBBox().width > 0];"
            ),
            vec![],
        )
        .await
        .expect("labels shown");
    let text = shown[0].as_str().unwrap_or("?").to_string();
    let picture = shown[1].as_str().map(str::to_string);
    if picture.is_some() {
        assert_eq!(shown[2], true, "{picture:?} on {sq} draws nothing");
    }
    (text, picture)
}

pub async fn css(client: &Client, selector: &str) -> Element {
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(selector))
        .await
        .unwrap_or_else(|e| panic!("no element {selector}: {e}"))
}

/// Waits until the page's JavaScript expression is true.
pub async fn until(client: &Client, what: &str, js: &str) {
    until_within(client, what, js, Duration::from_secs(60)).await
}

/// `until`, failing after `limit` (for a state that comes after a known delay, such
/// as the claim of a game left by the opponent).
pub async fn until_within(client: &Client, what: &str, js: &str, limit: Duration) {
    let deadline = Instant::now() + limit;
    loop {
        let v = client
            .execute(&format!("return !!({js});"), vec![])
            .await
            .expect("script runs");
        if v == serde_json::Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            // What the page says, its body's data (the modes' states) and whether a
            // request is still unanswered.
            let status = client
                .execute(
                    "const $ = (id) => document.getElementById(id);
                     return [$('status').textContent, $('notice').textContent,
                             JSON.stringify(document.body.dataset),
                             'requests in flight: ' + (window.Jungle && Jungle.link && Jungle.link.busy())].join(' | ');",
                    vec![],
                )
                .await
                .unwrap_or_default();
            panic!("timed out waiting for {what} ({js}); page says {status}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The value of a form control.
pub async fn value(client: &Client, selector: &str) -> Option<String> {
    css(client, selector)
        .await
        .prop("value")
        .await
        .expect("value")
}

pub async fn text(client: &Client, selector: &str) -> String {
    css(client, selector).await.text().await.expect("text")
}

/// Waits for the engine's reply: `plies` moves in the list, the person to move.
pub async fn engine_replied(client: &Client, plies: usize) {
    until(
        client,
        "the engine's reply",
        &format!("document.querySelectorAll('#moves span[data-ply]').length === {plies}"),
    )
    .await;
    until(
        client,
        "the person's turn",
        "document.getElementById('status').textContent.startsWith('Your move')",
    )
    .await;
}

pub async fn cell(client: &Client, sq: &str) -> Element {
    css(client, &format!("#board .cell[data-sq=\"{sq}\"]")).await
}

pub async fn click_move(client: &Client, from: &str, to: &str) {
    cell(client, from).await.click().await.expect("click from");
    css(
        client,
        &format!("#board .cell.selected[data-sq=\"{from}\"]"),
    )
    .await;
    cell(client, to).await.click().await.expect("click to");
}

/// Chooses a rule set during a game: the page asks first; `answer` is the button
/// clicked (`#confirm-yes` starts a new game, `#confirm-no` keeps the game).
pub async fn choose_rules_and_answer(client: &Client, variant: &str, answer: &str) {
    css(client, "#variant")
        .await
        .select_by_value(variant)
        .await
        .expect("select");
    until(
        client,
        "the question",
        "!document.getElementById('confirm').hidden",
    )
    .await;
    css(client, answer).await.click().await.expect("answer");
}

/// What a person does on the board, under either back end: the first visit (a level
/// for beginners, the rules one click away, every control in view at 1280x800), a
/// move by clicking and the engine's reply, hint, undo, a refused move with its
/// reason, a rule-set switch that asks first, targets by kind, the labels, a forced
/// win announced under the board, and the phone layout. Screenshots are named with
/// `prefix`.
pub async fn a_person_plays(client: &Client, url: &str, prefix: &str) {
    client.goto(url).await.expect("page loads");
    first_screen(client, url, prefix).await;
    board_ready(client).await;
    // The engine thinks briefly, under either back end.
    css(client, "#movetime")
        .await
        .select_by_value("250")
        .await
        .expect("thinking time");
    // A first visit: a level for someone new, not full strength, and the rules in view.
    assert_eq!(
        value(client, "#level").await.as_deref(),
        Some("1"),
        "the first level shown"
    );
    assert!(
        text(client, "#level option:checked")
            .await
            .ends_with("Beginner"),
        "level 1 is Beginner, without Elo figures"
    );
    // The animals show their pictures and names, the rank on a badge.
    assert_eq!(
        value(client, "#labels").await.as_deref(),
        Some("pictures-names"),
        "the first labels"
    );
    assert!(css(client, "#rules-open")
        .await
        .is_displayed()
        .await
        .expect("shown"));
    assert_eq!(
        text(client, "#counters").await,
        "Move 1 · Red to move · Red 8 animals, Blue 8"
    );
    shot(client, &format!("{prefix}1-start")).await;
    // In a 1280x800 viewport every control under the board is in view without
    // scrolling (the window is that plus the browser's own frame).
    set_viewport(client, 1280, 800).await;
    let below = client
        .execute(
            "const r = document.getElementById('move-form').getBoundingClientRect(); \
             return [r.bottom, window.innerHeight, window.scrollY];",
            vec![],
        )
        .await
        .expect("layout");
    let (bottom, height) = (
        below[0].as_f64().unwrap_or(1e9),
        below[1].as_f64().unwrap_or(0.0),
    );
    assert!(
        bottom <= height,
        "the move box ends at {bottom} px in a {height} px window"
    );
    // The controls stand beside the board, which takes the window's height.
    let (_, _, board_width, _) = css(client, "#board").await.rectangle().await.expect("rect");
    assert!(
        board_width >= 480.0,
        "the board {board_width} px wide at 1280x800"
    );
    shot(client, &format!("{prefix}1a-1280x800")).await;
    open_rules(client).await;
    assert!(text(client, "#rules-dialog div.rules-text[data-lang=en]")
        .await
        .contains("The rat captures the elephant"));
    // Diagrams of the river, the jumps, the traps and the dens, drawn with the
    // board's animals; their captions follow the language chosen.
    let diagrams: Vec<String> = eval(client, "return Array.from(document.querySelectorAll('#rules-dialog .diagrams svg'), (d) => d.getAttribute('aria-label'))").await;
    for topic in ["river", "jumps", "trap", "den and wins"] {
        assert!(
            diagrams.iter().any(|d| d.contains(topic)),
            "no diagram of '{topic}' in {diagrams:?}"
        );
    }
    let unknown: Vec<String> = eval(client, "return Array.from(document.querySelectorAll('#rules-dialog .diagrams use'), (u) => u.getAttribute('href')).filter((h) => !document.querySelector(h))").await;
    assert_eq!(
        unknown,
        Vec::<String>::new(),
        "diagram pictures of no symbol"
    );
    css(client, "#rules-dialog [data-lang=zh][role=tab]")
        .await
        .click()
        .await
        .expect("中文");
    assert!(text(client, "#rules-dialog div.rules-text[data-lang=zh]")
        .await
        .contains("鼠能吃象"));
    let caption: String = eval(client, "return Array.from(document.querySelectorAll('#rules-dialog figcaption .rules-text'), (c) => c.hidden ? '' : c.textContent).join('')").await;
    assert!(
        caption.starts_with("两条河") && caption.contains("陷阱："),
        "the captions in Chinese: {caption}"
    );
    shot(client, &format!("{prefix}1b-rules")).await;
    close_rules(client).await;

    // A legal move by clicking: the rat g3 to g4. The engine answers.
    click_move(client, "g3", "g4").await;
    css(client, "#board .cell[data-sq=\"g4\"][data-piece=\"R\"]").await;
    engine_replied(client, 2).await;
    // Both moves slid across the board, each with its sound.
    let seen = effects(client).await;
    assert!(seen.contains(&"slide g3g4".to_string()), "{seen:?}");
    assert_eq!(
        seen.iter().filter(|e| e.starts_with("slide ")).count(),
        2,
        "{seen:?}"
    );
    assert_eq!(
        seen.iter().filter(|e| *e == "sound move").count(),
        2,
        "{seen:?}"
    );
    shot(client, &format!("{prefix}2-engine-replied")).await;
    // "New game" asks before it throws the game in progress away; "Keep this game"
    // keeps it.
    css(client, "#new").await.click().await.expect("new game");
    until(
        client,
        "the question",
        "!document.getElementById('confirm').hidden",
    )
    .await;
    assert_eq!(
        text(client, "#confirm-text").await,
        "Start a new game? The game in progress ends."
    );
    css(client, "#confirm-no")
        .await
        .click()
        .await
        .expect("keep");
    until(client, "the kept game", "document.getElementById('confirm').hidden && document.querySelectorAll('#moves span[data-ply]').length === 2").await;

    // Hint: two squares marked on the board.
    css(client, "#hint").await.click().await.expect("hint");
    until(
        client,
        "the hint",
        "document.querySelectorAll('#board .cell.hint').length === 2",
    )
    .await;
    assert!(text(client, "#status").await.contains("hint:"));
    shot(client, &format!("{prefix}3-hint")).await;

    // Undo takes back the move and the reply.
    css(client, "#undo").await.click().await.expect("undo");
    until(client, "the undo", "document.querySelector('#board .cell[data-sq=\"g3\"]').dataset.piece === 'R' && !document.querySelector('#moves .current')").await;

    // An illegal click is refused by the server, with its reason on the page.
    click_move(client, "g3", "g5").await;
    until(
        client,
        "the refusal",
        "!document.getElementById('notice').hidden",
    )
    .await;
    assert_eq!(
        text(client, "#notice").await,
        "'g3g5' is not a legal move: the Rat moves one square at a time, up, down, left or right."
    );
    // With the sound off the moves still slide, in silence; the choice is kept.
    css(client, "#sound")
        .await
        .click()
        .await
        .expect("sound off");
    client
        .execute("window.jungleEffects = []", vec![])
        .await
        .expect("clears");
    click_move(client, "a1", "b1").await;
    // After the undo the list still shows the two moves (to redo): the move is taken
    // when one of them is the current one.
    until(
        client,
        "the move a1b1",
        "document.querySelector('#moves .current') !== null",
    )
    .await;
    engine_replied(client, 2).await;
    let seen = effects(client).await;
    assert!(seen.contains(&"slide a1b1".to_string()), "{seen:?}");
    assert!(!seen.iter().any(|e| e.starts_with("sound")), "{seen:?}");
    let kept: Option<String> = eval(client, "return localStorage.getItem('jungle.sound')").await;
    assert_eq!(kept.as_deref(), Some("off"));
    css(client, "#sound").await.click().await.expect("sound on");

    // The rule set: Chinese rules. A game is in progress, so the page asks first;
    // "Keep this game" keeps it, "New game" starts one under the new rules.
    choose_rules_and_answer(client, "jungle-cn", "#confirm-no").await;
    until(client, "the kept game", "document.getElementById('variant').value === 'jungle' && document.querySelectorAll('#moves span[data-ply]').length === 2").await;
    choose_rules_and_answer(client, "jungle-cn", "#confirm-yes").await;
    until(
        client,
        "the new rules",
        "document.getElementById('game-info').textContent.startsWith('Rules: jungle-cn')",
    )
    .await;
    until(
        client,
        "a new game",
        "document.querySelectorAll('#moves span[data-ply]').length === 0",
    )
    .await;

    // Targets by kind: the lion on a5 steps to a4 or a6 and jumps the river to d5.
    let fen = css(client, "#fen").await;
    fen.clear().await.expect("clear");
    fen.send_keys("l5t/7/7/7/L6/7/7/7/6e r")
        .await
        .expect("type");
    css(client, "#set-fen").await.click().await.expect("set");
    cell(client, "a5").await.click().await.expect("the lion");
    css(client, "#board .cell[data-sq=\"d5\"].target.jump").await;
    let step_is_jump = client
        .execute(
            "return document.querySelector('#board .cell[data-sq=\"a6\"]').className",
            vec![],
        )
        .await
        .expect("class");
    let step_class = step_is_jump.as_str().unwrap_or("");
    assert!(
        step_class.contains("target") && !step_class.contains("jump"),
        "a6 is a step: {step_class}"
    );
    shot(client, &format!("{prefix}3b-jump-target")).await;
    // Labels: a first visit shows pictures and names; then pictures alone (at desktop
    // and phone size), the Chinese character, picture and character, names. The
    // choice is kept by the browser; a kept value the page does not offer falls back
    // to the first visit's. All sixteen animals, the red lion on a5.
    fen.clear().await.expect("clear");
    fen.send_keys("l5t/1d3c1/r1p1w1e/7/L6/7/E1W1P1R/1C3D1/T6 r")
        .await
        .expect("type");
    css(client, "#set-fen").await.click().await.expect("set");
    css(client, "#board .cell[data-sq=\"g7\"][data-piece=\"e\"]").await;
    let lion = Some("#animal-lion".to_string());
    assert_eq!(
        labelled(client, "pictures-names", "a5").await,
        ("Lion".to_string(), lion.clone())
    );
    assert_eq!(
        labelled(client, "pictures", "a5").await,
        (String::new(), lion.clone())
    );
    for (sq, animal) in [("g3", "rat"), ("b8", "dog"), ("f8", "cat"), ("e7", "wolf")] {
        assert_eq!(
            labelled(client, "pictures", sq).await.1.as_deref(),
            Some(format!("#animal-{animal}").as_str())
        );
    }
    top_shot(client, &format!("{prefix}3c-pictures")).await;
    set_viewport(client, 400, 860).await;
    top_shot(client, &format!("{prefix}3d-pictures-phone")).await;
    assert_eq!(
        labelled(client, "pictures-names", "a5").await,
        ("Lion".to_string(), lion.clone())
    );
    top_shot(client, &format!("{prefix}3e-pictures-names-phone")).await;
    set_viewport(client, 1280, 800).await;
    assert_eq!(
        labelled(client, "chars", "a5").await,
        ("獅".to_string(), None)
    );
    assert_eq!(
        labelled(client, "both", "a5").await,
        ("獅".to_string(), lion.clone())
    );
    top_shot(client, &format!("{prefix}3f-pictures-chars")).await;
    let kept = client
        .execute("return localStorage.getItem('jungle.labels')", vec![])
        .await
        .expect("storage");
    assert_eq!(kept.as_str(), Some("both"));
    assert_eq!(
        labelled(client, "names", "a5").await,
        ("Lion".to_string(), None)
    );
    // What the page reads on its next visit.
    let next_visit = client
        .execute(
            "const kept = []; \
             for (const v of ['chars', 'emoji', 'pictures']) { \
               localStorage.setItem('jungle.labels', v); kept.push(Jungle.controls.storedLabels()); } \
             return kept;",
            vec![],
        )
        .await
        .expect("storage");
    assert_eq!(
        next_visit,
        serde_json::json!(["chars", "pictures-names", "pictures"])
    );
    labelled(client, "pictures-names", "a5").await;

    // A forced win: the rat walks into the den in two moves; the engine cannot stop it.
    fen.clear().await.expect("clear");
    fen.send_keys("l5t/7/3R3/7/7/7/7/7/6L r")
        .await
        .expect("type");
    css(client, "#set-fen").await.click().await.expect("set");
    css(client, "#board .cell[data-sq=\"d7\"][data-piece=\"R\"]").await;
    click_move(client, "d7", "d8").await;
    engine_replied(client, 2).await;
    click_move(client, "d8", "d9").await;
    until(
        client,
        "the announced win",
        "!document.getElementById('result').hidden",
    )
    .await;
    assert_eq!(text(client, "#result").await, "You win! Den entered");
    assert_eq!(
        effects(client).await.last().map(String::as_str),
        Some("sound win")
    );
    assert_eq!(text(client, "#status").await, "You win! Den entered");
    // The announcement is beside or under the board, never on it: the final position
    // stays in view.
    let (board_x, board_y, board_w, board_h) =
        css(client, "#board").await.rectangle().await.expect("rect");
    let (result_x, result_y, result_w, result_h) = css(client, "#result")
        .await
        .rectangle()
        .await
        .expect("rect");
    let apart = result_x >= board_x + board_w
        || result_x + result_w <= board_x
        || result_y >= board_y + board_h
        || result_y + result_h <= board_y;
    assert!(
        apart,
        "the result ({result_x}, {result_y}, {result_w}x{result_h}) covers the board ({board_x}, {board_y}, {board_w}x{board_h})"
    );
    shot(client, &format!("{prefix}4-won")).await;

    // An old error goes with a new game: a bad position string is refused beside the
    // box; "New game" (nothing to lose: the game is over) clears it.
    let fen = css(client, "#fen").await;
    fen.clear().await.expect("clear");
    fen.send_keys("l6/7/x r").await.expect("type");
    css(client, "#set-fen").await.click().await.expect("set");
    until(
        client,
        "the refusal",
        "!document.getElementById('fen-error').hidden",
    )
    .await;
    css(client, "#new").await.click().await.expect("new game");
    until(client, "a new game without the old error", "document.getElementById('fen-error').hidden && document.getElementById('notice').hidden && document.querySelector('#board .cell[data-sq=\"g3\"]').dataset.piece === 'R'").await;

    // A review of a short game marks a planted blunder and names the better move:
    // Red's elephant d3 steps next to Blue's rat d5, which takes it.
    let fen = css(client, "#fen").await;
    fen.clear().await.expect("clear");
    fen.send_keys("l6/7/7/7/3r3/7/3E3/7/T5L r")
        .await
        .expect("type");
    css(client, "#set-fen").await.click().await.expect("set");
    css(client, "#board .cell[data-sq=\"d3\"][data-piece=\"E\"]").await;
    click_move(client, "d3", "d4").await;
    engine_replied(client, 2).await;
    // A capture has its own sound (the weak level may, rarely, not take).
    let taken: bool = eval(
        client,
        "return document.querySelector('#board .cell[data-sq=\"d4\"]').dataset.piece === 'r'",
    )
    .await;
    assert_eq!(
        effects(client).await.last().map(String::as_str),
        Some(if taken { "sound capture" } else { "sound move" })
    );
    review_game(client).await;
    assert_eq!(
        text(client, "#moves span.review-mark.blunder").await,
        "d3d4??"
    );
    let marked = text(client, "#review-summary .marked button.blunder").await;
    assert!(
        marked.starts_with("1. d3d4, a blunder") && marked.contains("better: "),
        "{marked}"
    );
    assert!(
        text(client, "#review-summary .side-review.red")
            .await
            .contains("1 blunder"),
        "the red summary"
    );
    // Clicking the mark shows the position before the move, the better move as an
    // arrow.
    css(client, "#review-summary .marked button.blunder")
        .await
        .click()
        .await
        .expect("the mark");
    let better = marked
        .rsplit("better: ")
        .next()
        .unwrap_or("")
        .trim_end_matches(')')
        .to_string();
    until(
        client,
        "the better move's arrow",
        &format!(
            "document.querySelector('#arrows line.best-arrow[data-move=\"{better}\"]') !== null"
        ),
    )
    .await;
    shot(client, &format!("{prefix}4b-review")).await;

    // Phone-sized: the board fills the width, the panel goes below.
    set_viewport(client, 400, 860).await;
    let (_, _, board_width, _) = css(client, "#board").await.rectangle().await.expect("rect");
    assert!(
        board_width > 300.0,
        "board {board_width} px wide on a phone"
    );
    // The animals' names stay legible on a phone: at least 11 px as rendered.
    let size = client
        .execute(
            "return parseFloat(getComputedStyle(document.querySelector('#board .piece .name')).fontSize)",
            vec![],
        )
        .await
        .expect("font size");
    let size = size.as_f64().unwrap_or(0.0);
    assert!(size >= 11.0, "animal names {size} px on a phone");
    // The squares' TRAP and DEN too: at least 12 px.
    let sizes: Vec<f64> = eval(
        client,
        "return ['trap', 'den'].map((k) => parseFloat(getComputedStyle(document.querySelector('#board .cell.' + k + ':not([data-piece])'), '::after').fontSize))",
    )
    .await;
    assert!(
        sizes.len() == 2 && sizes.iter().all(|&s| s >= 12.0),
        "TRAP and DEN {sizes:?} px on a phone"
    );
    shot(client, &format!("{prefix}5-phone")).await;
    set_viewport(client, 1280, 800).await;

    a_loaded_game_goes_on(client, prefix).await;
    a_lesson(client, prefix).await;
    the_page_in_chinese_and_german(client, url, prefix).await;
    the_phone_layout(client, url, prefix).await;
    no_script_errors(client).await;
}

/// The first visit: the ways in (Play, Learn, Puzzles) over the board, the tip that
/// says what to do first, at desktop and phone sizes; "Play" starts.
pub async fn first_screen(client: &Client, url: &str, prefix: &str) {
    css(client, "#board .cell[data-sq=\"g3\"][data-piece=\"R\"]").await;
    until(
        client,
        "the first screen",
        "!document.getElementById('welcome').hidden",
    )
    .await;
    assert_eq!(text(client, "#welcome-play b").await, "Play");
    assert_eq!(text(client, "#welcome-learn b").await, "Learn");
    // Puzzles: open when the page has the puzzles script, else "coming soon".
    let (has_puzzles, disabled): (bool, bool) = eval(
        client,
        "return [!!Jungle.puzzles, document.getElementById('welcome-puzzles').disabled]",
    )
    .await;
    assert_eq!(disabled, !has_puzzles, "the Puzzles way");
    until(client, "the tip", "!document.getElementById('tip').hidden").await;
    assert!(text(client, "#tip")
        .await
        .starts_with("Tap one of your animals"));
    shot(client, &format!("{prefix}0-first-screen")).await;
    set_viewport(client, 400, 800).await;
    shot(client, &format!("{prefix}0b-first-screen-phone")).await;
    set_viewport(client, 1280, 800).await;
    css(client, "#welcome-play")
        .await
        .click()
        .await
        .expect("play");
    until(
        client,
        "the board",
        "document.getElementById('welcome').hidden",
    )
    .await;
    // A second visit goes straight to the board.
    client.goto(url).await.expect("page loads");
    css(client, "#board .cell[data-sq=\"g3\"][data-piece=\"R\"]").await;
    let shown: bool = eval(client, "return !document.getElementById('welcome').hidden").await;
    assert!(!shown, "the first screen again on a second visit");
}

/// A saved game loaded from a file: Players stays "You play Red", and the engine
/// answers the person's next move; the next new game keeps the choice.
pub async fn a_loaded_game_goes_on(client: &Client, prefix: &str) {
    load_two_moves(client, &format!("loaded-{prefix}"), "").await;
    until(
        client,
        "the loaded game",
        "document.getElementById('players').value === 'red'",
    )
    .await;
    click_move(client, "g3", "g4").await;
    engine_replied(client, 4).await;
    // "New game" asks before the four plies go; the answer "New game" starts one,
    // and the old game's error (a refused move) and messages go with it.
    refuse_a_move(client).await;
    css(client, "#new").await.click().await.expect("new game");
    let (asked, plies): (bool, usize) = eval(
        client,
        "return [!document.getElementById('confirm').hidden, document.querySelectorAll('#moves span[data-ply]').length]",
    )
    .await;
    assert!(
        asked && plies == 4,
        "New game asked {asked}, {plies} plies kept"
    );
    css(client, "#confirm-yes")
        .await
        .click()
        .await
        .expect("yes");
    until(
        client,
        "a new game against the engine, without the old game's errors",
        "document.querySelectorAll('#moves span[data-ply]').length === 0 && document.getElementById('players').value === 'red' && document.getElementById('notice').hidden && document.querySelectorAll('#messages li').length === 0",
    )
    .await;
}

/// Types a move that is not legal (a1a9) and waits for the refusal.
pub async fn refuse_a_move(client: &Client) {
    let input = css(client, "#move-input").await;
    input.clear().await.expect("clears");
    input.send_keys("a1a9\n").await.expect("types");
    until(
        client,
        "the refusal",
        "!document.getElementById('notice').hidden && /a1a9/.test(document.getElementById('notice').textContent)",
    )
    .await;
}

/// Loads a record of two moves (a3a4 a7a6, Red to move after them) through "Load
/// game", with the tags `tags` (lines); `name` names its file.
pub async fn load_two_moves(client: &Client, name: &str, tags: &str) {
    load_record(
        client,
        name,
        &format!(
            "{tags}[FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1\"]\n\n1. a3a4 a7a6 *\n"
        ),
        "document.querySelectorAll('#moves span[data-ply]').length === 2 && document.querySelector('#board .cell[data-sq=\"a4\"]').dataset.piece === 'E' && document.querySelector('#board .cell[data-sq=\"a6\"]').dataset.piece === 'r'",
    )
    .await;
}

/// Loads `record` through the page's "Load game" (a file `jungle-{name}-PID.txt`) and
/// waits until the page shows a newer state where `shown` (a script) holds.
pub async fn load_record(client: &Client, name: &str, record: &str, shown: &str) {
    let path = std::env::temp_dir().join(format!("jungle-{name}-{}.txt", std::process::id()));
    std::fs::write(&path, record).expect("writes the record");
    // The state's version before: the loaded game's is newer (the board may show the
    // same game already).
    let before: String = eval(client, "return document.body.dataset.version").await;
    css(client, "#load")
        .await
        .send_keys(&path.display().to_string())
        .await
        .expect("chooses the file");
    until(
        client,
        "the loaded game",
        &format!("Number(document.body.dataset.version) > Number('{before}') && {shown}"),
    )
    .await;
    let _ = std::fs::remove_file(&path);
}

/// A lesson on the board: "The rat and the elephant". A legal move that is not the
/// task's is answered with the hint and taken back; a refused one (the elephant may
/// not take the rat) too; the right moves are praised, the lesson is kept as done,
/// and "Back to playing" gives the person's game back.
pub async fn a_lesson(client: &Client, prefix: &str) {
    open_lesson(client, "rat", "d5", "e", &format!("{prefix}7-lessons")).await;
    assert_eq!(
        text(client, "#lesson-task").await,
        "The smallest takes the biggest: take the elephant with your rat."
    );
    // A wrong try: the rat steps aside. The hint, and the task set again from its
    // start: the rat back, the move list empty, nothing to redo; the hint stays.
    click_move(client, "d4", "d3").await;
    lesson_says(client, "wrong").await;
    assert!(text(client, "#lesson-feedback")
        .await
        .starts_with("Not this time."));
    until(
        client,
        "the task from its start again",
        "document.querySelector('#board .cell[data-sq=\"d4\"]').dataset.piece === 'R' && document.querySelectorAll('#moves span[data-ply]').length === 0 && document.getElementById('redo').disabled",
    )
    .await;
    lesson_says(client, "wrong").await;
    shot(client, &format!("{prefix}7b-lesson-wrong")).await;
    click_move(client, "d4", "d5").await;
    lesson_says(client, "praise").await;
    second_task(
        client,
        "document.querySelector('#board .cell[data-sq=\"d6\"]').dataset.piece === 'C'",
    )
    .await;
    // The elephant may not take the rat: the back end refuses, the lesson hints.
    click_move(client, "d4", "d5").await;
    lesson_says(client, "wrong").await;
    assert!(text(client, "#lesson-feedback")
        .await
        .contains("Your cat can."));
    click_move(client, "d6", "d5").await;
    lesson_says(client, "praise").await;
    assert!(text(client, "#lesson-feedback")
        .await
        .contains("Lesson done!"));
    let done: Vec<String> = eval(
        client,
        "return JSON.parse(localStorage.getItem('jungle.lessons'))",
    )
    .await;
    assert_eq!(done, ["rat"]);
    shot(client, &format!("{prefix}7c-lesson-done")).await;
    // The Chinese rules' lesson: the wolf's twelve moves are played first; the square
    // that rule 7-3 closes is marked ✕, a try there is refused and answered.
    open_lesson(
        client,
        "chase",
        "a3",
        "W",
        &format!("{prefix}7e-lessons-done"),
    )
    .await;
    until(
        client,
        "the moves before the task",
        "document.querySelectorAll('#moves span[data-ply]').length === 12",
    )
    .await;
    forbidden_then_allowed(client, "a3", "a2", "a4").await;
    // Rule 17-5: the lion's 17 moves on four squares are played first; a1 is marked
    // ✕, a try there is refused and answered, the way out is praised.
    second_task(
        client,
        "document.querySelectorAll('#moves span[data-ply]').length === 34 && document.querySelector('#board .cell[data-sq=\"a2\"]').dataset.piece === 'L'",
    )
    .await;
    forbidden_then_allowed(client, "a2", "a1", "a3").await;
    set_viewport(client, 400, 860).await;
    top_shot(client, &format!("{prefix}7d-lesson-phone")).await;
    set_viewport(client, 1280, 800).await;
    css(client, "#lesson-leave")
        .await
        .click()
        .await
        .expect("leave");
    until(
        client,
        "the game again",
        "document.getElementById('lesson').hidden && document.getElementById('players').value === 'red' && document.querySelector('#board .cell[data-sq=\"g3\"]').dataset.piece === 'R'",
    )
    .await;
}

/// "Next task", and the second of two set up (`ready` holds).
async fn second_task(client: &Client, ready: &str) {
    css(client, "#lesson-next")
        .await
        .click()
        .await
        .expect("next");
    until(
        client,
        "the second task",
        &format!("document.getElementById('lesson-step').textContent === 'Task 2 of 2' && {ready}"),
    )
    .await;
}

/// In an anti-chase task: the animal on `from` is chosen, `forbidden` is marked ✕ and
/// a try there is refused and answered with the hint (which names the way out); then
/// the move to `to` is praised.
async fn forbidden_then_allowed(client: &Client, from: &str, forbidden: &str, to: &str) {
    cell(client, from).await.click().await.expect("the animal");
    css(
        client,
        &format!("#board .cell.forbidden[data-sq=\"{forbidden}\"]"),
    )
    .await;
    cell(client, forbidden)
        .await
        .click()
        .await
        .expect("the forbidden square");
    lesson_says(client, "wrong").await;
    assert!(text(client, "#lesson-feedback").await.contains(to));
    click_move(client, from, to).await;
    lesson_says(client, "praise").await;
}

/// Opens "Learn", takes a screenshot of the list (`shot_name`), and starts the lesson
/// `id`; waits for its first task's position (the `piece` letter on `sq`).
pub async fn open_lesson(client: &Client, id: &str, sq: &str, piece: &str, shot_name: &str) {
    css(client, "#learn-open")
        .await
        .click()
        .await
        .expect("learn");
    until(
        client,
        "the lessons",
        "document.getElementById('learn-dialog').open",
    )
    .await;
    shot(client, shot_name).await;
    css(client, &format!("#lesson-choices button[data-lesson={id}]"))
        .await
        .click()
        .await
        .expect("the lesson");
    until(
        client,
        "the first task",
        &format!("!document.getElementById('lesson').hidden && document.querySelector('#board .cell[data-sq=\"{sq}\"]').dataset.piece === '{piece}'"),
    )
    .await;
}

/// Waits for the lesson's answer to a try: `praise` (then "Next" is offered) or
/// `wrong`.
pub async fn lesson_says(client: &Client, kind: &str) {
    let next = if kind == "praise" {
        " && !document.getElementById('lesson-next').hidden"
    } else {
        ""
    };
    until(
        client,
        &format!("the lesson's {kind}"),
        &format!("document.getElementById('lesson-feedback').className === '{kind}'{next}"),
    )
    .await;
}

/// Chooses the page's language with the switch and waits until `selector` reads
/// `shows`.
pub async fn choose_language(client: &Client, code: &str, selector: &str, shows: &str) {
    css(client, "#lang")
        .await
        .select_by_value(code)
        .await
        .expect("a language");
    until(
        client,
        &format!("the page in {code}"),
        &format!("document.querySelector('{selector}').textContent === '{shows}'"),
    )
    .await;
}

/// The words of three Latin letters or more in the `text` a script sets (`script`
/// declares `const text`), but for names: the engine's, the rule sets', the game's
/// own (Jungle, Dou Shou Qi), Elo, the languages in the switch, and the move
/// notation. On a Chinese page, any English left.
pub async fn latin_words(client: &Client, script: &str) -> Vec<String> {
    eval(
        client,
        &format!(
            "{script}
             const allowed = new Set(['Jungle', 'jungle', 'cn', 'Dou', 'Shou', 'Qi', 'Elo', 'English', 'Deutsch']);
             return (text.match(/[A-Za-z]{{3,}}/g) || []).filter((w) => !allowed.has(w) && !/^[a-g][0-9]/.test(w));"
        ),
    )
    .await
}

/// The page in Chinese (simplified), German and Chinese (traditional) by the language
/// switch: each walked (`no_english_left`): every panel and dialog, what a screen
/// reader reads, a refusal made before the switch, the Messages of a loaded game and
/// the board's squares, all in that language; the pieces' characters in its script;
/// the browser keeps the choice. Back to English.
pub async fn the_page_in_chinese_and_german(client: &Client, url: &str, prefix: &str) {
    say_things_then_switch(client, "zh", "新的一局", prefix).await;
    assert_eq!(text(client, "#status").await, "轮到你走（红方）");
    assert_eq!(
        labelled(client, "both", "a1").await.0,
        "虎",
        "the tiger's character"
    );
    let lion: String = eval(client, "document.getElementById('labels').value = 'chars'; document.getElementById('labels').dispatchEvent(new Event('change')); return document.querySelector('#board .cell[data-sq=\"g1\"] .name').textContent").await;
    assert_eq!(lion, "狮", "simplified characters with the Chinese page");
    labelled(client, "pictures-names", "a1").await;
    no_english_left(client, "zh").await;
    let terrain: String = eval(
        client,
        "return document.querySelector('#board .cell[data-sq=\"d9\"]').dataset.terrain",
    )
    .await;
    assert_eq!(terrain, "兽穴");
    top_shot(client, &format!("{prefix}8-zh")).await;
    open_rules(client).await;
    assert!(text(client, "#rules-dialog div.rules-text[data-lang=zh]")
        .await
        .contains("鼠能吃象"));
    assert_eq!(text(client, "#rules-title").await, "斗兽棋怎么下");
    shot(client, &format!("{prefix}8b-zh-rules")).await;
    close_rules(client).await;
    // The choice is kept: the next visit is in Chinese.
    client.goto(url).await.expect("page loads");
    until(
        client,
        "the page in Chinese again",
        "document.getElementById('new').textContent === '新的一局' && document.documentElement.lang === 'zh-CN'",
    )
    .await;
    set_viewport(client, 400, 860).await;
    top_shot(client, &format!("{prefix}8c-zh-phone")).await;
    set_viewport(client, 1280, 800).await;
    say_things_then_switch(client, "de", "Neue Partie", prefix).await;
    assert_eq!(text(client, "#status").await, "Du bist am Zug (Rot)");
    no_english_left(client, "de").await;
    top_shot(client, &format!("{prefix}9-de")).await;
    open_rules(client).await;
    set_viewport(client, 400, 860).await;
    shot(client, &format!("{prefix}9c-de-rules-phone")).await;
    set_viewport(client, 1280, 800).await;
    close_rules(client).await;
    // Traditional characters, the pieces' too (獅, as on the traditional sets).
    say_things_then_switch(client, "zh-Hant", "新的一局", prefix).await;
    assert_eq!(text(client, "#status").await, "輪到你走（紅方）");
    assert_eq!(labelled(client, "chars", "g1").await.0, "獅");
    labelled(client, "pictures-names", "a1").await;
    no_english_left(client, "zh-Hant").await;
    top_shot(client, &format!("{prefix}9b-zh-hant")).await;
    choose_language(client, "en", "#new", "New game").await;
}

/// Before the switch to `code`: a game loaded (its notice in Messages) and a move
/// refused, both in the language of the moment; then the switch, after which both
/// must be said in the new language.
async fn say_things_then_switch(client: &Client, code: &str, new_game: &str, prefix: &str) {
    load_two_moves(
        client,
        &format!("walk-{prefix}{code}"),
        "[Red \"Human\"]\n[Blue \"Jungle\"]\n",
    )
    .await;
    until(
        client,
        "the loaded game's notice",
        "document.querySelectorAll('#messages li').length === 1",
    )
    .await;
    refuse_a_move(client).await;
    choose_language(client, code, "#new", new_game).await;
    let shown: bool = eval(client, "return !document.getElementById('notice').hidden").await;
    assert!(shown, "the refusal went with the language switch");
}

/// Walks the page in `lang`: every panel open and every dialog shown in turn, their
/// text, every aria-label, title, placeholder and the squares' names; fails on a word
/// (Latin, three letters or more) that the catalogue of `lang` and the rules' text in
/// it do not have, except names (the engines', the rule sets', the languages' own)
/// and moves. The puzzles' box is puzzles.js's, checked by its own test.
pub async fn no_english_left(client: &Client, lang: &str) {
    let script = r#"
        const lang = arguments[0];
        const words = (text) => String(text || '').match(/[A-Za-z\u00C0-\u024F]{3,}/g) || [];
        const vocab = new Set();
        const add = (text) => { for (const w of words(text)) vocab.add(w.toLowerCase()); };
        for (const v of Object.values(Jungle.words.catalogues[lang])) add(v);
        for (const el of document.querySelectorAll('.rules-text[data-lang="' + lang + '"]')) add(el.textContent);
        add('Jungle Dou Shou Qi Elo English Deutsch jungle-cn');
        for (const el of document.querySelectorAll('#player-top .who, #player-bottom .who')) add(el.textContent.split(/[:：]/).slice(1).join(' '));
        const found = [];
        const check = (where, text) => {
          for (const w of words(text)) {
            if (!vocab.has(w.toLowerCase())) found.push(where + ': ' + w + ' in "' + String(text).slice(0, 90) + '"');
          }
        };
        const outside = (el) => !el.closest('#puzzle-box') && !el.closest('.rules-text:not([data-lang="' + lang + '"])');
        for (const d of document.querySelectorAll('#panel details')) d.open = true;
        check('title', document.title);
        // The first screen, and "New game"'s question (the loaded game is in progress).
        document.getElementById('welcome').hidden = false;
        document.getElementById('new').click();
        if (document.getElementById('confirm').hidden) found.push('"New game" did not ask');
        for (const part of [document.querySelector('header'), document.getElementById('play'), document.getElementById('panel')]) {
          const clone = part.cloneNode(true);
          for (const p of clone.querySelectorAll('#puzzle-box')) p.remove();
          document.body.appendChild(clone);
          for (const line of clone.innerText.split('\n')) check(part.tagName.toLowerCase() + (part.id ? '#' + part.id : ''), line);
          clone.remove();
        }
        document.getElementById('welcome').hidden = true;
        document.getElementById('confirm-no').click();
        for (const d of document.querySelectorAll('dialog')) {
          d.showModal();
          for (const line of d.innerText.split('\n')) check('dialog#' + d.id, line);
          d.close();
        }
        for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [data-terrain]')) {
          if (!outside(el)) continue;
          for (const a of ['aria-label', 'title', 'placeholder', 'data-terrain']) {
            if (el.hasAttribute(a)) check((el.id || el.tagName.toLowerCase()) + '[' + a + ']', el.getAttribute(a));
          }
        }
        return found;
    "#;
    let found = client
        .execute(script, vec![serde_json::Value::from(lang)])
        .await
        .expect("the walk");
    let found: Vec<String> = serde_json::from_value(found).unwrap_or_default();
    assert_eq!(
        found,
        Vec::<String>::new(),
        "English left on the {lang} page"
    );
}

/// A phone: the expert parts (position, rule variants, Elo figures, analysis) start
/// folded, one tap opens them; the board fills the width.
pub async fn the_phone_layout(client: &Client, url: &str, prefix: &str) {
    set_viewport(client, 400, 860).await;
    client.goto(url).await.expect("page loads");
    css(client, "#board .cell[data-sq=\"g3\"][data-piece=\"R\"]").await;
    viewport_is(client, 400, 860).await;
    let folded: Vec<bool> = eval(
        client,
        "return ['expert', 'analysis-box'].map((id) => document.getElementById(id).open)",
    )
    .await;
    assert_eq!(folded, [false, false], "expert parts open on a phone");
    let shown: Vec<bool> = eval(
        client,
        "return ['fen', 'variant', 'level-elo', 'lines'].map((id) => document.getElementById(id).checkVisibility())",
    )
    .await;
    assert_eq!(shown, [false; 4], "expert controls shown on a phone");
    css(client, "#expert summary")
        .await
        .click()
        .await
        .expect("one tap");
    assert!(css(client, "#fen")
        .await
        .is_displayed()
        .await
        .expect("shown"));
    top_shot(client, &format!("{prefix}10-phone-start")).await;
    the_rules_diagrams_on_a_phone(client, prefix).await;
    set_viewport(client, 1280, 800).await;
}

/// The rules' diagrams on a phone: each as wide as the dialog (one under the other),
/// every animal with its rank on a badge, and the capture arrow of the trap diagram
/// ending beside the elephant, not on it.
pub async fn the_rules_diagrams_on_a_phone(client: &Client, prefix: &str) {
    open_rules(client).await;
    let widths: Vec<f64> = eval(
        client,
        "return Array.from(document.querySelectorAll('#rules-dialog .diagrams svg'), (d) => d.getBoundingClientRect().width)",
    )
    .await;
    assert!(
        widths.len() == 4 && widths[1..].iter().all(|&w| w >= 280.0),
        "diagram widths {widths:?} on a phone"
    );
    let ranks: Vec<(String, String)> = eval(
        client,
        "return Array.from(document.querySelectorAll('#rules-dialog .dg-piece'), (g) => [g.dataset.animal, (g.querySelector('.dg-rank text') || {}).textContent || ''])",
    )
    .await;
    let rank_of = |a: &str| {
        [
            "rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant",
        ]
        .iter()
        .position(|&x| x == a)
        .map(|i| (i + 1).to_string())
    };
    assert!(ranks.len() >= 6, "animals in the diagrams: {ranks:?}");
    for (animal, rank) in &ranks {
        assert_eq!(Some(rank.clone()), rank_of(animal), "{animal}'s badge");
    }
    // The arrow's end, and its head's half length, stay off the elephant's disc.
    let clear: f64 = eval(
        client,
        "const path = document.querySelector('#rules-dialog .dg-capture');
         const end = path.getPointAtLength(path.getTotalLength());
         const disc = document.querySelector('#rules-dialog .dg-piece[data-animal=elephant] > circle');
         const head = 1.8;
         return Math.hypot(end.x - disc.cx.baseVal.value, end.y - disc.cy.baseVal.value) - disc.r.baseVal.value - head;",
    )
    .await;
    assert!(
        clear > 0.0,
        "the capture arrow covers the elephant ({clear})"
    );
    shot(client, &format!("{prefix}10b-rules-phone")).await;
    close_rules(client).await;
}

/// A command of the Chrome DevTools protocol, sent through chromedriver's
/// `goog/cdp/execute` (fantoccini has no wrapper for it).
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

async fn cdp(client: &Client, cmd: &'static str, params: serde_json::Value) {
    client
        .issue_cmd(Cdp { cmd, params })
        .await
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
}

/// The widest viewport that `set_viewport` makes a phone's.
pub const PHONE_MAX_WIDTH: u32 = 600;

/// Makes the page itself (the viewport) `width` x `height` CSS px, and fails unless
/// the page measures exactly that. Up to `PHONE_MAX_WIDTH` wide it is a phone's:
/// Chromium's device emulation (a mobile viewport, touch, overlay scroll bars), as
/// `Browser::open_phone` starts one, since a headless window narrower than about
/// 500 px is not to be trusted and a desktop window's scroll bar takes 15 px of the
/// page's width. Wider, the window is sized so that, whatever the browser's frame.
pub async fn set_viewport(client: &Client, width: u32, height: u32) {
    if width <= PHONE_MAX_WIDTH {
        cdp(
            client,
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": true }),
        )
        .await;
        cdp(
            client,
            "Emulation.setTouchEmulationEnabled",
            serde_json::json!({ "enabled": true, "maxTouchPoints": 5 }),
        )
        .await;
    } else {
        cdp(
            client,
            "Emulation.clearDeviceMetricsOverride",
            serde_json::json!({}),
        )
        .await;
        cdp(
            client,
            "Emulation.setTouchEmulationEnabled",
            serde_json::json!({ "enabled": false }),
        )
        .await;
        let frame: u32 = eval(client, "return window.outerHeight - window.innerHeight").await;
        client
            .set_window_size(width, height + frame)
            .await
            .expect("resize");
    }
    until(
        client,
        &format!("the viewport {width}x{height}"),
        &format!("window.innerWidth === {width} && window.innerHeight === {height}"),
    )
    .await;
    viewport_is(client, width, height).await;
}

/// Fails unless the page's viewport is `width` x `height` CSS px, and on a phone the
/// page is laid out in all of that width (no scroll bar takes part of it).
pub async fn viewport_is(client: &Client, width: u32, height: u32) {
    let (inner_width, inner_height, layout_width, page_width): (u32, u32, u32, u32) = eval(
        client,
        "return [window.innerWidth, window.innerHeight, document.documentElement.clientWidth, document.documentElement.scrollWidth]",
    )
    .await;
    assert_eq!(
        (inner_width, inner_height),
        (width, height),
        "the viewport (innerWidth, innerHeight)"
    );
    if width <= PHONE_MAX_WIDTH {
        assert_eq!(layout_width, width, "the phone's page laid out narrower");
        assert_eq!(page_width, width, "the page wider than the phone");
    }
}

/// Presses "Review game" and waits for its summary.
pub async fn review_game(client: &Client) {
    css(client, "#review").await.click().await.expect("review");
    until(
        client,
        "the review",
        "!document.getElementById('review-summary').hidden",
    )
    .await;
}

/// A review where the endgame tables decide (issue 64): a loaded game of lion and rat
/// against an elephant (three animals, whose tables every host holds). Red's lion
/// steps away from the elephant and throws the win away; Blue's elephant keeps the
/// win; Red's last move is one of the slowest losses (`jungle tb probe`). The tables'
/// judgement stands whatever the engine's scores say: the blunder is marked with its
/// exact loss and the tables' words, the perfect moves are underlined, and the summary
/// counts them. Screenshots `{prefix}review-tables` (the width the window has, then a
/// phone's).
pub async fn the_tables_judge_the_review(client: &Client, prefix: &str) {
    load_record(
        client,
        "review-tables",
        "[FEN \"7/7/7/7/3e3/3L3/7/7/R6 r 0 1\"]\n\n1. d4d3 d5d4 2. d3d2 *\n",
        "document.querySelectorAll('#moves span[data-ply]').length === 3",
    )
    .await;
    review_game(client).await;
    assert_eq!(
        text(client, "#moves span.review-mark.blunder").await,
        "d4d3??"
    );
    let perfect: Vec<String> = eval(
        client,
        "return Array.from(document.querySelectorAll('#moves span.tb-perfect'), (s) => s.textContent)",
    )
    .await;
    assert_eq!(perfect, ["d5d4", "d3d2"]);
    let title: String = eval(
        client,
        "return document.querySelector('#moves span.tb-perfect').title",
    )
    .await;
    assert_eq!(title, "1… d5d4, perfect (endgame tables: keeps the win)");
    let marked = text(client, "#review-summary .marked button.blunder").await;
    assert!(
        marked.starts_with("1. d4d3, a blunder (−100.0 points; better: a1")
            && marked.ends_with("; endgame tables: turns the win into a loss)"),
        "{marked}"
    );
    assert_eq!(
        text(client, "#review-summary .tables-review").await,
        "The endgame tables judged 3 moves exactly (2 perfect, underlined in the list)."
    );
    show_review_summary(client).await;
    shot(client, &format!("{prefix}review-tables")).await;
    let (width, height): (u32, u32) =
        eval(client, "return [window.innerWidth, window.innerHeight]").await;
    set_viewport(client, 400, 860).await;
    show_review_summary(client).await;
    shot(client, &format!("{prefix}review-tables-phone")).await;
    set_viewport(client, width, height).await;
    // The same words in the other languages.
    for (code, summary) in [
        ("de", "Die Endspieltabellen haben 3 Züge exakt beurteilt (2 perfekt, in der Liste unterstrichen)."),
        ("zh", "残局库精确判断了 3 步（2 步完美，在着法列表中加下划线）。"),
        ("zh-Hant", "殘局庫精確判斷了 3 步（2 步完美，在著法列表中加底線）。"),
        ("en", "The endgame tables judged 3 moves exactly (2 perfect, underlined in the list)."),
    ] {
        choose_language(client, code, "#review-summary .tables-review", summary).await;
        if code != "en" {
            show_review_summary(client).await;
            shot(client, &format!("{prefix}review-tables-{code}")).await;
        }
    }
    no_script_errors(client).await;
}

/// Scrolls the review's summary to the middle of the window (for a screenshot).
async fn show_review_summary(client: &Client) {
    let _: Option<bool> = eval(
        client,
        "document.getElementById('review-summary').scrollIntoView({block: 'center'}); return null",
    )
    .await;
}

/// Opens "How to play" and waits for the dialog.
pub async fn open_rules(client: &Client) {
    css(client, "#rules-open")
        .await
        .click()
        .await
        .expect("rules");
    until(
        client,
        "the rules",
        "document.getElementById('rules-dialog').open",
    )
    .await;
}

/// Closes "How to play" and waits for the board.
pub async fn close_rules(client: &Client) {
    css(client, "#rules-dialog .close")
        .await
        .click()
        .await
        .expect("close");
    until(
        client,
        "the board again",
        "!document.getElementById('rules-dialog').open",
    )
    .await;
}

/// What the page showed and played for the moves (`window.jungleEffects`, kept by
/// app.js): "slide g3g4", "sound move", "sound capture", "sound win", ...
pub async fn effects(client: &Client) -> Vec<String> {
    eval(client, "return window.jungleEffects").await
}

/// What a script returns, as `T` (its default when the value is not a `T`: the
/// assertion that follows then says what was expected).
pub async fn eval<T: serde::de::DeserializeOwned + Default>(client: &Client, script: &str) -> T {
    let value = client.execute(script, vec![]).await.expect("script runs");
    serde_json::from_value(value).unwrap_or_default()
}

/// The page's script errors (`window.jungleErrors`, kept by backend.js) must be none.
pub async fn no_script_errors(client: &Client) {
    let errors = client
        .execute("return window.jungleErrors", vec![])
        .await
        .expect("script runs");
    assert_eq!(errors, serde_json::json!([]), "script errors on the page");
}

/// Waits for a new board: the start position drawn, the back end connected, the
/// levels known, the person (Red) to move.
pub async fn board_ready(client: &Client) {
    css(client, "#board .cell[data-sq=\"g3\"][data-piece=\"R\"]").await;
    until(
        client,
        "the back end",
        "document.getElementById('connection').className === 'online'",
    )
    .await;
    until(
        client,
        "the levels",
        "!document.getElementById('level').disabled",
    )
    .await;
    assert_eq!(text(client, "#status").await, "Your move (Red)");
    // The first screen, if the visit is a first: "Play".
    let welcome: bool = eval(client, "return !document.getElementById('welcome').hidden").await;
    if welcome {
        css(client, "#welcome-play")
            .await
            .click()
            .await
            .expect("play");
    }
}

/// A headless Chromium under chromedriver, with a profile of its own.
pub struct Browser {
    pub client: Client,
    _driver: Driver,
}

impl Browser {
    /// Starts the browser; `None` (after saying so) when it is not installed.
    pub async fn open() -> Option<Browser> {
        Browser::open_with(&[]).await
    }

    /// Starts the browser with Chromium flags of its own (e.g. a dark colour scheme).
    pub async fn open_with(extra: &[&str]) -> Option<Browser> {
        Browser::start(extra, None).await
    }

    /// Starts the browser as a phone of `width` x `height` CSS pixels (Chromium's
    /// device emulation: a headless window is never narrower than 500 px).
    pub async fn open_phone(width: u32, height: u32) -> Option<Browser> {
        Browser::start(&[], Some((width, height))).await
    }

    /// A phone of `width` x `height` with Chromium flags of its own (a language, a
    /// dark scheme).
    pub async fn open_phone_with(extra: &[&str], width: u32, height: u32) -> Option<Browser> {
        Browser::start(extra, Some((width, height))).await
    }

    async fn start(extra: &[&str], phone: Option<(u32, u32)>) -> Option<Browser> {
        let (Some(chromium), Some(chromedriver)) = (
            binary("CHROMIUM", "/usr/bin/chromium"),
            binary("CHROMEDRIVER", "/usr/bin/chromedriver"),
        ) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must have chromium and chromium-driver (.ci/run installs them)"
            );
            eprintln!("SKIPPED: no /usr/bin/chromium or /usr/bin/chromedriver (apt-get install chromium chromium-driver)");
            return None;
        };
        let port = free_port();
        static OPENED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let profile = std::env::temp_dir().join(format!(
            "jungle-chromium-{}-{}",
            std::process::id(),
            OPENED.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        ));
        let driver = Driver {
            child: Command::new(&chromedriver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("chromedriver starts"),
            profile: profile.clone(),
        };
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut caps = serde_json::Map::new();
        let mut options = serde_json::json!({ "binary": chromium, "args": args });
        if let Some((width, height)) = phone {
            options["mobileEmulation"] = serde_json::json!({
                "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1 }
            });
        }
        caps.insert("goog:chromeOptions".into(), options);
        let url = format!("http://127.0.0.1:{port}");
        let mut client = None;
        for _ in 0..100 {
            match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps.clone())
                .connect(&url)
                .await
            {
                Ok(c) => {
                    client = Some(c);
                    break;
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
        Some(Browser {
            client: client.expect("chromedriver answers"),
            _driver: driver,
        })
    }

    /// Ends the session (the browser and its driver go with `Driver`'s drop).
    pub async fn close(self) {
        self.client.close().await.expect("closes");
    }
}
