"""The exceptions npuzzle raises, each with the command line's one-line message."""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["NpuzzleError", "InvalidBoard", "InvalidOption", "Unsolvable", "LimitReached"]


class NpuzzleError(Exception):
    """Base class of every npuzzle exception."""


class InvalidBoard(NpuzzleError, ValueError):
    """The input is not a board (or the goal is not one of the same shape).

    The message is the command line's: ``board has duplicate tile 8``.
    """


class InvalidOption(NpuzzleError, ValueError):
    """An option's value was refused: an unknown heuristic or algorithm, a bad limit, size,
    weight or move string."""


class Unsolvable(NpuzzleError):
    """The start cannot reach the goal (decided by the parity rule, before any search).

    ``solution`` is the ``Solution`` with ``solvable`` false, whose ``to_dict()`` is what
    ``npuzzle solve --json`` prints; ``reason`` explains the verdict.
    """

    def __init__(self, message: str, solution: Optional[Any] = None) -> None:
        super().__init__(message)
        self.solution = solution

    @property
    def reason(self) -> Optional[str]:
        return None if self.solution is None else self.solution.reason

    def __reduce__(self):  # keep the solution when pickled (Dask, multiprocessing)
        return (type(self), (str(self), self.solution))


class LimitReached(NpuzzleError):
    """A time, node or memory limit stopped the search before it found a path.

    ``solution`` holds the statistics so far (``expanded``, ``generated``, ``max_open``,
    ``seconds``, ``lower_bound``); ``stopped_by`` is ``"time"``, ``"nodes"``, ``"memory"``,
    ``"cancelled"`` or ``"width"`` (a beam search that lost its way). Ctrl-C raises
    ``KeyboardInterrupt`` instead.
    """

    def __init__(self, message: str, solution: Optional[Any] = None) -> None:
        super().__init__(message)
        self.solution = solution

    @property
    def stopped_by(self) -> Optional[str]:
        return None if self.solution is None else self.solution.stopped_by

    @property
    def expanded(self) -> Optional[int]:
        return None if self.solution is None else self.solution.expanded

    @property
    def generated(self) -> Optional[int]:
        return None if self.solution is None else self.solution.generated

    def __reduce__(self):
        return (type(self), (str(self), self.solution))
