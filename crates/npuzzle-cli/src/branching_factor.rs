//! The effective branching factor of a search (Russell & Norvig, *Artificial Intelligence:
//! A Modern Approach*, section 3.6.1).

/// `b*` such that a uniform tree of depth `depth` with branching `b*` has `generated + 1`
/// nodes: `N + 1 = 1 + b* + b*² + … + b*^d`, with `N` the nodes generated (the root not
/// counted, as in npuzzle's counters). Found by bisection; `None` when `depth` is 0.
pub fn effective_branching_factor(generated: u64, depth: usize) -> Option<f64> {
    if depth == 0 {
        return None;
    }
    let target = generated as f64 + 1.0;
    // 1 + b + … + b^d, stopping once it passes the target (it only grows from there).
    let nodes = |b: f64| {
        let (mut sum, mut power) = (1.0, 1.0);
        for _ in 0..depth {
            power *= b;
            sum += power;
            if sum > target {
                break;
            }
        }
        sum
    };
    // nodes(0) = 1 <= target and nodes(target) >= 1 + target, so the root lies between.
    let (mut lo, mut hi) = (0.0, target);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if nodes(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-12 {
            break;
        }
    }
    Some((lo + hi) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_russell_and_norvigs_example() {
        // "if the goal is at depth 5 and 52 nodes are generated, b* is 1.92"
        let b = effective_branching_factor(52, 5).unwrap();
        assert!((b - 1.92).abs() < 0.005, "{b}");
    }

    #[test]
    fn solves_the_defining_equation() {
        for (n, d) in [
            (3, 1),
            (6, 2),
            (1_000_000, 20),
            (40, 40),
            (10, 30),
            (u64::MAX / 2, 3),
        ] {
            let b = effective_branching_factor(n, d).unwrap();
            let total: f64 = (0..=d as i32).map(|i| b.powi(i)).sum();
            let target = n as f64 + 1.0;
            assert!((total - target).abs() / target < 1e-9, "n={n} d={d} b={b}");
        }
        // A path with no side branches has b* = 1.
        assert!((effective_branching_factor(7, 7).unwrap() - 1.0).abs() < 1e-9);
        assert_eq!(effective_branching_factor(10, 0), None);
    }
}
