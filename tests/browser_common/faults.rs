//! The board's faults that issue 44 found by trying it as a new user would, each
//! checked on either back end (tests/gui_browser.rs, tests/web_site.rs). Screenshots
//! are named with the caller's prefix and `fault-`.

use super::{board_ready, css, eval, set_viewport, shot, top_shot, until};
use fantoccini::Client;

/// Plays up to `plies` moves through the back end itself (as another tab would), each
/// the first legal non-capture of a fixed pseudo-random order, from a new game of two
/// people; returns the number of plies played (fewer when the game ends).
pub async fn play_plies(client: &Client, plies: usize) -> usize {
    let js = format!(
        "const done = arguments[0];
         (async () => {{
           await Jungle.link.backend.request('new', {{ players: 'both' }});
           let seed = 7, n = 0;
           for (; n < {plies}; n++) {{
             const s = JSON.parse((await Jungle.link.backend.request('state', null)).text);
             if (s.result) break;
             const moves = [];
             for (const [from, targets] of Object.entries(s.legal))
               for (const t of targets) if (!t.capture) moves.push(from + t.to);
             if (moves.length === 0) break;
             seed = (seed * 1103515245 + 12345) % 2147483648;
             const a = await Jungle.link.backend.request('move', {{ move: moves[seed % moves.length] }});
             if (a.status !== 200) break;
           }}
           return n;
         }})().then(done, (e) => done(-1));"
    );
    let v = client.execute_async(&js, vec![]).await.expect("plays");
    let n = v.as_i64().unwrap_or(-1);
    assert!(n >= 0, "the back end refused the game's moves");
    until(
        client,
        "the moves drawn",
        &format!("document.querySelectorAll('#moves span[data-ply]').length === {n}"),
    )
    .await;
    n as usize
}

/// The page's scroll and whether the move list shows its current move: (window's
/// scrollY, the current move within the list's visible box).
async fn scroll_and_current(client: &Client) -> (f64, bool) {
    eval(
        client,
        "const list = document.getElementById('moves');
         const cur = list.querySelector('.current');
         const l = list.getBoundingClientRect();
         const c = cur ? cur.getBoundingClientRect() : null;
         return [window.scrollY, !!c && c.top >= l.top - 1 && c.bottom <= l.bottom + 1];",
    )
    .await
}

/// On a phone a move scrolls the move list only, never the page: the board stays in
/// view at every move, and a long game opens at the top of the page.
pub async fn moves_scroll_only_their_list(client: &Client, url: &str, prefix: &str) {
    client.goto(url).await.expect("page loads");
    board_ready(client).await;
    set_viewport(client, 390, 844).await;
    client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .expect("scrolls");
    let plies = play_plies(client, 60).await;
    assert!(plies >= 30, "only {plies} plies played");
    let (scroll, current) = scroll_and_current(client).await;
    assert_eq!(scroll, 0.0, "the page scrolled by the moves");
    assert!(current, "the current move is out of the list's view");
    let list_scrolled: f64 =
        eval(client, "return document.getElementById('moves').scrollTop").await;
    assert!(list_scrolled > 0.0, "the move list did not scroll");
    shot(client, &format!("{prefix}fault-1-phone-long-game")).await;
    // A step back through the list (clicked by the page's script: WebDriver's click
    // scrolls the page to the element first): still the page stays.
    client
        .execute(
            "window.scrollTo(0, 0); document.querySelector('#moves span[data-ply=\"3\"]').click()",
            vec![],
        )
        .await
        .expect("goes to ply 3");
    until(
        client,
        "ply 3 shown",
        "document.querySelector('#moves span.current') && document.querySelector('#moves span.current').dataset.ply === '3'",
    )
    .await;
    let (scroll, current) = scroll_and_current(client).await;
    assert!(
        scroll == 0.0 && current,
        "after a step back: scroll {scroll}, current in view {current}"
    );
    // Opened again (under `jungle gui` with the long game): at the top of the page.
    client.goto(url).await.expect("page loads");
    css(client, "#board .cell[data-sq]").await;
    until(
        client,
        "the back end",
        "document.getElementById('connection').className === 'online'",
    )
    .await;
    until(
        client,
        "the long game drawn",
        "!Jungle.link.busy() && Jungle.game.state() && document.querySelectorAll('#moves span[data-ply]').length === Jungle.game.state().moves.length",
    )
    .await;
    let (scroll, _) = scroll_and_current(client).await;
    assert_eq!(scroll, 0.0, "the page opens scrolled down");
    top_shot(client, &format!("{prefix}fault-1b-phone-reopened")).await;
    set_viewport(client, 1280, 800).await;
}

