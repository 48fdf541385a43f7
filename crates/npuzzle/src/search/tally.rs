//! What a parallel search reports as its progress: the work of all its threads and
//! lookaheads, added up as they go (`search::parallel`, `search::iteration`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::meter::PROGRESS_EVERY;
use super::{Progress, Report, SearchStats};

/// The counts a parallel search reports as its progress: all the work done so far, work
/// later dropped included (the outcome counts only the serial order's), so that the counts
/// move while the threads work and no report goes back. A part of the search that knows
/// the whole search's counts (a serial iteration, a lookahead before an iteration) raises
/// them; a thread's unit, and a lookahead beside an iteration, adds what it did since it
/// last told ([`Seen`]).
pub(super) struct Tally<'c> {
    progress: Option<Report<'c>>,
    started: Instant,
    expanded: AtomicU64,
    generated: AtomicU64,
    /// When the last report went out; held while one goes out, so that reports made by
    /// several threads keep their order.
    last: Mutex<Instant>,
}

impl<'c> Tally<'c> {
    /// The counts of a search that began at `started` and reports to `progress`.
    pub(super) fn new(progress: Option<Report<'c>>, started: Instant) -> Self {
        Tally {
            progress,
            started,
            expanded: AtomicU64::new(0),
            generated: AtomicU64::new(0),
            last: Mutex::new(started),
        }
    }

    /// The whole search has done at least `stats`'s work.
    pub(super) fn raise(&self, stats: &SearchStats) {
        self.raise_to(stats.expanded, stats.generated);
    }

    fn raise_to(&self, expanded: u64, generated: u64) {
        self.expanded.fetch_max(expanded, Ordering::Relaxed);
        self.generated.fetch_max(generated, Ordering::Relaxed);
    }

    /// Reports the counts with the threshold `bound` and the depth `open`: at once when
    /// `now`, else only if the last report is [`PROGRESS_EVERY`] old.
    pub(super) fn report(&self, bound: Option<u32>, open: u64, now: bool) {
        let Some(progress) = self.progress else {
            return;
        };
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if !now && last.elapsed() < PROGRESS_EVERY {
            return;
        }
        *last = Instant::now();
        progress(&Progress {
            expanded: self.expanded.load(Ordering::Relaxed),
            generated: self.generated.load(Ordering::Relaxed),
            open,
            bound,
            elapsed: self.started.elapsed(),
            best: None,
            lower_bound: None,
        });
    }

    /// Progress from a part of the search that counts the whole search's work (a meter
    /// throttles it already).
    pub(super) fn relay(&self, p: &Progress) {
        self.raise_to(p.expanded, p.generated);
        self.report(p.bound, p.open, true);
    }
}

/// What one part of an iteration (a unit, a lookahead beside it) has told a [`Tally`].
#[derive(Default)]
pub(super) struct Seen {
    expanded: AtomicU64,
    generated: AtomicU64,
}

impl Seen {
    /// The part has now done `expanded` and `generated`: adds what is new to `tally`.
    pub(super) fn tell(&self, tally: &Tally<'_>, expanded: u64, generated: u64) {
        let new =
            |seen: &AtomicU64, now: u64| now.saturating_sub(seen.swap(now, Ordering::Relaxed));
        tally
            .expanded
            .fetch_add(new(&self.expanded, expanded), Ordering::Relaxed);
        tally
            .generated
            .fetch_add(new(&self.generated, generated), Ordering::Relaxed);
    }
}
