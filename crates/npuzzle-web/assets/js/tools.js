// The page's requests for results: solve (streamed, with waiting and progress), hint,
// compare and the search tree. Each result is stored with the key of the board it was
// computed for; main.js shows it as current only while that board is on screen.

import { ApiError, post, stream } from './api.js';
import { byId, count, duration, el, plural } from './dom.js';
import { algorithmName, heuristicName } from './menus.js';
import { renderCompare } from './compare.js';
import { drawTree, showExpansion } from './tree.js';
import { searchState } from './search-steps.js';
import { ARROW, WORD, boardText, pathBoards, sameTiles, tileMove } from './puzzle.js';
import { announce, boardKey, goal, ready, request, state } from './page-state.js';

/** What to try when a limit stopped a search before it found a solution. */
const ADVICE = {
  time: 'Try a stronger heuristic, another algorithm or a longer time limit.',
  nodes: 'Try a stronger heuristic or another algorithm.',
  memory: 'The search ran out of memory: try IDA* or weighted IDA* (they keep only the current path), a stronger heuristic, or "Row by row", which needs almost none.',
  cancelled: 'Solve again to start over.',
};

/**
 * `ui`: {player, view, selectTab, refresh, useShownStep}; refresh() re-marks what is out of
 * date; useShownStep() makes a solution's step on screen the current board, which every
 * tool calls first (see main.js).
 */
