// The solver menus: readable names for the server's ids, and menus built (refreshMenus)
// from the server's plan for the board and goal on screen, so a choice the server would
// refuse is never offered (it is listed, disabled, with the reason).

import { plan } from './api.js';
import { byId, el, fill } from './dom.js';
import { goalKey, goalParam, sizeText, state } from './page-state.js';

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
  beam: 'Beam search (not optimal)',
};

/**
 * What stopped a search, from the server's `stopped_by`, in words to follow "stopped by":
 * the server's own (`stop_causes` of /api/info, the command line's words).
 */
export function stopCause(stoppedBy) {
  return state.info.stop_causes?.[stoppedBy] || 'a limit';
}

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

/**
 * The auto entry's label: it promises optimality only when the plan keeps it. The anytime
 * engine under a time budget (boards above 16 cells) says what it gives ("best within the
 * time limit"); a plan whose first phase is optimal under a budget, with other phases after
 * it, says "tries optimal first; not guaranteed".
 */
export function autoLabel(entry, phases) {
  if (entry?.optimal === true) return 'Auto (optimal)';
  if (entry?.optimal === false && phases?.[0]?.kind === 'anytime') return 'Auto (best within the time limit, with a proven bound)';
  if (entry?.optimal === false) return phases?.[0]?.optimal ? 'Auto (tries optimal first; not guaranteed)' : 'Auto (fast; not guaranteed optimal)';
  return 'Auto (chosen for the board)';
}

/**
 * Fills a select with a plan's entries (`{id, label, available, why}`), keeping `selected`
 * when it is still available; returns the value now selected.
 */
