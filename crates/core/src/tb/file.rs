//! The table file format (version 1). All numbers little-endian.
//!
//! ```text
//! offset size  field
//!      0    8  magic "JUNGLETB"
//!      8    2  format version (1)
//!     10    1  move rules: bit 0 dogs swim, bit 1 trapped animals lose their attack
//!     11    1  bytes per DTM value (1 or 2)
//!     12    2  no-capture rule in plies (0 = none: no DTZ values follow)
//!     14    1  Red's animals (bit = animal, rat = bit 0 ... elephant = bit 7)
//!     15    1  Blue's animals (the canonical signature of the pair)
//!     16    8  number of positions
//!     24    4  uncompressed bytes per block
//!     28    4  number of blocks B
//!     32   4B  compressed size of each block
//!   32+4B  ...  the blocks (zstd frames), in order
//!    end-4    4  CRC-32 of every byte before it
//! ```
//!
//! The uncompressed data is the DTM values (in index order, `width` bytes each), then
//! the DTZ values (one byte each), cut into blocks of the given size. A file is read
//! whole and checked (magic, version, sizes, checksum, decompressed lengths, the
//! signature and rules asked for) before any value is trusted.

use super::material::{Material, TbRules};
use super::table::{Dtms, Table};
use super::TbError;
use crate::board::rules::MoveRuleFlags;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"JUNGLETB";
pub const VERSION: u16 = 1;
const HEADER: usize = 32;
const BLOCK: usize = 1 << 20;
const LEVEL: i32 = 9;

/// The file name of a signature's table under `rules`: `ELvR.n100.jtb`.
pub fn file_name(material: Material, rules: &TbRules) -> String {
    format!("{}.{}.jtb", material.canonical(), rules.tag())
}

pub fn path_in(dir: &Path, material: Material, rules: &TbRules) -> PathBuf {
    dir.join(file_name(material, rules))
}

/// The file's bytes.
pub fn encode(table: &Table) -> Result<Vec<u8>, TbError> {
    let mut data = Vec::with_capacity(table.len() * (table.dtm.width() + 1));
    match &table.dtm {
        Dtms::Bytes(v) => data.extend_from_slice(v),
        Dtms::Words(v) => v
            .iter()
            .for_each(|w| data.extend_from_slice(&w.to_le_bytes())),
    }
    data.extend_from_slice(&table.dtz);
    let blocks: Vec<Vec<u8>> = data
        .par_chunks(BLOCK)
        .map(|chunk| zstd::bulk::compress(chunk, LEVEL))
        .collect::<Result<_, _>>()
        .map_err(|e| TbError::Io(format!("cannot compress {}: {e}", table.material)))?;
    let mut out = Vec::with_capacity(
        HEADER + 4 * blocks.len() + blocks.iter().map(Vec::len).sum::<usize>() + 4,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let moves = u8::from(table.rules.moves.dog_swims)
        | u8::from(table.rules.moves.trapped_lose_attack) << 1;
    out.push(moves);
    out.push(table.dtm.width() as u8);
    out.extend_from_slice(&table.rules.no_capture_plies.to_le_bytes());
    out.push(table.material.red);
    out.push(table.material.blue);
    out.extend_from_slice(&(table.len() as u64).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    for b in &blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(out)
}

/// Writes the table's file into `dir` through a temporary file (`NAME.jtb.ID.part`,
/// its own for each writer, flushed to the disk) renamed into place, so that a reader
/// never sees half a file and a process killed at any point leaves either no table or a
/// whole one; returns its path and size.
pub fn write(table: &Table, dir: &Path) -> Result<(PathBuf, u64), TbError> {
    let bytes = encode(table)?;
    std::fs::create_dir_all(dir).map_err(|e| {
        TbError::Io(format!(
            "cannot create {}: {e}",
            crate::text::quote_path(dir)
        ))
    })?;
    let path = path_in(dir, table.material, &table.rules);
    let tmp = part_path(&path);
    let written = (|| {
        use std::io::Write;
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(&bytes)?;
        file.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(TbError::Io(format!(
            "cannot write {}: {e}",
            crate::text::quote_path(&tmp)
        )));
    }
    std::fs::rename(&tmp, &path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        TbError::Io(format!(
            "cannot rename {} into place: {e}",
            crate::text::quote_path(&tmp)
        ))
    })?;
    // The rename itself, on the disk (where the system allows opening a directory).
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok((path, bytes.len() as u64))
}

/// A temporary name beside `path` that no other writer uses: the process and the time,
/// so that tasks on several machines sharing the directory do not meet.
fn part_path(path: &Path) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{}-{nanos}.part", std::process::id()));
    PathBuf::from(name)
}

/// Whether `name` is a temporary file that `write` left for the table file `table`
/// (a writer stopped before its rename).
pub fn is_part_of(name: &str, table: &str) -> bool {
    name.strip_prefix(table)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|rest| rest.ends_with(".part"))
}

