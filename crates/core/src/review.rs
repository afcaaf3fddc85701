//! The review of a finished game: what each move cost its side, by the engine's
//! scores before and after it, marked as an inaccuracy, a mistake or a blunder, and an
//! accuracy figure for each side. The board's "Review" and `jungle analyse` both use
//! these functions (docs/board.md, "Game review").
//!
//! The scale: a score is turned into the mover's expected result (win 1, draw ½,
//! loss 0) by `sigmoid(score / K)`, where K is the embedded network's scale: the K
//! for which `sigmoid(score / K)` best predicts the results of the engine's own
//! self-play games, fitted when the network was trained (`jungle train`). A move's
//! loss is the drop of its side's expected result, in percentage points.
//!
//! Where the endgame tables cover the position before a move, the note is made exact
//! (`with_tables`, from `review_tables::judge`): the mark, the loss and the better
//! move are the tables', and the note says what they found (`tb win perfect`,
//! `tb win->draw`).

use crate::board::{Color, Position};
use crate::game::{Game, GameResult};
use crate::review_tables::{TableJudgement, TableNote};
use crate::search::score::{MATE, MATE_BOUND};

/// A drop of at least this many points of expected result is an inaccuracy.
pub const INACCURACY: f64 = 5.0;
/// … a mistake.
pub const MISTAKE: f64 = 10.0;
/// … a blunder.
pub const BLUNDER: f64 = 15.0;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark of a move that lost `points` of expected result, if any.
    pub fn of_loss(points: f64) -> Option<Mark> {
        if points >= BLUNDER {
            Some(Mark::Blunder)
        } else if points >= MISTAKE {
            Some(Mark::Mistake)
        } else if points >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The sign written after the move, as in chess: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    pub fn from_name(name: &str) -> Option<Mark> {
        [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// The scale K (centipawns) of the expected-result model: the embedded network's.
pub fn scale() -> f64 {
    f64::from(crate::nnue::embedded().scale().max(1))
}

/// The expected result in percent (0–100) of the side a score (centipawns, mates as
/// ±(30000 − plies), as engines' `info` lines are read) is for.
pub fn expected_percent(score: i32) -> f64 {
    if score.abs() >= MATE_BOUND {
        return if score > 0 { 100.0 } else { 0.0 };
    }
    100.0 / (1.0 + (-f64::from(score) / scale()).exp())
}

/// The accuracy (0–100) of a move that lost `points` of expected result: lichess's
/// curve, 100 for a move that loses nothing, about 52 for a 15-point blunder.
pub fn move_accuracy(points: f64) -> f64 {
    (103.1668 * (-0.04354 * points.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// What a move cost: `before` is the score of the position before it from the
/// mover's view, `after` the score of the position after it from the opponent's
/// view (both as engines report them). Returns the points of expected result lost
/// (0 when the move did as well as the engine expected, or better).
pub fn loss(before: i32, after: i32) -> f64 {
    (expected_percent(before) - (100.0 - expected_percent(after))).max(0.0)
}

/// The accuracy of a side over its moves' losses: their mean accuracy (`None` with
/// no move).
pub fn accuracy(losses: &[f64]) -> Option<f64> {
    if losses.is_empty() {
        return None;
    }
    Some(losses.iter().map(|&l| move_accuracy(l)).sum::<f64>() / losses.len() as f64)
}

/// The side to move after `ply` plies from `start`.
pub fn mover_at(start: &Position, ply: usize) -> Color {
    if ply % 2 == 0 {
        start.side_to_move()
    } else {
        start.side_to_move().other()
    }
}

/// The score of a position where the game is over, from its side to move's view
/// (won: +30000, lost: −30000, drawn: 0); `None` while it goes on.
pub fn terminal_score(game: &Game) -> Option<i32> {
    match game.result() {
        GameResult::Ongoing => None,
        GameResult::Win { winner, .. } if winner == game.position().side_to_move() => Some(MATE),
        GameResult::Win { .. } => Some(-MATE),
        GameResult::Draw(_) => Some(0),
    }
}

/// The notes of the moves of `line` (played from `start`) from the scores of its
/// positions (`scores[i]`: position i from its side to move's view, `line.len() + 1`
/// of them) and the engine's move in each (`best`): the score after each move from
/// Red's view, its loss, its mark, and the engine's move where the move is marked.
pub fn notes(
    start: &Position,
    line: &[String],
    scores: &[Option<i32>],
    best: &[Option<String>],
) -> Vec<Option<MoveNote>> {
    (0..line.len())
        .map(|i| {
            let before = (*scores.get(i)?)?;
            let after = (*scores.get(i + 1)?)?;
            let loss = loss(before, after);
            let mark = Mark::of_loss(loss);
            let red_view = if mover_at(start, i + 1) == Color::Red {
                after
            } else {
                -after
            };
            let best = best
                .get(i)
                .cloned()
                .flatten()
                .filter(|b| mark.is_some() && *b != line[i]);
            Some(MoveNote {
                eval: Some(red_view),
                loss: Some(loss),
                mark,
                best,
                table: None,
            })
        })
        .collect()
}

/// The notes made exact where the tables judged the move (`judgements[i]` for move
/// i, `None` where they did not): the mark is the tables' (a blunder where a result
/// was thrown away, none otherwise, whatever the engine's scores say), the loss the
/// exact points of expected result lost (0, 50 or 100), the better move one that
/// keeps the result; the engine's score after the move stays.
pub fn with_tables(
    notes: Vec<Option<MoveNote>>,
    judgements: &[Option<TableJudgement>],
) -> Vec<Option<MoveNote>> {
    notes
        .into_iter()
        .enumerate()
        .map(|(i, note)| match judgements.get(i).cloned().flatten() {
            Some(j) => Some(exact_note(note.unwrap_or_default(), j)),
            None => note,
        })
        .collect()
}

fn exact_note(note: MoveNote, judgement: TableJudgement) -> MoveNote {
    let table = judgement.note;
    MoveNote {
        eval: note.eval,
        loss: Some(table.loss()),
        mark: table.is_blunder().then_some(Mark::Blunder),
        best: judgement.best.map(|m| m.to_string()),
        table: Some(table),
    }
}

/// What a review says of one move, written as the record's comment after it
/// (`{eval -1.95 loss 23.4 blunder best e7e6}`, `{eval +0.00 loss 50.0 tb win->draw
/// blunder best c3c4}`): the score of the position after the move from Red's view,
/// what the move lost its side, the tables' judgement, its mark, the better move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNote {
    /// Centipawns from Red's view, mates as ±(30000 − plies).
    pub eval: Option<i32>,
    /// Points of expected result lost.
    pub loss: Option<f64>,
    pub mark: Option<Mark>,
    /// The engine's move in the position before (the tables' where they judged),
    /// when the move was marked.
    pub best: Option<String>,
    /// What the tables said of the move, where they covered the position before it.
    pub table: Option<TableNote>,
}

impl MoveNote {
    /// The comment's text (without the braces).
    pub fn to_comment(&self) -> String {
        let mut parts = Vec::new();
        if let Some(e) = self.eval {
            parts.push(format!("eval {}", eval_text(e)));
        }
        if let Some(l) = self.loss {
            parts.push(format!("loss {l:.1}"));
        }
        if let Some(t) = self.table {
            parts.push(format!("tb {t}"));
        }
        if let Some(m) = self.mark {
            parts.push(m.name().to_string());
        }
        if let Some(b) = &self.best {
            parts.push(format!("best {b}"));
        }
        parts.join(" ")
    }

    /// Reads a comment written by `to_comment`; `None` when it says nothing of these
    /// (another program's comment).
    pub fn parse(comment: &str) -> Option<MoveNote> {
        let mut note = MoveNote::default();
        let mut table = None;
        let mut perfect = false;
        let mut t = comment.split_whitespace();
        while let Some(word) = t.next() {
            match word {
                "eval" => note.eval = t.next().and_then(parse_eval),
                "loss" => {
                    note.loss = t
                        .next()
                        .and_then(|v| v.parse().ok())
                        .filter(|l: &f64| l.is_finite() && *l >= 0.0)
                }
                "best" => note.best = t.next().map(str::to_string),
                "tb" => table = t.next(),
                "perfect" => perfect = true,
                other => {
                    if let Some(m) = Mark::from_name(other) {
                        note.mark = Some(m);
                    }
                }
            }
        }
        note.table = table.and_then(|value| TableNote::parse(value, perfect));
        (note != MoveNote::default()).then_some(note)
    }
}

/// A score from Red's view as written in comments: `+0.35` (pawns), `#3` (Red mates
/// in 3 moves), `#-3` (Blue mates in 3).
pub fn eval_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("#{}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("#-{}", (MATE + score + 1) / 2)
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

/// Reads `eval_text`.
pub fn parse_eval(text: &str) -> Option<i32> {
    if let Some(m) = text.strip_prefix('#') {
        let moves: i32 = m.parse().ok()?;
        return match moves {
            n if n > 0 && n < 500 => Some(MATE - (2 * n - 1)),
            n if n < 0 && n > -500 => Some(-MATE + 2 * -n),
            _ => None,
        };
    }
    let pawns: f64 = text.parse().ok()?;
    (pawns.is_finite() && pawns.abs() < f64::from(MATE_BOUND) / 100.0)
        .then(|| (pawns * 100.0).round() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_results_follow_the_score() {
        eprintln!("scale K = {}", scale());
        assert!((expected_percent(0) - 50.0).abs() < 1e-9);
        assert!(expected_percent(300) > 55.0 && expected_percent(300) < 100.0);
        assert!((expected_percent(300) + expected_percent(-300) - 100.0).abs() < 1e-9);
        assert_eq!(expected_percent(MATE - 5), 100.0);
        assert_eq!(expected_percent(-(MATE - 8)), 0.0);
    }

    #[test]
    fn losses_are_marked_by_their_size() {
        // Keeping the score loses nothing; a better result than expected is no loss.
        assert!(loss(120, -120) < 1e-9);
        assert_eq!(loss(0, -500), 0.0);
        // From a won position into a lost one: a blunder.
        let l = loss(MATE - 3, 400);
        assert!(l > 50.0, "{l}");
        assert_eq!(Mark::of_loss(l), Some(Mark::Blunder));
        assert_eq!(Mark::of_loss(4.9), None);
        assert_eq!(Mark::of_loss(5.0), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_loss(10.0), Some(Mark::Mistake));
        assert_eq!(Mark::of_loss(15.0), Some(Mark::Blunder));
        for m in [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder] {
            assert_eq!(Mark::from_name(m.name()), Some(m));
        }
    }

    #[test]
    fn accuracy_is_100_for_perfect_play_and_falls_with_losses() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(15.0) < 55.0 && move_accuracy(15.0) > 45.0);
        assert_eq!(move_accuracy(100.0), 0.0);
        assert_eq!(accuracy(&[]), None);
        let a = accuracy(&[0.0, 15.0]).expect("two moves");
        assert!(a > 70.0 && a < 80.0, "{a}");
    }

    #[test]
    fn notes_read_back_as_written() {
        let note = MoveNote {
            eval: Some(-195),
            loss: Some(23.44),
            mark: Some(Mark::Blunder),
            best: Some("e7e6".into()),
            table: None,
        };
        let text = note.to_comment();
        assert_eq!(text, "eval -1.95 loss 23.4 blunder best e7e6");
        let back = MoveNote::parse(&text).expect("a note");
        assert_eq!(back.eval, Some(-195));
        assert_eq!(back.mark, Some(Mark::Blunder));
        assert_eq!(back.best.as_deref(), Some("e7e6"));
        assert!((back.loss.unwrap_or(0.0) - 23.4).abs() < 1e-9);
        assert_eq!(MoveNote::parse("a comment of someone else"), None);
        assert_eq!(
            MoveNote::parse("loss -5 blunder").and_then(|n| n.loss),
            None
        );
        for score in [MATE - 1, MATE - 7, -(MATE - 2), -(MATE - 10), 0, 35, -1234] {
            assert_eq!(
                parse_eval(&eval_text(score)),
                Some(score),
                "{}",
                eval_text(score)
            );
        }
        assert_eq!(eval_text(MATE - 5), "#3");
        assert_eq!(eval_text(-(MATE - 4)), "#-2");
        assert_eq!(parse_eval("nan"), None);
        assert_eq!(parse_eval("#0"), None);
    }

    #[test]
    fn the_tables_judgement_replaces_the_engines_and_reads_back() {
        use crate::review_tables::TableResult::{Draw, Win};
        let engine_blunder = MoveNote {
            eval: Some(-150),
            loss: Some(30.0),
            mark: Some(Mark::Blunder),
            best: Some("a1a2".into()),
            table: None,
        };
        let perfect = TableJudgement {
            note: TableNote {
                before: Win,
                after: Win,
                perfect: true,
            },
            best: None,
        };
        let thrown = TableJudgement {
            note: TableNote {
                before: Win,
                after: Draw,
                perfect: false,
            },
            best: Some("c3c4".parse().expect("a move")),
        };
        let notes = with_tables(
            vec![
                Some(engine_blunder.clone()),
                Some(MoveNote::default()),
                None,
                None,
            ],
            &[Some(perfect), Some(thrown), None],
        );
        let comments: Vec<String> = notes.iter().flatten().map(MoveNote::to_comment).collect();
        assert_eq!(
            comments,
            [
                "eval -1.50 loss 0.0 tb win perfect",
                "loss 50.0 tb win->draw blunder best c3c4"
            ]
        );
        assert_eq!(notes[2], None, "no note, no judgement: none");
        for (note, text) in notes.iter().flatten().zip(&comments) {
            assert_eq!(MoveNote::parse(text).as_ref(), Some(note), "{text}");
        }
        // Comments written before the tables judged still read, with no judgement.
        let old = MoveNote::parse("eval -1.95 loss 23.4 blunder best e7e6").expect("a note");
        assert_eq!(old.table, None);
        assert_eq!(old.mark, Some(Mark::Blunder));
        assert_eq!(MoveNote::parse("tb nonsense").map(|n| n.table), None);
    }
}
