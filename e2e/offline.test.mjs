// Private and offline: no request leaves the page during an analysis, the
// app reloads and works with the network off, a new build replaces the old
// one, the Content-Security-Policy binds the workers too (with the server's
// headers and, on a host that sends none, from the page's meta tag). How
// fast the page loads is measured, not tested: e2e/bench/load-time.mjs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, startBrowser, openApp, chooseMethods, runAndWait, shownRanking, controlled, appRequests } from './lib.mjs';
import { analysisWithoutRequests, newBuildOffered, policyBinds } from './scenarios.mjs';

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

// A first visit downloads each file once: the service worker, installed
// once the page has both wasm modules, revalidates them from the HTTP
// cache (304, no body) instead of downloading them again.
test('a first visit downloads each wasm file once', async () => {
  const { server, page } = await setup({ log: true });
  await openApp(page, server.url);
  await controlled(page);
  await page.evaluate(async () => {
    const keys = await caches.keys();
    const cache = await caches.open(keys.find((k) => k.startsWith('sparsefs-')));
    if (!(await cache.match('worker.wasm')) || !(await cache.match('ui.wasm'))) throw new Error('the wasm files are not cached');
  });
  for (const file of ['ui.wasm', 'worker.wasm']) {
    const got = server.requests.filter((r) => r.url === server.base + file);
    assert.equal(got.filter((r) => r.status === 200).length, 1, `${file}: ${JSON.stringify(got)}`);
  }
  // The scalar workers' module is for browsers without SIMD128 only.
  assert.deepEqual(server.requests.filter((r) => r.url === server.base + 'worker-scalar.wasm'), []);
});

// A browser without WebAssembly SIMD128 (here: one whose validator says so
// of the page's probe) runs the workers' scalar module, to the same answer.
test('a browser without SIMD128 runs the scalar workers', async () => {
  const { server, browser, page } = await setup({ log: true });
  await browser.context.addInitScript(() => {
    const validate = WebAssembly.validate;
    WebAssembly.validate = (bytes) => {
      const b = new Uint8Array(bytes);
      return b.includes(0x7b) && b.length < 64 ? false : validate(bytes);
    };
  });
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await chooseMethods(page, ['fstat']);
  await page.fill('#klist', '1, 5');
  await runAndWait(page);
  assert.match(await page.textContent('#progress-text'), /^5 of 5 units done · report merged/);
  assert.equal((await shownRanking(page))[0].name, 'worst concave points');
  const fetched = (file) => server.requests.filter((r) => r.url === server.base + file && r.status === 200 && !r.serviceWorker);
  assert.equal(fetched('worker-scalar.wasm').length, 1, JSON.stringify(server.requests.map((r) => r.url)));
});

test('with the network off, the app reloads from its cache and runs the demo', async () => {
  const { server, browser, page } = await setup({ log: true }, '/sub/path/');
  await openApp(page, server.url);
  await controlled(page);
  // From now on, every request of the page and its workers must be
  // answered by the service worker, from its cache: none answered by the
  // network, none failing (a miss in the cache would go to the network,
  // which is off).
  const notFromCache = [];
  const pending = [];
  browser.context.on('requestfinished', (r) => pending.push((async () => {
    if (/^https?:/.test(r.url()) && !(await r.response())?.fromServiceWorker()) notFromCache.push(`${r.url()}: answered by the network`);
  })()));
  browser.context.on('requestfailed', (r) => {
    if (/^https?:/.test(r.url())) notFromCache.push(`${r.url()}: ${r.failure()?.errorText}`);
  });
  await browser.context.setOffline(true);
  const before = server.requests.length;
  await page.reload();
  await page.waitForSelector('#methods input[type=checkbox]', { timeout: 30000 });
  assert.equal(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), true);
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
  await Promise.all(pending);
  assert.deepEqual(notFromCache, [], 'requests of the page not answered from the cache');
  // Nothing left the page. The browser may check for a new version of the
  // service worker (a GET of sw.js marked "Service-Worker: script") after
  // the reload, whenever it sees fit: that request is the browser's, not
  // the app's, and carries nothing from the page (Chromium's offline
  // emulation lets it through to the server; with the network really off
  // it fails, and the page keeps the service worker it has).
  assert.deepEqual(appRequests(server, before), [], 'requests that reached the server, the browser’s update checks of sw.js left out');
  assert.deepEqual(browser.problems, []);
  await browser.context.setOffline(false);
});

test('a new build replaces the old one: the page offers to update, then runs the new files', async () => {
  const browser = await startBrowser();
  cleanup.push(() => browser.close());
  await newBuildOffered(browser, tmp);
});

for (const plain of [false, true]) {
  test(`the policy binds the page and its workers (${plain ? 'a host without headers: the meta policy' : 'the server’s header'})`, async () => {
    const { server, browser } = await setup({ plain });
    await policyBinds(browser, server, plain);
  });
}
