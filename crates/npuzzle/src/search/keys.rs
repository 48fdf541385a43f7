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
}

/// `B` bits a tile, `64 / B` tiles a word, `W` words: held inline, so A* and BFS on these
/// boards stay off the allocator. Boxed keys cost a `malloc` per generated child (and a
/// second for the index's copy), and freeing millions of them when the search ended took
/// a quarter of a second per two million states on 8×8, and a second and more on 9×9,
/// past the time limit.
///
/// 6 bits a tile for up to 64 cells (6×6 in four words, 8×8 in seven), 7 bits for up to
/// 128 (11×11 in fifteen), 8 bits for the rest (255 cells in thirty-two).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Packed<const W: usize, const B: usize>([u64; W]);

impl<const W: usize, const B: usize> Packed<W, B> {
    /// Tiles a word.
    const PER_WORD: usize = 64 / B;
    /// One tile's bits.
    const MASK: u64 = (1 << B) - 1;

    /// The word of cell `i` and the shift of its bits in it.
    fn place(i: usize) -> (usize, usize) {
        (i / Self::PER_WORD, B * (i % Self::PER_WORD))
    }
}

impl<const W: usize, const B: usize> StateKey for Packed<W, B> {
    fn fits(n: usize) -> bool {
        n <= 1 << B && n <= Self::PER_WORD * W
    }
    fn pack(tiles: &[u8]) -> Self {
        let mut words = [0u64; W];
        for (i, &t) in tiles.iter().enumerate() {
            let (word, shift) = Self::place(i);
            words[word] |= u64::from(t) << shift;
        }
        Packed(words)
    }
    fn unpack(&self, out: &mut [u8]) {
        for (i, t) in out.iter_mut().enumerate() {
            let (word, shift) = Self::place(i);
            *t = (self.0[word] >> shift & Self::MASK) as u8;
        }
    }
    fn slid(&self, blank: usize, to: usize, tile: u8) -> Self {
        let mut words = self.0;
        let (word, shift) = Self::place(to);
        words[word] &= !(Self::MASK << shift);
        let (word, shift) = Self::place(blank);
        words[word] |= u64::from(tile) << shift;
        Packed(words)
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
    } else if Packed::<4, 6>::fits(n) {
        search.run::<Packed<4, 6>>()
    } else if Packed::<7, 6>::fits(n) {
        search.run::<Packed<7, 6>>()
    } else if Packed::<15, 7>::fits(n) {
        search.run::<Packed<15, 7>>()
    } else {
        assert!(
            Packed::<32, 8>::fits(n),
            "{n} cells: more than a search takes"
        );
        search.run::<Packed<32, 8>>()
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
        for n in [26, 36, 40, 41, 49, 64] {
            let tiles: Vec<u8> = (0..n as u8).rev().collect();
            if Packed::<4, 6>::fits(n) {
                round_trip::<Packed<4, 6>>(&tiles);
            }
            assert!(Packed::<7, 6>::fits(n));
            round_trip::<Packed<7, 6>>(&tiles);
        }
        assert!(!Packed::<4, 6>::fits(41) && !Packed::<7, 6>::fits(65));
        for n in [65, 81, 100, 121, 128] {
            let tiles: Vec<u8> = (0..n as u8).rev().collect();
            assert!(Packed::<15, 7>::fits(n));
            round_trip::<Packed<15, 7>>(&tiles);
        }
        assert!(!Packed::<15, 7>::fits(129));
        for n in [129, 200, 255, 256] {
            let tiles: Vec<u8> = (0..n).map(|t| (n - 1 - t) as u8).collect();
            assert!(Packed::<32, 8>::fits(n));
            round_trip::<Packed<32, 8>>(&tiles);
        }
        assert!(!Packed::<32, 8>::fits(257));
    }

    /// Every board a search takes gets a key held inline: nothing to free per state when
    /// the search ends. Regression: boxed keys on boards over 64 cells took a second and
    /// more to free after a 2-second limit on 9×9 (`solve -a bfs --time-limit 2` answered
    /// after 3.2 s).
    #[test]
    fn every_board_gets_a_key_with_nothing_to_free() {
        struct Frees;
        impl KeyedSearch for Frees {
            type Output = bool;
            fn run<K: StateKey>(self) -> bool {
                std::mem::needs_drop::<K>()
            }
        }
        for n in 4..=crate::puzzle::MAX_SEARCH_CELLS {
            assert!(!with_key(n, Frees), "{n} cells");
        }
    }

    #[test]
    fn packed_keys_tell_boards_apart() {
        // Swapping any two tiles (values up to the largest, in every slot of a word and
        // across words) changes the key, at each width.
        fn every_swap_differs<K: StateKey>(n: usize) {
            let tiles: Vec<u8> = (0..n).map(|t| t as u8).collect();
            let key = K::pack(&tiles);
            for i in 0..n {
                for j in i + 1..n {
                    let mut other = tiles.clone();
                    other.swap(i, j);
                    assert!(K::pack(&other) != key, "{n} cells: swap {i} {j}");
                }
            }
        }
        every_swap_differs::<Packed<7, 6>>(64);
        every_swap_differs::<Packed<15, 7>>(128);
        every_swap_differs::<Packed<32, 8>>(255);
    }
}
