//! The Puzzles mode in the browser (page/puzzles.js), for both back ends: a puzzle
//! solved, a streak, a puzzle failed with its solution shown as arrows, the rating
//! moved each time, the phone layout; and the same screen in Chinese (simplified and
//! traditional) and German, with no English left and nothing that overflows.
//! Screenshots `<prefix>puzzle-*.png`.

use super::{
    choose_language, click_move, css, eval, latin_words, no_script_errors, set_viewport, shot,
    text, top_shot, until, Browser,
};
use fantoccini::Client;

/// The person's rating and streak as the page shows them (data attributes).
async fn rating_and_streak(client: &Client) -> (f64, u32) {
    eval(
        client,
        "return [Number(document.body.dataset.puzzleRating), Number(document.body.dataset.puzzleStreak)]",
    )
    .await
}

/// Opens the Puzzles mode by its button.
async fn click_puzzles(client: &Client) {
    css(client, "[data-open=\"puzzles\"]")
        .await
        .click()
        .await
        .expect("opens the puzzles");
}

/// Opens the Puzzles mode and solves the first puzzle offered by clicking its moves;
/// returns its id and the rating the page shows then (`data-puzzle-rating`).
pub async fn solve_the_first_puzzle(client: &Client) -> (String, f64) {
    click_puzzles(client).await;
    let (id, solution, before) = puzzle_ready(client, None).await;
    solve(client, &solution, before).await;
    (id, rating_and_streak(client).await.0)
}

/// Waits for a puzzle set up on the board (a new one when `previous` is given).
pub(super) async fn puzzle_ready(
    client: &Client,
    previous: Option<&str>,
) -> (String, Vec<String>, usize) {
    let not_previous = previous.map_or(String::new(), |id| {
        format!(" && Jungle.puzzles.current().id !== '{id}'")
    });
    until(
        client,
        "a puzzle on the board",
        &format!(
            "Jungle.puzzles.current() && document.body.dataset.puzzleState === 'playing'{not_previous}
             && Jungle.game.state().moves.length === Jungle.puzzles.current().before.length
             && Jungle.game.state().fen.split(' ')[1] === Jungle.puzzles.current().solver[0]"
        ),
    )
    .await;
    eval(
        client,
        "const p = Jungle.puzzles.current(); return [p.id, p.solution, p.before.length]",
    )
    .await
}

/// Plays the solution's moves by clicking, waiting for each reply.
async fn solve(client: &Client, solution: &[String], before: usize) {
    for (i, m) in solution.iter().enumerate().step_by(2) {
        click_move(client, &m[0..2], &m[2..4]).await;
        if i + 1 < solution.len() {
            until(
                client,
                "the board's reply",
                &format!(
                    "Jungle.game.state().moves.length === {} && !document.body.classList.contains('busy')",
                    before + i + 2
                ),
            )
            .await;
            // The reply is played after a short pause; wait until the person may move.
            until(
                client,
                "the person's turn",
                &format!("Jungle.game.state().fen.split(' ')[1] === Jungle.puzzles.current().solver[0] && Jungle.game.state().moves.length === {}", before + i + 2),
            )
            .await;
        }
    }
    until(
        client,
        "the puzzle solved",
        "document.body.dataset.puzzleState === 'solved'",
    )
    .await;
}

/// Plays a quiet move other than the solution's (no capture, no den) and waits until
/// the page said it is wrong and took it back; returns the move.
pub(super) async fn play_a_wrong_move(client: &Client, before: usize) -> String {
    let wrong: String = eval(
        client,
        "const p = Jungle.puzzles.current();
         for (const [from, tos] of Object.entries(Jungle.game.state().legal))
           for (const t of tos) {
             const to = t.to || t;
             if (from + to !== p.solution[0] && !['d1', 'd9'].includes(to)
                 && !Jungle.game.state().board[(to.charCodeAt(0) - 97) + 7 * (Number(to.slice(1)) - 1)])
               return from + to;
           }
         return ''",
    )
    .await;
    assert!(!wrong.is_empty(), "a quiet move other than the solution");
    click_move(client, &wrong[0..2], &wrong[2..4]).await;
    until(
        client,
        "the wrong move said",
        "document.body.dataset.puzzleState === 'wrong'",
    )
    .await;
    until(
        client,
        "the wrong move taken back",
        &format!("Jungle.game.state().ply === {before}"),
    )
    .await;
    wrong
}

