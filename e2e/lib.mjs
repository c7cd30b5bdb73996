// Shared helpers of the browser tests: start the site's server, start
// Debian's Chromium through playwright-core in a fresh profile, run the CLI.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(repo, 'bin', name);

// Flags for a root, offline, sandboxless machine (see WASM-NOTES.md).
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// startServer runs bin/serve on a free port under base and resolves to
// {url, stop, requests}. Options: dir (default dist; dist-e2e holds the
// test double), plain (no security headers, as a bare static host), log
// (requests collects every path the server is asked for).
export async function startServer(base = '/', { dir = 'dist', plain = false, log = false } = {}) {
  const root = path.resolve(repo, dir);
  if (!existsSync(bin('serve')) || !existsSync(path.join(root, 'index.html'))) {
    throw new Error(`build first: ./build.sh (and ./build.sh e2e for dist-e2e); ${dir}/index.html is missing`);
  }
  const args = ['-addr', '127.0.0.1:0', '-dir', root, '-base', base];
  if (plain) args.push('-plain');
  if (log) args.push('-log');
  const proc = spawn(bin('serve'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const requests = [];
  let errText = '';
  proc.stderr.on('data', (chunk) => {
    errText += chunk;
    const lines = errText.split('\n');
    errText = lines.pop();
    for (const line of lines) {
      const m = line.match(/^serve: (\S+) (\S+)/);
      if (m) requests.push(m[2]);
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
  return { url, stop: () => proc.kill(), requests };
}

// withTimeout races a promise against a timeout (context.close() has hung
// once; WASM-NOTES trap 13).
function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(resolve, ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// startBrowser launches Chromium in a fresh temporary profile and returns
// {page, problems, close}; problems collects console errors, page errors
// and Content-Security-Policy violations.
export async function startBrowser() {
  const profile = mkdtempSync(path.join(tmpdir(), 'sparsefs-e2e-'));
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
    close: async () => {
      await withTimeout(context.close(), 10000);
      rmSync(profile, { recursive: true, force: true });
    },
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
// test sample (at least 1/m) cannot pass.
export function assertSameNumbers(actual, expected, where = '$', scale = 0) {
  const fail = (why) => assert.fail(`${where}: ${why}`);
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (Number.isInteger(expected) && Number.isInteger(actual) && Math.abs(expected) < 2 ** 31) {
      if (actual !== expected) fail(`${actual} !== ${expected}`);
      return;
    }
    const tol = 1e-9 * Math.max(Math.abs(actual), Math.abs(expected), scale);
    if (!(Math.abs(actual - expected) <= tol)) fail(`${actual} differs from ${expected} by more than ${tol}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) fail(`length ${actual?.length} !== ${expected.length}`);
    const big = expected.reduce((m, v) => (typeof v === 'number' ? Math.max(m, Math.abs(v)) : m), 0);
    expected.forEach((v, i) => assertSameNumbers(actual[i], v, `${where}[${i}]`, big));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) fail('not an object');
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${where}: keys`);
    for (const k of Object.keys(expected)) assertSameNumbers(actual[k], expected[k], `${where}.${k}`);
    return;
  }
  if (actual !== expected) fail(`${JSON.stringify(actual)} !== ${JSON.stringify(expected)}`);
}

// sharedData returns the path of a shared dataset, or null when absent
// (a failure instead when SPARSEFS_REQUIRE_DATA is set, as in CI).
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

// chooseMethods ticks exactly the given selectors.
export async function chooseMethods(page, names) {
  const all = await page.$$eval('#methods input[type=checkbox]', (els) => els.map((e) => e.id.slice(2)));
  for (const m of all) {
    if (names.includes(m)) await page.check('#m-' + m);
    else await page.uncheck('#m-' + m);
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
  await page.waitForFunction(() => [...document.querySelectorAll('#running li')].every((l) => / · idle$/.test(l.textContent)), null, { timeout: 120000 });
  return plan;
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
// (ui/evaluation.go, merged): it waits for the table's rows.
export async function shownRanking(page) {
  await page.waitForSelector('#ranking tbody tr');
  return page.$$eval('#ranking tbody tr', (rows) => rows.map((tr) => {
    const td = tr.querySelectorAll('td');
    return { rank: +td[0].textContent, name: td[1].textContent, column: +td[2].textContent, score: td[3].textContent };
  }));
}
