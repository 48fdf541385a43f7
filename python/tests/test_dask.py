"""The Dask example: a LocalCluster with 2 workers gives the same results as solve_many."""

from __future__ import annotations

import pytest

import npuzzle

distributed = pytest.importorskip("distributed")


def without_seconds(solutions):
    """The solutions as dicts without their clock readings (the run's seconds, and the
    seconds of each of the anytime engine's improvements), which differ from run to run."""
    out = []
    for s in solutions:
        d = s.to_dict()
        d.pop("seconds")
        for step in d.get("improvements") or []:
            step.pop("seconds")
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


class NoCluster:
    """A client that fails any attempt to send work."""

    def map(self, *args, **kwargs):
        raise AssertionError("work was sent")

    def scheduler_info(self):
        raise AssertionError("work was about to be sent")


@pytest.mark.parametrize(
    "options, error",
    [
        (dict(heuristic="nope"), npuzzle.InvalidOption),
        (dict(time_limit=0), npuzzle.InvalidOption),
        (dict(jobs=0), npuzzle.InvalidOption),
        (dict(weight=0.5, algorithm="weighted-astar"), npuzzle.InvalidOption),
        (dict(bogus=1), TypeError),
        (dict(goal="spiral please"), npuzzle.InvalidBoard),
    ],
)
def test_bad_options_fail_before_any_work_is_sent(options, error):
    # They were sent to the workers, each failing there with a "Compute Failed" traceback in
    # the log before the error reached the caller (an outside check).
    import npuzzle.dask

    with pytest.raises(error):
        npuzzle.dask.solve_many(["1 2 3/4 5 6/7 0 8"], client=NoCluster(), **options)


def test_one_board_in_place_of_many_is_refused_as_solve_many_refuses_it():
    # It was read one character a board: "board must be at least 2x2, got 1x1".
    import npuzzle.dask

    with pytest.raises(npuzzle.InvalidBoard, match="expected a sequence of boards, got a single board"):
        npuzzle.dask.solve_many("1 2 3 4 5 6 7 8 0", client=NoCluster())


def published_24(index):
    """Korf & Felner's #index: the board, its optimal length and their node count."""
    from conftest import REPO

    board, optimal = npuzzle.read_instances(REPO / "data" / "korf50-24puzzle.txt")[index - 1]
    for line in (REPO / "data" / "korf50-24puzzle-nodes.txt").read_text().splitlines():
        fields = line.split()
        if fields and not line.startswith("#") and int(fields[0]) == index:
            assert int(fields[1]) == optimal
            return board, optimal, int(fields[2])
    raise AssertionError(f"no published count for #{index}")


def smaller(a, b):
    """The smaller bound, `None` meaning none."""
    return b if a is None else a if b is None else min(a, b)


def test_split_units_searched_in_order_are_the_serial_search():
    # No cluster: the units one by one, as the driver adds them up.
    board = "8 6 7/2 5 4/3 0 1"
    for heuristic in ["manhattan", "linear-conflict", "misplaced", "pdb"]:
        units = npuzzle.split(board, heuristic=heuristic, depth=5)
        bound, generated = units[0].path_f[0], 0
        while True:
            nxt, found = None, None
            for u in units:
                a = u.above(bound)
                generated += a["generated"]
                nxt = smaller(nxt, a["next_bound"])
                if a["reached"]:
                    r = npuzzle.solve_unit(u, bound)
                    generated += r["generated"]
                    nxt = smaller(nxt, r["next_bound"])
                    if r["moves"] is not None:
                        found = r["moves"]
                        break
            if found:
                break
            bound = nxt
        serial = npuzzle.solve(board, algorithm="idastar", heuristic=heuristic)
        assert len(found) == serial.length == 31, heuristic
        assert npuzzle.Board(board).apply(found) == npuzzle.Board.goal(3)
        assert generated == serial.generated, heuristic


def test_split_on_the_cluster_is_the_serial_search(client):
    import npuzzle.dask

    board = npuzzle.random_boards("4x4", 1, seed=8, moves=60)[0]
    result = npuzzle.dask.solve_split(board, client=client, heuristic="linear-conflict", depth=6)
    serial = npuzzle.solve(board, algorithm="idastar", heuristic="linear-conflict")
    mine, theirs = result.solution.to_dict(), serial.to_dict()
    for d in (mine, theirs):
        d.pop("seconds"), d.pop("max_open"), d.pop("moves")
    assert mine == theirs
    assert board.apply(result.solution.moves) == npuzzle.Board.goal(4)
    assert result.units == len(npuzzle.split(board, heuristic="linear-conflict", depth=6))
    assert sum(i["generated"] for i in result.iterations) == serial.generated


