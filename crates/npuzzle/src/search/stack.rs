//! Stacks for deep searches: every move of a depth-first search (IDA*, weighted IDA*) is a
//! frame of its recursion, so a search capped at a depth ([`Control::depth_cap`]) gets a
//! stack to match.
//!
//! [`Control::depth_cap`]: super::Control::depth_cap

/// Depths up to which a search recurses on the caller's own stack: a few hundred bytes a
/// move fit the 2 MB of a worker thread's stack many times over.
const SHALLOW: u32 = 1_000;

/// Stack bytes allowed a move of a depth-first search: its frames take a few hundred.
const FRAME_BYTES: usize = 1 << 10;

/// Runs `search`, whose recursion goes at most `depth_cap` moves deep, on a thread with a
/// stack to match when that is deeper than a thousand moves (the stack of the caller's thread,
/// a worker's or Python's, may be small); on the caller's thread otherwise.
pub fn with_stack_for<T: Send>(depth_cap: Option<u32>, search: impl FnOnce() -> T + Send) -> T {
    match depth_cap {
        Some(depth) if depth > SHALLOW => std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("npuzzle-deep-search".into())
                .stack_size((1 << 20) + depth as usize * FRAME_BYTES)
                .spawn_scoped(s, search)
                .expect("a thread for a deep search")
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        }),
        _ => search(),
    }
}
