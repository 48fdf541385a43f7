// One expansion at a time: from a search's trace (the expanded states in order, each with
// its parent, g, h and f), the open and closed lists after each expansion, or for IDA* the
// current path and iteration. The trace holds expanded states only, so the open list is
// rebuilt here: the children of expanded states not expanded yet, each with g = parent's g
// + 1 and h computed on the page for the heuristics it knows (else from a later expansion of
// the same state, else unknown).

import { euclidean, manhattan, misplaced, neighbours, sameTiles } from './puzzle.js';

const KNOWN = { manhattan, misplaced, euclidean };

/** The state of the search after expansion `k` of `trace`. */
export function searchState(trace, k, { algorithm, heuristic, weight = 2, rows, cols, goal }) {
  const key = (t) => t.join(',');
  const h = (tiles) => {
    // Breadth-first search uses no heuristic (its trace says h 0), whatever the menu holds.
    if (algorithm === 'bfs') return 0;
    if (KNOWN[heuristic]) return KNOWN[heuristic](tiles, goal, cols);
    const later = trace.find((t) => sameTiles(t.tiles, tiles));
    return later ? later.h : null;
  };
  if (algorithm === 'idastar') {
    // Each iteration starts again at the root. Its bound is the root's f in the first; later
    // the trace does not carry it, but it is at least the largest f expanded so far in it.
    const roots = trace.slice(0, k + 1).map((t, i) => (t.parent == null ? i : -1)).filter((i) => i >= 0);
    const from = roots[roots.length - 1] ?? 0;
    const fs = trace.slice(from, k + 1).map((t) => t.f);
    const path = [];
    for (let i = k; i != null; i = trace[i].parent) path.unshift({ order: i, ...trace[i] });
    return { kind: 'path', iteration: roots.length, bound: Math.max(...fs), exact: roots.length === 1, path };
  }
  const closed = new Map();
  trace.slice(0, k + 1).forEach((t, i) => closed.set(key(t.tiles), { order: i, ...t }));
  const open = new Map();
  trace.slice(0, k + 1).forEach((t, i) => {
    for (const [, next] of neighbours(t.tiles, rows, cols)) {
      const id = key(next);
      if (closed.has(id)) continue;
      const g = t.g + 1;
      if (open.has(id) && open.get(id).g <= g) continue;
      const hv = h(next);
      const f = hv == null ? null : algorithm === 'bfs' ? g : algorithm === 'greedy' ? hv : algorithm === 'weighted-astar' ? g + weight * hv : g + hv;
      open.set(id, { tiles: next, g, h: hv, f, parent: i });
    }
  });
  const sortKey = (o) => (algorithm === 'bfs' ? o.g : o.f ?? Infinity);
  const list = [...open.values()].sort((a, b) => sortKey(a) - sortKey(b) || (a.h ?? 0) - (b.h ?? 0));
  return { kind: 'lists', open: list, closed: [...closed.values()] };
}
