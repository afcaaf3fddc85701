//! `jungle tb build`, `jungle tb status`, `jungle tb verify` and `jungle tb probe`.

use super::shards;
use crate::board::Position;
use crate::common::args::RulesArgs;
use crate::common::shard::Shard;
use crate::tb::build::{Geometry, MoveGraphs};
use crate::tb::material::{Material, TbRules, MAX_ANIMALS};
use crate::tb::probe::{probe_moves, probe_position};
use crate::tb::store::{Event, Tablebases};
use crate::tb::table::{Table, TbValue};
use crate::with_move_rules;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[derive(clap::Subcommand, Debug)]
pub enum TbCommand {
    /// Build tables (and the tables they need) into a directory; existing files are
    /// checked and kept.
    Build {
        /// Every signature with up to this many animals (default 3).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=MAX_ANIMALS as i64), conflicts_with = "material")]
        animals: Option<u32>,
        /// One signature (e.g. "LE v R": Red's animals, v, Blue's) with its dependencies.
        #[arg(long, alias = "signature")]
        material: Option<String>,
        /// Build only group K of N of the --animals signatures (groups of about equal
        /// size, the same on every machine: one Slurm array task each), skipping the
        /// tables already built and sound, each finished table recorded in the
        /// manifest. --animals 5 without it is --shard 1/1.
        #[arg(long, requires = "animals")]
        shard: Option<Shard>,
        /// Print the signatures (of --shard, or all) with their sizes in build order,
        /// and build nothing.
        #[arg(long, requires = "animals")]
        list: bool,
        /// The manifest of a sharded build (default: DIR/manifest-N.tsv).
        #[arg(long)]
        manifest: Option<PathBuf>,
        /// A file of signatures (one a line) that a shard builds before its others,
        /// in that order (e.g. the ones games reach most).
        #[arg(long)]
        first: Option<PathBuf>,
        /// With --shard: stop (successfully) before the next table once the
        /// directory's tables of this size take this many gigabytes (10^9 bytes).
        #[arg(long)]
        max_gb: Option<f64>,
        /// Directory of the table files.
        #[arg(long, default_value = "tablebases")]
        dir: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// Build in memory only: read nothing from the directory, write nothing (to
        /// time the builder).
        #[arg(long)]
        in_memory: bool,
        #[command(flatten)]
        rules: TbRulesArgs,
    },
    /// How much of the set of N-animal tables is in a directory, against its
    /// manifest, with the estimate of the rest.
    Status {
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=MAX_ANIMALS as i64), default_value_t = 5)]
        animals: u32,
        #[arg(long, default_value = "tablebases")]
        dir: PathBuf,
        /// The manifest (default: DIR/manifest-N.tsv).
        #[arg(long)]
        manifest: Option<PathBuf>,
        #[command(flatten)]
        rules: TbRulesArgs,
    },
    /// Check the table files of a directory against the rules core: every position
    /// against the values of its moves, and random positions against a brute-force
    /// search. Exit status 1 when a table disagrees.
    Verify {
        /// The tables of this many animals whose files are in the directory.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=MAX_ANIMALS as i64), default_value_t = 5)]
        animals: u32,
        /// Only these signatures (e.g. "WDC v DC"; repeat the option).
        #[arg(long)]
        material: Vec<String>,
        #[arg(long, default_value = "tablebases")]
        dir: PathBuf,
        /// Check every K-th position (1: every one).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        step: u64,
        /// Random positions of each table checked against the brute-force search.
        #[arg(long, default_value_t = 200)]
        samples: usize,
        /// The brute-force search's horizon in plies.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=15))]
        horizon: u32,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// A record of the tables verified: those in it (with the same file) are
        /// skipped, each one verified now is added.
        #[arg(long)]
        record: Option<PathBuf>,
        #[command(flatten)]
        rules: TbRulesArgs,
    },
    /// Which N-animal signatures the games of record files (and the positions of
    /// position files) reach, most first: a --first file for `tb build`.
    Reach {
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=MAX_ANIMALS as i64), default_value_t = 5)]
        animals: u32,
        /// Record files (PGN-like, from `jungle match --pgn`) or position files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// The value of a position, with DTM, DTZ and every legal move's value.
    Probe {
        /// The position string.
        #[arg(long)]
        fen: String,
        /// Directory of table files (missing signatures of up to 4 animals are built
        /// in memory).
        #[arg(long)]
        dir: Option<PathBuf>,
        #[command(flatten)]
        rules: TbRulesArgs,
    },
}

#[derive(clap::Args, Debug, Clone, Copy)]
pub struct TbRulesArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Plies without a capture that draw (0: no such rule); default: the rule set's.
    #[arg(long, value_parser = clap::value_parser!(u16).range(0..=crate::tb::material::MAX_NO_CAPTURE_PLIES as i64))]
    no_capture_plies: Option<u16>,
}

impl TbRulesArgs {
    fn tb_rules(&self) -> Result<TbRules, String> {
        let mut rules = self.rules.rules();
        if let Some(n) = self.no_capture_plies {
            rules.draw.no_capture_plies = n;
        }
        TbRules::for_rules(&rules).map_err(|e| e.to_string())
    }
}

