//! The board app: the game owner behind the page, shared by `jungle gui` (a server
//! with engine processes) and the browser build (the engine in a worker). It does no
//! I/O itself: its host carries requests to the engines and events to the pages.
//!
//! - `api`: the page's requests, checked for form.
//! - `controller`: the one owner that takes requests and engine events in order and
//!   hands each to the part it is about:
//!   - `line`: the game line (start, rules, moves, cursor, verdict);
//!   - `seats`: who plays which side, the levels;
//!   - `watch`: the clocks of a game between engines;
//!   - `jobs`: the searches asked of the engines, one per slot;
//!   - `analysis`: the analysis lines;
//!   - `review`: the review of the line;
//!   - `records`: save and load.
//! - `engines`: what it says to engines and hears back; the `Host` that carries it.
//! - `events`: what it tells the pages unasked; `view`: the state the page is shown.
//! - `judge`: the judge of a person's tries at a puzzle or a lesson's task (right,
//!   wrong, the reply, the hint, the solution); the controller hands it the moves.
//! - `puzzles`: the puzzles it offers (the shipped set, the next puzzle, the person's
//!   progress); `puzzle_rating`: the person's Glicko-2 rating.
//! - `exercise`: the app driven by arbitrary bytes with its invariants checked (the
//!   fuzz target's and a seeded test's).
//! - `page`: the board's page as its hosts serve it (page/, built in), and the back
//!   end that talks to this app over HTTP.

pub mod analysis;
pub mod api;
pub mod controller;
pub mod engines;
pub mod events;
pub mod exercise;
pub mod jobs;
pub mod judge;
pub mod line;
pub mod page;
pub mod puzzle_rating;
pub mod puzzles;
pub mod records;
pub mod review;
pub mod seats;
pub mod view;
pub mod watch;

use jungle_core::{board, game, search, with_move_rules};
