//! Command line: `jungle` with no subcommand runs the engine protocol (see
//! `protocol.md`); the subcommands are tools.

use crate::arena::engine_process::{rule_options, EngineSpec};
use crate::arena::greedy;
use crate::arena::match_runner::{self, Adjudication, TimeControl};
use crate::arena::merge;
use crate::arena::openings;
use crate::arena::shard::Shard;
use crate::arena::stats::Sprt;
use crate::board::rules::MoveRuleFlags;
use crate::board::Position;
use crate::game::{Rules, Variant};
use crate::gui;
use crate::nnue::{Activation, EvalKind, Network};
use crate::protocol;
use crate::tools::{bench, perft};
use crate::train::{datagen, trainer, tune};
use crate::with_move_rules;
use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(name = "jungle", version, about = "A Jungle (Dou Shou Qi) engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Rule options shared by the subcommands.
#[derive(clap::Args, Debug, Clone, Copy)]
pub(crate) struct RulesArgs {
    /// Rule set: jungle (protocol.md) or jungle-cn (Chinese online rules).
    #[arg(long, value_enum, default_value_t = VariantArg::Jungle)]
    rules: VariantArg,
    /// The dog may swim (seed 004's variant).
    #[arg(long)]
    dog_swims: bool,
    /// An animal on an enemy trap cannot capture (seed 003's reading).
    #[arg(long)]
    trapped_lose_attack: bool,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VariantArg {
    Jungle,
    #[value(name = "jungle-cn")]
    JungleCn,
}

impl RulesArgs {
    pub(crate) fn rules(self) -> Rules {
        let variant = match self.rules {
            VariantArg::Jungle => Variant::Jungle,
            VariantArg::JungleCn => Variant::JungleCn,
        };
        Rules {
            moves: MoveRuleFlags {
                dog_swims: self.dog_swims,
                trapped_lose_attack: self.trapped_lose_attack,
            },
            ..variant.rules()
        }
    }
}

/// The evaluation a command's searches use (`--eval`).
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum EvalArg {
    Classical,
    Nnue,
}

impl EvalArg {
    fn kind(self) -> EvalKind {
        match self {
            EvalArg::Classical => EvalKind::Classical,
            EvalArg::Nnue => EvalKind::Nnue,
        }
    }
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum BenchEval {
    Classical,
    Nnue,
    Both,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal move tree (checks and times the move generator).
    Perft {
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
    },
    /// Search the fixed bench positions; the last line is `<nodes> nodes <nps> nps`.
    Bench {
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
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Play a match between two engines (the referee keeps rules and clocks).
    Match(MatchArgs),
    /// Replay the games of record files written by `match --pgn`, checking every move,
    /// and print their summary (the files of the shards of a match give the match's).
    Replay {
        /// The record files.
        files: Vec<String>,
        /// Sequential test on all the pairs: elo0=E0 elo1=E1 alpha=A beta=B (the words
        /// after these that are not key=value are files).
        #[arg(long, num_args = 1..=4)]
        sprt: Vec<String>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Tune the evaluation weights from recorded games (Texel method).
    Tune {
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
    },
    /// Generate training positions by self-play (record format: protocol.md).
    Datagen(DatagenArgs),
    /// Train a network (NNUE) on data files of `jungle datagen`.
    Train(TrainArgs),
    /// Endgame tablebases: build tables, probe positions.
    #[command(subcommand)]
    Tb(crate::tb_files::command::TbCommand),
    /// Generate an opening suite: balanced (openings.txt), unbalanced, verified or calibrated (books/).
    Openings {
        #[arg(long, default_value_t = 100)]
        count: usize,
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=40))]
        plies: u32,
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(i32).range(1..=30))]
        depth: i32,
        /// Keep positions scored within this many centipawns of 0.
        #[arg(long, default_value_t = 60)]
        margin: i32,
        /// Keep only positions scored at least this far from 0 (an unbalanced suite).
        #[arg(long, default_value_t = 0)]
        min_margin: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep only positions from which a self-play game at N nodes per move is won by
        /// the side the search favours.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        verify_nodes: Option<u64>,
        /// Threads playing the verification games (the suite does not depend on it).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Evaluation of the searches (the committed books were made with classical).
        #[arg(long, value_enum, default_value_t = EvalArg::Nnue)]
        eval: EvalArg,
        #[command(flatten)]
        calibrate: CalibrateArgs,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Serve a board for people in the browser: play, watch engines, analyse.
    Gui(GuiArgs),
    /// A one-ply greedy player speaking the protocol (the beginner the levels are measured against).
    Greedy {
        /// Seed of its random choices (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
    },
}

/// Calibration of `jungle openings`: self-play trials from each candidate.
#[derive(clap::Args, Debug, Clone)]
struct CalibrateArgs {
    /// Calibrate: keep a position only when self-play trials at about N nodes per move
    /// (each move's budget jittered, see --calibrate-jitter) pass the thresholds.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    calibrate_nodes: Option<u64>,
    /// Calibrate (after --calibrate-nodes, if given) at a clock, seconds[+increment]
    /// per side, e.g. 10+0.1.
    #[arg(long, value_name = "TC")]
    calibrate_tc: Option<String>,
    /// Self-play trials per candidate and limit.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    calibrate_trials: u32,
    /// Each move's node budget is drawn from N ± this many percent (seeded), so that
    /// the trials of a position differ.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u32).range(0..=90))]
    calibrate_jitter: u32,
    /// Keep a position when the favoured side wins at least this percentage of trials.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(0..=100))]
    calibrate_min_win: u32,
    /// … and at most this percentage.
    #[arg(long, default_value_t = 70, value_parser = clap::value_parser!(u32).range(0..=100))]
    calibrate_max_win: u32,
    /// … and loses at most this many trials.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    calibrate_max_losses: u32,
}

impl CalibrateArgs {
    /// The calibration asked for (`None`: no --calibrate-nodes or --calibrate-tc).
    fn calibration(&self) -> Result<Option<openings::Calibration>, String> {
        let mut limits = Vec::new();
        if let Some(nodes) = self.calibrate_nodes {
            limits.push(openings::TrialLimit::Nodes {
                nodes,
                jitter_pct: self.calibrate_jitter,
            });
        }
        if let Some(tc) = &self.calibrate_tc {
            match TimeControl::parse_tc(tc) {
                Ok(TimeControl::Clock { base_ms, inc_ms }) => {
                    limits.push(openings::TrialLimit::Clock { base_ms, inc_ms })
                }
                _ => {
                    return Err(format!(
                        "--calibrate-tc '{}': expected seconds[+increment], like 10+0.1",
                        crate::text::quote(tc)
                    ))
                }
            }
        }
        if limits.is_empty() {
            return Ok(None);
        }
        let cal = openings::Calibration {
            limits,
            trials: self.calibrate_trials,
            min_win_pct: self.calibrate_min_win,
            max_win_pct: self.calibrate_max_win,
            max_losses: self.calibrate_max_losses,
        };
        cal.check()?;
        Ok(Some(cal))
    }
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum ActivationArg {
    Screlu,
    Crelu,
}

#[derive(clap::Args, Debug)]
struct TrainArgs {
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

#[derive(clap::Args, Debug)]
struct GuiArgs {
    /// Port to listen on (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 8017)]
    port: u16,
    /// Address to listen on. Anything but loopback (127.0.0.1) lets other machines in.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// An engine, as for `match`: the first plays and analyses, a second is Blue in a
    /// watched game. Default: this program.
    #[arg(long = "engine", num_args = 1)]
    engines: Vec<String>,
    /// Clock of a watched engine game: seconds[+increment].
    #[arg(long, default_value = "60+0.6")]
    tc: String,
    /// The engine's thinking time per move against a person, in ms.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(50..=600_000))]
    movetime: u64,
}

#[derive(clap::Args, Debug)]
struct DatagenArgs {
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

#[derive(clap::Args, Debug)]
struct MatchArgs {
    /// An engine: "cmd=PATH name=NAME [arg=A]… [proto=uci|jcei] [option.NAME=VALUE]…"
    /// (underscores in option names stand for spaces). Give exactly two.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Number of games (pairs of games per opening, colours swapped).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// Clock per game: seconds[+increment], e.g. 10+0.1.
    #[arg(long, group = "limit")]
    tc: Option<String>,
    /// Fixed time per move in ms.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// With --movetime: an answer later than movetime + this many ms loses on time
    /// (without it, only an engine silent for 5 s past the movetime loses, as hung).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    timemargin: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..=124))]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Openings file (one position string per line); default: the start position.
    #[arg(long)]
    openings: Option<String>,
    /// Write the games to this record file.
    #[arg(long)]
    pgn: Option<String>,
    /// Sequential test: elo0=E0 elo1=E1 alpha=A beta=B; stops when decided.
    #[arg(long, num_args = 1..=4)]
    sprt: Vec<String>,
    /// Draw adjudication: movenumber=M movecount=N score=S.
    #[arg(long, num_args = 1..=3)]
    draw: Vec<String>,
    /// Resign adjudication: movecount=N score=S.
    #[arg(long, num_args = 1..=2)]
    resign: Vec<String>,
    /// Adjudicate a draw after this many moves.
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Play part K of N of the game pairs (K from 1), numbered as in the whole match;
    /// `jungle replay` merges the N record files.
    #[arg(long, default_value = "1/1", value_name = "K/N")]
    shard: Shard,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs the program; returns the process exit code.
pub fn run() -> i32 {
    init_logging();
    let cli = Cli::parse();
    match cli.command {
        None => protocol::run(),
        Some(Command::Greedy { seed }) => greedy::run(seed),
        Some(Command::Gui(a)) => gui::run(&gui::Settings {
            host: a.host,
            port: a.port,
            engines: a.engines,
            tc: a.tc,
            movetime_ms: a.movetime,
        }),
        Some(Command::Match(args)) => match build_match(&args) {
            Ok(settings) => {
                let stdout = io::stdout();
                let mut out = LineWriter(stdout);
                match match_runner::run(&settings, &mut out) {
                    Ok(_) => 0,
                    Err(e) => {
                        eprintln!("error: match failed: {e}");
                        1
                    }
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                2
            }
        },
        Some(Command::Datagen(args)) => run_datagen(&args),
        Some(Command::Replay { files, sprt, rules }) => run_replay(&files, &sprt, rules.rules()),
        Some(Command::Train(args)) => run_train(&args),
        Some(Command::Tb(cmd)) => crate::tb_files::command::run(cmd),
        Some(Command::Tune {
            files,
            skip,
            passes,
            holdout,
            from_hand_set,
            rust,
            rules,
        }) => {
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
        Some(Command::Openings {
            count,
            plies,
            depth,
            margin,
            min_margin,
            seed,
            verify_nodes,
            threads,
            eval,
            calibrate,
            rules,
        }) => {
            let calibrate = match calibrate.calibration() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("error: {e}");
                    return 2;
                }
            };
            let settings = openings::Settings {
                count,
                plies,
                depth,
                margin,
                min_margin,
                seed,
                rules: rules.rules(),
                verify_nodes,
                threads: threads as usize,
                eval: eval.kind(),
                calibrate,
            };
            let stdout = io::stdout();
            let mut out = io::BufWriter::new(stdout.lock());
            match openings::generate(&settings, &mut out) {
                Ok(written) if written < count => {
                    eprintln!(
                        "error: only {written} of {count} positions found (too narrow a score band or calibration band?)"
                    );
                    1
                }
                Ok(_) => 0,
                Err(e) => {
                    eprintln!("error: {e}");
                    1
                }
            }
        }
        Some(Command::Bench {
            depth,
            threads,
            hash,
            json,
            eval,
            eval_file,
            rules,
        }) => {
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
        Some(Command::Perft {
            depth,
            fen,
            divide,
            threads,
            rules,
        }) => run_perft(
            depth,
            fen.as_deref(),
            divide,
            threads as usize,
            rules.rules(),
        ),
    }
}

/// Writes and flushes stdout at once (progress lines of a match are read live).
struct LineWriter(io::Stdout);

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.0.write(buf)?;
        self.0.flush()?;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// `key=value` pairs of an option list, checked against the allowed keys.
fn key_values(
    items: &[String],
    what: &str,
    allowed: &[&str],
) -> Result<Vec<(String, f64)>, String> {
    items
        .iter()
        .flat_map(|s| s.split_whitespace())
        .map(|kv| {
            let (k, v) = kv.split_once('=').ok_or_else(|| {
                format!("--{what}: '{}' is not key=value", crate::text::quote(kv))
            })?;
            if !allowed.contains(&k) {
                return Err(format!(
                    "--{what}: unknown key '{}' (allowed: {})",
                    crate::text::quote(k),
                    allowed.join(", ")
                ));
            }
            let v: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("--{what}: '{}' is not a number", crate::text::quote(v)))?;
            Ok((k.to_string(), v))
        })
        .collect()
}

fn get(kvs: &[(String, f64)], key: &str, what: &str) -> Result<f64, String> {
    kvs.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("--{what}: {key}= is missing"))
}

/// The SPRT of `--sprt` values, if any.
fn parse_sprt(items: &[String]) -> Result<Option<Sprt>, String> {
    if items.is_empty() {
        return Ok(None);
    }
    let kv = key_values(items, "sprt", &["elo0", "elo1", "alpha", "beta"])?;
    Ok(Some(Sprt::new(
        get(&kv, "elo0", "sprt")?,
        get(&kv, "elo1", "sprt")?,
        get(&kv, "alpha", "sprt").unwrap_or(0.05),
        get(&kv, "beta", "sprt").unwrap_or(0.05),
    )?))
}

/// Checks every match argument before any game starts.
fn build_match(a: &MatchArgs) -> Result<match_runner::MatchSettings, String> {
    let rules = a.rules.rules();
    if a.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine, got {}",
            a.engines.len()
        ));
    }
    let mut e0 = EngineSpec::parse(&a.engines[0])?;
    let mut e1 = EngineSpec::parse(&a.engines[1])?;
    // Engines are told the rules the referee enforces (nothing is sent for the
    // default rules, so engines without these options work).
    if rules != Rules::default() {
        for e in [&mut e0, &mut e1] {
            e.options.splice(0..0, rule_options(rules));
        }
    }
    if e0.name == e1.name {
        e1.name.push_str("-2");
    }
    let tc = match (&a.tc, a.movetime, a.depth, a.nodes) {
        (Some(tc), ..) => TimeControl::parse_tc(tc)?,
        (_, Some(ms), ..) => TimeControl::MoveTime(ms),
        (_, _, Some(d), _) => TimeControl::Depth(d),
        (_, _, _, Some(n)) => TimeControl::Nodes(n),
        _ => return Err("give one of --tc, --movetime, --depth, --nodes".into()),
    };
    if a.timemargin.is_some() && a.movetime.is_none() {
        return Err("--timemargin applies to --movetime only".into());
    }
    let openings = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                format!(
                    "cannot read openings file {}: {e}",
                    crate::text::quote(path)
                )
            })?;
            match_runner::read_openings(&text, rules)?
        }
        None => vec![Position::startpos()],
    };
    let sprt = parse_sprt(&a.sprt)?;
    if sprt.is_some() && a.shard != Shard::WHOLE {
        return Err(
            "--sprt stops a match early, so the shards would not add up to the match: give --sprt to `jungle replay` over the shards' record files instead".into(),
        );
    }
    let mut adjudication = Adjudication {
        max_moves: a.maxmoves,
        ..Adjudication::default()
    };
    if !a.draw.is_empty() {
        let kv = key_values(&a.draw, "draw", &["movenumber", "movecount", "score"])?;
        adjudication.draw = Some((
            get(&kv, "movenumber", "draw")? as u32,
            get(&kv, "movecount", "draw")? as u32,
            get(&kv, "score", "draw")? as i32,
        ));
    }
    if !a.resign.is_empty() {
        let kv = key_values(&a.resign, "resign", &["movecount", "score"])?;
        adjudication.resign = Some((
            get(&kv, "movecount", "resign")? as u32,
            get(&kv, "score", "resign")? as i32,
        ));
    }
    if let Some(path) = &a.pgn {
        std::fs::File::create(path)
            .map_err(|e| format!("cannot write record file {}: {e}", crate::text::quote(path)))?;
    }
    // Start each engine once now: a missing or broken binary is an error before any game.
    e0.check()?;
    e1.check()?;
    Ok(match_runner::MatchSettings {
        engines: [e0, e1],
        games: a.games,
        tc,
        concurrency: a.concurrency as usize,
        openings,
        pgn: a.pgn.clone(),
        sprt,
        adjudication,
        rules,
        time_margin_ms: a.timemargin,
        shard: a.shard,
    })
}

