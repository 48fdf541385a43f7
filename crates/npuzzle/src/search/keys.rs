//! Compact keys for the states that A* and BFS store.

use std::hash::Hash;

/// A state packed for a hash table.
pub(crate) trait StateKey: Hash + Eq + Clone {
    /// Whether this key type can hold a board of `n` cells.
    fn fits(n: usize) -> bool;
    /// Packs tiles.
    fn pack(tiles: &[u8]) -> Self;
    /// Unpacks into `out` (of the board's length).
    fn unpack(&self, out: &mut [u8]);
    /// Bytes held outside the key itself (for memory accounting).
    fn heap_bytes(n: usize) -> usize;
}

/// 4 bits a tile: boards of up to 16 cells (the 15-puzzle) in one word.
impl StateKey for u64 {
    fn fits(n: usize) -> bool {
        n <= 16
    }
    fn pack(tiles: &[u8]) -> u64 {
        tiles
            .iter()
            .enumerate()
            .fold(0, |k, (i, &t)| k | u64::from(t) << (4 * i))
    }
    fn unpack(&self, out: &mut [u8]) {
        for (i, t) in out.iter_mut().enumerate() {
            *t = (self >> (4 * i) & 0xF) as u8;
        }
    }
    fn heap_bytes(_: usize) -> usize {
        0
    }
}

/// 5 bits a tile: boards of up to 25 cells (the 24-puzzle).
impl StateKey for u128 {
    fn fits(n: usize) -> bool {
        n <= 25
    }
    fn pack(tiles: &[u8]) -> u128 {
        tiles
            .iter()
            .enumerate()
            .fold(0, |k, (i, &t)| k | u128::from(t) << (5 * i))
    }
    fn unpack(&self, out: &mut [u8]) {
        for (i, t) in out.iter_mut().enumerate() {
            *t = (self >> (5 * i) & 0x1F) as u8;
        }
    }
    fn heap_bytes(_: usize) -> usize {
        0
    }
}

/// A byte a tile, for anything larger.
impl StateKey for Box<[u8]> {
    fn fits(_: usize) -> bool {
        true
    }
    fn pack(tiles: &[u8]) -> Box<[u8]> {
        tiles.into()
    }
    fn unpack(&self, out: &mut [u8]) {
        out.copy_from_slice(self);
    }
    fn heap_bytes(n: usize) -> usize {
        // The allocation plus the allocator's bookkeeping.
        n + 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<K: StateKey>(tiles: &[u8]) {
        let mut out = vec![0; tiles.len()];
        K::pack(tiles).unpack(&mut out);
        assert_eq!(out, tiles);
    }

    #[test]
    fn keys_round_trip() {
        let t16: Vec<u8> = (0..16).rev().collect();
        let t25: Vec<u8> = (0..25).rev().collect();
        round_trip::<u64>(&t16);
        round_trip::<u128>(&t16);
        round_trip::<u128>(&t25);
        round_trip::<Box<[u8]>>(&t25);
    }
}
