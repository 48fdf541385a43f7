// The page's requests for results: solve (streamed, with waiting and progress), hint,
// compare and the search tree. Each result is stored with the key of the board it was
// computed for; main.js shows it as current only while that board is on screen.

import { ApiError, post, stream } from './api.js';
import { byId, count, duration, el, fill, plural } from './dom.js';
import { algorithmName, heuristicName, readChoice, stopCause, timeLimit } from './menus.js';
import { renderCompare } from './compare.js';
import { drawTree, showExpansion } from './tree.js';
import { searchState } from './search-steps.js';
import { ARROW, WORD, boardText, pathBoards, sameTiles, tileMove } from './puzzle.js';
import { announce, boardKey, goal, ready, request, state } from './page-state.js';

/** The longest a hint on a board of more than 16 cells searches (the server allows 5 s). */
const HINT_SECONDS = 2;

/** What to try when a limit stopped a search before it found a solution. */
const ADVICE = {
  time: 'Try a stronger heuristic, another algorithm or a longer time limit.',
  nodes: 'Try a stronger heuristic or another algorithm.',
  memory: 'The search ran out of memory: try IDA* or weighted IDA* (they keep only the current path), a stronger heuristic, or "Row by row", which needs almost none.',
  cancelled: 'Solve again to start over.',
  width: 'The beam lost its way: try a wider beam (Beam width), a stronger heuristic or another algorithm.',
};

/**
 * `ui`: {player, view, selectTab, refresh, useShownStep}; refresh() re-marks what is out of
 * date; useShownStep() makes a solution's step on screen the current board, which every
 * tool calls first (see main.js).
 */
