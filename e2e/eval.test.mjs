// The evaluation in the browser: the page plans it in a worker, spreads
// its units over the pool, merges them in a worker, and shows the report
// `sparsefs eval` prints for the same data, protocol and seed. Also:
// cancel and resume, exports that parse back (the report re-runs on the
// CLI), a saved report loading back, the synthetic classroom demo with its
// ground truth, and the papers' presets. Uses dist-e2e/ (its worker also
// holds the slow test double e2e_slow, for the cancel test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useApp, server, browser, repo, cli, openApp, chooseMethods, runAndWait, shownRanking, assertSameNumbers, certifiedFits } from './lib.mjs';
import { cancelEvaluationAndResume, presets } from './scenarios.mjs';

const demo = path.join(repo, 'assets', 'demo', 'breast-cancer-wisconsin.csv');

useApp('/', { dir: 'dist-e2e' }, { width: 1280, height: 900 });

// noTimes drops what may differ between two runs of the same request:
// timings, and where the data were read from.
function noTimes(rep) {
  return JSON.parse(JSON.stringify(rep, (k, v) => (k === 'seconds' || k === 'fit_seconds' || k === 'path' ? undefined : v)));
}

// withoutWeights drops the |W| rows the page asks for (sparsefs eval has
// no flag for them; they change nothing else).
function withoutWeights(rep) {
  return JSON.parse(JSON.stringify(rep, (k, v) => (k === 'weights' || k === 'weight_rows' ? undefined : v)));
}

const pct = (x) => (100 * x).toFixed(1);
const cell = (m, s) => (Number.isNaN(s) || s === null ? pct(m) : `${pct(m)} ± ${pct(s)}`);

let savedReport; // the report of the first test, loaded back by a later one

