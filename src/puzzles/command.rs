//! `jungle puzzles`: make puzzles from games and tables, choose the shipped set, check
//! a puzzle file.

use super::games::{mine_game, GameSettings, Tally};
use super::tables::{mine_signature, signatures, TableSettings};
use super::{check, default_tables, in_parallel, select, test_book_keys, trim_tables, workers};
use crate::common::args::{command_line, RulesArgs};
use crate::puzzle::{read_puzzles, Puzzle, Settings, Theme};
use crate::record;
use crate::tb::Material;
use crate::text::quote;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

#[derive(clap::Subcommand, Debug)]
pub(crate) enum PuzzlesCommand {
    /// Puzzles from the decisive games of record files (`jungle match --pgn`).
    Games(GamesArgs),
    /// Puzzles from random positions of the endgame tables.
    Tables(TablesArgs),
    /// Choose a set from candidate puzzle files (each position once, none of the test
    /// books, rare themes first, ratings spread).
    Select(SelectArgs),
    /// Replay every puzzle of a file (and with --verify verify every solver move
    /// again); print the set's figures.
    Check(CheckArgs),
    /// Rate every puzzle of a file again with the strength levels as they are now
    /// (after `LEVELS` is measured again); the rest of each puzzle is kept.
    Rate(RateArgs),
    /// Prove exactly in how few moves the side to move wins (within --max), and with
    /// which first moves.
    Prove(ProveArgs),
    /// Mine games for puzzles in shards tracked by a manifest (docs/puzzles.md,
    /// "Mining"): play (or read) the games, find the candidates, verify them.
    Mine(MineArgs),
    /// Write the ratings `jungle serve` learnt from people's puzzle attempts into a
    /// puzzle file of the shipped format (docs/puzzles.md, "Ratings from people").
    Ratings(RatingsArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct RatingsArgs {
    /// `jungle serve`'s database: sqlite:FILE or postgres://…
    #[arg(long, value_name = "URL")]
    database: String,
    /// The puzzle file to write (written as FILE.part, renamed when done).
    #[arg(long, value_name = "FILE")]
    out: String,
    /// The puzzle file whose ratings are replaced (default: the shipped set built
    /// into this program, the one `jungle serve` serves).
    #[arg(long, value_name = "FILE")]
    puzzles: Option<String>,
    /// Only puzzles with at least this many rated attempts take the learnt rating.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(i64).range(1..))]
    min_attempts: i64,
}

#[derive(clap::Args, Debug)]
pub(crate) struct MineArgs {
    /// The run's manifest (puzzles/mining/RUN.tsv).
    #[arg(long, value_name = "FILE")]
    manifest: String,
    /// Make only this shard (a Slurm array task: --shard $SLURM_ARRAY_TASK_ID/N).
    #[arg(long, value_name = "K/N")]
    shard: Option<crate::common::shard::Shard>,
    /// What to make: the games and candidates, the puzzles, or both.
    #[arg(long, default_value = "all", value_parser = ["games", "puzzles", "all"])]
    stage: String,
    /// The data folder (default: $JUNGLE_DATA/puzzles, else /work/data/puzzles).
    #[arg(long, value_name = "DIR")]
    dir: Option<String>,
    /// The games of `jungle serve`'s database (a `database` run): sqlite:FILE or
    /// postgres://…
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Print the run's counts and stop.
    #[arg(long)]
    status: bool,
    /// Create the manifest: a new run of the default matches (see docs/puzzles.md).
    #[arg(long)]
    create: bool,
    /// With --create: the run's games.
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// With --create: the run's shards.
    #[arg(long, default_value_t = 400)]
    shards: u32,
    /// With --create: the seed.
    #[arg(long, default_value_t = 63)]
    seed: u64,
    /// With --create: a note (the commit that made it, what the run is for).
    #[arg(long, default_value = "")]
    note: String,
    #[command(flatten)]
    verify: VerifyArgs,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ProveArgs {
    /// A position string.
    fen: String,
    /// Moves played from it first (the game's history the draws and the anti-chase
    /// rules count).
    #[arg(long, value_name = "MOVES", default_value = "")]
    moves: String,
    /// Most moves of the side to move.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=40))]
    max: u64,
    /// Node budget.
    #[arg(long, default_value_t = 100_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Only these first moves (default: all).
    #[arg(long, value_name = "MOVES", default_value = "")]
    among: String,
    /// All first moves but these.
    #[arg(long, value_name = "MOVES", default_value = "")]
    exclude: String,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The verifier's budget and the tables, shared by the subcommands.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct VerifyArgs {
    /// Nodes of each verifying search (one thread, a fresh hash table each).
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1000..))]
    nodes: u64,
    /// Most solver moves in a line.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=20))]
    max_moves: u64,
    /// The most expected result (percent) a move other than the solution may promise
    /// the solver.
    #[arg(long, default_value_t = 80.0)]
    alternative_max: f64,
    /// Solver moves beyond the solution's win within which no other first move may win
    /// (proven exactly): the uniqueness depth is the solution's moves plus this.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=20))]
    margin: u64,
    /// Nodes of each exact proof; a position whose proof needs more is refused.
    #[arg(long, default_value_t = 20_000_000, value_parser = clap::value_parser!(u64).range(1000..))]
    proof_nodes: u64,
    /// The least expected result (percent) the search must give the solver after a
    /// hold puzzle's move.
    #[arg(long, default_value_t = 25.0)]
    hold_min: f64,
    /// Workers (each verifies one game or puzzle on one thread).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Positions with up to this many animals are decided by the tables (up to 4
    /// built in memory when not in --tb-dir; 5 read from --tb-dir only).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=5))]
    tb_animals: u64,
    /// A directory of table files (`jungle tb build`).
    #[arg(long, value_name = "DIR")]
    tb_dir: Option<String>,
}