/// Runs a `tb` subcommand; returns the exit code.
pub fn run(cmd: TbCommand) -> i32 {
    let result = match cmd {
        TbCommand::Build {
            animals,
            material,
            dir,
            threads,
            in_memory,
            rules,
            shard,
            list,
            manifest,
            first,
            max_gb,
        } => rules.tb_rules().and_then(|r| {
            let first = first.as_deref().map(shards::read_first).transpose()?;
            let first = first.unwrap_or_default();
            if list {
                let n = animals.unwrap_or(3) as usize;
                shards::list(n, &r, shard, &first, (!in_memory).then_some(dir.as_path()));
                return Ok(());
            }
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads.unwrap_or(0) as usize)
                .build()
                .map_err(|e| format!("cannot start {threads:?} threads: {e}"))?;
            match (animals, shard) {
                (Some(n), shard) if shard.is_some() || n as usize == MAX_ANIMALS => {
                    if in_memory {
                        return Err(
                            "a sharded build writes its tables: not with --in-memory".into()
                        );
                    }
                    let n = n as usize;
                    let manifest = manifest.unwrap_or_else(|| shards::default_manifest(&dir, n));
                    let shard = shard.unwrap_or(Shard::WHOLE);
                    let max_bytes = max_gb.map(|g| (g * 1e9) as u64);
                    pool.install(|| {
                        shards::build_shard(n, r, shard, &dir, &manifest, &first, max_bytes)
                    })
                }
                _ => {
                    let dir = (!in_memory).then_some(dir);
                    pool.install(|| build(animals, material.as_deref(), dir, r))
                }
            }
        }),
        TbCommand::Status {
            animals,
            dir,
            manifest,
            rules,
        } => rules.tb_rules().and_then(|r| {
            let n = animals as usize;
            let manifest = manifest.unwrap_or_else(|| shards::default_manifest(&dir, n));
            shards::status(n, &r, &dir, &manifest)
        }),
        TbCommand::Verify {
            animals,
            material,
            dir,
            step,
            samples,
            horizon,
            threads,
            record,
            rules,
        } => {
            let plan = super::verify::Plan {
                step: step as usize,
                samples,
                horizon,
                record,
            };
            let verified = rules.tb_rules().and_then(|r| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads.unwrap_or(0) as usize)
                    .build()
                    .map_err(|e| format!("cannot start {threads:?} threads: {e}"))?
                    .install(|| super::verify::run(&dir, animals as usize, &material, r, &plan))
            });
            match verified {
                Ok(true) => Ok(()),
                Ok(false) => return 1,
                Err(e) => Err(e),
            }
        }
        TbCommand::Reach { animals, files } => super::reach::print(animals as usize, &files),
        TbCommand::Probe { fen, dir, rules } => rules.tb_rules().and_then(|r| probe(&fen, dir, r)),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn build(
    animals: Option<u32>,
    material: Option<&str>,
    dir: Option<PathBuf>,
    rules: TbRules,
) -> Result<(), String> {
    let mut targets: Vec<Material> = match material {
        Some(text) => {
            let m = Material::parse(text).map_err(|e| e.to_string())?;
            if !m.is_playable() {
                return Err(format!("{m}: each side needs an animal"));
            }
            m.with_dependencies()
        }
        None => (2..=animals.unwrap_or(3) as usize)
            .flat_map(Material::all_with)
            .collect(),
    };
    // Signatures of one geometry next to each other: they share a move graph.
    targets.sort_by_cached_key(|m| (m.count(), Geometry::of(*m, rules.moves.dog_swims)));
    let graphs = MoveGraphs::default();
    let largest = targets.iter().map(|m| m.count()).max().unwrap_or(0);
    let built = Arc::new(AtomicU64::new(0));
    let written = Arc::new(AtomicU64::new(0));
    let (b, w) = (Arc::clone(&built), Arc::clone(&written));
    let tb = Tablebases::new(rules, dir.clone())
        .building(MAX_ANIMALS, true)
        .reporting(move |e| match e {
            Event::Built(m, r) => {
                b.fetch_add(1, Ordering::Relaxed);
                eprintln!(
                    "built {m}: {} positions in {:.3} s ({} DTM levels{}{})",
                    r.positions,
                    r.seconds,
                    r.dtm_levels,
                    if r.graph_shared {
                        ", move graph shared"
                    } else {
                        ""
                    },
                    r.values_from
                        .map(|from| format!(", the values of {from}"))
                        .unwrap_or_default()
                );
            }
            Event::Written(_, path, size) => {
                w.fetch_add(*size, Ordering::Relaxed);
                eprintln!("wrote {} ({size} bytes)", path.display());
            }
            Event::Loaded(m, path) => eprintln!("kept {m}: {} is sound", path.display()),
            Event::Refused(m, err) => eprintln!("refused {m}: {err}; rebuilding it"),
        });
    let start = Instant::now();
    // Everything below the largest size at once (side by side), then the largest
    // signatures one by one, freed after writing (nothing here depends on them).
    let smaller: Vec<Material> = targets
        .iter()
        .copied()
        .filter(|m| m.count() < largest)
        .collect();
    tb.ensure_all_sharing(&smaller, &|line| eprintln!("{line}"), &graphs)
        .map_err(|e| e.to_string())?;
    let mut positions = 0usize;
    let mut disk = 0u64;
    // Small tables of the largest size side by side, in batches; large ones alone
    // (each splits its own work).
    let small = crate::tb::index::Indexer::new(targets[targets.len() - 1], rules.moves.dog_swims)
        .len()
        < crate::tb::build::PARALLEL_FROM;
    let batch = if small { 64 } else { 1 };
    let mut k = 0;
    for group in targets.chunks(batch) {
        tb.ensure_all_sharing(group, &|line| eprintln!("{line}"), &graphs)
            .map_err(|e| e.to_string())?;
        for &m in group {
            k += 1;
            let table = tb.get(m).ok_or_else(|| format!("{m} was not built"))?;
            positions += table.len();
            if let Some(dir) = &dir {
                let path = crate::tb::file::path_in(dir, m, &rules);
                disk += std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0);
            }
            summary_line(k, targets.len(), &table);
            if m.count() == largest && material.is_none() {
                tb.forget(m);
            }
        }
    }
    println!(
        "{} tables ({positions} positions) for {rules} in {:.2} s: {} built, {} bytes written; {disk} bytes in {}; peak memory {}",
        targets.len(),
        start.elapsed().as_secs_f64(),
        built.load(Ordering::Relaxed),
        written.load(Ordering::Relaxed),
        dir.as_ref().map_or("memory".into(), |d| d.display().to_string()),
        peak_memory()
    );
    Ok(())
}