/// Clicks the element `selector`.
async fn press(client: &Client, selector: &str) {
    css(client, selector)
        .await
        .click()
        .await
        .unwrap_or_else(|e| panic!("clicks {selector}: {e}"));
}

/// "Back to playing", and the lesson's box gone.
async fn leave_the_lesson(client: &Client) {
    press(client, "#lesson-leave").await;
    until(
        client,
        "the game",
        "document.getElementById('lesson').hidden",
    )
    .await;
}

/// A new game of Red against the engine, asked of the back end as another tab would
/// (whatever game the back end has), then drawn.
pub async fn new_game_against_the_engine(client: &Client) {
    css(client, "#board .cell[data-sq]").await;
    client
        .execute_async(
            "const done = arguments[0]; Jungle.link.backend.request('new', { players: 'red' }).then(done, done);",
            vec![],
        )
        .await
        .expect("new game");
    until(
        client,
        "the new game drawn",
        "document.querySelectorAll('#moves span[data-ply]').length === 0 && document.getElementById('status').textContent === 'Your move (Red)'",
    )
    .await;
    board_ready(client).await;
}

/// The game shown, as the page has it: (moves, ply, players, level).
async fn game_shown(client: &Client) -> (Vec<String>, usize, String, String) {
    eval(
        client,
        "return [Array.from(document.querySelectorAll('#moves span[data-ply]'), (s) => s.textContent),
                 Number((document.querySelector('#moves span.current') || { dataset: { ply: 0 } }).dataset.ply),
                 document.getElementById('players').value, document.getElementById('level').value]",
    )
    .await
}

/// Waits until the game shown is `moves` with Red against the engine at level 2.
async fn game_back(client: &Client, what: &str, moves: &[String]) {
    let list = serde_json::to_string(moves).expect("json");
    until(
        client,
        what,
        &format!(
            "JSON.stringify(Array.from(document.querySelectorAll('#moves span[data-ply]'), (s) => s.textContent)) === '{list}'
             && document.getElementById('players').value === 'red' && document.getElementById('level').value === '2'
             && document.getElementById('lesson').hidden && !document.body.classList.contains('puzzle-mode')"
        ),
    )
    .await;
}

/// Plays `m` against the engine (its reply makes `plies`), then opens the lesson "The
/// rat and the elephant" (`shot_name`: the list's screenshot); returns the game's moves.
async fn move_then_rat_lesson(
    client: &Client,
    m: &str,
    plies: usize,
    shot_name: &str,
) -> Vec<String> {
    super::click_move(client, &m[0..2], &m[2..4]).await;
    super::engine_replied(client, plies).await;
    let (moves, _, _, _) = game_shown(client).await;
    super::open_lesson(client, "rat", "d5", "e", shot_name).await;
    moves
}

