//! `jungle puzzles mine`: puzzles mined from games in shards tracked by a manifest
//! committed to the repository (docs/puzzles.md, "Mining"), the games and candidates
//! kept outside git.
//!
//! **The manifest** (`puzzles/mining/RUN.tsv`, tab-separated, `#` lines are comments
//! and not kept when it is rewritten) holds the run's settings, one `key<TAB>value`
//! line each (`match` lines: one a pairing of players), and a row for every finished
//! shard:
//!
//! - `source`: `self-play` (the engine's levels play the games, as the `match` lines
//!   say) or `database` (the finished games of `jungle serve`'s database, `--database
//!   URL`, oldest first);
//! - `bench`: `jungle bench`'s node count of the engine: the games and candidates
//!   depend on its code and network, so another engine refuses to add to the run;
//! - `seed`, `games`, `shards`: the run's games, split into `shards` shards of
//!   `--shard K/N` (game `i` plays match `i mod M`, colours swapped every other round,
//!   from an opening of `opening-plies` random moves drawn from `seed` and `i`);
//! - `nodes`, `max-plies`: each move's search (one thread), the longest game;
//! - `scan-plies`, `scan-nodes`, `min-animals`, `max-moves`: the candidates: the
//!   positions of each game's last `scan-plies` plies (and under `jungle-cn` those 3
//!   plies or fewer before a move the anti-chase rules forbid) with at least
//!   `min-animals` animals, each searched at `scan-nodes` with two lines: a forced win
//!   in at most `max-moves` is a `win` candidate; a best move that does not lose where
//!   the second best loses by force is a `hold` candidate (`draw` where the tables
//!   decide);
//! - `match NAME RULES RED BLUE`: a pairing (`full` or a `UCI_Elo`);
//! - `shard K GAMES DECISIVE CANDIDATES GAMES-SHA256 CANDIDATES-SHA256 SECONDS`: a
//!   finished shard's games and candidates;
//! - `puzzles K VERIFIER PUZZLES PUZZLES-SHA256 SECONDS`: a shard's candidates verified
//!   (`jungle puzzles mine --stage puzzles`) by the verifier of that version.
//!
//! SECONDS is the wall time of the shard's run, with the run's threads (`--status`
//! sums them as hours, not core-hours).
//!
//! **The data** of manifest `RUN.tsv` is in `DIR/RUN/` (`--dir`, else
//! `$JUNGLE_DATA/puzzles`, else `/work/data/puzzles`): `shard-K.pgn` (the games),
//! `shard-K.cand` (the candidates), `shard-K.txt` (the puzzles). Each is written as
//! `NAME.part` and renamed when complete, its row written beside it (`NAME.row`) and
//! then into the manifest (rewritten whole through a temporary file). A run stopped at
//! any point loses at most the shard it was on; run again, it skips every shard whose
//! files match their rows and makes the rest, which come out byte for byte as their
//! rows say (the games depend only on the settings, the seed and the game's index;
//! never on the threads or the machine). A manifest behind its folder (shards made by
//! a job array on other machines) takes their rows from the `.row` files.

use super::games::{mine_candidates, Candidate};
use super::{in_parallel, Worker};
use crate::board::{Move, Position};
use crate::common::shard::Shard;
use crate::game::{Game, GameResult, Rules};
use crate::puzzle::Goal;
use crate::record::{self, RecordHeader, RecordResult};
use crate::rng::Rng;
use crate::search::search::SharedState;
use crate::search::{Engine, Limits};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The data folder when neither `--dir` nor `$JUNGLE_DATA` names one.
pub const DEFAULT_DIR: &str = "/work/data/puzzles";

/// The version of the verification: a `puzzles` row of another version is made again.
/// 4: each game's candidates verified by a prover that remembers no other game (a
/// shard's puzzles no longer depend on the threads). 5: the prover's nodes with one
/// move left are not stored (more deeper results kept within the same node limit: a
/// proof may now end where it ran out of nodes before).
pub const VERIFIER: u32 = 5;

/// Who plays one side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Full,
    Elo(u32),
}

impl Player {
    fn parse(text: &str) -> Result<Player, String> {
        if text == "full" {
            return Ok(Player::Full);
        }
        text.parse::<u32>()
            .ok()
            .filter(|e| (100..=4000).contains(e))
            .map(Player::Elo)
            .ok_or_else(|| format!("player {text:?}: full or a UCI_Elo from 100 to 4000"))
    }