test('demo → evaluation: one point per K on the accuracy charts, the numbers of sparsefs eval, the report re-runs on the CLI', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  assert.equal(await page.isChecked('#mode-eval'), true, 'evaluating is the default');
  await chooseMethods(page, ['fisher', 'fstat', 'exl21']);
  await page.fill('#folds', '4');
  await page.fill('#seed', '7');
  await page.fill('#klist', '5, 10, 20');
  await page.check('#cls-knn');
  await page.fill('#knn-k', '3');
  assert.equal(await page.textContent('#plan'), 'Run will evaluate 3 settings × 4 folds = 12 units on 2 workers.');
  await runAndWait(page);
  assert.match(await page.textContent('#progress-text'), /^12 of 12 units done · report merged · [\d.]+ s$/);
  // The worker that planned the run collected the parts as they came and
  // merged them (no fallback to sending them all at the end).
  assert.equal(await page.evaluate(() => performance.getEntriesByName('sparsefs-eval-merge-all').length), 0);
  // The accuracy charts: one per classifier, one line per selector, one
  // point per K.
  for (const cls of ['svm', 'knn']) {
    await page.waitForSelector(`#chart-accuracy-${cls} svg`);
    assert.equal(await page.$$eval(`#chart-accuracy-${cls} path.line`, (p) => p.length), 3);
    assert.equal(await page.$$eval(`#chart-accuracy-${cls} .mark`, (m) => m.length), 9);
  }
  const titles = await page.$$eval('#charts svg > title', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(titles, ['Accuracy vs K — svm(C=1,ovo,free bias)', 'Accuracy vs K — knn(k=3)', 'Stability of the selected features across the splits',
    'Redundancy rate of the top K features', 'Sparsity level of W (K = 20)', 'Fitting time per split (in the worker)', 'Convergence — exl21']);
  // sparsefs eval with the same data, protocol and seed.
  const want = cli('eval', '-data', demo, '-methods', 'fisher,fstat,exl21', '-k', '5,10,20', '-classifier', 'svm,knn', '-neighbors', '3',
    '-cv', '4', '-seed', '7');
  const rows = await page.$$eval('#acc-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].slice(0, 5).map((c) => c.textContent)));
  const expected = [];
  want.results.forEach((vr) => want.classifiers.forEach((c, q) => {
    expected.push([vr.method, 'accuracy % · ' + c.split('(')[0], ...vr.accuracy[q].mean.map((m, i) => cell(m, vr.accuracy[q].std[i]))]);
  }));
  assert.deepEqual(rows, expected);
  // The hover value of a point: the mean accuracy itself, in % as in the
  // table.
  const mark = await page.$eval('#chart-accuracy-svm .mark title', (t) => t.textContent);
  assert.match(mark, /^fisher: K 5, accuracy \d+(\.\d+)?% \(band /);
  assert.ok(Math.abs(Number(mark.match(/accuracy ([\d.]+)%/)[1]) - 100 * want.results[0].accuracy[0].mean[0]) < 1e-1);
  // The report saved from the page: the CLI's numbers, every parameter and
  // the seed; -request re-runs it to the same report.
  const saved = await browser.download('#export-report');
  assert.equal(saved.name, 'sparsefs-breast-cancer-wisconsin-report.json');
  savedReport = saved.file;
  const rep = JSON.parse(saved.bytes);
  assert.equal(rep.request.eval.seed, 7);
  assert.deepEqual(rep.request.eval.protocol, { kind: 'cv', folds: 4 });
  assert.deepEqual(rep.request.eval.classifiers, [{ name: 'svm', C: 1, multiclass: 'ovo', bias: 'free' }, { name: 'knn', neighbors: 3 }]);
  assert.equal(rep.request.eval.methods[2].params.alpha, 1); // every parameter written in
  assert.equal(rep.dataset.sha256, want.dataset.sha256);
  const strip = (r) => withoutWeights(noTimes({ features: r.features, k: r.k, classifiers: r.classifiers, splits: r.splits, results: r.results, warnings: r.warnings }));
  // exl21 (results[2]) is compared as a certified optimum (certifiedFits).
  assertSameNumbers(strip(rep), strip(want), '$', 0, certifiedFits(want, 2));
  assert.ok(rep.results[2].units[0].fits[0].weights.rows.length === 20, '|W| rows for the heat map');
  const again = cli('eval', '-request', saved.file, '-data', demo);
  assertSameNumbers(noTimes(again), noTimes(rep), '$', 0, certifiedFits(rep, 2));
  // The ranking across the folds: fisher's, by how many folds' top K
  // hold each feature.
  const ranking = await shownRanking(page);
  assert.equal(ranking.length, 20);
  const top20 = want.results[0].units.map((u) => u.selected[2]);
  const count = (j) => top20.filter((s) => s.includes(j)).length;
  assert.equal(await page.$eval('#ranking thead', (h) => h.textContent.includes('in the top 20 of the splits')), true);
  const freq = await page.$$eval('#ranking tbody tr', (trs) => trs.map((tr) => tr.cells[4].textContent));
  ranking.forEach((r, i) => assert.equal(freq[i], `${count(r.column)} / 4`, r.name));
  assert.deepEqual(ranking.slice(0, 5).map((r) => count(r.column)), [4, 4, 4, 4, 4]);
  // exl21: its |W| heat map and its per-class selection on a split.
  await page.selectOption('#detail-variant', '2');
  await page.selectOption('#detail-split', '1');
  await page.waitForSelector('#chart-weights svg');
  const fit = want.results[2].units[1].fits[0];
  const split = await shownRanking(page);
  assert.deepEqual(split.map((r) => r.column), fit.ranking.slice(0, 20));
  const perClass = await page.$$eval('#per-class tbody tr', (trs) => trs.map((tr) => [...tr.cells].slice(1).map((c) => c.textContent)));
  assert.deepEqual(perClass[0], fit.per_class.map((r) => want.features[r[0]]));
  assert.equal(await page.$$eval('#chart-weights rect.cell', (c) => c.length), 20 * 2);
  // The ranking and the reduced data parse back.
  const csv = (await browser.download('#export-ranking')).bytes.toString().trim().split('\n').map((l) => l.split(','));
  assert.deepEqual(csv[0], ['rank', 'feature', 'index', 'score']);
  assert.deepEqual(csv.slice(1, 21).map((r) => +r[2]), fit.ranking.slice(0, 20));
  const reduced = (await browser.download('#export-reduced'));
  assert.equal(reduced.name, 'breast-cancer-wisconsin-top20.csv');
  const head = reduced.bytes.toString().split('\n')[0].split(',');
  assert.deepEqual(head, [...fit.ranking.slice(0, 20).map((j) => want.features[j]), 'diagnosis']);
  assert.deepEqual(browser.problems, []);
});

// rraP is robust rank aggregation's p-value of one feature's normalised
// ranks r (Kolde et al. 2012): ρ = min over k of P(U₍ₖ₎ ≤ r₍ₖ₎) for L
// uniform variables, the binomial tail Σ_{j≥k} C(L,j) xʲ(1−x)^{L−j}, and
// p = min(1, L·ρ) — written here afresh, to check the page's consensus.
function rraP(r) {
  const s = [...r].sort((a, b) => a - b);
  const L = s.length;
  const choose = (n, k) => { let c = 1; for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i; return c; };
  let rho = 1;
  s.forEach((x, k) => {
    let tail = 0;
    for (let j = k + 1; j <= L; j++) tail += choose(L, j) * x ** j * (1 - x) ** (L - j);
    rho = Math.min(rho, tail);
  });
  return Math.min(1, L * rho);
}

test('results that read themselves: the summary in words, accuracy in %, the legend hides a selector, stability, the selectors compared', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await chooseMethods(page, ['fisher', 'fstat', 'relieff']);
  await page.fill('#folds', '4');
  await page.fill('#seed', '7');
  await page.fill('#klist', '2, 5, 30');
  await runAndWait(page);
  const want = cli('eval', '-data', demo, '-methods', 'fisher,fstat,relieff', '-k', '2,5,30', '-classifier', 'svm', '-cv', '4', '-seed', '7');
  // The summary: the best mean of the CLI's report (the first of equals,
  // the smaller K first), all 30 features, the stability there.
  let best = null;
  // Among the selections (K < 30): K = 30 is every feature.
  want.results.forEach((vr, v) => vr.accuracy[0].mean.forEach((m, ki) => {
    if (want.k[ki] < 30 && (!best || m > best.m || (m === best.m && want.k[ki] < want.k[best.ki]))) best = { v, ki, m };
  }));
  const vr = want.results[best.v];
  await page.waitForSelector('#results-summary');
  assert.equal(await page.getAttribute('#results-summary', 'tabindex'), '-1');
  const summary = await page.textContent('#results-summary p');
  const sd = (x) => (100 * x).toFixed(1);
  assert.ok(summary.startsWith(`Best accuracy with the linear SVM: ${vr.method}, keeping ${want.k[best.ki]} of 30 features — ${sd(best.m)}% ± ${sd(vr.accuracy[0].std[best.ki])}%`), summary);
  assert.ok(summary.includes(`With all 30 features: ${sd(vr.accuracy[0].mean[2])}% ± ${sd(vr.accuracy[0].std[2])}%.`), summary);
  assert.ok(summary.includes(`stability ${vr.stability.index[best.ki].toFixed(2)} (95% interval ${vr.stability.ci_low[best.ki].toFixed(2)} to ${Math.min(1, vr.stability.ci_high[best.ki]).toFixed(2)})`), summary);
  // Accuracy in % on the chart's axis as in the table; no axis below 0.
  const yLabel = await page.$eval('#chart-accuracy-svm .y-axis text.label', (t) => t.textContent);
  assert.equal(yLabel, 'Accuracy (%)');
  for (const id of ['accuracy-svm', 'time', 'redundancy', 'stability']) {
    const ticks = await page.$$eval(`#chart-${id} .axis text.tick`, (ts) => ts.map((t) => t.textContent));
    assert.ok(ticks.every((t) => !/^[-−]/.test(t)), `${id}: ${ticks}`);
  }
  // The stability chart: a line per selector, its points the CLI's index.
  const stab = await page.$$eval('#chart-stability .mark title', (ts) => ts.map((t) => t.textContent));
  assert.ok(stab.includes(`fisher: K 5, stability ${+want.results[0].stability.index[1].toFixed(4)}`) || stab.some((t) => t.startsWith('fisher: K 5, stability ')), stab.join('|'));
  assert.equal(await page.$$eval('#chart-stability path.line', (p) => p.length), 3);
  // The legend hides fisher on every chart, and shows it again.
  await page.click('#series-legend button >> nth=0');
  assert.equal(await page.getAttribute('#series-legend button >> nth=0', 'aria-pressed'), 'false');
  await page.waitForFunction(() => document.querySelectorAll('#chart-accuracy-svm path.line').length === 2);
  assert.equal(await page.$$eval('#chart-stability path.line', (p) => p.length), 2);
  assert.equal(await page.$$eval('#chart-accuracy-svm .mark title', (ts) => ts.filter((t) => t.textContent.startsWith('fisher:')).length), 0);
  await page.click('#series-legend button >> nth=0');
  await page.waitForFunction(() => document.querySelectorAll('#chart-accuracy-svm path.line').length === 3);
  // The selectors compared at the K of the details (5): their top 5 side
  // by side, the overlap, a consensus whose p-values are robust rank
  // aggregation's of the ranks the CSV lists.
  await page.selectOption('#detail-k', '1');
  await page.click('#compare-show');
  await page.waitForSelector('#compare-top tbody tr');
  assert.deepEqual(await page.$$eval('#compare-top thead th', (ts) => ts.map((t) => t.textContent)), ['rank', 'fisher', 'fstat', 'relieff']);
  assert.equal(await page.$$eval('#compare-top tbody tr', (trs) => trs.length), 5);
  await page.waitForSelector('#chart-compare-overlap svg');
  const diag = await page.$$eval('#compare-overlap tbody tr', (trs) => trs.map((tr, i) => tr.cells[i + 1].textContent));
  assert.deepEqual(diag, ['1.00', '1.00', '1.00']);
  const csv = (await browser.download('#export-compare')).bytes.toString().trim().split('\n').map((l) => l.split(','));
  assert.deepEqual(csv[0], ['consensus_rank', 'feature', 'index', 'consensus_p', 'in_top_5_of_selectors', 'fisher rank', 'fisher splits', 'fstat rank', 'fstat splits', 'relieff rank', 'relieff splits']);
  assert.equal(csv.length, 31);
  for (const row of csv.slice(1)) {
    const p = rraP([+row[5] / 30, +row[7] / 30, +row[9] / 30]);
    assert.ok(Math.abs(p - +row[3]) <= 1e-5 * Math.max(p, 1e-300), `${row[1]}: page ${row[3]}, recomputed ${p}`);
  }
  // fisher's splits column is the CLI's: in how many folds' top 5.
  const top5 = want.results[0].units.map((u) => u.selected[1]);
  for (const row of csv.slice(1)) assert.equal(+row[6], top5.filter((s) => s.includes(+row[2])).length, row[1]);
  const consensus = await page.$$eval('#consensus tbody tr', (trs) => trs.map((tr) => tr.cells[1].textContent));
  assert.deepEqual(consensus.slice(0, 5), csv.slice(1, 6).map((r) => r[1]));
  // A feature's values by class: "mean area" (column 3) as the demo file
  // holds them, 357 benign and 212 malignant, with each class's median
  // (read here from the file).
  await page.selectOption('#values-feature', '3');
  await page.waitForFunction(() => document.querySelector('#chart-values svg > title')?.textContent === 'mean area by class');
  assert.equal(await page.$$eval('#chart-values circle.dot', (d) => d.length), 569);
  await page.click('#fig-values .show-table');
  const byClass = {};
  readFileSync(demo, 'utf8').trim().split('\n').slice(1).forEach((l) => { const c = l.split(','); (byClass[c[30]] ||= []).push(+c[3]); });
  const table = await page.$$eval('#values-values tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(table.map((r) => [r[0], r[1]]), [['benign', '357'], ['malignant', '212']]);
  for (const r of table) {
    const v = byClass[r[0]].sort((a, b) => a - b);
    const med = (v[v.length >> 1] + v[(v.length - 1) >> 1]) / 2;
    assert.ok(Math.abs(+r[3] - med) <= 1e-3 * med, `${r[0]}: median ${r[3]}, file ${med}`);
  }
  // Every chart's values as a table: the accuracy chart's, the CLI's means.
  await page.click('#fig-accuracy-svm .show-table');
  assert.equal(await page.getAttribute('#fig-accuracy-svm .show-table', 'aria-expanded'), 'true');
  const accRows = await page.$$eval('#values-accuracy-svm tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(accRows.length, 3);
  // (four significant digits, as the hover values)
  accRows.forEach((row, ki) => want.results.forEach((vr, v) => assert.ok(Math.abs(parseFloat(row[v + 1]) - 100 * vr.accuracy[0].mean[ki]) < 6e-3, `${row[v + 1]} vs ${vr.accuracy[0].mean[ki]}`)));
  assert.deepEqual(browser.problems, []);
});

test('a saved evaluation report loads back: results, configuration and demo; Run repeats it', async () => {
  assert.ok(savedReport, 'the first test saves a report');
  const { page } = browser;
  await openApp(page, server.url);
  await page.setInputFiles('#report-file', savedReport);
  await page.waitForSelector('#acc-table tbody tr');
  assert.match(await page.textContent('#notice'), /^Evaluation report loaded: 3 settings × 4 splits on breast-cancer-wisconsin\.csv \(demo\)\./);
  const shownBefore = await page.$$eval('#acc-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
  await page.waitForSelector('#chart-accuracy-knn svg');
  // The configuration is restored and the demo loaded again.
  assert.equal(await page.inputValue('#klist'), '5, 10, 20');
  assert.equal(await page.inputValue('#folds'), '4');
  assert.equal(await page.inputValue('#seed'), '7');
  assert.equal(await page.inputValue('#knn-k'), '3');
  assert.equal(await page.isChecked('#cls-knn'), true);
  assert.equal(await page.isChecked('#m-exl21'), true);
  await page.waitForSelector('#preview');
  await page.waitForFunction(() => /Run repeats it/.test(document.querySelector('#report-note')?.textContent || ''));
  await runAndWait(page);
  const shownAfter = await page.$$eval('#acc-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
  const noTime = (rows) => rows.map((r) => r.replace(/[\d.]+ m?s ± [\d.]+ m?s/, ''));
  assert.deepEqual(noTime(shownAfter), noTime(shownBefore));
  assert.deepEqual(browser.problems, []);
});

test('cancel mid-evaluation keeps the finished units; Run finishes the others; the next run works', async () => {
  await cancelEvaluationAndResume(browser, server.url);
});

test('Generate data: the synthetic demo, its ground truth in the results, the file sparsefs synth writes', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  await page.click('#generate summary');
  for (const [id, v] of [['#syn-m', '120'], ['#syn-d1', '3'], ['#syn-d2', '20'], ['#syn-c', '3'], ['#syn-seed', '5']]) {
    await page.fill(id, v);
  }
  assert.match(await page.textContent('#synth-line'), /^120 samples × 29 features \(6 informative, 3 redundant, 20 irrelevant\), 3 classes\. The same file: sparsefs synth -m 120 -d1 3 -d2 20 -c 3 -outliers 0 -seed 5 -task classification/);
  await page.click('#generate-data');
  await page.waitForSelector('#preview');
  assert.equal(await page.textContent('#file-name'), 'synthetic-m120-d1_3-d2_20-c3-out0-seed5.csv');
  const saved = await browser.download('#save-data');
  const synth = execFileSync(path.join(repo, 'bin', 'sparsefs'), ['synth', '-m', '120', '-d1', '3', '-d2', '20', '-c', '3', '-seed', '5', '-task', 'classification']);
  assert.ok(saved.bytes.equals(synth), 'the page generates the file of sparsefs synth');
  await chooseMethods(page, ['fisher', 'l1svm']);
  await page.fill('#klist', '3, 6, 12');
  await runAndWait(page);
  // Informative features among the top K, and the best share possible.
  await page.waitForSelector('#chart-truth svg');
  const best = await page.$$eval('#chart-truth .mark title', (ts) => ts.map((t) => t.textContent).filter((t) => t.startsWith('the best')));
  assert.deepEqual(best, ['the best possible: K 3, share informative 1', 'the best possible: K 6, share informative 1', 'the best possible: K 12, share informative 0.5']);
  // The ranking marks the ground truth: the generator's f1…f6.
  const truth = await page.$$eval('#ranking tbody tr', (trs) => trs.map((tr) => [tr.cells[1].textContent, tr.cells[6].textContent]));
  for (const [name, role] of truth) {
    const j = Number(name.slice(1));
    assert.equal(role, j <= 6 ? '★ informative' : j <= 9 ? 'redundant' : 'irrelevant', name);
  }
  // fisher finds them: no irrelevant feature among its first six (a
  // redundant one — the average of two informative ones — may lead).
  assert.ok(truth.slice(0, 6).every((t) => t[1] !== 'irrelevant'), truth.slice(0, 6).join(' '));
  // A saved report names the generated data: loading it makes them again.
  const rep = await browser.download('#export-report');
  await openApp(page, server.url);
  await page.setInputFiles('#report-file', rep.file);
  await page.waitForFunction(() => document.querySelector('#file-name')?.textContent === 'synthetic-m120-d1_3-d2_20-c3-out0-seed5.csv');
  await page.waitForSelector('#chart-truth svg');
  assert.deepEqual(browser.problems, []);
});

test('presets: reproduce rfs-nie-2010 Table 1 sets the paper’s protocol', async () => {
  await presets(browser, server.url);
});
