//! Puzzles and lessons on the board (`POST judge`): the task's game set as the line,
//! two people to play; the reply to a right move, the hint, the solution and the task
//! set again, each asked of the judge (`crate::judge`). The person's tries come by
//! `move` (`requests::human_move` hands them to the judge).

use super::*;
use crate::api::JudgeRequest;

impl<H: Host> Controller<H> {
    pub(super) fn judge_request(&mut self, request: JudgeRequest) -> Result<(), Refusal> {
        match request {
            JudgeRequest::Puzzle { id } => {
                let mut judge = self.judge.clone();
                let game = judge.set_puzzle(&id)?;
                self.set_task(game, judge);
            }
            JudgeRequest::Lesson { id, task } => {
                let mut judge = self.judge.clone();
                let game = judge.set_lesson(&id, task)?;
                self.set_task(game, judge);
            }
            JudgeRequest::Again {} => {
                let mut judge = self.judge.clone();
                let game = judge.again()?;
                self.set_task(game, judge);
            }
            JudgeRequest::Reply {} => {
                if let Some(m) = self.judge.reply(self.line.game()) {
                    self.push_move(m);
                }
            }
            JudgeRequest::Hint {} => {
                self.back_to_the_puzzle()?;
                self.judge.hint()?;
            }
            JudgeRequest::Solution {} => {
                self.back_to_the_puzzle()?;
                self.judge.show_solution()?;
            }
            JudgeRequest::Leave {} => self.judge.leave(),
        }
        Ok(())
    }

    /// A hint or the solution is asked for: the board set back at the puzzle's position
    /// if it has left it (an undo, a step back), so that they show where they hold.
    fn back_to_the_puzzle(&mut self) -> Result<(), Refusal> {
        self.judge.may_help()?;
        if !self.judge.stands_at(self.line.game()) {
            let mut judge = self.judge.clone();
            let game = judge.again()?;
            self.set_task(game, judge);
        }
        Ok(())
    }

    /// Shows `game` (a task's) as the line, two people to play, with `judge` judging.
    fn set_task(&mut self, game: Game, judge: crate::judge::Judge) {
        let moves = game.moves().to_vec();
        let ply = moves.len();
        self.set_line(GameLine::with_moves(
            *game.start_position(),
            *game.rules(),
            moves,
            ply,
        ));
        self.judge = judge;
        self.seats.players = Players::Both;
        self.watch.reset();
        self.send_level();
    }
}
