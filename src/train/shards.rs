//! `jungle data`: training data made in shards from a manifest committed to the
//! repository, the data itself kept outside git.
//!
//! **The manifest** (`data/manifests/RUN.tsv`, tab-separated, `#` lines are comments
//! and are not kept when the file is rewritten) holds the run's settings, one
//! `key<TAB>value` line each, and one `shard` row for every finished shard:
//!
//! | key | what |
//! |---|---|
//! | `bench` | `jungle bench`'s node count of the engine that makes the data: the games depend on its code and network, so another engine refuses to add or remake shards |
//! | `games`, `shards`, `seed` | the whole run's games, split into `shards` shards of `jungle datagen --shard K/N` |
//! | `nodes`, `hash`, `min-plies`, `max-plies`, `opening-margin`, `drop-min`, `drop-max`, `sample-plies`, `sample-lines`, `sample-margin`, `eval` | the `jungle datagen` settings of the same names |
//! | `note` | free text (optional): what the run is for, the commit that made it |
//! | `shard` | `K`, then the shard's games, positions, samples, bytes, SHA-256 of its file, Red's wins, Blue's wins, draws by repetition, draws by the no-capture rule |
//!
//! **The data** of manifest `RUN.tsv` is `DIR/RUN/shard-K.bin`, DIR being `--dir`,
//! else `$JUNGLE_DATA`, else `/work/data`. A shard is written to `shard-K.part`, its
//! row is added to the manifest (rewritten whole, through a temporary file), and then
//! it is renamed `shard-K.bin`. So a run stopped at any point loses at most the shard
//! it was on and goes on from there when started again; a finished shard whose file
//! matches its row is skipped; and a lost or damaged shard is played again and must
//! come out byte for byte as its row says (datagen depends only on the seed, the game
//! index and the settings: never on the threads or the machine). One runner at a
//! time per manifest.
//!
//! Each row is also written beside its data, as `shard-K.row` (the manifest's row
//! line), before the manifest is. A manifest that is behind its folder (the rows a
//! background run added after the last commit were lost with a work tree) catches up:
//! `run` takes the row of a shard it has no row for from `shard-K.row` when the file
//! matches it, instead of playing the shard again.

use super::data::RECORD_BYTES;
use super::datagen::{self, DatagenError, Settings, Stats};
use crate::common::shard::Shard;
use crate::nnue::EvalKind;
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The data folder when neither `--dir` nor `$JUNGLE_DATA` names one.
pub const DEFAULT_DATA_DIR: &str = "/work/data";

/// The data folder: `dir` if given, else `$JUNGLE_DATA`, else [`DEFAULT_DATA_DIR`].
pub fn data_dir(dir: Option<&str>) -> PathBuf {
    dir.map(PathBuf::from)
        .or_else(|| std::env::var_os("JUNGLE_DATA").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR))
}

/// What a finished shard's row records: all of it depends only on the settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardRow {
    pub games: u64,
    pub positions: u64,
    pub samples: u64,
    pub bytes: u64,
    pub sha256: String,
    pub red_wins: u64,
    pub blue_wins: u64,
    pub repetitions: u64,
    pub no_capture_draws: u64,
}

impl ShardRow {
    fn new(stats: &Stats, sha256: String) -> ShardRow {
        ShardRow {
            games: stats.games,
            positions: stats.positions,
            samples: stats.samples,
            bytes: stats.samples * RECORD_BYTES as u64,
            sha256,
            red_wins: stats.red_wins,
            blue_wins: stats.blue_wins,
            repetitions: stats.repetitions,
            no_capture_draws: stats.no_capture_draws,
        }
    }
}

/// A run: its settings and its finished shards.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The bench node count of the engine that makes the data.
    pub bench: u64,
    pub shards: u32,
    /// The datagen settings (`games`, `seed` and the game settings; the shard, threads
    /// and progress are the runner's).
    pub settings: Settings,
    pub note: String,
    pub done: BTreeMap<u32, ShardRow>,
}

