// Shared helpers of the browser tests: start the site's server, start
// Debian's Chromium through playwright-core or Debian's firefox-esr through
// puppeteer-core in a fresh profile, run the CLI, drive the page.
//
// Both browsers come as {page, problems, download(selector),
// onRequest(cb), close()}; page is Playwright's Page, or for Firefox a
// wrapper offering the part of it the tests use, so that the helpers here
// and the test bodies of scenarios.mjs run in both.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(repo, 'bin', name);

// Flags for a root, offline, sandboxless machine (docs/wasm.md#chromium-flags).
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// startServer runs bin/serve on a free port under base and resolves to
// {url, base, stop, requests}. Options: dir (default dist; dist-e2e holds
// the test double), plain (no security headers, as a bare static host),
// log (requests collects every request the server receives, as {method,
// url, serviceWorker, status}: url is the path with the query, status the
// response's (304: revalidated, no body), serviceWorker the
// value of the Service-Worker header, which the browser sets when it
// fetches a service worker's script; see updateCheck).
export async function startServer(base = '/', { dir = 'dist', plain = false, log = false } = {}) {
  const root = path.resolve(repo, dir);
  if (!existsSync(bin('serve')) || !existsSync(path.join(root, 'index.html'))) {
    throw new Error(`build first: ./build.sh (and ./build.sh e2e for dist-e2e); ${dir}/index.html is missing`);
  }
  const args = ['-addr', '127.0.0.1:0', '-dir', root, '-base', base];
  if (plain) args.push('-plain');
  if (log) args.push('-log');
  const proc = spawn(bin('serve'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const requests = [];
  let errText = '';
  proc.stderr.on('data', (chunk) => {
    errText += chunk;
    const lines = errText.split('\n');
    errText = lines.pop();
    for (const line of lines) {
      const m = line.match(/^serve: (\S+) (\S+)(?: service-worker=(\S+))? status=(\d+)$/);
      if (m) requests.push({ method: m[1], url: m[2], serviceWorker: m[3] ?? null, status: Number(m[4]) });
      else if (line.trim()) process.stderr.write(line + '\n');
    }
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('server did not start: ' + out)), 15000);
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/at (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => reject(new Error('server exited with ' + code + ': ' + out)));
  });
  // stop kills the server; its promise resolves once the process is gone.
  const stop = () => {
    proc.kill();
    return exited;
  };
  return { url, base: new URL(url).pathname, stop, requests };
}

// updateCheck tells whether a request a server received (see startServer)
// is the browser's own check for a new version of the site's service
// worker: a GET of sw.js, without a query, marked "Service-Worker:
// script". Browsers make it by themselves (after a navigation to a page
// the service worker controls, when it has not been checked for a while,
// and on registration's update()), whenever they see fit; it carries
// nothing from the page. Offline it fails, and the page goes on with the
// service worker it has.
export function updateCheck(server, r) {
  return r.method === 'GET' && r.url === server.base + 'sw.js' && r.serviceWorker === 'script';
}

// appRequests lists the requests server received from the index from on,
// but for the browser's update checks of the service worker (updateCheck):
// the requests the page and its workers made.
export function appRequests(server, from = 0) {
  return server.requests.slice(from).filter((r) => !updateCheck(server, r));
}

