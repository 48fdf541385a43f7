//! The command line's tables: where they are cached, and loading or building what a plan
//! needs with a progress bar and warnings. `main` opens the [`Tables`] value and passes it
//! to every command.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use npuzzle::heuristic::pdb::{BuildProgress, PdbError};
use npuzzle::heuristic::{HeuristicError, TableEvent, TableSource};
use npuzzle::plan::{TableClock, TableSourceKind};
use npuzzle::{Board, Plan, SolveError, TablePolicy, Tables};

/// Where tables are cached unless `--pdb-dir` or `NPUZZLE_PDB_DIR` says otherwise.
pub fn default_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("npuzzle").join("pdb"))
}

/// The program's tables, cached in `dir` (`--pdb-dir`), else in [`default_dir`]. `main`
/// owns the value and passes it to every command.
pub fn open(dir: Option<PathBuf>) -> Tables {
    let dir = dir
        .filter(|d| !d.as_os_str().is_empty())
        .or_else(default_dir);
    Tables::new(dir, TablePolicy::default())
}

/// Tables loaded or built for a run, for reports.
#[derive(Debug, Default)]
pub struct Prepared {
    /// What happened to each table.
    pub events: Vec<TableEvent>,
    /// Wall-clock seconds of loading and building.
    pub seconds: f64,
    /// Plans whose tables were given up unfinished (by their time or by Ctrl-C).
    pub given_up: usize,
}

impl Prepared {
    /// Bytes of the tables in use.
    pub fn bytes(&self) -> usize {
        self.events.iter().map(|e| e.bytes).sum()
    }

