// The files a lab has, through the page in Chromium (the bodies are in
// filescenarios.mjs; firefox.mjs runs them too).
import { test } from 'node:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useApp, server, browser } from './lib.mjs';
import { clinicExport, genesInRows, measurementColumn } from './filescenarios.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'sparsefs-files-'));

useApp();

test('a clinic export: IDs, diagnosis, a text column and NA cells are read as proposed; Run waits for a choice about the missing cells', async () => {
  await clinicExport(browser, server.url, tmp);
});

test('a genes × samples table with a row of classes is read transposed, and ranks as the CLI with -transpose', async () => {
  await genesInRows(browser, server.url, tmp);
});

test('a last column of measurements is read as a regression target, and can be read as classes', async () => {
  await measurementColumn(browser, server.url, tmp);
});
