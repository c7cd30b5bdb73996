// Load-to-interactive of the app in Debian's headless Chromium, from
// localhost with gzip-compressed wasm. Not a test (it prints figures and
// asserts nothing: a figure depends on the machine and its load); run after
// ./build.sh:
//
//   node e2e/bench/load-time.mjs [runs]      (default 5)
//
// Each run starts a new browser in a fresh profile (nothing cached, not
// even compiled modules in memory), lets it open another page of the site
// first (so that the browser's own start-up is not counted), then loads the
// app: a cold load. It then reloads the page: a warm load, from the HTTP
// and service-worker caches. For each load it reads the page's performance
// marks, in ms from navigation start:
//
//   interactive  the page drawn and usable (sparsefs-interactive)
//   methods      a worker answered with the methods: Run possible
//                (sparsefs-methods)
//   workers      every worker of the pool started (sparsefs-workers-ready)
//
// It prints every run and the median of each figure.
import { startServer, startBrowser } from '../lib.mjs';

const runs = Number(process.argv[2] || 5);
if (!(runs >= 1)) {
  console.error('usage: node e2e/bench/load-time.mjs [runs]');
  process.exit(2);
}
const marks = { interactive: 'sparsefs-interactive', methods: 'sparsefs-methods', workers: 'sparsefs-workers-ready' };

// measure waits until the page has set every mark and reads them.
async function measure(page) {
  await page.waitForFunction((m) => Object.values(m).every((n) => performance.getEntriesByName(n).length > 0), marks, { timeout: 120000 });
  return page.evaluate((m) => Object.fromEntries(Object.entries(m).map(([k, n]) => [k, performance.getEntriesByName(n)[0]?.startTime])), marks);
}

const median = (xs) => {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => (x === undefined ? '—' : x.toFixed(0));
const line = (label, r) => `${label.padEnd(14)} ${Object.keys(marks).map((k) => `${k} ${ms(r[k]).padStart(5)}`).join('   ')}`;

const server = await startServer();
const rows = { cold: [], warm: [] };
try {
  // The server compresses each file once; let it finish (a static host
  // serves files compressed in advance).
  for (const f of ['ui.wasm', 'worker.wasm']) {
    await (await fetch(server.url + f, { headers: { 'Accept-Encoding': 'gzip' } })).arrayBuffer();
  }
  console.log(`load to interactive, ms from navigation start (${runs} runs; Chromium headless, localhost, gzip)`);
  for (let i = 1; i <= runs; i++) {
    const browser = await startBrowser();
    try {
      await browser.page.goto(server.url + 'demo/ATTRIBUTION.txt');
      browser.problems.length = 0; // the text page's missing favicon.ico
      await browser.page.goto(server.url);
      const cold = await measure(browser.page);
      await browser.page.reload();
      const warm = await measure(browser.page);
      rows.cold.push(cold);
      rows.warm.push(warm);
      console.log(line(`run ${i} cold`, cold));
      console.log(line(`run ${i} warm`, warm));
      if (browser.problems.length) console.error('browser problems:', browser.problems);
    } finally {
      await browser.close();
    }
  }
} finally {
  server.stop();
}
for (const load of ['cold', 'warm']) {
  const med = Object.fromEntries(Object.keys(marks).map((k) => [k, median(rows[load].map((r) => r[k]))]));
  console.log(line(`median ${load}`, med));
}
