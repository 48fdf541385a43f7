// Tab and Shift+Tab visit the tiles that can slide in the order they are on the screen, row
// by row and left to right, on every shape of board and after every move (they went by tile
// number, the order the tiles were made in). A tile slid with Enter keeps the focus and
// still slides. The page keeps the tiles in that order in the DOM with moveBefore where the
// browser has it and with insertBefore where it has not (moving only the tiles that are not
// sliding), so each test runs both ways: Debian's Chromium has moveBefore, and a page with
// it deleted stands for a browser without it.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, expectBoard, open, start, stop, useBoard } from './harness.mjs';

const env = {};
before(() => start(env));
after(() => stop(env));

const MODES = ['moveBefore', 'insertBefore'];

/** A page at 1280x800, with Element.prototype.moveBefore deleted for 'insertBefore'. */
async function openPage(mode) {
  const page = await open(env);
  if (mode === 'insertBefore') {
    await page.addInitScript(() => { delete Element.prototype.moveBefore; });
    await page.reload();
    await page.waitForSelector('body[data-ready=true]');
  }
  const has = await page.evaluate(() => typeof document.createElement('div').moveBefore === 'function');
  assert.equal(has, mode === 'moveBefore', `moveBefore ${has ? 'present' : 'absent'} in the ${mode} page`);
  // Every slide of a tile's transform, as `tile:event`.
  await page.evaluate(() => {
    window.slides = [];
    for (const type of ['transitionrun', 'transitionend', 'transitioncancel']) {
      document.querySelector('#board').addEventListener(type, (e) => {
        if (e.propertyName === 'transform' && e.target.dataset.tile) window.slides.push(`${e.target.dataset.tile}:${type}`);
      });
    }
  });
  return page;
}

/** The tiles that can slide (in line with the gap) on `board`, in reading order. */
function movable(board, cols) {
  const gap = board.indexOf(0);
  const inLine = (i) => Math.floor(i / cols) === Math.floor(gap / cols) || i % cols === gap % cols;
  return board.filter((t, i) => t !== 0 && inLine(i));
}

/** The board after sliding the tile at `cell` (in line with the gap) into the gap. */
function slide(board, cols, cell) {
  const next = board.slice();
  const gap = board.indexOf(0);
  const step = Math.floor(cell / cols) === Math.floor(gap / cols) ? Math.sign(cell - gap) : Math.sign(cell - gap) * cols;
  for (let i = gap; i !== cell; i += step) next[i] = next[i + step];
  next[cell] = 0;
  return next;
}

/** A solvable board: the standard goal after `moves` slides chosen by a fixed sequence. */
function scrambled(rows, cols, moves) {
  let board = [...Array.from({ length: rows * cols - 1 }, (_, i) => i + 1), 0];
  let seed = rows * 31 + cols;
  let last = -1;
  for (let m = 0; m < moves; m++) {
    const gap = board.indexOf(0);
    const [r, c] = [Math.floor(gap / cols), gap % cols];
    const cells = [r > 0 && gap - cols, r < rows - 1 && gap + cols, c > 0 && gap - 1, c < cols - 1 && gap + 1]
      .filter((i) => i !== false && i !== last);
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const cell = cells[seed % cells.length];
    last = gap;
    board = slide(board, cols, cell);
  }
  return board;
}

/** A board as the text field takes it: rows split by '/'. */
const text = (board, cols) => Array.from({ length: board.length / cols },
  (_, r) => board.slice(r * cols, r * cols + cols).join(' ')).join('/');

/** The number on the focused tile, or null when the focus is not on a tile. */
const focusedTile = (page) => page.evaluate(() => {
  const tile = document.activeElement?.closest?.('#board .tile');
  return tile ? Number(tile.dataset.tile) : null;
});

/** Checks that Tab from the control before the board visits `expected` and then leaves the
 * board, and that Shift+Tab from there visits them the other way round. */
async function checkTabOrder(page, board, cols, where) {
  const expected = movable(board, cols);
  const stops = await page.evaluate(() => [...document.querySelectorAll('#board .tile')]
    .filter((t) => t.tabIndex >= 0).map((t) => t.tabIndex));
  assert.deepEqual(stops, expected.map(() => 0), `${where}: tab stops (tabIndex 0, never positive)`);
  await page.focus('#goal'); // the last control before the board
  const forward = [];
  for (let i = 0; i <= expected.length; i++) {
    await page.keyboard.press('Tab');
    forward.push(await focusedTile(page));
  }
  assert.deepEqual(forward, [...expected, null], `${where}: Tab on ${text(board, cols)}`);
  const backward = [];
  for (let i = 0; i < expected.length; i++) {
    await page.keyboard.press('Shift+Tab');
    backward.push(await focusedTile(page));
  }
  assert.deepEqual(backward, expected.slice().reverse(), `${where}: Shift+Tab on ${text(board, cols)}`);
}

/** Tabs from the control before the board to `tile`. */
async function tabTo(page, tile) {
  await page.focus('#goal');
  for (let i = 0; i < 20 && (await focusedTile(page)) !== tile; i++) await page.keyboard.press('Tab');
  assert.equal(await focusedTile(page), tile, `Tab reaches tile ${tile}`);
}