impl VerifyArgs {
    fn settings(&self) -> Result<Settings, String> {
        if !(0.0..=100.0).contains(&self.alternative_max) {
            return Err(format!(
                "--alternative-max {}: a percentage from 0 to 100",
                self.alternative_max
            ));
        }
        if !(0.0..=100.0).contains(&self.hold_min) {
            return Err(format!(
                "--hold-min {}: a percentage from 0 to 100",
                self.hold_min
            ));
        }
        Ok(Settings {
            nodes: self.nodes,
            max_moves: self.max_moves as usize,
            alternative_max: self.alternative_max,
            margin: self.margin as usize,
            proof_nodes: self.proof_nodes,
            hold_min: self.hold_min,
        })
    }

    fn workers(
        &self,
    ) -> Result<
        (
            Vec<super::Worker>,
            Option<std::sync::Arc<crate::tb::Tablebases>>,
        ),
        String,
    > {
        let animals = self.tb_animals as usize;
        if let Some(dir) = self.tb_dir.as_deref() {
            crate::common::tables::table_dir(dir)?;
        }
        // Five-animal tables take minutes and gigabytes to build: only their files.
        let tables = if animals >= 2 {
            default_tables(self.tb_dir.as_deref(), animals.min(4))
        } else {
            None
        };
        let w = workers(
            usize::from(self.threads),
            self.settings()?,
            &tables,
            animals,
        )?;
        Ok((w, tables))
    }
}

#[derive(clap::Args, Debug)]
pub(crate) struct GamesArgs {
    /// Record files.
    #[arg(required = true)]
    files: Vec<String>,
    /// The puzzle file to write (written as FILE.part, renamed when done).
    #[arg(long, value_name = "FILE")]
    out: String,
    /// The last plies of each game looked at.
    #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(u64).range(1..=1000))]
    scan_plies: u64,
    /// Positions with fewer animals on the board are not looked at.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(2..=16))]
    min_animals: u64,
    /// The most puzzles taken from one game.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100))]
    per_game: u64,
    /// Nodes of the first look at each position.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1000..))]
    scan_nodes: u64,
    #[command(flatten)]
    verify: VerifyArgs,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(clap::Args, Debug)]
