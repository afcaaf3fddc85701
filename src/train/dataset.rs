//! Training positions in memory: the records of the data files as they are on disk
//! (16 bytes a position, so tens of millions fit), checked once when loaded and
//! turned into network inputs as batches need them.

use super::data::{self, DataError, Outcome, Sample, RECORD_BYTES};
use super::float_net::Inputs;
use crate::board::{Color, Square};
use rayon::prelude::*;
use std::fmt;

/// Records per block of the held-out split: `--holdout N` keeps every N-th block of
/// this many consecutive records out of training. Data generation writes each game's
/// positions one after another, so a block split keeps a game's positions (which are
/// alike and share a result) on one side, except the few games cut by a block edge.
pub const HOLDOUT_BLOCK: usize = 4096;

/// Why training data could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    Io { file: String, error: std::io::Error },
    Data { file: String, error: DataError },
    Empty,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { file, error } => {
                write!(f, "cannot read {}: {error}", crate::text::quote(file))
            }
            LoadError::Data { file, error } => write!(f, "{}: {error}", crate::text::quote(file)),
            LoadError::Empty => write!(f, "no training positions in the data files"),
        }
    }
}

impl std::error::Error for LoadError {}

/// The positions of one or more data files, in file order.
pub struct Dataset {
    bytes: Vec<u8>,
}

impl Dataset {
    /// Reads and checks every record of the files (in parallel; the first bad record
    /// of a file is the error).
    pub fn load(paths: &[String]) -> Result<Dataset, LoadError> {
        let mut bytes = Vec::new();
        for path in paths {
            let file = std::fs::read(path).map_err(|error| LoadError::Io {
                file: path.clone(),
                error,
            })?;
            check_records(&file).map_err(|error| LoadError::Data {
                file: path.clone(),
                error,
            })?;
            bytes.extend_from_slice(&file);
        }
        if bytes.is_empty() {
            return Err(LoadError::Empty);
        }
        Ok(Dataset { bytes })
    }

    pub fn from_samples(samples: &[Sample]) -> Dataset {
        let mut bytes = Vec::with_capacity(samples.len() * RECORD_BYTES);
        for s in samples {
            bytes.extend_from_slice(&data::encode(s));
        }
        Dataset { bytes }
    }

    pub fn len(&self) -> usize {
        self.bytes.len() / RECORD_BYTES
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    fn record(&self, i: usize) -> &[u8] {
        &self.bytes[i * RECORD_BYTES..(i + 1) * RECORD_BYTES]
    }

    /// Indices of the training and held-out positions: every `holdout`-th block of
    /// `HOLDOUT_BLOCK` records is held out (none when `holdout` is 0).
    pub fn split(&self, holdout: usize) -> (Vec<u32>, Vec<u32>) {
        (0..self.len() as u32)
            .partition(|&i| holdout == 0 || (i as usize / HOLDOUT_BLOCK) % holdout != holdout - 1)
    }

    /// The search score, the game result (0, ½, 1) and the network inputs of position
    /// `i`, mirrored left to right (file a ↔ g) when `mirror` is set: the board and
    /// the rules are symmetric that way, so the mirror is as good a position.
    pub fn get(&self, i: usize, mirror: bool, buckets: usize) -> (i16, f32, Inputs) {
        let r = self.record(i);
        let mut wide = [0u8; 16];
        wide[..12].copy_from_slice(&r[..12]);
        let bits = u128::from_le_bytes(wide);
        let mut squares = [[None; 8]; 2];
        for (slot, entry) in squares.iter_mut().flatten().enumerate() {
            // Checked when loaded: 63 (captured) or a square.
            *entry = Square::from_index(((bits >> (6 * slot)) & 63) as u8).map(|s| {
                if mirror {
                    Square::new(6 - s.file(), s.rank()).unwrap_or(s)
                } else {
                    s
                }
            });
        }
        let side = if r[12] & 1 == 0 {
            Color::Red
        } else {
            Color::Blue
        };
        let result = match (r[12] >> 1) & 3 {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            _ => Outcome::Win,
        }
        .value();
        let score = i16::from_le_bytes([r[14], r[15]]);
        (score, result, Inputs::from_squares(&squares, side, buckets))
    }

    /// The training weight of position `i`: `shuffle_weight` when it comes from a
    /// drawn game and lies `shuffle_plies` or more plies after the last capture (byte
    /// 13 of its record), else 1.
    pub fn weight(&self, i: usize, shuffle_plies: u8, shuffle_weight: f32) -> f32 {
        let r = self.record(i);
        let drawn = (r[12] >> 1) & 3 == Outcome::Draw as u8;
        if drawn && r[13] >= shuffle_plies {
            shuffle_weight
        } else {
            1.0
        }
    }

    /// (score, result) of position `i`.
    pub fn label(&self, i: usize) -> (i16, f32) {
        let (s, r, _) = self.get(i, false, 1);
        (s, r)
    }
}

/// Checks every record of a buffer; the first bad one is the error.
fn check_records(bytes: &[u8]) -> Result<(), DataError> {
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(DataError::TruncatedFile {
            bytes: bytes.len() as u64,
        });
    }
    let bad = bytes
        .par_chunks_exact(RECORD_BYTES)
        .enumerate()
        .find_map_first(|(i, chunk)| {
            let mut record = [0u8; RECORD_BYTES];
            record.copy_from_slice(chunk);
            data::decode(&record, i as u64).err()
        });
    bad.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::train::float_net::Inputs;