/// Presses "Show solution": the whole `solution` (the person at its first move) as
/// arrows on the board.
async fn show_the_solution(client: &Client, solution: &[String]) {
    css(client, "#puzzle-solution")
        .await
        .click()
        .await
        .expect("solution");
    until(
        client,
        "the solution shown",
        "document.body.dataset.puzzleState === 'shown'",
    )
    .await;
    let arrows: Vec<String> = eval(
        client,
        "return Array.from(document.querySelectorAll('#arrows line'), (l) => l.dataset.move)",
    )
    .await;
    assert_eq!(arrows, solution, "the solution as arrows");
}

/// Goes through the Puzzles mode; `url` is the board's page, `prefix` the screenshots'.
pub async fn a_person_solves_puzzles(client: &Client, url: &str, prefix: &str) {
    set_viewport(client, 1280, 800).await;
    // A browser profile of its own: a person new to puzzles.
    client.goto(url).await.expect("page loads");
    css(client, "#board .cell[data-sq=\"g3\"][data-piece=\"R\"]").await;
    click_puzzles(client).await;
    let (id, solution, before) = puzzle_ready(client, None).await;
    let (rating, streak) = rating_and_streak(client).await;
    assert_eq!((rating, streak), (1500.0, 0), "a new person");
    // The themes tell how it is solved: they wait until it is over.
    assert_eq!(text(client, "#puzzle-about").await, format!("#{id}"));
    shot(client, &format!("{prefix}puzzle-1-start")).await;
    // The puzzle's side is at the bottom.
    let bottom_rank: String = eval(
        client,
        "const cells = document.querySelectorAll('#board .cell'); return cells[cells.length - 1].dataset.sq.slice(1)",
    )
    .await;
    let solver: String = eval(client, "return Jungle.puzzles.current().solver").await;
    assert_eq!(
        bottom_rank,
        if solver == "red" { "1" } else { "9" },
        "{solver} at the bottom"
    );

    // Solved: the rating rises, the streak starts.
    solve(client, &solution, before).await;
    let (after_solve, streak) = rating_and_streak(client).await;
    assert!(
        after_solve > rating,
        "solving {id} raised {rating} to {after_solve}"
    );
    assert_eq!(streak, 1);
    let about = text(client, "#puzzle-about").await;
    assert!(
        about.starts_with(&format!("#{id} · ")),
        "the themes: {about}"
    );
    shot(client, &format!("{prefix}puzzle-2-solved")).await;

    // A second one solved: a streak of 2.
    css(client, "#puzzle-next")
        .await
        .click()
        .await
        .expect("next");
    let (id2, solution, before) = puzzle_ready(client, Some(&id)).await;
    solve(client, &solution, before).await;
    let (after_two, streak) = rating_and_streak(client).await;
    assert_eq!(streak, 2, "two in a row");
    assert!(after_two > after_solve);
    let shown_streak: String = eval(
        client,
        "return document.getElementById('puzzle-streak').textContent",
    )
    .await;
    assert!(shown_streak.starts_with("2 "), "{shown_streak}");

    // Failed: a wrong move is said to be wrong and taken back; the solution is shown as
    // arrows; the rating falls and the streak ends.
    css(client, "#puzzle-next")
        .await
        .click()
        .await
        .expect("next");
    let (_, solution, before) = puzzle_ready(client, Some(&id2)).await;
    play_a_wrong_move(client, before).await;
    let feedback: String = eval(
        client,
        "return document.getElementById('puzzle-feedback').textContent",
    )
    .await;
    assert!(feedback.contains("not it"), "{feedback}");
    assert!(
        !eval::<bool>(
            client,
            "return document.getElementById('puzzle-retry').hidden"
        )
        .await
    );
    shot(client, &format!("{prefix}puzzle-3-wrong")).await;
    show_the_solution(client, &solution).await;
    until(
        client,
        "the rating after the failure",
        &format!("Number(document.body.dataset.puzzleRating) < {after_two}"),
    )
    .await;
    let (_, streak) = rating_and_streak(client).await;
    assert_eq!(streak, 0, "the streak ends");
    let kept: f64 = eval(
        client,
        "return JSON.parse(localStorage.getItem('jungle.puzzles')).rating.rating",
    )
    .await;
    assert!(
        kept > 1000.0 && kept < after_two,
        "the rating kept in the browser: {kept}"
    );
    shot(client, &format!("{prefix}puzzle-4-solution")).await;

    // A theme chosen: the next puzzle has it.
    css(client, "#puzzle-theme")
        .await
        .select_by_value("trap")
        .await
        .expect("a theme");
    until(
        client,
        "a puzzle of the theme",
        "Jungle.puzzles.current() && Jungle.puzzles.current().themes.includes('trap') && document.body.dataset.puzzleState === 'playing'",
    )
    .await;
    theme_menu_shot(client, &format!("{prefix}puzzle-7-themes")).await;

    // The phone: the board and the puzzle's box fit the width, the box under the board.
    set_viewport(client, 400, 860).await;
    let (page_width, board_bottom, box_top): (f64, f64, f64) = eval(
        client,
        "return [document.documentElement.scrollWidth,
                 document.getElementById('board').getBoundingClientRect().bottom,
                 document.getElementById('puzzle-box').getBoundingClientRect().top]",
    )
    .await;
    assert!(
        page_width <= 400.0,
        "the page is {page_width} px wide on a phone"
    );
    assert!(
        box_top >= board_bottom - 1.0,
        "the puzzle box under the board"
    );
    phone_shots(
        client,
        &format!("{prefix}puzzle-5-phone"),
        &format!("{prefix}puzzle-6-phone-box"),
    )
    .await;
}

