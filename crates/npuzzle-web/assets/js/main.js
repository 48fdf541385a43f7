// The page: one state (page-state.js) drawn by the board, the editor and the tabs. The board
// is always on screen and always playable; results belong to the board they were computed
// for and are marked out of date as soon as the board or goal changes.

import { info, post } from './api.js';
import { BoardEditor } from './editor.js';
import { BoardView } from './board-view.js';
import { byId, el, typingIn } from './dom.js';
import { Player } from './player.js';
import { cropToBoard, SAMPLE } from './picture.js';
import { choiceChanged, refreshMenus } from './menus.js';
import { makeTools } from './tools.js';
import {
  WORD, applyMove, boardText, goalTiles, manhattan, parseBoard, sameTiles, slideMoves, tileMove, validate,
} from './puzzle.js';
import {
  announce, boardKey, fromAddress, goal, goalParam, showValidation, sizeText, state,
} from './page-state.js';
const TABS = ['play', 'solve', 'edit', 'compare', 'tree'];

const view = new BoardView(byId('board'), (cell) => playCell(cell), (letter) => { useShownStep(); playMoves([letter]); });
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
  scrub: byId('scrub'),
  speed: byId('speed'),
  speedOut: byId('speed-out'),
  copy: byId('copy-moves'),
  movesText: byId('moves-text'),
  counter: byId('step-counter'),
  list: byId('move-list'),
  status: byId('player-status'),
}, (tiles, animate) => {
  view.show(tiles, animate);
  view.setSolved(sameTiles(tiles, goal()));
});
player.onSpeed = (ms) => view.setSpeed(ms);
const tools = makeTools({ player, view, selectTab, refresh, useShownStep });

// ---- what is current --------------------------------------------------------------------

let stepping = false;

/**
 * The one rule for a solution being stepped through: the board on screen is the board. So
 * before anything works on the board (a move, Hint, Solve, Compare, Search), a step other
 * than the first becomes the current board: play starts again from it, and the solution,
 * which belongs to its own start, is kept but shown as out of date.
 */
function useShownStep() {
  if (!stepping || player.step === 0) return;
  const step = player.step;
  const tiles = player.current.slice();
  setBoard(tiles, { check: false });
  // A board on the path of a solution reaches the goal.
  state.check = { key: boardKey(), solvable: true };
  showValidation('ok', `Now on the board of step ${step} of the solution: every tool uses this board.`);
}

/**
 * Marks every result computed for another board or goal as out of date, shows the step
 * controls only for a current solution, updates the play figures and the address.
 */
function refresh() {
  const key = boardKey();
  const current = (r) => !r || r.key === key;
  const solveCurrent = current(state.results.solve);
  byId('solve-out').classList.toggle('stale', !solveCurrent);
  byId('compare-out').classList.toggle('stale', !current(state.results.compare));
  byId('tree-out').classList.toggle('stale', !current(state.results.tree));
  const now = player.active && solveCurrent;
  if (now !== stepping) {
    stepping = now;
    if (now) player.go(0, false);
    else player.pause();
  }
  byId('player').hidden = !now;
  byId('transport').hidden = !now;
  // While the board being edited is not valid, the board drawn is the last valid one: say so.
  byId('board').classList.toggle('not-in-use', !state.boardOk);
  byId('board-note').hidden = state.boardOk;
  byId('board-note').textContent = state.boardNote || '';
  const startKey = boardKey(state.play.start || state.board);
  byId('play-moves').textContent = String(state.play.history.length);
  byId('play-best').textContent = state.play.best?.key === startKey ? String(state.play.best.moves) : '–';
  byId('play-record').textContent = state.play.records.get(startKey) ?? '–';
  byId('play-h').textContent = state.boardOk ? String(manhattan(state.board, goal(), state.cols)) : '–';
  if (state.boardOk) {
    const q = new URLSearchParams({ board: state.board.join(','), size: sizeText(), goal: goalParam() });
    history.replaceState(null, '', `?${q}`);
  }
}

/** After any change of the board: stops work for the old one, checks the new one. */
function boardChanged({ check = true } = {}) {
  const key = boardKey();
  if (state.solveAbort && state.results.solve?.key !== key) state.solveAbort.abort('board');
  if (state.compareAbort && state.results.compare?.key !== key) state.compareAbort.abort('board');
  byId('play-status').textContent = '';
  view.clearFlash();
  // A check still pending is about an older board, or unneeded (the caller knows the answer).
  if (check) checkSoon();
  else cancelCheck();
  refresh();
}

