//! A puzzle and a lesson driven through the board app as a page drives it (`POST
//! judge`, `move`, `puzzle`), without a browser: right moves and the board's reply,
//! a wrong move, a move the rules refuse, the hint, the solution, how the puzzle
//! counts and the rating's change; a lesson's wrong try, its task set again, a refused
//! try and the right one. The view's `judge` is what the page draws.

use jungle_app::api::{self, Answer, Refusal};
use jungle_app::controller::{Config, Controller};
use jungle_app::exercise::Recorder;
use jungle_app::judge::{lessons, JudgeView};
use jungle_app::puzzles::shipped;
use jungle_app::view::View;
use jungle_core::board::Move;
use jungle_core::puzzle::verify::wins_at_once;
use jungle_core::puzzle::{Goal, Puzzle};

fn app() -> Controller<Recorder> {
    let config = Config {
        names: ["Jungle".into(), "Jungle-2".into(), "Jungle".into()],
        watch_clock: (60_000, 600),
        movetime_ms: 1000,
    };
    Controller::new(config, Recorder::default())
}

/// `POST /api/<name>` with `body`: the state shown, or the refusal.
fn post(c: &mut Controller<Recorder>, name: &str, body: &str) -> Result<View, Refusal> {
    match c.handle(api::parse(name, body)?)? {
        Answer::State(view) => Ok(*view),
        other => panic!("{name} {body}: not a state: {other:?}"),
    }
}

fn judge(view: &View) -> &JudgeView {
    view.judge.as_ref().expect("a task on the board")
}

