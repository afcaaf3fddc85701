//! Position strings (FEN-like), as used by the public Jungle engines.
//!
//! `l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1`: ranks 9 down to 1 separated by
//! `/`, files a–g within a rank, animal letters (upper case Red, lower case Blue), digits
//! 1–7 for runs of empty squares; the side to move `r` or `b` (`w` is read as Red); then
//! optionally the plies since the last capture and the move number.

use super::geometry::{DEN_BB, WATER};
use super::piece::{Animal, Color, Piece};
use super::position::Position;
use super::rules::MoveRuleFlags;
use super::square::Square;
use crate::text::quote;
use std::fmt;
use std::str::FromStr;

pub const START_FEN: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1";

/// What is wrong with a position string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    Empty,
    WrongRankCount(usize),
    RankWidth { rank: u8, width: usize },
    UnknownLetter { rank: u8, letter: char },
    DuplicateAnimal(Piece),
    SharedSquare(Square),
    NonRatOnWater(Piece, Square),
    AnimalInOwnDen(Piece),
    BothDensEntered,
    NoAnimals,
    MissingSide,
    BadSide(String),
    BadHalfmove(String),
    BadFullmove(String),
    TrailingFields(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty position string"),
            FenError::WrongRankCount(n) => {
                write!(f, "position string has {n} ranks, expected 9 separated by '/'")
            }
            FenError::RankWidth { rank, width } => {
                write!(f, "rank {rank} is {width} squares wide, expected 7")
            }
            FenError::UnknownLetter { rank, letter } => write!(
                f,
                "unknown character '{}' in rank {rank} (animals are E L T P W D C R, empty runs 1-7)",
                quote(&letter.to_string())
            ),
            FenError::DuplicateAnimal(p) => write!(f, "two of the same animal: {p} appears twice"),
            FenError::SharedSquare(s) => write!(f, "two animals stand on {s}"),
            FenError::NonRatOnWater(p, s) => write!(
                f,
                "{p} stands in water on {s}; only rats swim (and dogs, when dogs swim)"
            ),
            FenError::AnimalInOwnDen(p) => write!(f, "{p} stands in its own den"),
            FenError::BothDensEntered => write!(f, "animals of both sides stand in the enemy den"),
            FenError::NoAnimals => write!(f, "the board has no animals"),
            FenError::MissingSide => write!(f, "side to move is missing (expected r or b)"),
            FenError::BadSide(s) => write!(f, "bad side to move '{}' (expected r, b or w)", quote(s)),
            FenError::BadHalfmove(s) => write!(
                f,
                "bad plies-since-capture counter '{}' (expected a whole number 0-65535)",
                quote(s)
            ),
            FenError::BadFullmove(s) => {
                write!(f, "bad move number '{}' (expected a whole number from 1)", quote(s))
            }
            FenError::TrailingFields(s) => write!(f, "unexpected text after the counters: '{}'", quote(s)),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses a position string. Never panics; every malformed string gets a `FenError`.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Position::from_fen_with(text, MoveRuleFlags::default())
    }

    /// Parses a position string for the given move rules (a dog may stand in water
    /// when dogs swim).
    pub fn from_fen_with(text: &str, rules: MoveRuleFlags) -> Result<Position, FenError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let mut pos = parse_placement(placement)?;

        let side = fields.next().ok_or(FenError::MissingSide)?;
        pos.side = match side {
            "r" | "w" => Color::Red,
            "b" => Color::Blue,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        if pos.side == Color::Blue {
            pos.key ^= super::zobrist::side_key();
        }
        if let Some(h) = fields.next() {
            pos.halfmove = h
                .parse::<u16>()
                .map_err(|_| FenError::BadHalfmove(h.to_string()))?;
        }
        if let Some(m) = fields.next() {
            pos.fullmove = match m.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(FenError::BadFullmove(m.to_string())),
            };
        }
        if let Some(extra) = fields.next() {
            return Err(FenError::TrailingFields(extra.to_string()));
        }
        check_placement(&pos, rules)?;
        Ok(pos)
    }

    /// A position from the square of every animal (`None`: captured), checked as a
    /// position string's placement is: two animals on one square is `SharedSquare`.
    /// Used by binary formats (training data, tablebases) that store squares.
    pub fn from_squares(
        squares: [[Option<Square>; 8]; 2],
        side: Color,
        halfmove: u16,
        rules: MoveRuleFlags,
    ) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        for c in Color::BOTH {
            for a in Animal::ALL {
                let Some(sq) = squares[c.index()][a.index()] else {
                    continue;
                };
                if pos.piece_at(sq).is_some() {
                    return Err(FenError::SharedSquare(sq));
                }
                pos.put(Piece::new(c, a), sq);
            }
        }
        pos.side = side;
        if side == Color::Blue {
            pos.key ^= super::zobrist::side_key();
        }
        pos.halfmove = halfmove;
        check_placement(&pos, rules)?;
        Ok(pos)
    }

    /// The position string, always with both counters.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(48);
        for rank in (0..9u8).rev() {
            let mut empty = 0;
            for file in 0..7u8 {
                let Some(sq) = Square::new(file, rank) else {
                    continue;
                };
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.side {
            Color::Red => 'r',
            Color::Blue => 'b',
        };
        s.push_str(&format!(" {side} {} {}", self.halfmove, self.fullmove));
        s
    }
}