/// Why a manifest cannot be used, or a shard not made.
#[derive(Debug)]
pub enum ShardError {
    Io {
        path: PathBuf,
        error: io::Error,
    },
    Manifest {
        path: PathBuf,
        line: usize,
        what: String,
    },
    Settings(String),
    Datagen {
        shard: u32,
        error: DatagenError,
    },
    /// This engine is not the one that made the data.
    Bench {
        manifest: u64,
        engine: u64,
    },
    /// A shard made again differs from its row.
    Mismatch {
        shard: u32,
        expected: Box<ShardRow>,
        got: Box<ShardRow>,
    },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            ShardError::Manifest { path, line, what } => {
                write!(f, "{} line {line}: {what}", path.display())
            }
            ShardError::Settings(what) => write!(f, "{what}"),
            ShardError::Datagen { shard, error } => write!(f, "shard {shard}: {error}"),
            ShardError::Bench { manifest, engine } => write!(
                f,
                "the manifest's data was made by the engine of bench {manifest}, this one's bench is {engine}: its games would differ (build the engine of the manifest's note)"
            ),
            ShardError::Mismatch { shard, expected, got } => write!(
                f,
                "shard {shard} made again differs from the manifest: {} samples, SHA-256 {} where the manifest has {} and {} (the code or the settings differ)",
                got.samples, got.sha256, expected.samples, expected.sha256
            ),
        }
    }
}

impl std::error::Error for ShardError {}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ShardError + '_ {
    move |error| ShardError::Io {
        path: path.to_path_buf(),
        error,
    }
}

const HEADER: &str =
    "# Training data manifest of `jungle data` (protocol.md, \"Training data\"): the run's
# settings, then a row for each finished shard. The data is DIR/RUN/shard-K.bin outside
# git (DIR: --dir, $JUNGLE_DATA or /work/data; RUN: this file's name without .tsv).
# `jungle data run` makes the missing shards and adds their rows; `jungle data verify`
# checks the files. Comment lines are not kept.
";

const ROW_HEADER: &str = "# shard\tK\tgames\tpositions\tsamples\tbytes\tsha256\tred-wins\tblue-wins\trepetitions\tno-capture-draws\n";

impl Manifest {
    /// A run of `shards` shards with these settings, none of them made yet.
    pub fn new(
        settings: Settings,
        shards: u32,
        bench: u64,
        note: &str,
    ) -> Result<Manifest, ShardError> {
        settings
            .check()
            .map_err(|e| ShardError::Settings(e.to_string()))?;
        if shards == 0 || u64::from(shards) > settings.games {
            return Err(ShardError::Settings(format!(
                "--shards {shards} must be from 1 to the number of games ({})",
                settings.games
            )));
        }
        if note.contains(['\n', '\r']) {
            return Err(ShardError::Settings("--note must be one line".into()));
        }
        Ok(Manifest {
            bench,
            shards,
            settings,
            note: note.to_string(),
            done: BTreeMap::new(),
        })
    }

    /// The manifest's text.
    pub fn to_text(&self) -> String {
        let s = &self.settings;
        let mut out = String::from(HEADER);
        if !self.note.is_empty() {
            out += &format!("note\t{}\n", self.note);
        }
        let eval = match s.eval {
            EvalKind::Nnue => "nnue",
            EvalKind::Classical => "classical",
        };
        for (key, value) in [
            ("bench", self.bench.to_string()),
            ("games", s.games.to_string()),
            ("shards", self.shards.to_string()),
            ("seed", s.seed.to_string()),
            ("nodes", s.nodes.to_string()),
            ("hash", s.hash_mb.to_string()),
            ("min-plies", s.min_plies.to_string()),
            ("max-plies", s.max_plies.to_string()),
            ("opening-margin", s.opening_margin.to_string()),
            ("drop-min", s.drop_min.to_string()),
            ("drop-max", s.drop_max.to_string()),
            ("sample-plies", s.sample_plies.to_string()),
            ("sample-lines", s.sample_lines.to_string()),
            ("sample-margin", s.sample_margin.to_string()),
            ("eval", eval.to_string()),
        ] {
            out += &format!("{key}\t{value}\n");
        }
        out += ROW_HEADER;
        for (&k, r) in &self.done {
            out += &row_line(k, r);
        }
        out
    }