def test_the_same_board_split_again_on_the_same_cluster(client):
    # The data of each call was scattered under keys hashed from its units, the same for the
    # same board, so the closing cancel of one call cancelled the next one's (an outside
    # check: 9 calls of 10 failed with "'NoneType' object is not subscriptable").
    import npuzzle.dask

    board = "8 6 7/2 5 4/3 0 1"
    for _ in range(4):
        result = npuzzle.dask.solve_split(board, client=client, depth=3, heuristic="manhattan")
        assert result.solution.length == 31


def test_split_optimal_prunes_duplicates_on_every_worker(client):
    # Issue 22: `optimal=True` is solve(optimal=True)'s pruning (but not its lookahead before
    # each iteration, so the counts differ); the units carry the pruning through pickling to
    # the workers.
    import npuzzle.dask

    board = npuzzle.random_boards("4x4", 1, seed=8, moves=60)[0]
    h = "linear-conflict"
    result = npuzzle.dask.solve_split(board, client=client, heuristic=h, depth=6, optimal=True)
    proof = npuzzle.solve(board, heuristic=h, optimal=True)
    plain = npuzzle.solve(board, algorithm="idastar", heuristic=h)
    s = result.solution
    assert s.length == proof.length == plain.length
    assert board.apply(s.moves) == npuzzle.Board.goal(4)
    assert s.generated < plain.generated and proof.generated < plain.generated
    unit = npuzzle.split(board, heuristic=h, depth=6, optimal=True)[3]
    again = npuzzle.WorkUnit.from_json(unit.to_json())
    bound = unit.path_f[0] + 20
    assert npuzzle.solve_unit(again, bound) == npuzzle.solve_unit(unit, bound)


def korf_felner(client, index, depth):
    import npuzzle.dask

    board, optimal, nodes = published_24(index)
    result = npuzzle.dask.solve_split(
        board, client=client, goal="blank-first", heuristic="pdb:6-6-6-6", depth=depth
    )
    s = result.solution
    assert s.length == optimal and s.optimal
    assert board.apply(s.moves) == npuzzle.Board.goal("5x5", "blank-first")
    # Korf & Felner's count is the single-process IDA*'s (the core's tests check that).
    assert s.generated == nodes
    assert result.iterations[-1]["bound"] == optimal


def test_korf_felner_38_on_the_cluster(client):
    """The easiest of their 50 (38 million nodes); builds the 6-6-6-6 tables on first use
    (about 20 s, cached in NPUZZLE_PDB_DIR)."""
    korf_felner(client, 38, depth=8)


@pytest.mark.slow
def test_korf_felner_1_on_the_cluster(client):
    """Their first instance: 95 moves, 2,031,102,635 nodes."""
    korf_felner(client, 1, depth=8)


def test_own_goals_travel_with_their_chunks(client):
    # Issue 24, Python 2: `goals=` went whole to every chunk ("goals has 600 boards but
    # boards has 250").
    import npuzzle.dask

    goals = [npuzzle.Board.goal("3x3", g) for g in ("standard", "blank-first", "spiral")] * 20
    boards = [npuzzle.random_boards("3x3", 1, seed=i, goal=g, moves=12)[0] for i, g in enumerate(goals)]
    remote = npuzzle.dask.solve_many(boards, client=client, chunk_size=7, goals=goals)
    local = npuzzle.solve_many(boards, goals=goals)
    # Lengths, not node counts: which tables a process has at hand decides the heuristic.
    assert [s.length for s in remote] == [s.length for s in local]
    assert all(s.optimal for s in remote)
    assert [s.goal for s in remote] == goals
    assert [s.start.apply(s.moves) for s in remote] == goals


def test_goals_of_another_length_fail_before_any_work_is_sent(client):
    import npuzzle.dask

    boards = npuzzle.random_boards("3x3", 5, seed=1)
    with pytest.raises(npuzzle.InvalidOption, match="goals has 4 boards but boards has 5"):
        npuzzle.dask.solve_many(boards, client=client, chunk_size=2, goals=boards[:4])
