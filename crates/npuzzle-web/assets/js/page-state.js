// The one page state: the board, its shape and goal, the solver choices, and every result
// keyed by the board and goal it was computed for, so nothing computed for another board is
// ever shown as current.

import { byId } from './dom.js';
import { boardText, goalTiles, parseBoard, validate } from './puzzle.js';

const NAMED_GOALS = ['standard', 'blank-first', 'spiral'];

export const state = {
  info: {
    heuristics: ['misplaced', 'manhattan', 'euclidean', 'linear-conflict', 'perfect', 'pdb'],
    algorithms: ['auto', 'astar', 'idastar', 'bfs', 'greedy', 'weighted-astar', 'weighted-idastar', 'constructive', 'beam'],
    limits: { max_side: 10, time_limit: 10 },
  },
  rows: 3,
  cols: 3,
  goalName: 'standard',
  customGoal: null,
  customGoalOk: true,
  board: goalTiles('standard', 3, 3),
  /** False while the board the user typed (cells or text) is not a valid board. */
  boardOk: true,
  /** Why the board is not usable, in words, when `boardOk` is false. */
  boardProblem: null,
  /** What the note under the board says while `boardOk` is false: the board drawn is then
   * the last valid one, not the one typed. */
  boardNote: null,
  /** The server's last solvability verdict: `{key, solvable}`; only for that key. */
  check: { key: null, solvable: null },
  /** The menus: the server's plan for the shape and goal (`{key, data}`). */
  plan: { key: null, data: null },
  tab: 'play',
  pictureSource: null,
  play: { start: null, history: [], best: null, started: null, stopped: null, records: new Map() },
  /** Results, each `{key, …}` for the board it belongs to (see `boardKey`). */
  results: { solve: null, compare: null, tree: null },
  solveAbort: null,
  compareAbort: null,
};

/** The goal board. */
export function goal() {
  return state.goalName === 'custom' && state.customGoal ? state.customGoal : goalTiles(state.goalName, state.rows, state.cols);
}

/** The goal as the API takes it: a name, or the board as text. */
export function goalParam() {
  return state.goalName === 'custom' ? boardText(goal(), state.cols) : state.goalName;
}

export function sizeText() {
  return `${state.rows}x${state.cols}`;
}

/** What a result belongs to: shape, goal and board. */
export function boardKey(board = state.board) {
  return `${sizeText()}|${goalParam()}|${board.join(',')}`;
}

/** What the menus belong to: shape and goal. */
export function goalKey() {
  return `${sizeText()}|${goalParam()}`;
}

/** The board fields of every API request. */
export function request(extra = {}) {
  return { board: boardText(state.board, state.cols), size: sizeText(), goal: goalParam(), ...extra };
}

/** The message under the board. */
export function showValidation(kind, text) {
  const v = byId('validation');
  v.className = `validation ${kind}`;
  v.textContent = text;
}

/** Says something to screen-reader users (moves, results). */
export function announce(text) {
  byId('announce').textContent = text;
}

/**
 * Whether the board may be sent to the server; otherwise says why in `out`. A board is held
 * back only for what is known about it: a failed check (the server unreachable, say) never
 * makes it "unsolvable"; the server decides when it answers.
 */
export function ready(out) {
  const problem = !state.boardOk ? (state.boardProblem || 'Fix the board first (see the message under it).')
    : !state.customGoalOk ? 'Fix the custom goal first (Edit tab).'
      : state.check.key === boardKey() && state.check.solvable === false ? 'This board cannot reach the goal; swap two tiles or shuffle.' : null;
  if (problem && out) {
    out.className = `${out.className.split(' ')[0]} error`;
    out.textContent = problem;
    out.hidden = false;
  }
  return !problem;
}

/** The board, size and goal of the address (`?board=…&size=RxC&goal=…`), or an error. */
export function fromAddress() {
  const q = new URLSearchParams(location.search);
  if (!q.has('board')) return null;
  const size = q.get('size')?.match(/^(\d+)x(\d+)$/);
  const [rows, cols] = size ? [Number(size[1]), Number(size[2])] : [null, null];
  const parsed = parseBoard(q.get('board'), rows, cols);
  if (parsed.error) return { error: parsed.error };
  if (size && (parsed.rows !== rows || parsed.cols !== cols)) return { error: `the board is ${parsed.rows}×${parsed.cols}, not ${rows}×${cols}` };
  const max = state.info.limits.max_side;
  if (parsed.rows < 2 || parsed.cols < 2 || parsed.rows > max || parsed.cols > max) return { error: `boards are from 2×2 to ${max}×${max}` };
  const v = validate(parsed.tiles, parsed.rows, parsed.cols);
  if (!v.ok) return { error: v.errors.join('; ') };
  const g = q.get('goal') || 'standard';
  if (NAMED_GOALS.includes(g)) return { ...parsed, goalName: g };
  const custom = parseBoard(g, parsed.rows, parsed.cols);
  if (custom.error || custom.rows !== parsed.rows || custom.cols !== parsed.cols || !validate(custom.tiles, parsed.rows, parsed.cols).ok) {
    return { error: `the goal “${g.slice(0, 40)}” is not a ${parsed.rows}×${parsed.cols} board or a goal name` };
  }
  return { ...parsed, goalName: 'custom', customGoal: custom.tiles };
}