pub(super) fn summary_line(k: usize, of: usize, t: &Table) {
    let s = &t.stats;
    let total = |a: [u64; 2]| a[0] + a[1];
    println!(
        "[{k}/{of}] {}: {} positions, wins {} draws {} losses {} (red to move {}/{}/{}), cursed {} blessed {}, max DTM {} max DTZ {}",
        t.material,
        t.len(),
        total(s.wins),
        total(s.draws),
        total(s.losses),
        s.wins[0],
        s.draws[0],
        s.losses[0],
        s.cursed,
        s.blessed,
        s.max_dtm,
        s.max_dtz
    );
}

/// The peak resident memory of this process, from the kernel (Linux only).
pub fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn probe(fen: &str, dir: Option<PathBuf>, rules: TbRules) -> Result<(), String> {
    let pos =
        Position::from_fen_with(fen, rules.moves).map_err(|e| format!("invalid --fen: {e}"))?;
    let material = Material::of(&pos);
    if pos.is_over_on_board() {
        return Err(format!("{}: the game is already over", pos.to_fen()));
    }
    if material.count() > MAX_ANIMALS {
        return Err(format!(
            "{} animals on the board; tables hold at most {MAX_ANIMALS}",
            material.count()
        ));
    }
    let tb = Tablebases::new(rules, dir)
        .building(4, false)
        .reporting(|e| {
            if let Event::Refused(m, err) = e {
                eprintln!("refused {m}: {err}; building it in memory");
            }
        });
    tb.ensure(material, &|line| eprintln!("{line}"))
        .map_err(|e| e.to_string())?;
    let set = tb.snapshot();
    let p = probe_position(&set, &pos).ok_or("the position is not in the table")?;
    let rule = rules.no_capture_plies;
    println!("Position: {}", pos.to_fen());
    println!("Table: {} ({rules})", material.canonical());
    println!("Value: {}", p.wdl.name());
    println!("DTM: {}", describe_outcome(p.outcome));
    match (rule, p.dtz) {
        (0, _) => println!("DTZ: - (no no-capture rule)"),
        (_, Some(z)) => println!(
            "DTZ: {z} plies (decided within the rule; the count is {} of {rule})",
            pos.halfmove_clock()
        ),
        (_, None) => println!("DTZ: - (not decided within {rule} plies without a capture)"),
    }
    let moves = with_move_rules!(rules.moves, R => probe_moves::<R>(&set, &pos))
        .ok_or("a move leads outside the tables")?;
    println!("Moves: {}", moves.len());
    for v in moves {
        println!(
            "{} {} dtm {} dtz {}",
            v.mv,
            v.wdl.name().replace(' ', "-"),
            v.outcome.plies().map_or("-".into(), |d| d.to_string()),
            v.dtz.map_or("-".into(), |z| z.to_string())
        );
    }
    Ok(())
}

fn describe_outcome(o: TbValue) -> String {
    match o {
        TbValue::Win(d) => format!(
            "{d} plies (the side to move wins: mate in {})",
            d.div_ceil(2)
        ),
        TbValue::Loss(d) => format!("{d} plies (the side to move loses: mated in {})", d / 2),
        TbValue::Draw => "- (draw)".into(),
    }
}
