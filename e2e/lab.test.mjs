// The laboratory with several jobs: parameter grids on the pool of workers,
// progress, cancel, convergence plots and |W| heat maps, exports that parse
// back, a saved report that loads back, and the keyboard. These tests use
// dist-e2e/, whose worker also holds a test double (wasm/e2e_selector.go):
// "e2e_slow", an embedded method with a parameter "ms" (milliseconds of
// work per iteration), the objective 1 + 1/k after iteration k and
// W[j][q] = (q+1)/(j+1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useApp, server, browser } from './lib.mjs';
import { gridOnThePool, categoricalChoices, exportsParseBack, cancelRanking, reportLoadsBack, keyboardWalk, noLayoutJump } from './scenarios.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'sparsefs-lab-'));

useApp('/', { dir: 'dist-e2e' }, { width: 1280, height: 900 });

let saved; // the report the grid test saves, loaded back by a later one

test('a parameter grid runs on the pool: one job per value, both workers busy, the page answers during the run', async () => {
  saved = await gridOnThePool(browser, server.url);
});

test('a categorical parameter is a set of choices: each ticked choice is a job', async () => {
  await categoricalChoices(browser);
});

test('exports: the ranking, the reduced data and the charts parse back', async () => {
  await exportsParseBack(browser);
});

test('cancel mid-run stops the running jobs, keeps what finished, and the next run works', async () => {
  await cancelRanking(browser, server.url);
});

test('a saved report loads back: results and configuration, and Run repeats it on the same data', async () => {
  assert.ok(saved, 'the grid test saves the report');
  await reportLoadsBack(browser, server.url, saved, tmp);
});

test('keyboard only: every control on the way is labelled, focus is visible, and a run can be made', async () => {
  await keyboardWalk(browser, server.url);
});

test('no layout jump: the results arrive without moving what is above them', async () => {
  await noLayoutJump(browser, server.url);
});