    fn name(self) -> String {
        match self {
            Player::Full => "full".into(),
            Player::Elo(e) => e.to_string(),
        }
    }
}

/// A pairing of players under a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub name: String,
    pub rules: Rules,
    pub red: Player,
    pub blue: Player,
}

/// Where the games come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    SelfPlay,
    Database,
}

/// A run's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub source: Source,
    pub bench: u64,
    pub seed: u64,
    pub games: u64,
    pub shards: u32,
    pub nodes: u64,
    pub opening_plies: u32,
    pub max_plies: u32,
    pub scan_plies: u32,
    pub scan_nodes: u64,
    pub min_animals: u32,
    pub max_moves: u32,
    pub matches: Vec<Match>,
}

/// A finished shard's games and candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardRow {
    pub games: u64,
    pub decisive: u64,
    pub candidates: u64,
    pub games_sha: String,
    pub candidates_sha: String,
    pub seconds: u64,
}

/// A shard's candidates verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzlesRow {
    pub verifier: u32,
    pub puzzles: u64,
    pub sha: String,
    pub seconds: u64,
}

/// A run: settings and finished shards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    pub note: String,
    pub settings: Settings,
    pub shards: BTreeMap<u32, ShardRow>,
    pub puzzles: BTreeMap<u32, PuzzlesRow>,
}

const HEADER: &str =
    "# Puzzle mining manifest of `jungle puzzles mine` (docs/puzzles.md, \"Mining\"): the
# run's settings, then a row for each finished shard (its games and candidates) and for
# each shard verified (its puzzles). The data is DIR/RUN/shard-K.{pgn,cand,txt} outside
# git (DIR: --dir, $JUNGLE_DATA/puzzles or /work/data/puzzles; RUN: this file's name
# without .tsv). Comment lines are not kept.
";

/// The SHA-256 of `bytes` in lower-case hex.
pub fn sha_of(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn is_sha(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// A row's fields after its kind: `count` of them, the first the shard, `shas` the
/// places of SHA-256 sums; the shard and a reader of the numeric fields.
#[allow(clippy::type_complexity)]
fn row_fields<'a>(
    kind: &'a str,
    f: &'a [&'a str],
    count: usize,
    shas: &[usize],
) -> Result<(u32, impl Fn(usize) -> Result<u64, String> + 'a), String> {
    if f.len() != count {
        return Err(format!(
            "a {kind} row has {count} fields after \"{kind}\", this one {}",
            f.len()
        ));
    }
    let n = move |i: usize| -> Result<u64, String> {
        f[i].parse()
            .map_err(|_| format!("{kind} row field {}: {:?} is not a number", i + 1, f[i]))
    };
    let k = u32::try_from(n(0)?).map_err(|_| format!("shard {} is too large", f[0]))?;
    for &i in shas {
        if !is_sha(f[i]) {
            return Err(format!(
                "shard {k}: {:?} is not a SHA-256 in lower-case hex",
                f[i]
            ));
        }
    }
    Ok((k, n))
}

impl ShardRow {
    fn line(&self, k: u32) -> String {
        format!(
            "shard\t{k}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.games,
            self.decisive,
            self.candidates,
            self.games_sha,
            self.candidates_sha,
            self.seconds
        )
    }

    fn parse(f: &[&str]) -> Result<(u32, ShardRow), String> {
        let (k, n) = row_fields("shard", f, 7, &[4, 5])?;
        Ok((
            k,
            ShardRow {
                games: n(1)?,
                decisive: n(2)?,
                candidates: n(3)?,
                games_sha: f[4].to_string(),
                candidates_sha: f[5].to_string(),
                seconds: n(6)?,
            },
        ))
    }
}

impl PuzzlesRow {
    /// The manifest's line of shard `k`.
    pub fn line(&self, k: u32) -> String {
        format!(
            "puzzles\t{k}\t{}\t{}\t{}\t{}",
            self.verifier, self.puzzles, self.sha, self.seconds
        )
    }

    fn parse(f: &[&str]) -> Result<(u32, PuzzlesRow), String> {
        let (k, n) = row_fields("puzzles", f, 5, &[3])?;
        Ok((
            k,
            PuzzlesRow {
                verifier: u32::try_from(n(1)?).map_err(|_| "verifier too large".to_string())?,
                puzzles: n(2)?,
                sha: f[3].to_string(),
                seconds: n(4)?,
            },
        ))
    }
}

