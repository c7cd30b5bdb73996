// Times the rfs-nie-2010 Table 1 protocol in the browser (Debian's
// Chromium, headless): the preset "Nie et al. 2010 (RFS), Table 1" — six
// selectors (those of this build), 5-fold cross-validation, K = 20 and 80,
// a linear SVM with C = 1 — on GLIOMA, with one worker and with two, and
// checks the page's report against `sparsefs eval` for the same request.
// Not part of the test suite; run after ./build.sh:
//
//   node e2e/bench/timing-table1.mjs [--fresh] [rounds] [dataset.csv.gz] [K list]
//
// The K list is Table 1's "20, 80" by default; "1:80" gives the curves of
// the paper's Fig. 1 (the same protocol with every K up to 80).
//
// Each round runs 1 worker then 2 workers in a fresh page (the module is
// compiled and the data read again each time, as for a user: the workers
// read the file and warm up when it is opened, and the run starts once
// they are idle, as after a user's configuring). Prints the wall time from
// the click on Run to the merged report, its phases (plan, units, merge)
// from the page's performance marks, and the speed-up of each round; the
// median of the rounds at the end.
//
// The rounds share one browser profile, as a returning user's visits do:
// from the second page on, Chromium has the workers' module in its code
// cache, with the functions it had compiled with its optimising tier.
// With --fresh every page opens in a new profile (a first visit: nothing
// cached, all the code compiled during the visit).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startServer, startBrowser, configureTable1, sharedData, repo, runs, waitRun } from '../lib.mjs';

const fresh = process.argv.includes('--fresh');
const args = process.argv.slice(2).filter((a) => a !== '--fresh');
const rounds = Number(args[0] || 3);
const file = args[1] || sharedData('GLIOMA.csv.gz');
const klist = args[2] || '20, 80';
if (!file) {
  console.error('GLIOMA.csv.gz not found (set SPARSEFS_DATA)');
  process.exit(2);
}

const server = await startServer();
let browser, page;
const problems = [];
async function newBrowser() {
  if (browser) {
    problems.push(...browser.problems);
    await browser.close();
  }
  browser = await startBrowser();
  page = browser.page;
  await page.setViewportSize({ width: 1280, height: 900 });
}
await newBrowser();

// once runs the preset with n workers and returns the seconds from the
// click to the merged report, and the report.
async function once(n) {
  if (fresh) await newBrowser();
  // The workers read the data and warm up as soon as the file is open
  // and again when the preset has chosen the methods, while the user
  // configures; the run starts once they are idle.
  const plan = await configureTable1(page, server.url, n, file, klist);
  const k = await runs(page);
  const t0 = Date.now();
  await page.click('#run');
  await waitRun(page, k + 1, 600000);
  const wall = (Date.now() - t0) / 1000;
  const text = await page.textContent('#progress-text');
  if (!/report merged/.test(text)) throw new Error('the run did not finish: ' + text);
  const marks = await page.evaluate(() => {
    const t = (n) => performance.getEntriesByName(n).at(-1)?.startTime;
    const s = t('sparsefs-eval-start');
    if (performance.getEntriesByName('sparsefs-eval-merge-all').length) throw new Error('the merge fell back to sending every part');
    return { plan: t('sparsefs-eval-planned') - s, units: t('sparsefs-eval-units-done') - t('sparsefs-eval-planned'), merge: t('sparsefs-eval-done') - t('sparsefs-eval-units-done'),
    };
  });
  await page.waitForSelector('#export-report:not([disabled])');
  const marks2 = await page.evaluate(() => performance.getEntriesByName('sparsefs-eval-report').at(-1)?.startTime - performance.getEntriesByName('sparsefs-eval-done').at(-1)?.startTime);
  marks.json = marks2;
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('#export-report')]);
  const report = JSON.parse(execFileSync('cat', [await d.path()], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  return { wall, plan, text, report, marks };
}

const results = [];
try {
  for (let r = 0; r < rounds; r++) {
    const one = await once(1);
    const two = await once(2);
    results.push({ one: one.wall, two: two.wall });
    const phases = (m) => `plan ${(m.plan / 1000).toFixed(2)}, units ${(m.units / 1000).toFixed(2)}, merge ${(m.merge / 1000).toFixed(2)}; the report's JSON ${(m.json / 1000).toFixed(2)} later`;
    console.log(`round ${r + 1}: 1 worker ${one.wall.toFixed(2)} s (${phases(one.marks)}), 2 workers ${two.wall.toFixed(2)} s (${phases(two.marks)}), ` +
      `speed-up ${(one.wall / two.wall).toFixed(2)}×`);
    if (r === 0) {
      console.log('  ' + two.plan);
      // The page's numbers are the CLI's for the same request.
      const req = path.join(repo, 'dist', '..', 'e2e', '.table1-report.json');
      const fs = await import('node:fs');
      fs.writeFileSync(req, JSON.stringify(two.report));
      const cli = JSON.parse(execFileSync(path.join(repo, 'bin', 'sparsefs'), ['eval', '-request', req, '-data', file], { encoding: 'utf8', maxBuffer: 1 << 28 }));
      fs.unlinkSync(req);
      for (let i = 0; i < cli.results.length; i++) {
        const a = two.report.results[i].accuracy[0].mean.map((x) => (100 * x).toFixed(2));
        const b = cli.results[i].accuracy[0].mean.map((x) => (100 * x).toFixed(2));
        const fit = two.report.results[i].fit_seconds.mean;
        console.log(`  ${cli.results[i].method.padEnd(9)} accuracy % at K = ${cli.k.join(', ')}: page ${a.join(', ')} · CLI ${b.join(', ')}` +
          `${a.join() === b.join() ? '' : '  DIFFERENT'} · fit ${(1000 * fit).toFixed(0)} ms per split in the worker`);
      }
    }
  }
} finally {
  await browser.close();
  server.stop();
}
problems.push(...browser.problems);
const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)];
const m1 = median(results.map((r) => r.one));
const m2 = median(results.map((r) => r.two));
console.log(`median of ${rounds}${fresh ? ' (a new profile for every page)' : ''}: 1 worker ${m1.toFixed(2)} s, 2 workers ${m2.toFixed(2)} s, speed-up ${(m1 / m2).toFixed(2)}× ` +
  `(median of the rounds' speed-ups ${median(results.map((r) => r.one / r.two)).toFixed(2)}×)`);
if (problems.length) {
  console.error('browser problems:', problems);
  process.exitCode = 1;
}
