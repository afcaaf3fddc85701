//! The build of every signature with N animals as N-way shards (`jungle tb build
//! --animals 5 --shard K/N`), its plan (`--list`) and its state (`jungle tb status`).
//!
//! Shard K builds the K-th group of `tb::plan` (groups of about equal positions, the
//! same on every machine), smallest table first unless `--first` names some to do
//! before. For each table: a file already there that reads back sound (magic, sizes,
//! checksum, every block) is kept; otherwise the tables its captures lead to are loaded
//! from the directory (or built and written there when missing), the table is built,
//! written through a temporary file renamed into place, and its row added to the
//! manifest. So a task killed at any point is resumed by running it again, and two
//! tasks never write the same table file (only, when dependencies are missing, the same
//! dependency, each through its own temporary file, with the same bytes).

use super::command::summary_line;
use super::manifest::{self, Manifest, Row};
use crate::common::shard::{sha256_file, Shard};
use crate::tb::build::{BuildReport, MoveGraphs};
use crate::tb::file;
use crate::tb::plan::{self, Planned};
use crate::tb::store::{Event, Tablebases};
use crate::tb::{Material, TbRules};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Bytes a position takes on disk when no table of the set is there to tell: the
/// 4-animal set's average (1,114 files, 644 MB).
pub const DEFAULT_BYTES_PER_POSITION: f64 = 644_365_377.0 / 5_565_652_536.0;

/// The manifest's path when `--manifest` does not give one: beside the tables.
pub fn default_manifest(dir: &Path, animals: usize) -> PathBuf {
    dir.join(format!("manifest-{animals}.tsv"))
}

/// Reads `--first`: signatures one per line (`#` comments), to build before the others.
pub fn read_first(path: &Path) -> Result<Vec<Material>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            // A line may carry more fields (a count): the first is the signature.
            let sig = l.split_whitespace().next().unwrap_or(l);
            Material::parse(sig)
                .map(Material::canonical)
                .map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}

/// Shard `shard`'s signatures in build order: those of `first` in its order, then the
/// rest smallest first.
pub fn shard_order(
    animals: usize,
    rules: &TbRules,
    shard: Shard,
    first: &[Material],
) -> Vec<Planned> {
    let mine: Vec<Planned> = plan::plan(animals, rules.moves.dog_swims, shard.count())
        .into_iter()
        .filter(|p| p.shard == shard.index())
        .collect();
    let mut out: Vec<Planned> = first
        .iter()
        .filter_map(|m| mine.iter().find(|p| p.material == *m).copied())
        .collect();
    out.dedup();
    let rest: Vec<Planned> = mine.into_iter().filter(|p| !out.contains(p)).collect();
    out.extend(rest);
    out
}

/// Bytes a position takes in the table files of `dir` with the most animals (at most
/// `animals`), with that count; `None` without files.
fn density(dir: &Path, rules: &TbRules, animals: usize) -> Option<(f64, usize)> {
    (2..=animals).rev().find_map(|n| {
        let (mut bytes, mut positions) = (0u64, 0u64);
        for m in Material::all_with(n) {
            if let Ok(md) = std::fs::metadata(file::path_in(dir, m, rules)) {
                bytes += md.len();
                positions += plan::positions(m, rules.moves.dog_swims);
            }
        }
        (positions > 0).then(|| (bytes as f64 / positions as f64, n))
    })
}

fn bytes_per_position(dir: Option<&Path>, rules: &TbRules, animals: usize) -> (f64, String) {
    match dir.and_then(|d| density(d, rules, animals)) {
        Some((d, n)) => (d, format!("the {n}-animal files there")),
        None => (
            DEFAULT_BYTES_PER_POSITION,
            "the 4-animal set's average".into(),
        ),
    }
}

/// Bytes in the common units.
pub fn human_bytes(b: f64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut v = b;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    format!("{v:.1} {}", UNITS[u])
}

/// `--list`: the signatures (of one shard, or all) with their sizes, in build order,
/// then the groups' loads.
pub fn list(
    animals: usize,
    rules: &TbRules,
    shard: Option<Shard>,
    first: &[Material],
    dir: Option<&Path>,
) {
    let count = shard.map_or(1, Shard::count);
    let all = plan::plan(animals, rules.moves.dog_swims, count);
    let (density, from) = bytes_per_position(dir, rules, animals);
    let rows = shard_order(animals, rules, shard.unwrap_or(Shard::WHOLE), first);
    let mut out = String::new();
    let total: u64 = all.iter().map(|p| p.positions).sum();
    let _ = writeln!(out,
        "# {animals} animals ({rules}): {} signatures, {total} positions, about {} on disk ({density:.3} bytes a position, {from})",
        all.len(),
        human_bytes(total as f64 * density)
    );
    if let Some(s) = shard {
        let mine: u64 = rows.iter().map(|p| p.positions).sum();
        let _ = writeln!(
            out,
            "# shard {s}: {} signatures, {mine} positions, in build order",
            rows.len()
        );
    }
    let _ = writeln!(out, "rank\tsignature\tpositions\tbytes\tshard");
    for (k, p) in rows.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{:.0}\t{}",
            k + 1,
            p.material,
            p.positions,
            p.positions as f64 * density,
            p.shard
        );
    }
    let loads = plan::loads(&all, count);
    let (min, max) = (
        loads.iter().min().copied().unwrap_or(0),
        loads.iter().max().copied().unwrap_or(0),
    );
    let _ = writeln!(out, "# {count} groups: {min} to {max} positions each");
    // A reader that stops early (`| head`) is no error.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes());
}

