// Test bodies that both browsers run: the Chromium tests (lab.test.mjs,
// eval.test.mjs, offline.test.mjs) and the Firefox test (firefox.mjs) call
// them with a browser from lib.mjs (startBrowser or startFirefox) and the
// URL of the site. Those marked "dist-e2e" need the test double e2e_slow
// (wasm/e2e_selector.go): an embedded "method" with a parameter "ms"
// (milliseconds of work per iteration, wall-clock time), the objective
// 1 + 1/k after iteration k and W[j][q] = (q+1)/(j+1).
//
// Timing: while a run goes on the page renders only every 0.5 s
// (ui/browser_js.go renderEveryBusy), and on a loaded machine a render, a
// worker's data preparation or a click over the driver's protocol can
// take a few tenths of a second more. Every state waited for during a
// run therefore lasts well over a second.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApp, chooseMethods, runAndWait, shownRanking, setMode, runs, waitRun, controlled } from './lib.mjs';

// loadDigits opens the digits demo, ready to rank on all the data.
export async function loadDigits(page, url) {
  await openApp(page, url);
  await page.selectOption('#demo-choice', 'digits');
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await setMode(page, 'rank');
}

// runStates reads the state column of the jobs' table.
export async function runStates(page) {
  return page.$$eval('#runs tbody tr', (rows) => rows.map((r) => r.cells[1].textContent));
}

// showJob shows the i-th job of the table (from 1) and waits until it is
// the one shown.
export async function showJob(page, i) {
  await page.click(`#runs tbody tr:nth-child(${i}) button`);
  await page.waitForFunction((n) => document.querySelectorAll('#runs tbody tr')[n - 1].classList.contains('focus'), i);
}

