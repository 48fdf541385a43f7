//! `npuzzle pdb`: build and list cached pattern databases.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use npuzzle::heuristic::pdb::{self, store, Partition, PartitionSpec};
use npuzzle::heuristic::tables::fetch;
use npuzzle::heuristic::{TableEvent, TableSource};
use npuzzle::{GoalSpec, Puzzle, Shape, Tables};

use crate::exit::Outcome;
use crate::table_builds::{
    available_memory, building_line, current_rss, megabytes, peak_rss, warn_about, BuildBar,
};

/// Build or list the cached pattern databases.
#[derive(Args, Debug)]
pub struct PdbArgs {
    #[command(subcommand)]
    command: PdbCommand,
}

#[derive(Subcommand, Debug)]
enum PdbCommand {
    /// Build the tables of a partition (or load them if a sound copy is cached) and save
    /// them in the cache directory.
    Build(BuildArgs),
    /// List the tables in the cache directory.
    List(ListArgs),
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// Board shape as RxC.
    #[arg(long, short = 's')]
    size: Shape,
    /// Pattern sizes, e.g. 7-8, 6-6-3 or 5-5-5 on 4x4. Default: the strongest for the
    /// shape (7-8 on 4x4).
    #[arg(long, short = 'p')]
    partition: Option<PartitionSpec>,
    /// The goal: standard, blank-first, spiral, or an explicit board. Tables are named by
    /// goal cells, so goals with the blank on the same cell share them.
    #[arg(long, short = 'g', default_value = "standard")]
    goal: GoalSpec,
    /// Rebuild even if a sound copy is cached.
    #[arg(long)]
    force: bool,
    /// Build exactly the tables `solve --optimal` uses on this shape and goal (6-6-6-6
    /// keeping the blank's region on 5x5, 7-8 on 4x4).
    #[arg(long, conflicts_with = "partition")]
    optimal: bool,
    /// Tables built at once, one thread each [default: all cores]. Each build's peak
    /// memory is stated before it starts.
    #[arg(long, short = 'j')]
    threads: Option<usize>,
}

#[derive(Args, Debug)]
struct ListArgs {
    /// Also read every table and check its checksums, its digest under your table key and
    /// a large sample of its entries.
    #[arg(long)]
    verify: bool,
}

pub fn run(args: PdbArgs, tables: &Tables) -> Result<Outcome> {
    match args.command {
        PdbCommand::Build(b) => build(b, tables),
        PdbCommand::List(l) => list(l, tables),
    }
}

fn build(args: BuildArgs, tables: &Tables) -> Result<Outcome> {
    let goal = args.goal.board(args.size)?;
    let puzzle = Puzzle::new(&goal).context("board too large for pattern databases")?;
    let spec = match &args.partition {
        Some(spec) if spec.sizes().is_some() => spec.clone(),
        _ if args.optimal => optimal_partition(&puzzle)?,
        // A bare `pdb`, or nothing: the strongest for the shape.
        _ => PartitionSpec::Sizes(
            pdb::candidates(args.size)
                .into_iter()
                .next()
                .expect("a candidate"),
        ),
    };
    let partition = spec.partition(&puzzle)?;
    let dir = tables.cache_dir();
    println!(
        "Pattern database pdb:{} for {} (goal {}): {} tables{}.",
        partition.name(),
        args.size,
        args.goal,
        partition.patterns().len(),
        if partition.reflectable() {
            ", with the reflected lookup"
        } else {
            ""
        }
    );
    match &dir {
        Some(d) => println!("Cache directory: {}", d.display()),
        None => println!("No cache directory (set --pdb-dir): tables are not saved."),
    }
    let jobs = crate::options::threads(args.threads, default_jobs())?;
    let started = Instant::now();
    let events = fetch_all(tables.cache(), &partition.keys(), args.force, jobs)?;
    warn_about(&events);
    println!(
        "Done in {:.2} s; tables {}; peak memory {}.",
        started.elapsed().as_secs_f64(),
        megabytes(events.iter().map(|e| e.bytes as u64).sum()),
        peak_rss().map_or("unknown".into(), megabytes)
    );
    // Building is what `pdb build` is for only when the tables end up in the cache: if a
    // cache directory was given and a table is not there now, say so with the exit code
    // (a partition with one table missing is not usable from the cache).
    let saved = events.iter().filter(|e| stored(e)).count();
    if dir.is_some() && saved == 0 {
        bail!("no table could be saved to the cache directory (see the warning above)");
    }
    if dir.is_some() && saved < events.len() {
        bail!(
            "only {saved} of {} tables could be saved to the cache directory (see the \
             warning above)",
            events.len()
        );
    }
    Ok(Outcome::Success)
}

