'use strict';
// The Web Worker that computes: it runs the Go program worker.wasm, which
// takes over onmessage. Messages that arrive while the module loads are
// queued here and handled by Go when it starts.
importScripts('wasm_exec.js', 'wasm-load.js');

self.sparsefsQueue = [];
self.onmessage = (event) => self.sparsefsQueue.push(event);

(async function () {
  const go = new Go();
  let instance;
  try {
    instance = await self.sparsefsLoadWasm('worker.wasm', go.importObject);
  } catch (err) {
    self.postMessage({ type: 'fatal', message: 'cannot load the computing module: ' + err });
    return;
  }
  await go.run(instance);
  self.postMessage({ type: 'fatal', message: 'the computing module stopped (see the browser console)' });
})();
