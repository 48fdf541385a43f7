// The one page state: the board, its shape and goal, the solver choices, and every result
// keyed by the board and goal it was computed for, so nothing computed for another board is
// ever shown as current.

import { byId } from './dom.js';
import { boardText, goalTiles } from './puzzle.js';

export const state = {
  info: {
    heuristics: ['misplaced', 'manhattan', 'euclidean', 'linear-conflict', 'perfect', 'pdb'],
    algorithms: ['auto', 'astar', 'idastar', 'bfs', 'greedy', 'weighted-astar', 'weighted-idastar', 'constructive'],
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
