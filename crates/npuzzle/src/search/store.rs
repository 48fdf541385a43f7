//! The node arena and closed table shared by A* and BFS, with memory accounting.

use std::mem::size_of;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use super::keys::StateKey;
use super::StopReason;
use crate::moves::Move;

/// No parent (the root).
pub(crate) const ROOT: u32 = u32::MAX;

/// A stored state.
pub(crate) struct Node<K> {
    pub key: K,
    pub g: u32,
    pub parent: u32,
    /// The move from the parent.
    pub step: Option<Move>,
    /// Heuristic value, kept so a re-opened node needs no re-evaluation.
    pub h: f32,
}

/// All states seen so far, by index, with a table from state to index.
pub(crate) struct NodeStore<K: StateKey> {
    pub nodes: Vec<Node<K>>,
    pub index: FxHashMap<K, u32>,
    /// How long the last growth of the nodes, the index and the open list took.
    growth: Growth,
}

/// How long each table's last growth took. A table doubles when it grows, so its next
/// growth takes about twice as long: a rehash of a 2 GB index takes half a second, which a
/// search that checks the clock only between nodes would spend past its time limit.
#[derive(Default)]
struct Growth {
    nodes: Duration,
    index: Duration,
    open: Duration,
}

impl<K: StateKey> NodeStore<K> {
    pub fn new() -> Self {
        NodeStore {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            growth: Growth::default(),
        }
    }

    /// Makes room for one more node and one more open entry, growing any table that is
    /// full **before** it grows by itself, and only if the memory that growth needs fits in
    /// `limit` ([`StopReason::Memory`] otherwise) and the time it should take (twice what
    /// that table's last growth took) ends before `deadline` ([`StopReason::Time`]). Grows
    /// nothing when it returns an error.
    ///
    /// The bytes counted are the tables' real capacities (what the allocator handed out),
    /// and while a table grows its old buffer is counted too: a hash table rehashes into a
    /// new allocation before freeing the old one, so that is the moment memory peaks.
    pub fn make_room<O: OpenList>(
        &mut self,
        open: &mut O,
        limit: Option<u64>,
        deadline: Option<Instant>,
    ) -> Result<(), StopReason> {
        let node_bytes = size_of::<Node<K>>() as u64;
        let nodes_full = self.nodes.len() == self.nodes.capacity();
        let index_full = self.index.len() == self.index.capacity();
        let open_full = open.len() == open.capacity();
        let growing = nodes_full || index_full || open_full;
        if let Some(deadline) = deadline.filter(|_| growing) {
            let left = deadline.saturating_duration_since(Instant::now());
            let expected = [
                (nodes_full, self.growth.nodes),
                (index_full, self.growth.index),
                (open_full, self.growth.open),
            ]
            .into_iter()
            .filter(|&(full, _)| full)
            .map(|(_, last)| last * 2)
            .sum::<Duration>();
            if expected > left {
                return Err(StopReason::Time);
            }
        }
        if let Some(limit) = limit {
            let nodes_cap = if nodes_full {
                grown(self.nodes.capacity())
            } else {
                self.nodes.capacity()
            };
            let index_cap = if index_full {
                grown(self.index.capacity())
            } else {
                self.index.capacity()
            };
            let open_cap = if open_full {
                grown(open.capacity())
            } else {
                open.capacity()
            };
            let mut peak = nodes_cap as u64 * node_bytes
                + index_bytes::<K>(index_cap)
                + open_cap as u64 * O::ENTRY_BYTES;
            // The buffers a growing table is moving out of.
            if nodes_full {
                peak += self.nodes.capacity() as u64 * node_bytes;
            }
            if index_full {
                peak += index_bytes::<K>(self.index.capacity());
            }
            if open_full {
                peak += open.capacity() as u64 * O::ENTRY_BYTES;
            }
            if peak > limit {
                return Err(StopReason::Memory);
            }
        }
        if nodes_full {
            let began = Instant::now();
            let cap = grown(self.nodes.capacity());
            self.nodes.reserve_exact(cap - self.nodes.len());
            self.growth.nodes = began.elapsed();
        }
        if index_full {
            let began = Instant::now();
            self.index.reserve(1);
            self.growth.index = began.elapsed();
        }
        if open_full {
            let began = Instant::now();
            open.reserve_to(grown(open.capacity()));
            self.growth.open = began.elapsed();
        }
        Ok(())
    }

