//! `jungle bot`: an engine plays on a `jungle serve` site as a bot account
//! (docs/accounts.md, "Bots"). It takes the lobby's open challenges that it accepts
//! (`choose`), joins each with its account's API token (`site`, plain HTTP/1.1), and
//! plays the game over the game's websocket, each move its engine's (`play`);
//! `command` is the command line.

pub mod choose;
pub mod command;
pub mod play;
pub mod site;
