"""Properties (hypothesis): boards round-trip between Python and Rust, and every
solution's moves replay through Board.apply to the goal."""

from __future__ import annotations

import pickle

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import npuzzle

SHAPES = [(r, c) for r in range(2, 6) for c in range(2, 6)]


@st.composite
def permutations(draw):
    rows, cols = draw(st.sampled_from(SHAPES))
    tiles = draw(st.permutations(range(rows * cols)))
    return rows, cols, list(tiles)


@given(permutations())
def test_boards_round_trip(p):
    rows, cols, tiles = p
    b = npuzzle.Board(tiles, size=(rows, cols))
    assert list(b.tiles) == tiles
    assert b.shape == (rows, cols)
    assert b.blank == tiles.index(0)
    nested = [tiles[r * cols : (r + 1) * cols] for r in range(rows)]
    assert b.rows == nested
    # text, nested lists, numpy, another Board, pickle: all the same board
    assert npuzzle.Board(str(b)) == b
    assert npuzzle.Board(nested) == b
    assert npuzzle.Board(np.array(nested)) == b
    assert npuzzle.Board(np.array(tiles, dtype=np.uint16), size=f"{rows}x{cols}") == b
    assert npuzzle.Board(b) == b
    assert pickle.loads(pickle.dumps(b)) == b
    assert hash(npuzzle.Board(nested)) == hash(b)
    assert np.array_equal(b.to_numpy(), np.array(nested))
    # solvability agrees with the parity rule computed here
    goal = npuzzle.Board.goal((rows, cols))
    assert b.solvable() == parity_solvable(tiles, list(goal.tiles), cols)


def parity_solvable(start, goal, cols):
    """The classical rule, written independently of the core: inversions (blank left out),
    plus the blank's row when the width is even, have the goal's parity."""

    def inv(t):
        s = [x for x in t if x]
        return sum(1 for i in range(len(s)) for j in range(i + 1, len(s)) if s[i] > s[j])

    def key(t):
        return inv(t) + (t.index(0) // cols if cols % 2 == 0 else 0)

    return key(start) % 2 == key(goal) % 2


@st.composite
def walks(draw):
    rows, cols = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 4)]))
    goal = draw(st.sampled_from(["standard", "blank-first", "spiral"]))
    moves = draw(st.integers(0, 40))
    seed = draw(st.integers(0, 2**32))
    return npuzzle.random_boards((rows, cols), 1, seed=seed, moves=moves, goal=goal)[0], goal, moves


@settings(max_examples=60, deadline=None)
@given(walks())
def test_solutions_replay_to_the_goal(walk):
    board, goal, walked = walk
    s = npuzzle.solve(board, goal=goal)
    target = npuzzle.Board.goal(board.shape, goal)
    assert s.start == board and s.goal == target
    assert board.apply(s.moves) == target
    assert s.length == len(s.moves) <= walked  # optimal: never longer than the walk
    assert s.optimal
    path = s.path
    assert path[0] == board and path[-1] == target and len(path) == s.length + 1
    for a, b, m in zip(path, path[1:], s.moves):
        assert a.apply(m) == b
    assert s.to_dict(path=True)["path"] == [list(p.tiles) for p in path]
    assert pickle.loads(pickle.dumps(s)) == s


@settings(max_examples=30, deadline=None)
@given(walks(), st.sampled_from(["greedy", "weighted-astar", "weighted-idastar", "constructive"]))
def test_suboptimal_solutions_replay_too(walk, algorithm):
    board, goal, _ = walk
    s = npuzzle.solve(board, goal=goal, algorithm=algorithm)
    assert board.apply(s.moves) == npuzzle.Board.goal(board.shape, goal)
    assert s.lower_bound <= s.length