    /// Reads a manifest's text (`path` names it in errors).
    pub fn parse(text: &str, path: &Path) -> Result<Manifest, ShardError> {
        let err = |line: usize, what: String| ShardError::Manifest {
            path: path.to_path_buf(),
            line,
            what,
        };
        let mut values: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
        let mut rows = BTreeMap::new();
        let mut note = String::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            match fields[0] {
                "note" => note = fields[1..].join("\t"),
                "shard" => {
                    let (k, row) = parse_row(&fields[1..]).map_err(|what| err(n, what))?;
                    if rows.insert(k, row).is_some() {
                        return Err(err(n, format!("shard {k} has two rows")));
                    }
                }
                key if KEYS.contains(&key) => {
                    if fields.len() != 2 {
                        return Err(err(n, format!("{key}: one value expected")));
                    }
                    if values.insert(key, (n, fields[1])).is_some() {
                        return Err(err(n, format!("{key} is given twice")));
                    }
                }
                other => return Err(err(n, format!("unknown key {other:?}"))),
            }
        }
        let get = |key: &str| -> Result<(usize, &str), ShardError> {
            values
                .get(key)
                .copied()
                .ok_or_else(|| err(0, format!("no {key} line")))
        };
        fn number<T: std::str::FromStr>(
            (line, v): (usize, &str),
            key: &str,
            err: &dyn Fn(usize, String) -> ShardError,
        ) -> Result<T, ShardError> {
            v.parse()
                .map_err(|_| err(line, format!("{key}: {v:?} is not a valid number")))
        }
        let games: u64 = number(get("games")?, "games", &err)?;
        let seed: u64 = number(get("seed")?, "seed", &err)?;
        let nodes: u64 = number(get("nodes")?, "nodes", &err)?;
        let mut s = Settings::new(games, nodes, seed);
        s.hash_mb = number(get("hash")?, "hash", &err)?;
        s.min_plies = number(get("min-plies")?, "min-plies", &err)?;
        s.max_plies = number(get("max-plies")?, "max-plies", &err)?;
        s.opening_margin = number(get("opening-margin")?, "opening-margin", &err)?;
        s.drop_min = number(get("drop-min")?, "drop-min", &err)?;
        s.drop_max = number(get("drop-max")?, "drop-max", &err)?;
        s.sample_plies = number(get("sample-plies")?, "sample-plies", &err)?;
        s.sample_lines = number(get("sample-lines")?, "sample-lines", &err)?;
        s.sample_margin = number(get("sample-margin")?, "sample-margin", &err)?;
        let (line, eval) = get("eval")?;
        s.eval = match eval {
            "nnue" => EvalKind::Nnue,
            "classical" => EvalKind::Classical,
            other => {
                return Err(err(
                    line,
                    format!("eval: {other:?} is not nnue or classical"),
                ))
            }
        };
        if nodes == 0 || s.hash_mb == 0 || games == 0 {
            return Err(err(0, "games, nodes and hash must be above 0".into()));
        }
        let shards: u32 = number(get("shards")?, "shards", &err)?;
        let bench = number(get("bench")?, "bench", &err)?;
        let mut m = Manifest::new(s, shards, bench, &note).map_err(|e| err(0, e.to_string()))?;
        for (&k, row) in &rows {
            if !(1..=shards).contains(&k) {
                return Err(err(0, format!("shard {k} is not from 1 to {shards}")));
            }
            let range = m.shard(k).range(games);
            if row.games != range.end - range.start {
                return Err(err(
                    0,
                    format!(
                        "shard {k}: {} games where the shard has {}",
                        row.games,
                        range.end - range.start
                    ),
                ));
            }
        }
        m.done = rows;
        Ok(m)
    }

    pub fn load(path: &Path) -> Result<Manifest, ShardError> {
        let text = fs::read_to_string(path).map_err(io_error(path))?;
        Manifest::parse(&text, path)
    }

    /// Writes the manifest through a temporary file, so it is never half written.
    pub fn save(&self, path: &Path) -> Result<(), ShardError> {
        write_atomically(path, &self.to_text())
    }

    fn shard(&self, k: u32) -> Shard {
        // 1 <= k <= shards, checked by every caller.
        Shard::new(k, self.shards).unwrap_or(Shard::WHOLE)
    }

    /// The run's name: the manifest's file name without `.tsv`.
    pub fn run_name(path: &Path) -> Result<String, ShardError> {
        path.file_name()
            .and_then(|n| n.to_str())
            .map(|n| n.strip_suffix(".tsv").unwrap_or(n).to_string())
            .filter(|n| !n.is_empty())
            .ok_or_else(|| {
                ShardError::Settings(format!("{}: not a manifest file name", path.display()))
            })
    }
}

