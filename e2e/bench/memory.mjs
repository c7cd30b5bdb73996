// Peak memory of a tab solving large problems in a worker (run by
// scripts/memory.sh --browser; not a test: its name does not end in
// .test.mjs).
//
//   node e2e/bench/memory.mjs [--dir DIR] [--cases select:rfs,eval] DATA.csv ...
//
// It serves the built site (dist/, or DIR), and for each data file (which
// must lie in DIR/bench-data/, where the server finds it: it is too large
// to pass through the browser's protocol) and each case starts a fresh
// headless Chromium, opens a bare page with one worker started as the
// site starts it (harness.mjs), chooses the file in a file input and
// posts it to the worker (a File: a Blob on disk) as the page does, and
// runs the case:
//
//   select:METHOD  the selection with METHOD's defaults
//   eval           fisher and rfs, K = 10, 50, svm, 3-fold cross-validation,
//                  run as the page runs it: its plan, then one job per unit
//                  (each reads the file afresh when it is large)
//
// It prints one JSON line per run: the peak resident memory of the
// renderer process hosting the page and its worker (VmHWM in /proc, the
// kernel's high-water mark of the process) and the memory of the whole
// browser just after the job (the sum of its processes' Pss), in bytes.
import path from 'node:path';
import { startServer } from '../lib.mjs';
import { openBench, chromiumPeaks, freshBrowser } from './harness.mjs';

const args = process.argv.slice(2);
let dir = 'dist';
let cases = ['select:rfs'];
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dir') dir = args[++i];
  else if (args[i] === '--cases') cases = args[++i].split(',');
  else files.push(args[i]);
}

// request returns the worker request of a case on the file name.
function request(name, c) {
  const data = { name, max_cells: -1, max_bytes: -1 };
  if (c.startsWith('select:')) return { data, method: c.slice('select:'.length), memory_budget: -1 };
  if (c === 'eval') {
    return {
      op: 'eval', data, memory_budget: -1,
      eval: {
        methods: [{ method: 'fisher' }, { method: 'rfs' }], k: [10, 50],
        classifiers: [{ name: 'svm' }], protocol: { kind: 'cv', folds: 3 },
      },
    };
  }
  throw new Error('unknown case ' + c);
}

const server = await startServer('/', { dir });
try {
  for (const f of files) {
    const name = path.basename(f);
    for (const c of cases) {
      const { browser, profile } = await freshBrowser();
      try {
        const page = await openBench(browser, server, new Map());
        // The file as the page gets it: a File the user chose, on disk.
        await page.setInputFiles('#bench-file', path.join(dir, 'bench-data', name));
        const before = chromiumPeaks(profile);
        const started = Date.now();
        const ok = await page.evaluate(async ([n, r]) => {
          if (r.op !== 'eval') {
            const { response } = await self.benchJob(n, r);
            return Boolean(response && response.ranking);
          }
          const { response: plan } = await self.benchJob(n, { ...r, op: 'eval-plan' });
          const units = plan && plan.header ? plan.header.units : 0;
          for (let u = 0; u < units; u++) {
            const { response } = await self.benchJob(n, { ...r, units: [u] });
            if (!response || !response.units || response.units.length !== 1) return false;
          }
          return units > 0;
        }, [name, request(name, c)]);
        const after = chromiumPeaks(profile);
        // The worker's wasm memory: the high-water mark of Go's heap.
        after.wasm = 0;
        for (const wk of page.workers()) {
          after.wasm = Math.max(after.wasm, await wk.evaluate(() => (self.sparsefsMemoryBytes ? self.sparsefsMemoryBytes() : 0)));
        }
        console.log(JSON.stringify({ data: name, case: c, ok, seconds: (Date.now() - started) / 1000, before, after }));
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  server.stop();
}
