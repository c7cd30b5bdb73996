// The laboratory with several jobs: parameter grids on the pool of workers,
// progress, cancel, convergence plots and |W| heat maps, exports that parse
// back, a saved report that loads back, and the keyboard. These tests use
// dist-e2e/, whose worker also holds a test double (wasm/e2e_selector.go):
// "e2e_slow", an embedded method with a parameter "ms" (milliseconds of
// work per iteration), the objective 1 + 1/k after iteration k and
// W[j][q] = (q+1)/(j+1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useApp, server, browser, repo, chooseMethods, runAndWait, shownRanking } from './lib.mjs';
import { loadDigits, runStates, gridOnThePool, reportLoadsBack, keyboardWalk } from './scenarios.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'sparsefs-lab-'));

useApp('/', { dir: 'dist-e2e' }, { width: 1280, height: 900 });

// The digits demo as a table of text: [header, ...rows].
function digits() {
  const text = gunzipSync(readFileSync(path.join(repo, 'assets', 'demo', 'digits.csv.gz'))).toString();
  return text.trim().split('\n').map((l) => l.split(','));
}

let saved; // the report the grid test saves, loaded back by a later one

test('a parameter grid runs on the pool: one job per value, both workers busy, the page stays responsive', async () => {
  saved = await gridOnThePool(browser, server.url);
});

test('a categorical parameter is a set of choices: each ticked choice is a job', async () => {
  const { page } = browser;
  await page.click('#runs tbody tr:nth-child(1) button'); // keep the grid's results as they are
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  assert.equal(await page.isChecked('#p-e2e_slow-shape-flat'), true); // the default
  await page.check('#p-e2e_slow-shape-steep');
  assert.equal(await page.textContent('#plan'), 'Run will fit 7 jobs on 2 workers.');
  await page.uncheck('#p-e2e_slow-shape-flat');
  assert.equal(await page.textContent('#plan'), 'Run will fit 4 jobs on 2 workers.');
  await page.uncheck('#p-e2e_slow-shape-steep'); // none left: the default again
  assert.equal(await page.isChecked('#p-e2e_slow-shape-flat'), true);
  assert.equal(await page.textContent('#plan'), 'Run will fit 4 jobs on 2 workers.');
});