// gridOnThePool (dist-e2e) runs a parameter grid of e2e_slow beside fisher
// on the digits demo in two workers, checks that both workers are busy at
// once and the page stays responsive, the convergence plot and the |W|
// heat map, saves the report and returns {file, rankings}: the saved
// report and the four jobs' rankings (columns).
export async function gridOnThePool(browser, url) {
  const { page } = browser;
  await loadDigits(page, url);
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  // 0.9, 1.8 and 2.7 s of work: the slots are filled as fisher, ms 30 |
  // ms 60, ms 90, so both workers hold a job for the first 1.8 s (with
  // 5, 10, 15 ms the overlap was 0.25 s and a render could miss it).
  await page.fill('#p-e2e_slow-ms', '30, 60, 90');
  await page.fill('#p-e2e_slow-max_iter', '30');
  assert.equal(await page.textContent('#plan'), 'Run will fit 4 jobs on 2 workers.');
  // The longest gap between timer ticks on the page's thread while the
  // run goes on: the page must never freeze.
  await page.evaluate(() => {
    self.maxGap = 0;
    let last = performance.now();
    self.gapTimer = setInterval(() => {
      const now = performance.now();
      self.maxGap = Math.max(self.maxGap, now - last);
      last = now;
    }, 20);
  });
  await page.click('#run');
  // Both workers busy at once (read in one go: the page re-renders often).
  await page.waitForFunction(() => {
    const lines = [...document.querySelectorAll('#running li')].map((l) => l.textContent);
    return lines.length === 2 && /^worker 1 · (fisher|e2e_slow)/.test(lines[0]) && /^worker 2 · (fisher|e2e_slow)/.test(lines[1]);
  });
  await page.waitForFunction(() => /^4 of 4 done/.test(document.querySelector('#progress-text').textContent), null, { timeout: 60000 });
  const maxGap = await page.evaluate(() => { clearInterval(self.gapTimer); return self.maxGap; });
  console.log(`longest pause of the page's thread during the run: ${maxGap.toFixed(0)} ms`);
  // Both cores of the test machine are busy with the two workers: pauses of
  // 100–300 ms are the operating system sharing them; a second would be a
  // freeze.
  assert.ok(maxGap < 1000, `the page froze for ${maxGap} ms`);
  const labels = await page.$$eval('#runs tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
  assert.deepEqual(labels, ['fisher', 'e2e_slow · ms 30, max_iter 30', 'e2e_slow · ms 60, max_iter 30', 'e2e_slow · ms 90, max_iter 30']);
  assert.deepEqual(await runStates(page), ['done', 'done', 'done', 'done']);
  // Show the first e2e_slow job: its convergence plot and heat map.
  await page.click('#runs tbody tr:nth-child(2) button');
  await page.waitForSelector('#chart-weights svg');
  const marks = await page.$$eval('#chart-conv-e2e_slow circle.mark title', (ts) => ts.map((t) => t.textContent));
  assert.equal(marks.length, 90); // three lines of 30 iterations
  assert.equal(marks[0], 'e2e_slow · ms 30, max_iter 30: iteration 1, objective 2');
  assert.equal(marks[29], 'e2e_slow · ms 30, max_iter 30: iteration 30, objective 1.033');
  const lines = await page.$$eval('#chart-conv-e2e_slow path.line', (ps) => ps.length);
  assert.equal(lines, 3);
  // |W| of the top 20 rows by the 10 classes: W[j][q] = (q+1)/(j+1).
  const cells = await page.$$eval('#chart-weights rect.cell title', (ts) => ts.map((t) => t.textContent));
  assert.equal(cells.length, 200);
  assert.equal(cells[0], 'pixel_0_0 × 0: 1');
  assert.equal(cells[9], 'pixel_0_0 × 9: 10');
  assert.equal(cells[19], 'pixel_0_1 × 9: 5');
  assert.match(await page.textContent('#result-summary'), /objective 1\.033 after 30 iterations \(iteration limit\) · 64 nonzero rows/);
  const rankings = [];
  for (let i = 1; i <= 4; i++) {
    await showJob(page, i);
    rankings.push((await shownRanking(page)).map((r) => r.column));
  }
  const saved = await browser.download('#export-report');
  assert.equal(saved.name, 'sparsefs-digits-report.json');
  const rep = JSON.parse(saved.bytes);
  assert.equal(rep.format, 'sparsefs-lab-report');
  assert.equal(rep.data.name, 'digits.csv.gz (demo)');
  assert.match(rep.data.sha256, /^[0-9a-f]{64}$/);
  assert.deepEqual(rep.config.methods, [{ name: 'fisher' }, { name: 'e2e_slow', params: { ms: '30, 60, 90', max_iter: '30' } }]);
  assert.deepEqual(rep.jobs.map((j) => [j.state, j.request.method, j.request.params?.ms]), [
    ['done', 'fisher', undefined], ['done', 'e2e_slow', 30], ['done', 'e2e_slow', 60], ['done', 'e2e_slow', 90]]);
  assert.deepEqual(rep.jobs[1].response.trace.length, 30);
  assert.deepEqual(browser.problems, []);
  return { file: saved.file, rankings };
}

// reportLoadsBack (dist-e2e) loads the report gridOnThePool saved: its
// results and configuration come back, the demo it used is loaded again,
// and Run repeats it; a file that is not a report says so.
export async function reportLoadsBack(browser, url, saved, tmp) {
  const { page } = browser;
  await openApp(page, url);
  await page.setInputFiles('#report-file', saved.file);
  await page.waitForSelector('#runs tbody tr');
  assert.match(await page.textContent('#notice'), /^Report loaded: 4 jobs on digits\.csv\.gz \(demo\), saved /);
  assert.deepEqual(await runStates(page), ['done', 'done', 'done', 'done']);
  // The results are the report's: rankings, convergence, |W|.
  const sameRankings = async () => {
    for (let i = 1; i <= 4; i++) {
      await showJob(page, i);
      assert.deepEqual((await shownRanking(page)).map((r) => r.column), saved.rankings[i - 1]);
    }
  };
  await sameRankings();
  await page.waitForSelector('#chart-conv-e2e_slow svg');
  await page.waitForSelector('#chart-weights svg');
  // The configuration is restored, and the demo it used is loaded again.
  assert.equal(await page.inputValue('#p-e2e_slow-ms'), '30, 60, 90');
  assert.equal(await page.isChecked('#m-fisher'), true);
  await page.waitForSelector('#preview');
  await page.waitForFunction(() => /same file/.test(document.querySelector('#report-note')?.textContent || ''));
  await runAndWait(page);
  await sameRankings();
  // What is not a report says so.
  const bad = path.join(tmp, 'not-a-report.json');
  writeFileSync(bad, '{"hello": 1}');
  await page.setInputFiles('#report-file', bad);
  await page.waitForSelector('#error-text');
  assert.match(await page.textContent('#error-text'), /^not-a-report\.json: this file is not a sparsefs report/);
  assert.deepEqual(browser.problems, []);
}

// cancelEvaluationAndResume (dist-e2e) cancels an evaluation of fisher and
// e2e_slow on the digits demo while two of e2e_slow's units run, checks
// what is kept, lets Run with the same settings take over the finished
// units, and starts afresh with other settings.
export async function cancelEvaluationAndResume(browser, url) {
  const { page } = browser;
  // The settings are made before the data are loaded, and Run waits for
  // idle workers: once the data are loaded the workers warm up for the
  // configured methods (each fitted once on a slice of the data, within a
  // 200 ms budget — before a fix in core/evaluate the budget did not
  // reach into an evaluation unit's fit, and e2e_slow's default 1000
  // iterations of 10 ms held both workers for 10 s: docs/ui.md, Firefox).
  // The run then starts from the same state in every browser.
  await openApp(page, url);
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  await page.fill('#p-e2e_slow-ms', '200');
  await page.fill('#p-e2e_slow-max_iter', '10');
  await page.fill('#klist', '5, 10');
  await page.selectOption('#demo-choice', 'digits');
  await page.click('#demo');
  await page.waitForSelector('#preview');
  assert.equal(await page.textContent('#plan'), 'Run will evaluate 2 settings × 5 folds = 10 units on 2 workers.');
  await page.waitForFunction(() => [...document.querySelectorAll('#running li')].every((l) => / · idle$/.test(l.textContent)), null, { timeout: 60000 });
  const n = await runs(page);
  await page.click('#run');
  // fisher's 5 units are quick; e2e_slow's take 2 s each, two at a time
  // (the pool takes them first, but this holds in any order): for at
  // least 2 s some units are done and two run, and the last of e2e_slow's
  // ends at least 2 s after that, which leaves the cancel as long to
  // arrive.
  await page.waitForFunction(() => /^[1-8] of 10 units done · 2 running/.test(document.querySelector('#progress-text').textContent), null, { timeout: 30000 });
  const t0 = Date.now();
  await page.click('#cancel');
  await waitRun(page, n + 1);
  assert.ok(Date.now() - t0 < 1500, `cancelling took ${Date.now() - t0} ms`);
  const text = await page.textContent('#progress-text');
  const done = Number(text.match(/^(\d+) of 10 units done/)[1]);
  assert.match(text, / · \d cancelled · /);
  assert.match(await page.textContent('#notice'), new RegExp(`^Cancelled\\. The ${done} units already finished are kept`));
  // What finished is shown: the means over the splits done so far.
  assert.match(await page.textContent('#eval-summary'), new RegExp(`partial: ${done} of 10 units`));
  await page.waitForSelector('#chart-accuracy-svm svg');
  assert.equal(await page.isDisabled('#export-report'), true);
  await page.click('#units summary');
  await page.waitForSelector('#units-table tbody tr');
  const states = await page.$$eval('#units-table tbody tr', (trs) => trs.map((tr) => tr.cells[1].textContent));
  assert.equal(states.filter((s) => s === 'done').length, done);
  assert.deepEqual(await page.$$eval('#running li', (l) => l.map((x) => x.textContent)), ['worker 1 · idle', 'worker 2 · idle']);
  // Run with the same settings takes over the finished units.
  await runAndWait(page);
  assert.match(await page.textContent('#notice'), new RegExp(`^${done} units taken over from the cancelled run\\.`));
  assert.match(await page.textContent('#progress-text'), /^10 of 10 units done · report merged/);
  await page.waitForSelector('#export-report:not([disabled])'); // its JSON follows the summaries
  assert.equal(await page.evaluate(() => performance.getEntriesByName('sparsefs-eval-merge-all').length), 0);
  // The convergence of the test double: 1 + 1/k after iteration k.
  const marks = await page.$$eval('#chart-conv-e2e_slow circle.mark title', (ts) => ts.map((t) => t.textContent));
  assert.equal(marks.length, 50);
  assert.equal(marks[0], 'e2e_slow · split 1: iteration 1, objective 2');
  // Other settings: a fresh run.
  await chooseMethods(page, ['fisher']);
  await runAndWait(page);
  assert.match(await page.textContent('#progress-text'), /^5 of 5 units done · report merged/);
  assert.equal(await page.$('#notice'), null);
  assert.deepEqual(browser.problems, []);
}

// keyboardWalk loads the demo and walks from it to Run with Tab alone:
// every control on the way is labelled and shows its focus; Space ticks a
// selector, Enter runs the evaluation, the arrow keys choose the mode.
// It returns the Tab stops.
export async function keyboardWalk(browser, url) {
  const { page } = browser;
  await openApp(page, url);
  await page.focus('#demo-choice');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'demo');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#preview');
  // Walk with Tab from the demo button to Run; note every stop.
  const stops = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const s = await page.evaluate(() => {
      const el = document.activeElement;
      const name = (el.labels && el.labels.length ? el.labels[0].textContent : '') || el.getAttribute('aria-label') || el.textContent;
      return { id: el.id, tag: el.tagName, name: name.trim(), outline: getComputedStyle(el).outlineStyle };
    });
    stops.push(s);
    if (s.id === 'run') break;
  }
  assert.equal(stops.at(-1).id, 'run', 'Run is reachable by Tab');
  for (const s of stops) {
    assert.ok(s.name.length > 0, `unlabelled control ${s.tag}#${s.id}`);
    assert.notEqual(s.outline, 'none', `no visible focus on ${s.tag}#${s.id}`);
  }
  for (const id of ['label', 'preset', 'mode-eval', 'm-fisher', 'm-fstat', 'preprocess', 'bias', 'scheme', 'folds', 'seed', 'klist',
    'cls-svm', 'svm-c', 'cls-knn', 'tune', 'inner', 'workers']) {
    assert.ok(stops.some((s) => s.id === id), `${id} not reached by Tab`);
  }
  // Space ticks a selector, Enter runs (an evaluation: 2 selectors × 5
  // folds).
  await page.focus('#m-fstat');
  await page.keyboard.press('Space');
  assert.equal(await page.isChecked('#m-fstat'), true);
  await page.focus('#run');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^10 of 10 units done · report merged/.test(document.querySelector('#progress-text').textContent), null, { timeout: 60000 });
  // The arrow keys choose what Run does.
  await page.focus('#mode-eval');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.isChecked('#mode-rank'), true);
  assert.ok(await page.$('#topk'));
  assert.deepEqual(browser.problems, []);
  return stops;
}

