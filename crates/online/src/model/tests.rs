use super::*;
use crate::clock::{DAY_MS, FIRST_MOVE_MS, GONE_LIVE_MS, LAG_QUOTA_MAX_MS};
use jungle_core::game::Variant;

/// A game's log kept by hand, as the server keeps it: decide, then store and fold.
struct Log {
    state: GameState,
    events: Vec<Stored>,
    now: i64,
}

const T0: i64 = 1_700_000_000_000;

impl Log {
    fn new(rules: Rules, tc: &str) -> Log {
        let tc = crate::clock::online_tc(tc).unwrap();
        let created = Stored {
            v: 1,
            at: T0,
            ev: Event::Created {
                rules: rules.to_string(),
                tc: tc.to_string(),
            },
        };
        Log {
            state: GameState::replay(std::slice::from_ref(&created)).unwrap(),
            events: vec![created],
            now: T0,
        }
    }

    /// Both seated at T0.
    fn started(rules: Rules, tc: &str) -> Log {
        let mut log = Log::new(rules, tc);
        log.store(Event::Seated { side: Side::Red });
        log.store(Event::Seated { side: Side::Blue });
        log
    }

    fn store(&mut self, ev: Event) {
        let s = Stored {
            v: self.state.version + 1,
            at: self.now,
            ev,
        };
        self.state.apply(&s).unwrap();
        self.events.push(s);
    }

    fn run(&mut self, side: Side, cmd: ClientMsg) -> Result<Decision, Refusal> {
        self.run_ctx(side, cmd, Context::default())
    }

    fn run_ctx(&mut self, side: Side, cmd: ClientMsg, ctx: Context) -> Result<Decision, Refusal> {
        let out = self.state.decide(Some(side), &cmd, self.now, ctx)?;
        for ev in out.events.clone() {
            self.store(ev);
        }
        Ok(out)
    }

    fn mv(&mut self, mv: &str, think_ms: Option<i64>) -> Result<Decision, Refusal> {
        let side = self.state.to_move();
        let ply = self.state.ply();
        self.run(
            side,
            ClientMsg::Move {
                ply,
                mv: mv.into(),
                think_ms,
            },
        )
    }
}

fn jungle() -> Rules {
    Variant::Jungle.rules()
}

#[test]
fn the_clock_starts_with_ply_two_and_credits_lag_within_the_quota() {
    let mut log = Log::started(jungle(), "5m+3s");
    log.now += 20_000;
    log.mv("g1g2", None).unwrap();
    log.now += 20_000;
    log.mv("a9a8", None).unwrap();
    // The first two moves cost nothing.
    assert_eq!(log.state.clock.left, [300_000, 300_000]);
    assert_eq!(log.state.running(), Some(Side::Red));
    // 10 s on the server, 9 s by the client: 1 s of lag, credited (quota 2 s).
    log.now += 10_000;
    log.mv("g2g1", Some(9_000)).unwrap();
    assert_eq!(log.state.clock.left[0], 300_000 - 9_000 + 3_000);
    // The quota: 2 s - 1 s + the gain (1 s for 5+3).
    assert_eq!(log.state.clock.quota[0], 2_000);
    // Blue lags 4 s: credited only 2 s (its quota).
    log.now += 5_000;
    log.mv("a8a9", Some(1_000)).unwrap();
    assert_eq!(log.state.clock.left[1], 300_000 - 3_000 + 3_000);
    assert_eq!(log.state.clock.quota[1], 1_000);
    // A client claiming more thinking time than passed gets no credit, never less time.
    log.now += 1_000;
    log.mv("g1g2", Some(50_000)).unwrap();
    assert_eq!(log.state.clock.left[0], 294_000 - 1_000 + 3_000);
    // The quota never passes its maximum.
    for _ in 0..10 {
        log.state.clock.quota[1] = LAG_QUOTA_MAX_MS;
    }
    log.now += 2_000;
    log.mv("a9a8", Some(0)).unwrap();
    assert!(log.state.clock.quota[1] <= LAG_QUOTA_MAX_MS);
    // The fastest games gain less than 1 s a move.
}

