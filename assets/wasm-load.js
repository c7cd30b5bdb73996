'use strict';
// sparsefsLoadWasm instantiates a Go wasm module. It streams the module when
// the host serves it as application/wasm and falls back to a plain download
// for hosts that do not. Used by the page (app.js) for ui.wasm.
self.sparsefsLoadWasm = async function (url, imports) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(url + ': HTTP ' + response.status);
  }
  if (WebAssembly.instantiateStreaming &&
      (response.headers.get('Content-Type') || '').startsWith('application/wasm')) {
    return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  }
  const bytes = await response.arrayBuffer();
  return (await WebAssembly.instantiate(bytes, imports)).instance;
};

// sparsefsWorkerWasm names the workers' module this browser runs:
// worker.wasm, built with WebAssembly SIMD128 kernels (docs/wasm.md), or,
// where the browser has no SIMD128 (Safari before 16.4, Chrome before 91,
// Firefox before 89), worker-scalar.wasm, the same program with the scalar
// kernels (the same results to the bit). The probe is a module of one
// function that splats a constant into a v128 (i32.const 0;
// i8x16.splat): valid exactly where SIMD128 is. Used by the page (app.js)
// and the service worker (sw.js), which caches only the module named here.
self.sparsefsWorkerWasm = function () {
  const probe = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
    0x03, 0x02, 0x01, 0x00, // functions: one of type 0
    0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // code
  ]);
  return WebAssembly.validate(probe) ? 'worker.wasm' : 'worker-scalar.wasm';
};