/// Leaving a puzzle or a lesson brings back the game as it was: its moves, the person
/// against the engine at the level chosen, and the engine answers the next move.
/// Neither mode asks first, as nothing is lost.
pub async fn leaving_a_mode_keeps_the_game(client: &Client, url: &str, prefix: &str) {
    client.goto(url).await.expect("page loads");
    new_game_against_the_engine(client).await;
    set_viewport(client, 1280, 800).await;
    css(client, "#movetime")
        .await
        .select_by_value("250")
        .await
        .expect("thinking time");
    css(client, "#level")
        .await
        .select_by_value("2")
        .await
        .expect("level");
    until(
        client,
        "level 2",
        "document.getElementById('level').value === '2'",
    )
    .await;
    super::click_move(client, "g3", "g4").await;
    super::engine_replied(client, 2).await;
    let (moves, ply, _, _) = game_shown(client).await;
    assert_eq!((moves.len(), ply), (2, 2));

    // Puzzles, and back.
    press(client, "#puzzles-open").await;
    until(
        client,
        "a puzzle",
        "document.body.dataset.puzzleState === 'playing' && !!document.body.dataset.puzzle",
    )
    .await;
    let asked: bool = eval(client, "return !document.getElementById('confirm').hidden").await;
    assert!(!asked, "Puzzles asked to end a game that is kept");
    shot(client, &format!("{prefix}fault-2-puzzle")).await;
    press(client, "#puzzle-leave").await;
    game_back(client, "the game back after the puzzle", &moves).await;
    shot(client, &format!("{prefix}fault-2b-back-from-puzzle")).await;
    // The engine answers again; a lesson, and back: the four moves.
    let moves = move_then_rat_lesson(client, "a3a4", 4, &format!("{prefix}fault-2c-lessons")).await;
    let asked: bool = eval(client, "return !document.getElementById('confirm').hidden").await;
    assert!(!asked, "Learn asked to end a game that is kept");
    press(client, "#lesson-leave").await;
    game_back(client, "the game back after the lesson", &moves).await;
    shot(client, &format!("{prefix}fault-2d-back-from-lesson")).await;

    // "Back to playing" and Puzzles at once, while the game is still being built again
    // (this test was flaky when WebDriver's click came in that time): the puzzle takes
    // the board, and leaving it brings back the whole game.
    super::open_lesson(
        client,
        "rat",
        "d5",
        "e",
        &format!("{prefix}fault-2e-lessons"),
    )
    .await;
    client
        .execute(
            "document.getElementById('lesson-leave').click();
             document.getElementById('puzzles-open').click();",
            vec![],
        )
        .await
        .expect("leaves the lesson for the puzzles");
    super::puzzles::puzzle_ready(client, None).await;
    let lesson_hidden: bool = eval(client, "return document.getElementById('lesson').hidden").await;
    assert!(lesson_hidden, "the lesson stayed open under the puzzle");
    press(client, "#puzzle-leave").await;
    game_back(
        client,
        "the whole game back after a quick lesson-to-puzzle",
        &moves,
    )
    .await;

    // "Next puzzle" and "Leave" at once, while the next puzzle is still on its way: the
    // game comes back, and the puzzle that arrives after does not take the board (it
    // did: the puzzle's position over the game being built again, the board turned).
    press(client, "#puzzles-open").await;
    super::puzzles::puzzle_ready(client, None).await;
    client
        .execute(
            "document.getElementById('puzzle-next').click();
             document.getElementById('puzzle-leave').click();",
            vec![],
        )
        .await
        .expect("asks for the next puzzle and leaves");
    game_back(client, "the game back, the next puzzle on its way", &moves).await;
    // Every request answered: the next puzzle's too.
    until(client, "the requests answered", "!Jungle.link.busy()").await;
    let (shown, ply, _, _) = game_shown(client).await;
    assert_eq!(
        (shown, ply),
        (moves.clone(), moves.len()),
        "the next puzzle took the board after the puzzles were left"
    );
    let (puzzle_shown, flipped): (bool, bool) = eval(
        client,
        "return [document.body.dataset.puzzle !== undefined, Jungle.board.isFlipped()]",
    )
    .await;
    assert!(!puzzle_shown, "the page says a puzzle is on the board");
    assert!(!flipped, "the next puzzle turned the game's board");
    game_back(client, "the game stays after the next puzzle came", &moves).await;
}

/// A new visitor starts with a new game of their own, not the back end's last one
/// (under `jungle gui` another visitor's, finished or not): the first screen shows a
/// new board at Beginner, and its "Play" starts a new game.
pub async fn a_new_visitor_gets_a_new_game(client: &Client, url: &str, prefix: &str) {
    client.goto(url).await.expect("page loads");
    css(client, "#board .cell[data-sq]").await;
    // Someone's game: two people, many moves, at level 3.
    let plies = play_plies(client, 20).await;
    assert!(plies > 0);
    client
        .execute_async(
            "const done = arguments[0]; Jungle.link.backend.request('settings', { level: 3 }).then(done, done);",
            vec![],
        )
        .await
        .expect("level 3");
    // A new visitor: nothing kept in the browser.
    client
        .execute("localStorage.clear()", vec![])
        .await
        .expect("clears");
    client.goto(url).await.expect("page loads");
    until(
        client,
        "the first screen over a new board at Beginner",
        "!document.getElementById('welcome').hidden && document.querySelectorAll('#moves span[data-ply]').length === 0
         && document.getElementById('players').value === 'red' && document.getElementById('level').value === '1'
         && document.getElementById('connection').className === 'online'",
    )
    .await;
    shot(client, &format!("{prefix}fault-3-new-visitor")).await;
    // Another tab plays on meanwhile: "Play" starts a new game all the same.
    play_plies(client, 6).await;
    press(client, "#welcome-play").await;
    until(
        client,
        "a new game against the engine",
        "document.getElementById('welcome').hidden && document.querySelectorAll('#moves span[data-ply]').length === 0
         && document.getElementById('players').value === 'red' && document.getElementById('status').textContent === 'Your move (Red)'",
    )
    .await;
}

/// Waits until the address is `hash` and the lesson shows task `task` of 2 with the
/// `piece` letter on `sq`.
async fn at_task(client: &Client, hash: &str, task: usize, sq: &str, piece: &str) {
    until(
        client,
        &format!("task {task} at {hash}"),
        &format!(
            "location.hash === '{hash}' && !document.getElementById('lesson').hidden
             && document.getElementById('lesson-step').textContent === 'Task {task} of 2'
             && document.querySelector('#board .cell[data-sq=\"{sq}\"]').dataset.piece === '{piece}'"
        ),
    )
    .await;
}