    /// Bytes the store and `open` hold now, from their real capacities.
    #[cfg(test)]
    pub fn bytes<O: OpenList>(&self, open: &O) -> u64 {
        self.nodes.capacity() as u64 * size_of::<Node<K>>() as u64
            + index_bytes::<K>(self.index.capacity())
            + open.capacity() as u64 * O::ENTRY_BYTES
    }

    /// Adds a new state and returns its index.
    pub fn insert(&mut self, node: Node<K>) -> u32 {
        let i = self.nodes.len() as u32;
        self.index.insert(node.key.clone(), i);
        self.nodes.push(node);
        i
    }

    /// The moves from the root to node `i`.
    pub fn path_to(&self, mut i: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        while let Some(step) = self.nodes[i as usize].step {
            moves.push(step);
            i = self.nodes[i as usize].parent;
        }
        moves.reverse();
        moves
    }
}

/// The capacity a full table grows to: double, at least 4 (what `Vec`, `VecDeque` and
/// hashbrown's tables do; [`NodeStore::make_room`] grows them itself, so this is exact for
/// `Vec` and `VecDeque`, and for the hash table see [`index_bytes`]).
fn grown(capacity: usize) -> usize {
    (capacity * 2).max(4)
}

/// Bytes of the index (`FxHashMap<K, u32>`) whose `capacity()` is `capacity`.
/// (Hash tables round a requested capacity up, so a grown table's capacity is at least
/// `grown(capacity)` items; the bucket count is the next power of two that holds it.)
fn index_bytes<K>(capacity: usize) -> u64 {
    hash_table_bytes::<(K, u32)>(capacity)
}