// withTimeout races a promise against a timeout (context.close() has hung
// once; docs/wasm.md#playwright-launch).
function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(resolve, ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// The server and the browser of a test file that calls useApp (each test
// file runs in a process of its own; these bindings are live in the
// files that import them).
export let server, browser;

// useApp has the calling test file start the static server of the site
// (startServer(base, opts)) and a fresh Chromium (startBrowser, with the
// viewport's size if one is given) before its tests, and stop both after
// them.
export function useApp(base = '/', opts = {}, viewport = null) {
  before(async () => {
    server = await startServer(base, opts);
    browser = await startBrowser();
    if (viewport) await browser.page.setViewportSize(viewport);
  });
  after(async () => {
    try {
      await browser?.close();
    } finally {
      server?.stop();
    }
  });
}

// startBrowser launches Chromium in a fresh temporary profile and returns
// {context, page, problems, download, onRequest, close}; problems collects
// console errors, page errors and Content-Security-Policy violations.
export async function startBrowser() {
  const profile = mkdtempSync(path.join(tmpdir(), 'sparsefs-e2e-'));
  const saved = mkdtempSync(path.join(tmpdir(), 'sparsefs-saved-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: chromiumArgs,
    acceptDownloads: true,
  });
  const page = context.pages()[0] || await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /Content Security Policy|Refused to/.test(msg.text())) {
      problems.push(msg.text());
    }
  });
  page.on('pageerror', (err) => problems.push(String(err)));
  context.on('weberror', (err) => problems.push(String(err.error())));
  return {
    context, page, problems,
    // download clicks a button that saves a file and resolves to {name,
    // file, bytes}: the file's name, where it was saved, its contents.
    download: async (selector) => {
      const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
      const file = path.join(saved, d.suggestedFilename());
      await d.saveAs(file);
      return { name: d.suggestedFilename(), file, bytes: readFileSync(file) };
    },
    // onRequest calls cb with the URL of every request the page and its
    // workers make from now on.
    onRequest: (cb) => context.on('request', (r) => cb(r.url())),
    close: async () => {
      await withTimeout(context.close(), 10000);
      rmSync(profile, { recursive: true, force: true });
      rmSync(saved, { recursive: true, force: true });
    },
  };
}

export const firefoxPath = process.env.SPARSEFS_FIREFOX || '/usr/bin/firefox-esr';

