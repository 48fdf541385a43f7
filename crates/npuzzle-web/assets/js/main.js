// The page: wires the board, the editor and the tabs to the server's API.

import { ApiError, info, post, stream } from './api.js';
import { BoardEditor } from './editor.js';
import { BoardView } from './board-view.js';
import { byId, count, duration, el, typingIn } from './dom.js';
import { Player } from './player.js';
import { renderCompare } from './compare.js';
import { drawTree } from './tree.js';
import { cropToBoard, SAMPLE } from './picture.js';
import {
  ARROW, WORD, applyMove, boardText, goalTiles, moveForCell, parseBoard, pathBoards, sameTiles,
  tileMove, validate,
} from './puzzle.js';

const HEURISTIC_LABELS = {
  misplaced: 'Misplaced tiles',
  manhattan: 'Manhattan distance',
  euclidean: 'Euclidean distance',
  'linear-conflict': 'Linear conflict',
  perfect: 'Perfect (exact table, ≤ 10 cells)',
  pdb: 'Pattern database',
};
const ALGORITHM_LABELS = {
  auto: 'Auto (fast and optimal)',
  astar: 'A*',
  idastar: 'IDA*',
  bfs: 'Breadth-first',
  greedy: 'Greedy best-first (not optimal)',
  'weighted-astar': 'Weighted A* (W × optimal at most)',
};

const state = {
  info: { heuristics: Object.keys(HEURISTIC_LABELS).slice(0, 5), algorithms: Object.keys(ALGORITHM_LABELS), limits: { max_side: 10, time_limit: 10 } },
  rows: 3,
  cols: 3,
  goalName: 'standard',
  customGoal: null,
  customGoalOk: true,
  board: goalTiles('standard', 3, 3),
  boardOk: true,
  solvable: true,
  tab: 'edit',
  pictureSource: null,
  play: { start: null, history: [], best: null },
  solveAbort: null,
  compareAbort: null,
};

const view = new BoardView(byId('board'), (cell) => playCell(cell));
const editor = new BoardEditor(byId('editor'), (cells) => edited(cells));
editor.onPaste = (text) => useText(text);
const goalEditor = new BoardEditor(byId('goal-editor'), (cells) => goalEdited(cells));
const player = new Player({
  root: byId('player'),
  first: byId('first'),
  back: byId('back'),
  play: byId('play'),
  forward: byId('forward'),
  last: byId('last'),
  speed: byId('speed'),
  counter: byId('step-counter'),
  list: byId('move-list'),
  status: byId('player-status'),
}, (tiles, animate) => {
  view.show(tiles, animate);
  view.setSolved(sameTiles(tiles, goal()));
});
player.onSpeed = (ms) => view.setSpeed(ms);

// ---- the board and its goal ---------------------------------------------------------------

function goal() {
  return state.goalName === 'custom' && state.customGoal ? state.customGoal : goalTiles(state.goalName, state.rows, state.cols);
}

/** The goal as the API takes it: a name, or the board as text. */
function goalParam() {
  return state.goalName === 'custom' ? boardText(goal(), state.cols) : state.goalName;
}

function request(extra = {}) {
  return { board: boardText(state.board, state.cols), size: `${state.rows}x${state.cols}`, goal: goalParam(), ...extra };
}

/** Sets the board (a valid one) everywhere: the view, the editor, the text field. */
function setBoard(tiles, { keepPlay = false, animate = false, best = null } = {}) {
  state.board = tiles.slice();
  state.play.best = best;
  state.boardOk = true;
  view.show(tiles, animate);
  view.setSolved(sameTiles(tiles, goal()));
  if (!keepPlay) resetPlay();
  editor.load(tiles, state.rows, state.cols, view.cell);
  byId('board-text').value = boardText(tiles, state.cols);
  forgetSolution();
  updatePalette([]);
  checkSoon();
}

function setShape(rows, cols, tiles = null) {
  state.rows = rows;
  state.cols = cols;
  byId('rows').value = rows;
  byId('cols').value = cols;
  if (state.goalName === 'custom') {
    state.customGoal = goalTiles('standard', rows, cols);
    goalEditor.load(state.customGoal, rows, cols, Math.min(44, view.cellSize()));
    state.customGoalOk = true;
    byId('goal-validation').textContent = '';
  }
  view.setShape(rows, cols, goal());
  setBoard(tiles || goal());
  updatePictureCrop();
  const perfect = document.querySelector('#compare-heuristics input[value=perfect]');
  if (perfect) perfect.checked = comparedByDefault('perfect');
}

