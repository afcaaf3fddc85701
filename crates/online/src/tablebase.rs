//! `GET /api/tablebase?fen=…`: a position's value from the endgame tables, after
//! lichess's tablebase API (`tablebase.lichess.ovh/standard?fen=…`): the category
//! (`win`, `cursed-win`, `draw`, `blessed-loss`, `loss`, for the side to move), DTM
//! and DTZ in plies (positive when the side to move wins, negative when it loses,
//! `null` for a draw or, DTZ, when not decided within the no-capture rule), and every
//! legal move with the same fields for the position after it (so the best move for
//! the side to move is the one whose category is `loss`), best first.
//!
//! Tables come from `jungle serve --tablebases DIR` (files of up to 5 animals); the
//! signatures of up to 3 animals are built in memory when no file has them. Rules are
//! the default ones (`jungle` moves, the no-capture draw of 100 plies).

use jungle_core::board::{Position, Standard};
use jungle_core::tb::table::{TbValue, Wdl};
use jungle_core::tb::{probe_moves, probe_position, Material, Tablebases, TbRules, MAX_ANIMALS};
use serde::Serialize;
use std::path::PathBuf;

/// The tables the endpoint reads.
pub fn tables(dir: Option<PathBuf>) -> Tablebases {
    Tablebases::new(TbRules::default(), dir)
}

#[derive(Serialize, Debug)]
pub struct MoveBody {
    pub uci: String,
    pub category: &'static str,
    pub dtm: Option<i32>,
    pub dtz: Option<i32>,
    /// A capture (it resets the no-capture count).
    pub zeroing: bool,
    /// The move ends the game (den entered, last animal taken).
    pub game_over: bool,
}

#[derive(Serialize, Debug)]
pub struct TablebaseBody {
    pub fen: String,
    pub table: String,
    pub category: &'static str,
    pub dtm: Option<i32>,
    pub dtz: Option<i32>,
    pub moves: Vec<MoveBody>,
}

fn category(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed-win",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "blessed-loss",
        Wdl::Loss => "loss",
    }
}

fn signed(v: TbValue) -> Option<i32> {
    match v {
        TbValue::Win(d) => Some(i32::from(d)),
        TbValue::Loss(d) => Some(-i32::from(d)),
        TbValue::Draw => None,
    }
}

/// Why a position has no answer: (HTTP status code, code, sentence).
pub type Refusal = (u16, &'static str, String);

/// The answer for `fen`, loading (or building) its table first: blocking.
pub fn probe(tb: &Tablebases, fen: &str) -> Result<TablebaseBody, Refusal> {
    let rules = tb.rules();
    let pos = Position::from_fen_with(fen, rules.moves)
        .map_err(|e| (400, "bad_fen", format!("invalid fen: {e}")))?;
    if pos.is_over_on_board() {
        return Err((400, "game_over", "the game is already over".into()));
    }
    let material = Material::of(&pos);
    if material.count() > MAX_ANIMALS {
        return Err((
            404,
            "no_table",
            format!(
                "{} animals; tables hold at most {MAX_ANIMALS}",
                material.count()
            ),
        ));
    }
    tb.ensure(material, &|_| {})
        .map_err(|e| (404, "no_table", e.to_string()))?;
    let set = tb.snapshot();
    let p = probe_position(&set, &pos).ok_or((404, "no_table", "not in the table".into()))?;
    let moves = probe_moves::<Standard>(&set, &pos).ok_or((
        404,
        "no_table",
        "a move leads outside the tables".into(),
    ))?;
    let sign = |w: Wdl, plies: Option<u16>| {
        plies.map(|z| match w {
            Wdl::Win | Wdl::CursedWin => i32::from(z),
            _ => -i32::from(z),
        })
    };
    Ok(TablebaseBody {
        fen: pos.to_fen(),
        table: material.canonical().to_string(),
        category: category(p.wdl),
        dtm: signed(p.outcome),
        dtz: sign(p.wdl, p.dtz).filter(|_| p.wdl != Wdl::Draw),
        moves: moves
            .iter()
            .map(|v| {
                // The position after the move, from its side to move: one ply less.
                let after = v.wdl.flipped();
                let game_over = v.outcome == TbValue::Win(1) && {
                    let mut child = pos;
                    child.play(v.mv);
                    child.is_over_on_board()
                };
                let dtm = match v.outcome {
                    TbValue::Win(d) => Some(-(i32::from(d) - 1)),
                    TbValue::Loss(d) => Some(i32::from(d) - 1),
                    TbValue::Draw => None,
                };
                let dtz = v
                    .dtz
                    .map(|z| if v.capture { 0 } else { z - 1 })
                    .and_then(|z| sign(after, Some(z)))
                    .filter(|_| after != Wdl::Draw);
                MoveBody {
                    uci: v.mv.to_string(),
                    category: category(after),
                    dtm,
                    dtz,
                    zeroing: v.capture,
                    game_over,
                }
            })
            .collect(),
    })
}
