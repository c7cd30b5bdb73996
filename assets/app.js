'use strict';
// Starts the page's Go program (ui.wasm) and shows a readable message if it
// cannot start or stops.
(function () {
  // Vugu's renderer installs its JS helpers with window.eval, which the
  // Content-Security-Policy forbids. The same helpers are loaded from
  // vugu-render.js (extracted from Vugu by build.sh), so that one call has
  // nothing left to do; every other call goes to the real eval (and the
  // policy).
  const realEval = window.eval;
  const vuguHelpers = '(function(){if(window.vuguRender)return;';
  window.eval = function (src) {
    if (typeof src === 'string' && src.startsWith(vuguHelpers) && window.vuguRender) {
      return undefined;
    }
    return realEval(src);
  };

  function fail(message) {
    const box = document.createElement('div');
    box.className = 'error fatal';
    box.setAttribute('role', 'alert');
    box.textContent = message;
    document.body.prepend(box);
    const boot = document.getElementById('boot');
    if (boot) {
      boot.remove();
    }
  }

  if (typeof WebAssembly !== 'object' || typeof Worker !== 'function') {
    fail('This browser cannot run sparsefs: it needs WebAssembly and Web Workers.');
    return;
  }
  const go = new Go();
  self.sparsefsLoadWasm('ui.wasm', go.importObject)
    .then((instance) => go.run(instance))
    .then(() => fail('The page stopped unexpectedly (see the browser console). Reload the page to start again.'))
    .catch((err) => fail('The page could not start: ' + err));
})();
