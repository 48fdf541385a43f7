//! Partitions of a goal's tiles into disjoint patterns, and how `pdb` and `pdb:7-8` name them.

use std::fmt;
use std::str::FromStr;

use super::index::{table_entries, MAX_PATTERN_TILES, MAX_PDB_CELLS};
use super::pockets::MAX_REGION_CELLS;
use super::table::TableKey;
use super::PdbError;
use crate::puzzle::Puzzle;
use crate::shape::Shape;

/// The most entries one pattern's table may have (2³²: a 7-tile pattern of the 24-puzzle
/// has 2,422,728,000, 1.2 GB at 4 bits; the 8-tile pattern of the 15-puzzle 518,918,400).
pub const MAX_TABLE_ENTRIES: u64 = 1 << 32;

/// The total table entries of a shape's default partition ([`sizes_within`]): about a
/// second of building (pattern tables build at about 20 million entries a second here).
/// What `auto` builds without being asked.
pub const DEFAULT_BUILD_ENTRIES: u64 = 30_000_000;

/// Which partition a `pdb` heuristic uses, as written on the command line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PartitionSpec {
    /// `pdb`: the strongest partition whose tables are already at hand (in memory or in the
    /// cache directory), else the shape's default, cheap to build (see [`candidates`]).
    Best,
    /// `pdb:7-8`: patterns of these sizes, in this order.
    Sizes(Vec<usize>),
    /// `pdb:6-6-6-6:regions`: patterns of these sizes, their tables keeping the blank's
    /// region (see `pockets.rs`): stronger, and twice as many entries.
    Regions(Vec<usize>),
}

/// What follows the sizes of a partition whose tables keep the blank's region.
const REGIONS_SUFFIX: &str = ":regions";

impl fmt::Display for PartitionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartitionSpec::Best => f.write_str("pdb"),
            PartitionSpec::Sizes(sizes) => write!(f, "pdb:{}", sizes_name(sizes)),
            PartitionSpec::Regions(sizes) => {
                write!(f, "pdb:{}{REGIONS_SUFFIX}", sizes_name(sizes))
            }
        }
    }
}

impl PartitionSpec {
    /// Patterns of these sizes, with tables that keep the blank's region or not.
    pub fn of(sizes: Vec<usize>, regions: bool) -> PartitionSpec {
        if regions {
            PartitionSpec::Regions(sizes)
        } else {
            PartitionSpec::Sizes(sizes)
        }
    }

    /// The partition this spec stands for on `puzzle`'s goal: its sizes, or for a bare
    /// `pdb` the shape's default (the last of [`candidates`], cheap to build). The planner
    /// resolves `pdb` to the strongest partition at hand before a search runs.
    ///
    /// # Errors
    /// As [`Partition::new`].
    pub fn partition(&self, puzzle: &Puzzle) -> Result<Partition, PdbError> {
        let blank = usize::from(puzzle.goal_cell[0]);
        let sizes = match self {
            PartitionSpec::Sizes(sizes) | PartitionSpec::Regions(sizes) => sizes.clone(),
            PartitionSpec::Best => candidates(puzzle.shape).pop().unwrap_or_default(),
        };
        Partition::new(puzzle.shape, blank, &sizes)?
            .with_regions(matches!(self, PartitionSpec::Regions(_)))
    }

    /// The pattern sizes named, if any (`None` for a bare `pdb`).
    pub fn sizes(&self) -> Option<&[usize]> {
        match self {
            PartitionSpec::Sizes(sizes) | PartitionSpec::Regions(sizes) => Some(sizes),
            PartitionSpec::Best => None,
        }
    }
}

impl FromStr for PartitionSpec {
    type Err = PdbError;

