//! `jungle tune`, `jungle datagen` and `jungle train`.

use crate::common::args::{command_line, EvalArg, LineWriter, RulesArgs};
use crate::common::shard::Shard;
use crate::common::test_books::book_keys;
use crate::nnue::Activation;
use crate::train::{datagen, trainer, tune};
use std::io;

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
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played at once (the output does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Hash table size in MB per thread (part of what determines the games).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    /// Play part K of N of the games (K from 1): the N files concatenate into the whole.
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    shard: Shard,
    /// Evaluation of the searches (the embedded network, or the classical terms).
    #[arg(long, value_enum, default_value_t = EvalArg::Nnue)]
    eval: EvalArg,
    /// Openings file(s) whose positions are never used (the test books always are not).
    #[arg(long, value_name = "FILE")]
    exclude: Vec<String>,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
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
    let mut settings = datagen::Settings::new(a.games, a.nodes, a.seed);
    settings.threads = a.threads as usize;
    settings.hash_mb = a.hash as usize;
    settings.min_plies = a.min_plies;
    settings.max_plies = a.max_plies;
    settings.opening_margin = a.opening_margin;
    settings.shard = a.shard;
    settings.eval = a.eval.kind();
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
    if a.min_plies > a.max_plies {
        eprintln!(
            "error: --min-plies {} is above --max-plies {}",
            a.min_plies, a.max_plies
        );
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