/// The place stays in the address: a lesson's task (`#learn/3/2`) and a puzzle
/// (`#puzzle/<id>`) come back on a reload, Back and Forward go through them, a link
/// opens the puzzle it names, and a wrong move counts against the rating even when
/// the page is reloaded after it.
pub async fn the_place_is_in_the_address(client: &Client, url: &str, prefix: &str) {
    client.goto(url).await.expect("page loads");
    new_game_against_the_engine(client).await;
    // Lesson 3 ("The rat and the elephant"): task 1, solved, then task 2.
    let moves = move_then_rat_lesson(client, "g3g4", 2, &format!("{prefix}fault-4-lessons")).await;
    at_task(client, "#learn/3/1", 1, "d4", "R").await;
    super::click_move(client, "d4", "d5").await;
    super::lesson_says(client, "praise").await;
    press(client, "#lesson-next").await;
    at_task(client, "#learn/3/2", 2, "d6", "C").await;
    // A reload: the same task.
    client.refresh().await.expect("reloads");
    at_task(client, "#learn/3/2", 2, "d6", "C").await;
    shot(client, &format!("{prefix}fault-4b-reloaded-task")).await;
    // Back: task 1; Forward: task 2.
    client.back().await.expect("back");
    at_task(client, "#learn/3/1", 1, "d4", "R").await;
    client.forward().await.expect("forward");
    at_task(client, "#learn/3/2", 2, "d6", "C").await;
    // Leaving: the address is the game's, and the game is back (after the reload too).
    press(client, "#lesson-leave").await;
    until(
        client,
        "the game's address and moves",
        &format!(
            "location.hash === '' && document.getElementById('lesson').hidden
             && JSON.stringify(Array.from(document.querySelectorAll('#moves span[data-ply]'), (s) => s.textContent)) === '{}'",
            serde_json::to_string(&moves).expect("json")
        ),
    )
    .await;
    // Back: the lesson again.
    client.back().await.expect("back");
    at_task(client, "#learn/3/2", 2, "d6", "C").await;
    press(client, "#lesson-leave").await;
    until(
        client,
        "the game",
        "location.hash === '' && document.getElementById('lesson').hidden",
    )
    .await;

    // A puzzle: its address; a wrong move, a reload, the same puzzle; Next counts it
    // as failed.
    press(client, "#puzzles-open").await;
    let (id, _, before) = super::puzzles::puzzle_ready(client, None).await;
    until(
        client,
        "the puzzle's address",
        &format!("location.hash === '#puzzle/{id}'"),
    )
    .await;
    super::puzzles::play_a_wrong_move(client, before).await;
    client.refresh().await.expect("reloads");
    let (again, _, _) = super::puzzles::puzzle_ready(client, None).await;
    assert_eq!(again, id, "a reload shows another puzzle");
    shot(client, &format!("{prefix}fault-4c-reloaded-puzzle")).await;
    press(client, "#puzzle-next").await;
    let (other, _, _) = super::puzzles::puzzle_ready(client, Some(&id)).await;
    until(
        client,
        "the next puzzle's address",
        &format!("location.hash === '#puzzle/{other}'"),
    )
    .await;
    let (failed, rating): (u32, f64) = eval(
        client,
        "const p = JSON.parse(localStorage.getItem('jungle.puzzles')); return [p.failed, p.rating.rating]",
    )
    .await;
    assert!(
        failed == 1 && rating < 1500.0,
        "after a wrong move and a reload: {failed} failed, rating {rating}"
    );
    // A link to the first puzzle opens it (in a page loaded afresh).
    client.goto("about:blank").await.expect("leaves");
    client
        .goto(&format!("{url}#puzzle/{id}"))
        .await
        .expect("page loads");
    let (linked, _, _) = super::puzzles::puzzle_ready(client, None).await;
    assert_eq!(linked, id, "the link's puzzle");
    press(client, "#puzzle-leave").await;
    until(
        client,
        "the game's address",
        "location.hash === '' && !document.body.classList.contains('puzzle-mode')",
    )
    .await;
}

/// Sends `keys` (WebDriver key codes or text) to the element that has the focus.
async fn keys(client: &Client, keys: &str) {
    client
        .active_element()
        .await
        .expect("an element with the focus")
        .send_keys(keys)
        .await
        .expect("keys");
}