export function makeTools(ui) {
  // ---- solving ----------------------------------------------------------------------------

  function choice() {
    const algorithm = byId('algorithm').value;
    const h = byId('heuristic').value;
    const heuristic = h === 'expr' ? byId('heuristic-expr').value.trim() : h;
    const weighted = algorithm.startsWith('weighted');
    return { algorithm, heuristic, weight: weighted ? Number(byId('weight').value) : null };
  }

  async function solve() {
    const result = byId('result');
    ui.useShownStep();
    ui.selectTab('solve');
    if (!ready(result)) return;
    state.solveAbort?.abort();
    const abort = new AbortController();
    state.solveAbort = abort;
    const key = boardKey();
    const start = state.board.slice();
    state.results.solve = { key, running: true };
    ui.player.clear();
    result.hidden = true;
    ui.refresh();
    const c = choice();
    const body = request({
      algorithm: c.algorithm,
      time_limit: Number(byId('time-limit').value),
      ...(c.heuristic !== 'auto' ? { heuristic: c.heuristic } : {}),
      ...(c.weight != null ? { weight: c.weight } : {}),
    });
    const started = performance.now();
    const progress = byId('progress');
    const text = byId('progress-text');
    let last = null;
    let waiting = null;
    const show = () => {
      const s = ((performance.now() - started) / 1000).toFixed(1);
      text.textContent = waiting
        ? `Waiting for a free slot on the server (${s} s; other searches are running${waiting.ahead ? `, ${waiting.ahead} ahead` : ''})…`
        : last
          ? `Searching… ${s} s · expanded ${count(last.expanded)} · generated ${count(last.generated)}${last.bound != null ? ` · bound ${last.bound}` : ''}`
          : `Searching… ${s} s`;
    };
    const tick = setInterval(show, 100);
    progress.hidden = false;
    show();
    // Disabling the focused Solve button would drop the focus to <body>: it goes to Cancel,
    // and back to Solve when the search ends.
    const focusWasOnSolve = document.activeElement === byId('solve');
    byId('solve').disabled = true;
    byId('cancel').hidden = false;
    if (focusWasOnSolve) byId('cancel').focus();
    try {
      const end = await stream('/api/solve/stream', body, (line) => {
        if (line.waiting) waiting = line;
        if (line.started || line.progress) waiting = null;
        if (line.progress) last = line.progress;
        show();
      }, abort.signal);
      if (!end) throw new ApiError(0, 'the server closed the connection before answering');
      if (end.error) throw new ApiError(400, end.error);
      state.results.solve = { key, report: end.result, start };
      if (!end.result.solvable) state.check = { key, solvable: false };
      showResult(end.result, start);
    } catch (e) {
      state.results.solve = { key, failed: true };
      result.hidden = false;
      result.className = abort.signal.aborted ? 'result' : 'result error';
      result.textContent = abort.signal.aborted
        ? (abort.signal.reason === 'board' ? 'Stopped: the board changed during the search.' : 'Cancelled; the server stopped the search.')
        : e.status === 0 ? `${e.message[0].toUpperCase()}${e.message.slice(1)}.` : e.message;
    } finally {
      clearInterval(tick);
      progress.hidden = true;
      const lost = [byId('cancel'), byId('solve'), document.body, null].includes(document.activeElement);
      byId('solve').disabled = false;
      byId('cancel').hidden = true;
      if (lost) byId('solve').focus();
      if (state.solveAbort === abort) state.solveAbort = null;
      ui.refresh();
    }
  }

  function showResult(r, start) {
    const out = byId('result');
    out.hidden = false;
    if (!r.solvable) {
      out.className = 'result error';
      out.textContent = `Unsolvable: ${r.reason}.`;
      return;
    }
    const how = `${algorithmName(r.algorithm)}${r.heuristic && r.heuristic !== 'none' ? ` with ${heuristicName(r.heuristic)}` : ''}`;
    const bounded = r.length != null && !r.optimal && r.lower_bound != null;
    const stats = el('dl', { class: 'stats' },
      stat('Moves', r.length ?? '–'),
      stat('Optimal', r.length == null ? '–' : r.optimal ? 'yes ✓' : 'not guaranteed'),
      bounded ? stat('Lower bound', count(r.lower_bound)) : null,
      bounded && r.bound_factor != null ? stat('Bound factor', `× ${r.bound_factor.toFixed(3)}`) : null,
      r.phase ? stat('Phase', r.phase) : null,
      stat('Expanded', count(r.expanded)),
      stat('Generated', count(r.generated)),
      stat('Time', duration(r.seconds)));
    if (r.length == null) {
      out.className = 'result warn';
      out.replaceChildren(el('p', { text: `Stopped by the ${r.stopped_by} limit before a solution was found (${how}). ${ADVICE[r.stopped_by] || ADVICE.time}` }), stats);
      announce('The search stopped before finding a solution.');
      return;
    }
    out.className = 'result ok';
    const verdict = r.optimal ? ', the fewest possible.'
      : bounded ? `; not guaranteed optimal: no solution is shorter than ${plural(r.lower_bound, 'move')} (the lower bound), so this one is within × ${r.bound_factor?.toFixed(3)} of the fewest.`
        : '; shorter solutions may exist.';
    out.replaceChildren(el('p', {}, el('b', { text: plural(r.length, 'move') }), ` found by ${how}${verdict}`), stats);
    announce(`Solved: ${plural(r.length, 'move')}${r.optimal ? ', optimal' : ''}.`);
    ui.player.load(start, state.rows, state.cols, r.moves || '');
    if (r.optimal) state.play.best = { key: boardKey(start), moves: r.length };
  }

  function stat(label, value) {
    return el('div', {}, el('dt', { text: label }), el('dd', { text: String(value) }));
  }

  // ---- hints and the fewest moves while playing ---------------------------------------------

  let bestSeq = 0;

  /** Fills in "fewest possible" for the board the player starts from (a quick optimal search). */
  async function findBest() {
    const seq = ++bestSeq;
    const key = boardKey(state.play.start || state.board);
    if (state.play.best?.key === key || !state.boardOk || !state.customGoalOk) return;
    if (!sameTiles(state.board, state.play.start || state.board)) return;
    try {
      const { data, status } = await post('/api/hint', request({ time_limit: 1 }));
      if (seq !== bestSeq || status !== 200 || !data.optimal || data.remaining == null) return;
      state.play.best = { key, moves: data.remaining };
      ui.refresh();
    } catch {
      // No figure is fine: the field keeps its dash.
    }
  }

  async function hint() {
    const out = byId('play-status');
    ui.useShownStep();
    if (!ready(out)) return;
    if (sameTiles(state.board, goal())) {
      out.textContent = 'Already solved!';
      return;
    }
    const key = boardKey();
    out.textContent = 'Thinking…';
    try {
      const { data, status } = await post('/api/hint', request());
      if (key !== boardKey()) return; // the board moved on; this hint is for another one
      if (status === 422) {
        out.textContent = `No hint: ${data.reason}.`;
        return;
      }
      if (!data.move) {
        out.textContent = 'No hint: the search ran out of time on this board.';
        return;
      }
      const { tile, dir } = tileMove(state.board, state.rows, state.cols, data.move);
      ui.view.flash(tile);
      const togo = data.remaining != null ? ` (${plural(data.remaining, 'move')} to go${data.optimal ? ', optimal' : ', not guaranteed optimal'})` : '';
      out.textContent = `Hint: slide tile ${tile} ${WORD[dir]} ${ARROW[dir]}${togo}.`;
    } catch (e) {
      if (key === boardKey()) out.textContent = e.message;
    }
  }

  // ---- comparing ----------------------------------------------------------------------------

  async function compare() {
    const status = byId('compare-status');
    ui.useShownStep();
    if (!ready(status)) return;
    const heuristics = [...document.querySelectorAll('#compare-heuristics input:checked')].map((c) => c.value);
    if (!heuristics.length) {
      status.className = 'status-line error';
      status.textContent = 'Tick at least one heuristic.';
      return;
    }
    const key = boardKey();
    state.compareAbort?.abort();
    const abort = new AbortController();
    state.compareAbort = abort;
    state.results.compare = { key, running: true };
    byId('compare-chart').replaceChildren();
    byId('compare-table').replaceChildren();
    ui.refresh();
    const focusWasOnCompare = document.activeElement === byId('compare');
    byId('compare').disabled = true;
    byId('compare-cancel').hidden = false;
    if (focusWasOnCompare) byId('compare-cancel').focus();
    status.className = 'status-line';
    status.replaceChildren(el('span', { class: 'spinner' }), ` Solving with ${heuristics.length} heuristics…`);
    try {
      const { data, status: code } = await post('/api/compare', request({
        heuristics,
        algorithm: byId('compare-algorithm').value,
        time_limit: Number(byId('compare-time').value),
      }), abort.signal);
      if (code === 422) throw new ApiError(422, `Unsolvable: ${data.reason}.`);
      state.results.compare = { key, data };
      drawCompare();
      const stopped = data.results.filter((r) => r.stopped_by).length;
      status.textContent = `${algorithmName(data.algorithm)} on this ${data.size} board. Fewer nodes means a better-informed heuristic.${stopped ? ` Hatched bars did not finish: a limit stopped them, so their real cost is higher.` : ''}`;
    } catch (e) {
      state.results.compare = { key, failed: true };
      status.className = 'status-line error';
      status.textContent = abort.signal.aborted ? (abort.signal.reason === 'board' ? 'Stopped: the board changed.' : 'Cancelled.') : e.message;
    } finally {
      const lost = [byId('compare-cancel'), byId('compare'), document.body, null].includes(document.activeElement);
      byId('compare').disabled = false;
      byId('compare-cancel').hidden = true;
      if (lost) byId('compare').focus();
      ui.refresh();
    }
  }

  function drawCompare() {
    const r = state.results.compare;
    if (r?.data) renderCompare(byId('compare-chart'), byId('compare-table'), r.data.results, byId('compare-log').checked);
  }

  // ---- the search, one expansion at a time ----------------------------------------------------

  let drawn = null;

  async function tree() {
    const status = byId('tree-status');
    ui.useShownStep();
    if (!ready(status)) return;
    const n = Math.max(1, Math.min(200, Number(byId('tree-size').value) || 25));
    const key = boardKey();
    const start = state.board.slice();
    status.className = 'status-line';
    status.textContent = 'Searching…';
    const algorithm = byId('tree-algorithm').value;
    const heuristic = byId('tree-heuristic').value;
    try {
      const { data } = await post('/api/solve', request({
        algorithm,
        heuristic,
        trace: n,
        max_nodes: 2_000_000,
        time_limit: Math.min(5, state.info.limits.time_limit),
      }));
      if (key !== boardKey()) {
        status.textContent = 'The board changed during the search; show the tree again.';
        return;
      }
      const trace = data.trace || [];
      state.results.tree = { key, data, trace, algorithm, heuristic, goal: goal(), rows: state.rows, cols: state.cols };
      const path = data.moves ? pathBoards(start, state.rows, state.cols, [...data.moves]) : [];
      drawn = drawTree(byId('tree-view'), trace, state.rows, state.cols, path);
      const found = data.length != null ? `The search went on to find a ${data.length}-move solution after ${count(data.expanded)} expansions.` : `The search stopped (${data.stopped_by} limit) after ${count(data.expanded)} expansions.`;
      status.textContent = `First ${drawn.nodes} expansions of ${algorithmName(data.algorithm)} with ${heuristicName(data.heuristic)}${drawn.roots > 1 ? ` (${drawn.roots} iterations from the root)` : ''}. ${found}`;
      byId('tree-stepper').hidden = trace.length < 2;
      expansion(trace.length - 1);
    } catch (e) {
      status.className = 'status-line error';
      status.textContent = e.message;
    } finally {
      ui.refresh();
    }
  }

  /** Shows the search after expansion k: faded later nodes, and the open and closed lists. */
  function expansion(k) {
    const t = state.results.tree;
    if (!t || !drawn) return;
    const last = t.trace.length - 1;
    t.step = Math.max(0, Math.min(last, k));
    showExpansion(drawn, t.step);
    byId('tree-counter').textContent = `Expansion ${t.step + 1} of ${last + 1}`;
    byId('tree-first').disabled = byId('tree-back').disabled = t.step === 0;
    byId('tree-last').disabled = byId('tree-next').disabled = t.step === last;
    const lists = byId('tree-lists');
    if (t.rows * t.cols > 16 || !t.trace.length) {
      lists.replaceChildren();
      return;
    }
    const s = searchState(t.trace, t.step, { algorithm: t.algorithm, heuristic: t.heuristic, rows: t.rows, cols: t.cols, goal: t.goal });
    const fmt = (v) => (v == null ? '?' : Number.isInteger(v) ? String(v) : v.toFixed(1));
    const item = (n) => el('li', {}, el('code', { text: boardText(n.tiles, t.cols) }), ` g ${n.g} · h ${fmt(n.h)} · f ${fmt(n.f)}`);
    if (s.kind === 'path') {
      lists.replaceChildren(el('p', {}, el('b', { text: `IDA* iteration ${s.iteration}` }), ` (bound ${s.exact ? '' : 'at least '}${fmt(s.bound)}): the depth-first path now, root first`),
        el('ol', { class: 'state-list' }, s.path.map(item)));
    } else {
      lists.replaceChildren(
        el('div', {}, el('p', {}, el('b', { text: `Open: ${s.open.length}` }), ' (generated, not yet expanded; next first)'), el('ol', { class: 'state-list' }, s.open.slice(0, 8).map(item))),
        el('div', {}, el('p', {}, el('b', { text: `Closed: ${s.closed.length}` }), ' (expanded; latest first)'), el('ol', { class: 'state-list' }, s.closed.slice(-8).reverse().map(item))),
      );
    }
  }

  byId('tree-first').addEventListener('click', () => expansion(0));
  byId('tree-back').addEventListener('click', () => expansion((state.results.tree?.step ?? 0) - 1));
  byId('tree-next').addEventListener('click', () => expansion((state.results.tree?.step ?? 0) + 1));
  byId('tree-last').addEventListener('click', () => expansion(Infinity));

  return { solve, hint, findBest, compare, drawCompare, tree };
}
