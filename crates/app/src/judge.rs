//! The judge of a person's tries: a puzzle of the shipped set (through the core's
//! `puzzle::Attempt`) or a lesson's task (the moves that solve it). The controller
//! sets the task's position on the board (`POST judge`), hands the person's moves here
//! while the board stands where the judge expects them, and the view says the answer:
//! right (with the reply the board plays next), solved, or wrong; the hint, the
//! solution, how the puzzle counts. A move the rules refuse is refused as on any
//! board, with its code. The page draws what the view says and keeps no solution.

use crate::api::Refusal;
use crate::board::{Move, Position};
use crate::game::{Game, Variant};
use crate::puzzles::shipped;
use jungle_core::puzzle::{Attempt, Judgement};
use jungle_core::text::quote;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The lessons of "Learn" as the page lists them (page/lessons.js: plain JSON after
/// its `export default`), the tasks' positions and the moves that solve them with them. One file
/// for both: the page reads the ids and the number of tasks, the judge the rest.
pub const LESSONS_TEXT: &str = include_str!("../../../page/lessons.js");

/// A lesson: its tasks in order.
#[derive(Clone, Debug)]
pub struct Lesson {
    pub id: String,
    pub tasks: Vec<LessonTask>,
}

/// A lesson's task: the game set on the board (its position and the moves played
/// before it) and the moves that solve it.
#[derive(Clone, Debug)]
pub struct LessonTask {
    pub game: Game,
    pub accept: Vec<Move>,
}

#[derive(Deserialize)]
struct LessonData {
    id: String,
    tasks: Vec<TaskData>,
}

/// A task as lessons.js writes it (its `goal` and `refused` are for tests/page_data.rs).
#[derive(Deserialize)]
struct TaskData {
    fen: String,
    accept: Vec<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    before: Vec<String>,
}

/// Reads the lessons from the text of lessons.js (the JSON array it assigns).
pub fn read_lessons(text: &str) -> Result<Vec<Lesson>, String> {
    // The list exported (`export default [`), to its end.
    let (Some(open), Some(close)) = (
        text.find("export default [")
            .map(|i| i + "export default ".len()),
        text.rfind(']'),
    ) else {
        return Err("no list of lessons".into());
    };
    let data: Vec<LessonData> =
        serde_json::from_str(&text[open..=close]).map_err(|e| format!("not JSON: {e}"))?;
    data.into_iter()
        .map(|l| {
            let tasks = l
                .tasks
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    read_task(t).map_err(|e| format!("lesson {} task {}: {e}", l.id, i + 1))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Lesson { id: l.id, tasks })
        })
        .collect()
}

fn read_task(t: &TaskData) -> Result<LessonTask, String> {
    let variant = t.variant.as_deref().unwrap_or("jungle");
    let rules = Variant::from_name(variant)
        .ok_or_else(|| format!("no rule set {variant}"))?
        .rules();
    let start = Position::from_fen_with(&t.fen, rules.moves).map_err(|e| e.to_string())?;
    let mut game = Game::with_rules(start, rules);
    for m in &t.before {
        game.play_text(m).map_err(|e| format!("{m}: {e}"))?;
    }
    let accept = t
        .accept
        .iter()
        .map(|m| game.parse_move(m).map_err(|e| format!("{m}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LessonTask { game, accept })
}

/// The lessons, read once. A test checks that they read; were they damaged, the
/// judge would know no lesson rather than fail.
pub fn lessons() -> &'static [Lesson] {
    static SET: OnceLock<Vec<Lesson>> = OnceLock::new();
    SET.get_or_init(|| {
        read_lessons(LESSONS_TEXT).unwrap_or_else(|e| {
            log::error!("the lessons do not read: {e}");
            Vec::new()
        })
    })
}

/// The task being tried.
#[derive(Clone, Debug)]
enum Task {
    Puzzle(Box<Attempt>),
    Lesson {
        id: String,
        number: usize,
        task: Box<LessonTask>,
    },
}

/// What the last try was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Right; the board plays `reply` next (`POST judge {"do": "reply"}`).
    Right { tried: Move, reply: Move },
    /// Right, and the puzzle or the lesson's task is solved.
    Solved { tried: Move },
    /// Not the solution: a puzzle's board stays as it was; a lesson's shows the move
    /// until the task is set again (`again`).
    Wrong { tried: Move },
}

/// What the controller does with a judged move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// Plays it on the board.
    Play,
    /// Leaves the board as it is.
    Keep,
}

