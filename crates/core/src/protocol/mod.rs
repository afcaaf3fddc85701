//! The engine protocol's text (UCI conventions adapted to Jungle, protocol.md), with no
//! I/O: what a line says, and what other engines declare and report. The engine's
//! session on stdin and stdout, the greedy player and the browser's engine all read
//! their lines here; `info` is the one place a search's report becomes text and back.

pub mod client;
pub mod command;
pub mod info;
