// Takes the screenshots of docs/ui.md (docs/screenshots/*.png):
//
//   ./build.sh e2e   (builds dist/ and dist-e2e/), then
//   node e2e/screenshots.mjs
//
// The run-in-progress picture uses dist-e2e/, whose worker holds the
// browser tests' slow test double (e2e_slow), so that the run lasts long
// enough to be photographed; the others show the real build. GLIOMA (the
// rfs-nie-2010 pictures) is read from the shared data when present.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, startBrowser, repo, openApp, chooseMethods, runAndWait, setMode, sharedData } from './lib.mjs';

const out = path.join(repo, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const shot = (loc, name) => loc.screenshot({ path: path.join(out, name) });

async function session(dir, fn) {
  const server = await startServer('/', { dir });
  const browser = await startBrowser();
  try {
    await browser.page.setViewportSize({ width: 1100, height: 900 });
    await fn(browser.page, server);
  } finally {
    await browser.close();
    server.stop();
  }
}

const idle = (page) => page.waitForFunction(() => [...document.querySelectorAll('#running li')].every((l) => / · idle$/.test(l.textContent)));

await session('dist', async (page, server) => {
  // The data: the breast-cancer demo.
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await shot(page.locator('section[aria-labelledby="data-h"]'), 'data.png');
  // An evaluation of three selectors on it: results, light and dark.
  await chooseMethods(page, ['fisher', 'relieff', 'l1svm']);
  await page.fill('#klist', '1:15');
  await page.check('#cls-knn');
  await idle(page);
  await runAndWait(page);
  await page.waitForSelector('#chart-accuracy-knn svg');
  await page.fill('#shown', '8');
  await page.dispatchEvent('#shown', 'change');
  await shot(page.locator('#results'), 'results.png');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page.locator('#results'), 'results-dark.png');
  await page.emulateMedia({ colorScheme: 'light' });
  await shot(page.locator('#fig-accuracy-svm'), 'accuracy.png');
  // l1svm's details: its ranking across the folds and its |W|.
  await page.selectOption('#detail-variant', '2');
  await page.waitForSelector('#chart-weights svg');
  await shot(page.locator('#eval-detail'), 'details.png');
  await shot(page.locator('#fig-conv-l1svm'), 'convergence.png');
  // The comparison of the selectors.
  await page.click('#compare-show');
  await page.waitForSelector('#compare-charts svg');
  await shot(page.locator('#compare'), 'compare.png');

  // A clinic's export: sample IDs, a diagnosis, a text column, NA cells.
  const clinic = path.join(mkdtempSync(path.join(tmpdir(), 'sparsefs-shots-')), 'clinic-export.csv');
  let csv = 'patient,diagnosis,site,age,crp,albumin\n';
  for (let i = 0; i < 40; i++) {
    const sick = i % 3 === 0;
    csv += `P${1000 + i},${sick ? 'sepsis' : 'control'},${['ward A', 'ward B', 'ICU'][i % 3]},${45 + ((i * 7) % 40)},${i % 9 === 4 ? 'NA' : (sick ? 80 : 8) + ((i * 13) % 30)},${(sick ? 28 : 40) + ((i * 5) % 8)}\n`;
  }
  writeFileSync(clinic, csv);
  await openApp(page, server.url);
  await page.setInputFiles('#file', clinic);
  await page.waitForSelector('#reading');
  await shot(page.locator('section[aria-labelledby="data-h"]'), 'data-clinic.png');
  // The same on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.check('#missing-mean');
  await shot(page.locator('section[aria-labelledby="data-h"]'), 'phone-data.png');
  await page.click('#recommended');
  await page.fill('#klist', '1:3');
  await idle(page);
  await runAndWait(page);
  await page.waitForSelector('#chart-accuracy-svm svg');
  await page.screenshot({ path: path.join(out, 'phone-results.png') });
  await page.setViewportSize({ width: 1100, height: 900 });

  // The classroom demo: generated data and their ground truth.
  await openApp(page, server.url);
  await page.click('#generate summary');
  await page.fill('#syn-m', '150');
  await page.click('#generate-data');
  await page.waitForSelector('#preview');
  await shot(page.locator('#generate'), 'generate.png');
  await chooseMethods(page, ['fisher', 'relieff', 'rfs']);
  await page.fill('#klist', '1:20');
  await idle(page);
  await runAndWait(page);
  await page.waitForSelector('#chart-truth svg');
  await shot(page.locator('#fig-truth'), 'truth.png');
  await page.selectOption('#detail-variant', '2');
  await page.waitForSelector('#chart-weights svg');
  await page.fill('#shown', '12');
  await page.dispatchEvent('#shown', 'change');
  await shot(page.locator('#ranking'), 'truth-ranking.png');
  await shot(page.locator('#fig-weights'), 'weights.png');

  // A paper's protocol: rfs-nie-2010 Table 1 on GLIOMA.
  const glioma = sharedData('GLIOMA.csv.gz');
  await openApp(page, server.url);
  if (glioma) {
    await page.setInputFiles('#file', glioma);
  } else {
    await page.click('#demo');
  }
  await page.waitForSelector('#preview');
  await page.selectOption('#preset', 'rfs-nie-2010');
  await page.click('#apply-preset');
  await shot(page.locator('section[aria-labelledby="config-h"]'), 'configure.png');
  await idle(page);
  await runAndWait(page);
  await shot(page.locator('#acc-table'), 'table1.png');

  // The plain ranking mode.
  await openApp(page, server.url);
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await setMode(page, 'rank');
  await chooseMethods(page, ['fisher', 'fstat']);
  await runAndWait(page);
  await page.waitForSelector('#chart-time svg');
  await page.fill('#shown', '8');
  await page.dispatchEvent('#shown', 'change');
  await shot(page.locator('#results'), 'rank.png');
});

await session('dist-e2e', async (page, server) => {
  await openApp(page, server.url);
  await page.selectOption('#demo-choice', 'digits');
  await page.click('#demo');
  await page.waitForSelector('#preview');
  await chooseMethods(page, ['fisher', 'e2e_slow']);
  await page.fill('#p-e2e_slow-ms', '40');
  await page.fill('#p-e2e_slow-max_iter', '15');
  await page.fill('#klist', '10, 20');
  await idle(page);
  await page.click('#run');
  await page.waitForFunction(() => /^[3-7] of 10 units done · 2 running/.test(document.querySelector('#progress-text').textContent), null, { timeout: 60000 });
  await page.waitForTimeout(300);
  await shot(page.locator('section[aria-labelledby="run-h"]'), 'run.png');
});
console.log('screenshots written to', out);
