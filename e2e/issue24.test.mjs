// Issue 24, "The page, Python and the terminal game, third pass": one test per page problem
// the issue reports (items 1, 2, 3, 4 and 7; 6 and 8, the anytime engine on the page, are in
// anytime.test.mjs; 5 is the server's), each seen to fail on the page as it was.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DESKTOP, PHONE, axeViolations, clickSolve, drawnBoard, expectBoard, open, shot, start, stop, tab, useBoard,
} from './harness.mjs';

const env = {};
before(() => start(env));
after(() => stop(env));

const LINK = '/?board=8,6,7,2,5,4,3,0,1&size=3x3&goal=standard';
const START = [8, 6, 7, 2, 5, 4, 3, 0, 1];
/** A 15-puzzle that IDA* with misplaced tiles does not finish within seconds. */
const SLOW_4X4 = '15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0';
const SMALL_PHONE = { width: 360, height: 740 };

/** Records the board of every API request the page makes (path -> boards sent). */
function recordBoards(page) {
  const sent = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() !== 'POST' || !path.startsWith('/api/')) return;
    const body = JSON.parse(r.postData() || '{}');
    if (body.board) sent.push({ path, trace: body.trace != null, board: String(body.board).split(/[\s,/]+/).map(Number) });
  });
  return sent;
}

/** Whether the tile named by a hint can slide that way on `board` (3 columns). */
function hintFits(board, text, cols = 3) {
  const m = text.match(/slide tile (\d+) (up|down|left|right)/);
  assert.ok(m, `not a hint: ${text}`);
  const at = board.indexOf(Number(m[1]));
  const blank = board.indexOf(0);
  const [dr, dc] = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] }[m[2]];
  return Math.floor(at / cols) + dr === Math.floor(blank / cols) && (at % cols) + dc === blank % cols;
}

async function solveAndStep(page, steps) {
  await clickSolve(page);
  await page.waitForSelector('#result.ok');
  for (let i = 0; i < steps; i++) await page.click('#forward');
  await page.waitForFunction((n) => document.querySelector('#step-counter').textContent.startsWith(`Step ${n} `), steps);
  return drawnBoard(page);
}

test('1. the step shown becomes the board every tool uses: Hint, Solve, Compare, Search', async () => {
  const page = await open(env, DESKTOP, LINK);
  const sent = recordBoards(page);
  const shown = await solveAndStep(page, 3);
  assert.notDeepEqual(shown, START);
  await tab(page, 'play');
  await page.click('#hint');
  await page.waitForFunction(() => /Hint: slide tile/.test(document.querySelector('#play-status').textContent));
  const hint = await page.locator('#play-status').textContent();
  assert.ok(hintFits(shown, hint), `"${hint}" cannot be played on the board shown, ${shown}`);
  assert.deepEqual(sent.filter((s) => s.path === '/api/hint').at(-1).board, shown, 'Hint asked about another board');
  await expectBoard(page, shown);
  const rows = [0, 3, 6].map((i) => shown.slice(i, i + 3).join(' ')).join('/');
  assert.equal(await page.inputValue('#board-text'), rows, 'the board text is not the board shown');
  assert.match(await page.locator('#validation').textContent(), /step 3 of the solution/);

  // Compare, Search and Solve from a step of a new solution.
  for (const [name, run, path] of [
    ['compare', async () => { await tab(page, 'compare'); await page.click('#compare'); }, '/api/compare'],
    ['tree', async () => { await tab(page, 'tree'); await page.click('#tree'); }, '/api/solve'],
    ['solve', async () => { await page.click('#solve'); }, '/api/solve/stream'],
  ]) {
    const board = await solveAndStep(page, 2);
    const before = sent.length;
    await run();
    for (let i = 0; i < 50 && !sent.slice(before).some((x) => x.path === path); i++) await page.waitForTimeout(100);
    const mine = sent.slice(before).filter((s) => s.path === path);
    assert.ok(mine.length, `${name}: no request to ${path}`);
    assert.deepEqual(mine[0].board, board, `${name} used another board than the one shown`);
  }
  // The Edit tab starts from the step shown too.
  const stepped = await solveAndStep(page, 3);
  await tab(page, 'edit');
  const text = [0, 3, 6].map((i) => stepped.slice(i, i + 3).join(' ')).join('/');
  assert.equal(await page.inputValue('#board-text'), text, 'the Edit tab shows another board');
  // A move, by arrow key or by swipe, plays on from the step shown, not from the start.
  for (const how of ['key', 'swipe']) {
    const board = await solveAndStep(page, 4);
    await tab(page, 'play');
    await page.evaluate(() => document.activeElement?.blur());
    const [key, next] = tileSlide(board);
    if (how === 'key') await page.keyboard.press(key);
    else await swipe(page, ...{ ArrowLeft: [-60, 0], ArrowRight: [60, 0], ArrowUp: [0, -60], ArrowDown: [0, 60] }[key]);
    await expectBoard(page, next);
    assert.equal(await page.locator('#play-moves').textContent(), '1', `${how}: moves counted from the step`);
  }
  await shot(page, 'i24-1-step-is-the-board');
  await page.close();
});

