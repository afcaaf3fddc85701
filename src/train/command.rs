//! `jungle tune`, `jungle datagen` and `jungle train`.

use crate::common::args::{command_line, EvalArg, LineWriter, RulesArgs};
use crate::common::shard::Shard;
use crate::common::test_books::book_keys;
use crate::nnue::Activation;
use crate::train::shards::{self, Manifest, ShardState};
use crate::train::{datagen, stats, trainer, tune};
use std::io::{self, Write};
use std::path::Path;

#[derive(clap::Args, Debug)]
pub(crate) struct TuneArgs {
    /// Record files written by `match --pgn`.
    #[arg(required = true)]
    files: Vec<String>,
    /// Plies skipped at the start of each game.
    #[arg(long, default_value_t = 8)]
    skip: usize,
    /// Passes of local search.
    #[arg(long, default_value_t = 20)]
    passes: usize,
    /// Keep every N-th distinct game out of the fit and report its error.
    #[arg(long, default_value_t = 0, value_name = "N")]
    holdout: usize,
    /// Start from the hand-set weights, not the engine's (tuned) ones.
    #[arg(long)]
    from_hand_set: bool,
    /// Also write the tuned weights as Rust source (`crates/core/src/eval/weights.rs`).
    #[arg(long, value_name = "FILE")]
    rust: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(clap::Args, Debug)]
pub(crate) struct DatagenArgs {
    /// Output file (16-byte records, no header; shards concatenate).
    #[arg(long, short)]
    output: String,
    /// Games of the whole run (a shard plays its part of them).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Games played at once (the output does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play part K of N of the games (K from 1): the N files concatenate into the whole.
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    shard: Shard,
    #[command(flatten)]
    game: GameSettingsArgs,
    /// Openings file(s) whose positions are never used (the test books always are not).
    #[arg(long, value_name = "FILE")]
    exclude: Vec<String>,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
}

/// What a game of `jungle datagen` depends on, besides the seed and its index.
#[derive(clap::Args, Debug)]
pub(crate) struct GameSettingsArgs {
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Hash table size in MB per thread (part of what determines the games).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Fewest random plies of an opening.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    min_plies: u32,
    /// Most random plies of an opening.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(0..=40))]
    max_plies: u32,
    /// Keep an opening when the search of its first move scores it within this many
    /// centipawns.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(i32).range(0..))]
    opening_margin: i32,
    /// Fewest animals taken off the board after the random plies (unbalanced starts).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=14))]
    drop_min: u32,
    /// Most animals taken off the board after the random plies (0: none).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=14))]
    drop_max: u32,
    /// Plies at the start of each game whose move is drawn among the near-best lines
    /// (0: always the best move).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=400))]
    sample_plies: u32,
    /// Lines searched (MultiPV, in the same nodes) in those plies.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    sample_lines: u32,
    /// A line is near-best when it scores within this many centipawns of the best.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(i32).range(0..))]
    sample_margin: i32,
    /// Evaluation of the searches (the embedded network, or the classical terms).
    #[arg(long, value_enum, default_value_t = EvalArg::Nnue)]
    eval: EvalArg,
}

impl GameSettingsArgs {
    fn apply(&self, s: &mut datagen::Settings) {
        s.nodes = self.nodes;
        s.hash_mb = self.hash as usize;
        s.min_plies = self.min_plies;
        s.max_plies = self.max_plies;
        s.opening_margin = self.opening_margin;
        s.drop_min = self.drop_min;
        s.drop_max = self.drop_max;
        s.sample_plies = self.sample_plies;
        s.sample_lines = self.sample_lines as usize;
        s.sample_margin = self.sample_margin;
        s.eval = self.eval.kind();
    }
}