export function fillMenu(select, entries, labels, selected, extra = [], phases = null) {
  const items = [...entries, ...extra];
  select.replaceChildren(...items.map((e) => {
    const label = e.id === 'auto' && labels === ALGORITHM_LABELS ? autoLabel(e, phases) : (labels[e.id] || e.label || e.id);
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

// ---- menus from the server's plan -------------------------------------------------------------

let planSeq = 0;

/** The solve's time limit as chosen (`null` before the server's limits fill the menu):
 * the one the plan is asked for and the solve is sent with. */
export function timeLimit() {
  const t = Number(byId('time-limit').value);
  return t > 0 ? t : null;
}

/** Rebuilds the solver menus from the server's plan for this shape and goal. */
export async function refreshMenus() {
  const seq = ++planSeq;
  const key = goalKey();
  const time = timeLimit();
  let data;
  try {
    data = await plan(sizeText(), goalParam(), { time_limit: time });
  } catch (e) {
    if (seq === planSeq) byId('plan-summary').textContent = `Menus: ${e.message}`;
    return;
  }
  if (seq !== planSeq) return;
  state.plan = { key, data, time };
  const hs = data.heuristics.filter((h) => h.id !== 'auto');
  fillMenu(byId('heuristic'), [{ id: 'auto', available: true }, ...hs], HEURISTIC_LABELS, byId('heuristic').value || 'auto', [{ id: 'expr', available: true }]);
  fillMenu(byId('algorithm'), data.algorithms, ALGORITHM_LABELS, byId('algorithm').value || 'auto', [], data.plan?.phases);
  fillMenu(byId('tree-heuristic'), hs, HEURISTIC_LABELS, byId('tree-heuristic').value || 'manhattan');
  const ticked = new Set([...document.querySelectorAll('#compare-heuristics input:checked')].map((c) => c.value));
  const first = !document.querySelector('#compare-heuristics input');
  byId('compare-heuristics').replaceChildren(...hs.map((h) => el('label', { class: 'check', title: h.why || null },
    el('input', { type: 'checkbox', value: h.id, disabled: !h.available, checked: h.available && (first ? comparedByDefault(h.id) : ticked.has(h.id) || comparedByDefault(h.id)) }),
    ` ${(HEURISTIC_LABELS[h.id] || h.label || h.id).split(' (')[0]}`,
    h.available ? null : el('span', { class: 'muted', text: ` (${h.why || 'not for this board'})` }))));
  choiceChanged();
}

/** Whether a heuristic starts ticked in the comparison: not Euclidean (it only repeats
 * Manhattan, a little weaker), not pattern databases (their first build takes a moment),
 * and the exact table only where it serves the board (at most 10 cells). */
function comparedByDefault(h) {
  if (h === 'perfect') return state.rows * state.cols <= 10;
  return h !== 'euclidean' && h !== 'pdb';
}

/** Shows the plan for the choice in the menus (or why the server refuses it). */
/**
 * The solver choices on screen: {algorithm, heuristic, weight, width, optimal}, or
 * {problem} when a field cannot be sent as it is. An empty field or letters used to go out
 * as 0 (`Number('')`), answered "got 0", and 2.5 as a width drew the server's parser text.
 */
export function readChoice() {
  const algorithm = byId('algorithm').value;
  const h = byId('heuristic').value;
  const heuristic = h === 'expr' ? byId('heuristic-expr').value.trim() : h;
  if (h === 'expr' && !heuristic) return { problem: 'The expression is empty: write a heuristic such as 0.5*manhattan+0.5*misplaced.' };
  const field = (id, name, whole) => {
    const text = byId(id).value.trim();
    if (!text) return { problem: `${name} is empty: enter ${whole ? 'a whole number' : 'a number'}.` };
    const n = Number(text);
    if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) return { problem: `${name} must be ${whole ? 'a whole number' : 'a number'}, not “${text}”.` };
    return { n };
  };
  let weight = null;
  let width = null;
  if (algorithm.startsWith('weighted')) {
    const w = field('weight', 'Weight', false);
    if (w.problem) return w;
    weight = w.n;
  }
  if (algorithm === 'beam') {
    const w = field('width', 'Beam width', true);
    if (w.problem) return w;
    width = w.n;
  }
  return { algorithm, heuristic, weight, width, optimal: byId('optimal').checked };
}

export async function choiceChanged() {
  const algorithm = byId('algorithm').value;
  const heuristic = byId('heuristic').value;
  byId('weight-label').hidden = !algorithm.startsWith('weighted');
  byId('width-label').hidden = algorithm !== 'beam';
  byId('expr-label').hidden = heuristic !== 'expr';
  const out = byId('plan-summary');
  const data = state.plan?.data;
  if (!data) return;
  const seq = planSeq;
  const c = readChoice();
  if (c.problem) {
    planSeq += 1;
    out.className = 'help error';
    out.textContent = c.problem;
    return;
  }
  try {
    const { heuristic: h, weight, width, optimal } = c;
    // The plan a solve runs depends on its time limit too.
    const time = timeLimit();
    const chosen = h === 'auto' && algorithm === 'auto' && !optimal && state.plan.time === time ? data
      : await plan(sizeText(), goalParam(), { heuristic: h === 'auto' ? null : h, algorithm, weight, width, optimal, time_limit: time });
    if (seq !== planSeq) return;
    out.className = 'help';
    showSummary(out, chosen.summary ?? chosen.plan?.summary ?? '', chosen.plan);
  } catch (e) {
    out.className = 'help error';
    out.textContent = `The server would refuse this choice: ${e.message}.`;
  }
}

/** The plan's summary: its first line, and the phases and tables under "details". */
function showSummary(out, summary, plan) {
  const [first, ...rest] = summary.trim().split('\n');
  fill(out, first || '', anytimeNote(plan), ...(rest.length ? [el('details', {}, el('summary', { text: 'Phases and tables' }), el('pre', { class: 'plan-details', text: rest.join('\n') }))] : []));
}

/**
 * What waiting buys when auto runs the anytime engine with a budget (boards above 16
 * cells): the first answer comes at once, the rest of the time limit improves it (issue 24,
 * page 6: on a 10×10 it used to wait the whole limit for what "row by row" gives at once).
 */
function anytimeNote(plan) {
  const phase = plan?.phases?.[0];
  if (phase?.kind !== 'anytime' || plan.optimal) return null;
  return el('span', { id: 'anytime-note', text: ' Auto has an answer within milliseconds and spends the time limit shortening it and raising the proven bound; the search shows both as they improve, and “Use this answer” takes the best so far at once.' });
}
