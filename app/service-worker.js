// Praksis's service worker (ADR 0011). scripts/build-sw.mjs writes it to build/client/sw.js after
// the build, with workbox-build's injectManifest putting the list of files to keep in place of
// the manifest placeholder below. Plain JavaScript, no imports: it runs as it is written.
//
// - Keeps the built assets, the offline page and the independence scale (public, no personal data).
//   They are fetched WITHOUT the session cookie, so nothing of the person who happened to be logged
//   in (the header shows their name) ends up in the cache.
// - A navigation goes to the network; only when that fails is the kept page answered: the scale for
//   /independence-scale, else the offline page. No other page is ever kept.
// - Everything else (data requests, /api, posts) is left to the browser.

const MANIFEST = self.__WB_MANIFEST;
const PREFIX = "praksis-offline-";
const SCALE_PATH = "/independence-scale";
const OFFLINE_PATH = "/offline.html";

function urlOf(entry) {
  return new URL(typeof entry === "string" ? entry : entry.url, self.location.origin);
}

/** One cache per manifest: a new build gets a new cache, and the old one goes when it takes over. */
const CACHE = (() => {
  const text = MANIFEST.map((entry) =>
    typeof entry === "string" ? entry : `${entry.url}#${entry.revision ?? ""}`,
  ).join("\n");
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return PREFIX + hash.toString(36);
})();
const KEPT = new Set(MANIFEST.map((entry) => urlOf(entry).pathname));

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // All at once (the browser queues them per connection); any failure fails the install, and the
      // browser tries again on a later visit.
      await Promise.all(
        MANIFEST.map(async (entry) => {
          const url = urlOf(entry);
          // No cookie, and past the HTTP cache: the public version of the page, as it is now.
          const response = await fetch(new Request(url, { credentials: "omit", cache: "reload", redirect: "follow" }));
          if (!response.ok) throw new Error(`${url.pathname}: ${response.status}`);
          await cache.put(url.pathname, response);
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

async function fromCache(path) {
  const cache = await caches.open(CACHE);
  return cache.match(path);
}

async function navigate(event) {
  try {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
    return await fetch(event.request);
  } catch (error) {
    const path = new URL(event.request.url).pathname;
    const kept = (path === SCALE_PATH && (await fromCache(SCALE_PATH))) || (await fromCache(OFFLINE_PATH));
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
    return;
  }
  // The kept files (hashed names under /assets never change): from the cache, else the network.
  if (KEPT.has(url.pathname) && url.pathname !== SCALE_PATH && url.pathname !== OFFLINE_PATH) {
    event.respondWith(fromCache(url.pathname).then((kept) => kept ?? fetch(request)));
  }
});
