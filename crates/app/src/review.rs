//! The review of the game line on the board: the analysing engine searches every
//! position of the line at a fixed node budget, in order; each move is then marked by
//! what it cost its side (`jungle_core::review`: the scale, the thresholds, the
//! accuracy). Where the host's endgame tables cover the position before a move, the
//! tables judge it instead, exactly (`jungle_core::review_tables`). A review also
//! comes from a record's comments (`jungle analyse`).

use crate::board::{Color, Position};
use jungle_core::game::{Game, Rules};
use jungle_core::review::{self, mover_at, Mark, MoveNote};
use jungle_core::review_tables::TableJudgement;
use jungle_core::tb::{game_move_values, MoveValue, Tablebases, TbRules};
use std::sync::Arc;

/// Nodes the engine searches in each position of a review (the same on every
/// device, so that a review does not depend on the machine's speed).
pub const REVIEW_NODES: u64 = 200_000;

/// A review in progress or done. It owns its scores; the graph shows them where it
/// has them.
#[derive(Clone, Debug, Default)]
pub struct Review {
    /// The score of each position of the line from its side to move's view
    /// (centipawns, mates as ±(30000 − plies)); `None` until searched.
    scores: Vec<Option<i32>>,
    /// The engine's move in each position.
    best: Vec<Option<String>>,
    /// The position being searched (`scores.len()` when done).
    next: usize,
    /// The score the running search last reported.
    last_score: Option<i32>,
    /// The tables' judgement of each move, where they covered the position before it.
    tables: Vec<Option<TableJudgement>>,
    /// Notes read from a record: the review as written, without searches.
    loaded: Option<Vec<Option<MoveNote>>>,
}

impl Review {
    /// A review to search of a line whose moves the tables judged where they could
    /// (`tables[i]` for move i, one for each move).
    pub fn new(tables: Vec<Option<TableJudgement>>) -> Review {
        let positions = tables.len() + 1;
        Review {
            scores: vec![None; positions],
            best: vec![None; positions],
            tables,
            ..Review::default()
        }
    }

    /// A review as a record's comments give it (`None` when they say nothing).
    pub fn from_comments(comments: &[Option<String>]) -> Option<Review> {
        let notes: Vec<Option<MoveNote>> = comments
            .iter()
            .map(|c| c.as_deref().and_then(MoveNote::parse))
            .collect();
        notes.iter().any(Option::is_some).then(|| Review {
            loaded: Some(notes),
            ..Review::default()
        })
    }

    pub fn running(&self) -> bool {
        self.loaded.is_none() && self.next < self.scores.len()
    }

    /// Positions searched so far, and in all.
    pub fn done(&self) -> usize {
        self.next.min(self.scores.len())
    }

    pub fn total(&self) -> usize {
        self.scores.len()
    }

    /// The position to search next, if any.
    pub fn next_ply(&self) -> Option<usize> {
        self.running().then_some(self.next)
    }

    /// The position at `next` is over: its score is the result's.
    pub fn score_terminal(&mut self, score: i32) {
        self.scores[self.next] = Some(score);
        self.next += 1;
    }

    /// A report of the running search (its main line's score).
    pub fn note_score(&mut self, score: i32) {
        self.last_score = Some(score);
    }

    /// The running search answered `best`: its position is done.
    pub fn answer(&mut self, best: &str) {
        let ply = self.next;
        self.scores[ply] = Some(self.last_score.take().unwrap_or(0));
        self.best[ply] = Some(best.to_string());
        self.next += 1;
    }

    /// The score of the position after `ply` plies from Red's view (`mover` is its side
    /// to move), where the review has one: searched, or written in the record.
    pub fn red_view_score(&self, ply: usize, mover: Color) -> Option<i32> {
        if let Some(notes) = &self.loaded {
            // A note follows a move: note i is of the position after i + 1 plies.
            return notes.get(ply.checked_sub(1)?)?.as_ref()?.eval;
        }
        let s = (*self.scores.get(ply)?)?;
        Some(if mover == Color::Red { s } else { -s })
    }