/// The judge: the task on the board, where the board should stand for a try to be
/// judged, and the answers of the moment.
#[derive(Clone, Debug, Default)]
pub struct Judge {
    task: Option<Task>,
    /// The game the board shows when the next try is the task's: a move made
    /// elsewhere (after an undo, say) is an ordinary move of two people.
    expected: Option<Game>,
    /// A right move's reply, not yet played.
    reply: Option<Move>,
    /// What the request of the moment was answered (gone at the next request).
    verdict: Option<Verdict>,
    hint: Option<Move>,
    /// The rest of a puzzle's line, once shown.
    solution: Option<Vec<Move>>,
}

fn same_game(a: &Game, b: &Game) -> bool {
    a.start_position() == b.start_position() && a.moves() == b.moves() && a.rules() == b.rules()
}

fn no_puzzle() -> Refusal {
    Refusal::conflict("there is no puzzle on the board").coded("noPuzzle", &[])
}

fn over() -> Refusal {
    Refusal::conflict("the puzzle is over: take the next one").coded("puzzleOver", &[])
}

impl Judge {
    /// Sets puzzle `id` of the shipped set; the game to show.
    pub fn set_puzzle(&mut self, id: &str) -> Result<Game, Refusal> {
        let puzzle = shipped().iter().find(|p| p.id == id).ok_or_else(|| {
            let id = quote(id);
            Refusal::bad(format!("no puzzle '{id}'")).coded("puzzleUnknown", &[("id", &id)])
        })?;
        let attempt = Attempt::new(puzzle.clone()).map_err(|e| {
            Refusal::bad(format!("puzzle {} does not set up: {e}", puzzle.id))
                .coded("puzzleUnknown", &[("id", &puzzle.id)])
        })?;
        let game = attempt.game().clone();
        self.set(Task::Puzzle(Box::new(attempt)), &game);
        Ok(game)
    }

    /// Sets task `number` (from 0) of lesson `id`; the game to show.
    pub fn set_lesson(&mut self, id: &str, number: usize) -> Result<Game, Refusal> {
        let task = lessons()
            .iter()
            .find(|l| l.id == id)
            .and_then(|l| l.tasks.get(number))
            .ok_or_else(|| {
                let (id, n) = (quote(id), (number as u128 + 1).to_string());
                Refusal::bad(format!("no task {n} in a lesson '{id}'"))
                    .coded("lessonUnknown", &[("lesson", &id), ("task", &n)])
            })?;
        let game = task.game.clone();
        self.set(
            Task::Lesson {
                id: id.to_string(),
                number,
                task: Box::new(task.clone()),
            },
            &game,
        );
        Ok(game)
    }

    fn set(&mut self, task: Task, game: &Game) {
        *self = Judge {
            task: Some(task),
            expected: Some(game.clone()),
            ..Judge::default()
        };
    }

    /// The task ends (the board stays as it is).
    pub fn leave(&mut self) {
        *self = Judge::default();
    }

    /// A new request: the answers of the last one go.
    pub fn forget_answers(&mut self) {
        self.verdict = None;
        self.hint = None;
    }

    /// Whether a puzzle is over (solved, or its solution shown).
    fn over(&self) -> bool {
        match &self.task {
            Some(Task::Puzzle(a)) => a.is_solved() || self.solution.is_some(),
            _ => false,
        }
    }