/// The partition `solve --optimal` uses on this puzzle's shape and goal (whatever its
/// tables cost to build: `pdb build` is where they are paid for).
fn optimal_partition(puzzle: &Puzzle) -> Result<PartitionSpec> {
    let unlimited = Tables::new(None, npuzzle::TablePolicy::default());
    match npuzzle::plan::strongest_admissible(puzzle, &unlimited) {
        npuzzle::HeuristicSpec::Pdb(spec) if spec.sizes().is_some() => Ok(spec),
        other => bail!(
            "solve --optimal uses {other} on {}, which has no tables to build here",
            puzzle.shape
        ),
    }
}

/// One build per core, by default.
fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Loads or builds every table of `keys`, `jobs` at once (the largest first, so that the
/// long builds overlap), each saved as soon as it is built. Says what each will take before
/// it starts and shows one bar for all of them.
fn fetch_all(
    cache: Option<npuzzle::heuristic::tables::Cache<'_>>,
    keys: &[pdb::TableKey],
    force: bool,
    jobs: usize,
) -> Result<Vec<TableEvent>> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    let sizes: Vec<pdb::BuildSize> = keys.iter().map(pdb::build_size).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i].entries));
    let cached =
        |i: usize| !force && cache.is_some_and(|c| c.dir.join(store::file_name(&keys[i])).exists());
    let to_build: Vec<usize> = order.iter().copied().filter(|&i| !cached(i)).collect();
    let mut jobs = jobs;
    if !to_build.is_empty() {
        // The peak: the `jobs` largest builds running together, beside what the process
        // holds already; no more at once than the machine's free memory holds.
        let peaks: Vec<u64> = to_build.iter().map(|&i| sizes[i].peak_bytes).collect();
        let held = current_rss().unwrap_or(0);
        let asked = jobs.clamp(1, to_build.len());
        let available = available_memory();
        jobs = jobs_that_fit(&peaks, asked, held, available)?;
        let peak = peaks.iter().take(jobs).sum::<u64>() + held;
        let tables: u64 = to_build.iter().map(|&i| sizes[i].entries.div_ceil(2)).sum();
        let mut line = building_line(to_build.len(), tables, jobs, peak);
        if jobs < asked {
            line.push_str(&format!(
                " ({asked} at a time would not fit the {} of free memory.)",
                megabytes(available.unwrap_or(0))
            ));
        }
        println!("{line}");
    }
    let total: u64 = to_build.iter().map(|&i| sizes[i].work).sum();
    let bar = BuildBar::new();
    let done = std::sync::Mutex::new(vec![0u64; keys.len()]);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, keys.len()) {
            scope.spawn(|| loop {
                let claimed = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&i) = order.get(claimed) else { break };
                // A save is never cut short: Ctrl-C stops the builds, and the temporary
                // file of a save is renamed into place or removed.
                let fetched = fetch(cache, &keys[i], force, true, &mut |p| {
                    let expanded = {
                        let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
                        done[i] = p.expanded;
                        done.iter().sum()
                    };
                    bar.update_all(expanded, total, p.depth)
                });
                let line = fetched.as_ref().ok().map(|(_, e)| describe(e));
                if let Some(line) = &line {
                    bar.println(&format!("  {line}"));
                }
                let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
                results.push((i, fetched.map(|(_, e)| e)));
                if crate::interrupt::interrupted() {
                    break;
                }
            });
        }
    });
    bar.finish();
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let stopped = results.iter().any(|(_, r)| r.is_err()) || results.len() < keys.len();
    let events: Vec<TableEvent> = results.into_iter().filter_map(|(_, r)| r.ok()).collect();
    if stopped {
        let saved = events.iter().filter(|e| stored(e)).count();
        bail!(
            "interrupted: the table build was stopped; {saved} of {} tables are in the \
             cache, nothing of a stopped build was saved; run the command again to build \
             the rest",
            keys.len()
        );
    }
    Ok(events)
}

