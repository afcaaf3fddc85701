//! The training data format: one fixed-size record per position, no file header, so
//! files (and shards of one data set) concatenate with `cat`.
//!
//! A record is [`RECORD_BYTES`] = 16 bytes:
//!
//! | bytes  | what |
//! |--------|------|
//! | 0–11   | the square of each of the 16 animals, 6 bits each, little-endian bit order: Red rat … elephant, then Blue rat … elephant (`Animal::index()` order); 63 = captured |
//! | 12     | bit 0: side to move (0 Red, 1 Blue); bits 1–2: game result for the side to move (0 loss, 1 draw, 2 win); bits 3–7: zero |
//! | 13     | plies since the last capture, saturated at 255 |
//! | 14–15  | search score for the side to move, `i16` little-endian, in the engine's centipawns |
//!
//! Every record read back is checked as a position string is (`Position::from_squares`
//! under the default move rules): a corrupt record is an error naming its index, never
//! a panic or a silently wrong position.

use crate::board::rules::MoveRuleFlags;
use crate::board::{Animal, Color, FenError, Position, Square};
use std::fmt;
use std::io::{self, Read, Write};

pub const RECORD_BYTES: usize = 16;

/// Square code of a captured animal.
const CAPTURED_CODE: u8 = 63;

/// The result of the game a position came from, for the side to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Wdl {
    /// 0, ½ or 1.
    pub fn value(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    pub fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub pos: Position,
    /// Search score from the side to move's view.
    pub score: i16,
    /// Game result from the side to move's view.
    pub outcome: Wdl,
}

/// Why a record or a data file cannot be read.
#[derive(Debug)]
pub enum DataError {
    Io(io::Error),
    /// The file's length is not a whole number of records.
    TruncatedFile {
        bytes: u64,
    },
    BadSquareCode {
        record: u64,
        code: u8,
    },
    BadFlags {
        record: u64,
        flags: u8,
    },
    BadPosition {
        record: u64,
        error: FenError,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::TruncatedFile { bytes } => write!(
                f,
                "{bytes} bytes is not a whole number of {RECORD_BYTES}-byte records (truncated file?)"
            ),
            DataError::BadSquareCode { record, code } => {
                write!(f, "record {record}: square code {code} is not a square")
            }
            DataError::BadFlags { record, flags } => {
                write!(f, "record {record}: bad flags byte {flags:#04x}")
            }
            DataError::BadPosition { record, error } => {
                write!(f, "record {record}: not a position: {error}")
            }
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> DataError {
        DataError::Io(e)
    }
}

/// The record of a sample.
pub fn encode(sample: &Sample) -> [u8; RECORD_BYTES] {
    let mut bits: u128 = 0;
    let mut slot = 0;
    for c in Color::BOTH {
        for a in Animal::ALL {
            let code = sample
                .pos
                .square_of(c, a)
                .map_or(CAPTURED_CODE, |s| s.index() as u8);
            bits |= u128::from(code) << (6 * slot);
            slot += 1;
        }
    }
    let mut out = [0u8; RECORD_BYTES];
    out[..12].copy_from_slice(&bits.to_le_bytes()[..12]);
    out[12] = (sample.pos.side_to_move().index() as u8) | ((sample.outcome as u8) << 1);
    out[13] = sample.pos.halfmove_clock().min(255) as u8;
    out[14..16].copy_from_slice(&sample.score.to_le_bytes());
    out
}

/// The sample of a record; `index` only names the record in errors.
pub fn decode(record: &[u8; RECORD_BYTES], index: u64) -> Result<Sample, DataError> {
    let mut wide = [0u8; 16];
    wide[..12].copy_from_slice(&record[..12]);
    let bits = u128::from_le_bytes(wide);
    let mut squares = [[None; 8]; 2];
    for (slot, entry) in squares.iter_mut().flatten().enumerate() {
        let code = ((bits >> (6 * slot)) & 63) as u8;
        if code != CAPTURED_CODE {
            *entry = Some(Square::from_index(code).ok_or(DataError::BadSquareCode {
                record: index,
                code,
            })?);
        }
    }
    let flags = record[12];
    let outcome = match (flags >> 1) & 3 {
        0 => Wdl::Loss,
        1 => Wdl::Draw,
        2 => Wdl::Win,
        _ => {
            return Err(DataError::BadFlags {
                record: index,
                flags,
            })
        }
    };
    if flags >> 3 != 0 {
        return Err(DataError::BadFlags {
            record: index,
            flags,
        });
    }
    let side = if flags & 1 == 0 {
        Color::Red
    } else {
        Color::Blue
    };
    let pos = Position::from_squares(
        squares,
        side,
        u16::from(record[13]),
        MoveRuleFlags::default(),
    )
    .map_err(|error| DataError::BadPosition {
        record: index,
        error,
    })?;
    Ok(Sample {
        pos,
        score: i16::from_le_bytes([record[14], record[15]]),
        outcome,
    })
}

/// Writes samples as records.
pub fn write_samples<'a>(
    out: &mut impl Write,
    samples: impl IntoIterator<Item = &'a Sample>,
) -> io::Result<()> {
    for s in samples {
        out.write_all(&encode(s))?;
    }
    Ok(())
}

