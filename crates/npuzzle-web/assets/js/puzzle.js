// The puzzle model on the page: boards as arrays of tile numbers (0 = blank), row-major.
// The server is the authority on solving and solvability; these functions only draw,
// validate as the user types, and replay the moves the server sends.

/** Goal boards by name, as the solver defines them (see crates/npuzzle/src/goal.rs). */
export function goalTiles(name, rows, cols) {
  const n = rows * cols;
  if (name === 'blank-first') return Array.from({ length: n }, (_, i) => i);
  if (name === 'spiral') return spiral(rows, cols);
  return Array.from({ length: n }, (_, i) => (i + 1) % n);
}

function spiral(rows, cols) {
  const tiles = new Array(rows * cols).fill(0);
  const order = [];
  let [top, bottom, left, right] = [0, rows - 1, 0, cols - 1];
  while (top <= bottom && left <= right) {
    for (let c = left; c <= right; c++) order.push([top, c]);
    for (let r = top + 1; r <= bottom; r++) order.push([r, right]);
    if (top < bottom) for (let c = right - 1; c >= left; c--) order.push([bottom, c]);
    if (left < right) for (let r = bottom - 1; r > top; r--) order.push([r, left]);
    top++; bottom--; left++; right--;
  }
  order.forEach(([r, c], i) => { tiles[r * cols + c] = i === order.length - 1 ? 0 : i + 1; });
  return tiles;
}

/**
 * Reads a board string: numbers separated by spaces or commas, rows by "/" or new lines,
 * "_" for the blank; brackets are ignored. Returns {tiles, rows, cols} or {error}.
 */
export function parseBoard(text, rows, cols) {
  // A digit string such as 312045678: one digit per cell, for boards of 4 to 10 cells (a
  // lone number is never a board), as the server reads it.
  const digits = text.trim().replace(/^\[+|\]+$/g, '').trim();
  if (/^\d{4,10}$/.test(digits)) text = digits.split('').join(' ');
  const rowTexts = text.split(/[\/\n;\]]/).map((r) => r.replace(/\[/g, ' ').trim()).filter((r) => r);
  const lines = [];
  for (const r of rowTexts) {
    const tokens = r.split(/[\s,]+/).filter((t) => t);
    const row = [];
    for (const t of tokens) {
      if (t === '_') row.push(0);
      else if (/^\d{1,6}$/.test(t)) row.push(Number(t));
      else return { error: `“${t.slice(0, 12)}” is not a tile number (use numbers, 0 or _ for the blank)` };
    }
    if (row.length) lines.push(row);
  }
  const tiles = lines.flat();
  if (!tiles.length) return { error: 'the board is empty' };
  if (lines.length > 1) {
    const bad = lines.findIndex((r) => r.length !== lines[0].length);
    if (bad >= 0) return { error: `row ${bad + 1} has ${lines[bad].length} tiles but row 1 has ${lines[0].length}` };
    return { tiles, rows: lines.length, cols: lines[0].length };
  }
  // A flat list takes the shape on screen, or a square; never a guessed rectangle.
  if (rows && cols && tiles.length === rows * cols) return { tiles, rows, cols };
  const side = Math.round(Math.sqrt(tiles.length));
  if (side * side === tiles.length) return { tiles, rows: side, cols: side };
  // Without a shape (a link with no size), there is no board on screen to name.
  const against = rows && cols ? `the ${rows}×${cols} board on screen` : 'a square board';
  return { error: `${tiles.length} tiles do not fill ${against}: write the rows with “/” (as 1 2 3/4 5 6) or give the size` };
}

/** "1 2 3/4 5 6/7 8 0" */
export function boardText(tiles, cols) {
  const rows = [];
  for (let i = 0; i < tiles.length; i += cols) rows.push(tiles.slice(i, i + cols).join(' '));
  return rows.join('/');
}

/**
 * Checks a board being typed: `cells` holds numbers, null (an empty cell) or NaN (a cell
 * holding something that is not a tile: a letter, say). Returns the problems in words plus
 * the cells to mark.
 */