/// The manifest's line of shard `k`.
fn row_line(k: u32, r: &ShardRow) -> String {
    format!(
        "shard\t{k}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
        r.games,
        r.positions,
        r.samples,
        r.bytes,
        r.sha256,
        r.red_wins,
        r.blue_wins,
        r.repetitions,
        r.no_capture_draws
    )
}

/// Writes `text` to `path` through a temporary file, so it is never half written.
fn write_atomically(path: &Path, text: &str) -> Result<(), ShardError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    fs::write(&tmp, text).map_err(io_error(&tmp))?;
    fs::rename(&tmp, path).map_err(io_error(path))
}

/// The row kept beside shard `k`'s data, if there is one that reads as shard `k`'s.
fn read_row_file(path: &Path, k: u32) -> Option<ShardRow> {
    let text = fs::read_to_string(path).ok()?;
    let fields: Vec<&str> = text.trim_end().split('\t').collect();
    match parse_row(fields.get(1..)?) {
        Ok((shard, row)) if fields[0] == "shard" && shard == k => Some(row),
        _ => None,
    }
}

const KEYS: [&str; 15] = [
    "bench",
    "games",
    "shards",
    "seed",
    "nodes",
    "hash",
    "min-plies",
    "max-plies",
    "opening-margin",
    "drop-min",
    "drop-max",
    "sample-plies",
    "sample-lines",
    "sample-margin",
    "eval",
];

fn parse_row(f: &[&str]) -> Result<(u32, ShardRow), String> {
    if f.len() != 10 {
        return Err(format!(
            "a shard row has 10 fields after \"shard\", this one {}",
            f.len()
        ));
    }
    let n = |i: usize| -> Result<u64, String> {
        f[i].parse()
            .map_err(|_| format!("shard row field {}: {:?} is not a number", i + 1, f[i]))
    };
    let k = u32::try_from(n(0)?).map_err(|_| format!("shard {} is too large", f[0]))?;
    let sha = f[5];
    if sha.len() != 64
        || !sha
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return Err(format!(
            "shard {k}: {sha:?} is not a SHA-256 in lower-case hex"
        ));
    }
    let row = ShardRow {
        games: n(1)?,
        positions: n(2)?,
        samples: n(3)?,
        bytes: n(4)?,
        sha256: sha.to_string(),
        red_wins: n(6)?,
        blue_wins: n(7)?,
        repetitions: n(8)?,
        no_capture_draws: n(9)?,
    };
    if row.bytes != row.samples * RECORD_BYTES as u64 {
        return Err(format!(
            "shard {k}: {} bytes is not {} samples of {RECORD_BYTES}",
            row.bytes, row.samples
        ));
    }
    Ok((k, row))
}

