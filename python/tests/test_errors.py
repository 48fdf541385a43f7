"""Bad inputs raise the right exception with the command line's one-line message.

Each case names the Python call, the exception, the message, and the command line that
fails the same way: when an `npuzzle` binary is at hand the test runs it and checks that its
`error:` line is the same message (flags spelled as Python keywords: `--time-limit` is
`time_limit`).
"""

from __future__ import annotations

import re
import time

import pytest

import npuzzle
from npuzzle import InvalidBoard, InvalidOption, LimitReached, Unsolvable

START = "8 6 7/2 5 4/3 0 1"  # 31 moves from the standard goal
FOUR = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"

# (id, call, exception, message, command-line arguments or None)
CASES = [
    ("empty", lambda: npuzzle.Board(""), InvalidBoard, "board is empty", ["solve", ""]),
    (
        "token",
        lambda: npuzzle.Board("1 2 3 x"),
        InvalidBoard,
        "invalid tile `x`: expected a number or `_`",
        ["solve", "1 2 3 x"],
    ),
    (
        "ragged",
        lambda: npuzzle.Board("1 2 3/4 5"),
        InvalidBoard,
        "row 2 has 2 tiles, expected 3 like row 1",
        ["solve", "1 2 3/4 5"],
    ),
    (
        "ragged-list",
        lambda: npuzzle.Board([[1, 2, 3], [4, 5]]),
        InvalidBoard,
        "row 2 has 2 tiles, expected 3 like row 1",
        ["solve", "[[1,2,3],[4,5]]"],
    ),
    (
        "no-shape",
        lambda: npuzzle.Board([1, 2, 3, 4, 5, 0]),
        InvalidBoard,
        "cannot infer the board shape from 6 tiles; give the size as RxC",
        ["solve", "1 2 3 4 5 0"],
    ),
    (
        "duplicate",
        lambda: npuzzle.solve("1 2 3 0 5 6 7 8 8"),
        InvalidBoard,
        "board has duplicate tile 8",
        ["solve", "1 2 3 0 5 6 7 8 8"],
    ),
    (
        "blanks",
        lambda: npuzzle.Board("1 2 3 4 5 6 7 0 0"),
        InvalidBoard,
        "board has more than one blank (0 or _)",
        ["solve", "1 2 3 4 5 6 7 0 0"],
    ),
    (
        "range",
        lambda: npuzzle.Board([1, 2, 3, 4, 5, 6, 7, 8, 9]),
        InvalidBoard,
        "tile 9 is out of range for a 3x3 board (tiles are 1 to 8 and a blank)",
        ["solve", "1 2 3 4 5 6 7 8 9"],
    ),
    (
        "count",
        lambda: npuzzle.Board("1 2 3 0", size="2x3"),
        InvalidBoard,
        "expected 6 tiles for a 2x3 board, found 4",
        ["solve", "1 2 3 0", "--size", "2x3"],
    ),
    (
        "rows-vs-size",
        lambda: npuzzle.solve("1 2 3/4 5 0", size=(3, 2)),
        InvalidBoard,
        "the rows describe a 2x3 board but the size is 3x2",
        ["solve", "1 2 3/4 5 0", "--size", "3x2"],
    ),
    (
        "tiny",
        lambda: npuzzle.Board("0"),
        InvalidBoard,
        "board must be at least 2x2, got 1x1",
        ["solve", "0"],
    ),
    (
        "size-small",
        lambda: npuzzle.random_boards("1x3", 1),
        InvalidOption,
        "board must be at least 2x2, got 1x3",
        ["random", "--size", "1x3"],
    ),
    (
        "size-text",
        lambda: npuzzle.random_boards("three", 1),
        InvalidOption,
        "invalid size `three`: expected RxC (e.g. 3x3 or 4x5) or a single number",
        None,  # clap words its own message around the core's
    ),
    # A size given as numbers is read as the command line reads `--size`: a negative or
    # huge side was clamped to 0 or 2^64 - 1 and reported as that number.
    (
        "size-negative",
        lambda: npuzzle.Board("1 2 3 0", size=(-2, -2)),
        InvalidOption,
        "invalid size `-2x-2`: expected RxC (e.g. 3x3 or 4x5) or a single number",
        None,
    ),
    (
        "size-huge",
        lambda: npuzzle.Board.goal(2**70),
        InvalidOption,
        "invalid size `1180591620717411303424`: expected RxC (e.g. 3x3 or 4x5) or a single number",
        None,
    ),
    (
        "plan-size-small",
        lambda: npuzzle.plan(0),
        InvalidOption,
        "board must be at least 2x2, got 0x0",
        None,
    ),
    (
        "tile-bool",
        lambda: npuzzle.Board([True, 2, 3, 0]),
        InvalidBoard,
        "invalid tile `True`: expected a number or `_`",
        None,
    ),
    (
        "heuristic",
        lambda: npuzzle.solve(START, heuristic="hamming-ish"),
        InvalidOption,
        "unknown heuristic `hamming-ish` (expected misplaced, manhattan, euclidean, "
        "linear-conflict, perfect, pdb, pdb:7-8, a weighted sum like "
        "0.5*manhattan+0.5*misplaced, or max(a,b))",
        None,
    ),
    (
        "heuristic-empty",
        lambda: npuzzle.solve(START, heuristic=""),
        InvalidOption,
        None,  # the core's message, checked against the command line
        ["solve", START, "-H", ""],
    ),
    (
        "heuristic-syntax",
        lambda: npuzzle.heuristic("0.5*manhattan+"),
        InvalidOption,
        None,  # the core's message, checked against the command line
        ["solve", START, "-H", "0.5*manhattan+"],
    ),
    (
        "perfect-4x4",
        lambda: npuzzle.solve(FOUR, heuristic="perfect", algorithm="astar"),
        InvalidOption,
        "heuristic perfect supports boards of at most 10 cells, this one has 16",
        ["solve", FOUR, "-H", "perfect", "-a", "astar"],
    ),
    (
        "algorithm",
        lambda: npuzzle.solve(START, algorithm="dijkstra"),
        InvalidOption,
        "unknown algorithm `dijkstra` (expected auto, astar, idastar, bfs, greedy, "
        "weighted-astar, weighted-idastar, constructive or beam)",
        None,
    ),
    (
        "weight",
        lambda: npuzzle.solve(START, algorithm="weighted-astar", weight=0.5),
        InvalidOption,
        "weight must be a number from 1 to 1000000, got 0.5",
        ["solve", START, "-a", "weighted-astar", "--weight", "0.5"],
    ),
    (
        "width",
        lambda: npuzzle.solve(START, algorithm="beam", width=0),
        InvalidOption,
        "width must be a whole number from 1 to 100000000, got 0",
        ["solve", START, "-a", "beam", "--width", "0"],
    ),
    (
        "width-negative",
        lambda: npuzzle.solve(START, algorithm="beam", width=-4),
        InvalidOption,
        "width must be a whole number from 1 to 100000000, got -4",
        ["solve", START, "-a", "beam", "--width", "-4"],
    ),
    (
        "time-limit",
        lambda: npuzzle.solve(START, time_limit=-1),
        InvalidOption,
        "time_limit must be a number of seconds above 0, got -1",
        ["solve", START, "--time-limit", "-1"],
    ),
    (
        "time-limit-zero",
        lambda: npuzzle.solve(START, time_limit=0),
        InvalidOption,
        "time_limit must be a number of seconds above 0, got 0",
        ["solve", START, "--time-limit", "0"],
    ),
    (
        "time-limit-nan",
        lambda: npuzzle.solve(START, time_limit=float("nan")),
        InvalidOption,
        "time_limit must be a number of seconds above 0, got NaN",
        ["solve", START, "--time-limit", "NaN"],
    ),
    (
        "time-limit-inf",
        lambda: npuzzle.solve(START, time_limit=float("inf")),
        InvalidOption,
        "time_limit must be at most 10000000 seconds, got inf",
        ["solve", START, "--time-limit", "inf"],
    ),
    (
        "time-limit-above",
        lambda: npuzzle.solve(START, time_limit=10000001),
        InvalidOption,
        "time_limit must be at most 10000000 seconds, got 10000001",
        ["solve", START, "--time-limit", "10000001"],
    ),
    (
        "max-nodes",
        lambda: npuzzle.solve(START, max_nodes=0),
        InvalidOption,
        "max_nodes must be at least 1, got 0",
        ["solve", START, "--max-nodes", "0"],
    ),
    (
        "max-nodes-negative",
        lambda: npuzzle.solve(START, max_nodes=-5),
        InvalidOption,
        "max_nodes must be at least 1, got -5",
        None,  # --max-nodes takes no sign: clap refuses -5 before the check
    ),
    (
        "memory-limit",
        lambda: npuzzle.solve(START, memory_limit=0),
        InvalidOption,
        "memory_limit must be at least 1 megabyte, got 0",
        ["solve", START, "--memory-limit", "0"],
    ),
    (
        "memory-limit-above",
        lambda: npuzzle.solve(START, memory_limit=2**30 + 1),
        InvalidOption,
        "memory_limit must be at most 1073741824 megabytes, got 1073741825",
        ["solve", START, "--memory-limit", str(2**30 + 1)],
    ),
    (
        "weight-nan",
        lambda: npuzzle.solve(START, algorithm="weighted-astar", weight=float("nan")),
        InvalidOption,
        "weight must be a number from 1 to 1000000, got NaN",
        ["solve", START, "-a", "weighted-astar", "--weight", "NaN"],
    ),
    (
        "many-max-nodes",
        lambda: npuzzle.solve_many([START], max_nodes=0),
        InvalidOption,
        "max_nodes must be at least 1, got 0",
        ["batch", "-", "--max-nodes", "0"],
    ),
    (
        "goal-shape",
        lambda: npuzzle.solve(FOUR, goal="1 2 3/4 5 6/7 8 0"),
        InvalidBoard,
        "goal is 3x3 but the board is 4x4",
        ["solve", FOUR, "--goal", "1 2 3/4 5 6/7 8 0"],
    ),
    (
        "goal-board",
        lambda: npuzzle.solve(START, goal="1 2 3 4 5 6 7 8 8"),
        InvalidBoard,
        "goal: board has duplicate tile 8",
        ["solve", START, "--goal", "1 2 3 4 5 6 7 8 8"],
    ),
    (
        "jobs",
        lambda: npuzzle.solve_many([START], jobs=0),
        InvalidOption,
        "jobs must be between 1 and 1024, got 0",
        ["batch", "-", "--jobs", "0"],
    ),
    (
        "count-random",
        lambda: npuzzle.random_boards("3x3", 0),
        InvalidOption,
        "count must be between 1 and 100000000, got 0",
        ["random", "--size", "3x3", "--count", "0"],
    ),
    (
        "seed",
        lambda: npuzzle.random_boards("3x3", 2, seed=-1),
        InvalidOption,
        "seed must be between 0 and 18446744073709551615, got -1",
        None,
    ),
    (
        "pdb-partition",
        lambda: npuzzle.solve(START, heuristic="pdb:9-9", algorithm="astar"),
        InvalidOption,
        None,
        ["solve", START, "-H", "pdb:9-9", "-a", "astar"],
    ),
    (
        "many-index",
        lambda: npuzzle.solve_many([START, "1 2 3/4 4 0"]),
        InvalidBoard,
        "board 1: board has duplicate tile 4",
        None,
    ),
    (
        "move-letter",
        lambda: npuzzle.Board(START).apply("UX"),
        InvalidOption,
        "invalid move `X`: expected U, D, L or R",
        None,
    ),
    (
        "move-off",
        lambda: npuzzle.Board.goal(3).apply("UDD"),
        InvalidOption,
        "move 3 (D) would take the blank off the board",
        None,
    ),
    (
        "not-a-board",
        lambda: npuzzle.Board(3.5),
        InvalidBoard,
        "expected a board (text, a list of tiles or rows, a numpy array or a Board), got float",
        None,
    ),
]