/// How many of the builds whose peaks are `peaks` (largest first) may run at once, at most
/// `asked`, beside the `held` bytes the process has, within `available` bytes of free memory
/// (unknown: `asked`).
///
/// # Errors
/// The largest build alone does not fit: it would push the machine into swap or the
/// out-of-memory killer, so it is refused before it starts.
fn jobs_that_fit(peaks: &[u64], asked: usize, held: u64, available: Option<u64>) -> Result<usize> {
    let Some(available) = available else {
        return Ok(asked);
    };
    let mut sum = held;
    let fitting = peaks
        .iter()
        .take(asked)
        .take_while(|&&p| {
            sum += p;
            sum <= available
        })
        .count();
    if fitting == 0 {
        bail!(
            "building these tables needs about {} at its peak (the largest alone), but this \
             machine has {} of free memory; a partition of smaller patterns needs less",
            megabytes(held + peaks.first().copied().unwrap_or(0)),
            megabytes(available)
        );
    }
    Ok(fitting)
}

/// Whether a table is in the cache directory after a build: loaded from it, or saved.
fn stored(e: &TableEvent) -> bool {
    matches!(
        e.source,
        TableSource::Disk(_) | TableSource::Built(Some(Ok(_)))
    )
}

fn describe(e: &TableEvent) -> String {
    let cells: Vec<String> = e.key.cells.iter().map(u8::to_string).collect();
    let what = match &e.source {
        TableSource::Memory => "in memory".to_string(),
        TableSource::Disk(p) => format!("loaded from {} in {:.2} s", p.display(), e.seconds),
        TableSource::Built(Some(Ok(p))) => {
            format!("built in {:.2} s, saved to {}", e.seconds, p.display())
        }
        TableSource::Built(_) => format!("built in {:.2} s (not saved)", e.seconds),
    };
    format!(
        "{} tiles (goal cells {}, blank on {}): {what}, {}",
        e.key.cells.len(),
        cells.join(" "),
        e.key.blank,
        megabytes(e.bytes as u64)
    )
}

