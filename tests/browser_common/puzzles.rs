//! The Puzzles mode in the browser (page/puzzles.js), for both back ends: a puzzle
//! solved, a streak, a puzzle failed with its solution shown as arrows, the rating
//! moved each time, the phone layout. Screenshots `<prefix>puzzle-*.png`.

use super::{click_move, css, eval, no_script_errors, set_viewport, shot, until};
use fantoccini::Client;

/// The person's rating and streak as the page shows them (data attributes).
async fn rating_and_streak(client: &Client) -> (f64, u32) {
    eval(
        client,
        "return [Number(document.body.dataset.puzzleRating), Number(document.body.dataset.puzzleStreak)]",
    )
    .await
}

/// Waits for a puzzle set up on the board (a new one when `previous` is given).
async fn puzzle_ready(client: &Client, previous: Option<&str>) -> (String, Vec<String>, usize) {
    let not_previous = previous.map_or(String::new(), |id| {
        format!(" && Puzzles.current().id !== '{id}'")
    });
    until(
        client,
        "a puzzle on the board",
        &format!(
            "Puzzles.current() && document.body.dataset.puzzleState === 'playing'{not_previous}
             && state.moves.length === Puzzles.current().before.length
             && state.fen.split(' ')[1] === Puzzles.current().solver[0]"
        ),
    )
    .await;
    eval(
        client,
        "const p = Puzzles.current(); return [p.id, p.solution, p.before.length]",
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
                    "state.moves.length === {} && !document.body.classList.contains('busy')",
                    before + i + 2
                ),
            )
            .await;
            // The reply is played after a short pause; wait until the person may move.
            until(
                client,
                "the person's turn",
                &format!("state.fen.split(' ')[1] === Puzzles.current().solver[0] && state.moves.length === {}", before + i + 2),
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

/// Goes through the Puzzles mode; `url` is the board's page, `prefix` the screenshots'.
pub async fn a_person_solves_puzzles(client: &Client, url: &str, prefix: &str) {
    set_viewport(client, 1280, 800).await;
    // A browser profile of its own: a person new to puzzles.
    client.goto(url).await.expect("page loads");
    css(client, "#board .cell[data-sq=\"g3\"][data-piece=\"R\"]").await;
    css(client, "[data-open=\"puzzles\"]")
        .await
        .click()
        .await
        .expect("opens the puzzles");
    let (id, solution, before) = puzzle_ready(client, None).await;
    let (rating, streak) = rating_and_streak(client).await;
    assert_eq!((rating, streak), (1500.0, 0), "a new person");
    shot(client, &format!("{prefix}puzzle-1-start")).await;
    // The puzzle's side is at the bottom.
    let bottom_rank: String = eval(
        client,
        "const cells = document.querySelectorAll('#board .cell'); return cells[cells.length - 1].dataset.sq.slice(1)",
    )
    .await;
    let solver: String = eval(client, "return Puzzles.current().solver").await;
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
    let wrong: String = eval(
        client,
        "const p = Puzzles.current();
         for (const [from, tos] of Object.entries(state.legal))
           for (const t of tos) {
             const to = t.to || t;
             if (from + to !== p.solution[0] && !['d1', 'd9'].includes(to)
                 && !state.board[(to.charCodeAt(0) - 97) + 7 * (Number(to.slice(1)) - 1)])
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
        &format!("state.ply === {before}"),
    )
    .await;
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
        "Puzzles.current() && Puzzles.current().themes.includes('trap') && document.body.dataset.puzzleState === 'playing'",
    )
    .await;

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
    shot(client, &format!("{prefix}puzzle-5-phone")).await;
    client
        .execute("window.scrollTo(0, document.body.scrollHeight)", vec![])
        .await
        .expect("scrolls");
    shot(client, &format!("{prefix}puzzle-6-phone-box")).await;
    no_script_errors(client).await;
}
