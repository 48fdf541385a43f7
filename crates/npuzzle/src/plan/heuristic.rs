//! Which heuristic a plan uses: the user's, resolved (`pdb` to a partition) and checked
//! against the board, or the strongest that is cheap to have.

use super::needs::perfect_entries;
use super::SolveOptions;
use crate::algorithm::Algorithm;
use crate::anytime::BeamRanking;
use crate::error::SolveError;
use crate::heuristic::learned::{Inner, RankingNet};
use crate::heuristic::pdb::{self, candidates, Partition, PartitionSpec};
use crate::heuristic::{HeuristicError, HeuristicSpec, Tables, MAX_PERFECT_CELLS};
use crate::puzzle::Puzzle;
use crate::shape::Shape;

/// Total table entries `auto` builds without being asked: the budget of a shape's default
/// partition, one rule for both ([`pdb::DEFAULT_BUILD_ENTRIES`]).
pub const AUTO_BUILD_ENTRIES: u64 = pdb::DEFAULT_BUILD_ENTRIES;

/// The smallest largest pattern `auto` builds: patterns of fewer tiles are weaker than
/// linear conflict.
pub(super) const MIN_AUTO_PATTERN: usize = 4;

/// The heuristic for `options` on this puzzle, `pdb` resolved to a partition and checked
/// against the board.
///
/// With none given: for `auto`, IDA* and A* (the optimal searches) the `weaker`-th of
/// [`auto_choices`] (0: the strongest that is cheap to have, [`strongest`]; past the last,
/// the last); for the others linear conflict.
pub(super) fn chosen_heuristic(
    puzzle: &Puzzle,
    options: &SolveOptions,
    tables: &Tables,
    weaker: usize,
) -> Result<HeuristicSpec, SolveError> {
    let spec = match &options.heuristic {
        Some(h) => resolve(h, puzzle, tables),
        // (A proof, the other case `chooses_heuristic` leaves out, takes the strongest
        // admissible tables before asking here.)
        None if chooses_heuristic(options) => {
            let mut choices = auto_choices(puzzle, tables);
            choices.truncate(weaker + 1);
            choices.pop().expect("linear conflict at least")
        }
        None => HeuristicSpec::LinearConflict,
    };
    check_fits(&spec, puzzle)?;
    Ok(spec)
}

/// Whether the plan chooses the heuristic itself: none named and no proof asked for, with
/// `auto`, IDA* or A*. Only then may a memory limit make it choose a weaker one.
pub(super) fn chooses_heuristic(options: &SolveOptions) -> bool {
    options.heuristic.is_none()
        && !options.optimal
        && matches!(
            options.algorithm,
            Algorithm::Auto | Algorithm::IdaStar | Algorithm::AStar
        )
}

/// What the plan may choose on this puzzle, strongest first: [`strongest`], then the
/// shape's default partition (tables that build in about a second) and linear conflict,
/// for a memory limit that the stronger ones' tables do not fit.
pub(super) fn auto_choices(puzzle: &Puzzle, tables: &Tables) -> Vec<HeuristicSpec> {
    let mut choices = vec![strongest(puzzle, tables)];
    let budget = AUTO_BUILD_ENTRIES.min(tables.policy().max_build_entries);
    let built = (puzzle.cells() <= pdb::MAX_PDB_CELLS)
        .then(|| default_partition(puzzle, budget))
        .flatten()
        .map(|sizes| HeuristicSpec::Pdb(PartitionSpec::Sizes(sizes)));
    for weaker in built.into_iter().chain([HeuristicSpec::LinearConflict]) {
        if !choices.contains(&weaker) {
            choices.push(weaker);
        }
    }
    choices
}

/// The strongest admissible heuristic that is cheap to have for this goal: the exact table
/// up to 10 cells (if the policy lets it be built), else the strongest pattern database
/// whose tables are at hand, else the largest balanced partition whose tables build in
/// about a second ([`AUTO_BUILD_ENTRIES`], within the policy), else linear conflict.
pub fn strongest(puzzle: &Puzzle, tables: &Tables) -> HeuristicSpec {
    let cells = puzzle.cells();
    let may_build = |entries: u64| entries <= tables.policy().max_build_entries;
    if cells <= MAX_PERFECT_CELLS
        && (tables.perfect_in_memory(puzzle) || may_build(perfect_entries(cells)))
    {
        return HeuristicSpec::Perfect;
    }
    if cells > pdb::MAX_PDB_CELLS {
        return HeuristicSpec::LinearConflict;
    }
    if let Some(spec) = at_hand(puzzle, tables) {
        return HeuristicSpec::Pdb(spec);
    }
    let budget = AUTO_BUILD_ENTRIES.min(tables.policy().max_build_entries);
    default_partition(puzzle, budget).map_or(HeuristicSpec::LinearConflict, |sizes| {
        HeuristicSpec::Pdb(PartitionSpec::Sizes(sizes))
    })
}

