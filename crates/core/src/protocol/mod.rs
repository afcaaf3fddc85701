//! The engine protocol's text (UCI conventions adapted to Jungle, protocol.md), with no
//! I/O: what a line says (`command`), the options (`options`, one table), the game of
//! a position line (`position`), search reports (`info`, the one place they become
//! text and back), and what other engines declare (`client`). The engine's session on
//! stdin and stdout, the greedy player and the browser's engine all read their lines
//! here, so that one line gets one answer from each of them.

pub mod client;
pub mod command;
pub mod info;
pub mod options;
pub mod position;
