//! Tests of heuristic expressions: their bounds and error messages.

use super::*;
use crate::goal::GoalSpec;

fn parts(n: usize) -> String {
    format!("max({})", vec!["lc"; n].join(","))
}

/// Regression (issue 15, item 1): width was unbounded (only nesting was capped), so
/// `max(lc,lc,…)` with a thousand parts made every node a thousand times dearer.
#[test]
fn expressions_have_at_most_64_parts() {
    assert!(parts(64).parse::<HeuristicSpec>().is_ok());
    let e = parts(65).parse::<HeuristicSpec>().unwrap_err().to_string();
    assert!(e.contains("more than 64 heuristics"), "{e}");
    // Parts count across sums and nesting too.
    let sum = vec!["0.01*md"; 65].join("+");
    assert!(sum.parse::<HeuristicSpec>().is_err());
}

/// Regression: a 50 KB expression was echoed in full (twice, by the CLI).
#[test]
fn long_expressions_are_refused_and_echoed_clipped() {
    let long = parts(20_000);
    let e = long.parse::<HeuristicSpec>().unwrap_err().to_string();
    assert!(e.contains("at most 1000 allowed"), "{e}");
    assert!(e.len() < 200, "{} bytes: {e}", e.len());
    let e = format!("{}x", parts(60))
        .parse::<HeuristicSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.len() < 200, "{e}");
}

/// Regression: `manhättan` was reported as `manh` (the name was cut at the first letter
/// outside ASCII).
#[test]
fn unknown_names_are_reported_whole() {
    let e = "manhättan"
        .parse::<HeuristicSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("`manhättan`"), "{e}");
    let e = "max(lc,ünknown)".parse::<HeuristicSpec>().unwrap_err();
    assert!(e.to_string().contains("`ünknown`"), "{e}");
}

/// A heuristic's own tables are counted (issue 15, item 1): a `max` of many parts holds
/// many tables.
#[test]
fn heap_bytes_grow_with_parts() {
    let goal = GoalSpec::Standard
        .board(crate::Shape::new(10, 10).unwrap())
        .unwrap();
    let puzzle = crate::puzzle::Puzzle::new(&goal).unwrap();
    let one = build(&"euclidean".parse().unwrap(), &puzzle, &Tables::default()).unwrap();
    let many = build(
        &"max(euclidean,euclidean,lc,lc)".parse().unwrap(),
        &puzzle,
        &Tables::default(),
    )
    .unwrap();
    assert!(one.heap_bytes() >= 100 * 100 * 8);
    assert!(many.heap_bytes() > 2 * one.heap_bytes());
}

/// A search whose heuristic alone outgrows the memory limit stops by memory at once.
#[test]
fn a_heuristic_bigger_than_the_memory_limit_stops_the_search() {
    let shape = crate::Shape::new(10, 10).unwrap();
    let goal = GoalSpec::Standard.board(shape).unwrap();
    let start = crate::generate::random_walk(&goal, 40, &mut crate::generate::rng(7));
    let options = crate::SolveOptions {
        algorithm: crate::Algorithm::IdaStar,
        heuristic: Some(
            format!("max({})", vec!["euclidean"; 64].join(","))
                .parse()
                .unwrap(),
        ),
        weight: 1.0,
        optimal: false,
        ..crate::SolveOptions::default()
    };
    let control = crate::search::Control {
        limits: crate::Limits {
            memory_bytes: Some(1 << 20),
            ..crate::Limits::default()
        },
        ..crate::search::Control::default()
    };
    let s = crate::solve(&start, &goal, &options, &Tables::default(), control).unwrap();
    assert_eq!(s.stopped_by, Some(crate::StopReason::Memory));
}