    /// `pdb`, or `pdb:` followed by pattern sizes separated by `-` (`pdb:6-6-3`), and
    /// `:regions` for tables that keep the blank's region (`pdb:6-6-6-6:regions`). A bare
    /// list of sizes (`7-8`) is accepted too.
    fn from_str(s: &str) -> Result<PartitionSpec, PdbError> {
        let t = s.trim().to_ascii_lowercase();
        if t == "pdb" {
            return Ok(PartitionSpec::Best);
        }
        let list = t.strip_prefix("pdb:").unwrap_or(&t);
        let (list, regions) = match list.strip_suffix(REGIONS_SUFFIX) {
            Some(list) => (list, true),
            None => (list, false),
        };
        let sizes: Option<Vec<usize>> = list
            .split('-')
            .map(|p| p.parse::<usize>().ok().filter(|&k| k > 0))
            .collect();
        match sizes {
            Some(sizes) if !sizes.is_empty() && sizes.len() <= MAX_PDB_CELLS => {
                Ok(PartitionSpec::of(sizes, regions))
            }
            _ => Err(PdbError::Syntax(crate::text::clip(s.trim()))),
        }
    }
}

/// `7-8`.
pub fn sizes_name(sizes: &[usize]) -> String {
    sizes
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

/// The partitions `pdb` considers for a shape, strongest first; the last one is the shape's
/// default, by the one rule [`sizes_within`] with [`DEFAULT_BUILD_ENTRIES`] (the partition
/// `auto` builds: 6-6-3 on 4×4, 5-5-5-5-4 on 5×5, 8-3 on 3×4, 6-6-2 on 3×5, 5-5-5-4 on
/// 4×5, a single exact 8 on 3×3). Before it, on the two shapes where published work
/// measured stronger ones worth their build: Korf & Felner's `7-8` on 4×4 (about 30 s to
/// build) and `6-6-6-6` on 5×5 (about 10 s on two cores).
pub fn candidates(shape: Shape) -> Vec<Vec<usize>> {
    let strong = match (shape.rows(), shape.cols()) {
        (4, 4) => vec![vec![7, 8]],
        (5, 5) => vec![vec![6, 6, 6, 6]],
        (6, 6) => vec![vec![5; 7]],
        (7, 7) => vec![vec![4; 12]],
        (8, 8) => vec![[vec![4; 15], vec![3]].concat()],
        _ => Vec::new(),
    };
    strong
        .into_iter()
        .chain(sizes_within(shape, DEFAULT_BUILD_ENTRIES))
        .collect()
}

/// Pattern sizes whose tables add up to at most `max_entries` entries: as many patterns
/// of the largest size that allows it, the remaining tiles in one smaller pattern (as
/// Korf & Felner's 6-6-3), if any. What `auto` may build on the fly.
pub fn sizes_within(shape: Shape, max_entries: u64) -> Option<Vec<usize>> {
    let n = shape.cells();
    let tiles = n.checked_sub(1).filter(|&t| t > 0)?;
    (1..=MAX_PATTERN_TILES.min(tiles)).rev().find_map(|k| {
        let mut sizes = vec![k; tiles / k];
        if tiles % k > 0 {
            sizes.push(tiles % k);
        }
        let total: u64 = sizes.iter().map(|&s| table_entries(n, s)).sum();
        (total <= max_entries).then_some(sizes)
    })
}

/// Disjoint patterns covering every tile of a goal, each a set of goal cells.
///
/// A pattern is named by the goal cells of its tiles, not by tile numbers, so one table
/// serves every goal that puts some tiles on those cells (the tiles are "renamed by goal
/// cell"). The blank's goal cell is in no pattern: a pattern's table does not depend on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    shape: Shape,
    blank: usize,
    sizes: Vec<usize>,
    patterns: Vec<Vec<u8>>,
    regions: bool,
}