/// Builds shard `shard` of the `animals`-animal set into `dir`, recording each
/// finished table in `manifest`.
pub fn build_shard(
    animals: usize,
    rules: TbRules,
    shard: Shard,
    dir: &Path,
    manifest_path: &Path,
    first: &[Material],
    max_bytes: Option<u64>,
) -> Result<(), String> {
    let order = shard_order(animals, &rules, shard, first);
    let total: u64 = order.iter().map(|p| p.positions).sum();
    eprintln!(
        "shard {shard} of the {animals}-animal tables: {} signatures, {total} positions; the tables with fewer animals from {} (built there first where missing)",
        order.len(),
        dir.display()
    );
    let reports: Arc<Mutex<HashMap<Material, BuildReport>>> = Arc::default();
    let r = Arc::clone(&reports);
    let tb = Tablebases::new(rules, Some(dir.to_path_buf()))
        .building(animals, true)
        .reporting(move |e| match e {
            Event::Built(m, report) => {
                eprintln!(
                    "built {m}: {} positions in {:.3} s",
                    report.positions, report.seconds
                );
                r.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(*m, *report);
            }
            Event::Written(_, path, size) => eprintln!("wrote {} ({size} bytes)", path.display()),
            Event::Loaded(..) => {}
            Event::Refused(m, err) => eprintln!("refused {m}: {err}; rebuilding it"),
        });
    let graphs = MoveGraphs::default();
    let threads = rayon::current_num_threads() as u32;
    let start = Instant::now();
    let (mut built, mut kept) = (0usize, 0usize);
    for (k, p) in order.iter().enumerate() {
        let m = p.material;
        let name = file::file_name(m, &rules);
        let path = dir.join(&name);
        remove_parts(dir, &name);
        let sound = path.exists()
            && match file::read(&path, m, &rules) {
                Ok(_) => true,
                Err(e) => {
                    eprintln!("refused {m}: {e}; rebuilding it");
                    false
                }
            };
        if sound {
            kept += 1;
            eprintln!(
                "[{}/{}] kept {m}: {} is sound",
                k + 1,
                order.len(),
                path.display()
            );
            record_kept(manifest_path, m, &name, &path, p.positions)?;
            continue;
        }
        if let Some(limit) = max_bytes {
            let used = set_bytes(dir, &rules, animals);
            if used >= limit {
                eprintln!(
                    "stopping before {m}: the {animals}-animal tables in {} take {used} bytes, the limit is {limit}",
                    dir.display()
                );
                break;
            }
        }
        let step = Instant::now();
        tb.ensure_all_sharing(&[m], &|line| eprintln!("{line}"), &graphs)
            .map_err(|e| e.to_string())?;
        let table = tb.get(m).ok_or_else(|| format!("{m} was not built"))?;
        let seconds = step.elapsed().as_secs_f64();
        summary_line(k + 1, order.len(), &table);
        drop(table);
        reports
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&m)
            .ok_or_else(|| format!("{m} was loaded, not built: its file appeared meanwhile"))?;
        manifest::record(
            manifest_path,
            Row {
                material: m,
                file: name,
                positions: p.positions,
                bytes: std::fs::metadata(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?
                    .len(),
                sha256: sha256_file(&path).map_err(|e| format!("{}: {e}", path.display()))?,
                seconds: Some(seconds),
                threads,
                builder: manifest::builder_version(),
            },
        )?;
        built += 1;
        eprintln!(
            "{m}: {seconds:.1} s on {threads} thread(s); peak memory so far {}",
            super::command::peak_memory()
        );
        // Memory: this table, and the tables one capture away that the next one does
        // not need.
        tb.forget(m);
        let next = order
            .get(k + 1)
            .map(|n| n.material.capture_children())
            .unwrap_or_default();
        for c in m.capture_children() {
            if !next.contains(&c) {
                tb.forget(c);
            }
        }
    }
    println!(
        "shard {shard}: {} tables, {built} built, {kept} kept, in {:.1} s; manifest {}; peak memory {}",
        order.len(),
        start.elapsed().as_secs_f64(),
        manifest_path.display(),
        super::command::peak_memory()
    );
    Ok(())
}

