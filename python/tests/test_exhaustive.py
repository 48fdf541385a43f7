"""Every solvable 3x3 state through solve_many, lengths against a breadth-first search
written here, every path replayed."""

from __future__ import annotations

from collections import deque
from typing import Dict, Tuple

import npuzzle

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def bfs_distances(goal: Tuple[int, ...], cols: int = 3) -> Dict[Tuple[int, ...], int]:
    """Distance from every state to `goal`, by breadth-first search from the goal (moves
    are reversible, so distances to and from the goal agree)."""
    n = len(goal)
    rows = n // cols
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        b = state.index(0)
        r, c = divmod(b, cols)
        d = dist[state] + 1
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < rows and 0 <= nc < cols:
                t = nr * cols + nc
                s = list(state)
                s[b], s[t] = s[t], 0
                s = tuple(s)
                if s not in dist:
                    dist[s] = d
                    queue.append(s)
    return dist


def test_every_solvable_3x3_state_has_the_bfs_length_and_a_path_that_replays():
    dist = bfs_distances(GOAL)
    assert len(dist) == 181440  # 9!/2: exactly half the permutations reach the goal
    states = sorted(dist)
    solutions = npuzzle.solve_many([list(s) for s in states], jobs=2)
    assert len(solutions) == len(states)
    goal = npuzzle.Board(list(GOAL))
    wrong = []
    for state, s in zip(states, solutions):
        assert s.start.tiles == state  # results come back in input order
        if s.length != dist[state] or not s.optimal or s.start.apply(s.moves) != goal:
            wrong.append((state, s.length, dist[state]))
    assert wrong == []


def test_other_algorithms_agree_with_bfs_on_a_sample():
    dist = bfs_distances(GOAL)
    sample = sorted(dist)[::997]
    goal = npuzzle.Board(list(GOAL))
    for algorithm, heuristic in [
        ("astar", "manhattan"),
        ("idastar", "linear-conflict"),
        ("bfs", None),
        ("astar", "pdb"),
    ]:
        solutions = npuzzle.solve_many(sample, algorithm=algorithm, heuristic=heuristic)
        for state, s in zip(sample, solutions):
            assert s.length == dist[state], (algorithm, heuristic, state)
            assert s.start.apply(s.moves) == goal


def test_another_goal_and_shape():
    # 2x4 towards the spiral goal: BFS from that goal.
    goal = npuzzle.Board.goal("2x4", "spiral")
    dist = bfs_distances(goal.tiles, cols=4)
    assert len(dist) == 20160  # 8!/2
    states = sorted(dist)[::7]
    solutions = npuzzle.solve_many(states, size="2x4", goal="spiral")
    for state, s in zip(states, solutions):
        assert s.length == dist[state]
        assert s.start.apply(s.moves) == goal
