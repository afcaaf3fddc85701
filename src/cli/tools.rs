//! `jungle perft` and `jungle bench`: the engine's own commands (`crate::tools`).

use crate::board::Position;
use crate::common::args::RulesArgs;
use crate::nnue::{EvalKind, Network};
use crate::search::parameters::SearchParams;
use crate::tools::{bench, perft};
use crate::with_move_rules;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum BenchEval {
    Classical,
    Nnue,
    Both,
}

#[derive(clap::Args, Debug)]
pub(crate) struct PerftArgs {
    /// Plies to search.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=32))]
    depth: u32,
    /// Position string to start from (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(clap::Args, Debug)]
pub(crate) struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: i32,
    /// Search threads (the node count is the signature only with 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Evaluation: classical, nnue, or both (one run each, then their speed ratio).
    #[arg(long, value_enum, default_value_t = BenchEval::Nnue)]
    eval: BenchEval,
    /// Network file for nnue (default: the embedded network).
    #[arg(long, value_name = "FILE")]
    eval_file: Option<String>,
    /// Search parameters as the SearchParams option takes them (`jungle params` lists
    /// them), e.g. rfp_margin=95,lmr_base=80: a candidate's signature.
    #[arg(long, value_name = "NAME=VALUE,...", value_parser = parse_search_params, default_value = "<default>")]
    params: SearchParams,
    #[command(flatten)]
    rules: RulesArgs,
}

fn parse_search_params(text: &str) -> Result<SearchParams, String> {
    SearchParams::parse(text)
}

/// Runs `jungle perft`; returns the exit code.
pub(crate) fn run_perft(args: PerftArgs) -> i32 {
    let PerftArgs {
        depth,
        fen,
        divide,
        threads,
        rules,
    } = args;
    let (fen, threads, rules) = (fen.as_deref(), threads as usize, rules.rules());
    let pos = match fen {
        None => Position::startpos(),
        Some(text) => match Position::from_fen_with(text, rules.moves) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: invalid --fen: {e}");
                return 2;
            }
        },
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = with_move_rules!(rules.moves, R => perft::report_with::<R>(&pos, depth, divide, threads, &mut out));
    match result {
        Ok(_) => {
            let _ = out.flush();
            0
        }
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: cannot write output: {e}");
            1
        }
    }
}

/// Runs `jungle bench`; returns the exit code.
pub(crate) fn run_bench(args: BenchArgs) -> i32 {
    let BenchArgs {
        depth,
        threads,
        hash,
        json,
        eval,
        eval_file,
        params,
        rules,
    } = args;
    let network = match eval_file.as_deref().map(|f| Network::load(Path::new(f))) {
        None => None,
        Some(Ok(net)) => Some(Arc::new(net)),
        Some(Err(e)) => {
            eprintln!("error: --eval-file: {e}");
            return 2;
        }
    };
    let settings = bench::Settings {
        depth,
        threads: threads as usize,
        hash_mb: hash as usize,
        json,
        rules: rules.rules(),
        eval: if eval == BenchEval::Nnue {
            EvalKind::Nnue
        } else {
            EvalKind::Classical
        },
        network,
        params,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = if eval == BenchEval::Both {
        bench::compare(&settings, &mut out)
    } else {
        bench::run(&settings, &mut out).map(|_| ())
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: bench failed: {e}");
            1
        }
    }
}

/// The learning rate `jungle params` suggests for every parameter (OpenBench's
/// `r_end`, its usual value).
const SPSA_LEARNING_RATE: f64 = 0.002;

/// Runs `jungle params`: the tunable search parameters (`search/parameters.rs`) in
/// OpenBench's SPSA input format, which `scripts/spsa.py` reads.
pub(crate) fn run_params() -> i32 {
    let mut out = io::stdout().lock();
    for t in &jungle_core::search::parameters::TUNABLES {
        if writeln!(
            out,
            "{}, int, {}, {}, {}, {}, {}",
            t.name,
            t.default_value(),
            t.min,
            t.max,
            t.step,
            SPSA_LEARNING_RATE
        )
        .is_err()
        {
            return 1;
        }
    }
    0
}
