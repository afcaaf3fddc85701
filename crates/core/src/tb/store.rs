//! The set of tables a program uses: kept in memory once loaded or built, read from a
//! directory when there, built when missing (within a size limit), in the background
//! when asked to.

use super::build::{self, BuildReport, Geometry, MoveGraphs, Progress};
use super::material::{Material, TbRules};
use super::table::Table;
use super::TbError;
use crate::with_move_rules;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// The signatures up to this many animals are built in memory when no file has them.
pub const BUILD_IN_MEMORY: usize = 3;

/// What happened to one table in `ensure`.
#[derive(Clone, Debug)]
pub enum Event {
    Loaded(Material, PathBuf),
    Built(Material, BuildReport),
    Written(Material, PathBuf, u64),
    /// A file that could not be used (it is ignored, and rebuilt if allowed).
    Refused(Material, TbError),
}

type Reporter = Box<dyn Fn(&Event) + Send + Sync>;

pub struct Tablebases {
    rules: TbRules,
    dir: Option<PathBuf>,
    /// Signatures with at most this many animals are built when missing.
    build_up_to: usize,
    /// Built tables are written to `dir`.
    write_built: bool,
    tables: RwLock<HashMap<Material, Arc<Table>>>,
    /// Signatures known to have no usable table (no file, too large to build).
    unavailable: RwLock<HashSet<Material>>,
    /// Background requests in flight.
    pending: Mutex<HashSet<Material>>,
    /// One load or build at a time.
    work: Mutex<()>,
    reporter: Option<Reporter>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("rules", &self.rules)
            .field("dir", &self.dir)
            .field("tables", &self.read().len())
            .finish()
    }
}

impl Tablebases {
    /// Tables for `rules`, read from `dir` when given; signatures of up to
    /// `BUILD_IN_MEMORY` animals are built in memory when no file has them.
    pub fn new(rules: TbRules, dir: Option<PathBuf>) -> Tablebases {
        Tablebases {
            rules,
            dir,
            build_up_to: BUILD_IN_MEMORY,
            write_built: false,
            tables: RwLock::default(),
            unavailable: RwLock::default(),
            pending: Mutex::default(),
            work: Mutex::new(()),
            reporter: None,
        }
    }

    /// Builds missing signatures of up to `animals` animals, writing them to the
    /// directory when `write` is set.
    pub fn building(mut self, animals: usize, write: bool) -> Tablebases {
        self.build_up_to = animals;
        self.write_built = write;
        self
    }

    /// Tells `reporter` about every table loaded, built, written or refused.
    pub fn reporting(mut self, reporter: impl Fn(&Event) + Send + Sync + 'static) -> Tablebases {
        self.reporter = Some(Box::new(reporter));
        self
    }

    pub fn rules(&self) -> TbRules {
        self.rules
    }

    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<Material, Arc<Table>>> {
        self.tables.read().unwrap_or_else(|e| e.into_inner())
    }

    fn report(&self, e: Event) {
        if let Some(r) = &self.reporter {
            r(&e);
        }
    }

    /// The table of `material` if it is in memory (never waits).
    pub fn get(&self, material: Material) -> Option<Arc<Table>> {
        self.read().get(&material.canonical()).cloned()
    }

    /// Every table in memory now.
    pub fn snapshot(&self) -> TableSet {
        TableSet {
            rules: self.rules,
            tables: self.read().clone(),
        }
    }