/// The theme menu opened as a list for a screenshot (`name`): "any" and every theme
/// of the shipped set, each in words with its count (no catalogue key shown); then
/// closed again.
async fn theme_menu_shot(client: &Client, name: &str) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/puzzles.txt"))
        .expect("the shipped set");
    let set = jungle::puzzle::read_puzzles(&text).expect("the shipped set reads");
    let themes: std::collections::BTreeSet<&str> = set
        .iter()
        .flat_map(|p| p.themes.iter().map(|t| t.name()))
        .collect();
    let shown: Vec<String> = eval(
        client,
        "const s = document.getElementById('puzzle-theme'); s.size = s.options.length;
         return [...s.options].map((o) => o.textContent)",
    )
    .await;
    assert_eq!(shown.len(), themes.len() + 1, "{shown:?} for {themes:?}");
    assert!(
        shown.iter().all(|o| !o.contains("puzzle.")),
        "a key shown: {shown:?}"
    );
    assert!(
        shown[1..]
            .iter()
            .all(|o| o.chars().any(|c| c.is_ascii_digit())),
        "each theme with its count: {shown:?}"
    );
    shot(client, name).await;
    client
        .execute("document.getElementById('puzzle-theme').size = 0", vec![])
        .await
        .expect("closes the list");
}

/// Screenshots of a phone: the top of the page (`top`), then its end (`end`, the
/// puzzle's box); no script errors.
async fn phone_shots(client: &Client, top: &str, end: &str) {
    top_shot(client, top).await;
    client
        .execute("window.scrollTo(0, document.body.scrollHeight)", vec![])
        .await
        .expect("scrolls");
    shot(client, end).await;
    no_script_errors(client).await;
}

/// Everything a person reads on the puzzle screen (a script that sets `const text`):
/// the header, the board and the puzzle's box, the tooltips, the theme menu's
/// choices; but the puzzle's number (`02lqbwr`: letters and digits, no word).
const SCREEN_TEXT: &str = "const id = Jungle.puzzles.current() ? Jungle.puzzles.current().id : '';
    const text = [document.title, document.querySelector('header').innerText, document.getElementById('play').innerText,
       ...Array.from(document.querySelectorAll('header [title], #play [title]'), (e) => e.title),
       ...Array.from(document.querySelectorAll('#puzzle-theme option'), (o) => o.textContent)]
       .join(' ').split(id).join(' ');";

