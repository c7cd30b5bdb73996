// The walking skeleton end to end: a CSV goes through the page, the Go-wasm
// worker and back, and the ranking shown equals the CLI's for the same file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useApp, server, browser, cli, sharedData, shownRanking, openApp, chooseMethods, runAndWait, setMode } from './lib.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'sparsefs-data-'));

useApp();

// A deterministic 60 × 40 table: feature j shifts with the class by j/10,
// plus pseudo-random noise (a linear congruential generator), so the
// ranking is well defined and not trivially ordered.
function syntheticCSV() {
  let s = 12345;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const names = Array.from({ length: 40 }, (_, j) => `gene_${String(j + 1).padStart(2, '0')}`);
  const lines = [[...names, 'outcome'].join(',')];
  for (let i = 0; i < 60; i++) {
    const cls = i % 3;
    const row = names.map((_, j) => (cls * ((j * 7) % 40) / 10 + 4 * rand()).toFixed(6));
    lines.push([...row, ['good', 'poor', 'fair'][cls]].join(','));
  }
  return lines.join('\n') + '\n';
}

async function openPage() {
  const { page } = browser;
  await openApp(page, server.url);
  return page;
}

// uploadAndRank uploads a file, runs a method, shows every feature and
// returns the table.
async function uploadAndRank(page, file, method, nFeatures) {
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#preview');
  await setMode(page, 'rank');
  await chooseMethods(page, [method]);
  await runAndWait(page);
  await page.waitForSelector('#ranking tbody tr');
  await page.fill('#shown', String(nFeatures));
  await page.dispatchEvent('#shown', 'change');
  await page.waitForFunction((n) => document.querySelectorAll('#ranking tbody tr').length === n, nFeatures);
  return shownRanking(page);
}

function assertSameRanking(shown, expected) {
  assert.equal(shown.length, expected.ranking.length);
  shown.forEach((row, i) => {
    const j = expected.ranking[i];
    assert.equal(row.rank, i + 1);
    assert.equal(row.column, j, `rank ${i + 1}: column ${row.column}, CLI says ${j}`);
    assert.equal(row.name, expected.features[j]);
  });
}

test('upload a CSV, run fisher: the ranking shown equals the CLI ranking', async () => {
  const file = path.join(tmp, 'synthetic.csv');
  writeFileSync(file, syntheticCSV());
  const page = await openPage();
  const shown = await uploadAndRank(page, file, 'fisher', 40);
  assertSameRanking(shown, cli('select', '-data', file, '-method', 'fisher'));
  const summary = await page.textContent('#data-summary');
  assert.match(summary, /60 samples × 40 features · comma-separated · header row/);
  const classes = await page.$$eval('#classes tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim()).join(' ')));
  assert.deepEqual(classes, ['fair 20', 'good 20', 'poor 20']);
  assert.deepEqual(browser.problems, []);
});

test('a gzip-compressed real dataset gives the CLI ranking too (fstat)', async (t) => {
  const file = sharedData('lung_discrete.csv.gz');
  if (!file) {
    t.skip('shared/data not found');
    return;
  }
  const page = await openPage();
  const shown = await uploadAndRank(page, file, 'fstat', 325);
  assertSameRanking(shown, cli('select', '-data', file, '-method', 'fstat'));
  assert.deepEqual(browser.problems, []);
});

test('a malformed CSV shows a readable message, not a blank page', async () => {
  const file = path.join(tmp, 'ragged.csv');
  writeFileSync(file, 'a,b,label\n1,2,x\n3,4\n5,6,y\n');
  const page = await openPage();
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#error-text');
  const text = await page.textContent('#error-text');
  assert.match(text, /ragged\.csv: line 3: this row has 2 fields but the header has 3/);
  assert.equal(await page.$('#preview'), null);
  // The page still works: a good file after the bad one.
  const good = path.join(tmp, 'good.csv');
  writeFileSync(good, 'a,b,label\n1,0,x\n2,2,x\n6,5,y\n7,5,y\n');
  await page.setInputFiles('#file', good);
  await page.waitForSelector('#preview');
  assert.equal(await page.$('#error-text'), null);
  assert.deepEqual(browser.problems, []);
});

// A clinic's export: the diagnosis, as text, in the first column. The page
// reads it as the label, says so, and ranks as the CLI does when told
// -label diagnosis.
test('a file with the diagnosis first: read as the label, ranked as the CLI', async () => {
  const page = await openPage();
  const file = path.join(tmp, 'clinic.csv');
  let csv = 'diagnosis,age,marker,score\n';
  for (let i = 0; i < 20; i++) csv += `${i % 2 ? 'tumor' : 'normal'},${40 + (i * 7) % 31},${(i % 2) * 2 + (i % 5) / 10},${(i * 3) % 11}\n`;
  writeFileSync(file, csv);
  const expected = cli('select', '-data', file, '-label', 'diagnosis', '-method', 'fisher');
  const shown = await uploadAndRank(page, file, 'fisher', expected.ranking.length);
  assertSameRanking(shown, expected);
  assert.equal(await page.$eval('#label', (s) => s.value), 'diagnosis');
  assert.match(await page.textContent('#preview'), /column 1 \("diagnosis"\) holds text, not numbers: it is read as the class label/);
  assert.deepEqual(browser.problems, []);
});

// The formats the core reads, through the page's file picker: the same
// table as an Excel workbook, ARFF, LIBSVM and a MATLAB .mat file (the
// reader's fixtures, written by independent writers) is read, described
// and ranked as the CLI ranks the same file. The workbook opens with a
// sheet of notes: its table on the second sheet is read, and the sheet
// picker offers both; a sheet without a table leaves the table open.
test('other formats through the page: XLSX, ARFF, LIBSVM, MAT rank as the CLI', async () => {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'core', 'dataset', 'testdata', 'formats');
  for (const [name, layout] of [['table.xlsx', /Excel workbook, sheet "Data"/], ['table.arff', /ARFF/], ['table.libsvm', /LIBSVM/], ['table.mat', /MATLAB \.mat/]]) {
    const page = await openPage(); // a fresh page: the preview shown is this file's
    const file = path.join(dir, name);
    const expected = cli('select', '-data', file, '-method', 'fisher');
    const shown = await uploadAndRank(page, file, 'fisher', expected.ranking.length);
    assertSameRanking(shown, expected);
    assert.match(await page.textContent('#data-summary'), layout, name);
    if (name === 'table.xlsx') {
      assert.deepEqual(await page.$$eval('#sheet option', (os) => os.map((o) => o.value)), ['Notes', 'Data']);
      assert.equal(await page.$eval('#sheet', (s) => s.value), 'Data');
      await page.selectOption('#sheet', 'Notes');
      await page.waitForSelector('#error-text');
      assert.match(await page.textContent('#error-text'), /^table\.xlsx: sheet "Notes", row 1: /);
      assert.equal(await page.$eval('#sheet', (s) => s.value), 'Data');
      assert.match(await page.textContent('#data-summary'), layout);
      // The error took the focus from the menu, and the page still answers
      // (moving the focus once deadlocked it).
      await page.waitForFunction(() => document.activeElement?.id === 'error');
      await page.selectOption('#sheet', 'Data');
      await page.waitForSelector('#error-text', { state: 'detached' });
    }
  }
  assert.deepEqual(browser.problems, []);
});
