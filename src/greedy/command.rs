//! `jungle greedy`: the one-ply player on stdin and stdout.

use crate::greedy;

#[derive(clap::Args, Debug)]
pub(crate) struct GreedyArgs {
    /// Seed of its random choices (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Play any legal move at random instead (the random player).
    #[arg(long)]
    random: bool,
}

/// Runs `jungle greedy`; returns the exit code.
pub(crate) fn run_greedy(args: GreedyArgs) -> i32 {
    greedy::run(args.seed, args.random)
}
