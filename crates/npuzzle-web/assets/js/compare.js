// The comparison view: a bar chart of nodes and time per heuristic, and a table.

import { count, duration, el, svg } from './dom.js';

const COLOURS = ['#6366f1', '#0ea5e9', '#10b981', '#f59e0b', '#ef4444', '#8b5cf6', '#ec4899', '#14b8a6'];

/** Draws the chart and table for the results of POST /api/compare. */
export function renderCompare(chartRoot, tableRoot, results, logScale) {
  const ok = results.filter((r) => !r.error);
  chartRoot.replaceChildren(
    chart('Nodes expanded', ok, (r) => r.expanded, count, logScale),
    chart('Time', ok, (r) => r.seconds, duration, logScale),
  );
  tableRoot.replaceChildren(table(results));
}

function chart(title, rows, value, format, logScale) {
  const labelW = 150;
  const barW = 300;
  const rowH = 26;
  const top = 28;
  const width = labelW + barW + 90;
  const height = top + rows.length * rowH + 8;
  const values = rows.map(value);
  const max = Math.max(...values, 1e-12);
  const min = Math.min(...values.filter((v) => v > 0), max);
  // Log scale: the smallest value still gets a visible bar; the range spans at least 10×.
  const lo = Math.log10(min) - 0.3;
  const hi = Math.max(Math.log10(max), lo + 1);
  const scale = (v) => {
    if (v <= 0) return 2;
    if (!logScale) return Math.max(2, (v / max) * barW);
    return Math.max(2, ((Math.log10(v) - lo) / (hi - lo)) * barW);
  };
  const g = svg('svg', {
    class: 'chart',
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-label': `${title} by heuristic`,
  });
  g.append(svg('text', { x: 0, y: 16, class: 'chart-title' }, `${title}${logScale ? ' (log scale)' : ''}`));
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    const w = scale(values[i]);
    g.append(
      svg('text', { x: labelW - 8, y: y + 16, class: 'chart-label', 'text-anchor': 'end' }, short(r.heuristic)),
      svg('rect', { x: labelW, y: y + 3, width: w, height: rowH - 8, rx: 4, fill: COLOURS[i % COLOURS.length], class: 'bar' },
        svg('title', {}, `${r.heuristic}: ${format(values[i])}`)),
      svg('text', { x: labelW + w + 6, y: y + 16, class: 'chart-value' }, format(values[i])),
    );
  });
  return el('figure', { class: 'chart-box' }, g);
}

function short(name) {
  return name.length > 22 ? `${name.slice(0, 21)}…` : name;
}

function table(results) {
  const head = ['Heuristic', 'Admissible', 'Moves', 'Optimal', 'Expanded', 'Generated', 'Max open', 'Time'];
  return el('table', { class: 'results' },
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { text: h })))),
    el('tbody', {}, results.map((r) => {
      if (r.error) {
        return el('tr', { class: 'error-row' }, el('td', { text: r.heuristic || '?' }), el('td', { colspan: 7, text: r.error }));
      }
      const moves = r.length ?? `stopped (${r.stopped_by} limit)`;
      return el('tr', {},
        el('td', { text: r.heuristic }),
        el('td', { text: r.admissible ? 'yes' : 'no' }),
        el('td', { class: 'num', text: String(moves) }),
        el('td', { text: r.length == null ? '–' : r.optimal ? 'yes' : 'not guaranteed' }),
        el('td', { class: 'num', text: count(r.expanded) }),
        el('td', { class: 'num', text: count(r.generated) }),
        el('td', { class: 'num', text: count(r.max_open) }),
        el('td', { class: 'num', text: duration(r.seconds) }));
    })));
}