fn list(args: ListArgs, tables: &Tables) -> Result<Outcome> {
    let Some(cache) = tables.cache() else {
        bail!("no cache directory: set --pdb-dir or NPUZZLE_PDB_DIR");
    };
    let (dir, digest_key) = (cache.dir, cache.digest_key);
    println!("Cache directory: {}", dir.display());
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".pdb.bin"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => bail!("cannot read {}: {e}", dir.display()),
    };
    files.sort();
    if files.is_empty() {
        println!("No pattern databases cached yet (npuzzle pdb build --size 4x4 --partition 7-8).");
        return Ok(Outcome::Success);
    }
    // The name column as wide as the longest name (18 characters on 3x3, 25 on 6x6). A
    // pattern's cells fit 24: at most 8 of them, numbered below 64.
    let name_width = files
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().chars().count()))
        .fold(22, usize::max);
    println!(
        "{:<name_width$} {:>5} {:>5} {:>5} {:>11} {:>10}  {:<24} status",
        "file", "shape", "tiles", "blank", "entries", "size", "goal cells"
    );
    let mut shapes = Vec::new();
    let mut bad = 0usize;
    // Tables whose header reads but whose data failed `--verify`: no partition that needs
    // one is ready.
    let mut unusable = Vec::new();
    for path in &files {
        let name = path.file_name().map_or("?".into(), |n| n.to_string_lossy());
        match store::read_header(path) {
            Ok(h) => {
                let status = if args.verify {
                    let loaded = match digest_key {
                        Ok(k) => store::load_checked(path, &h.key, k, store::VERIFY_SAMPLES),
                        Err(why) => Err(format!("its digest cannot be checked: {why}")),
                    };
                    match loaded {
                        Ok(_) => {
                            "ok (checksums, digest and a sample of entries verified)".to_string()
                        }
                        Err(why) => {
                            bad += 1;
                            unusable.push(h.key.clone());
                            format!("BAD: {why}")
                        }
                    }
                } else {
                    "ok".to_string()
                };
                let cells: Vec<String> = h.key.cells.iter().map(u8::to_string).collect();
                println!(
                    "{name:<name_width$} {:>5} {:>5} {:>5} {:>11} {:>10}  {:<24} {status}",
                    h.key.shape.to_string(),
                    h.key.cells.len(),
                    h.key.blank,
                    h.entries,
                    megabytes(h.data_bytes),
                    cells.join(" "),
                );
                if !shapes.contains(&h.key.shape) {
                    shapes.push(h.key.shape);
                }
            }
            Err(why) => {
                bad += 1;
                println!("{name:<name_width$} BAD: {why}");
            }
        }
    }
    let on_disk: u64 = files
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    println!(
        "{} files, {} on disk (any of them may be deleted: a table is built again when a \
         search needs it)",
        files.len(),
        megabytes(on_disk)
    );
    for shape in shapes {
        for goal in GoalSpec::NAMED {
            let Ok(board) = goal.board(shape) else {
                continue;
            };
            let Some(puzzle) = Puzzle::new(&board) else {
                continue;
            };
            let mut options = pdb::candidates(shape);
            if shape.rows() == 4 && shape.cols() == 4 {
                options.push(vec![5, 5, 5]);
            }
            let ready: Vec<String> = options
                .iter()
                .filter_map(|s| {
                    let p = Partition::new(shape, usize::from(puzzle.goal_cell[0]), s).ok()?;
                    p.keys()
                        .iter()
                        .all(|k| tables.pattern_at_hand(k) && !unusable.contains(k))
                        .then(|| p.name())
                })
                .collect();
            if !ready.is_empty() {
                println!(
                    "Ready for {shape} goal {goal}: pdb:{}",
                    ready.join(", pdb:")
                );
            }
        }
    }
    if bad > 0 {
        bail!(
            "{bad} of {} files in the cache directory are not usable (marked BAD above; \
             `npuzzle pdb build --force` rebuilds them)",
            files.len()
        );
    }
    Ok(Outcome::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds run together only as far as free memory holds them (7-7-7-3 on 5x5 asked for
    /// two 3.7 GB builds at once whatever the machine had), and a build that cannot fit
    /// alone is refused before it starts, in one line.
    #[test]
    fn builds_at_once_fit_the_free_memory() {
        const GB: u64 = 1 << 30;
        let peaks = [4 * GB, 3 * GB, 2 * GB];
        assert_eq!(jobs_that_fit(&peaks, 2, GB, None).unwrap(), 2);
        assert_eq!(jobs_that_fit(&peaks, 2, GB, Some(20 * GB)).unwrap(), 2);
        assert_eq!(jobs_that_fit(&peaks, 3, GB, Some(8 * GB)).unwrap(), 2);
        assert_eq!(jobs_that_fit(&peaks, 3, GB, Some(7 * GB)).unwrap(), 1);
        assert_eq!(jobs_that_fit(&peaks, 3, GB, Some(5 * GB)).unwrap(), 1);
        let refused = jobs_that_fit(&peaks, 2, GB, Some(4 * GB))
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("needs about 5368.7 MB at its peak"),
            "{refused}"
        );
        assert!(refused.contains("4295.0 MB of free memory"), "{refused}");
        assert_eq!(refused.lines().count(), 1);
    }
}