    /// Drops a table from memory (it is loaded or built again when needed).
    pub fn forget(&self, material: Material) {
        self.tables
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&material.canonical());
    }

    /// The largest number of animals of any table file in the directory for these
    /// rules (0 when none).
    pub fn largest_on_disk(&self) -> usize {
        let Some(dir) = &self.dir else {
            return 0;
        };
        let suffix = format!(".{}.jtb", self.rules.tag());
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let sig = name.strip_suffix(&suffix)?.to_string();
                Material::parse(&sig).ok().map(Material::count)
            })
            .max()
            .unwrap_or(0)
    }

    /// The table of `material`, with every table its captures lead to: from memory,
    /// else from the directory, else built (when small enough). Waits as long as that
    /// takes.
    pub fn ensure(&self, material: Material, progress: Progress) -> Result<Arc<Table>, TbError> {
        if let Some(t) = self.get(material) {
            return Ok(t);
        }
        self.ensure_all(&[material], progress)?;
        self.get(material)
            .ok_or_else(|| TbError::Missing(material.canonical().to_string()))
    }

    /// `ensure` for several signatures at once: smallest first, and the tables of one
    /// size side by side on all threads (each small table on one thread; a large one
    /// splits its own work).
    pub fn ensure_all(&self, targets: &[Material], progress: Progress) -> Result<(), TbError> {
        self.ensure_all_sharing(targets, progress, &MoveGraphs::default())
    }

    /// `ensure_all`, with the move graphs of small tables kept in `graphs` for the
    /// signatures of the same geometry (a build of many tables passes the same
    /// `graphs` to each call).
    pub fn ensure_all_sharing(
        &self,
        targets: &[Material],
        progress: Progress,
        graphs: &MoveGraphs,
    ) -> Result<(), TbError> {
        for m in targets {
            if !m.is_playable() {
                return Err(TbError::BadMaterial(format!(
                    "{m}: a side without animals has already lost"
                )));
            }
        }
        let _one_at_a_time = self.work.lock().unwrap_or_else(|e| e.into_inner());
        let mut needed: Vec<Material> = Vec::new();
        for m in targets {
            for d in m.with_dependencies() {
                if !needed.contains(&d) {
                    needed.push(d);
                }
            }
        }
        needed.retain(|m| self.get(*m).is_none());
        // Signatures of one geometry together, so that they share a move graph.
        let dog_swims = self.rules.moves.dog_swims;
        needed.sort_by_cached_key(|m| (m.count(), Geometry::of(*m, dog_swims), *m));
        let mut start = 0;
        while start < needed.len() {
            let count = needed[start].count();
            let end = needed[start..]
                .iter()
                .position(|m| m.count() != count)
                .map_or(needed.len(), |k| start + k);
            let layer = &needed[start..end];
            let tables: Vec<Table> = layer
                .par_iter()
                .map(|&m| match self.load(m) {
                    Some(t) => Ok(t),
                    None => self.build(m, progress, graphs),
                })
                .collect::<Result<_, _>>()?;
            let mut map = self.tables.write().unwrap_or_else(|e| e.into_inner());
            for t in tables {
                map.insert(t.material, Arc::new(t));
            }
            start = end;
        }
        Ok(())
    }

    /// The table from the directory, if there is a usable file.
    #[cfg(feature = "files")]
    fn load(&self, m: Material) -> Option<Table> {
        use super::file;
        let dir = self.dir.as_ref()?;
        let path = file::path_in(dir, m, &self.rules);
        if !path.exists() {
            return None;
        }
        match file::read(&path, m, &self.rules) {
            Ok(t) => {
                self.report(Event::Loaded(m, path));
                Some(t)
            }
            Err(e) => {
                self.report(Event::Refused(m, e));
                None
            }
        }
    }

    fn build(
        &self,
        m: Material,
        progress: Progress,
        graphs: &MoveGraphs,
    ) -> Result<Table, TbError> {
        if m.count() > self.build_up_to {
            return Err(TbError::Missing(format!(
                "no table file for {m} ({} animals); build it with `jungle tb build --material {m}`",
                m.count()
            )));
        }
        let children: HashMap<Material, Arc<Table>> = self.read().clone();
        let (table, report) = with_move_rules!(self.rules.moves, R => build::build::<R>(m, self.rules, &children, graphs, progress))?;
        self.report(Event::Built(m, report));
        if self.write_built {
            self.save(&table)?;
        }
        Ok(table)
    }

    /// Writes a built table into the directory, if there is one.
    #[cfg(feature = "files")]
    fn save(&self, table: &Table) -> Result<(), TbError> {
        if let Some(dir) = &self.dir {
            let (path, size) = super::file::write(table, dir)?;
            self.report(Event::Written(table.material, path, size));
        }
        Ok(())
    }

    /// Without table files (a WebAssembly build) no directory is read or written.
    #[cfg(not(feature = "files"))]
    fn load(&self, _: Material) -> Option<Table> {
        None
    }

    #[cfg(not(feature = "files"))]
    fn save(&self, _: &Table) -> Result<(), TbError> {
        Ok(())
    }

    /// Starts loading or building `material` in the background unless it is in
    /// memory, known to be unavailable, or already on its way.
    pub fn request(self: &Arc<Self>, material: Material) {
        let material = material.canonical();
        if self.get(material).is_some()
            || self
                .unavailable
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .contains(&material)
        {
            return;
        }
        {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            if !pending.insert(material) {
                return;
            }
        }
        let me = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("tablebase".into())
            .spawn(move || {
                if let Err(e) = me.ensure(material, &|_| {}) {
                    log::info!("tablebase {material} unavailable: {e}");
                    me.unavailable
                        .write()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(material);
                }
                me.pending
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&material);
            });
        if spawned.is_err() {
            self.pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&material);
        }
    }

    /// True while background requests are running.
    pub fn busy(&self) -> bool {
        !self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }
}

/// The tables in memory at one moment: what a search probes, without locks.
#[derive(Clone, Debug, Default)]
pub struct TableSet {
    pub rules: TbRules,
    pub tables: HashMap<Material, Arc<Table>>,
}

impl TableSet {
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material.canonical()).map(|t| &**t)
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }
}
