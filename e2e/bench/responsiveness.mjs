// How quickly the page answers the hand during a run, in Debian's headless
// Chromium. Not a test (it prints figures and asserts nothing: a figure
// depends on the machine and its load); run after ./build.sh:
//
//   node e2e/bench/responsiveness.mjs [runs]      (default 3)
//
// Each run opens the demo, ticks every selector and starts an evaluation
// (10-fold, K = 5:50:5, both classifiers), lets it run for two seconds and
// presses Cancel. It prints, in ms:
//
//   cancel     from the Cancel press (the click event, on the page's clock)
//              to Run enabled again (a MutationObserver on Run's disabled
//              attribute)
//   longest    the longest task on the page's thread during the run and
//              the cancel (PerformanceObserver, entry type "longtask":
//              tasks over 50 ms)
//   over100    how many tasks took more than 100 ms
//
// and the median of each figure.
import { startServer, startBrowser, openApp, chooseMethods } from '../lib.mjs';

const runs = Number(process.argv[2] || 3);
const server = await startServer();
const rows = [];
try {
  for (let i = 1; i <= runs; i++) {
    const browser = await startBrowser();
    try {
      const { page } = browser;
      await openApp(page, server.url);
      await page.evaluate(() => {
        self.__long = [];
        new PerformanceObserver((list) => { for (const e of list.getEntries()) self.__long.push(e.duration); }).observe({ type: 'longtask' });
      });
      await page.click('#demo');
      await page.waitForSelector('#preview');
      const all = await page.$$eval('#methods input[type=checkbox]', (els) => els.map((e) => e.id.replace(/^m-/, '')));
      await chooseMethods(page, all.filter((m) => !['stabsel', 'consensus'].includes(m)));
      await page.fill('#klist', '5:50:5');
      await page.waitForFunction(() => !document.querySelector('#run').disabled);
      await page.evaluate(() => { self.__long.length = 0; });
      await page.click('#run');
      await page.waitForTimeout(2000);
      await page.evaluate(() => {
        self.__cancel = new Promise((resolve) => {
          document.querySelector('#cancel').addEventListener('click', (ev) => {
            const t0 = ev.timeStamp;
            // The page's own click handler runs first, and may have given
            // Run back already.
            const run = () => document.querySelector('#run');
            const check = () => !run().disabled && (resolve(performance.now() - t0), true);
            if (check()) return;
            new MutationObserver((_, obs) => { if (check()) obs.disconnect(); })
              .observe(document.body, { attributes: true, subtree: true, childList: true });
          }, { once: true });
        });
      });
      await page.click('#cancel', { noWaitAfter: true });
      const cancel = await page.evaluate(() => self.__cancel);
      await page.waitForTimeout(500);
      const long = await page.evaluate(() => self.__long);
      const r = { cancel, longest: Math.max(0, ...long), over100: long.filter((d) => d > 100).length };
      rows.push(r);
      console.log(`run ${i}: cancel ${r.cancel.toFixed(0)} ms · longest task ${r.longest.toFixed(0)} ms · ${r.over100} task(s) over 100 ms (${long.length} over 50 ms)`);
    } finally {
      await browser.close();
    }
  }
} finally {
  server.stop();
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
console.log(`median: cancel ${median(rows.map((r) => r.cancel)).toFixed(0)} ms · longest task ${median(rows.map((r) => r.longest)).toFixed(0)} ms · tasks over 100 ms ${median(rows.map((r) => r.over100))}`);
