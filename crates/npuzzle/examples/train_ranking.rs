//! Fits the 6×6 beams' learned ranking (`heuristic::RankingNet`) by bootstrap learning
//! (Jabbari Arfaee, Zilles & Holte 2011): boards scrambled as the learned solver's generator
//! scrambles them are solved by beams, every state of every path is labelled with the moves
//! left on it, a network is fitted to the labels, and the next round's beams rank by it.
//!
//! ```text
//! train_ranking gen COUNT SEED WIDTH OUT [NET]   # COUNT boards of 1,000 steps, beams WIDTH wide
//! train_ranking fit NET DATA...                  # writes NET (the core's weights format)
//! train_ranking beam NET|- WIDTH < boards        # one beam a board, its length; `-`: no network
//! train_ranking davi NET BATCHES                 # approximate value iteration instead
//! ```
//!
//! `davi` fits the network as the learned solver fits its own (Agostinelli et al. 2019):
//! boards scrambled 0 to `KMAX` (1,000) steps, batches of 256, each state's target the
//! least over its children of one move plus a frozen copy's value (refreshed every
//! `UPDATE`, 500, batches), and never below the admissible value. It writes `NET` (ranking
//! by the value itself: the sum plus `100 / c` times the correction, times `SCALE`) and
//! `NET.params` (the raw parameters, which `INIT` reads back; `SEED` sets the boards).
//! `HIDDEN` sets the hidden units of `fit`'s and `davi`'s networks (32 unless set; the
//! shipped `5-5-5-5-5-5-5` network has 256); with more than `INIT`'s, `davi` grows the
//! network, the new units starting with no say in its output. `INIT` may also be a weights
//! file such as the shipped one (its scale and offset fitted afresh). `THREADS` (1 unless
//! set) shares each batch's states and Adam's step among that many threads, each drawing
//! its boards from its own seed (so a run with `THREADS=2` fits other boards than one with
//! the same `SEED` on one thread); two threads take about 0.55 of one's time a batch.
//!
//! `gen` ranks by linear conflict plus `5-5-5-5-5-5-5`, corrected by `NET` when given, on
//! two threads, and appends `(36 tiles, moves left)` records to `OUT` (with `SHORTEN=1`, the
//! moves left on the beam's path once [`shorten`]ed: labels nearer the distance). Tables come from
//! `NPUZZLE_PDB_DIR` (built there when missing). The rounds behind the shipped weights are
//! in docs/performance.md.

use std::io::{BufRead, Read, Write};
use std::time::Instant;

use npuzzle::anytime::shorten;
use npuzzle::heuristic::learned::{Corrected, RankingNet, MAX_HIDDEN};
use npuzzle::heuristic::pdb::{Partition, PartitionSpec, PatternDatabase, PdbSearch};
use npuzzle::heuristic::{IncrementalHeuristic, LinearConflict, RankingSum};
use npuzzle::moves::Move;
use npuzzle::puzzle::NO_CELL;
use npuzzle::search::{beam, Control};
use npuzzle::{Board, GoalSpec, Puzzle, Shape, TablePolicy, Tables};
use rand::Rng;

const CELLS: usize = 36;
const ROWS: usize = CELLS * CELLS;
/// The share of the fitted network's output the ranking adds to the sum (measured: 0.7
/// ranked better than 0.3 and 1.0).
const LAMBDA: f32 = 0.7;
/// Steps of the learned solver's generator a board.
const STEPS: usize = 1000;

struct Setup {
    shape: Shape,
    goal: Board,
    puzzle: Puzzle,
    db: PatternDatabase,
    /// `INNER=shifted`: the inner ranking is a fresh machine's, linear conflict plus
    /// `auto`'s `4-4-4-4-4-4-4-4-3` plus the shifted partition's tables (this one).
    shifted: Option<PatternDatabase>,
}

