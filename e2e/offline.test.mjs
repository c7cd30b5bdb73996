// Private and offline: no request leaves the page during an analysis, the
// app reloads and works with the network off, a new build replaces the old
// one, the Content-Security-Policy binds the workers too (with the server's
// headers and, on a host that sends none, from the page's meta tag), and
// the page is interactive quickly.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, mkdtempSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, startBrowser, repo, openApp, chooseMethods, runAndWait, shownRanking, controlled } from './lib.mjs';
import { analysisWithoutRequests } from './scenarios.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'sparsefs-offline-'));
const cleanup = [];
after(async () => {
  for (const f of cleanup.reverse()) await f();
});

async function setup(opts = {}, base = '/') {
  const server = await startServer(base, opts);
  const browser = await startBrowser();
  cleanup.push(async () => { await browser.close(); server.stop(); });
  return { server, browser, page: browser.page };
}

test('a whole analysis makes no network request: generate, evaluate, exports, upload, rank', async () => {
  const { server, browser } = await setup({ log: true });
  await analysisWithoutRequests(browser, server, tmp);
});

test('with the network off, the app reloads from its cache and runs the demo', async () => {
  const { server, browser, page } = await setup({ log: true }, '/sub/path/');
  await openApp(page, server.url);
  await controlled(page);
  await browser.context.setOffline(true);
  const before = server.requests.length;
  await page.reload();
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await chooseMethods(page, ['fstat']);
  await page.fill('#klist', '1, 5');
  await runAndWait(page);
  assert.match(await page.textContent('#progress-text'), /^5 of 5 units done · report merged/);
  await page.waitForSelector('#chart-accuracy-svm svg');
  // The F statistic's best feature is the same in every fold.
  const top = (await shownRanking(page))[0];
  assert.equal(top.name, 'worst concave points');
  assert.equal(await page.textContent('#ranking tbody tr:first-child td:nth-child(5)'), '5 / 5');
  assert.deepEqual(server.requests.slice(before), []);
  assert.deepEqual(browser.problems, []);
  await browser.context.setOffline(false);
});

test('a new build replaces the old one: the page offers to update, then runs the new files', async () => {
  const site = path.join(tmp, 'site');
  cpSync(path.join(repo, 'dist'), site, { recursive: true });
  const { server, page } = await setup({ dir: site });
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
  await Promise.all([page.waitForEvent('load'), page.click('#update-now')]);
  await openApp(page, server.url);
  assert.equal(await page.evaluate(async () => (await (await fetch('app.js')).text()).includes('// build 2')), true);
  assert.deepEqual(await page.evaluate(() => caches.keys()), ['sparsefs-build-2']);
});

// cspInWorker asks a computing worker to fetch from another origin and to
// eval; both must be refused by the policy.
async function cspInWorker(page) {
  await page.waitForFunction(() => true);
  const workers = page.workers();
  assert.ok(workers.length >= 1, 'no worker');
  return workers[0].evaluate(async () => {
    let violated = '';
    self.addEventListener('securitypolicyviolation', (e) => { violated = e.violatedDirective; });
    try { await fetch('http://127.0.0.1:9/leak'); } catch { /* refused */ }
    await new Promise((r) => setTimeout(r, 200));
    let evalResult = 'allowed';
    try { (0, eval)('1'); } catch (e) { evalResult = e.name; }
    return { violated, evalResult, url: self.location.protocol };
  });
}

for (const plain of [false, true]) {
  test(`the policy binds the page and its workers (${plain ? 'a host without headers: the meta policy' : 'the server’s header'})`, async () => {
    const { server, page } = await setup({ plain });
    const resp = await page.goto(server.url);
    assert.equal(resp.headers()['content-security-policy'] === undefined, plain);
    await openApp(page, server.url);
    const w = await cspInWorker(page);
    assert.deepEqual(w, { violated: 'connect-src', evalResult: 'EvalError', url: 'blob:' });
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
  });
}

test('load to interactive, from localhost with compressed wasm', async () => {
  const server = await startServer();
  cleanup.push(async () => server.stop());
  // The server compresses each file once; let it finish (a static host
  // serves files compressed in advance).
  for (const f of ['ui.wasm', 'worker.wasm']) {
    await (await fetch(server.url + f, { headers: { 'Accept-Encoding': 'gzip' } })).arrayBuffer();
  }
  const rows = [];
  const measure = async (page, load) => {
    await page.waitForFunction(() => performance.getEntriesByName('sparsefs-methods').length > 0, null, { timeout: 30000 });
    const m = await page.evaluate(() => Object.fromEntries(['sparsefs-interactive', 'sparsefs-methods', 'sparsefs-workers-ready']
      .map((n) => [n, performance.getEntriesByName(n)[0]?.startTime])));
    rows.push({ load, ...m });
  };
  for (let i = 0; i < 3; i++) {
    // A cold load: a new browser (nothing cached, not even compiled
    // modules in memory), started and warmed up on another page first.
    const browser = await startBrowser();
    await browser.page.goto(server.url + 'demo/ATTRIBUTION.txt');
    await browser.page.goto(server.url);
    await measure(browser.page, 'cold');
    // Then reloads: from the HTTP and service-worker caches.
    await browser.page.reload();
    await measure(browser.page, 'warm');
    await browser.close();
  }
  console.log('load timings (ms from navigation start): interactive = the page drawn and usable; ' +
    'methods = a worker answered (Run possible); workers = every worker started');
  for (const r of rows) {
    console.log(`  ${r.load}: interactive ${r['sparsefs-interactive'].toFixed(0)}, methods ${r['sparsefs-methods'].toFixed(0)}, ` +
      `workers ${r['sparsefs-workers-ready']?.toFixed(0) ?? '—'}`);
  }
  const cold = rows.filter((r) => r.load === 'cold').map((r) => r['sparsefs-interactive']).sort((a, b) => a - b);
  assert.ok(cold[1] < 2000, `median cold load to interactive ${cold[1]} ms`);
});