/// The SHA-256 of a file in lower-case hex.
pub fn sha256_file(path: &Path) -> Result<String, ShardError> {
    crate::common::shard::sha256_file(path).map_err(io_error(path))
}

/// The state of one shard's file against its row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardState {
    /// No row: not made yet.
    Pending,
    Ok,
    Missing,
    WrongSize(u64),
    BadChecksum(String),
}

impl fmt::Display for ShardState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardState::Pending => write!(f, "not made yet"),
            ShardState::Ok => write!(f, "ok"),
            ShardState::Missing => write!(f, "MISSING"),
            ShardState::WrongSize(n) => write!(f, "WRONG SIZE ({n} bytes)"),
            ShardState::BadChecksum(sha) => write!(f, "BAD CHECKSUM ({sha})"),
        }
    }
}

/// Where a run's shard files are.
pub struct Layout {
    pub folder: PathBuf,
}

impl Layout {
    pub fn new(dir: &Path, manifest: &Path) -> Result<Layout, ShardError> {
        Ok(Layout {
            folder: dir.join(Manifest::run_name(manifest)?),
        })
    }

    pub fn file(&self, k: u32) -> PathBuf {
        self.folder.join(format!("shard-{k}.bin"))
    }

    fn part(&self, k: u32) -> PathBuf {
        self.folder.join(format!("shard-{k}.part"))
    }

    fn row(&self, k: u32) -> PathBuf {
        self.folder.join(format!("shard-{k}.row"))
    }
}

/// Checks the file at `path` against `row`.
fn check_file(path: &Path, row: &ShardRow) -> Result<ShardState, ShardError> {
    let len = match fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(ShardState::Missing),
        Err(e) => return Err(io_error(path)(e)),
    };
    if len != row.bytes {
        return Ok(ShardState::WrongSize(len));
    }
    let sha = sha256_file(path)?;
    Ok(if sha == row.sha256 {
        ShardState::Ok
    } else {
        ShardState::BadChecksum(sha)
    })
}

/// Every shard's state, in shard order.
pub fn verify(m: &Manifest, layout: &Layout) -> Result<Vec<(u32, ShardState)>, ShardError> {
    (1..=m.shards)
        .map(|k| {
            let state = match m.done.get(&k) {
                None => ShardState::Pending,
                Some(row) => check_file(&layout.file(k), row)?,
            };
            Ok((k, state))
        })
        .collect()
}

/// The bench node count of this engine (one thread, the default depth and hash).
pub fn engine_bench() -> Result<u64, ShardError> {
    crate::tools::bench::run(&crate::tools::bench::Settings::default(), &mut io::sink())
        .map_err(|e| ShardError::Settings(format!("the bench failed: {e}")))
}

/// What `run` does beyond the manifest: threads, which shards, the log.
pub struct RunOptions {
    pub threads: usize,
    pub first: u32,
    /// The last shard (included); 0: the manifest's last.
    pub last: u32,
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    pub made: u32,
    pub remade: u32,
    pub skipped: u32,
    /// Rows taken from the data folder (`shard-K.row`) into the manifest.
    pub adopted: u32,
}

