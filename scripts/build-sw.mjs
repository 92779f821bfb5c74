// Writes the service worker (ADR 0011) into the client build, after `react-router build`:
// workbox-build's injectManifest lists the files to keep, with a revision each, in
// app/service-worker.js and writes the result to build/client/sw.js. Run by `npm run build`,
// and (when missing or stale, ensureServiceWorker) by scripts/start.mjs and e2e/support/serve.mjs.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { injectManifest } from "workbox-build";

const root = path.resolve(import.meta.dirname, "..");

/**
 * The service worker of a build, written only when it is missing or older than the build or its
 * source: `npm start` and the e2e servers call this, so a build made by `npm run build` (which
 * writes it) is used as it is, and a bare `npx react-router build` still gets one.
 */
export async function ensureServiceWorker(buildDir = path.join(root, process.env.BUILD_DIR ?? "build")) {
  const sw = path.join(buildDir, "client/sw.js");
  const newest = Math.max(
    fs.statSync(path.join(buildDir, "server/index.js")).mtimeMs,
    fs.statSync(path.join(root, "app/service-worker.js")).mtimeMs,
  );
  if (!fs.existsSync(sw) || fs.statSync(sw).mtimeMs < newest) await buildServiceWorker(buildDir);
}

export async function buildServiceWorker(buildDir = path.join(root, process.env.BUILD_DIR ?? "build")) {
  const client = path.join(buildDir, "client");
  const assets = fs.readdirSync(path.join(client, "assets")).sort();
  // The scale page is rendered by the server, so it has no file to hash: it changes with the build.
  const buildHash = crypto.createHash("sha256").update(assets.join("\n")).digest("hex").slice(0, 16);
  // Written beside and renamed into place, so two servers starting at once (the e2e projects) never
  // serve half a file.
  const temporary = path.join(client, `sw.${process.pid}.tmp.js`);
  const { count, size, warnings } = await injectManifest({
    swSrc: path.join(root, "app/service-worker.js"),
    swDest: temporary,
    globDirectory: client,
    globPatterns: ["assets/**/*.{js,css,svg,woff2}", "offline.html", "favicon.svg"],
    // Hashed names need no revision of their own.
    dontCacheBustURLsMatching: /^assets\//,
    additionalManifestEntries: [{ url: "/independence-scale", revision: buildHash }],
    // Root-relative, as the pages ask for them.
    manifestTransforms: [
      async (entries) => ({
        manifest: entries.map((e) => ({ ...e, url: e.url.startsWith("/") ? e.url : `/${e.url}` })),
        warnings: [],
      }),
    ],
    maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
  });
  fs.renameSync(temporary, path.join(client, "sw.js"));
  for (const warning of warnings) console.warn(`[sw] ${warning}`);
  return { count, size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { count, size } = await buildServiceWorker();
  console.info(`[sw] build/client/sw.js keeps ${count} files (${Math.round(size / 1024)} KiB)`);
}