# Command-line flags as Python keywords.
FLAGS = {
    "--time-limit": "time_limit",
    "--max-nodes": "max_nodes",
    "--memory-limit": "memory_limit",
    "--weight": "weight",
    "--width": "width",
    "--jobs": "jobs",
    "--count": "count",
}


def python_spelling(message: str) -> str:
    return re.sub(r"--[a-z-]+", lambda m: FLAGS.get(m.group(0), m.group(0)), message)


def test_at_least_25_cases():
    assert len(CASES) >= 25


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises_with_the_message(case):
    _, call, exception, message, _ = case
    with pytest.raises(exception) as info:
        call()
    text = str(info.value)
    assert "\n" not in text
    if message is not None:
        assert text == message
    if exception in (InvalidBoard, InvalidOption):
        assert isinstance(info.value, ValueError)
    assert isinstance(info.value, npuzzle.NpuzzleError)


@pytest.mark.parametrize(
    "case", [c for c in CASES if c[4] is not None], ids=[c[0] for c in CASES if c[4] is not None]
)
def test_message_is_the_command_lines(case, cli):
    _, call, exception, _, args = case
    with pytest.raises(exception) as info:
        call()
    if args[:2] == ["batch", "-"]:
        out = cli.run(args, stdin=START + "\n")
        assert out.returncode == 2
        cli_message = out.stderr.strip().splitlines()[-1][len("error: ") :]
    else:
        cli_message = cli.error(args)
    if cli_message.startswith("invalid value"):
        # clap wraps a value's parse error: "invalid value 'V' for '--flag': MESSAGE (see ...)"
        assert f": {info.value} (see npuzzle --help)" in cli_message
    else:
        assert str(info.value) == python_spelling(cli_message)


