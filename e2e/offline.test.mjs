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
import { startServer, startBrowser, openApp, chooseMethods, runAndWait, shownRanking, controlled } from './lib.mjs';
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