/// `jungle data`: data made in shards from a manifest (docs/training.md, "Training data").
#[derive(clap::Subcommand, Debug)]
pub(crate) enum DataCommand {
    /// Write a new manifest: the run's settings (those of `jungle datagen`), no shard made.
    New(DataNewArgs),
    /// Make the manifest's missing or damaged shards (resumable) and add their rows.
    Run(DataRunArgs),
    /// Check the data files against the manifest's checksums.
    Verify(DataVerifyArgs),
    /// Statistics of data files, or of a manifest's shards.
    Stats(DataStatsArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct DataNewArgs {
    /// The manifest to write (data/manifests/RUN.tsv); refused if it exists.
    manifest: String,
    /// Games of the whole run.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Shards the games are split into.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    shards: u32,
    #[arg(long)]
    seed: u64,
    #[command(flatten)]
    game: GameSettingsArgs,
    /// One line of free text kept in the manifest (what the run is for, its commit).
    #[arg(long, default_value = "")]
    note: String,
}

#[derive(clap::Args, Debug)]
pub(crate) struct DataRunArgs {
    manifest: String,
    /// The data folder (default: $JUNGLE_DATA, else /work/data).
    #[arg(long)]
    dir: Option<String>,
    /// Games played at once (the data does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// First shard to make.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    first: u32,
    /// Last shard to make (default: the last).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    last: Option<u32>,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args, Debug)]
pub(crate) struct DataVerifyArgs {
    manifest: String,
    /// The data folder (default: $JUNGLE_DATA, else /work/data).
    #[arg(long)]
    dir: Option<String>,
}

#[derive(clap::Args, Debug)]
pub(crate) struct DataStatsArgs {
    /// Data files (or none, with --manifest).
    files: Vec<String>,
    /// A manifest: its finished shards' files, and its games.
    #[arg(long, conflicts_with = "files")]
    manifest: Option<String>,
    /// The data folder (default: $JUNGLE_DATA, else /work/data).
    #[arg(long, requires = "manifest")]
    dir: Option<String>,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum ActivationArg {
    Screlu,
    Crelu,
}

#[derive(clap::Args, Debug)]
pub(crate) struct TrainArgs {
    /// Data files (16-byte records; several files are read as one).
    #[arg(required = true)]
    files: Vec<String>,
    /// The network file to write (after every epoch).
    #[arg(long, default_value = "net.nnue")]
    out: String,
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..=1_048_576))]
    batch: u32,
    /// Peak learning rate (AdamW).
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// Final learning rate of the cosine decay.
    #[arg(long, default_value_t = 1e-5)]
    lr_min: f32,
    /// Warm-up steps (batches) with a rising learning rate.
    #[arg(long, default_value_t = 100)]
    warmup: u64,
    /// AdamW weight decay.
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Weight of the game result in the target (the rest: sigmoid(score / K)).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Weight in the training loss of positions from drawn games that lie
    /// --shuffle-plies or more plies after the last capture (1: like any other).
    #[arg(long, default_value_t = 1.0)]
    shuffle_weight: f32,
    /// Plies since the last capture from which a drawn game's position is a shuffle.
    #[arg(long, default_value_t = 80)]
    shuffle_plies: u8,
    /// Sigmoid scale of the search score in centipawns (default: fitted to the data).
    #[arg(long)]
    k: Option<f32>,
    /// Output buckets by number of animals on the board (1: a single output).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=16))]
    buckets: u32,
    #[arg(long, value_enum, default_value_t = ActivationArg::Screlu)]
    activation: ActivationArg,
    /// Hold out every N-th block of 4096 positions and report its loss (0: none).
    #[arg(long, default_value_t = 20)]
    holdout: usize,
    /// Do not mirror positions left to right at random.
    #[arg(long)]
    no_mirror: bool,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores); results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// Write a float checkpoint (weights and optimiser state) after every epoch.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<String>,
    /// Continue from a float checkpoint.
    #[arg(long, value_name = "FILE")]
    resume: Option<String>,
    /// Stop after this many epochs in this run (resume later from --checkpoint).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    stop_after: Option<u32>,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
}