def test_unsolvable_carries_the_report_of_the_command_line(cli):
    board = "1 2 3/4 5 6/8 7 0"
    with pytest.raises(Unsolvable) as info:
        npuzzle.solve(board)
    report = info.value.solution.to_dict()
    assert report == cli.json(["solve", board])
    assert str(info.value) == "unsolvable: " + report["reason"]
    assert cli.run(["solve", board]).returncode == 1


def test_unsolvable_without_the_command_line():
    with pytest.raises(Unsolvable) as info:
        npuzzle.solve("1 2 3/4 5 6/8 7 0")
    assert info.value.solution.solvable is False
    assert "different parity" in info.value.reason


def test_limit_carries_the_statistics_so_far():
    with pytest.raises(LimitReached) as info:
        npuzzle.solve(START, algorithm="astar", heuristic="misplaced", max_nodes=500)
    e = info.value
    assert str(e) == "stopped by the node limit before finding a solution"
    assert e.stopped_by == "nodes"
    assert e.solution.length is None and e.solution.moves is None
    assert 500 <= e.generated < 510  # stops within one expansion of the limit
    assert 0 < e.expanded <= e.generated


def test_a_lost_beam_is_stopped_by_its_width_as_on_the_command_line(cli):
    board = npuzzle.random_boards("6x6", seed=1)[0]
    with pytest.raises(LimitReached) as info:
        npuzzle.solve(board, algorithm="beam", width=1)
    assert info.value.stopped_by == "width"
    assert info.value.solution.moves is None
    # A wider beam answers, and its path replays.
    s = npuzzle.solve(board, algorithm="beam", width=500)
    assert s.stopped_by is None and not s.optimal
    assert board.apply(s.moves) == npuzzle.Board(list(range(1, 36)) + [0])
    args = ["solve", str(board), "-a", "beam", "--width", "1"]
    mine = info.value.solution.to_dict()
    theirs = cli.json(args)
    mine.pop("seconds"), theirs.pop("seconds")
    assert mine == theirs
    assert cli.run(args).returncode == 3