/// Reads every record of a data file (or stream); the first bad record is an error.
pub fn read_samples(input: &mut impl Read) -> Result<Vec<Sample>, DataError> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    decode_all(&bytes)
}

/// Decodes a whole buffer of records.
pub fn decode_all(bytes: &[u8]) -> Result<Vec<Sample>, DataError> {
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(DataError::TruncatedFile {
            bytes: bytes.len() as u64,
        });
    }
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| {
            let mut record = [0u8; RECORD_BYTES];
            record.copy_from_slice(chunk);
            decode(&record, i as u64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn samples_along_a_game() -> Vec<Sample> {
        let mut game = Game::startpos();
        let mut out = Vec::new();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for ply in 0..200 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let outcome = [Wdl::Loss, Wdl::Draw, Wdl::Win][ply % 3];
            out.push(Sample {
                pos: *game.position(),
                score: (ply as i16 - 100) * 37,
                outcome,
            });
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = moves[(rng % moves.len() as u64) as usize];
            if game.play(m).is_err() || game.position().is_over_on_board() {
                break;
            }
        }
        out
    }

    #[test]
    fn records_round_trip() {
        let samples = samples_along_a_game();
        assert!(samples.len() > 20);
        let mut bytes = Vec::new();
        write_samples(&mut bytes, &samples).unwrap();
        assert_eq!(bytes.len(), samples.len() * RECORD_BYTES);
        let back = read_samples(&mut bytes.as_slice()).unwrap();
        // The move number is not stored: everything else is.
        let without_move_number = |p: &Position| p.to_fen().rsplit_once(' ').unwrap().0.to_string();
        for (a, b) in samples.iter().zip(&back) {
            assert_eq!(without_move_number(&a.pos), without_move_number(&b.pos));
            assert_eq!(a.pos.key(), b.pos.key());
            assert_eq!((a.score, a.outcome), (b.score, b.outcome));
        }
        assert_eq!(samples.len(), back.len());
    }

    #[test]
    fn start_position_record_is_fixed() {
        // Pins the layout: changing it breaks every data file ever written.
        let s = Sample {
            pos: Position::startpos(),
            score: -2,
            outcome: Wdl::Win,
        };
        let r = encode(&s);
        assert_eq!(r[12], 0b100);
        assert_eq!(r[13], 0);
        assert_eq!(&r[14..], &[0xfe, 0xff]);
        // Red rat on g3 (index 2 * 7 + 6 = 20) in the low 6 bits.
        assert_eq!(r[0] & 63, 20);
    }

    #[test]
    fn corrupt_records_are_errors() {
        let good = encode(&samples_along_a_game()[0]);
        let mut truncated = good.to_vec();
        truncated.pop();
        assert!(matches!(
            decode_all(&truncated),
            Err(DataError::TruncatedFile { bytes: 15 })
        ));
        let mut flags = good;
        flags[12] = 0b110;
        assert!(matches!(
            decode(&flags, 7),
            Err(DataError::BadFlags { record: 7, .. })
        ));
        // Blue rat (slot 8) onto Red's rat square: two animals on one square.
        let mut shared = good;
        let mut wide = [0u8; 16];
        wide[..12].copy_from_slice(&shared[..12]);
        let mut bits = u128::from_le_bytes(wide);
        let red_rat = bits & 63;
        bits = (bits & !(63 << 48)) | (red_rat << 48);
        shared[..12].copy_from_slice(&bits.to_le_bytes()[..12]);
        assert!(matches!(
            decode(&shared, 0),
            Err(DataError::BadPosition { .. })
        ));
        // Every byte pattern decodes or errs; none panics.
        for b in 0..=255u8 {
            let mut r = good;
            r[b as usize % 12] = b;
            let _ = decode(&r, 0);
        }
    }
}
