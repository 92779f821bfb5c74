// The production server, and the one entry a service manager runs (`node server.mjs`, from any
// working directory; `npm run serve`; `npm start` builds first). The primary process starts the
// embedded PostgreSQL when no DATABASE_URL is set (ADR 0013) and runs one app process per core
// (WEB_CONCURRENCY), all on the one database; started as root, they run as an unprivileged user
// (scripts/service.mjs). Each app process serves static assets, sets the remote address for rate
// limits, and runs the app. SIGTERM drains: /healthz says "draining", the requests under way finish
// within SHUTDOWN_GRACE_SECONDS, then the database server stops. The primary also takes the nightly
// backup of the embedded database (scripts/backup-schedule.mjs): one primary per data folder, so one
// backup a night however many app processes there are.
import cluster from "node:cluster";
import fs from "node:fs";
import { register } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createLog, logFormat, routeConsoleTo } from "./scripts/log.mjs";
import {
  cannotListenMessage,
  checkCanListen,
  listenHost,
  prepareForAccount,
  runAsAccount,
  ServiceError,
  shutdownGraceSeconds,
  urlHost,
} from "./scripts/service.mjs";

const began = Date.now();
// A production server unless told otherwise (also when started as `node server.mjs`).
process.env.NODE_ENV ??= "production";
// The server works from the app's folder (its build, migrations, fonts), whatever the working
// directory it was started in; DATA_DIR defaults to `data` in that folder. A path an operator sets is
// read from the working directory, as usual: made absolute first, for the app processes too (they
// inherit the environment and the app's folder as their working directory).
const appDir = import.meta.dirname;
if (cluster.isPrimary) {
  for (const name of [
    "BUILD_DIR",
    "DATA_DIR",
    "OUTBOX_DIR",
    "INSTITUTION_FILE",
    "PRAKSIS_CPU_PROFILE_DIR",
    "EMBEDDED_POSTGRES_CACHE",
    "BACKUP_DIR",
  ]) {
    if (process.env[name]) process.env[name] = path.resolve(process.env[name]);
  }
  process.env.DATA_DIR ||= path.join(appDir, "data");
  process.chdir(appDir);
}
const buildDir = process.env.BUILD_DIR || path.join(appDir, "build");

if (cluster.isPrimary) await primary();
else await worker();