pub(crate) struct TablesArgs {
    /// Animals of the signatures drawn (5: only the signatures whose table files are
    /// in --tb-dir, with --tb-animals 5).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(2..=5))]
    animals: u64,
    /// Signatures drawn at random (all, when there are fewer).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    signatures: u64,
    /// Win puzzles taken from each signature at most.
    #[arg(long, default_value_t = 1)]
    wins: u64,
    /// Draw puzzles taken from each signature at most.
    #[arg(long, default_value_t = 1)]
    draws: u64,
    /// Positions drawn from each table at most.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    tries: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep only puzzles with this theme (a name of the puzzle format, e.g.
    /// blocked-jump, no-moves); signatures that cannot have it are not drawn.
    #[arg(long, value_name = "THEME", value_parser = parse_theme)]
    theme: Option<Theme>,
    /// Keep only win puzzles of at least this many solver moves (the hunt for the
    /// last animal rather than its capture in one).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=5))]
    min_moves: u64,
    /// The puzzle file to write (written as FILE.part, renamed when done).
    #[arg(long, value_name = "FILE")]
    out: String,
    #[command(flatten)]
    verify: VerifyArgs,
}

fn parse_theme(name: &str) -> Result<Theme, String> {
    Theme::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
        format!("unknown theme {}: one of {}", quote(name), names.join(", "))
    })
}

#[derive(clap::Args, Debug)]
pub(crate) struct SelectArgs {
    /// Candidate puzzle files.
    #[arg(required = true)]
    files: Vec<String>,
    /// Puzzles in the set.
    #[arg(long, default_value_t = 1200)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A theme of at most this share of the candidates is rare: all its puzzles go in.
    #[arg(long, default_value_t = select::RARE_SHARE)]
    rare_share: f64,
    /// The most trivial puzzles (a den entry in one move, a capture that cannot be
    /// retaken), as a share of the set; the easiest are kept.
    #[arg(long, default_value_t = select::TRIVIAL_SHARE)]
    trivial_share: f64,
    /// The least share of the set from games: the puzzles from the tables are cut to
    /// fit, the most alike first.
    #[arg(long, default_value_t = select::GAMES_SHARE)]
    games_share: f64,
    /// The most share of the set any one theme may have.
    #[arg(long, default_value_t = select::THEME_SHARE)]
    theme_share: f64,
    /// Lines of the file's header saying how the candidates were made (repeatable).
    #[arg(long, value_name = "TEXT")]
    note: Vec<String>,
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: String,
}

#[derive(clap::Args, Debug)]
pub(crate) struct CheckArgs {
    /// A puzzle file.
    file: String,
    /// Verify every solver move again (the tables, the exact proofs, the searches at
    /// --nodes); otherwise every line is replayed and draw puzzles' last positions
    /// looked up in the tables.
    #[arg(long)]
    verify: bool,
    /// With --verify: verify in full only one in N of the puzzles beyond the tables
    /// (by id), and of the others the cheap exact part: every solver move of a win is
    /// one of the fastest wins, every other move of a hold loses (proven).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    sample: u64,
    #[command(flatten)]
    verifier: VerifyArgs,
}

#[derive(clap::Args, Debug)]
pub(crate) struct RateArgs {
    /// A puzzle file.
    file: String,
    /// The file to write (written as FILE.part, renamed when done; it may be FILE);
    /// not with --fit.
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "fit",
        conflicts_with = "fit"
    )]
    out: Option<String>,
    /// Workers (each rates one puzzle on one thread).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Also write each puzzle's rating with its parts to this file (tab-separated:
    /// the levels' Elo, the six parts 0–1, the only-move depths, the efforts and
    /// each row's chance of solving it).
    #[arg(long, value_name = "FILE")]
    explain: Option<String>,
    /// Print a rating curve fitted to these puzzles' hardness (for `RATING_CURVE` in
    /// crates/core/src/puzzle/difficulty.rs) instead of writing a file.
    #[arg(long, conflicts_with = "explain")]
    fit: bool,
    /// Find every puzzle's themes again too (with the tables of up to 4 animals).
    #[arg(long)]
    themes: bool,
}

