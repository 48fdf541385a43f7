// Issue 23, "One contract everywhere": the page carries no planner of its own. What the
// menus offer and what auto would run come from the server's `GET /api/plan` alone; when
// that fails, the page says so instead of guessing (it used to fall back on rules of its own,
// written for an older server, that claimed optimality and tables the server would refuse).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DESKTOP, open, start, stop, tab } from './harness.mjs';

const env = {};
before(() => start(env));
after(() => stop(env));

test('without /api/plan the page reports it and invents no menus', async () => {
  const page = await open(env, DESKTOP, '/?board=1,2,3,4,5,6,7,0,8&size=3x3&goal=standard');
  // The menus the server planned on load, before the plan endpoint goes away.
  await page.waitForFunction(() => document.querySelectorAll('#algorithm option').length > 1);
  const before = await page.locator('#algorithm option').count();
  await page.route('**/api/plan?*', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"not found"}' }));
  // A new shape asks for a new plan.
  await page.selectOption('#rows', '4');
  await page.waitForFunction(() => /^Menus: /.test(document.querySelector('#plan-summary').textContent));
  const summary = await page.locator('#plan-summary').textContent();
  assert.match(summary, /not found|404/);
  // The menus are the server's last ones for 3x3, not rules of the page's own for 4x3.
  assert.equal(await page.locator('#algorithm option').count(), before);
});

test('beam search from the menu: its width is asked for, planned by the server and sent', async () => {
  const page = await open(env, DESKTOP, '/?board=8,6,7,2,5,4,3,0,1&size=3x3&goal=standard');
  await tab(page, 'solve');
  await page.waitForFunction(() => [...document.querySelectorAll('#algorithm option')].some((o) => o.value === 'beam'));
  assert.ok(await page.locator('#width-label').isHidden(), 'a width shown for auto');
  await page.selectOption('#algorithm', 'beam');
  assert.ok(await page.locator('#width-label').isVisible(), 'no width for beam search');
  await page.fill('#width', '100');
  await page.locator('#width').dispatchEvent('change');
  // The server's plan names the width.
  await page.waitForFunction(() => /100 states a depth/.test(document.querySelector('#plan-summary').textContent));
  const sent = page.waitForRequest((r) => r.url().includes('/api/solve') && r.method() === 'POST');
  await page.click('#solve');
  const body = JSON.parse((await sent).postData());
  assert.equal(body.algorithm, 'beam');
  assert.equal(body.width, 100);
  await page.waitForSelector('#result.ok');
  assert.match(await page.locator('#result').textContent(), /31 moves/);
  await page.close();
  // A beam one state wide loses its way on a 6x6 board: the answer says so and what to try.
  const six = '28,9,26,3,8,34,32,19,33,2,30,18,15,10,22,4,11,35,13,1,29,20,23,31,6,25,5,0,17,7,14,12,27,24,21,16';
  const lost = await open(env, DESKTOP, `/?board=${six}&size=6x6&goal=standard`);
  await tab(lost, 'solve');
  await lost.waitForFunction(() => [...document.querySelectorAll('#algorithm option')].some((o) => o.value === 'beam'));
  await lost.selectOption('#algorithm', 'beam');
  await lost.fill('#width', '1');
  await lost.locator('#width').dispatchEvent('change');
  await lost.click('#solve');
  await lost.waitForFunction(() => /lost its way/.test(document.querySelector('#result').textContent), null, { timeout: 20000 });
  assert.match(await lost.locator('#result').textContent(), /width limit/);
  await lost.close();
});