fn setup() -> Setup {
    let shape: Shape = "6x6".parse().unwrap();
    let goal = GoalSpec::Standard.board(shape).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let dir = std::env::var_os("NPUZZLE_PDB_DIR").map(std::path::PathBuf::from);
    let tables = Tables::new(dir, TablePolicy::default());
    let fresh = std::env::var("INNER").is_ok_and(|i| i == "shifted");
    let sizes: PartitionSpec = if fresh {
        "4-4-4-4-4-4-4-4-3"
    } else {
        "5-5-5-5-5-5-5"
    }
    .parse()
    .unwrap();
    let partition = sizes.partition(&puzzle).unwrap();
    let db = PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap();
    let shifted = fresh.then(|| {
        let partition = Partition::shifted(shape, goal.blank()).unwrap();
        PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap()
    });
    Setup {
        shape,
        goal,
        puzzle,
        db,
        shifted,
    }
}

/// The learned solver's scramble: `steps` random directions, a step off the board a no-op.
fn scramble(puzzle: &Puzzle, steps: usize, rng: &mut impl Rng) -> Vec<u8> {
    let mut tiles = puzzle.goal.clone();
    let mut blank = tiles.iter().position(|&t| t == 0).unwrap();
    for _ in 0..steps {
        let m = Move::ALL[rng.random_range(0..4)];
        let to = puzzle.neighbours[blank][m.index()];
        if to != NO_CELL {
            let to = usize::from(to);
            tiles.swap(blank, to);
            blank = to;
        }
    }
    tiles
}

fn solve(s: &Setup, net: Option<&RankingNet>, tiles: &[u8], width: usize) -> Option<Vec<Move>> {
    let sum = RankingSum::new(LinearConflict::new(&s.puzzle), s.db.search());
    match &s.shifted {
        Some(shifted) => solve_by(s, RankingSum::new(sum, shifted.search()), net, tiles, width),
        None => solve_by(s, sum, net, tiles, width),
    }
}

/// A beam ranked by `sum`, corrected by `net` when given.
fn solve_by<R: IncrementalHeuristic + Clone>(
    s: &Setup,
    sum: R,
    net: Option<&RankingNet>,
    tiles: &[u8],
    width: usize,
) -> Option<Vec<Move>> {
    let out = match net {
        Some(net) => beam(
            &s.puzzle,
            tiles,
            Corrected::new(net, sum),
            width,
            100_000,
            Control::default(),
        ),
        None => beam(&s.puzzle, tiles, sum, width, 100_000, Control::default()),
    };
    out.moves
}

fn load(path: &str) -> RankingNet {
    RankingNet::from_bytes(&std::fs::read(path).unwrap()).expect("a weights file")
}

