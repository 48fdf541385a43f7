//! The tables heuristics are made of (pattern databases and the exact small-board tables),
//! held by a value the program owns and passes in.
//!
//! A [`Tables`] is created where the program starts (the command line's `main`, the web
//! server's state, a test) with a cache directory and a [`TablePolicy`], and handed to
//! [`crate::plan()`] and [`crate::solve`]. What a search can use therefore depends only on
//! that value, never on what some other part of the process loaded before. Cloning a
//! `Tables` shares it (it is a handle).
//!
//! Where a pattern table comes from: memory, else the cache directory (a file with a
//! versioned, checksummed header and a digest keyed with the user's [`DigestKey`], see
//! [`store`]), else a fresh build (saved to the cache when the policy allows). Tables in memory are dropped least recently used first when
//! they outgrow the policy's budget.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};
use std::time::Instant;

use super::pdb::build::{build, BuildProgress, BuildStopped, Progress};
use super::pdb::store::{self, DigestKey, NotLoaded};
use super::pdb::table::{PatternTable, TableKey};
use super::perfect::{self, PerfectTable, MAX_PERFECT_CELLS};
use super::spec::HeuristicError;
use crate::puzzle::Puzzle;

/// What the holder of a [`Tables`] lets searches do with tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablePolicy {
    /// The most table entries one plan may build (pattern tables not at hand, exact tables
    /// not in memory). `u64::MAX`: anything the library can build.
    pub max_build_entries: u64,
    /// Whether tables built here are written to the cache directory.
    pub save: bool,
    /// Bytes of tables kept in memory; past it, the least recently used are dropped
    /// (a table in use stays alive until its search ends). `None`: no bound.
    pub memory_budget: Option<u64>,
}

impl Default for TablePolicy {
    /// Build anything, save it, keep everything: a command-line run.
    fn default() -> TablePolicy {
        TablePolicy {
            max_build_entries: u64::MAX,
            save: true,
            memory_budget: None,
        }
    }
}

/// How a table was obtained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableSource {
    /// Already in memory.
    Memory,
    /// Read from this file.
    Disk(PathBuf),
    /// Built now; saved to the path, or why it could not be saved (`None` when not saved:
    /// no cache directory, or the policy says not to).
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

/// The exact table's key: shape and goal.
type PerfectKey = (usize, usize, Vec<u8>);

/// One table in memory, with when it was last used (for eviction).
struct Held<T> {
    table: Arc<T>,
    bytes: u64,
    used: u64,
}

#[derive(Default)]
struct InMemory {
    patterns: HashMap<TableKey, Held<PatternTable>>,
    perfect: HashMap<PerfectKey, Held<Vec<u8>>>,
    /// A counter standing for time, for least-recently-used eviction.
    clock: u64,
}

struct Inner {
    dir: Option<PathBuf>,
    /// The key of the cache's digests: given, or the user's, read (or made) when the cache
    /// is first used, so a program without a cache directory never touches it.
    digest_key: OnceLock<Result<DigestKey, String>>,
    policy: TablePolicy,
    held: Mutex<InMemory>,
    /// Serialises builds, so two threads asking for the same missing table build it once.
    building: Mutex<()>,
}

/// The tables of one program: see the module docs.
#[derive(Clone)]
pub struct Tables(Arc<Inner>);

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("dir", &self.0.dir)
            .field("policy", &self.0.policy)
            .finish_non_exhaustive()
    }
}

impl Default for Tables {
    /// Memory only, no cache directory, the default policy.
    fn default() -> Tables {
        Tables::new(None, TablePolicy::default())
    }
}

impl Tables {
    /// Tables cached in `dir` (`None`: memory only), under `policy`, their files' digests
    /// keyed with the user's key ([`DigestKey::user`]).
    pub fn new(dir: Option<PathBuf>, policy: TablePolicy) -> Tables {
        Tables::with_digest_key(dir, policy, None)
    }

    /// [`new`](Self::new) with the key of the cache's digests given (`None`: the user's).
    pub fn with_digest_key(
        dir: Option<PathBuf>,
        policy: TablePolicy,
        digest_key: Option<DigestKey>,
    ) -> Tables {
        let digest = OnceLock::new();
        if let Some(key) = digest_key {
            let _ = digest.set(Ok(key));
        }
        Tables(Arc::new(Inner {
            dir,
            digest_key: digest,
            policy,
            held: Mutex::new(InMemory::default()),
            building: Mutex::new(()),
        }))
    }

