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