#[test]
fn the_flag_falls_on_the_server_with_the_player_gone() {
    let mut log = Log::started(jungle(), "1m+0s");
    log.mv("g1g2", None).unwrap();
    log.mv("a9a8", None).unwrap();
    let (at, ev) = log.state.deadline().unwrap();
    // Red's minute and the credit it could still be given (its 2 s quota).
    assert_eq!(at, T0 + 60_000 + 2_000);
    assert_eq!(
        ev,
        Event::End {
            result: "0-1".into(),
            reason: reason::TIME.into()
        }
    );
    assert_eq!(log.state.due(at - 1), None);
    log.now = at;
    let ev = log.state.due(log.now).unwrap();
    log.store(ev);
    assert!(log.state.is_over());
    assert_eq!(log.state.clock.left[0], 0);
    assert_eq!(log.state.deadline(), None);
    // A move that comes after the flag is refused.
    let late = log.mv("g2g1", None).unwrap_err();
    assert_eq!(late.code, "game_over");
}

#[test]
fn a_move_after_the_deadline_loses_on_time_and_is_not_played() {
    let mut log = Log::started(jungle(), "1m+0s");
    log.mv("g1g2", None).unwrap();
    log.mv("a9a8", None).unwrap();
    // 61 s later with no lag: over even with the credit it could have had.
    log.now += 61_000;
    let out = log.mv("g2g1", Some(61_000)).unwrap();
    assert_eq!(
        out.events,
        vec![Event::End {
            result: "0-1".into(),
            reason: reason::TIME.into()
        }]
    );
    assert_eq!(log.state.ply(), 2);
}

#[test]
fn first_moves_not_made_in_time_abort_the_game() {
    let mut log = Log::started(jungle(), "10m+0s");
    assert_eq!(log.state.deadline().unwrap().0, T0 + FIRST_MOVE_MS);
    log.now += FIRST_MOVE_MS;
    let ev = log.state.due(log.now).unwrap();
    log.store(ev);
    assert_eq!(log.state.end, Some(("*".into(), reason::ABORTED.into())));
}

#[test]
fn correspondence_gives_each_move_its_days() {
    let mut log = Log::started(jungle(), "2d");
    log.mv("g1g2", None).unwrap();
    log.now += 3_600_000;
    log.mv("a9a8", None).unwrap();
    log.now += DAY_MS;
    log.mv("g2g1", None).unwrap();
    assert_eq!(log.state.clock.left, [2 * DAY_MS, 2 * DAY_MS]);
    assert_eq!(log.state.deadline().unwrap().0, log.now + 2 * DAY_MS);
}

#[test]
fn downtime_does_not_run_the_clock() {
    let mut log = Log::started(jungle(), "3m+0s");
    log.mv("g1g2", None).unwrap();
    log.mv("a9a8", None).unwrap();
    log.now += 10_000;
    let before = log.state.clocks_at(log.now);
    let deadline = log.state.deadline().unwrap().0;
    log.store(Event::Downtime { ms: 600_000 });
    log.now += 600_000;
    assert_eq!(log.state.clocks_at(log.now), before);
    assert_eq!(log.state.deadline().unwrap().0, deadline + 600_000);
}

#[test]
fn replay_and_resync_by_version_give_the_same_game() {
    let mut log = Log::started(jungle(), "5m+0s");
    for (i, mv) in ["g1g2", "a9a8", "g2g1", "a8a9"].iter().enumerate() {
        log.now += 1_000 * i as i64;
        log.mv(mv, Some(500)).unwrap();
    }
    log.run(Side::Red, ClientMsg::DrawOffer).unwrap();
    let whole = GameState::replay(&log.events).unwrap();
    assert_eq!(whole.version, log.state.version);
    assert_eq!(whole.moves(), log.state.moves());
    assert_eq!(whole.clock, log.state.clock);
    assert_eq!(whole.clock.quota, log.state.clock.quota);
    assert_eq!(whole.draw_offer, Some(Side::Red));
    // A client at version 4 folds the events after it and reaches the same state.
    let mut resync = GameState::replay(&log.events[..4]).unwrap();
    for e in &log.events[4..] {
        resync.apply(e).unwrap();
    }
    assert_eq!(resync.version, log.state.version);
    assert_eq!(resync.game.position(), log.state.game.position());
    // An event out of order is refused, the state unchanged.
    let mut gap = GameState::replay(&log.events[..3]).unwrap();
    assert!(gap.apply(&log.events[5]).is_err());
    assert_eq!(gap.version, 3);
    assert!(gap.apply(&log.events[2]).is_err());
    // A log that does not start with the creation is refused.
    assert!(GameState::replay(&log.events[1..]).is_err());
    assert!(GameState::replay(&[]).is_err());
}

