"""Solving on a ``dask.distributed`` cluster: many boards, or files of them.

An optional extra (``pip install './python[dask]'``). The scheduler is Dask's: a
``LocalCluster`` on one machine, or ``dask-scheduler`` and ``dask-worker`` on many hosts,
with the same code::

    from dask.distributed import Client, LocalCluster
    import npuzzle, npuzzle.dask

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        boards = npuzzle.random_boards("3x3", 1000, seed=1)
        solutions = npuzzle.dask.solve_many(boards, client=client)

Boards travel to the workers in chunks; each chunk is solved by ``npuzzle.solve_many`` on
the worker (with the GIL released), and the results come back in input order.

One hard instance is cut instead: ``solve_split`` runs IDA*'s iterations across the cluster,
each bound over every work unit of ``npuzzle.split``, and returns the serial search's path
length and node counts.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional

from distributed import Client, as_completed, get_client

from ._files import PathLike, read_boards
from ._native import Board, Solution, WorkUnit, check, solve_unit, split
from ._native import solve_many as _solve_many

__all__ = ["solve_many", "solve_file", "solve_split", "SplitResult"]


def _solve_chunk(chunk: List[Board], options: dict) -> List[Solution]:
    # Runs on a worker: one core per task unless the caller asked for more.
    return _solve_many(chunk, **options)


def solve_many(
    boards: Iterable[Any],
    client: Optional[Client] = None,
    *,
    chunk_size: int = 1000,
    jobs: int = 1,
    **options: Any,
) -> List[Solution]:
    """Solves ``boards`` on the cluster of ``client`` (default: the current client) and
    returns their ``Solution`` objects in input order, as ``npuzzle.solve_many`` would.

    ``options`` are those of ``npuzzle.solve_many`` (``goal``, ``heuristic``,
    ``algorithm``, limits, ``size``); ``jobs`` is the threads each task uses on its
    worker. Boards are checked here first, so a bad one raises ``InvalidBoard`` before
    any work is sent.
    """
    if chunk_size < 1:
        from .errors import InvalidOption

        raise InvalidOption(f"chunk_size must be at least 1, got {chunk_size}")
    size = options.pop("size", None)
    checked = [b if isinstance(b, Board) else Board(b, size) for b in boards]
    client = client or get_client()
    options = dict(options, jobs=jobs)
    chunks = [checked[i : i + chunk_size] for i in range(0, len(checked), chunk_size)]
    futures = client.map(_solve_chunk, chunks, options=options, pure=False)
    return [s for part in client.gather(futures) for s in part]


def solve_file(
    path: PathLike, client: Optional[Client] = None, *, size: Any = None, **options: Any
) -> List[Solution]:
    """Solves every board of a file (the layouts ``npuzzle batch`` reads; see
    ``npuzzle.read_boards``) on the cluster, in file order."""
    return solve_many(read_boards(path, size), client, **options)


@dataclass
class SplitResult:
    """What ``solve_split`` found: the ``Solution`` (its counts are the serial IDA*'s, summed
    over the iterations) and, per iteration, its ``bound``, ``generated`` and ``expanded``
    counts, the units searched and the wall-clock seconds."""

    solution: Solution
    iterations: List[Dict[str, Any]] = field(default_factory=list)
    units: int = 0


def solve_split(
    board: Any,
    client: Optional[Client] = None,
    *,
    goal: Any = "standard",
    heuristic: Any = None,
    depth: int = 8,
    size: Any = None,
) -> SplitResult:
    """Solves one hard board with IDA* on the cluster: ``npuzzle.split`` cuts the search
    tree ``depth`` moves down into work units, sent to the workers once; then, for each
    bound in turn, every unit the serial search would reach is searched on the cluster with
    ``npuzzle.solve_unit``, and the next bound is the smallest ``f`` above this one.

    Counts are added up in the serial search's order, stopping at the first unit (in that
    order) that finds the goal, so the length and node counts are those of
    ``npuzzle.solve(board, algorithm="idastar", heuristic=...)``; units after it are
    cancelled once every unit before it has answered.
    """
    client = client or get_client()
    began = time.perf_counter()
    start = Board(board, size)
    units: List[WorkUnit] = split(start, goal=goal, heuristic=heuristic, depth=depth)
    remote = client.scatter(units)
    bound = units[0].path_f[0]
    iterations: List[Dict[str, Any]] = []
    generated = expanded = max_open = 0
    while True:
        t = time.perf_counter()
        above = [u.above(bound) for u in units]
        reached = [i for i, a in enumerate(above) if a["reached"]]
        futures = {
            client.submit(solve_unit, remote[i], bound, pure=False, key=f"npuzzle-unit-{bound}-{i}"): i
            for i in reached
        }
        results: Dict[int, dict] = {}
        first_found: Optional[int] = None
        for future in as_completed(list(futures)):
            if future.cancelled():
                continue
            i = futures[future]
            results[i] = future.result()
            if results[i]["moves"] is not None and (first_found is None or i < first_found):
                first_found = i
            if first_found is not None and all(j in results for j in reached if j < first_found):
                # Every unit the serial search visits before the winner has answered.
                client.cancel([f for f, j in futures.items() if j > first_found])
                break
        # Serial order: what IDA* does above the frontier before each unit, then the unit.
        gen = exp = 0
        next_bound = None
        moves = None
        for i, a in enumerate(above):
            gen += a["generated"]
            exp += a["expanded"]
            max_open = max(max_open, a["max_open"])
            next_bound = _min(next_bound, a["next_bound"])
            if a["reached"]:
                r = results[i]
                gen += r["generated"]
                exp += r["expanded"]
                max_open = max(max_open, r["max_open"])
                next_bound = _min(next_bound, r["next_bound"])
                if r["moves"] is not None:
                    moves = r["moves"]
                    break
        generated += gen
        expanded += exp
        iterations.append(
            {
                "bound": bound,
                "generated": gen,
                "expanded": exp,
                "units": len(reached),
                "seconds": time.perf_counter() - t,
            }
        )
        if moves is not None or next_bound is None:
            break
        bound = next_bound
    client.cancel(remote)
    goal_board = Board.goal(start.shape, goal) if isinstance(goal, str) else Board(goal)
    verdict = check(start, goal=goal_board)
    report = {
        "solvable": True,
        "length": None if moves is None else len(moves),
        "moves": moves,
        "optimal": moves is not None and _admissible(units[0].heuristic),
        "expanded": expanded,
        "generated": generated,
        "max_open": max_open,
        "seconds": time.perf_counter() - began,
        "heuristic": units[0].heuristic,
        "admissible": _admissible(units[0].heuristic),
        "algorithm": "idastar",
        "stopped_by": None,
        "size": start.size,
        "start": list(start.tiles),
        "goal": list(goal_board.tiles),
        "reason": verdict["reason"],
        "lower_bound": None if moves is None else len(moves),
        "bound_factor": None if moves is None else 1.0,
    }
    return SplitResult(Solution.from_json(json.dumps(report)), iterations, len(units))


def _min(a: Optional[int], b: Optional[int]) -> Optional[int]:
    if a is None:
        return b
    return a if b is None else min(a, b)


def _admissible(name: str) -> bool:
    from ._native import heuristic

    return heuristic(name).admissible
