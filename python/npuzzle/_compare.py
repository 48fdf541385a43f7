"""``npuzzle.compare``: heuristics (and algorithms) side by side on the same boards."""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Union

from ._native import Heuristic, heuristic as _heuristic, solve_many
from .errors import InvalidOption

# The columns of a comparison, in order: which run, then the fields of `solve --json`.
COLUMNS = [
    "index",
    "board",
    "algorithm",
    "heuristic",
    "solvable",
    "length",
    "optimal",
    "expanded",
    "generated",
    "max_open",
    "seconds",
    "stopped_by",
    "admissible",
    "lower_bound",
]


def compare(
    boards: Iterable[Any],
    heuristics: Union[str, Heuristic, Sequence[Union[str, Heuristic]]] = (
        "misplaced",
        "manhattan",
        "linear-conflict",
    ),
    algorithm: Union[str, Sequence[str]] = "astar",
    *,
    size: Any = None,
    goal: Any = "standard",
    jobs: Optional[int] = None,
    weight: Optional[float] = None,
    width: Optional[int] = None,
    time_limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    memory_limit: Optional[int] = None,
    goals: Optional[Iterable[Any]] = None,
    as_frame: Optional[bool] = None,
) -> Any:
    """Solves every board with every heuristic (and every algorithm), on all cores.

    Returns one row per run with the columns ``index`` (the board's position), ``board``,
    ``algorithm``, ``heuristic``, ``solvable``, ``length``, ``optimal``, ``expanded``,
    ``generated``, ``max_open``, ``seconds``, ``stopped_by``, ``admissible`` and
    ``lower_bound``; ``goals`` (one per board) gives each board its own goal. It is a pandas ``DataFrame`` when pandas is installed (or ``as_frame=True``),
    a list of dicts otherwise (or with ``as_frame=False``). The defaults are those of
    ``npuzzle compare``: A* with misplaced, manhattan and linear-conflict. ``weight`` and
    ``width`` go to the weighted algorithms and to ``algorithm="beam"``.
    """
    boards = list(boards)
    goals = None if goals is None else list(goals)
    if isinstance(heuristics, (str, Heuristic)):
        heuristics = [heuristics]
    algorithms = [algorithm] if isinstance(algorithm, str) else list(algorithm)
    specs = list(heuristics)
    if not specs:
        raise InvalidOption("heuristics must not be empty")
    # Parse every heuristic before solving anything, so a typo fails at once; "auto" is
    # the planner's choice, as in `solve` and `npuzzle compare -H auto`.
    for h in specs:
        if not (isinstance(h, Heuristic) or (isinstance(h, str) and h.strip() == "auto")):
            _heuristic(h)
    rows: List[dict] = []
    for alg in algorithms:
        for spec in specs:
            solutions = solve_many(
                boards,
                size=size,
                jobs=jobs,
                goal=goal,
                heuristic=spec,
                algorithm=alg,
                weight=weight,
                width=width,
                time_limit=time_limit,
                max_nodes=max_nodes,
                memory_limit=memory_limit,
                goals=goals,
            )
            for i, s in enumerate(solutions):
                d = s.to_dict()
                row = {k: d.get(k) for k in COLUMNS[2:]}
                row["index"] = i
                row["board"] = str(s.start)
                # Unsolvable boards were never searched: name what was asked for.
                row["algorithm"] = row["algorithm"] or alg
                row["heuristic"] = row["heuristic"] or getattr(spec, "name", spec)
                rows.append({k: row[k] for k in COLUMNS})
    if as_frame is False:
        return rows
    try:
        import pandas as pd
    except ImportError:
        if as_frame:
            raise
        return rows
    return pd.DataFrame(rows, columns=COLUMNS)
