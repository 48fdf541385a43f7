"""The Dask example: a LocalCluster with 2 workers gives the same results as solve_many."""

from __future__ import annotations

import pytest

import npuzzle

distributed = pytest.importorskip("distributed")


def without_seconds(solutions):
    out = []
    for s in solutions:
        d = s.to_dict()
        d.pop("seconds")
        out.append(d)
    return out


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def test_cluster_results_are_solve_many_results(client):
    import npuzzle.dask

    assert len(client.scheduler_info()["workers"]) == 2
    boards = npuzzle.random_boards("3x3", 600, seed=21)
    boards.append(npuzzle.Board("1 2 3/4 5 6/8 7 0"))  # unsolvable, reported in place
    options = dict(algorithm="astar", heuristic="manhattan")
    with distributed.get_task_stream(client) as stream:
        remote = npuzzle.dask.solve_many(boards, client=client, chunk_size=50, **options)
    local = npuzzle.solve_many(boards, **options)
    assert without_seconds(remote) == without_seconds(local)
    # 13 chunks, and both workers took some
    assert len(stream.data) == 13
    assert len({task["worker"] for task in stream.data}) == 2


def test_cluster_solves_a_file(client, tmp_path):
    import npuzzle.dask

    boards = npuzzle.random_boards("4x4", 8, seed=2, moves=30)
    path = tmp_path / "boards.txt"
    path.write_text("# walks of 30 moves\n" + "\n".join(" ".join(map(str, b.tiles)) for b in boards) + "\n")
    remote = npuzzle.dask.solve_file(path, client=client, chunk_size=3)
    assert without_seconds(remote) == without_seconds(npuzzle.solve_many(boards))


def test_bad_boards_fail_before_any_work_is_sent(client):
    import npuzzle.dask

    with pytest.raises(npuzzle.InvalidBoard, match="duplicate tile 4"):
        npuzzle.dask.solve_many(["1 2 3/4 4 0"], client=client)