/** Whether a heuristic starts ticked in the comparison: not Euclidean (it only repeats
 * Manhattan, a little weaker), not pattern databases (their first build takes a moment),
 * and the exact table only where it serves the board (at most 10 cells). */
function comparedByDefault(h) {
  if (h === 'perfect') return state.rows * state.cols <= 10;
  return h !== 'euclidean' && h !== 'pdb';
}

function edited(cells) {
  const v = validate(cells, state.rows, state.cols);
  editor.mark(v.bad);
  updatePalette(v.missing);
  forgetSolution();
  if (!v.ok) {
    state.boardOk = false;
    cancelCheck();
    showValidation('error', `Not a valid board yet: ${v.errors.join('; ')}.`);
    return;
  }
  state.board = cells.slice();
  state.boardOk = true;
  state.play.best = null;
  view.show(state.board, false);
  view.setSolved(sameTiles(state.board, goal()));
  byId('board-text').value = boardText(state.board, state.cols);
  resetPlay();
  checkSoon();
}

function goalEdited(cells) {
  const v = validate(cells, state.rows, state.cols);
  goalEditor.mark(v.bad);
  const out = byId('goal-validation');
  if (!v.ok) {
    state.customGoalOk = false;
    cancelCheck();
    out.className = 'validation error';
    out.textContent = `Goal not valid yet: ${v.errors.join('; ')}.`;
    showValidation('error', 'Fix the custom goal first.');
    return;
  }
  state.customGoalOk = true;
  state.customGoal = cells.slice();
  out.className = 'validation ok';
  out.textContent = 'Custom goal is valid.';
  view.setShape(state.rows, state.cols, goal());
  view.show(state.board, false);
  updatePictureCrop();
  forgetSolution();
  checkSoon();
}

function updatePalette(missing) {
  const palette = byId('palette');
  palette.replaceChildren(...missing.map((t) => el('button', {
    type: 'button',
    class: 'chip',
    text: t === 0 ? 'blank' : String(t),
    onclick: () => editor.place(t),
  })));
  if (!missing.length) palette.append(el('span', { class: 'muted', text: 'none – every tile is on the board' }));
}

let checkTimer = null;
let checkSeq = 0;

/** Drops a pending or running check: its answer would be about an older board. */
function cancelCheck() {
  clearTimeout(checkTimer);
  checkSeq++;
}

/** Asks the server whether the board can reach the goal (after typing pauses). */
function checkSoon() {
  clearTimeout(checkTimer);
  showValidation('pending', 'Checking…');
  checkTimer = setTimeout(async () => {
    const seq = ++checkSeq;
    try {
      const { data } = await post('/api/check', request());
      if (seq !== checkSeq) return;
      state.solvable = data.solvable;
      if (data.solved) showValidation('ok', 'This is the goal board. Shuffle it to make a puzzle.');
      else if (data.solvable) showValidation('ok', `✓ Valid and solvable: ${data.reason}.`);
      else showValidation('error', `✗ Unsolvable: ${data.reason}. Swap two tiles to fix it.`);
    } catch (e) {
      if (seq !== checkSeq) return;
      state.solvable = false;
      showValidation('error', e.message);
    }
  }, 120);
}

function showValidation(kind, text) {
  const v = byId('validation');
  v.className = `validation ${kind}`;
  v.textContent = text;
}

/** Whether the board may be sent to the server; says why not otherwise. */
function ready(out) {
  const problem = !state.boardOk ? 'Fix the board first (see the message under it).'
    : !state.customGoalOk ? 'Fix the custom goal first (Edit tab).'
      : !state.solvable ? 'This board cannot reach the goal; swap two tiles or shuffle.' : null;
  if (problem && out) {
    out.className = `${out.className.split(' ')[0]} error`;
    out.textContent = problem;
    out.hidden = false;
  }
  return !problem;
}

function useText(text) {
  const parsed = parseBoard(text, state.cols);
  if (parsed.error) {
    showValidation('error', `Cannot read that board: ${parsed.error}.`);
    return;
  }
  const max = state.info.limits.max_side;
  if (parsed.rows < 2 || parsed.cols < 2 || parsed.rows > max || parsed.cols > max) {
    showValidation('error', `Boards here are from 2×2 to ${max}×${max}; that one is ${parsed.rows}×${parsed.cols}.`);
    return;
  }
  if (parsed.rows !== state.rows || parsed.cols !== state.cols) setShape(parsed.rows, parsed.cols);
  const v = validate(parsed.tiles, parsed.rows, parsed.cols);
  if (v.ok) setBoard(parsed.tiles);
  else {
    editor.load(parsed.tiles, parsed.rows, parsed.cols, view.cell);
    edited(parsed.tiles);
    selectTab('edit');
  }
}