fn parse_placement(placement: &str) -> Result<Position, FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 9 {
        return Err(FenError::WrongRankCount(ranks.len()));
    }
    let mut pos = Position::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 8 - i as u8; // the first rank listed is rank 9
        let width_error = || FenError::RankWidth {
            rank: rank + 1,
            width: rank_width(text),
        };
        let mut file: u8 = 0;
        for c in text.chars() {
            if let Some(run) = empty_run(c) {
                file += run;
            } else if let Some(piece) = Piece::from_letter(c) {
                let sq = Square::new(file, rank).ok_or_else(width_error)?;
                if pos.square_of(piece.color, piece.animal).is_some() {
                    return Err(FenError::DuplicateAnimal(piece));
                }
                pos.put(piece, sq);
                file += 1;
            } else {
                return Err(FenError::UnknownLetter {
                    rank: rank + 1,
                    letter: c,
                });
            }
            if file > 7 {
                return Err(width_error());
            }
        }
        if file != 7 {
            return Err(width_error());
        }
    }
    Ok(pos)
}

/// A digit 1-7 stands for that many empty squares.
fn empty_run(c: char) -> Option<u8> {
    c.to_digit(10)
        .filter(|d| (1..=7).contains(d))
        .map(|d| d as u8)
}

/// How many squares a rank's text describes (for the error message).
fn rank_width(text: &str) -> usize {
    text.chars()
        .map(|c| empty_run(c).map_or(1, usize::from))
        .sum()
}

impl Position {
    /// What `from_fen_with` checks of a placement under `rules` (no animal on water
    /// that cannot swim, none in its own den, some animal, not both dens entered), for
    /// a position made otherwise.
    pub fn check_placement_with(&self, rules: MoveRuleFlags) -> Result<(), FenError> {
        check_placement(self, rules)
    }
}

