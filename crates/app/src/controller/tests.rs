//! The controller without a browser or an engine: a fake host keeps what it is asked
//! to send, and the tests answer for the engines. These are the paths the browser
//! tests walk (`tests/gui_browser.rs`), checked here in milliseconds.

use super::*;
use crate::api::{
    AnalysisRequest, GotoRequest, LoadRequest, MoveRequest, NewGameRequest, ReviewRequest,
    SettingsRequest,
};
use crate::engines::SECOND;

/// Keeps the requests to the engines and the events to the pages; holds endgame
/// tables when a test gives it some.
#[derive(Default)]
struct FakeHost {
    requests: Vec<(usize, EngineRequest)>,
    events: Vec<Event>,
    tables: Option<crate::review::ReviewTables>,
}

impl Host for FakeHost {
    fn to_engine(&mut self, slot: usize, request: EngineRequest) {
        self.requests.push((slot, request));
    }

    fn publish(&mut self, event: Event) {
        self.events.push(event);
    }

    fn table_values(&mut self, game: &Game) -> Option<Vec<jungle_core::tb::MoveValue>> {
        self.tables.as_mut()?.values(game)
    }
}

const ELO: &str = "name UCI_Elo type spin default 1016 min 1016 max 2196";

fn controller() -> Controller<FakeHost> {
    let config = Config {
        names: ["Jungle".into(), "Jungle-2".into(), "Jungle".into()],
        watch_clock: (60_000, 600),
        movetime_ms: 1000,
    };
    let mut c = Controller::new(config, FakeHost::default());
    c.start();
    for slot in SLOTS {
        c.engine_event(EngineEvent::Ready {
            slot,
            name: "Jungle 0.1.0".into(),
            options: vec![
                ELO.into(),
                "name MultiPV type spin default 1 min 1 max 32".into(),
            ],
        });
    }
    c
}

/// The last search asked of `slot`, if the engine has not answered it yet.
fn pending(c: &Controller<FakeHost>, slot: usize) -> Option<Search> {
    c.host()
        .requests
        .iter()
        .rev()
        .find_map(|(s, r)| match r {
            EngineRequest::Go(search) if *s == slot => Some((**search).clone()),
            _ => None,
        })
        .filter(|s| c.jobs.on(slot).is_some() && c.jobs.slots_id(slot) == Some(s.id))
}

/// The engine of `slot` answers its pending search with `text`.
fn answer(c: &mut Controller<FakeHost>, slot: usize, text: &str) -> Search {
    let search = pending(c, slot).expect("a search to answer");
    c.engine_event(EngineEvent::BestMove {
        slot,
        id: search.id,
        text: text.into(),
    });
    search
}

fn play(c: &mut Controller<FakeHost>, mv: &str) -> Result<Answer, Refusal> {
    c.handle(Request::Move(MoveRequest { mv: mv.into() }))
}

fn moves(c: &Controller<FakeHost>) -> Vec<String> {
    c.line().moves().iter().map(Move::to_string).collect()
}

fn stops(c: &Controller<FakeHost>, slot: usize) -> usize {
    c.host()
        .requests
        .iter()
        .filter(|(s, r)| *s == slot && matches!(r, EngineRequest::Stop))
        .count()
}

#[test]
fn a_move_is_answered_by_the_engine() {
    let mut c = controller();
    play(&mut c, "a3a4").expect("legal");
    let search = answer(&mut c, PLAYER, "a7a6");
    // The engine was asked about the position after the person's move, on its level's
    // time.
    assert_eq!(search.position_line(), "position startpos moves a3a4");
    assert_eq!(search.limits.movetime, Some(1000));
    assert_eq!(moves(&c), ["a3a4", "a7a6"]);
    assert!(c.thinking().is_none());
    // Each change published a state, the last with both moves.
    let Some(Event::State(view)) = c.host().events.iter().rev().find(|e| e.name() == "state")
    else {
        panic!("no state published");
    };
    assert_eq!(view.moves, ["a3a4", "a7a6"]);
    assert_eq!(view.move_kinds.len(), 2);
    assert_eq!(view.terrain.len(), 63);
}

