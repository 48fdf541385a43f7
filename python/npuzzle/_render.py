"""Pictures for notebooks: a board as SVG, a solution as a self-contained animation."""

from __future__ import annotations

import html
import itertools
import json
from typing import Any

# Each rendered solution gets its own element ids, so several can share a notebook page.
_ids = itertools.count()

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


def solution_html(solution: Any, cell: int = 40) -> str:
    """A slider that steps through the path; the tiles are moved by a few lines of
    JavaScript, so the page needs no server. Without a path, a summary line."""
    summary = html.escape(repr(solution))
    moves = solution.moves
    if moves is None:
        return f"<div><code>{summary}</code></div>{board_svg(solution.start, cell)}"
    uid = f"npuzzle-{next(_ids)}"
    rows, cols = solution.start.shape
    data = json.dumps({"tiles": list(solution.start.tiles), "cols": cols, "moves": moves})
    script = f"""
(function() {{
  var d = {data};
  var root = document.getElementById("{uid}");
  var slider = root.querySelector("input"), label = root.querySelector(".step");
  var frames = [d.tiles.slice()], t = d.tiles.slice(), b = t.indexOf(0);
  var delta = {{U: -d.cols, D: d.cols, L: -1, R: 1}};
  for (var i = 0; i < d.moves.length; i++) {{
    var n = b + delta[d.moves[i]]; t[b] = t[n]; t[n] = 0; b = n; frames.push(t.slice());
  }}
  var cells = root.querySelectorAll("g.cell");
  function show(k) {{
    var f = frames[k];
    for (var c = 0; c < f.length; c++) {{
      cells[c].querySelector("rect").setAttribute("fill", f[c] ? "{_TILE}" : "{_BLANK}");
      cells[c].querySelector("text").textContent = f[c] ? f[c] : "";
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