// eslint-disable-next-line max-lines-per-function -- the primary's life in order (the database, the workers, the signals, the drain, the stop), sharing its state; its steps are the short functions it calls
async function primary() {
  // The primary's own lines (and the embedded PostgreSQL's, through console) in the log's format.
  const log = createLog();
  if (logFormat() !== "console") routeConsoleTo(log);
  const serverLog = log.child({ component: "server" });
  const dbLog = log.child({ component: "db" });
  // `node server.mjs` serves a build and never makes one (it needs the devDependencies).
  if (!fs.existsSync(path.join(buildDir, "server/index.js"))) {
    serverLog.error(`no build in ${buildDir}: run \`npm run build\` first (\`npm start\` builds when needed)`);
    process.exit(1);
  }
  const dataDir = process.env.DATA_DIR;
  // Started as root: the app processes run as RUN_AS_USER, and so does the embedded PostgreSQL
  // unless EMBEDDED_POSTGRES_USER says otherwise (it refuses root).
  let account = null;
  try {
    account = runAsAccount({ dataDir });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    serverLog.error(error.message);
    process.exit(1);
  }
  if (account) process.env.EMBEDDED_POSTGRES_USER ||= account.name;
  // The nightly backup's settings, checked before anything starts (a wrong value names its variable).
  const { backupPlan, backupSettings, BackupSettingsError, startBackupSchedule } =
    await import("./scripts/backup-schedule.mjs");
  let backupsWanted;
  try {
    backupsWanted = backupSettings(process.env, { dataDir });
  } catch (error) {
    if (!(error instanceof BackupSettingsError)) throw error;
    serverLog.error(error.message);
    process.exit(1);
  }
  // A stop asked for while the database server starts: done once it has (else it would be left running).
  let stopAsked = null;
  const askStop = (signal) => (stopAsked = signal);
  process.on("SIGTERM", askStop);
  process.on("SIGINT", askStop);
  let database = null;
  // DATABASE_URL as the operator set it: the embedded server's is set below, for the app processes.
  const ownDatabaseUrl = process.env.DATABASE_URL;
  let freshDatabase = false;
  if (!process.env.DATABASE_URL) {
    const { startEmbeddedPostgres, EmbeddedPostgresError } = await import("./scripts/embedded-postgres.mjs");
    try {
      database = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "postgres"), log: console });
    } catch (error) {
      if (error instanceof EmbeddedPostgresError) dbLog.error(error.message);
      else dbLog.error({ err: error }, "the embedded PostgreSQL could not start");
      process.exit(1);
    }
    dbLog.info(
      `embedded PostgreSQL in ${path.join(dataDir, "postgres")}, on 127.0.0.1:${database.port} (started in ${Date.now() - began} ms)`,
    );
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
        dbLog.error(
          `carrying ${pgliteDir} over into PostgreSQL failed (nothing was changed): ${error instanceof Error ? error.message : error}`,
        );
        dbLog.error(
          `run it alone to see more: node scripts/carry-over-pglite.mjs ${pgliteDir} <postgres://…>, or move ${pgliteDir} away to start without it`,
        );
        process.exit(1);
      }
    }
  }

  if (stopAsked) {
    await database?.stop();
    serverLog.info(`${stopAsked} while starting: stopped after ${Date.now() - began} ms`);
    process.exit(0);
  }

  // Demo mode (the seed, the banner, the public outbox) when asked for, or for a fresh embedded
  // database; decided once here, handed to every app process as DEMO_MODE.
  const { applyDemoMode } = await import("./scripts/demo-mode.mjs");
  const demo = applyDemoMode({ dataDir, databaseUrl: ownDatabaseUrl, freshDatabase });

  // Where the app processes listen: HOST, else loopback for the demo (its public /dev/outbox), every
  // interface outside it. A port in use is said in one line, before anything else starts.
  const port = Number(process.env.PORT ?? 3000);
  const host = listenHost(process.env, demo.on === true);
  process.env.HOST = host;
  // (A PORT that is no port is left to the app's check of the settings, which names it.)
  const listenProblem = Number.isInteger(port) && port >= 1 && port <= 65535 ? await checkCanListen(port, host) : null;
  if (listenProblem) {
    serverLog.error(listenProblem);
    await database?.stop();
    process.exit(1);
  }

  // The demo's own Feide and Vipps (scripts/demo-providers.mjs): started here once, their settings
  // passed on to the app processes; not outside the demo, nor for a provider that is configured.
  let demoProviders = null;
  const { demoProviderKinds, startDemoProviders } = await import("./scripts/demo-providers.mjs");
  // The nightly backup runs here, in the primary, for the embedded database only: a PostgreSQL of the
  // institution's own (DATABASE_URL) is backed up by those who run it. /healthz says whether it runs.
  const backupLog = log.child({ component: "backup" });
  const backupsPlanned = backupPlan(backupsWanted, { embedded: Boolean(database) });
  // (Set here only: a value from outside would have /healthz say what is not so.)
  process.env.BACKUPS_SCHEDULED = backupsPlanned.scheduled ? "true" : "false";
  if (backupsPlanned.why) backupLog.info(backupsPlanned.why);
  let backups = null;
  const kinds = demoProviderKinds(process.env);
  if (kinds.length > 0) {
    try {
      demoProviders = await startDemoProviders({ kinds, appPort: port, appUrl: process.env.APP_URL });
      Object.assign(process.env, demoProviders.env);
      for (const [kind, peer] of Object.entries(demoProviders.peers)) {
        console.info(
          `[demo] a demo ${kind === "feide" ? "Feide" : "Vipps"} (not the real one) on ${peer.issuer}: its button on the log-in page lets you pick a person`,
        );
      }
    } catch (error) {
      // The demo goes on without them: the log-in page then says the provider is not set up.
      console.warn(
        `[demo] the demo Feide and Vipps could not start: ${error instanceof Error ? error.message : error}`,
      );
    }
  }

  const workers = Math.max(1, Number(process.env.WEB_CONCURRENCY) || os.availableParallelism());
  // `npm run profile` (PRAKSIS_CPU_PROFILE_DIR): every app process writes a CPU profile when it ends.
  const profileDir = process.env.PRAKSIS_CPU_PROFILE_DIR;
  const execArgv = profileDir ? [...process.execArgv, "--cpu-prof", `--cpu-prof-dir=${profileDir}`] : process.execArgv;
  // Started as root: DATA_DIR's app files (and the outbox) are the app processes' user's, who must
  // also be able to read the app; then they are forked as that user.
  if (account) {
    try {
      const outboxDir = path.resolve(process.env.OUTBOX_DIR || path.join(dataDir, "outbox"));
      prepareForAccount({
        account,
        dataDir,
        writableDirs: [outboxDir, ...(profileDir ? [path.resolve(profileDir)] : [])],
        readable: [import.meta.filename, path.join(buildDir, "server/index.js")],
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      serverLog.error(error.message);
      await demoProviders?.close();
      await database?.stop();
      process.exit(1);
    }
    serverLog.info(
      `running as root: the app processes run as the unprivileged user ${account.name} (uid ${account.uid}, RUN_AS_USER)`,
    );
  }
  cluster.setupPrimary({
    exec: import.meta.filename,
    args: [],
    execArgv,
    ...(account ? { uid: account.uid, gid: account.gid } : {}),
  });
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
      // An app process that cannot listen says why (one line, scripts/service.mjs) before it ends.
      child.on("message", (message) => {
        if (message?.type === "praksis:cannot-listen") child.cannotListen = message.text;
      });
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
          reject(new Error(child.cannotListen ?? `an app process could not start (${how})`));
          return;
        }
        const pause = Math.min(30_000, 1_000 * 2 ** (child.listened ? 0 : failedStarts++));
        if (child.listened) serverLog.error(`app process ${child.process.pid} ended (${how}); starting another`);
        else
          serverLog.error(
            `app process ${child.process.pid} could not start (${how}); trying again in ${pause / 1000} s`,
          );
        // An app process that had started has been replaced once its replacement listens (`resolve`
        // has been called already: a second call does nothing).
        setTimeout(() => {
          if (!stopping) fork().then(resolve, reject);
        }, pause);
      });
    });

  /**
   * Stops the app processes (each drains: the requests under way finish within the grace period),
   * then the demo providers and the database server. `signal`: what asked for it, logged with the
   * time it took.
   */
  const shutdown = async (code = 0, signal = null) => {
    if (stopping) return;
    stopping = true;
    const stopBegan = Date.now();
    const grace = shutdownGraceSeconds();
    if (signal)
      serverLog.info(`${signal}: stopping; the app processes finish the requests under way (grace ${grace} s)`);
    database?.stopping();
    const exits = forks.map(
      (child) => new Promise((resolve) => (child.process.exitCode !== null ? resolve() : child.once("exit", resolve))),
    );
    for (const child of forks) child.process.kill("SIGTERM");
    // Each ends by itself when its grace period is over; one that does not is killed a little after.
    const timer = setTimeout(() => forks.forEach((child) => child.process.kill("SIGKILL")), grace * 1000 + 5_000);
    await Promise.all(exits);
    clearTimeout(timer);
    // A backup under way finishes first (the database is still needed); no new one starts.
    await backups?.stop();
    await demoProviders?.close();
    await database?.stop();
    if (signal) serverLog.info(`stopped after ${Date.now() - stopBegan} ms`);
    process.exit(code);
  };
  process.off("SIGTERM", askStop);
  process.off("SIGINT", askStop);
  process.on("SIGTERM", () => shutdown(0, "SIGTERM"));
  process.on("SIGINT", () => shutdown(0, "SIGINT"));
  if (stopAsked) await shutdown(0, stopAsked);

  try {
    // The first process checks the configuration, migrates (and seeds the demo) alone; then the others.
    await fork({ first: true });
    await Promise.all(Array.from({ length: workers - 1 }, () => fork()));
  } catch (error) {
    serverLog.error(error.message);
    await shutdown(1);
    return;
  }
  if (process.env.BACKUPS_SCHEDULED === "true" && !stopping) {
    try {
      backups = startBackupSchedule({
        settings: backupsWanted,
        databaseUrl: database.url,
        // The engine (scripts/backup/), loaded when the first backup is taken.
        writeBackup: async (options) => (await import("./scripts/backup/index.mjs")).writeBackup(options),
        log: backupLog,
        // Started as root: the backups are the app processes' user's, who reads the status (/healthz).
        owner: account ? { uid: account.uid, gid: account.gid } : null,
        // When the database was made (its cluster's PG_VERSION): one made today waits for the night.
        databaseSince: fileTime(path.join(dataDir, "postgres", "PG_VERSION")),
      });
    } catch (error) {
      // The folder cannot be made: said as an error, and the app serves on without the schedule.
      backupLog.error(
        `the nightly backup cannot start in ${backupsWanted.dir}: ${error instanceof Error ? error.message : error}`,
      );
    }
  }
  const everywhere = host === "0.0.0.0" || host === "::" ? " (every interface)" : "";
  serverLog.info(
    `Praksis listening on http://${urlHost(host)}:${port}${everywhere}: ${workers} app process${workers === 1 ? "" : "es"} (ready in ${Date.now() - began} ms)`,
  );
}

