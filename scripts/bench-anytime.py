#!/usr/bin/env python3
"""Benchmark of the anytime engine (plain `npuzzle solve`, one thread per board).

Usage:
    python3 scripts/bench-anytime.py korf50 --time-limit 10 [--first N] [--jobs 1]
    python3 scripts/bench-anytime.py random --size 6x6 --count 100 --time-limit 15
    python3 scripts/bench-anytime.py random --size 6x6 --moves 300 --count 10 --time-limit 15
    python3 scripts/bench-anytime.py random --size 6x6 --scramble 1000 --count 40 --time-limit 15

`korf50` solves Korf & Felner's 50 random 24-puzzles (data/korf50-24puzzle.txt, blank-first
goal) and reports the mean length over the published optimal lengths, checking every answer
against them (a length below the optimum, or a lower bound above it, is a failure). `random`
solves `npuzzle random --seed 1` boards of a size and reports the mean length, mean lower
bound and their ratio; with `--moves M` the boards are `M`-move random walks from the goal
instead (`npuzzle random --moves M`), easier than uniform ones, as the learned solver's
test states are (its 24-puzzle set averages 89.4 moves against 100.8 for uniform boards;
300-move walks on 5×5 come close). With `--scramble S` they are made as the learned solver's
code makes its states (`environments/n_puzzle.py` in `forestagostinelli/DeepCubeA`): `S` steps
back from the goal, each in one of the four directions at random, a step off the board doing
nothing and a step free to undo the last (seeded here, so runs repeat); 1,000 such steps give
5×5 boards like its 24-puzzle test set (see `docs/performance.md`). Every path is replayed by
the solver's own JSON (`solvable`, `moves`) and here again, independently.

All boards run in one `npuzzle batch --jobs N` process (one thread per board), so the tables
are loaded once, as a long-running program would hold them; `--jobs 2` runs two boards at
once (on a 2-core machine, one core each, when nothing else is running: check `uptime`).
"""

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NPUZZLE = ROOT / "target" / "release" / "npuzzle"


def replay(size, start, goal, moves):
    """Applies blank moves to the start; True when they reach the goal."""
    rows, cols = (int(x) for x in size.split("x"))
    tiles = list(start)
    b = tiles.index(0)
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    for m in moves:
        r, c = divmod(b, cols)
        if (m == "U" and r == 0) or (m == "D" and r == rows - 1):
            return False
        if (m == "L" and c == 0) or (m == "R" and c == cols - 1):
            return False
        n = b + step[m]
        tiles[b], tiles[n] = tiles[n], 0
        b = n
    return tiles == list(goal)


def scrambled(size, steps, count, seed=1):
    """`count` boards (standard goal, blank last), each `steps` random steps back from the
    goal as the learned solver's generator takes them: a direction drawn from four, a step
    off the board leaving the board as it is, and nothing against undoing the last step."""
    rows, cols = (int(x) for x in size.split("x"))
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        tiles = list(range(1, rows * cols)) + [0]
        blank = rows * cols - 1
        for _ in range(steps):
            dr, dc = rng.choice(((-1, 0), (1, 0), (0, -1), (0, 1)))
            r, c = divmod(blank, cols)
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                to = (r + dr) * cols + c + dc
                tiles[blank], tiles[to] = tiles[to], 0
                blank = to
        boards.append(" ".join(map(str, tiles)))
    return boards