/// A lesson played with the keyboard alone: the board is one tab stop, the arrows
/// move between squares, Enter selects and plays; each square's label says what is
/// there and what the selected animal may do, in the page's language.
pub async fn the_keyboard_plays(client: &Client, url: &str, prefix: &str) {
    use fantoccini::key::Key;
    client.goto(url).await.expect("page loads");
    new_game_against_the_engine(client).await;
    super::open_lesson(
        client,
        "rat",
        "d5",
        "e",
        &format!("{prefix}fault-5-lessons"),
    )
    .await;
    // One tab stop: the bottom-left square; the focus comes to it from the button
    // before the board in the tab order.
    let stops: Vec<String> = eval(
        client,
        "return Array.from(document.querySelectorAll('#board .cell'), (c) => c).filter((c) => c.tabIndex === 0).map((c) => c.dataset.sq)",
    )
    .await;
    assert_eq!(stops, ["a1"], "the board's tab stops");
    client
        .execute(
            "document.querySelector('#board .cell[data-sq=\"a1\"]').focus()",
            vec![],
        )
        .await
        .expect("focus");
    // a1 → d4: three right, three up; Enter selects the rat.
    let to_d4 = format!(
        "{r}{r}{r}{u}{u}{u}",
        r = char::from(Key::Right),
        u = char::from(Key::Up)
    );
    keys(client, &to_d4).await;
    let focused: String = eval(client, "return document.activeElement.dataset.sq").await;
    assert_eq!(focused, "d4", "the arrows' square");
    keys(client, &char::from(Key::Enter).to_string()).await;
    until(client, "the rat selected", "document.querySelector('#board .cell[data-sq=\"d4\"]').getAttribute('aria-selected') === 'true'").await;
    let (d4, d5): (String, String) = eval(
        client,
        "const l = (sq) => document.querySelector('#board .cell[data-sq=\"' + sq + '\"]').getAttribute('aria-label'); return [l('d4'), l('d5')]",
    )
    .await;
    assert_eq!(d4, "d4 Red Rat, selected");
    assert_eq!(d5, "d5 Blue Elephant, your animal can take this one");
    // In German the same words.
    super::choose_language(client, "de", "#lesson-leave", "Zurück zum Spiel").await;
    let d5: String = eval(
        client,
        "return document.querySelector('#board .cell[data-sq=\"d5\"]').getAttribute('aria-label')",
    )
    .await;
    assert_eq!(d5, "d5 Blau Elefant, dein Tier kann dieses schlagen");
    super::choose_language(client, "en", "#lesson-leave", "Back to playing").await;
    client
        .execute(
            "document.querySelector('#board .cell[data-sq=\"d4\"]').focus()",
            vec![],
        )
        .await
        .expect("focus");
    // Up, and Space plays the capture; the page's own arrow keys (a move back) stay
    // out of it.
    keys(client, &format!("{}{}", char::from(Key::Up), ' ')).await;
    super::lesson_says(client, "praise").await;
    shot(client, &format!("{prefix}fault-5b-keyboard-lesson")).await;
    leave_the_lesson(client).await;
}

/// What a phone's board measures (CSS px): the names', the rank badges' and the
/// coordinates' font sizes, the widest name and the widest TRAP or DEN against the
/// square's width.
#[derive(serde::Deserialize, Default, Debug)]
struct Sizes {
    name: f64,
    rank: f64,
    coord: f64,
    widest_name: f64,
    widest_terrain: f64,
    square: f64,
}

async fn sizes(client: &Client) -> Sizes {
    let v = client
        .execute(
        "const px = (el) => parseFloat(getComputedStyle(el).fontSize);
         const p = document.querySelector('#board .piece');
         const ctx = document.createElement('canvas').getContext('2d');
         const terrain = Array.from(document.querySelectorAll('#board .cell.trap:not([data-piece]), #board .cell.den:not([data-piece])'), (c) => {
           const cs = getComputedStyle(c, '::after');
           ctx.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
           const word = cs.textTransform === 'uppercase' ? c.dataset.terrain.toUpperCase() : c.dataset.terrain;
           return ctx.measureText(word).width + (parseFloat(cs.letterSpacing) || 0) * word.length;
         });
         return { name: px(p.querySelector('.name')), rank: px(p.querySelector('.rank')),
                  coord: px(document.querySelector('#board .coord')),
                  widest_name: Math.max(...Array.from(document.querySelectorAll('#board .piece .name'), (n) => n.scrollWidth)),
                  widest_terrain: Math.max(...terrain),
                  square: document.querySelector('#board .cell').getBoundingClientRect().width };",
            vec![],
        )
        .await
        .expect("measures");
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("sizes {v}: {e}"))
}

/// Opens the page at `hash` in `lang` with the animals labelled `labels` (kept in the
/// browser, as a person's choice is).
pub(super) async fn open_as(client: &Client, url: &str, hash: &str, lang: &str, labels: &str) {
    client.goto(url).await.expect("page loads");
    client
        .execute(
            &format!("localStorage.setItem('jungle.welcomed', '1'); localStorage.setItem('jungle.lang', '{lang}'); localStorage.setItem('jungle.labels', '{labels}');"),
            vec![],
        )
        .await
        .expect("keeps the choices");
    client
        .goto(&format!("{url}{hash}"))
        .await
        .expect("page loads");
    client.refresh().await.expect("reloads");
    until(
        client,
        "the board",
        &format!("document.documentElement.lang.startsWith('{}') && document.querySelector('#board .piece')", &lang[..2]),
    )
    .await;
}

