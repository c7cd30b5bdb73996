// The bundled demos, served from a sub-path as a static host would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useApp, server, browser, cli, shownRanking, repo, openApp, chooseMethods, runAndWait, setMode } from './lib.mjs';


useApp('/lab/sparsefs/');

test('"Load the demo" from a sub-path: preview, a ranking on all the data as the CLI, charts drawn', async () => {
  const { page } = browser;
  assert.match(server.url, /\/lab\/sparsefs\/$/);
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  assert.match(await page.textContent('#data-summary'), /^569 samples × 30 features · comma-separated · header row/);
  const classes = await page.$$eval('#classes tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim()).join(' ')));
  assert.deepEqual(classes, ['benign 357', 'malignant 212']);
  await setMode(page, 'rank');
  await chooseMethods(page, ['fstat', 'fisher']);
  await runAndWait(page);
  assert.match(await page.textContent('#rank-results .notice-inline'), /says nothing about how well the features classify new samples/);
  // The first job (in the order listed: fisher, then fstat) is shown;
  // show fstat's.
  await page.click('#runs tbody tr:nth-child(2) button');
  await page.waitForFunction(() => document.querySelector('#result-summary').textContent.startsWith('fstat'));
  const shown = await shownRanking(page);
  const want = cli('select', '-data', path.join(repo, 'assets', 'demo', 'breast-cancer-wisconsin.csv'), '-method', 'fstat');
  assert.equal(shown.length, 20);
  shown.forEach((row, i) => assert.equal(row.name, want.features[want.ranking[i]]));
  assert.equal(shown[0].name, 'worst concave points');
  // Fisher's score and the F statistic are the same ranking (F is
  // (m−c)/(c−1) times the Fisher ratio): every top feature is in both top 20.
  const freq = await page.$$eval('#ranking tbody tr', (rows) => rows.map((r) => r.cells[4].textContent));
  assert.deepEqual([...new Set(freq)], ['2 / 2']);
  // fstat's p-values and q-values, the CLI's to the three digits shown.
  const pq = await page.$$eval('#ranking tbody tr', (rows) => rows.map((r) => [+r.cells[5].textContent, +r.cells[6].textContent]));
  shown.forEach((row, i) => {
    const j = want.ranking[i];
    assert.ok(Math.abs(pq[i][0] - want.pvalues[j]) <= 0.005 * want.pvalues[j], `${row.name}: p ${pq[i][0]}, CLI ${want.pvalues[j]}`);
    assert.ok(Math.abs(pq[i][1] - want.qvalues[j]) <= 0.005 * want.qvalues[j], `${row.name}: q ${pq[i][1]}, CLI ${want.qvalues[j]}`);
  });
  // The q ≤ 0.05 cut keeps the features of select -k q0.05.
  const cut = cli('select', '-data', path.join(repo, 'assets', 'demo', 'breast-cancer-wisconsin.csv'), '-method', 'fstat', '-k', 'q0.05');
  await page.click('#q-cut');
  assert.equal(await page.getAttribute('#q-cut', 'aria-pressed'), 'true');
  assert.match(await page.textContent('#q-text'), new RegExp(`^${cut.selected.length} of 30 features have a q-value of at most 0.05`));
  await page.fill('#shown', '30');
  await page.press('#shown', 'Tab');
  await page.waitForFunction((n) => document.querySelectorAll('#ranking tbody tr').length === n, cut.selected.length);
  assert.deepEqual((await shownRanking(page)).map((r) => r.column), cut.selected);
  const rankCSV = (await browser.download('#export-ranking')).bytes.toString().split('\n')[0];
  assert.equal(rankCSV, 'rank,feature,index,score,in_top_20_of_2_runs,p_value,q_value');
  await page.click('#q-cut');
  await page.fill('#shown', '20');
  await page.press('#shown', 'Tab');
  // The charts: the top scores of the shown job, the overlap of the two
  // rankings, the score profile and the times, each an SVG with a title.
  const charts = await page.$$eval('.chart-box svg', (svgs) => svgs.map((s) => s.querySelector('title').textContent));
  assert.deepEqual(charts, ['Top 20 scores — fstat', 'Overlap of the top 20 features (Jaccard index)',
    'Score profile: score at each rank ÷ top score', 'Fitting time (in the worker, preprocessing excluded)']);
  // Hover values: the first bar's <title> holds the top feature's score.
  const bar = await page.$eval('#chart-scores rect.bar title', (t) => t.textContent);
  assert.equal(bar, `worst concave points — fstat: ${shown[0].score}`);
  const overlap = await page.$$eval('#chart-overlap rect.cell title', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(overlap, ['fisher × fisher: 1.00', 'fisher × fstat: 1.00', 'fstat × fisher: 1.00', 'fstat × fstat: 1.00']);
  assert.deepEqual(browser.problems, []);
});

test('the digits demo: 1797 × 64, ten classes, constant pixels flagged', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  await page.selectOption('#demo-choice', 'digits');
  await page.click('#demo');
  await page.waitForSelector('#preview');
  assert.match(await page.textContent('#data-summary'), /^1797 samples × 64 features · comma-separated · header row/);
  const classes = await page.$$eval('#classes tbody tr', (rows) => rows.map((r) => r.cells[0].textContent + ':' + r.cells[1].textContent));
  assert.equal(classes.length, 10);
  assert.equal(classes[0], '0:178');
  assert.match(await page.textContent('#preview .warnings'), /3 constant feature\(s\), e\.g\. "pixel_0_0"/);
  await setMode(page, 'rank');
  await chooseMethods(page, ['fisher']);
  await runAndWait(page);
  const shown = await shownRanking(page);
  const want = cli('select', '-data', path.join(repo, 'assets', 'demo', 'digits.csv.gz'), '-method', 'fisher');
  shown.forEach((row, i) => assert.equal(row.column, want.ranking[i]));
  assert.deepEqual(browser.problems, []);
});
