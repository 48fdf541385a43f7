"""Files of boards: Python reads them with the command line's parser (the core's
``board_file``), so ``read_instances`` and ``npuzzle batch`` find the same boards, lengths
and errors. Each text below is one where Python's own parser (before issue 23) and the
command line disagreed, or a layout both must keep reading alike."""

from __future__ import annotations

import json

import pytest

import npuzzle
from npuzzle import InvalidBoard, _native

ONE_MOVE = "1 2 3/4 5 6/7 0 8"
NOT_A_NUMBER = "expected a number or `_`"

# (name, text, size, expected: [(board, length, line)] or the error message)
CASES = [
    # `N = 3` (spaces around `=`) is a classroom header; Python read it as a bad board.
    ("n-equals-spaced", "N = 3\n1 2 3 4 5 6 7 0 8 1\n", None, [(ONE_MOVE, 1, 2)]),
    ("n-equals", "n=3\n1 2 3 4 5 6 7 0 8\n", None, [(ONE_MOVE, None, 2)]),
    # A header is a header with a size given too (Python took it for a board), and must agree.
    ("header-and-size", "3\n1 2 3 4 5 6 7 0 8 1\n", "3x3", [(ONE_MOVE, 1, 2)]),
    (
        "header-against-size",
        "3\n1 2 3 4 5 6 7 0 8 1\n",
        "4x4",
        "line 1: the file's order is 3x3 but the size is 4x4",
    ),
    # A digit string and its length (Python: `cannot infer the board shape from 2 tiles`).
    ("digit-string-length", "312045678 21\n", None, [("3 1 2/0 4 5/6 7 8", 21, 1)]),
    # A digit string first is a board, not an order (Python: a 312045678x312045678 board).
    (
        "digit-string-first",
        "312045678\n123456708\n",
        None,
        [("3 1 2/0 4 5/6 7 8", None, 1), (ONE_MOVE, None, 2)],
    ),
    # One board written over three lines (Python: three bad boards).
    ("rows-on-lines", "# one board\n1 2 3\n4 5 6\n7 0 8\n", None, [(ONE_MOVE, None, 2)]),
    # Tokens Python's `isdigit` took for a length: `²` (a ValueError, not InvalidBoard) and a
    # number too large for any length.
    ("superscript", "1 2 3 4 5 6 7 0 8 ²\n", None, f"line 1: invalid tile `²`: {NOT_A_NUMBER}"),
    (
        "huge-length",
        "1 2 3 4 5 6 7 0 8 99999999999999999999\n",
        None,
        "line 1: tile `99999999999999999999` is too large for any board",
    ),
    # A bracketed board then a length: Python took it, the command line never did.
    (
        "brackets-length",
        "[1,2,3,4,5,6,7,0,8] 1\n",
        None,
        "line 1: row 2 has 1 tiles, expected 9 like row 1",
    ),
    # `#` starts a comment only at the start of a line, as on the command line.
    ("trailing-hash", "1 2 3 4 5 6 7 0 8 # easy\n", None, f"line 1: invalid tile `#`: {NOT_A_NUMBER}"),
    # Layouts both read alike, kept alike.
    (
        "17-tokens-on-4x4",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15 1\n",
        "4x4",
        [("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", 1, 1)],
    ),
    (
        "17-tokens",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15 1\n",
        None,
        [("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", 1, 1)],
    ),
    (
        "commas-and-length",
        "1,2,3,4,5,6,7,0,8,1\n1,2,3,4,5,6,0,7,8, 2\n",
        None,
        [(ONE_MOVE, 1, 1), ("1 2 3/4 5 6/0 7 8", 2, 2)],
    ),
    (
        "slash-rows-and-a-number",
        "1 2 3/4 5 6/7 0 8 1\n",
        None,
        "line 1: row 3 has 4 tiles, expected 3 like row 1",
    ),
    (
        "3x4-header-13-tokens",
        "3x4\n1 2 3 4 5 6 7 8 9 10 0 11 1\n",
        None,
        [("1 2 3 4/5 6 7 8/9 10 0 11", 1, 2)],
    ),
    ("plus-sign", "1 2 3 4 5 6 7 0 8 +1\n", None, f"line 1: invalid tile `+1`: {NOT_A_NUMBER}"),
    ("leading-zero", "1 2 3 4 5 6 7 0 8 01\n", None, [(ONE_MOVE, 1, 1)]),
    (
        "bad-line-named",
        "# two good, one bad\n1 2 3 4 5 6 7 0 8 1\n\n1 2 3 4 5 6 7 8 8\n",
        None,
        "line 4: board has duplicate tile 8",
    ),
]


cases = pytest.mark.parametrize("text,size,want", [c[1:] for c in CASES], ids=[c[0] for c in CASES])


def read(tmp_path, text, size):
    path = tmp_path / "boards.txt"
    path.write_text(text, encoding="utf-8")
    return npuzzle.read_instances(path, size)


@cases
def test_read_instances_reads_as_the_command_line(tmp_path, text, size, want):
    if isinstance(want, str):
        with pytest.raises(InvalidBoard) as e:
            read(tmp_path, text, size)
        assert str(e.value) == want
    else:
        got = read(tmp_path, text, size)
        assert [(str(b), n) for b, n in got] == [(b, n) for b, n, _ in want]
        lines = _native.parse_boards(text, size)
        assert [(str(b), n, line) for b, n, line, _ in lines] == want


@cases
def test_npuzzle_batch_agrees(cli, tmp_path, text, size, want):
    path = tmp_path / "boards.txt"
    path.write_text(text, encoding="utf-8")
    # Parsing is compared, so the quickest search: no tables to build.
    args = ["batch", str(path), "--format", "json", "--jobs", "1"]
    args += ["--algorithm", "idastar", "--heuristic", "manhattan"]
    if size is not None:
        args += ["--size", size]
    out = cli.run(args)
    rows = [json.loads(l) for l in out.stdout.splitlines()]
    if isinstance(want, str):
        assert out.returncode == 2, out.stderr
        errors = [r["error"] for r in rows if r["status"] == "invalid"]
        # The command line names its option; Python's argument is `size`.
        assert errors[0].replace("--size", "the size") == want
    else:
        assert out.returncode == 0, (out.stdout, out.stderr)
        got = [(npuzzle.Board(r["start"], r["size"]), r["expected"], r["line"]) for r in rows]
        assert [(str(b), n, line) for b, n, line in got] == want


def test_start_goal_lines_are_refused_not_dropped(tmp_path):
    text = "1 2 3 4 5 6 7 0 8\n8 1 2 0 4 3 7 6 5 | 0 1 2 3 4 5 6 7 8 22\n"
    (board, n, line, goal), (start, expected, line2, goal2) = _native.parse_boards(text)
    assert (str(board), n, line, goal) == (ONE_MOVE, None, 1, None)
    assert (str(start), expected, line2) == ("8 1 2/0 4 3/7 6 5", 22, 2)
    assert str(goal2) == "0 1 2/3 4 5/6 7 8"
    with pytest.raises(InvalidBoard, match=r"^line 2: a START \| GOAL line has its own goal"):
        read(tmp_path, text, None)


def test_no_boards(tmp_path):
    assert _native.parse_boards("# nothing\n\n") == []
    for text in ("", "# nothing\n", "3\n"):
        with pytest.raises(InvalidBoard, match=r"boards.txt has no boards$"):
            read(tmp_path, text, None)


def test_the_cap_is_the_core_s():
    assert npuzzle.MAX_INPUT_BYTES == npuzzle._files.MAX_INPUT_BYTES == 256 << 20