def test_a_memory_limit_counts_the_tables_as_on_the_command_line(cli):
    # The tables of pdb:1-7-7 take 58 MB, and building them more: with 50 MB nothing is
    # built (a build takes seconds) and the search stops at once. Python's solve built
    # them and answered where the command line said "memory".
    board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"
    options = dict(algorithm="idastar", heuristic="pdb:1-7-7", memory_limit=50)
    started = time.monotonic()
    with pytest.raises(LimitReached) as info:
        npuzzle.solve(board, **options)
    assert info.value.stopped_by == "memory"
    assert info.value.solution.moves is None
    [many] = npuzzle.solve_many([board], **options)
    assert many.stopped_by == "memory" and many.moves is None
    assert time.monotonic() - started < 3
    args = ["solve", board, "-a", "idastar", "-H", "pdb:1-7-7", "--memory-limit", "50"]
    mine = info.value.solution.to_dict()
    theirs = cli.json(args)
    mine.pop("seconds"), theirs.pop("seconds")
    assert mine == theirs
    assert cli.run(args).returncode == 3
    # With no heuristic named, the plan takes tables that fit, down to linear conflict.
    s = npuzzle.solve(board, memory_limit=1)
    assert s.heuristic == "linear-conflict" and s.optimal and s.stopped_by is None
    mine = s.to_dict()
    theirs = cli.json(["solve", board, "--memory-limit", "1"])
    for report in (mine, theirs):
        report.pop("seconds")
        for step in report["improvements"]:
            step.pop("seconds")
    assert mine == theirs