/// Makes the shards `first..=last` of the manifest at `path` that are missing or
/// damaged, adding the rows of new ones to the manifest; logs a line per shard to `log`.
pub fn run(
    path: &Path,
    dir: &Path,
    opts: &RunOptions,
    bench: u64,
    log: &mut impl Write,
) -> Result<RunSummary, ShardError> {
    let mut m = Manifest::load(path)?;
    if m.bench != bench {
        return Err(ShardError::Bench {
            manifest: m.bench,
            engine: bench,
        });
    }
    let last = if opts.last == 0 { m.shards } else { opts.last };
    if opts.first == 0 || opts.first > last || last > m.shards {
        return Err(ShardError::Settings(format!(
            "shards {}..{last}: not within 1..{}",
            opts.first, m.shards
        )));
    }
    let layout = Layout::new(dir, path)?;
    fs::create_dir_all(&layout.folder).map_err(io_error(&layout.folder))?;
    let mut summary = RunSummary::default();
    let say = |log: &mut dyn Write, text: String| {
        // The log is for people; a closed log does not stop the run.
        let _ = writeln!(log, "{} {text}", timestamp());
    };
    for k in opts.first..=last {
        let (file, part) = (layout.file(k), layout.part(k));
        if let Some(row) = m.done.get(&k).cloned() {
            if check_file(&file, &row)? == ShardState::Ok {
                summary.skipped += 1;
                continue;
            }
            // Stopped between the manifest's row and the rename?
            if check_file(&part, &row)? == ShardState::Ok {
                fs::rename(&part, &file).map_err(io_error(&file))?;
                summary.skipped += 1;
                continue;
            }
            say(
                log,
                format!("shard {k}/{}: missing or damaged, made again", m.shards),
            );
            let (got, secs) = make_shard(&m, k, &part, opts)?;
            if got != row {
                let _ = fs::remove_file(&part);
                return Err(ShardError::Mismatch {
                    shard: k,
                    expected: Box::new(row),
                    got: Box::new(got),
                });
            }
            fs::rename(&part, &file).map_err(io_error(&file))?;
            say(
                log,
                format!(
                    "shard {k}/{}: made again in {secs:.0} s, identical",
                    m.shards
                ),
            );
            summary.remade += 1;
        } else {
            let range = m.shard(k).range(m.settings.games);
            if let Some(row) = read_row_file(&layout.row(k), k) {
                if row.games == range.end - range.start
                    && check_file(&file, &row)? == ShardState::Ok
                {
                    say(
                        log,
                        format!(
                            "shard {k}/{}: row taken from {}",
                            m.shards,
                            layout.row(k).display()
                        ),
                    );
                    m.done.insert(k, row);
                    m.save(path)?;
                    summary.adopted += 1;
                    continue;
                }
            }
            let (row, secs) = make_shard(&m, k, &part, opts)?;
            say(
                log,
                format!(
                    "shard {k}/{}: {} games, {} positions, {} samples in {secs:.0} s",
                    m.shards, row.games, row.positions, row.samples
                ),
            );
            write_atomically(&layout.row(k), &row_line(k, &row))?;
            m.done.insert(k, row);
            m.save(path)?;
            fs::rename(&part, &file).map_err(io_error(&file))?;
            summary.made += 1;
        }
    }
    Ok(summary)
}

/// Plays shard `k` into `part`; its row and the seconds it took.
fn make_shard(
    m: &Manifest,
    k: u32,
    part: &Path,
    opts: &RunOptions,
) -> Result<(ShardRow, f64), ShardError> {
    let mut s = m.settings.clone();
    s.shard = m.shard(k);
    s.threads = opts.threads.max(1);
    s.progress = opts.progress;
    let start = Instant::now();
    let file = fs::File::create(part).map_err(io_error(part))?;
    let mut out = io::BufWriter::new(file);
    let stats =
        datagen::generate(&s, &mut out).map_err(|error| ShardError::Datagen { shard: k, error })?;
    let file = out
        .into_inner()
        .map_err(|e| io_error(part)(e.into_error()))?;
    file.sync_all().map_err(io_error(part))?;
    let sha = sha256_file(part)?;
    Ok((ShardRow::new(&stats, sha), start.elapsed().as_secs_f64()))
}

