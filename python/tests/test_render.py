"""Notebook pictures (issue 24, Python 3): ids unique across kernels, huge solutions
bounded, and docs/classroom.ipynb committed with its outputs."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import npuzzle
from npuzzle import _render

NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "docs" / "classroom.ipynb"
RENDER = "import npuzzle; print(npuzzle.solve('8 6 7/2 5 4/3 0 1')._repr_html_())"


def ids(html: str):
    return re.findall(r'id="(npuzzle-[^"]+)"', html)


def test_animation_ids_differ_across_processes():
    # Two kernels render their first solution: one page showing both outputs must not
    # have one slider drive the other (the ids were npuzzle-0 in every process).
    first, second = (
        subprocess.run([sys.executable, "-c", RENDER], capture_output=True, text=True, check=True).stdout
        for _ in range(2)
    )
    (a,), (b,) = ids(first), ids(second)
    assert a != b
    s = npuzzle.solve("8 6 7/2 5 4/3 0 1")
    assert len(set(ids(s._repr_html_()) + ids(s._repr_html_()))) == 2


def test_a_small_solution_is_animated():
    s = npuzzle.solve("8 6 7/2 5 4/3 0 1")
    html = s._repr_html_()
    assert 'type="range"' in html and 'max="31"' in html
    assert html.count('<g class="cell">') == 9


def test_a_huge_solution_is_a_summary_not_megabytes():
    board = npuzzle.random_boards("100x100", 1, seed=1)[0]
    s = npuzzle.solve(board)
    assert s.length > 1_000_000
    html = s._repr_html_()
    assert len(html) < 10_000, f"{len(html)} bytes of HTML"
    assert "animation is left out" in html and 'type="range"' not in html
    # A long path on a small board: summary with the start and the goal drawn.
    long = npuzzle.solve(npuzzle.random_boards("20x20", 1, seed=3)[0])
    assert long.length > _render.MAX_ANIMATED_MOVES or "range" in long._repr_html_()
    html = long._repr_html_()
    assert len(html) < 200_000


def test_the_committed_notebook_holds_its_outputs():
    nb = json.loads(NOTEBOOK.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code and all(c["execution_count"] for c in code), "cells never executed"
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1)), "not run top to bottom"
    outputs = [o for c in code for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the chart"
    assert any('type=\\"range\\"' in json.dumps(o) or 'type="range"' in "".join(o.get("data", {}).get("text/html", "")) for o in outputs), "the animation"
