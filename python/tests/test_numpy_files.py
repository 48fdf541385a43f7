"""numpy interoperation and the cap on files of boards (issue 24, Python 4 and 5)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import npuzzle
from npuzzle import InvalidBoard, InvalidOption

np = pytest.importorskip("numpy")

START = "8 6 7/2 5 4/3 0 1"


def test_np_array_of_a_board_is_its_tiles():
    b = npuzzle.Board(START)
    a = np.array(b)
    assert a.shape == (3, 3)
    assert a.dtype.kind in "iu"
    assert a.tolist() == [[8, 6, 7], [2, 5, 4], [3, 0, 1]]
    assert np.asarray(b, dtype=np.uint8).dtype == np.uint8
    assert np.array_equal(np.asarray(b), b.to_numpy())
    # and back again
    assert npuzzle.Board(a) == b


def test_rows_that_are_numpy_arrays_are_rows():
    # They were read as tiles, and refused: "invalid tile".
    rows = [np.array([8, 6, 7]), np.array([2, 5, 4]), np.array([3, 0, 1])]
    assert npuzzle.Board(rows) == npuzzle.Board(START)
    assert npuzzle.solve(rows).length == 31


@pytest.mark.parametrize(
    "goal",
    [
        [1, 2, 3, 4, 5, 0],
        (1, 2, 3, 4, 5, 0),
        np.array([1, 2, 3, 4, 5, 0]),
        [[1, 2, 3], [4, 5, 0]],
        np.array([[1, 2, 3], [4, 5, 0]]),
        "1 2 3 4 5 0",
    ],
    ids=["list", "tuple", "array", "rows", "array-rows", "text"],
)
def test_a_goal_of_tiles_takes_the_shape_of_the_board(goal):
    # A flat goal on a board that is not square was refused ("cannot infer the board shape
    # from 6 tiles") unless written as text; the start settles its shape, as for text.
    start = npuzzle.Board("1 2 3 4 0 5", size="2x3")
    goal_board = npuzzle.Board("1 2 3/4 5 0")
    assert npuzzle.solve(start, goal=goal).length == 1
    assert npuzzle.check(start, goal=goal)["solvable"]
    assert start.solvable(goal)
    assert npuzzle.Board.goal("2x3", goal) == goal_board
    assert npuzzle.solve_many([start], goal=goal)[0].length == 1


def test_a_goal_of_another_shape_is_still_refused():
    start = npuzzle.Board("1 2 3 4 0 5", size="2x3")
    with pytest.raises(InvalidBoard, match="goal"):
        npuzzle.solve(start, goal=[[1, 2], [3, 4], [5, 0]])
    with pytest.raises(InvalidBoard, match="goal"):
        npuzzle.solve(start, goal=[1, 2, 3, 0])


def test_numpy_integers_are_sizes():
    assert npuzzle.Board.goal(np.int64(4)).shape == (4, 4)
    assert npuzzle.Board.goal((np.int32(2), np.uint8(3))).shape == (2, 3)
    assert len(npuzzle.random_boards(np.int16(3), np.int64(2), seed=1)) == 2
    assert npuzzle.Board([1, 2, 3, 4, 5, 0], size=(np.int64(2), 3)).shape == (2, 3)
    assert npuzzle.plan(np.int64(3))["shape"] in ("3x3", [3, 3], (3, 3))


def test_sizes_that_are_not_whole_numbers_are_refused():
    for bad in (3.0, True, np.float64(3), "3.5"):
        with pytest.raises(InvalidOption):
            npuzzle.Board.goal(bad)


def test_board_size_is_the_number_of_cells_like_numpy():
    b = npuzzle.Board("1 2 3 4/5 6 7 8/9 10 11 0")
    assert b.size == 12 == np.array(b).size
    assert isinstance(b.size, int)
    assert b.shape == (3, 4)
    assert b.size_text == "3x4"
    # the shape is accepted wherever a size is
    assert npuzzle.Board.goal(b.shape).shape == b.shape


def test_read_boards_stops_at_256_mib():
    # Run apart, with its address space capped: without the cap the read never ends.
    code = textwrap.dedent(
        """
        import resource, npuzzle
        resource.setrlimit(resource.RLIMIT_AS, (2048 << 20, 2048 << 20))
        try:
            npuzzle.read_boards("/dev/zero")
        except npuzzle.InvalidBoard as e:
            print("refused:", e)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "refused: /dev/zero is larger than 256 MiB", out.stderr[-500:]


def test_read_boards_refuses_a_large_file_by_its_size(tmp_path):
    path = tmp_path / "big.txt"
    with open(path, "wb") as f:
        f.truncate((256 << 20) + 1)  # sparse: no disk used
    with pytest.raises(InvalidBoard, match=r"big.txt is larger than 256 MiB"):
        npuzzle.read_boards(path)


def test_read_boards_refuses_a_million_lines_of_boards_and_one_more(tmp_path):
    """Regression: a file within 256 MiB of a few million short lines was made into boards
    whole (gigabytes). Past a million lines of boards it is refused before any board is
    made, in the command line's words; a header and comments do not count."""
    assert npuzzle.MAX_BOARD_LINES == 1_000_000
    path = tmp_path / "many.txt"
    path.write_text("1 2 3 4 5 6 7 0 8\n" * (npuzzle.MAX_BOARD_LINES + 1))
    with pytest.raises(
        InvalidBoard, match=r"many.txt has more than 1000000 lines of boards \(split the file\)$"
    ):
        npuzzle.read_boards(path)
    # At the cap the lines are read, and the first bad one is what is reported.
    at_cap = tmp_path / "cap.txt"
    at_cap.write_text("3\n# header and comment not counted\n" + "x\n" * npuzzle.MAX_BOARD_LINES)
    with pytest.raises(InvalidBoard, match=r"^line 3: "):
        npuzzle.read_boards(at_cap)


def test_read_boards_refuses_binary_and_directories(tmp_path):
    path = tmp_path / "bin.txt"
    path.write_bytes(b"1 2 3\xff")
    with pytest.raises(InvalidBoard, match="is not UTF-8 text"):
        npuzzle.read_boards(path)
    with pytest.raises(OSError, match="it is a directory"):
        npuzzle.read_boards(tmp_path)


def test_read_boards_still_reads_boards(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("3\n1 2 3 4 5 6 7 0 8\n# note\n1 2 3 4 5 6 0 7 8 2\n")
    got = npuzzle.read_instances(path)
    assert [(str(b), n) for b, n in got] == [("1 2 3/4 5 6/7 0 8", None), ("1 2 3/4 5 6/0 7 8", 2)]
