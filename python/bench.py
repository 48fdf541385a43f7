"""Benchmarks of the Python package, with the figures of issue 12:

* ``solve_many`` on 10,000 random 3x3 boards: 2 jobs against 1, and against
  ``npuzzle batch --jobs 2`` on the same boards (a file, JSON lines to /dev/null);
* a solved 8-puzzle through ``npuzzle.solve`` in a Python loop, in microseconds per call.

Runs are interleaved in rounds (1 job, 2 jobs, batch; then the other way round) so a busy
machine slows all of them alike; times are medians of ``--repeat`` runs, ratios the median of
the rounds' own ratios. Every run's lengths are checked
against the others'. Usage (from the repository's root, after ``pip install ./python`` and
``cargo build --release -p npuzzle-cli``)::

    python python/bench.py [--boards 10000] [--repeat 31] [--cli target/release/npuzzle]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

# Run as a script, Python puts this folder first on the path, where the source package
# (without its compiled extension) would shadow the installed one.
_HERE = pathlib.Path(__file__).resolve().parent
if sys.path and pathlib.Path(sys.path[0] or ".").resolve() == _HERE:
    del sys.path[0]

import npuzzle  # noqa: E402

REPO = _HERE.parent


def batch_run(cli: str, path: str, flags: list):
    """``npuzzle batch --jobs 2`` on the file: its lengths, and how long the process took
    (``call``) and with its JSON lines read (``all``)."""
    t = time.perf_counter()
    out = subprocess.run(
        [cli, "batch", path, "--jobs", "2", "--format", "json", *flags],
        capture_output=True,
        text=True,
        check=True,
    )
    call = time.perf_counter() - t
    lengths = [json.loads(line)["length"] for line in out.stdout.splitlines()]
    return lengths, {"call": call, "all": time.perf_counter() - t}


def many_run(boards, jobs: int, options: dict):
    """``solve_many``: its lengths, and how long the call took (``call``) and with the
    lengths read from the solutions and the solutions freed (``all``)."""
    t = time.perf_counter()
    solutions = npuzzle.solve_many(boards, jobs=jobs, **options)
    call = time.perf_counter() - t
    lengths = [s.length for s in solutions]
    del solutions
    return lengths, {"call": call, "all": time.perf_counter() - t}


def workload(name, boards, path, cli, options, flags, repeat):
    # Load the tables and start the threads once, as a long session would.
    for jobs in (1, 2):
        npuzzle.solve_many(boards, jobs=jobs, **options)
    variants = [
        ("1 job", lambda: many_run(boards, 1, options)),
        ("2 jobs", lambda: many_run(boards, 2, options)),
    ]
    if cli is not None:
        variants.append(("batch -j2", lambda: batch_run(cli, path, flags)))
    runs = {(label, part): [] for label, _ in variants for part in ("call", "all")}
    reference = None
    for r in range(repeat):
        # Every other round runs the variants in reverse, so neither side of a pair is
        # always the one that meets the machine warmed up (or slowed down) by the other.
        for label, run in variants if r % 2 == 0 else variants[::-1]:
            lengths, seconds = run()
            reference = reference or lengths
            assert lengths == reference, f"{label} found other lengths"
            for part, t in seconds.items():
                runs[label, part].append(t)
    med = {k: statistics.median(v) for k, v in runs.items()}

    def ratio(a, b, part):
        # The median of the rounds' own ratios: a shared machine slows whole stretches
        # of the run, and a ratio within one round cancels what it did to both sides.
        return statistics.median(x / y for x, y in zip(runs[a, part], runs[b, part]))

    print(f"\n{name}: {len(boards)} boards, median of {repeat} runs")
    print("  (call: solve_many, or the batch process; all: also reading the lengths, and")
    print("   freeing the solutions or parsing the batch's JSON lines)")
    for label, _ in variants:
        call, all_ = med[label, "call"], med[label, "all"]
        print(f"  {label:<10} call {call * 1000:8.1f} ms ({len(boards) / call:9,.0f} boards/s), all {all_ * 1000:8.1f} ms")
    for part in ("call", "all"):
        line = f"  {part:<4}  2 jobs over 1: {ratio('1 job', '2 jobs', part):.2f}x"
        if cli is not None:
            line += f";  solve_many(jobs=2) / batch -j2: {ratio('2 jobs', 'batch -j2', part):.2f}x"
        print(line)
    return med


def per_call(repeat: int, calls: int = 20000) -> None:
    goal = npuzzle.Board.goal("3x3")
    npuzzle.solve(goal)
    for label, arg in [("Board", goal), ("str", "1 2 3/4 5 6/7 8 0")]:
        best = []
        for _ in range(repeat):
            t = time.perf_counter()
            for _ in range(calls):
                npuzzle.solve(arg)
            best.append((time.perf_counter() - t) / calls * 1e6)
        print(f"  npuzzle.solve(solved 8-puzzle as {label}): median {statistics.median(best):.2f} us/call, best {min(best):.2f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", type=int, default=10000)
    p.add_argument("--repeat", type=int, default=31)
    p.add_argument("--seed", type=int, default=12)
    default_cli = REPO / "target" / "release" / "npuzzle"
    p.add_argument("--cli", default=str(default_cli) if default_cli.exists() else None)
    args = p.parse_args()
    boards = npuzzle.random_boards("3x3", args.boards, seed=args.seed)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(" ".join(map(str, b.tiles)) + "\n" for b in boards))
        path = f.name
    try:
        print(f"python {sys.version.split()[0]}, npuzzle {npuzzle.__version__}, {os.cpu_count()} cores")
        workload("auto (IDA* with the perfect table)", boards, path, args.cli, {}, [], args.repeat)
        workload(
            "A* with Manhattan distance",
            boards,
            path,
            args.cli,
            {"algorithm": "astar", "heuristic": "manhattan"},
            ["-a", "astar", "-H", "manhattan"],
            args.repeat,
        )
        print("\nper call:")
        per_call(args.repeat)
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
