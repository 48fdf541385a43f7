"""Pictures for notebooks: a board as SVG, a solution as a self-contained animation."""

from __future__ import annotations

import html
import json
import uuid
from typing import Any

_TILE = "#f4d58d"
_BLANK = "#ffffff"
_LINE = "#555555"


def board_svg(board: Any, cell: int = 40) -> str:
    """The board as an SVG element: one square per tile, the blank left empty."""
    rows, cols = board.shape
    width, height = cols * cell, rows * cell
    font = max(8, int(cell * (0.45 if rows * cols < 100 else 0.32)))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2}" height="{height + 2}" '
        f'viewBox="-1 -1 {width + 2} {height + 2}" role="img" '
        f'aria-label="{html.escape(str(board))}">'
    ]
    for i, t in enumerate(board.tiles):
        r, c = divmod(i, cols)
        x, y = c * cell, r * cell
        fill = _BLANK if t == 0 else _TILE
        parts.append(
            f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
            f'stroke="{_LINE}"/>'
        )
        if t:
            parts.append(
                f'<text x="{x + cell / 2}" y="{y + cell / 2}" font-size="{font}" '
                f'font-family="sans-serif" text-anchor="middle" '
                f'dominant-baseline="central">{t}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


#: The largest solution drawn as an animation: more moves, or more cells, and the picture is
#: a summary with the start and the goal (a 100x100 solution of two million moves made 4.4 MB
#: of HTML that never rendered).
MAX_ANIMATED_MOVES = 10_000
MAX_DRAWN_CELLS = 400


def _uid() -> str:
    # Unique across kernels and processes, not only within one: two outputs on one page (two
    # notebooks' cells, or a notebook's saved outputs beside new ones) never share ids.
    return f"npuzzle-{uuid.uuid4().hex}"


def solution_html(solution: Any, cell: int = 40) -> str:
    """A slider that steps through the path; the tiles are moved by a few lines of
    JavaScript, so the page needs no server. Without a path, a summary line; a path longer
    than ``MAX_ANIMATED_MOVES`` moves or a board of more than ``MAX_DRAWN_CELLS`` cells, a
    summary with the start and goal (when small enough to draw)."""
    summary = html.escape(repr(solution))
    moves = solution.moves
    if moves is None:
        return f"<div><code>{summary}</code></div>{board_svg(solution.start, cell)}"
    rows, cols = solution.start.shape
    if len(moves) > MAX_ANIMATED_MOVES or rows * cols > MAX_DRAWN_CELLS:
        note = (
            f"The animation is left out: {len(moves):,} moves on a {rows}x{cols} board (it is "
            f"drawn up to {MAX_ANIMATED_MOVES:,} moves and {MAX_DRAWN_CELLS} cells); "
            f"<code>solution.moves</code> holds the path."
        )
        pictures = ""
        if rows * cols <= MAX_DRAWN_CELLS:
            pictures = (
                f"<div>{board_svg(solution.start, cell)} &rarr; {board_svg(solution.goal, cell)}</div>"
            )
        return f'<div class="npuzzle-solution"><div><code>{summary}</code></div><p>{note}</p>{pictures}</div>'
    uid = _uid()
    data = json.dumps({"tiles": list(solution.start.tiles), "cols": cols, "moves": moves})
    # The boards along the path are not kept: the slider walks from the board shown to the
    # one asked for, forwards or backwards, and redraws only the cells that changed.
    script = f"""
(function() {{
  var d = {data};
  var root = document.getElementById("{uid}");
  var slider = root.querySelector("input"), label = root.querySelector(".step");
  var t = d.tiles.slice(), b = t.indexOf(0), at = 0;
  var delta = {{U: -d.cols, D: d.cols, L: -1, R: 1}};
  var cells = root.querySelectorAll("g.cell");
  function show(k) {{
    var changed = {{}};
    while (at < k) {{
      var n = b + delta[d.moves[at]]; t[b] = t[n]; t[n] = 0; changed[b] = changed[n] = 1; b = n; at++;
    }}
    while (at > k) {{
      at--; var p = b - delta[d.moves[at]]; t[b] = t[p]; t[p] = 0; changed[b] = changed[p] = 1; b = p;
    }}
    for (var c in changed) {{
      cells[c].querySelector("rect").setAttribute("fill", t[c] ? "{_TILE}" : "{_BLANK}");
      cells[c].querySelector("text").textContent = t[c] ? t[c] : "";
    }}
    label.textContent = k === 0 ? "start" : "move " + k + " (" + d.moves[k - 1] + ")";
  }}
  slider.addEventListener("input", function() {{ show(+slider.value); }});
}})();
"""
    width, height = cols * cell, rows * cell
    font = max(8, int(cell * 0.45))
    cells = []
    for i, t in enumerate(solution.start.tiles):
        r, c = divmod(i, cols)
        x, y = c * cell, r * cell
        cells.append(
            f'<g class="cell"><rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
            f'fill="{_BLANK if t == 0 else _TILE}" stroke="{_LINE}"/>'
            f'<text x="{x + cell / 2}" y="{y + cell / 2}" font-size="{font}" '
            f'font-family="sans-serif" text-anchor="middle" dominant-baseline="central">'
            f'{t if t else ""}</text></g>'
        )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2}" height="{height + 2}" '
        f'viewBox="-1 -1 {width + 2} {height + 2}">{"".join(cells)}</svg>'
    )
    return (
        f'<div id="{uid}" class="npuzzle-solution">'
        f"<div><code>{summary}</code></div>{svg}<div>"
        f'<input type="range" min="0" max="{len(moves)}" value="0" step="1" '
        f'style="width:{max(width, 200)}px" aria-label="step"> '
        f'<span class="step">start</span></div>'
        f"<script>{script}</script></div>"
    )