def test_limit_is_the_command_lines(cli):
    args = ["solve", START, "-a", "astar", "-H", "misplaced", "--max-nodes", "500"]
    with pytest.raises(LimitReached) as info:
        npuzzle.solve(START, algorithm="astar", heuristic="misplaced", max_nodes=500)
    mine = info.value.solution.to_dict()
    theirs = cli.json(args)
    mine.pop("seconds"), theirs.pop("seconds")
    assert mine == theirs
    assert cli.run(args).returncode == 3


# Whole numbers of any size reach the range checks: taken as 64-bit integers, numbers past
# them raised OverflowError (not a ValueError, so `except ValueError` missed it), and
# negative ones where unsigned numbers were taken (an outside check).
HUGE = {
    "max_nodes": lambda n: npuzzle.solve(START, max_nodes=n),
    "memory_limit": lambda n: npuzzle.solve(START, memory_limit=n),
    "width": lambda n: npuzzle.solve(START, algorithm="beam", width=n),
    "jobs": lambda n: npuzzle.solve_many([START], jobs=n),
    "count": lambda n: npuzzle.random_boards("3x3", n),
    "moves": lambda n: npuzzle.random_boards("3x3", 1, moves=n),
    "depth": lambda n: npuzzle.split(START, depth=n),
    "cell": lambda n: npuzzle.Board(START).to_svg(n),
    "bound": lambda n: npuzzle.split(START, depth=1)[0].above(n),
}


@pytest.mark.parametrize("number", [10**30, 10**50, -(10**50), -1], ids=["1e30", "1e50", "-1e50", "-1"])
@pytest.mark.parametrize("name", HUGE)
def test_a_whole_number_out_of_range_is_an_invalid_option(name, number):
    with pytest.raises(InvalidOption, match=name) as info:
        HUGE[name](number)
    shown = {10**50: "a number above 1.7e38", -(10**50): "a number below -1.7e38"}
    assert str(info.value).endswith(shown.get(number, str(number))), info.value


# A bool is not a number, though Python's True is the int 1: `time_limit=True` ran a
# one-second search and `max_nodes=True` a one-node one (an outside check).
NUMBERS = {
    **HUGE,
    "time_limit": lambda n: npuzzle.solve(START, time_limit=n),
    "weight": lambda n: npuzzle.solve(START, algorithm="weighted-astar", weight=n),
    "solve_many time_limit": lambda n: npuzzle.solve_many([START], time_limit=n),
    "unit time_limit": lambda n: npuzzle.solve_unit(npuzzle.split(START, depth=1)[0], 40, time_limit=n),
}


@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("name", NUMBERS)
def test_a_bool_is_not_a_number(name, flag):
    with pytest.raises(TypeError, match="not bool"):
        NUMBERS[name](flag)


@pytest.mark.parametrize("value", [5, 1.5, ["manhattan"], b"manhattan"])
def test_a_heuristic_of_the_wrong_type_is_a_type_error(value):
    with pytest.raises(TypeError, match="expected a heuristic"):
        npuzzle.solve(START, heuristic=value)


@pytest.mark.parametrize("heuristic", [None, "perfect"])
def test_plan_of_an_unsolvable_board_raises_as_solve_does(heuristic):
    """As `npuzzle solve --explain`: solvability first, even when the choice would be refused
    (`perfect` on a 4x4). plan() used to return a plan for a board that cannot be solved."""
    board = "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"
    with pytest.raises(Unsolvable) as planned:
        npuzzle.plan(board, heuristic=heuristic)
    with pytest.raises(Unsolvable) as solved:
        npuzzle.solve(board, heuristic=heuristic)
    assert str(planned.value) == str(solved.value)
    assert planned.value.solution.solvable is False
    assert planned.value.reason == solved.value.reason
