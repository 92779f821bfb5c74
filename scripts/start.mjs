// `npm start`: builds the app when the build is missing or older than the sources, then serves it
// in this very process (server.mjs), which package.json starts with `exec`: the signal npm passes on
// (SIGTERM, Ctrl-C) reaches the server itself. A service runs `node server.mjs`, which never builds.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
process.env.NODE_ENV ??= "production";
// The log's format from the start (JSON in production): this script's lines and the build's.
const { createLog, logFormat, routeConsoleTo } = await import("./log.mjs");
const log = createLog({ bindings: { component: "start" } });
if (logFormat() !== "console") routeConsoleTo(log);
const serverBuild = path.join(root, "build/server/index.js");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = Math.max(
  newestMtime(path.join(root, "app")),
  ...["react-router.config.ts", "vite.config.ts", "package.json"].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
);
const built = fs.existsSync(serverBuild) ? fs.statSync(serverBuild).mtimeMs : 0;
if (built < sources) {
  log.info("Building the app (first start or changed sources)…");
  // The same build as `npm run build` (package.json), so it prints no warning either (ADR 0014).
  const result = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// The service worker is written into the build after it (ADR 0011); also for a build made by `npx react-router build`.
const { ensureServiceWorker } = await import("./build-sw.mjs");
await ensureServiceWorker(path.join(root, "build"));

await import(path.join(root, "server.mjs"));