const KEYS: [&str; 13] = [
    "source",
    "bench",
    "seed",
    "games",
    "shards",
    "nodes",
    "opening-plies",
    "max-plies",
    "scan-plies",
    "scan-nodes",
    "min-animals",
    "max-moves",
    "note",
];

impl Manifest {
    pub fn to_text(&self) -> String {
        let s = &self.settings;
        let mut out = String::from(HEADER);
        if !self.note.is_empty() {
            let _ = writeln!(out, "note\t{}", self.note);
        }
        let source = match s.source {
            Source::SelfPlay => "self-play",
            Source::Database => "database",
        };
        for (key, value) in [
            ("source", source.to_string()),
            ("bench", s.bench.to_string()),
            ("seed", s.seed.to_string()),
            ("games", s.games.to_string()),
            ("shards", s.shards.to_string()),
            ("nodes", s.nodes.to_string()),
            ("opening-plies", s.opening_plies.to_string()),
            ("max-plies", s.max_plies.to_string()),
            ("scan-plies", s.scan_plies.to_string()),
            ("scan-nodes", s.scan_nodes.to_string()),
            ("min-animals", s.min_animals.to_string()),
            ("max-moves", s.max_moves.to_string()),
        ] {
            let _ = writeln!(out, "{key}\t{value}");
        }
        out += "# match\tNAME\tRULES\tRED\tBLUE\n";
        for m in &s.matches {
            let _ = writeln!(
                out,
                "match\t{}\t{}\t{}\t{}",
                m.name,
                m.rules,
                m.red.name(),
                m.blue.name()
            );
        }
        out +=
            "# shard\tK\tgames\tdecisive\tcandidates\tgames-sha256\tcandidates-sha256\tseconds\n";
        for (&k, r) in &self.shards {
            out += &r.line(k);
            out.push('\n');
        }
        out += "# puzzles\tK\tverifier\tpuzzles\tpuzzles-sha256\tseconds\n";
        for (&k, r) in &self.puzzles {
            out += &r.line(k);
            out.push('\n');
        }
        out
    }

    /// Reads a manifest; errors name the line.
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let mut values: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
        let mut matches = Vec::new();
        let mut shards = BTreeMap::new();
        let mut puzzles = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let err = |what: String| format!("line {n}: {what}");
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            match f[0] {
                "match" => {
                    let [_, name, rules, red, blue] = f[..] else {
                        return Err(err("a match line is: match NAME RULES RED BLUE".into()));
                    };
                    let rules: Rules = rules.parse().map_err(err)?;
                    matches.push(Match {
                        name: name.to_string(),
                        rules,
                        red: Player::parse(red).map_err(err)?,
                        blue: Player::parse(blue).map_err(err)?,
                    });
                }
                "shard" => {
                    let (k, row) = ShardRow::parse(&f[1..]).map_err(err)?;
                    if shards.insert(k, row).is_some() {
                        return Err(err(format!("shard {k} has two rows")));
                    }
                }
                "puzzles" => {
                    let (k, row) = PuzzlesRow::parse(&f[1..]).map_err(err)?;
                    if puzzles.insert(k, row).is_some() {
                        return Err(err(format!("shard {k} has two puzzles rows")));
                    }
                }
                key if KEYS.contains(&key) => {
                    if f.len() != 2 {
                        return Err(err(format!("{key}: one value expected")));
                    }
                    if values.insert(key, (n, f[1])).is_some() {
                        return Err(err(format!("{key} is given twice")));
                    }
                }
                other => return Err(err(format!("unknown key {other:?}"))),
            }
        }
        let get = |key: &str| -> Result<(usize, &str), String> {
            values
                .get(key)
                .copied()
                .ok_or_else(|| format!("the manifest has no {key} line"))
        };
        fn number<T: std::str::FromStr>((line, v): (usize, &str), key: &str) -> Result<T, String> {
            v.parse()
                .map_err(|_| format!("line {line}: {key}: {v:?} is not a valid number"))
        }
        let source = match get("source")? {
            (_, "self-play") => Source::SelfPlay,
            (_, "database") => Source::Database,
            (line, other) => {
                return Err(format!(
                    "line {line}: source {other:?}: self-play or database"
                ))
            }
        };
        let settings = Settings {
            source,
            bench: number(get("bench")?, "bench")?,
            seed: number(get("seed")?, "seed")?,
            games: number(get("games")?, "games")?,
            shards: number(get("shards")?, "shards")?,
            nodes: number(get("nodes")?, "nodes")?,
            opening_plies: number(get("opening-plies")?, "opening-plies")?,
            max_plies: number(get("max-plies")?, "max-plies")?,
            scan_plies: number(get("scan-plies")?, "scan-plies")?,
            scan_nodes: number(get("scan-nodes")?, "scan-nodes")?,
            min_animals: number(get("min-animals")?, "min-animals")?,
            max_moves: number(get("max-moves")?, "max-moves")?,
            matches,
        };
        settings.check()?;
        for (&k, row) in &shards {
            let range = settings.shard(k)?.range(settings.games);
            if row.games != range.end - range.start {
                return Err(format!(
                    "shard {k}: {} games where the shard has {}",
                    row.games,
                    range.end - range.start
                ));
            }
        }
        for &k in puzzles.keys() {
            settings.shard(k)?;
        }
        let note = values.get("note").map_or("", |(_, v)| v).to_string();
        Ok(Manifest {
            note,
            settings,
            shards,
            puzzles,
        })
    }

    pub fn load(path: &Path) -> Result<Manifest, String> {
        let text =
            fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Manifest::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, self.to_text().as_bytes())
    }

    /// The run's name: the manifest's file name without `.tsv`.
    pub fn run_name(path: &Path) -> Result<String, String> {
        path.file_name()
            .and_then(|n| n.to_str())
            .map(|n| n.strip_suffix(".tsv").unwrap_or(n).to_string())
            .filter(|n| !n.is_empty())
            .ok_or_else(|| format!("{}: not a manifest file name", path.display()))
    }
}