/// On a phone (390x844) the board stays legible: names and rank badges at least
/// 11 px, coordinates 9 px, every name and TRAP or DEN (HÖHLE in German) inside its
/// square; in Chinese the character is the largest thing on its piece, and a name
/// (one character) is at least 13 px. On a small phone (320x480) a lesson's task is
/// in view with the board.
pub async fn sizes_on_a_phone(url: &str, prefix: &str) {
    let Some(browser) = super::Browser::open_phone(390, 844).await else {
        return;
    };
    let client = &browser.client;
    open_as(client, url, "", "de", "pictures-names").await;
    super::viewport_is(client, 390, 844).await;
    let s = sizes(client).await;
    assert!(
        s.name >= 11.0 && s.rank >= 11.0 && s.coord >= 9.0,
        "German, pictures and names: {s:?}"
    );
    assert!(
        s.widest_name <= s.square && s.widest_terrain <= s.square - 8.0,
        "a name or a square's word wider than its square: {s:?}"
    );
    top_shot(client, &format!("{prefix}fault-6-phone-de")).await;
    open_as(client, url, "", "zh", "pictures-names").await;
    let s = sizes(client).await;
    assert!(
        s.name >= 13.0 && s.rank >= 11.0,
        "Chinese, pictures and names: {s:?}"
    );
    open_as(client, url, "", "zh", "chars").await;
    let s = sizes(client).await;
    assert!(
        s.name >= 18.0 && s.name > s.rank && s.rank >= 11.0,
        "Chinese characters: {s:?}"
    );
    top_shot(client, &format!("{prefix}fault-6b-phone-zh-chars")).await;
    browser.close().await;

    let Some(browser) = super::Browser::open_phone(320, 480).await else {
        return;
    };
    let client = &browser.client;
    open_as(client, url, "#learn/3/1", "en", "pictures-names").await;
    super::viewport_is(client, 320, 480).await;
    until(
        client,
        "the lesson",
        "!document.getElementById('lesson').hidden",
    )
    .await;
    let (bottom, height): (f64, f64) = eval(
        client,
        "return [document.getElementById('lesson-task').getBoundingClientRect().bottom, innerHeight]",
    )
    .await;
    assert!(bottom <= height, "the task ends at {bottom} px of {height}");
    let s = sizes(client).await;
    assert!(
        s.name >= 11.0 && s.widest_terrain <= s.square - 8.0,
        "320 px: {s:?}"
    );
    top_shot(client, &format!("{prefix}fault-6c-lesson-320x480")).await;
    browser.close().await;
}

/// The lessons' order and end: the lesson on guarding one's den, the last of those for
/// everyone (a greedy capture there is answered with the hint), ends by saying that
/// all are done, with one "All lessons" button; the `jungle-cn` lesson stands apart
/// under "For experts".
pub async fn the_lessons_end(client: &Client, url: &str, prefix: &str) {
    client.goto(url).await.expect("page loads");
    new_game_against_the_engine(client).await;
    super::open_lesson(
        client,
        "guard",
        "d2",
        "w",
        &format!("{prefix}fault-7-lessons"),
    )
    .await;
    let (order, group): (Vec<String>, String) = eval(
        client,
        "const items = Array.from(document.querySelectorAll('#lesson-choices li'));
         return [items.map((li) => li.querySelector('button') ? li.querySelector('button').dataset.lesson : '|'),
                 (items.find((li) => li.classList.contains('lesson-group')) || {}).textContent || ''];",
    )
    .await;
    assert_eq!(order.last().map(String::as_str), Some("chase"), "{order:?}");
    assert_eq!(
        order[order.len() - 2],
        "|",
        "the experts' heading: {order:?}"
    );
    assert_eq!(group, "For experts");
    super::click_move(client, "d3", "d2").await;
    super::lesson_says(client, "praise").await;
    press(client, "#lesson-next").await;
    until(client, "the second task", "document.getElementById('lesson-step').textContent === 'Task 2 of 2' && document.querySelector('#board .cell[data-sq=\"e1\"]').dataset.piece === 'p'").await;
    // The greedy capture: the hint.
    super::click_move(client, "a3", "a4").await;
    super::lesson_says(client, "wrong").await;
    until(client, "the task set again", "document.querySelector('#board .cell[data-sq=\"a3\"]').dataset.piece === 'E' && document.getElementById('lesson-feedback').className === 'wrong'").await;
    until(
        client,
        "the task ready for a try",
        "document.body.dataset.lesson === 'waiting'",
    )
    .await;
    super::click_move(client, "f1", "e1").await;
    super::lesson_says(client, "praise").await;
    let (said, buttons): (String, Vec<String>) = eval(
        client,
        "return [document.getElementById('lesson-feedback').textContent,
                 Array.from(document.querySelectorAll('#lesson button'), (b) => b).filter((b) => b.offsetParent !== null).map((b) => b.textContent)]",
    )
    .await;
    assert!(said.contains("That was the last lesson"), "{said}");
    assert_eq!(
        buttons
            .iter()
            .filter(|b| b.as_str() == "All lessons")
            .count(),
        1,
        "{buttons:?}"
    );
    shot(client, &format!("{prefix}fault-7b-all-done")).await;
    leave_the_lesson(client).await;
}

