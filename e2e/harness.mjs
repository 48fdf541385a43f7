// Shared set-up of the end-to-end tests: one `npuzzle serve --port 0` and one headless
// Chromium (Debian's, driven by playwright-core) per test file, pages at chosen viewports,
// screenshots into e2e/screenshots/, and helpers that act as a person would.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.NPUZZLE_BIN || join(here, '..', 'target', 'release', 'npuzzle');
export const shots = join(here, 'screenshots');
mkdirSync(shots, { recursive: true });

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Starts the server (with `args` besides the usual) and the browser; `env.url` is the page's address. */
export async function start(env, args = []) {
  env.server = spawn(binary, ['serve', '--port', '0', '--max-concurrent', '2', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  env.url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npuzzle serve did not print its URL')), 15000);
    let out = '';
    env.server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/\S+\//);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    });
    env.server.on('exit', (code) => reject(new Error(`npuzzle serve exited with ${code}`)));
  });
  env.profile = mkdtempSync(join(tmpdir(), 'npuzzle-chromium-'));
  env.context = await chromium.launchPersistentContext(env.profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: DESKTOP,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  env.problems = [];
}

export async function stop(env) {
  await env.context?.close();
  env.server?.kill();
  if (env.profile) rmSync(env.profile, { recursive: true, force: true });
}

/** A fresh page at a viewport, loaded and ready. Page errors are collected in env.problems. */
export async function open(env, viewport = DESKTOP, path = '/') {
  const page = await env.context.newPage();
  await page.setViewportSize(viewport);
  page.on('pageerror', (e) => env.problems.push(`page error: ${e.message}`));
  await page.goto(new URL(path, env.url).href);
  await page.waitForSelector('body[data-ready=true]');
  return page;
}

export function shot(page, name) {
  return page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** The board as drawn: tile numbers by cell, read from the tiles' positions. */
export function drawnBoard(page) {
  return page.evaluate(() => {
    const tiles = [...document.querySelectorAll('#board .tile')];
    const board = new Array(tiles.length + 1).fill(0);
    for (const t of tiles) board[Number(t.dataset.cell)] = Number(t.dataset.tile);
    return board;
  });
}

/** Waits (up to 3 s) until the drawn board is `expected`, then checks it. Moves are drawn
 * at once, but the board is laid out again after a board is set or a tab is opened. */
export async function expectBoard(page, expected) {
  const until = Date.now() + 3000;
  let board = await drawnBoard(page);
  while (JSON.stringify(board) !== JSON.stringify(expected) && Date.now() < until) {
    await page.waitForTimeout(50);
    board = await drawnBoard(page);
  }
  assert.deepEqual(board, expected);
}

export async function tab(page, name) {
  await page.click(`[role=tab][data-tab=${name}]`);
}

/** Types a board into the text field (on the Edit tab) and submits it. */
export async function useBoard(page, text) {
  if (!(await page.locator('#board-text').isVisible())) await tab(page, 'edit');
  await page.fill('#board-text', text);
  await page.click('#text-form button[type=submit]');
}

/** Clicks Solve (opening the Solve tab first where the button lives there). */
export async function clickSolve(page) {
  if (!(await page.locator('#solve').isVisible())) await tab(page, 'solve');
  await page.click('#solve');
}

export async function api(env, path, body) {
  const r = await fetch(new URL(path, env.url), { method: 'POST', body: JSON.stringify(body) });
  return { status: r.status, data: await r.json().catch(() => null) };
}

export async function busy(env) {
  return (await (await fetch(new URL('/api/info', env.url))).json()).busy;
}

/** Asserts that the page does not scroll sideways. */
export async function assertNoSideScroll(page, where) {
  const { sw, iw } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: window.innerWidth }));
  assert.ok(sw <= iw, `${where}: the page is ${sw} px wide in a ${iw} px window`);
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function axeViolations(page) {
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/** Waits until the server runs `n` searches. */
export async function waitForSearches(env, n) {
  for (let i = 0; i < 100; i++) {
    if ((await busy(env)).searches === n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`expected ${n} searches on the server, have ${(await busy(env)).searches}`);
}
