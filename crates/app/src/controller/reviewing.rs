//! The review of the game line: the analyser searches each position in turn at a
//! fixed budget; the host's endgame tables judge the moves of the positions they
//! cover.

use super::*;
use jungle_core::review_tables::{self, TableJudgement};

impl<H: Host> Controller<H> {
    // ----- the review ------------------------------------------------------------------

    /// True while a review searches.
    pub fn reviewing(&self) -> bool {
        self.review.as_ref().is_some_and(Review::running)
    }

    /// Stops the review's search, if one runs, and forgets the review.
    pub(super) fn cancel_review(&mut self) {
        if self.review.take().is_some() {
            self.stop_analyser_if(|j| matches!(j, Job::Review { .. }));
        }
    }

    /// Searches the review's next position; positions where the game is over are
    /// scored by their result without a search.
    pub(super) fn review_next(&mut self) {
        while let Some(ply) = self.review.as_ref().and_then(Review::next_ply) {
            let game = self.line.game_at(ply);
            if let Some(score) = jungle_core::review::terminal_score(&game) {
                if let Some(r) = self.review.as_mut() {
                    r.score_terminal(score);
                }
                continue;
            }
            let limits = Limits {
                nodes: Some(REVIEW_NODES),
                ..Limits::default()
            };
            self.search(
                ANALYSER,
                Job::Review { ply },
                ply,
                limits,
                Some(REVIEW_DEADLINE),
            );
            return;
        }
        // Done: the analyser is free again.
        self.restart_analysis();
    }

    /// The tables' judgement of each move of the line whose position before it the
    /// host's tables cover (`None` for the others).
    pub(super) fn table_judgements(&mut self) -> Vec<Option<TableJudgement>> {
        let mut game = Game::with_rules(*self.line.start(), self.line.rules());
        let moves = self.line.moves().to_vec();
        let mut judgements = vec![None; moves.len()];
        for (judgement, m) in judgements.iter_mut().zip(moves) {
            let values = self.host.table_values(&game);
            *judgement = values.and_then(|v| review_tables::judge(&v, m));
            if game.play(m).is_err() {
                // Cannot happen: every move of the line was checked when it was added.
                break;
            }
        }
        judgements
    }

    /// The review's search answered: its score and move are kept, the next follows.
    pub(super) fn review_answer(&mut self, text: &str) {
        if let Some(r) = self.review.as_mut() {
            r.answer(text);
        }
        self.review_next();
        self.changed();
    }
}