test('"Prove optimal" asks the server for the proof solve --optimal makes, and refuses what a proof cannot run', async () => {
  // `npuzzle random --size 4x5 --moves 60 --seed 3`: 44 moves, proved in milliseconds.
  const board = '6,1,3,10,14,16,2,7,15,0,17,11,4,13,19,8,12,5,18,9';
  const page = await open(env, DESKTOP, `/?board=${board}&size=4x5&goal=standard`);
  await tab(page, 'solve');
  await page.waitForFunction(() => /best answer found within the budget/.test(document.querySelector('#plan-summary').textContent));
  await page.check('#optimal');
  // The summary is the server's plan of the proof.
  await page.waitForFunction(() => /guaranteed optimal/.test(document.querySelector('#plan-summary').textContent));
  // (Parts a plan or answer lacks are left out, not shown as "null".)
  assert.doesNotMatch(await page.locator('#plan-summary').textContent(), /null|undefined/);
  const sent = page.waitForRequest((r) => r.url().includes('/api/solve') && r.method() === 'POST');
  await page.click('#solve');
  const body = JSON.parse((await sent).postData());
  assert.equal(body.optimal, true);
  await page.waitForSelector('#result.ok');
  const result = await page.locator('#result').textContent();
  assert.match(result, /44 moves found by IDA\* with Pattern database 5-5-5-4, the fewest possible\./);
  assert.match(result, /Optimalyes/);
  assert.doesNotMatch(result, /null|undefined/);
  // Greedy search proves nothing: the server's refusal, shown under the menus.
  await page.waitForFunction(() => [...document.querySelectorAll('#algorithm option')].some((o) => o.value === 'greedy'));
  await page.selectOption('#algorithm', 'greedy');
  await page.waitForFunction(() => /would refuse/.test(document.querySelector('#plan-summary').textContent));
  await page.uncheck('#optimal');
  await page.waitForFunction(() => !/would refuse/.test(document.querySelector('#plan-summary').textContent));
  await page.close();
});

test('the plan summary is the plan of the chosen time limit: too short to build tables, linear conflict', async () => {
  // A server with no cached tables: past 16 cells, auto plans only tables it can build
  // within three quarters of the time limit (5-5-5-5-4 on 5x5, about a second). The
  // summary showed the plan of no limit, tables included, for a 1-second solve that ran
  // without them.
  const dir = mkdtempSync(join(tmpdir(), 'npuzzle-pdb-'));
  const fresh = {};
  await start(fresh, ['--pdb-dir', dir]);
  try {
    // `npuzzle random --size 5x5 --seed 1`.
    const board = '16,9,0,3,8,24,12,19,5,2,7,18,15,10,22,4,11,21,13,1,17,20,23,14,6';
    const page = await open(fresh, DESKTOP, `/?board=${board}&size=5x5&goal=standard`);
    await tab(page, 'solve');
    const summary = () => page.locator('#plan-summary').textContent();
    await page.waitForFunction(() => /all with pdb:5-5-5-5-4/.test(document.querySelector('#plan-summary').textContent));
    assert.equal(await page.locator('#time-limit').inputValue(), '10');
    const asked = page.waitForRequest((r) => r.url().includes('/api/plan') && r.url().includes('time_limit=1'));
    await page.selectOption('#time-limit', '1');
    await asked;
    await page.waitForFunction(() => /all with linear-conflict/.test(document.querySelector('#plan-summary').textContent));
    assert.match(await summary(), /Tables: none/);
    // The solve sends the same limit, and runs what the summary says.
    const sent = page.waitForRequest((r) => r.url().includes('/api/solve') && r.method() === 'POST');
    const answered = page.waitForResponse((r) => r.url().includes('/api/solve') && r.request().method() === 'POST');
    await page.click('#solve');
    assert.equal(JSON.parse((await sent).postData()).time_limit, 1);
    const lines = (await (await answered).text()).trim().split('\n').map((l) => JSON.parse(l));
    const last = lines[lines.length - 1];
    assert.equal((last.result ?? last).heuristic, 'linear-conflict');
    await page.selectOption('#time-limit', '10');
    await page.waitForFunction(() => /all with pdb:5-5-5-5-4/.test(document.querySelector('#plan-summary').textContent));
    await page.close();
  } finally {
    await stop(fresh);
    rmSync(dir, { recursive: true, force: true });
  }
});