export function validate(cells, rows, cols) {
  const n = rows * cols;
  const errors = [];
  const bad = new Set();
  const seen = new Map();
  cells.forEach((t, i) => {
    if (t == null || Number.isNaN(t)) { bad.add(i); return; }
    if (t < 0 || t >= n || !Number.isInteger(t)) { bad.add(i); return; }
    if (!seen.has(t)) seen.set(t, []);
    seen.get(t).push(i);
  });
  const empty = cells.filter((t) => t == null).length;
  if (empty) errors.push(`${empty} empty cell${empty > 1 ? 's' : ''}`);
  const invalid = cells.filter((t) => Number.isNaN(t)).length;
  if (invalid) errors.push(`${invalid} invalid tile${invalid > 1 ? 's' : ''} (not a number: tiles are numbers, 0 or _ the blank)`);
  const outOfRange = cells.filter((t) => t != null && !Number.isNaN(t) && (t < 0 || t >= n));
  if (outOfRange.length) errors.push(`tile${outOfRange.length > 1 ? 's' : ''} ${outOfRange.join(', ')} out of range (tiles are 1 to ${n - 1} and 0 for the blank)`);
  const dups = [...seen].filter(([, at]) => at.length > 1);
  for (const [t, at] of dups) at.forEach((i) => bad.add(i));
  if (dups.length) {
    const names = dups.map(([t]) => (t === 0 ? 'the blank (0)' : t));
    errors.push(`duplicate ${names.join(', ')}`);
  }
  const missing = [];
  for (let t = 0; t < n; t++) if (!seen.has(t)) missing.push(t);
  if (missing.length && missing.length <= 12) errors.push(`missing ${missing.map((t) => (t === 0 ? 'the blank (0)' : t)).join(', ')}`);
  else if (missing.length) errors.push(`${missing.length} tiles missing`);
  return { ok: errors.length === 0, errors, bad, missing };
}

const DELTA = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
const OPPOSITE = { U: 'D', D: 'U', L: 'R', R: 'L' };

/** The board after the blank moves one step (U, D, L or R), or null if it would leave. */
export function applyMove(tiles, rows, cols, letter) {
  const b = tiles.indexOf(0);
  const [dr, dc] = DELTA[letter];
  const r = Math.floor(b / cols) + dr;
  const c = (b % cols) + dc;
  if (r < 0 || r >= rows || c < 0 || c >= cols) return null;
  const next = tiles.slice();
  const to = r * cols + c;
  next[b] = next[to];
  next[to] = 0;
  return next;
}

/** The blank move that slides the tile at `cell` into the gap, or null if not adjacent. */
export function moveForCell(tiles, cols, cell) {
  const b = tiles.indexOf(0);
  const [br, bc, r, c] = [Math.floor(b / cols), b % cols, Math.floor(cell / cols), cell % cols];
  if (r === br && c === bc - 1) return 'L';
  if (r === br && c === bc + 1) return 'R';
  if (c === bc && r === br - 1) return 'U';
  if (c === bc && r === br + 1) return 'D';
  return null;
}

/**
 * The blank moves that slide the tile at `cell`, and every tile between it and the gap,
 * towards the gap (several tiles in one line at once); empty if the cell is not in line.
 */
export function slideMoves(tiles, cols, cell) {
  const b = tiles.indexOf(0);
  const [br, bc, r, c] = [Math.floor(b / cols), b % cols, Math.floor(cell / cols), cell % cols];
  if (cell === b || (r !== br && c !== bc)) return [];
  const letter = r === br ? (c < bc ? 'L' : 'R') : (r < br ? 'U' : 'D');
  return new Array(Math.abs(r - br) + Math.abs(c - bc)).fill(letter);
}

/** Manhattan distance of a board to a goal: the heuristic value shown while playing. */
export function manhattan(tiles, goal, cols) {
  const home = new Map(goal.map((t, i) => [t, i]));
  let sum = 0;
  tiles.forEach((t, i) => {
    if (t === 0) return;
    const h = home.get(t);
    sum += Math.abs(Math.floor(i / cols) - Math.floor(h / cols)) + Math.abs((i % cols) - (h % cols));
  });
  return sum;
}

/** Misplaced tiles (the blank not counted). */
export function misplaced(tiles, goal) {
  return tiles.filter((t, i) => t !== 0 && t !== goal[i]).length;
}

/** Euclidean distance: the straight-line distance of each tile to its home, summed. */
export function euclidean(tiles, goal, cols) {
  const home = new Map(goal.map((t, i) => [t, i]));
  let sum = 0;
  tiles.forEach((t, i) => {
    if (t === 0) return;
    const h = home.get(t);
    sum += Math.hypot(Math.floor(i / cols) - Math.floor(h / cols), (i % cols) - (h % cols));
  });
  return sum;
}

/** The boards one blank move away. */
export function neighbours(tiles, rows, cols) {
  return ['U', 'D', 'L', 'R'].map((m) => [m, applyMove(tiles, rows, cols, m)]).filter(([, b]) => b);
}

/** The tile a blank move slides, and the direction the tile goes (opposite the blank). */
export function tileMove(tiles, rows, cols, letter) {
  const after = applyMove(tiles, rows, cols, letter);
  if (!after) return null;
  return { tile: tiles[after.indexOf(0)], dir: OPPOSITE[letter] };
}

/** Every board along a path of blank moves, start first. */
export function pathBoards(start, rows, cols, moves) {
  const out = [start];
  for (const m of moves) out.push(applyMove(out[out.length - 1], rows, cols, m));
  return out;
}

export const ARROW = { U: '↑', D: '↓', L: '←', R: '→' };
export const WORD = { U: 'up', D: 'down', L: 'left', R: 'right' };

export function sameTiles(a, b) {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}