impl Partition {
    /// The partition with these pattern sizes for a goal with its blank on cell `blank`.
    ///
    /// 4×4 `7-8` (two rows each, as Korf & Felner 2002), `6-6-3` (the blank's two rows but
    /// the far column, a 2×3 block, and the rest of the far column) and `5-5-5`, and 5×5
    /// `6-6-6-6` (Korf & Felner's), `5-5-5-5-4`, `7-7-5-5` and `7-7-7-3` use compact
    /// layouts drawn for a blank in a corner; other sizes take the cells in reading order,
    /// or on boards over 32 cells in bands of two rows walked column by column. Layouts are
    /// drawn for a blank in the top-left corner and mirrored towards the blank's nearest
    /// corner; a blank off the corner swaps cells with the corner.
    ///
    /// # Errors
    /// Boards over 64 cells, sizes that do not add up to the number of tiles, patterns over
    /// 8 tiles or tables over [`MAX_TABLE_ENTRIES`].
    pub fn new(shape: Shape, blank: usize, sizes: &[usize]) -> Result<Partition, PdbError> {
        check_sizes(shape, sizes)?;
        Ok(Partition::mirrored(
            shape,
            blank,
            sizes,
            &layout(shape, sizes),
        ))
    }

    /// A partition drawn by hand for a blank in the top-left corner, mirrored as
    /// [`new`](Self::new) mirrors its layouts: one character a cell, row by row, `.` for
    /// the blank and `A`, `B`, … for the patterns; whitespace is ignored
    /// (`".AABB AABBB AACBD CCCDD CCDDD"` is a 6-6-6-6 of the 24-puzzle). For trying layouts:
    /// the searches take sizes, with the layouts [`new`](Self::new) draws.
    ///
    /// # Errors
    /// [`PdbError::Layout`] for a drawing that is not one `.` and letters from `A` on, one a
    /// cell; then as [`new`](Self::new) for the sizes it draws.
    pub fn drawn(shape: Shape, blank: usize, text: &str) -> Result<Partition, PdbError> {
        let bad = || PdbError::Layout(crate::text::clip(text.trim()));
        let letters: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if letters.len() != shape.cells()
            || letters[0] != '.'
            || letters[1..].iter().any(|c| !c.is_ascii_uppercase())
        {
            return Err(bad());
        }
        let patterns = letters[1..].iter().map(|&c| c as usize - 'A' as usize);
        let mut sizes = vec![0; patterns.clone().max().map_or(0, |p| p + 1)];
        patterns.for_each(|p| sizes[p] += 1);
        if sizes.contains(&0) {
            return Err(bad());
        }
        check_sizes(shape, &sizes)?;
        Ok(Partition::mirrored(
            shape,
            blank,
            &sizes,
            &drawn_layout(text),
        ))
    }

    /// A second partition for ranking beams on `shape`, beside the default one
    /// ([`candidates`]' last), for a goal with its blank on `blank`; `None` on shapes that
    /// have none.
    ///
    /// On 6×6 the default `4-4-4-4-4-4-4-4-3` takes 2×2 blocks; this one's 2×2 blocks are
    /// shifted by a row and a column, so a tile the first misjudges (its conflicts lie
    /// across a block's border) is often judged inside one block here. Its tables hold
    /// about 8.6 M entries, so both fit within [`DEFAULT_BUILD_ENTRIES`]. With linear
    /// conflict and the default partition, it ranks 6×6 beams about as well as the 5-tile
    /// tables do (`examples/beam_probe`, `docs/performance.md`). It is a ranking's part, not
    /// a bound the searches use.
    pub fn shifted(shape: Shape, blank: usize) -> Option<Partition> {
        let layout = match (shape.rows(), shape.cols()) {
            (6, 6) => ".HHEEB JHHEEB JGGDDB IGGDDA IFFCCA IFFCCA",
            _ => return None,
        };
        Partition::drawn(shape, blank, layout).ok()
    }

