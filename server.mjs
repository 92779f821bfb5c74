// The production server. The primary process starts the embedded PostgreSQL when no DATABASE_URL is
// set (ADR 0013) and runs one app process per core (WEB_CONCURRENCY), all on the one database; each
// app process serves static assets, sets the remote address for rate limits, and runs the app.
import cluster from "node:cluster";
import { register } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createLog, logFormat, routeConsoleTo } from "./scripts/log.mjs";

const began = Date.now();
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");

if (cluster.isPrimary) await primary();
else await worker();

async function primary() {
  // The primary's own lines (and the embedded PostgreSQL's, through console) in the log's format.
  const log = createLog();
  if (logFormat() !== "console") routeConsoleTo(log);
  const serverLog = log.child({ component: "server" });
  const dbLog = log.child({ component: "db" });
  let database = null;
  // DATABASE_URL as the operator set it: the embedded server's is set below, for the app processes.
  const ownDatabaseUrl = process.env.DATABASE_URL;
  let freshDatabase = false;
  if (!process.env.DATABASE_URL) {
    const { startEmbeddedPostgres, EmbeddedPostgresError } = await import("./scripts/embedded-postgres.mjs");
    const dataDir = path.resolve(process.env.DATA_DIR || "data");
    try {
      database = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "postgres"), log: console });
    } catch (error) {
      if (error instanceof EmbeddedPostgresError) dbLog.error(error.message);
      else dbLog.error({ err: error }, "the embedded PostgreSQL could not start");
      process.exit(1);
    }
    dbLog.info(`embedded PostgreSQL in ${path.join(dataDir, "postgres")}, on 127.0.0.1:${database.port} (started in ${Date.now() - began} ms)`);
    // Set for the app processes: the database they share, and that it is the embedded one.
    process.env.DATABASE_URL = database.url;
    process.env.EMBEDDED_DATABASE = "true";
    const { hasPgliteData, carryOverPglite } = await import("./scripts/carry-over-pglite.mjs");
    const pgliteDir = path.join(dataDir, "pglite");
    // A database carried over from PGlite holds someone's data: not a fresh one for demo mode.
    freshDatabase = database.fresh && !hasPgliteData(pgliteDir);
    if (hasPgliteData(pgliteDir)) {
      try {
        const result = await carryOverPglite({ pgliteDir, url: database.url, log: console });
        if ("skipped" in result) dbLog.warn(`${pgliteDir} was not carried over: ${result.skipped}`);
      } catch (error) {
        await database.stop();
        dbLog.error(`carrying ${pgliteDir} over into PostgreSQL failed (nothing was changed): ${error instanceof Error ? error.message : error}`);
        dbLog.error(`run it alone to see more: node scripts/carry-over-pglite.mjs ${pgliteDir} <postgres://…>, or move ${pgliteDir} away to start without it`);
        process.exit(1);
      }
    }
  }

  // Demo mode (the seed, the banner, the public outbox) when asked for, or for a fresh embedded
  // database; decided once here, handed to every app process as DEMO_MODE.
  const { applyDemoMode } = await import("./scripts/demo-mode.mjs");
  applyDemoMode({ dataDir: path.resolve(process.env.DATA_DIR || "data"), databaseUrl: ownDatabaseUrl, freshDatabase });

  // The demo's own Feide and Vipps (scripts/demo-providers.mjs): started here once, their settings
  // passed on to the app processes; not outside the demo, nor for a provider that is configured.
  let demoProviders = null;
  const { demoProviderKinds, startDemoProviders } = await import("./scripts/demo-providers.mjs");
  const kinds = demoProviderKinds(process.env);
  if (kinds.length > 0) {
    const appPort = Number(process.env.PORT ?? 3000);
    try {
      demoProviders = await startDemoProviders({ kinds, appPort, appUrl: process.env.APP_URL });
      Object.assign(process.env, demoProviders.env);
      for (const [kind, peer] of Object.entries(demoProviders.peers)) {
        console.info(`[demo] a demo ${kind === "feide" ? "Feide" : "Vipps"} (not the real one) on ${peer.issuer}: its button on the log-in page lets you pick a person`);
      }
    } catch (error) {
      // The demo goes on without them: the log-in page then says the provider is not set up.
      console.warn(`[demo] the demo Feide and Vipps could not start: ${error instanceof Error ? error.message : error}`);
    }
  }

  const workers = Math.max(1, Number(process.env.WEB_CONCURRENCY) || os.availableParallelism());
  // `npm run profile` (PRAKSIS_CPU_PROFILE_DIR): every app process writes a CPU profile when it ends.
  const profileDir = process.env.PRAKSIS_CPU_PROFILE_DIR;
  const execArgv = profileDir ? [...process.execArgv, "--cpu-prof", `--cpu-prof-dir=${profileDir}`] : process.execArgv;
  cluster.setupPrimary({ exec: import.meta.filename, args: [], execArgv });
  // GET /metrics: the app process a scrape reaches asks here for every app process's counts, summed.
  (await import("./scripts/metrics.mjs")).aggregateClusterMetrics(cluster);
  let stopping = false;
  const forks = [];
  // Starts between failures, for the pause before the next try (1, 2, 4 … 30 s).
  let failedStarts = 0;
  /**
   * Starts an app process; resolves when it listens. The first one is alone: when it cannot start,
   * the configuration or the database is wrong, and the server stops saying why (its message). Once
   * one has started, a process that ends, or cannot start (the database restarting just then), is
   * started again after a pause that grows while the starts keep failing: the others serve meanwhile.
   */
  const fork = ({ first = false } = {}) =>
    new Promise((resolve, reject) => {
      const child = cluster.fork();
      forks.push(child);
      child.once("listening", () => {
        child.listened = true;
        failedStarts = 0;
        resolve(child);
      });
      child.once("exit", (code, signal) => {
        forks.splice(forks.indexOf(child), 1);
        if (stopping) return;
        const how = signal ?? `exit code ${code}`;
        if (!child.listened && first) {
          reject(new Error(`an app process could not start (${how})`));
          return;
        }
        const pause = Math.min(30_000, 1_000 * 2 ** (child.listened ? 0 : failedStarts++));
        if (child.listened) serverLog.error(`app process ${child.process.pid} ended (${how}); starting another`);
        else serverLog.error(`app process ${child.process.pid} could not start (${how}); trying again in ${pause / 1000} s`);
        // An app process that had started has been replaced once its replacement listens (`resolve`
        // has been called already: a second call does nothing).
        setTimeout(() => {
          if (!stopping) fork().then(resolve, reject);
        }, pause);
      });
    });

  const shutdown = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    database?.stopping();
    const exits = forks.map((child) => new Promise((resolve) => child.process.exitCode !== null ? resolve() : child.once("exit", resolve)));
    for (const child of forks) child.process.kill("SIGTERM");
    const timer = setTimeout(() => forks.forEach((child) => child.process.kill("SIGKILL")), 8_000);
    await Promise.all(exits);
    clearTimeout(timer);
    await demoProviders?.close();
    await database?.stop();
    process.exit(code);
  };
  process.on("SIGTERM", () => shutdown());
  process.on("SIGINT", () => shutdown());

  try {
    // The first process checks the configuration, migrates (and seeds the demo) alone; then the others.
    await fork({ first: true });
    await Promise.all(Array.from({ length: workers - 1 }, () => fork()));
  } catch (error) {
    serverLog.error(error.message);
    await shutdown(1);
    return;
  }
  const port = Number(process.env.PORT ?? 3000);
  serverLog.info(`Praksis listening on http://localhost:${port}: ${workers} app process${workers === 1 ? "" : "es"} (ready in ${Date.now() - began} ms)`);
}

async function worker() {
  // React Router's production build (see the hook), before anything imports it.
  register("./scripts/react-router-production.mjs", import.meta.url);
  const { createHttpApp } = await import("./scripts/http-app.mjs");
  const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
  const entry = build.entry.module;
  // One log for the app and this server: every line, and stray console lines too, in its format.
  if (logFormat() !== "console") routeConsoleTo(entry.log);
  const serverLog = entry.log.child({ component: "server" });

  // Configuration is checked and the database migrated (and seeded for the demo) before listening.
  try {
    await entry.startup();
  } catch (error) {
    if (error instanceof Error && error.name === "EnvError") serverLog.error(error.message);
    else serverLog.error({ err: error }, "the app could not start");
    process.exit(1);
  }

  const app = createHttpApp({ build, entry, buildDir });

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "0.0.0.0";
  const server = app.listen(port, host);

  // Longer than the idle timeout of common proxies and load balancers (60 s), so the server never
  // closes a kept-alive connection just as the proxy (or a client) sends the next request on it:
  // that race shows as a reset connection (a 502 behind a proxy).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  // Requests under way are answered; then the process ends (the primary stops the database after).
  const shutdown = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
