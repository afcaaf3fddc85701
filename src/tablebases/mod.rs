//! Endgame tables as an application: the `jungle tb` command (build, verify, probe,
//! statistics). The tables themselves are `jungle_core::tb`.

pub mod command;
pub mod manifest;
pub mod reach;
pub mod shards;
pub mod verify;