test('exports: the ranking, the reduced data and the charts parse back', async () => {
  const { page } = browser;
  await page.click('#runs tbody tr:nth-child(1) button'); // fisher
  await page.waitForFunction(() => document.querySelector('#result-summary').textContent.startsWith('fisher'));
  const shown = await shownRanking(page);
  const ranking = await browser.download('#export-ranking');
  assert.equal(ranking.name, 'fisher-ranking.csv');
  const rows = ranking.bytes.toString().trim().split('\n').map((l) => l.split(','));
  assert.deepEqual(rows[0], ['rank', 'feature', 'index', 'score', 'in_top_20_of_4_runs']);
  assert.equal(rows.length, 65);
  shown.forEach((r, i) => {
    assert.deepEqual(rows[i + 1].slice(0, 3), [String(r.rank), r.name, String(r.column)]);
    assert.ok(Math.abs(+rows[i + 1][3] - +r.score) <= 5e-4 * Math.abs(+r.score), `${rows[i + 1][3]} vs ${r.score}`);
  });
  // The reduced data: the top 20 features in ranking order and the class,
  // the numbers as in the original file.
  const reduced = await browser.download('#export-reduced');
  assert.equal(reduced.name, 'digits-top20.csv');
  const red = reduced.bytes.toString().trim().split('\n').map((l) => l.split(','));
  const orig = digits();
  assert.equal(red.length, orig.length);
  assert.deepEqual(red[0], [...shown.map((r) => r.name), 'digit']);
  for (let i = 1; i < orig.length; i++) {
    assert.deepEqual(red[i], [...shown.map((r) => orig[i][r.column]), orig[i][64]], `row ${i}`);
  }
  // A chart as SVG: a standalone file with its own colours.
  await page.click('#runs tbody tr:nth-child(2) button');
  await page.waitForSelector('#chart-weights svg');
  const svg = await browser.download('#fig-conv-e2e_slow .save-svg');
  assert.equal(svg.name, 'sparsefs-conv-e2e_slow.svg');
  const text = svg.bytes.toString();
  assert.match(text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(text, /<title id="conv-e2e_slow-title">Convergence — e2e_slow<\/title>/);
  assert.ok(!/style=|<style|<script/.test(text));
  // The browser reads it back as an image of the declared size.
  const declared = text.match(/<svg [^>]*width="(\d+)" height="(\d+)"/).slice(1).map(Number);
  assert.equal(declared[0], 640);
  const size = await page.evaluate(async (t) => {
    const img = new Image();
    img.src = URL.createObjectURL(new Blob([t], { type: 'image/svg+xml' }));
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  }, text);
  assert.deepEqual(size, declared);
  // As PNG: drawn at twice the size.
  const png = await browser.download('#fig-conv-e2e_slow .save-png');
  assert.equal(png.name, 'sparsefs-conv-e2e_slow.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], declared.map((v) => 2 * v));
  assert.deepEqual(browser.problems, []);
});

test('cancel mid-run stops the workers at once, keeps what finished, and the next run works', async () => {
  const { page } = browser;
  await loadDigits(page, server.url);
  await chooseMethods(page, ['e2e_slow']);
  // 1.6–1.7 s a job, two at a time: from the first job's end to the
  // fourth's, 1 to 3 jobs are done and 2 run, for 1.7 s (with 40–45 ms
  // that state lasted 0.9 s, less than two renders apart during a run).
  await page.fill('#p-e2e_slow-ms', '80, 81, 82, 83, 84, 85');
  await page.fill('#p-e2e_slow-max_iter', '20');
  await page.click('#run');
  await page.waitForFunction(() => /^[1-3] of 6 done · 2 running/.test(document.querySelector('#progress-text').textContent), null, { timeout: 30000 });
  const t0 = Date.now();
  await page.click('#cancel');
  await page.waitForFunction(() => /cancelled/.test(document.querySelector('#progress-text').textContent));
  const took = Date.now() - t0;
  assert.ok(took < 1000, `cancelling took ${took} ms`);
  const states = await runStates(page);
  const done = states.filter((s) => s === 'done').length;
  assert.ok(done >= 1 && done <= 3, states.join(' '));
  assert.equal(states.filter((s) => s === 'cancelled').length, 6 - done);
  assert.match(await page.textContent('#notice'), new RegExp(`^Cancelled ${6 - done} jobs; the results already finished are kept\\.`));
  // The finished results are still shown.
  assert.equal((await shownRanking(page)).length, 20);
  assert.deepEqual(await page.$$eval('#running li', (l) => l.map((x) => x.textContent)), ['worker 1 · idle', 'worker 2 · idle']);
  // Fresh workers take the next run (they get the data again).
  await page.fill('#p-e2e_slow-ms', '1');
  await page.fill('#p-e2e_slow-max_iter', '5');
  await chooseMethods(page, ['e2e_slow', 'fisher']);
  await runAndWait(page);
  assert.deepEqual(await runStates(page), ['done', 'done']);
  assert.deepEqual(browser.problems, []);
});

test('a saved report loads back: results and configuration, and Run repeats it on the same data', async () => {
  assert.ok(saved, 'the grid test saves the report');
  await reportLoadsBack(browser, server.url, saved, tmp);
});

test('keyboard only: every control on the way is labelled, focus is visible, and a run can be made', async () => {
  await keyboardWalk(browser, server.url);
});

test('no layout jump: the results arrive without moving what is above them', async () => {
  const { page } = browser;
  await loadDigits(page, server.url);
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  // 2 s of work, so that a render (every 0.5 s during a run) shows it
  // running (with 0.4 s a render could miss it).
  await page.fill('#p-e2e_slow-ms', '100');
  await page.fill('#p-e2e_slow-max_iter', '20');
  const top = () => page.$eval('#results-h', (h) => h.getBoundingClientRect().top + window.scrollY);
  const before = await top();
  await page.click('#run');
  await page.waitForFunction(() => /running/.test(document.querySelector('#progress-text').textContent));
  const during = await top();
  await page.waitForFunction(() => /^2 of 2 done/.test(document.querySelector('#progress-text').textContent), null, { timeout: 30000 });
  const afterRun = await top();
  assert.deepEqual([during, afterRun], [before, before]);
});
