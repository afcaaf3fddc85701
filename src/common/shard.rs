//! `--shard K/N`: part K of N of a fixed schedule of work items (games of `datagen`,
//! game pairs of `match`), so that N machines (a job array on a cluster scheduler) can
//! share one job.
//!
//! Shard K of N gets the contiguous range of items `[⌊(K−1)·T/N⌋, ⌊K·T/N⌋)` of the
//! `T` items: the N ranges are disjoint, cover every item once, differ in size by at
//! most one, and come in order, so the outputs of shards 1…N concatenate into the
//! output of the unsharded job.

use sha2::{Digest, Sha256};
use std::fmt;
use std::io;
use std::ops::Range;
use std::path::Path;
use std::str::FromStr;

/// Part `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// The whole job, unsharded (`1/1`).
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Part `index` of `count`; `None` unless `1 <= index <= count`.
    pub fn new(index: u32, count: u32) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// 1-based.
    pub fn index(self) -> u32 {
        self.index
    }

    pub fn count(self) -> u32 {
        self.count
    }

    /// This shard's items of a job of `total` items.
    pub fn range(self, total: u64) -> Range<u64> {
        let bound = |k: u32| (u128::from(total) * u128::from(k) / u128::from(self.count)) as u64;
        bound(self.index - 1)..bound(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "bad shard '{}' (expected K/N with 1 <= K <= N, like 3/8)",
                crate::text::quote(text)
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n).ok_or_else(bad)
    }
}

/// The SHA-256 of a file in lower-case hex: how the manifests of sharded jobs name a
/// shard's output.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    io::copy(&mut file, &mut hasher)?;
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_items_in_order_without_gaps() {
        for total in [0u64, 1, 2, 7, 10, 1001] {
            for count in 1..=12u32 {
                let mut next = 0;
                for k in 1..=count {
                    let r = Shard::new(k, count).expect("valid").range(total);
                    assert_eq!(r.start, next, "total {total}, shard {k}/{count}");
                    let size = r.end - r.start;
                    assert!(
                        size == total / u64::from(count) || size == total / u64::from(count) + 1
                    );
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(Shard::WHOLE.range(5), 0..5);
        assert_eq!(
            Shard::new(u32::MAX, u32::MAX)
                .expect("valid")
                .range(u64::MAX)
                .end,
            u64::MAX
        );
    }

    #[test]
    fn shard_text_is_checked() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        assert_eq!("1/1".parse::<Shard>(), Ok(Shard::WHOLE));
        assert_eq!(Shard::new(2, 5).expect("valid").to_string(), "2/5");
        for bad in [
            "", "3", "0/4", "5/4", "1/0", "a/b", "-1/4", "1/4/2", "1.5/4",
        ] {
            let err = bad.parse::<Shard>().expect_err(bad);
            assert!(err.contains(&format!("bad shard '{bad}'")), "{err}");
        }
    }
}
