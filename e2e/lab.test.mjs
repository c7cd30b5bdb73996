// The laboratory with several jobs: parameter grids on the pool of workers,
// progress, cancel, convergence plots and |W| heat maps, exports that parse
// back, a saved report that loads back, and the keyboard. These tests use
// dist-e2e/, whose worker also holds a test double (wasm/e2e_selector.go):
// "e2e_slow", an embedded method with a parameter "ms" (milliseconds of
// work per iteration), the objective 1 + 1/k after iteration k and
// W[j][q] = (q+1)/(j+1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useApp, server, browser, openApp } from './lib.mjs';
import { gridOnThePool, categoricalChoices, exportsParseBack, cancelRanking, reportLoadsBack, keyboardWalk, noLayoutJump } from './scenarios.mjs';

const tmp = mkdtempSync(path.join(tmpdir(), 'sparsefs-lab-'));

useApp('/', { dir: 'dist-e2e' }, { width: 1280, height: 900 });

let saved; // the report the grid test saves, loaded back by a later one

test('a parameter grid runs on the pool: one job per value, both workers busy, the page answers during the run', async () => {
  saved = await gridOnThePool(browser, server.url);
});

test('a categorical parameter is a set of choices: each ticked choice is a job', async () => {
  await categoricalChoices(browser);
});

test('exports: the ranking, the reduced data and the charts parse back', async () => {
  await exportsParseBack(browser);
});

test('cancel mid-run stops the running jobs, keeps what finished, and the next run works', async () => {
  await cancelRanking(browser, server.url);
});

test('a saved report loads back: results and configuration, and Run repeats it on the same data', async () => {
  assert.ok(saved, 'the grid test saves the report');
  await reportLoadsBack(browser, server.url, saved, tmp);
});

test('keyboard only: every control on the way is labelled, focus is visible, and a run can be made', async () => {
  await keyboardWalk(browser, server.url);
});

test('no layout jump: the results arrive without moving what is above them', async () => {
  await noLayoutJump(browser, server.url);
});

// The focus ring contrasts at least 3:1 (WCAG 2.2, non-text contrast)
// with the card and the page behind it, in the light and the dark theme.
test('the focus ring stands out in both themes', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const ratios = await page.evaluate(() => {
      const rgb = (css) => {
        css = css.trim();
        if (css.startsWith('#')) return [1, 3, 5].map((i) => parseInt(css.slice(i, i + 2), 16));
        return css.match(/[\d.]+/g).slice(0, 3).map(Number);
      };
      const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
      // The ring is the :focus-visible outline in the colour --focus.
      const ring = rgb(getComputedStyle(document.documentElement).getPropertyValue('--focus'));
      const card = rgb(getComputedStyle(document.querySelector('section.card')).backgroundColor);
      const body = rgb(getComputedStyle(document.body).backgroundColor);
      return [contrast(ring, card), contrast(ring, body)];
    });
    for (const r of ratios) assert.ok(r >= 3, `${scheme}: focus ring contrast ${r.toFixed(2)}:1`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
});
