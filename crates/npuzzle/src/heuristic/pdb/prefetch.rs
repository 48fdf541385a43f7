//! Software prefetch of table entries: the one place this crate uses `unsafe`.
//!
//! IDA* over pattern databases waits on memory: each child's lookup is a random read of a
//! table of up to 260 MB, almost always a cache miss. Reading the entries of all of a node's
//! children before evaluating the first lets their misses overlap. A plain early read does
//! not: the processor retires instructions in order, so the first miss still stalls it. A
//! prefetch instruction is only a hint, which retires at once.

use super::index::MovedRow;

/// Hints that `data[i]` will be read soon. Out-of-range indices are ignored.
#[inline(always)]
pub(super) fn prefetch(data: &[u8], i: usize) {
    if let Some(byte) = data.get(i) {
        hint(byte);
    }
}

/// Hints that `data[i]` will be read soon, for any slice (IDA*'s pruning automaton).
/// Out-of-range indices are ignored.
#[inline(always)]
pub(crate) fn prefetch_any<T>(data: &[T], i: usize) {
    if let Some(value) = data.get(i) {
        hint(value);
    }
}

/// Hints that the row will be read soon: its two cache lines.
#[inline(always)]
pub(super) fn prefetch_row(row: &MovedRow) {
    let half = row.0.len() / 2;
    hint(&row.0[0]);
    hint(&row.0[half]);
}

/// The prefetch instruction for the cache line holding `value`.
#[inline(always)]
fn hint<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        // `_mm_prefetch` is a safe function that needs the `sse` target feature, which every
        // x86-64 processor has; Rust still asks for `unsafe` to call it from a function not
        // marked with the feature.
        // SAFETY: `sse` is part of the x86-64 baseline. The address is that of a live value; a prefetch never faults, writes nothing and reads nothing into the program.
        #[allow(unsafe_code)]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