fn gen(args: &[String]) {
    let count: usize = args[0].parse().unwrap();
    let seed: u64 = args[1].parse().unwrap();
    let width: usize = args[2].parse().unwrap();
    let out_path = &args[3];
    let net = args.get(4).map(|p| load(p));
    let s = setup();
    let threads = 2;
    let shortened = std::env::var("SHORTEN").is_ok_and(|v| v == "1");
    let began = Instant::now();
    let results: Vec<Vec<u8>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|th| {
                let (s, net) = (&s, net.as_ref());
                scope.spawn(move || {
                    let mut rng = npuzzle::generate::rng(seed * 1000 + th as u64);
                    let mut bytes = Vec::new();
                    let (mut total, mut solved) = (0, 0);
                    for i in 0..count.div_ceil(threads) {
                        let start = scramble(&s.puzzle, STEPS, &mut rng);
                        // A beam can die out (every child seen before): skip the board.
                        let Some(path) = solve(s, net, &start, width) else {
                            continue;
                        };
                        let path = if shortened {
                            shorten(s.shape, &start, &path, Control::default())
                        } else {
                            path
                        };
                        let mut tiles = start.clone();
                        let mut blank = tiles.iter().position(|&x| x == 0).unwrap();
                        for (done, m) in path.iter().enumerate() {
                            bytes.extend_from_slice(&tiles);
                            bytes.push((path.len() - done).min(255) as u8);
                            let to = usize::from(s.puzzle.neighbours[blank][m.index()]);
                            tiles.swap(blank, to);
                            blank = to;
                        }
                        assert_eq!(tiles, s.puzzle.goal, "the path replays");
                        total += path.len();
                        solved += 1;
                        if th == 0 && i % 100 == 0 {
                            eprintln!(
                                "{} boards, mean {:.1} moves, {:.0} s",
                                solved * threads,
                                total as f64 / solved as f64,
                                began.elapsed().as_secs_f64()
                            );
                        }
                    }
                    bytes
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out_path)
        .unwrap();
    for r in results {
        f.write_all(&r).unwrap();
    }
}

/// Little-endian `f32`s.
fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// One labelled state: its tiles, the inner ranking in hundreds of moves, the moves left.
struct Sample {
    tiles: [u8; CELLS],
    inner: f32,
    target: f32,
}

/// The network being fitted: `y = b2 + c·d + w2·relu(Σ w[tile, cell] + b1 + wd·d)`, `d` the
/// inner ranking in hundreds of moves. The ranking adds `LAMBDA × w2·relu(…)` to the sum.
/// `p` holds `w` (`ROWS × h`), `b1`, `wd`, `w2` (`h` each), `b2` and `c`, in that order.
#[derive(Clone)]
struct Params {
    h: usize,
    p: Vec<f32>,
}

impl Params {
    /// Parameters of a network of `h` hidden units.
    fn len(h: usize) -> usize {
        ROWS * h + 3 * h + 2
    }

    /// Small random weights, the linear part zero, with `HIDDEN` hidden units (32 unless
    /// set; `RankingNet::allows` says which).
    fn random(rng: &mut impl Rng) -> Params {
        let h: usize = std::env::var("HIDDEN").map_or(32, |h| h.parse().unwrap());
        assert!(RankingNet::allows(h), "HIDDEN={h}");
        let mut p = Params {
            h,
            p: vec![0f32; Params::len(h)],
        };
        let (b1, wd, w2) = (p.b1(), p.wd(), p.w2());
        for x in &mut p.p[..w2 + h] {
            *x = (rng.random::<f32>() - 0.5) * 0.2;
        }
        for x in &mut p.p[w2..w2 + h] {
            *x *= 0.1;
        }
        p.p[b1..wd].fill(0.1);
        p
    }

    /// Parameters as `save_davi` wrote them (`.params`), their hidden units told by their
    /// number.
    fn read(bytes: &[u8]) -> Params {
        let p = floats(bytes);
        let h = (p.len() - 2) / (ROWS + 3);
        assert_eq!(p.len(), Params::len(h), "a parameters file");
        Params { h, p }
    }

    /// Parameters that rank as `net` does (a weights file `save_davi` wrote, whose value's
    /// scale `c` and offset `b2` it leaves out): `c` and `b2` are fitted by a few rounds of
    /// least squares of the value's own targets (one move plus the least child value) on the
    /// ranking, over 4,096 states scrambled as `davi` scrambles them.
    fn from_ranking(
        net: &RankingNet,
        s: &Setup,
        bounds: &mut impl FnMut(&[u8]) -> (u32, u32),
        kmax: usize,
        rng: &mut impl Rng,
    ) -> Params {
        // The weights file's floats, after its magic and two counts, in `Params`' order.
        let floats = floats(&net.to_bytes()[16..]);
        let h = net.hidden();
        let mut p = Params {
            h,
            p: vec![0f32; Params::len(h)],
        };
        p.p[..floats.len()].copy_from_slice(&floats);
        // With `c` = 100 and `b2` = 0 the value is the ranking itself, in moves.
        let (c, w2) = (p.c(), p.w2());
        p.p[c] = 100.0;
        let sample = |t: &[u8], bounds: &mut dyn FnMut(&[u8]) -> (u32, u32)| {
            let (a, b) = bounds(t);
            let x = Sample {
                tiles: t.try_into().unwrap(),
                inner: (a + b) as f32 / 100.0,
                target: 0.0,
            };
            (p.forward(&x).1, a.max(b) as f32)
        };
        let goal = &s.puzzle.goal[..];
        // Each state's ranking, admissible value and its children's rankings (goal: none).
        let mut states = Vec::new();
        while states.len() < 4096 {
            let k = rng.random_range(1..=kmax);
            let t = scramble(&s.puzzle, k, rng);
            if t[..] == *goal {
                continue;
            }
            let (r, floor) = sample(&t, bounds);
            let blank = t.iter().position(|&x| x == 0).unwrap();
            let mut children = Vec::new();
            for m in Move::ALL {
                let to = s.puzzle.neighbours[blank][m.index()];
                if to != NO_CELL {
                    let mut child = t.clone();
                    child.swap(blank, usize::from(to));
                    children.push((child[..] != *goal).then(|| sample(&child, bounds).0));
                }
            }
            states.push((r, floor, children));
        }
        let (mut slope, mut offset) = (0.625f64, 0f64);
        for _ in 0..20 {
            let value = |r: f32| (offset + slope * f64::from(r)).max(0.0);
            let points: Vec<(f64, f64)> = states
                .iter()
                .map(|(r, floor, children)| {
                    let least = children
                        .iter()
                        .map(|c| c.map_or(0.0, value))
                        .fold(f64::MAX, f64::min);
                    (f64::from(*r), (1.0 + least).max(f64::from(*floor)))
                })
                .collect();
            let n = points.len() as f64;
            let (mx, my) = points
                .iter()
                .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
            let (sxy, sxx) = points.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
                (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
            });
            slope = sxy / sxx;
            offset = my - slope * mx;
        }
        eprintln!(
            "from the ranking: c = {:.2}, b2 = {offset:.2}",
            100.0 * slope
        );
        // The value is `b2 + (c / 100) × ranking`: the output weights scale with `c`.
        p.p[c] = (100.0 * slope) as f32;
        let b2 = p.b2();
        p.p[b2] = offset as f32;
        for w in &mut p.p[w2..w2 + h] {
            *w *= slope as f32;
        }
        p
    }

    /// The same network with `h` hidden units: the new units' first-layer weights small
    /// and random, their output weights zero, so that it computes the same function until
    /// fitting moves them.
    fn grown(&self, h: usize, rng: &mut impl Rng) -> Params {
        let mut small = || (rng.random::<f32>() - 0.5) * 0.2;
        let old = self.h;
        let mut p = Params {
            h,
            p: vec![0f32; Params::len(h)],
        };
        for row in 0..ROWS {
            let (from, to) = (&self.p[row * old..][..old], &mut p.p[row * h..][..h]);
            to[..old].copy_from_slice(from);
            to[old..].iter_mut().for_each(|x| *x = small());
        }
        let parts = [
            (self.b1(), p.b1()),
            (self.wd(), p.wd()),
            (self.w2(), p.w2()),
        ];
        for (from, to) in parts {
            p.p[to..to + old].copy_from_slice(&self.p[from..from + old]);
        }
        let (b1, wd) = (p.b1(), p.wd());
        p.p[b1 + old..wd].fill(0.1);
        p.p[wd + old..wd + h].iter_mut().for_each(|x| *x = small());
        let (b2, c) = (p.b2(), p.c());
        p.p[b2] = self.p[self.b2()];
        p.p[c] = self.p[self.c()];
        p
    }

    // Where each part starts.
    fn b1(&self) -> usize {
        ROWS * self.h
    }
    fn wd(&self) -> usize {
        self.b1() + self.h
    }
    fn w2(&self) -> usize {
        self.wd() + self.h
    }
    fn b2(&self) -> usize {
        self.w2() + self.h
    }
    fn c(&self) -> usize {
        self.b2() + 1
    }

    /// `(hidden pre-activations, output)` for a sample (the first `h` pre-activations).
    fn forward(&self, x: &Sample) -> ([f32; MAX_HIDDEN], f32) {
        let (p, h) = (&self.p, self.h);
        let (b1, wd, w2) = (self.b1(), self.wd(), self.w2());
        let mut z = [0f32; MAX_HIDDEN];
        for (k, z) in z[..h].iter_mut().enumerate() {
            *z = p[b1 + k] + p[wd + k] * x.inner;
        }
        for (cell, &t) in x.tiles.iter().enumerate() {
            let row = &p[(usize::from(t) * CELLS + cell) * h..][..h];
            for (z, w) in z.iter_mut().zip(row) {
                *z += w;
            }
        }
        let mut y = p[self.b2()] + p[self.c()] * x.inner;
        for (z, w) in z[..h].iter().zip(&p[w2..w2 + h]) {
            y += w * z.max(0.0);
        }
        (z, y)
    }

    /// Adds the gradient of `(y - target)² / 2 / n` at `x` to `g`; returns `(y - target)²`.
    fn gradient(&self, x: &Sample, n: usize, g: &mut [f32]) -> f32 {
        let (z, y) = self.forward(x);
        let (h, b1, wd, w2) = (self.h, self.b1(), self.wd(), self.w2());
        let dy = (y - x.target) / n as f32;
        g[self.b2()] += dy;
        g[self.c()] += dy * x.inner;
        for k in 0..h {
            if z[k] > 0.0 {
                g[w2 + k] += dy * z[k];
                let gz = dy * self.p[w2 + k];
                g[b1 + k] += gz;
                g[wd + k] += gz * x.inner;
                for (cell, &t) in x.tiles.iter().enumerate() {
                    g[(usize::from(t) * CELLS + cell) * h + k] += gz;
                }
            }
        }
        (y - x.target).powi(2)
    }

    fn rmse(&self, set: &[Sample]) -> f64 {
        let se: f64 = set
            .iter()
            .map(|x| f64::from(self.forward(x).1 - x.target).powi(2))
            .sum();
        (se / set.len() as f64).sqrt()
    }

    fn export(&self) -> RankingNet {
        self.export_with(LAMBDA)
    }

    /// The ranking adds `lambda × w2·relu(…)` to the sum.
    fn export_with(&self, lambda: f32) -> RankingNet {
        let row = |at: usize, scale: f32| -> Vec<f32> {
            self.p[at..at + self.h].iter().map(|w| w * scale).collect()
        };
        RankingNet::new(
            CELLS,
            self.p[..self.b1()].to_vec(),
            row(self.b1(), 1.0),
            row(self.wd(), 1.0),
            row(self.w2(), lambda),
        )
    }
}

/// One step of Adam (Kingma & Ba 2015), the `step`th, skipping weights no sample has
/// touched yet.
fn adam(p: &mut [f32], g: &[f32], m1: &mut [f32], m2: &mut [f32], step: i32, lr: f32) {
    let (c1, c2) = (1.0 - 0.9f32.powi(step), 1.0 - 0.999f32.powi(step));
    for i in 0..p.len() {
        if g[i] == 0.0 && m1[i] == 0.0 {
            continue;
        }
        m1[i] = 0.9 * m1[i] + 0.1 * g[i];
        m2[i] = 0.999 * m2[i] + 0.001 * g[i] * g[i];
        p[i] -= lr * (m1[i] / c1) / ((m2[i] / c2).sqrt() + 1e-8);
    }
}

fn fit(args: &[String]) {
    let (net_path, data) = args.split_first().unwrap();
    let s = setup();
    let lc = LinearConflict::new(&s.puzzle);
    let mut sum = RankingSum::new(lc.clone(), s.db.search());
    let mut shifted = s
        .shifted
        .as_ref()
        .map(|d| RankingSum::new(RankingSum::new(lc, s.db.search()), d.search()));
    let mut samples = Vec::new();
    for path in data {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        for rec in bytes.chunks_exact(CELLS + 1) {
            let tiles: [u8; CELLS] = rec[..CELLS].try_into().unwrap();
            samples.push(Sample {
                tiles,
                inner: match &mut shifted {
                    Some(r) => r.init(&tiles),
                    None => sum.init(&tiles),
                } as f32
                    / 100.0,
                target: f32::from(rec[CELLS]),
            });
        }
    }
    let epochs: usize = std::env::var("EPOCHS").map_or(2, |e| e.parse().unwrap());
    let lr = 1e-3f32;
    // The last tenth held out: whole boards, as the files hold them board by board.
    let split = samples.len() * 9 / 10;
    let mut rng = npuzzle::generate::rng(7);
    let mut p = Params::random(&mut rng);
    // The linear part first: least squares of the target on the inner ranking.
    let n = split as f64;
    let (sx, sy) = samples[..split].iter().fold((0.0, 0.0), |(a, b), x| {
        (a + f64::from(x.inner), b + f64::from(x.target))
    });
    let (mx, my) = (sx / n, sy / n);
    let (sxy, sxx) = samples[..split].iter().fold((0.0, 0.0), |(a, b), x| {
        let dx = f64::from(x.inner) - mx;
        (a + dx * (f64::from(x.target) - my), b + dx * dx)
    });
    let (c, b2) = (p.c(), p.b2());
    p.p[c] = (sxy / sxx) as f32;
    p.p[b2] = (my - sxy / sxx * mx) as f32;
    eprintln!(
        "{} samples; linear fit {:.2} × sum/100 + {:.2}",
        samples.len(),
        p.p[c],
        p.p[b2]
    );
    let mut m1 = vec![0f32; p.p.len()];
    let mut m2 = vec![0f32; p.p.len()];
    let mut order: Vec<usize> = (0..split).collect();
    let mut step = 0i32;
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for chunk in order.chunks(256) {
            let mut g = vec![0f32; p.p.len()];
            for &i in chunk {
                p.gradient(&samples[i], chunk.len(), &mut g);
            }
            step += 1;
            adam(&mut p.p, &g, &mut m1, &mut m2, step, lr);
        }
        eprintln!(
            "epoch {epoch}: rmse {:.3} on a sample of the fitted states, {:.3} held out",
            p.rmse(&samples[..split.min(200_000)]),
            p.rmse(&samples[split..])
        );
    }
    std::fs::write(net_path, p.export().to_bytes()).unwrap();
}

