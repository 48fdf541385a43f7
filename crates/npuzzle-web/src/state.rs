//! The server's shared state: its limits and the slots that bound concurrent searches.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use npuzzle::{TablePolicy, Tables};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::AppError;

/// The server's limits. [`Config::default`] suits a laptop in a classroom.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Largest request body, in bytes.
    pub max_body_bytes: usize,
    /// Longest side of a board, in tiles.
    pub max_side: usize,
    /// Longest a search may run, in wall-clock time (a request may ask for less).
    pub time_limit: Duration,
    /// Most nodes a request may ask a search to generate (`max_nodes`). One that asks for
    /// no node limit has none: the time limit bounds every search.
    pub max_nodes: u64,
    /// Memory one search may use, in bytes: its open and closed lists, and the tables its
    /// plan uses with the memory building them (a plan over it stops before any is built).
    pub memory_bytes: u64,
    /// Searches running at once; further requests wait in a queue.
    pub max_concurrent_solves: usize,
    /// Requests that may wait for a search slot; past this they get 503 at once.
    pub max_queued: usize,
    /// Longest a request waits for a slot before it gets 503.
    pub queue_timeout: Duration,
    /// Most expansions a trace may record.
    pub max_trace: usize,
    /// Most heuristics one comparison may run.
    pub max_compare: usize,
    /// Short attempts of cheap requests running at once (see `Job::quick`), on a pool of
    /// their own so they never wait behind long searches.
    pub max_quick_solves: usize,
    /// Longest a client may take to send a request's head (and longest an idle kept-alive
    /// connection stays open); the connection is then closed.
    pub header_timeout: Duration,
    /// Longest a client may take to send a request's body; the request then fails.
    pub body_timeout: Duration,
    /// Connections open at once. A connection past it takes the place of an idle one
    /// (no request in flight) of the client holding the most, or is closed at once when
    /// that client's are all busy.
    pub max_connections: usize,
    /// Connections one client (an IPv4 address, an IPv6 /64 network) may hold at once; a
    /// client past it loses its least recently active idle connection to the new one.
    pub max_connections_per_client: usize,
    /// Origins (`http://host:port`) besides the server's own whose pages may call the API.
    pub allowed_origins: Vec<String>,
    /// Host names besides `localhost`, loopback addresses and the address listened on
    /// that requests may name in `Host` (a name for the machine in a classroom, say).
    pub allowed_hosts: Vec<String>,
    /// The address the server listens on (set by [`crate::serve`]).
    pub local_addr: Option<SocketAddr>,
    /// Bytes of pattern databases and exact tables kept in memory; past it the least
    /// recently used are dropped.
    pub table_memory_bytes: u64,
    /// The most table entries one request may have built (tables already in memory or in
    /// the cache directory cost nothing); larger plans are refused with a 400.
    pub max_build_entries: u64,
    /// Whether tables built for requests are written to the cache directory.
    pub save_tables: bool,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            max_body_bytes: 64 * 1024,
            max_side: 10,
            time_limit: Duration::from_secs(10),
            max_nodes: 200_000_000,
            memory_bytes: 512 << 20,
            max_concurrent_solves: cores.max(2),
            max_queued: 1024,
            queue_timeout: Duration::from_secs(10),
            max_trace: 500,
            max_compare: 8,
            max_quick_solves: cores.max(2),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 1024,
            max_connections_per_client: 256,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            local_addr: None,
            table_memory_bytes: 1 << 30,
            // About a second of building: the tables `auto` builds on its own.
            max_build_entries: npuzzle::plan::AUTO_BUILD_ENTRIES,
            save_tables: false,
        }
    }
}

impl Config {
    /// What requests may do with tables.
    pub fn table_policy(&self) -> TablePolicy {
        TablePolicy {
            max_build_entries: self.max_build_entries,
            save: self.save_tables,
            memory_budget: Some(self.table_memory_bytes),
        }
    }
}

/// State shared by every request: the configuration and the search slots.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    config: Config,
    tables: Tables,
    slots: Arc<Semaphore>,
    quick: Arc<Semaphore>,
    waiting: AtomicUsize,
    active: AtomicUsize,
}