    /// The partition whose layout for a blank in the top-left corner is `canonical`, for a
    /// goal with its blank on `blank`.
    fn mirrored(
        shape: Shape,
        blank: usize,
        sizes: &[usize],
        canonical: &[Option<usize>],
    ) -> Partition {
        let n = shape.cells();
        let (rows, cols) = (shape.rows(), shape.cols());
        let (br, bc) = shape.coords(blank);
        let flip_rows = 2 * br > rows - 1;
        let flip_cols = 2 * bc > cols - 1;
        let to_canonical = |cell: usize| {
            let (r, c) = shape.coords(cell);
            let r = if flip_rows { rows - 1 - r } else { r };
            let c = if flip_cols { cols - 1 - c } else { c };
            shape.cell(r, c)
        };
        // label[cell]: the pattern of each real cell; the canonical corner is the blank's.
        let mut label: Vec<Option<usize>> = (0..n).map(|c| canonical[to_canonical(c)]).collect();
        let corner = (0..n).find(|&c| to_canonical(c) == 0).expect("a corner");
        if corner != blank {
            label[corner] = label[blank];
            label[blank] = None;
        }
        let mut patterns = vec![Vec::new(); sizes.len()];
        for (cell, l) in label.iter().enumerate() {
            if let Some(p) = l {
                patterns[*p].push(cell as u8);
            }
        }
        Partition {
            shape,
            blank,
            sizes: sizes.to_vec(),
            patterns,
            regions: false,
        }
    }

    /// The same partition with tables that keep the blank's region (`regions`), or the
    /// least over the regions as Korf & Felner's do (see `pockets.rs`).
    ///
    /// # Errors
    /// [`PdbError::RegionsTooManyCells`] for regions on a board of over 63 cells.
    pub fn with_regions(mut self, regions: bool) -> Result<Partition, PdbError> {
        let cells = self.shape.cells();
        if regions && cells > MAX_REGION_CELLS {
            return Err(PdbError::RegionsTooManyCells {
                cells,
                max: MAX_REGION_CELLS,
            });
        }
        self.regions = regions;
        Ok(self)
    }