#[test]
fn a_refused_move_says_why_and_changes_nothing() {
    let mut c = controller();
    let version = c.version();
    let r = play(&mut c, "a1a9").expect_err("illegal");
    assert_eq!(r.status, 400);
    assert!(r.message.contains("not a legal move"), "{}", r.message);
    // The page words it by its code, in its language, naming the rule it breaks.
    assert_eq!(
        r.code,
        Some(api::Code {
            key: "illegalBecause",
            args: vec![
                ("move", "a1a9".into()),
                ("why", "notAStep".into()),
                ("animal", "tiger".into())
            ]
        })
    );
    let body: serde_json::Value = serde_json::from_str(&r.body()).expect("JSON");
    assert_eq!(
        body,
        serde_json::json!({
            "error": "'a1a9' is not a legal move in this position: the tiger moves one square up, down, left or right",
            "code": "illegalBecause",
            "args": {"move": "a1a9", "why": "notAStep", "animal": "tiger"}
        })
    );
    // The wolf onto the river: the rule is the rat's.
    let r = play(&mut c, "c3c4").expect_err("illegal");
    assert_eq!(
        r.code.map(|c| (c.key, c.args)),
        Some((
            "illegalBecause",
            vec![
                ("move", "c3c4".into()),
                ("why", "onlyRatSwims".into()),
                ("animal", "wolf".into())
            ]
        ))
    );
    // Not a pair of squares: no rule to name.
    let r = play(&mut c, "a1a1").expect_err("illegal");
    assert_eq!(r.code.map(|c| c.key), Some("illegal"));
    let r = play(&mut c, "zz").expect_err("malformed");
    assert_eq!(r.status, 400);
    assert_eq!(r.code.map(|c| c.key), Some("malformed"));
    assert_eq!(c.version(), version);
    play(&mut c, "a3a4").expect("legal");
    // Blue is the engine's: the person may not move for it.
    let r = play(&mut c, "a7a6").expect_err("not the person's turn");
    assert_eq!(r.status, 409);
    assert!(r.message.contains("Blue's turn"), "{}", r.message);
    assert_eq!(
        r.code.map(|c| c.args),
        Some(vec![("side", "blue".into()), ("engine", "Jungle".into())])
    );
}

#[test]
fn an_anti_chase_refusal_names_the_rule() {
    let mut c = controller();
    c.handle(Request::NewGame(NewGameRequest {
        players: Some(Players::Both),
        fen: Some("6l/7/1t5/7/7/7/W5R/7/7 r".into()),
        rules: Some(api::RulesChoice {
            variant: "jungle-cn".into(),
            dog_swims: false,
            trapped_lose_attack: false,
        }),
    }))
    .expect("a new game");
    for m in "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8".split(' ') {
        play(&mut c, m).expect("legal");
    }
    let r = play(&mut c, "a3a2").expect_err("forbidden");
    assert!(
        r.message.starts_with("a3a2 is forbidden by the rule 7-3"),
        "{}",
        r.message
    );
    assert_eq!(
        r.code,
        Some(api::Code {
            key: "chase73",
            args: vec![("move", "a3a2".into()), ("animal", "wolf".into())]
        })
    );
    let view = view::state(&c);
    assert_eq!(
        view.forbidden.get("a3").map(Vec::as_slice),
        Some(&["a2".to_string()][..])
    );
}

#[test]
fn undo_and_redo_step_over_the_engines_reply() {
    let mut c = controller();
    play(&mut c, "a3a4").expect("legal");
    answer(&mut c, PLAYER, "a7a6");
    play(&mut c, "g3g4").expect("legal");
    answer(&mut c, PLAYER, "g7g6");
    c.handle(Request::Undo).expect("undo");
    assert_eq!(c.line().cursor(), 2);
    c.handle(Request::Undo).expect("undo");
    assert_eq!(c.line().cursor(), 0);
    assert!(c.handle(Request::Undo).is_err());
    c.handle(Request::Redo).expect("redo");
    assert_eq!(c.line().cursor(), 2);
    c.handle(Request::Redo).expect("redo");
    assert!(c.handle(Request::Redo).is_err());
    c.handle(Request::Goto(GotoRequest { ply: 1 }))
        .expect("goto");
    assert_eq!(c.line().position().side_to_move(), Color::Blue);
    assert!(c.handle(Request::Goto(GotoRequest { ply: 9 })).is_err());
    // A move at the cursor drops the rest of the line.
    c.handle(Request::Goto(GotoRequest { ply: 2 }))
        .expect("goto");
    play(&mut c, "b2b3").expect("legal");
    assert_eq!(moves(&c), ["a3a4", "a7a6", "b2b3"]);
}