/// Reads and checks the table of `material` under `rules` from `path`.
pub fn read(path: &Path, material: Material, rules: &TbRules) -> Result<Table, TbError> {
    let bytes = std::fs::read(path).map_err(|e| {
        TbError::Io(format!(
            "cannot read {}: {e}",
            crate::text::quote_path(path)
        ))
    })?;
    decode(&bytes, material, rules).map_err(|e| match e {
        TbError::Corrupt(why) => {
            TbError::Corrupt(format!("{}: {why}", crate::text::quote_path(path)))
        }
        TbError::Rules(why) => TbError::Rules(format!("{}: {why}", crate::text::quote_path(path))),
        other => other,
    })
}

/// Checks and unpacks a file's bytes.
pub fn decode(bytes: &[u8], material: Material, rules: &TbRules) -> Result<Table, TbError> {
    let corrupt = |why: String| TbError::Corrupt(why);
    if bytes.len() < HEADER + 4 {
        return Err(corrupt(format!(
            "only {} bytes, too short for a table",
            bytes.len()
        )));
    }
    if &bytes[..8] != MAGIC {
        return Err(corrupt("not a Jungle table file (bad magic)".into()));
    }
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    let u32_at =
        |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
    let version = u16_at(8);
    if version != VERSION {
        return Err(corrupt(format!(
            "format version {version}, this program reads {VERSION}"
        )));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    let actual = crc32fast::hash(body);
    if stored != actual {
        return Err(corrupt(format!(
            "checksum mismatch (stored {stored:08x}, computed {actual:08x}): truncated or damaged"
        )));
    }
    let moves = bytes[10];
    let file_rules = TbRules {
        moves: MoveRuleFlags {
            dog_swims: moves & 1 != 0,
            trapped_lose_attack: moves & 2 != 0,
        },
        no_capture_plies: u16_at(12),
    };
    let file_material = Material::new(bytes[14], bytes[15]);
    if file_rules != *rules {
        return Err(TbError::Rules(format!(
            "built for {file_rules}, wanted for {rules}"
        )));
    }
    if file_material != material.canonical() {
        return Err(corrupt(format!(
            "holds {file_material}, expected {}",
            material.canonical()
        )));
    }
    let width = bytes[11] as usize;
    if width != 1 && width != 2 {
        return Err(corrupt(format!("{width} bytes per DTM value")));
    }
    let positions = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or([0; 8])) as usize;
    let expected = super::index::Indexer::new(file_material, file_rules.moves.dog_swims).len();
    if positions != expected {
        return Err(corrupt(format!(
            "{positions} positions, the index has {expected}"
        )));
    }
    let block = u32_at(24) as usize;
    let count = u32_at(28) as usize;
    let dtz_bytes = if file_rules.no_capture_plies == 0 {
        0
    } else {
        positions
    };
    let total = positions * width + dtz_bytes;
    if block == 0 || count != total.div_ceil(block) || HEADER + 4 * count > body.len() {
        return Err(corrupt(format!(
            "{count} blocks of {block} bytes for {total} bytes"
        )));
    }
    let mut frames = Vec::with_capacity(count);
    let mut offset = HEADER + 4 * count;
    for k in 0..count {
        let size = u32_at(HEADER + 4 * k) as usize;
        if offset + size > body.len() {
            return Err(corrupt(format!("block {k} runs past the end of the file")));
        }
        let want = block.min(total - k * block);
        frames.push((&body[offset..offset + size], want));
        offset += size;
    }
    if offset != body.len() {
        return Err(corrupt(format!(
            "{} bytes after the last block",
            body.len() - offset
        )));
    }
    let parts: Vec<Vec<u8>> = frames
        .par_iter()
        .enumerate()
        .map(|(k, (frame, want))| {
            let data = zstd::bulk::decompress(frame, *want)
                .map_err(|e| corrupt(format!("block {k} does not decompress: {e}")))?;
            if data.len() != *want {
                return Err(corrupt(format!(
                    "block {k} holds {} bytes, expected {want}",
                    data.len()
                )));
            }
            Ok(data)
        })
        .collect::<Result<_, _>>()?;
    let data = parts.concat();
    let (dtm_bytes, dtz) = data.split_at(positions * width);
    let dtm = if width == 1 {
        Dtms::Bytes(dtm_bytes.to_vec())
    } else {
        Dtms::Words(
            dtm_bytes
                .chunks_exact(2)
                .map(|w| u16::from_le_bytes([w[0], w[1]]))
                .collect(),
        )
    };
    Table::new(file_material, file_rules, dtm, dtz.to_vec())
}
