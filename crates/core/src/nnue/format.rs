//! The network file format. All numbers little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `JUNGLENN` |
//! | 8 | 4 | format version (`u32`, 1) |
//! | 12 | 4 | inputs per perspective (`u32`, 1008) |
//! | 16 | 4 | hidden neurons per perspective (`u32`, [`HIDDEN`]) |
//! | 20 | 4 | output buckets (`u32`, 1 to 16) |
//! | 24 | 4 | activation (`u32`: 0 CReLU, 1 SCReLU) |
//! | 28 | 4 | QA (`u32`, 255) |
//! | 32 | 4 | QB (`u32`, 64) |
//! | 36 | 4 | scale: centipawns per unit of output (`u32`, 1 to 100000) |
//! | 40 | 4 | description length `L` in bytes (`u32`, at most 65536) |
//! | 44 | L | description: UTF-8 text saying how the network was made |
//! | 44+L | 2·INPUTS·HIDDEN | feature weights, `i16`, input-major (row of input 0 first) |
//! | … | 2·HIDDEN | feature biases, `i16` |
//! | … | 2·buckets·2·HIDDEN | output weights, `i16`, per bucket: side to move's half, then the other side's |
//! | … | 4·buckets | output biases, `i32` |
//! | end−4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! `Network::from_bytes` checks, in this order: the length of the fixed header, the
//! magic, the version, each architecture field against this engine, the total length,
//! the checksum, the description, and that no sum can overflow; the first failure is
//! the error.

use super::network::{Activation, Network, Row};
use super::{HIDDEN, INPUTS, MAX_BUCKETS, QA, QB};
use std::fmt;

pub const MAGIC: &[u8; 8] = b"JUNGLENN";
pub const VERSION: u32 = 1;
const FIXED_HEADER: usize = 44;
const MAX_DESCRIPTION: usize = 65536;
const MAX_SCALE: u32 = 100_000;

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file is shorter than its header says it must be.
    Truncated {
        expected: usize,
        found: usize,
    },
    /// The file is longer than its header says.
    TrailingBytes {
        expected: usize,
        found: usize,
    },
    /// Not a network file of this engine.
    BadMagic,
    UnsupportedVersion {
        found: u32,
        supported: u32,
    },
    /// An architecture field this engine cannot run.
    WrongArchitecture {
        field: &'static str,
        found: u32,
        expected: String,
    },
    BadChecksum {
        stored: u32,
        computed: u32,
    },
    /// The description is not UTF-8.
    BadDescription,
    /// Weights so large that the engine's integer sums could overflow.
    WeightsOutOfRange(&'static str),
    /// The file could not be read.
    Io(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Truncated { expected, found } => write!(
                f,
                "truncated network file: {found} bytes, the header needs {expected}"
            ),
            NetworkError::TrailingBytes { expected, found } => write!(
                f,
                "network file has {found} bytes, the header says {expected}"
            ),
            NetworkError::BadMagic => write!(f, "not a Jungle network file (bad magic)"),
            NetworkError::UnsupportedVersion { found, supported } => write!(
                f,
                "network file version {found} is not supported (this engine reads version {supported})"
            ),
            NetworkError::WrongArchitecture {
                field,
                found,
                expected,
            } => write!(
                f,
                "network architecture not supported: {field} is {found}, this engine needs {expected}"
            ),
            NetworkError::BadChecksum { stored, computed } => write!(
                f,
                "network file is corrupt: checksum {stored:08x} stored, {computed:08x} computed"
            ),
            NetworkError::BadDescription => write!(f, "network description is not UTF-8"),
            NetworkError::WeightsOutOfRange(what) => {
                write!(f, "network weights out of range: {what}")
            }
            NetworkError::Io(e) => write!(f, "cannot read network file: {e}"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// Bytes of the weights of a network with `buckets` buckets.
fn payload_len(buckets: usize) -> usize {
    2 * INPUTS * HIDDEN + 2 * HIDDEN + 2 * buckets * 2 * HIDDEN + 4 * buckets
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[offset..offset + 4]);
    u32::from_le_bytes(b)
}

/// Reads little-endian values in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn i16(&mut self) -> i16 {
        let v = i16::from_le_bytes([self.bytes[self.at], self.bytes[self.at + 1]]);
        self.at += 2;
        v
    }

    fn row(&mut self) -> Row {
        let mut r = Row::ZERO;
        for w in r.0.iter_mut() {
            *w = self.i16();
        }
        r
    }

    fn i32(&mut self) -> i32 {
        let v = u32_at(self.bytes, self.at) as i32;
        self.at += 4;
        v
    }
}