#[test]
fn a_hint_comes_from_the_analyser_and_goes_with_the_position() {
    let mut c = controller();
    c.handle(Request::Hint).expect("a hint");
    let search = answer(&mut c, ANALYSER, "g3g4");
    assert_eq!(search.limits.movetime, Some(1000));
    assert_eq!(c.hint().map(|m| m.to_string()), Some("g3g4".into()));
    play(&mut c, "a3a4").expect("legal");
    assert_eq!(c.hint(), None);
    // An illegal suggestion is not shown.
    answer(&mut c, PLAYER, "a7a6");
    c.handle(Request::Hint).expect("a hint");
    answer(&mut c, ANALYSER, "a1a9");
    assert_eq!(c.hint(), None);
    assert!(c
        .notices()
        .iter()
        .any(|n| n.text.contains("not a legal move here")));
}

#[test]
fn a_level_change_mid_game_reaches_the_engine() {
    let mut c = controller();
    play(&mut c, "a3a4").expect("legal");
    answer(&mut c, PLAYER, "a7a6");
    c.handle(Request::Settings(SettingsRequest {
        level: Some(1),
        movetime_ms: None,
        players: None,
    }))
    .expect("a level");
    let last_options = c.host().requests.iter().rev().find_map(|(s, r)| match r {
        EngineRequest::Options(o) if *s == PLAYER => Some(o.clone()),
        _ => None,
    });
    assert_eq!(
        last_options,
        Some(vec![
            ("UCI_LimitStrength".into(), "true".into()),
            ("UCI_Elo".into(), "1016".into())
        ])
    );
    assert_eq!(moves(&c), ["a3a4", "a7a6"]);
    let bad = c.handle(Request::Settings(SettingsRequest {
        level: Some(9),
        movetime_ms: None,
        players: None,
    }));
    assert_eq!(bad.map_err(|r| r.status).err(), Some(400));
    // Switching sides mid-game: the engine now plays Red, whose turn it is.
    c.handle(Request::Settings(SettingsRequest {
        level: None,
        movetime_ms: None,
        players: Some(Players::Blue),
    }))
    .expect("sides");
    answer(&mut c, PLAYER, "g3g4");
    assert_eq!(moves(&c), ["a3a4", "a7a6", "g3g4"]);
}

#[test]
fn analysis_follows_the_shown_position_and_pauses_for_the_engine() {
    let mut c = controller();
    c.handle(Request::Analysis(AnalysisRequest {
        on: true,
        multipv: Some(2),
    }))
    .expect("analysis");
    let search = pending(&c, ANALYSER).expect("analysing");
    assert!(search.limits.infinite);
    let info = SearchInfo {
        depth: 4,
        multipv: 1,
        score: crate::search::Score::Cp(30),
        pv: vec!["g3g4".parse().expect("a move")],
        ..SearchInfo::default()
    };
    c.engine_event(EngineEvent::Info {
        slot: ANALYSER,
        id: search.id,
        info,
    });
    assert_eq!(c.analysis().lines.len(), 1);
    assert_eq!(c.graph_scores()[0], Some(30));
    // A move: the engine plays and the analyser stops meanwhile.
    play(&mut c, "a3a4").expect("legal");
    assert!(pending(&c, ANALYSER).is_none());
    assert!(c.analysis().lines.is_empty());
    answer(&mut c, PLAYER, "a7a6");
    let again = pending(&c, ANALYSER).expect("analysing again");
    assert_eq!(again.moves.len(), 2);
    c.handle(Request::Analysis(AnalysisRequest {
        on: false,
        multipv: None,
    }))
    .expect("off");
    assert!(pending(&c, ANALYSER).is_none());
    assert!(stops(&c, ANALYSER) >= 2);
}