/// Bytes of the `animals`-animal table files in `dir`.
fn set_bytes(dir: &Path, rules: &TbRules, animals: usize) -> u64 {
    Material::all_with(animals)
        .into_iter()
        .filter_map(|m| std::fs::metadata(file::path_in(dir, m, rules)).ok())
        .map(|md| md.len())
        .sum()
}

/// A table found built: its row, unless the manifest has one for a file of its size.
fn record_kept(
    manifest_path: &Path,
    m: Material,
    name: &str,
    path: &Path,
    positions: u64,
) -> Result<(), String> {
    let bytes = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    let known = Manifest::load(manifest_path)?;
    if known.rows.get(name).is_some_and(|r| r.bytes == bytes) {
        return Ok(());
    }
    manifest::record(
        manifest_path,
        Row {
            material: m,
            file: name.to_string(),
            positions,
            bytes,
            sha256: sha256_file(path).map_err(|e| format!("{}: {e}", path.display()))?,
            seconds: None,
            threads: rayon::current_num_threads() as u32,
            builder: manifest::builder_version(),
        },
    )
}

/// Removes the temporary files an earlier, stopped writer left for the table `name`
/// (only this shard writes it).
fn remove_parts(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let f = e.file_name().to_string_lossy().into_owned();
        if file::is_part_of(&f, name) {
            eprintln!("removing {f}, left by a stopped build");
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// `jungle tb status`: how much of the set is in `dir`, against the manifest, and the
/// estimate of the rest.
pub fn status(
    animals: usize,
    rules: &TbRules,
    dir: &Path,
    manifest_path: &Path,
) -> Result<(), String> {
    let all = plan::plan(animals, rules.moves.dog_swims, 1);
    let manifest = Manifest::load(manifest_path)?;
    let (mut built, mut bytes, mut positions) = (0usize, 0u64, 0u64);
    let (mut listed, mut unlisted) = (0usize, Vec::new());
    for p in &all {
        let name = file::file_name(p.material, rules);
        if let Ok(md) = std::fs::metadata(dir.join(&name)) {
            built += 1;
            bytes += md.len();
            positions += p.positions;
            match manifest.rows.get(&name) {
                Some(r) if r.bytes == md.len() => listed += 1,
                _ => unlisted.push(name),
            }
        }
    }
    let total: u64 = all.iter().map(|p| p.positions).sum();
    println!(
        "{animals} animals ({rules}): {built} of {} tables built in {} ({:.2}%), {positions} of {total} positions ({:.2}%), {} on disk",
        all.len(),
        dir.display(),
        100.0 * built as f64 / all.len().max(1) as f64,
        100.0 * positions as f64 / total.max(1) as f64,
        human_bytes(bytes as f64)
    );
    let (density, from) = bytes_per_position(Some(dir), rules, animals);
    println!(
        "estimate for the set: {total} positions, about {} ({density:.3} bytes a position, {from})",
        human_bytes(total as f64 * density)
    );
    let missing_files = manifest
        .rows
        .values()
        .filter(|r| r.material.count() == animals && !dir.join(&r.file).exists())
        .count();
    println!(
        "manifest {}: {} rows; {listed} of the {built} files match a row (size){}{}",
        manifest_path.display(),
        manifest.rows.len(),
        if unlisted.is_empty() {
            String::new()
        } else {
            format!(
                "; without a row: {}",
                unlisted
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        },
        if missing_files > 0 {
            format!("; {missing_files} rows without their file")
        } else {
            String::new()
        }
    );
    // Cost: core-seconds per position of the tables this manifest saw built.
    let (core_seconds, timed): (f64, u64) = manifest
        .rows
        .values()
        .filter(|r| r.material.count() == animals)
        .filter_map(|r| r.seconds.map(|s| (s * f64::from(r.threads), r.positions)))
        .fold((0.0, 0), |(s, p), (a, b)| (s + a, p + b));
    if timed > 0 {
        let rest = total.saturating_sub(positions) as f64 * core_seconds / timed as f64;
        println!(
            "time: {:.2} core-hours for the {timed} positions timed ({:.1} core-seconds a million positions); the rest about {:.0} core-hours ({:.1} hours on 100 cores)",
            core_seconds / 3600.0,
            core_seconds / timed as f64 * 1e6,
            rest / 3600.0,
            rest / 3600.0 / 100.0
        );
    }
    if animals > 2 {
        let fewer = Material::all_with(animals - 1);
        let there = fewer
            .iter()
            .filter(|m| file::path_in(dir, **m, rules).exists())
            .count();
        println!(
            "the {}-animal tables it needs: {there} of {} in {}",
            animals - 1,
            fewer.len(),
            dir.display()
        );
    }
    Ok(())
}
