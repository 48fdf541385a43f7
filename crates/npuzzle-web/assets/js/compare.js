// The comparison view: a bar chart of nodes and time per heuristic, and a table. A search
// stopped by a limit did not finish: its bar is hatched and says which limit stopped it.

import { count, duration, el, svg } from './dom.js';
import { heuristicName, stopCause } from './menus.js';

const COLOURS = ['#6366f1', '#0ea5e9', '#10b981', '#f59e0b', '#ef4444', '#8b5cf6', '#ec4899', '#14b8a6'];

/**
 * Draws the chart and table for the results of POST /api/compare, as wide as `chartRoot`
 * (so the text keeps its size on a phone instead of being scaled down).
 */
export function renderCompare(chartRoot, tableRoot, results, logScale) {
  const ok = results.filter((r) => !r.error);
  const width = Math.max(280, Math.min(560, chartRoot.clientWidth || 540));
  chartRoot.replaceChildren(
    chart('Nodes expanded', ok, (r) => r.expanded, count, logScale, width),
    chart('Time', ok, (r) => r.seconds, duration, logScale, width),
  );
  tableRoot.replaceChildren(table(results));
}

let charts = 0;

function chart(title, rows, value, format, logScale, width) {
  const labelW = width < 400 ? 96 : 150;
  const valueW = 90;
  const barW = width - labelW - valueW;
  const rowH = 34;
  const top = 28;
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
  const defs = svg('defs');
  g.append(defs);
  const id = `c${++charts}`;
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    const w = scale(values[i]);
    const colour = COLOURS[i % COLOURS.length];
    let fill = colour;
    let note = '';
    if (r.stopped_by) {
      // Hatched: the search ran until a limit, so the bar is a floor, not the full cost.
      const hatch = `${id}-hatch-${i}`;
      defs.append(svg('pattern', { id: hatch, width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        svg('rect', { width: 8, height: 8, fill: 'white' }),
        svg('rect', { width: 4, height: 8, fill: colour })));
      fill = `url(#${hatch})`;
      note = `stopped by ${stopCause(r.stopped_by)}`;
    }
    g.append(
      svg('text', { x: labelW - 8, y: y + 15, class: 'chart-label', 'text-anchor': 'end' }, short(heuristicName(r.heuristic), labelW < 120 ? 12 : 22)),
      svg('rect', { x: labelW, y: y + 3, width: w, height: 16, rx: 4, fill, stroke: colour, class: r.stopped_by ? 'bar stopped' : 'bar' },
        svg('title', {}, `${r.heuristic}: ${format(values[i])}${note ? ` (${note})` : ''}`)),
      svg('text', { x: Math.min(labelW + w + 6, width - valueW + 6), y: y + 15, class: 'chart-value' }, `${format(values[i])}${r.stopped_by ? '+' : ''}`),
    );
    if (note) g.append(svg('text', { x: labelW, y: y + 31, class: 'chart-note' }, `${note}: did not finish`));
  });
  return el('figure', { class: 'chart-box' }, g);
}

function short(name, max) {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

function table(results) {
  const head = ['Heuristic', 'Admissible', 'Moves', 'Optimal', 'Expanded', 'Generated', 'Max open', 'Time'];
  return el('table', { class: 'results' },
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { text: h })))),
    el('tbody', {}, results.map((r) => {
      if (r.error) {
        return el('tr', { class: 'error-row' }, el('td', { text: r.heuristic || '?' }), el('td', { colspan: 7, text: r.error }));
      }
      const moves = r.length ?? `stopped by ${stopCause(r.stopped_by)}`;
      return el('tr', { class: r.stopped_by ? 'stopped-row' : null },
        el('td', { text: heuristicName(r.heuristic), title: r.heuristic }),
        el('td', { text: r.admissible ? 'yes' : 'no' }),
        el('td', { class: 'num', text: String(moves) }),
        el('td', { text: r.length == null ? '–' : r.optimal ? 'yes' : 'not guaranteed' }),
        el('td', { class: 'num', text: count(r.expanded) }),
        el('td', { class: 'num', text: count(r.generated) }),
        el('td', { class: 'num', text: count(r.max_open) }),
        el('td', { class: 'num', text: duration(r.seconds) }));
    })));
}
