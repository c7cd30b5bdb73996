'use strict';
// The Web Worker that computes. The page runs it from a blob: URL made of
// Go's wasm_exec.js followed by this file (see app.js), and posts it the
// compiled worker.wasm module ({type: "module"}, the bootstrap's only
// message); this bootstrap instantiates the module and runs the Go
// program, which then takes over onmessage and speaks the worker protocol
// (api/worker.go). Messages that arrive before that are queued here and
// handled by Go when it starts (docs/wasm.md#messages-before-onmessage). Nothing here
// fetches anything.
self.sparsefsQueue = [];
self.onmessage = (event) => {
  const d = event.data;
  if (d && d.type === 'module') {
    start(d.module);
  } else if (d && d.type === 'module-error') {
    fatal('cannot load the computing module: ' + d.message);
  } else {
    self.sparsefsQueue.push(event);
  }
};

// sparsefsReadInto reads bytes [start, end) of a Blob into the Uint8Array
// target and returns how many it read (wasm/blob_js.go). The chunk read is
// JavaScript's alone: Go holds no reference to it (a value Go holds lives
// until Go's collector runs its finalizer), so the browser's collector
// frees it in its own time (docs/wasm.md#blob-files).
self.sparsefsReadInto = (reader, blob, start, end, target) => {
  const chunk = new Uint8Array(reader.readAsArrayBuffer(blob.slice(start, end)));
  target.set(chunk);
  return chunk.length;
};

// sparsefsStreamOpen opens a Blob's stream with a reader that reads into
// one buffer of size bytes (a BYOB reader: wasm/stream_js.go), or returns
// null where the browser has none for Blob streams.
self.sparsefsStreamOpen = (blob, size) => {
  try {
    return { reader: blob.stream().getReader({ mode: 'byob' }), buf: new ArrayBuffer(size) };
  } catch {
    return null;
  }
};

// sparsefsStreamRead reads the next bytes of the stream s opened into its
// buffer and calls done(n, view) with the bytes read (n = 0 at the end),
// or done(-1, message). Each read transfers the buffer and gives it back
// in view: the same memory, nothing left for the collector.
self.sparsefsStreamRead = (s, done) => {
  s.reader.read(new Uint8Array(s.buf)).then(({ value, done: end }) => {
    if (value) s.buf = value.buffer;
    done(end ? 0 : value.length, value);
  }, (err) => done(-1, String(err)));
};

// fatal posts the protocol's Fatal message: its head is the JSON
// {"fatal": {"message": …}} as UTF-8 bytes, transferred.
function fatal(message) {
  const head = new TextEncoder().encode(JSON.stringify({ fatal: { message } })).buffer;
  self.postMessage({ head }, [head]);
}

async function start(module) {
  const go = new Go();
  let instance;
  try {
    instance = await WebAssembly.instantiate(module, go.importObject);
  } catch (err) {
    fatal('cannot start the computing module: ' + err);
    return;
  }
  // The size of the module's memory, which grows to the high-water mark
  // of Go's heap and never shrinks (read by e2e/bench/memory.mjs).
  self.sparsefsMemoryBytes = () => instance.exports.mem.buffer.byteLength;
  await go.run(instance);
  fatal('the computing module stopped (see the browser console)');
}