    /// Judges `m` (legal on `board`): `None` when there is no task or the board does not
    /// stand at the task's position (an ordinary move), else what to do with it.
    pub fn try_move(&mut self, board: &Game, m: Move) -> Result<Option<Judged>, Refusal> {
        if self.reply.is_some() && self.stands_at(board) {
            return Err(Refusal::conflict("wait for the board's reply").coded("puzzleReply", &[]));
        }
        if !self.stands_at(board) {
            return Ok(None);
        }
        if self.over() {
            return Err(over());
        }
        let judged = match &mut self.task {
            None => return Ok(None),
            Some(Task::Puzzle(attempt)) => {
                let answer = attempt.play(m).map_err(|e| {
                    Refusal::bad(format!("{m}: {e}")).coded("illegal", &[("move", &m.to_string())])
                })?;
                let (verdict, judged) = match answer {
                    Judgement::Right { reply } => {
                        self.reply = Some(reply);
                        (Verdict::Right { tried: m, reply }, Judged::Play)
                    }
                    Judgement::Solved => (Verdict::Solved { tried: m }, Judged::Play),
                    Judgement::Wrong => (Verdict::Wrong { tried: m }, Judged::Keep),
                };
                self.verdict = Some(verdict);
                judged
            }
            Some(Task::Lesson { task, .. }) => {
                self.verdict = Some(if task.accept.contains(&m) {
                    Verdict::Solved { tried: m }
                } else {
                    Verdict::Wrong { tried: m }
                });
                Judged::Play
            }
        };
        if judged == Judged::Play {
            let mut after = board.clone();
            after.play(m).map_err(|e| {
                Refusal::bad(e.to_string()).coded("illegal", &[("move", &m.to_string())])
            })?;
            self.expected = Some(after);
        }
        if matches!(self.task, Some(Task::Lesson { .. })) {
            // A lesson judges one try; `again` sets the task for the next.
            self.expected = None;
        }
        Ok(Some(judged))
    }

    /// The reply to play now on `board`, if one is due there.
    pub fn reply(&mut self, board: &Game) -> Option<Move> {
        if !self.stands_at(board) {
            return None;
        }
        let reply = self.reply.take()?;
        if let Some(Task::Puzzle(a)) = &self.task {
            self.expected = Some(a.game().clone());
        }
        Some(reply)
    }

    /// Whether the board shows the game the judge expects (a try there is judged).
    pub fn stands_at(&self, board: &Game) -> bool {
        self.expected.as_ref().is_some_and(|g| same_game(g, board))
    }

    /// Whether a puzzle is on the board that a hint or its solution may help: refused
    /// when there is none or it is over.
    pub fn may_help(&self) -> Result<(), Refusal> {
        if !matches!(self.task, Some(Task::Puzzle(_))) {
            return Err(no_puzzle());
        }
        if self.over() {
            return Err(over());
        }
        Ok(())
    }

    /// The puzzle's next move to find, shown as a hint (the puzzle then counts as
    /// not solved). The board must stand at the puzzle's position.
    pub fn hint(&mut self) -> Result<(), Refusal> {
        self.may_help()?;
        if self.reply.is_some() {
            return Err(Refusal::conflict("wait for the board's reply").coded("puzzleReply", &[]));
        }
        if let Some(Task::Puzzle(attempt)) = &mut self.task {
            self.hint = attempt.hint();
        }
        Ok(())
    }

    /// The rest of the puzzle's line, shown (the puzzle then counts as not solved).
    pub fn show_solution(&mut self) -> Result<(), Refusal> {
        self.may_help()?;
        if let Some(Task::Puzzle(attempt)) = &mut self.task {
            // A reply due is part of the rest.
            let mut rest: Vec<Move> = self.reply.take().into_iter().collect();
            rest.extend_from_slice(attempt.show_solution());
            self.solution = Some(rest);
        }
        Ok(())
    }

