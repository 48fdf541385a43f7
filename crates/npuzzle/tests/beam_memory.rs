//! A beam search keeps within the memory limit it is given: the most bytes the process
//! holds while the search runs, counted by an instrumented allocator (this test binary's
//! global allocator), stay below the limit. Before, the beam guessed its hash tables' and
//! buffers' sizes and held up to 1.6 times its limit (471 MB under `--memory-limit 300` on
//! a 7x7 board).

use std::alloc::System;

use npuzzle::search::{Control, Limits};
use npuzzle::{generate, solve, Algorithm, GoalSpec, SolveOptions, StopReason, Tables};
use peakmem_alloc::{PeakMemAlloc, PeakMemAllocTrait, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Room for what a solve holds besides the beam: the board, the constructive path that
/// caps the beam's depth, linear conflict's rows.
const OTHER_BYTES: usize = 1 << 20;

#[test]
fn a_beam_holds_no_more_than_its_memory_limit() {
    // One test in this binary, so no other thread allocates meanwhile.
    for (size, mb) in [("5x5", 8usize), ("6x6", 24), ("7x7", 40), ("4x9", 16)] {
        let goal = GoalSpec::Standard.board(size.parse().unwrap()).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(3));
        let options = SolveOptions {
            algorithm: Algorithm::Beam,
            width: 10_000_000,
            ..SolveOptions::default()
        };
        let limit = mb << 20;
        let control = Control {
            limits: Limits {
                memory_bytes: Some(limit as u64),
                ..Limits::default()
            },
            ..Control::default()
        };
        let tables = Tables::default();
        GLOBAL.reset_peak_memory();
        let s = solve(&start, &goal, &options, &tables, control).unwrap();
        let peak = GLOBAL.get_peak_memory();
        assert_eq!(s.stopped_by, Some(StopReason::Memory), "{size}");
        assert!(
            peak <= limit + OTHER_BYTES,
            "{size}: held {peak} bytes under a limit of {limit}"
        );
        // The limit binds, and not much too soon: a depth holds at most about three times
        // what the one before held, so the beam stopped above a quarter of its limit.
        assert!(peak > limit / 4, "{size}: {peak} of {limit}");
    }
}