/// Runs `jungle tune`; returns the exit code.
pub(crate) fn run_tune(args: TuneArgs) -> i32 {
    let TuneArgs {
        files,
        skip,
        passes,
        holdout,
        from_hand_set,
        rust,
        rules,
    } = args;
    let settings = tune::Settings {
        skip_plies: skip,
        passes,
        holdout,
        rules: rules.rules(),
        from_hand_set,
        rust_file: rust,
        command_line: command_line(),
    };
    let mut out = LineWriter(io::stdout());
    match tune::run(&files, &settings, &mut out) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Runs `jungle datagen`; returns the exit code.
pub(crate) fn run_datagen(a: DatagenArgs) -> i32 {
    let mut settings = datagen::Settings::new(a.games, a.game.nodes, a.seed);
    a.game.apply(&mut settings);
    settings.threads = a.threads as usize;
    settings.shard = a.shard;
    settings.progress = !a.quiet;
    for path in &a.exclude {
        let keys = std::fs::read_to_string(path)
            .map_err(|e| {
                format!(
                    "cannot read --exclude file {}: {e}",
                    crate::text::quote(path)
                )
            })
            .and_then(|text| book_keys(path, &text));
        match keys {
            Ok(keys) => settings.excluded.extend(keys),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    if let Err(e) = settings.check() {
        eprintln!("error: {e}");
        return 2;
    }
    let file = match std::fs::File::create(&a.output) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", a.output);
            return 2;
        }
    };
    let mut out = io::BufWriter::new(file);
    match datagen::generate(&settings, &mut out) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// Runs `jungle data`; returns the exit code.
pub(crate) fn run_data(cmd: DataCommand) -> i32 {
    let result = match cmd {
        DataCommand::New(a) => data_new(a),
        DataCommand::Run(a) => data_run(a),
        DataCommand::Verify(a) => data_verify(a),
        DataCommand::Stats(a) => data_stats(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn data_new(a: DataNewArgs) -> Result<i32, String> {
    let path = Path::new(&a.manifest);
    Manifest::run_name(path).map_err(|e| e.to_string())?;
    if path.exists() {
        return Err(format!(
            "{} exists: a manifest is never overwritten",
            a.manifest
        ));
    }
    let mut settings = datagen::Settings::new(a.games, a.game.nodes, a.seed);
    a.game.apply(&mut settings);
    let bench = shards::engine_bench().map_err(|e| e.to_string())?;
    let m = Manifest::new(settings, a.shards, bench, &a.note).map_err(|e| e.to_string())?;
    m.save(path).map_err(|e| e.to_string())?;
    eprintln!("wrote {} (bench {bench})", a.manifest);
    Ok(0)
}

fn data_run(a: DataRunArgs) -> Result<i32, String> {
    let dir = shards::data_dir(a.dir.as_deref());
    let opts = shards::RunOptions {
        threads: a.threads as usize,
        first: a.first,
        last: a.last.unwrap_or(0),
        progress: !a.quiet,
    };
    let bench = shards::engine_bench().map_err(|e| e.to_string())?;
    let s = shards::run(
        Path::new(&a.manifest),
        &dir,
        &opts,
        bench,
        &mut io::stderr(),
    )
    .map_err(|e| e.to_string())?;
    eprintln!(
        "{} shards made, {} made again, {} already there, {} rows taken from the data folder",
        s.made, s.remade, s.skipped, s.adopted
    );
    Ok(0)
}

fn data_verify(a: DataVerifyArgs) -> Result<i32, String> {
    let path = Path::new(&a.manifest);
    let m = Manifest::load(path).map_err(|e| e.to_string())?;
    let layout = shards::Layout::new(&shards::data_dir(a.dir.as_deref()), path)
        .map_err(|e| e.to_string())?;
    let states = shards::verify(&m, &layout).map_err(|e| e.to_string())?;
    let mut out = LineWriter(io::stdout());
    let (mut ok, mut bad, mut pending) = (0, 0, 0);
    for (k, state) in &states {
        match state {
            ShardState::Ok => ok += 1,
            ShardState::Pending => pending += 1,
            _ => bad += 1,
        }
        if *state != ShardState::Pending {
            let _ = writeln!(out, "shard {k}: {} {state}", layout.file(*k).display());
        }
    }
    let _ = writeln!(
        out,
        "{ok} shards ok, {bad} missing or damaged, {pending} not made yet (of {})",
        m.shards
    );
    Ok(if bad == 0 { 0 } else { 1 })
}

fn data_stats(a: DataStatsArgs) -> Result<i32, String> {
    let (files, manifest) = match &a.manifest {
        Some(path) => {
            let m = Manifest::load(Path::new(path)).map_err(|e| e.to_string())?;
            let layout = shards::Layout::new(&shards::data_dir(a.dir.as_deref()), Path::new(path))
                .map_err(|e| e.to_string())?;
            let files = m
                .done
                .keys()
                .map(|&k| layout.file(k).to_string_lossy().into_owned())
                .collect();
            (files, Some(m))
        }
        None => (a.files, None),
    };
    if files.is_empty() {
        return Err("no data files (give files, or a manifest with finished shards)".into());
    }
    let stats = stats::of_files(&files)?;
    let mut out = LineWriter(io::stdout());
    let _ = write!(out, "{}", stats.report(manifest.as_ref()));
    Ok(0)
}

/// Runs `jungle train`; returns the exit code.
pub(crate) fn run_train(a: TrainArgs) -> i32 {
    let settings = trainer::Settings {
        epochs: a.epochs as usize,
        batch_size: a.batch as usize,
        lr: a.lr,
        lr_min: a.lr_min,
        warmup: a.warmup,
        weight_decay: a.weight_decay,
        lambda: a.lambda,
        k: a.k,
        shuffle_weight: a.shuffle_weight,
        shuffle_plies: a.shuffle_plies,
        buckets: a.buckets as usize,
        activation: match a.activation {
            ActivationArg::Screlu => Activation::SCReLU,
            ActivationArg::Crelu => Activation::CReLU,
        },
        holdout: a.holdout,
        mirror: !a.no_mirror,
        seed: a.seed,
        out: Some(a.out.clone().into()),
        checkpoint: a.checkpoint.clone().map(Into::into),
        resume: a.resume.clone().map(Into::into),
        stop_after: a.stop_after.map(|n| n as usize),
        progress: !a.quiet,
        command_line: command_line(),
    };
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let mut out = LineWriter(io::stdout());
    match trainer::run(&a.files, &settings, threads, &mut out) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