    /// The game to set on the board again: a lesson's task from its start, a puzzle
    /// where it stands.
    pub fn again(&mut self) -> Result<Game, Refusal> {
        let game = match &self.task {
            None => {
                return Err(
                    Refusal::conflict("there is no puzzle or lesson on the board")
                        .coded("noTask", &[]),
                )
            }
            Some(Task::Puzzle(a)) => {
                // A reply due is played with it.
                self.reply = None;
                a.game().clone()
            }
            Some(Task::Lesson { task, .. }) => task.game.clone(),
        };
        self.expected = Some(game.clone());
        Ok(game)
    }

    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    /// What the page is shown of the judge (nothing without a task).
    pub fn view(&self, board: &Game) -> Option<JudgeView> {
        let task = self.task.as_ref()?;
        let (kind, id, number, solver) = match task {
            Task::Puzzle(a) => ("puzzle", a.puzzle().id.clone(), None, a.solver()),
            Task::Lesson { id, number, task } => (
                "lesson",
                id.clone(),
                Some(*number),
                task.game.position().side_to_move(),
            ),
        };
        let outcome = match task {
            Task::Puzzle(a) => a.outcome(),
            Task::Lesson { .. } => None,
        };
        let text = |m: Move| m.to_string();
        Some(JudgeView {
            kind,
            id,
            task: number,
            solver: solver.name(),
            verdict: self.verdict.map(|v| match v {
                Verdict::Right { tried, reply } => VerdictView {
                    answer: "right",
                    tried: text(tried),
                    reply: Some(text(reply)),
                },
                Verdict::Solved { tried } => VerdictView {
                    answer: "solved",
                    tried: text(tried),
                    reply: None,
                },
                Verdict::Wrong { tried } => VerdictView {
                    answer: "wrong",
                    tried: text(tried),
                    reply: None,
                },
            }),
            reply: self.reply.filter(|_| self.stands_at(board)).map(text),
            // Shown where it was given (an engine may have moved since).
            hint: self.hint.filter(|_| self.stands_at(board)).and_then(|m| {
                Some(HintView {
                    square: m.from().to_string(),
                    animal: board.position().piece_at(m.from())?.animal.name(),
                })
            }),
            solution: self
                .solution
                .as_ref()
                .map(|s| s.iter().copied().map(text).collect()),
            over: self.over(),
            outcome,
        })
    }
}

/// The judge as the page reads it (`judge` in the state).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JudgeView {
    /// `puzzle` or `lesson`.
    pub kind: &'static str,
    /// The puzzle's id, or the lesson's.
    pub id: String,
    /// The lesson's task, from 0.
    pub task: Option<usize>,
    /// The side the person plays.
    pub solver: &'static str,
    /// The answer to the try just made.
    pub verdict: Option<VerdictView>,
    /// The reply the board plays next (`POST judge {"do": "reply"}`).
    pub reply: Option<String>,
    /// The hint just asked for: the square of the animal to move.
    pub hint: Option<HintView>,
    /// The rest of the puzzle's line once shown: the person's moves and the replies.
    pub solution: Option<Vec<String>>,
    /// The puzzle is solved or its solution shown.
    pub over: bool,
    /// How the puzzle counts once decided: solved cleanly (`true`), or not (`false`:
    /// a wrong move, a hint, the solution shown).
    pub outcome: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictView {
    /// `right` (the reply follows), `solved` or `wrong`.
    pub answer: &'static str,
    /// The move tried.
    #[serde(rename = "move")]
    pub tried: String,
    pub reply: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HintView {
    pub square: String,
    pub animal: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lessons_read_from_the_pages_file_and_bad_ones_are_named() {
        assert_eq!(read_lessons(LESSONS_TEXT).map(|l| l.len()), Ok(10));
        let bad = |tasks: &str| {
            read_lessons(&format!(
                "export default [{{\"id\": \"a\", \"tasks\": [{tasks}]}}];"
            ))
        };
        assert!(bad(r#"{"fen": "c6/7/7/7/7/7/3D3/7/7 r", "accept": ["d3d4"]}"#).is_ok());
        for (tasks, says) in [
            (r#"{"fen": "no", "accept": []}"#, "lesson a task 1"),
            (
                r#"{"fen": "c6/7/7/7/7/7/3D3/7/7 r", "accept": ["d3d5"]}"#,
                "d3d5",
            ),
            (
                r#"{"fen": "c6/7/7/7/7/7/3D3/7/7 r", "accept": [], "variant": "chess"}"#,
                "chess",
            ),
            (
                r#"{"fen": "c6/7/7/7/7/7/3D3/7/7 r", "accept": [], "before": ["a1a9"]}"#,
                "a1a9",
            ),
        ] {
            let e = bad(tasks).expect_err(tasks);
            assert!(e.contains(says), "{tasks}: {e}");
        }
        assert!(read_lessons("nothing").is_err());
    }
}
