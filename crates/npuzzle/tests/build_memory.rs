//! A pattern database's build holds no more memory than the peak `build_size` states
//! before it starts (the line `npuzzle pdb build` prints), and not much less: the most
//! bytes held while it runs, counted by an instrumented allocator (this test binary's
//! global allocator). Before, a table that keeps the blank's region held its rows' slots
//! beyond the stated peak. (`pdb_peak.rs` checks the resident memory, within a tenth.)

use std::alloc::System;

use npuzzle::heuristic::pdb::{self, build_size, Partition};
use npuzzle::heuristic::Tables;
use npuzzle::Shape;
use peakmem_alloc::{PeakMemAlloc, PeakMemAllocTrait, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Room for what a build holds besides its own work: the progress closure, the table's
/// handle in the memory cache.
const OTHER_BYTES: usize = 64 << 10;

#[test]
fn a_build_holds_no_more_than_its_stated_peak() {
    // One test in this binary, so no other thread allocates meanwhile.
    // Tables whose every block is under 8 MB: larger ones are mapped from the system
    // directly (`TableMemory`), out of the allocator's sight.
    let cases = [
        ("5x5", vec![5, 5, 5, 5, 4]),
        ("4x4", vec![5, 5, 5]),
        ("3x4", vec![6, 5]),
        ("6x6", vec![4, 4, 4, 4, 4, 4, 4, 4, 3]),
    ];
    for (size, sizes) in cases {
        let shape: Shape = size.parse().unwrap();
        for regions in [false, true] {
            let partition = Partition::new(shape, shape.cells() - 1, &sizes)
                .and_then(|p| p.with_regions(regions))
                .unwrap();
            let key = partition.keys().remove(0);
            let stated = build_size(&key).peak_bytes as usize;
            let tables = Tables::default();
            GLOBAL.reset_peak_memory();
            let before = GLOBAL.get_peak_memory();
            tables.pattern(&key, &mut pdb::keep_going).unwrap();
            let held = GLOBAL.get_peak_memory() - before;
            assert!(
                held <= stated + OTHER_BYTES,
                "{size} {sizes:?} regions {regions}: held {held} bytes, stated {stated}"
            );
            // Not a bound so loose that it says nothing.
            assert!(
                stated <= held + held / 4,
                "{size} {sizes:?} regions {regions}: held {held} bytes, stated {stated}"
            );
        }
    }
}
