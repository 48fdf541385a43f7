//! Where tables come from: memory, the cache directory, or a fresh build.
//!
//! One registry per process holds every table loaded or built, keyed by shape and pattern
//! cells, so every caller of [`crate::solve`] (command line, web server, batch runs) shares
//! them without passing paths around. The cache directory is the caller's choice
//! ([`set_cache_dir`]); the library never guesses one. Without it tables live in memory
//! only.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use super::build::{build, BuildProgress};
use super::store;
use super::table::{PatternTable, TableKey};

/// How a table was obtained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableSource {
    /// Already in this process's memory.
    Memory,
    /// Read from this file.
    Disk(PathBuf),
    /// Built now; saved to the path, or why it could not be saved (`None` without a cache
    /// directory).
    Built(Option<Result<PathBuf, String>>),
}

/// What happened when a table was asked for, for reports and warnings.
#[derive(Clone, Debug, PartialEq)]
pub struct TableEvent {
    /// The table.
    pub key: TableKey,
    /// Where the table came from.
    pub source: TableSource,
    /// Seconds spent loading or building.
    pub seconds: f64,
    /// Bytes of table data.
    pub bytes: usize,
    /// A file in the cache directory that was not trusted, and why (it was then rebuilt
    /// and replaced).
    pub rejected: Option<(PathBuf, String)>,
}

struct Registry {
    dir: Option<PathBuf>,
    tables: HashMap<TableKey, Arc<PatternTable>>,
}

fn registry() -> &'static Mutex<Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        Mutex::new(Registry {
            dir: None,
            tables: HashMap::new(),
        })
    })
}

fn lock() -> std::sync::MutexGuard<'static, Registry> {
    registry().lock().unwrap_or_else(|e| e.into_inner())
}

/// Serialises builds, so two threads asking for the same missing table build it once.
static BUILDING: Mutex<()> = Mutex::new(());

/// Sets the directory where tables are cached on disk (`None`: memory only).
pub fn set_cache_dir(dir: Option<PathBuf>) {
    lock().dir = dir;
}

/// The cache directory, if one was set.
pub fn cache_dir() -> Option<PathBuf> {
    lock().dir.clone()
}

/// Drops every table from memory (the next request loads or builds again).
pub fn clear_memory() {
    lock().tables.clear();
}

/// Whether the table is in memory or in the cache directory with a sound header. (The data
/// checksum is checked only when the file is loaded.)
pub fn available(key: &TableKey) -> bool {
    let dir = {
        let r = lock();
        if r.tables.contains_key(key) {
            return true;
        }
        r.dir.clone()
    };
    dir.is_some_and(|d| {
        store::read_header(&d.join(store::file_name(key))).is_ok_and(|h| h.key == *key)
    })
}

/// The table for `key`: from memory, else from the cache directory, else built (and saved
/// there). `progress` is called during a build.
pub fn table(
    key: &TableKey,
    progress: &mut dyn FnMut(&BuildProgress),
) -> (Arc<PatternTable>, TableEvent) {
    let memory = |t: &Arc<PatternTable>| TableEvent {
        key: key.clone(),
        source: TableSource::Memory,
        seconds: 0.0,
        bytes: t.bytes(),
        rejected: None,
    };
    if let Some(t) = lock().tables.get(key) {
        return (t.clone(), memory(t));
    }
    let _building = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = {
        let r = lock();
        if let Some(t) = r.tables.get(key) {
            return (t.clone(), memory(t));
        }
        r.dir.clone()
    };
    let (table, event) = fetch(dir.as_deref(), key, false, progress);
    let table = Arc::new(table);
    lock().tables.insert(key.clone(), table.clone());
    (table, event)
}

/// Loads the table from `dir` if a sound file is there (unless `force`), else builds it
/// and saves it there. Uses no process-wide state.
pub fn fetch(
    dir: Option<&Path>,
    key: &TableKey,
    force: bool,
    progress: &mut dyn FnMut(&BuildProgress),
) -> (PatternTable, TableEvent) {
    let started = Instant::now();
    let mut rejected = None;
    if let (Some(dir), false) = (dir, force) {
        let path = dir.join(store::file_name(key));
        if path.exists() {
            match store::load(&path, key) {
                Ok(t) => {
                    let event = TableEvent {
                        key: key.clone(),
                        source: TableSource::Disk(path),
                        seconds: started.elapsed().as_secs_f64(),
                        bytes: t.bytes(),
                        rejected: None,
                    };
                    return (t, event);
                }
                Err(why) => rejected = Some((path, why)),
            }
        }
    }
    let table = build(key, progress);
    let seconds = started.elapsed().as_secs_f64();
    let saved = dir.map(|d| store::save(&table, d).map_err(|e| e.to_string()));
    let event = TableEvent {
        key: key.clone(),
        source: TableSource::Built(saved),
        seconds,
        bytes: table.bytes(),
        rejected,
    };
    (table, event)
}