fn beam_boards(args: &[String]) {
    let net = (args[0] != "-").then(|| load(&args[0]));
    let width: usize = args[1].parse().unwrap();
    let s = setup();
    let (mut total, mut n) = (0, 0);
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        if line.trim().is_empty() {
            continue;
        }
        let board = Board::parse(&line, Some(s.shape)).unwrap();
        let began = Instant::now();
        let path = solve(&s, net.as_ref(), &s.puzzle.encode(&board), width).expect("a path");
        assert_eq!(board.replay(&path).unwrap(), s.goal);
        total += path.len();
        n += 1;
        println!("{}\t{:.1}s", path.len(), began.elapsed().as_secs_f64());
    }
    println!("mean {:.2}", total as f64 / n as f64);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => gen(&args[1..]),
        Some("fit") => fit(&args[1..]),
        Some("beam") => beam_boards(&args[1..]),
        Some("davi") => davi(&args[1..]),
        _ => eprintln!("usage: train_ranking gen|fit|beam|davi … (see the file's doc comment)"),
    }
}

/// Approximate value iteration (DAVI, as the learned solver trains): states scrambled 0 to
/// 1,000 steps, each fitted to `min over children (1 + V'(child))` under a target copy
/// `V'` of the network refreshed every `UPDATE` batches, and never below the admissible
/// value (the larger of linear conflict and the tables). A probe.
fn davi(args: &[String]) {
    let out = &args[0];
    let batches: usize = args[1].parse().unwrap();
    let update: usize = std::env::var("UPDATE").map_or(500, |u| u.parse().unwrap());
    let kmax: usize = std::env::var("KMAX").map_or(1000, |u| u.parse().unwrap());
    let lr: f32 = std::env::var("LR").map_or(1e-3, |u| u.parse().unwrap());
    let s = setup();
    // The two bounds, once a state: their sum is the network's input, their larger the floor.
    let (mut lc, mut pdb) = (LinearConflict::new(&s.puzzle), s.db.search());
    let mut bounds = |tiles: &[u8]| (lc.init(tiles), pdb.init(tiles));
    let mut rng = npuzzle::generate::rng(std::env::var("SEED").map_or(11, |u| u.parse().unwrap()));
    let mut p = Params::random(&mut rng);
    // A first guess for the linear part: on these boards the distance is about 0.6 times
    // the sum (which counts linear conflict and the tables, each a bound on it).
    let c = p.c();
    p.p[c] = 62.5;
    if let Ok(init) = std::env::var("INIT") {
        let bytes = std::fs::read(init).unwrap();
        // A shipped weights file, or the raw parameters a run wrote.
        let read = match RankingNet::from_bytes(&bytes) {
            Some(net) => Params::from_ranking(&net, &s, &mut bounds, kmax, &mut rng),
            None => Params::read(&bytes),
        };
        // `HIDDEN` at least as many units as the run that wrote them; more grow the network.
        assert!(read.h <= p.h, "INIT's hidden units against HIDDEN");
        p = if read.h < p.h {
            read.grown(p.h, &mut rng)
        } else {
            read
        };
    }
    let mut target = p.clone();
    let (mut m1, mut m2) = (vec![0f32; p.p.len()], vec![0f32; p.p.len()]);
    let began = Instant::now();
    let (mut loss, mut mean_y, mut count) = (0f64, 0f64, 0usize);
    let threads: usize = std::env::var("THREADS").map_or(1, |t| t.parse().unwrap());
    assert!((1..=BATCH).contains(&threads), "THREADS from 1 to {BATCH}");
    // Threads after the first, each with its bounds and gradient, built once.
    let mut workers: Vec<Worker> = (1..threads).map(|_| Worker::new(&s, p.p.len())).collect();
    let mut g = vec![0f32; p.p.len()];
    for step in 1..=batches {
        g.fill(0.0);
        let nets = (&p, &target);
        let (l, y) = if threads == 1 {
            // One thread draws its boards from `SEED`'s stream itself, as before `THREADS`.
            davi_batch(&s, &mut bounds, &mut rng, nets, BATCH, kmax, &mut g)
        } else {
            let seeds: Vec<u64> = (0..threads).map(|_| rng.random()).collect();
            let share = BATCH.div_ceil(threads);
            let s = &s;
            std::thread::scope(|scope| {
                let handles: Vec<_> = workers
                    .iter_mut()
                    .zip(&seeds[1..])
                    .map(|(w, &seed)| scope.spawn(move || w.batch(s, seed, nets, share, kmax)))
                    .collect();
                let mut rng = npuzzle::generate::rng(seeds[0]);
                let first = BATCH - share * (threads - 1);
                let mine = davi_batch(s, &mut bounds, &mut rng, nets, first, kmax, &mut g);
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap())
                    .fold(mine, |(a, b), (c, d)| (a + c, b + d))
            })
        };
        loss += l;
        mean_y += y;
        count += BATCH;
        // The other threads' gradients added in and Adam's step taken, a slice a thread.
        let chunk = p.p.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let slices =
                p.p.chunks_mut(chunk)
                    .zip(g.chunks_mut(chunk))
                    .zip(m1.chunks_mut(chunk).zip(m2.chunks_mut(chunk)));
            for (i, ((p, g), (m1, m2))) in slices.enumerate() {
                let workers = &workers;
                scope.spawn(move || {
                    for w in workers {
                        for (g, o) in g.iter_mut().zip(&w.g[i * chunk..]) {
                            *g += o;
                        }
                    }
                    adam(p, g, m1, m2, step as i32, lr);
                });
            }
        });
        if step % update == 0 {
            target.p.copy_from_slice(&p.p);
            eprintln!(
                "batch {step}: rmse {:.3} against the targets, mean target {:.2}, {:.0} s",
                (loss / count as f64).sqrt(),
                mean_y / count as f64,
                began.elapsed().as_secs_f64()
            );
            (loss, mean_y, count) = (0.0, 0.0, 0);
            save_davi(&p, out);
        }
    }
    save_davi(&p, out);
}