impl Settings {
    fn check(&self) -> Result<(), String> {
        if self.games == 0 || self.shards == 0 || u64::from(self.shards) > self.games {
            return Err(format!(
                "shards {} must be from 1 to the number of games ({})",
                self.shards, self.games
            ));
        }
        if self.source == Source::SelfPlay && self.matches.is_empty() {
            return Err("a self-play run needs match lines".into());
        }
        if self.nodes == 0 || self.scan_nodes == 0 || self.max_moves == 0 || self.max_plies == 0 {
            return Err("nodes, scan-nodes, max-moves and max-plies must be above 0".into());
        }
        Ok(())
    }

    /// Shard `k` of the run.
    pub fn shard(&self, k: u32) -> Result<Shard, String> {
        Shard::new(k, self.shards)
            .ok_or_else(|| format!("shard {k} is not from 1 to {}", self.shards))
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot rename to {}: {e}", path.display()))
}

/// The data folder: `dir` if given, else `$JUNGLE_DATA/puzzles`, else `DEFAULT_DIR`.
pub fn data_dir(dir: Option<&str>) -> PathBuf {
    dir.map(PathBuf::from)
        .or_else(|| std::env::var_os("JUNGLE_DATA").map(|d| PathBuf::from(d).join("puzzles")))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DIR))
}

/// Where a run's files are.
pub struct Layout {
    pub folder: PathBuf,
}

impl Layout {
    pub fn new(dir: &Path, manifest: &Path) -> Result<Layout, String> {
        Ok(Layout {
            folder: dir.join(Manifest::run_name(manifest)?),
        })
    }

    pub fn file(&self, k: u32, ext: &str) -> PathBuf {
        self.folder.join(format!("shard-{k}.{ext}"))
    }
}

/// One game to mine: its rules, start and moves.
#[derive(Clone, Debug)]
pub struct SourceGame {
    pub index: u64,
    pub red: String,
    pub blue: String,
    pub rules: Rules,
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: RecordResult,
    pub termination: String,
}

/// The matches of a new run (`--create`): the levels people play (rows of `LEVELS`,
/// weakest first: rows 3 to 8) against each other and against full strength, and full
/// strength against itself, under `jungle` and `jungle-cn`.
pub fn default_matches() -> Vec<Match> {
    use crate::game::Variant;
    use crate::search::strength::LEVELS;
    let row = |r: usize| Player::Elo(LEVELS[r - 1].elo);
    let pair = |name: &str, variant: Variant, red: Player, blue: Player| Match {
        name: name.to_string(),
        rules: variant.rules(),
        red,
        blue,
    };
    let (j, cn) = (Variant::Jungle, Variant::JungleCn);
    vec![
        pair("r3-r5", j, row(3), row(5)),
        pair("r4-r6", j, row(4), row(6)),
        pair("cn-r4-r6", cn, row(4), row(6)),
        pair("r5-r7", j, row(5), row(7)),
        pair("full-r5", j, Player::Full, row(5)),
        pair("r6-r8", j, row(6), row(8)),
        pair("cn-r6-r8", cn, row(6), row(8)),
        pair("full-r7", j, Player::Full, row(7)),
        pair("cn-full-r6", cn, Player::Full, row(6)),
        pair("full-full", j, Player::Full, Player::Full),
    ]
}

