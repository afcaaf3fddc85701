//! The engine protocol (UCI conventions adapted to Jungle): line input, command
//! parsing, the session that keeps the game and hands searches to its search thread
//! (`searcher`).

pub mod command;
pub mod input;
pub mod output;
pub mod searcher;
pub mod session;

pub use session::run;
