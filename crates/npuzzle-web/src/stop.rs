//! Ending a streamed solve early and keeping its answer: `POST /api/solve/stop`.
//!
//! Closing a stream's connection cancels its search and loses the answer. The anytime
//! engine has an answer from its first milliseconds and spends the rest of its budget
//! improving it (ten seconds on a 10×10 board for a few moves fewer), so the page offers
//! "Use this answer": the stream's `started` line carries an id, and a stop request with
//! that id raises the search's cancel flag while the stream stays open. The engine then
//! returns the best answer it has, which ends the stream as usual (with
//! `stopped_by: "cancelled"`).

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// The running streamed searches that a stop request may end, by id.
#[derive(Clone, Default)]
pub(crate) struct Stops(Arc<Mutex<HashMap<String, Weak<AtomicBool>>>>);

/// A search's entry in [`Stops`], removed when dropped (when the search ends).
pub(crate) struct Entry {
    stops: Stops,
    id: String,
}

impl Entry {
    /// The id a stop request names.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }
}

impl Drop for Entry {
    fn drop(&mut self) {
        self.stops.lock().remove(&self.id);
    }
}

impl Stops {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Weak<AtomicBool>>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Registers a search's cancel flag under a fresh id that nobody can guess (128 bits
    /// from the standard library's randomly keyed SipHash: another client cannot stop this
    /// one's search).
    pub(crate) fn register(&self, flag: &Arc<AtomicBool>) -> Entry {
        let random = || RandomState::new().hash_one(std::time::Instant::now());
        let id = format!("{:016x}{:016x}", random(), random());
        self.lock().insert(id.clone(), Arc::downgrade(flag));
        Entry {
            stops: self.clone(),
            id,
        }
    }

    /// Stops the search registered as `id`; whether there was one still running.
    pub(crate) fn stop(&self, id: &str) -> bool {
        match self.lock().get(id).and_then(Weak::upgrade) {
            Some(flag) => {
                flag.store(true, Ordering::SeqCst);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_raises_the_flag_of_its_search_only_while_it_runs() {
        let stops = Stops::default();
        let (a, b) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );
        let (ea, eb) = (stops.register(&a), stops.register(&b));
        assert_ne!(ea.id(), eb.id());
        assert_eq!(ea.id().len(), 32);
        assert!(stops.stop(ea.id()));
        assert!(a.load(Ordering::SeqCst) && !b.load(Ordering::SeqCst));
        assert!(!stops.stop("0123"));
        let id = eb.id().to_string();
        drop(eb);
        assert!(!stops.stop(&id));
        assert!(!b.load(Ordering::SeqCst));
    }
}