/// The UTC date and time for log lines (`2026-12-05T02:14:02Z`), without a time crate.
fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Seconds since 1970 as a UTC date and time (the civil calendar from days, as in
/// Howard Hinnant's `civil_from_days`).
fn format_utc(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{year}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("jungle-shards-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    fn small_manifest(dir: &Path) -> PathBuf {
        let mut s = Settings::new(6, 300, 7);
        s.hash_mb = 1;
        s.drop_max = 2;
        s.opening_margin = 400;
        let m = Manifest::new(s, 3, 42, "a test run").expect("valid");
        let path = dir.join("tiny.tsv");
        m.save(&path).expect("saves");
        path
    }

    fn opts(threads: usize) -> RunOptions {
        RunOptions {
            threads,
            first: 1,
            last: 0,
            progress: false,
        }
    }

    #[test]
    fn a_run_resumes_skips_and_remakes_lost_shards_byte_for_byte() {
        let dir = temp_dir("run");
        let path = small_manifest(&dir);
        let data = dir.join("data");
        let mut log = Vec::new();
        // Shard 2 only, then the rest.
        let first = RunOptions {
            first: 2,
            last: 2,
            ..opts(1)
        };
        let s = run(&path, &data, &first, 42, &mut log).expect("runs");
        assert_eq!(
            s,
            RunSummary {
                made: 1,
                remade: 0,
                skipped: 0,
                adopted: 0
            }
        );
        let m = Manifest::load(&path).expect("loads");
        assert_eq!(m.done.keys().copied().collect::<Vec<_>>(), [2]);
        // A shard stopped half way leaves a .part: it is made again from its start.
        let layout = Layout::new(&data, &path).expect("layout");
        fs::write(layout.part(3), b"half a shard").expect("writes");
        let s = run(&path, &data, &opts(2), 42, &mut log).expect("runs");
        assert_eq!(
            s,
            RunSummary {
                made: 2,
                remade: 0,
                skipped: 1,
                adopted: 0
            }
        );
        let m = Manifest::load(&path).expect("loads");
        assert_eq!(m.done.len(), 3);
        assert_eq!(m.done.values().map(|r| r.games).sum::<u64>(), 6);
        let all_ok = |m: &Manifest| {
            verify(m, &layout)
                .expect("verifies")
                .iter()
                .all(|(_, s)| *s == ShardState::Ok)
        };
        assert!(all_ok(&m));
        // The files concatenate into the unsharded run (one thread).
        let mut joined = Vec::new();
        for k in 1..=3 {
            joined.extend(fs::read(layout.file(k)).expect("reads"));
        }
        let mut whole = Vec::new();
        let mut s = m.settings.clone();
        s.threads = 3;
        datagen::generate(&s, &mut whole).expect("generates");
        assert_eq!(joined, whole);
        // Lost and damaged shards are found, then made again identically.
        let before = fs::read(layout.file(1)).expect("reads");
        fs::remove_file(layout.file(1)).expect("removes");
        let mut damaged = fs::read(layout.file(3)).expect("reads");
        damaged[5] ^= 1;
        fs::write(layout.file(3), &damaged).expect("writes");
        let states = verify(&m, &layout).expect("verifies");
        assert_eq!(states[0].1, ShardState::Missing);
        assert_eq!(states[1].1, ShardState::Ok);
        assert!(matches!(states[2].1, ShardState::BadChecksum(_)));
        let s = run(&path, &data, &opts(2), 42, &mut log).expect("runs");
        assert_eq!(
            s,
            RunSummary {
                made: 0,
                remade: 2,
                skipped: 1,
                adopted: 0
            }
        );
        assert_eq!(fs::read(layout.file(1)).expect("reads"), before);
        assert!(all_ok(&m));
        assert_eq!(Manifest::load(&path).expect("loads").to_text(), m.to_text());
        // A manifest behind its folder (rows lost) catches up from the rows kept
        // beside the data, without playing again; a row that does not match is not taken.
        let mut behind = m.clone();
        behind.done.remove(&1);
        behind.done.remove(&3);
        behind.save(&path).expect("saves");
        fs::write(layout.row(3), row_line(3, &m.done[&1])).expect("writes");
        let s = run(&path, &data, &opts(2), 42, &mut log).expect("runs");
        assert_eq!(
            s,
            RunSummary {
                made: 1,
                remade: 0,
                skipped: 1,
                adopted: 1
            }
        );
        assert_eq!(Manifest::load(&path).expect("loads").to_text(), m.to_text());
        assert_eq!(read_row_file(&layout.row(3), 3), m.done.get(&3).cloned());
        // A run that changes the manifest's rows is refused, leaving the file alone.
        let mut wrong = m.clone();
        wrong.done.get_mut(&2).expect("row").sha256 = "0".repeat(64);
        wrong.save(&path).expect("saves");
        fs::remove_file(layout.file(2)).expect("removes");
        let err = run(&path, &data, &opts(1), 42, &mut log).expect_err("differs");
        assert!(
            err.to_string().contains("shard 2 made again differs"),
            "{err}"
        );
        assert!(!layout.file(2).exists() && !layout.part(2).exists());
        // Another engine is refused before any game.
        let err = run(&path, &data, &opts(1), 43, &mut log).expect_err("other engine");
        assert!(err.to_string().contains("bench 42"), "{err}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn manifests_round_trip_and_bad_ones_name_the_line() {
        let dir = temp_dir("parse");
        let path = small_manifest(&dir);
        let mut m = Manifest::load(&path).expect("loads");
        assert_eq!(m.note, "a test run");
        assert_eq!((m.settings.drop_max, m.settings.opening_margin), (2, 400));
        m.done.insert(
            2,
            ShardRow {
                games: 2,
                positions: 100,
                samples: 90,
                bytes: 1440,
                sha256: "ab".repeat(32),
                red_wins: 1,
                blue_wins: 0,
                repetitions: 0,
                no_capture_draws: 1,
            },
        );
        let text = m.to_text();
        let back = Manifest::parse(&text, &path).expect("parses");
        assert_eq!(back.to_text(), text);
        for (bad, message) in [
            (text.replace("nodes\t300", "nodes\tmany"), "line"),
            (text.replace("nodes\t300\n", ""), "no nodes line"),
            (
                text.replace("eval\tnnue", "eval\tguess"),
                "not nnue or classical",
            ),
            (text.clone() + "colour\tred\n", "unknown key \"colour\""),
            (text.clone() + "seed\t8\n", "seed is given twice"),
            (text.replace("\t1440\t", "\t1441\t"), "is not 90 samples"),
            (text.replace(&"ab".repeat(32), "xyz"), "not a SHA-256"),
            (
                text.replace("shard\t2\t2", "shard\t9\t2"),
                "shard 9 is not from 1 to 3",
            ),
            (
                text.replace("shard\t2\t2", "shard\t2\t5"),
                "5 games where the shard has 2",
            ),
            (
                text.clone() + &text[text.find("shard\t2").expect("row")..],
                "two rows",
            ),
            (
                text.replace("max-plies\t12", "max-plies\t2"),
                "--min-plies 8 is above --max-plies 2",
            ),
        ] {
            let err = Manifest::parse(&bad, &path).expect_err(message);
            assert!(err.to_string().contains(message), "{message}: {err}");
        }
        assert!(Manifest::new(Settings::new(2, 300, 1), 3, 1, "").is_err());
        assert!(Manifest::new(Settings::new(2, 300, 1), 2, 1, "two\nlines").is_err());
        assert_eq!(
            Manifest::run_name(Path::new("data/manifests/g5.tsv")).expect("name"),
            "g5"
        );
        assert_eq!(data_dir(Some("/x")), PathBuf::from("/x"));
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400 + 3_661), "2000-02-29T01:01:01Z");
        assert_eq!(format_utc(1_796_437_242), "2026-12-05T02:20:42Z");
        let _ = fs::remove_dir_all(&dir);
    }
}
