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
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional

from distributed import Client, get_client

from ._files import PathLike, read_boards
from ._native import Board, Solution
from ._native import solve_many as _solve_many

__all__ = ["solve_many", "solve_file"]


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