/// The shape's default partition: the one rule for the partition built when none is at
/// hand, both by `auto` (with `max_entries` its budget within the tables' policy) and for
/// `-H pdb` (with [`AUTO_BUILD_ENTRIES`]). The largest patterns whose tables add up to at
/// most `max_entries` entries (`8-3` on 3×4, `7-6` on 2×7, `6-6-3` on 4×4, `5-5-5-4` on
/// 4×5), or `None` when those would have fewer than 4 tiles: such patterns are hardly
/// better than Manhattan distance, and linear conflict beats them.
pub fn default_partition(puzzle: &Puzzle, max_entries: u64) -> Option<Vec<usize>> {
    pdb::sizes_within(puzzle.shape, max_entries)
        .filter(|sizes| sizes[0] >= MIN_AUTO_PATTERN)
        .filter(|sizes| Partition::new(puzzle.shape, blank(puzzle), sizes).is_ok())
}

/// The strongest admissible heuristic for a proof of optimality (`--optimal`), whatever
/// its tables cost within `tables`' policy: the exact table up to 10 cells, else the
/// strongest of the shape's [`candidates`] (7-8 on 4×4, 6-6-6-6 keeping the blank's region
/// on 5×5), else what [`strongest`] picks.
pub fn strongest_admissible(puzzle: &Puzzle, tables: &Tables) -> HeuristicSpec {
    let cells = puzzle.cells();
    let max = tables.policy().max_build_entries;
    if cells <= MAX_PERFECT_CELLS
        && (tables.perfect_in_memory(puzzle) || perfect_entries(cells) <= max)
    {
        return HeuristicSpec::Perfect;
    }
    if cells <= pdb::MAX_PDB_CELLS {
        let shape = puzzle.shape;
        let regions = prefers_regions(shape);
        let fits = |sizes: &Vec<usize>| {
            Partition::new(shape, blank(puzzle), sizes)
                .and_then(|p| p.with_regions(regions))
                .is_ok_and(|p| entries_to_build(&p, tables) <= max)
        };
        if let Some(sizes) = candidates(shape).into_iter().find(fits) {
            return HeuristicSpec::Pdb(PartitionSpec::of(sizes, regions));
        }
    }
    strongest(puzzle, tables)
}

/// The partition whose tables `npuzzle pdb build --optimal` would cache for this goal, when
/// the anytime engine is about to run with `chosen`, a weaker heuristic, because they are
/// not cached: the partition a proof uses ([`strongest_admissible`] with no build limit),
/// which [`at_hand`] gives the engine once its tables are cached; with its patterns, for
/// the caller to cost. `None` when `chosen` is that partition already, when every one of
/// its tables is at hand (the caller's limits chose against them), when `tables` keep
/// nothing they build (no cache directory, or a policy that does not save), or on shapes
/// with nothing stronger than what `auto` builds.
pub(super) fn stronger_once_cached(
    puzzle: &Puzzle,
    tables: &Tables,
    chosen: &HeuristicSpec,
) -> Option<(PartitionSpec, Partition)> {
    if tables.cache_dir().is_none() || !tables.policy().save {
        return None;
    }
    let unlimited = Tables::new(None, crate::TablePolicy::default());
    let HeuristicSpec::Pdb(strong) = strongest_admissible(puzzle, &unlimited) else {
        return None;
    };
    let partition = strong.partition(puzzle).ok()?;
    let stronger =
        *chosen != HeuristicSpec::Pdb(strong.clone()) && entries_to_build(&partition, tables) > 0;
    stronger.then_some((strong, partition))
}

/// Whether `shape` uses the tables that keep the blank's region (`pockets.rs`): for a
/// proof (`--optimal`), and in preference to the classic tables when both are at hand.
/// On 5×5, where they were measured (`6-6-6-6`: 0.77 times the nodes and about 0.87 times
/// the time of Korf & Felner's tables on Korf & Felner's #40, #25 and #32;
/// docs/performance.md). Not on 6×6: the beams' ranking network was fitted to the classic
/// tables' sums (`RankingNet::fits`).
fn prefers_regions(shape: Shape) -> bool {
    (shape.rows(), shape.cols()) == (5, 5)
}

/// The entries of `partition`'s tables that are not at hand, to be built.
fn entries_to_build(partition: &Partition, tables: &Tables) -> u64 {
    partition
        .keys()
        .iter()
        .filter(|k| !tables.pattern_at_hand(k))
        .map(|k| k.entries())
        .sum()
}