fn check_placement(pos: &Position, rules: MoveRuleFlags) -> Result<(), FenError> {
    for c in Color::BOTH {
        for a in Animal::ALL {
            let Some(sq) = pos.square_of(c, a) else {
                continue;
            };
            let piece = Piece::new(c, a);
            let swims = a == Animal::Rat || (a == Animal::Dog && rules.dog_swims);
            if !swims && WATER.contains(sq) {
                return Err(FenError::NonRatOnWater(piece, sq));
            }
            if DEN_BB[c.index()].contains(sq) {
                return Err(FenError::AnimalInOwnDen(piece));
            }
        }
    }
    if pos.all_occupied().is_empty() {
        return Err(FenError::NoAnimals);
    }
    let red_in = (pos.occupied(Color::Red) & DEN_BB[1]).any();
    let blue_in = (pos.occupied(Color::Blue) & DEN_BB[0]).any();
    if red_in && blue_in {
        return Err(FenError::BothDensEntered);
    }
    Ok(())
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

/// A position string's placement from its ranks as cells (rank 9 first, files a to g,
/// `.` for an empty square): the empty runs written as digits. For tests that draw a
/// position square by square.
#[cfg(test)]
pub(crate) fn placement_of_cells<S: AsRef<str>>(ranks: impl IntoIterator<Item = S>) -> String {
    let written: Vec<String> = ranks
        .into_iter()
        .map(|cells| {
            let mut out = String::new();
            let mut run = 0;
            for c in cells.as_ref().chars() {
                if c == '.' {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    out.push_str(&run.to_string());
                    run = 0;
                }
                out.push(c);
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            out
        })
        .collect();
    written.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        Position::from_fen(fen).expect_err(fen)
    }

    #[test]
    fn start_position_round_trips() {
        let p = Position::from_fen(START_FEN).unwrap();
        assert_eq!(p.to_fen(), START_FEN);
        assert_eq!(p.side_to_move(), Color::Red);
        assert_eq!(p.animal_count(Color::Red), 8);
        assert_eq!(p.animal_count(Color::Blue), 8);
        assert_eq!(
            p.square_of(Color::Red, Animal::Tiger),
            Some(super::super::square::sq::A1)
        );
        assert_eq!(
            p.square_of(Color::Blue, Animal::Elephant),
            Some(super::super::square::sq::G7)
        );
        assert_eq!(p.key(), p.compute_key());
    }

    #[test]
    fn counters_are_optional_and_w_means_red() {
        let p = Position::from_fen("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w").unwrap();
        assert_eq!(p.side_to_move(), Color::Red);
        assert_eq!(p.halfmove_clock(), 0);
        assert_eq!(p.fullmove_number(), 1);
        let b = Position::from_fen("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 17 42").unwrap();
        assert_eq!(b.side_to_move(), Color::Blue);
        assert_eq!(b.halfmove_clock(), 17);
        assert_eq!(b.fullmove_number(), 42);
        assert_eq!(b.key(), b.compute_key());
        assert_eq!(
            b.to_fen(),
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 17 42"
        );
    }

    #[test]
    fn rejects_wrong_rank_count() {
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 r"),
            FenError::WrongRankCount(8)
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L/7 r"),
            FenError::WrongRankCount(10)
        );
    }

    #[test]
    fn rejects_ranks_not_seven_wide() {
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/6/E1W1P1R/1C3D1/T5L r"),
            FenError::RankWidth { rank: 4, width: 6 }
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6L r"),
            FenError::RankWidth { rank: 1, width: 8 }
        );
        assert!(matches!(
            err("l5t/1d3c1/r1p1w1e/77777777/7/7/E1W1P1R/1C3D1/T5L r"),
            FenError::RankWidth { rank: 6, .. }
        ));
    }

    #[test]
    fn rejects_unknown_letters_and_digits() {
        for (fen, letter) in [
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5K r", 'K'),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T0L5 r", '0'),
            ("l5t/1d3c1/r1p1w1e/7/8/7/E1W1P1R/1C3D1/T5L r", '8'),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5\u{e9} r", '\u{e9}'),
        ] {
            assert!(
                matches!(err(fen), FenError::UnknownLetter { letter: l, .. } if l == letter),
                "{fen}"
            );
        }
    }

    #[test]
    fn rejects_two_of_the_same_animal() {
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4LL r"),
            FenError::DuplicateAnimal(Piece::new(Color::Red, Animal::Lion))
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/r6/E1W1P1R/1C3D1/T5L r"),
            FenError::DuplicateAnimal(Piece::new(Color::Blue, Animal::Rat))
        );
    }

    #[test]
    fn rejects_non_rats_in_water() {
        assert!(matches!(
            err("l5t/1d3c1/r1p1w1e/7/1D5/7/E1W1P1R/1C5/T5L r"),
            FenError::NonRatOnWater(p, _) if p == Piece::new(Color::Red, Animal::Dog)
        ));
        // A rat in water is fine.
        assert!(Position::from_fen("l5t/1d3c1/2p1w1e/7/1r5/7/E1W1P1R/1C3D1/T5L r").is_ok());
    }

    #[test]
    fn rejects_animals_in_their_own_den() {
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T2C2L r"),
            FenError::DuplicateAnimal(Piece::new(Color::Red, Animal::Cat))
        );
        assert_eq!(
            err("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/5D1/T2C2L r"),
            FenError::AnimalInOwnDen(Piece::new(Color::Red, Animal::Cat))
        );
        assert_eq!(
            err("l2e2t/1d3c1/r1p1w2/7/7/7/E1W1P1R/1C3D1/T5L r"),
            FenError::AnimalInOwnDen(Piece::new(Color::Blue, Animal::Elephant))
        );
    }

    #[test]
    fn rejects_bad_side_and_counters() {
        let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
        assert_eq!(err(board), FenError::MissingSide);
        assert_eq!(err(&format!("{board} x")), FenError::BadSide("x".into()));
        assert_eq!(
            err(&format!("{board} red")),
            FenError::BadSide("red".into())
        );
        assert_eq!(
            err(&format!("{board} r -1")),
            FenError::BadHalfmove("-1".into())
        );
        assert_eq!(
            err(&format!("{board} r 99999")),
            FenError::BadHalfmove("99999".into())
        );
        assert_eq!(
            err(&format!("{board} r x")),
            FenError::BadHalfmove("x".into())
        );
        assert_eq!(
            err(&format!("{board} r 0 0")),
            FenError::BadFullmove("0".into())
        );
        assert_eq!(
            err(&format!("{board} r 0 y")),
            FenError::BadFullmove("y".into())
        );
        assert_eq!(
            err(&format!("{board} r 0 1 z")),
            FenError::TrailingFields("z".into())
        );
    }

    #[test]
    fn rejects_empty_and_impossible_boards() {
        assert_eq!(err(""), FenError::Empty);
        assert_eq!(err("   "), FenError::Empty);
        assert_eq!(err("7/7/7/7/7/7/7/7/7 r"), FenError::NoAnimals);
        assert_eq!(err("3R3/7/7/7/7/7/7/7/3r3 r"), FenError::BothDensEntered);
        // One side already in the den is a finished game, and allowed.
        assert!(Position::from_fen("3R3/7/7/7/7/7/7/7/2r4 b").is_ok());
    }

    #[test]
    fn never_panics_on_junk() {
        let junk = [
            "/",
            "////////",
            "////////// r",
            "a/b/c/d/e/f/g/h/i r",
            "\0\0\0",
            "7/7/7/7/7/7/7/7/7",
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1 0",
            "🐘",
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L\tb\t3\t4",
        ];
        for j in junk {
            let _ = Position::from_fen(j);
        }
        let long = "7/".repeat(10_000);
        assert!(Position::from_fen(&long).is_err());
        let wide = format!("{}/7/7/7/7/7/7/7/7 r", "1".repeat(100_000));
        assert!(matches!(
            Position::from_fen(&wide),
            Err(FenError::RankWidth { .. })
        ));
    }
}