/// Fails on English left on the puzzle screen (any Latin word but names, for
/// Chinese), saying `when`.
async fn no_english(client: &Client, when: &str) {
    let left = latin_words(client, SCREEN_TEXT).await;
    assert_eq!(
        left,
        Vec::<String>::new(),
        "English on the puzzle screen {when}"
    );
}

/// "Next puzzle" after `previous`, then a wrong move, which the page answers with
/// `said` (`{move}`: the move); the new puzzle's id and solution.
async fn next_and_wrong(client: &Client, previous: &str, said: &str) -> (String, Vec<String>) {
    css(client, "#puzzle-next")
        .await
        .click()
        .await
        .expect("next");
    let (id, solution, before) = puzzle_ready(client, Some(previous)).await;
    let wrong = play_a_wrong_move(client, before).await;
    assert_eq!(
        text(client, "#puzzle-feedback").await,
        said.replace("{move}", &wrong)
    );
    (id, solution)
}

/// The English catalogue's words of the puzzle screen (`puzzle.*`) that the page shows
/// though the page's catalogue has none of them: English left on a German page.
async fn english_puzzle_words_left(client: &Client) -> Vec<String> {
    eval(
        client,
        &format!(
            "{SCREEN_TEXT}
             const words = (texts) => new Set(texts.flatMap((v) => (v.replace(/\\{{\\w+\\}}/g, ' ').match(/[A-Za-z]{{3,}}/g) || []).map((w) => w.toLowerCase())));
             const mine = words(Object.entries(Jungle.words.catalogues[Jungle.words.language()]).filter(([k]) => k.startsWith('puzzle.')).map(([, v]) => v));
             const english = words(Object.entries(Jungle.words.catalogues.en).filter(([k]) => k.startsWith('puzzle.')).map(([, v]) => v));
             const shown = words([text]);
             return [...shown].filter((w) => english.has(w) && !mine.has(w));"
        ),
    )
    .await
}

