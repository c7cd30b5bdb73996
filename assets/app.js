'use strict';
// Starts the page: the computing workers' code (compiled once, here), the
// page's Go program (ui.wasm), the service worker that keeps the app for
// offline use, and the few browser helpers the Go program calls (downloads,
// PNG export). Shows a readable message if something cannot start.
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

  async function fetchOK(url) {
    const response = await fetch(url);
    if (!response.ok) {
      throw new Error(url + ': HTTP ' + response.status);
    }
    return response;
  }

  // The workers' module is compiled once, in the background, while the
  // page's own module loads; every worker (and every worker started
  // afresh after a cancel) instantiates it without a download.
  const workerModule = (async function () {
    const response = await fetchOK(self.sparsefsWorkerWasm());
    if (WebAssembly.compileStreaming &&
        (response.headers.get('Content-Type') || '').startsWith('application/wasm')) {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  })();

  // The workers' script is Go's wasm_exec.js followed by worker.js, run
  // from a blob: URL. A blob: worker inherits the page's
  // Content-Security-Policy (a worker loaded from a URL does not, and would
  // run unrestricted on a host that sends no headers), and it fetches
  // nothing itself.
  const workerURL = (async function () {
    const texts = await Promise.all(['wasm_exec.js', 'worker.js'].map(async (u) => (await fetchOK(u)).text()));
    return URL.createObjectURL(new Blob([texts.join('\n;\n')], { type: 'text/javascript' }));
  })();
  workerModule.catch(() => {});
  workerURL.catch(() => {});

  // A handle on one worker. Messages posted before the worker exists are
  // kept and sent, in order, when it does; the worker's own bootstrap
  // queues them again until its Go program listens.
  class WorkerHandle {
    constructor(onMessage, onError) {
      this.pending = [];
      this.worker = null;
      this.dead = false;
      workerURL.then((url) => {
        if (this.dead) {
          return;
        }
        const w = new Worker(url, { name: 'sparsefs-worker' });
        w.onmessage = (event) => onMessage(event.data);
        w.onerror = (event) => {
          event.preventDefault();
          onError(event.message || 'the computing worker failed');
        };
        this.worker = w;
        workerModule.then(
          (module) => w.postMessage({ type: 'module', module: module }),
          (err) => w.postMessage({ type: 'module-error', message: String(err) }));
        for (const [msg, transfer] of this.pending) {
          w.postMessage(msg, transfer);
        }
        this.pending = null;
      }, (err) => onError('cannot load the computing worker: ' + err));
    }

    post(msg, transfer) {
      if (this.dead) {
        return;
      }
      if (this.worker) {
        this.worker.postMessage(msg, transfer || []);
      } else {
        this.pending.push([msg, transfer || []]);
      }
    }

    terminate() {
      this.dead = true;
      this.pending = null;
      if (this.worker) {
        this.worker.terminate();
      }
    }
  }

  self.sparsefsWorkers = {
    spawn: (onMessage, onError) => new WorkerHandle(onMessage, onError),
  };

  // sparsefsDownload saves text as a file (nothing leaves the machine: the
  // browser writes a blob the page made).
  function saveBlob(name, blob) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }
  self.sparsefsDownload = function (name, mime, text) {
    saveBlob(name, new Blob([text], { type: mime }));
  };

  // sparsefsSavePNG draws an SVG chart at twice its size on a canvas (the
  // SVG carries its own colours as presentation attributes) and saves the
  // canvas as PNG. The SVG is shown to the canvas through a blob: URL,
  // which is why img-src allows blob:.
  self.sparsefsSavePNG = function (name, svg) {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    img.onload = () => {
      const scale = 2;
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(img.naturalWidth * scale);
      canvas.height = Math.ceil(img.naturalHeight * scale);
      const ctx = canvas.getContext('2d');
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0);
      URL.revokeObjectURL(url);
      canvas.toBlob((blob) => saveBlob(name, blob), 'image/png');
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      fail('The chart could not be drawn as a PNG image.');
    };
    img.src = url;
  };

  // The service worker keeps the app for offline use (secure contexts
  // only: https, or localhost). It is registered with a relative URL, so
  // its scope is wherever the app is served from.
  // It is registered once the page has loaded and both wasm modules are
  // downloaded, so that its install finds them in the HTTP cache (sw.js).
  const pageLoaded = new Promise((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', resolve);
  });
  let uiLoaded;
  const uiModule = new Promise((resolve) => { uiLoaded = resolve; });
  if (navigator.serviceWorker && window.isSecureContext) {
    Promise.all([pageLoaded, workerModule.catch(() => {}), uiModule]).then(() => {
      navigator.serviceWorker.register('sw.js').then((reg) => {
        const offer = (sw) => {
          if (!sw || !navigator.serviceWorker.controller) {
            return; // the first install: nothing to replace
          }
          const bar = document.createElement('div');
          bar.className = 'update';
          bar.setAttribute('role', 'status');
          bar.textContent = 'A new version of sparsefs is ready. ';
          const button = document.createElement('button');
          button.type = 'button';
          button.id = 'update-now';
          button.textContent = 'Reload to update';
          button.addEventListener('click', () => sw.postMessage({ type: 'skip-waiting' }));
          bar.append(button);
          document.body.prepend(bar);
        };
        if (reg.waiting) {
          offer(reg.waiting);
        }
        reg.addEventListener('updatefound', () => {
          const sw = reg.installing;
          sw.addEventListener('statechange', () => {
            if (sw.state === 'installed') {
              offer(sw);
            }
          });
        });
      }, () => {});
      let reloading = false;
      navigator.serviceWorker.addEventListener('controllerchange', () => {
        if (reloading || !document.querySelector('.update')) {
          return;
        }
        reloading = true;
        location.reload();
      });
    });
  }

  const go = new Go();
  self.sparsefsLoadWasm('ui.wasm', go.importObject)
    .then((instance) => { uiLoaded(); return go.run(instance); })
    .then(() => fail('The page stopped unexpectedly (see the browser console). Reload the page to start again.'))
    .catch((err) => fail('The page could not start: ' + err));
})();
