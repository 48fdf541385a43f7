use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Control, Progress, SearchStats, StopReason};

/// How often the clock and cancel flag should be read, whatever a node costs.
///
/// The interval between checks is counted in generated nodes (so the hot loop pays one
/// comparison a node) but calibrated by time: after each check the next interval is scaled
/// so that it should take about this long. A cheap node (a few nanoseconds) gives intervals
/// of thousands of nodes; a node whose heuristic costs a millisecond (a `max(…)` of dozens
/// of parts on a big board) gives an interval of one node.
const CHECK_PERIOD: Duration = Duration::from_micros(500);
/// Largest interval, in nodes: the old fixed interval, so cheap searches check no less
/// often than before.
const MAX_INTERVAL: u64 = 1 << 14;
/// First interval: small, because nothing is known yet about what a node costs.
const FIRST_INTERVAL: u64 = 1;
#[cfg(not(test))]
pub(super) const PROGRESS_EVERY: Duration = Duration::from_millis(100);
/// Unit tests hear progress from searches of milliseconds.
#[cfg(test)]
pub(super) const PROGRESS_EVERY: Duration = Duration::from_micros(200);

/// Watches a search's limits. The hot loop compares `generated` against `next_check` and
/// calls [`Meter::check`] only when it is reached.
pub(crate) struct Meter<'a> {
    control: Control<'a>,
    /// Set by the search that ran this one on its behalf when it no longer needs it (a
    /// parallel proof's lookahead above one that found a path); seen as a cancel.
    dropped: Option<&'a AtomicBool>,
    start: Instant,
    last_progress: Instant,
    /// When the last check ran, and how many nodes had been generated then.
    last_check: Instant,
    last_generated: u64,
    /// Nodes between checks, recalibrated at every check.
    interval: u64,
    /// Call `check` once `generated` reaches this.
    pub next_check: u64,
}

