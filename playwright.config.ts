import { defineConfig } from "@playwright/test";

const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// One app instance per project, so the JS and no-JS runs never see each other's data.
// E2E_PORT moves them (and their mail and OpenID peers, at +1000 to +3000) for a second checkout.
const JS_PORT = Number(process.env.E2E_PORT ?? 3100);
// `npm test` starts the servers below beside its unit tests (scripts/test.sh) and says so; otherwise
// each run starts its own, fresh.
const reuseExistingServer = process.env.E2E_SERVERS === "started";
const NOJS_PORT = JS_PORT + 100;
// The app behind nginx as README's "Going live" sets it up (e2e/proxy.spec.ts, both projects; e2e/support/serve-proxied.mjs).
const PROXY_PORT = JS_PORT + 50;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 2,
  // A failed test runs once more, and only that run records a trace (the DOM at every step) for whoever
  // reads the failure: recording one for every test cost 5 % of the e2e time (ADR 0002). A test that
  // passes only on its retry still fails the run (failOnFlakyTests): the retry is for the trace, never
  // for a pass. E2E_TRACE=1 records every test's and keeps the failed ones', as before.
  retries: 1,
  failOnFlakyTests: true,
  // A test visits several pages and scans each with axe; on a busy 2-core machine that can take a while.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    locale: "nb-NO",
    timezoneId: "Europe/Oslo",
    launchOptions: { executablePath: "/usr/bin/chromium", args: chromiumArgs },
    // Without the screencast, which recorded every frame (about a tenth of the run's CPU).
    trace: {
      mode: process.env.E2E_TRACE ? "retain-on-failure" : "on-first-retry",
      screenshots: false,
      snapshots: true,
      sources: true,
    },
  },
  projects: [
    // The service worker (ADR 0011) only where a file asks for it (offline.spec.ts): otherwise every
    // test's fresh browser would fetch all it keeps, a load on the server the other tests do not need.
    { name: "js", use: { baseURL: `http://127.0.0.1:${JS_PORT}`, javaScriptEnabled: true, serviceWorkers: "block" } },
    { name: "no-js", use: { baseURL: `http://127.0.0.1:${NOJS_PORT}`, javaScriptEnabled: false } },
  ],
  webServer: [
    ...[JS_PORT, NOJS_PORT].map((port) => ({
      command: `node e2e/support/serve.mjs ${port}`,
      url: `http://127.0.0.1:${port}/healthz`,
      timeout: 120_000,
      reuseExistingServer,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
      // Asked to stop, the server stops its app process and its embedded PostgreSQL.
      gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
    })),
    {
      command: `node e2e/support/serve-proxied.mjs ${PROXY_PORT}`,
      // Through nginx, with the certificate the server made for itself.
      url: `https://localhost:${PROXY_PORT}/healthz`,
      ignoreHTTPSErrors: true,
      timeout: 120_000,
      reuseExistingServer,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
      gracefulShutdown: { signal: "SIGTERM" as const, timeout: 20_000 },
    },
  ],
});