// ---- the board and its goal ---------------------------------------------------------------

/** Sets a valid board everywhere: the view, the editor, the text field. */
function setBoard(tiles, { check = true, fresh = true } = {}) {
  state.board = tiles.slice();
  state.boardOk = true;
  state.boardProblem = null;
  view.show(tiles, false);
  view.setSolved(sameTiles(tiles, goal()));
  loadEditor();
  byId('board-text').value = boardText(tiles, state.cols);
  updatePalette([]);
  if (fresh) resetPlay();
  boardChanged({ check });
}

/** Loads the editor (and the text field) with `board`. */
function loadEditor(board = state.board) {
  const width = byId('panel-edit').clientWidth || 360;
  const cell = Math.max(30, Math.min(52, Math.floor((width - 16) / state.cols)));
  editor.load(board, state.rows, state.cols, cell);
  byId('board-text').value = boardText(board, state.cols);
}

function setShape(rows, cols, tiles = null) {
  state.rows = rows;
  state.cols = cols;
  byId('rows').value = rows;
  byId('cols').value = cols;
  if (state.goalName === 'custom') {
    state.customGoal = goalTiles('standard', rows, cols);
    state.customGoalOk = true;
    goalEditor.load(state.customGoal, rows, cols, 40);
    byId('goal-validation').textContent = '';
  }
  view.setShape(rows, cols, goal());
  drawGoalPreview();
  setBoard(tiles || goal());
  updatePictureCrop();
  refreshMenus();
}

function goalChanged() {
  view.setGoal(goal());
  drawGoalPreview();
  updatePictureCrop();
  refreshMenus();
  view.setSolved(sameTiles(state.board, goal()));
  boardChanged();
}

/** The goal, small, beside the goal menu. */
function drawGoalPreview() {
  const g = goal();
  const box = byId('goal-preview');
  box.style.gridTemplateColumns = `repeat(${state.cols}, 1fr)`;
  box.style.setProperty('--goal-cols', String(state.cols));
  box.style.setProperty('--goal-span', String(Math.max(state.rows, state.cols)));
  box.replaceChildren(...g.map((t) => el('span', { class: t ? 'mini' : 'mini blank', text: t ? String(t) : '' })));
  box.setAttribute('aria-label', `goal board: ${boardText(g, state.cols)}`);
}

function edited(cells) {
  const v = validate(cells, state.rows, state.cols);
  editor.mark(v.bad);
  updatePalette(v.missing);
  if (!v.ok) {
    state.boardOk = false;
    state.boardProblem = 'The board in the editor is not valid yet (see the message under the board).';
    state.boardNote = 'Not in use: the board on the Edit tab is not valid yet. This is the last valid board.';
    cancelCheck();
    showValidation('error', `Not a valid board yet: ${v.errors.join('; ')}.`);
    refresh();
    return;
  }
  state.board = cells.slice();
  state.boardOk = true;
  state.boardProblem = null;
  view.show(state.board, false);
  view.setSolved(sameTiles(state.board, goal()));
  byId('board-text').value = boardText(state.board, state.cols);
  resetPlay();
  boardChanged();
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
    showValidation('error', 'Fix the custom goal first (Edit tab).');
    return;
  }
  state.customGoalOk = true;
  state.customGoal = cells.slice();
  out.className = 'validation ok';
  out.textContent = 'Custom goal is valid.';
  goalChanged();
}

