//! Lexicographic ranks of permutations (Lehmer codes), shared by the exact table of every
//! state ([`PerfectTable`](super::PerfectTable)) and the pattern databases' arrangement ranks.

/// The most values a ranked permutation may hold: the bit set of used values is a `u32` and
/// `16!` still fits a `usize`.
pub const MAX_VALUES: usize = 16;

/// Lexicographic rank of a permutation of `0..n` (`n ≤ 16`), via the Lehmer code: for each
/// position, how many smaller values are still unused, found with a popcount over a bit set
/// of the values already seen.
#[inline]
pub fn rank(values: &[u8]) -> usize {
    let n = values.len();
    debug_assert!(n <= MAX_VALUES);
    let mut used = 0u32;
    let mut r = 0usize;
    for (i, &v) in values.iter().enumerate() {
        let smaller_unused = u32::from(v) - (used & ((1u32 << v) - 1)).count_ones();
        r = r * (n - i) + smaller_unused as usize;
        used |= 1 << v;
    }
    r
}

/// Inverse of [`rank`]: writes the permutation of `0..out.len()` whose rank is `r`.
pub fn unrank(mut r: usize, out: &mut [u8]) {
    let n = out.len();
    debug_assert!(n <= MAX_VALUES);
    // Mixed-radix digits, least significant last.
    let mut digits = [0usize; MAX_VALUES];
    for i in (0..n).rev() {
        let base = n - i;
        digits[i] = r % base;
        r /= base;
    }
    let mut unused: u32 = (1u32 << n) - 1;
    for (slot, &digit) in out.iter_mut().zip(&digits) {
        // The digit-th unused value: clear the lowest set bits `digit` times.
        let mut m = unused;
        for _ in 0..digit {
            m &= m - 1;
        }
        let v = m.trailing_zeros();
        *slot = v as u8;
        unused &= !(1 << v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_lexicographic_and_round_trip() {
        assert_eq!(rank(&[0, 1, 2, 3]), 0);
        assert_eq!(rank(&[3, 2, 1, 0]), 23);
        assert_eq!(rank(&[]), 0);
        let mut previous: Option<Vec<u8>> = None;
        let mut out = [0u8; 5];
        for r in 0..120 {
            unrank(r, &mut out);
            assert_eq!(rank(&out), r);
            if let Some(p) = previous {
                assert!(p.as_slice() < &out[..], "{p:?} then {out:?}");
            }
            previous = Some(out.to_vec());
        }
    }

    #[test]
    fn sixteen_values_fit() {
        let reversed: Vec<u8> = (0..16).rev().collect();
        assert_eq!(rank(&reversed), (1..=16).product::<usize>() - 1);
        let mut out = [0u8; 16];
        unrank(rank(&reversed), &mut out);
        assert_eq!(out.as_slice(), reversed.as_slice());
    }
}
