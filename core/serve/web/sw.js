/* sw.js — the service worker of the web app: it keeps the app's files, so
 * that once opened the app starts and rules with no network (the rulings
 * come from the WebAssembly library, arbiter.wasm, when no server answers).
 *
 * The files are fetched from the network first, so that a phone online
 * gets the build the host serves; when the network fails or is slow the
 * kept copy answers. The API of `arbiter serve` (/api/) is never kept: a
 * ruling is made now, by the server or by the module. VERSION is the
 * build's (scripts/web-version.sh writes it); a new one drops older copies. */
'use strict';

const VERSION = 'dev';
const CACHE = 'arbiter-' + VERSION;
const FILES = ['./', 'index.html', 'app.js', 'graph.js', 'offline.js', 'style.css', 'favicon.svg',
  'manifest.webmanifest', 'icon-192.png', 'icon-512.png', 'arbiter.js', 'arbiter.wasm'];
const NETWORK_WAIT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) =>
    /* a file the host does not have (arbiter.wasm beside `arbiter serve`) is no reason to fail */
    Promise.all(FILES.map((f) => cache.add(f).catch(() => null)))).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((keys) =>
    Promise.all(keys.filter((k) => k.startsWith('arbiter-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/* A promise that resolves to null after ms. */
const after = (ms) => new Promise((resolve) => setTimeout(() => resolve(null), ms));

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.includes('/api/')) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    /* a shared ruling's link (index.html?…) is the app itself */
    const key = url.pathname.endsWith('/') || url.pathname.endsWith('/index.html') ? new Request(url.pathname) : event.request;
    const network = fetch(event.request).then((res) => {
      if (res.ok) cache.put(key, res.clone());
      return res;
    });
    network.catch(() => null); /* answered below, from the cache */
    /* the network's answer when it comes in time; else the kept copy; with none kept, the network's after all */
    const first = await Promise.race([network.catch(() => null), after(NETWORK_WAIT_MS)]);
    if (first) return first;
    const kept = await cache.match(key, { ignoreSearch: true });
    return kept || network;
  })());
});