/** Checks that each of `tiles` slid to its cell: its transform transition ran to its end. */
async function checkSlid(page, tiles, where) {
  const wanted = tiles.map((t) => `${t}:transitionend`);
  await page.waitForFunction((w) => w.every((s) => window.slides.includes(s)), wanted, { timeout: 3000 })
    .catch(() => {});
  const slides = await page.evaluate(() => window.slides);
  for (const t of tiles) {
    const slid = ['transitionrun', 'transitionend'].every((e) => slides.includes(`${t}:${e}`));
    assert.ok(slid && !slides.includes(`${t}:transitioncancel`),
      `${where}: tile ${t} should slide to its cell (transform transition events: ${slides.join(', ') || 'none'})`);
  }
}

/** Presses `key` with the focus on `tile` (reached with Tab) and checks that the tiles
 * `moving` slid, that the focus stayed on `tile` and the new board's tab order. */
async function move(page, board, cols, tile, key, where) {
  const cell = board.indexOf(tile);
  const gap = board.indexOf(0);
  await tabTo(page, tile);
  await page.evaluate(() => { window.slides = []; });
  await page.keyboard.press(key);
  let next;
  if (key === 'Enter') next = slide(board, cols, cell);
  else {
    const [dr, dc] = { ArrowUp: [1, 0], ArrowDown: [-1, 0], ArrowLeft: [0, 1], ArrowRight: [0, -1] }[key];
    next = slide(board, cols, gap + dr * cols + dc);
  }
  await expectBoard(page, next);
  assert.equal(await focusedTile(page), tile, `${where}: the focus stays on tile ${tile}`);
  const moving = next.filter((t, i) => t !== 0 && board[i] !== t);
  await checkSlid(page, moving, where);
  assert.equal(await focusedTile(page), tile, `${where}: the focus is still on tile ${tile}`);
  await checkTabOrder(page, next, cols, `${where}, after the move`);
  return next;
}

for (const mode of MODES) {
  test(`Tab visits the tiles that can slide in screen order on every shape of board (${mode})`, async () => {
    const page = await openPage(mode);
    for (const [rows, cols, moves] of [[3, 3, 0], [3, 3, 20], [4, 4, 30], [2, 5, 13], [5, 2, 13], [3, 6, 25], [6, 6, 40]]) {
      let board = scrambled(rows, cols, moves);
      await useBoard(page, text(board, cols));
      await expectBoard(page, board);
      const where = `${rows}x${cols}`;
      await checkTabOrder(page, board, cols, where);
      // Slides with Enter on the tile farthest from the gap, down or up its column then
      // along its row, and the order after each.
      for (const vertical of [true, false, true, false]) {
        const gap = board.indexOf(0);
        const inLine = (i) => (vertical ? i % cols === gap % cols : Math.floor(i / cols) === Math.floor(gap / cols));
        const line = board.map((t, i) => i).filter((i) => i !== gap && inLine(i));
        const far = line.reduce((a, b) => (Math.abs(b - gap) > Math.abs(a - gap) ? b : a));
        await page.focus(`#board .tile[data-tile="${board[far]}"]`);
        await page.keyboard.press('Enter');
        board = slide(board, cols, far);
        await expectBoard(page, board);
        await checkTabOrder(page, board, cols, `${where}, after a ${vertical ? 'vertical' : 'horizontal'} slide`);
      }
    }
    await page.close();
  });

  test(`a tile slid from the keyboard keeps the focus and slides; the order follows (${mode})`, async () => {
    const page = await openPage(mode);
    const cols = 3;
    let board = [8, 6, 7, 2, 5, 4, 3, 0, 1];
    await useBoard(page, text(board, cols));
    await expectBoard(page, board);
    await checkTabOrder(page, board, cols, 'the board of the issue');
    // Enter on 6, two above the gap: 6 and 5 slide down (a vertical slide changes the order).
    board = await move(page, board, cols, 6, 'Enter', 'Enter on 6');
    // 6 slides back up past 7 and 2 in the order: the tile moved in the DOM is the one
    // focused and sliding (with moveBefore) or 7 and 2 around it (without).
    board = await move(page, board, cols, 6, 'ArrowUp', 'ArrowUp with the focus on 6');
    // 6 slides down past 7 and 2 again: 2, which has the focus, is moved in the DOM both ways.
    board = await move(page, board, cols, 2, 'ArrowDown', 'ArrowDown with the focus on 2');
    // Along the top row: 7 slides left, then Enter on 8 slides 8 and 7 right.
    board = await move(page, board, cols, 7, 'Enter', 'Enter on 7');
    board = await move(page, board, cols, 8, 'Enter', 'Enter on 8');
    // Three tiles at once on a 4x4: 1, 5 and 9 down its first column, 2, 3 and 4 left along
    // its top row, then 8 up its last column with the focus on 12.
    const cols4 = 4;
    board = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 13, 14, 15];
    await useBoard(page, text(board, cols4));
    await expectBoard(page, board);
    board = await move(page, board, cols4, 1, 'Enter', '4x4, Enter on 1');
    board = await move(page, board, cols4, 4, 'Enter', '4x4, Enter on 4');
    board = await move(page, board, cols4, 12, 'ArrowUp', '4x4, ArrowUp with the focus on 12');
    await page.close();
  });
}

test('no errors in the pages', () => {
  assert.deepEqual(env.problems, []);
});