    /// The cache directory, if any.
    pub fn cache_dir(&self) -> Option<&Path> {
        self.0.dir.as_deref()
    }

    /// The cache directory and the key its digests are checked and written with, if there
    /// is a cache directory.
    pub fn cache(&self) -> Option<Cache<'_>> {
        let dir = self.0.dir.as_deref()?;
        let digest_key = self
            .0
            .digest_key
            .get_or_init(DigestKey::user)
            .as_ref()
            .map_err(String::as_str);
        Some(Cache { dir, digest_key })
    }

    /// The policy.
    pub fn policy(&self) -> TablePolicy {
        self.0.policy
    }

    fn lock(&self) -> MutexGuard<'_, InMemory> {
        self.0.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Bytes of tables in memory now.
    pub fn bytes_in_memory(&self) -> u64 {
        let held = self.lock();
        held.patterns.values().map(|h| h.bytes).sum::<u64>()
            + held.perfect.values().map(|h| h.bytes).sum::<u64>()
    }

    /// Drops every table from memory (the next request loads or builds again).
    pub fn clear_memory(&self) {
        let mut held = self.lock();
        held.patterns.clear();
        held.perfect.clear();
    }

    /// Whether the pattern table is in memory, or in the cache directory with a sound
    /// header (the data is checked when the file is loaded).
    pub fn pattern_at_hand(&self, key: &TableKey) -> bool {
        if self.lock().patterns.contains_key(key) {
            return true;
        }
        self.0.dir.as_deref().is_some_and(|d| {
            store::read_header(&d.join(store::file_name(key))).is_ok_and(|h| h.key == *key)
        })
    }

    /// Whether the pattern table is in memory.
    pub fn pattern_in_memory(&self, key: &TableKey) -> bool {
        self.lock().patterns.contains_key(key)
    }

    /// Whether the exact table for this puzzle's goal is in memory.
    pub fn perfect_in_memory(&self, puzzle: &Puzzle) -> bool {
        self.lock().perfect.contains_key(&perfect_key(puzzle))
    }

    /// The pattern table for `key`: from memory, else from the cache directory, else built
    /// (and saved there when the policy allows). `progress` is called during a build.
    ///
    /// # Errors
    /// [`BuildStopped`] when `progress` stopped a build; nothing is kept or saved.
    pub fn pattern(
        &self,
        key: &TableKey,
        progress: &mut Progress<'_>,
    ) -> Result<(Arc<PatternTable>, TableEvent), BuildStopped> {
        if let Some(t) = self.touch_pattern(key) {
            return Ok((t.clone(), memory_event(key, &t)));
        }
        let _building = self.wait_to_build(key, progress)?;
        if let Some(t) = self.touch_pattern(key) {
            return Ok((t.clone(), memory_event(key, &t)));
        }
        let save = self.0.policy.save;
        let (table, event) = fetch(self.cache(), key, false, save, progress)?;
        let table = Arc::new(table);
        let bytes = table.bytes() as u64;
        let mut held = self.lock();
        held.clock += 1;
        let used = held.clock;
        held.patterns.insert(
            key.clone(),
            Held {
                table: table.clone(),
                bytes,
                used,
            },
        );
        self.evict(&mut held);
        Ok((table, event))
    }

    /// The right to build (builds run one at a time), waited for while another build runs;
    /// `progress` may stop the wait as it stops a build. (A server's cheap request that
    /// needed a small table waited here, unstoppable, for a 1.5 s build of someone else's,
    /// holding a slot meant for requests of a few milliseconds.)
    fn wait_to_build(
        &self,
        key: &TableKey,
        progress: &mut Progress<'_>,
    ) -> Result<MutexGuard<'_, ()>, BuildStopped> {
        let waiting = BuildProgress {
            tiles: key.cells.len(),
            depth: 0,
            expanded: 0,
            total: key.entries(),
            loading: false,
        };
        loop {
            match self.0.building.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(TryLockError::Poisoned(e)) => return Ok(e.into_inner()),
                Err(TryLockError::WouldBlock) => {
                    if progress(&waiting).is_break() {
                        return Err(BuildStopped);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
        }
    }

    fn touch_pattern(&self, key: &TableKey) -> Option<Arc<PatternTable>> {
        let mut held = self.lock();
        held.clock += 1;
        let now = held.clock;
        held.patterns.get_mut(key).map(|h| {
            h.used = now;
            h.table.clone()
        })
    }

    /// The exact table of a puzzle's goal, built on first use.
    ///
    /// # Errors
    /// [`HeuristicError::TooLarge`] for boards over [`MAX_PERFECT_CELLS`] cells.
    pub fn perfect(&self, puzzle: &Puzzle) -> Result<PerfectTable, HeuristicError> {
        let n = puzzle.cells();
        if n > MAX_PERFECT_CELLS {
            return Err(HeuristicError::TooLarge {
                heuristic: "perfect".into(),
                cells: n,
                max: MAX_PERFECT_CELLS,
            });
        }
        let key = perfect_key(puzzle);
        let touch = |held: &mut InMemory| {
            held.clock += 1;
            let now = held.clock;
            held.perfect.get_mut(&key).map(|h| {
                h.used = now;
                h.table.clone()
            })
        };
        if let Some(dist) = touch(&mut self.lock()) {
            return Ok(PerfectTable::from_distances(n, dist));
        }
        let _building = self.0.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(dist) = touch(&mut self.lock()) {
            return Ok(PerfectTable::from_distances(n, dist));
        }
        let dist = Arc::new(perfect::build(puzzle));
        let mut held = self.lock();
        held.clock += 1;
        let used = held.clock;
        held.perfect.insert(
            key,
            Held {
                table: dist.clone(),
                bytes: dist.len() as u64,
                used,
            },
        );
        self.evict(&mut held);
        Ok(PerfectTable::from_distances(n, dist))
    }

    /// Drops least recently used tables until the budget holds (never the newest one).
    fn evict(&self, held: &mut InMemory) {
        let Some(budget) = self.0.policy.memory_budget else {
            return;
        };
        loop {
            let total: u64 = held.patterns.values().map(|h| h.bytes).sum::<u64>()
                + held.perfect.values().map(|h| h.bytes).sum::<u64>();
            if total <= budget {
                return;
            }
            let oldest_pattern = held
                .patterns
                .iter()
                .filter(|(_, h)| h.used < held.clock)
                .min_by_key(|(_, h)| h.used)
                .map(|(k, h)| (h.used, k.clone()));
            let oldest_perfect = held
                .perfect
                .iter()
                .filter(|(_, h)| h.used < held.clock)
                .min_by_key(|(_, h)| h.used)
                .map(|(k, h)| (h.used, k.clone()));
            match (oldest_pattern, oldest_perfect) {
                (Some((a, k)), Some((b, _))) if a <= b => {
                    held.patterns.remove(&k);
                }
                (_, Some((_, k))) => {
                    held.perfect.remove(&k);
                }
                (Some((_, k)), None) => {
                    held.patterns.remove(&k);
                }
                (None, None) => return,
            }
        }
    }
}