/// Bytes of a hash table (hashbrown, as in `FxHashMap` and `FxHashSet`) of `T` entries
/// whose `capacity()` is `capacity`: its buckets hold a `T` with padding and one control
/// byte each, plus a group of trailing control bytes. Tables of 8 buckets or more hold 7/8
/// of their buckets.
pub(super) fn hash_table_bytes<T>(capacity: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    let buckets = if capacity < 8 {
        (capacity + 1).next_power_of_two()
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    (buckets * (size_of::<T>() + 1) + 16) as u64
}

/// An open list whose growth [`NodeStore::make_room`] controls.
pub(crate) trait OpenList {
    /// Bytes of one entry.
    const ENTRY_BYTES: u64;
    fn len(&self) -> usize;
    fn capacity(&self) -> usize;
    /// Grows the capacity to `capacity` entries.
    fn reserve_to(&mut self, capacity: usize);
}

impl<T> OpenList for std::collections::VecDeque<T> {
    const ENTRY_BYTES: u64 = size_of::<T>() as u64;
    fn len(&self) -> usize {
        self.len()
    }
    fn capacity(&self) -> usize {
        self.capacity()
    }
    fn reserve_to(&mut self, capacity: usize) {
        self.reserve_exact(capacity.saturating_sub(self.len()));
    }
}

impl<T: Ord> OpenList for std::collections::BinaryHeap<T> {
    const ENTRY_BYTES: u64 = size_of::<T>() as u64;
    fn len(&self) -> usize {
        self.len()
    }
    fn capacity(&self) -> usize {
        self.capacity()
    }
    fn reserve_to(&mut self, capacity: usize) {
        self.reserve_exact(capacity.saturating_sub(self.len()));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;

    fn node<K>(key: K) -> Node<K> {
        Node {
            key,
            g: 0,
            parent: ROOT,
            step: None,
            h: 0.0,
        }
    }

    /// Bytes a hashbrown table of this capacity really holds, from its bucket count (which
    /// hashbrown reports only through `capacity`).
    fn real_index_bytes<K>(capacity: usize) -> u64 {
        index_bytes::<K>(capacity)
    }

    fn fill<K: StateKey>(key: impl Fn(u64) -> K, limit: u64) -> (u64, u64, usize) {
        let mut store = NodeStore::<K>::new();
        let mut open: VecDeque<u32> = VecDeque::new();
        let mut peak = 0;
        let mut i = 0u64;
        while store.make_room(&mut open, Some(limit), None).is_ok() {
            // Growth happened in `make_room` only: inserting must not move any table.
            let (nodes_cap, index_cap, open_cap) = (
                store.nodes.capacity(),
                store.index.capacity(),
                open.capacity(),
            );
            let n = store.insert(node(key(i)));
            open.push_back(n);
            assert_eq!(
                store.nodes.capacity(),
                nodes_cap,
                "nodes grew by themselves"
            );
            assert_eq!(
                store.index.capacity(),
                index_cap,
                "index grew by themselves"
            );
            assert_eq!(open.capacity(), open_cap, "open list grew by itself");
            peak = peak.max(store.bytes(&open));
            i += 1;
        }
        // The accounted bytes are the real ones: every capacity is a real capacity, and the
        // hash table's buckets follow from its capacity.
        let real = store.nodes.capacity() as u64 * size_of::<Node<K>>() as u64
            + real_index_bytes::<K>(store.index.capacity())
            + open.capacity() as u64 * 4;
        assert_eq!(store.bytes(&open), real);
        (peak, limit, store.nodes.len())
    }

    /// Regression (an outside check): A* on a 12×12 board with `--time-limit 3` ran for
    /// 3.54 s. Its index was full just before the limit, and the rehash into a 2 GB table
    /// took half a second, with no look at the clock until it was done.
    #[test]
    fn a_growth_that_would_pass_the_deadline_is_not_started() {
        let mut store = NodeStore::<u64>::new();
        let mut open: VecDeque<u32> = VecDeque::new();
        let mut key = 0;
        while key < 1000 || store.index.len() < store.index.capacity() {
            store.make_room(&mut open, None, None).unwrap();
            let n = store.insert(node(key));
            open.push_back(n);
            key += 1;
        }
        // The index's last growth took 100 ms, so the next should take about 200 ms.
        store.growth.index = Duration::from_millis(100);
        let capacities = |store: &NodeStore<u64>, open: &VecDeque<u32>| {
            (
                store.nodes.capacity(),
                store.index.capacity(),
                open.capacity(),
            )
        };
        let before = capacities(&store, &open);
        let soon = Instant::now() + Duration::from_millis(150);
        assert_eq!(
            store.make_room(&mut open, None, Some(soon)),
            Err(StopReason::Time)
        );
        assert_eq!(capacities(&store, &open), before, "a table grew");
        let later = Instant::now() + Duration::from_secs(5);
        assert_eq!(store.make_room(&mut open, None, Some(later)), Ok(()));
        assert!(store.index.capacity() > before.1);
    }

    /// Regression (issue 15, item 10): BFS with 100 MB peaked at 152 MiB: hash slots were
    /// counted at 13 bytes where a `(u64, u32)` bucket takes 16 and a control byte, buckets
    /// at 7/8 of their number, and a growing table's old buffer not at all.
    #[test]
    fn a_full_store_stays_within_its_limit_counting_growth() {
        let limit = 100 << 20;
        let (peak, limit, nodes) = fill::<u64>(|i| i, limit);
        assert!(peak <= limit, "{peak} > {limit}");
        // Half the limit at least is usable (tables double, and growth needs old + new).
        assert!(peak >= limit / 3, "{peak} is far below {limit}");
        assert!(nodes > 1_000_000, "{nodes} nodes");
    }

    #[test]
    fn wide_keys_are_counted_with_their_padding() {
        let (peak, limit, _) = fill::<u128>(u128::from, 8 << 20);
        assert!(peak <= limit);
        assert_eq!(size_of::<(u128, u32)>(), 32);
    }
}
