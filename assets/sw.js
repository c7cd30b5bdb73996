'use strict';
// The service worker: it keeps the app (every file of the build) in a cache
// named after the build, and answers the app's requests from it, so that
// the page works with the network off once it has been loaded. build.sh
// writes the build's version and file list below; a new build has a new
// version, so the browser installs its service worker beside the old one,
// fills a new cache, and the page offers to switch (the old cache is
// deleted once the new service worker takes over). All URLs are relative
// to this file, so the app works from any sub-path.
// build.sh puts assets/wasm-load.js before this file (sparsefsWorkerWasm):
// an imported script would be fetched again by every update check.
const VERSION = '__SPARSEFS_VERSION__';
// The build's two workers' modules are one program: the browser keeps the
// one it runs (wasm-load.js).
const WORKER = self.sparsefsWorkerWasm();
const FILES = ['./'].concat(__SPARSEFS_FILES__.filter((f) => !/^worker.*\.wasm$/.test(f) || f === WORKER));
const CACHE = 'sparsefs-' + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // cache: 'no-cache' revalidates what the HTTP cache holds: the files
    // of this build, not older copies, and those the page has just
    // downloaded (it registers this worker once both wasm modules are in)
    // come back as 304, not downloaded a second time.
    await cache.addAll(FILES.map((f) => new Request(f, { cache: 'no-cache' })));
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('sparsefs-') && key !== CACHE) {
        await caches.delete(key);
      }
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'skip-waiting') {
    self.skipWaiting();
  }
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    let hit = await cache.match(req, { ignoreSearch: true });
    if (!hit && req.mode === 'navigate') {
      hit = await cache.match('./');
    }
    return hit || fetch(req);
  })());
});