fn perfect_key(puzzle: &Puzzle) -> PerfectKey {
    (
        puzzle.shape.rows(),
        puzzle.shape.cols(),
        puzzle.goal.clone(),
    )
}

fn memory_event(key: &TableKey, t: &PatternTable) -> TableEvent {
    TableEvent {
        key: key.clone(),
        source: TableSource::Memory,
        seconds: 0.0,
        bytes: t.bytes(),
        rejected: None,
    }
}

/// A cache directory and the key of its files' digests ([`Tables::cache`]).
#[derive(Clone, Copy, Debug)]
pub struct Cache<'a> {
    /// The directory.
    pub dir: &'a Path,
    /// The key, or why there is none (then no file is trusted and none is saved).
    pub digest_key: Result<&'a DigestKey, &'a str>,
}

impl<'a> Cache<'a> {
    /// `dir` with its digests keyed by `digest_key`.
    pub fn new(dir: &'a Path, digest_key: &'a DigestKey) -> Cache<'a> {
        Cache {
            dir,
            digest_key: Ok(digest_key),
        }
    }
}

/// Loads the table from the cache if a sound file is there (unless `force`), else builds
/// it and, when `save`, saves it there. Touches no [`Tables`]: `npuzzle pdb build` uses it
/// directly.
///
/// # Errors
/// [`BuildStopped`] when `progress` stopped the build.
pub fn fetch(
    cache: Option<Cache<'_>>,
    key: &TableKey,
    force: bool,
    save: bool,
    progress: &mut Progress<'_>,
) -> Result<(PatternTable, TableEvent), BuildStopped> {
    let started = Instant::now();
    let mut rejected = None;
    if let (Some(cache), false) = (cache, force) {
        let path = cache.dir.join(store::file_name(key));
        if path.exists() {
            let loaded = match cache.digest_key {
                Ok(k) => store::load_watched(&path, key, k, progress),
                Err(why) => Err(NotLoaded::Rejected(format!(
                    "its digest cannot be checked: {why}"
                ))),
            };
            match loaded {
                Ok(t) => {
                    let event = TableEvent {
                        key: key.clone(),
                        source: TableSource::Disk(path),
                        seconds: started.elapsed().as_secs_f64(),
                        bytes: t.bytes(),
                        rejected: None,
                    };
                    return Ok((t, event));
                }
                Err(NotLoaded::Stopped) => return Err(BuildStopped),
                Err(NotLoaded::Rejected(why)) => rejected = Some((path, why)),
            }
        }
    }
    let table = build(key, progress)?;
    let seconds = started.elapsed().as_secs_f64();
    let saved = cache.filter(|_| save).map(|c| match c.digest_key {
        Ok(k) => store::save(&table, c.dir, k).map_err(|e| e.to_string()),
        Err(why) => Err(why.to_string()),
    });
    let event = TableEvent {
        key: key.clone(),
        source: TableSource::Built(saved),
        seconds,
        bytes: table.bytes(),
        rejected,
    };
    Ok((table, event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GoalSpec, Shape};

    fn puzzle(shape: &str, goal: GoalSpec) -> Puzzle {
        let shape: Shape = shape.parse().unwrap();
        Puzzle::new(&goal.board(shape).unwrap()).unwrap()
    }

    /// A table on disk whose load the progress stops is not had, and not rebuilt: the
    /// caller hears `BuildStopped` (a time limit, Ctrl-C), and the next ask loads the file.
    /// (Loads were not stoppable: `solve --time-limit 0.1` on a 24-puzzle took 1.0 s
    /// reading `6-6-6-6`.)
    #[test]
    fn a_stopped_load_is_a_stopped_build() {
        let dir = tempfile::tempdir().unwrap();
        let digest_key = DigestKey::generate();
        let new = || {
            let dir = Some(dir.path().to_path_buf());
            Tables::with_digest_key(dir, TablePolicy::default(), Some(digest_key.clone()))
        };
        let key = TableKey {
            shape: "4x4".parse().unwrap(),
            cells: vec![0, 1, 2, 3, 4],
            blank: 15,
            regions: false,
        };
        let (built, event) = new()
            .pattern(&key, &mut crate::heuristic::pdb::keep_going)
            .unwrap();
        assert!(matches!(event.source, TableSource::Built(Some(Ok(_)))));
        let mut loads = 0;
        let stopped = new().pattern(&key, &mut |p| {
            loads += usize::from(p.loading);
            std::ops::ControlFlow::Break(())
        });
        assert_eq!(stopped.err(), Some(BuildStopped));
        assert_eq!(loads, 1, "stopped at the load's first report");
        let (loaded, event) = new()
            .pattern(&key, &mut crate::heuristic::pdb::keep_going)
            .unwrap();
        assert!(matches!(event.source, TableSource::Disk(_)));
        assert_eq!(loaded.data(), built.data());
    }

    #[test]
    fn two_values_do_not_share_tables() {
        let p = puzzle("2x3", GoalSpec::Standard);
        let a = Tables::default();
        let b = Tables::default();
        a.perfect(&p).unwrap();
        assert!(a.perfect_in_memory(&p));
        assert!(!b.perfect_in_memory(&p), "a second value starts empty");
        let shared = a.clone();
        assert!(shared.perfect_in_memory(&p), "a clone is the same tables");
    }

    #[test]
    fn the_budget_drops_the_least_recently_used() {
        let policy = TablePolicy {
            memory_budget: Some(800),
            ..TablePolicy::default()
        };
        let tables = Tables::new(None, policy);
        // Each 2x3 exact table is 720 bytes: two do not fit 800.
        let first = puzzle("2x3", GoalSpec::Standard);
        let second = puzzle("2x3", GoalSpec::BlankFirst);
        tables.perfect(&first).unwrap();
        tables.perfect(&second).unwrap();
        assert!(tables.perfect_in_memory(&second));
        assert!(!tables.perfect_in_memory(&first));
        assert!(tables.bytes_in_memory() <= 800);
    }

    #[test]
    fn perfect_refuses_large_boards() {
        let p = puzzle("3x4", GoalSpec::Standard);
        assert!(matches!(
            Tables::default().perfect(&p),
            Err(HeuristicError::TooLarge { .. })
        ));
    }
}