    /// Whether the tables keep the blank's region.
    pub fn regions(&self) -> bool {
        self.regions
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The blank's goal cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// Pattern sizes as given.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Each pattern's goal cells, ascending.
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// The keys of the partition's tables, one per pattern.
    pub fn keys(&self) -> Vec<TableKey> {
        self.patterns
            .iter()
            .map(|cells| TableKey {
                shape: self.shape,
                cells: cells.clone(),
                blank: self.blank as u8,
                regions: self.regions,
            })
            .collect()
    }

    /// Whether the lookup of the board reflected about the main diagonal may be added: the
    /// board is square and the blank's goal cell is on the diagonal, so the reflection maps
    /// the tiles' goal cells onto the same set of cells.
    pub fn reflectable(&self) -> bool {
        let (r, c) = self.shape.coords(self.blank);
        self.shape.rows() == self.shape.cols() && r == c
    }

    /// `7-8`, or `6-6-6-6:regions` for tables that keep the blank's region.
    pub fn name(&self) -> String {
        let suffix = if self.regions { REGIONS_SUFFIX } else { "" };
        format!("{}{suffix}", sizes_name(&self.sizes))
    }
}

/// Whether a partition with these pattern sizes can be built on `shape`.
fn check_sizes(shape: Shape, sizes: &[usize]) -> Result<(), PdbError> {
    let n = shape.cells();
    if n > MAX_PDB_CELLS {
        return Err(PdbError::TooManyCells {
            cells: n,
            max: MAX_PDB_CELLS,
        });
    }
    let covered: usize = sizes.iter().sum();
    if covered != n - 1 || sizes.contains(&0) {
        return Err(PdbError::WrongTileCount {
            partition: sizes_name(sizes),
            covered,
            shape,
            tiles: n - 1,
        });
    }
    for &k in sizes {
        if k > MAX_PATTERN_TILES {
            return Err(PdbError::PatternTooLarge {
                tiles: k,
                max: MAX_PATTERN_TILES,
            });
        }
        let entries = table_entries(n, k);
        if entries > MAX_TABLE_ENTRIES {
            return Err(PdbError::TableTooLarge {
                tiles: k,
                shape,
                entries,
                max: MAX_TABLE_ENTRIES,
            });
        }
    }
    Ok(())
}

/// Pattern of each cell for a blank in the top-left corner (`None` for the blank).
fn layout(shape: Shape, sizes: &[usize]) -> Vec<Option<usize>> {
    let n = shape.cells();
    // Compact blocks of goal cells, drawn by hand where measured. On 4×4, 7-8 is Korf &
    // Felner's (2002) split into two rows each. For 6-6-3 and 5-5-5 we measured candidate
    // layouts on 30 seeded random instances (`npuzzle random --seed 12345`, not Korf's
    // set): with the 3-tile pattern down the far column, IDA* with reflection generates 3.4
    // times fewer nodes than with it along the blank's row; the 5-5-5 below beats two other
    // block layouts by 1.4 to 2.5 times. On 5×5, 6-6-6-6 is Korf & Felner's partition of
    // the 24-puzzle (three 2×3 blocks and the irregular pattern around the blank);
    // 5-5-5-5-4, what `auto` builds within `DEFAULT_BUILD_ENTRIES`, is theirs with one tile
    // of each pattern taken into a fifth around the centre: its mean value over 2,000
    // random states is 80.52 against 79.92 for reading order (`examples/layout_search`;
    // 6-6-6-6 81.59), and the anytime engine's answers are shorter (docs/performance.md).
    let drawn = match (shape.rows(), shape.cols(), sizes) {
        (4, 4, [7, 8]) => Some(".AAA AAAA BBBB BBBB"),
        (4, 4, [8, 7]) => Some(".BBB BBBB AAAA AAAA"),
        (4, 4, [6, 6, 3]) => Some(".AAA AAAC BBBC BBBC"),
        (4, 4, [6, 3, 6]) => Some(".AAA AAAB CCCB CCCB"),
        (4, 4, [3, 6, 6]) => Some(".BBB BBBA CCCA CCCA"),
        (4, 4, [5, 5, 5]) => Some(".AAB AAAB CCBB CCCB"),
        (5, 5, [6, 6, 6, 6]) => Some(".AABB AAABB CCABB CCDDD CCDDD"),
        (5, 5, [5, 5, 5, 5, 4]) => Some(".AABB AAABB CEEEB CCEDD CCDDD"),
        (5, 5, [7, 7, 5, 5]) => Some(".AABB AAABB CAABB CCDBD CCDDD"),
        (5, 5, [7, 7, 7, 3]) => Some(".AABB AAABB AABBB CCCDD CCCCD"),
        _ => None,
    };
    if let Some(text) = drawn {
        return drawn_layout(text);
    }
    let mut out = vec![None; n];
    if n > 32 {
        // Compact blocks: bands of two rows, walked column by column and turning at each end
        // (so a pattern that does not fit a band's end goes on round the turn), the last
        // (smallest) pattern first, beside the blank. On 6×6 this is nine 2×2 blocks for
        // 4-4-4-4-4-4-4-4-3. Smaller boards keep reading order, the layout their measured
        // figures and cached tables have.
        let (rows, cols) = (shape.rows(), shape.cols());
        let mut cells = (0..rows.div_ceil(2))
            .flat_map(|band| {
                let columns: Vec<usize> = if band % 2 == 0 {
                    (0..cols).collect()
                } else {
                    (0..cols).rev().collect()
                };
                columns.into_iter().flat_map(move |c| {
                    (2 * band..(2 * band + 2).min(rows)).map(move |r| shape.cell(r, c))
                })
            })
            .filter(|&c| c != 0);
        for (p, &k) in sizes.iter().enumerate().rev() {
            for cell in cells.by_ref().take(k) {
                out[cell] = Some(p);
            }
        }
        return out;
    }
    let mut cell = 1;
    for (p, &k) in sizes.iter().enumerate() {
        for _ in 0..k {
            out[cell] = Some(p);
            cell += 1;
        }
    }
    out
}

/// A layout drawn row by row: `.` for the blank, `A`, `B`, … for the patterns.
fn drawn_layout(text: &str) -> Vec<Option<usize>> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| (c != '.').then(|| (c as u8 - b'A') as usize))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(p: &Partition) -> Vec<Vec<u8>> {
        p.patterns().to_vec()
    }

    #[test]
    fn drawn_layouts_are_mirrored_like_the_built_in_ones_and_checked() {
        let s = Shape::square(5).unwrap();
        for blank in [0, 4, 20, 24, 12] {
            let drawn = Partition::drawn(s, blank, ".AABB AAABB CCABB CCDDD CCDDD").unwrap();
            assert_eq!(drawn, Partition::new(s, blank, &[6, 6, 6, 6]).unwrap());
        }
        let other = Partition::drawn(s, 0, ".AABB AABBB AACBD CCCDD CCDDD").unwrap();
        assert_eq!(other.sizes(), [6, 6, 6, 6]);
        assert_ne!(other, Partition::new(s, 0, &[6, 6, 6, 6]).unwrap());
        for bad in [
            "AABB. AABBB AACBD CCCDD CCDDD", // the blank elsewhere
            ".AABB AABBB AACBD CCCDD CCDD",  // a cell short
            ".AABB AABBB AACBD CCCDD CCDDd", // not a pattern letter
            ".AABB AABBB AAEBE EEEBB EEBBB", // no C or D
        ] {
            assert!(
                matches!(Partition::drawn(s, 0, bad), Err(PdbError::Layout(_))),
                "{bad}"
            );
        }
        // Sizes a table cannot have are refused as for `new`.
        assert!(matches!(
            Partition::drawn(s, 0, ".AAAA AAAAA BBBBB BBBBB BBBBB"),
            Err(PdbError::PatternTooLarge { .. })
        ));
    }

    #[test]
    fn the_shifted_6x6_partition_crosses_the_default_blocks_within_the_build_budget() {
        let s = Shape::square(6).unwrap();
        let n = s.cells();
        for blank in [0, 5, 30, 35] {
            let default = Partition::new(s, blank, &candidates(s).pop().unwrap()).unwrap();
            let shifted = Partition::shifted(s, blank).unwrap();
            assert_eq!(shifted.blank(), blank);
            let entries = |p: &Partition| -> u64 {
                p.sizes().iter().map(|&k| table_entries(n, k)).sum::<u64>()
            };
            assert!(entries(&default) + entries(&shifted) <= DEFAULT_BUILD_ENTRIES);
            // Every 4-tile pattern of one is spread over two or more of the other's.
            let owner =
                |p: &Partition, cell: u8| p.patterns().iter().position(|q| q.contains(&cell));
            for pattern in shifted.patterns().iter().filter(|p| p.len() == 4) {
                let mut met: Vec<_> = pattern.iter().map(|&c| owner(&default, c)).collect();
                met.sort();
                met.dedup();
                assert!(
                    met.len() >= 2,
                    "blank {blank}: {pattern:?} inside one default pattern"
                );
            }
        }
        for other in ["5x5", "7x7", "6x5"] {
            assert_eq!(
                Partition::shifted(other.parse().unwrap(), 0),
                None,
                "{other}"
            );
        }
    }

    #[test]
    fn korf_layouts_for_a_blank_in_a_corner() {
        let s = Shape::square(4).unwrap();
        let p = Partition::new(s, 0, &[7, 8]).unwrap();
        assert_eq!(
            cells(&p),
            vec![(1..8).collect::<Vec<u8>>(), (8..16).collect::<Vec<u8>>()]
        );
        assert!(p.reflectable());
        // Standard goal: blank bottom-right, the layout turned half a turn.
        let p = Partition::new(s, 15, &[7, 8]).unwrap();
        assert_eq!(
            cells(&p),
            vec![(8..15).collect::<Vec<u8>>(), (0..8).collect::<Vec<u8>>()]
        );
        let p = Partition::new(s, 0, &[6, 6, 3]).unwrap();
        assert_eq!(
            cells(&p),
            vec![
                vec![1, 2, 3, 4, 5, 6],
                vec![8, 9, 10, 12, 13, 14],
                vec![7, 11, 15]
            ]
        );
    }

    #[test]
    fn korf_felner_24_puzzle_layout() {
        let s = Shape::square(5).unwrap();
        let p = Partition::new(s, 0, &[6, 6, 6, 6]).unwrap();
        assert_eq!(
            cells(&p),
            vec![
                vec![1, 2, 5, 6, 7, 12],
                vec![3, 4, 8, 9, 13, 14],
                vec![10, 11, 15, 16, 20, 21],
                vec![17, 18, 19, 22, 23, 24]
            ]
        );
        assert!(p.reflectable());
        // Standard goal: the same layout turned half a turn about the centre.
        let p = Partition::new(s, 24, &[6, 6, 6, 6]).unwrap();
        let turned: Vec<Vec<u8>> = cells(&p)
            .iter()
            .map(|pattern| {
                let mut v: Vec<u8> = pattern.iter().map(|&c| 24 - c).collect();
                v.sort_unstable();
                v
            })
            .collect();
        assert_eq!(turned[0], vec![1, 2, 5, 6, 7, 12]);
        assert_eq!(turned[3], vec![17, 18, 19, 22, 23, 24]);
    }

    #[test]
    fn every_partition_covers_every_tile_once() {
        for (shape, sizes) in [
            ("5x5", vec![6, 6, 6, 6]),
            ("5x5", vec![5, 5, 5, 5, 4]),
            ("5x5", vec![7, 7, 5, 5]),
            ("5x5", vec![7, 7, 7, 3]),
            ("4x4", vec![5, 5, 5]),
            ("4x4", vec![4, 4, 4, 3]),
            ("3x3", vec![4, 4]),
            ("2x4", vec![3, 2, 2]),
            ("4x5", vec![5, 5, 5, 4]),
        ] {
            let shape: Shape = shape.parse().unwrap();
            for blank in 0..shape.cells() {
                let p = Partition::new(shape, blank, &sizes).unwrap();
                let mut all: Vec<u8> = p.patterns().concat();
                all.sort_unstable();
                let expected: Vec<u8> = (0..shape.cells() as u8)
                    .filter(|&c| c as usize != blank)
                    .collect();
                assert_eq!(all, expected);
                for (pat, &k) in p.patterns().iter().zip(&sizes) {
                    assert_eq!(pat.len(), k);
                }
            }
        }
    }

    #[test]
    fn bad_partitions_are_refused() {
        let s = Shape::square(4).unwrap();
        assert_eq!(
            Partition::new(s, 0, &[7, 7]).unwrap_err().to_string(),
            "partition 7-7 covers 14 tiles but a 4x4 board has 15"
        );
        assert!(matches!(
            Partition::new(s, 0, &[9, 6]),
            Err(PdbError::PatternTooLarge { .. })
        ));
        let big = Shape::new(9, 8).unwrap();
        assert!(matches!(
            Partition::new(big, 0, &[71]),
            Err(PdbError::TooManyCells { .. })
        ));
    }

    #[test]
    fn specs_parse_and_print() {
        assert_eq!("pdb".parse::<PartitionSpec>().unwrap(), PartitionSpec::Best);
        let s: PartitionSpec = "PDB:6-6-3".parse().unwrap();
        assert_eq!(s, PartitionSpec::Sizes(vec![6, 6, 3]));
        assert_eq!(s.to_string(), "pdb:6-6-3");
        assert!("pdb:7-x".parse::<PartitionSpec>().is_err());
        assert!("pdb:".parse::<PartitionSpec>().is_err());
        assert!("pdb:0-15".parse::<PartitionSpec>().is_err());
        let r: PartitionSpec = "pdb:6-6-6-6:Regions".parse().unwrap();
        assert_eq!(r, PartitionSpec::Regions(vec![6, 6, 6, 6]));
        assert_eq!(r.to_string(), "pdb:6-6-6-6:regions");
        assert!("pdb:regions".parse::<PartitionSpec>().is_err());
        assert!("pdb:6-6-6-6:region".parse::<PartitionSpec>().is_err());
    }

    /// Tables that keep the blank's region carry it in their keys and names, and are
    /// refused past the cells a pocket test can shift.
    #[test]
    fn region_partitions_name_their_tables() {
        let goal = |s: &str| {
            let shape: Shape = s.parse().unwrap();
            Puzzle::new(&crate::GoalSpec::BlankFirst.board(shape).unwrap()).unwrap()
        };
        let spec: PartitionSpec = "pdb:6-6-6-6:regions".parse().unwrap();
        let p = spec.partition(&goal("5x5")).unwrap();
        assert!(p.regions() && p.keys().iter().all(|k| k.regions));
        assert_eq!(p.name(), "6-6-6-6:regions");
        let classic = PartitionSpec::Sizes(vec![6, 6, 6, 6])
            .partition(&goal("5x5"))
            .unwrap();
        assert!(!classic.regions() && classic.keys().iter().all(|k| !k.regions));
        assert_eq!(p.keys()[0].entries(), 2 * classic.keys()[0].entries());
        let big: PartitionSpec = format!("pdb:{}:regions", ["4"; 15].join("-") + "-3")
            .parse()
            .unwrap();
        assert_eq!(
            big.partition(&goal("8x8")).unwrap_err(),
            PdbError::RegionsTooManyCells { cells: 64, max: 63 }
        );
    }

    #[test]
    fn defaults_per_shape() {
        let d = |s: &str| candidates(s.parse().unwrap()).pop().unwrap();
        assert_eq!(d("4x4"), vec![6, 6, 3]);
        assert_eq!(d("3x3"), vec![8]);
        assert_eq!(d("3x4"), vec![8, 3]);
        assert_eq!(d("3x5"), vec![6, 6, 2]);
        assert_eq!(d("4x5"), vec![5, 5, 5, 4]);
        assert_eq!(d("5x5"), vec![5, 5, 5, 5, 4]);
        assert_eq!(d("6x6"), [vec![4; 8], vec![3]].concat());
        let strong = |s: &str| candidates(s.parse().unwrap()).remove(0);
        assert_eq!(strong("6x6"), vec![5; 7]);
        assert_eq!(strong("7x7"), vec![4; 12]);
        assert_eq!(strong("8x8"), [vec![4; 15], vec![3]].concat());
    }

    /// Boards over 32 cells, and the 5×5 default, get compact patterns: on 6×6 every pattern
    /// of the default 4-4-4-4-4-4-4-4-3 is a 2×2 block (the 3-tile one beside the blank), for
    /// a blank in any corner; on 6×6 5-tile, 7×7 4-tile and 5×5 `5-5-5-5-4` patterns no two
    /// cells of a pattern are more than 3 moves apart (in reading order, a pattern running
    /// from one row into the next spans 5).
    #[test]
    fn big_boards_and_the_5x5_default_get_compact_patterns() {
        let span = |shape: Shape, cells: &[u8]| {
            let mut far = 0;
            for &a in cells {
                for &b in cells {
                    let ((ra, ca), (rb, cb)) = (shape.coords(a.into()), shape.coords(b.into()));
                    far = far.max(ra.abs_diff(rb) + ca.abs_diff(cb));
                }
            }
            far
        };
        let six: Shape = "6x6".parse().unwrap();
        for blank in [0, 5, 30, 35] {
            let p = Partition::new(six, blank, &[[4; 8].as_slice(), &[3]].concat()).unwrap();
            for cells in p.patterns() {
                let (rows, cols): (Vec<usize>, Vec<usize>) =
                    cells.iter().map(|&c| six.coords(c.into())).unzip();
                let (r0, c0) = (*rows.iter().min().unwrap(), *cols.iter().min().unwrap());
                assert!(
                    rows.iter().all(|&r| r - r0 < 2) && cols.iter().all(|&c| c - c0 < 2),
                    "blank {blank}: {cells:?} is not in a 2x2 block"
                );
            }
        }
        for (shape, sizes) in [
            ("6x6", vec![5; 7]),
            ("7x7", vec![4; 12]),
            ("5x5", vec![5, 5, 5, 5, 4]),
        ] {
            let shape: Shape = shape.parse().unwrap();
            for blank in [0, shape.cells() - 1] {
                let p = Partition::new(shape, blank, &sizes).unwrap();
                for cells in p.patterns() {
                    assert!(span(shape, cells) <= 3, "{shape}: {cells:?}");
                }
            }
        }
    }
}
