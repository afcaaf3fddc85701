//! `jungle openings`: opening books, balanced or calibrated.

use crate::common::args::{EvalArg, RulesArgs};
use crate::openings;
use jungle_core::time_control::TimeControl;
use std::io;

#[derive(clap::Args, Debug)]
pub(crate) struct OpeningsArgs {
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
}

/// Calibration of `jungle openings`: self-play trials from each candidate.
#[derive(clap::Args, Debug, Clone)]
struct CalibrateArgs {
    /// Calibrate: keep a position only when self-play trials at about N nodes per move
    /// (each move's budget jittered, see --calibrate-jitter) pass the thresholds.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    calibrate_nodes: Option<u64>,
    /// Calibrate (after --calibrate-nodes, if given) at a clock per side, with its
    /// units: 10s+0.1s.
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
            match TimeControl::parse_clock(tc).map_err(|e| format!("--calibrate-tc {e}"))? {
                TimeControl::Clock { base_ms, inc_ms } => {
                    limits.push(openings::TrialLimit::Clock { base_ms, inc_ms })
                }
                other => return Err(format!("--calibrate-tc '{other}': a clock, like 10s+0.1s")),
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

/// Runs `jungle openings`; returns the exit code.
pub(crate) fn run_openings(args: OpeningsArgs) -> i32 {
    let OpeningsArgs {
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
    } = args;
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