/// The players' engine for one side of game `index`.
fn player_engine(player: Player, seed: u64) -> Result<Engine, String> {
    let mut engine = Engine::new(16).map_err(|e| e.to_string())?;
    engine.options.threads = 1;
    engine.options.report = false;
    engine.options.limit_elo = match player {
        Player::Full => None,
        Player::Elo(e) => Some(e),
    };
    engine.seed(seed);
    Ok(engine)
}

/// Plays game `index` of a self-play run.
pub fn play_game(s: &Settings, index: u64) -> Result<SourceGame, String> {
    let m = s.matches.len() as u64;
    let pairing = &s.matches[(index % m) as usize];
    let swapped = (index / m) % 2 == 1;
    let (red, blue) = if swapped {
        (pairing.blue, pairing.red)
    } else {
        (pairing.red, pairing.blue)
    };
    let base = Rng::new(s.seed ^ index.wrapping_mul(0x9E37_79B9)).next_u64();
    let mut rng = Rng::new(base);
    // The opening: random moves that neither end the game nor capture.
    let mut game = Game::with_rules(Position::startpos(), pairing.rules);
    for _ in 0..s.opening_plies {
        let quiet: Vec<Move> = game
            .legal_moves()
            .iter()
            .copied()
            .filter(|&mv| !game.position().is_capture(mv) && !game.position().is_den_entry(mv))
            .collect();
        if quiet.is_empty() {
            break;
        }
        let mv = quiet[rng.below(quiet.len())];
        game.play(mv).map_err(|e| e.to_string())?;
    }
    let start = *game.position();
    let mut game = Game::with_rules(start, pairing.rules);
    let mut engines = [
        player_engine(red, Rng::new(base ^ 1).next_u64())?,
        player_engine(blue, Rng::new(base ^ 2).next_u64())?,
    ];
    let limits = Limits {
        nodes: Some(s.nodes),
        ..Limits::default()
    };
    let mut moves = Vec::new();
    while game.result() == GameResult::Ongoing && moves.len() < s.max_plies as usize {
        let side = game.position().side_to_move().index();
        let shared = SharedState::new(1);
        let out = engines[side].search(&game, &limits, &shared, &|_| {});
        let Some(mv) = out.best else {
            break;
        };
        game.play(mv).map_err(|e| e.to_string())?;
        moves.push(mv);
    }
    let (result, termination) = match game.result() {
        GameResult::Win { winner, reason } => (
            RecordResult::of_winner(Some(winner)),
            reason.describe().to_string(),
        ),
        GameResult::Draw(reason) => (RecordResult::Draw, reason.describe().to_string()),
        GameResult::Ongoing => (RecordResult::Unfinished, "move limit".to_string()),
    };
    Ok(SourceGame {
        index,
        red: format!("{} {}", pairing.name, red.name()),
        blue: format!("{} {}", pairing.name, blue.name()),
        rules: pairing.rules,
        start,
        moves,
        result,
        termination,
    })
}

