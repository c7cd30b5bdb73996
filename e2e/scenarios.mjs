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
import { writeFileSync, readFileSync, cpSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { repo, startServer, openApp, chooseMethods, runAndWait, shownRanking, setMode, runs, waitRun, waitIdle, controlled, appRequests } from './lib.mjs';

// loadDigits opens the digits demo, ready to rank on all the data.
export async function loadDigits(page, url) {
  await openApp(page, url);
  await page.selectOption('#demo-choice', 'digits');
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await setMode(page, 'rank');
}

// setSlow types e2e_slow's parameters: ms (milliseconds of work per
// iteration) and max_iter, each a value or a list (a grid), and the steps
// it reports as a certificate's after its iterations (certify, left at
// its default unless given).
async function setSlow(page, ms, maxIter, certify) {
  await page.fill('#p-e2e_slow-ms', ms);
  await page.fill('#p-e2e_slow-max_iter', maxIter);
  if (certify !== undefined) {
    await page.fill('#p-e2e_slow-certify', certify);
  }
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
// once and that the page answers the user while they compute, the
// convergence plot and the |W| heat map, saves the report and returns
// {file, rankings}: the saved report and the four jobs' rankings (columns).
export async function gridOnThePool(browser, url) {
  const { page } = browser;
  await loadDigits(page, url);
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  // 0.9, 1.8 and 2.7 s of work: the slots are filled as fisher, ms 30 |
  // ms 60, ms 90, so both workers hold a job for the first 0.9 s (with
  // 5, 10, 15 ms the overlap was 0.25 s and a render could miss it), and
  // the run goes on for 3.5 s after ms 30 has ended.
  await setSlow(page, '30, 60, 90', '30');
  assert.equal(await page.textContent('#plan'), 'Run will fit 4 jobs on 2 workers.');
  // The longest gap between timer ticks on the page's thread while the
  // run goes on, printed (not asserted: on a loaded machine the operating
  // system alone can hold a thread for a second).
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
  // The page answers the user while the workers compute: once ms 30 has
  // ended, showing its result works before the run is over (ms 90 runs
  // 2.7 s after ms 60's 1.8 s). A page that computed, or waited for the
  // workers, would show it only after the run.
  await page.waitForFunction(() => document.querySelector('#runs tbody tr:nth-child(2) td:nth-child(2)')?.textContent === 'done', null, { timeout: 30000 });
  await page.click('#runs tbody tr:nth-child(2) button');
  const busyWhenShown = await (await page.waitForFunction(() => document.querySelector('#runs tbody tr:nth-child(2)').classList.contains('focus') &&
    document.querySelector('#progress-text').dataset.busy)).jsonValue();
  assert.equal(busyWhenShown, 'yes', 'the run was still going on when the page showed the finished job');
  await page.waitForFunction(() => /^4 of 4 done/.test(document.querySelector('#progress-text').textContent), null, { timeout: 60000 });
  const maxGap = await page.evaluate(() => { clearInterval(self.gapTimer); return self.maxGap; });
  console.log(`longest pause of the page's thread during the run: ${maxGap.toFixed(0)} ms`);
  const labels = await page.$$eval('#runs tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
  assert.deepEqual(labels, ['fisher', 'e2e_slow · ms 30, max_iter 30', 'e2e_slow · ms 60, max_iter 30', 'e2e_slow · ms 90, max_iter 30']);
  assert.deepEqual(await runStates(page), ['done', 'done', 'done', 'done']);
  // Show the first e2e_slow job: its convergence plot and heat map.
  await page.click('#runs tbody tr:nth-child(2) button');
  await page.waitForSelector('#chart-weights svg');
  const marks = await page.$$eval('#chart-conv-e2e_slow .mark title', (ts) => ts.map((t) => t.textContent));
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

// categoricalChoices (dist-e2e, after gridOnThePool on the same page):
// a categorical parameter is a set of choices, each ticked choice a job.
export async function categoricalChoices(browser) {
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
  assert.deepEqual(browser.problems, []);
}

// digits reads the digits demo as a table of text: [header, ...rows].
function digits() {
  const text = gunzipSync(readFileSync(path.join(repo, 'assets', 'demo', 'digits.csv.gz'))).toString();
  return text.trim().split('\n').map((l) => l.split(','));
}

// exportsParseBack (dist-e2e, after gridOnThePool on the same page): the
// ranking CSV, the reduced data, a chart as SVG (read back by the browser
// as an image of its declared size) and as PNG.
export async function exportsParseBack(browser) {
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

// cancelEvaluationAndResume (dist-e2e) cancels an evaluation of e2e_slow
// (two settings) and fisher on the digits demo while two of e2e_slow's
// long units run, checks that they were stopped and what is kept, lets
// Run with the same settings take over the finished units, and starts
// afresh with other settings.
export async function cancelEvaluationAndResume(browser, url) {
  const { page } = browser;
  // The settings are made before the data are loaded, and Run waits for
  // idle workers: once the data are loaded the workers warm up for the
  // configured methods (each fitted once on a slice of the data, within a
  // 200 ms budget — before a fix in core/evaluate the budget did not
  // reach into an evaluation unit's fit, and e2e_slow's default 1000
  // iterations of 10 ms held both workers for 10 s:
  // docs/notes/browser-tests.md).
  // The run then starts from the same state in every browser.
  await openApp(page, url);
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  // Two folds; e2e_slow with ms 1 (units of 10 ms) and ms 600 (units of
  // 6 s). The pool sends the embedded method's units first, in the order
  // of the settings: ms 1's two units end at once, then ms 600's two run,
  // one on each worker, and fisher's two wait behind them. For 6 s the
  // run is at "2 of 6 units done · 2 running": a cancel arriving then
  // stops two units that cannot have ended by themselves, however late a
  // render or the click comes on a loaded machine; had the cancel let
  // them finish, they would be done.
  await setSlow(page, '1, 600', '10');
  await page.fill('#folds', '2');
  await page.fill('#klist', '5, 10');
  await page.selectOption('#demo-choice', 'digits');
  await page.click('#demo');
  await page.waitForSelector('#preview');
  assert.equal(await page.textContent('#plan'), 'Run will evaluate 3 settings × 2 folds = 6 units on 2 workers.');
  await waitIdle(page);
  const n = await runs(page);
  await page.click('#run');
  await page.waitForFunction(() => /^2 of 6 units done · 2 running/.test(document.querySelector('#progress-text').textContent), null, { timeout: 30000 });
  await page.click('#cancel');
  await waitRun(page, n + 1);
  assert.match(await page.textContent('#progress-text'), /^2 of 6 units done · 4 cancelled · /);
  const done = 2;
  assert.match(await page.textContent('#notice'), new RegExp(`^Cancelled\\. The ${done} units already finished are kept`));
  // What finished is shown: the means over the splits done so far.
  assert.match(await page.textContent('#eval-summary'), new RegExp(`partial: ${done} of 6 units`));
  await page.waitForSelector('#chart-accuracy-svm svg');
  assert.equal(await page.isDisabled('#export-report'), true);
  await page.click('#units summary');
  await page.waitForSelector('#units-table tbody tr');
  // The two long units were stopped, not left to finish.
  const units = await page.$$eval('#units-table tbody tr', (trs) => trs.map((tr) => `${tr.cells[0].textContent}: ${tr.cells[1].textContent}`));
  assert.deepEqual(units, ['fisher · split 1: cancelled', 'fisher · split 2: cancelled', 'e2e_slow · ms 1 · split 1: done',
    'e2e_slow · ms 1 · split 2: done', 'e2e_slow · ms 600 · split 1: cancelled', 'e2e_slow · ms 600 · split 2: cancelled']);
  assert.deepEqual(await page.$$eval('#running li', (l) => l.map((x) => x.textContent)), ['worker 1 · idle', 'worker 2 · idle']);
  // Run with the same settings takes over the finished units.
  await runAndWait(page);
  assert.match(await page.textContent('#notice'), new RegExp(`^${done} units taken over from the cancelled run\\.`));
  assert.match(await page.textContent('#progress-text'), /^6 of 6 units done · report merged/);
  await page.waitForSelector('#export-report:not([disabled])'); // its JSON follows the summaries
  assert.equal(await page.evaluate(() => performance.getEntriesByName('sparsefs-eval-merge-all').length), 0);
  // The convergence of the test double: 1 + 1/k after iteration k.
  const marks = await page.$$eval('#chart-conv-e2e_slow .mark title', (ts) => ts.map((t) => t.textContent));
  assert.equal(marks.length, 40); // 2 settings × 2 splits × 10 iterations
  assert.equal(marks[0], 'e2e_slow · ms 1 · split 1: iteration 1, objective 2');
  assert.equal(marks[20], 'e2e_slow · ms 600 · split 1: iteration 1, objective 2');
  // Other settings: a fresh run.
  await chooseMethods(page, ['fisher']);
  await runAndWait(page);
  assert.match(await page.textContent('#progress-text'), /^2 of 2 units done · report merged/);
  assert.equal(await page.$('#notice'), null);
  assert.deepEqual(browser.problems, []);
}

// cancelRanking (dist-e2e) cancels a ranking of fisher and five e2e_slow
// jobs on the digits demo while two of e2e_slow's run: the workers are
// stopped, what finished is kept and shown, and fresh workers take the
// next run.
export async function cancelRanking(browser, url) {
  const { page } = browser;
  await loadDigits(page, url);
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  // fisher's job is quick; each of e2e_slow's takes 30 s (3 iterations,
  // then 300 steps reported as a certificate's, of 100–104 ms), two at a
  // time. Once fisher's is done, the run is at "1 of 6 done · 2 running"
  // for 30 s: a cancel arriving then stops two jobs that cannot have ended
  // by themselves, however late a render or the click comes on a loaded
  // machine (with jobs of 2 s, the state waited for lasted 2 s).
  await setSlow(page, '100, 101, 102, 103, 104', '3', '300');
  assert.equal(await page.textContent('#plan'), 'Run will fit 6 jobs on 2 workers.');
  // Both workers start from the same state (data read, warm-up over).
  await waitIdle(page);
  await page.click('#run');
  await page.waitForFunction(() => /^1 of 6 done · 2 running/.test(document.querySelector('#progress-text').textContent), null, { timeout: 30000 });
  // Each worker says what its job does after the iterations, step by
  // step (the line changes while the job runs).
  const certifying = /^worker [12] · e2e_slow · [^—]+ — iteration 3, objective 1\.333 · certifying the optimum, step (\d+) · \d+\.\d s$/;
  const steps = async () => page.$$eval('#running li', (l, re) => l.map((x) => x.textContent).map((t) => (new RegExp(re).exec(t) || [])[1]), certifying.source);
  await page.waitForFunction((re) => [...document.querySelectorAll('#running li')].every((x) => new RegExp(re).test(x.textContent)), certifying.source, { timeout: 30000 });
  const first = await steps();
  await page.waitForFunction(([re, was]) => [...document.querySelectorAll('#running li')].some((x, i) => (new RegExp(re).exec(x.textContent) || [])[1] > Number(was[i])), [certifying.source, first], { timeout: 30000 });
  await page.click('#cancel');
  await page.waitForFunction(() => /cancelled/.test(document.querySelector('#progress-text').textContent));
  assert.deepEqual(await runStates(page), ['done', 'cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled']);
  assert.match(await page.textContent('#notice'), /^Cancelled 5 jobs; the results already finished are kept\./);
  // The finished results are still shown.
  assert.match(await page.textContent('#result-summary'), /^fisher/);
  assert.equal((await shownRanking(page)).length, 20);
  assert.deepEqual(await page.$$eval('#running li', (l) => l.map((x) => x.textContent)), ['worker 1 · idle', 'worker 2 · idle']);
  // Fresh workers take the next run (they get the data again).
  await setSlow(page, '1', '5', '0');
  await chooseMethods(page, ['e2e_slow', 'fisher']);
  await runAndWait(page);
  assert.deepEqual(await runStates(page), ['done', 'done']);
  assert.deepEqual(browser.problems, []);
}

// noLayoutJump (dist-e2e): the results arrive without moving what is
// above them — the results' heading stays where it was before Run, while
// the run goes on and after it.
export async function noLayoutJump(browser, url) {
  const { page } = browser;
  await loadDigits(page, url);
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  // 3 s of work, so that a render (every 0.5 s during a run) shows it
  // running (with 0.4 s a render could miss it).
  await setSlow(page, '100', '30');
  // The heading's place in the document, to a hundredth of a pixel (a
  // jump moves it by whole lines): Run's click scrolls the page, and
  // Firefox's rectangles are single-precision, so that top + scrollY
  // differs in the fifth decimal after a scroll (2628.30005 before,
  // 2628.29999 after a scroll of 455 px, the heading unmoved).
  const top = () => page.$eval('#results-h', (h) => Math.round(100 * (h.getBoundingClientRect().top + window.scrollY)) / 100);
  const before = await top();
  await page.click('#run');
  await page.waitForFunction(() => /running/.test(document.querySelector('#progress-text').textContent));
  const during = await top();
  await page.waitForFunction(() => /^2 of 2 done/.test(document.querySelector('#progress-text').textContent), null, { timeout: 30000 });
  const afterRun = await top();
  assert.deepEqual([during, afterRun], [before, before]);
  assert.deepEqual(browser.problems, []);
}

// keyboardWalk loads the demo and walks from it to Run with Tab alone:
// every control on the way is labelled and shows its focus; Space ticks a
// selector, Enter runs the evaluation, the arrow keys choose the mode.
// It returns the Tab stops.
export async function keyboardWalk(browser, url) {
  const { page } = browser;
  await openApp(page, url);
  // The skip links take the focus to Run's section and to the results.
  for (const [link, target] of [['a[href="#run-h"]', 'run-h'], ['a[href="#results-h"]', 'results-h']]) {
    await page.focus(link);
    await page.keyboard.press('Enter');
    await page.waitForFunction((t) => document.activeElement?.id === t, target);
  }
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
  // The focus went to the results' summary.
  await page.waitForFunction(() => document.activeElement?.id === 'results-summary');
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
  assert.match(await page.textContent('#plan'), /K = 80 left out: the data have 30 features\.$/);
  // A holdout protocol with tuning: gsr-fs.
  await page.selectOption('#preset', 'gsr-fs-peng-fan');
  await page.click('#apply-preset');
  assert.equal(await page.inputValue('#scheme'), 'holdout');
  assert.equal(await page.inputValue('#train'), '0.6');
  assert.equal(await page.inputValue('#repeats'), '10');
  assert.equal(await page.inputValue('#tune'), 'lambda=0.001,0.01,0.1,1,10,100; gamma=0.001,0.01,0.1,1,10,100; r=0.5,1,2; svm.C=0.001,0.01,0.1,1,10,100');
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
  // The browser's own checks for a new version of the service worker
  // (updateCheck in lib.mjs) are not the page's requests.
  assert.deepEqual(appRequests(server, before), [], 'requests that reached the server, the browser’s update checks of sw.js left out');
  assert.deepEqual(browser.problems, []);
}

// newBuildOffered serves a copy of dist/ in tmp, lets the service worker
// take the page, "deploys" a new build there, and checks that the page
// offers to update, keeps the old build until the user agrees, and then
// runs the new files from a cache of the new version only.
export async function newBuildOffered(browser, tmp) {
  const { page } = browser;
  const site = path.join(tmp, 'site');
  cpSync(path.join(repo, 'dist'), site, { recursive: true });
  const server = await startServer('/', { dir: site });
  try {
    await openApp(page, server.url);
    await controlled(page);
    const oldCaches = await page.evaluate(() => caches.keys());
    assert.equal(oldCaches.length, 1);
    // "Deploy" a new build: a changed file and its service worker's version.
    writeFileSync(path.join(site, 'app.js'), readFileSync(path.join(site, 'app.js'), 'utf8') + '\n// build 2\n');
    const sw = readFileSync(path.join(site, 'sw.js'), 'utf8');
    writeFileSync(path.join(site, 'sw.js'), sw.replace(/const VERSION = '[^']*'/, "const VERSION = 'build-2'"));
    await page.reload();
    await page.waitForSelector('#update-now', { timeout: 30000 });
    // Until the user agrees, the old build keeps running.
    assert.equal(await page.evaluate(async () => (await (await fetch('app.js')).text()).includes('// build 2')), false);
    // The page reloads itself once the new build's service worker has
    // taken over (not navigated again: Firefox reports a page left while
    // its service worker still answers a request as a page error).
    await Promise.all([page.waitForEvent('load'), page.click('#update-now')]);
    await page.waitForSelector('#methods input[type=checkbox]', { timeout: 30000 });
    assert.equal(await page.evaluate(async () => (await (await fetch('app.js')).text()).includes('// build 2')), true);
    assert.deepEqual(await page.evaluate(() => caches.keys()), ['sparsefs-build-2']);
    assert.deepEqual(browser.problems, []);
  } finally {
    server.stop();
  }
}

// workerPolicyCheck runs in a worker: it fetches from another origin and
// evals; the policy must refuse both (the fetch with a violation event).
async function workerPolicyCheck() {
  let violated = '';
  self.addEventListener('securitypolicyviolation', (e) => { violated = e.violatedDirective; });
  try { await fetch('http://127.0.0.1:9/leak'); } catch { /* refused */ }
  await new Promise((r) => setTimeout(r, 200));
  let evalResult = 'allowed';
  try { (0, eval)('1'); } catch (e) { evalResult = e.name; }
  return { violated, evalResult, url: self.location.protocol };
}

// inPageWorker runs workerPolicyCheck in a computing worker of the page
// itself (Playwright reaches a page's workers).
export async function inPageWorker(page) {
  await page.waitForFunction(() => true);
  const workers = page.workers();
  assert.ok(workers.length >= 1, 'no worker');
  return workers[0].evaluate(workerPolicyCheck);
}

// inBlobWorker runs workerPolicyCheck in a worker the test starts from the
// page the way the page starts its own: a script in a blob: URL made by
// the page (for Firefox, whose WebDriver BiDi announces a page's workers
// but cannot run a function in them).
export async function inBlobWorker(page) {
  return page.evaluate((src) => new Promise((resolve) => {
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    w.onmessage = (e) => {
      w.terminate();
      resolve(e.data);
    };
  }), `(${workerPolicyCheck})().then((r) => postMessage(r));`);
}

// policyBinds checks on a server started with or without (plain) the
// security headers that the Content-Security-Policy — the server's header,
// or the page's meta tag on a host that sends none — binds the page and
// its workers (checked in a worker by inWorker), and that the workers
// still compute.
export async function policyBinds(browser, server, plain, inWorker = inPageWorker) {
  const { page } = browser;
  const resp = await page.goto(server.url);
  assert.equal(resp.headers()['content-security-policy'] === undefined, plain);
  await page.waitForSelector('#methods input[type=checkbox]', { timeout: 30000 });
  assert.deepEqual(await inWorker(page), { violated: 'connect-src', evalResult: 'EvalError', url: 'blob:' });
  const p = await page.evaluate(async () => {
    let violated = '';
    document.addEventListener('securitypolicyviolation', (e) => { violated = e.violatedDirective; });
    try { await fetch('http://127.0.0.1:9/leak'); } catch { /* refused */ }
    await new Promise((r) => setTimeout(r, 200));
    return violated;
  });
  assert.equal(p, 'connect-src');
  // The workers still compute (wasm is allowed): the demo runs.
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await chooseMethods(page, ['fisher']);
  await runAndWait(page);
}
