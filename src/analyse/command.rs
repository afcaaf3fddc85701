//! `jungle analyse`: the review of record files.

use crate::analyse;
use crate::common::args::RulesArgs;
use crate::common::tables::{table_dir, BUILD_UP_TO};
use crate::record;
use std::io::{self, Write};

#[derive(clap::Args, Debug)]
pub(crate) struct AnalyseArgs {
    /// The record files (written by `jungle match --pgn`, the board or this command).
    #[arg(required = true)]
    files: Vec<String>,
    /// Nodes searched in each position (the default, so that the review is the same
    /// on every machine).
    #[arg(long, value_name = "N", default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "movetime")]
    nodes: u64,
    /// Milliseconds of search in each position instead of a node count.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=600_000))]
    movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Hash table (MB).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// A directory of table files (`jungle tb build`) for the endgame tables that judge
    /// the positions of up to --tb-animals animals exactly.
    #[arg(long, value_name = "DIR")]
    tb_dir: Option<String>,
    /// Positions with up to this many animals are judged exactly by the endgame
    /// tables (default 4, or 5 when --tb-dir holds five-animal tables; 0: none).
    /// Tables of up to 4 animals missing from --tb-dir are built in memory; 5-animal
    /// tables are read from --tb-dir only.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=5))]
    tb_animals: Option<u64>,
    /// Write the reviewed records to this file (default: standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `jungle analyse`; returns the exit code.
pub(crate) fn run_analyse(args: AnalyseArgs) -> i32 {
    match analyse_files(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// The tables of `--tb-dir` and `--tb-animals`, checked.
fn table_settings(args: &AnalyseArgs) -> Result<analyse::TableSettings, String> {
    let dir = args.tb_dir.as_deref().map(table_dir).transpose()?;
    let animals = args.tb_animals.map(|n| n as usize);
    if dir.is_none() && animals.is_some_and(|n| n > BUILD_UP_TO) {
        return Err(format!(
            "--tb-animals {} needs --tb-dir: five-animal tables are read from files only",
            BUILD_UP_TO + 1
        ));
    }
    Ok(analyse::TableSettings { dir, animals })
}

fn analyse_files(args: &AnalyseArgs) -> Result<(), String> {
    let tables = table_settings(args)?;
    let rules = args.rules.rules();
    let mut games = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", crate::text::quote(path)))?;
        let read = record::read_records(&text, rules)
            .map_err(|e| format!("{}: {e}", crate::text::quote(path)))?;
        for g in &read {
            record::replay(g).map_err(|e| format!("{}: {e}", crate::text::quote(path)))?;
        }
        games.extend(read);
    }
    if games.is_empty() {
        return Err("the record files have no games".into());
    }
    let settings = analyse::Settings {
        budget: match args.movetime {
            Some(ms) => analyse::Budget::Movetime(ms),
            None => analyse::Budget::Nodes(args.nodes),
        },
        threads: usize::from(args.threads),
        hash_mb: args.hash as usize,
        tables,
    };
    let positions: u64 = games.iter().map(|g| g.moves.len() as u64 + 1).sum();
    let bar = indicatif::ProgressBar::new(positions);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "analysing {pos}/{len} positions [{bar:30}] {elapsed_precise}, {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut buffer = Vec::new();
    let reviewed = analyse::run(&games, &settings, &mut buffer, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    match &args.out {
        Some(path) => std::fs::write(path, &buffer)
            .map_err(|e| format!("cannot write {}: {e}", crate::text::quote(path)))?,
        None => {
            let mut out = io::stdout().lock();
            out.write_all(&buffer)
                .and_then(|_| out.flush())
                .map_err(|e| format!("cannot write the records: {e}"))?;
        }
    }
    for (g, r) in games.iter().zip(&reviewed) {
        let [red, blue] = jungle_app::review::summary(&g.start, r);
        let tag = |k: &str| {
            g.tags
                .iter()
                .find(|(t, _)| t == k)
                .map_or("?", |(_, v)| v.as_str())
        };
        let judged = r.iter().flatten().filter(|n| n.table.is_some()).count();
        eprintln!(
            "Game {}: {} (Red) {}; {} (Blue) {}{}",
            tag("Game"),
            tag("Red"),
            red.describe(),
            tag("Blue"),
            blue.describe(),
            match judged {
                0 => String::new(),
                1 => "; 1 move judged by the tables".to_string(),
                n => format!("; {n} moves judged by the tables"),
            }
        );
    }
    Ok(())
}
