"""npuzzle.hint: the next move, as `npuzzle play`'s `h` and the server's /api/hint give it,
checked against a breadth-first search written here."""

from __future__ import annotations

import pytest

import npuzzle
from test_exhaustive import bfs_distances

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def after(tiles, move, size="3x3"):
    return tuple(npuzzle.Board(list(tiles), size=size).apply(move).tiles)


def test_every_hint_on_3x3_is_a_step_along_a_shortest_path():
    dist = bfs_distances(GOAL)
    boards = npuzzle.random_boards("3x3", count=150, seed=11)
    for board in boards:
        tiles = tuple(board.tiles)
        d = dist[tiles]
        h = npuzzle.hint(board)
        assert h["solved"] is False
        assert h["remaining"] == d and h["optimal"] is True, (tiles, h)
        assert h["lower_bound"] == d
        # The move is the first of the path, one step closer, and slides the tile named.
        assert h["moves"][0] == h["move"]
        assert dist[after(tiles, h["move"])] == d - 1, (tiles, h)
        blank = tiles.index(0)
        moved = after(tiles, h["move"])
        assert moved[blank] == h["tile"]
        assert npuzzle.Board(list(tiles)).apply(h["moves"]) == npuzzle.Board.goal("3x3")
        assert h["stopped_by"] is None


def test_a_hint_for_another_goal_and_shape():
    goal = npuzzle.Board.goal("2x4", "spiral")
    dist = bfs_distances(tuple(goal.tiles), cols=4)
    for board in npuzzle.random_boards("2x4", count=30, seed=3, goal="spiral"):
        tiles = tuple(board.tiles)
        h = npuzzle.hint(board, goal="spiral")
        assert h["remaining"] == dist[tiles] and h["optimal"]
        assert dist[after(tiles, h["move"], "2x4")] == dist[tiles] - 1


def test_a_solved_board_has_no_move():
    h = npuzzle.hint("1 2 3/4 5 6/7 8 0")
    assert h["solved"] is True and h["move"] is None and h["tile"] is None
    assert h["remaining"] == 0 and h["optimal"] is True


def test_an_unsolvable_board_raises_as_solve_does():
    with pytest.raises(npuzzle.Unsolvable) as e:
        npuzzle.hint("1 2 3/4 5 6/8 7 0")
    with pytest.raises(npuzzle.Unsolvable) as f:
        npuzzle.solve("1 2 3/4 5 6/8 7 0")
    assert str(e.value) == str(f.value)


def test_the_hint_budget_is_five_seconds_at_most_in_the_cores_words():
    with pytest.raises(npuzzle.InvalidOption, match=r"^time_limit must be at most 5 seconds, got 7$"):
        npuzzle.hint("8 6 7/2 5 4/3 0 1", time_limit=7)
    with pytest.raises(npuzzle.InvalidOption, match=r"^time_limit must be a number of seconds above 0, got 0$"):
        npuzzle.hint("8 6 7/2 5 4/3 0 1", time_limit=0)
    with pytest.raises(npuzzle.InvalidOption, match="unknown heuristic"):
        npuzzle.hint("8 6 7/2 5 4/3 0 1", heuristic="psychic")


def test_a_named_heuristic_runs_as_asked():
    # 31 moves, optimal, with misplaced tiles alone (it was 33 when budgets overrode it).
    h = npuzzle.hint("8 6 7/2 5 4/3 0 1", heuristic="misplaced")
    assert h["remaining"] == 31 and h["optimal"] is True


def test_a_big_board_gets_the_anytime_engines_best_with_its_bound():
    board = npuzzle.random_boards("5x5", count=1, seed=2)[0]
    seen = []
    h = npuzzle.hint(board, time_limit=0.5, progress=seen.append)
    assert h["move"] is not None and h["moves"][0] == h["move"]
    assert board.apply(h["moves"]) == npuzzle.Board.goal("5x5")
    assert h["lower_bound"] <= h["remaining"]
    assert h["optimal"] == (h["lower_bound"] == h["remaining"])
    assert seen, "progress heard the engine"
