//! Runs independent searches on all cores and hands their results back in input order, each
//! as soon as it and everything before it is done, with a progress bar on a terminal.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// The most worker threads `--jobs` accepts.
const MAX_JOBS: usize = 1024;

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
    // Raised when the output goes away, or by Ctrl-C.
    let cancel = crate::interrupt::cancel_flag();
    let cancel: &AtomicBool = &cancel;
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        let (next, work) = (&next, &work);
        let pool = &pool;
        scope.spawn(move || {
            pool.broadcast(|_| loop {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, work(i, item, cancel))).is_err() {
                    break;
                }
            });
            drop(tx); // ends the receiving loop below
        });
        let mut held: BTreeMap<usize, R> = BTreeMap::new();
        let mut next_out = 0;
        'receive: for (i, result) in rx.iter() {
            bar.inc(1);
            held.insert(i, result);
            while let Some(result) = held.remove(&next_out) {
                let written = if pause_bar {
                    bar.suspend(|| emit(next_out, result))
                } else {
                    emit(next_out, result)
                };
                if let Err(e) = written {
                    cancel.store(true, Ordering::Relaxed);
                    failure = Some(e);
                    break 'receive;
                }
                next_out += 1;
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

    #[test]
    fn jobs_are_checked() {
        assert!(jobs(Some(0)).is_err());
        assert_eq!(jobs(Some(3)).unwrap(), 3);
        assert!(jobs(None).unwrap() >= 1);
    }
}
