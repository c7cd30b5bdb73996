// The Firefox test of the real app: Debian's firefox-esr driven over
// WebDriver BiDi by puppeteer-core (playwright-core cannot drive a stock
// Firefox), on the site served by bin/serve with its
// Content-Security-Policy header. It runs the demo's evaluation in the
// blob: workers and compares the accuracies with `sparsefs eval`, checks
// the charts and a malformed upload's message; then the laboratory the
// Chromium tests check, through the same test bodies (scenarios.mjs): a
// parameter grid on the pool with its convergence plot and |W| heat map
// (dist-e2e/, whose worker holds the slow test double e2e_slow), the
// categorical parameter's choices, the exports parsed back, the saved
// report loaded back, cancel mid-evaluation and resume, cancel
// mid-ranking, no layout jump, the keyboard-only walk, the papers'
// presets, a whole analysis without a network request, a new build's
// update offer, the policy under the server's header and under the meta
// tag alone (checked in a blob: worker the test starts: BiDi cannot run a
// function in the page's own workers); the files a lab has (a clinic's
// export, genes in rows, a measurement column: filescenarios.mjs); last
// the offline reload through the service worker.
//
//   ./build.sh e2e-site && cd e2e && node --test firefox.mjs
//
// Without /usr/bin/firefox-esr it skips, unless SPARSEFS_REQUIRE_DATA or CI
// is set (as in ./build.sh test), where it fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, startFirefox, firefoxPath, cli, repo, assertSameNumbers, openApp, chooseMethods, runAndWait, controlled } from './lib.mjs';
import {
  gridOnThePool, categoricalChoices, exportsParseBack, reportLoadsBack, cancelEvaluationAndResume, cancelRanking, noLayoutJump,
  keyboardWalk, presets, analysisWithoutRequests, newBuildOffered, policyBinds, inBlobWorker,
} from './scenarios.mjs';
import { clinicExport, genesInRows, measurementColumn } from './filescenarios.mjs';

const required = Boolean(process.env.SPARSEFS_REQUIRE_DATA || process.env.CI);
const missing = !existsSync(firefoxPath);
if (missing && required) {
  throw new Error(`${firefoxPath} is missing and SPARSEFS_REQUIRE_DATA/CI is set: install Debian's firefox-esr (./build.sh deps)`);
}
const skip = missing ? `${firefoxPath} not found (apt-get install firefox-esr)` : false;

const tmp = mkdtempSync(path.join(tmpdir(), 'sparsefs-firefox-'));
const demo = path.join(repo, 'assets', 'demo', 'breast-cancer-wisconsin.csv');
// server: the real app (dist/), its requests logged; lab: dist-e2e/.
let server, lab, browser, page, problems;

before(async () => {
  if (skip) return;
  server = await startServer('/', { log: true });
  lab = await startServer('/', { dir: 'dist-e2e' });
  browser = await startFirefox();
  ({ page, problems } = browser);
  // Record the workers the page starts and the policy violations the
  // document sees.
  await browser.raw.evaluateOnNewDocument(() => {
    window.__workerURLs = [];
    window.__violations = [];
    const Real = window.Worker;
    window.Worker = class extends Real {
      constructor(url, opts) {
        super(url, opts);
        window.__workerURLs.push(String(url));
      }
    };
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  });
});

after(async () => {
  await browser?.close();
  server?.stop();
  lab?.stop();
  rmSync(tmp, { recursive: true, force: true });
  if (browser) console.log(`# ${browser.version}`);
  if (browser && process.env.SPARSEFS_FIREFOX_LOG) console.log(browser.consoleLines.join('\n'));
});

const text = (sel) => page.textContent(sel);

const pct = (x) => (100 * x).toFixed(1);
const cell = (m, s) => (Number.isNaN(s) || s === null ? pct(m) : `${pct(m)} ± ${pct(s)}`);

