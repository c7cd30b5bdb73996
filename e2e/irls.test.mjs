// The IRLS selectors from the page: rfs and gsr (with parameters typed into
// the form the page builds from the registry) run in the Go-wasm worker and
// give the CLI's ranking, objective and iteration count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser, cli, sharedData, shownRanking } from './lib.mjs';

let server, browser;

before(async () => {
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

// runMethod uploads file, chooses method, types params into their fields,
// runs, shows all n features and returns the table and the summary line.
async function runMethod(file, method, params, n) {
  const { page } = browser;
  await page.goto(server.url);
  await page.waitForSelector('#file', { state: 'attached' });
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#preview');
  await page.selectOption('#method', method);
  for (const [name, value] of Object.entries(params)) {
    await page.fill(`#param-${name}`, String(value));
    await page.dispatchEvent(`#param-${name}`, 'change');
  }
  await page.click('#run');
  await page.waitForSelector('#ranking tbody tr', { timeout: 120000 });
  await page.fill('#shown', String(n));
  await page.dispatchEvent('#shown', 'change');
  await page.waitForFunction((k) => document.querySelectorAll('#ranking tbody tr').length === k, n);
  return { shown: await shownRanking(page), summary: await page.textContent('#result-summary') };
}

for (const c of [
  { method: 'rfs', params: {} },
  { method: 'gsr', params: { r: 1.5, p: 0.5, lambda: 0.5 } },
]) {
  test(`${c.method} ${JSON.stringify(c.params)} from the page equals the CLI`, async (t) => {
    const file = sharedData('lung_discrete.csv.gz');
    if (!file) {
      t.skip('shared/data not found');
      return;
    }
    const { page } = browser;
    // The form lists the method's parameters with their defaults.
    await page.goto(server.url);
    await page.waitForSelector('#file', { state: 'attached' });
    const cliArgs = ['select', '-data', file, '-method', c.method];
    for (const [k, v] of Object.entries(c.params)) cliArgs.push('-param', `${k}=${v}`);
    const want = cli(...cliArgs);
    const { shown, summary } = await runMethod(file, c.method, c.params, want.ranking.length);
    shown.forEach((row, i) => assert.equal(row.column, want.ranking[i], `rank ${i + 1}`));
    const objective = Number(want.objective).toPrecision(4).replace(/\.?0+$/, '');
    assert.match(summary, new RegExp(`^${c.method} on 73 samples × 325 features .* · objective ${objective.replace('.', '\\.')} after ${want.iterations} iterations \\(converged\\)`));
    assert.deepEqual(browser.problems, []);
  });
}

test('the method list shows the IRLS family with their parameters', async () => {
  const { page } = browser;
  await page.goto(server.url);
  await page.waitForSelector('#file', { state: 'attached' });
  await page.click('#demo');
  await page.waitForSelector('#preview');
  const methods = await page.$$eval('#method option', (os) => os.map((o) => o.value));
  for (const m of ['rfs', 'gsr', 'mtfs', 'erfs', 'rk1u']) assert.ok(methods.includes(m), `${m} in ${methods}`);
  await page.selectOption('#method', 'gsr');
  for (const [name, value] of [['r', '1'], ['p', '0.5'], ['lambda', '1'], ['max_iter', '1000'], ['tol', '1e-06']]) {
    assert.equal(await page.inputValue(`#param-${name}`), value, name);
  }
  assert.deepEqual(browser.problems, []);
});