/// This process's command line, program name shortened to `jungle`.
fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("jungle {}", args.join(" "))
}

fn run_replay(files: &[String], sprt: &[String], rules: Rules) -> i32 {
    // `--sprt` takes up to four words: those of them that are not key=value are the
    // first files (`replay --sprt elo0=0 elo1=10 *.pgn`).
    let (sprt, mut paths): (Vec<String>, Vec<String>) =
        sprt.iter().cloned().partition(|w| w.contains('='));
    paths.extend(files.iter().cloned());
    if paths.is_empty() {
        eprintln!("error: give at least one record file");
        return 2;
    }
    let sprt = match parse_sprt(&sprt) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut games = Vec::new();
    for path in &paths {
        let read = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", crate::text::quote(path)))
            .and_then(|text| {
                match_runner::read_records(&text, rules)
                    .map_err(|e| format!("{}: {e}", crate::text::quote(path)))
            });
        match read {
            Ok(g) => games.extend(g),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    let mut bad = 0;
    for (i, g) in games.iter().enumerate() {
        let tag = |k: &str| {
            g.tags
                .iter()
                .find(|(t, _)| t == k)
                .map_or("?", |(_, v)| v.as_str())
        };
        let number = g
            .tags
            .iter()
            .find(|(t, _)| t == "Game")
            .map_or((i + 1).to_string(), |(_, v)| v.clone());
        match match_runner::replay(g) {
            Ok(game) => println!(
                "Game {number} ({} vs {}): {} moves, recorded {} {{{}}}, final position {} [{}]",
                tag("Red"),
                tag("Blue"),
                g.moves.len(),
                g.result,
                tag("Termination"),
                game.position().to_fen(),
                game.result()
            ),
            Err(e) => {
                bad += 1;
                println!("Game {number}: cannot be replayed: {e}");
            }
        }
    }
    let mut merged = match merge::merge(&games) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: cannot count the games: {e}");
            return 2;
        }
    };
    merged.tally.judge(sprt.as_ref());
    let mut out = LineWriter(io::stdout());
    if let Err(e) = match_runner::summary(&mut out, &merged.tally, &merged.names, sprt.as_ref()) {
        eprintln!("error: cannot write output: {e}");
        return 1;
    }
    i32::from(bad > 0)
}

fn run_datagen(a: &DatagenArgs) -> i32 {
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
            .and_then(|text| datagen::book_keys(path, &text).map_err(|e| e.to_string()));
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

fn run_train(a: &TrainArgs) -> i32 {
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

fn init_logging() {
    // Off unless RUST_LOG says otherwise; always to stderr, never stdout.
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .try_init();
}

fn run_perft(depth: u32, fen: Option<&str>, divide: bool, threads: usize, rules: Rules) -> i32 {
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
