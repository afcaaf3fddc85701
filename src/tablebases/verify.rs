//! `jungle tb verify`: the table files of a directory checked against the rules core,
//! every position against the values of its moves and random positions against a
//! brute-force search (jungle_core::tb::verify). One line a table on stdout; a table
//! that disagrees is reported and the command ends with status 1. With a record file,
//! each table verified is added to it (signature, the file's SHA-256, counts, time)
//! and skipped by the next run while its file is the same: a long run resumes.

use crate::common::shard::sha256_file;
use crate::tb::file::path_in;
use crate::tb::material::{Material, TbRules};
use crate::tb::store::Tablebases;
use crate::tb::verify::{against_brute, consistency};
use crate::with_move_rules;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// What to check and how much.
pub struct Plan {
    /// Every `step`-th position (1: all of them).
    pub step: usize,
    /// Random positions checked against the brute-force search, per table.
    pub samples: usize,
    /// The brute-force search's horizon in plies.
    pub horizon: u32,
    /// The record of the tables verified (tab-separated: signature, SHA-256,
    /// positions, samples, seconds), read to skip them and added to.
    pub record: Option<std::path::PathBuf>,
}

/// The (signature, SHA-256) pairs of a record file (none when it does not exist).
fn recorded(path: Option<&Path>) -> Result<Vec<(String, String)>, String> {
    let Some(path) = path else {
        return Ok(Vec::new());
    };
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut f = l.split('\t');
                Some((f.next()?.to_string(), f.next()?.to_string()))
            })
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Adds a verified table's line to the record.
fn record(path: &Path, line: &str) -> Result<(), String> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    writeln!(f, "{line}").map_err(|e| format!("{}: {e}", path.display()))
}

/// The signatures of `animals` animals whose files are in `dir` for these rules,
/// smallest first (by name among equals, so that every run checks in one order).
fn files_of(dir: &Path, animals: usize, rules: &TbRules) -> Result<Vec<Material>, String> {
    let suffix = format!(".{}.jtb", rules.tag());
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut found: Vec<Material> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            Material::parse(name.strip_suffix(&suffix)?).ok()
        })
        .filter(|m| m.count() == animals)
        .collect();
    found.sort_by_key(|m| (m.count(), m.to_string()));
    Ok(found)
}

/// Verifies the `animals`-animal table files of `dir` (or the signatures given).
pub fn run(
    dir: &Path,
    animals: usize,
    materials: &[String],
    rules: TbRules,
    plan: &Plan,
) -> Result<bool, String> {
    let targets = if materials.is_empty() {
        files_of(dir, animals, &rules)?
    } else {
        materials
            .iter()
            .map(|t| {
                Material::parse(t)
                    .map(|m| m.canonical())
                    .map_err(|e| e.to_string())
            })
            .collect::<Result<_, _>>()?
    };
    if targets.is_empty() {
        return Err(format!(
            "no {animals}-animal table files in {}",
            dir.display()
        ));
    }
    // Files are read, never written; a missing or damaged one of more than 3 animals
    // is an error (the smallest are built in memory when no file has them).
    let tb = Tablebases::new(rules, Some(dir.to_path_buf()));
    let done = recorded(plan.record.as_deref())?;
    let (mut sound, mut positions, mut sampled) = (0usize, 0usize, 0usize);
    for (k, &m) in targets.iter().enumerate() {
        let start = Instant::now();
        let sha = sha256_file(&path_in(dir, m, &rules)).unwrap_or_default();
        if done
            .iter()
            .any(|(sig, h)| *sig == m.to_string() && *h == sha)
        {
            sound += 1;
            println!(
                "[{}/{}] {m}: verified before (in the record)",
                k + 1,
                targets.len()
            );
            continue;
        }
        let checked = tb
            .ensure(m, &|_| {})
            .map_err(|e| e.to_string())
            .and_then(|_| {
                let set = tb.snapshot();
                let t = set.table(m).ok_or("not in memory after loading")?;
                with_move_rules!(rules.moves, R => {
                    let n = consistency::<R>(&set, t, plan.step)?;
                    let seed = u64::from(m.red) << 8 | u64::from(m.blue);
                    let (s, exact) = against_brute::<R>(&set, t, plan.samples, plan.horizon, seed)?;
                    Ok::<_, String>((n, s, exact))
                })
            });
        match checked {
            Ok((n, s, exact)) => {
                sound += 1;
                positions += n;
                sampled += s;
                println!(
                    "[{}/{}] {m}: {n} positions consistent, {s} random positions agree with the brute-force search ({exact} exact within {} plies) in {:.1} s",
                    k + 1,
                    targets.len(),
                    plan.horizon,
                    start.elapsed().as_secs_f64()
                );
                if let Some(path) = &plan.record {
                    let secs = start.elapsed().as_secs_f64();
                    record(path, &format!("{m}\t{sha}\t{n}\t{s}\t{secs:.1}"))?;
                }
            }
            Err(e) => println!("[{}/{}] {m}: FAILED: {e}", k + 1, targets.len()),
        }
        // The tables of this size are not children of one another: free each one.
        if m.count() == animals {
            tb.forget(m);
        }
    }
    println!(
        "{sound} of {} tables verified: {positions} positions consistent, {sampled} agree with the brute-force search",
        targets.len()
    );
    Ok(sound == targets.len())
}