#[test]
fn refusals_name_what_is_wrong_and_change_nothing() {
    let mut log = Log::new(jungle(), "5m+0s");
    log.store(Event::Seated { side: Side::Red });
    let cmd = |ply, mv: &str| ClientMsg::Move {
        ply,
        mv: mv.into(),
        think_ms: None,
    };
    let code = |log: &Log, seat, c: &ClientMsg| {
        log.state
            .decide(seat, c, log.now, Context::default())
            .unwrap_err()
            .code
    };
    assert_eq!(code(&log, Some(Side::Red), &cmd(0, "g1g2")), "not_started");
    assert_eq!(code(&log, Some(Side::Blue), &cmd(0, "g1g2")), "no_seat");
    log.store(Event::Seated { side: Side::Blue });
    assert_eq!(code(&log, None, &cmd(0, "g1g2")), "no_seat");
    assert_eq!(code(&log, Some(Side::Blue), &cmd(0, "a9a8")), "out_of_turn");
    assert_eq!(code(&log, Some(Side::Red), &cmd(1, "g1g2")), "bad_ply");
    assert_eq!(
        code(&log, Some(Side::Red), &cmd(0, "g1g3")),
        "illegalBecause"
    );
    assert_eq!(code(&log, Some(Side::Red), &cmd(0, "zz")), "malformed_move");
    assert_eq!(
        code(&log, Some(Side::Red), &ClientMsg::DrawAccept),
        "no_offer"
    );
    assert_eq!(
        code(&log, Some(Side::Red), &ClientMsg::Claim { draw: false }),
        "not_gone"
    );
    assert_eq!(code(&log, Some(Side::Red), &ClientMsg::Rematch), "not_over");
    log.mv("g1g2", None).unwrap();
    // The ply played already, with another move or by the other side.
    assert_eq!(code(&log, Some(Side::Red), &cmd(0, "g1g3")), "ply_played");
    assert_eq!(code(&log, Some(Side::Blue), &cmd(0, "g1g2")), "ply_played");
    log.mv("a9a8", None).unwrap();
    assert_eq!(code(&log, Some(Side::Red), &ClientMsg::Abort), "too_late");
    assert_eq!(log.state.version, 5);
    assert_eq!(log.state.ply(), 2);
}

#[test]
fn a_move_sent_again_has_no_second_effect() {
    let mut log = Log::started(jungle(), "5m+0s");
    log.mv("g1g2", None).unwrap();
    let version = log.state.version;
    let again = log
        .run(
            Side::Red,
            ClientMsg::Move {
                ply: 0,
                mv: "g1g2".into(),
                think_ms: None,
            },
        )
        .unwrap();
    assert_eq!(again.again, Some(0));
    assert!(again.events.is_empty());
    assert_eq!(log.state.version, version);
    assert_eq!(log.state.moves(), ["g1g2"]);
}

