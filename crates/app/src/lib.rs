//! The board app: the game owner behind the page, shared by `jungle gui` (a server with engine processes)
//! and the browser build (the engine in a worker): the page's requests (`api`), the
//! one controller that checks them with the rules core and drives the engines
//! (`controller`), what it says to engines (`engines`), the review of a game
//! (`review`), and the state the page is shown (`view`); the puzzles it offers
//! (`puzzles`: the shipped set, the next puzzle, the person's progress) and the
//! person's Glicko-2 rating (`puzzle_rating`). It does no I/O itself: its host carries requests and events.

pub mod api;
pub mod controller;
pub mod engines;
pub mod puzzle_rating;
pub mod puzzles;
pub mod review;
pub mod view;

use jungle_core::{board, game, text, with_move_rules};
