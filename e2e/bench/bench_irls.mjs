// Browser timing harness of the IRLS selectors (run by scripts/bench_irls.sh;
// not a test: its name does not end in .test.mjs).
//
//   node e2e/bench/bench_irls.mjs [--repeat N] [--plain] [--memory] [--kernels TEST.wasm] [--dir DIR] [--engine NAME] DATA.csv.gz ...
//
// It serves the built site (dist/, ./build.sh, or DIR: a copy of it with
// another build of the worker), opens a bare page on the
// site's origin in Debian's headless Chromium, starts one worker as the
// site does (its worker.js and worker.wasm), warms its kernels up on a small synthetic problem
// (V8 starts wasm in a baseline tier; docs/wasm.md#baseline-tier), then posts each
// dataset as the page does — the file's bytes as a transferred ArrayBuffer
// (with the job, or loaded once, whichever protocol the worker speaks) and
// a JSON job.Request — for rfs (γ = 1), N times. It prints one JSON line
// per run: the fit time the worker reports (Selection.seconds, the same
// measure as numpy_rfs.py's solve-only time), the round trip measured on
// the page with performance.timeOrigin + performance.now() (file parsing
// included, unless a worker that keeps parsed files has seen it), the
// iterations and the objective, under the engine name "chromium" (or
// NAME: "NAME-irls" for the runs of --plain, "NAME-kernels" for the lines of
// --kernels), and the certificate and status the worker reports
// (certificate.gap, stop). With --model NAME[:K=V,...] (repeatable) each
// round runs those models instead of rfs, e.g. --model gsr:r=1,p=1 (the
// run's "model" is the argument as given; scripts/cert_table.sh).
// With --plain each round also runs rfs with
// solver=irls (Algorithm 1 without the acceleration; engine
// "chromium-irls").
//
// With --memory it also solves a synthetic 85 × 22283 problem (4 classes;
// the size of the largest microarray sets) in a fresh browser and reports
// the peak resident memory of the renderer process hosting the page and its
// worker (VmHWM in /proc, which the kernel keeps as the high-water mark of
// the process since it started), and the memory of the whole browser just
// after the job (the sum of the processes' Pss).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startServer, startBrowser } from '../lib.mjs';
import { syntheticCSV, openBench, chromiumPeaks, freshBrowser } from './harness.mjs';

//
// With --kernels it runs a Go test binary compiled to wasm (GOOS=js
// GOARCH=wasm go test -c ./core/linalg) in a worker of its own with
// -test.bench 'Kernels|Cholesky' (or --bench PATTERN), and prints its
// benchmark lines: the kernels of core/linalg against gonum's, in the
// browser.
const args = process.argv.slice(2);
let repeat = 3;
let memory = false;
let plain = false;
let kernels = '';
let benchPattern = 'Kernels|Cholesky';
let dir = 'dist';
let engine = 'chromium';
const files = [];
const models = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--repeat') repeat = Number(args[++i]);
  else if (args[i] === '--memory') memory = true;
  else if (args[i] === '--plain') plain = true;
  else if (args[i] === '--kernels') kernels = args[++i];
  else if (args[i] === '--bench') benchPattern = args[++i];
  else if (args[i] === '--dir') dir = args[++i];
  else if (args[i] === '--engine') engine = args[++i];
  else if (args[i] === '--model') models.push(args[++i]);
  else files.push(args[i]);
}

// benchKernels runs the wasm test binary's kernel benchmarks in a worker
// and resolves to the lines they print.
async function benchKernels(browser, server, testWasm) {
  const { page } = browser;
  await page.route('**/bench.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>kernels</title>' }));
  await page.route('**/kernels.wasm', (route) => route.fulfill({ contentType: 'application/wasm', body: testWasm }));
  await page.route('**/kernels-worker.js', (route) => route.fulfill({
    contentType: 'text/javascript',
    body: `importScripts('wasm_exec.js');
      console.log = (...a) => postMessage(a.join(' '));
      const go = new Go();
      go.argv = ['linalg.test', '-test.run=^$', '-test.bench=${benchPattern}', '-test.benchtime=300ms'];
      WebAssembly.instantiateStreaming(fetch('kernels.wasm'), go.importObject)
        .then((r) => go.run(r.instance)).then(() => postMessage('__done__'), (e) => postMessage('__done__ ' + e));`,
  }));
  await page.goto(server.url + 'bench.html');
  return page.evaluate(() => new Promise((resolve) => {
    const lines = [];
    const w = new Worker('kernels-worker.js');
    w.onmessage = (ev) => {
      if (String(ev.data).startsWith('__done__')) resolve(lines);
      else lines.push(...String(ev.data).split('\n').filter((l) => l.trim()));
    };
  }));
}

const run = (page, name, method = 'rfs', params = {}) => page.evaluate(([n, m, p]) => self.benchRun(n, m, p), [name, method, params]);

const server = await startServer('/', { dir });
try {
  const blobs = new Map([['warm-up.csv', syntheticCSV(60, 600, 3)]]);
  for (const f of files) blobs.set(path.basename(f), readFileSync(f));
  const browser = await startBrowser();
  try {
    const page = await openBench(browser, server, blobs);
    for (let i = 0; i < 3; i++) {
      await run(page, 'warm-up.csv');
      await run(page, 'warm-up.csv', 'gsr');
    }
    for (let r = 0; r < repeat; r++) {
      for (const f of files) {
        if (models.length) {
          for (const spec of models) {
            const [method, list] = spec.split(':');
            const params = Object.fromEntries((list ? list.split(',') : []).map((kv) => {
              const [k, v] = kv.split('=');
              return [k, Number(v)];
            }));
            try {
              const res = await run(page, path.basename(f), method, params);
              console.log(JSON.stringify({ engine, data: path.basename(f), model: spec, ...res }));
            } catch (e) {
              console.log(JSON.stringify({ engine, data: path.basename(f), model: spec, error: String(e.message || e) }));
            }
          }
          continue;
        }
        const res = await run(page, path.basename(f));
        console.log(JSON.stringify({ engine, data: path.basename(f), ...res }));
        if (plain) {
          const alg1 = await run(page, path.basename(f), 'rfs', { solver: 'irls' });
          console.log(JSON.stringify({ engine: `${engine}-irls`, data: path.basename(f), ...alg1 }));
        }
      }
    }
  } finally {
    await browser.close();
  }
  if (kernels) {
    const fresh = await startBrowser();
    try {
      for (const line of await benchKernels(fresh, server, readFileSync(kernels))) {
        console.log(JSON.stringify({ engine: `${engine}-kernels`, line }));
      }
    } finally {
      await fresh.close();
    }
  }
  if (memory) {
    // A fresh browser, so that the high-water mark is this job's.
    blobs.set('synthetic-85x22283.csv.gz', gzipSync(syntheticCSV(85, 22283, 4)));
    const { browser: fresh, profile } = await freshBrowser();
    try {
      const page = await openBench(fresh, server, blobs);
      const before = chromiumPeaks(profile);
      const res = await run(page, 'synthetic-85x22283.csv.gz');
      const after = chromiumPeaks(profile);
      console.log(JSON.stringify({ engine: 'chromium-memory', data: 'synthetic-85x22283.csv.gz', ...res, before, after }));
    } finally {
      await fresh.close();
    }
  }
} finally {
  server.stop();
}