#[test]
fn draws_resignation_abort_claims_and_rematch() {
    let mut log = Log::started(jungle(), "5m+0s");
    log.mv("g1g2", None).unwrap();
    log.run(Side::Red, ClientMsg::DrawOffer).unwrap();
    assert_eq!(
        log.run(Side::Red, ClientMsg::DrawOffer).unwrap_err().code,
        "already_offered"
    );
    log.run(Side::Blue, ClientMsg::DrawDecline).unwrap();
    assert_eq!(log.state.draw_offer, None);
    log.run(Side::Red, ClientMsg::DrawOffer).unwrap();
    // The move of the side offered to declines the offer.
    log.mv("a9a8", None).unwrap();
    assert_eq!(log.state.draw_offer, None);
    log.run(Side::Blue, ClientMsg::DrawOffer).unwrap();
    log.run(Side::Red, ClientMsg::DrawAccept).unwrap();
    assert_eq!(
        log.state.end,
        Some(("1/2-1/2".into(), reason::AGREEMENT.into()))
    );
    assert_eq!(
        log.run(Side::Red, ClientMsg::Resign).unwrap_err().code,
        "game_over"
    );
    log.run(Side::Red, ClientMsg::Rematch).unwrap();
    assert_eq!(
        log.run(Side::Red, ClientMsg::Rematch).unwrap_err().code,
        "already_offered"
    );
    let out = log.run(Side::Blue, ClientMsg::Rematch).unwrap();
    assert!(matches!(out.events[..], [Event::Rematch { .. }]));

    let mut log = Log::started(jungle(), "5m+0s");
    log.run(Side::Blue, ClientMsg::Abort).unwrap();
    assert_eq!(log.state.end, Some(("*".into(), reason::ABORTED.into())));

    let mut log = Log::started(jungle(), "5m+0s");
    log.mv("g1g2", None).unwrap();
    log.mv("a9a8", None).unwrap();
    log.run(Side::Blue, ClientMsg::Resign).unwrap();
    assert_eq!(log.state.end, Some(("1-0".into(), reason::RESIGN.into())));

    let mut log = Log::started(jungle(), "5m+0s");
    log.mv("g1g2", None).unwrap();
    let gone = |since| Context {
        opponent_gone_since: Some(since),
    };
    let t = log.now;
    log.now += GONE_LIVE_MS - 1;
    let early = log.run_ctx(Side::Red, ClientMsg::Claim { draw: false }, gone(t));
    assert_eq!(early.unwrap_err().code, "not_gone");
    log.now += 1;
    log.run_ctx(Side::Red, ClientMsg::Claim { draw: false }, gone(t))
        .unwrap();
    assert_eq!(log.state.end, Some(("1-0".into(), reason::GONE.into())));
}

/// The result is the core's: repetition under `jungle`; under `jungle-cn` no
/// repetition draw, and the anti-chase rules refuse a move, naming the rule.
#[test]
fn results_and_refusals_come_from_the_core_under_each_rule_set() {
    let shuffle = ["g1g2", "a9a8", "g2g1", "a8a9"];
    let mut log = Log::started(jungle(), "5m+0s");
    for mv in shuffle.iter().cycle().take(8) {
        log.mv(mv, None).unwrap();
    }
    assert_eq!(
        log.state.end,
        Some(("1/2-1/2".into(), reason::REPETITION.into()))
    );

    let mut log = Log::started(Variant::JungleCn.rules(), "5m+0s");
    let mut refused = None;
    for mv in shuffle.iter().cycle().take(40) {
        match log.mv(mv, None) {
            Ok(_) => {}
            Err(r) => {
                refused = Some(r);
                break;
            }
        }
    }
    let refused = refused.expect("jungle-cn refuses the endless shuffle");
    // The page words it: the rule, and the animal.
    assert!(["chase73", "chase175"].contains(&refused.code), "{refused}");
    assert!(
        refused.args.iter().any(|(k, _)| *k == "animal"),
        "{:?}",
        refused.args
    );
    assert!(
        refused.reason.contains("7-3") || refused.reason.contains("17-5"),
        "{}",
        refused.reason
    );
    assert!(!log.state.is_over());
    // The core agrees with every move the model accepted.
    let mut game = Game::with_rules(Position::startpos(), Variant::JungleCn.rules());
    for mv in &log.state.moves() {
        game.play_text(mv).unwrap();
    }
    assert_eq!(game.position(), log.state.game.position());
}

#[test]
fn the_record_is_the_match_format_and_replays() {
    let mut log = Log::started(jungle(), "5m+0s");
    for mv in ["g1g2", "a9a8", "g2g1"] {
        log.mv(mv, None).unwrap();
    }
    log.run(Side::Blue, ClientMsg::Resign).unwrap();
    let text = log.state.record("abc");
    let games = jungle_core::record::read_records(&text, Rules::default()).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves, ["g1g2", "a9a8", "g2g1"]);
    assert_eq!(games[0].result, Some(RecordResult::RedWins));
    assert_eq!(games[0].tag("Termination"), Some("resignation"));
}
