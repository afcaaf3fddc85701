//! The search: iterative deepening, principal variation search with aspiration
//! windows, quiescence, a shared lock-free transposition table, Lazy SMP threads.

pub mod beginner;
pub mod greedy;
pub mod info;
pub mod limits;
pub mod ordering;
pub mod parameters;
pub mod score;
#[allow(clippy::module_inception)]
pub mod search;
pub mod strength;
pub mod tbprobe;
pub mod threads;
pub mod time;
pub mod tt;

pub use info::{Report, SearchInfo};
pub use limits::{Limits, SearchOptions};
pub use score::{Score, ScoreBound, MATE, MATE_BOUND};
pub use threads::{Engine, SearchOutcome, SeedState};
