/**
 * What the benchmarks share: a summary of timings, and the production server (`build/`, as
 * `npm start` runs it) started on the database a benchmark has seeded.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Mean, median, p95, p99 and min of a list of times in ms. */
export function summary(times: readonly number[]): string {
  const sorted = times.toSorted((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return `mean ${mean.toFixed(1)} ms, median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, min ${sorted[0].toFixed(1)} ms`;
}

/** The secret a seeding process signs session cookies with, and the server reads them with. */
export const BENCH_SESSION_SECRET = "bench-session-secret-0123456789abcdefghij";

export interface BenchServer {
  base: string;
  /** The server's (primary) process. */
  pid: number;
  stop(): Promise<void>;
}

/** Starts the production server (one app process) on the database at `url`, on loopback. */
export async function startBenchServer(url: string, dir: string, port: number): Promise<BenchServer> {
  const root = path.resolve(import.meta.dirname, "..");
  if (!fs.existsSync(path.join(root, "build/server/index.js")))
    throw new Error("no build/: run `npx react-router build` first");
  const server: ChildProcess = spawn("node", ["server.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: url,
      DATA_DIR: dir,
      WEB_CONCURRENCY: "1",
      OUTBOX_DIR: path.join(dir, "outbox"),
      SESSION_SECRET: BENCH_SESSION_SECRET,
      APP_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: "false",
      // No reminder runs in the middle of a measurement.
      REMINDERS_INTERVAL_MINUTES: "0",
    },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error("the server was not ready in 120 s");
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    pid: server.pid!,
    async stop() {
      server.kill("SIGTERM");
      await new Promise((resolve) => server.once("exit", resolve));
    },
  };
}