impl AppState {
    /// State for a server with these limits and tables cached in `cache_dir` (`None`:
    /// memory only), held under the configuration's table policy.
    pub fn new(config: Config, cache_dir: Option<PathBuf>) -> AppState {
        // A semaphore panics above `Semaphore::MAX_PERMITS`; `serve` refuses such numbers
        // with a clear message, and this bound keeps library callers safe too.
        let permits = |n: usize| n.clamp(1, 1 << 20);
        let slots = Arc::new(Semaphore::new(permits(config.max_concurrent_solves)));
        let quick = Arc::new(Semaphore::new(permits(config.max_quick_solves)));
        let tables = Tables::new(cache_dir, config.table_policy());
        AppState(Arc::new(Shared {
            config,
            tables,
            slots,
            quick,
            waiting: AtomicUsize::new(0),
            active: AtomicUsize::new(0),
        }))
    }

    /// The limits.
    pub fn config(&self) -> &Config {
        &self.0.config
    }

    /// The server's tables.
    pub fn tables(&self) -> &Tables {
        &self.0.tables
    }

    /// Searches running now (including ones cancelled but not yet stopped).
    pub fn active_searches(&self) -> usize {
        self.0.active.load(Ordering::SeqCst)
    }

    /// Requests waiting for a search slot now.
    pub fn waiting(&self) -> usize {
        self.0.waiting.load(Ordering::SeqCst)
    }

    /// A search slot if one is free now, without waiting.
    pub(crate) fn try_slot(&self) -> Option<OwnedSemaphorePermit> {
        self.0.slots.clone().try_acquire_owned().ok()
    }

    /// Waits for a search slot.
    ///
    /// # Errors
    /// [`AppError::Busy`] when the queue is full or the wait exceeds the queue timeout.
    pub(crate) async fn slot(&self) -> Result<OwnedSemaphorePermit, AppError> {
        self.permit(&self.0.slots).await
    }

    /// Waits for a slot of the quick pool (short attempts), which long searches never hold.
    ///
    /// # Errors
    /// As [`AppState::slot`].
    pub(crate) async fn quick_slot(&self) -> Result<OwnedSemaphorePermit, AppError> {
        self.permit(&self.0.quick).await
    }

    async fn permit(&self, pool: &Arc<Semaphore>) -> Result<OwnedSemaphorePermit, AppError> {
        if let Ok(permit) = pool.clone().try_acquire_owned() {
            return Ok(permit);
        }
        self.line_up(pool)?.slot().await
    }

    /// A place in the line for a search slot, counted in [`AppState::waiting`] from now
    /// until it gets its slot or is dropped. Taking the place before saying "waiting" keeps
    /// the count and the words in step.
    ///
    /// # Errors
    /// [`AppError::Busy`] when the line is full.
    pub(crate) fn line_up_for_slot(&self) -> Result<Place, AppError> {
        self.line_up(&self.0.slots)
    }

    fn line_up(&self, pool: &Arc<Semaphore>) -> Result<Place, AppError> {
        let ahead = self.0.waiting.fetch_add(1, Ordering::SeqCst);
        // Built before the check, so a refused request leaves the line as it joined it.
        let place = Place {
            state: self.clone(),
            pool: Arc::clone(pool),
            ahead,
        };
        if ahead >= self.0.config.max_queued {
            return Err(AppError::Busy);
        }
        Ok(place)
    }

    /// Runs a search on the blocking pool once a slot is free. If the request goes away
    /// (the client disconnected and the server dropped this future), the job's cancel flag is
    /// set so the search stops at its next check; the slot stays taken until it has.
    ///
    /// # Errors
    /// [`AppError::Busy`] when no slot frees up in time, [`AppError::Internal`] if the job
    /// panicked.
    pub(crate) async fn search<T, F>(&self, job: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let permit = self.slot().await?;
        self.run_blocking(permit, Priority::Low, CancelOnDrop::new(), job)
            .await
    }

