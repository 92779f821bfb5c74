// `npm run bench`: start-up time on an empty and on a seeded embedded database, the weight of the
// log-in page (JS + CSS, gzipped), Lighthouse for the main pages, then the service benchmarks in
// bench/. Loopback only; every
// step is bounded in time.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { runLighthouse } from "./lighthouse.mjs";

const root = path.resolve(import.meta.dirname, "..");
if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
}
const port = Number(process.env.BENCH_PORT ?? 3900);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-bench-"));
fs.chmodSync(dir, 0o755);
const base = `http://127.0.0.1:${port}`;

async function startAndTime(label) {
  const began = performance.now();
  const child = spawn("node", ["server.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      OUTBOX_DIR: path.join(dir, "outbox"),
      DATABASE_URL: "",
    },
    stdio: "ignore",
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`${label}: not ready in 120 s`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = Math.round(performance.now() - began);
  console.log(`${label.padEnd(40)} ${ms} ms`);
  return child;
}

async function stop(child) {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

await stop(await startAndTime("start-up, empty database (migrate+seed)"));
const server = await startAndTime("start-up, seeded database");

const html = await (await fetch(`${base}/login`)).text();
const assets = [...new Set([...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]))];
const imports = [...html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)|from "(\/assets\/[^"]+\.js)"/g)].map(
  (m) => m[1] ?? m[2],
);
let js = 0;
let css = 0;
for (const asset of new Set([...assets, ...imports])) {
  const body = Buffer.from(await (await fetch(base + asset)).arrayBuffer());
  const gz = zlib.gzipSync(body, { level: 9 }).length;
  if (asset.endsWith(".css")) css += gz;
  else js += gz;
}
// Before it hydrates, the entry loads the page's language (a dynamic import of its own chunk).
const entry = assets.find((a) => /\/entry\.client-[^/]+\.js$/.test(a));
const entryText = entry ? await (await fetch(base + entry)).text() : "";
const language = /<html lang="(\w+)"/.exec(html)?.[1];
for (const m of entryText.matchAll(/import\(`\.\/([\w-]+)\.js`\)/g)) {
  if (language && m[1].startsWith(`${language}-`))
    js += zlib.gzipSync(Buffer.from(await (await fetch(`${base}/assets/${m[1]}.js`)).arrayBuffer()), {
      level: 9,
    }).length;
}
console.log(`${"log-in page JS (gzip)".padEnd(40)} ${(js / 1024).toFixed(1)} KiB`);
console.log(`${"log-in page CSS (gzip)".padEnd(40)} ${(css / 1024).toFixed(1)} KiB`);
console.log(`${"log-in page JS+CSS (gzip)".padEnd(40)} ${((js + css) / 1024).toFixed(1)} KiB`);
// Lighthouse for the main pages (scripts/lighthouse.mjs), against the same server.
try {
  await runLighthouse({ base, outboxDir: path.join(dir, "outbox") });
} catch (error) {
  console.error(`Lighthouse: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
await stop(server);
fs.rmSync(dir, { recursive: true, force: true });

// Service and page benchmarks (bench/*.bench-run.ts): the semester report and the users list at
// scale on an in-memory database; against the production build: the teacher's class page with 500
// students, autosave with 50 authors at once, and the results page of a 60-question form. Each
// prints its own figures.
const services = spawnSync(
  "npx",
  ["vitest", "run", "--config", "bench/vitest.config.ts", "--passWithNoTests", "--reporter=dot"],
  {
    cwd: root,
    stdio: "inherit",
    timeout: 900_000,
  },
);
if (services.status !== 0) process.exitCode = 1;

// The load mix (`npm run load`, shorter here): 200 users on the embedded PostgreSQL, then on one of its own.
for (const args of [[], ["--pg"]]) {
  const load = spawnSync("node", ["scripts/load.mjs", "--duration", "20", ...args], {
    cwd: root,
    stdio: "inherit",
    timeout: 600_000,
  });
  if (load.status !== 0) process.exitCode = 1;
}
