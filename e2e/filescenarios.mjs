// The files a lab has, as test bodies both browsers run (files.test.mjs
// in Chromium, firefox.mjs): a clinic's export (sample IDs, a diagnosis,
// a text column, NA cells), a genes × samples table with a row of
// classes, and a last column of measurements. The page proposes how to
// read each, says so, lets the user change it, and ranks as the CLI does
// when told the same.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { cli, shownRanking, openApp, chooseMethods, runAndWait, setMode } from './lib.mjs';

async function open(page, url, file) {
  await openApp(page, url);
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#preview');
  return page;
}

async function rankAll(page, method, n) {
  await setMode(page, 'rank');
  await chooseMethods(page, [method]);
  await runAndWait(page);
  await page.waitForSelector('#ranking tbody tr');
  await page.fill('#shown', String(n));
  await page.waitForFunction((n) => document.querySelectorAll('#ranking tbody tr').length === n, n);
  return shownRanking(page);
}

function assertSameRanking(shown, expected) {
  assert.deepEqual(shown.map((r) => r.name), expected.ranking.map((j) => expected.features[j]));
}

// clinicExport: sample IDs, a diagnosis, a text column and NA cells are
// read as proposed; Run waits for a choice about the missing cells, then
// ranks as the CLI told the same.
export async function clinicExport(browser, url, tmp) {
  const file = path.join(tmp, 'clinic.csv');
  let csv = 'patient,diagnosis,site,age,marker,score\n';
  for (let i = 0; i < 24; i++) {
    const na = (k) => (i % 7 === k ? 'NA' : '');
    csv += `P${100 + i},${i % 2 ? 'tumor' : 'normal'},${['north', 'south', 'east'][i % 3]},${na(3) || 40 + ((i * 7) % 31)},${na(5) || ((i % 2) * 2 + (i % 5) / 10)},${(i * 3) % 11}\n`;
  }
  writeFileSync(file, csv);
  const { page } = browser;
  await open(page, url, file);
  assert.equal(await page.$eval('#label', (s) => s.value), 'diagnosis');
  assert.equal(await page.$eval('#id-col', (s) => s.value), 'patient');
  assert.equal(await page.$eval('#ignore', (s) => s.value), 'site');
  const text = await page.textContent('#preview');
  assert.match(text, /column 1 \("patient"\) holds a different text in every row/);
  assert.match(text, /column 3 \("site"\) holds text, not numbers: left out/);
  // The IDs lead the preview.
  assert.equal(await page.$eval('#preview table.preview thead th', (th) => th.textContent), 'patient');
  // Missing cells: Run explains itself in words until a choice is made.
  await setMode(page, 'rank');
  await chooseMethods(page, ['fisher']);
  assert.match(await page.textContent('#plan'), /missing values: choose under the preview what to do with them/);
  assert.equal(await page.$eval('#run', (b) => b.disabled), true);
  await page.check('#missing-drop-samples');
  await page.waitForFunction(() => /^\d+ samples/.test(document.querySelector('#data-summary')?.textContent) && !document.querySelector('#run').disabled);
  const expected = cli('select', '-data', file, '-label', 'diagnosis', '-id', 'patient', '-ignore', 'site', '-missing', 'drop-samples', '-method', 'fisher');
  assert.match(await page.textContent('#data-summary'), new RegExp(`^${expected.dataset.samples} samples × 3 features`));
  await runAndWait(page);
  await page.waitForSelector('#ranking tbody tr');
  assertSameRanking(await shownRanking(page), expected);
  assert.deepEqual(browser.problems, []);
}

// genesInRows: a genes × samples table with a row of classes is read
// transposed and ranks as the CLI with -transpose; unticked, its text is
// refused and the data stay open as read.
export async function genesInRows(browser, url, tmp) {
  const file = path.join(tmp, 'genes.csv');
  const samples = Array.from({ length: 12 }, (_, i) => `S${i + 1}`);
  let csv = ['ID_REF', ...samples].join(',') + '\n' + ['class', ...samples.map((_, i) => (i % 2 ? 'ALL' : 'AML'))].join(',') + '\n';
  for (let g = 0; g < 30; g++) csv += [`gene${g}`, ...samples.map((_, i) => ((i % 2) * (g % 5) + ((i * 7 + g * 3) % 11) / 10).toFixed(2))].join(',') + '\n';
  writeFileSync(file, csv);
  const { page } = browser;
  await open(page, url, file);
  assert.equal(await page.isChecked('#transpose'), true);
  assert.match(await page.textContent('#data-summary'), /^12 samples × 30 features/);
  assert.equal(await page.$eval('#label', (s) => s.value), 'class');
  const expected = cli('select', '-data', file, '-transpose', '-label', 'class', '-id', 'ID_REF', '-method', 'fisher');
  assertSameRanking(await rankAll(page, 'fisher', 30), expected);
  // Unticked, the file is read as it stands: its text is refused with
  // the place named, and the data stay open as read.
  await page.click('#transpose');
  await page.waitForSelector('#error-text');
  assert.equal(await page.isChecked('#transpose'), true);
  assert.match(await page.textContent('#data-summary'), /^12 samples × 30 features/);
  assert.deepEqual(browser.problems, []);
}

// measurementColumn: a last column of different numbers is read as a
// regression target; read as classes it is refused, and stays a
// measurement.
export async function measurementColumn(browser, url, tmp) {
  const file = path.join(tmp, 'level.csv');
  let csv = 'a,b,c,level\n';
  for (let i = 0; i < 30; i++) csv += `${i % 7},${(i * 3) % 5},${(i * 11) % 13},${(i * 0.37 + (i % 3)).toFixed(3)}\n`;
  writeFileSync(file, csv);
  const { page } = browser;
  await open(page, url, file);
  assert.equal(await page.$eval('#label-kind', (s) => s.value), 'measure');
  assert.match(await page.textContent('#preview'), /the last column, "level", holds a different number in every row: it is read as a measurement to predict/);
  await page.waitForSelector('#measured');
  assert.match(await page.textContent('#data-summary'), /regression targets level/);
  // As classes, thirty classes of one sample each cannot be learnt: the
  // error says so and the data stay read as a measurement.
  await page.selectOption('#label-kind', 'classes');
  await page.waitForSelector('#error-text');
  assert.match(await page.textContent('#error-text'), /every class has one sample/);
  assert.equal(await page.$eval('#label-kind', (s) => s.value), 'measure');
  assert.deepEqual(browser.problems, []);
}
