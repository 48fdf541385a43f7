"""Type stubs for the compiled core of npuzzle (``npuzzle._native``)."""

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, TypedDict, Union

from os import PathLike

__version__: str

MAX_INPUT_BYTES: int
MAX_BOARD_LINES: int
"""The most bytes a file of boards may have (256 MiB), as on the command line."""

BoardLike = Union["Board", str, Sequence[int], Sequence[Sequence[int]], Any]
"""A ``Board``, text in the command line's syntax, a flat or nested list, or a numpy array."""
SizeLike = Union[str, int, Tuple[int, int], Any]
"""``"RxC"``, an integer for a square board (numpy's integers too), or ``(rows, cols)``."""
GoalLike = Union[str, BoardLike]
"""``"standard"``, ``"blank-first"``, ``"spiral"``, or a board of the same shape."""
HeuristicLike = Union[str, "Heuristic"]

class Board:
    """A sliding-tile board: a shape and one tile per cell, ``0`` the blank. Immutable and
    hashable. Raises ``InvalidBoard`` with the command line's message when the input is not
    a board."""

    def __init__(self, board: BoardLike, size: Optional[SizeLike] = None) -> None: ...
    @staticmethod
    def goal(size: SizeLike, goal: GoalLike = "standard") -> "Board":
        """The goal board of a shape."""
    @property
    def shape(self) -> Tuple[int, int]:
        """``(rows, cols)``."""
    @property
    def size(self) -> int:
        """The number of cells, as numpy's ``ndarray.size`` (it used to be ``"RxC"``, now ``size_text``)."""
    @property
    def size_text(self) -> str:
        """``"RxC"``."""
    @property
    def tiles(self) -> Tuple[int, ...]:
        """Tiles in row-major order, ``0`` the blank."""
    @property
    def rows(self) -> List[List[int]]:
        """Tiles row by row."""
    @property
    def blank(self) -> int:
        """The blank's cell, row-major from 0."""
    def solvable(self, goal: GoalLike = "standard") -> bool:
        """Whether the board can reach ``goal``."""
    def check(self, goal: GoalLike = "standard") -> Dict[str, Any]:
        """The verdict of ``npuzzle check --json``."""
    def apply(self, moves: str) -> "Board":
        """The board after moving the blank by ``moves`` (``U``, ``D``, ``L``, ``R``).
        Raises ``InvalidOption`` for a bad letter or a move off the board."""
    def moves(self) -> str:
        """The blank's legal moves, as letters."""
    def grid(self) -> str:
        """An aligned grid, ``_`` for the blank."""
    def to_numpy(self) -> Any:
        """A 2-D numpy array."""
    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> Any:
        """``numpy.array(board)``: a 2-D array of the tiles."""
    def to_svg(self, cell: int = 40) -> str:
        """An SVG picture."""
    def _repr_html_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Improvement(TypedDict):
    """One improvement of the anytime engine's answer or of its proven lower bound."""

    seconds: float
    length: Optional[int]
    lower_bound: int
    by: str

class ProgressReport(TypedDict):
    """What ``solve(progress=…)`` passes each time the best length or the bound improves
    (the fields of ``npuzzle solve --json --progress`` lines)."""

    seconds: float
    length: Optional[int]
    lower_bound: Optional[int]
    expanded: int
    generated: int