// ---- shuffling ----------------------------------------------------------------------------

async function shuffle(moves) {
  if (!state.customGoalOk) return ready(byId('validation'));
  try {
    const { data } = await post('/api/random', { size: `${state.rows}x${state.cols}`, goal: goalParam(), ...(moves ? { moves } : {}) });
    const d = data.distance;
    setBoard(data.board, { best: d ?? null });
    const how = moves ? `${moves} random moves from the goal` : 'a random solvable board';
    setTimeout(() => showValidation('ok', `Shuffled: ${how}${d != null ? `; the fewest moves back is ${d}` : ''}.`), 200);
  } catch (e) {
    showValidation('error', e.message);
  }
}

// ---- solving ------------------------------------------------------------------------------

function forgetSolution() {
  player.clear();
  byId('result').hidden = true;
}

async function solve() {
  const result = byId('result');
  if (!ready(result)) return;
  state.solveAbort?.abort();
  const abort = new AbortController();
  state.solveAbort = abort;
  forgetSolution();
  const algorithm = byId('algorithm').value;
  const body = request({
    heuristic: byId('heuristic').value,
    algorithm,
    time_limit: Number(byId('time-limit').value),
    ...(algorithm === 'weighted-astar' ? { weight: Number(byId('weight').value) } : {}),
  });
  const start = state.board.slice();
  const started = performance.now();
  const progress = byId('progress');
  const text = byId('progress-text');
  let last = null;
  const tick = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    text.textContent = last
      ? `Searching… ${s.toFixed(1)} s · expanded ${count(last.expanded)} · generated ${count(last.generated)}${last.bound != null ? ` · bound ${last.bound}` : ''}`
      : `Searching… ${s.toFixed(1)} s`;
  }, 100);
  progress.hidden = false;
  byId('solve').disabled = true;
  byId('cancel').hidden = false;
  try {
    const end = await stream('/api/solve/stream', body, (line) => { if (line.progress) last = line.progress; }, abort.signal);
    if (!end) throw new ApiError(0, 'the server closed the connection');
    if (end.error) throw new ApiError(400, end.error);
    showResult(end.result, start);
  } catch (e) {
    result.hidden = false;
    result.className = e.name === 'AbortError' ? 'result' : 'result error';
    result.textContent = e.name === 'AbortError' ? 'Cancelled; the server stopped the search.' : e.message;
  } finally {
    clearInterval(tick);
    progress.hidden = true;
    byId('solve').disabled = false;
    byId('cancel').hidden = true;
    if (state.solveAbort === abort) state.solveAbort = null;
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
  const how = `${ALGORITHM_LABELS[r.algorithm]?.split(' (')[0] || r.algorithm} with ${r.heuristic}`;
  const stats = el('dl', { class: 'stats' },
    stat('Moves', r.length ?? '–'),
    stat('Optimal', r.length == null ? '–' : r.optimal ? 'yes ✓' : 'not guaranteed'),
    stat('Expanded', count(r.expanded)),
    stat('Generated', count(r.generated)),
    stat('Time', duration(r.seconds)));
  if (r.length == null) {
    out.className = 'result warn';
    out.replaceChildren(el('p', { text: `Stopped by the ${r.stopped_by} limit before a solution was found (${how}). Try a stronger heuristic, another algorithm or a longer time limit.` }), stats);
    return;
  }
  out.className = 'result ok';
  out.replaceChildren(el('p', {}, el('b', { text: `${r.length} moves` }), ` found by ${how}${r.optimal ? ', the fewest possible.' : '; shorter solutions may exist.'}`), stats);
  if (sameTiles(start, state.board)) {
    player.load(start, state.rows, state.cols, r.moves);
    if (r.optimal) {
      state.play.best = r.length;
      byId('play-best').textContent = r.length;
    }
  }
}

function stat(label, value) {
  return el('div', {}, el('dt', { text: label }), el('dd', { text: String(value) }));
}

// ---- playing ------------------------------------------------------------------------------