#[test]
fn a_review_searches_every_position_and_marks_a_blunder() {
    let mut c = controller();
    c.handle(Request::NewGame(NewGameRequest {
        players: Some(Players::Both),
        fen: Some("l6/7/7/7/3r3/7/3E3/7/T5L r 0 1".into()),
        rules: None,
    }))
    .expect("a new game");
    // Red's elephant steps next to Blue's rat, which takes it.
    play(&mut c, "d3d4").expect("legal");
    play(&mut c, "d5d4").expect("legal");
    c.handle(Request::Review(ReviewRequest { on: true }))
        .expect("a review");
    // The analyser searches the three positions in order; the scores it reports are
    // the side to move's.
    answer_review(&mut c, &[(50, "a1a2"), (900, "d5d4"), (-900, "a1a2")]);
    assert!(!c.reviewing());
    let notes = c.review_notes();
    assert_eq!(
        notes[0].as_ref().and_then(|n| n.mark),
        Some(jungle_core::review::Mark::Blunder)
    );
    assert_eq!(
        notes[0].as_ref().and_then(|n| n.best.clone()),
        Some("a1a2".into())
    );
    // The graph shows the review's scores from Red's view.
    assert_eq!(c.graph_scores(), [Some(50), Some(-900), Some(-900)]);
    // The record carries the notes; loaded back, the review comes with it.
    let Ok(Answer::Text(record)) = c.handle(Request::Record) else {
        panic!("a record");
    };
    assert!(record.contains("d3d4 {eval -9.00"), "{record}");
    c.handle(Request::Load(LoadRequest {
        text: record,
        game: None,
    }))
    .expect("loads");
    assert_eq!(moves(&c), ["d3d4", "d5d4"]);
    assert_eq!(
        c.review_notes()[0].as_ref().and_then(|n| n.mark),
        Some(jungle_core::review::Mark::Blunder)
    );
}

/// Answers the steps of the running review in order, each with `cp` for its side to
/// move and the engine's move `best`; each step searches the next position at the
/// review's budget.
fn answer_review(c: &mut Controller<FakeHost>, scores: &[(i32, &str)]) {
    for (ply, &(cp, best)) in scores.iter().enumerate() {
        let search = pending(c, ANALYSER).expect("a review step");
        assert_eq!(search.moves.len(), ply);
        assert_eq!(search.limits.nodes, Some(REVIEW_NODES));
        c.engine_event(EngineEvent::Info {
            slot: ANALYSER,
            id: search.id,
            info: SearchInfo {
                score: crate::search::Score::Cp(cp),
                multipv: 1,
                ..SearchInfo::default()
            },
        });
        answer(c, ANALYSER, best);
    }
}

#[test]
fn where_the_hosts_tables_cover_a_position_they_judge_its_move_whatever_the_engine_says() {
    use jungle_core::review::Mark;
    use jungle_core::review_tables::TableResult;
    use jungle_core::tb::Wdl;
    let mut c = controller();
    c.host_mut().tables = Some(crate::review::ReviewTables::in_memory(3));
    // Lion and rat against an elephant, which stands next to the lion: Red wins, but
    // three lion moves lose (`jungle tb probe`).
    let fen = "7/7/7/7/3e3/3L3/7/7/R6 r 0 1";
    c.handle(Request::NewGame(NewGameRequest {
        players: Some(Players::Both),
        fen: Some(fen.into()),
        rules: None,
    }))
    .expect("a new game");
    // Red's first move throws the win away (the tables say which moves do); Blue's
    // reply and Red's next are whatever keeps the result.
    let game = c.line.game_at(0);
    let values = c
        .host_mut()
        .table_values(&game)
        .expect("a 3-animal position");
    let thrower = values
        .iter()
        .find(|v| v.wdl != Wdl::Win)
        .expect("a move that does not win");
    let keeper = values[0].mv;
    assert_eq!(values[0].wdl, Wdl::Win);
    play(&mut c, &thrower.mv.to_string()).expect("legal");
    let after = c.line.game_at(1);
    let reply = c.host_mut().table_values(&after).expect("covered")[0].mv;
    play(&mut c, &reply.to_string()).expect("legal");
    c.handle(Request::Review(ReviewRequest { on: true }))
        .expect("a review");
    // The engine sees nothing wrong with the first move, and calls the second a
    // blunder (-3 to -30 for Blue): the tables overrule both.
    answer_review(&mut c, &[(300, "a1a2"), (-300, "d8d7"), (3000, "c3c4")]);
    assert!(!c.reviewing());
    let notes = c.review_notes();
    let first = notes[0].as_ref().expect("a note");
    let table = first.table.expect("judged by the tables");
    assert_eq!(table.before, TableResult::Win);
    assert_eq!(table.after, TableResult::of(thrower.wdl));
    assert!(!table.perfect);
    assert_eq!(first.mark, Some(Mark::Blunder));
    assert_eq!(first.loss, Some(table.loss()));
    assert!(table.loss() >= 50.0);
    assert_eq!(first.best, Some(keeper.to_string()));
    let second = notes[1].as_ref().expect("a note");
    let table = second.table.expect("judged by the tables");
    assert!(table.perfect, "{table:?}");
    assert_eq!(second.mark, None);
    assert_eq!(second.loss, Some(0.0));
    // The page is shown the tables' words.
    let Event::State(view) = c.state_event() else {
        panic!("a state");
    };
    let shown = serde_json::to_value(&view).expect("json");
    let table = &shown["review"]["moves"][0]["table"];
    assert_eq!(table["before"], "win");
    assert_eq!(table["perfect"], false);
    assert_eq!(shown["review"]["moves"][1]["table"]["perfect"], true);
    // Without tables, the engine's marks stand.
    c.host_mut().tables = None;
    c.handle(Request::Review(ReviewRequest { on: false }))
        .expect("off");
    c.handle(Request::Review(ReviewRequest { on: true }))
        .expect("a review");
    answer_review(&mut c, &[(300, "a1a2"), (-300, "d8d7"), (3000, "c3c4")]);
    let notes = c.review_notes();
    assert!(notes.iter().flatten().all(|n| n.table.is_none()));
    assert_eq!(notes[0].as_ref().and_then(|n| n.mark), None);
    assert_eq!(notes[1].as_ref().and_then(|n| n.mark), Some(Mark::Blunder));
}