// presets applies "reproduce rfs-nie-2010 Table 1" (the paper's protocol)
// and gsr-fs-peng-fan's (a holdout protocol with tuning) to the demo.
export async function presets(browser, url) {
  const { page } = browser;
  await openApp(page, url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await setMode(page, 'rank');
  await page.selectOption('#preset', 'rfs-nie-2010');
  await page.click('#apply-preset');
  assert.equal(await page.isChecked('#mode-eval'), true);
  assert.equal(await page.inputValue('#klist'), '20, 80');
  assert.equal(await page.inputValue('#folds'), '5');
  assert.equal(await page.inputValue('#svm-c'), '1');
  assert.equal(await page.isChecked('#cls-svm'), true);
  assert.equal(await page.isChecked('#cls-knn'), false);
  assert.equal(await page.inputValue('#p-mrmr-k'), '80');
  const ticked = await page.$$eval('#methods input:checked', (els) => els.map((e) => e.id.slice(2)));
  const hasRFS = await page.$('#m-rfs');
  assert.deepEqual(ticked.sort(), [...['relieff', 'fstat', 'ttest', 'infogain', 'mrmr'], ...(hasRFS ? ['rfs'] : [])].sort());
  assert.match(await page.textContent('#preset-protocol'), /^Protocol: 5-fold cross-validation · svm \(C = 1\) · K = 20, 80\.$/);
  // The demo has 30 features: K = 80 is left out, and the plan says so.
  assert.match(await page.textContent('#plan'), /K above the 30 features left out: 80\.$/);
  // A holdout protocol with tuning: gsr-fs.
  await page.selectOption('#preset', 'gsr-fs-peng-fan');
  await page.click('#apply-preset');
  assert.equal(await page.inputValue('#scheme'), 'holdout');
  assert.equal(await page.inputValue('#train'), '0.6');
  assert.equal(await page.inputValue('#repeats'), '10');
  assert.equal(await page.inputValue('#tune'), 'lambda=0.001,0.01,0.1,1,10,100; r=0.5,1,2; svm.C=0.001,0.01,0.1,1,10,100');
  assert.match(await page.textContent('#plan'), /^Run will evaluate \d+ settings × 10 holdout splits = \d+ units on 2 workers\./);
  assert.deepEqual(browser.problems, []);
}

// analysisWithoutRequests (a server started with log: true) loads the app
// and, once the service worker controls it, makes a whole analysis —
// synthetic data generated, evaluated, every export saved, a file of
// one's own uploaded and ranked — while no request leaves the page: none
// seen by the browser (page and workers), none reaching the server.
export async function analysisWithoutRequests(browser, server, tmp) {
  const { page } = browser;
  await openApp(page, server.url);
  await controlled(page);
  const seen = [];
  browser.onRequest((u) => seen.push(u));
  const before = server.requests.length;
  const saveAll = async (selectors) => {
    const names = [];
    for (const sel of selectors) names.push((await browser.download(sel)).name);
    return names;
  };
  // Synthetic data made by a worker, evaluated, every export saved.
  await page.click('#generate summary');
  await page.fill('#syn-m', '90');
  await page.fill('#syn-d2', '10');
  await page.click('#generate-data');
  await page.waitForSelector('#preview');
  await chooseMethods(page, ['fisher', 'l1svm']);
  await page.fill('#klist', '2, 5, 10');
  await runAndWait(page);
  assert.match(await page.textContent('#progress-text'), /^10 of 10 units done · report merged/);
  await page.waitForSelector('#chart-truth svg');
  assert.deepEqual(await saveAll(['#export-report', '#export-ranking', '#export-reduced', '#fig-accuracy-svm .save-png', '#fig-truth .save-svg', '#save-data']),
    ['sparsefs-synthetic-m90-d1_5-d2_10-c3-out0-seed1-report.json', 'fisher-ranking.csv', 'synthetic-m90-d1_5-d2_10-c3-out0-seed1-top10.csv',
      'sparsefs-accuracy-svm.png', 'sparsefs-truth.svg', 'synthetic-m90-d1_5-d2_10-c3-out0-seed1.csv']);
  // A file of one's own, ranked on all the data.
  const file = path.join(tmp, 'small.csv');
  writeFileSync(file, 'g1,g2,g3,g4,class\n1,5,2,0,a\n2,4,2,1,a\n3,5,1,0,a\n7,1,2,1,b\n8,0,1,0,b\n9,1,2,1,b\n');
  await page.setInputFiles('#file', file);
  await page.waitForFunction(() => document.querySelector('#file-name')?.textContent === 'small.csv');
  await setMode(page, 'rank');
  await chooseMethods(page, ['fisher', 'fstat']);
  await runAndWait(page);
  await page.click('#runs tbody tr:nth-child(1) button');
  await page.waitForFunction(() => document.querySelector('#result-summary').textContent.startsWith('fisher'));
  // Fisher ratios by hand: g1 54/4 = 13.5, g2 24/(4/3) = 18.
  assert.equal((await shownRanking(page))[0].name, 'g2');
  await page.waitForSelector('#chart-overlap svg');
  assert.deepEqual(await saveAll(['#export-ranking', '#export-reduced', '#fig-overlap .save-png']),
    ['fisher-ranking.csv', 'small-top4.csv', 'sparsefs-overlap.png']);
  const network = seen.filter((u) => /^https?:/.test(u));
  assert.deepEqual(network, [], 'requests seen by the browser');
  assert.deepEqual(server.requests.slice(before), [], 'requests that reached the server');
  assert.deepEqual(browser.problems, []);
}
