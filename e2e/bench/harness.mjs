// The browser side of the bench scripts (bench_irls.mjs, memory.mjs): a
// bare page with one worker started as the site starts it, and the
// memory of the browser's processes.
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startBrowser } from '../lib.mjs';

// syntheticCSV returns an m×n CSV with c classes whose means differ in the
// first twentieth of the features (a fixed linear congruential generator).
export function syntheticCSV(m, n, c) {
  let s = 12345;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const lines = [];
  const head = [];
  for (let j = 0; j < n; j++) head.push('g' + j);
  head.push('class');
  lines.push(head.join(','));
  for (let i = 0; i < m; i++) {
    const row = new Array(n + 1);
    const k = i % c;
    for (let j = 0; j < n; j++) {
      row[j] = (rand() * 2 - 1 + (j < n / 20 ? 0.6 * k * ((j % 3) - 1) : 0)).toFixed(4);
    }
    row[n] = String(k + 1);
    lines.push(row.join(','));
  }
  return Buffer.from(lines.join('\n') + '\n');
}

// openBench opens the bench page and one worker; it resolves to the page.
export async function openBench(browser, server, blobs) {
  const { page } = browser;
  await page.route('**/bench.html', (route) => route.fulfill({
    contentType: 'text/html', body: '<!doctype html><title>bench</title><p>bench</p><input type="file" id="bench-file">',
  }));
  await page.route('**/bench-data/*', (route) => {
    // A file not among the blobs is the server's (too large to pass
    // through the browser's protocol).
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop());
    if (!blobs.has(name)) return route.continue();
    route.fulfill({ contentType: 'application/octet-stream', body: blobs.get(name) });
  });
  await page.goto(server.url + 'bench.html');
  await page.evaluate(() => new Promise(async (resolve, reject) => {
    // The worker as the page starts it: a blob of wasm_exec.js and
    // worker.js, posted the compiled worker.wasm; then the worker protocol
    // of api/worker.go: {head: JSON bytes, transferred; file: a Blob}.
    const texts = await Promise.all(['wasm_exec.js', 'worker.js'].map(async (u) => (await fetch(u)).text()));
    const w = new Worker(URL.createObjectURL(new Blob([texts.join('\n;\n')], { type: 'text/javascript' })));
    w.postMessage({ type: 'module', module: await WebAssembly.compileStreaming(fetch('worker.wasm')) });
    const enc = new TextEncoder(), dec = new TextDecoder();
    const send = (msg, file) => {
      const head = enc.encode(JSON.stringify(msg)).buffer;
      const m = { head };
      if (file) m.file = file; // a Blob: cloned by reference, as the page sends a file
      w.postMessage(m, [head]);
    };
    const pending = new Map();
    const loaded = new Map();
    let next = 1;
    w.onmessage = (ev) => {
      const m = JSON.parse(dec.decode(ev.data.head));
      if (m.ready) {
        resolve();
        return;
      }
      if (m.fatal) reject(new Error(m.fatal.message));
      if (m.result) {
        const p = pending.get(m.result.id);
        pending.delete(m.result.id);
        if (p) p.resolve({ end: performance.timeOrigin + performance.now(), response: JSON.parse(dec.decode(ev.data.body)) });
      } else if (m.failed) {
        const p = pending.get(m.failed.id);
        pending.delete(m.failed.id);
        if (p) p.reject(new Error(m.failed.message));
      }
    };
    // data returns the number a file is loaded under, loading it once.
    const data = async (name) => {
      if (!loaded.has(name)) {
        // A file chosen in the input (setInputFiles: a File on disk, as a
        // user opens one), else fetched (a Blob in memory).
        const chosen = [...document.getElementById('bench-file').files].find((f) => f.name === name);
        const blob = chosen || await (await fetch('bench-data/' + encodeURIComponent(name))).blob();
        loaded.set(name, loaded.size + 1);
        send({ load: { data: loaded.get(name), name } }, blob);
      }
      return loaded.get(name);
    };
    // benchRun posts a job and resolves to its fit time, round trip and
    // result.
    self.benchRun = async (name, method, params) => {
      const { response, roundtrip } = await self.benchJob(name, { data: { name }, method, params });
      return {
        seconds: response.seconds, roundtrip, iterations: response.iterations, objective: response.objective,
        stop: response.stop, gap: response.certificate ? response.certificate.gap : null,
      };
    };
    // benchJob posts any request on a file and resolves to the response
    // and the round trip.
    self.benchJob = async (name, request) => {
      const num = await data(name);
      const id = next++;
      const done = new Promise((res, rej) => pending.set(id, { resolve: res, reject: rej }));
      const start = performance.timeOrigin + performance.now();
      send({ job: { id, data: num, task: { run: request } } });
      const { end, response } = await done;
      return { response, roundtrip: (end - start) / 1000 };
    };
  }));
  return page;
}

// chromiumPeaks returns the peak resident memory (VmHWM, bytes) of the
// largest renderer, and the proportional set size (Pss: shared pages
// divided among their sharers) summed over every process descending from
// the browser process started for profile, now.
export function chromiumPeaks(profile) {
  const procs = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      // Chromium rewrites the command line of its children into one
      // string: match on the whole of it.
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const ppid = Number(status.match(/PPid:\s+(\d+)/)[1]);
      const hwm = Number((status.match(/VmHWM:\s+(\d+) kB/) || [0, 0])[1]) * 1024;
      let pss = 0;
      try {
        pss = Number((readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/Pss:\s+(\d+) kB/) || [0, 0])[1]) * 1024;
      } catch { /* not readable */ }
      procs.push({ pid: Number(pid), ppid, cmd, hwm, pss });
    } catch { /* the process has gone */ }
  }
  const root = procs.find((p) => p.cmd.includes(profile) && !p.cmd.includes('--type='));
  if (!root) return null;
  const family = new Set([root.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (!family.has(p.pid) && family.has(p.ppid)) {
        family.add(p.pid);
        grew = true;
      }
    }
  }
  const members = procs.filter((p) => family.has(p.pid));
  const renderer = Math.max(0, ...members.filter((p) => p.cmd.includes('--type=renderer')).map((p) => p.hwm));
  return { renderer, pss: members.reduce((s, p) => s + p.pss, 0) };
}

// freshBrowser starts a browser of its own, so that the high-water marks
// are its jobs', and resolves to it and its profile directory (startBrowser
// makes a fresh one in tmpdir(), named in the browser process's
// --user-data-dir), which chromiumPeaks takes.
export async function freshBrowser() {
  const profiles = () => new Set(readdirSync(tmpdir()).filter((d) => d.startsWith('sparsefs-e2e-')));
  const old = profiles();
  const browser = await startBrowser();
  return { browser, profile: [...profiles()].find((d) => !old.has(d)) };
}
