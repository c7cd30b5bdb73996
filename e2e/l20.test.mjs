// l20 and topk from the page: the worker selects exactly K features, the
// same K features as the CLI (the worker's wasm build uses other matrix
// kernels than the native CLI, so only the selected set and the
// objective's leading digits are compared, not every tie of the zeros).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useApp, server, browser, cli, repo } from './lib.mjs';
import { rankInBrowser } from './filters-lib.mjs';


useApp();

for (const method of ['l20', 'topk']) {
  test(`${method} with k = 5 on the demo: 5 nonzero rows, the CLI's features`, async () => {
    const demo = path.join(repo, 'assets', 'demo', 'breast-cancer-wisconsin.csv');
    const { shown: all } = await rankInBrowser(browser.page, server.url, demo, method, { k: 5 }, 5, 120000);
    const shown = all.slice(0, 5);
    const want = cli('select', '-data', demo, '-method', method, '-k', '5');
    assert.equal(want.nonzero_rows, 5);
    assert.deepEqual(shown.map((r) => r.name).sort(), want.selected.map((j) => want.features[j]).sort());
    shown.forEach((r) => assert.ok(Number(r.score) > 0, `${r.name} has score ${r.score}`));
    assert.deepEqual(browser.problems, []);
  });
}
