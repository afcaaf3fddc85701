// The static site's service worker: keeps the site's files, so that the board opens
// and plays offline once it has been loaded. scripts/build-web.sh writes the version
// (a hash of the files); a new version replaces the old copies.
const VERSION = "jungle-@VERSION@";
// The site's files (scripts/build-web.sh writes them in), and its root.
const FILES = [
  "./",
@FILES@
];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(VERSION).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The kept copy first (the site changes only with a new version), else the network.
self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET") return;
  e.respondWith(caches.match(e.request, { ignoreSearch: true }).then((hit) => hit || fetch(e.request)));
});