#[test]
fn a_bad_record_is_refused_and_the_game_kept() {
    let mut c = controller();
    play(&mut c, "a3a4").expect("legal");
    answer(&mut c, PLAYER, "a7a6");
    // Each refusal with the code and arguments the page words it by: a bad tag at
    // the line it is on (a [Rules] tag on line 5, its moves on line 8).
    for (text, says, code, expected) in [
        ("", "has no games", "noGames", vec![]),
        (
            "[FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1\"]\n\n1. a1a9 1-0\n",
            "cannot be replayed",
            "badRecordMove",
            vec![("number", "1"), ("ply", "1")],
        ),
        (
            "[FEN \"9/9 r\"]\n\n1. a3a4 1-0\n",
            "cannot read the record file: line 1",
            "badRecord",
            vec![("line", "1")],
        ),
        (
            "[Rules \"jungle-xx\"]\n[FEN \"l6/7/7/7/7/7/7/7/T5L r 0 1\"]\n\n1. a1a2 *\n",
            "line 1",
            "badRecord",
            vec![("line", "1")],
        ),
        (
            "[Event \"x\"]\n[Red \"a\"]\n[Blue \"b\"]\n[FEN \"l6/7/7/7/7/7/7/7/T5L r 0 1\"]\n[Rules \"jungle-xx\"]\n[Result \"*\"]\n\n1. a1a2 *\n",
            "line 5",
            "badRecord",
            vec![("line", "5")],
        ),
    ] {
        let r = c
            .handle(Request::Load(LoadRequest {
                text: text.into(),
                game: None,
            }))
            .expect_err("refused");
        assert_eq!(r.status, 400);
        assert!(r.message.contains(says), "{text:?}: {}", r.message);
        let worded = r.code.as_ref().expect("a code");
        assert_eq!(worded.key, code, "{text:?}");
        let args: Vec<(&str, &str)> = worded.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_eq!(args, expected, "{text:?}");
    }
    let r = c
        .handle(Request::Load(LoadRequest {
            text: "[FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1\"]\n\n1. a3a4 *\n".into(),
            game: Some(2),
        }))
        .expect_err("no such game");
    assert!(
        r.message.contains("game 2 is not in the file"),
        "{}",
        r.message
    );
    assert_eq!(moves(&c), ["a3a4", "a7a6"]);
}