    /// "2 tables loaded from disk in 0.21 s (288.4 MB)", or `None` without tables.
    pub fn summary(&self) -> Option<String> {
        if self.given_up > 0 {
            return Some(format!("given up unfinished after {:.2} s", self.seconds));
        }
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

/// Whether `e` is a table fetch given up unfinished, by its clock or by Ctrl-C: the run
/// goes on without the tables (a budgeted one) or stops at once, saying which.
pub fn given_up(e: &SolveError) -> bool {
    matches!(
        e,
        SolveError::Heuristic(HeuristicError::Pdb(PdbError::Stopped))
    )
}

/// Loads or builds the tables a plan needs for `goal`, with a progress bar on a terminal
/// and a warning for each cached file that was not trusted or could not be saved, giving a
/// fetch up when `clock` says it is late (the plan's
/// [`table_clock`](npuzzle::Plan::table_clock) for the search's time limit: a budgeted run
/// then goes on without the tables; any other search finds the table missing and stops at
/// once, saying `time`).
///
/// # Errors
/// A table that cannot serve the goal (which planning has ruled out); a fetch given up, or
/// stopped by Ctrl-C.
pub fn prepare_within(
    plan: &Plan,
    goal: &Board,
    tables: &Tables,
    mut clock: Option<TableClock>,
) -> Result<Prepared, SolveError> {
    let started = Instant::now();
    let bar = BuildBar::new();
    if plan.builds_tables() {
        bar.note(&plan_building_line(plan));
    }
    let events = npuzzle::plan::prepare(plan, goal, tables, &mut |p| {
        if clock.as_mut().is_some_and(|clock| clock.late(p)) {
            ControlFlow::Break(())
        } else {
            bar.update(p)
        }
    })?;
    bar.finish();
    warn_about(&events);
    Ok(Prepared {
        events,
        seconds: started.elapsed().as_secs_f64(),
        given_up: 0,
    })
}

/// What a plan's builds will take, said before they start: the tables it builds, one at a
/// time, and the process's peak memory by the core's estimate ([`Plan::table_bytes`]).
fn plan_building_line(plan: &Plan) -> String {
    let built = plan
        .tables
        .iter()
        .filter(|t| t.source == TableSourceKind::Build);
    let (count, bytes) = built.fold((0, 0), |(n, b), t| (n + 1, b + t.bytes));
    // The tables already in memory are in the process's memory now.
    let in_memory: u64 = plan
        .tables
        .iter()
        .filter(|t| t.source == TableSourceKind::Memory)
        .map(|t| t.bytes)
        .sum();
    let peak = current_rss().unwrap_or(0) + plan.table_bytes().saturating_sub(in_memory);
    building_line(count, bytes, 1, peak)
}

/// `Building 2 tables (288.3 MB), 2 at a time: peak memory about 990.3 MB.`
pub fn building_line(count: usize, bytes: u64, jobs: usize, peak: u64) -> String {
    format!(
        "Building {count} table{} ({}), {jobs} at a time: peak memory about {}.",
        if count == 1 { "" } else { "s" },
        megabytes(bytes),
        megabytes(peak)
    )
}

/// Warns about cached files that were not trusted and tables that could not be saved.
pub fn warn_about(events: &[TableEvent]) {
    for e in events {
        if let Some((path, why)) = &e.rejected {
            crate::errln!(
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
        crate::errln!("warning: could not save pattern databases to the cache directory: {why}");
    }
}

/// A progress bar for table builds, shown only on a terminal and only once a build starts.
pub struct BuildBar {
    bar: Option<ProgressBar>,
}

impl BuildBar {
    /// A bar that shows itself when a build reports progress.
    pub fn new() -> BuildBar {
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

    /// Shows a build's progress; stops the build on Ctrl-C.
    pub fn update(&self, p: &BuildProgress) -> ControlFlow<()> {
        self.show(p.expanded, p.total, || {
            if p.loading {
                format!("loading {}-tile pattern database", p.tiles)
            } else {
                format!(
                    "building {}-tile pattern database, depth {}",
                    p.tiles, p.depth
                )
            }
        })
    }

    /// Shows the progress of several builds at once: `expanded` of `total` states, the
    /// deepest layer at `depth`; stops the builds on Ctrl-C.
    pub fn update_all(&self, expanded: u64, total: u64, depth: u32) -> ControlFlow<()> {
        self.show(expanded, total, || {
            format!("building pattern databases, depth {depth}")
        })
    }

    /// Draws `expanded` of `total` with a message (the bar appears at the first report, and
    /// starts over when the total changes: a new table); `Break` on Ctrl-C.
    fn show(&self, expanded: u64, total: u64, message: impl FnOnce() -> String) -> ControlFlow<()> {
        if let Some(bar) = &self.bar {
            if bar.is_hidden() || bar.length() != Some(total) {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                bar.reset();
                bar.set_length(total);
            }
            bar.set_position(expanded.min(total));
            bar.set_message(message());
        }
        if crate::interrupt::interrupted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Prints a line on the terminal the bar is drawn on; nothing when there is none
    /// (standard error is not a terminal).
    pub fn note(&self, line: &str) {
        if self.bar.is_some() {
            eprintln!("{line}");
        }
    }

    /// Prints a line above the bar (or plainly when there is none).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) if !bar.is_hidden() => bar.println(line),
            _ => println!("{line}"),
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `12.3 MB`.
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// The process's peak resident memory (Linux `VmHWM`), in bytes.
pub fn peak_rss() -> Option<u64> {
    kilobytes_field("/proc/self/status", "VmHWM:")
}

/// The process's resident memory now (Linux `VmRSS`), in bytes.
pub fn current_rss() -> Option<u64> {
    kilobytes_field("/proc/self/status", "VmRSS:")
}

/// The machine's free memory (Linux `MemAvailable`: free, and reclaimable without swap), in
/// bytes.
pub fn available_memory() -> Option<u64> {
    kilobytes_field("/proc/meminfo", "MemAvailable:")
}

/// A memory field (`Field:   123 kB`) of a Linux `/proc` file, in bytes.
fn kilobytes_field(file: &str, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(Path::new(file)).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
