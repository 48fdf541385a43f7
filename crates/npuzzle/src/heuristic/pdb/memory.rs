//! Table memory: large tables live on transparent huge pages where the system offers them.
//!
//! IDA* looks up two random entries of a 260 MB table per node. With 4 KB pages nearly
//! every lookup also misses the TLB and walks the page tables; with 2 MB pages the whole
//! table fits the TLB's reach. Linux gives huge pages to anonymous mappings that ask for
//! them (`madvise(MADV_HUGEPAGE)`, through `memmap2`'s safe wrapper); elsewhere, or if the
//! mapping fails, a plain `Vec` serves.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Tables smaller than this stay in a `Vec`.
const HUGE_PAGE_THRESHOLD: usize = 8 << 20;

/// Zero-initialised bytes, on huge pages when large and possible.
pub struct TableMemory(Inner);

enum Inner {
    Heap(Vec<u8>),
    Mapped(memmap2::MmapMut),
}

impl TableMemory {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> TableMemory {
        if len >= HUGE_PAGE_THRESHOLD {
            if let Ok(map) = memmap2::MmapMut::map_anon(len) {
                #[cfg(target_os = "linux")]
                {
                    // Only a hint: without huge pages the table still works.
                    let _ = map.advise(memmap2::Advice::HugePage);
                }
                return TableMemory(Inner::Mapped(map));
            }
        }
        TableMemory(Inner::Heap(vec![0; len]))
    }

    /// A copy of `bytes`.
    pub fn copy_of(bytes: &[u8]) -> TableMemory {
        let mut m = TableMemory::zeroed(bytes.len());
        m.copy_from_slice(bytes);
        m
    }
}

impl Deref for TableMemory {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Inner::Heap(v) => v,
            Inner::Mapped(m) => m,
        }
    }
}

impl DerefMut for TableMemory {
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Inner::Heap(v) => v,
            Inner::Mapped(m) => m,
        }
    }
}

impl Clone for TableMemory {
    fn clone(&self) -> TableMemory {
        TableMemory::copy_of(self)
    }
}

impl PartialEq for TableMemory {
    fn eq(&self, other: &TableMemory) -> bool {
        self[..] == other[..]
    }
}

impl Eq for TableMemory {}

impl fmt::Debug for TableMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TableMemory({} bytes)", self.len())
    }
}

/// Zero-initialised `u64` words, on huge pages when large and possible (the builder's state
/// array).
pub enum WordMemory {
    /// A small or unmappable array.
    Heap(Vec<u64>),
    /// A page-aligned mapping, viewed as words.
    Mapped(memmap2::MmapMut),
}

impl WordMemory {
    /// `len` zero words.
    pub fn zeroed(len: usize) -> WordMemory {
        match TableMemory::zeroed(len * 8).0 {
            Inner::Mapped(m) => WordMemory::Mapped(m),
            Inner::Heap(_) => WordMemory::Heap(vec![0; len]),
        }
    }

    /// The words.
    #[inline]
    pub fn words(&mut self) -> &mut [u64] {
        match self {
            WordMemory::Heap(v) => v,
            // A mapping starts on a page boundary, so the cast never fails.
            WordMemory::Mapped(m) => bytemuck::cast_slice_mut(&mut m[..]),
        }
    }
}