/// The words left over in German and Chinese: no "Jungle" (the engine's name) or
/// "jungle" (the rule set's) anywhere on the page, times in the language's number
/// format ("0,25 s"), the level "Gelegenheitsspieler", the engine's move button in a
/// child's words (让电脑走), and the first screen's Puzzles with its subtitle.
pub async fn the_words_left_over(client: &Client, url: &str, prefix: &str) {
    let visible_jungle = "return (document.body.innerText.match(/[^\\n]*jungle[^\\n]*/ig) || [])";
    open_as(client, url, "", "de", "pictures-names").await;
    client
        .execute(
            "localStorage.removeItem('jungle.welcomed'); location.reload()",
            vec![],
        )
        .await
        .expect("a first visit");
    until(
        client,
        "the first screen",
        "!document.getElementById('welcome').hidden && document.documentElement.lang === 'de'",
    )
    .await;
    let (sub, shown): (String, bool) = eval(
        client,
        "const s = document.getElementById('welcome-puzzles-sub'); return [s.textContent, s.offsetParent !== null]",
    )
    .await;
    assert!(
        shown && sub == "finde den einen guten Zug",
        "Puzzles' subtitle {sub:?}"
    );
    top_shot(client, &format!("{prefix}fault-8-first-screen-de")).await;
    press(client, "#welcome-play").await;
    until(client, "the board", "document.getElementById('welcome').hidden && document.getElementById('connection').className === 'online'").await;
    css(client, "#movetime")
        .await
        .select_by_value("250")
        .await
        .expect("thinking time");
    until(
        client,
        "the time in German",
        "document.getElementById('game-info').textContent.includes('0,25 s')",
    )
    .await;
    let (times, level3, info): (Vec<String>, String, String) = eval(
        client,
        "return [Array.from(document.querySelectorAll('#movetime option'), (o) => o.textContent),
                 document.querySelector('#level option[value=\"3\"]').textContent,
                 document.getElementById('game-info').textContent]",
    )
    .await;
    assert!(
        times.iter().all(|t| !t.contains('.')) && times.contains(&"0,5 s".to_string()),
        "{times:?}"
    );
    assert!(level3.ends_with("Gelegenheitsspieler"), "{level3}");
    assert!(info.starts_with("Regeln: Standard"), "{info}");
    let left: Vec<String> = eval(client, visible_jungle).await;
    assert!(left.is_empty(), "'jungle' on the German page: {left:?}");
    // The engine's move button in a child's words says the language is in.
    for (lang, button) in [("zh", "让电脑走"), ("zh-Hant", "讓電腦走")] {
        super::choose_language(client, lang, "#engine-move", button).await;
        let left: Vec<String> = eval(client, visible_jungle).await;
        assert!(left.is_empty(), "'jungle' on the {lang} page: {left:?}");
    }
    shot(client, &format!("{prefix}fault-8b-zh")).await;
    super::choose_language(client, "en", "#welcome-play b", "Play").await;
    set_viewport(client, 1280, 800).await;
}

/// Where the lesson's box and the board are in the viewport (CSS px), and the page's
/// scroll: measured by `fits`.
#[derive(serde::Deserialize, Default, Debug)]
struct Fit {
    place: String,
    scroll: f64,
    task_top: f64,
    task_bottom: f64,
    task_text_bottom: f64,
    board_top: f64,
    board_bottom: f64,
    board_width: f64,
    height: f64,
}

impl Fit {
    /// The box and the whole board in view, the page not scrolled.
    fn in_view(&self) -> bool {
        self.scroll == 0.0
            && self.task_top >= 0.0
            && self.board_top >= self.task_bottom
            && self.board_bottom <= self.height
    }
}

