//! Ctrl-C during a search that runs with the GIL released.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use npuzzle::search::Progress;
use pyo3::prelude::*;

/// Looks for Ctrl-C from a search's progress callback (about ten times a second): asks
/// Python whether a signal arrived and, if one did, raises the search's cancel flag and
/// keeps the exception to raise once the search has stopped. (Python runs signal handlers
/// on the main thread only, and only when asked: a search that never asks cannot be
/// interrupted.)
pub struct Interrupt<'a> {
    cancel: &'a AtomicBool,
    caught: Mutex<Option<PyErr>>,
}

impl<'a> Interrupt<'a> {
    /// Watches for Ctrl-C on behalf of the searches that `cancel` stops.
    pub fn new(cancel: &'a AtomicBool) -> Interrupt<'a> {
        Interrupt {
            cancel,
            caught: Mutex::new(None),
        }
    }

    /// The progress callback.
    pub fn check(&self, _: &Progress) {
        Python::attach(|py| {
            if let Err(e) = py.check_signals() {
                *self.caught.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                self.cancel.store(true, Ordering::Relaxed);
            }
        })
    }

    /// The exception of a signal caught since the last call, if any.
    pub fn take(&self) -> Option<PyErr> {
        self.caught.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}