// The workers read a file through its stream with a BYOB reader into one
// buffer (assets/worker.js's sparsefsStreamOpen/sparsefsStreamRead), and
// fall back to FileReaderSync where a browser has no such reader. This
// checks in a worker that Firefox takes the stream path: a 600 KiB Blob
// read into one 256 KiB buffer, transferred and given back by each read,
// gives its bytes back in order. It runs first, on a page that is not
// the app (no service worker registered yet, none registered by it).
test('Firefox: a worker reads a Blob through a BYOB stream reader into one buffer (the workers’ stream path)', { skip }, async () => {
  await page.goto(`${server.url}byob-check`);
  const got = await page.evaluate(() => new Promise((resolve) => {
    const src = `(async () => {
      const size = 600 * 1024, bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 7) % 251;
      let buf = new ArrayBuffer(256 * 1024), reads = 0, off = 0, same = true, sameBuffer = true;
      const reader = new Blob([bytes]).stream().getReader({ mode: 'byob' });
      for (;;) {
        const { value, done } = await reader.read(new Uint8Array(buf));
        if (done) break;
        reads++;
        for (let i = 0; i < value.length; i++) if (value[i] !== bytes[off + i]) same = false;
        off += value.length;
        buf = value.buffer;
        if (buf.byteLength !== 256 * 1024) sameBuffer = false;
      }
      return { off, reads, same, sameBuffer };
    })().then((r) => postMessage(r), (e) => postMessage({ error: String(e) }));`;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    w.onmessage = (e) => { w.terminate(); resolve(e.data); };
  }));
  assert.equal(got.error, undefined, got.error);
  assert.equal(got.off, 600 * 1024);
  assert.ok(got.reads >= 3, `${got.reads} reads`);
  assert.ok(got.same, 'the bytes read differ from the Blob’s');
  assert.ok(got.sameBuffer, 'a read gave back a buffer of another size');
  problems.length = 0; // the check's page is a 404: not the app's problems
});

