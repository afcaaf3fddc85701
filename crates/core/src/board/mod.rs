//! The rules core: board geometry, position, move generation and position strings.
//! Knows nothing of input or output beyond parsing and printing its own notation.

pub mod bitboard;
pub mod count;
pub mod fen;
pub mod geometry;
pub mod illegal;
pub mod movegen;
pub mod moves;
pub mod piece;
pub mod position;
pub mod rules;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, START_FEN};
pub use illegal::{why_illegal_with, Illegal};
pub use moves::{Move, MoveList, ParseMoveError};
pub use piece::{Animal, Color, Piece};
pub use position::{Position, WinReason};
pub use rules::{MoveRules, Standard};
pub use square::Square;