impl SourceGame {
    fn record(&self) -> String {
        let mut out = Vec::new();
        let header = RecordHeader {
            number: u32::try_from(self.index + 1).unwrap_or(u32::MAX),
            red: &self.red,
            blue: &self.blue,
            result: self.result,
            termination: &self.termination,
            rules: self.rules,
            start: self.start,
        };
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        // Writing to a Vec cannot fail.
        let _ = record::write_game(&mut out, &header, &moves);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// What a shard's stage made.
#[derive(Clone, Debug, Default)]
pub struct Made {
    pub games: u64,
    pub decisive: u64,
    pub candidates: u64,
}

/// A test hook: milliseconds to wait after each game (`JUNGLE_MINE_GAME_DELAY_MS`),
/// so that a test can stop a run in the middle of a shard.
fn game_delay() -> Option<std::time::Duration> {
    std::env::var("JUNGLE_MINE_GAME_DELAY_MS")
        .ok()?
        .parse()
        .ok()
        .map(std::time::Duration::from_millis)
}

/// Plays (or reads) the games of shard `k` and finds their candidates: writes
/// `shard-K.pgn` and `shard-K.cand` (through `.part` files) and returns the row.
pub fn make_shard(
    s: &Settings,
    k: u32,
    layout: &Layout,
    database: Option<&[SourceGame]>,
    workers: &mut [Worker],
    log: &mut dyn FnMut(&str),
) -> Result<ShardRow, String> {
    let started = Instant::now();
    let range = s.shard(k)?.range(s.games);
    fs::create_dir_all(&layout.folder)
        .map_err(|e| format!("cannot create {}: {e}", layout.folder.display()))?;
    let pgn_part = layout.file(k, "pgn.part");
    let cand_part = layout.file(k, "cand.part");
    let mut pgn = fs::File::create(&pgn_part)
        .map_err(|e| format!("cannot create {}: {e}", pgn_part.display()))?;
    let mut cand = fs::File::create(&cand_part)
        .map_err(|e| format!("cannot create {}: {e}", cand_part.display()))?;
    let indices: Vec<u64> = range.collect();
    let mut made = Made::default();
    let delay = game_delay();
    let settings = CandidateSettings::of(s);
    let job = |w: &mut Worker, &i: &u64| -> Result<(SourceGame, Vec<Candidate>), String> {
        let game = match database {
            Some(games) => games
                .get(i as usize)
                .cloned()
                .ok_or_else(|| format!("the database has no game {}", i + 1))?,
            None => play_game(s, i)?,
        };
        let candidates = mine_candidates(w, &game, &settings);
        Ok((game, candidates))
    };
    let mut failure = None;
    let mut pgn_bytes = Vec::new();
    let mut cand_bytes = Vec::new();
    // A few games a worker between writes: the files grow as games finish.
    let batch = 4 * workers.len().max(1);
    for chunk in indices.chunks(batch) {
        in_parallel(workers, chunk, &job, &mut |_, r| match r {
            Ok((game, candidates)) => {
                made.games += 1;
                made.decisive += u64::from(matches!(
                    game.result,
                    RecordResult::RedWins | RecordResult::BlueWins
                ));
                made.candidates += candidates.len() as u64;
                let text = game.record();
                pgn_bytes.extend_from_slice(text.as_bytes());
                let mut lines = String::new();
                for c in &candidates {
                    lines += &c.to_line();
                    lines.push('\n');
                }
                cand_bytes.extend_from_slice(lines.as_bytes());
                if let Err(e) = pgn
                    .write_all(text.as_bytes())
                    .and_then(|()| cand.write_all(lines.as_bytes()))
                    .and_then(|()| pgn.flush())
                    .and_then(|()| cand.flush())
                {
                    failure.get_or_insert(format!("cannot write shard {k}: {e}"));
                }
            }
            Err(e) => {
                failure.get_or_insert(e);
            }
        });
        if let Some(e) = failure.take() {
            return Err(e);
        }
        if let Some(w) = workers.first() {
            super::trim_tables(&w.verifier.tables(), 4, 64);
        }
        if let Some(d) = delay {
            std::thread::sleep(d);
        }
    }
    drop(pgn);
    drop(cand);
    let row = ShardRow {
        games: made.games,
        decisive: made.decisive,
        candidates: made.candidates,
        games_sha: sha_of(&pgn_bytes),
        candidates_sha: sha_of(&cand_bytes),
        seconds: started.elapsed().as_secs(),
    };
    for ext in ["pgn", "cand"] {
        let part = layout.file(k, &format!("{ext}.part"));
        let done = layout.file(k, ext);
        fs::rename(&part, &done).map_err(|e| {
            format!(
                "cannot rename {} to {}: {e}",
                part.display(),
                done.display()
            )
        })?;
    }
    write_atomically(
        &layout.file(k, "row"),
        format!("{}\n", row.line(k)).as_bytes(),
    )?;
    log(&format!(
        "shard {k}/{}: {} games ({} decisive), {} candidates in {} s",
        s.shards, row.games, row.decisive, row.candidates, row.seconds
    ));
    Ok(row)
}

/// How the positions of a game are looked at.
#[derive(Clone, Copy, Debug)]
pub struct CandidateSettings {
    pub scan_plies: usize,
    pub scan_nodes: u64,
    pub min_animals: usize,
    pub max_moves: usize,
}

impl CandidateSettings {
    fn of(s: &Settings) -> CandidateSettings {
        CandidateSettings {
            scan_plies: s.scan_plies as usize,
            scan_nodes: s.scan_nodes,
            min_animals: s.min_animals as usize,
            max_moves: s.max_moves as usize,
        }
    }
}

/// The state of a shard's files against its row.
fn files_match(layout: &Layout, k: u32, row: &ShardRow) -> bool {
    let sha = |ext: &str| fs::read(layout.file(k, ext)).ok().map(|b| sha_of(&b));
    sha("pgn").as_deref() == Some(row.games_sha.as_str())
        && sha("cand").as_deref() == Some(row.candidates_sha.as_str())
}

/// The row kept beside shard `k`'s data, if it reads as shard `k`'s.
fn read_row_file(path: &Path, k: u32) -> Option<ShardRow> {
    let text = fs::read_to_string(path).ok()?;
    let f: Vec<&str> = text.trim_end().split('\t').collect();
    match ShardRow::parse(f.get(1..)?) {
        Ok((shard, row)) if f[0] == "shard" && shard == k => Some(row),
        _ => None,
    }
}

fn read_puzzles_row_file(path: &Path, k: u32) -> Option<PuzzlesRow> {
    let text = fs::read_to_string(path).ok()?;
    let f: Vec<&str> = text.trim_end().split('\t').collect();
    match PuzzlesRow::parse(f.get(1..)?) {
        Ok((shard, row)) if f[0] == "puzzles" && shard == k => Some(row),
        _ => None,
    }
}

/// What `run` does.
pub struct RunOptions {
    /// The shards to make (all of the run's when `None`).
    pub shard: Option<Shard>,
    pub games: bool,
    pub puzzles: bool,
}

/// Makes the missing shards of the manifest at `path` (or only `options.shard`):
/// games and candidates, then their puzzles; adopts rows found beside the data.
pub fn run(
    path: &Path,
    dir: &Path,
    database: Option<&[SourceGame]>,
    workers: &mut [Worker],
    options: &RunOptions,
    log: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let mut manifest = Manifest::load(path)?;
    let layout = Layout::new(dir, path)?;
    let s = manifest.settings.clone();
    if s.source == Source::Database && database.is_none() {
        return Err("this run mines a database's games: give --database URL".into());
    }
    if let Some(shard) = options.shard {
        if shard.count() != s.shards {
            return Err(format!(
                "--shard {shard}: the manifest has {} shards",
                s.shards
            ));
        }
    }
    let shards: Vec<u32> = match options.shard {
        Some(shard) => vec![shard.index()],
        None => (1..=s.shards).collect(),
    };
    for k in shards {
        if options.games {
            let row = match manifest.shards.get(&k) {
                Some(row) if files_match(&layout, k, row) => None,
                Some(row) => {
                    log(&format!("shard {k}: files missing or damaged, made again"));
                    let made = make_shard(&s, k, &layout, database, workers, log)?;
                    if (made.games_sha.as_str(), made.candidates_sha.as_str())
                        != (row.games_sha.as_str(), row.candidates_sha.as_str())
                    {
                        return Err(format!(
                            "shard {k} made again differs from the manifest (the engine or the settings differ)"
                        ));
                    }
                    None
                }
                None => match read_row_file(&layout.file(k, "row"), k) {
                    Some(row) if files_match(&layout, k, &row) => Some(row),
                    _ => Some(make_shard(&s, k, &layout, database, workers, log)?),
                },
            };
            if let Some(row) = row {
                // Another runner may have added rows: read the manifest again.
                manifest = Manifest::load(path)?;
                manifest.shards.insert(k, row);
                manifest.save(path)?;
            }
        }
        if options.puzzles && manifest.shards.contains_key(&k) {
            let done = manifest
                .puzzles
                .get(&k)
                .or(read_puzzles_row_file(&layout.file(k, "puzzles.row"), k).as_ref())
                .filter(|r| r.verifier == VERIFIER)
                .filter(|r| fs::read(layout.file(k, "txt")).is_ok_and(|b| sha_of(&b) == r.sha))
                .cloned();
            let row = match done {
                Some(row) => row,
                None => super::games::verify_shard(&layout, k, workers, log)?,
            };
            if manifest.puzzles.get(&k) != Some(&row) {
                manifest = Manifest::load(path)?;
                manifest.puzzles.insert(k, row);
                manifest.save(path)?;
            }
        }
    }
    Ok(())
}

/// A candidate's setup as a game: the position `history_plies` before, then the moves.
pub fn candidate_game(c: &Candidate) -> Result<Game, String> {
    let mut game = Game::with_rules(c.start, c.rules);
    for (i, &m) in c.before.iter().enumerate() {
        game.play(m)
            .map_err(|e| format!("candidate move {} '{m}': {e}", i + 1))?;
    }
    Ok(game)
}

/// Counts of a run's files for the report: shards done, games, candidates, puzzles.
pub fn status(path: &Path) -> Result<Vec<String>, String> {
    let m = Manifest::load(path)?;
    let games: u64 = m.shards.values().map(|r| r.games).sum();
    let candidates: u64 = m.shards.values().map(|r| r.candidates).sum();
    let seconds: u64 = m.shards.values().map(|r| r.seconds).sum();
    let (current, older): (Vec<&PuzzlesRow>, Vec<&PuzzlesRow>) =
        m.puzzles.values().partition(|r| r.verifier == VERIFIER);
    let puzzles: u64 = current.iter().map(|r| r.puzzles).sum();
    let verify_seconds: u64 = current.iter().map(|r| r.seconds).sum();
    let mut lines = vec![
        format!(
            "{}: {} of {} shards played ({games} games, {candidates} candidates, {:.1} hours)",
            path.display(),
            m.shards.len(),
            m.settings.shards,
            seconds as f64 / 3600.0
        ),
        format!(
            "{} shards verified by verifier {VERIFIER} ({puzzles} puzzles, {:.1} hours)",
            current.len(),
            verify_seconds as f64 / 3600.0
        ),
    ];
    if !older.is_empty() {
        lines.push(format!(
            "{} shards verified by an earlier verifier (made again when mined)",
            older.len()
        ));
    }
    Ok(lines)
}

/// The goal a candidate line names.
pub fn goal_of(name: &str) -> Option<Goal> {
    Goal::from_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            note: "a test".into(),
            settings: Settings {
                source: Source::SelfPlay,
                bench: 123,
                seed: 5,
                games: 10,
                shards: 3,
                nodes: 500,
                opening_plies: 6,
                max_plies: 200,
                scan_plies: 20,
                scan_nodes: 1000,
                min_animals: 4,
                max_moves: 3,
                matches: vec![Match {
                    name: "weak".into(),
                    rules: Rules::default(),
                    red: Player::Elo(1200),
                    blue: Player::Full,
                }],
            },
            shards: BTreeMap::from([(
                2,
                ShardRow {
                    games: 3,
                    decisive: 2,
                    candidates: 7,
                    games_sha: "a".repeat(64),
                    candidates_sha: "b".repeat(64),
                    seconds: 9,
                },
            )]),
            puzzles: BTreeMap::from([(
                2,
                PuzzlesRow {
                    verifier: VERIFIER,
                    puzzles: 1,
                    sha: "c".repeat(64),
                    seconds: 4,
                },
            )]),
        }
    }

