//! The node arena and closed table shared by A* and BFS, with memory accounting.

use std::mem::size_of;

use rustc_hash::FxHashMap;

use super::keys::StateKey;
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
    cells: usize,
}

impl<K: StateKey> NodeStore<K> {
    pub fn new(cells: usize) -> Self {
        NodeStore {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            cells,
        }
    }

    /// Bytes held by the store plus an open list of `open_capacity` entries of `entry` bytes.
    fn bytes(&self, nodes: usize, slots: usize, open_slots: usize, entry: usize) -> u64 {
        let node = size_of::<Node<K>>() + K::heap_bytes(self.cells);
        // A hash slot holds the key, the index and a control byte; the key's heap part is
        // shared with nothing, so it counts again.
        let slot = size_of::<K>() + size_of::<u32>() + 1 + K::heap_bytes(self.cells);
        (nodes * node + slots * slot + open_slots * entry) as u64
    }

    /// Bytes the store and open list would hold after adding one node and one open entry,
    /// counting any table that must grow to take it at its grown size.
    pub fn bytes_after_insert(&self, open_len: usize, open_capacity: usize, entry: usize) -> u64 {
        let grow = |len: usize, cap: usize| if len < cap { cap } else { (cap * 2).max(4) };
        self.bytes(
            grow(self.nodes.len(), self.nodes.capacity()),
            grow(self.index.len(), self.index.capacity()),
            grow(open_len, open_capacity),
            entry,
        )
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
