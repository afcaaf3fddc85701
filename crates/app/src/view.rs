//! What the page is shown: the controller's state as JSON.

use crate::board::{Color, Move, MoveList, Square};
use crate::controller::{side_name, Controller, LEVEL_NAMES, PLAYER, SECOND};
use crate::engines::Host;
use crate::with_move_rules;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Scores beyond this (centipawns) are drawn at the edge of the evaluation graph.
const GRAPH_CAP: i32 = 1500;

pub fn state(c: &Controller<impl Host>) -> Value {
    let pos = c.game.position();
    let side = pos.side_to_move();
    let board: Vec<Value> = Square::all()
        .map(|sq| match pos.piece_at(sq) {
            None => Value::Null,
            Some(p) => json!({
                "color": p.color.name(),
                "animal": p.animal.name(),
                "rank": p.animal.rank(),
                "letter": p.letter().to_string(),
            }),
        })
        .collect();
    let result = c.result();
    let person_to_move = result.is_none() && c.seat(side).is_none();
    let (legal, forbidden) = if person_to_move {
        targets(c)
    } else {
        (BTreeMap::new(), BTreeMap::new())
    };
    let thinking = c.thinking().map(|(color, slot, started)| {
        json!({
            "side": color.name(),
            "engine": c.engines[slot].name,
            "elapsedMs": started.elapsed().as_millis() as u64,
        })
    });
    let levels: Vec<Value> = {
        let elos = c.level_elos();
        LEVEL_NAMES
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let elo = elos.as_ref().and_then(|e| e[i]);
                json!({ "level": i + 1, "name": name, "elo": elo })
            })
            .collect()
    };
    let seat_name = |color: Color| match c.seat(color) {
        Some(slot) => c.engines[slot].name.clone(),
        None => "You".to_string(),
    };
    json!({
        "version": c.version,
        "rules": c.rules.to_string(),
        "variant": c.rules.variant.name(),
        "dogSwims": c.rules.moves.dog_swims,
        "trappedLoseAttack": c.rules.moves.trapped_lose_attack,
        "fen": pos.to_fen(),
        "startFen": c.start.to_fen(),
        "moves": c.line.iter().map(Move::to_string).collect::<Vec<_>>(),
        "ply": c.cursor,
        "firstMover": c.start.side_to_move().name(),
        "sideToMove": side.name(),
        "board": board,
        "legal": legal,
        "forbidden": forbidden,
        "lastMove": c.cursor.checked_sub(1).map(|i| c.line[i].to_string()),
        "result": result.map(|(winner, reason)| json!({
            "winner": winner.map(|w| w.name()),
            "reason": reason,
            "text": match winner {
                Some(w) => format!("{} wins: {reason}", side_name(w)),
                None => format!("Draw: {reason}"),
            },
        })),
        "players": c.players,
        "seats": { "red": seat_name(Color::Red), "blue": seat_name(Color::Blue) },
        "engines": [c.engines[PLAYER].name, c.engines[SECOND].name],
        "engineIds": [c.engines[PLAYER].id_name, c.engines[SECOND].id_name],
        "level": c.level,
        "levels": levels,
        "levelsSupported": c.engines[PLAYER].declares("UCI_Elo") || c.engines[PLAYER].declares("Skill Level"),
        "movetimeMs": c.movetime_ms,
        "thinking": thinking,
        "hint": c.hint.map(|m| m.to_string()),
        "watch": {
            "running": c.watch_running,
            "clocks": c.clocks,
            "tc": { "baseMs": c.config.watch_clock.0, "incMs": c.config.watch_clock.1 },
        },
        "analysis": analysis(c),
        "review": review(c),
        "scores": c.scores.iter().map(|s| s.map(|v| v.clamp(-GRAPH_CAP, GRAPH_CAP))).collect::<Vec<_>>(),
        "notices": c.notices,
        "canUndo": c.cursor > 0,
        "canRedo": c.cursor < c.line.len(),
    })
}

/// The review: its progress, each move's note, and each side's accuracy and marks.
fn review(c: &Controller<impl Host>) -> Value {
    let Some(r) = &c.review else {
        return Value::Null;
    };
    let notes = c.review_notes();
    let [red, blue] = crate::review::summary(&c.start, &notes);
    let moves: Vec<Value> = notes
        .iter()
        .map(|n| match n {
            None => Value::Null,
            Some(n) => json!({
                "eval": n.eval.map(jungle_core::review::eval_text),
                "loss": n.loss,
                "mark": n.mark.map(|m| m.name()),
                "symbol": n.mark.map(|m| m.symbol()),
                "best": n.best,
            }),
        })
        .collect();
    json!({
        "running": r.running(),
        "done": r.next.min(r.scores.len()),
        "total": r.scores.len(),
        "moves": moves,
        "red": red,
        "blue": blue,
    })
}

pub fn analysis(c: &Controller<impl Host>) -> Value {
    json!({
        "on": c.analysis_on,
        "multipv": c.multipv,
        "ply": c.cursor,
        "lines": c.analysis,
    })
}

/// For each square of the side to move: the squares its animal may move to, and
/// those that only the anti-chase rules forbid.
type Targets = BTreeMap<String, Vec<String>>;

fn targets(c: &Controller<impl Host>) -> (Targets, Targets) {
    let pos = c.game.position();
    let mut legal: Targets = BTreeMap::new();
    for m in c.game.legal_moves().iter() {
        legal
            .entry(m.from().to_string())
            .or_default()
            .push(m.to().to_string());
    }
    let mut forbidden: Targets = BTreeMap::new();
    if c.rules.anti_chase {
        let mut board_moves = MoveList::new();
        with_move_rules!(c.rules.moves, R => crate::board::movegen::generate_with::<R>(pos, &mut board_moves));
        for m in board_moves.iter() {
            if c.game.chase_explanation(*m).is_some() {
                forbidden
                    .entry(m.from().to_string())
                    .or_default()
                    .push(m.to().to_string());
            }
        }
    }
    (legal, forbidden)
}
