// Writes the service worker (ADR 0011) into the client build, after `react-router build`:
// workbox-build's injectManifest lists the files to keep, with a revision each, in
// app/service-worker.js and writes the result to build/client/sw.js. Run by `npm run build`,
// by scripts/start.mjs after it builds, and by e2e/support/serve.mjs before it serves.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { injectManifest } from "workbox-build";

const root = path.resolve(import.meta.dirname, "..");

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
      async (entries) => ({ manifest: entries.map((e) => ({ ...e, url: e.url.startsWith("/") ? e.url : `/${e.url}` })), warnings: [] }),
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
