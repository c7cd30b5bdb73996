// Times every filter on every shared dataset (the benchmark datasets, kept
// outside the repository: docs/results.md#datasets) in the browser (Debian's
// Chromium, the Go-wasm worker) and checks each ranking against the CLI.
// Not part of the test suite (it takes minutes); run after ./build.sh:
//
//   node e2e/bench/timing-filters.mjs [dataset.csv.gz ...] > timings.txt
//
// Prints one line per run: dataset, method, the fit time the worker
// reports (the "seconds" of the response) and the wall time from the click
// on Run to the ranking shown.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, startBrowser, cli, sharedData } from '../lib.mjs';
import { rankInBrowser, firstDifference } from '../filters-lib.mjs';

const methods = (process.env.METHODS || 'fisher fstat ttest infogain relieff mrmr').split(' ');
const dir = path.dirname(sharedData('GLIOMA.csv.gz') || '.');
const files = process.argv.length > 2 ? process.argv.slice(2)
  : readdirSync(dir).filter((f) => f.endsWith('.csv.gz')).sort();

const server = await startServer();
const browser = await startBrowser();
const { page } = browser;
console.log('dataset'.padEnd(14), 'method'.padEnd(9), 'fit_s'.padStart(8), 'wall_s'.padStart(8), 'same_as_cli');
try {
  for (const f of files) {
    const file = path.join(dir, f);
    for (const method of methods) {
      const { shown, wall, summary } = await rankInBrowser(page, server.url, file, method);
      const m = summary.match(/in ([\d.]+) (ms|s)\b/);
      const fit = m ? (m[2] === 'ms' ? +m[1] / 1000 : +m[1]) : NaN;
      const same = firstDifference(shown, cli('select', '-data', file, '-method', method)) === 0;
      console.log(f.replace('.csv.gz', '').padEnd(14), method.padEnd(9), fit.toFixed(3).padStart(8), wall.toFixed(3).padStart(8), same ? 'yes' : 'NO');
    }
  }
} finally {
  await browser.close();
  server.stop();
}
if (browser.problems.length) {
  console.error('browser problems:', browser.problems);
  process.exitCode = 1;
}