    /// The note of each move of `line` (played from `start`): the score after it from
    /// Red's view, its loss, mark and (when marked) the engine's move.
    pub fn notes(&self, start: &Position, line: &[String]) -> Vec<Option<MoveNote>> {
        match &self.loaded {
            Some(notes) => notes.clone(),
            None => review::with_tables(
                review::notes(start, line, &self.scores, &self.best),
                &self.tables,
            ),
        }
    }
}

/// Makes the tables of a rule set (`None` where no table serves it).
type MakeTables = dyn Fn(&Rules) -> Option<Arc<Tablebases>> + Send;

/// The endgame tables a host judges review positions by (`Host::table_values`): one
/// set per rule set met, made on first need by `make`, for positions of up to
/// `animals` animals.
pub struct ReviewTables {
    animals: usize,
    make: Box<MakeTables>,
    sets: Vec<Arc<Tablebases>>,
}

impl ReviewTables {
    /// Tables of up to `animals` animals from `make` (which says where they come from:
    /// built in memory, read from a directory).
    pub fn new(
        animals: usize,
        make: impl Fn(&Rules) -> Option<Arc<Tablebases>> + Send + 'static,
    ) -> ReviewTables {
        ReviewTables {
            animals,
            make: Box::new(make),
            sets: Vec::new(),
        }
    }

    /// Tables of up to `animals` animals, built in memory (no files): the 2- and
    /// 3-animal ones take moments, a 4-animal one a second or more.
    pub fn in_memory(animals: usize) -> ReviewTables {
        ReviewTables::new(animals, move |rules| {
            let rules = TbRules::for_rules(rules).ok()?;
            Some(Arc::new(
                Tablebases::new(rules, None).building(animals, false),
            ))
        })
    }

    /// Tables of up to `jungle_core::tb::store::BUILD_IN_MEMORY` (3) animals, built in
    /// memory.
    pub fn small() -> ReviewTables {
        ReviewTables::in_memory(jungle_core::tb::store::BUILD_IN_MEMORY)
    }

    /// The value of every legal move of `game`'s position, where these tables cover it.
    pub fn values(&mut self, game: &Game) -> Option<Vec<MoveValue>> {
        if game.position().all_occupied().count() as usize > self.animals {
            return None;
        }
        let rules = TbRules::for_rules(game.rules()).ok()?;
        let set = match self.sets.iter().find(|t| t.rules() == rules) {
            Some(set) => Arc::clone(set),
            None => {
                let set = (self.make)(game.rules())?;
                self.sets.push(Arc::clone(&set));
                set
            }
        };
        game_move_values(&set, game, self.animals)
    }
}

/// The small tables (`ReviewTables::small`).
impl Default for ReviewTables {
    fn default() -> ReviewTables {
        ReviewTables::small()
    }
}

/// Accuracy and marks of each side from the notes (`[red, blue]`).
pub fn summary(start: &Position, notes: &[Option<MoveNote>]) -> [SideSummary; 2] {
    let mut sides = [SideSummary::default(), SideSummary::default()];
    let mut losses = [Vec::new(), Vec::new()];
    for (i, note) in notes.iter().enumerate() {
        let Some(note) = note else { continue };
        let side = mover_at(start, i).index();
        if let Some(l) = note.loss {
            losses[side].push(l);
        }
        match note.mark {
            Some(Mark::Inaccuracy) => sides[side].inaccuracies += 1,
            Some(Mark::Mistake) => sides[side].mistakes += 1,
            Some(Mark::Blunder) => sides[side].blunders += 1,
            None => {}
        }
    }
    for (side, l) in sides.iter_mut().zip(&losses) {
        side.accuracy = review::accuracy(l);
    }
    sides
}

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct SideSummary {
    pub accuracy: Option<f64>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

impl SideSummary {
    /// `accuracy 84% · 1 inaccuracy · 0 mistakes · 1 blunder`.
    pub fn describe(&self) -> String {
        let plural =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{} · {} · {} · {}",
            self.accuracy
                .map_or("no moves".to_string(), |a| format!("accuracy {a:.0}%")),
            plural(self.inaccuracies, "inaccuracy", "inaccuracies"),
            plural(self.mistakes, "mistake", "mistakes"),
            plural(self.blunders, "blunder", "blunders")
        )
    }
}
