"""Many distinct goals (issue 24, Python 6): 1,000 goals of one board each took 58 s and
kept 430 MB after the results were freed, because `auto` built (and the module's tables
kept) the exact table of every goal for a single search each."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import npuzzle

MEASURE = textwrap.dedent(
    """
    import gc, time, npuzzle
    def rss():
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) // 1024 for l in f if l.startswith("VmRSS"))
    goals = npuzzle.random_boards("3x3", 1000, seed=2)
    starts = [npuzzle.random_boards("3x3", 1, seed=i, goal=g)[0] for i, g in enumerate(goals)]
    t = time.perf_counter()
    solutions = npuzzle.solve_many(starts, goals=goals, jobs=2)
    took = time.perf_counter() - t
    assert all(s.optimal for s in solutions)
    del solutions
    gc.collect()
    print(took, rss())
    """
)


def test_a_thousand_goals_take_seconds_and_keep_no_tables():
    out = subprocess.run([sys.executable, "-c", MEASURE], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-800:]
    seconds, rss_mb = out.stdout.split()
    assert float(seconds) < 10, f"{seconds} s for 1,000 goals"
    assert int(rss_mb) < 150, f"{rss_mb} MB kept after the results were freed"


def test_goals_of_a_few_boards_are_still_solved_optimally():
    goals = npuzzle.random_boards("3x3", 30, seed=7)
    starts = [npuzzle.random_boards("3x3", 1, seed=100 + i, goal=g)[0] for i, g in enumerate(goals)]
    many = npuzzle.solve_many(starts, goals=goals)
    for s, start, goal in zip(many, starts, goals):
        exact = npuzzle.solve(start, goal=goal, heuristic="perfect")
        assert (s.length, s.optimal) == (exact.length, True)


def test_a_goal_many_boards_share_still_gets_its_table():
    goal = npuzzle.random_boards("3x3", 1, seed=11)[0]
    starts = npuzzle.random_boards("3x3", 300, seed=12, goal=goal)
    solutions = npuzzle.solve_many(starts, goals=[goal] * len(starts))
    assert {s.heuristic for s in solutions} == {"perfect"}
    # A named heuristic is used as named, whatever the goals.
    few = npuzzle.solve_many(starts[:3], goals=[goal] * 3, heuristic="perfect")
    assert {s.heuristic for s in few} == {"perfect"}
