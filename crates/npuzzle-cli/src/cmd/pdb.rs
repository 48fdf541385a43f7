//! `npuzzle pdb`: build and list cached pattern databases; also the table preparation
//! (progress bar, warnings) that `solve` and `bench` share.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::heuristic::pdb::{
    self, registry, store, BuildProgress, Partition, PartitionSpec, TableEvent, TableSource,
};
use npuzzle::{Board, GoalSpec, HeuristicSpec, Puzzle, Shape};

use crate::exit::Outcome;

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
}

#[derive(Args, Debug)]
struct ListArgs {
    /// Also read every table and check its data checksum.
    #[arg(long)]
    verify: bool,
}

/// Where tables are cached unless `--pdb-dir` or `NPUZZLE_PDB_DIR` says otherwise.
pub fn default_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("npuzzle").join("pdb"))
}

/// Points the library's table registry at the cache directory.
pub fn configure(dir: Option<PathBuf>) {
    registry::set_cache_dir(
        dir.filter(|d| !d.as_os_str().is_empty())
            .or_else(default_dir),
    );
}

pub fn run(args: PdbArgs) -> Result<Outcome> {
    match args.command {
        PdbCommand::Build(b) => build(b),
        PdbCommand::List(l) => list(l),
    }
}

/// Tables loaded or built for a run, for reports.
#[derive(Debug, Default)]
pub struct Prepared {
    /// What happened to each table.
    pub events: Vec<TableEvent>,
    /// Wall-clock seconds of loading and building.
    pub seconds: f64,
}

impl Prepared {
    /// Bytes of the tables in use.
    pub fn bytes(&self) -> usize {
        self.events.iter().map(|e| e.bytes).sum()
    }

