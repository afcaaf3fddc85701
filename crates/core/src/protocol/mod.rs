//! The engine protocol's text (UCI conventions adapted to Jungle, protocol.md), with no
//! I/O: what a line says (`command`), the options (`options`, one table), the game of
//! a position line (`position`), search reports (`info`, the one place they become
//! text and back), what other engines declare (`client`), and the one command loop
//! (`server`). The engine's session on stdin and stdout, the greedy player and the
//! browser's engine are each a `server::Program` behind that loop, so that one line
//! gets one answer from each of them.

pub mod client;
pub mod command;
pub mod info;
pub mod options;
pub mod position;
pub mod server;
