//! Jungle (Dou Shou Qi) engine: rules core, search, evaluation and protocol.

pub mod arena;
pub mod board;
pub mod cli;
pub mod eval;
pub mod game;
pub mod gui;
pub mod nnue;
pub mod protocol;
pub mod search;
pub mod tb;
pub mod text;
pub mod tools;
pub mod train;
