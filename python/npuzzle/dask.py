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


def _solve_chunk(chunk: List[Board], options: dict, goals: Optional[List[Board]] = None) -> List[Solution]:
    # Runs on a worker: one core per task unless the caller asked for more. `goals` is the
    # chunk's own slice of the caller's `goals=`, one per board of the chunk.
    if goals is not None:
        options = dict(options, goals=goals)
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

    ``options`` are those of ``npuzzle.solve_many`` (``goal``, ``goals``, ``heuristic``,
    ``algorithm``, limits, ``size``); ``jobs`` is the threads each task uses on its
    worker. ``goals`` (one per board) is cut into the same chunks as the boards. Boards,
    goals and options are checked here first, so a bad one raises ``InvalidBoard`` or
    ``InvalidOption`` (``TypeError`` for an unknown keyword) before any work is sent.
    """
    from .errors import InvalidBoard, InvalidOption

    if chunk_size < 1:
        raise InvalidOption(f"chunk_size must be at least 1, got {chunk_size}")
    # The options (and one board given in place of many) are refused as npuzzle.solve_many
    # refuses them: it checks them all before its first board, so an empty batch does.
    local = dict(options, jobs=jobs)
    local.pop("goals", None)
    _solve_many(boards if isinstance(boards, (str, Board)) else [], **local)
    size = options.pop("size", None)
    checked = [b if isinstance(b, Board) else Board(b, size) for b in boards]
    goals = options.pop("goals", None)
    if goals is not None:
        goals = [g if isinstance(g, Board) else Board(g, size) for g in goals]
        if len(goals) != len(checked):
            raise InvalidOption(f"goals has {len(goals)} boards but boards has {len(checked)}")
        for i, (b, g) in enumerate(zip(checked, goals)):
            if b.shape != g.shape:
                raise InvalidBoard(f"board {i}: goal is {g.size_text} but the board is {b.size_text}")
    client = client or get_client()
    options = dict(options, jobs=jobs)
    starts = range(0, len(checked), chunk_size)
    chunks = [checked[i : i + chunk_size] for i in starts]
    if goals is None:
        futures = client.map(_solve_chunk, chunks, options=options, pure=False)
    else:
        parts = [goals[i : i + chunk_size] for i in starts]
        futures = client.map(_solve_chunk, chunks, [options] * len(chunks), parts, pure=False)
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


def _search_chunk(units: List[WorkUnit], bound: int, reached: List[bool]) -> List[Optional[dict]]:
    # Runs on a worker: the chunk's units in the serial order, stopping at the first that
    # finds the goal (the serial search stops there too). `None` for units not searched.
    out: List[Optional[dict]] = []
    for unit, go in zip(units, reached):
        if not go:
            out.append(None)
            continue
        result = solve_unit(unit, bound)
        out.append(result)
        if result["moves"] is not None:
            break
    return out + [None] * (len(units) - len(out))


def solve_split(
    board: Any,
    client: Optional[Client] = None,
    *,
    goal: Any = "standard",
    heuristic: Any = None,
    depth: int = 8,
    size: Any = None,
    chunks: Optional[int] = None,
    optimal: bool = False,
) -> SplitResult:
    """Solves one hard board with IDA* on the cluster: ``npuzzle.split`` cuts the search
    tree ``depth`` moves down into work units, sent to the workers once in ``chunks``
    groups of neighbouring units (default: 16 per worker thread); then, for each bound in
    turn, every unit the serial search would reach is searched on the cluster with
    ``npuzzle.solve_unit``, and the next bound is the smallest ``f`` above this one.

    Counts are added up in the serial search's order, stopping at the first unit (in that
    order) that finds the goal, so the length and node counts are those of
    ``npuzzle.solve(board, algorithm="idastar", heuristic=...)``; groups after it are
    cancelled once every group before it has answered. ``optimal=True`` searches as
    ``npuzzle.solve(board, optimal=True)`` does (the strongest tables, duplicate move
    sequences pruned on 15- and 24-puzzles), with its node counts.
    """
    client = client or get_client()
    began = time.perf_counter()
    start = Board(board, size)
    units: List[WorkUnit] = split(
        start, goal=goal, heuristic=heuristic, depth=depth, optimal=optimal
    )
    if chunks is None:
        threads = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
        chunks = 16 * max(1, threads)
    per = max(1, -(-len(units) // max(1, chunks)))
    groups = [units[i : i + per] for i in range(0, len(units), per)]
    # hash=False: keys of this call's own. Hashed keys are the same for the same units, so a
    # previous call's closing cancel(remote) cancelled this call's data with its own.
    remote = client.scatter(groups, hash=False)
    bound = units[0].path_f[0]
    iterations: List[Dict[str, Any]] = []
    generated = expanded = max_open = 0
    moves: Optional[str] = None
    while True:
        t = time.perf_counter()
        above = [u.above(bound) for u in units]
        reached = [a["reached"] for a in above]
        futures = {}
        for g, group in enumerate(groups):
            mask = reached[g * per : g * per + len(group)]
            if any(mask):
                futures[client.submit(_search_chunk, remote[g], bound, mask, pure=False)] = g
        results: List[Optional[dict]] = [None] * len(units)
        done = set()
        first_found: Optional[int] = None
        for future in as_completed(list(futures)):
            if future.cancelled():
                continue
            g = futures[future]
            done.add(g)
            for k, r in enumerate(future.result()):
                results[g * per + k] = r
                if r is not None and r["moves"] is not None:
                    first_found = g if first_found is None else min(first_found, g)
            if first_found is not None and all(h in done for h in futures.values() if h < first_found):
                # Every group the serial search visits before the winner has answered.
                client.cancel([f for f, h in futures.items() if h > first_found])
                break
        # Serial order: what IDA* does above the frontier before each unit, then the unit.
        gen = exp = 0
        next_bound = None
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
                "units": sum(reached),
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
        "phase": "search",
        "stopped_by": None,
        "size": start.size_text,
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
