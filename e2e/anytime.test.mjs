// The anytime engine on the page (issue 24, page 6 and 8; issue 21's "Progress"): a long
// solve shows its improving answer and proven bound live, the answer says how it improved,
// "Use this answer" takes the best so far at once, and a hint on a big board comes back
// within its budget. Each was seen to fail on the page as it was.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, api, clickSolve, open, shot, start, stop, tab, useBoard, waitForSearches } from './harness.mjs';

const env = {};
before(() => start(env));
after(() => stop(env));

/** `npuzzle random -s 5x5 --seed 1` */
const BOARD_5X5 = '16 9 0 3 8/24 12 19 5 2/7 18 15 10 22/4 11 21 13 1/17 20 23 14 6';
const LIVE = /^best [\d,]+ · proven ≥ [\d,]+$/;

/** Collects every text the live "best … · proven ≥ …" line shows, in order. */
async function watchBest(page) {
  await page.evaluate(() => {
    window.bestSeen = [];
    const best = document.querySelector('#progress-best');
    new MutationObserver(() => {
      if (!best.hidden && window.bestSeen.at(-1) !== best.textContent) window.bestSeen.push(best.textContent);
    }).observe(best, { childList: true, characterData: true, subtree: true, attributes: true });
  });
}

/** The numbers of a "best 1,234 · proven ≥ 567" line. */
function numbers(text) {
  return text.match(/[\d,]+/g).map((n) => Number(n.replaceAll(',', '')));
}

test('8. a 5x5 solve shows its best answer and proven bound live, then how it improved', async () => {
  const page = await open(env, DESKTOP);
  await useBoard(page, BOARD_5X5);
  await tab(page, 'solve');
  await page.selectOption('#time-limit', '2');
  await watchBest(page);
  await clickSolve(page);
  await page.waitForSelector('#result.ok', { timeout: 15000 });
  const seen = await page.evaluate(() => window.bestSeen);
  assert.ok(seen.length >= 1, 'no live "best … · proven ≥ …" update');
  for (const text of seen) assert.match(text, LIVE);
  const pairs = seen.map(numbers);
  for (let i = 1; i < pairs.length; i++) {
    assert.ok(pairs[i][0] <= pairs[i - 1][0], `the best length grew: ${seen}`);
    assert.ok(pairs[i][1] >= pairs[i - 1][1], `the bound fell: ${seen}`);
  }
  const improvements = await page.locator('#improvements').textContent();
  assert.match(improvements, /proven ≥ \d+\./);
  const stats = await page.locator('#result .stats').textContent();
  const length = Number((await page.locator('#result p b').textContent()).match(/\d+/)[0]);
  const [, bound] = improvements.match(/proven ≥ (\d+)/).map(Number);
  assert.ok(bound <= length, improvements);
  assert.ok(pairs.at(-1)[0] >= length, `the last live best ${seen.at(-1)} is shorter than the answer ${length}`);
  if (bound < length) assert.match(stats, new RegExp(`Lower bound${bound}`));
  assert.ok(await page.locator('#progress-best').isHidden());
  await shot(page, 'anytime-5x5-result');
  await page.close();
});

test('6. a 10x10 solve is never a silent wait: the answer shows at once and "Use this answer" takes it', async () => {
  const page = await open(env, DESKTOP);
  const { data } = await api(env, '/api/random', { size: '10x10', seed: 1 });
  await useBoard(page, data.text);
  await tab(page, 'solve');
  await page.selectOption('#time-limit', '10');
  await page.waitForSelector('#anytime-note');
  assert.match(await page.locator('#anytime-note').textContent(), /answer within milliseconds/);
  const began = Date.now();
  await clickSolve(page);
  await page.waitForSelector('#progress-best:not([hidden])', { timeout: 3000 });
  assert.ok(Date.now() - began < 3000, `the first answer took ${Date.now() - began} ms to show`);
  assert.match(await page.locator('#progress-best').textContent(), LIVE);
  await shot(page, 'anytime-10x10-live');
  await page.click('#finish');
  await page.waitForSelector('#result.ok', { timeout: 4000 });
  assert.ok(Date.now() - began < 6000, `"Use this answer" took until ${Date.now() - began} ms`);
  assert.match(await page.locator('#improvements').textContent(), /Stopped early, as you asked\./);
  assert.ok(await page.locator('#player').isVisible(), 'the answer can be stepped through');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'solve');
  await waitForSearches(env, 0);
  await page.close();
});

test('hint: a 5x5 hint comes within its budget from the anytime engine, with its bound', async () => {
  const began = Date.now();
  const { status, data } = await api(env, '/api/hint', { board: BOARD_5X5, time_limit: 1 });
  assert.equal(status, 200);
  assert.ok(Date.now() - began < 3000, `${Date.now() - began} ms`);
  assert.equal(data.move, data.moves[0]);
  assert.ok(data.lower_bound <= data.remaining && data.remaining === data.moves.length, JSON.stringify(data));
  assert.equal(data.optimal, data.lower_bound === data.remaining);
});

test('hint on the page: a 5x5 hint within 2 s says how far at least', async () => {
  const page = await open(env, DESKTOP);
  await useBoard(page, BOARD_5X5);
  await tab(page, 'play');
  const began = Date.now();
  await page.click('#hint');
  await page.waitForFunction(() => /Hint: slide tile/.test(document.querySelector('#play-status').textContent), null, { timeout: 6000 });
  assert.ok(Date.now() - began < 4000, `the hint took ${Date.now() - began} ms`);
  const text = await page.locator('#play-status').textContent();
  assert.match(text, /\(\d+ moves to go, (optimal|not guaranteed optimal: at least \d+)\)\.$/);
  await page.close();
});
