// The third outside check of the page: fields that cannot be sent as they are get the page's
// own words (an empty weight went out as 0 and came back "got 0"; a width of 2.5 drew the
// server's parser text), and a few smaller things it found. Each test failed before.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, clickSolve, open, start, stop, tab } from './harness.mjs';

const env = {};
before(() => start(env));
after(() => stop(env));

const BOARD = '/?board=8,6,7,2,5,4,3,0,1&size=3x3&goal=standard';

/** Counts the page's requests to `path` from now on. */
function countRequests(page, path) {
  const seen = { n: 0 };
  page.on('request', (r) => {
    if (r.url().includes(path)) seen.n += 1;
  });
  return seen;
}

test('an empty weight, an empty width or a width of 2.5 is refused on the page, in words', async () => {
  const page = await open(env, DESKTOP, BOARD);
  await tab(page, 'solve');
  await page.waitForFunction(() => [...document.querySelectorAll('#algorithm option')].some((o) => o.value === 'beam'));
  const solves = countRequests(page, '/api/solve');
  for (const [algorithm, field, value, words] of [
    ['weighted-astar', '#weight', '', /^Weight is empty: enter a number\.$/],
    ['beam', '#width', '', /^Beam width is empty: enter a whole number\.$/],
    ['beam', '#width', '2.5', /^Beam width must be a whole number, not “2\.5”\.$/],
  ]) {
    await page.selectOption('#algorithm', algorithm);
    await page.fill(field, value);
    await page.locator(field).dispatchEvent('change');
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#plan-summary').textContent), words.source);
    await page.click('#solve');
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#result').textContent), words.source);
    assert.ok(await page.locator('#solve').isEnabled(), 'Solve is ready again');
  }
  assert.equal(solves.n, 0, 'nothing was sent');
  // A good value is sent as a number.
  await page.fill('#width', '50');
  await page.locator('#width').dispatchEvent('change');
  await page.click('#solve');
  await page.waitForSelector('#result.ok');
});

test('an empty expression is refused by the plan line and by Solve alike', async () => {
  const page = await open(env, DESKTOP, BOARD);
  await tab(page, 'solve');
  await page.waitForFunction(() => [...document.querySelectorAll('#heuristic option')].some((o) => o.value === 'expr'));
  await page.selectOption('#heuristic', 'expr');
  await page.fill('#heuristic-expr', '  ');
  await page.locator('#heuristic-expr').dispatchEvent('change');
  await page.waitForFunction(() => /The expression is empty/.test(document.querySelector('#plan-summary').textContent));
  assert.doesNotMatch(await page.locator('#plan-summary').textContent(), /optimal/);
  await page.click('#solve');
  await page.waitForFunction(() => /The expression is empty/.test(document.querySelector('#result').textContent));
});

test('a link with no size and tiles that fill no square names no null board', async () => {
  const page = await open(env, DESKTOP, '/?board=1,2,3,4,5,0&goal=blank-first');
  await page.waitForFunction(() => /could not be used/.test(document.querySelector('#validation').textContent));
  const words = await page.locator('#validation').textContent();
  assert.doesNotMatch(words, /null/);
  assert.match(words, /6 tiles do not fill a square board/);
});

test('expansions out of 1 to 200 are refused, not drawn at another size; one is singular', async () => {
  const page = await open(env, DESKTOP, BOARD);
  await tab(page, 'tree');
  await page.waitForFunction(() => document.querySelectorAll('#tree-heuristic option').length > 0);
  const solves = countRequests(page, '/api/solve');
  for (const [value, words] of [
    ['', /^Expansions is empty/],
    ['0', /^Expansions must be a whole number from 1 to 200, not “0”\.$/],
    ['5000', /not “5000”/],
    ['2.5', /not “2\.5”/],
  ]) {
    await page.fill('#tree-size', value);
    await page.click('#tree');
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#tree-status').textContent), words.source);
  }
  assert.equal(solves.n, 0, 'nothing was sent');
  await page.fill('#tree-size', '1');
  await page.click('#tree');
  await page.waitForFunction(() => /^First 1 expansion of /.test(document.querySelector('#tree-status').textContent));
});

test('breadth-first search lists its open states with no heuristic', async () => {
  const page = await open(env, DESKTOP, BOARD);
  await tab(page, 'tree');
  await page.waitForFunction(() => document.querySelectorAll('#tree-heuristic option').length > 0);
  await page.selectOption('#tree-algorithm', 'bfs');
  await page.fill('#tree-size', '5');
  await page.click('#tree');
  await page.waitForFunction(() => document.querySelectorAll('#tree-lists li').length > 0);
  const items = await page.locator('#tree-lists li').allTextContents();
  for (const item of items) {
    const m = item.match(/g (\d+) · h (\S+) · f (\S+)/);
    assert.ok(m, item);
    assert.equal(m[2], '0', item);
    assert.equal(m[3], m[1], item);
  }
});

test('a busy server (503) is worded as busy', async () => {
  const page = await open(env, DESKTOP, BOARD);
  await tab(page, 'solve');
  await page.route('**/api/solve/stream', (route) => route.fulfill({ status: 503, body: '' }));
  await page.click('#solve');
  await page.waitForFunction(() => /busy: try again in a moment/.test(document.querySelector('#result').textContent));
});

test('the play tab asks for the fewest moves only where a second can prove them', async () => {
  // A 5x5 board: a second proves no answer there, so no hint is asked for.
  const five = '/?board=16,9,0,3,8,24,12,19,5,2,7,18,15,10,22,4,11,21,13,1,17,20,23,14,6&size=5x5&goal=standard';
  const page = await open(env, DESKTOP, five);
  const hints = countRequests(page, '/api/hint');
  await tab(page, 'play');
  await page.waitForTimeout(1500);
  assert.equal(hints.n, 0);
  // A 3x3 board still gets its figure.
  const small = await open(env, DESKTOP, BOARD);
  await tab(small, 'play');
  await small.waitForFunction(() => /31/.test(document.querySelector('#panel-play').textContent), null, { timeout: 10000 });
});

test('on a phone the step buttons of a solution are 44 px wide too', async () => {
  // They were 42 px: their own min-width outranked the phone rule for every button.
  const page = await open(env, PHONE, BOARD);
  await clickSolve(page);
  await page.waitForSelector('#result.ok');
  const small = await page.evaluate(() => [...document.querySelectorAll('.transport button')]
    .filter((b) => b.getClientRects().length)
    .map((b) => ({ b, r: b.getBoundingClientRect() }))
    .filter(({ r }) => r.width < 43.5 || r.height < 43.5)
    .map(({ b, r }) => `${b.id} ${Math.round(r.width)}x${Math.round(r.height)}`));
  assert.deepEqual(small, []);
});