    #[test]
    fn a_manifest_reads_back_what_it_writes() {
        let m = manifest();
        let text = m.to_text();
        assert_eq!(Manifest::parse(&text), Ok(m));
    }

    #[test]
    fn a_bad_manifest_is_refused_with_its_line() {
        let text = manifest().to_text();
        let cases = [
            (text.replace("seed\t5", "seed\tfive"), "seed"),
            (text.replace("\tjungle\t", "\tchess\t"), "bad rules"),
            (text.replace("1200", "12"), "UCI_Elo"),
            (
                text.replace("shard\t2\t3", "shard\t2\t4"),
                "4 games where the shard has 3",
            ),
            (
                text.replace("shard\t2\t", "shard\t9\t"),
                "shard 9 is not from 1 to 3",
            ),
            (text.replace("bench\t123\n", ""), "no bench line"),
            (text.replace(&"a".repeat(64), "xyz"), "SHA-256"),
            (format!("{text}colour\tred\n"), "unknown key"),
        ];
        for (bad, want) in cases {
            let err = Manifest::parse(&bad).expect_err(want);
            assert!(err.contains(want), "{want}: {err}");
        }
        let err = Manifest::parse(&text.replace("seed\t5", "seed\tfive")).expect_err("line");
        assert!(err.starts_with("line "), "{err}");
    }

    #[test]
    fn a_game_is_the_same_whenever_it_is_played() {
        let s = manifest().settings;
        let a = play_game(&s, 3).expect("plays");
        let b = play_game(&s, 3).expect("plays");
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.start, b.start);
        assert!(!a.moves.is_empty());
        let c = play_game(&s, 4).expect("plays");
        assert_ne!(a.start, c.start, "another game, another opening");
    }
}