fn try_move(c: &mut Controller<Recorder>, m: &str) -> Result<View, Refusal> {
    post(c, "move", &format!(r#"{{"move":"{m}"}}"#))
}

fn code(refusal: &Refusal) -> &str {
    refusal.code.as_ref().map_or("", |c| c.key)
}

/// A puzzle of the shipped set to win, in more than one move of the person's.
fn long_puzzle(skip: usize) -> &'static Puzzle {
    shipped()
        .iter()
        .filter(|p| p.goal == Goal::Win && p.solution.len() >= 3)
        .nth(skip)
        .expect("a puzzle of two moves or more")
}

/// A legal move on the board that is not the solution's next and does not win at once.
fn a_wrong_move(c: &Controller<Recorder>, right: Move) -> Move {
    let game = c.line().game();
    let winning = wins_at_once(game);
    game.legal_moves()
        .as_slice()
        .iter()
        .copied()
        .find(|&m| m != right && !winning.contains(&m))
        .expect("a wrong move")
}

#[test]
fn a_puzzle_solved_through_the_app() {
    let mut c = app();
    let p = long_puzzle(0);
    let view = post(
        &mut c,
        "judge",
        &format!(r#"{{"do":"puzzle","id":"{}"}}"#, p.id),
    )
    .expect("the puzzle is set");
    assert_eq!(
        view.moves.len(),
        p.before.len(),
        "the moves before it played"
    );
    assert_eq!(view.players, api::Players::Both);
    let j = judge(&view);
    assert_eq!((j.kind, j.id.as_str()), ("puzzle", p.id.as_str()));
    assert_eq!(j.solver, p.solver().name());
    assert_eq!((j.verdict.clone(), j.over, j.outcome), (None, false, None));

    // A move the rules refuse: refused with its code, nothing judged.
    let refusal = try_move(&mut c, "a1a9").expect_err("not a move of the board");
    assert_eq!(code(&refusal), "illegalBecause");
    assert_eq!(c.line().moves().len(), p.before.len());
    assert_eq!(judge(&jungle_app::view::state(&c)).outcome, None);

    let mut at = 0;
    while at < p.solution.len() {
        let right = p.solution[at].to_string();
        let view = try_move(&mut c, &right).expect("the right move");
        let j = judge(&view);
        let verdict = j.verdict.as_ref().expect("a verdict");
        assert_eq!(verdict.tried, right);
        if at + 1 == p.solution.len() {
            assert_eq!(verdict.answer, "solved");
            assert_eq!((j.over, j.outcome), (true, Some(true)), "a clean solve");
            break;
        }
        let reply = p.solution[at + 1].to_string();
        assert_eq!(verdict.answer, "right");
        assert_eq!(verdict.reply.as_deref(), Some(reply.as_str()));
        assert_eq!(j.reply.as_deref(), Some(reply.as_str()), "the reply due");
        assert_eq!(view.moves.last(), Some(&right), "the person's move played");
        // The board's side may not be moved for it while its reply is due.
        let early = try_move(&mut c, &reply).expect_err("the reply is the board's");
        assert_eq!(code(&early), "puzzleReply");
        let view = post(&mut c, "judge", r#"{"do":"reply"}"#).expect("the reply");
        assert_eq!(view.moves.last(), Some(&reply));
        assert_eq!(judge(&view).reply, None);
        assert_eq!(
            judge(&view).verdict,
            None,
            "the answer went with its request"
        );
        at += 2;
    }
    // Over: no more tries, hints or solutions.
    assert_eq!(
        code(&post(&mut c, "judge", r#"{"do":"hint"}"#).expect_err("over")),
        "puzzleOver"
    );
    assert_eq!(
        code(&post(&mut c, "judge", r#"{"do":"solution"}"#).expect_err("over")),
        "puzzleOver"
    );
    // Counted as the page counts it: the rating rises.
    let answer = c
        .handle(
            api::parse(
                "puzzle",
                &format!(r#"{{"finished":{{"id":"{}","solved":true}}}}"#, p.id),
            )
            .expect("a request"),
        )
        .expect("counted");
    let Answer::Json(answer) = answer else {
        panic!("{answer:?}")
    };
    assert!(answer["change"].as_i64() > Some(0), "{answer}");
}

#[test]
fn a_puzzle_failed_through_the_app_with_a_hint_and_the_solution() {
    let mut c = app();
    let p = long_puzzle(1);
    post(
        &mut c,
        "judge",
        &format!(r#"{{"do":"puzzle","id":"{}"}}"#, p.id),
    )
    .expect("the puzzle is set");
    // Wrong: said, the board as it was, the puzzle counts as not solved.
    let wrong = a_wrong_move(&c, p.solution[0]).to_string();
    let view = try_move(&mut c, &wrong).expect("a legal move");
    let j = judge(&view);
    let verdict = j.verdict.as_ref().expect("a verdict");
    assert_eq!(
        (verdict.answer, verdict.tried.as_str()),
        ("wrong", wrong.as_str())
    );
    assert_eq!(
        view.moves.len(),
        p.before.len(),
        "the wrong move not played"
    );
    assert_eq!((j.over, j.outcome), (false, Some(false)));
    // The hint: the animal to move and its square.
    let view = post(&mut c, "judge", r#"{"do":"hint"}"#).expect("a hint");
    let hint = judge(&view).hint.as_ref().expect("the hint");
    let from = p.solution[0].from();
    assert_eq!(hint.square, from.to_string());
    let animal = c.line().position().mover(p.solution[0]).name();
    assert_eq!(hint.animal, animal);
    // The first move found, then the solution shown: the rest of the line.
    try_move(&mut c, &p.solution[0].to_string()).expect("right");
    post(&mut c, "judge", r#"{"do":"reply"}"#).expect("the reply");
    let view = post(&mut c, "judge", r#"{"do":"solution"}"#).expect("the solution");
    let j = judge(&view);
    let rest: Vec<String> = p.solution[2..].iter().map(Move::to_string).collect();
    assert_eq!(j.solution.as_deref(), Some(&rest[..]));
    assert_eq!((j.over, j.outcome), (true, Some(false)));
    let after = try_move(&mut c, &p.solution[2].to_string()).expect_err("over");
    assert_eq!(code(&after), "puzzleOver");
    // Left: the board is an ordinary game of two people again.
    let view = post(&mut c, "judge", r#"{"do":"leave"}"#).expect("left");
    assert!(view.judge.is_none());
    let view = try_move(&mut c, &p.solution[2].to_string()).expect("an ordinary move");
    assert_eq!(view.moves.last(), Some(&p.solution[2].to_string()));
    // No puzzle: nothing to hint.
    let none = post(&mut c, "judge", r#"{"do":"hint"}"#).expect_err("no puzzle");
    assert_eq!(code(&none), "noPuzzle");
    let unknown = post(&mut c, "judge", r#"{"do":"puzzle","id":"zzz"}"#).expect_err("unknown");
    assert_eq!(code(&unknown), "puzzleUnknown");
}

#[test]
fn a_lesson_judged_through_the_app() {
    let mut c = app();
    let set = |c: &mut Controller<Recorder>, task: usize| {
        post(
            c,
            "judge",
            &format!(r#"{{"do":"lesson","id":"rat","task":{task}}}"#),
        )
        .expect("the task is set")
    };
    let view = set(&mut c, 0);
    let j = judge(&view);
    assert_eq!((j.kind, j.id.as_str(), j.task), ("lesson", "rat", Some(0)));
    assert_eq!(view.players, api::Players::Both);
    // A wrong try is played and said wrong; the task is then set again from its start.
    let view = try_move(&mut c, "d4d3").expect("legal");
    assert_eq!(
        judge(&view).verdict.as_ref().map(|v| v.answer),
        Some("wrong")
    );
    assert_eq!(view.moves, ["d4d3"]);
    // Until it is set again, the board is two people's.
    let view = try_move(&mut c, "g9f9").expect("an ordinary move");
    assert_eq!(judge(&view).verdict, None);
    let view = post(&mut c, "judge", r#"{"do":"again"}"#).expect("again");
    assert!(view.moves.is_empty() && !view.can_redo);
    let view = try_move(&mut c, "d4d5").expect("right");
    assert_eq!(
        judge(&view).verdict.as_ref().map(|v| v.answer),
        Some("solved")
    );
    // The second task: the elephant may not take the rat (refused with its code); the
    // cat may.
    set(&mut c, 1);
    let refused = try_move(&mut c, "d4d5").expect_err("the elephant takes no rat");
    assert_eq!(code(&refused), "illegalBecause");
    let why = refused
        .code
        .as_ref()
        .and_then(|c| c.args.iter().find(|(k, _)| *k == "why"));
    assert_eq!(why.map(|(_, v)| v.as_str()), Some("elephantAndRat"));
    let view = try_move(&mut c, "d6d5").expect("right");
    assert_eq!(
        judge(&view).verdict.as_ref().map(|v| v.answer),
        Some("solved")
    );
    // A lesson has no puzzle's hint; an unknown task is refused.
    let hint = post(&mut c, "judge", r#"{"do":"hint"}"#).expect_err("no puzzle");
    assert_eq!(code(&hint), "noPuzzle");
    let unknown =
        post(&mut c, "judge", r#"{"do":"lesson","id":"rat","task":2}"#).expect_err("two tasks");
    assert_eq!(code(&unknown), "lessonUnknown");
    let last = format!(r#"{{"do":"lesson","id":"rat","task":{}}}"#, usize::MAX);
    let unknown = post(&mut c, "judge", &last).expect_err("no such task");
    let args = unknown.code.map(|c| c.args).unwrap_or_default();
    assert_eq!(
        args[1].1,
        (usize::MAX as u128 + 1).to_string(),
        "counted from 1"
    );
    // A new game ends the lesson.
    let view = post(&mut c, "new", r#"{"players":"both"}"#).expect("a new game");
    assert!(view.judge.is_none());
    assert_eq!(
        code(&post(&mut c, "judge", r#"{"do":"again"}"#).expect_err("no task")),
        "noTask"
    );
}

#[test]
fn an_anti_chase_lesson_refuses_with_the_rule() {
    let mut c = app();
    let view =
        post(&mut c, "judge", r#"{"do":"lesson","id":"chase","task":0}"#).expect("the task is set");
    assert_eq!(view.moves.len(), 12, "the moves before the task");
    let refused = try_move(&mut c, "a3a2").expect_err("rule 7-3");
    assert_eq!(code(&refused), "chase73");
    let view = try_move(&mut c, "a3a4").expect("right");
    assert_eq!(
        judge(&view).verdict.as_ref().map(|v| v.answer),
        Some("solved")
    );
}

#[test]
fn every_lesson_reads_and_its_moves_solve_it() {
    assert_eq!(lessons().len(), 10);
    for lesson in lessons() {
        for (i, task) in lesson.tasks.iter().enumerate() {
            let mut c = app();
            let body = format!(r#"{{"do":"lesson","id":"{}","task":{i}}}"#, lesson.id);
            post(&mut c, "judge", &body).expect("the task is set");
            for m in &task.accept {
                let view = try_move(&mut c, &m.to_string()).expect("legal");
                assert_eq!(
                    judge(&view).verdict.as_ref().map(|v| v.answer),
                    Some("solved"),
                    "{} task {i}: {m}",
                    lesson.id
                );
                post(&mut c, "judge", r#"{"do":"again"}"#).expect("again");
            }
        }
    }
}