/// Runs `jungle puzzles …`; returns the exit code.
pub(crate) fn run(cmd: PuzzlesCommand) -> i32 {
    let result = match cmd {
        PuzzlesCommand::Games(args) => run_games(&args),
        PuzzlesCommand::Tables(args) => run_tables(&args),
        PuzzlesCommand::Select(args) => run_select(&args),
        PuzzlesCommand::Check(args) => run_check(&args),
        PuzzlesCommand::Rate(args) => run_rate(&args),
        PuzzlesCommand::Prove(args) => run_prove(&args),
        PuzzlesCommand::Mine(args) => run_mine(&args),
        PuzzlesCommand::Ratings(args) => run_ratings(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// A file written as `FILE.part` and renamed to `FILE` when complete, so that an
/// interrupted run leaves no file that looks finished.
struct PartFile {
    out: std::io::BufWriter<std::fs::File>,
    part: String,
    path: String,
}

impl PartFile {
    fn create(path: &str) -> Result<PartFile, String> {
        let part = format!("{path}.part");
        let file = std::fs::File::create(&part)
            .map_err(|e| format!("cannot create {}: {e}", quote(&part)))?;
        Ok(PartFile {
            out: std::io::BufWriter::new(file),
            part,
            path: path.to_string(),
        })
    }

    fn line(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.out, "{text}")
            .and_then(|_| self.out.flush())
            .map_err(|e| format!("cannot write {}: {e}", quote(&self.part)))
    }

    fn finish(mut self) -> Result<(), String> {
        self.out
            .flush()
            .map_err(|e| format!("cannot write {}: {e}", quote(&self.part)))?;
        std::fs::rename(&self.part, &self.path).map_err(|e| {
            format!(
                "cannot rename {} to {}: {e}",
                quote(&self.part),
                quote(&self.path)
            )
        })
    }
}

fn read_text(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", quote(path)))
}

fn read_puzzle_file(path: &str) -> Result<Vec<Puzzle>, String> {
    read_puzzles(&read_text(path)?).map_err(|e| format!("{}: {e}", quote(path)))
}

fn run_ratings(args: &RatingsArgs) -> Result<i32, String> {
    let text = match &args.puzzles {
        Some(path) => read_text(path)?,
        None => jungle_app::puzzles::SHIPPED_TEXT.to_string(),
    };
    let name = args.puzzles.as_deref().unwrap_or("the shipped set");
    let learnt: std::collections::HashMap<String, _> =
        jungle_online::export::puzzle_ratings(&args.database)?
            .into_iter()
            .map(|r| (r.puzzle_id.clone(), r))
            .collect();
    let (lines, changed) = super::learnt::write_back(&text, &learnt, args.min_attempts)
        .map_err(|e| format!("{}: {e}", quote(name)))?;
    let mut out = PartFile::create(&args.out)?;
    for line in &lines {
        out.line(line)?;
    }
    out.finish()?;
    eprintln!(
        "{changed} puzzles of {} take the ratings learnt from people ({} learnt in all)",
        quote(name),
        learnt.len()
    );
    Ok(0)
}

fn run_games(args: &GamesArgs) -> Result<i32, String> {
    let mut games = Vec::new();
    for path in &args.files {
        let read = record::read_records(&read_text(path)?, args.rules.rules())
            .map_err(|e| format!("{}: {e}", quote(path)))?;
        games.extend(read);
    }
    let (mut workers, tables) = args.verify.workers()?;
    let excluded = test_book_keys();
    let settings = GameSettings {
        scan_plies: args.scan_plies as usize,
        scan_nodes: args.scan_nodes,
        min_animals: args.min_animals as usize,
        per_game: args.per_game as usize,
    };
    let mut out = PartFile::create(&args.out)?;
    out.line(&format!("# {}", command_line()))?;
    let start = Instant::now();
    let mut tally = Tally::default();
    let mut failure = None;
    let job = |w: &mut super::Worker, g: &record::ReadGame| mine_game(w, g, &settings, &excluded);
    // In batches, so that the tables of 4 animals loaded for one batch can be dropped.
    let batch = 16 * usize::from(args.verify.threads);
    for (b, chunk) in games.chunks(batch).enumerate() {
        super::in_parallel(&mut workers, chunk, &job, &mut |_, report| {
            tally.add(&report);
            for p in &report.puzzles {
                if let Err(e) = out.line(&p.to_string()) {
                    failure.get_or_insert(e);
                }
            }
        });
        if let Some(e) = failure.take() {
            return Err(e);
        }
        trim_tables(&tables, 4, 64);
        eprintln!(
            "puzzles: {} of {} games in {:.0} s: {tally}",
            ((b + 1) * batch).min(games.len()),
            games.len(),
            start.elapsed().as_secs_f64()
        );
    }
    out.line(&format!(
        "# {tally}; {:.0} s",
        start.elapsed().as_secs_f64()
    ))?;
    out.finish()?;
    Ok(0)
}

fn run_tables(args: &TablesArgs) -> Result<i32, String> {
    let animals = args.animals as usize;
    if (args.verify.tb_animals as usize) < animals {
        return Err(format!(
            "--tb-animals {} is below --animals {animals}",
            args.verify.tb_animals
        ));
    }
    if args.min_moves > args.verify.max_moves {
        return Err(format!(
            "--min-moves {} is above --max-moves {}: no puzzle can be found",
            args.min_moves, args.verify.max_moves
        ));
    }
    let (mut workers, tables) = args.verify.workers()?;
    let Some(store) = tables.clone() else {
        return Err("the tables cannot be used".into());
    };
    let excluded = test_book_keys();
    let settings = TableSettings {
        wins: args.wins as usize,
        draws: args.draws as usize,
        tries: args.tries as usize,
        seed: args.seed,
        theme: args.theme,
        min_moves: args.min_moves as usize,
    };
    if args.theme.is_some_and(|t| {
        !Material::all_with(animals)
            .into_iter()
            .any(|m| super::tables::may_have(m, t))
    }) {
        return Err(format!(
            "no signature of {animals} animals in the tables can have that theme"
        ));
    }
    let sigs = if animals <= 4 {
        signatures(animals, args.signatures as usize, args.seed, args.theme)
    } else {
        // Five animals: the signatures whose files are there, drawn in the same order.
        let rules = store.rules();
        let dir = store.dir().ok_or("five-animal puzzles need --tb-dir")?;
        let built: Vec<Material> = signatures(animals, usize::MAX, args.seed, args.theme)
            .into_iter()
            .filter(|&m| crate::tb::file::path_in(dir, m, &rules).is_file())
            .take(args.signatures as usize)
            .collect();
        if built.is_empty() {
            return Err(format!("no five-animal table files in {}", dir.display()));
        }
        built
    };
    let mut out = PartFile::create(&args.out)?;
    out.line(&format!("# {}", command_line()))?;
    let start = Instant::now();
    let mut made = 0;
    let mut failure = None;
    let job = |w: &mut super::Worker, m: &Material| {
        (*m, mine_signature(w, &store, *m, &settings, &excluded))
    };
    for (b, chunk) in sigs.chunks(usize::from(args.verify.threads)).enumerate() {
        super::in_parallel(
            &mut workers,
            chunk,
            &job,
            &mut |_, (m, result)| match result {
                Ok(puzzles) => {
                    for p in puzzles {
                        made += 1;
                        if let Err(e) = out.line(&p.to_string()) {
                            failure.get_or_insert(e);
                        }
                    }
                }
                Err(e) => eprintln!("puzzles: {m}: {e}"),
            },
        );
        if let Some(e) = failure.take() {
            return Err(e);
        }
        trim_tables(&tables, animals.max(4), 8);
        eprintln!(
            "puzzles: {} of {} signatures, {made} puzzles, {:.0} s",
            ((b + 1) * usize::from(args.verify.threads)).min(sigs.len()),
            sigs.len(),
            start.elapsed().as_secs_f64()
        );
    }
    out.line(&format!(
        "# {made} puzzles from {} signatures; {:.0} s",
        sigs.len(),
        start.elapsed().as_secs_f64()
    ))?;
    out.finish()?;
    Ok(0)
}

fn run_select(args: &SelectArgs) -> Result<i32, String> {
    if !(0.0..=1.0).contains(&args.rare_share) {
        return Err(format!(
            "--rare-share {}: a share from 0 to 1",
            args.rare_share
        ));
    }
    if !(0.0..=1.0).contains(&args.games_share) {
        return Err(format!(
            "--games-share {}: a share from 0 to 1",
            args.games_share
        ));
    }
    for (name, share) in [
        ("--trivial-share", args.trivial_share),
        ("--theme-share", args.theme_share),
    ] {
        if !(0.0..=1.0).contains(&share) {
            return Err(format!("{name} {share}: a share from 0 to 1"));
        }
    }
    let mut candidates = Vec::new();
    for path in &args.files {
        candidates.extend(read_puzzle_file(path)?);
    }
    let found = candidates.len();
    let choice = select::Choice {
        count: args.count,
        seed: args.seed,
        rare_share: args.rare_share,
        trivial_share: args.trivial_share,
        games_share: args.games_share,
        theme_share: args.theme_share,
    };
    let chosen = select::select(candidates, &choice, &test_book_keys());
    let mut text = String::new();
    text.push_str("# Jungle puzzles (docs/puzzles.md): id;position;before;solution;rules;goal;themes;rating\n");
    text.push_str(&format!("# {}\n", uniqueness_note(&Settings::default())));
    for note in &args.note {
        text.push_str(&format!("# {note}\n"));
    }
    let names: Vec<String> = args
        .files
        .iter()
        .map(|f| {
            Path::new(f)
                .file_name()
                .map_or(f.clone(), |n| n.to_string_lossy().into_owned())
        })
        .collect();
    text.push_str(&format!(
        "# Chosen from {found} candidates ({}): jungle puzzles select --count {} --seed {} \
         --trivial-share {} --games-share {} --theme-share {} …\n",
        names.join(" "),
        args.count,
        args.seed,
        args.trivial_share,
        args.games_share,
        args.theme_share
    ));
    for line in check::summary(&chosen) {
        text.push_str(&format!("# {line}\n"));
    }
    for p in &chosen {
        text.push_str(&format!("{p}\n"));
    }
    std::fs::write(&args.out, text)
        .map_err(|e| format!("cannot write {}: {e}", quote(&args.out)))?;
    for line in check::summary(&chosen) {
        eprintln!("{line}");
    }
    if chosen.len() < args.count {
        // Fewer games than half the count make a smaller set, as asked; otherwise too
        // few candidates is an error.
        let games = chosen.iter().filter(|p| select::from_games(p)).count();
        if args.games_share <= 0.0 || (games as f64) < args.games_share * chosen.len() as f64 {
            eprintln!("error: only {} of {} puzzles", chosen.len(), args.count);
            return Ok(1);
        }
        eprintln!(
            "{} of {} puzzles: as many from the tables as the {games} from games allow",
            chosen.len(),
            args.count
        );
    }
    Ok(0)
}

fn run_check(args: &CheckArgs) -> Result<i32, String> {
    let start = Instant::now();
    let puzzles = read_puzzle_file(&args.file)?;
    let (mut workers, _tables) = args.verifier.workers()?;
    let depth = if args.verify {
        check::Depth::Sample {
            every: args.sample,
            tables: args.verifier.tb_animals as usize,
        }
    } else {
        check::Depth::Replay
    };
    let failures = check::check(&mut workers, &puzzles, depth);
    for line in check::summary(&puzzles) {
        println!("{line}");
    }
    for f in &failures {
        println!("refused {f}");
    }
    println!(
        "{} puzzles checked{}, {} refused, in {:.1} s",
        puzzles.len(),
        if args.verify && args.sample > 1 {
            format!(
                " (verified: the tables' and 1 in {} in full, the other lines exactly)",
                args.sample
            )
        } else if args.verify {
            " (verified in full)".to_string()
        } else {
            String::new()
        },
        failures.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(if failures.is_empty() { 0 } else { 1 })
}

/// The header line of a selected set that states what every puzzle was proven to be
/// (issue 63: the uniqueness depth in the file's header).
fn uniqueness_note(s: &Settings) -> String {
    format!(
        "Uniqueness: each solver move is the only one that wins within its fastest win \
         plus {} moves (exact proofs), or at any length (the tables, up to 4 animals); \
         each move of a hold the only one not lost by force within the longest loss of \
         the others plus {} moves (exact proofs)",
        s.margin, s.margin
    )
}

/// A puzzle's line of `rate --explain`.
fn explanation(p: &Puzzle, d: &crate::puzzle::Difficulty) -> String {
    let join = |v: Vec<String>| v.join(",");
    let parts = d.parts().map(|x| format!("{x:.3}"));
    let solves = (0..crate::search::strength::LEVELS.len())
        .map(|row| format!("{:.2}", d.steps.iter().map(|c| c[row]).product::<f64>()))
        .collect();
    format!(
        "{}\t{}\t{}\t{:.0}\t{}\t{}\t{}\t{}\t{}",
        p.id,
        d.rating,
        d.depths.len(),
        d.elo,
        parts.join("\t"),
        join(d.depths.iter().map(i32::to_string).collect()),
        join(d.nodes.iter().map(u64::to_string).collect()),
        join(solves),
        join(p.themes.iter().map(|t| t.name().to_string()).collect())
    )
}

/// The file's comment lines before its figures (what it is and how it was made), the
/// figures of the rated set, a line saying it was rated again, then the puzzles.
fn run_rate(args: &RateArgs) -> Result<i32, String> {
    let start = Instant::now();
    // clap asks for one of --out and --fit, never both.
    let out_path = match (&args.out, args.fit) {
        (Some(path), false) => Some(path.as_str()),
        (None, true) => None,
        _ => return Err("give either --out FILE or --fit".into()),
    };
    let text = read_text(&args.file)?;
    let mut puzzles = read_puzzles(&text).map_err(|e| format!("{}: {e}", quote(&args.file)))?;
    // Rating searches without tables and at the play budget; the themes need the
    // tables (an endgame, a zugzwang).
    let (tables, animals) = if args.themes {
        (default_tables(None, 4), 4)
    } else {
        (None, 0)
    };
    let mut workers = workers(
        usize::from(args.threads),
        Settings::default(),
        &tables,
        animals,
    )?;
    if args.themes {
        let mut themed = vec![Ok(Vec::new()); puzzles.len()];
        in_parallel(&mut workers, &puzzles, &|w, p| w.themes(p), &mut |i, r| {
            themed[i] = r
        });
        for (p, t) in puzzles.iter_mut().zip(themed) {
            p.themes = t.map_err(|e| format!("{}: {e}", p.id))?;
        }
    }
    let mut rated = vec![Err(String::new()); puzzles.len()];
    in_parallel(
        &mut workers,
        &puzzles,
        &|w, p| w.difficulty(p),
        &mut |i, r| rated[i] = r,
    );
    let Some(out_path) = out_path else {
        let hardness: Vec<f64> = rated
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|d| d.hardness())
            .collect();
        let curve = crate::puzzle::difficulty::fit_curve(&hardness);
        println!("pub const RATING_CURVE: [(f64, f64); {}] = [", curve.len());
        for (h, r) in &curve {
            println!("    ({h:.4}, {r:.0}.0),");
        }
        println!("];");
        return Ok(0);
    };
    let mut changed = 0;
    let mut explained = Vec::new();
    for (p, r) in puzzles.iter_mut().zip(rated) {
        let difficulty = r.map_err(|e| format!("{}: {e}", p.id))?;
        changed += usize::from(difficulty.rating != p.rating);
        p.rating = difficulty.rating;
        if args.explain.is_some() {
            explained.push(explanation(p, &difficulty));
        }
    }
    if let Some(path) = &args.explain {
        let mut out = PartFile::create(path)?;
        out.line("id\trating\tsolver moves\tlevels Elo\tlevels\tfailure\tlength\tdepth\teffort\tquiet\tdepths\tnodes\trows\tthemes")?;
        for line in &explained {
            out.line(line)?;
        }
        out.finish()?;
    }
    let summary = check::summary(&puzzles);
    let mut out = PartFile::create(out_path)?;
    let header = text.lines().take_while(|l| l.starts_with('#'));
    // The figures' lines are written again below; the other comments are kept.
    let figures = [
        "# solver moves:",
        "# animals:",
        "# first move:",
        "# themes:",
        "# ratings:",
        "# rating:",
        "# from games:",
        "# Rated again",
    ];
    for line in
        header.filter(|l| !figures.iter().any(|f| l.starts_with(f)) && !l.contains(" puzzles: "))
    {
        out.line(line)?;
    }
    out.line(&format!(
        "# Rated again with the strength levels of this build: jungle puzzles rate {} --out {}",
        Path::new(&args.file)
            .file_name()
            .map_or(args.file.clone(), |n| n.to_string_lossy().into_owned()),
        Path::new(out_path)
            .file_name()
            .map_or(out_path.to_owned(), |n| n.to_string_lossy().into_owned())
    ))?;
    for line in &summary {
        out.line(&format!("# {line}"))?;
    }
    for p in &puzzles {
        out.line(&p.to_string())?;
    }
    out.finish()?;
    for line in &summary {
        eprintln!("{line}");
    }
    eprintln!(
        "{} puzzles rated, {changed} ratings changed, in {:.1} s",
        puzzles.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}

fn run_prove(args: &ProveArgs) -> Result<i32, String> {
    let rules = args.rules.rules();
    let start = crate::board::Position::from_fen_with(&args.fen, rules.moves)
        .map_err(|e| format!("position: {e}"))?;
    let mut game = crate::game::Game::with_rules(start, rules);
    for m in args.moves.split_whitespace() {
        game.play_text(m).map_err(|e| format!("move {m}: {e}"))?;
    }
    let mut among = Vec::new();
    for m in args.among.split_whitespace() {
        among.push(
            game.parse_move(m)
                .map_err(|e| format!("--among {m}: {e}"))?,
        );
    }
    let mut excluded = Vec::new();
    for m in args.exclude.split_whitespace() {
        excluded.push(
            game.parse_move(m)
                .map_err(|e| format!("--exclude {m}: {e}"))?,
        );
    }
    if !excluded.is_empty() {
        if among.is_empty() {
            among = game.legal_moves().iter().copied().collect();
        }
        among.retain(|m| !excluded.contains(m));
        if among.is_empty() {
            return Err("--exclude leaves no first move".into());
        }
    }
    let mut prover = crate::puzzle::prove::Prover::new(64);
    let t = Instant::now();
    let result = prover.fastest(&game, &among, args.max as usize, args.nodes);
    let nodes = prover.nodes;
    match result {
        Ok(Some((n, moves))) => {
            let list: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            println!("wins in {n}: {}", list.join(" "));
        }
        Ok(None) => println!("no win within {}", args.max),
        Err(_) => println!("undecided: the budget ran out"),
    }
    println!("{nodes} nodes in {:.2} s", t.elapsed().as_secs_f64());
    Ok(0)
}

fn run_mine(args: &MineArgs) -> Result<i32, String> {
    use super::mine::{self, Manifest, RunOptions, Settings, Source};
    let path = Path::new(&args.manifest);
    if args.create {
        if path.exists() {
            return Err(format!("{} exists already", quote(&args.manifest)));
        }
        let bench = crate::train::shards::engine_bench().map_err(|e| e.to_string())?;
        let mut settings = Settings {
            source: if args.database.is_some() {
                Source::Database
            } else {
                Source::SelfPlay
            },
            bench,
            seed: args.seed,
            games: args.games,
            shards: args.shards,
            nodes: 5000,
            opening_plies: 8,
            max_plies: 400,
            scan_plies: 80,
            scan_nodes: 20_000,
            min_animals: 4,
            max_moves: args.verify.max_moves as u32,
            matches: mine::default_matches(),
        };
        if let Some(url) = &args.database {
            let games = super::database::finished_games(url)?;
            settings.games = games.len() as u64;
            settings.shards = settings.shards.min(settings.games.max(1) as u32);
            settings.matches.clear();
        }
        let m = Manifest {
            note: args.note.clone(),
            settings,
            shards: Default::default(),
            puzzles: Default::default(),
        };
        Manifest::parse(&m.to_text())?;
        m.save(path)?;
        eprintln!("wrote {} (bench {bench})", args.manifest);
        return Ok(0);
    }
    if args.status {
        for line in mine::status(path)? {
            println!("{line}");
        }
        return Ok(0);
    }
    let manifest = Manifest::load(path)?;
    let bench = crate::train::shards::engine_bench().map_err(|e| e.to_string())?;
    if bench != manifest.settings.bench {
        return Err(format!(
            "the manifest's games were made by the engine of bench {}, this one's bench is {bench}: its games would differ (build the engine of the manifest's note)",
            manifest.settings.bench
        ));
    }
    let database = match (&args.database, &manifest.settings.source) {
        (Some(url), Source::Database) => Some(super::database::finished_games(url)?),
        (Some(_), Source::SelfPlay) => {
            return Err("--database: this run plays its own games".into())
        }
        (None, _) => None,
    };
    let (mut workers, _tables) = args.verify.workers()?;
    let options = RunOptions {
        shard: args.shard,
        games: args.stage != "puzzles",
        puzzles: args.stage != "games",
    };
    let dir = mine::data_dir(args.dir.as_deref());
    let mut log = |line: &str| eprintln!("{} {line}", chrono_now());
    mine::run(
        path,
        &dir,
        database.as_deref(),
        &mut workers,
        &options,
        &mut log,
    )?;
    Ok(0)
}

/// The time for log lines: seconds since the epoch (UTC).
fn chrono_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("[{secs}]")
}
