//! The engine protocol (UCI conventions adapted to Jungle): line input, command
//! parsing, and the session that keeps the game and drives searches.

pub mod command;
pub mod input;
pub mod output;
pub mod session;

pub use session::run;