def solve_all(boards, size, goal, time_limit, jobs):
    """Runs `npuzzle batch` on the boards; the JSON objects in board order, each replayed.

    A copy of the first board goes first and its result is dropped: it loads (or builds) the
    tables, which a budget counts, so that every timed board finds them in memory.
    """
    boards = [boards[0]] + boards
    out = subprocess.run(
        [str(NPUZZLE), "batch", "-", "--size", size, "--goal", goal,
         "--time-limit", str(time_limit), "--jobs", str(jobs), "--format", "json"],
        input="\n".join(boards) + "\n", capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"npuzzle batch failed (exit {out.returncode}): {out.stderr.strip()}")
    results = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    results.sort(key=lambda r: r.get("line", 0))
    results = results[1:]
    for r in results:
        if not replay(size, r["start"], r["goal"], r["moves"]):
            sys.exit(f"the path for {r['start']} does not replay")
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set", choices=["korf50", "random"])
    ap.add_argument("--time-limit", type=float, required=True)
    ap.add_argument("--size", default="6x6")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--first", type=int, default=None, help="only the first N boards")
    ap.add_argument("--jobs", type=int, default=1)
    made = ap.add_mutually_exclusive_group()
    made.add_argument("--moves", type=int, default=None,
                      help="random: boards walked this many random moves from the goal")
    made.add_argument("--scramble", type=int, default=None,
                      help="random: boards scrambled this many steps as the learned solver's "
                           "generator does (undoing allowed, steps off the board doing nothing)")
    ap.add_argument("--lengths", action="store_true",
                    help="also print each board's length and lower bound")
    ap.add_argument("--boards", action="store_true",
                    help="print the boards, one a line, and solve none")
    ap.add_argument("--npuzzle", default=None,
                    help="the binary to run (default: target/release/npuzzle), say an older build")
    args = ap.parse_args()
    global NPUZZLE
    if args.npuzzle:
        NPUZZLE = Path(args.npuzzle)

    if args.set == "korf50":
        if args.moves or args.scramble is not None:
            sys.exit("korf50 is a fixed set: --moves and --scramble are for random")
        size, goal = "5x5", "blank-first"
        boards, optimal = [], []
        for line in (ROOT / "data" / "korf50-24puzzle.txt").read_text().splitlines():
            nums = line.split()
            boards.append(" ".join(nums[:25]))
            optimal.append(int(nums[25]))
        made = ""
    else:
        size, goal = args.size, "standard"
        if args.scramble is not None:
            boards = scrambled(size, args.scramble, args.count)
            made = f", scrambled {args.scramble} steps"
        else:
            walk = ["--moves", str(args.moves)] if args.moves else []
            text = subprocess.run(
                [str(NPUZZLE), "random", "--size", size, "--count", str(args.count),
                 "--seed", "1"] + walk,
                capture_output=True, text=True, check=True).stdout
            boards = [l for l in text.splitlines() if l.strip()]
            made = f", {args.moves}-move walks" if args.moves else ""
        optimal = [None] * len(boards)
    if args.first:
        boards, optimal = boards[:args.first], optimal[:args.first]
    if args.boards:
        print("\n".join(boards))
        return

    results = solve_all(boards, size, goal, args.time_limit, args.jobs)
    if len(results) != len(boards):
        sys.exit(f"{len(results)} results for {len(boards)} boards")

    lengths = [r["length"] for r in results]
    bounds = [r["lower_bound"] for r in results]
    for i, (r, opt) in enumerate(zip(results, optimal), 1):
        if opt is not None and (r["length"] < opt or r["lower_bound"] > opt):
            sys.exit(f"board {i}: length {r['length']}, bound {r['lower_bound']}, optimal {opt}")
        if r["optimal"] and opt is not None and r["length"] != opt:
            sys.exit(f"board {i}: called optimal at {r['length']}, optimal is {opt}")
    n = len(results)
    mean_len = sum(lengths) / n
    mean_lb = sum(bounds) / n
    print(f"{args.set} {size}{made}: {n} boards, --time-limit {args.time_limit}, "
          "one thread each")
    print(f"  mean length {mean_len:.2f}, mean lower bound {mean_lb:.2f}, "
          f"ratio {mean_len / mean_lb:.3f}")
    print(f"  proved optimal: {sum(r['optimal'] for r in results)} of {n}")
    if args.lengths:
        print("  lengths: " + " ".join(str(x) for x in lengths))
        print("  bounds:  " + " ".join(str(x) for x in bounds))
    if optimal[0] is not None:
        mean_opt = sum(optimal) / n
        ratios = [l / o for l, o in zip(lengths, optimal)]
        print(f"  mean optimal {mean_opt:.2f}: mean length / optimal {mean_len / mean_opt:.4f}, "
              f"mean of ratios {sum(ratios) / n:.4f}, worst {max(ratios):.3f}")


if __name__ == "__main__":
    main()
