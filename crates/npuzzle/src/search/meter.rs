use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{Control, Progress, SearchStats, StopReason};

/// How many generated nodes between looks at the clock: rare enough to cost nothing in the
/// hot loop, frequent enough (well under a millisecond) to stop on time.
const CHECK_EVERY: u64 = 1 << 14;
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Watches a search's limits. The hot loop compares `generated` against `next_check` and
/// calls [`Meter::check`] only when it is reached.
pub(crate) struct Meter<'a> {
    control: Control<'a>,
    start: Instant,
    last_progress: Instant,
    /// Call `check` once `generated` reaches this.
    pub next_check: u64,
}

impl<'a> Meter<'a> {
    pub fn new(control: Control<'a>) -> Meter<'a> {
        let now = Instant::now();
        let mut m = Meter {
            control,
            start: now,
            last_progress: now,
            next_check: 0,
        };
        m.schedule(0);
        m
    }

    fn schedule(&mut self, generated: u64) {
        let next = generated + CHECK_EVERY;
        self.next_check = match self.control.limits.nodes {
            Some(max) => next.min(max),
            None => next,
        };
    }

    /// Whether a limit has been reached; also reports progress.
    pub fn check(
        &mut self,
        stats: &SearchStats,
        open: u64,
        bound: Option<u32>,
    ) -> Option<StopReason> {
        self.schedule(stats.generated);
        if let Some(max) = self.control.limits.nodes {
            if stats.generated >= max {
                return Some(StopReason::Nodes);
            }
        }
        if let Some(c) = self.control.cancel {
            if c.load(Ordering::Relaxed) {
                return Some(StopReason::Cancelled);
            }
        }
        let now = Instant::now();
        if let Some(t) = self.control.limits.time {
            if now - self.start >= t {
                return Some(StopReason::Time);
            }
        }
        if let Some(p) = self.control.progress {
            if now - self.last_progress >= PROGRESS_EVERY {
                self.last_progress = now;
                p(&Progress {
                    expanded: stats.expanded,
                    generated: stats.generated,
                    open,
                    bound,
                    elapsed: now - self.start,
                });
            }
        }
        None
    }

    /// Whether `bytes` would exceed the memory limit.
    pub fn over_memory(&self, bytes: u64) -> bool {
        self.control.limits.memory_bytes.is_some_and(|m| bytes > m)
    }

    /// How many expansions to trace.
    pub fn trace_limit(&self) -> usize {
        self.control.trace
    }

    /// Seconds since the search began.
    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}
