//! Runs independent searches on all cores and hands their results back in input order, each
//! as soon as it and everything before it is done, with a progress bar on a terminal.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// The most worker threads `--jobs` accepts.
const MAX_JOBS: usize = 1024;

/// How far past the last result written a worker may start, per worker: results wait in
/// memory until everything before them is written, and on a file of easy boards the
/// workers would otherwise outrun the writer by the whole file (a million 3x3 boards held
/// some 300 MB of results).
const AHEAD_PER_JOB: usize = 256;

/// The number of worker threads: `--jobs`, or one per core.
///
/// # Errors
/// `--jobs 0` or more than 1024.
pub fn jobs(requested: Option<usize>) -> Result<usize> {
    match requested {
        Some(n) if (1..=MAX_JOBS).contains(&n) => Ok(n),
        Some(n) => bail!("--jobs must be between 1 and {MAX_JOBS}, got {n}"),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Runs `work(index, item, cancel)` on every item with `jobs` threads and calls
/// `emit(index, result)` in input order on the calling thread.
///
/// Workers take the next item from a shared counter rather than splitting the input into
/// fixed chunks: items are started in input order, so results can be written out as they
/// arrive with only a few held back, and a slow item never leaves a core idle while others
/// still wait. `work` receives a flag that is raised when the run is abandoned (the reader of
/// the output went away); pass it to the search as its cancel flag.
///
/// When `emit` fails the remaining work is cancelled and the error is returned; see
/// [`is_closed_pipe`].
///
/// # Errors
/// The thread pool cannot start, or `emit` failed.
pub fn run_in_order<T, R, W, E>(items: &[T], jobs: usize, work: W, mut emit: E) -> Result<()>
where
    T: Sync,
    R: Send,
    W: Fn(usize, &T, &AtomicBool) -> R + Sync,
    E: FnMut(usize, R) -> std::io::Result<()>,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("cannot start the worker threads")?;
    let bar = progress_bar(items.len() as u64);
    // Writing to a terminal under a live bar would tear both; pause the bar around writes.
    let pause_bar = !bar.is_hidden() && std::io::stdout().is_terminal();
    let next = AtomicUsize::new(0);
    // Results handed to `emit` so far; workers wait while they are too far ahead of it.
    let written = (Mutex::new(0usize), Condvar::new());
    let ahead = jobs.saturating_mul(AHEAD_PER_JOB);
    // Raised when the output goes away, or by Ctrl-C.
    let cancel = crate::interrupt::cancel_flag();
    let cancel: &AtomicBool = &cancel;
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        let (next, work, written) = (&next, &work, &written);
        let pool = &pool;
        scope.spawn(move || {
            pool.broadcast(|_| loop {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                wait_until_within(written, i, ahead, cancel);
                if tx.send((i, work(i, item, cancel))).is_err() {
                    break;
                }
            });
            drop(tx); // ends the receiving loop below
        });
        let mut held: BTreeMap<usize, R> = BTreeMap::new();
        let mut next_out = 0;
        let mut published = 0;
        'receive: for (i, result) in rx.iter() {
            bar.inc(1);
            held.insert(i, result);
            while let Some(result) = held.remove(&next_out) {
                let outcome = if pause_bar {
                    bar.suspend(|| emit(next_out, result))
                } else {
                    emit(next_out, result)
                };
                if let Err(e) = outcome {
                    cancel.store(true, Ordering::Relaxed);
                    failure = Some(e);
                    break 'receive;
                }
                next_out += 1;
            }
            // Told a quarter of the reach at a time: a wake-up for every result cost a
            // third of the time of a file of easy boards.
            if next_out >= published + ahead / 4 {
                published = next_out;
                *written.0.lock().unwrap_or_else(PoisonError::into_inner) = published;
                written.1.notify_all();
            }
        }
        drop(rx); // workers blocked on a send give up
    });
    bar.finish_and_clear();
    match failure {
        Some(e) => Err(e).context("cannot write the output"),
        None => Ok(()),
    }
}

/// Blocks a worker about to start item `i` while it is `ahead` or more items past the results
/// written, until the writer catches up or the run is cancelled. The item the writer waits
/// for is always within reach, so the workers never all wait.
fn wait_until_within(
    written: &(Mutex<usize>, Condvar),
    i: usize,
    ahead: usize,
    cancel: &AtomicBool,
) {
    let (count, caught_up) = written;
    let mut count = count.lock().unwrap_or_else(PoisonError::into_inner);
    while i >= count.saturating_add(ahead) && !cancel.load(Ordering::Relaxed) {
        // A timeout, so a cancel raised while waiting is seen.
        count = caught_up
            .wait_timeout(count, Duration::from_millis(50))
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

/// Whether an error is the reader of standard output going away (e.g. `| head`): the run
/// should stop quietly, as Unix tools do.
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// done/total, rate and ETA on standard error when it is a terminal; hidden otherwise.
fn progress_bar(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} done, {rate}, {elapsed} elapsed, ETA {eta}",
        )
        .expect("a valid template")
        .with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1}/s", state.per_sec());
            },
        ),
    );
    // Drawn at once: the ticker's first draw races with the first result, and a quick run
    // (a bench of easy boards) could show its first line at 1/N, or none at all.
    bar.tick();
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order_whatever_finishes_first() {
        let items: Vec<u64> = (0..200).collect();
        let mut seen = Vec::new();
        run_in_order(
            &items,
            4,
            |_, &x, _| {
                // Early items take longest, so later ones finish first.
                std::thread::sleep(Duration::from_micros((200 - x) * 20));
                x * x
            },
            |i, r| {
                seen.push((i, r));
                Ok(())
            },
        )
        .unwrap();
        let expected: Vec<(usize, u64)> = (0..200).map(|x| (x as usize, x * x)).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_failed_write_cancels_the_rest() {
        let items: Vec<u32> = (0..10_000).collect();
        let started = AtomicUsize::new(0);
        let err = run_in_order(
            &items,
            2,
            |_, _, _| {
                started.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(100));
            },
            |i, _| {
                if i == 5 {
                    Err(std::io::ErrorKind::BrokenPipe.into())
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("cannot write"));
        assert!(started.load(Ordering::Relaxed) < 1000);
    }

    /// Regression: on a file of easy boards the workers ran the whole file ahead of a slow
    /// writer, and every result waited in memory (a million 3x3 boards: some 300 MB).
    #[test]
    fn workers_stay_within_reach_of_the_writer() {
        let items: Vec<u32> = (0..3_000).collect();
        let emitted = AtomicUsize::new(0);
        let furthest_ahead = AtomicUsize::new(0);
        run_in_order(
            &items,
            2,
            |i, _, _| {
                let ahead = i - emitted.load(Ordering::SeqCst).min(i);
                furthest_ahead.fetch_max(ahead, Ordering::SeqCst);
            },
            |_, ()| {
                std::thread::sleep(Duration::from_micros(20));
                emitted.fetch_add(1, Ordering::SeqCst);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(emitted.load(Ordering::SeqCst), items.len());
        let furthest = furthest_ahead.load(Ordering::SeqCst);
        assert!(furthest < 2 * AHEAD_PER_JOB, "{furthest} ahead");
    }

    #[test]
    fn jobs_are_checked() {
        assert!(jobs(Some(0)).is_err());
        assert_eq!(jobs(Some(3)).unwrap(), 3);
        assert!(jobs(None).unwrap() >= 1);
    }
}
