//! Ctrl-C: the first one stops the searches under way, so the command prints what it has
//! (statistics so far, results so far) and exits 3 with `stopped_by: "interrupted"`; a
//! second one ends the program at once (exit 130, the shell's code for SIGINT; `pdb build`
//! exits 2 with one line, as for its first Ctrl-C). Either way, a table being saved is not
//! left half written: its temporary file is removed first.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use npuzzle::{Solution, SolveError, StopReason};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The cancel flags of the searches that may be running; raised together on Ctrl-C.
static FLAGS: Mutex<Vec<Weak<AtomicBool>>> = Mutex::new(Vec::new());
/// The cache directory tables are saved to, whose temporary files of this process a second
/// Ctrl-C removes before exiting.
static CACHE_DIR: OnceLock<PathBuf> = OnceLock::new();
/// Whether the program's last line (its error) was written: by `main`, or by a second
/// Ctrl-C exiting at once; only one of them writes it.
static SPOKEN: AtomicBool = AtomicBool::new(false);

/// Names the cache directory whose temporary files a second Ctrl-C removes.
pub fn clean_up_on_exit(dir: Option<&std::path::Path>) {
    if let Some(dir) = dir {
        let _ = CACHE_DIR.set(dir.to_path_buf());
    }
}

/// Whether the caller may write the program's last line: true once, for whoever asks first
/// (`main`'s error, or a second Ctrl-C), so a race between them gives one line, not two.
pub fn may_speak_last() -> bool {
    !SPOKEN.swap(true, Ordering::SeqCst)
}

/// Takes over Ctrl-C for this process (once; later calls do nothing).
pub fn install() {
    install_with(true);
}

/// As [`install`], but the first Ctrl-C says nothing: for a command that stops at once and
/// says in one line itself what was stopped (`pdb build`).
pub fn install_quiet() {
    install_with(false);
}

fn install_with(announce: bool) {
    // `ctrlc` runs the handler on its own thread, not in the signal handler itself, so
    // taking a lock here is safe.
    let _ = ctrlc::set_handler(move || {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // A save under way would leave its temporary file behind: exiting skips its
            // clean-up (issue 25: a second Ctrl-C during `pdb build`'s save).
            if let Some(dir) = CACHE_DIR.get() {
                npuzzle::heuristic::pdb::store::close_saves(dir);
            }
            if announce {
                crate::errln!("\ninterrupted twice: exiting at once");
                std::process::exit(130);
            }
            if may_speak_last() {
                crate::errln!(
                    "error: interrupted twice: stopped at once; no table was left half written"
                );
            }
            std::process::exit(2);
        }
        if announce {
            crate::errln!("\ninterrupted: stopping (Ctrl-C again to exit at once)");
        }
        for flag in FLAGS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            if let Some(flag) = flag.upgrade() {
                flag.store(true, Ordering::SeqCst);
            }
        }
    });
}

/// A cancel flag for a search (or a run of searches) that Ctrl-C raises.
pub fn cancel_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(interrupted()));
    let mut flags = FLAGS.lock().unwrap_or_else(|e| e.into_inner());
    flags.retain(|f| f.strong_count() > 0);
    flags.push(Arc::downgrade(&flag));
    flag
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Names a search that Ctrl-C cancelled `interrupted` (a cancelled search has no other
/// cause in the command line; `cancelled` stays for web clients that go away).
pub fn relabel(result: &mut Result<Solution, SolveError>) {
    if let Ok(s) = result {
        if s.stopped_by == Some(StopReason::Cancelled) && interrupted() {
            s.stopped_by = Some(StopReason::Interrupted);
        }
    }
}
