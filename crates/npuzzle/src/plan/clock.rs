//! [`TableClock`]: when a run gives up tables still loading or building
//! ([`Phase::table_clock`](super::Phase::table_clock)).

use std::time::{Duration, Instant};

use crate::heuristic::pdb::BuildProgress;

/// The share of a budgeted run's time after which tables still not ready are given up
/// whatever their pace ([`Phase::table_clock`](super::Phase::table_clock)): the search
/// keeps at least the rest. Given up at the end of the budget, they left it nothing, and
/// the answer was the constructive path (180 moves on a 5×5 board where linear conflict
/// finds 138 in a fifth of a second).
pub const TABLE_TIME_END: f64 = 0.9;

/// When a fetch of tables (reads and builds, one table after another) is given up: see
/// [`Phase::table_clock`](super::Phase::table_clock). Fed each [`BuildProgress`] the fetch
/// reports.
#[derive(Clone, Debug)]
pub struct TableClock {
    began: Instant,
    /// From here on, a table projected to be ready only after `end` is given up.
    pub(super) share: Duration,
    /// Here any fetch is given up.
    pub(super) end: Duration,
    /// The table in progress: its work in all and done at its last report, and when it
    /// began.
    table: Option<(u64, u64, Instant)>,
}

impl TableClock {
    /// A clock started now, giving a late table up from `share` and any at `end`.
    pub fn new(share: Duration, end: Duration) -> TableClock {
        TableClock {
            began: Instant::now(),
            share: share.min(end),
            end,
            table: None,
        }
    }

    /// A clock started now that gives up at `end` and not before: a search's time limit.
    pub fn until(end: Duration) -> TableClock {
        TableClock::new(end, end)
    }

    /// Whether the fetch reporting `progress` is to be given up.
    pub fn late(&mut self, progress: &BuildProgress) -> bool {
        let now = Instant::now();
        // Other work in all, or work that falls, is the next table's (every table reports
        // from nothing done up).
        let began = match self.table {
            Some((total, done, began)) if progress.total == total && progress.expanded >= done => {
                began
            }
            _ => now,
        };
        self.table = Some((progress.total, progress.expanded, began));
        let elapsed = now - self.began;
        if elapsed >= self.end {
            return true;
        }
        if elapsed < self.share || progress.expanded == 0 || progress.total == 0 {
            return false;
        }
        let done = (progress.expanded as f64 / progress.total as f64).min(1.0);
        let left = (now - began).as_secs_f64() * (1.0 - done) / done;
        elapsed.as_secs_f64() + left > self.end.as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the share, a table is given up when the pace it has kept would have it ready only
    /// after the end, and kept when it would be ready before; before the share nothing is
    /// given up, at the end everything is; a table whose work falls or changes is the next
    /// one, with a pace of its own.
    #[test]
    fn a_table_clock_gives_up_a_table_that_would_be_late_and_waits_for_one_that_would_not() {
        let at = |expanded: u64, total: u64| BuildProgress {
            tiles: 6,
            depth: 0,
            expanded,
            total,
            loading: true,
        };
        let pause = || std::thread::sleep(Duration::from_millis(20));
        let secs = Duration::from_secs;
        // 20 ms for half the table: about 20 ms to go, well before the end.
        let mut clock = TableClock::new(Duration::ZERO, secs(10));
        assert!(!clock.late(&at(1, 1000)));
        pause();
        assert!(!clock.late(&at(500, 1000)));
        // The next table starts its own pace: 20 ms for a thousandth is 20 s to go.
        assert!(!clock.late(&at(1, 1000)));
        pause();
        assert!(clock.late(&at(2, 1000)));
        // So does a table of another size.
        assert!(!clock.late(&at(1, 2000)));
        // Before the share nothing is late, however slow; at the end everything is.
        let mut patient = TableClock::new(secs(10), secs(20));
        assert!(!patient.late(&at(1, 1000)));
        pause();
        assert!(!patient.late(&at(2, 1000)));
        assert!(TableClock::until(Duration::ZERO).late(&at(999, 1000)));
    }
}