/// Parentheses keep their meaning: an expression prints as it parses (the name it printed
/// was another heuristic, `0.5*manhattan+misplaced`, and `2*(0.5*manhattan)` printed as
/// `2*0.5*manhattan`, which does not parse), and a weighted sum of sums is admissible when
/// its weights, multiplied through, are (it was called inadmissible).
#[test]
fn nested_sums_print_as_they_parse_and_are_judged_by_their_weights() {
    for (text, admissible, consistent) in [
        ("0.5*(manhattan+misplaced)", true, true),
        ("2*(0.5*manhattan)", true, true),
        ("(manhattan+misplaced)", false, false),
        ("0.25*(manhattan+misplaced)+0.5*linear-conflict", true, true),
        (
            "0.5*(manhattan+misplaced)+0.5*linear-conflict",
            false,
            false,
        ),
        ("max(0.5*(manhattan+linear-conflict),misplaced)", true, true),
        ("0.25*(manhattan+misplaced)*2", true, true),
        ("0.5*(pdb+manhattan)", true, false),
        ("0.6*(manhattan+misplaced)", false, false),
    ] {
        let h: HeuristicSpec = text.parse().unwrap();
        let printed = h.to_string();
        assert_eq!(
            printed.parse::<HeuristicSpec>().unwrap(),
            h,
            "{text} printed {printed}"
        );
        assert_eq!(h.admissible(), admissible, "{text}");
        assert_eq!(h.consistent(), consistent, "{text}");
    }
    assert_eq!(
        "0.5*(manhattan+misplaced)"
            .parse::<HeuristicSpec>()
            .unwrap()
            .to_string(),
        "0.5*(manhattan+misplaced)"
    );
}

/// Weights in exponent notation parse (`1e2*manhattan` was "expected `*` after a
/// weight"), and an `e` that no digit follows is no exponent.
#[test]
fn weights_may_have_an_exponent() {
    let weight = |text: &str| match text.parse::<HeuristicSpec>().unwrap() {
        HeuristicSpec::Sum(terms) => terms[0].0,
        h => panic!("{text}: {h}"),
    };
    assert_eq!(weight("1e2*manhattan"), 100.0);
    assert_eq!(weight("2.5E-1*manhattan"), 0.25);
    assert_eq!(weight("manhattan*1e+1"), 10.0);
    assert_eq!(weight("1e0*lc+1e-1*misplaced"), 1.0);
    for bad in ["2e*manhattan", "2e-*manhattan", "1e*e"] {
        let e = bad.parse::<HeuristicSpec>().unwrap_err().to_string();
        assert!(e.contains("expected `*` after a weight"), "{bad}: {e}");
    }
    let e = "1e999*manhattan".parse::<HeuristicSpec>().unwrap_err();
    assert!(e.to_string().contains("`1e999` is not a weight"), "{e}");
    // What prints parses back to the same heuristic.
    let h: HeuristicSpec = "1e-3*manhattan".parse().unwrap();
    assert_eq!(h.to_string().parse::<HeuristicSpec>().unwrap(), h);
}

/// A second weight in a term is named as such: `0.5*0.5*manhattan` said "unknown heuristic
/// `0`", a name nobody wrote.
#[test]
fn a_second_weight_is_named_not_read_as_a_name() {
    for bad in ["0.5*0.5*manhattan", "2*3", "2*.5*lc", "lc+2*3*misplaced"] {
        let e = bad.parse::<HeuristicSpec>().unwrap_err().to_string();
        assert!(
            e.contains("expected a heuristic name after `*`, not a second weight"),
            "{bad}: {e}"
        );
    }
}

/// Very large and very small weights print in exponent form, and parse back: `1e300` was
/// printed as 301 digits, in the answer and on the page (an outside check).
#[test]
fn extreme_weights_print_in_exponent_form() {
    for (text, shown) in [
        ("1e300*manhattan", "1e300*manhattan"),
        ("manhattan*1e-7", "1e-7*manhattan"),
        ("2.5*manhattan", "2.5*manhattan"),
        ("0.001*misplaced+manhattan", "0.001*misplaced+manhattan"),
    ] {
        let h: HeuristicSpec = text.parse().unwrap();
        assert_eq!(h.to_string(), shown, "{text}");
        assert_eq!(h.to_string().parse::<HeuristicSpec>().unwrap(), h, "{text}");
    }
}
