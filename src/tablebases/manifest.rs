//! The manifest of a sharded table build (`manifest-5.tsv`): one row per finished
//! table, so that the set can be checked file by file and its cost read off.
//!
//! ```text
//! # comment lines (kept out of the rows, rewritten as the header below)
//! signature  file  positions  bytes  sha256  seconds  threads  builder
//! ELTvRD  ELTvRD.n100.jtb  26044416  3567839  9f86d0…  61.20  1  jungle 0.1.0 format 1
//! ```
//!
//! Fields are separated by tabs. `file` carries the rules (`n100`: the no-capture draw of
//! 100 plies); `seconds` is the build's wall time on `threads` threads, `-` when the
//! table was found already built. The file is rewritten whole through a temporary file
//! renamed into place, under a lock file (`NAME.lock`), since the tasks of an array
//! share it; rows come sorted by signature size, then name.

use crate::tb::file;
use crate::tb::Material;
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What wrote a table: the program and the file format.
pub fn builder_version() -> String {
    format!(
        "jungle {} format {}",
        env!("CARGO_PKG_VERSION"),
        file::VERSION
    )
}

const COLUMNS: [&str; 8] = [
    "signature",
    "file",
    "positions",
    "bytes",
    "sha256",
    "seconds",
    "threads",
    "builder",
];

/// One finished table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub material: Material,
    pub file: String,
    pub positions: u64,
    pub bytes: u64,
    pub sha256: String,
    /// `None`: found built (the time of its build is not known here).
    pub seconds: Option<f64>,
    pub threads: u32,
    pub builder: String,
}

impl Row {
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.material,
            self.file,
            self.positions,
            self.bytes,
            self.sha256,
            self.seconds.map_or("-".into(), |s| format!("{s:.2}")),
            self.threads,
            self.builder
        )
    }

    fn parse(line: &str) -> Result<Row, String> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != COLUMNS.len() {
            return Err(format!("{} fields, expected {}", f.len(), COLUMNS.len()));
        }
        let number = |i: usize| -> Result<u64, String> {
            f[i].parse()
                .map_err(|_| format!("{}: {:?} is not a number", COLUMNS[i], f[i]))
        };
        let sha = f[4];
        if sha.len() != 64
            || !sha
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        {
            return Err(format!("{sha:?} is not a SHA-256 in lower-case hex"));
        }
        let seconds = match f[5] {
            "-" => None,
            s => Some(
                s.parse::<f64>()
                    .map_err(|_| format!("seconds: {s:?} is not a number"))?,
            ),
        };
        Ok(Row {
            material: Material::parse(f[0]).map_err(|e| e.to_string())?,
            file: f[1].to_string(),
            positions: number(2)?,
            bytes: number(3)?,
            sha256: sha.to_string(),
            seconds,
            threads: u32::try_from(number(6)?).map_err(|_| "threads: too large".to_string())?,
            builder: f[7].to_string(),
        })
    }
}

/// The rows of a manifest, by file name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifest {
    pub rows: BTreeMap<String, Row>,
}

impl Manifest {
    /// Reads a manifest; a missing file is an empty one.
    pub fn load(path: &Path) -> Result<Manifest, String> {
        let text = match fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Manifest::default()),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        Manifest::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Manifest, String> {
        let mut m = Manifest::default();
        for (k, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() || line.starts_with("signature\t") {
                continue;
            }
            let row = Row::parse(line).map_err(|e| format!("line {}: {e}", k + 1))?;
            m.rows.insert(row.file.clone(), row);
        }
        Ok(m)
    }

    pub fn to_text(&self) -> String {
        let mut rows: Vec<&Row> = self.rows.values().collect();
        rows.sort_by_key(|r| (r.material.count(), r.positions, r.material.to_string()));
        let mut out = String::from(
            "# Jungle endgame tables (jungle tb build --shard; docs/tablebases.md): one row per\n\
             # finished table file. seconds: wall time of its build on `threads` threads (-: found\n\
             # built). Rewritten whole by each task; comment lines are not kept.\n",
        );
        out.push_str(&COLUMNS.join("\t"));
        out.push('\n');
        for r in rows {
            out.push_str(&r.line());
            out.push('\n');
        }
        out
    }

    /// Total bytes and positions of the rows.
    pub fn totals(&self) -> (u64, u64) {
        self.rows
            .values()
            .fold((0, 0), |(b, p), r| (b + r.bytes, p + r.positions))
    }
}

/// Adds or replaces `row` in the manifest at `path`: under its lock, read, changed and
/// written whole through a temporary file renamed into place.
pub fn record(path: &Path, row: Row) -> Result<(), String> {
    update(path, |m| {
        m.rows.insert(row.file.clone(), row);
    })
}

/// Changes the manifest at `path` under its lock.
pub fn update(path: &Path, change: impl FnOnce(&mut Manifest)) -> Result<(), String> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let _lock = Lock::take(path)?;
    let mut m = Manifest::load(path)?;
    change(&mut m);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(m.to_text().as_bytes())?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    written.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })
}

/// The lock file beside a manifest: made with `create_new`, removed on drop; one left
/// by a process killed while holding it is taken over after a minute (an update takes
/// milliseconds).
struct Lock(PathBuf);

impl Lock {
    const STALE: Duration = Duration::from_secs(60);

    fn take(manifest: &Path) -> Result<Lock, String> {
        let mut name = manifest.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let start = Instant::now();
        loop {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    let _ = writeln!(f, "{}", std::process::id());
                    return Ok(Lock(path));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    let age = fs::metadata(&path)
                        .and_then(|m| m.modified())
                        .ok()
                        .and_then(|t| t.elapsed().ok());
                    if age.is_some_and(|a| a > Self::STALE) {
                        let _ = fs::remove_file(&path);
                        continue;
                    }
                    if start.elapsed() > 2 * Self::STALE {
                        return Err(format!("cannot take the lock {}", path.display()));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(format!("cannot make the lock {}: {e}", path.display())),
            }
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(sig: &str, positions: u64) -> Row {
        let m = Material::parse(sig).unwrap();
        Row {
            material: m,
            file: format!("{m}.n100.jtb"),
            positions,
            bytes: positions / 3,
            sha256: "ab".repeat(32),
            seconds: Some(1.5),
            threads: 2,
            builder: builder_version(),
        }
    }

    #[test]
    fn manifests_round_trip_and_concurrent_updates_keep_every_row() {
        let dir = std::env::temp_dir().join(format!("jungle-manifest-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let path = dir.join("manifest-3.tsv");
        std::thread::scope(|s| {
            for (k, sig) in ["LvR", "EvT", "TvC", "WvD", "PvL", "RvR"]
                .into_iter()
                .enumerate()
            {
                let path = &path;
                s.spawn(move || record(path, row(sig, 100 + k as u64)).unwrap());
            }
        });
        let m = Manifest::load(&path).unwrap();
        assert_eq!(m.rows.len(), 6);
        let mut found = m.clone();
        found.rows.get_mut("LvR.n100.jtb").unwrap().seconds = None;
        let again = Manifest::parse(&found.to_text()).unwrap();
        assert_eq!(again, found);
        assert!(!dir.join("manifest-3.tsv.lock").exists());
        assert!(Manifest::parse("LvR\tx\t1").is_err());
        let _ = fs::remove_dir_all(&dir);
    }
}