/// States a batch of value iteration fits.
const BATCH: usize = 256;

/// A thread of value iteration after the first: its own bounds, and its share of a batch's
/// gradient (added to the first thread's before Adam's step).
struct Worker<'a> {
    lc: LinearConflict,
    pdb: PdbSearch<'a>,
    g: Vec<f32>,
}

impl<'a> Worker<'a> {
    fn new(s: &'a Setup, params: usize) -> Worker<'a> {
        Worker {
            lc: LinearConflict::new(&s.puzzle),
            pdb: s.db.search(),
            g: vec![0f32; params],
        }
    }

    /// `count` states drawn from `seed`, their gradient in `self.g` (zeroed first).
    fn batch(
        &mut self,
        s: &Setup,
        seed: u64,
        nets: (&Params, &Params),
        count: usize,
        kmax: usize,
    ) -> (f64, f64) {
        let (lc, pdb) = (&mut self.lc, &mut self.pdb);
        let mut bounds = |tiles: &[u8]| (lc.init(tiles), pdb.init(tiles));
        let mut rng = npuzzle::generate::rng(seed);
        self.g.fill(0.0);
        davi_batch(s, &mut bounds, &mut rng, nets, count, kmax, &mut self.g)
    }
}

/// Adds to `g` the gradient of `count` scrambled states' squared errors against their
/// targets, `(network, frozen copy)` in `nets`, each divided by the whole batch; returns
/// the squared errors' sum and the targets' sum.
fn davi_batch(
    s: &Setup,
    bounds: &mut impl FnMut(&[u8]) -> (u32, u32),
    rng: &mut impl Rng,
    (p, target): (&Params, &Params),
    count: usize,
    kmax: usize,
    g: &mut [f32],
) -> (f64, f64) {
    let goal = &s.puzzle.goal[..];
    let (mut loss, mut mean_y) = (0f64, 0f64);
    for _ in 0..count {
        let k = rng.random_range(0..=kmax);
        let t: [u8; CELLS] = scramble(&s.puzzle, k, rng).try_into().unwrap();
        let (a, b) = bounds(&t);
        let y = if t[..] == *goal {
            0.0
        } else {
            let blank = t.iter().position(|&x| x == 0).unwrap();
            let mut best = f32::MAX;
            for m in Move::ALL {
                let to = s.puzzle.neighbours[blank][m.index()];
                if to == NO_CELL {
                    continue;
                }
                let mut c = t;
                c.swap(blank, usize::from(to));
                let v = if c[..] == *goal {
                    0.0
                } else {
                    let (ca, cb) = bounds(&c);
                    let x = Sample {
                        tiles: c,
                        inner: (ca + cb) as f32 / 100.0,
                        target: 0.0,
                    };
                    target.forward(&x).1.max(0.0)
                };
                best = best.min(1.0 + v);
            }
            best.max(a.max(b) as f32)
        };
        let x = Sample {
            tiles: t,
            inner: (a + b) as f32 / 100.0,
            target: y,
        };
        loss += f64::from(p.gradient(&x, BATCH, g));
        mean_y += f64::from(y);
    }
    (loss, mean_y)
}

/// Writes the network as a ranking proportional to its value, `sum + 100/c × w2·relu(…)`,
/// times `SCALE` (default 1) for the correction; `c` printed.
fn save_davi(p: &Params, out: &str) {
    let scale: f32 = std::env::var("SCALE").map_or(1.0, |u| u.parse().unwrap());
    let c = p.p[p.c()];
    eprintln!("c = {c:.2}, b2 = {:.2}", p.p[p.b2()]);
    std::fs::write(out, p.export_with(100.0 / c * scale).to_bytes()).unwrap();
    let raw: Vec<u8> = p.p.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(format!("{out}.params"), raw).unwrap();
}
