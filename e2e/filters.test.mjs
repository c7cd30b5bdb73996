// The filter baselines in the browser: each runs in the Go-wasm worker on a
// real dataset and shows the ranking the CLI computes, parameters included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, server, browser, cli, sharedData } from './lib.mjs';
import { rankInBrowser, firstDifference } from './filters-lib.mjs';


useApp();

// lung_discrete: 73 samples × 325 discrete features, 7 classes (ties in
// the distances of ReliefF and in the information of mRMR). Each set of
// parameters changes the CLI's ranking, so a parameter the page failed to
// pass on would show.
const runs = [
  ['ttest', {}],
  ['infogain', {}],
  ['infogain', { bins: 4 }],
  ['relieff', {}],
  ['relieff', { k: 3 }],
  ['mrmr', {}],
  ['mrmr', { criterion: 'MIQ', k: 50 }],
];

for (const [method, params] of runs) {
  test(`${method} ${JSON.stringify(params)} in the browser gives the CLI ranking`, async (t) => {
    const file = sharedData('lung_discrete.csv.gz');
    if (!file) {
      t.skip('shared/data not found');
      return;
    }
    const { shown } = await rankInBrowser(browser.page, server.url, file, method, params, 325, 120000);
    const args = Object.entries(params).flatMap(([k, v]) => ['-param', `${k}=${v}`]);
    const want = cli('select', '-data', file, '-method', method, ...args);
    assert.equal(shown.length, want.ranking.length);
    assert.equal(firstDifference(shown, want), 0, 'first rank that differs from the CLI');
    assert.deepEqual(browser.problems, []);
  });
}