    #[test]
    fn records_give_the_positions_inputs_and_mirrors() {
        let mut pos = Position::startpos();
        pos.play(pos.parse_move("g3g4").unwrap());
        let sample = Sample {
            pos,
            score: -37,
            outcome: Outcome::Win,
        };
        let ds = Dataset::from_samples(&[sample]);
        let (score, result, inputs) = ds.get(0, false, 8);
        assert_eq!((score, result), (-37, 1.0));
        let direct = Inputs::of(&pos, 8);
        assert_eq!(inputs.us, direct.us);
        assert_eq!(inputs.them, direct.them);
        assert_eq!(inputs.bucket, 7);
        // The mirror of the position after g3g4 is the position after a3a4 of the
        // mirrored start, which is the start with rat and elephant files swapped.
        let mirrored = Position::from_fen("t5l/1c3d1/e1w1p1r/7/7/R6/2P1W1E/1D3C1/L5T b").unwrap();
        let (_, _, m) = ds.get(0, true, 8);
        let expected = Inputs::of(&mirrored, 8);
        let sorted = |l: &crate::nnue::features::FeatureList| {
            let mut v = l.as_slice().to_vec();
            v.sort();
            v
        };
        assert_eq!(sorted(&m.us), sorted(&expected.us));
        assert_eq!(sorted(&m.them), sorted(&expected.them));
    }

    #[test]
    fn the_split_holds_out_whole_blocks() {
        let sample = Sample {
            pos: Position::startpos(),
            score: 0,
            outcome: Outcome::Draw,
        };
        let ds = Dataset::from_samples(&vec![sample; HOLDOUT_BLOCK * 5 + 10]);
        let (train, held) = ds.split(3);
        // Blocks 2 and 5 (the last, of 10 records).
        assert_eq!(held.len(), HOLDOUT_BLOCK + 10);
        assert_eq!(held[0] as usize, 2 * HOLDOUT_BLOCK);
        assert_eq!(train.len() + held.len(), ds.len());
        let (train, held) = ds.split(0);
        assert_eq!((train.len(), held.len()), (ds.len(), 0));
    }

    #[test]
    fn bad_files_are_errors() {
        let dir = std::env::temp_dir();
        let path = dir.join(format!("jungle-dataset-{}.bin", std::process::id()));
        std::fs::write(&path, [0u8; 17]).unwrap();
        let p = path.to_string_lossy().into_owned();
        assert!(matches!(
            Dataset::load(std::slice::from_ref(&p)),
            Err(LoadError::Data { .. })
        ));
        std::fs::write(&path, []).unwrap();
        assert!(matches!(
            Dataset::load(std::slice::from_ref(&p)),
            Err(LoadError::Empty)
        ));
        let _ = std::fs::remove_file(&path);
        assert!(matches!(
            Dataset::load(&["/nonexistent/data.bin".to_string()]),
            Err(LoadError::Io { .. })
        ));
    }
}
