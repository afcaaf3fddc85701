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
//!
//! A five-animal table takes 0.5 to 0.8 GB in memory and seconds to load, so the
//! endpoint loads one table (with the tables its captures lead to) at a time and keeps
//! at most `--tablebase-memory-mb` of them, forgetting the least recently asked first;
//! each address may ask `--tablebase-per-minute` times a minute (server.rs).

use jungle_core::board::{Position, Standard};
use jungle_core::tb::store::TableSet;
use jungle_core::tb::table::{TbValue, Wdl};
use jungle_core::tb::{probe_moves, probe_position, Material, Tablebases, TbRules, MAX_ANIMALS};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Mutex;

/// The tables the endpoint reads, within a memory budget.
pub struct Endpoint {
    tables: Tablebases,
    /// The most bytes of tables kept in memory (the tables one answer needs are
    /// kept whatever their size).
    budget: usize,
    /// Signatures in memory by their last use, the most recent last. Held while a
    /// table is loaded: one load at a time.
    recent: Mutex<Vec<Material>>,
}

impl Endpoint {
    /// The tables of `dir` (none: up to 3 animals, built in memory), keeping at most
    /// `budget` bytes of them in memory.
    pub fn new(dir: Option<PathBuf>, budget: usize) -> Endpoint {
        Endpoint {
            tables: Tablebases::new(TbRules::default(), dir),
            budget,
            recent: Mutex::new(Vec::new()),
        }
    }

    /// The tables an answer about `material` reads, in memory: its own and those its
    /// captures lead to (loaded or built, blocking), the others forgotten, least
    /// recently used first, while the memory they take is over the budget.
    fn hold(&self, material: Material) -> Result<TableSet, Refusal> {
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        let mut needed = vec![material.canonical()];
        needed.extend(material.capture_children());
        for &m in &needed {
            self.tables
                .ensure(m, &|_| {})
                .map_err(|e| (404, "no_table", e.to_string()))?;
        }
        let set = self.tables.snapshot();
        // Whatever the loads brought in (dependencies too) counts as used now.
        recent.retain(|m| set.tables.contains_key(m) && !needed.contains(m));
        let mut loaded: Vec<Material> = set
            .tables
            .keys()
            .filter(|m| !recent.contains(m) && !needed.contains(m))
            .copied()
            .collect();
        loaded.sort();
        recent.extend(loaded);
        recent.extend(&needed);
        let mut bytes: usize = set.tables.values().map(|t| t.memory_bytes()).sum();
        while bytes > self.budget && recent.len() > needed.len() {
            let oldest = recent.remove(0);
            if let Some(t) = set.tables.get(&oldest) {
                bytes -= t.memory_bytes();
            }
            self.tables.forget(oldest);
            log::debug!("tablebase: {oldest} forgotten ({} MB kept)", bytes >> 20);
        }
        Ok(self.tables.snapshot())
    }

    /// The bytes of the tables in memory now.
    pub fn memory_bytes(&self) -> usize {
        let set = self.tables.snapshot();
        set.tables.values().map(|t| t.memory_bytes()).sum()
    }
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
pub fn probe(endpoint: &Endpoint, fen: &str) -> Result<TablebaseBody, Refusal> {
    let rules = endpoint.tables.rules();
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
    let set = endpoint.hold(material)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Red lion c3 and rat g1 against Blue's elephant d8 (LRvE), and a cat against a
    /// dog (CvD): two 3-animal tables built in memory.
    const LRVE: &str = "7/3e3/7/7/7/7/2L4/7/6R r 0 1";
    const CVD: &str = "7/3d3/7/7/7/7/2C4/7/7 r 0 1";

    fn signatures(e: &Endpoint) -> Vec<String> {
        let mut s: Vec<String> = e
            .tables
            .snapshot()
            .tables
            .keys()
            .map(|m| m.to_string())
            .collect();
        s.sort();
        s
    }

    #[test]
    fn the_tables_in_memory_stay_within_the_budget_least_recently_asked_forgotten() {
        // A budget of one byte: only the tables of the last answer stay.
        let small = Endpoint::new(None, 1);
        assert_eq!(probe(&small, LRVE).unwrap().category, "win");
        assert!(signatures(&small).contains(&"LRvE".to_string()));
        probe(&small, CVD).unwrap();
        let kept = signatures(&small);
        assert!(kept.contains(&"DvC".to_string()), "{kept:?}");
        assert!(!kept.contains(&"LRvE".to_string()), "{kept:?}");
        // What is kept is the last answer's table and those its captures lead to.
        let m = Material::parse("CvD").unwrap();
        let mut needed: Vec<String> = std::iter::once(m.canonical())
            .chain(m.capture_children())
            .map(|m| m.to_string())
            .collect();
        needed.sort();
        assert_eq!(kept, needed);
        // A forgotten table is loaded again when asked, with the same answer.
        let again = probe(&small, LRVE).unwrap();
        assert_eq!((again.category, again.dtm), ("win", Some(21)));
        // A large budget forgets nothing.
        let large = Endpoint::new(None, 1 << 30);
        probe(&large, LRVE).unwrap();
        probe(&large, CVD).unwrap();
        let kept = signatures(&large);
        assert!(kept.contains(&"LRvE".to_string()) && kept.contains(&"DvC".to_string()));
        assert!(large.memory_bytes() > small.memory_bytes());
    }
}
