//! What the tests of sharded table builds share: the binary, scratch folders, the
//! in-memory build the files are checked against, and the manifest's check.

#![allow(dead_code)]

use jungle::common::shard::sha256_file;
use jungle::tablebases::manifest::Manifest;
use jungle::tb::material::{Material, TbRules};
use jungle::tb::{file, Tablebases};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub fn jungle() -> &'static str {
    env!("CARGO_BIN_EXE_jungle")
}

/// An empty folder of its own under the system's temporary folder.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jungle-tables-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

/// The bytes of every table file with `animals` animals under the default rules, built
/// in memory by the library (no command, no shards, no files).
pub fn in_memory_files(animals: usize) -> BTreeMap<String, Vec<u8>> {
    let rules = TbRules::default();
    let tb = Tablebases::new(rules, None).building(animals, false);
    let all = Material::all_with(animals);
    tb.ensure_all(&all, &|_| {}).expect("in-memory build");
    all.iter()
        .map(|&m| {
            let t = tb.get(m).expect("built");
            (
                file::file_name(m, &rules),
                file::encode(&t).expect("encoded"),
            )
        })
        .collect()
}

/// Checks that `dir` holds exactly the files of `expected` (byte for byte) among its
/// tables of that size, and that its manifest lists each with its size and checksum.
pub fn assert_tables_and_manifest(
    dir: &Path,
    animals: usize,
    expected: &BTreeMap<String, Vec<u8>>,
) {
    for (name, bytes) in expected {
        let got = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(got == *bytes, "{name} differs from the in-memory build");
    }
    let manifest = Manifest::load(&dir.join(format!("manifest-{animals}.tsv"))).expect("manifest");
    assert_eq!(manifest.rows.len(), expected.len(), "one row per table");
    for (name, row) in &manifest.rows {
        let bytes = &expected[name];
        assert_eq!(row.bytes, bytes.len() as u64, "{name}");
        assert_eq!(row.sha256, sha256_file(&dir.join(name)).unwrap(), "{name}");
        assert_eq!(row.material.count(), animals);
    }
    let leftovers: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part") || n.ends_with(".tmp") || n.ends_with(".lock"))
        .collect();
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
}