function resetPlay() {
  state.play.start = state.board.slice();
  state.play.history = [];
  byId('play-moves').textContent = '0';
  byId('play-best').textContent = state.play.best ?? '–';
  if (state.tab === 'play') findBest();
  byId('play-status').textContent = '';
  byId('banner').hidden = true;
  view.clearFlash();
}

function playMove(letter) {
  if (state.tab !== 'play' || !state.boardOk) return;
  const next = applyMove(state.board, state.rows, state.cols, letter);
  if (!next) return;
  const history = state.play.history;
  history.push(letter);
  state.board = next;
  view.show(next, true);
  view.clearFlash();
  editor.load(next, state.rows, state.cols, view.cell);
  byId('board-text').value = boardText(next, state.cols);
  forgetSolution();
  byId('play-moves').textContent = String(history.length);
  byId('play-status').textContent = '';
  const solved = sameTiles(next, goal());
  view.setSolved(solved);
  const banner = byId('banner');
  banner.hidden = !solved;
  if (solved) {
    const best = state.play.best;
    banner.textContent = `★ Solved in ${history.length} move${history.length === 1 ? '' : 's'}!${best != null ? (history.length === best ? ' That is the fewest possible.' : ` The fewest possible was ${best}.`) : ''}`;
  }
}

let bestSeq = 0;

/** Fills in "fewest possible" for the board the player starts from (a quick optimal search). */
async function findBest() {
  const seq = ++bestSeq;
  const board = state.board.slice();
  if (state.play.best != null || !state.boardOk || !state.customGoalOk) return;
  try {
    const { data, status } = await post('/api/hint', request({ time_limit: 1 }));
    if (seq !== bestSeq || status !== 200 || !data.optimal || data.remaining == null) return;
    if (!sameTiles(board, state.play.start)) return;
    state.play.best = data.remaining;
    byId('play-best').textContent = data.remaining;
  } catch {
    // No figure is fine: the field keeps its dash.
  }
}

function playCell(cell) {
  const letter = moveForCell(state.board, state.cols, cell);
  if (letter) playMove(letter);
}

function undo() {
  const last = state.play.history.pop();
  if (!last) return;
  const back = { U: 'D', D: 'U', L: 'R', R: 'L' }[last];
  const next = applyMove(state.board, state.rows, state.cols, back);
  state.board = next;
  view.show(next, true);
  view.setSolved(false);
  editor.load(next, state.rows, state.cols, view.cell);
  byId('board-text').value = boardText(next, state.cols);
  byId('play-moves').textContent = String(state.play.history.length);
  byId('banner').hidden = true;
}

function restart() {
  if (!state.play.start) return;
  setBoard(state.play.start);
}

async function hint() {
  const out = byId('play-status');
  if (!ready(out)) return;
  if (sameTiles(state.board, goal())) {
    out.textContent = 'Already solved!';
    return;
  }
  out.textContent = 'Thinking…';
  try {
    const { data } = await post('/api/hint', request());
    if (!data.move) {
      out.textContent = 'No hint: the search ran out of time on this board.';
      return;
    }
    const { tile, dir } = tileMove(state.board, state.rows, state.cols, data.move);
    view.flash(tile);
    const togo = data.remaining != null ? ` (${data.remaining} moves to go${data.optimal ? ', optimal' : ', not guaranteed optimal'})` : '';
    out.textContent = `Hint: slide tile ${tile} ${WORD[dir]} ${ARROW[dir]}${togo}.`;
  } catch (e) {
    out.textContent = e.message;
  }
}

// ---- comparing ----------------------------------------------------------------------------

let lastCompare = null;

async function compare() {
  const status = byId('compare-status');
  if (!ready(status)) return;
  const heuristics = [...document.querySelectorAll('#compare-heuristics input:checked')].map((c) => c.value);
  if (!heuristics.length) {
    status.className = 'status-line error';
    status.textContent = 'Tick at least one heuristic.';
    return;
  }
  const abort = new AbortController();
  state.compareAbort = abort;
  byId('compare').disabled = true;
  byId('compare-cancel').hidden = false;
  status.className = 'status-line';
  status.replaceChildren(el('span', { class: 'spinner' }), ` Solving with ${heuristics.length} heuristics…`);
  try {
    const { data, status: code } = await post('/api/compare', request({
      heuristics,
      algorithm: byId('compare-algorithm').value,
      time_limit: Number(byId('compare-time').value),
    }), abort.signal);
    if (code === 422) throw new ApiError(422, `Unsolvable: ${data.reason}.`);
    lastCompare = data.results;
    renderCompare(byId('compare-chart'), byId('compare-table'), data.results, byId('compare-log').checked);
    status.textContent = `${ALGORITHM_LABELS[data.algorithm]?.split(' (')[0] || data.algorithm} on this ${data.size} board. Fewer nodes means a better-informed heuristic.`;
  } catch (e) {
    status.className = 'status-line error';
    status.textContent = e.name === 'AbortError' ? 'Cancelled.' : e.message;
  } finally {
    byId('compare').disabled = false;
    byId('compare-cancel').hidden = true;
  }
}

