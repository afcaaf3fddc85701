//! What the page is shown: the board app's state as plain data, serialised to JSON. It
//! carries everything the page draws, the rules' answers included (each target's kind,
//! the forbidden moves, the terrain of each square), so that the page computes no rule.

use crate::analysis::PvLine;
use crate::api::Players;
use crate::board::{geometry, Bitboard, Color, Move, MoveList, Square};
use crate::controller::{Controller, LEVEL_NAMES};
use crate::engines::{Host, PLAYER, SECOND};
use crate::events::Notice;
use crate::line::MoveKind;
use crate::review::SideSummary;
use crate::with_move_rules;
use serde::Serialize;
use std::collections::BTreeMap;

/// Scores beyond this (centipawns) are drawn at the edge of the evaluation graph.
const GRAPH_CAP: i32 = 1500;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub version: u64,
    /// The rules in words (`jungle`, `jungle-cn +DogSwims`, …).
    pub rules: String,
    pub variant: &'static str,
    pub dog_swims: bool,
    pub trapped_lose_attack: bool,
    pub fen: String,
    pub start_fen: String,
    /// The line's moves (those after `ply` are for redo).
    pub moves: Vec<String>,
    /// Each move's kind.
    pub move_kinds: Vec<MoveKind>,
    pub ply: usize,
    pub first_mover: &'static str,
    pub side_to_move: &'static str,
    /// Square by square from a1 (index = file + 7 × rank), what stands there.
    pub board: Vec<Option<PieceView>>,
    /// Square by square from a1: `land`, `water`, `trap` or `den`.
    pub terrain: Vec<SquareView>,
    /// For each square of the side to move, where its animal may go (only while a
    /// person is to move).
    pub legal: BTreeMap<String, Vec<Target>>,
    /// For each square, the targets only the anti-chase rules forbid.
    pub forbidden: BTreeMap<String, Vec<String>>,
    pub last_move: Option<String>,
    pub result: Option<ResultView>,
    pub players: Players,
    pub seats: Seats,
    /// The names of the player and the second engine.
    pub engines: [String; 2],
    pub engine_ids: [Option<String>; 2],
    pub level: u32,
    pub levels: Vec<LevelView>,
    pub levels_supported: bool,
    pub movetime_ms: u64,
    pub thinking: Option<Thinking>,
    pub hint: Option<String>,
    pub watch: WatchView,
    pub analysis: AnalysisView,
    pub review: Option<ReviewView>,
    /// The score after each ply from Red's view, capped for the graph.
    pub scores: Vec<Option<i32>>,
    pub notices: Vec<Notice>,
    pub can_undo: bool,
    pub can_redo: bool,
    /// The puzzle or lesson task on the board and the judge's answers (`judge`).
    pub judge: Option<crate::judge::JudgeView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PieceView {
    pub color: &'static str,
    pub animal: &'static str,
    pub rank: u8,
    pub letter: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SquareView {
    /// `land`, `water`, `trap` or `den`.
    pub kind: &'static str,
    /// Whose trap or den.
    pub side: Option<&'static str>,
}

/// A square an animal may move to, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    pub to: String,
    pub capture: bool,
    pub jump: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    pub winner: Option<&'static str>,
    /// In English (as a record's `Termination` has it).
    pub reason: String,
    pub text: String,
    /// The reason as the page words it (`reason.<code>`), and its arguments.
    pub code: &'static str,
    pub args: BTreeMap<&'static str, String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Seats {
    pub red: String,
    pub blue: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct LevelView {
    pub level: u32,
    pub name: &'static str,
    pub elo: Option<i64>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Thinking {
    pub side: &'static str,
    pub engine: String,
    pub elapsed_ms: u64,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WatchView {
    pub running: bool,
    pub clocks: [i64; 2],
    pub tc: Clock,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Clock {
    pub base_ms: u64,
    pub inc_ms: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    pub on: bool,
    pub multipv: u32,
    /// The position the lines are of.
    pub ply: usize,
    pub lines: Vec<PvLine>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ReviewView {
    pub running: bool,
    /// Positions searched, of `total`.
    pub done: usize,
    pub total: usize,
    /// Each move's note (none where the review says nothing).
    pub moves: Vec<Option<NoteView>>,
    pub red: SideSummary,
    pub blue: SideSummary,
}

#[derive(Clone, Debug, Serialize)]
pub struct NoteView {
    /// The score after the move from Red's view (`+0.35`, `#3`).
    pub eval: Option<String>,
    /// Points of expected result the move lost.
    pub loss: Option<f64>,
    pub mark: Option<&'static str>,
    pub symbol: Option<&'static str>,
    /// The engine's move where the move was marked (the tables' where they judged).
    pub best: Option<String>,
    /// What the endgame tables said of the move, where they covered the position.
    pub table: Option<TableView>,
}

/// The endgame tables' judgement of a move: its side's result before and after it
/// (`win`, `draw`, `loss`), and whether it was perfect (kept the result; in a lost
/// position, one of the slowest losses).
#[derive(Clone, Debug, Serialize)]
pub struct TableView {
    pub before: &'static str,
    pub after: &'static str,
    pub perfect: bool,
}

pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Blue => "Blue",
    }
}

/// The state of `c` as the page is shown it.
pub fn state(c: &Controller<impl Host>) -> View {
    let line = c.line();
    let pos = line.position();
    let side = pos.side_to_move();
    let result = line.result_code();
    let person_to_move = result.is_none() && c.seats().seat(side).is_none();
    let (legal, forbidden) = if person_to_move {
        targets(c)
    } else {
        (BTreeMap::new(), BTreeMap::new())
    };
    let seat_name = |color: Color| match c.seats().seat(color) {
        Some(slot) => c.engine(slot).name.clone(),
        None => "You".to_string(),
    };
    let elos = c.level_elos();
    let engines = [c.engine(PLAYER), c.engine(SECOND)];
    View {
        version: c.version(),
        rules: line.rules().to_string(),
        variant: line.rules().variant.name(),
        dog_swims: line.rules().moves.dog_swims,
        trapped_lose_attack: line.rules().moves.trapped_lose_attack,
        fen: pos.to_fen(),
        start_fen: line.start().to_fen(),
        moves: line.moves().iter().map(Move::to_string).collect(),
        move_kinds: line.kinds(),
        ply: line.cursor(),
        first_mover: line.start().side_to_move().name(),
        side_to_move: side.name(),
        board: Square::all()
            .map(|sq| {
                pos.piece_at(sq).map(|p| PieceView {
                    color: p.color.name(),
                    animal: p.animal.name(),
                    rank: p.animal.rank(),
                    letter: p.letter().to_string(),
                })
            })
            .collect(),
        terrain: terrains(),
        legal,
        forbidden,
        last_move: line
            .cursor()
            .checked_sub(1)
            .map(|i| line.moves()[i].to_string()),
        result: result.map(|(winner, reason, code)| ResultView {
            winner: winner.map(Color::name),
            text: match winner {
                Some(w) => format!("{} wins: {reason}", side_name(w)),
                None => format!("Draw: {reason}"),
            },
            reason,
            code: code.key,
            args: code.args.into_iter().collect(),
        }),
        players: c.seats().players,
        seats: Seats {
            red: seat_name(Color::Red),
            blue: seat_name(Color::Blue),
        },
        engines: engines.map(|e| e.name.clone()),
        engine_ids: engines.map(|e| e.id_name.clone()),
        level: c.seats().level,
        levels: LEVEL_NAMES
            .iter()
            .enumerate()
            .map(|(i, name)| LevelView {
                level: i as u32 + 1,
                name,
                elo: elos.as_ref().and_then(|e| e[i]),
            })
            .collect(),
        levels_supported: engines[0].declares("UCI_Elo") || engines[0].declares("Skill Level"),
        movetime_ms: c.seats().movetime_ms,
        thinking: c.thinking().map(|(color, slot, started)| Thinking {
            side: color.name(),
            engine: c.engine(slot).name.clone(),
            elapsed_ms: started.elapsed().as_millis() as u64,
        }),
        hint: c.hint().map(|m| m.to_string()),
        watch: WatchView {
            running: c.watch().running,
            clocks: c.watch().clocks,
            tc: Clock {
                base_ms: c.watch().tc.0,
                inc_ms: c.watch().tc.1,
            },
        },
        analysis: analysis(c),
        review: review(c),
        scores: c
            .graph_scores()
            .into_iter()
            .map(|s| s.map(|v| v.clamp(-GRAPH_CAP, GRAPH_CAP)))
            .collect(),
        notices: c.notices().iter().cloned().collect(),
        can_undo: line.cursor() > 0,
        can_redo: !line.at_end(),
        judge: c.judge().view(line.game()),
    }
}

/// The terrain of every square, from a1.
pub fn terrains() -> Vec<SquareView> {
    Square::all().map(terrain).collect()
}

/// The terrain of a square.
fn terrain(sq: Square) -> SquareView {
    let on = |bb: Bitboard| bb.contains(sq);
    let side = |sets: [Bitboard; 2]| {
        Color::BOTH
            .into_iter()
            .find(|c| on(sets[c.index()]))
            .map(Color::name)
    };
    if on(geometry::WATER) {
        SquareView {
            kind: "water",
            side: None,
        }
    } else if let Some(side) = side(geometry::TRAPS) {
        SquareView {
            kind: "trap",
            side: Some(side),
        }
    } else if let Some(side) = side(geometry::DEN_BB) {
        SquareView {
            kind: "den",
            side: Some(side),
        }
    } else {
        SquareView {
            kind: "land",
            side: None,
        }
    }
}

/// The review: its progress, each move's note, and each side's accuracy and marks.
fn review(c: &Controller<impl Host>) -> Option<ReviewView> {
    let r = c.review()?;
    let notes = c.review_notes();
    let [red, blue] = crate::review::summary(c.line().start(), &notes);
    Some(ReviewView {
        running: r.running(),
        done: r.done(),
        total: r.total(),
        moves: notes
            .iter()
            .map(|n| {
                n.as_ref().map(|n| NoteView {
                    eval: n.eval.map(jungle_core::review::eval_text),
                    loss: n.loss,
                    mark: n.mark.map(|m| m.name()),
                    symbol: n.mark.map(|m| m.symbol()),
                    best: n.best.clone(),
                    table: n.table.map(|t| TableView {
                        before: t.before.name(),
                        after: t.after.name(),
                        perfect: t.perfect,
                    }),
                })
            })
            .collect(),
        red,
        blue,
    })
}

pub fn analysis(c: &Controller<impl Host>) -> AnalysisView {
    let a = c.analysis();
    AnalysisView {
        on: a.on,
        multipv: a.multipv,
        ply: c.line().cursor(),
        lines: a.lines.clone(),
    }
}

/// For each square of the side to move: the squares its animal may move to (with the
/// kind of each move), and those that only the anti-chase rules forbid.
pub type Targets = (BTreeMap<String, Vec<Target>>, BTreeMap<String, Vec<String>>);

fn targets(c: &Controller<impl Host>) -> Targets {
    targets_of(c.line().game())
}

/// The targets of `game`'s side to move (the board's `legal` and `forbidden`), for any
/// host that shows a game: this app, an online game's messages.
pub fn targets_of(game: &crate::game::Game) -> Targets {
    let pos = game.position();
    let mut legal: BTreeMap<String, Vec<Target>> = BTreeMap::new();
    for &m in game.legal_moves().iter() {
        let kind = MoveKind::of(pos, m);
        legal.entry(m.from().to_string()).or_default().push(Target {
            to: m.to().to_string(),
            capture: kind.capture,
            jump: kind.jump,
        });
    }
    let mut forbidden: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if game.rules().anti_chase {
        let mut board_moves = MoveList::new();
        with_move_rules!(game.rules().moves, R => crate::board::movegen::generate_with::<R>(pos, &mut board_moves));
        for m in board_moves.iter() {
            if game.chase_explanation(*m).is_some() {
                forbidden
                    .entry(m.from().to_string())
                    .or_default()
                    .push(m.to().to_string());
            }
        }
    }
    (legal, forbidden)
}