/// Opens every lesson's every task in turn by its address, and measures each (`Fit`)
/// three times: as set (`place`), with the box saying the task's hint (a wrong try,
/// `place wrong`), and with the box at its fullest (the praise, the lesson's end and
/// "Next", `place praise`).
async fn fits(client: &Client) -> Vec<Fit> {
    let v = client
        .execute_async(
            "const done = arguments[0];
             const { t } = Jungle.words;
             const $ = (id) => document.getElementById(id);
             const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
             // The board follows the box's size when the page has laid it out (the box's
             // resize is told after the next frame's layout).
             const measure = async (place) => {
               await sleep(60);
               const box = $('lesson').getBoundingClientRect(), board = $('board').getBoundingClientRect();
               return { place, scroll: scrollY, task_top: box.top, task_bottom: box.bottom,
                        task_text_bottom: $('lesson-task').getBoundingClientRect().bottom, board_top: board.top,
                        board_bottom: board.bottom, board_width: board.width, height: innerHeight };
             };
             (async () => {
               const out = [];
               for (const [i, l] of Jungle.lessons.list.entries()) {
                 for (let n = 1; n <= l.tasks.length; n++) {
                   const place = 'learn/' + (i + 1) + '/' + n;
                   location.hash = '#' + place;
                   const title = t('lesson.' + l.id + '.title'), step = t('lesson.step', { n, total: l.tasks.length });
                   for (let k = 0; k < 100 && !($('lesson-title').textContent === title && $('lesson-step').textContent === step); k++) await sleep(50);
                   out.push(await measure(place));
                   const feedback = $('lesson-feedback');
                   feedback.hidden = false;
                   feedback.className = 'wrong';
                   feedback.textContent = t('lesson.wrong', { hint: t('lesson.' + l.id + '.' + n + '.hint') });
                   out.push(await measure(place + ' wrong'));
                   feedback.className = 'praise';
                   feedback.textContent = t('lesson.praise.2') + ' ' + t('lesson.finished');
                   $('lesson-next').hidden = false;
                   $('lesson-next').textContent = t('lesson.nextLesson');
                   out.push(await measure(place + ' praise'));
                 }
               }
               return out;
             })().then(done, (e) => done(String(e)));",
            vec![],
        )
        .await
        .expect("measures");
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("fits {v}: {e}"))
}

/// In a lesson on a phone (400x860 and 390x844, in English, German and Chinese) the
/// lesson's box
/// and the whole board are in view without scrolling, every task of every lesson,
/// whatever the box says; on a small phone (320x480) the task's words are in view as
/// it is set (what the box says after a try may take a scroll), and the whole board
/// fits the screen (a scroll away), at least 18rem wide. With every panel open the
/// page is no wider than the phone (German's menus and table at 320). Screenshots
/// `fault-9-*`.
pub async fn the_lesson_fits_a_phone(url: &str, prefix: &str) {
    // Traditional Chinese takes the room of simplified; English and German the most.
    let all_languages: &[&str] = &["en", "de", "zh"];
    for (width, height, langs) in [
        (400, 860, all_languages),
        (390, 844, &["en", "de"]),
        (320, 480, &["en", "de"]),
    ] {
        let Some(browser) = super::Browser::open_phone(width, height).await else {
            return;
        };
        let client = &browser.client;
        for &lang in langs {
            open_as(client, url, "#learn/1/1", lang, "pictures-names").await;
            super::viewport_is(client, width, height).await;
            let all = fits(client).await;
            assert!(all.len() >= 60, "only {} places measured", all.len());
            let worst = all
                .iter()
                .min_by(|a, b| (a.height - a.board_bottom).total_cmp(&(b.height - b.board_bottom)))
                .expect("tasks");
            eprintln!(
                "{width}x{height} {lang}: {} places; the board's bottom closest to the screen's: {worst:?}",
                all.len()
            );
            let out: Vec<&Fit> = if width > 320 {
                all.iter().filter(|f| !f.in_view()).collect()
            } else {
                all.iter()
                    .filter(|f| {
                        f.scroll != 0.0
                            || (!f.place.contains(' ') && f.task_text_bottom > f.height)
                            || f.board_bottom - f.board_top > f.height
                            || f.board_width < 288.0
                    })
                    .collect()
            };
            assert!(
                out.is_empty(),
                "{width}x{height} {lang}: out of view: {out:#?}"
            );
            // Every panel open (settings, analysis): the page no wider than the phone.
            client
                .execute(
                    "for (const d of document.querySelectorAll('#panel details')) d.open = true",
                    vec![],
                )
                .await
                .expect("opens the panels");
            super::viewport_is(client, width, height).await;
            top_shot(
                client,
                &format!("{prefix}fault-9-lesson-{width}x{height}-{lang}"),
            )
            .await;
        }
        browser.close().await;
    }
}
