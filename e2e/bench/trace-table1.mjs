// Counts what V8 compiles during a run of the rfs-nie-2010 Table 1
// protocol on GLIOMA (Debian's Chromium, headless), from a trace of the
// run (Tracing over a CDP session): the wasm functions compiled lazily
// (baseline tier, by the thread that first calls them) and those compiled
// with the optimising tier (background threads, once a function is hot),
// for the workers' module and the page's apart (told apart by the
// address of the code: each module has its own code space). Not part of
// the test suite; run after ./build.sh:
//
//   node e2e/bench/trace-table1.mjs [--fresh] [workers] [rounds]
//
// The rounds share one profile (a returning user: Chromium's code cache
// holds the module compiled on earlier pages) unless --fresh is given.
// Tracing slows the run down; compare the counts, not the times, with
// timing-table1.mjs.
import { startServer, startBrowser, configureTable1, sharedData, runs, waitRun } from '../lib.mjs';

const fresh = process.argv.includes('--fresh');
const args = process.argv.slice(2).filter((a) => a !== '--fresh');
const workers = Number(args[0] || 2);
const rounds = Number(args[1] || 2);
const file = sharedData('GLIOMA.csv.gz');
if (!file) {
  console.error('GLIOMA.csv.gz not found (set SPARSEFS_DATA)');
  process.exit(2);
}
const categories = 'v8.wasm,disabled-by-default-v8.wasm.detailed,disabled-by-default-v8.compile';

// compilations sums the trace's lazy and optimising compilations by code
// space (the address of the code written, from the FlushInstructionCache
// event inside each compilation; 16 MB granules).
function compilations(events) {
  const threads = {};
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads[e.tid] = e.args.name;
  const flushes = events.filter((e) => e.name === 'FlushInstructionCache' && e.args?.start);
  const spaces = {};
  for (const e of events) {
    if (e.ph !== 'X' || (e.name !== 'wasm.CompileLazy' && e.name !== 'wasm.TopTierCompilation')) continue;
    const f = flushes.find((x) => x.tid === e.tid && x.ts >= e.ts && x.ts <= e.ts + e.dur);
    const space = f ? (BigInt(f.args.start) >> 24n).toString(16) : '?';
    const s = (spaces[space] ??= { lazy: {}, optimised: 0, ms: 0 });
    if (e.name === 'wasm.CompileLazy') {
      const t = threads[e.tid] || e.tid;
      s.lazy[t] = (s.lazy[t] || 0) + 1;
    } else {
      s.optimised++;
      s.ms += e.dur / 1000;
    }
  }
  return spaces;
}

const server = await startServer();
let browser;
try {
  for (let r = 0; r < rounds; r++) {
    if (!browser || fresh) {
      await browser?.close();
      browser = await startBrowser();
    }
    const { page } = browser;
    await configureTable1(page, server.url, workers, file);
    const client = await page.context().newCDPSession(page);
    const events = [];
    client.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const complete = new Promise((resolve) => client.once('Tracing.tracingComplete', resolve));
    await client.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
    const k = await runs(page);
    const t0 = Date.now();
    await page.click('#run');
    await waitRun(page, k + 1, 600000);
    const wall = (Date.now() - t0) / 1000;
    await client.send('Tracing.end');
    await complete;
    await client.detach();
    console.log(`round ${r + 1}, ${workers} worker(s): ${wall.toFixed(2)} s (traced)`);
    for (const [space, s] of Object.entries(compilations(events))) {
      const lazy = Object.entries(s.lazy).map(([t, n]) => `${n} by ${t}`).join(', ') || 'none';
      console.log(`  code space ${space}: compiled lazily ${lazy}; optimised ${s.optimised} functions, ${s.ms.toFixed(0)} ms`);
    }
  }
} finally {
  await browser?.close();
  server.stop();
}