/** When a file was last changed, or null when it cannot be read. */
function fileTime(file) {
  try {
    return fs.statSync(file).mtime;
  } catch {
    return null;
  }
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

  // Draining (after SIGTERM): /healthz answers 503 "draining" and every answer closes its connection.
  let draining = false;
  const app = createHttpApp({ build, entry, buildDir, isDraining: () => draining });

  const port = Number(process.env.PORT ?? 3000);
  // The primary's choice (HOST, or loopback for the demo); 0.0.0.0 when this process runs alone.
  const host = process.env.HOST || "0.0.0.0";
  const server = app.listen(port, host);
  server.on("error", (error) => {
    const text = cannotListenMessage(error, host, port);
    if (!text) throw error;
    // Said once, by the primary; alone, here.
    if (process.send) process.send({ type: "praksis:cannot-listen", text }, () => process.exit(1));
    else {
      serverLog.error(text);
      process.exit(1);
    }
  });
  // The answers under way, for the drain.
  const underWay = new Set();
  server.on("request", (req, res) => {
    underWay.add(res);
    res.once("close", () => {
      underWay.delete(res);
      if (draining && underWay.size === 0) stopListening();
    });
  });

  // Longer than the idle timeout of common proxies and load balancers (60 s), so the server never
  // closes a kept-alive connection just as the proxy (or a client) sends the next request on it:
  // that race shows as a reset connection (a 502 behind a proxy).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  // SIGTERM: draining. The server keeps listening while requests are under way, so a load balancer's
  // health check reads "draining" and stops sending; idle kept-alive connections are closed at once,
  // the others after their answer. When none is left, or the grace period is over (the rest are cut),
  // the process ends (the primary stops the database after).
  const grace = shutdownGraceSeconds();
  let drainBegan = 0;
  let graceTimer;
  const ended = (cut) => {
    clearTimeout(graceTimer);
    const ms = Date.now() - drainBegan;
    serverLog.info(
      cut > 0
        ? `drained after ${ms} ms: the grace period ended, ${cut} request${cut === 1 ? "" : "s"} cut`
        : `drained after ${ms} ms`,
    );
    process.exit(0);
  };
  let closing = false;
  const stopListening = () => {
    if (closing) return;
    closing = true;
    server.close(() => ended(0));
    server.closeIdleConnections();
  };
  const shutdown = () => {
    if (draining) return;
    draining = true;
    drainBegan = Date.now();
    const inFlight = underWay.size;
    serverLog.info(`draining, ${inFlight} request${inFlight === 1 ? "" : "s"} in flight, grace ${grace} s`);
    // Requests that came before: their connection closes after the answer too (createHttpApp sees to later ones).
    for (const res of underWay) if (!res.headersSent) res.setHeader("Connection", "close");
    graceTimer = setTimeout(() => {
      const cut = underWay.size;
      server.closeAllConnections();
      ended(cut);
    }, grace * 1000);
    if (inFlight === 0) stopListening();
    else server.closeIdleConnections();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