/** An arrow key that slides a tile on `board` (3x3), and the board after it. */
function tileSlide(board) {
  const b = board.indexOf(0);
  // The arrow says where the tile goes: ArrowLeft slides the tile right of the gap.
  for (const [key, from] of [['ArrowLeft', b + 1], ['ArrowRight', b - 1], ['ArrowUp', b + 3], ['ArrowDown', b - 3]]) {
    const sameRow = Math.floor(from / 3) === Math.floor(b / 3);
    if (from < 0 || from > 8 || ((key === 'ArrowLeft' || key === 'ArrowRight') && !sameRow)) continue;
    const next = board.slice();
    [next[b], next[from]] = [next[from], 0];
    return [key, next];
  }
  throw new Error('no move');
}

/** Drags across the middle of the board by (dx, dy), once it has stopped moving. */
async function swipe(page, dx, dy) {
  const board = page.locator('#board');
  await board.scrollIntoViewIfNeeded();
  let box = await board.boundingBox();
  for (let before = null; JSON.stringify(box) !== JSON.stringify(before); ) {
    before = box;
    await page.waitForTimeout(100);
    box = await board.boundingBox();
  }
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

test('2. arrow keys slide tiles only from the board, the Play tab or no focus', async () => {
  const page = await open(env, DESKTOP, LINK);
  await tab(page, 'tree');
  await page.click('#tree');
  await page.waitForSelector('#tree-view svg.tree');
  await page.focus('#tree-view');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expectBoard(page, START);
  await tab(page, 'compare');
  await page.click('#compare');
  await page.waitForSelector('#compare-table table');
  await page.focus('#compare-table');
  await page.keyboard.press('ArrowLeft');
  await page.focus('#compare-log');
  await page.keyboard.press('ArrowUp');
  await expectBoard(page, START);
  // From the Play tab, or with nothing focused, they do slide.
  await tab(page, 'play');
  await page.focus('#hint');
  await page.keyboard.press('ArrowDown'); // tile 5 (above the blank) slides down
  await expectBoard(page, [8, 6, 7, 2, 0, 4, 3, 5, 1]);
  await page.close();
});

test('3. after an invalid entry the board drawn is never a board made up from it, and says it is not in use', async () => {
  const page = await open(env, DESKTOP, LINK);
  await useBoard(page, '1 2 3 4');
  // Not a solved-looking 2x2: the 3x3 board, as it was, marked as not in use.
  await expectBoard(page, START);
  assert.equal(await page.inputValue('#rows'), '3');
  assert.equal(await page.inputValue('#cols'), '3');
  assert.match(await page.locator('#validation').textContent(), /Cannot use that board: as a 2×2 board it has/);
  assert.match(await page.locator('#board-note').textContent(), /Not in use: the board text could not be used/);
  // No tool works on a board the user did not type (issue 11): Hint says why.
  await tab(page, 'play');
  await page.click('#hint');
  assert.match(await page.locator('#play-status').textContent(), /could not be used/);
  // A good text puts the board back in use.
  await useBoard(page, '8 6 7/2 5 4/3 1 0');
  await expectBoard(page, [8, 6, 7, 2, 5, 4, 3, 1, 0]);
  assert.equal(await page.locator('#board-note').isVisible(), false);
  // A cell edited into an invalid board: the last valid board is drawn, marked as not in use.
  await tab(page, 'edit');
  await page.fill('#editor input[data-cell="0"]', '5');
  assert.equal(await page.locator('#board-note').isVisible(), true, 'no word that the drawn board is not in use');
  await shot(page, 'i24-3-invalid-entry');
  await page.close();
});

test('4. phones: controls of at least 44 px, board and Hint together, tabs above the fold', async () => {
  for (const viewport of [SMALL_PHONE, PHONE]) {
    const page = await open(env, viewport, LINK);
    const at = `${viewport.width}x${viewport.height}`;
    const small = [];
    for (const name of ['play', 'solve', 'edit', 'compare', 'tree']) {
      await tab(page, name);
      small.push(...await page.evaluate((n) => [...document.querySelectorAll('button, select, input:not([type=file]), [role=tab], summary')]
        .filter((e) => e.getClientRects().length && !e.closest('[hidden]') && !e.closest('.editor') && !e.closest('#board'))
        // A checkbox's target is its label (a click anywhere on it ticks the box).
        .map((e) => ({ e, r: (e.type === 'checkbox' && e.closest('label') || e).getBoundingClientRect() }))
        .filter(({ r }) => r.height < 43.5 || r.width < 43.5)
        .map(({ e, r }) => `${n}: ${e.id || e.tagName.toLowerCase()}${e.type ? `[${e.type}]` : ''} ${Math.round(r.width)}x${Math.round(r.height)}`), name));
    }
    assert.deepEqual([...new Set(small)], [], `${at}: controls under 44 px`);
    await shot(page, `i24-4-phone-${at}`);
    await page.close();
    // The tab bar above the fold and the board beside Hint, for every size of board (a large
    // board's goal preview and the menus above it grow with its size).
    for (const [rows, cols] of [[3, 3], [4, 4], [5, 5], [7, 7], [10, 10], [10, 3]]) {
      const board = Array.from({ length: rows * cols }, (_, i) => (i + 1) % (rows * cols));
      const sized = await open(env, viewport, `/?board=${board}&size=${rows}x${cols}&goal=standard`);
      // The note under the board comes with the server's answer about the board.
      await sized.waitForLoadState('networkidle');
      await tab(sized, 'play');
      await sized.evaluate(() => scrollTo(0, 0));
      const fold = await sized.evaluate(() => {
        const r = (s) => document.querySelector(s).getBoundingClientRect();
        return { tabs: r('[role=tablist]').bottom, board: r('#board').top, hintBottom: r('#hint').bottom, h: innerHeight };
      });
      const where = `${at}, ${rows}x${cols}`;
      assert.ok(fold.tabs <= fold.h, `${where}: the tab bar ends at ${fold.tabs} px, below the fold (${fold.h})`);
      // Scrolled so that the board's top is at the top, Hint is on screen too.
      assert.ok(fold.hintBottom - fold.board <= fold.h, `${where}: board and Hint are ${fold.hintBottom - fold.board} px apart`);
      await sized.close();
    }
  }
});

test('7a. focus stays on Solve after a solve and comes back to it after Cancel', async () => {
  const page = await open(env, DESKTOP, LINK);
  await page.focus('#solve');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#result.ok');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'solve');
  await useBoard(page, SLOW_4X4);
  await tab(page, 'solve');
  await page.selectOption('#algorithm', 'idastar');
  await page.selectOption('#heuristic', 'misplaced');
  await page.focus('#solve');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#cancel:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'cancel', 'focus left the disabled Solve button');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#cancel', { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'solve');
  await page.close();
});

test('7b. out-of-date results keep 4.5:1 contrast', async () => {
  const page = await open(env, DESKTOP, LINK);
  await clickSolve(page);
  await page.waitForSelector('#result.ok');
  await tab(page, 'compare');
  await page.click('#compare');
  await page.waitForSelector('#compare-table table');
  await page.click('#reset');
  await page.waitForSelector('#compare-out.stale');
  for (const name of ['compare', 'solve']) {
    await tab(page, name);
    const contrast = (await axeViolations(page)).filter((v) => v.startsWith('color-contrast'));
    assert.deepEqual(contrast, [], `${name}: out-of-date text below 4.5:1`);
  }
  await page.close();
});

test('7c. the goal preview is readable from 5x5 up', async () => {
  const page = await open(env, DESKTOP, LINK);
  for (const side of ['5', '10']) {
    await page.selectOption('#rows', side);
    await page.selectOption('#cols', side);
    const cells = await page.locator('#goal-preview .mini').evaluateAll((es) => es.map((e) => ({
      text: e.textContent,
      font: parseFloat(getComputedStyle(e).fontSize),
      width: e.getBoundingClientRect().width,
      fits: e.scrollWidth <= e.clientWidth,
    })));
    assert.equal(cells.filter((c) => c.text).length, Number(side) ** 2 - 1, `${side}x${side}: numbers missing`);
    for (const c of cells.filter((x) => x.text)) {
      assert.ok(c.font >= 10 && c.width >= 16 && c.fits, `${side}x${side}: tile ${c.text} drawn ${c.width.toFixed(1)} px wide at ${c.font} px`);
    }
  }
  await page.close();
});

test('7d. one move is "1 move"', async () => {
  const page = await open(env, DESKTOP, '/?board=1,2,3,4,5,6,7,0,8&size=3x3&goal=standard');
  await clickSolve(page);
  await page.waitForSelector('#result.ok');
  const text = await page.locator('#result').textContent();
  assert.match(text, /\b1 move\b/);
  assert.doesNotMatch(text, /\b1 moves\b/);
  await tab(page, 'play');
  await page.click('#hint');
  await page.waitForFunction(() => /Hint: slide tile/.test(document.querySelector('#play-status').textContent));
  assert.doesNotMatch(await page.locator('#play-status').textContent(), /\b1 moves\b/);
  await page.close();
});

test('7e. a search stopped by the memory limit gets advice about memory, not time', async () => {
  const page = await open(env, DESKTOP, LINK);
  await page.route('**/api/solve/stream', (route) => route.fulfill({
    status: 200,
    contentType: 'application/x-ndjson',
    body: `${JSON.stringify({ started: true })}\n${JSON.stringify({
      result: {
        solvable: true, length: null, moves: null, optimal: false, expanded: 9000000, generated: 20000000, max_open: 1,
        seconds: 3.2, heuristic: 'manhattan', admissible: true, algorithm: 'astar', phase: 'search', stopped_by: 'memory',
        size: '3x3', start: START, goal: [1, 2, 3, 4, 5, 6, 7, 8, 0], reason: '', lower_bound: 20, bound_factor: null,
      },
    })}\n`,
  }));
  await clickSolve(page);
  await page.waitForSelector('#result.warn');
  const text = await page.locator('#result').textContent();
  assert.match(text, /memory/i);
  assert.doesNotMatch(text, /longer time limit/);
  await page.close();
});

test('7f. a letter in a cell is an invalid tile, not an empty cell', async () => {
  const page = await open(env, DESKTOP, LINK);
  await tab(page, 'edit');
  await page.fill('#editor input[data-cell="0"]', 'x');
  const text = await page.locator('#validation').textContent();
  assert.match(text, /1 invalid tile/);
  assert.doesNotMatch(text, /empty cell/);
  await page.close();
});