// ---- search tree --------------------------------------------------------------------------

async function tree() {
  const status = byId('tree-status');
  if (!ready(status)) return;
  const n = Math.max(1, Math.min(200, Number(byId('tree-size').value) || 25));
  status.className = 'status-line';
  status.textContent = 'Searching…';
  try {
    const { data } = await post('/api/solve', request({
      algorithm: byId('tree-algorithm').value,
      heuristic: byId('tree-heuristic').value,
      trace: n,
      max_nodes: 2_000_000,
      time_limit: Math.min(5, state.info.limits.time_limit),
    }));
    const trace = data.trace || [];
    const path = data.moves ? pathBoards(state.board, state.rows, state.cols, [...data.moves]) : [];
    const drawn = drawTree(byId('tree-view'), trace, state.rows, state.cols, path);
    const found = data.length != null ? `The search went on to find a ${data.length}-move solution after ${count(data.expanded)} expansions.` : `The search stopped (${data.stopped_by} limit) after ${count(data.expanded)} expansions.`;
    status.textContent = `First ${drawn.nodes} expansions of ${ALGORITHM_LABELS[data.algorithm]?.split(' (')[0] || data.algorithm} with ${data.heuristic}${drawn.roots > 1 ? ` (${drawn.roots} iterations from the root)` : ''}. ${found}`;
  } catch (e) {
    status.className = 'status-line error';
    status.textContent = e.message;
  }
}

// ---- picture mode -------------------------------------------------------------------------

async function usePicture(source) {
  state.pictureSource = source;
  await updatePictureCrop();
}

async function updatePictureCrop() {
  if (!state.pictureSource) {
    view.setPicture(null, true);
    byId('picture-off').hidden = true;
    return;
  }
  try {
    const url = await cropToBoard(state.pictureSource, state.rows, state.cols);
    view.setGoal(goal());
    view.setPicture(url, byId('picture-numbers').checked);
    byId('picture-off').hidden = false;
  } catch (e) {
    showValidation('error', e.message);
  }
}

// ---- tabs and keys ------------------------------------------------------------------------

function selectTab(name) {
  state.tab = name;
  for (const b of document.querySelectorAll('[role=tab]')) b.setAttribute('aria-selected', String(b.dataset.tab === name));
  for (const p of document.querySelectorAll('[data-panel]')) p.hidden = p.dataset.panel !== name;
  const editing = name === 'edit';
  byId('editor').hidden = !editing;
  byId('board').hidden = editing;
  view.setInteractive(name === 'play');
  if (name === 'play') findBest();
  if (!editing) {
    view.layout();
    const showing = name === 'solve' && player.active ? player.boards[player.step] : state.board;
    view.show(showing, false);
    view.setSolved(sameTiles(showing, goal()));
  } else {
    editor.load(state.boardOk ? state.board : editor.cells(), state.rows, state.cols, view.cellSize());
    edited(editor.cells());
  }
  if (name !== 'solve') player.pause();
}

function key(e) {
  if (typingIn(e) || e.altKey || e.ctrlKey || e.metaKey) return;
  if (state.tab === 'play') {
    // The arrow says where a tile goes, so the blank goes the other way.
    const letter = { ArrowUp: 'D', ArrowDown: 'U', ArrowLeft: 'R', ArrowRight: 'L' }[e.key];
    if (letter) {
      e.preventDefault();
      playMove(letter);
    }
  } else if (state.tab === 'solve' && player.active) {
    const actions = {
      ArrowLeft: () => player.go(player.step - 1),
      ArrowRight: () => player.go(player.step + 1),
      Home: () => player.go(0),
      End: () => player.go(player.boards.length - 1),
      ' ': () => player.toggle(),
    };
    if (actions[e.key]) {
      e.preventDefault();
      actions[e.key]();
    }
  }
}

