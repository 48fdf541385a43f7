"""The anytime engine from Python (issues 21 and 24): a named heuristic runs as asked, and
``solve(progress=…)`` and ``Solution.improvements`` show the answer improving."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import time

import pytest

import npuzzle

# `npuzzle random -s 5x5 --seed 1`
BOARD_5X5 = "16 9 0 3 8/24 12 19 5 2/7 18 15 10 22/4 11 21 13 1/17 20 23 14 6"


def test_a_named_heuristic_gives_the_optimum_issue_21():
    # Issue 21's example: 33 moves, not optimal, before the engine (a node budget, then
    # weighted A*); the optimum is 31.
    s = npuzzle.solve("8 6 7/2 5 4/3 0 1", heuristic="misplaced")
    assert (s.length, s.optimal, s.heuristic) == (31, True, "misplaced")


@pytest.fixture(scope="module")
def anytime_5x5():
    calls = []
    s = npuzzle.solve(BOARD_5X5, time_limit=1, progress=calls.append)
    return s, calls


def test_a_5x5_within_a_second_replays_with_a_bound(anytime_5x5):
    s, _ = anytime_5x5
    assert s.phase == "anytime"
    assert npuzzle.Board(BOARD_5X5).apply(s.moves) == npuzzle.Board.goal("5x5")
    assert 0 < s.lower_bound <= s.length
    assert s.optimal == (s.lower_bound == s.length)
    assert s.seconds < 2.5


def test_improvements_never_get_longer_and_end_at_the_answer(anytime_5x5):
    s, _ = anytime_5x5
    steps = s.improvements
    assert steps and all(set(i) == {"seconds", "length", "lower_bound", "by"} for i in steps)
    lengths = [i["length"] for i in steps]
    assert all(b <= a for a, b in zip(lengths, lengths[1:])), lengths
    bounds = [i["lower_bound"] for i in steps]
    assert all(b >= a for a, b in zip(bounds, bounds[1:])), bounds
    assert [i["seconds"] for i in steps] == sorted(i["seconds"] for i in steps)
    assert steps[0]["by"] == "constructive"
    assert (steps[-1]["length"], steps[-1]["lower_bound"]) == (s.length, s.lower_bound)
    assert s.to_dict()["improvements"] == steps


def test_the_progress_callback_hears_each_improvement(anytime_5x5):
    s, calls = anytime_5x5
    assert calls, "progress was never called"
    assert all(set(c) == {"seconds", "length", "lower_bound", "expanded", "generated"} for c in calls)
    seen = [(c["length"], c["lower_bound"]) for c in calls]
    assert len(set(seen)) == len(seen), "called without a change"
    lengths = [c["length"] for c in calls if c["length"] is not None]
    assert all(b <= a for a, b in zip(lengths, lengths[1:])), lengths
    assert lengths[0] > lengths[-1] or len(s.improvements) == 1
    assert lengths[-1] >= s.length
    assert all(c["lower_bound"] <= (c["length"] or 10**9) for c in calls)


def test_improvements_survive_pickling_and_json(anytime_5x5):
    s, _ = anytime_5x5
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.improvements == s.improvements
    again = npuzzle.Solution.from_json(s.to_json())
    assert again.improvements == s.improvements
    assert json.loads(again.to_json()) == json.loads(s.to_json())


def test_a_single_search_has_no_improvements():
    s = npuzzle.solve("8 6 7/2 5 4/3 0 1", algorithm="astar", heuristic="manhattan")
    assert s.improvements == []
    assert "improvements" not in s.to_dict()


def test_an_optimal_search_tells_its_rising_proven_bound():
    # Korf & Felner's instance 1 (95 moves): IDA* with linear conflict runs for minutes, and
    # its threshold, a proven lower bound, never reached the callback before.
    board = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13"
    calls = []
    with pytest.raises(npuzzle.LimitReached) as stopped:
        npuzzle.solve(board, goal="blank-first", heuristic="linear-conflict",
                      time_limit=1.5, progress=calls.append)
    assert calls, "progress was never called"
    assert all(c["length"] is None for c in calls)
    bounds = [c["lower_bound"] for c in calls]
    assert all(a <= b for a, b in zip(bounds, bounds[1:])), bounds
    assert bounds[-1] <= stopped.value.solution.lower_bound <= 95


def test_an_exception_in_the_callback_stops_the_search_and_is_raised():
    class Enough(Exception):
        pass

    def stop(_):
        raise Enough("seen enough")

    began = time.monotonic()
    with pytest.raises(Enough):
        npuzzle.solve(BOARD_5X5, time_limit=30, progress=stop)
    assert time.monotonic() - began < 5


def test_progress_must_be_callable():
    with pytest.raises(npuzzle.InvalidOption, match="progress must be a callable"):
        npuzzle.solve("8 6 7/2 5 4/3 0 1", progress=3)


def test_a_malformed_improvement_is_refused_not_a_panic(anytime_5x5):
    s, _ = anytime_5x5
    d = json.loads(s.to_json())
    d["improvements"][0]["length"] = "long"
    with pytest.raises(npuzzle.InvalidOption):
        npuzzle.Solution.from_json(json.dumps(d))


def test_solve_many_plans_its_tables_for_the_time_of_all_its_boards(tmp_path):
    # Twenty 5x5 boards at 0.3 s each with an empty cache: each shape's tables are fetched
    # once for all its boards, so they may take a share of all their time. Planned for one
    # board's 0.3 s, the batch passed over 5-5-5-5-4 (about a second to build) and ran
    # linear conflict on every board; a single board still does. A process of its own,
    # for a cache of its own (the module reads NPUZZLE_PDB_DIR once).
    code = """
import json, npuzzle
boards = npuzzle.random_boards("5x5", 20, seed=1)
alone = npuzzle.solve_many(boards[:1], time_limit=0.3, jobs=1)
many = npuzzle.solve_many(boards, time_limit=0.3, jobs=1)
goal = npuzzle.Board.goal("5x5")
replayed = all(b.apply(s.moves) == goal for b, s in zip(boards, many))
print(json.dumps([[s.heuristic for s in alone], [s.heuristic for s in many], replayed]))
"""
    env = dict(os.environ, NPUZZLE_PDB_DIR=str(tmp_path / "pdb"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env, timeout=120)
    alone, many, replayed = json.loads(out.stdout)
    assert alone == ["linear-conflict"]
    assert many == ["pdb:5-5-5-5-4"] * 20
    assert replayed