fn check_field(
    field: &'static str,
    found: u32,
    ok: bool,
    expected: impl Into<String>,
) -> Result<(), NetworkError> {
    if ok {
        Ok(())
    } else {
        Err(NetworkError::WrongArchitecture {
            field,
            found,
            expected: expected.into(),
        })
    }
}

impl Network {
    /// Reads a network file; see the module documentation for what is checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let found = bytes.len();
        if found < FIXED_HEADER {
            return Err(NetworkError::Truncated {
                expected: FIXED_HEADER,
                found,
            });
        }
        if &bytes[..8] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(NetworkError::UnsupportedVersion {
                found: version,
                supported: VERSION,
            });
        }
        let inputs = u32_at(bytes, 12);
        check_field(
            "inputs",
            inputs,
            inputs as usize == INPUTS,
            INPUTS.to_string(),
        )?;
        let hidden = u32_at(bytes, 16);
        check_field(
            "hidden",
            hidden,
            hidden as usize == HIDDEN,
            HIDDEN.to_string(),
        )?;
        let buckets = u32_at(bytes, 20);
        check_field(
            "buckets",
            buckets,
            (1..=MAX_BUCKETS as u32).contains(&buckets),
            format!("1 to {MAX_BUCKETS}"),
        )?;
        let code = u32_at(bytes, 24);
        let activation = u8::try_from(code).ok().and_then(Activation::from_code);
        check_field(
            "activation",
            code,
            activation.is_some(),
            "0 (crelu) or 1 (screlu)",
        )?;
        let qa = u32_at(bytes, 28);
        check_field("QA", qa, qa == QA as u32, QA.to_string())?;
        let qb = u32_at(bytes, 32);
        check_field("QB", qb, qb == QB as u32, QB.to_string())?;
        let scale = u32_at(bytes, 36);
        check_field(
            "scale",
            scale,
            (1..=MAX_SCALE).contains(&scale),
            format!("1 to {MAX_SCALE}"),
        )?;
        let desc_len = u32_at(bytes, 40) as usize;
        check_field(
            "description length",
            desc_len as u32,
            desc_len <= MAX_DESCRIPTION,
            format!("at most {MAX_DESCRIPTION}"),
        )?;
        let buckets = buckets as usize;
        let expected = FIXED_HEADER + desc_len + payload_len(buckets) + 4;
        if found < expected {
            return Err(NetworkError::Truncated { expected, found });
        }
        if found > expected {
            return Err(NetworkError::TrailingBytes { expected, found });
        }
        let stored = u32_at(bytes, found - 4);
        let computed = crc32fast::hash(&bytes[..found - 4]);
        if stored != computed {
            return Err(NetworkError::BadChecksum { stored, computed });
        }
        let description = std::str::from_utf8(&bytes[FIXED_HEADER..FIXED_HEADER + desc_len])
            .map_err(|_| NetworkError::BadDescription)?
            .to_string();

        let mut r = Reader {
            bytes,
            at: FIXED_HEADER + desc_len,
        };
        let ft_weights = (0..INPUTS).map(|_| r.row()).collect();
        let ft_bias = r.row();
        let out_weights = (0..buckets).map(|_| [r.row(), r.row()]).collect();
        let out_bias = (0..buckets).map(|_| r.i32()).collect();
        let net = Network {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            activation: activation.unwrap_or(Activation::SCReLU),
            scale: scale as i32,
            description,
        };
        net.validate().map_err(NetworkError::WeightsOutOfRange)?;
        Ok(net)
    }

    /// Reads a network file from disk.
    pub fn load(path: &std::path::Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path)
            .map_err(|e| NetworkError::Io(format!("{}: {e}", crate::text::quote_path(path))))?;
        Network::from_bytes(&bytes)
    }

    /// The file bytes of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.buckets();
        let desc = self.description.as_bytes();
        let desc = &desc[..desc.len().min(MAX_DESCRIPTION)];
        let mut out = Vec::with_capacity(FIXED_HEADER + desc.len() + payload_len(buckets) + 4);
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            INPUTS as u32,
            HIDDEN as u32,
            buckets as u32,
            self.activation as u32,
            QA as u32,
            QB as u32,
            self.scale as u32,
            desc.len() as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(desc);
        let rows = self
            .ft_weights
            .iter()
            .chain([&self.ft_bias])
            .chain(self.out_weights.iter().flatten());
        for row in rows {
            for w in row.0 {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::accumulator::tests::random_network;

    fn sample() -> (Network, Vec<u8>) {
        let mut net = random_network(3);
        net.description = "test network".into();
        let bytes = net.to_bytes();
        (net, bytes)
    }

    /// Rewrites the checksum after an edit, so that the check under test is reached.
    fn reseal(bytes: &mut [u8]) {
        let n = bytes.len();
        let crc = crc32fast::hash(&bytes[..n - 4]);
        bytes[n - 4..].copy_from_slice(&crc.to_le_bytes());
    }

    #[test]
    fn round_trips() {
        let (net, bytes) = sample();
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn embedded_network_loads() {
        let net = Network::from_bytes(crate::nnue::EMBEDDED).expect("embedded network");
        assert_eq!(net.to_bytes(), crate::nnue::EMBEDDED);
        assert!(!net.description().is_empty());
    }

    #[test]
    fn truncated_files_are_refused() {
        let (_, bytes) = sample();
        for len in [0, 7, 43, 44, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                matches!(
                    Network::from_bytes(&bytes[..len]),
                    Err(NetworkError::Truncated { .. })
                ),
                "length {len}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Network::from_bytes(&longer),
            Err(NetworkError::TrailingBytes { .. })
        ));
    }

    #[test]
    fn bad_magic_and_version_are_refused() {
        let (_, bytes) = sample();
        let mut b = bytes.clone();
        b[0] = b'X';
        assert_eq!(Network::from_bytes(&b), Err(NetworkError::BadMagic));
        let mut b = bytes.clone();
        b[8..12].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&b),
            Err(NetworkError::UnsupportedVersion {
                found: 2,
                supported: 1
            })
        );
    }

    #[test]
    fn corrupt_bytes_fail_the_checksum() {
        let (_, bytes) = sample();
        for at in [44, 1000, bytes.len() - 5, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[at] ^= 0x10;
            assert!(
                matches!(
                    Network::from_bytes(&b),
                    Err(NetworkError::BadChecksum { .. })
                ),
                "byte {at}"
            );
        }
    }

    #[test]
    fn wrong_architectures_are_refused() {
        let (_, bytes) = sample();
        for (offset, value, field) in [
            (12, 768u32, "inputs"),
            (16, HIDDEN as u32 / 2, "hidden"),
            (20, 0, "buckets"),
            (20, 17, "buckets"),
            (24, 2, "activation"),
            (28, 127, "QA"),
            (32, 128, "QB"),
            (36, 0, "scale"),
        ] {
            let mut b = bytes.clone();
            b[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
            reseal(&mut b);
            match Network::from_bytes(&b) {
                Err(NetworkError::WrongArchitecture {
                    field: f, found, ..
                }) => {
                    assert_eq!((f, found), (field, value))
                }
                other => panic!("{field} = {value}: {other:?}"),
            }
        }
        // A different bucket count is a valid architecture, but the length is wrong.
        let mut b = bytes.clone();
        b[20..24].copy_from_slice(&4u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetworkError::TrailingBytes { .. })
        ));
    }

    #[test]
    fn bad_description_and_weights_are_refused() {
        let (mut net, _) = sample();
        let mut b = net.to_bytes();
        b[44] = 0xff;
        reseal(&mut b);
        assert_eq!(Network::from_bytes(&b), Err(NetworkError::BadDescription));
        net.out_weights[3][1].0[5] = 128;
        assert!(matches!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetworkError::WeightsOutOfRange(_))
        ));
        net.out_weights[3][1].0[5] = 0;
        net.ft_weights[17].0[9] = 3000;
        assert!(matches!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetworkError::WeightsOutOfRange(_))
        ));
    }

    #[test]
    fn no_byte_pattern_panics() {
        let (_, bytes) = sample();
        let mut state = 99u64;
        for _ in 0..200 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut b = bytes[..(state as usize % 64).min(bytes.len())].to_vec();
            b.extend(std::iter::repeat((state >> 8) as u8).take((state >> 16) as usize % 64));
            let _ = Network::from_bytes(&b);
        }
    }
}
