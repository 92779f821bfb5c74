// `npm run dev`: the development server (scripts/dev-server.mjs: the production server's HTTP app
// with Vite in it, hot reload) on the embedded PostgreSQL in DATA_DIR/postgres (ADR 0013), started
// here and stopped with it; or on DATABASE_URL when set. `npm run dev -- --port 4000 --host 0.0.0.0`
// (or PORT, HOST) moves it from http://127.0.0.1:3000.
import { spawn } from "node:child_process";
import path from "node:path";
import { EmbeddedPostgresError, startEmbeddedPostgres } from "./embedded-postgres.mjs";
import { createLog, routeConsoleTo } from "./log.mjs";

const root = path.resolve(import.meta.dirname, "..");
// Readable lines (scripts/log.mjs); the embedded server's own lines come through console.
const log = createLog();
routeConsoleTo(log);
const dbLog = log.child({ component: "db" });
let database = null;
const ownDatabaseUrl = process.env.DATABASE_URL;
const dataDir = path.resolve(root, process.env.DATA_DIR || "data");
if (!process.env.DATABASE_URL) {
  try {
    database = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "postgres"), log: console });
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) dbLog.error(error.message);
    else dbLog.error({ err: error }, "the embedded PostgreSQL could not start");
    process.exit(1);
  }
  dbLog.info(`embedded PostgreSQL in ${path.join(dataDir, "postgres")}, on 127.0.0.1:${database.port}`);
  Object.assign(process.env, { DATABASE_URL: database.url, EMBEDDED_DATABASE: "true" });
}
// Demo mode as for `npm start` (scripts/demo-mode.mjs): on for a fresh embedded database unless set.
const { applyDemoMode } = await import("./demo-mode.mjs");
applyDemoMode({ dataDir, databaseUrl: ownDatabaseUrl, freshDatabase: Boolean(database?.fresh) });
const child = spawn(process.execPath, [path.join(import.meta.dirname, "dev-server.mjs"), ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  database?.stopping();
  if (child.exitCode === null) child.kill("SIGTERM");
  await database?.stop();
  process.exit(code);
};
child.once("exit", (code) => stop(code ?? 0));
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