/// What an anytime phase's beams rank states by with `heuristic`, the run's bound:
/// [`BeamRanking::for_tables`] of its partition's largest pattern, but with the shifted
/// partition (6×6's 4-tile tables) only when the policy lets the plan build its tables
/// beside the heuristic's; corrected by a learned network when one was fitted with these
/// tables ([`RankingNet::fits`]: on 6×6's standard goal, `5-5-5-5-5-5-5` and `auto`'s
/// `4-4-4-4-4-4-4-4-3` with the shifted partition).
pub(super) fn beam_ranking(
    heuristic: &HeuristicSpec,
    puzzle: &Puzzle,
    tables: &Tables,
) -> BeamRanking {
    let HeuristicSpec::Pdb(spec) = heuristic else {
        return BeamRanking::LinearConflict;
    };
    let Ok(partition) = spec.partition(puzzle) else {
        return BeamRanking::LinearConflict;
    };
    let largest = partition.sizes().iter().copied().max().unwrap_or(0);
    let ranking = match BeamRanking::for_tables(largest, puzzle.shape) {
        BeamRanking::WithShiftedTables => {
            let affordable = Partition::shifted(puzzle.shape, blank(puzzle)).is_some_and(|s| {
                entries_to_build(&partition, tables) + entries_to_build(&s, tables)
                    <= tables.policy().max_build_entries
            });
            if affordable {
                BeamRanking::WithShiftedTables
            } else {
                BeamRanking::WithTables
            }
        }
        ranking => ranking,
    };
    let inner = match ranking {
        BeamRanking::WithTables => Inner::Tables,
        BeamRanking::WithShiftedTables => Inner::ShiftedTables,
        _ => return ranking,
    };
    if RankingNet::fits(puzzle, &partition, inner) {
        BeamRanking::Learned(inner)
    } else {
        ranking
    }
}

pub(super) fn blank(puzzle: &Puzzle) -> usize {
    usize::from(puzzle.goal_cell[0])
}

/// The strongest of [`candidates`] whose tables are all at hand (in memory or in the cache
/// directory), if any: a partition that costs nothing to build. Where both its classic
/// tables and those that keep the blank's region are at hand, the kind
/// `prefers_regions` names for the shape.
pub fn at_hand(puzzle: &Puzzle, tables: &Tables) -> Option<PartitionSpec> {
    let shape = puzzle.shape;
    let blank = usize::from(puzzle.goal_cell[0]);
    let held = |p: &Partition| p.keys().iter().all(|k| tables.pattern_at_hand(k));
    let preferred = prefers_regions(shape);
    candidates(shape).into_iter().find_map(|sizes| {
        let partition = Partition::new(shape, blank, &sizes).ok()?;
        [preferred, !preferred].into_iter().find_map(|regions| {
            let kind = partition.clone().with_regions(regions).ok()?;
            held(&kind).then(|| PartitionSpec::of(sizes.clone(), regions))
        })
    })
}

/// The partition `pdb` stands for on this goal: the strongest at hand ([`at_hand`]), else
/// the shape's default ([`default_partition`], the partition `auto` builds), else, on
/// boards too small for it, the cheapest of the shape's [`candidates`].
pub(super) fn best_available(puzzle: &Puzzle, tables: &Tables) -> PartitionSpec {
    at_hand(puzzle, tables).unwrap_or_else(|| {
        PartitionSpec::Sizes(
            default_partition(puzzle, AUTO_BUILD_ENTRIES).unwrap_or_else(|| {
                candidates(puzzle.shape)
                    .pop()
                    .expect("at least one candidate")
            }),
        )
    })
}

/// `spec` with every `pdb` replaced by the concrete partition it stands for on this goal.
pub fn resolve(spec: &HeuristicSpec, puzzle: &Puzzle, tables: &Tables) -> HeuristicSpec {
    match spec {
        HeuristicSpec::Pdb(PartitionSpec::Best) if puzzle.cells() <= pdb::MAX_PDB_CELLS => {
            HeuristicSpec::Pdb(best_available(puzzle, tables))
        }
        HeuristicSpec::Sum(terms) => HeuristicSpec::Sum(
            terms
                .iter()
                .map(|(w, h)| (*w, resolve(h, puzzle, tables)))
                .collect(),
        ),
        HeuristicSpec::Max(parts) => {
            HeuristicSpec::Max(parts.iter().map(|h| resolve(h, puzzle, tables)).collect())
        }
        other => other.clone(),
    }
}

/// Whether every part of a resolved heuristic can serve this puzzle.
pub(super) fn check_fits(spec: &HeuristicSpec, puzzle: &Puzzle) -> Result<(), HeuristicError> {
    match spec {
        HeuristicSpec::Perfect if puzzle.cells() > MAX_PERFECT_CELLS => {
            Err(HeuristicError::TooLarge {
                heuristic: "perfect".into(),
                cells: puzzle.cells(),
                max: MAX_PERFECT_CELLS,
            })
        }
        HeuristicSpec::Pdb(p) => p.partition(puzzle).map(|_| ()).map_err(Into::into),
        HeuristicSpec::Sum(terms) => terms.iter().try_for_each(|(_, h)| check_fits(h, puzzle)),
        HeuristicSpec::Max(parts) => parts.iter().try_for_each(|h| check_fits(h, puzzle)),
        _ => Ok(()),
    }
}