function updatePalette(missing) {
  byId('palette').replaceChildren(...missing.map((t) => el('button', {
    type: 'button',
    class: 'chip',
    text: t === 0 ? 'blank' : String(t),
    onclick: () => editor.place(t),
  })), ...(missing.length ? [] : [el('span', { class: 'muted', text: 'none – every tile is on the board' })]));
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
  cancelCheck();
  if (!state.customGoalOk) return;
  showValidation('pending', 'Checking…');
  const seq = checkSeq;
  checkTimer = setTimeout(async () => {
    const key = boardKey();
    try {
      const { data } = await post('/api/check', { board: boardText(state.board, state.cols), size: sizeText(), goal: goalParam() });
      if (seq !== checkSeq) return;
      state.check = { key, solvable: data.solvable };
      if (data.solved) showValidation('ok', 'This is the goal board. Shuffle it to make a puzzle.');
      else if (data.solvable) showValidation('ok', `✓ Valid and solvable: ${data.reason}.`);
      else showValidation('error', `✗ Unsolvable: ${data.reason}. Swap two tiles to fix it.`);
    } catch (e) {
      if (seq !== checkSeq) return;
      // Unknown is not unsolvable: Solve still asks the server, which decides.
      showValidation('error', e.status === 0 ? `Could not check the board: ${e.message}.` : e.message);
    }
  }, 120);
}

function useText(text) {
  cancelCheck();
  const parsed = parseBoard(text, state.rows, state.cols);
  // Text that is not a valid board is refused as a whole: the shape and the board drawn stay
  // as they were (never a board made up from the bad text), marked as not in use, and no
  // tool works on them until the text is fixed or a board is chosen another way.
  const refuse = (why) => {
    state.boardOk = false;
    state.boardProblem = `The board text could not be used: ${why}. Fix it on the Edit tab, or shuffle.`;
    state.boardNote = 'Not in use: the board text could not be used. This is the last valid board.';
    showValidation('error', `Cannot use that board: ${why}.`);
    refresh();
  };
  if (parsed.error) return refuse(parsed.error);
  const max = state.info.limits.max_side;
  if (parsed.rows < 2 || parsed.cols < 2 || parsed.rows > max || parsed.cols > max) {
    return refuse(`boards here are from 2×2 to ${max}×${max}; that one is ${parsed.rows}×${parsed.cols}`);
  }
  const v = validate(parsed.tiles, parsed.rows, parsed.cols);
  if (!v.ok) return refuse(`as a ${parsed.rows}×${parsed.cols} board it has ${v.errors.join('; ')}`);
  if (parsed.rows !== state.rows || parsed.cols !== state.cols) setShape(parsed.rows, parsed.cols);
  setBoard(parsed.tiles);
  return undefined;
}

// ---- shuffling ----------------------------------------------------------------------------

async function shuffle(moves) {
  if (!state.customGoalOk) {
    showValidation('error', 'Fix the custom goal first (Edit tab).');
    return;
  }
  try {
    const { data } = await post('/api/random', { size: sizeText(), goal: goalParam(), ...(moves ? { moves } : {}) });
    const d = data.distance;
    setBoard(data.board, { check: false });
    // The server made the board from the goal: it is solvable, no check needed.
    state.check = { key: boardKey(), solvable: true };
    if (d != null) state.play.best = { key: boardKey(), moves: d };
    const how = moves ? `${moves} random moves from the goal` : 'a random solvable board';
    showValidation('ok', `Shuffled: ${how}${d != null ? `; the fewest moves back is ${d}` : ''}.`);
    refresh();
  } catch (e) {
    showValidation('error', e.message);
  }
}

// ---- playing ------------------------------------------------------------------------------

let clock = null;

function resetPlay() {
  state.play.start = state.board.slice();
  state.play.history = [];
  state.play.started = null;
  state.play.stopped = null;
  clearInterval(clock);
  byId('play-time').textContent = '0:00';
  byId('banner').hidden = true;
  if (state.tab === 'play') tools.findBest();
}

