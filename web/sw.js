// The page's service worker, at /sw.js (its scope: the whole site). Where the browser allows one
// (https://, or a page of the browser's own machine), it keeps this build's files of the page in
// a cache, so that the page starts without the server and says that the server cannot be reached
// (js/offline.js) rather than showing the browser's error.
//
// The server serves this file with one line before it (server/http/http_service_worker.cpp):
//   const BUILD = {"version": ..., "files": [...], "catalogues": [...]};
// version: a hash of every file of the page and of the catalogues, so a server whose files differ
// serves another script, which the browser installs at the page's next load; files: what the
// cache keeps (the page as "/", the other files under their /v/<bundle>/ names, the manifest,
// /i18n/languages.json); catalogues: /i18n/<lang>.po of every language (the cache keeps those of
// the browser's languages, and any the page reads).
//
// Nothing of a room or a person is kept: the WebSocket never passes here, and records, the
// history's and the analysis' answers go to the network as they would without a service worker.
/* global BUILD */

const PREFIX = 'spookludo-';
const CACHE = PREFIX + BUILD.version;
// The page's addresses (server/http/http_routes.cpp): the answer is the page itself, the same at
// each, so one kept copy ("/") starts any of them; its script reads the address.
const PAGE = /^\/(r\/[A-Za-z]{5}|tv\/[A-Za-z]{5}|replay\/[A-Za-z0-9-]{1,100}|history\/?|history\/player\/[^/]{1,288})?$/;
// A server that has not answered within this is taken for unreachable (a phone away from home
// waits for a LAN address that goes nowhere).
const WAIT_MS = 6000;

// The language of a catalogue's address, or of a browser's language tag: 'ms' of /i18n/ms.po and ms-MY.
const language = (tag) => tag.toLowerCase().split(/[-_]/)[0];

self.addEventListener('install', (event) => {
  const spoken = (self.navigator.languages || []).map(language);
  const catalogues = BUILD.catalogues.filter((url) => spoken.includes(language(url.slice('/i18n/'.length, -'.po'.length))));
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll([...BUILD.files, ...catalogues]))
    .then(() => self.skipWaiting()));
});

// The new files in place: the caches of other versions go, and the open pages use this worker.
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (request.mode === 'navigate') {
    if (PAGE.test(path)) event.respondWith(fromNetwork(request, '/'));
  } else if (path.startsWith('/v/')) {
    // A file under its hashed name never changes: the kept copy, else the network (another build's).
    event.respondWith(kept(path).then((answer) => answer || fetch(request)));
  } else if (BUILD.files.includes(path) || BUILD.catalogues.includes(path)) {
    event.respondWith(fromNetwork(request, path));
  }
});

function kept(key) {
  return caches.open(CACHE).then((cache) => cache.match(key, { ignoreVary: true, ignoreSearch: true }));
}

// The server's answer while it answers (the page after an upgrade is the new one), else the kept
// copy of `key`: when the server cannot be reached, does not answer within WAIT_MS, or a proxy
// before it says it is down (502, 503, 504). A catalogue the page reads is kept for its next start.
async function fromNetwork(request, key) {
  const network = fetch(request);
  network.catch(() => {}); // answered from the cache instead: its failure is no error
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, WAIT_MS, null)));
  try {
    const answer = await Promise.race([network, late]);
    if (answer && (answer.status < 502 || answer.status > 504)) {
      if (answer.ok && BUILD.catalogues.includes(key)) {
        const copy = answer.clone();
        caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {});
      }
      return answer;
    }
  } catch {
    /* not reachable: the kept copy */
  } finally {
    clearTimeout(timer);
  }
  return (await kept(key)) || network;
}