export function makeTools(ui) {
  // ---- solving ----------------------------------------------------------------------------

  /** The streamed search running now, with its id once it started (for `finish`). */
  let running = null;

  async function solve() {
    const result = byId('result');
    ui.useShownStep();
    ui.selectTab('solve');
    if (!ready(result)) return;
    const c = readChoice();
    if (c.problem) {
      result.hidden = false;
      result.className = 'result error';
      result.textContent = c.problem;
      return;
    }
    state.solveAbort?.abort();
    const abort = new AbortController();
    state.solveAbort = abort;
    const key = boardKey();
    const start = state.board.slice();
    state.results.solve = { key, running: true };
    ui.player.clear();
    result.hidden = true;
    ui.refresh();
    const body = request({
      algorithm: c.algorithm,
      time_limit: timeLimit(),
      ...(c.heuristic !== 'auto' ? { heuristic: c.heuristic } : {}),
      ...(c.weight != null ? { weight: c.weight } : {}),
      ...(c.width != null ? { width: c.width } : {}),
      ...(c.optimal ? { optimal: true } : {}),
    });
    const started = performance.now();
    const progress = byId('progress');
    const text = byId('progress-text');
    const best = byId('progress-best');
    const finish = byId('finish');
    let last = null;
    let waiting = null;
    // The anytime engine's answer so far and its proven bound, from the first progress line
    // that has them: "best 112 · proven ≥ 86" (issue 24, page 8).
    let anytime = null;
    const search = { id: null, stopping: false };
    running = search;
    const show = () => {
      const s = ((performance.now() - started) / 1000).toFixed(1);
      text.textContent = search.stopping ? 'Stopping; the best answer so far is on its way…' : waiting
        ? `Waiting for a free slot on the server (${s} s; other searches are running${waiting.ahead ? `, ${waiting.ahead} ahead` : ''})…`
        : last
          ? `Searching… ${s} s${anytime ? ` of ${body.time_limit} s` : ''} · expanded ${count(last.expanded)} · generated ${count(last.generated)}${last.bound != null && !anytime ? ` · bound ${last.bound}` : ''}`
          : `Searching… ${s} s`;
      best.hidden = !anytime;
      // Written only when it changes: the line is a polite live region.
      const now = anytime ? `best ${count(anytime.length)} · proven ≥ ${count(anytime.lower_bound)}` : '';
      if (best.textContent !== now) best.textContent = now;
      finish.hidden = !(anytime && search.id);
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
        if (line.started && line.id) search.id = line.id;
        if (line.progress) last = line.progress;
        if (line.progress?.length != null) anytime = line.progress;
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
      best.hidden = true;
      if (running === search) running = null;
      const lost = [byId('cancel'), byId('finish'), byId('solve'), document.body, null].includes(document.activeElement);
      byId('solve').disabled = false;
      byId('cancel').hidden = true;
      finish.hidden = true;
      finish.disabled = false;
      if (lost) byId('solve').focus();
      if (state.solveAbort === abort) state.solveAbort = null;
      ui.refresh();
    }
  }

  /**
   * "Use this answer": ends the running search now; its stream then ends with the best
   * answer found (issue 24, page 6). The button is shown once there is an answer.
   */
  async function finish() {
    const id = running?.id;
    if (!id) return;
    byId('finish').disabled = true;
    running.stopping = true;
    try {
      await post('/api/solve/stop', { id });
    } catch {
      // The search ended meanwhile (its result is on its way) or the server is gone (the
      // stream says so).
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
      out.replaceChildren(el('p', { text: `Stopped by ${stopCause(r.stopped_by)} before a solution was found (${how}). ${ADVICE[r.stopped_by] || ADVICE.time}` }), stats);
      announce('The search stopped before finding a solution.');
      return;
    }
    out.className = 'result ok';
    const verdict = r.optimal ? ', the fewest possible.'
      : bounded ? `; not guaranteed optimal: no solution is shorter than ${plural(r.lower_bound, 'move')} (the lower bound), so this one is within × ${r.bound_factor?.toFixed(3)} of the fewest.`
        : '; shorter solutions may exist.';
    fill(out, el('p', {}, el('b', { text: plural(r.length, 'move') }), ` found by ${how}${verdict}`), improvements(r), stats);
    announce(`Solved: ${plural(r.length, 'move')}${r.optimal ? ', optimal' : ''}.`);
    ui.player.load(start, state.rows, state.cols, r.moves || '');
    if (r.optimal) state.play.best = { key: boardKey(start), moves: r.length };
  }

  /**
   * How the anytime engine's answer and bound improved: "Improved 4 times in 0.31 s:
   * 210 → 174 → 136 → 132 → 112 moves; proven ≥ 86." (null for a single search).
   */
  function improvements(r) {
    const steps = (r.improvements || []).filter((i) => i.length != null);
    if (!steps.length) return null;
    // The steps where the length fell (the others raised the bound only).
    const better = steps.filter((i, k) => k === 0 || i.length < steps[k - 1].length);
    const lengths = better.map((i) => count(i.length)).join(' → ');
    const why = r.stopped_by === 'cancelled' ? ' Stopped early, as you asked.'
      : r.stopped_by === 'time' ? ' The time limit ended the search before the bound met the answer.' : '';
    return el('p', { class: 'improvements', id: 'improvements' },
      better.length > 1
        ? `Improved ${plural(better.length - 1, 'time')} in ${duration(better.at(-1).seconds)}: ${lengths} moves`
        : `First answer in ${duration(better[0].seconds)}, not improved on`,
      `; proven ≥ ${count(r.lower_bound ?? steps.at(-1).lower_bound)}.${why}`);
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
    // Past 16 cells a second proves no answer (the field would stay "–" after a
    // core-second of the server's), and an unsolvable board has none.
    if (state.rows * state.cols > 16) return;
    if (state.check.key === key && state.check.solvable === false) return;
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
      // Boards of up to 16 cells get a proved shortest path (within the server's hint budget,
      // 5 s; milliseconds for most); larger ones the anytime engine's best within
      // HINT_SECONDS, with its proven bound.
      const big = state.rows * state.cols > 16;
      const budget = big ? { time_limit: Math.min(HINT_SECONDS, state.info.limits.time_limit) } : {};
      const { data, status } = await post('/api/hint', request(budget));
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
      const bound = data.lower_bound != null && data.lower_bound < data.remaining ? `, not guaranteed optimal: at least ${count(data.lower_bound)}` : ', not guaranteed optimal';
      const togo = data.remaining != null ? ` (${plural(data.remaining, 'move')} to go${data.optimal ? ', optimal' : bound})` : '';
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
    status.replaceChildren(el('span', { class: 'spinner' }), ` Solving with ${plural(heuristics.length, 'heuristic')}…`);
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
    // Out of 1 to 200 the field is refused with its range, not drawn at another size.
    const text = byId('tree-size').value.trim();
    const n = Number(text);
    if (!text || !Number.isInteger(n) || n < 1 || n > 200) {
      status.className = 'status-line error';
      status.textContent = text ? `Expansions must be a whole number from 1 to 200, not “${text}”.` : 'Expansions is empty: enter a whole number from 1 to 200.';
      return;
    }
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
      const found = data.length != null ? `The search went on to find a ${data.length}-move solution after ${count(data.expanded)} expansions.` : `The search was stopped by ${stopCause(data.stopped_by)} after ${count(data.expanded)} expansions.`;
      status.textContent = `First ${plural(drawn.nodes, 'expansion')} of ${algorithmName(data.algorithm)} with ${heuristicName(data.heuristic)}${drawn.roots > 1 ? ` (${drawn.roots} iterations from the root)` : ''}. ${found}`;
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

  return { solve, finish, hint, findBest, compare, drawCompare, tree };
}