    /// "2 tables loaded from disk in 0.21 s (288.4 MB)", or `None` without tables.
    pub fn summary(&self) -> Option<String> {
        if self.events.is_empty() {
            return None;
        }
        let count =
            |f: fn(&TableSource) -> bool| self.events.iter().filter(|e| f(&e.source)).count();
        let mut parts = Vec::new();
        for (n, what) in [
            (count(|s| matches!(s, TableSource::Built(_))), "built"),
            (
                count(|s| matches!(s, TableSource::Disk(_))),
                "loaded from disk",
            ),
            (
                count(|s| matches!(s, TableSource::Memory)),
                "already in memory",
            ),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        Some(format!(
            "{} table{}: {} in {:.2} s, {}",
            self.events.len(),
            if self.events.len() == 1 { "" } else { "s" },
            parts.join(", "),
            self.seconds,
            megabytes(self.bytes() as u64)
        ))
    }
}

/// Loads or builds the pattern databases `spec` needs for `goal` (nothing for other
/// heuristics), with a progress bar on a terminal and a warning for each cached file that
/// was not trusted or could not be saved.
///
/// # Errors
/// A partition that does not fit the board.
pub fn prepare(spec: &HeuristicSpec, goal: &Board) -> Result<Prepared> {
    let Some(puzzle) = Puzzle::new(goal) else {
        return Ok(Prepared::default());
    };
    let started = Instant::now();
    let bar = BuildBar::new();
    let events = pdb::prepare(spec, &puzzle, &mut |p| bar.update(p))?;
    bar.finish();
    warn_about(&events);
    Ok(Prepared {
        events,
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn warn_about(events: &[TableEvent]) {
    for e in events {
        if let Some((path, why)) = &e.rejected {
            eprintln!(
                "warning: pattern database {} not used: {why}; rebuilt it",
                path.display()
            );
        }
    }
    // One line for all tables that could not be saved (e.g. a read-only cache directory).
    if let Some(why) = events.iter().find_map(|e| match &e.source {
        TableSource::Built(Some(Err(why))) => Some(why),
        _ => None,
    }) {
        eprintln!("warning: could not save pattern databases to the cache directory: {why}");
    }
}

/// A progress bar for table builds, shown only on a terminal and only once a build starts.
struct BuildBar {
    bar: Option<ProgressBar>,
}

impl BuildBar {
    fn new() -> BuildBar {
        if !std::io::stderr().is_terminal() {
            return BuildBar { bar: None };
        }
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {percent:>3}% {elapsed_precise} (eta {eta})",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        BuildBar { bar: Some(bar) }
    }

    fn update(&self, p: &BuildProgress) {
        if let Some(bar) = &self.bar {
            if bar.is_hidden() || bar.length() != Some(p.total) {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                bar.reset();
                bar.set_length(p.total);
            }
            bar.set_position(p.expanded);
            bar.set_message(format!(
                "building {}-tile pattern database, depth {}",
                p.tiles, p.depth
            ));
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn build(args: BuildArgs) -> Result<Outcome> {
    let goal = args.goal.board(args.size)?;
    let puzzle = Puzzle::new(&goal).context("board too large for pattern databases")?;
    let sizes = match &args.partition {
        Some(PartitionSpec::Sizes(s)) => s.clone(),
        Some(PartitionSpec::Best) | None => pdb::candidates(args.size)
            .into_iter()
            .next()
            .expect("a candidate"),
    };
    let partition = Partition::new(args.size, usize::from(puzzle.goal_cell[0]), &sizes)?;
    let dir = registry::cache_dir();
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
    let started = Instant::now();
    let bar = BuildBar::new();
    let mut events = Vec::new();
    for key in partition.keys() {
        let (_, event) = registry::fetch(dir.as_deref(), &key, args.force, &mut |p| bar.update(p));
        bar.finish();
        println!("  {}", describe(&event));
        events.push(event);
    }
    warn_about(&events);
    println!(
        "Done in {:.2} s; tables {}; peak memory {}.",
        started.elapsed().as_secs_f64(),
        megabytes(events.iter().map(|e| e.bytes as u64).sum()),
        peak_rss().map_or("unknown".into(), megabytes)
    );
    // Building is what `pdb build` is for only when the tables end up in the cache: if a
    // cache directory was given and not one table is there now, say so with the exit code.
    let stored = |e: &TableEvent| {
        matches!(
            e.source,
            TableSource::Disk(_) | TableSource::Built(Some(Ok(_)))
        )
    };
    if dir.is_some() && !events.iter().any(stored) {
        bail!("no table could be saved to the cache directory (see the warning above)");
    }
    Ok(Outcome::Success)
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

fn list(args: ListArgs) -> Result<Outcome> {
    let Some(dir) = registry::cache_dir() else {
        bail!("no cache directory: set --pdb-dir or NPUZZLE_PDB_DIR");
    };
    println!("Cache directory: {}", dir.display());
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
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
    println!(
        "{:<22} {:>5} {:>5} {:>5} {:>11} {:>10}  {:<24} status",
        "file", "shape", "tiles", "blank", "entries", "size", "goal cells"
    );
    let mut shapes = Vec::new();
    let mut bad = 0usize;
    for path in &files {
        let name = path.file_name().map_or("?".into(), |n| n.to_string_lossy());
        match store::read_header(path) {
            Ok(h) => {
                let status = if args.verify {
                    match store::load_checked(path, &h.key, store::VERIFY_SAMPLES) {
                        Ok(_) => "ok (checksums and a sample of entries verified)".to_string(),
                        Err(why) => {
                            bad += 1;
                            format!("BAD: {why}")
                        }
                    }
                } else {
                    "ok".to_string()
                };
                let cells: Vec<String> = h.key.cells.iter().map(u8::to_string).collect();
                println!(
                    "{name:<22} {:>5} {:>5} {:>5} {:>11} {:>10}  {:<24} {status}",
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
                println!("{name:<22} BAD: {why}");
            }
        }
    }
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
                    p.keys().iter().all(registry::available).then(|| p.name())
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

/// `12.3 MB`.
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// The process's peak resident memory (Linux `VmHWM`), in bytes.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string(Path::new("/proc/self/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
