//! The searches the board app has asked its engines for: one job per engine slot at a
//! time (a new search on a slot replaces the one there), each with an id that the
//! engine's reports and answer carry back. An answer whose id is not the slot's job is
//! an outdated one (a stopped analysis, a search of a position left) and is dropped.

use crate::board::Color;
use jungle_core::clock::Instant;

/// What a search is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// An engine plays a move of the game.
    Play(PlayJob),
    /// Analysis of the shown position, until stopped.
    Analysis,
    /// A hint for the person: the analyser's move.
    Hint,
    /// The review searches the position after `ply` plies.
    Review { ply: usize },
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlayJob {
    pub color: Color,
    pub started: Instant,
    /// Already asked again once after the engine failed.
    pub retried: bool,
    /// The mover's last reported score (centipawns, mates as ±(30000 − plies)).
    pub score: Option<i32>,
}

/// The running job of each slot.
#[derive(Clone, Debug, Default)]
pub struct Jobs {
    next_id: u64,
    slots: [Option<(u64, Job)>; 3],
}

impl Jobs {
    /// Records `job` as `slot`'s (replacing what ran there); its search's id.
    pub fn start(&mut self, slot: usize, job: Job) -> u64 {
        self.next_id += 1;
        self.slots[slot] = Some((self.next_id, job));
        self.next_id
    }

    /// The job of `slot` if its id is `id` (a report or answer of the current search).
    pub fn get_mut(&mut self, slot: usize, id: u64) -> Option<&mut Job> {
        match &mut self.slots[slot] {
            Some((current, job)) if *current == id => Some(job),
            _ => None,
        }
    }

    /// Ends the job of `slot` if its id is `id`, returning it.
    pub fn finish(&mut self, slot: usize, id: u64) -> Option<Job> {
        match &self.slots[slot] {
            Some((current, _)) if *current == id => self.slots[slot].take().map(|(_, job)| job),
            _ => None,
        }
    }

    /// The job of `slot`, if any.
    pub fn on(&self, slot: usize) -> Option<&Job> {
        self.slots[slot].as_ref().map(|(_, job)| job)
    }

    /// The id of the search running on `slot`.
    pub fn slots_id(&self, slot: usize) -> Option<u64> {
        self.slots[slot].as_ref().map(|(id, _)| *id)
    }

    /// Forgets the job of `slot`; true when there was one (the engine is to be stopped).
    pub fn cancel(&mut self, slot: usize) -> bool {
        self.slots[slot].take().is_some()
    }

    /// The move being played, and on which slot.
    pub fn playing(&self) -> Option<(usize, &PlayJob)> {
        self.slots.iter().enumerate().find_map(|(slot, j)| match j {
            Some((_, Job::Play(p))) => Some((slot, p)),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_of_replaced_searches_are_outdated() {
        let mut jobs = Jobs::default();
        let first = jobs.start(2, Job::Analysis);
        let second = jobs.start(2, Job::Hint);
        assert!(jobs.get_mut(2, first).is_none());
        assert_eq!(jobs.finish(2, first), None);
        assert_eq!(jobs.on(2), Some(&Job::Hint));
        assert_eq!(jobs.finish(2, second), Some(Job::Hint));
        assert!(!jobs.cancel(2));
        let play = jobs.start(
            0,
            Job::Play(PlayJob {
                color: Color::Blue,
                started: Instant::now(),
                retried: false,
                score: None,
            }),
        );
        assert_eq!(
            jobs.playing().map(|(slot, p)| (slot, p.color)),
            Some((0, Color::Blue))
        );
        assert!(jobs.cancel(0));
        assert!(jobs.finish(0, play).is_none());
    }
}
