"""Nothing reachable from Python panics (issue 24, Python 1).

A panic in the extension surfaces as ``pyo3_runtime.PanicException``, a ``BaseException``
that ``except Exception`` does not catch. Every call that takes a goal, and the JSON
readers of work units and solutions, must raise the package's own exceptions instead.
"""

from __future__ import annotations

import json

import pytest

import npuzzle
from npuzzle import InvalidBoard, InvalidOption, NpuzzleError

START = "1 2 3/4 5 6/7 0 8"

# Every call that takes a goal, as a function of the goal.
GOAL_CALLS = {
    "solve": lambda g: npuzzle.solve(START, goal=g),
    "solve_many": lambda g: npuzzle.solve_many([START], goal=g),
    "check": lambda g: npuzzle.check(START, goal=g),
    "Board.goal": lambda g: npuzzle.Board.goal("3x3", g),
    "Board.solvable": lambda g: npuzzle.Board(START).solvable(g),
    "Board.check": lambda g: npuzzle.Board(START).check(g),
    "random_boards": lambda g: npuzzle.random_boards("3x3", 2, seed=1, goal=g),
    "plan": lambda g: npuzzle.plan("3x3", goal=g),
    "split": lambda g: npuzzle.split(START, goal=g, depth=2),
    "compare": lambda g: npuzzle.compare([START], goal=g, as_frame=False),
    "heuristic": lambda g: npuzzle.heuristic("manhattan")(START, goal=g),
}

BAD_GOALS = {
    "blank-last": "goal: invalid tile `blank-last`: expected a number or `_`",
    "": "goal: board is empty",
    "spiral please": "goal: invalid tile `spiral`: expected a number or `_`",
}


@pytest.mark.parametrize("goal", list(BAD_GOALS), ids=lambda g: repr(g))
@pytest.mark.parametrize("call", list(GOAL_CALLS))
def test_a_bad_goal_name_raises_invalid_board(call, goal):
    with pytest.raises(InvalidBoard) as info:
        GOAL_CALLS[call](goal)
    assert str(info.value) == BAD_GOALS[goal]
    assert isinstance(info.value, ValueError)


def test_a_bad_goal_name_is_the_command_lines(cli):
    out = cli.run(["solve", START, "--goal", "blank-last"])
    assert out.returncode == 2
    assert BAD_GOALS["blank-last"] in out.stderr


def test_named_goals_still_work():
    for name in ("standard", "blank-first", "spiral", "Blank_First", "korf"):
        assert npuzzle.Board.goal(3, name).shape == (3, 3)


def unit_json(**change) -> str:
    unit = npuzzle.split(START, depth=1)[0]
    data = json.loads(unit.to_json())
    for key, value in change.items():
        if key in data["unit"]:
            data["unit"][key] = value
        else:
            data[key] = value
    return json.dumps(data)


def big_unit(side: int) -> str:
    n = side * side
    data = json.loads(npuzzle.split(START, depth=1)[0].to_json())
    data["size"] = f"{side}x{side}"
    data["goal"] = list(range(1, n)) + [0]
    data["unit"]["tiles"] = [t % 256 for t in range(1, n)] + [0]
    return json.dumps(data)


@pytest.mark.parametrize(
    "text",
    [
        big_unit(16),  # 256 cells: more than the searches take (and tiles are bytes)
        big_unit(20),
        unit_json(tiles=[1, 2, 3, 4, 5, 6, 7, 8, 8]),  # not a board
        unit_json(tiles=[1, 2, 3, 4, 5, 6, 7, 200, 0]),  # a tile past the table
        unit_json(g=7),  # g is not the number of moves
        unit_json(path_f=[]),
        unit_json(h=4294967295),
    ],
    ids=["256-cells", "400-cells", "duplicate", "tile-200", "g", "path_f", "h-overflow"],
)
def test_a_malformed_work_unit_is_refused(text):
    with pytest.raises(InvalidOption) as info:
        unit = npuzzle.WorkUnit.from_json(text)
        # Had it been accepted, searching it must not panic either.
        npuzzle.solve_unit(unit, 40)
        unit.above(40)
    assert str(info.value).startswith("not a work unit: ")


def test_a_good_work_unit_round_trips():
    unit = npuzzle.split(START, depth=1)[0]
    again = npuzzle.WorkUnit.from_json(unit.to_json())
    assert again.to_json() == unit.to_json()
    assert npuzzle.solve_unit(again, 3)["index"] == unit.index


def test_a_solution_whose_moves_leave_the_board_is_refused():
    s = npuzzle.solve(START)
    data = s.to_dict()
    data["moves"] = "DD"  # the blank is on the bottom row
    data["length"] = 2
    with pytest.raises(InvalidOption, match="would take the blank off the board"):
        npuzzle.Solution.from_json(json.dumps(data))
    data["moves"] = "UD"
    with pytest.raises(InvalidOption, match="do not reach the goal"):
        npuzzle.Solution.from_json(json.dumps(data))


