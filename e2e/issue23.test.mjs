// Issue 23, "One contract everywhere": the page carries no planner of its own. What the
// menus offer and what auto would run come from the server's `GET /api/plan` alone; when
// that fails, the page says so instead of guessing (it used to fall back on rules of its own,
// written for an older server, that claimed optimality and tables the server would refuse).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, open, start, stop } from './harness.mjs';

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
