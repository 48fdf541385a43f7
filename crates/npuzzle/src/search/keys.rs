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
    /// The key after `tile` slides from cell `to` into the blank on cell `blank`: what
    /// [`pack`](Self::pack) gives for that board, without packing every cell again.
    fn slid(&self, blank: usize, to: usize, tile: u8) -> Self;
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
    fn slid(&self, blank: usize, to: usize, tile: u8) -> u64 {
        // The blank's field is zero; the tile's field is cleared and set on the blank's.
        self & !(0xF << (4 * to)) | u64::from(tile) << (4 * blank)
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
    fn slid(&self, blank: usize, to: usize, tile: u8) -> u128 {
        self & !(0x1F << (5 * to)) | u128::from(tile) << (5 * blank)
    }
    fn heap_bytes(_: usize) -> usize {
        0
    }
}

/// 6 bits a tile, ten tiles a word: boards of up to `10 × W` cells and at most 64 (6×6
/// in four words, 8×8 in seven). Keys held inline keep A* on these boards off the
/// allocator: boxed keys cost a `malloc` per generated child, and freeing millions of them
/// when the search ends took a quarter of a second per two million states, past its time
/// limit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Packed<const W: usize>([u64; W]);

impl<const W: usize> StateKey for Packed<W> {
    fn fits(n: usize) -> bool {
        n <= 64 && n <= 10 * W
    }
    fn pack(tiles: &[u8]) -> Packed<W> {
        let mut words = [0u64; W];
        for (i, &t) in tiles.iter().enumerate() {
            words[i / 10] |= u64::from(t) << (6 * (i % 10));
        }
        Packed(words)
    }
    fn unpack(&self, out: &mut [u8]) {
        for (i, t) in out.iter_mut().enumerate() {
            *t = (self.0[i / 10] >> (6 * (i % 10)) & 0x3F) as u8;
        }
    }
    fn slid(&self, blank: usize, to: usize, tile: u8) -> Packed<W> {
        let mut words = self.0;
        words[to / 10] &= !(0x3F << (6 * (to % 10)));
        words[blank / 10] |= u64::from(tile) << (6 * (blank % 10));
        Packed(words)
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
    fn slid(&self, blank: usize, to: usize, tile: u8) -> Box<[u8]> {
        let mut tiles = self.clone();
        tiles[blank] = tile;
        tiles[to] = 0;
        tiles
    }
    fn heap_bytes(n: usize) -> usize {
        // The allocation plus the allocator's bookkeeping.
        n + 16
    }
}

/// A search generic over its key type, run by [`with_key`] with the smallest key that holds
/// its board.
pub(crate) trait KeyedSearch {
    /// What the search returns.
    type Output;
    /// Runs the search with keys of type `K`.
    fn run<K: StateKey>(self) -> Self::Output;
}

/// Runs `search` with the smallest key type that holds a board of `n` cells.
pub(crate) fn with_key<S: KeyedSearch>(n: usize, search: S) -> S::Output {
    if u64::fits(n) {
        search.run::<u64>()
    } else if u128::fits(n) {
        search.run::<u128>()
    } else if Packed::<4>::fits(n) {
        search.run::<Packed<4>>()
    } else if Packed::<7>::fits(n) {
        search.run::<Packed<7>>()
    } else {
        search.run::<Box<[u8]>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs and unpacks `tiles`, and checks that every slide into the blank gives the key
    /// that packing the board after it gives.
    fn round_trip<K: StateKey + std::fmt::Debug>(tiles: &[u8]) {
        let mut out = vec![0; tiles.len()];
        let key = K::pack(tiles);
        key.unpack(&mut out);
        assert_eq!(out, tiles);
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        for to in 0..tiles.len() {
            let mut after = tiles.to_vec();
            after.swap(blank, to);
            assert_eq!(
                key.slid(blank, to, tiles[to]),
                K::pack(&after),
                "{blank} {to}"
            );
        }
    }

    #[test]
    fn keys_round_trip() {
        let t16: Vec<u8> = (0..16).rev().collect();
        let t25: Vec<u8> = (0..25).rev().collect();
        round_trip::<u64>(&t16);
        round_trip::<u128>(&t16);
        round_trip::<u128>(&t25);
        round_trip::<Box<[u8]>>(&t25);
        for n in [26, 36, 40, 41, 49, 64] {
            let tiles: Vec<u8> = (0..n as u8).rev().collect();
            if Packed::<4>::fits(n) {
                round_trip::<Packed<4>>(&tiles);
            }
            assert!(Packed::<7>::fits(n));
            round_trip::<Packed<7>>(&tiles);
        }
        assert!(!Packed::<4>::fits(41) && !Packed::<7>::fits(65));
    }

    #[test]
    fn packed_keys_tell_boards_apart() {
        // Swapping any two tiles of an 8×8 board (values up to 63, in every slot of a
        // word and across words) changes the key.
        let tiles: Vec<u8> = (0..64).collect();
        let key = Packed::<7>::pack(&tiles);
        for i in 0..64 {
            for j in i + 1..64 {
                let mut other = tiles.clone();
                other.swap(i, j);
                assert!(Packed::<7>::pack(&other) != key, "swap {i} {j}");
            }
        }
    }
}