#[test]
fn a_loaded_game_keeps_the_players_and_the_engine_plays_on() {
    let mut c = controller();
    assert_eq!(c.seats().players, Players::Red);
    assert_eq!(c.seats().level, 1, "a new board starts at Beginner");
    // A game of two moves, Red to move at its end.
    let record = "[FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1\"]\n\n1. a3a4 a7a6 *\n";
    c.handle(Request::Load(LoadRequest {
        text: record.into(),
        game: None,
    }))
    .expect("loads");
    assert_eq!(moves(&c), ["a3a4", "a7a6"]);
    assert_eq!(
        c.seats().players,
        Players::Red,
        "the person still plays Red"
    );
    assert!(pending(&c, PLAYER).is_none(), "no move made on loading");
    // The person moves; the engine answers, as in any game.
    play(&mut c, "g3g4").expect("legal");
    assert!(pending(&c, PLAYER).is_some(), "the engine plays on");
    answer(&mut c, PLAYER, "g7g6");
    assert_eq!(moves(&c), ["a3a4", "a7a6", "g3g4", "g7g6"]);
    // The next game keeps the choice.
    c.handle(Request::NewGame(NewGameRequest {
        players: None,
        fen: None,
        rules: None,
    }))
    .expect("a new game");
    assert_eq!(c.seats().players, Players::Red);
}

#[test]
fn a_new_game_forgets_the_old_games_messages() {
    let mut c = controller();
    c.notice(
        NoticeKind::Error,
        crate::api::Code::notice("engineFailed", &[("engine", "Jungle-2")]),
        "engine Jungle-2 failed".into(),
    );
    assert_eq!(c.notices().iter().count(), 1);
    c.handle(Request::NewGame(NewGameRequest {
        players: None,
        fen: None,
        rules: None,
    }))
    .expect("a new game");
    assert_eq!(c.notices().iter().count(), 0);
}

#[test]
fn a_watched_game_keeps_the_clocks_and_the_referee_decides() {
    let mut c = controller();
    c.handle(Request::Watch(api::WatchRequest { run: true }))
        .expect("watch");
    let search = answer(&mut c, PLAYER, "a3a4");
    assert_eq!(search.limits.time, [Some(60_000), Some(60_000)]);
    // Blue's engine answers with an illegal move: it loses.
    answer(&mut c, SECOND, "a1a9");
    let (winner, reason) = c.line().result().expect("decided");
    assert_eq!(winner, Some(Color::Red));
    assert!(reason.contains("illegal move"), "{reason}");
    // The page words the verdict by its code, the engine and its move as arguments.
    let view = serde_json::to_value(crate::view::state(&c)).expect("json");
    assert_eq!(view["result"]["code"], "illegalMove", "{}", view["result"]);
    assert_eq!(view["result"]["args"]["move"], "a1a9");
    assert!(!c.watch().running);
    assert!(c.watch().clocks[0] > 60_000 - 1000);
}

#[test]
fn a_failed_engine_is_asked_once_more() {
    let mut c = controller();
    play(&mut c, "a3a4").expect("legal");
    let first = pending(&c, PLAYER).expect("thinking");
    c.engine_event(EngineEvent::Failed {
        slot: PLAYER,
        id: Some(first.id),
        message: "engine 'Jungle' crashed; it was restarted".into(),
        restarted: true,
    });
    let second = pending(&c, PLAYER).expect("asked again");
    assert_ne!(second.id, first.id);
    c.engine_event(EngineEvent::Failed {
        slot: PLAYER,
        id: Some(second.id),
        message: "engine 'Jungle' crashed; it was restarted".into(),
        restarted: true,
    });
    assert!(pending(&c, PLAYER).is_none());
    assert!(c
        .notices()
        .iter()
        .any(|n| n.text.contains("did not produce a move") && n.code == "noMove"));
    // Each failure said by its code, the engine named.
    let failures: Vec<_> = c
        .notices()
        .iter()
        .filter(|n| n.code == "engineRestarted")
        .collect();
    assert_eq!(failures.len(), 2);
    assert_eq!(
        failures[0].args.get("engine").map(String::as_str),
        Some("Jungle")
    );
    // An answer of the first search, late, is outdated.
    c.engine_event(EngineEvent::BestMove {
        slot: PLAYER,
        id: first.id,
        text: "a7a6".into(),
    });
    assert_eq!(moves(&c), ["a3a4"]);
}