// startFirefox launches firefox-esr (headless, a fresh temporary profile,
// 1280 × 900) over WebDriver BiDi and returns {page, raw, problems,
// consoleLines, download, onRequest, version, close}: page is the wrapper
// of the puppeteer page raw (see playwrightLike). A saved file is not
// written by Firefox: the page's click on its <a download> is recorded
// with its blob instead (Firefox's own download handling is not under
// test), and download writes the blob to a temporary directory.
export async function startFirefox() {
  const { default: puppeteer } = await import('puppeteer-core');
  const dir = mkdtempSync(path.join(tmpdir(), 'sparsefs-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    userDataDir: path.join(dir, 'profile'),
    protocolTimeout: 60000,
  });
  // A tab of our own: the window's first tab never has the focus in
  // headless Firefox (document.hasFocus() is false), so that :focus and
  // :focus-visible match nothing, and Enter or Space on a focused button,
  // check box or <summary> does nothing, though the key events arrive.
  const first = await browser.pages();
  const raw = await browser.newPage();
  for (const p of first) await p.close();
  await raw.setViewport({ width: 1280, height: 900 });
  const problems = [];
  const consoleLines = [];
  raw.on('console', (msg) => {
    consoleLines.push(`${msg.type()}: ${msg.text()}`);
    if (msg.type() === 'error' || /Content[- ]Security[- ]Policy|Refused to/i.test(msg.text())) {
      problems.push(`console ${msg.type()}: ${msg.text()}`);
    }
  });
  raw.on('pageerror', (err) => problems.push(`page error: ${err}`));
  await raw.evaluateOnNewDocument(() => {
    window.__saved = [];
    const blobs = new Map();
    const realCreate = URL.createObjectURL;
    URL.createObjectURL = (obj) => {
      const u = realCreate.call(URL, obj);
      blobs.set(u, obj);
      return u;
    };
    const realClick = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
      if (!this.download) return realClick.call(this);
      const blob = blobs.get(this.href);
      window.__saved.push(new Promise((resolve) => {
        const r = new FileReader();
        r.onload = () => resolve({ name: this.download, type: blob.type, base64: r.result.slice(r.result.indexOf(',') + 1) });
        r.readAsDataURL(blob);
      }));
      return undefined;
    };
  });
  const page = playwrightLike(raw);
  return {
    page, raw, problems, consoleLines,
    version: await browser.version(),
    download: async (selector) => {
      const n = await raw.evaluate(() => window.__saved.length);
      await page.click(selector);
      await raw.waitForFunction((k) => window.__saved.length > k, { timeout: 30000 }, n);
      const f = await raw.evaluate((k) => window.__saved[k], n);
      const file = path.join(dir, f.name);
      const bytes = Buffer.from(f.base64, 'base64');
      writeFileSync(file, bytes);
      return { name: f.name, type: f.type, file, bytes };
    },
    onRequest: (cb) => raw.on('request', (r) => cb(r.url())),
    close: async () => {
      await withTimeout(browser.close(), 10000);
      if (browser.process()?.exitCode === null) browser.process().kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// playwrightLike wraps a puppeteer page in the part of Playwright's Page
// the tests use, with Playwright's behaviour: a selector is waited for
// before it is read or acted on, waitForFunction takes (fn, arg, options),
// check and uncheck click until the box has the state.
function playwrightLike(p) {
  const one = async (sel, fn) => {
    await p.waitForSelector(sel);
    return p.$eval(sel, fn);
  };
  const setChecked = async (sel, on) => {
    if (await one(sel, (e) => e.checked) !== on) await p.locator(sel).click();
    await p.waitForFunction((s, v) => document.querySelector(s).checked === v, {}, sel, on);
  };
  return {
    goto: (url) => p.goto(url, { waitUntil: 'load' }),
    reload: () => p.reload({ waitUntil: 'load' }),
    setViewportSize: (size) => p.setViewport(size),
    click: (sel) => p.locator(sel).click(),
    // At once, as Playwright's fill (value set, input and change sent):
    // puppeteer types a value under 100 characters key by key, the page
    // rewrites its fields' values from its state on every render, and in
    // one of five runs on a loaded machine the plan never read "8 units"
    // after folds, seed and K list had been typed.
    fill: (sel, value) => p.locator(sel).fill(value, { typingThreshold: 0 }),
    check: (sel) => setChecked(sel, true),
    uncheck: (sel) => setChecked(sel, false),
    focus: async (sel) => {
      await p.waitForSelector(sel);
      await p.focus(sel);
    },
    selectOption: async (sel, value) => {
      await p.waitForSelector(sel);
      await p.select(sel, value);
    },
    setInputFiles: async (sel, file) => (await p.waitForSelector(sel)).uploadFile(file),
    isChecked: (sel) => one(sel, (e) => e.checked),
    isDisabled: (sel) => one(sel, (e) => e.disabled),
    inputValue: (sel) => one(sel, (e) => e.value),
    textContent: (sel) => one(sel, (e) => e.textContent),
    waitForSelector: (sel, options) => p.waitForSelector(sel, options),
    waitForFunction: (fn, arg, options = {}) => p.waitForFunction(fn, options, arg),
    evaluate: (fn, arg) => p.evaluate(fn, arg),
    // The page's load event (the only event the tests wait for).
    waitForEvent: (name) => new Promise((resolve) => p.once(name, resolve)),
    $: (sel) => p.$(sel),
    $eval: (sel, fn, arg) => p.$eval(sel, fn, arg),
    $$eval: (sel, fn, arg) => p.$$eval(sel, fn, arg),
    // Playwright's 'Space' is puppeteer's ' ' over BiDi.
    keyboard: { press: (key) => p.keyboard.press(key === 'Space' ? ' ' : key) },
  };
}

// cli runs bin/sparsefs and parses its JSON output.
export function cli(...args) {
  return JSON.parse(execFileSync(bin('sparsefs'), args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

// assertSameNumbers asserts that two JSON values are equal but for the
// last bits of their fractional numbers. The page's workers run wasm and the
// CLI runs natively, where core/linalg's amd64 tile fuses multiply-adds
// (FMA) that wasm cannot: an embedded method's objective, trace, scores and
// weights then agree to rounding, not bit for bit. Structure, strings,
// booleans and whole numbers (iterations, rankings, counts, seeds) must be
// identical; a fractional number may differ by 1e-9 of the larger of the
// two, or of the largest magnitude in the array it stands in (for entries
// that are rounding noise around zero). An accuracy that changed by one
// test sample (at least 1/m) cannot pass. tolerance, when given, maps a
// place and the two numbers to the largest difference allowed there
// (certifiedFits).
export function assertSameNumbers(actual, expected, where = '$', scale = 0, tolerance = sameNumbersTolerance) {
  const fail = (why) => assert.fail(`${where}: ${why}`);
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (Number.isInteger(expected) && Number.isInteger(actual) && Math.abs(expected) < 2 ** 31) {
      if (actual !== expected) fail(`${actual} !== ${expected}`);
      return;
    }
    const tol = tolerance(where, actual, expected, scale);
    if (!(Math.abs(actual - expected) <= tol)) fail(`${actual} differs from ${expected} by more than ${tol}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) fail(`length ${actual?.length} !== ${expected.length}`);
    const big = expected.reduce((m, v) => (typeof v === 'number' ? Math.max(m, Math.abs(v)) : m), 0);
    expected.forEach((v, i) => assertSameNumbers(actual[i], v, `${where}[${i}]`, big, tolerance));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) fail('not an object');
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${where}: keys`);
    for (const k of Object.keys(expected)) assertSameNumbers(actual[k], expected[k], `${where}.${k}`, 0, tolerance);
    return;
  }
  if (actual !== expected) fail(`${JSON.stringify(actual)} !== ${JSON.stringify(expected)}`);
}

function sameNumbersTolerance(where, a, b, scale) {
  return 1e-9 * Math.max(Math.abs(a), Math.abs(b), scale);
}

// certifiedFits returns the tolerances of assertSameNumbers for a report
// whose results[r] come from a method that stops on a certified duality
// gap (exl21, whose Newton steps on the face resolve the optimum's flat
// directions only as far as the gap needs, so that the builds' rounding
// moves them): a fit's objective and trace agree to the certified 1e-6,
// its scores and |W| entries to 1e-4 of its largest score in report (the
// boundary clearance of core/selection's top-K tests); rankings,
// selections and accuracies stay exact.
export function certifiedFits(report, r) {
  const fit = new RegExp(`^\\$\\.results\\[${r}\\]\\.units\\[(\\d+)\\]\\.fits\\[(\\d+)\\]\\.(objective|trace|scores|weights)`);
  return (where, a, b, scale) => {
    const m = where.match(fit);
    if (!m) return sameNumbersTolerance(where, a, b, scale);
    if (m[3] === 'objective' || m[3] === 'trace') return 1e-6 * Math.max(Math.abs(a), Math.abs(b), scale);
    return 1e-4 * Math.max(...report.results[r].units[+m[1]].fits[+m[2]].scores.map(Math.abs));
  };
}

// sharedData returns the path of a shared dataset, or null when absent
// (a failure instead when SPARSEFS_REQUIRE_DATA is set, as in CI). The
// datasets are scikit-feature's benchmark collection as gzip-compressed
// CSV files, kept outside the repository: in $SPARSEFS_DATA, or in a
// shared/data directory beside the repository or one of its parents
// (docs/results.md#datasets).
export function sharedData(name) {
  const candidates = [];
  if (process.env.SPARSEFS_DATA) {
    candidates.push(path.join(process.env.SPARSEFS_DATA, name));
  }
  for (let d = repo; ; d = path.dirname(d)) {
    candidates.push(path.join(d, 'shared', 'data', name));
    if (path.dirname(d) === d) break;
  }
  const found = candidates.find((p) => existsSync(p));
  if (!found && process.env.SPARSEFS_REQUIRE_DATA) {
    throw new Error(`shared dataset ${name} not found and SPARSEFS_REQUIRE_DATA is set`);
  }
  return found || null;
}

// openApp loads the page and waits until it is interactive and the workers
// have listed the methods.
export async function openApp(page, url) {
  await page.goto(url);
  await page.waitForSelector('#methods input[type=checkbox]', { timeout: 30000 });
}

// chooseMethods ticks exactly the given selectors (read in one go, then
// only the boxes to change are clicked).
export async function chooseMethods(page, names) {
  const boxes = await page.$$eval('#methods input[type=checkbox]', (els) => els.map((e) => [e.id, e.checked]));
  for (const [id, on] of boxes) {
    const want = names.includes(id.slice(2));
    if (want && !on) await page.check('#' + id);
    if (!want && on) await page.uncheck('#' + id);
  }
}

// setMode chooses what Run does: 'eval' (evaluate, the default) or
// 'rank' (rank on all the data).
export async function setMode(page, mode) {
  await page.check('#mode-' + mode);
}

// configureTable1 opens the app with n workers, reads file, applies the
// rfs-nie-2010 Table 1 preset with the K list klist and waits until the
// workers are idle — they read the data and warm up while a user
// configures — and returns the plan's text.
export async function configureTable1(page, url, n, file, klist = '20, 80') {
  await openApp(page, url);
  await page.fill('#workers', String(n));
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#preview', { timeout: 120000 });
  await page.selectOption('#preset', 'rfs-nie-2010');
  await page.click('#apply-preset');
  await page.fill('#klist', klist);
  const plan = await page.textContent('#plan');
  await waitIdle(page, 120000);
  return plan;
}

// waitIdle waits until every worker of the page is idle (data read,
// warm-up over).
export async function waitIdle(page, timeout = 60000) {
  await page.waitForFunction(() => [...document.querySelectorAll('#running li')].every((l) => / · idle$/.test(l.textContent)), null, { timeout });
}

// controlled waits until the service worker has filled its cache and
// controls the page, and until the check for a new build that the page's
// load started is over: the page registers its service worker at load,
// and the browser then asks the server for sw.js again (Chromium at once;
// Firefox about half a second after load). An update check of our own
// runs after the pending one and ends after it. The browser may check
// again later, when it sees fit (after a reload, for one): the tests that
// count requests tell those checks apart (updateCheck).
export async function controlled(page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    }
    await (await navigator.serviceWorker.getRegistration()).update();
  });
}

// runs reads how many runs the page has started.
export async function runs(page) {
  return page.$eval('#progress-text', (t) => Number(t.dataset.runs || 0));
}

// waitRun waits until run number n has ended (nothing left running or
// waiting, the evaluation's report merged).
export async function waitRun(page, n, timeout = 60000) {
  await page.waitForFunction((k) => {
    const t = document.querySelector('#progress-text');
    return t && Number(t.dataset.runs) >= k && t.dataset.busy === 'no';
  }, n, { timeout });
}

// runAndWait presses Run and waits until the run has ended.
export async function runAndWait(page, timeout = 60000) {
  const n = await runs(page);
  await page.click('#run');
  await waitRun(page, n + 1, timeout);
}

// shownRanking reads the ranking table: [{rank, name, column, score}].
// An evaluation's details (its rankings) are drawn just after its results
// (ui/app/eval.go, merged): it waits for the table's rows.
export async function shownRanking(page) {
  await page.waitForSelector('#ranking tbody tr');
  return page.$$eval('#ranking tbody tr', (rows) => rows.map((tr) => {
    const td = tr.querySelectorAll('td');
    return { rank: +td[0].textContent, name: td[1].textContent, column: +td[2].textContent, score: td[3].textContent };
  }));
}
