//! Command line: `jungle` with no subcommand runs the engine protocol (see
//! `protocol.md`); the subcommands are tools.
//!
//! Each application owns its subcommands' options and runners in its `command`
//! module (`matches`, `openings`, `analyse`, `greedy`, `puzzles`, `train`, `tablebases`, `gui`); `tools` holds `perft` and `bench`;
//! what several of them share is in `crate::common`. Here: the parser and the dispatch.

mod tools;

use crate::analyse::command::AnalyseArgs;
use crate::greedy::command::GreedyArgs;
use crate::gui::command::GuiArgs;
use crate::matches::command::{MatchArgs, ReplayArgs};
use crate::openings::command::OpeningsArgs;
use crate::train::command::{DatagenArgs, TrainArgs, TuneArgs};
use crate::{analyse, greedy, gui, matches, openings, puzzles, session, tablebases, train};
use clap::{Parser, Subcommand};
use tools::{BenchArgs, PerftArgs};

#[derive(Parser, Debug)]
#[command(name = "jungle", version, about = "A Jungle (Dou Shou Qi) engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal move tree (checks and times the move generator).
    Perft(PerftArgs),
    /// Search the fixed bench positions; the last line is `<nodes> nodes <nps> nps`.
    Bench(BenchArgs),
    /// List the search parameters a tuner may change (the SearchParams option), one
    /// per line as SPSA takes them: name, int, default, min, max, step, learning rate.
    Params,
    /// Play a match between two engines (the referee keeps rules and clocks).
    Match(MatchArgs),
    /// Replay the games of record files written by `match --pgn`, checking every move,
    /// and print their summary (the files of the shards of a match give the match's).
    Replay(ReplayArgs),
    /// Review recorded games: the engine scores every position and marks each move's
    /// inaccuracies, mistakes and blunders; writes the records back with comments.
    Analyse(AnalyseArgs),
    /// Tune the evaluation weights from recorded games (Texel method).
    Tune(TuneArgs),
    /// Generate training positions by self-play (record format: docs/training.md).
    Datagen(DatagenArgs),
    /// Training data in shards from a committed manifest: new, run (resumable), verify, stats.
    #[command(subcommand)]
    Data(train::command::DataCommand),
    /// Train a network (NNUE) on data files of `jungle datagen`.
    Train(TrainArgs),
    /// Endgame tablebases: build tables, probe positions.
    #[command(subcommand)]
    Tb(crate::tablebases::command::TbCommand),
    /// Generate an opening suite: balanced (openings.txt), unbalanced, verified or calibrated (books/).
    Openings(OpeningsArgs),
    /// Serve a board for people in the browser: play, watch engines, analyse.
    Gui(GuiArgs),
    /// Serve online games between people by link, the server the referee and the clock
    /// (crates/online; docs/online.md).
    Serve(jungle_online::ServeArgs),
    /// Play on a `jungle serve` site as a bot account: take the lobby's challenges and
    /// play them with an engine (docs/accounts.md, "Bots").
    Bot(crate::bot::command::BotArgs),
    /// A one-ply greedy player speaking the protocol (the beginner the levels are measured against).
    Greedy(GreedyArgs),
    /// Puzzles: made from games and the endgame tables, verified, themed and rated.
    #[command(subcommand)]
    Puzzles(puzzles::command::PuzzlesCommand),
}

/// Runs the program; returns the process exit code.
pub fn run() -> i32 {
    crate::common::args::init_logging();
    let cli = Cli::parse();
    match cli.command {
        None => session::run(),
        Some(Command::Perft(args)) => tools::run_perft(args),
        Some(Command::Bench(args)) => tools::run_bench(args),
        Some(Command::Params) => tools::run_params(),
        Some(Command::Match(args)) => matches::command::run_match(args),
        Some(Command::Replay(args)) => matches::command::run_replay(args),
        Some(Command::Analyse(args)) => analyse::command::run_analyse(args),
        Some(Command::Tune(args)) => train::command::run_tune(args),
        Some(Command::Datagen(args)) => train::command::run_datagen(args),
        Some(Command::Data(cmd)) => train::command::run_data(cmd),
        Some(Command::Train(args)) => train::command::run_train(args),
        Some(Command::Tb(cmd)) => tablebases::command::run(cmd),
        Some(Command::Openings(args)) => openings::command::run_openings(args),
        Some(Command::Gui(args)) => gui::command::run_gui(args),
        Some(Command::Serve(args)) => jungle_online::run(args, &crate::gui::boards::local_router),
        Some(Command::Bot(args)) => crate::bot::command::run_bot(args),
        Some(Command::Greedy(args)) => greedy::command::run_greedy(args),
        Some(Command::Puzzles(cmd)) => puzzles::command::run(cmd),
    }
}