impl<'a> Meter<'a> {
    pub fn new(control: Control<'a>) -> Meter<'a> {
        let now = Instant::now();
        let mut m = Meter {
            control,
            dropped: None,
            start: now,
            last_progress: now,
            last_check: now,
            last_generated: 0,
            interval: FIRST_INTERVAL,
            next_check: 0,
        };
        m.schedule(0);
        m
    }

    /// This meter, also stopping (as [`StopReason::Cancelled`]) once `dropped` is set.
    pub fn dropped_by(self, dropped: Option<&'a AtomicBool>) -> Meter<'a> {
        Meter { dropped, ..self }
    }

    fn schedule(&mut self, generated: u64) {
        let next = generated.saturating_add(self.interval);
        self.next_check = match self.control.limits.nodes {
            Some(max) => next.min(max),
            None => next,
        };
    }

    /// Scales the interval so that the next one takes about [`CHECK_PERIOD`], judging by
    /// how long the nodes since the last check took. It at most doubles at a time (a run
    /// of cheap nodes must not stretch it far past what an expensive stretch can afford)
    /// and shrinks at once.
    fn calibrate(&mut self, now: Instant, generated: u64) {
        let nodes = generated.saturating_sub(self.last_generated).max(1);
        let took = now
            .saturating_duration_since(self.last_check)
            .as_nanos()
            .max(1);
        let fits =
            (u128::from(nodes) * CHECK_PERIOD.as_nanos() / took).min(u128::from(MAX_INTERVAL));
        self.interval = (fits as u64).clamp(1, self.interval.saturating_mul(2).min(MAX_INTERVAL));
        self.last_check = now;
        self.last_generated = generated;
    }

    /// Nodes between the last two checks (for tests).
    #[cfg(test)]
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// Whether a limit has been reached; also reports progress.
    pub fn check(
        &mut self,
        stats: &SearchStats,
        open: u64,
        bound: Option<u32>,
    ) -> Option<StopReason> {
        let now = Instant::now();
        self.calibrate(now, stats.generated);
        self.schedule(stats.generated);
        if let Some(max) = self.control.limits.nodes {
            if stats.generated >= max {
                return Some(StopReason::Nodes);
            }
        }
        for c in [self.control.cancel, self.dropped].into_iter().flatten() {
            if c.load(Ordering::Relaxed) {
                return Some(StopReason::Cancelled);
            }
        }
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
                    best: None,
                    lower_bound: None,
                });
            }
        }
        None
    }

    /// The memory limit, in bytes.
    pub fn memory_limit(&self) -> Option<u64> {
        self.control.limits.memory_bytes
    }

    /// When the time limit ends, if there is one.
    pub fn deadline(&self) -> Option<Instant> {
        self.control.limits.time.map(|t| self.start + t)
    }

    /// Whether `bytes` would exceed the memory limit.
    pub fn over_memory(&self, bytes: u64) -> bool {
        self.control.limits.memory_bytes.is_some_and(|m| bytes > m)
    }

    /// The deepest a depth-first search may expand ([`Control::depth_cap`]; `u32::MAX`
    /// when there is no cap).
    pub fn depth_cap(&self) -> u32 {
        self.control.depth_cap.unwrap_or(u32::MAX)
    }

    /// How many expansions to trace.
    pub fn trace_limit(&self) -> usize {
        self.control.trace
    }

    /// Time since the search began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Seconds since the search began.
    pub fn seconds(&self) -> f64 {
        self.elapsed().as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    /// Spins for `d`: a node whose heuristic is expensive.
    fn spin(d: Duration) {
        let t = Instant::now();
        while t.elapsed() < d {
            std::hint::spin_loop();
        }
    }

    /// Runs the hot-loop contract with nodes costing `cost` each until the meter says stop.
    fn run(cost: Duration, limits: Limits) -> (Duration, StopReason, u64) {
        let start = Instant::now();
        let mut meter = Meter::new(Control {
            limits,
            ..Control::default()
        });
        let mut stats = SearchStats::default();
        loop {
            if !cost.is_zero() {
                spin(cost);
            }
            stats.generated += 1;
            if stats.generated >= meter.next_check {
                if let Some(why) = meter.check(&stats, 0, None) {
                    return (start.elapsed(), why, meter.interval());
                }
            }
        }
    }

    /// Regression (issue 15, item 1): the clock was read every 16,384 nodes whatever a node
    /// cost, so a node of 100 µs overran a 20 ms limit by 1.6 s.
    #[test]
    fn expensive_nodes_still_stop_on_time() {
        let limits = Limits {
            time: Some(Duration::from_millis(20)),
            ..Limits::default()
        };
        let (took, why, interval) = run(Duration::from_micros(100), limits);
        assert_eq!(why, StopReason::Time);
        assert!(took < Duration::from_millis(60), "took {took:?}");
        assert!(interval <= 16, "interval {interval}");
    }

    #[test]
    fn cancel_is_seen_within_milliseconds_of_expensive_nodes() {
        let flag = std::sync::atomic::AtomicBool::new(false);
        let start = Instant::now();
        let mut meter = Meter::new(Control {
            cancel: Some(&flag),
            ..Control::default()
        });
        let mut stats = SearchStats::default();
        let stopped = loop {
            spin(Duration::from_micros(300));
            stats.generated += 1;
            if start.elapsed() > Duration::from_millis(10) {
                flag.store(true, Ordering::Relaxed);
            }
            if stats.generated >= meter.next_check {
                if let Some(why) = meter.check(&stats, 0, None) {
                    break why;
                }
            }
        };
        assert_eq!(stopped, StopReason::Cancelled);
        assert!(start.elapsed() < Duration::from_millis(30));
    }

    /// A search run on another's behalf stops once that one drops it, as if cancelled, and
    /// not before.
    #[test]
    fn a_dropped_search_stops_at_its_next_check() {
        let dropped = AtomicBool::new(false);
        let mut meter = Meter::new(Control::default()).dropped_by(Some(&dropped));
        let stats = SearchStats::default();
        assert_eq!(meter.check(&stats, 0, None), None);
        dropped.store(true, Ordering::Relaxed);
        assert_eq!(meter.check(&stats, 0, None), Some(StopReason::Cancelled));
    }

    /// Calibration on synthetic times: cheap nodes double the interval up to its cap,
    /// an expensive stretch shrinks it at once.
    #[test]
    fn the_interval_follows_what_nodes_cost() {
        let mut meter = Meter::new(Control::default());
        let mut now = meter.last_check;
        let mut generated = 0;
        for _ in 0..20 {
            // 10 ns a node.
            generated += meter.interval;
            now += Duration::from_nanos(10 * meter.interval);
            meter.calibrate(now, generated);
        }
        assert_eq!(meter.interval, MAX_INTERVAL);
        // The next 16,384 nodes take 100 ms: 6 µs each, so 500 µs is about 81 nodes.
        generated += meter.interval;
        now += Duration::from_millis(100);
        meter.calibrate(now, generated);
        assert_eq!(meter.interval, 81);
        // One node of 5 ms: check after every node.
        generated += 1;
        now += Duration::from_millis(5);
        meter.calibrate(now, generated);
        assert_eq!(meter.interval, 1);
    }

    #[test]
    fn node_limit_is_exact() {
        let limits = Limits {
            nodes: Some(12_345),
            ..Limits::default()
        };
        let mut meter = Meter::new(Control {
            limits,
            ..Control::default()
        });
        let mut stats = SearchStats::default();
        loop {
            stats.generated += 1;
            if stats.generated >= meter.next_check && meter.check(&stats, 0, None).is_some() {
                break;
            }
        }
        assert_eq!(stats.generated, 12_345);
    }
}
