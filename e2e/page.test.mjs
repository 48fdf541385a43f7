// End-to-end tests of the npuzzle page in real headless Chromium (Debian's `chromium`,
// driven by playwright-core). Starts `target/release/npuzzle serve --port 0`, then enters,
// validates, solves, animates, plays, compares and draws search trees as a person would.
// Screenshots go to e2e/screenshots/ for a person to look at.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.NPUZZLE_BIN || join(here, '..', 'target', 'release', 'npuzzle');
const shots = join(here, 'screenshots');
mkdirSync(shots, { recursive: true });

let server;
let url;
let context;
let page;
let profile;
const problems = [];

before(async () => {
  server = spawn(binary, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npuzzle serve did not print its URL')), 15000);
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/\S+\//);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    });
    server.on('exit', (code) => reject(new Error(`npuzzle serve exited with ${code}`)));
  });
  profile = mkdtempSync(join(tmpdir(), 'npuzzle-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] || await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    problems.push(`console: ${m.text()}`);
  });
  page.on('requestfailed', (r) => {
    // Cancelling a solve aborts its request on purpose.
    if (!r.url().includes('/api/solve/stream')) problems.push(`request failed: ${r.url()}`);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready=true]');
});

after(async () => {
  await context?.close();
  server?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const shot = (name) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

/** The board as drawn: tile numbers by cell, read from the tiles' positions. */
async function drawnBoard() {
  return page.evaluate(() => {
    const tiles = [...document.querySelectorAll('#board .tile')];
    const board = new Array(tiles.length + 1).fill(0);
    for (const t of tiles) board[Number(t.dataset.cell)] = Number(t.dataset.tile);
    return board;
  });
}

async function tab(name) {
  await page.click(`[role=tab][data-tab=${name}]`);
}

async function useBoard(text) {
  // The text field lives on the Edit tab.
  if (!(await page.locator('#board-text').isVisible())) await tab('edit');
  await page.fill('#board-text', text);
  await page.click('#text-form button[type=submit]');
}

async function api(path, body) {
  const r = await fetch(new URL(path, url), { method: 'POST', body: JSON.stringify(body) });
  return { status: r.status, data: await r.json() };
}

test('the page loads with a board, menus from the server and no errors', async () => {
  assert.match(await page.title(), /npuzzle/);
  assert.equal(await page.locator('#editor input.cell').count(), 9);
  const heuristics = await page.locator('#heuristic option').allTextContents();
  assert.ok(heuristics.some((h) => /Manhattan/.test(h)), heuristics.join());
  await page.waitForSelector('#validation.ok');
  await shot('01-loaded');
});

test('typing a bad board shows what is wrong before anything is solved', async () => {
  await tab('edit');
  const cells = page.locator('#editor input.cell');
  await cells.nth(0).fill('2'); // 7 2 6 … becomes 2 2 6 …: 2 twice, 7 missing
  const v = page.locator('#validation');
  await assert.doesNotReject(v.locator('xpath=self::*[contains(@class,"error")]').waitFor());
  const text = await v.textContent();
  assert.match(text, /duplicate 2/);
  assert.match(text, /missing 7/);
  assert.equal(await page.locator('#editor input.cell.bad').count(), 2);
  assert.equal(await page.locator('#palette .chip').count(), 1);
  await shot('02-duplicate');
  // The palette fills the selected cell with the missing tile.
  await cells.nth(0).focus();
  await page.click('#palette .chip');
  await page.waitForSelector('#validation.ok');

  await useBoard('1 2 3/4 5 6/8 7 0');
  await page.waitForSelector('#validation.error');
  assert.match(await v.textContent(), /Unsolvable: width 3 is odd/);
  await tab('solve');
  await page.click('#solve');
  assert.match(await page.locator('#result').textContent(), /cannot reach the goal/);
  await shot('03-unsolvable');
});

test('enter a board cell by cell, solve it and step through the animation to the goal', async () => {
  await tab('edit');
  const board = [8, 1, 3, 4, 0, 2, 7, 6, 5];
  const cells = page.locator('#editor input.cell');
  for (let i = 0; i < 9; i++) await cells.nth(i).fill(String(board[i]));
  await page.waitForSelector('#validation.ok');
  const expected = await api('/api/solve', { board });
  assert.equal(expected.status, 200);

  await tab('solve');
  await page.selectOption('#algorithm', 'astar');
  await page.selectOption('#heuristic', 'manhattan');
  await page.click('#solve');
  await page.waitForSelector('#result.ok');
  const result = await page.locator('#result').textContent();
  const n = expected.data.length;
  assert.match(result, new RegExp(`${n} moves`));
  assert.match(result, /Optimal\s*yes/);
  assert.equal(await page.locator('#move-list .move').count(), n);
  assert.equal(await page.locator('#step-counter').textContent(), `Step 0 of ${n}`);
  assert.deepEqual(await drawnBoard(), board);

  for (let i = 1; i <= n; i++) {
    await page.click('#forward');
    assert.equal(await page.locator('#step-counter').textContent(), `Step ${i} of ${n}`);
    assert.equal(await page.locator('#move-list .move.current').getAttribute('data-step'), String(i));
    if (i === Math.floor(n / 2)) await shot('04-animation-middle');
  }
  assert.deepEqual(await drawnBoard(), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  assert.equal(await page.locator('#player-status').textContent(), 'Goal reached.');
  assert.ok(await page.locator('#forward').isDisabled());
  await page.waitForTimeout(400);
  await shot('05-animation-goal');

  await page.click('#back');
  assert.equal(await page.locator('#step-counter').textContent(), `Step ${n - 1} of ${n}`);
  await page.click('#first');
  assert.deepEqual(await drawnBoard(), board);
  // Play runs the whole solution by itself.
  await page.fill('#speed', '12');
  await page.click('#play');
  await page.waitForFunction((t) => document.querySelector('#step-counter').textContent === t, `Step ${n} of ${n}`, { timeout: 20000 });
  assert.deepEqual(await drawnBoard(), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
});

test('play: click and arrow keys move tiles, count moves and say when solved; hints help', async () => {
  await useBoard('1 2 3/4 0 6/7 5 8');
  await tab('play');
  await page.locator('#board .tile[data-tile="5"]').click(); // 5 slides up into the gap
  assert.equal(await page.locator('#play-moves').textContent(), '1');
  assert.deepEqual(await drawnBoard(), [1, 2, 3, 4, 5, 6, 7, 0, 8]);
  await page.locator('#board .tile[data-tile="1"]').click(); // not next to the gap: nothing
  assert.equal(await page.locator('#play-moves').textContent(), '1');
  await page.keyboard.press('ArrowUp'); // nothing below the gap
  await page.keyboard.press('ArrowLeft'); // 8 slides left
  assert.equal(await page.locator('#play-moves').textContent(), '2');
  await page.waitForSelector('#banner:not([hidden])');
  assert.match(await page.locator('#banner').textContent(), /Solved in 2 moves/);
  await page.waitForTimeout(300);
  await shot('06-play-solved');

  await page.click('#shuffle-moves');
  await page.waitForFunction(() => /Shuffled/.test(document.querySelector('#validation').textContent));
  assert.equal(await page.locator('#play-moves').textContent(), '0');
  await page.click('#hint');
  await page.waitForFunction(() => /Hint: slide tile \d+/.test(document.querySelector('#play-status').textContent));
  const hint = await page.locator('#play-status').textContent();
  const tile = hint.match(/tile (\d+)/)[1];
  await page.locator(`#board .tile[data-tile="${tile}"]`).click();
  assert.equal(await page.locator('#play-moves').textContent(), '1');
  await page.click('#undo');
  assert.equal(await page.locator('#play-moves').textContent(), '0');
  await page.click('#hint');
  await page.waitForFunction(() => /Hint: slide tile/.test(document.querySelector('#play-status').textContent));
  await shot('07-play-hint');
});

test('compare heuristics: a bar chart of nodes and time and a table', async () => {
  await useBoard('7 2 6/8 1 4/3 5 0');
  await tab('compare');
  await page.click('#compare');
  await page.waitForSelector('#compare-chart svg.chart');
  const checked = await page.locator('#compare-heuristics input:checked').count();
  assert.equal(await page.locator('#compare-chart svg.chart').count(), 2);
  assert.equal(await page.locator('#compare-chart rect.bar').count(), 2 * checked);
  assert.equal(await page.locator('#compare-table tbody tr').count(), checked);
  const rows = await page.locator('#compare-table tbody tr').allTextContents();
  assert.ok(rows.every((r) => /22/.test(r)), rows.join('\n'));
  await shot('08-compare');
});

test('search tree: the first expansions with g, h and f', async () => {
  await tab('tree');
  await page.fill('#tree-size', '20');
  await page.click('#tree');
  await page.waitForSelector('#tree-view svg.tree');
  assert.equal(await page.locator('#tree-view .node').count(), 20);
  assert.match(await page.locator('#tree-view .node').first().textContent(), /g0 h14 f14/);
  assert.ok(await page.locator('#tree-view .node.on-path').count() >= 1);
  await shot('09-search-tree');
});

test('picture mode: an image cut into tiles that still plays and solves', async () => {
  await tab('edit');
  await page.click('#picture-sample');
  await page.waitForSelector('#board.picture');
  const bg = await page.locator('#board .tile[data-tile="1"]').evaluate((e) => e.style.backgroundImage);
  assert.match(bg, /^url\("data:image/);
  await useBoard('1 2 3/4 5 6/7 0 8');
  await tab('play');
  await page.locator('#board .tile[data-tile="8"]').click();
  await page.waitForSelector('#board.solved');
  await page.waitForTimeout(400);
  await shot('10-picture-solved');
  await page.click('#shuffle');
  await tab('solve');
  await page.selectOption('#algorithm', 'auto');
  await page.selectOption('#heuristic', 'auto');
  await page.click('#solve');
  await page.waitForSelector('#result.ok');
  await page.click('#last');
  assert.deepEqual(await drawnBoard(), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  await tab('edit');
  await page.click('#picture-off');
});

test('a 6x6 board shuffles and solves; a long search shows progress and can be cancelled', async () => {
  await page.selectOption('#rows', '6');
  await page.selectOption('#cols', '6');
  assert.equal(await page.locator('#board .tile').count(), 35);
  await page.fill('#difficulty', '16');
  await page.click('#shuffle-moves');
  await page.waitForFunction(() => /Shuffled/.test(document.querySelector('#validation').textContent));
  await tab('solve');
  await page.click('#solve');
  await page.waitForSelector('#result.ok', { timeout: 20000 });
  await shot('11-six-by-six');

  await page.selectOption('#rows', '5');
  await page.selectOption('#cols', '5');
  await page.click('#shuffle');
  await page.waitForFunction(() => /Shuffled/.test(document.querySelector('#validation').textContent));
  await page.selectOption('#algorithm', 'idastar');
  await page.selectOption('#heuristic', 'misplaced');
  await page.click('#solve');
  await page.waitForFunction(() => /expanded [\d,]+/.test(document.querySelector('#progress-text').textContent), null, { timeout: 5000 });
  await shot('12-progress');
  const busy = async () => (await (await fetch(new URL('/api/info', url))).json()).busy.searches;
  assert.equal(await busy(), 1);
  await page.click('#cancel');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#result').textContent));
  // Closing the stream stops the search on the server.
  for (let i = 0; i < 50 && (await busy()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(await busy(), 0);
});

test('custom goal: edited in place and used by the solver', async () => {
  await page.selectOption('#rows', '2');
  await page.selectOption('#cols', '3');
  await page.selectOption('#goal', 'custom');
  const goalCells = page.locator('#goal-editor input.cell');
  const goal = [0, 5, 4, 3, 2, 1];
  for (let i = 0; i < 6; i++) await goalCells.nth(i).fill(String(goal[i]));
  await page.waitForSelector('#goal-validation.ok');
  await page.click('#shuffle');
  await page.waitForFunction(() => /Shuffled/.test(document.querySelector('#validation').textContent));
  await tab('solve');
  await page.click('#solve');
  await page.waitForSelector('#result.ok');
  await page.click('#last');
  assert.deepEqual(await drawnBoard(), goal);
  await shot('13-custom-goal');
  await page.selectOption('#goal', 'standard');
});

test('no "null", "undefined" or "NaN" on any tab after each tool has answered', async () => {
  // Such words come from a missing part put into the page as it is (a plan summary and a
  // single search's answer showed "null" where the anytime engine's parts would go).
  const words = /\b(null|undefined|NaN)\b/;
  const shown = () => page.evaluate(() => document.body.innerText);
  await useBoard('8 6 7/2 5 4/3 0 1');
  await tab('solve');
  await page.selectOption('#algorithm', 'auto');
  await page.click('#solve');
  await page.waitForSelector('#result.ok');
  assert.doesNotMatch(await shown(), words);
  await page.selectOption('#algorithm', 'astar');
  await page.click('#solve');
  await page.waitForFunction(() => /by A\*/.test(document.querySelector('#result').textContent));
  assert.doesNotMatch(await shown(), words);
  await tab('compare');
  await page.click('#compare');
  await page.waitForSelector('#compare-chart svg.chart');
  assert.doesNotMatch(await shown(), words);
  await tab('tree');
  await page.click('#tree');
  await page.waitForSelector('#tree-view svg.tree');
  assert.doesNotMatch(await shown(), words);
  await tab('play');
  await page.click('#hint');
  await page.waitForFunction(() => /Hint: slide tile/.test(document.querySelector('#play-status').textContent));
  assert.doesNotMatch(await shown(), words);
});

test('no errors in the page or its console', () => {
  assert.deepEqual(problems, []);
});
