"""npuzzle: sliding-tile puzzles solved by the npuzzle Rust core.

>>> import npuzzle
>>> s = npuzzle.solve("7 2 6/8 1 4/3 5 0")
>>> s.length, s.optimal
(22, True)
>>> npuzzle.Board("7 2 6/8 1 4/3 5 0").apply(s.moves) == npuzzle.Board.goal("3x3")
True

Names, JSON fields and messages are those of the ``npuzzle`` command line; see
``docs/python.md``.
"""

from ._native import (
    MAX_BOARD_LINES,
    MAX_INPUT_BYTES,
    Board,
    Heuristic,
    Solution,
    WorkUnit,
    __version__,
    check,
    heuristic,
    hint,
    pdb_cache_dir,
    plan,
    random_boards,
    solve,
    solve_many,
    solve_unit,
    split,
)
from ._compare import compare
from ._files import read_boards, read_instances
from .errors import InvalidBoard, InvalidOption, LimitReached, NpuzzleError, Unsolvable

__all__ = [
    "MAX_BOARD_LINES",
    "MAX_INPUT_BYTES",
    "Board",
    "Heuristic",
    "Solution",
    "check",
    "compare",
    "heuristic",
    "hint",
    "pdb_cache_dir",
    "plan",
    "random_boards",
    "read_boards",
    "read_instances",
    "solve",
    "solve_many",
    "solve_unit",
    "split",
    "WorkUnit",
    "NpuzzleError",
    "InvalidBoard",
    "InvalidOption",
    "Unsolvable",
    "LimitReached",
    "__version__",
]