/// The parts of the puzzle's box whose words are wider than they are, and the page if
/// it is wider than the window.
async fn overflowing(client: &Client) -> Vec<String> {
    eval(
        client,
        "const out = [];
         for (const e of document.querySelectorAll('#puzzle-box, #puzzle-box *')) {
           if (e.checkVisibility() && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
             out.push((e.id || e.tagName) + ': ' + e.textContent.trim().slice(0, 40));
         }
         const box = document.getElementById('puzzle-box').getBoundingClientRect();
         for (const b of document.querySelectorAll('#puzzle-box button')) {
           const r = b.getBoundingClientRect();
           if (b.checkVisibility() && (r.right > box.right + 1 || r.left < box.left - 1)) out.push('outside the box: ' + b.id);
         }
         if (document.documentElement.scrollWidth > window.innerWidth) out.push('the page: ' + document.documentElement.scrollWidth);
         return out;",
    )
    .await
}

/// A request to the back end, answered with its status and the refusal as the page
/// words it (words.js's refusalText).
async fn refused(client: &Client, body: &str) -> (u16, String) {
    let answer = client
        .execute_async(
            &format!(
                "const done = arguments[0];
                 Jungle.link.backend.request('puzzle', {body}).then((a) => done([a.status, Jungle.words.refusalText(JSON.parse(a.text))]));"
            ),
            vec![],
        )
        .await
        .expect("script runs");
    serde_json::from_value(answer).unwrap_or_default()
}

/// Opens the board in a browser whose language is Chinese, then the Puzzles mode by
/// the header's button; the puzzle's id, solution and number of moves before it.
async fn open_puzzles_in_chinese(client: &Client, url: &str) -> (String, Vec<String>, usize) {
    open_puzzles(client, url, "document.documentElement.lang === 'zh-CN'").await
}

/// Opens the board, waits for it drawn and `also` (a condition), then opens the
/// Puzzles mode by the header's button; the puzzle's id, solution and number of moves
/// before it.
async fn open_puzzles(client: &Client, url: &str, also: &str) -> (String, Vec<String>, usize) {
    client.goto(url).await.expect("page loads");
    until(
        client,
        &format!("the board ({also})"),
        &format!(
            "Jungle.game.state() && document.querySelector('#board .cell[data-piece]') && {also}"
        ),
    )
    .await;
    css(client, "#puzzles-open")
        .await
        .click()
        .await
        .expect("opens the puzzles");
    puzzle_ready(client, None).await
}

/// The puzzle screen in Chinese, as a browser set to Chinese (zh-CN) opens it: a
/// damaged store refused by the back end and said in Chinese, a puzzle solved, one
/// failed (a wrong move, a hint, the solution as arrows), the back end's refusals
/// worded in Chinese, no English word left on the screen or in its tooltips and menu;
/// then traditional Chinese and German by the switch (German's long words fit their
/// buttons, desktop and phone), and the phone in a dark scheme. Screenshots
/// `<prefix>puzzle-zh-*.png`, `<prefix>puzzle-zh-hant.png`, `<prefix>puzzle-de*.png`.
pub async fn the_puzzles_in_chinese(url: &str, prefix: &str) {
    const CHINESE: [&str; 2] = ["--lang=zh-CN", "--accept-lang=zh-CN"];
    let Some(browser) = Browser::open_with(&CHINESE).await else {
        return;
    };
    let client = &browser.client;
    set_viewport(client, 1280, 800).await;
    client.goto(url).await.expect("page loads");
    // A damaged store (the page reads it when it loads): the back end refuses it with
    // a code, the page words it and starts afresh.
    client
        .execute(
            "localStorage.setItem('jungle.puzzles', '{\"rating\": 1}')",
            vec![],
        )
        .await
        .expect("stores");
    let (id, solution, before) = open_puzzles_in_chinese(client, url).await;
    until(
        client,
        "the damaged store said",
        "document.getElementById('puzzle-feedback').textContent === '这个浏览器里保存的谜题进度读不出来。你的谜题等级分从头开始。'",
    )
    .await;
    let task = text(client, "#puzzle-task").await;
    assert!(
        task.starts_with("红方走") || task.starts_with("蓝方走"),
        "the task in Chinese: {task}"
    );
    assert_eq!(text(client, "#puzzle-next").await, "下一题");
    assert_eq!(text(client, "#puzzle-about").await, format!("编号 {id}"));
    no_english(client, "at the start").await;
    // The puzzle's side plays at the bottom as "you"; the side that answers is the
    // puzzle's, named by its side alone.
    let (top, bottom) = (
        text(client, "#player-top .who").await,
        text(client, "#player-bottom .who").await,
    );
    assert!(
        (top == "蓝方" && bottom == "红方：你") || (top == "红方" && bottom == "蓝方：你"),
        "the players' labels: {top} / {bottom}"
    );
    shot(client, &format!("{prefix}puzzle-zh-1-start")).await;

    // Solved.
    solve(client, &solution, before).await;
    assert_eq!(text(client, "#puzzle-feedback").await, "解对了！");
    let about = text(client, "#puzzle-about").await;
    assert!(about.starts_with(&format!("编号 {id} · ")), "{about}");
    let difficulty = text(client, "#puzzle-difficulty").await;
    assert!(
        ["简单", "中等", "困难", "极难"]
            .iter()
            .any(|d| difficulty.starts_with(&format!("{d}（等级分 "))),
        "the difficulty and the puzzle's rating: {difficulty}"
    );
    let rating = text(client, "#puzzle-rating").await;
    assert!(rating.contains("（+"), "the rating's rise: {rating}");
    let streak = text(client, "#puzzle-streak").await;
    assert!(
        streak.starts_with("1（最多 1，解对 1，没解出 0）"),
        "{streak}"
    );
    no_english(client, "when solved").await;
    shot(client, &format!("{prefix}puzzle-zh-2-solved")).await;
    theme_menu_shot(client, &format!("{prefix}puzzle-zh-2-themes")).await;

    // Failed: a wrong move, a hint, the solution as arrows.
    let (id2, solution) = next_and_wrong(client, &id, "{move} 不对。再试一次，或者看答案。").await;
    no_english(client, "after a wrong move").await;
    css(client, "#puzzle-hint")
        .await
        .click()
        .await
        .expect("hint");
    // The hint is the judge's answer: it arrives after the click.
    until(
        client,
        "the hint",
        "document.getElementById('puzzle-feedback').textContent.startsWith('该走')",
    )
    .await;
    let hint = text(client, "#puzzle-feedback").await;
    let from = &solution[0][0..2];
    assert!(
        hint.starts_with(&format!("该走 {from} 上你的"))
            && ["鼠", "猫", "狗", "狼", "豹", "虎", "狮", "象"]
                .iter()
                .any(|a| hint.ends_with(&format!("{a}。"))),
        "the hint names the animal: {hint}"
    );
    show_the_solution(client, &solution).await;
    assert_eq!(
        text(client, "#puzzle-feedback").await,
        format!("答案：{}。", solution.join(" "))
    );
    let rating = text(client, "#puzzle-rating").await;
    assert!(rating.contains("（−"), "the rating's fall: {rating}");
    let themes: Vec<String> = eval(
        client,
        "return Array.from(document.querySelectorAll('#puzzle-theme option'), (o) => o.textContent)",
    )
    .await;
    assert_eq!(themes.first().map(String::as_str), Some("全部"));
    assert!(
        themes.iter().any(|t| t.starts_with("攻入兽穴（")),
        "the themes in Chinese: {themes:?}"
    );
    no_english(client, "with the solution shown").await;
    shot(client, &format!("{prefix}puzzle-zh-3-solution")).await;

    // The back end's refusals, worded by the page.
    assert_eq!(
        refused(client, "{theme: 'chess'}").await,
        (400, "没有“chess”这个谜题主题。".to_string())
    );
    assert_eq!(
        refused(client, "{finished: {id: 'zzz', solved: true}}").await,
        (400, "没有编号为“zzz”的谜题。".to_string())
    );

    // Traditional characters, by the switch: the box says the same again.
    choose_language(client, "zh-Hant", "#puzzle-next", "下一題").await;
    assert_eq!(text(client, "#puzzle-box dt").await, "你的等級分");
    let difficulty = text(client, "#puzzle-difficulty").await;
    assert!(difficulty.contains("（等級分 "), "{difficulty}");
    no_english(client, "in traditional characters").await;
    shot(client, &format!("{prefix}puzzle-zh-hant")).await;
    theme_menu_shot(client, &format!("{prefix}puzzle-zh-hant-themes")).await;

    // German: the long words fit, desktop and phone.
    choose_language(client, "de", "#puzzle-next", "Nächste Aufgabe").await;
    next_and_wrong(
        client,
        &id2,
        "{move} ist es nicht. Versuch es nochmal oder zeig die Lösung.",
    )
    .await;
    assert_eq!(
        english_puzzle_words_left(client).await,
        Vec::<String>::new(),
        "English on the German page"
    );
    assert_eq!(
        overflowing(client).await,
        Vec::<String>::new(),
        "German that does not fit"
    );
    theme_menu_shot(client, &format!("{prefix}puzzle-de-themes")).await;
    shot(client, &format!("{prefix}puzzle-de")).await;
    set_viewport(client, 400, 860).await;
    assert_eq!(
        overflowing(client).await,
        Vec::<String>::new(),
        "German that does not fit a phone"
    );
    client
        .execute(
            "document.getElementById('puzzle-box').scrollIntoView()",
            vec![],
        )
        .await
        .expect("scrolls");
    shot(client, &format!("{prefix}puzzle-de-phone")).await;
    no_script_errors(client).await;
    browser.close().await;

    // The phone in a dark scheme, in Chinese.
    let Some(browser) = Browser::open_phone_with(
        &[
            CHINESE[0],
            CHINESE[1],
            "--blink-settings=preferredColorScheme=0",
        ],
        400,
        860,
    )
    .await
    else {
        return;
    };
    let client = &browser.client;
    open_puzzles_in_chinese(client, url).await;
    super::viewport_is(client, 400, 860).await;
    let dark: bool = eval(
        client,
        "return matchMedia('(prefers-color-scheme: dark)').matches",
    )
    .await;
    assert!(dark, "the dark scheme asked for");
    no_english(client, "on the phone").await;
    assert_eq!(
        overflowing(client).await,
        Vec::<String>::new(),
        "Chinese that does not fit a phone"
    );
    phone_shots(
        client,
        &format!("{prefix}puzzle-zh-phone-dark"),
        &format!("{prefix}puzzle-zh-phone-dark-box"),
    )
    .await;
    browser.close().await;
}

/// Delays, in a page opened after this, the answers of `judge` requests by `answers_ms`
/// and the states of the event stream by `events_ms` (`jungle gui`'s transport: fetch
/// and Server-Sent Events), so that a test chooses which comes first: the state, or
/// the answer that the page awaits before it turns the board. The delays can be changed
/// on the page as `window.jungleDelay`.
pub async fn delay_transport(client: &Client, answers_ms: u32, events_ms: u32) {
    let script = format!(
        "window.jungleDelay = {{ answers: {answers_ms}, events: {events_ms} }};
         const wait = (ms) => new Promise((r) => setTimeout(r, ms));
         const fetchNow = window.fetch.bind(window);
         window.fetch = async (url, init) => {{
           const answer = await fetchNow(url, init);
           if (/api\\/judge$/.test(String(url))) await wait(window.jungleDelay.answers);
           return answer;
         }};
         const Source = window.EventSource;
         window.EventSource = function (url, init) {{
           const source = new Source(url, init);
           const listen = source.addEventListener.bind(source);
           source.addEventListener = (name, f, o) => listen(name, name === 'state'
             ? (e) => {{ const ms = window.jungleDelay.events; if (ms) setTimeout(() => f(e), ms); else f(e); }}
             : f, o);
           return source;
         }};"
    );
    super::cdp(
        client,
        "Page.addScriptToEvaluateOnNewDocument",
        serde_json::json!({ "source": script }),
    )
    .await;
}

/// The board of each new puzzle is drawn whole (animals, river, traps, dens), the
/// puzzle's side at the bottom named "you", whichever comes first under `jungle gui`:
/// the state the event stream brings, or the answer of the request that set the
/// puzzle (issue 60: the board stayed empty when the state came first, and the labels
/// named the wrong side). Both orders, forced by `delay_transport`, over puzzles for
/// both sides. Screenshots `<prefix>puzzle-order-*.png`.
pub async fn the_board_is_drawn_in_either_order(url: &str, prefix: &str) {
    let Some(browser) = Browser::open().await else {
        return;
    };
    let client = &browser.client;
    set_viewport(client, 1280, 800).await;
    delay_transport(client, 600, 0).await;
    let (mut id, _, _) = open_puzzles(client, url, "true").await;
    for (order, answers, events) in [("state-first", 600, 0), ("answer-first", 0, 600)] {
        client
            .execute(
                &format!("window.jungleDelay = {{ answers: {answers}, events: {events} }}"),
                vec![],
            )
            .await
            .expect("sets the delays");
        let mut solvers = std::collections::BTreeSet::new();
        for n in 0..12 {
            if n > 0 {
                css(client, "#puzzle-next")
                    .await
                    .click()
                    .await
                    .expect("next");
                id = puzzle_ready(client, Some(&id)).await.0;
            }
            // Drawn once the slower of the two has come: the board as the state says.
            until(
                client,
                &format!("puzzle {id} drawn ({order})"),
                "(() => { const s = Jungle.game.state(), p = Jungle.puzzles.current();
                 const animals = s.board.filter((x) => x).length;
                 const bottom = document.querySelector('#player-bottom .who');
                 const top = document.querySelector('#player-top .who');
                 return document.querySelectorAll('#board .cell[data-piece]').length === animals
                   && document.querySelectorAll('#board .cell.water').length === 12
                   && document.querySelectorAll('#board .cell.trap').length === 6
                   && document.querySelectorAll('#board .cell.den').length === 2
                   && bottom.classList.contains(p.solver) && top.classList.contains(p.solver === 'red' ? 'blue' : 'red')
                   && bottom.textContent.includes('You') && !top.textContent.includes('You'); })()",
            )
            .await;
            let solver: String = eval(client, "return Jungle.puzzles.current().solver").await;
            if solvers.insert(solver.clone()) {
                shot(client, &format!("{prefix}puzzle-order-{order}-{solver}")).await;
            }
            if solvers.len() == 2 && n >= 3 {
                break;
            }
        }
        assert_eq!(
            solvers.len(),
            2,
            "puzzles for both sides ({order}): {solvers:?}"
        );
    }
    no_script_errors(client).await;
    browser.close().await;
}
