// The solver menus: readable names for the server's ids, and menus built from the server's
// plan for the board and goal on screen, so a choice the server would refuse is never
// offered (it is listed, disabled, with the reason).

import { el } from './dom.js';

export const HEURISTIC_LABELS = {
  auto: 'Auto (strongest for the board)',
  misplaced: 'Misplaced tiles',
  manhattan: 'Manhattan distance',
  euclidean: 'Euclidean distance',
  'linear-conflict': 'Linear conflict',
  perfect: 'Exact table (perfect)',
  pdb: 'Pattern database',
  expr: 'Expression…',
};

export const ALGORITHM_LABELS = {
  auto: 'Auto',
  astar: 'A* (optimal)',
  idastar: 'IDA* (optimal, little memory)',
  bfs: 'Breadth-first (optimal, small boards)',
  greedy: 'Greedy best-first (fast, not optimal)',
  'weighted-astar': 'Weighted A* (at most W × optimal)',
  'weighted-idastar': 'Weighted IDA* (at most W × optimal)',
  constructive: 'Row by row (instant, not optimal)',
};

/** A short name for an algorithm id, for sentences ("found by IDA*"). */
export function algorithmName(id) {
  return (ALGORITHM_LABELS[id] || id).split(' (')[0];
}

/** A short name for a heuristic as the server reports it ("pdb:7-8", "none", expressions). */
export function heuristicName(id) {
  if (id == null || id === 'none') return 'no heuristic';
  const base = String(id).split(':')[0];
  const label = HEURISTIC_LABELS[base];
  if (!label) return String(id);
  const short = label.split(' (')[0];
  return id.includes(':') ? `${short} ${id.slice(base.length + 1)}` : short;
}

/** The auto entry's label: it promises optimality only when the plan keeps it. */
export function autoLabel(entry) {
  if (entry?.optimal === true) return 'Auto (optimal)';
  if (entry?.optimal === false) return 'Auto (fast; not guaranteed optimal)';
  return 'Auto (chosen for the board)';
}

/**
 * Fills a select with a plan's entries (`{id, label, available, why}`), keeping `selected`
 * when it is still available; returns the value now selected.
 */
export function fillMenu(select, entries, labels, selected, extra = []) {
  const items = [...entries, ...extra];
  select.replaceChildren(...items.map((e) => {
    const label = e.id === 'auto' && labels === ALGORITHM_LABELS ? autoLabel(e) : (labels[e.id] || e.label || e.id);
    return el('option', {
      value: e.id,
      text: e.available === false ? `${label} — ${e.why || 'not for this board'}` : label,
      disabled: e.available === false,
      title: e.why || null,
    });
  }));
  const ok = items.find((e) => e.id === selected && e.available !== false);
  select.value = ok ? selected : items.find((e) => e.available !== false)?.id ?? '';
  return select.value;
}
