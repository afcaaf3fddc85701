//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data, and the position key XOR-ed with
//! that data. A probe accepts an entry only if `stored_key ^ data == key`, so an entry
//! torn by two threads writing at once is simply not found (Hyatt's lockless hashing).
//! Four entries make a 64-byte bucket, one cache line. Replacement prefers the same
//! position, then the entry whose depth, aged by how many searches ago it was written,
//! is lowest.

use crate::board::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);
const _: () = assert!(std::mem::align_of::<Bucket>() == 64);

// data layout: move 16 | score 16 | eval 16 | depth 8 | generation 6 + bound 2
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = mv.map_or(0, Move::raw) as u64;
    let s = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let e = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let d = depth.clamp(0, 255) as u64;
    let gb = ((generation as u64 & 63) << 2) | bound as u64;
    m | s << 16 | e << 32 | d << 48 | gb << 56
}

fn unpack(data: u64) -> Hit {
    Hit {
        mv: Move::from_raw(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: (data >> 48 & 0xFF) as i32,
        bound: match data >> 56 & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        },
    }
}

/// Writes packed data with its check word (key XOR data).
#[inline]
fn write(e: &Entry, key: u64, data: u64) {
    e.data.store(data, Ordering::Relaxed);
    e.key_xor_data.store(key ^ data, Ordering::Relaxed);
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & 63
}

/// Error when a table of the asked size cannot be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocError {
    pub megabytes: usize,
    pub reason: String,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a {} MB hash table: {}",
            self.megabytes, self.reason
        )
    }
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
    megabytes: usize,
}

impl TranspositionTable {
    /// A table of `megabytes` MB (at least one bucket).
    pub fn new(megabytes: usize) -> Result<TranspositionTable, AllocError> {
        let buckets = allocate(megabytes)?;
        Ok(TranspositionTable {
            buckets,
            generation: 0,
            megabytes,
        })
    }

    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// Replaces the table by one of the new size. On failure the old table is kept.
    pub fn resize(&mut self, megabytes: usize) -> Result<(), AllocError> {
        if megabytes == self.megabytes {
            return Ok(());
        }
        // Free the old table first so that old and new never both live in memory.
        let old_megabytes = self.megabytes;
        self.buckets = Vec::new();
        match allocate(megabytes) {
            Ok(b) => {
                self.buckets = b;
                self.megabytes = megabytes;
                Ok(())
            }
            Err(e) => {
                self.buckets =
                    allocate(old_megabytes).unwrap_or_else(|_| allocate(1).unwrap_or_default());
                if self.buckets.is_empty() {
                    self.buckets.push(Bucket::default());
                }
                self.megabytes = old_megabytes;
                Err(e)
            }
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
        self.generation = 0;
    }

    /// Called at the start of each search so that old entries age.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Hints the CPU to bring the bucket of `key` into cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; the pointer is to a live bucket.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.key_xor_data.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result. `score` must already be adjusted for mate distance from this node.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let bucket = self.bucket(key);
        let mut target = &bucket.entries[0];
        let mut worst = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.key_xor_data.load(Ordering::Relaxed);
            if check ^ data == key || data == 0 {
                // Same position: keep the old move if the new result has none, and do
                // not overwrite a deeper exact result with a shallow bound.
                if data != 0 {
                    let old = unpack(data);
                    if bound != Bound::Exact
                        && old.depth > depth + 3
                        && generation_of(data) == self.generation
                    {
                        return;
                    }
                    let data = pack(mv.or(old.mv), score, eval, depth, bound, self.generation);
                    write(e, key, data);
                    return;
                }
                target = e;
                break;
            }
            let age = (64 + self.generation as i32 - generation_of(data) as i32) & 63;
            let worth = unpack(data).depth - 8 * age;
            if worth < worst {
                worst = worth;
                target = e;
            }
        }
        write(
            target,
            key,
            pack(mv, score, eval, depth, bound, self.generation),
        );
    }

    /// Per mille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

fn allocate(megabytes: usize) -> Result<Vec<Bucket>, AllocError> {
    let err = |reason: String| AllocError { megabytes, reason };
    let bytes = megabytes
        .checked_mul(1024 * 1024)
        .ok_or_else(|| err("size overflows".into()))?;
    if let Some(available) = available_memory() {
        // Leave room for the rest of the process and the machine.
        if bytes as u64 > available / 10 * 9 {
            return Err(err(format!(
                "only {} MB of memory is available",
                available / (1024 * 1024)
            )));
        }
    }
    let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
    let mut buckets = Vec::new();
    buckets
        .try_reserve_exact(count)
        .map_err(|e| err(e.to_string()))?;
    buckets.resize_with(count, Bucket::default);
    Ok(buckets)
}

/// Memory the system can still give us, where the platform tells (Linux).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::square::sq;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::new(sq::A1, sq::A2);
        tt.store(0xDEAD_BEEF, Some(m), -1234, 56, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(hit.mv, Some(m));
        assert_eq!(hit.score, -1234);
        assert_eq!(hit.eval, 56);
        assert_eq!(hit.depth, 7);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(0xDEAD_BEEE).is_none());
    }

    #[test]
    fn keeps_the_move_when_a_result_has_none() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::new(sq::D4, sq::G4);
        tt.store(42, Some(m), 10, 0, 3, Bound::Exact);
        tt.store(42, None, 20, 0, 4, Bound::Upper);
        let hit = tt.probe(42).unwrap();
        assert_eq!(hit.mv, Some(m));
        assert_eq!(hit.score, 20);
    }

    #[test]
    fn clear_and_resize_forget_entries() {
        let mut tt = TranspositionTable::new(1).unwrap();
        tt.store(7, None, 1, 1, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(7).is_none());
        tt.store(7, None, 1, 1, 1, Bound::Exact);
        tt.resize(2).unwrap();
        assert_eq!(tt.megabytes(), 2);
        assert!(tt.probe(7).is_none());
        assert_eq!(tt.buckets.len(), 2 * 1024 * 1024 / 64);
    }

    #[test]
    fn refuses_an_impossible_size_and_keeps_the_old_table() {
        let mut tt = TranspositionTable::new(1).unwrap();
        assert!(tt.resize(usize::MAX / 2).is_err());
        assert_eq!(tt.megabytes(), 1);
        tt.store(9, None, 5, 5, 5, Bound::Exact);
        assert!(tt.probe(9).is_some());
    }

    #[test]
    fn hashfull_grows() {
        let mut tt = TranspositionTable::new(1).unwrap();
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
    }
}