// ---- start --------------------------------------------------------------------------------

function fillSelect(select, values, labels, selected) {
  select.replaceChildren(...values.map((v) => el('option', { value: v, text: labels?.[v] || v, selected: v === selected })));
}

async function start() {
  try {
    state.info = await info();
  } catch {
    showValidation('error', 'Cannot reach the npuzzle server.');
  }
  const { heuristics, algorithms, limits } = state.info;
  const sides = Array.from({ length: limits.max_side - 1 }, (_, i) => String(i + 2));
  fillSelect(byId('rows'), sides, null, '3');
  fillSelect(byId('cols'), sides, null, '3');
  fillSelect(byId('heuristic'), ['auto', ...heuristics], { auto: 'Auto (strongest for the board)', ...HEURISTIC_LABELS }, 'auto');
  fillSelect(byId('algorithm'), algorithms, ALGORITHM_LABELS, 'auto');
  fillSelect(byId('tree-heuristic'), heuristics, HEURISTIC_LABELS, 'manhattan');
  const times = [1, 2, 5, 10, 30, 60].filter((t) => t <= limits.time_limit);
  fillSelect(byId('time-limit'), times.map(String), Object.fromEntries(times.map((t) => [t, `${t} s`])), String(times.includes(10) ? 10 : times[times.length - 1]));
  byId('compare-heuristics').replaceChildren(...heuristics.map((h) => el('label', { class: 'check' },
    el('input', { type: 'checkbox', value: h, checked: comparedByDefault(h) }), ` ${HEURISTIC_LABELS[h]?.split(' (')[0] || h}`)));

  byId('rows').addEventListener('change', () => setShape(Number(byId('rows').value), state.cols));
  byId('cols').addEventListener('change', () => setShape(state.rows, Number(byId('cols').value)));
  byId('goal').addEventListener('change', () => {
    state.goalName = byId('goal').value;
    const custom = state.goalName === 'custom';
    byId('custom-goal').hidden = !custom;
    if (custom) {
      state.customGoal = goalTiles('standard', state.rows, state.cols);
      state.customGoalOk = true;
      goalEditor.load(state.customGoal, state.rows, state.cols, 44);
      byId('goal-validation').textContent = '';
      selectTab('edit');
    }
    view.setGoal(goal());
    updatePictureCrop();
    forgetSolution();
    checkSoon();
  });
  byId('algorithm').addEventListener('change', () => { byId('weight-label').hidden = byId('algorithm').value !== 'weighted-astar'; });
  byId('difficulty').addEventListener('input', () => { byId('difficulty-out').textContent = `${byId('difficulty').value} moves`; });
  byId('shuffle').addEventListener('click', () => shuffle(null));
  byId('shuffle-moves').addEventListener('click', () => shuffle(Number(byId('difficulty').value)));
  byId('reset').addEventListener('click', () => setBoard(goal()));
  byId('text-form').addEventListener('submit', (e) => { e.preventDefault(); useText(byId('board-text').value); });
  byId('clear').addEventListener('click', () => editor.clear());
  byId('solve').addEventListener('click', solve);
  byId('cancel').addEventListener('click', () => state.solveAbort?.abort());
  byId('hint').addEventListener('click', hint);
  byId('undo').addEventListener('click', undo);
  byId('restart').addEventListener('click', restart);
  byId('compare').addEventListener('click', compare);
  byId('compare-cancel').addEventListener('click', () => state.compareAbort?.abort());
  byId('compare-log').addEventListener('change', () => {
    if (lastCompare) renderCompare(byId('compare-chart'), byId('compare-table'), lastCompare, byId('compare-log').checked);
  });
  byId('tree').addEventListener('click', tree);
  byId('picture-file').addEventListener('change', (e) => {
    const file = e.target.files?.[0];
    if (file) usePicture(URL.createObjectURL(file));
  });
  byId('picture-sample').addEventListener('click', () => usePicture(SAMPLE));
  byId('picture-numbers').addEventListener('change', updatePictureCrop);
  byId('picture-off').addEventListener('click', () => usePicture(null));
  for (const b of document.querySelectorAll('[role=tab]')) b.addEventListener('click', () => selectTab(b.dataset.tab));
  document.addEventListener('keydown', key);

  view.setSpeed(250);
  setShape(3, 3, parseBoard('7 2 6/8 1 4/3 5 0').tiles);
  selectTab('edit');
  document.body.dataset.ready = 'true';
}

start();