test('Firefox: the demo evaluated in the blob: workers gives the accuracies of sparsefs eval; charts drawn; no errors', { skip }, async () => {
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview', { timeout: 30000 });
  assert.match(await text('#data-summary'), /^569 samples × 30 features · comma-separated · header row/);
  assert.equal(await page.isChecked('#mode-eval'), true, 'evaluating is the default');
  await chooseMethods(page, ['fisher', 'exl21']);
  await page.fill('#folds', '4');
  await page.fill('#seed', '7');
  await page.fill('#klist', '5, 10, 20');
  await page.waitForFunction(() => /^Run will evaluate 2 settings × 4 folds = 8 units on \d+ workers?\./.test(document.querySelector('#plan')?.textContent || ''));
  // Two workers, so that the evaluation is spread and merged across them.
  await page.fill('#workers', '2');
  await page.waitForFunction(() => / on 2 workers\./.test(document.querySelector('#plan').textContent));
  await runAndWait(page, 90000);
  assert.match(await text('#progress-text'), /^8 of 8 units done · report merged · [\d.]+ s$/);
  // The results table: the accuracies sparsefs eval reports for the same
  // data, protocol and seed.
  const want = cli('eval', '-data', demo, '-methods', 'fisher,exl21', '-k', '5,10,20', '-classifier', 'svm', '-cv', '4', '-seed', '7');
  await page.waitForSelector('#acc-table tbody tr');
  const rows = await page.$$eval('#acc-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].slice(0, 5).map((c) => c.textContent)));
  const expected = [];
  want.results.forEach((vr) => want.classifiers.forEach((c, q) => {
    expected.push([vr.method, 'accuracy % · ' + c.split('(')[0], ...vr.accuracy[q].mean.map((m, i) => cell(m, vr.accuracy[q].std[i]))]);
  }));
  assert.deepEqual(rows, expected);
  // The charts: SVGs with their titles, one line per selector and one point
  // per K on the accuracy chart, exl21's convergence.
  await page.waitForSelector('#chart-accuracy-svm svg');
  await page.waitForSelector('#chart-conv-exl21 svg');
  assert.equal(await page.$$eval('#chart-accuracy-svm path.line', (p) => p.length), 2);
  assert.equal(await page.$$eval('#chart-accuracy-svm .mark', (m) => m.length), 6);
  const titles = await page.$$eval('#charts svg > title', (ts) => ts.map((t) => t.textContent));
  assert.ok(titles.includes('Accuracy vs K — svm(C=1,ovo,free bias)'), titles.join(' | '));
  assert.ok(titles.includes('Convergence — exl21'), titles.join(' | '));
  // The SVGs have a laid-out size (Firefox draws them, not just holds them).
  const box = await page.$eval('#chart-accuracy-svm svg', (s) => { const r = s.getBoundingClientRect(); return [r.width, r.height]; });
  assert.ok(box[0] > 100 && box[1] > 100, `accuracy chart is ${box.join('×')}`);
  // Saving: the report (the CLI's accuracies), a chart as SVG and as PNG
  // (the SVG drawn on a canvas through a blob: image).
  const saved = [];
  for (const sel of ['#export-report', '#fig-accuracy-svm .save-svg', '#fig-accuracy-svm .save-png']) saved.push(await browser.download(sel));
  assert.deepEqual(saved.map((f) => f.name), ['sparsefs-breast-cancer-wisconsin-report.json', 'sparsefs-accuracy-svm.svg', 'sparsefs-accuracy-svm.png']);
  const bytes = saved.map((f) => f.bytes);
  const rep = JSON.parse(bytes[0].toString());
  assertSameNumbers(rep.results.map((r) => r.accuracy), want.results.map((r) => r.accuracy));
  const svg = bytes[1].toString();
  assert.ok(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" ') && svg.trim().endsWith('</svg>'), svg.slice(0, 200));
  assert.equal(saved[2].type, 'image/png');
  assert.equal(bytes[2].subarray(1, 4).toString(), 'PNG');
  const [pw, ph] = [bytes[2].readUInt32BE(16), bytes[2].readUInt32BE(20)];
  assert.ok(pw >= 2 * 100 && ph >= 2 * 100, `PNG is ${pw}×${ph}`);
  // The ranking across the folds is drawn.
  await page.waitForSelector('#ranking tbody tr');
  assert.equal(await page.$$eval('#ranking tbody tr', (r) => r.length), 20);
  // The work ran in the page's blob: workers (the page computes nothing
  // itself), and they are idle again.
  const workers = await page.evaluate(() => window.__workerURLs);
  assert.ok(workers.length >= 2 && workers.every((u) => u.startsWith('blob:')), `workers started: ${workers.join(' ')}`);
  assert.deepEqual(await page.$$eval('#running li', (l) => l.map((x) => x.textContent)), ['worker 1 · idle', 'worker 2 · idle']);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(problems, []);
});

test('Firefox: a malformed CSV shows a readable message; a good file after it works', { skip }, async () => {
  const bad = path.join(tmp, 'ragged.csv');
  writeFileSync(bad, 'a,b,label\n1,2,x\n3,4\n5,6,y\n');
  await openApp(page, server.url);
  await page.setInputFiles('#file', bad);
  await page.waitForSelector('#error-text', { timeout: 30000 });
  assert.match(await text('#error-text'), /ragged\.csv: line 3: this row has 2 fields but the header has 3/);
  assert.equal(await page.$('#preview'), null);
  const good = path.join(tmp, 'good.csv');
  writeFileSync(good, 'a,b,label\n1,0,x\n2,2,x\n6,5,y\n7,5,y\n');
  await page.setInputFiles('#file', good);
  await page.waitForSelector('#preview', { timeout: 30000 });
  assert.equal(await page.$('#error-text'), null);
  assert.deepEqual(problems, []);
});

// The files a lab has (filescenarios.mjs).
test('Firefox: a clinic export — IDs, diagnosis, a text column, NA cells — is read as proposed and ranks as the CLI', { skip }, async () => {
  await clinicExport(browser, server.url, tmp);
});

test('Firefox: a genes × samples table is read transposed and ranks as the CLI', { skip }, async () => {
  await genesInRows(browser, server.url, tmp);
});

test('Firefox: a last column of measurements is read as a regression target', { skip }, async () => {
  await measurementColumn(browser, server.url, tmp);
});

// The laboratory, through the Chromium tests' bodies (scenarios.mjs).
let saved; // the grid's report, loaded back by the next test

test('Firefox: a parameter grid runs on the pool (both workers busy, the page answers during the run); convergence plot and |W| heat map; the report saved', { skip }, async () => {
  saved = await gridOnThePool(browser, lab.url);
});

test('Firefox: a categorical parameter is a set of choices: each ticked choice is a job', { skip }, async () => {
  await categoricalChoices(browser);
});

test('Firefox: exports — the ranking, the reduced data and a chart as SVG and PNG parse back', { skip }, async () => {
  await exportsParseBack(browser);
});

test('Firefox: the saved report loads back (results, configuration, demo) and Run repeats it', { skip }, async () => {
  assert.ok(saved, 'the grid test saves the report');
  await reportLoadsBack(browser, lab.url, saved, tmp);
});

test('Firefox: cancel mid-evaluation keeps the finished units; Run with the same settings takes them over', { skip }, async () => {
  await cancelEvaluationAndResume(browser, lab.url);
});

test('Firefox: cancel mid-ranking stops the running jobs, keeps what finished; fresh workers take the next run', { skip }, async () => {
  await cancelRanking(browser, lab.url);
});

test('Firefox: no layout jump — the results arrive without moving what is above them', { skip }, async () => {
  await noLayoutJump(browser, lab.url);
});

test('Firefox: keyboard only — every control on the way labelled, focus visible, Run reached by Tab and run', { skip }, async () => {
  const stops = await keyboardWalk(browser, lab.url);
  console.log(`# ${stops.length} Tab stops from the demo button to Run`);
});

test('Firefox: presets reproduce the papers’ protocols', { skip }, async () => {
  await presets(browser, lab.url);
});

test('Firefox: a whole analysis after the first load makes no network request', { skip }, async () => {
  await analysisWithoutRequests(browser, server, tmp);
});

test('Firefox: a new build replaces the old one: the page offers to update, then runs the new files', { skip }, async () => {
  await newBuildOffered(browser, tmp);
});

for (const plain of [false, true]) {
  test(`Firefox: the policy binds the page and its workers (${plain ? 'a host without headers: the meta policy' : 'the server’s header'})`, { skip }, async () => {
    const host = await startServer('/', { plain });
    try {
      await policyBinds(browser, host, plain, inBlobWorker);
    } finally {
      host.stop();
    }
    // Firefox reports the refusals as page errors: expected here.
    assert.ok(problems.every((p) => /connect-src|script-src/.test(p)), problems.join('\n'));
    problems.length = 0;
  });
}

test('Firefox: with the server gone, the app reloads from the service worker and runs the demo', { skip }, async () => {
  await openApp(page, server.url);
  await controlled(page);
  await server.stop();
  await assert.rejects(fetch(server.url), 'the server is gone');
  await page.reload();
  await page.waitForSelector('#methods input[type=checkbox]', { timeout: 30000 });
  assert.equal(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), true);
  await page.click('#demo');
  await page.waitForSelector('#preview', { timeout: 30000 });
  await chooseMethods(page, ['fstat']);
  await page.fill('#klist', '1, 5');
  await runAndWait(page, 90000);
  assert.match(await text('#progress-text'), /^5 of 5 units done · report merged/);
  await page.waitForSelector('#chart-accuracy-svm svg');
  await page.waitForSelector('#ranking tbody tr');
  assert.equal(await text('#ranking tbody tr:first-child td:nth-child(2)'), 'worst concave points');
  assert.deepEqual(problems, []);
});
