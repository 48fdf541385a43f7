// The search view: the first expansions of a search drawn as a tree, each node a small board
// with its g, h and f, numbered in the order the search expanded it.

import { svg } from './dom.js';
import { ARROW, sameTiles } from './puzzle.js';

const MINI = 14;

/**
 * Draws `trace` (from a solve with `trace: N`) into `root`. `path` is the list of boards of
 * the solution (or []), whose nodes are highlighted.
 */
export function drawTree(root, trace, rows, cols, path) {
  const n = trace.length;
  const children = Array.from({ length: n }, () => []);
  const roots = [];
  trace.forEach((t, i) => (t.parent == null ? roots.push(i) : children[t.parent]?.push(i)));
  const mini = rows * cols <= 25;
  const boxW = mini ? Math.max(cols * MINI + 16, 92) : 92;
  const boxH = (mini ? rows * MINI : 0) + 46;
  const gapX = 14;
  const gapY = 34;
  // Leaves take consecutive columns; a parent sits above the middle of its children.
  const x = new Array(n);
  const depth = new Array(n);
  let next = 0;
  const place = (i, d) => {
    depth[i] = d;
    if (!children[i].length) {
      x[i] = next++;
      return;
    }
    children[i].forEach((c) => place(c, d + 1));
    x[i] = (x[children[i][0]] + x[children[i][children[i].length - 1]]) / 2;
  };
  roots.forEach((r) => { place(r, 0); next += 0.5; });
  const maxDepth = Math.max(...depth, 0);
  const width = Math.max(next, 1) * (boxW + gapX) + gapX;
  const height = (maxDepth + 1) * (boxH + gapY) + gapY;
  const px = (i) => gapX + x[i] * (boxW + gapX);
  const py = (i) => gapY / 2 + depth[i] * (boxH + gapY);
  const onPath = (t) => path.length > t.g && sameTiles(path[t.g], t.tiles);

  const g = svg('svg', { class: 'tree', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'search tree' });
  const edges = svg('g', { class: 'edges' });
  const nodes = svg('g', { class: 'nodes' });
  g.append(edges, nodes);
  trace.forEach((t, i) => {
    if (t.parent == null || x[t.parent] == null) return;
    const p = t.parent;
    const [x1, y1, x2, y2] = [px(p) + boxW / 2, py(p) + boxH, px(i) + boxW / 2, py(i)];
    edges.append(svg('line', { x1, y1, x2, y2, class: onPath(t) && onPath(trace[p]) ? 'edge on-path' : 'edge' }));
    if (t.step) {
      const letter = t.step[0];
      edges.append(svg('text', { x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2 + 4, class: 'edge-label' }, `blank ${ARROW[letter] || letter}`));
    }
  });
  trace.forEach((t, i) => {
    const node = svg('g', { transform: `translate(${px(i)},${py(i)})`, class: `node${onPath(t) ? ' on-path' : ''}` });
    node.append(svg('rect', { width: boxW, height: boxH, rx: 6, class: 'node-box' }));
    node.append(svg('text', { x: 5, y: 13, class: 'node-order' }, `#${i + 1}`));
    if (mini) {
      const ox = (boxW - cols * MINI) / 2;
      t.tiles.forEach((tile, c) => {
        const cx = ox + (c % cols) * MINI;
        const cy = 18 + Math.floor(c / cols) * MINI;
        node.append(svg('rect', { x: cx, y: cy, width: MINI - 1, height: MINI - 1, class: tile ? 'mini-tile' : 'mini-blank' }));
        if (tile) node.append(svg('text', { x: cx + MINI / 2 - 0.5, y: cy + MINI - 3.5, class: 'mini-num', 'text-anchor': 'middle' }, String(tile)));
      });
    }
    const fmt = (v) => (Number.isInteger(v) ? v : v.toFixed(1));
    node.append(svg('text', { x: boxW / 2, y: boxH - 7, class: 'node-ghf', 'text-anchor': 'middle' }, `g${t.g} h${fmt(t.h)} f${fmt(t.f)}`));
    node.append(svg('title', {}, `expansion #${i + 1}: g = ${t.g} moves so far, h = ${fmt(t.h)} estimated to go, f = ${fmt(t.f)}`));
    node.dataset.order = i;
    nodes.append(node);
  });
  root.replaceChildren(g);
  return { roots: roots.length, nodes: n, svg: g };
}

/**
 * Shows the search as it was after expansion `k` (0-based): later nodes faded, node `k`
 * marked, and scrolled into view.
 */
export function showExpansion(drawn, k) {
  for (const node of drawn.svg.querySelectorAll('.node')) {
    const i = Number(node.dataset.order);
    node.classList.toggle('future', i > k);
    node.classList.toggle('current', i === k);
  }
  drawn.svg.querySelector('.node.current')?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
}
