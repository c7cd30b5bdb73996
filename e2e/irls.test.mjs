// The IRLS selectors from the page: rfs and gsr (with parameters typed into
// the form the page builds from the registry) run in the Go-wasm worker and
// give the CLI's ranking, objective and iteration count, and say so when the
// answer is certified optimal. The page is driven
// through filters-lib.mjs, which knows both forms the page has had.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, server, browser, cli, sharedData } from './lib.mjs';
import { rankInBrowser } from './filters-lib.mjs';


useApp();

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
    const cliArgs = ['select', '-data', file, '-method', c.method];
    for (const [k, v] of Object.entries(c.params)) cliArgs.push('-param', `${k}=${v}`);
    const want = cli(...cliArgs);
    const { shown, summary } = await rankInBrowser(browser.page, server.url, file, c.method, c.params, want.ranking.length, 120000);
    shown.forEach((row, i) => assert.equal(row.column, want.ranking[i], `rank ${i + 1}`));
    const objective = String(Number(Number(want.objective).toPrecision(4))); // Go's %.4g for these sizes
    assert.match(summary, new RegExp(`^${c.method}\\b.* on 73 samples × 325 features .* · objective ${objective.replace('.', '\\.')} after ${want.iterations} iterations \\(${want.stop.replaceAll('_', ' ')}\\)`));
    // The summary says the answer is proven optimal exactly where the
    // CLI's certificate meets the certified stop's goal (rfs here: the
    // face minimum certifies lung_discrete; gsr with p < 1 has none).
    const proven = Boolean(want.certificate && want.certificate.gap <= 1e-6);
    assert.equal(summary.includes('proven optimal'), proven, summary);
    assert.deepEqual(browser.problems, []);
  });
}

test('the method list shows the IRLS family with their parameters', async () => {
  const { page } = browser;
  await page.goto(server.url);
  // The list fills in once the workers have answered.
  await page.waitForSelector('#m-rfs, #method option[value=rfs]', { state: 'attached', timeout: 30000 });
  const lab = (await page.$('#method')) === null;
  // The page drives either the single-method form (a <select id=method>,
  // fields #param-NAME holding the defaults) or the laboratory (check
  // boxes #m-NAME, fields #p-METHOD-NAME with the defaults as placeholders).
  const methods = lab
    ? await page.$$eval('#methods input[type=checkbox]', (els) => els.map((e) => e.id.slice(2)))
    : await page.$$eval('#method option', (os) => os.map((o) => o.value));
  for (const m of ['rfs', 'gsr', 'mtfs', 'erfs', 'rk1u']) assert.ok(methods.includes(m), `${m} in ${methods}`);
  if (lab) await page.check('#m-gsr');
  else await page.selectOption('#method', 'gsr');
  for (const [name, value] of [['r', '1'], ['p', '0.5'], ['lambda', '1'], ['max_iter', '1000'], ['tol', '1e-06']]) {
    const got = lab ? await page.getAttribute(`#p-gsr-${name}`, 'placeholder') : await page.inputValue(`#param-${name}`);
    assert.equal(Number(got), Number(value), name);
  }
  assert.deepEqual(browser.problems, []);
});
