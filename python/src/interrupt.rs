//! Ctrl-C during a search that runs with the GIL released, and `solve(progress=…)`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use npuzzle::search::Progress;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// How often [`Interrupt::watch`] looks for Ctrl-C while the work runs.
const LOOK_EVERY: Duration = Duration::from_millis(50);

/// The stack of [`Interrupt::watch`]'s worker: what the main thread has on Linux.
const WORKER_STACK: usize = 8 << 20;

/// Looks for Ctrl-C from a search's progress callback (about ten times a second): asks
/// Python whether a signal arrived and, if one did, raises the search's cancel flag and
/// keeps the exception to raise once the search has stopped. (Python runs signal handlers
/// on the main thread only, and only when asked: a search that never asks cannot be
/// interrupted.)
///
/// With a Python callback ([`Interrupt::with_callback`]) it also passes on the anytime
/// engine's improvements: the callback gets a dict each time the best length or the proven
/// lower bound changes. An exception the callback raises stops the search the same way.
pub struct Interrupt<'a> {
    cancel: &'a AtomicBool,
    caught: Mutex<Option<PyErr>>,
    callback: Option<Py<PyAny>>,
    /// The best length and lower bound last passed to the callback.
    told: Mutex<(Option<u32>, Option<u32>)>,
}

impl<'a> Interrupt<'a> {
    /// Watches for Ctrl-C on behalf of the searches that `cancel` stops.
    pub fn new(cancel: &'a AtomicBool) -> Interrupt<'a> {
        Interrupt::with_callback(cancel, None)
    }

    /// As [`Interrupt::new`], and tells `callback` of each improvement.
    pub fn with_callback(cancel: &'a AtomicBool, callback: Option<Py<PyAny>>) -> Interrupt<'a> {
        Interrupt {
            cancel,
            caught: Mutex::new(None),
            callback,
            told: Mutex::new((None, None)),
        }
    }

    /// The progress callback.
    pub fn check(&self, p: &Progress) {
        Python::attach(|py| {
            if let Err(e) = py.check_signals().and_then(|()| self.tell(py, p)) {
                self.catch(e);
            }
        })
    }

    /// Keeps the first exception and stops the work.
    fn catch(&self, e: PyErr) {
        let mut caught = self.caught.lock().unwrap_or_else(|p| p.into_inner());
        caught.get_or_insert(e);
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Runs `work` with the GIL released on a thread of its own, while this thread looks
    /// for Ctrl-C every [`LOOK_EVERY`], so that a signal stops the work (through the cancel
    /// flag) however seldom it reports progress: the anytime engine's phases and a table
    /// build may not report for seconds, and a search that reports only through progress
    /// took up to 18 s to stop. The worker's stack is the size of the main thread's.
    pub fn watch<T: Send>(&self, py: Python<'_>, work: impl FnOnce() -> T + Send) -> T {
        let waiter = std::thread::current();
        let job = Mutex::new(Some(work));
        let take = || job.lock().unwrap_or_else(|p| p.into_inner()).take();
        // Set before the waiter is woken: a thread that has woken it may not have finished
        // yet, and waiting for that would wait out a whole `LOOK_EVERY`.
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            let worker = std::thread::Builder::new()
                .name("npuzzle-python-work".into())
                .stack_size(WORKER_STACK)
                .spawn_scoped(s, || {
                    let _wake = Wake(&done, waiter.clone());
                    take().map(|work| work())
                });
            let Ok(worker) = worker else {
                // No thread to be had: the work runs here, stopped by progress alone.
                return py
                    .detach(|| take().map(|work| work()))
                    .expect("the work is here");
            };
            while !done.load(Ordering::Acquire) {
                py.detach(|| std::thread::park_timeout(LOOK_EVERY));
                if let Err(e) = py.check_signals() {
                    self.catch(e);
                }
            }
            let out = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            out.expect("the worker took the work")
        })
    }

    /// Calls the Python callback with `{"seconds", "length", "lower_bound", "expanded",
    /// "generated"}` (the fields of `npuzzle solve --json --progress` lines) when the best
    /// length or the bound changed since it was last called.
    fn tell(&self, py: Python<'_>, p: &Progress) -> PyResult<()> {
        let Some(callback) = &self.callback else {
            return Ok(());
        };
        let now = (p.best, p.lower_bound);
        {
            let mut told = self.told.lock().unwrap_or_else(|p| p.into_inner());
            if now == *told || now == (None, None) || self.cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            *told = now;
        }
        let d = PyDict::new(py);
        d.set_item("seconds", p.elapsed.as_secs_f64())?;
        d.set_item("length", p.best)?;
        d.set_item("lower_bound", p.lower_bound)?;
        d.set_item("expanded", p.expanded)?;
        d.set_item("generated", p.generated)?;
        callback.call1(py, (d,))?;
        Ok(())
    }

    /// The exception of a signal caught (or raised by the callback) since the last call,
    /// if any.
    pub fn take(&self) -> Option<PyErr> {
        self.caught.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// Marks [`Interrupt::watch`]'s work done and wakes its waiter when dropped: when the work
/// returns, and when it panics (the waiter would otherwise wait for ever).
struct Wake<'a>(&'a AtomicBool, std::thread::Thread);

impl Drop for Wake<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
        self.1.unpark();
    }
}