def test_a_solution_that_could_not_have_run_is_refused():
    # `from_json` took an algorithm of "auto" (a request: a solve reports what ran) and an
    # admissible heuristic of 2*manhattan (an outside check).
    data = npuzzle.solve(START, heuristic="2*manhattan", algorithm="astar").to_dict()
    assert data["admissible"] is False
    npuzzle.Solution.from_json(json.dumps(data))
    with pytest.raises(InvalidOption, match="admissible is true but 2\\*manhattan is not admissible"):
        npuzzle.Solution.from_json(json.dumps(dict(data, admissible=True)))
    with pytest.raises(InvalidOption, match="algorithm is `auto`"):
        npuzzle.Solution.from_json(json.dumps(dict(data, algorithm="auto")))
    for s in (npuzzle.solve(START), npuzzle.solve(START, algorithm="bfs")):
        assert npuzzle.Solution.from_json(s.to_json()).to_dict() == s.to_dict()


def test_every_exception_is_an_npuzzle_error():
    for call in GOAL_CALLS.values():
        try:
            call("blank-last")
        except NpuzzleError:
            pass


def test_a_pickled_solution_reads_its_seconds_back_exactly():
    # serde_json's default float parsing is off by one ulp for about one number in ten, so
    # a Solution did not always equal itself after pickling (a flaky property test).
    import pickle
    import random

    s = npuzzle.solve(START)
    data = json.loads(s.to_json())
    rng = random.Random(24)
    for _ in range(2000):
        data["seconds"] = rng.random() * 10 ** rng.randint(-6, 1)
        again = npuzzle.Solution.from_json(json.dumps(data))
        assert again.seconds == data["seconds"]
        assert pickle.loads(pickle.dumps(again)) == again


# Searches that dived tens of thousands of moves deep and overflowed the stack, killing the
# interpreter (an outside check): weighted IDA* with a large weight (lower on the smaller
# stacks of solve_many's workers), and a work unit searched under an absurd bound. Each runs
# in a child interpreter, so that a crash fails the test instead of ending the run.
DEEP_CALLS = {
    "weighted-idastar": "s = npuzzle.solve('8 5 4/7 2 1/6 3 0', algorithm='weighted-idastar',"
    " weight=10000, heuristic='manhattan', time_limit=10); assert s.moves, s",
    "inadmissible-idastar": "s = npuzzle.solve('8 5 4/7 2 1/6 3 0', algorithm='idastar',"
    " heuristic='1000*manhattan', time_limit=10); assert s.moves, s",
    "solve_many": "r = npuzzle.solve_many(npuzzle.random_boards('3x3', 8, seed=4), jobs=2,"
    " algorithm='weighted-idastar', weight=2000, heuristic='manhattan', time_limit=10);"
    " assert all(s.moves is not None for s in r), r",
    "solve_unit": "u = npuzzle.split('1 2 3 4 5 6 0 7 8', depth=1)[0]\n"
    "try: npuzzle.solve_unit(u, 100000, time_limit=10)\n"
    "except npuzzle.InvalidOption as e: assert 'bound must be between 0 and ' in str(e), e\n"
    "else: raise AssertionError('refused')",
}


@pytest.mark.parametrize("code", DEEP_CALLS.values(), ids=DEEP_CALLS.keys())
def test_deep_searches_answer_instead_of_overflowing_the_stack(code):
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import npuzzle\n" + code], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]


# Requests whose answer would not fit in memory are refused before any work (an outside
# check: the extension aborted on a failed allocation, killing the interpreter).
def test_more_boards_than_memory_holds_are_refused():
    with pytest.raises(InvalidOption, match="would take about 18692 MB; at most 2048 MB"):
        npuzzle.random_boards("3x3", 100_000_000)
    assert len(npuzzle.random_boards("3x3", 1000, seed=1)) == 1000


def test_a_split_too_deep_for_memory_is_refused():
    board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    with pytest.raises(InvalidOption, match="more than 1000000 units"):
        npuzzle.split(board, goal="blank-first", heuristic="manhattan", depth=30)
    with pytest.raises(InvalidOption, match="depth must be between 0 and 40, got -1"):
        npuzzle.split(board, depth=-1)
    assert len(npuzzle.split(board, goal="blank-first", heuristic="manhattan", depth=10)) > 100


@pytest.mark.parametrize("value", [b"1 2 3 4 5 6 7 8 0", bytearray(b"1 2 3 4 5 6 7 8 0")], ids=["bytes", "bytearray"])
def test_bytes_are_not_a_board(value):
    # Bytes are numbers to Python: they were read as the tiles 49, 32, 50, ...
    with pytest.raises(InvalidBoard, match="expected a board .*, got (bytes|bytearray)"):
        npuzzle.Board(value)
    with pytest.raises(InvalidBoard, match="goal: expected a board"):
        npuzzle.solve("1 2 3/4 5 6/7 0 8", goal=value)