function showClock() {
  const { started, stopped } = state.play;
  const s = started ? Math.floor(((stopped || Date.now()) - started) / 1000) : 0;
  byId('play-time').textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A click on a tile: it slides, with every tile between it and the gap. */
function playCell(cell) {
  // Stepping through a solution, a click plays on from the board shown.
  useShownStep();
  playMoves(slideMoves(state.board, state.cols, cell));
}

/** Plays blank moves on the board: counted, timed, announced; the board stays solvable. */
function playMoves(letters) {
  if (!letters.length) return;
  if (!state.boardOk) {
    showValidation('error', state.boardProblem || 'Fix the board first.');
    return;
  }
  const before = boardKey();
  const known = state.check.key === before ? state.check.solvable : null;
  const moved = [];
  let board = state.board;
  for (const letter of letters) {
    const next = applyMove(board, state.rows, state.cols, letter);
    if (!next) break;
    moved.push(tileMove(board, state.rows, state.cols, letter));
    state.play.history.push(letter);
    board = next;
  }
  if (!moved.length) return;
  if (!state.play.started) {
    state.play.started = Date.now();
    clearInterval(clock);
    clock = setInterval(showClock, 250);
  }
  state.board = board;
  view.show(board, true);
  byId('board-text').value = boardText(board, state.cols);
  const solved = sameTiles(board, goal());
  view.setSolved(solved);
  // A legal move keeps solvability: no need to ask the server again.
  state.check = { key: boardKey(), solvable: known };
  const n = state.play.history.length;
  const dir = WORD[moved[0].dir];
  let said = `Tile${moved.length > 1 ? 's' : ''} ${moved.map((m) => m.tile).join(', ')} slid ${dir}. ${n} move${n === 1 ? '' : 's'}.`;
  const banner = byId('banner');
  banner.hidden = !solved;
  if (solved) {
    state.play.stopped = Date.now();
    clearInterval(clock);
    showClock();
    const startKey = boardKey(state.play.start);
    const record = state.play.records.get(startKey);
    if (n > 0 && (record == null || n < record)) state.play.records.set(startKey, n);
    const best = state.play.best?.key === startKey ? state.play.best.moves : null;
    banner.textContent = `★ Solved in ${n} move${n === 1 ? '' : 's'} (${byId('play-time').textContent})!${best != null ? (n === best ? ' That is the fewest possible.' : ` The fewest possible was ${best}.`) : ''}`;
    said += ' Solved!';
  }
  announce(said);
  boardChanged({ check: known == null });
}

function undo() {
  const last = state.play.history.pop();
  if (!last) return;
  const key = boardKey();
  const known = state.check.key === key ? state.check.solvable : null;
  state.board = applyMove(state.board, state.rows, state.cols, { U: 'D', D: 'U', L: 'R', R: 'L' }[last]);
  view.show(state.board, true);
  view.setSolved(false);
  byId('board-text').value = boardText(state.board, state.cols);
  byId('banner').hidden = true;
  state.check = { key: boardKey(), solvable: known };
  boardChanged({ check: known == null });
}

function restart() {
  if (state.play.start) setBoard(state.play.start);
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
  for (const b of document.querySelectorAll('[role=tab]')) {
    const on = b.dataset.tab === name;
    b.setAttribute('aria-selected', String(on));
    b.tabIndex = on ? 0 : -1;
  }
  for (const p of document.querySelectorAll('[data-panel]')) p.hidden = p.dataset.panel !== name;
  // An edit starts from the board on screen: a solution's step shown, as for every tool.
  if (name === 'edit' && state.boardOk) loadEditor(stepping && player.step > 0 ? player.current : state.board);
  if (name === 'play') tools.findBest();
  if (name === 'compare') tools.drawCompare();
}

function tabKey(e) {
  const i = TABS.indexOf(state.tab);
  const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
  if (to == null) return;
  e.preventDefault();
  e.stopPropagation();
  const name = TABS[(to + TABS.length) % TABS.length];
  selectTab(name);
  document.querySelector(`[role=tab][data-tab=${name}]`).focus();
}

/**
 * Where the arrow keys slide tiles: with the focus on the board or its controls, on the
 * Play tab, or nowhere in particular. Elsewhere (the search tree or a table that scrolls,
 * the move list, another tab's buttons) they are left to the focused element.
 */
function arrowsSlide(target) {
  if (!(target instanceof Element) || target === document.body || target === document.documentElement) return true;
  return Boolean(target.closest('.board-panel, #panel-play'));
}

function key(e) {
  if (e.key === 'Escape') {
    state.solveAbort?.abort();
    state.compareAbort?.abort();
    return;
  }
  if (typingIn(e) || e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.('[role=tab]')) return;
  if (stepping && state.tab === 'solve') {
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
    return;
  }
  // The arrow says where a tile goes, so the blank goes the other way.
  const letter = { ArrowUp: 'D', ArrowDown: 'U', ArrowLeft: 'R', ArrowRight: 'L' }[e.key];
  if (letter && arrowsSlide(e.target)) {
    e.preventDefault();
    useShownStep();
    playMoves([letter]);
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
  const { limits } = state.info;
  const sides = Array.from({ length: limits.max_side - 1 }, (_, i) => String(i + 2));
  fillSelect(byId('rows'), sides, null, '3');
  fillSelect(byId('cols'), sides, null, '3');
  const times = [1, 2, 5, 10, 30, 60].filter((t) => t <= limits.time_limit);
  fillSelect(byId('time-limit'), times.map(String), Object.fromEntries(times.map((t) => [t, `${t} s`])), String(times.includes(10) ? 10 : times[times.length - 1]));

  byId('rows').addEventListener('change', () => setShape(Number(byId('rows').value), state.cols));
  byId('cols').addEventListener('change', () => setShape(state.rows, Number(byId('cols').value)));
  byId('goal').addEventListener('change', () => {
    state.goalName = byId('goal').value;
    const custom = state.goalName === 'custom';
    byId('custom-goal').hidden = !custom;
    if (custom) {
      state.customGoal = goalTiles('standard', state.rows, state.cols);
      state.customGoalOk = true;
      goalEditor.load(state.customGoal, state.rows, state.cols, 40);
      byId('goal-validation').textContent = '';
      selectTab('edit');
    }
    goalChanged();
  });
  for (const id of ['algorithm', 'heuristic', 'weight', 'width', 'heuristic-expr', 'optimal', 'time-limit']) byId(id).addEventListener('change', choiceChanged);
  byId('difficulty').addEventListener('input', () => { byId('difficulty-out').textContent = `${byId('difficulty').value} moves`; });
  byId('shuffle').addEventListener('click', () => shuffle(null));
  byId('shuffle-moves').addEventListener('click', () => shuffle(Number(byId('difficulty').value)));
  byId('reset').addEventListener('click', () => setBoard(goal()));
  byId('text-form').addEventListener('submit', (e) => { e.preventDefault(); useText(byId('board-text').value); });
  byId('clear').addEventListener('click', () => editor.clear());
  byId('solve').addEventListener('click', tools.solve);
  byId('cancel').addEventListener('click', () => state.solveAbort?.abort());
  byId('finish').addEventListener('click', tools.finish);
  byId('hint').addEventListener('click', tools.hint);
  byId('undo').addEventListener('click', undo);
  byId('restart').addEventListener('click', restart);
  byId('compare').addEventListener('click', tools.compare);
  byId('compare-cancel').addEventListener('click', () => state.compareAbort?.abort());
  byId('compare-log').addEventListener('change', tools.drawCompare);
  byId('tree').addEventListener('click', tools.tree);
  byId('picture-file').addEventListener('change', (e) => {
    const file = e.target.files?.[0];
    if (file) usePicture(URL.createObjectURL(file));
  });
  byId('picture-sample').addEventListener('click', () => usePicture(SAMPLE));
  byId('picture-numbers').addEventListener('change', updatePictureCrop);
  byId('picture-off').addEventListener('click', () => usePicture(null));
  for (const b of document.querySelectorAll('[role=tab]')) {
    b.addEventListener('click', () => selectTab(b.dataset.tab));
    b.addEventListener('keydown', tabKey);
  }
  document.addEventListener('keydown', key);
  let resized = null;
  window.addEventListener('resize', () => {
    clearTimeout(resized);
    resized = setTimeout(() => { if (state.tab === 'compare') tools.drawCompare(); }, 150);
  });

  view.setSpeed(250);
  view.setInteractive(true);
  const linked = fromAddress();
  if (linked && !linked.error) {
    state.goalName = linked.goalName;
    byId('goal').value = linked.goalName;
    if (linked.customGoal) {
      state.customGoal = linked.customGoal;
      byId('custom-goal').hidden = false;
      goalEditor.load(linked.customGoal, linked.rows, linked.cols, 40);
    }
    state.rows = linked.rows;
    state.cols = linked.cols;
    byId('rows').value = linked.rows;
    byId('cols').value = linked.cols;
    view.setShape(linked.rows, linked.cols, goal());
    drawGoalPreview();
    setBoard(linked.tiles);
    refreshMenus();
  } else {
    setShape(3, 3, parseBoard('7 2 6/8 1 4/3 5 0').tiles);
    if (linked?.error) {
      cancelCheck();
      showValidation('error', `The board in the link could not be used: ${linked.error}. Here is another one.`);
    }
  }
  selectTab('play');
  document.body.dataset.ready = 'true';
}

start();
