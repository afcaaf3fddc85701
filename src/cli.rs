//! Command line: `jungle` with no subcommand runs the engine protocol (see
//! `protocol.md`); the subcommands are tools.

use crate::board::rules::MoveRuleFlags;
use crate::board::Position;
use crate::game::{Rules, Variant};
use crate::protocol;
use crate::tools::{bench, perft};
use crate::with_move_rules;
use clap::{Parser, Subcommand};
use std::io::{self, Write};

#[derive(Parser, Debug)]
#[command(name = "jungle", version, about = "A Jungle (Dou Shou Qi) engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Rule options shared by the subcommands.
#[derive(clap::Args, Debug, Clone, Copy)]
struct RulesArgs {
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
enum VariantArg {
    Jungle,
    #[value(name = "jungle-cn")]
    JungleCn,
}

impl RulesArgs {
    fn rules(self) -> Rules {
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
        #[command(flatten)]
        rules: RulesArgs,
    },
}

/// Runs the program; returns the process exit code.
pub fn run() -> i32 {
    init_logging();
    let cli = Cli::parse();
    match cli.command {
        None => protocol::run(),
        Some(Command::Bench {
            depth,
            threads,
            hash,
            json,
            rules,
        }) => {
            let settings = bench::Settings {
                depth,
                threads: threads as usize,
                hash_mb: hash as usize,
                json,
                rules: rules.rules(),
            };
            let stdout = io::stdout();
            let mut out = io::BufWriter::new(stdout.lock());
            match bench::run(&settings, &mut out) {
                Ok(_) => 0,
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