class Solution:
    """The result of a solve. Attributes are the fields of ``npuzzle solve --json``;
    ``start`` and ``goal`` are ``Board`` objects."""

    @property
    def solvable(self) -> bool: ...
    @property
    def length(self) -> Optional[int]: ...
    @property
    def moves(self) -> Optional[str]: ...
    @property
    def optimal(self) -> bool: ...
    @property
    def expanded(self) -> int: ...
    @property
    def generated(self) -> int: ...
    @property
    def max_open(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def heuristic(self) -> Optional[str]: ...
    @property
    def admissible(self) -> Optional[bool]: ...
    @property
    def algorithm(self) -> Optional[str]: ...
    @property
    def stopped_by(self) -> Optional[str]: ...
    @property
    def size(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def phase(self) -> Optional[str]: ...
    @property
    def lower_bound(self) -> Optional[int]: ...
    @property
    def bound_factor(self) -> Optional[float]: ...
    @property
    def improvements(self) -> List[Improvement]:
        """How the anytime engine's answer and bound improved, in order (empty for a
        single search)."""
    @property
    def start(self) -> Board: ...
    @property
    def goal(self) -> Board: ...
    @property
    def path(self) -> Optional[List[Board]]:
        """The boards from start to goal."""
    def to_dict(self, path: bool = False) -> Dict[str, Any]:
        """The JSON object of ``npuzzle solve --json`` (with ``path`` as ``--path`` adds)."""
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str) -> "Solution": ...
    def _repr_html_(self) -> str: ...

class Heuristic:
    """A heuristic by name or expression, callable on a board."""

    def __init__(self, expression: str) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def admissible(self) -> bool: ...
    @property
    def consistent(self) -> bool: ...
    def __call__(self, board: BoardLike, goal: GoalLike = "standard") -> float: ...

def heuristic(expression: str) -> Heuristic:
    """A heuristic value; raises ``InvalidOption`` for an unknown name."""

def solve(
    board: BoardLike,
    size: Optional[SizeLike] = None,
    goal: GoalLike = "standard",
    heuristic: Optional[HeuristicLike] = None,
    algorithm: str = "auto",
    weight: Optional[float] = None,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_limit: Optional[int] = None,
    progress: Optional[Callable[[ProgressReport], Any]] = None,
    optimal: bool = False,
    width: Optional[int] = None,
) -> Solution:
    """Solves one board. ``width``: the states ``algorithm="beam"`` keeps a depth. ``progress`` is called each time the anytime engine's best length
    or proven lower bound improves. Raises ``InvalidBoard``/``InvalidOption`` for bad input,
    ``Unsolvable`` (with ``.solution``) and ``LimitReached`` (with the statistics so far)."""

def solve_many(
    boards: Iterable[BoardLike],
    size: Optional[SizeLike] = None,
    jobs: Optional[int] = None,
    goal: GoalLike = "standard",
    heuristic: Optional[HeuristicLike] = None,
    algorithm: str = "auto",
    weight: Optional[float] = None,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_limit: Optional[int] = None,
    goals: Optional[Iterable[BoardLike]] = None,
    width: Optional[int] = None,
    optimal: bool = False,
) -> List[Solution]:
    """Solves many boards on ``jobs`` threads, the calling thread one of them (default: one
    per core), with the GIL released; results in input order. Unsolvable or limited boards give a ``Solution`` instead of
    raising. ``goals`` (as many as ``boards``) gives each board its own goal. Ctrl-C stops
    the batch."""

def check(board: BoardLike, goal: GoalLike = "standard", size: Optional[SizeLike] = None) -> Dict[str, Any]:
    """The verdict of ``npuzzle check --json``."""

def hint(
    board: BoardLike,
    size: Optional[SizeLike] = None,
    goal: GoalLike = "standard",
    heuristic: Optional[HeuristicLike] = None,
    time_limit: Optional[float] = None,
    progress: Optional[Callable[[ProgressReport], Any]] = None,
) -> Dict[str, Any]:
    """The next move towards the goal, as ``npuzzle play``'s ``h`` and ``/api/hint`` give
    it: the first move of ``auto``'s answer within 5 seconds (``time_limit``, at most 5).
    The dict of ``/api/hint``: ``solved``, ``move`` (the blank's), ``tile``, ``remaining``,
    ``optimal``, ``lower_bound``, ``moves``, ``stopped_by``. Raises ``Unsolvable`` as
    ``solve`` does."""

def random_boards(
    size: SizeLike,
    count: int = 1,
    seed: Optional[int] = None,
    moves: Optional[int] = None,
    goal: GoalLike = "standard",
) -> List[Board]:
    """Random solvable boards (or random walks of ``moves`` from the goal), reproducible
    by ``seed`` exactly as ``npuzzle random --seed``."""

def parse_boards(
    text: str, size: Optional[SizeLike] = None, source: str = "the text"
) -> List[Tuple[Board, Optional[int], int, Optional[Board]]]:
    """The boards of a text of boards, read by the core's parser as ``npuzzle batch`` reads
    a file: ``(board, expected, line, goal)`` each, ``expected`` the optimal length written
    after the tiles or ``None``, ``line`` 1-based, ``goal`` the board's own goal from a
    ``START | GOAL`` line or ``None``; an empty list when the text has no board. Raises
    ``InvalidBoard`` with the first bad line's message, which names the line, or for more
    than ``MAX_BOARD_LINES`` lines of boards (``source`` names the text in the message)."""

def pdb_cache_dir() -> Optional[PathLike]:
    """Where pattern databases are cached (``NPUZZLE_PDB_DIR`` or the user cache)."""

class WorkUnit:
    """One state of IDA*'s frontier with the path to it (see ``split``); picklable."""

    @property
    def index(self) -> int: ...
    @property
    def board(self) -> Board: ...
    @property
    def moves(self) -> str: ...
    @property
    def g(self) -> int: ...
    @property
    def h(self) -> int: ...
    @property
    def path_f(self) -> List[int]:
        """``g + h`` along the path from the start; the first is IDA*'s first bound."""
    @property
    def is_goal(self) -> bool: ...
    @property
    def heuristic(self) -> str: ...
    def above(self, bound: int) -> Dict[str, Any]:
        """The serial search's counts above the frontier before this unit, for ``bound``:
        ``generated``, ``expanded``, ``next_bound``, ``max_open``, ``reached``."""
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str) -> "WorkUnit": ...

def split(
    board: BoardLike,
    goal: GoalLike = "standard",
    heuristic: Optional[HeuristicLike] = None,
    depth: int = 8,
    size: Optional[SizeLike] = None,
    optimal: bool = False,
) -> List[WorkUnit]:
    """IDA*'s frontier ``depth`` moves from ``board``, in the serial search's order.
    ``optimal=True`` searches as ``solve(optimal=True)``: the strongest tables, duplicate
    move sequences pruned on 15- and 24-puzzles."""

def solve_unit(
    unit: WorkUnit,
    bound: int,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
) -> Dict[str, Any]:
    """Searches one unit below ``bound``: ``moves`` (whole path or ``None``), ``generated``,
    ``expanded``, ``max_open``, ``next_bound``, ``stopped_by``, ``index``. Raises
    ``InvalidOption`` for a bound below 0 or above the unit's depth plus the constructive
    path from it (no optimal search needs more)."""

def plan(
    board_or_size: Union[BoardLike, SizeLike],
    goal: GoalLike = "standard",
    heuristic: Optional[HeuristicLike] = None,
    algorithm: str = "auto",
    weight: Optional[float] = None,
    width: Optional[int] = None,
    optimal: bool = False,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_limit: Optional[int] = None,
) -> Dict[str, Any]:
    """What ``solve`` with the same choices and limits will run: ``shape``, ``phases``,
    ``tables``, ``optimal``."""