    /// As [`AppState::search`], on the quick pool: for the short first attempts of cheap
    /// requests (see `Job::quick`), which must never run on the threads that answer HTTP
    /// requests. The job's cancel flag is also set once it has run for `within`, counted
    /// from when it starts on its thread: on a busy machine a thread may come more than
    /// `within` after it was asked for, and a timer started then cancelled the job before
    /// its first node (CI saw the hardest 8-puzzle wait 8 s for a search slot). The second
    /// value says whether the timer went off before the job ended (its answer may then be
    /// cut short). A timer rather than a time limit, because a time limit is a budget to
    /// the anytime engine and would change what it does, not only when it stops.
    ///
    /// # Errors
    /// As [`AppState::search`].
    pub(crate) async fn quick<T, F>(&self, within: Duration, job: F) -> Result<(T, bool), AppError>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let permit = self.quick_slot().await?;
        let cancel = CancelOnDrop::new();
        let flag = cancel.flag();
        let (started, on_start) = tokio::sync::oneshot::channel::<()>();
        let timer = tokio::spawn(async move {
            // (An error: the job never ran, and its result says so.)
            if on_start.await.is_ok() {
                tokio::time::sleep(within).await;
                flag.store(true, Ordering::SeqCst);
            }
        });
        let job = move |cancel: &AtomicBool| {
            let _ = started.send(());
            job(cancel)
        };
        let out = self
            .run_blocking(permit, Priority::Normal, cancel, job)
            .await;
        let late = timer.is_finished();
        timer.abort();
        Ok((out?, late))
    }

    async fn run_blocking<T, F>(
        &self,
        permit: OwnedSemaphorePermit,
        priority: Priority,
        cancel: CancelOnDrop,
        job: F,
    ) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let flag = cancel.flag();
        let running = self.running();
        let job = spawn_job(priority, move || {
            let _slot = permit;
            let _running = running;
            job(&flag)
        });
        let out = job.await.map_err(|_| AppError::Internal);
        drop(cancel);
        out
    }

    /// Counts a search as active until the returned guard is dropped.
    pub(crate) fn running(&self) -> Running {
        self.0.active.fetch_add(1, Ordering::SeqCst);
        Running(self.clone())
    }
}

/// Counts one running search; dropping it uncounts.
pub(crate) struct Running(AppState);

impl Drop for Running {
    fn drop(&mut self) {
        self.0 .0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A request's place in the line for a slot (see [`AppState::line_up_for_slot`]); it leaves
/// the line when dropped.
#[derive(Debug)]
pub(crate) struct Place {
    state: AppState,
    pool: Arc<Semaphore>,
    ahead: usize,
}

impl Place {
    /// Requests that were waiting when this one joined the line.
    pub(crate) fn ahead(&self) -> usize {
        self.ahead
    }

    /// Waits for the slot, at most the queue timeout.
    ///
    /// # Errors
    /// [`AppError::Busy`] when the wait exceeds the queue timeout.
    pub(crate) async fn slot(self) -> Result<OwnedSemaphorePermit, AppError> {
        let timeout = self.state.0.config.queue_timeout;
        tokio::time::timeout(timeout, self.pool.clone().acquire_owned())
            .await
            .map_err(|_| AppError::Busy)?
            .map_err(|_| AppError::Internal)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.state.0.waiting.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Sets a search's cancel flag when dropped: held by the request (or its response stream), so
/// a client that goes away stops its search.
#[derive(Debug)]
pub(crate) struct CancelOnDrop(Arc<AtomicBool>);

impl CancelOnDrop {
    pub(crate) fn new() -> CancelOnDrop {
        CancelOnDrop(Arc::new(AtomicBool::new(false)))
    }

    /// The flag the search polls.
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// The CPU priority a job runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Priority {
    /// Short first attempts: as the threads that answer HTTP requests.
    Normal,
    /// Long searches: below everything else, so that on a machine with as many long
    /// searches as cores, the threads answering requests and the quick pool still get the
    /// CPU at once (measured: the 8-puzzles' p99 under load rose from 24 ms to 190 ms
    /// when two long searches took both cores at equal priority).
    Low,
}

/// How much lower a long search's priority is (a `nice` value).
const LOW_PRIORITY_NICENESS: i32 = 10;

/// Runs `job` on a thread of the blocking pool (normal priority) or on a thread of its own
/// at a low priority (a thread's priority cannot be raised back without privileges, so
/// low-priority jobs never borrow the shared pool's threads). The receiver errs if the job
/// panicked or no thread could be started.
pub(crate) fn spawn_job<T, F>(priority: Priority, job: F) -> tokio::sync::oneshot::Receiver<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (tx, rx) = tokio::sync::oneshot::channel();
    match priority {
        Priority::Normal => {
            tokio::task::spawn_blocking(move || {
                let _ = tx.send(job());
            });
        }
        Priority::Low => {
            // If no thread can be started, `tx` is dropped with the closure and the
            // receiver reports the failure.
            let _ = std::thread::Builder::new()
                .name("npuzzle-search".into())
                .spawn(move || {
                    // On Linux this lowers the calling thread only. Elsewhere, or if it
                    // fails, the search runs at normal priority.
                    #[cfg(target_os = "linux")]
                    let _ = rustix::process::setpriority_process(None, LOW_PRIORITY_NICENESS);
                    let _ = tx.send(job());
                });
        }
    }
    rx
}
