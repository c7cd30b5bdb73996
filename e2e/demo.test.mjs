// The bundled demo, served from a sub-path as a static host would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, startBrowser, cli, shownRanking, repo } from './lib.mjs';

let server, browser;

before(async () => {
  server = await startServer('/lab/sparsefs/');
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

test('"Try the demo" from a sub-path: preview, run, ranking as the CLI', async () => {
  const { page } = browser;
  assert.match(server.url, /\/lab\/sparsefs\/$/);
  await page.goto(server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  assert.match(await page.textContent('#data-summary'), /^569 samples × 30 features · comma-separated · header row/);
  const classes = await page.$$eval('#classes tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim()).join(' ')));
  assert.deepEqual(classes, ['benign 357', 'malignant 212']);
  await page.selectOption('#method', 'fstat');
  await page.click('#run');
  await page.waitForSelector('#ranking tbody tr');
  const shown = await shownRanking(page);
  const want = cli('select', '-data', path.join(repo, 'assets', 'demo', 'breast-cancer-wisconsin.csv'), '-method', 'fstat');
  assert.equal(shown.length, 20);
  shown.forEach((row, i) => assert.equal(row.name, want.features[want.ranking[i]]));
  assert.equal(shown[0].name, 'worst concave points');
  assert.deepEqual(browser.problems, []);
});
