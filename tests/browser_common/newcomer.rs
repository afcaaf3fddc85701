//! The faults a newcomer met on the board (issue 60), each checked where a person sees
//! it, under `jungle gui` (tests/gui_browser.rs). Screenshots are named with the
//! caller's prefix and `newcomer-`.

use super::{board_ready, css, eval, open_lesson, shot, until};
use fantoccini::Client;

/// "New game with these rules" inside a lesson: the lesson makes way for the new game
/// (its box gone, the players named again), and the game set aside for the lesson
/// does not come back over it.
pub async fn a_new_game_ends_the_lesson(client: &Client, url: &str, prefix: &str) {
    client.goto(url).await.expect("page loads");
    board_ready(client).await;
    open_lesson(
        client,
        "steps",
        "d3",
        "D",
        &format!("{prefix}newcomer-1-lessons"),
    )
    .await;
    until(
        client,
        "the task ready",
        "document.body.dataset.lesson === 'waiting'",
    )
    .await;
    client
        .execute("document.getElementById('apply-rules').click()", vec![])
        .await
        .expect("new game with these rules");
    until(
        client,
        "the lesson gone for the new game",
        "document.getElementById('lesson').hidden && !document.body.classList.contains('in-lesson')
         && document.body.dataset.lesson === undefined
         && Jungle.game.state().fen.startsWith('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r')
         && !Jungle.game.state().judge",
    )
    .await;
    let (top, bottom, top_seen, bottom_seen): (String, String, bool, bool) = eval(
        client,
        "const who = (id) => document.querySelector('#' + id + ' .who');
         const seen = (el) => getComputedStyle(el).visibility === 'visible' && el.offsetParent !== null;
         return [who('player-top').textContent, who('player-bottom').textContent,
                 seen(who('player-top')), seen(who('player-bottom'))]",
    )
    .await;
    assert!(
        top_seen && bottom_seen && top.starts_with("Blue") && bottom.starts_with("Red"),
        "the players after the lesson: '{top}' ({top_seen}) / '{bottom}' ({bottom_seen})"
    );
    shot(client, &format!("{prefix}newcomer-2-new-game-after-lesson")).await;
    // A reload keeps the new game: no lesson, no game of before coming back.
    client.refresh().await.expect("reloads");
    board_ready(client).await;
    let kept: bool = eval(
        client,
        "return sessionStorage.getItem('jungle.aside') !== null",
    )
    .await;
    assert!(!kept, "the game set aside for the lesson is still kept");
}

/// A refused move names the rule it breaks, in the page's language: the wolf onto the
/// river (only the rat swims), a step too far, the other side's animal; and the
/// browser logs no failed load for it.
pub async fn a_refused_move_names_its_rule(client: &Client, url: &str, prefix: &str) {
    client.goto(url).await.expect("page loads");
    board_ready(client).await;
    for (mv, said) in [
        (
            "c3c4",
            "'c3c4' is not a legal move: only the Rat swims, so the Wolf may not enter the river.",
        ),
        (
            "a3a5",
            "'a3a5' is not a legal move: the Elephant moves one square at a time, up, down, left or right.",
        ),
        (
            "a7a6",
            "'a7a6' is not a legal move: the Rat there is Blue's.",
        ),
    ] {
        let input = css(client, "#move-input").await;
        input.clear().await.expect("clears");
        input.send_keys(&format!("{mv}\n")).await.expect("types");
        until(
            client,
            &format!("the refusal of {mv}"),
            &format!("!document.getElementById('notice').hidden && document.getElementById('notice').textContent.includes('{mv}')"),
        )
        .await;
        let notice: String = eval(client, "return document.getElementById('notice').textContent").await;
        assert_eq!(notice, said);
    }
    // A refusal is the answer to a good request: no load failed (the browser would log
    // a failed load as a console error).
    let failed: Vec<String> = eval(
        client,
        "return performance.getEntriesByType('resource').filter((e) => e.responseStatus >= 400).map((e) => e.name + ' ' + e.responseStatus)",
    )
    .await;
    assert!(failed.is_empty(), "failed loads: {failed:?}");
    shot(client, &format!("{prefix}newcomer-3-refused-move")).await;
    super::choose_language(client, "zh", "#new", "新的一局").await;
    let input = css(client, "#move-input").await;
    input.clear().await.expect("clears");
    input.send_keys("c3c4\n").await.expect("types");
    until(
        client,
        "the refusal in Chinese",
        "document.getElementById('notice').textContent === '“c3c4”不能走：只有鼠会游泳，狼不能下河。'",
    )
    .await;
    shot(client, &format!("{prefix}newcomer-4-refused-move-zh")).await;
    super::choose_language(client, "en", "#new", "New game").await;
}

/// On phones, every animal's name stays within its disc (Elephant and Leopard spilled
/// out), in English and German; "How to play" keeps its close button beside the title
/// and each language tab on one line ("简体中文" broke in two).
pub async fn what_spilled_on_a_phone(url: &str, prefix: &str) {
    for (width, height) in [(390, 844), (400, 860), (360, 740)] {
        let Some(browser) = super::Browser::open_phone(width, height).await else {
            return;
        };
        let client = &browser.client;
        for lang in ["en", "de"] {
            super::faults::open_as(client, url, "", lang, "pictures-names").await;
            let spilled: Vec<String> = eval(
                client,
                "const out = [];
                 for (const piece of document.querySelectorAll('#board .piece')) {
                   const name = piece.querySelector('.name');
                   if (!name.textContent) continue;
                   const range = document.createRange();
                   range.selectNodeContents(name);
                   const t = range.getBoundingClientRect(), d = piece.getBoundingClientRect();
                   // The disc's half width at the height of the name's middle.
                   const r = d.width / 2, dy = (t.top + t.bottom) / 2 - (d.top + d.bottom) / 2;
                   const half = Math.sqrt(Math.max(0, r * r - dy * dy));
                   const cx = (d.left + d.right) / 2;
                   if (t.left < cx - half - 1 || t.right > cx + half + 1)
                     out.push(name.textContent + ' ' + Math.round(t.width) + 'px in ' + Math.round(2 * half) + 'px');
                 }
                 return out;",
            )
            .await;
            assert!(
                spilled.is_empty(),
                "{width}x{height} {lang}: names out of their discs: {spilled:?}"
            );
            if width == 390 {
                shot(client, &format!("{prefix}newcomer-5-names-{lang}-{width}")).await;
            }
        }
        super::open_rules(client).await;
        let (beside, broken): (bool, Vec<String>) = eval(
            client,
            "const h = document.getElementById('rules-title').getBoundingClientRect();
             const x = document.querySelector('#rules-dialog .close').getBoundingClientRect();
             const broken = Array.from(document.querySelectorAll('#rules-dialog .tabs button'), (b) => {
               const range = document.createRange();
               range.selectNodeContents(b);
               const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
               return lines.size > 1 ? b.textContent : null;
             }).filter((b) => b);
             return [x.top < h.bottom && x.bottom > h.top, broken];",
        )
        .await;
        assert!(
            beside,
            "{width}x{height}: the close button is not beside the title"
        );
        assert!(
            broken.is_empty(),
            "{width}x{height}: tabs on two lines: {broken:?}"
        );
        if width == 390 {
            shot(client, &format!("{prefix}newcomer-6-rules-{width}")).await;
        }
        browser.close().await;
    }
}
